"""The event standings: each player's table totals from the stored rows, plus adjustments, byes per the event's
rule; a fixed number of queries whatever the tables."""

from __future__ import annotations

from itertools import pairwise

import pytest

from settlement import selectors, services
from settlement.selectors.events import event_standings
from tests.factories import BENXI_EXAMPLE, make_club, make_member, record_hands

pytestmark = pytest.mark.django_db


def _event(count, **fields):
    club = make_club()
    owner = make_member(club)
    event = services.event_create(
        club=club, user=owner, name="晚", variant="baifen.benxi", players=[f"P{i}" for i in range(count)], **fields
    )
    return owner, event


@pytest.mark.parametrize("tables", [1, 10])
def test_the_standings_read_seven_queries_whatever_the_tables(tables, django_assert_num_queries):
    owner, event = _event(4 * tables)
    drawn = services.round_draw(event=event, user=owner, draw="random", seed=1)
    record_hands(drawn.tables.first().session, owner, BENXI_EXAMPLE[:2])
    with django_assert_num_queries(7):
        standings = event_standings(event=event)
    assert len(standings.rows) == 4 * tables


def test_a_player_s_total_is_their_seats_totals_plus_adjustments_and_ties_share_a_rank():
    owner, event = _event(4)
    drawn = services.round_draw(event=event, user=owner, draw="random", seed=5)
    session = drawn.tables.get().session
    record_hands(session, owner, BENXI_EXAMPLE[:3])
    seats = {row.player.pk: row for row in selectors.sessions_summarize(sessions=[session])[0].seats}
    player = next(iter(seats))
    services.adjustment_add(event=event, user=owner, player=seats[player].player, kind="award", amount=4, reason="x")
    rows = {row.player.pk: row for row in event_standings(event=event).rows}
    for player_id, seat in seats.items():
        assert rows[player_id].total == seat.total + (4 if player_id == player else 0)
    ranked = sorted(rows.values(), key=lambda row: row.rank)
    for a, b in pairwise(ranked):
        assert (a.rank == b.rank) == (a.total == b.total)


@pytest.mark.parametrize(("bye", "figure"), [("zero", None), ("figure", 25), ("average", None)])
def test_a_bye_counts_as_the_event_says(bye, figure):
    owner, event = _event(5, bye=bye, bye_figure=figure)
    drawn = services.round_draw(event=event, user=owner, draw="random", seed=9)
    (out,) = drawn.sitting_out
    rows = {row.player.pk: row for row in event_standings(event=event).rows}
    assert rows[out].byes == 1
    # No hands yet: the average of no table is 0.
    assert rows[out].total == {"zero": 0, "figure": 25, "average": 0}[bye]
    assert str(figure or "") in event_standings(event=event).rule
