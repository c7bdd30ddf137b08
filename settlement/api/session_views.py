"""The API's sessions and hands: import, list, read, export, close and reopen sessions; record, preview,
correct and void hands, and a hand's revisions. Plain functions over the services and selectors
(the endpoint decorator, error answers and pages are `common.py`'s).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.utils.urls import replace_query_param

from settlement import policy, selectors, services
from settlement.ledger import LedgerError, hand_input_ordered
from settlement.models import Session
from settlement.rules.base import RulesError
from settlement.scoping import get_membership_for_user, get_session_for_user, request_lang, session_for_write

from . import serializers as s
from .common import (
    IDEMPOTENCY_HEADER,
    JSON,
    NOT_MODIFIED,
    READ_ERRORS,
    WRITE_ERRORS,
    api_endpoint,
    error_responses,
    etag_conditional,
    idempotency_key,
    key_errors,
    object_body,
    page_body,
    page_previous,
    query_none,
    query_valid,
    session_conditional,
)
from .schema import golden_documents

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


def _document_nulls(document: Any) -> None:
    """`date` and `venue` are text, `options` an object, or left out, as the schema says (the engine alone would
    take a null)."""
    if isinstance(document, dict):
        for key in ("date", "venue"):
            if key in document and document[key] is None:
                raise LedgerError.from_rules(RulesError("value.not_text", field=key))
        if "options" in document and document["options"] is None:  # the engine would read null as no options
            raise LedgerError.from_rules(RulesError("value.not_object", field="options"))


def _session_body(session: Session, results: dict[str, Any]) -> dict[str, Any]:
    """The results document with the session's id, club, date, venue, status and times first."""
    return {
        "id": session.pk,
        "club": session.club.slug,
        "date": session.date.isoformat(),
        "venue": session.venue,
        "status": session.status,
        "created": s.api_time(session.created_at),
        "updated": s.api_time(session.updated_at),
        **results,
    }


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
    links = {
        "hand_count": window.count,
        "next": following,
        "previous": page_previous(paged, offset=offset, limit=limit),
    }
    return {**_session_body(session, record.results), **links}


def _hand_body(session: Session, write: services.HandWrite) -> dict[str, Any]:
    """The hand's current revision and its result in the session, from the rows the write stored (no replay)."""
    result, game_end = selectors.hand_result(
        session=session, number=write.hand.number, lang=request_lang(), derived=write.derived, players=write.players
    )
    revision = write.revision
    return {
        "n": write.hand.number,
        "revision": revision.number,
        "is_void": revision.is_void,
        "variant": session.variant,
        "input": hand_input_ordered(revision.input),
        "created": s.api_time(write.hand.created_at),
        "updated": s.api_time(revision.created_at),
        "result": result,
        "game_end": game_end,
    }


# --- sessions ---


@extend_schema(
    methods=["GET"],
    operation_id="club_sessions_list",
    tags=["sessions"],
    summary="The club's sessions, newest first, filtered and paginated",
    parameters=[s.SessionFilterSerializer],
    responses={200: s.SessionPageSerializer, **NOT_MODIFIED, **error_responses(400, 401, 404)},
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
    parameters=[s.ImportQuerySerializer],
    request={JSON: s.SESSION_DOCUMENT},
    examples=DOCUMENT_EXAMPLES,
    responses={201: s.SessionResultsSerializer, **WRITE_ERRORS},
)
@etag_conditional
@api_endpoint("GET", "POST", service_keyed=True)
def club_sessions(request: Request, slug: str) -> Response:
    membership = get_membership_for_user(request.user, slug)
    club = membership.club
    if request.method == "POST":
        policy.deny_unless(policy.may_write(membership.role))
        close = query_valid(s.ImportQuerySerializer(data=request.query_params.dict()))["close"]
        _document_nulls(request.data)
        with key_errors():
            write = services.session_import(
                club=club, user=request.user, document=request.data, close=close, client_key=idempotency_key(request)
            )
        session = write.session
        session.club = club
        headers = {"Location": reverse("api_session_detail", args=[session.pk], request=request)}
        if not write.created:
            headers["Idempotent-Replayed"] = "true"
        body = _session_results(session, url=headers["Location"])
        return Response(body, status=status.HTTP_201_CREATED, headers=headers)

    filters = query_valid(s.SessionFilterSerializer(data=request.query_params.dict(), club=club))
    offset, limit = filters.pop("offset"), filters.pop("limit")
    page = selectors.club_sessions_page(club=club, offset=offset, limit=limit, **filters)
    body = page_body(request, offset=offset, limit=limit, count=page.count, results=page.summaries)
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
    responses={200: s.SessionResultsSerializer, **NOT_MODIFIED, **error_responses(400, 401, 404, 409)},
)
@api_endpoint("GET")
@session_conditional
def session_detail(request: Request, session_id: int) -> Response:
    _, session = get_session_for_user(request.user, session_id)
    page = query_valid(s.HandPageQuerySerializer(data=request.query_params.dict()))
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
    query_none(request)
    _, session = get_session_for_user(request.user, session_id)
    return Response(services.session_export(session=session))


@extend_schema(
    operation_id="session_close",
    tags=["sessions"],
    summary="Close the session: no more hands (owners and scorekeepers; closing a closed one changes nothing)",
    request=s.EmptySerializer,
    responses={200: s.SessionStatusSerializer, **error_responses(400, 401, 403, 404)},
)
@api_endpoint("POST")
def session_close(request: Request, session_id: int) -> Response:
    query_none(request)
    membership, session = get_session_for_user(request.user, session_id)
    policy.deny_unless(policy.may_write(membership.role))
    object_body(request, ())
    session = services.session_close(session=session, user=request.user)
    return Response(s.SessionStatusSerializer(session).data)


@extend_schema(
    operation_id="session_reopen",
    tags=["sessions"],
    summary="Open a closed session again for more hands (owners only; kept in the audit trail)",
    request=s.EmptySerializer,
    responses={200: s.SessionStatusSerializer, **error_responses(400, 401, 403, 404)},
)
@api_endpoint("POST")
def session_reopen(request: Request, session_id: int) -> Response:
    query_none(request)
    membership, session = get_session_for_user(request.user, session_id)
    policy.deny_unless(policy.may_reopen(membership.role))
    object_body(request, ())
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
    responses={200: s.HandPageSerializer, **NOT_MODIFIED, **error_responses(400, 401, 404)},
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
    request={JSON: s.HAND_INPUT},
    examples=HAND_EXAMPLES,
    responses={201: s.HandWriteSerializer, **WRITE_ERRORS},
)
@api_endpoint("GET", "POST", service_keyed=True)
@session_conditional
def hand_record(request: Request, session_id: int) -> Response:
    if request.method != "POST":
        _, session = get_session_for_user(request.user, session_id)
        query = query_valid(s.ListQuerySerializer(data=request.query_params.dict()))
        offset, limit = query["offset"], query["limit"]
        count, hands = selectors.session_hands(
            session=session, updated_since=query.get("updated_since"), offset=offset, limit=limit
        )
        results = s.HandListItemSerializer(hands, many=True, context={"variant": session.variant}).data
        return Response(page_body(request, offset=offset, limit=limit, count=count, results=results))
    query_none(request)
    with key_errors():  # the service scopes the session and checks the role, in the statement that locks it
        write = services.hand_record(
            session=session_for_write(session_id),
            user=request.user,
            hand_input=request.data,
            client_key=idempotency_key(request),
        )
    session = write.hand.session
    headers = {"Location": reverse("api_hand_detail", args=[session.pk, write.hand.number], request=request)}
    if not write.created:
        headers["Idempotent-Replayed"] = "true"
    return Response(_hand_body(session, write), status=status.HTTP_201_CREATED, headers=headers)


@extend_schema(
    operation_id="hand_retrieve",
    tags=["hands"],
    summary="Hand n as currently entered (void or not), as the hands list gives it",
    responses={200: s.HandListItemSerializer, **NOT_MODIFIED, **READ_ERRORS},
)
@etag_conditional
@api_endpoint("GET")
def hand_detail(request: Request, session_id: int, number: int) -> Response:
    query_none(request)
    _, session = get_session_for_user(request.user, session_id)
    _, hands = selectors.session_hands(session=session, number=number, limit=1)
    if not hands:
        raise LedgerError("hand.not_found", field="number", number=number)
    return Response(s.HandListItemSerializer(hands[0], context={"variant": session.variant}).data)


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
    responses={200: s.PreviewResultsSerializer, **error_responses(400, 401, 404)},
)
@api_endpoint("POST")
def hand_preview(request: Request, session_id: int) -> Response:
    _, session = get_session_for_user(request.user, session_id)
    number = query_valid(s.PreviewQuerySerializer(data=request.query_params.dict())).get("number")
    if number is not None:  # a correction replays every hand after it: the whole document
        results = services.hand_preview(session=session, hand_input=request.data, lang=request_lang(), number=number)
        return Response({**results, "next": None})
    # A new hand: played on from the stored state, added to the newest page of stored hands (no replay of the log).
    # The page's read has the seats and that state already: the preview plays on from them.
    record = selectors.session_results(session=session, lang=request_lang(), limit=s.HANDS_PAGE)
    preview = services.hand_preview_next(
        session=session,
        hand_input=request.data,
        lang=request_lang(),
        players=record.players,
        following=record.following,
    )
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
    query_none(request)
    membership, session = get_session_for_user(request.user, session_id)
    policy.deny_unless(policy.may_write(membership.role))
    body = object_body(request, ("hand", "reason", "revision"))
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
    query_none(request)
    membership, session = get_session_for_user(request.user, session_id)
    policy.deny_unless(policy.may_write(membership.role))
    body = object_body(request, ("reason", "revision"))
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
    responses={200: s.RevisionPageSerializer, **error_responses(400, 401, 404)},
)
@api_endpoint("GET")
def hand_revisions(request: Request, session_id: int, number: int) -> Response:
    _, session = get_session_for_user(request.user, session_id)
    query = query_valid(s.PageQuerySerializer(data=request.query_params.dict()))
    offset, limit = query["offset"], query["limit"]
    revisions = selectors.hand_revisions(session=session, number=number)
    results = s.RevisionSerializer(
        revisions[offset : offset + limit], many=True, context={"variant": session.variant}
    ).data
    return Response(page_body(request, offset=offset, limit=limit, count=len(revisions), results=results))
