"""Request limits that apply before any view runs; the request id and rate-limit headers of every answer."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from settlement.api.errors import error_body, error_json

from .request_id import request_id


def api_path(request: HttpRequest) -> bool:
    return request.path_info.startswith("/api/")


class NulRefusalMiddleware:
    """A NUL character in the path or the query string is a 400 (the site's page, or the API's error shape).

    No address or parameter of the site has one, and PostgreSQL refuses it in any text it is asked to compare
    (`/s/%00/` looked a share token up with it: a 500). One rule here instead of a check in every view.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path_info or any(
            "\x00" in key or any("\x00" in value for value in values) for key, values in request.GET.lists()
        ):
            raise BadRequest("NUL in the path or the query string")
        return self.get_response(request)


class ApiBodyLimitMiddleware:
    """An API request whose declared body is over `DATA_UPLOAD_MAX_MEMORY_SIZE` is a 413 naming the limit.

    Django only enforces the limit when `request.body` is read; DRF's parsers read
    the stream instead, so without this a large body would be read whole.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and api_path(request):
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            if length > limit:
                message = _("The request body is %(size)d bytes; the limit is %(limit)d bytes.") % {
                    "size": length,
                    "limit": limit,
                }
                return error_json(error_body(code="body.too_large", field="body", message=message), status=413)
        return self.get_response(request)


REQUEST_ID_HEADER = "X-Request-Id"
# A client's own id is kept when it is a plain token (what a log line can hold); anything else gets one made here.
_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")


class RequestIdMiddleware:
    """Every answer carries `X-Request-Id`: the request's own, or one made for it; the log lines of the request
    name it (`RequestIdFilter`). An API answer whose call was throttled carries `RateLimit-Limit`,
    `RateLimit-Remaining` and `RateLimit-Reset` (seconds) too (`settlement.api.throttles`)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        given = request.headers.get(REQUEST_ID_HEADER, "")
        rid = given if _REQUEST_ID.fullmatch(given) else uuid.uuid4().hex
        # Not reset on the way out: Django logs a 4xx/5xx (django.request) after the middleware has answered.
        # The next request on this thread sets its own first.
        request_id.set(rid)
        response = self.get_response(request)
        response[REQUEST_ID_HEADER] = rid
        limit = getattr(request, "ratelimit", None)
        if limit is not None:
            response["RateLimit-Limit"], response["RateLimit-Remaining"], response["RateLimit-Reset"] = map(str, limit)
        return response
