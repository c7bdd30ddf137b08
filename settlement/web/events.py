"""The director's event pages: a club's events, a new event, and the event page (check-in, late arrivals and
leaving, the pairs before the first draw, the draw, each round's seating and tables' progress, the standings with
the director's adjustments).

Every lookup goes through `_get_event_for_user` (another club's event is a 404); a viewer's write is a 403. The
services write, the selectors read; a refusal is shown on the form's field it names, in the reader's language.
The big screen, the table cards and the printable results are `event_screens`.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from .. import policy, selectors, services
from ..ledger import LedgerError
from ..models import Event, Membership, Player, variant_label
from ..rules.draws import DrawMethod, fixed_partnerships
from ..rules.entry import options_spec
from ..rules.registry import VARIANTS
from ..scoping import get_event_for_user, get_membership_for_user, request_lang
from ..selectors import event_pages
from .forms import OptionsForm
from .forms.event import AdjustmentForm, CheckInForm, DrawForm, EventNewForm, LeaveForm, PairsForm
from .forms.event_ops import SubstituteForm


def _get_event_for_user(request: HttpRequest, slug: str, event_id: int) -> tuple[Membership, Event]:
    """The event, if it is the club `slug`'s and the user is a member of it (else 404)."""
    membership, event = get_event_for_user(request.user, event_id)
    if event.club.slug != slug:
        raise Http404("no such event")
    return membership, event


def _club_players(club_id: int) -> Any:
    return Player.objects.filter(club_id=club_id, merged_into__isnull=True).order_by("is_guest", "name")


def _field(form: Form, error: LedgerError, fallback: str | None = None) -> str | None:
    """The form field a service refusal belongs to (None: the whole form)."""
    name = error.field.split("[")[0].split(".")[0]
    if name == "players":
        name = "guests"
    if name in ("options", "variant"):
        name = "preset"
    if name == "round":
        name = "round_n"
    return name if name in form.fields else fallback


@login_required
def event_list(request: HttpRequest, slug: str) -> HttpResponse:
    membership = get_membership_for_user(request.user, slug)
    events = list(selectors.club_events(club=membership.club)[:100])
    ctx = {"club": membership.club, "membership": membership, "events": events, **_director(membership)}
    return render(request, "settlement/event_list.html", ctx)


def _pairs_open(event: Event, rounds: Any) -> bool:
    """The pairs may be set: a fixed-partnership variant at tables of four only, before the first draw."""
    rules = VARIANTS[event.variant]
    return fixed_partnerships(rules) and event.table_size == 4 and not event.mixed_sizes and not rounds


def _director(membership: Membership) -> dict[str, bool]:
    return {"can_direct": policy.may_direct(membership.role)}


@login_required
def event_new(request: HttpRequest, slug: str) -> HttpResponse:
    """First the variant (a list of links, so no script is needed), then the event's form for that variant.

    The preset is a link too (`?preset=`): it fills the variant's options in, which the director may change;
    the event stores the ones changed over the preset, as the API's create takes them (`options`).
    """
    membership = get_membership_for_user(request.user, slug)
    policy.deny_unless(policy.may_direct(membership.role))
    club = membership.club
    key = request.GET.get("variant")
    base = {"club": club, "membership": membership}
    if key not in VARIANTS:
        choices = [(k, variant_label(k)) for k in VARIANTS]
        return render(request, "settlement/event_new.html", {**base, "variants": choices})
    rules = VARIANTS[key]
    lang = request_lang()
    spec = options_spec(rules, lang)
    preset = request.GET.get("preset")
    if preset not in rules.presets:
        preset = next(iter(rules.presets), "")
    form_args: dict[str, Any] = {
        "players": _club_players(club.pk),
        "presets": [(p.key, p.label) for p in spec.presets],
        "counts": sorted(rules.player_counts),
        "pairs": fixed_partnerships(rules) and 4 in rules.player_counts,
        "leagues": selectors.club_leagues(club=club),
    }
    # The options as the preset has them at the smallest table (the event's default size); what the director
    # changes applies at every size. A form posted without them (before they were on it) takes the preset's.
    options_args: dict[str, Any] = {
        "variant": key,
        "n_players": min(rules.player_counts),
        "preset": preset or None,
        "lang": lang,
    }
    if request.method == "POST":
        form = EventNewForm(request.POST, **form_args)
        posted = any(name.startswith("option_") for name in request.POST)
        options_form = OptionsForm(request.POST if posted else None, **options_args)
        if form.is_valid() and (not posted or options_form.is_valid()):
            data = form.cleaned_data
            options = options_form.option_changes(options_form.cleaned_data) if posted else {}
            try:
                event = services.event_create(
                    club=club,
                    user=request.user,
                    name=data["name"],
                    variant=key,
                    date=data["date"],
                    venue=data["venue"],
                    preset=data["preset"],
                    options=options,
                    table_size=data["table_size"],
                    players=form.players(),
                    bye=data["bye"],
                    bye_figure=data["bye_figure"],
                    client_key=data["client_key"],
                    mixed_sizes=data.get("mixed_sizes", False),
                    pairs=data.get("pairs") or [],
                    ranking=data["ranking"],
                    placement_points=data["placement_points"],
                    late_hands=data["late_hands"],
                    substitute_result=data["substitute_result"],
                    league=data.get("league"),
                )
            except LedgerError as error:
                if error.field.startswith("options."):
                    option = error.field.split(".")[1].split("[")[0]
                    options_form.add_error(options_form.option_field(option), error.message(lang))
                else:
                    form.add_error(_field(form, error), error.message(lang))
            else:
                return redirect("event_detail", slug=club.slug, event_id=event.pk)
    else:
        form = EventNewForm(initial={"date": timezone.localdate(), "preset": preset}, **form_args)
        options_form = OptionsForm(**options_args)
    ctx = {
        **base,
        "form": form,
        "options_form": options_form,
        "presets": spec.presets,
        "preset": preset,
        "variant": key,
        "variant_name": variant_label(key),
    }
    status = 400 if form.errors or options_form.errors else 200
    return render(request, "settlement/event_new.html", ctx, status=status)


def _detail(request: HttpRequest, membership: Membership, event: Event, **forms: Form) -> dict[str, Any]:
    entries = event_pages.event_players(event=event)
    standings = selectors.event_standings(event=event)
    rounds = event_pages.event_rounds(event=event, standings=standings)
    adjustments = event_pages.event_adjustments(event=event)
    by_player: dict[int, list[Any]] = {}
    for adjustment in adjustments:
        by_player.setdefault(adjustment.player_id, []).append(adjustment)
    next_round = len(rounds) + 1
    club = membership.club
    defaults: dict[str, Form] = {
        "check_in_form": CheckInForm(players=_club_players(club.pk).exclude(pk__in=[e.player_id for e in entries])),
        "leave_form": LeaveForm(entries=entries),
        "draw_form": DrawForm(entries=entries, initial={"close_open": bool(rounds and rounds[-1].open_tables)}),
        "adjustment_form": AdjustmentForm(entries=entries, initial={"kind": "penalty", "round_n": len(rounds) or None}),
        "substitute_form": SubstituteForm(
            choices=[(e.player_id, e.player.name) for e in entries], initial={"round_n": len(rounds) or None}
        ),
    }
    if _pairs_open(event, rounds):
        defaults["pairs_form"] = PairsForm(entries=entries, pairs=event.pairs)
    return {
        "club": club,
        "membership": membership,
        "event": event,
        "variant_name": variant_label(event.variant),
        "entries": entries,
        "playing": [e for e in entries if e.joined <= next_round and (e.left is None or e.left >= next_round)],
        "next_round": next_round,
        "rounds": rounds,
        "current": rounds[-1] if rounds else None,
        "standings": standings,
        "settle_up": selectors.event_settle_up(standings=standings),
        "pair_rows": selectors.event_pair_standings(standings=standings),
        "pair_rule": selectors.event_pair_rule(standings=standings),
        "adjustments": by_player,
        "all_adjustments": adjustments,
        "is_finished": event.state == Event.State.FINISHED,
        **_director(membership),
        **defaults,
        **forms,
    }


@login_required
def event_detail(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    membership, event = _get_event_for_user(request, slug, event_id)
    if request.GET.get("view") == "tv":
        return redirect("event_screen", slug=slug, event_id=event.pk)
    return render(request, "settlement/event_detail.html", _detail(request, membership, event))


def _refused(request: HttpRequest, membership: Membership, event: Event, name: str, form: Form) -> HttpResponse:
    ctx = _detail(request, membership, event, **{name: form})
    return render(request, "settlement/event_detail.html", ctx, status=400)


def _back(event: Event, anchor: str) -> HttpResponse:
    return redirect(reverse("event_detail", args=[event.club.slug, event.pk]) + f"#{anchor}")


def _director_event(request: HttpRequest, slug: str, event_id: int) -> tuple[Membership, Event]:
    membership, event = _get_event_for_user(request, slug, event_id)
    policy.deny_unless(policy.may_direct(membership.role))
    return membership, event


@login_required
@require_POST
def event_check_in(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    membership, event = _director_event(request, slug, event_id)
    form = CheckInForm(request.POST, players=_club_players(event.club_id))
    if form.is_valid():
        try:
            services.event_check_in(event=event, user=request.user, players=form.players())
        except LedgerError as error:
            form.add_error(_field(form, error, "guests"), error.message(request_lang()))
        else:
            return _back(event, "players")
    return _refused(request, membership, event, "check_in_form", form)


@login_required
@require_POST
def event_pairs(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """The pairs chosen (each player's partner), until the first round is drawn."""
    membership, event = _director_event(request, slug, event_id)
    form = PairsForm(request.POST, entries=event_pages.event_players(event=event))
    if form.is_valid():
        try:
            services.event_pairs_set(event=event, user=request.user, pairs=form.pairs())
        except LedgerError as error:
            form.add_error(form.field_of(error.params.get("player")), error.message(request_lang()))
        else:
            return _back(event, "pairs")
    return _refused(request, membership, event, "pairs_form", form)


@login_required
@require_POST
def event_leave(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    membership, event = _director_event(request, slug, event_id)
    form = LeaveForm(request.POST, entries=event_pages.event_players(event=event))
    if form.is_valid():
        try:
            services.event_player_leave(event=event, user=request.user, player=form.cleaned_data["player"])
        except LedgerError as error:
            form.add_error(_field(form, error, "player"), error.message(request_lang()))
        else:
            return _back(event, "players")
    return _refused(request, membership, event, "leave_form", form)


@login_required
@require_POST
def event_draw(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    membership, event = _director_event(request, slug, event_id)
    form = DrawForm(request.POST, request.FILES, entries=event_pages.event_players(event=event))
    if form.is_valid():
        data = form.cleaned_data
        ranking: list[int] = []
        if data["draw"] == DrawMethod.SWISS:
            ranking = [row.player.pk for row in selectors.event_standings(event=event).rows]
        try:
            services.round_draw(
                event=event,
                user=request.user,
                draw=data["draw"],
                seating=data["parsed"],
                ranking=ranking,
                close_open=data["close_open"],
                length_minutes=data["length_minutes"],
                client_key=data["client_key"],
            )
        except LedgerError as error:
            fallback = "seating" if data["draw"] == DrawMethod.MANUAL else "draw"
            if error.field.startswith("seating"):
                error_field: str | None = "seating"
            else:
                error_field = _field(form, error, fallback)
            form.add_error(error_field, error.message(request_lang()))
        else:
            return _back(event, "round")
    return _refused(request, membership, event, "draw_form", form)


@login_required
@require_POST
def event_adjust(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    membership, event = _director_event(request, slug, event_id)
    form = AdjustmentForm(request.POST, entries=event_pages.event_players(event=event))
    if form.is_valid():
        data = form.cleaned_data
        try:
            services.adjustment_add(
                event=event,
                user=request.user,
                player=data["player"],
                kind=data["kind"],
                amount=data["amount"],
                reason=data["reason"],
                round_n=data["round_n"],
                client_key=data["client_key"],
            )
        except LedgerError as error:
            form.add_error(_field(form, error, "player"), error.message(request_lang()))
        else:
            return _back(event, "standings")
    return _refused(request, membership, event, "adjustment_form", form)
