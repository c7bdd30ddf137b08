"""A session's record: its hands with their revisions and results, read from the stored rows.

The figures come from `HandState` (each counted hand's receipt, the game it
ended and the engine's state after it), written in the same transaction as
every write; nothing here replays the session. A read takes a window of the
log — the newest `limit` hands after skipping the `offset` newest — so its
cost does not grow with the session. Only a log whose stored rows do not
cover it (written around the services: see `ledger_verify --repair`) is
replayed, to name the hand that no longer plays.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Max

from ..ledger import (
    LedgerError,
    LogEntry,
    NextHand,
    hand_input_ordered,
    log_load,
    log_replay,
    next_hand_from,
    session_players,
)
from ..ledger.sql import session_table
from ..models import Hand, HandRevision, HandState, Player, Session, SessionEvent, engine_lang
from ..rules.options import options_dump, options_resolve
from ..rules.registry import VARIANTS
from ..rules.session import (
    PlayedGame,
    game_receipt,
    game_render,
    receipt_render,
    settle_up_transfers,
    state_load,
)


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
    note: str = ""  # the scorekeeper's note on the hand as this revision has it

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
class HandWindow:
    """The hands a read holds: ledger numbers `first` … `last` of the `count` hands of the log (void ones included).

    `offset` hands newer than the window are left out, and `first - 1` older ones.
    """

    count: int
    offset: int
    limit: int | None
    first: int
    last: int

    @property
    def has_newer(self) -> bool:
        return self.offset > 0

    @property
    def has_older(self) -> bool:
        return self.first > 1


def hand_window(*, count: int, offset: int = 0, limit: int | None = None) -> HandWindow:
    offset = max(0, offset)
    last = max(0, count - offset)
    first = 1 if limit is None else max(1, last - limit + 1)
    return HandWindow(count=count, offset=offset, limit=limit, first=first if last else 1, last=last)


@dataclass(frozen=True, kw_only=True)
class SessionRecord:
    """A session's record. `results` is the results document with the ledger's hand numbers (its `hands` and
    `games` those of the window), or None with `error` set when the log no longer replays (a rules change, say).

    `hands` are the window's hands, oldest first, void ones included. `last_game` is the session's last
    game entry (the one in progress, else the last finished), `last_hand` the last counted hand's entry.
    `following` is where the next hand goes, from the same statement (a preview plays on from it).
    """

    session: Session
    players: tuple[Player, ...]
    hands: tuple[HandRecord, ...]
    results: dict[str, Any] | None
    error: LedgerError | None = None
    window: HandWindow | None = None
    last_game: dict[str, Any] | None = None
    last_hand: dict[str, Any] | None = None
    replayed: dict[str, Any] | None = None  # the whole results document, when the log had to be replayed
    following: NextHand | None = None

    @property
    def hands_newest_first(self) -> tuple[HandRecord, ...]:
        return tuple(reversed(self.hands))


def hand_history(*, session: Session) -> list[RevisionInfo]:
    """Every revision of every hand of the session, by hand then revision: who, when and why (one query)."""
    revisions = (
        HandRevision.objects.filter(hand__session=session)
        .select_related("hand", "author")
        .order_by("hand__number", "number")
    )
    return [_revision_info(revision) for revision in revisions]


def session_events(*, session: Session) -> list[SessionEvent]:
    """The session's closings and reopenings, oldest first, each with its user (one query)."""
    return list(SessionEvent.objects.filter(session=session).select_related("user").order_by("created_at", "id"))


class _StaleRows(Exception):
    """The stored rows do not cover the log: a counted hand without its `HandState`, or a state of another version."""


def session_results(
    *, session: Session, lang: str = "zh-Hans", offset: int = 0, limit: int | None = None
) -> SessionRecord:
    """The session's results document in `lang` (receipt steps in that language, hands numbered as in the
    ledger) and its hands with their revisions, from the stored rows: three queries whatever the size.

    With `limit`, only a window of hands: the `limit` hands after skipping the `offset` newest (their
    results, and the games that ended among them — plus the game in progress when the window is the
    newest); the totals, games won and settle-up are always the whole session's.
    """
    players, count, last = session_table(session_id=session.pk)
    window = hand_window(count=count, offset=offset, limit=limit)
    try:
        record = _stored_record(session=session, players=players, window=window, last=last, lang=lang)
    except _StaleRows:
        record = _replayed_record(session=session, window=window, lang=lang)
    return dataclasses.replace(record, following=next_hand_from(last=count, row=last))


def _stored_record(
    *, session: Session, players: Sequence[Player], window: HandWindow, last: Mapping[str, Any] | None, lang: str
) -> SessionRecord:
    """The record of the window from the stored rows: one query (the revisions, each hand's state joined)."""
    lang = engine_lang(lang)
    names = [player.name for player in players]
    revisions: dict[int, list[RevisionInfo]] = {}
    stored: dict[int, tuple[Any, Any] | None] = {}
    if window.last:
        # Values, not models: a page's revisions with their hands, authors and states were some 90 model instances
        # built for each read and preview, a third of the request's time (bench/load.py).
        for row in (
            HandRevision.objects.filter(hand__session=session, hand__number__range=(window.first, window.last))
            .order_by("hand__number", "number")
            .values_list(
                *_REVISION_COLUMNS,
                "hand__derived_state__id",
                "hand__derived_state__receipt",
                "hand__derived_state__game_end",
            )
        ):
            info = _revision_info_from(row)
            revisions.setdefault(info.hand, []).append(info)
            stored[info.hand] = (row[-2], row[-1]) if row[-3] is not None else None
    hands = []
    for number in sorted(revisions):
        infos = tuple(revisions[number])
        state = stored.get(number)
        if state is None and not infos[-1].is_void:
            raise _StaleRows(number)
        receipt, game_end = state or (None, None)
        hands.append(
            HandRecord(
                number=number,
                revisions=infos,
                result=receipt_render(receipt, lang=lang, players=names) if state else None,
                game_end=game_render(game_end, lang=lang, players=names) if game_end else None,
            )
        )
    summary = _summary(session=session, players=len(players), last=last)
    last_game = summary.in_progress or (
        game_render(last["game_end"], lang=lang, players=names) if last and last["game_end"] else None
    )
    games = [hand.game_end for hand in hands if hand.game_end is not None]
    if summary.in_progress is not None and not window.has_newer:
        games.append(summary.in_progress)
    variant = VARIANTS[session.variant]
    options = options_resolve(variant.defaults(len(players)), dict(session.options))
    unit_value = getattr(options, "unit_value", 1)
    results = {
        "variant": session.variant,
        "options": options_dump(options),
        "players": names,
        "unit": variant.unit,
        "hands": [hand.result for hand in hands if hand.result is not None],
        "games": games,
        "totals": list(summary.totals),
        "games_won": list(summary.games_won),
        "settle_up": [
            {"from": t.payer, "to": t.payee, "amount": t.amount}
            for t in (settle_up_transfers(summary.totals, unit_value=unit_value) if variant.zero_sum else ())
        ],
    }
    return SessionRecord(
        session=session,
        players=tuple(players),
        hands=tuple(hands),
        results=results,
        window=window,
        last_game=last_game,
        last_hand=receipt_render(last["receipt"], lang=lang, players=names) if last else None,
    )


@dataclass(frozen=True, kw_only=True)
class _Summary:
    totals: tuple[int, ...]
    games_won: tuple[int, ...]
    in_progress: dict[str, Any] | None  # the game in progress, as the results document lists it


def _summary(*, session: Session, players: int, last: Mapping[str, Any] | None) -> _Summary:
    """The whole session's totals, games won and game in progress, from the state after its last counted hand."""
    if last is None:
        return _Summary(totals=(0,) * players, games_won=(0,) * players, in_progress=None)
    try:
        state = state_load(last["state"])
    except (ValueError, KeyError, TypeError) as error:
        raise _StaleRows(str(error)) from error
    if not state.hand_in_game:
        return _Summary(totals=state.totals, games_won=state.games_won, in_progress=None)
    game = PlayedGame(
        n=state.game,
        first_hand=last["game_first"],
        last_hand=last["number"],
        finished=False,
        winners=(),
        how=None,
        adjustments=(0,) * players,
        adjustment_steps=(),
        totals=state.game_totals,
    )
    totals = tuple(a + b for a, b in zip(state.totals, state.game_totals, strict=True))
    return _Summary(totals=totals, games_won=state.games_won, in_progress=game_receipt(game))


def _replayed_record(*, session: Session, window: HandWindow, lang: str) -> SessionRecord:
    """The record from a replay of the whole log: only for a log its stored rows do not cover."""
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
        if window.first <= entry.number <= window.last
    )
    windowed = None
    if results is not None:
        numbers = {hand.number for hand in hands}
        windowed = {
            **results,
            "hands": [hand for hand in results["hands"] if hand["n"] in numbers],
            "games": [
                game
                for game in results["games"]
                if game["last_hand"] in numbers or (not game["finished"] and not window.has_newer)
            ],
        }
    return SessionRecord(
        session=session,
        players=log.players,
        hands=hands,
        results=windowed,
        error=error,
        window=window,
        last_game=results["games"][-1] if results and results["games"] else None,
        last_hand=results["hands"][-1] if results and results["hands"] else None,
        replayed=results,
    )


def hand_record(
    *, session: Session, number: int, players: Sequence[Player], lang: str = "zh-Hans"
) -> HandRecord | None:
    """One hand with its revisions and its stored result: one query (None: no such hand)."""
    rows = list(
        HandRevision.objects.filter(hand__session=session, hand__number=number)
        .select_related("hand", "author", "hand__derived_state")
        .defer("hand__derived_state__state")
        .order_by("number")
    )
    if not rows:
        return None
    revisions = tuple(_revision_info(revision) for revision in rows)
    derived = getattr(rows[-1].hand, "derived_state", None)
    result, game_end = (None, None)
    if derived is not None and not revisions[-1].is_void:
        result, game_end = hand_result(session=session, number=number, lang=lang, derived=derived, players=players)
    return HandRecord(number=number, revisions=revisions, result=result, game_end=game_end)


def hand_result(
    *,
    session: Session,
    number: int,
    lang: str = "zh-Hans",
    derived: HandState | None = None,
    players: Sequence[Player] | None = None,
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """Hand `number`'s entry of the results document and the game it finished, from its stored row (no replay).

    `derived` is the row when the caller has it (a write just stored it); else it is read. (None, None) for a void hand.
    """
    if derived is None:
        derived = HandState.objects.filter(session=session, number=number).first()
        if derived is None:
            return None, None
    names = [player.name for player in (players if players is not None else session_players(session=session))]
    lang = engine_lang(lang)
    result = receipt_render(derived.receipt, lang=lang, players=names)
    game_end = game_render(derived.game_end, lang=lang, players=names) if derived.game_end else None
    return result, game_end


def _entry_revisions(entry: LogEntry) -> tuple[RevisionInfo, ...]:
    return tuple(_revision_info(revision) for revision in entry.revisions)


_REVISION_COLUMNS = (
    "hand__number",
    "number",
    "input",
    "is_void",
    "reason",
    "note",
    "created_at",
    "author__first_name",
    "author__last_name",
    "author__username",
)


def _revision_info_from(row: Sequence[Any]) -> RevisionInfo:
    """A revision from a row of `_REVISION_COLUMNS` (the author's name as `User.get_full_name()` gives it)."""
    hand, number, entered, is_void, reason, note, created_at, first_name, last_name, username = row[:10]
    return RevisionInfo(
        hand=hand,
        number=number,
        input=hand_input_ordered(entered),
        is_void=is_void,
        reason=reason,
        author=f"{first_name} {last_name}".strip() or username,
        created_at=created_at,
        note=note or "",
    )


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
        note=revision.note or "",
    )


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


@dataclass(frozen=True, kw_only=True)
class HandListItem:
    """A hand of the log as the API's hand list shows it: its current revision, when made and last changed."""

    n: int
    revision: int
    is_void: bool
    input: Any  # the current revision's input, fields in the usual order; None when void
    created: datetime.datetime
    updated: datetime.datetime  # its latest revision's time


def session_hands(
    *,
    session: Session,
    updated_since: datetime.datetime | None = None,
    offset: int = 0,
    limit: int = 100,
    number: int | None = None,
) -> tuple[int, list[HandListItem]]:
    """(count, page) of the session's hands in play order, void ones too, each with its current revision;
    with `updated_since`, only those with a revision at or after it; with `number`, that hand alone. Three queries."""
    hands = Hand.objects.filter(session=session).annotate(updated=Max("revisions__created_at")).order_by("number")
    if number is not None:
        hands = hands.filter(number=number)
    if updated_since is not None:
        hands = hands.filter(updated__gte=updated_since)
    count = hands.count()
    page = list(hands[offset : offset + limit]) if count > offset else []
    current: dict[int, HandRevision] = {}
    for revision in HandRevision.objects.filter(hand__in=[hand.pk for hand in page]).order_by("number"):
        current[revision.hand_id] = revision  # the last one read is the newest
    items = [
        HandListItem(
            n=hand.number,
            revision=current[hand.pk].number,
            is_void=current[hand.pk].is_void,
            input=hand_input_ordered(current[hand.pk].input),
            created=hand.created_at,
            updated=hand.updated,  # type: ignore[attr-defined]
        )
        for hand in page
    ]
    return count, items


def results_with_preview(results: Mapping[str, Any], preview: Mapping[str, Any]) -> dict[str, Any]:
    """A page of stored `results` (the newest, from `session_results`) with the next hand's `preview` added.

    The preview (`services.hand_preview_next`) knows the new hand, the game it plays in or ends (the stored
    game in progress, played on) and the session's totals, games won and settle-up after it; the page keeps
    its hands and the games that ended among them. No queries.
    """
    previewed = {game["n"] for game in preview["games"]}
    return {
        **results,
        "hands": [*results["hands"], *preview["hands"]],
        "games": [*(game for game in results["games"] if game["n"] not in previewed), *preview["games"]],
        "totals": preview["totals"],
        "games_won": preview["games_won"],
        "settle_up": preview["settle_up"],
    }
