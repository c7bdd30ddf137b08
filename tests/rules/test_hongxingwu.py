"""济源红星五: every band of rules/hongxingwu.md, rotation, game ends and refusals, worked by hand."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from settlement.rules.base import RulesError, SeatName
from settlement.rules.document import document_parse
from settlement.rules.hongxingwu import LEVELS, HongxingwuOptions, kou_shape_entries
from settlement.rules.registry import VARIANTS
from settlement.rules.session import session_play, session_settle, state_dump, state_load

from .helpers import document, refused, settle, settle_hand

V = "hongxingwu"


def refusal(hands: list[dict[str, Any]], **kwargs: Any) -> RulesError:
    return refused(V, hands, **kwargs)


# Declarer seat 0 (team A) at 2, both teams at 2: s -> (outcome, deltas, levels, next declarer).
# Bands from the table: 0 +8, 5–15 +6, 20–35 +5, 40–55 +4, 60–75 +3, 80–95 +2, 100–115 +1,
# 120–135 上台, 140–155 上台 +1, 160–175 +2, … one more per further 20.
BANDS = [
    (0, "declarer_up", [8, 0, 8, 0], ["10", "2", "10", "2"], 2),
    (5, "declarer_up", [6, 0, 6, 0], ["8", "2", "8", "2"], 2),
    (15, "declarer_up", [6, 0, 6, 0], ["8", "2", "8", "2"], 2),
    (20, "declarer_up", [5, 0, 5, 0], ["7", "2", "7", "2"], 2),
    (35, "declarer_up", [5, 0, 5, 0], ["7", "2", "7", "2"], 2),
    (40, "declarer_up", [4, 0, 4, 0], ["6", "2", "6", "2"], 2),
    (55, "declarer_up", [4, 0, 4, 0], ["6", "2", "6", "2"], 2),
    (60, "declarer_up", [3, 0, 3, 0], ["5", "2", "5", "2"], 2),
    (75, "declarer_up", [3, 0, 3, 0], ["5", "2", "5", "2"], 2),
    (80, "declarer_up", [2, 0, 2, 0], ["4", "2", "4", "2"], 2),
    (95, "declarer_up", [2, 0, 2, 0], ["4", "2", "4", "2"], 2),
    (100, "declarer_up", [1, 0, 1, 0], ["3", "2", "3", "2"], 2),
    (115, "declarer_up", [1, 0, 1, 0], ["3", "2", "3", "2"], 2),
    (120, "switch", [0, 0, 0, 0], ["2", "2", "2", "2"], 1),
    (135, "switch", [0, 0, 0, 0], ["2", "2", "2", "2"], 1),
    (140, "capture_up", [0, 1, 0, 1], ["2", "3", "2", "3"], 1),
    (155, "capture_up", [0, 1, 0, 1], ["2", "3", "2", "3"], 1),
    (160, "capture_up", [0, 2, 0, 2], ["2", "4", "2", "4"], 1),
    (175, "capture_up", [0, 2, 0, 2], ["2", "4", "2", "4"], 1),
    (180, "capture_up", [0, 3, 0, 3], ["2", "5", "2", "5"], 1),
    (200, "capture_up", [0, 4, 0, 4], ["2", "6", "2", "6"], 1),
    (300, "capture_up", [0, 9, 0, 9], ["2", "J", "2", "J"], 1),  # (300 − 120) // 20 = 9: 2 → J
]


@pytest.mark.parametrize(("captured", "outcome", "deltas", "levels", "next_declarer"), BANDS)
def test_every_band_of_the_level_table(captured, outcome, deltas, levels, next_declarer):
    hand = settle_hand(V, {"declarer": 0, "captured": captured})
    assert (hand["outcome"], hand["deltas"], hand["levels"]) == (outcome, deltas, levels)
    assert hand["next_declarer"] == hand["next_dealer"] == next_declarer
    assert hand["dealer"] == hand["declarer"] == 0
    assert hand["declarer_won"] is (outcome == "declarer_up")


# captured, bottom_points, multiplier -> (s, deltas): s = captured + bottom × multiplier on 抠底
KOU_DI = [
    (20, 25, 2, 70, [3, 0, 3, 0]),  # 20 + 50 = 70: +3
    (40, 20, 4, 120, [0, 0, 0, 0]),  # 40 + 80 = 120: 上台
    (30, 10, 8, 110, [1, 0, 1, 0]),  # 30 + 80 = 110: +1
    (100, 0, 2, 100, [1, 0, 1, 0]),  # an empty bottom adds nothing
    (100, 50, 4, 300, [0, 9, 0, 9]),  # 100 + 200 = 300: 上台 +9
    (60, 25, 16, 460, [0, 12, 0, 12]),  # 60 + 400 = 460: (460 − 120) // 20 = 17, stopped at A: 2 → A is 12
]


@pytest.mark.parametrize(("captured", "bottom", "multiplier", "s", "deltas"), KOU_DI)
def test_kou_di_multiplies_the_bottom_into_s(captured, bottom, multiplier, s, deltas):
    hand = settle_hand(
        V,
        {"declarer": 0, "captured": captured, "bottom_points": bottom, "kou_di": True, "bottom_multiplier": multiplier},
    )
    assert hand["deltas"] == deltas
    assert f"= {s}" in hand["steps"][0]
    assert "抠底" in hand["tags"]


def test_bottom_points_without_kou_di_do_not_count():
    hand = settle_hand(V, {"declarer": 0, "captured": 100, "bottom_points": 30})
    assert hand["deltas"] == [1, 0, 1, 0]


def test_team_b_declaring_mirrors_the_figures():
    hand = settle_hand(V, {"declarer": 3, "captured": 60})
    assert (hand["deltas"], hand["levels"], hand["next_declarer"]) == ([0, 3, 0, 3], ["2", "5", "2", "5"], 1)
    hand = settle_hand(V, {"declarer": 3, "captured": 160})
    assert (hand["deltas"], hand["levels"], hand["next_declarer"]) == ([2, 0, 2, 0], ["4", "2", "4", "2"], 0)


def test_the_receipt_shows_the_band_and_the_levels():
    zh = settle_hand(V, {"declarer": 0, "captured": 140})["steps"]
    assert zh == [
        "抓分方得分 140",
        "得分 140–155：抓分方上台并升 1 级",
        "级别：甲·丙 2，乙·丁 3",  # a team by its players' names
        "下一副由庄家的下家乙坐庄",
    ]
    en = settle_hand(V, {"declarer": 0, "captured": 60}, lang="en")["steps"]
    assert en[1] == "points 60–75: declaring team up 3"
    assert en[2] == "levels: 甲·丙 5, 乙·丁 2"


def test_a_club_level_table_replaces_the_bands():
    table = {"up": [[0, 4], [30, 2], [70, 1]], "switch": 100, "step": 30}
    rows = [(25, [4, 0, 4, 0]), (30, [2, 0, 2, 0]), (95, [1, 0, 1, 0]), (125, [0, 0, 0, 0]), (130, [0, 1, 0, 1])]
    for captured, deltas in rows:
        assert settle_hand(V, {"declarer": 0, "captured": captured}, options={"level_table": table})["deltas"] == deltas


@pytest.mark.parametrize(
    ("table", "field"),
    [
        ({"up": [[5, 8]], "switch": 120, "step": 20}, "options.level_table.up[0][0]"),
        ({"up": [[0, 8], [0, 6]], "switch": 120, "step": 20}, "options.level_table.up[1][0]"),
        ({"up": [[0, 8], [7, 6]], "switch": 120, "step": 20}, "options.level_table.up[1][0]"),
        ({"up": [[0, 0]], "switch": 120, "step": 20}, "options.level_table.up[0][1]"),
        ({"up": [[0, 8], [100, 1]], "switch": 100, "step": 20}, "options.level_table.switch"),
        ({"up": [[0, 8]], "switch": 120, "step": 0}, "options.level_table.step"),
        ({"up": [[0, 8]], "switch": 120}, "options.level_table.step"),
        ({"up": [], "switch": 120, "step": 20}, "options.level_table.up"),
    ],
)
def test_it_refuses_a_broken_level_table(table, field):
    error = refusal([{"declarer": 0, "captured": 0}], options={"level_table": table})
    assert (error.hand, error.field, error.code) == (None, field, "option.invalid")


def test_the_options_are_all_in_the_results():
    options = settle(V, [])["options"]
    assert options == {
        "level_table": {
            "up": [[0, 8], [5, 6], [20, 5], [40, 4], [60, 3], [80, 2], [100, 1]],
            "switch": 120,
            "step": 20,
        },
        "kou_shapes": {
            "single": 2,
            "pair": 4,
            "triple": 8,
            "tractor_3_pairs": 8,
            "tractor_4_pairs": 16,
            "tractor_2_triples": 16,
        },
        "finish": "must_play_ace",
        "start_level": "2",
        "free_declarer": False,
        "ladder": ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"],
        "must_defend": [],
        "no_skip": [],
        "kou_multiplier": "power",
    }


# ---------------------------------------------------------------- the shapes offered for 抠底


def test_the_entry_screen_gets_the_default_shapes_lowest_first():
    entries = kou_shape_entries(HongxingwuOptions())
    assert [(e["shape"], e["multiplier"]) for e in entries] == [
        ("single", 2),
        ("pair", 4),
        ("tractor_3_pairs", 8),
        ("triple", 8),
        ("tractor_2_triples", 16),
        ("tractor_4_pairs", 16),
    ]
    assert entries[0]["label"] == "单抠"
    assert kou_shape_entries(HongxingwuOptions(), "en")[1]["label"] == "pair"


def test_a_club_that_doubles_per_pair_edits_the_shape_table():
    shapes = {"single": 2, "pair": 4, "two_pairs": 8, "tractor_3_pairs": 16}
    result = settle(V, [], options={"kou_shapes": shapes})
    assert result["options"]["kou_shapes"] == shapes
    error = refusal([], options={"kou_shapes": {"single": 3}})
    assert error.field == "options.kou_shapes.single"


# ---------------------------------------------------------------- rotation


def test_the_declarer_follows_the_rotation_when_omitted():
    # 1: seat 0 +2 (80) → 对家 2; 2: seat 2 上台 (130) → 下家 3; 3: seat 3 +1 (100) → 对家 1
    hands = settle(V, [{"declarer": 0, "captured": 80}, {"captured": 130}, {"captured": 100}, {"captured": 0}])["hands"]
    assert [h["declarer"] for h in hands] == [0, 2, 3, 1]
    assert [h["next_declarer"] for h in hands] == [2, 3, 1, 3]
    assert [h["levels"] for h in hands] == [
        ["4", "2", "4", "2"],
        ["4", "2", "4", "2"],
        ["4", "3", "4", "3"],
        ["4", "J", "4", "J"],  # 3 + 8 = J
    ]


def test_an_entered_declarer_that_agrees_with_the_rotation_is_accepted():
    hands = settle(V, [{"declarer": 0, "captured": 80}, {"declarer": 2, "captured": 80}])["hands"]
    assert hands[1]["deltas"] == [2, 0, 2, 0]


def test_it_refuses_a_declarer_that_contradicts_the_rotation():
    error = refusal([{"declarer": 0, "captured": 80}, {"captured": 130}, {"declarer": 1, "captured": 0}])
    assert (error.hand, error.field, error.code) == (3, "declarer", "declarer.rotation")
    assert error.params["expected"] == SeatName(3)
    assert error.message() == "轮庄应由丁坐庄，填的是乙（可在选项里开启自由坐庄）"


def test_free_declarer_lets_the_entered_declarer_win():
    hands = settle(
        V,
        [{"declarer": 0, "captured": 80}, {"declarer": 1, "captured": 60}, {"captured": 100}],
        options={"free_declarer": True},
    )["hands"]
    # hand 2: seat 1 (team B) declares instead of seat 2 and goes up 3; the rotation goes on from seat 1
    assert hands[1]["declarer"] == 1
    assert hands[1]["deltas"] == [0, 3, 0, 3]
    assert hands[1]["next_declarer"] == 3
    assert hands[2]["declarer"] == 3
    assert hands[2]["levels"] == ["4", "6", "4", "6"]


def test_the_first_hand_must_name_its_declarer():
    error = refusal([{"captured": 80}])
    assert (error.hand, error.field, error.code) == (1, "declarer", "declarer.first_hand")


def test_a_redeal_waits_for_the_pending_declarer():
    hands = settle(
        V, [{"declarer": 1, "captured": 80}, {"redeal": "all_pass"}, {"redeal": "misdeal"}, {"captured": 140}]
    )["hands"]
    for redeal in hands[1:3]:
        assert redeal["status"] == "redeal"
        assert (redeal["dealer"], redeal["declarer"], redeal["next_declarer"]) == (3, None, 3)
        assert redeal["levels"] == ["2", "4", "2", "4"]
        assert redeal["deltas"] == [0, 0, 0, 0]
        assert redeal["outcome"] == "redeal"
    assert hands[3]["declarer"] == 3
    assert hands[3]["deltas"] == [1, 0, 1, 0]
    assert hands[3]["next_declarer"] == 0


def test_a_redeal_before_the_first_hand_has_no_pending_declarer():
    hands = settle(V, [{"redeal": "no_trump_no_points"}, {"declarer": 2, "captured": 100}])["hands"]
    assert (hands[0]["dealer"], hands[0]["next_declarer"]) == (None, None)
    assert hands[0]["levels"] == ["2", "2", "2", "2"]
    assert hands[1]["deltas"] == [1, 0, 1, 0]


# ---------------------------------------------------------------- end of a game


def test_must_play_ace_stops_a_promotion_at_a_and_wins_only_when_declaring_at_a():
    hands = [
        {"declarer": 0, "captured": 100},  # A: K → A (+1), next 2
        {"captured": 150},  # 上台 +1: B K → A, next 3
        {"captured": 160},  # 上台 +2: A is at A already, stays, moves 0; next 0
        {"captured": 100},  # A declares at A and is promoted: wins
        {"declarer": 1, "captured": 40},  # new game from K: B +4, stopped at A (1 step)
    ]
    result = settle(V, hands, options={"start_level": "K"})
    got = [(h["outcome"], h["deltas"], h["levels"], h["next_declarer"]) for h in result["hands"]]
    assert got == [
        ("declarer_up", [1, 0, 1, 0], ["A", "K", "A", "K"], 2),
        ("capture_up", [0, 1, 0, 1], ["A", "A", "A", "A"], 3),
        ("capture_up", [0, 0, 0, 0], ["A", "A", "A", "A"], 0),
        ("declarer_up", [0, 0, 0, 0], ["A", "A", "A", "A"], None),
        ("declarer_up", [0, 1, 0, 1], ["K", "A", "K", "A"], 3),
    ]
    assert [h["game"] for h in result["hands"]] == [1, 1, 1, 1, 2]
    game = result["games"][0]
    assert (game["finished"], game["winners"], game["how"], game["last_hand"]) == (True, [0, 2], "levels", 4)
    assert game["totals"] == [1, 1, 1, 1]
    assert result["games"][1]["finished"] is False
    assert result["games_won"] == [1, 0, 1, 0]
    assert result["settle_up"] == []


def test_a_declaring_team_carried_past_a_plays_on_at_a_under_must_play_ace():
    hand = settle_hand(V, {"declarer": 0, "captured": 0}, options={"start_level": "Q"})
    assert (hand["deltas"], hand["levels"], hand["next_declarer"]) == ([2, 0, 2, 0], ["A", "Q", "A", "Q"], 2)


def test_a_team_starting_at_a_wins_with_its_first_promotion_as_declarer():
    result = settle(V, [{"declarer": 1, "captured": 0}, {"declarer": 0, "captured": 125}], options={"start_level": "A"})
    first, second = result["hands"]
    # hand 1: B declares at A and goes up: wins at once, moving 0; hand 2 opens game 2 at A, 上台 without a level
    assert (first["deltas"], first["next_declarer"], first["levels"]) == ([0, 0, 0, 0], None, ["A", "A", "A", "A"])
    assert result["games"][0]["winners"] == [1, 3]
    assert (second["game"], second["outcome"], second["next_declarer"]) == (2, "switch", 1)
    assert result["games"][1]["finished"] is False


def test_pass_ace_wins_as_soon_as_a_promotion_would_pass_a():
    hands = [
        {"declarer": 0, "captured": 80},  # Q + 2 = A exactly: no win, next 2
        {"captured": 200},  # B 上台 +4: Q + 4 passes A: wins, moves 2 (Q → A)
        {"declarer": 3, "captured": 115},  # new game: B Q + 1 = K
    ]
    result = settle(V, hands, options={"start_level": "Q", "finish": "pass_ace"})
    got = [(h["outcome"], h["deltas"], h["levels"], h["next_declarer"]) for h in result["hands"]]
    assert got == [
        ("declarer_up", [2, 0, 2, 0], ["A", "Q", "A", "Q"], 2),
        ("capture_up", [0, 2, 0, 2], ["A", "A", "A", "A"], None),
        ("declarer_up", [0, 1, 0, 1], ["Q", "K", "Q", "K"], 1),
    ]
    assert result["games"][0]["winners"] == [1, 3]
    assert result["games"][0]["how"] == "levels"


def test_pass_ace_at_a_wins_with_any_promotion_even_taking_over():
    hands = settle(V, [{"declarer": 0, "captured": 140}], options={"start_level": "A", "finish": "pass_ace"})["hands"]
    assert (hands[0]["deltas"], hands[0]["next_declarer"]) == ([0, 0, 0, 0], None)
    assert hands[0]["outcome"] == "capture_up"


def test_a_switch_never_wins_even_at_a():
    result = settle(V, [{"declarer": 0, "captured": 120}], options={"start_level": "A", "finish": "pass_ace"})
    assert result["hands"][0]["next_declarer"] == 1
    assert result["games"][0]["finished"] is False


def test_a_new_game_needs_its_declarer_entered():
    error = refusal([{"declarer": 0, "captured": 0}, {"captured": 0}], options={"start_level": "A"})
    assert (error.hand, error.field) == (2, "declarer")


# ---------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("hand", "field", "code"),
    [
        ({"declarer": 2, "captured": 100, "kou_di": True}, "bottom_multiplier", "multiplier.required"),
        ({"declarer": 2, "captured": 100, "bottom_multiplier": 2}, "bottom_multiplier", "multiplier.without_kou_di"),
        (
            {"declarer": 2, "captured": 100, "kou_di": False, "bottom_multiplier": 4},
            "bottom_multiplier",
            "multiplier.without_kou_di",
        ),
        ({"declarer": 2, "captured": 100, "kou_di": True, "bottom_multiplier": 6}, "bottom_multiplier", None),
        ({"declarer": 2, "captured": 100, "kou_di": True, "bottom_multiplier": 1}, "bottom_multiplier", None),
        ({"declarer": 2, "captured": 305}, "captured", "points.over_deck"),
        ({"declarer": 2, "captured": 250, "bottom_points": 55}, "bottom_points", "points.over_deck"),
        ({"declarer": 2, "captured": 12}, "captured", "points.not_multiple_of_5"),
        ({"declarer": 0}, "captured", "field.required"),
        ({"declarer": 4, "captured": 0}, "declarer", "seat.invalid"),
        ({"declarer": 2, "captured": 0, "bid": 80}, "bid", "field.unknown"),
        ({"declarer": 2, "captured": 0, "gan_guo": True}, "gan_guo", "field.unknown"),
        ({"declarer": 2, "captured": 0, "dealer": 0}, "dealer", "field.unknown"),
        ({"redeal": "all_pass", "declarer": 2}, "declarer", "field.not_on_redeal"),
    ],
)
def test_it_refuses_a_bad_hand_naming_the_hand_and_field(hand, field, code):
    error = refusal([{"declarer": 2, "captured": 100}, hand] if "declarer" not in hand else [hand])
    assert error.field == field
    assert error.hand == (2 if "declarer" not in hand else 1)
    if code is not None:
        assert error.code == code


def test_a_bad_later_hand_names_its_number():
    error = refusal([{"declarer": 0, "captured": 100}, {"captured": 100}, {"captured": 100, "bottom_multiplier": 2}])
    assert (error.hand, error.field) == (3, "bottom_multiplier")


# ---------------------------------------------------------------- invariants


@st.composite
def hongxingwu_hand(draw: st.DrawFn) -> dict[str, Any]:
    if draw(st.integers(0, 14)) == 0:
        return {"redeal": draw(st.sampled_from(["all_pass", "no_trump_no_points", "misdeal"]))}
    captured = 5 * draw(st.integers(0, 60))
    hand: dict[str, Any] = {"captured": captured}
    if draw(st.booleans()):
        hand["bottom_points"] = 5 * draw(st.integers(0, min(20, (300 - captured) // 5)))
        if draw(st.booleans()):
            hand["kou_di"] = True
            hand["bottom_multiplier"] = draw(st.sampled_from([2, 4, 8, 16]))
    return hand


@given(
    st.lists(st.tuples(hongxingwu_hand(), st.integers(0, 3)), max_size=30),
    st.sampled_from(["must_play_ace", "pass_ace"]),
    st.sampled_from(["2", "8", "Q", "A"]),
)
def test_levels_never_go_down_and_never_pass_a(specs, finish, start):
    options = {"finish": finish, "start_level": start}
    hands: list[dict[str, Any]] = []
    pending = None
    for spec, seat in specs:
        hand = dict(spec)
        if pending is None and "redeal" not in hand:
            hand["declarer"] = seat
        hands.append(hand)
        pending = session_settle(document(V, hands, options=options))["hands"][-1]["next_declarer"]
    result = session_settle(document(V, hands, options=options))
    before = [LEVELS.index(start)] * 4
    game = 1
    for hand in result["hands"]:
        if hand["game"] != game:
            game, before = hand["game"], [LEVELS.index(start)] * 4
        after = [LEVELS.index(level) for level in hand["levels"]]
        assert all(a >= b for a, b in zip(after, before, strict=True))
        assert all(a <= LEVELS.index("A") for a in after)
        # a seat's delta is exactly the levels it moved; a team's seats move together
        assert hand["deltas"] == [a - b for a, b in zip(after, before, strict=True)]
        assert after[0] == after[2] and after[1] == after[3]
        before = after
    for game_doc in result["games"]:
        game_hands = [h for h in result["hands"] if h["game"] == game_doc["n"]]
        assert game_doc["totals"] == [sum(h["deltas"][s] for h in game_hands) for s in range(4)]
        assert (game_doc["how"] == "levels") is game_doc["finished"]
    assert result["totals"] == [sum(h["deltas"][s] for h in result["hands"]) for s in range(4)]


# ---------------------------------------------------------------- house rules (hongxingwu.md, end)


@pytest.mark.parametrize(
    ("options", "hands", "deltas", "levels"),
    [
        # must_defend 5: s = 0 → +8 from 2: 3, 4, 5, held at 5 (moved 3).
        ({"must_defend": ["5"]}, [{"declarer": 0, "captured": 0}], [[3, 0, 3, 0]], ["5", "2", "5", "2"]),
        # a capture team at a gate: s = 200 → B takes over +4 from 2 (must defend): stays.
        ({"must_defend": ["2"]}, [{"declarer": 0, "captured": 200}], [[0, 0, 0, 0]], ["2", "2", "2", "2"]),
        # no_skip 10: +8 from 2 stops on 10 (moved 8: 3 … 10 is exactly eight steps), then +6 from 10 leaves it.
        (
            {"no_skip": ["10"]},
            [{"declarer": 0, "captured": 0}, {"captured": 5}],
            [[8, 0, 8, 0], [4, 0, 4, 0]],  # from 10: J, Q, K, A (4 steps), then must_play_ace stops at A
            ["A", "2", "A", "2"],
        ),
        # no_skip 6: +8 from 2: 3, 4, 5, 6, stop (moved 4).
        ({"no_skip": ["6"]}, [{"declarer": 0, "captured": 0}], [[4, 0, 4, 0]], ["6", "2", "6", "2"]),
        # the 紅5 ladder: +5 (s = 20) from 2: 4, 6, 7, 8, 9.
        (
            {"ladder": ["2", "4", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]},
            [{"declarer": 0, "captured": 20}],
            [[5, 0, 5, 0]],
            ["9", "2", "9", "2"],
        ),
    ],
)
def test_house_rule_ladders_and_gates(options, hands, deltas, levels):
    result = settle(V, hands, options=options)["hands"]
    assert [h["deltas"] for h in result] == deltas
    assert result[-1]["levels"] == levels


def test_the_gates_mark_the_hand_and_explain_the_stop():
    hand = settle_hand(V, {"declarer": 0, "captured": 0}, options={"must_defend": ["5"]}, lang="en")
    assert "卡关" in hand["tags"]
    # seats 0 + 2 (甲, 丙) declared: 2 → 3 → 4 → 5, held there (must_defend) after 3 of 8
    assert "甲·丙 is held at 5, a level it must defend (卡关): up 3" in hand["steps"]


@pytest.mark.parametrize(
    ("multiplier", "deltas"),
    [(2, [4, 0, 4, 0]), (6, [2, 0, 2, 0]), (12, [0, 1, 0, 1])],  # s = 30 + 10m: 50 → +4, 90 → +2, 150 → 上台 +1
)
def test_times_accepts_any_even_multiplier(multiplier, deltas):
    hand = {"declarer": 0, "captured": 30, "bottom_points": 10, "kou_di": True, "bottom_multiplier": multiplier}
    assert settle_hand(V, hand, options={"kou_multiplier": "times"})["deltas"] == deltas


@pytest.mark.parametrize(
    ("options", "multiplier", "code"),
    [({}, 6, "multiplier.not_power_of_two"), ({"kou_multiplier": "times"}, 3, "multiplier.not_even")],
)
def test_the_multiplier_must_fit_the_scheme(options, multiplier, code):
    hand = {"declarer": 0, "captured": 30, "bottom_points": 10, "kou_di": True, "bottom_multiplier": multiplier}
    error = refusal([hand], options=options)
    assert (error.code, error.hand, error.field) == (code, 1, "bottom_multiplier")


def test_times_shapes_may_be_even_and_power_shapes_may_not():
    shapes = {"single": 2, "pair": 4, "triple": 6, "tractor_3_pairs": 12}
    settle(V, [], options={"kou_multiplier": "times", "kou_shapes": shapes})
    error = refusal([], options={"kou_shapes": shapes})
    assert (error.code, error.field) == ("option.invalid", "options.kou_shapes.triple")


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"must_defend": ["A"]}, "options.must_defend"),
        ({"ladder": ["2", "4", "A"], "no_skip": ["3"]}, "options.no_skip"),
        ({"ladder": ["4", "2", "A"]}, "options.ladder"),
        ({"ladder": ["4", "A"], "start_level": "2"}, "options.start_level"),  # a given start 2 is not on it
    ],
)
def test_house_rule_options_must_fit_the_ladder(options, field):
    error = refusal([], options=options)
    assert (error.code, error.field) == ("options.inconsistent", field)


@pytest.mark.parametrize(
    ("captured", "deltas"),
    [(115, [1, 0, 1, 0]), (120, [0, 1, 0, 1]), (135, [0, 1, 0, 1]), (140, [0, 2, 0, 2]), (160, [0, 3, 0, 3])],
)
def test_capture_base_gives_levels_from_the_switch(captured, deltas):
    table = {"up": [[0, 8], [5, 6], [20, 5], [40, 4], [60, 3], [80, 2], [100, 1]], "switch": 120, "step": 20}
    options = {"level_table": {**table, "capture_base": 1}}
    assert settle_hand(V, {"declarer": 0, "captured": captured}, options=options)["deltas"] == deltas


# ---------------------------------------------------------------- the receipt, line by line (message table, en)


RECEIPTS = [
    # 60: the 60–75 band, the declaring team up 3 (2 → 5), its 对家 declares next.
    (
        {},
        {"declarer": 0, "captured": 60},
        [
            "capture team's points: 60",
            "points 60–75: declaring team up 3",
            "levels: 甲·丙 5, 乙·丁 2",
            "next declarer: the declarer's partner (对家), 丙",
        ],
    ),
    # 120: 上台 without a level, the declarer's 下家 declares next.
    (
        {},
        {"declarer": 0, "captured": 120},
        [
            "capture team's points: 120",
            "points 120–135: the capture team takes over (上台), no level",
            "levels: 甲·丙 2, 乙·丁 2",
            "next declarer: the declarer's 下家, 乙",
        ],
    ),
    # 0 from Q: +8 stops at A after 2 steps (A必打); a band of one value reads as that value.
    (
        {"start_level": "Q"},
        {"declarer": 0, "captured": 0},
        [
            "capture team's points: 0",
            "points 0: declaring team up 8",
            "甲·丙 stops at A: up 2",
            "levels: 甲·丙 A, 乙·丁 Q",
            "next declarer: the declarer's partner (对家), 丙",
        ],
    ),
    # 140 from A (A必打): the capture team, at A already, takes over +1 and stays at A.
    (
        {"start_level": "A"},
        {"declarer": 0, "captured": 140},
        [
            "capture team's points: 140",
            "points 140–155: the capture team takes over and goes up 1",
            "乙·丁 is at A already and stays at A",
            "levels: 甲·丙 A, 乙·丁 A",
            "next declarer: the declarer's 下家, 乙",
        ],
    ),
    # 100 from A (A必打): the declaring team at A is promoted: it wins; no next declarer.
    (
        {"start_level": "A"},
        {"declarer": 0, "captured": 100},
        [
            "capture team's points: 100",
            "points 100–115: declaring team up 1",
            "甲·丙 promoted while declaring at A (A必打): wins the game",
            "levels: 甲·丙 A, 乙·丁 A",
        ],
    ),
    # 140 from A (pass_ace): the capture team's promotion goes past A: it wins.
    (
        {"start_level": "A", "finish": "pass_ace"},
        {"declarer": 0, "captured": 140},
        [
            "capture team's points: 140",
            "points 140–155: the capture team takes over and goes up 1",
            "乙·丁 goes past A: wins the game",
            "levels: 甲·丙 A, 乙·丁 A",
        ],
    ),
    # pass_ace at A, the declaring team promoted: it wins too, worded as passing A.
    (
        {"start_level": "A", "finish": "pass_ace"},
        {"declarer": 1, "captured": 100},
        [
            "capture team's points: 100",
            "points 100–115: declaring team up 1",
            "乙·丁 goes past A: wins the game",
            "levels: 甲·丙 A, 乙·丁 A",
        ],
    ),
]


@pytest.mark.parametrize(("options", "hand", "steps"), RECEIPTS)
def test_the_whole_receipt_line_by_line(options, hand, steps):
    assert settle_hand(V, hand, options=options, lang="en")["steps"] == steps


def test_a_club_ladder_names_the_levels_in_the_receipt_and_on_a_redeal():
    # the 紅5 ladder skips 3: +1 (s = 100) from 2 is 4, and the redeal after it shows 4 too.
    ladder = ["2", "4", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    hands = settle(V, [{"declarer": 0, "captured": 100}, {"redeal": "all_pass"}], options={"ladder": ladder}, lang="en")
    first, redeal = hands["hands"]
    assert "levels: 甲·丙 4, 乙·丁 2" in first["steps"]
    assert first["levels"] == redeal["levels"] == ["4", "2", "4", "2"]


def test_the_stored_state_waits_for_the_same_declarer_as_the_hand_names():
    # after each hand the resumable state's pending declarer is the hand's next_declarer: none once a game is won
    hands = [{"declarer": 0, "captured": 100}, {"captured": 100}, {"declarer": 1, "captured": 120}]
    doc = document_parse(
        {"variant": V, "players": ["甲", "乙", "丙", "丁"], "hands": hands, "options": {"start_level": "K"}},
        variants=VARIANTS,
    )
    played = session_play(doc).hands
    pending = [state_dump(h.state)["table"]["pending"] for h in played]
    assert pending == [2, None, 2]


# ---------------------------------------------------------------- what a refused option says (message table, en)


FULL_TABLE = {"up": [[0, 8], [5, 6], [20, 5], [40, 4], [60, 3], [80, 2], [100, 1]], "switch": 120, "step": 20}


@pytest.mark.parametrize(
    ("options", "field", "message"),
    [
        ({"level_table": []}, "options.level_table", 'must be: {"up": [[0, 8], …], "switch": 120, "step": 20}'),
        (
            {"level_table": {**FULL_TABLE, "base": 1}},
            "options.level_table.base",
            "must be: one of up, switch, step, capture_base",
        ),
        ({"level_table": {"up": [[0, 8]], "step": 20}}, "options.level_table.switch", "must be: present"),
        (
            {"level_table": {"up": [], "switch": 120, "step": 20}},
            "options.level_table.up",
            "must be: a non-empty list of [lowest s, levels] pairs",
        ),
        (
            {"level_table": {"up": [[0]], "switch": 120, "step": 20}},
            "options.level_table.up[0]",
            "must be: [lowest s, levels]",
        ),
        (
            {"level_table": {"up": [[0, 8], 20], "switch": 120, "step": 20}},
            "options.level_table.up[1]",
            "must be: [lowest s, levels]",
        ),
        (
            {"level_table": {"up": [[0, 0]], "switch": 120, "step": 20}},
            "options.level_table.up[0][1]",
            "must be: integer ≥ 1",
        ),
        (
            {"level_table": {"up": [[5, 8]], "switch": 120, "step": 20}},
            "options.level_table.up[0][0]",
            "must be: 0 (the first band starts at 0)",
        ),
        (
            {"level_table": {"up": [[0, 8], [0, 6]], "switch": 120, "step": 20}},
            "options.level_table.up[1][0]",
            "must be: more than 0",
        ),
        (
            {"level_table": {"up": [[0, 8], [7, 6]], "switch": 120, "step": 20}},
            "options.level_table.up[1][0]",
            "must be: integer ≥ 0, a multiple of 5",
        ),
        (
            {"level_table": {"up": [[0, 8], [40, 4], [80, 2], [100, 1]], "switch": 100, "step": 20}},
            "options.level_table.switch",
            "must be: more than 100, the last band's lowest s",
        ),
        (
            {"level_table": {"up": [[0, 8]], "switch": 7, "step": 20}},
            "options.level_table.switch",
            "must be: integer ≥ 5, a multiple of 5",
        ),
        (
            {"level_table": {"up": [[0, 8]], "switch": 120, "step": 0}},
            "options.level_table.step",
            "must be: integer ≥ 5, a multiple of 5",
        ),
        (
            {"level_table": {**FULL_TABLE, "capture_base": 101}},
            "options.level_table.capture_base",
            "must be: integer 0–100",
        ),
        (
            {"kou_shapes": {}},
            "options.kou_shapes",
            'must be: object from shape to multiplier, e.g. {"single": 2, "pair": 4}',
        ),
        (
            {"kou_shapes": "single"},
            "options.kou_shapes",
            'must be: object from shape to multiplier, e.g. {"single": 2, "pair": 4}',
        ),
        ({"kou_shapes": {" ": 2}}, "options.kou_shapes", "must be: shape names must be non-empty"),
        ({"kou_shapes": {"single": 0}}, "options.kou_shapes.single", "must be: a power of two ≥ 2"),
        ({"kou_shapes": {"single": 3}}, "options.kou_shapes.single", "must be: a power of two ≥ 2"),
        ({"kou_shapes": {"single": 2, "triple": 6}}, "options.kou_shapes.triple", "must be: a power of two ≥ 2"),
    ],
)
def test_a_refused_option_names_its_field_and_says_what_it_must_be(options, field, message):
    error = refusal([], options=options)
    assert (error.code, error.hand, error.field, error.message("en")) == ("option.invalid", None, field, message)


@pytest.mark.parametrize(
    ("captured", "outcome", "deltas"),
    [(0, "declarer_up", [2, 0, 2, 0]), (5, "switch", [0, 0, 0, 0]), (10, "capture_up", [0, 1, 0, 1])],
)
def test_the_smallest_switch_and_step_the_level_table_takes(captured, outcome, deltas):
    # switch 5 and step 5 are the least multiples of 5 it accepts: 0 +2, 5 上台, 10 上台 +1
    table = {"up": [[0, 2]], "switch": 5, "step": 5}
    hand = settle_hand(V, {"declarer": 0, "captured": captured}, options={"level_table": table})
    assert (hand["outcome"], hand["deltas"]) == (outcome, deltas)


def test_the_largest_capture_base_is_taken_and_kept_in_the_results():
    # capture_base 100 (integer 0–100): 上台 at 120 gives 100 levels, stopped at A: 2 → A is 12
    table = {**FULL_TABLE, "capture_base": 100}
    result = settle(V, [{"declarer": 0, "captured": 120}], options={"level_table": table})
    assert result["hands"][0]["deltas"] == [0, 12, 0, 12]
    assert result["options"]["level_table"] == table


def test_a_shape_without_a_label_is_offered_by_its_name():
    entries = kou_shape_entries(HongxingwuOptions(kou_shapes={"single": 2, "two_pairs": 8}), "en")
    assert [(e["shape"], e["label"], e["multiplier"]) for e in entries] == [
        ("single", "single", 2),
        ("two_pairs", "two_pairs", 8),
    ]


def test_the_receipt_names_a_free_declarer_and_a_redeal():
    # hand 2: seat 1 declares where the rotation says seat 2 (丙); hand 3 is thrown in (all passed)
    hands = settle(
        V,
        [{"declarer": 0, "captured": 80}, {"declarer": 1, "captured": 60}, {"redeal": "all_pass"}],
        options={"free_declarer": True},
        lang="en",
    )["hands"]
    assert hands[1]["steps"][0] == "free declarer: 乙 (rotation: 丙)"
    assert hands[2]["steps"] == ["redealt (all passed), no score"]


def test_a_start_level_off_the_ladder_says_so():
    error = refusal([], options={"ladder": ["4", "A"], "start_level": "2"})
    assert (error.code, error.field) == ("options.inconsistent", "options.start_level")
    assert error.message("en") == "inconsistent options: start_level 2 is not on the ladder"
    assert error.message("zh-Hans") == "选项不一致：起始级 2 不在级牌顺序上"


@pytest.mark.parametrize(
    ("options", "start"),
    [
        ({}, "2"),  # the default ladder's first level
        ({"ladder": ["4", "8", "A"]}, "4"),  # a house ladder without 2: its first level
        ({"ladder": ["3", "5", "A"], "must_defend": ["5"]}, "3"),
        ({"ladder": ["2", "5", "A"]}, "2"),
        ({"ladder": ["4", "8", "A"], "start_level": "8"}, "8"),  # a given one is kept
    ],
)
def test_the_start_level_defaults_to_the_ladders_first_level(options, start):
    result = settle(V, [{"declarer": 0, "captured": 0}], options=options)
    assert result["options"]["start_level"] == start
    # both teams stand there before the first hand: the declaring team climbs from it, the other stays on it
    assert result["hands"][0]["levels"][1] == start


def test_a_hand_played_on_from_the_stored_state_starts_from_both_teams_levels():
    # hand 1: 甲·丙 up 3 (60) to 5, 乙·丁 still at 2; hand 2, played on from the stored state by 丙: 上台 +1 (140),
    # so 乙·丁 go 2 → 3 while 甲·丙 stay at 5
    players = ["甲", "乙", "丙", "丁"]
    first = document_parse(
        {"variant": V, "players": players, "hands": [{"declarer": 0, "captured": 60}]}, variants=VARIANTS
    )
    stored = state_dump(session_play(first).state)
    second = document_parse(
        {"variant": V, "players": players, "hands": [{"captured": 140}]}, variants=VARIANTS, first_hand=2
    )
    hand = session_play(second, state=state_load(stored)).hands[-1]
    assert hand.result.levels == ("5", "3", "5", "3")
