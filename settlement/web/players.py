"""A player's page (sessions, statistics, ratings, audit trail, the owner's forms: rename, merge) and the
club's leaderboard.

The ratings part of the player page is `_player_ratings.html`, with `player_ratings_context`; the records and
achievements part is `_player_records.html`, with `web.streaks.player_records_context`.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import policy, selectors, services
from ..ledger import LedgerError
from ..ledger.ratings import family_label
from ..models import Membership, Player
from ..presentation.chart import BY_DATE, BY_GAMES, rating_chart
from ..presentation.ratings import event_lines, leaderboard_rows, rating_histories
from ..scoping import get_membership_for_user, get_player_for_user, request_lang
from ..selectors.ratings import leaderboard, merge_candidates, player_events, player_ratings, rating_steps
from .stats import player_stats_context
from .streaks import player_records_context

PLAYER_SESSIONS = 20  # the player page's newest sessions; the rest are in the club's history, filtered by the player
GRAPHED = 5  # the leaderboard's rating graph draws its first five players


@login_required
def player_detail(
    request: HttpRequest, slug: str, player_id: int, errors: dict[str, str] | None = None
) -> HttpResponse:
    membership, player = get_player_for_user(request.user, slug, player_id)
    if player.merged_into_id is not None:  # a merged record's page is its survivor's
        return redirect("player_detail", slug, player.merged_into_id)
    # One more than shown: whether there are older ones, in the same queries (no count).
    summaries = selectors.club_sessions(club=membership.club, player=player, limit=PLAYER_SESSIONS + 1)
    rows = [(summary, next(seat for seat in summary.seats if seat.player.pk == player.pk)) for summary in summaries]
    ctx = {
        "club": membership.club,
        "membership": membership,
        "player": player,
        "rows": rows[:PLAYER_SESSIONS],
        "older_sessions": len(rows) > PLAYER_SESSIONS,
    }
    ctx.update(player_stats_context(club=membership.club, player=player))
    ctx.update(player_records_context(club=membership.club, player=player))
    ctx |= player_ratings_context(membership=membership, player=player, errors=errors)
    return render(request, "settlement/player_detail.html", ctx, status=400 if errors else 200)


def player_ratings_context(
    *, membership: Membership, player: Player, errors: dict[str, str] | None = None
) -> dict[str, Any]:
    """What `_player_ratings.html` shows: the ratings with their history, the audit trail, the owner's forms."""
    can_manage = policy.may_manage(membership.role)
    return {
        "ratings": rating_histories(player_ratings(player=player)),
        "player_events": event_lines(player_events(player=player), player=player, lang=request_lang()),
        "can_manage_players": can_manage,
        "merge_candidates": merge_candidates(player=player) if can_manage else [],
        "player_errors": errors or {},
    }


@login_required
def club_leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    membership = get_membership_for_user(request.user, slug)
    family = request.GET.get("family") or None
    board = leaderboard(club=membership.club, family=family)
    # The graph across the dates or the games played (`?by=games`); any other value is the dates.
    by = BY_GAMES if request.GET.get("by") == BY_GAMES else BY_DATE
    leaders = [entry.player for entry in board.entries[:GRAPHED]]
    steps = rating_steps(club=membership.club, family=board.family, players=leaders) if leaders and board.family else {}
    ctx = {
        "club": membership.club,
        "membership": membership,
        "board": board,
        "family_label": family_label(board.family) if board.family else "",
        "families": [(key, family_label(key)) for key in board.families],
        "rows": leaderboard_rows(board),
        "chart": rating_chart(players=leaders, steps=steps, by=by),
        "by": by,
        "by_choices": [(BY_DATE, _("By date")), (BY_GAMES, _("By games played"))],
    }
    return render(request, "settlement/leaderboard.html", ctx)


@login_required
@require_POST
def player_rename(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    membership, player = get_player_for_user(request.user, slug, player_id)
    policy.deny_unless(policy.may_manage(membership.role))
    try:
        services.player_rename(
            player=player, user=request.user, name=request.POST.get("name", ""), reason=request.POST.get("reason", "")
        )
    except LedgerError as error:
        return _player_page_again(request, membership, player, error)
    return redirect("player_detail", slug, player.pk)


@login_required
@require_POST
def player_merge(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    membership, player = get_player_for_user(request.user, slug, player_id)
    policy.deny_unless(policy.may_manage(membership.role))
    into = Player.objects.filter(club=membership.club, pk=_int(request.POST.get("into"))).first()
    try:
        if into is None:
            raise LedgerError("player.not_found", field="into")
        survivor = services.player_merge(
            player=player, into=into, user=request.user, reason=request.POST.get("reason", "")
        )
    except LedgerError as error:
        return _player_page_again(request, membership, player, error)
    return redirect("player_detail", slug, survivor.pk)


def _int(value: Any) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return 0
    return number if 0 < number < 2**63 else 0  # no player has an id beyond a 64-bit integer


def _player_page_again(
    request: HttpRequest, membership: Membership, player: Player, error: LedgerError
) -> HttpResponse:
    """The player page again (400) with the refusal beside the form's field."""
    return player_detail(request, membership.club.slug, player.pk, errors={error.field: error.message(request_lang())})
