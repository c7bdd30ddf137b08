"""Small display filters for the club pages (no logic beyond formatting)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import template
from django.utils.translation import gettext_lazy as _

from ...presentation.chart import Chart
from ...presentation.chart import view_chart as _view_chart
from ...presentation.formats import minus, signed
from ...presentation.sessions import hand_label as _hand_label

register = template.Library()

OUTCOMES = {
    "made": _("made"),
    "broken": _("broken"),
    "kou": _("last trick lost"),
    "redeal": _("redealt"),
    "declarer_won": _("declarer won"),
    "declarer_lost": _("declarer lost"),
    "surrender": _("surrendered"),
    "even": _("even"),
    "declarer_up": _("declarer team up"),
    "hold": _("held"),
    "switch": _("taken over"),
    "capture_up": _("taken over and up"),
    "special": _("special"),
}

HOWS = {
    "target": _("reached the target"),
    "backdoor": _("back door"),
    "instant": _("decided at once"),
    "special": _("special hand"),
    "levels": _("played through the levels"),
    "round": _("end of round"),
}


register.filter("signed", signed)
register.filter("minus", minus)


@register.filter
def seat_name(players: Sequence[Any], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(players):
        return str(players[seat])
    return "—"


@register.filter
def seat_label(seat: Any) -> str:
    """A stored seat (counted from 0) as players count it: 1号位, seat 1."""
    if not isinstance(seat, int):
        return "—"
    return _("Seat %(seat)s") % {"seat": seat + 1}


@register.filter
def seat_names(players: Sequence[Any], seats: Sequence[int]) -> str:
    return "、".join(seat_name(players, seat) for seat in seats or ())


@register.filter
def seat_cells(result: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Per seat: this hand's delta, the running total, the level (level games), declarer/dealer marks."""
    if not result:
        return []
    levels = result.get("levels") or []
    return [
        {
            "seat": seat,
            "delta": delta,
            "total": result["totals"][seat],
            "level": levels[seat] if seat < len(levels) else None,
            "declarer": result.get("declarer") == seat,
            "dealer": result.get("dealer") == seat,
        }
        for seat, delta in enumerate(result["deltas"])
    ]


@register.filter
def game_cells(game: dict[str, Any] | None) -> list[dict[str, Any]]:
    if not game:
        return []
    return [
        {"seat": seat, "total": total, "adjustment": game["adjustments"][seat], "won": seat in game["winners"]}
        for seat, total in enumerate(game["totals"])
    ]


@register.filter
def outcome_label(word: str | None) -> str:
    return str(OUTCOMES.get(word or "", word or ""))


@register.filter
def how_label(word: str | None) -> str:
    return str(HOWS.get(word or "", word or ""))


@register.filter
def role_label(role: str | None) -> str:
    from ...models import Role

    return str(Role(role).label) if role in Role.values else (role or "")


@register.filter
def at(values: Sequence[Any] | None, index: int) -> Any:
    """values[index], or None."""
    try:
        return values[index] if values is not None else None
    except (IndexError, TypeError):
        return None


@register.simple_tag
def hand_label(variant: str, n: int, what: str = "hand") -> str:
    """`{% hand_label session.variant n %}`: 第 n 局, or 第 n 副 in a level game (presentation.sessions)."""
    return _hand_label(variant, n, what)


@register.filter
def view_chart(view: Any) -> Chart | None:
    """The table view's chart geometry (`presentation.chart`), for `table_chart.html`."""
    return _view_chart(view)
