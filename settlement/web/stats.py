"""The club's standings page and its downloads (CSV, Excel), and the statistics on a player's page.

Thin: the selectors read (`selectors.stats`), `presentation.stats` lays out and draws.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from .. import selectors
from ..models import Club, Player, variant_label
from ..presentation.stats import group_name, ranking_rule, running_chart, standings_csv, standings_xlsx
from ..rules.families import SCORING
from ..scoping import get_membership_for_user, request_lang
from .forms import StandingsFilterForm

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _filtered(request: HttpRequest, slug: str) -> tuple[Any, StandingsFilterForm, list[selectors.StandingGroup]]:
    membership = get_membership_for_user(request.user, slug)
    form = StandingsFilterForm(request.GET or None, variant_choices=[(key, variant_label(key)) for key in SCORING])
    filters: dict[str, Any] = {}
    if form.is_bound and form.is_valid():
        filters = {name: value for name, value in form.cleaned_data.items() if value}
    groups = [] if form.is_bound and form.errors else selectors.standings_grouped(club=membership.club, **filters)
    return membership, form, groups


@login_required
@require_GET
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    membership, form, groups = _filtered(request, slug)
    lang = request_lang()
    ctx = {
        "club": membership.club,
        "membership": membership,
        "form": form,
        "groups": [(group_name(group.group, lang), group) for group in groups],
        "ranking_rule": ranking_rule(),
        "query": request.GET.urlencode(),
    }
    # A refused filter is a 400, as the downloads and the other form pages answer it, with its errors shown.
    return render(request, "settlement/standings.html", ctx, status=400 if form.is_bound and form.errors else 200)


@login_required
@require_GET
def standings_download(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    """`standings.csv` (UTF-8 with a byte-order mark) or `standings.xlsx`, with the page's filters."""
    membership, form, groups = _filtered(request, slug)
    if form.is_bound and form.errors:
        return render(
            request,
            "settlement/standings.html",
            {"club": membership.club, "membership": membership, "form": form, "groups": [], "query": ""},
            status=400,
        )
    lang = request_lang()
    if kind == "xlsx":
        response = HttpResponse(standings_xlsx(groups, lang=lang), content_type=XLSX)
    else:
        response = HttpResponse(standings_csv(groups, lang=lang), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="standings-{membership.club.slug}.{kind}"'
    return response


def player_stats_context(*, club: Club, player: Player) -> dict[str, Any]:
    """What the player page shows of the statistics (`player_detail.html` includes `player_stats.html`)."""
    stats = selectors.player_stats(club=club, player=player)
    lang = request_lang()
    return {
        "stats": stats,
        "stat_groups": [
            {"label": group_name(group.group, lang), "figures": group, "chart": running_chart(group)}
            for group in stats.groups
        ],
    }
