"""Events: a club's evening or tournament. Create it, check players in, draw a round, adjust a player's result.

A round's tables are ordinary sessions (their pages, share links, receipts, corrections work as for any
session), made with the round in one transaction and linked to it by `RoundTable` rows. The seating comes from
the engine's pure draw (`rules.draws.seating_draw`), its seed stored with the round so it can be drawn again.
Adjustments are append-only, like the hand log. Every write here needs a director: the club's owner or a
scorekeeper (`policy.may_direct`).
"""

from __future__ import annotations

import datetime
import itertools
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from .. import policy
from ..ledger import LedgerError
from ..ledger.changes import ChangeNote, changes_append
from ..ledger.values import json_clean, name_clean
from ..models import Adjustment, Change, Club, Event, EventPlayer, Player, Round, RoundTable, Session, SessionSeat
from ..rules.base import RulesError
from ..rules.draws import DrawMethod, Seating, seating_draw
from ..rules.options import options_dump, options_resolve
from ..rules.registry import VARIANTS
from .common import REASON_MAX, VENUE_MAX, User, client_key_clean, request_digest
from .sessions import _players_resolve, session_close

EVENT_NAME_MAX = Event._meta.get_field("name").max_length or 100
# The largest amount an adjustment may carry: far beyond any table's total, well inside a BIGINT.
ADJUSTMENT_MAX = 10**12


def event_create(
    *,
    club: Club,
    user: User,
    name: str,
    variant: str,
    date: datetime.date | None = None,
    venue: str = "",
    preset: str = "",
    options: Mapping[str, Any] | None = None,
    table_size: int | None = None,
    players: Sequence[Player | str] = (),
    bye: str = Event.Bye.AVERAGE,
    bye_figure: int | None = None,
    client_key: str = "",
    late_hands: str = Event.LateHands.COUNTED,
    ranking: str = Event.Ranking.SUM,
    placement_points: Sequence[int] | None = None,
) -> Event:
    """Create an event and check its first players in (names matched to the club's players, guests for new ones).

    Every table plays `variant` with the preset's options, then `options` over them; they are checked now for
    `table_size` (default: the variant's smallest table). `client_key` makes a retry safe: the same key with
    the same request returns the event made the first time; with another it is refused (`client_key.reused`).
    """
    client_key = client_key_clean(client_key)
    digest = (
        request_digest(
            {
                "name": name,
                "variant": variant,
                "date": date,
                "venue": venue,
                "preset": preset,
                "options": options,
                "table_size": table_size,
                "players": [_player_ref(p) for p in players],
                "bye": bye,
                "bye_figure": bye_figure,
                "late_hands": late_hands,
                "ranking": ranking,
                "placement_points": placement_points,
            }
        )
        if client_key
        else ""
    )
    try:
        with transaction.atomic():
            policy.require_direct(user=user, club_id=club.pk)
            existing = Event.objects.filter(club=club, client_key=client_key).first() if client_key else None
            if existing is not None:
                return _keyed(existing, digest=digest, subject="event")
            event = Event.objects.create(
                club=club,
                created_by=user,
                client_key=client_key,
                client_digest=digest,
                **_event_fields(
                    name=name,
                    variant=variant,
                    date=date,
                    venue=venue,
                    preset=preset,
                    options=options,
                    table_size=table_size,
                    bye=bye,
                    bye_figure=bye_figure,
                    late_hands=late_hands,
                    ranking=ranking,
                    placement_points=placement_points,
                ),
            )
            _, made = _check_in(event=event, players=players, joined=1)
            _event_change(event, Change.Kind.EVENT_CREATED, made=made)
    except IntegrityError:
        existing = Event.objects.filter(club=club, client_key=client_key).first() if client_key else None
        if existing is None:
            raise
        return _keyed(existing, digest=digest, subject="event")
    return event


def _player_ref(player: Player | str) -> Any:
    """A player as the request named them, for the request's digest: an id, or the name as given."""
    return {"id": player.pk} if isinstance(player, Player) else player


def _keyed(existing: Any, *, digest: str, subject: str) -> Any:
    """The row written first under a key, when this request is the same one; another is `client_key.reused`."""
    if existing.client_digest != digest:
        number = getattr(existing, "n", existing.pk)
        raise LedgerError("client_key.reused", field="client_key", subject=subject, number=number)
    return existing


def _event_fields(
    *,
    name: Any,
    variant: Any,
    date: datetime.date | None,
    venue: Any,
    preset: Any,
    options: Mapping[str, Any] | None,
    table_size: Any,
    bye: Any,
    bye_figure: Any,
    late_hands: Any = Event.LateHands.COUNTED,
    ranking: Any = Event.Ranking.SUM,
    placement_points: Any = None,
) -> dict[str, Any]:
    if not isinstance(name, str):
        raise LedgerError.from_rules(RulesError("value.not_text", field="name"))
    name = name_clean(name, field="name", limit=EVENT_NAME_MAX)
    if not name:
        raise LedgerError("event.name_required", field="name")
    rules = VARIANTS.get(variant) if isinstance(variant, str) else None
    if rules is None:
        raise LedgerError.from_rules(RulesError("variant.unknown", field="variant", choices=", ".join(VARIANTS)))
    counts = " / ".join(str(c) for c in sorted(rules.player_counts))
    if table_size is None:
        table_size = min(rules.player_counts)
    if isinstance(table_size, bool) or table_size not in rules.player_counts:
        raise LedgerError("event.table_size", field="table_size", counts=counts)
    if not isinstance(preset, str) or (preset and preset not in rules.presets):
        raise LedgerError("event.preset_unknown", field="preset", choices=", ".join(rules.presets) or "-")
    overrides = {**(rules.presets.get(preset, {}) if preset else {}), **dict(options or {})}
    overrides = json_clean(overrides, field="options", prefix="options")
    try:
        options_resolve(rules.defaults(table_size), overrides)
    except RulesError as error:
        raise LedgerError.from_rules(error) from error
    if not isinstance(venue, str):
        raise LedgerError.from_rules(RulesError("value.not_text", field="venue"))
    if bye not in Event.Bye.values:
        raise LedgerError("event.choice", field="bye", choices=", ".join(Event.Bye.values))
    if bye == Event.Bye.FIGURE:
        if isinstance(bye_figure, bool) or not isinstance(bye_figure, int) or abs(bye_figure) > ADJUSTMENT_MAX:
            raise LedgerError("event.bye_figure", field="bye_figure")
    else:
        bye_figure = None
    if late_hands not in Event.LateHands.values:
        raise LedgerError("event.choice", field="late_hands", choices=", ".join(Event.LateHands.values))
    if ranking not in Event.Ranking.values:
        raise LedgerError("event.choice", field="ranking", choices=", ".join(Event.Ranking.values))
    points = _placement_points(ranking=ranking, given=placement_points, table_size=table_size)
    return {
        "name": name,
        "variant": rules.key,
        "date": date or timezone.localdate(),
        "venue": name_clean(venue, field="venue", limit=VENUE_MAX),
        "preset": preset,
        "options": overrides,
        "table_size": table_size,
        "bye": bye,
        "bye_figure": bye_figure,
        "late_hands": late_hands,
        "ranking": ranking,
        "placement_points": points,
    }


# The placement points when the event names none: 4 / 2 / 1 / 0 at a table of four, else n − 1 … 0.
PLACEMENT_DEFAULT = {4: [4, 2, 1, 0]}


def _placement_points(*, ranking: str, given: Any, table_size: int) -> list[int]:
    """`placement`: a point figure per place, best first, one per seat, never rising; `sum` takes none."""
    if ranking != Event.Ranking.PLACEMENT:
        if given:
            raise LedgerError("event.placement_points", field="placement_points", n=table_size)
        return []
    if given is None:
        return PLACEMENT_DEFAULT.get(table_size, list(range(table_size - 1, -1, -1)))
    if (
        not isinstance(given, list | tuple)
        or len(given) != table_size
        or any(isinstance(p, bool) or not isinstance(p, int) or abs(p) > ADJUSTMENT_MAX for p in given)
        or any(a < b for a, b in itertools.pairwise(given))
    ):
        raise LedgerError("event.placement_points", field="placement_points", n=table_size)
    return list(given)


def event_check_in(*, event: Event, user: User, players: Sequence[Player | str]) -> list[EventPlayer]:
    """Check players in from the next round on; a player checked in already stays as they are."""
    with transaction.atomic():
        event = _event_lock(event)
        policy.require_direct(user=user, club_id=event.club_id)
        _open_refuse(event)
        checked, made = _check_in(event=event, players=players, joined=event.rounds.count() + 1)
        _event_change(event, Change.Kind.EVENT_CHECKED_IN, made=made)
        return checked


def _check_in(*, event: Event, players: Sequence[Player | str], joined: int) -> tuple[list[EventPlayer], list[Player]]:
    """The players checked in (those already in stay as they are), and the guests made for new names."""
    if not players:
        return [], []
    resolved, made = _players_resolve(club=event.club, players=players)
    EventPlayer.objects.bulk_create(
        [EventPlayer(event=event, player=player, joined=joined) for player in resolved], ignore_conflicts=True
    )
    return list(EventPlayer.objects.filter(event=event, player__in=resolved).select_related("player")), made


def _event_change(
    event: Event,
    kind: str,
    *,
    made: Sequence[Player] = (),
    sessions: Sequence[Session] = (),
    round_n: int | None = None,
) -> None:
    """The feed's changes of an event write (`ledger/changes.py`), its last statements: the guests made, the
    tables' sessions opened, then the event's own change."""
    notes = [ChangeNote(kind=Change.Kind.PLAYER_CREATED, object_id=player.pk) for player in made]
    notes += [ChangeNote(kind=Change.Kind.SESSION_CREATED, object_id=s.pk, session_id=s.pk) for s in sessions]
    notes.append(ChangeNote(kind=kind, object_id=event.pk, number=round_n))
    changes_append(club_id=event.club_id, notes=notes)


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
        event = _event_lock(event)
        policy.require_direct(user=user, club_id=event.club_id)
        if client_key:
            existing = Round.objects.filter(event=event, client_key=client_key).first()
            if existing is not None:
                return _keyed(existing, digest=digest, subject="round")
        _open_refuse(event)
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
            drawn = seating_draw(
                variant=event.variant,
                method=draw,
                players=present,
                seed=seed,
                history=_history(rounds),
                ranking=ranking,
                sizes={event.table_size},
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
        _event_change(event, Change.Kind.EVENT_ROUND_DRAWN, sessions=sessions, round_n=n)
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
        event = _event_lock(event)
        policy.require_direct(user=user, club_id=event.club_id)
        found = event.rounds.filter(n=n).first()
        if found is None:
            raise LedgerError("round.not_found", field="round", n=n)
        if found.late_allowed != allowed:
            found.late_allowed = allowed
            found.save(update_fields=["late_allowed"])
    return found


def adjustment_add(
    *,
    event: Event,
    user: User,
    player: Player,
    kind: str,
    amount: int,
    reason: str,
    round_n: int | None = None,
    client_key: str = "",
) -> Adjustment:
    """A penalty (罚分) or award on a checked-in player in a round (default: the latest), with its reason."""
    client_key = client_key_clean(client_key)
    if kind not in Adjustment.Kind.values:
        raise LedgerError("event.choice", field="kind", choices=", ".join(Adjustment.Kind.values))
    if isinstance(amount, bool) or not isinstance(amount, int) or not 1 <= amount <= ADJUSTMENT_MAX:
        raise LedgerError("adjustment.amount", field="amount")
    if not isinstance(reason, str):
        raise LedgerError.from_rules(RulesError("value.not_text", field="reason"))
    reason = name_clean(reason, field="reason", limit=REASON_MAX)
    if not reason:
        raise LedgerError("reason.required", field="reason")
    digest = (
        request_digest({"player": player.pk, "kind": kind, "amount": amount, "reason": reason, "round": round_n})
        if client_key
        else ""
    )
    with transaction.atomic():
        event = _event_lock(event)
        policy.require_direct(user=user, club_id=event.club_id)
        if client_key:
            existing = Adjustment.objects.filter(event=event, client_key=client_key).first()
            if existing is not None:
                return _keyed(existing, digest=digest, subject="adjustment")
        if not EventPlayer.objects.filter(event=event, player_id=player.pk).exists():
            raise LedgerError("event.player_not_in", field="player")
        rounds = event.rounds.order_by("-n")
        found = rounds.filter(n=round_n).first() if round_n is not None else rounds.first()
        if found is None:
            if round_n is None:
                raise LedgerError("event.no_round", field="round")
            raise LedgerError("round.not_found", field="round", n=round_n)
        adjustment = Adjustment.objects.create(
            event=event,
            round=found,
            player_id=player.pk,
            kind=kind,
            amount=amount,
            reason=reason,
            author=user,
            client_key=client_key,
            client_digest=digest,
        )
        _event_change(event, Change.Kind.EVENT_ADJUSTED, round_n=found.n)
        return adjustment


def _event_lock(event: Event) -> Event:
    """The event row, locked until the transaction ends: one director's write at a time."""
    return Event.objects.select_for_update(of=("self",)).select_related("club").get(pk=event.pk)


def _open_refuse(event: Event) -> None:
    if event.state == Event.State.FINISHED:
        raise LedgerError("event.finished", field="event")
