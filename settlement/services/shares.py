"""Share links: making and revoking the read-only link to a session's table (`/s/<token>/`).

Owners and scorekeepers only, one transaction each. A link's token is 192 random bits
(`secrets.token_urlsafe(24)`), unguessable, so it needs no rate limit of its own; it is stored as it
is (see `ShareLink`). Finding a link by its token is `selectors.share_find`.
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone

from .. import policy
from ..models import Session, ShareLink
from .common import User

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
