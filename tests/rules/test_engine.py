"""The engine's shared machinery: the document, errors, messages, settle-up, purity."""

from __future__ import annotations

import ast
import dataclasses
import json
import subprocess
import sys
from enum import StrEnum
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from settlement.rules import session_settle
from settlement.rules.base import BottomJokers, Penalty, RulesError
from settlement.rules.document import document_parse, hand_parse
from settlement.rules.options import (
    OptionKind,
    frozen_map,
    option,
    options_resolve,
    parse_bid_table,
    parse_bool,
    parse_choice,
    parse_choice_list,
    parse_enum,
    parse_int,
    parse_int_list,
    parse_keyed_ints,
)
from settlement.rules.registry import VARIANTS
from settlement.rules.session import SETTLE_UP_SEATS, session_play, settle_up_transfers

from ..conftest import ROOT, SHARED_GOLDEN
from .helpers import document, settle

RULES_DIR = ROOT / "settlement" / "rules"


def test_the_engine_never_imports_django():
    for path in RULES_DIR.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            assert not any(name.split(".")[0] == "django" for name in names), f"{path.name} imports django"


BENXI_HAND = {"declarer": 0, "bid": 80, "captured": 20}


@pytest.mark.parametrize(
    ("doc", "hand", "field", "code"),
    [
        ([], None, "document", "document.not_object"),
        ({"variant": "baifen.benxi", "players": ["a", "b", "c", "d"]}, None, "hands", "field.required"),
        ({"variant": "nope", "players": ["a", "b", "c", "d"], "hands": []}, None, "variant", "variant.unknown"),
        ({"variant": "baifen.benxi", "players": ["a", "b", "c"], "hands": []}, None, "players", "players.count"),
        (
            {"variant": "baifen.benxi", "players": ["a", "b", "c", "a"], "hands": []},
            None,
            "players",
            "players.duplicate",
        ),
        ({"variant": "baifen.benxi", "players": ["a", "", "c", "d"], "hands": []}, None, "players[1]", "players.name"),
        (
            {"variant": "baifen.benxi", "players": ["a", "b", "c", "d"], "hands": [], "extra": 1},
            None,
            "extra",
            "field.unknown",
        ),
        ({"variant": "baifen.benxi", "players": ["a", "b", "c", "d"], "hands": {}}, None, "hands", "value.not_list"),
        (
            {"variant": "baifen.benxi", "players": ["a", "b", "c", "d"], "hands": [], "date": "30/11"},
            None,
            "date",
            "value.not_date",
        ),
        (
            {"variant": "baifen.benxi", "players": ["a", "b", "c", "d"], "hands": [], "options": {"target": 0}},
            None,
            "options.target",
            "option.invalid",
        ),
        (
            {"variant": "baifen.benxi", "players": ["a", "b", "c", "d"], "hands": [], "options": {"x": 1}},
            None,
            "options.x",
            "option.unknown",
        ),
        (
            {
                "variant": "baifen.benxi",
                "players": ["a", "b", "c", "d"],
                "hands": [],
                "options": {"kou_award": {"side": 1}},
            },
            None,
            "options.kou_award.trump",
            "option.invalid",
        ),
        (
            {"variant": "baifen.benxi", "players": ["a", "b", "c", "d"], "hands": [], "options": {"clean": {"x": 1}}},
            None,
            "options.clean.x",
            "option.invalid",
        ),
        (
            {"variant": "baifen.benxi", "players": ["a", "b", "c", "d"], "hands": [], "options": {"kou_mode": "all"}},
            None,
            "options.kou_mode",
            "option.invalid",
        ),
        (
            {"variant": "baifen.benxi", "players": ["a", "b", "c", "d"], "hands": [BENXI_HAND, 3]},
            2,
            "hand",
            "value.not_object",
        ),
        (
            {"variant": "baifen.benxi", "players": ["a", "b", "c", "d"], "hands": [{"declarer": 0, "bid": 80}]},
            1,
            "captured",
            "field.required",
        ),
        (
            {"variant": "baifen.benxi", "players": ["a", "b", "c", "d"], "hands": [{"declarer": 0, "captured": 0}]},
            1,
            "bid",
            "field.required",
        ),
        (
            {"variant": "baifen.benxi", "players": ["a", "b", "c", "d"], "hands": [{"bid": 80, "captured": 0}]},
            1,
            "declarer",
            "field.required",
        ),
        (
            {"variant": "baifen.benxi", "players": ["a", "b", "c", "d"], "hands": [{**BENXI_HAND, "captured": 12}]},
            1,
            "captured",
            "points.not_multiple_of_5",
        ),
        (
            {"variant": "baifen.benxi", "players": ["a", "b", "c", "d"], "hands": [{**BENXI_HAND, "captured": 110}]},
            1,
            "captured",
            "points.over_deck",
        ),
        (
            {"variant": "baifen.benxi", "players": ["a", "b", "c", "d"], "hands": [{**BENXI_HAND, "kou": "ace"}]},
            1,
            "kou",
            "value.not_choice",
        ),
        (
            {"variant": "baifen.benxi", "players": ["a", "b", "c", "d"], "hands": [{**BENXI_HAND, "forced": 1}]},
            1,
            "forced",
            "value.not_bool",
        ),
        (
            {"variant": "baifen.benxi", "players": ["a", "b", "c", "d"], "hands": [{**BENXI_HAND, "partner": 1}]},
            1,
            "partner",
            "field.unknown",
        ),
        (
            {"variant": "baifen.benxi", "players": ["a", "b", "c", "d"], "hands": [{"redeal": "misdeal", "bid": 80}]},
            1,
            "bid",
            "field.not_on_redeal",
        ),
        (
            {"variant": "baifen.benxi", "players": ["a", "b", "c", "d"], "hands": [{"redeal": "tired"}]},
            1,
            "redeal",
            "value.not_choice",
        ),
    ],
)
def test_it_rejects_a_bad_document_naming_the_hand_and_the_field(doc, hand, field, code):
    with pytest.raises(RulesError) as caught:
        session_settle(doc)
    assert (caught.value.hand, caught.value.field, caught.value.code) == (hand, field, code)


def test_an_error_reads_in_both_languages():
    with pytest.raises(RulesError) as caught:
        settle("baifen.benxi", [BENXI_HAND, {"dealer": 0, "declarer": 2, "bid": 80, "captured": 0}])
    assert (
        caught.value.describe("en")
        == "hand 2: bid: in Benxi the third bidder (the dealer is first) must bid at least 85"
    )
    assert caught.value.describe("zh-Hans") == "hand 2: bid: 本溪第 3 个叫的（头家为第 1 个）至少叫 85"


def test_an_error_about_a_seat_names_the_player_sitting_there():
    # 升级 (rules/shengji.md): s = 40 < 80 keeps the deal in the team, the 对家 (seat 2, 丙) declares next.
    doc = {
        "variant": "shengji",
        "players": ["甲", "乙", "丙", "丁"],
        "hands": [
            {"declarer": 0, "captured": 40, "bottom_points": 0},
            {"declarer": 1, "captured": 40, "bottom_points": 0},
        ],
    }
    with pytest.raises(RulesError) as caught:
        session_settle(doc)
    assert caught.value.describe("en") == (
        "hand 2: declarer: by rotation the declarer is 丙, not 乙 (the free declarer option allows it)"
    )
    assert caught.value.describe("zh-Hans") == "hand 2: declarer: 轮庄应由丙坐庄，填的是乙（可在选项里开启自由坐庄）"


def test_steps_come_in_the_language_asked_for():
    hand = {"declarer": 1, "bid": 85, "captured": 20}
    assert settle("baifen.benxi", [hand])["hands"][0]["steps"][0] == "叫分 85 + 抓分 20 = 105 > 100：破"
    assert (
        settle("baifen.benxi", [hand], lang="en")["hands"][0]["steps"][0] == "bid 85 + captured 20 = 105 > 100: broken"
    )


def test_the_results_carry_every_field_the_reference_names():
    results = settle("baifen.benxi", [BENXI_HAND])
    assert list(results) == [
        "variant",
        "options",
        "players",
        "unit",
        "hands",
        "games",
        "totals",
        "games_won",
        "settle_up",
    ]
    hand_keys = {
        "n",
        "game",
        "status",
        "dealer",
        "declarer",
        "outcome",
        "tags",
        "declarer_won",
        "deltas",
        "totals",
        "steps",
        "next_dealer",
    }
    assert hand_keys <= set(results["hands"][0])
    assert {"n", "first_hand", "last_hand", "finished", "winners", "how", "adjustments", "totals"} <= set(
        results["games"][0]
    )
    assert results["unit"] == "分"


def test_options_are_resolved_in_full_and_an_override_replaces_a_whole_table():
    options = settle("baifen.benxi", [], options={"clean": {"90": 150}})["options"]
    assert options["clean"] == {"90": 150}
    assert options["target"] == 205
    assert options["kou_award"] == {"side": 200, "trump": 200, "joker": 200}


def test_an_empty_session_has_no_games():
    assert settle("baifen.benxi", [])["games"] == []


@pytest.mark.parametrize(
    ("totals", "expected"),
    [
        ([0, 0, 0, 0], []),
        ([5, -5, 0, 0], [(1, 0, 5)]),
        # two pairs that clear each other: 2 transfers, not 3
        ([5, -5, 7, -7], [(1, 0, 5), (3, 2, 7)]),
        ([10, -3, -3, -4], [(1, 0, 3), (2, 0, 3), (3, 0, 4)]),
        ([6, 4, -5, -5], [(2, 0, 5), (3, 0, 1), (3, 1, 4)]),
        ([4, -2, -2], [(1, 0, 2), (2, 0, 2)]),
        # equal credits: the lower seat is paid first. −4 pays seat 0 its 3 → [0, 3, −1, −2];
        # then −2 pays seat 1 → [0, 1, −1, 0]; then seat 2 pays seat 1 its last 1
        ([3, 3, -4, -2], [(2, 0, 3), (2, 1, 1), (3, 1, 2)]),
        # +5 −2 −3 | +4 −4: two groups, 3 transfers; the greedy rule would take 4 (−4 → +5 first)
        ([5, -2, -3, 4, -4], [(1, 0, 2), (2, 0, 3), (4, 3, 4)]),
        # +6 −6 | +5 −2 −3 | nothing: the largest debt (−6) meets the largest credit (+6) first anyway
        ([6, -6, 5, -2, -3, 0], [(1, 0, 6), (3, 2, 2), (4, 2, 3)]),
        # +7 −3 −4 | +6 −1 −5: greedy pays −5 → +7 and then needs 5; the split needs 4
        ([7, -3, -4, 6, -1, -5], [(1, 0, 3), (2, 0, 4), (4, 3, 1), (5, 3, 5)]),
        # three pairs at six seats, equal figures: the lower seats pair first
        ([2, -2, 2, -2, 2, -2], [(1, 0, 2), (3, 2, 2), (5, 4, 2)]),
        # the 6-player classic worked session's totals: −6 +6 pair off, the other four clear in 3
        ([-15, -9, -6, -15, 39, 6], [(0, 4, 15), (1, 4, 9), (2, 5, 6), (3, 4, 15)]),
    ],
)
def test_settle_up_uses_the_fewest_transfers(totals, expected):
    transfers = [(t.payer, t.payee, t.amount) for t in settle_up_transfers(totals)]
    assert transfers == expected


def _most_zero_sum_groups(balances: list[int]) -> int:
    """The reference: the most groups the non-zero balances split into that each sum to zero (exhaustive)."""
    if not balances:
        return 0
    first, rest = balances[0], balances[1:]
    best = 0
    for size in range(len(rest) + 1):
        for picked in combinations(range(len(rest)), size):
            if first + sum(rest[i] for i in picked) == 0:
                others = [b for i, b in enumerate(rest) if i not in picked]
                best = max(best, 1 + _most_zero_sum_groups(others))
    return best


@st.composite
def _zero_sum_totals(draw: st.DrawFn, most: int = SETTLE_UP_SEATS) -> list[int]:
    seats = draw(st.integers(min_value=3, max_value=most))
    head = draw(st.lists(st.integers(min_value=-8, max_value=8), min_size=seats - 1, max_size=seats - 1))
    return [*head, -sum(head)]


@given(_zero_sum_totals())
@example([5, -2, -3, 4, -4])  # five seats: greedy would pair −4 with +5 across the two groups
@example([7, -3, -4, 6, -1, -5])  # six seats: greedy would pair −5 with +7 across the two groups
@example([1, -1, 2, -2, 3, -3])  # six seats, three pairs
def test_settle_up_needs_as_few_transfers_as_an_exhaustive_split_finds(totals):
    # Three to six seats: every zero-sum variant's table, 6-player classic 打百分 the largest.
    # k seats owed or owing, split into the most zero-sum groups g: the fewest transfers is k − g.
    # Small figures (−8…8) make pairs {a, −a} and ties common, the cases where a split matters.
    nonzero = [t for t in totals if t]
    transfers = settle_up_transfers(totals)
    assert len(transfers) == len(nonzero) - _most_zero_sum_groups(nonzero)
    cleared = list(totals)
    for t in transfers:
        assert t.amount > 0
        cleared[t.payer] += t.amount
        cleared[t.payee] -= t.amount
    assert cleared == [0] * len(totals)


def _greedy_settle_up(totals: list[int]) -> list[tuple[int, int, int]]:
    """The settle-up before six seats: the largest debt pays the largest credit (ties: lower seat) until clear."""
    left = dict(enumerate(totals))
    transfers = []
    while any(left.values()):
        payer = min(left, key=lambda s: (left[s], s))
        payee = max(left, key=lambda s: (left[s], -s))
        amount = min(-left[payer], left[payee])
        transfers.append((payer, payee, amount))
        left[payer] += amount
        left[payee] -= amount
    return sorted(transfers)


@given(_zero_sum_totals(most=4))
def test_settle_up_at_four_seats_is_the_greedy_pairing_it_always_was(totals):
    # Up to 4 seats the greedy pairing is minimal, and sessions already settled must read the same.
    assert [(t.payer, t.payee, t.amount) for t in settle_up_transfers(totals)] == _greedy_settle_up(totals)


def test_every_zero_sum_variant_seats_at_most_the_settle_up_limit():
    # settle_up_transfers is minimal (and allowed) only up to SETTLE_UP_SEATS seats owed or owing.
    for variant in VARIANTS.values():
        if variant.zero_sum:
            assert max(variant.player_counts) <= SETTLE_UP_SEATS, variant.key


def test_every_zero_sum_variant_has_a_unit_value_to_settle_up_in():
    # The replay reads it from the options of every session it settles up (no fallback).
    for variant in VARIANTS.values():
        if variant.zero_sum:
            for players in variant.player_counts:
                assert variant.defaults(players).unit_value >= 1, variant.key


class _SeatDroppingTable:
    """A table that forgets the last seat's delta: an engine defect, not bad input."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def play(self, hand: Any, ctx: Any) -> Any:
        result = self.inner.play(hand, ctx)
        return dataclasses.replace(result, deltas=result.deltas[:-1])

    def state_dump(self) -> Any:
        return self.inner.state_dump()

    def state_load(self, state: Any) -> None:
        self.inner.state_load(state)


def test_a_hand_with_deltas_for_another_number_of_seats_is_an_engine_defect():
    doc = document("baifen.classic", [{"declarer": 0, "bid": 60, "partner": 2, "captured": 35}])
    classic = VARIANTS["baifen.classic"]
    broken = dataclasses.replace(classic, new_table=lambda o, n: _SeatDroppingTable(classic.new_table(o, n)))
    parsed = dataclasses.replace(document_parse(doc, variants=VARIANTS), variant=broken)
    with pytest.raises(AssertionError, match=r"^hand 1: 3 deltas for 4 seats$"):
        session_play(parsed)


@pytest.mark.parametrize(
    ("totals", "expected"),
    [
        # Seven owed or owing: +3 (seat 2) and −3 (seat 5) clear first; five are left for the search: seat 6 pays
        # seat 0 three, seat 4 pays seat 1 two, seat 3 pays seat 0 the last one. Four in all.
        ([4, 2, 3, -1, -2, -3, -3], [(3, 0, 1), (4, 1, 2), (5, 2, 3), (6, 0, 3)]),
        # An event of ten: +6/−6, +2/−2 and +1 (seat 5)/−1 (seat 9) clear in one transfer each; four are left
        # (+5 seat 4, +1 seat 6, −3 seats 7 and 8): 7 pays 4 three, 8 pays 4 two and 6 one. Six in all.
        ([6, -6, 2, -2, 5, 1, 1, -3, -3, -1], [(1, 0, 6), (3, 2, 2), (7, 4, 3), (8, 4, 2), (8, 6, 1), (9, 5, 1)]),
    ],
)
def test_settle_up_of_more_seats_than_the_search_clears_pairs_then_pays_the_largest(totals, expected):
    assert [(t.payer, t.payee, t.amount) for t in settle_up_transfers(totals)] == expected


@given(_zero_sum_totals(most=24))
def test_settle_up_of_any_count_clears_every_balance_in_fewer_transfers_than_seats_owed(totals):
    transfers = settle_up_transfers(totals)
    owed = sum(1 for t in totals if t)
    assert len(transfers) <= max(owed - 1, 0)
    cleared = list(totals)
    for t in transfers:
        assert t.amount > 0 and totals[t.payer] < 0 < totals[t.payee]
        cleared[t.payer] += t.amount
        cleared[t.payee] -= t.amount
    assert cleared == [0] * len(totals)


def test_settle_up_refuses_totals_that_do_not_sum_to_zero():
    with pytest.raises(AssertionError, match=r"^settle-up needs zero-sum totals, got \[1, 0, -2\]$"):
        settle_up_transfers([1, 0, -2])


def test_settle_up_is_in_money():
    assert [(t.payer, t.payee, t.amount) for t in settle_up_transfers([3, -3], unit_value=20)] == [(1, 0, 60)]


def test_every_registered_variant_has_a_name_in_both_languages_and_a_unit():
    for key, variant in VARIANTS.items():
        assert variant.key == key
        assert variant.name["zh-Hans"] and variant.name["en"] and variant.unit


def _settle_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "settle", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )


def test_settle_reproduces_the_benxi_example_from_a_file():
    case = json.loads((SHARED_GOLDEN / "baifen-benxi-example.json").read_text(encoding="utf-8"))
    proc = _settle_cli("-", stdin=json.dumps(case["input"], ensure_ascii=False))
    assert proc.returncode == 0, proc.stderr
    results = json.loads(proc.stdout)
    assert results["totals"] == [315, 230, 315, 230]
    assert [g["winners"] for g in results["games"]] == [[1, 3], [0, 2]]


def test_settle_prints_the_reason_and_exits_2_on_bad_input(tmp_path: Path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document("baifen.benxi", [BENXI_HAND, {"declarer": 0, "bid": 80}])), encoding="utf-8")
    proc = _settle_cli(str(path), "--lang", "en")
    assert proc.returncode == 2
    assert proc.stderr.strip() == "hand 2: captured: is required"
    assert proc.stdout == ""


def test_settle_refuses_text_that_is_not_json():
    proc = _settle_cli("-", stdin="{not json")
    assert proc.returncode == 2
    assert proc.stderr.startswith("document: json:")


@pytest.mark.parametrize(
    ("variant", "options", "field"),
    [
        ("baifen.classic", {"stake": 1_000_001}, "options.stake"),
        ("baifen.classic", {"unit_value": 10**30}, "options.unit_value"),
        ("baifen.benxi", {"clean": {"90": -2_000_000}}, "options.clean.90"),
        ("baifen.benxi", {"kou_award": {"side": 10**9, "trump": 1, "joker": 1}}, "options.kou_award.side"),
    ],
)
def test_it_rejects_an_option_too_large_for_any_table(variant, options, field):
    with pytest.raises(RulesError) as caught:
        settle(variant, [], options=options)
    assert (caught.value.field, caught.value.code) == (field, "option.invalid")


class _Kou(StrEnum):
    SIDE = "side"
    TRUMP = "trump"


# Each option kind's parser, built inside the test (the variants build theirs at import): what it accepts, what
# it answers, and the `expected` its refusal names, worked from the parsers' documented contract in options.py.
@pytest.mark.parametrize(
    ("make", "value", "answer"),
    [
        (lambda: parse_int(low=0, high=100, step=5), 35, 35),
        (lambda: parse_int(low=0, high=100, step=5), 0, 0),
        (lambda: parse_int(low=0, high=100, step=5), 100, 100),
        (lambda: parse_int(low=1, high=3, nullable=True), None, None),
        (lambda: parse_bool, False, False),
        (lambda: parse_enum(_Kou), "trump", _Kou.TRUMP),
        (lambda: parse_choice(["a", "b"]), "b", "b"),
        (lambda: parse_choice_list(["2", "3", "4"]), ["4", "2"], ("4", "2")),
        (lambda: parse_bid_table(value_low=0, value_high=10), {"100": 5, "90": 3}, {90: 3, 100: 5}),
        (lambda: parse_keyed_ints(["a", "b"], all_required=True, low=0, high=9), {"b": 9, "a": 0}, {"a": 0, "b": 9}),
        (lambda: parse_keyed_ints(["a", "b"], all_required=False), {"b": -1}, {"b": -1}),
        (lambda: parse_int_list(low=1, min_len=2), [1, 7], (1, 7)),
        (lambda: parse_int_list(), [1], (1,)),  # by default one integer ≥ 1 is enough
        (lambda: parse_bid_table(), {"90": 1_000_000, "95": -1_000_000}, {90: 1_000_000, 95: -1_000_000}),
        (lambda: parse_bid_table(value_low=0, value_high=10), {"95": 10, "90": 0}, {90: 0, 95: 10}),
    ],
)
def test_an_option_parser_answers_what_it_accepts(make, value, answer):
    parsed = make()(value, "f")
    assert parsed == answer
    if isinstance(answer, dict):  # bids sorted, keys in the option's order
        assert list(parsed) == list(answer)


@pytest.mark.parametrize(
    ("make", "value", "field", "expected"),
    [
        (lambda: parse_int(low=0, high=100, step=5), 36, "f", "integer 0–100, multiple of 5"),
        (lambda: parse_int(low=0, high=100, step=5), 105, "f", "integer 0–100, multiple of 5"),
        (lambda: parse_int(low=0, high=100, step=5), -5, "f", "integer 0–100, multiple of 5"),
        (lambda: parse_int(low=1, high=3), True, "f", "integer 1–3"),
        (lambda: parse_int(low=1, high=3), "2", "f", "integer 1–3"),
        (lambda: parse_int(low=1, high=3), None, "f", "integer 1–3"),
        (lambda: parse_int(low=1, high=3, nullable=True), 0, "f", "null or integer 1–3"),
        (lambda: parse_int(), 1_000_001, "f", "integer -1000000–1000000"),
        (lambda: parse_bool, 1, "f", "true/false"),
        (lambda: parse_bool, None, "f", "true/false"),
        (lambda: parse_enum(_Kou), "joker", "f", "'side' / 'trump'"),
        (lambda: parse_enum(_Kou), ["side"], "f", "'side' / 'trump'"),
        (lambda: parse_choice(["a", "b"]), "c", "f", "'a' / 'b'"),
        (lambda: parse_choice_list(["2", "3", "4"]), "2", "f", "a list of 2, 3, 4"),
        (lambda: parse_choice_list(["2", "3", "4"]), ["2", 3], "f", "a list of 2, 3, 4"),
        (lambda: parse_choice_list(["2", "3", "4"]), ["2", "5"], "f", "a list of 2, 3, 4"),
        (lambda: parse_choice_list(["2", "3", "4"]), ["3", "3"], "f", "a list of 2, 3, 4, each once"),
        (lambda: parse_choice_list(["2", "3"], expected="a ladder"), ["9"], "f", "a ladder"),
        (lambda: parse_bid_table(), [], "f", 'object from bid to score, e.g. {"100": 300}'),
        (lambda: parse_bid_table(), {"91": 1}, "f.91", "a bid, a multiple of 5"),
        (lambda: parse_bid_table(), {"x": 1}, "f.x", "a bid, a multiple of 5"),
        (lambda: parse_bid_table(), {"90": True}, "f.90", "integer between −1000000 and 1000000"),
        (lambda: parse_bid_table(), {"90": -1_000_001}, "f.90", "integer between −1000000 and 1000000"),
        (lambda: parse_bid_table(value_low=0, value_high=10), {"90": 11}, "f.90", "integer between 0 and 10"),
        (lambda: parse_bid_table(value_low=0, value_high=10), {"90": -1}, "f.90", "integer between 0 and 10"),
        (lambda: parse_keyed_ints(["a", "b"], all_required=True), [1], "f", "object with keys a, b"),
        (lambda: parse_keyed_ints(["a", "b"], all_required=True), {"a": 1, "c": 1}, "f.c", "one of a, b"),
        (lambda: parse_keyed_ints(["a", "b"], all_required=True), {"a": 1}, "f.b", "present"),
        (
            lambda: parse_keyed_ints(["a", "b"], all_required=True, low=0, high=9),
            {"a": 10, "b": 0},
            "f.a",
            "integer 0–9",
        ),
        (lambda: parse_int_list(low=1, min_len=2), [1], "f", "list of at least 2 integers ≥ 1"),
        (lambda: parse_int_list(low=1, min_len=2), (1, 2), "f", "list of at least 2 integers ≥ 1"),
        (lambda: parse_int_list(low=1, min_len=2), [2, 0], "f[1]", "integer 1–1000000"),
    ],
)
def test_an_option_parser_refuses_naming_the_field_and_what_it_expects(make, value, field, expected):
    with pytest.raises(RulesError) as caught:
        make()(value, "f")
    assert (caught.value.code, caught.value.field, caught.value.params) == (
        "option.invalid",
        field,
        {"expected": expected},
    )


@pytest.mark.parametrize(
    ("make", "described"),
    [
        (lambda: parse_int(low=0, high=100, step=5), (OptionKind.INTEGER, 0, 100, 5, (), (), True, False)),
        (lambda: parse_int(nullable=True), (OptionKind.INTEGER, -1_000_000, 1_000_000, 1, (), (), True, True)),
        (lambda: parse_bool, (OptionKind.SWITCH, None, None, 1, (), (), True, False)),
        (lambda: parse_enum(_Kou), (OptionKind.CHOICE, None, None, 1, ("side", "trump"), (), True, False)),
        (lambda: parse_choice(["a", "b"]), (OptionKind.CHOICE, None, None, 1, ("a", "b"), (), True, False)),
        (lambda: parse_choice_list(["2", "3"]), (OptionKind.CHOICE_LIST, None, None, 1, ("2", "3"), (), True, False)),
        (lambda: parse_bid_table(), (OptionKind.BID_TABLE, -1_000_000, 1_000_000, 5, (), (), True, False)),
        (lambda: parse_bid_table(value_low=0, value_high=10), (OptionKind.BID_TABLE, 0, 10, 5, (), (), True, False)),
        (
            lambda: parse_keyed_ints(["a", "b"], all_required=False, low=0, high=9),
            (OptionKind.KEYED_INTEGERS, 0, 9, 1, (), ("a", "b"), False, False),
        ),
        (lambda: parse_int_list(low=2), (OptionKind.INTEGER_LIST, 2, None, 1, (), (), True, False)),
    ],
)
def test_an_option_type_describes_what_its_parser_accepts(make, described):
    parser = make()
    assert (
        parser.kind,
        parser.minimum,
        parser.maximum,
        parser.step,
        parser.choices,
        parser.keys,
        parser.all_required,
        parser.nullable,
    ) == described


def test_an_option_field_carries_its_default_doc_parser_and_dumper():
    parser = parse_int(low=0, high=9)
    plain = option(3, "three", parser)
    assert (plain.default, plain.metadata["doc"], plain.metadata["parse"]) == (3, "three", parser)
    assert plain.metadata["dump"](frozen_map({1: (_Kou.SIDE, 2)})) == {"1": ["side", 2]}  # JSON: str keys, lists
    dumped = option((), "a list", parse_int_list(), dump=len)
    assert (dumped.default, dumped.metadata["dump"]) == ((), len)


def test_a_frozen_map_refuses_every_change_and_hashes_by_its_items():
    table = frozen_map({"a": 1, "b": 2})
    for change in (
        lambda: table.__setitem__("c", 3),
        lambda: table.__delitem__("a"),
        table.clear,
        lambda: table.pop("a"),
        table.popitem,
        lambda: table.setdefault("c", 3),
        lambda: table.update(c=3),
    ):
        with pytest.raises(TypeError, match=r"^options are frozen; use dataclasses\.replace$"):
            change()
    assert table == {"a": 1, "b": 2}
    assert hash(table) == hash(frozen_map({"b": 2, "a": 1})) == hash((("a", 1), ("b", 2)))
    # Items are ordered by their repr, so keys of mixed types hash too: "('1', 'y')" before "(1, 'x')".
    assert hash(frozen_map({1: "x", "1": "y"})) == hash((("1", "y"), (1, "x")))


@pytest.mark.parametrize(
    ("overrides", "refusal"),
    [
        ([], ("document.not_object", "options", {})),
        ("target", ("document.not_object", "options", {})),
        ({"x": 1}, ("option.unknown", "options.x", {"name": "x"})),
    ],
)
def test_options_that_are_not_an_object_of_known_names_are_refused(overrides, refusal):
    with pytest.raises(RulesError) as caught:
        options_resolve(VARIANTS["baifen.benxi"].defaults(4), overrides)
    assert (caught.value.code, caught.value.field, caught.value.params) == refusal


SEAT_OF_4 = {"players": 4, "last": 3}  # error.seat.invalid: "an integer 0–{last}"


# Each refusal of a hand's fields (README "Errors"), by code, field, hand and the figures its message names.
@pytest.mark.parametrize(
    ("variant", "hand", "refusal"),
    [
        ("baifen.benxi", [], ("value.not_object", "hand", {})),
        ("baifen.benxi", {"partner": 1}, ("field.unknown", "partner", {"name": "partner"})),
        ("baifen.benxi", {"dealer": 4}, ("seat.invalid", "dealer", SEAT_OF_4)),
        ("baifen.benxi", {"declarer": -1}, ("seat.invalid", "declarer", SEAT_OF_4)),
        ("baifen.classic", {"partner": "1"}, ("seat.invalid", "partner", SEAT_OF_4)),
        ("baifen.benxi", {"bid": 1.5}, ("value.not_integer", "bid", {})),
        ("biaofen", {"bombs": -1}, ("value.not_count", "bombs", {})),
        ("baifen.benxi", {"captured": 33}, ("points.not_multiple_of_5", "captured", {"value": 33})),
        ("baifen.benxi", {"captured": 105}, ("points.over_deck", "captured", {"value": 105, "total": 100})),
        ("biaofen", {"bottom_points": 205}, ("points.over_deck", "bottom_points", {"value": 205, "total": 200})),
        ("baifen.benxi", {"forced": 1}, ("value.not_bool", "forced", {})),
        ("baifen.benxi", {"kou": "x"}, ("value.not_choice", "kou", {"choices": "side / trump / joker"})),
        ("hongxingwu", {"bottom_multiplier": 1}, ("multiplier.not_power_of_two", "bottom_multiplier", {})),
        ("hongxingwu", {"bottom_multiplier": True}, ("multiplier.not_power_of_two", "bottom_multiplier", {})),
        ("biaofen", {"penalties": {}}, ("value.not_list", "penalties", {})),
        ("biaofen", {"penalties": [1]}, ("value.not_object", "penalties[0]", {})),
        (
            "biaofen",
            {"penalties": [{"seat": 0, "kind": "shuai", "x": 1}]},
            ("field.unknown", "penalties[0].x", {"name": "x"}),
        ),
        ("biaofen", {"penalties": [{"seat": 0}]}, ("field.required", "penalties[0].kind", {})),
        ("biaofen", {"penalties": [{"kind": "shuai"}]}, ("field.required", "penalties[0].seat", {})),
        (
            "biaofen",
            {"penalties": [{"seat": 0, "kind": "shuai"}, {"seat": 4, "kind": "misdeal"}]},
            ("seat.invalid", "penalties[1].seat", SEAT_OF_4),
        ),
        (
            "biaofen",
            {"penalties": [{"seat": 0, "kind": "x"}]},
            ("value.not_choice", "penalties[0].kind", {"choices": "shuai / misdeal"}),
        ),
        ("gunzi", {"bottom_jokers": []}, ("value.not_object", "bottom_jokers", {})),
        ("gunzi", {"bottom_jokers": {"big": 1, "x": 0}}, ("field.unknown", "bottom_jokers.x", {"name": "x"})),
        ("gunzi", {"bottom_jokers": {"small": 4}}, ("jokers.out_of_range", "bottom_jokers.small", {})),
        ("gunzi", {"bottom_jokers": {"big": -1}}, ("jokers.out_of_range", "bottom_jokers.big", {})),
        ("baifen.benxi", {"redeal": "all_pass", "bid": 100}, ("field.not_on_redeal", "bid", {})),
        # README: a redeal carries `dealer` "not in level games": there it is no field at all.
        ("hongxingwu", {"redeal": "misdeal", "dealer": 0}, ("field.unknown", "dealer", {"name": "dealer"})),
        (
            "biaofen",
            {"dealer": 1, "redeal": "misdeal", "penalties": [], "bombs": 0},
            ("field.not_on_redeal", "bombs", {}),
        ),
    ],
)
def test_a_hand_refusal_names_its_code_field_hand_and_figures(variant, hand, refusal):
    with pytest.raises(RulesError) as caught:
        hand_parse(hand, n=3, variant=VARIANTS[variant], players=4)
    assert (caught.value.code, caught.value.field, caught.value.hand, caught.value.params) == (
        refusal[0],
        refusal[1],
        3,
        refusal[2],
    )


def test_penalties_and_bottom_jokers_are_read_whole():
    biaofen = hand_parse(
        {"penalties": [{"seat": 3, "kind": "misdeal"}, {"kind": "shuai", "seat": 0}]},
        n=1,
        variant=VARIANTS["biaofen"],
        players=4,
    )
    assert biaofen.penalties == (Penalty(seat=3, kind="misdeal"), Penalty(seat=0, kind="shuai"))
    gunzi = hand_parse({"bottom_jokers": {"big": 3}}, n=1, variant=VARIANTS["gunzi"], players=4)
    assert gunzi.bottom_jokers == BottomJokers(big=3, small=0)  # a kind left out is none of it


FOUR = ["a", "b", "c", "d"]
TWO_VARIANTS = {"erguai": VARIANTS["erguai"], "biaofen": VARIANTS["biaofen"]}


# The document's own refusals (README "Errors") by code, field and the figures their messages name.
@pytest.mark.parametrize(
    ("raw", "refusal"),
    [
        ({"variant": "erguai", "players": FOUR, "hands": [], "x": 1}, ("field.unknown", "x", {"name": "x"})),
        (
            {"variant": "gunzi", "players": FOUR, "hands": []},
            ("variant.unknown", "variant", {"choices": "erguai, biaofen"}),
        ),
        ({"variant": "biaofen", "players": ["a", "b"], "hands": []}, ("players.count", "players", {"counts": "3 / 4"})),
        ({"variant": "erguai", "players": "abcd", "hands": []}, ("players.count", "players", {"counts": "4"})),
        ({"variant": "erguai", "players": FOUR, "hands": [], "date": 20261130}, ("value.not_text", "date", {})),
        ({"variant": "erguai", "players": FOUR, "hands": [], "venue": ["x"]}, ("value.not_text", "venue", {})),
        ({"variant": "erguai", "players": FOUR, "hands": [], "date": "2026-13-01"}, ("value.not_date", "date", {})),
    ],
)
def test_a_document_refusal_names_its_code_field_and_figures(raw, refusal):
    with pytest.raises(RulesError) as caught:
        document_parse(raw, variants=TWO_VARIANTS)
    assert (caught.value.code, caught.value.field, caught.value.params) == refusal


def test_a_document_keeps_its_date_venue_and_trimmed_names():
    doc = document_parse(
        {"variant": "erguai", "players": [" a ", "b", "c", "d"], "hands": [], "date": "2026-11-30", "venue": "沈阳"},
        variants=TWO_VARIANTS,
    )
    assert (doc.players, doc.date, doc.venue, doc.hands) == (("a", "b", "c", "d"), "2026-11-30", "沈阳", ())
    bare = document_parse({"variant": "erguai", "players": FOUR, "hands": []}, variants=TWO_VARIANTS)
    assert (bare.date, bare.venue) == (None, None)
