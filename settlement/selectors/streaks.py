"""Streaks and records: the longest run of hands won, the biggest hand, the most 抠底, 光头, 出锅 and 包场, for
the club and for one player, each with the hand that set it; from the stored rows, never a replay.

Per (family, unit) (`rules.families.scoring_group`): a record of 本溪's 盘 points is never set against 打二鬼's
stake points. Who earns a tag is the side of the seat (`SettlementRow`'s columns of migration 0024):

- 抠底: the capture side of a hand tagged 抠底 (it won the last trick);
- 光头: the declaring side of a hand tagged 光头 (it held the capture side to nothing);
- 包场: the declarer of a hand tagged 包场 (打二鬼: he paid for his partner too);
- 出锅: a game won by reaching the target (打百分's regions) or going past the last level (打滚子);
- a run of hands won is within one session (`SettlementRow.run`: a redeal neither extends nor breaks it).

The holder of a record is whoever got there first: the same figure reached later does not take it. Each kind is
one query with window functions (the best row of each variant and player), so a club's page costs the same
number of queries whatever its number of sessions; the rows drawn grow with the players, not the hands.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, F, Q, QuerySet, Window
from django.db.models.functions import RowNumber

from ..models import Club, GameRow, Player, Session, SettlementRow
from ..rules.families import CHUGUO, SCORING, group_order, scoring_group

# The kinds of record, in the pages' order.
RUN, BIGGEST, KOUDI, GUANGTOU, CHUGUO_KIND, BAOCHANG = "run", "biggest", "koudi", "guangtou", "chuguo", "baochang"
KINDS = (RUN, BIGGEST, KOUDI, GUANGTOU, CHUGUO_KIND, BAOCHANG)

# The rows that earn a counted record (the side that earned the tag, as the module's docstring says).
EARNED: Mapping[str, Q] = {
    KOUDI: Q(koudi=True, declaring_side=False),
    GUANGTOU: Q(guangtou=True, declaring_side=True),
    BAOCHANG: Q(baochang=True, is_declarer=True),
}
CHUGUO_WON = Q(won=True) & Q(
    *(Q(session__variant=variant, how=how) for variant, how in CHUGUO.items()), _connector=Q.OR
)


@dataclass(frozen=True, kw_only=True)
class HandRef:
    """The hand a record or an achievement links to (its receipt: `hand_detail`)."""

    session_id: int
    number: int
    date: datetime.date
    variant: str


@dataclass(frozen=True, kw_only=True)
class Record:
    """One record: its kind, its figure (hands in a row, a hand's figure, or how many), who holds it, and the hand
    that set it (the run's last hand, the biggest hand, the hand that brought the count to its figure)."""

    kind: str
    value: int
    player: Player
    hand: HandRef


@dataclass(frozen=True, kw_only=True)
class RecordGroup:
    group: str
    records: tuple[Record, ...]  # in `KINDS` order; a kind nobody has is left out


@dataclass(frozen=True, kw_only=True)
class _Best:
    """The best row of one variant and player for one kind (before the players are read)."""

    kind: str
    group: str
    player_id: int
    value: int
    hand: HandRef

    @property
    def first(self) -> tuple[Any, ...]:
        """Best first; at equal figures, whoever got there first."""
        return (-self.value, self.hand.date, self.hand.session_id, self.hand.number, self.player_id)


def _sessions(club: Club) -> QuerySet[Session]:
    return Session.objects.filter(club=club, variant__in=list(SCORING))


def _chronological(descending: bool = False) -> list[Any]:
    fields = ("session__date", "session_id", "number")
    return [F(name).desc() if descending else F(name).asc() for name in fields]


def _best_rows(rows: QuerySet[Any], *, kind: str, value: Any, order: list[Any], hand_number: str) -> list[_Best]:
    """The first row in `order` of each (variant, player) of `rows`, with `value` (one query)."""
    partition = [F("session__variant"), F("player_id")]
    found = (
        rows.annotate(figure=value, position=Window(RowNumber(), partition_by=partition, order_by=order))
        .filter(position=1)
        .values("session__variant", "player_id", "figure", "session_id", "session__date", hand_number)
        .order_by()
    )
    return [
        _Best(
            kind=kind,
            group=scoring_group(row["session__variant"]),
            player_id=row["player_id"],
            value=row["figure"],
            hand=HandRef(
                session_id=row["session_id"],
                number=row[hand_number],
                date=row["session__date"],
                variant=row["session__variant"],
            ),
        )
        for row in found
    ]


def _bests(sessions: QuerySet[Session], player: Player | None) -> list[_Best]:
    """Every kind's best row per (variant, player): six queries."""
    rows = SettlementRow.objects.filter(session__in=sessions)
    games = GameRow.objects.filter(session__in=sessions)
    if player is not None:
        rows, games = rows.filter(player=player), games.filter(player=player)
    partition = [F("session__variant"), F("player_id")]
    # A run: the longest, the first to reach it. The biggest hand: the highest figure, the first to reach it.
    bests = _best_rows(
        rows.filter(run__gt=0),
        kind=RUN,
        value=F("run"),
        order=[F("run").desc(), *_chronological()],
        hand_number="number",
    )
    bests += _best_rows(
        rows.filter(delta__gt=0),
        kind=BIGGEST,
        value=F("delta"),
        order=[F("delta").desc(), *_chronological()],
        hand_number="number",
    )
    # A count: how many, with the latest hand, the one that brought it there.
    for kind, earned in EARNED.items():
        bests += _best_rows(
            rows.filter(earned),
            kind=kind,
            value=Window(Count("id"), partition_by=partition),
            order=_chronological(descending=True),
            hand_number="number",
        )
    bests += _best_rows(
        games.filter(CHUGUO_WON),
        kind=CHUGUO_KIND,
        value=Window(Count("id"), partition_by=partition),
        order=[F("session__date").desc(), F("session_id").desc(), F("last_hand").desc()],
        hand_number="last_hand",
    )
    return bests


def _grouped(bests: Iterable[_Best], players: Mapping[int, Player]) -> list[RecordGroup]:
    """Per group, per kind, the best of the bests (the first to reach the best figure)."""
    chosen: dict[str, dict[str, _Best]] = {}
    for best in bests:
        kinds = chosen.setdefault(best.group, {})
        if best.kind not in kinds or best.first < kinds[best.kind].first:
            kinds[best.kind] = best
    return [
        RecordGroup(
            group=group,
            records=tuple(
                Record(kind=kind, value=best.value, player=players[best.player_id], hand=best.hand)
                for kind in KINDS
                if (best := chosen[group].get(kind)) is not None
            ),
        )
        for group in sorted(chosen, key=group_order)
    ]


def club_records(*, club: Club) -> list[RecordGroup]:
    """The club's records per (family, unit), each with its holder and its hand: seven queries."""
    bests = _bests(_sessions(club), None)
    players = Player.objects.in_bulk({best.player_id for best in bests})
    return _grouped(bests, players)


def player_records(*, club: Club, player: Player) -> list[RecordGroup]:
    """A player's own bests per (family, unit), each with its hand: six queries."""
    return _grouped(_bests(_sessions(club), player), {player.pk: player})
