"""Pairs events: fixed partnerships for a whole event, each pair seated as partners at one table.

For the fixed-partnership variants (`draws.fixed_partnerships`: seats 0 + 2 against 1 + 3) an event may play as
pairs named for the whole event. A round's draw then seats pairs, not players: two pairs a table of four, the one
at seats 0 and 2, the other at 1 and 3 (the order inside a pair drawn by the seed). Pure, like `draws`:

- `random`: the pairs shuffled by the seed, dealt two a table;
- `balanced`: fewest repeated opponent pairs over the event (partners never repeat: a pair always sits together);
- `swiss`: by the standings so far (a pair ranks where its better-placed player does), neighbours together,
  skipping past a pair already met where a nearer one has not been;
- `manual`: the director's seating, checked as any (`draws.seating_check`), and each pair at one table as partners.

An odd number of pairs: the pair with the fewest byes sits out (both its players), ties drawn by the seed.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence

from .base import RulesError
from .draws import DrawMethod, PlayerId, Seating, fixed_partnerships, history_count, seating_check
from .registry import VARIANTS

PairOf = tuple[PlayerId, PlayerId]

# Up to this many pairs `balanced` tries every way to match them (7 × 5 × 3 = 105 at eight).
EXACT_PAIRS_UP_TO = 8

MESSAGES: Mapping[str, tuple[str, str]] = {
    "error.pairs.variant": (
        "这个玩法没有固定搭档，不能按固定对打",
        "this variant has no fixed partnerships: it cannot be played as pairs",
    ),
    "error.pairs.table_size": ("固定对只能坐四人桌（0、2 号位对 1、3 号位）", "pairs sit at tables of four only"),
    "error.pairs.not_two": ("第 {n} 对应为两名不同的玩家", "pair {n} must be two different players"),
    "error.pairs.player_twice": ("玩家 {player} 在两对里", "player {player} is in two pairs"),
    "error.pairs.not_checked_in": ("玩家 {player} 不在签到名单里", "player {player} is not checked in"),
    "error.pairs.unpaired": ("玩家 {player} 没有搭档", "player {player} has no partner in a pair"),
    "error.pairs.split": (
        "第 {table} 桌：固定对须作搭档坐 0、2 号位或 1、3 号位",
        "table {table}: each pair sits as partners, seats 1 + 3 or 2 + 4",
    ),
}


def pairs_check(*, pairs: Sequence[Sequence[PlayerId]], players: Collection[PlayerId]) -> tuple[PairOf, ...]:
    """The pairs named for an event, checked against its players: two different players each, nobody in two pairs,
    every member checked in and every checked-in player in a pair. Returns the pairs as sorted tuples."""
    checked_in = set(players)
    seen: set[PlayerId] = set()
    out = []
    for n, pair in enumerate(pairs, start=1):
        if len(pair) != 2 or pair[0] == pair[1]:
            raise RulesError("pairs.not_two", field="pairs", n=n)
        for player in pair:
            if player in seen:
                raise RulesError("pairs.player_twice", field="pairs", player=player)
            if player not in checked_in:
                raise RulesError("pairs.not_checked_in", field="pairs", player=player)
            seen.add(player)
        a, b = sorted(pair)
        out.append((a, b))
    for player in sorted(checked_in - seen):
        raise RulesError("pairs.unpaired", field="pairs", player=player)
    return tuple(out)


def _met(history: Sequence[Seating]) -> tuple[dict[frozenset[PairOf], int], Mapping[PlayerId, int]]:
    """How often two pairs have met across a table, and each player's byes, from the earlier rounds."""
    met: dict[frozenset[PairOf], int] = {}
    for seating in history:
        for table in seating.tables:
            if len(table) == 4:
                one = (min(table[0], table[2]), max(table[0], table[2]))
                other = (min(table[1], table[3]), max(table[1], table[3]))
                key = frozenset((one, other))
                met[key] = met.get(key, 0) + 1
    return met, history_count(history, fixed=True).byes


def _matchings(units: list[PairOf]) -> list[list[tuple[PairOf, PairOf]]]:
    if not units:
        return [[]]
    first, rest = units[0], units[1:]
    found = []
    for i, other in enumerate(rest):
        for tail in _matchings(rest[:i] + rest[i + 1 :]):
            found.append([(first, other), *tail])
    return found


def _balanced(units: list[PairOf], met: Mapping[frozenset[PairOf], int]) -> list[tuple[PairOf, PairOf]]:
    def cost(a: PairOf, b: PairOf) -> int:
        return met.get(frozenset((a, b)), 0)

    if len(units) <= EXACT_PAIRS_UP_TO:
        return min(_matchings(units), key=lambda m: sum(cost(a, b) for a, b in m))
    remaining = list(units)
    tables = []
    while remaining:
        first = remaining.pop(0)
        index = min(range(len(remaining)), key=lambda i: (cost(first, remaining[i]), i))
        tables.append((first, remaining.pop(index)))
    improved = True
    while improved:  # swap opponents between two tables while that lowers the repeats
        improved = False
        for i in range(len(tables)):
            for j in range(i + 1, len(tables)):
                (a, b), (c, d) = tables[i], tables[j]
                now = cost(a, b) + cost(c, d)
                for x, y in (((a, c), (b, d)), ((a, d), (b, c))):
                    if cost(*x) + cost(*y) < now:
                        tables[i], tables[j] = x, y
                        improved = True
                        break
                if improved:
                    break
            if improved:
                break
    return tables


def _swiss(
    units: list[PairOf], met: Mapping[frozenset[PairOf], int], rank: Mapping[PairOf, tuple[int, float]]
) -> list[tuple[PairOf, PairOf]]:
    remaining = sorted(units, key=lambda u: rank[u])
    tables = []
    while remaining:
        first = remaining.pop(0)
        index = min(range(len(remaining)), key=lambda i: (met.get(frozenset((first, remaining[i])), 0), i))
        tables.append((first, remaining.pop(index)))
    return tables


def pairs_seating_draw(
    *,
    variant: str,
    method: str,
    pairs: Sequence[PairOf],
    players: Collection[PlayerId],
    seed: int,
    history: Sequence[Seating] = (),
    ranking: Sequence[PlayerId] = (),
    seating: Seating | None = None,
) -> Seating:
    """A round's seating of a pairs event: each pair of `pairs` whose players are both among `players` (those
    checked in for the round) sits as partners; every player present must be in such a pair."""
    found = VARIANTS.get(variant)
    if found is None:
        raise RulesError("variant.unknown", field="variant", choices=", ".join(sorted(VARIANTS)))
    if not fixed_partnerships(found) or 4 not in found.player_counts:
        raise RulesError("pairs.variant", field="pairs")
    if method not in set(DrawMethod):
        raise RulesError("draw.unknown_method", field="draw", choices=", ".join(DrawMethod))
    present = set(players)
    units: list[PairOf] = sorted((min(p), max(p)) for p in pairs if set(p) <= present)
    paired = {p for unit in units for p in unit}
    for player in sorted(present - paired):
        raise RulesError("pairs.unpaired", field="players", player=player)
    if len(units) < 2:
        raise RulesError("draw.too_few_players", field="players", need=4, have=len(present))
    if method == DrawMethod.MANUAL:
        if seating is None:
            raise RulesError("field.required", field="seating")
        checked = seating_check(players=sorted(present), seating=seating, sizes={4}, history=history)
        unit_set = set(units)
        for n, table in enumerate(checked.tables, start=1):
            sides = {
                (min(table[0], table[2]), max(table[0], table[2])),
                (min(table[1], table[3]), max(table[1], table[3])),
            }
            if sides - unit_set:
                raise RulesError("pairs.split", field="seating", table=n)
        for player in checked.sitting_out:
            partner = next(b if a == player else a for a, b in units if player in (a, b))
            if partner not in checked.sitting_out:
                raise RulesError("pairs.split", field="sitting_out", table="-")
        return checked
    rng = random.Random(seed)
    met, byes = _met(history)
    tiebreak = {unit: rng.random() for unit in units}
    sitting_out: tuple[PlayerId, ...] = ()
    if len(units) % 2:
        if method == DrawMethod.SWISS:
            order = {p: i for i, p in enumerate(dict.fromkeys(ranking))}
            worst = {u: -min(order.get(p, len(order)) for p in u) for u in units}
            out = min(units, key=lambda u: (byes.get(u[0], 0), worst[u], tiebreak[u]))
        else:
            out = min(units, key=lambda u: (byes.get(u[0], 0), tiebreak[u]))
        units.remove(out)
        sitting_out = out
    rng.shuffle(units)
    if method == DrawMethod.RANDOM:
        tables = [(units[i], units[i + 1]) for i in range(0, len(units), 2)]
    elif method == DrawMethod.BALANCED:
        tables = _balanced(units, met)
    else:
        order = {p: i for i, p in enumerate(dict.fromkeys(ranking))}
        rank = {u: (min(order.get(p, len(order)) for p in u), tiebreak[u]) for u in units}
        tables = _swiss(units, met, rank)
    seated = []
    for one, other in tables:
        a, c = rng.sample(one, 2)
        b, d = rng.sample(other, 2)
        seated.append((a, b, c, d))
    return Seating(tables=tuple(seated), sitting_out=tuple(sorted(sitting_out)))
