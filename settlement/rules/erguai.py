"""打二鬼 — the Sichuan-south friend-card game for 4 players, one running total, zero-sum.

The declarer (庄家) bids 80–100, or 100爆 / 100鉤 (stakes ×2 / ×4), and calls a
card: its holder is his partner (朋家), or he plays alone, 1 against 3, when he
holds it himself or it lies in the bottom. The other two are the 二鬼 (闲家).
With `c` the 闲家's points, `D = bid + c − 100`: below 0 the 闲家 lose `|D|`
each, above 0 the declarer's side loses `D` each, at 0 nobody pays. When the
闲家 take nothing (光头) they lose 50 instead. The figure is multiplied by the
contract's multiplier. When the 闲家 take too many points the declarer pays
his side's loss alone (包场). Before a 爆 or 鉤 hand each other player gives the
declarer a flat 喜金 that is never multiplied nor refunded.

>>> from .session import session_settle
>>> doc = {"variant": "erguai", "players": ["甲", "乙", "丙", "丁"],
...        "hands": [{"declarer": 0, "bid": 90, "partner": 2, "captured": 45}]}
>>> session_settle(doc)["hands"][0]["deltas"]
[-70, 35, 0, 35]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from .base import (
    NEXT_SEAT,
    Context,
    HandInput,
    HandResult,
    HandStatus,
    Msg,
    RedealReason,
    Seat,
    StatelessTable,
    Variant,
    bids_everywhere,
    minus,
    redeal_passing_on,
)
from .options import frozen_map, option, parse_enum, parse_int, parse_keyed_ints

DECK_POINTS = 100
PLAYERS = 4
BID_LOW, BID_HIGH, BID_STEP = 80, 100, 5
TOP_BID = 100
BAOCHANG_KEYS = ("80-95", "100", "bao", "gou")


class Contract(StrEnum):
    PLAIN = "plain"
    BAO = "bao"  # 100爆
    GOU = "gou"  # 100鉤


MULTIPLIER: Mapping[Contract, int] = {Contract.PLAIN: 1, Contract.BAO: 2, Contract.GOU: 4}
CONTRACT_TAG: Mapping[Contract, str] = {Contract.BAO: "爆", Contract.GOU: "鉤"}


class GuangtouMode(StrEnum):
    REPLACE = "replace"  # 光头: the 闲家 lose `guangtou`, whatever D is
    ADD = "add"  # 光头: the 闲家 lose |D| + `guangtou`


class Outcome(StrEnum):
    DECLARER_WON = "declarer_won"
    DECLARER_LOST = "declarer_lost"
    EVEN = "even"
    REDEAL = "redeal"


@dataclass(frozen=True, kw_only=True)
class ErguaiOptions:
    guangtou: int = option(
        50, "光头: what each 闲家 loses when they took no points, before the multiplier", parse_int(low=0)
    )
    guangtou_mode: GuangtouMode = option(
        GuangtouMode.REPLACE, '"add": 光头 loses |D| + guangtou instead of guangtou', parse_enum(GuangtouMode)
    )
    baochang: Mapping[str, int] = option(
        frozen_map({"80-95": 40, "100": 30, "bao": 0, "gou": 0}),
        "包场 when the 闲家's points are over this: bids 80–95, 100 plain, 爆, 鉤",
        parse_keyed_ints(BAOCHANG_KEYS, all_required=True, low=0, high=DECK_POINTS),
    )
    xijin: Mapping[str, int] = option(
        frozen_map(bao=10, gou=20),
        "喜金: each other player gives the declarer this on 爆 / 鉤, never multiplied",
        parse_keyed_ints(("bao", "gou"), all_required=True, low=0),
    )
    unit_value: int = option(1, "coins per point, for display and settle-up (底金)", parse_int(low=1))


MESSAGES: Mapping[str, tuple[str, str]] = {
    "error.contract.needs_bid_100": (
        "爆、鉤只能在叫 100 时打（叫分是 {bid}）",
        "爆 (bao) and 鉤 (gou) need a bid of 100 (the bid is {bid})",
    ),
    "erguai.d": ("D = 叫分 {bid} + 闲家得分 {c} − 100 = {d}", "D = bid {bid} + 闲家 points {c} − 100 = {d}"),
    "erguai.guangtou": (
        "闲家得 0 分：光头，闲家各输 {amount}",
        "the 闲家 took nothing (光头): they lose {amount} each",
    ),
    "erguai.guangtou_add": (
        "闲家得 0 分：光头，闲家各输 |D| {abs_d} + {guangtou} = {amount}",
        "the 闲家 took nothing (光头): they lose |D| {abs_d} + {guangtou} = {amount} each",
    ),
    "erguai.won": ("D = {d} < 0：闲家各输 {amount}", "D = {d} < 0: the 闲家 lose {amount} each"),
    "erguai.even": ("D = 0：不输赢", "D = 0: nobody pays"),
    "erguai.lost": ("D = {d} > 0：庄家方各输 {amount}", "D = {d} > 0: the declarer's side loses {amount} each"),
    "erguai.multiplier": ("{contract} ×{m}：A = {amount} × {m} = {a}", "{contract} ×{m}: A = {amount} × {m} = {a}"),
    "erguai.contract.plain": ("普通", "plain"),
    "erguai.contract.bao": ("100爆", "100 bao"),
    "erguai.contract.gou": ("100鉤", "100 gou"),
    "erguai.baochang_limit.80-95": ("叫 80–95", "bids 80–95"),
    "erguai.baochang_limit.100": ("叫 100", "bid 100"),
    "erguai.baochang_limit.bao": ("100爆", "100 bao"),
    "erguai.baochang_limit.gou": ("100鉤", "100 gou"),
    "erguai.baochang": (
        "闲家得分 {c} > {limit}（{which}）：庄家包场，朋家不输",
        "闲家 points {c} > {limit} ({which}): the declarer pays alone (包场), the partner loses nothing",
    ),
    "erguai.no_baochang": (
        "闲家得分 {c} ≤ {limit}（{which}）：不包场，庄家、朋家共担",
        "闲家 points {c} ≤ {limit} ({which}): no 包场, declarer and partner share the loss",
    ),
    "erguai.pair_won": (
        "庄家、朋家各 +{a}，二鬼各 −{a}",
        "declarer and partner +{a} each, the two 闲家 −{a} each",
    ),
    "erguai.pair_lost": (
        "庄家、朋家各 −{a}，二鬼各 +{a}",
        "declarer and partner −{a} each, the two 闲家 +{a} each",
    ),
    "erguai.pair_lost_baochang": (
        "庄家独付 2 × {a} = {total}，朋家 0，二鬼各 +{a}",
        "the declarer pays 2 × {a} = {total} alone, the partner 0, the two 闲家 +{a} each",
    ),
    "erguai.alone_won": (
        "庄家一打三：+3 × {a} = +{total}，其余各 −{a}",
        "declarer alone: +3 × {a} = +{total}, the others −{a} each",
    ),
    "erguai.alone_lost": (
        "庄家一打三：−3 × {a} = −{total}，其余各 +{a}",
        "declarer alone: −3 × {a} = −{total}, the others +{a} each",
    ),
    "erguai.even_pay": ("无人付分", "nobody pays"),
    "erguai.xijin": (
        "喜金（{contract}）：其余三家各给庄家 {x}，共 {total}（不乘倍数，不退还）",
        "喜金 ({contract}): each other player gives the declarer {x}, {total} in all (never multiplied nor refunded)",
    ),
}


def baochang_key(bid: int, contract: Contract) -> str:
    """Which `baochang` threshold applies to a hand."""
    if contract is not Contract.PLAIN:
        return str(contract)
    return "100" if bid == TOP_BID else "80-95"


def _pay_alone(declarer: Seat, sign: int, a: int, steps: list[Msg]) -> list[int]:
    """Rule step 4, 1 v 3: the declarer ±3A, each other player ∓A (包场 changes nothing)."""
    deltas = [sign * 3 * a if seat == declarer else -sign * a for seat in range(PLAYERS)]
    key = "erguai.alone_won" if sign > 0 else "erguai.alone_lost"
    steps.append(Msg(key=key, params={"a": a, "total": 3 * a}))
    return deltas


@dataclass(kw_only=True)
class ErguaiTable(StatelessTable):
    options: ErguaiOptions

    def play(self, hand: HandInput, ctx: Context) -> HandResult:
        """One hand, as the rule file's steps: D, what each loser loses, × the multiplier, who pays, 喜金."""
        dealer = hand.dealer if hand.dealer is not None else ctx.default_dealer
        if hand.redeal is not None:
            return redeal_passing_on(RedealReason(hand.redeal), dealer=dealer, players=PLAYERS, outcome=Outcome.REDEAL)
        next_dealer = NEXT_SEAT.after_scored(dealer=dealer, declarer=dealer, won=None, players=PLAYERS)
        declarer, partner, bid, contract, c = self._check(hand)
        m = MULTIPLIER[contract]
        d = bid + c - 100
        steps: list[Msg] = [Msg(key="erguai.d", params={"bid": bid, "c": c, "d": minus(d)})]
        tags: list[str] = [CONTRACT_TAG[contract]] if contract in CONTRACT_TAG else []
        amount, sign = self._loss(c, d, steps, tags)
        a = amount * m
        contract_name = Msg(key=f"erguai.contract.{contract}")
        if sign:
            steps.append(
                Msg(key="erguai.multiplier", params={"contract": contract_name, "m": m, "amount": amount, "a": a})
            )
        if sign == 0:
            deltas = [0] * PLAYERS
            steps.append(Msg(key="erguai.even_pay"))
        elif partner is None:
            deltas = _pay_alone(declarer, sign, a, steps)
        else:
            deltas = self._pay_pair(declarer, partner, bid, contract, c, sign, a, steps, tags)
        if contract is not Contract.PLAIN:
            self._xijin(declarer, contract, contract_name, deltas, steps)
        return HandResult(
            status=HandStatus.SCORED,
            dealer=dealer,
            declarer=declarer,
            outcome={1: Outcome.DECLARER_WON, 0: Outcome.EVEN, -1: Outcome.DECLARER_LOST}[sign],
            tags=tuple(tags),
            declarer_won={1: True, 0: None, -1: False}[sign],
            deltas=tuple(deltas),
            steps=tuple(steps),
            next_dealer=next_dealer,
        )

    def _loss(self, c: int, d: int, steps: list[Msg], tags: list[str]) -> tuple[int, int]:
        """Rule step 2: what each loser loses before the multiplier, and `sign` (+1: the 闲家 lose, 0: nobody)."""
        o = self.options
        if c == 0:
            tags.append("光头")
            if o.guangtou_mode is GuangtouMode.ADD:
                amount = abs(d) + o.guangtou
                steps.append(
                    Msg(key="erguai.guangtou_add", params={"abs_d": abs(d), "guangtou": o.guangtou, "amount": amount})
                )
            else:
                amount = o.guangtou
                steps.append(Msg(key="erguai.guangtou", params={"amount": amount}))
            sign = 1
        elif d < 0:
            amount, sign = -d, 1
            steps.append(Msg(key="erguai.won", params={"d": minus(d), "amount": amount}))
        elif d == 0:
            amount, sign = 0, 0
            steps.append(Msg(key="erguai.even"))
        else:
            amount, sign = d, -1
            steps.append(Msg(key="erguai.lost", params={"d": minus(d), "amount": amount}))
        if amount == 0:
            sign = 0  # 光头 worth 0 (option guangtou 0 in "replace" mode) is no transfer either
        return amount, sign

    def _pay_pair(
        self,
        declarer: Seat,
        partner: Seat,
        bid: int,
        contract: Contract,
        c: int,
        sign: int,
        a: int,
        steps: list[Msg],
        tags: list[str],
    ) -> list[int]:
        """Rule steps 4–5, 2 v 2: declarer and partner ±A, each 闲 ∓A; on 包场 the declarer pays 2A alone."""
        key_name = baochang_key(bid, contract)
        limit = self.options.baochang[key_name]
        baochang = sign < 0 and c > limit
        if sign < 0:
            params = {"c": c, "limit": limit, "which": Msg(key=f"erguai.baochang_limit.{key_name}")}
            steps.append(Msg(key="erguai.baochang" if baochang else "erguai.no_baochang", params=params))
        deltas = [sign * a if seat in (declarer, partner) else -sign * a for seat in range(PLAYERS)]
        if baochang:
            tags.append("包场")
            deltas[declarer] = -2 * a
            deltas[partner] = 0
            steps.append(Msg(key="erguai.pair_lost_baochang", params={"a": a, "total": 2 * a}))
        else:
            steps.append(Msg(key="erguai.pair_won" if sign > 0 else "erguai.pair_lost", params={"a": a}))
        return deltas

    def _xijin(
        self, declarer: Seat, contract: Contract, contract_name: Msg, deltas: list[int], steps: list[Msg]
    ) -> None:
        """Rule step 6: on 爆 / 鉤 each other player gives the declarer 喜金, never multiplied."""
        x = self.options.xijin[str(contract)]
        for seat in range(PLAYERS):
            deltas[seat] += (PLAYERS - 1) * x if seat == declarer else -x
        steps.append(Msg(key="erguai.xijin", params={"contract": contract_name, "x": x, "total": 3 * x}))

    @staticmethod
    def _check(hand: HandInput) -> tuple[Seat, Seat | None, int, Contract, int]:
        hand.require("declarer", "bid", "partner", "captured")
        assert hand.declarer is not None and hand.bid is not None and hand.captured is not None
        bid = hand.bid
        if not BID_LOW <= bid <= BID_HIGH or bid % BID_STEP:
            raise hand.error("bid.out_of_range", "bid", low=BID_LOW, high=BID_HIGH)
        contract = Contract(hand.contract)
        if contract is not Contract.PLAIN and bid != TOP_BID:
            raise hand.error("contract.needs_bid_100", "contract", bid=bid)
        if hand.partner == hand.declarer:
            raise hand.error("partner.is_declarer", "partner")
        return hand.declarer, hand.partner, bid, contract, hand.captured


HAND_FIELDS = frozenset({"dealer", "declarer", "bid", "contract", "partner", "captured", "redeal"})

ERGUAI = Variant(
    key="erguai",
    name={"zh-Hans": "打二鬼", "en": "Erguai (Sichuan friend card)"},
    unit="分",
    deck_points=DECK_POINTS,
    zero_sum=True,
    player_counts=frozenset({PLAYERS}),
    hand_fields=HAND_FIELDS,
    defaults=lambda players: ErguaiOptions(),
    presets={"初级场": {"unit_value": 200}, "高级场": {"unit_value": 1000}},
    new_table=lambda options, players: ErguaiTable(options=options),
    option_texts="erguai",
    rotation=NEXT_SEAT,
    bids=lambda options, players: bids_everywhere(BID_LOW, BID_HIGH, players),
)
