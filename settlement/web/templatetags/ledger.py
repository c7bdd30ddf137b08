"""Small display filters for the club pages (no logic beyond formatting)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from ...presentation.chart import Chart
from ...presentation.chart import view_chart as _view_chart
from ...presentation.formats import minus, signed
from ...presentation.sessions import hand_label as _hand_label
from ...rules.families import SCORING, Unit
from ...rules.registry import VARIANTS

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


# 标签 (the engine's tags are its Chinese terms) glossed for an English reader, as the receipts gloss them.
TAGS_EN = {
    "成": "made (成)",
    "破": "broken (破)",
    "清": "clean (清)",
    "翻倍": "doubled (翻倍)",
    "抠底": "last trick (抠底)",
    "抠手": "last trick, side card (抠手)",
    "臭抠": "bad last trick (臭抠)",
    "罚": "penalty (罚)",
    "投降": "surrender (投降)",
    "庄胜": "declarer wins (庄胜)",
    "打宕": "beaten (打宕)",
    "大光": "big shutout (大光)",
    "小光": "small shutout (小光)",
    "底牌无主": "no trump in the bottom (底牌无主)",
    "炸弹": "bomb (炸弹)",
    "做庄奖励": "declarer bonus (做庄奖励)",
    "全轮做庄": "declared the whole round (全轮做庄)",
    "甩牌": "failed throw (甩牌)",
    "光头": "no points (光头)",
    "包场": "pays alone (包场)",
    "干锅": "dry game (干锅)",
    "上台": "take over (上台)",
    "保底": "last trick kept (保底)",
    "出锅": "game won (出锅)",
    "升级": "up (升级)",
    "胜": "won (胜)",
    "卡关": "held at a gate (卡关)",
    "进贡": "tribute (进贡)",
    "反贡": "tribute back (反贡)",
    "免贡": "no tribute (免贡)",
    "勾J": "Jack back (勾J)",
    "零分": "zero (零分)",
    "满分": "all points (满分)",
}


def _zh() -> bool:
    return not (get_language() or "").lower().startswith("en")


@register.filter(is_safe=True)
def paren(value: Any) -> SafeString:
    """`value` in parentheses as the page's language writes them: （出锅） in Chinese, (game won) in English."""
    text = conditional_escape(value)
    return mark_safe(f"（{text}）" if _zh() else f"({text})")  # text is escaped above


@register.simple_tag
def colon() -> str:
    """The colon after a label: full width in Chinese text."""
    return "：" if _zh() else ": "


# A unit in an English sentence or beside a heading (docs/glossary.md, Units); the standings' group labels
# keep the longer `families.UNIT_NAMES`.
UNITS_EN = {
    Unit.PAN_POINTS: "points",
    Unit.ZHU: "stakes",
    Unit.STAKE_POINTS: "stake points",
    Unit.DANG: "stake steps",
    Unit.LEVELS: "levels",
}


@register.filter
def unit_name(variant: str) -> str:
    """A session's unit in the page's language: 分, 注, 档, 级; stake points, 注 (stakes), levels…"""
    scoring = SCORING.get(variant)
    if scoring is None:
        return ""
    return VARIANTS[variant].unit if _zh() else UNITS_EN[scoring.unit]


@register.filter
def tag_label(tag: str) -> str:
    """A hand's tag (an engine term, Chinese) as the page shows it: the term, glossed in English."""
    return tag if _zh() else TAGS_EN.get(tag, tag)


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


@register.simple_tag
def settle_line(players: Sequence[Any], transfer: dict[str, Any], variant: str, unit_value: Any = 1) -> str:
    """One settle-up transfer with its unit: "王强 付给 李娜 2 档", or money: "… 钱 6（3 档）" at 2 a 档."""
    per = int(unit_value or 1)
    names = {"payer": seat_name(players, transfer["from"]), "payee": seat_name(players, transfer["to"])}
    unit = unit_name(variant)
    if per == 1:
        return gettext("%(payer)s pays %(payee)s %(amount)s (%(unit)s)") % {
            **names,
            "amount": transfer["amount"],
            "unit": unit,
        }
    return gettext("%(payer)s pays %(payee)s %(money)s in money (%(unit)s: %(units)s)") % {
        **names,
        "money": transfer["amount"],
        "units": transfer["amount"] // per,
        "unit": unit,
    }
