"""The API tokens page (`/tokens/`): a user's personal API tokens, made, listed and revoked.

A new token's secret is shown once, on the page the POST answers (not a redirect: the secret is never
stored, so a later page could not show it). Writes go through `services.api_token_create` / `_revoke`.
"""

from __future__ import annotations

import datetime

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from .. import selectors, services
from ..ledger import LedgerError


class ApiTokenForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=services.API_TOKEN_NAME_MAX)
    days = forms.TypedChoiceField(
        label=gettext_lazy("Expires"),
        coerce=int,
        choices=[
            (0, gettext_lazy("never")),
            (30, gettext_lazy("in 30 days")),
            (90, gettext_lazy("in 90 days")),
            (365, gettext_lazy("in a year")),
        ],
        initial=0,
    )


@never_cache
@login_required
def api_tokens(request: HttpRequest) -> HttpResponse:
    secret = None
    form = ApiTokenForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        days = form.cleaned_data["days"]
        expires = timezone.now() + datetime.timedelta(days=days) if days else None
        try:
            _token, secret = services.api_token_create(
                user=request.user, name=form.cleaned_data["name"], expires_at=expires
            )
        except LedgerError as error:
            form.add_error("name", error.message(request.LANGUAGE_CODE))
        else:
            form = ApiTokenForm()
    tokens = selectors.user_api_tokens(user=request.user)
    context = {"form": form, "secret": secret, "tokens": tokens, "now": timezone.now()}
    return render(request, "settlement/api_tokens.html", context, status=201 if secret else 200)


@require_POST
@login_required
def api_token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    try:
        token = services.api_token_revoke(user=request.user, token_id=token_id)
    except LedgerError:
        messages.error(request, _("There is no such token among yours."))
    else:
        messages.success(request, _("The token “{name}” was revoked.").format(name=token.name))
    return redirect("api_tokens")
