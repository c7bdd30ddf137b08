"""Whatever sequence of records, corrections and voids, the stored derived rows equal a fresh replay of the log."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from settlement import services
from settlement.models import GameRow, SettlementRow
from settlement.selectors import session_results
from tests.factories import make_club, make_member, make_session

pytestmark = pytest.mark.django_db

# 本溪 hands the rules accept in any context: the declarer deals (place 0), so any bid of 80–100 is allowed.
hands = st.builds(
    lambda seat, bid, captured: {"dealer": seat, "declarer": seat, "bid": bid, "captured": captured},
    st.integers(0, 3),
    st.sampled_from([80, 85, 90, 95, 100]),
    st.sampled_from([0, 5, 20, 45, 50, 70]),
)
operations = st.lists(
    st.one_of(
        st.tuples(st.just("record"), hands),
        st.tuples(st.just("correct"), st.integers(1, 12), hands),
        st.tuples(st.just("void"), st.integers(1, 12)),
    ),
    min_size=1,
    max_size=14,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=operations)
def test_derived_rows_always_equal_a_fresh_replay(ops):
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    for op in ops:
        try:
            if op[0] == "record":
                services.hand_record(session=session, user=owner, hand_input=op[1])
            elif op[0] == "correct":
                services.hand_correct(session=session, user=owner, number=op[1], hand_input=op[2], reason="fix")
            else:
                services.hand_void(session=session, user=owner, number=op[1], reason="void")
        except services.LedgerError as error:
            assert error.code in {"hand.not_found", "hand.already_void", "hand.unchanged"}
    results = session_results(session=session, lang="en").results
    expected_rows = sorted(
        (hand["n"], seat, hand["game"], delta, hand["totals"][seat], hand["declarer"] == seat, hand["declarer_won"])
        for hand in results["hands"]
        for seat, delta in enumerate(hand["deltas"])
    )
    stored_rows = sorted(
        SettlementRow.objects.filter(session=session).values_list(
            "number", "seat", "game", "delta", "total", "is_declarer", "declarer_won"
        )
    )
    assert stored_rows == expected_rows
    expected_games = sorted(
        (
            game["n"],
            seat,
            game["first_hand"],
            game["last_hand"],
            game["finished"],
            game["how"] or "",
            seat in game["winners"],
            game["adjustments"][seat],
            total,
        )
        for game in results["games"]
        for seat, total in enumerate(game["totals"])
    )
    stored_games = sorted(
        GameRow.objects.filter(session=session).values_list(
            "game", "seat", "first_hand", "last_hand", "finished", "how", "won", "adjustment", "total"
        )
    )
    assert stored_games == expected_games
