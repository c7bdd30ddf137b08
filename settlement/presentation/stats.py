"""Standings and a player's statistics in words, tables and SVG (no queries).

`selectors.stats` reads the figures; this module names the groups, states the ranking rule, lays the
standings out as rows (one table for the API's CSV and the page's CSV, a sheet per group in the Excel
workbook) and draws a player's running total over the sessions.
"""

from __future__ import annotations

import csv
import datetime
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from ..models import engine_lang
from ..rules.families import group_label, group_parts
from ..selectors.stats import GroupStats, StandingGroup
from .chart import PlotArea
from .formats import signed

BOM = "\ufeff"


def ranking_rule() -> str:
    return _(
        "Ranked by total, then games won, then sessions won (highest first); "
        "players equal on all three share a rank. Units are never added together."
    )


def group_name(group: str, lang: str) -> str:
    return group_label(group, engine_lang(lang))


def standings_document(groups: Sequence[StandingGroup], *, lang: str) -> list[dict[str, Any]]:
    """The API's answer: a group per (family, unit), its rows ranked."""
    out = []
    for group in groups:
        family, unit = group_parts(group.group)
        out.append(
            {
                "group": group.group,
                "family": str(family),
                "unit": str(unit),
                "label": group_name(group.group, lang),
                "variants": list(group.variants),
                "ranking": ranking_rule(),
                "rows": group.rows,
            }
        )
    return out


def standings_header() -> list[str]:
    return [
        _("group"),
        _("rank"),
        _("player id"),
        _("player"),
        _("sessions played"),
        _("sessions won"),
        _("hands played"),
        _("hands declared"),
        _("won as declarer"),
        _("games won"),
        _("total"),
        _("per session"),
        _("per hand"),
    ]


def standings_table(groups: Sequence[StandingGroup], *, lang: str) -> list[list[Any]]:
    """A row per player per group (the player's name kept as text for a spreadsheet)."""
    return [
        [
            group_name(group.group, lang),
            row.rank,
            row.player.pk,
            cell_text(row.player.name),
            row.sessions,
            row.sessions_won,
            row.hands,
            row.declared,
            row.declarer_won,
            row.games_won,
            row.total,
            "" if row.per_session is None else row.per_session,
            "" if row.per_hand is None else row.per_hand,
        ]
        for group in groups
        for row in group.rows
    ]


def standings_csv(groups: Sequence[StandingGroup], *, lang: str) -> bytes:
    """UTF-8 with a byte-order mark, so spreadsheet programs read Chinese names."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(standings_header())
    writer.writerows(standings_table(groups, lang=lang))
    return (BOM + out.getvalue()).encode("utf-8")


def standings_xlsx(groups: Sequence[StandingGroup], *, lang: str) -> bytes:
    """An Excel workbook: a sheet per group (its name the group's), the ranking rule on the first."""
    from openpyxl import Workbook  # imported here: only the download needs it

    book = Workbook()
    first = book.active
    assert first is not None
    first.title = _("Standings")[:31]
    first.append([ranking_rule()])
    if not groups:
        first.append([_("No sessions.")])
    for group in groups:
        sheet = book.create_sheet(_sheet_title(group_name(group.group, lang)))
        header = standings_header()[1:]
        sheet.append(header)
        for row in standings_table([group], lang=lang):
            sheet.append([float(value) if hasattr(value, "quantize") else value for value in row[1:]])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _sheet_title(text: str) -> str:
    for bad in "[]:*?/\\":
        text = text.replace(bad, " ")
    return text[:31]


def cell_text(text: str) -> str:
    """A name that a spreadsheet would read as a formula (`=…`, `+…`, `-…`, `@…`) is kept as text."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


# --- a player's running total ---

CHART_WIDTH, CHART_HEIGHT = 320, 180
# Room on the left for the tick labels and the vertical axis's title; below for the dates and the horizontal one's.
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 52, 12, 10, 40


@dataclass(frozen=True, kw_only=True)
class RunningChart(PlotArea):
    points: str  # SVG polyline points
    zero_y: float
    ticks: tuple[tuple[float, str], ...]  # (y, label)
    last: int
    sessions: int
    first_date: datetime.date  # the first session's, under the start of the line
    last_date: datetime.date  # the newest session's, under its end


def running_chart(stats: GroupStats) -> RunningChart | None:
    """The running total session by session, from 0 before the first: one polyline in the group's unit."""
    if not stats.running:
        return None
    values = [0, *(point.running for point in stats.running)]
    low, high = min(values), max(values)
    if low == high:
        high = low + 1
    left, right = PAD_LEFT, CHART_WIDTH - PAD_RIGHT
    top, bottom = PAD_TOP, CHART_HEIGHT - PAD_BOTTOM

    def x_of(i: int) -> float:
        return round(left + (right - left) * i / (len(values) - 1), 1)

    def y_of(v: int) -> float:
        return round(bottom - (bottom - top) * (v - low) / (high - low), 1)

    ticks = {0, min(values), max(values)}
    return RunningChart(
        width=CHART_WIDTH,
        height=CHART_HEIGHT,
        points=" ".join(f"{x_of(i)},{y_of(v)}" for i, v in enumerate(values)),
        zero_y=y_of(0),
        ticks=tuple((y_of(v), signed(v)) for v in sorted(ticks)),
        left=left,
        right=right,
        top=top,
        bottom=bottom,
        last=values[-1],
        sessions=len(stats.running),
        first_date=stats.running[0].date,
        last_date=stats.running[-1].date,
    )
