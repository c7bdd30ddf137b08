"""The table page offline: the service worker (`/sw.js`), the web app manifest and the queue's sync endpoint.

The service worker is a template served from the site's root, so that its scope covers the table pages
(`/clubs/…/table/`) and the share pages (`/s/…/`); it handles only those and the static files, and lets
every other request through untouched. Its cache is named after a hash of the static files it keeps, so
a deploy that changes any of them is a new service worker, which the browser installs by itself.

`table_sync` is where a phone sends the hands it queued while offline, one at a time, in order: the same
form the table page posts (with its client key, so a retry records the hand once) plus `expected`, the
number the phone entered the hand as. It answers JSON in the user's language: the recorded hand with its
receipt, the server's refusal, or (409) that the session moved on meanwhile (another device recorded a
hand), unless the phone sends it anyway (`force=1`).
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_POST

from .. import policy, selectors, services
from ..ledger import LedgerError
from ..models import Hand, HandRevision, Session
from ..presentation.formats import minus, signed
from ..presentation.sessions import hand_label
from ..scoping import get_session_for_user, int_param, request_lang
from .table import table_error, table_form

# What the table and share pages load: kept by the service worker at install, so they open offline (under
# their hashed names, as the pages link them: tests/web/test_offline.py checks the pages link nothing else).
OFFLINE_ASSETS = (
    "css/base.css",
    "css/table.css",
    "css/share.css",
    "js/table.js",
    "js/numbers.js",
    "js/clock.js",
    "js/offline.js",
    "js/share.js",
    "js/logout.js",
    "favicon.ico",
    "img/icon.svg",
    "img/apple-touch-icon.png",
    "img/icon-192.png",
    "img/icon-512.png",
)
THEME_COLOUR = "#8b1e1e"  # the icon's red (static/img/icon.svg)
START_URL = "/?pwa=1"


@lru_cache(maxsize=1)
def offline_version() -> str:
    """A hash of the kept files' URLs and contents and of the worker itself: any change is a new worker."""
    digest = hashlib.sha256()
    for path in OFFLINE_ASSETS:
        digest.update(static(path).encode())
        found = finders.find(path)
        if isinstance(found, str):
            with open(found, "rb") as handle:
                digest.update(handle.read())
    digest.update(render_to_string("settlement/sw.js", {"config": "{}"}).encode())
    return digest.hexdigest()[:16]


@require_GET
@cache_control(no_cache=True, max_age=0)
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, from the root so that it may control the table and share pages."""
    config = {
        "version": offline_version(),
        "assets": [static(path) for path in OFFLINE_ASSETS],
        # The prefix, not static(""): the manifest storage has no entry for "" (a 500 under collectstatic).
        "static": settings.STATIC_URL,
        "start": START_URL,
    }
    body = render_to_string("settlement/sw.js", {"config": json.dumps(config)})
    return HttpResponse(body, content_type="application/javascript; charset=utf-8")


@require_GET
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest, in the language the linking page names (`?lang=`; a manifest comes without cookies)."""
    lang = "en" if request.GET.get("lang", "").lower().startswith("en") else "zh-hans"
    with translation.override(lang):
        document = {
            "id": "/",
            "name": _("Baifen Ledger"),
            "short_name": _("Baifen"),
            "description": _("Scorekeeping for 打百分 tables: record hands, even offline, and settle up."),
            "lang": "en" if lang == "en" else "zh-Hans",
            "start_url": START_URL,
            "scope": "/",
            "display": "standalone",
            "background_color": "#ffffff",
            "theme_color": THEME_COLOUR,
            "icons": [
                {"src": static("img/icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
                {"src": static("img/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
                {"src": static("img/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
            ],
        }
    return HttpResponse(
        json.dumps(document, ensure_ascii=False), content_type="application/manifest+json; charset=utf-8"
    )


def _recorded(session: Session, number: int, *, created: bool) -> dict[str, Any]:
    """The recorded hand as the server settled it: its label, each side's figure and its receipt's steps."""
    view = selectors.table_view(session=session, lang=request_lang())
    record = next((h for h in view.recent if h.number == number), None)
    steps: list[str] = []
    figures: list[str] = []
    result = record.result if record is not None else None
    if result is not None:
        steps = [str(step) for step in result.get("steps", [])]
        if result.get("status") != "redeal":
            for side in view.sides:
                seat = side.seats[0]
                figures.append(f"{side.name} {signed(result['deltas'][seat])} → {minus(result['totals'][seat])}")
    return {
        "status": "recorded",
        "number": number,
        "created": created,
        "label": str(hand_label(session.variant, number, "recorded")),
        "figures": figures,
        "steps": steps,
        "hand_count": view.hand_count,
    }


def _refused(message: str, *, field: str = "", status: int = 400, **extra: Any) -> JsonResponse:
    return JsonResponse({"status": "refused", "message": message, "field": field, **extra}, status=status)


@login_required
@require_POST
def table_sync(request: HttpRequest, slug: str, session_id: int) -> HttpResponse:
    """Record one queued hand (the table form's fields, `expected`, optionally `force=1`); JSON for offline.js.

    A key sent before is the hand it was recorded as: the same fields are that hand again (the answer was
    lost, or another tab sent it); other fields are refused as the form and the API refuse them
    (`client_key.reused`, 409), unless the phone asks for them as a correction of that hand (`correct=1`,
    with the revision it knows): a hand edited on the phone after a send whose answer it never got.
    """
    membership, session = get_session_for_user(request.user, session_id, slug)
    policy.deny_unless(policy.may_write(membership.role))
    lang = request_lang()
    try:
        client_key = services.client_key_clean(request.POST.get("client_key", ""))
    except LedgerError as error:  # a NUL or another control character: PostgreSQL cannot even look it up
        return _refused(error.message(lang), field="client_key", code=error.code)
    existing = None
    if client_key:
        existing = Hand.objects.filter(session=session, client_key=client_key).only("number").first()
    # A hand sent before is read against the state it was entered on: the one before it.
    view = selectors.table_view(session=session, lang=lang, fix=existing.number if existing else None)
    form = table_form(session, view, request.POST)
    if form is None or (existing is None and not session.is_open):
        return _refused(LedgerError("session.closed", field="session").message(lang), field="session")
    expected = None if request.POST.get("force") == "1" else int_param(request.POST.get("expected"))
    if not form.is_valid():
        name, errors = next(iter(form.errors.items()))
        return _refused(" ".join(str(e) for e in errors), field=name)
    hand_input = form.cleaned_data["hand"]
    try:
        if existing is not None and request.POST.get("correct") == "1":
            services.hand_correct(
                session=session,
                user=request.user,
                number=existing.number,
                hand_input=hand_input,
                reason=_("Edited on the phone after it was sent: the hand it became is corrected."),
                revision=int_param(request.POST.get("revision")),
            )
            answer = _recorded(session, existing.number, created=False)
            label = str(hand_label(session.variant, existing.number, "corrected"))
            return JsonResponse({**answer, "label": label, "corrected": True})
        write = services.hand_record(
            session=session,
            user=request.user,
            hand_input=hand_input,
            client_key=client_key,
            expected_number=expected,
        )
    except LedgerError as error:
        if error.code == "hand.moved":
            return _refused(error.message(lang), field="number", status=409, moved=True)
        if error.code == "client_key.reused":
            # The first send arrived as hand `number` and this is another hand: say which, and its revision,
            # so that the phone can make this a correction of it.
            revision = HandRevision.objects.filter(hand__session=session, hand__number=error.hand).count()
            return _refused(
                error.message(lang),
                field="client_key",
                status=409,
                code=error.code,
                reused=True,
                number=error.hand,
                revision=revision,
            )
        if error.code == "hand.unchanged" and existing is not None:  # the edit is what the hand holds already
            return JsonResponse(_recorded(session, existing.number, created=False))
        message, field = table_error(form, error, view)
        return _refused(message, field=field, code=error.code)
    return JsonResponse(_recorded(session, write.hand.number, created=write.created))


def table_sync_url(session: Session) -> str:
    return reverse("table_sync", args=[session.club.slug, session.pk])
