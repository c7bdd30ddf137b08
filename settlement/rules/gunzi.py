"""打滚子 (`gunzi`, Dalian): a three-deck level-up game settled in 分 per player, zero-sum.

Seats 0 + 2 play 1 + 3; levels run `3` … `10` (the 2s are permanent trumps).
A hand is decided by `s`, the capture team's points plus the doubled bottom
when it won the last trick (抠底), and by `J`, the jokers in the final bottom
(a big one counts 2, a small one 1; none under 干锅). From 120 with 抠底 the
capture team takes over (上台) and goes up `1 + J` levels, scoring 1 + 3 per
level; from 120 without 抠底 it takes over and scores 1; below 120 without
抠底 the declaring team goes up `1 + J` levels at 3 each (保底); below 120 with
抠底 nothing happens (臭抠). The other team scores the negative. Nothing
captured, all 300 captured, or 120 with 抠底 over three buried big jokers are
specials worth 50 each that end the game. Each hand also sets the tribute
(进贡) of the next one, paid seat to seat by the next declarer's 上家; a team
promoted past `10` wins the game.

>>> from .session import session_settle
>>> doc = {"variant": "gunzi", "players": ["甲", "乙", "丙", "丁"],
...        "hands": [{"declarer": 0, "captured": 50}, {"captured": 130}]}
>>> [hand["deltas"] for hand in session_settle(doc)["hands"]]
[[3, -3, 3, -3], [-1, -2, 2, 1]]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .base import (
    Context,
    GameEnd,
    GameEndHow,
    HandInput,
    HandResult,
    HandStatus,
    Msg,
    RulesError,
    Seat,
    SeatName,
    Variant,
    team_deltas,
)
from .levels import (
    LEVELS,
    ROTATION,
    LevelCarry,
    band_text,
    check_deck,
    level_redeal,
    levels_step,
    resolve_declarer,
    seat_levels,
    team_index,
    team_msg,
    team_seats,
)
from .options import option, parse_bool, parse_choice, parse_enum, parse_int

DECK_POINTS = 300  # three decks
TRIBUTE_LOW = 80  # below it the capture team pays a card per 10 points short
TRIBUTE_HIGH = 150  # above it the declaring team pays a card per 10 points over


class Outcome(StrEnum):
    DECLARER_UP = "declarer_up"  # 保底
    HOLD = "hold"  # 臭抠
    SWITCH = "switch"  # 上台
    CAPTURE_UP = "capture_up"  # 上台并升级
    SPECIAL = "special"
    REDEAL = "redeal"


class Rounding(StrEnum):
    FLOOR = "floor"
    CEIL = "ceil"


class TripleJokers(StrEnum):
    """Which three jokers in the final bottom are a special (house rule, docs/rules/gunzi.md, One hand)."""

    CAPTURE_BIG = "capture_big"  # seed 004: three big jokers dug out (抠底) from the threshold
    BOTH_SIDES = "both_sides"  # also three big jokers kept (保底, below the threshold): declaring team
    BOTH_SIDES_SMALL = "both_sides_small"  # as both_sides, three small jokers counting as three big


class Tribute(StrEnum):
    NORMAL = "normal"
    REVERSED = "reversed"  # the payer holds the three big jokers: the declarer pays
    CANCELLED = "cancelled"  # the payer's partner holds them: nobody pays


# Levels a game can run on: 2 is a permanent trump, so never a level.
LEVEL_CHOICES = LEVELS[1:]


@dataclass(frozen=True, kw_only=True)
class GunziOptions:
    first_level: str = option("3", "both teams' level at the start of a game", parse_choice(LEVEL_CHOICES))
    last_level: str = option("10", "a team promoted past this level wins the game (出锅)", parse_choice(LEVEL_CHOICES))
    threshold: int = option(120, "capture team's points that take over (上台)", parse_int(low=5, high=300, step=5))
    bottom_multiplier: int = option(2, "the bottom's points count this many times on 抠底", parse_int(low=1))
    level_points: int = option(3, "分 per player per level gained", parse_int(low=0))
    takeover_points: int = option(1, "分 per player for taking over", parse_int(low=0))
    card_points: int = option(1, "分 per tribute card", parse_int(low=0))
    special_points: int = option(
        50, "分 per player for a special (0 points, 300 points, 3 big jokers dug out)", parse_int(low=0)
    )
    tribute_rounding: Rounding = option(
        Rounding.FLOOR,
        'cards per 10 points short of 80 or over 150: "floor" or "ceil" (75 pays 1)',
        parse_enum(Rounding),
    )
    unit_value: int = option(1, "money per 分, for settle-up", parse_int(low=1))
    free_declarer: bool = option(False, "accept an entered declarer that differs from the rotation", parse_bool)
    triple_jokers: TripleJokers = option(
        TripleJokers.CAPTURE_BIG,
        'three jokers in the bottom: "capture_big" dug out only; "both_sides" also kept (保底); '
        '"both_sides_small" and three small ones too',
        parse_enum(TripleJokers),
    )

    def check(self) -> None:
        if LEVELS.index(self.first_level) >= LEVELS.index(self.last_level):
            raise RulesError(
                "options.inconsistent",
                field="options.last_level",
                detail=Msg(key="gunzi.last_above_first", params={"last": self.last_level, "first": self.first_level}),
            )


def _bottom_jokers(hand: HandInput, tags: list[str], steps: list[Msg]) -> tuple[int, int, int]:
    """The jokers buried in the bottom (big, small) and `J` = 2 × big + small; 干锅 makes `J` 0."""
    big, small = hand.bottom_jokers.big, hand.bottom_jokers.small
    jokers = 2 * big + small
    if hand.gan_guo:
        tags.append("干锅")
        if jokers:
            steps.append(Msg(key="gunzi.gan_guo", params={"big": big, "small": small}))
        return big, small, 0
    if jokers:
        steps.append(Msg(key="gunzi.jokers", params={"big": big, "small": small, "j": jokers}))
    return big, small, jokers


@dataclass(kw_only=True)
class GunziTable(LevelCarry):
    options: GunziOptions
    levels: tuple[int, int] = (0, 0)
    pending: Seat | None = None  # the rotation's next declarer; None on a game's first hand
    tribute_cards: int | None = None  # T the next scored hand pays; None: no tribute (a game's first hand)

    def __post_init__(self) -> None:
        self._new_game()

    def _new_game(self) -> None:
        first = LEVELS.index(self.options.first_level)
        self.levels = (first, first)
        self.pending = None
        self.tribute_cards = None

    def state_dump(self) -> dict[str, Any]:
        return {**super().state_dump(), "tribute_cards": self.tribute_cards}

    def state_load(self, state: Mapping[str, Any]) -> None:
        super().state_load(state)
        self.tribute_cards = state["tribute_cards"]

    def play(self, hand: HandInput, ctx: Context) -> HandResult:
        """One hand, as the rule file's steps: the incoming tribute, `s` and `J`, a special or the levels and
        taking over, the next declarer and the tribute the next hand pays."""
        if ctx.hand_in_game == 1:
            self._new_game()
        if hand.redeal is not None:
            # The tribute waits for the next scored hand.
            redeal = level_redeal(hand, self.pending, self.levels, Outcome.REDEAL)
            return dataclasses.replace(redeal, tribute_next=self.tribute_cards)
        steps: list[Msg] = []
        declarer = resolve_declarer(hand, self.pending, self.options.free_declarer, steps)
        hand.require("captured")
        incoming = self.tribute_cards
        tribute = Tribute(hand.tribute)
        if incoming is None and tribute is not Tribute.NORMAL:
            raise hand.error("tribute.first_hand", "tribute")
        check_deck(hand, DECK_POINTS)
        tags: list[str] = []
        seat_deltas = [0, 0, 0, 0]
        # 1. incoming tribute, seat to seat
        if incoming is None:
            steps.append(Msg(key="gunzi.tribute.none_first"))
        else:
            self._pay_tribute(declarer, incoming, tribute, seat_deltas, tags, steps)
        s = self._points(hand, tags, steps)
        big, small, jokers = _bottom_jokers(hand, tags, steps)
        special = self._special(hand, s, big, small)
        next_declarer: Seat | None = None
        declarer_won: bool | None
        game_end: GameEnd | None
        if special is not None:
            # 2. specials: replace step 3 and end the game
            outcome, declarer_won, team_figures, game_end = self._special_end(special, declarer, tags, steps)
        else:
            # 3. levels and taking over; 4. the next declarer
            outcome, declarer_won, team_figures, game_end = self._levels(hand, declarer, s, jokers, tags, steps)
            if outcome is Outcome.HOLD:
                jokers = 0  # buried jokers are void after 臭抠
            if game_end is None:
                held = s < self.options.threshold
                next_declarer = ROTATION.after_scored(dealer=declarer, declarer=declarer, won=held, players=4)
        for seat, figure in enumerate(team_deltas(declarer, *team_figures)):
            seat_deltas[seat] += figure
        steps.append(levels_step(self.levels))
        self._carry_on(s, jokers, next_declarer, steps)
        return HandResult(
            status=HandStatus.SCORED,
            dealer=declarer,
            declarer=declarer,
            outcome=outcome,
            tags=tuple(tags),
            declarer_won=declarer_won,
            deltas=tuple(seat_deltas),
            steps=tuple(steps),
            next_dealer=next_declarer,
            levels=seat_levels(self.levels),
            tribute_next=self.tribute_cards,
            game_end=game_end,
        )

    def _points(self, hand: HandInput, tags: list[str], steps: list[Msg]) -> int:
        """`s`, the capture team's points: with 抠底 the bottom counts `bottom_multiplier` times."""
        assert hand.captured is not None
        captured, bottom, m = hand.captured, hand.bottom_points, self.options.bottom_multiplier
        if not hand.kou_di:
            steps.append(Msg(key="gunzi.s", params={"s": captured}))
            return captured
        s = captured + bottom * m
        tags.append("抠底")
        steps.append(Msg(key="gunzi.s_kou", params={"captured": captured, "bottom": bottom, "m": m, "s": s}))
        return s

    def _special_end(
        self, special: str, declarer: Seat, tags: list[str], steps: list[Msg]
    ) -> tuple[Outcome, bool, tuple[int, int], GameEnd]:
        """Rule step 2: a special hand scores ±`special_points` per player and ends the game for the gainer."""
        declaring, capturing = team_index(declarer), 1 - team_index(declarer)
        gainer = declaring if special == "zero" or special.endswith("_kept") else capturing
        points = self.options.special_points
        figure = points if gainer == declaring else -points
        tags.append(SPECIAL_TAGS[special])
        steps.append(
            Msg(key=f"gunzi.special.{special}", params={"points": points, "threshold": self.options.threshold})
        )
        game_end = GameEnd(winners=team_seats(gainer), how=GameEndHow.SPECIAL)
        return Outcome.SPECIAL, gainer == declaring, (figure, -figure), game_end

    def _levels(
        self, hand: HandInput, declarer: Seat, s: int, jokers: int, tags: list[str], steps: list[Msg]
    ) -> tuple[Outcome, bool | None, tuple[int, int], GameEnd | None]:
        """Rule step 3: 上台 (with or without 抠底), 保底 or 臭抠; a team promoted past the last level wins."""
        o = self.options
        declaring, capturing = team_index(declarer), 1 - team_index(declarer)
        k = 1 + jokers
        promoted: int | None = None
        declarer_won: bool | None
        if s >= o.threshold and hand.kou_di:
            outcome, declarer_won, promoted = Outcome.CAPTURE_UP, False, capturing
            score = o.takeover_points + o.level_points * k
            tags.append("上台")
            params = {"threshold": o.threshold, "k": k, "j": jokers, "t": o.takeover_points, "lp": o.level_points}
            steps.append(Msg(key="gunzi.capture_up", params={**params, "score": score}))
            team_figures = (-score, score)
        elif s >= o.threshold:
            outcome, declarer_won = Outcome.SWITCH, False
            score = o.takeover_points
            tags.append("上台")
            steps.append(Msg(key="gunzi.switch", params={"threshold": o.threshold, "score": score}))
            team_figures = (-score, score)
        elif not hand.kou_di:
            outcome, declarer_won, promoted = Outcome.DECLARER_UP, True, declaring
            score = o.level_points * k
            tags.append("保底")
            params = {"threshold": o.threshold, "k": k, "j": jokers, "lp": o.level_points, "score": score}
            steps.append(Msg(key="gunzi.declarer_up", params=params))
            team_figures = (score, -score)
        else:
            outcome, declarer_won = Outcome.HOLD, None
            tags.append("臭抠")
            steps.append(Msg(key="gunzi.hold", params={"threshold": o.threshold}))
            team_figures = (0, 0)
        game_end: GameEnd | None = None
        if promoted is not None and self._promote(promoted, k, steps):
            tags.append("出锅")
            game_end = GameEnd(winners=team_seats(promoted), how=GameEndHow.LEVELS)
        return outcome, declarer_won, team_figures, game_end

    def _carry_on(self, s: int, jokers: int, next_declarer: Seat | None, steps: list[Msg]) -> None:
        """Rule step 4 and the tribute table: who declares next and what the next hand pays (none: game over)."""
        if next_declarer is None:
            self.pending = None
            self.tribute_cards = None
            return
        key = "next.partner" if s < self.options.threshold else "next.left"
        steps.append(Msg(key=key, params={"seat": SeatName(next_declarer)}))
        self.tribute_cards = self._next_tribute(s, jokers, next_declarer, steps)
        self.pending = next_declarer

    def _pay_tribute(
        self, declarer: Seat, cards: int, tribute: Tribute, deltas: list[int], tags: list[str], steps: list[Msg]
    ) -> None:
        payer = (declarer - 1) % 4  # the declarer's 上家
        amount = cards * self.options.card_points
        params = {"cards": cards, "payer": SeatName(payer), "declarer": SeatName(declarer), "amount": amount}
        if cards == 0:
            steps.append(Msg(key="gunzi.tribute.zero"))
        elif tribute is Tribute.NORMAL:
            deltas[payer] -= amount
            deltas[declarer] += amount
            tags.append("进贡")
            steps.append(Msg(key="gunzi.tribute.normal", params=params))
        elif tribute is Tribute.REVERSED:
            deltas[payer] += amount
            deltas[declarer] -= amount
            tags.append("反贡")
            steps.append(Msg(key="gunzi.tribute.reversed", params=params))
        else:
            tags.append("免贡")
            steps.append(Msg(key="gunzi.tribute.cancelled", params=params))

    def _special(self, hand: HandInput, s: int, big: int, small: int) -> str | None:
        if s == 0:
            return "zero"
        if s >= 300:
            return "all"
        o = self.options
        if hand.gan_guo:
            return None
        if big == 3:
            kind = "three_big"
        elif small == 3 and o.triple_jokers is TripleJokers.BOTH_SIDES_SMALL:
            kind = "three_small"
        else:
            return None
        if hand.kou_di and s >= o.threshold:
            return kind
        if not hand.kou_di and s < o.threshold and o.triple_jokers is not TripleJokers.CAPTURE_BIG:
            return f"{kind}_kept"
        return None

    def _promote(self, team: int, k: int, steps: list[Msg]) -> bool:
        """Move `team` up `k` levels; True when that carries it past the last level (it wins)."""
        last = LEVELS.index(self.options.last_level)
        old = self.levels[team]
        won = old + k > last
        new = min(old + k, last)
        levels = list(self.levels)
        levels[team] = new
        self.levels = (levels[0], levels[1])
        if won:
            steps.append(Msg(key="gunzi.win", params={"team": team_msg(team), "last": self.options.last_level}))
        return won

    def _next_tribute(self, s: int, jokers: int, next_declarer: Seat, steps: list[Msg]) -> int:
        """T the next scored hand pays (the next declarer's 上家 to the next declarer)."""
        o = self.options
        ceil = o.tribute_rounding is Rounding.CEIL
        if s < o.threshold:
            short = max(TRIBUTE_LOW - s, 0)
            base = -(-short // 10) if ceil else short // 10
            key = "gunzi.next.short" if s < TRIBUTE_LOW else "gunzi.next.jokers_capture"
            params = {"s": s, "base": base, "limit": TRIBUTE_LOW, "band": band_text(TRIBUTE_LOW, o.threshold - 5)}
        else:
            over = max(s - TRIBUTE_HIGH, 0)
            base = -(-over // 10) if ceil else over // 10
            key = "gunzi.next.over" if s > TRIBUTE_HIGH else "gunzi.next.jokers_declaring"
            params = {"s": s, "base": base, "limit": TRIBUTE_HIGH, "band": band_text(o.threshold, TRIBUTE_HIGH)}
        cards = base + jokers
        if cards == 0:
            steps.append(Msg(key="gunzi.next.none", params={"s": s}))
            return 0
        rounding = Msg(key=f"gunzi.rounding.{o.tribute_rounding}")
        steps.append(
            Msg(
                key=key,
                params={
                    **params,
                    "j": jokers,
                    "cards": cards,
                    "rounding": rounding,
                    "payer": SeatName((next_declarer - 1) % 4),
                    "payee": SeatName(next_declarer),
                },
            )
        )
        return cards


SPECIAL_TAGS: Mapping[str, str] = {
    "zero": "零分",
    "all": "满分",
    "three_big": "抠三大王",
    "three_small": "抠三小王",
    "three_big_kept": "保底三大王",
    "three_small_kept": "保底三小王",
}

MESSAGES: Mapping[str, tuple[str, str]] = {
    "gunzi.last_above_first": (
        "出锅级 {last} 应高于起始级 {first}",
        "last_level {last} must be above first_level {first}",
    ),
    "error.tribute.first_hand": (
        "一盘的第一副牌没有进贡，tribute 只能是 normal",
        "a game's first hand has no tribute; tribute must be normal",
    ),
    "gunzi.tribute.none_first": ("本盘第一副：不进贡", "first hand of the game: no tribute"),
    "gunzi.tribute.zero": ("上一副定的进贡：0 张，不进贡", "tribute set by the last hand: 0 cards"),
    "gunzi.tribute.normal": (
        "进贡 {cards} 张：{payer}（上家）付庄家{declarer} {amount} 分",
        "tribute {cards} cards: {payer} (the 上家) pays the declarer, {declarer}, {amount}",
    ),
    "gunzi.tribute.reversed": (
        "进贡家有三个大王，反贡 {cards} 张：庄家{declarer}付{payer} {amount} 分",
        "the payer holds three big jokers, reversed ({cards} cards): the declarer, {declarer}, pays {payer} {amount}",
    ),
    "gunzi.tribute.cancelled": (
        "进贡家的对家有三个大王：免贡（本应 {cards} 张）",
        "the payer's partner holds three big jokers: no tribute (was {cards} cards)",
    ),
    "gunzi.s": ("抓分方得分 {s}", "capture team's points: {s}"),
    "gunzi.s_kou": (
        "抠底：抓分 {captured} + 底分 {bottom} × {m} = {s}",
        "last trick (抠底): captured {captured} + bottom {bottom} × {m} = {s}",
    ),
    "gunzi.jokers": (
        "底王：大王 {big} × 2 + 小王 {small} = {j}",
        "jokers in the bottom: {big} big × 2 + {small} small = {j}",
    ),
    "gunzi.gan_guo": (
        "干锅：底牌里的王（大王 {big}、小王 {small}）不追加升级，也不算进贡",
        "干锅: the bottom's jokers ({big} big, {small} small) add no levels and no tribute",
    ),
    "gunzi.special.zero": (
        "抓分方得 0 分：庄家方各 +{points}，抓分方各 −{points}，本盘结束",
        "nothing captured: declaring team +{points} each, capture team −{points} each; the game ends",
    ),
    "gunzi.special.all": (
        "抓分方得满 300 分：抓分方各 +{points}，庄家方各 −{points}，本盘结束",
        "the capture team has all 300: +{points} each, declaring team −{points} each; the game ends",
    ),
    "gunzi.special.three_big": (
        "抠出三个大王且得分 ≥ {threshold}：抓分方各 +{points}，庄家方各 −{points}，本盘结束",
        "three big jokers dug out with {threshold} or more: capture team +{points} each, "
        "declaring team −{points} each; the game ends",
    ),
    "gunzi.special.three_small": (
        "抠出三个小王（按三大王算）且得分 ≥ {threshold}：抓分方各 +{points}，庄家方各 −{points}，本局结束",
        "three small jokers (counted as big ones) dug out with {threshold} or more: capture team +{points} each, "
        "declaring team −{points} each; the game ends",
    ),
    "gunzi.special.three_big_kept": (
        "底牌三个大王、得分 < {threshold} 且保底：庄家方各 +{points}，抓分方各 −{points}，本局结束",
        "three big jokers kept in the bottom with under {threshold}: declaring team +{points} each, "
        "capture team −{points} each; the game ends",
    ),
    "gunzi.special.three_small_kept": (
        "底牌三个小王（按三大王算）、得分 < {threshold} 且保底：庄家方各 +{points}，抓分方各 −{points}，本局结束",
        "three small jokers (counted as big ones) kept in the bottom with under {threshold}: "
        "declaring team +{points} each, capture team −{points} each; the game ends",
    ),
    "gunzi.capture_up": (
        "得分 ≥ {threshold} 且抠底：抓分方上台，升 1 + {j} = {k} 级；各 {t} + {lp} × {k} = {score} 分",
        "{threshold} or more with 抠底: the capture team takes over and goes up 1 + {j} = {k}; "
        "{t} + {lp} × {k} = {score} each",
    ),
    "gunzi.switch": (
        "得分 ≥ {threshold}，未抠底：抓分方上台，不升级；各 {score} 分",
        "{threshold} or more without 抠底: the capture team takes over, no level; {score} each",
    ),
    "gunzi.declarer_up": (
        "得分 < {threshold}，保底：庄家方升 1 + {j} = {k} 级；各 {lp} × {k} = {score} 分",
        "under {threshold}, last trick kept (保底): declaring team up 1 + {j} = {k}; {lp} × {k} = {score} each",
    ),
    "gunzi.hold": (
        "得分 < {threshold} 但抠底（臭抠）：不升级，不计分，底王作废",
        "under {threshold} but the capture team won the last trick (臭抠): no level, no score, buried jokers void",
    ),
    "gunzi.win": ("{team}升过 {last}：出锅，本盘胜", "{team} goes past {last}: wins the game"),
    "gunzi.rounding.floor": ("向下取整", "rounded down"),
    "gunzi.rounding.ceil": ("向上取整", "rounded up"),
    "gunzi.next.none": ("下一副不进贡（得分 {s}，无底王）", "next tribute: none (points {s}, no jokers)"),
    "gunzi.next.short": (
        "下一副进贡：得分 {s} < {limit}，抓分方进贡 ({limit} − {s}) / 10 {rounding} = {base}，"
        "加底王 {j}，共 {cards} 张，{payer}付{payee}",
        "next tribute: {s} under {limit}, the capture team pays ({limit} − {s}) / 10 {rounding} = {base} + jokers {j} "
        "= {cards} cards, {payer} to {payee}",
    ),
    "gunzi.next.jokers_capture": (
        "下一副进贡：得分 {s}（{band}），抓分方进贡底王 {j} 张，{payer}付{payee}",
        "next tribute: {s} ({band}), the capture team pays the jokers, {cards} cards, {payer} to {payee}",
    ),
    "gunzi.next.jokers_declaring": (
        "下一副进贡：得分 {s}（{band}），庄家方进贡底王 {j} 张，{payer}付{payee}",
        "next tribute: {s} ({band}), the declaring team pays the jokers, {cards} cards, {payer} to {payee}",
    ),
    "gunzi.next.over": (
        "下一副进贡：得分 {s} > {limit}，庄家方进贡 ({s} − {limit}) / 10 {rounding} = {base}，"
        "加底王 {j}，共 {cards} 张，{payer}付{payee}",
        "next tribute: {s} over {limit}, the declaring team pays ({s} − {limit}) / 10 {rounding} = {base} + jokers {j} "
        "= {cards} cards, {payer} to {payee}",
    ),
}

GUNZI_FIELDS = frozenset(
    {"declarer", "captured", "bottom_points", "kou_di", "bottom_jokers", "gan_guo", "tribute", "redeal"}
)

GUNZI = Variant(
    key="gunzi",
    name={"zh-Hans": "打滚子（大连）", "en": "Gunzi (Dalian)"},
    unit="分",
    deck_points=DECK_POINTS,
    zero_sum=True,
    player_counts=frozenset({4}),
    hand_fields=GUNZI_FIELDS,
    has_levels=True,
    has_tribute=True,
    defaults=lambda players: GunziOptions(),
    presets={"大连": {}, "大连（75 分进贡 1 张）": {"tribute_rounding": "ceil"}},
    new_table=lambda options, players: GunziTable(options=options),
    option_texts="gunzi",
    rotation=ROTATION,
)
