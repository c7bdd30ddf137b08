"""The API's standings: a penalty or award on a player, the event's standings and settle-up.

Plain functions over the services and selectors, as `event_views.py`'s (which holds the event's own calls and what
they share).
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

from settlement import policy, selectors, services
from settlement.ledger import LedgerError
from settlement.models import Adjustment, Player
from settlement.scoping import get_event_for_user

from .common import READ_ERRORS, WRITE_ERRORS, api_endpoint, idempotency_key, key_errors
from .event_views import EventPlayerNameSerializer, _created, _int_arg, body_no_nulls, player_named
from .schema import REASON_TEXT

# --- the schema's shapes ---


class AdjustmentCreateSerializer(serializers.Serializer):
    player = serializers.IntegerField(min_value=1, help_text="a checked-in player's id")
    kind = serializers.ChoiceField(choices=Adjustment.Kind.values)
    amount = serializers.IntegerField(
        min_value=1, max_value=10**12, help_text="positive; a penalty counts against the player"
    )
    reason = serializers.RegexField(REASON_TEXT, max_length=500)
    round = serializers.IntegerField(required=False, min_value=1, help_text="default: the latest round")


class AdjustmentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player = EventPlayerNameSerializer()
    kind = serializers.CharField()
    amount = serializers.IntegerField()
    round = serializers.IntegerField()
    reason = serializers.CharField()


class EventStandingSeatSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    session = serializers.IntegerField()
    total = serializers.IntegerField()
    points = serializers.IntegerField(allow_null=True, help_text="`placement`: this table's placement points")
    substitute = serializers.CharField(help_text="a substitute played the seat: their name (else empty)")
    absent = serializers.CharField(help_text="a substitute played the seat: the absent player's name (else empty)")


class EventStandingRowSerializer(serializers.Serializer):
    player = EventPlayerNameSerializer()
    rank = serializers.IntegerField()
    total = serializers.IntegerField(help_text="what ranks: the sum (or placement points), byes and adjustments")
    points_total = serializers.IntegerField(allow_null=True, help_text="`placement`: the points over the tables")
    tables_total = serializers.IntegerField()
    byes = serializers.IntegerField()
    bye_total = serializers.IntegerField()
    adjustments_total = serializers.IntegerField()
    seats = EventStandingSeatSerializer(many=True)


class EventPairRowSerializer(serializers.Serializer):
    players = EventPlayerNameSerializer(many=True)
    rank = serializers.IntegerField()
    total = serializers.IntegerField(help_text="the two partners' totals added")
    tables_total = serializers.IntegerField(help_text="the tie-break: the two partners' table totals added")


# `from` is a Python keyword: the class is built with its field names as data (as `serializers.TransferSerializer`).
EventTransferSerializer = type(
    "EventTransferSerializer",
    (serializers.Serializer,),
    {
        "from": EventPlayerNameSerializer(help_text="who pays"),
        "to": EventPlayerNameSerializer(help_text="who is paid"),
        "amount": serializers.IntegerField(help_text="table totals × the event's unit_value (money when above 1)"),
        "__module__": __name__,
    },
)


class EventStandingsSerializer(serializers.Serializer):
    rule = serializers.CharField(help_text="how the standings rank, in the request's language")
    unit = serializers.CharField()
    rounds = serializers.IntegerField()
    rows = EventStandingRowSerializer(many=True)
    settle_up = EventTransferSerializer(
        many=True,
        help_text="zero-sum variants: who pays whom over all the event's tables and rounds, fewest transfers; "
        "the table totals only (adjustments and byes are standings, not money); empty otherwise",
    )
    unit_value = serializers.IntegerField(help_text="money per unit in `settle_up` (1: the amounts are units)")
    pair_rule = serializers.CharField(help_text="a pairs event: how the pairs rank; empty otherwise")
    pairs = EventPairRowSerializer(many=True, help_text="a pairs event: a row per pair, ranked; empty otherwise")

    final = serializers.BooleanField(help_text="the event is finished: these are the final standings")


STANDINGS_EXAMPLE = {
    "rule": "the sum of each player's table totals (注) plus adjustments; a round sat out counts 0; "
    "equal totals share a rank",
    "unit": "注",
    "rounds": 1,
    "rows": [
        {
            "player": {"id": 1, "name": "王强"},
            "rank": 1,
            "total": 2,
            "points_total": None,
            "tables_total": 2,
            "byes": 0,
            "bye_total": 0,
            "adjustments_total": 0,
            "seats": [{"round": 1, "table": 1, "session": 7, "total": 2, "points": None}],
        },
        {
            "player": {"id": 2, "name": "李娜"},
            "rank": 2,
            "total": -2,
            "points_total": None,
            "tables_total": -2,
            "byes": 0,
            "bye_total": 0,
            "adjustments_total": 0,
            "seats": [{"round": 1, "table": 1, "session": 7, "total": -2, "points": None}],
        },
    ],
    "settle_up": [{"from": {"id": 2, "name": "李娜"}, "to": {"id": 1, "name": "王强"}, "amount": 2}],
    "unit_value": 1,
    "pair_rule": "",
    "pairs": [],
    "final": False,
}


# --- the endpoints ---


@extend_schema(
    operation_id="event_adjustment_add",
    tags=["events"],
    summary="A penalty (罚分) or award on a checked-in player in a round; append-only, with its reason",
    request=AdjustmentCreateSerializer,
    examples=[
        OpenApiExample(
            "a penalty", value={"player": 1, "kind": "penalty", "amount": 10, "reason": "迟到"}, request_only=True
        )
    ],
    responses={201: AdjustmentSerializer, **WRITE_ERRORS},
)
@api_endpoint("POST", service_keyed=True)
def event_adjustments(request: Request, event_id: int) -> Response:
    membership, event = get_event_for_user(request.user, event_id)
    policy.deny_unless(policy.may_direct(membership.role))
    body = body_no_nulls(request, AdjustmentCreateSerializer)
    player_id = _int_arg(body, "player")
    player = Player.objects.filter(club_id=event.club_id, pk=player_id).first() if player_id is not None else None
    if player is None:
        raise LedgerError("event.player_not_in", field="player")
    key = idempotency_key(request)
    existed = bool(key) and Adjustment.objects.filter(event=event, client_key=key.strip()).exists()
    with key_errors():
        made = services.adjustment_add(
            event=event,
            user=request.user,
            player=player,
            kind=body.get("kind", ""),
            amount=body.get("amount"),  # type: ignore[arg-type] # the service checks it
            reason=body.get("reason", ""),
            round_n=_int_arg(body, "round"),
            client_key=key,
        )
    body_out = {
        "id": made.pk,
        "player": player_named(player),
        "kind": made.kind,
        "amount": made.amount,
        "round": made.round.n,
        "reason": made.reason,
    }
    location = reverse("api_event_standings", args=[event.pk], request=request)
    return _created(body_out, replayed=existed, location=location)


@extend_schema(
    operation_id="event_standings",
    tags=["events"],
    summary="The event's standings: the rule stated, each player's total, rank, byes, adjustments and seats, "
    "and the event's settle-up",
    responses={200: EventStandingsSerializer, **READ_ERRORS},
    examples=[OpenApiExample("after one round", value=STANDINGS_EXAMPLE, response_only=True)],
)
@api_endpoint("GET")
def event_standings(request: Request, event_id: int) -> Response:
    _, event = get_event_for_user(request.user, event_id)
    standings = selectors.event_standings(event=event)
    rows = [
        {
            "player": player_named(row.player),
            "rank": row.rank,
            "total": row.total,
            "points_total": row.points_total,
            "tables_total": row.tables_total,
            "byes": row.byes,
            "bye_total": row.bye_total,
            "adjustments_total": row.adjustments_total,
            "seats": [
                {
                    "round": seat.round,
                    "table": seat.table,
                    "session": seat.session_id,
                    "total": seat.total,
                    "points": seat.points,
                    "substitute": seat.substitute,
                    "absent": seat.absent,
                }
                for seat in row.seats
            ],
        }
        for row in standings.rows
    ]
    settle_up = selectors.event_settle_up(standings=standings)
    transfers = [
        {"from": player_named(t.payer), "to": player_named(t.payee), "amount": t.amount} for t in settle_up.transfers
    ]
    return Response(
        {
            "rule": standings.rule,
            "unit": standings.unit,
            "rounds": standings.rounds,
            "rows": rows,
            "settle_up": transfers,
            "unit_value": settle_up.unit_value,
            "pair_rule": selectors.event_pair_rule(standings=standings) if event.pairs else "",
            "pairs": [
                {
                    "players": [player_named(p) for p in row.players],
                    "rank": row.rank,
                    "total": row.total,
                    "tables_total": row.tables_total,
                }
                for row in selectors.event_pair_standings(standings=standings)
            ],
            "final": standings.final,
        }
    )
