"""The OpenAPI schema's typed parts, built from the engine's description of itself (never copied by hand).

A hand's body depends on the session's variant, which the body does not name: the schema of a hand is
`anyOf` one schema per variant (`HandInput<Variant>`), each itself a `oneOf` a scored hand (the fields the
variant uses, its required ones required) and a redeal hand (`redeal` and the few fields a redeal carries).
`anyOf`, not `oneOf`, across variants: several variants take the same fields (本溪, 抚顺 and 沈阳 exactly;
the classic game and 打二鬼 share `declarer`, `bid`, `captured`, `partner`), so a body is valid for more than
one of them and a `oneOf` would refuse it. A session document names its variant, so it is a `oneOf`
discriminated by `variant` (`SessionDocument<Variant>`), with that variant's options and hands.

Fields, types, ranges and choices come from `rules.entry.entry` (what the forms draw) over every player
count, preset and table state a variant has; options from `rules.entry.options_spec`. The components are
added by `schema_components` (a drf-spectacular post-processing hook); fields refer to them with `$ref`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from settlement.ledger.values import INVISIBLE
from settlement.rules.base import Lang, RulesError, Variant
from settlement.rules.document import REDEAL_FIELDS
from settlement.rules.entry import (
    PLAY_ORDER,
    EntryField,
    FieldKind,
    OptionSpec,
    TableState,
    entry,
    options_spec,
    redeal_reasons,
    start_level,
)
from settlement.rules.options import OptionKind, options_resolve
from settlement.rules.registry import VARIANTS

REF = "#/components/schemas/"
# Worked sessions kept in the project, each naming its page of docs/rules/: the schema's examples.
GOLDEN_EXAMPLES = Path(__file__).with_name("golden_examples.json")
# What the services take as text (settlement/ledger/values.py): no control character anywhere; a reason has
# something besides spaces, a name something besides spaces, zero-width and bidi characters. (Lone
# surrogates, refused too, are left out of the patterns: an ECMA regex without the `u` flag would read an
# emoji's surrogate pair as two of them, and generators cannot draw them.)
_BAD = r"\x00-\x1f\x7f-\x9f"
_INVISIBLE = "".join(f"\\u{ord(c):04x}" for c in sorted(INVISIBLE))
CLEAN_TEXT = rf"^[^{_BAD}]*$"
REASON_TEXT = rf"^[^{_BAD}]*[^\s{_BAD}][^{_BAD}]*$"
NAME_TEXT = rf"^[^{_BAD}]*[^\s{_BAD}{_INVISIBLE}][^{_BAD}]*$"


@cache
def golden_documents() -> dict[str, dict[str, Any]]:
    """name → {"source": where it was worked, "document": the session document}."""
    documents: dict[str, dict[str, Any]] = json.loads(GOLDEN_EXAMPLES.read_text(encoding="utf-8"))
    return documents


def variant_name(key: str) -> str:
    """`baifen.benxi` → `BaifenBenxi`: a component name's part."""
    return "".join(part.capitalize() for part in re.split(r"[._]", key))


def _options_under(variant: Variant) -> Iterator[tuple[int, Any]]:
    """(players, options) for every player count under the defaults, under each preset and with each value of
    each switch and choice option set alone (some fields show only under one: 升级's `jack_kou`)."""
    spec = options_spec(variant, Lang.EN)
    for players in sorted(variant.player_counts):
        defaults = variant.defaults(players)
        overrides: list[dict[str, Any]] = [{}, *(dict(o) for o in variant.presets.values())]
        for option in spec.options:
            if option.kind is OptionKind.SWITCH:
                overrides += [{option.key: True}, {option.key: False}]
            elif option.kind is OptionKind.CHOICE:
                overrides += [{option.key: choice.value} for choice in option.choices]
        for override in overrides:
            try:
                yield players, options_resolve(defaults, override)
            except RulesError:
                continue  # a value that another option's default refuses


def _entries(variant: Variant) -> list[Any]:
    """The entry at a game's start and on a later hand (with a tribute due, levels carried), every option set."""
    found = []
    for players, options in _options_under(variant):
        level = start_level(options)
        levels = (level,) * players if level is not None else None
        for state in (
            TableState(),
            TableState(game=1, game_start=False, next_dealer=1, tribute_cards=1, levels=levels),
        ):
            found.append(entry(variant, options, state, players=players, lang=Lang.EN))
    return found


def _field_schema(name: str, fields: list[EntryField], players: int, owner: str) -> dict[str, Any]:
    """One hand field's JSON schema from the engine's entry fields (the widest over the entries); an object
    inside it is the component `<owner><Object>` (`_nested_schemas`)."""
    kind = fields[0].kind
    first = fields[0]
    helps = {f.help.strip() for f in fields if f.help.strip()}
    described = first.label + (": " + sorted(helps)[0] if helps else "")
    seat = {"type": "integer", "minimum": 0, "maximum": players - 1}
    schema: dict[str, Any]
    if kind is FieldKind.SEAT:
        schema = dict(seat)
        if any(c.value == "none" for f in fields for c in f.choices):
            schema["nullable"] = True
            described += " (null: the declarer alone)"
    elif kind in (FieldKind.BID, FieldKind.POINTS, FieldKind.COUNT):
        lows = [f.minimum for f in fields if f.minimum is not None]
        highs = [f.maximum for f in fields if f.maximum is not None]
        schema = {"type": "integer", "minimum": min(lows) if lows else 0}
        if highs:
            schema["maximum"] = max(highs)
        if first.step > 1:
            schema["multipleOf"] = first.step
    elif kind is FieldKind.SWITCH:
        schema = {"type": "boolean"}
    elif kind is FieldKind.CHOICE:
        values = sorted({c.value for f in fields for c in f.choices})
        schema = {"type": "string", "enum": values}
    elif kind is FieldKind.SHAPE:
        # 红星五's shapes set the multiplier: a power of two, or (kou_multiplier "times") an even number.
        schema = {"type": "integer", "minimum": 2, "multipleOf": 2}
    elif kind is FieldKind.JOKERS:
        schema = {"allOf": [{"$ref": f"{REF}{owner}BottomJokers"}]}
    elif kind is FieldKind.PENALTIES:
        schema = {"type": "array", "items": {"$ref": f"{REF}{owner}Penalty"}}
    else:  # pragma: no cover - a new kind must be described here
        raise AssertionError(f"no schema for {kind}")
    defaults = {repr(f.default) for f in fields}
    # (No default on an object: generators cannot build one; absent bottom_jokers are 0 and 0.)
    if len(defaults) == 1 and first.default not in (None, "") and not first.required and kind is not FieldKind.JOKERS:
        schema["default"] = first.default
    return {**schema, "description": described}


def _nested_schemas(variant: Variant, by_name: dict[str, list[EntryField]], owner: str) -> dict[str, Any]:
    """The objects inside a variant's hand, as components of their own (generators name them so)."""
    found: dict[str, Any] = {}
    players = max(variant.player_counts)
    if "bottom_jokers" in by_name:
        first = by_name["bottom_jokers"][0]
        count = {"type": "integer", "minimum": first.minimum or 0, "maximum": first.maximum}
        found[f"{owner}BottomJokers"] = {
            "type": "object",
            "properties": {c.value: count for c in first.choices},
            "additionalProperties": False,
            "description": "jokers in the final bottom (either key may be left out: 0)",
        }
    if "penalties" in by_name:
        kinds = sorted({c.value for f in by_name["penalties"] for c in f.choices})
        found[f"{owner}Penalty"] = {
            "type": "object",
            "properties": {
                "seat": {"type": "integer", "minimum": 0, "maximum": players - 1},
                "kind": {"type": "string", "enum": kinds},
            },
            "required": ["seat", "kind"],
            "additionalProperties": False,
            "description": "a failed throw (shuai) or an overdrawn deal (misdeal) by the seat",
        }
    return found


def _redeal_schema(variant: Variant) -> dict[str, Any]:
    reasons: set[str] = set()
    for _, options in _options_under(variant):
        reasons.update(str(r) for r in redeal_reasons(variant, options))
    return {"type": "string", "enum": sorted(reasons), "description": "the hand was thrown in and redealt: why"}


def hand_schemas(variant: Variant) -> dict[str, dict[str, Any]]:
    """`HandInput<Variant>`: `oneOf` a scored hand and a redeal hand of `variant`, each a component, and the
    objects inside them."""
    owner = "HandInput" + variant_name(variant.key)
    entries = _entries(variant)
    players = max(variant.player_counts)
    by_name: dict[str, list[EntryField]] = {}
    for spec in entries:
        for field in spec.fields:
            by_name.setdefault(field.name, []).append(field)
    names = [name for name in PLAY_ORDER if name in by_name]
    properties = {name: _field_schema(name, by_name[name], players, owner) for name in names}
    required = [name for name in names if all((f := spec.field(name)) and f.required for spec in entries)]
    if "surrender" in properties and "captured" in required:
        required.remove("captured")  # 标分: a surrender has no captured points (docs/rules/biaofen.md)
    scored = {
        "type": "object",
        "description": f"A scored hand of a {variant.key} session.",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }
    allowed = REDEAL_FIELDS - ({"dealer"} if variant.has_levels else set())
    redeal_props = {name: properties[name] for name in names if name in allowed}
    redeal_props["redeal"] = _redeal_schema(variant)
    redeal = {
        "type": "object",
        "description": f"A redeal (a hand thrown in) of a {variant.key} session.",
        "properties": redeal_props,
        "required": ["redeal"],
        "additionalProperties": False,
    }
    return {
        owner: {
            "oneOf": [{"$ref": f"{REF}{owner}Scored"}, {"$ref": f"{REF}{owner}Redeal"}],
            "description": f"A hand of a {variant.key} session: scored, or a redeal.",
        },
        f"{owner}Scored": scored,
        f"{owner}Redeal": redeal,
        **_nested_schemas(variant, by_name, owner),
    }


def _option_value_schema(option: OptionSpec) -> dict[str, Any]:
    integer: dict[str, Any] = {"type": "integer"}
    if option.minimum is not None:
        integer["minimum"] = option.minimum
    if option.maximum is not None:
        integer["maximum"] = option.maximum
    values = [c.value for c in option.choices]
    kind = option.kind
    schema: dict[str, Any]
    if kind is OptionKind.INTEGER:
        schema = dict(integer)
        if option.step > 1:
            schema["multipleOf"] = option.step
        if option.nullable:
            schema["nullable"] = True
    elif kind is OptionKind.SWITCH:
        schema = {"type": "boolean"}
    elif kind is OptionKind.CHOICE:
        schema = {"type": "string", "enum": values}
    elif kind is OptionKind.BID_TABLE:
        schema = {"type": "object", "additionalProperties": {"type": "integer"}, "description": "bid → score"}
    elif kind is OptionKind.KEYED_INTEGERS:
        schema = {
            "type": "object",
            "properties": {v: dict(integer) for v in values},
            "additionalProperties": False,
        }
        if option.all_required:
            schema["required"] = values
    elif kind is OptionKind.INTEGER_LIST:
        schema = {"type": "array", "items": dict(integer)}
    elif kind is OptionKind.LEVEL_TABLE:
        schema = {"type": "object", "additionalProperties": True}
    elif kind is OptionKind.SHAPE_TABLE:
        schema = {"type": "object", "additionalProperties": {"type": "integer", "minimum": 2}}
    elif kind is OptionKind.CHOICE_LIST:
        schema = {"type": "array", "items": {"type": "string", "enum": values}, "uniqueItems": True}
    else:  # pragma: no cover - a new kind must be described here
        raise AssertionError(f"no schema for {kind}")
    return schema


def options_schema(variant: Variant, *, resolved: bool) -> dict[str, Any]:
    """The options of `variant`: overrides (none required) or, `resolved`, every one as the results show them."""
    zh, en = options_spec(variant, Lang.ZH), options_spec(variant, Lang.EN)
    properties = {}
    for option, label in zip(en.options, zh.options, strict=True):
        described = f"{option.label} · {label.label}"
        if option.help.strip():
            described += ": " + option.help.strip()
        properties[option.key] = {**_option_value_schema(option), "description": described}
    schema: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
    if resolved:
        schema["required"] = list(properties)
    return schema


def document_schema(variant: Variant) -> dict[str, Any]:
    name = variant_name(variant.key)
    return {
        "type": "object",
        "description": f"A {variant.key} session document.",
        "properties": {
            "variant": {"type": "string", "enum": [variant.key]},
            "options": {"$ref": f"{REF}Options{name}"},
            "players": {
                "type": "array",
                "items": {"type": "string", "pattern": NAME_TEXT, "maxLength": 60},
                "uniqueItems": True,
                "minItems": min(variant.player_counts),
                "maxItems": max(variant.player_counts),
                "description": "names, in seat order",
            },
            "hands": {"type": "array", "items": {"$ref": f"{REF}HandInput{name}"}},
            "date": {"type": "string", "format": "date", "description": "the day of the sitting (kept on import)"},
            "venue": {"type": "string", "maxLength": 100, "pattern": CLEAN_TEXT},
        },
        "required": ["variant", "players", "hands"],
        "additionalProperties": False,
    }


@cache
def components() -> dict[str, dict[str, Any]]:
    """Every component this module defines, by name."""
    found: dict[str, dict[str, Any]] = {}
    for key, variant in VARIANTS.items():
        name = variant_name(key)
        found.update(hand_schemas(variant))
        found[f"Options{name}"] = options_schema(variant, resolved=False)
        found[f"ResolvedOptions{name}"] = options_schema(variant, resolved=True)
        found[f"SessionDocument{name}"] = document_schema(variant)
    found["HandInput"] = {
        "anyOf": [{"$ref": f"{REF}HandInput{variant_name(key)}"} for key in VARIANTS],
        "description": "A hand as entered, as the session's variant takes it (docs/rules/README.md, Hand fields).",
    }
    found["SessionDocument"] = {
        "oneOf": [{"$ref": f"{REF}SessionDocument{variant_name(key)}"} for key in VARIANTS],
        "discriminator": {
            "propertyName": "variant",
            "mapping": {key: f"{REF}SessionDocument{variant_name(key)}" for key in VARIANTS},
        },
        "description": "A session document: the JSON that `manage.py settle` reads and the export writes.",
    }
    found["Options"] = {
        "anyOf": [{"$ref": f"{REF}Options{variant_name(key)}"} for key in VARIANTS],
        "description": "Options of the session's variant, each replacing its whole value (docs/rules/).",
    }
    found["ResolvedOptions"] = {
        "anyOf": [{"$ref": f"{REF}ResolvedOptions{variant_name(key)}"} for key in VARIANTS],
        "description": "Every option of the session's variant, resolved.",
    }
    return found


def schema_components(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular post-processing hook: add the components the fields below refer to."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    for name, schema in components().items():
        schemas.setdefault(name, schema)
    # The server refuses a body field it does not take (`field.unknown`): so does the schema.
    for name in STRICT_BODIES:
        schemas[name]["additionalProperties"] = False
    for name in BY_VARIANT:
        schemas.update(by_variant(name, schemas[name]))
    # A rename is a PATCH (drf-spectacular makes every field optional) that needs its name.
    schemas["PatchedPlayerRename"]["required"] = ["name"]
    # A body is required wherever the call takes one (`BODY_OPTIONAL` take none, or an empty object).
    for item in result.get("paths", {}).values():
        for method, operation in item.items():
            body = operation.get("requestBody")
            if body is not None and operation.get("operationId") not in BODY_OPTIONAL:
                body["required"] = True
            if method in ("post", "patch"):  # every write takes a key, and a key sent with another request is a 409
                operation.setdefault("responses", {}).setdefault(
                    "409", {"description": KEY_REUSED, "content": {"application/json": {"schema": ERROR_REF}}}
                )
            _statuses_complete(operation)
            if method in ("post", "patch"):
                _idempotency_declared(operation)
    return result


# Hand responses: one component per variant, discriminated by the `variant` beside `input`.
BY_VARIANT = ("HandWrite", "HandListItem", "Revision")


def by_variant(name: str, base: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """`name` (a response with `variant` and a hand `input`) as `oneOf` one component per variant
    (`<name><Variant>`: `variant` that key, `input` that variant's hand), discriminated by `variant`, so a
    generated client parses each hand whole (an `anyOf` over the variants' hands keeps the first that fits)."""
    found: dict[str, dict[str, Any]] = {}
    for key in VARIANTS:
        properties = dict(base["properties"])
        described = properties["variant"].get("description", "")
        properties["variant"] = {"type": "string", "enum": [key], "description": described}
        hand = properties["input"]
        properties["input"] = {
            "allOf": [{"$ref": f"{REF}HandInput{variant_name(key)}"}],
            "nullable": True,
            **({"description": hand["description"]} if "description" in hand else {}),
        }
        found[f"{name}{variant_name(key)}"] = {**base, "properties": properties}
    found[name] = {
        "oneOf": [{"$ref": f"{REF}{name}{variant_name(key)}"} for key in VARIANTS],
        "discriminator": {
            "propertyName": "variant",
            "mapping": {key: f"{REF}{name}{variant_name(key)}" for key in VARIANTS},
        },
        **({"description": base["description"]} if "description" in base else {}),
    }
    return found


# Every field of these is optional and the server takes a call with no body at all: so does the schema.
BODY_OPTIONAL = frozenset(
    {"session_close", "session_reopen", "event_finish", "session_what_if", "event_share_create", "event_share_revoke"}
)
STRICT_BODIES = (
    "HandCorrect",
    "HandVoid",
    "ApiTokenCreate",
    "PatchedPlayerRename",
    "PlayerMerge",
    "EventCreate",
    "CheckIn",
    "RoundDraw",
    "RoundSeating",
    "AdjustmentCreate",
)
ERROR_REF = {"$ref": f"{REF}Error"}
# Statuses any call can get besides its own, each in the one error shape.
KEY_REUSED = "the `Idempotency-Key` went with another request before (`client_key.reused`)"
EVERY_CALL = {
    "406": "the `Accept` header asks for a format this address does not give",
    "429": "too many requests: wait `Retry-After` seconds",
}
WITH_BODY = {
    "413": "the body is larger than the server takes (`BAIFEN_MAX_BODY_BYTES`, 5 MB by default)",
    "415": "the body is not JSON (`Content-Type: application/json`)",
}
# What the production server (gunicorn, `make serve`) answers before a request reaches the API, with its own small
# HTML page and none of the API's headers: a client can meet them on any call, so they are documented on every one.
BEFORE_THE_API = {
    "414": "the request line (method, path and query) is longer than the server reads (4,094 bytes); "
    "gunicorn's HTML page, not the error shape",
    "431": "a request header is longer than the server reads (8,190 bytes), or there are more than 100; "
    "gunicorn's HTML page, not the error shape",
}
BEFORE_THE_API_CONTENT = {"text/html": {"schema": {"type": "string"}}}


ETAG_HEADER = {
    "schema": {"type": "string"},
    "description": "a hash of the answer's body: send it back as `If-None-Match` for a 304 while it is unchanged",
}
IF_NONE_MATCH = {
    "in": "header",
    "name": "If-None-Match",
    # No pattern: HTTP has a server ignore a value it cannot read (an answer, not a refusal).
    "schema": {"type": "string"},
    "description": "the `ETag` of an answer you have: a 304 without a body while it is still the answer",
}
RETRY_AFTER = {"schema": {"type": "integer", "minimum": 0}, "description": "seconds to wait before trying again"}


EVERY_ANSWER_HEADERS = {
    "X-Request-Id": {
        "schema": {"type": "string"},
        "description": "the request's own `X-Request-Id` (letters, digits, `._:-`, up to 128) or one made for it; "
        "the server's log lines name it",
    },
    "RateLimit-Limit": {
        "schema": {"type": "integer", "minimum": 0},
        "description": "requests allowed in the window (once the call is authenticated)",
    },
    "RateLimit-Remaining": {"schema": {"type": "integer", "minimum": 0}, "description": "requests left in it"},
    "RateLimit-Reset": {"schema": {"type": "integer", "minimum": 0}, "description": "seconds until one frees up"},
}


def _headers_complete(operation: dict[str, Any]) -> None:
    """The headers a client relies on: the request id and rate limit on every answer, ETag and If-None-Match where
    a read answers 304, Retry-After on a 429."""
    responses = operation["responses"]
    for code, response in responses.items():
        if code not in BEFORE_THE_API:
            response.setdefault("headers", {}).update(EVERY_ANSWER_HEADERS)
    if "304" in responses:
        for code in ("200", "304"):
            responses[code].setdefault("headers", {})["ETag"] = ETAG_HEADER
        parameters = operation.setdefault("parameters", [])
        if not any(p.get("in") == "header" and p.get("name") == "If-None-Match" for p in parameters):
            parameters.append(IF_NONE_MATCH)
    responses["429"].setdefault("headers", {})["Retry-After"] = RETRY_AFTER


IDEMPOTENCY_KEY = {
    "in": "header",
    "name": "Idempotency-Key",
    "schema": {"type": "string", "maxLength": 255, "pattern": CLEAN_TEXT},
    "description": "a key the client makes for this request (at most 255 characters, no control characters, kept at "
    "least a day): a retry "
    "with the same key and request gets the first answer again (`Idempotent-Replayed: true`); another request "
    "under the key is a 409 `client_key.reused`",
}
IDEMPOTENT_REPLAYED = {
    "schema": {"type": "string", "enum": ["true"]},
    "description": "`true` when this is the answer given before to this `Idempotency-Key`",
}
LOCATION = {"schema": {"type": "string", "format": "uri"}, "description": "the address of what was made (its GET)"}


def _idempotency_declared(operation: dict[str, Any]) -> None:
    """A write's `Idempotency-Key` request header, its answers' `Idempotent-Replayed` (settlement/api/idempotency.py)
    and a 201's `Location`."""
    parameters = operation.setdefault("parameters", [])
    if not any(p.get("in") == "header" and p.get("name") == "Idempotency-Key" for p in parameters):
        parameters.append(IDEMPOTENCY_KEY)
    for code, response in operation["responses"].items():
        if code.startswith("2"):
            response.setdefault("headers", {})["Idempotent-Replayed"] = IDEMPOTENT_REPLAYED
        if code == "201":
            response["headers"]["Location"] = LOCATION


def _statuses_complete(operation: dict[str, Any]) -> None:
    """Every status a client can get, with the error shape; no response without a description."""
    responses = operation.setdefault("responses", {})
    extra = {**EVERY_CALL, **(WITH_BODY if "requestBody" in operation else {})}
    for code, described in extra.items():
        responses.setdefault(code, {"description": described, "content": {"application/json": {"schema": ERROR_REF}}})
    for code, described in BEFORE_THE_API.items():
        responses.setdefault(code, {"description": described, "content": BEFORE_THE_API_CONTENT})
    _headers_complete(operation)
    for code, response in responses.items():
        if not response.get("description"):
            response["description"] = operation.get("summary", "") if code.startswith("2") else code


@extend_schema_field({"$ref": f"{REF}HandInput"})
class HandInputField(serializers.JSONField):
    """A hand as entered: typed in the schema per variant; the rules engine checks it."""


@extend_schema_field({"allOf": [{"$ref": f"{REF}HandInput"}], "nullable": True})
class NullableHandInputField(serializers.JSONField):
    """A hand as entered, or null (a void)."""


@extend_schema_field({"$ref": f"{REF}Options"})
class OptionsField(serializers.JSONField):
    """Some options of the session's variant: the rules engine checks them."""


@extend_schema_field({"$ref": f"{REF}ResolvedOptions"})
class ResolvedOptionsField(serializers.JSONField):
    """Every option of the session's variant, resolved."""
