"""Share links: making and revoking the read-only link to a session's table (`/s/<token>/`), and to an event's big
screen (`/e/<token>/`, the event's director: `policy.may_direct`).

Owners and scorekeepers only, one transaction each. A link's token is 192 random bits
(`secrets.token_urlsafe(24)`), unguessable, so it needs no rate limit of its own; it is stored as it
is (see `ShareLink`). Finding a link by its token is `selectors.share_find` (`event_share_find`).
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone

from .. import policy
from ..models import Event, EventShareLink, Session, ShareLink
from .common import User
from .events import event_lock

TOKEN_BYTES = 24  # 192 bits; token_urlsafe gives 32 characters


def share_create(*, session: Session, user: User) -> ShareLink:
    """A new link for the session; the one it had stops working (at most one link is active)."""
    with transaction.atomic():
        # The session row's lock serializes two makers, as it serializes writers of hands.
        session = Session.objects.select_for_update(no_key=True).get(pk=session.pk)
        policy.require_write(user=user, club_id=session.club_id)
        ShareLink.objects.filter(session=session, revoked_at__isnull=True).update(revoked_at=timezone.now())
        return ShareLink.objects.create(
            session=session,
            token=secrets.token_urlsafe(TOKEN_BYTES),
            created_by=user,  # a writer: `require_write` refused anyone not logged in
        )


def share_revoke(*, session: Session, user: User) -> int:
    """Revoke the session's link: it is a 404 from now on. How many were revoked (0 or 1)."""
    with transaction.atomic():
        policy.require_write(user=user, club_id=session.club_id)
        return ShareLink.objects.filter(session=session, revoked_at__isnull=True).update(revoked_at=timezone.now())


def event_share_create(*, event: Event, user: User) -> EventShareLink:
    """A new link to the event's big screen; the one it had stops working (at most one link is active)."""
    with transaction.atomic():
        event = event_lock(event)  # serializes two makers, as it serializes the director's writes
        policy.require_direct(user=user, club_id=event.club_id)
        EventShareLink.objects.filter(event=event, revoked_at__isnull=True).update(revoked_at=timezone.now())
        return EventShareLink.objects.create(event=event, token=secrets.token_urlsafe(TOKEN_BYTES), created_by=user)


def event_share_revoke(*, event: Event, user: User) -> int:
    """Revoke the event's link: a 410 from now on. How many were revoked (0 or 1)."""
    with transaction.atomic():
        policy.require_direct(user=user, club_id=event.club_id)
        return EventShareLink.objects.filter(event=event, revoked_at__isnull=True).update(revoked_at=timezone.now())
