"""济源红星五 (`hongxingwu`): a three-deck level-up game (升级) settled in levels (级).

Seats 0 + 2 play 1 + 3 for the whole session; each team has a level, `2` … `A`,
and the declaring team plays at its own. A hand is decided by `s`, the capture
team's trick points plus, when it won the last trick (抠底), the bottom's points
times the shape's multiplier. Below 120 the declaring team goes up a number of
levels from a table (0 points: 8 levels … 100–115: 1 level) and the declarer's
partner (对家) declares next; from 120 the capture team takes over (上台), with
one more level for every further 20 from 140, and the declarer's 下家 declares
next. A team wins the game when, declaring at `A`, it is promoted again
(A必打, the default), or as soon as a promotion would carry it past `A`.
Deltas are the levels each team actually moved; there is no money.

The declarer of a game's first hand is entered; later hands follow the
rotation (`free_declarer` lets a club enter anyone). The helpers for levels
and rotation are in `levels.py`, shared with `gunzi.py`.

>>> from .session import session_settle
>>> doc = {"variant": "hongxingwu", "players": ["甲", "乙", "丙", "丁"],
...        "hands": [{"declarer": 0, "captured": 60}]}
>>> hand = session_settle(doc)["hands"][0]
>>> hand["deltas"], hand["levels"], hand["next_declarer"]
([3, 0, 3, 0], ['5', '2', '5', '2'], 2)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from .base import (
    Context,
    Deltas,
    GameEnd,
    GameEndHow,
    HandInput,
    HandResult,
    HandStatus,
    Lang,
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
    Finish,
    LevelCarry,
    Stop,
    band_text,
    check_deck,
    check_ladder,
    level_redeal,
    levels_step,
    parse_ladder,
    promote,
    resolve_declarer,
    seat_levels,
    team_index,
    team_msg,
    team_seats,
)
from .options import OptionKind, OptionType, frozen_map, is_int, option, parse_bool, parse_choice, parse_enum

DECK_POINTS = 300  # three decks


# ---------------------------------------------------------------- options


class KouMultiplier(StrEnum):
    """What a `bottom_multiplier` may be (house rule, docs/rules/hongxingwu.md, Inputs)."""

    POWER = "power"  # 2^N: a power of two (seed 003)
    TIMES = "times"  # 2N: any even number


class Outcome(StrEnum):
    DECLARER_UP = "declarer_up"
    SWITCH = "switch"
    CAPTURE_UP = "capture_up"
    REDEAL = "redeal"


@dataclass(frozen=True, kw_only=True)
class Band:
    """Where `s` falls in the level table."""

    low: int
    high: int
    levels: int
    capture: bool  # True: the capture team takes over (上台)


@dataclass(frozen=True, kw_only=True)
class LevelTable:
    """`up`: (lowest s, levels) bands of the declaring team; from `switch` the capture team
    takes over and gains `capture_base + (s − switch) // step` levels."""

    up: tuple[tuple[int, int], ...]
    switch: int
    step: int
    capture_base: int = 0  # levels at `switch` itself (house rule: 1 = no dead zone)

    def band(self, s: int) -> Band:
        if s >= self.switch:
            steps = (s - self.switch) // self.step
            levels = self.capture_base + steps
            low = self.switch + steps * self.step
            return Band(low=low, high=low + self.step - 5, levels=levels, capture=True)
        for i, (low, levels) in enumerate(self.up):
            following = self.up[i + 1][0] if i + 1 < len(self.up) else self.switch
            if low <= s < following:
                return Band(low=low, high=following - 5, levels=levels, capture=False)
        raise AssertionError(f"no band for {s}")  # the table starts at 0 (checked when parsed)


DEFAULT_LEVEL_TABLE = LevelTable(
    up=((0, 8), (5, 6), (20, 5), (40, 4), (60, 3), (80, 2), (100, 1)),
    switch=120,
    step=20,
)

DEFAULT_KOU_SHAPES: Mapping[str, int] = frozen_map(
    single=2, pair=4, triple=8, tractor_3_pairs=8, tractor_4_pairs=16, tractor_2_triples=16
)


def _bad(field: str, expected: str) -> RulesError:
    return RulesError("option.invalid", field=field, expected=expected)


def _points_value(value: Any, field: str, low: int) -> int:
    if not is_int(value) or value < low or value % 5:
        raise _bad(field, f"integer ≥ {low}, a multiple of 5")
    return int(value)


def parse_level_table(value: Any, field: str) -> LevelTable:
    shape = '{"up": [[0, 8], …], "switch": 120, "step": 20}'
    if not isinstance(value, dict):
        raise _bad(field, shape)
    for key in value:
        if key not in ("up", "switch", "step", "capture_base"):
            raise _bad(f"{field}.{key}", "one of up, switch, step, capture_base")
    for key in ("up", "switch", "step"):
        if key not in value:
            raise _bad(f"{field}.{key}", "present")
    raw_up = value["up"]
    if not isinstance(raw_up, list) or not raw_up:
        raise _bad(f"{field}.up", "a non-empty list of [lowest s, levels] pairs")
    up: list[tuple[int, int]] = []
    for i, pair in enumerate(raw_up):
        where = f"{field}.up[{i}]"
        if not isinstance(pair, list) or len(pair) != 2:
            raise _bad(where, "[lowest s, levels]")
        low = _points_value(pair[0], f"{where}[0]", 0)
        if not is_int(pair[1]) or pair[1] < 1:
            raise _bad(f"{where}[1]", "integer ≥ 1")
        if i == 0 and low != 0:
            raise _bad(f"{where}[0]", "0 (the first band starts at 0)")
        if up and low <= up[-1][0]:
            raise _bad(f"{where}[0]", f"more than {up[-1][0]}")
        up.append((low, int(pair[1])))
    switch = _points_value(value["switch"], f"{field}.switch", 5)
    if switch <= up[-1][0]:
        raise _bad(f"{field}.switch", f"more than {up[-1][0]}, the last band's lowest s")
    step = _points_value(value["step"], f"{field}.step", 5)
    capture_base = value.get("capture_base", 0)
    if not is_int(capture_base) or not 0 <= capture_base <= 100:
        raise _bad(f"{field}.capture_base", "integer 0–100")
    return LevelTable(up=tuple(up), switch=switch, step=step, capture_base=capture_base)


def dump_level_table(table: LevelTable) -> dict[str, Any]:
    dumped: dict[str, Any] = {
        "up": [[low, levels] for low, levels in table.up],
        "switch": table.switch,
        "step": table.step,
    }
    if table.capture_base:  # left out at its default, so existing documents dump as they did
        dumped["capture_base"] = table.capture_base
    return dumped


def parse_kou_shapes(value: Any, field: str) -> Mapping[str, int]:
    if not isinstance(value, dict) or not value:
        raise _bad(field, 'object from shape to multiplier, e.g. {"single": 2, "pair": 4}')
    shapes: dict[str, int] = {}
    for key, multiplier in value.items():
        if not key.strip():
            raise _bad(field, "shape names must be non-empty")
        # A power of two by default; under kou_multiplier "times" any even number (checked with the options).
        if not is_int(multiplier) or multiplier < 2 or multiplier % 2:
            raise _bad(f"{field}.{key}", "a power of two ≥ 2")
        shapes[key] = multiplier
    return frozen_map(shapes)


@dataclass(frozen=True, kw_only=True)
class HongxingwuOptions:
    level_table: LevelTable = option(
        DEFAULT_LEVEL_TABLE,
        "levels by s: `up` = [lowest s, levels] of the declaring team; from `switch` the capture team takes over, "
        "+1 level per `step`",
        OptionType(kind=OptionKind.LEVEL_TABLE, parse=parse_level_table),
        dump_level_table,
    )
    kou_shapes: Mapping[str, int] = option(
        DEFAULT_KOU_SHAPES,
        "抠底 multiplier by the shape that won the last trick (offered on the entry screen)",
        OptionType(kind=OptionKind.SHAPE_TABLE, parse=parse_kou_shapes, minimum=2),
    )
    finish: Finish = option(
        Finish.MUST_PLAY_ACE,
        '"must_play_ace": win by a promotion while declaring at A (A必打); "pass_ace": by any promotion past A',
        parse_enum(Finish),
    )
    start_level: str = option(
        "2",
        "both teams' level at the start of a game; one not given is the ladder's first level",
        parse_choice(LEVELS),
    )
    free_declarer: bool = option(False, "accept an entered declarer that differs from the rotation", parse_bool)
    # House rules from real tables (docs/rules/hongxingwu.md), read as in docs/rules/shengji.md.
    ladder: tuple[str, ...] = option(LEVELS, "the levels a team climbs, first to last", parse_ladder)
    must_defend: tuple[str, ...] = option(
        (), "必打关卡: levels only the declaring team's first step of a promotion leaves", parse_ladder
    )
    no_skip: tuple[str, ...] = option((), "levels no promotion jumps (不许越级): it stops on them", parse_ladder)
    kou_multiplier: KouMultiplier = option(
        KouMultiplier.POWER,
        'bottom_multiplier: "power" a power of two (2^N), "times" any even number (2N)',
        parse_enum(KouMultiplier),
    )

    def derive(self, *, given: frozenset[str]) -> HongxingwuOptions:
        """hongxingwu.md: `start_level` defaults to the first level of `ladder`; a given one is kept (and checked)."""
        if "start_level" in given or not self.ladder:
            return self
        return replace(self, start_level=self.ladder[0])

    def check(self) -> None:
        check_ladder(
            self.ladder,
            (("must_defend", self.must_defend), ("no_skip", self.no_skip)),
            extra=(("start_level", self.start_level),),
        )
        if self.kou_multiplier is KouMultiplier.POWER:
            for shape, multiplier in self.kou_shapes.items():
                if multiplier & (multiplier - 1):
                    raise _bad(f"options.kou_shapes.{shape}", "a power of two ≥ 2")


def kou_shape_entries(options: HongxingwuOptions, lang: str = Lang.ZH) -> list[dict[str, Any]]:
    """The shapes the entry screen offers for 抠底, lowest multiplier first: shape, label, multiplier."""
    # Imported here: the message table imports this module.
    from .messages import render

    entries = sorted(options.kou_shapes.items(), key=lambda item: (item[1], item[0]))
    return [
        {
            "shape": shape,
            "label": render(Msg(key=f"hxw.shape.{shape}"), lang) if f"hxw.shape.{shape}" in MESSAGES else shape,
            "multiplier": multiplier,
        }
        for shape, multiplier in entries
    ]


# ---------------------------------------------------------------- the table


def _points(hand: HandInput, tags: list[str], steps: list[Msg]) -> int:
    """`s` = captured + (bottom × bottom_multiplier on 抠底)."""
    assert hand.captured is not None
    captured, bottom = hand.captured, hand.bottom_points
    if not hand.kou_di:
        steps.append(Msg(key="hxw.s", params={"s": captured}))
        return captured
    assert hand.bottom_multiplier is not None
    s = captured + bottom * hand.bottom_multiplier
    tags.append("抠底")
    params = {"captured": captured, "bottom": bottom, "m": hand.bottom_multiplier, "s": s}
    steps.append(Msg(key="hxw.s_kou", params=params))
    return s


@dataclass(kw_only=True)
class HongxingwuTable(LevelCarry):
    options: HongxingwuOptions
    levels: tuple[int, int] = (0, 0)
    pending: Seat | None = None  # the rotation's next declarer; None on a game's first hand

    def __post_init__(self) -> None:
        self._new_game()

    def _new_game(self) -> None:
        start = self.options.ladder.index(self.options.start_level)
        self.levels = (start, start)
        self.pending = None

    def play(self, hand: HandInput, ctx: Context) -> HandResult:
        """One hand, as the rule file's steps: `s`, its band in the level table, the promotion, the next
        declarer."""
        if ctx.hand_in_game == 1:
            self._new_game()
        if hand.redeal is not None:
            return level_redeal(hand, self.pending, self.levels, Outcome.REDEAL, self.options.ladder)
        o = self.options
        steps: list[Msg] = []
        declarer = resolve_declarer(hand, self.pending, o.free_declarer, steps)
        hand.require("captured")
        self._check_multiplier(hand)
        check_deck(hand, DECK_POINTS)
        tags: list[str] = []
        s = _points(hand, tags, steps)
        declaring = team_index(declarer)
        outcome, promoted, k = self._band(s, declaring, tags, steps)
        deltas: Deltas = (0, 0, 0, 0)
        game_end: GameEnd | None = None
        if promoted is not None:
            moved, won = self._promote(promoted, k, promoted == declaring, steps, tags)
            deltas = team_deltas(promoted, moved, 0)
            if won:
                tags.append("胜")
                game_end = GameEnd(winners=team_seats(promoted), how=GameEndHow.LEVELS)
        steps.append(levels_step(self.levels, o.ladder))
        next_declarer = self._next_declarer(declarer, outcome, game_end, steps)
        return HandResult(
            status=HandStatus.SCORED,
            dealer=declarer,
            declarer=declarer,
            outcome=outcome,
            tags=tuple(tags),
            declarer_won=outcome is Outcome.DECLARER_UP,
            deltas=deltas,
            steps=tuple(steps),
            next_dealer=next_declarer,
            levels=seat_levels(self.levels, o.ladder),
            game_end=game_end,
        )

    def _check_multiplier(self, hand: HandInput) -> None:
        """A `bottom_multiplier` goes with 抠底 and only then, even (×) or a power of two (power) by the option."""
        if hand.kou_di and "bottom_multiplier" not in hand.present:
            raise hand.error("multiplier.required", "bottom_multiplier")
        if not hand.kou_di and "bottom_multiplier" in hand.present:
            raise hand.error("multiplier.without_kou_di", "bottom_multiplier")
        m = hand.bottom_multiplier
        if m is not None:
            if self.options.kou_multiplier is KouMultiplier.TIMES and m % 2:
                raise hand.error("multiplier.not_even", "bottom_multiplier")
            if self.options.kou_multiplier is KouMultiplier.POWER and m & (m - 1):
                raise hand.error("multiplier.not_power_of_two", "bottom_multiplier")

    def _band(self, s: int, declaring: int, tags: list[str], steps: list[Msg]) -> tuple[Outcome, int | None, int]:
        """The level table's band for `s`: the declaring team up, 上台, or 上台 and up. Returns the outcome, the
        team promoted (None: nobody) and its levels."""
        band = self.options.level_table.band(s)
        text = band_text(band.low, band.high)
        if not band.capture:
            tags.append("升级")
            steps.append(Msg(key="hxw.declarer_up", params={"band": text, "k": band.levels}))
            return Outcome.DECLARER_UP, declaring, band.levels
        tags.append("上台")
        if band.levels == 0:
            steps.append(Msg(key="hxw.switch", params={"band": text}))
            return Outcome.SWITCH, None, 0
        steps.append(Msg(key="hxw.capture_up", params={"band": text, "k": band.levels}))
        return Outcome.CAPTURE_UP, 1 - declaring, band.levels

    def _next_declarer(
        self, declarer: Seat, outcome: Outcome, game_end: GameEnd | None, steps: list[Msg]
    ) -> Seat | None:
        """Declaring team promoted: the declarer's 对家; capture team takes over: his 下家. None: game over."""
        if game_end is not None:
            self.pending = None
            return None
        up = outcome is Outcome.DECLARER_UP
        next_declarer = ROTATION.after_scored(dealer=declarer, declarer=declarer, won=up, players=4)
        key = "next.partner" if up else "next.left"
        steps.append(Msg(key=key, params={"seat": SeatName(next_declarer)}))
        self.pending = next_declarer
        return next_declarer

    def _promote(self, team: int, k: int, declaring: bool, steps: list[Msg], tags: list[str]) -> tuple[int, bool]:
        """Move `team` up `k` levels (levels.promote); (levels actually moved, whether it wins the game)."""
        o = self.options
        old = self.levels[team]
        p = promote(
            old,
            k,
            declaring=declaring,
            last=len(o.ladder) - 1,
            finish=o.finish,
            must_defend=[o.ladder.index(name) for name in o.must_defend],
            no_skip=[o.ladder.index(name) for name in o.no_skip],
        )
        if p.won:
            key = "hxw.win_ace" if o.finish is Finish.MUST_PLAY_ACE else "hxw.win_pass"
            steps.append(Msg(key=key, params={"team": team_msg(team)}))
        elif p.stop is Stop.LAST:
            if old == p.end:
                steps.append(Msg(key="hxw.stay_ace", params={"team": team_msg(team)}))
            else:
                steps.append(Msg(key="hxw.stop_ace", params={"team": team_msg(team), "moved": p.moved}))
        elif p.stop is not None:
            tags.append("卡关")
            params = {"team": team_msg(team), "level": o.ladder[p.end], "moved": p.moved}
            steps.append(Msg(key=f"levels.stop.{p.stop}", params=params))
        levels = list(self.levels)
        levels[team] = p.end
        self.levels = (levels[0], levels[1])
        return p.moved, p.won


MESSAGES: Mapping[str, tuple[str, str]] = {
    # shared with gunzi
    "error.declarer.rotation": (
        "轮庄应由{expected}坐庄，填的是{entered}（可在选项里开启自由坐庄）",
        "by rotation the declarer is {expected}, not {entered} (the free declarer option allows it)",
    ),
    "error.declarer.first_hand": ("一盘的第一副牌必须填庄家", "a game's first hand must name its declarer"),
    "declarer.free": (
        "自由坐庄：{seat}（轮庄应为{expected}）",
        "free declarer: {seat} (rotation: {expected})",
    ),
    "levels.now": ("级别：{team_a} {a}，{team_b} {b}", "levels: {team_a} {a}, {team_b} {b}"),
    "next.partner": ("下一副由庄家的对家{seat}坐庄", "next declarer: the declarer's partner (对家), {seat}"),
    "next.left": ("下一副由庄家的下家{seat}坐庄", "next declarer: the declarer's 下家, {seat}"),
    "levels.stop.must_defend": (
        "{team}卡在必打关卡 {level}，实升 {moved} 级",
        "{team} is held at {level}, a level it must defend (卡关): up {moved}",
    ),
    "levels.stop.no_skip": (
        "{team}逢 {level} 不许越级，停在 {level}，实升 {moved} 级",
        "{team} may not skip {level} and stops there: up {moved}",
    ),
    "error.multiplier.not_even": ("倍数应为不小于 2 的偶数", "must be an even number ≥ 2"),
    # 红星五
    "error.multiplier.required": ("抠底时必须填底分倍数", "a bottom multiplier is required with kou_di"),
    "error.multiplier.without_kou_di": ("没有抠底就不能填底分倍数", "a bottom multiplier needs kou_di"),
    "hxw.s": ("抓分方得分 {s}", "capture team's points: {s}"),
    "hxw.s_kou": (
        "抠底：抓分 {captured} + 底分 {bottom} × {m} = {s}",
        "last trick (抠底): captured {captured} + bottom {bottom} × {m} = {s}",
    ),
    "hxw.declarer_up": ("得分 {band}：庄家方升 {k} 级", "points {band}: declaring team up {k}"),
    "hxw.switch": ("得分 {band}：抓分方上台，不升级", "points {band}: the capture team takes over (上台), no level"),
    "hxw.capture_up": (
        "得分 {band}：抓分方上台并升 {k} 级",
        "points {band}: the capture team takes over and goes up {k}",
    ),
    "hxw.stop_ace": ("{team}升到 A 为止，实升 {moved} 级", "{team} stops at A: up {moved}"),
    "hxw.stay_ace": ("{team}已到 A，上台后仍打 A", "{team} is at A already and stays at A"),
    "hxw.win_ace": ("{team}打 A 过关（A必打）：本盘胜", "{team} promoted while declaring at A (A必打): wins the game"),
    "hxw.win_pass": ("{team}升过 A：本盘胜", "{team} goes past A: wins the game"),
    "hxw.shape.single": ("单抠", "single"),
    "hxw.shape.pair": ("对子抠", "pair"),
    "hxw.shape.triple": ("三头抠", "triple"),
    "hxw.shape.tractor_3_pairs": ("三连对抠", "three-pair tractor"),
    "hxw.shape.tractor_4_pairs": ("四连对抠", "four-pair tractor"),
    "hxw.shape.tractor_2_triples": ("连三头抠", "two-triple tractor"),
}

HONGXINGWU_FIELDS = frozenset({"declarer", "captured", "bottom_points", "kou_di", "bottom_multiplier", "redeal"})

HONGXINGWU = Variant(
    key="hongxingwu",
    name={"zh-Hans": "济源红星五", "en": "Hongxingwu (Jiyuan)"},
    unit="级",
    deck_points=DECK_POINTS,
    zero_sum=False,
    player_counts=frozenset({4}),
    hand_fields=HONGXINGWU_FIELDS,
    has_levels=True,
    defaults=lambda players: HongxingwuOptions(),
    presets={"济源": {}, "济源（打过 A 即胜）": {"finish": "pass_ace"}},
    new_table=lambda options, players: HongxingwuTable(options=options),
    option_texts="hxw",
    rotation=ROTATION,
)
