"""升级 / 80分 / 拖拉机: every row of rules/shengji.md — score table, multipliers, 甩牌, ladders, finish, 勾J,
six players, presets and every refusal — worked by hand from the rules reference."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from settlement.rules.base import RulesError
from settlement.rules.document import document_parse
from settlement.rules.levels import LEVELS, Finish, Promotion, Stop, promote
from settlement.rules.messages import render
from settlement.rules.registry import VARIANTS
from settlement.rules.session import session_play, session_settle, state_dump
from settlement.rules.shengji import HONG5_LADDER, PRESETS, preset_description, score_levels

from ..conftest import SHARED
from .helpers import settle, settle_hand

V = "shengji"
SIX = ["甲", "乙", "丙", "丁", "戊", "己"]


def settle6(hands: list[dict[str, Any]], options: dict[str, Any] | None = None) -> dict[str, Any]:
    doc: dict[str, Any] = {"variant": V, "players": SIX, "hands": hands}
    if options is not None:
        doc["options"] = options
    return session_settle(doc)


def shuai(seat: int, times: int) -> list[dict[str, Any]]:
    return [{"seat": seat, "kind": "shuai"}] * times


# ---------------------------------------------------------------- the score table, two decks (T 80, d 40, z 1)

# Seat 0 (team A) declares, both teams at 2. s -> (outcome, deltas, levels, next declarer).
# s ≤ 0: ⌈75/40⌉ + 1 + ⌊−s/40⌋ = 3 + ⌊−s/40⌋; 5…75: ⌈(80 − s)/40⌉; ≥ 80: capture team ⌊(s − 80)/40⌋ − 1 + 1.
TWO_DECKS = [
    (0, "declarer_up", [3, 0, 3, 0], ["5", "2", "5", "2"], 2),
    (5, "declarer_up", [2, 0, 2, 0], ["4", "2", "4", "2"], 2),  # ⌈75/40⌉ = 2
    (35, "declarer_up", [2, 0, 2, 0], ["4", "2", "4", "2"], 2),  # ⌈45/40⌉ = 2
    (40, "declarer_up", [1, 0, 1, 0], ["3", "2", "3", "2"], 2),  # ⌈40/40⌉ = 1
    (75, "declarer_up", [1, 0, 1, 0], ["3", "2", "3", "2"], 2),  # ⌈5/40⌉ = 1
    (80, "switch", [0, 0, 0, 0], ["2", "2", "2", "2"], 1),  # 0 − 1 + 1 = 0: 上台
    (115, "switch", [0, 0, 0, 0], ["2", "2", "2", "2"], 1),
    (120, "capture_up", [0, 1, 0, 1], ["2", "3", "2", "3"], 1),  # 1 − 1 + 1
    (155, "capture_up", [0, 1, 0, 1], ["2", "3", "2", "3"], 1),
    (160, "capture_up", [0, 2, 0, 2], ["2", "4", "2", "4"], 1),
    (195, "capture_up", [0, 2, 0, 2], ["2", "4", "2", "4"], 1),
    (200, "capture_up", [0, 3, 0, 3], ["2", "5", "2", "5"], 1),
]


@pytest.mark.parametrize(("captured", "outcome", "deltas", "levels", "next_declarer"), TWO_DECKS)
def test_every_row_of_the_two_deck_score_table(captured, outcome, deltas, levels, next_declarer):
    hand = settle_hand(V, {"declarer": 0, "captured": captured})
    assert (hand["outcome"], hand["deltas"], hand["levels"]) == (outcome, deltas, levels)
    assert hand["next_declarer"] == hand["next_dealer"] == next_declarer
    assert hand["declarer_won"] is (outcome == "declarer_up")
    assert ("光头" in hand["tags"]) is (captured == 0)


# Negative s from failed throws by capture-team seats (shuai_penalty 10, subtracted from the capture
# team's points): s = −10 × throws.  −35 is out of reach in steps of 10, so −30 stands for the −35 row.
@pytest.mark.parametrize(
    ("throws", "levels_up"),
    [(3, 3), (4, 4), (7, 4), (8, 5)],  # −30: 3 + 0; −40: 3 + 1; −70: 3 + ⌊70/40⌋ = 4; −80: 3 + 2 = 5
)
def test_a_negative_score_adds_a_level_per_step_below_zero(throws, levels_up):
    hand = settle_hand(V, {"declarer": 0, "captured": 0, "penalties": shuai(1, throws)}, options={"shuai_penalty": 10})
    assert hand["deltas"] == [levels_up, 0, levels_up, 0]
    assert {"光头", "甩牌"} <= set(hand["tags"])


@pytest.mark.parametrize(
    ("captured", "deltas"),
    [(75, [1, 0, 1, 0]), (80, [0, 1, 0, 1]), (115, [0, 1, 0, 1]), (120, [0, 2, 0, 2]), (160, [0, 3, 0, 3])],
)
def test_without_a_dead_zone_taking_over_at_the_threshold_gains_a_level(captured, deltas):
    hand = settle_hand(V, {"declarer": 0, "captured": captured}, options={"dead_zone": 0})
    assert hand["deltas"] == deltas


def test_a_wider_dead_zone_takes_over_with_no_level_for_longer():
    # z = 2: ⌊(s − 80)/40⌋ − 2 + 1 → 120: 0, 155: 0, 160: 1.
    results = [
        settle_hand(V, {"declarer": 0, "captured": c}, options={"dead_zone": 2})["deltas"] for c in (120, 155, 160)
    ]
    assert results == [[0, 0, 0, 0], [0, 0, 0, 0], [0, 1, 0, 1]]


# decks (and the thresholds that follow from them: T = 40 × decks, d = 20 × decks), explicit threshold/step.
@pytest.mark.parametrize(
    ("options", "captured", "deltas"),
    [
        ({"decks": 3}, 0, [3, 0, 3, 0]),  # ⌈115/60⌉ + 1 = 3
        ({"decks": 3}, 55, [2, 0, 2, 0]),  # ⌈65/60⌉ = 2
        ({"decks": 3}, 60, [1, 0, 1, 0]),
        ({"decks": 3}, 175, [0, 0, 0, 0]),  # ⌊55/60⌋ − 1 + 1 = 0
        ({"decks": 3}, 180, [0, 1, 0, 1]),
        ({"decks": 3}, 300, [0, 3, 0, 3]),  # ⌊180/60⌋ = 3
        ({"decks": 4}, 0, [3, 0, 3, 0]),  # ⌈155/80⌉ + 1 = 3
        ({"decks": 4}, 75, [2, 0, 2, 0]),  # ⌈85/80⌉ = 2
        ({"decks": 4}, 155, [1, 0, 1, 0]),
        ({"decks": 4}, 240, [0, 1, 0, 1]),
        ({"threshold": 100, "step": 20}, 0, [6, 0, 6, 0]),  # ⌈95/20⌉ + 1 = 6
        ({"threshold": 100, "step": 20}, 5, [5, 0, 5, 0]),  # ⌈95/20⌉ = 5
        ({"threshold": 100, "step": 20}, 95, [1, 0, 1, 0]),
        ({"threshold": 100, "step": 20}, 115, [0, 0, 0, 0]),
        ({"threshold": 100, "step": 20}, 140, [0, 2, 0, 2]),  # ⌊40/20⌋ − 1 + 1 = 2
    ],
)
def test_decks_threshold_and_step_set_the_table(options, captured, deltas):
    assert settle_hand(V, {"declarer": 0, "captured": captured}, options=options)["deltas"] == deltas


def test_the_defaults_follow_the_deck_count():
    assert (score_levels(40, threshold=80, step=40, dead_zone=1)) == (False, 1)
    options = settle(V, [])["options"]
    assert (options["decks"], options["threshold"], options["step"]) == (2, None, None)
    assert settle6([])["options"]["decks"] == 3


# ---------------------------------------------------------------- the bottom (抠底)


# captured 40, bottom 10, seat 0 declares: s = 40 + 10 × m.
@pytest.mark.parametrize(
    ("options", "kou", "m"),
    [
        ({}, {"kou_cards": 1}, 2),  # times: 2 × 1
        ({}, {"kou_cards": 2}, 4),  # 2 × 2
        ({}, {"kou_cards": 4, "kou_unit": 2}, 8),  # cards: the unit does not count
        ({"kou_count": "largest_unit"}, {"kou_cards": 4, "kou_unit": 2}, 4),  # 2 × 2
        ({"kou_count": "largest_unit"}, {"kou_cards": 3}, 6),  # unit defaults to the cards: 2 × 3
        ({"kou_multiplier": "power"}, {"kou_cards": 1}, 2),  # 2^1
        ({"kou_multiplier": "power"}, {"kou_cards": 3}, 8),  # 2^3
        ({"kou_multiplier": "power", "kou_count": "largest_unit"}, {"kou_cards": 4, "kou_unit": 4}, 16),
        ({"kou_multiplier": "flat"}, {}, 2),
        ({"kou_multiplier": "flat"}, {"kou_cards": 4}, 2),
    ],
)
def test_the_bottom_multiplier_schemes(options, kou, m):
    hand = settle_hand(V, {"declarer": 0, "captured": 40, "bottom_points": 10, "kou_di": True, **kou}, options=options)
    s = 40 + 10 * m
    expected = score_levels(s, threshold=80, step=40, dead_zone=1)  # the table is pinned above
    up = [expected[1], 0, expected[1], 0] if not expected[0] else [0, expected[1], 0, expected[1]]
    assert hand["deltas"] == up
    assert "抠底" in hand["tags"]
    assert any(f"10 × {m} = {s}" in step for step in hand["steps"])


def test_the_bottom_counts_for_nobody_without_the_last_trick():
    hand = settle_hand(V, {"declarer": 0, "captured": 75, "bottom_points": 25})  # 75 → +1, not 100
    assert (hand["outcome"], hand["deltas"], hand["tags"]) == ("declarer_up", [1, 0, 1, 0], [])


# ---------------------------------------------------------------- failed throws (甩牌)


@pytest.mark.parametrize(
    ("penalties", "options", "deltas"),
    [
        (shuai(0, 1), {"shuai_penalty": 10}, [0, 0, 0, 0]),  # 70 + 10 = 80: 上台
        (shuai(2, 1), {"shuai_penalty": 10}, [0, 0, 0, 0]),  # the declarer's partner counts the same
        (shuai(1, 1), {"shuai_penalty": 10}, [1, 0, 1, 0]),  # 70 − 10 = 60: +1
        (shuai(1, 4), {"shuai_penalty": 10}, [2, 0, 2, 0]),  # 70 − 40 = 30: ⌈50/40⌉ = 2
        (shuai(0, 1) + shuai(3, 1), {"shuai_penalty": 10}, [1, 0, 1, 0]),  # they cancel: 70
        (shuai(0, 2), {"shuai_penalty": 25}, [0, 1, 0, 1]),  # 70 + 50 = 120: 上台 +1
        (shuai(0, 3), {}, [1, 0, 1, 0]),  # default 0 points (80fen: 不罚分)
    ],
)
def test_failed_throws_move_the_score(penalties, options, deltas):
    hand = settle_hand(V, {"declarer": 0, "captured": 70, "penalties": penalties}, options=options)
    assert hand["deltas"] == deltas
    assert "甩牌" in hand["tags"]


# ---------------------------------------------------------------- promotion: ladders, 卡关, finishing


def test_must_defend_holds_a_capture_team_and_a_second_step():
    hands = [
        {"declarer": 1, "captured": 200},  # team A takes over +3 from 2 (must defend): stays, 卡关
        {"captured": 0},  # seat 2 declares: +3 from 2: first step to 3, then 4, held at 4 (moved 2)
        {"captured": 5},  # seat 0: +2 from 4: the first step leaves it: 5, then 6
        {"captured": 40},  # seat 2: +1 from 6: 7
    ]
    result = settle(V, hands, options={"must_defend": ["2", "4"]})["hands"]
    assert [h["deltas"] for h in result] == [[0, 0, 0, 0], [2, 0, 2, 0], [2, 0, 2, 0], [1, 0, 1, 0]]
    assert [h["outcome"] for h in result] == ["capture_up", "declarer_up", "declarer_up", "declarer_up"]
    assert ["卡关" in h["tags"] for h in result] == [True, True, False, False]
    assert result[3]["levels"] == ["7", "2", "7", "2"]


def test_landing_exactly_on_a_gate_is_not_held():
    # +3 from 2 with 5 to defend: 3, 4, 5 — all three steps used, so no 卡关 (80fen: 落点正好是关卡不算跨过).
    hand = settle_hand(V, {"declarer": 0, "captured": 0}, options={"must_defend": ["5"]})
    assert (hand["deltas"], hand["tags"]) == ([3, 0, 3, 0], ["光头"])


def test_no_skip_stops_on_the_level_but_a_team_starting_there_leaves_it():
    hands = [
        {"declarer": 0, "captured": 0},  # +3 from 2: 3, 4, then 5 is no_skip: stops on 5 (moved 3)
        {"captured": 0},  # +3 from 5: the first step may leave it: 6, 7, 8
        {"captured": 0},  # +3 from 8: 9, 10 (no_skip): stops on 10, moved 2
    ]
    result = settle(V, hands, options={"no_skip": ["5", "10"]})["hands"]
    assert [h["deltas"] for h in result] == [[3, 0, 3, 0], [3, 0, 3, 0], [2, 0, 2, 0]]
    assert ["卡关" in h["tags"] for h in result] == [False, False, True]


def test_a_capture_team_first_step_leaves_a_no_skip_level():
    # No_skip only stops at i > 0, whoever is promoted: team B at 2 (no_skip) takes over +2: 3, 4.
    hand = settle_hand(V, {"declarer": 0, "captured": 160}, options={"no_skip": ["2", "4"]})
    assert (hand["deltas"], hand["levels"]) == ([0, 2, 0, 2], ["2", "4", "2", "4"])


def test_a_club_ladder_is_climbed_step_by_step():
    options = {"ladder": ["2", "5", "10", "K", "A"]}
    hand = settle_hand(V, {"declarer": 0, "captured": 0}, options=options)  # +3: 2 → 5 → 10 → K
    assert (hand["deltas"], hand["levels"]) == ([3, 0, 3, 0], ["K", "2", "K", "2"])


@pytest.mark.parametrize(
    ("finish", "captured", "deltas", "finished", "levels"),
    [
        # Team A at K (ladder K, A) declares. +1 (40): K → A either way.
        ("must_play_ace", 40, [1, 0, 1, 0], False, ["A", "K", "A", "K"]),
        ("pass_ace", 40, [1, 0, 1, 0], False, ["A", "K", "A", "K"]),
        # +2 (5): must_play_ace stops at A (i = 1 from A); pass_ace wins on the second step.
        ("must_play_ace", 5, [1, 0, 1, 0], False, ["A", "K", "A", "K"]),
        ("pass_ace", 5, [1, 0, 1, 0], True, ["A", "K", "A", "K"]),
    ],
)
def test_the_two_ways_to_finish(finish, captured, deltas, finished, levels):
    result = settle(V, [{"declarer": 0, "captured": captured}], options={"ladder": ["K", "A"], "finish": finish})
    hand = result["hands"][0]
    assert (hand["deltas"], hand["levels"]) == (deltas, levels)
    assert result["games"][0]["finished"] is finished
    assert (hand["next_declarer"] is None) is finished


def test_must_play_ace_wins_only_declaring_at_the_last_level_and_a_new_game_starts():
    hands = [
        {"declarer": 1, "captured": 0},  # team B K → A (+1 of 3, stops at A)
        {"captured": 200},  # seat 3 declares; team A takes over +3 from K: A, then stops
        {"captured": 0},  # seat 0 declares at A: first step from A wins; moved 0
        {"declarer": 2, "captured": 40},  # new game at K: team A K → A
    ]
    result = settle(V, hands, options={"ladder": ["K", "A"]})
    assert [h["deltas"] for h in result["hands"]] == [[0, 1, 0, 1], [1, 0, 1, 0], [0, 0, 0, 0], [1, 0, 1, 0]]
    assert [h["game"] for h in result["hands"]] == [1, 1, 1, 2]
    game = result["games"][0]
    assert (game["winners"], game["how"], game["totals"]) == ([0, 2], "levels", [1, 1, 1, 1])
    assert result["hands"][2]["next_declarer"] is None
    assert result["games_won"] == [1, 0, 1, 0]
    assert result["totals"] == [2, 1, 2, 1]


def test_a_capture_team_at_the_last_level_is_not_promoted_under_must_play_ace():
    hands = [{"declarer": 0, "captured": 0}, {"captured": 200}]  # A at A; seat 2 loses: B takes over +3
    result = settle(V, hands, options={"ladder": ["Q", "K", "A"]})["hands"]
    assert result[0]["levels"] == ["A", "Q", "A", "Q"]  # +3 from Q: K, A, stop
    assert result[1]["deltas"] == [0, 2, 0, 2]  # B: Q → K → A, then stops (not declaring)


# ---------------------------------------------------------------- 勾J


def test_jack_kou_sends_the_declaring_team_back_then_promotes():
    ladder = {"ladder": ["9", "10", "J", "Q", "K", "A"], "jack_back_to_two": True}
    hands = [
        {"declarer": 0, "captured": 5},  # 9 → J
        # 勾J and still s = 20 + 5 × 2 = 30 < 80: A back to 9 (−2), then +⌈50/40⌉ = 2 → J: net 0
        {"captured": 20, "bottom_points": 5, "kou_di": True, "kou_cards": 1, "jack_kou": True},
        # again, and s = 100 + 10 × 2 = 120: A back to 9 (−2) and B takes over +1: 9 → 10
        {"captured": 100, "bottom_points": 10, "kou_di": True, "kou_cards": 1, "jack_kou": True},
    ]
    result = settle(V, hands, options=ladder)["hands"]
    assert [h["deltas"] for h in result] == [[2, 0, 2, 0], [0, 0, 0, 0], [-2, 1, -2, 1]]
    assert result[2]["levels"] == ["9", "10", "9", "10"]
    assert "勾J" in result[1]["tags"] and "勾J" in result[2]["tags"]


# ---------------------------------------------------------------- rotation, redeals, six players


def test_rotation_free_declarer_and_redeals():
    hands = [
        {"declarer": 1, "captured": 40},  # next 3
        {"redeal": "misdeal"},  # shows 3, changes nothing
        {"declarer": 2, "captured": 100},  # free declarer: seat 2 (rotation 3); 上台 → next 3
        {"captured": 40},
    ]
    result = settle(V, hands, options={"free_declarer": True})["hands"]
    assert [h["declarer"] for h in result] == [1, None, 2, 3]
    assert (result[1]["dealer"], result[1]["next_declarer"], result[1]["status"]) == (3, 3, "redeal")
    assert result[1]["outcome"] == "redeal"
    assert [h["next_declarer"] for h in result] == [3, 3, 3, 1]


def test_six_players_rotate_within_the_declaring_team():
    hands = [
        {"declarer": 1, "captured": 60},  # 3 decks: ⌈60/60⌉ = 1 for 1 + 3 + 5; next 3
        {"captured": 60},  # next 5
        {"captured": 60},  # next 1 (wraps)
        {"captured": 120},  # 上台 → 下家 2
        {"captured": 0},  # team 0 + 2 + 4: ⌈115/60⌉ + 1 = 3; next 4
    ]
    result = settle6(hands)["hands"]
    assert [h["declarer"] for h in result] == [1, 3, 5, 1, 2]
    assert [h["next_declarer"] for h in result] == [3, 5, 1, 2, 4]
    assert result[4]["deltas"] == [3, 0, 3, 0, 3, 0]
    assert result[4]["levels"] == ["5", "5", "5", "5", "5", "5"]


# ---------------------------------------------------------------- presets


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_resolves_and_is_described_in_both_languages(name):
    assert name in VARIANTS[V].presets
    settle(V, [{"declarer": 0, "captured": 0}], options=dict(PRESETS[name]))
    zh, en = render(preset_description(name), "zh-Hans"), render(preset_description(name), "en")
    assert zh.startswith(name) and en and zh != en and "preset." not in en


def test_the_shanghai_preset_holds_at_its_gates_and_the_hong5_preset_counts_the_bottom_double():
    shanghai = settle_hand(V, {"declarer": 0, "captured": 0}, options=dict(PRESETS["上海80分"]))
    assert shanghai["levels"] == ["5", "2", "5", "2"]  # 2 → 3 → 4 → 5 (gate)
    hong5 = settle_hand(
        V, {"declarer": 0, "captured": 30, "bottom_points": 10, "kou_di": True}, options=dict(PRESETS["紅5"])
    )
    assert hong5["deltas"] == [1, 0, 1, 0]  # 30 + 10 × 2 = 50: ⌈30/40⌉ = 1; 2 → 4 on its ladder
    assert hong5["levels"] == ["4", "2", "4", "2"]


def test_receipts_come_in_both_languages():
    hand = {"declarer": 0, "captured": 35, "bottom_points": 10, "kou_di": True, "kou_cards": 2}
    zh = settle(V, [hand])["hands"][0]["steps"]
    en = settle(V, [hand], lang="en")["hands"][0]["steps"]
    assert zh[0] == "底分倍数：最后一墩每人 2 张，2 × 2 = 4"
    assert en[1] == "last trick (抠底): captured 35 + bottom 10 × 4 = 75"
    assert en[2] == "points 75 < 80: declaring team up ⌈(80 − 75) / 40⌉ = 1"
    assert not any("{" in step for step in zh + en)


# ---------------------------------------------------------------- refusals


def refusal(hands: list[dict[str, Any]], options: dict[str, Any] | None = None, players: int = 4) -> RulesError:
    doc: dict[str, Any] = {"variant": V, "players": [f"p{i}" for i in range(players)], "hands": hands}
    if options is not None:
        doc["options"] = options
    with pytest.raises(RulesError) as caught:
        session_settle(doc)
    return caught.value


FIRST = {"declarer": 0, "captured": 40}
KOU = {"kou_di": True, "bottom_points": 10}

REFUSALS = [
    # (hands, options, players) -> (code, hand, field)
    ([FIRST], None, 5, "players.count", None, "players"),
    ([FIRST], None, 3, "players.count", None, "players"),
    ([FIRST], {"jokers": 2}, 4, "option.unknown", None, "options.jokers"),
    ([FIRST], {"decks": 5}, 4, "option.invalid", None, "options.decks"),
    ([FIRST], {"threshold": 82}, 4, "option.invalid", None, "options.threshold"),
    ([FIRST], {"kou_multiplier": "double"}, 4, "option.invalid", None, "options.kou_multiplier"),
    ([FIRST], {"ladder": ["2", "1"]}, 4, "option.invalid", None, "options.ladder"),
    ([FIRST], {"must_defend": "5"}, 4, "option.invalid", None, "options.must_defend"),
    ([FIRST], {"threshold": 90}, 4, "options.inconsistent", None, "options.threshold"),  # not × 40
    ([FIRST], {"threshold": 240, "step": 40}, 4, "options.inconsistent", None, "options.threshold"),  # > 200
    ([FIRST], {"ladder": ["5", "3", "A"]}, 4, "options.inconsistent", None, "options.ladder"),
    ([FIRST], {"ladder": ["A"]}, 4, "options.inconsistent", None, "options.ladder"),
    ([FIRST], {"must_defend": ["A"]}, 4, "options.inconsistent", None, "options.must_defend"),
    ([FIRST], {"ladder": ["2", "4", "A"], "no_skip": ["3"]}, 4, "options.inconsistent", None, "options.no_skip"),
    ([{"declarer": 0, "captured": 40, "bid": 80}], None, 4, "field.unknown", 1, "bid"),
    ([{"declarer": 0, "captured": 40, "dealer": 0}], None, 4, "field.unknown", 1, "dealer"),
    ([{"declarer": 0, "captured": 40, "bottom_multiplier": 2}], None, 4, "field.unknown", 1, "bottom_multiplier"),
    ([{"declarer": 0}], None, 4, "field.required", 1, "captured"),
    ([FIRST, {"redeal": "all_pass", "captured": 0}], None, 4, "field.not_on_redeal", 2, "captured"),
    ([FIRST, {"redeal": "all_pass", "penalties": shuai(1, 1)}], None, 4, "field.not_on_redeal", 2, "penalties"),
    ([FIRST, {"redeal": "boredom"}], None, 4, "value.not_choice", 2, "redeal"),
    ([{"captured": 40}], None, 4, "declarer.first_hand", 1, "declarer"),
    ([FIRST, {"declarer": 1, "captured": 40}], None, 4, "declarer.rotation", 2, "declarer"),
    ([{"declarer": 4, "captured": 40}], None, 4, "seat.invalid", 1, "declarer"),
    ([{"declarer": 0, "captured": 40, "penalties": shuai(6, 1)}], None, 6, "seat.invalid", 1, "penalties[0].seat"),
    ([{"declarer": 0, "captured": 40, **KOU, "kou_cards": "2"}], None, 4, "value.not_integer", 1, "kou_cards"),
    ([{"declarer": 0, "captured": -5}], None, 4, "value.not_count", 1, "captured"),
    ([{"declarer": 0, "captured": 40, "kou_di": 1}], None, 4, "value.not_bool", 1, "kou_di"),
    (
        [{"declarer": 0, "captured": 40, **KOU, "kou_cards": 1, "jack_kou": "yes"}],
        None,
        4,
        "value.not_bool",
        1,
        "jack_kou",
    ),
    ([{"declarer": 0, "captured": 40, "penalties": {"seat": 1}}], None, 4, "value.not_list", 1, "penalties"),
    ([{"declarer": 0, "captured": 40, "penalties": [1]}], None, 4, "value.not_object", 1, "penalties[0]"),
    ([{"declarer": 0, "captured": 42}], None, 4, "points.not_multiple_of_5", 1, "captured"),
    ([{"declarer": 0, "captured": 40, "bottom_points": 12}], None, 4, "points.not_multiple_of_5", 1, "bottom_points"),
    ([{"declarer": 0, "captured": 205}], None, 4, "points.over_deck", 1, "captured"),
    ([{"declarer": 0, "captured": 150, "bottom_points": 55}], None, 4, "points.over_deck", 1, "bottom_points"),
    ([{"declarer": 0, "captured": 305}], None, 6, "points.over_deck", 1, "captured"),  # 3 decks: 300
    ([{"declarer": 0, "captured": 40, **KOU}], None, 4, "kou.cards_required", 1, "kou_cards"),
    ([{"declarer": 0, "captured": 40, **KOU}], {"kou_multiplier": "power"}, 4, "kou.cards_required", 1, "kou_cards"),
    (
        [{"declarer": 0, "captured": 40, **KOU, "kou_unit": 1}],
        {"kou_multiplier": "flat"},
        4,
        "kou.cards_required",
        1,
        "kou_cards",
    ),
    ([{"declarer": 0, "captured": 40, "kou_cards": 2}], None, 4, "kou.without_kou_di", 1, "kou_cards"),
    ([{"declarer": 0, "captured": 40, "kou_unit": 2}], None, 4, "kou.without_kou_di", 1, "kou_unit"),
    (
        [{"declarer": 0, "captured": 40, "jack_kou": True}],
        {"jack_back_to_two": True},
        4,
        "kou.without_kou_di",
        1,
        "jack_kou",
    ),
    ([{"declarer": 0, "captured": 40, **KOU, "kou_cards": 0}], None, 4, "kou.cards_out_of_range", 1, "kou_cards"),
    ([{"declarer": 0, "captured": 40, **KOU, "kou_cards": 28}], None, 4, "kou.cards_out_of_range", 1, "kou_cards"),
    ([{"declarer": 0, "captured": 40, **KOU, "kou_cards": 28}], None, 6, "kou.cards_out_of_range", 1, "kou_cards"),
    (
        [{"declarer": 0, "captured": 40, **KOU, "kou_cards": 2, "kou_unit": 3}],
        None,
        4,
        "kou.cards_out_of_range",
        1,
        "kou_unit",
    ),
    (
        [{"declarer": 0, "captured": 40, **KOU, "kou_cards": 2, "kou_unit": 0}],
        None,
        4,
        "kou.cards_out_of_range",
        1,
        "kou_unit",
    ),
    (
        [{"declarer": 0, "captured": 40, "penalties": [{"seat": 1, "kind": "misdeal"}]}],
        None,
        4,
        "penalty.kind",
        1,
        "penalties[0].kind",
    ),
    (
        [{"declarer": 0, "captured": 40, **KOU, "kou_cards": 1, "jack_kou": True}],
        None,
        4,
        "jack.not_enabled",
        1,
        "jack_kou",
    ),
    (
        [{"declarer": 0, "captured": 40, **KOU, "kou_cards": 1, "jack_kou": True}],
        {"jack_back_to_two": True},
        4,
        "jack.not_at_jack",
        1,
        "jack_kou",
    ),
]


@pytest.mark.parametrize(("hands", "options", "players", "code", "hand", "field"), REFUSALS)
def test_every_refusal_names_its_code_hand_and_field(hands, options, players, code, hand, field):
    error = refusal(hands, options, players)
    assert (error.code, error.hand, error.field) == (code, hand, field)
    for lang in ("zh-Hans", "en"):
        assert not error.message(lang).startswith("error.")


def test_the_edges_of_the_refusals_are_accepted():
    settle_hand(V, {"declarer": 0, "captured": 200})  # the whole deck
    settle_hand(V, {"declarer": 0, "captured": 150, "bottom_points": 50})
    settle_hand(V, {"declarer": 0, "captured": 40, **KOU, "kou_cards": 27})  # ⌊108 / 4⌋
    settle_hand(V, {"declarer": 0, "captured": 40, **KOU, "kou_cards": 2, "kou_unit": 1})  # a unit of one card
    settle_hand(V, {"declarer": 0, "captured": 40, **KOU}, options={"kou_multiplier": "flat"})
    settle_hand(V, {"declarer": 0, "captured": 40, "jack_kou": False})  # false is the same as absent
    settle_hand(V, {"declarer": 0, "captured": 40}, options={"threshold": 200, "step": 40})


# ---------------------------------------------------------------- the shared golden cases, codes included

SHENGJI_GOLDEN = sorted((SHARED / "golden-shengji").glob("*.json"))


@pytest.mark.parametrize("path", SHENGJI_GOLDEN, ids=[p.name for p in SHENGJI_GOLDEN])
def test_the_shared_shengji_golden_refusals_carry_their_codes(path: Path):
    case = json.loads(path.read_text(encoding="utf-8"))
    if "expect_error" not in case:
        session_settle(case["input"])  # the expectations are checked by test_golden.py's comparison
        return
    with pytest.raises(RulesError) as caught:
        session_settle(case["input"])
    want = case["expect_error"]
    assert (caught.value.code, caught.value.hand, caught.value.field) == (
        want["code"],
        want.get("hand"),
        want["field"],
    )


# ---------------------------------------------------------------- properties of the level arithmetic

LAST = len(LEVELS) - 1
level_sets = st.frozensets(st.integers(0, LAST - 1), max_size=5)


@given(st.integers(0, LAST), st.integers(0, 20), st.booleans(), st.sampled_from(list(Finish)), level_sets, level_sets)
def test_a_promotion_never_passes_a_gate(level, k, declaring, finish, defend, no_skip):
    p = promote(level, k, declaring=declaring, last=LAST, finish=finish, must_defend=defend, no_skip=no_skip)
    assert p.start <= p.end <= LAST and p.moved <= k
    for gate in defend:
        if p.start <= gate < p.end:  # it left a must_defend level: only by the declaring team's first step
            assert declaring and gate == p.start
    for gate in no_skip:
        assert not p.start < gate < p.end  # a no_skip level is never jumped
    if p.won:
        assert p.end == LAST and (finish is Finish.PASS_ACE or (declaring and level == LAST))
    if p.stop is None and not p.won:
        assert p.moved == k
    if p.stop is Stop.MUST_DEFEND:
        assert p.end in defend


shengji_hand = st.fixed_dictionaries(
    {"captured": st.integers(0, 40).map(lambda x: 5 * x)},
    optional={
        "penalties": st.lists(st.builds(lambda s: {"seat": s, "kind": "shuai"}, st.integers(0, 3)), max_size=3),
    },
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(shengji_hand, min_size=1, max_size=25),
    st.sampled_from([[], ["5", "10", "K"], ["2", "5", "10", "K"]]),
    st.sampled_from([[], ["10", "K"]]),
    st.sampled_from(["must_play_ace", "pass_ace"]),
    st.sampled_from([0, 10]),
)
def test_levels_and_totals_are_the_sums_of_the_deltas(hands, defend, no_skip, finish, penalty):
    options = {"must_defend": defend, "no_skip": no_skip, "finish": finish, "shuai_penalty": penalty}
    # A game's first hand names its declarer; later ones follow the rotation (so settle prefix by prefix).
    played: list[dict[str, Any]] = []
    game_over = True
    for hand in hands:
        played.append({**hand, "declarer": 0} if game_over else dict(hand))
        game_over = settle(V, played, options=options)["hands"][-1]["next_declarer"] is None
    result = settle(V, played, options=options)
    for game in result["games"]:
        running = [0, 0, 0, 0]
        for h in (h for h in result["hands"] if h["game"] == game["n"]):
            running = [a + b for a, b in zip(running, h["deltas"], strict=True)]
            assert h["totals"] == running
            assert [LEVELS.index(x) for x in h["levels"]] == running  # both teams start at the first level
            assert h["deltas"][0] == h["deltas"][2] and h["deltas"][1] == h["deltas"][3]
        assert game["totals"] == running
    assert result["totals"] == [sum(g["totals"][s] for g in result["games"]) for s in range(4)]


# ---------------------------------------------------------------- levels.py, read whole (shengji.md, Promotion)


@pytest.mark.parametrize(
    ("level", "k", "declaring", "finish", "gates", "promotion"),
    [
        # declaring at A (12) and promoted: wins, moving 0 (A必打, step 1)
        (12, 1, True, Finish.MUST_PLAY_ACE, {}, Promotion(start=12, end=12, won=True, stop=None)),
        # a capture team from K: one step to A, then held there (it must declare at A to win)
        (11, 3, False, Finish.MUST_PLAY_ACE, {}, Promotion(start=11, end=12, won=False, stop=Stop.LAST)),
        # pass_ace: any promotion from A wins
        (10, 5, False, Finish.PASS_ACE, {}, Promotion(start=10, end=12, won=True, stop=None)),
        # a capture team at a must_defend level does not leave it (step 2)
        (
            3,
            2,
            False,
            Finish.PASS_ACE,
            {"must_defend": (3,)},
            Promotion(start=3, end=3, won=False, stop=Stop.MUST_DEFEND),
        ),
        # a no_skip level stops a promotion that reaches it after its first step (step 3)
        (7, 3, True, Finish.MUST_PLAY_ACE, {"no_skip": (8,)}, Promotion(start=7, end=8, won=False, stop=Stop.NO_SKIP)),
        # nothing in the way: all k levels
        (0, 3, True, Finish.MUST_PLAY_ACE, {}, Promotion(start=0, end=3, won=False, stop=None)),
    ],
)
def test_a_promotion_says_where_it_ended_whether_it_won_and_why_it_stopped(
    level, k, declaring, finish, gates, promotion
):
    assert promote(level, k, declaring=declaring, last=12, finish=finish, **gates) == promotion


def test_six_players_see_teams_of_three_in_the_receipt_and_on_a_redeal():
    # 3 decks: T 120, step 60; 60 captured: ⌈60 / 60⌉ = 1 for 甲·丙·戊 (2 → 3); the redeal keeps the six levels
    hands = session_settle(
        {"variant": V, "players": SIX, "hands": [{"declarer": 0, "captured": 60}, {"redeal": "all_pass"}]}, lang="en"
    )["hands"]
    assert "levels: 甲·丙·戊 3, 乙·丁·己 2" in hands[0]["steps"]
    assert hands[1]["levels"] == ["3", "2", "3", "2", "3", "2"]


@pytest.mark.parametrize(
    ("hand", "field", "message"),
    [
        ({"declarer": 0, "captured": 205}, "captured", "205 points are more than the deck's 200"),
        (
            {"declarer": 0, "captured": 150, "bottom_points": 55},
            "bottom_points",
            "205 points are more than the deck's 200",
        ),
    ],
)
def test_a_figure_over_two_decks_says_how_far_over(hand, field, message):
    # two decks are 200 points: captured alone, or captured + the bottom
    error = refusal([hand])
    assert (error.code, error.field, error.message("en")) == ("points.over_deck", field, message)


@pytest.mark.parametrize(
    ("options", "field", "message", "zh"),
    [
        (
            {"ladder": ["4", "2", "A"]},
            "options.ladder",
            "inconsistent options: ladder must rise strictly, at least 2 levels",
            "选项不一致：级牌顺序应从低到高，至少两级",
        ),
        (
            {"must_defend": ["A"]},
            "options.must_defend",
            "inconsistent options: must_defend level A must be on the ladder, not its last level",
            "选项不一致：必打关卡的 A 应在级牌顺序上，且不是最后一级",
        ),
        (
            {"ladder": HONG5_LADDER, "no_skip": ["3"]},
            "options.no_skip",
            "inconsistent options: no_skip level 3 must be on the ladder, not its last level",
            "选项不一致：不许越级的 3 应在级牌顺序上，且不是最后一级",
        ),
    ],
)
def test_a_ladder_that_does_not_fit_says_why_in_both_languages(options, field, message, zh):
    error = refusal([], options)
    assert (error.code, error.field, error.message("en")) == ("options.inconsistent", field, message)
    assert error.message("zh-Hans") == zh


# ---------------------------------------------------------------- the receipt, line by line (message table, en)

SHORT = {"ladder": ["2", "A"]}  # a two-level ladder: A is one step up

RECEIPTS = [
    # 35 < 80: ⌈45 / 40⌉ = 2, 对家 next
    (
        {},
        [],
        {"declarer": 0, "captured": 35},
        [
            "capture team's points: 35 (the bottom counts for nobody)",
            "points 35 < 80: declaring team up ⌈(80 − 35) / 40⌉ = 2",
            "levels: 甲·丙 4, 乙·丁 2",
            "next declarer: the declarer's partner (对家), 丙",
        ],
    ),
    # 光头: ⌈75 / 40⌉ + 1 + ⌊0 / 40⌋ = 3
    (
        {},
        [],
        {"declarer": 0, "captured": 0},
        [
            "capture team's points: 0 (the bottom counts for nobody)",
            "points 0 ≤ 0 (光头): declaring team up ⌈(80 − 5) / 40⌉ + 1 + ⌊0 / 40⌋ = 3",
            "levels: 甲·丙 5, 乙·丁 2",
            "next declarer: the declarer's partner (对家), 丙",
        ],
    ),
    # 100 ≥ 80 in the dead zone: 上台, no level, 下家 next
    (
        {},
        [],
        {"declarer": 0, "captured": 100},
        [
            "capture team's points: 100 (the bottom counts for nobody)",
            "points 100 ≥ 80: the capture team takes over (上台), no level",
            "levels: 甲·丙 2, 乙·丁 2",
            "next declarer: the declarer's 下家, 乙",
        ],
    ),
    # 160: ⌊80 / 40⌋ − 1 + 1 = 2
    (
        {},
        [],
        {"declarer": 0, "captured": 160},
        [
            "capture team's points: 160 (the bottom counts for nobody)",
            "points 160 ≥ 80: the capture team takes over and goes up ⌊(160 − 80) / 40⌋ − 1 + 1 = 2",
            "levels: 甲·丙 2, 乙·丁 4",
            "next declarer: the declarer's 下家, 乙",
        ],
    ),
    # 抠底, times: 2 cards each, m = 4: 35 + 40 = 75
    (
        {},
        [],
        {"declarer": 0, "captured": 35, "bottom_points": 10, "kou_di": True, "kou_cards": 2},
        [
            "bottom multiplier: 2 cards each in the last trick, 2 × 2 = 4",
            "last trick (抠底): captured 35 + bottom 10 × 4 = 75",
            "points 75 < 80: declaring team up ⌈(80 − 75) / 40⌉ = 1",
            "levels: 甲·丙 3, 乙·丁 2",
            "next declarer: the declarer's partner (对家), 丙",
        ],
    ),
    # 抠底, power of the largest unit (a triple in 4 cards): 2^3 = 8; 0 + 5 × 8 = 40
    (
        {"kou_multiplier": "power", "kou_count": "largest_unit"},
        [],
        {"declarer": 0, "captured": 0, "bottom_points": 5, "kou_di": True, "kou_cards": 4, "kou_unit": 3},
        [
            "bottom multiplier: largest unit 3 cards, 2^3 = 8",
            "last trick (抠底): captured 0 + bottom 5 × 8 = 40",
            "points 40 < 80: declaring team up ⌈(80 − 40) / 40⌉ = 1",
            "levels: 甲·丙 3, 乙·丁 2",
            "next declarer: the declarer's partner (对家), 丙",
        ],
    ),
    # 抠底, flat: × 2 whatever the last trick; 30 + 20 = 50
    (
        {"kou_multiplier": "flat"},
        [],
        {"declarer": 0, "captured": 30, "bottom_points": 10, "kou_di": True},
        [
            "bottom multiplier: always × 2",
            "last trick (抠底): captured 30 + bottom 10 × 2 = 50",
            "points 50 < 80: declaring team up ⌈(80 − 50) / 40⌉ = 1",
            "levels: 甲·丙 3, 乙·丁 2",
            "next declarer: the declarer's partner (对家), 丙",
        ],
    ),
    # failed throws, 10 each: the declaring team's two for the capture team, the capture team's one against it
    (
        {"shuai_penalty": 10},
        [],
        {"declarer": 0, "captured": 60, "penalties": [*shuai(0, 1), *shuai(2, 1), *shuai(1, 1)]},
        [
            "capture team's points: 60 (the bottom counts for nobody)",
            "failed throws: declaring team 2, capture team 1, 10 each: +10 → 70",
            "points 70 < 80: declaring team up ⌈(80 − 70) / 40⌉ = 1",
            "levels: 甲·丙 3, 乙·丁 2",
            "next declarer: the declarer's partner (对家), 丙",
        ],
    ),
    # failed throws take s below 0: 10 × (0 − 4) = −40; 光头 and one more per 40 under 0: 2 + 1 + 1 = 4
    (
        {"shuai_penalty": 10},
        [],
        {"declarer": 0, "captured": 0, "penalties": shuai(1, 4)},
        [
            "capture team's points: 0 (the bottom counts for nobody)",
            "failed throws: declaring team 0, capture team 4, 10 each: −40 → -40",
            "points -40 ≤ 0 (光头): declaring team up ⌈(80 − 5) / 40⌉ + 1 + ⌊40 / 40⌋ = 4",
            "levels: 甲·丙 6, 乙·丁 2",
            "next declarer: the declarer's partner (对家), 丙",
        ],
    ),
    # 勾J: 甲·丙 at J go back to 9 (the ladder's first), then 乙·丁 take over +1
    (
        {"ladder": ["9", "10", "J", "Q", "K", "A"], "jack_back_to_two": True},
        [{"declarer": 0, "captured": 5}],
        {"captured": 100, "bottom_points": 10, "kou_di": True, "kou_cards": 1, "jack_kou": True},
        [
            "bottom multiplier: 1 cards each in the last trick, 2 × 1 = 2",
            "last trick (抠底): captured 100 + bottom 10 × 2 = 120",
            "points 120 ≥ 80: the capture team takes over and goes up ⌊(120 − 80) / 40⌋ − 1 + 1 = 1",
            "勾J: 甲·丙 goes back from J to 9",
            "levels: 甲·丙 9, 乙·丁 10",
            "next declarer: the declarer's 下家, 丁",
        ],
    ),
    # +3 on a two-level ladder: one step to A, then held (A必打: it must declare at A to win)
    (
        SHORT,
        [],
        {"declarer": 0, "captured": 0},
        [
            "capture team's points: 0 (the bottom counts for nobody)",
            "points 0 ≤ 0 (光头): declaring team up ⌈(80 − 5) / 40⌉ + 1 + ⌊0 / 40⌋ = 3",
            "甲·丙 stops at A (it must win it as declarers): up 1",
            "levels: 甲·丙 A, 乙·丁 2",
            "next declarer: the declarer's partner (对家), 丙",
        ],
    ),
    # declaring at A and promoted: wins (A必打); no next declarer
    (
        SHORT,
        [{"declarer": 0, "captured": 40}],
        {"captured": 40},
        [
            "capture team's points: 40 (the bottom counts for nobody)",
            "points 40 < 80: declaring team up ⌈(80 − 40) / 40⌉ = 1",
            "甲·丙 promoted while declaring at A (A必打): wins the game",
            "levels: 甲·丙 A, 乙·丁 2",
        ],
    ),
    # pass_ace: a promotion from A wins
    (
        {**SHORT, "finish": "pass_ace"},
        [],
        {"declarer": 0, "captured": 0},
        [
            "capture team's points: 0 (the bottom counts for nobody)",
            "points 0 ≤ 0 (光头): declaring team up ⌈(80 − 5) / 40⌉ + 1 + ⌊0 / 40⌋ = 3",
            "甲·丙 is promoted from A: wins the game",
            "levels: 甲·丙 A, 乙·丁 2",
        ],
    ),
    # must_defend 3: +3 from 2 is held at 3 (up 1)
    (
        {"must_defend": ["3"]},
        [],
        {"declarer": 0, "captured": 0},
        [
            "capture team's points: 0 (the bottom counts for nobody)",
            "points 0 ≤ 0 (光头): declaring team up ⌈(80 − 5) / 40⌉ + 1 + ⌊0 / 40⌋ = 3",
            "甲·丙 is held at 3, a level it must defend (卡关): up 1",
            "levels: 甲·丙 3, 乙·丁 2",
            "next declarer: the declarer's partner (对家), 丙",
        ],
    ),
    # no_skip 3: +3 from 2 stops on 3 (up 1)
    (
        {"no_skip": ["3"]},
        [],
        {"declarer": 0, "captured": 0},
        [
            "capture team's points: 0 (the bottom counts for nobody)",
            "points 0 ≤ 0 (光头): declaring team up ⌈(80 − 5) / 40⌉ + 1 + ⌊0 / 40⌋ = 3",
            "甲·丙 may not skip 3 and stops there: up 1",
            "levels: 甲·丙 3, 乙·丁 2",
            "next declarer: the declarer's partner (对家), 丙",
        ],
    ),
]


@pytest.mark.parametrize(("options", "before", "hand", "steps"), RECEIPTS)
def test_the_whole_receipt_line_by_line(options, before, hand, steps):
    hands = settle(V, [*before, hand], options=options, lang="en")["hands"]
    assert hands[-1]["steps"] == steps
    assert hands[-1]["status"] == "scored"
    assert hands[-1]["dealer"] == hands[-1]["declarer"] is not None


def test_six_players_pass_the_deal_to_the_declaring_teams_next_seat():
    # 3 decks: 60 < 120, ⌈60 / 60⌉ = 1; the next declarer is seat 2 (丙), the team's next seat
    doc = {"variant": V, "players": SIX, "hands": [{"declarer": 0, "captured": 60}]}
    steps = session_settle(doc, lang="en")["hands"][0]["steps"]
    assert steps[-1] == "next declarer: the declaring team's next seat, 丙"
    # 光头 with 3 decks: ⌈115 / 60⌉ + 1 = 3 on a two-level ladder: one step to A, held there; a team of three
    doc = {"variant": V, "players": SIX, "hands": [{"declarer": 0, "captured": 0}], "options": SHORT}
    steps = session_settle(doc, lang="en")["hands"][0]["steps"]
    assert "甲·丙·戊 stops at A (it must win it as declarers): up 1" in steps
    # 勾J with six: 5 captured, ⌈115 / 60⌉ = 2 takes 甲·丙·戊 from 9 to J; then 丙's 勾J sends them back to 9
    options = {"ladder": ["9", "10", "J", "Q", "K", "A"], "jack_back_to_two": True}
    jack = {"captured": 100, "bottom_points": 10, "kou_di": True, "kou_cards": 1, "jack_kou": True}
    doc = {"variant": V, "players": SIX, "hands": [{"declarer": 0, "captured": 5}, jack], "options": options}
    steps = session_settle(doc, lang="en")["hands"][1]["steps"]
    assert "勾J: 甲·丙·戊 goes back from J to 9" in steps


def test_the_stored_state_after_a_won_game_waits_for_nobody():
    # a two-level ladder: 甲·丙 reach A (40: +1), then 丙 declares at A and is promoted: the game is won
    doc = document_parse(
        {
            "variant": V,
            "players": ["甲", "乙", "丙", "丁"],
            "hands": [{"declarer": 0, "captured": 40}, {"captured": 40}],
            "options": SHORT,
        },
        variants=VARIANTS,
    )
    played = session_play(doc).hands
    assert [state_dump(h.state)["table"]["pending"] for h in played] == [2, None]


@pytest.mark.parametrize(
    ("options", "message", "zh"),
    [
        (
            {"threshold": 100},
            "inconsistent options: threshold 100 must be a multiple of step 40",
            "选项不一致：上台线 100 应是每级分 40 的倍数",
        ),
        (
            {"threshold": 240},
            "inconsistent options: threshold 240 is more than the 200 points of 2 decks",
            "选项不一致：上台线 240 超过 2 副牌的 200 分",
        ),
    ],
)
def test_a_threshold_that_does_not_fit_says_why_in_both_languages(options, message, zh):
    # two decks: step 40 (20 × 2), 200 points
    error = refusal([], options)
    assert (error.code, error.field, error.message("en")) == ("options.inconsistent", "options.threshold", message)
    assert error.message("zh-Hans") == zh


@pytest.mark.parametrize(
    ("hand", "options", "players", "message"),
    [
        ({"kou_cards": 0}, None, 4, "0 cards: must be 1–27"),  # 54 × 2 // 4
        ({"kou_cards": 28}, None, 6, "28 cards: must be 1–27"),  # 54 × 3 // 6
        ({"kou_cards": 2, "kou_unit": 3}, None, 4, "3 cards: must be 1–2"),
        ({"kou_cards": 2, "kou_unit": 0}, None, 4, "0 cards: must be 1–2"),
        (
            {"kou_cards": 1, "jack_kou": True},
            {"jack_back_to_two": True},
            4,
            "勾J needs the declaring team at J (it plays 2)",
        ),
    ],
)
def test_a_refused_last_trick_says_what_it_must_be(hand, options, players, message):
    error = refusal([{"declarer": 0, "captured": 40, **KOU, **hand}], options, players)
    assert error.message("en") == message


def test_a_refused_penalty_names_its_kind():
    error = refusal([{"declarer": 0, "captured": 40, "penalties": [{"seat": 1, "kind": "misdeal"}]}])
    assert error.message("en") == "升级 records failed throws (shuai) only, not misdeal"
