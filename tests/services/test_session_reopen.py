"""Closing and reopening a session: owners may reopen; both are kept in the session's audit trail."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from settlement import selectors, services
from settlement.models import Role, SessionEvent
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_session, record_hands

pytestmark = pytest.mark.django_db


def _events(session):
    return [(e.kind, e.user.get_username()) for e in selectors.session_events(session=session)]


def test_an_owner_reopens_a_closed_session_and_both_steps_are_kept():
    club = make_club()
    owner = make_member(club)
    keeper = make_member(club, Role.SCOREKEEPER)
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE[:2])
    services.session_close(session=session, user=keeper)
    session = services.session_reopen(session=session, user=owner)
    assert session.is_open and session.closed_at is None
    assert _events(session) == [("closed", keeper.get_username()), ("reopened", owner.get_username())]
    # Open again: the next hand is recorded as hand 3.
    write = services.hand_record(session=session, user=keeper, hand_input=BENXI_EXAMPLE[2])
    assert write.hand.number == 3


@pytest.mark.parametrize("role", [Role.SCOREKEEPER, Role.VIEWER])
def test_only_an_owner_may_reopen(role):
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    services.session_close(session=session, user=owner)
    with pytest.raises(PermissionDenied):
        services.session_reopen(session=session, user=make_member(club, role))
    session.refresh_from_db()
    assert not session.is_open
    assert _events(session) == [("closed", owner.get_username())]


def test_reopening_an_open_session_or_closing_a_closed_one_writes_nothing():
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    services.session_reopen(session=session, user=owner)
    services.session_close(session=session, user=owner)
    services.session_close(session=session, user=owner)
    assert SessionEvent.objects.filter(session=session).count() == 1


def test_the_audit_rows_cannot_be_changed():
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    services.session_close(session=session, user=owner)
    event = SessionEvent.objects.get(session=session)
    with pytest.raises(ValueError):
        event.save()
    with pytest.raises(ValueError):
        event.delete()


def test_the_closing_is_kept_at_the_moment_the_session_closed():
    club = make_club()
    owner = make_member(club)
    session = services.session_close(session=make_session(club, owner), user=owner)
    event = SessionEvent.objects.get(session=session)
    assert (event.kind, event.created_at) == (SessionEvent.Kind.CLOSED, session.closed_at)
