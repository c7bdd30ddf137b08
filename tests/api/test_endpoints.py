"""Closing and reopening a session, and a hand's revisions, through the API."""

from __future__ import annotations

import pytest

from settlement.models import Session, SessionEvent
from tests.factories import BENXI_EXAMPLE

from .conftest import assert_error

pytestmark = pytest.mark.django_db


def _url(table, path: str) -> str:
    return f"/api/v1/sessions/{table.session.pk}/{path}"


@pytest.mark.parametrize("who", ["owner", "scorekeeper"])
def test_owners_and_scorekeepers_close_a_session_and_no_hand_can_be_added(table, who):
    client = table.client(who)
    response = client.post(_url(table, "close/"), format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["id"], body["status"]) == (table.session.pk, "closed") and body["closed_at"]
    assert_error(
        client.post(_url(table, "hands/"), BENXI_EXAMPLE[2], format="json"), 409, "session.closed", field="session"
    )
    # Closing again changes nothing and is no error.
    again = client.post(_url(table, "close/"), {}, format="json")
    assert again.status_code == 200 and again.json() == body
    assert SessionEvent.objects.filter(session=table.session, kind="closed").count() == 1


def test_only_an_owner_reopens_and_then_hands_go_on(table):
    table.client("owner").post(_url(table, "close/"), format="json")
    assert_error(table.client("scorekeeper").post(_url(table, "reopen/"), format="json"), 403, "permission_denied")
    response = table.client("owner").post(_url(table, "reopen/"), format="json")
    assert response.status_code == 200
    assert (response.json()["status"], response.json()["closed_at"]) == ("open", None)
    assert table.client("scorekeeper").post(_url(table, "hands/"), BENXI_EXAMPLE[2], format="json").status_code == 201


@pytest.mark.parametrize(("who", "status"), [("viewer", 403), ("outsider", 404), ("anonymous", 401)])
@pytest.mark.parametrize("action", ["close/", "reopen/"])
def test_closing_and_reopening_are_refused_to_others(table, who, status, action):
    response = table.client(who).post(_url(table, action), format="json")
    assert response.status_code == status
    assert Session.objects.get(pk=table.session.pk).status == "open"


def test_a_hands_revisions_say_who_when_why_and_what(table):
    client = table.client("owner")
    client.post(
        _url(table, "hands/2/correct/"), {"hand": {**BENXI_EXAMPLE[1], "captured": 25}, "reason": "25"}, format="json"
    )
    client.post(_url(table, "hands/2/void/"), {"reason": "twice"}, format="json")
    revisions = table.client("viewer").get(_url(table, "hands/2/revisions/")).json()["results"]
    assert [(r["number"], r["reason"], r["void"]) for r in revisions] == [
        (1, "", False),
        (2, "25", False),
        (3, "twice", True),
    ]
    assert {r["author"] for r in revisions} == {table.owner.username}
    assert revisions[0]["input"] == BENXI_EXAMPLE[1] and revisions[1]["input"]["captured"] == 25
    assert revisions[2]["input"] is None
    assert all(r["created"] for r in revisions)


def test_revisions_of_a_hand_that_is_not_there_are_a_404_naming_it(table):
    assert_error(
        table.client("viewer").get(_url(table, "hands/7/revisions/")), 404, "hand.not_found", hand=7, field="number"
    )


def test_another_clubs_hand_revisions_are_a_404(table):
    assert_error(table.client("outsider").get(_url(table, "hands/1/revisions/")), 404, "not_found")
