"""Every golden case, ours and the shared ones, replayed in-process (the CLI path is `check_golden.py`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from settlement.rules.base import RulesError
from settlement.rules.session import session_settle

from ..conftest import OWN_GOLDEN, SHARED_GOLDEN

CASES = sorted([*SHARED_GOLDEN.glob("*.json"), *OWN_GOLDEN.glob("*.json")])


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


def test_there_are_golden_cases_of_our_own():
    assert len(list(OWN_GOLDEN.glob("*.json"))) >= 3


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.parent.name}/{p.name}" for p in CASES])
def test_a_golden_case_settles_as_worked_by_hand(path: Path):
    case = json.loads(path.read_text(encoding="utf-8"))
    if "expect_error" in case:
        with pytest.raises(RulesError) as caught:
            session_settle(case["input"])
        want = case["expect_error"]
        assert caught.value.hand == want.get("hand", caught.value.hand)
        assert caught.value.field == want.get("field", caught.value.field)
    else:
        assert _differs(case["expect"], session_settle(case["input"])) is None
