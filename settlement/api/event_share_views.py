"""The API's share link to an event's big screen: make it (`/e/<token>/`, for a TV in the room, no login) and revoke
it. The director's calls (`policy.may_direct`), as the event page's buttons; the services are `shares.py`'s.

Every POST goes through `api_endpoint`, so an `Idempotency-Key` makes a retry answer as the first call did.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

from settlement import policy, services
from settlement.scoping import get_event_for_user

from . import serializers as s
from .common import IDEMPOTENCY_HEADER, WRITE_ERRORS, api_endpoint, object_body, query_none

TOKEN_EXAMPLE = "q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6"


class EventShareSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="the link's token: 32 characters, unguessable")
    url = serializers.URLField(help_text="the big screen for anyone with it, no login (`/e/<token>/`)")


class EventShareRevokedSerializer(serializers.Serializer):
    revoked = serializers.IntegerField(help_text="how many links were revoked: 1, or 0 when the event had none")


@extend_schema(
    operation_id="event_share_create",
    tags=["events"],
    summary="Make the read-only link to the event's big screen (a new one when it had one: the old one stops working)",
    description=(
        "For a TV in the room: the big screen's tables and standings, following them by themselves, with no login. "
        "An event has at most one working link. The director's call (owners and scorekeepers). "
        f"With an `{IDEMPOTENCY_HEADER}` header a retry returns the link made the first time."
    ),
    request=s.EmptySerializer,
    examples=[
        OpenApiExample(
            "a new link",
            value={"token": TOKEN_EXAMPLE, "url": f"https://club.example/e/{TOKEN_EXAMPLE}/"},
            response_only=True,
            status_codes=["201"],
        )
    ],
    responses={201: EventShareSerializer, **WRITE_ERRORS},
)
@api_endpoint("POST")
def event_share_create(request: Request, event_id: int) -> Response:
    query_none(request)
    membership, event = get_event_for_user(request.user, event_id)
    policy.deny_unless(policy.may_direct(membership.role))
    object_body(request, ())
    link = services.event_share_create(event=event, user=request.user)
    url = reverse("event_share", args=[link.token], request=request)
    return Response({"token": link.token, "url": url}, status=status.HTTP_201_CREATED, headers={"Location": url})


@extend_schema(
    operation_id="event_share_revoke",
    tags=["events"],
    summary="Revoke the event's big-screen link: it answers 410 Gone from now on",
    description=(
        "The screens showing it say so at their next poll. Revoking when there is no link changes nothing "
        f"(`revoked: 0`). With an `{IDEMPOTENCY_HEADER}` header a retry answers as the first call did."
    ),
    request=s.EmptySerializer,
    examples=[OpenApiExample("revoked", value={"revoked": 1}, response_only=True, status_codes=["200"])],
    responses={200: EventShareRevokedSerializer, **WRITE_ERRORS},
)
@api_endpoint("POST")
def event_share_revoke(request: Request, event_id: int) -> Response:
    query_none(request)
    membership, event = get_event_for_user(request.user, event_id)
    policy.deny_unless(policy.may_direct(membership.role))
    object_body(request, ())
    return Response({"revoked": services.event_share_revoke(event=event, user=request.user)})
