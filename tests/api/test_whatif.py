"""`POST sessions/{id}/what-if/`: the session's hands under another preset or options; refusals; nothing written."""

from __future__ import annotations

import pytest

from tests.factories import BENXI_EXAMPLE, record_hands, written

from .conftest import assert_error

pytestmark = pytest.mark.django_db


def _url(table) -> str:
    return f"/api/v1/sessions/{table.session.pk}/what-if/"


def test_the_answer_is_the_results_document_under_the_other_options(table):
    record_hands(table.session, table.owner, BENXI_EXAMPLE[2:])  # the whole example, target 205
    before = written()

    response = table.client("viewer").post(_url(table), {"options": {"target": 300}}, format="json")

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["options"]["target"] == 300
    assert body["changed"] == ["target"]
    # Worked in rules/baifen.md (target 205): 盘 1 to B at hand 4, 盘 2 to A at hand 5.
    assert body["actual_totals"] == [315, 230, 315, 230]
    assert [hand["n"] for hand in body["hands"]] == [1, 2, 3, 4, 5]
    assert body["session"] == table.session.pk
    assert written() == before


def test_a_preset_by_name(table):
    response = table.client("owner").post(_url(table), {"preset": "本溪 300"}, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["options"]["target"] == 300


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"preset": "本溪 999"}, "preset.unknown", "preset"),
        ({"options": {"targte": 300}}, "option.unknown", "options.targte"),
        ({"options": {"target": "x"}}, "option.invalid", "options.target"),
        ({"option": {}}, "field.unknown", "option"),
    ],
)
def test_refusals_name_the_field(table, body, code, field):
    response = table.client("owner").post(_url(table), body, format="json")

    assert_error(response, 400, code, field=field)


def test_the_refusal_is_in_the_callers_language(table):
    response = table.client("owner", lang="zh-hans").post(_url(table), {"preset": "本溪 999"}, format="json")

    assert "没有预设" in response.json()["message"]


def test_another_clubs_session_is_not_found(table):
    response = table.client("outsider").post(_url(table), {}, format="json")

    assert response.status_code == 404
