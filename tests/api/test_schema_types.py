"""The schema's typed bodies: per-variant hands and options, built from the engine's description.

Bodies are checked with `jsonschema` against the components the API serves (OpenAPI 3.0's `nullable`
turned into JSON Schema's `null` type), so what the schema says is what the server takes.
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from django.core.management import call_command

from settlement.api.schema import components, variant_name
from settlement.rules.entry import option_defaults
from settlement.rules.registry import VARIANTS
from tests.conftest import ROOT

GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.json"))


def _json_schema(node: Any) -> Any:
    """OpenAPI 3.0 → JSON Schema: `nullable: true` becomes `anyOf` it or null."""
    if isinstance(node, list):
        return [_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: _json_schema(value) for key, value in node.items() if key != "nullable"}
    if node.get("nullable"):
        return {"anyOf": [converted, {"type": "null"}]}
    return converted


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("schema") / "schema.json"
    call_command("spectacular", "--format", "openapi-json", "--file", str(path))
    return json.loads(path.read_text(encoding="utf-8"))


def validator(served: dict[str, Any], name: str) -> jsonschema.Validator:
    root = _json_schema({"components": served["components"]})
    return jsonschema.Draft7Validator({**root, "$ref": f"#/components/schemas/{name}"})


def is_valid(served: dict[str, Any], name: str, body: Any) -> bool:
    return validator(served, name).is_valid(body)


def test_the_served_schema_holds_the_components_built_from_the_engine(served):
    for name, schema in components().items():
        assert served["components"]["schemas"][name] == schema


# Each variant's required fields of a scored hand, from ../shared/rules/README.md's Hand fields table:
# `declarer` is required except on later hands of a level game (the rotation names it), `bid` wherever a
# variant bids, `partner` where a friend is called, `captured` except on 标分's surrender.
REQUIRED = {
    "baifen.benxi": ["declarer", "bid", "captured"],
    "baifen.fushun": ["declarer", "bid", "captured"],
    "baifen.shenyang": ["declarer", "bid", "captured"],
    "baifen.classic": ["declarer", "bid", "partner", "captured"],
    "erguai": ["declarer", "bid", "partner", "captured"],
    "biaofen": ["declarer", "bid"],
    "hongxingwu": ["captured"],
    "gunzi": ["captured"],
    "shengji": ["captured"],
}


@pytest.mark.parametrize("key", list(VARIANTS))
def test_each_variants_scored_hand_requires_its_fields_and_a_redeal_only_its_reason(key):
    scored, redeal = (components()[f"HandInput{variant_name(key)}{kind}"] for kind in ("Scored", "Redeal"))
    assert sorted(scored["required"]) == sorted(REQUIRED[key])
    assert redeal["required"] == ["redeal"]
    assert "redeal" not in scored["properties"]


@pytest.mark.parametrize(
    ("body", "valid"),
    [
        ({}, False),  # the issue's defect: `{}` was schema-valid, then refused
        ({"declarer": 1, "bid": 85, "captured": 20}, True),  # 本溪
        ({"declarer": 1, "bid": 85, "captured": 22}, False),  # points are multiples of 5
        ({"declarer": 1, "bid": 85, "captured": 20, "typo": 1}, False),
        ({"redeal": "all_pass", "dealer": 1}, True),
        ({"redeal": "all_pass", "captured": 0}, False),  # a redeal carries no score
        ({"captured": 40, "kou_di": True, "bottom_points": 10, "bottom_multiplier": 4}, True),  # 红星五, rotation
        ({"declarer": 0, "bid": 100, "contract": "bao", "partner": None, "captured": 0}, True),  # 打二鬼 alone
        ({"declarer": 0, "bid": 100, "contract": "bao", "partner": 6, "captured": 0}, False),  # seat 6 of 0–5
    ],
)
def test_a_hand_body_is_valid_when_some_variant_takes_it(served, body, valid):
    assert is_valid(served, "HandInput", body) is valid


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_every_golden_session_is_a_valid_document_exactly_when_the_engine_takes_its_fields(served, path):
    golden = json.loads(path.read_text(encoding="utf-8"))
    document = golden["input"]
    errors = list(validator(served, "SessionDocument").iter_errors(document))
    if path.stem.startswith("bad-"):
        return  # refused by the rules (a bid at a place, a surrender's bombs), which a schema cannot always say
    assert errors == [], [e.message for e in errors]


@pytest.mark.parametrize("key", list(VARIANTS))
def test_every_resolved_option_set_is_valid_under_its_variants_options(served, key):
    variant = VARIANTS[key]
    for players in sorted(variant.player_counts):
        for preset in (None, *variant.presets):
            options = option_defaults(variant, players, preset)
            assert is_valid(served, f"ResolvedOptions{variant_name(key)}", options), (players, preset)
            assert is_valid(served, f"Options{variant_name(key)}", {}), "overrides are all optional"


def test_a_document_names_its_variant_and_takes_that_variants_options_only(served):
    document = {"variant": "baifen.benxi", "players": ["甲", "乙", "丙", "丁"], "hands": []}
    assert is_valid(served, "SessionDocument", document)
    assert is_valid(served, "SessionDocument", {**document, "options": {"target": 205}})
    assert not is_valid(served, "SessionDocument", {**document, "options": {"no_such_option": 1}})
    assert not is_valid(served, "SessionDocument", {**document, "variant": "no.such"})
    assert not is_valid(served, "SessionDocument", {**document, "players": ["甲", "乙", "丙"]})  # 本溪 is for 4
    assert not is_valid(served, "SessionDocument", {**document, "venue": None})


# The calls the server answers with no body at all (every field optional): the schema lets them go without.
BODY_OPTIONAL = (
    "session_close",
    "session_reopen",
    "event_finish",
    "session_what_if",
    "event_share_create",
    "event_share_revoke",
)


def test_request_bodies_that_carry_data_are_required(served):
    for path, item in served["paths"].items():
        for method, op in item.items():
            if "requestBody" in op:
                required = op["operationId"] not in BODY_OPTIONAL
                assert op["requestBody"].get("required", False) is required, (method, path)


def test_tribute_next_is_in_the_hand_results(served):
    hand = served["components"]["schemas"]["HandResult"]["properties"]
    assert hand["tribute_next"]["nullable"] is True and "打滚子" in hand["tribute_next"]["description"]


def _operations(served):
    for path, item in served["paths"].items():
        for method, op in item.items():
            yield f"{method.upper()} {path}", op


def test_every_response_is_described_and_every_error_status_has_the_error_shape(served):
    error = {"$ref": "#/components/schemas/Error"}
    for name, op in _operations(served):
        expected = {"401", "406", "414", "429", "431"} | ({"413", "415"} if "requestBody" in op else set())
        assert expected <= set(op["responses"]), name
        for code, response in op["responses"].items():
            assert response["description"].strip(), (name, code)
            if code in {"414", "431"}:
                # gunicorn answers these itself, before the API: its HTML page, without the API's headers.
                assert set(response["content"]) == {"text/html"} and "headers" not in response, (name, code)
            elif code.startswith(("4", "5")):
                assert response["content"]["application/json"]["schema"] == error, (name, code)


def test_every_tag_is_described(served):
    used = {tag for _, op in _operations(served) for tag in op["tags"]}
    described = {tag["name"]: tag["description"] for tag in served["tags"]}
    assert used == set(described) and all(described.values())


def test_the_examples_are_the_golden_sessions_and_valid_under_the_schema(served):
    shared = ROOT.parent / "shared"
    post = served["paths"]["/api/v1/clubs/{slug}/sessions/"]["post"]
    examples = post["requestBody"]["content"]["application/json"]["examples"]
    assert len(examples) >= 6
    for example in examples.values():
        document = example["value"]
        assert is_valid(served, "SessionDocument", document), example["summary"]
        # The copy in the project is the golden file's input as it is (when ../shared is beside the project).
        golden = next(shared.glob(f"golden*/{example['summary']}.json"), None)
        if golden is not None:
            assert json.loads(golden.read_text(encoding="utf-8"))["input"] == document
    hands = served["paths"]["/api/v1/sessions/{session_id}/hands/"]["post"]
    for example in hands["requestBody"]["content"]["application/json"]["examples"].values():
        variant = example["summary"].split(":")[0]
        assert is_valid(served, f"HandInput{variant_name(variant)}", example["value"]), example["summary"]


# (A lone surrogate, "x\udc00", is refused by the services and left out of the patterns: see schema.py.)
TEXTS = ["表格", "  a  ", "", "   ", "\u200b", "\u200bx", "\u202e", "a\x00b", "a\x85", "\U0001f600", "a\nb", "\u3000"]


@pytest.mark.parametrize("text", TEXTS)
def test_the_text_patterns_take_exactly_what_the_services_take(text):
    import re

    from settlement.api.schema import NAME_TEXT, REASON_TEXT
    from settlement.ledger import LedgerError
    from settlement.ledger.values import name_clean, text_clean

    def taken(clean) -> bool:
        try:
            return bool(clean(text, field="x", limit=500))
        except LedgerError:
            return False

    assert bool(re.search(REASON_TEXT, text)) is taken(text_clean)
    assert bool(re.search(NAME_TEXT, text)) is taken(name_clean)
