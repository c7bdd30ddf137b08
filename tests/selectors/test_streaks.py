"""Records (runs, the biggest hand, the most 抠底, 光头, 出锅, 包场) and achievements, worked by hand from the rules.

The 本溪 example (rules/baifen.md, seats 0 + 2 = A = 甲丙 against 1 + 3 = B = 乙丁): hand 1 A made (A wins),
hand 2 B broken (A wins: A's run 2), hand 3 B made clean (+200), hand 4 A broken (B's run 2; B reaches 230:
出锅, 盘 1 to 乙丁), hand 5 A made 100 clean (+300: 出锅, 盘 2 to 甲丙).
"""

from __future__ import annotations

import datetime
import importlib

import pytest
from django.apps import apps

from settlement import selectors
from settlement.models import HandState, SettlementRow
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_session, record_hands

pytestmark = pytest.mark.django_db


def _table(groups):
    return {group.group: {r.kind: (r.value, r.player.name, r.hand.number) for r in group.records} for group in groups}


@pytest.fixture
def club():
    club = make_club()
    owner = make_member(club)
    benxi = make_session(club, owner, date=datetime.date(2026, 11, 1))
    record_hands(benxi, owner, BENXI_EXAMPLE)
    # 打二鬼 (rules/erguai.md's table): 甲 declares 90 with 丙, 闲 take 45 → 包场, 甲 pays 70 alone, 丙 nothing;
    # 甲 declares 100爆 with 乙, 闲 take 0 → 光头: 甲 +130, 乙 +90.
    erguai = make_session(club, owner, variant="erguai", date=datetime.date(2026, 11, 2))
    record_hands(
        erguai,
        owner,
        [
            {"declarer": 0, "bid": 90, "partner": 2, "captured": 45},
            {"declarer": 0, "bid": 100, "contract": "bao", "partner": 1, "captured": 0},
        ],
    )
    # 本溪 again, one day: three 抠底 (trump, joker, trump: B +200 each time, so B goes out at hand 2 with 400 and
    # wins 盘 1 again), then 抠手 (a side card) for A against B's declarer 丁, which is no 抠底.
    kou = make_session(club, owner, date=datetime.date(2026, 11, 3))
    record_hands(
        kou,
        owner,
        [
            {"dealer": 0, "declarer": 0, "bid": 80, "captured": 20, "kou": "trump"},
            {"dealer": 1, "declarer": 0, "bid": 85, "captured": 20, "kou": "joker"},
            {"dealer": 2, "declarer": 2, "bid": 85, "captured": 20, "kou": "trump"},
            {"dealer": 3, "declarer": 3, "bid": 85, "captured": 20, "kou": "side"},
        ],
    )
    return club, benxi, erguai, kou


def test_each_row_stores_the_hands_tags_and_the_run_it_ends(club):
    _, benxi, erguai, kou = club
    rows = SettlementRow.objects.filter(session=benxi, seat__in=(0, 1)).order_by("number", "seat")
    assert [(r.number, r.seat, r.run) for r in rows] == [
        (1, 0, 1), (1, 1, 0), (2, 0, 2), (2, 1, 0), (3, 0, 0), (3, 1, 1), (4, 0, 0), (4, 1, 2), (5, 0, 1), (5, 1, 0),
    ]  # fmt: skip
    marks = SettlementRow.objects.filter(session=erguai, seat=0).order_by("number")
    assert [(r.koudi, r.guangtou, r.baochang) for r in marks] == [(False, False, True), (False, True, False)]
    kous = SettlementRow.objects.filter(session=kou, seat=1).order_by("number")
    assert [r.koudi for r in kous] == [True, True, True, False]


def test_the_club_records_go_to_whoever_reached_them_first(club):
    club, *_ = club
    table = _table(selectors.club_records(club=club))
    assert table["baifen/pan_points"] == {
        # A's run of 2 (11-01, hand 2), B's of 2 (hand 4), then B's three 抠底 on 11-03: a run of 3 at hand 3,
        # 乙 and 丁 on the same hand (乙 first by the club's order of players, the first made).
        "run": (3, "乙", 3),
        "biggest": (300, "甲", 5),  # 11-01 hand 5, made 100 clean; the 抠 awards are 200
        "koudi": (3, "乙", 3),  # 乙 and 丁 three each, reached on the same hand
        "chuguo": (2, "乙", 2),  # 乙丁 went out on 11-01 (hand 4) and 11-03 (hand 2); 甲丙 once
    }
    assert table["erguai/stake_points"] == {
        "run": (2, "乙", 2),  # 乙 a 闲 winning hand 1, then 甲's partner winning hand 2
        "biggest": (130, "甲", 2),  # 光头 under 爆: 50 × 2 + 喜金 10 × 3
        "guangtou": (1, "甲", 2),  # the declaring side 甲乙
        "baochang": (1, "甲", 1),  # 甲 the declarer paid it
    }
    assert "koudi" not in table["erguai/stake_points"] and "baochang" not in table["baifen/pan_points"]


def test_a_players_records_are_their_own_bests(club):
    club, *_ = club
    ding = club.players.get(name="丁")
    table = _table(selectors.player_records(club=club, player=ding))
    assert table == {
        "baifen/pan_points": {
            "run": (3, "丁", 3),
            "biggest": (200, "丁", 3),  # 11-01 hand 3, made clean 90 → 200 (first; the 抠 awards of 11-03 tie it)
            "koudi": (3, "丁", 3),
            "chuguo": (2, "丁", 2),
        },
        "erguai/stake_points": {"run": (1, "丁", 1), "biggest": (35, "丁", 1)},
    }


def test_the_achievements_name_the_hand_that_earned_them(club):
    club, benxi, erguai, kou = club
    earned = {
        name: [
            (a.badge, a.hand.session_id, a.hand.number)
            for a in selectors.player_achievements(club=club, player=club.players.get(name=name))
        ]
        for name in ("甲", "乙", "丙")
    }
    assert earned["乙"] == [
        ("first_koudi", kou.pk, 1),
        ("koudi_three", kou.pk, 3),
        ("first_guangtou", erguai.pk, 2),
        ("first_chuguo", benxi.pk, 4),
    ]
    assert earned["甲"] == [("first_guangtou", erguai.pk, 2), ("first_chuguo", benxi.pk, 5)]
    assert earned["丙"] == [("baochang_survived", erguai.pk, 1), ("first_chuguo", benxi.pk, 5)]


def test_the_migration_fills_the_columns_of_rows_written_before_it(club):
    _, *sessions = club
    columns = ("number", "seat", "koudi", "guangtou", "baochang", "run")

    def stored():
        return [
            (
                list(SettlementRow.objects.filter(session=s).order_by("number", "seat").values_list(*columns)),
                list(HandState.objects.filter(session=s).order_by("number").values_list("number", "runs")),
            )
            for s in sessions
        ]

    expected = stored()
    SettlementRow.objects.update(koudi=False, guangtou=False, baochang=False, run=0)
    HandState.objects.update(runs=[])
    importlib.import_module("settlement.migrations.0024_records_and_achievements").records_columns_fill(apps, None)
    assert stored() == expected


@pytest.mark.parametrize(
    ("hands", "badges"),
    [
        # 本溪 205: A breaks a 100 (−200, below −102½), makes a 100 clean (+300: 100), a 90 clean (+200: 300 出锅).
        (
            [
                {"dealer": 0, "declarer": 0, "bid": 100, "captured": 5},
                {"dealer": 0, "declarer": 0, "bid": 100, "captured": 0},
                {"dealer": 2, "declarer": 2, "bid": 90, "captured": 0},
            ],
            [("first_chuguo", 3), ("comeback", 3)],
        ),
        # A breaks a 95 (−95: not half the target down), then a 100 clean: 205, 出锅 but no comeback.
        (
            [
                {"dealer": 0, "declarer": 0, "bid": 95, "captured": 10},
                {"dealer": 0, "declarer": 0, "bid": 100, "captured": 0},
            ],
            [("first_chuguo", 2)],
        ),
        # Five made 80s in a row (80, 160, 240: 出锅 at hand 3, then 80, 160): five hands won, not ten.
        ([{"dealer": 0, "declarer": 0, "bid": 80, "captured": 15}] * 5, [("first_chuguo", 3), ("run_five", 5)]),
    ],
)
def test_a_comeback_and_a_run_of_five_are_earned_where_the_rules_have_them(hands, badges):
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    record_hands(session, owner, hands)
    jia = club.players.get(name="甲")
    assert [(a.badge, a.hand.number) for a in selectors.player_achievements(club=club, player=jia)] == badges


def test_a_run_goes_on_from_the_hand_before_when_a_hand_is_appended_and_a_correction_replays_it():
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    made = {"dealer": 0, "declarer": 0, "bid": 80, "captured": 15}
    record_hands(session, owner, [made, made, made])
    runs = SettlementRow.objects.filter(session=session, seat=0).order_by("number").values_list("run", flat=True)
    assert list(runs) == [1, 2, 3]
    from settlement import services

    services.hand_correct(session=session, user=owner, number=2, hand_input={**made, "captured": 55}, reason="c")
    # hand 2 now broken (80 + 55 > 100): A's run breaks there and starts again at hand 3.
    assert list(runs.all()) == [1, 0, 1]
