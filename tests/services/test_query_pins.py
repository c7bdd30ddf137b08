"""What every write costs in queries: recording, a correction, a void and an import the same for 5 hands or 18 (no
query per hand), the others the same for any number of seats or sessions."""

from __future__ import annotations

import pytest
from django.db import connection

from settlement import services
from settlement.ledger.ratings import FAMILIES
from settlement.models import GameRow
from tests.factories import BENXI_EXAMPLE, make_session, record_hands

pytestmark = pytest.mark.django_db


def _hands(n):
    return (BENXI_EXAMPLE * n)[:n]


def _session(owner, n):
    club, user = owner
    session = make_session(club, user)
    record_hands(session, user, _hands(n))
    return session, user


# Pinned, savepoint and release included: a query per hand, or one more query at all, fails here.
# record: session (locked, with the user's role), seats with the last hand's stored state and the last number, the
# hand and its revision (one INSERT on PostgreSQL, two on SQLite, which has no INSERT in a WITH), the game in
# progress's rows (delete), then the settlement, game and state rows (an appended hand is the last: nothing after it
# to delete), the session's `updated_at`. No rating moves while the game plays on.
# correct / void: session (locked, with the user's role), the revisions from the changed hand on, seats, the
# stored state before it, the revision, 3 × (delete + insert) derived rows (settlement rows, game rows, hand
# states), the session's `updated_at` (its latest write, for the API's sync).
# import: role, players, new guests (insert, read), session, seats, hands (insert, read their ids), revisions,
# 3 inserts of derived rows (`ledger/bulk.py`: one executemany a table, so no parameter limit: 600 hands too).
# Each then rebuilds the family's ratings from the session on (ledger/ratings.py): lock the club, the sessions from
# this one on, delete their rating rows, their game rows, their players' last ratings before them (one lookup a
# player, whatever the club's history), insert the new ratings.
# Each write of the club's sessions, hands and players ends with its change feed rows (`ledger/changes.py`): one
# insert, after the club's feed lock on PostgreSQL (SQLite's write transaction is the lock); an import appends the
# session's (and its guests') change, then every hand's in one INSERT … SELECT.
FEED = 2 if connection.vendor == "postgresql" else 1
HAND = 1 if connection.vendor == "postgresql" else 2
QUERIES = {
    "record": 2 + 7 + HAND + FEED,
    "correct": 13 + 6 + 1 + FEED,
    "void": 13 + 6 + 1 + FEED,
    "import": 14 + 6 + 2 * FEED,
}


@pytest.mark.parametrize(
    ("n", "finishes", "queries"),
    [(5, False, QUERIES["record"]), (17, False, QUERIES["record"]), (18, True, QUERIES["record"] + 5)],
)
def test_recording_a_hand_costs_a_fixed_number_of_queries(owner, n, finishes, queries, django_assert_num_queries):
    """A hand that plays a game on moves no rating; one that finishes it rates that game (`ratings_append`: lock the
    club, the later sessions of the family, delete the game's rating rows, its players' last ratings, insert)."""
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


# The other writes, each pinned too and the same however many seats, sessions or hands it touches. Each is one
# transaction: a savepoint and its release inside the test's transaction (2), then:
# open: the writer's role, the club's players, the new guests (insert, read back), the session, its seats.
# close / reopen: the session (locked, with the role), its status, the event, then the family's ratings from this
# session on (`RATINGS_FROM`: lock the club, the sessions from this one on, delete their rating rows, each player's
# last rating before them, their game rows, insert the new ratings).
# rename: the locks in the one order (`services.common`: the player's sessions, the club, the player with its
# club), the writer's role, the club's other names, the event, the name, the player's sessions' `version` bumped,
# their events' `version` bumped (the big screen's standings show the name).
# merge: the locks in the one order (the merged player's sessions, the club, both players with their club), the
# writer's role, a session both sat in, six updates (the sessions' `updated_at` and `version`, their events'
# `version`, seats, settlement rows, game rows, players merged into the merged one), the two players,
# the event; then every family's ratings from the start: the club's rating rows deleted, then per family the lock
# and its sessions (2), and for a family the club has sessions of, their rating rows deleted and their game rows
# read (2), the players' last ratings when those rows seat anyone (1) and the new ratings inserted when a game
# finished (1). Here: 本溪 sessions with finished games (the 打百分 family) and 标分 sessions with no hand yet.
# token create: the token. revoke: the token (locked), its revocation.
# share create: the session (locked), the writer's role, the old link revoked, the new one. revoke: the role, the
# link revoked.
RATINGS_FROM = 6
WRITES = {
    "open_guests": 2 + 6 + FEED,
    "open_known": 2 + 4 + FEED,
    "close": 2 + 3 + RATINGS_FROM + FEED,
    "reopen": 2 + 3 + RATINGS_FROM + FEED,
    "rename": 2 + 9 + FEED,
    "merge": 2 + 14 + 1 + 2 * len(FAMILIES) + (2 + 1 + 1) + 2 + FEED,
    "token_create": 2 + 1,
    "token_revoke": 2 + 2,
    "share_create": 2 + 4,
    "share_revoke": 2 + 2,
}


@pytest.mark.parametrize("variant_players", [("biaofen", 3), ("biaofen", 4)])
@pytest.mark.parametrize("known", [False, True])
def test_opening_a_session_costs_the_same_for_any_number_of_seats(
    owner, variant_players, known, django_assert_num_queries
):
    club, user = owner
    variant, seats = variant_players
    names = ["甲", "乙", "丙", "丁"][:seats]
    if known:
        services.session_open(club=club, user=user, variant=variant, players=names)
    with django_assert_num_queries(WRITES["open_known" if known else "open_guests"]):
        services.session_open(club=club, user=user, variant=variant, players=names)


@pytest.mark.parametrize("n", [5, 18])
def test_closing_and_reopening_cost_a_fixed_number_of_queries(owner, n, django_assert_num_queries):
    session, user = _session(owner, n)
    with django_assert_num_queries(WRITES["close"]):
        services.session_close(session=session, user=user)
    with django_assert_num_queries(WRITES["reopen"]):
        services.session_reopen(session=session, user=user)


def test_renaming_a_player_costs_a_fixed_number_of_queries(owner, django_assert_num_queries):
    session, user = _session(owner, 5)
    player = session.seats.get(seat=0).player
    with django_assert_num_queries(WRITES["rename"]):
        services.player_rename(player=player, user=user, name="戊")


@pytest.mark.parametrize("sessions", [1, 3])
def test_merging_players_costs_the_same_for_any_number_of_sessions(owner, sessions, django_assert_num_queries):
    club, user = owner
    for _ in range(sessions):
        record_hands(make_session(club, user), user, _hands(5))
    guest = services.session_open(club=club, user=user, variant="biaofen", players=["甲", "乙", "Guest"])
    merged = guest.seats.get(seat=2).player
    into = services.session_open(club=club, user=user, variant="biaofen", players=["甲", "乙", "Zhang"])
    into = into.seats.get(seat=2).player
    with django_assert_num_queries(WRITES["merge"]):
        services.player_merge(player=merged, into=into, user=user)


def test_making_and_revoking_a_token_cost_a_fixed_number_of_queries(owner, django_assert_num_queries):
    _, user = owner
    with django_assert_num_queries(WRITES["token_create"]):
        token, _ = services.api_token_create(user=user, name="phone")
    with django_assert_num_queries(WRITES["token_revoke"]):
        services.api_token_revoke(user=user, token_id=token.pk)


def test_making_and_revoking_a_share_link_cost_a_fixed_number_of_queries(owner, django_assert_num_queries):
    session, user = _session(owner, 5)
    services.share_create(session=session, user=user)
    with django_assert_num_queries(WRITES["share_create"]):
        services.share_create(session=session, user=user)
    with django_assert_num_queries(WRITES["share_revoke"]):
        services.share_revoke(session=session, user=user)
