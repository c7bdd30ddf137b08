"""The club's pages: the home page (a user's clubs), a club's page and its history of sessions, filtered.

Every lookup is scoped to the user's clubs (`scoping`: another club's object is a 404). The selectors do the work;
the views parse the request and pick the template.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from .. import selectors
from ..models import Session, variant_label
from ..rules.registry import VARIANTS
from ..scoping import get_membership_for_user, int_param
from .forms import HistoryFilterForm

RECENT_SESSIONS = 10
HISTORY_PAGE = 50  # sessions per page of the club's history, newest first


def _variant_choices() -> list[tuple[str, str]]:
    return [(key, variant_label(key)) for key in VARIANTS]


@login_required
def home(request: HttpRequest) -> HttpResponse:
    clubs = list(selectors.user_clubs(user=request.user))
    if len(clubs) == 1:
        return redirect("club_home", slug=clubs[0].slug)
    return render(request, "settlement/home.html", {"clubs": clubs})


@login_required
def club_home(request: HttpRequest, slug: str) -> HttpResponse:
    membership = get_membership_for_user(request.user, slug)
    club = membership.club
    ctx = {
        "club": club,
        "membership": membership,
        "open_sessions": selectors.club_sessions(club=club, status=Session.Status.OPEN),
        "recent_sessions": selectors.club_sessions(club=club, status=Session.Status.CLOSED, limit=RECENT_SESSIONS),
        "players": selectors.club_players(club=club),
    }
    return render(request, "settlement/club_home.html", ctx)


@login_required
def club_history(request: HttpRequest, slug: str) -> HttpResponse:
    membership = get_membership_for_user(request.user, slug)
    club = membership.club
    players = selectors.club_players(club=club)
    form = HistoryFilterForm(request.GET or None, players=players, variant_choices=_variant_choices())
    filters: dict[str, Any] = {}
    refused = form.is_bound and not form.is_valid()
    if form.is_bound and not refused:
        data = form.cleaned_data
        filters = {
            "date_from": data["date_from"],
            "date_to": data["date_to"],
            "variant": data["variant"] or None,
            "player": data["player"],
            "status": data["status"] or None,
        }
    page = max(1, int_param(request.GET.get("page")) or 1)
    if page > 1_000_000:  # beyond any club's history (and a database's offset)
        raise Http404("no such page")
    if refused:  # no sessions rather than all of them: the filter asked for was not applied
        found = selectors.SessionPage(count=0, summaries=[])
    else:
        found = selectors.club_sessions_page(club=club, offset=(page - 1) * HISTORY_PAGE, limit=HISTORY_PAGE, **filters)
    if page > 1 and not found.summaries and not refused:
        raise Http404("no such page")
    ctx = {
        "club": club,
        "membership": membership,
        "form": form,
        "sessions": found.summaries,
        "page": page,
        "pages": max(1, -(-found.count // HISTORY_PAGE)),
        "newer_url": _page_url(request, page - 1) if page > 1 else None,
        "older_url": _page_url(request, page + 1) if page * HISTORY_PAGE < found.count else None,
    }
    # A refused filter is a 400 naming the field, as the standings page answers it.
    return render(request, "settlement/club_history.html", ctx, status=400 if refused else 200)


def _page_url(request: HttpRequest, page: int) -> str:
    """This page's address (its filters kept) at `page` (the first without `page`)."""
    query = request.GET.copy()
    query.pop("page", None)
    if page > 1:
        query["page"] = str(page)
    return f"{request.path}?{query.urlencode()}" if query else request.path
