"""The demo club's standings and player statistics, against figures worked by hand, one session per family.

打百分 (本溪, classic) is worked in test_standings.py; here the demo's other families, each session's hands
from the rules files (the demo's documents are their examples) and ../shared/golden/*-worked.json:

打二鬼 (11-15, closed; seats 老赵 阿明 春燕 小李; rules/erguai.md's example, 老赵 declares every hand):
  85 with 春燕, 10 captured: D = −5, [5, −5, 5, −5];  90 with 春燕, 45: D = 35, 包场 (45 > 40): [−70, 35, 0, 35];
  80 alone, 30: D = 10, [−30, 10, 10, 10];  100 爆 with 阿明, 0: 光头 50 × 2 and 喜金 10 × 3: [130, 90, −110, −110].
  Totals 老赵 35, 阿明 130, 春燕 −95, 小李 −70 (a hand: 8.75 → 8.8, 32.5, −23.75 → −23.8, −17.5).
  老赵 made 85 and 100, broke 90 and 80. Partners: 春燕 hands 1–2 (won 1; 老赵 5 − 70 = −65), 阿明 hand 4 (won; 130).
  Opponents: 小李 all 4 (won 1 and 4; net 5 − 70 − 30 + 130 = 35), 阿明 1–3 (won 1; 5 − 70 − 30 = −95),
  春燕 3–4 (won 4; −30 + 130 = 100).
标分 (11-16, closed; seats 张姐 老王 小李 阿明; per 边家):
  张姐 55, s 85 ≥ 55 < 95: 打宕 k 1: 张姐 −3, others +1.   小李 50, s 25 < 50, 小光 (≤ 25): 3 + 1: 小李 +12, others −4.
  张姐 50 投降: 3 each: −9, +3.   张姐 55, s 50: 庄胜 2, her third declaring: +1 streak: +9, others −3.
  老王 50, s 40: 庄胜 3: +9, others −3.   小李 50, s 130 ≥ 120 (50, 90, 120): k 3: −9, +3.
  Hands: 张姐 −7, 老王 9, 小李 1, 阿明 −3; 阿明 never declared: pays 2 to each: 张姐 −5, 老王 11, 小李 3, 阿明 −9.
  The round is won by those above 0: 老王 and 小李.
红星五 (11-22, closed; seats 阿明 春燕 老赵 张姐; golden hongxingwu-worked): deltas [8, 0, 8, 0], [1, 0, 1, 0],
  [0, 1, 0, 1], [0, 0, 0, 0]: 阿明 老赵 9, 春燕 张姐 1 (a hand 2.25 → 2.3, 0.25 → 0.3). 阿明 declares hand 1 at
  level 2 (made: up to 10) and hand 3 at J (the capture team goes up): bands 2–5 made, 10–K not.
打滚子 (11-21, closed; seats 老王 小李 张姐 老赵; golden gunzi-worked): totals [−7, −4, 4, 7]. 老王 declares
  hand 1 at 3 (the first level; declarer up) and hand 3 at 8 (capture up): bands 2–5 made, 6–9 not; his
  partner 张姐 on all 5 hands, their side winning hands 1, 2 and 4 (小李's switch).
"""

from __future__ import annotations

import io

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from settlement.models import Player

from .conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    call_command("demo_load", verbosity=0, stdout=io.StringIO())
    return client_for(User.objects.get(username="demo"))


def _rows(group):
    return [
        (r["rank"], r["player"]["name"], r["total"], r["games_won"], r["sessions_won"], r["per_hand"])
        for r in group["rows"]
    ]


def test_the_demo_standings_per_family(demo):
    groups = {g["group"]: g for g in demo.get("/api/v1/clubs/demo/standings/").json()}
    assert list(groups)[:2] == ["baifen/pan_points", "baifen/zhu"]
    assert _rows(groups["erguai/stake_points"]) == [
        (1, "阿明", 130, 0, 1, 32.5),
        (2, "老赵", 35, 0, 0, 8.8),
        (3, "小李", -70, 0, 0, -17.5),
        (4, "春燕", -95, 0, 0, -23.8),
    ]
    assert _rows(groups["biaofen/dang"]) == [
        (1, "老王", 11, 1, 1, 1.8),
        (2, "小李", 3, 1, 0, 0.5),
        (3, "张姐", -5, 0, 0, -0.8),
        (4, "阿明", -9, 0, 0, -1.5),
    ]
    assert _rows(groups["hongxingwu/levels"]) == [
        (1, "老赵", 9, 0, 1, 2.3),
        (1, "阿明", 9, 0, 1, 2.3),
        (3, "张姐", 1, 0, 0, 0.3),
        (3, "春燕", 1, 0, 0, 0.3),
    ]
    assert [(r[1], r[2], r[4]) for r in _rows(groups["gunzi/stake_points"])] == [
        ("老赵", 7, 1),
        ("张姐", 4, 0),
        ("小李", -4, 0),
        ("老王", -7, 0),
    ]


def _stats(demo, name):
    pk = Player.objects.get(club__slug="demo", name=name).pk
    return {g["group"]: g for g in demo.get(f"/api/v1/clubs/demo/players/{pk}/stats/").json()["groups"]}


def _others(rows):
    return [(row["player"]["name"], row["hands"], row["won"], row["net"]) for row in rows]


def _bids(group):
    return [(b["bid"], b["band"], b["declared"], b["made"]) for b in group["by_bid"]]


def test_the_demo_erguai_declarer_partners_and_opponents(demo):
    erguai = _stats(demo, "老赵")["erguai/stake_points"]
    assert _bids(erguai) == [(80, None, 1, 0), (85, None, 1, 1), (90, None, 1, 0), (100, None, 1, 1)]
    assert _others(erguai["partners"]) == [("春燕", 2, 1, -65), ("阿明", 1, 1, 130)]
    assert [row["per_hand"] for row in erguai["partners"]] == [-32.5, 130.0]
    assert _others(erguai["opponents"]) == [("小李", 4, 2, 35), ("阿明", 3, 1, -95), ("春燕", 2, 1, 100)]


def test_the_demo_biaofen_head_to_head(demo):
    # 老王 against 张姐: hands 1 (+1, won), 3 (+3, won), 4 (−3), 5 (+9, won); 小李: 2 (−4), 5 (+9), 6 (+3);
    # 阿明: hand 5 only, 老王 declaring (+9). 老王 declared 50 once and made it.
    biaofen = _stats(demo, "老王")["biaofen/dang"]
    assert _bids(biaofen) == [(50, None, 1, 1)]
    assert _others(biaofen["opponents"]) == [("张姐", 4, 3, 10), ("小李", 3, 2, 8), ("阿明", 1, 1, 9)]
    # The other 边家 of each hand 老王 did not declare: 阿明 hands 1 (+1, won), 2 (−4), 3 (+3, won), 4 (−3),
    # 6 (+3, won); 小李 1, 3, 4 (+1 + 3 − 3, won 2); 张姐 2 and 6 (−4 + 3, won 1).
    assert _others(biaofen["partners"]) == [("阿明", 5, 3, 0), ("小李", 3, 2, 1), ("张姐", 2, 1, -1)]
    assert [row["per_hand"] for row in biaofen["partners"]] == [0.0, 0.3, -0.5]
    assert (biaofen["min_hands"], biaofen["best_partner"], biaofen["worst_partner"]) == (10, None, None)


def test_the_demo_level_games_count_declaring_by_band_of_levels(demo):
    assert _bids(_stats(demo, "阿明")["hongxingwu/levels"]) == [(None, "2–5", 1, 1), (None, "10–K", 1, 0)]
    gunzi = _stats(demo, "老王")["gunzi/stake_points"]
    assert _bids(gunzi) == [(None, "2–5", 1, 1), (None, "6–9", 1, 0)]
    assert _others(gunzi["partners"]) == [("张姐", 5, 3, -7)]
    assert _others(gunzi["opponents"]) == [("小李", 5, 3, -7), ("老赵", 5, 3, -7)]
