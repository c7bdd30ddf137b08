"""What every API view shares: the endpoint decorator, the documented error answers, the request's body,
query and idempotency key, and pages of a list with their `next`/`previous` links.

Every lookup goes through a `get_<obj>_for_user` helper (`settlement.scoping`) that scopes it to the
caller's clubs (another club's object is a 404, as if it did not exist); writes need the owner or
scorekeeper role (a viewer gets a 403). Token authentication comes first, so an anonymous call is a 401
that names the scheme. Refusals raise and are answered in one shape by `errors.py`.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from django.http import QueryDict
from django.middleware.http import ConditionalGetMiddleware
from django.utils.decorators import decorator_from_middleware
from django.utils.http import parse_etags
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication
from rest_framework.decorators import api_view
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param

from settlement.ledger import LedgerError
from settlement.scoping import get_session_version_for_user, request_lang
from settlement.services import CLIENT_KEY_MAX

from . import serializers as s
from .authentication import ApiTokenAuthentication
from .errors import NotAnObject
from .idempotency import IDEMPOTENCY_HEADER, WRITES, idempotent, key_header
from .parsers import JSONWithoutNulParser
from .renderers import FormatNegotiation

JSON = "application/json"


def api_endpoint(
    *methods: str, renderers: Sequence[type[BaseRenderer]] = (JSONRenderer,), service_keyed: bool = False
) -> Callable[..., Any]:
    """`@api_view` with the API's settings: token then session auth, logged-in callers, JSON in and out.

    Every GET answers HEAD too (the same status and headers, no body); an unknown `?format=` is a 400.
    Every POST and PATCH takes an `Idempotency-Key` (`idempotency.py`; `service_keyed`: the view's service
    keeps the key too).
    """
    allowed = [*methods, "HEAD"] if "GET" in methods else list(methods)

    def wrap(func: Callable[..., Any]) -> Any:
        func.authentication_classes = [ApiTokenAuthentication, SessionAuthentication]  # type: ignore[attr-defined]
        func.permission_classes = [IsAuthenticated]  # type: ignore[attr-defined]
        func.parser_classes = [JSONWithoutNulParser]  # type: ignore[attr-defined]
        func.renderer_classes = list(renderers)  # type: ignore[attr-defined]
        func.content_negotiation_class = FormatNegotiation  # type: ignore[attr-defined]
        if WRITES.intersection(methods):
            func = idempotent(func, service_keyed=service_keyed)
        return api_view(allowed)(func)

    return wrap


class ConditionalGetOrHead(ConditionalGetMiddleware):
    """Django's conditional GET, for HEAD too: HEAD is GET without the body, so the same ETag and 304.

    (Django's middleware skips HEAD; here the view has rendered the body, so its hash is the GET's.)"""

    def process_response(self, request: Any, response: Any) -> Any:
        if request.method != "HEAD":
            return super().process_response(request, response)
        request.method = "GET"
        try:
            return super().process_response(request, response)
        finally:
            request.method = "HEAD"


# A GET's (or HEAD's) answer carries an ETag (a hash of its body); `If-None-Match` with it gets a 304 with no body.
etag_conditional = decorator_from_middleware(ConditionalGetOrHead)
NOT_MODIFIED = {304: OpenApiResponse(description="not modified: `If-None-Match` holds the ETag of this answer")}


def session_etag(request: Request, session_id: int) -> str | None:
    """The validator of a GET of one of session `session_id`'s answers: its stored `version` (every write to the
    session bumps it), the reader's language and the URL asked (the query and the absolute links in the body).
    None when the caller may not read the session (the view answers its 404)."""
    version = get_session_version_for_user(request.user, session_id)
    if version is None:
        return None
    url = hashlib.blake2s(request.build_absolute_uri().encode(), digest_size=8).hexdigest()
    return f'"s{session_id}.{version}.{request_lang()}.{url}"'


def session_conditional(view: Callable[..., Response]) -> Callable[..., Response]:
    """A GET (or HEAD) of a session's answer with `If-None-Match` holding its `session_etag` is a 304 without a body,
    answered from the session's version (one query) before anything else is read or rendered; a 200 carries the
    ETag. Inside `api_endpoint` (the caller is authenticated first)."""

    @functools.wraps(view)
    def conditional(request: Request, session_id: int, **kwargs: Any) -> Response:
        if request.method not in ("GET", "HEAD"):
            return view(request, session_id, **kwargs)
        etag = session_etag(request, session_id)
        if etag is not None and etag in parse_etags(request.headers.get("If-None-Match", "")):
            return Response(status=304, headers={"ETag": etag})
        response = view(request, session_id, **kwargs)
        if etag is not None and response.status_code == 200:
            response["ETag"] = etag
        return response

    return conditional


def error_responses(*codes: int, media_type: str | None = None) -> dict[Any, Any]:
    described = {
        400: "bad input: `code`, `hand` and `field` say which",
        401: "not logged in (send `Authorization: Token …`)",
        403: "your role in the club does not allow this (viewers cannot write)",
        404: "no such object among your clubs'",
        406: "the `Accept` header asks for something this address does not give",
        409: "the session's state refuses it: closed, hand already void, key reused for another hand",
    }
    response = {code: OpenApiResponse(s.ErrorSerializer, description=described[code]) for code in codes}
    return {(code, media_type): r for code, r in response.items()} if media_type else response


READ_ERRORS = error_responses(401, 404)
WRITE_ERRORS = error_responses(400, 401, 403, 404, 409)


def idempotency_key(request: Request) -> str:
    """The `Idempotency-Key` for a service that keeps its own (a hand's, an import's: at most `CLIENT_KEY_MAX`
    characters); a longer key is `idempotency.py`'s alone, and the service gets none."""
    key = key_header(request)
    return key if len(key) <= CLIENT_KEY_MAX else ""


@contextmanager
def key_errors() -> Iterator[None]:
    """The services' `client_key` is the `Idempotency-Key` header here: refusals name it."""
    try:
        yield
    except LedgerError as error:
        if error.field == "client_key":
            error.field = IDEMPOTENCY_HEADER
        raise


def object_body(request: Request, fields: Collection[str]) -> dict[str, Any]:
    """The request's JSON object; a field it does not take is refused by name (a typo is not silently lost)."""
    if not isinstance(request.data, dict):
        raise NotAnObject
    for key in request.data:
        if key not in fields:
            raise LedgerError("field.unknown", field=str(key), subject="body", name=key)
    return request.data


# `?format=` is the content negotiation's (`renderers.FormatNegotiation` refuses a format not given there).
QUERY_ANYWHERE = frozenset({"format"})


def query_unknown_refuse(keys: Collection[str], fields: Collection[str]) -> None:
    """A query parameter the call does not take is refused by name (`?page=2` is not silently page 1)."""
    for key in keys:
        if key not in fields and key not in QUERY_ANYWHERE:
            raise LedgerError("field.unknown", field=str(key), subject="query", name=key)


def query_none(request: Request) -> None:
    """The call takes no query parameters: any is refused by name."""
    query_unknown_refuse(request.query_params.keys(), ())


def query_valid(serializer: Any) -> dict[str, Any]:
    # Read as a plain dict, never the QueryDict: DRF reads an empty `?variant=` or `?limit=` from a QueryDict as
    # left out (the default), where the schema says a variant is one of the keys and a limit an integer.
    if isinstance(serializer.initial_data, QueryDict):
        serializer.initial_data = serializer.initial_data.dict()
    query_unknown_refuse(serializer.initial_data.keys(), serializer.fields.keys())
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def page_previous(url: str, *, offset: int, limit: int) -> str | None:
    """The link to the page before the one at `offset` (null on the first page): `url` with `offset` moved back
    by `limit`, or without `offset` where that reaches the start."""
    if offset <= 0:
        return None
    if offset - limit <= 0:
        return remove_query_param(url, "offset")
    return replace_query_param(url, "offset", offset - limit)


def page_body(request: Request, *, offset: int, limit: int, count: int, results: Any) -> dict[str, Any]:
    """A list's page as answered: `count` in all, the `next` and `previous` pages' links and the page's `results`."""
    url = request.build_absolute_uri()
    following = replace_query_param(url, "offset", offset + limit) if offset + limit < count else None
    return {
        "count": count,
        "next": following,
        "previous": page_previous(url, offset=offset, limit=limit),
        "results": results,
    }


def list_page(
    request: Request,
    items: Any,
    serializer: type[serializers.Serializer],
    query_serializer: type[serializers.Serializer] = s.ListQuerySerializer,
) -> Response:
    """A page of `items` (a query set): `?limit` and `?offset` applied, and `?updated_since` (on `updated_at`)
    where `query_serializer` takes it."""
    query = query_valid(query_serializer(data=request.query_params.dict()))
    offset, limit = query["offset"], query["limit"]
    if "updated_since" in query:
        items = items.filter(updated_at__gte=query["updated_since"])
    count = items.count()
    page = list(items[offset : offset + limit]) if count > offset else []
    results = serializer(page, many=True).data
    return Response(page_body(request, offset=offset, limit=limit, count=count, results=results))


def sequence_page(request: Request, items: Sequence[Any], serializer: type[serializers.Serializer]) -> Response:
    """A page of `items` (a list already in its order, no `updated_at`): `?limit` and `?offset` applied."""
    query = query_valid(s.PageQuerySerializer(data=request.query_params.dict()))
    offset, limit = query["offset"], query["limit"]
    results = serializer(items[offset : offset + limit], many=True).data
    return Response(page_body(request, offset=offset, limit=limit, count=len(items), results=results))
