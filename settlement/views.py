"""Club pages: plain function views.

Every lookup goes through a `_get_<obj>_for_user` helper that scopes it to the
user's clubs (another club's object is a 404); a viewer's write is a 403. The
services and selectors do the work; views parse the request and pick the template.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.views.decorators.http import require_POST

from . import selectors, services
from .forms import HandCorrectForm, HandInputForm, HandVoidForm, HistoryFilterForm, SessionOpenForm
from .ledger import LedgerError
from .models import Hand, Membership, Player, Session, engine_lang, variant_label
from .rules.registry import VARIANTS

RECENT_SESSIONS = 10


# --- scoping helpers ---


def _get_membership_for_user(request: HttpRequest, slug: str) -> Membership:
    """The user's membership of the club `slug` (with the club); 404 when the user is not a member."""
    try:
        return Membership.objects.select_related("club").get(user=request.user, club__slug=slug)
    except Membership.DoesNotExist:
        raise Http404("no such club") from None


def _get_session_for_user(request: HttpRequest, slug: str, session_id: int) -> tuple[Membership, Session]:
    membership = _get_membership_for_user(request, slug)
    session = get_object_or_404(Session, pk=session_id, club=membership.club)
    session.club = membership.club
    return membership, session


def _get_hand_for_user(request: HttpRequest, slug: str, session_id: int, number: int) -> tuple[Membership, Hand]:
    membership, session = _get_session_for_user(request, slug, session_id)
    hand = get_object_or_404(Hand, session=session, number=number)
    hand.session = session
    return membership, hand


def _get_player_for_user(request: HttpRequest, slug: str, player_id: int) -> tuple[Membership, Player]:
    membership = _get_membership_for_user(request, slug)
    player = get_object_or_404(Player, pk=player_id, club=membership.club)
    return membership, player


def _require_write(membership: Membership) -> None:
    if not membership.can_write:
        raise PermissionDenied


def _lang() -> str:
    return engine_lang(get_language())


def _variant_choices() -> list[tuple[str, str]]:
    return [(key, variant_label(key)) for key in VARIANTS]


# --- pages ---


@login_required
def home(request: HttpRequest) -> HttpResponse:
    clubs = list(selectors.user_clubs(user=request.user))
    if len(clubs) == 1:
        return redirect("club_home", slug=clubs[0].slug)
    return render(request, "settlement/home.html", {"clubs": clubs})


@login_required
def club_home(request: HttpRequest, slug: str) -> HttpResponse:
    membership = _get_membership_for_user(request, slug)
    club = membership.club
    ctx = {
        "club": club,
        "membership": membership,
        "open_sessions": selectors.club_sessions(club=club, status=Session.Status.OPEN),
        "recent_sessions": selectors.club_sessions(club=club, status=Session.Status.CLOSED, limit=RECENT_SESSIONS),
        "players": selectors.club_players(club=club),
    }
    return render(request, "settlement/club_home.html", ctx)


@login_required
def club_history(request: HttpRequest, slug: str) -> HttpResponse:
    membership = _get_membership_for_user(request, slug)
    club = membership.club
    players = selectors.club_players(club=club)
    form = HistoryFilterForm(request.GET or None, players=players, variant_choices=_variant_choices())
    filters: dict[str, Any] = {}
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        filters = {
            "date_from": data["date_from"],
            "date_to": data["date_to"],
            "variant": data["variant"] or None,
            "player": data["player"],
            "status": data["status"] or None,
        }
    ctx = {
        "club": club,
        "membership": membership,
        "form": form,
        "sessions": selectors.club_sessions(club=club, **filters),
    }
    return render(request, "settlement/club_history.html", ctx)


@login_required
def player_detail(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    membership, player = _get_player_for_user(request, slug, player_id)
    summaries = selectors.club_sessions(club=membership.club, player=player)
    rows = [(summary, next(seat for seat in summary.seats if seat.player.pk == player.pk)) for summary in summaries]
    ctx = {"club": membership.club, "membership": membership, "player": player, "rows": rows}
    return render(request, "settlement/player_detail.html", ctx)


@login_required
def session_new(request: HttpRequest, slug: str) -> HttpResponse:
    membership = _get_membership_for_user(request, slug)
    _require_write(membership)
    club = membership.club
    key = request.GET.get("variant")
    if key not in VARIANTS:
        choices = [(k, variant_label(k), v) for k, v in VARIANTS.items()]
        return render(request, "settlement/session_new.html", {"club": club, "variants": choices})
    rules = VARIANTS[key]
    counts = sorted(rules.player_counts)
    try:
        n_players = int(request.GET.get("players", counts[-1]))
    except ValueError:
        n_players = counts[-1]
    if n_players not in counts:
        n_players = counts[-1]
    preset = request.GET.get("preset")
    if preset not in rules.presets:
        preset = next(iter(rules.presets), None)
    players = Player.objects.filter(club=club).order_by("is_guest", "name")
    form_args: dict[str, Any] = {"variant": key, "n_players": n_players, "preset": preset, "players": players}
    if request.method == "POST":
        form = SessionOpenForm(request.POST, **form_args)
        if form.is_valid():
            data = form.cleaned_data
            try:
                session = services.session_open(
                    club=club,
                    user=request.user,
                    variant=key,
                    options_overrides=data["overrides"],
                    players=data["players"],
                    date=data["date"],
                    venue=data["venue"],
                )
            except LedgerError as error:
                form.add_error(_form_field(error), error.message(_lang()))
            else:
                return redirect("session_detail", slug=club.slug, session_id=session.pk)
    else:
        form = SessionOpenForm(initial={"date": timezone.localdate()}, **form_args)
    ctx = {
        "club": club,
        "rules": rules,
        "variant_name": variant_label(key),
        "counts": counts if len(counts) > 1 else [],
        "n_players": n_players,
        "presets": list(rules.presets),
        "preset": preset,
        "form": form,
    }
    return render(request, "settlement/session_new.html", ctx)


def _form_field(error: LedgerError) -> str | None:
    """The form field a service error belongs to (None: the whole form)."""
    if error.field.startswith("options."):
        return "option_" + error.field.split(".")[1]
    if error.field.startswith("players[") and error.field.endswith("]"):
        return f"seat_{error.field[8:-1]}_name"
    if error.field in ("date", "venue"):
        return error.field
    return None


@login_required
def session_detail(request: HttpRequest, slug: str, session_id: int) -> HttpResponse:
    membership, session = _get_session_for_user(request, slug, session_id)
    return _session_page(request, membership, session, HandInputForm())


def _session_page(request: HttpRequest, membership: Membership, session: Session, form: HandInputForm) -> HttpResponse:
    record = selectors.session_results(session=session, lang=_lang())
    ctx = {
        "club": membership.club,
        "membership": membership,
        "session": session,
        "record": record,
        "results": record.results,
        "players": record.players,
        "form": form,
    }
    return render(request, "settlement/session_detail.html", ctx, status=400 if form.errors else 200)


@login_required
def session_export(request: HttpRequest, slug: str, session_id: int) -> HttpResponse:
    _, session = _get_session_for_user(request, slug, session_id)
    document = services.session_export(session=session)
    response = JsonResponse(document, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="session-{session.pk}-{session.date}.json"'
    return response


@login_required
@require_POST
def session_close(request: HttpRequest, slug: str, session_id: int) -> HttpResponse:
    membership, session = _get_session_for_user(request, slug, session_id)
    _require_write(membership)
    services.session_close(session=session, user=request.user)
    return redirect("session_detail", slug=slug, session_id=session.pk)


@login_required
@require_POST
def hand_new(request: HttpRequest, slug: str, session_id: int) -> HttpResponse:
    membership, session = _get_session_for_user(request, slug, session_id)
    _require_write(membership)
    form = HandInputForm(request.POST)
    if form.is_valid():
        try:
            services.hand_record(
                session=session,
                user=request.user,
                hand_input=form.cleaned_data["hand"],
                client_key=form.cleaned_data["client_key"],
            )
        except LedgerError as error:
            form.add_error("hand", error.describe(_lang()))
        else:
            return redirect(reverse("session_detail", args=[slug, session.pk]) + "#end")
    return _session_page(request, membership, session, form)


@login_required
def hand_detail(request: HttpRequest, slug: str, session_id: int, number: int) -> HttpResponse:
    membership, hand = _get_hand_for_user(request, slug, session_id, number)
    return _hand_page(request, membership, hand, HandCorrectForm(), HandVoidForm())


def _hand_page(
    request: HttpRequest, membership: Membership, hand: Hand, correct: HandCorrectForm, void: HandVoidForm
) -> HttpResponse:
    record = selectors.session_results(session=hand.session, lang=_lang())
    entry = next(h for h in record.hands if h.number == hand.number)
    if not correct.is_bound:
        last_input = next((r.input for r in reversed(entry.revisions) if not r.is_void), None)
        correct.initial = {"hand": json.dumps(last_input, ensure_ascii=False)}
    ctx = {
        "club": membership.club,
        "membership": membership,
        "session": hand.session,
        "record": record,
        "players": record.players,
        "entry": entry,
        "correct_form": correct,
        "void_form": void,
    }
    status = 400 if correct.errors or void.errors else 200
    return render(request, "settlement/hand_detail.html", ctx, status=status)


@login_required
@require_POST
def hand_correct(request: HttpRequest, slug: str, session_id: int, number: int) -> HttpResponse:
    membership, hand = _get_hand_for_user(request, slug, session_id, number)
    _require_write(membership)
    form = HandCorrectForm(request.POST)
    if form.is_valid():
        try:
            services.hand_correct(
                session=hand.session,
                user=request.user,
                number=number,
                hand_input=form.cleaned_data["hand"],
                reason=form.cleaned_data["reason"],
            )
        except LedgerError as error:
            form.add_error("reason" if error.field == "reason" else "hand", error.describe(_lang()))
        else:
            return redirect("hand_detail", slug=slug, session_id=session_id, number=number)
    return _hand_page(request, membership, hand, form, HandVoidForm())


@login_required
@require_POST
def hand_void(request: HttpRequest, slug: str, session_id: int, number: int) -> HttpResponse:
    membership, hand = _get_hand_for_user(request, slug, session_id, number)
    _require_write(membership)
    form = HandVoidForm(request.POST)
    if form.is_valid():
        try:
            services.hand_void(
                session=hand.session, user=request.user, number=number, reason=form.cleaned_data["reason"]
            )
        except LedgerError as error:
            form.add_error("reason" if error.field == "reason" else None, error.describe(_lang()))
        else:
            return redirect("hand_detail", slug=slug, session_id=session_id, number=number)
    return _hand_page(request, membership, hand, HandCorrectForm(), form)
