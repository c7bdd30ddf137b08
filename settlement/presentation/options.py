"""Turning the engine's values into words for the pages: a session's options, labelled and written out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from ..rules.entry import OptionSpec, options_spec
from ..rules.messages import TABLE, text
from ..rules.options import OptionKind
from ..rules.registry import VARIANTS
from .formats import minus


@dataclass(frozen=True, kw_only=True)
class OptionRow:
    key: str
    label: str
    help: str
    value: str


def option_rows(*, variant: str, options: dict[str, Any], lang: str) -> list[OptionRow]:
    """Every option of a session, by the engine's label, its value written out (no JSON)."""
    rules = VARIANTS.get(variant)
    if rules is None:
        return []
    rows = []
    for spec in options_spec(rules, lang).options:
        if spec.key in options:
            rows.append(
                OptionRow(
                    key=spec.key, label=spec.label, help=spec.help, value=option_text(spec, options[spec.key], lang)
                )
            )
    return rows


def option_text(spec: OptionSpec, value: Any, lang: str) -> str:
    """One option's value in words: `是`, `算成`, `80 → 100 · 85 → 100`, `抠手（副牌） 200 · …`."""
    labels = {c.value: c.label for c in spec.choices}
    kind = spec.kind
    if kind is OptionKind.SWITCH:
        return str(_("yes") if value else _("no"))
    if kind is OptionKind.CHOICE:
        return labels.get(str(value), str(value))
    if kind is OptionKind.INTEGER:
        return minus(value)
    if kind is OptionKind.CHOICE_LIST and isinstance(value, list):
        return ("、" if lang.startswith("zh") else ", ").join(labels.get(str(v), str(v)) for v in value) or "—"
    if kind is OptionKind.KEYED_INTEGERS and isinstance(value, dict):
        return " · ".join(f"{labels.get(k, k)} {minus(v)}" for k, v in value.items()) or "—"
    if kind is OptionKind.BID_TABLE and isinstance(value, dict):
        return " · ".join(f"{k} → {minus(v)}" for k, v in value.items()) or "—"
    if kind is OptionKind.INTEGER_LIST and isinstance(value, list):
        return ", ".join(minus(v) for v in value)
    if kind is OptionKind.LEVEL_TABLE and isinstance(value, dict):
        bands = " · ".join(f"{low}+ → {levels}" for low, levels in value.get("up", []))
        switch, step = labels.get("switch", "switch"), labels.get("step", "step")
        return f"{bands}; {switch} {value.get('switch')}; {step} {value.get('step')}"
    if kind is OptionKind.SHAPE_TABLE and isinstance(value, dict):
        names = {k: text(f"hxw.shape.{k}", lang) if f"hxw.shape.{k}" in TABLE else k for k in value}
        return " · ".join(f"{names[k]} ×{v}" for k, v in value.items())
    return str(value)
