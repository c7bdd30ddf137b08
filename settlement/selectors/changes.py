"""The club's change feed, read: the changes after a position, in order (written by `ledger/changes.py`)."""

from __future__ import annotations

from ..models import Change


def club_changes(*, club_id: int, after: int, limit: int) -> tuple[list[Change], bool]:
    """The club's first `limit` changes after id `after`, in id order, and whether more follow them.

    One query whatever `limit` (one row more than asked tells whether more follow). No change the club has not
    committed yet can later appear before the last one returned: within a club, ids commit in order.
    """
    rows = list(Change.objects.filter(club_id=club_id, pk__gt=after).order_by("pk")[: limit + 1])
    return rows[:limit], len(rows) > limit
