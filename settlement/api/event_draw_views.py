"""The API's draws: draw an event's next round, a session per table.

Plain functions over the services, as `event_views.py`'s (which holds the event's own calls and what they share).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

from settlement import policy, selectors, services
from settlement.ledger import LedgerError
from settlement.models import Player, Round
from settlement.rules.base import RulesError
from settlement.rules.draws import DrawMethod, Seating
from settlement.scoping import get_event_for_user

from .common import IDEMPOTENCY_HEADER, WRITE_ERRORS, api_endpoint, idempotency_key, key_errors
from .event_views import EventPlayerNameSerializer, _created, _int_arg, body_no_nulls, player_named

# --- the schema's shapes ---


class RoundSeatingSerializer(serializers.Serializer):
    tables = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField(min_value=1)))
    sitting_out = serializers.ListField(child=serializers.IntegerField(min_value=1), required=False)


class RoundDrawSerializer(serializers.Serializer):
    draw = serializers.ChoiceField(choices=list(DrawMethod))
    seating = RoundSeatingSerializer(required=False, help_text="`manual`: each table's player ids in seat order")
    seed = serializers.IntegerField(
        required=False, min_value=0, max_value=2**62 - 1, help_text="default: a random seed, stored"
    )
    close_open = serializers.BooleanField(required=False, help_text="close the last round's open tables first")
    length_minutes = serializers.IntegerField(required=False, min_value=1, max_value=600)


class RoundTableSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    session = serializers.IntegerField(help_text="the table's session id: record its hands there")
    players = EventPlayerNameSerializer(many=True, help_text="in seat order")


class RoundDrawnSerializer(serializers.Serializer):
    n = serializers.IntegerField()
    draw = serializers.CharField()
    seed = serializers.IntegerField()
    ends_at = serializers.DateTimeField(allow_null=True, help_text="when the round's clock runs out (null: no clock)")
    tables = RoundTableSerializer(many=True)
    sitting_out = EventPlayerNameSerializer(many=True)


# --- the bodies ---


def _round_body(made: Round) -> dict[str, Any]:
    tables = list(made.tables.order_by("number"))
    seats = {}
    for table in tables:
        seats[table.session_id] = [
            player_named(seat.player) for seat in table.session.seats.select_related("player").order_by("seat")
        ]
    out = {p.pk: p for p in Player.objects.filter(pk__in=made.sitting_out)}
    return {
        "n": made.n,
        "draw": made.draw,
        "seed": made.seed,
        "ends_at": made.ends_at.isoformat().replace("+00:00", "Z") if made.ends_at else None,
        "tables": [{"number": t.number, "session": t.session_id, "players": seats[t.session_id]} for t in tables],
        "sitting_out": [player_named(out[pk]) for pk in made.sitting_out],
    }


def _seating_arg(value: Any) -> Seating | None:
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) - {"tables", "sitting_out"}:
        raise LedgerError.from_rules(RulesError("value.not_object", field="seating"))
    tables, out = value.get("tables", []), value.get("sitting_out", [])
    if not isinstance(tables, list) or not all(isinstance(t, list) for t in tables):
        raise LedgerError.from_rules(RulesError("value.not_list", field="seating.tables"))
    if not isinstance(out, list):
        raise LedgerError.from_rules(RulesError("value.not_list", field="seating.sitting_out"))
    for p in [*(p for t in tables for p in t), *out]:  # player ids, checked whatever the draw (as the schema)
        if isinstance(p, bool) or not isinstance(p, int) or p < 1:
            raise LedgerError.from_rules(RulesError("value.not_integer", field="seating"))
    return Seating(tables=tuple(tuple(t) for t in tables), sitting_out=tuple(out))


# --- the endpoints ---


@extend_schema(
    operation_id="event_round_draw",
    tags=["events"],
    summary="Draw the next round: a session per table, seated as drawn, all in one transaction",
    description=(
        "`balanced`: fewest repeated partners over the event, then opponents; `swiss`: by the standings so far; "
        "`random`; `manual`: the director's `seating`. The seed is stored: the same seed draws the same round. "
        "While the last round's tables are open the draw is a 409 (`round.tables_open`) unless `close_open`. "
        f"With an `{IDEMPOTENCY_HEADER}` header a retry returns the round drawn the first time."
    ),
    request=RoundDrawSerializer,
    examples=[OpenApiExample("balanced", value={"draw": "balanced"}, request_only=True)],
    responses={201: RoundDrawnSerializer, **WRITE_ERRORS},
)
@api_endpoint("POST", service_keyed=True)
def event_rounds(request: Request, event_id: int) -> Response:
    membership, event = get_event_for_user(request.user, event_id)
    policy.deny_unless(policy.may_direct(membership.role))
    body = body_no_nulls(request, RoundDrawSerializer)
    draw = body.get("draw")
    if draw is None:
        raise LedgerError.from_rules(RulesError("field.required", field="draw"))
    if not isinstance(draw, str):
        raise LedgerError.from_rules(RulesError("value.not_text", field="draw"))
    close_open = body.get("close_open", False)
    if not isinstance(close_open, bool):
        raise LedgerError.from_rules(RulesError("value.not_bool", field="close_open"))
    seed = _int_arg(body, "seed")
    if seed is not None and not 0 <= seed < 2**62:
        raise LedgerError.from_rules(RulesError("value.not_count", field="seed"))
    key = idempotency_key(request)
    existed = bool(key) and Round.objects.filter(event=event, client_key=key.strip()).exists()
    ranking = [row.player.pk for row in selectors.event_standings(event=event).rows] if draw == "swiss" else []
    with key_errors():
        made = services.round_draw(
            event=event,
            user=request.user,
            draw=draw,
            seating=_seating_arg(body.get("seating")),
            seed=seed,
            ranking=ranking,
            close_open=close_open,
            length_minutes=_int_arg(body, "length_minutes"),
            client_key=key,
        )
    location = reverse("api_event_standings", args=[event.pk], request=request)
    return _created(_round_body(made), replayed=existed, location=location)
