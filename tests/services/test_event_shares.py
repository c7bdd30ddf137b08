"""Making and revoking the link to an event's big screen (services/shares.py): the event's director only, one
working link an event, and only its own.

What the link shows is tested in tests/web/test_event_share_pages.py.
"""

from __future__ import annotations

import base64

import pytest
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction

from settlement import services
from settlement.models import EventShareLink, Role
from tests.factories import make_club, make_member

pytestmark = pytest.mark.django_db


def _event(club, user, name="周五晚赛"):
    return services.event_create(club=club, user=user, name=name, variant="baifen.benxi", players=["甲", "乙"])


def test_a_token_is_24_random_bytes_in_url_safe_base64_kept_with_its_maker(owner):
    club, user = owner
    link = services.event_share_create(event=_event(club, user), user=user)
    assert len(link.token) == 32 and len(base64.urlsafe_b64decode(link.token)) == 24
    assert EventShareLink.objects.get(pk=link.pk).created_by == user


@pytest.mark.parametrize("role", [Role.OWNER, Role.SCOREKEEPER])
def test_the_director_makes_a_link_and_a_new_one_replaces_it(owner, role):
    club, user = owner
    event = _event(club, user)
    director = user if role == Role.OWNER else make_member(club, role)
    first = services.event_share_create(event=event, user=director)
    second = services.event_share_create(event=event, user=director)
    assert first.token != second.token
    assert EventShareLink.objects.get(pk=first.pk).revoked_at is not None
    assert list(EventShareLink.objects.filter(event=event, revoked_at__isnull=True)) == [second]


def test_the_database_refuses_a_second_working_link(owner):
    club, user = owner
    event = _event(club, user)
    services.event_share_create(event=event, user=user)
    with pytest.raises(IntegrityError), transaction.atomic():
        EventShareLink.objects.create(event=event, token="another-token", created_by=user)


def test_revoking_counts_the_link_it_revoked_and_nothing_the_second_time(owner):
    club, user = owner
    event = _event(club, user)
    link = services.event_share_create(event=event, user=user)
    assert services.event_share_revoke(event=event, user=user) == 1
    assert services.event_share_revoke(event=event, user=user) == 0
    assert EventShareLink.objects.get(pk=link.pk).revoked_at is not None


def test_revoking_one_events_link_leaves_the_others_working(owner):
    club, user = owner
    event, other = _event(club, user), _event(club, user, "周六晚赛")
    kept = services.event_share_create(event=other, user=user)
    services.event_share_create(event=event, user=user)
    services.event_share_revoke(event=event, user=user)
    assert EventShareLink.objects.get(pk=kept.pk).revoked_at is None


@pytest.mark.parametrize("role", [Role.VIEWER, None])
def test_a_viewer_or_a_stranger_can_neither_make_nor_revoke_a_link(owner, role):
    club, user = owner
    event = _event(club, user)
    link = services.event_share_create(event=event, user=user)
    reader = make_member(club, role) if role else make_member(make_club("西城俱乐部"))
    with pytest.raises(PermissionDenied):
        services.event_share_create(event=event, user=reader)
    with pytest.raises(PermissionDenied):
        services.event_share_revoke(event=event, user=reader)
    assert list(EventShareLink.objects.filter(event=event)) == [link]
    assert EventShareLink.objects.get(pk=link.pk).revoked_at is None


def test_a_finished_events_screen_can_still_be_shared(owner):
    club, user = owner
    event = _event(club, user)
    services.event_finish(event=event, user=user)
    assert services.event_share_create(event=event, user=user).revoked_at is None


def test_making_and_revoking_a_link_cost_a_fixed_number_of_queries(owner, django_assert_num_queries):
    club, user = owner
    event = _event(club, user)
    # The savepoint and its release; the event locked, the director's role, the old link revoked, the new one.
    with django_assert_num_queries(2 + 4):
        services.event_share_create(event=event, user=user)
    # The savepoint and its release; the role, the link revoked.
    with django_assert_num_queries(2 + 2):
        services.event_share_revoke(event=event, user=user)
