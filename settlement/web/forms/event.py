"""The director's event forms: a new event, players checked in, the pairs, a round's draw (manual also as a CSV
upload) and an adjustment. They parse what was typed; the services decide (and their refusals land on the field
they name).
"""

from __future__ import annotations

import csv
import io
import uuid
from collections.abc import Sequence
from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from ...models import Adjustment, Event, EventPlayer, League, Player
from ...rules.draws import DrawMethod, Seating
from ...services.events import ADJUSTMENT_MAX, EVENT_NAME_MAX

GUESTS_MAX = 200  # names typed in one go
CSV_MAX_BYTES = 64 * 1024

BYES = (
    (Event.Bye.AVERAGE, _("the player's average over the rounds they played")),
    (Event.Bye.ZERO, _("nothing (0)")),
    (Event.Bye.FIGURE, _("a figure stated below")),
)
KINDS = ((Adjustment.Kind.PENALTY, _("Penalty")), (Adjustment.Kind.AWARD, _("Award")))
RANKINGS = (
    (Event.Ranking.SUM, _("the sum of each player's table totals")),
    (Event.Ranking.PLACEMENT, _("placement points at each table")),
)
LATE_HANDS = (
    (Event.LateHands.COUNTED, _("counts as any hand")),
    (Event.LateHands.REFUSED, _("is refused, unless the director allows that round's late hands")),
)
SUBSTITUTE_RESULTS = (
    (Event.SubstituteResult.ABSENT, _("the absent player")),
    (Event.SubstituteResult.SUBSTITUTE, _("the substitute")),
)

DRAWS = (
    (DrawMethod.RANDOM, _("random: a seeded shuffle")),
    (DrawMethod.BALANCED, _("balanced: fewest repeated partners, then opponents")),
    (DrawMethod.SWISS, _("swiss: neighbours in the standings together")),
    (DrawMethod.MANUAL, _("manual: the seating below")),
)


def _guest_names(text: str) -> list[str]:
    names = [line.strip() for line in text.replace(",", "\n").replace("，", "\n").splitlines()]
    return [n for n in names if n]


class _Keyed(forms.Form):
    client_key = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["client_key"].initial = uuid.uuid4().hex


class _Players(_Keyed):
    members = forms.ModelMultipleChoiceField(
        label=_("Club players"), queryset=Player.objects.none(), required=False, widget=forms.CheckboxSelectMultiple
    )
    guests = forms.CharField(
        label=_("Guests"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("One name a line (or separated by commas); a name the club has is that player."),
    )

    def __init__(self, *args: Any, players: QuerySet[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["members"].queryset = players

    def clean_guests(self) -> list[str]:
        names = _guest_names(self.cleaned_data.get("guests") or "")
        if len(names) > GUESTS_MAX:
            raise forms.ValidationError(_("At most %(n)d names at once."), params={"n": GUESTS_MAX})
        return names

    def players(self) -> list[Player | str]:
        return [*self.cleaned_data["members"], *self.cleaned_data["guests"]]


class EventNewForm(_Players):
    """Name, date, venue, preset, table size, how a bye counts and the players checked in."""

    name = forms.CharField(label=_("Name"), max_length=EVENT_NAME_MAX)
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    venue = forms.CharField(label=_("Venue"), max_length=100, required=False)
    preset = forms.ChoiceField(label=_("Preset"), required=False, widget=forms.HiddenInput)  # chosen by a link
    table_size = forms.TypedChoiceField(label=_("Players at a table"), coerce=int)
    mixed_sizes = forms.BooleanField(
        required=False,
        help_text=_("Each round seats everyone it can at tables of either size before anyone sits out."),
    )
    pairs = forms.CharField(
        label=_("Fixed pairs (a pairs event)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_(
            "Optional, at tables of four: one pair a line, two names separated by a comma; every player in a pair. "
            "Each pair sits as partners every round, and the standings rank the pairs."
        ),
    )
    bye = forms.ChoiceField(label=_("A round sat out counts"), choices=BYES, initial=Event.Bye.AVERAGE)
    bye_figure = forms.IntegerField(
        label=_("The figure for a round sat out"),
        required=False,
        min_value=-ADJUSTMENT_MAX,
        max_value=ADJUSTMENT_MAX,
        help_text=_("Only when a round sat out counts a stated figure."),
    )

    ranking = forms.ChoiceField(
        required=False,
        label=_("The standings rank by"),
        choices=RANKINGS,
        initial=Event.Ranking.SUM,
        widget=forms.RadioSelect,
    )
    placement_points = forms.CharField(
        label=_("Placement points"),
        required=False,
        max_length=200,
        help_text=_(
            "Only with placement points: a figure per place, best first, separated by commas "
            "(empty: 4, 2, 1, 0 at a table of four, else n − 1 … 0)."
        ),
    )
    late_hands = forms.ChoiceField(
        required=False,
        label=_("A hand recorded after a round's time is up"),
        choices=LATE_HANDS,
        initial=Event.LateHands.COUNTED,
        widget=forms.RadioSelect,
    )
    substitute_result = forms.ChoiceField(
        required=False,
        label=_("A substitute's seat counts for"),
        choices=SUBSTITUTE_RESULTS,
        initial=Event.SubstituteResult.ABSENT,
        widget=forms.RadioSelect,
    )
    league = forms.ModelChoiceField(
        label=_("League"),
        queryset=League.objects.none(),
        required=False,
        empty_label=_("none"),
        help_text=_("The club's league the event counts in (in the league's unit, ranked by the sum)."),
    )

    field_order = (
        "name",
        "date",
        "venue",
        "preset",
        "table_size",
        "mixed_sizes",
        "pairs",
        "bye",
        "bye_figure",
        "ranking",
        "placement_points",
        "late_hands",
        "substitute_result",
        "league",
        "members",
        "guests",
    )

    def __init__(
        self,
        *args: Any,
        presets: list[tuple[str, str]],
        counts: list[int],
        pairs: bool = False,
        leagues: QuerySet[League] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        if not pairs:
            del self.fields["pairs"]
        if leagues is None or not leagues.exists():
            del self.fields["league"]
        else:
            self.fields["league"].queryset = leagues
        self.fields["preset"].choices = presets or [("", "-")]
        self.fields["table_size"].choices = [(n, str(n)) for n in counts]
        if len(counts) == 2:
            self.fields["mixed_sizes"].label = _("Tables of %(small)s and %(large)s") % {
                "small": counts[0],
                "large": counts[1],
            }
        else:
            del self.fields["mixed_sizes"]

    def clean_pairs(self) -> list[list[str]]:
        lines = [line.strip() for line in (self.cleaned_data.get("pairs") or "").splitlines() if line.strip()]
        pairs = [[name.strip() for name in line.replace("，", ",").replace("、", ",").split(",")] for line in lines]
        for pair in pairs:
            if len(pair) != 2 or not all(pair):
                raise forms.ValidationError(_("Each line is one pair: two names separated by a comma."))
        return pairs

    # Left out (a form posted before these options were on it), each is the event's default.
    def clean_ranking(self) -> str:
        return self.cleaned_data.get("ranking") or Event.Ranking.SUM

    def clean_late_hands(self) -> str:
        return self.cleaned_data.get("late_hands") or Event.LateHands.COUNTED

    def clean_substitute_result(self) -> str:
        return self.cleaned_data.get("substitute_result") or Event.SubstituteResult.ABSENT

    def clean_placement_points(self) -> list[int] | None:
        """The figures typed, or None (the service's default for the table size); the service checks them."""
        text = (self.cleaned_data.get("placement_points") or "").replace("，", ",").replace("、", ",")
        cells = [cell.strip() for cell in text.split(",") if cell.strip()]
        if not cells:
            return None
        try:
            return [int(cell.replace("−", "-")) for cell in cells]
        except ValueError as error:
            raise forms.ValidationError(_("Whole numbers separated by commas.")) from error

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("bye") == Event.Bye.FIGURE and data.get("bye_figure") is None:
            self.add_error("bye_figure", _("Give the figure a round sat out counts."))
        return data


class CheckInForm(_Players):
    """More players, from the next round on."""

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not self.errors and not data.get("members") and not data.get("guests"):
            self.add_error("members", _("Pick a player or type a guest's name."))
        return data


class PairsForm(forms.Form):
    """A pairs event's pairs: each player checked in (and not gone) chooses a partner; one of the two choosing is
    enough. The service checks the pairs (a player in two, a player left without a partner)."""

    def __init__(
        self, *args: Any, entries: list[EventPlayer], pairs: Sequence[Sequence[int]] = (), **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.playing = [e for e in entries if e.left is None]
        partner = {a: b for a, b in pairs} | {b: a for a, b in pairs}
        for entry in self.playing:
            others = [(e.player_id, e.player.name) for e in self.playing if e.player_id != entry.player_id]
            self.fields[f"partner_{entry.player_id}"] = forms.TypedChoiceField(
                label=_("%(name)s's partner") % {"name": entry.player.name},
                choices=[("", "—"), *others],
                coerce=int,
                empty_value=None,
                required=False,
                initial=partner.get(entry.player_id),
            )

    def pairs(self) -> list[list[int]]:
        """The pairs chosen, each once (A choosing B and B choosing A is one pair), as player ids."""
        found: list[list[int]] = []
        for entry in self.playing:
            other = self.cleaned_data.get(f"partner_{entry.player_id}")
            pair = sorted((entry.player_id, other)) if other is not None else None
            if pair is not None and pair not in found:
                found.append(pair)
        return found

    def field_of(self, name: Any) -> str | None:
        """The field of the player a refusal names (by name), else None: the whole form."""
        entry = next((e for e in self.playing if e.player.name == name), None)
        return f"partner_{entry.player_id}" if entry is not None else None


class LeaveForm(forms.Form):
    player = forms.ModelChoiceField(label=_("Player"), queryset=Player.objects.none())

    def __init__(self, *args: Any, entries: list[EventPlayer], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = Player.objects.filter(pk__in=[e.player_id for e in entries if e.left is None])


class DrawForm(_Keyed):
    """The draw: a method; for `manual` a table a line (names or ids, comma-separated, in seat order), typed or
    uploaded as CSV; optionally closing the last round's open tables with it."""

    draw = forms.ChoiceField(label=_("Draw"), choices=DRAWS, initial=DrawMethod.BALANCED, widget=forms.RadioSelect)
    seating = forms.CharField(
        label=_("Manual seating"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_(
            "A table a line, its players in seat order separated by commas; a last line “out: …” for those sitting out."
        ),
    )
    seating_csv = forms.FileField(label=_("…or a CSV file, in the same shape"), required=False)
    length_minutes = forms.IntegerField(label=_("Round length (minutes)"), required=False, min_value=1, max_value=600)
    close_open = forms.BooleanField(label=_("Close the last round's open tables"), required=False)

    def __init__(self, *args: Any, entries: list[EventPlayer], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.entries = entries

    def clean_seating_csv(self) -> str:
        upload = self.cleaned_data.get("seating_csv")
        if not upload:
            return ""
        if upload.size > CSV_MAX_BYTES:
            raise forms.ValidationError(_("The file is too large (at most 64 KB)."))
        try:
            return upload.read().decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise forms.ValidationError(_("The file is not UTF-8 text.")) from error

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("draw") != DrawMethod.MANUAL:
            data["parsed"] = None
            return data
        field = "seating_csv" if data.get("seating_csv") else "seating"
        text = data.get("seating_csv") or data.get("seating") or ""
        if not text.strip():
            self.add_error("seating", _("A manual draw needs the seating."))
            return data
        try:
            data["parsed"] = seating_parse(text, entries=self.entries)
        except forms.ValidationError as error:
            self.add_error(field, error)
        return data


def seating_parse(text: str, *, entries: list[EventPlayer]) -> Seating:
    """A table a CSV row (names or ids of checked-in players, in seat order); a row starting `out:` lists byes."""
    by_name = {e.player.name: e.player_id for e in entries}
    ids = {e.player_id for e in entries}
    tables: list[tuple[int, ...]] = []
    out: list[int] = []
    for row in csv.reader(io.StringIO(text.replace("，", ","))):
        cells = [c.strip() for c in row if c.strip()]
        if not cells:
            continue
        target = None
        head = cells[0].split(":", 1) if ":" in cells[0] else cells[0].split("：", 1)
        if len(head) == 2 and head[0].strip().lower() in ("out", "bye", "轮空"):
            cells = [head[1].strip(), *cells[1:]] if head[1].strip() else cells[1:]
            target = out
        found = []
        for cell in cells:
            if cell in by_name:
                found.append(by_name[cell])
            elif cell.lstrip("#").isdigit() and int(cell.lstrip("#")) in ids:
                found.append(int(cell.lstrip("#")))
            else:
                raise forms.ValidationError(_("“%(name)s” is not checked in to the event."), params={"name": cell[:40]})
        if target is None:
            tables.append(tuple(found))
        else:
            out.extend(found)
    return Seating(tables=tuple(tables), sitting_out=tuple(out))


class AdjustmentForm(_Keyed):
    player = forms.ModelChoiceField(label=_("Player"), queryset=Player.objects.none())
    kind = forms.ChoiceField(label=_("What"), choices=KINDS, widget=forms.RadioSelect)
    amount = forms.IntegerField(label=_("Amount"), min_value=1, max_value=ADJUSTMENT_MAX)
    reason = forms.CharField(label=_("Reason"), max_length=500)
    round_n = forms.IntegerField(label=_("Round"), required=False, min_value=1)

    def __init__(self, *args: Any, entries: list[EventPlayer], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = Player.objects.filter(pk__in=[e.player_id for e in entries])
