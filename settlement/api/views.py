"""The API's views: plain functions over the ledger's services and selectors.

Every lookup goes through a `_get_<obj>_for_user` helper that scopes it to
the caller's clubs (another club's object is a 404, as if it did not exist);
writes need the owner or scorekeeper role (a viewer gets a 403). Token
authentication comes first, so an anonymous call is a 401 that names the
scheme. Refusals raise and are answered in one shape by `errors.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.middleware.http import ConditionalGetMiddleware
from django.urls import is_valid_path
from django.utils.decorators import decorator_from_middleware
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.decorators import api_view
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.utils.urls import remove_query_param, replace_query_param

from settlement import policy, selectors, services
from settlement.ledger import LedgerError, hand_input_ordered
from settlement.models import Session
from settlement.presentation.stats import group_name, standings_document
from settlement.rules.base import RulesError
from settlement.scoping import get_membership_for_user, get_player_for_user, get_session_for_user, request_lang

from . import serializers as s
from .authentication import ApiTokenAuthentication
from .errors import NotAnObject, error_body
from .parsers import JSONWithoutNulParser, nul_refuse
from .renderers import FormatNegotiation, StandingsCSVRenderer
from .schema import golden_documents

IDEMPOTENCY_HEADER = "Idempotency-Key"
JSON = "application/json"


def api_endpoint(*methods: str, renderers: Sequence[type[BaseRenderer]] = (JSONRenderer,)) -> Callable[..., Any]:
    """`@api_view` with the API's settings: token then session auth, logged-in callers, JSON in and out.

    Every GET answers HEAD too (the same status and headers, no body); an unknown `?format=` is a 400.
    """
    allowed = [*methods, "HEAD"] if "GET" in methods else list(methods)

    def wrap(func: Callable[..., Any]) -> Any:
        func.authentication_classes = [ApiTokenAuthentication, SessionAuthentication]  # type: ignore[attr-defined]
        func.permission_classes = [IsAuthenticated]  # type: ignore[attr-defined]
        func.parser_classes = [JSONWithoutNulParser]  # type: ignore[attr-defined]
        func.renderer_classes = list(renderers)  # type: ignore[attr-defined]
        func.content_negotiation_class = FormatNegotiation  # type: ignore[attr-defined]
        return api_view(allowed)(func)

    return wrap


# A GET's answer carries an ETag (a hash of its body); `If-None-Match` with it gets a 304 with no body.
etag_conditional = decorator_from_middleware(ConditionalGetMiddleware)
NOT_MODIFIED = {304: OpenApiResponse(description="not modified: `If-None-Match` holds the ETag of this answer")}


def _errors(*codes: int, media_type: str | None = None) -> dict[Any, Any]:
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


READ_ERRORS = _errors(401, 404)
WRITE_ERRORS = _errors(400, 401, 403, 404, 409)

# Request examples (Swagger UI offers them; schemathesis sends them first), from the golden sessions.
GOLDEN = golden_documents()
DOCUMENT_EXAMPLES = [
    OpenApiExample(name, value=golden["document"], request_only=True, description=golden["source"])
    for name, golden in GOLDEN.items()
]
HAND_EXAMPLE = GOLDEN["baifen-benxi-example"]["document"]["hands"][1]
HAND_EXAMPLES = [
    OpenApiExample(
        f"{golden['document']['variant']}: hand 2 of {name}",
        value=golden["document"]["hands"][1],
        request_only=True,
        description=golden["source"],
    )
    for name, golden in GOLDEN.items()
]


def _idempotency_key(request: Request) -> str:
    key = request.headers.get(IDEMPOTENCY_HEADER, "")
    if "\x00" in key:
        nul_refuse(IDEMPOTENCY_HEADER)
    return key


@contextmanager
def _key_errors() -> Iterator[None]:
    """The services' `client_key` is the `Idempotency-Key` header here: refusals name it."""
    try:
        yield
    except LedgerError as error:
        if error.field == "client_key":
            error.field = IDEMPOTENCY_HEADER
        raise


def _object_body(request: Request, fields: Collection[str]) -> dict[str, Any]:
    """The request's JSON object; a field it does not take is refused by name (a typo is not silently lost)."""
    if not isinstance(request.data, dict):
        raise NotAnObject
    for key in request.data:
        if key not in fields:
            raise LedgerError("field.unknown", field=str(key), subject="body", name=key)
    return request.data


def _document_nulls(document: Any) -> None:
    """`date` and `venue` are text or left out, as the schema says (the engine alone would take a null)."""
    if isinstance(document, dict):
        for key in ("date", "venue"):
            if key in document and document[key] is None:
                raise LedgerError.from_rules(RulesError("value.not_text", field=key))


def _query(serializer: Any) -> dict[str, Any]:
    # Given `query_params.dict()`, not the QueryDict: DRF reads an empty `?variant=` from a QueryDict as left out,
    # where the schema says a variant is one of the keys.
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _session_body(session: Session, results: dict[str, Any]) -> dict[str, Any]:
    """The results document with the session's id, club, date, venue, status and times first."""
    return {
        "id": session.pk,
        "club": session.club.slug,
        "date": session.date.isoformat(),
        "venue": session.venue,
        "status": session.status,
        "created": s.SessionResultsSerializer().fields["created"].to_representation(session.created_at),
        "updated": s.SessionResultsSerializer().fields["updated"].to_representation(session.updated_at),
        **results,
    }


def _page_links(url: str, *, offset: int, limit: int, count: int) -> dict[str, str | None]:
    """`next` and `previous` of a list's page: `url` with `offset` moved by `limit` (null at the ends)."""
    following = replace_query_param(url, "offset", offset + limit) if offset + limit < count else None
    if offset <= 0:
        preceding = None
    elif offset - limit <= 0:
        preceding = remove_query_param(url, "offset")
    else:
        preceding = replace_query_param(url, "offset", offset - limit)
    return {"next": following, "previous": preceding}


def _list_page(request: Request, items: Any, serializer: type[serializers.Serializer]) -> Response:
    """A page of `items` (a query set with `updated_at`): `?limit`, `?offset` and `?updated_since` applied."""
    query = _query(s.ListQuerySerializer(data=request.query_params.dict()))
    offset, limit = query["offset"], query["limit"]
    if "updated_since" in query:
        items = items.filter(updated_at__gte=query["updated_since"])
    count = items.count()
    page = list(items[offset : offset + limit]) if count > offset else []
    links = _page_links(request.build_absolute_uri(), offset=offset, limit=limit, count=count)
    return Response({"count": count, **links, "results": serializer(page, many=True).data})


def _sequence_page(request: Request, items: Sequence[Any], serializer: type[serializers.Serializer]) -> Response:
    """A page of `items` (a list already in its order, no `updated_at`): `?limit` and `?offset` applied."""
    query = _query(s.PageQuerySerializer(data=request.query_params.dict()))
    offset, limit = query["offset"], query["limit"]
    count = len(items)
    links = _page_links(request.build_absolute_uri(), offset=offset, limit=limit, count=count)
    return Response({"count": count, **links, "results": serializer(items[offset : offset + limit], many=True).data})


def _session_results(session: Session, *, url: str, offset: int = 0, limit: int = s.HANDS_PAGE) -> dict[str, Any]:
    """The session's body: the page of its hands `limit` after skipping the `offset` newest, with links
    (`url` with `offset`/`limit` replaced) to the older and the newer page."""
    record = selectors.session_results(session=session, lang=request_lang(), offset=offset, limit=limit)
    if record.results is None:
        error = record.error
        assert error is not None
        raise LedgerError("log.unreadable", field=error.field, hand=error.hand, detail=error.message(request_lang()))
    window = record.window
    assert window is not None
    paged = url if limit == s.HANDS_PAGE else replace_query_param(url, "limit", limit)
    following = replace_query_param(paged, "offset", offset + limit) if window.has_older else None
    if offset <= 0:
        preceding = None
    elif offset - limit <= 0:
        preceding = remove_query_param(paged, "offset")
    else:
        preceding = replace_query_param(paged, "offset", offset - limit)
    links = {"hand_count": window.count, "next": following, "previous": preceding}
    return {**_session_body(session, record.results), **links}


def _hand_body(session: Session, write: services.HandWrite) -> dict[str, Any]:
    """The hand's current revision and its result in the session, from the rows the write stored (no replay)."""
    result, game_end = selectors.hand_result(
        session=session, number=write.hand.number, lang=request_lang(), derived=write.derived, players=write.players
    )
    revision = write.revision
    times = s.HandWriteSerializer().fields["created"]
    return {
        "n": write.hand.number,
        "revision": revision.number,
        "is_void": revision.is_void,
        "input": hand_input_ordered(revision.input),
        "created": times.to_representation(write.hand.created_at),
        "updated": times.to_representation(revision.created_at),
        "result": result,
        "game_end": game_end,
    }


# --- clubs ---


@extend_schema(
    operation_id="clubs_list",
    tags=["clubs"],
    summary="Your clubs, with your role in each, a page at a time",
    parameters=[s.ListQuerySerializer],
    responses={200: s.ClubPageSerializer, **_errors(400, 401)},
)
@api_endpoint("GET")
def clubs_list(request: Request) -> Response:
    return _list_page(request, selectors.user_clubs(user=request.user), s.ClubSerializer)


@extend_schema(
    operation_id="club_players_list",
    tags=["clubs"],
    summary="The club's players (members first, then guests), a page at a time",
    parameters=[s.ListQuerySerializer],
    responses={200: s.PlayerPageSerializer, **_errors(400, 401, 404)},
)
@api_endpoint("GET")
def club_players(request: Request, slug: str) -> Response:
    membership = get_membership_for_user(request.user, slug)
    return _list_page(request, selectors.club_players(club=membership.club), s.PlayerSerializer)


# --- sessions ---


@extend_schema(
    methods=["GET"],
    operation_id="club_sessions_list",
    tags=["sessions"],
    summary="The club's sessions, newest first, filtered and paginated",
    parameters=[s.SessionFilterSerializer],
    responses={200: s.SessionPageSerializer, **NOT_MODIFIED, **_errors(400, 401, 404)},
)
@extend_schema(
    methods=["POST"],
    operation_id="club_sessions_import",
    tags=["sessions"],
    summary="Import a session document, whole or not at all",
    description=(
        "The document's players are matched to the club's by name (a new name becomes a guest). "
        "A refusal names the hand (1-based) and the field and imports nothing. "
        "The session is closed unless `close=false`. "
        f"With an `{IDEMPOTENCY_HEADER}` header a retry is safe: the same key, document and `close` give the "
        "session imported the first time (`Idempotent-Replayed: true`); the same key with another is a 409."
    ),
    parameters=[
        s.ImportQuerySerializer,
        OpenApiParameter(
            IDEMPOTENCY_HEADER,
            {"type": "string", "maxLength": 64},
            OpenApiParameter.HEADER,
            description="a key the client makes for this import, at most 64 characters",
        ),
        OpenApiParameter(
            "Idempotent-Replayed",
            OpenApiTypes.STR,
            OpenApiParameter.HEADER,
            response=[201],
            description="`true` when the session had been imported already with this key",
        ),
    ],
    request={JSON: s.SESSION_DOCUMENT},
    examples=DOCUMENT_EXAMPLES,
    responses={201: s.SessionResultsSerializer, **WRITE_ERRORS},
)
@etag_conditional
@api_endpoint("GET", "POST")
def club_sessions(request: Request, slug: str) -> Response:
    membership = get_membership_for_user(request.user, slug)
    club = membership.club
    if request.method == "POST":
        policy.deny_unless(policy.may_write(membership.role))
        close = _query(s.ImportQuerySerializer(data=request.query_params.dict()))["close"]
        _document_nulls(request.data)
        with _key_errors():
            write = services.session_import(
                club=club, user=request.user, document=request.data, close=close, client_key=_idempotency_key(request)
            )
        session = write.session
        session.club = club
        headers = {"Location": reverse("api_session_detail", args=[session.pk], request=request)}
        if not write.created:
            headers["Idempotent-Replayed"] = "true"
        body = _session_results(session, url=headers["Location"])
        return Response(body, status=status.HTTP_201_CREATED, headers=headers)

    filters = _query(s.SessionFilterSerializer(data=request.query_params.dict(), club=club))
    offset, limit = filters.pop("offset"), filters.pop("limit")
    page = selectors.club_sessions_page(club=club, offset=offset, limit=limit, **filters)
    links = _page_links(request.build_absolute_uri(), offset=offset, limit=limit, count=page.count)
    body = {"count": page.count, **links, "results": page.summaries}
    return Response(s.SessionPageSerializer(body).data)


@extend_schema(
    operation_id="session_retrieve",
    tags=["sessions"],
    summary="The session's results document (as `manage.py settle` prints it) with id, club, date and status",
    description=(
        "Hands are numbered as in the ledger: a void hand keeps its number and is left out. "
        f"The hands come a page at a time, newest first: `limit` hands (default {s.HANDS_PAGE}) after skipping "
        "the `offset` newest, listed in play order; `next` is the page of older hands (null on the last), "
        "`previous` the newer. A session of up to one page is the whole document. `games` are the games that "
        "ended among the page's hands, and the game in progress on the newest page; `totals`, `games_won` and "
        "`settle_up` are always the whole session's. `hand_count` counts every hand of the log, void ones too."
    ),
    parameters=[s.HandPageQuerySerializer],
    responses={200: s.SessionResultsSerializer, **NOT_MODIFIED, **_errors(400, 401, 404, 409)},
)
@etag_conditional
@api_endpoint("GET")
def session_detail(request: Request, session_id: int) -> Response:
    _, session = get_session_for_user(request.user, session_id)
    page = _query(s.HandPageQuerySerializer(data=request.query_params))
    return Response(
        _session_results(session, url=request.build_absolute_uri(), offset=page["offset"], limit=page["limit"])
    )


@extend_schema(
    operation_id="session_export",
    tags=["sessions"],
    summary="The session document, which imports again to the same results",
    description="Void hands are left out, so hand numbers close up.",
    responses={200: s.SESSION_DOCUMENT, **READ_ERRORS},
)
@api_endpoint("GET")
def session_export(request: Request, session_id: int) -> Response:
    _, session = get_session_for_user(request.user, session_id)
    return Response(services.session_export(session=session))


@extend_schema(
    operation_id="session_close",
    tags=["sessions"],
    summary="Close the session: no more hands (owners and scorekeepers; closing a closed one changes nothing)",
    request=s.EmptySerializer,
    responses={200: s.SessionStatusSerializer, **_errors(400, 401, 403, 404)},
)
@api_endpoint("POST")
def session_close(request: Request, session_id: int) -> Response:
    membership, session = get_session_for_user(request.user, session_id)
    policy.deny_unless(policy.may_write(membership.role))
    _object_body(request, ())
    session = services.session_close(session=session, user=request.user)
    return Response(s.SessionStatusSerializer(session).data)


@extend_schema(
    operation_id="session_reopen",
    tags=["sessions"],
    summary="Open a closed session again for more hands (owners only; kept in the audit trail)",
    request=s.EmptySerializer,
    responses={200: s.SessionStatusSerializer, **_errors(400, 401, 403, 404)},
)
@api_endpoint("POST")
def session_reopen(request: Request, session_id: int) -> Response:
    membership, session = get_session_for_user(request.user, session_id)
    policy.deny_unless(policy.may_reopen(membership.role))
    _object_body(request, ())
    session = services.session_reopen(session=session, user=request.user)
    return Response(s.SessionStatusSerializer(session).data)


# --- hands ---


@extend_schema(
    methods=["GET"],
    operation_id="hands_list",
    tags=["hands"],
    summary="The session's hands in play order, void ones too, each as currently entered, a page at a time",
    description=(
        "For an incremental sync: `updated_since` gives the hands with a revision (a recording, a correction, "
        "a void) at or after that time. The figures are in `GET sessions/{id}/`."
    ),
    parameters=[s.ListQuerySerializer],
    responses={200: s.HandPageSerializer, **NOT_MODIFIED, **_errors(400, 401, 404)},
)
@extend_schema(
    methods=["POST"],
    operation_id="hand_record",
    tags=["hands"],
    summary="Record the next hand of an open session",
    description=(
        f"With an `{IDEMPOTENCY_HEADER}` header a retry is safe: the same key and the same hand give the "
        "same response and one hand (`Idempotent-Replayed: true`); the same key with a different hand is a 409."
    ),
    parameters=[
        OpenApiParameter(
            IDEMPOTENCY_HEADER,
            {"type": "string", "maxLength": 64},
            OpenApiParameter.HEADER,
            description="a key the client makes for this hand, at most 64 characters",
        ),
        OpenApiParameter(
            "Idempotent-Replayed",
            OpenApiTypes.STR,
            OpenApiParameter.HEADER,
            response=[201],
            description="`true` when the hand had been recorded already with this key",
        ),
    ],
    request={JSON: s.HAND_INPUT},
    examples=HAND_EXAMPLES,
    responses={201: s.HandWriteSerializer, **WRITE_ERRORS},
)
@etag_conditional
@api_endpoint("GET", "POST")
def hand_record(request: Request, session_id: int) -> Response:
    membership, session = get_session_for_user(request.user, session_id)
    if request.method != "POST":
        query = _query(s.ListQuerySerializer(data=request.query_params.dict()))
        offset, limit = query["offset"], query["limit"]
        count, hands = selectors.session_hands(
            session=session, updated_since=query.get("updated_since"), offset=offset, limit=limit
        )
        links = _page_links(request.build_absolute_uri(), offset=offset, limit=limit, count=count)
        return Response({"count": count, **links, "results": s.HandListItemSerializer(hands, many=True).data})
    policy.deny_unless(policy.may_write(membership.role))
    with _key_errors():
        write = services.hand_record(
            session=session, user=request.user, hand_input=request.data, client_key=_idempotency_key(request)
        )
    headers = {} if write.created else {"Idempotent-Replayed": "true"}
    return Response(_hand_body(session, write), status=status.HTTP_201_CREATED, headers=headers)


@extend_schema(
    operation_id="hand_preview",
    tags=["hands"],
    summary="What the session's results would be with this hand (nothing is written)",
    description=(
        "The hand is added after the others: its result, the game it plays in or ends and the session's totals"
        " after it, with the newest page of hands before it (as `GET sessions/{id}/` pages them; `next` the page"
        " before those). With `number` it replaces that hand (a correction's preview): the whole document."
    ),
    parameters=[s.PreviewQuerySerializer],
    request={JSON: s.HAND_INPUT},
    examples=HAND_EXAMPLES,
    responses={200: s.PreviewResultsSerializer, **_errors(400, 401, 404)},
)
@api_endpoint("POST")
def hand_preview(request: Request, session_id: int) -> Response:
    _, session = get_session_for_user(request.user, session_id)
    number = _query(s.PreviewQuerySerializer(data=request.query_params.dict())).get("number")
    if number is not None:  # a correction replays every hand after it: the whole document
        results = services.hand_preview(session=session, hand_input=request.data, lang=request_lang(), number=number)
        return Response({**results, "next": None})
    # A new hand: played on from the stored state, added to the newest page of stored hands (no replay of the log).
    preview = services.hand_preview_next(session=session, hand_input=request.data, lang=request_lang())
    record = selectors.session_results(session=session, lang=request_lang(), limit=s.HANDS_PAGE)
    if record.results is None or record.window is None:
        error = record.error
        assert error is not None
        raise LedgerError("log.unreadable", field=error.field, hand=error.hand, detail=error.message(request_lang()))
    url = reverse("api_session_detail", kwargs={"session_id": session.pk}, request=request)
    following = replace_query_param(url, "offset", s.HANDS_PAGE) if record.window.has_older else None
    return Response({**selectors.results_with_preview(record.results, preview), "next": following})


@extend_schema(
    operation_id="hand_correct",
    tags=["hands"],
    summary="Correct hand n: a new revision with the reason; later hands are replayed on it",
    request=s.HandCorrectSerializer,
    examples=[
        OpenApiExample(
            "captured 5 more",
            value={"hand": {**HAND_EXAMPLE, "captured": HAND_EXAMPLE["captured"] + 5}, "reason": "5 more captured"},
            request_only=True,
        )
    ],
    responses={200: s.HandWriteSerializer, **WRITE_ERRORS},
)
@api_endpoint("POST")
def hand_correct(request: Request, session_id: int, number: int) -> Response:
    membership, session = get_session_for_user(request.user, session_id)
    policy.deny_unless(policy.may_write(membership.role))
    body = _object_body(request, ("hand", "reason", "revision"))
    write = services.hand_correct(
        session=session,
        user=request.user,
        number=number,
        hand_input=body.get("hand"),
        reason=body.get("reason", ""),
        revision=body.get("revision"),
    )
    return Response(_hand_body(session, write))


@extend_schema(
    operation_id="hand_void",
    tags=["hands"],
    summary="Void hand n: it keeps its number and history and stops counting",
    request=s.HandVoidSerializer,
    examples=[OpenApiExample("entered twice", value={"reason": "entered twice"}, request_only=True)],
    responses={200: s.HandWriteSerializer, **WRITE_ERRORS},
)
@api_endpoint("POST")
def hand_void(request: Request, session_id: int, number: int) -> Response:
    membership, session = get_session_for_user(request.user, session_id)
    policy.deny_unless(policy.may_write(membership.role))
    body = _object_body(request, ("reason", "revision"))
    write = services.hand_void(
        session=session,
        user=request.user,
        number=number,
        reason=body.get("reason", ""),
        revision=body.get("revision"),
    )
    return Response(_hand_body(session, write))


@extend_schema(
    operation_id="hand_revisions",
    tags=["hands"],
    summary="Hand n's history: every revision, oldest first, with its author, time and reason",
    description="A page at a time (a hand has few revisions: the first page holds them all unless `limit` is low).",
    parameters=[s.PageQuerySerializer],
    responses={200: s.RevisionPageSerializer, **_errors(400, 401, 404)},
)
@api_endpoint("GET")
def hand_revisions(request: Request, session_id: int, number: int) -> Response:
    _, session = get_session_for_user(request.user, session_id)
    query = _query(s.PageQuerySerializer(data=request.query_params.dict()))
    offset, limit = query["offset"], query["limit"]
    revisions = selectors.hand_revisions(session=session, number=number)
    links = _page_links(request.build_absolute_uri(), offset=offset, limit=limit, count=len(revisions))
    page = revisions[offset : offset + limit]
    return Response({"count": len(revisions), **links, "results": s.RevisionSerializer(page, many=True).data})


# --- standings and statistics ---


@extend_schema(
    operation_id="club_standings",
    tags=["standings"],
    summary="The club's standings, a ranked table per game family and unit; `?format=csv` for a spreadsheet",
    description=(
        "A group per (family, unit) — 打百分's 盘 points, classic 注, stake points (打二鬼, 打滚子), 标分's 档, "
        "levels — never added across units; in each, every player who sat in one of the (filtered) sessions, "
        "ranked by total, then games won, then sessions won (the group's `ranking` says so in words). "
        "The CSV is UTF-8 with a byte-order mark, a row per player per group."
    ),
    parameters=[s.StandingsFilterSerializer],
    responses={
        (200, JSON): s.StandingGroupSerializer(many=True),
        (200, StandingsCSVRenderer.media_type): OpenApiTypes.STR,
        **{(304, JSON): NOT_MODIFIED[304]},
        **_errors(400, 401, 404, media_type=JSON),
    },
)
@etag_conditional
@api_endpoint("GET", renderers=(JSONRenderer, StandingsCSVRenderer))
def club_standings(request: Request, slug: str) -> Response:
    return _standings(request, slug)


@extend_schema(
    operation_id="club_standings_csv",
    tags=["standings"],
    summary="The standings as CSV, for a spreadsheet (the same as `standings/?format=csv`)",
    description="UTF-8 with a byte-order mark; a row per player per group (family and unit).",
    parameters=[s.StandingsCSVFilterSerializer],
    responses={
        (200, StandingsCSVRenderer.media_type): OpenApiTypes.STR,
        **{(304, JSON): NOT_MODIFIED[304]},
        **_errors(400, 401, 404, 406, media_type=JSON),
    },
)
@etag_conditional
@api_endpoint("GET", renderers=(StandingsCSVRenderer,))
def club_standings_csv(request: Request, slug: str) -> Response:
    return _standings(request, slug)


def _standings(request: Request, slug: str) -> Response:
    membership = get_membership_for_user(request.user, slug)
    filters = _query(s.StandingsFilterSerializer(data=request.query_params.dict()))
    filters.pop("format", None)
    groups = selectors.standings_grouped(club=membership.club, **filters)
    response = Response(s.StandingGroupSerializer(standings_document(groups, lang=request_lang()), many=True).data)
    if request.accepted_renderer.format == StandingsCSVRenderer.format:
        response["Content-Disposition"] = f'attachment; filename="standings-{membership.club.slug}.csv"'
    return response


@extend_schema(
    operation_id="player_stats",
    tags=["standings"],
    summary="A player's statistics per game family and unit",
    description=(
        "Sessions and hands played; per (family, unit): the totals and averages, declarer figures by bid "
        "(null for games without bids), the best and worst sessions, partners (hands won together) and "
        "opponents (hands against, won, and the player's net), and the running total session by session."
    ),
    responses={200: s.PlayerStatsSerializer, **READ_ERRORS},
)
@api_endpoint("GET")
def player_stats(request: Request, slug: str, player_id: int) -> Response:
    membership, player = get_player_for_user(request.user, slug, player_id)
    stats = selectors.player_stats(club=membership.club, player=player)
    lang = request_lang()
    body = {
        "player": stats.player,
        "sessions": stats.sessions,
        "hands": stats.hands,
        "groups": [{**vars(group), "label": group_name(group.group, lang)} for group in stats.groups],
    }
    return Response(s.PlayerStatsSerializer(body).data)


# --- personal API tokens ---


@extend_schema(
    methods=["GET"],
    operation_id="tokens_list",
    tags=["tokens"],
    summary="Your personal API tokens, newest first (revoked ones too; never their secrets), a page at a time",
    parameters=[s.PageQuerySerializer],
    responses={200: s.ApiTokenPageSerializer, **_errors(400, 401)},
)
@extend_schema(
    methods=["POST"],
    operation_id="tokens_create",
    tags=["tokens"],
    summary="Make a named token; its secret is in this answer only",
    request=s.ApiTokenCreateSerializer,
    examples=[OpenApiExample("a spreadsheet's", value={"name": "spreadsheet"}, request_only=True)],
    responses={201: s.ApiTokenMadeSerializer, **_errors(400, 401)},
)
@api_endpoint("GET", "POST")
def tokens(request: Request) -> Response:
    if request.method == "POST":
        body = _object_body(request, ("name", "expires"))
        expires = body.get("expires")
        if expires is not None:
            expires = _query(s.ApiTokenCreateSerializer(data={"name": "-", "expires": expires}))["expires"]
        token, secret = services.api_token_create(user=request.user, name=body.get("name", ""), expires_at=expires)
        return Response(s.ApiTokenMadeSerializer({**vars(token), "token": secret}).data, status=status.HTTP_201_CREATED)
    query = _query(s.PageQuerySerializer(data=request.query_params.dict()))
    offset, limit = query["offset"], query["limit"]
    tokens = selectors.user_api_tokens(user=request.user)
    count = tokens.count()
    links = _page_links(request.build_absolute_uri(), offset=offset, limit=limit, count=count)
    page = list(tokens[offset : offset + limit]) if count > offset else []
    return Response({"count": count, **links, "results": s.ApiTokenSerializer(page, many=True).data})


@extend_schema(
    operation_id="tokens_revoke",
    tags=["tokens"],
    summary="Revoke one of your tokens: it stops working at once (revoking twice changes nothing)",
    responses={204: None, **_errors(401, 404)},
)
@api_endpoint("DELETE")
def token_revoke(request: Request, token_id: int) -> Response:
    services.api_token_revoke(user=request.user, token_id=token_id)
    return Response(status=status.HTTP_204_NO_CONTENT)


# --- an address without its trailing slash ---


@csrf_exempt
def slash_missing(request: HttpRequest, path: str) -> HttpResponse:
    """`/api/v1/…` without the slash the address has: a GET is redirected (it has no body to lose);
    any other method is a 404 naming the right address, since a redirect would drop the body."""
    right = request.path + "/"
    if not is_valid_path(right, getattr(request, "urlconf", None)):
        return JsonResponse(error_body(code="not_found", message=_("There is no such address in the API.")), status=404)
    if request.method in ("GET", "HEAD"):
        query = request.META.get("QUERY_STRING", "")
        return HttpResponsePermanentRedirect(right + ("?" + query if query else ""))
    message = _("This address ends with a slash: {path}").format(path=right)
    return JsonResponse(error_body(code="not_found.slash", message=message), status=404)
