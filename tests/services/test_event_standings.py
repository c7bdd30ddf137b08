"""The event standings: each player's table totals from the stored rows, plus adjustments, byes per the event's
rule; a fixed number of queries whatever the tables."""

from __future__ import annotations

from itertools import pairwise

import pytest

from settlement import selectors, services
from settlement.ledger import LedgerError
from settlement.selectors.events import TableSeat, _placed, event_standings
from tests.factories import BENXI_EXAMPLE, make_club, make_member, record_hands

pytestmark = pytest.mark.django_db


def _event(count, **fields):
    club = make_club()
    owner = make_member(club)
    event = services.event_create(
        club=club, user=owner, name="晚", variant="baifen.benxi", players=[f"P{i}" for i in range(count)], **fields
    )
    return owner, event


@pytest.mark.parametrize("ranking", ["sum", "placement"])
@pytest.mark.parametrize("tables", [1, 10])
def test_the_standings_read_seven_queries_whatever_the_tables(tables, ranking, django_assert_num_queries):
    owner, event = _event(4 * tables, ranking=ranking)
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


def _seat(session, total):
    return TableSeat(round=1, table=1, session_id=session, seat=0, total=total, hands=1)


def test_players_tied_at_a_table_share_the_points_of_the_places_they_cover_rounded_down():
    by_player = {1: [_seat(7, 10)], 2: [_seat(7, 10)], 3: [_seat(7, 5)], 4: [_seat(7, -25)]}
    placed = _placed(by_player, [4, 2, 1, 0])
    assert {p: seats[0].points for p, seats in placed.items()} == {1: 3, 2: 3, 3: 1, 4: 0}
    three_way = {1: [_seat(8, 0)], 2: [_seat(8, 0)], 3: [_seat(8, 0)], 4: [_seat(8, -1)]}
    assert {p: s[0].points for p, s in _placed(three_way, [4, 2, 1, 0]).items()} == {1: 2, 2: 2, 3: 2, 4: 0}


def test_placement_ranks_by_points_then_the_table_totals_and_states_its_rule():
    owner, event = _event(4, ranking="placement")
    assert event.placement_points == [4, 2, 1, 0]
    drawn = services.round_draw(event=event, user=owner, draw="random", seed=5)
    session = drawn.tables.get().session
    record_hands(session, owner, BENXI_EXAMPLE[:3])
    seats = selectors.sessions_summarize(sessions=[session])[0].seats
    totals = sorted((seat.total for seat in seats), reverse=True)
    standings = event_standings(event=event)
    assert "4 / 2 / 1 / 0" in standings.rule
    for row in standings.rows:
        (seat,) = row.seats
        above = sum(1 for t in totals if t > seat.total)
        tied = totals.count(seat.total)
        assert row.points_total == row.total == sum([4, 2, 1, 0][above : above + tied]) // tied
    for a, b in pairwise(standings.rows):
        assert (a.total, a.tables_total) >= (b.total, b.tables_total)


@pytest.mark.parametrize(
    ("ranking", "points"), [("placement", [4, 2, 1]), ("placement", [1, 2, 3, 4]), ("sum", [4, 2, 1, 0])]
)
def test_placement_points_not_one_per_place_best_first_are_refused_by_name(ranking, points):
    with pytest.raises(LedgerError) as refused:
        _event(4, ranking=ranking, placement_points=points)
    assert refused.value.field == "placement_points"
