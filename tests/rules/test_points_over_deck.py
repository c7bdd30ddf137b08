"""A figure over the deck's points is refused as over the deck, whatever else is wrong with it."""

from __future__ import annotations

import pytest

from settlement.rules.base import RulesError
from settlement.rules.document import document_parse
from settlement.rules.registry import VARIANTS

from .helpers import document


def _refusal(variant: str, hand: dict) -> RulesError:
    with pytest.raises(RulesError) as caught:
        document_parse(document(variant, [hand]), variants=VARIANTS)
    return caught.value


@pytest.mark.parametrize(
    ("variant", "hand", "field", "total"),
    [
        # One deck of 100 points (rules/baifen.md); 999 is over it before it is "not a multiple of 5".
        ("baifen.benxi", {"dealer": 0, "declarer": 1, "bid": 85, "captured": 999}, "captured", 100),
        ("erguai", {"dealer": 0, "declarer": 1, "bid": 85, "partner": 2, "captured": 101}, "captured", 100),
        # Two decks in 标分 (200), three in 打滚子 and 红星五 (300).
        ("biaofen", {"dealer": 0, "declarer": 1, "bid": 50, "captured": 203}, "captured", 200),
        ("gunzi", {"declarer": 0, "captured": 50, "bottom_points": 999}, "bottom_points", 300),
        ("hongxingwu", {"declarer": 0, "captured": 301}, "captured", 300),
    ],
)
def test_a_figure_over_the_deck_says_so(variant, hand, field, total):
    error = _refusal(variant, hand)
    assert (error.code, error.field, error.params["total"]) == ("points.over_deck", field, total)
    assert error.message("zh-Hans") == f"{hand[field]} 分超过整副牌的 {total} 分"


def test_a_figure_within_the_deck_that_is_not_a_multiple_of_5_still_says_that():
    error = _refusal("baifen.benxi", {"dealer": 0, "declarer": 1, "bid": 85, "captured": 97})
    assert error.code == "points.not_multiple_of_5"
