"""Every write to the ledger. Keyword-only, one transaction each; a refusal changes nothing.

The hand log is append-only: recording a hand adds a `Hand` and its first
`HandRevision`; a correction or a void adds a revision. After each write the
session is replayed through the rules engine and the derived rows
(`SettlementRow`, `GameRow`) are rebuilt from the first hand the write could
change, inside the same transaction — so what is stored always equals what
the log replays to. Writers of one session are serialized by locking the
session row (`SELECT … FOR UPDATE` where the database has it).

Refusals raise `LedgerError` (stable code, ledger hand number, field);
a user without a writing role in the club gets `PermissionDenied`.
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils import timezone

from . import entry_sql, policy
from .bulk import gc_paused, rows_insert, session_log_insert
from .ledger import (
    GAME_COLUMNS,
    SETTLEMENT_COLUMNS,
    STATE_COLUMNS,
    LedgerError,
    LogEntry,
    LogReplay,
    Resume,
    ResumeUnavailable,
    derived_values,
    hand_input_ordered,
    log_document,
    log_load,
    log_replay,
    next_hand_load,
    resume_load,
    session_players,
)
from .models import (
    ApiToken,
    Club,
    GameRow,
    Hand,
    HandRevision,
    HandState,
    Membership,
    Player,
    Session,
    SessionEvent,
    SessionSeat,
    SettlementRow,
)
from .ratings import ratings_rebuild
from .rules.base import HandInput, RulesError
from .rules.document import document_parse, hand_parse
from .rules.options import options_dump, options_resolve
from .rules.registry import VARIANTS
from .rules.session import session_replay
from .values import json_clean, name_clean, name_key, text_bad, text_clean

__all__ = [
    "HandWrite",
    "LedgerError",
    "SessionWrite",
    "club_export",
    "club_import",
    "hand_correct",
    "hand_preview",
    "hand_preview_next",
    "hand_record",
    "hand_void",
    "session_close",
    "session_derived_rebuild",
    "session_export",
    "session_import",
    "session_open",
    "session_reopen",
]

User = AbstractBaseUser | AnonymousUser

CLIENT_KEY_MAX = 64
PLAYER_NAME_MAX = Player._meta.get_field("name").max_length or 60
VENUE_MAX = Session._meta.get_field("venue").max_length or 100
REASON_MAX = 500  # as the web forms' reason field
# Fields a hand may leave for the table's state to fill in; once played they are stored (see `_facts_stored`).
FACT_FIELDS = frozenset({"dealer", "declarer"})


def hands_max() -> int:
    """The most hands a session may hold (setting `BAIFEN_MAX_HANDS`), void ones included."""
    return int(getattr(settings, "BAIFEN_MAX_HANDS", 2000))


@dataclass(frozen=True, kw_only=True)
class HandWrite:
    """A hand after a write: its current revision, and whether this call created the hand.

    `derived` is the hand's stored result as the write left it (None for a
    void hand, or a repeat that wrote nothing): the answer is built from it
    without reading or replaying the log again.
    """

    hand: Hand
    revision: HandRevision
    created: bool
    derived: HandState | None = None
    players: tuple[Player, ...] | None = None  # by seat, when the write read them (None: read them again)


@dataclass(frozen=True, kw_only=True)
class SessionWrite:
    """A session after an import: whether this call created it (False: a retry under the same key)."""

    session: Session
    created: bool


# --- sessions ---


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
    client_key = _client_key_clean(client_key)
    with transaction.atomic():
        policy.require_write(user=user, club_id=club.pk)
        if client_key:
            existing = Session.objects.filter(club=club, client_key=client_key).first()
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
        seated = _players_resolve(club=club, players=players)
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
    return session


def session_close(*, session: Session, user: User) -> Session:
    """Close the session: no more hands. Closing a closed session changes nothing."""
    with transaction.atomic():
        session, role = _session_lock(session, user=user)
        policy.require_write_role(role)
        if session.is_open:
            session.status = Session.Status.CLOSED
            session.closed_at = timezone.now()
            session.save(update_fields=["status", "closed_at", "updated_at"])
            SessionEvent.objects.create(
                session=session, kind=SessionEvent.Kind.CLOSED, user=user, created_at=session.closed_at
            )
            ratings_rebuild(session=session)  # a friend-card session counts once closed
    return session


def session_reopen(*, session: Session, user: User) -> Session:
    """Open a closed session again for more hands (owners only), kept in the audit trail.

    Reopening an open session changes nothing.
    """
    with transaction.atomic():
        session, role = _session_lock(session, user=user)
        policy.require_reopen_role(role)
        if not session.is_open:
            session.status = Session.Status.OPEN
            session.closed_at = None
            session.save(update_fields=["status", "closed_at", "updated_at"])
            SessionEvent.objects.create(session=session, kind=SessionEvent.Kind.REOPENED, user=user)
            ratings_rebuild(session=session)
    return session


def session_import(*, club: Club, user: User, document: Any, close: bool = True, client_key: str = "") -> SessionWrite:
    """A whole session document into the club, all or nothing; `date` and `venue` kept.

    Names are matched to the club's players, guests created for new names. The
    session is closed (a past sitting) unless `close=False`. Each hand is
    stored with the facts the table's state filled in (`_facts_stored`).
    `client_key` makes a retry safe: the same key with the same document (and
    `close`) returns the session imported the first time (`created=False`);
    with anything else it is refused (`client_key.reused`). A document of
    more than `BAIFEN_MAX_HANDS` hands is refused before any hand is played.
    """
    document = json_clean(document, field="document")
    client_key = _client_key_clean(client_key)
    digest = _import_digest(document, close=close) if client_key else ""
    with transaction.atomic(), gc_paused():  # bulk.gc_paused: the collector is most of a long import's time
        policy.require_write(user=user, club_id=club.pk)
        if client_key:
            existing = Session.objects.filter(club=club, client_key=client_key).first()
            if existing is not None:
                if existing.client_digest != digest:
                    raise LedgerError("client_key.reused", field="client_key", subject="session", number=existing.pk)
                return SessionWrite(session=existing, created=False)
        if isinstance(document, dict) and isinstance(document.get("hands"), list):
            _hands_limit(len(document["hands"]))
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
        seated = _players_resolve(club=club, players=list(doc.players))
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
            _facts_stored(hand_input, played.facts)
            for hand_input, played in zip(document["hands"], result.hands, strict=True)
        ]
        # The hands, their revisions and the derived rows: executemany, no model instances (`bulk.py`).
        replay = LogReplay(result=result, numbers=tuple(range(1, len(inputs) + 1)))
        session_log_insert(session=session, players=seated, inputs=inputs, replay=replay, author_id=user.pk, now=now)
        ratings_rebuild(session=session)  # its finished games, or the session itself once closed (ratings.py)
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
        session, _ = _session_lock(session)
        log = log_load(session=session)
        replay = log_replay(session=session, players=log.players, hands=log.hands())
        _derived_rebuild(session=session, players=log.players, replay=replay, hand_ids=log.hand_ids, from_number=1)
    return session


# --- whole clubs: export and restore with the history ---

CLUB_FORMAT = "baifen-ledger-club"
CLUB_FORMAT_VERSION = 1


def club_export(*, club: Club) -> dict[str, Any]:
    """The club with every session and every revision of every hand: what `club_import` restores.

    Each session carries the session document's fields (variant, frozen
    options, players by seat, date, venue) with `status`, `closed_at`, who
    opened it and when; its `hands` are every hand of the log, void ones
    included, each with its number and its `revisions` (author's username,
    when, reason, input, void) oldest first — not the `settle` format's plain
    inputs. Users appear by username only.
    """
    sessions = []
    for session in Session.objects.filter(club=club).select_related("created_by").order_by("created_at", "pk"):
        log = log_load(session=session)
        sessions.append(
            {
                "variant": session.variant,
                "options": session.options,
                "players": [player.name for player in log.players],
                "date": session.date.isoformat(),
                "venue": session.venue,
                "status": session.status,
                "closed_at": session.closed_at.isoformat() if session.closed_at else None,
                "created_by": session.created_by.get_username(),
                "created_at": session.created_at.isoformat(),
                "client_key": session.client_key,
                "hands": [
                    {
                        "n": entry.number,
                        "client_key": entry.hand.client_key,
                        "created_at": entry.hand.created_at.isoformat(),
                        "revisions": [
                            {
                                "number": revision.number,
                                "author": revision.author.get_username(),
                                "created_at": revision.created_at.isoformat(),
                                "reason": revision.reason,
                                "input": hand_input_ordered(revision.input),
                                "void": revision.is_void,
                            }
                            for revision in entry.revisions
                        ],
                    }
                    for entry in log.entries
                ],
            }
        )
    players = Player.objects.filter(club=club).select_related("user").order_by("created_at", "pk")
    members = Membership.objects.filter(club=club).select_related("user").order_by("pk")
    return {
        "format": CLUB_FORMAT,
        "version": CLUB_FORMAT_VERSION,
        "club": {"name": club.name, "slug": club.slug, "created_at": club.created_at.isoformat()},
        "members": [{"user": m.user.get_username(), "role": m.role} for m in members],
        "players": [
            {
                "name": p.name,
                "is_guest": p.is_guest,
                "user": p.user.get_username() if p.user else None,
                "created_at": p.created_at.isoformat(),
            }
            for p in players
        ],
        "sessions": sessions,
    }


def club_import(*, document: Any) -> Club:
    """Restore a `club_export` document, all or nothing: the same hands, numbers, revisions and results.

    The club's slug must be free. Users named in it that do not exist are
    created as inactive accounts without a password (an administrator
    activates them). The log is written with inserts only and every session's
    derived rows are rebuilt from it; a log that no longer replays is refused.
    """
    with transaction.atomic():
        try:
            return _club_restore(document)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise LedgerError("document.invalid", field="document", detail=repr(error)) from error


def _club_restore(document: dict[str, Any]) -> Club:
    if document.get("format") != CLUB_FORMAT or document.get("version") != CLUB_FORMAT_VERSION:
        raise ValueError(f"format {document.get('format')!r} version {document.get('version')!r}")
    slug = document["club"]["slug"]
    if Club.objects.filter(slug=slug).exists():
        raise LedgerError("club.exists", field="club.slug", slug=slug)
    club = Club.objects.create(
        name=document["club"]["name"], slug=slug, created_at=_datetime_parse(document["club"]["created_at"])
    )
    users = _users_ensure(
        {m["user"] for m in document["members"]}
        | {p["user"] for p in document["players"] if p["user"]}
        | {s["created_by"] for s in document["sessions"]}
        | {r["author"] for s in document["sessions"] for h in s["hands"] for r in h["revisions"]}
    )
    Membership.objects.bulk_create(
        Membership(club=club, user=users[m["user"]], role=m["role"]) for m in document["members"]
    )
    Player.objects.bulk_create(
        Player(
            club=club,
            name=p["name"],
            is_guest=p["is_guest"],
            user=users[p["user"]] if p["user"] else None,
            created_at=_datetime_parse(p["created_at"]),
        )
        for p in document["players"]
    )
    players = {player.name: player for player in Player.objects.filter(club=club)}
    for doc in document["sessions"]:
        session = Session.objects.create(
            club=club,
            date=datetime.date.fromisoformat(doc["date"]),
            venue=doc["venue"],
            variant=doc["variant"],
            options=doc["options"],
            status=doc["status"],
            closed_at=_datetime_parse(doc["closed_at"]) if doc["closed_at"] else None,
            created_by=users[doc["created_by"]],
            created_at=_datetime_parse(doc["created_at"]),
            client_key=doc["client_key"],
        )
        SessionSeat.objects.bulk_create(
            SessionSeat(session=session, seat=seat, player=players[name]) for seat, name in enumerate(doc["players"])
        )
        hands = Hand.objects.bulk_create(
            Hand(
                session=session, number=h["n"], client_key=h["client_key"], created_at=_datetime_parse(h["created_at"])
            )
            for h in doc["hands"]
        )
        HandRevision.objects.bulk_create(
            HandRevision(
                hand=hand,
                number=r["number"],
                input=r["input"],
                is_void=r["void"],
                reason=r["reason"],
                author=users[r["author"]],
                created_at=_datetime_parse(r["created_at"]),
            )
            for hand, h in zip(hands, doc["hands"], strict=True)
            for r in h["revisions"]
        )
        log = log_load(session=session)
        replay = log_replay(session=session, players=log.players, hands=log.hands())
        _derived_rebuild(session=session, players=log.players, replay=replay, hand_ids=log.hand_ids, from_number=1)
    return club


def _users_ensure(usernames: set[str]) -> dict[str, Any]:
    """The users of these names; missing ones created inactive, with no usable password."""
    user_model = get_user_model()
    field = user_model.USERNAME_FIELD
    users = {user.get_username(): user for user in user_model.objects.filter(**{f"{field}__in": usernames})}
    for name in sorted(usernames - users.keys()):
        user = user_model(**{field: name}, is_active=False)
        user.set_unusable_password()
        user.save()
        users[name] = user
    return users


def _datetime_parse(value: str) -> datetime.datetime:
    parsed = datetime.datetime.fromisoformat(value)
    if timezone.is_naive(parsed):
        raise ValueError(f"time without a time zone: {value}")
    return parsed


# --- hands ---


def hand_preview(
    *, session: Session, hand_input: Any, lang: str = "zh-Hans", number: int | None = None
) -> dict[str, Any]:
    """The engine's results for the session with a candidate hand, without writing anything.

    The candidate is appended after the current hands (its `n` is the number it
    would get), or, with `number`, replaces that hand's current input (a
    correction's preview). Returns the whole results document in `lang`, hands
    numbered as in the ledger; raises `LedgerError` when the rules refuse it.
    """
    hand_input = json_clean(hand_input, field="hand")
    log = log_load(session=session)
    if number is None:
        _hands_limit(len(log.entries) + 1)
        hands = [*log.hands(), (log.next_number, hand_input)]
    else:
        if log.entry(number) is None:
            raise LedgerError("hand.not_found", field="number", hand=number, number=number)
        hands = log.hands(replace={number: hand_input})
    return log_replay(session=session, players=log.players, hands=hands).render(lang)


def hand_preview_next(*, session: Session, hand_input: Any, lang: str = "zh-Hans") -> dict[str, Any]:
    """The next hand's results, played on from the stored state of the last hand, without writing anything.

    The same play `hand_record` makes, so the same receipt and totals, at a cost
    that does not grow with the log: two queries (seats, the number with the
    stored state) and one hand through the engine. The document answers only for what
    that play knows: `hands` is the new hand alone (its `n` the number it would
    get), `games` the game it plays in (and one it closes), `totals`,
    `games_won` and `settle_up` the session's after it. Raises `LedgerError`
    when the rules refuse it.
    """
    hand_input = json_clean(hand_input, field="hand")
    players = session_players(session=session)
    following = next_hand_load(session=session)
    _hands_limit(following.number)
    hands = [(following.number, hand_input)]
    return _replay_on(
        session=session, players=players, before=following.number, hands=hands, start=following.start
    ).render(lang)


def hand_record(
    *, session: Session, user: User, hand_input: Any, client_key: str = "", expected_number: int | None = None
) -> HandWrite:
    """Append a hand to an open session.

    `client_key` (made by the client, at most 64 characters) makes the call
    idempotent: a repeat with the same key and the same input returns the hand
    recorded the first time (`created=False`) and writes nothing; the same key
    with a different input is refused (`client_key.reused`).
    `expected_number` is the number the client entered the hand as (a phone's
    queue, entered offline against the state it last knew): a new hand that
    would get another number is refused (`hand.moved`), checked under the
    session's lock so two senders cannot both pass it. A repeat is a repeat.
    """
    hand_input = json_clean(hand_input, field="hand")
    client_key = _client_key_clean(client_key)
    with transaction.atomic():
        session, role = _session_lock(session, user=user)
        policy.require_write_role(role)
        if client_key:
            existing = Hand.objects.filter(session=session, client_key=client_key).first()
            if existing is not None:
                return _record_repeat(session=session, hand=existing, hand_input=hand_input)
        if not session.is_open:
            raise LedgerError("session.closed", field="session")
        players = session_players(session=session)
        following = next_hand_load(session=session)
        number = following.number
        _hands_limit(number)
        if expected_number is not None and number != expected_number:
            raise LedgerError("hand.moved", field="number", number=expected_number, last=number - 1)
        replay = _replay_on(
            session=session, players=players, before=number, hands=[(number, hand_input)], start=following.start
        )
        stored = _facts_stored(hand_input, replay.result.hands[-1].facts)
        hand = Hand.objects.create(session=session, number=number, client_key=client_key)
        revision = HandRevision.objects.create(hand=hand, number=1, input=stored, author=user)
        derived = _derived_rebuild(
            session=session,
            players=players,
            replay=replay,
            hand_ids={number: hand.pk},
            from_number=number,
            appended=True,
        )
        _session_touch(session, revision.created_at)
    return HandWrite(hand=hand, revision=revision, created=True, derived=derived.get(number), players=players)


def hand_correct(
    *, session: Session, user: User, number: int, hand_input: Any, reason: str, revision: int | None = None
) -> HandWrite:
    """A new revision of hand `number` with a corrected input (a void hand comes back with it).

    Every later hand is replayed on the corrected one: later games, levels and
    tribute follow; if a later hand no longer passes the rules, the correction
    is refused naming that hand. Owners may correct a closed session.
    `revision` is the revision the correction was made from: when the hand has
    moved on since, it is refused (`hand.stale`) — unless the newer revision is
    this very correction arriving again (a retry), which returns it.
    """
    hand_input = json_clean(hand_input, field="hand")
    reason = _reason_clean(reason)
    with transaction.atomic():
        session, role = _session_lock(session, user=user)
        policy.require_revise_role(role, session)
        log = log_load(session=session, from_number=number)
        entry = log.entry(number)
        if entry is None:
            raise LedgerError("hand.not_found", field="number", hand=number, number=number)
        repeat = _revision_check(entry=entry, revision=revision, user=user, hand_input=hand_input, reason=reason)
        if repeat is not None:
            return repeat
        hands = log.hands(replace={number: hand_input})
        replay = _replay_from(session=session, players=log.players, before=number, hands=hands)
        stored = _facts_stored(hand_input, replay.result.hands[replay.numbers.index(number)].facts)
        if not entry.is_void and entry.current.input == stored:
            raise LedgerError("hand.unchanged", field="hand", hand=number)
        revision = HandRevision.objects.create(
            hand=entry.hand, number=entry.current.number + 1, input=stored, reason=reason, author=user
        )
        derived = _derived_rebuild(
            session=session, players=log.players, replay=replay, hand_ids=log.hand_ids, from_number=number
        )
        _session_touch(session, revision.created_at)
    return HandWrite(
        hand=entry.hand, revision=revision, created=False, derived=derived.get(number), players=log.players
    )


def hand_void(*, session: Session, user: User, number: int, reason: str, revision: int | None = None) -> HandWrite:
    """Mark hand `number` void: it keeps its number and history, and stops counting.

    Refused when a later hand no longer passes the rules without it. Owners may void in a closed session.
    `revision` works as in `hand_correct`.
    """
    reason = _reason_clean(reason)
    with transaction.atomic():
        session, role = _session_lock(session, user=user)
        policy.require_revise_role(role, session)
        log = log_load(session=session, from_number=number)
        entry = log.entry(number)
        if entry is None:
            raise LedgerError("hand.not_found", field="number", hand=number, number=number)
        repeat = _revision_check(entry=entry, revision=revision, user=user, hand_input=None, reason=reason)
        if repeat is not None:
            return repeat
        if entry.is_void:
            raise LedgerError("hand.already_void", field="number", hand=number, number=number)
        replay = _replay_from(session=session, players=log.players, before=number, hands=log.hands(drop=number))
        revision = HandRevision.objects.create(
            hand=entry.hand, number=entry.current.number + 1, input=None, is_void=True, reason=reason, author=user
        )
        _derived_rebuild(session=session, players=log.players, replay=replay, hand_ids=log.hand_ids, from_number=number)
        _session_touch(session, revision.created_at)
    return HandWrite(hand=entry.hand, revision=revision, created=False)


# --- helpers ---


def _session_touch(session: Session, when: datetime.datetime) -> None:
    """The session's `updated_at` is its latest write: a hand's revision does not save the session itself."""
    entry_sql.session_touch(session_id=session.pk, when=when)
    session.updated_at = when


def _revision_check(
    *, entry: LogEntry, revision: int | None, user: User, hand_input: Any, reason: str
) -> HandWrite | None:
    """None when a revision made from `revision` may be written; the revision itself when it is a retry.

    A retry is the same author's same change arriving again: the revision right
    after `revision` is current and holds this input (None: a void) and reason.
    """
    if revision is None or revision == entry.current.number:
        return None
    if isinstance(revision, bool) or not isinstance(revision, int) or revision < 1:
        raise LedgerError("revision.invalid", field="revision")
    current = entry.current
    if (
        current.number == revision + 1
        and current.author_id == user.pk
        and current.reason == reason
        and current.is_void == (hand_input is None)
        and _same_entry(stored=current.input, entered=hand_input)
    ):
        return HandWrite(hand=entry.hand, revision=current, created=False)
    raise LedgerError("hand.stale", field="revision", hand=entry.number, number=entry.number, current=current.number)


def _record_repeat(*, session: Session, hand: Hand, hand_input: Any) -> HandWrite:
    revisions = list(hand.revisions.order_by("number"))
    if not _same_entry(stored=revisions[0].input, entered=hand_input, session=session):
        raise LedgerError("client_key.reused", field="client_key", hand=hand.number, number=hand.number)
    return HandWrite(hand=hand, revision=revisions[-1], created=False)


def _facts_stored(hand_input: Any, facts: Mapping[str, Any]) -> Any:
    """The hand as stored: as entered, plus the facts of play the table's state filled in.

    Who dealt (头家), or in the level games who declared, is a fact once the
    hand is played: stored with the hand, a later void or correction of an
    earlier hand replays it as it was instead of working it out again (the
    engine says what it filled in: `rules.session.hand_facts`).
    """
    if not facts or not isinstance(hand_input, dict):
        return hand_input
    return {**hand_input, **facts}


def _same_entry(*, stored: Any, entered: Any, session: Session | None = None) -> bool:
    """Whether `entered` is the entry that was stored: equal, or equal but for facts the table filled in.

    With the session, also equal once the engine has filled in its defaults: `{"forced": false}` is the
    hand without `forced` (a client that sends every field retries the hand it sent without them).
    """
    if stored == entered:
        return True
    if not isinstance(stored, dict) or not isinstance(entered, dict):
        return False
    stored = {k: v for k, v in stored.items() if k in entered or k not in FACT_FIELDS}
    if stored == entered:
        return True
    if session is None:
        return False
    parsed = _hand_defaults_filled(stored, session=session)
    return parsed is not None and parsed == _hand_defaults_filled(entered, session=session)


def _hand_defaults_filled(hand_input: dict[str, Any], *, session: Session) -> HandInput | None:
    """The hand as the engine reads it, every field at its value or default (None: the rules refuse it)."""
    variant = VARIANTS.get(session.variant)
    if variant is None:
        return None
    players = SessionSeat.objects.filter(session=session).count()
    try:
        parsed = hand_parse(hand_input, n=1, variant=variant, players=players)
    except RulesError:
        return None
    return dataclasses.replace(parsed, present=frozenset())


def _hands_limit(count: int) -> None:
    limit = hands_max()
    if count > limit:
        raise LedgerError("session.too_many_hands", field="hands", limit=limit)


def _import_digest(document: Any, *, close: bool) -> str:
    """What tells a retried import from another one under the same key: a hash of the canonical request."""
    canonical = json.dumps({"document": document, "close": close}, ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _derived_rebuild(
    *,
    session: Session,
    players: Sequence[Player],
    replay: LogReplay,
    hand_ids: Mapping[int, int],
    from_number: int,
    appended: bool = False,
) -> dict[int, HandState]:
    """Replace the derived rows from hand `from_number` on with the replay's (earlier ones cannot have changed).

    The engine is deterministic and plays hands in order, so hands before
    `from_number` and games that finished before it replay exactly as stored.
    At most six statements whatever the number of hands, the rows inserted as
    tuples (`bulk.rows_insert`); an `appended` hand is the last, so it has no
    rows to delete but its game's. Returns the new hand states by hand number.
    """
    derived = derived_values(
        session=session, players=players, replay=replay, hand_ids=hand_ids, from_number=from_number
    )
    if not appended:
        SettlementRow.objects.filter(session=session, number__gte=from_number).delete()
        HandState.objects.filter(session=session, number__gte=from_number).delete()
    entry_sql.game_rows_delete(session_id=session.pk, from_game=derived.first_game)
    rows_insert(SettlementRow, SETTLEMENT_COLUMNS, derived.settlement_rows)
    rows_insert(GameRow, GAME_COLUMNS, derived.game_rows)
    rows_insert(HandState, STATE_COLUMNS, derived.hand_states)
    # The ratings (ratings.py) follow finished games and closed sessions. A hand appended to an open session
    # replaces only the rows of the game in progress, unfinished: unless it finishes that game, no rating moves.
    finished = GAME_COLUMNS.index("finished")
    if not appended or any(row[finished] for row in derived.game_rows):
        ratings_rebuild(session=session)
    states = (HandState(**dict(zip(STATE_COLUMNS, row, strict=True))) for row in derived.hand_states)
    return {state.number: state for state in states}


def _replay_from(
    *, session: Session, players: Sequence[Player], before: int, hands: Sequence[tuple[int, Any]]
) -> LogReplay:
    """Play `hands` (hand `before` and the ones after it) on from the stored state before hand `before`.

    Only that one stored state is read (`_replay_on` says what happens when it cannot be played on from).
    """
    try:
        start: Resume | None = resume_load(session=session, before=before)
    except ResumeUnavailable:
        start = None
    return _replay_on(session=session, players=players, before=before, hands=hands, start=start)


def _replay_on(
    *,
    session: Session,
    players: Sequence[Player],
    before: int,
    hands: Sequence[tuple[int, Any]],
    start: Resume | None,
) -> LogReplay:
    """Play `hands` on from `start`, the stored state before hand `before`. `start` None: that state is of
    another version (stored before an upgrade), so the log before `before` is read and replayed instead."""
    if start is not None:
        return log_replay(session=session, players=players, hands=hands, start=start)
    earlier = [hand for hand in log_load(session=session).hands() if hand[0] < before]
    return log_replay(session=session, players=players, hands=[*earlier, *hands])


def _session_lock(session: Session, *, user: User | None = None) -> tuple[Session, str | None]:
    """The session row, locked until the transaction ends (one writer per session at a time), and `user`'s
    role in its club read with it: one query for both (None: no user, or not a member).

    FOR NO KEY UPDATE, not FOR UPDATE: writers still queue on it, but another writer's foreign-key check on
    this row (FOR KEY SHARE, as when a ratings rebuild in another session of the club inserts rows naming
    it) does not wait on it. With FOR UPDATE, two writers each holding their session and inserting rows
    that name the other's deadlocked on PostgreSQL (SQLite has no row locks: the whole file is the lock).
    The role is a subquery in the select list, so only the session row is locked (`entry_sql`: every hand runs it)."""
    return entry_sql.session_lock(session_id=session.pk, user_id=getattr(user, "pk", None))


def _players_resolve(*, club: Club, players: Sequence[Player | str]) -> list[Player]:
    """Players by seat: club players as given, names matched to the club's players, guests made for new names.

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
        # A record merged into another (`services_players.player_merge`) stands for the one it was merged into.
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
    if new:
        # ignore_conflicts: a guest of that name created meanwhile by another session is the same player.
        Player.objects.bulk_create([Player(club=club, name=name, is_guest=True) for name in new], ignore_conflicts=True)
        made = {player.name: player for player in Player.objects.filter(club=club, name__in=new)}
        seated = [player if player is not None else made[name] for name, player in zip(names, seated, strict=True)]
    result = [player for player in seated if player is not None]
    if len({player.pk for player in result}) != len(result):
        raise LedgerError.from_rules(RulesError("players.duplicate", field="players"))
    return result


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


def _client_key_clean(client_key: str) -> str:
    client_key = client_key or ""
    if not isinstance(client_key, str) or text_bad(client_key):
        raise LedgerError("client_key.invalid", field="client_key")
    client_key = client_key.strip()
    if len(client_key) > CLIENT_KEY_MAX:
        raise LedgerError("client_key.invalid", field="client_key")
    return client_key


def _reason_clean(reason: str) -> str:
    if not isinstance(reason, str):
        raise LedgerError.from_rules(RulesError("value.not_text", field="reason"))
    reason = text_clean(reason, field="reason", limit=REASON_MAX)
    if not reason:
        raise LedgerError("reason.required", field="reason")
    return reason


def _venue_clean(venue: str) -> str:
    if not isinstance(venue, str):
        raise LedgerError.from_rules(RulesError("value.not_text", field="venue"))
    return name_clean(venue, field="venue", limit=VENUE_MAX)


def _date_parse(value: str | None) -> datetime.date:
    if value is None:
        return timezone.localdate()
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise LedgerError.from_rules(RulesError("value.not_date", field="date")) from None


# --- personal API tokens ---

API_TOKEN_PREFIX = "bf_"
API_TOKEN_NAME_MAX = 60


def api_token_hash(secret: str) -> str:
    """What is stored of a token's secret: its SHA-256, hex (the secret is random, so no salt is needed)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def api_token_create(*, user: User, name: Any, expires_at: datetime.datetime | None = None) -> tuple[ApiToken, str]:
    """A new named token for `user` and its secret, which is returned this once and never stored."""
    if not isinstance(name, str):
        raise LedgerError.from_rules(RulesError("value.not_text", field="name"))
    name = name_clean(name, field="name", limit=API_TOKEN_NAME_MAX)
    if not name:
        raise LedgerError("token.name_required", field="name")
    if expires_at is not None and expires_at <= timezone.now():
        raise LedgerError("token.expired", field="expires")
    secret = API_TOKEN_PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        token = ApiToken.objects.create(
            user=user, name=name, key_hash=api_token_hash(secret), prefix=secret[:10], expires_at=expires_at
        )
    return token, secret


def api_token_revoke(*, user: User, token_id: int) -> ApiToken:
    """Revoke one of `user`'s tokens; another user's token is not found. Revoking twice changes nothing."""
    with transaction.atomic():
        token = ApiToken.objects.select_for_update().filter(user=user, pk=token_id).first()
        if token is None:
            raise LedgerError("token.not_found", field="id")
        if token.revoked_at is None:
            token.revoked_at = timezone.now()
            token.save(update_fields=["revoked_at"])
    return token
