"""Forms of the club pages: they parse what was typed; the rules and the ledger decide in the services."""

from __future__ import annotations

import json
import uuid
from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from .models import Player, Session
from .rules.options import options_describe, options_dump, options_resolve
from .rules.registry import VARIANTS


def _json_object(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError:
        raise forms.ValidationError(_("This is not valid JSON.")) from None
    if not isinstance(value, dict):
        raise forms.ValidationError(_('A hand is a JSON object, like {"declarer": 1, "bid": 85, "captured": 20}.'))
    return value


class HandInputForm(forms.Form):
    hand = forms.CharField(
        label=_("Hand (JSON)"),
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false", "autocapitalize": "off"}),
    )
    client_key = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A fresh key per rendered form: submitting it twice records one hand.
        self.fields["client_key"].initial = uuid.uuid4().hex

    def clean_hand(self) -> dict[str, Any]:
        return _json_object(self.cleaned_data["hand"])


class HandCorrectForm(forms.Form):
    hand = forms.CharField(
        label=_("Corrected hand (JSON)"),
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false", "autocapitalize": "off"}),
    )
    reason = forms.CharField(label=_("Reason"), max_length=500)

    def clean_hand(self) -> dict[str, Any]:
        return _json_object(self.cleaned_data["hand"])


class HandVoidForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=500)


class HistoryFilterForm(forms.Form):
    date_from = forms.DateField(label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    date_to = forms.DateField(label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    variant = forms.ChoiceField(label=_("Variant"), required=False)
    player = forms.ModelChoiceField(label=_("Player"), required=False, queryset=Player.objects.none())
    status = forms.ChoiceField(label=_("Status"), required=False, choices=[("", _("any")), *Session.Status.choices])

    def __init__(self, *args: Any, players: QuerySet[Player], variant_choices: list[tuple[str, str]], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = players
        self.fields["player"].empty_label = _("anyone")
        self.fields["variant"].choices = [("", _("any")), *variant_choices]


class SessionOpenForm(forms.Form):
    """Date, venue, every option of the variant (prefilled from the preset) and a player per seat.

    An option is typed as JSON; a text option may be typed without quotes.
    """

    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    venue = forms.CharField(label=_("Venue / table"), max_length=100, required=False)

    def __init__(
        self,
        *args: Any,
        variant: str,
        n_players: int,
        preset: str | None,
        players: QuerySet[Player],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        rules = VARIANTS[variant]
        defaults = rules.defaults(n_players)
        overrides = dict(rules.presets.get(preset, {})) if preset else {}
        initial = options_dump(options_resolve(defaults, overrides))
        self.option_docs = dict(options_describe(type(defaults)))
        self.option_names = list(initial)
        self._text_options = {name for name, value in initial.items() if isinstance(value, str)}
        for name, value in initial.items():
            shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
            self.fields[f"option_{name}"] = forms.CharField(
                label=name, initial=shown, help_text=self.option_docs.get(name, ""), required=False
            )
        self.n_players = n_players
        for seat in range(n_players):
            self.fields[f"seat_{seat}_player"] = forms.ModelChoiceField(
                label=_("Seat %(seat)s") % {"seat": seat}, queryset=players, required=False
            )
            self.fields[f"seat_{seat}_player"].empty_label = _("— new guest —")
            self.fields[f"seat_{seat}_name"] = forms.CharField(
                label=_("or a guest's name"), max_length=60, required=False
            )

    def option_fields(self) -> list[forms.BoundField]:
        return [self[f"option_{name}"] for name in self.option_names]

    def seat_fields(self) -> list[tuple[int, forms.BoundField, forms.BoundField]]:
        return [(seat, self[f"seat_{seat}_player"], self[f"seat_{seat}_name"]) for seat in range(self.n_players)]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        overrides: dict[str, Any] = {}
        for name in self.option_names:
            text = (data.get(f"option_{name}") or "").strip()
            if text == "":
                continue  # left empty: the variant's default
            try:
                overrides[name] = json.loads(text)
            except ValueError:
                if name in self._text_options:
                    overrides[name] = text
                else:
                    self.add_error(f"option_{name}", _("This is not valid JSON."))
        data["overrides"] = overrides
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
