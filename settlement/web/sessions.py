"""A session's pages: opening one, its page (results, hands in pages, events), its export, closing and reopening.

Every lookup goes through `scoping` (another club's session is a 404); a viewer's write is a 403. The
services and selectors do the work; views parse the request and pick the template.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from .. import policy, selectors, services
from ..ledger import LedgerError
from ..models import Player, Session, variant_label
from ..presentation.options import option_rows
from ..presentation.sessions import event_lines
from ..rules.entry import variant_default_players
from ..rules.registry import VARIANTS
from ..scoping import get_membership_for_user, get_session_for_user, int_param, request_lang
from ..selectors.event_pages import session_event
from .forms import SessionOpenForm

# Hands per page of the session page, newest first: the API's page (`GET sessions/{id}/`). Each hand is most of
# the page's rendering, so a page of 50 made a long session's page 1.25 times a short one's (bench/ledger.py).
SESSION_PAGE_HANDS = 20


@login_required
def session_new(request: HttpRequest, slug: str) -> HttpResponse:
    membership = get_membership_for_user(request.user, slug)
    policy.deny_unless(policy.may_write(membership.role))
    club = membership.club
    key = request.GET.get("variant")
    if key not in VARIANTS:
        choices = [(k, variant_label(k), v) for k, v in VARIANTS.items()]
        return render(request, "settlement/session_new.html", {"club": club, "variants": choices})
    rules = VARIANTS[key]
    counts = sorted(rules.player_counts)
    usual = variant_default_players(rules)
    try:
        n_players = int(request.GET.get("players", usual))
    except ValueError:
        n_players = usual
    if n_players not in counts:
        n_players = usual
    preset = request.GET.get("preset")
    if preset not in rules.presets:
        preset = next(iter(rules.presets), None)
    players = Player.objects.filter(club=club, merged_into__isnull=True).order_by("is_guest", "name")
    form_args: dict[str, Any] = {
        "variant": key,
        "n_players": n_players,
        "preset": preset,
        "players": players,
        "lang": request_lang(),
    }
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
                    client_key=data["client_key"],
                )
            except LedgerError as error:
                form.add_error(_form_field(form, error), error.message(request_lang()))
            else:
                # Straight to the scorekeeping: a new session has nothing to read yet.
                return redirect("table", slug=club.slug, session_id=session.pk)
    else:
        form = SessionOpenForm(initial={"date": timezone.localdate()}, **form_args)
    ctx = {
        "club": club,
        "rules": rules,
        "variant_name": variant_label(key),
        "counts": counts if len(counts) > 1 else [],
        "n_players": n_players,
        "presets": form.spec.presets,
        "preset": preset,
        "form": form,
    }
    return render(request, "settlement/session_new.html", ctx)


def _form_field(form: SessionOpenForm, error: LedgerError) -> str | None:
    """The form field a service error belongs to (None: the whole form)."""
    if error.field.startswith("options."):
        return form.option_field(error.field.split(".")[1].split("[")[0])
    if error.field.startswith("players[") and error.field.endswith("]"):
        return f"seat_{error.field[8:-1]}_name"
    if error.field in ("date", "venue"):
        return error.field
    return None


@login_required
def session_detail(request: HttpRequest, slug: str, session_id: int) -> HttpResponse:
    membership, session = get_session_for_user(request.user, session_id, slug)
    page = max(1, int_param(request.GET.get("page")) or 1)
    record = selectors.session_results(
        session=session, lang=request_lang(), offset=(page - 1) * SESSION_PAGE_HANDS, limit=SESSION_PAGE_HANDS
    )
    if page > 1 and not record.hands:
        raise Http404("no such page")
    window = record.window
    url = reverse("session_detail", args=[slug, session.pk])
    ctx = {
        "hands": record.hands_newest_first,
        "page": page,
        "pages": -(-window.count // SESSION_PAGE_HANDS) if window else 1,
        "newer_url": (url + (f"?page={page - 1}" if page > 2 else "")) if page > 1 else None,
        "older_url": f"{url}?page={page + 1}" if window and window.has_older else None,
        "club": membership.club,
        "membership": membership,
        "session": session,
        "record": record,
        "results": record.results,
        "players": record.players,
        "events": event_lines(events=selectors.session_events(session=session), lang=request_lang()),
        "event_table": session_event(session=session),
        **policy.session_flags(membership.role, session),
        "options": option_rows(variant=session.variant, options=session.options, lang=request_lang()),
    }
    return render(request, "settlement/session_detail.html", ctx)


@login_required
def session_export(request: HttpRequest, slug: str, session_id: int) -> HttpResponse:
    _, session = get_session_for_user(request.user, session_id, slug)
    document = services.session_export(session=session)
    response = JsonResponse(document, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="session-{session.pk}-{session.date}.json"'
    return response


def _back_to(slug: str, session: Session, where: str | None) -> str:
    """Where a close or reopen returns: the table page (`where="table"`) or the session page."""
    if where == "table":
        return reverse("table", args=[slug, session.pk])
    return reverse("session_detail", args=[slug, session.pk])


@login_required
def session_close_confirm(request: HttpRequest, slug: str, session_id: int) -> HttpResponse:
    """Asks once before closing (a page, so it works without JavaScript); its button posts to `session_close`."""
    membership, session = get_session_for_user(request.user, session_id, slug)
    policy.deny_unless(policy.may_write(membership.role))
    where = "table" if request.GET.get("from") == "table" else "session"
    if not session.is_open:
        return redirect(_back_to(slug, session, where))
    ctx = {
        "club": membership.club,
        "membership": membership,
        "session": session,
        "hands": selectors.sessions_summarize(sessions=[session])[0].hands,
        "back": where,
        "cancel_url": _back_to(slug, session, where),
    }
    return render(request, "settlement/session_close.html", ctx)


@login_required
@require_POST
def session_close(request: HttpRequest, slug: str, session_id: int) -> HttpResponse:
    membership, session = get_session_for_user(request.user, session_id, slug)
    policy.deny_unless(policy.may_write(membership.role))
    services.session_close(session=session, user=request.user)
    return redirect(_back_to(slug, session, request.POST.get("back")))


@login_required
@require_POST
def session_reopen(request: HttpRequest, slug: str, session_id: int) -> HttpResponse:
    """An owner opens a closed session again; the closing and the reopening stay on the session page."""
    membership, session = get_session_for_user(request.user, session_id, slug)
    policy.deny_unless(policy.may_reopen(membership.role))
    services.session_reopen(session=session, user=request.user)
    return redirect(_back_to(slug, session, request.POST.get("back")))
