"""Club standings and a player's statistics, from the derived rows with aggregate queries (never a replay).

Figures of different units never add up: every figure is grouped by the
(family, unit) of its session's variant (`rules.families.scoring_group`).
A fixed number of queries whatever the number of sessions or hands.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field, replace
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.db.models import Count, F, Q, QuerySet, Sum

from ..models import Club, GameRow, Player, Session, SessionSeat, SettlementRow
from ..rules.families import LEVEL_BANDS, SCORING, group_order, level_band, scoring_group
from .sessions import sessions_dated

# The side this row's seat was on won the hand (a hand neither side won — a redeal, 打二鬼's even — counts for none).
SIDE_WON = Q(declaring_side=True, declarer_won=True) | Q(declaring_side=False, declarer_won=False)


def per(total: int, count: int) -> Decimal | None:
    """total / count to one decimal, halves away from zero; None for no count."""
    if not count:
        return None
    return (Decimal(total) / Decimal(count)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)


def _sessions(
    club: Club, date_from: datetime.date | None, date_to: datetime.date | None, variant: str | None
) -> QuerySet[Session]:
    sessions = Session.objects.filter(club=club, variant__in=list(SCORING))
    return sessions_dated(sessions, date_from=date_from, date_to=date_to, variant=variant)


@dataclass(frozen=True, kw_only=True)
class SessionFigures:
    """One player's figures in one session."""

    session_id: int
    date: datetime.date
    variant: str
    closed: bool
    group: str
    hands: int
    declared: int
    declarer_won: int
    games_won: int
    total: int  # hand deltas + game adjustments
    won: bool = False  # closed, and no one at the table finished higher


def _session_figures(sessions: QuerySet[Session]) -> list[tuple[int, SessionFigures]]:
    """(player id, figures) for every seat of every session: three queries. A session is won by whoever
    finished it (closed) with the highest total at the table, ties sharing it."""
    seats = SessionSeat.objects.filter(session__in=sessions).values(
        "session_id", "player_id", "session__variant", "session__date", "session__status"
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
    by_session: dict[int, list[tuple[int, SessionFigures]]] = {}
    for seat in seats:
        key = (seat["session_id"], seat["player_id"])
        hand_row, game_row = hands.get(key, {}), games.get(key, {})
        by_session.setdefault(seat["session_id"], []).append(
            (
                seat["player_id"],
                SessionFigures(
                    session_id=seat["session_id"],
                    date=seat["session__date"],
                    variant=seat["session__variant"],
                    closed=seat["session__status"] == Session.Status.CLOSED,
                    group=scoring_group(seat["session__variant"]),
                    hands=hand_row.get("hands", 0),
                    declared=hand_row.get("declared", 0),
                    declarer_won=hand_row.get("won", 0),
                    games_won=game_row.get("won", 0),
                    total=(hand_row.get("total") or 0) + (game_row.get("adjustment") or 0),
                ),
            )
        )
    out: list[tuple[int, SessionFigures]] = []
    for rows in by_session.values():
        best = max(figures.total for _, figures in rows)
        for player_id, figures in rows:
            won = figures.closed and figures.hands > 0 and figures.total == best
            out.append((player_id, replace(figures, won=won)))
    return out


# --- standings ---


@dataclass(frozen=True, kw_only=True)
class StandingRow:
    player: Player
    rank: int  # equal figures share a rank (1, 2, 2, 4)
    sessions: int
    sessions_won: int
    hands: int
    declared: int
    declarer_won: int
    games_won: int
    total: int
    per_session: Decimal | None
    per_hand: Decimal | None


@dataclass(frozen=True, kw_only=True)
class StandingGroup:
    """The standings of one (family, unit): `group` is `rules.families.scoring_group`'s key."""

    group: str
    variants: tuple[str, ...]
    rows: tuple[StandingRow, ...]


# Ranked by total, then games won, then sessions won (each highest first); equal on all three share a rank
# and are listed by name.
RANKING_RULE = ("total", "games_won", "sessions_won")


def standings_grouped(
    *,
    club: Club,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
    variant: str | None = None,
) -> list[StandingGroup]:
    """Per (family, unit), each player who sat in a (filtered) session, ranked by `RANKING_RULE`: four queries."""
    figures = _session_figures(_sessions(club, date_from, date_to, variant))
    sums: dict[str, dict[int, dict[str, int]]] = {}
    variants: dict[str, set[str]] = {}
    for player_id, mine in figures:
        variants.setdefault(mine.group, set()).add(mine.variant)
        row = sums.setdefault(mine.group, {}).setdefault(
            player_id,
            dict.fromkeys(("sessions", "sessions_won", "hands", "declared", "declarer_won", "games_won", "total"), 0),
        )
        row["sessions"] += 1
        row["sessions_won"] += mine.won
        row["hands"] += mine.hands
        row["declared"] += mine.declared
        row["declarer_won"] += mine.declarer_won
        row["games_won"] += mine.games_won
        row["total"] += mine.total
    players = Player.objects.in_bulk([pid for rows in sums.values() for pid in rows])
    groups = []
    for group in sorted(sums, key=group_order):
        ordered = sorted(
            sums[group].items(),
            key=lambda item: (*(-item[1][name] for name in RANKING_RULE), players[item[0]].name, item[0]),
        )
        rows: list[StandingRow] = []
        for i, (player_id, row) in enumerate(ordered):
            rank = i + 1
            if rows and all(row[name] == getattr(rows[-1], name) for name in RANKING_RULE):
                rank = rows[-1].rank
            rows.append(
                StandingRow(
                    player=players[player_id],
                    rank=rank,
                    per_session=per(row["total"], row["sessions"]),
                    per_hand=per(row["total"], row["hands"]),
                    **row,
                )
            )
        groups.append(StandingGroup(group=group, variants=tuple(sorted(variants[group])), rows=tuple(rows)))
    return groups


# --- one player ---


@dataclass(frozen=True, kw_only=True)
class BidFigures:
    """Hands declared at one bid (bid games) or one band of levels (level games); both None: every hand."""

    bid: int | None
    band: str | None
    declared: int
    made: int


# Best and worst partner (and opponent) only among those with at least this many hands together (against).
MIN_HANDS = 10


@dataclass(frozen=True, kw_only=True)
class OtherPlayer:
    """Hands played with (partners) or against (opponents) another player, how many the player's side won, and
    the player's own total over those hands (`net`, per hand: `per_hand`)."""

    player: Player
    hands: int
    won: int
    net: int
    per_hand: Decimal | None = None


@dataclass(frozen=True, kw_only=True)
class RunningPoint:
    date: datetime.date
    session_id: int
    total: int  # the session's figure
    running: int  # the running total after it, in this group


@dataclass(frozen=True, kw_only=True)
class GroupStats:
    group: str
    sessions: int
    sessions_won: int
    hands: int
    declared: int
    declarer_won: int
    games_won: int
    total: int
    per_hand: Decimal | None
    per_session: Decimal | None
    by_bid: tuple[BidFigures, ...]
    best: SessionFigures | None
    worst: SessionFigures | None
    partners: tuple[OtherPlayer, ...]  # most hands won together first
    opponents: tuple[OtherPlayer, ...]  # most hands played against first
    running: tuple[RunningPoint, ...] = field(default=())
    # Of those with at least `min_hands` hands: the highest and the lowest points per hand of the player's own
    # (`best_and_worst`); a worst only when two or more qualify.
    min_hands: int = MIN_HANDS
    best_partner: OtherPlayer | None = None
    worst_partner: OtherPlayer | None = None
    best_opponent: OtherPlayer | None = None
    worst_opponent: OtherPlayer | None = None


@dataclass(frozen=True, kw_only=True)
class PlayerStats:
    player: Player
    sessions: int
    hands: int
    groups: tuple[GroupStats, ...]


def player_stats(*, club: Club, player: Player) -> PlayerStats:
    """A player's figures per (family, unit): seven queries, whatever the number of sessions or hands."""
    sessions = _sessions(club, None, None, None).filter(seats__player=player)
    mine = sorted(
        (figures for player_id, figures in _session_figures(sessions) if player_id == player.pk),
        key=lambda f: (f.date, f.session_id),
    )
    rows = SettlementRow.objects.filter(session__in=sessions, player=player)
    bids: dict[str, dict[tuple[int | None, str | None], list[int]]] = {}
    for row in (
        rows.filter(is_declarer=True)
        .values("session__variant", "bid", "level")
        .annotate(declared=Count("id"), made=Count("id", filter=Q(declarer_won=True)))
        .order_by()
    ):
        variant = row["session__variant"]
        bid = row["bid"] if SCORING[variant].has_bid else None
        band = level_band(row["level"]) if row["level"] is not None and bid is None else None
        figures = bids.setdefault(scoring_group(variant), {}).setdefault((bid, band), [0, 0])
        figures[0] += row["declared"]
        figures[1] += row["made"]
    # The other seats of the hands the player played: on the same side of that hand (partners: the fixed
    # partner, the called friend of 打百分 classic and 打二鬼, the other 边家 of 标分) or on the other side
    # (opponents). One join, so every condition on the player's own row (`hand__settlement_rows__…`) sits in one
    # filter() call, and `net` sums the player's own deltas over those hands.
    others = SettlementRow.objects.filter(session__in=sessions, declaring_side__isnull=False).exclude(player=player)
    partners = (
        others.filter(
            hand__settlement_rows__player=player,
            hand__settlement_rows__declaring_side=F("declaring_side"),
        )
        .values("session__variant", "player_id")
        .annotate(hands=Count("id"), won=Count("id", filter=SIDE_WON), net=Sum("hand__settlement_rows__delta"))
        .order_by()
    )
    they_lost = Q(declaring_side=True, declarer_won=False) | Q(declaring_side=False, declarer_won=True)
    opponents = (
        others.filter(
            Q(declaring_side=True, hand__settlement_rows__declaring_side=False)
            | Q(declaring_side=False, hand__settlement_rows__declaring_side=True),
            hand__settlement_rows__player=player,
        )
        .values("session__variant", "player_id")
        .annotate(hands=Count("id"), won=Count("id", filter=they_lost), net=Sum("hand__settlement_rows__delta"))
        .order_by()
    )
    with_: dict[str, dict[int, list[int]]] = {}
    against: dict[str, dict[int, list[int]]] = {}
    for target, source in ((with_, partners), (against, opponents)):
        for row in source:
            figures = target.setdefault(scoring_group(row["session__variant"]), {}).setdefault(
                row["player_id"], [0, 0, 0]
            )
            figures[0] += row["hands"]
            figures[1] += row["won"]
            figures[2] += row.get("net") or 0
    names = Player.objects.in_bulk({pid for side in (with_, against) for group in side.values() for pid in group})
    groups = []
    for group in sorted({f.group for f in mine}, key=group_order):
        played = [f for f in mine if f.group == group]
        total = sum(f.total for f in played)
        hands = sum(f.hands for f in played)
        running, so_far = [], 0
        for f in played:
            so_far += f.total
            running.append(RunningPoint(date=f.date, session_id=f.session_id, total=f.total, running=so_far))
        counted = [f for f in played if f.hands]
        partners_here = _others(with_.get(group, {}), names, key=lambda o: (-o.won, -o.hands, o.player.name))
        opponents_here = _others(against.get(group, {}), names, key=lambda o: (-o.hands, o.player.name))
        best_partner, worst_partner = best_and_worst(partners_here, min_hands=MIN_HANDS)
        best_opponent, worst_opponent = best_and_worst(opponents_here, min_hands=MIN_HANDS)
        groups.append(
            GroupStats(
                group=group,
                sessions=len(played),
                sessions_won=sum(f.won for f in played),
                hands=hands,
                declared=sum(f.declared for f in played),
                declarer_won=sum(f.declarer_won for f in played),
                games_won=sum(f.games_won for f in played),
                total=total,
                per_hand=per(total, hands),
                per_session=per(total, len(played)),
                by_bid=tuple(
                    BidFigures(bid=bid, band=band, declared=d, made=m)
                    for (bid, band), (d, m) in sorted(bids.get(group, {}).items(), key=_bid_order)
                ),
                # Ties: the earlier session.
                best=max(counted, key=lambda f: (f.total, -f.date.toordinal(), -f.session_id), default=None),
                worst=min(counted, key=lambda f: (f.total, f.date.toordinal(), f.session_id), default=None),
                partners=partners_here,
                opponents=opponents_here,
                running=tuple(running),
                best_partner=best_partner,
                worst_partner=worst_partner,
                best_opponent=best_opponent,
                worst_opponent=worst_opponent,
            )
        )
    return PlayerStats(
        player=player,
        sessions=len(mine),
        hands=sum(f.hands for f in mine),
        groups=tuple(groups),
    )


def _bid_order(item: tuple[tuple[int | None, str | None], list[int]]) -> tuple[int, int]:
    """Bids from the lowest; bands in the ladder's order (`rules.families.LEVEL_BANDS`), others after."""
    bid, band = item[0]
    if bid is not None:
        return 0, bid
    bands = [first if first == last else f"{first}–{last}" for first, last in LEVEL_BANDS]
    return 1, bands.index(band) if band in bands else len(bands)


def _others(figures: dict[int, list[int]], names: dict[int, Player], *, key: Any) -> tuple[OtherPlayer, ...]:
    out = [
        OtherPlayer(player=names[pid], hands=h, won=w, net=n, per_hand=per(n, h)) for pid, (h, w, n) in figures.items()
    ]
    return tuple(sorted(out, key=key))


def best_and_worst(others: tuple[OtherPlayer, ...], *, min_hands: int) -> tuple[OtherPlayer | None, OtherPlayer | None]:
    """Among those with at least `min_hands` hands, the first and the last ranked by the player's own points per
    hand (total over the hands ÷ their number, unrounded), then more hands, then the name: the best and the
    worst. One who qualifies is the best only (no worst)."""
    counted = sorted(
        (o for o in others if o.hands >= min_hands),
        key=lambda o: (-Decimal(o.net) / o.hands, -o.hands, o.player.name, o.player.pk),
    )
    if not counted:
        return None, None
    return counted[0], counted[-1] if len(counted) > 1 else None
