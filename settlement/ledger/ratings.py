"""Skill ratings: one per player and game family in a club, Weng-Lin (openskill's Bradley-Terry, full pairing).

What an outcome is, per family:

- fixed partners (打百分 本溪 · 抚顺 · 沈阳, 红星五, 打滚子, 升级: seats 0 + 2 against
  1 + 3, and 4 with 6 players): each finished game (盘 / level game) is one
  outcome, team against team; the team holding the game's winners ranks
  first, and a finished game with no winner side (or both) is a draw;
- the friend-card and individual-score games (classic 打百分, 打二鬼, 标分):
  sides change every hand, so a closed session is one outcome, each player on
  their own, ranked by session total (equal totals tie). An open session does
  not count yet; reopening it takes it out again.

Ratings are derived rows (`RatingRow`), like `GameRow`: built from the stored
game rows, never from a replay of the log, in the same transaction as the
write that changed them. The outcomes of a club and family are played in
order of session date, session id, game; a write to a session rebuilds that
family's ratings from that session on (the later sessions' ratings depend on
it), resuming from the last stored rating of each player before it. The cost
is the sessions from the changed one to the newest of the family (a
correction in tonight's session: tonight's games only): six queries and one
`rate` call per outcome, nothing per hand. A hand recorded mid-game costs
nothing here (services skip the rebuild unless the hand ends a game), and one that ends a game of the family's
newest session, or of one whose later sessions seat none of its players (the other tables of a room), rates that
game alone (`ratings_append`: entry at hand #1,000 costs what it costs at #10; the later tables' rows are moved
along, two UPDATEs that grow with the room); a merge
of two players rebuilds the club's ratings from the start.

openskill works in floats; they stay in this module and `RatingRow` (the rules
engine never sees one). The conservative rating shown is the ordinal,
mu − 3σ, with σ as its uncertainty.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import F, Min, OuterRef, Q, QuerySet, Subquery
from django.utils.translation import gettext_lazy as _
from openskill.models import BradleyTerryFull

from ..models import Club, GameRow, Player, RatingRow, Session, SessionSeat, variant_label
from .bulk import rows_insert

RATING_COLUMNS = ("club_id", "family", "player_id", "session_id", "game", "order", "rank", "mu", "sigma", "ordinal")

TEAM, SESSION = "team", "session"


@dataclass(frozen=True, kw_only=True)
class Family:
    key: str
    kind: str  # TEAM: each finished game, team against team; SESSION: each closed session, by total
    variants: tuple[str, ...]


FAMILIES: Mapping[str, Family] = {
    family.key: family
    for family in (
        Family(key="baifen", kind=TEAM, variants=("baifen.benxi", "baifen.fushun", "baifen.shenyang")),
        Family(key="baifen.classic", kind=SESSION, variants=("baifen.classic",)),
        Family(key="erguai", kind=SESSION, variants=("erguai",)),
        Family(key="biaofen", kind=SESSION, variants=("biaofen",)),
        Family(key="hongxingwu", kind=TEAM, variants=("hongxingwu",)),
        Family(key="gunzi", kind=TEAM, variants=("gunzi",)),
        Family(key="shengji", kind=TEAM, variants=("shengji",)),
    )
}
FAMILY_OF: Mapping[str, Family] = {variant: family for family in FAMILIES.values() for variant in family.variants}

# The Weng-Lin defaults: mu 25, σ 25/3, β 25/6, τ 25/300 (σ grows by τ before each outcome), κ 0.0001.
# Bradley-Terry with full pairing rates each pair of sides on its own: with two sides (every team game) it is the
# same update as Plackett-Luce; with a session's ranking it treats equal totals as a tie between those two only,
# where openskill 6.2's Plackett-Luce gives two players tied first the same μ as the third.
MODEL = BradleyTerryFull()
MU, SIGMA = MODEL.mu, MODEL.sigma


def family_label(key: str) -> str:
    """The family's name in the active language."""
    if key == "baifen":
        return str(_("Baifen, regional (Benxi, Fushun, Shenyang)"))
    return variant_label(key)


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


@dataclass(frozen=True, kw_only=True)
class Outcome:
    """One rated result: the sides (player ids) in seat order and each side's rank (1 best; equal ranks tie)."""

    session_id: int
    game: int  # 0: a session's ranking
    sides: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]


def outcomes(
    *, family: Family, sessions: Sequence[Mapping[str, Any]], rows: Iterable[Mapping[str, Any]]
) -> list[Outcome]:
    """The family's outcomes, in play order, from sessions (id, status; in date, id order) and their game rows."""
    by_session: dict[int, list[Mapping[str, Any]]] = {}
    for row in rows:
        by_session.setdefault(row["session_id"], []).append(row)
    found: list[Outcome] = []
    for session in sessions:
        session_rows = sorted(by_session.get(session["id"], []), key=lambda row: (row["game"], row["seat"]))
        if family.kind == TEAM:
            found.extend(_team_outcomes(session["id"], session_rows))
        elif session["status"] == Session.Status.CLOSED and session_rows:
            found.append(_ranking(session["id"], session_rows))
    return found


def _team_outcomes(session_id: int, rows: list[Mapping[str, Any]]) -> Iterable[Outcome]:
    games: dict[int, list[Mapping[str, Any]]] = {}
    for row in rows:
        if row["finished"]:
            games.setdefault(row["game"], []).append(row)
    for game, seats in sorted(games.items()):
        sides = tuple(tuple(row["player_id"] for row in seats if row["seat"] % 2 == side) for side in (0, 1))
        won = [any(row["won"] for row in seats if row["seat"] % 2 == side) for side in (0, 1)]
        ranks = (1, 2) if won == [True, False] else (2, 1) if won == [False, True] else (1, 1)
        yield Outcome(session_id=session_id, game=game, sides=sides, ranks=ranks)


def _ranking(session_id: int, rows: list[Mapping[str, Any]]) -> Outcome:
    totals: dict[int, int] = {}
    for row in rows:
        totals[row["player_id"]] = totals.get(row["player_id"], 0) + row["total"]
    players = [row["player_id"] for row in rows if row["game"] == rows[0]["game"]]  # seat order
    # Competition ranking: 1 + how many did better (totals 30, 10, 10, −50 → 1, 2, 2, 4).
    ranks = tuple(1 + sum(1 for other in players if totals[other] > totals[player]) for player in players)
    return Outcome(session_id=session_id, game=0, sides=tuple((player,) for player in players), ranks=ranks)


def rate(ratings: dict[int, tuple[float, float]], outcome: Outcome) -> dict[int, tuple[float, float]]:
    """The players' (mu, sigma) after the outcome; a player not yet rated starts at (MU, SIGMA)."""
    teams = [[MODEL.rating(*ratings.get(player, (MU, SIGMA))) for player in side] for side in outcome.sides]
    after = MODEL.rate(teams, ranks=list(outcome.ranks))
    return {
        player: (rating.mu, rating.sigma)
        for side, rated in zip(outcome.sides, after, strict=True)
        for player, rating in zip(side, rated, strict=True)
    }


def ratings_rebuild(*, session: Session) -> None:
    """Rebuild the ratings of the session's club and family from this session on (in the caller's transaction)."""
    family = FAMILY_OF.get(session.variant)
    if family is not None:
        _rebuild(club_id=session.club_id, family=family, start=(session.date, session.pk))


def ratings_append(*, session: Session, game_rows: Sequence[Mapping[str, Any]]) -> None:
    """After a hand appended to an open session finished a game: rate only that session's `game_rows` (the rows the
    hand rewrote, from the game it played on). The same outcomes in the same order as `ratings_rebuild`, so the same
    rows; a handful of queries and one `rate` call whatever the number of games before (and two UPDATEs of the
    later sessions' rows, when there are any).

    Later sessions of the family (the other tables of tonight's room, opened after this one) come after these games
    in play order. When none of them seats a player of these games, their ratings cannot move: their rows keep their
    figures and move along by the outcomes added before them (`_renumber`). Only a later session with one of these
    players is rated again (a rebuild from this session on); at a room of a hundred tables that was every table's
    games re-rated at each game's end, under the club's lock."""
    family = FAMILY_OF.get(session.variant)
    if family is None or family.kind != TEAM:  # an open session is no outcome yet: nothing of it is rated
        return
    list(Club.objects.select_for_update(no_key=True).filter(pk=session.club_id).values_list("pk"))
    players = {row["player_id"] for row in game_rows}
    later = list(
        Session.objects.filter(club_id=session.club_id, variant__in=family.variants)
        .filter(Q(date__gt=session.date) | Q(date=session.date, pk__gt=session.pk))
        .values_list("pk", flat=True)
    )
    if later and SessionSeat.objects.filter(session_id__in=later, player_id__in=players).exists():
        _rebuild(club_id=session.club_id, family=family, start=(session.date, session.pk))
        return
    family_rows = RatingRow.objects.filter(club_id=session.club_id, family=family.key)
    family_rows.filter(session_id=session.pk, game__gte=min(row["game"] for row in game_rows)).delete()
    # Everything before the later sessions (these players have no rows after it).
    before = family_rows.exclude(session_id__in=later) if later else family_rows
    ratings, order = _resume(rows=before, players=players)
    rows = []
    for outcome in outcomes(family=family, sessions=[{"id": session.pk, "status": session.status}], rows=game_rows):
        order += 1
        after = rate(ratings, outcome)
        ratings.update(after)
        for side, rank in zip(outcome.sides, outcome.ranks, strict=True):
            for player in side:
                mu, sigma = after[player]
                rated = (session.club_id, family.key, player, session.pk, outcome.game, order, rank, mu, sigma)
                rows.append((*rated, ordinal(mu, sigma)))
    if later:
        _renumber(family_rows.filter(session_id__in=later), first=order + 1)
    rows_insert(RatingRow, RATING_COLUMNS, rows)


# Above any `order` a club reaches: `_renumber` parks the rows it moves there, out of the unique (club, family,
# order, player)'s way, which is checked row by row as an UPDATE goes.
_PARKED = 1_000_000_000


def _renumber(rows: QuerySet[RatingRow], *, first: int) -> None:
    """Move `rows` along so that the first of them is outcome `first`, their order among themselves kept."""
    lowest = rows.aggregate(lowest=Min("order"))["lowest"]
    if lowest is None or lowest == first:
        return
    rows.update(order=F("order") + (first - lowest + _PARKED))
    rows.update(order=F("order") - _PARKED)


def ratings_rebuild_club(*, club: Club) -> None:
    """Rebuild every family's ratings of the club from the start (after players were merged)."""
    RatingRow.objects.filter(club=club).delete()
    for family in FAMILIES.values():
        _rebuild(club_id=club.pk, family=family, start=None)


def ratings_verify(*, club: Club) -> list[str]:
    """The stored ratings against a computation from the start (`ledger_verify`): a line per difference."""
    stored = {
        (row.family, row.order, row.player_id): row
        for row in RatingRow.objects.filter(club=club).order_by("family", "order", "player")
    }
    expected: dict[tuple[str, int, int], RatingRow] = {}
    for family in FAMILIES.values():
        sessions = list(
            Session.objects.filter(club=club, variant__in=family.variants).order_by("date", "pk").values("id", "status")
        )
        for row in _rows_after(club_id=club.pk, family=family, sessions=sessions, ratings={}, order=0):
            expected[(row.family, row.order, row.player_id)] = row
    fields = ("session_id", "game", "rank", "mu", "sigma", "ordinal")
    found = []
    for key in sorted(stored.keys() | expected.keys()):
        family, order, player = key
        where = f"club {club.slug} ratings {family} #{order} player {player}"
        mine, theirs = stored.get(key), expected.get(key)
        if mine is None or theirs is None:
            found.append(f"{where}: {'missing' if mine is None else 'not expected'}")
            continue
        for name in fields:
            if getattr(mine, name) != getattr(theirs, name):
                found.append(f"{where} {name}: stored {getattr(mine, name)!r}, computed {getattr(theirs, name)!r}")
    return found


def _rebuild(*, club_id: int, family: Family, start: tuple[Any, int] | None) -> None:
    # The club row is the lock: two writers in two sessions of one club rebuild one after the other.
    # FOR NO KEY UPDATE (as services.common.session_lock): rows inserted meanwhile that name the club do not wait on it.
    list(Club.objects.select_for_update(no_key=True).filter(pk=club_id).values_list("pk"))
    sessions = Session.objects.filter(club_id=club_id, variant__in=family.variants)
    if start is not None:
        date, pk = start
        sessions = sessions.filter(Q(date__gt=date) | Q(date=date, pk__gte=pk))
    later = list(sessions.order_by("date", "pk").values("id", "status"))
    ids = [session["id"] for session in later]
    family_rows = RatingRow.objects.filter(club_id=club_id, family=family.key)
    family_rows.filter(session_id__in=ids).delete()
    game_rows = list(_game_rows(sessions=later))
    # Each player's last rating before these sessions: everything stored now is before them.
    ratings, order = _resume(rows=family_rows, players={row["player_id"] for row in game_rows})
    # One executemany (bulk.py), not bulk_create: a long import's outcomes would pass SQLite's parameter limit
    # and split into a statement per batch.
    rows = _rows_after(
        club_id=club_id, family=family, sessions=later, ratings=ratings, order=order, game_rows=game_rows
    )
    rows_insert(RatingRow, RATING_COLUMNS, [tuple(getattr(row, name) for name in RATING_COLUMNS) for row in rows])


def _rows_after(
    *,
    club_id: int,
    family: Family,
    sessions: Sequence[Mapping[str, Any]],
    ratings: dict[int, tuple[float, float]],
    order: int,
    game_rows: Iterable[Mapping[str, Any]] | None = None,
) -> list[RatingRow]:
    """The rating rows of the sessions' outcomes (unsaved), on from `ratings` after outcome `order`: one query (none
    when the caller read the sessions' `game_rows`)."""
    if game_rows is None:
        game_rows = _game_rows(sessions=sessions)
    new_rows: list[RatingRow] = []
    for outcome in outcomes(family=family, sessions=sessions, rows=game_rows):
        order += 1
        after = rate(ratings, outcome)
        ratings.update(after)
        for side, rank in zip(outcome.sides, outcome.ranks, strict=True):
            for player in side:
                mu, sigma = after[player]
                new_rows.append(
                    RatingRow(
                        club_id=club_id,
                        family=family.key,
                        player_id=player,
                        session_id=outcome.session_id,
                        game=outcome.game,
                        order=order,
                        rank=rank,
                        mu=mu,
                        sigma=sigma,
                        ordinal=ordinal(mu, sigma),
                    )
                )
    return new_rows


def _game_rows(*, sessions: Sequence[Mapping[str, Any]]) -> QuerySet[GameRow, dict[str, Any]]:
    return GameRow.objects.filter(session_id__in=[session["id"] for session in sessions]).values(
        "session_id", "game", "seat", "player_id", "finished", "won", "total"
    )


def _resume(*, rows: QuerySet[RatingRow], players: Iterable[int]) -> tuple[dict[int, tuple[float, float]], int]:
    """Where the ratings go on from after `rows`: each of `players`' (mu, sigma) after their last outcome among them
    (a player with none is left out), and the last outcome's number (0: none). With no players there is nothing
    to rate and nothing is read.

    One query: an index lookup a player (player, family, order) and one at the top of (club, family, order), not
    a scan of the family's rows. The club's history grows by every evening, and a game's end must cost what it
    cost in the club's first week (40,000 rows: 7–9 ms grouped by player, 0.7–1.1 ms looked up)."""
    wanted = set(players)
    if not wanted:
        return {}, 0
    latest = rows.filter(player_id=OuterRef("pk")).order_by("-order")
    found = list(
        Player.objects.filter(pk__in=wanted)
        .annotate(
            mu=Subquery(latest.values("mu")[:1]),
            sigma=Subquery(latest.values("sigma")[:1]),
            top=Subquery(rows.order_by("-order").values("order")[:1]),
        )
        .values_list("pk", "mu", "sigma", "top")
    )
    ratings = {player: (mu, sigma) for player, mu, sigma, _ in found if mu is not None}
    top = found[0][3] if found else None  # the same on every row
    return ratings, top or 0
