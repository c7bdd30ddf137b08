"""Every golden case, ours and the shared ones, replayed in-process (the CLI path is `check_golden.py`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from settlement.rules.base import RulesError
from settlement.rules.session import session_settle

from ..conftest import OWN_GOLDEN, SHARED_GOLDEN, SHARED_GOLDEN_NEXT

CASES = sorted([*SHARED_GOLDEN.glob("*.json"), *SHARED_GOLDEN_NEXT.glob("*.json"), *OWN_GOLDEN.glob("*.json")])
# The shared refusals name the hand and the field only; the code each must be refused with, read from the rules.
SHARED_CODES = {
    "bad-baifen-benxi-place2-bid80.json": "bid.place_minimum",
    "bad-baifen-classic-over-deck.json": "points.over_deck",
    "bad-biaofen-points-not-5.json": "points.not_multiple_of_5",
    "bad-erguai-partner-is-declarer.json": "partner.is_declarer",
    "bad-gunzi-unused-field.json": "field.unknown",
    "bad-hongxingwu-multiplier.json": "multiplier.not_power_of_two",
}


def _differs(expect: Any, got: Any, path: str = "$") -> str | None:
    """Where `got` departs from the partial expectation `expect` (dicts: the keys named; lists: item by item)."""
    if isinstance(expect, dict):
        if not isinstance(got, dict):
            return f"{path}: not an object"
        for key, value in expect.items():
            if key not in got:
                return f"{path}.{key}: missing"
            if found := _differs(value, got[key], f"{path}.{key}"):
                return found
        return None
    if isinstance(expect, list):
        if not isinstance(got, list) or len(got) != len(expect):
            return f"{path}: expected {expect!r}, got {got!r}"
        for i, (e, g) in enumerate(zip(expect, got, strict=True)):
            if found := _differs(e, g, f"{path}[{i}]"):
                return found
        return None
    return None if expect == got else f"{path}: expected {expect!r}, got {got!r}"


def test_the_next_shared_golden_cases_are_replayed():
    # golden-next holds the cases of rules the reference added lately (6-player classic 打百分).
    assert [p.name for p in SHARED_GOLDEN_NEXT.glob("*.json")] and set(SHARED_GOLDEN_NEXT.glob("*.json")) <= set(CASES)


def test_there_are_golden_cases_of_our_own():
    assert len(list(OWN_GOLDEN.glob("*.json"))) >= 3


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.parent.name}/{p.name}" for p in CASES])
def test_a_golden_case_settles_as_worked_by_hand(path: Path):
    case = json.loads(path.read_text(encoding="utf-8"))
    if "expect_error" in case:
        with pytest.raises(RulesError) as caught:
            session_settle(case["input"])
        want = {"code": SHARED_CODES.get(path.name), **case["expect_error"]}
        # A refusal case names all three; a missing one would otherwise be compared with itself.
        assert {"code", "hand", "field"} <= {k for k, v in want.items() if v is not None}, want
        error = caught.value
        assert (error.code, error.hand, error.field) == (want["code"], want["hand"], want["field"])
    else:
        assert _differs(case["expect"], session_settle(case["input"])) is None
