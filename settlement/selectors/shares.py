"""Share links: the link a session has, and the session a token opens (the share page's reads); the same for an
event's big screen (`/e/<token>/`).

What the share page shows comes from `table.table_view`, the same read as the scorekeeper's table
page: nothing is settled here. Making and revoking links is `services.share_create` / `share_revoke`.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import OuterRef

from ..ledger import sql
from ..models import Event, EventShareLink, Session, ShareLink
from .event_pages import screen_etag, tables_version

TOKEN_MAX_LENGTH = 64
# Part of every ETag: a change to what the share page shows (a template, a figure) changes it too.
SHARE_VERSION = "1"


def share_active(*, session: Session) -> ShareLink | None:
    """The session's link that works, if any (one query)."""
    return ShareLink.objects.filter(session=session, revoked_at__isnull=True).first()


@dataclass(frozen=True, kw_only=True)
class SharedSession:
    """A working link with its session (and club)."""

    link: ShareLink
    session: Session

    def etag(self, *, lang: str, view: str) -> str:
        return share_etag(session_id=self.session.pk, version=self.session.version, lang=lang, view=view)


def share_etag(*, session_id: int, version: int, lang: str, view: str) -> str:
    """The validator of what the share page shows: the session's stored `version` (bumped by every write to it: a
    hand, a close or reopen, a seated player's rename or merge) and the reader's language and layout."""
    parts = (SHARE_VERSION, session_id, version, lang, view)
    return '"' + "-".join(str(part) for part in parts) + '"'


def share_etag_find(*, token: str, lang: str, view: str) -> tuple[int, str] | None:
    """The session a working token opens and its ETag (`share_etag`), or None: one statement and no model built,
    what a poll that finds nothing new costs (`share_find` reads the link, the session and the club)."""
    if not token or len(token) > TOKEN_MAX_LENGTH:
        return None
    found = sql.share_version(token=token)
    if found is None:
        return None
    session_id, version = found
    return session_id, share_etag(session_id=session_id, version=version, lang=lang, view=view)


def share_find(*, token: str) -> SharedSession | None:
    """The session a working token opens, or None: one query, by the token's unique index.

    The session's `version` comes with it, and the ETag is made of it (a poll asks `share_etag_find` first).
    """
    if not token or len(token) > TOKEN_MAX_LENGTH:
        return None
    link = (
        ShareLink.objects.select_related("session", "session__club")
        .filter(token=token, revoked_at__isnull=True)
        .first()
    )
    if link is None:
        return None
    return SharedSession(link=link, session=link.session)


def share_was_revoked(*, token: str) -> bool:
    """Whether `token` was a link that is revoked now (revoked, or replaced by a new link): asked only of a
    token that opens nothing, so that its viewers read "this link was revoked" rather than "no such page"."""
    if not token or len(token) > TOKEN_MAX_LENGTH:
        return False
    return ShareLink.objects.filter(token=token, revoked_at__isnull=False).exists()


def event_share_active(*, event: Event) -> EventShareLink | None:
    """The event's link that works, if any (one query)."""
    return EventShareLink.objects.filter(event=event, revoked_at__isnull=True).first()


@dataclass(frozen=True, kw_only=True)
class SharedEvent:
    """A working link to an event's big screen, with its event (and club) and its tables' version."""

    link: EventShareLink
    event: Event
    tables_version: int

    def etag(self, *, lang: str) -> str:
        """The big screen's validator (`event_pages.screen_etag`), the same as the members' screen: no query."""
        return screen_etag(
            event_id=self.event.pk, event_version=self.event.version, tables=self.tables_version, lang=lang
        )


def event_share_find(*, token: str) -> SharedEvent | None:
    """The event a working token opens, or None: one query, by the token's unique index, with the event's `version`
    and its tables' (all a poll that finds nothing new costs, whatever the number of tables)."""
    if not token or len(token) > TOKEN_MAX_LENGTH:
        return None
    link = (
        EventShareLink.objects.select_related("event", "event__club")
        .filter(token=token, revoked_at__isnull=True)
        .annotate(tables=tables_version(OuterRef("event_id")))
        .first()
    )
    if link is None:
        return None
    return SharedEvent(link=link, event=link.event, tables_version=link.tables)  # type: ignore[attr-defined]


def event_share_was_revoked(*, token: str) -> bool:
    """`share_was_revoked` for an event's link."""
    if not token or len(token) > TOKEN_MAX_LENGTH:
        return False
    return EventShareLink.objects.filter(token=token, revoked_at__isnull=False).exists()
