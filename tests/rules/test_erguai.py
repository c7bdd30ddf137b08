"""打二鬼: every row of rules/erguai.md, with the figures worked by hand from the rule text.

Notation: c = 闲家 points, D = bid + c − 100, m = 1 / 2 (爆) / 4 (鉤), A = amount × m.
The declarer is seat 0 unless a row says otherwise.
"""

from __future__ import annotations

import dataclasses
import json
from functools import partial
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from settlement.rules import erguai
from settlement.rules.base import EngineDefect, RulesError, check_zero_sum
from settlement.rules.messages import TABLE
from settlement.rules.session import session_settle

from ..conftest import SHARED_GOLDEN
from . import helpers

NAMES = ["甲", "乙", "丙", "丁"]


doc = partial(helpers.document, "erguai")
settle = partial(helpers.settle, "erguai")
one = partial(helpers.settle_hand, "erguai")
refused = partial(helpers.refused, "erguai")


def hand(bid: int, c: int, partner: int | None, contract: str = "plain", declarer: int = 0) -> dict[str, Any]:
    return {"declarer": declarer, "bid": bid, "contract": contract, "partner": partner, "captured": c}


HANDS = [
    # --- the rules file's example table
    (hand(85, 10, 2), [5, -5, 5, -5], "declarer_won", []),  # D = −5
    (hand(90, 45, 2), [-70, 35, 0, 35], "declarer_lost", ["包场"]),  # D = 35, 45 > 40
    (hand(80, 30, None), [-30, 10, 10, 10], "declarer_lost", []),  # D = 10, alone: −3 × 10
    (hand(100, 0, 1, "bao"), [130, 90, -110, -110], "declarer_won", ["爆", "光头"]),
    # --- plain, 2 v 2
    (hand(80, 5, 2), [15, -15, 15, -15], "declarer_won", []),  # D = −15
    (hand(95, 0, 3), [50, -50, -50, 50], "declarer_won", ["光头"]),  # D = −5, but 光头: 50
    (hand(80, 20, 2), [0, 0, 0, 0], "even", []),  # D = 0
    (hand(100, 0, 2), [50, -50, 50, -50], "declarer_won", ["光头"]),  # D = 0, 光头 still 50
    (hand(80, 25, 2), [-5, 5, -5, 5], "declarer_lost", []),  # D = 5
    # 包场 edge for bids 80–95: c > 40
    (hand(80, 40, 2), [-20, 20, -20, 20], "declarer_lost", []),  # D = 20, 40 is not over 40
    (hand(80, 45, 2), [-50, 25, 0, 25], "declarer_lost", ["包场"]),  # D = 25, declarer 2 × 25
    (hand(95, 40, 2), [-35, 35, -35, 35], "declarer_lost", []),
    (hand(95, 45, 2), [-80, 40, 0, 40], "declarer_lost", ["包场"]),
    (hand(85, 100, 1), [-170, 0, 85, 85], "declarer_lost", ["包场"]),  # D = 85
    # 包场 edge for 100 plain: c > 30
    (hand(100, 30, 2), [-30, 30, -30, 30], "declarer_lost", []),
    (hand(100, 35, 2), [-70, 35, 0, 35], "declarer_lost", ["包场"]),
    (hand(100, 5, 3), [-5, 5, 5, -5], "declarer_lost", []),  # D = 5
    # --- 爆 (×2, 喜金 10) and 鉤 (×4, 喜金 20): 包场 as soon as c > 0
    # 爆 c = 5: D = 5, A = 10, 包场: declarer −20, partner 0, 闲 +10; 喜金 +30 / −10 each
    (hand(100, 5, 2, "bao"), [10, 0, -10, 0], "declarer_lost", ["爆", "包场"]),
    # 鉤 c = 5: A = 20, 包场: −40 / 0 / +20; 喜金 +60 / −20 each
    (hand(100, 5, 1, "gou"), [20, -20, 0, 0], "declarer_lost", ["鉤", "包场"]),
    # 鉤 光头: A = 50 × 4 = 200: +200 / +200 / −200; 喜金 +60 / −20
    (hand(100, 0, 3, "gou"), [260, -220, -220, 180], "declarer_won", ["鉤", "光头"]),
    # 爆 c = 50: D = 50, A = 100, 包场: −200 / 0 / +100; 喜金 +30 / −10
    (hand(100, 50, 2, "bao"), [-170, 90, -10, 90], "declarer_lost", ["爆", "包场"]),
    # --- 1 v 3: ±3A, 包场 changes nothing
    (hand(90, 5, None), [15, -5, -5, -5], "declarer_won", []),  # D = −5
    (hand(80, 60, None), [-120, 40, 40, 40], "declarer_lost", []),  # D = 40, c > 40 but alone
    (hand(85, 0, None), [150, -50, -50, -50], "declarer_won", ["光头"]),
    (hand(80, 20, None), [0, 0, 0, 0], "even", []),
    # 爆 alone c = 20: D = 20, A = 40: −120 / +40 each; 喜金 +30 / −10 → [−90, 30, 30, 30]
    (hand(100, 20, None, "bao"), [-90, 30, 30, 30], "declarer_lost", ["爆"]),
    # 鉤 alone 光头: A = 200: +600 / −200 each; 喜金 +60 / −20 → [660, −220, −220, −220]
    (hand(100, 0, None, "gou"), [660, -220, -220, -220], "declarer_won", ["鉤", "光头"]),
    # --- another declarer: seat 2 with partner 3, D = −10
    (hand(90, 0, 3, declarer=2), [-50, -50, 50, 50], "declarer_won", ["光头"]),
    (hand(85, 5, 0, declarer=3), [10, -10, -10, 10], "declarer_won", []),
]


@pytest.mark.parametrize(("h", "expected", "outcome", "tags"), HANDS)
def test_it_settles_an_erguai_hand(h, expected, outcome, tags):
    got = one(h)
    assert got["deltas"] == expected
    assert got["outcome"] == outcome
    assert got["declarer_won"] == {"declarer_won": True, "declarer_lost": False, "even": None}[outcome]
    assert sorted(got["tags"]) == sorted(tags)


@pytest.mark.parametrize(
    ("h", "expected"),
    [
        (hand(80, 0, 2), [70, -70, 70, -70]),  # |D| 20 + 50
        (hand(95, 0, 2), [55, -55, 55, -55]),  # 5 + 50
        (hand(100, 0, 2), [50, -50, 50, -50]),  # 0 + 50
        (hand(90, 0, None), [180, -60, -60, -60]),  # 10 + 50, alone ×3
        (hand(100, 0, 1, "bao"), [130, 90, -110, -110]),  # (0 + 50) × 2, 喜金 as usual
        (hand(80, 5, 2), [15, -15, 15, -15]),  # not 光头: unchanged
    ],
)
def test_guangtou_add_mode_loses_d_plus_fifty(h, expected):
    assert one(h, options={"guangtou_mode": "add"})["deltas"] == expected


def test_guangtou_replace_mode_ignores_d():
    # bid 80, c = 0: D = −20, but the 闲家 lose 50 flat
    assert one(hand(80, 0, 2))["deltas"] == [50, -50, 50, -50]
    assert one(hand(80, 0, 2), options={"guangtou": 60})["deltas"] == [60, -60, 60, -60]


def test_xijin_is_never_multiplied_nor_refunded():
    # 鉤 with c = 10: D = 10, A = 40, 包场: declarer −80, partner 0, 闲 +40; 喜金 still +60 / −20
    assert one(hand(100, 10, 2, "gou"))["deltas"] == [-20, 20, -20, 20]
    # option: 喜金 5 / 15
    got = one(hand(100, 10, 2, "gou"), options={"xijin": {"bao": 5, "gou": 15}})
    assert got["deltas"] == [-35, 25, -15, 25]
    # a plain hand has no 喜金
    assert one(hand(100, 0, 2))["deltas"] == [50, -50, 50, -50]


@pytest.mark.parametrize(
    ("baochang", "h", "expected"),
    [
        # lower the 80–95 threshold to 30: c = 35 > 30 → 包场 (D = 15)
        ({"80-95": 30, "100": 30, "bao": 0, "gou": 0}, hand(80, 35, 2), [-30, 15, 0, 15]),
        # raise the 爆 threshold to 20: c = 20 is not over it (A = 40; 喜金 +30 / −10)
        ({"80-95": 40, "100": 30, "bao": 20, "gou": 0}, hand(100, 20, 2, "bao"), [-10, 30, -50, 30]),
        ({"80-95": 40, "100": 30, "bao": 20, "gou": 0}, hand(100, 25, 2, "bao"), [-70, 40, -10, 40]),
        # 100 plain threshold 50: c = 35 → shared loss
        ({"80-95": 40, "100": 50, "bao": 0, "gou": 0}, hand(100, 35, 2), [-35, 35, -35, 35]),
    ],
)
def test_baochang_thresholds_are_options(baochang, h, expected):
    assert one(h, options={"baochang": baochang})["deltas"] == expected


def test_baochang_only_shifts_a_loss_never_a_win():
    # With the 80–95 threshold at 0, c = 10 is "over" it, but the declarer side wins (D = −10):
    # the partner still shares the win and no 包场 is shown.
    got = one(hand(80, 10, 2), options={"baochang": {"80-95": 0, "100": 30, "bao": 0, "gou": 0}})
    assert got["deltas"] == [10, -10, 10, -10]
    assert "包场" not in got["tags"]


def test_options_and_defaults():
    options = settle([hand(85, 10, 2)])["options"]
    assert options == {
        "guangtou": 50,
        "guangtou_mode": "replace",
        "baochang": {"80-95": 40, "100": 30, "bao": 0, "gou": 0},
        "xijin": {"bao": 10, "gou": 20},
        "unit_value": 1,
    }
    assert settle([hand(85, 10, 2)])["unit"] == "分"


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"guangtou_mode": "double"}, "options.guangtou_mode"),
        ({"guangtou": -5}, "options.guangtou"),
        ({"baochang": {"80-95": 40}}, "options.baochang.100"),
        ({"baochang": {"80-95": 40, "100": 30, "bao": 0, "gou": 0, "90": 1}}, "options.baochang.90"),
        ({"baochang": {"80-95": 140, "100": 30, "bao": 0, "gou": 0}}, "options.baochang.80-95"),
        ({"xijin": {"bao": 10}}, "options.xijin.gou"),
        ({"unit_value": 0}, "options.unit_value"),
        ({"round_hands": 6}, "options.round_hands"),
    ],
)
def test_bad_options_are_refused_by_name(options, field):
    error = refused([hand(85, 10, 2)], options=options)
    assert (error.hand, error.field) == (None, field)


def test_the_dealer_moves_to_the_next_seat_and_an_entered_dealer_wins():
    result = settle(
        [
            hand(85, 10, 2),
            hand(85, 10, 2),
            {"redeal": "all_pass"},
            {"dealer": 0, **hand(85, 10, 2)},
            hand(85, 10, 2),
            {"redeal": "misdeal", "dealer": 3},
            hand(85, 10, 2),
        ]
    )
    assert [h["dealer"] for h in result["hands"]] == [0, 1, 2, 0, 1, 3, 0]
    assert [h["next_dealer"] for h in result["hands"]] == [1, 2, 3, 1, 2, 0, 1]
    redeal = result["hands"][2]
    assert (redeal["status"], redeal["outcome"], redeal["declarer"], redeal["deltas"]) == (
        "redeal",
        "redeal",
        None,
        [0, 0, 0, 0],
    )


def test_the_whole_session_is_one_unfinished_game_and_settles_up_in_coins():
    case = json.loads((SHARED_GOLDEN / "erguai-example.json").read_text(encoding="utf-8"))
    case["input"]["options"] = {"unit_value": 200}
    result = session_settle(case["input"])
    assert result["totals"] == [35, 130, -95, -70]
    assert len(result["games"]) == 1
    game = result["games"][0]
    assert (game["finished"], game["winners"], game["how"], game["adjustments"]) == (False, [], None, [0, 0, 0, 0])
    assert result["games_won"] == [0, 0, 0, 0]
    # balances ×200: +7000, +26000, −19000, −14000; no two or three of them sum to zero → 3 transfers
    transfers = result["settle_up"]
    assert len(transfers) == 3
    net = [0, 0, 0, 0]
    for t in transfers:
        net[t["from"]] -= t["amount"]
        net[t["to"]] += t["amount"]
    assert net == [7000, 26000, -19000, -14000]


# ---------------------------------------------------------------------------------------------
# Bad input

BAD = [
    ({**hand(85, 10, 2), "bid": 75}, "bid", "bid.out_of_range"),
    ({**hand(85, 10, 2), "bid": 105}, "bid", "bid.out_of_range"),
    ({**hand(85, 10, 2), "bid": 82}, "bid", "bid.out_of_range"),
    ({**hand(85, 10, 2), "bid": 45}, "bid", "bid.out_of_range"),
    (hand(95, 10, 2, "bao"), "contract", "contract.needs_bid_100"),
    (hand(80, 10, 2, "gou"), "contract", "contract.needs_bid_100"),
    ({**hand(100, 10, 2), "contract": "double"}, "contract", "value.not_choice"),
    (hand(85, 10, 0), "partner", "partner.is_declarer"),
    (hand(85, 10, 3, declarer=3), "partner", "partner.is_declarer"),
    ({"declarer": 0, "bid": 85, "captured": 10}, "partner", "field.required"),
    ({"declarer": 0, "bid": 85, "partner": 2}, "captured", "field.required"),
    ({"bid": 85, "partner": 2, "captured": 10}, "declarer", "field.required"),
    ({"declarer": 0, "partner": 2, "captured": 10}, "bid", "field.required"),
    (hand(85, 105, 2), "captured", "points.over_deck"),
    (hand(85, 12, 2), "captured", "points.not_multiple_of_5"),
    (hand(85, -5, 2), "captured", "value.not_count"),
    (hand(85, 10, 4), "partner", "seat.invalid"),
    (hand(85, 10, 2, declarer=4), "declarer", "seat.invalid"),
    ({**hand(85, 10, 2), "surrender": True}, "surrender", "field.unknown"),
    ({**hand(85, 10, 2), "kou_di": True}, "kou_di", "field.unknown"),
    ({**hand(85, 10, 2), "penalties": []}, "penalties", "field.unknown"),
    ({"redeal": "all_pass", "penalties": []}, "penalties", "field.unknown"),
    ({"redeal": "all_pass", "captured": 10}, "captured", "field.not_on_redeal"),
]


@pytest.mark.parametrize(("bad", "field", "code"), BAD)
def test_it_refuses_bad_hands_naming_the_hand_and_the_field(bad, field, code):
    error = refused([hand(85, 10, 2), bad])
    assert (error.hand, error.field, error.code) == (2, field, code)
    assert error.describe("en").startswith(f"hand 2: {field}: ")
    for lang in ("en", "zh-Hans"):
        assert "{" not in error.message(lang) and error.message(lang) != f"error.{code}"


@pytest.mark.parametrize(
    ("bad", "params"),
    [
        # erguai.md: bids 80–100 in steps of 5; 爆 / 鉤 only on a bid of 100
        ({**hand(85, 10, 2), "bid": 75}, {"low": 80, "high": 100}),
        (hand(95, 10, 2, "bao"), {"bid": 95}),
        # the deck has 100 points (refused by the document, before the table)
        (hand(85, 105, 2), {"value": 105, "total": 100}),
    ],
)
def test_a_refusal_carries_the_figures_its_message_names(bad, params):
    assert refused([bad]).params == params


def test_a_redeal_says_why_and_passes_the_deal_on():
    result = one({"dealer": 1, "redeal": "all_pass"})
    assert (result["deltas"], result["next_dealer"]) == ([0, 0, 0, 0], 2)
    assert result["steps"] == ["重新发牌（无人叫分），不计分"]  # the reason all_pass is 无人叫分


def test_a_guangtou_worth_nothing_is_an_even_hand():
    # guangtou 0 ("replace"): the 闲家 lose 0 each, so nobody pays and no multiplier line is shown
    result = one(hand(90, 0, 2), options={"guangtou": 0})
    assert (result["outcome"], result["deltas"], result["declarer_won"]) == ("even", [0, 0, 0, 0], None)
    assert result["steps"] == ["D = 叫分 90 + 闲家得分 0 − 100 = −10", "闲家得 0 分：光头，闲家各输 0", "无人付分"]


def test_it_rejects_a_bid_of_85_with_bao():
    error = refused([hand(85, 10, 2, "bao")])
    assert (error.hand, error.field) == (1, "contract")


def test_three_players_are_refused():
    with pytest.raises(RulesError) as caught:
        session_settle({"variant": "erguai", "players": NAMES[:3], "hands": []})
    assert caught.value.field == "players"


# ---------------------------------------------------------------------------------------------
# Receipts


def test_the_receipt_shows_d_the_multiplier_baochang_and_xijin():
    en = one(hand(100, 50, 2, "bao"), lang="en")
    text = "\n".join(en["steps"])
    assert "D = bid 100 + 闲家 points 50 − 100 = 50" in text
    assert "×2: A = 50 × 2 = 100" in text
    assert "50 > 0" in text and "包场" in text
    assert "2 × 100 = 200" in text
    assert "喜金" in text and "30 in all" in text
    zh = one(hand(100, 50, 2, "bao"))
    ztext = "\n".join(zh["steps"])
    assert "D = 叫分 100 + 闲家得分 50 − 100 = 50" in ztext
    assert "庄家包场" in ztext and "喜金" in ztext
    for step in en["steps"] + zh["steps"]:
        assert "{" not in step and not step.startswith("erguai.")


def test_the_receipt_of_a_guangtou_and_of_an_even_hand():
    assert any("光头" in s for s in one(hand(90, 0, 2))["steps"])
    assert any("nobody pays" in s for s in one(hand(80, 20, 2), lang="en")["steps"])


# Whole receipts, each line worked from erguai.md's steps 1–6 (declarer 0; options at their defaults:
# 光头 50 "replace", 包场 over 40 at bids 80–95, over 30 at 100, over 0 on 爆/鉤; 喜金 10 / 20).
ERGUAI_RECEIPTS = [
    # D = 90 + 5 − 100 = −5 < 0: the 闲家 lose 5, A = 5 × 1; 2 v 2
    pytest.param(
        hand(90, 5, 2),
        [5, -5, 5, -5],
        [
            "D = 叫分 90 + 闲家得分 5 − 100 = −5",
            "D = −5 < 0：闲家各输 5",
            "普通 ×1：A = 5 × 1 = 5",
            "庄家、朋家各 +5，二鬼各 −5",
        ],
        id="pair won",
    ),
    # D = 80 + 40 − 100 = 20 > 0, c 40 ≤ 40: no 包场, A = 20 shared
    pytest.param(
        hand(80, 40, 2),
        [-20, 20, -20, 20],
        [
            "D = 叫分 80 + 闲家得分 40 − 100 = 20",
            "D = 20 > 0：庄家方各输 20",
            "普通 ×1：A = 20 × 1 = 20",
            "闲家得分 40 ≤ 40（叫 80–95）：不包场，庄家、朋家共担",
            "庄家、朋家各 −20，二鬼各 +20",
        ],
        id="pair lost no baochang",
    ),
    # D = 25, c 45 > 40: 包场, the declarer pays 2 × 25 = 50 alone
    pytest.param(
        hand(80, 45, 2),
        [-50, 25, 0, 25],
        [
            "D = 叫分 80 + 闲家得分 45 − 100 = 25",
            "D = 25 > 0：庄家方各输 25",
            "普通 ×1：A = 25 × 1 = 25",
            "闲家得分 45 > 40（叫 80–95）：庄家包场，朋家不输",
            "庄家独付 2 × 25 = 50，朋家 0，二鬼各 +25",
        ],
        id="pair lost baochang",
    ),
    # alone, D = −5: the declarer +3 × 5
    pytest.param(
        hand(90, 5, None),
        [15, -5, -5, -5],
        [
            "D = 叫分 90 + 闲家得分 5 − 100 = −5",
            "D = −5 < 0：闲家各输 5",
            "普通 ×1：A = 5 × 1 = 5",
            "庄家一打三：+3 × 5 = +15，其余各 −5",
        ],
        id="alone won",
    ),
    # alone, D = 90 + 30 − 100 = 20: the declarer −3 × 20 (包场 changes nothing alone)
    pytest.param(
        hand(90, 30, None),
        [-60, 20, 20, 20],
        [
            "D = 叫分 90 + 闲家得分 30 − 100 = 20",
            "D = 20 > 0：庄家方各输 20",
            "普通 ×1：A = 20 × 1 = 20",
            "庄家一打三：−3 × 20 = −60，其余各 +20",
        ],
        id="alone lost",
    ),
    # D = 80 + 20 − 100 = 0: nobody pays
    pytest.param(
        hand(80, 20, 2), [0, 0, 0, 0], ["D = 叫分 80 + 闲家得分 20 − 100 = 0", "D = 0：不输赢", "无人付分"], id="even"
    ),
    # 100爆, 光头: the 闲家 lose 50, ×2 = 100; 喜金 10 from each of the three others
    pytest.param(
        hand(100, 0, 2, "bao"),
        [100 + 30, -100 - 10, 100 - 10, -100 - 10],
        [
            "D = 叫分 100 + 闲家得分 0 − 100 = 0",
            "闲家得 0 分：光头，闲家各输 50",
            "100爆 ×2：A = 50 × 2 = 100",
            "庄家、朋家各 +100，二鬼各 −100",
            "喜金（100爆）：其余三家各给庄家 10，共 30（不乘倍数，不退还）",
        ],
        id="bao guangtou xijin",
    ),
]


@pytest.mark.parametrize(("h", "deltas", "lines"), ERGUAI_RECEIPTS)
def test_the_whole_receipt_line_by_line(h, deltas, lines):
    result = one(h)
    assert result["deltas"] == deltas
    assert result["steps"] == lines


def test_the_receipt_of_guangtou_in_add_mode():
    # guangtou_mode "add": D = 90 + 0 − 100 = −10, the 闲家 lose |D| 10 + 50 = 60 each, A = 60 × 1
    result = one(hand(90, 0, 2), options={"guangtou_mode": "add"})
    assert result["deltas"] == [60, -60, 60, -60]
    assert result["steps"] == [
        "D = 叫分 90 + 闲家得分 0 − 100 = −10",
        "闲家得 0 分：光头，闲家各输 |D| 10 + 50 = 60",
        "普通 ×1：A = 60 × 1 = 60",
        "庄家、朋家各 +60，二鬼各 −60",
    ]


def test_every_message_key_of_the_module_is_in_the_table():
    for key in erguai.MESSAGES:
        assert key in TABLE


def test_the_zero_sum_check_refuses_a_broken_figure():
    with pytest.raises(EngineDefect):
        check_zero_sum((-70, 35, 35, 35), "hand 1")


def test_the_engine_refuses_a_table_that_breaks_zero_sum(monkeypatch):
    # A deliberately broken rule: 包场 charging the declarer only once (−A instead of −2A).
    original = erguai.ErguaiTable.play

    def broken(self, h, ctx):
        result = original(self, h, ctx)
        if "包场" in result.tags:
            deltas = list(result.deltas)
            deltas[result.declarer] //= 2
            result = dataclasses.replace(result, deltas=tuple(deltas))
        return result

    monkeypatch.setattr(erguai.ErguaiTable, "play", broken)
    assert one(hand(85, 10, 2))["deltas"] == [5, -5, 5, -5]
    with pytest.raises(EngineDefect):
        one(hand(90, 45, 2))


# ---------------------------------------------------------------------------------------------
# Properties


@st.composite
def erguai_hand(draw: st.DrawFn) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if draw(st.booleans()):
        out["dealer"] = draw(st.integers(0, 3))
    if draw(st.integers(0, 9)) == 0:
        out["redeal"] = draw(st.sampled_from(["all_pass", "no_trump_no_points", "misdeal"]))
        return out
    declarer = draw(st.integers(0, 3))
    bid = draw(st.sampled_from([80, 85, 90, 95, 100]))
    out["declarer"] = declarer
    out["bid"] = bid
    out["partner"] = draw(st.sampled_from([None] + [s for s in range(4) if s != declarer]))
    out["captured"] = draw(st.integers(0, 20)) * 5
    if bid == 100:
        contract = draw(st.sampled_from(["plain", "bao", "gou", None]))
        if contract is not None:
            out["contract"] = contract
    elif draw(st.booleans()):
        out["contract"] = "plain"
    return out


OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "guangtou": st.integers(0, 100),
        "guangtou_mode": st.sampled_from(["replace", "add"]),
        "baochang": st.fixed_dictionaries({k: st.integers(0, 20).map(lambda v: v * 5) for k in erguai.BAOCHANG_KEYS}),
        "xijin": st.fixed_dictionaries({"bao": st.integers(0, 50), "gou": st.integers(0, 50)}),
        "unit_value": st.integers(1, 1000),
    },
)


@given(st.lists(erguai_hand(), max_size=20), OPTIONS)
def test_valid_sessions_settle_zero_sum_with_consistent_totals(hands, options):
    result = settle(hands, options=options)  # no exception at all for valid input
    running = [0, 0, 0, 0]
    for h, raw in zip(result["hands"], hands, strict=True):
        assert sum(h["deltas"]) == 0
        running = [r + d for r, d in zip(running, h["deltas"], strict=True)]
        assert h["totals"] == running
        assert h["next_dealer"] == (h["dealer"] + 1) % 4
        if h["status"] == "scored" and "包场" in h["tags"]:
            assert raw["partner"] is not None
            assert h["outcome"] == "declarer_lost"
        if h["status"] == "scored" and raw.get("contract", "plain") == "plain":
            if "包场" in h["tags"]:
                assert h["deltas"][raw["partner"]] == 0
            # no 喜金: the declarer side's figures mirror the 闲家's
            others = [s for s in range(4) if s not in (raw["declarer"], raw["partner"])]
            if raw["partner"] is not None and "包场" not in h["tags"]:
                assert h["deltas"][raw["declarer"]] == h["deltas"][raw["partner"]] == -h["deltas"][others[0]]
            if h["outcome"] == "even":
                assert h["deltas"] == [0, 0, 0, 0]
    assert result["totals"] == running
    assert len(result["games"]) == (1 if hands else 0)
    assert all(game["finished"] is False for game in result["games"])
    assert sum(result["totals"]) == 0


@given(st.sampled_from([80, 85, 90, 95, 100]), st.integers(1, 20), st.integers(1, 20))
def test_more_points_for_the_xianjia_never_help_the_declarer(bid, c1, c2):
    low, high = min(c1, c2) * 5, max(c1, c2) * 5
    at_low = one(hand(bid, low, None))["deltas"][0]
    at_high = one(hand(bid, high, None))["deltas"][0]
    assert at_low >= at_high
    assert at_low == -3 * (bid + low - 100)  # alone, plain, not 光头: −3D


ANY_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-10, 120),
    st.sampled_from(["plain", "bao", "gou", "x", "all_pass"]),
    st.lists(st.integers()),
)
FIELDS = sorted(erguai.HAND_FIELDS | {"surrender", "kou_di"})


@given(st.lists(st.dictionaries(st.sampled_from(FIELDS), ANY_VALUE, max_size=7), max_size=8))
def test_any_document_either_settles_or_raises_a_rules_error(hands):
    try:
        result = settle(hands)
    except RulesError as error:
        assert error.hand is None or 1 <= error.hand <= len(hands)
        assert error.field
        error.describe("en")
        return
    assert sum(result["totals"]) == 0
