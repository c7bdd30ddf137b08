"""Pairs events in the engine: every pair sits as partners at one table, nobody twice, byes by pair; balanced
avoids repeated opponent pairs; refusals named."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from settlement.rules.base import RulesError
from settlement.rules.draws import Seating
from settlement.rules.pairs import pairs_check, pairs_seating_draw

METHODS = ["random", "balanced", "swiss"]


def _pairs(count):
    return [(2 * i + 1, 2 * i + 2) for i in range(count)]


def _partner_sides(table):
    return {frozenset((table[0], table[2])), frozenset((table[1], table[3]))}


@given(
    method=st.sampled_from(METHODS),
    count=st.integers(2, 30),
    seed=st.integers(0, 2**32),
    rounds=st.integers(1, 4),
)
def test_every_pair_sits_as_partners_and_nobody_twice(method, count, seed, rounds):
    pairs = _pairs(count)
    players = [p for pair in pairs for p in pair]
    history: list[Seating] = []
    for _ in range(rounds):
        seating = pairs_seating_draw(
            variant="baifen.benxi",
            method=method,
            pairs=pairs,
            players=players,
            seed=seed,
            history=history,
            ranking=players[::-1],
        )
        seated = seating.seated()
        assert len(seated) == len(set(seated))
        assert sorted([*seated, *seating.sitting_out]) == sorted(players)
        assert len(seating.sitting_out) == (2 if count % 2 else 0)
        if seating.sitting_out:
            assert frozenset(seating.sitting_out) in {frozenset(p) for p in pairs}
        for table in seating.tables:
            assert len(table) == 4
            assert _partner_sides(table) <= {frozenset(p) for p in pairs}
        history.append(seating)
        seed += 1


def test_the_same_seed_draws_the_same_seating():
    args = {"variant": "baifen.benxi", "method": "random", "pairs": _pairs(6), "players": range(1, 13), "seed": 9}
    assert pairs_seating_draw(**args) == pairs_seating_draw(**args)


@pytest.mark.parametrize("count", [4, 8])
def test_balanced_meets_every_other_pair_once_before_any_twice(count):
    # 4 pairs over 3 rounds, 8 over 7: a round-robin is possible, so no opponent pair repeats.
    pairs = _pairs(count)
    players = [p for pair in pairs for p in pair]
    history: list[Seating] = []
    met: list[frozenset] = []
    for n in range(count - 1):
        seating = pairs_seating_draw(
            variant="baifen.benxi", method="balanced", pairs=pairs, players=players, seed=n, history=history
        )
        met += [frozenset(frozenset(side) for side in _partner_sides(t)) for t in seating.tables]
        history.append(seating)
    assert len(met) == len(set(met)) == count * (count - 1) // 2


def test_an_odd_number_of_pairs_rotates_the_bye_by_pair():
    pairs = _pairs(3)
    players = [p for pair in pairs for p in pair]
    history: list[Seating] = []
    outs = []
    for n in range(3):
        seating = pairs_seating_draw(
            variant="baifen.benxi", method="random", pairs=pairs, players=players, seed=n, history=history
        )
        outs.append(seating.sitting_out)
        history.append(seating)
    assert sorted(outs) == [(1, 2), (3, 4), (5, 6)]


@pytest.mark.parametrize(
    ("pairs", "players", "code", "field"),
    [
        ([(1, 2), (2, 3)], [1, 2, 3], "pairs.player_twice", "pairs"),
        ([(1, 2), (3, 9)], [1, 2, 3], "pairs.not_checked_in", "pairs"),
        ([(1, 2)], [1, 2, 3], "pairs.unpaired", "pairs"),
        ([(1, 1)], [1], "pairs.not_two", "pairs"),
        ([(1, 2, 3)], [1, 2, 3], "pairs.not_two", "pairs"),
    ],
)
def test_pairs_that_do_not_make_an_arrangement_are_refused_by_name(pairs, players, code, field):
    with pytest.raises(RulesError) as caught:
        pairs_check(pairs=pairs, players=players)
    assert (caught.value.code, caught.value.field) == (code, field)


def test_a_variant_without_fixed_partnerships_has_no_pairs():
    with pytest.raises(RulesError) as caught:
        pairs_seating_draw(variant="biaofen", method="random", pairs=_pairs(2), players=range(1, 5), seed=1)
    assert (caught.value.code, caught.value.field) == ("pairs.variant", "pairs")


def test_a_manual_seating_that_splits_a_pair_is_refused():
    split = Seating(tables=((1, 2, 3, 4),))  # seats 1 + 3 are players 1 and 3: pairs (1, 2) and (3, 4) split
    with pytest.raises(RulesError) as caught:
        pairs_seating_draw(
            variant="baifen.benxi", method="manual", pairs=_pairs(2), players=range(1, 5), seed=1, seating=split
        )
    assert (caught.value.code, caught.value.field) == ("pairs.split", "seating")
    together = Seating(tables=((1, 4, 2, 3),))
    assert pairs_seating_draw(
        variant="baifen.benxi", method="manual", pairs=_pairs(2), players=range(1, 5), seed=1, seating=together
    ).tables == ((1, 4, 2, 3),)
