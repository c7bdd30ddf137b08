"""The API's leagues (seasons): a club's leagues, create one, add an event to it or take one out, read its table.

Plain functions over `services/leagues.py` and `selectors/leagues.py`, as `event_views.py` is over the events'.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

from settlement import policy, selectors, services
from settlement.ledger import LedgerError
from settlement.models import Event, League
from settlement.rules.base import RulesError
from settlement.scoping import get_league_for_user, get_membership_for_user
from settlement.services.leagues import BEST_N_MAX, UNITS

from .common import (
    IDEMPOTENCY_HEADER,
    READ_ERRORS,
    WRITE_ERRORS,
    api_endpoint,
    error_responses,
    idempotency_key,
    key_errors,
    query_none,
)
from .event_views import EventPlayerNameSerializer, body_no_nulls, player_named
from .schema import NAME_TEXT

# --- the schema's shapes ---


class LeagueCreateSerializer(serializers.Serializer):
    name = serializers.RegexField(NAME_TEXT, max_length=100)
    ranking = serializers.ChoiceField(
        choices=League.Ranking.values,
        required=False,
        help_text="`sum` (default): each player's event totals added; `best`: their best `best_n` events",
    )
    best_n = serializers.IntegerField(
        required=False, min_value=1, max_value=BEST_N_MAX, help_text="with `best`: how many events count"
    )
    unit = serializers.ChoiceField(
        choices=list(UNITS), required=False, help_text="the family unit (default: the first event's)"
    )
    events = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        max_length=1000,
        help_text="the club's events it counts (each of its unit, ranked by the sum, in no other league)",
    )


class LeagueEventAddSerializer(serializers.Serializer):
    event = serializers.IntegerField(min_value=1, help_text="the club's event to count in the league")


class LeagueEventRemoveSerializer(serializers.Serializer):
    event = serializers.IntegerField(min_value=1, help_text="the league's event to take out of it")


class LeagueEventSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField()
    state = serializers.ChoiceField(choices=Event.State.values)


class LeagueSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    unit = serializers.CharField()
    ranking = serializers.ChoiceField(choices=League.Ranking.values)
    best_n = serializers.IntegerField(allow_null=True)
    rule = serializers.CharField(help_text="how the table ranks, in the request's language (e.g. best 3 of 5 events)")
    events = LeagueEventSerializer(many=True, help_text="in the order played")


class LeagueListSerializer(serializers.Serializer):
    results = LeagueSerializer(many=True)


class LeagueResultSerializer(serializers.Serializer):
    event = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField()
    total = serializers.IntegerField(help_text="the player's total in the event's standings")
    rank = serializers.IntegerField(help_text="their rank in the event")
    counted = serializers.BooleanField(help_text="toward the league total (`best`: among their best N)")


class LeagueRowSerializer(serializers.Serializer):
    player = EventPlayerNameSerializer()
    total = serializers.IntegerField()
    rank = serializers.IntegerField()
    best = serializers.IntegerField(help_text="the tie-break: the best single event total")
    events = LeagueResultSerializer(many=True, help_text="the player's history: event by event, in the order played")


class LeagueStandingsSerializer(serializers.Serializer):
    rule = serializers.CharField(help_text="how the table ranks and breaks ties, in the request's language")
    rule_short = serializers.CharField(help_text="e.g. best 3 of 5 events")
    unit = serializers.CharField()
    events = LeagueEventSerializer(many=True)
    rows = LeagueRowSerializer(many=True)


# --- the bodies ---


def _event(event: Event) -> dict[str, Any]:
    return {"id": event.pk, "name": event.name, "date": event.date.isoformat(), "state": event.state}


def _league_body(league: League, events: list[Event] | None = None) -> dict[str, Any]:
    events = selectors.league_events(league=league) if events is None else events
    _, short = selectors.league_rule(league=league, events=len(events))
    return {
        "id": league.pk,
        "name": league.name,
        "unit": league.unit,
        "ranking": league.ranking,
        "best_n": league.best_n,
        "rule": short,
        "events": [_event(e) for e in events],
    }


def _int(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise LedgerError.from_rules(RulesError("value.not_integer", field=field))
    return value


def _events_arg(club_id: int, value: Any) -> list[Event]:
    if not isinstance(value, list):
        raise LedgerError.from_rules(RulesError("value.not_list", field="events"))
    ids = [_int(v, f"events[{i}]") for i, v in enumerate(value)]
    found = {e.pk: e for e in Event.objects.filter(club_id=club_id, pk__in=ids)}
    for i, pk in enumerate(ids):
        if pk not in found:
            raise LedgerError("league.event_not_found", field=f"events[{i}]")
    return [found[pk] for pk in ids]


# --- the endpoints ---

LEAGUE_EXAMPLE = {"name": "冬季联赛", "ranking": "best", "best_n": 3, "events": [1, 2]}


@extend_schema(
    methods=["GET"],
    operation_id="club_leagues_list",
    tags=["leagues"],
    summary="The club's leagues (seasons), newest first, each with its events",
    responses={200: LeagueListSerializer, **error_responses(400, 401, 404)},
)
@extend_schema(
    methods=["POST"],
    operation_id="club_league_create",
    tags=["leagues"],
    summary="Create a league (a season): a named series of events with a league table",
    description=(
        "The table adds each player's event totals (`sum`) or their best `best_n` (`best`), in one family unit "
        "(`unit`, default the first event's): an event of another unit, ranked by placement points or in another "
        "league is refused naming the field. "
        f"With an `{IDEMPOTENCY_HEADER}` header a retry returns the league made the first time."
    ),
    request=LeagueCreateSerializer,
    examples=[OpenApiExample("the best 3 events of a season", value=LEAGUE_EXAMPLE, request_only=True)],
    responses={201: LeagueSerializer, **WRITE_ERRORS},
)
@api_endpoint("GET", "POST", service_keyed=True)
def club_leagues(request: Request, slug: str) -> Response:
    membership = get_membership_for_user(request.user, slug)
    club = membership.club
    if request.method != "POST":
        query_none(request)
        leagues = list(selectors.club_leagues(club=club)[:100])
        events: dict[int, list[Event]] = {league.pk: [] for league in leagues}
        for event in Event.objects.filter(league__in=leagues).order_by("date", "id"):
            events[event.league_id].append(event)  # type: ignore[index]
        return Response({"results": [_league_body(league, events[league.pk]) for league in leagues]})
    policy.deny_unless(policy.may_direct(membership.role))
    body = body_no_nulls(request, LeagueCreateSerializer)
    key = idempotency_key(request)
    existed = bool(key) and League.objects.filter(club=club, client_key=key.strip()).exists()
    with key_errors():
        league = services.league_create(
            club=club,
            user=request.user,
            name=body.get("name", ""),
            ranking=body.get("ranking", League.Ranking.SUM),
            best_n=body.get("best_n"),
            unit=body.get("unit", ""),
            events=_events_arg(club.pk, body.get("events", [])),
            client_key=key,
        )
    location = reverse("api_league_detail", args=[league.pk], request=request)
    headers = {"Location": location, **({"Idempotent-Replayed": "true"} if existed else {})}
    return Response(_league_body(league), status=status.HTTP_201_CREATED, headers=headers)


@extend_schema(
    operation_id="league_retrieve",
    tags=["leagues"],
    summary="The league: its rule and its events",
    responses={200: LeagueSerializer, **READ_ERRORS},
)
@api_endpoint("GET")
def league_detail(request: Request, league_id: int) -> Response:
    query_none(request)
    _, league = get_league_for_user(request.user, league_id)
    return Response(_league_body(league))


def _league_and_event_for_director(request: Request, league_id: int, serializer: Any) -> tuple[League, Event]:
    """The league (its club's director only) and the club's event the body names (`event`, required)."""
    membership, league = get_league_for_user(request.user, league_id)
    policy.deny_unless(policy.may_direct(membership.role))
    body = body_no_nulls(request, serializer)
    if "event" not in body:
        raise LedgerError.from_rules(RulesError("field.required", field="event"))
    event = Event.objects.filter(club_id=league.club_id, pk=_int(body["event"], "event")).first()
    if event is None:
        raise LedgerError("league.event_not_found", field="event")
    return league, event


@extend_schema(
    operation_id="league_event_add",
    tags=["leagues"],
    summary="Count one of the club's events in the league (added again, it stays as it is)",
    description="An event of another unit than the league's, ranked by placement points or in another league is a 400 "
    "naming `event`.",
    request=LeagueEventAddSerializer,
    examples=[OpenApiExample("an evening", value={"event": 3}, request_only=True)],
    responses={200: LeagueSerializer, **WRITE_ERRORS},
)
@api_endpoint("POST")
def league_events(request: Request, league_id: int) -> Response:
    league, event = _league_and_event_for_director(request, league_id, LeagueEventAddSerializer)
    services.league_event_add(league=league, user=request.user, event=event)
    return Response(_league_body(league))


@extend_schema(
    operation_id="league_event_remove",
    tags=["leagues"],
    summary="Take an event out of the league: the league table no longer counts it",
    description="An event the league does not count is a 400 naming `event` (`league.event_not_in`). "
    f"With an `{IDEMPOTENCY_HEADER}` header a retry answers as the first call did.",
    request=LeagueEventRemoveSerializer,
    examples=[OpenApiExample("an evening", value={"event": 3}, request_only=True)],
    responses={200: LeagueSerializer, **WRITE_ERRORS},
)
@api_endpoint("POST")
def league_event_remove(request: Request, league_id: int) -> Response:
    league, event = _league_and_event_for_director(request, league_id, LeagueEventRemoveSerializer)
    services.league_event_remove(league=league, user=request.user, event=event)
    return Response(_league_body(league))


@extend_schema(
    operation_id="league_standings",
    tags=["leagues"],
    summary="The league table: the rule stated, each player's total, rank and event by event history",
    responses={200: LeagueStandingsSerializer, **READ_ERRORS},
)
@api_endpoint("GET")
def league_standings(request: Request, league_id: int) -> Response:
    query_none(request)
    _, league = get_league_for_user(request.user, league_id)
    standings = selectors.league_standings(league=league)
    rows = [
        {
            "player": player_named(row.player),
            "total": row.total,
            "rank": row.rank,
            "best": row.best,
            "events": [
                {
                    "event": r.event.pk,
                    "name": r.event.name,
                    "date": r.event.date.isoformat(),
                    "total": r.total,
                    "rank": r.rank,
                    "counted": r.counted,
                }
                for r in row.results
            ],
        }
        for row in standings.rows
    ]
    return Response(
        {
            "rule": standings.rule,
            "rule_short": standings.rule_short,
            "unit": standings.unit,
            "events": [_event(e) for e in standings.events],
            "rows": rows,
        }
    )
