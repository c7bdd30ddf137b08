"""Reading the ledger: a club's sessions with filters and totals, a session's record, in constant queries."""

from __future__ import annotations

import datetime

import pytest

from settlement import selectors, services
from settlement.models import Role, Session
from tests.factories import BENXI_EXAMPLE, make_club, make_history, make_member, make_session, make_user, record_hands

pytestmark = pytest.mark.django_db

D = datetime.date


@pytest.fixture
def club_with_history():
    club = make_club()
    owner = make_member(club)
    wang, a, b, c = make_history(club, owner)
    return club, owner, wang, a, b, c


def test_club_sessions_are_newest_first_with_players_and_totals(club_with_history):
    club, _, _, a, b, c = club_with_history
    summaries = selectors.club_sessions(club=club)
    assert [s.session for s in summaries] == [c, b, a]
    assert [s.hands for s in summaries] == [0, 1, 5]
    assert [seat.total for seat in summaries[2].seats] == [315, 230, 315, 230]
    assert [seat.games_won for seat in summaries[2].seats] == [1, 1, 1, 1]
    assert [seat.total for seat in summaries[1].seats] == [1, -1, 1, -1]
    assert [seat.player.name for seat in summaries[1].seats] == ["甲", "老王", "丙", "丁"]
    assert [seat.total for seat in summaries[0].seats] == [0, 0, 0, 0]


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        ({"date_from": D(2026, 11, 8)}, ["c", "b"]),
        ({"date_to": D(2026, 11, 8)}, ["b", "a"]),
        ({"date_from": D(2026, 11, 2), "date_to": D(2026, 11, 14)}, ["b"]),
        ({"variant": "baifen.classic"}, ["b"]),
        ({"variant": "baifen.benxi"}, ["c", "a"]),
        ({"status": Session.Status.CLOSED}, ["a"]),
        ({"status": Session.Status.OPEN}, ["c", "b"]),
        ({"limit": 1}, ["c"]),
    ],
)
def test_club_sessions_filter(club_with_history, filters, expected):
    club, _, _, a, b, c = club_with_history
    names = {a.pk: "a", b.pk: "b", c.pk: "c"}
    assert [names[s.session.pk] for s in selectors.club_sessions(club=club, **filters)] == expected


def test_club_sessions_filter_by_player(club_with_history):
    club, _, wang, a, b, _ = club_with_history
    assert [s.session for s in selectors.club_sessions(club=club, player=wang)] == [b, a]


def test_club_sessions_never_shows_another_clubs_sessions(club_with_history):
    other = make_club()
    make_session(other, make_member(other))
    club = club_with_history[0]
    assert all(s.session.club_id == club.pk for s in selectors.club_sessions(club=club))


def test_club_sessions_costs_four_queries_however_many_sessions(club_with_history, django_assert_num_queries):
    club, owner = club_with_history[:2]
    with django_assert_num_queries(4):
        selectors.club_sessions(club=club)
    for day in range(1, 8):
        record_hands(make_session(club, owner, date=D(2026, 10, day)), owner, BENXI_EXAMPLE[:2])
    with django_assert_num_queries(4):
        assert len(selectors.club_sessions(club=club)) == 10


def test_session_results_cost_three_queries_however_many_hands(django_assert_num_queries):
    club = make_club()
    owner = make_member(club)
    short, long = make_session(club, owner), make_session(club, owner)
    record_hands(short, owner, BENXI_EXAMPLE[:1])
    record_hands(long, owner, BENXI_EXAMPLE * 4)
    services.hand_correct(
        session=long, user=owner, number=7, hand_input=BENXI_EXAMPLE[0] | {"captured": 10}, reason="x"
    )
    for session in (short, long):
        with django_assert_num_queries(2):  # seats with the last state, the revisions with their states
            record = selectors.session_results(session=session, lang="en")
    assert len(record.hands) == 20 and record.hands[6].is_corrected


def test_session_results_render_receipts_in_the_asked_language():
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE[:1])
    en = selectors.session_results(session=session, lang="en").results["hands"][0]["steps"]
    zh = selectors.session_results(session=session, lang="zh-hans").results["hands"][0]["steps"]
    assert en[0] == "bid 80 + captured 15 = 95 ≤ 100: made"
    assert zh[0] == "叫分 80 + 抓分 15 = 95 ≤ 100：成"


def test_hand_history_lists_every_revision_with_who_when_why():
    club = make_club()
    owner = make_member(club)
    keeper = make_member(club, Role.SCOREKEEPER)
    session = make_session(club, owner)
    record_hands(session, keeper, BENXI_EXAMPLE[:2])
    services.hand_void(session=session, user=owner, number=1, reason="wrong table")
    history = selectors.hand_history(session=session)
    assert [(r.hand, r.number, r.kind, r.author, r.reason) for r in history] == [
        (1, 1, "record", keeper.username, ""),
        (1, 2, "void", owner.username, "wrong table"),
        (2, 1, "record", keeper.username, ""),
    ]
    assert history[1].input is None and history[1].created_at >= history[0].created_at


def test_user_clubs_carry_the_users_role():
    one, two, three = make_club("B"), make_club("A"), make_club("C")
    user = make_member(one, Role.VIEWER)
    make_member(two, Role.OWNER, user=user)
    make_member(three)  # someone else's club
    clubs = list(selectors.user_clubs(user=user))
    assert [(c.name, c.role) for c in clubs] == [("A", "owner"), ("B", "viewer")]
    assert list(selectors.user_clubs(user=make_user())) == []
