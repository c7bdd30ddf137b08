"""The change feed's writes: one `Change` row per change, in the writer's transaction, in commit order.

Every service write of a club's sessions, hands and players ends with `changes_append` (or, for a whole
session or club written at once, `hands_recorded_append` / `changes_backfill`). The feed (`selectors.changes`)
serves a club's rows by id, and a reader must never see id 12 before id 11 commits: PostgreSQL hands out
sequence values at insert time, so two writers could commit them out of order and a reader that saw 12 would
skip 11 for good. So the insert is the last thing a write does, and before it the writer takes the club's feed
lock, a transaction-level advisory lock (`pg_advisory_xact_lock`) held until its commit: within a club, the next
writer's sequence value is drawn only after the previous one's rows are committed and visible. It is taken
last, after every row lock of the write (`services/common.py`, "Lock order", step 5), and nothing is locked
after it (the change row names no row through a foreign key but its club, whose key nobody updates), so it
cannot close a cycle. SQLite has one writer at a time, its write transaction the lock: ids commit in order.

A new kind of change (`event.created`, …) is a value of `Change.Kind` and a URL in the API's change serializer;
`kind` is plain text in the database, so adding one needs no migration.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection, transaction

from ..models import Change
from .bulk import rows_insert

# pg_advisory_xact_lock(int, int): the first key says "the change feed", the second is the club's id.
FEED_LOCK = 0x42464644  # "BFFD"

__all__ = ["ChangeNote", "changes_append", "changes_backfill", "feed_lock", "hands_recorded_append"]


@dataclass(frozen=True, kw_only=True)
class ChangeNote:
    """One change to append: its kind and what it names."""

    kind: str
    object_id: int
    session_id: int | None = None
    number: int | None = None
    revision: int | None = None
    into_id: int | None = None


def feed_lock(*, club_id: int) -> None:
    """Take the club's feed lock until the transaction ends (PostgreSQL; SQLite's write transaction is the lock)."""
    if not connection.in_atomic_block:
        raise RuntimeError("a change is appended inside its write's transaction")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [FEED_LOCK, club_id])


CHANGE_COLUMNS = ("club_id", "kind", "object_id", "session_id", "number", "revision", "into_id")


def changes_append(*, club_id: int, notes: Iterable[ChangeNote]) -> None:
    """Append `notes` to the club's feed, in order: the last statements of the write's transaction. Inserted as
    tuples (`bulk.rows_insert`): `bulk_create` of the one row a hand writes cost more than its derived rows."""
    rows = [
        (club_id, note.kind, note.object_id, note.session_id, note.number, note.revision, note.into_id)
        for note in notes
    ]
    if not rows:
        return
    feed_lock(club_id=club_id)
    rows_insert(Change, CHANGE_COLUMNS, rows)


def hands_recorded_append(*, club_id: int, session_id: int) -> None:
    """A `hand.recorded` for every hand of a session just written whole (an import), in hand order: one INSERT …
    SELECT, whatever the number of hands. Call it after `changes_append` of the session's own change."""
    feed_lock(club_id=club_id)
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO settlement_change (club_id, kind, object_id, session_id, number, revision, created_at) "
            "SELECT %s, %s, id, session_id, number, 1, created_at FROM settlement_hand "
            "WHERE session_id = %s ORDER BY number",
            [club_id, Change.Kind.HAND_RECORDED.value, session_id],
        )


# What is stored, as changes, in the order it was written: the same statement as migration 0017's backfill.
BACKFILL = """
INSERT INTO settlement_change (club_id, kind, object_id, session_id, number, revision, into_id, created_at)
SELECT club_id, kind, object_id, session_id, number, revision, into_id, at FROM (
    SELECT p.club_id AS club_id, 'player.created' AS kind, p.id AS object_id,
           CAST(NULL AS INTEGER) AS session_id, CAST(NULL AS INTEGER) AS number,
           CAST(NULL AS INTEGER) AS revision, CAST(NULL AS INTEGER) AS into_id,
           p.created_at AS at, 0 AS step, p.id AS tie
      FROM settlement_player p
    UNION ALL
    SELECT s.club_id, 'session.created', s.id, s.id, NULL, NULL, NULL, s.created_at, 1, s.id
      FROM settlement_session s
    UNION ALL
    SELECT s.club_id,
           CASE WHEN r.number = 1 THEN 'hand.recorded' WHEN r.is_void THEN 'hand.voided' ELSE 'hand.corrected' END,
           h.id, h.session_id, h.number, r.number, NULL, r.created_at, 2, r.id
      FROM settlement_handrevision r
      JOIN settlement_hand h ON h.id = r.hand_id
      JOIN settlement_session s ON s.id = h.session_id
    UNION ALL
    SELECT s.club_id, CASE WHEN e.kind = 'closed' THEN 'session.closed' ELSE 'session.reopened' END,
           s.id, s.id, NULL, NULL, NULL, e.created_at, 3, e.id
      FROM settlement_sessionevent e
      JOIN settlement_session s ON s.id = e.session_id
    UNION ALL
    SELECT e.club_id, CASE WHEN e.kind = 'merged' THEN 'player.merged' ELSE 'player.renamed' END,
           e.player_id, NULL, NULL, NULL, e.into_id, e.created_at, 4, e.id
      FROM settlement_playerevent e
) stored
WHERE {where}
ORDER BY at, step, tie
"""


def changes_backfill(*, club_id: int) -> None:
    """The club's feed from what is stored (a restored club): its players, sessions, hand revisions, closes,
    reopens, renames and merges as changes, by the time each was written."""
    with transaction.atomic():
        feed_lock(club_id=club_id)
        with connection.cursor() as cursor:
            cursor.execute(BACKFILL.format(where="club_id = %s"), [club_id])
