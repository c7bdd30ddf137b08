"""The event pages' words: an event's state and an adjustment's kind as the pages say them."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext_lazy as _

register = template.Library()

STATES = {"open": _("Not started"), "running": _("Under way"), "finished": _("Finished")}
KINDS = {"penalty": _("Penalty"), "award": _("Award")}


@register.filter
def event_state(state: str) -> str:
    return str(STATES.get(state, state))


@register.filter
def adjustment_kind(kind: str) -> str:
    return str(KINDS.get(kind, kind))


DRAWS = {
    "random": _("random draw"),
    "balanced": _("balanced draw"),
    "swiss": _("swiss draw"),
    "manual": _("manual seating"),
}


@register.filter
def draw_method(draw: str) -> str:
    return str(DRAWS.get(draw, draw))
