"""A hand's audit trail in words: each revision as the changes it made, with names, never JSON.

`抓分 35 → 30 · 原因：少记了一个十 · 王强 · 11月28日 21:04`. Seats in a hand's input are 0-based
indexes into the session's seats; they are shown as the players' names. The first revision lists
what was recorded; a void says so; a correction after a void lists what came back.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils import dateformat, timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from ..ledger import django_lang
from ..models import engine_lang
from ..rules.base import Msg
from ..rules.messages import render

# Short names of the hand's fields, in the order a hand is played (docs/rules/README.md, "Hand fields").
FIELD_LABELS: dict[str, Any] = {
    "dealer": gettext_lazy("dealer"),
    "declarer": gettext_lazy("declarer"),
    "tribute": gettext_lazy("tribute"),
    "bid": gettext_lazy("bid"),
    "forced": gettext_lazy("forced to declare"),
    "contract": gettext_lazy("contract"),
    "partner": gettext_lazy("partner"),
    "no_trump_bottom": gettext_lazy("no trump in the bottom"),
    "surrender": gettext_lazy("surrendered"),
    "bombs": gettext_lazy("bombs"),
    "captured": gettext_lazy("captured"),
    "kou_di": gettext_lazy("last trick to the capture side"),
    "kou": gettext_lazy("last trick (抠)"),
    "bottom_points": gettext_lazy("bottom points"),
    "bottom_multiplier": gettext_lazy("multiplier"),
    "bottom_jokers": gettext_lazy("jokers in the bottom"),
    "gan_guo": gettext_lazy("干锅"),
    "penalties": gettext_lazy("penalties"),
    "redeal": gettext_lazy("redealt"),
}

# What an absent field means (docs/rules/README.md, "Hand fields": a field left out takes its default).
DEFAULTS: dict[str, Any] = {
    "forced": False,
    "no_trump_bottom": False,
    "surrender": False,
    "kou_di": False,
    "gan_guo": False,
    "bombs": 0,
    "contract": "plain",
    "tribute": "normal",
    "penalties": [],
    "bottom_jokers": {},
    "kou": None,
    "redeal": None,
}

CHOICES: dict[str, dict[str, Any]] = {
    "kou": {
        "side": gettext_lazy("抠手 (side card)"),
        "trump": gettext_lazy("抠底 (trump)"),
        "joker": gettext_lazy("抠底 (joker)"),
    },
    "contract": {"plain": gettext_lazy("plain"), "bao": "100爆", "gou": "100鉤"},
    "tribute": {
        "normal": gettext_lazy("paid"),
        "reversed": gettext_lazy("reversed"),
        "cancelled": gettext_lazy("cancelled"),
    },
}

SEAT_FIELDS = frozenset({"dealer", "declarer", "partner"})


@dataclass(frozen=True, kw_only=True)
class RevisionLine:
    """One revision in words: what it did (`kind`: record, correction, restore, void) and the changes."""

    number: int
    kind: str
    action: str  # "recorded", "corrected" … in the reader's language
    changes: tuple[str, ...]  # "抓分 35 → 30", or on a record "抓分 35"
    reason: str
    note: str  # the note on the hand as this revision has it ("" for none)
    author: str
    when: str  # "11月28日 21:04" / "28 Nov 21:04", local time
    created_at: datetime.datetime


def revision_lines(*, revisions: Sequence[Any], players: Sequence[Any], lang: str) -> list[RevisionLine]:
    """The revisions of one hand (oldest first, as `selectors.RevisionInfo`) in words, in `lang`."""
    names = [str(player) for player in players]
    lines = []
    previous: dict[str, Any] | None = None  # the last input that counted (None: none yet, or void)
    with translation.override(django_lang(lang)):
        for revision in revisions:
            if revision.is_void:
                kind, action, changes = "void", pgettext("revision", "voided"), (_("the hand no longer counts"),)
                previous = None
            elif previous is None:
                kind = "record" if revision.number == 1 else "restore"
                action = pgettext("revision", "recorded") if kind == "record" else pgettext("revision", "brought back")
                changes = tuple(_recorded(revision.input, names, lang))
                previous = revision.input
            else:
                kind, action = "correction", pgettext("revision", "corrected")
                changes = tuple(_changed(previous, revision.input, names, lang)) or (pgettext("revision", "no change"),)
                previous = revision.input
            lines.append(
                RevisionLine(
                    number=revision.number,
                    kind=kind,
                    action=action,
                    changes=changes,
                    reason=revision.reason,
                    note=getattr(revision, "note", ""),
                    author=revision.author,
                    when=when_label(revision.created_at, lang),
                    created_at=revision.created_at,
                )
            )
    return lines


def when_label(moment: datetime.datetime, lang: str) -> str:
    """`11月28日 21:04` or `28 Nov 21:04`, in the site's time zone."""
    local = timezone.localtime(moment) if timezone.is_aware(moment) else moment
    with translation.override(django_lang(lang)):
        pattern = "j M H:i" if engine_lang(lang) == "en" else "n月j日 H:i"
        return dateformat.format(local, pattern)


def _fields(*inputs: dict[str, Any]) -> list[str]:
    """The fields of the inputs in play order (known ones first, then any other, by name)."""
    present = {name for hand in inputs for name in hand}
    known = [name for name in FIELD_LABELS if name in present]
    return known + sorted(present - set(FIELD_LABELS))


def _recorded(hand: Any, names: Sequence[str], lang: str) -> Iterable[str]:
    if not isinstance(hand, dict):
        return [str(hand)]
    out = []
    for name in _fields(hand):
        value = hand[name]
        if value is False or (name in DEFAULTS and value == DEFAULTS[name] and name not in SEAT_FIELDS):
            continue  # an unset flag or a default says nothing about what happened
        if value is True:
            out.append(_label(name))
        else:
            out.append(f"{_label(name)} {_value(name, value, names, lang)}")
    return out


def _changed(old: dict[str, Any], new: Any, names: Sequence[str], lang: str) -> Iterable[str]:
    if not isinstance(old, dict) or not isinstance(new, dict):
        return [f"{old} → {new}"]
    out = []
    for name in _fields(old, new):
        before, after = old.get(name, DEFAULTS.get(name, _ABSENT)), new.get(name, DEFAULTS.get(name, _ABSENT))
        if before == after:
            continue
        out.append(f"{_label(name)} {_value(name, before, names, lang)} → {_value(name, after, names, lang)}")
    return out


_ABSENT = object()


def _label(name: str) -> str:
    return str(FIELD_LABELS.get(name, name))


def _value(name: str, value: Any, names: Sequence[str], lang: str) -> str:
    formatter = _FORMATTERS.get(name)
    if value is _ABSENT:
        return _("(by the rules)") if name in SEAT_FIELDS else "—"
    if formatter is not None:
        return formatter(value, names, lang)
    if isinstance(value, bool):
        return pgettext("value", "yes") if value else pgettext("value", "no")
    if value is None:
        return "—"
    return str(value)


def _seat(value: Any, names: Sequence[str], lang: str) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
        return names[value]
    return str(value)


def _partner(value: Any, names: Sequence[str], lang: str) -> str:
    if value is None:
        return _("alone (1 against 5)") if len(names) == 6 else _("alone (1 against 3)")
    return _seat(value, names, lang)


def _choice(field: str) -> Callable[[Any, Sequence[str], str], str]:
    def format_choice(value: Any, names: Sequence[str], lang: str) -> str:
        if value is None:
            return _("none")
        return str(CHOICES[field].get(value, value))

    return format_choice


def _redeal(value: Any, names: Sequence[str], lang: str) -> str:
    if value is None:
        return pgettext("redeal", "not redealt")
    return render(Msg(key=f"redeal.{value}"), engine_lang(lang))


def _multiplier(value: Any, names: Sequence[str], lang: str) -> str:
    return f"×{value}"


def _jokers(value: Any, names: Sequence[str], lang: str) -> str:
    if not isinstance(value, dict):
        return str(value)
    big, small = value.get("big", 0), value.get("small", 0)
    if not big and not small:
        return _("none")
    return _("big %(big)s, small %(small)s") % {"big": big, "small": small}


def _penalties(value: Any, names: Sequence[str], lang: str) -> str:
    if not value:
        return _("none")
    kinds = {"shuai": _("failed throw"), "misdeal": _("misdeal")}
    items = [f"{_seat(p.get('seat'), names, lang)} {kinds.get(p.get('kind'), p.get('kind'))}" for p in value]
    return "、".join(items) if engine_lang(lang) != "en" else ", ".join(items)


_FORMATTERS: dict[str, Callable[[Any, Sequence[str], str], str]] = {
    "dealer": _seat,
    "declarer": _seat,
    "partner": _partner,
    "kou": _choice("kou"),
    "contract": _choice("contract"),
    "tribute": _choice("tribute"),
    "redeal": _redeal,
    "bottom_multiplier": _multiplier,
    "bottom_jokers": _jokers,
    "penalties": _penalties,
}
