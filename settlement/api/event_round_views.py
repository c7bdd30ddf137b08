"""The API's director's actions on an event's rounds: finish the event, let a round's late hands in, seat a
substitute.

Plain functions over the services, as `event_views.py`'s (which holds the event's own calls and shapes). Every
POST goes through `api_endpoint`, so an `Idempotency-Key` makes a retry answer as the first call did.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

from settlement import policy, services
from settlement.ledger import LedgerError
from settlement.models import Event, Player, Round, Substitute
from settlement.rules.base import RulesError
from settlement.scoping import get_event_for_user

from .common import IDEMPOTENCY_HEADER, WRITE_ERRORS, api_endpoint, idempotency_key, key_errors
from .event_views import (
    EventPlayerNameSerializer,
    EventSerializer,
    PlayerRefField,
    _event_body,
    _int_arg,
    body_no_nulls,
)

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


class SubstituteCreateSerializer(serializers.Serializer):
    round = serializers.IntegerField(min_value=1, help_text="the round the substitute plays")
    absent = serializers.IntegerField(min_value=1, help_text="the absent player's id: seated in that round")
    substitute = PlayerRefField(help_text="a club player's id, or a name (new: a guest); not seated in that round")


class SubstituteSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    session = serializers.IntegerField(help_text="the table's session: its seat now names the substitute")
    seat = serializers.IntegerField()
    absent = EventPlayerNameSerializer()
    substitute = EventPlayerNameSerializer()
    substitute_result = serializers.ChoiceField(
        choices=Event.SubstituteResult.values, help_text="whose result the seat is in the standings (the event's)"
    )


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
    body = body_no_nulls(request, EventFinishSerializer)
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
    body = body_no_nulls(request, RoundLateSerializer)
    allowed = _bool_arg(body, "allowed")
    found = services.round_late_allow(event=event, user=request.user, n=n, allowed=allowed)
    return Response(_round_state(found))


@extend_schema(
    operation_id="event_substitute_add",
    tags=["events"],
    summary="A substitute plays an absent player's seat for a round; whose result it is, the event says",
    description=(
        "The absent player's table seat in that round names the substitute from now on. The standings count the "
        "seat for the absent player (the event's `substitute_result: absent`, default) or for the substitute. "
        f"With an `{IDEMPOTENCY_HEADER}` header a retry returns the substitute seated the first time."
    ),
    request=SubstituteCreateSerializer,
    examples=[
        OpenApiExample("a guest for a member", value={"round": 2, "absent": 3, "substitute": "李娜"}, request_only=True)
    ],
    responses={201: SubstituteSerializer, **WRITE_ERRORS},
)
@api_endpoint("POST", service_keyed=True)
def event_substitutes(request: Request, event_id: int) -> Response:
    membership, event = get_event_for_user(request.user, event_id)
    policy.deny_unless(policy.may_direct(membership.role))
    body = body_no_nulls(request, SubstituteCreateSerializer)
    for field in ("round", "absent", "substitute"):
        if field not in body:
            raise LedgerError.from_rules(RulesError("field.required", field=field))
    round_n = _int_arg(body, "round")
    absent_id = _int_arg(body, "absent")
    absent = Player.objects.filter(club_id=event.club_id, pk=absent_id).first()
    if absent is None:
        raise LedgerError("substitute.absent_not_seated", field="absent", n=round_n)
    given = body["substitute"]
    if isinstance(given, int) and not isinstance(given, bool):
        substitute: Player | str | None = Player.objects.filter(club_id=event.club_id, pk=given).first()
        if substitute is None:
            raise LedgerError("player.not_found", field="substitute")
    elif isinstance(given, str):
        substitute = given
    else:
        raise LedgerError.from_rules(RulesError("value.not_text", field="substitute"))
    key = idempotency_key(request)
    existed = bool(key) and Substitute.objects.filter(event=event, client_key=key.strip()).exists()
    with key_errors():
        made = services.substitute_seat(
            event=event, user=request.user, round_n=round_n, absent=absent, substitute=substitute, client_key=key
        )
    made = Substitute.objects.select_related("round", "table", "absent", "substitute", "event").get(pk=made.pk)
    out = {
        "id": made.pk,
        "round": made.round.n,
        "table": made.table.number,
        "session": made.table.session_id,
        "seat": made.seat,
        "absent": {"id": made.absent.pk, "name": made.absent.name},
        "substitute": {"id": made.substitute.pk, "name": made.substitute.name},
        "substitute_result": made.event.substitute_result,
    }
    headers = {"Location": reverse("api_event_standings", args=[event.pk], request=request)}
    if existed:
        headers["Idempotent-Replayed"] = "true"
    return Response(out, status=status.HTTP_201_CREATED, headers=headers)
