"""Ratings and the players' audit trail, from the stored rows (`RatingRow`, `PlayerEvent`): no replay, no rating.

The leaderboard is three queries however many hands, games or sessions the club has played; the rating graph
of its leaders (`rating_steps`) one more.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Count, F, Max, Q, Window
from django.db.models.functions import RowNumber

from ..ledger.ratings import FAMILIES
from ..models import Club, Player, PlayerEvent, RatingRow


@dataclass(frozen=True, kw_only=True)
class LeaderboardEntry:
    rank: int
    player: Player
    mu: float
    sigma: float
    ordinal: float  # mu − 3σ: the conservative rating shown
    outcomes: int  # how many rated games or sessions it stands on


@dataclass(frozen=True, kw_only=True)
class Leaderboard:
    family: str | None  # None: nothing is rated yet
    families: tuple[str, ...]  # the families the club has ratings in, in `FAMILIES` order
    entries: tuple[LeaderboardEntry, ...]


def leaderboard(*, club: Club, family: str | None = None) -> Leaderboard:
    """Every rated player's latest rating in `family` (default: the club's first rated family), best first."""
    present = set(RatingRow.objects.filter(club=club).values_list("family", flat=True).distinct().order_by())
    families = tuple(key for key in FAMILIES if key in present)
    if family is None:
        family = families[0] if families else None
    if family is None or family not in present:
        return Leaderboard(family=family, families=families, entries=())
    rows = RatingRow.objects.filter(club=club, family=family)
    latest = {
        row["player_id"]: (row["last"], row["n"])
        for row in rows.values("player_id").annotate(last=Max("order"), n=Count("id")).order_by()
    }
    current = [
        row
        for row in rows.filter(order__in={last for last, _ in latest.values()}).select_related("player")
        if latest[row.player_id][0] == row.order and row.player.merged_into_id is None
    ]
    current.sort(key=lambda row: (-row.ordinal, -row.mu, row.player.name, row.player_id))
    entries = tuple(
        LeaderboardEntry(
            rank=i,
            player=row.player,
            mu=row.mu,
            sigma=row.sigma,
            ordinal=row.ordinal,
            outcomes=latest[row.player_id][1],
        )
        for i, row in enumerate(current, start=1)
    )
    return Leaderboard(family=family, families=families, entries=entries)


@dataclass(frozen=True, kw_only=True)
class RatingStep:
    """A player's rating after one rated outcome (a finished game or a closed session) of a family."""

    played: int  # the player's rated outcomes in the family so far, this one included: 1, 2, …
    date: datetime.date  # the outcome's session's
    ordinal: float


def rating_steps(*, club: Club, family: str, players: Sequence[Player]) -> dict[int, tuple[RatingStep, ...]]:
    """Each of `players`' ratings in `family` after every outcome, oldest first, by player id (one query)."""
    steps: dict[int, list[RatingStep]] = {player.pk: [] for player in players}
    rows = (
        RatingRow.objects.filter(club=club, family=family, player__in=list(steps))
        .order_by("player_id", "order")
        .values_list("player_id", "session__date", "ordinal")
    )
    for player_id, date, ordinal in rows:
        mine = steps[player_id]
        mine.append(RatingStep(played=len(mine) + 1, date=date, ordinal=ordinal))
    return {player_id: tuple(mine) for player_id, mine in steps.items()}


@dataclass(frozen=True, kw_only=True)
class FamilyHistory:
    family: str
    current: RatingRow
    history: tuple[RatingRow, ...]  # newest first, with their sessions


def player_ratings(*, player: Player, limit: int = 20) -> list[FamilyHistory]:
    """The player's rating in each family, with the `limit` newest steps of its history (one query: the newest
    `limit` rows of each family, not the player's whole history)."""
    newest = Window(RowNumber(), partition_by=[F("family")], order_by=F("order").desc())
    rows = (
        RatingRow.objects.filter(player=player)
        .annotate(newest=newest)
        .filter(newest__lte=limit)
        .select_related("session")
        .order_by("family", "-order")
    )
    found: dict[str, list[RatingRow]] = {}
    for row in rows:
        found.setdefault(row.family, []).append(row)
    order = {key: i for i, key in enumerate(FAMILIES)}
    return [
        FamilyHistory(family=family, current=rows[0], history=tuple(rows[:limit]))
        for family, rows in sorted(found.items(), key=lambda item: order.get(item[0], len(order)))
    ]


def player_events(*, player: Player) -> list[PlayerEvent]:
    """The player's renames and merges, and the records merged into it, oldest first (one query)."""
    return list(
        PlayerEvent.objects.filter(Q(player=player) | Q(into=player))
        .select_related("user", "player", "into")
        .order_by("created_at", "id")
    )


def merge_candidates(*, player: Player) -> list[Player]:
    """The club's other players a record could be merged into: not merged themselves (one query)."""
    return list(
        Player.objects.filter(club_id=player.club_id, merged_into__isnull=True).exclude(pk=player.pk).order_by("name")
    )
