"""The statements every hand runs, written in SQL: what keeps a hand's entry near the cost of a bare create.

The ORM builds and compiles each query anew, 0.3–0.8 ms of CPU apiece: more than the engine's whole play of
a hand. Recording a hand ran six such reads and small writes besides its inserts, and cost 3.5 times a bare
DRF create of one row (bench/ledger.py; issue 12 asks for 2). These few statements run on every hand, every
preview and every page of a session, so they are written once here, with table and column names taken from
the models (a renamed field fails at import, not in production), and run through Django's connection: its
transaction, its query log, its parameter style. Model instances are built from the rows with the fields'
converters, as the ORM builds them (`_loader`). Everything else stays in the ORM.

The polls of the share page and of an event's big screen (`share_version`, `event_versions`) are here for the
same reason: a room's spectators ask them hundreds of times a second, and building their ORM queries cost twice
the rest of an answer that finds nothing new.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import cache
from typing import Any

from django.db import connections
from django.db.models import Model
from django.utils import timezone

from ..models import (
    Club,
    Event,
    EventShareLink,
    GameRow,
    Hand,
    HandRevision,
    HandState,
    Membership,
    Player,
    Round,
    RoundTable,
    Session,
    SessionSeat,
    ShareLink,
)


def _table(model: type[Model], using: str) -> str:
    return connections[using].ops.quote_name(model._meta.db_table)


def _column(model: type[Model], name: str, using: str) -> str:
    return connections[using].ops.quote_name(model._meta.get_field(name).column)


def _columns(model: type[Model], alias: str, using: str) -> str:
    """The select list of `model`'s concrete columns in field order, as `_loader` reads them."""
    quote = connections[using].ops.quote_name
    return ", ".join(f"{alias}.{quote(field.column)}" for field in model._meta.concrete_fields)


def _loader(model: type[Model], using: str) -> Callable[[Sequence[Any]], Any]:
    """A `model` instance from its concrete columns' values in field order (the first ones of `values`), converted
    as the ORM converts a column it reads (a date-time stored as text on SQLite, JSON, a boolean as an integer …).

    `Model.objects.raw` does the same but works out every column's converters again for every row it reads: half
    the cost of reading a session's four seats. Kept on the connection, as a converter belongs to the connection
    it came from (each of gunicorn's threads has its own)."""
    connection = connections[using]
    loaders = connection.__dict__.setdefault("_baifen_loaders", {})
    load = loaders.get(model)
    if load is not None:
        return load
    fields = model._meta.concrete_fields
    names = [field.attname for field in fields]
    steps = []
    for i, field in enumerate(fields):
        column = field.get_col(model._meta.db_table)
        converters = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        if converters:
            steps.append((i, column, tuple(converters)))
    count = len(fields)

    def load(values: Sequence[Any]) -> Any:
        row = list(values[:count])
        for i, column, converters in steps:
            value = row[i]
            for convert in converters:
                value = convert(value, column, connection)
            row[i] = value
        return model.from_db(using, names, row)

    loaders[model] = load
    return load


# What `hand_insert` writes of a hand and of its first revision (the revision's `hand` comes from the hand).
HAND_FIELDS = ("session", "number", "client_key", "created_at")
REVISION_FIELDS = ("number", "input", "is_void", "reason", "note", "author", "created_at")


@cache
def _sql(using: str) -> dict[str, str]:
    """The statements for database `using` (quoting and the row lock differ between SQLite and PostgreSQL)."""
    connection = connections[using]

    def t(model: type[Model]) -> str:
        return _table(model, using)

    def c(model: type[Model], name: str) -> str:
        return _column(model, name, using)

    # FOR NO KEY UPDATE: see services.common.session_lock. SQLite has no row locks (its write transaction is the lock).
    lock = connection.ops.for_update_sql(no_key=True) if connection.features.has_select_for_update else ""
    # The session's columns, the membership's id and role, the club's columns (session_for_member).
    member = (
        f"SELECT {_columns(Session, 's', using)}, m.{c(Membership, 'id')}, m.{c(Membership, 'role')},"
        f" {_columns(Club, 'c', using)} FROM {t(Session)} s INNER JOIN {t(Membership)} m"
        f" ON m.{c(Membership, 'club')} = s.{c(Session, 'club')} AND m.{c(Membership, 'user')} = %s"
        f" INNER JOIN {t(Club)} c ON c.{c(Club, 'id')} = s.{c(Session, 'club')}"
    )
    # The event's version and the sum of its tables' sessions' (selectors.event_pages.tables_version).
    event_versions = (
        f"SELECT e.{c(Event, 'id')}, e.{c(Event, 'version')}, COALESCE((SELECT SUM(s.{c(Session, 'version')})"
        f" FROM {t(Session)} s INNER JOIN {t(RoundTable)} rt ON rt.{c(RoundTable, 'session')} = s.{c(Session, 'id')}"
        f" INNER JOIN {t(Round)} r ON r.{c(Round, 'id')} = rt.{c(RoundTable, 'round')}"
        f" WHERE r.{c(Round, 'event')} = e.{c(Event, 'id')}), 0) FROM {t(Event)} e"
    )
    last_hand_select = (
        f"SELECT h.last, st.{c(HandState, 'number')}, st.{c(HandState, 'state')}, st.{c(HandState, 'game_first')},"
        f" st.{c(HandState, 'receipt')}, st.{c(HandState, 'game_end')}, st.{c(HandState, 'runs')}"
    )
    last_hand_from = (
        f"FROM (SELECT MAX({c(Hand, 'number')}) AS last FROM {t(Hand)} WHERE {c(Hand, 'session')} = %s) h"
        f" LEFT JOIN {t(HandState)} st ON st.{c(HandState, 'session')} = %s"
        f" AND st.{c(HandState, 'number')} = (SELECT MAX({c(HandState, 'number')}) FROM {t(HandState)}"
        f" WHERE {c(HandState, 'session')} = %s)"
    )
    last_hand = f"{last_hand_select} {last_hand_from}"
    hand_insert = (
        f"INSERT INTO {t(Hand)} ({', '.join(c(Hand, name) for name in HAND_FIELDS)})"
        f" VALUES ({', '.join(['%s'] * len(HAND_FIELDS))})"
    )
    revision_columns = ", ".join(c(HandRevision, name) for name in ("hand", *REVISION_FIELDS))
    revision_insert = (
        f"INSERT INTO {t(HandRevision)} ({revision_columns}) VALUES ({', '.join(['%s'] * (1 + len(REVISION_FIELDS)))})"
    )
    revision_select = (
        f"INSERT INTO {t(HandRevision)} ({revision_columns})"
        f" SELECT h.{c(Hand, 'id')}, {', '.join(['%s'] * len(REVISION_FIELDS))}"
    )
    return {
        "session_for_member": f"{member} WHERE s.{c(Session, 'id')} = %s",
        "session_for_member_in": f"{member} WHERE s.{c(Session, 'id')} = %s AND c.{c(Club, 'slug')} = %s",
        "session_version_for_member": (
            f"SELECT s.{c(Session, 'version')} FROM {t(Session)} s INNER JOIN {t(Membership)} m"
            f" ON m.{c(Membership, 'club')} = s.{c(Session, 'club')} AND m.{c(Membership, 'user')} = %s"
            f" WHERE s.{c(Session, 'id')} = %s"
        ),
        # With the role, whether a hand now is late and refused: the session is a table of an event round whose
        # clock has run out (`ends_at` before now), the event refuses late hands and the director has not allowed them.
        "session_lock": (
            f"SELECT {_columns(Session, 's', using)}, (SELECT m.{c(Membership, 'role')} FROM {t(Membership)} m"
            f" WHERE m.{c(Membership, 'club')} = s.{c(Session, 'club')} AND m.{c(Membership, 'user')} = %s)"
            f" AS user_role, (SELECT r.{c(Round, 'n')} FROM {t(RoundTable)} rt"
            f" INNER JOIN {t(Round)} r ON r.{c(Round, 'id')} = rt.{c(RoundTable, 'round')}"
            f" INNER JOIN {t(Event)} e ON e.{c(Event, 'id')} = r.{c(Round, 'event')}"
            f" WHERE rt.{c(RoundTable, 'session')} = s.{c(Session, 'id')} AND e.{c(Event, 'late_hands')} = 'refused'"
            f" AND r.{c(Round, 'late_allowed')} = %s AND r.{c(Round, 'ends_at')} < %s)"
            f" AS late_round FROM {t(Session)} s WHERE s.{c(Session, 'id')} = %s {lock}"
        ),
        "session_players": (
            f"SELECT {_columns(Player, 'p', using)} FROM {t(Player)} p INNER JOIN {t(SessionSeat)} ss"
            f" ON ss.{c(SessionSeat, 'player')} = p.{c(Player, 'id')}"
            f" WHERE ss.{c(SessionSeat, 'session')} = %s ORDER BY ss.{c(SessionSeat, 'seat')}"
        ),
        "last_hand": last_hand,
        # The last hand's row once for each seat, the seat's player after it: one statement for what every hand's
        # entry, preview and page reads first (the session_id parameter four times).
        "session_table": (
            f"{last_hand_select}, {_columns(Player, 'p', using)} {last_hand_from}"
            f" LEFT JOIN {t(SessionSeat)} ss ON ss.{c(SessionSeat, 'session')} = %s"
            f" LEFT JOIN {t(Player)} p ON p.{c(Player, 'id')} = ss.{c(SessionSeat, 'player')}"
            f" ORDER BY ss.{c(SessionSeat, 'seat')}"
        ),
        # The hand and its first revision in one statement (SQLite has no INSERT in a WITH: two, see hand_insert).
        "hand_insert": hand_insert,
        "hand_revision_insert": revision_insert,
        "hand_with_revision_insert": (
            f"WITH h AS ({hand_insert} RETURNING {c(Hand, 'id')}) {revision_select} FROM h"
            f" RETURNING {c(HandRevision, 'id')}, {c(HandRevision, 'hand')}"
        ),
        "session_touch": (
            f"UPDATE {t(Session)} SET {c(Session, 'updated_at')} = %s,"
            f" {c(Session, 'version')} = {c(Session, 'version')} + 1 WHERE {c(Session, 'id')} = %s"
        ),
        "game_rows_delete": (
            f"DELETE FROM {t(GameRow)} WHERE {c(GameRow, 'session')} = %s AND {c(GameRow, 'game')} >= %s"
        ),
        "event_versions_for_member": (
            f"{event_versions} INNER JOIN {t(Club)} c ON c.{c(Club, 'id')} = e.{c(Event, 'club')}"
            f" AND c.{c(Club, 'slug')} = %s INNER JOIN {t(Membership)} m"
            f" ON m.{c(Membership, 'club')} = e.{c(Event, 'club')} AND m.{c(Membership, 'user')} = %s"
            f" WHERE e.{c(Event, 'id')} = %s"
        ),
        "event_versions_for_token": (
            f"{event_versions} INNER JOIN {t(EventShareLink)} l ON l.{c(EventShareLink, 'event')} = e.{c(Event, 'id')}"
            f" WHERE l.{c(EventShareLink, 'token')} = %s AND l.{c(EventShareLink, 'revoked_at')} IS NULL"
        ),
        "share_version": (
            f"SELECT s.{c(Session, 'id')}, s.{c(Session, 'version')} FROM {t(ShareLink)} l"
            f" INNER JOIN {t(Session)} s ON s.{c(Session, 'id')} = l.{c(ShareLink, 'session')}"
            f" WHERE l.{c(ShareLink, 'token')} = %s AND l.{c(ShareLink, 'revoked_at')} IS NULL"
        ),
    }


def session_for_member(
    *, session_id: int, user_id: int | None, slug: str | None = None, using: str = "default"
) -> tuple[Membership, Session] | None:
    """Session `session_id` with its club, and the membership of user `user_id` in that club; with `slug`, only
    when it is that club's. None when there is no such session or the user is not a member of its club."""
    if slug is None:
        statement, params = _sql(using)["session_for_member"], [user_id, session_id]
    else:
        statement, params = _sql(using)["session_for_member_in"], [user_id, session_id, slug]
    row = _fetchone(statement, params, using)
    if row is None:
        return None
    n = len(Session._meta.concrete_fields)
    session = _loader(Session, using)(row)
    session.club = _loader(Club, using)(row[n + 2 :])
    values = (row[n], user_id, session.club_id, row[n + 1])
    membership = Membership.from_db(using, ["id", "user_id", "club_id", "role"], values)
    membership.club = session.club
    return membership, session


def _fetchone(statement: str, params: Sequence[Any], using: str) -> tuple[Any, ...] | None:
    with connections[using].cursor() as cursor:
        cursor.execute(statement, params)
        return cursor.fetchone()


def session_version_for_member(*, session_id: int, user_id: int | None, using: str = "default") -> int | None:
    """Session `session_id`'s `version` when user `user_id` is a member of its club, else None (one query)."""
    row = _fetchone(_sql(using)["session_version_for_member"], [user_id, session_id], using)
    return None if row is None else row[0]


def session_lock(*, session_id: int, user_id: int | None, using: str = "default") -> tuple[Session, str | None]:
    """The session row locked until the transaction ends, and the user's role in its club (None: not a member).

    `session.late_round` is the number of the event round whose clock ran out, when the session is one of its
    tables and a hand now would be refused (`Event.late_hands`); None otherwise (no event, no clock, in time)."""
    now = connections[using].ops.adapt_datetimefield_value(timezone.now())
    row = _fetchone(_sql(using)["session_lock"], [user_id, False, now, session_id], using)
    if row is None:
        raise Session.DoesNotExist(f"no session {session_id}")
    n = len(Session._meta.concrete_fields)
    session = _loader(Session, using)(row)
    session.late_round = row[n + 1]  # type: ignore[attr-defined]
    return session, row[n]


def session_players(*, session_id: int, using: str = "default") -> tuple[Player, ...]:
    """The session's players by seat."""
    with connections[using].cursor() as cursor:
        cursor.execute(_sql(using)["session_players"], [session_id])
        rows = cursor.fetchall()
    load = _loader(Player, using)
    return tuple(load(row) for row in rows)


def last_hand_row(*, session_id: int, using: str = "default") -> tuple[int, Mapping[str, Any] | None]:
    """The session's last hand number (0: none yet) and what is stored after its last hand that has a state, as
    `{"number", "state", "game_first", "receipt", "game_end", "runs"}` (None: no hand has one, every one void or
    none recorded): what a read of the session shows of its end and the next hand plays on from, one statement."""
    row = _fetchone(_sql(using)["last_hand"], [session_id] * 3, using)
    assert row is not None  # an aggregate: always one row
    return _last_hand(row, using)


def session_table(
    *, session_id: int, using: str = "default"
) -> tuple[tuple[Player, ...], int, Mapping[str, Any] | None]:
    """The session's players by seat and its last hand as `last_hand_row` gives it: what every entry, preview and
    page of the session reads first, in one statement instead of two (a round trip fewer on PostgreSQL)."""
    with connections[using].cursor() as cursor:
        cursor.execute(_sql(using)["session_table"], [session_id] * 4)
        rows = cursor.fetchall()
    load = _loader(Player, using)
    players = tuple(load(row[7:]) for row in rows if row[7] is not None)  # row[7]: the player's id
    return (players, *_last_hand(rows[0], using))


def _last_hand(row: Sequence[Any], using: str) -> tuple[int, Mapping[str, Any] | None]:
    last, number, state, game_first, receipt, game_end, runs = row[:7]
    if number is None:
        return last or 0, None
    connection = connections[using]

    def loaded(name: str, value: Any) -> Any:
        return HandState._meta.get_field(name).from_db_value(value, None, connection)

    return last, {
        "number": number,
        "state": loaded("state", state),
        "game_first": game_first,
        "receipt": loaded("receipt", receipt),
        "game_end": loaded("game_end", game_end),
        "runs": loaded("runs", runs),
    }


def hand_insert(
    *,
    session_id: int,
    number: int,
    client_key: str,
    hand_input: Any,
    author_id: int,
    note: str | None,
    when: datetime.datetime,
    using: str = "default",
) -> tuple[Hand, HandRevision]:
    """Insert hand `number` and its first revision (the hand log's rows, inserts only): on PostgreSQL one
    statement, a round trip where `objects.create` took two; the instances as `objects.create` returns them."""
    connection = connections[using]
    hand_values = {"session": session_id, "number": number, "client_key": client_key, "created_at": when}
    revision_values = {
        "number": 1,
        "input": hand_input,
        "is_void": False,
        "reason": "",
        "note": note,
        "author": author_id,
        "created_at": when,
    }
    hand_params = _prepared(Hand, HAND_FIELDS, hand_values, connection)
    revision_params = _prepared(HandRevision, REVISION_FIELDS, revision_values, connection)
    statements = _sql(using)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(statements["hand_with_revision_insert"], [*hand_params, *revision_params])
            revision_id, hand_id = cursor.fetchone()
        else:
            cursor.execute(statements["hand_insert"], hand_params)
            hand_id = connection.ops.last_insert_id(cursor, Hand._meta.db_table, "id")
            cursor.execute(statements["hand_revision_insert"], [hand_id, *revision_params])
            revision_id = connection.ops.last_insert_id(cursor, HandRevision._meta.db_table, "id")
    hand = _made(Hand, {"id": hand_id, **hand_values}, using)
    revision = _made(HandRevision, {"id": revision_id, "hand": hand_id, **revision_values}, using)
    return hand, revision


def _prepared(model: type[Model], names: Sequence[str], values: Mapping[str, Any], connection: Any) -> list[Any]:
    """The values of fields `names`, in that order (the statement's columns), as the ORM sends them to the database
    (JSON adapted, date-times as stored …)."""
    return [model._meta.get_field(name).get_db_prep_save(values[name], connection) for name in names]


def _made(model: type[Model], values: Mapping[str, Any], using: str) -> Any:
    """The instance of a row just inserted with `values` (by field name), as `objects.create` leaves it."""
    by_name = {model._meta.get_field(name).attname: value for name, value in values.items()}
    names = [field.attname for field in model._meta.concrete_fields]
    return model.from_db(using, names, [by_name[name] for name in names])


def session_touch(*, session_id: int, when: datetime.datetime, using: str = "default") -> None:
    """The session's `updated_at` set to `when` (its latest write), and its `version` bumped."""
    connection = connections[using]
    with connection.cursor() as cursor:
        cursor.execute(_sql(using)["session_touch"], [connection.ops.adapt_datetimefield_value(when), session_id])


@contextmanager
def pipelined(*, using: str = "default") -> Iterator[None]:
    """Inside a transaction on PostgreSQL, the block's statements go out without waiting for each one's answer
    (psycopg's pipeline mode) and the answers are read when one is needed or at the block's end: a hand's derived
    rows, the session's version and its change are seven statements whose answers nobody reads, and one round trip
    instead of seven. A statement whose rows are fetched (the ORM's, a cursor's) waits for those before it, as it
    always did; `Model.objects.raw` cannot run inside (it reads the columns' names before the answer has come). An
    error surfaces by the block's end at the latest, as Django's error (IntegrityError …), and the transaction rolls
    back as before. Elsewhere (SQLite has no round trips; outside a transaction each statement commits on its own)
    it changes nothing."""
    connection = connections[using]
    if connection.vendor != "postgresql" or not connection.in_atomic_block:
        yield
        return
    connection.ensure_connection()
    with connection.wrap_database_errors, connection.connection.pipeline():
        yield


def game_rows_delete(*, session_id: int, from_game: int, using: str = "default") -> None:
    """Delete the session's game rows from game `from_game` on (they are written again)."""
    with connections[using].cursor() as cursor:
        cursor.execute(_sql(using)["game_rows_delete"], [session_id, from_game])


def share_version(*, token: str, using: str = "default") -> tuple[int, int] | None:
    """The id and `version` of the session a working share token opens, or None (one statement, by the token's
    unique index)."""
    with connections[using].cursor() as cursor:
        cursor.execute(_sql(using)["share_version"], [token])
        row = cursor.fetchone()
    return None if row is None else (row[0], row[1])


def event_versions(
    *,
    token: str | None = None,
    event_id: int | None = None,
    slug: str = "",
    user_id: int | None = None,
    using: str = "default",
) -> tuple[int, int, int] | None:
    """The event's id, its `version` and the sum of its tables' sessions' `version`, one statement: for the event a
    working share `token` opens, or for event `event_id` when it is club `slug`'s and user `user_id` a member of
    it. None when there is no such event (or link, or membership)."""
    if token is not None:
        statement, params = _sql(using)["event_versions_for_token"], [token]
    else:
        statement, params = _sql(using)["event_versions_for_member"], [slug, user_id, event_id]
    with connections[using].cursor() as cursor:
        cursor.execute(statement, params)
        row = cursor.fetchone()
    return None if row is None else (row[0], row[1], int(row[2]))
