"""The director's actions on an event's rounds: finishing the event, letting a round's late hands in, a substitute
playing a seat for a round (whose result it is, the event says)."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from settlement import selectors, services
from settlement.ledger import LedgerError
from settlement.models import Change, Event, Role, Session
from settlement.rules.draws import Seating
from tests.factories import make_club, make_member

pytestmark = pytest.mark.django_db

VARIANT = "baifen.benxi"


@pytest.fixture
def club():
    return make_club()


@pytest.fixture
def owner(club):
    return make_member(club)


def _event(club, owner, count=8, **fields):
    return services.event_create(
        club=club, user=owner, name="周五晚", variant=VARIANT, players=[f"P{i}" for i in range(count)], **fields
    )


def _ids(event):
    """The players' ids in check-in order: P0, P1, …"""
    return list(event.players.order_by("id").values_list("player_id", flat=True))


def _manual(event, owner, tables, out=(), **kwargs):
    ids = _ids(event)
    seating = Seating(tables=tuple(tuple(ids[i] for i in t) for t in tables), sitting_out=tuple(ids[i] for i in out))
    return services.round_draw(event=event, user=owner, draw="manual", seating=seating, **kwargs)


def _kinds(club):
    return list(Change.objects.filter(club=club).order_by("pk").values_list("kind", flat=True))


# --- finishing the event ---


def test_finishing_with_open_tables_is_refused_naming_close_open_and_changes_nothing(club, owner):
    event = _event(club, owner)
    services.round_draw(event=event, user=owner, draw="random", seed=1)
    with pytest.raises(LedgerError) as refused:
        services.event_finish(event=event, user=owner)
    assert (refused.value.code, refused.value.field) == ("round.tables_open", "close_open")
    event.refresh_from_db()
    assert event.state == Event.State.RUNNING
    assert Session.objects.filter(event_table__round__event=event, status=Session.Status.OPEN).count() == 2


def test_finishing_with_close_open_closes_the_tables_ends_the_round_and_notes_the_feed(club, owner):
    event = _event(club, owner)
    drawn = services.round_draw(event=event, user=owner, draw="random", seed=1)
    services.event_finish(event=event, user=owner, close_open=True)
    event.refresh_from_db()
    drawn.refresh_from_db()
    assert event.state == Event.State.FINISHED
    assert drawn.ended_at is not None
    assert Session.objects.filter(event_table__round__event=event, status=Session.Status.OPEN).count() == 0
    assert _kinds(club)[-1] == "event.finished"
    assert selectors.event_standings(event=event).final is True


def test_finishing_twice_leaves_the_event_as_it_is_and_notes_the_feed_once(club, owner):
    event = _event(club, owner)
    services.event_finish(event=event, user=owner)
    services.event_finish(event=event, user=owner)
    assert _kinds(club).count("event.finished") == 1


@pytest.mark.parametrize(
    "write",
    [
        lambda e, u, p: services.event_check_in(event=e, user=u, players=["晚到"]),
        lambda e, u, p: services.round_draw(event=e, user=u, draw="random", close_open=True),
        lambda e, u, p: services.adjustment_add(event=e, user=u, player=p, kind="penalty", amount=5, reason="超时"),
        lambda e, u, p: services.event_player_leave(event=e, user=u, player=p),
    ],
    ids=["check-in", "draw", "adjustment", "leave"],
)
def test_after_the_finish_nothing_more_is_checked_in_drawn_or_adjusted(club, owner, write):
    event = _event(club, owner)
    services.round_draw(event=event, user=owner, draw="random", seed=1)
    services.event_finish(event=event, user=owner, close_open=True)
    player = event.players.first().player
    with pytest.raises(LedgerError) as refused:
        write(event, owner, player)
    assert (refused.value.code, refused.value.field) == ("event.finished", "event")


def test_a_viewer_cannot_finish_the_event(club, owner):
    event = _event(club, owner)
    with pytest.raises(PermissionDenied):
        services.event_finish(event=event, user=make_member(club, Role.VIEWER))


def test_the_standings_are_not_final_while_the_event_runs(club, owner):
    event = _event(club, owner)
    assert selectors.event_standings(event=event).final is False


# --- late hands ---


def test_allowing_late_hands_notes_the_feed_once_per_change(club, owner):
    event = _event(club, owner, late_hands="refused")
    services.round_draw(event=event, user=owner, draw="random", seed=1, length_minutes=30)
    services.round_late_allow(event=event, user=owner, n=1, allowed=True)
    services.round_late_allow(event=event, user=owner, n=1, allowed=True)  # as it is: nothing new
    services.round_late_allow(event=event, user=owner, n=1, allowed=False)
    assert _kinds(club).count("event.late_allowed") == 2
    assert event.rounds.get(n=1).late_allowed is False


def test_late_hands_for_a_round_not_drawn_are_refused_naming_the_round(club, owner):
    event = _event(club, owner)
    with pytest.raises(LedgerError) as refused:
        services.round_late_allow(event=event, user=owner, n=3, allowed=True)
    assert (refused.value.code, refused.value.field) == ("round.not_found", "round")
