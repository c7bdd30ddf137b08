"""Reads of the ledger, each a fixed number of queries however many hands or sessions there are."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery, Sum

from .ledger import (
    LedgerError,
    Log,
    LogEntry,
    derived_rows,
    hand_input_ordered,
    log_load,
    log_replay,
    session_players,
)
from .models import (
    ApiToken,
    Club,
    GameRow,
    HandRevision,
    HandState,
    Membership,
    Player,
    Session,
    SessionEvent,
    SessionSeat,
    SettlementRow,
    engine_lang,
)
from .rules.entry import Entry, entry, table_state
from .rules.options import options_resolve
from .rules.registry import VARIANTS
from .rules.session import game_render, receipt_render

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
    sessions = _sessions_filter(
        club=club, date_from=date_from, date_to=date_to, variant=variant, player=player, status=status
    )
    if limit is not None:
        sessions = sessions[:limit]
    found = list(sessions)
    return sessions_summarize(sessions=found)


def _sessions_filter(
    *,
    club: Club,
    date_from: datetime.date | None,
    date_to: datetime.date | None,
    variant: str | None,
    player: Player | None,
    status: str | None,
) -> QuerySet[Session]:
    """The club's sessions matching the history filters, newest first."""
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


def hand_history(*, session: Session) -> list[RevisionInfo]:
    """Every revision of every hand of the session, by hand then revision: who, when and why (one query)."""
    revisions = (
        HandRevision.objects.filter(hand__session=session)
        .select_related("hand", "author")
        .order_by("hand__number", "number")
    )
    return [_revision_info(revision) for revision in revisions]


def hand_revisions(*, session: Session, number: int) -> list[HandRevision]:
    """Hand `number`'s revisions, oldest first, each with its author (one query); `hand.not_found` if none."""
    revisions = list(
        HandRevision.objects.filter(hand__session=session, hand__number=number)
        .select_related("author")
        .order_by("number")
    )
    if not revisions:
        raise LedgerError("hand.not_found", field="number", hand=number, number=number)
    return revisions


def user_api_tokens(*, user: User) -> QuerySet[ApiToken]:
    """The user's personal API tokens, newest first, revoked ones too."""
    return ApiToken.objects.filter(user=user).order_by("-created_at", "-id")


def session_events(*, session: Session) -> list[SessionEvent]:
    """The session's closings and reopenings, oldest first, each with its user (one query)."""
    return list(SessionEvent.objects.filter(session=session).select_related("user").order_by("created_at", "id"))


def session_results(*, session: Session, lang: str = "zh-Hans") -> SessionRecord:
    """The session replayed from its log: the results document in `lang` (receipt steps in that
    language, hands numbered as in the ledger) and every hand with its revisions. Two queries."""
    return _session_record(session=session, log=log_load(session=session), lang=lang)


def _session_record(*, session: Session, log: Log, lang: str) -> SessionRecord:
    """The replay of a loaded log, every hand beside its revisions; no query."""
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


def hand_result(
    *, session: Session, number: int, lang: str = "zh-Hans", derived: HandState | None = None
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """Hand `number`'s entry of the results document and the game it finished, from its stored row (no replay).

    `derived` is the row when the caller has it (a write just stored it); else it is read. (None, None) for a void hand.
    """
    if derived is None:
        derived = HandState.objects.filter(session=session, number=number).first()
        if derived is None:
            return None, None
    names = [player.name for player in session_players(session=session)]
    lang = engine_lang(lang)
    result = receipt_render(derived.receipt, lang=lang, players=names)
    game_end = game_render(derived.game_end, lang=lang, players=names) if derived.game_end else None
    return result, game_end


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


# --- the API's reads: a page of sessions, club standings ---


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
    offset: int = 0,
    limit: int = 50,
) -> SessionPage:
    """One page of the club's sessions (as `club_sessions`, newest first) and the count of all: five queries."""
    sessions = _sessions_filter(
        club=club, date_from=date_from, date_to=date_to, variant=variant, player=player, status=status
    )
    count = sessions.count()
    found = list(sessions[offset : offset + limit]) if count > offset else []
    return SessionPage(count=count, summaries=sessions_summarize(sessions=found))


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


# --- the scorekeeper's table page ---

# Fixed partnerships whose two seats always show the team's figure (rules/README.md, "Seats, teams, games").
# 打滚子 is a fixed partnership too, but its tribute is paid seat to seat, so its totals are shown per player.
TEAM_VARIANTS = frozenset({"baifen.benxi", "baifen.fushun", "baifen.shenyang", "hongxingwu"})
# No game boundary: the whole session is one game (rules/README.md, "Seats, teams, games").
ONE_GAME_VARIANTS = frozenset({"baifen.classic", "erguai"})
TABLE_RECENT_HANDS = 8
CHART_WIDTH, CHART_HEIGHT = 320, 180
CHART_PAD = {"left": 36, "right": 10, "top": 10, "bottom": 20}


@dataclass(frozen=True, kw_only=True)
class TableSide:
    """What the table page totals and charts: a team (two seats) or one player."""

    index: int
    seats: tuple[int, ...]
    name: str


@dataclass(frozen=True, kw_only=True)
class EntryState:
    """Where the entry form of the next hand (or of the corrected hand `number`) starts from: the engine's
    description of that hand (`rules.entry.Entry`) and the ledger number it gets (or has)."""

    number: int
    entry: Entry

    def __getattr__(self, name: str) -> Any:
        # The description's figures read as the state's own: `state.dealer`, `state.bids` …
        return getattr(self.entry, name)

    @property
    def game(self) -> int:
        return self.entry.state.game

    @property
    def game_start(self) -> bool:
        return self.entry.state.game_start


@dataclass(frozen=True, kw_only=True)
class SideStanding:
    side: TableSide
    game_total: int  # in the current game (0 when the last game just ended)
    total: int  # the session: every hand and every game adjustment
    games_won: int
    level: str | None = None  # level games: the side's level now


@dataclass(frozen=True, kw_only=True)
class ChartSeries:
    side: TableSide
    segments: tuple[str, ...]  # SVG polyline points, one per game in per-game charts
    last: int
    end_x: float
    end_y: float


@dataclass(frozen=True, kw_only=True)
class ChartTick:
    value: int
    y: float
    label: str


@dataclass(frozen=True, kw_only=True)
class Chart:
    """A line chart of the totals over the hands, drawn by a template as SVG (no script)."""

    width: int
    height: int
    per_game: bool  # running totals within each game (reset when it ends) rather than the session's
    series: tuple[ChartSeries, ...]
    ticks: tuple[ChartTick, ...]  # 0, the extremes and ±target
    zero_y: float
    boundaries: tuple[float, ...]  # x of game ends
    hands: int
    left: float
    right: float
    top: float
    bottom: float


@dataclass(frozen=True, kw_only=True)
class TableView:
    """Everything the scorekeeper's table page shows, from one replay of the log (two queries)."""

    session: Session
    players: tuple[Player, ...]
    sides: tuple[TableSide, ...]
    results: dict[str, Any] | None
    error: LedgerError | None
    hands: tuple[HandRecord, ...]
    recent: tuple[HandRecord, ...]  # newest first
    older: tuple[HandRecord, ...]  # the rest, newest first (listed by number only)
    game: int  # the current game's number (a new one when the last ended)
    last_game: dict[str, Any] | None  # the results' last game entry
    standings: tuple[SideStanding, ...]  # by side
    ranking: tuple[SideStanding, ...]  # best first
    chart: Chart | None
    entry: EntryState | None
    fix: HandRecord | None  # the hand being corrected
    unit_value: int
    has_games: bool  # the session is played in games (盘, rounds, level games) rather than as one


def table_view(*, session: Session, lang: str = "zh-Hans", fix: int | None = None) -> TableView:
    """The table page of a session: totals, games won, chart, newest hands and the entry form's state.

    With `fix`, the entry state is the one before hand `fix` (its correction form). Two queries.
    """
    log = log_load(session=session)
    rules = VARIANTS[session.variant]
    players = log.players
    record = _session_record(session=session, log=log, lang=lang)
    results, error, hands = record.results, record.error, record.hands
    sides = table_sides(session=session, players=players)
    fixing = next((hand for hand in hands if hand.number == fix), None) if fix is not None else None
    entry = None
    if results is not None:
        entry = _entry_state(
            session=session,
            rules=rules,
            log=log,
            results=results,
            before=fixing.number if fixing else None,
            lang=lang,
        )
    last_game = results["games"][-1] if results and results["games"] else None
    game = 1 if last_game is None else last_game["n"] + (1 if last_game["finished"] else 0)
    standings = _standings(session=session, results=results, sides=sides, last_game=last_game) if results else ()
    if rules.zero_sum:
        ranking = tuple(sorted(standings, key=lambda s: (-s.total, s.side.index)))
    else:
        ranking = tuple(sorted(standings, key=lambda s: (-s.games_won, -s.total, s.side.index)))
    return TableView(
        session=session,
        players=players,
        sides=sides,
        results=results,
        error=error,
        hands=hands,
        recent=tuple(reversed(hands[-TABLE_RECENT_HANDS:])),
        older=tuple(reversed(hands[:-TABLE_RECENT_HANDS])),
        game=game,
        last_game=last_game,
        standings=standings,
        ranking=ranking,
        chart=table_chart(session=session, results=results, sides=sides) if results else None,
        entry=entry,
        fix=fixing,
        unit_value=int(session.options.get("unit_value", 1) or 1),
        has_games=session.variant not in ONE_GAME_VARIANTS,
    )


def table_sides(*, session: Session, players: Sequence[Player]) -> tuple[TableSide, ...]:
    """Teams (seats 0 + 2, 1 + 3) in the fixed-partnership variants, else one side per player."""
    if session.variant in TEAM_VARIANTS and len(players) == 4:
        return tuple(
            TableSide(index=team, seats=(team, team + 2), name=f"{players[team].name}·{players[team + 2].name}")
            for team in (0, 1)
        )
    return tuple(TableSide(index=seat, seats=(seat,), name=player.name) for seat, player in enumerate(players))


def _standings(
    *, session: Session, results: dict[str, Any], sides: Sequence[TableSide], last_game: dict[str, Any] | None
) -> tuple[SideStanding, ...]:
    current = last_game["totals"] if last_game and not last_game["finished"] else None
    last_hand = results["hands"][-1] if results["hands"] else None
    levels = None
    if VARIANTS[session.variant].has_levels:
        if last_hand is not None and last_hand.get("levels") and current is not None:
            levels = last_hand["levels"]
        else:
            levels = [str(session.options.get("start_level") or session.options.get("first_level") or "")] * len(
                results["totals"]
            )
    out = []
    for side in sides:
        seat = side.seats[0]
        out.append(
            SideStanding(
                side=side,
                game_total=current[seat] if current else 0,
                total=results["totals"][seat],
                games_won=results["games_won"][seat],
                level=levels[seat] if levels else None,
            )
        )
    return tuple(out)


def _entry_state(
    *,
    session: Session,
    rules: Any,
    log: Any,
    results: dict[str, Any],
    before: int | None,
    lang: str,
) -> EntryState:
    """The engine's description of the next hand (or of hand `before`, for its correction)."""
    options = session_options(session, players=len(log.players))
    state = table_state(rules, options, results, before=before)
    names = [player.name for player in log.players]
    described = entry(rules, options, state, players=len(names), lang=engine_lang(lang), names=names)
    return EntryState(number=before if before is not None else log.next_number, entry=described)


def session_options(session: Session, *, players: int) -> Any:
    """The session's frozen options as the engine's option dataclass."""
    return options_resolve(VARIANTS[session.variant].defaults(players), dict(session.options))


def table_chart(*, session: Session, results: dict[str, Any], sides: Sequence[TableSide]) -> Chart | None:
    """The totals over the hands as polylines: within each game where the game has a points target
    (a 盘 of 打百分, whose totals race to ±target), else the session's running totals."""
    hands = results["hands"]
    if not hands:
        return None
    target = session.options.get("target")
    per_game = isinstance(target, int)
    games = {game["last_hand"]: game for game in results["games"] if game["finished"]}
    # values[side] = [(x index, value, starts a game)], x index 0 = before the first hand
    values: list[list[tuple[int, int, bool]]] = [[(0, 0, True)] for _ in sides]
    base = [0] * len(results["totals"])
    boundaries = []
    for i, hand in enumerate(hands, start=1):
        game_end = games.get(hand["n"])
        starts = i > 1 and hands[i - 2]["n"] in games
        for side, series in zip(sides, values, strict=True):
            seat = side.seats[0]
            if per_game:
                if starts:
                    series.append((i - 1, 0, True))
                series.append((i, hand["totals"][seat], False))
            else:
                value = base[seat] + (game_end["totals"][seat] if game_end else hand["totals"][seat])
                series.append((i, value, False))
        if game_end is not None:
            base = [b + t for b, t in zip(base, game_end["totals"], strict=True)]
            if i < len(hands):
                boundaries.append(i)
    all_values = [v for series in values for _, v, _ in series]
    low, high = min(0, *all_values), max(0, *all_values)
    if per_game:
        low, high = min(low, -target), max(high, target)
    if low == high:
        high = low + 1
    span = high - low
    low, high = low - span * 0.05, high + span * 0.05
    left, right = CHART_PAD["left"], CHART_WIDTH - CHART_PAD["right"]
    top, bottom = CHART_PAD["top"], CHART_HEIGHT - CHART_PAD["bottom"]

    def x_of(i: int) -> float:
        return round(left + (right - left) * i / len(hands), 1)

    def y_of(v: float) -> float:
        return round(bottom - (bottom - top) * (v - low) / (high - low), 1)

    series_out = []
    for side, series in zip(sides, values, strict=True):
        segments: list[list[str]] = []
        for i, value, starts_game in series:
            if starts_game or not segments:
                segments.append([])
            segments[-1].append(f"{x_of(i)},{y_of(value)}")
        last_i, last_value, _ = series[-1]
        series_out.append(
            ChartSeries(
                side=side,
                segments=tuple(" ".join(points) for points in segments),
                last=last_value,
                end_x=x_of(last_i),
                end_y=y_of(last_value),
            )
        )
    tick_values = {0, max(all_values), min(all_values)}
    if per_game:
        tick_values |= {target, -target}
    ticks = tuple(
        ChartTick(value=v, y=y_of(v), label=(f"+{v}" if v > 0 else str(v).replace("-", "−")))
        for v in sorted(tick_values)
    )
    # Labels closer than a line apart would overlap: keep 0, the targets, then the extremes that fit.
    kept: list[ChartTick] = []
    for tick in sorted(ticks, key=lambda t: (t.value not in (0, target, -(target or 0)), abs(t.value))):
        if all(abs(tick.y - other.y) >= 11 for other in kept):
            kept.append(tick)
    return Chart(
        width=CHART_WIDTH,
        height=CHART_HEIGHT,
        per_game=per_game,
        series=tuple(series_out),
        ticks=tuple(sorted(kept, key=lambda t: t.value)),
        zero_y=y_of(0),
        boundaries=tuple(x_of(i) for i in boundaries),
        hands=len(hands),
        left=left,
        right=right,
        top=top,
        bottom=bottom,
    )


# --- integrity ---

SETTLEMENT_FIELDS = ("hand_id", "player_id", "game", "delta", "total", "is_declarer", "declarer_won")
GAME_FIELDS = ("player_id", "first_hand", "last_hand", "finished", "how", "won", "adjustment", "total")
STATE_FIELDS = ("hand_id", "game_first", "state", "receipt", "game_end")
ROW = "row"  # the field of a Difference where a whole row is missing or extra


@dataclass(frozen=True, kw_only=True)
class Difference:
    """A stored derived row that is not what the log replays to.

    `kind` is "hand" (a `SettlementRow`, `number` the hand's) or "game" (a
    `GameRow`, `number` the game's). `field` is "row" when the whole row is
    missing (`stored` None) or should not exist (`replayed` None).
    """

    session: int
    kind: str
    number: int
    seat: int
    field: str
    stored: Any
    replayed: Any

    def __str__(self) -> str:
        stored, replayed = self.stored, self.replayed
        if self.field == ROW:
            stored, replayed = ("present" if value is not None else "absent" for value in (stored, replayed))
        return (
            f"session {self.session} {self.kind} {self.number} seat {self.seat} {self.field}: "
            f"stored {stored}, replayed {replayed}"
        )


def session_verify(*, session: Session) -> list[Difference]:
    """Replay the session's hand log and compare it with the stored `SettlementRow` and `GameRow` rows.

    An empty list means the stored rows are exactly what the log replays to.
    Raises `LedgerError` when the log itself no longer replays.
    """
    log = log_load(session=session)
    replay = log_replay(session=session, players=log.players, hands=log.hands())
    expected = derived_rows(session=session, players=log.players, replay=replay, hand_ids=log.hand_ids)
    differences = _rows_compare(
        session=session.pk,
        kind="hand",
        stored={(r.number, r.seat): r for r in SettlementRow.objects.filter(session=session)},
        replayed={(r.number, r.seat): r for r in expected.settlement_rows},
        fields=SETTLEMENT_FIELDS,
    )
    differences += _rows_compare(
        session=session.pk,
        kind="game",
        stored={(r.game, r.seat): r for r in GameRow.objects.filter(session=session)},
        replayed={(r.game, r.seat): r for r in expected.game_rows},
        fields=GAME_FIELDS,
    )
    differences += _rows_compare(
        session=session.pk,
        kind="state",
        stored={(r.number, 0): r for r in HandState.objects.filter(session=session)},
        replayed={(r.number, 0): r for r in expected.hand_states},
        fields=STATE_FIELDS,
    )
    return differences


def _rows_compare(
    *,
    session: int,
    kind: str,
    stored: dict[tuple[int, int], Any],
    replayed: dict[tuple[int, int], Any],
    fields: Sequence[str],
) -> list[Difference]:
    differences = []
    for key in sorted(stored.keys() | replayed.keys()):
        number, seat = key
        old, new = stored.get(key), replayed.get(key)
        if old is None or new is None:
            differences.append(
                Difference(
                    session=session,
                    kind=kind,
                    number=number,
                    seat=seat,
                    field=ROW,
                    stored=None if old is None else key,
                    replayed=None if new is None else key,
                )
            )
            continue
        for field in fields:
            if getattr(old, field) != getattr(new, field):
                differences.append(
                    Difference(
                        session=session,
                        kind=kind,
                        number=number,
                        seat=seat,
                        field=field,
                        stored=getattr(old, field),
                        replayed=getattr(new, field),
                    )
                )
    return differences
