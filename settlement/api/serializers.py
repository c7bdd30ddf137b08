"""How the API's requests and responses look: shapes only, never a settlement.

Response serializers turn what the selectors return into JSON; the results
document comes straight from the engine (`SessionResultsSerializer` describes
it for the schema). Request bodies that the rules check — a hand, a session
document — are described here for the schema and passed to the services as
they came, so that the rules engine alone says what is valid (no coercion of
`"80"` into 80, every refusal with the hand number and the field).
"""

from __future__ import annotations

import datetime
from typing import Any, ClassVar

from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from settlement.models import Player, Role, Session
from settlement.rules.registry import VARIANTS

from .schema import NAME_TEXT, REASON_TEXT, HandInputField, NullableHandInputField, ResolvedOptionsField

VARIANT_CHOICES = list(VARIANTS)
# Seats 0 … n − 1 of the largest table any variant allows (升级 with six players: 0–5); the rules
# refuse a seat beyond the session's own players (`seat.invalid`).
MAX_PLAYERS = max(max(variant.player_counts) for variant in VARIANTS.values())
SEAT = {"min_value": 0, "max_value": MAX_PLAYERS - 1}

# --- errors ---


VARIANT_HELP = "the session's variant: says which variant's hand `input` is (the schema's discriminator)"


@extend_schema_field({"type": "string", "enum": VARIANT_CHOICES})
class SessionVariantField(serializers.Field):
    """The session's variant, given in the serializer's context (`variant`): a hand's rows do not carry it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(source="*", read_only=True, help_text=VARIANT_HELP, **kwargs)

    def to_representation(self, value: Any) -> str:
        return str(self.context["variant"])


class UtcDateTimeField(serializers.DateTimeField):
    """A time as the API answers it: in UTC, with `Z` (never the server's zone); one a client reads without
    knowing where the club is. (A session's `date` is the club's local day: a date, not a time.)"""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(default_timezone=datetime.UTC, **kwargs)


_API_TIME = UtcDateTimeField()


def api_time(value: datetime.datetime | None) -> str | None:
    """`value` as every UtcDateTimeField answers it, for a body built by hand: a serializer built to read
    one of its fields costs more than the rest of a hand's answer."""
    return _API_TIME.to_representation(value)


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="stable error code, e.g. `bid.place_minimum`, `not_found`")
    hand = serializers.IntegerField(allow_null=True, help_text="the hand's number in the session (1-based), or null")
    field = serializers.CharField(allow_null=True, help_text="the input field, e.g. `bid`, `players[2]`, or null")
    message = serializers.CharField(help_text="what is wrong, in the request's language")


# --- request bodies (described for the schema; the rules engine checks them) ---


# A hand and a session document are typed per variant in `schema.py` (built from the engine's description);
# the views name these components as their request and response bodies.
HAND_INPUT = {"$ref": "#/components/schemas/HandInput"}
SESSION_DOCUMENT = {"$ref": "#/components/schemas/SessionDocument"}


REVISION_HELP = (
    "the hand's revision this change was made from; if the hand has changed since, the change is refused "
    "with 409 hand.stale (leave it out to change whatever is current)"
)


class HandCorrectSerializer(serializers.Serializer):
    hand = HandInputField(help_text="the corrected hand, whole")
    reason = serializers.RegexField(REASON_TEXT, max_length=500, help_text="why (kept in the hand's history)")
    revision = serializers.IntegerField(min_value=1, required=False, help_text=REVISION_HELP)


class HandVoidSerializer(serializers.Serializer):
    reason = serializers.RegexField(REASON_TEXT, max_length=500, help_text="why (kept in the hand's history)")
    revision = serializers.IntegerField(min_value=1, required=False, help_text=REVISION_HELP)


# --- query parameters ---


class ZonedDateTimeField(UtcDateTimeField):
    """A time with its zone (`Z` or an offset): a naive time or a bare day would have to guess one."""

    default_error_messages: ClassVar[dict[str, Any]] = {
        "datetime.zone": _("give a time with its zone, e.g. 2026-03-01T12:00:00Z or 2026-03-01T20:00:00+08:00"),
    }

    def to_internal_value(self, value: Any) -> datetime.datetime:
        try:
            parsed = parse_datetime(value.strip()) if isinstance(value, str) else None
        except ValueError:
            parsed = None  # DRF's own message: not a valid time
        if parsed is not None and parsed.tzinfo is None:  # a bare day parses too, as a naive midnight
            self.fail("datetime.zone")
        return super().to_internal_value(value)


class SessionFilterSerializer(serializers.Serializer):
    updated_since = ZonedDateTimeField(
        required=False, help_text="sessions whose `updated` (latest write) is at or after this time (ISO 8601)"
    )
    date_from = serializers.DateField(required=False, help_text="sessions on or after this day")
    date_to = serializers.DateField(required=False, help_text="sessions on or before this day")
    variant = serializers.ChoiceField(choices=VARIANT_CHOICES, required=False)
    player = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.none(), required=False, help_text="sessions this player (id) sat in"
    )
    status = serializers.ChoiceField(choices=Session.Status.choices, required=False)
    limit = serializers.IntegerField(required=False, default=50, min_value=1, max_value=200)
    offset = serializers.IntegerField(required=False, default=0, min_value=0, max_value=1_000_000)

    def __init__(self, *args: Any, club: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if club is not None:
            self.fields["player"].queryset = Player.objects.filter(club=club)  # type: ignore[attr-defined]


class ImportQuerySerializer(serializers.Serializer):
    close = serializers.BooleanField(
        required=False, default=True, help_text="false: leave the session open to add hands"
    )


HANDS_PAGE = 20  # hands per page of GET sessions/{id}/: a session of up to 20 hands comes whole; `next` for more
HANDS_PAGE_MAX = 500


class HandPageQuerySerializer(serializers.Serializer):
    limit = serializers.IntegerField(
        required=False,
        default=HANDS_PAGE,
        min_value=1,
        max_value=HANDS_PAGE_MAX,
        help_text="hands per page (newest first; within a page in play order)",
    )
    offset = serializers.IntegerField(
        required=False,
        default=0,
        min_value=0,
        max_value=1_000_000,
        help_text="how many of the newest hands to skip",
    )


class PreviewQuerySerializer(serializers.Serializer):
    number = serializers.IntegerField(
        required=False, min_value=1, max_value=1_000_000, help_text="preview a correction of this hand instead"
    )


# --- responses ---


class ClubSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    role = serializers.ChoiceField(choices=Role.choices, help_text="your role in the club")
    created = UtcDateTimeField(source="created_at", help_text="when it was made")
    updated = UtcDateTimeField(source="updated_at", help_text="its latest change")


class PlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    is_guest = serializers.BooleanField()
    sessions = serializers.IntegerField(help_text="sessions sat in")
    created = UtcDateTimeField(source="created_at", help_text="when it was made")
    updated = UtcDateTimeField(source="updated_at", help_text="its latest change (name, login, guest or not)")


class SeatSummarySerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.IntegerField(source="player.pk")
    name = serializers.CharField(source="player.name")
    total = serializers.IntegerField(help_text="hand deltas plus game adjustments, in the session's unit")
    games_won = serializers.IntegerField()


SESSION_UPDATED_HELP = "its latest write: a hand recorded, corrected or voided, a close or a reopen"
LIST_LIMIT = 100  # items per page of a list (at most LIST_LIMIT_MAX)
LIST_LIMIT_MAX = 500


class PageSerializer(serializers.Serializer):
    """A page of a list: `count` of all that match, links to the next and previous page (null at the ends)."""

    count = serializers.IntegerField(help_text="how many match, on every page")
    next = serializers.URLField(allow_null=True, help_text="the next page; null on the last")
    previous = serializers.URLField(allow_null=True, help_text="the previous page; null on the first")


def page_of(item: type[serializers.Serializer], name: str) -> type[serializers.Serializer]:
    """`PageSerializer` with `results` of `item`, as a component `name`."""
    return type(name, (PageSerializer,), {"results": item(many=True), "__module__": __name__})


class PageQuerySerializer(serializers.Serializer):
    limit = serializers.IntegerField(
        required=False, default=LIST_LIMIT, min_value=1, max_value=LIST_LIMIT_MAX, help_text="items per page"
    )
    offset = serializers.IntegerField(
        required=False, default=0, min_value=0, max_value=1_000_000, help_text="how many to skip"
    )


class ListQuerySerializer(serializers.Serializer):
    limit = serializers.IntegerField(
        required=False, default=LIST_LIMIT, min_value=1, max_value=LIST_LIMIT_MAX, help_text="items per page"
    )
    offset = serializers.IntegerField(
        required=False, default=0, min_value=0, max_value=1_000_000, help_text="how many to skip"
    )
    updated_since = ZonedDateTimeField(
        required=False,
        help_text="only those whose `updated` is at or after this time (ISO 8601; send the newest `updated` "
        "you have for an incremental sync)",
    )


class SessionSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField(source="session.pk")
    date = serializers.DateField(source="session.date")
    venue = serializers.CharField(source="session.venue")
    variant = serializers.CharField(source="session.variant")
    status = serializers.ChoiceField(source="session.status", choices=Session.Status.choices)
    unit = serializers.CharField(source="session.unit")
    hands = serializers.IntegerField(help_text="hands that count (void ones left out)")
    seats = SeatSummarySerializer(many=True)
    created = UtcDateTimeField(source="session.created_at", help_text="when it was made")
    updated = UtcDateTimeField(source="session.updated_at", help_text=SESSION_UPDATED_HELP)


class SessionPageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = SessionSummarySerializer(many=True)


class HandResultSerializer(serializers.Serializer):
    n = serializers.IntegerField(help_text="the hand's number in the session")
    game = serializers.IntegerField()
    status = serializers.CharField(help_text="`scored` or `redeal`")
    dealer = serializers.IntegerField(allow_null=True)
    declarer = serializers.IntegerField(allow_null=True)
    outcome = serializers.CharField()
    tags = serializers.ListField(child=serializers.CharField())
    declarer_won = serializers.BooleanField(allow_null=True)
    deltas = serializers.ListField(child=serializers.IntegerField())
    totals = serializers.ListField(child=serializers.IntegerField(), help_text="running totals within the game")
    steps = serializers.ListField(child=serializers.CharField(), help_text="the receipt, in the request's language")
    next_dealer = serializers.IntegerField(allow_null=True)
    levels = serializers.ListField(child=serializers.CharField(), required=False, help_text="level variants only")
    next_declarer = serializers.IntegerField(allow_null=True, required=False, help_text="level variants only")
    tribute_next = serializers.IntegerField(
        allow_null=True,
        required=False,
        help_text=(
            "打滚子 only: the tribute cards (进贡) the next scored hand's declarer takes from his 上家 "
            "(the seat before him); null when none is due (a game's first hand, or the game ended)"
        ),
    )


class GameResultSerializer(serializers.Serializer):
    n = serializers.IntegerField()
    first_hand = serializers.IntegerField()
    last_hand = serializers.IntegerField()
    finished = serializers.BooleanField()
    winners = serializers.ListField(child=serializers.IntegerField())
    how = serializers.CharField(allow_null=True)
    adjustments = serializers.ListField(child=serializers.IntegerField())
    adjustment_steps = serializers.ListField(child=serializers.CharField())
    totals = serializers.ListField(child=serializers.IntegerField())


# `from` is a Python keyword: the class is built with its field names as data.
TransferSerializer = type(
    "TransferSerializer",
    (serializers.Serializer,),
    {
        "from": serializers.IntegerField(help_text="the seat that pays"),
        "to": serializers.IntegerField(help_text="the seat that is paid"),
        "amount": serializers.IntegerField(help_text="totals × unit_value"),
        "__module__": __name__,
    },
)


class ResultsDocumentSerializer(serializers.Serializer):
    """The results document, as `manage.py settle` prints it (hands numbered as in the ledger)."""

    variant = serializers.CharField()
    options = ResolvedOptionsField(help_text="every option, resolved")
    players = serializers.ListField(child=serializers.CharField())
    unit = serializers.CharField()
    hands = HandResultSerializer(many=True)
    games = GameResultSerializer(many=True)
    totals = serializers.ListField(child=serializers.IntegerField())
    games_won = serializers.ListField(child=serializers.IntegerField())
    settle_up = TransferSerializer(many=True)


class PreviewResultsSerializer(ResultsDocumentSerializer):
    """A preview: the results document with the previewed hand, `hands` the newest page as `GET sessions/{id}/`."""

    next = serializers.URLField(
        allow_null=True,
        help_text="the page of the stored hands before these (GET sessions/{id}/); null when all are here",
    )


class SessionResultsSerializer(ResultsDocumentSerializer):
    id = serializers.IntegerField()
    club = serializers.SlugField()
    date = serializers.DateField()
    venue = serializers.CharField(allow_blank=True)
    status = serializers.ChoiceField(choices=Session.Status.choices)
    created = UtcDateTimeField(help_text="when it was opened or imported")
    updated = UtcDateTimeField(help_text=SESSION_UPDATED_HELP)
    hand_count = serializers.IntegerField(help_text="hands in the log, void ones included (the last hand's number)")
    next = serializers.URLField(
        allow_null=True, help_text="the page of the hands before these (older); null on the last page"
    )
    previous = serializers.URLField(allow_null=True, help_text="the page of the hands after these (newer)")


class HandWriteSerializer(serializers.Serializer):
    """A hand after a write: its current revision and, unless void, its result in the session."""

    n = serializers.IntegerField(help_text="the hand's number in the session")
    revision = serializers.IntegerField(help_text="1 = as recorded; later = corrections and voids")
    is_void = serializers.BooleanField()
    variant = SessionVariantField()
    input = NullableHandInputField(allow_null=True, help_text="the hand as entered (null once void)")
    created = UtcDateTimeField(help_text="when it was recorded")
    updated = UtcDateTimeField(help_text="its latest revision's time")
    result = HandResultSerializer(allow_null=True)
    game_end = GameResultSerializer(allow_null=True, help_text="the game this hand finished, if it did")


class SessionStatusSerializer(serializers.Serializer):
    """A session after it was closed or reopened."""

    id = serializers.IntegerField(source="pk")
    status = serializers.ChoiceField(choices=Session.Status.choices)
    closed_at = UtcDateTimeField(allow_null=True, help_text="when it was closed; null while open")
    created = UtcDateTimeField(source="created_at", help_text="when it was made")
    updated = UtcDateTimeField(source="updated_at", help_text=SESSION_UPDATED_HELP)


class EmptySerializer(serializers.Serializer):
    """No fields: an empty object, or no body at all."""


class RevisionSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="1 = as recorded; later = corrections and voids")
    author = serializers.CharField(source="author.username", help_text="who entered it (username)")
    created = UtcDateTimeField(source="created_at")
    updated = UtcDateTimeField(source="created_at", help_text="the same as `created`: a revision never changes")
    reason = serializers.CharField(allow_blank=True, help_text="why (empty for the recording)")
    note = serializers.CharField(
        allow_null=True, help_text="the scorekeeper's note on the hand as this revision has it (null: none)"
    )
    variant = SessionVariantField()
    input = NullableHandInputField(allow_null=True, help_text="the hand as entered (null for a void)")
    void = serializers.BooleanField(source="is_void")


class ApiTokenSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    prefix = serializers.CharField(help_text="the secret's first characters, to tell tokens apart")
    created = UtcDateTimeField(source="created_at")
    expires = UtcDateTimeField(source="expires_at", allow_null=True, help_text="null: never")
    last_used = UtcDateTimeField(source="last_used_at", allow_null=True)
    revoked = UtcDateTimeField(source="revoked_at", allow_null=True)
    updated = serializers.SerializerMethodField(help_text="when it was revoked, else when it was made")

    def get_updated(self, token: Any) -> datetime.datetime:
        data = token if isinstance(token, dict) else vars(token)
        return api_time(data["revoked_at"] or data["created_at"])


class ApiTokenMadeSerializer(ApiTokenSerializer):
    token = serializers.CharField(help_text="the secret: shown this once, send it as `Authorization: Bearer …`")


class ApiTokenCreateSerializer(serializers.Serializer):
    name = serializers.RegexField(NAME_TEXT, max_length=60, help_text="what the token is for, e.g. `spreadsheet`")
    expires = serializers.DateTimeField(required=False, allow_null=True, help_text="leave out or null: never")


class HandListItemSerializer(serializers.Serializer):
    """A hand of the log, void ones too: its current revision (no results: `GET sessions/{id}/` has those)."""

    n = serializers.IntegerField(help_text="the hand's number in the session")
    revision = serializers.IntegerField(help_text="its current revision: 1 = as recorded")
    is_void = serializers.BooleanField()
    variant = SessionVariantField()
    input = NullableHandInputField(allow_null=True, help_text="the hand as entered (null once void)")
    created = UtcDateTimeField(help_text="when it was recorded")
    updated = UtcDateTimeField(help_text="its latest revision's time")


ClubPageSerializer = page_of(ClubSerializer, "ClubPageSerializer")
PlayerPageSerializer = page_of(PlayerSerializer, "PlayerPageSerializer")
RevisionPageSerializer = page_of(RevisionSerializer, "RevisionPageSerializer")
ApiTokenPageSerializer = page_of(ApiTokenSerializer, "ApiTokenPageSerializer")
HandPageSerializer = page_of(HandListItemSerializer, "HandPageSerializer")
