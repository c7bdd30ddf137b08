"""The table page's receipt of a hand not yet saved: the engine's results document, read as rows per side.

The view asks the services for the preview (`services.hand_preview_next` for a new hand, played on from
the stored state; `services.hand_preview` for a correction) and maps refusals to the form; this
module only rebuilds what the receipt shows from that document — no queries, no writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .sessions import game_label

if TYPE_CHECKING:
    from ..selectors.table import TableSide


def hand_receipt(
    *,
    variant: str,
    document: dict[str, Any],
    number: int | None,
    sides: Sequence[TableSide],
    before: Sequence[int],
    fix: int | None,
) -> dict[str, Any]:
    """Hand `number` of the previewed `document`: its figures and, per side, the totals `before` and after.

    `fix` is the number of the hand being corrected (None for a new hand); a game the hand ends is
    labelled in the variant's words (盘, round, game).
    """
    hand = next((h for h in document["hands"] if h["n"] == number), None)
    game_end = next((g for g in document["games"] if g["finished"] and g["last_hand"] == number), None)
    rows = []
    for side in sides:
        seat = side.seats[0]
        rows.append(
            {
                "side": side,
                "delta": hand["deltas"][seat] if hand else 0,
                "game_total": hand["totals"][seat] if hand else 0,
                "before": before[seat],
                "after": document["totals"][seat],
                "level": hand["levels"][seat] if hand and hand.get("levels") else None,
                "declarer": bool(hand) and hand.get("declarer") in side.seats,
            }
        )
    game_end_label = game_label(variant, game_end["n"]) if game_end else ""
    return {"hand": hand, "game_end": game_end, "game_end_label": game_end_label, "rows": rows, "fix": fix}
