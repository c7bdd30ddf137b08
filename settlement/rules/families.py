"""What a variant's figures are: its game family, the unit it settles in, and who sides with whom.

Statistics never add figures across units: an 本溪 total is 盘 points (a team's
running score toward the 盘's target), an 打二鬼 or 打滚子 total is points of
stake (zero-sum, paid player to player), classic 打百分 counts 注, 标分 档,
and the level games 级. `SCORING` says, per registered variant, which of
these it is, and `scoring_group` names the (family, unit) a figure belongs
to: figures of one group add up, figures of two groups never do.

The declaring side (庄家方) of a hand: in the fixed-partnership games the
declarer's team (seats of the declarer's parity); in the friend-card games
(classic 打百分, 打二鬼) the declarer and the partner the called card named,
if any; in 标分 the declarer alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .base import HandInput, HandResult, Lang, Seat
from .levels import LEVELS


class Family(StrEnum):
    BAIFEN = "baifen"  # 打百分 (本溪, 抚顺, 沈阳, classic)
    ERGUAI = "erguai"  # 打二鬼
    BIAOFEN = "biaofen"  # 标分
    HONGXINGWU = "hongxingwu"  # 济源红星五
    GUNZI = "gunzi"  # 打滚子
    SHENGJI = "shengji"  # 升级


class Unit(StrEnum):
    PAN_POINTS = "pan_points"  # 分 of a 盘: a team's running score toward the target
    ZHU = "zhu"  # 注: classic 打百分's stake
    STAKE_POINTS = "stake_points"  # 分 of stake, paid player to player
    DANG = "dang"  # 档: 标分's stake
    LEVELS = "levels"  # 级


class Sides(StrEnum):
    FIXED = "fixed"  # teams for the whole session: the declarer's parity
    FRIEND = "friend"  # the declarer and the hand's `partner`, if any
    ALONE = "alone"  # the declarer alone against the others


@dataclass(frozen=True, kw_only=True)
class Scoring:
    family: Family
    unit: Unit
    sides: Sides
    has_bid: bool  # declarer statistics by bid; else by band of levels (level games) or overall


SCORING: Mapping[str, Scoring] = {
    "baifen.benxi": Scoring(family=Family.BAIFEN, unit=Unit.PAN_POINTS, sides=Sides.FIXED, has_bid=True),
    "baifen.fushun": Scoring(family=Family.BAIFEN, unit=Unit.PAN_POINTS, sides=Sides.FIXED, has_bid=True),
    "baifen.shenyang": Scoring(family=Family.BAIFEN, unit=Unit.PAN_POINTS, sides=Sides.FIXED, has_bid=True),
    "baifen.classic": Scoring(family=Family.BAIFEN, unit=Unit.ZHU, sides=Sides.FRIEND, has_bid=True),
    "erguai": Scoring(family=Family.ERGUAI, unit=Unit.STAKE_POINTS, sides=Sides.FRIEND, has_bid=True),
    "biaofen": Scoring(family=Family.BIAOFEN, unit=Unit.DANG, sides=Sides.ALONE, has_bid=True),
    "hongxingwu": Scoring(family=Family.HONGXINGWU, unit=Unit.LEVELS, sides=Sides.FIXED, has_bid=False),
    "gunzi": Scoring(family=Family.GUNZI, unit=Unit.STAKE_POINTS, sides=Sides.FIXED, has_bid=False),
    "shengji": Scoring(family=Family.SHENGJI, unit=Unit.LEVELS, sides=Sides.FIXED, has_bid=False),
}

FAMILY_NAMES: Mapping[Family, Mapping[str, str]] = {
    Family.BAIFEN: {Lang.ZH: "打百分", Lang.EN: "Baifen (打百分)"},
    Family.ERGUAI: {Lang.ZH: "打二鬼", Lang.EN: "Erguai (打二鬼)"},
    Family.BIAOFEN: {Lang.ZH: "标分", Lang.EN: "Biaofen (标分)"},
    Family.HONGXINGWU: {Lang.ZH: "济源红星五", Lang.EN: "Hongxingwu (红星五)"},
    Family.GUNZI: {Lang.ZH: "打滚子", Lang.EN: "Gunzi (打滚子)"},
    Family.SHENGJI: {Lang.ZH: "升级", Lang.EN: "Shengji (升级)"},
}

UNIT_NAMES: Mapping[Unit, Mapping[str, str]] = {
    Unit.PAN_POINTS: {Lang.ZH: "盘分", Lang.EN: "盘 points"},
    Unit.ZHU: {Lang.ZH: "注", Lang.EN: "注 (stakes)"},
    Unit.STAKE_POINTS: {Lang.ZH: "分（注码）", Lang.EN: "stake points"},
    Unit.DANG: {Lang.ZH: "档", Lang.EN: "档 (stakes)"},
    Unit.LEVELS: {Lang.ZH: "级", Lang.EN: "levels"},
}


def scoring_group(variant: str) -> str:
    """The key figures of `variant` add up under: `family/unit` (`baifen/pan_points`)."""
    scoring = SCORING[variant]
    return f"{scoring.family}/{scoring.unit}"


def group_parts(group: str) -> tuple[Family, Unit]:
    family, unit = group.split("/")
    return Family(family), Unit(unit)


def group_order(group: str) -> tuple[int, int]:
    """Groups in the families' and units' order of declaration (for pages, API and downloads alike)."""
    family, unit = group_parts(group)
    return list(Family).index(family), list(Unit).index(unit)


def group_label(group: str, lang: str = Lang.ZH) -> str:
    """`打百分 · 盘分` / `Baifen (打百分) · 盘 points`."""
    family, unit = group_parts(group)
    key = Lang.EN if lang == Lang.EN else Lang.ZH
    return f"{FAMILY_NAMES[family][key]} · {UNIT_NAMES[unit][key]}"


def declaring_side(variant: str, hand: HandInput, result: HandResult, players: int) -> tuple[bool, ...] | None:
    """Per seat: on the declaring side of this hand? None when the hand had no declarer (a redeal).

    >>> from .base import HandStatus
    >>> r = HandResult(status=HandStatus.SCORED, dealer=0, declarer=1, outcome="made", tags=(),
    ...                declarer_won=True, deltas=(0, 0, 0, 0), steps=(), next_dealer=1)
    >>> declaring_side("baifen.benxi", HandInput(n=1, present=frozenset()), r, 4)
    (False, True, False, True)
    >>> declaring_side("erguai", HandInput(n=1, present=frozenset(), partner=2), r, 4)
    (False, True, True, False)
    >>> declaring_side("biaofen", HandInput(n=1, present=frozenset()), r, 3)
    (False, True, False)
    """
    declarer: Seat | None = result.declarer
    if declarer is None:
        return None
    sides = SCORING[variant].sides
    if sides is Sides.FIXED:
        return tuple(seat % 2 == declarer % 2 for seat in range(players))
    partner = hand.partner if sides is Sides.FRIEND else None
    return tuple(seat in (declarer, partner) for seat in range(players))


def declarer_level(variant: str, options: Any, levels: Sequence[int] | None, declarer: Seat | None) -> str | None:
    """The level the declaring team played a hand at, in the level games (红星五, 打滚子, 升级); else None.

    `levels` is the teams' level indices before the hand (the table's state, `levels` of its dump), None
    when the hand opens a game (both teams at the game's first level).
    """
    if declarer is None or variant not in ("hongxingwu", "gunzi", "shengji"):
        return None
    ladder: Sequence[str] = LEVELS if variant == "gunzi" else options.ladder
    if levels is None:
        if variant == "hongxingwu":
            return str(options.start_level)
        return str(options.first_level) if variant == "gunzi" else ladder[0]
    return ladder[levels[declarer % 2]]


# Bands of the standard levels (2 … A) for declarer statistics; a level outside them is its own band.
LEVEL_BANDS: tuple[tuple[str, str], ...] = (("2", "5"), ("6", "9"), ("10", "K"), ("A", "A"))


def level_band(level: str) -> str:
    """`2–5`, `6–9`, `10–K` or `A` for a standard level; the level itself otherwise.

    >>> [level_band(x) for x in ("3", "9", "J", "A", "X")]
    ['2–5', '6–9', '10–K', 'A', 'X']
    """
    if level not in LEVELS:
        return level
    index = LEVELS.index(level)
    for first, last in LEVEL_BANDS:
        if LEVELS.index(first) <= index <= LEVELS.index(last):
            return first if first == last else f"{first}–{last}"
    return level


# --- the hands and games players remember (records and achievements) ---

# The tags (`HandResult.tags`) the records count, as the rules reference names them: 抠底 (the capture side won
# the last trick: 打百分, 标分, 升级), 光头 (the capture side held to nothing: 打二鬼, 升级), 包场 (打二鬼: the
# declarer pays for the partner too). 抠手 (a side card to the last trick) is not 抠底.
KOUDI, GUANGTOU, BAOCHANG = "抠底", "光头", "包场"

# 出锅: a game won by reaching the target (打百分's regional 盘, `how: "target"`) or, in 打滚子, by going past the
# last level (`how: "levels"`); 红星五's and 升级's level games end by levels too, but nobody calls that 出锅.
CHUGUO = {"baifen.benxi": "target", "baifen.fushun": "target", "baifen.shenyang": "target", "gunzi": "levels"}


def hand_marks(tags: Sequence[str]) -> tuple[bool, bool, bool]:
    """(抠底, 光头, 包场): which of the remembered tags a hand's result carries.

    >>> hand_marks(("破", "抠底")), hand_marks(("包场",)), hand_marks(("抠手",))
    ((True, False, False), (False, False, True), (False, False, False))
    """
    return KOUDI in tags, GUANGTOU in tags, BAOCHANG in tags


def side_won(on_declaring_side: bool | None, declarer_won: bool | None) -> bool:
    """Did this seat's side win the hand? Never for a redeal or a hand neither side won (打二鬼's even).

    >>> side_won(True, True), side_won(False, False), side_won(False, True), side_won(None, None), side_won(True, None)
    (True, True, False, False, False)
    """
    if on_declaring_side is None or declarer_won is None:
        return False
    return on_declaring_side == declarer_won


def won_runs(
    hands: Sequence[tuple[tuple[bool, ...] | None, bool | None]],
    players: int,
    *,
    start: Sequence[int] | None = None,
) -> list[tuple[int, ...]]:
    """Per hand (its declaring sides, or None for a redeal, and `declarer_won`), per seat: the run of hands won the
    seat's side stands at after it, on from `start` (the runs after the hand before; None: all 0).

    A redeal is no hand played: it neither extends a run nor breaks it. Any other hand not won (lost, or
    打二鬼's even) breaks it. A hand the side won ends a run of that length.

    >>> won_runs([((True, False), True), (None, None), ((True, False), True), ((False, True), None)], 2)
    [(1, 0), (1, 0), (2, 0), (0, 0)]
    >>> won_runs([((False, True), False)], 2, start=[4, 0])
    [(5, 0)]
    """
    current = list(start) if start is not None and len(start) == players else [0] * players
    out: list[tuple[int, ...]] = []
    for sides, declarer_won in hands:
        if sides is not None:
            current = [run + 1 if side_won(sides[seat], declarer_won) else 0 for seat, run in enumerate(current)]
        out.append(tuple(current))
    return out
