"""The share panel of the table page (the link, its QR code, make / revoke) and a filter of the share page."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from ... import selectors
from ...presentation.qr import share_qr_svg

register = template.Library()


@register.inclusion_tag("settlement/share_panel.html", takes_context=True)
def share_panel(context: template.Context) -> dict[str, Any]:
    """The session's link with its QR code for the players to scan (one query); the buttons for writers."""
    request, session, membership = context["request"], context["session"], context["membership"]
    link = selectors.share_active(session=session)
    url = request.build_absolute_uri(reverse("share", args=[link.token])) if link else ""
    return {
        "request": request,
        "club": context["club"],
        "session": session,
        "membership": membership,
        "link": link,
        "share_url": url,
        "qr": share_qr_svg(url=url) if link else "",
        "open": bool(request.GET.get("share")),
    }


@register.filter
def magnitude(value: Any) -> Any:
    """How far from 0 (a game total's progress to ±target)."""
    return abs(value) if isinstance(value, int) else value
