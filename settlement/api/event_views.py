"""The API's events: create an event, check players in, draw a round, add a penalty or award, read the standings.

Plain functions over the services and selectors (the endpoint decorator, error answers and idempotency key are
`common.py`'s). A round's tables are ordinary sessions: `/api/v1/sessions/{session}/hands/` records at them.
"""

from __future__ import annotations

import datetime
from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

from settlement import policy, selectors, services
from settlement.ledger import LedgerError
from settlement.models import Adjustment, Event, League, Player, Round
from settlement.rules.base import RulesError
from settlement.rules.draws import DrawMethod, Seating
from settlement.rules.registry import VARIANTS
from settlement.scoping import get_event_for_user, get_membership_for_user

from .common import (
    IDEMPOTENCY_HEADER,
    READ_ERRORS,
    WRITE_ERRORS,
    api_endpoint,
    idempotency_key,
    key_errors,
    object_body,
    query_none,
)
from .schema import CLEAN_TEXT, NAME_TEXT, REASON_TEXT, variant_name

# --- the schema's shapes ---


class EventPlayerNameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


@extend_schema_field(
    {
        "oneOf": [
            {"type": "integer", "minimum": 1, "description": "a club player's id"},
            {"type": "string", "pattern": NAME_TEXT, "maxLength": 60, "description": "a name (new: a guest)"},
        ]
    }
)
class PlayerRefField(serializers.JSONField):
    """A player as a request names them: a club player's id, or a name."""


PRESETS = sorted({preset for variant in VARIANTS.values() for preset in variant.presets})


@extend_schema_field(
    {
        "anyOf": [{"$ref": f"#/components/schemas/Options{variant_name(key)}"} for key in VARIANTS],
        "description": "option overrides over the preset's, as for a session: the event's variant's options",
    }
)
class EventOptionsField(serializers.JSONField):
    """Option overrides: the variant's options, typed per variant in the schema; the rules engine checks them."""


class EventCreateSerializer(serializers.Serializer):
    name = serializers.RegexField(NAME_TEXT, max_length=100)
    variant = serializers.ChoiceField(choices=sorted(VARIANTS))
    date = serializers.DateField(required=False, help_text="default: today")
    venue = serializers.RegexField(CLEAN_TEXT, required=False, allow_blank=True, max_length=100)
    preset = serializers.ChoiceField(
        choices=["", *PRESETS], required=False, allow_blank=True, help_text="one of the variant's presets"
    )
    options = EventOptionsField(required=False)
    table_size = serializers.IntegerField(
        required=False, min_value=2, max_value=6, help_text="players at a table; default the variant's fewest"
    )
    players = serializers.ListField(
        child=PlayerRefField(),
        required=False,
        max_length=1000,
        help_text="the players checked in: club players' ids, or names (a new name becomes a guest)",
    )
    bye = serializers.ChoiceField(choices=Event.Bye.values, required=False, help_text="how a round sat out counts")
    bye_figure = serializers.IntegerField(
        required=False, min_value=-(10**12), max_value=10**12, help_text="with `bye: figure`: what a bye counts"
    )
    ranking = serializers.ChoiceField(
        choices=Event.Ranking.values,
        required=False,
        help_text="`sum` (default): the sum of table totals; `placement`: placement points per table",
    )
    placement_points = serializers.ListField(
        child=serializers.IntegerField(min_value=-(10**12), max_value=10**12),
        required=False,
        min_length=2,
        max_length=6,
        help_text="with `placement`: one figure per place, best first, never rising, as many as `table_size` "
        "(default 4 / 2 / 1 / 0 at four, else n − 1 … 0)",
    )
    late_hands = serializers.ChoiceField(
        choices=Event.LateHands.values,
        required=False,
        help_text="a hand recorded after a round's clock ran out: `counted` (default), or `refused` (a 409, "
        "`round.time_up`) unless the director allows that round's",
    )
    league = serializers.IntegerField(
        required=False, min_value=1, help_text="the club's league the event counts in (its unit, ranked by the sum)"
    )
    mixed_sizes = serializers.BooleanField(
        required=False,
        help_text="tables of both the variant's sizes in one round (标分: 3 and 4; 升级 and classic 打百分: 4 and 6), "
        "seating everyone it can before a bye; not with `placement`",
    )
    pairs = serializers.ListField(
        child=serializers.ListField(child=PlayerRefField(), min_length=2, max_length=2),
        required=False,
        max_length=500,
        help_text="a pairs event (fixed-partnership variants, tables of four): every player in `players` in one "
        "pair, by id or name; each pair sits as partners (seats 1 + 3 or 2 + 4) every round",
    )
    substitute_result = serializers.ChoiceField(
        choices=Event.SubstituteResult.values,
        required=False,
        help_text="whose result a substitute's seat is: the absent player's (`absent`, default) or the substitute's",
    )


class EventSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField()
    venue = serializers.CharField()
    variant = serializers.CharField()
    table_size = serializers.IntegerField()
    mixed_sizes = serializers.BooleanField(help_text="tables of both the variant's sizes in one round")
    pairs = serializers.ListField(
        child=EventPlayerNameSerializer(many=True), help_text="a pairs event's pairs; empty: players drawn one by one"
    )
    bye = serializers.CharField()
    late_hands = serializers.ChoiceField(choices=Event.LateHands.values)
    ranking = serializers.ChoiceField(choices=Event.Ranking.values)
    placement_points = serializers.ListField(child=serializers.IntegerField())
    state = serializers.ChoiceField(choices=Event.State.values)
    substitute_result = serializers.ChoiceField(choices=Event.SubstituteResult.values)
    players = EventPlayerNameSerializer(many=True)
    league = serializers.IntegerField(allow_null=True, help_text="the league it counts in (null: none)")


class CheckInSerializer(serializers.Serializer):
    players = serializers.ListField(child=PlayerRefField(), max_length=1000, help_text="club players' ids, or names")


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


# --- the bodies ---


def player_named(player: Player) -> dict[str, Any]:
    return {"id": player.pk, "name": player.name}


def _event_body(event: Event) -> dict[str, Any]:
    players = [ep.player for ep in event.players.select_related("player").order_by("id")]
    by_id = {p.pk: player_named(p) for p in players}
    return {
        "id": event.pk,
        "name": event.name,
        "date": event.date.isoformat(),
        "venue": event.venue,
        "variant": event.variant,
        "table_size": event.table_size,
        "mixed_sizes": event.mixed_sizes,
        "pairs": [[by_id[p] for p in pair] for pair in event.pairs],
        "bye": event.bye,
        "late_hands": event.late_hands,
        "ranking": event.ranking,
        "placement_points": list(event.placement_points),
        "state": event.state,
        "substitute_result": event.substitute_result,
        "players": [player_named(p) for p in players],
        "league": event.league_id,
    }


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


def body_no_nulls(request: Request, serializer: type[serializers.Serializer]) -> dict[str, Any]:
    """The request's object: only the serializer's fields, none of them null (no event or league field takes null;
    a null is refused as the wrong type of what its field takes)."""
    body = object_body(request, serializer().fields)
    for key, value in body.items():
        if value is None:
            raise LedgerError.from_rules(RulesError(_NULL_CODE.get(key, "value.not_text"), field=key))
    return body


_NULL_CODE = {
    "players": "value.not_list",
    "options": "value.not_object",
    "seating": "value.not_object",
    "table_size": "value.not_integer",
    "placement_points": "value.not_list",
    "bye_figure": "value.not_integer",
    "seed": "value.not_integer",
    "length_minutes": "value.not_integer",
    "player": "value.not_integer",
    "amount": "value.not_integer",
    "round": "value.not_integer",
    "absent": "value.not_integer",
    "close_open": "value.not_bool",
    "mixed_sizes": "value.not_bool",
    "pairs": "value.not_list",
    "date": "value.not_date",
    "league": "value.not_integer",
    "events": "value.not_list",
    "event": "value.not_integer",
    "best_n": "value.not_integer",
}


def _players_arg(club_id: int, players: Any) -> list[Player | str]:
    """`players` as given: ids are the club's players, anything else a name (the service checks names)."""
    if not isinstance(players, list):
        raise LedgerError.from_rules(RulesError("value.not_list", field="players"))
    ids = [p for p in players if isinstance(p, int) and not isinstance(p, bool)]
    found = {p.pk: p for p in Player.objects.filter(club_id=club_id, pk__in=ids)}
    resolved: list[Player | str] = []
    for i, p in enumerate(players):
        if isinstance(p, int) and not isinstance(p, bool):
            if p not in found:
                raise LedgerError("player.not_found", field=f"players[{i}]")
            resolved.append(found[p])
        else:
            resolved.append(p)
    return resolved


def _league_arg(club_id: int, league_id: int | None) -> League | None:
    if league_id is None:
        return None
    league = League.objects.filter(club_id=club_id, pk=league_id).first()
    if league is None:
        raise LedgerError("league.not_found", field="league")
    return league


def _pairs_arg(club_id: int, pairs: Any) -> list[list[Player | str]]:
    """`pairs` as given: each a list of two players named as in `players` (ids the club's, or names)."""
    if not isinstance(pairs, list) or not all(isinstance(pair, list) for pair in pairs):
        raise LedgerError.from_rules(RulesError("value.not_list", field="pairs"))
    try:
        return [_players_arg(club_id, pair) for pair in pairs]
    except LedgerError as error:
        raise LedgerError(error.code, field="pairs") from error


def _date_arg(value: Any) -> datetime.date | None:
    if value is None:
        return None
    try:
        return datetime.date.fromisoformat(value) if isinstance(value, str) else _not_date()
    except ValueError:
        return _not_date()


def _not_date() -> datetime.date:
    raise LedgerError.from_rules(RulesError("value.not_date", field="date"))


def _int_arg(body: dict[str, Any], key: str) -> Any:
    value = body.get(key)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise LedgerError.from_rules(RulesError("value.not_integer", field=key))
    return value


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


def _created(body: dict[str, Any], *, replayed: bool, location: str) -> Response:
    """A 201 with `Location`: the event made, or for a round or an adjustment the standings they count in."""
    headers = {"Location": location, **({"Idempotent-Replayed": "true"} if replayed else {})}
    return Response(body, status=status.HTTP_201_CREATED, headers=headers)


# --- the endpoints ---

EVENT_EXAMPLE = {
    "name": "周五晚",
    "variant": "baifen.benxi",
    "date": "2026-12-04",
    "players": ["老王", "小李", "阿强", "大刘", "小张", "老赵", "阿梅", "小陈"],
}


@extend_schema(
    operation_id="club_event_create",
    tags=["events"],
    summary="Create an event (an evening or tournament) and check its first players in",
    description=(
        "Every table plays `variant` with the preset's options and `options` over them. "
        f"With an `{IDEMPOTENCY_HEADER}` header a retry returns the event made the first time."
    ),
    request=EventCreateSerializer,
    examples=[OpenApiExample("an evening of 本溪", value=EVENT_EXAMPLE, request_only=True)],
    responses={201: EventSerializer, **WRITE_ERRORS},
)
@api_endpoint("POST", service_keyed=True)
def club_events(request: Request, slug: str) -> Response:
    membership = get_membership_for_user(request.user, slug)
    policy.deny_unless(policy.may_direct(membership.role))
    body = body_no_nulls(request, EventCreateSerializer)
    club = membership.club
    key = idempotency_key(request)
    existed = bool(key) and Event.objects.filter(club=club, client_key=key.strip()).exists()
    options = body.get("options")
    if options is not None and not isinstance(options, dict):
        raise LedgerError.from_rules(RulesError("value.not_object", field="options"))
    for key_name in ("name", "variant", "venue", "preset", "bye", "late_hands", "ranking", "substitute_result"):
        if key_name in body and not isinstance(body[key_name], str):
            raise LedgerError.from_rules(RulesError("value.not_text", field=key_name))
    with key_errors():
        event = services.event_create(
            club=club,
            user=request.user,
            name=body.get("name", ""),
            variant=body.get("variant", ""),
            date=_date_arg(body.get("date")),
            venue=body.get("venue", ""),
            preset=body.get("preset", ""),
            options=options,
            table_size=_int_arg(body, "table_size"),
            players=_players_arg(club.pk, body.get("players", [])),
            bye=body.get("bye", Event.Bye.AVERAGE),
            bye_figure=_int_arg(body, "bye_figure"),
            client_key=key,
            late_hands=body.get("late_hands", Event.LateHands.COUNTED),
            ranking=body.get("ranking", Event.Ranking.SUM),
            placement_points=body.get("placement_points"),
            league=_league_arg(club.pk, _int_arg(body, "league")),
            mixed_sizes=body.get("mixed_sizes", False),
            pairs=_pairs_arg(club.pk, body.get("pairs", [])),
            substitute_result=body.get("substitute_result", Event.SubstituteResult.ABSENT),
        )
    location = reverse("api_event_detail", args=[event.pk], request=request)
    return _created(_event_body(event), replayed=existed, location=location)


@extend_schema(
    operation_id="event_retrieve",
    tags=["events"],
    summary="The event: its rules, state and the players checked in",
    responses={200: EventSerializer, **READ_ERRORS},
)
@api_endpoint("GET")
def event_detail(request: Request, event_id: int) -> Response:
    query_none(request)
    _, event = get_event_for_user(request.user, event_id)
    return Response(_event_body(event))


@extend_schema(
    operation_id="event_check_in",
    tags=["events"],
    summary="Check players in from the next round on (a player checked in already stays as they are)",
    request=CheckInSerializer,
    responses={200: EventSerializer, **WRITE_ERRORS},
)
@api_endpoint("POST")
def event_players(request: Request, event_id: int) -> Response:
    membership, event = get_event_for_user(request.user, event_id)
    policy.deny_unless(policy.may_direct(membership.role))
    body = body_no_nulls(request, CheckInSerializer)
    if "players" not in body:
        raise LedgerError.from_rules(RulesError("field.required", field="players"))
    services.event_check_in(event=event, user=request.user, players=_players_arg(event.club_id, body["players"]))
    return Response(_event_body(event))


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
