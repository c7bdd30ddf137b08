"""The API's ratings and players: `GET clubs/{slug}/leaderboard/`, `GET`/`PATCH clubs/{slug}/players/{id}/`
(rename, owners) and `POST clubs/{slug}/players/{id}/merge/` (owners). Thin over the selectors and services."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from settlement import policy, services
from settlement.ledger import LedgerError
from settlement.ledger.ratings import family_label
from settlement.models import Player
from settlement.rules.base import RulesError
from settlement.scoping import get_membership_for_user, get_player_for_user
from settlement.selectors.ratings import leaderboard

from . import player_serializers as s
from .common import (
    READ_ERRORS,
    WRITE_ERRORS,
    api_endpoint,
    error_responses,
    object_body,
    page_body,
    query_none,
    query_valid,
)

HOW = (
    "Weng-Lin (openskill) ratings per game family: fixed-partner games count each finished game, team against "
    "team; friend-card and individual games count each closed session, ranked by total. rating = mu − 3 × sigma."
)


@extend_schema(
    operation_id="club_leaderboard",
    tags=["clubs"],
    summary="The club's skill ratings in one game family, best first",
    description=HOW
    + " A page at a time (`count`, `next`, `previous`, `results`) with the family, the club's rated families and "
    "`how`. No `updated_since`: every write from a session on re-rates the players after it, so a client reads "
    "the board again.",
    parameters=[s.LeaderboardQuerySerializer],
    responses={200: s.LeaderboardSerializer, **error_responses(400, 401, 404)},
)
@api_endpoint("GET")
def club_leaderboard(request: Request, slug: str) -> Response:
    membership = get_membership_for_user(request.user, slug)
    query = query_valid(s.LeaderboardQuerySerializer(data=request.query_params.dict()))
    board = leaderboard(club=membership.club, family=query.get("family"))
    offset, limit = query["offset"], query["limit"]
    entries = board.entries[offset : offset + limit]
    body = {
        **page_body(request, offset=offset, limit=limit, count=len(board.entries), results=entries),
        "family": board.family,
        "families": [{"family": key, "label": family_label(key)} for key in board.families],
        "how": _(
            "How ratings work: a Weng-Lin (openskill) skill rating per game family; fixed-partner games count each "
            "finished game, team against team, the friend-card and individual games each closed session, ranked by "
            "total. Shown: the conservative rating μ − 3σ, ± its uncertainty σ."
        ),
    }
    return Response(s.LeaderboardSerializer(body).data)


@extend_schema(
    methods=["GET"],
    operation_id="player_detail",
    tags=["clubs"],
    summary="One of the club's players (a merged record answers with the player it was merged into)",
    responses={200: s.PlayerDetailSerializer, **READ_ERRORS},
)
@extend_schema(
    methods=["PATCH"],
    operation_id="player_rename",
    tags=["clubs"],
    summary="Rename the player (owners); kept in the audit trail",
    request=s.PlayerRenameSerializer,
    examples=[OpenApiExample("rename", value={"name": "王强", "reason": "his real name"}, request_only=True)],
    responses={200: s.PlayerDetailSerializer, **WRITE_ERRORS},
)
@api_endpoint("GET", "PATCH")
def player_detail(request: Request, slug: str, player_id: int) -> Response:
    query_none(request)
    membership, player = get_player_for_user(request.user, slug, player_id)
    if request.method == "PATCH":
        policy.deny_unless(policy.may_manage(membership.role))
        body = object_body(request, ("name", "reason"))
        _reason_text(body)
        if "name" not in body:
            raise LedgerError("player.name_required", field="name")
        player = services.player_rename(
            player=player, user=request.user, name=body["name"], reason=body.get("reason", "")
        )
    elif player.merged_into_id is not None:
        player = Player.objects.get(pk=player.merged_into_id)
    return Response(s.PlayerDetailSerializer(player).data)


@extend_schema(
    operation_id="player_merge",
    tags=["clubs"],
    summary="Merge the player into another record of the same person (owners); its results follow",
    description=(
        "Refused (400, field `into`) when it is the same player, another club's, a merged record, or when both "
        "sat in one session. Answers with the player who stays."
    ),
    request=s.PlayerMergeSerializer,
    examples=[OpenApiExample("merge", value={"into": 2, "reason": "the same person"}, request_only=True)],
    responses={200: s.PlayerDetailSerializer, **WRITE_ERRORS},
)
@api_endpoint("POST")
def player_merge(request: Request, slug: str, player_id: int) -> Response:
    query_none(request)
    membership, player = get_player_for_user(request.user, slug, player_id)
    policy.deny_unless(policy.may_manage(membership.role))
    body = object_body(request, ("into", "reason"))
    _reason_text(body)
    into_id = body.get("into")
    # Beyond a database integer no player has that id (and PostgreSQL would refuse the query).
    if not isinstance(into_id, int) or isinstance(into_id, bool) or not 0 < into_id < 2**63:
        raise LedgerError("player.not_found", field="into")
    into = Player.objects.filter(club=membership.club, pk=into_id).first()
    if into is None:
        raise LedgerError("player.not_found", field="into")
    survivor = services.player_merge(player=player, into=into, user=request.user, reason=body.get("reason", ""))
    return Response(s.PlayerDetailSerializer(survivor).data)


def _reason_text(body: dict) -> None:
    """A reason is text or left out, as the schema says (`null` or a number is not an empty reason)."""
    if "reason" in body and not isinstance(body["reason"], str):
        raise LedgerError.from_rules(RulesError("value.not_text", field="reason"))
