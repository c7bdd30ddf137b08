"""Reads of the ledger, each a fixed number of queries however many hands or sessions there are.

One module per subject: `sessions` (clubs, session lists and summaries), `records` (a session's
hands, revisions and results, from the stored rows, in windows), `table` (the scorekeeper's table
page and the share page), `shares` (a session's share link, the session a token opens), `stats`
(standings and a player's statistics), `ratings`, `tokens` (a user's API tokens), `changes` (the club's
change feed), `whatif` (a session's hands settled again under other options) and `integrity` (stored rows
against a replay: `ledger_verify`). `from settlement import selectors; selectors.table_view(…)` keeps working.
"""

from .changes import club_changes
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
    results_with_preview,
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
from .shares import SharedSession, share_active, share_find
from .stats import (
    RANKING_RULE,
    BidFigures,
    GroupStats,
    OtherPlayer,
    PlayerStats,
    RunningPoint,
    SessionFigures,
    StandingGroup,
    StandingRow,
    player_stats,
    standings_grouped,
)
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
from .whatif import WhatIf, session_what_if, what_if_options

__all__ = [
    "GAME_FIELDS",
    "ONE_GAME_VARIANTS",
    "RANKING_RULE",
    "ROW",
    "SETTLEMENT_FIELDS",
    "STATE_FIELDS",
    "TABLE_OLDER_HANDS",
    "TABLE_RECENT_HANDS",
    "TEAM_VARIANTS",
    "BidFigures",
    "Difference",
    "EntryState",
    "GroupStats",
    "HandListItem",
    "HandRecord",
    "HandWindow",
    "OlderHand",
    "OtherPlayer",
    "PlayerStats",
    "RevisionInfo",
    "RunningPoint",
    "SeatSummary",
    "SessionFigures",
    "SessionPage",
    "SessionRecord",
    "SessionSummary",
    "SharedSession",
    "SideStanding",
    "StandingGroup",
    "StandingRow",
    "TableSide",
    "TableView",
    "User",
    "WhatIf",
    "club_changes",
    "club_players",
    "club_sessions",
    "club_sessions_page",
    "hand_history",
    "hand_record",
    "hand_result",
    "hand_revisions",
    "hand_view",
    "hand_window",
    "player_stats",
    "results_with_preview",
    "session_events",
    "session_hands",
    "session_options",
    "session_results",
    "session_verify",
    "session_what_if",
    "sessions_summarize",
    "share_active",
    "share_find",
    "standings_grouped",
    "table_sides",
    "table_view",
    "user_api_tokens",
    "user_clubs",
    "what_if_options",
]
