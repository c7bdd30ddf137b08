"""Hands: preview, record, correct and void, and what they need to stay idempotent and in order.

The hand log is append-only: recording a hand adds a `Hand` and its first `HandRevision`; a
correction or a void adds a revision, made from the revision the client saw (`revision`; a newer
one is refused as stale, unless it is this very change arriving again). A preview writes nothing.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.http import Http404
from django.utils import timezone

from .. import policy
from ..ledger import (
    LedgerError,
    Log,
    LogEntry,
    LogReplay,
    NextHand,
    Resume,
    ResumeUnavailable,
    log_load,
    log_replay,
    next_hand_load,
    players_and_next_load,
    resume_load,
    session_players,
    sql,
)
from ..ledger.changes import ChangeNote, changes_append
from ..ledger.values import json_clean, text_clean
from ..models import Change, Hand, HandRevision, HandState, Player, Session, SessionSeat
from ..rules.base import HandInput, RulesError
from ..rules.document import hand_parse
from ..rules.registry import VARIANTS
from .common import (
    FACT_FIELDS,
    REASON_MAX,
    User,
    client_key_clean,
    derived_rebuild,
    facts_stored,
    hands_limit,
    session_lock,
)


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
        hands_limit(len(log.entries) + 1)
        hands = [*log.hands(), (log.next_number, hand_input)]
    else:
        if log.entry(number) is None:
            raise LedgerError("hand.not_found", field="number", hand=number, number=number)
        hands = log.hands(replace={number: hand_input})
    return log_replay(session=session, players=log.players, hands=hands).render(lang)


def hand_preview_next(
    *,
    session: Session,
    hand_input: Any,
    lang: str = "zh-Hans",
    players: Sequence[Player] | None = None,
    following: NextHand | None = None,
) -> dict[str, Any]:
    """The next hand's results, played on from the stored state of the last hand, without writing anything.

    The same play `hand_record` makes, so the same receipt and totals, at a cost
    that does not grow with the log: two queries (seats, the number with the
    stored state; none when the caller read them already, as a read of the session
    does: `players`, `following`) and one hand through the engine. The document answers only for what
    that play knows: `hands` is the new hand alone (its `n` the number it would
    get), `games` the game it plays in (and one it closes), `totals`,
    `games_won` and `settle_up` the session's after it. Raises `LedgerError`
    when the rules refuse it.
    """
    hand_input = json_clean(hand_input, field="hand")
    if players is None and following is None:
        players, following = players_and_next_load(session=session)
    if players is None:
        players = session_players(session=session)
    if following is None:
        following = next_hand_load(session=session)
    hands_limit(following.number)
    hands = [(following.number, hand_input)]
    return _replay_on(
        session=session, players=players, before=following.number, hands=hands, start=following.start
    ).render(lang)


def hand_record(
    *,
    session: Session,
    user: User,
    hand_input: Any,
    client_key: str = "",
    expected_number: int | None = None,
    note: str = "",
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
    Only `session.pk` is read before the lock, which reads the session and scopes it to `user`'s clubs: it may be
    unread (`scoping.session_for_write`), and a session the user cannot see is an `Http404`. The write's
    `hand.session` is the session as locked.
    """
    hand_input = json_clean(hand_input, field="hand")
    client_key = client_key_clean(client_key)
    note = _note_clean(note)
    with transaction.atomic():
        try:
            session, role = session_lock(session, user=user)
        except Session.DoesNotExist:
            role = None
        if role is None:
            raise Http404("no such session")
        policy.require_write_role(role)
        if client_key:
            existing = Hand.objects.filter(session=session, client_key=client_key).first()
            if existing is not None:
                existing.session = session
                return _record_repeat(session=session, hand=existing, hand_input=hand_input)
        if not session.is_open:
            raise LedgerError("session.closed", field="session")
        late_round = getattr(session, "late_round", None)
        if late_round is not None:  # an event round's clock ran out, and the event refuses late hands
            raise LedgerError("round.time_up", field="hand", n=late_round)
        players, following = players_and_next_load(session=session)
        number = following.number
        hands_limit(number)
        if expected_number is not None and number != expected_number:
            raise LedgerError("hand.moved", field="number", number=expected_number, last=number - 1)
        replay = _replay_on(
            session=session, players=players, before=number, hands=[(number, hand_input)], start=following.start
        )
        stored = facts_stored(hand_input, replay.result.hands[-1].facts)
        hand, revision = sql.hand_insert(
            session_id=session.pk,
            number=number,
            client_key=client_key,
            hand_input=stored,
            author_id=user.pk,
            note=note or None,
            when=timezone.now(),
        )
        hand.session = session
        with sql.pipelined():  # writes whose answers nobody reads: one round trip on PostgreSQL
            derived = derived_rebuild(
                session=session,
                players=players,
                replay=replay,
                hand_ids={number: hand.pk},
                from_number=number,
                appended=True,
            )
            _session_touch(session, revision.created_at)
            _hand_change(session, hand, revision, Change.Kind.HAND_RECORDED)
    return HandWrite(hand=hand, revision=revision, created=True, derived=derived.get(number), players=players)


def hand_correct(
    *,
    session: Session,
    user: User,
    number: int,
    hand_input: Any,
    reason: str,
    revision: int | None = None,
    note: str | None = None,
) -> HandWrite:
    """A new revision of hand `number` with a corrected input (a void hand comes back with it).

    Every later hand is replayed on the corrected one: later games, levels and
    tribute follow; if a later hand no longer passes the rules, the correction
    is refused naming that hand. Owners may correct a closed session.
    `revision` is the revision the correction was made from: when the hand has
    moved on since, it is refused (`hand.stale`) — unless the newer revision is
    this very correction arriving again (a retry), which returns it.
    `note` is the new revision's note (None: the current one's, carried over); a changed note alone is a
    correction too, written as a new revision like any other.
    """
    hand_input = json_clean(hand_input, field="hand")
    reason = _reason_clean(reason)
    note = _note_clean(note)
    with transaction.atomic():
        session, log, entry, repeat = _revision_start(
            session=session, user=user, number=number, revision=revision, hand_input=hand_input, reason=reason
        )
        if repeat is not None:
            return repeat
        hands = log.hands(replace={number: hand_input})
        replay = _replay_from(session=session, players=log.players, before=number, hands=hands)
        stored = facts_stored(hand_input, replay.result.hands[replay.numbers.index(number)].facts)
        note = entry.current.note if note is None else (note or None)
        if not entry.is_void and entry.current.input == stored and entry.current.note == note:
            raise LedgerError("hand.unchanged", field="hand", hand=number)
        revision = HandRevision.objects.create(
            hand=entry.hand, number=entry.current.number + 1, input=stored, reason=reason, author=user, note=note
        )
        derived = derived_rebuild(
            session=session, players=log.players, replay=replay, hand_ids=log.hand_ids, from_number=number
        )
        _session_touch(session, revision.created_at)
        _hand_change(session, entry.hand, revision, Change.Kind.HAND_CORRECTED)
    return HandWrite(
        hand=entry.hand, revision=revision, created=False, derived=derived.get(number), players=log.players
    )


def hand_void(
    *, session: Session, user: User, number: int, reason: str, revision: int | None = None, newest: bool = False
) -> HandWrite:
    """Mark hand `number` void: it keeps its number and history, and stops counting.

    Refused when a later hand no longer passes the rules without it. Owners may void in a closed session.
    `revision` works as in `hand_correct`. With `newest` (the table's "undo the last hand") it is refused
    (`hand.not_newest`) when another hand was recorded after `number` meanwhile: checked under the lock.
    """
    reason = _reason_clean(reason)
    with transaction.atomic():
        session, log, entry, repeat = _revision_start(
            session=session, user=user, number=number, revision=revision, hand_input=None, reason=reason
        )
        if repeat is not None:
            return repeat
        if entry.is_void:
            raise LedgerError("hand.already_void", field="number", hand=number, number=number)
        if newest and log.entry(number + 1) is not None:
            raise LedgerError("hand.not_newest", field="number", hand=number, number=number)
        replay = _replay_from(session=session, players=log.players, before=number, hands=log.hands(drop=number))
        revision = HandRevision.objects.create(
            hand=entry.hand, number=entry.current.number + 1, input=None, is_void=True, reason=reason, author=user
        )
        derived_rebuild(session=session, players=log.players, replay=replay, hand_ids=log.hand_ids, from_number=number)
        _session_touch(session, revision.created_at)
        _hand_change(session, entry.hand, revision, Change.Kind.HAND_VOIDED)
    return HandWrite(hand=entry.hand, revision=revision, created=False)


def _revision_start(
    *, session: Session, user: User, number: int, revision: int | None, hand_input: Any, reason: str
) -> tuple[Session, Log, LogEntry, HandWrite | None]:
    """What a correction and a void begin with, inside their transaction: the session locked, the user's role
    checked (`policy.require_revise_role`), the log read from hand `number` on and the hand's entry in it.

    The last item is not None when this revision is already written (a retry, `_revision_check`): the
    caller returns it and writes nothing. Raises `hand.not_found` when the session has no hand `number`.
    """
    session, role = session_lock(session, user=user)
    policy.require_revise_role(role, session)
    log = log_load(session=session, from_number=number)
    entry = log.entry(number)
    if entry is None:
        raise LedgerError("hand.not_found", field="number", hand=number, number=number)
    repeat = _revision_check(entry=entry, revision=revision, user=user, hand_input=hand_input, reason=reason)
    return session, log, entry, repeat


def _session_touch(session: Session, when: datetime.datetime) -> None:
    """The session's `updated_at` is its latest write (a hand's revision does not save the session itself), and
    its `version` moves on: every open share page and conditional GET of it misses at once."""
    sql.session_touch(session_id=session.pk, when=when)
    session.updated_at = when
    session.version += 1


def _hand_change(session: Session, hand: Hand, revision: HandRevision, kind: str) -> None:
    """The write's change in the club's feed (`ledger/changes.py`): its last statement."""
    note = ChangeNote(kind=kind, object_id=hand.pk, session_id=session.pk, number=hand.number, revision=revision.number)
    changes_append(club_id=session.club_id, notes=[note])


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


def _note_clean(note: Any) -> str | None:
    """A hand's note: text of at most REASON_MAX characters ("" when there is none); None stays None."""
    if note is None:
        return None
    if not isinstance(note, str):
        raise LedgerError.from_rules(RulesError("value.not_text", field="note"))
    return text_clean(note, field="note", limit=REASON_MAX)


def _reason_clean(reason: str) -> str:
    if not isinstance(reason, str):
        raise LedgerError.from_rules(RulesError("value.not_text", field="reason"))
    reason = text_clean(reason, field="reason", limit=REASON_MAX)
    if not reason:
        raise LedgerError("reason.required", field="reason")
    return reason
