"""The change feed's shapes: its query (`after`, `limit`), a change, a page of them, and the opaque cursor.

A cursor is the position after one change, written so that a client keeps it and sends it back, never reads
it: the change's id as 8 bytes, base64url without padding (11 characters; `AAAAAAAAAAA` is the start).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from settlement.models import Change

from .serializers import UtcDateTimeField

CHANGES_LIMIT = 100  # changes per page of the feed (at most CHANGES_LIMIT_MAX)
CHANGES_LIMIT_MAX = 1000
CURSOR_LENGTH = 11
START = 0
# Exactly the cursors: 11 base64url characters whose 66 bits are a 63-bit id (the first character below `g`, the
# last one's two spare bits zero), so the schema is honest and every string it allows names a position.
NOT_A_CURSOR = _("Not a cursor of this feed: send back a `cursor` it gave.")
CURSOR_PATTERN = r"^[A-Za-f][A-Za-z0-9_-]{9}[AEIMQUYcgkosw048]$"

# What a change names, by the kind's first word: the API address that gives it (a player merged away is a
# tombstone: its address answers the survivor). A new subject (`event.…`) adds a line here and values to `Change.Kind`.
SUBJECTS: dict[str, Callable[[Change, str], str]] = {
    "session": lambda change, slug: reverse("api_session_detail", args=[change.object_id]),
    "hand": lambda change, slug: reverse("api_hand_revisions", args=[change.session_id, change.number]),
    "player": lambda change, slug: reverse("api_player_detail", args=[slug, change.object_id]),
    "event": lambda change, slug: reverse("api_event_standings", args=[change.object_id]),
    "league": lambda change, slug: reverse("api_league_standings", args=[change.object_id]),
}


def cursor_encode(change_id: int) -> str:
    return base64.urlsafe_b64encode(change_id.to_bytes(8, "big")).decode().rstrip("=")


def cursor_decode(cursor: str) -> int | None:
    """The id a cursor stands for; None when it is not one this feed gave (any other text, or one re-spelt)."""
    if len(cursor) != CURSOR_LENGTH:
        return None
    try:
        raw = base64.urlsafe_b64decode(cursor + "=")
    except (binascii.Error, ValueError):
        return None
    change_id = int.from_bytes(raw, "big")
    if len(raw) != 8 or cursor_encode(change_id) != cursor or change_id >= 2**63:
        return None
    return change_id


class ChangesQuerySerializer(serializers.Serializer):
    after = serializers.RegexField(
        CURSOR_PATTERN,
        required=False,
        trim_whitespace=False,
        min_length=CURSOR_LENGTH,
        max_length=CURSOR_LENGTH,
        error_messages={"invalid": NOT_A_CURSOR},
        help_text="a `cursor` this feed gave: the changes after it (left out: from the club's first change)",
    )
    limit = serializers.IntegerField(
        required=False,
        default=CHANGES_LIMIT,
        min_value=1,
        max_value=CHANGES_LIMIT_MAX,
        help_text=f"changes per page (default {CHANGES_LIMIT}, at most {CHANGES_LIMIT_MAX})",
    )

    def validate_after(self, value: str) -> int:
        change_id = cursor_decode(value)
        if change_id is None:
            raise serializers.ValidationError(NOT_A_CURSOR, code="invalid")
        return change_id


class ChangeSerializer(serializers.Serializer):
    cursor = serializers.SerializerMethodField(help_text="the position after this change: `after=` resumes here")
    kind = serializers.ChoiceField(
        choices=Change.Kind.choices,
        help_text="what happened: `session.created`, `hand.corrected`, `player.merged`, … (more may be added)",
    )
    subject = serializers.SerializerMethodField(help_text="what changed: `session`, `hand` or `player`")
    id = serializers.IntegerField(source="object_id", help_text="its id (a merge: the merged-away player's)")
    url = serializers.SerializerMethodField(help_text="where to fetch it")
    session = serializers.IntegerField(
        source="session_id", allow_null=True, help_text="the session of a session's or a hand's change"
    )
    number = serializers.IntegerField(allow_null=True, help_text="a hand's number in its session")
    revision = serializers.IntegerField(allow_null=True, help_text="a hand's revision this change wrote")
    into = serializers.IntegerField(source="into_id", allow_null=True, help_text="a merge's surviving player")
    at = UtcDateTimeField(source="created_at", help_text="when it was written")

    @extend_schema_field(OpenApiTypes.STR)
    def get_cursor(self, change: Change) -> str:
        return cursor_encode(change.pk)

    @extend_schema_field({"type": "string", "enum": list(SUBJECTS)})
    def get_subject(self, change: Change) -> str:
        return change.kind.partition(".")[0]

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, change: Change) -> str:
        """The address of what changed (the context gives the `request` and the club's `slug`)."""
        path = SUBJECTS[self.get_subject(change)](change, self.context["slug"])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path


class ChangePageSerializer(serializers.Serializer):
    results = ChangeSerializer(many=True)
    cursor = serializers.CharField(
        help_text="where to resume: the last change's cursor (no change: the `after` you sent, or the start)"
    )
    has_more = serializers.BooleanField(help_text="more changes follow at once: ask for `next`")
    next = serializers.URLField(allow_null=True, help_text="the next page's address (null: none yet, poll `cursor`)")


def schema_example(base: str) -> dict[str, Any]:
    """A page as the schema shows it."""
    return {
        "results": [
            {
                "cursor": cursor_encode(41),
                "kind": "hand.recorded",
                "subject": "hand",
                "id": 880,
                "url": f"{base}/api/v1/sessions/57/hands/12/revisions/",
                "session": 57,
                "number": 12,
                "revision": 1,
                "into": None,
                "at": "2026-11-28T12:41:07.512000Z",
            },
            {
                "cursor": cursor_encode(42),
                "kind": "player.merged",
                "subject": "player",
                "id": 31,
                "url": f"{base}/api/v1/clubs/laoyou/players/31/",
                "session": None,
                "number": None,
                "revision": None,
                "into": 9,
                "at": "2026-11-28T12:45:00Z",
            },
        ],
        "cursor": cursor_encode(42),
        "has_more": False,
        "next": None,
    }
