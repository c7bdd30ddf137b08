"""What a hand is called on the pages: 局 in the 打百分 games, 打二鬼 and 标分, 副 in the level games.

The level games' own texts say 副 (rules/hongxingwu.md, gunzi.md, shengji.md: 下一副 …); English
says "hand" everywhere. Each session has one hand recorded, so the table page's entry is hand 2.
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import reverse

from tests.factories import make_club, make_member, make_session, record_hands

pytestmark = pytest.mark.django_db

# (variant, its first hand, the word for a hand in zh-Hans)
FIRST_HANDS = [
    ("baifen.benxi", {"dealer": 0, "declarer": 0, "bid": 80, "captured": 15}, "局"),
    ("erguai", {"dealer": 0, "redeal": "misdeal"}, "局"),
    ("biaofen", {"dealer": 0, "redeal": "misdeal"}, "局"),
    ("hongxingwu", {"declarer": 0, "captured": 60}, "副"),
    ("gunzi", {"declarer": 0, "captured": 100}, "副"),
    ("shengji", {"declarer": 0, "captured": 40}, "副"),
]


def _text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def one_hand(client):
    def make(variant, hand, lang):
        club = make_club()
        owner = make_member(club)
        session = make_session(club, owner, variant=variant, players=["甲", "乙", "丙", "丁"])
        record_hands(session, owner, [hand])
        client.force_login(owner)
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
        return session

    return make


def _get(client, name, session, **kwargs):
    response = client.get(reverse(name, kwargs={"slug": session.club.slug, "session_id": session.pk, **kwargs}))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize(("variant", "hand", "word"), FIRST_HANDS)
def test_the_pages_call_a_hand_what_the_variants_players_call_it(client, one_hand, variant, hand, word):
    session = one_hand(variant, hand, "zh-hans")
    table = _get(client, "table", session)
    assert re.search(rf'<h2 id="entry-title">\s*第 2 {word}', table)
    table_saved = client.get(reverse("table", args=[session.club.slug, session.pk]) + "?saved=1").content.decode()
    assert f"第 1 {word}已记录。" in _text(table_saved)
    fix = _get(client, "table_fix", session, number=1)
    assert re.search(rf'<h2 id="entry-title">\s*更正第 1 {word}', fix)
    detail = _get(client, "hand_detail", session, number=1)
    assert re.search(rf"<h1>第 1 {word}", detail)


@pytest.mark.parametrize(("variant", "hand", "word"), FIRST_HANDS)
def test_english_says_hand_in_every_game(client, one_hand, variant, hand, word):
    session = one_hand(variant, hand, "en")
    assert re.search(r'<h2 id="entry-title">\s*Hand 2\b', _get(client, "table", session))
    assert re.search(r'<h2 id="entry-title">\s*Fix hand 1\b', _get(client, "table_fix", session, number=1))
    assert re.search(r"<h1>Hand 1\b", _get(client, "hand_detail", session, number=1))


@pytest.mark.parametrize(
    ("variant", "what", "zh", "en"),
    [
        ("gunzi", "corrected", "第 3 副（更正后）", "Hand 3, corrected"),
        (
            "gunzi",
            "fixed",
            "第 3 副已更正，之后各副已重新结算。",
            "Hand 3 fixed; the totals after it are settled again.",
        ),
        ("hongxingwu", "refused", "第 3 副：必填", "Hand 3: is required"),
        ("baifen.fushun", "corrected", "第 3 局（更正后）", "Hand 3, corrected"),
        ("biaofen", "refused", "第 3 局：必填", "Hand 3: is required"),
        ("shengji", "next", "下一副：第 3 副", "Next: hand 3"),
        ("erguai", "next", "下一局：第 3 局", "Next: hand 3"),
    ],
)
def test_every_text_naming_a_hand_follows_the_variant(variant, what, zh, en):
    from django.utils import translation

    from settlement.presentation.sessions import hand_label

    for lang, expected, message in (("zh-hans", zh, "必填"), ("en", en, "is required")):
        with translation.override(lang):
            assert hand_label(variant, 3, what, message=message) == expected
