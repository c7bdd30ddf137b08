"""The director's actions on an event's rounds: finishing the event, letting a round's late hands in, a substitute
playing a seat for a round (whose result it is, the event says)."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from settlement import selectors, services
from settlement.ledger import LedgerError
from settlement.ledger.ratings import ratings_verify
from settlement.models import Change, Event, RatingRow, Role, Session
from settlement.rules.draws import Seating
from tests.factories import BENXI_EXAMPLE, make_club, make_member, record_hands

pytestmark = pytest.mark.django_db

VARIANT = "baifen.benxi"


@pytest.fixture
def club():
    return make_club()


@pytest.fixture
def owner(club):
    return make_member(club)


def _event(club, owner, count=8, **fields):
    return services.event_create(
        club=club, user=owner, name="周五晚", variant=VARIANT, players=[f"P{i}" for i in range(count)], **fields
    )


def _ids(event):
    """The players' ids in check-in order: P0, P1, …"""
    return list(event.players.order_by("id").values_list("player_id", flat=True))


def _manual(event, owner, tables, out=(), **kwargs):
    ids = _ids(event)
    seating = Seating(tables=tuple(tuple(ids[i] for i in t) for t in tables), sitting_out=tuple(ids[i] for i in out))
    return services.round_draw(event=event, user=owner, draw="manual", seating=seating, **kwargs)


def _kinds(club):
    return list(Change.objects.filter(club=club).order_by("pk").values_list("kind", flat=True))


# --- finishing the event ---


def test_finishing_with_open_tables_is_refused_naming_close_open_and_changes_nothing(club, owner):
    event = _event(club, owner)
    services.round_draw(event=event, user=owner, draw="random", seed=1)
    with pytest.raises(LedgerError) as refused:
        services.event_finish(event=event, user=owner)
    assert (refused.value.code, refused.value.field) == ("round.tables_open", "close_open")
    event.refresh_from_db()
    assert event.state == Event.State.RUNNING
    assert Session.objects.filter(event_table__round__event=event, status=Session.Status.OPEN).count() == 2


def test_finishing_with_close_open_closes_the_tables_ends_the_round_and_notes_the_feed(club, owner):
    event = _event(club, owner)
    drawn = services.round_draw(event=event, user=owner, draw="random", seed=1)
    services.event_finish(event=event, user=owner, close_open=True)
    event.refresh_from_db()
    drawn.refresh_from_db()
    assert event.state == Event.State.FINISHED
    assert drawn.ended_at is not None
    assert Session.objects.filter(event_table__round__event=event, status=Session.Status.OPEN).count() == 0
    assert _kinds(club)[-1] == "event.finished"
    assert selectors.event_standings(event=event).final is True


def test_finishing_twice_leaves_the_event_as_it_is_and_notes_the_feed_once(club, owner):
    event = _event(club, owner)
    services.event_finish(event=event, user=owner)
    services.event_finish(event=event, user=owner)
    assert _kinds(club).count("event.finished") == 1


@pytest.mark.parametrize(
    "write",
    [
        lambda e, u, p: services.event_check_in(event=e, user=u, players=["晚到"]),
        lambda e, u, p: services.round_draw(event=e, user=u, draw="random", close_open=True),
        lambda e, u, p: services.adjustment_add(event=e, user=u, player=p, kind="penalty", amount=5, reason="超时"),
        lambda e, u, p: services.event_player_leave(event=e, user=u, player=p),
    ],
    ids=["check-in", "draw", "adjustment", "leave"],
)
def test_after_the_finish_nothing_more_is_checked_in_drawn_or_adjusted(club, owner, write):
    event = _event(club, owner)
    services.round_draw(event=event, user=owner, draw="random", seed=1)
    services.event_finish(event=event, user=owner, close_open=True)
    player = event.players.first().player
    with pytest.raises(LedgerError) as refused:
        write(event, owner, player)
    assert (refused.value.code, refused.value.field) == ("event.finished", "event")


def test_a_viewer_cannot_finish_the_event(club, owner):
    event = _event(club, owner)
    with pytest.raises(PermissionDenied):
        services.event_finish(event=event, user=make_member(club, Role.VIEWER))


def test_the_standings_are_not_final_while_the_event_runs(club, owner):
    event = _event(club, owner)
    assert selectors.event_standings(event=event).final is False


# --- late hands ---


def test_allowing_late_hands_notes_the_feed_once_per_change(club, owner):
    event = _event(club, owner, late_hands="refused")
    services.round_draw(event=event, user=owner, draw="random", seed=1, length_minutes=30)
    services.round_late_allow(event=event, user=owner, n=1, allowed=True)
    services.round_late_allow(event=event, user=owner, n=1, allowed=True)  # as it is: nothing new
    services.round_late_allow(event=event, user=owner, n=1, allowed=False)
    assert _kinds(club).count("event.late_allowed") == 2
    assert event.rounds.get(n=1).late_allowed is False


def test_late_hands_for_a_round_not_drawn_are_refused_naming_the_round(club, owner):
    event = _event(club, owner)
    with pytest.raises(LedgerError) as refused:
        services.round_late_allow(event=event, user=owner, n=3, allowed=True)
    assert (refused.value.code, refused.value.field) == ("round.not_found", "round")


# --- substitutes ---
# The 本溪 example's first hand (rules/baifen.md; dealer and declarer seat 0, bid 80, 15 captured): the seats
# score 80, 15, 80, 15. At table 1 (P0 P1 P2 P3 in seat order) P1 is absent and 李娜 plays seat 1: 15.


def _substituted(club, owner, result="absent"):
    event = _event(club, owner, substitute_result=result)
    _manual(event, owner, [(0, 1, 2, 3), (4, 5, 6, 7)])
    absent = event.players.order_by("id")[1].player
    made = services.substitute_seat(event=event, user=owner, round_n=1, absent=absent, substitute="李娜")
    session = made.table.session
    record_hands(session, owner, BENXI_EXAMPLE[:1])
    return event, absent, made


def _rows(event):
    return {row.player.name: row for row in selectors.event_standings(event=event).rows}


def test_a_substitute_takes_the_absent_player_s_seat_and_the_seat_counts_for_the_absent_player(club, owner):
    event, _, made = _substituted(club, owner)
    seat = made.table.session.seats.get(seat=1)
    assert (seat.player.name, seat.player.is_guest, made.seat, made.table.number) == ("李娜", True, 1, 1)
    rows = _rows(event)
    assert rows["P1"].tables_total == 15 and rows["P1"].total == 15
    (played,) = rows["P1"].seats
    assert (played.substitute, played.absent, played.round) == ("李娜", "P1", 1)
    assert "李娜" not in rows  # not checked in: the seat is the absent player's
    assert [rows[f"P{i}"].total for i in (0, 2, 3)] == [80, 80, 15]
    assert "event.substituted" in _kinds(club)


def test_under_the_substitute_s_result_the_seat_counts_for_the_substitute(club, owner):
    event, _, _ = _substituted(club, owner, result="substitute")
    rows = _rows(event)
    assert rows["李娜"].tables_total == 15
    assert (rows["李娜"].seats[0].substitute, rows["李娜"].seats[0].absent) == ("李娜", "P1")
    assert rows["P1"].seats == () and rows["P1"].total == 0
    # Checked in for that round only: never drawn again.
    entry = event.players.get(player__name="李娜")
    assert (entry.joined, entry.left) == (1, 1)


def test_a_club_player_sitting_out_may_substitute_and_their_bye_does_not_count(club, owner):
    event = _event(club, owner, count=9, substitute_result="substitute", bye="figure", bye_figure=50)
    _manual(event, owner, [(0, 1, 2, 3), (4, 5, 6, 7)], out=(8,))
    players = [e.player for e in event.players.order_by("id")]
    services.substitute_seat(event=event, user=owner, round_n=1, absent=players[1], substitute=players[8])
    rows = _rows(event)
    assert (rows["P8"].byes, rows["P8"].bye_total, len(rows["P8"].seats)) == (0, 0, 1)


@pytest.mark.parametrize(
    ("round_n", "absent_i", "substitute", "code", "field"),
    [
        (2, 1, "李娜", "round.not_found", "round"),
        (1, 8, "李娜", "substitute.absent_not_seated", "absent"),  # P8 sits out round 1
        (1, 1, "P5", "substitute.already_seated", "substitute"),
        (1, 1, "P1", "substitute.already_seated", "substitute"),
        (1, 1, "  ", "substitute.required", "substitute"),
    ],
)
def test_a_bad_substitute_is_refused_naming_the_field_and_changes_nothing(
    club, owner, round_n, absent_i, substitute, code, field
):
    event = _event(club, owner, count=9)
    _manual(event, owner, [(0, 1, 2, 3), (4, 5, 6, 7)], out=(8,))
    players = [e.player for e in event.players.order_by("id")]
    seats_before = sorted(
        Session.objects.filter(event_table__round__event=event).values_list("seats__player", flat=True)
    )
    with pytest.raises(LedgerError) as refused:
        services.substitute_seat(
            event=event, user=owner, round_n=round_n, absent=players[absent_i], substitute=substitute
        )
    assert (refused.value.code, refused.value.field) == (code, field)
    seats_after = sorted(
        Session.objects.filter(event_table__round__event=event).values_list("seats__player", flat=True)
    )
    assert seats_after == seats_before and not event.substitutes.exists()


def test_a_substitute_in_a_finished_event_is_refused(club, owner):
    event = _event(club, owner)
    services.round_draw(event=event, user=owner, draw="random", seed=1)
    services.event_finish(event=event, user=owner, close_open=True)
    absent = event.players.first().player
    with pytest.raises(LedgerError) as refused:
        services.substitute_seat(event=event, user=owner, round_n=1, absent=absent, substitute="李娜")
    assert (refused.value.code, refused.value.field) == ("event.finished", "event")


# --- a substitute and the club's ratings ---
# The 本溪 example's first four hands end 盘 1, seats 1 + 3 winning it (tests/factories.py). At table 1 (P0 P1 P2 P3
# in seat order) P1 is absent and 李娜 plays seat 1: the game's winners are 李娜 and P3, all four fresh, so each
# rating is tests/ledger/test_ratings.py's two against two, worked by hand there.
WIN_2V2 = (26.964295, 8.177963)
LOSE_2V2 = (23.035705, 8.177963)


@pytest.mark.parametrize("result", ["absent", "substitute"])
@pytest.mark.parametrize("named", ["after the game", "before the game"])
def test_the_ratings_count_the_seat_s_game_for_the_substitute_who_played_it(club, owner, result, named):
    event = _event(club, owner, substitute_result=result)
    _manual(event, owner, [(0, 1, 2, 3), (4, 5, 6, 7)])
    absent = event.players.order_by("id")[1].player
    session = event.rounds.get().tables.get(number=1).session
    if named == "after the game":
        record_hands(session, owner, BENXI_EXAMPLE[:4])
    services.substitute_seat(event=event, user=owner, round_n=1, absent=absent, substitute="李娜")
    if named == "before the game":
        record_hands(session, owner, BENXI_EXAMPLE[:4])
    rated = {
        row.player.name: (row.rank, row.mu, row.sigma)
        for row in RatingRow.objects.filter(session=session).select_related("player")
    }
    assert set(rated) == {"P0", "李娜", "P2", "P3"}
    for name in ("李娜", "P3"):
        assert rated[name][0] == 1 and rated[name][1:] == pytest.approx(WIN_2V2, abs=1e-5)
    for name in ("P0", "P2"):
        assert rated[name][0] == 2 and rated[name][1:] == pytest.approx(LOSE_2V2, abs=1e-5)
    assert not RatingRow.objects.filter(player=absent).exists()
    # The stored ratings are what a rebuild from the start computes (`ledger_verify`).
    assert ratings_verify(club=club) == []
