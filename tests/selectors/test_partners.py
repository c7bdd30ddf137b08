"""The best and the worst partner (or opponent): points per hand among those with the minimum of hands."""

from __future__ import annotations

import pytest

from settlement.models import Player
from settlement.selectors.stats import OtherPlayer, best_and_worst


def _others(*rows: tuple[str, int, int]) -> tuple[OtherPlayer, ...]:
    return tuple(
        OtherPlayer(player=Player(pk=i, name=name), hands=hands, won=0, net=net)
        for i, (name, hands, net) in enumerate(rows, start=1)
    )


@pytest.mark.parametrize(
    ("rows", "best", "worst"),
    [
        ((), None, None),
        ((("甲", 9, 90),), None, None),  # 9 hands: one short of 10
        ((("甲", 10, 90),), "甲", None),  # one qualifies: a best, no worst
        ((("甲", 10, 90), ("乙", 12, -12), ("丙", 30, 30)), "甲", "乙"),  # 9.0, −1.0, 1.0 a hand
        ((("甲", 10, 90), ("乙", 3, -300), ("丙", 30, 30)), "甲", "丙"),  # 乙's −100 a hand is on 3 hands only
        ((("甲", 10, 10), ("乙", 20, 20)), "乙", "甲"),  # 1.0 each: more hands first
        ((("乙", 10, 10), ("甲", 10, 10)), "乙", "甲"),  # equal hands too: by name (乙 U+4E59 before 甲 U+7532)
        ((("甲", 30, 10), ("乙", 30, 11)), "乙", "甲"),  # 0.333… against 0.366…: unrounded (both 0.3 shown)
    ],
)
def test_the_best_and_worst_are_ranked_by_points_per_hand_among_those_with_ten_hands(rows, best, worst):
    found = best_and_worst(_others(*rows), min_hands=10)
    assert tuple(o.player.name if o else None for o in found) == (best, worst)
