"""What services and selectors share: the ledger's error, reading the hand log and replaying it.

The log numbers hands as they were entered, void ones included; the rules
engine numbers the hands of the document it is given (void hands left out).
`LogReplay.numbers` maps one to the other, and every engine hand number that
leaves this module — in an error or in a results document — is a ledger number.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.db import OperationalError, connections, transaction
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from ..models import Hand, HandRevision, HandState, Player, Session, SessionSeat, engine_lang
from ..rules.base import RulesError
from ..rules.document import HAND_FIELDS, document_parse
from ..rules.registry import VARIANTS
from ..rules.session import (
    SessionResult,
    SessionState,
    results_document,
    session_play,
    state_load,
)
from . import sql

# Codes of the ledger's own refusals (the engine's codes keep the engine's texts).
LEDGER_MESSAGES: Mapping[str, Any] = {
    "session.closed": _("the session is closed"),
    "client_key.reused": _("this key was already used for a different hand (hand {number})"),
    "client_key.reused:session": _("this key was already used for a different import (session {number})"),
    "client_key.invalid": _("the client key must be at most 64 characters, without control characters"),
    "client_key.reused:request": _("this Idempotency-Key was already used for a different request"),
    "client_key.invalid:header": _(
        "the Idempotency-Key header must be at most 255 characters, without control characters"
    ),
    "hand.not_found": _("there is no hand {number} in this session"),
    "hand.already_void": _("hand {number} is already void"),
    "hand.not_newest": _("hand {number} is no longer the last hand: another was recorded after it"),
    "hand.unchanged": _("the correction is the same as the current entry"),
    "hand.moved": _(
        "another device recorded hand {last} meanwhile: this hand was entered as hand {number}, "
        "on the state this phone knew then"
    ),
    "hand.stale": _("hand {number} was changed meanwhile (now revision {current}); reload it and try again"),
    "revision.invalid": _("the revision must be a whole number"),
    "reason.required": _("give a reason"),
    # A request body's own field (not a hand's): the engine's text for a hand says "this variant does not use it".
    "field.unknown:body": _("unknown field {name}"),
    "field.unknown:query": _("unknown query parameter {name}"),
    "token.name_required": _("give the token a name"),
    "token.expired": _("the expiry must be in the future"),
    "token.not_found": _("there is no such token among yours"),
    "player.other_club": _("this player belongs to another club"),
    "player.name_too_long": _("a player's name can have at most {limit} characters"),
    "player.name_required": _("give the player a name"),
    "player.name_taken": _("the club already has a player named {name}"),
    "player.name_unchanged": _("that is the player's name already"),
    "player.not_found": _("there is no such player in this club"),
    "player.merged": _("{name} was merged into another player"),
    "player.merge_self": _("a player cannot be merged into itself"),
    "player.merge_same_session": _("both sat in the session of {date} (session {session}): not the same person"),
    "value.not_json": _("must be plain JSON (objects, lists, text, numbers, true/false, null)"),
    "value.too_long": _("at most {limit} characters"),
    "value.too_deep": _("nested too deep: at most {limit} levels of lists and objects"),
    "value.bad_character": _("contains a character that cannot be stored (a control character or a lone surrogate)"),
    "session.too_many_hands": _("a session can have at most {limit} hands"),
    "body.too_large": _("the request body is larger than {limit} bytes"),
    "log.unreadable": _("the hand log no longer replays: {detail}"),
    "club.exists": _("there is already a club with the slug {slug}"),
    "document.invalid": _("this is not a club export: {detail}"),
    "event.name_required": _("give the event a name"),
    "event.table_size": _("a table of this variant seats {counts} players"),
    "event.preset_unknown": _("unknown preset; one of: {choices}"),
    "event.choice": _("one of: {choices}"),
    "event.bye_figure": _("a bye counted as a stated figure needs that figure (a whole number)"),
    "event.finished": _("the event is finished"),
    "event.no_round": _("no round has been drawn yet"),
    "event.player_not_in": _("this player is not checked in to the event"),
    "round.tables_open": _("round {n} still has open tables ({tables}): close them first, or ask to close them"),
    "round.not_found": _("there is no round {n} in this event"),
    "adjustment.amount": _("the amount must be a whole number greater than 0"),
    "client_key.reused:round": _("this key was already used for round {number}"),
    "client_key.reused:adjustment": _("this key was already used for another adjustment"),
    "event.placement_points": _(
        "placement points: {n} whole numbers, one per place, best first and never rising (only with placement)"
    ),
    "round.time_up": _("round {n}'s time is up: the event refuses later hands unless the director allows them"),
    "substitute.absent_not_seated": _("this player is not seated in round {n}"),
    "substitute.already_seated": _("{name} is already seated in round {n}"),
    "substitute.required": _("name the substitute: a club player or a guest's name"),
    "client_key.reused:substitute": _("this key was already used for another substitute"),
    "client_key.reused:event": _("this key was already used for a different event (event {number})"),
    "league.name_required": _("give the league a name"),
    "league.best_n": _("the events counted: a whole number from 1 (only with the best N events)"),
    "league.unit": _("this event counts in {unit}; the league counts in {league_unit}"),
    "league.event_ranking": _("only an event ranked by the sum of table totals counts in a league"),
    "league.event_taken": _("this event already counts in the league {name}"),
    "league.not_found": _("there is no such league in this club"),
    "league.event_not_found": _("there is no such event in this club"),
    "client_key.reused:league": _("this key was already used for a different league (league {number})"),
    "event.mixed_sizes_one_size": _("this variant has one table size ({counts} players): no tables of two sizes"),
    "event.mixed_sizes_placement": _(
        "placement points are per place at one table size: tables of two sizes rank by the sum of table totals"
    ),
    "event.pairs_drawn": _("a round has been drawn: the pairs can no longer change"),
    "league.event_not_in": _("this event does not count in this league"),
}


def django_lang(lang: str) -> str:
    """`zh-Hans` / `en` (engine) or a Django code → the Django language code."""
    return "en" if lang.lower().startswith("en") else "zh-hans"


class LedgerError(Exception):
    """A write or a replay the ledger refuses. Views map it to form errors, the API to error bodies.

    `code` is stable: the engine's `RulesError` code when the rules refused the
    input, else one of `LEDGER_MESSAGES`. `hand` is the ledger's hand number
    (or None), `field` the input field (`bid`, `reason`, `players[2]`, `options.target` …).
    """

    def __init__(
        self, code: str, *, field: str, hand: int | None = None, rules_error: RulesError | None = None, **params: Any
    ) -> None:
        self.code = code
        self.field = field
        self.hand = hand
        self.params = params
        self.rules_error = rules_error
        super().__init__(code)

    @classmethod
    def from_rules(cls, error: RulesError, numbers: Sequence[int] | None = None, *, offset: int = 0) -> LedgerError:
        """The engine's error, its hand (a position in the document) turned into a ledger number.

        `numbers` are the ledger numbers of the hands played, the first at engine position `offset` + 1.
        """
        hand = error.hand
        if hand is not None and numbers is not None and 1 <= hand - offset <= len(numbers):
            hand = numbers[hand - offset - 1]
        return cls(error.code, field=error.field, hand=hand, rules_error=error, **error.params)

    def message(self, lang: str = "zh-Hans") -> str:
        if self.rules_error is not None:
            return self.rules_error.message(engine_lang(lang))
        # A code used for more than one subject has a text per subject (`client_key.reused:session`).
        key = f"{self.code}:{self.params['subject']}" if "subject" in self.params else self.code
        template = LEDGER_MESSAGES.get(key) or LEDGER_MESSAGES.get(self.code, self.code)
        with translation.override(django_lang(lang)):
            text = str(template)
        try:
            return text.format(**self.params)
        except (KeyError, IndexError, ValueError):
            return text

    def where(self) -> str:
        return f"hand {self.hand}" if self.hand is not None else "document"

    def describe(self, lang: str = "zh-Hans") -> str:
        """`hand 3: bid: …`, like the engine's, with the ledger's hand number."""
        return f"{self.where()}: {self.field}: {self.message(lang)}"

    def __str__(self) -> str:
        return self.describe("en")


def hand_input_ordered(hand_input: Any) -> Any:
    """A hand object with its fields in the document's usual order (PostgreSQL's jsonb keeps no key order)."""
    if not isinstance(hand_input, dict):
        return hand_input
    order = {name: i for i, name in enumerate(HAND_FIELDS)}
    return dict(sorted(hand_input.items(), key=lambda item: (order.get(item[0], len(order)), item[0])))


@dataclass(frozen=True, kw_only=True)
class LogEntry:
    """A hand of the log with its revisions, oldest first; the last is current."""

    hand: Hand
    revisions: tuple[HandRevision, ...]

    @property
    def number(self) -> int:
        return self.hand.number

    @property
    def current(self) -> HandRevision:
        return self.revisions[-1]

    @property
    def is_void(self) -> bool:
        return self.current.is_void


@dataclass(frozen=True, kw_only=True)
class Log:
    session: Session
    players: tuple[Player, ...]  # by seat
    entries: tuple[LogEntry, ...]  # by hand number

    @property
    def next_number(self) -> int:
        return self.entries[-1].number + 1 if self.entries else 1

    def entry(self, number: int) -> LogEntry | None:
        for entry in self.entries:
            if entry.number == number:
                return entry
        return None

    def hands(self, *, replace: Mapping[int, Any] | None = None, drop: int | None = None) -> list[tuple[int, Any]]:
        """(number, input) of the hands the engine plays: current inputs of hands that are not void.

        `replace` puts a candidate input in for a hand (a void hand comes back), `drop` leaves one out.
        """
        replace = replace or {}
        hands = []
        for entry in self.entries:
            if entry.number == drop:
                continue
            if entry.number in replace:
                hands.append((entry.number, replace[entry.number]))
            elif not entry.is_void:
                hands.append((entry.number, entry.current.input))
        return hands

    @property
    def hand_ids(self) -> dict[int, int]:
        return {entry.number: entry.hand.id for entry in self.entries}


def log_load(*, session: Session, from_number: int = 1) -> Log:
    """The session's seats and every revision of every hand from `from_number` on: two queries whatever the size."""
    seats = SessionSeat.objects.filter(session=session).select_related("player").order_by("seat")
    revisions = (
        HandRevision.objects.filter(hand__session=session, hand__number__gte=from_number)
        .select_related("hand", "author")
        .order_by("hand__number", "number")
    )
    grouped: dict[int, list[HandRevision]] = {}
    hands: dict[int, Hand] = {}
    for revision in revisions:
        hands[revision.hand.number] = revision.hand
        grouped.setdefault(revision.hand.number, []).append(revision)
    entries = tuple(LogEntry(hand=hands[n], revisions=tuple(grouped[n])) for n in sorted(grouped))
    return Log(session=session, players=tuple(seat.player for seat in seats), entries=entries)


def session_players(*, session: Session) -> tuple[Player, ...]:
    """The session's players by seat: one query (`ledger/sql.py`, as every hand and page reads them)."""
    return sql.session_players(session_id=session.pk)


@dataclass(frozen=True, kw_only=True)
class Resume:
    """Where the session stands before hand `before`: the stored state of the last hand before it that is not void.

    `state` None: from the start. `game_first` is the ledger number of the
    first hand of the game in progress (None when no game is in progress).
    """

    state: SessionState | None
    game_first: int | None = None
    number: int | None = None  # the ledger number of the hand the state is after
    runs: tuple[int, ...] | None = None  # per seat, the run of hands won after that hand (`HandState.runs`)

    @property
    def played(self) -> int:
        return self.state.played if self.state is not None else 0


class ResumeUnavailable(Exception):
    """The stored state cannot be played on from (another version): replay the whole log instead."""


def resume_load(*, session: Session, before: int) -> Resume:
    """The stored state before hand `before`: one query. Raises `ResumeUnavailable` for a state of another version."""
    row = (
        HandState.objects.filter(session=session, number__lt=before)
        .order_by("-number")
        .values("state", "game_first", "number", "runs")
        .first()
    )
    return _resume(row)


@dataclass(frozen=True, kw_only=True)
class NextHand:
    """Where the next hand of a session goes: the ledger number it gets and the stored state it plays on from
    (`start` None: that state is of another version and cannot be played on from)."""

    number: int
    start: Resume | None


def next_hand_load(*, session: Session) -> NextHand:
    """The next hand's number and the state before it, in one query (`ledger/sql.py`)."""
    last, row = sql.last_hand_row(session_id=session.pk)
    return next_hand_from(last=last, row=row)


def players_and_next_load(*, session: Session) -> tuple[tuple[Player, ...], NextHand]:
    """`session_players` and `next_hand_load` in one query (`sql.session_table`): what an entry reads first."""
    players, last, row = sql.session_table(session_id=session.pk)
    return players, next_hand_from(last=last, row=row)


def next_hand_from(*, last: int, row: Mapping[str, Any] | None) -> NextHand:
    """The next hand after `sql.last_hand_row`'s answer (a read that has it already need not ask again).

    Hands are numbered 1, 2, … in the order recorded and never deleted, so the last number is also the count.
    """
    if row is None:  # no hand yet, or every one void: from the start
        return NextHand(number=last + 1, start=Resume(state=None))
    try:
        start: Resume | None = _resume(row)
    except ResumeUnavailable:
        start = None
    return NextHand(number=last + 1, start=start)


def _resume(row: Mapping[str, Any] | None) -> Resume:
    if row is None:
        return Resume(state=None)
    try:
        runs = row.get("runs")
        return Resume(
            state=state_load(row["state"]),
            game_first=row["game_first"],
            number=row["number"],
            runs=tuple(runs) if isinstance(runs, list) else None,
        )
    except (ValueError, KeyError, TypeError) as error:
        raise ResumeUnavailable(str(error)) from error


def log_document(
    *,
    session: Session,
    players: Sequence[Player],
    hands: Sequence[tuple[int, Any]],
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The session document the engine gets for these hands (the frozen options, names by seat).

    `options` replaces the session's own (a what-if: the same hands under other rules).
    """
    return {
        "variant": session.variant,
        "options": session.options if options is None else dict(options),
        "players": [player.name for player in players],
        "hands": [hand_input for _, hand_input in hands],
    }


@dataclass(frozen=True, kw_only=True)
class LogReplay:
    """The engine's play of some hands: all of them, or those after a stored state (`start`).

    `numbers` are the ledger numbers of the hands played, the first at engine position `start.played + 1`.
    """

    result: SessionResult
    numbers: tuple[int, ...]
    start: Resume = Resume(state=None)

    @property
    def offset(self) -> int:
        return self.start.played

    def number(self, position: int) -> int:
        """The ledger number of the hand at engine position `position`."""
        index = position - self.offset - 1
        if index >= 0:
            return self.numbers[index]
        state = self.start.state
        if state is not None and position == state.game_first and self.start.game_first:
            return self.start.game_first
        if state is not None and position == state.played and self.start.number:
            return self.start.number
        raise AssertionError(f"engine hand {position} is before the hands played")

    def render(self, lang: str) -> dict[str, Any]:
        """The results document (as `settle` prints it), hands and games numbered as in the ledger."""
        doc = results_document(self.result, lang=engine_lang(lang))
        for hand in doc["hands"]:
            hand["n"] = self.number(hand["n"])
        for game in doc["games"]:
            game["first_hand"] = self.number(game["first_hand"])
            game["last_hand"] = self.number(game["last_hand"])
        return doc


def log_replay(
    *,
    session: Session,
    players: Sequence[Player],
    hands: Sequence[tuple[int, Any]],
    start: Resume | None = None,
    options: Mapping[str, Any] | None = None,
) -> LogReplay:
    """Play the hands through the engine (on from `start`, else from the beginning), under `options` if given.

    A refusal comes back as a `LedgerError` at the ledger's hand number.
    """
    start = start or Resume(state=None)
    numbers = tuple(number for number, _ in hands)
    raw = log_document(session=session, players=players, hands=hands, options=options)
    try:
        doc = document_parse(raw, variants=VARIANTS, first_hand=start.played + 1)
        result = session_play(doc, state=start.state)
    except RulesError as error:
        raise LedgerError.from_rules(error, numbers, offset=start.played) from error
    return LogReplay(result=result, numbers=numbers, start=start)


def _sqlite_schema_write(cursor: Any, statement: str, *, tries: int = 100) -> None:
    """A statement that changes SQLite's schema, tried again for up to 5 s while the schema table is locked.

    "database table is locked" (SQLITE_LOCKED) is a statement of another thread on the same connection, or of
    another connection to a shared cache (Django's in-memory test database, its live server's threads), still
    reading: SQLite's busy timeout waits for a locked database file, never for that. It ends when that
    statement does.
    """
    for attempt in range(tries):
        try:
            cursor.execute(statement)
            return
        except OperationalError as error:
            if "table is locked" not in str(error) or attempt == tries - 1:
                raise
            time.sleep(0.05)


@contextmanager
def log_deletes_allowed(*, using: str = "default") -> Iterator[None]:
    """Let the database delete log rows inside the caller's transaction (only `manage.py flush` does).

    The append-only triggers (migrations 0004 and 0014) refuse DELETE unless this block is running, and nothing
    a plain write can do lets one through. PostgreSQL: a transaction-local setting the trigger function checks,
    `baifen.maintenance`, set here and cleared before the block ends. SQLite: its `_no_delete` triggers are
    dropped here and created again, from their own text, before the block ends (DDL is transactional there).
    Either way nothing is committed unprotected; a failure inside rolls the caller's transaction back, the
    triggers or the setting with it. UPDATE stays refused.
    """
    connection = connections[using]
    if not connection.in_atomic_block:
        raise RuntimeError("log_deletes_allowed needs a transaction: the protection must never be committed off")
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT set_config('baifen.maintenance', 'on', true)")
            restore = ["SELECT set_config('baifen.maintenance', 'off', true)"]
        else:
            cursor.execute(
                "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE %s ESCAPE '!'",
                ["settlement!_%!_no!_delete"],
            )
            triggers = cursor.fetchall()
            for name, _sql in triggers:
                _sqlite_schema_write(cursor, f'DROP TRIGGER "{name}"')
            restore = [sql for _name, sql in triggers]
    try:
        yield
    except BaseException:
        transaction.set_rollback(True, using=using)  # the protection comes back with everything else
        raise
    with connection.cursor() as cursor:
        for statement in restore:
            cursor.execute(statement)
