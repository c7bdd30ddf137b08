"""Shared vocabulary of the rules engine: seats, hand inputs, results, errors.

Everything here is plain data. A variant module turns a `HandInput` and the
state of the table into a `HandResult`; `session.py` strings hands together
into games and renders the results document.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

Seat = int
Deltas = tuple[int, ...]


class Lang(StrEnum):
    ZH = "zh-Hans"
    EN = "en"


class HandStatus(StrEnum):
    SCORED = "scored"
    REDEAL = "redeal"


class RedealReason(StrEnum):
    ALL_PASS = "all_pass"
    NO_TRUMP_NO_POINTS = "no_trump_no_points"
    MISDEAL = "misdeal"


class GameEndHow(StrEnum):
    TARGET = "target"
    BACKDOOR = "backdoor"
    INSTANT = "instant"
    SPECIAL = "special"
    LEVELS = "levels"
    ROUND = "round"


@dataclass(frozen=True, kw_only=True)
class Msg:
    """A message of the engine's table (`messages.py`), rendered late in the caller's language."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SeatName:
    """A message parameter naming the player at `seat` (names come with the document; else `seat n`, from 1)."""

    seat: Seat


@dataclass(frozen=True)
class TeamName:
    """A message parameter naming a team by its players: `王强·张伟`."""

    seats: tuple[Seat, ...]


class RulesError(Exception):
    """The one error the engine raises for bad input.

    `code` is stable (API clients and forms map it); `hand` is 1-based, or
    None for a problem outside the hands; `field` names the input field
    (`bid`, `options.target`, `players` …).
    """

    def __init__(self, code: str, *, field: str, hand: int | None = None, **params: Any) -> None:
        self.code = code
        self.field = field
        self.hand = hand
        self.params = params
        self.players: tuple[str, ...] = ()  # the document's names, for the message (set by the replay)
        super().__init__(code)

    def at_hand(self, hand: int) -> RulesError:
        """The same error, placed at `hand` (used where a check runs without knowing the hand)."""
        if self.hand is None:
            self.hand = hand
        return self

    def message(self, lang: str = Lang.ZH) -> str:
        # Imported here: the message table imports the variant modules, which import this one.
        from .messages import render

        return render(Msg(key=f"error.{self.code}", params=self.params), lang, players=self.players)

    def where(self) -> str:
        return f"hand {self.hand}" if self.hand is not None else "document"

    def describe(self, lang: str = Lang.ZH) -> str:
        """`hand 3: bid: …` — the line `settle` prints on standard error."""
        return f"{self.where()}: {self.field}: {self.message(lang)}"

    def __str__(self) -> str:
        return self.describe(Lang.EN)


class EngineDefect(AssertionError):
    """An invariant the engine itself broke (zero-sum, …): a bug, never user input."""


@dataclass(frozen=True, kw_only=True)
class BottomJokers:
    big: int = 0
    small: int = 0


@dataclass(frozen=True, kw_only=True)
class Penalty:
    seat: Seat
    kind: str  # "shuai" | "misdeal"


@dataclass(frozen=True, kw_only=True)
class HandInput:
    """One hand as entered; `present` names the fields the document carried.

    Fields a variant does not use stay at their defaults and are refused at
    parse time, so a variant reads only what it declares.
    """

    n: int
    present: frozenset[str]
    dealer: Seat | None = None
    declarer: Seat | None = None
    bid: int | None = None
    captured: int | None = None
    bottom_points: int = 0
    kou_di: bool = False
    kou: str | None = None
    bottom_multiplier: int | None = None
    kou_cards: int | None = None
    kou_unit: int | None = None
    jack_kou: bool = False
    forced: bool = False
    partner: Seat | None = None
    contract: str = "plain"
    surrender: bool = False
    bombs: int = 0
    penalties: tuple[Penalty, ...] = ()
    no_trump_bottom: bool = False
    bottom_jokers: BottomJokers = BottomJokers()
    gan_guo: bool = False
    tribute: str = "normal"
    redeal: str | None = None

    def error(self, code: str, field: str, **params: Any) -> RulesError:
        return RulesError(code, field=field, hand=self.n, **params)

    def require(self, *fields: str) -> None:
        """Refuse the hand when a field the variant needs here was left out."""
        for name in fields:
            if name not in self.present:
                raise self.error("field.required", name)


@dataclass(frozen=True, kw_only=True)
class GameEnd:
    winners: tuple[Seat, ...]
    how: GameEndHow
    adjustments: Deltas | None = None
    adjustment_steps: tuple[Msg, ...] = ()


@dataclass(frozen=True, kw_only=True)
class HandResult:
    status: HandStatus
    dealer: Seat | None
    declarer: Seat | None
    outcome: str
    tags: tuple[str, ...]
    declarer_won: bool | None
    deltas: Deltas
    steps: tuple[Msg, ...]
    next_dealer: Seat | None
    levels: tuple[str, ...] | None = None
    # 打滚子: the cards (进贡) the next scored hand's declarer takes from his 上家; None when none is due.
    tribute_next: int | None = None
    game_end: GameEnd | None = None


@dataclass(frozen=True, kw_only=True)
class Rotation:
    """Where the next hand starts: its dealer (头家), or in the level games its declarer, counted in seats
    after a seat of this hand. The variants play by it and the entry describes it (`rules.entry`), so a
    phone keeping hands offline moves the seat on from a kept hand's fields by the same rule.

    `scored` None: the result decides, `won` seats after the declarer when the declaring side won (made its
    bid, went up, or in 打滚子 held the deal), else `lost`. A game's end may ask for the seat afresh
    (`Entry.ask_dealer`, a level game's first hand): the rotation says where it goes while the game goes on.
    """

    seat: str  # the next hand's field it fills: "dealer", or "declarer" (the level games)
    redeal: int  # after a thrown-in hand: seats after its `seat` (0: the same again)
    scored: int | None  # after a scored hand: seats after its dealer; None: by the result
    won: int | None = None  # by the result: seats after the declarer when the declaring side won
    lost: int | None = None  # … when it lost

    def after_redeal(self, seat: Seat, players: int) -> Seat:
        return (seat + self.redeal) % players

    def after_scored(self, *, dealer: Seat, declarer: Seat, won: bool | None, players: int) -> Seat:
        if self.scored is not None:
            return (dealer + self.scored) % players
        offset = self.won if won else self.lost
        assert offset is not None, "a rotation by the result names both seats"
        return (declarer + offset) % players


# 打百分 and 打二鬼: the deal passes to the dealer's 下家 after every hand, thrown in or scored.
NEXT_SEAT = Rotation(seat="dealer", redeal=1, scored=1)


def redeal_passing_on(reason: str, *, dealer: Seat, players: int, outcome: str) -> HandResult:
    """A redealt hand that scores nothing and passes the deal to the dealer's 下家 (打百分, 打二鬼)."""
    return HandResult(
        status=HandStatus.REDEAL,
        dealer=dealer,
        declarer=None,
        outcome=outcome,
        tags=(),
        declarer_won=None,
        deltas=(0,) * players,
        steps=(Msg(key="redeal", params={"reason": Msg(key=f"redeal.{reason}")}),),
        next_dealer=NEXT_SEAT.after_redeal(dealer, players),
    )


@dataclass(frozen=True, kw_only=True)
class Context:
    """What a variant knows of the table when it settles a hand."""

    players: int
    hand_in_game: int  # 1-based position of this hand in its game (redeals counted)
    scored_in_game: int  # scored hands of this game before this one
    game_totals: Deltas  # running totals of the game before this hand
    default_dealer: Seat  # the previous hand's next_dealer, or seat 0


class Table(Protocol):
    """The per-session state machine of one variant.

    `state_dump()` is what the table carries from one hand to the next (plain
    JSON: ints, strings, lists, None); `state_load(dump)` puts a fresh table
    back into that state, so a session can play on from a stored state.
    """

    def play(self, hand: HandInput, ctx: Context) -> HandResult: ...

    def state_dump(self) -> dict[str, Any]: ...

    def state_load(self, state: Mapping[str, Any]) -> None: ...


class StatelessTable:
    """A table that carries nothing from one hand to the next (the context says all it needs)."""

    def state_dump(self) -> dict[str, Any]:
        return {}

    def state_load(self, state: Mapping[str, Any]) -> None:
        if state:
            raise ValueError(f"a stateless table got state {dict(state)}")


@dataclass(frozen=True, kw_only=True)
class BidRule:
    """A bid and the bidding places (declarer − dealer, mod players; 0 = 头家) where the rules allow it."""

    bid: int
    places: tuple[int, ...]
    forced_places: tuple[int, ...] = ()  # where it is allowed as a forced bid (本溪, 抚顺)


def bids_everywhere(low: int, high: int, players: int) -> tuple[BidRule, ...]:
    """Every multiple of 5 from `low` to `high`, at every place: the variants with a bid range only."""
    places = tuple(range(players))
    return tuple(BidRule(bid=bid, places=places) for bid in range(low, high + 1, 5))


@dataclass(frozen=True, kw_only=True)
class Variant:
    """A registered variant: what it accepts and how a session of it is played.

    It describes its own entry: `bids(options, players)` lists the bids allowed
    at each place (None when the hand has no bid), `redeal_reasons(options)`
    the reasons a hand may be thrown in for; its options' labels are the
    message table's `option.<option_texts>.<name>` entries.
    """

    key: str
    name: Mapping[str, str]  # per language
    unit: str
    zero_sum: bool
    player_counts: frozenset[int]
    hand_fields: frozenset[str]
    default_players: int = 0  # the count a new session starts at (0: the most of player_counts)
    has_levels: bool = False
    has_tribute: bool = False
    deck_points: int = 0  # the point cards of the deck(s): `captured` or the bottom above it is refused first
    defaults: Any  # Callable[[int], Options]: resolved defaults for n players
    presets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    new_table: Any  # Callable[[Options, int], Table]
    option_texts: str  # message-key prefix of the options' labels and help
    bids: Any = None  # Callable[[Options, int], tuple[BidRule, ...]] | None
    redeal_reasons: Any = None  # Callable[[Options], tuple[RedealReason, ...]] | None (None: all of them)
    rotation: Rotation  # where the next hand starts (its dealer, or the level games' declarer)
    dealer_drawn_each_game: bool = False  # 标分: each round's first bidder is drawn, so the entry asks
    penalty_kinds: tuple[str, ...] = ("shuai", "misdeal")  # what a `penalties` entry may record (its `kind`)


def team_deltas(declarer: Seat, declaring: int, capturing: int) -> Deltas:
    """Per-seat deltas when each seat shows its team's figure."""
    return tuple(declaring if seat % 2 == declarer % 2 else capturing for seat in range(4))


def minus(value: int) -> str:
    """A figure for a receipt, written with a true minus sign."""
    return str(value).replace("-", "−")


def signed(value: int) -> str:
    """A figure for a receipt, always with its sign: +20, −85, 0."""
    return f"+{value}" if value > 0 else minus(value)


def check_zero_sum(deltas: Deltas, what: str) -> None:
    if sum(deltas) != 0:
        raise EngineDefect(f"{what} does not sum to zero: {deltas}")
