"""The scorekeeper's page: the table (totals, chart, newest hands and the next hand's entry form, its receipt
as the hand is entered), and its receipt fragment.

Without JavaScript every form posts to its page; table.js asks `table/preview/` for the receipt as an
HTML fragment. The services and selectors do the work; a refusal goes back to the field it names.
A hand's own page, and correcting or voiding a hand, are `hands`.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import policy, selectors, services
from ..ledger import LedgerError
from ..models import Membership, Session
from ..presentation.clock import RoundClock, round_clock
from ..presentation.receipts import hand_receipt
from ..presentation.sessions import game_columns, game_label, hand_label, standings_note
from ..rules.registry import VARIANTS
from ..scoping import get_session_for_user, int_param, request_lang
from ..selectors.event_pages import session_event
from .forms import TableHandForm
from .templatetags.ledger import how_label


def table_url(slug: str, session_id: int, **params: Any) -> str:
    url = reverse("table", args=[slug, session_id])
    return url + ("?" + urlencode(params) if params else "")


def table_form(session: Session, view: selectors.TableView, data: Any = None) -> TableHandForm | None:
    if view.entry is None:
        return None
    return TableHandForm(data, variant=session.variant, entry=view.entry, players=view.players, fix=view.fix)


def table_error(form: TableHandForm, error: LedgerError, view: selectors.TableView) -> tuple[str, str]:
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


def table_receipt(session: Session, form: TableHandForm, view: selectors.TableView) -> dict[str, Any]:
    """The engine's receipt for the hand the form holds (nothing is written), or why it cannot be settled."""
    if not form.is_valid():
        return {"invalid": True}
    if form.missing:
        return {"missing": form.group_label(form.missing[0]), "missing_field": form.missing[0]}
    number = view.fix.number if view.fix is not None else None
    hand_input = form.cleaned_data["hand"]
    try:
        if number is None:  # a new hand: played on from the last hand's stored state, whatever the log's length
            document = services.hand_preview_next(
                session=session,
                hand_input=hand_input,
                lang=request_lang(),
                players=view.players,
                following=view.following,
            )
        else:  # a correction replays the hands after it as well
            document = services.hand_preview(session=session, hand_input=hand_input, lang=request_lang(), number=number)
    except LedgerError as error:
        # A level game's first hand names its declarer (rules/hongxingwu.md): not yet chosen is not an error.
        if error.code in ("field.required", "declarer.first_hand") and form.field_for_error(error.field):
            group = error.field.split(".")[0].split("[")[0]
            return {"missing": form.group_label(group), "missing_field": form.field_for_error(error.field)}
        message, field = table_error(form, error, view)
        return {"refused": message, "field": field}
    target = number if number is not None else view.entry.number if view.entry else None
    before = view.results["totals"] if view.results else [0] * len(view.players)
    return hand_receipt(
        variant=session.variant, document=document, number=target, sides=view.sides, before=before, fix=number
    )


def table_page(
    request: HttpRequest,
    membership: Membership,
    view: selectors.TableView,
    form: TableHandForm | None,
    receipt: dict[str, Any] | None = None,
    status: int = 200,
    conflict: str = "",
) -> HttpResponse:
    session = view.session
    last_game = view.last_game
    ctx = {
        "club": membership.club,
        "membership": membership,
        "session": session,
        "view": view,
        "has_games": view.has_games,
        "game_label": game_label(session.variant, view.game) if view.has_games else "",
        "last_game_label": game_label(session.variant, last_game["n"]) if last_game else "",
        "game_labels": {g["n"]: game_label(session.variant, g["n"]) for g in (view.results or {}).get("games", [])},
        "entry_game_label": game_label(session.variant, view.entry.game) if view.entry and view.has_games else "",
        "rules": VARIANTS[session.variant],
        "results": view.results,
        "players": view.players,
        "form": form,
        "receipt": receipt,
        **policy.session_flags(membership.role, session),
        "standings_note": standings_note(view=view, lang=request_lang()) if not session.is_open else None,
        "saved": (saved := _known_hand(view, request.GET.get("saved"))),
        "saved_game_end": _game_end_notice(view, saved),
        "fixed": _known_hand(view, request.GET.get("fixed")),
        "voided": _known_hand(view, request.GET.get("voided")),
        "conflict": conflict,
        "undo_hand": newest_hand(view) if view.fix is None else None,
        "clock": session_clock(session),
        **game_columns(session.variant),
    }
    return render(request, "settlement/table.html", ctx, status=status)


def session_clock(session: Session) -> RoundClock | None:
    """The clock of the event round an open session is a table of (None: not an event's table, or no clock)."""
    if not session.is_open:
        return None
    found = session_event(session=session)
    if found is None:
        return None
    return round_clock(round=found.round_row, late_hands=found.event.late_hands, now=timezone.now())


def _game_end_notice(view: selectors.TableView, number: int | None) -> str:
    """When the hand just recorded ended a game, how and who won it in the variant's words (出锅：王强、张伟胜),
    for the top of the form; else ""."""
    end = next((h.game_end for h in view.recent if h.number == number and h.game_end), None)
    if not end or not end.get("finished"):
        return ""
    names = "·".join(view.players[seat].name for seat in end["winners"])  # as a team's name is written
    how = how_label(end.get("how")) or _("%(label)s is over") % {"label": game_label(view.session.variant, end["n"])}
    return _("%(how)s: %(names)s won") % {"how": how, "names": names}


def newest_hand(view: selectors.TableView) -> selectors.HandRecord | None:
    """The hand "undo" would void: the session's last hand, if it still counts and the session is open."""
    if not view.session.is_open or not view.recent:
        return None
    hand = view.recent[0]
    return hand if hand.number == view.hand_count and not hand.is_void else None


def _known_hand(view: selectors.TableView, value: str | None) -> int | None:
    """A hand number from the query string, if the session has that hand (for the "recorded" notice)."""
    number = int_param(value)
    return number if view.has_hand(number) else None


@login_required
def table(request: HttpRequest, slug: str, session_id: int) -> HttpResponse:
    """The scorekeeper's page: totals, chart and newest hands, and the entry form of the next hand.

    Without JavaScript the form posts here: `action=preview` shows the receipt, else the hand is
    recorded (once per client key) and the page comes back with it.
    """
    membership, session = get_session_for_user(request.user, session_id, slug)
    view = selectors.table_view(session=session, lang=request_lang())
    if request.method != "POST":
        form = table_form(session, view) if policy.may_record(membership.role, session) else None
        return table_page(request, membership, view, form)
    policy.deny_unless(policy.may_write(membership.role))
    form = table_form(session, view, request.POST)
    if form is None:
        return redirect(table_url(slug, session.pk))
    if request.POST.get("action") == "preview":
        receipt = table_receipt(session, form, view)
        return table_page(request, membership, view, form, receipt, status=400 if form.errors else 200)
    if form.is_valid():
        try:
            write = services.hand_record(
                session=session,
                user=request.user,
                hand_input=form.cleaned_data["hand"],
                client_key=form.cleaned_data["client_key"],
                note=form.cleaned_data.get("note") or "",
                expected_number=int_param(request.POST.get("expected")),
            )
        except LedgerError as error:
            if error.code == "hand.moved":
                return _table_conflict(request, membership, session, shown=int(error.params["number"]))
            table_error(form, error, view)
        else:
            # #next: the page comes back scrolled to the next hand's form, not to the top.
            return redirect(table_url(slug, session.pk, saved=write.hand.number) + "#next")
    return table_page(request, membership, view, form, {"invalid": True}, status=400)


def _table_conflict(request: HttpRequest, membership: Membership, session: Session, *, shown: int) -> HttpResponse:
    """A hand entered on a page that still showed hand `shown` after another device recorded it: nothing is
    saved; the page comes back with what was entered as the next hand, who deals (and, in the level games,
    declares) as the rules give it now, and its receipt, to be recorded as that hand or discarded."""
    view = selectors.table_view(session=session, lang=request_lang())
    data = request.POST.copy()
    entry = view.entry
    if entry is not None:
        # The stale page pre-selected the seat the rules gave for hand `shown`; the next hand's is another.
        for name in ("dealer", "declarer") if VARIANTS[session.variant].has_levels else ("dealer",):
            seat = getattr(entry, name)
            if seat is None:
                data.pop(name, None)
            else:
                data[name] = str(seat)
    form = table_form(session, view, data)
    if form is None:  # closed meanwhile
        return redirect(table_url(membership.club.slug, session.pk))
    number = entry.number if entry is not None else shown + 1
    conflict = _(
        "Another device recorded %(shown)s meanwhile, while this page still showed it. What you entered is "
        "below as %(next)s, with who deals and declares as the rules give it now: check it, then record it "
        "as %(next)s, or discard it."
    ) % {"shown": hand_label(session.variant, shown), "next": hand_label(session.variant, number)}
    receipt = table_receipt(session, form, view)
    return table_page(request, membership, view, form, receipt, status=409, conflict=conflict)


@login_required
@require_POST
def table_preview(request: HttpRequest, slug: str, session_id: int) -> HttpResponse:
    """The receipt of the hand being entered (or corrected, with `fix`) as an HTML fragment, for table.js."""
    membership, session = get_session_for_user(request.user, session_id, slug)
    policy.deny_unless(policy.may_write(membership.role))
    fix = int_param(request.POST.get("fix"))
    view = selectors.table_view(session=session, lang=request_lang(), fix=fix)
    if fix is not None and view.fix is None:
        raise Http404("no such hand")
    form = table_form(session, view, request.POST)
    if form is None:
        return HttpResponse(status=409)
    receipt = table_receipt(session, form, view)
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
            **game_columns(session.variant),
        },
    )


@login_required
@require_POST
def table_close(request: HttpRequest, slug: str, session_id: int) -> HttpResponse:
    """Close the session from the table page; the page then shows the final standings and the settle-up."""
    membership, session = get_session_for_user(request.user, session_id, slug)
    policy.deny_unless(policy.may_write(membership.role))
    services.session_close(session=session, user=request.user)
    return redirect(table_url(slug, session.pk))


@login_required
def standings_picture(request: HttpRequest, slug: str, session_id: int) -> HttpResponse:
    """The standings as an SVG picture to post in a chat group: the table page's own ranking (or, while the
    session is open, its standings), nothing computed again."""
    membership, session = get_session_for_user(request.user, session_id, slug)
    view = selectors.table_view(session=session, lang=request_lang())
    sides = view.ranking or view.standings
    rows = [{"name": s.side.name, "total": s.total, "y": 92 + 30 * i} for i, s in enumerate(sides)]
    ctx = {"club": membership.club, "session": session, "rows": rows, "height": 92 + 30 * len(rows)}
    response = render(request, "settlement/standings.svg", ctx, content_type="image/svg+xml; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="standings-{session.pk}-{session.date}.svg"'
    return response
