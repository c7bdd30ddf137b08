"""Sessions: open, close, reopen, import and export a whole session document, and the operator's rebuild.

A session is opened with its variant's options resolved and frozen and its players by seat (names
matched to the club's players, guests made for new names); closing it ends its hands (owners may
reopen it). An import writes a whole session document at once, all or nothing.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from .. import policy
from ..ledger import LedgerError, LogReplay, hand_input_ordered, log_document, log_load, log_replay
from ..ledger.bulk import gc_paused, session_log_insert
from ..ledger.changes import ChangeNote, changes_append, hands_recorded_append
from ..ledger.ratings import ratings_rebuild
from ..ledger.values import json_clean, name_clean, name_key
from ..models import Change, Club, Player, Session, SessionEvent, SessionSeat
from ..rules.base import RulesError
from ..rules.document import document_parse
from ..rules.options import options_dump, options_resolve
from ..rules.registry import VARIANTS
from ..rules.session import session_replay
from .common import (
    PLAYER_NAME_MAX,
    VENUE_MAX,
    User,
    client_key_clean,
    derived_rebuild,
    facts_stored,
    hands_limit,
    request_digest,
    session_bump,
    session_lock,
)


@dataclass(frozen=True, kw_only=True)
class SessionWrite:
    """A session after an import: whether this call created it (False: a retry under the same key)."""

    session: Session
    created: bool


def session_open(
    *,
    club: Club,
    user: User,
    variant: str,
    options_overrides: Mapping[str, Any] | None = None,
    players: Sequence[Player | str],
    date: datetime.date | None = None,
    venue: str = "",
    client_key: str = "",
) -> Session:
    """Open a session: the variant's defaults with the overrides, resolved and frozen; players by seat.

    Names are matched to the club's players; a new name becomes a guest player.
    `client_key` (the opening form's key) makes a resubmit of the same form
    return the session it opened instead of opening a second one.
    """
    client_key = client_key_clean(client_key)
    try:
        return _session_open(
            club=club,
            user=user,
            variant=variant,
            options_overrides=options_overrides,
            players=players,
            date=date,
            venue=venue,
            client_key=client_key,
        )
    except IntegrityError:
        # Two submits of one form at once: both found no session under the key, the other's insert won.
        existing = _session_keyed(club=club, client_key=client_key)
        if existing is None:
            raise
        return existing


def _session_open(
    *,
    club: Club,
    user: User,
    variant: str,
    options_overrides: Mapping[str, Any] | None,
    players: Sequence[Player | str],
    date: datetime.date | None,
    venue: str,
    client_key: str,
) -> Session:
    with transaction.atomic():
        policy.require_write(user=user, club_id=club.pk)
        existing = _session_keyed(club=club, client_key=client_key)
        if existing is not None:
            return existing
        rules = VARIANTS.get(variant)
        if rules is None:
            raise LedgerError.from_rules(RulesError("variant.unknown", field="variant", choices=", ".join(VARIANTS)))
        if len(players) not in rules.player_counts:
            counts = " / ".join(str(c) for c in sorted(rules.player_counts))
            raise LedgerError.from_rules(RulesError("players.count", field="players", counts=counts))
        overrides = json_clean(dict(options_overrides or {}), field="options", prefix="options")
        try:
            options = options_resolve(rules.defaults(len(players)), overrides)
        except RulesError as error:
            raise LedgerError.from_rules(error) from error
        venue = _venue_clean(venue)
        seated, made = _players_resolve(club=club, players=players)
        session = Session.objects.create(
            club=club,
            date=date or timezone.localdate(),
            venue=venue,
            variant=rules.key,
            options=options_dump(options),
            created_by=user,
            client_key=client_key,
        )
        SessionSeat.objects.bulk_create(
            SessionSeat(session=session, seat=seat, player=player) for seat, player in enumerate(seated)
        )
        _created_append(session=session, made=made)
    return session


def session_close(*, session: Session, user: User) -> Session:
    """Close the session: no more hands. Closing a closed session changes nothing."""
    with transaction.atomic():
        session, role = session_lock(session, user=user)
        policy.require_write_role(role)
        if session.is_open:
            session.status = Session.Status.CLOSED
            session.closed_at = timezone.now()
            session_bump(session, save=("status", "closed_at", "updated_at"))
            SessionEvent.objects.create(
                session=session, kind=SessionEvent.Kind.CLOSED, user=user, created_at=session.closed_at
            )
            ratings_rebuild(session=session)  # a friend-card session counts once closed
            _session_change(session, Change.Kind.SESSION_CLOSED)
    return session


def session_reopen(*, session: Session, user: User) -> Session:
    """Open a closed session again for more hands (owners only), kept in the audit trail.

    Reopening an open session changes nothing.
    """
    with transaction.atomic():
        session, role = session_lock(session, user=user)
        policy.require_reopen_role(role)
        if not session.is_open:
            session.status = Session.Status.OPEN
            session.closed_at = None
            session_bump(session, save=("status", "closed_at", "updated_at"))
            SessionEvent.objects.create(session=session, kind=SessionEvent.Kind.REOPENED, user=user)
            ratings_rebuild(session=session)
            _session_change(session, Change.Kind.SESSION_REOPENED)
    return session


def session_import(*, club: Club, user: User, document: Any, close: bool = True, client_key: str = "") -> SessionWrite:
    """A whole session document into the club, all or nothing; `date` and `venue` kept.

    Names are matched to the club's players, guests created for new names. The
    session is closed (a past sitting) unless `close=False`. Each hand is
    stored with the facts the table's state filled in (`facts_stored`).
    `client_key` makes a retry safe: the same key with the same document (and
    `close`) returns the session imported the first time (`created=False`);
    with anything else it is refused (`client_key.reused`). A document of
    more than `BAIFEN_MAX_HANDS` hands is refused before any hand is played.
    """
    document = json_clean(document, field="document")
    client_key = client_key_clean(client_key)
    digest = _import_digest(document, close=close) if client_key else ""
    try:
        return _session_import(
            club=club, user=user, document=document, close=close, client_key=client_key, digest=digest
        )
    except IntegrityError:
        # Two imports under one key at once: both found no session under it, the other's insert won.
        existing = _session_keyed(club=club, client_key=client_key)
        if existing is None:
            raise
        return _import_replayed(existing, digest=digest)


def _session_keyed(*, club: Club, client_key: str) -> Session | None:
    """The club's session opened or imported under `client_key` (none for no key).

    Read again after a lost race on `session_client_key_unique_in_club`: the transaction that lost has rolled back,
    and the winner's row is committed (its insert is what the loser's waited for), so this read sees it.
    """
    return Session.objects.filter(club=club, client_key=client_key).first() if client_key else None


def _import_replayed(existing: Session, *, digest: str) -> SessionWrite:
    if existing.client_digest != digest:
        raise LedgerError("client_key.reused", field="client_key", subject="session", number=existing.pk)
    return SessionWrite(session=existing, created=False)


def _session_import(
    *, club: Club, user: User, document: Any, close: bool, client_key: str, digest: str
) -> SessionWrite:
    with transaction.atomic(), gc_paused():  # bulk.gc_paused: the collector is most of a long import's time
        policy.require_write(user=user, club_id=club.pk)
        existing = _session_keyed(club=club, client_key=client_key)
        if existing is not None:
            return _import_replayed(existing, digest=digest)
        if isinstance(document, dict) and isinstance(document.get("hands"), list):
            hands_limit(len(document["hands"]))
        if isinstance(document, dict) and isinstance(document.get("players"), list):
            # The names' own refusals (and look-alikes) before the rules play a single hand.
            document = {**document, "players": _names_clean(document["players"])}
        if isinstance(document, dict) and isinstance(document.get("venue"), str):
            document = {**document, "venue": _venue_clean(document["venue"])}
        try:
            doc = document_parse(document, variants=VARIANTS)
            result = session_replay(doc)
        except RulesError as error:
            # Imported hands are numbered as in the document: no void hands yet.
            raise LedgerError.from_rules(error) from error
        date = _date_parse(doc.date)
        seated, made = _players_resolve(club=club, players=list(doc.players))
        now = timezone.now()
        session = Session.objects.create(
            club=club,
            date=date,
            venue=doc.venue or "",
            variant=doc.variant.key,
            options=options_dump(doc.options),
            status=Session.Status.CLOSED if close else Session.Status.OPEN,
            closed_at=now if close else None,
            created_by=user,
            client_key=client_key,
            client_digest=digest,
        )
        SessionSeat.objects.bulk_create(
            SessionSeat(session=session, seat=seat, player=player) for seat, player in enumerate(seated)
        )
        inputs = [
            facts_stored(hand_input, played.facts)
            for hand_input, played in zip(document["hands"], result.hands, strict=True)
        ]
        # The hands, their revisions and the derived rows: executemany, no model instances (`ledger/bulk.py`).
        replay = LogReplay(result=result, numbers=tuple(range(1, len(inputs) + 1)))
        session_log_insert(session=session, players=seated, inputs=inputs, replay=replay, author_id=user.pk, now=now)
        ratings_rebuild(session=session)  # its finished games, or the session itself once closed (`ledger/ratings.py`)
        _created_append(session=session, made=made)
        hands_recorded_append(club_id=club.pk, session_id=session.pk)
    return SessionWrite(session=session, created=True)


def session_export(*, session: Session) -> dict[str, Any]:
    """The session document: frozen options, names by seat, the current input of every hand not void, in order.

    Void hands are left out, so the numbers close up; importing it gives the same deltas, games and totals.
    """
    log = log_load(session=session)
    hands = [(number, hand_input_ordered(hand_input)) for number, hand_input in log.hands()]
    document = log_document(session=session, players=log.players, hands=hands)
    document["date"] = session.date.isoformat()
    if session.venue:
        document["venue"] = session.venue
    return document


def session_derived_rebuild(*, session: Session) -> Session:
    """Rebuild every derived row of the session from its hand log (an operator's repair; no user, no role).

    Raises `LedgerError` (the rules' refusal, at its hand) when the log no longer replays; then nothing changes.
    """
    with transaction.atomic():
        session, _ = session_lock(session)
        log = log_load(session=session)
        replay = log_replay(session=session, players=log.players, hands=log.hands())
        derived_rebuild(session=session, players=log.players, replay=replay, hand_ids=log.hand_ids, from_number=1)
        session_bump(session)
    return session


def _created_append(*, session: Session, made: Sequence[Player]) -> None:
    """The feed's changes of a new session: the guests made for it, then the session (`ledger/changes.py`)."""
    notes = [ChangeNote(kind=Change.Kind.PLAYER_CREATED, object_id=player.pk) for player in made]
    notes.append(ChangeNote(kind=Change.Kind.SESSION_CREATED, object_id=session.pk, session_id=session.pk))
    changes_append(club_id=session.club_id, notes=notes)


def _session_change(session: Session, kind: str) -> None:
    changes_append(club_id=session.club_id, notes=[ChangeNote(kind=kind, object_id=session.pk, session_id=session.pk)])


def _import_digest(document: Any, *, close: bool) -> str:
    """What tells a retried import from another one under the same key: a hash of the canonical request."""
    return request_digest({"document": document, "close": close})


def _players_resolve(*, club: Club, players: Sequence[Player | str]) -> tuple[list[Player], list[Player]]:
    """Players by seat (club players as given, names matched to the club's players, guests made for new names),
    and the guests made.

    A name is cleaned first (`_names_clean`). It matches the club player of the
    same name, else the one club player whose name looks the same (`name_key`:
    `ａｌｉｃｅ` finds `Alice`), else a new guest is made under the name as given.
    """
    names: list[str] = []
    for i, player in enumerate(players):
        if isinstance(player, Player):
            if player.club_id != club.pk:
                raise LedgerError("player.other_club", field=f"players[{i}]")
            names.append(player.name)
        else:
            names.append(player)  # type: ignore[arg-type] # checked by _names_clean
    names = _names_clean(names, given=[isinstance(player, Player) for player in players])
    club_players = list(Player.objects.filter(club=club))
    by_id = {player.pk: player for player in club_players}

    def survivor(player: Player) -> Player:
        # A record merged into another (`services.player_merge`) stands for the one it was merged into.
        return by_id.get(player.merged_into_id, player) if player.merged_into_id else player

    exact = {player.name: survivor(player) for player in club_players}
    alike: dict[str, list[Player]] = {}
    for player in club_players:
        found_alike = alike.setdefault(name_key(player.name), [])
        if all(other.pk != survivor(player).pk for other in found_alike):
            found_alike.append(survivor(player))
    seated: list[Player | None] = []
    for name in names:
        found = exact.get(name)
        if found is None and len(alike.get(name_key(name), [])) == 1:
            found = alike[name_key(name)][0]
        seated.append(found)
    new = [name for name, player in zip(names, seated, strict=True) if player is None]
    made: list[Player] = []
    if new:
        # ignore_conflicts: a guest of that name created meanwhile by another session is the same player.
        Player.objects.bulk_create([Player(club=club, name=name, is_guest=True) for name in new], ignore_conflicts=True)
        by_name = {player.name: player for player in Player.objects.filter(club=club, name__in=new)}
        seated = [player if player is not None else by_name[name] for name, player in zip(names, seated, strict=True)]
        made = [by_name[name] for name in new]
    result = [player for player in seated if player is not None]
    if len({player.pk for player in result}) != len(result):
        raise LedgerError.from_rules(RulesError("players.duplicate", field="players"))
    return result, made


def _names_clean(names: Sequence[Any], given: Sequence[bool] | None = None) -> list[str]:
    """Players' names, cleaned (`values.name_clean`), none empty, no two alike (the same `name_key`).

    `given[i]` marks a club player passed as such: its stored name is taken as it is.
    """
    cleaned: list[str] = []
    for i, name in enumerate(names):
        if given is not None and given[i]:
            cleaned.append(name)
            continue
        if not isinstance(name, str):
            raise LedgerError.from_rules(RulesError("players.name", field=f"players[{i}]"))
        name = name_clean(name, field=f"players[{i}]", limit=PLAYER_NAME_MAX, too_long="player.name_too_long")
        if not name:
            raise LedgerError.from_rules(RulesError("players.name", field=f"players[{i}]"))
        cleaned.append(name)
    keys = [name_key(name) for name in cleaned]
    for i, key in enumerate(keys):
        if key in keys[:i]:
            raise LedgerError.from_rules(RulesError("players.duplicate", field="players"))
    return cleaned


def _venue_clean(venue: str) -> str:
    if not isinstance(venue, str):
        raise LedgerError.from_rules(RulesError("value.not_text", field="venue"))
    return name_clean(venue, field="venue", limit=VENUE_MAX)


def _date_parse(value: str | None) -> datetime.date:
    """The document's date, already checked by `document_parse` (`value.not_date`); today when it has none."""
    if value is None:
        return timezone.localdate()
    return datetime.date.fromisoformat(value)
