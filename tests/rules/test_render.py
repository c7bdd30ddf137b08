"""The results document renders a hand's receipt straight from the engine's messages: the same text as the stored
receipt (message keys as JSON, `hand_receipt`) rendered later (`receipt_render`), in both languages."""

from __future__ import annotations

import json

import pytest

from settlement.rules.base import GameEndHow, Msg, SeatName
from settlement.rules.document import document_parse
from settlement.rules.registry import VARIANTS
from settlement.rules.session import (
    game_receipt,
    game_render,
    hand_receipt,
    msg_dump,
    msg_load,
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


def test_a_stored_game_carries_the_hand_numbers_it_is_given():
    # The ledger numbers its hands itself (voided ones leave gaps): a stored game names the ledger's numbers.
    doc = document_parse(
        {
            "variant": "baifen.benxi",
            "players": ["甲", "乙", "丙", "丁"],
            "hands": [{"declarer": 0, "bid": 100, "captured": 0}],
        },
        variants=VARIANTS,
    )
    game = session_replay(doc).games[0]
    assert (game.first_hand, game.last_hand) == (1, 1)
    stored = game_receipt(game, first_hand=3, last_hand=7)
    assert (stored["first_hand"], stored["last_hand"]) == (3, 7)


def test_a_message_parameter_is_stored_as_plain_data_or_refused():
    # An enum is text already (kept as it is); a seat is tagged to be named later; anything else is refused.
    msg = Msg(key="k", params={"how": GameEndHow.TARGET, "seat": SeatName(2), "n": 5})
    stored = msg_dump(msg)
    assert json.loads(json.dumps(stored)) == {"key": "k", "params": {"how": "target", "seat": {"$seat": 2}, "n": 5}}
    assert msg_load(stored) == msg
    with pytest.raises(TypeError, match=r"^a message parameter that is not plain data: \[1, 2\]$"):
        msg_dump(Msg(key="k", params={"bad": [1, 2]}))
