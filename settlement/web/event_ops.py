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
from .events import _back, _director_event
from .forms.event_ops import FinishForm, LateForm


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
