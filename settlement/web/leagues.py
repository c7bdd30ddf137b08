"""The league pages: a club's leagues, a new league, the league page (its rule, events, table and each player's
history) and the director's "add an event to this league" and "take it out" (asked once, on a page of its own, so
no script is needed).

Every lookup goes through `_get_league_for_user` (another club's league is a 404); a viewer's write is a 403. A
refusal is shown on the form's field it names, in the reader's language.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from .. import policy, selectors, services
from ..ledger import LedgerError
from ..models import Event, League, Membership
from ..scoping import get_league_for_user, get_membership_for_user, request_lang
from .forms.league import LeagueEventForm, LeagueEventRemoveForm, LeagueNewForm


def _get_league_for_user(request: HttpRequest, slug: str, league_id: int) -> tuple[Membership, League]:
    """The league, if it is the club `slug`'s and the user is a member of it (else 404)."""
    membership, league = get_league_for_user(request.user, league_id)
    if league.club.slug != slug:
        raise Http404("no such league")
    return membership, league


def _free_events(club_id: int) -> Any:
    """The club's events no league counts yet, newest first: what a league may take."""
    return Event.objects.filter(club_id=club_id, league__isnull=True).order_by("-date", "-id")


def _event_query(request: HttpRequest) -> int | None:
    """The event `?event=` names (an event page's "add this event to a league"), if it is a whole number."""
    value = request.GET.get("event", "")
    return int(value) if value.isdigit() and len(value) < 12 else None


def _field(form: Form, error: LedgerError, fallback: str) -> str:
    name = error.field.split("[")[0]
    return name if name in form.fields else fallback


@login_required
def league_list(request: HttpRequest, slug: str) -> HttpResponse:
    membership = get_membership_for_user(request.user, slug)
    leagues = list(selectors.club_leagues(club=membership.club)[:100])
    ctx = {
        "club": membership.club,
        "membership": membership,
        "leagues": leagues,
        "can_direct": policy.may_direct(membership.role),
        # From an event page's "add this event to a league": each league's page offers that event.
        "event_id": _event_query(request),
    }
    return render(request, "settlement/league_list.html", ctx)


@login_required
def league_new(request: HttpRequest, slug: str) -> HttpResponse:
    membership = get_membership_for_user(request.user, slug)
    policy.deny_unless(policy.may_direct(membership.role))
    club = membership.club
    events = _free_events(club.pk)
    if request.method == "POST":
        form = LeagueNewForm(request.POST, events=events)
        if form.is_valid():
            data = form.cleaned_data
            try:
                league = services.league_create(
                    club=club,
                    user=request.user,
                    name=data["name"],
                    unit=data["unit"],
                    ranking=data["ranking"],
                    best_n=data["best_n"] if data["ranking"] == League.Ranking.BEST else None,
                    events=list(data["events"]),
                    client_key=data["client_key"],
                )
            except LedgerError as error:
                form.add_error(_field(form, error, "name"), error.message(request_lang()))
            else:
                return redirect("league_detail", slug=club.slug, league_id=league.pk)
    else:
        form = LeagueNewForm(events=events)
    ctx = {"club": club, "membership": membership, "form": form}
    return render(request, "settlement/league_new.html", ctx, status=400 if form.errors else 200)


def _detail(membership: Membership, league: League, event_id: int | None = None, **forms: Form) -> dict[str, Any]:
    can_direct = policy.may_direct(membership.role)
    add_form = forms.get("add_form")
    if add_form is None and can_direct:
        add_form = LeagueEventForm(events=_free_events(league.club_id), initial={"event": event_id})
    return {
        "club": membership.club,
        "membership": membership,
        "league": league,
        "standings": selectors.league_standings(league=league),
        "can_direct": can_direct,
        "add_form": add_form,
    }


@login_required
def league_detail(request: HttpRequest, slug: str, league_id: int) -> HttpResponse:
    membership, league = _get_league_for_user(request, slug, league_id)
    ctx = _detail(membership, league, event_id=_event_query(request))
    return render(request, "settlement/league_detail.html", ctx)


@login_required
@require_POST
def league_event_add(request: HttpRequest, slug: str, league_id: int) -> HttpResponse:
    membership, league = _get_league_for_user(request, slug, league_id)
    policy.deny_unless(policy.may_direct(membership.role))
    form = LeagueEventForm(request.POST, events=Event.objects.filter(club_id=league.club_id))
    if form.is_valid():
        try:
            services.league_event_add(league=league, user=request.user, event=form.cleaned_data["event"])
        except LedgerError as error:
            form.add_error("event", error.message(request_lang()))
        else:
            return redirect("league_detail", slug=slug, league_id=league.pk)
    ctx = _detail(membership, league, add_form=form)
    return render(request, "settlement/league_detail.html", ctx, status=400)


@login_required
@require_POST
def league_event_remove(request: HttpRequest, slug: str, league_id: int) -> HttpResponse:
    """An event's "take it out" button asks once (the event named, what changes); its confirmation takes it out."""
    membership, league = _get_league_for_user(request, slug, league_id)
    policy.deny_unless(policy.may_direct(membership.role))
    form = LeagueEventRemoveForm(request.POST, events=Event.objects.filter(club_id=league.club_id))
    if form.is_valid() and form.cleaned_data["confirm"]:
        try:
            services.league_event_remove(league=league, user=request.user, event=form.cleaned_data["event"])
        except LedgerError as error:
            form.add_error("event", error.message(request_lang()))
        else:
            return redirect(reverse("league_detail", args=[slug, league.pk]) + "#events")
    event = form.cleaned_data.get("event") if form.is_valid() else None
    ctx = {"club": membership.club, "membership": membership, "league": league, "form": form, "event": event}
    return render(request, "settlement/league_event_remove.html", ctx, status=400 if form.errors else 200)
