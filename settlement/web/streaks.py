"""The club's records page, the records and achievements (成就) on a player's page, and the club's settings page.

Thin: `selectors.streaks` and `selectors.achievements` read, `presentation.streaks` names; the player page's part
is `_player_records.html`, with `player_records_context`.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from .. import policy, selectors, services
from ..models import Club, Player
from ..presentation.streaks import badge_lines, record_sections
from ..scoping import get_membership_for_user, request_lang
from .forms import ClubSettingsForm


@login_required
@require_GET
def club_records(request: HttpRequest, slug: str) -> HttpResponse:
    membership = get_membership_for_user(request.user, slug)
    sections = record_sections(selectors.club_records(club=membership.club), lang=request_lang(), club_page=True)
    ctx = {"club": membership.club, "membership": membership, "sections": sections}
    return render(request, "settlement/records.html", ctx)


def player_records_context(*, club: Club, player: Player) -> dict[str, Any]:
    """What `_player_records.html` shows: the player's records and, unless the club hides them, the badges."""
    records = record_sections(selectors.player_records(club=club, player=player), lang=request_lang(), club_page=False)
    badges = badge_lines(selectors.player_achievements(club=club, player=player)) if club.show_achievements else []
    return {"record_sections": records, "badges": badges, "show_achievements": club.show_achievements}


@login_required
@require_http_methods(["GET", "POST"])
def club_settings(request: HttpRequest, slug: str) -> HttpResponse:
    membership = get_membership_for_user(request.user, slug)
    policy.deny_unless(policy.may_manage(membership.role))
    club = membership.club
    if request.method == "POST":
        form = ClubSettingsForm(request.POST)
        if form.is_valid():
            services.club_settings_update(
                club=club, user=request.user, show_achievements=form.cleaned_data["show_achievements"]
            )
            return redirect(reverse("club_settings", args=[slug]) + "?saved=1")
    else:
        form = ClubSettingsForm(initial={"show_achievements": club.show_achievements})
    ctx = {"club": club, "membership": membership, "form": form, "saved": request.GET.get("saved") == "1"}
    return render(request, "settlement/club_settings.html", ctx, status=400 if form.errors else 200)
