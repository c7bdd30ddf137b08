"""What the level-up games (济源红星五, 打滚子) share: level names, teams, rotation, redeals.

Seats 0 + 2 (team A) play 1 + 3 (team B); a team's level is an index into
`LEVELS`. The declarer of a game's first hand is entered; later hands follow
the rotation unless the club plays `free_declarer`.
"""

from __future__ import annotations

from .base import HandInput, HandResult, HandStatus, Msg, Seat, SeatName, TeamName

LEVELS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
ACE = len(LEVELS) - 1


def team_index(seat: Seat) -> int:
    """0 for team A (seats 0 + 2), 1 for team B (seats 1 + 3)."""
    return seat % 2


def team_msg(team: int) -> TeamName:
    """A team named by its players."""
    return TeamName(seats=team_seats(team))


def team_seats(team: int) -> tuple[Seat, Seat]:
    return (team, team + 2)


def seat_levels(levels: tuple[int, int]) -> tuple[str, ...]:
    """Per-seat level names from the two team levels."""
    return tuple(LEVELS[levels[seat % 2]] for seat in range(4))


def levels_step(levels: tuple[int, int]) -> Msg:
    return Msg(
        key="levels.now",
        params={"team_a": team_msg(0), "a": LEVELS[levels[0]], "team_b": team_msg(1), "b": LEVELS[levels[1]]},
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


def level_redeal(hand: HandInput, pending: Seat | None, levels: tuple[int, int], outcome: str) -> HandResult:
    """A thrown-in hand of a level game: no score, the pending declarer shown, levels unchanged."""
    return HandResult(
        status=HandStatus.REDEAL,
        dealer=pending,
        declarer=None,
        outcome=outcome,
        tags=(),
        declarer_won=None,
        deltas=(0, 0, 0, 0),
        steps=(Msg(key="redeal", params={"reason": Msg(key=f"redeal.{hand.redeal}")}),),
        next_dealer=pending,
        levels=seat_levels(levels),
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
