"""The derived rows a replay of the log gives: each hand's settlement rows, each game's rows and the state after
each hand, which the reads use instead of replaying.

As model instances (`derived_rows`, for `ledger_verify`'s comparison) or as tuples of their columns
(`derived_values`, which the writes insert with one `executemany` a table: `bulk.rows_insert`). Both are
rebuilt from the log on every write and never edited.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..models import GameRow, HandState, Player, Session, SettlementRow
from ..rules.families import declarer_level, declaring_side, hand_marks, won_runs
from ..rules.session import game_receipt, hand_receipt, state_dump
from .log import LogReplay

# The derived rows' columns (attnames), in the order `derived_values` gives them.
SETTLEMENT_COLUMNS = (
    "session_id",
    "hand_id",
    "number",
    "seat",
    "player_id",
    "game",
    "delta",
    "total",
    "is_declarer",
    "declarer_won",
    "declaring_side",
    "bid",
    "level",
    "koudi",
    "guangtou",
    "baochang",
    "run",
)
GAME_COLUMNS = (
    "session_id",
    "game",
    "seat",
    "player_id",
    "first_hand",
    "last_hand",
    "finished",
    "how",
    "won",
    "adjustment",
    "total",
)
STATE_COLUMNS = ("session_id", "hand_id", "number", "game_first", "state", "receipt", "game_end", "runs")


@dataclass(frozen=True, kw_only=True)
class DerivedValues:
    """The derived rows a replay gives from hand `from_number` on, as tuples of `SETTLEMENT_COLUMNS`,
    `GAME_COLUMNS` and `STATE_COLUMNS` (what the import inserts as they are), and the first game they start at."""

    settlement_rows: list[tuple[Any, ...]]
    game_rows: list[tuple[Any, ...]]
    hand_states: list[tuple[Any, ...]]
    first_game: int


@dataclass(frozen=True, kw_only=True)
class DerivedRows:
    """The derived rows a replay gives from hand `from_number` on (unsaved), and the first game they start at."""

    settlement_rows: list[SettlementRow]
    game_rows: list[GameRow]
    hand_states: list[HandState]
    first_game: int


def derived_rows(
    *,
    session: Session,
    players: Sequence[Player],
    replay: LogReplay,
    hand_ids: Mapping[int, int],
    from_number: int = 1,
) -> DerivedRows:
    """`derived_values` as unsaved model instances."""
    values = derived_values(session=session, players=players, replay=replay, hand_ids=hand_ids, from_number=from_number)
    return DerivedRows(
        settlement_rows=[
            SettlementRow(**dict(zip(SETTLEMENT_COLUMNS, row, strict=True))) for row in values.settlement_rows
        ],
        game_rows=[GameRow(**dict(zip(GAME_COLUMNS, row, strict=True))) for row in values.game_rows],
        hand_states=[HandState(**dict(zip(STATE_COLUMNS, row, strict=True))) for row in values.hand_states],
        first_game=values.first_game,
    )


def derived_values(
    *,
    session: Session,
    players: Sequence[Player],
    replay: LogReplay,
    hand_ids: Mapping[int, int],
    from_number: int = 1,
) -> DerivedValues:
    """What `SettlementRow`, `GameRow` and `HandState` must hold after the replay, for hands from `from_number` on.

    A game is included when it is unfinished or ends at or after `from_number`:
    games that finished before it cannot have changed.
    """
    number_of = replay.number
    variant = replay.result.doc.variant
    session_id = session.pk
    player_ids = [(seat, player.pk) for seat, player in enumerate(players)]
    settlement_rows: list[tuple[Any, ...]] = []
    hand_states: list[tuple[Any, ...]] = []
    game_ends = {game.last_hand: game for game in replay.result.games if game.finished}
    inputs = {hand.n: hand for hand in replay.result.doc.hands}
    options = replay.result.doc.options
    before = replay.start.state  # the state before each hand, for the level the declaring team played at
    # Every hand's sides, the earlier ones too: a run of hands won can start before `from_number`.
    sides_of = [
        declaring_side(variant.key, inputs[played.n], played.result, len(players)) for played in replay.result.hands
    ]
    runs_after = won_runs(
        [(sides, played.result.declarer_won) for sides, played in zip(sides_of, replay.result.hands, strict=True)],
        len(players),
        start=replay.start.runs,
    )
    for i, played in enumerate(replay.result.hands):
        number = number_of(played.n)
        state_before, before = before, played.state
        if number < from_number:
            continue
        result = played.result
        hand_id = hand_ids[number]
        deltas, totals, declarer, declarer_won = result.deltas, played.totals, result.declarer, result.declarer_won
        hand_input = inputs[played.n]
        sides, run_after = sides_of[i], runs_after[i]
        run = (0,) * len(players) if sides is None else run_after  # a redeal's rows end no run
        marks = hand_marks(result.tags)
        levels = state_before.table.get("levels") if state_before is not None and state_before.hand_in_game else None
        level = declarer_level(variant.key, options, levels, declarer)
        bid = hand_input.bid if declarer is not None else None
        settlement_rows.extend(
            (
                session_id,
                hand_id,
                number,
                seat,
                player_id,
                played.game,
                deltas[seat],
                totals[seat],
                declarer == seat,
                declarer_won,
                None if sides is None else sides[seat],
                bid,
                level,
                *marks,
                run[seat],
            )
            for seat, player_id in player_ids
        )
        after = played.state
        assert after is not None
        receipt = hand_receipt(played, variant)
        receipt["n"] = number
        ended = game_ends.get(played.n)
        hand_states.append(
            (
                session_id,
                hand_id,
                number,
                number_of(after.game_first) if after.hand_in_game else None,
                state_dump(after),
                receipt,
                game_receipt(ended, first_hand=number_of(ended.first_hand), last_hand=number)
                if ended is not None
                else None,
                list(run_after),
            )
        )
    games = replay.result.games
    end_state = replay.result.state
    fallback = end_state.game if end_state is not None else len(games) + 1
    first_game = next(
        (game.n for game in games if not game.finished or number_of(game.last_hand) >= from_number),
        fallback,
    )
    game_rows = [
        (
            session_id,
            game.n,
            seat,
            player_id,
            number_of(game.first_hand),
            number_of(game.last_hand),
            game.finished,
            str(game.how) if game.how else "",
            game.finished and seat in game.winners,
            game.adjustments[seat],
            game.totals[seat],
        )
        for game in games
        if game.n >= first_game
        for seat, player_id in player_ids
    ]
    return DerivedValues(
        settlement_rows=settlement_rows, game_rows=game_rows, hand_states=hand_states, first_game=first_game
    )
