"""Seating draws (rules/draws.py): the layout of tables, fair byes, reproducibility, the balanced and swiss
rules, a director's seating checked, and its CSV.

Partner and opponent pairs are read off the seatings here, from the seats (0 + 2 and 1 + 3 at four, even and
odd at six), never through the module's own counting; the small balanced cases are checked against every
pairing of the players, enumerated here.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from settlement.rules.base import Lang, RulesError
from settlement.rules.draws import Seating, seating_check, seating_csv_parse, seating_draw, tables_layout
from settlement.rules.registry import VARIANTS


def partner_pairs(seating: Seating) -> list[frozenset[int]]:
    """Fixed partnerships: the players of one seat parity at a table are partners."""
    return [
        frozenset(pair) for table in seating.tables for parity in (0, 1) for pair in combinations(table[parity::2], 2)
    ]


def opponent_pairs(seating: Seating) -> list[frozenset[int]]:
    return [
        frozenset((a, b))
        for table in seating.tables
        for i, a in enumerate(table)
        for j, b in enumerate(table)
        if i < j and i % 2 != j % 2
    ]


def matchings(players: list[int]) -> list[list[frozenset[int]]]:
    """Every way to split `players` (an even number) into pairs."""
    if not players:
        return [[]]
    first, rest = players[0], players[1:]
    return [[frozenset((first, other)), *tail] for other in rest for tail in matchings([p for p in rest if p != other])]


def rounds(variant: str, method: str, players: list[int], n: int, seed: int = 0, **kw: object) -> list[Seating]:
    history: list[Seating] = []
    for r in range(n):
        history.append(
            seating_draw(variant=variant, method=method, players=players, seed=seed + r, history=history, **kw)
        )
    return history


# --- the layout of tables ---


@pytest.mark.parametrize(
    ("count", "sizes", "layout"),
    [
        (4, {4}, (4,)),
        (16, {4}, (4, 4, 4, 4)),
        (18, {4}, (4, 4, 4, 4)),  # two sit out
        (7, {4}, (4,)),
        (10, {3, 4}, (4, 3, 3)),  # nobody sits out
        (5, {3, 4}, (4,)),
        (6, {3, 4}, (3, 3)),
        (16, {4, 6}, (6, 6, 4)),  # seats everyone, in the fewest tables
        (12, {4, 6}, (6, 6)),
        (11, {4, 6}, (6, 4)),
        (3, {4}, ()),
    ],
)
def test_tables_seat_the_most_players_then_in_the_fewest_tables(count, sizes, layout):
    assert tables_layout(count, sizes) == layout


@pytest.mark.parametrize(
    ("variant", "count", "sizes"),
    [
        ("baifen.benxi", 18, [4, 4, 4, 4]),
        ("biaofen", 10, [4, 3, 3]),
        ("shengji", 16, [6, 6, 4]),
        ("hongxingwu", 9, [4, 4]),
    ],
)
def test_a_draw_uses_the_table_sizes_the_engine_gives_the_variant(variant, count, sizes):
    seating = seating_draw(variant=variant, method="random", players=range(count), seed=1)
    assert [len(t) for t in seating.tables] == sizes
    assert len(seating.sitting_out) == count - sum(sizes)


def test_the_event_may_play_one_of_the_variant_s_sizes_only():
    seating = seating_draw(variant="shengji", method="balanced", players=range(16), seed=1, sizes={4})
    assert [len(t) for t in seating.tables] == [4, 4, 4, 4]
    seating = seating_draw(variant="shengji", method="balanced", players=range(14), seed=1, sizes={6})
    assert [len(t) for t in seating.tables] == [6, 6] and len(seating.sitting_out) == 2


# --- invariants of every draw ---

METHODS = ["random", "balanced", "swiss"]


@settings(max_examples=60, deadline=None)
@given(
    variant=st.sampled_from(sorted(VARIANTS)),
    method=st.sampled_from(METHODS),
    players=st.sets(st.integers(1, 500), min_size=6, max_size=40),
    seed=st.integers(0, 2**32),
    earlier=st.integers(0, 3),
)
def test_every_player_is_seated_once_or_sits_out_at_tables_the_variant_takes(variant, method, players, seed, earlier):
    ordered = sorted(players)
    history = rounds(variant, method, ordered, earlier, seed=seed)
    seating = seating_draw(variant=variant, method=method, players=ordered, seed=seed, history=history)
    everyone = [*seating.seated(), *seating.sitting_out]
    assert sorted(everyone) == ordered
    assert all(len(t) in VARIANTS[variant].player_counts for t in seating.tables)
    # Sitting out: fewer than the smallest table, or the leftover the sizes cannot seat.
    assert len(seating.sitting_out) == len(ordered) - sum(tables_layout(len(ordered), VARIANTS[variant].player_counts))


@settings(max_examples=40, deadline=None)
@given(
    method=st.sampled_from(METHODS),
    count=st.integers(5, 23).filter(lambda n: n % 4),
    seed=st.integers(0, 2**32),
    n_rounds=st.integers(2, 12),
)
def test_nobody_sits_out_twice_before_everyone_has_sat_out_once(method, count, seed, n_rounds):
    history = rounds("baifen.benxi", method, list(range(count)), n_rounds, seed=seed)
    byes: Counter[int] = Counter()
    for seating in history:
        byes.update(seating.sitting_out)
        counts = [byes[p] for p in range(count)]
        assert max(counts) - min(counts) <= 1


@settings(max_examples=40, deadline=None)
@given(
    method=st.sampled_from(METHODS),
    players=st.lists(st.integers(1, 300), min_size=8, max_size=30, unique=True),
    seed=st.integers(0, 2**32),
    shuffled=st.randoms(use_true_random=False),
)
def test_the_same_seed_and_history_give_the_same_draw_whatever_the_players_order(method, players, seed, shuffled):
    history = rounds("baifen.benxi", "random", sorted(players), 2, seed=seed + 1)
    first = seating_draw(variant="baifen.benxi", method=method, players=players, seed=seed, history=history)
    again = list(players)
    shuffled.shuffle(again)
    assert seating_draw(variant="baifen.benxi", method=method, players=again, seed=seed, history=history) == first


def test_another_seed_gives_another_draw():
    draws = {
        seating_draw(variant="baifen.benxi", method="random", players=range(16), seed=s, history=()) for s in range(5)
    }
    assert len(draws) == 5


# --- balanced ---


@settings(max_examples=60, deadline=None)
@given(count=st.sampled_from([4, 8]), seed=st.integers(0, 2**32), earlier=st.integers(1, 4))
def test_balanced_repeats_no_partner_while_a_seating_without_one_exists(count, seed, earlier):
    players = list(range(count))
    history = rounds("baifen.benxi", "random", players, earlier, seed=seed)
    before = {pair for seating in history for pair in partner_pairs(seating)}
    possible = any(not (set(m) & before) for m in matchings(players))
    seating = seating_draw(variant="baifen.benxi", method="balanced", players=players, seed=seed, history=history)
    repeated = set(partner_pairs(seating)) & before
    assert (not repeated) == possible


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), earlier=st.integers(1, 3))
def test_balanced_at_two_tables_finds_the_fewest_repeated_partners_then_opponents(seed, earlier):
    players = list(range(8))
    history = rounds("baifen.benxi", "random", players, earlier, seed=seed)
    partners_before = Counter(p for s in history for p in partner_pairs(s))
    opponents_before = Counter(p for s in history for p in opponent_pairs(s))

    def cost(seating: Seating) -> tuple[int, int]:
        return (
            sum(partners_before[p] for p in partner_pairs(seating)),
            sum(opponents_before[p] for p in opponent_pairs(seating)),
        )

    # Every seating of 8 players at two tables, up to the seats' symmetries: a pairing into 4 partner pairs,
    # and which two pairs share a table.
    best = min(
        cost(Seating(tables=((a0, b0, a1, b1), (c0, d0, c1, d1))))
        for m in matchings(players)
        for (a0, a1), (b0, b1), (c0, c1), (d0, d1) in [
            tuple(tuple(sorted(p)) for p in order)
            for order in ([m[0], m[1], m[2], m[3]], [m[0], m[2], m[1], m[3]], [m[0], m[3], m[1], m[2]])
        ]
    )
    drawn = seating_draw(variant="baifen.benxi", method="balanced", players=players, seed=seed, history=history)
    assert cost(drawn) == best


@pytest.mark.parametrize("seed", [0, 1, 7, 2026])
def test_sixteen_players_over_four_balanced_rounds_never_partner_twice(seed):
    history = rounds("baifen.benxi", "balanced", list(range(16)), 4, seed=seed)
    pairs = [pair for seating in history for pair in partner_pairs(seating)]
    assert len(pairs) == 4 * 4 * 2
    assert len(set(pairs)) == len(pairs)


@pytest.mark.parametrize("seed", [0, 3])
def test_six_seat_shengji_partners_are_the_seats_of_one_parity_and_never_repeat_in_three_rounds(seed):
    history = rounds("shengji", "balanced", list(range(12)), 3, seed=seed, sizes={6})
    pairs = [pair for seating in history for pair in partner_pairs(seating)]
    assert len(pairs) == 3 * 2 * 2 * 3  # rounds × tables × teams × pairs in a team of three
    assert len(set(pairs)) == len(pairs)


def test_without_fixed_partners_balanced_avoids_meeting_anyone_again():
    # 标分 at tables of three: 9 players, 4 rounds — a resolvable design exists (the affine plane of order 3).
    history = rounds("biaofen", "balanced", list(range(9)), 4, seed=5, sizes={3})
    met = [frozenset(p) for s in history for t in s.tables for p in combinations(t, 2)]
    assert len(set(met)) == len(met) == 36


def test_a_hundred_tables_draw_balanced_without_a_repeat_after_three_rounds():
    history = rounds("baifen.benxi", "balanced", list(range(400)), 4, seed=11)
    pairs = [pair for seating in history for pair in partner_pairs(seating)]
    assert len(set(pairs)) == len(pairs)


# --- swiss ---


def test_swiss_seats_neighbours_in_the_ranking_together_best_and_fourth_against_second_and_third():
    ranking = [10, 11, 12, 13, 14, 15, 16, 17]
    seating = seating_draw(variant="baifen.benxi", method="swiss", players=ranking, seed=3, ranking=ranking)
    assert seating.tables == ((10, 11, 13, 12), (14, 15, 17, 16))


def test_swiss_takes_the_next_one_down_past_a_player_met_and_seats_those_met_as_partners_not_opponents():
    ranking = [1, 2, 3, 4, 5, 6, 7, 8]
    # 1 partnered 7 and met 2 and 8; 3 partnered 5 and met 4 and 6: no grouping avoids them all.
    earlier = Seating(tables=((1, 2, 7, 8), (3, 4, 5, 6)))
    seating = seating_draw(
        variant="baifen.benxi", method="swiss", players=ranking, seed=3, ranking=ranking, history=[earlier]
    )
    # 1, then 3 (2 met 1), then 2 (everyone left met 1 or 3; 2 is the nearest of the cheapest), then 4.
    # 1 + 2 against 3 + 4: the pairs met before are now partners, and no one faces an opponent again.
    assert seating.tables == ((1, 3, 2, 4), (5, 7, 6, 8))


def test_swiss_sits_out_the_lowest_ranked_of_those_with_fewest_byes():
    ranking = list(range(1, 10))
    seating = seating_draw(variant="baifen.benxi", method="swiss", players=ranking, seed=0, ranking=ranking)
    assert seating.sitting_out == (9,)
    second = seating_draw(
        variant="baifen.benxi", method="swiss", players=ranking, seed=0, ranking=ranking, history=[seating]
    )
    assert second.sitting_out == (8,)


# --- errors ---


@pytest.mark.parametrize(
    ("kwargs", "code", "field"),
    [
        ({"method": "round_robin"}, "draw.unknown_method", "draw"),
        ({"variant": "mahjong"}, "variant.unknown", "variant"),
        ({"players": [1, 2, 3]}, "draw.too_few_players", "players"),
        ({"variant": "biaofen", "players": [1, 2]}, "draw.too_few_players", "players"),
        ({"players": [1, 2, 3, 4, 2]}, "draw.player_twice", "players"),
        ({"sizes": {6}}, "draw.table_sizes", "sizes"),
        ({"sizes": set()}, "draw.table_sizes", "sizes"),
        ({"method": "manual"}, "field.required", "seating"),
    ],
)
def test_a_bad_draw_names_its_code_and_field(kwargs, code, field):
    args = {"variant": "baifen.benxi", "method": "random", "players": list(range(8)), "seed": 1, **kwargs}
    with pytest.raises(RulesError) as raised:
        seating_draw(**args)
    assert (raised.value.code, raised.value.field) == (code, field)
    assert raised.value.message(Lang.EN) != f"error.{code}"  # the table has its text


# --- manual ---

EIGHT = list(range(1, 10))  # nine checked in: one sits out at two 4-seat tables


@pytest.mark.parametrize(
    ("tables", "sitting_out", "code", "field"),
    [
        (((1, 2, 3, 4), (5, 6, 7, 1)), (9,), "draw.player_twice", "seating"),  # at two tables
        (((1, 2, 3, 4), (5, 6, 7, 8)), (8,), "draw.player_twice", "seating"),  # seated and sitting out
        (((1, 2, 3, 4), (5, 6, 7, 8)), (), "draw.left_out", "seating"),
        (((1, 2, 3, 4), (5, 6, 7, 42)), (8, 9), "draw.unknown_player", "seating"),
        (((1, 2, 3, 4, 5), (6, 7, 8, 9)), (), "draw.table_size", "seating"),
        (((1, 2, 3, 4),), (5, 6, 7, 8, 9), "draw.too_many_sitting_out", "sitting_out"),
        (((1, 2, 3, 4), (5, 6, 7, 9)), (8,), "draw.bye_out_of_turn", "sitting_out"),  # 8 sat out last round
    ],
)
def test_a_directors_seating_is_refused_with_the_code_and_field(tables, sitting_out, code, field):
    last_round = Seating(tables=((1, 2, 3, 4), (5, 6, 7, 9)), sitting_out=(8,))
    with pytest.raises(RulesError) as raised:
        seating_draw(
            variant="baifen.benxi",
            method="manual",
            players=EIGHT,
            seed=0,
            history=[last_round],
            seating=Seating(tables=tables, sitting_out=sitting_out),
        )
    assert (raised.value.code, raised.value.field) == (code, field)


def test_a_directors_seating_that_follows_the_rules_is_kept_as_given():
    given_seating = Seating(tables=((4, 3, 2, 1), (9, 6, 7, 5)), sitting_out=(8,))
    assert seating_check(players=EIGHT, seating=given_seating, sizes={4}) == given_seating


# --- CSV ---

NAMES = {1: "王强", 2: "张伟", 3: "李娜", 4: "赵敏", 5: "刘洋", 6: "陈静", 7: "杨帆", 8: "周杰", 9: "吴昊", 10: "王强"}


def test_a_csv_seating_reads_tables_seats_names_ids_and_byes():
    text = (
        "\ufefftable,seat,player\n2,1,刘洋\n1,2,张伟\n1,1,1\n1,3,李娜\n1,4,赵敏\n"
        "2,2,陈静\n2,3,杨帆\n2,4,9\n轮空,,周杰\n"
    )
    assert seating_csv_parse(text=text, players=NAMES) == Seating(tables=((1, 2, 3, 4), (5, 6, 7, 9)), sitting_out=(8,))


@pytest.mark.parametrize(
    ("text", "code", "row"),
    [
        ("1,1,张伟\n1,2\n", "draw.csv_columns", 2),
        ("x,1,张伟\n", "draw.csv_table", 1),
        ("0,1,张伟\n", "draw.csv_table", 1),
        ("1,1,张伟\n1,1,李娜\n", "draw.csv_seat", 2),
        ("1,1,张伟\n1,3,李娜\n", "draw.csv_seat", 2),  # seat 2 missing
        ("1,1,张三\n", "draw.csv_player", 1),
        ("1,1,王强\n", "draw.csv_player_ambiguous", 1),  # two 王强: give the id
    ],
)
def test_a_bad_csv_row_is_named(text, code, row):
    with pytest.raises(RulesError) as raised:
        seating_csv_parse(text=text, players=NAMES)
    assert (raised.value.code, raised.value.field, raised.value.params["row"]) == (code, "seating", row)


# --- the printable list ---


@pytest.mark.parametrize(
    ("lang", "lines"),
    [
        (Lang.ZH, ("第 1 桌：1 号位 王强，2 号位 张伟，3 号位 李娜，4 号位 #11", "轮空：刘洋、陈静")),
        (Lang.EN, ("Table 1: seat 1 王强, seat 2 张伟, seat 3 李娜, seat 4 #11", "Sitting out: 刘洋, 陈静")),
    ],
)
def test_the_seating_list_prints_a_line_per_table_and_the_byes(lang, lines):
    seating = Seating(tables=((1, 2, 3, 11),), sitting_out=(5, 6))
    assert seating.lines(names=NAMES, lang=lang) == lines
