"""Share links: a session's table, read-only, for the players' phones and a TV (`/s/<token>/`).

Writes (`share_create`, `share_revoke`: owners and scorekeepers, one transaction each) and reads
(`share_active`, `share_find`, `share_qr_svg`). What the share page shows comes from
`selectors.table_view`, the same read as the scorekeeper's table page: nothing is settled here.

A link's token is 192 random bits (`secrets.token_urlsafe(24)`), unguessable, so it needs no
rate limit of its own; it is stored as it is (see `ShareLink`).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import segno
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from . import policy
from .models import HandRevision, Session, ShareLink

User = AbstractBaseUser | AnonymousUser

TOKEN_BYTES = 24  # 192 bits; token_urlsafe gives 32 characters
TOKEN_MAX_LENGTH = 64
# Part of every ETag: a change to what the share page shows (a template, a figure) changes it too.
SHARE_VERSION = "1"


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
            created_by=user if user.is_authenticated else None,
        )


def share_revoke(*, session: Session, user: User) -> int:
    """Revoke the session's link: it is a 404 from now on. How many were revoked (0 or 1)."""
    with transaction.atomic():
        policy.require_write(user=user, club_id=session.club_id)
        return ShareLink.objects.filter(session=session, revoked_at__isnull=True).update(revoked_at=timezone.now())


def share_active(*, session: Session) -> ShareLink | None:
    """The session's link that works, if any (one query)."""
    return ShareLink.objects.filter(session=session, revoked_at__isnull=True).first()


@dataclass(frozen=True, kw_only=True)
class SharedSession:
    """A working link with its session (and club), and what the session's figures depend on."""

    link: ShareLink
    session: Session
    latest_revision: int  # the newest revision's id: every record, correction and void makes a new one

    def etag(self, *, lang: str, view: str) -> str:
        """The validator of what the share page shows: the log's newest revision, the session's
        status (close, reopen) and the reader's language and layout."""
        closed = self.session.closed_at.timestamp() if self.session.closed_at else 0
        parts = (SHARE_VERSION, self.session.pk, self.latest_revision, self.session.status, closed, lang, view)
        return '"' + "-".join(str(part) for part in parts) + '"'


def share_find(*, token: str) -> SharedSession | None:
    """The session a working token opens, or None: one query, by the token's unique index.

    Revision ids only grow (the log is append-only), so the newest one changes with every write
    to the session's hands; reading it is the same query, and all a poll that finds nothing new costs.
    """
    if not token or len(token) > TOKEN_MAX_LENGTH:
        return None
    newest = HandRevision.objects.filter(hand__session=OuterRef("session_id")).order_by("-id").values("id")[:1]
    link = (
        ShareLink.objects.select_related("session", "session__club")
        .annotate(latest_revision=Subquery(newest))
        .filter(token=token, revoked_at__isnull=True)
        .first()
    )
    if link is None:
        return None
    return SharedSession(link=link, session=link.session, latest_revision=link.latest_revision or 0)


def share_qr_svg(*, url: str, title: str = "") -> str:
    """The link as a QR code, an inline SVG drawn here (no outside service): black on white with
    the standard 4-module quiet zone, so it scans on a dark page too; sized by CSS."""
    qr = segno.make(url, error="m", micro=False)
    return qr.svg_inline(
        scale=1, border=4, svgclass="qr", lineclass=None, omitsize=True, light="#fff", title=title or None
    )
