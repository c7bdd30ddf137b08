"""One error shape for the whole API: `{"code", "hand", "field", "message"}`.

`code` is stable: a ledger or rules code (`bid.place_minimum`, `session.closed` …)
or Django REST framework's own (`not_authenticated`, `permission_denied`,
`not_found`, `required` …). `hand` is the hand's number in the ledger (1-based)
or null, `field` the input field or null, and `message` is in the request's
language. Every refusal, DRF's 401/403/404/400 included, goes through
`api_exception_handler` (set as `REST_FRAMEWORK["EXCEPTION_HANDLER"]`);
`slash_missing` answers an address that lacks its trailing slash.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.urls import is_valid_path
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import set_rollback

from settlement.ledger import LedgerError

# Ledger refusals that are about the state of the session or the hand, not the input.
LEDGER_STATUS = {
    "hand.not_found": status.HTTP_404_NOT_FOUND,
    "token.not_found": status.HTTP_404_NOT_FOUND,
    "session.closed": status.HTTP_409_CONFLICT,
    "client_key.reused": status.HTTP_409_CONFLICT,
    "hand.already_void": status.HTTP_409_CONFLICT,
    "hand.stale": status.HTTP_409_CONFLICT,
    "log.unreadable": status.HTTP_409_CONFLICT,
    "round.tables_open": status.HTTP_409_CONFLICT,
    "round.time_up": status.HTTP_409_CONFLICT,
    "event.finished": status.HTTP_409_CONFLICT,
    "event.pairs_drawn": status.HTTP_409_CONFLICT,
    "body.too_large": status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
}


class NotAnObject(exceptions.ParseError):
    default_detail = _("the request body must be a JSON object")
    default_code = "body.not_object"


def error_body(*, code: str, message: str, hand: int | None = None, field: str | None = None) -> dict[str, Any]:
    return {"code": code, "hand": hand, "field": field, "message": message}


def error_json(body: dict[str, Any], *, status: int) -> JsonResponse:
    """An error answered outside DRF (a middleware, Django's error handlers, `slash_missing`) as DRF renders one:
    compact UTF-8 JSON."""
    return JsonResponse(body, status=status, json_dumps_params={"ensure_ascii": False, "separators": (",", ":")})


def ledger_status(error: LedgerError) -> int:
    return LEDGER_STATUS.get(error.code, status.HTTP_400_BAD_REQUEST)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's exception handler, answering every known error in the one shape; anything else stays a 500."""
    if isinstance(exc, RequestDataTooBig):
        exc = LedgerError("body.too_large", field="body", limit=settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    if isinstance(exc, LedgerError):
        body = error_body(code=exc.code, hand=exc.hand, field=exc.field, message=exc.message(get_language() or ""))
        return _respond(context, body, ledger_status(exc))
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    if not isinstance(exc, exceptions.APIException):
        return None
    headers = {}
    if getattr(exc, "auth_header", None):
        headers["WWW-Authenticate"] = exc.auth_header  # type: ignore[attr-defined]
    if getattr(exc, "wait", None):
        headers["Retry-After"] = str(int(exc.wait))  # type: ignore[attr-defined]
    code, field, message = _first_error(exc.detail, "")
    if not isinstance(exc, exceptions.ValidationError):
        code = exc.default_code if code in ("", "invalid", "error") else code
    return _respond(context, error_body(code=code, field=field, message=message), exc.status_code, headers)


def _respond(context: dict[str, Any], body: dict[str, Any], status_code: int, headers: Any = None) -> Response:
    set_rollback()
    # Errors are JSON even when the client asked for CSV (`?format=csv`).
    request = context.get("request")
    if request is not None:
        request.accepted_renderer = JSONRenderer()
        request.accepted_media_type = JSONRenderer.media_type
    return Response(body, status=status_code, headers=headers)


def _first_error(detail: Any, path: str) -> tuple[str, str | None, str]:
    """(code, field path, message) of the first error in a DRF error detail (nested dicts and lists)."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            if not value:
                continue
            if key == api_settings.NON_FIELD_ERRORS_KEY:
                sub = path
            elif isinstance(key, int):
                sub = f"{path}[{key}]"
            else:
                sub = f"{path}.{key}" if path else str(key)
            return _first_error(value, sub)
    elif isinstance(detail, list):
        for i, item in enumerate(detail):
            if not item:
                continue
            if isinstance(item, dict | list):
                return _first_error(item, f"{path}[{i}]")
            return _first_error(item, path)
    elif detail:
        return str(getattr(detail, "code", "") or "invalid"), path or None, str(detail)
    return "invalid", path or None, ""


# --- an address without its trailing slash ---


@csrf_exempt
def slash_missing(request: HttpRequest, path: str) -> HttpResponse:
    """`/api/v1/…` without the slash the address has: a GET is redirected (it has no body to lose);
    any other method is a 404 naming the right address, since a redirect would drop the body."""
    right = request.path + "/"
    if not is_valid_path(right, getattr(request, "urlconf", None)):
        return error_json(
            error_body(code="not_found", message=gettext("There is no such address in the API.")), status=404
        )
    if request.method in ("GET", "HEAD"):
        query = request.META.get("QUERY_STRING", "")
        return HttpResponsePermanentRedirect(right + ("?" + query if query else ""))
    message = gettext("This address ends with a slash: {path}").format(path=right)
    return error_json(error_body(code="not_found.slash", message=message), status=404)
