"""The club's settings form (the owner's)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class ClubSettingsForm(forms.Form):
    show_achievements = forms.BooleanField(
        label=_("Show the achievements (成就) on the player pages"),
        required=False,
        help_text=_("Off: the badges are hidden on every player page of the club; nothing is deleted."),
    )
