"""The tables, a module a subject, every model importable from here (`from settlement.models import Session`).

- `core`: clubs, roles, players, sessions, the append-only hand log (`Hand`, `HandRevision`) and its derived rows;
- `players`: API tokens and the answers kept under an `Idempotency-Key`, the player's trail (renames, merges),
  skill ratings;
- `feed`: the change feed (`Change`), append-only;
- `events`: club evenings and tournaments (events, their players, rounds and tables,
  adjustments) and leagues (a series of events with a league table).
"""

from .core import (
    WRITE_ROLES,
    AppendOnly,
    Club,
    GameRow,
    Hand,
    HandRevision,
    HandState,
    Membership,
    Player,
    Role,
    Session,
    SessionEvent,
    SessionSeat,
    SettlementRow,
    ShareLink,
    engine_lang,
    variant_label,
)
from .events import (
    Adjustment,
    Event,
    EventPlayer,
    EventShareLink,
    League,
    Round,
    RoundTable,
    Substitute,
)
from .feed import Change
from .players import (
    ApiToken,
    IdempotentAnswer,
    PlayerEvent,
    RatingRow,
)

__all__ = [
    "WRITE_ROLES",
    "Adjustment",
    "ApiToken",
    "AppendOnly",
    "Change",
    "Club",
    "Event",
    "EventPlayer",
    "EventShareLink",
    "GameRow",
    "Hand",
    "HandRevision",
    "HandState",
    "IdempotentAnswer",
    "League",
    "Membership",
    "Player",
    "PlayerEvent",
    "RatingRow",
    "Role",
    "Round",
    "RoundTable",
    "Session",
    "SessionEvent",
    "SessionSeat",
    "SettlementRow",
    "ShareLink",
    "Substitute",
    "engine_lang",
    "variant_label",
]
