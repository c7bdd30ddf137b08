"""打滚子: every row of rules/gunzi.md — levels, 臭抠, 干锅, specials, tribute, rotation — worked by hand."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from settlement.rules.base import RulesError
from settlement.rules.document import document_parse
from settlement.rules.hongxingwu import LEVELS
from settlement.rules.registry import VARIANTS
from settlement.rules.session import session_play, session_settle, state_dump, state_load

from .helpers import document, refused, settle, settle_hand

V = "gunzi"


def refusal(hands: list[dict[str, Any]], **kwargs: Any) -> RulesError:
    return refused(V, hands, **kwargs)


# ---------------------------------------------------------------- one hand (declarer seat 0, both teams at 3)

# hand -> (outcome, deltas, levels, next declarer, declarer_won)
HANDS = [
    # 保底 (s < 120, no 抠底): declaring team up 1 + J at 3 each
    ({"captured": 5}, ("declarer_up", [3, -3, 3, -3], ["4", "3", "4", "3"], 2, True)),
    ({"captured": 115}, ("declarer_up", [3, -3, 3, -3], ["4", "3", "4", "3"], 2, True)),
    ({"captured": 100, "bottom_points": 40}, ("declarer_up", [3, -3, 3, -3], ["4", "3", "4", "3"], 2, True)),
    ({"captured": 100, "bottom_jokers": {"big": 1}}, ("declarer_up", [9, -9, 9, -9], ["6", "3", "6", "3"], 2, True)),
    # 臭抠 (s < 120 with 抠底): nothing; s = 40 + 2 × 20 = 80
    (
        {"captured": 40, "bottom_points": 20, "kou_di": True, "bottom_jokers": {"big": 2}},
        ("hold", [0, 0, 0, 0], ["3", "3", "3", "3"], 2, None),
    ),
    # 上台 without 抠底: +1, no level, 下家 next
    ({"captured": 120}, ("switch", [-1, 1, -1, 1], ["3", "3", "3", "3"], 1, False)),
    ({"captured": 295, "bottom_jokers": {"big": 2}}, ("switch", [-1, 1, -1, 1], ["3", "3", "3", "3"], 1, False)),
    # 上台 with 抠底: 1 + 3k; s = 100 + 2 × 10 = 120
    (
        {"captured": 100, "bottom_points": 10, "kou_di": True},
        ("capture_up", [-4, 4, -4, 4], ["3", "4", "3", "4"], 1, False),
    ),
    # k = 1 + (2 × 1 + 1) = 4: 1 + 12 = 13
    (
        {"captured": 130, "kou_di": True, "bottom_jokers": {"big": 1, "small": 1}},
        ("capture_up", [-13, 13, -13, 13], ["3", "7", "3", "7"], 1, False),
    ),
    # 干锅 voids the jokers: k = 1
    (
        {"captured": 130, "kou_di": True, "gan_guo": True, "bottom_jokers": {"big": 1, "small": 1}},
        ("capture_up", [-4, 4, -4, 4], ["3", "4", "3", "4"], 1, False),
    ),
    (
        {"captured": 60, "gan_guo": True, "bottom_jokers": {"small": 3}},
        ("declarer_up", [3, -3, 3, -3], ["4", "3", "4", "3"], 2, True),
    ),
]


@pytest.mark.parametrize(("hand", "expected"), HANDS)
def test_it_settles_a_hand_by_levels_and_taking_over(hand, expected):
    got = settle_hand(V, {"declarer": 0, **hand})
    assert (got["outcome"], got["deltas"], got["levels"], got["next_declarer"], got["declarer_won"]) == expected
    assert got["dealer"] == got["declarer"] == 0


# (big, small) -> J = 2 × big + small; 保底 at 100 points goes up 1 + J from 3, at 3 per level
JOKER_MIXES = [
    (0, 1, ["5", "3", "5", "3"], 6, False),  # J 1, k 2
    (1, 0, ["6", "3", "6", "3"], 9, False),  # J 2, k 3
    (0, 2, ["6", "3", "6", "3"], 9, False),  # J 2
    (1, 1, ["7", "3", "7", "3"], 12, False),  # J 3, k 4
    (0, 3, ["7", "3", "7", "3"], 12, False),  # J 3
    (2, 0, ["8", "3", "8", "3"], 15, False),  # J 4, k 5
    (1, 2, ["8", "3", "8", "3"], 15, False),  # J 4
    (2, 1, ["9", "3", "9", "3"], 18, False),  # J 5, k 6
    (3, 0, ["10", "3", "10", "3"], 21, False),  # J 6, k 7: 3 + 7 = 10 exactly, plays on
    (3, 1, ["10", "3", "10", "3"], 24, True),  # J 7, k 8: past 10, wins; scores the full 3 × 8
    (3, 3, ["10", "3", "10", "3"], 30, True),  # J 9, k 10
]


@pytest.mark.parametrize(("big", "small", "levels", "score", "wins"), JOKER_MIXES)
def test_each_joker_mix_adds_its_levels(big, small, levels, score, wins):
    result = settle(V, [{"declarer": 0, "captured": 100, "bottom_jokers": {"big": big, "small": small}}])
    hand = result["hands"][0]
    assert (hand["levels"], hand["deltas"]) == (levels, [score, -score, score, -score])
    assert result["games"][0]["finished"] is wins
    assert hand["next_declarer"] == (None if wins else 2)


# ---------------------------------------------------------------- tribute (进贡)

# Hand 1: declarer 0 with `hand`; hand 2 is {"captured": 100} by rotation (保底 +3 for its declaring team)
# plus the tribute T that hand 1 set: s < 120 → next declarer 2, seat 1 pays → [3, −3 − T, 3 + T, −3];
# s ≥ 120 → next declarer 1, seat 0 pays → [−3 − T, 3 + T, −3, 3].
TRIBUTE = [
    # below 80: ⌊(80 − s) / 10⌋ + J, capture team pays
    ({"captured": 5}, "floor", [3, -3, 3, -3], 7, [3, -10, 10, -3]),
    ({"captured": 5}, "ceil", [3, -3, 3, -3], 8, [3, -11, 11, -3]),
    ({"captured": 50}, "floor", [3, -3, 3, -3], 3, [3, -6, 6, -3]),
    ({"captured": 50}, "ceil", [3, -3, 3, -3], 3, [3, -6, 6, -3]),
    ({"captured": 70}, "floor", [3, -3, 3, -3], 1, [3, -4, 4, -3]),
    ({"captured": 75}, "floor", [3, -3, 3, -3], 0, [3, -3, 3, -3]),
    ({"captured": 75}, "ceil", [3, -3, 3, -3], 1, [3, -4, 4, -3]),
    ({"captured": 75, "bottom_jokers": {"big": 1}}, "floor", [9, -9, 9, -9], 2, [3, -5, 5, -3]),
    ({"captured": 75, "bottom_jokers": {"big": 1}}, "ceil", [9, -9, 9, -9], 3, [3, -6, 6, -3]),
    ({"captured": 50, "bottom_jokers": {"small": 2}}, "floor", [9, -9, 9, -9], 5, [3, -8, 8, -3]),
    # 80–115: J, capture team pays
    ({"captured": 80}, "floor", [3, -3, 3, -3], 0, [3, -3, 3, -3]),
    ({"captured": 80}, "ceil", [3, -3, 3, -3], 0, [3, -3, 3, -3]),
    ({"captured": 115}, "floor", [3, -3, 3, -3], 0, [3, -3, 3, -3]),
    ({"captured": 115, "bottom_jokers": {"big": 1, "small": 1}}, "floor", [12, -12, 12, -12], 3, [3, -6, 6, -3]),
    # 120–150: J, declaring team pays
    ({"captured": 120}, "floor", [-1, 1, -1, 1], 0, [-3, 3, -3, 3]),
    ({"captured": 120, "bottom_jokers": {"big": 2}}, "floor", [-1, 1, -1, 1], 4, [-7, 7, -3, 3]),
    ({"captured": 150}, "floor", [-1, 1, -1, 1], 0, [-3, 3, -3, 3]),
    ({"captured": 150}, "ceil", [-1, 1, -1, 1], 0, [-3, 3, -3, 3]),
    ({"captured": 150, "bottom_jokers": {"small": 1}}, "floor", [-1, 1, -1, 1], 1, [-4, 4, -3, 3]),
    # over 150: ⌊(s − 150) / 10⌋ + J, declaring team pays
    ({"captured": 155}, "floor", [-1, 1, -1, 1], 0, [-3, 3, -3, 3]),
    ({"captured": 155}, "ceil", [-1, 1, -1, 1], 1, [-4, 4, -3, 3]),
    ({"captured": 155, "bottom_jokers": {"small": 1}}, "floor", [-1, 1, -1, 1], 1, [-4, 4, -3, 3]),
    ({"captured": 155, "bottom_jokers": {"small": 1}}, "ceil", [-1, 1, -1, 1], 2, [-5, 5, -3, 3]),
    ({"captured": 160}, "floor", [-1, 1, -1, 1], 1, [-4, 4, -3, 3]),
    ({"captured": 160}, "ceil", [-1, 1, -1, 1], 1, [-4, 4, -3, 3]),
    ({"captured": 200}, "floor", [-1, 1, -1, 1], 5, [-8, 8, -3, 3]),
    # with 抠底 s counts the doubled bottom: 100 + 2 × 25 = 150; 150 + 2 × 30 = 210; 100 + 2 × 30 = 160
    ({"captured": 100, "bottom_points": 25, "kou_di": True}, "floor", [-4, 4, -4, 4], 0, [-3, 3, -3, 3]),
    (
        {"captured": 100, "bottom_points": 25, "kou_di": True, "bottom_jokers": {"small": 2}},
        "floor",
        [-10, 10, -10, 10],  # k = 3: 1 + 9
        2,
        [-5, 5, -3, 3],
    ),
    ({"captured": 150, "bottom_points": 30, "kou_di": True}, "floor", [-4, 4, -4, 4], 6, [-9, 9, -3, 3]),
    ({"captured": 100, "bottom_points": 30, "kou_di": True}, "ceil", [-4, 4, -4, 4], 1, [-4, 4, -3, 3]),
    (
        {"captured": 100, "bottom_points": 20, "kou_di": True, "bottom_jokers": {"big": 1}},
        "floor",
        [-10, 10, -10, 10],  # s 140, k = 3
        2,
        [-5, 5, -3, 3],
    ),
    # 臭抠: J void. s = 50 + 20 = 70 → 1; s = 55 + 20 = 75 → 0 (floor) / 1 (ceil)
    (
        {"captured": 50, "bottom_points": 10, "kou_di": True, "bottom_jokers": {"big": 1}},
        "floor",
        [0, 0, 0, 0],
        1,
        [3, -4, 4, -3],
    ),
    ({"captured": 55, "bottom_points": 10, "kou_di": True}, "floor", [0, 0, 0, 0], 0, [3, -3, 3, -3]),
    ({"captured": 55, "bottom_points": 10, "kou_di": True}, "ceil", [0, 0, 0, 0], 1, [3, -4, 4, -3]),
    # 干锅: J counts 0 in the tribute too
    ({"captured": 100, "gan_guo": True, "bottom_jokers": {"big": 2}}, "floor", [3, -3, 3, -3], 0, [3, -3, 3, -3]),
    ({"captured": 60, "gan_guo": True, "bottom_jokers": {"small": 3}}, "floor", [3, -3, 3, -3], 2, [3, -5, 5, -3]),
]


@pytest.mark.parametrize(("hand", "rounding", "first", "cards", "second"), TRIBUTE)
def test_every_tribute_row_is_paid_by_the_next_declarers_shangjia(hand, rounding, first, cards, second):
    hands = settle(V, [{"declarer": 0, **hand}, {"captured": 100}], options={"tribute_rounding": rounding})["hands"]
    assert hands[0]["deltas"] == first
    assert hands[1]["deltas"] == second
    assert sum(hands[1]["deltas"]) == 0
    receipt = hands[0]["steps"][-1]  # the last step of hand 1 names the cards it set
    assert "不进贡" in receipt if cards == 0 else (f"共 {cards} 张" in receipt or f"底王 {cards} 张" in receipt)


def test_the_receipt_shows_the_tribute_both_ways():
    hands = settle(V, [{"declarer": 0, "captured": 50}, {"captured": 100}])["hands"]
    assert (
        hands[0]["steps"][-1]
        == "下一副进贡：得分 50 < 80，抓分方进贡 (80 − 50) / 10 向下取整 = 3，加底王 0，共 3 张，乙付丙"
    )
    assert hands[1]["steps"][0] == "进贡 3 张：乙（上家）付庄家丙 3 分"
    en = settle(V, [{"declarer": 0, "captured": 50}, {"captured": 100}], lang="en")["hands"]
    assert en[1]["steps"][0] == "tribute 3 cards: 乙 (the 上家) pays the declarer, 丙, 3"
    assert en[0]["steps"][0] == "first hand of the game: no tribute"


@pytest.mark.parametrize(
    ("tribute", "deltas", "tag"),
    [
        ("normal", [3, -6, 6, -3], "进贡"),  # seat 1 pays seat 2 three
        ("reversed", [3, 0, 0, -3], "反贡"),  # seat 2 (the declarer) pays seat 1 three
        ("cancelled", [3, -3, 3, -3], "免贡"),  # nobody pays
    ],
)
def test_reversed_and_cancelled_tribute(tribute, deltas, tag):
    hands = settle(V, [{"declarer": 0, "captured": 50}, {"captured": 100, "tribute": tribute}])["hands"]
    assert hands[1]["deltas"] == deltas
    assert tag in hands[1]["tags"]


def test_a_tribute_word_is_accepted_when_nothing_is_owed():
    hands = settle(V, [{"declarer": 0, "captured": 80}, {"captured": 100, "tribute": "reversed"}])["hands"]
    assert hands[1]["deltas"] == [3, -3, 3, -3]


def test_tribute_is_paid_with_the_card_points_option():
    hands = settle(V, [{"declarer": 0, "captured": 50}, {"captured": 100}], options={"card_points": 2})["hands"]
    assert hands[1]["deltas"] == [3, -9, 9, -3]  # T 3 × 2


def test_a_pending_tribute_waits_through_redeals():
    hands = settle(
        V, [{"declarer": 0, "captured": 50}, {"redeal": "all_pass"}, {"redeal": "misdeal"}, {"captured": 100}]
    )["hands"]
    for redeal in hands[1:3]:
        assert (redeal["status"], redeal["dealer"], redeal["declarer"], redeal["next_declarer"]) == (
            "redeal",
            2,
            None,
            2,
        )
        assert redeal["deltas"] == [0, 0, 0, 0]
        assert redeal["levels"] == ["4", "3", "4", "3"]
        assert redeal["outcome"] == "redeal"
    assert hands[3]["declarer"] == 2
    assert hands[3]["deltas"] == [3, -6, 6, -3]
    assert hands[3]["totals"] == [6, -9, 9, -6]


# ---------------------------------------------------------------- specials (each ends the game)

SPECIALS = [
    ({"captured": 0}, [50, -50, 50, -50], [0, 2], True, "零分"),
    ({"captured": 0, "kou_di": True}, [50, -50, 50, -50], [0, 2], True, "零分"),
    ({"captured": 300}, [-50, 50, -50, 50], [1, 3], False, "满分"),
    ({"declarer": 1, "captured": 300}, [50, -50, 50, -50], [0, 2], False, "满分"),  # team B declares: A gains
    ({"captured": 200, "bottom_points": 50, "kou_di": True}, [-50, 50, -50, 50], [1, 3], False, "满分"),  # 200 + 100
    ({"captured": 250, "bottom_points": 50, "kou_di": True}, [-50, 50, -50, 50], [1, 3], False, "满分"),  # 350
    # three big jokers dug out: s = 100 + 2 × 10 = 120
    (
        {"captured": 100, "bottom_points": 10, "kou_di": True, "bottom_jokers": {"big": 3}},
        [-50, 50, -50, 50],
        [1, 3],
        False,
        "抠三大王",
    ),
]


@pytest.mark.parametrize(("hand", "deltas", "winners", "declarer_won", "tag"), SPECIALS)
def test_each_special_scores_50_and_ends_the_game(hand, deltas, winners, declarer_won, tag):
    result = settle(V, [{"declarer": 0, **hand}])
    got = result["hands"][0]
    assert (got["outcome"], got["deltas"], got["declarer_won"], got["next_declarer"]) == (
        "special",
        deltas,
        declarer_won,
        None,
    )
    assert got["levels"] == ["3", "3", "3", "3"]
    assert tag in got["tags"]
    game = result["games"][0]
    assert (game["finished"], game["winners"], game["how"]) == (True, winners, "special")


@pytest.mark.parametrize(
    ("hand", "outcome", "deltas"),
    [
        # 干锅: the three big jokers are not dug out; plain 上台 with 抠底, k = 1
        (
            {"captured": 100, "bottom_points": 10, "kou_di": True, "gan_guo": True, "bottom_jokers": {"big": 3}},
            "capture_up",
            [-4, 4, -4, 4],
        ),
        # no 抠底: 上台 only
        ({"captured": 130, "bottom_jokers": {"big": 3}}, "switch", [-1, 1, -1, 1]),
        # 抠底 but s = 40 + 40 = 80 < 120: 臭抠
        ({"captured": 40, "bottom_points": 20, "kou_di": True, "bottom_jokers": {"big": 3}}, "hold", [0, 0, 0, 0]),
        # 抠底 with an empty bottom: s = 0 + 2 × 10 = 20 is not 0
        ({"captured": 0, "bottom_points": 10, "kou_di": True}, "hold", [0, 0, 0, 0]),
        # 295: one 5 short of all
        ({"captured": 295}, "switch", [-1, 1, -1, 1]),
    ],
)
def test_near_specials_are_ordinary_hands(hand, outcome, deltas):
    got = settle_hand(V, {"declarer": 0, **hand})
    assert (got["outcome"], got["deltas"]) == (outcome, deltas)
    assert got["next_declarer"] is not None


def test_a_special_still_takes_the_incoming_tribute_and_the_next_game_starts_afresh():
    result = settle(
        V,
        [
            {"declarer": 0, "captured": 50},  # +3, T = 3, next 2
            {"captured": 0},  # seat 1 pays 2 three; special: team A +50
            {"declarer": 3, "captured": 100},  # game 2 from 3, no tribute: team B +3
        ],
    )
    hands = result["hands"]
    assert hands[1]["deltas"] == [50, -53, 53, -50]
    assert hands[1]["totals"] == [53, -56, 56, -53]
    assert (hands[2]["game"], hands[2]["deltas"], hands[2]["levels"]) == (2, [-3, 3, -3, 3], ["3", "4", "3", "4"])
    assert hands[2]["totals"] == [-3, 3, -3, 3]
    assert result["totals"] == [50, -53, 53, -50]
    assert result["games_won"] == [1, 0, 1, 0]


def test_the_special_points_option_sets_the_figure():
    assert settle_hand(V, {"declarer": 1, "captured": 0}, options={"special_points": 20})["deltas"] == [
        -20,
        20,
        -20,
        20,
    ]


# ---------------------------------------------------------------- passing the last level


def test_a_team_promoted_past_10_wins_and_shows_10():
    result = settle(V, [{"declarer": 0, "captured": 100, "bottom_jokers": {"big": 1}}], options={"first_level": "9"})
    hand = result["hands"][0]
    assert "出锅" in hand["tags"]
    # k = 3: 9 → past 10; 3 × 3 = 9 each
    assert (hand["deltas"], hand["levels"], hand["next_declarer"]) == ([9, -9, 9, -9], ["10", "9", "10", "9"], None)
    assert (result["games"][0]["winners"], result["games"][0]["how"]) == ([0, 2], "levels")


def test_reaching_10_exactly_plays_on_and_the_next_promotion_wins():
    result = settle(V, [{"declarer": 0, "captured": 100}, {"captured": 100}], options={"first_level": "9"})
    first, second = result["hands"]
    assert (first["levels"], first["next_declarer"]) == (["10", "9", "10", "9"], 2)
    assert (second["levels"], second["next_declarer"], second["deltas"]) == (
        ["10", "9", "10", "9"],
        None,
        [3, -3, 3, -3],
    )
    assert result["games"][0]["winners"] == [0, 2]


def test_a_capture_team_taking_over_past_10_wins():
    # s = 150 with 抠底 and a small joker: k = 2, 1 + 6 = 7
    hand = {"declarer": 0, "captured": 150, "kou_di": True, "bottom_jokers": {"small": 1}}
    result = settle(V, [hand], options={"first_level": "9"})
    assert result["hands"][0]["deltas"] == [-7, 7, -7, 7]
    assert result["hands"][0]["levels"] == ["9", "10", "9", "10"]
    assert result["games"][0]["winners"] == [1, 3]


def test_a_club_last_level_moves_the_finish():
    result = settle(V, [{"declarer": 0, "captured": 100}], options={"first_level": "Q", "last_level": "K"})
    assert result["hands"][0]["levels"] == ["K", "Q", "K", "Q"]
    assert result["games"][0]["finished"] is False


# ---------------------------------------------------------------- rotation


def test_the_declarer_follows_the_rotation():
    # 1: seat 0, 60 → 对家 2; 2: seat 2, 130 上台 → 下家 3; 3: seat 3, 40 with 抠底 (臭抠) → 对家 1
    hands = settle(
        V,
        [
            {"declarer": 0, "captured": 60},
            {"captured": 130},
            {"captured": 20, "bottom_points": 10, "kou_di": True},
            {"captured": 100},
        ],
    )["hands"]
    assert [h["declarer"] for h in hands] == [0, 2, 3, 1]
    assert [h["dealer"] for h in hands] == [0, 2, 3, 1]
    assert [h["next_declarer"] for h in hands] == [2, 3, 1, 3]


def test_it_refuses_a_declarer_that_contradicts_the_rotation():
    error = refusal([{"declarer": 0, "captured": 60}, {"declarer": 1, "captured": 100}])
    assert (error.hand, error.field, error.code) == (2, "declarer", "declarer.rotation")


def test_free_declarer_takes_the_entered_declarer_and_his_shangjia_pays():
    # hand 1 sets T = 3; hand 2 is declared by seat 3 instead of seat 2: his 上家, seat 2, pays him
    hands = settle(
        V, [{"declarer": 0, "captured": 50}, {"declarer": 3, "captured": 100}], options={"free_declarer": True}
    )["hands"]
    assert hands[1]["declarer"] == 3
    # team B declares and goes up (+3); seat 2 → seat 3: 3
    assert hands[1]["deltas"] == [-3, 3, -6, 6]
    assert hands[1]["next_declarer"] == 1


# ---------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("hands", "n", "field", "code"),
    [
        ([{"declarer": 0, "captured": 100, "tribute": "reversed"}], 1, "tribute", "tribute.first_hand"),
        ([{"declarer": 0, "captured": 100, "tribute": "cancelled"}], 1, "tribute", "tribute.first_hand"),
        (
            [{"declarer": 0, "captured": 0}, {"declarer": 1, "captured": 100, "tribute": "cancelled"}],
            2,
            "tribute",
            "tribute.first_hand",
        ),
        ([{"redeal": "misdeal"}, {"declarer": 1, "captured": 100, "tribute": "reversed"}], 2, "tribute", None),
        ([{"captured": 100}], 1, "declarer", "declarer.first_hand"),
        ([{"declarer": 0, "captured": 0}, {"captured": 100}], 2, "declarer", "declarer.first_hand"),
        ([{"declarer": 0, "captured": 305}], 1, "captured", "points.over_deck"),
        ([{"declarer": 0, "captured": 280, "bottom_points": 25}], 1, "bottom_points", "points.over_deck"),
        ([{"declarer": 0, "captured": 33}], 1, "captured", "points.not_multiple_of_5"),
        ([{"declarer": 0}], 1, "captured", "field.required"),
        ([{"declarer": 0, "captured": 100}, {"bid": 80, "captured": 100}], 2, "bid", "field.unknown"),
        ([{"declarer": 0, "captured": 100, "bottom_multiplier": 2}], 1, "bottom_multiplier", "field.unknown"),
        (
            [{"declarer": 0, "captured": 100, "bottom_jokers": {"big": 4}}],
            1,
            "bottom_jokers.big",
            "jokers.out_of_range",
        ),
        ([{"declarer": 0, "captured": 100, "bottom_jokers": {"red": 1}}], 1, "bottom_jokers.red", "field.unknown"),
        ([{"declarer": 0, "captured": 100, "tribute": "double"}], 1, "tribute", "value.not_choice"),
        ([{"declarer": 0, "captured": 100}, {"redeal": "misdeal", "tribute": "normal"}], 2, "tribute", None),
    ],
)
def test_it_refuses_bad_input_naming_the_hand_and_field(hands, n, field, code):
    error = refusal(hands)
    assert (error.hand, error.field) == (n, field)
    if code is not None:
        assert error.code == code


def test_normal_tribute_may_be_written_on_a_first_hand():
    assert settle_hand(V, {"declarer": 0, "captured": 100, "tribute": "normal"})["deltas"] == [3, -3, 3, -3]


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"first_level": "10", "last_level": "10"}, "options.last_level"),
        ({"first_level": "J", "last_level": "10"}, "options.last_level"),
        ({"first_level": "2"}, "options.first_level"),
        ({"tribute_rounding": "round"}, "options.tribute_rounding"),
        ({"threshold": 117}, "options.threshold"),
    ],
)
def test_it_refuses_bad_options(options, field):
    error = refusal([], options=options)
    assert (error.hand, error.field) == (None, field)


@pytest.mark.parametrize(("first", "last"), [("10", "10"), ("J", "10")])
def test_a_last_level_not_above_the_first_is_inconsistent(first, last):
    error = refusal([], options={"first_level": first, "last_level": last})
    assert (error.code, error.field) == ("options.inconsistent", "options.last_level")
    assert error.message("en") == f"inconsistent options: last_level {last} must be above first_level {first}"
    assert error.message("zh-Hans") == f"选项不一致：出锅级 {last} 应高于起始级 {first}"


def test_every_option_is_in_the_results():
    assert settle(V, [])["options"] == {
        "first_level": "3",
        "last_level": "10",
        "threshold": 120,
        "bottom_multiplier": 2,
        "level_points": 3,
        "takeover_points": 1,
        "card_points": 1,
        "special_points": 50,
        "tribute_rounding": "floor",
        "unit_value": 1,
        "free_declarer": False,
        "triple_jokers": "capture_big",
    }


def test_it_settles_up_in_money():
    result = settle(V, [{"declarer": 0, "captured": 0}], options={"unit_value": 2})
    assert result["unit"] == "分"
    assert result["settle_up"] == [{"from": 1, "to": 0, "amount": 100}, {"from": 3, "to": 2, "amount": 100}]


# ---------------------------------------------------------------- invariants over random sessions


@st.composite
def gunzi_hand(draw: st.DrawFn) -> dict[str, Any]:
    if draw(st.integers(0, 14)) == 0:
        return {"redeal": draw(st.sampled_from(["all_pass", "no_trump_no_points", "misdeal"]))}
    captured = 5 * draw(st.integers(0, 60))
    hand: dict[str, Any] = {"captured": captured}
    if draw(st.booleans()):
        hand["bottom_points"] = 5 * draw(st.integers(0, min(12, (300 - captured) // 5)))
    if draw(st.booleans()):
        hand["kou_di"] = True
    if draw(st.booleans()):
        hand["bottom_jokers"] = {"big": draw(st.integers(0, 3)), "small": draw(st.integers(0, 3))}
    if draw(st.integers(0, 5)) == 0:
        hand["gan_guo"] = True
    hand["tribute"] = draw(st.sampled_from(["normal", "normal", "reversed", "cancelled"]))
    return hand


@given(
    st.lists(st.tuples(gunzi_hand(), st.integers(0, 3)), max_size=30),
    st.sampled_from(["floor", "ceil"]),
    st.booleans(),
)
def test_random_sessions_are_zero_sum_and_levels_never_go_down(specs, rounding, free):
    options = {"tribute_rounding": rounding, "free_declarer": free}
    hands: list[dict[str, Any]] = []
    pending: int | None = None
    first_of_game = True
    for spec, seat in specs:
        hand = dict(spec)
        if "redeal" not in hand:
            if first_of_game:
                hand["tribute"] = "normal"
            if pending is None or (free and seat % 3 == 0):
                hand["declarer"] = seat
        hands.append(hand)
        played = session_settle(document(V, hands, options=options))["hands"][-1]
        pending = played["next_declarer"]
        if played["status"] == "scored":
            first_of_game = pending is None
    result = session_settle(document(V, hands, options=options))
    first = LEVELS.index("3")
    before, game = [first] * 4, 1
    running = [0, 0, 0, 0]
    for hand in result["hands"]:
        assert sum(hand["deltas"]) == 0
        if hand["game"] != game:
            game, before, running = hand["game"], [first] * 4, [0, 0, 0, 0]
        running = [r + d for r, d in zip(running, hand["deltas"], strict=True)]
        assert hand["totals"] == running
        after = [LEVELS.index(level) for level in hand["levels"]]
        assert all(a >= b for a, b in zip(after, before, strict=True))
        assert all(first <= a <= LEVELS.index("10") for a in after)
        before = after
    for game_doc in result["games"]:
        game_hands = [h for h in result["hands"] if h["game"] == game_doc["n"]]
        assert game_doc["totals"] == [sum(h["deltas"][s] for h in game_hands) for s in range(4)]
        assert sum(game_doc["totals"]) == 0
    assert result["totals"] == [sum(h["deltas"][s] for h in result["hands"]) for s in range(4)]
    assert sum(result["totals"]) == 0


def test_each_hand_reports_the_tribute_the_next_scored_hand_pays():
    """Worked from gunzi.md's tribute table: the entry screen shows it before the next hand is played."""
    hands = [
        {"declarer": 0, "captured": 50},  # s 50 < 80: capture team pays floor(30 / 10) + 0 = 3
        {"redeal": "misdeal"},  # the tribute waits
        {"captured": 100, "bottom_jokers": {"big": 1, "small": 1}},  # 80–115: pays J = 2 + 1 = 3
        {"captured": 120},  # 120–150 with J 0: 0 cards
        {"captured": 0},  # s = 0: a special ends the game, nothing carries over
    ]
    results = settle("gunzi", hands)
    assert [h["tribute_next"] for h in results["hands"]] == [3, 3, 3, 0, None]


# ---------------------------------------------------------------- house rule triple_jokers (gunzi.md, end)

KEPT_BIG = {"captured": 60, "bottom_jokers": {"big": 3}}  # 保底, s = 60 < 120, J = 6
KEPT_SMALL = {"captured": 60, "bottom_jokers": {"small": 3}}  # J = 3
DUG_SMALL = {"captured": 100, "bottom_points": 10, "kou_di": True, "bottom_jokers": {"small": 3}}  # s = 120, J = 3


@pytest.mark.parametrize(
    ("triple_jokers", "hand", "outcome", "deltas", "tag"),
    [
        # seed 004: kept jokers only add levels: k = 1 + 6 = 7, 3 × 7 = 21 each (3 → 10, not past it)
        ("capture_big", KEPT_BIG, "declarer_up", [21, -21, 21, -21], "保底"),
        ("both_sides", KEPT_BIG, "special", [50, -50, 50, -50], "保底三大王"),
        ("both_sides_small", KEPT_BIG, "special", [50, -50, 50, -50], "保底三大王"),
        # three small ones: k = 1 + 3 = 4, 12 each, unless they count as big
        ("both_sides", KEPT_SMALL, "declarer_up", [12, -12, 12, -12], "保底"),
        ("both_sides_small", KEPT_SMALL, "special", [50, -50, 50, -50], "保底三小王"),
        # dug out: 上台 with k = 4: 1 + 3 × 4 = 13 each, unless they count as big
        ("capture_big", DUG_SMALL, "capture_up", [-13, 13, -13, 13], "上台"),
        ("both_sides", DUG_SMALL, "capture_up", [-13, 13, -13, 13], "上台"),
        ("both_sides_small", DUG_SMALL, "special", [-50, 50, -50, 50], "抠三小王"),
        # not a kept special: 干锅 (J = 0, k = 1), 臭抠, or 120 without 抠底
        ("both_sides", {**KEPT_BIG, "gan_guo": True}, "declarer_up", [3, -3, 3, -3], "干锅"),
        ("both_sides", {**KEPT_BIG, "bottom_points": 10, "kou_di": True}, "hold", [0, 0, 0, 0], "臭抠"),
        ("both_sides", {"captured": 130, "bottom_jokers": {"big": 3}}, "switch", [-1, 1, -1, 1], "上台"),
        ("both_sides", {"captured": 120, "bottom_jokers": {"big": 3}}, "switch", [-1, 1, -1, 1], "上台"),
    ],
)
def test_triple_jokers_house_rule(triple_jokers, hand, outcome, deltas, tag):
    result = settle(V, [{"declarer": 0, **hand}], options={"triple_jokers": triple_jokers})
    got = result["hands"][0]
    assert (got["outcome"], got["deltas"]) == (outcome, deltas)
    assert tag in got["tags"]
    if outcome == "special":
        winners = [0, 2] if deltas[0] > 0 else [1, 3]
        assert (got["declarer_won"], got["next_declarer"]) == (deltas[0] > 0, None)
        assert (result["games"][0]["winners"], result["games"][0]["how"]) == (winners, "special")


# ---------------------------------------------------------------- the receipt, line by line (message table, en)

NEW_GAME = "first hand of the game: no tribute"
UP_1_TO_4 = [{"declarer": 0, "captured": 50}]  # 保底 +1 (team A at 4), T = 3 (⌊30 / 10⌋), next declarer 2
T_0 = [{"declarer": 0, "captured": 80}]  # 保底 +1 (team A at 4), T = 0, next declarer 2

RECEIPTS = [
    # 保底 with J = 3 (k 4, 12 each); s 50 < 80: ⌊30 / 10⌋ + 3 = 6 cards, seat 1 (丙's 上家) to seat 2
    (
        {},
        [],
        {"declarer": 0, "captured": 50, "bottom_jokers": {"big": 1, "small": 1}},
        [
            NEW_GAME,
            "capture team's points: 50",
            "jokers in the bottom: 1 big × 2 + 1 small = 3",
            "under 120, last trick kept (保底): declaring team up 1 + 3 = 4; 3 × 4 = 12 each",
            "levels: 甲·丙 7, 乙·丁 3",
            "next declarer: the declarer's partner (对家), 丙",
            "next tribute: 50 under 80, the capture team pays (80 − 50) / 10 rounded down = 3 + jokers 3 = 6 cards, "
            "乙 to 丙",
        ],
    ),
    # T 3 paid 乙 → 丙; s = 100 + 2 × 10 = 120 with 抠底: 上台, k 1, 1 + 3 = 4; 120–150 without jokers: none
    (
        {},
        UP_1_TO_4,
        {"captured": 100, "bottom_points": 10, "kou_di": True},
        [
            "tribute 3 cards: 乙 (the 上家) pays the declarer, 丙, 3",
            "last trick (抠底): captured 100 + bottom 10 × 2 = 120",
            "120 or more with 抠底: the capture team takes over and goes up 1 + 0 = 1; 1 + 3 × 1 = 4 each",
            "levels: 甲·丙 4, 乙·丁 4",
            "next declarer: the declarer's 下家, 丁",
            "next tribute: none (points 120, no jokers)",
        ],
    ),
    # reversed: the declarer 丙 pays 乙; 205 without 抠底: 上台 for 1; over 150: ⌈55 / 10⌉ = 6, 丙 to 丁
    (
        {"tribute_rounding": "ceil"},
        UP_1_TO_4,
        {"captured": 205, "tribute": "reversed"},
        [
            "the payer holds three big jokers, reversed (3 cards): the declarer, 丙, pays 乙 3",
            "capture team's points: 205",
            "120 or more without 抠底: the capture team takes over, no level; 1 each",
            "levels: 甲·丙 4, 乙·丁 3",
            "next declarer: the declarer's 下家, 丁",
            "next tribute: 205 over 150, the declaring team pays (205 − 150) / 10 rounded up = 6 + jokers 0 "
            "= 6 cards, 丙 to 丁",
        ],
    ),
    # cancelled; 臭抠 at s = 60 + 2 × 10 = 80: the buried big joker is void, so no tribute
    (
        {},
        UP_1_TO_4,
        {"captured": 60, "bottom_points": 10, "kou_di": True, "bottom_jokers": {"big": 1}, "tribute": "cancelled"},
        [
            "the payer's partner holds three big jokers: no tribute (was 3 cards)",
            "last trick (抠底): captured 60 + bottom 10 × 2 = 80",
            "jokers in the bottom: 1 big × 2 + 0 small = 2",
            "under 120 but the capture team won the last trick (臭抠): no level, no score, buried jokers void",
            "levels: 甲·丙 4, 乙·丁 3",
            "next declarer: the declarer's partner (对家), 甲",
            "next tribute: none (points 80, no jokers)",
        ],
    ),
    # T 0 set; 保底 with J 1 (k 2, 6 each); 80–115: the jokers, 1 card, 丁 (甲's 上家) to 甲
    (
        {},
        T_0,
        {"captured": 100, "bottom_jokers": {"small": 1}},
        [
            "tribute set by the last hand: 0 cards",
            "capture team's points: 100",
            "jokers in the bottom: 0 big × 2 + 1 small = 1",
            "under 120, last trick kept (保底): declaring team up 1 + 1 = 2; 3 × 2 = 6 each",
            "levels: 甲·丙 6, 乙·丁 3",
            "next declarer: the declarer's partner (对家), 甲",
            "next tribute: 100 (80–115), the capture team pays the jokers, 1 cards, 丁 to 甲",
        ],
    ),
    # exactly 120 without 抠底, J 2: 上台 for 1; 120–150: the declaring team pays the jokers, 2 cards, 甲 to 乙
    (
        {},
        [],
        {"declarer": 0, "captured": 120, "bottom_jokers": {"big": 1}},
        [
            NEW_GAME,
            "capture team's points: 120",
            "jokers in the bottom: 1 big × 2 + 0 small = 2",
            "120 or more without 抠底: the capture team takes over, no level; 1 each",
            "levels: 甲·丙 3, 乙·丁 3",
            "next declarer: the declarer's 下家, 乙",
            "next tribute: 120 (120–150), the declaring team pays the jokers, 2 cards, 甲 to 乙",
        ],
    ),
    # 干锅: the jokers add nothing (k 1); 60 < 80: ⌊20 / 10⌋ = 2 cards
    (
        {},
        [],
        {"declarer": 0, "captured": 60, "gan_guo": True, "bottom_jokers": {"small": 3}},
        [
            NEW_GAME,
            "capture team's points: 60",
            "干锅: the bottom's jokers (0 big, 3 small) add no levels and no tribute",
            "under 120, last trick kept (保底): declaring team up 1 + 0 = 1; 3 × 1 = 3 each",
            "levels: 甲·丙 4, 乙·丁 3",
            "next declarer: the declarer's partner (对家), 丙",
            "next tribute: 60 under 80, the capture team pays (80 − 60) / 10 rounded down = 2 + jokers 0 = 2 cards, "
            "乙 to 丙",
        ],
    ),
    # past the last level: from 9, k = 1 + 2 = 3 wins (no next declarer, no tribute)
    (
        {"first_level": "9"},
        [],
        {"declarer": 0, "captured": 100, "bottom_jokers": {"big": 1}},
        [
            NEW_GAME,
            "capture team's points: 100",
            "jokers in the bottom: 1 big × 2 + 0 small = 2",
            "under 120, last trick kept (保底): declaring team up 1 + 2 = 3; 3 × 3 = 9 each",
            "甲·丙 goes past 10: wins the game",
            "levels: 甲·丙 10, 乙·丁 9",
        ],
    ),
    # the specials (each ends the game)
    (
        {},
        [],
        {"declarer": 0, "captured": 0},
        [
            NEW_GAME,
            "capture team's points: 0",
            "nothing captured: declaring team +50 each, capture team −50 each; the game ends",
            "levels: 甲·丙 3, 乙·丁 3",
        ],
    ),
    (
        {},
        [],
        {"declarer": 0, "captured": 300},
        [
            NEW_GAME,
            "capture team's points: 300",
            "the capture team has all 300: +50 each, declaring team −50 each; the game ends",
            "levels: 甲·丙 3, 乙·丁 3",
        ],
    ),
    (
        {},
        [],
        {"declarer": 0, "captured": 100, "bottom_points": 10, "kou_di": True, "bottom_jokers": {"big": 3}},
        [
            NEW_GAME,
            "last trick (抠底): captured 100 + bottom 10 × 2 = 120",
            "jokers in the bottom: 3 big × 2 + 0 small = 6",
            "three big jokers dug out with 120 or more: capture team +50 each, declaring team −50 each; the game ends",
            "levels: 甲·丙 3, 乙·丁 3",
        ],
    ),
    (
        {"triple_jokers": "both_sides_small"},
        [],
        {"declarer": 0, **DUG_SMALL},
        [
            NEW_GAME,
            "last trick (抠底): captured 100 + bottom 10 × 2 = 120",
            "jokers in the bottom: 0 big × 2 + 3 small = 3",
            "three small jokers (counted as big ones) dug out with 120 or more: capture team +50 each, "
            "declaring team −50 each; the game ends",
            "levels: 甲·丙 3, 乙·丁 3",
        ],
    ),
    (
        {"triple_jokers": "both_sides"},
        [],
        {"declarer": 0, **KEPT_BIG},
        [
            NEW_GAME,
            "capture team's points: 60",
            "jokers in the bottom: 3 big × 2 + 0 small = 6",
            "three big jokers kept in the bottom with under 120: declaring team +50 each, capture team −50 each; "
            "the game ends",
            "levels: 甲·丙 3, 乙·丁 3",
        ],
    ),
    (
        {"triple_jokers": "both_sides_small"},
        [],
        {"declarer": 0, **KEPT_SMALL},
        [
            NEW_GAME,
            "capture team's points: 60",
            "jokers in the bottom: 0 big × 2 + 3 small = 3",
            "three small jokers (counted as big ones) kept in the bottom with under 120: declaring team +50 each, "
            "capture team −50 each; the game ends",
            "levels: 甲·丙 3, 乙·丁 3",
        ],
    ),
]


@pytest.mark.parametrize(("options", "before", "hand", "steps"), RECEIPTS)
def test_the_whole_receipt_line_by_line(options, before, hand, steps):
    hands = settle(V, [*before, hand], options=options, lang="en")["hands"]
    assert hands[-1]["steps"] == steps
    assert hands[-1]["status"] == "scored"
    assert ("抠底" in hands[-1]["tags"]) is bool(hand.get("kou_di"))


def _parsed(hands: list[dict[str, Any]], first_hand: int = 1) -> Any:
    doc = {"variant": V, "players": ["甲", "乙", "丙", "丁"], "hands": hands}
    return document_parse(doc, variants=VARIANTS, first_hand=first_hand)


def test_a_hand_played_on_from_the_stored_state_pays_the_tribute_it_carries():
    # hand 1 sets T = 3 (50 < 80); hand 2, played on from the stored state, pays it: 保底 +3, seat 1 → seat 2 three
    first, second = {"declarer": 0, "captured": 50}, {"captured": 100}
    stored = state_dump(session_play(_parsed([first])).state)
    assert (stored["table"]["tribute_cards"], stored["table"]["pending"]) == (3, 2)
    resumed = session_play(_parsed([second], first_hand=2), state=state_load(stored))
    assert resumed.hands[-1].result.deltas == (3, -6, 6, -3)


def test_the_stored_state_after_a_won_game_waits_for_nobody():
    # a special ends the game: no pending declarer and no tribute carried into the next game
    stored = state_dump(session_play(_parsed([{"declarer": 0, "captured": 0}])).state)
    assert (stored["table"]["pending"], stored["table"]["tribute_cards"]) == (None, None)
