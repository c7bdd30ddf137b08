"""The director's actions on an event's rounds: finish the event (asked once, on a page, so no script is
needed), allow a round's late hands, seat a substitute. Scoped as the event pages are (`events._get_event_for_user`);
a refusal is shown on the field it names.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from .. import services
from ..ledger import LedgerError
from ..models import Event
from ..scoping import request_lang
from ..selectors import event_pages
from .events import _back, _director_event, _refused
from .forms.event_ops import FinishForm, LateForm, SubstituteForm


def substitute_form(event: Event, entries: list, data: object = None) -> SubstituteForm:
    """The substitute's form: the absent player among those checked in, the round (default: the latest)."""
    choices = [(e.player_id, e.player.name) for e in entries]
    return SubstituteForm(data, choices=choices, initial={"round_n": event.rounds.count() or None})


@login_required
def event_finish(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """GET asks once (the open tables of the last round listed); POST finishes the event."""
    membership, event = _director_event(request, slug, event_id)
    if event.state == Event.State.FINISHED:
        return redirect("event_results", slug=slug, event_id=event.pk)
    form = FinishForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            services.event_finish(event=event, user=request.user, close_open=form.cleaned_data["close_open"])
        except LedgerError as error:
            form.add_error("close_open" if error.field == "close_open" else None, error.message(request_lang()))
        else:
            return redirect("event_results", slug=slug, event_id=event.pk)
    open_tables = event_pages.event_open_tables(event=event)
    ctx = {"club": membership.club, "membership": membership, "event": event, "form": form, "open_tables": open_tables}
    return render(request, "settlement/event_finish.html", ctx, status=400 if form.errors else 200)


@login_required
@require_POST
def event_round_late(request: HttpRequest, slug: str, event_id: int, n: int) -> HttpResponse:
    """The director allows (or again refuses) round `n`'s hands after its clock ran out."""
    _, event = _director_event(request, slug, event_id)
    form = LateForm(request.POST)
    form.is_valid()
    try:
        services.round_late_allow(event=event, user=request.user, n=n, allowed=form.cleaned_data.get("allowed", False))
    except LedgerError as error:
        raise Http404("no such round") from error
    return _back(event, f"round-{n}")


@login_required
@require_POST
def event_substitute(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """A substitute plays the absent player's seat for a round."""
    membership, event = _director_event(request, slug, event_id)
    entries = event_pages.event_players(event=event)
    form = substitute_form(event, entries, request.POST)
    if form.is_valid():
        data = form.cleaned_data
        absent = next(e.player for e in entries if e.player_id == data["absent"])
        try:
            services.substitute_seat(
                event=event,
                user=request.user,
                round_n=data["round_n"],
                absent=absent,
                substitute=data["substitute"],
                client_key=data["client_key"],
            )
        except LedgerError as error:
            field = {"round": "round_n", "absent": "absent", "substitute": "substitute"}.get(error.field)
            form.add_error(field, error.message(request_lang()))
        else:
            return _back(event, f"round-{data['round_n']}")
    return _refused(request, membership, event, "substitute_form", form)
