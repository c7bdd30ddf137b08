"""Parse and check a session document (docs/rules/README.md, "The session document").

Everything a document can get wrong becomes a `RulesError` naming the hand
(1-based) and the field; nothing else escapes. Type and range checks common
to every variant live here; each variant checks its own rules when it plays
the hand.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .base import BottomJokers, HandInput, Penalty, RedealReason, RulesError, Variant
from .options import is_int, options_resolve

DOCUMENT_FIELDS = ("variant", "options", "players", "hands", "date", "venue")
# A redeal hand carries only these (plus `penalties` where the variant has them).
REDEAL_FIELDS = frozenset({"dealer", "redeal", "penalties"})


@dataclass(frozen=True, kw_only=True)
class SessionDoc:
    variant: Variant
    options: Any
    players: tuple[str, ...]
    hands: tuple[HandInput, ...]
    date: str | None = None
    venue: str | None = None


FieldParser = Callable[[Any, int, int, str], Any]  # (value, hand number, players, field) -> parsed


def _seat(value: Any, n: int, players: int, field: str) -> int:
    if not is_int(value) or not 0 <= value < players:
        raise RulesError("seat.invalid", field=field, hand=n, players=players, last=players - 1)
    return value


def _optional_seat(value: Any, n: int, players: int, field: str) -> int | None:
    return None if value is None else _seat(value, n, players, field)


def _int(value: Any, n: int, players: int, field: str) -> int:
    if not is_int(value):
        raise RulesError("value.not_integer", field=field, hand=n)
    return value


def _count(value: Any, n: int, players: int, field: str) -> int:
    if not is_int(value) or value < 0:
        raise RulesError("value.not_count", field=field, hand=n)
    return value


def _points(value: Any, n: int, players: int, field: str) -> int:
    _count(value, n, players, field)
    if value % 5:
        raise RulesError("points.not_multiple_of_5", field=field, hand=n, value=value)
    return value


def _bool(value: Any, n: int, players: int, field: str) -> bool:
    if not isinstance(value, bool):
        raise RulesError("value.not_bool", field=field, hand=n)
    return value


def _choice(*choices: str) -> FieldParser:
    def parse(value: Any, n: int, players: int, field: str) -> str:
        if value not in choices:
            raise RulesError("value.not_choice", field=field, hand=n, choices=" / ".join(choices))
        return value

    return parse


def _multiplier(value: Any, n: int, players: int, field: str) -> int:
    # An integer ≥ 2 here; a power of two or an even number is the variant's check (its option says which).
    if not is_int(value) or value < 2:
        raise RulesError("multiplier.not_power_of_two", field=field, hand=n)
    return value


def _penalties(value: Any, n: int, players: int, field: str) -> tuple[Penalty, ...]:
    if not isinstance(value, list):
        raise RulesError("value.not_list", field=field, hand=n)
    found = []
    for i, item in enumerate(value):
        where = f"{field}[{i}]"
        if not isinstance(item, dict):
            raise RulesError("value.not_object", field=where, hand=n)
        for key in item:
            if key not in ("seat", "kind"):
                raise RulesError("field.unknown", field=f"{where}.{key}", hand=n, name=key)
        for key in ("seat", "kind"):
            if key not in item:
                raise RulesError("field.required", field=f"{where}.{key}", hand=n)
        seat = _seat(item["seat"], n, players, f"{where}.seat")
        kind = _choice("shuai", "misdeal")(item["kind"], n, players, f"{where}.kind")
        found.append(Penalty(seat=seat, kind=kind))
    return tuple(found)


def _bottom_jokers(value: Any, n: int, players: int, field: str) -> BottomJokers:
    if not isinstance(value, dict):
        raise RulesError("value.not_object", field=field, hand=n)
    for key in value:
        if key not in ("big", "small"):
            raise RulesError("field.unknown", field=f"{field}.{key}", hand=n, name=key)
    counts = {}
    for key in ("big", "small"):
        count = value.get(key, 0)
        if not is_int(count) or not 0 <= count <= 3:
            raise RulesError("jokers.out_of_range", field=f"{field}.{key}", hand=n)
        counts[key] = count
    return BottomJokers(**counts)


HAND_FIELDS: Mapping[str, FieldParser] = {
    "dealer": _seat,
    "declarer": _seat,
    "bid": _int,
    "captured": _points,
    "bottom_points": _points,
    "kou_di": _bool,
    "kou": _choice("side", "trump", "joker"),
    "bottom_multiplier": _multiplier,
    "kou_cards": _int,
    "kou_unit": _int,
    "jack_kou": _bool,
    "forced": _bool,
    "partner": _optional_seat,
    "contract": _choice("plain", "bao", "gou"),
    "surrender": _bool,
    "bombs": _count,
    "penalties": _penalties,
    "no_trump_bottom": _bool,
    "bottom_jokers": _bottom_jokers,
    "gan_guo": _bool,
    "tribute": _choice("normal", "reversed", "cancelled"),
    "redeal": _choice(*(str(r) for r in RedealReason)),
}


def hand_parse(raw: Any, *, n: int, variant: Variant, players: int) -> HandInput:
    """One hand object → `HandInput`; type, range and which-fields checks only."""
    if not isinstance(raw, dict):
        raise RulesError("value.not_object", field="hand", hand=n)
    for key in raw:
        if key not in variant.hand_fields:
            raise RulesError("field.unknown", field=key, hand=n, name=key)
    # A figure over the deck's points is refused as such before its other checks (999 is "over 100",
    # not "not a multiple of 5"): the same refusal the variant makes after parsing.
    for key in ("captured", "bottom_points"):
        value = raw.get(key)
        if (
            variant.deck_points
            and isinstance(value, int)
            and not isinstance(value, bool)
            and value > variant.deck_points
        ):
            raise RulesError("points.over_deck", field=key, hand=n, value=value, total=variant.deck_points)
    values = {key: HAND_FIELDS[key](raw[key], n, players, key) for key in raw}
    if "redeal" in values:
        # `dealer` is not a field of the level games (their `hand_fields` leave it out): refused above.
        for key in raw:
            if key not in REDEAL_FIELDS:
                raise RulesError("field.not_on_redeal", field=key, hand=n)
    return HandInput(n=n, present=frozenset(raw), **values)


def document_parse(raw: Any, *, variants: Mapping[str, Variant], first_hand: int = 1) -> SessionDoc:
    """The whole session document → `SessionDoc`, or a `RulesError`.

    Its hands are numbered from `first_hand`: a document of the hands after the
    k-th, to play on from the state after it, starts at k + 1.
    """
    if not isinstance(raw, dict):
        raise RulesError("document.not_object", field="document")
    for key in raw:
        if key not in DOCUMENT_FIELDS:
            raise RulesError("field.unknown", field=str(key), name=key)
    for key in ("variant", "players", "hands"):
        if key not in raw:
            raise RulesError("field.required", field=key)
    key = raw["variant"]
    if not isinstance(key, str) or key not in variants:
        raise RulesError("variant.unknown", field="variant", choices=", ".join(variants))
    variant = variants[key]

    players = raw["players"]
    if not isinstance(players, list) or len(players) not in variant.player_counts:
        counts = " / ".join(str(c) for c in sorted(variant.player_counts))
        raise RulesError("players.count", field="players", counts=counts)
    for i, name in enumerate(players):
        if not isinstance(name, str) or not name.strip():
            raise RulesError("players.name", field=f"players[{i}]")
    if len({name.strip() for name in players}) != len(players):
        raise RulesError("players.duplicate", field="players")

    options = options_resolve(variant.defaults(len(players)), raw.get("options"))

    for key in ("date", "venue"):
        if key in raw and raw[key] is not None and not isinstance(raw[key], str):
            raise RulesError("value.not_text", field=key)
    if raw.get("date") is not None:
        try:
            datetime.date.fromisoformat(raw["date"])
        except ValueError:
            raise RulesError("value.not_date", field="date") from None

    hands_raw = raw["hands"]
    if not isinstance(hands_raw, list):
        raise RulesError("value.not_list", field="hands")
    hands = tuple(
        hand_parse(hand, n=i, variant=variant, players=len(players))
        for i, hand in enumerate(hands_raw, start=first_hand)
    )
    return SessionDoc(
        variant=variant,
        options=options,
        players=tuple(name.strip() for name in players),
        hands=hands,
        date=raw.get("date"),
        venue=raw.get("venue"),
    )
