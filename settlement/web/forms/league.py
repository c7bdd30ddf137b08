"""The director's league forms: a new league, an event added to one or taken out. They parse what was typed; the
services decide (and their refusals land on the field they name)."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from ...models import Event, League
from ...services.leagues import BEST_N_MAX, LEAGUE_NAME_MAX, UNITS

RANKINGS = (
    (League.Ranking.SUM, _("the sum of every event")),
    (League.Ranking.BEST, _("the best N events of each player")),
)


class _EventChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Event) -> str:
        return f"{obj.date:%Y-%m-%d} {obj.name}"


class _EventsChoice(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: Event) -> str:
        return f"{obj.date:%Y-%m-%d} {obj.name}"


class LeagueNewForm(forms.Form):
    client_key = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)
    name = forms.CharField(label=_("Name"), max_length=LEAGUE_NAME_MAX)
    unit = forms.ChoiceField(
        label=_("Unit"), choices=[(u, u) for u in UNITS], help_text=_("Every event of the league counts in it.")
    )
    ranking = forms.ChoiceField(label=_("League table"), choices=RANKINGS, widget=forms.RadioSelect, initial="sum")
    best_n = forms.IntegerField(
        label=_("Events counted"),
        required=False,
        min_value=1,
        max_value=BEST_N_MAX,
        help_text=_("With the best N events: how many count."),
    )
    events = _EventsChoice(
        label=_("Events"), queryset=Event.objects.none(), required=False, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args: Any, events: QuerySet[Event], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["client_key"].initial = uuid.uuid4().hex
        self.fields["events"].queryset = events


class LeagueEventForm(forms.Form):
    event = _EventChoice(label=_("Event"), queryset=Event.objects.none())

    def __init__(self, *args: Any, events: QuerySet[Event], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["event"].queryset = events


class LeagueEventRemoveForm(forms.Form):
    """An event taken out of the league: the league page's button asks (no `confirm`), the question's button takes
    it out (`confirm`)."""

    event = _EventChoice(label=_("Event"), queryset=Event.objects.none(), widget=forms.HiddenInput)
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, events: QuerySet[Event], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["event"].queryset = events
