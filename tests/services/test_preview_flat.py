"""The next hand's preview: played on from the last hand's stored state, so it costs the same at hand 6 or 51,
and it answers what recording the hand then gives."""

from __future__ import annotations

import json

import pytest

from settlement import services
from settlement.models import Hand, HandRevision, HandState
from settlement.selectors import session_results
from tests.conftest import SHARED_GOLDEN
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_recorded_session, record_hands

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    return make_recorded_session(hands=[])


def _hands(n):
    return (BENXI_EXAMPLE * n)[:n]


def test_the_next_hands_preview_is_that_hand_alone_and_writes_nothing(table):
    _, owner, session = table
    record_hands(session, owner, BENXI_EXAMPLE[:3])
    preview = services.hand_preview_next(session=session, hand_input=BENXI_EXAMPLE[3], lang="en")
    # Worked by hand: A breaks 85 with 55 captured (翻倍): A −85, B +100; B reaches 230 ≥ 205 and wins the 盘.
    assert [hand["n"] for hand in preview["hands"]] == [4]
    hand = preview["hands"][0]
    assert (hand["deltas"], hand["totals"]) == ([-85, 100, -85, 100], [15, 230, 15, 230])
    game = preview["games"][0]
    assert (game["n"], game["first_hand"], game["last_hand"], game["finished"]) == (1, 1, 4, True)
    assert game["winners"] == [1, 3]
    assert any("broken" in step for step in hand["steps"])
    assert (Hand.objects.count(), HandRevision.objects.count(), HandState.objects.count()) == (3, 3, 3)


@pytest.mark.parametrize("before", [0, 1, 3, 4, 6])
def test_the_preview_gives_what_the_full_replay_and_the_recording_give(table, before):
    _, owner, session = table
    hands = _hands(before + 1)
    record_hands(session, owner, hands[:-1])
    flat = services.hand_preview_next(session=session, hand_input=hands[-1], lang="en")
    full = services.hand_preview(session=session, hand_input=hands[-1], lang="en")
    assert flat["hands"] == full["hands"][-1:]
    assert [g for g in full["games"] if g["last_hand"] >= before + 1 or not g["finished"]] == flat["games"]
    for key in ("totals", "games_won", "settle_up"):
        assert flat[key] == full[key]

    services.hand_record(session=session, user=owner, hand_input=hands[-1])
    recorded = session_results(session=session, lang="en").results
    assert flat["hands"][0] == recorded["hands"][-1]
    assert flat["totals"] == recorded["totals"]
    assert flat["settle_up"] == recorded["settle_up"]


def test_the_preview_after_a_void_hand_plays_on_from_the_last_counted_one(table):
    _, owner, session = table
    record_hands(session, owner, BENXI_EXAMPLE[:3])
    services.hand_void(session=session, user=owner, number=3, reason="entered twice")
    flat = services.hand_preview_next(session=session, hand_input=BENXI_EXAMPLE[2], lang="en")
    full = services.hand_preview(session=session, hand_input=BENXI_EXAMPLE[2], lang="en")
    assert flat["hands"][0]["n"] == 4
    assert flat["hands"] == full["hands"][-1:] and flat["totals"] == full["totals"]


# The seats with the stored state of the last hand and the last number: one query, at hand 6 as at hand 51.
@pytest.mark.parametrize("n", [5, 50])
def test_the_preview_costs_the_same_queries_however_long_the_session(table, n, django_assert_num_queries):
    _, owner, session = table
    record_hands(session, owner, _hands(n))
    with django_assert_num_queries(1):
        services.hand_preview_next(session=session, hand_input=BENXI_EXAMPLE[n % 5], lang="en")


@pytest.mark.parametrize("n", [0, 5, 50])
def test_the_preview_from_a_reads_seats_and_state_asks_nothing_more_and_answers_the_same(
    table, n, django_assert_num_queries
):
    _, owner, session = table
    record_hands(session, owner, _hands(n))
    hand = BENXI_EXAMPLE[n % 5]
    record = session_results(session=session, lang="en", limit=20)
    with django_assert_num_queries(0):
        given = services.hand_preview_next(
            session=session, hand_input=hand, lang="en", players=record.players, following=record.following
        )
    assert given == services.hand_preview_next(session=session, hand_input=hand, lang="en")
    assert given["hands"][0]["n"] == n + 1


GOLDEN = [path for path in sorted(SHARED_GOLDEN.glob("*.json")) if "expect" in json.loads(path.read_text("utf-8"))]


@pytest.mark.parametrize("path", GOLDEN, ids=[path.stem for path in GOLDEN])
def test_every_worked_sessions_hands_preview_as_the_full_replay_does(path):
    """Levels, tribute, rounds and every variant's state: hand by hand, the flat preview is the full replay's."""
    document = json.loads(path.read_text("utf-8"))["input"]
    club = make_club()
    owner = make_member(club)
    first = document | {"hands": document["hands"][:1]}
    session = services.session_import(club=club, user=owner, document=first, close=False).session
    for hand in document["hands"][1:]:
        flat = services.hand_preview_next(session=session, hand_input=hand, lang="en")
        full = services.hand_preview(session=session, hand_input=hand, lang="en")
        assert flat["hands"] == full["hands"][-1:]
        assert flat["games"] == [g for g in full["games"] if g["n"] >= flat["hands"][0]["game"]]
        assert [flat[key] for key in ("totals", "games_won", "settle_up")] == [
            full[key] for key in ("totals", "games_won", "settle_up")
        ]
        services.hand_record(session=session, user=owner, hand_input=hand)
