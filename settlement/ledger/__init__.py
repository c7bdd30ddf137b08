"""The ledger's persistence: the hand log and its replay (`log`), the derived rows rebuilt from it (`derived`,
`ratings`), the statements every hand runs (`sql`), the bulk insert (`bulk`) and value cleaning (`values`).

It stands on the models and the rules engine only; services and selectors stand on it. The log's names are
re-exported here, as callers use them; the other modules are imported by name (`from ..ledger.bulk import …`).
"""

from .log import (
    LedgerError,
    Log,
    LogEntry,
    LogReplay,
    NextHand,
    Resume,
    ResumeUnavailable,
    django_lang,
    hand_input_ordered,
    log_deletes_allowed,
    log_document,
    log_load,
    log_replay,
    next_hand_from,
    next_hand_load,
    players_and_next_load,
    resume_load,
    session_players,
)

__all__ = [
    "LedgerError",
    "Log",
    "LogEntry",
    "LogReplay",
    "NextHand",
    "Resume",
    "ResumeUnavailable",
    "django_lang",
    "hand_input_ordered",
    "log_deletes_allowed",
    "log_document",
    "log_load",
    "log_replay",
    "next_hand_from",
    "next_hand_load",
    "players_and_next_load",
    "resume_load",
    "session_players",
]
