"""The API's change feed: `clubs/{slug}/changes/`, every change of the club's sessions, hands and players in the
order it was written, a page at a time from an opaque cursor (`ledger/changes.py` says why nothing is skipped)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param

from settlement import selectors
from settlement.scoping import get_membership_for_user

from . import change_serializers as s
from .common import NOT_MODIFIED, api_endpoint, error_responses, etag_conditional, query_valid


@extend_schema(
    operation_id="club_changes",
    tags=["clubs"],
    summary="The club's changes in order, from a cursor: sessions, hands and players",
    description=(
        "Every change of the club's sessions (created, closed, reopened), hands (recorded, corrected, voided) "
        "and players (created, renamed, merged: the merged-away id as a tombstone, `into` the survivor), in the "
        "order they were written, each with what changed (`subject`, `id`) and where to fetch it (`url`). Follow "
        "it from the start (no `after`) and keep the answer's `cursor`; send it back as `after` for what came "
        "since. While `has_more`, `next` is the following page; once it is false, poll `after=cursor` later. A "
        "page never skips a change written before it nor repeats one: within a club, changes are visible in "
        "their order. The feed holds the club's history from its start (what was stored before the feed "
        "existed is in it, in the order it was written)."
    ),
    parameters=[s.ChangesQuerySerializer],
    examples=[
        OpenApiExample("a page", value=s.schema_example("https://ledger.example.org"), response_only=True),
    ],
    responses={200: s.ChangePageSerializer, **NOT_MODIFIED, **error_responses(400, 401, 404)},
)
@etag_conditional
@api_endpoint("GET")
def club_changes(request: Request, slug: str) -> Response:
    membership = get_membership_for_user(request.user, slug)
    query = query_valid(s.ChangesQuerySerializer(data=request.query_params.dict()))
    after, limit = query.get("after", s.START), query["limit"]
    changes, more = selectors.club_changes(club_id=membership.club_id, after=after, limit=limit)
    cursor = s.cursor_encode(changes[-1].pk if changes else after)
    following = replace_query_param(request.build_absolute_uri(), "after", cursor) if more else None
    context = {"request": request, "slug": membership.club.slug}
    return Response(
        {
            "results": s.ChangeSerializer(changes, many=True, context=context).data,
            "cursor": cursor,
            "has_more": more,
            "next": following,
        }
    )
