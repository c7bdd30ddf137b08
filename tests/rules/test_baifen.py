"""打百分: every row of rules/baifen.md, worked by hand from the rule text."""

from __future__ import annotations

import pytest

from settlement.rules.base import RulesError
from settlement.rules.registry import VARIANTS

from .helpers import refused, settle, settle_hand

A, B = (0, 2), (1, 3)


def team_scores(deltas: list[int]) -> tuple[int, int]:
    """(team A, team B) from per-seat deltas, checking both seats of a team agree."""
    assert deltas[0] == deltas[2] and deltas[1] == deltas[3]
    return deltas[0], deltas[1]


# Declarer seat 0 (team A), dealer 0 (place 0): (variant, bid, captured, kou, forced, options) -> (A, B, outcome, tags)
REGIONAL_HANDS = [
    # 本溪 clean table 80→100, 85→100, 90→200, 95→200, 100→300
    ("benxi", 80, 0, None, {}, (100, 0, "made", ["成", "清"])),
    ("benxi", 85, 0, None, {}, (100, 0, "made", ["成", "清"])),
    ("benxi", 90, 0, None, {}, (200, 0, "made", ["成", "清"])),
    ("benxi", 95, 0, None, {}, (200, 0, "made", ["成", "清"])),
    ("benxi", 100, 0, None, {}, (300, 0, "made", ["成", "清"])),
    # made with points: +bid, capture scores what it took
    ("benxi", 80, 20, None, {}, (80, 20, "made", ["成"])),
    ("benxi", 95, 5, None, {}, (95, 5, "made", ["成"])),
    # exactly 100 is made by default
    ("benxi", 80, 20, None, {}, (80, 20, "made", ["成"])),
    # broken: −bid; 100 broken → −200; capture ≥ 50 counts 100 (翻倍)
    ("benxi", 85, 20, None, {}, (-85, 20, "broken", ["破"])),
    ("benxi", 100, 5, None, {}, (-200, 5, "broken", ["破"])),
    ("benxi", 80, 50, None, {}, (-80, 100, "broken", ["破", "翻倍"])),
    ("benxi", 80, 45, None, {}, (-80, 45, "broken", ["破"])),
    # 本溪 抠: capture +200 for any kind; declarer broken table else −bid, made or not
    ("benxi", 80, 0, "side", {}, (-80, 200, "kou", ["抠手"])),
    ("benxi", 90, 10, "trump", {}, (-90, 200, "kou", ["抠底"])),
    ("benxi", 100, 0, "joker", {}, (-200, 200, "kou", ["抠底"])),
    # 抚顺: clean 100→200 only; broken 100→−300; 抠 100/200/300
    ("fushun", 85, 0, None, {}, (85, 0, "made", ["成"])),
    ("fushun", 100, 0, None, {}, (200, 0, "made", ["成", "清"])),
    ("fushun", 100, 10, None, {}, (-300, 10, "broken", ["破"])),
    ("fushun", 90, 30, "side", {}, (-90, 100, "kou", ["抠手"])),
    ("fushun", 90, 30, "trump", {}, (-90, 200, "kou", ["抠底"])),
    ("fushun", 90, 30, "joker", {}, (-90, 300, "kou", ["抠底"])),
    ("fushun", 100, 0, "joker", {}, (-300, 300, "kou", ["抠底"])),
    # 沈阳: clean 90→100, 95→150, 100→200; 80/85 clean score the bid; 王抠 declarer −200
    ("shenyang", 80, 0, None, {}, (80, 0, "made", ["成"])),
    ("shenyang", 85, 0, None, {}, (85, 0, "made", ["成"])),
    ("shenyang", 90, 0, None, {}, (100, 0, "made", ["成", "清"])),
    ("shenyang", 95, 0, None, {}, (150, 0, "made", ["成", "清"])),
    ("shenyang", 100, 0, None, {}, (200, 0, "made", ["成", "清"])),
    ("shenyang", 100, 15, None, {}, (-200, 15, "broken", ["破"])),
    ("shenyang", 85, 10, "side", {}, (-85, 100, "kou", ["抠手"])),
    ("shenyang", 85, 10, "trump", {}, (-85, 200, "kou", ["抠底"])),
    ("shenyang", 85, 10, "joker", {}, (-200, 300, "kou", ["抠底"])),
    ("shenyang", 100, 10, "trump", {}, (-200, 200, "kou", ["抠底"])),
    # options
    ("benxi", 80, 20, None, {"exact_hundred": "broken"}, (-80, 20, "broken", ["破"])),
    ("benxi", 80, 15, None, {"exact_hundred": "broken"}, (80, 15, "made", ["成"])),
    ("benxi", 100, 0, None, {"exact_hundred": "broken"}, (300, 0, "made", ["成", "清"])),
    ("benxi", 80, 40, None, {"fanbei": 40}, (-80, 100, "broken", ["破", "翻倍"])),
    ("benxi", 90, 0, None, {"clean": {"90": 150}}, (150, 0, "made", ["成", "清"])),
    ("benxi", 80, 0, None, {"clean": {"90": 150}}, (80, 0, "made", ["成"])),
    ("benxi", 85, 30, None, {"broken": {"85": -170}}, (-170, 30, "broken", ["破"])),
    ("benxi", 85, 30, "side", {"kou_award": {"side": 50, "trump": 60, "joker": 70}}, (-85, 50, "kou", ["抠手"])),
    ("benxi", 85, 0, "trump", {"kou_penalty": {"trump": -10}}, (-10, 200, "kou", ["抠底"])),
]


@pytest.mark.parametrize(("region", "bid", "captured", "kou", "options", "expected"), REGIONAL_HANDS)
def test_it_scores_a_regional_hand_by_the_tables(region, bid, captured, kou, options, expected):
    hand = {"dealer": 0, "declarer": 0, "bid": bid, "captured": captured}
    if kou:
        hand["kou"] = kou
    result = settle_hand(f"baifen.{region}", hand, options=options or None)
    a, b, outcome, tags = expected
    assert team_scores(result["deltas"]) == (a, b)
    assert result["outcome"] == outcome
    assert result["tags"] == tags
    assert result["declarer_won"] is (outcome == "made")


def test_it_mirrors_the_figures_when_team_b_declares():
    result = settle_hand("baifen.benxi", {"dealer": 1, "declarer": 1, "bid": 85, "captured": 20})
    assert result["deltas"] == [20, -85, 20, -85]


def test_a_forced_benxi_declarer_scores_the_forced_clean_table():
    # 4th place (dealer 1 → declarer 0 is place 3), three passed: 90 clean scores 100, not 200.
    result = settle_hand("baifen.benxi", {"dealer": 1, "declarer": 0, "bid": 90, "captured": 0, "forced": True})
    assert team_scores(result["deltas"]) == (100, 0)
    assert result["tags"] == ["成", "清"]
    # 95 is not in clean_forced, so the ordinary clean table applies.
    result = settle_hand("baifen.benxi", {"dealer": 1, "declarer": 0, "bid": 95, "captured": 0, "forced": True})
    assert team_scores(result["deltas"]) == (200, 0)


def test_a_forced_fushun_80_scores_the_bid():
    result = settle_hand("baifen.fushun", {"dealer": 0, "declarer": 0, "bid": 80, "captured": 0, "forced": True})
    assert team_scores(result["deltas"]) == (80, 0)


# (variant, dealer, declarer, bid, forced) that the bidding rules allow
ALLOWED_BIDS = [
    ("benxi", 0, 0, 80, False),
    ("benxi", 0, 1, 80, False),
    ("benxi", 0, 2, 85, False),
    ("benxi", 0, 3, 85, False),
    ("benxi", 1, 0, 90, True),
    ("benxi", 0, 3, 100, True),
    ("fushun", 0, 0, 85, False),
    ("fushun", 0, 2, 100, False),
    ("fushun", 2, 2, 80, True),
    ("shenyang", 0, 3, 80, False),
    ("shenyang", 0, 2, 100, False),
]


@pytest.mark.parametrize(("region", "dealer", "declarer", "bid", "forced"), ALLOWED_BIDS)
def test_it_accepts_a_bid_the_region_allows(region, dealer, declarer, bid, forced):
    hand = {"dealer": dealer, "declarer": declarer, "bid": bid, "captured": 0}
    if forced:
        hand["forced"] = True
    assert settle_hand(f"baifen.{region}", hand)["status"] == "scored"


# (variant, dealer, declarer, bid, forced, field, code)
REFUSED_BIDS = [
    ("benxi", 0, 0, 75, False, "bid", "bid.out_of_range"),
    ("benxi", 0, 0, 105, False, "bid", "bid.out_of_range"),
    ("benxi", 0, 0, 82, False, "bid", "bid.out_of_range"),
    ("benxi", 0, 2, 80, False, "bid", "bid.place_minimum"),
    ("benxi", 0, 3, 80, False, "bid", "bid.place_minimum"),
    ("benxi", 1, 0, 80, False, "bid", "bid.place_minimum"),
    ("benxi", 0, 2, 90, True, "forced", "forced.place"),
    ("benxi", 0, 0, 90, True, "forced", "forced.place"),
    ("benxi", 1, 0, 85, True, "bid", "forced.bid"),
    ("fushun", 0, 0, 80, False, "bid", "bid.forced_only"),
    ("fushun", 0, 1, 80, True, "forced", "forced.place"),
    ("fushun", 0, 0, 85, True, "bid", "forced.bid"),
    ("fushun", 0, 0, 75, True, "bid", "bid.out_of_range"),
    ("shenyang", 0, 0, 75, False, "bid", "bid.out_of_range"),
    ("shenyang", 0, 0, 90, True, "forced", "forced.not_allowed"),
]


@pytest.mark.parametrize(("region", "dealer", "declarer", "bid", "forced", "field", "code"), REFUSED_BIDS)
def test_it_rejects_a_bid_the_region_forbids(region, dealer, declarer, bid, forced, field, code):
    hand = {"dealer": dealer, "declarer": declarer, "bid": bid, "captured": 0}
    if forced:
        hand["forced"] = True
    with pytest.raises(RulesError) as caught:
        settle(f"baifen.{region}", [{"dealer": 0, "declarer": 0, "bid": 100, "captured": 0}, hand])
    assert (caught.value.hand, caught.value.field, caught.value.code) == (2, field, code)


# A place p = (declarer − dealer) mod 4 counts from 0 at 头家 (baifen.md); players count the bidders
# from 1, the dealer first, so place p is the (p + 1)th bidder in the message.
# (variant, dealer, declarer, bid, forced, zh-Hans, en)
PLACE_MESSAGES = [
    # dealer 0, declarer 2: p = 2, the third bidder; 本溪 wants 85 there.
    (
        "benxi",
        0,
        2,
        80,
        False,
        "本溪第 3 个叫的（头家为第 1 个）至少叫 85",
        "in Benxi the third bidder (the dealer is first) must bid at least 85",
    ),
    # dealer 1, declarer 0: p = (0 − 1) mod 4 = 3, the fourth bidder.
    (
        "benxi",
        1,
        0,
        80,
        False,
        "本溪第 4 个叫的（头家为第 1 个）至少叫 85",
        "in Benxi the fourth bidder (the dealer is first) must bid at least 85",
    ),
    # 本溪 forces only p = 3 (three passed before): the fourth bidder.
    (
        "benxi",
        0,
        0,
        90,
        True,
        "本溪只有第 4 个叫的（头家为第 1 个）可以被迫坐庄",
        "in Benxi only the fourth bidder (the dealer is first) can be forced",
    ),
    # 抚顺 forces only p = 0 (all four passed): the dealer, the first bidder.
    (
        "fushun",
        0,
        1,
        80,
        True,
        "抚顺只有第 1 个叫的（头家为第 1 个）可以被迫坐庄",
        "in Fushun only the first bidder (the dealer is first) can be forced",
    ),
]


@pytest.mark.parametrize(("region", "dealer", "declarer", "bid", "forced", "zh", "en"), PLACE_MESSAGES)
def test_a_place_refusal_counts_the_bidders_from_one_at_the_dealer(region, dealer, declarer, bid, forced, zh, en):
    hand = {"dealer": dealer, "declarer": declarer, "bid": bid, "captured": 0}
    if forced:
        hand["forced"] = True
    with pytest.raises(RulesError) as caught:
        settle(f"baifen.{region}", [{"dealer": 0, "declarer": 0, "bid": 100, "captured": 0}, hand])
    assert (caught.value.message("zh-Hans"), caught.value.message("en")) == (zh, en)


@pytest.mark.parametrize(
    ("region", "reason", "allowed"),
    [
        ("benxi", "all_pass", True),
        ("benxi", "no_trump_no_points", True),
        ("benxi", "misdeal", True),
        ("fushun", "all_pass", False),
        ("fushun", "no_trump_no_points", False),
        ("fushun", "misdeal", True),
        ("shenyang", "all_pass", False),
        ("shenyang", "no_trump_no_points", True),
        ("shenyang", "misdeal", True),
    ],
)
def test_redeal_reasons_follow_the_region(region, reason, allowed):
    hands = [{"redeal": reason}]
    if allowed:
        result = settle(f"baifen.{region}", hands)["hands"][0]
        assert (result["status"], result["outcome"], result["declarer"], result["deltas"]) == (
            "redeal",
            "redeal",
            None,
            [0, 0, 0, 0],
        )
        assert result["declarer_won"] is None
    else:
        with pytest.raises(RulesError) as caught:
            settle(f"baifen.{region}", hands)
        assert (caught.value.hand, caught.value.field) == (1, "redeal")


def test_the_deal_passes_to_the_next_seat_and_an_entered_dealer_wins():
    hands = [
        {"declarer": 0, "bid": 80, "captured": 20},
        {"redeal": "all_pass"},
        {"declarer": 3, "bid": 85, "captured": 0},
        {"dealer": 0, "declarer": 0, "bid": 80, "captured": 20},
        {"declarer": 1, "bid": 80, "captured": 20},
    ]
    dealers = [(h["dealer"], h["next_dealer"]) for h in settle("baifen.benxi", hands)["hands"]]
    assert dealers == [(0, 1), (1, 2), (2, 3), (0, 1), (1, 2)]


# Whole 盘s, worked from "The 盘: 出锅 and 后门走" (target 205 unless given).
def _hand(declarer, bid, captured, **extra):
    return {"dealer": declarer, "declarer": declarer, "bid": bid, "captured": captured, **extra}


GAME_ENDS = [
    # 出锅: A 90 clean = 200 (< 205, plays on), then +80 = 280 ≥ 205
    ("target", [_hand(0, 90, 0), _hand(0, 80, 20)], {}, {"winners": [0, 2], "how": "target", "last_hand": 2}),
    # A: −85 −85 −85 = −255 ≤ −205, B: 20+20+20 = 60 → 后门走, B wins
    ("backdoor", [_hand(0, 85, 20)] * 3, {}, {"winners": [1, 3], "how": "backdoor", "last_hand": 3}),
    # both ≥ target and equal: play on. target 100: A 80 c 20 → 80 : 20;
    # B 80 c 20 → 100 : 100, play on; then A 80 c 20 → 180 : 120 → A wins.
    (
        "tie_target",
        [_hand(0, 80, 20), _hand(1, 80, 20), _hand(0, 80, 20)],
        {"target": 100},
        {"winners": [0, 2], "how": "target", "last_hand": 3},
    ),
    # both ≤ −target and equal: play on. Only reachable when a 抠 costs both teams, so a club table with a
    # negative award: target 100, 抠手 → capture −50, declarer −50: −50 : −50, then −100 : −100 → play on;
    # then A 80 c 20 → −20 : −80, not ended.
    (
        "tie_backdoor",
        [_hand(0, 85, 0, kou="side"), _hand(1, 85, 0, kou="side"), _hand(0, 80, 20)],
        {"target": 100, "kou_penalty": {"side": -50}, "kou_award": {"side": -50, "trump": 0, "joker": 0}},
        None,
    ),
    # kou_mode "game": a 抠 ends the 盘 at once, lost by the declarer team
    (
        "kou_game",
        [_hand(1, 80, 0, kou="trump")],
        {"kou_mode": "game"},
        {"winners": [0, 2], "how": "instant", "last_hand": 1},
    ),
    # bid100 "game": made 100 wins at once; broken loses at once; a 抠'd 100 loses
    (
        "bid100_made",
        [_hand(0, 100, 0)],
        {"bid100": "game", "target": 500},
        {"winners": [0, 2], "how": "instant", "last_hand": 1},
    ),
    ("bid100_broken", [_hand(0, 100, 10)], {"bid100": "game"}, {"winners": [1, 3], "how": "instant", "last_hand": 1}),
    (
        "bid100_kou",
        [_hand(1, 100, 0, kou="side")],
        {"bid100": "game"},
        {"winners": [0, 2], "how": "instant", "last_hand": 1},
    ),
]


@pytest.mark.parametrize(("name", "hands", "options", "expected"), GAME_ENDS, ids=[g[0] for g in GAME_ENDS])
def test_a_pot_ends_as_the_rules_say(name, hands, options, expected):
    results = settle("baifen.benxi", hands, options=options or None)
    first = results["games"][0]
    if expected is None:
        assert first["finished"] is False and first["winners"] == [] and first["how"] is None
        assert len(results["games"]) == 1
    else:
        assert first["finished"] is True
        assert {k: first[k] for k in expected} == expected


def test_the_hand_after_a_pot_ends_starts_a_new_pot_from_zero():
    results = settle("baifen.benxi", [_hand(0, 100, 0), _hand(1, 80, 20)])
    assert [h["game"] for h in results["hands"]] == [1, 2]
    assert results["hands"][1]["totals"] == [20, 80, 20, 80]
    assert results["totals"] == [320, 80, 320, 80]
    assert results["games_won"] == [1, 0, 1, 0]
    assert results["games"][1]["finished"] is False


def test_the_higher_total_wins_when_both_reach_the_target():
    # target 20: A 80 c 20 → 80 : 20, both ≥ 20 and unequal → the higher (A) wins.
    results = settle("baifen.benxi", [_hand(0, 80, 20)], options={"target": 20})
    assert results["games"][0]["winners"] == [0, 2]
    assert results["games"][0]["how"] == "target"


# classic: declarer 0; (bid, captured, kou_di, partner, options) -> (deltas, outcome)
CLASSIC_HANDS = [
    # 2 v 2, made with points: m 1
    (60, 35, False, 2, {}, ([1, -1, 1, -1], "made")),
    # captured = 100 − bid is broken by default
    (60, 40, False, 2, {}, ([-1, 1, -1, 1], "broken")),
    (60, 40, False, 2, {"exact_hundred": "made"}, ([1, -1, 1, -1], "made")),
    (60, 45, False, 2, {"exact_hundred": "made"}, ([-1, 1, -1, 1], "broken")),
    # clean: m 2
    (45, 0, False, 1, {}, ([2, 2, -2, -2], "made")),
    # made but the last trick lost: declarer side loses at 2
    (70, 10, True, 3, {}, ([-2, 2, 2, -2], "kou")),
    # broken with kou_di: 2
    (70, 50, True, 2, {}, ([-2, 2, -2, 2], "broken")),
    # 1 v 3: ±3A
    (50, 20, False, None, {}, ([3, -1, -1, -1], "made")),
    (50, 60, False, None, {}, ([-3, 1, 1, 1], "broken")),
    (50, 0, False, None, {}, ([6, -2, -2, -2], "made")),
    # bid 100: 8 whatever the outcome
    (100, 0, False, 2, {}, ([8, -8, 8, -8], "made")),
    (100, 5, False, 2, {}, ([-8, 8, -8, 8], "broken")),
    (100, 0, True, None, {}, ([-24, 8, 8, 8], "kou")),
    # stake multiplies
    (60, 35, False, 2, {"stake": 5}, ([5, -5, 5, -5], "made")),
    (50, 0, False, None, {"stake": 3}, ([18, -6, -6, -6], "made")),
]


@pytest.mark.parametrize(("bid", "captured", "kou_di", "partner", "options", "expected"), CLASSIC_HANDS)
def test_it_settles_a_classic_hand(bid, captured, kou_di, partner, options, expected):
    hand = {"declarer": 0, "bid": bid, "captured": captured, "partner": partner}
    if kou_di:
        hand["kou_di"] = True
    result = settle_hand("baifen.classic", hand, options=options or None)
    deltas, outcome = expected
    assert (result["deltas"], result["outcome"]) == (deltas, outcome)
    assert result["declarer_won"] is (outcome == "made")


@pytest.mark.parametrize(
    ("hand", "field"),
    [
        ({"declarer": 0, "bid": 40, "captured": 0, "partner": 1}, "bid"),
        ({"declarer": 0, "bid": 105, "captured": 0, "partner": 1}, "bid"),
        ({"declarer": 0, "bid": 60, "captured": 0, "partner": 0}, "partner"),
        ({"declarer": 0, "bid": 60, "captured": 105, "partner": 1}, "captured"),
        ({"declarer": 0, "bid": 60, "captured": 0}, "partner"),
        ({"declarer": 0, "bid": 60, "captured": 0, "partner": 4}, "partner"),
        ({"declarer": 0, "bid": 60, "partner": 1}, "captured"),
        ({"declarer": 0, "bid": 60, "captured": 0, "partner": 1, "kou": "side"}, "kou"),
    ],
)
def test_it_rejects_a_bad_classic_hand(hand, field):
    with pytest.raises(RulesError) as caught:
        settle("baifen.classic", [hand])
    assert (caught.value.hand, caught.value.field) == (1, field)


def test_a_higher_min_bid_refuses_lower_bids():
    with pytest.raises(RulesError) as caught:
        settle("baifen.classic", [{"declarer": 0, "bid": 50, "captured": 0, "partner": 1}], options={"min_bid": 60})
    assert caught.value.field == "bid"


def test_the_classic_game_never_ends_and_settles_up_in_money():
    hands = [
        {"declarer": 0, "bid": 50, "captured": 0, "partner": None},  # [6, −2, −2, −2]
        {"declarer": 1, "bid": 60, "captured": 10, "partner": 2},  # [−1, 1, 1, −1]
    ]
    results = settle("baifen.classic", hands, options={"unit_value": 10})
    assert results["totals"] == [5, -1, -1, -3]
    assert results["games"] == [
        {
            "n": 1,
            "first_hand": 1,
            "last_hand": 2,
            "finished": False,
            "winners": [],
            "how": None,
            "adjustments": [0, 0, 0, 0],
            "adjustment_steps": [],
            "totals": [5, -1, -1, -3],
        }
    ]
    # three debtors pay the one creditor: 3 transfers, in money
    assert results["settle_up"] == [
        {"from": 1, "to": 0, "amount": 10},
        {"from": 2, "to": 0, "amount": 10},
        {"from": 3, "to": 0, "amount": 30},
    ]


# Whole regional receipts, each line worked from baifen.md's steps 1–5 and the 盘 with the message table
# (players 甲 乙 丙 丁: team A = 甲·丙, seats 0 + 2; declarer 0 unless the hand says so).
REGIONAL_RECEIPTS = [
    # 80 + 15 = 95 ≤ 100 made: A +80, B +15
    pytest.param(
        "benxi",
        {"dealer": 0, "declarer": 0, "bid": 80, "captured": 15},
        {},
        ["成"],
        ["叫分 80 + 抓分 15 = 95 ≤ 100：成", "庄家方 +80（叫分）", "抓分方 +15", "盘分 甲·丙 80 : 乙·丁 15"],
        id="made",
    ),
    # exact_hundred "broken": 80 + 15 = 95 < 100 still made
    pytest.param(
        "benxi",
        {"dealer": 0, "declarer": 0, "bid": 80, "captured": 15},
        {"exact_hundred": "broken"},
        ["成"],
        ["叫分 80 + 抓分 15 = 95 < 100：成", "庄家方 +80（叫分）", "抓分方 +15", "盘分 甲·丙 80 : 乙·丁 15"],
        id="made, exact hundred broken",
    ),
    # exact_hundred "broken": 80 + 20 = 100 is broken, −80
    pytest.param(
        "benxi",
        {"dealer": 0, "declarer": 0, "bid": 80, "captured": 20},
        {"exact_hundred": "broken"},
        ["破"],
        ["叫分 80 + 抓分 20 = 100，满百算破：破", "庄家方 −80", "抓分方 +20", "盘分 甲·丙 −80 : 乙·丁 20"],
        id="exact hundred broken",
    ),
    # B declares 85 + 55 = 140 > 100 broken: B −85; A captured 55 ≥ 50: 翻倍, +100
    pytest.param(
        "benxi",
        {"dealer": 1, "declarer": 1, "bid": 85, "captured": 55},
        {},
        ["破", "翻倍"],
        [
            "叫分 85 + 抓分 55 = 140 > 100：破",
            "庄家方 −85",
            "抓分 55 ≥ 50：翻倍，抓分方 +100",
            "盘分 甲·丙 100 : 乙·丁 −85",
        ],
        id="broken with fanbei",
    ),
    # 本溪 90 with nothing captured: clean table 90 → 200
    pytest.param(
        "benxi",
        {"dealer": 0, "declarer": 0, "bid": 90, "captured": 0},
        {},
        ["成", "清"],
        ["叫分 90 + 抓分 0 = 90 ≤ 100：成", "没丢分，清：庄家方 +200", "抓分方 +0", "盘分 甲·丙 200 : 乙·丁 0"],
        id="clean",
    ),
    # 本溪 forced at place 3 (dealer 1, declarer 0): clean_forced 90 → 100
    pytest.param(
        "benxi",
        {"dealer": 1, "declarer": 0, "bid": 90, "captured": 0, "forced": True},
        {},
        ["成", "清"],
        ["叫分 90 + 抓分 0 = 90 ≤ 100：成", "被迫坐庄，清：庄家方 +100", "抓分方 +0", "盘分 甲·丙 100 : 乙·丁 0"],
        id="forced clean",
    ),
    # bid100 "game": a made 100 (clean 300) wins the 盘 at once; no 出锅 line
    pytest.param(
        "benxi",
        {"dealer": 0, "declarer": 0, "bid": 100, "captured": 0},
        {"bid100": "game"},
        ["成", "清"],
        [
            "叫 100，抓分 0：成",
            "没丢分，清：庄家方 +300",
            "抓分方 +0",
            "叫 100 成：庄家方当盘赢",
            "盘分 甲·丙 300 : 乙·丁 0",
        ],
        id="100 made, game",
    ),
    # bid100 "game": 100 with 5 captured is broken (broken 100 → −200) and loses the 盘 at once
    pytest.param(
        "benxi",
        {"dealer": 0, "declarer": 0, "bid": 100, "captured": 5},
        {"bid100": "game"},
        ["破"],
        [
            "叫 100，抓分 5 > 0：破",
            "庄家方 −200",
            "抓分方 +5",
            "叫 100 未成：庄家方当盘输",
            "盘分 甲·丙 −200 : 乙·丁 5",
        ],
        id="100 broken, game",
    ),
    # 沈阳 王抠: capture +300, declarer −200 (kou_penalty); B 300 ≥ 250: 出锅
    pytest.param(
        "shenyang",
        {"dealer": 0, "declarer": 0, "bid": 85, "captured": 10, "kou": "joker"},
        {},
        ["抠底"],
        [
            "叫分 85 + 抓分 10 = 95 ≤ 100：成",
            "抠底（王）：抓分方 +300，庄家方 −200",
            "盘分 甲·丙 −200 : 乙·丁 300",
            "乙·丁达到 250：出锅，乙·丁胜",
        ],
        id="joker kou to the target",
    ),
    # kou_mode "game": 抠手 scores capture +200, declarer −80, and the declarer team loses at once
    pytest.param(
        "benxi",
        {"dealer": 0, "declarer": 0, "bid": 80, "captured": 0, "kou": "side"},
        {"kou_mode": "game"},
        ["抠手"],
        [
            "叫分 80 + 抓分 0 = 80 ≤ 100：成",
            "抠手：抓分方 +200，庄家方 −80",
            "抠：庄家方当盘输",
            "盘分 甲·丙 −80 : 乙·丁 200",
        ],
        id="side kou, game",
    ),
    # bid100 "game": a 抠'd 100 loses at once (declarer: broken 100 → −200)
    pytest.param(
        "benxi",
        {"dealer": 0, "declarer": 0, "bid": 100, "captured": 0, "kou": "trump"},
        {"bid100": "game"},
        ["抠底"],
        [
            "叫 100，抓分 0：成",
            "抠底（主牌）：抓分方 +200，庄家方 −200",
            "叫 100 未成：庄家方当盘输",
            "盘分 甲·丙 −200 : 乙·丁 200",
        ],
        id="100 with trump kou, game",
    ),
    # bid100 "game" decides only a 100 bid: a 抠 on 85 is scored and the 盘 goes on
    pytest.param(
        "benxi",
        {"dealer": 0, "declarer": 0, "bid": 85, "captured": 10, "kou": "trump"},
        {"bid100": "game"},
        ["抠底"],
        ["叫分 85 + 抓分 10 = 95 ≤ 100：成", "抠底（主牌）：抓分方 +200，庄家方 −85", "盘分 甲·丙 −85 : 乙·丁 200"],
        id="kou under 100, bid100 game",
    ),
]


@pytest.mark.parametrize(("region", "hand", "options", "tags", "lines"), REGIONAL_RECEIPTS)
def test_the_whole_regional_receipt_line_by_line(region, hand, options, tags, lines):
    result = settle_hand(f"baifen.{region}", hand, options=options or None)
    assert (result["tags"], result["steps"]) == (tags, lines)


# Whole classic receipts the boundary table does not cover: exact_hundred "made", the stake, a lone declarer
# beaten (baifen.md classic steps 1–3; declarer 0, dealer 0).
CLASSIC_RECEIPTS = [
    # exact_hundred "made": c = 100 − bid is made, m 1
    pytest.param(
        {"partner": 2, "bid": 60, "captured": 40},
        {"exact_hundred": "made"},
        ["成"],
        ["叫分 60，抓分 40 ≤ 40：成", "倍数 1（普通）× 注 1 = 1", "庄家、朋家各 +1，另两家各 −1"],
        id="exact made",
    ),
    # exact_hundred "made": c 45 > 40 is broken, m 1
    pytest.param(
        {"partner": 2, "bid": 60, "captured": 45},
        {"exact_hundred": "made"},
        ["破"],
        ["叫分 60，抓分 45 > 40：破", "倍数 1（普通）× 注 1 = 1", "庄家、朋家各 −1，另两家各 +1"],
        id="exact made, broken",
    ),
    # stake 3: 50 with 20 < 50 made plain, A = 1 × 3; alone: +9, the others −3
    pytest.param(
        {"partner": None, "bid": 50, "captured": 20},
        {"stake": 3},
        ["成"],
        ["叫分 50，抓分 20 < 50：成", "倍数 1（普通）× 注 3 = 3", "庄家一打三：+9，其余各 −3"],
        id="stake 3 alone made",
    ),
    # 60 + 35 made but the capture side won the last trick: lost at m 2 (outcome kou, tag 抠底 only)
    pytest.param(
        {"partner": 2, "bid": 60, "captured": 35, "kou_di": True},
        {},
        ["抠底"],
        [
            "叫分 60，抓分 35 < 40：成",
            "成，但抓分方抠底：庄家方输",
            "倍数 2（抠底）× 注 1 = 2",
            "庄家、朋家各 −2，另两家各 +2",
        ],
        id="made but kou_di",
    ),
    # broken with 抠底: m 2, tags 破 and 抠底
    pytest.param(
        {"partner": 2, "bid": 60, "captured": 40, "kou_di": True},
        {},
        ["破", "抠底"],
        ["叫分 60，抓分 40 ≥ 40：破", "倍数 2（抠底）× 注 1 = 2", "庄家、朋家各 −2，另两家各 +2"],
        id="broken with kou_di",
    ),
    # made with nothing captured: m 2, tags 成 and 清
    pytest.param(
        {"partner": 2, "bid": 60, "captured": 0},
        {},
        ["成", "清"],
        ["叫分 60，抓分 0 < 40：成", "倍数 2（没丢分）× 注 1 = 2", "庄家、朋家各 +2，另两家各 −2"],
        id="clean",
    ),
    # 50 with 50 ≥ 50 broken, m 1: alone −3, the others +1
    pytest.param(
        {"partner": None, "bid": 50, "captured": 50},
        {},
        ["破"],
        ["叫分 50，抓分 50 ≥ 50：破", "倍数 1（普通）× 注 1 = 1", "庄家一打三：−3，其余各 +1"],
        id="alone broken",
    ),
]


@pytest.mark.parametrize(("hand", "options", "tags", "lines"), CLASSIC_RECEIPTS)
def test_the_whole_classic_receipt_line_by_line(hand, options, tags, lines):
    result = settle_hand("baifen.classic", {"dealer": 0, "declarer": 0, **hand}, options=options or None)
    assert (result["tags"], result["steps"]) == (tags, lines)


# The bids each region allows, place by place (baifen.md "Bidding rules": p = 0 is the 头家), as the entry
# offers them: 本溪 80 at places 0 and 1 only (p 2 and 3 bid ≥ 85), forced only at p 3 from 90; 抚顺 85–100
# anywhere, 80 only forced at p 0; 沈阳 80–100 anywhere, never forced.
ALL, NONE = (0, 1, 2, 3), ()
REGION_BIDS = [
    (
        "benxi",
        [
            (80, (0, 1), NONE),
            (85, ALL, NONE),
            (90, ALL, (3,)),
            (95, ALL, (3,)),
            (100, ALL, (3,)),
        ],
    ),
    ("fushun", [(80, NONE, (0,)), (85, ALL, NONE), (90, ALL, NONE), (95, ALL, NONE), (100, ALL, NONE)]),
    ("shenyang", [(80, ALL, NONE), (85, ALL, NONE), (90, ALL, NONE), (95, ALL, NONE), (100, ALL, NONE)]),
]


@pytest.mark.parametrize(("region", "rows"), REGION_BIDS)
def test_the_bids_a_region_allows_place_by_place(region, rows):
    variant = VARIANTS[f"baifen.{region}"]
    assert variant.bids is not None
    got = [(rule.bid, rule.places, rule.forced_places) for rule in variant.bids(variant.defaults(4), 4)]
    assert got == rows


# Refusals name the rule they apply with its figures (message table of baifen.py and the common one).
# (variant, hand, field, code, zh-Hans message)
REFUSALS = [
    (
        "benxi",
        {"dealer": 0, "declarer": 0, "bid": 75, "captured": 0},
        "bid",
        "bid.out_of_range",
        "叫分应为 80–100，5 的倍数",
    ),
    (
        "fushun",
        {"dealer": 0, "declarer": 0, "bid": 80, "captured": 0},
        "bid",
        "bid.forced_only",
        "抚顺叫 80 只能是被迫坐庄",
    ),
    (
        "shenyang",
        {"dealer": 0, "declarer": 0, "bid": 90, "captured": 0, "forced": True},
        "forced",
        "forced.not_allowed",
        "沈阳不能被迫坐庄",
    ),
    # 本溪 forced (p 3) from 90 to 100; 抚顺 forced (p 0) at 80 only
    (
        "benxi",
        {"dealer": 1, "declarer": 0, "bid": 85, "captured": 0, "forced": True},
        "bid",
        "forced.bid",
        "本溪被迫坐庄时叫分应为 90–100",
    ),
    (
        "fushun",
        {"dealer": 0, "declarer": 0, "bid": 85, "captured": 0, "forced": True},
        "bid",
        "forced.bid",
        "抚顺被迫坐庄时叫分应为 80–80",
    ),
    ("fushun", {"redeal": "all_pass"}, "redeal", "redeal.reason", "此玩法不允许这种重发理由；可选：misdeal"),
    (
        "shenyang",
        {"redeal": "all_pass"},
        "redeal",
        "redeal.reason",
        "此玩法不允许这种重发理由；可选：no_trump_no_points, misdeal",
    ),
    ("benxi", {"dealer": 0, "bid": 80, "captured": 0}, "declarer", "field.required", "必填"),
    ("benxi", {"dealer": 0, "declarer": 0, "captured": 0}, "bid", "field.required", "必填"),
    ("benxi", {"dealer": 0, "declarer": 0, "bid": 80}, "captured", "field.required", "必填"),
    ("classic", {"bid": 60, "captured": 0, "partner": 1}, "declarer", "field.required", "必填"),
    ("classic", {"declarer": 0, "captured": 0, "partner": 1}, "bid", "field.required", "必填"),
    (
        "classic",
        {"declarer": 0, "bid": 40, "captured": 0, "partner": 1},
        "bid",
        "bid.out_of_range",
        "叫分应为 45–100，5 的倍数",
    ),
    (
        "classic",
        {"declarer": 0, "bid": 60, "captured": 0, "partner": 0},
        "partner",
        "partner.is_declarer",
        "朋家不能是庄家本人",
    ),
]


@pytest.mark.parametrize(("region", "hand", "field", "code", "message"), REFUSALS)
def test_a_refusal_names_its_rule_and_figures(region, hand, field, code, message):
    with pytest.raises(RulesError) as caught:
        settle(f"baifen.{region}", [hand])
    error = caught.value
    assert (error.hand, error.field, error.code, error.message("zh-Hans")) == (1, field, code, message)


@pytest.mark.parametrize(
    ("region", "reason", "line"),
    [
        ("benxi", "no_trump_no_points", "重新发牌（无主无分），不计分"),
        ("shenyang", "misdeal", "重新发牌（发错牌），不计分"),
        ("classic", "all_pass", "重新发牌（无人叫分），不计分"),
    ],
)
def test_a_redeal_says_why_and_passes_the_deal_on(region, reason, line):
    result = settle_hand(f"baifen.{region}", {"dealer": 3, "redeal": reason})
    assert (result["steps"], result["dealer"], result["next_dealer"]) == ([line], 3, 0)


def test_the_classic_deal_passes_to_the_next_seat_and_an_entered_dealer_wins():
    hands = [
        {"dealer": 2, "declarer": 0, "partner": 1, "bid": 60, "captured": 20},
        {"declarer": 1, "partner": 2, "bid": 60, "captured": 20},
        {"declarer": 3, "partner": None, "bid": 60, "captured": 20},
    ]
    got = [(h["dealer"], h["declarer"], h["next_dealer"]) for h in settle("baifen.classic", hands)["hands"]]
    assert got == [(2, 0, 3), (3, 1, 0), (0, 3, 1)]


# Six-player classic (baifen.md classic, seed 001 也有6人的): the declarer side plays the other four or five; each
# opponent pays or receives A and the declarer side shares the sum. Declarer 0, dealer 0.
SIX = ["甲", "乙", "丙", "丁", "戊", "己"]
CLASSIC_SIX = [
    # 2 v 4, made plain (captured 30 < 40), A = 1: the four −1 each, the two +2 each
    pytest.param(
        {"partner": 3, "bid": 60, "captured": 30},
        {},
        [2, -1, -1, 2, -1, -1],
        "庄家、朋家各 +2，另四家各 −1",
        id="2 v 4 made",
    ),
    # 2 v 4, broken with 抠底: m 2, A = 2; the four +2 each, the two −4 each
    pytest.param(
        {"partner": 5, "bid": 70, "captured": 30, "kou_di": True},
        {},
        [-4, 2, 2, 2, 2, -4],
        "庄家、朋家各 −4，另四家各 +2",
        id="2 v 4 broken kou_di",
    ),
    # 1 v 5, made clean: m 2, stake 3 → A = 6; the five −6 each, the declarer +30
    pytest.param(
        {"partner": None, "bid": 50, "captured": 0},
        {"stake": 3},
        [30, -6, -6, -6, -6, -6],
        "庄家一打五：+30，其余各 −6",
        id="1 v 5 clean stake 3",
    ),
    # 1 v 5, a 100 bid broken: m 8; the five +8 each, the declarer −40
    pytest.param(
        {"partner": None, "bid": 100, "captured": 5},
        {},
        [-40, 8, 8, 8, 8, 8],
        "庄家一打五：−40，其余各 +8",
        id="1 v 5 hundred broken",
    ),
]


@pytest.mark.parametrize(("hand", "options", "deltas", "line"), CLASSIC_SIX)
def test_six_player_classic_shares_the_stake_across_the_sides(hand, options, deltas, line):
    result = settle_hand(
        "baifen.classic", {"dealer": 0, "declarer": 0, **hand}, options=options or None, players=6, names=SIX
    )
    assert (result["deltas"], result["steps"][-1]) == (deltas, line)


def test_six_player_classic_receipt_in_english():
    hand = {"dealer": 0, "declarer": 2, "partner": 4, "bid": 60, "captured": 45}
    result = settle_hand("baifen.classic", hand, players=6, names=SIX, lang="en")
    assert result["steps"][-1] == "declarer and partner −2 each, the other four +1 each"


def test_six_player_classic_passes_the_deal_round_six_seats():
    hands = [{"dealer": 4, "declarer": 0, "partner": 1, "bid": 60, "captured": 20}]
    hands += [{"declarer": 1, "partner": None, "bid": 60, "captured": 20}, {"redeal": "all_pass"}]
    hands += [{"declarer": 5, "partner": 0, "bid": 60, "captured": 20}]
    got = [(h["dealer"], h["next_dealer"]) for h in settle("baifen.classic", hands, players=6, names=SIX)["hands"]]
    assert got == [(4, 5), (5, 0), (0, 1), (1, 2)]


@pytest.mark.parametrize(
    ("players", "hand", "code", "field", "number"),
    [
        (5, {"declarer": 0, "partner": 1, "bid": 60, "captured": 20}, "players.count", "players", None),
        (6, {"declarer": 6, "partner": 1, "bid": 60, "captured": 20}, "seat.invalid", "declarer", 1),
        (6, {"declarer": 0, "partner": 6, "bid": 60, "captured": 20}, "seat.invalid", "partner", 1),
        (6, {"declarer": 0, "partner": -1, "bid": 60, "captured": 20}, "seat.invalid", "partner", 1),
        (6, {"dealer": 6, "declarer": 0, "partner": 1, "bid": 60, "captured": 20}, "seat.invalid", "dealer", 1),
    ],
)
def test_classic_refuses_five_players_and_seats_off_a_six_player_table(players, hand, code, field, number):
    error = refused("baifen.classic", [hand], players=players, names=SIX)
    assert (error.code, error.field, error.hand) == (code, field, number)
