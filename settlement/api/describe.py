"""`/api/v1/variants/` and `/api/v1/sessions/{id}/entry/`: the engine's description of itself, as JSON.

What a session can set (`options_spec`) and what the next hand takes (`entry`), labelled in the request's
language — an API client builds its forms from these, as the pages do.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from settlement import selectors
from settlement.rules.entry import FieldKind, as_data, options_spec
from settlement.rules.options import OptionKind
from settlement.rules.registry import VARIANTS
from settlement.scoping import get_session_for_user, request_lang

from .common import READ_ERRORS, api_endpoint, error_responses, query_none, sequence_page
from .serializers import PageQuerySerializer, page_of


class ChoiceSerializer(serializers.Serializer):
    value = serializers.CharField()
    label = serializers.CharField(help_text="in the request's language")
    multiplier = serializers.IntegerField(allow_null=True, help_text="红星五's shapes: the bottom's multiplier")


# A hand field's choice is sent as the field takes it: a seat or a bid as an integer (a partner's "none" as null,
# the declarer alone), a choice as its text. The engine keeps them as text (the forms' values).
TYPED_CHOICES = (FieldKind.SEAT, FieldKind.BID)


def choice_typed(kind: str, value: str) -> int | str | None:
    if kind in TYPED_CHOICES:
        return None if value == "none" else int(value)
    return value


@extend_schema_field(
    {
        "oneOf": [{"type": "integer"}, {"type": "string"}],
        "nullable": True,
        "description": "as the hand field takes it: a seat or a bid an integer (null: the declarer alone), "
        "a choice its text",
    }
)
class ChoiceValueField(serializers.JSONField):
    pass


class EntryChoiceSerializer(ChoiceSerializer):
    value = ChoiceValueField()


class OptionSpecSerializer(serializers.Serializer):
    key = serializers.CharField(help_text="the option's name in a session document's `options`")
    kind = serializers.ChoiceField(choices=[str(k) for k in OptionKind])
    label = serializers.CharField()
    help = serializers.CharField()
    defaults = serializers.DictField(child=serializers.JSONField(), help_text="player count → default (no preset)")
    minimum = serializers.IntegerField(allow_null=True)
    maximum = serializers.IntegerField(allow_null=True)
    step = serializers.IntegerField()
    choices = ChoiceSerializer(many=True, help_text="a choice's values, or a keyed option's keys")
    all_required = serializers.BooleanField(help_text="keyed options: every key must be given")
    nullable = serializers.BooleanField(help_text="integers: null is allowed too (derived from the other options)")


class PresetSpecSerializer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    help = serializers.CharField(allow_blank=True, help_text="one line: what the preset sets (may be empty)")
    overrides = serializers.DictField(child=serializers.JSONField())
    defaults = serializers.DictField(
        child=serializers.DictField(child=serializers.JSONField()),
        help_text="player count → every option's value under the preset",
    )


class VariantSpecSerializer(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()
    unit = serializers.CharField()
    zero_sum = serializers.BooleanField()
    player_counts = serializers.ListField(child=serializers.IntegerField())
    default_players = serializers.IntegerField(help_text="the player count a new session starts at")
    presets = PresetSpecSerializer(many=True)
    options = OptionSpecSerializer(many=True)


VariantPageSerializer = page_of(VariantSpecSerializer, "VariantPageSerializer")


class EntryFieldSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="the hand field")
    kind = serializers.ChoiceField(choices=[str(k) for k in FieldKind])
    label = serializers.CharField()
    help = serializers.CharField()
    required = serializers.BooleanField()
    default = serializers.JSONField(allow_null=True)
    locked = serializers.BooleanField(help_text="set by the rules (the rotation's declarer)")
    choices = EntryChoiceSerializer(many=True)
    minimum = serializers.IntegerField(allow_null=True)
    maximum = serializers.IntegerField(allow_null=True)
    step = serializers.IntegerField()


class BidRuleSerializer(serializers.Serializer):
    bid = serializers.IntegerField()
    places = serializers.ListField(child=serializers.IntegerField(), help_text="(declarer − dealer) mod players")
    forced_places = serializers.ListField(child=serializers.IntegerField())


class TributeDueSerializer(serializers.Serializer):
    cards = serializers.IntegerField()
    amount = serializers.IntegerField()
    payer = serializers.IntegerField()
    payee = serializers.IntegerField()


class RotationSerializer(serializers.Serializer):
    seat = serializers.ChoiceField(
        choices=["dealer", "declarer"], help_text="the next hand's field it fills (declarer: the level games)"
    )
    redeal = serializers.IntegerField(help_text="after a hand thrown in: seats after its `seat` (0: the same)")
    scored = serializers.IntegerField(
        allow_null=True, help_text="after a scored hand: seats after its dealer; null: by the result"
    )
    won = serializers.IntegerField(
        allow_null=True, help_text="by the result: seats after the declarer when the declaring side won"
    )
    lost = serializers.IntegerField(allow_null=True, help_text="by the result: seats after the declarer otherwise")


class EntrySerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="the ledger number the next hand gets")
    game = serializers.IntegerField()
    game_start = serializers.BooleanField()
    fields = EntryFieldSerializer(many=True, help_text="in play order")
    bids = BidRuleSerializer(many=True)
    redeal_reasons = ChoiceSerializer(many=True)
    kou_shapes = ChoiceSerializer(many=True)
    dealer = serializers.IntegerField(allow_null=True)
    ask_dealer = serializers.BooleanField()
    declarer = serializers.IntegerField(allow_null=True)
    declarer_locked = serializers.BooleanField()
    tribute = TributeDueSerializer(allow_null=True)
    levels = serializers.ListField(child=serializers.CharField(), allow_null=True)
    rotation = RotationSerializer(help_text="how the next hand's dealer (level games: declarer) moves on")


@extend_schema(
    operation_id="variants_list",
    tags=["variants"],
    summary="Every variant: player counts, presets and the options a session can set, a page at a time",
    description=(
        "In the registry's order. No `updated_since`: the variants are the engine's and change only with a "
        "release, so a client reads the whole list again."
    ),
    parameters=[PageQuerySerializer],
    responses={200: VariantPageSerializer, **error_responses(400, 401)},
)
@api_endpoint("GET")
def variants_list(request: Request) -> Response:
    lang = request_lang()
    specs = [as_data(options_spec(rules, lang)) for rules in VARIANTS.values()]
    return sequence_page(request, specs, VariantSpecSerializer)


@extend_schema(
    operation_id="session_entry",
    tags=["sessions"],
    summary="What the session's next hand takes: its fields in play order, the values each allows, its defaults",
    responses={200: EntrySerializer, **READ_ERRORS, **error_responses(409)},
)
@api_endpoint("GET")
def session_entry(request: Request, session_id: int) -> Response:
    query_none(request)
    _, session = get_session_for_user(request.user, session_id)
    view = selectors.table_view(session=session, lang=request_lang())
    if view.entry is None:
        assert view.error is not None
        raise view.error
    state = view.entry
    body = as_data(state.entry) | {"number": state.number, "game": state.game, "game_start": state.game_start}
    for field in body["fields"]:
        for choice in field["choices"]:
            choice["value"] = choice_typed(field["kind"], choice["value"])
    return Response(EntrySerializer(body).data)
