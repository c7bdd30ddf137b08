"""Reads for the director's event pages: the checked-in players, each round's tables with their players in seat
order and live totals, the standings' adjustments with author and round, and the big screen's validator.

Each is a fixed number of queries whatever the number of tables and rounds; the figures come from
`selectors.events.event_standings` (stored rows, nothing replayed).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Max, Q

from ..models import Adjustment, Event, EventPlayer, HandRevision, Player, Round, RoundTable, Session, SessionSeat
from .events import EventStandings

# Changes when what the big screen shows changes shape (bump it with the fragment's template).
SCREEN_VERSION = 2


@dataclass(frozen=True, kw_only=True)
class SeatLine:
    seat: int
    player: Player
    total: int
    hands: int


@dataclass(frozen=True, kw_only=True)
class TableLine:
    round: int
    number: int
    session: Session
    seats: tuple[SeatLine, ...]

    @property
    def hands(self) -> int:
        return max((s.hands for s in self.seats), default=0)

    @property
    def is_open(self) -> bool:
        return self.session.status == Session.Status.OPEN


@dataclass(frozen=True, kw_only=True)
class RoundLine:
    round: Round
    tables: tuple[TableLine, ...]
    sitting_out: tuple[Player, ...]

    @property
    def open_tables(self) -> int:
        return sum(1 for t in self.tables if t.is_open)


def event_players(*, event: Event) -> list[EventPlayer]:
    """Everyone checked in, in check-in order, with their player (one query)."""
    return list(EventPlayer.objects.filter(event=event).select_related("player").order_by("id"))


def event_rounds(*, event: Event, standings: EventStandings) -> list[RoundLine]:
    """Every round with its tables, each table's players in seat order with their totals there (three queries)."""
    rounds = list(Round.objects.filter(event=event).order_by("n"))
    tables = list(
        RoundTable.objects.filter(round__event=event).select_related("session", "session__club").order_by("number")
    )
    seats = SessionSeat.objects.filter(session__event_table__round__event=event).select_related("player")
    figures = {(s.session_id, s.seat): s for row in standings.rows for s in row.seats}
    by_session: dict[int, list[SeatLine]] = {}
    for seat in seats.order_by("seat"):
        figure = figures.get((seat.session_id, seat.seat))
        by_session.setdefault(seat.session_id, []).append(
            SeatLine(
                seat=seat.seat,
                player=seat.player,
                total=figure.total if figure else 0,
                hands=figure.hands if figure else 0,
            )
        )
    names = {row.player.pk: row.player for row in standings.rows}
    by_round: dict[int, list[TableLine]] = {}
    numbers = {r.pk: r.n for r in rounds}
    for table in tables:
        by_round.setdefault(table.round_id, []).append(
            TableLine(
                round=numbers[table.round_id],
                number=table.number,
                session=table.session,
                seats=tuple(by_session.get(table.session_id, ())),
            )
        )
    return [
        RoundLine(
            round=r,
            tables=tuple(by_round.get(r.pk, ())),
            sitting_out=tuple(names[p] for p in r.sitting_out if p in names),
        )
        for r in rounds
    ]


def event_open_tables(*, event: Event) -> list[RoundTable]:
    """The last round's tables still open, by number (one query)."""
    last = Round.objects.filter(event=event).order_by("-n").values("pk")[:1]
    return list(
        RoundTable.objects.filter(round__in=last, session__status=Session.Status.OPEN)
        .select_related("round")
        .order_by("number")
    )


def event_adjustments(*, event: Event) -> list[Adjustment]:
    """The director's adjustments, oldest first, with their round, player and author (one query)."""
    return list(
        Adjustment.objects.filter(event=event).select_related("round", "player", "author").order_by("created_at", "id")
    )


def event_screen_etag(*, event: Event, lang: str) -> str:
    """The validator of what the big screen shows: the newest hand revision at any of the event's tables, the
    tables closed, the adjustments, the rounds and players, the event's state, the reader's language (four
    queries whatever the tables)."""
    revision = HandRevision.objects.filter(hand__session__event_table__round__event=event).aggregate(m=Max("id"))["m"]
    tables = RoundTable.objects.filter(round__event=event).aggregate(
        n=Count("id"),
        open=Count("id", filter=Q(session__status=Session.Status.OPEN)),
        rounds=Max("round__n"),
        allowed=Count("round", filter=Q(round__late_allowed=True), distinct=True),  # the clock's late-hand words
    )
    others = EventPlayer.objects.filter(event=event).aggregate(n=Count("id"), left=Count("left"))
    adjustment = Adjustment.objects.filter(event=event).aggregate(m=Max("id"))["m"]
    parts = (
        SCREEN_VERSION,
        event.pk,
        event.state,
        revision or 0,
        tables["n"],
        tables["open"],
        tables["rounds"] or 0,
        tables["allowed"],
        others["n"],
        others["left"],
        adjustment or 0,
        lang,
    )
    return '"ev-' + "-".join(str(part) for part in parts) + '"'


@dataclass(frozen=True, kw_only=True)
class SessionEvent:
    event: Event
    round: int
    table: int
    round_row: Round | None = None  # the round itself: its clock (`presentation.clock.round_clock`)


def session_event(*, session: Session) -> SessionEvent | None:
    """The event a session is a table of (its round and table number), or None (one query)."""
    table = RoundTable.objects.filter(session=session).select_related("round", "round__event").first()
    if table is None:
        return None
    return SessionEvent(event=table.round.event, round=table.round.n, table=table.number, round_row=table.round)
