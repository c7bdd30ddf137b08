"""Undo the last hand at the table: a confirmed void of the newest hand, with a stated default reason.

A GET shows what will be voided and asks; the POST voids it (`services.hand_void(newest=True)`, refused when
another hand was recorded after it meanwhile). Plain links and a form: it works without JavaScript.
"""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .. import policy, selectors, services
from ..ledger import LedgerError
from ..models import Membership
from ..scoping import get_session_for_user, request_lang
from .table import newest_hand, table_url


class HandUndoForm(forms.Form):
    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    revision = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    reason = forms.CharField(label=_("Reason"), max_length=500)


def undo_reason() -> str:
    """What the void says when the scorekeeper keeps the default."""
    return gettext("Undone at the table: entered by mistake")


@login_required
def table_undo(request: HttpRequest, slug: str, session_id: int) -> HttpResponse:
    """Ask, then void the newest hand; back to the table with the "voided" notice."""
    membership, session = get_session_for_user(request.user, session_id, slug)
    policy.deny_unless(policy.may_revise(membership.role, session))
    lang = request_lang()
    view = selectors.table_view(session=session, lang=lang)
    hand = newest_hand(view)
    if request.method != "POST":
        if hand is None:
            return redirect(table_url(slug, session.pk))
        form = HandUndoForm(initial={"number": hand.number, "revision": hand.current.number, "reason": undo_reason()})
        return _page(request, membership, view, hand, form)
    form = HandUndoForm(request.POST)
    if form.is_valid():
        number = form.cleaned_data["number"]
        try:
            services.hand_void(
                session=session,
                user=request.user,
                number=number,
                reason=form.cleaned_data["reason"],
                revision=form.cleaned_data["revision"],
                newest=True,
            )
        except LedgerError as error:
            form.add_error("reason" if error.field == "reason" else None, error.message(lang))
        else:
            return redirect(table_url(slug, session.pk, voided=number))
    return _page(request, membership, view, hand, form, status=400)


def _page(
    request: HttpRequest,
    membership: Membership,
    view: selectors.TableView,
    hand: selectors.HandRecord | None,
    form: HandUndoForm,
    status: int = 200,
) -> HttpResponse:
    ctx = {
        "club": membership.club,
        "membership": membership,
        "session": view.session,
        "players": view.players,
        "hand": hand,
        "form": form,
        "cancel_url": table_url(membership.club.slug, view.session.pk),
    }
    return render(request, "settlement/table_undo.html", ctx, status=status)
