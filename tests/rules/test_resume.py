"""Playing on from a stored state is the same as replaying the whole session, for every variant.

The ledger stores the state after each hand and plays a new hand (or a
correction) on from it; if the state left anything out, a resumed session
would drift from the replay. Sessions are drawn generically from each
variant's hand fields, keeping the hands the engine accepts, so a new variant
in the registry is covered without writing a strategy for it.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from settlement.rules.base import RedealReason, RulesError, Variant
from settlement.rules.document import document_parse
from settlement.rules.registry import VARIANTS
from settlement.rules.session import (
    STATE_VERSION,
    SessionResult,
    SessionState,
    results_document,
    session_play,
    session_start,
    state_dump,
    state_load,
)

NAMES = ["甲", "乙", "丙", "丁", "戊", "己"]
FIVES = st.integers(min_value=0, max_value=40).map(lambda k: 5 * k)


def _field(name: str, variant: Variant, options: Any, players: int) -> st.SearchStrategy[Any]:
    """Plausible values of one hand field (the engine decides what it accepts)."""
    seat = st.integers(0, players - 1)
    if name in ("dealer", "declarer"):
        return seat
    if name == "partner":
        return st.one_of(st.none(), seat)
    if name == "bid":
        rules = variant.bids(options, players) if variant.bids else ()
        return st.sampled_from([rule.bid for rule in rules]) if rules else FIVES
    if name == "captured":
        top = (variant.deck_points or 200) // 5
        return st.integers(0, top).map(lambda k: 5 * k)
    if name == "bottom_points":
        return st.integers(0, 10).map(lambda k: 5 * k)
    if name in ("kou_di", "forced", "surrender", "no_trump_bottom", "gan_guo"):
        return st.booleans()
    if name == "kou":
        return st.sampled_from(["side", "trump", "joker"])
    if name == "bottom_multiplier":
        return st.sampled_from([2, 4, 8])
    if name == "contract":
        return st.sampled_from(["plain", "bao", "gou"])
    if name == "bombs":
        return st.integers(0, 3)
    if name == "penalties":
        return st.lists(
            st.fixed_dictionaries({"seat": seat, "kind": st.sampled_from(["shuai", "misdeal"])}), max_size=1
        )
    if name == "bottom_jokers":
        return st.fixed_dictionaries({"big": st.integers(0, 2), "small": st.integers(0, 2)})
    if name == "tribute":
        return st.sampled_from(["normal", "reversed", "cancelled"])
    return st.nothing()


@st.composite
def _hand(draw: st.DrawFn, variant: Variant, options: Any, players: int) -> dict[str, Any]:
    fields = sorted(variant.hand_fields - {"redeal"})
    if "redeal" in variant.hand_fields and draw(st.integers(0, 11)) == 0:
        hand: dict[str, Any] = {"redeal": draw(st.sampled_from([str(r) for r in RedealReason]))}
        if "dealer" in fields and not variant.has_levels and draw(st.booleans()):
            hand["dealer"] = draw(st.integers(0, players - 1))
        return hand
    hand = {}
    for name in fields:
        # The facts of play (dealer, declarer) are left out now and then, for the state to fill in.
        if draw(st.integers(0, 3)) == 0 and name not in ("bid", "captured"):
            continue
        hand[name] = draw(_field(name, variant, options, players))
    return hand


def _play(raw: dict[str, Any], *, first_hand: int = 1, state: SessionState | None = None) -> SessionResult:
    return session_play(document_parse(raw, variants=VARIANTS, first_hand=first_hand), state=state)


@st.composite
def sessions(draw: st.DrawFn, key: str) -> dict[str, Any]:
    """A session document of the variant whose every hand the engine accepts (refused candidates are redrawn)."""
    variant = VARIANTS[key]
    players = draw(st.sampled_from(sorted(variant.player_counts)))
    options = dict(variant.presets[draw(st.sampled_from(sorted(variant.presets)))]) if variant.presets else {}
    doc = {"variant": key, "players": NAMES[:players], "options": options, "hands": []}
    parsed = document_parse(doc, variants=VARIANTS)
    state = session_start(parsed)
    length = draw(st.integers(0, 24))
    tries = 0
    while len(doc["hands"]) < length and tries < length * 12:
        tries += 1
        hand = draw(_hand(variant, parsed.options, players))
        try:
            result = _play({**doc, "hands": [hand]}, first_hand=state.played + 1, state=state)
        except RulesError:
            continue
        doc["hands"].append(hand)
        assert result.state is not None
        state = result.state
    return doc


def _games_after(result: SessionResult, k: int) -> tuple[Any, ...]:
    return tuple(game for game in result.games if not game.finished or game.last_hand > k)


@pytest.mark.parametrize("key", sorted(VARIANTS))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data())
def test_playing_on_from_the_state_after_any_hand_gives_the_full_replay(key, data):
    doc = data.draw(sessions(key))
    full = _play(doc)
    document = results_document(full, lang="en")
    for k in range(len(doc["hands"]) + 1):
        before = full.hands[k - 1].state if k else session_start(full.doc)
        assert before is not None
        stored = json.loads(json.dumps(state_dump(before)))  # what the ledger keeps: plain JSON
        assert stored["version"] == STATE_VERSION
        tail = _play({**doc, "hands": doc["hands"][k:]}, first_hand=k + 1, state=state_load(stored))

        assert tail.hands == full.hands[k:]
        assert tail.games == _games_after(full, k)
        assert (tail.totals, tail.games_won, tail.settle_up) == (full.totals, full.games_won, full.settle_up)
        assert tail.state == full.state
        resumed = results_document(tail, lang="en")
        assert resumed["hands"] == document["hands"][k:]
        first_game = len(full.games) - len(tail.games)
        assert resumed["games"] == document["games"][first_game:]
        for name in ("variant", "options", "players", "unit", "totals", "games_won", "settle_up"):
            assert resumed[name] == document[name]


@pytest.mark.parametrize("key", sorted(VARIANTS))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data())
def test_a_hand_played_on_from_the_state_is_refused_as_the_replay_refuses_it(key, data):
    doc = data.draw(sessions(key))
    variant = VARIANTS[key]
    parsed = document_parse(doc, variants=VARIANTS)
    extra = data.draw(_hand(variant, parsed.options, len(doc["players"])))
    n = len(doc["hands"])
    full = _outcome(lambda: _play({**doc, "hands": [*doc["hands"], extra]}).hands[-1])
    state = _play(doc).state
    resumed = _outcome(lambda: _play({**doc, "hands": [extra]}, first_hand=n + 1, state=state).hands[-1])
    assert resumed == full


def _outcome(play: Any) -> Any:
    try:
        return play()
    except RulesError as error:
        return (error.code, error.hand, error.field, error.params)


def test_a_state_of_another_version_is_refused():
    state = state_dump(
        session_start(document_parse({"variant": "baifen.benxi", "players": NAMES[:4], "hands": []}, variants=VARIANTS))
    )
    with pytest.raises(ValueError, match=rf"^session state version {STATE_VERSION + 1}, expected {STATE_VERSION}$"):
        state_load({**state, "version": STATE_VERSION + 1})


# The rules file's 本溪 example (rules/baifen.md, target 205), dealers left to the state, with a redeal
# (all passed, dealt by seat 0) between its 盘: hand 4 ends 盘 1 (B 230 出锅), hand 6 (declarer 0 at place 3,
# 100 clean: A +300) ends 盘 2.
BENXI_EXAMPLE = {
    "variant": "baifen.benxi",
    "options": {"target": 205},
    "players": NAMES[:4],
    "hands": [
        {"declarer": 0, "bid": 80, "captured": 15},
        {"declarer": 1, "bid": 85, "captured": 20},
        {"declarer": 3, "bid": 90, "captured": 0},
        {"declarer": 2, "bid": 85, "captured": 55},
        {"redeal": "all_pass"},
        {"declarer": 0, "bid": 100, "captured": 0},
    ],
}
ZERO = (0, 0, 0, 0)


# Each row: after hand k, (played, game, game_first, hand_in_game, scored_in_game, game_totals, next_dealer,
# totals, games_won).
@pytest.mark.parametrize(
    ("k", "expected"),
    [
        (1, (1, 1, 1, 1, 1, (80, 15, 80, 15), 1, ZERO, ZERO)),
        (2, (2, 1, 1, 2, 2, (100, -70, 100, -70), 2, ZERO, ZERO)),
        (3, (3, 1, 1, 3, 3, (100, 130, 100, 130), 3, ZERO, ZERO)),
        # 盘 1 closed: the next starts at hand 5 from 0 : 0, B's totals kept and its 盘 counted
        (4, (4, 2, 5, 0, 0, ZERO, 0, (15, 230, 15, 230), (0, 1, 0, 1))),
        # the redeal is a hand of the 盘 but not a scored one; it passes the deal on
        (5, (5, 2, 5, 1, 0, ZERO, 1, (15, 230, 15, 230), (0, 1, 0, 1))),
        (6, (6, 3, 7, 0, 0, ZERO, 2, (315, 230, 315, 230), (1, 1, 1, 1))),
    ],
)
def test_the_state_after_each_hand_says_where_the_session_stands(k, expected):
    s = _play(BENXI_EXAMPLE).hands[k - 1].state
    assert s is not None
    assert (
        s.played,
        s.game,
        s.game_first,
        s.hand_in_game,
        s.scored_in_game,
        s.game_totals,
        s.next_dealer,
        s.totals,
        s.games_won,
    ) == expected


@pytest.mark.parametrize(
    ("doc", "facts"),
    [
        # dealers left out are filled in from the seat after the previous hand's (a redeal's too); one entered
        # is the hand's own, not a fact the state supplied
        (
            {**BENXI_EXAMPLE, "hands": [{"dealer": 0, **BENXI_EXAMPLE["hands"][0]}, *BENXI_EXAMPLE["hands"][1:]]},
            [{}, {"dealer": 1}, {"dealer": 2}, {"dealer": 3}, {"dealer": 0}, {"dealer": 1}],
        ),
        # 升级 (rules/shengji.md): s = 40 < 80 → the 对家 (seat 2) declares next; s = 90 ≥ 80 → 上台, seat 3;
        # a redeal names no declarer
        (
            {
                "variant": "shengji",
                "players": NAMES[:4],
                "hands": [
                    {"declarer": 0, "captured": 40, "bottom_points": 0},
                    {"captured": 90, "bottom_points": 0},
                    {"redeal": "misdeal"},
                    {"captured": 0, "bottom_points": 0},
                ],
            },
            [{}, {"declarer": 2}, {}, {"declarer": 3}],
        ),
    ],
    ids=["baifen.benxi", "shengji"],
)
def test_a_hand_keeps_as_facts_only_what_the_state_filled_in(doc, facts):
    assert [dict(hand.facts) for hand in _play(doc).hands] == facts


def test_a_state_whose_totals_are_for_other_seats_is_refused_not_cut_to_fit():
    doc = document_parse({**BENXI_EXAMPLE, "hands": BENXI_EXAMPLE["hands"][:1]}, variants=VARIANTS)
    start = session_start(doc)
    with pytest.raises(ValueError, match="zip"):
        session_play(doc, state=dataclasses.replace(start, totals=(0, 0, 0)))


def test_a_state_for_another_number_of_players_is_refused():
    three = session_start(document_parse({"variant": "biaofen", "players": NAMES[:3], "hands": []}, variants=VARIANTS))
    doc = document_parse({"variant": "biaofen", "players": NAMES[:4], "hands": []}, variants=VARIANTS)
    with pytest.raises(ValueError, match=r"^a state for 3 players, the document has 4$"):
        session_play(doc, state=three)


def test_hands_not_numbered_on_from_the_state_are_refused():
    # The state after hand 1 takes hands from 2; hands numbered from 3 would leave one out.
    doc = {**BENXI_EXAMPLE, "hands": BENXI_EXAMPLE["hands"][:1]}
    state = _play(doc).state
    with pytest.raises(ValueError, match=r"^the document's first hand is 3, the state is after hand 1$"):
        _play({**BENXI_EXAMPLE, "hands": BENXI_EXAMPLE["hands"][1:3]}, first_hand=3, state=state)
