"""Every threshold of the rule files, exactly at it and one step (5 points) either side.

Each row is worked by hand from /work/shared/rules/<variant>.md; the arithmetic is in the row's comment.
The other test modules cover each rule's ordinary cases; this one is where an off-by-one at a line
(`<` for `<=`, `>` for `>=`) must show up.
"""

from __future__ import annotations

from typing import Any

import pytest

from settlement.rules.base import RulesError

from .helpers import settle, settle_hand


def _bf(declarer: int, bid: int, captured: int, **extra: Any) -> dict[str, Any]:
    """A 打百分 hand whose declarer is also the dealer (place 0: no place rule applies)."""
    return {"dealer": declarer, "declarer": declarer, "bid": bid, "captured": captured, **extra}


# ---------------------------------------------------------------- 打百分: made / broken, 翻倍 (baifen.md 1–3)

# 本溪, declarer seat 0 (team A). (bid, captured, options) -> (A, B, outcome)
BAIFEN_HAND_LINES = [
    # made when bid + c ≤ 100
    pytest.param(80, 15, {}, (80, 15, "made"), id="80+15=95<100 made"),
    pytest.param(80, 20, {}, (80, 20, "made"), id="80+20=100 made"),
    pytest.param(80, 25, {}, (-80, 25, "broken"), id="80+25=105>100 broken"),
    # exact_hundred "broken": bid + c = 100 is broken too
    pytest.param(80, 15, {"exact_hundred": "broken"}, (80, 15, "made"), id="eh-broken 95 made"),
    pytest.param(80, 20, {"exact_hundred": "broken"}, (-80, 20, "broken"), id="eh-broken 100 broken"),
    # a 100 bid is made exactly when c = 0: clean 100→300, broken 100→−200
    pytest.param(100, 0, {}, (300, 0, "made"), id="100+0 made clean 300"),
    pytest.param(100, 5, {}, (-200, 5, "broken"), id="100+5 broken -200"),
    # clean table only at c = 0: 90 c 0 → 200; 90 c 5 → +90
    pytest.param(90, 0, {}, (200, 0, "made"), id="90 c0 clean 200"),
    pytest.param(90, 5, {}, (90, 5, "made"), id="90 c5 +bid"),
    # 翻倍 when c ≥ fanbei (50): counts 100
    pytest.param(80, 45, {}, (-80, 45, "broken"), id="c45<50 no fanbei"),
    pytest.param(80, 50, {}, (-80, 100, "broken"), id="c50=50 fanbei 100"),
    pytest.param(80, 55, {}, (-80, 100, "broken"), id="c55>50 fanbei 100"),
    pytest.param(80, 35, {"fanbei": 40}, (-80, 35, "broken"), id="fanbei40 c35 no"),
    pytest.param(80, 40, {"fanbei": 40}, (-80, 100, "broken"), id="fanbei40 c40 yes"),
]


@pytest.mark.parametrize(("bid", "captured", "options", "expected"), BAIFEN_HAND_LINES)
def test_baifen_hand_lines(bid, captured, options, expected):
    hand = settle_hand("baifen.benxi", _bf(0, bid, captured), options=options or None)
    a, b, outcome = expected
    assert (hand["deltas"], hand["outcome"]) == ([a, b, a, b], outcome)
    assert ("翻倍" in hand["tags"]) is (b == 100)


# ---------------------------------------------------------------- 打百分: 出锅 / 后门走 (baifen.md "The 盘")

ONE_A_80_20 = [_bf(0, 80, 20)]  # A made 80: A +80, B +20
ONE_A_85_20 = [_bf(0, 85, 20)]  # A broken 85: A −85, B +20
ONE_A_80_50 = [_bf(0, 80, 50)]  # A broken 80, 翻倍: A −80, B +100
TWO_TIED_100 = [_bf(0, 80, 20), _bf(1, 80, 20)]  # 80 : 20, then B made 80 → 100 : 100
TWO_95_100 = [_bf(0, 80, 20), _bf(1, 80, 15)]  # 80 : 20, then B made 80 c 15 → 95 : 100
KOU_BOTH = {"kou_penalty": {"side": -50}, "kou_award": {"side": -50, "trump": 0, "joker": 0}}
KOU_BOTH_45 = {"kou_penalty": {"side": -50}, "kou_award": {"side": -45, "trump": 0, "joker": 0}}
ONE_KOU = [_bf(0, 85, 0, kou="side")]  # with a negative award: A −50, B −50 (or −45)

# (hands, options) -> (winners, how) of game 1, or None when it plays on
POT_LINES = [
    # 出锅 at TA ≥ target: A ends on 80
    pytest.param(ONE_A_80_20, {"target": 75}, ([0, 2], "target"), id="A80>=target75 wins"),
    pytest.param(ONE_A_80_20, {"target": 80}, ([0, 2], "target"), id="A80>=target80 wins"),
    pytest.param(ONE_A_80_20, {"target": 85}, None, id="A80<target85 plays on"),
    # 后门走 at TA ≤ −target: A ends on −85, B on 20
    pytest.param(ONE_A_85_20, {"target": 80}, ([1, 3], "backdoor"), id="A-85<=-80 backdoor"),
    pytest.param(ONE_A_85_20, {"target": 85}, ([1, 3], "backdoor"), id="A-85<=-85 backdoor"),
    pytest.param(ONE_A_85_20, {"target": 90}, None, id="A-85>-90 plays on"),
    # 出锅 is checked before 后门走: B 100 ≥ 80 and A −80 ≤ −80 → B wins by target, not back door
    pytest.param(ONE_A_80_50, {"target": 80}, ([1, 3], "target"), id="B100>=80 and A-80<=-80 target first"),
    pytest.param(ONE_A_80_50, {"target": 100}, ([1, 3], "target"), id="B100>=100 target"),
    pytest.param(ONE_A_80_50, {"target": 105}, None, id="B100<105 A-80>-105 plays on"),
    # both ≥ target and equal: play on; one step apart: the higher wins
    pytest.param(TWO_TIED_100, {"target": 100}, None, id="100:100 tie at target plays on"),
    pytest.param(TWO_TIED_100, {"target": 95}, None, id="100:100 tie over target plays on"),
    pytest.param(TWO_95_100, {"target": 100}, ([1, 3], "target"), id="95:100 target100 B wins"),
    pytest.param(TWO_95_100, {"target": 95}, ([1, 3], "target"), id="95:100 both>=95 higher B wins"),
    # both ≤ −target and equal: play on; one step apart: the lower loses
    pytest.param(ONE_KOU, {"target": 50, **KOU_BOTH}, None, id="-50:-50 tie at -target plays on"),
    pytest.param(ONE_KOU, {"target": 50, **KOU_BOTH_45}, ([1, 3], "backdoor"), id="-50:-45 A lower loses"),
    pytest.param(ONE_KOU, {"target": 55, **KOU_BOTH_45}, None, id="-50:-45 target55 plays on"),
]


@pytest.mark.parametrize(("hands", "options", "expected"), POT_LINES)
def test_baifen_pot_lines(hands, options, expected):
    game = settle("baifen.benxi", hands, options=options)["games"][0]
    if expected is None:
        assert (game["finished"], game["winners"], game["how"]) == (False, [], None)
    else:
        assert (game["finished"], game["winners"], game["how"]) == (True, *expected)


# The receipt's last two lines state the 盘 score and the line it crossed (message table of baifen.py,
# team names 甲·丙 = seats 0 + 2, 乙·丁 = 1 + 3), and the instant ends name the declaring team whatever
# its seat; a team B that falls to −target loses as team A does.
POT_RECEIPTS = [
    pytest.param(
        ONE_A_80_20, {"target": 80}, ["盘分 甲·丙 80 : 乙·丁 20", "甲·丙达到 80：出锅，甲·丙胜"], id="A 80 target"
    ),
    # B declares 85 and breaks with 20 captured: A +20, B −85
    pytest.param(
        [_bf(1, 85, 20)],
        {"target": 85},
        ["盘分 甲·丙 20 : 乙·丁 −85", "乙·丁跌到 −85：后门走，甲·丙胜"],
        id="B -85 backdoor",
    ),
    pytest.param(
        ONE_A_85_20,
        {"target": 85},
        ["盘分 甲·丙 −85 : 乙·丁 20", "甲·丙跌到 −85：后门走，乙·丁胜"],
        id="A -85 backdoor",
    ),
    pytest.param(
        TWO_TIED_100, {"target": 100}, ["盘分 甲·丙 100 : 乙·丁 100", "两队同分且都到 100：继续"], id="tie 100"
    ),
    pytest.param(
        ONE_KOU, {"target": 50, **KOU_BOTH}, ["盘分 甲·丙 −50 : 乙·丁 −50", "两队同分且都到 −50：继续"], id="tie -50"
    ),
]


@pytest.mark.parametrize(("hands", "options", "lines"), POT_RECEIPTS)
def test_baifen_pot_lines_in_the_receipt(hands, options, lines):
    assert settle("baifen.benxi", hands, options=options)["hands"][-1]["steps"][-2:] == lines


@pytest.mark.parametrize(
    ("hands", "options", "winners"),
    [
        # B loses at −target: B declares 85, broken: A +20, B −85 ≤ −85
        pytest.param([_bf(1, 85, 20)], {"target": 85}, [0, 2], id="B -85 backdoor A wins"),
        # a made 100 (bid100 "game") wins for the declaring team, seat 2 or 3 alike
        pytest.param([_bf(2, 100, 0)], {"bid100": "game", "target": 500}, [0, 2], id="seat2 100 made A wins"),
        pytest.param([_bf(3, 100, 0)], {"bid100": "game", "target": 500}, [1, 3], id="seat3 100 made B wins"),
        # a 抠 under kou_mode "game" loses for the declaring team
        pytest.param([_bf(2, 80, 0, kou="side")], {"kou_mode": "game"}, [1, 3], id="seat2 kou B wins"),
        pytest.param([_bf(3, 80, 0, kou="side")], {"kou_mode": "game"}, [0, 2], id="seat3 kou A wins"),
    ],
)
def test_baifen_game_ends_name_the_right_team(hands, options, winners):
    assert settle("baifen.benxi", hands, options=options)["games"][0]["winners"] == winners


# ---------------------------------------------------------------- 打百分: bid bands (baifen.md bidding table)

# (region, dealer, declarer, bid, forced) -> None when allowed, else the refusal code
BAIFEN_BIDS = [
    pytest.param("benxi", 0, 0, 75, False, "bid.out_of_range", id="benxi 75<80"),
    pytest.param("benxi", 0, 0, 80, False, None, id="benxi 80 lowest"),
    pytest.param("benxi", 0, 0, 100, False, None, id="benxi 100 highest"),
    pytest.param("benxi", 0, 0, 105, False, "bid.out_of_range", id="benxi 105>100"),
    pytest.param("benxi", 0, 2, 80, False, "bid.place_minimum", id="benxi p2 80<85"),
    pytest.param("benxi", 0, 2, 85, False, None, id="benxi p2 85"),
    pytest.param("benxi", 0, 3, 80, False, "bid.place_minimum", id="benxi p3 80<85"),
    pytest.param("benxi", 0, 3, 85, False, None, id="benxi p3 85"),
    pytest.param("benxi", 0, 1, 80, False, None, id="benxi p1 80 no place rule"),
    pytest.param("benxi", 0, 3, 85, True, "forced.bid", id="benxi forced 85<90"),
    pytest.param("benxi", 0, 3, 90, True, None, id="benxi forced 90"),
    pytest.param("fushun", 0, 0, 80, False, "bid.forced_only", id="fushun 80 unforced"),
    pytest.param("fushun", 0, 0, 85, False, None, id="fushun 85"),
    pytest.param("fushun", 0, 0, 80, True, None, id="fushun forced 80"),
    pytest.param("fushun", 0, 0, 75, True, "bid.out_of_range", id="fushun forced 75"),
    pytest.param("shenyang", 0, 0, 75, False, "bid.out_of_range", id="shenyang 75<80"),
    pytest.param("shenyang", 0, 3, 80, False, None, id="shenyang p3 80"),
]


@pytest.mark.parametrize(("region", "dealer", "declarer", "bid", "forced", "code"), BAIFEN_BIDS)
def test_baifen_bid_bands(region, dealer, declarer, bid, forced, code):
    hand = {"dealer": dealer, "declarer": declarer, "bid": bid, "captured": 0}
    if forced:
        hand["forced"] = True
    if code is None:
        assert settle_hand(f"baifen.{region}", hand)["status"] == "scored"
    else:
        with pytest.raises(RulesError) as caught:
            settle_hand(f"baifen.{region}", hand)
        assert caught.value.code == code


# classic (declarer 0, partner 2; m × stake each): broken when c ≥ 100 − bid; bids from min_bid (45)
CLASSIC_LINES = [
    pytest.param(60, 35, {}, [1, -1, 1, -1], id="60: c35<40 made m1"),
    pytest.param(60, 40, {}, [-1, 1, -1, 1], id="60: c40>=40 broken m1"),
    pytest.param(60, 40, {"exact_hundred": "made"}, [1, -1, 1, -1], id="eh-made 60: c40 made"),
    pytest.param(60, 45, {"exact_hundred": "made"}, [-1, 1, -1, 1], id="eh-made 60: c45 broken"),
    pytest.param(60, 0, {}, [2, -2, 2, -2], id="60: c0 made m2"),
    pytest.param(60, 5, {}, [1, -1, 1, -1], id="60: c5 made m1"),
    pytest.param(100, 0, {}, [8, -8, 8, -8], id="100: c0 made m8"),
    pytest.param(100, 5, {}, [-8, 8, -8, 8], id="100: c5 broken m8"),
    pytest.param(45, 50, {}, [1, -1, 1, -1], id="45: c50<55 made"),
    pytest.param(45, 55, {}, [-1, 1, -1, 1], id="45: c55>=55 broken"),
]


@pytest.mark.parametrize(("bid", "captured", "options", "deltas"), CLASSIC_LINES)
def test_classic_lines(bid, captured, options, deltas):
    hand = {"dealer": 0, "declarer": 0, "partner": 2, "bid": bid, "captured": captured}
    assert settle_hand("baifen.classic", hand, options=options or None)["deltas"] == deltas


# classic receipts, each line worked from baifen.md's classic steps 1–3 (stake 1, declarer 0):
# step 1 made or broken, 抠底 on a made hand says so, step 2 the multiple and why, step 3 who pays A.
CLASSIC_RECEIPTS = [
    # 60 + 35 < 100 made, but 抠底: lost at m 2, A = 2; 2 v 2: declarer and partner −2
    pytest.param(
        {"declarer": 0, "partner": 2, "bid": 60, "captured": 35, "kou_di": True},
        [
            "叫分 60，抓分 35 < 40：成",
            "成，但抓分方抠底：庄家方输",
            "倍数 2（抠底）× 注 1 = 2",
            "庄家、朋家各 −2，另两家各 +2",
        ],
        id="made but kou_di 2v2",
    ),
    # 60 + 40 ≥ 100 broken with 抠底: m 2, A = 2; alone: −3 × 2 = −6
    pytest.param(
        {"declarer": 0, "partner": None, "bid": 60, "captured": 40, "kou_di": True},
        ["叫分 60，抓分 40 ≥ 40：破", "倍数 2（抠底）× 注 1 = 2", "庄家一打三：−6，其余各 +2"],
        id="broken kou_di alone",
    ),
    # c = 0 made clean: m 2, alone +6
    pytest.param(
        {"declarer": 0, "partner": None, "bid": 60, "captured": 0},
        ["叫分 60，抓分 0 < 40：成", "倍数 2（没丢分）× 注 1 = 2", "庄家一打三：+6，其余各 −2"],
        id="clean alone",
    ),
    # a 100 bid is made exactly at c = 0, m 8 whatever; 2 v 2 +8 each
    pytest.param(
        {"declarer": 0, "partner": 2, "bid": 100, "captured": 0},
        ["叫 100，抓分 0：成", "倍数 8（叫 100）× 注 1 = 8", "庄家、朋家各 +8，另两家各 −8"],
        id="100 made 2v2",
    ),
    # a 100 bid with c 5 is broken, m 8: 2 v 2 −8 each
    pytest.param(
        {"declarer": 0, "partner": 2, "bid": 100, "captured": 5},
        ["叫 100，抓分 5 > 0：破", "倍数 8（叫 100）× 注 1 = 8", "庄家、朋家各 −8，另两家各 +8"],
        id="100 broken 2v2",
    ),
]


@pytest.mark.parametrize(("hand", "lines"), CLASSIC_RECEIPTS)
def test_classic_receipt_lines(hand, lines):
    assert settle_hand("baifen.classic", {"dealer": 0, **hand})["steps"] == lines


@pytest.mark.parametrize(
    ("bid", "options", "allowed"),
    [
        pytest.param(40, {}, False, id="40<45"),
        pytest.param(45, {}, True, id="45=min"),
        pytest.param(55, {"min_bid": 60}, False, id="min60: 55"),
        pytest.param(60, {"min_bid": 60}, True, id="min60: 60"),
    ],
)
def test_classic_min_bid_line(bid, options, allowed):
    hand = {"dealer": 0, "declarer": 0, "partner": 2, "bid": bid, "captured": 0}
    if allowed:
        assert settle_hand("baifen.classic", hand, options=options or None)["status"] == "scored"
    else:
        with pytest.raises(RulesError):
            settle_hand("baifen.classic", hand, options=options or None)


# ---------------------------------------------------------------- 标分: 庄胜 / 打宕, 55, 小光 / 大光, 档 edges

# Declarer 0; each row gives the per-边家 figure x: 庄胜 → [3x, −x, −x, −x] (4 players), 打宕 → [−3x, x, x, x].
# 4 players, thresholds n, n+40, n+70, n+90, +20 …; n = 60 → 60, 100, 130, 150, 170, 190.
BIAOFEN_LINES = [
    pytest.param(60, 55, False, 2, id="n60 s55<60 win base 2"),
    pytest.param(60, 60, False, -1, id="n60 s60 down k1"),
    pytest.param(60, 65, False, -1, id="n60 s65 k1"),
    pytest.param(60, 35, False, 2, id="n60 s35>30 no xiaoguang"),
    pytest.param(60, 30, False, 3, id="n60 s30<=30 xiaoguang 2+1"),
    pytest.param(60, 25, False, 3, id="n60 s25 xiaoguang"),
    pytest.param(60, 5, False, 3, id="n60 s5 xiaoguang not daguang"),
    pytest.param(60, 0, False, 5, id="n60 s0 daguang 2+3"),
    pytest.param(55, 30, False, 2, id="n55 s30>27.5 base 2"),
    pytest.param(55, 25, False, 3, id="n55 s25<=27.5 xiaoguang"),
    pytest.param(55, 50, False, 2, id="n55>=55 base 2"),
    pytest.param(50, 45, False, 3, id="n50<55 base 3"),
    pytest.param(60, 95, False, -1, id="n60 s95<100 k1"),
    pytest.param(60, 100, False, -2, id="n60 s100 k2"),
    pytest.param(60, 105, False, -2, id="n60 s105 k2"),
    pytest.param(60, 125, False, -2, id="n60 s125<130 k2"),
    pytest.param(60, 130, False, -3, id="n60 s130 k3"),
    pytest.param(60, 145, False, -3, id="n60 s145<150 k3"),
    pytest.param(60, 150, False, -4, id="n60 s150 k4"),
    pytest.param(60, 165, False, -4, id="n60 s165<170 k4"),
    pytest.param(60, 170, False, -5, id="n60 s170 k5"),
    pytest.param(60, 190, False, -6, id="n60 s190 k6"),
    # 底牌无主 on 打宕: 1 less, never below 0: k1 → 0, k2 → 1
    pytest.param(60, 60, True, 0, id="no-trump n60 s60 k1-1=0"),
    pytest.param(60, 100, True, -1, id="no-trump n60 s100 k2-1=1"),
    pytest.param(60, 55, True, 2, id="no-trump win unchanged"),
]


@pytest.mark.parametrize(("bid", "captured", "no_trump", "x"), BIAOFEN_LINES)
def test_biaofen_lines(bid, captured, no_trump, x):
    hand = {"dealer": 0, "declarer": 0, "bid": bid, "captured": captured}
    if no_trump:
        hand["no_trump_bottom"] = True
    result = settle_hand("biaofen", hand)
    assert result["deltas"] == [3 * x, -x, -x, -x]
    assert result["outcome"] == ("declarer_won" if captured < bid else "declarer_lost")


# 3 players: thresholds n, n+30, n+50, +20 …; n = 60 → 60, 90, 110, 130. Declarer pays each of two 边家 k.
@pytest.mark.parametrize(
    ("captured", "k"),
    [
        pytest.param(85, 1, id="s85<90 k1"),
        pytest.param(90, 2, id="s90 k2"),
        pytest.param(105, 2, id="s105<110 k2"),
        pytest.param(110, 3, id="s110 k3"),
        pytest.param(125, 3, id="s125<130 k3"),
        pytest.param(130, 4, id="s130 k4"),
    ],
)
def test_biaofen_three_player_dang_edges(captured, k):
    hand = settle_hand("biaofen", {"dealer": 0, "declarer": 0, "bid": 60, "captured": captured}, players=3)
    assert hand["deltas"] == [-2 * k, k, k]


@pytest.mark.parametrize(
    ("hand", "deltas"),
    [
        # s = 40 + 2 × 10 = 60 = n → 打宕 k1; without kou_di the bottom stays with the declarer: s 40 → 庄胜 2
        pytest.param({"captured": 40, "bottom_points": 10, "kou_di": True}, [-3, 1, 1, 1], id="kou s40+2x10=60"),
        pytest.param({"captured": 40, "bottom_points": 10}, [6, -2, -2, -2], id="no kou s40<60"),
        pytest.param({"captured": 35, "bottom_points": 10, "kou_di": True}, [6, -2, -2, -2], id="kou s35+20=55"),
        # 投降: 2 when n ≥ 55, else 3
        pytest.param({"bid": 55, "surrender": True}, [-6, 2, 2, 2], id="surrender n55 pays 2"),
        pytest.param({"bid": 50, "surrender": True}, [-9, 3, 3, 3], id="surrender n50 pays 3"),
    ],
)
def test_biaofen_bottom_and_surrender_lines(hand, deltas):
    full = {"dealer": 0, "declarer": 0, "bid": 60, **hand}
    assert settle_hand("biaofen", full)["deltas"] == deltas


@pytest.mark.parametrize(
    ("bid", "allowed"),
    [
        pytest.param(0, False, id="0<5"),
        pytest.param(5, True, id="5 lowest"),
        pytest.param(80, True, id="80 highest"),
        pytest.param(85, False, id="85>80"),
    ],
)
def test_biaofen_bid_band(bid, allowed):
    _assert_bid_band("biaofen", {"dealer": 0, "declarer": 0, "bid": bid, "captured": 0}, allowed)


def _assert_bid_band(variant, hand, allowed):
    """The hand is scored when its bid is inside the variant's band, refused when it is not."""
    if allowed:
        assert settle_hand(variant, hand)["status"] == "scored"
    else:
        with pytest.raises(RulesError):
            settle_hand(variant, hand)


# ---------------------------------------------------------------- 打二鬼: D = 0, 光头, 包场 lines, bids

# Declarer 0. (bid, contract, partner, c) -> deltas, worked from erguai.md steps 1–6.
ERGUAI_LINES = [
    pytest.param(80, "plain", 2, 15, [5, -5, 5, -5], id="D=80+15-100=-5 xian lose 5"),
    pytest.param(80, "plain", 2, 20, [0, 0, 0, 0], id="D=0 even"),
    pytest.param(80, "plain", 2, 25, [-5, 5, -5, 5], id="D=5 declarer side loses 5"),
    pytest.param(80, "plain", None, 20, [0, 0, 0, 0], id="1v3 D=0 even"),
    pytest.param(80, "plain", None, 25, [-15, 5, 5, 5], id="1v3 D=5 declarer -3x5"),
    pytest.param(80, "plain", 2, 5, [15, -15, 15, -15], id="c5 D=-15 not guangtou"),
    pytest.param(80, "plain", 2, 0, [50, -50, 50, -50], id="c0 guangtou 50"),
    # 包场 bids 80–95: c > 40
    pytest.param(80, "plain", 2, 35, [-15, 15, -15, 15], id="80 c35 D15 no baochang"),
    pytest.param(80, "plain", 2, 40, [-20, 20, -20, 20], id="80 c40 D20 not >40"),
    pytest.param(80, "plain", 2, 45, [-50, 25, 0, 25], id="80 c45>40 baochang 2x25"),
    pytest.param(95, "plain", 2, 40, [-35, 35, -35, 35], id="95 c40 D35 not >40"),
    pytest.param(95, "plain", 2, 45, [-80, 40, 0, 40], id="95 c45 D40 baochang 2x40"),
    # 100 plain: c > 30
    pytest.param(100, "plain", 2, 25, [-25, 25, -25, 25], id="100 c25 D25"),
    pytest.param(100, "plain", 2, 30, [-30, 30, -30, 30], id="100 c30 not >30"),
    pytest.param(100, "plain", 2, 35, [-70, 35, 0, 35], id="100 c35>30 baochang 2x35"),
    # 爆 ×2, 喜金 10 from each other; c > 0 is 包场
    # c0: 光头 50×2 = 100: declarer 100+30, partner 100−10, 闲 −100−10
    pytest.param(100, "bao", 2, 0, [130, -110, 90, -110], id="bao c0 guangtou 100 + xijin"),
    # c5: D 5, A 10, 包场: declarer −20+30 = 10, partner 0−10, 闲 +10−10
    pytest.param(100, "bao", 2, 5, [10, 0, -10, 0], id="bao c5>0 baochang 2x10 + xijin"),
    # 鉤 ×4, 喜金 20; c5: D 5, A 20, 包场: declarer −40+60 = 20, partner −20, 闲 20−20
    pytest.param(100, "gou", 2, 5, [20, 0, -20, 0], id="gou c5>0 baochang 2x20 + xijin"),
]


@pytest.mark.parametrize(("bid", "contract", "partner", "captured", "deltas"), ERGUAI_LINES)
def test_erguai_lines(bid, contract, partner, captured, deltas):
    hand = {"dealer": 0, "declarer": 0, "bid": bid, "contract": contract, "partner": partner, "captured": captured}
    assert settle_hand("erguai", hand)["deltas"] == deltas


@pytest.mark.parametrize(
    ("captured", "outcome", "receipt"),
    [
        pytest.param(15, "declarer_won", "D = −5 < 0：闲家各输 5", id="D-5 won"),
        pytest.param(20, "even", "D = 0：不输赢", id="D0 even"),
        pytest.param(25, "declarer_lost", "D = 5 > 0：庄家方各输 5", id="D5 lost"),
    ],
)
def test_erguai_d_zero_line_in_the_receipt(captured, outcome, receipt):
    hand = {"dealer": 0, "declarer": 0, "bid": 80, "partner": 2, "captured": captured}
    result = settle_hand("erguai", hand)
    assert result["outcome"] == outcome
    assert receipt in result["steps"]


@pytest.mark.parametrize(
    ("bid", "contract", "allowed"),
    [
        pytest.param(75, "plain", False, id="75<80"),
        pytest.param(80, "plain", True, id="80 lowest"),
        pytest.param(100, "plain", True, id="100 highest"),
        pytest.param(105, "plain", False, id="105>100"),
        pytest.param(95, "bao", False, id="bao needs 100"),
        pytest.param(100, "bao", True, id="bao at 100"),
    ],
)
def test_erguai_bid_band(bid, contract, allowed):
    hand = {"dealer": 0, "declarer": 0, "bid": bid, "contract": contract, "partner": 2, "captured": 10}
    _assert_bid_band("erguai", hand, allowed)


# ---------------------------------------------------------------- 红星五: every band edge of the level table

# Declarer 0 (team A), both at 2. s -> levels for the declaring team (+) or the capture team (−, 上台), 0 = 上台 only.
HONGXINGWU_BANDS = [
    pytest.param(0, 8, id="s0 +8"),
    pytest.param(5, 6, id="s5 +6"),
    pytest.param(15, 6, id="s15 +6"),
    pytest.param(20, 5, id="s20 +5"),
    pytest.param(35, 5, id="s35 +5"),
    pytest.param(40, 4, id="s40 +4"),
    pytest.param(55, 4, id="s55 +4"),
    pytest.param(60, 3, id="s60 +3"),
    pytest.param(75, 3, id="s75 +3"),
    pytest.param(80, 2, id="s80 +2"),
    pytest.param(95, 2, id="s95 +2"),
    pytest.param(100, 1, id="s100 +1"),
    pytest.param(115, 1, id="s115 +1"),
    pytest.param(120, 0, id="s120 switch (120-120)//20=0"),
    pytest.param(135, 0, id="s135 switch 15//20=0"),
    pytest.param(140, -1, id="s140 capture +1"),
    pytest.param(155, -1, id="s155 capture +1"),
    pytest.param(160, -2, id="s160 capture +2"),
]


def _level_outcome(k: int) -> tuple[str, list[int], int]:
    if k > 0:
        return "declarer_up", [k, 0, k, 0], 2
    if k == 0:
        return "switch", [0, 0, 0, 0], 1
    return "capture_up", [0, -k, 0, -k], 1


@pytest.mark.parametrize(("s", "k"), HONGXINGWU_BANDS)
def test_hongxingwu_bands(s, k):
    hand = settle_hand("hongxingwu", {"declarer": 0, "captured": s})
    assert (hand["outcome"], hand["deltas"], hand["next_declarer"]) == _level_outcome(k)


# capture_base 1 (no dead zone): at switch the capture team gains 1 + (s − 120) // 20
NO_DEAD_ZONE = {
    "up": [[0, 8], [5, 6], [20, 5], [40, 4], [60, 3], [80, 2], [100, 1]],
    "switch": 120,
    "step": 20,
    "capture_base": 1,
}


@pytest.mark.parametrize(
    ("hand", "k", "options"),
    [
        pytest.param({"captured": 115}, 1, NO_DEAD_ZONE, id="base1 s115 declarer +1"),
        pytest.param({"captured": 120}, -1, NO_DEAD_ZONE, id="base1 s120 capture 1+0"),
        pytest.param({"captured": 135}, -1, NO_DEAD_ZONE, id="base1 s135 capture 1+0"),
        pytest.param({"captured": 140}, -2, NO_DEAD_ZONE, id="base1 s140 capture 1+1"),
        # s = 100 + 10 × 2 = 120 with 抠底 → 上台; 95 + 10 × 2 = 115 → +1
        pytest.param(
            {"captured": 100, "bottom_points": 10, "kou_di": True, "bottom_multiplier": 2},
            0,
            None,
            id="kou 100+10x2=120 switch",
        ),
        pytest.param(
            {"captured": 95, "bottom_points": 10, "kou_di": True, "bottom_multiplier": 2},
            1,
            None,
            id="kou 95+10x2=115 +1",
        ),
    ],
)
def test_hongxingwu_bands_with_a_club_table_and_the_bottom(hand, k, options):
    result = settle_hand("hongxingwu", {"declarer": 0, **hand}, options={"level_table": options} if options else None)
    assert (result["outcome"], result["deltas"], result["next_declarer"]) == _level_outcome(k)


# ---------------------------------------------------------------- 打滚子: 120, specials, tribute bands

# Declarer 0 (team A). Deltas per seat, worked from gunzi.md step 2–3 with J = 0.
GUNZI_LINES = [
    pytest.param({"captured": 115}, "declarer_up", [3, -3, 3, -3], id="s115<120 baodi k1 3x1"),
    pytest.param({"captured": 120}, "switch", [-1, 1, -1, 1], id="s120>=120 takeover +1"),
    pytest.param({"captured": 125}, "switch", [-1, 1, -1, 1], id="s125 takeover +1"),
    # with 抠底: s = c + 2 × bottom; < 120 → 臭抠 0; ≥ 120 → capture promoted k1, 1 + 3 = 4
    pytest.param({"captured": 100, "bottom_points": 5, "kou_di": True}, "hold", [0, 0, 0, 0], id="kou 100+10=110 hold"),
    pytest.param({"captured": 95, "bottom_points": 10, "kou_di": True}, "hold", [0, 0, 0, 0], id="kou 95+20=115 hold"),
    pytest.param(
        {"captured": 100, "bottom_points": 10, "kou_di": True},
        "capture_up",
        [-4, 4, -4, 4],
        id="kou 100+20=120 capture_up 1+3",
    ),
    # specials: s = 0 → declaring +50; s = 5 ordinary
    pytest.param({"captured": 0}, "special", [50, -50, 50, -50], id="s0 special +50"),
    pytest.param({"captured": 5}, "declarer_up", [3, -3, 3, -3], id="s5 ordinary"),
    # s ≥ 300 → capture +50: 300 without kou; 290 + 2 × 5 = 300 with it; 285 + 10 = 295 → capture_up 4
    pytest.param({"captured": 300}, "special", [-50, 50, -50, 50], id="s300 special"),
    pytest.param({"captured": 295}, "switch", [-1, 1, -1, 1], id="s295 takeover"),
    pytest.param(
        {"captured": 290, "bottom_points": 5, "kou_di": True},
        "special",
        [-50, 50, -50, 50],
        id="kou 290+10=300 special",
    ),
    pytest.param(
        {"captured": 285, "bottom_points": 5, "kou_di": True},
        "capture_up",
        [-4, 4, -4, 4],
        id="kou 285+10=295 capture_up",
    ),
    # 3 big jokers dug out with s ≥ 120 → capture +50; s 115 with them → 臭抠
    pytest.param(
        {"captured": 100, "bottom_points": 10, "kou_di": True, "bottom_jokers": {"big": 3}},
        "special",
        [-50, 50, -50, 50],
        id="3 big kou s120 special",
    ),
    pytest.param(
        {"captured": 95, "bottom_points": 10, "kou_di": True, "bottom_jokers": {"big": 3}},
        "hold",
        [0, 0, 0, 0],
        id="3 big kou s115 hold",
    ),
]


@pytest.mark.parametrize(("hand", "outcome", "deltas"), GUNZI_LINES)
def test_gunzi_lines(hand, outcome, deltas):
    result = settle_hand("gunzi", {"declarer": 0, **hand})
    assert (result["outcome"], result["deltas"]) == (outcome, deltas)


# Tribute the next hand pays (gunzi.md table), J = 0 unless given: (hand, rounding) -> T
GUNZI_TRIBUTE = [
    pytest.param({"captured": 60}, "floor", 2, id="s60 (80-60)/10=2"),
    pytest.param({"captured": 65}, "floor", 1, id="s65 15/10 floor 1"),
    pytest.param({"captured": 70}, "floor", 1, id="s70 10/10=1"),
    pytest.param({"captured": 75}, "floor", 0, id="s75 5/10 floor 0"),
    pytest.param({"captured": 75}, "ceil", 1, id="s75 5/10 ceil 1"),
    pytest.param({"captured": 80}, "floor", 0, id="s80 band 80-115 J=0"),
    pytest.param({"captured": 80}, "ceil", 0, id="s80 ceil still J=0"),
    pytest.param({"captured": 115}, "floor", 0, id="s115 J=0"),
    pytest.param({"captured": 115, "bottom_jokers": {"big": 1}}, "floor", 2, id="s115 J=2x1"),
    pytest.param({"captured": 120}, "floor", 0, id="s120 J=0"),
    pytest.param({"captured": 150}, "ceil", 0, id="s150 J=0 even ceil"),
    pytest.param({"captured": 155}, "floor", 0, id="s155 5/10 floor 0"),
    pytest.param({"captured": 155}, "ceil", 1, id="s155 5/10 ceil 1"),
    pytest.param({"captured": 160}, "floor", 1, id="s160 10/10=1"),
    pytest.param({"captured": 165}, "floor", 1, id="s165 15/10 floor 1"),
    pytest.param({"captured": 170}, "floor", 2, id="s170 20/10=2"),
]


@pytest.mark.parametrize(("hand", "rounding", "cards"), GUNZI_TRIBUTE)
def test_gunzi_tribute_bands(hand, rounding, cards):
    first = settle_hand("gunzi", {"declarer": 0, **hand}, options={"tribute_rounding": rounding})
    assert first["tribute_next"] == cards


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # s 70: team A declares on (seat 2), its 上家 seat 1 pays 1; hand 2 s 100: A +3 → [3, −3−1, 3+1, −3]
        pytest.param({"captured": 70}, [3, -4, 4, -3], id="s70 T1 seat1 pays seat2"),
        pytest.param({"captured": 75}, [3, -3, 3, -3], id="s75 T0"),
        # s 160: seat 1 takes over, its 上家 seat 0 pays 1; hand 2 s 100: B +3 → [−3−1, 3+1, −3, 3]
        pytest.param({"captured": 160}, [-4, 4, -3, 3], id="s160 T1 seat0 pays seat1"),
        pytest.param({"captured": 155}, [-3, 3, -3, 3], id="s155 T0"),
    ],
)
def test_gunzi_tribute_is_paid_in_the_next_hand(first, second):
    hands = settle("gunzi", [{"declarer": 0, **first}, {"captured": 100}])["hands"]
    assert hands[1]["deltas"] == second


# ---------------------------------------------------------------- 升级: score table edges (T 80, d 40)

# Declarer 0. z = 1 (default): ≤ 0: 3 + ⌊−s/40⌋; 5…75: ⌈(80 − s)/40⌉; ≥ 80: max(0, ⌊(s − 80)/40⌋ − z + 1).
SHENGJI_LINES = [
    pytest.param(0, 1, 3, id="s0 ceil(75/40)+1=3"),
    pytest.param(5, 1, 2, id="s5 ceil(75/40)=2"),
    pytest.param(35, 1, 2, id="s35 ceil(45/40)=2"),
    pytest.param(40, 1, 1, id="s40 ceil(40/40)=1"),
    pytest.param(45, 1, 1, id="s45 ceil(35/40)=1"),
    pytest.param(75, 1, 1, id="s75 ceil(5/40)=1"),
    pytest.param(80, 1, 0, id="z1 s80 0-1+1=0 switch"),
    pytest.param(115, 1, 0, id="z1 s115 0 switch"),
    pytest.param(120, 1, -1, id="z1 s120 1-1+1=1"),
    pytest.param(155, 1, -1, id="z1 s155 1"),
    pytest.param(160, 1, -2, id="z1 s160 2"),
    pytest.param(75, 0, 1, id="z0 s75 +1"),
    pytest.param(80, 0, -1, id="z0 s80 0-0+1=1"),
    pytest.param(115, 0, -1, id="z0 s115 1"),
    pytest.param(120, 0, -2, id="z0 s120 2"),
    pytest.param(115, 2, 0, id="z2 s115 max(0,0-2+1)=0"),
    pytest.param(155, 2, 0, id="z2 s155 1-2+1=0"),
    pytest.param(160, 2, -1, id="z2 s160 2-2+1=1"),
]


@pytest.mark.parametrize(("s", "zone", "k"), SHENGJI_LINES)
def test_shengji_score_table_edges(s, zone, k):
    hand = settle_hand("shengji", {"declarer": 0, "captured": s}, options={"dead_zone": zone})
    assert (hand["outcome"], hand["deltas"], hand["next_declarer"]) == _level_outcome(k)


# s ≤ 0 from failed throws by a capture-team seat (shuai_penalty 5: s = −5 × throws): 3 + ⌊−s/40⌋
@pytest.mark.parametrize(
    ("throws", "k"),
    [
        pytest.param(1, 3, id="s-5 3+0"),
        pytest.param(7, 3, id="s-35 3+0"),
        pytest.param(8, 4, id="s-40 3+1"),
        pytest.param(9, 4, id="s-45 3+1"),
    ],
)
def test_shengji_negative_score_edges(throws, k):
    penalties = [{"seat": 1, "kind": "shuai"}] * throws
    hand = settle_hand("shengji", {"declarer": 0, "captured": 0, "penalties": penalties}, options={"shuai_penalty": 5})
    assert hand["deltas"] == [k, 0, k, 0]


# The receipt names the tribute band the score fell in; at s = 80 and s = 150 (band edges) with one small
# joker (J = 1) the figure is J alone, so only the band's wording tells a wrong line apart.
@pytest.mark.parametrize(
    ("captured", "band"),
    [
        pytest.param(75, "得分 75 < 80", id="s75 below 80"),
        pytest.param(80, "得分 80（80–115）", id="s80 in 80-115"),
        pytest.param(150, "得分 150（120–150）", id="s150 in 120-150"),
        pytest.param(155, "得分 155 > 150", id="s155 over 150"),
    ],
)
def test_gunzi_tribute_band_in_the_receipt(captured, band):
    hand = settle_hand("gunzi", {"declarer": 0, "captured": captured, "bottom_jokers": {"small": 1}})
    assert band in hand["steps"][-1]
