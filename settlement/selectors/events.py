"""Reads of events: a club's events, one event's rounds and tables, and its standings, each a fixed number of queries.

The standings are read from the tables' stored rows (`SettlementRow` deltas plus `GameRow` adjustments: the
total a table page shows for a seat) and the director's adjustments; nothing is replayed. An event plays one
variant, so every figure is in that variant's unit (分, 注, 档 or 级) and nothing is added across units.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from django.db.models import Count, OuterRef, QuerySet, Subquery, Sum
from django.utils.translation import gettext_lazy as _

from ..models import (
    Adjustment,
    Club,
    Event,
    EventPlayer,
    GameRow,
    Player,
    Round,
    RoundTable,
    SessionSeat,
    SettlementRow,
    Substitute,
)
from ..rules.options import options_resolve
from ..rules.registry import VARIANTS
from ..rules.session import settle_up_transfers

PLACEMENT_RULE = _(
    "placement points per table ({points}) by each table's totals; players tied at a table share the points of "
    "the places they cover (rounded down); plus adjustments as points; a round sat out counts {bye}; equal points "
    "are broken by the sum of table totals ({unit}), then share a rank"
)

# The rule as the standings state it, per bye rule (the unit filled in).
RULE = {
    Event.Bye.AVERAGE: _(
        "the sum of each player's table totals ({unit}) plus adjustments; a round sat out counts the player's "
        "average over the rounds played (rounded down); equal totals share a rank"
    ),
    Event.Bye.ZERO: _(
        "the sum of each player's table totals ({unit}) plus adjustments; a round sat out counts 0; "
        "equal totals share a rank"
    ),
    Event.Bye.FIGURE: _(
        "the sum of each player's table totals ({unit}) plus adjustments; a round sat out counts {figure}; "
        "equal totals share a rank"
    ),
}


@dataclass(frozen=True, kw_only=True)
class TableSeat:
    round: int
    table: int
    session_id: int
    seat: int
    total: int  # the seat's total at that table: hand deltas plus game adjustments
    hands: int
    points: int | None = None  # `placement`: the placement points this seat earned at its table
    # A substitute played the seat ("李娜 for 王强"): the substitute's name and the absent player's, else "".
    substitute: str = ""
    absent: str = ""


@dataclass(frozen=True, kw_only=True)
class EventStandingRow:
    player: Player
    rank: int
    total: int  # tables + byes + adjustments
    tables_total: int
    byes: int  # rounds sat out
    bye_total: int
    adjustments_total: int
    seats: tuple[TableSeat, ...]
    adjustments: tuple[Adjustment, ...]
    points_total: int | None = None  # `placement`: the placement points over the tables (then `total` ranks them)


@dataclass(frozen=True, kw_only=True)
class EventStandings:
    event: Event
    rule: str
    unit: str
    rounds: int
    rows: tuple[EventStandingRow, ...]
    final: bool = False  # the event is finished: these are the final standings


def club_events(*, club: Club) -> QuerySet[Event]:
    return Event.objects.filter(club=club).order_by("-date", "-id")


def event_tables(*, event: Event) -> list[RoundTable]:
    """Every table of the event, round by round, with its session (one query)."""
    return list(
        RoundTable.objects.filter(round__event=event).select_related("round", "session").order_by("round__n", "number")
    )


def _placed(by_player: dict[int, list[TableSeat]], points: list[int]) -> dict[int, list[TableSeat]]:
    """Each seat with its placement points: its table's seats ordered by total, best first; seats tied on a total
    share the points of the places they cover, each the share rounded down."""
    tables: dict[int, list[tuple[int, TableSeat]]] = defaultdict(list)
    for player_id, played in by_player.items():
        for seat in played:
            tables[seat.session_id].append((player_id, seat))
    placed: dict[int, list[TableSeat]] = defaultdict(list)
    for seated in tables.values():
        seated.sort(key=lambda pair: -pair[1].total)
        place = 0
        while place < len(seated):
            tied = [pair for pair in seated[place:] if pair[1].total == seated[place][1].total]
            covered = points[place : place + len(tied)]
            share = sum(covered) // len(tied) if covered else 0
            for player_id, seat in tied:
                placed[player_id].append(replace(seat, points=share))
            place += len(tied)
    return placed


def event_standings(*, event: Event) -> EventStandings:
    """The event's standings (`RULE`): seven queries whatever the number of players, rounds and tables."""
    return events_standings(events=[event])[event.pk]


def events_standings(*, events: Sequence[Event]) -> dict[int, EventStandings]:
    """Several events' standings, by event id, in the same seven queries whatever the number of events (a
    league's table reads its events' standings so)."""
    events = list(events)
    event_ids = [event.pk for event in events]
    players: dict[int, list[Player]] = defaultdict(list)
    for ep in EventPlayer.objects.filter(event_id__in=event_ids).select_related("player").order_by("id"):
        players[ep.event_id].append(ep.player)
    rounds: dict[int, list[Round]] = defaultdict(list)
    for r in Round.objects.filter(event_id__in=event_ids).order_by("n"):
        rounds[r.event_id].append(r)
    tables = {
        table.session_id: table
        for table in RoundTable.objects.filter(round__event_id__in=event_ids).select_related("round")
    }
    sessions = list(tables)
    # The first substitute of a seat names the player drawn there (the absent one): one subquery, no query more.
    first_absent = Substitute.objects.filter(table__session_id=OuterRef("session_id"), seat=OuterRef("seat"))
    seats = (
        SessionSeat.objects.filter(session_id__in=sessions)
        .annotate(absent_id=Subquery(first_absent.order_by("id").values("absent_id")[:1]))
        .values_list("session_id", "seat", "player_id", "player__name", "absent_id")
    )
    hands = {
        (row["session_id"], row["seat"]): row
        for row in SettlementRow.objects.filter(session_id__in=sessions)
        .values("session_id", "seat")
        .annotate(total=Sum("delta"), hands=Count("id"))
    }
    games = {
        (row["session_id"], row["seat"]): row["adjustment"] or 0
        for row in GameRow.objects.filter(session_id__in=sessions)
        .values("session_id", "seat")
        .annotate(adjustment=Sum("adjustment"))
    }
    names = {player.pk: player.name for event_players in players.values() for player in event_players}
    to_absent = {event.pk: event.substitute_result == Event.SubstituteResult.ABSENT for event in events}
    by_event: dict[int, dict[int, list[TableSeat]]] = defaultdict(lambda: defaultdict(list))
    for session_id, seat, player_id, player_name, absent_id in seats:
        hand_row = hands.get((session_id, seat), {})
        table = tables[session_id]
        substituted = absent_id is not None and absent_id != player_id
        credited = absent_id if substituted and to_absent[table.round.event_id] else player_id
        by_event[table.round.event_id][credited].append(
            TableSeat(
                round=table.round.n,
                table=table.number,
                session_id=session_id,
                seat=seat,
                total=(hand_row.get("total") or 0) + games.get((session_id, seat), 0),
                hands=hand_row.get("hands", 0),
                substitute=player_name if substituted else "",
                absent=names.get(absent_id, "") if substituted else "",
            )
        )
    adjustments: dict[int, dict[int, list[Adjustment]]] = defaultdict(lambda: defaultdict(list))
    for adjustment in Adjustment.objects.filter(event_id__in=event_ids).order_by("created_at", "id"):
        adjustments[adjustment.event_id][adjustment.player_id].append(adjustment)
    return {
        event.pk: _standings(
            event=event,
            players=players[event.pk],
            rounds=rounds[event.pk],
            by_player=by_event[event.pk],
            adjustments=adjustments[event.pk],
        )
        for event in events
    }


def _standings(
    *,
    event: Event,
    players: list[Player],
    rounds: list[Round],
    by_player: dict[int, list[TableSeat]],
    adjustments: dict[int, list[Adjustment]],
) -> EventStandings:
    """One event's standings from its rows as read."""
    placement = event.ranking == Event.Ranking.PLACEMENT
    if placement:
        by_player = _placed(by_player, list(event.placement_points))
    byes: dict[int, int] = defaultdict(int)
    seated_in = {(player_id, seat.round) for player_id, played in by_player.items() for seat in played}
    for r in rounds:
        for player_id in r.sitting_out:
            if (player_id, r.n) not in seated_in:  # a player sitting out who came in as a substitute played
                byes[player_id] += 1

    unranked = []
    for player in players:
        played = sorted(by_player.get(player.pk, []), key=lambda s: (s.round, s.table))
        tables_total = sum(s.total for s in played)
        points_total = sum(s.points or 0 for s in played) if placement else None
        ranked_on = points_total if points_total is not None else tables_total
        bye_count = byes.get(player.pk, 0)
        if event.bye == Event.Bye.AVERAGE:
            per_bye = ranked_on // len(played) if played else 0
        elif event.bye == Event.Bye.FIGURE:
            per_bye = event.bye_figure or 0
        else:
            per_bye = 0
        own = tuple(adjustments.get(player.pk, []))
        adjustments_total = sum(a.signed for a in own)
        unranked.append(
            (
                player,
                ranked_on + per_bye * bye_count + adjustments_total,
                tables_total,
                bye_count,
                per_bye * bye_count,
                adjustments_total,
                tuple(played),
                own,
                points_total,
            )
        )
    # Under placement, equal points are broken by the sum of table totals; under the sum that is the total itself.
    unranked.sort(key=lambda row: (-row[1], -row[2], row[0].name, row[0].pk))
    rows = []
    for i, row in enumerate(unranked):
        player, total, tables_total, bye_count, bye_total, adjustments_total, played, own, points_total = row
        tied = rows and rows[-1].total == total and (not placement or rows[-1].tables_total == tables_total)
        rank = rows[-1].rank if tied else i + 1
        rows.append(
            EventStandingRow(
                player=player,
                rank=rank,
                total=total,
                tables_total=tables_total,
                byes=bye_count,
                bye_total=bye_total,
                adjustments_total=adjustments_total,
                seats=played,
                adjustments=own,
                points_total=points_total,
            )
        )
    unit = event.unit
    if placement:
        bye = {
            Event.Bye.AVERAGE: _("the player's average"),
            Event.Bye.ZERO: "0",
            Event.Bye.FIGURE: str(event.bye_figure),
        }[event.bye]
        points = " / ".join(str(p) for p in event.placement_points)
        rule = str(PLACEMENT_RULE).format(points=points, bye=bye, unit=unit)
    else:
        rule = str(RULE[event.bye]).format(unit=unit, figure=event.bye_figure)
    return EventStandings(
        event=event,
        rule=rule,
        unit=unit,
        rounds=len(rounds),
        rows=tuple(rows),
        final=event.state == Event.State.FINISHED,
    )


@dataclass(frozen=True, kw_only=True)
class EventTransfer:
    payer: Player
    payee: Player
    amount: int  # units × unit_value: money when the tables play for money, else the variant's unit
    units: int


@dataclass(frozen=True, kw_only=True)
class EventSettleUp:
    """Who pays whom after the whole event: the players' table totals over every table and round, cleared.

    `zero_sum` False: the variant's tables do not sum to zero (a level game, …), so nothing is paid and `transfers`
    is empty. The director's adjustments and the byes are standings only, never in the settle-up: penalties and
    awards are points for the ranking, not money.
    """

    zero_sum: bool
    unit: str
    unit_value: int  # money per unit the tables play for (the event's options; 1: no money, the unit itself)
    transfers: tuple[EventTransfer, ...]


def event_settle_up(*, standings: EventStandings) -> EventSettleUp:
    """The event's settle-up from its standings (no query): each player's `tables_total`, the fewest transfers
    (`rules.session.settle_up_transfers`), in money when the event's options give a unit value above 1."""
    event = standings.event
    variant = VARIANTS[event.variant]
    options = options_resolve(variant.defaults(event.table_size), dict(event.options))
    unit_value = int(getattr(options, "unit_value", 1) or 1)
    totals = [row.tables_total for row in standings.rows]
    if not variant.zero_sum or sum(totals) != 0:
        return EventSettleUp(zero_sum=variant.zero_sum, unit=standings.unit, unit_value=unit_value, transfers=())
    players = [row.player for row in standings.rows]
    transfers = tuple(
        EventTransfer(payer=players[t.payer], payee=players[t.payee], amount=t.amount, units=t.amount // unit_value)
        for t in settle_up_transfers(totals, unit_value=unit_value)
    )
    return EventSettleUp(zero_sum=True, unit=standings.unit, unit_value=unit_value, transfers=transfers)


@dataclass(frozen=True, kw_only=True)
class PairStandingRow:
    players: tuple[Player, Player]
    rank: int
    total: int  # the two players' totals (tables, byes, adjustments): the pair's seats' totals, once per pair
    tables_total: int


PAIR_RULE = _(
    "per pair: the two partners' totals added ({unit}); equal totals are broken by the pair's table totals, "
    "then share a rank"
)


def event_pair_standings(*, standings: EventStandings) -> tuple[PairStandingRow, ...]:
    """A pairs event's standings per pair (no query): each pair once, its total the two partners' totals (every
    seat they played, their byes and adjustments); ranked by that, then by their table totals; equal on both share
    a rank. Empty for an event drawn player by player."""
    by_player = {row.player.pk: row for row in standings.rows}
    rows = []
    for a, b in standings.event.pairs:
        if a in by_player and b in by_player:
            one, other = by_player[a], by_player[b]
            rows.append((one, other, one.total + other.total, one.tables_total + other.tables_total))
    rows.sort(key=lambda r: (-r[2], -r[3], r[0].player.name, r[0].player.pk))
    ranked: list[PairStandingRow] = []
    for i, (one, other, total, tables_total) in enumerate(rows):
        tied = ranked and (ranked[-1].total, ranked[-1].tables_total) == (total, tables_total)
        ranked.append(
            PairStandingRow(
                players=(one.player, other.player),
                rank=ranked[-1].rank if tied else i + 1,
                total=total,
                tables_total=tables_total,
            )
        )
    return tuple(ranked)


def event_pair_rule(*, standings: EventStandings) -> str:
    return str(PAIR_RULE).format(unit=standings.unit)
