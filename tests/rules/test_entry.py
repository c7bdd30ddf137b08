"""The engine describes its own entry: options per variant, fields, bids per place, redeal reasons, defaults.

Expected values are read off the rules reference (../shared/rules/*.md), not from the code.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from settlement.rules.base import RulesError
from settlement.rules.entry import (
    FieldKind,
    TableState,
    TributeDue,
    as_data,
    entry,
    option_defaults,
    options_spec,
    start_level,
    table_state,
)
from settlement.rules.labels import FIELD_TEXTS
from settlement.rules.messages import TABLE
from settlement.rules.options import OptionKind, options_resolve
from settlement.rules.registry import VARIANTS
from settlement.rules.session import session_settle

NAMES = ["王强", "张伟", "李娜", "刘洋"]


def describe(variant: str, players: int = 4, state: TableState | None = None, **kw: Any):
    rules = VARIANTS[variant]
    return entry(rules, rules.defaults(players), state or TableState(), players=players, **kw)


def bids_at(variant: str, place: int, forced: bool = False) -> list[int]:
    return [b.bid for b in describe(variant).bids if place in (b.forced_places if forced else b.places)]


# baifen.md, "Bidding rules that the entry is checked against": (variant, place, forced) -> bids allowed.
BENXI_TO_100 = [80, 85, 90, 95, 100]


@pytest.mark.parametrize(
    ("variant", "place", "forced", "bids"),
    [
        ("baifen.benxi", 0, False, BENXI_TO_100),
        ("baifen.benxi", 1, False, BENXI_TO_100),
        ("baifen.benxi", 2, False, [85, 90, 95, 100]),  # p = 2 bids ≥ 85
        ("baifen.benxi", 3, False, [85, 90, 95, 100]),  # p = 3 bids ≥ 85
        ("baifen.benxi", 3, True, [90, 95, 100]),  # forced only at p = 3, bid ≥ 90
        ("baifen.benxi", 0, True, []),
        ("baifen.fushun", 0, False, [85, 90, 95, 100]),  # 80 only forced
        ("baifen.fushun", 0, True, [80]),  # all four passed: p = 0 with 80
        ("baifen.fushun", 2, True, []),
        ("baifen.shenyang", 3, False, BENXI_TO_100),
        ("baifen.shenyang", 3, True, []),  # no forced declarer
        ("baifen.classic", 2, False, list(range(45, 101, 5))),  # min_bid 45
        ("erguai", 1, False, [80, 85, 90, 95, 100]),
        ("biaofen", 0, False, list(range(5, 81, 5))),
    ],
)
def test_it_offers_the_bids_the_rules_allow_at_each_place(variant, place, forced, bids):
    assert bids_at(variant, place, forced) == bids


@pytest.mark.parametrize("variant", ["baifen.benxi", "baifen.fushun", "baifen.shenyang"])
def test_every_offered_bid_is_accepted_and_every_other_refused(variant):
    offered = {(b.bid, p, False) for b in describe(variant).bids for p in b.places}
    offered |= {(b.bid, p, True) for b in describe(variant).bids for p in b.forced_places}
    for bid in range(5, 101, 5):
        for place in range(4):
            for forced in (False, True):
                hand: dict[str, Any] = {"dealer": 0, "declarer": place, "bid": bid, "captured": 0}
                if forced:
                    hand["forced"] = True
                doc = {"variant": variant, "players": NAMES, "hands": [hand]}
                try:
                    session_settle(doc)
                    accepted = True
                except RulesError:
                    accepted = False
                assert accepted == ((bid, place, forced) in offered), (bid, place, forced)


@pytest.mark.parametrize(
    ("variant", "reasons"),
    [
        ("baifen.benxi", ["all_pass", "no_trump_no_points", "misdeal"]),
        ("baifen.fushun", ["misdeal"]),
        ("baifen.shenyang", ["no_trump_no_points", "misdeal"]),
        ("baifen.classic", ["all_pass", "no_trump_no_points", "misdeal"]),  # every other variant: all three
        ("erguai", ["all_pass", "no_trump_no_points", "misdeal"]),
        ("biaofen", ["all_pass", "no_trump_no_points", "misdeal"]),
        ("hongxingwu", ["all_pass", "no_trump_no_points", "misdeal"]),
        ("gunzi", ["all_pass", "no_trump_no_points", "misdeal"]),
        ("shengji", ["all_pass", "no_trump_no_points", "misdeal"]),
    ],
)
def test_it_lists_the_redeal_reasons_of_each_variant(variant, reasons):
    assert [r.value for r in describe(variant).redeal_reasons] == reasons


@pytest.mark.parametrize(
    ("variant", "fields"),
    [
        ("baifen.benxi", ["dealer", "declarer", "bid", "forced", "captured", "kou"]),
        ("baifen.classic", ["dealer", "declarer", "bid", "partner", "captured", "kou_di"]),
        ("erguai", ["dealer", "declarer", "bid", "contract", "partner", "captured"]),
        (
            "biaofen",
            [
                "dealer",
                "declarer",
                "bid",
                "no_trump_bottom",
                "surrender",
                "bombs",
                "captured",
                "kou_di",
                "bottom_points",
                "penalties",
            ],
        ),
        ("hongxingwu", ["declarer", "captured", "kou_di", "bottom_points", "bottom_multiplier"]),
        ("gunzi", ["declarer", "captured", "kou_di", "bottom_points", "bottom_jokers", "gan_guo"]),
        ("shengji", ["declarer", "captured", "kou_di", "kou_cards", "bottom_points", "penalties"]),
    ],
)
def test_the_fields_come_in_play_order(variant, fields):
    assert [f.name for f in describe(variant).fields] == fields


# shengji.md, Inputs and One hand: the 抠底 multiplier's inputs follow kou_multiplier / kou_count; 勾J needs
# jack_back_to_two. (options) -> the fields after kou_di, before bottom_points.
@pytest.mark.parametrize(
    ("options", "kou_fields"),
    [
        ({}, ["kou_cards"]),  # times, cards: N = cards each
        ({"kou_multiplier": "power"}, ["kou_cards"]),
        ({"kou_count": "largest_unit"}, ["kou_cards", "kou_unit"]),  # N = the led play's largest unit
        ({"kou_multiplier": "flat"}, []),  # always × 2: nothing to count
        ({"kou_multiplier": "flat", "kou_count": "largest_unit"}, []),
        ({"jack_back_to_two": True}, ["kou_cards", "jack_kou"]),
    ],
)
def test_shengji_asks_for_what_its_bottom_multiplier_counts(options, kou_fields):
    rules = VARIANTS["shengji"]
    described = entry(rules, options_resolve(rules.defaults(4), options), TableState(), players=4)
    names = [f.name for f in described.fields]
    assert names[names.index("kou_di") + 1 : names.index("bottom_points")] == kou_fields


@pytest.mark.parametrize(
    ("players", "options", "seats", "deck", "most_cards"),
    [
        (4, {}, 4, 200, 27),  # 2 decks: 200 points; ⌊54 × 2 ÷ 4⌋ = 27 cards each
        (6, {}, 6, 300, 27),  # 3 decks: 300; ⌊54 × 3 ÷ 6⌋ = 27
        (4, {"decks": 3}, 4, 300, 40),  # ⌊162 ÷ 4⌋ = 40
        (6, {"decks": 4}, 6, 400, 36),  # ⌊216 ÷ 6⌋ = 36
    ],
)
def test_shengji_offers_its_seats_and_the_points_of_its_own_decks(players, options, seats, deck, most_cards):
    rules = VARIANTS["shengji"]
    described = entry(rules, options_resolve(rules.defaults(players), options), TableState(), players=players)
    declarer, captured, bottom, kou_cards = (
        described.field(n) for n in ("declarer", "captured", "bottom_points", "kou_cards")
    )
    assert declarer is not None and len(declarer.choices) == seats and declarer.required and not declarer.locked
    assert captured is not None and (captured.maximum, captured.step) == (deck, 5)
    assert bottom is not None and bottom.maximum == deck
    assert kou_cards is not None and (kou_cards.minimum, kou_cards.maximum) == (1, most_cards)
    assert (described.bids, described.dealer, described.ask_dealer) == ((), None, False)


def test_shengji_records_failed_throws_only():
    penalties = describe("shengji").field("penalties")
    assert penalties is not None and [c.value for c in penalties.choices] == ["shuai"]


@pytest.mark.parametrize(
    ("hands", "options", "players", "declarer", "locked", "levels"),
    [
        # 35 < 80: seats 0 + 2 up ⌈45/40⌉ = 2 (2 → 4); the partner 2 declares next, locked by the rotation
        ([{"declarer": 0, "captured": 35}], {}, 4, 2, True, ("4", "2", "4", "2")),
        # hand 2 (seat 2 declares) 100 ≥ 80: 上台 in the dead zone, no level; his 下家 3 next
        ([{"declarer": 0, "captured": 35}, {"captured": 100}], {}, 4, 3, True, ("4", "2", "4", "2")),
        # free_declarer: the rotation's seat is offered, not locked
        ([{"declarer": 0, "captured": 35}], {"free_declarer": True}, 4, 2, False, ("4", "2", "4", "2")),
        # six players, 3 decks (T 120, d 60): 60 → ⌈60/60⌉ = 1 for 1 + 3 + 5; their next seat 3 declares
        ([{"declarer": 1, "captured": 60}], {}, 6, 3, True, ("2", "3", "2", "3", "2", "3")),
        # 紅5 ladder 2, 4, 6 …: one level from 2 is 4
        (
            [{"declarer": 0, "captured": 50}],
            {"ladder": ["2", "4", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]},
            4,
            2,
            True,
            ("4", "2", "4", "2"),
        ),
    ],
)
def test_shengjis_next_hand_has_the_rotations_declarer_and_each_teams_level(
    hands, options, players, declarer, locked, levels
):
    rules = VARIANTS["shengji"]
    names = ["甲", "乙", "丙", "丁", "戊", "己"][:players]
    resolved = options_resolve(rules.defaults(players), options)
    results = session_settle({"variant": "shengji", "players": names, "hands": hands, "options": options})
    state = table_state(rules, resolved, results)
    described = entry(rules, resolved, state, players=players, names=names)
    field = described.field("declarer")
    assert field is not None and (field.default, field.locked, field.required) == (declarer, locked, False)
    assert (described.declarer, described.declarer_locked, described.levels) == (declarer, locked, levels)


def test_a_shengji_game_starts_at_its_ladders_first_level():
    rules = VARIANTS["shengji"]
    options = options_resolve(rules.defaults(4), {"ladder": ["3", "5", "A"]})
    results = session_settle(
        {"variant": "shengji", "players": NAMES, "hands": [], "options": {"ladder": ["3", "5", "A"]}}
    )
    assert table_state(rules, options, results).levels == ("3", "3", "3", "3")


def test_a_level_games_later_hand_has_the_rotations_declarer_locked_and_the_tribute_due():
    state = TableState(game=1, game_start=False, next_dealer=2, tribute_cards=3, levels=("4", "3", "4", "3"))
    described = describe("gunzi", state=state, names=NAMES)
    declarer = described.field("declarer")
    assert declarer is not None and (declarer.default, declarer.locked, declarer.required) == (2, True, False)
    # rules/gunzi.md step 1: the declarer's 上家 (seat 1) pays him T × card_points
    assert described.tribute is not None
    assert (described.tribute.payer, described.tribute.payee, described.tribute.amount) == (1, 2, 3)
    assert [f.name for f in described.fields][:2] == ["declarer", "tribute"]


def test_biaofen_asks_the_first_bidder_at_the_start_of_a_round_and_offers_the_next_one_later():
    assert describe("biaofen").ask_dealer and describe("biaofen").dealer is None
    later = describe("biaofen", state=TableState(game_start=False, next_dealer=3))
    assert (later.ask_dealer, later.dealer) == (False, 3)


def test_the_shapes_of_the_last_trick_carry_their_multipliers_lowest_first():
    shapes = describe("hongxingwu", lang="en").kou_shapes
    # hongxingwu.md: single 2, pair 4, triple 8, three-pair tractor 8, four-pair 16, two-triple 16
    assert [(s.value, s.multiplier) for s in shapes][:3] == [("single", 2), ("pair", 4), ("tractor_3_pairs", 8)]
    assert shapes[0].label == "single"


def test_seats_are_offered_by_name_or_counted_from_1():
    assert [c.label for c in describe("baifen.benxi", names=NAMES).fields[0].choices] == NAMES
    assert [c.label for c in describe("baifen.benxi").fields[0].choices] == ["1号位", "2号位", "3号位", "4号位"]
    assert describe("baifen.benxi", lang="en").fields[0].choices[0].label == "seat 1"


def test_the_state_after_a_finished_pot_starts_a_new_game_with_the_next_dealer():
    doc = {
        "variant": "baifen.benxi",
        "players": NAMES,
        "hands": [{"declarer": 0, "bid": 100, "captured": 0}, {"declarer": 1, "bid": 100, "captured": 0}],
    }
    results = session_settle(doc)
    rules = VARIANTS["baifen.benxi"]
    # 300 + 300 ≥ 205 after hand 1 (clean 100 → 300): the 盘 ends, hand 2 starts 盘 2
    assert table_state(rules, rules.defaults(4), results, before=2) == TableState(
        game=2, game_start=True, next_dealer=1
    )
    assert table_state(rules, rules.defaults(4), results).next_dealer == 2


# Before a session's first hand: game 1 starting, the dealer at seat 0, no tribute; the level games put both teams
# at their start level: 红星五 `start_level` (hongxingwu.md, its ladder starts at 2), 打滚子 `first_level` (gunzi.md).
@pytest.mark.parametrize(
    ("variant", "options", "levels"),
    [
        ("baifen.benxi", {}, None),
        ("hongxingwu", {"start_level": "5"}, ("5", "5", "5", "5")),
        ("gunzi", {"first_level": "4"}, ("4", "4", "4", "4")),
    ],
)
def test_the_state_before_the_first_hand_starts_game_1_at_seat_0_and_the_start_level(variant, options, levels):
    rules = VARIANTS[variant]
    resolved = options_resolve(rules.defaults(4), options)
    results = session_settle({"variant": variant, "players": NAMES, "hands": [], "options": options})
    assert table_state(rules, resolved, results) == TableState(
        game=1, game_start=True, next_dealer=0, tribute_cards=None, levels=levels
    )


def test_a_variant_without_levels_has_no_start_level():
    assert start_level(VARIANTS["baifen.benxi"].defaults(4)) is None


def test_a_gunzi_state_carries_levels_and_tribute_within_a_game_and_starts_afresh_after_it():
    # gunzi.md, first_level 9: hand 1, s = 60 < 120 without 扣底: seats 0 + 2 promoted k = 1 (9 → 10), the 对家 2
    # declares next, and below 80 the next hand's tribute is floor((80 − 60) / 10) = 2 cards. Hand 2: one big joker
    # in the bottom, J = 2, k = 3 from 10: past last_level 10, the game is won, next declarer null.
    rules = VARIANTS["gunzi"]
    options = {"first_level": "9"}
    resolved = options_resolve(rules.defaults(4), options)
    hands = [{"declarer": 0, "captured": 60}, {"captured": 60, "bottom_jokers": {"big": 1}}]
    results = session_settle({"variant": "gunzi", "players": NAMES, "hands": hands, "options": options})
    assert table_state(rules, resolved, results, before=2) == TableState(
        game=1, game_start=False, next_dealer=2, tribute_cards=2, levels=("10", "9", "10", "9")
    )
    assert table_state(rules, resolved, results) == TableState(
        game=2, game_start=True, next_dealer=0, tribute_cards=None, levels=("9", "9", "9", "9")
    )


SEATS4 = ["0", "1", "2", "3"]


def _field_row(f: Any) -> tuple[Any, ...]:
    return (f.name, f.kind, f.required, f.default, f.locked, [c.value for c in f.choices], f.minimum, f.maximum, f.step)


# Every field of the next hand, whole: (name, kind, required, default, locked, choice values, minimum, maximum,
# step), from each rule file's Inputs. Bids: erguai.md 80–100, biaofen.md 5–80 (multiples of 5); points: one
# deck 100, 标分's two decks 200, 打滚子's and 红星五's three 300 (their rule files' first lines); bombs: 标分 holds
# (108 − 12 bottom) ÷ players cards each, bombs of 8: 3 with 4 players, 4 with 3.
@pytest.mark.parametrize(
    ("variant", "players", "options", "state", "rows"),
    [
        (
            "erguai",
            4,
            {},
            TableState(game_start=False, next_dealer=3),
            [
                ("dealer", FieldKind.SEAT, False, 3, False, SEATS4, None, None, 1),
                ("declarer", FieldKind.SEAT, True, None, False, SEATS4, None, None, 1),
                ("bid", FieldKind.BID, True, None, False, ["80", "85", "90", "95", "100"], 80, 100, 5),
                ("contract", FieldKind.CHOICE, False, "plain", False, ["plain", "bao", "gou"], None, None, 1),
                ("partner", FieldKind.SEAT, True, None, False, [*SEATS4, "none"], None, None, 1),
                ("captured", FieldKind.POINTS, True, None, False, [], 0, 100, 5),
            ],
        ),
        (
            "baifen.benxi",
            4,
            {},
            TableState(),
            [
                ("dealer", FieldKind.SEAT, False, 0, False, SEATS4, None, None, 1),
                ("declarer", FieldKind.SEAT, True, None, False, SEATS4, None, None, 1),
                ("bid", FieldKind.BID, True, None, False, ["80", "85", "90", "95", "100"], 80, 100, 5),
                ("forced", FieldKind.SWITCH, False, False, False, [], None, None, 1),
                ("captured", FieldKind.POINTS, True, None, False, [], 0, 100, 5),
                ("kou", FieldKind.CHOICE, False, "", False, ["side", "trump", "joker"], None, None, 1),
            ],
        ),
        (
            "biaofen",
            3,
            {},
            TableState(game_start=False, next_dealer=2),
            [
                ("dealer", FieldKind.SEAT, False, 2, False, ["0", "1", "2"], None, None, 1),
                ("declarer", FieldKind.SEAT, True, None, False, ["0", "1", "2"], None, None, 1),
                ("bid", FieldKind.BID, True, None, False, [str(b) for b in range(5, 85, 5)], 5, 80, 5),
                ("no_trump_bottom", FieldKind.SWITCH, False, False, False, [], None, None, 1),
                ("surrender", FieldKind.SWITCH, False, False, False, [], None, None, 1),
                ("bombs", FieldKind.COUNT, False, 0, False, [], 0, 4, 1),
                ("captured", FieldKind.POINTS, True, None, False, [], 0, 200, 5),
                ("kou_di", FieldKind.SWITCH, False, False, False, [], None, None, 1),
                ("bottom_points", FieldKind.POINTS, False, 0, False, [], 0, 200, 5),
                ("penalties", FieldKind.PENALTIES, False, [], False, ["shuai", "misdeal"], 0, 9, 1),
            ],
        ),
        (
            "biaofen",
            4,
            {},
            TableState(),
            [
                ("dealer", FieldKind.SEAT, True, None, False, SEATS4, None, None, 1),
                ("declarer", FieldKind.SEAT, True, None, False, SEATS4, None, None, 1),
                ("bid", FieldKind.BID, True, None, False, [str(b) for b in range(5, 85, 5)], 5, 80, 5),
                ("no_trump_bottom", FieldKind.SWITCH, False, False, False, [], None, None, 1),
                ("surrender", FieldKind.SWITCH, False, False, False, [], None, None, 1),
                ("bombs", FieldKind.COUNT, False, 0, False, [], 0, 3, 1),
                ("captured", FieldKind.POINTS, True, None, False, [], 0, 200, 5),
                ("kou_di", FieldKind.SWITCH, False, False, False, [], None, None, 1),
                ("bottom_points", FieldKind.POINTS, False, 0, False, [], 0, 200, 5),
                ("penalties", FieldKind.PENALTIES, False, [], False, ["shuai", "misdeal"], 0, 9, 1),
            ],
        ),
        (
            # gunzi.md: a later hand's declarer is the rotation's (locked unless free_declarer), and the tribute
            # the previous hand set is paid, reversed or cancelled
            "gunzi",
            4,
            {},
            TableState(game_start=False, next_dealer=1, tribute_cards=2, levels=("3", "4", "3", "4")),
            [
                ("declarer", FieldKind.SEAT, False, 1, True, SEATS4, None, None, 1),
                (
                    "tribute",
                    FieldKind.CHOICE,
                    False,
                    "normal",
                    False,
                    ["normal", "reversed", "cancelled"],
                    None,
                    None,
                    1,
                ),
                ("captured", FieldKind.POINTS, True, None, False, [], 0, 300, 5),
                ("kou_di", FieldKind.SWITCH, False, False, False, [], None, None, 1),
                ("bottom_points", FieldKind.POINTS, False, 0, False, [], 0, 300, 5),
                ("bottom_jokers", FieldKind.JOKERS, False, {"big": 0, "small": 0}, False, ["big", "small"], 0, 3, 1),
                ("gan_guo", FieldKind.SWITCH, False, False, False, [], None, None, 1),
            ],
        ),
        (
            "hongxingwu",
            4,
            {"free_declarer": True},
            TableState(game_start=False, next_dealer=3, levels=("2", "3", "2", "3")),
            [
                ("declarer", FieldKind.SEAT, False, 3, False, SEATS4, None, None, 1),
                ("captured", FieldKind.POINTS, True, None, False, [], 0, 300, 5),
                ("kou_di", FieldKind.SWITCH, False, False, False, [], None, None, 1),
                ("bottom_points", FieldKind.POINTS, False, 0, False, [], 0, 300, 5),
                (
                    "bottom_multiplier",
                    FieldKind.SHAPE,
                    False,
                    None,
                    False,
                    ["single", "pair", "tractor_3_pairs", "triple", "tractor_2_triples", "tractor_4_pairs"],
                    2,
                    None,
                    1,
                ),
            ],
        ),
        (
            # shengji.md: with kou_count largest_unit both counts are asked (1 to the cards each: ⌊108 ÷ 4⌋ = 27),
            # 勾J only with jack_back_to_two; failed throws only
            "shengji",
            4,
            {"kou_count": "largest_unit", "jack_back_to_two": True},
            TableState(),
            [
                ("declarer", FieldKind.SEAT, True, None, False, SEATS4, None, None, 1),
                ("captured", FieldKind.POINTS, True, None, False, [], 0, 200, 5),
                ("kou_di", FieldKind.SWITCH, False, False, False, [], None, None, 1),
                ("kou_cards", FieldKind.COUNT, False, None, False, [], 1, 27, 1),
                ("kou_unit", FieldKind.COUNT, False, None, False, [], 1, 27, 1),
                ("jack_kou", FieldKind.SWITCH, False, False, False, [], None, None, 1),
                ("bottom_points", FieldKind.POINTS, False, 0, False, [], 0, 200, 5),
                ("penalties", FieldKind.PENALTIES, False, [], False, ["shuai"], 0, 9, 1),
            ],
        ),
    ],
)
def test_each_field_of_the_next_hand_says_what_it_takes_allows_and_starts_from(variant, players, options, state, rows):
    rules = VARIANTS[variant]
    described = entry(rules, options_resolve(rules.defaults(players), options), state, players=players)
    assert [_field_row(f) for f in described.fields] == rows
    assert (described.variant, described.players, described.state) == (variant, players, state)


def test_the_tribute_due_is_its_cards_times_the_card_points_paid_by_the_declarers_upper_seat():
    # gunzi.md step 1: the declarer's 上家 pays T × card_points; only 打滚子 pays a tribute
    rules = VARIANTS["gunzi"]
    state = TableState(game_start=False, next_dealer=1, tribute_cards=2, levels=("3", "4", "3", "4"))
    described = entry(rules, options_resolve(rules.defaults(4), {"card_points": 2}), state)
    assert described.tribute == TributeDue(cards=2, amount=4, payer=0, payee=1)
    other = VARIANTS["erguai"]
    assert entry(other, other.defaults(4), dataclasses.replace(state, levels=None)).tribute is None


def test_a_field_the_variant_does_not_take_is_none():
    assert describe("baifen.benxi").field("tribute") is None


# The field table (labels.py, FIELD_TEXTS): each field's label and help, and each choice's label, in the language
# asked for; seats by the players' names; a field without help gets a blank one.
@pytest.mark.parametrize(("lang", "column"), [("zh-Hans", 0), ("en", 1)])
@pytest.mark.parametrize(
    ("variant", "options", "state"),
    [
        ("erguai", {}, TableState()),
        ("baifen.benxi", {}, TableState()),
        ("biaofen", {}, TableState()),
        ("gunzi", {}, TableState(game_start=False, next_dealer=1, tribute_cards=2, levels=("3", "4", "3", "4"))),
        ("shengji", {"kou_count": "largest_unit", "jack_back_to_two": True}, TableState()),
    ],
)
def test_each_field_and_choice_is_labelled_from_the_field_table(variant, options, state, lang, column):
    rules = VARIANTS[variant]
    described = entry(rules, options_resolve(rules.defaults(4), options), state, lang=lang, names=NAMES)
    for f in described.fields:
        assert f.label == FIELD_TEXTS[f"field.{f.name}"][column]
        assert f.help == FIELD_TEXTS.get(f"field.{f.name}.help", (" ", " "))[column]
        for choice in f.choices:
            if f.kind is FieldKind.SEAT:
                expected = (
                    NAMES[int(choice.value)] if choice.value != "none" else FIELD_TEXTS["field.partner.none"][column]
                )
            elif f.kind is FieldKind.BID:
                expected = choice.value
            else:
                expected = FIELD_TEXTS[f"field.{f.name}.{choice.value}"][column]
            assert choice.label == expected, (f.name, choice.value)
    assert [r.label for r in described.redeal_reasons] == [
        TABLE[f"redeal.{r.value}"][column] for r in described.redeal_reasons
    ]


def test_a_clubs_own_shape_is_labelled_by_its_name():
    # hongxingwu.md: a club edits the shape table; a shape the message table does not name shows as entered
    rules = VARIANTS["hongxingwu"]
    options = options_resolve(rules.defaults(4), {"kou_shapes": {"single": 2, "5 pairs.long": 32}})
    shapes = entry(rules, options, TableState()).kou_shapes
    assert [(s.value, s.label, s.multiplier) for s in shapes] == [
        ("single", "单抠", 2),
        ("5 pairs.long", "5 pairs.long", 32),
    ]


def test_a_spec_is_plain_json_data_for_the_api():
    state = TableState(game=2, game_start=False, next_dealer=1, levels=("3", "4"))
    assert as_data(state) == {
        "game": 2,
        "game_start": False,
        "next_dealer": 1,
        "tribute_cards": None,
        "levels": ["3", "4"],
    }
    assert as_data({4: (FieldKind.SEAT, [OptionKind.INTEGER]), "x": {1: None}}) == {
        "4": ["seat", ["integer"]],
        "x": {"1": None},
    }
    assert type(as_data(FieldKind.SEAT)) is str
    assert as_data(TableState) is TableState  # a class is not a spec


# rules/*.md, the options tables: (variant, players, preset) -> some defaults worked from the reference.
@pytest.mark.parametrize(
    ("variant", "players", "preset", "expected"),
    [
        (
            "baifen.benxi",
            4,
            "本溪 205",
            {"target": 205, "fanbei": 50, "kou_award": {"side": 200, "trump": 200, "joker": 200}},
        ),
        (
            "baifen.benxi",
            4,
            "本溪 300",
            {"target": 300, "clean": {"80": 100, "85": 100, "90": 200, "95": 200, "100": 300}},
        ),
        ("baifen.fushun", 4, "抚顺 300", {"target": 300, "clean": {"100": 200}, "broken": {"100": -300}}),
        ("baifen.fushun", 4, "抚顺 500", {"target": 500}),
        ("baifen.shenyang", 4, "沈阳 250", {"target": 250, "kou_penalty": {"joker": -200}}),
        ("baifen.classic", 4, "经典", {"min_bid": 45, "stake": 1, "exact_hundred": "broken"}),
        ("erguai", 4, "初级场", {"unit_value": 200, "guangtou": 50}),
        ("erguai", 4, "高级场", {"unit_value": 1000}),
        ("biaofen", 4, "标准", {"dang_steps": [40, 30, 20], "shuai_defender": 3, "round_hands": 6}),
        ("biaofen", 3, "标准", {"dang_steps": [30, 20], "shuai_defender": 2}),
        ("hongxingwu", 4, "济源", {"finish": "must_play_ace", "start_level": "2", "free_declarer": False}),
        ("hongxingwu", 4, "济源（打过 A 即胜）", {"finish": "pass_ace"}),
        ("gunzi", 4, "大连", {"first_level": "3", "last_level": "10", "threshold": 120, "tribute_rounding": "floor"}),
        ("gunzi", 4, "大连（75 分进贡 1 张）", {"tribute_rounding": "ceil"}),
        # shengji.md, Options: decks = players ÷ 2, threshold / step null (40 × / 20 × decks)
        ("shengji", 4, "拖拉机", {"decks": 2, "threshold": None, "step": None, "kou_multiplier": "times"}),
        ("shengji", 6, "拖拉机", {"decks": 3, "dead_zone": 1, "finish": "must_play_ace"}),
        ("shengji", 4, "上海80分", {"must_defend": ["2", "5", "10", "K"], "finish": "pass_ace"}),
        ("shengji", 6, "紅5", {"decks": 3, "no_skip": ["10", "K"], "kou_multiplier": "flat"}),
    ],
)
def test_each_preset_resolves_to_the_rules_defaults(variant, players, preset, expected):
    defaults = option_defaults(VARIANTS[variant], players, preset)
    assert {key: defaults[key] for key in expected} == expected
    spec = options_spec(VARIANTS[variant])
    assert next(p for p in spec.presets if p.key == preset).defaults[players] == defaults


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("lang", ["zh-Hans", "en"])
def test_every_option_has_a_label_and_help_in_both_languages(variant, lang):
    for spec in options_spec(VARIANTS[variant], lang).options:
        assert spec.label and spec.label != spec.key, spec.key
        assert spec.help.strip(), spec.key
        for choice in spec.choices:
            assert choice.label, (spec.key, choice.value)
    for preset in options_spec(VARIANTS[variant], lang).presets:
        assert preset.label


@pytest.mark.parametrize("lang", ["zh-Hans", "en"])
def test_shengjis_presets_say_what_they_set(lang):
    presets = {p.key: p for p in options_spec(VARIANTS["shengji"], lang).presets}
    assert list(presets) == ["拖拉机", "上海80分", "紅5"]
    for preset in presets.values():
        assert preset.label and preset.help and preset.help != preset.label and "preset." not in preset.help
    assert options_spec(VARIANTS["shengji"], "en").presets[1].label == "Shanghai 80 points"


def test_the_house_rule_options_say_how_to_enter_them():
    shengji = {o.key: o for o in options_spec(VARIANTS["shengji"]).options}
    assert (shengji["decks"].kind, shengji["decks"].minimum, shengji["decks"].maximum) == (OptionKind.INTEGER, 2, 4)
    assert shengji["decks"].defaults == {4: 2, 6: 3}
    threshold = shengji["threshold"]
    assert (threshold.kind, threshold.nullable, threshold.step, threshold.defaults) == (
        OptionKind.INTEGER,
        True,
        5,
        {4: None, 6: None},
    )
    assert shengji["ladder"].kind is OptionKind.CHOICE_LIST
    assert [c.value for c in shengji["ladder"].choices] == [
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
        "8",
        "9",
        "10",
        "J",
        "Q",
        "K",
        "A",
    ]
    assert [c.value for c in shengji["kou_multiplier"].choices] == ["times", "power", "flat"]
    hxw = {o.key: o for o in options_spec(VARIANTS["hongxingwu"]).options}
    assert (hxw["must_defend"].kind, hxw["no_skip"].kind) == (OptionKind.CHOICE_LIST, OptionKind.CHOICE_LIST)
    assert [c.value for c in hxw["kou_multiplier"].choices] == ["power", "times"]
    assert [c.value for c in hxw["level_table"].choices] == ["up", "switch", "step", "capture_base"]
    gunzi = {o.key: o for o in options_spec(VARIANTS["gunzi"]).options}
    assert [c.value for c in gunzi["triple_jokers"].choices] == ["capture_big", "both_sides", "both_sides_small"]


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ({"ladder": ["2", "2", "A"]}, "option.invalid"),  # a level twice
        ({"ladder": ["2", "1"]}, "option.invalid"),  # not a level
        ({"ladder": ["A", "2"]}, "options.inconsistent"),  # not rising
        ({"threshold": 82}, "option.invalid"),  # not a multiple of 5
        ({"threshold": None, "step": None}, None),
    ],
)
def test_shengji_option_parsers_refuse_what_the_rules_refuse(raw, code):
    rules = VARIANTS["shengji"]
    if code is None:
        options_resolve(rules.defaults(4), raw)
        return
    with pytest.raises(RulesError) as error:
        options_resolve(rules.defaults(4), raw)
    assert error.value.code == code


def test_the_option_kinds_say_how_to_enter_them():
    kinds = {o.key: o for o in options_spec(VARIANTS["baifen.benxi"]).options}
    assert (kinds["target"].kind, kinds["target"].minimum, kinds["target"].step) == (OptionKind.INTEGER, 5, 5)
    assert kinds["clean"].kind is OptionKind.BID_TABLE
    assert kinds["kou_mode"].kind is OptionKind.CHOICE
    assert [c.value for c in kinds["kou_mode"].choices] == ["points", "game"]
    assert [c.value for c in kinds["kou_award"].choices] == ["side", "trump", "joker"]
    # baifen.md: a 抠 award is set for every kind, a 抠 penalty only for the kinds a club names
    assert (kinds["kou_award"].all_required, kinds["kou_penalty"].all_required) == (True, False)
    gunzi = {o.key: o for o in options_spec(VARIANTS["gunzi"]).options}
    assert gunzi["free_declarer"].kind is OptionKind.SWITCH
    assert gunzi["first_level"].defaults == {4: "3"}
    assert [c.value for c in gunzi["first_level"].choices][:2] == ["3", "4"]  # 2 is a permanent trump


def test_field_kinds():
    kinds = {f.name: f.kind for f in describe("biaofen").fields}
    assert kinds["bombs"] is FieldKind.COUNT and kinds["captured"] is FieldKind.POINTS
    captured = describe("biaofen").field("captured")
    assert captured is not None and (captured.maximum, captured.step) == (200, 5)  # two decks


@pytest.mark.parametrize(
    ("players", "seats", "alone", "help_"),
    [
        (4, ["0", "1", "2", "3"], "alone (1 against 3)", "if the declarer holds the called card, it is 1 against 3"),
        (
            6,
            ["0", "1", "2", "3", "4", "5"],
            "alone (1 against 5)",
            "if the declarer holds the called card, it is 1 against 5",
        ),
    ],
)
def test_the_classic_partner_field_offers_every_seat_and_alone_against_all_the_others(players, seats, alone, help_):
    rules = VARIANTS["baifen.classic"]
    field = next(
        f
        for f in entry(rules, rules.defaults(players), TableState(), players=players, lang="en").fields
        if f.name == "partner"
    )
    assert [c.value for c in field.choices] == [*seats, "none"]
    assert (field.choices[-1].label, field.help) == (alone, help_)


@pytest.mark.parametrize(
    ("variant", "counts", "start"), [("baifen.classic", (4, 6), 4), ("shengji", (4, 6), 6), ("biaofen", (3, 4), 4)]
)
def test_a_variant_says_which_player_counts_it_takes_and_which_a_new_session_starts_at(variant, counts, start):
    spec = options_spec(VARIANTS[variant])
    assert (spec.player_counts, spec.default_players) == (counts, start)


# --- how the seat moves on: the rotation the entry describes ---

# Read from the rules: baifen.md and erguai.md (the deal passes to the 下家 after every hand, thrown in or
# not); biaofen.md (庄胜: the declarer bids first again, 打宕 / 投降: his 下家; thrown in: the same first
# bidder); hongxingwu.md, gunzi.md, shengji.md (the declaring team goes up: the partner declares, else the
# 下家; thrown in: the same declarer). (variant, seat, redeal, scored, won, lost), in seats after a seat.
ROTATIONS = [
    ("baifen.benxi", "dealer", 1, 1, None, None),
    ("baifen.fushun", "dealer", 1, 1, None, None),
    ("baifen.shenyang", "dealer", 1, 1, None, None),
    ("baifen.classic", "dealer", 1, 1, None, None),
    ("erguai", "dealer", 1, 1, None, None),
    ("biaofen", "dealer", 0, None, 0, 1),
    ("hongxingwu", "declarer", 0, None, 2, 1),
    ("gunzi", "declarer", 0, None, 2, 1),
    ("shengji", "declarer", 0, None, 2, 1),
]


@pytest.mark.parametrize(("variant", "seat", "redeal", "scored", "won", "lost"), ROTATIONS)
def test_the_entry_says_how_the_dealer_or_declarer_moves_on(variant, seat, redeal, scored, won, lost):
    rotation = describe(variant).rotation
    assert (rotation.seat, rotation.redeal, rotation.scored, rotation.won, rotation.lost) == (
        seat,
        redeal,
        scored,
        won,
        lost,
    )
    assert as_data(rotation) == {"seat": seat, "redeal": redeal, "scored": scored, "won": won, "lost": lost}


@pytest.mark.parametrize(
    ("variant", "players", "hand", "next_seat"),
    [
        # 本溪: dealer 2 → 3 whoever declares (seat 0, the third bidder, bids 85), and after a hand thrown in.
        ("baifen.benxi", 4, {"dealer": 2, "declarer": 0, "bid": 85, "captured": 15}, 3),
        ("baifen.benxi", 4, {"dealer": 3, "redeal": "misdeal"}, 0),
        ("erguai", 4, {"dealer": 3, "redeal": "misdeal"}, 0),
        # 标分 (3 players): seat 1 bids 60 and 45 are captured: 45 < 60, 庄胜, seat 1 bids first again;
        # seat 2 bids 60 and 65 are captured: 打宕, his 下家 seat 0.
        ("biaofen", 3, {"dealer": 0, "declarer": 1, "bid": 60, "captured": 45}, 1),
        ("biaofen", 3, {"dealer": 0, "declarer": 2, "bid": 60, "captured": 65}, 0),
        ("biaofen", 3, {"dealer": 2, "redeal": "misdeal"}, 2),
        # 升级: seat 1 declares, the attackers take 30 (< 40: the declarers go up): his partner seat 3;
        # 100 taken (≥ 80: the attackers take over): his 下家 seat 2.
        ("shengji", 4, {"declarer": 1, "captured": 30}, 3),
        ("shengji", 4, {"declarer": 1, "captured": 100}, 2),
    ],
)
def test_the_rotation_gives_the_seat_the_engine_plays_next(variant, players, hand, next_seat):
    rules = VARIANTS[variant]
    names = NAMES[:players]
    result = session_settle({"variant": variant, "players": names, "hands": [hand]})["hands"][0]
    assert result["next_dealer"] == next_seat
    rotation = describe(variant, players).rotation
    if "redeal" in hand:
        assert rotation.after_redeal(hand.get(rotation.seat, result["dealer"]), players) == next_seat
    else:
        won = result["declarer_won"]
        got = rotation.after_scored(dealer=result["dealer"], declarer=hand["declarer"], won=won, players=players)
        assert got == next_seat
    assert rules.rotation is rotation


def _golden_sessions():
    from ..conftest import OWN_GOLDEN, SHARED_GOLDEN

    for path in sorted([*SHARED_GOLDEN.glob("*.json"), *OWN_GOLDEN.glob("*.json")]):
        case = json.loads(path.read_text(encoding="utf-8"))
        if "expect_error" not in case:
            yield pytest.param(case["input"], id=path.name)


@pytest.mark.parametrize("document", list(_golden_sessions()))
def test_every_golden_hands_next_seat_is_the_one_the_rotation_gives(document):
    """Where the game goes on, the seat the engine played next is the description's, hand by hand."""
    rules = VARIANTS[document["variant"]]
    results = session_settle(document)
    players = len(results["totals"])
    ended = {game["last_hand"] for game in results["games"] if game["finished"]}
    rotation = rules.rotation
    for hand in results["hands"]:
        if hand["next_dealer"] is None or hand["n"] in ended:
            continue  # the game is over: the next game's first seat is asked, or drawn
        if hand["status"] == "redeal":
            assert rotation.after_redeal(hand["dealer"], players) == hand["next_dealer"], hand["n"]
        elif hand["declarer_won"] is not None:
            won = hand["declarer_won"]
            expected = rotation.after_scored(dealer=hand["dealer"], declarer=hand["declarer"], won=won, players=players)
            assert expected == hand["next_dealer"], hand["n"]
        else:  # 打滚子's 臭抠 (hold): nobody went up, the deal stays with the declaring side — one of the two seats
            seats = {
                rotation.after_scored(dealer=hand["dealer"], declarer=hand["declarer"], won=won, players=players)
                for won in (True, False)
            }
            assert hand["next_dealer"] in seats, hand["n"]
