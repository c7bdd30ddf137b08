"""Reads of the ledger, each a fixed number of queries however many hands or sessions there are.

One module per subject: `sessions` (clubs, session lists and summaries), `records` (a session's
hands, revisions and results, from the stored rows, in windows), `table` (the scorekeeper's table
page and the share page), `standings` (club standings), `tokens` (a user's API tokens) and
`integrity` (stored rows against a replay: `ledger_verify`). `from settlement import selectors;
selectors.table_view(…)` keeps working.
"""

from .integrity import GAME_FIELDS, ROW, SETTLEMENT_FIELDS, STATE_FIELDS, Difference, session_verify
from .records import (
    HandListItem,
    HandRecord,
    HandWindow,
    RevisionInfo,
    SessionRecord,
    hand_history,
    hand_record,
    hand_result,
    hand_revisions,
    hand_window,
    session_events,
    session_hands,
    session_results,
)
from .sessions import (
    SeatSummary,
    SessionPage,
    SessionSummary,
    User,
    club_players,
    club_sessions,
    club_sessions_page,
    sessions_summarize,
    user_clubs,
)
from .standings import Standing, standings_compute
from .table import (
    ONE_GAME_VARIANTS,
    TABLE_OLDER_HANDS,
    TABLE_RECENT_HANDS,
    TEAM_VARIANTS,
    EntryState,
    OlderHand,
    SideStanding,
    TableSide,
    TableView,
    hand_view,
    session_options,
    table_sides,
    table_view,
)
from .tokens import user_api_tokens

__all__ = [
    "GAME_FIELDS",
    "ONE_GAME_VARIANTS",
    "ROW",
    "SETTLEMENT_FIELDS",
    "STATE_FIELDS",
    "TABLE_OLDER_HANDS",
    "TABLE_RECENT_HANDS",
    "TEAM_VARIANTS",
    "Difference",
    "EntryState",
    "HandListItem",
    "HandRecord",
    "HandWindow",
    "OlderHand",
    "RevisionInfo",
    "SeatSummary",
    "SessionPage",
    "SessionRecord",
    "SessionSummary",
    "SideStanding",
    "Standing",
    "TableSide",
    "TableView",
    "User",
    "club_players",
    "club_sessions",
    "club_sessions_page",
    "hand_history",
    "hand_record",
    "hand_result",
    "hand_revisions",
    "hand_view",
    "hand_window",
    "session_events",
    "session_hands",
    "session_options",
    "session_results",
    "session_verify",
    "sessions_summarize",
    "standings_compute",
    "table_sides",
    "table_view",
    "user_api_tokens",
    "user_clubs",
]
