"""打百分 — the Liaoning regional games (本溪, 抚顺, 沈阳) and the classic friend-card game.

Regional games (`baifen.benxi`, `baifen.fushun`, `baifen.shenyang`): seats
0 + 2 play 1 + 3 for the whole session. The declaring team bids how few of
the deck's 100 points the other team will capture. The bid is made (成) when
bid + captured ≤ 100, broken (破) when it is more. A made bid scores the bid
(or the clean table when nothing was captured), a broken one loses the bid
(or the broken table); the capturing team always scores what it captured,
counted as 100 once it reaches 50 (翻倍). Winning the last trick (抠) scores
a fixed award instead. Team totals run within a 盘 until one team reaches
the target (出锅) or falls to minus the target (后门走).

Classic (`baifen.classic`): sides are formed each hand by the called friend
card (partner, or the declarer alone; 4 or 6 players); the bid is broken once the capture side
reaches 100 − bid; the loser pays a multiple of the stake, doubled for a
clean hand or a captured last trick and eight-fold on a 100 bid. No 盘: one
running total per player, zero-sum.

>>> from .session import session_settle
>>> doc = {"variant": "baifen.benxi", "players": ["甲", "乙", "丙", "丁"],
...        "hands": [{"declarer": 1, "bid": 85, "captured": 20}]}
>>> session_settle(doc)["hands"][0]["deltas"]
[20, -85, 20, -85]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .base import (
    NEXT_SEAT,
    BidRule,
    Context,
    Deltas,
    GameEnd,
    GameEndHow,
    HandInput,
    HandResult,
    HandStatus,
    Msg,
    RedealReason,
    RulesError,
    Seat,
    StatelessTable,
    TeamName,
    Variant,
    bids_everywhere,
    minus,
    redeal_passing_on,
    signed,
    team_deltas,
)
from .options import (
    frozen_map,
    option,
    parse_bid_table,
    parse_choice,
    parse_enum,
    parse_int,
    parse_keyed_ints,
)

DECK_POINTS = 100
KOU_KINDS = ("side", "trump", "joker")


class Region(StrEnum):
    BENXI = "benxi"
    FUSHUN = "fushun"
    SHENYANG = "shenyang"


class KouMode(StrEnum):
    POINTS = "points"
    GAME = "game"


class ExactHundred(StrEnum):
    MADE = "made"
    BROKEN = "broken"


class Outcome(StrEnum):
    MADE = "made"
    BROKEN = "broken"
    KOU = "kou"
    REDEAL = "redeal"


parse_next_dealer = parse_choice(["next_seat"])


@dataclass(frozen=True, kw_only=True)
class RegionalOptions:
    target: int = option(
        205,
        "盘分: a team at or above it wins the 盘 (出锅), at or below minus it loses (后门走)",
        parse_int(low=5, step=5),
    )
    fanbei: int = option(50, "翻倍: captured points at or above this count as 100", parse_int(low=5, high=100, step=5))
    clean: Mapping[int, int] = option(
        frozen_map(), "score of a made bid with nothing captured, by bid", parse_bid_table()
    )
    clean_forced: Mapping[int, int] = option(
        frozen_map(), "laid over `clean` when the declarer was forced", parse_bid_table()
    )
    broken: Mapping[int, int] = option(
        frozen_map(), "score of a broken bid, by bid (else minus the bid)", parse_bid_table()
    )
    kou_award: Mapping[str, int] = option(
        frozen_map(side=200, trump=200, joker=200),
        "capture team's score for 抠 with a side card / trump / joker",
        parse_keyed_ints(KOU_KINDS, all_required=True),
    )
    kou_penalty: Mapping[str, int] = option(
        frozen_map(),
        "declarer team's score for 抠 by kind (else the broken score)",
        parse_keyed_ints(KOU_KINDS, all_required=False),
    )
    kou_mode: KouMode = option(
        KouMode.POINTS, '"game": a 抠 also ends the 盘, lost by the declarer team', parse_enum(KouMode)
    )
    bid100: KouMode = option(KouMode.POINTS, '"game": a 100 bid decides the 盘 at once', parse_enum(KouMode))
    exact_hundred: ExactHundred = option(
        ExactHundred.MADE, "bid + captured = 100 is made or broken", parse_enum(ExactHundred)
    )
    next_dealer: str = option("next_seat", "who deals next: the next seat", parse_next_dealer)


@dataclass(frozen=True, kw_only=True)
class ClassicOptions:
    min_bid: int = option(45, "lowest bid allowed", parse_int(low=5, high=100, step=5))
    stake: int = option(1, "注 per unit of the multiple", parse_int(low=1))
    exact_hundred: ExactHundred = option(
        ExactHundred.BROKEN, "captured = 100 − bid is made or broken", parse_enum(ExactHundred)
    )
    unit_value: int = option(1, "money per 注, for settle-up", parse_int(low=1))
    next_dealer: str = option("next_seat", "who deals next: the next seat", parse_next_dealer)


@dataclass(frozen=True, kw_only=True)
class RegionRules:
    """How a region checks the bidding; not options, since they define the region."""

    low: int
    low_forced: int | None  # a lower bid allowed only when forced
    place_minimum: Mapping[int, int]  # place in the bidding → lowest bid
    forced_place: int | None  # the one place that may be forced
    forced_min_bid: int | None
    forced_max_bid: int | None
    redeal_reasons: tuple[RedealReason, ...]


REGIONS: Mapping[Region, RegionRules] = {
    Region.BENXI: RegionRules(
        low=80,
        low_forced=None,
        place_minimum={2: 85, 3: 85},
        forced_place=3,
        forced_min_bid=90,
        forced_max_bid=None,
        redeal_reasons=(RedealReason.ALL_PASS, RedealReason.NO_TRUMP_NO_POINTS, RedealReason.MISDEAL),
    ),
    Region.FUSHUN: RegionRules(
        low=85,
        low_forced=80,
        place_minimum={},
        forced_place=0,
        forced_min_bid=80,
        forced_max_bid=80,
        redeal_reasons=(RedealReason.MISDEAL,),
    ),
    Region.SHENYANG: RegionRules(
        low=80,
        low_forced=None,
        place_minimum={},
        forced_place=None,
        forced_min_bid=None,
        forced_max_bid=None,
        redeal_reasons=(RedealReason.NO_TRUMP_NO_POINTS, RedealReason.MISDEAL),
    ),
}

REGION_NAMES = {
    Region.BENXI: ("本溪", "Benxi"),
    Region.FUSHUN: ("抚顺", "Fushun"),
    Region.SHENYANG: ("沈阳", "Shenyang"),
}

PRESET_DEFAULTS: Mapping[Region, RegionalOptions] = {
    Region.BENXI: RegionalOptions(
        target=205,
        clean=frozen_map({80: 100, 85: 100, 90: 200, 95: 200, 100: 300}),
        clean_forced=frozen_map({90: 100}),
        broken=frozen_map({100: -200}),
        kou_award=frozen_map(side=200, trump=200, joker=200),
    ),
    Region.FUSHUN: RegionalOptions(
        target=300,
        clean=frozen_map({100: 200}),
        broken=frozen_map({100: -300}),
        kou_award=frozen_map(side=100, trump=200, joker=300),
    ),
    Region.SHENYANG: RegionalOptions(
        target=250,
        clean=frozen_map({90: 100, 95: 150, 100: 200}),
        broken=frozen_map({100: -200}),
        kou_award=frozen_map(side=100, trump=200, joker=300),
        kou_penalty=frozen_map(joker=-200),
    ),
}

MESSAGES: Mapping[str, tuple[str, str]] = {
    # Places count from 0 at the dealer in the rules (p = (declarer − dealer) mod 4); players count
    # the bidders from 1, the dealer first, so the messages say "the third bidder", never "place 2".
    "error.bid.place_minimum": (
        "{region}第 {nth} 个叫的（头家为第 1 个）至少叫 {minimum}",
        "in {region} the {bidder} bidder (the dealer is first) must bid at least {minimum}",
    ),
    "error.bid.forced_only": ("{region}叫 {bid} 只能是被迫坐庄", "{region} allows a bid of {bid} only when forced"),
    "error.forced.not_allowed": ("{region}不能被迫坐庄", "{region} has no forced declarer"),
    "error.forced.place": (
        "{region}只有第 {nth} 个叫的（头家为第 1 个）可以被迫坐庄",
        "in {region} only the {bidder} bidder (the dealer is first) can be forced",
    ),
    "bidder.1": ("第 1 个", "first"),
    "bidder.2": ("第 2 个", "second"),
    "bidder.3": ("第 3 个", "third"),
    "bidder.4": ("第 4 个", "fourth"),
    "error.forced.bid": (
        "{region}被迫坐庄时叫分应为 {low}–{high}",
        "in {region} a forced declarer bids {low}–{high}",
    ),
    "region.benxi": ("本溪", "Benxi"),
    "region.fushun": ("抚顺", "Fushun"),
    "region.shenyang": ("沈阳", "Shenyang"),
    "baifen.made": (
        "叫分 {bid} + 抓分 {captured} = {sum} ≤ 100：成",
        "bid {bid} + captured {captured} = {sum} ≤ 100: made",
    ),
    "baifen.made_exact_broken": (
        "叫分 {bid} + 抓分 {captured} = {sum} < 100：成",
        "bid {bid} + captured {captured} = {sum} < 100: made",
    ),
    "baifen.broken": (
        "叫分 {bid} + 抓分 {captured} = {sum} > 100：破",
        "bid {bid} + captured {captured} = {sum} > 100: broken",
    ),
    "baifen.broken_exact": (
        "叫分 {bid} + 抓分 {captured} = 100，满百算破：破",
        "bid {bid} + captured {captured} = 100, counted as broken: broken",
    ),
    "baifen.hundred_made": ("叫 100，抓分 0：成", "bid 100, nothing captured: made"),
    "baifen.hundred_broken": ("叫 100，抓分 {captured} > 0：破", "bid 100, captured {captured} > 0: broken"),
    "baifen.declarer_made": ("庄家方 +{score}（叫分）", "declarer team +{score} (the bid)"),
    "baifen.declarer_clean": ("没丢分，清：庄家方 +{score}", "nothing captured, clean: declarer team +{score}"),
    "baifen.declarer_clean_forced": ("被迫坐庄，清：庄家方 +{score}", "forced declarer, clean: declarer team +{score}"),
    "baifen.declarer_broken": ("庄家方 {score}", "declarer team {score}"),
    "baifen.capture": ("抓分方 +{captured}", "capture team +{captured}"),
    "baifen.capture_fanbei": (
        "抓分 {captured} ≥ {fanbei}：翻倍，抓分方 +100",
        "captured {captured} ≥ {fanbei}: doubled, capture team +100",
    ),
    "baifen.kou": (
        "{kind}：抓分方 +{award}，庄家方 {penalty}",
        "{kind}: capture team +{award}, declarer team {penalty}",
    ),
    "baifen.kou.side": ("抠手", "last trick won with a side card"),
    "baifen.kou.trump": ("抠底（主牌）", "last trick won with a trump"),
    "baifen.kou.joker": ("抠底（王）", "last trick won with a joker"),
    "baifen.kou_game": ("抠：庄家方当盘输", "抠: the declarer team loses the game at once"),
    "baifen.bid100_won": ("叫 100 成：庄家方当盘赢", "100 bid made: the declarer team wins the game at once"),
    "baifen.bid100_lost": ("叫 100 未成：庄家方当盘输", "100 bid not made: the declarer team loses the game at once"),
    "baifen.pot": ("盘分 {team_a} {a} : {team_b} {b}", "game score: {team_a} {a} : {team_b} {b}"),
    "baifen.target": ("{team}达到 {target}：出锅，{team}胜", "{team} reaches {target}: wins the game"),
    "baifen.backdoor": (
        "{team}跌到 −{target}：后门走，{winner}胜",
        "{team} falls to −{target}: loses the game (back door), {winner} wins",
    ),
    "baifen.tie_target": ("两队同分且都到 {target}：继续", "both teams tied at or above {target}: play on"),
    "baifen.tie_backdoor": ("两队同分且都到 −{target}：继续", "both teams tied at or below −{target}: play on"),
    "classic.made": ("叫分 {bid}，抓分 {captured} < {limit}：成", "bid {bid}, captured {captured} < {limit}: made"),
    "classic.made_exact": (
        "叫分 {bid}，抓分 {captured} ≤ {limit}：成",
        "bid {bid}, captured {captured} ≤ {limit}: made",
    ),
    "classic.broken": ("叫分 {bid}，抓分 {captured} ≥ {limit}：破", "bid {bid}, captured {captured} ≥ {limit}: broken"),
    "classic.broken_exact": (
        "叫分 {bid}，抓分 {captured} > {limit}：破",
        "bid {bid}, captured {captured} > {limit}: broken",
    ),
    "classic.kou": (
        "成，但抓分方抠底：庄家方输",
        "made, but the capture side won the last trick: the declarer side loses",
    ),
    "classic.multiple": ("倍数 {m}（{why}）× 注 {stake} = {amount}", "multiple {m} ({why}) × stake {stake} = {amount}"),
    "classic.why.plain": ("普通", "plain"),
    "classic.why.clean": ("没丢分", "clean"),
    "classic.why.kou": ("抠底", "last trick"),
    "classic.why.hundred": ("叫 100", "bid 100"),
    "classic.two_v_two_won": (
        "庄家、朋家各 +{a}，另两家各 −{a}",
        "declarer and partner +{a} each, the other two −{a} each",
    ),
    "classic.two_v_two_lost": (
        "庄家、朋家各 −{a}，另两家各 +{a}",
        "declarer and partner −{a} each, the other two +{a} each",
    ),
    "classic.alone_won": ("庄家一打三：+{total}，其余各 −{a}", "declarer alone: +{total}, the others −{a} each"),
    "classic.alone_lost": ("庄家一打三：−{total}，其余各 +{a}", "declarer alone: −{total}, the others +{a} each"),
    "classic.two_v_two_won_6": (
        "庄家、朋家各 +{share}，另四家各 −{a}",
        "declarer and partner +{share} each, the other four −{a} each",
    ),
    "classic.two_v_two_lost_6": (
        "庄家、朋家各 −{share}，另四家各 +{a}",
        "declarer and partner −{share} each, the other four +{a} each",
    ),
    "classic.alone_won_6": ("庄家一打五：+{total}，其余各 −{a}", "declarer alone: +{total}, the others −{a} each"),
    "classic.alone_lost_6": ("庄家一打五：−{total}，其余各 +{a}", "declarer alone: −{total}, the others +{a} each"),
}


def _redeal(hand: HandInput, dealer: Seat, players: int, allowed: tuple[RedealReason, ...]) -> HandResult:
    if hand.redeal not in allowed:
        raise hand.error("redeal.reason", "redeal", choices=", ".join(allowed))
    return redeal_passing_on(str(hand.redeal), dealer=dealer, players=players, outcome=Outcome.REDEAL)


def _captured(hand: HandInput) -> int:
    """The capture side's points; over the deck they were refused by `document.py` before the table saw the hand."""
    assert hand.captured is not None
    return hand.captured


def _check_bid_range(hand: HandInput, low: int, high: int = DECK_POINTS) -> int:
    bid = hand.bid
    assert bid is not None
    if not low <= bid <= high or bid % 5:
        raise hand.error("bid.out_of_range", "bid", low=low, high=high)
    return bid


def bid_refusal(region: Region, *, place: int, bid: int, forced: bool) -> RulesError | None:
    """Why a region refuses `bid` at bidding `place` (forced or not), or None: the one place its bidding rules live."""
    rules = REGIONS[region]
    name = Msg(key=f"region.{region}")
    if not forced and rules.low_forced is not None and rules.low_forced <= bid < rules.low and bid % 5 == 0:
        return RulesError("bid.forced_only", field="bid", region=name, bid=bid)
    low = rules.low_forced if forced and rules.low_forced is not None else rules.low
    if not low <= bid <= DECK_POINTS or bid % 5:
        return RulesError("bid.out_of_range", field="bid", low=low, high=DECK_POINTS)
    if forced:
        if rules.forced_place is None:
            return RulesError("forced.not_allowed", field="forced", region=name)
        if place != rules.forced_place:
            return RulesError("forced.place", field="forced", region=name, **_bidder(rules.forced_place))
        high = rules.forced_max_bid or DECK_POINTS
        if rules.forced_min_bid is not None and not rules.forced_min_bid <= bid <= high:
            return RulesError("forced.bid", field="bid", region=name, low=rules.forced_min_bid, high=high)
    minimum = rules.place_minimum.get(place)
    if minimum is not None and bid < minimum:
        return RulesError("bid.place_minimum", field="bid", region=name, minimum=minimum, **_bidder(place))
    return None


def _bidder(place: int) -> dict[str, Any]:
    """Message parameters naming bidding place `place` (0 = 头家) as players count: from 1, the dealer first."""
    return {"nth": place + 1, "bidder": Msg(key=f"bidder.{place + 1}")}


def regional_bids(region: Region) -> tuple[BidRule, ...]:
    """The bids a region allows, each with the places where it may be bid (and where only when forced)."""
    out = []
    for bid in range(5, DECK_POINTS + 1, 5):
        places = tuple(p for p in range(4) if bid_refusal(region, place=p, bid=bid, forced=False) is None)
        forced = tuple(p for p in range(4) if bid_refusal(region, place=p, bid=bid, forced=True) is None)
        if places or forced:
            out.append(BidRule(bid=bid, places=places, forced_places=forced))
    return tuple(out)


@dataclass(kw_only=True)
class RegionalTable(StatelessTable):
    region: Region
    options: RegionalOptions

    def play(self, hand: HandInput, ctx: Context) -> HandResult:
        """One hand, as the rule file's steps: made or broken, the declarer team's score, the capture team's,
        抠 instead of both, the 100 bid as a game decider, then the 盘's end."""
        rules = REGIONS[self.region]
        dealer = hand.dealer if hand.dealer is not None else ctx.default_dealer
        if hand.redeal is not None:
            return _redeal(hand, dealer, ctx.players, rules.redeal_reasons)
        hand.require("declarer", "bid", "captured")
        assert hand.declarer is not None and hand.bid is not None
        self._check_bidding(hand, dealer)
        captured = _captured(hand)
        declarer, bid, o = hand.declarer, hand.bid, self.options
        steps: list[Msg] = []
        tags: list[str] = []
        instant: bool | None = None  # True: declarer team wins the 盘 now; False: loses it
        made = self._made(bid, captured, steps)
        broken_score = o.broken.get(bid, -bid)
        if hand.kou is not None:
            outcome = Outcome.KOU
            declarer_score, capture_score, instant = self._kou(hand.kou, bid, broken_score, steps, tags)
        else:
            outcome = Outcome.MADE if made else Outcome.BROKEN
            declarer_score = self._declarer_score(hand, captured, made, broken_score, steps, tags)
            capture_score = self._capture_score(captured, steps, tags)
            if bid == DECK_POINTS and o.bid100 is KouMode.GAME:
                instant = made
                steps.append(Msg(key="baifen.bid100_won" if made else "baifen.bid100_lost"))
        deltas = team_deltas(declarer, declarer_score, capture_score)
        game_end = self._game_end(ctx.game_totals, deltas, declarer, instant, steps)
        return HandResult(
            status=HandStatus.SCORED,
            dealer=dealer,
            declarer=declarer,
            outcome=outcome,
            tags=tuple(tags),
            declarer_won=outcome is Outcome.MADE,
            deltas=deltas,
            steps=tuple(steps),
            next_dealer=NEXT_SEAT.after_scored(dealer=dealer, declarer=declarer, won=None, players=ctx.players),
            game_end=game_end,
        )

    def _made(self, bid: int, captured: int, steps: list[Msg]) -> bool:
        """Rule step 1: 成 when bid + c ≤ 100 (< 100 with exact_hundred "broken"); a 100 bid only when c = 0."""
        if bid == DECK_POINTS:
            return _hundred_made(captured, steps)
        exact_broken = self.options.exact_hundred is ExactHundred.BROKEN
        total = bid + captured
        made = total < DECK_POINTS if exact_broken else total <= DECK_POINTS
        if made:
            key = "baifen.made_exact_broken" if exact_broken else "baifen.made"
        else:
            key = "baifen.broken_exact" if total == DECK_POINTS else "baifen.broken"
        steps.append(Msg(key=key, params={"bid": bid, "captured": captured, "sum": total}))
        return made

    def _kou(
        self, kou: str, bid: int, broken_score: int, steps: list[Msg], tags: list[str]
    ) -> tuple[int, int, bool | None]:
        """Rule step 4, 抠: kou_award to the capture team, kou_penalty (else the broken score) to the declarer
        team; with kou_mode "game", or a 100 bid with bid100 "game", the declarer team loses the 盘 at once.
        Returns the declarer team's score, the capture team's and the instant end (None: none)."""
        o = self.options
        capture_score = o.kou_award[kou]
        declarer_score = o.kou_penalty.get(kou, broken_score)
        tags.append("抠手" if kou == "side" else "抠底")
        params = {"kind": Msg(key=f"baifen.kou.{kou}"), "award": capture_score, "penalty": signed(declarer_score)}
        steps.append(Msg(key="baifen.kou", params=params))
        instant: bool | None = None
        if o.kou_mode is KouMode.GAME:
            instant = False
            steps.append(Msg(key="baifen.kou_game"))
        elif bid == DECK_POINTS and o.bid100 is KouMode.GAME:
            instant = False
            steps.append(Msg(key="baifen.bid100_lost"))
        return declarer_score, capture_score, instant

    def _declarer_score(
        self, hand: HandInput, captured: int, made: bool, broken_score: int, steps: list[Msg], tags: list[str]
    ) -> int:
        """Rule step 2: made, +bid (clean[bid] when c = 0 and the table has it; forced: clean_forced first);
        broken, broken[bid] (else −bid)."""
        assert hand.bid is not None
        o, bid = self.options, hand.bid
        if not made:
            tags.append("破")
            steps.append(Msg(key="baifen.declarer_broken", params={"score": signed(broken_score)}))
            return broken_score
        tags.append("成")
        clean = dict(o.clean)
        if hand.forced:
            clean.update(o.clean_forced)
        if captured == 0 and bid in clean:
            tags.append("清")
            forced_clean = hand.forced and bid in o.clean_forced
            key = "baifen.declarer_clean_forced" if forced_clean else "baifen.declarer_clean"
            steps.append(Msg(key=key, params={"score": clean[bid]}))
            return clean[bid]
        steps.append(Msg(key="baifen.declarer_made", params={"score": bid}))
        return bid

    def _capture_score(self, captured: int, steps: list[Msg], tags: list[str]) -> int:
        """Rule step 3: the capture team scores c, or 100 on 翻倍 (c ≥ fanbei), made or broken."""
        if captured >= self.options.fanbei:
            tags.append("翻倍")
            steps.append(Msg(key="baifen.capture_fanbei", params={"captured": captured, "fanbei": self.options.fanbei}))
            return DECK_POINTS
        steps.append(Msg(key="baifen.capture", params={"captured": captured}))
        return captured

    def _check_bidding(self, hand: HandInput, dealer: Seat) -> None:
        assert hand.declarer is not None and hand.bid is not None
        refusal = bid_refusal(self.region, place=(hand.declarer - dealer) % 4, bid=hand.bid, forced=hand.forced)
        if refusal is not None:
            raise refusal.at_hand(hand.n)

    def _game_end(
        self, before: Deltas, deltas: Deltas, declarer: Seat, instant: bool | None, steps: list[Msg]
    ) -> GameEnd | None:
        target = self.options.target
        a, b = before[0] + deltas[0], before[1] + deltas[1]
        team_a, team_b = (0, 2), (1, 3)
        name = {team_a: TeamName(seats=team_a), team_b: TeamName(seats=team_b)}
        steps.append(
            Msg(key="baifen.pot", params={"team_a": name[team_a], "a": minus(a), "team_b": name[team_b], "b": minus(b)})
        )
        declaring = (declarer % 2, declarer % 2 + 2)
        capturing = ((declarer + 1) % 2, (declarer + 1) % 2 + 2)
        if instant is not None:
            return GameEnd(winners=declaring if instant else capturing, how=GameEndHow.INSTANT)
        if max(a, b) >= target:
            if a == b:
                steps.append(Msg(key="baifen.tie_target", params={"target": target}))
                return None
            winner = team_a if a > b else team_b
            steps.append(Msg(key="baifen.target", params={"team": name[winner], "target": target}))
            return GameEnd(winners=winner, how=GameEndHow.TARGET)
        if min(a, b) <= -target:
            if a == b:
                steps.append(Msg(key="baifen.tie_backdoor", params={"target": target}))
                return None
            loser, winner = (team_a, team_b) if a < b else (team_b, team_a)
            steps.append(
                Msg(key="baifen.backdoor", params={"team": name[loser], "winner": name[winner], "target": target})
            )
            return GameEnd(winners=winner, how=GameEndHow.BACKDOOR)
        return None


@dataclass(kw_only=True)
class ClassicTable(StatelessTable):
    options: ClassicOptions

    def play(self, hand: HandInput, ctx: Context) -> HandResult:
        """One hand, as the rule file's steps: made or broken, the multiple, A = m × stake and who pays it."""
        dealer = hand.dealer if hand.dealer is not None else ctx.default_dealer
        if hand.redeal is not None:
            return _redeal(hand, dealer, ctx.players, tuple(RedealReason))
        hand.require("declarer", "bid", "partner", "captured")
        assert hand.declarer is not None and hand.bid is not None
        o = self.options
        declarer, partner = hand.declarer, hand.partner
        bid = _check_bid_range(hand, o.min_bid)
        if partner == declarer:
            raise hand.error("partner.is_declarer", "partner")
        captured = _captured(hand)
        steps: list[Msg] = []
        tags: list[str] = []
        made = self._made(bid, captured, steps)
        outcome, won, multiple, why = _multiple(bid, captured, made, hand.kou_di, tags, steps)
        amount = multiple * o.stake
        params = {"m": multiple, "why": Msg(key=f"classic.why.{why}"), "stake": o.stake, "amount": amount}
        steps.append(Msg(key="classic.multiple", params=params))
        return HandResult(
            status=HandStatus.SCORED,
            dealer=dealer,
            declarer=declarer,
            outcome=outcome,
            tags=tuple(tags),
            declarer_won=won,
            deltas=_classic_pay(declarer, partner, won, amount, ctx.players, steps),
            steps=tuple(steps),
            next_dealer=NEXT_SEAT.after_scored(dealer=dealer, declarer=declarer, won=won, players=ctx.players),
        )

    def _made(self, bid: int, captured: int, steps: list[Msg]) -> bool:
        """Rule step 1: broken when c ≥ 100 − bid (c > 100 − bid with exact_hundred "made"); a 100 bid is made
        exactly when c = 0."""
        if bid == DECK_POINTS:
            return _hundred_made(captured, steps)
        limit = DECK_POINTS - bid
        exact_broken = self.options.exact_hundred is ExactHundred.BROKEN
        made = captured < limit if exact_broken else captured <= limit
        if made:
            key = "classic.made" if exact_broken else "classic.made_exact"
        else:
            key = "classic.broken" if exact_broken else "classic.broken_exact"
        steps.append(Msg(key=key, params={"bid": bid, "captured": captured, "limit": limit}))
        return made


def _hundred_made(captured: int, steps: list[Msg]) -> bool:
    """A 100 bid is made exactly when the capture side took nothing (regional and classic alike)."""
    made = captured == 0
    steps.append(
        Msg(key="baifen.hundred_made") if made else Msg(key="baifen.hundred_broken", params={"captured": captured})
    )
    return made


def _multiple(
    bid: int, captured: int, made: bool, kou_di: bool, tags: list[str], steps: list[Msg]
) -> tuple[Outcome, bool, int, str]:
    """Classic rule step 2: made 2 when c = 0 else 1, but a made hand with 抠底 is lost at 2; broken 2 with 抠底
    else 1; a 100 bid 8 whatever the outcome. Returns the outcome, whether the declarer side won, m and why."""
    if made and kou_di:
        outcome, won, multiple, why = Outcome.KOU, False, 2, "kou"
        tags.append("抠底")
        steps.append(Msg(key="classic.kou"))
    elif made:
        outcome, won = Outcome.MADE, True
        multiple, why = (2, "clean") if captured == 0 else (1, "plain")
        tags.append("成")
        if captured == 0:
            tags.append("清")
    else:
        outcome, won = Outcome.BROKEN, False
        multiple, why = (2, "kou") if kou_di else (1, "plain")
        tags.append("破")
        if kou_di:
            tags.append("抠底")
    if bid == DECK_POINTS:
        multiple, why = 8, "hundred"
    return outcome, won, multiple, why


def _classic_pay(
    declarer: Seat, partner: Seat | None, won: bool, amount: int, players: int, steps: list[Msg]
) -> Deltas:
    """Classic rule step 3: each opponent pays or receives A and the declarer side takes or pays the sum in equal
    shares: 2 v 2 ±A each, 1 v 3 ±3A; with six players 2 v 4 ±2A each, 1 v 5 ±5A."""
    sign = 1 if won else -1
    side = (declarer,) if partner is None else (declarer, partner)
    opponents = players - len(side)
    share = opponents * amount // len(side)
    size = "" if players == 4 else f"_{players}"
    if partner is None:
        key = ("classic.alone_won" if won else "classic.alone_lost") + size
        steps.append(Msg(key=key, params={"a": amount, "total": share}))
    else:
        key = ("classic.two_v_two_won" if won else "classic.two_v_two_lost") + size
        steps.append(Msg(key=key, params={"a": amount, "share": share}))
    return tuple(sign * share if seat in side else -sign * amount for seat in range(players))


REGIONAL_FIELDS = frozenset({"dealer", "declarer", "bid", "captured", "kou", "forced", "redeal"})
CLASSIC_FIELDS = frozenset({"dealer", "declarer", "bid", "captured", "kou_di", "partner", "redeal"})


def _regional(region: Region, presets: Mapping[str, Mapping[str, object]]) -> Variant:
    zh, en = REGION_NAMES[region]
    return Variant(
        key=f"baifen.{region}",
        name={"zh-Hans": f"打百分（{zh}）", "en": f"Baifen ({en})"},
        unit="分",
        deck_points=DECK_POINTS,
        zero_sum=False,
        player_counts=frozenset({4}),
        hand_fields=REGIONAL_FIELDS,
        defaults=lambda players: PRESET_DEFAULTS[region],
        presets=presets,
        new_table=lambda options, players: RegionalTable(region=region, options=options),
        option_texts="baifen",
        rotation=NEXT_SEAT,
        bids=lambda options, players: regional_bids(region),
        redeal_reasons=lambda options: REGIONS[region].redeal_reasons,
    )


BENXI = _regional(Region.BENXI, {"本溪 205": {}, "本溪 300": {"target": 300}})
FUSHUN = _regional(Region.FUSHUN, {"抚顺 300": {}, "抚顺 500": {"target": 500}})
SHENYANG = _regional(Region.SHENYANG, {"沈阳 250": {}})
CLASSIC = Variant(
    key="baifen.classic",
    name={"zh-Hans": "打百分（找朋友）", "en": "Baifen (friend card)"},
    unit="注",
    deck_points=DECK_POINTS,
    zero_sum=True,
    player_counts=frozenset({4, 6}),
    default_players=4,  # six is the rarer table (seed 001: 也有6人的)
    hand_fields=CLASSIC_FIELDS,
    defaults=lambda players: ClassicOptions(),
    presets={"经典": {}},
    new_table=lambda options, players: ClassicTable(options=options),
    option_texts="classic",
    rotation=NEXT_SEAT,
    bids=lambda options, players: bids_everywhere(options.min_bid, DECK_POINTS, players),
)
