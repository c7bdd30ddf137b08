"""Whatever the room (tables opened one after another, players shared or not) and whatever order its games end in,
the stored ratings are what a computation from the start gives: a game's end renumbers or re-rates the later
tables as a rebuild would (`ledger/ratings.py`, `ratings_append`)."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from settlement.ledger import ratings
from settlement.models import RatingRow
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_session, record_hands

pytestmark = pytest.mark.django_db

NAMES = ("甲", "乙", "丙", "丁")
# A table: its day, and the seat (if any) where table 0's player of that seat sits too; its other players are its own.
tables = st.lists(st.tuples(st.sampled_from([1, 2]), st.one_of(st.none(), st.integers(0, 3))), min_size=2, max_size=3)


def seated(table: int, shared: int | None) -> list[str]:
    return [f"{name}0" if seat == shared else f"{name}{table}" for seat, name in enumerate(NAMES)]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tables=tables, turns=st.lists(st.integers(0, 2), min_size=4, max_size=24))
def test_ratings_of_a_room_always_equal_a_computation_from_the_start(tables, turns):
    club = make_club()
    owner = make_member(club)
    sessions = [
        make_session(club, owner, players=seated(table, shared), date=datetime.date(2026, 1, day))
        for table, (day, shared) in enumerate(tables)
    ]
    recorded = [0] * len(sessions)
    for turn in turns:  # BENXI_EXAMPLE's fourth hand ends a 盘: every fourth hand at a table ends a game
        table = turn % len(sessions)
        record_hands(sessions[table], owner, [BENXI_EXAMPLE[recorded[table] % 4]])
        recorded[table] += 1
    assert ratings.ratings_verify(club=club) == []
    assert RatingRow.objects.filter(club=club).count() == 4 * sum(count // 4 for count in recorded)
