"""A player's statistics and the standings after a correction or a void: figures worked by hand.

The club is `test_standings.py`'s 茶馆 (its comment works each hand out). 王's figures:
- 盘 points (本溪, session A): 5 hands, total 315, 63.0 a hand; declared 80 (made) and 100 (made);
  partner 张 on all 5 hands, their side won hands 1 (made), 2 (李 broke), 5 (made) = 3 of 5, 王's own 315;
  opponents 李 and 赵 on all 5, 王's side won 3, 王's own total over them 80 + 20 + 0 − 85 + 300 = 315.
- 注 (classic, session B, seats 李 王 钱 张): total +4 over 3 hands, 1.3 a hand; declared 70 alone, made.
  Same side: hand 1 王 and 张 defend against 李 + 钱 (lost), hand 3 王 is 张's friend (broken, lost):
  张 2 hands, 0 won, 王 −1 − 1 = −2. Opposite: hand 1 李, 钱 (王 −1, lost); hand 2 李, 钱, 张 (王 +6, won);
  hand 3 李, 钱 (王 −1, lost): 李 and 钱 3 hands, 1 won, net +4; 张 1 hand, 1 won, net +6.
"""

from __future__ import annotations

import datetime

import pytest

from settlement import services
from tests.factories import BENXI_EXAMPLE, make_session, record_hands

from .conftest import client_for
from .test_standings import URL, seven_more_sessions, tea_house  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db


def _url(club, name):
    return f"/api/v1/clubs/{club.slug}/players/{club.players.get(name=name).pk}/stats/"


def _others(rows):
    return [(row["player"]["name"], row["hands"], row["won"], row["net"]) for row in rows]


def test_a_players_figures_per_family_and_unit(tea_house):  # noqa: F811
    club, owner = tea_house[:2]
    body = client_for(owner).get(_url(club, "王")).json()
    assert (body["player"]["name"], body["sessions"], body["hands"]) == ("王", 2, 8)
    pan, zhu = body["groups"]
    assert (pan["group"], pan["total"], pan["hands"], pan["per_hand"], pan["per_session"]) == (
        "baifen/pan_points",
        315,
        5,
        63.0,
        315.0,
    )
    assert (pan["sessions_won"], pan["games_won"], pan["declared"], pan["declarer_won"]) == (1, 1, 2, 2)
    assert pan["by_bid"] == [
        {"bid": 80, "band": None, "declared": 1, "made": 1},
        {"bid": 100, "band": None, "declared": 1, "made": 1},
    ]
    assert _others(pan["partners"]) == [("张", 5, 3, 315)]
    assert (pan["partners"][0]["per_hand"], pan["opponents"][0]["per_hand"]) == (63.0, 63.0)
    assert _others(pan["opponents"]) == [("李", 5, 3, 315), ("赵", 5, 3, 315)]
    assert pan["best"]["total"] == pan["worst"]["total"] == 315
    assert pan["running"] == [{"session": tea_house[2].pk, "date": "2026-11-01", "total": 315, "running": 315}]
    assert (zhu["group"], zhu["total"], zhu["hands"], zhu["per_hand"], zhu["sessions_won"]) == (
        "baifen/zhu",
        4,
        3,
        1.3,
        0,
    )
    assert zhu["by_bid"] == [{"bid": 70, "band": None, "declared": 1, "made": 1}]
    assert _others(zhu["partners"]) == [("张", 2, 0, -2)]
    assert _others(zhu["opponents"]) == [("李", 3, 1, 4), ("钱", 3, 1, 4), ("张", 1, 1, 6)]
    assert [row["per_hand"] for row in zhu["opponents"]] == [1.3, 1.3, 6.0]  # 4 / 3 = 1.33…
    # No one has 10 hands with or against 王 yet: no best or worst.
    assert [pan[key] for key in ("best_partner", "worst_partner", "best_opponent", "worst_opponent")] == [None] * 4


def test_the_best_and_worst_opponent_need_the_minimum_of_hands(tea_house):  # noqa: F811
    club, owner = tea_house[:2]
    # Seven October sessions of 2, 3, 4, 5, 1, 2, 3 hands (王 李 客n 赵): 王 takes a prefix of 80, 20, 0, −85, 300:
    # 100, 100, 15, 315, 80, 100, 100 = 810; with A's 315, 1,125 over 25 hands against 李 and 赵 each, 45.0 a hand.
    # Equal: more hands, then the name (李 before 赵 in code points). The guests' 2 to 5 hands are too few.
    seven_more_sessions(club, owner)
    pan = client_for(owner).get(_url(club, "王")).json()["groups"][0]
    best, worst = pan["best_opponent"], pan["worst_opponent"]
    assert (best["player"]["name"], best["hands"], best["net"], best["per_hand"]) == ("李", 25, 1125, 45.0)
    assert (worst["player"]["name"], worst["hands"], worst["net"], worst["per_hand"]) == ("赵", 25, 1125, 45.0)
    assert (pan["best_partner"], pan["worst_partner"]) == (None, None)  # 张 5 hands, each guest at most 5


def test_best_and_worst_sessions_and_the_running_total_follow_the_dates(tea_house):  # noqa: F811
    club, owner = tea_house[:2]
    # A second 本溪 session a day earlier: hand 1 only, 王 + 张 +80 (made, 15 captured).
    earlier = make_session(club, owner, date=datetime.date(2026, 10, 31), players=["王", "李", "张", "赵"])
    record_hands(earlier, owner, BENXI_EXAMPLE[:1])
    pan = client_for(owner).get(_url(club, "王")).json()["groups"][0]
    assert [(p["total"], p["running"]) for p in pan["running"]] == [(80, 80), (315, 395)]
    assert (pan["best"]["total"], pan["worst"]["total"]) == (315, 80)
    assert (pan["sessions"], pan["per_session"], pan["per_hand"]) == (2, 197.5, 65.8)  # 395 / 2; 395 / 6


def test_a_void_changes_the_figures_that_depend_on_it_and_nothing_else(tea_house):  # noqa: F811
    club, owner, _, b = tea_house
    client = client_for(owner)
    before_standings = client.get(URL).json()
    before = client.get(_url(club, "王")).json()
    # Void B's hand 2 (王 +6, each other −2): 王 4 − 6 = −2, 李 and 钱 0 + 2 = 2, 张 −4 + 2 = −2; 2 hands each.
    services.hand_void(session=b, user=owner, number=2, reason="wrong table")
    after_standings = client.get(URL).json()
    after = client.get(_url(club, "王")).json()
    assert after_standings[0] == before_standings[0]  # 盘 points untouched
    assert [(r["rank"], r["player"]["name"], r["total"], r["hands"]) for r in after_standings[1]["rows"]] == [
        (1, "李", 2, 2),
        (1, "钱", 2, 2),
        (3, "张", -2, 2),
        (3, "王", -2, 2),
    ]
    assert after["groups"][0] == before["groups"][0]
    zhu = after["groups"][1]
    assert (zhu["total"], zhu["hands"], zhu["by_bid"]) == (-2, 2, [])
    assert _others(zhu["opponents"]) == [("李", 2, 0, -2), ("钱", 2, 0, -2)]


def test_a_correction_changes_the_figures_that_depend_on_it_and_nothing_else(tea_house):  # noqa: F811
    club, owner, a, _ = tea_house
    client = client_for(owner)
    before_standings = client.get(URL).json()
    before_wang = client.get(_url(club, "王")).json()
    # A's hand 1 captured 15 → 20: still made with points taken, 王 + 张 +80; 李 + 赵 +20: 235.
    services.hand_correct(
        session=a, user=owner, number=1, hand_input={**BENXI_EXAMPLE[0], "captured": 20}, reason="miscounted"
    )
    after_standings = client.get(URL).json()
    assert after_standings[1] == before_standings[1]  # 注 untouched
    assert [(r["player"]["name"], r["total"]) for r in after_standings[0]["rows"]] == [
        ("张", 315),
        ("王", 315),
        ("李", 235),
        ("赵", 235),
    ]
    assert client.get(_url(club, "王")).json() == before_wang  # 王's own figures do not depend on it
    li = client.get(_url(club, "李")).json()["groups"][0]
    assert (li["total"], li["per_hand"]) == (235, 47.0)


def test_player_stats_cost_the_same_queries_however_many_sessions(tea_house, django_assert_num_queries):  # noqa: F811
    club, owner = tea_house[:2]
    client = client_for(owner)
    url = _url(club, "王")
    # token, membership, player, seats, hand figures, game figures, bids, partners, opponents, their names
    with django_assert_num_queries(10):
        client.get(url)
    seven_more_sessions(club, owner)
    with django_assert_num_queries(10):
        assert client.get(url).json()["sessions"] == 9


def test_another_clubs_player_is_not_found(tea_house):  # noqa: F811
    club, owner = tea_house[:2]
    from settlement.models import Player

    stranger = Player.objects.exclude(club=club).first()
    response = client_for(owner).get(f"/api/v1/clubs/{club.slug}/players/{stranger.pk}/stats/")
    assert response.status_code == 404
