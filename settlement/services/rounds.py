"""An event's rounds: draw the next one and open its tables; let late hands in after its clock ran out.

A round's tables are ordinary sessions (their pages, share links, receipts, corrections work as for any
session), made with the round in one transaction and linked to it by `RoundTable` rows. The seating comes from
the engine's pure draw (`rules.draws.seating_draw`), its seed stored with the round so it can be drawn again.
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from .. import policy
from ..ledger import LedgerError
from ..models import Change, Event, EventPlayer, Round, RoundTable, Session, SessionSeat
from ..rules.base import RulesError
from ..rules.draws import DrawMethod, Seating, seating_draw
from ..rules.options import options_dump, options_resolve
from ..rules.pairs import pairs_seating_draw
from ..rules.registry import VARIANTS
from .common import User, client_key_clean, request_digest
from .events import event_changes_append, event_lock, event_refuse_finished, keyed_replay
from .sessions import session_close


def round_draw(
    *,
    event: Event,
    user: User,
    draw: str,
    seating: Seating | None = None,
    seed: int | None = None,
    ranking: Sequence[int] = (),
    close_open: bool = False,
    length_minutes: int | None = None,
    client_key: str = "",
) -> Round:
    """Draw the next round and open its tables, all in one transaction.

    The players are those checked in for the round; `seating` is the director's (`manual`), `ranking` the
    standings so far, best first (`swiss`: the caller reads them, `selectors.event_standings`). Refused: a draw
    the engine refuses (too few players, a player at two tables or left out), or the last round's tables still
    open, unless `close_open` (the director closes them with the draw).
    """
    client_key = client_key_clean(client_key)
    digest = (
        request_digest(
            {
                "draw": draw,
                "seating": [list(map(list, seating.tables)), list(seating.sitting_out)] if seating else None,
                "seed": seed,
                "close_open": close_open,
                "length_minutes": length_minutes,
            }
        )
        if client_key
        else ""
    )
    if draw not in set(DrawMethod):
        raise LedgerError.from_rules(RulesError("draw.unknown_method", field="draw", choices=", ".join(DrawMethod)))
    if length_minutes is not None and (
        isinstance(length_minutes, bool) or not isinstance(length_minutes, int) or not 1 <= length_minutes <= 600
    ):
        raise LedgerError.from_rules(RulesError("value.not_integer", field="length_minutes"))
    with transaction.atomic():
        event = event_lock(event)
        policy.require_direct(user=user, club_id=event.club_id)
        if client_key:
            existing = Round.objects.filter(event=event, client_key=client_key).first()
            if existing is not None:
                return keyed_replay(existing, digest=digest, subject="round")
        event_refuse_finished(event)
        rounds = list(event.rounds.order_by("n"))
        n = len(rounds) + 1
        if rounds:
            _last_round_close(rounds[-1], user=user, close_open=close_open)
        present = list(
            EventPlayer.objects.filter(event=event, joined__lte=n)
            .exclude(left__lt=n)
            .values_list("player_id", flat=True)
        )
        seed = secrets.randbits(62) if seed is None else seed
        try:
            if event.pairs:
                drawn = pairs_seating_draw(
                    variant=event.variant,
                    method=draw,
                    pairs=[(a, b) for a, b in event.pairs],
                    players=present,
                    seed=seed,
                    history=_history(rounds),
                    ranking=ranking,
                    seating=seating,
                )
            else:
                drawn = seating_draw(
                    variant=event.variant,
                    method=draw,
                    players=present,
                    seed=seed,
                    history=_history(rounds),
                    ranking=ranking,
                    sizes=event.table_sizes,
                    seating=seating,
                )
        except RulesError as error:
            raise LedgerError.from_rules(error) from error
        now = timezone.now()
        made = Round.objects.create(
            event=event,
            n=n,
            draw=draw,
            seed=seed,
            sitting_out=list(drawn.sitting_out),
            length_minutes=length_minutes,
            started_at=now,
            ends_at=now + datetime.timedelta(minutes=length_minutes) if length_minutes else None,
            created_by=user,
            client_key=client_key,
            client_digest=digest,
        )
        sessions = _tables_open(event=event, round_=made, tables=drawn.tables, user=user, now=now)
        if event.state != Event.State.RUNNING:
            event.state = Event.State.RUNNING
            event.save(update_fields=["state"])
        event_changes_append(event, Change.Kind.EVENT_ROUND_DRAWN, sessions=sessions, round_n=n)
    return made


def _last_round_close(last: Round, *, user: User, close_open: bool) -> None:
    open_tables = list(
        RoundTable.objects.filter(round=last, session__status=Session.Status.OPEN).select_related("session")
    )
    if open_tables and not close_open:
        tables = ", ".join(str(table.number) for table in open_tables)
        raise LedgerError("round.tables_open", field="close_open", n=last.n, tables=tables)
    for table in open_tables:
        session_close(session=table.session, user=user)
    if last.ended_at is None:
        last.ended_at = timezone.now()
        last.save(update_fields=["ended_at"])


def _history(rounds: Sequence[Round]) -> list[Seating]:
    """The earlier rounds' seatings, from their tables' seats (two queries whatever the rounds)."""
    seats: dict[int, dict[int, list[int]]] = {}
    rows = SessionSeat.objects.filter(session__event_table__round__in=rounds).values_list(
        "session__event_table__round_id", "session__event_table__number", "player_id"
    )
    for round_id, number, player_id in rows.order_by("session__event_table__number", "seat"):
        seats.setdefault(round_id, {}).setdefault(number, []).append(player_id)
    return [
        Seating(
            tables=tuple(tuple(players) for _, players in sorted(seats.get(r.pk, {}).items())),
            sitting_out=tuple(r.sitting_out),
        )
        for r in rounds
    ]


def _tables_open(
    *, event: Event, round_: Round, tables: Sequence[Sequence[int]], user: User, now: datetime.datetime
) -> list[Session]:
    """A session per table, seated as drawn: three inserts whatever the number of tables."""
    rules = VARIANTS[event.variant]
    options = {
        size: options_dump(options_resolve(rules.defaults(size), event.options)) for size in {len(t) for t in tables}
    }
    sessions = Session.objects.bulk_create(
        [
            Session(
                club_id=event.club_id,
                date=event.date,
                venue=event.venue,
                variant=event.variant,
                options=options[len(table)],
                created_by=user,
                created_at=now,
            )
            for table in tables
        ]
    )
    SessionSeat.objects.bulk_create(
        [
            SessionSeat(session=session, seat=seat, player_id=player)
            for session, table in zip(sessions, tables, strict=True)
            for seat, player in enumerate(table)
        ]
    )
    RoundTable.objects.bulk_create(
        [RoundTable(round=round_, number=i, session=session) for i, session in enumerate(sessions, start=1)]
    )
    return sessions


def round_late_allow(*, event: Event, user: User, n: int, allowed: bool = True) -> Round:
    """The director allows (or again refuses) hands recorded after round `n`'s clock ran out, when the event
    refuses late hands (`late_hands: refused`); with `counted` they count anyway."""
    with transaction.atomic():
        event = event_lock(event)
        policy.require_direct(user=user, club_id=event.club_id)
        found = event.rounds.filter(n=n).first()
        if found is None:
            raise LedgerError("round.not_found", field="round", n=n)
        if found.late_allowed != allowed:
            found.late_allowed = allowed
            found.save(update_fields=["late_allowed"])
            event_changes_append(event, Change.Kind.EVENT_LATE_ALLOWED, round_n=n)
    return found


def event_finish(*, event: Event, user: User, close_open: bool = False) -> Event:
    """Finish the event: the last round's open tables closed (refused while any is open, unless `close_open`),
    the round ended, the state `finished`. Afterwards nothing more is checked in, drawn, adjusted or substituted;
    the standings are final. Finishing a finished event leaves it as it is."""
    with transaction.atomic():
        event = event_lock(event)
        policy.require_direct(user=user, club_id=event.club_id)
        if event.state == Event.State.FINISHED:
            return event
        last = event.rounds.order_by("-n").first()
        if last is not None:
            _last_round_close(last, user=user, close_open=close_open)
        event.state = Event.State.FINISHED
        event.save(update_fields=["state"])
        event_changes_append(event, Change.Kind.EVENT_FINISHED, round_n=last.n if last else None)
    return event
