"""The API's clubs: your clubs, a club's players, its standings (JSON or CSV) and a player's statistics;
and your personal API tokens. Plain functions over the selectors and services.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

from settlement import selectors, services
from settlement.ledger import LedgerError
from settlement.presentation.stats import group_name, standings_document
from settlement.scoping import get_membership_for_user, get_player_for_user, request_lang

from . import serializers as s
from .common import (
    JSON,
    NOT_MODIFIED,
    READ_ERRORS,
    api_endpoint,
    error_responses,
    etag_conditional,
    list_page,
    object_body,
    query_none,
    query_valid,
)
from .renderers import StandingsCSVRenderer
from .stats_serializers import (
    PlayerStatsSerializer,
    StandingGroupSerializer,
    StandingsCSVFilterSerializer,
    StandingsFilterSerializer,
)

# --- clubs ---


@extend_schema(
    operation_id="clubs_list",
    tags=["clubs"],
    summary="Your clubs, with your role in each, a page at a time",
    parameters=[s.ListQuerySerializer],
    responses={200: s.ClubPageSerializer, **error_responses(400, 401)},
)
@api_endpoint("GET")
def clubs_list(request: Request) -> Response:
    return list_page(request, selectors.user_clubs(user=request.user), s.ClubSerializer)


@extend_schema(
    operation_id="club_players_list",
    tags=["clubs"],
    summary="The club's players (members first, then guests), a page at a time",
    parameters=[s.ListQuerySerializer],
    responses={200: s.PlayerPageSerializer, **error_responses(400, 401, 404)},
)
@api_endpoint("GET")
def club_players(request: Request, slug: str) -> Response:
    membership = get_membership_for_user(request.user, slug)
    return list_page(request, selectors.club_players(club=membership.club), s.PlayerSerializer)


# --- standings and statistics ---


@extend_schema(
    operation_id="club_standings",
    tags=["standings"],
    summary="The club's standings, a ranked table per game family and unit; `?format=csv` for a spreadsheet",
    description=(
        "A group per (family, unit) — 打百分's 盘 points, classic 注, stake points (打二鬼, 打滚子), 标分's 档, "
        "levels — never added across units; in each, every player who sat in one of the (filtered) sessions, "
        "ranked by total, then games won, then sessions won (the group's `ranking` says so in words). "
        "The CSV is UTF-8 with a byte-order mark, a row per player per group."
    ),
    parameters=[StandingsFilterSerializer],
    responses={
        (200, JSON): StandingGroupSerializer(many=True),
        (200, StandingsCSVRenderer.media_type): OpenApiTypes.STR,
        **{(304, JSON): NOT_MODIFIED[304]},
        **error_responses(400, 401, 404, media_type=JSON),
    },
)
@etag_conditional
@api_endpoint("GET", renderers=(JSONRenderer, StandingsCSVRenderer))
def club_standings(request: Request, slug: str) -> Response:
    return _standings(request, slug)


@extend_schema(
    operation_id="club_standings_csv",
    tags=["standings"],
    summary="The standings as CSV, for a spreadsheet (the same as `standings/?format=csv`)",
    description="UTF-8 with a byte-order mark; a row per player per group (family and unit).",
    parameters=[StandingsCSVFilterSerializer],
    responses={
        (200, StandingsCSVRenderer.media_type): OpenApiTypes.STR,
        **{(304, JSON): NOT_MODIFIED[304]},
        **error_responses(400, 401, 404, 406, media_type=JSON),
    },
)
@etag_conditional
@api_endpoint("GET", renderers=(StandingsCSVRenderer,))
def club_standings_csv(request: Request, slug: str) -> Response:
    return _standings(request, slug)


def _standings(request: Request, slug: str) -> Response:
    membership = get_membership_for_user(request.user, slug)
    filters = query_valid(StandingsFilterSerializer(data=request.query_params.dict()))
    filters.pop("format", None)
    filters.pop("labels", None)  # the CSV renderer's
    groups = selectors.standings_grouped(club=membership.club, **filters)
    response = Response(StandingGroupSerializer(standings_document(groups, lang=request_lang()), many=True).data)
    if request.accepted_renderer.format == StandingsCSVRenderer.format:
        response["Content-Disposition"] = f'attachment; filename="standings-{membership.club.slug}.csv"'
    return response


@extend_schema(
    operation_id="player_stats",
    tags=["standings"],
    summary="A player's statistics per game family and unit",
    description=(
        "Sessions and hands played; per (family, unit): the totals and averages, declarer figures by bid "
        "(null for games without bids), the best and worst sessions, partners (the player's side of each hand: "
        "hands together, won, the player's net and per hand) and opponents (the same, against), the best and "
        "worst of each among those with at least `min_hands` hands, and the running total session by session."
    ),
    responses={200: PlayerStatsSerializer, **READ_ERRORS},
)
@api_endpoint("GET")
def player_stats(request: Request, slug: str, player_id: int) -> Response:
    query_none(request)
    membership, player = get_player_for_user(request.user, slug, player_id)
    stats = selectors.player_stats(club=membership.club, player=player)
    lang = request_lang()
    body = {
        "player": stats.player,
        "sessions": stats.sessions,
        "hands": stats.hands,
        "groups": [{**vars(group), "label": group_name(group.group, lang)} for group in stats.groups],
    }
    return Response(PlayerStatsSerializer(body).data)


# --- personal API tokens ---


@extend_schema(
    methods=["GET"],
    operation_id="tokens_list",
    tags=["tokens"],
    summary="Your personal API tokens, newest first (revoked ones too; never their secrets), a page at a time",
    parameters=[s.PageQuerySerializer],
    responses={200: s.ApiTokenPageSerializer, **error_responses(400, 401)},
)
@extend_schema(
    methods=["POST"],
    operation_id="tokens_create",
    tags=["tokens"],
    summary="Make a named token; its secret is in this answer only",
    request=s.ApiTokenCreateSerializer,
    examples=[OpenApiExample("a spreadsheet's", value={"name": "spreadsheet"}, request_only=True)],
    responses={201: s.ApiTokenMadeSerializer, **error_responses(400, 401)},
)
@api_endpoint("GET", "POST")
def tokens(request: Request) -> Response:
    if request.method == "POST":
        query_none(request)
        body = object_body(request, ("name", "expires"))
        expires = body.get("expires")
        if expires is not None:
            expires = query_valid(s.ApiTokenCreateSerializer(data={"name": "-", "expires": expires}))["expires"]
        token, secret = services.api_token_create(user=request.user, name=body.get("name", ""), expires_at=expires)
        headers = {"Location": reverse("api_token_detail", args=[token.pk], request=request)}
        body = s.ApiTokenMadeSerializer({**vars(token), "token": secret}).data
        return Response(body, status=status.HTTP_201_CREATED, headers=headers)
    tokens = selectors.user_api_tokens(user=request.user)
    return list_page(request, tokens, s.ApiTokenSerializer, s.PageQuerySerializer)


@extend_schema(
    methods=["GET"],
    operation_id="token_retrieve",
    tags=["tokens"],
    summary="One of your tokens (never its secret)",
    responses={200: s.ApiTokenSerializer, **READ_ERRORS},
)
@extend_schema(
    methods=["DELETE"],
    operation_id="tokens_revoke",
    tags=["tokens"],
    summary="Revoke one of your tokens: it stops working at once (revoking twice changes nothing)",
    responses={204: None, **error_responses(401, 404)},
)
@api_endpoint("GET", "DELETE")
def token_detail(request: Request, token_id: int) -> Response:
    query_none(request)
    if request.method == "DELETE":
        services.api_token_revoke(user=request.user, token_id=token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
    token = selectors.user_api_tokens(user=request.user).filter(pk=token_id).first()
    if token is None:
        raise LedgerError("token.not_found", field="id")
    return Response(s.ApiTokenSerializer(token).data)
