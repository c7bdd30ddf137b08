"""Every write to the ledger. Keyword-only, one transaction each; a refusal changes nothing.

The hand log is append-only: recording a hand adds a `Hand` and its first
`HandRevision`; a correction or a void adds a revision. After each write the
session is played through the rules engine from the stored state before the
first hand the write could change, and the derived rows (`SettlementRow`,
`GameRow`, `HandState`, the ratings) are rebuilt from there, inside the same
transaction — so what is stored always equals what the log replays to.
Writers of one session are serialized by locking the session row
(`SELECT … FOR NO KEY UPDATE` where the database has row locks; SQLite's
write transaction is the lock: `common.session_lock`).

Refusals raise `LedgerError` (stable code, ledger hand number, field);
a user without a writing role in the club gets `PermissionDenied`.

One module per subject: `sessions` (open, close, reopen, import, export, the
operator's rebuild), `hands` (preview, record, correct, void), `players`
(rename, merge), `clubs` (the club's settings), `events` (an evening or tournament: create, check in, leave),
`rounds` (draw one, late hands), `adjustments` (the director's penalties and awards), `leagues` (a club's
series of events), `tokens` (personal API tokens), `shares` (the share links: a session's, an event's),
`backup` (a whole club's export and restore), and `common` (the session lock, the derived rows'
rebuild and the limits they share). `from settlement import services;
services.hand_record(…)` keeps working.
"""

from ..ledger import LedgerError
from .adjustments import adjustment_add
from .backup import CLUB_FORMAT, CLUB_FORMAT_VERSION, club_export, club_import
from .clubs import club_settings_update
from .common import (
    CLIENT_KEY_MAX,
    FACT_FIELDS,
    PLAYER_NAME_MAX,
    REASON_MAX,
    VENUE_MAX,
    User,
    client_key_clean,
    hands_max,
)
from .events import event_check_in, event_create, event_pairs_set, event_player_leave
from .hands import HandWrite, hand_correct, hand_preview, hand_preview_next, hand_record, hand_void
from .leagues import league_create, league_event_add, league_event_remove
from .players import player_merge, player_rename
from .rounds import event_finish, round_draw, round_late_allow
from .sessions import (
    SessionWrite,
    session_close,
    session_derived_rebuild,
    session_export,
    session_import,
    session_open,
    session_reopen,
)
from .shares import event_share_create, event_share_revoke, share_create, share_revoke
from .substitutes import substitute_seat
from .tokens import API_TOKEN_NAME_MAX, API_TOKEN_PREFIX, api_token_create, api_token_hash, api_token_revoke

__all__ = [
    "API_TOKEN_NAME_MAX",
    "API_TOKEN_PREFIX",
    "CLIENT_KEY_MAX",
    "CLUB_FORMAT",
    "CLUB_FORMAT_VERSION",
    "FACT_FIELDS",
    "PLAYER_NAME_MAX",
    "REASON_MAX",
    "VENUE_MAX",
    "HandWrite",
    "LedgerError",
    "SessionWrite",
    "User",
    "adjustment_add",
    "api_token_create",
    "api_token_hash",
    "api_token_revoke",
    "client_key_clean",
    "club_export",
    "club_import",
    "club_settings_update",
    "event_check_in",
    "event_create",
    "event_finish",
    "event_pairs_set",
    "event_player_leave",
    "event_share_create",
    "event_share_revoke",
    "hand_correct",
    "hand_preview",
    "hand_preview_next",
    "hand_record",
    "hand_void",
    "hands_max",
    "league_create",
    "league_event_add",
    "league_event_remove",
    "player_merge",
    "player_rename",
    "round_draw",
    "round_late_allow",
    "session_close",
    "session_derived_rebuild",
    "session_export",
    "session_import",
    "session_open",
    "session_reopen",
    "share_create",
    "share_revoke",
    "substitute_seat",
]
