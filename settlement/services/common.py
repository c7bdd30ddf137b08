"""What several of the services modules share: the session lock, the derived rows' rebuild, the limits.

`session_lock` serializes the writers of one session (hands, close, reopen, the operator's rebuild);
`derived_rebuild` replaces the derived rows from a hand on with a replay's (every write of hands, the
operator's rebuild and the club restore end with it); `facts_stored` is a hand as stored (a recorded,
corrected or imported one); the limits are those of the models and the settings.

Lock order (PostgreSQL; SQLite has one writer at a time, its write transaction the lock). Every write takes
its row locks in this order, skipping what it does not need, and never one of an earlier step after a later:

1. sessions, by id: `session_lock` (a hand's write, close, reopen, the operator's rebuild, a share link);
   a player edit locks every session the player sat in (`players._players_lock`);
2. the club: `ratings._rebuild` (whenever ratings are rebuilt), a player edit;
3. players, by id: a player edit;
4. the rows the write changes (hands, revisions, derived rows, events);
5. last, the club's change feed (`ledger/changes.py`): an advisory lock, taken just before the write's change
   rows are inserted, and nothing locked after it.

All FOR NO KEY UPDATE, never FOR UPDATE: a row inserted meanwhile that names a locked row (its foreign-key
check takes FOR KEY SHARE) does not wait on it. An UPDATE of a key column (a player's name is in the unique
(club, name)) takes FOR UPDATE implicitly and so waits for every writer that named the row: such a write first
holds everything those writers lock before the row (the player's sessions, then the club).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import F, QuerySet

from ..ledger import LedgerError, LogReplay, sql
from ..ledger.bulk import rows_insert
from ..ledger.derived import GAME_COLUMNS, SETTLEMENT_COLUMNS, STATE_COLUMNS, derived_values
from ..ledger.ratings import ratings_append, ratings_rebuild
from ..ledger.values import text_bad
from ..models import Event, GameRow, HandState, Player, Session, SettlementRow

User = AbstractBaseUser | AnonymousUser

CLIENT_KEY_MAX = 64
PLAYER_NAME_MAX = Player._meta.get_field("name").max_length or 60
VENUE_MAX = Session._meta.get_field("venue").max_length or 100
REASON_MAX = 500  # as the web forms' reason field
# Fields a hand may leave for the table's state to fill in; once played they are stored (see `facts_stored`).
FACT_FIELDS = frozenset({"dealer", "declarer"})


def sessions_bump(sessions: QuerySet[Session], **fields: Any) -> int:
    """Move on the `version` of every session of `sessions` (and set `fields`), inside the caller's transaction:
    what a write that changes a session's page or API answer, other than its hands', ends with. How many."""
    return sessions.update(version=F("version") + 1, **fields)


def events_bump(events: QuerySet[Event]) -> int:
    """Move on the `version` of every event of `events`, inside the caller's transaction: the big screen's ETag
    (`selectors.event_pages.event_screen_etag`) misses at once. How many."""
    return events.update(version=F("version") + 1)


def session_bump(session: Session, *, save: Sequence[str] = ()) -> None:
    """`sessions_bump` for one session, whose row the caller holds locked (its `version` here follows), in the same
    UPDATE as the `save` fields when there are some."""
    version = session.version
    if save:
        session.version = F("version") + 1  # type: ignore[assignment]
        session.save(update_fields=[*save, "version"])
    else:
        sessions_bump(Session.objects.filter(pk=session.pk))
    session.version = version + 1


def hands_max() -> int:
    """The most hands a session may hold (setting `BAIFEN_MAX_HANDS`), void ones included."""
    return int(getattr(settings, "BAIFEN_MAX_HANDS", 2000))


def session_lock(session: Session, *, user: User | None = None) -> tuple[Session, str | None]:
    """The session row, locked until the transaction ends (one writer per session at a time), and `user`'s
    role in its club read with it: one query for both (None: no user, or not a member).

    FOR NO KEY UPDATE, not FOR UPDATE: writers still queue on it, but another writer's foreign-key check on
    this row (FOR KEY SHARE, as when a ratings rebuild in another session of the club inserts rows naming
    it) does not wait on it. With FOR UPDATE, two writers each holding their session and inserting rows
    that name the other's deadlocked on PostgreSQL (SQLite has no row locks: the whole file is the lock).
    The role is a subquery in the select list, so only the session row is locked (`ledger/sql.py`: every hand
    runs it)."""
    return sql.session_lock(session_id=session.pk, user_id=getattr(user, "pk", None))


def hands_limit(count: int) -> None:
    """Refuse a session of more than `hands_max()` hands (`session.too_many_hands`)."""
    limit = hands_max()
    if count > limit:
        raise LedgerError("session.too_many_hands", field="hands", limit=limit)


def client_key_clean(client_key: str) -> str:
    """The client's idempotency key, stripped; refused (`client_key.invalid`) when not text or too long."""
    client_key = client_key or ""
    if not isinstance(client_key, str) or text_bad(client_key):
        raise LedgerError("client_key.invalid", field="client_key")
    client_key = client_key.strip()
    if len(client_key) > CLIENT_KEY_MAX:
        raise LedgerError("client_key.invalid", field="client_key")
    return client_key


def request_digest(request: Any) -> str:
    """What tells a retried write from another one under the same key: a hash of the canonical request.

    Stored beside the key (`client_digest`); a retry under the key with another digest is `client_key.reused`.
    """
    canonical = json.dumps(request, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def facts_stored(hand_input: Any, facts: Mapping[str, Any]) -> Any:
    """The hand as stored: as entered, plus the facts of play the table's state filled in.

    Who dealt (头家), or in the level games who declared, is a fact once the
    hand is played: stored with the hand, a later void or correction of an
    earlier hand replays it as it was instead of working it out again (the
    engine says what it filled in: `rules.session.hand_facts`).
    """
    if not facts or not isinstance(hand_input, dict):
        return hand_input
    return {**hand_input, **facts}


def derived_rebuild(
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
    sql.game_rows_delete(session_id=session.pk, from_game=derived.first_game)
    rows_insert(SettlementRow, SETTLEMENT_COLUMNS, derived.settlement_rows)
    rows_insert(GameRow, GAME_COLUMNS, derived.game_rows)
    rows_insert(HandState, STATE_COLUMNS, derived.hand_states)
    # The ratings (`ledger/ratings.py`) follow finished games and closed sessions. A hand appended to an open session
    # replaces only the rows of the game in progress, unfinished: unless it finishes that game, no rating moves.
    finished = GAME_COLUMNS.index("finished")
    if not appended:
        ratings_rebuild(session=session)
    elif any(row[finished] for row in derived.game_rows):
        ratings_append(
            session=session, game_rows=[dict(zip(GAME_COLUMNS, row, strict=True)) for row in derived.game_rows]
        )
    states = (HandState(**dict(zip(STATE_COLUMNS, row, strict=True))) for row in derived.hand_states)
    return {state.number: state for state in states}
