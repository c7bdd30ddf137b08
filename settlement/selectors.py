"""Reads of the ledger, each a fixed number of queries however many hands or sessions there are."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery, Sum

from .ledger import LedgerError, LogEntry, hand_input_ordered, log_load, log_replay
from .models import Club, GameRow, HandRevision, Membership, Player, Session, SessionSeat, SettlementRow

User = AbstractBaseUser | AnonymousUser


@dataclass(frozen=True, kw_only=True)
class RevisionInfo:
    """One revision of a hand: what was entered (None for a void), by whom, when and why."""

    hand: int  # the hand's number
    number: int
    input: Any  # as entered (fields in the document's usual order)
    is_void: bool
    reason: str
    author: str
    created_at: datetime.datetime

    @property
    def kind(self) -> str:
        """`record`, `correction` or `void`."""
        return "void" if self.is_void else ("record" if self.number == 1 else "correction")


@dataclass(frozen=True, kw_only=True)
class HandRecord:
    """A hand of the log: its revisions (oldest first) and, unless void, its result.

    `result` is the hand's entry of the results document (`n` = the ledger's
    number); `game_end` is the game entry when this hand finished a game.
    """

    number: int
    revisions: tuple[RevisionInfo, ...]
    result: dict[str, Any] | None
    game_end: dict[str, Any] | None = None

    @property
    def current(self) -> RevisionInfo:
        return self.revisions[-1]

    @property
    def is_void(self) -> bool:
        return self.current.is_void

    @property
    def is_corrected(self) -> bool:
        return len(self.revisions) > 1


@dataclass(frozen=True, kw_only=True)
class SessionRecord:
    """A session's full record. `results` is the results document with the ledger's hand numbers,
    or None with `error` set when the log no longer replays (a rules change, say)."""

    session: Session
    players: tuple[Player, ...]
    hands: tuple[HandRecord, ...]
    results: dict[str, Any] | None
    error: LedgerError | None = None


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
    return Player.objects.filter(club=club).annotate(sessions=Count("seats")).order_by("is_guest", "name")


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
    sessions = Session.objects.filter(club=club)
    if date_from is not None:
        sessions = sessions.filter(date__gte=date_from)
    if date_to is not None:
        sessions = sessions.filter(date__lte=date_to)
    if variant:
        sessions = sessions.filter(variant=variant)
    if player is not None:
        sessions = sessions.filter(seats__player=player)
    if status:
        sessions = sessions.filter(status=status)
    sessions = sessions.order_by("-date", "-created_at", "-id")
    if limit is not None:
        sessions = sessions[:limit]
    found = list(sessions)
    return sessions_summarize(sessions=found)


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


def hand_history(*, session: Session) -> list[RevisionInfo]:
    """Every revision of every hand of the session, by hand then revision: who, when and why (one query)."""
    revisions = (
        HandRevision.objects.filter(hand__session=session)
        .select_related("hand", "author")
        .order_by("hand__number", "number")
    )
    return [_revision_info(revision) for revision in revisions]


def session_results(*, session: Session, lang: str = "zh-Hans") -> SessionRecord:
    """The session replayed from its log: the results document in `lang` (receipt steps in that
    language, hands numbered as in the ledger) and every hand with its revisions. Two queries."""
    log = log_load(session=session)
    error: LedgerError | None = None
    results: dict[str, Any] | None = None
    try:
        results = log_replay(session=session, players=log.players, hands=log.hands()).render(lang)
    except LedgerError as exc:
        error = exc
    by_number = {hand["n"]: hand for hand in results["hands"]} if results else {}
    game_ends = {game["last_hand"]: game for game in results["games"] if game["finished"]} if results else {}
    hands = tuple(
        HandRecord(
            number=entry.number,
            revisions=_entry_revisions(entry),
            result=by_number.get(entry.number),
            game_end=game_ends.get(entry.number),
        )
        for entry in log.entries
    )
    return SessionRecord(session=session, players=log.players, hands=hands, results=results, error=error)


def _entry_revisions(entry: LogEntry) -> tuple[RevisionInfo, ...]:
    return tuple(_revision_info(revision) for revision in entry.revisions)


def _revision_info(revision: HandRevision) -> RevisionInfo:
    author = revision.author
    return RevisionInfo(
        hand=revision.hand.number,
        number=revision.number,
        input=hand_input_ordered(revision.input),
        is_void=revision.is_void,
        reason=revision.reason,
        author=author.get_full_name() or author.get_username(),  # type: ignore[attr-defined]
        created_at=revision.created_at,
    )
