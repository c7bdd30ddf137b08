"""The scorekeeper's table page (and the share page, which shows the same): totals, games won, the chart,
the newest hands and the entry form's state, from the stored rows (no replay of the session).

The chart's figures are data here (`TableView.chart_source`); `presentation.chart` turns them into SVG geometry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Sum

from ..ledger import LedgerError, NextHand, session_players
from ..models import GameRow, HandState, Player, Session, SettlementRow, engine_lang
from ..rules.entry import Entry, entry, table_state
from ..rules.levels import team_seats
from ..rules.options import options_resolve
from ..rules.registry import VARIANTS
from .records import HandRecord, hand_record, session_results

# Fixed partnerships whose two seats always show the team's figure (docs/rules/README.md, "Seats, teams and games").
# 打滚子 is a fixed partnership too, but its tribute is paid seat to seat, so its totals are shown per player.
TEAM_VARIANTS = frozenset({"baifen.benxi", "baifen.fushun", "baifen.shenyang", "hongxingwu"})
# No game boundary: the whole session is one game (docs/rules/README.md, "Seats, teams and games").
ONE_GAME_VARIANTS = frozenset({"baifen.classic", "erguai"})
TABLE_RECENT_HANDS = 8
TABLE_OLDER_HANDS = 40  # earlier hands listed by number; the session page pages the rest
# The chart draws the newest CHART_HANDS hands of the log (void ones count): a bounded read whatever the size.
# It covers the hands the page lists (TABLE_RECENT_HANDS + TABLE_OLDER_HANDS), whose void marks it gives.
CHART_HANDS = 100
assert CHART_HANDS >= TABLE_RECENT_HANDS + TABLE_OLDER_HANDS, "the listed hands' void marks come from the chart's read"


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
class LevelTeam:
    """A level game's team (seats of one parity) as it stands before the next hand."""

    index: int  # 0: seats 0 + 2 (+ 4), 1: seats 1 + 3 (+ 5)
    seats: tuple[int, ...]
    name: str
    level: str
    to_defend: tuple[str, ...]  # the `must_defend` levels from its level on, up the ladder (必打关卡)
    declares_next: bool  # the rotation's declarer is one of its seats


@dataclass(frozen=True, kw_only=True)
class OlderHand:
    """An earlier hand, listed by number only."""

    number: int
    is_void: bool


@dataclass(frozen=True, kw_only=True)
class TableView:
    """Everything the scorekeeper's table page shows, from the stored rows (a fixed number of queries)."""

    session: Session
    players: tuple[Player, ...]
    sides: tuple[TableSide, ...]
    results: dict[str, Any] | None  # totals, games won and settle-up of the whole session; hands: the newest
    error: LedgerError | None
    hands: tuple[HandRecord, ...]  # the newest hands, oldest first
    recent: tuple[HandRecord, ...]  # newest first
    older: tuple[OlderHand, ...]  # the TABLE_OLDER_HANDS before them, newest first (listed by number only)
    hand_count: int  # hands in the log, void ones included
    game: int  # the current game's number (a new one when the last ended)
    last_game: dict[str, Any] | None  # the results' last game entry
    standings: tuple[SideStanding, ...]  # by side
    ranking: tuple[SideStanding, ...]  # best first
    chart_source: dict[str, Any] | None  # the running totals the chart draws (`presentation.chart`)
    entry: EntryState | None
    fix: HandRecord | None  # the hand being corrected
    unit_value: int
    has_games: bool  # the session is played in games (盘, rounds, level games) rather than as one
    # Level games: both teams before the next hand (not the corrected hand's: the session's now), and the
    # rotation's declarer (None on a game's first hand: it is named at the table).
    level_teams: tuple[LevelTeam, ...] = ()
    next_declarer: int | None = None
    following: NextHand | None = None  # where the next hand goes (the preview plays on from it)

    @property
    def more_older(self) -> bool:
        """Hands older than those listed: the session page has them."""
        return bool(self.older) and self.older[-1].number > 1

    def has_hand(self, number: int | None) -> bool:
        return number is not None and 1 <= number <= self.hand_count


def table_view(*, session: Session, lang: str = "zh-Hans", fix: int | None = None) -> TableView:
    """The table page of a session: totals, games won, chart, newest hands and the entry form's state.

    With `fix`, the entry state is the one before hand `fix` (its correction form). A fixed number of
    queries whatever the size: the record's window of the newest hands, the earlier hands' numbers,
    the chart's figures, and for `fix` that hand and the state before it.
    """
    rules = VARIANTS[session.variant]
    record = session_results(session=session, lang=lang, limit=TABLE_RECENT_HANDS)
    players = record.players
    results, error, hands = record.results, record.error, record.hands
    window = record.window
    assert window is not None
    sides = table_sides(session=session, players=players)
    fixing = None
    if fix is not None:
        fixing = next((hand for hand in hands if hand.number == fix), None)
        if fixing is None and 1 <= fix <= window.count:
            fixing = hand_record(session=session, number=fix, players=players, lang=lang)
    entry = None
    if results is not None:
        entry = _entry_state(
            session=session,
            rules=rules,
            players=players,
            record=record,
            before=fixing.number if fixing else None,
            lang=lang,
        )
    last_game = record.last_game
    game = 1 if last_game is None else last_game["n"] + (1 if last_game["finished"] else 0)
    now = entry
    if rules.has_levels and entry is not None and fixing is not None:
        now = _entry_state(session=session, rules=rules, players=players, record=record, before=None, lang=lang)
    levels_now = tuple(str(level) for level in now.entry.levels) if now is not None and now.entry.levels else None
    standings = _standings(results=results, sides=sides, last_game=last_game, levels=levels_now) if results else ()
    if rules.zero_sum:
        ranking = tuple(sorted(standings, key=lambda s: (-s.total, s.side.index)))
    else:
        ranking = tuple(sorted(standings, key=lambda s: (-s.games_won, -s.total, s.side.index)))
    chart_first = max(1, window.count - CHART_HANDS + 1)
    if record.replayed is not None:
        source = chart_window(record.replayed, first=chart_first, per_game=_per_game(session))
    else:
        source = _chart_source(session=session, players=len(players), first=chart_first)
    counted = {hand["n"] for hand in source["hands"]}
    level_teams: tuple[LevelTeam, ...] = ()
    next_declarer = None
    if rules.has_levels and now is not None:
        level_teams = _level_teams(session=session, players=players, now=now.entry)
        next_declarer = now.entry.declarer
    return TableView(
        session=session,
        players=players,
        sides=sides,
        results=results,
        error=error,
        hands=hands,
        recent=tuple(reversed(hands)),
        older=_older(last=window.first - 1, counted=counted),
        hand_count=window.count,
        game=game,
        last_game=last_game,
        standings=standings,
        ranking=ranking,
        chart_source=source if results is not None else None,
        entry=entry,
        fix=fixing,
        unit_value=int(session.options.get("unit_value", 1) or 1),
        has_games=session.variant not in ONE_GAME_VARIANTS,
        level_teams=level_teams,
        next_declarer=next_declarer,
        following=record.following,
    )


def _level_teams(*, session: Session, players: Sequence[Player], now: Entry) -> tuple[LevelTeam, ...]:
    """Both teams of a level game: their level before the next hand, the levels they must still defend
    (`must_defend` from that level on; docs/rules/shengji.md, Promotion) and whether one of theirs declares next."""
    if not now.levels:
        return ()
    options = session_options(session, players=len(players))
    ladder = tuple(str(level) for level in getattr(options, "ladder", ()) or ())
    gates = {str(level) for level in getattr(options, "must_defend", ()) or ()}
    teams = []
    for team in (0, 1):
        seats = team_seats(team, len(players))
        level = str(now.levels[seats[0]])
        ahead = ladder[ladder.index(level) :] if level in ladder else ()
        teams.append(
            LevelTeam(
                index=team,
                seats=seats,
                name="·".join(players[seat].name for seat in seats),
                level=level,
                to_defend=tuple(gate for gate in ahead if gate in gates),
                declares_next=now.declarer is not None and now.declarer % 2 == team,
            )
        )
    return tuple(teams)


def _older(*, last: int, counted: set[int]) -> tuple[OlderHand, ...]:
    """The TABLE_OLDER_HANDS hands up to `last`, newest first; a hand that is not `counted` is void."""
    first = max(1, last - TABLE_OLDER_HANDS + 1)
    return tuple(OlderHand(number=n, is_void=n not in counted) for n in range(last, first - 1, -1))


def hand_view(*, session: Session, number: int, lang: str = "zh-Hans") -> TableView | None:
    """The hand page's read: hand `number` with its revisions and result, and the entry state of its
    correction, without the table's figures (four queries; None: no such hand)."""
    players = session_players(session=session)
    fixing = hand_record(session=session, number=number, players=players, lang=lang)
    if fixing is None:
        return None
    if fixing.result is None and not fixing.is_void:  # stored rows that do not cover the log
        return table_view(session=session, lang=lang, fix=number)
    rules = VARIANTS[session.variant]
    prior = _prior_before(session=session, number=number, players=len(players))
    options = session_options(session, players=len(players))
    names = [player.name for player in players]
    described = entry(
        rules,
        options,
        table_state(rules, options, prior, before=number),
        players=len(names),
        lang=engine_lang(lang),
        names=names,
    )
    return TableView(
        session=session,
        players=tuple(players),
        sides=table_sides(session=session, players=players),
        results=None,
        error=None,
        hands=(fixing,),
        recent=(),
        older=(),
        hand_count=number,
        game=fixing.result["game"] if fixing.result else 1,
        last_game=None,
        standings=(),
        ranking=(),
        chart_source=None,
        entry=EntryState(number=number, entry=described),
        fix=fixing,
        unit_value=int(session.options.get("unit_value", 1) or 1),
        has_games=session.variant not in ONE_GAME_VARIANTS,
    )


def _per_game(session: Session) -> bool:
    """The chart draws each game's running totals (a points target: a 盘 races to ±target), else the session's."""
    return isinstance(session.options.get("target"), int)


def _chart_source(*, session: Session, players: int, first: int) -> dict[str, Any]:
    """What `presentation.chart.table_chart` draws, from the derived rows: the running totals of each counted
    hand from hand `first` on, the games that finished among them, and (for a chart of the session's totals)
    what the games finished before `first` add up to. Two queries (three for a session chart: its base
    is asked for even when it is empty), each bounded by the window or the number of seats; a few columns
    per row, no receipt."""
    hands: dict[int, list[int]] = {}
    for number, seat, total in (
        SettlementRow.objects.filter(session=session, number__gte=first)
        .order_by("number", "seat")
        .values_list("number", "seat", "total")
    ):
        hands.setdefault(number, [0] * players)[seat] = total
    games: dict[int, dict[str, Any]] = {}
    for last_hand, seat, total in GameRow.objects.filter(
        session=session, finished=True, last_hand__gte=first
    ).values_list("last_hand", "seat", "total"):
        games.setdefault(last_hand, {"last_hand": last_hand, "finished": True, "totals": [0] * players})["totals"][
            seat
        ] = total
    base = [0] * players
    if not _per_game(session):  # a session chart: always asked, so the count of queries is the same at any size
        for seat, total in (
            GameRow.objects.filter(session=session, finished=True, last_hand__lt=first)
            .values("seat")
            .annotate(sum=Sum("total"))
            .values_list("seat", "sum")
        ):
            base[seat] = total
    return {
        "hands": [{"n": n, "totals": totals} for n, totals in hands.items()],
        "games": [games[n] for n in sorted(games)],
        "totals": [0] * players,
        "first": first,
        "base": base,
    }


def chart_window(results: Mapping[str, Any], *, first: int, per_game: bool) -> dict[str, Any]:
    """A whole results document cut to the chart's hands from `first` on, as `_chart_source` reads them."""
    players = len(results["totals"])
    base = [0] * players
    if not per_game:
        for game in results["games"]:
            if game["finished"] and game["last_hand"] < first:
                base = [b + t for b, t in zip(base, game["totals"], strict=True)]
    return {
        "hands": [hand for hand in results["hands"] if hand["n"] >= first],
        "games": [game for game in results["games"] if game["last_hand"] >= first],
        "totals": [0] * players,
        "first": first,
        "base": base,
    }


def table_sides(*, session: Session, players: Sequence[Player]) -> tuple[TableSide, ...]:
    """Teams (seats 0 + 2, 1 + 3) in the fixed-partnership variants, else one side per player."""
    if session.variant in TEAM_VARIANTS and len(players) == 4:
        return tuple(
            TableSide(index=team, seats=(team, team + 2), name=f"{players[team].name}·{players[team + 2].name}")
            for team in (0, 1)
        )
    return tuple(TableSide(index=seat, seats=(seat,), name=player.name) for seat, player in enumerate(players))


def _standings(
    *,
    results: dict[str, Any],
    sides: Sequence[TableSide],
    last_game: Mapping[str, Any] | None,
    levels: Sequence[str] | None,
) -> tuple[SideStanding, ...]:
    """Each side's totals; in level games its level before the next hand, as the engine's entry states it
    (the first hand's too: the ladder's first level, whatever the variant calls its starting option)."""
    current = last_game["totals"] if last_game and not last_game["finished"] else None
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
    players: Sequence[Player],
    record: Any,
    before: int | None,
    lang: str,
) -> EntryState:
    """The engine's description of the next hand (or of hand `before`, for its correction).

    It depends on the last counted hand before it only: its stored receipt and the game it ended.
    """
    options = session_options(session, players=len(players))
    if record.replayed is not None:
        prior = record.replayed
    elif before is None:
        prior = _prior(record.last_hand, record.last_game, players=len(players))
    else:
        prior = _prior_before(session=session, number=before, players=len(players))
    state = table_state(rules, options, prior, before=before)
    names = [player.name for player in players]
    described = entry(rules, options, state, players=len(names), lang=engine_lang(lang), names=names)
    number = before if before is not None else record.window.count + 1
    return EntryState(number=number, entry=described)


def _prior_before(*, session: Session, number: int, players: int) -> dict[str, Any]:
    """`_prior` from the stored state of the last hand before `number` (one query; none: the session's start)."""
    row = (
        HandState.objects.filter(session=session, number__lt=number)
        .order_by("-number")
        .values("receipt", "game_end")
        .first()
    )
    return _prior(row["receipt"] if row else None, row["game_end"] if row else None, players=players)


def _prior(hand: Mapping[str, Any] | None, game_end: Mapping[str, Any] | None, *, players: int) -> dict[str, Any]:
    """A results document holding only the hand before (what `rules.entry.table_state` reads)."""
    ended = game_end if game_end is not None and game_end.get("finished") else None
    if ended is not None and hand is not None and ended.get("last_hand") != hand["n"]:
        ended = None
    return {"hands": [hand] if hand else [], "games": [ended] if ended else [], "totals": [0] * players}


def session_options(session: Session, *, players: int) -> Any:
    """The session's frozen options as the engine's option dataclass."""
    return options_resolve(VARIANTS[session.variant].defaults(players), dict(session.options))
