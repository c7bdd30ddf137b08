"""Leagues (seasons): a club's named series of events with a league table. Create one, add an event to it, take
one out.

A league counts in one family unit (分, 注, 档 or 级); an event of another unit, or one ranked by placement
points, is refused (`services.events.event_league_refuse`). Every write needs a director (`policy.may_direct`)
and is one transaction, the change feed's note its last statement.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction

from .. import policy
from ..ledger import LedgerError
from ..ledger.changes import ChangeNote, changes_append
from ..ledger.values import name_clean
from ..models import Change, Club, Event, League
from ..rules.base import RulesError
from ..rules.registry import VARIANTS
from .common import User, client_key_clean, request_digest
from .events import event_bump, event_league_refuse, keyed_replay

LEAGUE_NAME_MAX = League._meta.get_field("name").max_length or 100
# The family units a league may count in: the variants' own (分, 注, 档, 级).
UNITS = tuple(dict.fromkeys(variant.unit for variant in VARIANTS.values()))
# The most events a league may count (`best`), far beyond a season's.
BEST_N_MAX = 1000


def league_create(
    *,
    club: Club,
    user: User,
    name: str,
    ranking: str = League.Ranking.SUM,
    best_n: int | None = None,
    unit: str = "",
    events: Sequence[Event] = (),
    client_key: str = "",
) -> League:
    """Create a league and add its first `events` (the club's). `unit` defaults to the first event's; with no
    event it must be given. `client_key` makes a retry safe, as for an event."""
    client_key = client_key_clean(client_key)
    fields = _league_fields(name=name, ranking=ranking, best_n=best_n, unit=unit, events=events)
    digest = request_digest({**fields, "events": [event.pk for event in events]}) if client_key else ""
    try:
        with transaction.atomic():
            policy.require_direct(user=user, club_id=club.pk)
            existing = League.objects.filter(club=club, client_key=client_key).first() if client_key else None
            if existing is not None:
                return keyed_replay(existing, digest=digest, subject="league")
            league = League.objects.create(
                club=club, created_by=user, client_key=client_key, client_digest=digest, **fields
            )
            notes = [ChangeNote(kind=Change.Kind.LEAGUE_CREATED, object_id=league.pk)]
            for i, event in enumerate(events):
                _event_add(league=league, event=event, field=f"events[{i}]")
                notes.append(ChangeNote(kind=Change.Kind.LEAGUE_EVENT_ADDED, object_id=league.pk, number=event.pk))
            changes_append(club_id=club.pk, notes=notes)
    except IntegrityError:
        existing = League.objects.filter(club=club, client_key=client_key).first() if client_key else None
        if existing is None:
            raise
        return keyed_replay(existing, digest=digest, subject="league")
    return league


def _league_fields(*, name: Any, ranking: Any, best_n: Any, unit: Any, events: Sequence[Event]) -> dict[str, Any]:
    if not isinstance(name, str):
        raise LedgerError.from_rules(RulesError("value.not_text", field="name"))
    name = name_clean(name, field="name", limit=LEAGUE_NAME_MAX)
    if not name:
        raise LedgerError("league.name_required", field="name")
    if ranking not in League.Ranking.values:
        raise LedgerError("event.choice", field="ranking", choices=", ".join(League.Ranking.values))
    if ranking == League.Ranking.BEST:
        if isinstance(best_n, bool) or not isinstance(best_n, int) or not 1 <= best_n <= BEST_N_MAX:
            raise LedgerError("league.best_n", field="best_n")
    elif best_n is not None:
        raise LedgerError("league.best_n", field="best_n")
    if not unit and events:
        unit = events[0].unit
    if unit not in UNITS:
        raise LedgerError("event.choice", field="unit", choices=", ".join(UNITS))
    return {"name": name, "ranking": ranking, "best_n": best_n, "unit": unit}


def league_event_add(*, league: League, user: User, event: Event) -> Event:
    """Add an event to the league (an event counts in one league; added again, it stays as it is)."""
    with transaction.atomic():
        policy.require_direct(user=user, club_id=league.club_id)
        event = Event.objects.select_for_update(of=("self",)).get(pk=event.pk)
        if event.league_id == league.pk:
            return event
        _event_add(league=league, event=event, field="event")
        note = ChangeNote(kind=Change.Kind.LEAGUE_EVENT_ADDED, object_id=league.pk, number=event.pk)
        changes_append(club_id=league.club_id, notes=[note])
        return event


def league_event_remove(*, league: League, user: User, event: Event) -> Event:
    """Take an event out of the league: the league table no longer counts it (it is read from the events the league
    has, `selectors.league_standings`, so nothing else changes). Refused when the event is not in this league
    (`league.event_not_in`, naming `event`)."""
    with transaction.atomic():
        policy.require_direct(user=user, club_id=league.club_id)
        event = Event.objects.select_for_update(of=("self",)).get(pk=event.pk)
        if event.league_id != league.pk:
            raise LedgerError("league.event_not_in", field="event")
        event.league = None
        event.save(update_fields=["league"])
        event_bump(event)
        note = ChangeNote(kind=Change.Kind.LEAGUE_EVENT_REMOVED, object_id=league.pk, number=event.pk)
        changes_append(club_id=league.club_id, notes=[note])
        return event


def _event_add(*, league: League, event: Event, field: str) -> None:
    if event.club_id != league.club_id:
        raise LedgerError("league.event_not_found", field=field)
    if event.league_id is not None and event.league_id != league.pk:
        other = League.objects.filter(pk=event.league_id).values_list("name", flat=True).first()
        raise LedgerError("league.event_taken", field=field, name=other or "")
    event_league_refuse(event=event, league=league, field=field)
    event.league = league
    event.save(update_fields=["league"])
    event_bump(event)
