"""A session in words: its closings and reopenings, and why its final standings are in that order."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils import translation

from ..ledger import django_lang
from .revisions import when_label


@dataclass(frozen=True, kw_only=True)
class EventLine:
    kind: str  # closed, reopened
    action: str  # in the reader's language
    author: str
    when: str
    created_at: datetime.datetime


def event_lines(*, events: Sequence[Any], lang: str) -> list[EventLine]:
    """`SessionEvent` rows (oldest first) in words, in `lang`."""
    with translation.override(django_lang(lang)):
        return [
            EventLine(
                kind=event.kind,
                action=str(event.get_kind_display()),
                author=event.user.get_full_name() or event.user.get_username(),
                when=when_label(event.created_at, lang),
                created_at=event.created_at,
            )
            for event in events
        ]
