"""Each variant's family, unit and declaring side (rules/families.py): tables worked from the rules files."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from settlement.rules.base import HandInput, HandResult, HandStatus
from settlement.rules.families import (
    SCORING,
    Family,
    Unit,
    declarer_level,
    declaring_side,
    group_label,
    group_order,
    level_band,
    scoring_group,
)
from settlement.rules.options import options_resolve
from settlement.rules.registry import VARIANTS


def _result(declarer):
    return HandResult(
        status=HandStatus.SCORED if declarer is not None else HandStatus.REDEAL,
        dealer=0,
        declarer=declarer,
        outcome="x",
        tags=(),
        declarer_won=True,
        deltas=(0, 0, 0, 0),
        steps=(),
        next_dealer=0,
    )


def test_every_registered_variant_says_its_family_and_unit():
    assert set(SCORING) == set(VARIANTS)


@pytest.mark.parametrize(
    ("variant", "family", "unit"),
    [
        # rules/README.md "Results": 分 for 打百分 (a 盘's points), 注 for classic, 分 of stake for 打二鬼,
        # 分 for 打滚子 (paid player to player), 档 for 标分, 级 for 红星五 (and 升级).
        ("baifen.benxi", Family.BAIFEN, Unit.PAN_POINTS),
        ("baifen.fushun", Family.BAIFEN, Unit.PAN_POINTS),
        ("baifen.shenyang", Family.BAIFEN, Unit.PAN_POINTS),
        ("baifen.classic", Family.BAIFEN, Unit.ZHU),
        ("erguai", Family.ERGUAI, Unit.STAKE_POINTS),
        ("gunzi", Family.GUNZI, Unit.STAKE_POINTS),
        ("biaofen", Family.BIAOFEN, Unit.DANG),
        ("hongxingwu", Family.HONGXINGWU, Unit.LEVELS),
        ("shengji", Family.SHENGJI, Unit.LEVELS),
    ],
)
def test_each_variant_counts_in_its_family_and_unit(variant, family, unit):
    assert (SCORING[variant].family, SCORING[variant].unit) == (family, unit)
    assert scoring_group(variant) == f"{family}/{unit}"


@pytest.mark.parametrize(
    ("group", "order"),
    [
        # Family: baifen, erguai, biaofen, hongxingwu, gunzi, shengji; Unit: pan_points, zhu, stake_points,
        # dang, levels (their order of declaration in families.py).
        ("baifen/pan_points", (0, 0)),
        ("baifen/zhu", (0, 1)),
        ("erguai/stake_points", (1, 2)),
        ("biaofen/dang", (2, 3)),
        ("hongxingwu/levels", (3, 4)),
        ("gunzi/stake_points", (4, 2)),
        ("shengji/levels", (5, 4)),
    ],
)
def test_groups_sort_by_the_order_families_and_units_are_declared_in(group, order):
    assert group_order(group) == order


def test_stake_points_of_two_families_are_two_groups():
    assert scoring_group("erguai") != scoring_group("gunzi")
    assert scoring_group("baifen.benxi") != scoring_group("baifen.classic")


@pytest.mark.parametrize(
    ("group", "lang", "label"),
    [
        ("baifen/pan_points", "zh-Hans", "打百分 · 盘分"),
        ("erguai/stake_points", "en", "Erguai (打二鬼) · stake points"),
        ("hongxingwu/levels", "zh-Hans", "济源红星五 · 级"),
    ],
)
def test_a_group_is_named_in_the_language(group, lang, label):
    assert group_label(group, lang) == label


@pytest.mark.parametrize(
    ("variant", "declarer", "partner", "players", "sides"),
    [
        ("baifen.benxi", 1, None, 4, (False, True, False, True)),  # fixed teams: the declarer's parity
        ("gunzi", 2, None, 4, (True, False, True, False)),
        ("shengji", 3, None, 6, (False, True, False, True, False, True)),  # 6 players: odd seats
        ("baifen.classic", 0, 3, 4, (True, False, False, True)),  # the friend the called card named
        ("erguai", 2, None, 4, (False, False, True, False)),  # 1 against 3
        ("biaofen", 1, None, 3, (False, True, False)),  # the declarer alone
        ("biaofen", 0, 2, 4, (True, False, False, False)),  # no partner in 标分, whatever is entered
        ("baifen.benxi", None, None, 4, None),  # a redeal: no side
    ],
)
def test_the_declaring_side(variant, declarer, partner, players, sides):
    hand = HandInput(n=1, present=frozenset(), partner=partner)
    assert declaring_side(variant, hand, _result(declarer), players) == sides


@given(st.sampled_from(sorted(SCORING)), st.integers(0, 3), st.one_of(st.none(), st.integers(0, 3)))
def test_the_declarer_is_always_on_the_declaring_side_with_at_most_one_partner_in_four(variant, declarer, partner):
    if partner == declarer:
        partner = None
    sides = declaring_side(variant, HandInput(n=1, present=frozenset(), partner=partner), _result(declarer), 4)
    assert sides is not None and sides[declarer]
    assert 1 <= sum(sides) <= 2


@pytest.mark.parametrize(
    ("level", "band"),
    [("2", "2–5"), ("5", "2–5"), ("6", "6–9"), ("9", "6–9"), ("10", "10–K"), ("K", "10–K"), ("A", "A"), ("X", "X")],
)
def test_level_bands(level, band):
    assert level_band(level) == band


def test_the_declaring_teams_level_comes_from_the_state_before_the_hand():
    hongxingwu = VARIANTS["hongxingwu"].defaults(4)
    gunzi = VARIANTS["gunzi"].defaults(4)
    assert declarer_level("hongxingwu", hongxingwu, None, 0) == "2"  # a game's first hand: the start level
    assert declarer_level("gunzi", gunzi, None, 1) == "3"  # 打滚子 starts at 3
    assert declarer_level("hongxingwu", hongxingwu, [9, 1], 2) == "J"  # team 0 at index 9 of 2 … A
    assert declarer_level("gunzi", gunzi, [6, 2], 3) == "4"
    assert declarer_level("baifen.benxi", None, None, 0) is None
    assert declarer_level("hongxingwu", hongxingwu, [0, 0], None) is None


@pytest.mark.parametrize(
    ("variant", "overrides", "levels", "declarer", "level"),
    [
        # 升级 (shengji.md): both teams start at the first level of `ladder`, then play on it.
        ("shengji", {}, None, 0, "2"),
        ("shengji", {"ladder": ["3", "5", "7", "A"]}, None, 1, "3"),
        ("shengji", {"ladder": ["3", "5", "7", "A"]}, [2, 0], 4, "7"),  # seat 4 is team 0, at index 2
        ("shengji", {"ladder": ["3", "5", "7", "A"]}, [2, 1], 3, "5"),
        # 红星五 (hongxingwu.md): a game starts at `start_level`, wherever it is on the ladder.
        ("hongxingwu", {"start_level": "5"}, None, 2, "5"),
        ("hongxingwu", {"ladder": ["2", "5", "8", "J", "A"]}, [3, 1], 1, "5"),
    ],
)
def test_the_declaring_teams_level_is_read_on_the_variants_own_ladder(variant, overrides, levels, declarer, level):
    options = options_resolve(VARIANTS[variant].defaults(4), overrides)
    assert declarer_level(variant, options, levels, declarer) == level
