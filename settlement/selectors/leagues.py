"""Reads of leagues (seasons): a club's leagues, and a league's table from its events' standings.

A player's event result is their total in that event's standings (`selectors.events`); the league adds them
(`sum`), or the best N of them (`best`). Every event of a league counts in the league's unit, so nothing is added
across units. The table reads eight queries whatever the number of events, players and tables.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from ..models import Club, Event, League, Player
from .events import events_standings

TIE_BREAK = _("equal totals are broken by the best single event total, then share a rank")
RULE = {
    League.Ranking.SUM: _("the sum of each player's event totals ({unit}) over the league's {m} events; {tie}"),
    League.Ranking.BEST: _(
        "the best {n} of {m} events: each player's {n} highest event totals ({unit}) added (of equal totals the "
        "earlier event counts); {tie}"
    ),
}
# The rule in a few words, for a page's heading.
RULE_SHORT = {
    League.Ranking.SUM: _("sum of {m} events"),
    League.Ranking.BEST: _("best {n} of {m} events"),
}


@dataclass(frozen=True, kw_only=True)
class LeagueResult:
    event: Event
    total: int  # the player's total in the event's standings
    rank: int  # their rank in the event
    counted: bool  # toward the league total (`best`: among their best N)


@dataclass(frozen=True, kw_only=True)
class LeagueRow:
    player: Player
    rank: int
    total: int
    best: int  # the tie-break: the best single event total
    results: tuple[LeagueResult, ...]  # event by event, in the league's order


@dataclass(frozen=True, kw_only=True)
class LeagueStandings:
    league: League
    rule: str
    rule_short: str
    unit: str
    events: tuple[Event, ...]
    rows: tuple[LeagueRow, ...]


def club_leagues(*, club: Club) -> QuerySet[League]:
    return League.objects.filter(club=club).order_by("-created_at", "-id")


def league_events(*, league: League) -> list[Event]:
    """The league's events in the order they were played (date, then id): one query."""
    return list(Event.objects.filter(league=league).order_by("date", "id"))


def league_rule(*, league: League, events: int) -> tuple[str, str]:
    """The league's rule stated in full and in a few words, in the reader's language."""
    fill = {"n": league.best_n, "m": events, "unit": league.unit, "tie": TIE_BREAK}
    return str(RULE[league.ranking]).format(**fill), str(RULE_SHORT[league.ranking]).format(**fill)


def league_standings(*, league: League) -> LeagueStandings:
    """The league table (`RULE`): eight queries whatever the number of events (the events, then their standings)."""
    events = league_events(league=league)
    standings = events_standings(events=events)
    players: dict[int, Player] = {}
    results: dict[int, list[LeagueResult]] = {}
    for event in events:
        for row in standings[event.pk].rows:
            players.setdefault(row.player.pk, row.player)
            results.setdefault(row.player.pk, []).append(
                LeagueResult(event=event, total=row.total, rank=row.rank, counted=True)
            )
    order = {event.pk: i for i, event in enumerate(events)}
    unranked = []
    for player_id, own in results.items():
        if league.ranking == League.Ranking.BEST:
            # The best N; of equal totals the earlier event counts.
            kept = {r.event.pk for r in sorted(own, key=lambda r: (-r.total, order[r.event.pk]))[: league.best_n]}
            own = [LeagueResult(event=r.event, total=r.total, rank=r.rank, counted=r.event.pk in kept) for r in own]
        total = sum(r.total for r in own if r.counted)
        best = max(r.total for r in own)
        unranked.append((players[player_id], total, best, tuple(own)))
    unranked.sort(key=lambda row: (-row[1], -row[2], row[0].name, row[0].pk))
    rows: list[LeagueRow] = []
    for i, (player, total, best, own) in enumerate(unranked):
        tied = rows and rows[-1].total == total and rows[-1].best == best
        rows.append(
            LeagueRow(player=player, rank=rows[-1].rank if tied else i + 1, total=total, best=best, results=own)
        )
    rule, short = league_rule(league=league, events=len(events))
    return LeagueStandings(
        league=league, rule=rule, rule_short=short, unit=league.unit, events=tuple(events), rows=tuple(rows)
    )
