"""Replay a session: hands into games, running totals, game ends, settle-up.

`session_settle(raw, lang=…)` is the whole engine in one call: it parses the
document, plays every hand through the variant's table and returns the
results document that `manage.py settle` prints.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .base import (
    Context,
    Deltas,
    GameEndHow,
    HandInput,
    HandResult,
    HandStatus,
    Lang,
    Msg,
    RulesError,
    Seat,
    SeatName,
    Table,
    TeamName,
    Variant,
    check_zero_sum,
)
from .document import SessionDoc, document_parse
from .messages import render
from .options import options_dump
from .registry import VARIANTS

STATE_VERSION = 1
SETTLE_UP_SEATS = 6  # the most seats a zero-sum variant has; the settle-up search over 2^k subsets is cheap up to here


@dataclass(frozen=True, kw_only=True)
class SessionState:
    """Everything the next hand needs: where the session stands after a hand.

    Hands are counted as the engine numbers them (the document's positions).
    `totals` and `games_won` cover the finished games only; the game in
    progress is `game`, its first hand `game_first`, its running totals
    `game_totals`. `table` is the variant table's own state (levels, the
    rotation, pending tribute, 标分's round …: `Table.state_dump`).
    `state_dump` / `state_load` turn it into plain JSON and back.
    """

    played: int
    game: int
    game_first: int
    hand_in_game: int
    scored_in_game: int
    game_totals: Deltas
    next_dealer: Seat
    totals: Deltas
    games_won: tuple[int, ...]
    table: Mapping[str, Any]


@dataclass(frozen=True, kw_only=True)
class PlayedHand:
    n: int
    game: int
    result: HandResult
    totals: Deltas  # running totals within the game, after this hand
    # Fields the hand left out and the table's state filled in (see `hand_facts`).
    facts: Mapping[str, Seat] = field(default_factory=dict)
    state: SessionState | None = None  # where the session stands after this hand


@dataclass(frozen=True, kw_only=True)
class PlayedGame:
    n: int
    first_hand: int
    last_hand: int
    finished: bool
    winners: tuple[Seat, ...]
    how: GameEndHow | None
    adjustments: Deltas
    adjustment_steps: tuple[Msg, ...]
    totals: Deltas


@dataclass(frozen=True, kw_only=True)
class Transfer:
    payer: Seat
    payee: Seat
    amount: int


@dataclass(frozen=True, kw_only=True)
class SessionResult:
    """The hands played (all of them, or those after the state played on from) and where they leave the session.

    `games` are the games those hands belong to (the one in progress
    included); `totals`, `games_won` and `settle_up` are the whole session's.
    """

    doc: SessionDoc
    hands: tuple[PlayedHand, ...]
    games: tuple[PlayedGame, ...]
    totals: Deltas
    games_won: tuple[int, ...]
    settle_up: tuple[Transfer, ...]
    state: SessionState | None = None  # after the last hand


def _add(a: Sequence[int], b: Sequence[int]) -> Deltas:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def session_start(doc: SessionDoc) -> SessionState:
    """The state before a session's first hand."""
    players = len(doc.players)
    zero: Deltas = (0,) * players
    table = doc.variant.new_table(doc.options, players)
    return SessionState(
        played=0,
        game=1,
        game_first=1,
        hand_in_game=0,
        scored_in_game=0,
        game_totals=zero,
        next_dealer=0,
        totals=zero,
        games_won=zero,
        table=table.state_dump(),
    )


def state_dump(state: SessionState) -> dict[str, Any]:
    """The state as plain JSON (versioned): what a ledger stores after each hand."""
    return {
        "version": STATE_VERSION,
        "played": state.played,
        "game": state.game,
        "game_first": state.game_first,
        "hand_in_game": state.hand_in_game,
        "scored_in_game": state.scored_in_game,
        "game_totals": list(state.game_totals),
        "next_dealer": state.next_dealer,
        "totals": list(state.totals),
        "games_won": list(state.games_won),
        "table": dict(state.table),
    }


def state_load(data: Mapping[str, Any]) -> SessionState:
    """A dumped state back; a dump of another version is refused (ValueError): replay the log instead."""
    if data.get("version") != STATE_VERSION:
        raise ValueError(f"session state version {data.get('version')!r}, expected {STATE_VERSION}")
    return SessionState(
        played=int(data["played"]),
        game=int(data["game"]),
        game_first=int(data["game_first"]),
        hand_in_game=int(data["hand_in_game"]),
        scored_in_game=int(data["scored_in_game"]),
        game_totals=tuple(int(x) for x in data["game_totals"]),
        next_dealer=int(data["next_dealer"]),
        totals=tuple(int(x) for x in data["totals"]),
        games_won=tuple(int(x) for x in data["games_won"]),
        table=dict(data["table"]),
    )


def session_replay(doc: SessionDoc) -> SessionResult:
    """Play every hand of a parsed document in order."""
    return session_play(doc)


def session_play(doc: SessionDoc, *, state: SessionState | None = None) -> SessionResult:
    """Play the document's hands on from `state` (None: from the start).

    The document's hands must be numbered on from the state (`document_parse(…,
    first_hand=state.played + 1)`). Playing on from the state after hand k gives
    exactly what a full replay gives for the hands after k.

    Each hand, in order: the table plays it (`_hand_play`); its deltas join the
    game's running totals; a hand that ends the game closes it with the game's
    adjustments (`_game_close`); the session then stands where `_state_after`
    says. After the last hand a game still in progress is listed unfinished,
    and the session's totals are settled up.
    """
    after = _state_checked(doc, state)
    table = doc.variant.new_table(doc.options, len(doc.players))
    table.state_load(after.table)
    hands: list[PlayedHand] = []
    games: list[PlayedGame] = []
    for hand in doc.hands:
        result = _hand_play(doc, table, hand, after)
        game_totals = _add(after.game_totals, result.deltas)
        closed = _game_close(doc, after, hand.n, result, game_totals)
        if closed is not None:
            games.append(closed)
        before, after = after, _state_after(after, hand.n, result, game_totals, closed, table.state_dump())
        facts = hand_facts(doc.variant, hand, result)
        hands.append(
            PlayedHand(n=hand.n, game=before.game, result=result, totals=game_totals, facts=facts, state=after)
        )

    session_totals = after.totals
    if after.hand_in_game:
        games.append(_game_in_progress(after))
        session_totals = _add(after.totals, after.game_totals)
    # Only the zero-sum variants settle up, and each of them has a unit value (a fallback would never be read).
    settle_up = settle_up_transfers(session_totals, unit_value=doc.options.unit_value) if doc.variant.zero_sum else ()
    return SessionResult(
        doc=doc,
        hands=tuple(hands),
        games=tuple(games),
        totals=session_totals,
        games_won=after.games_won,
        settle_up=settle_up,
        state=after,
    )


def _state_checked(doc: SessionDoc, state: SessionState | None) -> SessionState:
    """The state to play on from (the start for None), refused if it does not fit the document (ValueError)."""
    players = len(doc.players)
    if state is None:
        state = session_start(doc)
    if len(state.game_totals) != players:
        raise ValueError(f"a state for {len(state.game_totals)} players, the document has {players}")
    if doc.hands and doc.hands[0].n != state.played + 1:
        raise ValueError(f"the document's first hand is {doc.hands[0].n}, the state is after hand {state.played}")
    return state


def _hand_play(doc: SessionDoc, table: Table, hand: HandInput, before: SessionState) -> HandResult:
    """The table plays one hand, knowing where the game stands; a zero-sum variant's hand must sum to zero."""
    players = len(doc.players)
    ctx = Context(
        players=players,
        hand_in_game=before.hand_in_game + 1,
        scored_in_game=before.scored_in_game,
        game_totals=before.game_totals,
        default_dealer=before.next_dealer,
    )
    try:
        result = table.play(hand, ctx)
    except RulesError as error:
        error.players = doc.players
        raise
    if len(result.deltas) != players:
        raise AssertionError(f"hand {hand.n}: {len(result.deltas)} deltas for {players} seats")
    if doc.variant.zero_sum:
        check_zero_sum(result.deltas, f"hand {hand.n}")
    return result


def _game_close(
    doc: SessionDoc, before: SessionState, n: int, result: HandResult, game_totals: Deltas
) -> PlayedGame | None:
    """The game hand `n` ends, with its end-of-game adjustments (None: the game goes on)."""
    end = result.game_end
    if end is None:
        return None
    adjustments = end.adjustments or (0,) * len(game_totals)
    if doc.variant.zero_sum:
        check_zero_sum(adjustments, f"game {before.game} adjustments")
    return PlayedGame(
        n=before.game,
        first_hand=before.game_first,
        last_hand=n,
        finished=True,
        winners=tuple(sorted(end.winners)),
        how=end.how,
        adjustments=adjustments,
        adjustment_steps=end.adjustment_steps,
        totals=_add(game_totals, adjustments),
    )


def _state_after(
    before: SessionState,
    n: int,
    result: HandResult,
    game_totals: Deltas,
    closed: PlayedGame | None,
    table: Mapping[str, Any],
) -> SessionState:
    """Where the session stands after hand `n`: in the same game, or (`closed`) at the start of the next."""
    scored_in_game = before.scored_in_game + (1 if result.status is HandStatus.SCORED else 0)
    next_dealer = before.next_dealer if result.next_dealer is None else result.next_dealer
    if closed is None:
        return SessionState(
            played=n,
            game=before.game,
            game_first=before.game_first,
            hand_in_game=before.hand_in_game + 1,
            scored_in_game=scored_in_game,
            game_totals=game_totals,
            next_dealer=next_dealer,
            totals=before.totals,
            games_won=before.games_won,
            table=table,
        )
    games_won = list(before.games_won)
    for seat in closed.winners:
        games_won[seat] += 1
    return SessionState(
        played=n,
        game=before.game + 1,
        game_first=n + 1,
        hand_in_game=0,
        scored_in_game=0,
        game_totals=(0,) * len(game_totals),
        next_dealer=next_dealer,
        totals=_add(before.totals, closed.totals),
        games_won=tuple(games_won),
        table=table,
    )


def _game_in_progress(state: SessionState) -> PlayedGame:
    """The game the session stands in, unfinished: its hands so far and running totals."""
    return PlayedGame(
        n=state.game,
        first_hand=state.game_first,
        last_hand=state.played,
        finished=False,
        winners=(),
        how=None,
        adjustments=(0,) * len(state.game_totals),
        adjustment_steps=(),
        totals=state.game_totals,
    )


def hand_facts(variant: Variant, hand: HandInput, result: HandResult) -> dict[str, Seat]:
    """What the table's state supplied for a hand that left it out: facts of play, as the hand would name them.

    A hand may leave out who dealt (头家: the previous hand's next dealer) or, in
    the level games, who declared (the rotation's declarer); the table fills
    them in. They are facts of the hand once it is played — a later change to
    an earlier hand must not move them — so a ledger stores them with the hand.
    A redeal in a level game names no declarer (its field is refused there).

    >>> from .registry import VARIANTS
    >>> from .document import document_parse
    >>> doc = document_parse({"variant": "baifen.benxi", "players": ["甲", "乙", "丙", "丁"],
    ...     "hands": [{"declarer": 0, "bid": 80, "captured": 15}, {"declarer": 1, "bid": 85, "captured": 20}]},
    ...     variants=VARIANTS)
    >>> [dict(hand.facts) for hand in session_replay(doc).hands]
    [{'dealer': 0}, {'dealer': 1}]
    """
    if variant.has_levels:
        if result.status is HandStatus.SCORED and "declarer" not in hand.present and result.declarer is not None:
            return {"declarer": result.declarer}
        return {}
    if "dealer" in variant.hand_fields and "dealer" not in hand.present and result.dealer is not None:
        return {"dealer": result.dealer}
    return {}


def settle_up_transfers(totals: Sequence[int], *, unit_value: int = 1) -> tuple[Transfer, ...]:
    """The fewest transfers that clear zero-sum totals, in seat order.

    With k seats owed or owing the minimum is k minus the most groups the
    balances split into that each sum to zero (each group of j clears in
    j − 1 transfers, and no fewer). Each transfer is the first, in the order
    "the largest debt pays the largest credit (of equal ones, the lower seat's
    first)", that still leaves a minimal settle-up; it pays the whole smaller
    of the two balances. Up to 4 seats that is always the first choice — the
    plain greedy rule is minimal there — while at 5 or 6 seats the greedy
    rule could pair across two groups that clear apart.

    More than `SETTLE_UP_SEATS` owed or owing (an event's players, not a
    table's seats): a debt equal to a credit is paid first, one transfer each
    (the largest first, of equal ones the lowest seats); while more than
    `SETTLE_UP_SEATS` are still owed or owing the largest debt pays the largest
    credit, and the last `SETTLE_UP_SEATS` clear by the search. The whole search
    is exponential in the seats, so beyond the limit the count is at most the
    seats owed or owing minus the pairs cleared minus one, not always the least.

    >>> [(t.payer, t.payee, t.amount) for t in settle_up_transfers([5, -5, 3, 1, -2, -2, 4, -4])]
    [(1, 0, 5), (4, 2, 2), (5, 2, 1), (5, 3, 1), (7, 6, 4)]
    """
    balances = [value * unit_value for value in totals]
    if sum(balances) != 0:
        raise AssertionError(f"settle-up needs zero-sum totals, got {list(totals)}")
    transfers: list[Transfer] = []
    left = list(balances)
    if sum(1 for b in left if b) > SETTLE_UP_SEATS:
        transfers.extend(_pairs_clear(left))
    while sum(1 for b in left if b) > SETTLE_UP_SEATS:
        payer = min(range(len(left)), key=lambda s: (left[s], s))
        payee = min(range(len(left)), key=lambda s: (-left[s], s))
        amount = min(-left[payer], left[payee])
        left[payer] += amount
        left[payee] -= amount
        transfers.append(Transfer(payer=payer, payee=payee, amount=amount))
    while any(left):
        fewest = _fewest_transfers(left)
        payers = sorted((s for s, v in enumerate(left) if v < 0), key=lambda s: (left[s], s))
        payees = sorted((s for s, v in enumerate(left) if v > 0), key=lambda s: (-left[s], s))
        for payer, payee in ((p, q) for p in payers for q in payees):
            amount = min(-left[payer], left[payee])
            after = list(left)
            after[payer] += amount
            after[payee] -= amount
            if 1 + _fewest_transfers(after) == fewest:
                break
        transfers.append(Transfer(payer=payer, payee=payee, amount=amount))
        left = after
    return tuple(sorted(transfers, key=lambda t: (t.payer, t.payee)))


def _pairs_clear(left: list[int]) -> list[Transfer]:
    """Each debt that equals a credit paid in one transfer (in place on `left`): the largest first, lowest seats."""
    transfers = []
    for payee in sorted((s for s, v in enumerate(left) if v > 0), key=lambda s: (-left[s], s)):
        payer = next((s for s, v in enumerate(left) if v == -left[payee]), None)
        if payer is not None:
            transfers.append(Transfer(payer=payer, payee=payee, amount=left[payee]))
            left[payer] = left[payee] = 0
    return transfers


def _fewest_transfers(balances: Sequence[int]) -> int:
    """Seats owed or owing minus the most zero-sum groups they split into: a DP over the 2^k subsets.

    best[mask] is the most zero-sum groups that the prefixes of some ordering of `mask` close: adding one seat
    to a subset closes one more group exactly when the grown subset sums to zero.
    """
    owed = [b for b in balances if b]
    k = len(owed)
    sums = [0] * (1 << k)
    best = [0] * (1 << k)
    for mask in range(1, 1 << k):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + owed[low.bit_length() - 1]
        most = max(best[mask ^ (1 << i)] for i in range(k) if mask >> i & 1)
        best[mask] = most + (sums[mask] == 0)
    return k - best[(1 << k) - 1]


def session_settle(raw: Any, *, lang: str = Lang.ZH) -> dict[str, Any]:
    """Parse, replay and render: the results document for a session document."""
    return results_document(session_replay(document_parse(raw, variants=VARIANTS)), lang=lang)


def results_document(result: SessionResult, *, lang: str = Lang.ZH) -> dict[str, Any]:
    doc = result.doc
    return {
        "variant": doc.variant.key,
        "options": options_dump(doc.options),
        "players": list(doc.players),
        "unit": doc.variant.unit,
        "hands": [_hand_document(hand, doc, lang) for hand in result.hands],
        "games": [_game_document(game, doc, lang) for game in result.games],
        "totals": list(result.totals),
        "games_won": list(result.games_won),
        "settle_up": [{"from": t.payer, "to": t.payee, "amount": t.amount} for t in result.settle_up],
    }


def _hand_document(hand: PlayedHand, doc: SessionDoc, lang: str) -> dict[str, Any]:
    # What receipt_render(hand_receipt(…)) gives, the steps rendered from the messages themselves (no JSON and back).
    players = doc.players
    return _hand_fields(hand, doc.variant, steps=[render(step, lang, players) for step in hand.result.steps])


def hand_receipt(hand: PlayedHand, variant: Variant) -> dict[str, Any]:
    """A played hand as plain JSON, its receipt as message keys with parameters: rendered later, in any language.

    `receipt_render` turns it into the hand's entry of the results document.
    """
    return _hand_fields(hand, variant, steps=[msg_dump(step) for step in hand.result.steps])


def _hand_fields(hand: PlayedHand, variant: Variant, *, steps: list[Any]) -> dict[str, Any]:
    r = hand.result
    out: dict[str, Any] = {
        "n": hand.n,
        "game": hand.game,
        "status": str(r.status),
        "dealer": r.dealer,
        "declarer": r.declarer,
        "outcome": r.outcome,
        "tags": list(r.tags),
        "declarer_won": r.declarer_won,
        "deltas": list(r.deltas),
        "totals": list(hand.totals),
        "steps": steps,
        "next_dealer": r.next_dealer,
    }
    if variant.has_levels:
        out["levels"] = list(r.levels or ())
        out["next_declarer"] = r.next_dealer
    if variant.has_tribute:
        out["tribute_next"] = r.tribute_next
    return out


def receipt_render(receipt: Mapping[str, Any], *, lang: str, players: Sequence[str]) -> dict[str, Any]:
    """A stored receipt (`hand_receipt`) as the results document's hand: its steps in `lang`."""
    return {**receipt, "steps": [render(msg_load(step), lang, players) for step in receipt["steps"]]}


def msg_dump(msg: Msg) -> dict[str, Any]:
    """A message as plain JSON: `{"key": …, "params": {…}}`, seats, teams and nested messages tagged."""
    return {
        "key": msg.key,
        "params": {name: value if type(value) in _PLAIN else _param_dump(value) for name, value in msg.params.items()},
    }


def msg_load(data: Mapping[str, Any]) -> Msg:
    return Msg(key=data["key"], params={name: _param_load(value) for name, value in data["params"].items()})


_PLAIN = frozenset({str, int, float, bool, type(None)})  # message parameters stored as they are


def _param_dump(value: Any) -> Any:
    if isinstance(value, Msg):
        return {"$msg": msg_dump(value)}
    if isinstance(value, SeatName):
        return {"$seat": value.seat}
    if isinstance(value, TeamName):
        return {"$team": list(value.seats)}
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    raise TypeError(f"a message parameter that is not plain data: {value!r}")


def _param_load(value: Any) -> Any:
    if isinstance(value, dict):
        if "$msg" in value:
            return msg_load(value["$msg"])
        if "$seat" in value:
            return SeatName(value["$seat"])
        if "$team" in value:
            return TeamName(tuple(value["$team"]))
    return value


def _game_document(game: PlayedGame, doc: SessionDoc, lang: str) -> dict[str, Any]:
    # What game_render(game_receipt(game)) gives, rendered from the messages themselves.
    steps = [render(step, lang, doc.players) for step in game.adjustment_steps]
    return _game_fields(game, first_hand=None, last_hand=None, steps=steps)


def game_receipt(game: PlayedGame, *, first_hand: int | None = None, last_hand: int | None = None) -> dict[str, Any]:
    """A game as plain JSON, its adjustment steps as message keys (`game_render` renders them)."""
    steps = [msg_dump(step) for step in game.adjustment_steps]
    return _game_fields(game, first_hand=first_hand, last_hand=last_hand, steps=steps)


def _game_fields(
    game: PlayedGame, *, first_hand: int | None, last_hand: int | None, steps: list[Any]
) -> dict[str, Any]:
    return {
        "n": game.n,
        "first_hand": game.first_hand if first_hand is None else first_hand,
        "last_hand": game.last_hand if last_hand is None else last_hand,
        "finished": game.finished,
        "winners": list(game.winners),
        "how": str(game.how) if game.how else None,
        "adjustments": list(game.adjustments),
        "adjustment_steps": steps,
        "totals": list(game.totals),
    }


def game_render(receipt: Mapping[str, Any], *, lang: str, players: Sequence[str]) -> dict[str, Any]:
    """A stored game (`game_receipt`) as the results document's game, its steps in `lang`."""
    steps = [render(msg_load(step), lang, players) for step in receipt["adjustment_steps"]]
    return {**receipt, "adjustment_steps": steps}
