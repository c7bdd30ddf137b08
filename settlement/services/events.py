"""Events: a club's evening or tournament. Create it, check players in, let a player leave.

Its rounds are drawn in `services/rounds.py` and the director's adjustments added in `services/adjustments.py`;
the helpers all three share (the event row's lock, the refusal once it is finished, the feed's notes, a
client key's replay) are here. Every write needs a director: the club's owner or a scorekeeper
(`policy.may_direct`).
"""

from __future__ import annotations

import datetime
import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from .. import policy
from ..ledger import LedgerError
from ..ledger.changes import ChangeNote, changes_append
from ..ledger.values import json_clean, name_clean
from ..models import Change, Club, Event, EventPlayer, Player, Session
from ..rules.base import RulesError
from ..rules.options import options_resolve
from ..rules.registry import VARIANTS
from .common import VENUE_MAX, User, client_key_clean, request_digest
from .sessions import _players_resolve

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
    substitute_result: str = Event.SubstituteResult.ABSENT,
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
                **({"substitute_result": substitute_result} if substitute_result != "absent" else {}),
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
                return keyed_replay(existing, digest=digest, subject="event")
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
                    substitute_result=substitute_result,
                ),
            )
            _, made = _check_in(event=event, players=players, joined=1)
            event_changes_append(event, Change.Kind.EVENT_CREATED, made=made)
    except IntegrityError:
        existing = Event.objects.filter(club=club, client_key=client_key).first() if client_key else None
        if existing is None:
            raise
        return keyed_replay(existing, digest=digest, subject="event")
    return event


def _player_ref(player: Player | str) -> Any:
    """A player as the request named them, for the request's digest: an id, or the name as given."""
    return {"id": player.pk} if isinstance(player, Player) else player


def keyed_replay(existing: Any, *, digest: str, subject: str) -> Any:
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
    substitute_result: Any = Event.SubstituteResult.ABSENT,
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
    if substitute_result not in Event.SubstituteResult.values:
        choices = ", ".join(Event.SubstituteResult.values)
        raise LedgerError("event.choice", field="substitute_result", choices=choices)
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
        "substitute_result": substitute_result,
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
        event = event_lock(event)
        policy.require_direct(user=user, club_id=event.club_id)
        event_refuse_finished(event)
        checked, made = _check_in(event=event, players=players, joined=event.rounds.count() + 1)
        event_changes_append(event, Change.Kind.EVENT_CHECKED_IN, made=made)
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


def event_player_leave(*, event: Event, user: User, player: Player) -> EventPlayer:
    """The player leaves after the round drawn last (before the first draw: they are not drawn at all); their
    rounds so far still count."""
    with transaction.atomic():
        event = event_lock(event)
        policy.require_direct(user=user, club_id=event.club_id)
        event_refuse_finished(event)
        found = EventPlayer.objects.filter(event=event, player_id=player.pk).first()
        if found is None:
            raise LedgerError("event.player_not_in", field="player")
        if found.left is None:
            # A late arrival who leaves before playing leaves "after" the round before they joined.
            found.left = max(event.rounds.count(), found.joined - 1)
            found.save(update_fields=["left"])
            note = ChangeNote(kind=Change.Kind.EVENT_LEFT, object_id=event.pk, number=found.left)
            changes_append(club_id=event.club_id, notes=[note])
        return found


def event_changes_append(
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


def event_lock(event: Event) -> Event:
    """The event row, locked until the transaction ends: one director's write at a time."""
    return Event.objects.select_for_update(of=("self",)).select_related("club").get(pk=event.pk)


def event_refuse_finished(event: Event) -> None:
    """A finished event takes no more check-ins, rounds or adjustments."""
    if event.state == Event.State.FINISHED:
        raise LedgerError("event.finished", field="event")
