"""The director's forms for finishing an event and seating a substitute; the services decide."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _


class FinishForm(forms.Form):
    close_open = forms.BooleanField(label=_("Close the last round's open tables"), required=False)


class LateForm(forms.Form):
    allowed = forms.BooleanField(required=False)


class SubstituteForm(forms.Form):
    client_key = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)
    round_n = forms.IntegerField(label=_("Round"), min_value=1)
    absent = forms.TypedChoiceField(label=_("The absent player"), coerce=int)
    substitute = forms.CharField(
        label=_("The substitute"), max_length=60, help_text=_("a club player's name, or a guest's (new: a guest)")
    )

    def __init__(self, *args: Any, choices: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["absent"].choices = choices
        self.fields["client_key"].initial = uuid.uuid4().hex
