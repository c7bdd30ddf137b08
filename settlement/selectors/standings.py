"""Club standings: each player's figures across the club's sessions, from the derived rows."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q, Sum

from ..models import Club, GameRow, Player, Session, SessionSeat, SettlementRow
from ..rules.registry import VARIANTS


@dataclass(frozen=True, kw_only=True)
class Standing:
    """One player's figures across the club's sessions.

    `totals` is per unit (分, 注, 档, 级: a unit appears once the player sat in a
    session of a variant that counts in it); `money` adds up totals × the
    session's `unit_value` option over the sessions that have one (None if none has).
    """

    player: Player
    sessions: int
    hands: int  # hands that count (not void) played in
    declared: int
    declarer_won: int  # hands declared whose declaring side won (the results' `declarer_won`)
    games_won: int
    totals: dict[str, int]
    money: int | None


def standings_compute(
    *,
    club: Club,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
    variant: str | None = None,
) -> list[Standing]:
    """Every player who sat in one of the club's (filtered) sessions, by name: four queries, from the derived rows."""
    sessions = Session.objects.filter(club=club)
    if date_from is not None:
        sessions = sessions.filter(date__gte=date_from)
    if date_to is not None:
        sessions = sessions.filter(date__lte=date_to)
    if variant:
        sessions = sessions.filter(variant=variant)
    seats = SessionSeat.objects.filter(session__in=sessions).values(
        "session_id", "player_id", "session__variant", "session__options__unit_value"
    )
    hands = {
        (row["session_id"], row["player_id"]): row
        for row in SettlementRow.objects.filter(session__in=sessions)
        .values("session_id", "player_id")
        .annotate(
            total=Sum("delta"),
            hands=Count("id"),
            declared=Count("id", filter=Q(is_declarer=True)),
            won=Count("id", filter=Q(is_declarer=True, declarer_won=True)),
        )
        .order_by()
    }
    games = {
        (row["session_id"], row["player_id"]): row
        for row in GameRow.objects.filter(session__in=sessions)
        .values("session_id", "player_id")
        .annotate(adjustment=Sum("adjustment"), won=Count("id", filter=Q(won=True)))
        .order_by()
    }
    figures: dict[int, dict[str, Any]] = {}
    for seat in seats:
        key = (seat["session_id"], seat["player_id"])
        hand_row = hands.get(key, {})
        game_row = games.get(key, {})
        unit = VARIANTS[seat["session__variant"]].unit if seat["session__variant"] in VARIANTS else ""
        total = (hand_row.get("total") or 0) + (game_row.get("adjustment") or 0)
        unit_value = seat["session__options__unit_value"]
        mine = figures.setdefault(
            seat["player_id"],
            {"sessions": 0, "hands": 0, "declared": 0, "declarer_won": 0, "games_won": 0, "totals": {}, "money": None},
        )
        mine["sessions"] += 1
        mine["hands"] += hand_row.get("hands", 0)
        mine["declared"] += hand_row.get("declared", 0)
        mine["declarer_won"] += hand_row.get("won", 0)
        mine["games_won"] += game_row.get("won", 0)
        mine["totals"][unit] = mine["totals"].get(unit, 0) + total
        if isinstance(unit_value, int) and not isinstance(unit_value, bool):
            mine["money"] = (mine["money"] or 0) + total * unit_value
    units = list(dict.fromkeys(rules.unit for rules in VARIANTS.values()))  # 分, 注, 档, 级
    for mine in figures.values():
        mine["totals"] = dict(sorted(mine["totals"].items(), key=lambda item: _unit_rank(units, item[0])))
    players = Player.objects.filter(club=club, pk__in=list(figures)).order_by("name", "pk")
    return [Standing(player=player, **figures[player.pk]) for player in players]


def _unit_rank(units: list[str], unit: str) -> int:
    return units.index(unit) if unit in units else len(units)
