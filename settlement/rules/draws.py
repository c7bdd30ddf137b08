"""Seating draws for an event's rounds: who sits at which table, in which seat, and who sits out.

Why here, in the engine room: a draw is pure and total like the rest of the engine (no Django, no I/O,
no clock: the same players, seed and history give the same seating every time), and it needs only what the
engine says about a variant: the player counts a session takes (`Variant.player_counts`, the table sizes) and
who sides with whom (`families.SCORING[...].sides`: fixed partnerships by seat parity, or per-hand sides).
The events' models and services rank above and store a round's seed and seating; they call `seating_draw`.

The methods (`DrawMethod`):

- `random`: a seeded shuffle, dealt into tables;
- `balanced`: over the whole event, fewest repeated partners (fixed partnerships: the seats of one parity,
  0 + 2 and 1 + 3 at a 4-seat table, even and odd at a 6-seat one), then fewest repeated opponents. Up to
  `EXACT_UP_TO` seated players it searches every seating; beyond, a greedy fill and a swap search
  (repeats are rare when the history is short, and the search stops as soon as a table costs nothing);
- `swiss`: by the standings so far (`ranking`, best first), neighbours in the ranking together, skipping past
  a player already met where a nearer one has not been; in a fixed-partnership table the 1st and 4th of
  the four against the 2nd and 3rd, as far as the history allows;
- `manual`: the director's seating (`seating`, or `seating_csv_parse` of an upload), checked.

Byes: when the count does not fill whole tables (fewest players left over, then fewest tables), the players
with the fewest byes so far sit out, so nobody sits out twice before everyone has once; ties are drawn by
the seed (`swiss`: the lowest ranked sits out). Only the `sitting_out` of earlier rounds counts as a bye:
a player who was not there for a round did not sit it out.
"""

from __future__ import annotations

import csv
import io
import random
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations, pairwise

from .base import Lang, RulesError, Variant
from .families import SCORING, Sides
from .registry import VARIANTS

PlayerId = int
Pair = tuple[PlayerId, PlayerId]

# Up to this many seated players `balanced` tries every seating (8: 315 of them at two 4-seat tables).
EXACT_UP_TO = 8

# A CSV row's table cell for a player sitting out.
BYE_WORDS = frozenset({"", "-", "bye", "out", "轮空"})

# key -> (zh-Hans, en); merged into the engine's message table (`messages.py`).
MESSAGES: Mapping[str, tuple[str, str]] = {
    "error.draw.unknown_method": ("不认识的排座方式；可选：{choices}", "unknown draw; one of: {choices}"),
    "error.draw.too_few_players": (
        "人数不够：至少 {need} 人才能开一桌，现有 {have} 人",
        "too few players: a table needs {need}, there are {have}",
    ),
    "error.draw.table_sizes": ("每桌人数应为 {counts}", "a table seats {counts} players"),
    "error.draw.player_twice": ("玩家 {player} 出现了两次", "player {player} appears twice"),
    "error.draw.unknown_player": ("玩家 {player} 不在本次活动的签到名单里", "player {player} is not checked in"),
    "error.draw.left_out": (
        "玩家 {player} 既没有座位也不在轮空名单里",
        "player {player} is neither seated nor sitting out",
    ),
    "error.draw.table_size": (
        "第 {table} 桌坐了 {have} 人，每桌应为 {counts} 人",
        "table {table} seats {have} players; a table seats {counts}",
    ),
    "error.draw.too_many_sitting_out": (
        "轮空 {have} 人，最多应为 {most} 人",
        "{have} players sit out; at most {most} should",
    ),
    "error.draw.bye_out_of_turn": (
        "玩家 {player} 已轮空 {byes} 次，还有入座的玩家轮空更少，不该再轮空",
        "player {player} has sat out {byes} times while a seated player has sat out fewer",
    ),
    "error.draw.csv_columns": (
        "第 {row} 行应有三列：桌号、座位、玩家",
        "row {row}: needs three columns: table, seat, player",
    ),
    "error.draw.csv_table": (
        "第 {row} 行：桌号应为正整数（轮空写“轮空”）",
        "row {row}: the table must be a number ≥ 1 (or bye)",
    ),
    "error.draw.csv_seat": (
        "第 {row} 行：座位应为从 1 起的连续整数，每桌每个座位一人",
        "row {row}: seats are numbered 1, 2, 3 … at each table, one player each",
    ),
    "error.draw.csv_player": ("第 {row} 行：不认识的玩家 {player}", "row {row}: unknown player {player}"),
    "error.draw.csv_player_ambiguous": (
        "第 {row} 行：有多位玩家叫 {player}，请写编号",
        "row {row}: more than one player is called {player}; give the id",
    ),
    "draw.table": ("第 {n} 桌：{seats}", "Table {n}: {seats}"),
    "draw.seat": ("{seat} 号位 {name}", "seat {seat} {name}"),
    "draw.sitting_out": ("轮空：{names}", "Sitting out: {names}"),
}


class DrawMethod(StrEnum):
    RANDOM = "random"
    BALANCED = "balanced"
    SWISS = "swiss"
    MANUAL = "manual"


def _english(lang: str) -> bool:
    return lang == Lang.EN or str(lang).lower().startswith("en")


def _text(key: str, lang: str, **params: object) -> str:
    zh, en = MESSAGES[key]
    return (en if _english(lang) else zh).format(**params)


@dataclass(frozen=True, kw_only=True)
class Seating:
    """A round's seating: each table's players in seat order (seat 0 first), and the players sitting out."""

    tables: tuple[tuple[PlayerId, ...], ...]
    sitting_out: tuple[PlayerId, ...] = ()

    def seated(self) -> tuple[PlayerId, ...]:
        return tuple(p for table in self.tables for p in table)

    def lines(self, *, names: Mapping[PlayerId, str], lang: str = Lang.ZH) -> tuple[str, ...]:
        """The printable seating list: a line per table (tables and seats numbered from 1), then the byes.

        A player without a name in `names` shows as `#id`.
        """

        def name(p: PlayerId) -> str:
            return names.get(p) or f"#{p}"

        seat_sep, name_sep = (", ", ", ") if _english(lang) else ("，", "、")
        lines = [
            _text(
                "draw.table",
                lang,
                n=n,
                seats=seat_sep.join(_text("draw.seat", lang, seat=s + 1, name=name(p)) for s, p in enumerate(table)),
            )
            for n, table in enumerate(self.tables, start=1)
        ]
        if self.sitting_out:
            lines.append(_text("draw.sitting_out", lang, names=name_sep.join(name(p) for p in self.sitting_out)))
        return tuple(lines)


# --- what the engine says about a variant ---


def variant_table_sizes(variant: Variant) -> frozenset[int]:
    """The table sizes a variant takes: the players a session of it takes, as the engine declares them."""
    return variant.player_counts


def fixed_partnerships(variant: Variant) -> bool:
    """Partners for the whole session, by seat parity (0 + 2 against 1 + 3; six: even against odd)?"""
    return SCORING[variant.key].sides is Sides.FIXED


@dataclass(frozen=True, kw_only=True)
class Shape:
    """One table size's seat pairs: partners (same team) and opponents (the other team; every pair without teams)."""

    partners: tuple[tuple[int, int], ...]
    opponents: tuple[tuple[int, int], ...]


def table_shape(size: int, *, fixed: bool) -> Shape:
    pairs = tuple(combinations(range(size), 2))
    partners = tuple((i, j) for i, j in pairs if fixed and i % 2 == j % 2)
    return Shape(partners=partners, opponents=tuple(pair for pair in pairs if pair not in partners))


def tables_layout(count: int, sizes: Collection[int]) -> tuple[int, ...]:
    """Table sizes seating as many of `count` players as can be, then in the fewest tables; largest first.

    >>> tables_layout(10, {3, 4})
    (4, 3, 3)
    >>> tables_layout(18, {4})
    (4, 4, 4, 4)
    >>> tables_layout(16, {4, 6})
    (6, 6, 4)
    """
    # fewest[n]: the fewest tables seating exactly n players (None: not possible), and the size of one of them.
    fewest: list[tuple[int, int] | None] = [None] * (count + 1)
    fewest[0] = (0, 0)
    for n in range(1, count + 1):
        options = [(t[0] + 1, -s) for s in sizes if s <= n and (t := fewest[n - s]) is not None]
        if options:
            tables, size = min(options)
            fewest[n] = (tables, -size)
    n = max(m for m in range(count + 1) if fewest[m] is not None)
    layout = []
    while n:
        step = fewest[n]
        assert step is not None
        layout.append(step[1])
        n -= step[1]
    return tuple(sorted(layout, reverse=True))


# --- the history ---


def _pair(a: PlayerId, b: PlayerId) -> Pair:
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True, kw_only=True)
class Met:
    """How often each pair of players has been partners and opponents, and each player's byes, so far."""

    partners: Mapping[Pair, int]
    opponents: Mapping[Pair, int]
    byes: Mapping[PlayerId, int]


def history_count(history: Iterable[Seating], *, fixed: bool) -> Met:
    partners: Counter[Pair] = Counter()
    opponents: Counter[Pair] = Counter()
    byes: Counter[PlayerId] = Counter()
    shapes: dict[int, Shape] = {}
    for seating in history:
        byes.update(seating.sitting_out)
        for table in seating.tables:
            shape = shapes.get(len(table)) or shapes.setdefault(len(table), table_shape(len(table), fixed=fixed))
            partners.update(_pair(table[i], table[j]) for i, j in shape.partners)
            opponents.update(_pair(table[i], table[j]) for i, j in shape.opponents)
    return Met(partners=partners, opponents=opponents, byes=byes)


class _Cost:
    """A seating's cost: repeated partnerships weigh more than all repeated meetings as opponents together."""

    def __init__(self, met: Met, shapes: Mapping[int, Shape]) -> None:
        self.partners = met.partners
        self.opponents = met.opponents
        self.weight = 1 + sum(met.opponents.values())
        self.shapes = shapes

    def pair(self, a: PlayerId, b: PlayerId, *, partners: bool) -> int:
        key = _pair(a, b)
        return self.partners.get(key, 0) * self.weight if partners else self.opponents.get(key, 0)

    def table(self, table: Sequence[PlayerId]) -> int:
        shape = self.shapes[len(table)]
        return sum(self.pair(table[i], table[j], partners=True) for i, j in shape.partners) + sum(
            self.pair(table[i], table[j], partners=False) for i, j in shape.opponents
        )

    def met(self, a: PlayerId, b: PlayerId) -> int:
        """Met before in any role: what `swiss` avoids while it does not yet know the seats."""
        key = _pair(a, b)
        return self.partners.get(key, 0) * self.weight + self.opponents.get(key, 0)


# --- the draws ---


def _byes(
    players: Sequence[PlayerId], out: int, met: Met, tiebreak: Mapping[PlayerId, float]
) -> tuple[list[PlayerId], tuple[PlayerId, ...]]:
    """The `out` players with the fewest byes (ties by `tiebreak`, lowest first) sit out; the rest, in order."""
    order = sorted(players, key=lambda p: (met.byes.get(p, 0), tiebreak[p]))
    sitting_out = set(order[:out])
    return [p for p in players if p not in sitting_out], tuple(sorted(sitting_out))


def _deal(players: Sequence[PlayerId], layout: Sequence[int]) -> list[list[PlayerId]]:
    tables, start = [], 0
    for size in layout:
        tables.append(list(players[start : start + size]))
        start += size
    return tables


def _teams_seated(teams: tuple[Sequence[PlayerId], Sequence[PlayerId]], size: int) -> list[PlayerId]:
    """Even seats from the first team, odd seats from the second."""
    table = [0] * size
    table[0::2], table[1::2] = teams[0], teams[1]
    return table


def _splits(group: Sequence[PlayerId], *, fixed: bool) -> Iterator[list[PlayerId]]:
    """Each way to seat `group` that a cost can tell apart: the team splits, or the group as it comes."""
    if not fixed:
        yield list(group)
        return
    size = len(group)
    first = group[0]
    for even in combinations(group, (size + 1) // 2):
        if size % 2 == 0 and first not in even:
            continue  # the same split with the teams swapped
        odd = [p for p in group if p not in even]
        yield _teams_seated((even, odd), size)


def _exact(players: list[PlayerId], layout: Sequence[int], cost: _Cost, *, fixed: bool) -> list[list[PlayerId]]:
    """The cheapest seating, trying every grouping and team split (the first found of the cheapest)."""
    best: list[list[PlayerId]] = []
    best_cost = [-1]

    def visit(remaining: list[PlayerId], index: int, tables: list[list[PlayerId]], spent: int) -> None:
        if best_cost[0] == 0 or (best_cost[0] >= 0 and spent >= best_cost[0]):
            return
        if index == len(layout):
            best[:] = [list(t) for t in tables]
            best_cost[0] = spent
            return
        size = layout[index]
        # With only tables of one size left, the first remaining player may as well sit at this one.
        same = all(s == size for s in layout[index:])
        head, pool = ([remaining[0]], remaining[1:]) if same else ([], remaining)
        for rest in combinations(pool, size - len(head)):
            group = head + list(rest)
            left = [p for p in remaining if p not in group]
            for table in _splits(group, fixed=fixed):
                visit(left, index + 1, [*tables, table], spent + cost.table(table))

    visit(players, 0, [], 0)
    return best


def _greedy(players: list[PlayerId], layout: Sequence[int], cost: _Cost) -> list[list[PlayerId]]:
    """Seat by seat, the first remaining player (in the shuffled order) adding nothing, else the cheapest."""
    remaining = list(players)
    tables = []
    for size in layout:
        shape = cost.shapes[size]
        table: list[PlayerId] = []
        for seat in range(size):
            partners = {i for i, j in shape.partners if j == seat}
            best_index, best_added = 0, -1
            for index, candidate in enumerate(remaining):
                added = sum(cost.pair(candidate, other, partners=i in partners) for i, other in enumerate(table))
                if best_added < 0 or added < best_added:
                    best_index, best_added = index, added
                if added == 0:
                    break
            table.append(remaining.pop(best_index))
        tables.append(table)
    return tables


def _improve(tables: list[list[PlayerId]], cost: _Cost) -> int:
    """Swap two players (any two seats) while a swap lowers the total; the total left."""
    costs = [cost.table(t) for t in tables]
    improved = True
    while improved and any(costs):
        improved = False
        for ti, table in enumerate(tables):
            for si in range(len(table)):
                if not costs[ti]:
                    break
                best = (0, -1, -1)
                for tj, other in enumerate(tables):
                    for sj in range(len(other)):
                        if tj == ti and sj <= si:
                            continue
                        table[si], other[sj] = other[sj], table[si]
                        if tj == ti:
                            delta = cost.table(table) - costs[ti]
                        else:
                            delta = cost.table(table) + cost.table(other) - costs[ti] - costs[tj]
                        table[si], other[sj] = other[sj], table[si]
                        if delta < best[0]:
                            best = (delta, tj, sj)
                if best[1] >= 0:
                    _, tj, sj = best
                    other = tables[tj]
                    table[si], other[sj] = other[sj], table[si]
                    costs[ti], costs[tj] = cost.table(table), cost.table(other)
                    improved = True
    return sum(costs)


def _balanced(
    players: list[PlayerId], layout: Sequence[int], cost: _Cost, rng: random.Random, *, fixed: bool
) -> list[list[PlayerId]]:
    if len(players) <= EXACT_UP_TO:
        tables = _exact(players, layout, cost, fixed=fixed)
    else:
        tables, total = [], -1
        for _ in range(3):  # a few fresh starts when the swaps leave a cost: cheap, since most draws cost nothing
            trial = _greedy(players, layout, cost)
            spent = _improve(trial, cost)
            if total < 0 or spent < total:
                tables, total = trial, spent
            if total == 0:
                break
            rng.shuffle(players)
    # Teammates' order within their team does not change the cost: shuffle it so seats are not always sorted.
    for table in tables:
        for parity in (0, 1) if fixed else (0,):
            step = 2 if fixed else 1
            team = table[parity::step]
            rng.shuffle(team)
            table[parity::step] = team
    return tables


def _swiss(
    players: list[PlayerId], layout: Sequence[int], cost: _Cost, rank: Mapping[PlayerId, int], *, fixed: bool
) -> list[list[PlayerId]]:
    remaining = sorted(players, key=lambda p: rank[p])
    tables = []
    for size in layout:
        group = [remaining.pop(0)]
        while len(group) < size:
            best_index, best_added = 0, -1
            for index, candidate in enumerate(remaining):
                added = sum(cost.met(candidate, other) for other in group)
                if best_added < 0 or added < best_added:
                    best_index, best_added = index, added
                if added == 0:
                    break
            group.append(remaining.pop(best_index))
        group.sort(key=lambda p: rank[p])
        if fixed:
            # Fewest repeats first; then teams as even as the ranking makes them (1st and 4th against 2nd and 3rd).
            def order(table: list[PlayerId]) -> tuple[int, int]:
                teams = (table[0::2], table[1::2])
                return cost.table(table), abs(sum(rank[p] for p in teams[0]) - sum(rank[p] for p in teams[1]))

            tables.append(min(_splits(group, fixed=True), key=order))
        else:
            tables.append(group)
    return tables


def seating_check(
    *,
    players: Collection[PlayerId],
    seating: Seating,
    sizes: Collection[int],
    history: Sequence[Seating] = (),
) -> Seating:
    """A director's seating, checked: each checked-in player once, at a table of an allowed size or sitting out,
    the byes no more than the tables require and in turn (nobody sits out again while a seated player has sat out
    fewer times). Returns the seating as tuples."""
    counts = " / ".join(str(c) for c in sorted(sizes))
    checked_in = set(players)
    seen: set[PlayerId] = set()
    for n, table in enumerate(seating.tables, start=1):
        if len(table) not in sizes:
            raise RulesError("draw.table_size", field="seating", table=n, have=len(table), counts=counts)
    for player in (*seating.seated(), *seating.sitting_out):
        if player not in checked_in:
            raise RulesError("draw.unknown_player", field="seating", player=player)
        if player in seen:
            raise RulesError("draw.player_twice", field="seating", player=player)
        seen.add(player)
    for player in sorted(checked_in - seen):
        raise RulesError("draw.left_out", field="seating", player=player)
    most = len(checked_in) - sum(tables_layout(len(checked_in), sizes))
    if len(seating.sitting_out) > most:
        raise RulesError("draw.too_many_sitting_out", field="sitting_out", have=len(seating.sitting_out), most=most)
    byes = history_count(history, fixed=False).byes
    fewest_seated = min((byes.get(p, 0) for p in seating.seated()), default=0)
    for player in seating.sitting_out:
        if byes.get(player, 0) > fewest_seated:
            raise RulesError("draw.bye_out_of_turn", field="sitting_out", player=player, byes=byes.get(player, 0))
    return Seating(
        tables=tuple(tuple(table) for table in seating.tables), sitting_out=tuple(sorted(seating.sitting_out))
    )


def seating_draw(
    *,
    variant: str,
    method: str,
    players: Collection[PlayerId],
    seed: int,
    history: Sequence[Seating] = (),
    ranking: Sequence[PlayerId] = (),
    sizes: Collection[int] | None = None,
    seating: Seating | None = None,
) -> Seating:
    """A round's seating of the checked-in `players` for `variant` by `method`.

    `history` is the event's earlier rounds; `ranking` the standings so far, best first (`swiss`; players not
    in it rank after those who are, in the seed's order); `sizes` the table sizes the event plays (default:
    every size the variant takes); `seating` the director's (`manual`). The same arguments give the same
    seating: everything the draw leaves to chance comes from `seed`, and the players' order does not matter.
    """
    found = VARIANTS.get(variant)
    if found is None:
        raise RulesError("variant.unknown", field="variant", choices=", ".join(sorted(VARIANTS)))
    if method not in set(DrawMethod):
        raise RulesError("draw.unknown_method", field="draw", choices=", ".join(DrawMethod))
    allowed = variant_table_sizes(found)
    sizes = allowed if sizes is None else frozenset(sizes)
    if not sizes or not sizes <= allowed:
        raise RulesError("draw.table_sizes", field="sizes", counts=" / ".join(str(c) for c in sorted(allowed)))
    ordered = sorted(players)
    for a, b in pairwise(ordered):
        if a == b:
            raise RulesError("draw.player_twice", field="players", player=a)
    if len(ordered) < min(sizes):
        raise RulesError("draw.too_few_players", field="players", need=min(sizes), have=len(ordered))
    if method == DrawMethod.MANUAL:
        if seating is None:
            raise RulesError("field.required", field="seating")
        return seating_check(players=ordered, seating=seating, sizes=sizes, history=history)

    fixed = fixed_partnerships(found)
    layout = tables_layout(len(ordered), sizes)
    met = history_count(history, fixed=fixed)
    rng = random.Random(seed)
    tiebreak = {p: rng.random() for p in ordered}
    out = len(ordered) - sum(layout)
    if method == DrawMethod.SWISS:
        known = {p: i for i, p in enumerate(dict.fromkeys(ranking))}
        unranked = sorted((p for p in ordered if p not in known), key=lambda p: tiebreak[p])
        rank = {**{p: known[p] for p in ordered if p in known}, **{p: len(known) + i for i, p in enumerate(unranked)}}
        seated, sitting_out = _byes(ordered, out, met, {p: -rank[p] for p in ordered})
    else:
        seated, sitting_out = _byes(ordered, out, met, tiebreak)
    rng.shuffle(seated)
    cost = _Cost(met, {size: table_shape(size, fixed=fixed) for size in set(layout)})
    if method == DrawMethod.RANDOM:
        tables = _deal(seated, layout)
    elif method == DrawMethod.BALANCED:
        tables = _balanced(seated, layout, cost, rng, fixed=fixed)
    else:
        tables = _swiss(seated, layout, cost, rank, fixed=fixed)
    return Seating(tables=tuple(tuple(t) for t in tables), sitting_out=sitting_out)


def seating_csv_parse(*, text: str, players: Mapping[PlayerId, str]) -> Seating:
    """A director's seating from CSV: a row per player, `table, seat, player` (table and seat from 1; the player
    by id or by name; the table `轮空` or `bye`, or empty, for a player sitting out). A first row whose seat is not
    a number is a header. Tables come out in the order of their numbers. Checked by `seating_check` after."""
    by_name: dict[str, list[PlayerId]] = {}
    for pid, name in players.items():
        by_name.setdefault(name.strip(), []).append(pid)
    tables: dict[int, dict[int, PlayerId]] = {}
    sitting_out: list[PlayerId] = []
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))
    for row_number, row in enumerate(rows, start=1):
        cells = [cell.strip() for cell in row]
        if not any(cells):
            continue
        if len(cells) != 3:
            raise RulesError("draw.csv_columns", field="seating", row=row_number)
        table_cell, seat_cell, player_cell = cells
        if row_number == 1 and not seat_cell.isdigit() and table_cell.lower() not in BYE_WORDS:
            continue  # a header
        player = _csv_player(player_cell, players, by_name, row_number)
        if table_cell.lower() in BYE_WORDS:
            sitting_out.append(player)
            continue
        if not table_cell.isdigit() or int(table_cell) < 1:
            raise RulesError("draw.csv_table", field="seating", row=row_number)
        seats = tables.setdefault(int(table_cell), {})
        if not seat_cell.isdigit() or int(seat_cell) < 1 or int(seat_cell) in seats:
            raise RulesError("draw.csv_seat", field="seating", row=row_number)
        seats[int(seat_cell)] = player
    for number in sorted(tables):
        seats = tables[number]
        if sorted(seats) != list(range(1, len(seats) + 1)):
            row_number = _csv_row_of(rows, number)
            raise RulesError("draw.csv_seat", field="seating", row=row_number)
    return Seating(
        tables=tuple(tuple(tables[n][s] for s in sorted(tables[n])) for n in sorted(tables)),
        sitting_out=tuple(sitting_out),
    )


def _csv_player(cell: str, players: Mapping[PlayerId, str], by_name: Mapping[str, list[PlayerId]], row: int) -> int:
    if cell.isdigit() and int(cell) in players:
        return int(cell)
    named = by_name.get(cell, [])
    if len(named) > 1:
        raise RulesError("draw.csv_player_ambiguous", field="seating", row=row, player=cell)
    if not named:
        raise RulesError("draw.csv_player", field="seating", row=row, player=cell)
    return named[0]


def _csv_row_of(rows: Sequence[Sequence[str]], table: int) -> int:
    """The last row of `table`: where a seat numbering with a gap is reported."""
    return max(i for i, row in enumerate(rows, start=1) if row and row[0].strip().isdigit() and int(row[0]) == table)
