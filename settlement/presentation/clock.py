"""The round clock of an event's table: when the round ends, the minutes left, and what a hand after the end is.

Shown on the table page, its share viewer and the event's big screen, the same words on each; the end time and
the minutes left are on the page as served (it works without script), and clock.js counts down from them.
"""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass

from ..models import Event, Round

COUNTED, REFUSED, ALLOWED = "counted", "refused", "allowed"


@dataclass(frozen=True, kw_only=True)
class RoundClock:
    round: int
    ends_at: datetime.datetime
    now: datetime.datetime
    minutes_left: int  # rounded up: "1 min left" until the end; 0 once it is over
    over: bool
    late: str  # what a hand recorded after the end is: counted, refused (unless allowed), allowed (by the director)

    @property
    def ends_iso(self) -> str:
        return _iso(self.ends_at)

    @property
    def now_iso(self) -> str:
        return _iso(self.now)


def _iso(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def round_clock(*, round: Round | None, late_hands: str, now: datetime.datetime) -> RoundClock | None:
    """The clock of `round` (None: no round, no length, or the round has ended: its tables closed) at `now`.

    >>> from datetime import datetime, timedelta, UTC
    >>> start = datetime(2026, 12, 1, 19, 0, tzinfo=UTC)
    >>> r = Round(n=2, length_minutes=45, started_at=start, ends_at=start + timedelta(minutes=45))
    >>> c = round_clock(round=r, late_hands="refused", now=start + timedelta(minutes=30, seconds=1))
    >>> (c.minutes_left, c.over, c.late)
    (15, False, 'refused')
    >>> round_clock(round=r, late_hands="counted", now=start + timedelta(minutes=46)).over
    True
    """
    if round is None or round.ends_at is None or round.ended_at is not None:
        return None
    seconds = (round.ends_at - now).total_seconds()
    over = seconds <= 0
    refused = late_hands == Event.LateHands.REFUSED
    late = COUNTED if not refused else ALLOWED if round.late_allowed else REFUSED
    return RoundClock(
        round=round.n,
        ends_at=round.ends_at,
        now=now,
        minutes_left=0 if over else math.ceil(seconds / 60),
        over=over,
        late=late,
    )
