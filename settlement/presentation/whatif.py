"""The what-if page's figures: each seat's real and other total side by side, and the options that differ."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..rules.entry import options_spec
from ..rules.registry import VARIANTS
from .options import option_text


@dataclass(frozen=True, kw_only=True)
class WhatIfSeat:
    seat: int
    name: str
    actual: int
    other: int
    difference: int  # other − actual
    actual_games: int
    other_games: int


@dataclass(frozen=True, kw_only=True)
class WhatIfOption:
    key: str
    label: str
    actual: str
    other: str


def what_if_seats(*, actual: dict[str, Any], other: dict[str, Any]) -> list[WhatIfSeat]:
    """Per seat, in seat order: both totals, what changes, and the games won under each."""
    return [
        WhatIfSeat(
            seat=seat,
            name=name,
            actual=actual["totals"][seat],
            other=other["totals"][seat],
            difference=other["totals"][seat] - actual["totals"][seat],
            actual_games=actual["games_won"][seat],
            other_games=other["games_won"][seat],
        )
        for seat, name in enumerate(actual["players"])
    ]


def what_if_options(*, variant: str, actual: dict[str, Any], other: dict[str, Any], lang: str) -> list[WhatIfOption]:
    """The options whose values differ, labelled, each value written out as the session page writes it."""
    rows = []
    for spec in options_spec(VARIANTS[variant], lang).options:
        before, after = actual["options"].get(spec.key), other["options"].get(spec.key)
        if before != after:
            rows.append(
                WhatIfOption(
                    key=spec.key,
                    label=spec.label,
                    actual=option_text(spec, before, lang),
                    other=option_text(spec, after, lang),
                )
            )
    return rows
