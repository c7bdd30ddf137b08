"""The API's what-if: `POST sessions/{id}/what-if/`, the session's hands settled again under another preset or
other options (`selectors.session_what_if`); nothing is written, so a retry is always safe."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from settlement import selectors
from settlement.scoping import get_session_for_user, request_lang

from . import serializers as s
from .common import api_endpoint, error_responses, object_body, query_none
from .schema import CLEAN_TEXT, OptionsField


class WhatIfRequestSerializer(serializers.Serializer):
    preset = serializers.RegexField(
        CLEAN_TEXT,
        max_length=60,
        required=False,
        help_text="one of the variant's presets (GET variants/): its defaults, not the session's options, "
        "are the starting point",
    )
    options = OptionsField(
        required=False,
        help_text="options of the session's variant, each replacing its whole value (after the preset, if given)",
    )


class WhatIfResultsSerializer(s.ResultsDocumentSerializer):
    """The results document of the same hands under the other options, and what differs from the session."""

    session = serializers.IntegerField(help_text="the session settled again")
    changed = serializers.ListField(
        child=serializers.CharField(), help_text="the options whose value differs from the session's"
    )
    actual_totals = serializers.ListField(
        child=serializers.IntegerField(), help_text="the session's own totals, by seat, beside `totals`"
    )


@extend_schema(
    operation_id="session_what_if",
    tags=["sessions"],
    summary="The session's hands settled again under another preset or other options (nothing is written)",
    description=(
        "Every hand that counts (void ones are left out; hands keep their ledger numbers) is played again under "
        "the options asked for: with `preset`, the variant's defaults under that preset and then `options`; "
        "without, the session's own options and then `options`. The answer is the whole results document "
        "under those options, with `changed` (the options that differ) and `actual_totals`. A hand the other "
        "rules do not allow is a 400 naming the hand and its field; an option or preset is refused by name."
    ),
    request=WhatIfRequestSerializer,
    examples=[
        OpenApiExample("another preset", value={"preset": "本溪 300"}, request_only=True),
        OpenApiExample("another target", value={"options": {"target": 300}}, request_only=True),
    ],
    responses={200: WhatIfResultsSerializer, **error_responses(400, 401, 404)},
)
@api_endpoint("POST")
def session_what_if(request: Request, session_id: int) -> Response:
    query_none(request)
    _, session = get_session_for_user(request.user, session_id)
    body = object_body(request, ("preset", "options"))
    WhatIfRequestSerializer(data=body).is_valid(raise_exception=True)
    what_if = selectors.session_what_if(
        session=session, preset=body.get("preset"), options=body.get("options"), lang=request_lang()
    )
    return Response(
        {
            **what_if.alternative,
            "session": session.pk,
            "changed": list(what_if.changed),
            "actual_totals": what_if.actual["totals"],
        }
    )
