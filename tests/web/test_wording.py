"""Words on the table page: each variant's own unit, one punctuation, and why the standings are in order."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import reverse

from settlement import services
from tests.factories import BENXI_EXAMPLE, make_session, record_hands

pytestmark = pytest.mark.django_db


def _table(session, name="table"):
    return reverse(name, kwargs={"slug": session.club.slug, "session_id": session.pk})


def _text(html: str, start: str) -> str:
    i = html.index(start)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html[i : html.index("</section>", i)]))


@pytest.mark.parametrize(
    ("lang", "rule", "unfinished"),
    [
        ("zh-hans", "按胜盘数排名；胜盘数相同，再比全场合计。", "第 3 盘未打完，不计胜负。"),
        (
            "en",
            "Ranked by games won; with as many games won, by the session total.",
            "Game 3 was not finished: nobody won it.",
        ),
    ],
)
def test_benxi_final_standings_state_the_ranking_rule_and_the_unfinished_game(owner_client, lang, rule, unfinished):
    client, club, owner = owner_client
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    session = make_session(club, owner)
    # rules/baifen.md's example: B wins 盘 1 (A 15, B 230), A wins 盘 2 (+300). Then 盘 3 starts:
    # B declares 85 and A captures 20 (105 > 100, broken): A +20, B −85, and the session ends there.
    record_hands(session, owner, [*BENXI_EXAMPLE, {"dealer": 1, "declarer": 1, "bid": 85, "captured": 20}])
    services.session_close(session=session, user=owner)
    final = _text(client.get(_table(session)).content.decode(), 'class="final"')
    # One 盘 each, so the total decides: A 15 + 300 + 20 = 335 before B 230 − 85 = 145.
    assert final.index("甲·丙 +335") < final.index("乙·丁 +145")
    assert rule in final and unfinished in final


def test_a_zero_sum_session_is_ranked_by_its_total_and_biaofen_counts_rounds(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner, variant="biaofen")
    # The round of six from the browser test (biaofen.md): seat 0 ends it at +9 +9 +12 +12 −1 … and wins it.
    record_hands(
        session,
        owner,
        [
            {"dealer": 2, "declarer": 0, "bid": 50, "captured": 30},
            {"declarer": 1, "bid": 60, "captured": 60},
            {"declarer": 0, "bid": 50, "captured": 30},
            {"declarer": 0, "bid": 50, "captured": 30},
            {"declarer": 2, "bid": 70, "captured": 10},
            {"declarer": 0, "bid": 50, "captured": 30},
        ],
    )
    board = _text(client.get(_table(session)).content.decode(), 'class="scoreboard"')
    assert "第 1 轮结束" in board and "下一局开始新的一轮。" in board and "盘" not in board
    services.session_close(session=session, user=owner)
    final = _text(client.get(_table(session)).content.decode(), 'class="final"')
    assert "按全场合计排名。" in final and "胜 1 轮" in final and "盘" not in final


def test_the_game_over_line_uses_chinese_punctuation(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE[:4])  # B wins 盘 1 at hand 4
    board = _text(client.get(_table(session)).content.decode(), 'class="scoreboard"')
    assert "胜方 乙、丁。 下一局开始新的一盘。" in board
    assert ". " not in board


def test_the_first_hand_of_a_new_gunzi_game_asks_for_the_declarer_without_an_error(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner, variant="gunzi")
    # s = 0: the capture team got nothing, a special that ends game 1 at once (rules/gunzi.md step 2).
    record_hands(session, owner, [{"declarer": 0, "captured": 0}])
    receipt = client.post(_table(session, "table_preview"), {}).content.decode()
    assert 'data-state="missing"' in receipt and "还要填" in receipt
    assert "必须填庄家" not in receipt


@pytest.mark.parametrize(
    ("variant", "hint"),
    [
        ("baifen.benxi", "重新发牌的一局不计分，只记头家。"),
        ("biaofen", "重新发牌的一局不计分，只记头家（和罚分）。"),
        ("gunzi", "重新发牌的一副不计分。"),
    ],
)
def test_the_redeal_hint_mentions_penalties_only_where_a_redeal_can_have_them(owner_client, variant, hint):
    client, club, owner = owner_client
    session = make_session(club, owner, variant=variant)
    assert hint in client.get(_table(session)).content.decode()
