"""The API tokens page (`/tokens/`): a user's personal API tokens, made, listed and revoked.

A new token's secret is shown once: the POST keeps it in the user's server-side session and redirects
(post, redirect, get: a reload does not make a second token), and the next GET takes it out and shows
it. It never goes in a URL or a cookie. Writes go through `services.api_token_create` / `_revoke`.
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


# The session key under which a new token's secret waits for the page the redirect asks for.
NEW_SECRET = "api_token_new_secret"


@never_cache
@login_required
def api_tokens(request: HttpRequest) -> HttpResponse:
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
            request.session[NEW_SECRET] = secret
            return redirect("api_tokens")
    # Taken out as it is shown: the next GET (a reload) shows it no more.
    secret = request.session.pop(NEW_SECRET, None) if request.method == "GET" else None
    tokens = selectors.user_api_tokens(user=request.user)
    context = {"form": form, "secret": secret, "tokens": tokens, "now": timezone.now()}
    return render(request, "settlement/api_tokens.html", context)


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
