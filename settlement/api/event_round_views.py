"""The API's director's actions on an event's rounds: finish the event, let a round's late hands in, seat a
substitute.

Plain functions over the services, as `event_views.py`'s (which holds the event's own calls and shapes). Every
POST goes through `api_endpoint`, so an `Idempotency-Key` makes a retry answer as the first call did.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from settlement import policy, services
from settlement.ledger import LedgerError
from settlement.models import Round
from settlement.rules.base import RulesError
from settlement.scoping import get_event_for_user

from .common import IDEMPOTENCY_HEADER, WRITE_ERRORS, api_endpoint
from .event_views import EventSerializer, _body, _event_body

# --- the schema's shapes ---


class EventFinishSerializer(serializers.Serializer):
    close_open = serializers.BooleanField(
        required=False, help_text="close the last round's open tables (else the finish is refused while any is open)"
    )


class RoundLateSerializer(serializers.Serializer):
    allowed = serializers.BooleanField(help_text="true: the round's hands after its clock ran out count; false: not")


class RoundSerializer(serializers.Serializer):
    n = serializers.IntegerField()
    draw = serializers.CharField()
    seed = serializers.IntegerField()
    ends_at = serializers.DateTimeField(allow_null=True, help_text="when the round's clock runs out (null: no clock)")
    ended_at = serializers.DateTimeField(allow_null=True, help_text="when the round was ended (the next one drawn)")
    late_allowed = serializers.BooleanField(help_text="the director allows hands after the clock ran out")


# --- the bodies ---


def _when(value: Any) -> str | None:
    return value.isoformat().replace("+00:00", "Z") if value else None


def _round_state(found: Round) -> dict[str, Any]:
    return {
        "n": found.n,
        "draw": found.draw,
        "seed": found.seed,
        "ends_at": _when(found.ends_at),
        "ended_at": _when(found.ended_at),
        "late_allowed": found.late_allowed,
    }


def _bool_arg(body: dict[str, Any], key: str, *, default: bool | None = None) -> bool:
    value = body.get(key, default)
    if value is None:
        raise LedgerError.from_rules(RulesError("field.required", field=key))
    if not isinstance(value, bool):
        raise LedgerError.from_rules(RulesError("value.not_bool", field=key))
    return value


# --- the endpoints ---


@extend_schema(
    operation_id="event_finish",
    tags=["events"],
    summary="Finish the event: the last round ended, nothing more checked in, drawn or adjusted; final standings",
    description=(
        "While the last round's tables are open the finish is a 409 (`round.tables_open`, field `close_open`) "
        "unless `close_open`, which closes them first. Finishing a finished event answers it as it is. "
        f"With an `{IDEMPOTENCY_HEADER}` header a retry answers as the first call did."
    ),
    request=EventFinishSerializer,
    examples=[OpenApiExample("closing the open tables", value={"close_open": True}, request_only=True)],
    responses={200: EventSerializer, **WRITE_ERRORS},
)
@api_endpoint("POST")
def event_finish(request: Request, event_id: int) -> Response:
    membership, event = get_event_for_user(request.user, event_id)
    policy.deny_unless(policy.may_direct(membership.role))
    body = _body(request, EventFinishSerializer)
    close_open = _bool_arg(body, "close_open", default=False)
    event = services.event_finish(event=event, user=request.user, close_open=close_open)
    return Response(_event_body(event))


@extend_schema(
    operation_id="event_round_late",
    tags=["events"],
    summary="Allow (or again refuse) the hands recorded at a round's tables after its clock ran out",
    description=(
        "Only matters when the event refuses late hands (`late_hands: refused`); with `counted` they count anyway. "
        f"With an `{IDEMPOTENCY_HEADER}` header a retry answers as the first call did."
    ),
    request=RoundLateSerializer,
    examples=[OpenApiExample("allowed", value={"allowed": True}, request_only=True)],
    responses={200: RoundSerializer, **WRITE_ERRORS},
)
@api_endpoint("POST")
def event_round_late(request: Request, event_id: int, n: int) -> Response:
    membership, event = get_event_for_user(request.user, event_id)
    policy.deny_unless(policy.may_direct(membership.role))
    body = _body(request, RoundLateSerializer)
    allowed = _bool_arg(body, "allowed")
    found = services.round_late_allow(event=event, user=request.user, n=n, allowed=allowed)
    return Response(_round_state(found))
