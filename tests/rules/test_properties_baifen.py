"""Invariants of the 打百分 variants over random sessions (Hypothesis)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from settlement.rules.base import RulesError
from settlement.rules.session import session_settle

from .helpers import document

REGIONS = ("baifen.benxi", "baifen.fushun", "baifen.shenyang")
POINTS = st.integers(min_value=0, max_value=20).map(lambda k: 5 * k)


@st.composite
def regional_hand(draw: st.DrawFn) -> dict[str, Any]:
    """A hand every region accepts: not forced, bid 85–100 (allowed at every place everywhere)."""
    if draw(st.integers(0, 19)) == 0:
        return {"dealer": draw(st.integers(0, 3)), "redeal": "misdeal"}
    hand: dict[str, Any] = {
        "dealer": draw(st.integers(0, 3)),
        "declarer": draw(st.integers(0, 3)),
        "bid": draw(st.sampled_from([85, 90, 95, 100])),
        "captured": draw(POINTS),
    }
    kou = draw(st.sampled_from([None, None, None, "side", "trump", "joker"]))
    if kou:
        hand["kou"] = kou
    return hand


@st.composite
def regional_session(draw: st.DrawFn) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if draw(st.booleans()):
        options["target"] = draw(st.sampled_from([100, 205, 300]))
    if draw(st.booleans()):
        options["kou_mode"] = draw(st.sampled_from(["points", "game"]))
    if draw(st.booleans()):
        options["bid100"] = draw(st.sampled_from(["points", "game"]))
    if draw(st.booleans()):
        options["exact_hundred"] = draw(st.sampled_from(["made", "broken"]))
    return document(draw(st.sampled_from(REGIONS)), draw(st.lists(regional_hand(), max_size=25)), options=options)


@st.composite
def classic_hand(draw: st.DrawFn) -> dict[str, Any]:
    declarer = draw(st.integers(0, 3))
    return {
        "declarer": declarer,
        "bid": draw(st.integers(9, 20).map(lambda k: 5 * k)),
        "captured": draw(POINTS),
        "partner": draw(st.sampled_from([None, *(s for s in range(4) if s != declarer)])),
        "kou_di": draw(st.booleans()),
    }


classic_session = st.builds(
    lambda hands, stake: document("baifen.classic", hands, options={"stake": stake}),
    st.lists(classic_hand(), max_size=25),
    st.integers(1, 5),
)


def _check_totals(results: dict[str, Any]) -> None:
    players = len(results["players"])
    for game in results["games"]:
        hands = [h for h in results["hands"] if h["game"] == game["n"]]
        running = [0] * players
        for hand in hands:
            running = [t + d for t, d in zip(running, hand["deltas"], strict=True)]
            assert hand["totals"] == running
        assert game["totals"] == [t + a for t, a in zip(running, game["adjustments"], strict=True)]
    session_sum = [sum(h["deltas"][s] for h in results["hands"]) for s in range(players)]
    adjustments = [sum(g["adjustments"][s] for g in results["games"]) for s in range(players)]
    assert results["totals"] == [a + b for a, b in zip(session_sum, adjustments, strict=True)]


@given(regional_session())
def test_totals_always_equal_the_sum_of_deltas_in_regional_games(doc):
    _check_totals(session_settle(doc))


@given(regional_session())
def test_both_seats_of_a_team_always_show_the_team_figure(doc):
    for hand in session_settle(doc)["hands"]:
        assert hand["deltas"][0] == hand["deltas"][2] and hand["deltas"][1] == hand["deltas"][3]


def _rotate(doc: dict[str, Any], by: int) -> dict[str, Any]:
    """The same session with every seat moved `by` places (so the other team declares when by is odd)."""
    hands = []
    for hand in doc["hands"]:
        moved = dict(hand)
        for key in ("dealer", "declarer", "partner"):
            if moved.get(key) is not None:
                moved[key] = (moved[key] + by) % 4
        hands.append(moved)
    return {**doc, "hands": hands}


def _shift(seats: list[int], by: int) -> list[int]:
    return [seats[(i - by) % 4] for i in range(4)]


@given(st.one_of(regional_session(), classic_session))
def test_swapping_which_team_declares_mirrors_the_result(doc):
    plain, moved = session_settle(doc), session_settle(_rotate(doc, 1))
    for a, b in zip(plain["hands"], moved["hands"], strict=True):
        assert b["deltas"] == _shift(a["deltas"], 1)
        assert b["outcome"] == a["outcome"]
    assert moved["totals"] == _shift(plain["totals"], 1)
    assert [sorted((s + 1) % 4 for s in g["winners"]) for g in plain["games"]] == [g["winners"] for g in moved["games"]]


@given(classic_session)
def test_the_classic_game_is_zero_sum_and_settles_up_to_zero(doc):
    results = session_settle(doc)
    for hand in results["hands"]:
        assert sum(hand["deltas"]) == 0
    _check_totals(results)
    balance = list(results["totals"])
    for transfer in results["settle_up"]:
        balance[transfer["from"]] += transfer["amount"]
        balance[transfer["to"]] -= transfer["amount"]
        assert transfer["amount"] > 0
    assert balance == [0, 0, 0, 0]
    assert len(results["settle_up"]) <= max(0, sum(1 for t in results["totals"] if t) - 1)


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-10, 400),
    st.text(max_size=3),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)
HAND_KEYS = ["dealer", "declarer", "bid", "captured", "kou", "forced", "partner", "kou_di", "redeal", "bombs", "x"]


@given(
    st.one_of(regional_session(), classic_session),
    st.data(),
)
def test_random_documents_are_settled_or_refused_with_the_domain_error(doc, data):
    """Corrupt one value anywhere in a valid document: the engine answers or raises RulesError, nothing else."""
    where = data.draw(st.sampled_from(["hand", "top", "options", "players"]))
    if where == "hand" and doc["hands"]:
        i = data.draw(st.integers(0, len(doc["hands"]) - 1))
        doc["hands"][i][data.draw(st.sampled_from(HAND_KEYS))] = data.draw(JUNK)
    elif where == "top":
        doc[data.draw(st.sampled_from(["variant", "players", "hands", "options", "date", "extra"]))] = data.draw(JUNK)
    elif where == "options":
        doc["options"] = {
            data.draw(st.sampled_from(["target", "fanbei", "clean", "kou_award", "stake", "zzz"])): data.draw(JUNK)
        }
    else:
        doc["players"] = data.draw(st.lists(st.one_of(st.text(max_size=2), st.integers()), max_size=5))
    try:
        session_settle(doc)
    except RulesError as error:
        assert error.field
        assert error.hand is None or 1 <= error.hand <= len(doc["hands"])
        assert error.message("en") and error.message("zh-Hans")


@given(st.one_of(regional_session(), classic_session), st.data())
def test_an_invalid_value_is_always_refused_naming_its_hand_and_field(doc, data):
    if not doc["hands"]:
        doc["hands"].append(
            {"declarer": 0, "bid": 100, "captured": 0, "partner": 1}
            if doc["variant"] == "baifen.classic"
            else {"declarer": 0, "bid": 100, "captured": 0}
        )
    i = data.draw(st.integers(0, len(doc["hands"]) - 1))
    key, bad = data.draw(
        st.sampled_from(
            [
                ("dealer", 4),
                ("dealer", -1),
                ("dealer", "0"),
                ("declarer", True),
                ("captured", 7),
                ("captured", -5),
                ("captured", 105),
                ("bid", 101),
                ("bid", 30),
                ("unknown_field", 1),
                ("bottom_points", 10),
            ]
        )
    )
    doc["hands"][i].pop("redeal", None)
    doc["hands"][i].setdefault("declarer", 0)
    doc["hands"][i].setdefault("bid", 100)
    doc["hands"][i].setdefault("captured", 0)
    if doc["variant"] == "baifen.classic":
        doc["hands"][i].setdefault(
            "partner", (doc["hands"][i]["declarer"] + 1) % 4 if isinstance(doc["hands"][i]["declarer"], int) else 1
        )
    doc["hands"][i][key] = bad
    try:
        session_settle(doc)
    except RulesError as error:
        assert error.hand is not None and error.hand <= i + 1
        if error.hand == i + 1:
            assert error.field == key
    else:
        raise AssertionError(f"hand {i + 1}: {key} = {bad!r} was accepted")
