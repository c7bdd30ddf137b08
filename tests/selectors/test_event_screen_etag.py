"""The big screen's ETag (`event_pages.event_screen_etag`): the event's stored `version`, moved on by every event
write in its transaction, and its tables' sessions' versions, read in one query whatever the tables; every kind of
write the screen shows changes it."""

from __future__ import annotations

import pytest

from settlement import selectors, services
from settlement.ledger import LedgerError
from settlement.models import Event, EventPlayer, Player
from settlement.selectors import event_pages
from tests.factories import BENXI_EXAMPLE, make_club, make_member, record_hands

pytestmark = pytest.mark.django_db


@pytest.fixture
def setting():
    """An event of eight at two tables (round 1 drawn, its clock ten minutes), and a late arrival not drawn yet."""
    club = make_club()
    owner = make_member(club)
    event = services.event_create(
        club=club, user=owner, name="周五晚", variant="baifen.benxi", players=[f"P{i}" for i in range(8)]
    )
    services.round_draw(event=event, user=owner, draw="balanced", seed=3, length_minutes=10)
    services.event_check_in(event=event, user=owner, players=["晚到"])
    return club, owner, Event.objects.get(pk=event.pk)


def _table(event, number=1):
    return event.rounds.get(n=1).tables.get(number=number).session


def _seated(event):
    return _table(event).seats.order_by("seat").first().player


def _league(club, owner, event):
    league = services.league_create(club=club, user=owner, name="冬季联赛", unit="分")
    services.league_event_add(league=league, user=owner, event=event)


def _rename_the_late_arrival(club, owner, event):
    services.player_rename(player=Player.objects.get(club=club, name="晚到"), user=owner, name="晚来的")


# (what is written, whether it is an event write: its `version` moves; else only a table's session's does)
WRITES = {
    "check-in": (lambda c, o, e: services.event_check_in(event=e, user=o, players=["又一个"]), True),
    "leaving": (lambda c, o, e: services.event_player_leave(event=e, user=o, player=_seated(e)), True),
    "round drawn": (lambda c, o, e: services.round_draw(event=e, user=o, draw="random", close_open=True), True),
    "late hands allowed": (lambda c, o, e: services.round_late_allow(event=e, user=o, n=1), True),
    "adjustment": (
        lambda c, o, e: services.adjustment_add(
            event=e, user=o, player=_seated(e), kind="penalty", amount=3, reason="迟到"
        ),
        True,
    ),
    "substitute": (
        lambda c, o, e: services.substitute_seat(event=e, user=o, round_n=1, absent=_seated(e), substitute="李娜"),
        True,
    ),
    "finish": (lambda c, o, e: services.event_finish(event=e, user=o, close_open=True), True),
    "added to a league": (_league, True),
    "a player renamed": (_rename_the_late_arrival, True),
    "hand recorded": (lambda c, o, e: record_hands(_table(e), o, BENXI_EXAMPLE[:1]), False),
    "table closed": (lambda c, o, e: services.session_close(session=_table(e, 2), user=o), False),
}


@pytest.mark.parametrize("write", WRITES)
def test_every_kind_of_write_the_screen_shows_changes_the_etag(setting, write):
    club, owner, event = setting
    before = event_pages.event_screen_etag(event=event, lang="zh-hans")
    version = event.version
    action, event_write = WRITES[write]
    action(club, owner, event)
    assert event_pages.event_screen_etag(event=event, lang="zh-hans") != before
    assert Event.objects.get(pk=event.pk).version == version + (1 if event_write else 0)


def test_the_etag_stays_while_nothing_is_written_and_names_the_language(setting):
    _, _, event = setting
    first = event_pages.event_screen_etag(event=event, lang="zh-hans")
    selectors.event_standings(event=event)  # a read writes nothing
    assert event_pages.event_screen_etag(event=event, lang="zh-hans") == first
    assert event_pages.event_screen_etag(event=event, lang="en") != first


def test_a_write_refused_leaves_the_version_as_it_was(setting):
    _, owner, event = setting
    version = event.version
    with pytest.raises(LedgerError):
        services.adjustment_add(event=event, user=owner, player=_seated(event), kind="penalty", amount=0, reason="x")
    assert Event.objects.get(pk=event.pk).version == version


def test_each_event_write_moves_the_version_on_by_one(setting):
    _, owner, event = setting
    # Made (1), round 1 drawn (2), the late arrival checked in (3): the fixture's writes.
    assert event.version == 3
    services.adjustment_add(event=event, user=owner, player=_seated(event), kind="award", amount=2, reason="风度")
    assert Event.objects.get(pk=event.pk).version == 4
    assert EventPlayer.objects.filter(event=event).count() == 9


@pytest.mark.parametrize("count", [8, 40])
def test_the_etag_is_one_query_whatever_the_tables(count, django_assert_num_queries):
    club = make_club()
    owner = make_member(club)
    event = services.event_create(
        club=club, user=owner, name="周五晚", variant="baifen.benxi", players=[f"P{i}" for i in range(count)]
    )
    services.round_draw(event=event, user=owner, draw="balanced", seed=3)
    with django_assert_num_queries(1):
        event_pages.event_screen_etag(event=event, lang="zh-hans")


def test_taking_the_event_out_of_its_league_changes_the_etag(setting):
    club, owner, event = setting
    league = services.league_create(club=club, user=owner, name="冬季联赛", unit="分")
    services.league_event_add(league=league, user=owner, event=event)
    event = Event.objects.get(pk=event.pk)
    before = event_pages.event_screen_etag(event=event, lang="zh-hans")
    services.league_event_remove(league=league, user=owner, event=event)
    assert event_pages.event_screen_etag(event=event, lang="zh-hans") != before
    assert Event.objects.get(pk=event.pk).version == event.version + 1
