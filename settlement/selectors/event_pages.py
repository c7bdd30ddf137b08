"""Reads for the director's event pages: the checked-in players, each round's tables with their players in seat
order and live totals, the standings' adjustments with author and round, and the big screen's validator (one
query: the event's stored version and its tables').

Each is a fixed number of queries whatever the number of tables and rounds; the figures come from
`selectors.events.event_standings` (stored rows, nothing replayed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import PositiveBigIntegerField, Subquery, Sum
from django.db.models.functions import Coalesce

from ..ledger import sql
from ..models import Adjustment, Event, EventPlayer, Player, Round, RoundTable, Session, SessionSeat
from .events import EventStandings

# Changes when what the big screen shows changes shape (bump it with the fragment's template).
SCREEN_VERSION = 3


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


def tables_version(event: Any) -> Coalesce:
    """The sum of the `version` of every table's session of `event` (an id, or an `OuterRef` to one), as a
    subquery: 0 before the first draw."""
    versions = (
        Session.objects.filter(event_table__round__event=event)
        .order_by()
        .values("event_table__round__event")
        .annotate(total=Sum("version"))
        .values("total")
    )
    return Coalesce(Subquery(versions), 0, output_field=PositiveBigIntegerField())


def screen_etag(*, event_id: int, event_version: int, tables: int, lang: str) -> str:
    """The big screen's validator from the event's stored `version` (every event write bumps it: check-ins,
    leaving, rounds, adjustments, substitutes, late hands, the finish) and the sum of its tables' sessions'
    (every hand, correction, close or reopen, seated player renamed), and the reader's language."""
    return f'"ev-{SCREEN_VERSION}-{event_id}-{event_version}-{tables}-{lang}"'


def event_screen_etag(*, event: Event, lang: str) -> str:
    """The validator of what the big screen shows (`screen_etag`): one query whatever the tables, before anything
    else is read or rendered."""
    version, tables = (
        Event.objects.filter(pk=event.pk).annotate(tables=tables_version(event.pk)).values_list("version", "tables")
    ).get()
    return screen_etag(event_id=event.pk, event_version=version, tables=tables, lang=lang)


def screen_etag_find(
    *, lang: str, token: str | None = None, event_id: int | None = None, slug: str = "", user_id: int | None = None
) -> tuple[int, str] | None:
    """The event's id and its big screen's ETag (`screen_etag`), in one written-out statement
    (`ledger.sql.event_versions`) and no model built: what a poll that finds nothing new costs. Of the event a
    working share `token` opens, or of event `event_id` when it is club `slug`'s and user `user_id` a member of
    it; None when there is no such event."""
    found = sql.event_versions(token=token, event_id=event_id, slug=slug, user_id=user_id)
    if found is None:
        return None
    event_id, version, tables = found
    return event_id, screen_etag(event_id=event_id, event_version=version, tables=tables, lang=lang)


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
