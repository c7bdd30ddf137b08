"""An event's screens for the room: the big screen (every table's live totals and the standings, for a TV), the
printable table cards (each with its table's QR code, which opens that table's entry page) and the printable
final results.

The big screen follows the room as the share page follows a table (`web/share.py`: why polling): `share.js`
asks `screen/live/` every 2 s with the ETag it has; nothing new is a 304 after one query for the ETag (the event's
stored version and its tables', `event_pages.event_screen_etag`). The director makes a read-only link to it for a
TV in the room (`/e/<token>/`, no login, revocable, as a session's share link): the same screen, its poll one query.

A round of many tables moves the event's version several times a second, and the fragment reads every table's
standings (about 130 ms at 100 tables): rendered once a version, the screens' polls alone would keep a core busy.
So a new version is rendered at most once every `SCREEN_REFRESH_SECONDS` (the screens' own poll period) for each
event and language, whichever door and worker asks (the gate is in the shared cache); a poll in between gets the
newest render with that render's ETag (a 304 if it has it), and sees the rest at the next.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import parse_etags
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from .. import policy, selectors, services
from ..models import Club, Event, variant_label
from ..presentation.clock import round_clock
from ..presentation.qr import share_qr_svg
from ..selectors import event_pages
from .events import _get_event_for_user
from .share import LinkRevoked, private_answer, revoked_page

LIVE_CACHE_SECONDS = 600
SCREEN_REFRESH_SECONDS = 2  # share.js polls the big screen every 2 s: no screen sees news sooner anyway
# The most pairs and transfers the standings column shows (the rest: the event page and the printed results).
SCREEN_PAIRS = 8
SCREEN_TRANSFERS = 5


def _screen_context(club: Club, event: Event) -> dict[str, Any]:
    standings = selectors.event_standings(event=event)
    rounds = event_pages.event_rounds(event=event, standings=standings)
    current = rounds[-1] if rounds else None
    tables = current.tables if current else ()
    pair_rows = selectors.event_pair_standings(standings=standings)
    settle_up = selectors.event_settle_up(standings=standings)
    # The standings column shows as many rows as the screen holds (the rest are on the event page): the players,
    # fewer beside the pairs and the settle-up.
    top = (12 if len(tables) <= 4 else 10) - (6 if pair_rows else 0) - (4 if settle_up.zero_sum else 0)
    return {
        "screen_club": club,  # not `club`: the big screen has no club navigation
        "event": event,
        "variant_name": variant_label(event.variant),
        "standings": standings,
        "current": current,
        "tables": tables,
        "top": standings.rows[: max(top, 4)],
        "pair_top": pair_rows[: SCREEN_PAIRS - (3 if settle_up.zero_sum else 0)],
        "pair_count": len(pair_rows),
        "settle_up": settle_up,
        "transfers": settle_up.transfers[:SCREEN_TRANSFERS],
        "wide": len(tables) > 4,
        # The round clock, as the tables' own pages show it (clock.js counts down from it).
        "clock": round_clock(round=current.round if current else None, late_hands=event.late_hands, now=timezone.now()),
    }


def _fresh(response: HttpResponse) -> HttpResponse:
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ("Cookie", "Accept-Language"))
    return response


def screen_render_gate(*, event_id: int, lang: str) -> str:
    """The cache key held for `SCREEN_REFRESH_SECONDS` after the event's screen was rendered in `lang`."""
    return f"event-screen-gate:{event_id}:{lang}"


def _live(request: HttpRequest, *, event_id: int, etag: str, context: Callable[[], dict[str, Any]]) -> HttpResponse:
    """The fragment under `etag`, or 304 when the reader has it; a new version rendered once (`context()` read
    only then), whichever door asks, and at most once every `SCREEN_REFRESH_SECONDS` (before then, the newest
    render under its own ETag)."""
    asked = parse_etags(request.headers.get("If-None-Match", ""))
    if etag in asked:
        return _answer(None, etag)
    lang = get_language()
    key, newest_key = f"event-screen:{event_id}:{etag}", f"event-screen-newest:{event_id}:{lang}"
    found = cache.get_many([key, newest_key])
    if key in found:
        return _answer(found[key], etag)
    newest = found.get(newest_key)
    gate_open = cache.add(screen_render_gate(event_id=event_id, lang=lang), 1, SCREEN_REFRESH_SECONDS)
    if newest is not None and not gate_open:
        shown, body = newest
        return _answer(None if shown in asked else body, shown)
    body = render_to_string("settlement/event_screen_live.html", context(), request)
    cache.set_many({key: body, newest_key: (etag, body)}, LIVE_CACHE_SECONDS)
    return _answer(body, etag)


def _answer(body: str | None, etag: str) -> HttpResponse:
    """The fragment `body` under `etag`, or a 304 (None: the reader has it)."""
    response = HttpResponseNotModified() if body is None else HttpResponse(body)
    response["ETag"] = etag
    return response


@login_required
@require_GET
def event_screen(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """The big screen: without JavaScript a reload shows the newest figures; with it, it follows the room."""
    membership, event = _get_event_for_user(request, slug, event_id)
    ctx = _screen_context(membership.club, event)
    ctx["etag"] = event_pages.event_screen_etag(event=event, lang=get_language())
    ctx["live_url"] = reverse("event_screen_live", args=[slug, event.pk])
    return _fresh(render(request, "settlement/event_screen.html", ctx))


@login_required
@require_GET
def event_screen_live(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """The big screen's changing part, or 304 when nothing changed since the ETag the screen has: the ETag in one
    statement that also checks the event is the club's and the user a member of it (else 404), before anything
    else is read."""
    found = event_pages.screen_etag_find(lang=get_language(), event_id=event_id, slug=slug, user_id=request.user.pk)
    if found is None:
        raise Http404("no such event")
    _, etag = found

    def context() -> dict[str, Any]:
        membership, event = _get_event_for_user(request, slug, event_id)
        return _screen_context(membership.club, event)

    return _fresh(_live(request, event_id=event_id, etag=etag, context=context))


def _get_shared_event(token: str) -> selectors.SharedEvent:
    shared = selectors.event_share_find(token=token)
    if shared is None:
        if selectors.event_share_was_revoked(token=token):
            raise LinkRevoked(token)
        raise Http404("no such link")
    return shared


@require_GET
def event_share_screen(request: HttpRequest, token: str) -> HttpResponse:
    """The big screen for anyone with the link (a TV in the room): no login, nothing but the screen."""
    try:
        shared = _get_shared_event(token)
    except LinkRevoked:
        # Read on a room's TV, not at a table: the director has the new link.
        explain = _(
            "The director revoked this link to the event's screen, or made a new one in its place: "
            "ask the director for the new link or QR code."
        )
        return revoked_page(request, explain=explain)
    ctx = _screen_context(shared.event.club, shared.event)
    ctx["etag"] = shared.etag(lang=get_language())
    ctx["live_url"] = reverse("event_share_live", args=[token])
    ctx["shared"] = True
    return private_answer(render(request, "settlement/event_screen.html", ctx))


@require_GET
def event_share_live(request: HttpRequest, token: str) -> HttpResponse:
    """The shared screen's changing part: a 304 costs one query (the event's and its tables' versions, by the link),
    and so does the fragment another screen fetched since the last write."""
    lang = get_language()
    found = event_pages.screen_etag_find(lang=lang, token=token) if token else None
    if found is None:  # no link that works: a 404, or a 410 when it was revoked
        try:
            shared = _get_shared_event(token)
        except LinkRevoked:
            return private_answer(HttpResponse(status=410))
        found = shared.event.pk, shared.etag(lang=lang)  # made in the meantime
    event_id, etag = found

    def context() -> dict[str, Any]:
        shared = _get_shared_event(token)
        return _screen_context(shared.event.club, shared.event)

    return private_answer(_live(request, event_id=event_id, etag=etag, context=context))


def _share_back(event: Event) -> HttpResponse:
    """The event page with its share panel open, where a made or revoked link shows."""
    return redirect(reverse("event_detail", args=[event.club.slug, event.pk]) + "?share=1#share")


@login_required
@require_POST
def event_share_create(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """Make the big screen's link (a new one when it had one: the old one stops working)."""
    membership, event = _get_event_for_user(request, slug, event_id)
    policy.deny_unless(policy.may_direct(membership.role))
    services.event_share_create(event=event, user=request.user)
    return _share_back(event)


@login_required
@require_POST
def event_share_revoke(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """Revoke the big screen's link: its screens say so at their next poll."""
    membership, event = _get_event_for_user(request, slug, event_id)
    policy.deny_unless(policy.may_direct(membership.role))
    services.event_share_revoke(event=event, user=request.user)
    return _share_back(event)


@login_required
def event_cards(request: HttpRequest, slug: str, event_id: int, n: int) -> HttpResponse:
    """A card per table of round `n`: the table, its players in seat order, and a QR code of its entry page."""
    membership, event = _get_event_for_user(request, slug, event_id)
    standings = selectors.event_standings(event=event)
    found = next((r for r in event_pages.event_rounds(event=event, standings=standings) if r.round.n == n), None)
    if found is None:
        raise Http404("no such round")
    cards = []
    for table in found.tables:
        url = request.build_absolute_uri(reverse("table", args=[slug, table.session.pk]))
        cards.append({"table": table, "url": url, "qr": share_qr_svg(url=url)})
    ctx = {
        "club": membership.club,
        "membership": membership,
        "event": event,
        "variant_name": variant_label(event.variant),
        "round": found,
        "cards": cards,
    }
    return render(request, "settlement/event_cards.html", ctx)


@login_required
def event_results(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """The final results to print: the standings, their rule and every adjustment with its reason."""
    membership, event = _get_event_for_user(request, slug, event_id)
    standings = selectors.event_standings(event=event)
    ctx = {
        "club": membership.club,
        "membership": membership,
        "event": event,
        "variant_name": variant_label(event.variant),
        "standings": standings,
        "settle_up": selectors.event_settle_up(standings=standings),
        "pair_rows": selectors.event_pair_standings(standings=standings),
        "pair_rule": selectors.event_pair_rule(standings=standings),
        "adjustments": event_pages.event_adjustments(event=event),
    }
    return render(request, "settlement/event_results.html", ctx)
