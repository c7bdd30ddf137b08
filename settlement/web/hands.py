"""A hand's own page (its receipt, its revisions) and correcting or voiding a hand, from that page or the table's.

The correction and the void post to `table/hands/<n>/`; a refusal stays on the page it came from (the hand
page, or the table page with the entry form prefilled). The services and selectors do the work.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from .. import policy, selectors, services
from ..ledger import LedgerError
from ..models import Membership
from ..presentation.revisions import revision_lines
from ..presentation.sessions import game_columns
from ..rules.registry import VARIANTS
from ..scoping import get_hand_for_user, request_lang
from .forms import HandVoidForm, TableHandForm
from .table import table_error, table_form, table_page, table_receipt, table_url


@login_required
def hand_detail(request: HttpRequest, slug: str, session_id: int, number: int) -> HttpResponse:
    """A hand: its receipt, its revisions, and (for a writer) the entry form to correct or void it."""
    membership, hand = get_hand_for_user(request.user, session_id, number, slug)
    view = selectors.hand_view(session=hand.session, number=number, lang=request_lang())
    if view is None or view.fix is None:
        raise Http404("no such hand")
    return _hand_page(request, membership, view, number)


def _hand_page(
    request: HttpRequest,
    membership: Membership,
    view: selectors.TableView,
    number: int,
    form: TableHandForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """The hand page; `form` is a refused correction or void posted from it, shown with its errors."""
    session = view.session
    record = view.fix
    assert record is not None and record.number == number
    flags = policy.session_flags(membership.role, session)
    ctx = {
        "club": membership.club,
        "membership": membership,
        "session": session,
        "players": view.players,
        "entry": record,
        "view": view,
        "form": (form or table_form(session, view)) if flags["can_fix"] else None,
        "rules": VARIANTS[session.variant],
        "return_to": "hand",
        "history": revision_lines(revisions=record.revisions, players=view.players, lang=request_lang()),
        "receipt": None,
        **flags,
        **game_columns(session.variant),
    }
    return render(request, "settlement/hand_detail.html", ctx, status=status)


@login_required
def table_fix(request: HttpRequest, slug: str, session_id: int, number: int) -> HttpResponse:
    """Correct or void an earlier hand from the table page: the entry form, prefilled, with a reason."""
    membership, hand = get_hand_for_user(request.user, session_id, number, slug)
    session = hand.session
    view = selectors.table_view(session=session, lang=request_lang(), fix=number)
    if request.method != "POST":
        can_fix = policy.may_revise(membership.role, session)
        return table_page(request, membership, view, table_form(session, view) if can_fix else None)
    policy.deny_unless(policy.may_write(membership.role))
    form = table_form(session, view, request.POST)
    if form is None:
        return redirect(table_url(slug, session.pk))
    action = request.POST.get("action")
    from_hand = request.POST.get("return_to") == "hand"
    notice = {"voided" if action == "void" else "fixed": number}
    done = (
        reverse("hand_detail", args=[slug, session.pk, number]) if from_hand else table_url(slug, session.pk, **notice)
    )

    def refused(receipt: dict[str, Any] | None) -> HttpResponse:
        # A refusal stays on the page it was posted from, the hand page keeping its trail and its way back.
        if from_hand:
            return _hand_page(request, membership, view, number, form, status=400)
        return table_page(request, membership, view, form, receipt, status=400)

    if action == "void":
        void = HandVoidForm(request.POST)
        if void.is_valid():
            try:
                services.hand_void(
                    session=session,
                    user=request.user,
                    number=number,
                    reason=void.cleaned_data["reason"],
                    revision=void.cleaned_data["revision"],
                )
            except LedgerError as error:
                form.add_error("reason" if error.field == "reason" else None, error.message(request_lang()))
            else:
                return redirect(done)
        else:
            form.add_error("reason", _("Say why the hand is voided."))
        return refused(None)
    if action == "correct":
        if form.is_valid():
            try:
                services.hand_correct(
                    session=session,
                    user=request.user,
                    number=number,
                    hand_input=form.cleaned_data["hand"],
                    reason=form.cleaned_data["reason"],
                    note=form.cleaned_data.get("note") or "",
                    revision=form.cleaned_data.get("revision"),
                )
            except LedgerError as error:
                table_error(form, error, view)
            else:
                return redirect(done)
        return refused({"invalid": True})
    receipt = table_receipt(session, form, view)
    return table_page(request, membership, view, form, receipt, status=400 if form.errors else 200)
