"""Share pages: a session's table for anyone with the link (no login), and making and revoking links.

`/s/<token>/` is the page; `/s/<token>/live/` is its changing part as an HTML fragment that
share.js polls with If-None-Match. Why polling rather than a stream (SSE, a long poll): gunicorn
runs sync workers (WEB_CONCURRENCY, 2 by default), and a stream holds a worker for as long as a
viewer watches, so three phones at one table would stop the site. A poll that finds nothing new
is one indexed query and a 304 with no body (`bench/share_poll.py` measures it), and the worker
is free again at once. These are plain Django views, so the API's DRF throttles do not apply:
a table of phones polling every 2 s from one address must not be a 429.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import parse_etags
from django.utils.translation import get_language
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from .. import policy, selectors, services
from ..models import Session, engine_lang
from ..presentation.qr import share_qr_svg
from ..presentation.sessions import game_columns, game_label
from ..rules.registry import VARIANTS
from ..scoping import get_session_for_user
from .table import session_clock

TV = "tv"
# After a write every open share page misses at its next poll: the first one renders the fragment,
# the others of that worker get it from the cache under its ETag (which names everything it depends on).
LIVE_CACHE_SECONDS = 600


class LinkRevoked(Exception):
    """The token was a link, revoked since (or replaced by a new one): 410 Gone, with its own page."""


def _get_shared_for_token(token: str) -> selectors.SharedSession:
    shared = selectors.share_find(token=token)
    if shared is None:
        if selectors.share_was_revoked(token=token):
            raise LinkRevoked(token)
        raise Http404("no such link")
    return shared


def revoked_page(request: HttpRequest, *, explain: str = "") -> HttpResponse:
    """What a revoked link's viewers read (share.js stops following the table at this 410 and says so).

    `explain`: whom to ask for a new link, when it is not the table's (the event's big screen: the director).
    """
    ctx = {"explain": explain}
    return private_answer(render(request, "settlement/share_revoked.html", ctx, status=410))


def _layout(request: HttpRequest) -> str:
    return TV if request.GET.get("view") == TV else ""


def _share_context(request: HttpRequest, shared: selectors.SharedSession, layout: str) -> dict[str, Any]:
    session = shared.session
    view = selectors.table_view(session=session, lang=engine_lang(get_language()))
    last_game = view.last_game
    next_hand = view.entry if session.is_open and view.entry is not None and view.error is None else None
    return {
        "share_club": session.club,  # not `club`: base.html would show the members' navigation
        "session": session,
        "view": view,
        "results": view.results,
        "players": view.players,
        "rules": VARIANTS[session.variant],
        "has_games": view.has_games,
        "game_label": game_label(session.variant, view.game) if view.has_games else "",
        "last_game_label": game_label(session.variant, last_game["n"]) if last_game else "",
        "game_labels": {g["n"]: game_label(session.variant, g["n"]) for g in (view.results or {}).get("games", [])},
        "next_hand": next_hand,
        "target": (view.results or {}).get("options", {}).get("target"),
        "token": shared.link.token,
        "tv": layout == TV,
        "etag": shared.etag(lang=get_language(), view=layout),
        **game_columns(session.variant),
    }


def private_answer(response: HttpResponse) -> HttpResponse:
    """Always asked again (the figures change), never kept by a shared cache, never indexed or referred."""
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ("Cookie", "Accept-Language"))
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Referrer-Policy"] = "no-referrer"
    return response


@require_GET
def share_page(request: HttpRequest, token: str) -> HttpResponse:
    """The table for the players (`?view=tv`: for a TV or tablet). With JavaScript it follows the
    table by itself; without, a reload shows the newest figures."""
    try:
        shared = _get_shared_for_token(token)
    except LinkRevoked:
        return revoked_page(request)
    ctx = _share_context(request, shared, _layout(request))
    ctx["clock"] = session_clock(shared.session)  # the page only: the live part's queries stay as they are
    return private_answer(render(request, "settlement/share.html", ctx))


@require_GET
def share_live(request: HttpRequest, token: str) -> HttpResponse:
    """The page's changing part, or 304 when nothing changed: the 304 costs one query (the session's version, no
    model built), and so does the fragment another reader already fetched since the last write."""
    layout = _layout(request)
    found = selectors.share_etag_find(token=token, lang=get_language(), view=layout)
    if found is not None:
        session_id, etag = found
        if etag in parse_etags(request.headers.get("If-None-Match", "")):
            return _live_answer(None, etag)
        body = cache.get(f"share-live:{session_id}:{etag}")
        if body is not None:
            return _live_answer(body, etag)
    try:  # news nobody fetched yet, or a token that opens nothing (a 404, or a 410 when it was revoked)
        shared = _get_shared_for_token(token)
    except LinkRevoked:
        return private_answer(HttpResponse(status=410))
    etag = shared.etag(lang=get_language(), view=layout)
    body = render_to_string("settlement/share_live.html", _share_context(request, shared, layout), request)
    cache.set(f"share-live:{shared.session.pk}:{etag}", body, LIVE_CACHE_SECONDS)
    return _live_answer(body, etag)


def _live_answer(body: str | None, etag: str) -> HttpResponse:
    """The fragment `body` under `etag`, or a 304 (None: the reader has it)."""
    response = HttpResponseNotModified() if body is None else HttpResponse(body)
    response["ETag"] = etag
    return private_answer(response)


def _share_panel_url(slug: str, session: Session) -> str:
    """The table page with its share panel open, where a made or revoked link shows."""
    return reverse("table", args=[slug, session.pk]) + "?share=1#share"


@login_required
@require_POST
def share_create(request: HttpRequest, slug: str, session_id: int) -> HttpResponse:
    """Make the session's link (a new one when it had one: the old one stops working)."""
    _, session = get_session_for_user(request.user, session_id, slug)
    services.share_create(session=session, user=request.user)
    return redirect(_share_panel_url(slug, session))


@login_required
@require_http_methods(["GET", "POST"])
def share_revoke(request: HttpRequest, slug: str, session_id: int) -> HttpResponse:
    """GET asks to confirm (a page: no script needed); POST revokes the session's link."""
    membership, session = get_session_for_user(request.user, session_id, slug)
    if request.method == "GET":
        policy.deny_unless(policy.may_write(membership.role))
        link = selectors.share_active(session=session)
        if link is None:  # nothing to revoke (revoked meanwhile, from another device)
            return redirect(_share_panel_url(slug, session))
        ctx = {
            "club": membership.club,
            "membership": membership,
            "session": session,
            "share_url": request.build_absolute_uri(reverse("share", args=[link.token])),
            "cancel_url": _share_panel_url(slug, session),
        }
        return render(request, "settlement/share_revoke.html", ctx)
    services.share_revoke(session=session, user=request.user)
    return redirect(_share_panel_url(slug, session))


@login_required
def share_card(request: HttpRequest, slug: str, session_id: int) -> HttpResponse:
    """A card to print and put on the table: the QR code, the link and what it is."""
    membership, session = get_session_for_user(request.user, session_id, slug)
    link = selectors.share_active(session=session)
    if link is None:
        raise Http404("the session has no share link")
    url = request.build_absolute_uri(reverse("share", args=[link.token]))
    ctx = {
        "club": membership.club,
        "membership": membership,
        "session": session,
        "share_url": url,
        "qr": share_qr_svg(url=url),
    }
    return render(request, "settlement/share_card.html", ctx)
