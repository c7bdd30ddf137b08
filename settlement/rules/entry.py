"""The engine describes its own entry: what a session can set, and what the next hand takes.

`options_spec(variant, lang)` — a variant's player counts, presets (with the
defaults each resolves to per player count) and options (kind, range, choices,
label and help). `entry(variant, options, state, lang=…, names=…)` — the
fields of the next hand in play order, the values each allows and its
default. `table_state(variant, options, results, before=…)` reads the state
before a hand from a results document. Forms, the API and its schema are
built from these answers, never from probes or copies of the rules.

>>> from .registry import VARIANTS
>>> spec = entry(VARIANTS["baifen.benxi"], VARIANTS["baifen.benxi"].defaults(4), TableState(), lang="en")
>>> [f.name for f in spec.fields]
['dealer', 'declarer', 'bid', 'forced', 'captured', 'kou']
>>> [b.bid for b in spec.bids if 2 in b.places]
[85, 90, 95, 100]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .base import BidRule, Lang, RedealReason, Rotation, RulesError, Seat, Variant
from .biaofen import max_bombs
from .messages import TABLE, seat_name, text
from .options import OptionKind, options_dump, options_resolve, options_types

# A hand's fields in the order play produces them: the deal, the bidding, the bottom, the play, the last
# trick and the bottom shown, the penalties. A variant takes the ones it uses (`Variant.hand_fields`).
PLAY_ORDER = (
    "dealer",
    "declarer",
    "tribute",
    "bid",
    "forced",
    "contract",
    "partner",
    "no_trump_bottom",
    "surrender",
    "bombs",
    "captured",
    "kou_di",
    "kou",
    "kou_cards",
    "kou_unit",
    "jack_kou",
    "bottom_points",
    "bottom_multiplier",
    "bottom_jokers",
    "gan_guo",
    "penalties",
)


class FieldKind(StrEnum):
    SEAT = "seat"  # one of the players
    BID = "bid"  # a bid of `bids` (which places may make it)
    CHOICE = "choice"  # one of `choices`
    SWITCH = "switch"  # true / false
    POINTS = "points"  # a multiple of 5 from 0 to the deck's points
    COUNT = "count"  # an integer from minimum to maximum
    SHAPE = "shape"  # 红星五: the last trick's shape, which sets `bottom_multiplier`
    JOKERS = "jokers"  # big / small jokers, 0–3 each
    PENALTIES = "penalties"  # per seat: failed throws and misdeals


@dataclass(frozen=True, kw_only=True)
class Choice:
    value: str
    label: str
    multiplier: int | None = None  # a 红星五 shape's multiplier


@dataclass(frozen=True, kw_only=True)
class EntryField:
    """One field of the next hand: what it takes, what it allows, where it starts."""

    name: str
    kind: FieldKind
    label: str
    help: str
    required: bool
    default: Any = None
    locked: bool = False  # set by the rules (the rotation's declarer); shown, not chosen
    choices: tuple[Choice, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    step: int = 1


@dataclass(frozen=True, kw_only=True)
class TributeDue:
    """打滚子: the tribute the next scored hand pays, set by the previous scored hand."""

    cards: int
    amount: int
    payer: Seat  # the declarer's 上家
    payee: Seat  # the declarer


@dataclass(frozen=True, kw_only=True)
class TableState:
    """The state before a hand, as far as its entry depends on it."""

    game: int = 1  # the game (盘 / round / level game) the hand belongs to
    game_start: bool = True  # the hand starts that game
    next_dealer: Seat = 0  # the previous hand's next dealer (level games: the rotation's declarer)
    tribute_cards: int | None = None  # 打滚子: set by the previous scored hand; None on a game's first hand
    levels: tuple[str, ...] | None = None  # level games: per seat, before the hand


@dataclass(frozen=True, kw_only=True)
class Entry:
    """What the next hand takes: its fields in play order and, for convenience, the defaults they start from."""

    variant: str
    players: int
    state: TableState
    fields: tuple[EntryField, ...]
    bids: tuple[BidRule, ...]
    redeal_reasons: tuple[Choice, ...]
    kou_shapes: tuple[Choice, ...]
    dealer: Seat | None  # the default dealer; None when it must be asked
    ask_dealer: bool  # 标分 at the start of a round: the first bidder is drawn, so it is asked
    declarer: Seat | None  # level games: the rotation's declarer (None on a game's first hand)
    declarer_locked: bool
    tribute: TributeDue | None
    levels: tuple[str, ...] | None
    # How the seat the next hand starts from (`dealer`, or `declarer` in the level games) moves on from this
    # hand: what a phone that keeps hands offline works the next hand's seat out by (`base.Rotation`).
    rotation: Rotation

    def field(self, name: str) -> EntryField | None:
        return next((f for f in self.fields if f.name == name), None)


def _label(key: str, lang: str, fallback: str) -> str:
    """The table's text for `key`, else `fallback` (a value the table does not name: a level, a club's shape)."""
    return text(key, lang) if key in TABLE else fallback


def redeal_reasons(variant: Variant, options: Any) -> tuple[RedealReason, ...]:
    """The reasons a hand of this variant may be thrown in for (docs/rules/README.md, Hand fields, `redeal`)."""
    return tuple(variant.redeal_reasons(options)) if variant.redeal_reasons is not None else tuple(RedealReason)


def start_level(options: Any) -> str | None:
    """Level games: both teams' level when a game starts (红星五 `start_level`, 打滚子 `first_level`,
    升级 the first level of its `ladder`)."""
    level = getattr(options, "start_level", None) or getattr(options, "first_level", None)
    if level is None and getattr(options, "ladder", None):
        level = options.ladder[0]
    return str(level) if level is not None else None


def deck_points(variant: Variant, options: Any) -> int:
    """The point cards of the deck(s) in play: 升级 counts its `decks` (100 each), the others have one deck size."""
    points = getattr(options, "deck_points", None)
    return int(points) if points is not None else variant.deck_points


def table_state(variant: Variant, options: Any, results: Mapping[str, Any], *, before: int | None = None) -> TableState:
    """The state before hand `before` (or after the last hand) from a results document (`session_settle`)."""
    prior = [hand for hand in results["hands"] if before is None or hand["n"] < before]
    prev = prior[-1] if prior else None
    finished_at = {game["last_hand"] for game in results["games"] if game["finished"]}
    game_start = prev is None or prev["n"] in finished_at
    game = 1 if prev is None else prev["game"] + (1 if game_start else 0)
    next_dealer = prev["next_dealer"] if prev is not None and prev["next_dealer"] is not None else 0
    levels: tuple[str, ...] | None = None
    tribute: int | None = None
    if variant.has_levels:
        if prev is not None and not game_start and prev.get("levels"):
            levels = tuple(prev["levels"])
        else:
            levels = (start_level(options) or "",) * len(results["totals"])
    if variant.has_tribute and prev is not None and not game_start:
        tribute = prev.get("tribute_next")
    return TableState(game=game, game_start=game_start, next_dealer=next_dealer, tribute_cards=tribute, levels=levels)


def entry(
    variant: Variant,
    options: Any,
    state: TableState,
    *,
    players: int = 4,
    lang: str = Lang.ZH,
    names: Sequence[str] = (),
) -> Entry:
    """What the next hand of a session with `options` takes, after `state`, labelled in `lang`."""
    used = variant.hand_fields
    seats = tuple(Choice(value=str(s), label=seat_name(s, lang, names)) for s in range(players))
    ask_dealer = variant.dealer_drawn_each_game and state.game_start
    dealer = None if variant.has_levels or ask_dealer else state.next_dealer
    declarer = None if not variant.has_levels or state.game_start else state.next_dealer
    locked = declarer is not None and not getattr(options, "free_declarer", False)
    tribute = None
    if variant.has_tribute and declarer is not None and state.tribute_cards:
        amount = state.tribute_cards * int(getattr(options, "card_points", 1))
        tribute = TributeDue(cards=state.tribute_cards, amount=amount, payer=(declarer - 1) % players, payee=declarer)
    bids: tuple[BidRule, ...] = variant.bids(options, players) if variant.bids is not None and "bid" in used else ()
    shapes = _shapes(options, lang) if "bottom_multiplier" in used else ()
    deck = deck_points(variant, options)

    def make(name: str, kind: FieldKind, **kw: Any) -> EntryField:
        return EntryField(
            name=name,
            kind=kind,
            label=text(f"field.{name}", lang),
            help=_label(f"field.{name}.help", lang, " "),
            **kw,
        )

    def choices(name: str, values: Sequence[str]) -> tuple[Choice, ...]:
        return tuple(Choice(value=v, label=text(f"field.{name}.{v}", lang)) for v in values)

    fields: list[EntryField] = []
    for name in PLAY_ORDER:
        if name not in used:
            continue
        if name == "dealer":
            if not variant.has_levels:
                fields.append(make(name, FieldKind.SEAT, required=ask_dealer, default=dealer, choices=seats))
        elif name == "declarer":
            fields.append(
                make(name, FieldKind.SEAT, required=declarer is None, default=declarer, locked=locked, choices=seats)
            )
        elif name == "tribute":
            if tribute is not None:
                values = ("normal", "reversed", "cancelled")
                fields.append(
                    make(name, FieldKind.CHOICE, required=False, default="normal", choices=choices(name, values))
                )
        elif name == "bid":
            fields.append(
                make(
                    name,
                    FieldKind.BID,
                    required=True,
                    choices=tuple(Choice(value=str(b.bid), label=str(b.bid)) for b in bids),
                    minimum=bids[0].bid if bids else None,
                    maximum=bids[-1].bid if bids else None,
                    step=5,
                )
            )
        elif name == "contract":
            fields.append(
                make(
                    name,
                    FieldKind.CHOICE,
                    required=False,
                    default="plain",
                    choices=choices(name, ("plain", "bao", "gou")),
                )
            )
        elif name == "partner":
            # Alone is 1 against all the others: 3, or 5 at a six-player classic table.
            size = "" if players == 4 else f".{players}"
            alone = Choice(value="none", label=text(f"field.partner.none{size}", lang))
            field = make(name, FieldKind.SEAT, required=True, choices=(*seats, alone))
            if size:
                field = dataclasses.replace(field, help=text(f"field.partner.help{size}", lang))
            fields.append(field)
        elif name in ("forced", "no_trump_bottom", "surrender", "kou_di", "gan_guo"):
            fields.append(make(name, FieldKind.SWITCH, required=False, default=False))
        elif name in ("captured", "bottom_points"):
            required = name == "captured"
            fields.append(
                make(
                    name,
                    FieldKind.POINTS,
                    required=required,
                    default=None if required else 0,
                    minimum=0,
                    maximum=deck,
                    step=5,
                )
            )
        elif name == "bombs":
            fields.append(make(name, FieldKind.COUNT, required=False, default=0, minimum=0, maximum=max_bombs(players)))
        elif name == "kou":
            fields.append(
                make(
                    name,
                    FieldKind.CHOICE,
                    required=False,
                    default="",
                    choices=choices(name, ("side", "trump", "joker")),
                )
            )
        elif name == "bottom_multiplier":
            if shapes:
                fields.append(make(name, FieldKind.SHAPE, required=False, choices=shapes, minimum=2))
        elif name == "bottom_jokers":
            fields.append(
                make(
                    name,
                    FieldKind.JOKERS,
                    required=False,
                    default={"big": 0, "small": 0},
                    choices=choices(name, ("big", "small")),
                    minimum=0,
                    maximum=3,
                )
            )
        elif name in ("kou_cards", "kou_unit"):
            # 升级's 抠底 multiplier counts cards (docs/rules/shengji.md, One hand): each player's in the last trick
            # (`kou_cards`, needed with 抠底 unless the bottom always counts double) and, when the count is
            # the led play's largest unit, that unit's (`kou_unit`, optional: it defaults to `kou_cards`).
            scheme = str(getattr(options, "kou_multiplier", ""))
            counted = str(getattr(options, "kou_count", ""))
            if scheme != "flat" and (name == "kou_cards" or counted == "largest_unit"):
                most = 54 * int(getattr(options, "decks", 2)) // players
                fields.append(make(name, FieldKind.COUNT, required=False, minimum=1, maximum=most))
        elif name == "jack_kou":
            if getattr(options, "jack_back_to_two", False):
                fields.append(make(name, FieldKind.SWITCH, required=False, default=False))
        elif name == "penalties":
            fields.append(
                make(
                    name,
                    FieldKind.PENALTIES,
                    required=False,
                    default=[],
                    choices=choices(name, variant.penalty_kinds),
                    minimum=0,  # a seat's count of one kind in a hand, as the entry form takes it
                    maximum=9,
                )
            )
    reasons = tuple(Choice(value=str(r), label=text(f"redeal.{r}", lang)) for r in redeal_reasons(variant, options))
    return Entry(
        variant=variant.key,
        players=players,
        state=state,
        fields=tuple(fields),
        bids=bids,
        redeal_reasons=reasons,
        kou_shapes=shapes,
        dealer=dealer,
        ask_dealer=ask_dealer,
        declarer=declarer,
        declarer_locked=locked,
        tribute=tribute,
        levels=state.levels,
        rotation=variant.rotation,
    )


def _shapes(options: Any, lang: str) -> tuple[Choice, ...]:
    """红星五's last-trick shapes, lowest multiplier first (the `kou_shapes` option)."""
    table: Mapping[str, int] = getattr(options, "kou_shapes", {})
    ordered = sorted(table.items(), key=lambda item: (item[1], item[0]))
    return tuple(
        Choice(value=shape, label=_label(f"hxw.shape.{shape}", lang, shape), multiplier=m) for shape, m in ordered
    )


# --- options ---


@dataclass(frozen=True, kw_only=True)
class OptionSpec:
    """One option a session can set: its kind and range, its label and help, and its default per player count."""

    key: str
    kind: OptionKind
    label: str
    help: str
    defaults: Mapping[int, Any]  # player count → the variant's default (before any preset), as JSON
    minimum: int | None = None
    maximum: int | None = None
    step: int = 1
    choices: tuple[Choice, ...] = ()  # a choice's values; a keyed option's keys
    all_required: bool = True
    nullable: bool = False  # an integer that may be left blank (null): derived from the other options


@dataclass(frozen=True, kw_only=True)
class PresetSpec:
    key: str
    label: str
    help: str  # one line: what the preset sets ("" when its label says it all)
    overrides: Mapping[str, Any]
    defaults: Mapping[int, Mapping[str, Any]]  # player count → every option's value under the preset, as JSON


@dataclass(frozen=True, kw_only=True)
class VariantSpec:
    key: str
    name: str
    unit: str
    zero_sum: bool
    player_counts: tuple[int, ...]
    default_players: int  # the count a new session starts at, one of player_counts
    presets: tuple[PresetSpec, ...]
    options: tuple[OptionSpec, ...]


def variant_default_players(variant: Variant) -> int:
    """The player count a new session of `variant` starts at: its own, else the most it takes."""
    return variant.default_players or max(variant.player_counts)


def preset_overrides(variant: Variant, preset: str) -> dict[str, Any]:
    """The options preset `preset` of `variant` sets (over the variant's defaults); another name is refused.

    >>> from .registry import VARIANTS
    >>> preset_overrides(VARIANTS["baifen.benxi"], "本溪 300")
    {'target': 300}
    >>> preset_overrides(VARIANTS["baifen.benxi"], "300")
    Traceback (most recent call last):
    ...
    settlement.rules.base.RulesError: document: preset: this variant has no preset 300; one of: 本溪 205、本溪 300
    """
    if preset not in variant.presets:
        raise RulesError("preset.unknown", field="preset", name=preset, choices="、".join(variant.presets) or "—")
    return dict(variant.presets[preset])


def option_defaults(variant: Variant, players: int, preset: str | None = None) -> dict[str, Any]:
    """Every option's value (as JSON) for `players` under `preset`, one of the variant's (None: its defaults)."""
    overrides = dict(variant.presets[preset]) if preset else {}
    return options_dump(options_resolve(variant.defaults(players), overrides))


def options_spec(variant: Variant, lang: str = Lang.ZH) -> VariantSpec:
    """What a session of `variant` can set, labelled in `lang`."""
    counts = tuple(sorted(variant.player_counts))
    by_count = {n: option_defaults(variant, n) for n in counts}
    prefix = variant.option_texts
    options = []
    for name, kind in options_types(type(variant.defaults(counts[0]))):
        base = f"option.{prefix}.{name}"
        values = kind.choices or kind.keys
        if kind.kind is OptionKind.LEVEL_TABLE:
            values = ("up", "switch", "step", "capture_base")
        options.append(
            OptionSpec(
                key=name,
                kind=kind.kind,
                label=_label(base, lang, name),
                help=_label(f"{base}.help", lang, " "),
                defaults={n: by_count[n][name] for n in counts},
                minimum=kind.minimum,
                maximum=kind.maximum,
                step=kind.step,
                choices=tuple(Choice(value=v, label=_label(f"{base}.{v}", lang, v)) for v in values),
                all_required=kind.all_required,
                nullable=kind.nullable,
            )
        )
    presets = tuple(
        PresetSpec(
            key=key,
            label=_label(f"preset.{variant.key}.{key}", lang, key),
            help=_label(f"preset.{variant.key}.{key}.help", lang, " ").strip(),
            overrides=dict(overrides),
            defaults={n: option_defaults(variant, n, key) for n in counts},
        )
        for key, overrides in variant.presets.items()
    )
    return VariantSpec(
        key=variant.key,
        name=variant.name.get("en" if str(lang).lower().startswith("en") else "zh-Hans", variant.key),
        unit=variant.unit,
        zero_sum=variant.zero_sum,
        player_counts=counts,
        default_players=variant_default_players(variant),
        presets=presets,
        options=tuple(options),
    )


def as_data(value: Any) -> Any:
    """A spec (dataclasses, tuples, enums) as plain JSON data, keys as strings: for the API."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: as_data(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, StrEnum):
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): as_data(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [as_data(v) for v in value]
    return value
