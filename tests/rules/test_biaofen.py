"""标分: every row of rules/biaofen.md, with the figures worked by hand from the rule text.

Notation in the comments: n = bid, s = 边家 score, k = 打宕 thresholds reached,
"per" = what each 边家 pays the declarer (negative: what the declarer pays each).
With 4 players the declarer's delta is 3 × per, with 3 players 2 × per.
"""

from __future__ import annotations

import dataclasses
import json
from functools import partial
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from settlement.rules import biaofen
from settlement.rules.base import (
    Context,
    EngineDefect,
    GameEnd,
    GameEndHow,
    HandInput,
    HandResult,
    HandStatus,
    Msg,
    RulesError,
    check_zero_sum,
)
from settlement.rules.document import SessionDoc, document_parse
from settlement.rules.messages import TABLE, render
from settlement.rules.registry import VARIANTS
from settlement.rules.session import (
    SessionResult,
    SessionState,
    session_play,
    session_replay,
    session_settle,
    state_dump,
    state_load,
)

from ..conftest import SHARED_GOLDEN
from . import helpers

NAMES = ("A", "B", "C", "D")


doc = partial(helpers.document, "biaofen", names=NAMES)
settle = partial(helpers.settle, "biaofen", names=NAMES)
one = partial(helpers.settle_hand, "biaofen", names=NAMES)
refused = partial(helpers.refused, "biaofen", names=NAMES)


# ---------------------------------------------------------------------------------------------
# One hand: (players, hand, expected deltas, outcome). Declarer seat 0 unless the hand says so.

D0 = {"declarer": 0}

DANG_4P = [
    # 4 players, n = 50: thresholds 50, 90 (+40), 120 (+30), 140 (+20), 160, 180, 200 (+20 each)
    (50, 50, 1),
    (50, 85, 1),
    (50, 90, 2),
    (50, 115, 2),
    (50, 120, 3),
    (50, 135, 3),
    (50, 140, 4),
    (50, 155, 4),
    (50, 160, 5),
    (50, 180, 6),
    (50, 200, 7),
    # n = 5: 5, 45, 75, 95, 115, 135, 155, 175, 195
    (5, 5, 1),
    (5, 40, 1),
    (5, 45, 2),
    (5, 75, 3),
    (5, 95, 4),
    (5, 115, 5),
    (5, 195, 9),
    # n = 80: 80, 120, 150, 170, 190
    (80, 80, 1),
    (80, 120, 2),
    (80, 150, 3),
    (80, 170, 4),
    (80, 190, 5),
    (80, 200, 5),
]

DANG_3P = [
    # 3 players, n = 50: thresholds 50, 80 (+30), 100 (+20), 120, 140 … (+20 each)
    (50, 50, 1),
    (50, 75, 1),
    (50, 80, 2),
    (50, 95, 2),
    (50, 100, 3),
    (50, 115, 3),
    (50, 120, 4),
    (50, 140, 5),
    (50, 200, 8),
    # n = 80: 80, 110, 130, 150, 170, 190
    (80, 80, 1),
    (80, 110, 2),
    (80, 130, 3),
    (80, 150, 4),
    (80, 190, 6),
    (80, 200, 6),
]


@pytest.mark.parametrize(("bid", "captured", "k"), DANG_4P)
def test_a_beaten_declarer_pays_each_of_three_defenders_one_per_threshold_reached(bid, captured, k):
    hand = one({"declarer": 0, "bid": bid, "captured": captured})
    assert hand["deltas"] == [-3 * k, k, k, k]
    assert hand["outcome"] == "declarer_lost"
    assert hand["declarer_won"] is False
    assert "打宕" in hand["tags"]


@pytest.mark.parametrize(("bid", "captured", "k"), DANG_3P)
def test_a_beaten_declarer_pays_each_of_two_defenders_one_per_threshold_reached(bid, captured, k):
    hand = one({"declarer": 0, "bid": bid, "captured": captured}, players=3)
    assert hand["deltas"] == [-2 * k, k, k]
    assert hand["outcome"] == "declarer_lost"


WINS = [
    # (players, bid, captured, bottom_points, kou_di) -> per; 4 players unless said
    # n ≥ 55: 2 each; 小光 when 2s ≤ n (+1); 大光 when s = 0 (+3 instead)
    (4, 55, 50, 0, False, 2, []),
    (4, 55, 30, 0, False, 2, []),  # 60 > 55: no 小光
    (4, 55, 25, 0, False, 3, ["小光"]),  # 50 ≤ 55
    (4, 60, 30, 0, False, 3, ["小光"]),  # 60 ≤ 60: the edge is 小光
    (4, 60, 35, 0, False, 2, []),
    (4, 80, 40, 0, False, 3, ["小光"]),
    (4, 80, 45, 0, False, 2, []),
    (4, 80, 75, 0, False, 2, []),
    (4, 60, 0, 0, False, 5, ["大光"]),
    (4, 80, 0, 0, False, 5, ["大光"]),
    # n < 55: 3 each
    (4, 50, 45, 0, False, 3, []),
    (4, 50, 30, 0, False, 3, []),
    (4, 50, 25, 0, False, 4, ["小光"]),
    (4, 50, 0, 0, False, 6, ["大光"]),
    (4, 10, 5, 0, False, 4, ["小光"]),  # 10 ≤ 10
    (4, 5, 0, 0, False, 6, ["大光"]),
    # the bottom: doubled for the 边家 on 抠底, else the declarer's
    (4, 50, 40, 25, False, 3, []),  # s = 40
    (4, 80, 30, 20, True, 2, ["抠底"]),  # s = 30 + 40 = 70 < 80; 140 > 80
    (4, 80, 0, 20, True, 3, ["抠底", "小光"]),  # s = 40 ≤ 40
    (4, 50, 0, 0, True, 6, ["大光"]),  # 抠底 of an empty bottom: s = 0
    (4, 50, 0, 25, False, 6, ["大光"]),  # bottom stays with the declarer: s = 0
    # 3 players: the same figures, from two 边家
    (3, 50, 25, 0, False, 4, ["小光"]),
    (3, 60, 0, 0, False, 5, ["大光"]),
    (3, 55, 50, 0, False, 2, []),
]


@pytest.mark.parametrize(("players", "bid", "captured", "bottom", "kou_di", "per", "tags"), WINS)
def test_a_winning_declarer_collects_the_base_and_the_guang_bonus(players, bid, captured, bottom, kou_di, per, tags):
    hand = {"declarer": 0, "bid": bid, "captured": captured}
    if bottom:
        hand["bottom_points"] = bottom
    if kou_di:
        hand["kou_di"] = True
    got = one(hand, players=players)
    assert got["deltas"] == [per * (players - 1)] + [-per] * (players - 1)
    assert got["outcome"] == "declarer_won"
    assert got["declarer_won"] is True
    for tag in tags:
        assert tag in got["tags"]
    assert ("小光" in got["tags"]) == ("小光" in tags)
    assert ("大光" in got["tags"]) == ("大光" in tags)


def test_the_bottom_doubled_on_kou_di_can_beat_the_declarer():
    # n = 50, captured 40 + bottom 25 × 2 = 90: thresholds 50, 90 → k = 2
    assert one({"declarer": 0, "bid": 50, "captured": 40, "bottom_points": 25, "kou_di": True})["deltas"] == [
        -6,
        2,
        2,
        2,
    ]
    # without 抠底 the same cards leave s = 40 < 50: 庄胜, 3 each (80 > 50: no 小光)
    assert one({"declarer": 0, "bid": 50, "captured": 40, "bottom_points": 25})["deltas"] == [9, -3, -3, -3]


@pytest.mark.parametrize(
    ("players", "bid", "expected"),
    [
        (4, 55, [-6, 2, 2, 2]),
        (4, 80, [-6, 2, 2, 2]),
        (4, 50, [-9, 3, 3, 3]),
        (4, 5, [-9, 3, 3, 3]),
        (3, 55, [-4, 2, 2]),
        (3, 50, [-6, 3, 3]),
    ],
)
def test_a_surrender_costs_two_from_bid_55_and_three_below(players, bid, expected):
    hand = one({"declarer": 0, "bid": bid, "surrender": True}, players=players)
    assert hand["deltas"] == expected
    assert hand["outcome"] == "surrender"
    assert hand["declarer_won"] is False


NO_TRUMP = [
    # (players, hand, deltas): the declarer pays each 边家 one less on 投降 / 打宕, never below 0
    (4, {"bid": 55, "surrender": True}, [-3, 1, 1, 1]),  # 2 → 1
    (4, {"bid": 50, "surrender": True}, [-6, 2, 2, 2]),  # 3 → 2
    (3, {"bid": 50, "surrender": True}, [-4, 2, 2]),  # 3 → 2
    (4, {"bid": 50, "captured": 50}, [0, 0, 0, 0]),  # k = 1 → 0
    (4, {"bid": 50, "captured": 120}, [-6, 2, 2, 2]),  # k = 3 → 2
    (3, {"bid": 50, "captured": 100}, [-4, 2, 2]),  # k = 3 → 2
    (4, {"bid": 50, "captured": 25}, [12, -4, -4, -4]),  # 庄胜: unchanged (3 + 小光 1)
    (4, {"bid": 60, "captured": 0}, [15, -5, -5, -5]),  # 庄胜 大光: unchanged
    # relief on the result only, before bombs: k = 1 → 0, then a bomb: each 边家 pays 5
    (4, {"bid": 50, "captured": 50, "bombs": 1}, [15, -5, -5, -5]),
]


@pytest.mark.parametrize(("players", "hand", "expected"), NO_TRUMP)
def test_a_bottom_without_trump_lets_the_declarer_pay_one_less_when_he_loses(players, hand, expected):
    got = one({"declarer": 0, "no_trump_bottom": True, **hand}, players=players)
    assert got["deltas"] == expected


def test_no_trump_relief_never_turns_a_payment_into_a_gain():
    # surrender figure set to 0: 0 − 1 stays 0
    got = one(
        {"declarer": 0, "bid": 55, "surrender": True, "no_trump_bottom": True},
        options={"surrender": {"ge55": 0, "lt55": 0}},
    )
    assert got["deltas"] == [0, 0, 0, 0]


BOMBS = [
    # each bomb: each 边家 pays the declarer 5, on top of the result
    (4, {"bid": 50, "captured": 25, "bombs": 1}, [27, -9, -9, -9]),  # 4 + 5
    (4, {"bid": 50, "captured": 50, "bombs": 2}, [27, -9, -9, -9]),  # −1 + 10
    (4, {"bid": 50, "captured": 200, "bombs": 1}, [-6, 2, 2, 2]),  # k = 7: per −7 + 5 = −2
    (4, {"bid": 50, "captured": 30, "bombs": 3}, [54, -18, -18, -18]),  # 3 + 15
    (3, {"bid": 55, "captured": 50, "bombs": 1}, [14, -7, -7]),  # 2 + 5
    (3, {"bid": 50, "captured": 80, "bombs": 4}, [36, -18, -18]),  # k = 2: −2 + 20
]


@pytest.mark.parametrize(("players", "hand", "expected"), BOMBS)
def test_each_bomb_earns_the_declarer_a_flat_five_from_each_defender(players, hand, expected):
    got = one({"declarer": 0, **hand}, players=players)
    assert got["deltas"] == expected
    assert "炸弹" in got["tags"]


def test_a_bomb_option_changes_the_flat_amount():
    got = one({"declarer": 0, "bid": 50, "captured": 30, "bombs": 1}, options={"bomb": 3})
    assert got["deltas"] == [18, -6, -6, -6]  # 3 + 3


PENALTIES = [
    # base hand: 4 players bid 50, s = 30: 庄胜 3 each → [9, −3, −3, −3]; 3 players → [6, −3, −3]
    (4, [{"seat": 0, "kind": "shuai"}], [6, -2, -2, -2]),  # declarer pays each 边家 1
    (4, [{"seat": 2, "kind": "shuai"}], [12, -3, -6, -3]),  # 边家 2 pays the declarer 3
    (4, [{"seat": 3, "kind": "misdeal"}], [10, -2, -2, -6]),  # seat 3 pays each other 1
    (4, [{"seat": 0, "kind": "misdeal"}], [6, -2, -2, -2]),  # the declarer overdrew
    (3, [{"seat": 0, "kind": "shuai"}], [4, -2, -2]),
    (3, [{"seat": 1, "kind": "shuai"}], [8, -5, -3]),  # 边家 pays 2 with 3 players
    (3, [{"seat": 2, "kind": "misdeal"}], [7, -2, -5]),
    # several at once add up
    (4, [{"seat": 1, "kind": "shuai"}, {"seat": 1, "kind": "shuai"}], [15, -9, -3, -3]),
    (4, [{"seat": 1, "kind": "shuai"}, {"seat": 0, "kind": "shuai"}], [9, -5, -2, -2]),
]


@pytest.mark.parametrize(("players", "penalties", "expected"), PENALTIES)
def test_penalties_add_fixed_payments_to_the_hand(players, penalties, expected):
    got = one({"declarer": 0, "bid": 50, "captured": 30, "penalties": penalties}, players=players)
    assert got["deltas"] == expected


def test_a_failed_throw_by_a_defender_costs_what_the_option_says():
    got = one(
        {"declarer": 0, "bid": 50, "captured": 30, "penalties": [{"seat": 1, "kind": "shuai"}]},
        players=3,
        options={"shuai_defender": 3},
    )
    assert got["deltas"] == [9, -6, -3]


@pytest.mark.parametrize(
    ("players", "seat", "expected"),
    [(4, 1, [1, -3, 1, 1]), (4, 0, [-3, 1, 1, 1]), (3, 2, [1, 1, -2])],
)
def test_a_misdeal_penalty_is_the_only_score_of_a_redeal(players, seat, expected):
    result = settle([{"redeal": "misdeal", "penalties": [{"seat": seat, "kind": "misdeal"}]}], players=players)
    hand = result["hands"][0]
    assert hand["status"] == "redeal"
    assert hand["outcome"] == "redeal"
    assert hand["declarer"] is None
    assert hand["declarer_won"] is None
    assert hand["deltas"] == expected
    assert result["totals"] == expected


@pytest.mark.parametrize("reason", ["all_pass", "no_trump_no_points", "misdeal"])
def test_a_redeal_without_penalty_scores_nothing(reason):
    hand = one({"redeal": reason})
    assert hand["deltas"] == [0, 0, 0, 0]


# ---------------------------------------------------------------------------------------------
# The round of six

WIN3 = {"bid": 50, "captured": 30}  # 庄胜, 3 each, no 小光


def won_by(seat: int) -> dict[str, Any]:
    return {"declarer": seat, **WIN3}


def test_the_third_and_later_declarings_of_a_player_earn_the_streak_bonus():
    result = settle([won_by(0), won_by(0), won_by(0), won_by(0)])
    assert [h["deltas"][0] for h in result["hands"]] == [9, 9, 12, 12]  # 3, 3, 3 + 1, 3 + 1


def test_the_streak_counts_the_players_own_declarings_not_consecutive_hands():
    result = settle([won_by(0), won_by(1), won_by(0), won_by(1), won_by(0), won_by(1)])
    per = [h["deltas"][h["declarer"]] // 3 for h in result["hands"]]
    assert per == [3, 3, 3, 3, 4, 4]


@pytest.mark.parametrize(
    ("third", "expected"),
    [
        ({"bid": 50, "surrender": True}, [-6, 2, 2, 2]),  # −3 + 1
        ({"bid": 50, "captured": 50}, [0, 0, 0, 0]),  # 打宕 k = 1: −1 + 1
        ({"bid": 50, "captured": 120}, [-6, 2, 2, 2]),  # k = 3: −3 + 1
        ({"bid": 50, "captured": 0}, [21, -7, -7, -7]),  # 3 + 3 大光 + 1
    ],
)
def test_the_streak_bonus_applies_whatever_the_outcome(third, expected):
    result = settle([won_by(0), won_by(0), {"declarer": 0, **third}])
    assert result["hands"][2]["deltas"] == expected


def test_the_streak_bonus_with_three_players():
    result = settle([won_by(2), won_by(2), won_by(2)], players=3)
    assert result["hands"][2]["deltas"] == [-4, -4, 8]  # 3 + 1 from each of two


def test_redeals_neither_count_as_declaring_nor_as_hands_of_the_round():
    hands = [
        won_by(0),
        {"redeal": "all_pass"},
        won_by(0),
        {"redeal": "no_trump_no_points"},
        won_by(0),  # third declaring
        won_by(1),
        won_by(2),
        won_by(3),  # sixth scored hand: the round ends here
        won_by(0),  # first hand of round 2
    ]
    result = settle(hands)
    assert result["hands"][4]["deltas"] == [12, -4, -4, -4]
    assert [h["game"] for h in result["hands"]] == [1, 1, 1, 1, 1, 1, 1, 1, 2]
    game = result["games"][0]
    assert (game["first_hand"], game["last_hand"], game["finished"]) == (1, 8, True)
    assert game["adjustments"] == [0, 0, 0, 0]  # everyone declared


def test_the_streak_starts_again_in_a_new_round():
    result = settle([won_by(0)] * 9)
    per = [h["deltas"][0] // 3 for h in result["hands"]]
    # round 1: 3, 3, 4, 4, 4, 4 + 1 (all six); round 2: 3, 3, 4
    assert per == [3, 3, 4, 4, 4, 5, 3, 3, 4]


def test_one_player_declaring_all_six_gets_the_once_only_bonus_and_the_idle_pay_him():
    result = settle([won_by(0)] * 6)
    # hands: 9 + 9 + 12 + 12 + 12 + 15 = 69 for seat 0, −23 for each other
    assert [h["deltas"][0] for h in result["hands"]] == [9, 9, 12, 12, 12, 15]
    game = result["games"][0]
    # seats 1, 2, 3 idle: each pays 2 to each of the 3 others → seat 0 +6; seat 1 −6 + 2 + 2 = −2
    assert game["adjustments"] == [6, -2, -2, -2]
    assert game["totals"] == [75, -25, -25, -25]
    assert game["winners"] == [0]
    assert game["how"] == "round"
    assert result["totals"] == [75, -25, -25, -25]
    assert "全轮做庄" in result["hands"][5]["tags"]


def test_all_six_with_three_players():
    result = settle([won_by(1)] * 6, players=3)
    # per 3, 3, 4, 4, 4, 5 = 23 from each 边家 → seat 1 +46; idle 0 and 2: seat 1 +4, each idle −4 + 2
    assert result["games"][0]["adjustments"] == [-2, 4, -2]
    assert result["totals"] == [-25, 50, -25]


@pytest.mark.parametrize(
    ("declarers", "players", "adjustments"),
    [
        ([0, 1, 2, 3, 0, 1], 4, [0, 0, 0, 0]),
        ([0, 1, 2, 0, 1, 2], 4, [2, 2, 2, -6]),
        ([0, 1, 0, 1, 0, 1], 4, [4, 4, -4, -4]),  # 2 idle: each −6 + 2
        ([3, 3, 3, 3, 3, 3], 4, [-2, -2, -2, 6]),
        ([0, 1, 0, 1, 0, 1], 3, [2, 2, -4]),
        ([0, 0, 0, 2, 2, 2], 3, [2, -4, 2]),
        ([0, 1, 2, 0, 1, 2], 3, [0, 0, 0]),
        ([2, 2, 2, 2, 2, 2], 3, [-2, -2, 4]),
    ],
)
def test_players_who_never_declared_pay_every_other_player_two(declarers, players, adjustments):
    result = settle([won_by(s) for s in declarers], players=players)
    game = result["games"][0]
    assert game["adjustments"] == adjustments
    hand_sum = [sum(h["deltas"][s] for h in result["hands"]) for s in range(players)]
    assert game["totals"] == [h + a for h, a in zip(hand_sum, adjustments, strict=True)]
    assert game["adjustment_steps"]


def test_round_winners_are_the_seats_above_zero_and_zero_is_not_a_win():
    # seed table 2 leaves seat 2 at exactly 0
    case = json.loads((SHARED_GOLDEN / "biaofen-table-2.json").read_text(encoding="utf-8"))
    game = session_settle(case["input"])["games"][0]
    assert game["totals"][2] == 0
    assert game["winners"] == [0]


def test_an_unfinished_round_has_no_adjustments():
    result = settle([won_by(0)] * 4)
    game = result["games"][0]
    assert game["finished"] is False
    assert game["adjustments"] == [0, 0, 0, 0]
    assert game["winners"] == []
    assert game["how"] is None
    assert result["totals"] == [42, -14, -14, -14]  # 9 + 9 + 12 + 12


def test_the_round_length_is_an_option():
    result = settle([won_by(0)] * 3, options={"round_hands": 3})
    # per 3, 3, 3 + 1 (third) + 1 (all three) → 9 + 9 + 15 = 33; idle 1, 2, 3 → +6 / −2
    game = result["games"][0]
    assert game["finished"] is True
    assert game["adjustments"] == [6, -2, -2, -2]
    assert result["totals"] == [39, -13, -13, -13]


def test_a_second_round_runs_on_and_both_rounds_count():
    result = settle([won_by(s) for s in [0, 1, 2, 3, 0, 1, 2, 2, 2, 2, 2, 2]])
    assert [g["finished"] for g in result["games"]] == [True, True]
    second = result["games"][1]
    assert (second["first_hand"], second["last_hand"]) == (7, 12)
    assert second["adjustments"] == [-2, -2, 6, -2]
    assert result["games_won"][2] == 1


# ---------------------------------------------------------------------------------------------
# Who bids first next


@pytest.mark.parametrize(
    ("players", "first", "next_dealer"),
    [
        (4, {"declarer": 2, "bid": 50, "captured": 30}, 2),  # 庄胜: the same declarer
        (4, {"declarer": 2, "bid": 50, "captured": 50}, 3),  # 打宕: his 下家
        (4, {"declarer": 3, "bid": 50, "captured": 50}, 0),
        (4, {"declarer": 1, "bid": 50, "surrender": True}, 2),  # 投降: his 下家
        (3, {"declarer": 2, "bid": 50, "surrender": True}, 0),
        (3, {"declarer": 2, "bid": 50, "captured": 0}, 2),
        (4, {"dealer": 3, "redeal": "all_pass"}, 3),  # redeal: the same seat
    ],
)
def test_who_bids_first_next(players, first, next_dealer):
    result = settle([first, {"declarer": 0, "bid": 50, "captured": 30}], players=players)
    assert result["hands"][0]["next_dealer"] == next_dealer
    assert result["hands"][1]["dealer"] == next_dealer


def test_the_first_hand_defaults_to_seat_0_and_an_entered_dealer_wins():
    result = settle(
        [
            {"declarer": 1, "bid": 50, "captured": 30},  # dealer 0 by default; 庄胜 → 1
            {"dealer": 3, "declarer": 1, "bid": 50, "captured": 60},  # entered 3 wins; 打宕 → 2
            {"redeal": "all_pass"},  # dealer 2, stays 2
            {"declarer": 0, "bid": 50, "captured": 30},
        ]
    )
    assert [h["dealer"] for h in result["hands"]] == [0, 3, 2, 2]
    assert [h["next_dealer"] for h in result["hands"]] == [1, 2, 2, 0]


def test_the_bidding_rule_runs_on_across_rounds():
    hands = [won_by(s) for s in [0, 1, 2, 3, 0]] + [{"declarer": 1, "bid": 50, "captured": 60}, won_by(0)]
    result = settle(hands)
    assert result["hands"][6]["game"] == 2
    assert result["hands"][6]["dealer"] == 2  # 打宕 by seat 1 in the last hand of round 1


# ---------------------------------------------------------------------------------------------
# Options


def test_defaults_depend_on_the_number_of_players():
    four = settle([won_by(0)])["options"]
    three = settle([won_by(0)], players=3)["options"]
    assert four["dang_steps"] == [40, 30, 20]
    assert three["dang_steps"] == [30, 20]
    assert (four["shuai_defender"], three["shuai_defender"]) == (3, 2)
    for options in (four, three):
        assert options["round_hands"] == 6
        assert options["win_base"] == {"ge55": 2, "lt55": 3}
        assert options["surrender"] == {"ge55": 2, "lt55": 3}
        assert (options["xiaoguang"], options["daguang"]) == (1, 3)
        assert (options["bomb"], options["shuai_declarer"], options["misdeal"]) == (5, 1, 1)
        assert (options["streak_from"], options["streak_bonus"], options["all_round_bonus"]) == (3, 1, 1)
        assert options["idle_penalty"] == 2
        assert options["unit_value"] == 1
    assert settle([won_by(0)])["unit"] == "档"


@pytest.mark.parametrize(
    ("options", "hand", "expected"),
    [
        ({"win_base": {"ge55": 4, "lt55": 5}}, {"bid": 55, "captured": 50}, [12, -4, -4, -4]),
        ({"xiaoguang": 2, "daguang": 5}, {"bid": 50, "captured": 25}, [15, -5, -5, -5]),
        ({"xiaoguang": 2, "daguang": 5}, {"bid": 50, "captured": 0}, [24, -8, -8, -8]),
        ({"dang_steps": [20]}, {"bid": 50, "captured": 110}, [-12, 4, 4, 4]),  # 50, 70, 90, 110
        ({"dang_steps": [50, 10]}, {"bid": 50, "captured": 110}, [-9, 3, 3, 3]),  # 50, 100, 110
        ({"surrender": {"ge55": 1, "lt55": 4}}, {"bid": 50, "surrender": True}, [-12, 4, 4, 4]),
        ({"surrender": {"ge55": 0, "lt55": 0}}, {"bid": 50, "surrender": True}, [0, 0, 0, 0]),  # 0 is allowed
        ({"misdeal": 2}, {"bid": 50, "captured": 30, "penalties": [{"seat": 1, "kind": "misdeal"}]}, [11, -9, -1, -1]),
    ],
)
def test_options_change_the_figures(options, hand, expected):
    assert one({"declarer": 0, **hand}, options=options)["deltas"] == expected


def test_streak_options():
    result = settle([won_by(0)] * 3, options={"streak_from": 2, "streak_bonus": 2})
    assert [h["deltas"][0] for h in result["hands"]] == [9, 15, 15]


def test_idle_penalty_option():
    result = settle([won_by(0)] * 6, options={"idle_penalty": 1, "all_round_bonus": 0})
    assert result["games"][0]["adjustments"] == [3, -1, -1, -1]
    assert result["hands"][5]["deltas"][0] == 12  # 3 + 1 streak, no all-six bonus


def test_settle_up_uses_the_unit_value():
    result = settle([won_by(0)], options={"unit_value": 10})
    transfers = result["settle_up"]
    assert sorted((t["from"], t["to"], t["amount"]) for t in transfers) == [(1, 0, 30), (2, 0, 30), (3, 0, 30)]


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"round_hands": 0}, "options.round_hands"),
        ({"dang_steps": []}, "options.dang_steps"),
        ({"dang_steps": [40, 0]}, "options.dang_steps[1]"),
        ({"win_base": {"ge55": 2}}, "options.win_base.lt55"),
        ({"surrender": {"ge55": 2, "lt55": 3, "x": 1}}, "options.surrender.x"),
        ({"win_base": {"ge55": -1, "lt55": 3}}, "options.win_base.ge55"),  # a figure by bid is 0 or more
        ({"bomb": -1}, "options.bomb"),
        ({"unit_value": 0}, "options.unit_value"),
        ({"streak_from": 0}, "options.streak_from"),
        ({"guangtou": 50}, "options.guangtou"),
    ],
)
def test_bad_options_are_refused_by_name(options, field):
    error = refused([won_by(0)], options=options)
    assert error.hand is None
    assert error.field == field


# ---------------------------------------------------------------------------------------------
# Bad input: refused with the hand number and the field

GOOD = {"declarer": 0, "bid": 50, "captured": 30}

BAD_HANDS = [
    ({"declarer": 0, "bid": 0, "captured": 30}, "bid", "bid.out_of_range"),
    ({"declarer": 0, "bid": 85, "captured": 30}, "bid", "bid.out_of_range"),
    ({"declarer": 0, "bid": 100, "captured": 30}, "bid", "bid.out_of_range"),
    ({"declarer": 0, "bid": 52, "captured": 30}, "bid", "bid.out_of_range"),
    ({"declarer": 0, "bid": -5, "captured": 30}, "bid", "bid.out_of_range"),
    ({"declarer": 0, "captured": 30}, "bid", "field.required"),
    ({"bid": 50, "captured": 30}, "declarer", "field.required"),
    ({"declarer": 0, "bid": 50}, "captured", "field.required"),
    ({"declarer": 0, "bid": 50, "captured": 205}, "captured", "points.over_deck"),
    ({"declarer": 0, "bid": 50, "captured": 150, "bottom_points": 55}, "bottom_points", "points.over_deck"),
    ({"declarer": 0, "bid": 50, "captured": 22}, "captured", "points.not_multiple_of_5"),
    ({"declarer": 0, "bid": 50, "captured": 30, "bottom_points": 12}, "bottom_points", "points.not_multiple_of_5"),
    ({"declarer": 4, "bid": 50, "captured": 30}, "declarer", "seat.invalid"),
    ({"declarer": 0, "bid": 50, "surrender": True, "captured": 30}, "captured", "surrender.not_played"),
    ({"declarer": 0, "bid": 50, "surrender": True, "captured": 0}, "captured", "surrender.not_played"),
    ({"declarer": 0, "bid": 50, "surrender": True, "bottom_points": 10}, "bottom_points", "surrender.not_played"),
    ({"declarer": 0, "bid": 50, "surrender": True, "kou_di": True}, "kou_di", "surrender.not_played"),
    ({"declarer": 0, "bid": 50, "surrender": True, "bombs": 1}, "bombs", "surrender.not_played"),
    (
        {"declarer": 0, "bid": 50, "surrender": True, "penalties": [{"seat": 1, "kind": "shuai"}]},
        "penalties[0].kind",
        "penalty.not_played",
    ),
    (
        {"redeal": "misdeal", "penalties": [{"seat": 1, "kind": "misdeal"}, {"seat": 1, "kind": "shuai"}]},
        "penalties[1].kind",
        "penalty.not_played",
    ),
    ({"declarer": 0, "bid": 50, "captured": 30, "bombs": 4}, "bombs", "bombs.too_many"),
    ({"declarer": 0, "bid": 50, "captured": 30, "bombs": -1}, "bombs", "value.not_count"),
    (
        {"declarer": 0, "bid": 50, "captured": 30, "penalties": [{"seat": 5, "kind": "shuai"}]},
        "penalties[0].seat",
        "seat.invalid",
    ),
    (
        {"declarer": 0, "bid": 50, "captured": 30, "penalties": [{"seat": 1, "kind": "late"}]},
        "penalties[0].kind",
        "value.not_choice",
    ),
    ({"declarer": 0, "bid": 50, "captured": 30, "partner": 1}, "partner", "field.unknown"),
    ({"declarer": 0, "bid": 50, "captured": 30, "contract": "bao"}, "contract", "field.unknown"),
    ({"redeal": "all_pass", "declarer": 0}, "declarer", "field.not_on_redeal"),
    ({"redeal": "tired"}, "redeal", "value.not_choice"),
    ({"declarer": 0, "bid": 50, "captured": 30, "surrender": "yes"}, "surrender", "value.not_bool"),
]


@pytest.mark.parametrize(("bad", "field", "code"), BAD_HANDS)
def test_it_refuses_bad_hands_naming_the_hand_and_the_field(bad, field, code):
    error = refused([GOOD, GOOD, bad])
    assert (error.hand, error.field, error.code) == (3, field, code)
    assert error.describe("en").startswith(f"hand 3: {field}: ")
    assert "{" not in error.message("en") and "{" not in error.message("zh-Hans")
    assert error.message("en") != f"error.{code}"


def test_three_players_may_play_up_to_four_bombs_but_not_five():
    assert one({**GOOD, "bombs": 4}, players=3)["deltas"] == [46, -23, -23]  # 3 + 20
    error = refused([{**GOOD, "bombs": 5}], players=3)
    assert (error.hand, error.field) == (1, "bombs")


def test_a_seat_out_of_range_for_three_players_is_refused():
    error = refused([{"declarer": 3, "bid": 50, "captured": 30}], players=3)
    assert (error.hand, error.field) == (1, "declarer")


def test_two_or_five_players_are_refused():
    for players in (["A", "B"], ["A", "B", "C", "D", "E"]):
        with pytest.raises(RulesError) as caught:
            session_settle({"variant": "biaofen", "players": players, "hands": []})
        assert caught.value.field == "players"


def test_surrender_with_default_values_of_unplayed_fields_is_accepted():
    got = one({"declarer": 0, "bid": 50, "surrender": True, "kou_di": False, "bombs": 0, "bottom_points": 0})
    assert got["deltas"] == [-9, 3, 3, 3]


# ---------------------------------------------------------------------------------------------
# Receipts


def test_the_receipt_shows_the_ladder_the_bombs_the_penalties_and_the_bonus_in_both_languages():
    hands = [
        won_by(0),
        won_by(0),
        {
            "declarer": 0,
            "bid": 50,
            "captured": 60,
            "bottom_points": 20,
            "kou_di": True,
            "bombs": 1,
            "no_trump_bottom": True,
            "penalties": [{"seat": 2, "kind": "shuai"}],
        },
    ]
    en = settle(hands, lang="en")["hands"][2]
    zh = settle(hands)["hands"][2]
    # s = 60 + 40 = 100: thresholds 50, 90 reached, next 120 → k = 2; relief 2 → 1; bomb +5; streak +1
    # per = −1 + 5 + 1 = 5 → [15, −5, −5, −5]; 边家 2's throw: +3 / −3 → [18, −5, −8, −5]
    assert en["deltas"] == [18, -5, -8, -5]
    text = "\n".join(en["steps"])
    assert "60 + bottom 20 × 2 = 100" in text
    assert "50, 90 (next 120)" in text
    assert "2 → 1" in text
    assert "1 bomb(s) × 5" in text
    assert "no. 3" in text
    assert "边家 C: pays" in text  # named, not numbered
    ztext = "\n".join(zh["steps"])
    assert "打宕" in ztext and "炸弹" in ztext and "甩牌" in ztext and "第 3 次做庄" in ztext
    for step in en["steps"] + zh["steps"]:
        assert "{" not in step and not step.startswith("biaofen.")


def test_every_message_key_of_the_module_renders_in_both_languages():
    for key in biaofen.MESSAGES:
        assert key in TABLE
    result = settle([won_by(0)] * 6, lang="en")
    assert result["games"][0]["adjustment_steps"][0].startswith("B never declared")
    assert render(Msg(key="biaofen.no_idle"), "en") == "everyone declared in the round: no idle penalty"


# ---------------------------------------------------------------------------------------------
# Seed tables and zero-sum


@pytest.mark.parametrize("table", [1, 2, 3, 4])
def test_the_seed_tables_pass_as_they_are(table):
    case = json.loads((SHARED_GOLDEN / f"biaofen-table-{table}.json").read_text(encoding="utf-8"))
    got = session_settle(case["input"])
    assert _matches(case["expect"], got)


def _matches(expect: Any, got: Any) -> bool:
    if isinstance(expect, dict):
        return isinstance(got, dict) and all(k in got and _matches(v, got[k]) for k, v in expect.items())
    if isinstance(expect, list):
        return isinstance(got, list) and len(got) == len(expect) and all(map(_matches, expect, got))
    return bool(expect == got)


def test_the_zero_sum_check_refuses_a_broken_figure():
    with pytest.raises(EngineDefect):
        check_zero_sum((3, -1, -1, -2), "hand 1")
    check_zero_sum((3, -1, -1, -1), "hand 1")


@dataclasses.dataclass
class _BrokenTable:
    """A 标分 table that forgets one 边家 (hand) or one idle payer (adjustments)."""

    inner: biaofen.BiaofenTable
    break_adjustments: bool

    def play(self, hand: HandInput, ctx: Context) -> HandResult:
        result = self.inner.play(hand, ctx)
        if self.break_adjustments:
            if result.game_end is None:
                return result
            assert result.game_end.adjustments is not None
            adjustments = (*result.game_end.adjustments[:-1], 0)
            end = GameEnd(winners=(), how=GameEndHow.ROUND, adjustments=adjustments)
            return dataclasses.replace(result, game_end=end)
        return dataclasses.replace(result, deltas=(*result.deltas[:-1], 0))

    def state_dump(self) -> dict[str, Any]:
        return self.inner.state_dump()

    def state_load(self, state: Any) -> None:
        self.inner.state_load(state)


# The hand's check names the hand, the game's the game whose adjustments are broken (the first to end).
@pytest.mark.parametrize(
    ("break_adjustments", "what"), [(False, "hand 1"), (True, "game 1 adjustments")], ids=["hand", "adjustments"]
)
def test_the_engine_refuses_a_result_that_is_not_zero_sum(break_adjustments, what):
    options = biaofen.biaofen_defaults(4)
    variant = dataclasses.replace(
        biaofen.BIAOFEN,
        new_table=lambda o, n: _BrokenTable(
            inner=biaofen.BiaofenTable(options=o, players=n), break_adjustments=break_adjustments
        ),
    )
    hands = tuple(
        HandInput(n=i, present=frozenset({"declarer", "bid", "captured"}), declarer=0, bid=50, captured=30)
        for i in range(1, 7)
    )
    session = SessionDoc(variant=variant, options=options, players=NAMES, hands=hands)
    with pytest.raises(EngineDefect, match=rf"^{what} does not sum to zero: \("):
        session_replay(session)


# ---------------------------------------------------------------------------------------------
# Properties


@st.composite
def biaofen_hand(draw: st.DrawFn, players: int) -> dict[str, Any]:
    seat = st.integers(0, players - 1)
    hand: dict[str, Any] = {}
    if draw(st.booleans()):
        hand["dealer"] = draw(seat)
    if draw(st.integers(0, 9)) == 0:
        hand["redeal"] = draw(st.sampled_from(["all_pass", "no_trump_no_points", "misdeal"]))
        kinds = st.just("misdeal")
    else:
        hand["declarer"] = draw(seat)
        hand["bid"] = draw(st.integers(1, 16)) * 5
        if draw(st.integers(0, 5)) == 0:
            hand["surrender"] = True
            kinds = st.just("misdeal")
        else:
            captured = draw(st.integers(0, 40)) * 5
            hand["captured"] = captured
            if draw(st.booleans()):
                hand["bottom_points"] = draw(st.integers(0, min(12, 40 - captured // 5))) * 5
            if draw(st.booleans()):
                hand["kou_di"] = draw(st.booleans())
            if draw(st.integers(0, 3)) == 0:
                hand["bombs"] = draw(st.integers(0, biaofen.max_bombs(players)))
            kinds = st.sampled_from(["shuai", "misdeal"])
        if draw(st.booleans()):
            hand["no_trump_bottom"] = draw(st.booleans())
    if draw(st.integers(0, 3)) == 0:
        hand["penalties"] = draw(st.lists(st.fixed_dictionaries({"seat": seat, "kind": kinds}), max_size=3))
    return hand


@st.composite
def biaofen_session(draw: st.DrawFn) -> dict[str, Any]:
    players = draw(st.sampled_from([3, 4]))
    options: dict[str, Any] = {}
    if draw(st.booleans()):
        options["round_hands"] = draw(st.integers(1, 8))
    if draw(st.booleans()):
        options["dang_steps"] = draw(st.lists(st.integers(1, 50), min_size=1, max_size=4))
    if draw(st.booleans()):
        options["idle_penalty"] = draw(st.integers(0, 5))
    hands = draw(st.lists(biaofen_hand(players), max_size=20))
    return doc(hands, players=players, options=options)


@given(biaofen_session())
def test_valid_sessions_settle_zero_sum_with_consistent_totals(session):
    result = session_settle(session)  # no exception at all for valid input
    players = len(session["players"])
    for hand in result["hands"]:
        assert sum(hand["deltas"]) == 0
        if hand["status"] == "scored":
            assert hand["next_dealer"] in (hand["declarer"], (hand["declarer"] + 1) % players)
        else:
            assert hand["next_dealer"] == hand["dealer"]
    round_hands = result["options"]["round_hands"]
    totals = [0] * players
    for game in result["games"]:
        assert sum(game["adjustments"]) == 0
        hands = [h for h in result["hands"] if h["game"] == game["n"]]
        scored = [h for h in hands if h["status"] == "scored"]
        hand_sum = [sum(h["deltas"][s] for h in hands) for s in range(players)]
        assert game["totals"] == [h + a for h, a in zip(hand_sum, game["adjustments"], strict=True)]
        if game["finished"]:
            assert len(scored) == round_hands and hands[-1]["status"] == "scored"
            assert game["winners"] == [s for s in range(players) if game["totals"][s] > 0]
            assert game["how"] == "round"
        else:
            assert len(scored) < round_hands and game["adjustments"] == [0] * players
        totals = [t + g for t, g in zip(totals, game["totals"], strict=True)]
    assert result["totals"] == totals
    assert sum(result["totals"]) == 0


@given(st.sampled_from([3, 4]), st.integers(1, 16), st.integers(0, 40), st.integers(0, 40))
def test_more_points_never_cost_the_defenders_more(players, bid5, low5, high5):
    """The declarer's gain falls (weakly) as s rises; 3 players climb the ladder at least as fast."""
    bid, low, high = bid5 * 5, min(low5, high5) * 5, max(low5, high5) * 5
    gain = [one({"declarer": 0, "bid": bid, "captured": s}, players=players)["deltas"][1] for s in (low, high)]
    assert gain[0] <= gain[1]  # a 边家's delta rises with s
    k3 = one({"declarer": 0, "bid": bid, "captured": high}, players=3)["deltas"][1]
    k4 = one({"declarer": 0, "bid": bid, "captured": high}, players=4)["deltas"][1]
    assert k3 >= k4


ANY_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-10, 250),
    st.sampled_from(["x", "plain", "misdeal", "shuai", "all_pass"]),
    st.lists(st.fixed_dictionaries({"seat": st.integers(-1, 4), "kind": st.sampled_from(["shuai", "misdeal", "x"])})),
    st.dictionaries(st.sampled_from(["big", "small", "seat"]), st.integers(-1, 3)),
)
FIELDS = sorted(biaofen.HAND_FIELDS | {"partner", "contract", "kou"})


@given(
    st.sampled_from([3, 4]),
    st.lists(st.dictionaries(st.sampled_from(FIELDS), ANY_VALUE, max_size=8), max_size=8),
)
def test_any_document_either_settles_or_raises_a_rules_error(players, hands):
    try:
        result = session_settle(doc(hands, players=players))
    except RulesError as error:
        assert error.hand is None or 1 <= error.hand <= len(hands)
        assert error.field
        error.describe("en")
        return
    assert sum(result["totals"]) == 0


def test_a_redeal_result_has_the_status_redeal():
    result = settle([{"redeal": "all_pass"}])
    assert result["hands"][0]["status"] == str(HandStatus.REDEAL)


# Whole receipts, worked from biaofen.md and the message table (players A–D, declarer 0, default options).
BIAOFEN_RECEIPTS = [
    # 投降 at 60 (≥ 55): the declarer pays each 边家 2; per 边家 +2, the declarer −6; the 下家 B bids next
    pytest.param(
        {"dealer": 0, "declarer": 0, "bid": 60, "surrender": True},
        [-6, 2, 2, 2],
        ["投降"],
        [
            "本轮第 1 / 6 把",
            "投降（标分 60 ≥ 55）：庄家付每位边家 2 档",
            "每位边家 +2，庄家 −6",
            "庄家的下家B下一把先叫",
        ],
        id="surrender",
    ),
    # a redeal scores nothing and the same seat (C) bids first again
    pytest.param(
        {"dealer": 2, "redeal": "all_pass"},
        [0, 0, 0, 0],
        [],
        ["重新发牌（无人叫分），不计分", "重新发牌：仍由C先叫"],
        id="redeal",
    ),
    # a misdeal on a redeal: B pays each other player 1 (the only redeal with deltas)
    pytest.param(
        {"dealer": 2, "redeal": "misdeal", "penalties": [{"seat": 1, "kind": "misdeal"}]},
        [1, -3, 1, 1],
        ["罚"],
        ["重新发牌（发错牌），不计输赢，只计罚分；不算本轮的一把", "B抓牌过多：付其余每家 1 档", "重新发牌：仍由C先叫"],
        id="redeal with a misdeal",
    ),
]


@pytest.mark.parametrize(("h", "deltas", "tags", "lines"), BIAOFEN_RECEIPTS)
def test_the_whole_receipt_line_by_line(h, deltas, tags, lines):
    result = one(h)
    assert (result["deltas"], result["tags"], result["steps"]) == (deltas, tags, lines)


# More whole receipts: every step of a played hand, worked from biaofen.md and the message table.
PLAYED_RECEIPTS = [
    # 庄胜 at 50 (< 55): each 边家 pays 3; s = 30 and 2 × 30 > 50, so no 小光; A bids first again
    pytest.param(
        4,
        {"declarer": 0, "bid": 50, "captured": 30},
        [9, -3, -3, -3],
        ["庄胜"],
        [
            "本轮第 1 / 6 把",
            "边家得分 s = 30",
            "s = 30 < 标分 50：庄胜，边家各付 3 档（标分 < 55）",
            "每位边家 −3，庄家 +9",
            "庄胜：下一把仍由庄家A先叫",
        ],
        id="won",
    ),
    # 庄胜 at 60 (≥ 55): 2 each; s = 30 with the bottom's 10 kept by the declarer; 2 × 30 = 60 ≤ 60: 小光 +1
    pytest.param(
        4,
        {"declarer": 0, "bid": 60, "captured": 30, "bottom_points": 10},
        [9, -3, -3, -3],
        ["庄胜", "小光"],
        [
            "本轮第 1 / 6 把",
            "边家得分 s = 30（底牌 10 分归庄家）",
            "s = 30 < 标分 60：庄胜，边家各付 2 档（标分 ≥ 55）",
            "s = 30 ≤ 60 / 2：小光，边家各再付 1 档",
            "每位边家 −3，庄家 +9",
            "庄胜：下一把仍由庄家A先叫",
        ],
        id="won with xiaoguang",
    ),
    # 庄胜 by B at 50 with s = 0: 3 + 大光 3 = 6 each; 底牌无主 changes nothing on a win
    pytest.param(
        4,
        {"declarer": 1, "bid": 50, "captured": 0, "no_trump_bottom": True},
        [-6, 18, -6, -6],
        ["庄胜", "大光", "底牌无主"],
        [
            "本轮第 1 / 6 把",
            "边家得分 s = 0",
            "s = 0 < 标分 50：庄胜，边家各付 3 档（标分 < 55）",
            "s = 0：大光，边家各再付 3 档",
            "底牌无主：庄胜不另奖",
            "每位边家 −6，庄家 +18",
            "庄胜：下一把仍由庄家B先叫",
        ],
        id="won with daguang and no trump",
    ),
    # 打宕 by D at 55: s = 80 + 20 × 2 = 120; thresholds 55, 95 reached, next 125 (+30): k = 2;
    # 底牌无主 2 → 1; 2 bombs × 5 = 10 from each 边家: per 边家 −1 + 10 = 9 to the declarer; A (his 下家) bids next
    pytest.param(
        4,
        {
            "declarer": 3,
            "bid": 55,
            "captured": 80,
            "bottom_points": 20,
            "kou_di": True,
            "no_trump_bottom": True,
            "bombs": 2,
        },
        [-9, -9, -9, 27],
        ["抠底", "打宕", "底牌无主", "炸弹"],
        [
            "本轮第 1 / 6 把",
            "抠底：边家得分 s = 80 + 底分 20 × 2 = 120",
            "s = 120 ≥ 标分 55：打宕；达到门槛 55, 95（下一档 125），共 2 档：庄家付每位边家 2 档",
            "底牌无主：庄家付每位边家少 1 档，2 → 1",
            "炸弹 2 个 × 5：边家各再付 10 档",
            "每位边家 −9，庄家 +27",
            "庄家的下家A下一把先叫",
        ],
        id="beaten with kou di, no trump and bombs",
    ),
    # 3 players, 打宕 by C at 80: s = 110; thresholds 80, 110 (+30), next 130 (+20): k = 2 → [2, 2, −4];
    # C's failed throw pays each 边家 1 → [3, 3, −6]; A's failed throw pays C 2 (3 players) → [1, 3, −4]
    pytest.param(
        3,
        {
            "declarer": 2,
            "bid": 80,
            "captured": 110,
            "penalties": [{"seat": 2, "kind": "shuai"}, {"seat": 0, "kind": "shuai"}],
        },
        [1, 3, -4],
        ["打宕", "罚"],
        [
            "本轮第 1 / 6 把",
            "边家得分 s = 110",
            "s = 110 ≥ 标分 80：打宕；达到门槛 80, 110（下一档 130），共 2 档：庄家付每位边家 2 档",
            "每位边家 +2，庄家 −4",
            "庄家甩牌失败：付每位边家 1 档",
            "边家A甩牌失败：付庄家 2 档",
            "庄家的下家A下一把先叫",
        ],
        id="three players beaten with both throws",
    ),
    # 投降 at 50 (< 55) with 底牌无主: 3 → 2 each; B overdrew the deal: pays each other player 1
    pytest.param(
        4,
        {
            "declarer": 0,
            "bid": 50,
            "surrender": True,
            "no_trump_bottom": True,
            "penalties": [{"seat": 1, "kind": "misdeal"}],
        },
        [-5, -1, 3, 3],
        ["投降", "底牌无主", "罚"],
        [
            "本轮第 1 / 6 把",
            "投降（标分 50 < 55）：庄家付每位边家 3 档",
            "底牌无主：庄家付每位边家少 1 档，3 → 2",
            "每位边家 +2，庄家 −6",
            "B抓牌过多：付其余每家 1 档",
            "庄家的下家B下一把先叫",
        ],
        id="surrender with no trump and a misdeal",
    ),
]


@pytest.mark.parametrize(("players", "h", "deltas", "tags", "lines"), PLAYED_RECEIPTS)
def test_the_whole_receipt_of_a_played_hand_line_by_line(players, h, deltas, tags, lines):
    result = one(h, players=players)
    assert (result["deltas"], result["tags"], result["steps"]) == (deltas, tags, lines)


def test_the_receipt_of_a_round_declared_by_one_player():
    result = settle([won_by(0)] * 6)
    # the sixth hand: 3 + streak 1 (A's sixth declaring, from the third on) + all six 1 = 5 from each 边家
    assert result["hands"][5]["steps"] == [
        "本轮第 6 / 6 把",
        "边家得分 s = 30",
        "s = 30 < 标分 50：庄胜，边家各付 3 档（标分 < 55）",
        "A本轮第 6 次做庄（从第 3 次起奖）：边家各再付 1 档",
        "本轮 6 把都由A做庄：边家各再付 1 档",
        "每位边家 −5，庄家 +15",
        "庄胜：下一把仍由庄家A先叫",
        "本轮 6 把打完",
    ]
    assert result["hands"][5]["tags"] == ["庄胜", "做庄奖励", "全轮做庄"]
    # B, C, D never declared: each pays 2 to each of the 3 others (6 in all); totals 69 + 6, −23 − 2
    assert result["games"][0]["adjustment_steps"] == [
        "B本轮没做过庄：付其余每家 2 档，共 6",
        "C本轮没做过庄：付其余每家 2 档，共 6",
        "D本轮没做过庄：付其余每家 2 档，共 6",
        "本轮小计（含奖罚）：A +75，B −25，C −25，D −25；得分为正者胜",
    ]


@pytest.mark.parametrize(
    ("players", "declarers", "lines"),
    [
        # each declared: A and B twice (+9 each, −3 in the four others' hands) = +6; C and D +9 − 15 = −6
        (
            4,
            [0, 1, 2, 3, 0, 1],
            ["本轮每人都做过庄：无奖罚", "本轮小计（含奖罚）：A +6，B +6，C −6，D −6；得分为正者胜"],
        ),
        # 3 players, each declares twice: +6 twice and −3 in each of the four others' hands
        (3, [0, 1, 2, 0, 1, 2], ["本轮每人都做过庄：无奖罚", "本轮小计（含奖罚）：A 0，B 0，C 0；得分为正者胜"]),
    ],
)
def test_the_receipt_of_a_round_everyone_declared(players, declarers, lines):
    result = settle([won_by(s) for s in declarers], players=players)
    assert result["games"][0]["adjustment_steps"] == lines
    assert result["hands"][5]["steps"][-1] == "本轮 6 把打完"


def test_the_round_totals_name_each_player_in_english_too():
    result = settle([won_by(s) for s in [0, 1, 2, 3, 0, 1]], players=4, lang="en")
    text = result["games"][0]["adjustment_steps"][-1]
    assert text == "round totals (with adjustments): A +6, B +6, C −6, D −6; the seats above 0 win"


# A refusal's message carries the figures it names (message table; 108 cards less the 12 of the bottom
# leave the declarer 24 cards with 4 players, 3 bombs of 8; 32 with 3 players, 4 bombs).
REFUSAL_MESSAGES = [
    (4, {"declarer": 0, "bid": 85, "captured": 30}, "叫分应为 5–80，5 的倍数"),
    (4, {"declarer": 0, "bid": 50, "surrender": True, "captured": 30}, "投降的一局不打牌，不能填 captured"),
    (4, {"declarer": 0, "bid": 50, "surrender": True, "bottom_points": 10}, "投降的一局不打牌，不能填 bottom_points"),
    (4, {"declarer": 0, "bid": 50, "captured": 150, "bottom_points": 55}, "205 分超过整副牌的 200 分"),
    (4, {"declarer": 0, "bid": 50, "captured": 30, "bombs": 4}, "炸弹最多 3 个（庄家出牌时手里只有 24 张牌）"),
    (3, {"declarer": 0, "bid": 50, "captured": 30, "bombs": 5}, "炸弹最多 4 个（庄家出牌时手里只有 32 张牌）"),
]


@pytest.mark.parametrize(("players", "bad", "message"), REFUSAL_MESSAGES)
def test_a_refusal_says_the_figures_it_names(players, bad, message):
    assert refused([bad], players=players).message("zh-Hans") == message


# Playing on from the state after a hand of the round: the round's declarings come back from the state.
def _play_on(hands: list[dict[str, Any]], k: int, state: SessionState) -> SessionResult:
    parsed = document_parse(doc(hands[k:]), variants=VARIANTS, first_hand=k + 1)
    return session_play(parsed, state=state)


def test_playing_on_mid_round_keeps_the_round_s_declarings():
    hands = [won_by(0)] * 4
    full = session_replay(document_parse(doc(hands), variants=VARIANTS))
    after_two = full.hands[1].state
    assert after_two is not None
    tail = _play_on(hands, 2, state_load(json.loads(json.dumps(state_dump(after_two)))))
    # A's third and fourth declarings earn the streak bonus: 3 + 1 from each 边家
    assert [h.result.deltas for h in tail.hands] == [(12, -4, -4, -4)] * 2


def test_a_state_whose_round_does_not_match_its_hand_count_is_refused():
    hands = [won_by(0)] * 3
    state = session_replay(document_parse(doc(hands), variants=VARIANTS)).hands[1].state
    assert state is not None
    broken = dataclasses.replace(state, table={"declared": [0]})  # two hands scored, one declaring
    with pytest.raises(AssertionError, match=r"^hand 3: round state out of step$"):
        _play_on(hands, 2, broken)
