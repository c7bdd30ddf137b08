"""Making and revoking share links (services/shares.py): the session's one working link, and only its own.

What the link shows is tested in tests/web/test_share.py.
"""

from __future__ import annotations

import base64
import datetime

import pytest
from django.core.exceptions import PermissionDenied

from settlement import services
from settlement.models import Role, ShareLink
from tests.factories import make_club, make_member, make_session

pytestmark = pytest.mark.django_db


def test_a_token_is_24_random_bytes_in_url_safe_base64(owner):
    """192 bits, as the module says: 24 bytes are 32 base64 characters, with no padding."""
    club, user = owner
    token = services.share_create(session=make_session(club, user), user=user).token
    assert len(token) == 32
    assert len(base64.urlsafe_b64decode(token)) == 24


def test_the_maker_is_kept(owner):
    club, user = owner
    link = services.share_create(session=make_session(club, user), user=user)
    assert ShareLink.objects.get(pk=link.pk).created_by == user


def test_a_link_revoked_earlier_keeps_the_moment_it_was_revoked(owner):
    club, user = owner
    session = make_session(club, user)
    first = services.share_create(session=session, user=user)
    services.share_create(session=session, user=user)
    revoked_at = ShareLink.objects.get(pk=first.pk).revoked_at
    assert revoked_at is not None
    ShareLink.objects.filter(pk=first.pk).update(revoked_at=revoked_at - datetime.timedelta(days=1))
    services.share_create(session=session, user=user)
    services.share_revoke(session=session, user=user)
    assert ShareLink.objects.get(pk=first.pk).revoked_at == revoked_at - datetime.timedelta(days=1)
    assert not ShareLink.objects.filter(session=session, revoked_at__isnull=True).exists()


def test_revoking_counts_the_link_it_revoked_and_nothing_the_second_time(owner):
    club, user = owner
    session = make_session(club, user)
    services.share_create(session=session, user=user)
    services.share_create(session=session, user=user)  # the first is revoked by the second
    assert services.share_revoke(session=session, user=user) == 1
    assert services.share_revoke(session=session, user=user) == 0


def test_revoking_one_sessions_link_leaves_the_others_working(owner):
    club, user = owner
    session, other = make_session(club, user), make_session(club, user)
    stranger_club = make_club("西城俱乐部")
    stranger = make_member(stranger_club)
    kept = [
        services.share_create(session=other, user=user),
        services.share_create(session=make_session(stranger_club, stranger), user=stranger),
    ]
    services.share_create(session=session, user=user)
    services.share_revoke(session=session, user=user)
    assert all(ShareLink.objects.get(pk=link.pk).revoked_at is None for link in kept)


@pytest.mark.parametrize("role", [Role.VIEWER, None])
def test_a_reader_or_a_stranger_can_neither_make_nor_revoke_a_link(owner, role):
    club, user = owner
    session = make_session(club, user)
    link = services.share_create(session=session, user=user)
    reader = make_member(club, role) if role else make_member(make_club("西城俱乐部"))
    with pytest.raises(PermissionDenied):
        services.share_create(session=session, user=reader)
    with pytest.raises(PermissionDenied):
        services.share_revoke(session=session, user=reader)
    assert list(ShareLink.objects.filter(session=session)) == [link]
    assert ShareLink.objects.get(pk=link.pk).revoked_at is None
