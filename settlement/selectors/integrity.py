"""The ledger's integrity: the stored derived rows against a replay of the log (`manage.py ledger_verify`).

The one read that replays the whole log on purpose.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..ledger import log_load, log_replay
from ..ledger.derived import GAME_COLUMNS, SETTLEMENT_COLUMNS, STATE_COLUMNS, derived_rows
from ..models import GameRow, HandState, Session, SettlementRow

# The columns compared: every derived column but the row's key (its session, and hand number and seat, or game
# and seat), which is what pairs a stored row with its replayed one.
SETTLEMENT_FIELDS = tuple(c for c in SETTLEMENT_COLUMNS if c not in {"session_id", "number", "seat"})
GAME_FIELDS = tuple(c for c in GAME_COLUMNS if c not in {"session_id", "game", "seat"})
STATE_FIELDS = tuple(c for c in STATE_COLUMNS if c not in {"session_id", "number"})
ROW = "row"  # the field of a Difference where a whole row is missing or extra


@dataclass(frozen=True, kw_only=True)
class Difference:
    """A stored derived row that is not what the log replays to.

    `kind` is "hand" (a `SettlementRow`, `number` the hand's) or "game" (a
    `GameRow`, `number` the game's). `field` is "row" when the whole row is
    missing (`stored` None) or should not exist (`replayed` None).
    """

    session: int
    kind: str
    number: int
    seat: int
    field: str
    stored: Any
    replayed: Any

    def __str__(self) -> str:
        stored, replayed = self.stored, self.replayed
        if self.field == ROW:
            stored, replayed = ("present" if value is not None else "absent" for value in (stored, replayed))
        return (
            f"session {self.session} {self.kind} {self.number} seat {self.seat} {self.field}: "
            f"stored {stored}, replayed {replayed}"
        )


def session_verify(*, session: Session) -> list[Difference]:
    """Replay the session's hand log and compare it with the stored `SettlementRow` and `GameRow` rows.

    An empty list means the stored rows are exactly what the log replays to.
    Raises `LedgerError` when the log itself no longer replays.
    """
    log = log_load(session=session)
    replay = log_replay(session=session, players=log.players, hands=log.hands())
    expected = derived_rows(session=session, players=log.players, replay=replay, hand_ids=log.hand_ids)
    differences = _rows_compare(
        session=session.pk,
        kind="hand",
        stored={(r.number, r.seat): r for r in SettlementRow.objects.filter(session=session)},
        replayed={(r.number, r.seat): r for r in expected.settlement_rows},
        fields=SETTLEMENT_FIELDS,
    )
    differences += _rows_compare(
        session=session.pk,
        kind="game",
        stored={(r.game, r.seat): r for r in GameRow.objects.filter(session=session)},
        replayed={(r.game, r.seat): r for r in expected.game_rows},
        fields=GAME_FIELDS,
    )
    differences += _rows_compare(
        session=session.pk,
        kind="state",
        stored={(r.number, 0): r for r in HandState.objects.filter(session=session)},
        replayed={(r.number, 0): r for r in expected.hand_states},
        fields=STATE_FIELDS,
    )
    return differences


def _rows_compare(
    *,
    session: int,
    kind: str,
    stored: dict[tuple[int, int], Any],
    replayed: dict[tuple[int, int], Any],
    fields: Sequence[str],
) -> list[Difference]:
    differences = []
    for key in sorted(stored.keys() | replayed.keys()):
        number, seat = key
        old, new = stored.get(key), replayed.get(key)
        if old is None or new is None:
            differences.append(
                Difference(
                    session=session,
                    kind=kind,
                    number=number,
                    seat=seat,
                    field=ROW,
                    stored=None if old is None else key,
                    replayed=None if new is None else key,
                )
            )
            continue
        for field in fields:
            if getattr(old, field) != getattr(new, field):
                differences.append(
                    Difference(
                        session=session,
                        kind=kind,
                        number=number,
                        seat=seat,
                        field=field,
                        stored=getattr(old, field),
                        replayed=getattr(new, field),
                    )
                )
    return differences
