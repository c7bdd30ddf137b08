"""The share panel of the table page (the link, its QR code, make / revoke), the event page's for its big screen,
and a filter of the share page."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from ... import selectors
from ...presentation.qr import share_qr_svg

register = template.Library()


def _link(request: Any, url_name: str, link: Any) -> dict[str, Any]:
    """A share link's address and its QR code (`_share_link.html` shows both), or neither without a link."""
    url = request.build_absolute_uri(reverse(url_name, args=[link.token])) if link else ""
    return {"link": link, "share_url": url, "qr": share_qr_svg(url=url) if link else ""}


@register.inclusion_tag("settlement/share_panel.html", takes_context=True)
def share_panel(context: template.Context) -> dict[str, Any]:
    """The session's link with its QR code for the players to scan (one query); the buttons for writers."""
    request, session, membership = context["request"], context["session"], context["membership"]
    return {
        "request": request,
        "club": context["club"],
        "session": session,
        "membership": membership,
        **_link(request, "share", selectors.share_active(session=session)),
        "open": bool(request.GET.get("share")),
    }


@register.inclusion_tag("settlement/event_share_panel.html", takes_context=True)
def event_share_panel(context: template.Context) -> dict[str, Any]:
    """The event's big-screen link with its QR code for a TV in the room (one query); make / revoke for the
    director."""
    request, event = context["request"], context["event"]
    return {
        "request": request,
        "club": context["club"],
        "event": event,
        "can_direct": context.get("can_direct", False),
        **_link(request, "event_share", selectors.event_share_active(event=event)),
        "open": bool(request.GET.get("share")),
    }


@register.filter
def magnitude(value: Any) -> Any:
    """How far from 0 (a game total's progress to ±target)."""
    return abs(value) if isinstance(value, int) else value
