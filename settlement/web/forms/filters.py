"""The club history's filters: they parse what was typed; the rules and the ledger decide in the services."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from ...models import Player, Session


class _DateVariantFilterForm(forms.Form):
    """The filters both pages have: a date range and a variant (all optional)."""

    date_from = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    date_to = forms.DateField(
        label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    variant = forms.ChoiceField(label=_("Variant"), required=False)

    def __init__(self, *args: Any, variant_choices: list[tuple[str, str]], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["variant"].choices = [("", _("any")), *variant_choices]


class HistoryFilterForm(_DateVariantFilterForm):
    player = forms.ModelChoiceField(label=_("Player"), required=False, queryset=Player.objects.none())
    status = forms.ChoiceField(label=_("Status"), required=False, choices=[("", _("any")), *Session.Status.choices])

    def __init__(self, *args: Any, players: QuerySet[Player], variant_choices: list[tuple[str, str]], **kwargs: Any):
        super().__init__(*args, variant_choices=variant_choices, **kwargs)
        self.fields["player"].queryset = players
        self.fields["player"].empty_label = _("anyone")


class StandingsFilterForm(_DateVariantFilterForm):
    """The standings page's filters: a date range and a variant (all optional)."""
