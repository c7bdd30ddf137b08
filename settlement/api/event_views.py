"""The API's events: create an event, read it, check players in, set its pairs.

Plain functions over the services and selectors (the endpoint decorator, error answers and idempotency key are
`common.py`'s). This module also holds what the event's other calls share: a player as a request names them and as
an answer shows them, the event's body, the body check. The rounds' draws are `event_draw_views.py`'s, the
adjustments and standings `event_standing_views.py`'s, finishing, late hands and substitutes
`event_round_views.py`'s. A round's tables are ordinary sessions: `/api/v1/sessions/{session}/hands/` records at
them.
"""

from __future__ import annotations

import datetime
from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

from settlement import policy, services
from settlement.ledger import LedgerError
from settlement.models import Event, League, Player
from settlement.rules.base import RulesError
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
from .schema import CLEAN_TEXT, NAME_TEXT, variant_name

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


class EventPairsSerializer(serializers.Serializer):
    pairs = serializers.ListField(
        child=serializers.ListField(child=PlayerRefField(), min_length=2, max_length=2),
        max_length=500,
        help_text="every player checked in (and not gone) in one pair, by id or name; empty: no pairs, players are "
        "drawn one by one",
    )


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


PAIRS_EXAMPLE = {"pairs": [[1, 2], ["阿强", "大刘"]]}


@extend_schema(
    operation_id="event_pairs_set",
    tags=["events"],
    summary="Set or change a pairs event's pairs (fixed partnerships) until its first round is drawn",
    description=(
        "For a fixed-partnership variant at tables of four: each pair sits as partners (seats 1 + 3 or 2 + 4) every "
        "round. Checked as at creation: every player checked in in exactly one pair (a 400 naming `pairs`). Once a "
        "round is drawn the pairs are what it seated: a 409, `event.pairs_drawn`. "
        f"With an `{IDEMPOTENCY_HEADER}` header a retry answers as the first call did."
    ),
    request=EventPairsSerializer,
    examples=[OpenApiExample("two pairs", value=PAIRS_EXAMPLE, request_only=True)],
    responses={200: EventSerializer, **WRITE_ERRORS},
)
@api_endpoint("POST")
def event_pairs(request: Request, event_id: int) -> Response:
    membership, event = get_event_for_user(request.user, event_id)
    policy.deny_unless(policy.may_direct(membership.role))
    body = body_no_nulls(request, EventPairsSerializer)
    if "pairs" not in body:
        raise LedgerError.from_rules(RulesError("field.required", field="pairs"))
    pairs = _pairs_arg(event.club_id, body["pairs"])
    event = services.event_pairs_set(event=event, user=request.user, pairs=pairs)
    return Response(_event_body(event))
