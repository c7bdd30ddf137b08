"""升级 / 80分 / 拖拉机 (`shengji`): the level-up game in fixed partnerships, settled in levels (级).

Four players (seats 0 + 2 against 1 + 3) or six (0 + 2 + 4 against 1 + 3 + 5)
play with 2–4 decks of 100 points each. Each team climbs a ladder of levels
(`2` … `A` by default) and the declaring team (庄家方) plays at its own. A hand
is decided by `s`: the capture team's (抓分方) trick points, plus the bottom
(底牌) times a multiplier when it won the last trick (抠底), plus or minus a
penalty per failed throw (甩牌). Below the threshold `T` (80 with two decks)
the declaring team goes up ⌈(T − s) / step⌉ levels (光头, nothing captured,
one more) and its next seat declares; from `T` the capture team takes over
(上台), with a level per further `step` past a dead zone, and the declarer's
下家 declares. A promotion climbs one level at a time and stops at a level a
team must defend (必打关卡) or may not skip (不许越级); a team wins the game by
a promotion from the last level (A必打: only while declaring there).
Winning the last trick with a single J against a team at J (勾J) sends that
team back to the first level. Deltas are the levels each team moved.

The rule in full is docs/rules/shengji.md; the
promotion steps and the rotation helpers are in `levels.py`, shared with
红星五 and 打滚子.

>>> from .session import session_settle
>>> doc = {"variant": "shengji", "players": ["甲", "乙", "丙", "丁"],
...        "hands": [{"declarer": 0, "captured": 35}, {"captured": 100}]}
>>> [(str(h["outcome"]), h["deltas"], h["levels"], h["next_declarer"]) for h in session_settle(doc)["hands"]]
[('declarer_up', [2, 0, 2, 0], ['4', '2', '4', '2'], 2), ('switch', [0, 0, 0, 0], ['4', '2', '4', '2'], 3)]
"""

from __future__ import annotations

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
    RedealReason,
    RulesError,
    Seat,
    SeatName,
    Variant,
    signed,
)
from .levels import (
    LEVELS,
    ROTATION,
    Finish,
    LevelCarry,
    Promotion,
    Stop,
    check_deck,
    check_ladder,
    level_deltas,
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
from .options import OPTION_LIMIT, option, parse_bool, parse_enum, parse_int

DECK_POINTS = 100  # per deck: 5s, 10s and Ks
DECK_CARDS = 54


class KouMultiplier(StrEnum):
    TIMES = "times"  # 2N
    POWER = "power"  # 2^N
    FLAT = "flat"  # 2, whatever the last trick


class KouCount(StrEnum):
    CARDS = "cards"  # cards each player played to the last trick
    LARGEST_UNIT = "largest_unit"  # cards in the led play's largest unit


class Outcome(StrEnum):
    DECLARER_UP = "declarer_up"
    SWITCH = "switch"
    CAPTURE_UP = "capture_up"
    REDEAL = "redeal"


# ---------------------------------------------------------------- the score table


def score_levels(s: int, *, threshold: int, step: int, dead_zone: int) -> tuple[bool, int]:
    """(the capture team takes over, levels) for `s` (docs/rules/shengji.md, One hand).

    >>> [score_levels(s, threshold=80, step=40, dead_zone=1) for s in (0, 5, 40, 75, 80, 120, -40)]
    [(False, 3), (False, 2), (False, 1), (False, 1), (True, 0), (True, 1), (False, 4)]
    >>> score_levels(80, threshold=80, step=40, dead_zone=0)
    (True, 1)
    """
    if s <= 0:
        return False, -(-(threshold - 5) // step) + 1 + (-s) // step
    if s < threshold:
        return False, -(-(threshold - s) // step)
    return True, max(0, (s - threshold) // step - dead_zone + 1)


# ---------------------------------------------------------------- options


# threshold / step: null derives them from `decks` (40 × / 20 × decks).
_POINTS_OR_NULL = parse_int(low=5, high=OPTION_LIMIT, step=5, nullable=True)


@dataclass(frozen=True, kw_only=True)
class ShengjiOptions:
    decks: int = option(2, "decks in play, 100 points each (2 with 4 players, 3 with 6)", parse_int(low=2, high=4))
    threshold: int | None = option(
        None, "capture team's points that take over (上台); null: 40 × decks", _POINTS_OR_NULL
    )
    step: int | None = option(None, "points per level in the score table; null: 20 × decks", _POINTS_OR_NULL)
    dead_zone: int = option(
        1, "steps of `step` from the threshold that take over with no level (0: none)", parse_int(low=0, high=100)
    )
    kou_multiplier: KouMultiplier = option(
        KouMultiplier.TIMES,
        '抠底 multiplier of the bottom: "times" 2N, "power" 2^N, "flat" 2',
        parse_enum(KouMultiplier),
    )
    kou_count: KouCount = option(
        KouCount.CARDS,
        'N: "cards" each player played to the last trick, or "largest_unit" of the led play',
        parse_enum(KouCount),
    )
    shuai_penalty: int = option(
        0,
        "points per failed throw (甩牌), for the capture team when a declaring seat fails, against it otherwise",
        parse_int(low=0, high=1000, step=5),
    )
    ladder: tuple[str, ...] = option(LEVELS, "the levels a team climbs, first to last", parse_ladder)
    must_defend: tuple[str, ...] = option(
        (), "必打关卡: levels only the declaring team's first step of a promotion leaves", parse_ladder
    )
    no_skip: tuple[str, ...] = option((), "levels no promotion jumps (不许越级): it stops on them", parse_ladder)
    finish: Finish = option(
        Finish.MUST_PLAY_ACE,
        '"must_play_ace": win by a promotion while declaring at the last level (A必打); "pass_ace": by any',
        parse_enum(Finish),
    )
    jack_back_to_two: bool = option(
        False, "勾J: the last trick won with a single J sends a declaring team at J to the first level", parse_bool
    )
    free_declarer: bool = option(False, "accept an entered declarer that differs from the rotation", parse_bool)

    @property
    def deck_points(self) -> int:
        """The point cards of the decks in play: `captured` plus the bottom fit in it."""
        return DECK_POINTS * self.decks

    @property
    def points_threshold(self) -> int:
        return self.threshold if self.threshold is not None else 40 * self.decks

    @property
    def points_step(self) -> int:
        return self.step if self.step is not None else 20 * self.decks

    def check(self) -> None:
        t, d = self.points_threshold, self.points_step
        if t % d:
            raise RulesError(
                "options.inconsistent",
                field="options.threshold",
                detail=Msg(key="shengji.threshold_step", params={"threshold": t, "step": d}),
            )
        if t > self.deck_points:
            raise RulesError(
                "options.inconsistent",
                field="options.threshold",
                detail=Msg(
                    key="shengji.threshold_deck",
                    params={"threshold": t, "points": DECK_POINTS * self.decks, "decks": self.decks},
                ),
            )
        check_ladder(self.ladder, (("must_defend", self.must_defend), ("no_skip", self.no_skip)))


# ---------------------------------------------------------------- the table


@dataclass(kw_only=True)
class ShengjiTable(LevelCarry):
    options: ShengjiOptions
    players: int
    levels: tuple[int, int] = (0, 0)
    pending: Seat | None = None  # the rotation's next declarer; None on a game's first hand

    def _new_game(self) -> None:
        self.levels = (0, 0)
        self.pending = None

    def play(self, hand: HandInput, ctx: Context) -> HandResult:
        """One hand, as the rule file's steps: `s` (the bottom, failed throws), the score table, 勾J and the
        promotion, the next declarer."""
        o = self.options
        if ctx.hand_in_game == 1:
            self._new_game()
        if hand.redeal is not None:
            if "penalties" in hand.present:
                raise hand.error("field.not_on_redeal", "penalties")
            return level_redeal(hand, self.pending, self.levels, Outcome.REDEAL, o.ladder, self.players)
        steps: list[Msg] = []
        declarer = resolve_declarer(hand, self.pending, o.free_declarer, steps)
        hand.require("captured")
        check_deck(hand, o.deck_points)
        declaring = team_index(declarer)
        multiplier = self._multiplier(hand, steps)
        failed = self._failed_throws(hand, declaring)
        self._check_jack(hand, declaring)
        tags: list[str] = []
        s = self._points(hand, multiplier, failed, tags, steps)
        outcome, promoted, k = self._score_table(s, declaring, tags, steps)
        moved, game_end = self._move_levels(hand, declaring, promoted, k, tags, steps)
        steps.append(levels_step(self.levels, o.ladder, self.players))
        next_declarer = self._next_declarer(declarer, outcome, game_end, steps)
        return HandResult(
            status=HandStatus.SCORED,
            dealer=declarer,
            declarer=declarer,
            outcome=outcome,
            tags=tuple(tags),
            declarer_won=outcome is Outcome.DECLARER_UP,
            deltas=level_deltas(0, moved[0], self.players, moved[1]),
            steps=tuple(steps),
            next_dealer=next_declarer,
            levels=seat_levels(self.levels, o.ladder, self.players),
            game_end=game_end,
        )

    def _check_jack(self, hand: HandInput, declaring: int) -> None:
        """勾J is allowed only with `jack_back_to_two`, and only while the declaring team is at J."""
        if not hand.jack_kou:
            return
        o = self.options
        if not o.jack_back_to_two:
            raise hand.error("jack.not_enabled", "jack_kou")
        if o.ladder[self.levels[declaring]] != "J":
            raise hand.error("jack.not_at_jack", "jack_kou", level=o.ladder[self.levels[declaring]])

    def _points(
        self, hand: HandInput, multiplier: int, failed: tuple[int, int], tags: list[str], steps: list[Msg]
    ) -> int:
        """`s`: the captured points, the bottom × the multiplier on 抠底, and the failed throws' penalty."""
        assert hand.captured is not None
        s = hand.captured
        if hand.kou_di:
            s += hand.bottom_points * multiplier
            tags.append("抠底")
            params: dict[str, Any] = {"captured": hand.captured, "bottom": hand.bottom_points, "m": multiplier, "s": s}
            steps.append(Msg(key="sj.s_kou", params=params))
        else:
            steps.append(Msg(key="sj.s", params={"s": s}))
        if hand.penalties:
            penalty = self.options.shuai_penalty * (failed[0] - failed[1])
            s += penalty
            tags.append("甩牌")
            each = self.options.shuai_penalty
            shuai = {"declaring": failed[0], "capture": failed[1], "each": each, "p": signed(penalty)}
            steps.append(Msg(key="sj.shuai", params={**shuai, "s": s}))
        return s

    def _score_table(
        self, s: int, declaring: int, tags: list[str], steps: list[Msg]
    ) -> tuple[Outcome, int | None, int]:
        """The score table: the declaring team goes up, the capture team takes over, or it takes over and goes up
        `k` levels. Returns the outcome, the team promoted (None: nobody) and `k`."""
        o = self.options
        t, d, z = o.points_threshold, o.points_step, o.dead_zone
        capture, k = score_levels(s, threshold=t, step=d, dead_zone=z)
        figures = {"s": s, "t": t, "d": d, "z": z, "k": k, "neg": -s}
        if not capture:
            if s <= 0:
                tags.append("光头")
            steps.append(Msg(key="sj.zero" if s <= 0 else "sj.declarer_up", params=figures))
            return Outcome.DECLARER_UP, declaring, k
        if k == 0:
            steps.append(Msg(key="sj.switch", params=figures))
            return Outcome.SWITCH, None, k
        steps.append(Msg(key="sj.capture_up", params=figures))
        return Outcome.CAPTURE_UP, 1 - declaring, k

    def _move_levels(
        self, hand: HandInput, declaring: int, promoted: int | None, k: int, tags: list[str], steps: list[Msg]
    ) -> tuple[list[int], GameEnd | None]:
        """勾J first, then the promotion: each team's levels moved, and the game's end when a team wins."""
        o = self.options
        moved = [0, 0]
        if hand.jack_kou:
            moved[declaring] = -self.levels[declaring]
            self._set(declaring, 0)
            tags.append("勾J")
            steps.append(Msg(key="sj.jack", params={"team": team_msg(declaring, self.players), "first": o.ladder[0]}))
        if promoted is None:
            return moved, None
        promotion = promote(
            self.levels[promoted],
            k,
            declaring=promoted == declaring,
            last=len(o.ladder) - 1,
            finish=o.finish,
            must_defend=[o.ladder.index(name) for name in o.must_defend],
            no_skip=[o.ladder.index(name) for name in o.no_skip],
        )
        moved[promoted] += promotion.moved
        self._set(promoted, promotion.end)
        self._promotion_steps(promoted, promotion, steps, tags)
        if not promotion.won:
            return moved, None
        return moved, GameEnd(winners=team_seats(promoted, self.players), how=GameEndHow.LEVELS)

    def _next_declarer(
        self, declarer: Seat, outcome: Outcome, game_end: GameEnd | None, steps: list[Msg]
    ) -> Seat | None:
        """The declaring team goes up: the declarer's partner (with 6, the team's next) declares; the capture
        team takes over: the declarer's 下家. None when the game is over."""
        if game_end is not None:
            self.pending = None
            return None
        up = outcome is Outcome.DECLARER_UP
        next_declarer = ROTATION.after_scored(dealer=declarer, declarer=declarer, won=up, players=self.players)
        key = ("next.partner" if self.players == 4 else "sj.next.team") if up else "next.left"
        steps.append(Msg(key=key, params={"seat": SeatName(next_declarer)}))
        self.pending = next_declarer
        return next_declarer

    def _set(self, team: int, level: int) -> None:
        levels = list(self.levels)
        levels[team] = level
        self.levels = (levels[0], levels[1])

    def _multiplier(self, hand: HandInput, steps: list[Msg]) -> int:
        """Check the 抠底 fields; the bottom multiplier `m` (2 when not 抠底: it is not used then)."""
        o = self.options
        if not hand.kou_di:
            for name in ("kou_cards", "kou_unit"):
                if name in hand.present:
                    raise hand.error("kou.without_kou_di", name)
            if hand.jack_kou:
                raise hand.error("kou.without_kou_di", "jack_kou")
            return 2
        if "kou_cards" not in hand.present and (
            o.kou_multiplier is not KouMultiplier.FLAT or "kou_unit" in hand.present
        ):
            raise hand.error("kou.cards_required", "kou_cards")
        most = DECK_CARDS * o.decks // self.players
        if hand.kou_cards is not None and not 1 <= hand.kou_cards <= most:
            raise hand.error("kou.cards_out_of_range", "kou_cards", value=hand.kou_cards, low=1, high=most)
        if hand.kou_unit is not None:
            assert hand.kou_cards is not None
            if not 1 <= hand.kou_unit <= hand.kou_cards:
                raise hand.error("kou.cards_out_of_range", "kou_unit", value=hand.kou_unit, low=1, high=hand.kou_cards)
        if o.kou_multiplier is KouMultiplier.FLAT:
            steps.append(Msg(key="sj.m.flat"))
            return 2
        assert hand.kou_cards is not None
        n = hand.kou_cards
        if o.kou_count is KouCount.LARGEST_UNIT and hand.kou_unit is not None:
            n = hand.kou_unit
        what = Msg(key=f"sj.n.{o.kou_count}", params={"n": n})
        if o.kou_multiplier is KouMultiplier.TIMES:
            steps.append(Msg(key="sj.m.times", params={"what": what, "n": n, "m": 2 * n}))
            return 2 * n
        steps.append(Msg(key="sj.m.power", params={"what": what, "n": n, "m": 2**n}))
        return int(2**n)

    def _failed_throws(self, hand: HandInput, declaring: int) -> tuple[int, int]:
        """Failed throws (甩牌) by (declaring-team seats, capture-team seats)."""
        counts = [0, 0]
        for i, penalty in enumerate(hand.penalties):
            if penalty.kind != "shuai":
                raise hand.error("penalty.kind", f"penalties[{i}].kind", kind=penalty.kind)
            counts[0 if team_index(penalty.seat) == declaring else 1] += 1
        return counts[0], counts[1]

    def _promotion_steps(self, team: int, promotion: Promotion, steps: list[Msg], tags: list[str]) -> None:
        ladder = self.options.ladder
        params = {"team": team_msg(team, self.players), "level": ladder[promotion.end], "moved": promotion.moved}
        if promotion.won:
            tags.append("胜")
            steps.append(Msg(key=f"sj.win.{self.options.finish}", params=params))
        elif promotion.stop is not None:
            tags.append("卡关")
            key = "sj.stop.last" if promotion.stop is Stop.LAST else f"levels.stop.{promotion.stop}"
            steps.append(Msg(key=key, params=params))


MESSAGES: Mapping[str, tuple[str, str]] = {
    "shengji.threshold_step": (
        "上台线 {threshold} 应是每级分 {step} 的倍数",
        "threshold {threshold} must be a multiple of step {step}",
    ),
    "shengji.threshold_deck": (
        "上台线 {threshold} 超过 {decks} 副牌的 {points} 分",
        "threshold {threshold} is more than the {points} points of {decks} decks",
    ),
    "error.kou.cards_required": (
        "抠底时必须填最后一墩每人出的张数 kou_cards",
        "kou_di needs kou_cards, the cards each player played to the last trick",
    ),
    "error.kou.without_kou_di": ("没有抠底就不能填此项", "needs kou_di"),
    "error.kou.cards_out_of_range": ("张数 {value} 应为 {low}–{high}", "{value} cards: must be {low}–{high}"),
    "error.penalty.kind": (
        "升级只记甩牌失败（shuai），不是 {kind}",
        "升级 records failed throws (shuai) only, not {kind}",
    ),
    "error.jack.not_enabled": ("没有开启勾J（jack_back_to_two）", "勾J needs option jack_back_to_two"),
    "error.jack.not_at_jack": (
        "勾J 只在庄家方打 J 时成立（现在打 {level}）",
        "勾J needs the declaring team at J (it plays {level})",
    ),
    "sj.s": ("抓分方得分 {s}（底牌不计）", "capture team's points: {s} (the bottom counts for nobody)"),
    "sj.s_kou": (
        "抠底：抓分 {captured} + 底分 {bottom} × {m} = {s}",
        "last trick (抠底): captured {captured} + bottom {bottom} × {m} = {s}",
    ),
    "sj.n.cards": ("最后一墩每人 {n} 张", "{n} cards each in the last trick"),
    "sj.n.largest_unit": ("最大牌型 {n} 张", "largest unit {n} cards"),
    "sj.m.times": ("底分倍数：{what}，2 × {n} = {m}", "bottom multiplier: {what}, 2 × {n} = {m}"),
    "sj.m.power": ("底分倍数：{what}，2^{n} = {m}", "bottom multiplier: {what}, 2^{n} = {m}"),
    "sj.m.flat": ("底分倍数：一律 × 2", "bottom multiplier: always × 2"),
    "sj.shuai": (
        "甩牌失败：庄家方 {declaring} 次、抓分方 {capture} 次，每次 {each} 分，{p} → {s}",
        "failed throws: declaring team {declaring}, capture team {capture}, {each} each: {p} → {s}",
    ),
    "sj.zero": (
        "得分 {s} ≤ 0（光头）：庄家方升 ⌈({t} − 5) / {d}⌉ + 1 + ⌊{neg} / {d}⌋ = {k} 级",
        "points {s} ≤ 0 (光头): declaring team up ⌈({t} − 5) / {d}⌉ + 1 + ⌊{neg} / {d}⌋ = {k}",
    ),
    "sj.declarer_up": (
        "得分 {s} < {t}：庄家方升 ⌈({t} − {s}) / {d}⌉ = {k} 级",
        "points {s} < {t}: declaring team up ⌈({t} − {s}) / {d}⌉ = {k}",
    ),
    "sj.switch": (
        "得分 {s} ≥ {t}：抓分方上台，不升级",
        "points {s} ≥ {t}: the capture team takes over (上台), no level",
    ),
    "sj.capture_up": (
        "得分 {s} ≥ {t}：抓分方上台并升 ⌊({s} − {t}) / {d}⌋ − {z} + 1 = {k} 级",
        "points {s} ≥ {t}: the capture team takes over and goes up ⌊({s} − {t}) / {d}⌋ − {z} + 1 = {k}",
    ),
    "sj.jack": ("勾J：{team}从 J 回到 {first}", "勾J: {team} goes back from J to {first}"),
    "sj.stop.last": (
        "{team}停在 {level}（A必打：须坐庄打过），实升 {moved} 级",
        "{team} stops at {level} (it must win it as declarers): up {moved}",
    ),
    "sj.win.must_play_ace": (
        "{team}坐庄打 {level} 过关（A必打）：本局胜",
        "{team} promoted while declaring at {level} (A必打): wins the game",
    ),
    "sj.win.pass_ace": ("{team}从 {level} 再升：本局胜", "{team} is promoted from {level}: wins the game"),
    "sj.next.team": (
        "下一副由庄家方的下一位{seat}坐庄",
        "next declarer: the declaring team's next seat, {seat}",
    ),
}

SHENGJI_FIELDS = frozenset(
    {"declarer", "captured", "bottom_points", "kou_di", "kou_cards", "kou_unit", "jack_kou", "penalties", "redeal"}
)

HONG5_LADDER = ["2", "4", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]

PRESETS: Mapping[str, Mapping[str, Any]] = {
    "拖拉机": {},
    "上海80分": {"must_defend": ["2", "5", "10", "K"], "finish": "pass_ace"},
    "紅5": {"ladder": HONG5_LADDER, "no_skip": ["10", "K"], "kou_multiplier": "flat"},
}


def preset_description(name: str) -> Msg:
    """The one-line description of a preset, as a message (its `help` in `labels.py`, as the options' are)."""
    return Msg(key=f"preset.shengji.{name}.help")


SHENGJI = Variant(
    key="shengji",
    name={"zh-Hans": "升级（80分、拖拉机）", "en": "Shengji (80 points, Tractor)"},
    unit="级",
    zero_sum=False,
    player_counts=frozenset({4, 6}),
    hand_fields=SHENGJI_FIELDS,
    has_levels=True,
    defaults=lambda players: ShengjiOptions(decks=players // 2),
    presets=PRESETS,
    new_table=lambda options, players: ShengjiTable(options=options, players=players),
    option_texts="shengji",
    rotation=ROTATION,
    bids=None,  # no bidding: trump is declared by showing the level's card, the declarer follows the rotation
    redeal_reasons=lambda options: tuple(RedealReason),  # docs/rules/: every variant but 打百分's regions allows all
    # The most any `decks` holds, for the document's first check; the entry and the hand use the
    # session's own decks (`ShengjiOptions.deck_points`).
    deck_points=4 * DECK_POINTS,
    dealer_drawn_each_game=False,
    penalty_kinds=("shuai",),  # failed throws only (docs/rules/shengji.md, Inputs)
)
