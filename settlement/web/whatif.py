"""The what-if page: a session's hands settled again under a preset (one tap) or options typed in, beside the
real result. It writes nothing, so it is a GET any member may open and share; the selector does the settling."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .. import selectors
from ..ledger import LedgerError, session_players
from ..models import variant_label
from ..presentation.sessions import hand_label
from ..presentation.whatif import what_if_options, what_if_seats
from ..rules.entry import option_defaults
from ..rules.registry import VARIANTS
from ..scoping import get_session_for_user, request_lang
from .forms import OptionsForm


@login_required
def session_what_if(request: HttpRequest, slug: str, session_id: int) -> HttpResponse:
    membership, session = get_session_for_user(request.user, session_id, slug)
    lang = request_lang()
    rules = VARIANTS[session.variant]
    n_players = len(session_players(session=session))
    preset = request.GET.get("preset") or None
    if preset not in rules.presets:
        preset = None
    submitted = "go" in request.GET
    values = option_defaults(rules, n_players, preset) if preset else dict(session.options)
    form = OptionsForm(
        request.GET if submitted else None, variant=session.variant, n_players=n_players, values=values, lang=lang
    )
    what_if = None
    if submitted and form.is_valid():
        what_if = _settle(form, session=session, options=form.option_values(form.cleaned_data), lang=lang)
    elif preset and not submitted:
        what_if = _settle(form, session=session, preset=preset, lang=lang)
    ctx: dict[str, Any] = {
        "club": membership.club,
        "membership": membership,
        "session": session,
        "variant_name": variant_label(session.variant),
        "presets": form.spec.presets,
        "preset": preset,
        "form": form,
        "what_if": what_if,
    }
    if what_if is not None:
        ctx["seats"] = what_if_seats(actual=what_if.actual, other=what_if.alternative)
        ctx["changed"] = what_if_options(
            variant=session.variant, actual=what_if.actual, other=what_if.alternative, lang=lang
        )
        ctx["unit"] = what_if.actual["unit"]
    return render(request, "settlement/session_what_if.html", ctx)


def _settle(form: OptionsForm, **kwargs: Any) -> selectors.WhatIf | None:
    """The what-if, or None with the refusal on the form (beside the option it names, else above the form)."""
    try:
        return selectors.session_what_if(**kwargs)
    except LedgerError as error:
        field = None
        if error.field.startswith("options."):
            field = form.option_field(error.field.split(".")[1].split("[")[0])
        message = error.message(kwargs["lang"])
        if error.hand is not None:
            message = hand_label(kwargs["session"].variant, error.hand, "refused", message=message)
        form.add_error(field, message)
        return None
