"""标分 — the bid-down game for 3 or 4 players, settled in 档, zero-sum.

One declarer (庄家) plays against the others (边家): 3 of them with 4 players,
2 with 3. Bidding runs down from 80; the bid `n` is what the 边家 must reach.
Their score `s` is their trick points, plus the bottom's points doubled when
they win the last trick (抠底). When `s < n` the declarer wins (庄胜) and each
边家 pays him 2 (bid 55 or more) or 3, plus 1 for 小光 (`s ≤ n/2`) or 3 for 大光
(`s = 0`). When `s ≥ n` the declarer is beaten (打宕) and pays each 边家 one 档
for every threshold reached (`n`, then gaps 40, 30, 20, 20 … with 4 players;
30, 20, 20 … with 3). He may surrender (投降) unplayed and pay 2 or 3 each.
Bombs, failed throws (甩牌) and an overdrawn deal add fixed payments. Hands are
played in rounds (轮) of six: a player's third and later declarings earn a
streak bonus, declaring all six an extra bonus, and whoever never declared
pays every other player 2 when the round ends.

>>> from .session import session_settle
>>> doc = {"variant": "biaofen", "players": ["A", "B", "C", "D"],
...        "hands": [{"declarer": 2, "bid": 50, "captured": 130}]}
>>> session_settle(doc)["hands"][0]["deltas"]
[3, 3, -9, 3]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
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
    Msg,
    Penalty,
    Rotation,
    Seat,
    SeatName,
    Variant,
    bids_everywhere,
    signed,
)
from .options import OptionType, frozen_map, option, parse_int, parse_int_list, parse_keyed_ints

DECK_POINTS = 200  # two decks
BID_LOW, BID_HIGH, BID_STEP = 5, 80, 5
HIGH_BID = 55  # from this bid up the `ge55` figures apply
BID_KEYS = ("ge55", "lt55")
NO_TRUMP_RELIEF = 1  # 底牌无主: the declarer pays each 边家 this much less on 投降 / 打宕
BOTTOM_CARDS = 12
DECK_CARDS = 108
BOMB_CARDS = 8


class Outcome(StrEnum):
    DECLARER_WON = "declarer_won"
    DECLARER_LOST = "declarer_lost"
    SURRENDER = "surrender"
    REDEAL = "redeal"


class PenaltyKind(StrEnum):
    SHUAI = "shuai"
    MISDEAL = "misdeal"


def _by_bid() -> OptionType:
    return parse_keyed_ints(BID_KEYS, all_required=True, low=0)


@dataclass(frozen=True, kw_only=True)
class BiaofenOptions:
    round_hands: int = option(6, "scored hands in a round (轮); redeals do not count", parse_int(low=1))
    win_base: Mapping[str, int] = option(
        frozen_map(ge55=2, lt55=3), "庄胜: each 边家 pays the declarer this, by bid (≥ 55 / < 55)", _by_bid()
    )
    xiaoguang: int = option(1, "小光 (s ≤ n/2): each 边家 pays this more", parse_int(low=0))
    daguang: int = option(3, "大光 (s = 0): each 边家 pays this more, instead of 小光", parse_int(low=0))
    dang_steps: tuple[int, ...] = option(
        (40, 30, 20), "打宕: gaps between the thresholds after n, the last repeating", parse_int_list(low=1)
    )
    surrender: Mapping[str, int] = option(
        frozen_map(ge55=2, lt55=3), "投降: the declarer pays each 边家 this, by bid (≥ 55 / < 55)", _by_bid()
    )
    unit_value: int = option(1, "money per 档, for settle-up", parse_int(low=1))
    bomb: int = option(5, "炸弹: each 边家 pays the declarer this per bomb", parse_int(low=0))
    shuai_declarer: int = option(1, "failed 甩牌 by the declarer: he pays each 边家 this", parse_int(low=0))
    shuai_defender: int = option(3, "failed 甩牌 by a 边家: he pays the declarer this", parse_int(low=0))
    misdeal: int = option(1, "overdrawn deal: that seat pays each other player this", parse_int(low=0))
    streak_from: int = option(
        3, "a player's declaring from this one in a round on earns the streak bonus", parse_int(low=1)
    )
    streak_bonus: int = option(1, "streak bonus: each 边家 pays the declarer this", parse_int(low=0))
    all_round_bonus: int = option(
        1, "one player declared the whole round: each 边家 pays him this, once", parse_int(low=0)
    )
    idle_penalty: int = option(
        2, "a player who never declared in the round pays every other player this", parse_int(low=0)
    )


def biaofen_defaults(players: int) -> BiaofenOptions:
    """The rules' defaults: 3 players climb the 打宕 ladder faster and a 边家's failed throw costs 2."""
    if players == 3:
        return BiaofenOptions(dang_steps=(30, 20), shuai_defender=2)
    return BiaofenOptions()


def dang_thresholds(bid: int, steps: Sequence[int], s: int) -> tuple[list[int], int]:
    """The 打宕 thresholds reached by `s` (in order) and the next one not reached."""
    reached: list[int] = []
    threshold, i = bid, 0
    while threshold <= s:
        reached.append(threshold)
        threshold += steps[min(i, len(steps) - 1)]
        i += 1
    return reached, threshold


def max_bombs(players: int) -> int:
    """Bombs of 8 equal cards the declarer can hold: 24 cards in play with 4 players, 32 with 3."""
    return (DECK_CARDS - BOTTOM_CARDS) // players // BOMB_CARDS


MESSAGES: Mapping[str, tuple[str, str]] = {
    "error.surrender.not_played": (
        "投降的一局不打牌，不能填 {name}",
        "a surrendered hand is not played, so it has no {name}",
    ),
    "error.penalty.not_played": (
        "这一局没有打牌，不能有甩牌处罚",
        "this hand was not played, so it can have no 甩牌 (throw) penalty",
    ),
    "error.bombs.too_many": (
        "炸弹最多 {high} 个（庄家出牌时手里只有 {cards} 张牌）",
        "at most {high} bombs (the declarer plays with {cards} cards)",
    ),
    "biaofen.s_plain": ("边家得分 s = {captured}", "边家 score s = {captured}"),
    "biaofen.s_bottom_kept": (
        "边家得分 s = {captured}（底牌 {bottom} 分归庄家）",
        "边家 score s = {captured} (the bottom's {bottom} stay with the declarer)",
    ),
    "biaofen.s_kou_di": (
        "抠底：边家得分 s = {captured} + 底分 {bottom} × 2 = {s}",
        "last trick to the 边家 (抠底): s = {captured} + bottom {bottom} × 2 = {s}",
    ),
    "biaofen.won": (
        "s = {s} < 标分 {bid}：庄胜，边家各付 {base} 档（标分 {band}）",
        "s = {s} < bid {bid}: declarer wins (庄胜), each 边家 pays {base} (bid {band})",
    ),
    "biaofen.band.ge55": ("≥ 55", "≥ 55"),
    "biaofen.band.lt55": ("< 55", "< 55"),
    "biaofen.xiaoguang": (
        "s = {s} ≤ {bid} / 2：小光，边家各再付 {extra} 档",
        "s = {s} ≤ {bid} / 2: 小光, each 边家 pays {extra} more",
    ),
    "biaofen.daguang": ("s = 0：大光，边家各再付 {extra} 档", "s = 0: 大光, each 边家 pays {extra} more"),
    "biaofen.lost": (
        "s = {s} ≥ 标分 {bid}：打宕；达到门槛 {reached}（下一档 {next}），共 {k} 档：庄家付每位边家 {k} 档",
        "s = {s} ≥ bid {bid}: declarer beaten (打宕); thresholds reached {reached} (next {next}), "
        "{k} in all: the declarer pays each 边家 {k}",
    ),
    "biaofen.surrender": (
        "投降（标分 {bid} {band}）：庄家付每位边家 {base} 档",
        "surrender (投降, bid {bid} {band}): the declarer pays each 边家 {base}",
    ),
    "biaofen.no_trump_relief": (
        "底牌无主：庄家付每位边家少 {relief} 档，{before} → {after}",
        "no trump in the bottom (底牌无主): the declarer pays each 边家 {relief} less, {before} → {after}",
    ),
    "biaofen.no_trump_won": (
        "底牌无主：庄胜不另奖",
        "no trump in the bottom (底牌无主): no extra award on a win",
    ),
    "biaofen.bombs": (
        "炸弹 {bombs} 个 × {bomb}：边家各再付 {amount} 档",
        "{bombs} bomb(s) × {bomb}: each 边家 pays {amount} more",
    ),
    "biaofen.streak": (
        "{seat}本轮第 {count} 次做庄（从第 {streak_from} 次起奖）：边家各再付 {bonus} 档",
        "{seat} declares for time no. {count} in the round (bonus from no. {streak_from} on): "
        "each 边家 pays {bonus} more",
    ),
    "biaofen.all_round": (
        "本轮 {hands} 把都由{seat}做庄：边家各再付 {bonus} 档",
        "{seat} declared all {hands} hands of the round: each 边家 pays {bonus} more",
    ),
    "biaofen.per_defender": (
        "每位边家 {each}，庄家 {total}",
        "each 边家 {each}, declarer {total}",
    ),
    "biaofen.shuai_declarer": (
        "庄家甩牌失败：付每位边家 {amount} 档",
        "failed throw (甩牌) by the declarer: he pays each 边家 {amount}",
    ),
    "biaofen.shuai_defender": (
        "边家{seat}甩牌失败：付庄家 {amount} 档",
        "failed throw (甩牌) by 边家 {seat}: pays the declarer {amount}",
    ),
    "biaofen.misdeal": (
        "{seat}抓牌过多：付其余每家 {amount} 档",
        "{seat} overdrew the deal: pays every other player {amount}",
    ),
    "biaofen.redeal_penalties": (
        "重新发牌（{reason}），不计输赢，只计罚分；不算本轮的一把",
        "redealt ({reason}): no result, penalties only; not a hand of the round",
    ),
    "biaofen.round_hand": ("本轮第 {i} / {of} 把", "hand {i} of {of} in the round"),
    "biaofen.round_over": ("本轮 {of} 把打完", "the round of {of} hands is over"),
    "biaofen.next.won": ("庄胜：下一把仍由庄家{seat}先叫", "declarer won: {seat} bids first again"),
    "biaofen.next.lost": ("庄家的下家{seat}下一把先叫", "the declarer's 下家, {seat}, bids first next"),
    "biaofen.next.redeal": ("重新发牌：仍由{seat}先叫", "redeal: {seat} bids first again"),
    "biaofen.idle": (
        "{seat}本轮没做过庄：付其余每家 {amount} 档，共 {total}",
        "{seat} never declared in the round: pays every other player {amount}, {total} in all",
    ),
    "biaofen.no_idle": ("本轮每人都做过庄：无奖罚", "everyone declared in the round: no idle penalty"),
    "biaofen.round_totals": (
        "本轮小计（含奖罚）：{totals}；得分为正者胜",
        "round totals (with adjustments): {totals}; the seats above 0 win",
    ),
    "biaofen.seat_total": ("{seat} {total}", "{seat} {total}"),
    "biaofen.seat_totals": ("{first}，{rest}", "{first}, {rest}"),
}


def _seat_totals(totals: list[int]) -> Msg:
    """Each seat's round total, naming its player: 王强 −2，李娜 +2，… (a list folded into nested messages)."""
    items = [
        Msg(key="biaofen.seat_total", params={"seat": _seat(seat), "total": signed(t)}) for seat, t in enumerate(totals)
    ]
    listed = items[-1]
    for item in reversed(items[:-1]):
        listed = Msg(key="biaofen.seat_totals", params={"first": item, "rest": listed})
    return listed


def _seat(seat: Seat) -> SeatName:
    return SeatName(seat)


# Who bids first next: after 庄胜 the same declarer, after 打宕 or 投降 the declarer's 下家; after a hand
# thrown in, the same first bidder again.
ROTATION = Rotation(seat="dealer", redeal=0, scored=None, won=0, lost=1)


def _next_bidder(dealer: Seat, declarer: Seat, won: bool, n: int, steps: list[Msg]) -> Seat:
    """Who bids first next, by `ROTATION`."""
    following = ROTATION.after_scored(dealer=dealer, declarer=declarer, won=won, players=n)
    steps.append(Msg(key="biaofen.next.won" if won else "biaofen.next.lost", params={"seat": _seat(following)}))
    return following


@dataclass(kw_only=True)
class BiaofenTable:
    options: BiaofenOptions
    players: int
    declared: list[Seat] = field(default_factory=list)  # declarers of this round's scored hands so far

    def state_dump(self) -> dict[str, Any]:
        return {"declared": list(self.declared)}

    def state_load(self, state: Mapping[str, Any]) -> None:
        self.declared = [int(seat) for seat in state["declared"]]

    def play(self, hand: HandInput, ctx: Context) -> HandResult:
        """One hand, as the rule file's steps: 投降, 庄胜 or 打宕 (per 边家), bombs, the round's bonuses,
        penalties, who bids first next, and after the round's last hand its 奖罚 row."""
        if ctx.scored_in_game == 0:
            self.declared = []
        if len(self.declared) != ctx.scored_in_game:
            raise AssertionError(f"hand {hand.n}: round state out of step")
        n = ctx.players
        dealer = hand.dealer if hand.dealer is not None else ctx.default_dealer
        if hand.redeal is not None:
            return self._redeal(hand, dealer, n)
        declarer, bid = self._check(hand, n)
        band = "ge55" if bid >= HIGH_BID else "lt55"
        steps: list[Msg] = [
            Msg(key="biaofen.round_hand", params={"i": ctx.scored_in_game + 1, "of": self.options.round_hands})
        ]
        tags: list[str] = []
        # `per`: what each 边家 pays the declarer (negative: the declarer pays each 边家).
        if hand.surrender:
            outcome, won, per = Outcome.SURRENDER, False, self._surrender(hand, bid, band, steps, tags)
        else:
            s = self._points(hand, steps, tags)
            if s < bid:
                outcome, won, per = Outcome.DECLARER_WON, True, self._won(hand, s, bid, band, steps, tags)
            else:
                outcome, won, per = Outcome.DECLARER_LOST, False, self._lost(hand, s, bid, steps, tags)
        per += self._bombs(hand, steps, tags)
        last_of_round = ctx.scored_in_game + 1 == self.options.round_hands
        per += self._declaring_bonuses(declarer, last_of_round, steps, tags)

        deltas = [per * (n - 1) if seat == declarer else -per for seat in range(n)]
        steps.append(Msg(key="biaofen.per_defender", params={"each": signed(-per), "total": signed(per * (n - 1))}))
        penalties = self._penalties(hand.penalties, declarer, n, steps)
        if penalties:
            tags.append("罚")
        deltas = [d + p for d, p in zip(deltas, penalties or [0] * n, strict=True)]
        next_dealer = _next_bidder(dealer, declarer, won, n, steps)

        self.declared.append(declarer)
        game_end = self._round_end(ctx, tuple(deltas), steps) if last_of_round else None
        return HandResult(
            status=HandStatus.SCORED,
            dealer=dealer,
            declarer=declarer,
            outcome=outcome,
            tags=tuple(tags),
            declarer_won=won,
            deltas=tuple(deltas),
            steps=tuple(steps),
            next_dealer=next_dealer,
            game_end=game_end,
        )

    def _surrender(self, hand: HandInput, bid: int, band: str, steps: list[Msg], tags: list[str]) -> int:
        """Rule step 1, 投降: the declarer pays each 边家 the band's figure (less 底牌无主's relief)."""
        base = self.options.surrender[band]
        tags.append("投降")
        steps.append(
            Msg(key="biaofen.surrender", params={"bid": bid, "band": Msg(key=f"biaofen.band.{band}"), "base": base})
        )
        return -self._relief(hand, base, steps, tags)

    @staticmethod
    def _points(hand: HandInput, steps: list[Msg], tags: list[str]) -> int:
        """`s`, the 边家's points: what they captured, plus twice the bottom on 抠底."""
        assert hand.captured is not None
        s = hand.captured + (2 * hand.bottom_points if hand.kou_di else 0)
        if hand.kou_di:
            tags.append("抠底")
            steps.append(
                Msg(key="biaofen.s_kou_di", params={"captured": hand.captured, "bottom": hand.bottom_points, "s": s})
            )
        elif hand.bottom_points:
            steps.append(
                Msg(key="biaofen.s_bottom_kept", params={"captured": hand.captured, "bottom": hand.bottom_points})
            )
        else:
            steps.append(Msg(key="biaofen.s_plain", params={"captured": hand.captured}))
        return s

    def _won(self, hand: HandInput, s: int, bid: int, band: str, steps: list[Msg], tags: list[str]) -> int:
        """Rule step 2, 庄胜 (`s < n`): each 边家 pays the band's figure, plus 小光's or 大光's."""
        o = self.options
        per = o.win_base[band]
        tags.append("庄胜")
        steps.append(
            Msg(key="biaofen.won", params={"s": s, "bid": bid, "base": per, "band": Msg(key=f"biaofen.band.{band}")})
        )
        if s == 0:
            per += o.daguang
            tags.append("大光")
            steps.append(Msg(key="biaofen.daguang", params={"extra": o.daguang}))
        elif 2 * s <= bid:
            per += o.xiaoguang
            tags.append("小光")
            steps.append(Msg(key="biaofen.xiaoguang", params={"s": s, "bid": bid, "extra": o.xiaoguang}))
        if hand.no_trump_bottom:
            tags.append("底牌无主")
            steps.append(Msg(key="biaofen.no_trump_won"))
        return per

    def _lost(self, hand: HandInput, s: int, bid: int, steps: list[Msg], tags: list[str]) -> int:
        """Rule step 3, 打宕 (`s ≥ n`): the declarer pays each 边家 `k`, the thresholds reached (less 底牌无主's)."""
        reached, following = dang_thresholds(bid, self.options.dang_steps, s)
        k = len(reached)
        tags.append("打宕")
        steps.append(
            Msg(
                key="biaofen.lost",
                params={"s": s, "bid": bid, "reached": ", ".join(map(str, reached)), "next": following, "k": k},
            )
        )
        return -self._relief(hand, k, steps, tags)

    def _bombs(self, hand: HandInput, steps: list[Msg], tags: list[str]) -> int:
        """Rule step 5, 炸弹: each 边家 pays the declarer a flat figure per bomb."""
        if not hand.bombs:
            return 0
        amount = hand.bombs * self.options.bomb
        tags.append("炸弹")
        steps.append(
            Msg(key="biaofen.bombs", params={"bombs": hand.bombs, "bomb": self.options.bomb, "amount": amount})
        )
        return amount

    def _declaring_bonuses(self, declarer: Seat, last_of_round: bool, steps: list[Msg], tags: list[str]) -> int:
        """The round's streak bonus (the third declaring on) and, in its last hand, the all-six bonus."""
        o = self.options
        count = self.declared.count(declarer) + 1
        per = 0
        if count >= o.streak_from and o.streak_bonus:
            per += o.streak_bonus
            tags.append("做庄奖励")
            params = {"seat": _seat(declarer), "count": count, "streak_from": o.streak_from, "bonus": o.streak_bonus}
            steps.append(Msg(key="biaofen.streak", params=params))
        if last_of_round and count == o.round_hands and o.all_round_bonus:
            per += o.all_round_bonus
            tags.append("全轮做庄")
            params = {"seat": _seat(declarer), "hands": o.round_hands, "bonus": o.all_round_bonus}
            steps.append(Msg(key="biaofen.all_round", params=params))
        return per

    def _check(self, hand: HandInput, n: int) -> tuple[Seat, int]:
        hand.require("declarer", "bid")
        assert hand.declarer is not None and hand.bid is not None
        bid = hand.bid
        if not BID_LOW <= bid <= BID_HIGH or bid % BID_STEP:
            raise hand.error("bid.out_of_range", "bid", low=BID_LOW, high=BID_HIGH)
        if hand.surrender:
            # Not played: nothing was captured, no last trick, no bomb, no throw.
            if "captured" in hand.present:
                raise hand.error("surrender.not_played", "captured", name="captured")
            for name, played in (
                ("bottom_points", hand.bottom_points != 0),
                ("kou_di", hand.kou_di),
                ("bombs", hand.bombs != 0),
            ):
                if played:
                    raise hand.error("surrender.not_played", name, name=name)
            self._no_shuai(hand)
        else:
            if "captured" not in hand.present:
                raise hand.error("field.required", "captured")
            assert hand.captured is not None
            # Each figure over the deck is refused by `document.py` before the table sees the hand; their sum is not.
            if hand.captured + hand.bottom_points > DECK_POINTS:
                value = hand.captured + hand.bottom_points
                raise hand.error("points.over_deck", "bottom_points", value=value, total=DECK_POINTS)
        high = max_bombs(n)
        if hand.bombs > high:
            raise hand.error("bombs.too_many", "bombs", high=high, cards=high * BOMB_CARDS)
        return hand.declarer, bid

    @staticmethod
    def _no_shuai(hand: HandInput) -> None:
        for i, penalty in enumerate(hand.penalties):
            if penalty.kind == PenaltyKind.SHUAI:
                raise hand.error("penalty.not_played", f"penalties[{i}].kind")

    @staticmethod
    def _relief(hand: HandInput, pays: int, steps: list[Msg], tags: list[str]) -> int:
        """底牌无主 on 投降 / 打宕: the declarer's payment to each 边家, one less, never below 0."""
        if not hand.no_trump_bottom:
            return pays
        after = max(0, pays - NO_TRUMP_RELIEF)
        tags.append("底牌无主")
        steps.append(
            Msg(key="biaofen.no_trump_relief", params={"relief": NO_TRUMP_RELIEF, "before": pays, "after": after})
        )
        return after

    def _penalties(self, penalties: Sequence[Penalty], declarer: Seat | None, n: int, steps: list[Msg]) -> list[int]:
        """Per-seat deltas of the penalties; empty when there are none."""
        if not penalties:
            return []
        o = self.options
        out = [0] * n
        for penalty in penalties:
            seat = penalty.seat
            if penalty.kind == PenaltyKind.MISDEAL:
                for other in range(n):
                    if other != seat:
                        out[other] += o.misdeal
                out[seat] -= o.misdeal * (n - 1)
                steps.append(Msg(key="biaofen.misdeal", params={"seat": _seat(seat), "amount": o.misdeal}))
            elif seat == declarer:
                for other in range(n):
                    if other != seat:
                        out[other] += o.shuai_declarer
                out[seat] -= o.shuai_declarer * (n - 1)
                steps.append(Msg(key="biaofen.shuai_declarer", params={"amount": o.shuai_declarer}))
            else:
                assert declarer is not None
                out[seat] -= o.shuai_defender
                out[declarer] += o.shuai_defender
                steps.append(
                    Msg(key="biaofen.shuai_defender", params={"seat": _seat(seat), "amount": o.shuai_defender})
                )
        return out

    def _redeal(self, hand: HandInput, dealer: Seat, n: int) -> HandResult:
        self._no_shuai(hand)
        reason = Msg(key=f"redeal.{hand.redeal}")
        key = "biaofen.redeal_penalties" if hand.penalties else "redeal"
        steps = [Msg(key=key, params={"reason": reason})]
        penalties = self._penalties(hand.penalties, None, n, steps)
        following = ROTATION.after_redeal(dealer, n)
        steps.append(Msg(key="biaofen.next.redeal", params={"seat": _seat(following)}))
        return HandResult(
            status=HandStatus.REDEAL,
            dealer=dealer,
            declarer=None,
            outcome=Outcome.REDEAL,
            tags=("罚",) if penalties else (),
            declarer_won=None,
            deltas=tuple(penalties) if penalties else (0,) * n,
            steps=tuple(steps),
            next_dealer=following,
        )

    def _round_end(self, ctx: Context, deltas: Deltas, steps: list[Msg]) -> GameEnd:
        """The round's 奖罚 row: each player who never declared pays every other player."""
        o, n = self.options, ctx.players
        steps.append(Msg(key="biaofen.round_over", params={"of": o.round_hands}))
        idle = [seat for seat in range(n) if seat not in self.declared]
        adjustments = [0] * n
        adjustment_steps: list[Msg] = []
        for seat in idle:
            for other in range(n):
                if other != seat:
                    adjustments[other] += o.idle_penalty
            adjustments[seat] -= o.idle_penalty * (n - 1)
            adjustment_steps.append(
                Msg(
                    key="biaofen.idle",
                    params={"seat": _seat(seat), "amount": o.idle_penalty, "total": o.idle_penalty * (n - 1)},
                )
            )
        if not idle:
            adjustment_steps.append(Msg(key="biaofen.no_idle"))
        totals = [before + d + a for before, d, a in zip(ctx.game_totals, deltas, adjustments, strict=True)]
        adjustment_steps.append(Msg(key="biaofen.round_totals", params={"totals": _seat_totals(totals)}))
        return GameEnd(
            winners=tuple(seat for seat in range(n) if totals[seat] > 0),
            how=GameEndHow.ROUND,
            adjustments=tuple(adjustments),
            adjustment_steps=tuple(adjustment_steps),
        )


HAND_FIELDS = frozenset(
    {
        "dealer",
        "declarer",
        "bid",
        "captured",
        "bottom_points",
        "kou_di",
        "surrender",
        "bombs",
        "penalties",
        "no_trump_bottom",
        "redeal",
    }
)

BIAOFEN = Variant(
    key="biaofen",
    name={"zh-Hans": "标分", "en": "Biaofen (bid-down)"},
    unit="档",
    deck_points=DECK_POINTS,
    zero_sum=True,
    player_counts=frozenset({3, 4}),
    hand_fields=HAND_FIELDS,
    defaults=biaofen_defaults,
    presets={"标准": {}},
    new_table=lambda options, players: BiaofenTable(options=options, players=players),
    option_texts="biaofen",
    rotation=ROTATION,
    dealer_drawn_each_game=True,
    bids=lambda options, players: bids_everywhere(BID_LOW, BID_HIGH, players),
)
