"""Opening a session: date, venue, a player per seat, and the variant's options as typed controls.

The controls are built from the engine's `options_spec`: a choice is a select (radios when there are
few), an integer a number input with its range and step, a switch a checkbox, a table (bid → score,
key → figure, 红星五's bands and shapes) a set of rows. Each starts at the preset's value for the
chosen player count, so posting the page untouched opens the session with exactly those defaults.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from ...models import Player
from ...rules.entry import OptionSpec, options_spec
from ...rules.options import OptionKind
from ...rules.registry import VARIANTS
from .numbers import RuledNumberField

EXTRA_ROWS = 2  # blank rows offered after a list's or a table's own
SHAPE_MULTIPLIERS = (2, 4, 8, 16, 32, 64)
MONEY = "unit_value"  # what clubs set every evening: on the form itself, not under "Advanced"


@dataclass
class OptionControl:
    """One option on the page: its label and help, and its inputs as (sub-label, bound field) rows."""

    spec: OptionSpec
    kind: str
    rows: list[tuple[str, list[forms.BoundField]]]
    errors: list[str]


def _number(
    spec_min: int | None, spec_max: int | None, step: int, *, required: bool, label: str, key: str
) -> RuledNumberField:
    """A number input with the option's range and step (the engine's `OptionSpec`), its message beside it."""
    return RuledNumberField(
        required=required,
        label_text=label,
        minimum=spec_min,
        maximum=spec_max,
        step=step,
        error_id=f"option-{key}-error",
    )


class OptionsForm(forms.Form):
    """Every option of a variant as typed controls, each starting at `values` (else the preset's, else the defaults).

    The new-session form is one; the what-if page another (the same hands under other options); the new-event
    page a third (an event's options over its preset).
    """

    def __init__(
        self,
        *args: Any,
        variant: str,
        n_players: int,
        preset: str | None = None,
        values: dict[str, Any] | None = None,
        lang: str = "zh-Hans",
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        rules = VARIANTS[variant]
        self.spec = options_spec(rules, lang)
        preset_spec = next((p for p in self.spec.presets if p.key == preset), None)
        if values is None:
            values = (
                dict(preset_spec.defaults[n_players])
                if preset_spec
                else {o.key: o.defaults[n_players] for o in self.spec.options}
            )
        self.values = values
        self.n_players = n_players
        self.bid_rows = tuple(b.bid for b in rules.bids(rules.defaults(n_players), n_players)) if rules.bids else ()
        self._subfields: dict[str, list[tuple[str, list[str]]]] = {}
        for option in self.spec.options:
            self._add_option(option, values[option.key])

    # --- building the controls ---

    def _field(self, name: str, field: forms.Field, initial: Any) -> str:
        field.initial = initial
        self.fields[name] = field
        return name

    def _add_option(self, option: OptionSpec, value: Any) -> None:
        key, kind = option.key, option.kind
        base = f"option_{key}"
        rows: list[tuple[str, list[str]]] = []
        named = {"label": option.label, "key": key}

        def sub(part: str) -> dict[str, str]:  # one of the option's several inputs, named in its message
            return {"label": f"{option.label} · {part}", "key": key}

        if kind is OptionKind.INTEGER:
            # A nullable integer left blank is null: derived from the other options, as its help says.
            field = _number(option.minimum, option.maximum, option.step, required=not option.nullable, **named)
            rows.append(("", [self._field(base, field, value)]))
        elif kind is OptionKind.SWITCH:
            rows.append(("", [self._field(base, forms.BooleanField(required=False), bool(value))]))
        elif kind is OptionKind.CHOICE:
            choices = [(c.value, c.label) for c in option.choices]
            widget = forms.RadioSelect if len(choices) <= 3 else forms.Select
            rows.append(("", [self._field(base, forms.ChoiceField(choices=choices, widget=widget), value)]))
        elif kind is OptionKind.CHOICE_LIST:
            # Boxes in the choices' order, so a ladder ticked on the page always rises.
            choices = [(c.value, c.label) for c in option.choices]
            field = forms.MultipleChoiceField(choices=choices, required=False, widget=forms.CheckboxSelectMultiple)
            rows.append(("", [self._field(base, field, list(value))]))
        elif kind is OptionKind.KEYED_INTEGERS:
            for choice in option.choices:
                field = _number(option.minimum, option.maximum, 1, required=option.all_required, **sub(choice.label))
                rows.append((choice.label, [self._field(f"{base}__{choice.value}", field, value.get(choice.value))]))
        elif kind is OptionKind.BID_TABLE:
            bids = sorted({*self.bid_rows, *(int(b) for b in value)})
            for bid in bids:
                bid_label = str(_("bid %(bid)s") % {"bid": bid})
                field = _number(option.minimum, option.maximum, 1, required=False, **sub(bid_label))
                rows.append((bid_label, [self._field(f"{base}__{bid}", field, value.get(str(bid)))]))
        elif kind is OptionKind.INTEGER_LIST:
            for i in range(len(value) + EXTRA_ROWS):
                field = _number(option.minimum, None, 1, required=i == 0, **sub(str(i + 1)))
                rows.append((str(i + 1), [self._field(f"{base}__{i}", field, value[i] if i < len(value) else None)]))
        elif kind is OptionKind.LEVEL_TABLE:
            labels = {c.value: c.label for c in option.choices}
            up = value["up"]
            for i in range(len(up) + EXTRA_ROWS):
                low, levels = up[i] if i < len(up) else (None, None)
                low_field = _number(0, None, 5, required=i == 0, **sub(str(_("from a score of"))))
                levels_field = _number(1, None, 1, required=i == 0, **sub(str(_("levels"))))
                # The two inputs of a row, told apart for a screen reader (the page shows them side by side).
                low_field.label, levels_field.label = _("from a score of"), _("levels")
                names = [
                    self._field(f"{base}__up_{i}_low", low_field, low),
                    self._field(f"{base}__up_{i}_levels", levels_field, levels),
                ]
                rows.append((labels["up"] if i == 0 else "", names))
            for part in ("switch", "step"):
                field = _number(5, None, 5, required=True, **sub(labels[part]))
                rows.append((labels[part], [self._field(f"{base}__{part}", field, value[part])]))
            base_field = _number(0, 100, 1, required=False, **sub(labels["capture_base"]))
            rows.append(
                (
                    labels["capture_base"],
                    [self._field(f"{base}__capture_base", base_field, value.get("capture_base", 0))],
                )
            )
        elif kind is OptionKind.SHAPE_TABLE:
            labels = {c.value: c.label for c in option.choices}
            # Powers of two; under 红星五's house rule kou_multiplier "times" any even number (2 × cards each).
            offered = {*SHAPE_MULTIPLIERS, *(int(m) for m in value.values())}
            if self.values.get("kou_multiplier") == "times":
                offered |= set(range(2, 33, 2))
            multipliers = [("", _("not offered")), *((str(m), f"×{m}") for m in sorted(offered))]
            for shape, multiplier in value.items():
                field = forms.ChoiceField(choices=multipliers, required=False)
                rows.append((labels.get(shape, shape), [self._field(f"{base}__{shape}", field, str(multiplier))]))
        self._subfields[key] = rows

    # --- display ---

    def money_control(self) -> OptionControl | None:
        """The money a unit is worth (`unit_value`), shown beside the players rather than among the options."""
        return next((c for c in self._controls() if c.spec.key == MONEY), None)

    def option_controls(self) -> list[OptionControl]:
        return [c for c in self._controls() if c.spec.key != MONEY]

    def all_controls(self) -> list[OptionControl]:
        """Every option, the money among them (the new-event page, where no seats are beside it)."""
        return self._controls()

    def _controls(self) -> list[OptionControl]:
        out = []
        for option in self.spec.options:
            rows = [(label, [self[name] for name in names]) for label, names in self._subfields[option.key]]
            errors = [
                str(e)
                for _label, names in self._subfields[option.key]
                for name in names
                for e in self.errors.get(name, [])
            ]
            if errors:  # the inputs point at the message beside them (`option-<key>-error` in the template)
                for _label, fields in rows:
                    for bound in fields:
                        bound.field.widget.attrs.update(
                            {"aria-invalid": "true", "aria-describedby": f"option-{option.key}-error"}
                        )  # choices and switches too: every input of the option points at its message
            out.append(OptionControl(spec=option, kind=str(option.kind), rows=rows, errors=errors))
        return out

    def option_field(self, key: str) -> str | None:
        """The form field that carries an error of option `key` (its first input)."""
        rows = self._subfields.get(key)
        return rows[0][1][0] if rows else None

    # --- parsing ---

    def _option_value(self, option: OptionSpec, data: dict[str, Any]) -> Any:
        key, kind = option.key, option.kind
        base = f"option_{key}"
        if kind in (OptionKind.INTEGER, OptionKind.SWITCH, OptionKind.CHOICE):
            return bool(data.get(base)) if kind is OptionKind.SWITCH else data.get(base)
        subs = [name for _label, names in self._subfields[key] for name in names]
        if kind is OptionKind.CHOICE_LIST:
            ticked = set(data.get(base) or ())
            return [c.value for c in option.choices if c.value in ticked]
        if kind is OptionKind.KEYED_INTEGERS:
            return {
                c.value: data[f"{base}__{c.value}"]
                for c in option.choices
                if data.get(f"{base}__{c.value}") is not None
            }
        if kind is OptionKind.BID_TABLE:
            prefix = f"{base}__"
            return {name[len(prefix) :]: data[name] for name in subs if data.get(name) is not None}
        if kind is OptionKind.INTEGER_LIST:
            return [data[name] for name in subs if data.get(name) is not None]
        if kind is OptionKind.LEVEL_TABLE:
            up = []
            for name in subs:
                if name.endswith("_low") and data.get(name) is not None:
                    levels = data.get(name[: -len("_low")] + "_levels")
                    up.append([data[name], levels])
            table = {"up": up, "switch": data.get(f"{base}__switch"), "step": data.get(f"{base}__step")}
            if data.get(f"{base}__capture_base"):  # 0 (or blank) is the default, left out as the engine dumps it
                table["capture_base"] = data[f"{base}__capture_base"]
            return table
        if kind is OptionKind.SHAPE_TABLE:
            prefix = f"{base}__"
            return {name[len(prefix) :]: int(data[name]) for name in subs if data.get(name)}
        return self.values[key]

    def option_values(self, data: dict[str, Any]) -> dict[str, Any]:
        """Every option's value as entered (options whose inputs have errors left out)."""
        values = {}
        for option in self.spec.options:
            names = [name for _label, names in self._subfields[option.key] for name in names]
            if not any(name in self.errors for name in names):
                values[option.key] = self._option_value(option, data)
        return values

    def option_overrides(self, data: dict[str, Any]) -> dict[str, Any]:
        """The options entered away from the variant's own defaults.

        A value left at the variant's own default is not given: an option that follows another
        (红星五 start_level: the ladder's first level) then follows it.
        """
        defaults = {option.key: option.defaults[self.n_players] for option in self.spec.options}
        return {key: value for key, value in self.option_values(data).items() if value != defaults[key]}

    def option_changes(self, data: dict[str, Any]) -> dict[str, Any]:
        """The options entered away from the values the form started at (the preset's): what was changed.

        An event stores these over its preset (`event_create`'s `options`), so one left as the preset has it
        follows the preset at every table size.
        """
        return {key: value for key, value in self.option_values(data).items() if value != self.values[key]}


class SessionOpenForm(OptionsForm):
    """Date, venue, a player per seat and every option of the variant, typed, prefilled from the preset."""

    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    venue = forms.CharField(label=_("Venue / table"), max_length=100, required=False)
    client_key = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)

    def __init__(
        self,
        *args: Any,
        variant: str,
        n_players: int,
        preset: str | None,
        players: QuerySet[Player],
        lang: str = "zh-Hans",
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, variant=variant, n_players=n_players, preset=preset, lang=lang, **kwargs)
        # A fresh key per rendered form: submitting it twice opens one session.
        self.fields["client_key"].initial = uuid.uuid4().hex
        for seat in range(n_players):
            self.fields[f"seat_{seat}_player"] = forms.ModelChoiceField(
                label=_("Seat %(seat)s") % {"seat": seat + 1}, queryset=players, required=False
            )
            self.fields[f"seat_{seat}_player"].empty_label = _("— new guest —")
            # The template shows the seat's label only once: the box says what it is for itself.
            self.fields[f"seat_{seat}_name"] = forms.CharField(
                label=_("or a guest's name"),
                max_length=60,
                required=False,
                widget=forms.TextInput(
                    attrs={"placeholder": _("or a guest's name"), "aria-label": _("or a guest's name")}
                ),
            )

    def seat_fields(self) -> list[tuple[int, forms.BoundField, forms.BoundField]]:
        return [(seat, self[f"seat_{seat}_player"], self[f"seat_{seat}_name"]) for seat in range(self.n_players)]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        data["overrides"] = self.option_overrides(data)
        seated: list[Player | str] = []
        for seat in range(self.n_players):
            player = data.get(f"seat_{seat}_player")
            name = (data.get(f"seat_{seat}_name") or "").strip()
            if player and name:
                self.add_error(f"seat_{seat}_name", _("Pick a player or type a guest's name, not both."))
            elif not player and not name:
                self.add_error(f"seat_{seat}_player", _("Pick a player or type a guest's name."))
            seated.append(player or name)
        data["players"] = seated
        return data
