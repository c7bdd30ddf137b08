"""Typography and units on the pages (issue 31, items 11 and 12): full-width brackets and colons in Chinese
text, a true minus sign on every figure, each unit and tag in the page's language, a settle-up with its unit."""

from __future__ import annotations

import re
from decimal import Decimal
from html import unescape

import pytest
from django.conf import settings
from django.urls import reverse

from settlement import services
from settlement.presentation.formats import minus
from tests.factories import BENXI_EXAMPLE, make_history, make_session, record_hands

pytestmark = pytest.mark.django_db


def _url(session, name):
    return reverse(name, kwargs={"slug": session.club.slug, "session_id": session.pk})


def _text(client, url: str) -> str:
    html = client.get(url).content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


@pytest.mark.parametrize(
    ("lang", "line", "unit"),
    [
        ("zh-hans", "第 1 盘结束（出锅）：胜方", "到 ±205（分）"),
        ("en", "Game 1 is over (reached the target): won by", "to ±205 (points)"),
    ],
)
def test_the_game_over_line_and_the_unit_use_the_pages_brackets(owner_client, lang, line, unit):
    client, club, owner = owner_client
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE[:4])  # B wins 盘 1 at hand 4
    text = re.sub(r"\s*([（）：])\s*", r"\1", _text(client, _url(session, "table")))
    assert line in text
    assert unit in text
    assert "(分)" not in text


@pytest.mark.parametrize(("lang", "tag"), [("zh-hans", ">庄胜<"), ("en", ">declarer wins (庄胜)<")])
def test_a_hands_tag_is_glossed_in_english(owner_client, lang, tag):
    client, club, owner = owner_client
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    session = make_session(club, owner, variant="biaofen")
    # 边家 take 30 < the bid 50: 庄胜 (docs/rules/biaofen.md).
    record_hands(session, owner, [{"dealer": 0, "declarer": 0, "bid": 50, "captured": 30}])
    assert tag in client.get(_url(session, "session_detail")).content.decode()


def test_an_average_is_written_with_a_true_minus_sign():
    assert minus(Decimal("-16.7")) == "−16.7"


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_no_figure_on_the_standings_or_a_players_page_has_an_ascii_minus(owner_client, lang):
    client, club, owner = owner_client
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    wang, *_ = make_history(club, owner)
    standings = _text(client, reverse("standings", kwargs={"slug": club.slug}))
    player = _text(client, reverse("player_detail", kwargs={"slug": club.slug, "player_id": wang.pk}))
    for text in (standings, player):
        assert "−" in text  # 老王 loses in the classic session: there is a negative figure to write
        assert not re.search(r"(?<![\w/.:-])-\d", text)


@pytest.mark.parametrize(
    ("lang", "unit_value", "lines"),
    [
        ("zh-hans", 1, ["乙 付给 甲 1 注", "丁 付给 丙 1 注"]),
        ("en", 1, ["乙 pays 甲 1 (stakes)", "丁 pays 丙 1 (stakes)"]),
        ("zh-hans", 3, ["乙 付给 甲 钱 3（1 注）", "丁 付给 丙 钱 3（1 注）"]),
        ("en", 3, ["乙 pays 甲 3 in money (stakes: 1)", "丁 pays 丙 3 in money (stakes: 1)"]),
    ],
)
def test_the_settle_up_states_its_unit_or_the_money(owner_client, lang, unit_value, lines):
    client, club, owner = owner_client
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    session = make_session(club, owner, variant="baifen.classic", options={"unit_value": unit_value})
    # Declarer 甲 with partner 丙 makes 60 (captured 30 < 40): ±1 注 each; the largest debt (乙, the lower
    # seat of two equal ones) pays the largest credit (甲).
    record_hands(session, owner, [{"declarer": 0, "bid": 60, "partner": 2, "captured": 30}])
    services.session_close(session=session, user=owner)
    for name in ("table", "session_detail"):
        text = _text(client, _url(session, name))
        for line in lines:
            assert line in text, name
