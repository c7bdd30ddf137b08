"""Charts as SVG geometry (no queries): the table page's running totals, and the leaderboard's rating graph.

`selectors.table_view` returns the figures (`TableView.chart_source`); this module computes the pixels, and
the `view_chart` template filter (`web/templatetags/ledger.py`) hands the result to `table_chart.html`.
`rating_chart` draws the leaders' ratings (`selectors.ratings.rating_steps`) by date or by games played, for
`leaderboard.html`.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .formats import signed
from .ratings import rating_text

if TYPE_CHECKING:
    from ..models import Player
    from ..selectors.ratings import RatingStep
    from ..selectors.table import TableSide, TableView

CHART_WIDTH, CHART_HEIGHT = 320, 180
CHART_PAD = {"left": 36, "right": 10, "top": 10, "bottom": 20}


@dataclass(frozen=True, kw_only=True)
class ChartSeries:
    side: TableSide
    segments: tuple[str, ...]  # SVG polyline points, one per game in per-game charts
    last: int
    end_x: float
    end_y: float


@dataclass(frozen=True, kw_only=True)
class ChartTick:
    value: int
    y: float
    label: str


@dataclass(frozen=True, kw_only=True)
class Chart:
    """A line chart of the totals over the hands, drawn by a template as SVG (no script)."""

    width: int
    height: int
    per_game: bool  # running totals within each game (reset when it ends) rather than the session's
    series: tuple[ChartSeries, ...]
    ticks: tuple[ChartTick, ...]  # 0, the extremes and ±target
    zero_y: float
    boundaries: tuple[float, ...]  # x of game ends
    hands: int  # the counted hands drawn
    first: int  # the ledger number of the first hand drawn (1: the whole session)
    last: int  # … and of the last
    left: float
    right: float
    top: float
    bottom: float


def table_chart(*, target: Any, results: dict[str, Any], sides: Sequence[TableSide]) -> Chart | None:
    """The totals over the hands as polylines: within each game where the game has a points target
    (a 盘 of 打百分, whose totals race to ±target), else the session's running totals.

    `target` is the session's `target` option (an int only where the variant has one); `results` holds
    each counted hand's running `totals` and the finished games' `totals` (`TableView.chart_source`).

    A chart of the newest hands only (`results["first"]` > 1, `TableView.chart_source`) starts at its first
    hand's figures rather than at 0 before hand 1; a session chart adds `results["base"]`, the games finished
    before it."""
    hands = results["hands"]
    if not hands:
        return None
    per_game = isinstance(target, int)
    first = int(results.get("first", 1))
    games = {game["last_hand"]: game for game in results["games"] if game["finished"]}
    # values[side] = [(x index, value, starts a game)], x index 0 = before the first hand (the whole session)
    values: list[list[tuple[int, int, bool]]] = [[(0, 0, True)] if first == 1 else [] for _ in sides]
    base = list(results.get("base") or [0] * len(results["totals"]))
    boundaries = []
    for i, hand in enumerate(hands, start=1):
        game_end = games.get(hand["n"])
        starts = i > 1 and hands[i - 2]["n"] in games
        for side, series in zip(sides, values, strict=True):
            seat = side.seats[0]
            if per_game:
                if starts:
                    series.append((i - 1, 0, True))
                series.append((i, hand["totals"][seat], False))
            else:
                value = base[seat] + (game_end["totals"][seat] if game_end else hand["totals"][seat])
                series.append((i, value, False))
        if game_end is not None:
            base = [b + t for b, t in zip(base, game_end["totals"], strict=True)]
            if i < len(hands):
                boundaries.append(i)
    all_values = [v for series in values for _, v, _ in series]
    low, high = min(0, *all_values), max(0, *all_values)
    if per_game:
        low, high = min(low, -target), max(high, target)
    if low == high:
        high = low + 1
    span = high - low
    low, high = low - span * 0.05, high + span * 0.05
    left, right = CHART_PAD["left"], CHART_WIDTH - CHART_PAD["right"]
    top, bottom = CHART_PAD["top"], CHART_HEIGHT - CHART_PAD["bottom"]

    origin = 0 if first == 1 else 1  # the x index at the left edge

    def x_of(i: int) -> float:
        return round(left + (right - left) * (i - origin) / max(1, len(hands) - origin), 1)

    def y_of(v: float) -> float:
        return round(bottom - (bottom - top) * (v - low) / (high - low), 1)

    series_out = []
    for side, series in zip(sides, values, strict=True):
        segments: list[list[str]] = []
        for i, value, starts_game in series:
            if starts_game or not segments:
                segments.append([])
            segments[-1].append(f"{x_of(i)},{y_of(value)}")
        last_i, last_value, _ = series[-1]
        series_out.append(
            ChartSeries(
                side=side,
                segments=tuple(" ".join(points) for points in segments),
                last=last_value,
                end_x=x_of(last_i),
                end_y=y_of(last_value),
            )
        )
    tick_values = {0, max(all_values), min(all_values)}
    if per_game:
        tick_values |= {target, -target}
    ticks = tuple(ChartTick(value=v, y=y_of(v), label=signed(v)) for v in sorted(tick_values))
    # Labels closer than a line apart would overlap: keep 0, the targets, then the extremes that fit.
    kept: list[ChartTick] = []
    for tick in sorted(ticks, key=lambda t: (t.value not in (0, target, -(target or 0)), abs(t.value))):
        if all(abs(tick.y - other.y) >= 11 for other in kept):
            kept.append(tick)
    return Chart(
        width=CHART_WIDTH,
        height=CHART_HEIGHT,
        per_game=per_game,
        series=tuple(series_out),
        ticks=tuple(sorted(kept, key=lambda t: t.value)),
        zero_y=y_of(0),
        boundaries=tuple(x_of(i) for i in boundaries),
        hands=len(hands),
        first=first,
        last=hands[-1]["n"],
        left=left,
        right=right,
        top=top,
        bottom=bottom,
    )


def view_chart(view: TableView) -> Chart | None:
    """The chart of a table view (None when it has no figures to draw)."""
    if view.chart_source is None:
        return None
    return table_chart(target=view.session.options.get("target"), results=view.chart_source, sides=view.sides)


# --- the leaderboard's rating graph ---

RATING_WIDTH, RATING_HEIGHT = 320, 200
# Room on the left for the ticks and the vertical axis's title; below for the first and last x and the other's.
RATING_PAD = {"left": 52, "right": 12, "top": 10, "bottom": 40}
RATING_POINTS = 120  # at most a line's points: a long history is drawn from evenly spaced outcomes, the last kept
BY_DATE, BY_GAMES = "date", "games"


@dataclass(frozen=True, kw_only=True)
class RatingSeries:
    player: Any
    index: int  # 0…: the line's colour and dash (`.s0`…)
    points: str  # SVG polyline points
    last: str  # the latest rating, as the board shows it
    played: int  # the rated outcomes it stands on
    end_x: float
    end_y: float


@dataclass(frozen=True, kw_only=True)
class PlotArea:
    """An SVG chart's size and the box its line is drawn in (inside the room for the axes' labels)."""

    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float

    @property
    def middle_x(self) -> float:  # the horizontal axis's title
        return round((self.left + self.right) / 2, 1)

    @property
    def middle_y(self) -> float:  # the vertical axis's title
        return round((self.top + self.bottom) / 2, 1)

    @property
    def under_y(self) -> float:  # the labels under the two ends of the horizontal axis
        return self.bottom + 13


@dataclass(frozen=True, kw_only=True)
class RatingChart(PlotArea):
    by: str  # BY_DATE or BY_GAMES
    series: tuple[RatingSeries, ...]
    ticks: tuple[ChartTick, ...]  # the ratings' extremes and 0 where it is in range
    zero_y: float | None
    first_x: str  # under the left end: the first date, or 1
    last_x: str  # under the right end


def _thinned(steps: Sequence[RatingStep], by: str) -> list[RatingStep]:
    """By date, a day's last rating (several games of one evening are one point); at most RATING_POINTS."""
    if by == BY_DATE:
        steps = [step for i, step in enumerate(steps) if i + 1 == len(steps) or steps[i + 1].date != step.date]
    if len(steps) <= RATING_POINTS:
        return list(steps)
    return [steps[round(i * (len(steps) - 1) / (RATING_POINTS - 1))] for i in range(RATING_POINTS)]


def rating_chart(
    *, players: Sequence[Player], steps: Mapping[int, Sequence[RatingStep]], by: str
) -> RatingChart | None:
    """A line per player (in `players`' order) of the rating μ − 3σ after each rated outcome: across, the
    outcome's date (`BY_DATE`) or how many the player had played (`BY_GAMES`). None when nothing is rated."""
    drawn = [(player, _thinned(steps.get(player.pk, ()), by)) for player in players]
    drawn = [(player, mine) for player, mine in drawn if mine]
    if not drawn:
        return None
    every = [step for _, mine in drawn for step in mine]
    if by == BY_DATE:
        first = min(step.date for step in every).toordinal()
        span_x = max(step.date for step in every).toordinal() - first
    else:
        first, span_x = 1, max(step.played for step in every) - 1
    low, high = min(step.ordinal for step in every), max(step.ordinal for step in every)
    if high - low < 1:
        low, high = low - 0.5, high + 0.5
    left, right = RATING_PAD["left"], RATING_WIDTH - RATING_PAD["right"]
    top, bottom = RATING_PAD["top"], RATING_HEIGHT - RATING_PAD["bottom"]

    def x_of(step: RatingStep) -> float:
        at = step.date.toordinal() if by == BY_DATE else step.played
        return round(left + (right - left) * (at - first) / max(1, span_x), 1)

    def y_of(value: float) -> float:
        return round(bottom - (bottom - top) * (value - low) / (high - low), 1)

    series = []
    for index, (player, mine) in enumerate(drawn):
        whole = steps[player.pk]
        series.append(
            RatingSeries(
                player=player,
                index=index,
                points=" ".join(f"{x_of(step)},{y_of(step.ordinal)}" for step in mine),
                last=rating_text(whole[-1].ordinal),
                played=whole[-1].played,
                end_x=x_of(mine[-1]),
                end_y=y_of(mine[-1].ordinal),
            )
        )
    values = [high, low] + ([0.0] if low < 0 < high else [])
    kept: list[ChartTick] = []
    for value in values:
        tick = ChartTick(value=round(value), y=y_of(value), label=rating_text(value))
        if all(abs(tick.y - other.y) >= 11 for other in kept):
            kept.append(tick)
    if by == BY_DATE:
        first_x = datetime.date.fromordinal(first).isoformat()
        last_x = datetime.date.fromordinal(first + span_x).isoformat()
    else:
        first_x, last_x = "1", str(first + span_x)
    return RatingChart(
        width=RATING_WIDTH,
        height=RATING_HEIGHT,
        by=by,
        series=tuple(series),
        ticks=tuple(sorted(kept, key=lambda t: t.y)),
        zero_y=y_of(0.0) if low < 0 < high else None,
        first_x=first_x,
        last_x=last_x,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
    )
