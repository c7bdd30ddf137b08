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
    level_band,
    scoring_group,
)
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
