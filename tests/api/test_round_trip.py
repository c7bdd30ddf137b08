"""Every valid golden session: import through the API, export, import the export: identical results."""

from __future__ import annotations

import json

import pytest

from settlement.models import Session
from tests.conftest import SHARED_GOLDEN

pytestmark = pytest.mark.django_db

GOLDEN = sorted(SHARED_GOLDEN.glob("*.json"))
CASES = {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in GOLDEN}
VALID = [name for name, case in CASES.items() if "expect" in case]
INVALID = [name for name, case in CASES.items() if "expect_error" in case]


def _matches(expect, got):
    """The golden files' partial match: named keys of objects, lists item by item, anything else equal."""
    if isinstance(expect, dict):
        return isinstance(got, dict) and all(key in got and _matches(value, got[key]) for key, value in expect.items())
    if isinstance(expect, list):
        return isinstance(got, list) and len(got) == len(expect) and all(map(_matches, expect, got))
    return expect == got


def test_there_are_golden_documents_both_ways():
    assert len(VALID) >= 5 and len(INVALID) >= 1


@pytest.mark.parametrize("name", VALID)
def test_a_golden_document_survives_import_export_import_with_identical_results(table, name):
    case = CASES[name]
    client = table.client("owner")
    first = client.post("/api/v1/clubs/laonian/sessions/", case["input"], format="json")
    assert first.status_code == 201, first.content
    results = first.json()
    assert _matches(case["expect"], results)  # the figures worked by hand in the rules files

    exported = client.get(f"/api/v1/sessions/{results['id']}/export/")
    assert exported.status_code == 200
    again = client.post("/api/v1/clubs/laonian/sessions/", exported.json(), format="json")
    assert again.status_code == 201, again.content
    copy = again.json()
    assert copy["id"] != results["id"]
    own = ("id", "created", "updated")  # the copy is another session, made later
    assert {k: v for k, v in copy.items() if k not in own} == {k: v for k, v in results.items() if k not in own}
    assert client.get(f"/api/v1/sessions/{copy['id']}/export/").json() == exported.json()


@pytest.mark.parametrize("name", INVALID)
def test_a_bad_golden_document_is_refused_with_its_hand_and_field(table, name):
    case = CASES[name]
    response = table.client("owner").post("/api/v1/clubs/laonian/sessions/", case["input"], format="json")
    assert response.status_code == 400
    body = response.json()
    assert (body["hand"], body["field"]) == (case["expect_error"]["hand"], case["expect_error"]["field"])
    assert body["code"] and body["message"]
    assert Session.objects.filter(club=table.club).count() == 1  # the fixture's session only
