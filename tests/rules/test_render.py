"""The results document renders a hand's receipt straight from the engine's messages: the same text as the stored
receipt (message keys as JSON, `hand_receipt`) rendered later (`receipt_render`), in both languages."""

from __future__ import annotations

import json

import pytest

from settlement.rules.document import document_parse
from settlement.rules.registry import VARIANTS
from settlement.rules.session import (
    game_receipt,
    game_render,
    hand_receipt,
    receipt_render,
    results_document,
    session_replay,
)
from tests.conftest import SHARED_GOLDEN

CASES = [
    path for path in sorted(SHARED_GOLDEN.glob("*.json")) if "expect" in json.loads(path.read_text(encoding="utf-8"))
]


@pytest.mark.parametrize("lang", ["zh-Hans", "en"])
@pytest.mark.parametrize("path", CASES, ids=lambda path: path.stem)
def test_the_results_document_equals_the_stored_receipts_rendered_later(path, lang):
    doc = document_parse(json.loads(path.read_text(encoding="utf-8"))["input"], variants=VARIANTS)
    result = session_replay(doc)
    document = results_document(result, lang=lang)
    players = doc.players
    assert document["hands"] == [
        receipt_render(hand_receipt(hand, doc.variant), lang=lang, players=players) for hand in result.hands
    ]
    assert document["games"] == [game_render(game_receipt(game), lang=lang, players=players) for game in result.games]
    # and the stored form survives JSON, as HandState keeps it
    stored = [json.loads(json.dumps(hand_receipt(hand, doc.variant))) for hand in result.hands]
    assert [receipt_render(r, lang=lang, players=players) for r in stored] == document["hands"]
