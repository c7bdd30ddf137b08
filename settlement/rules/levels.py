"""What the level-up games (济源红星五, 打滚子, 升级) share: level names, teams, rotation, redeals, promotion.

Seats 0 + 2 (team A) play 1 + 3 (team B) — with six players 0 + 2 + 4 play
1 + 3 + 5; a team's level is an index into `LEVELS`, or into a club's
`ladder` (a rising subset of it). The declarer of a game's first hand is
entered; later hands follow the rotation unless the club plays
`free_declarer`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import pairwise
from typing import Any

from .base import Deltas, HandInput, HandResult, HandStatus, Msg, Rotation, RulesError, Seat, SeatName, TeamName
from .options import parse_choice_list


class LevelCarry:
    """What a level game's table carries from hand to hand (its resumable state): each team's level
    and the rotation's next declarer. Tables that carry more extend `state_dump` / `state_load`."""

    levels: tuple[int, int]
    pending: Seat | None

    def state_dump(self) -> dict[str, Any]:
        return {"levels": list(self.levels), "pending": self.pending}

    def state_load(self, state: Mapping[str, Any]) -> None:
        levels = state["levels"]
        self.levels = (int(levels[0]), int(levels[1]))
        self.pending = state["pending"]


# The rotation's next declarer: the declarer's partner (with 6 players, the team's next) when the declaring
# team went up, else his 下家; a hand thrown in keeps the pending declarer.
ROTATION = Rotation(seat="declarer", redeal=0, scored=None, won=2, lost=1)

LEVELS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def team_index(seat: Seat) -> int:
    """0 for team A (seats 0 + 2), 1 for team B (seats 1 + 3)."""
    return seat % 2


def team_msg(team: int, players: int = 4) -> TeamName:
    """A team named by its players."""
    return TeamName(seats=team_seats(team, players))


def team_seats(team: int, players: int = 4) -> tuple[Seat, ...]:
    return tuple(range(team, players, 2))


def seat_levels(levels: tuple[int, int], ladder: Sequence[str] = LEVELS, players: int = 4) -> tuple[str, ...]:
    """Per-seat level names from the two team levels."""
    return tuple(ladder[levels[seat % 2]] for seat in range(players))


def level_deltas(team: int, moved: int, players: int, other: int) -> Deltas:
    """Per-seat deltas: each seat of `team` shows `moved`, the other team's seats `other`."""
    return tuple(moved if seat % 2 == team else other for seat in range(players))


def levels_step(levels: tuple[int, int], ladder: Sequence[str] = LEVELS, players: int = 4) -> Msg:
    return Msg(
        key="levels.now",
        params={
            "team_a": team_msg(0, players),
            "a": ladder[levels[0]],
            "team_b": team_msg(1, players),
            "b": ladder[levels[1]],
        },
    )


def resolve_declarer(hand: HandInput, pending: Seat | None, free_declarer: bool, steps: list[Msg]) -> Seat:
    """The declarer of a scored hand: entered, or the rotation's `pending` one.

    A game's first hand (no pending declarer) must name it; an entered one
    that contradicts the rotation is refused unless the club plays
    `free_declarer`.
    """
    if "declarer" in hand.present:
        assert hand.declarer is not None
        if pending is not None and hand.declarer != pending:
            if not free_declarer:
                raise hand.error(
                    "declarer.rotation", "declarer", expected=SeatName(pending), entered=SeatName(hand.declarer)
                )
            steps.append(
                Msg(key="declarer.free", params={"seat": SeatName(hand.declarer), "expected": SeatName(pending)})
            )
        return hand.declarer
    if pending is None:
        raise hand.error("declarer.first_hand", "declarer")
    return pending


def level_redeal(
    hand: HandInput,
    pending: Seat | None,
    levels: tuple[int, int],
    outcome: str,
    ladder: Sequence[str] = LEVELS,
    players: int = 4,
) -> HandResult:
    """A thrown-in hand of a level game: no score, the pending declarer shown, levels unchanged."""
    return HandResult(
        status=HandStatus.REDEAL,
        dealer=pending,
        declarer=None,
        outcome=outcome,
        tags=(),
        declarer_won=None,
        deltas=(0,) * players,
        steps=(Msg(key="redeal", params={"reason": Msg(key=f"redeal.{hand.redeal}")}),),
        next_dealer=None if pending is None else ROTATION.after_redeal(pending, players),
        levels=seat_levels(levels, ladder, players),
    )


def check_deck(hand: HandInput, total: int) -> None:
    """`captured` plus the bottom's points fit in the deck."""
    assert hand.captured is not None
    if hand.captured > total:
        raise hand.error("points.over_deck", "captured", value=hand.captured, total=total)
    if hand.captured + hand.bottom_points > total:
        raise hand.error("points.over_deck", "bottom_points", value=hand.captured + hand.bottom_points, total=total)


def band_text(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}–{high}"


# ---------------------------------------------------------------- promotion (docs/rules/shengji.md, Promotion)


class Finish(StrEnum):
    MUST_PLAY_ACE = "must_play_ace"  # A必打: only a promotion while declaring at the last level wins
    PASS_ACE = "pass_ace"  # any promotion from the last level wins


class Stop(StrEnum):
    """Why a promotion stopped short of its `k` levels (卡关)."""

    LAST = "last"  # at the last level and not allowed to win from there
    MUST_DEFEND = "must_defend"  # 必打关卡: only the declaring team's first step leaves it
    NO_SKIP = "no_skip"  # 不许越级: a promotion never passes it, it stops on it


@dataclass(frozen=True, kw_only=True)
class Promotion:
    start: int
    end: int
    won: bool  # the team won the game (its level then stays at the last one)
    stop: Stop | None  # None: moved all `k` levels (or won)

    @property
    def moved(self) -> int:
        return self.end - self.start


def promote(
    level: int,
    k: int,
    *,
    declaring: bool,
    last: int,
    finish: Finish,
    must_defend: Iterable[int] = (),
    no_skip: Iterable[int] = (),
) -> Promotion:
    """Move a team at `level` up `k` steps, one at a time (docs/rules/shengji.md, Promotion).

    For step `i` = 0 … k − 1 at level `L`: at `last` the team wins (A必打: only
    when `declaring` and `i` = 0) or stops; at a `must_defend` level it stops
    unless `declaring` and `i` = 0; at a `no_skip` level it stops when `i` > 0;
    otherwise it moves up one.

    >>> promote(1, 6, declaring=False, last=12, finish=Finish.PASS_ACE, must_defend=(0, 3, 8, 11)).end
    3
    >>> p = promote(12, 1, declaring=True, last=12, finish=Finish.MUST_PLAY_ACE)
    >>> p.won, p.moved
    (True, 0)
    >>> promote(7, 3, declaring=True, last=12, finish=Finish.MUST_PLAY_ACE, no_skip=(8,)).stop
    <Stop.NO_SKIP: 'no_skip'>
    """
    defend, skip = frozenset(must_defend), frozenset(no_skip)
    current = level
    for i in range(k):
        first_step = declaring and i == 0
        if current == last:
            won = finish is Finish.PASS_ACE or first_step
            return Promotion(start=level, end=current, won=won, stop=None if won else Stop.LAST)
        if current in defend and not first_step:
            return Promotion(start=level, end=current, won=False, stop=Stop.MUST_DEFEND)
        if current in skip and i > 0:
            return Promotion(start=level, end=current, won=False, stop=Stop.NO_SKIP)
        current += 1
    return Promotion(start=level, end=current, won=False, stop=None)


# A list of level names (`"2"` … `"A"`): a ladder, or levels marked on it (`must_defend`, `no_skip`);
# whether a ladder rises is checked with the other options (`check_ladder`).
parse_ladder = parse_choice_list(LEVELS, expected="a list of levels from " + ", ".join(LEVELS))


def check_ladder(
    ladder: Sequence[str], marked: Iterable[tuple[str, Sequence[str]]], *, extra: Iterable[tuple[str, str]] = ()
) -> None:
    """`ladder` strictly rising with at least 2 levels; each marked list (`must_defend`, `no_skip`)
    on it and never its last level; each `extra` (option, level) on it."""
    order = [LEVELS.index(name) for name in ladder]
    if len(order) < 2 or any(b <= a for a, b in pairwise(order)):
        raise RulesError("options.inconsistent", field="options.ladder", detail=Msg(key="options.ladder_rising"))
    for option_name, levels in marked:
        for name in levels:
            if name not in ladder or name == ladder[-1]:
                raise RulesError(
                    "options.inconsistent",
                    field=f"options.{option_name}",
                    detail=Msg(
                        key="options.level_below_last",
                        params={"option": Msg(key=f"options.{option_name}"), "name": name},
                    ),
                )
    for option_name, name in extra:
        if name not in ladder:
            raise RulesError(
                "options.inconsistent",
                field=f"options.{option_name}",
                detail=Msg(
                    key="options.level_on_ladder", params={"option": Msg(key=f"options.{option_name}"), "name": name}
                ),
            )
