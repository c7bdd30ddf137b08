"""Club pages: plain function views.

Every lookup goes through a `_get_<obj>_for_user` helper that scopes it to the
user's clubs (another club's object is a 404); a viewer's write is a 403. The
services and selectors do the work; views parse the request and pick the template.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import player_views, policy, selectors, services
from .forms import HandVoidForm, HistoryFilterForm, SessionOpenForm, TableHandForm
from .ledger import LedgerError
from .models import Membership, Player, Session, variant_label
from .presentation.options import option_rows
from .presentation.receipts import hand_receipt
from .presentation.revisions import revision_lines
from .presentation.sessions import event_lines, game_label, hand_label, standings_note
from .rules.registry import VARIANTS
from .scoping import (
    get_hand_for_user,
    get_membership_for_user,
    get_player_for_user,
    get_session_for_user,
    request_lang,
)
from .stats_views import player_stats_context

RECENT_SESSIONS = 10
# Hands per page of the session page, newest first: the API's page (`GET sessions/{id}/`). Each hand is most of
# the page's rendering, so a page of 50 made a long session's page 1.25 times a short one's (bench/ledger.py).
SESSION_PAGE_HANDS = 20
HISTORY_PAGE = 50  # sessions per page of the club's history, newest first
PLAYER_SESSIONS = 20  # the player page's newest sessions; the rest are in the club's history, filtered by the player


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
    membership = get_membership_for_user(request.user, slug)
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
    membership = get_membership_for_user(request.user, slug)
    club = membership.club
    players = selectors.club_players(club=club)
    form = HistoryFilterForm(request.GET or None, players=players, variant_choices=_variant_choices())
    filters: dict[str, Any] = {}
    refused = form.is_bound and not form.is_valid()
    if form.is_bound and not refused:
        data = form.cleaned_data
        filters = {
            "date_from": data["date_from"],
            "date_to": data["date_to"],
            "variant": data["variant"] or None,
            "player": data["player"],
            "status": data["status"] or None,
        }
    page = max(1, _int_param(request.GET.get("page")) or 1)
    if page > 1_000_000:  # beyond any club's history (and a database's offset)
        raise Http404("no such page")
    if refused:  # no sessions rather than all of them: the filter asked for was not applied
        found = selectors.SessionPage(count=0, summaries=[])
    else:
        found = selectors.club_sessions_page(club=club, offset=(page - 1) * HISTORY_PAGE, limit=HISTORY_PAGE, **filters)
    if page > 1 and not found.summaries and not refused:
        raise Http404("no such page")
    ctx = {
        "club": club,
        "membership": membership,
        "form": form,
        "sessions": found.summaries,
        "page": page,
        "pages": max(1, -(-found.count // HISTORY_PAGE)),
        "newer_url": _page_url(request, page - 1) if page > 1 else None,
        "older_url": _page_url(request, page + 1) if page * HISTORY_PAGE < found.count else None,
    }
    # A refused filter is a 400 naming the field, as the standings page answers it.
    return render(request, "settlement/club_history.html", ctx, status=400 if refused else 200)


def _page_url(request: HttpRequest, page: int) -> str:
    """This page's address (its filters kept) at `page` (the first without `page`)."""
    query = request.GET.copy()
    query.pop("page", None)
    if page > 1:
        query["page"] = str(page)
    return f"{request.path}?{query.urlencode()}" if query else request.path


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
    ctx |= player_views.player_ratings_context(membership=membership, player=player, errors=errors)
    return render(request, "settlement/player_detail.html", ctx, status=400 if errors else 200)


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
    try:
        n_players = int(request.GET.get("players", counts[-1]))
    except ValueError:
        n_players = counts[-1]
    if n_players not in counts:
        n_players = counts[-1]
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
                return redirect("session_detail", slug=club.slug, session_id=session.pk)
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
    page = max(1, _int_param(request.GET.get("page")) or 1)
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
        return _table_url(slug, session.pk)
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


@login_required
def hand_detail(request: HttpRequest, slug: str, session_id: int, number: int) -> HttpResponse:
    """A hand: its receipt, its revisions, and (for a writer) the entry form to correct or void it."""
    membership, hand = get_hand_for_user(request.user, session_id, number, slug)
    view = selectors.hand_view(session=hand.session, number=number, lang=request_lang())
    if view is None or view.fix is None:
        raise Http404("no such hand")
    return _hand_page(request, membership, view, number)


def _hand_page(
    request: HttpRequest,
    membership: Membership,
    view: selectors.TableView,
    number: int,
    form: TableHandForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """The hand page; `form` is a refused correction or void posted from it, shown with its errors."""
    session = view.session
    record = view.fix
    assert record is not None and record.number == number
    flags = policy.session_flags(membership.role, session)
    ctx = {
        "club": membership.club,
        "membership": membership,
        "session": session,
        "players": view.players,
        "entry": record,
        "view": view,
        "form": (form or _table_form(session, view)) if flags["can_fix"] else None,
        "rules": VARIANTS[session.variant],
        "return_to": "hand",
        "history": revision_lines(revisions=record.revisions, players=view.players, lang=request_lang()),
        "receipt": None,
        **flags,
        **_game_columns(session.variant),
    }
    return render(request, "settlement/hand_detail.html", ctx, status=status)


# --- the scorekeeper's table page ---


def _table_url(slug: str, session_id: int, **params: Any) -> str:
    url = reverse("table", args=[slug, session_id])
    return url + ("?" + urlencode(params) if params else "")


def _table_form(session: Session, view: selectors.TableView, data: Any = None) -> TableHandForm | None:
    if view.entry is None:
        return None
    return TableHandForm(data, variant=session.variant, entry=view.entry, players=view.players, fix=view.fix)


def _table_error(form: TableHandForm, error: LedgerError, view: selectors.TableView) -> tuple[str, str]:
    """Put a refusal at the field it names, in the user's language; (message, form field or "").

    A refusal of another hand (a later one that no longer passes after a correction) goes on the
    whole form, naming that hand.
    """
    number = view.fix.number if view.fix is not None else view.entry.number if view.entry else None
    message = error.message(request_lang())
    if error.code == "hand.stale":
        form.add_error(None, message)  # the revision is a hidden field: say it over the whole form
        return message, ""
    if error.hand is not None and error.hand != number:
        message = hand_label(view.session.variant, error.hand, "refused", message=message)
        form.add_error(None, message)
        return message, ""
    field = form.field_for_error(error.field)
    form.add_error(field, message)
    return message, field or ""


def _table_receipt(session: Session, form: TableHandForm, view: selectors.TableView) -> dict[str, Any]:
    """The engine's receipt for the hand the form holds (nothing is written), or why it cannot be settled."""
    if not form.is_valid():
        return {"invalid": True}
    if form.missing:
        return {"missing": form.group_label(form.missing[0]), "missing_field": form.missing[0]}
    number = view.fix.number if view.fix is not None else None
    hand_input = form.cleaned_data["hand"]
    try:
        if number is None:  # a new hand: played on from the last hand's stored state, whatever the log's length
            document = services.hand_preview_next(session=session, hand_input=hand_input, lang=request_lang())
        else:  # a correction replays the hands after it as well
            document = services.hand_preview(session=session, hand_input=hand_input, lang=request_lang(), number=number)
    except LedgerError as error:
        # A level game's first hand names its declarer (rules/hongxingwu.md): not yet chosen is not an error.
        if error.code in ("field.required", "declarer.first_hand") and form.field_for_error(error.field):
            group = error.field.split(".")[0].split("[")[0]
            return {"missing": form.group_label(group), "missing_field": form.field_for_error(error.field)}
        message, field = _table_error(form, error, view)
        return {"refused": message, "field": field}
    target = number if number is not None else view.entry.number if view.entry else None
    before = view.results["totals"] if view.results else [0] * len(view.players)
    return hand_receipt(
        variant=session.variant, document=document, number=target, sides=view.sides, before=before, fix=number
    )


def _table_page(
    request: HttpRequest,
    membership: Membership,
    view: selectors.TableView,
    form: TableHandForm | None,
    receipt: dict[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    session = view.session
    last_game = view.last_game
    ctx = {
        "club": membership.club,
        "membership": membership,
        "session": session,
        "view": view,
        "has_games": view.has_games,
        "game_label": _game_label(session.variant, view.game) if view.has_games else "",
        "last_game_label": _game_label(session.variant, last_game["n"]) if last_game else "",
        "game_labels": {g["n"]: _game_label(session.variant, g["n"]) for g in (view.results or {}).get("games", [])},
        "entry_game_label": _game_label(session.variant, view.entry.game) if view.entry and view.has_games else "",
        "rules": VARIANTS[session.variant],
        "results": view.results,
        "players": view.players,
        "form": form,
        "receipt": receipt,
        **policy.session_flags(membership.role, session),
        "standings_note": standings_note(view=view, lang=request_lang()) if not session.is_open else None,
        "saved": _known_hand(view, request.GET.get("saved")),
        "fixed": _known_hand(view, request.GET.get("fixed")),
        **_game_columns(session.variant),
    }
    return render(request, "settlement/table.html", ctx, status=status)


def _game_label(variant: str, n: int) -> str:
    return game_label(variant, n)


def _game_columns(variant: str) -> dict[str, str]:
    """Column heads for a game's totals: a round of 标分, else a game (盘)."""
    if variant == "biaofen":
        return {"this_game_head": _("This round"), "game_head": _("round"), "rounds": True}
    return {"this_game_head": _("This game"), "game_head": _("game"), "rounds": False}


def _known_hand(view: selectors.TableView, value: str | None) -> int | None:
    """A hand number from the query string, if the session has that hand (for the "recorded" notice)."""
    number = _int_param(value)
    return number if view.has_hand(number) else None


def _int_param(value: str | None) -> int | None:
    try:
        return int(value) if value else None
    except ValueError:
        return None


@login_required
def table(request: HttpRequest, slug: str, session_id: int) -> HttpResponse:
    """The scorekeeper's page: totals, chart and newest hands, and the entry form of the next hand.

    Without JavaScript the form posts here: `action=preview` shows the receipt, else the hand is
    recorded (once per client key) and the page comes back with it.
    """
    membership, session = get_session_for_user(request.user, session_id, slug)
    view = selectors.table_view(session=session, lang=request_lang())
    if request.method != "POST":
        form = _table_form(session, view) if policy.may_record(membership.role, session) else None
        return _table_page(request, membership, view, form)
    policy.deny_unless(policy.may_write(membership.role))
    form = _table_form(session, view, request.POST)
    if form is None:
        return redirect(_table_url(slug, session.pk))
    if request.POST.get("action") == "preview":
        receipt = _table_receipt(session, form, view)
        return _table_page(request, membership, view, form, receipt, status=400 if form.errors else 200)
    if form.is_valid():
        try:
            write = services.hand_record(
                session=session,
                user=request.user,
                hand_input=form.cleaned_data["hand"],
                client_key=form.cleaned_data["client_key"],
            )
        except LedgerError as error:
            _table_error(form, error, view)
        else:
            # #next: the page comes back scrolled to the next hand's form, not to the top.
            return redirect(_table_url(slug, session.pk, saved=write.hand.number) + "#next")
    return _table_page(request, membership, view, form, {"invalid": True}, status=400)


@login_required
@require_POST
def table_preview(request: HttpRequest, slug: str, session_id: int) -> HttpResponse:
    """The receipt of the hand being entered (or corrected, with `fix`) as an HTML fragment, for table.js."""
    membership, session = get_session_for_user(request.user, session_id, slug)
    policy.deny_unless(policy.may_write(membership.role))
    fix = _int_param(request.POST.get("fix"))
    view = selectors.table_view(session=session, lang=request_lang(), fix=fix)
    if fix is not None and view.fix is None:
        raise Http404("no such hand")
    form = _table_form(session, view, request.POST)
    if form is None:
        return HttpResponse(status=409)
    receipt = _table_receipt(session, form, view)
    errors = {name: [str(e) for e in errs] for name, errs in form.errors.items()}
    return render(
        request,
        "settlement/table_receipt.html",
        {
            "receipt": receipt,
            "view": view,
            "form": form,
            "errors": errors,
            "players": view.players,
            "club": membership.club,
            "session": session,
            **_game_columns(session.variant),
        },
    )


@login_required
def table_fix(request: HttpRequest, slug: str, session_id: int, number: int) -> HttpResponse:
    """Correct or void an earlier hand from the table page: the entry form, prefilled, with a reason."""
    membership, hand = get_hand_for_user(request.user, session_id, number, slug)
    session = hand.session
    view = selectors.table_view(session=session, lang=request_lang(), fix=number)
    if request.method != "POST":
        can_fix = policy.may_revise(membership.role, session)
        return _table_page(request, membership, view, _table_form(session, view) if can_fix else None)
    policy.deny_unless(policy.may_write(membership.role))
    form = _table_form(session, view, request.POST)
    if form is None:
        return redirect(_table_url(slug, session.pk))
    action = request.POST.get("action")
    from_hand = request.POST.get("return_to") == "hand"
    done = (
        reverse("hand_detail", args=[slug, session.pk, number])
        if from_hand
        else _table_url(slug, session.pk, fixed=number)
    )

    def refused(receipt: dict[str, Any] | None) -> HttpResponse:
        # A refusal stays on the page it was posted from, the hand page keeping its trail and its way back.
        if from_hand:
            return _hand_page(request, membership, view, number, form, status=400)
        return _table_page(request, membership, view, form, receipt, status=400)

    if action == "void":
        void = HandVoidForm(request.POST)
        if void.is_valid():
            try:
                services.hand_void(
                    session=session,
                    user=request.user,
                    number=number,
                    reason=void.cleaned_data["reason"],
                    revision=void.cleaned_data["revision"],
                )
            except LedgerError as error:
                form.add_error("reason" if error.field == "reason" else None, error.message(request_lang()))
            else:
                return redirect(done)
        else:
            form.add_error("reason", _("Say why the hand is voided."))
        return refused(None)
    if action == "correct":
        if form.is_valid():
            try:
                services.hand_correct(
                    session=session,
                    user=request.user,
                    number=number,
                    hand_input=form.cleaned_data["hand"],
                    reason=form.cleaned_data["reason"],
                    revision=form.cleaned_data.get("revision"),
                )
            except LedgerError as error:
                _table_error(form, error, view)
            else:
                return redirect(done)
        return refused({"invalid": True})
    receipt = _table_receipt(session, form, view)
    return _table_page(request, membership, view, form, receipt, status=400 if form.errors else 200)


@login_required
@require_POST
def table_close(request: HttpRequest, slug: str, session_id: int) -> HttpResponse:
    """Close the session from the table page; the page then shows the final standings and the settle-up."""
    membership, session = get_session_for_user(request.user, session_id, slug)
    policy.deny_unless(policy.may_write(membership.role))
    services.session_close(session=session, user=request.user)
    return redirect(_table_url(slug, session.pk))
