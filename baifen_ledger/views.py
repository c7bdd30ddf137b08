"""The site's own views, outside any club: health check, error pages, favicon, login lock-out.

Under `/api/` every error is JSON in the API's one shape (settlement/api/errors.py);
elsewhere it is an HTML page in the site's style and the request's language.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from settlement.api.errors import error_body, error_json

from .middleware import api_path


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database answers, 503 when not; no login, no throttle (it is not a DRF view)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return JsonResponse({"status": "error", "database": "unavailable"}, status=503)
    return JsonResponse({"status": "ok", "database": "ok"})


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page links: a 302 to the static copy, whose hashed name changes."""
    response = HttpResponse(status=302)
    response["Location"] = static("favicon.ico")
    return response


# --- error handlers (handler400/403/404/500 in urls.py) ---


def _api_error(*, status: int, code: str, message: str) -> JsonResponse:
    return error_json(error_body(code=code, message=message), status=status)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if api_path(request):
        return _api_error(status=400, code="bad_request", message=_("The request could not be understood."))
    return render(request, "400.html", status=400)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if api_path(request):
        return _api_error(
            status=403, code="permission_denied", message=_("You do not have permission to perform this action.")
        )
    return render(request, "403.html", status=403)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form posted without a valid CSRF token: usually a page left open past its session, or cookies off."""
    if api_path(request):
        return _api_error(
            status=403, code="csrf_failed", message=_("The form had expired or cookies are off; reload and try again.")
        )
    return render(request, "403_csrf.html", status=403)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if api_path(request):
        return _api_error(status=404, code="not_found", message=_("There is no such address in the API."))
    return render(request, "404.html", {"path": request.path}, status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    """Rendered without the request: its context processors may be what failed (the database, the session)."""
    if api_path(request):
        return _api_error(
            status=500, code="server_error", message=_("Something went wrong on the server; it has been logged.")
        )
    return HttpResponse(loader.get_template("500.html").render({}), status=500)


# --- django-axes hooks (settings.AXES_*) ---


def client_ip(request: HttpRequest) -> str | None:
    """The client's address: REMOTE_ADDR, or behind BAIFEN_TRUSTED_PROXIES proxies the one they saw."""
    proxies = settings.BAIFEN_TRUSTED_PROXIES
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    if proxies and len(forwarded) >= proxies:
        return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR")


def login_locked_out(request: HttpRequest, original_response: Any = None, credentials: Any = None) -> HttpResponse:
    """The login page again, saying why it refuses, with a 429 (the admin's login gets the same page)."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    form = AuthenticationForm(request, initial={"username": (credentials or {}).get("username", "")})
    context = {"form": form, "locked_out": True, "lockout_minutes": minutes, "next": request.GET.get("next", "")}
    return render(request, "settlement/login.html", context, status=429)
