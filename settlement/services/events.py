"""Events: a club's evening or tournament. Create it, check players in, set its pairs, let a player leave.

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
from ..models import Change, Club, Event, EventPlayer, League, Player, Session
from ..rules.base import RulesError
from ..rules.draws import fixed_partnerships
from ..rules.options import options_resolve
from ..rules.pairs import pairs_check
from ..rules.registry import VARIANTS
from .common import VENUE_MAX, User, client_key_clean, events_bump, request_digest
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
    league: League | None = None,
    mixed_sizes: bool = False,
    pairs: Sequence[Sequence[Player | str | int]] = (),
    substitute_result: str = Event.SubstituteResult.ABSENT,
) -> Event:
    """Create an event and check its first players in (names matched to the club's players, guests for new ones).

    Every table plays `variant` with the preset's options, then `options` over them; they are checked now for
    `table_size` (default: the variant's smallest table). `client_key` makes a retry safe: the same key with
    the same request returns the event made the first time; with another it is refused (`client_key.reused`).
    `league`: the club's league it counts in (`event_league_refuse`: its unit, ranked by the sum).
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
                **({"league": league.pk} if league is not None else {}),
                # Named only when asked for, so a key stored before the option still matches its request.
                **({"mixed_sizes": mixed_sizes} if mixed_sizes is not False else {}),
                **({"pairs": [[_player_ref(p) for p in pair] for pair in pairs]} if pairs else {}),
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
                league=league,
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
                    mixed_sizes=mixed_sizes,
                    substitute_result=substitute_result,
                ),
            )
            if league is not None:
                event_league_refuse(event=event, league=league, field="league")
            checked, made = _check_in(event=event, players=players, joined=1)
            if pairs:
                event.pairs = _pairs_resolve(event=event, checked=checked, pairs=pairs)
                event.save(update_fields=["pairs"])
            event_changes_append(event, Change.Kind.EVENT_CREATED, made=made)
    except IntegrityError:
        existing = Event.objects.filter(club=club, client_key=client_key).first() if client_key else None
        if existing is None:
            raise
        return keyed_replay(existing, digest=digest, subject="event")
    return event


def _pairs_resolve(
    *, event: Event, checked: Sequence[EventPlayer], pairs: Sequence[Sequence[Player | str | int]]
) -> list[list[int]]:
    """The pairs named at creation or set later (`event_pairs_set`), as player ids: each member a checked-in player
    (by id or name), checked by the engine (`rules.pairs.pairs_check`); only for a fixed-partnership variant at
    tables of four."""
    rules = VARIANTS[event.variant]
    if not fixed_partnerships(rules):
        raise LedgerError.from_rules(RulesError("pairs.variant", field="pairs"))
    if event.table_size != 4 or event.mixed_sizes:
        raise LedgerError.from_rules(RulesError("pairs.table_size", field="pairs"))
    if not isinstance(pairs, list | tuple) or not all(isinstance(pair, list | tuple) for pair in pairs):
        raise LedgerError.from_rules(RulesError("value.not_list", field="pairs"))
    by_id = {entry.player_id for entry in checked}
    by_name = {entry.player.name: entry.player_id for entry in checked}
    ids: list[list[int]] = []
    for pair in pairs:
        members = []
        for ref in pair:
            if isinstance(ref, Player):
                found: int | None = ref.pk if ref.pk in by_id else None
            elif isinstance(ref, int) and not isinstance(ref, bool):
                found = ref if ref in by_id else None
            elif isinstance(ref, str):
                found = by_name.get(ref.strip())
            else:
                raise LedgerError.from_rules(RulesError("value.not_integer", field="pairs"))
            if found is None:
                name = ref.name if isinstance(ref, Player) else ref
                raise LedgerError.from_rules(RulesError("pairs.not_checked_in", field="pairs", player=name))
            members.append(found)
        ids.append(members)
    try:
        checked_pairs = pairs_check(pairs=ids, players=by_id)
    except RulesError as error:
        names = {entry.player_id: entry.player.name for entry in checked}
        if "player" in error.params:  # the player by name, as the director typed them
            error.params["player"] = names.get(error.params["player"], error.params["player"])
        raise LedgerError.from_rules(error) from error
    return [list(pair) for pair in checked_pairs]


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
    mixed_sizes: Any = False,
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
    if not isinstance(mixed_sizes, bool):
        raise LedgerError.from_rules(RulesError("value.not_bool", field="mixed_sizes"))
    if mixed_sizes and len(rules.player_counts) < 2:
        raise LedgerError("event.mixed_sizes_one_size", field="mixed_sizes", counts=counts)
    if mixed_sizes and ranking == Event.Ranking.PLACEMENT:
        raise LedgerError("event.mixed_sizes_placement", field="mixed_sizes")
    try:
        for size in rules.player_counts if mixed_sizes else (table_size,):
            options_resolve(rules.defaults(size), overrides)
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
        "mixed_sizes": mixed_sizes,
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


def event_pairs_set(*, event: Event, user: User, pairs: Sequence[Sequence[Player | str | int]]) -> Event:
    """Set (or change) a pairs event's pairs after check-in, until the first round is drawn: every player checked in
    and not gone in exactly one pair, checked as at creation (`_pairs_resolve`); none makes the event draw players
    one by one. Refused once a round is drawn (`event.pairs_drawn`, naming `pairs`): the rounds already seated
    partners by the pairs they had, and the pair standings add those seats up."""
    with transaction.atomic():
        event = event_lock(event)
        policy.require_direct(user=user, club_id=event.club_id)
        event_refuse_finished(event)
        if event.rounds.exists():
            raise LedgerError("event.pairs_drawn", field="pairs")
        # Before the first draw a player who left has `left` 0: they are drawn in no round, so need no partner.
        checked = list(EventPlayer.objects.filter(event=event, left__isnull=True).select_related("player"))
        event.pairs = _pairs_resolve(event=event, checked=checked, pairs=pairs) if pairs else []
        event.save(update_fields=["pairs"])
        event_changes_append(event, Change.Kind.EVENT_PAIRED)
        return event


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
            event_changes_append(event, Change.Kind.EVENT_LEFT, round_n=found.left)
        return found


def event_changes_append(
    event: Event,
    kind: str,
    *,
    made: Sequence[Player] = (),
    sessions: Sequence[Session] = (),
    round_n: int | None = None,
) -> None:
    """The last statements of every event write: the event's `version` moved on (the big screen's ETag), then the
    feed's changes (`ledger/changes.py`): the guests made, the tables' sessions opened, the event's own change."""
    event_bump(event)
    notes = [ChangeNote(kind=Change.Kind.PLAYER_CREATED, object_id=player.pk) for player in made]
    notes += [ChangeNote(kind=Change.Kind.SESSION_CREATED, object_id=s.pk, session_id=s.pk) for s in sessions]
    notes.append(ChangeNote(kind=kind, object_id=event.pk, number=round_n))
    changes_append(club_id=event.club_id, notes=notes)


def event_bump(event: Event) -> None:
    """Move on the event's `version`, inside the caller's transaction (the caller holds its row, or just made it)."""
    events_bump(Event.objects.filter(pk=event.pk))
    event.version += 1


def event_lock(event: Event) -> Event:
    """The event row, locked until the transaction ends: one director's write at a time."""
    return Event.objects.select_for_update(of=("self",)).select_related("club").get(pk=event.pk)


def event_refuse_finished(event: Event) -> None:
    """A finished event takes no more check-ins, rounds or adjustments."""
    if event.state == Event.State.FINISHED:
        raise LedgerError("event.finished", field="event")


def event_league_refuse(*, event: Event, league: League, field: str) -> None:
    """An event counts in a league of its club, in the league's unit, ranked by the sum of its table totals."""
    if league.club_id != event.club_id:
        raise LedgerError("league.not_found", field=field)
    if event.unit != league.unit:
        raise LedgerError("league.unit", field=field, unit=event.unit, league_unit=league.unit)
    if event.ranking != Event.Ranking.SUM:
        raise LedgerError("league.event_ranking", field=field)
