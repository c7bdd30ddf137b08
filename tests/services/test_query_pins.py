"""What recording, a correction, a void and an import cost in queries: the same for 5 hands or 18 (no query per
hand)."""

from __future__ import annotations

import pytest

from settlement import services
from settlement.models import GameRow
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_session, record_hands

pytestmark = pytest.mark.django_db


def _hands(n):
    return (BENXI_EXAMPLE * n)[:n]


@pytest.fixture
def owner():
    club = make_club()
    return club, make_member(club)


def _session(owner, n):
    club, user = owner
    session = make_session(club, user)
    record_hands(session, user, _hands(n))
    return session, user


# Pinned, savepoint and release included: a query per hand, or one more query at all, fails here.
# record: session (locked, with the user's role), seats, the last hand's stored state with the last number, the
# hand, its revision, the game in progress's rows (delete), then the settlement, game and state rows (an appended
# hand is the last: nothing after it to delete), the session's `updated_at`. No rating moves while the game plays on.
# correct / void: session (locked, with the user's role), the revisions from the changed hand on, seats, the
# stored state before it, the revision, 3 × (delete + insert) derived rows (settlement rows, game rows, hand
# states), the session's `updated_at` (its latest write, for the API's sync).
# import: role, players, new guests (insert, read), session, seats, hands (insert, read their ids), revisions,
# 3 inserts of derived rows (`bulk.py`: one executemany a table, so no parameter limit: 600 hands too).
# Each then rebuilds the family's ratings from the session on (ratings.py): lock the club, the sessions from this one
# on, delete their rating rows, each player's last rating before them, their game rows, insert the new ratings.
QUERIES = {"record": 2 + 10, "correct": 13 + 6 + 1, "void": 13 + 6 + 1, "import": 14 + 6}


@pytest.mark.parametrize(
    ("n", "finishes", "queries"),
    [(5, False, QUERIES["record"]), (17, False, QUERIES["record"]), (18, True, QUERIES["record"] + 6)],
)
def test_recording_a_hand_costs_a_fixed_number_of_queries(owner, n, finishes, queries, django_assert_num_queries):
    """A hand that plays a game on moves no rating; one that finishes it rebuilds them (the six queries above)."""
    session, user = _session(owner, n)
    with django_assert_num_queries(queries):
        write = services.hand_record(session=session, user=user, hand_input=BENXI_EXAMPLE[n % 5])
    assert GameRow.objects.filter(session=session, last_hand=write.hand.number, finished=True).exists() == finishes


@pytest.mark.parametrize("n", [5, 18])
def test_a_correction_costs_a_fixed_number_of_queries(owner, n, django_assert_num_queries):
    session, user = _session(owner, n)
    hand = BENXI_EXAMPLE[0] | {"captured": 10}
    with django_assert_num_queries(QUERIES["correct"]):
        services.hand_correct(session=session, user=user, number=1, hand_input=hand, reason="10, not 15")


@pytest.mark.parametrize("n", [5, 18])
def test_a_void_costs_a_fixed_number_of_queries(owner, n, django_assert_num_queries):
    session, user = _session(owner, n)
    with django_assert_num_queries(QUERIES["void"]):
        services.hand_void(session=session, user=user, number=1, reason="entered twice")


@pytest.mark.parametrize("n", [5, 18, 600])
def test_an_import_costs_a_fixed_number_of_queries(owner, n, django_assert_num_queries):
    club, user = owner
    document = {"variant": "baifen.benxi", "players": ["甲", "乙", "丙", "丁"], "hands": _hands(n)}
    with django_assert_num_queries(QUERIES["import"]):
        services.session_import(club=club, user=user, document=document)
