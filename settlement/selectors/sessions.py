"""Reads of clubs and their sessions: lists, summaries and pages, each a fixed number of queries."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery, Sum

from ..models import Club, GameRow, Membership, Player, Session, SessionSeat, SettlementRow

User = AbstractBaseUser | AnonymousUser


@dataclass(frozen=True, kw_only=True)
class SeatSummary:
    seat: int
    player: Player
    total: int  # hand deltas plus game adjustments
    games_won: int


@dataclass(frozen=True, kw_only=True)
class SessionSummary:
    session: Session
    seats: tuple[SeatSummary, ...]
    hands: int  # hands that count (not void)


def user_clubs(*, user: User) -> QuerySet[Club]:
    """The clubs the user belongs to, each with `role` (the user's role there)."""
    if not user.is_authenticated:
        return Club.objects.none()
    role = Membership.objects.filter(club=OuterRef("pk"), user=user).values("role")[:1]
    return Club.objects.filter(memberships__user=user).annotate(role=Subquery(role)).order_by("name")


def club_players(*, club: Club) -> QuerySet[Player]:
    """The club's players with `sessions` (how many sessions each sat in)."""
    return (
        Player.objects.filter(club=club, merged_into__isnull=True)  # a merged record lives on in its survivor
        .annotate(sessions=Count("seats"))
        .order_by("is_guest", "name")
    )


def club_sessions(
    *,
    club: Club,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
    variant: str | None = None,
    player: Player | None = None,
    status: str | None = None,
    limit: int | None = None,
) -> list[SessionSummary]:
    """The club's sessions, newest first, filtered, each with its players and totals (four queries)."""
    sessions = _sessions_filter(
        club=club, date_from=date_from, date_to=date_to, variant=variant, player=player, status=status
    )
    if limit is not None:
        sessions = sessions[:limit]
    found = list(sessions)
    return sessions_summarize(sessions=found)


def sessions_dated(
    sessions: QuerySet[Session],
    *,
    date_from: datetime.date | None,
    date_to: datetime.date | None,
    variant: str | None,
) -> QuerySet[Session]:
    """`sessions` from `date_from` to `date_to` (both days in; None: no bound) of `variant` (None or "": any)."""
    if date_from is not None:
        sessions = sessions.filter(date__gte=date_from)
    if date_to is not None:
        sessions = sessions.filter(date__lte=date_to)
    if variant:
        sessions = sessions.filter(variant=variant)
    return sessions


def _sessions_filter(
    *,
    club: Club,
    date_from: datetime.date | None,
    date_to: datetime.date | None,
    variant: str | None,
    player: Player | None,
    status: str | None,
    updated_since: datetime.datetime | None = None,
) -> QuerySet[Session]:
    """The club's sessions matching the history filters, newest first."""
    sessions = Session.objects.filter(club=club)
    if updated_since is not None:
        sessions = sessions.filter(updated_at__gte=updated_since)
    sessions = sessions_dated(sessions, date_from=date_from, date_to=date_to, variant=variant)
    if player is not None:
        sessions = sessions.filter(seats__player=player)
    if status:
        sessions = sessions.filter(status=status)
    return sessions.order_by("-date", "-created_at", "-id")


def sessions_summarize(*, sessions: Sequence[Session]) -> list[SessionSummary]:
    """Players and totals (from the derived rows) of the given sessions: three queries."""
    ids = [session.pk for session in sessions]
    if not ids:
        return []
    seats: dict[int, list[SessionSeat]] = {}
    for seat in SessionSeat.objects.filter(session_id__in=ids).select_related("player").order_by("seat"):
        seats.setdefault(seat.session_id, []).append(seat)
    hands = {
        (row["session_id"], row["seat"]): row
        for row in SettlementRow.objects.filter(session_id__in=ids)
        .values("session_id", "seat")
        .annotate(total=Sum("delta"), hands=Count("id"))
    }
    games = {
        (row["session_id"], row["seat"]): row
        for row in GameRow.objects.filter(session_id__in=ids)
        .values("session_id", "seat")
        .annotate(adjustment=Sum("adjustment"), won=Count("id", filter=Q(won=True)))
    }
    summaries = []
    for session in sessions:
        summary_seats = []
        count = 0
        for seat in seats.get(session.pk, []):
            hand_row = hands.get((session.pk, seat.seat), {})
            game_row = games.get((session.pk, seat.seat), {})
            count = hand_row.get("hands", 0)
            summary_seats.append(
                SeatSummary(
                    seat=seat.seat,
                    player=seat.player,
                    total=(hand_row.get("total") or 0) + (game_row.get("adjustment") or 0),
                    games_won=game_row.get("won", 0),
                )
            )
        summaries.append(SessionSummary(session=session, seats=tuple(summary_seats), hands=count))
    return summaries


@dataclass(frozen=True, kw_only=True)
class SessionPage:
    count: int  # sessions matching the filters, all pages
    summaries: list[SessionSummary]


def club_sessions_page(
    *,
    club: Club,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
    variant: str | None = None,
    player: Player | None = None,
    status: str | None = None,
    updated_since: datetime.datetime | None = None,
    offset: int = 0,
    limit: int = 50,
) -> SessionPage:
    """One page of the club's sessions (as `club_sessions`, newest first) and the count of all: five queries."""
    sessions = _sessions_filter(
        club=club,
        date_from=date_from,
        date_to=date_to,
        variant=variant,
        player=player,
        status=status,
        updated_since=updated_since,
    )
    count = sessions.count()
    found = list(sessions[offset : offset + limit]) if count > offset else []
    return SessionPage(count=count, summaries=sessions_summarize(sessions=found))
