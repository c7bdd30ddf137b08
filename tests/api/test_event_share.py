"""The events API's big-screen link: made (201 with its token and address, which opens with no login) and revoked
(the address a 410 from then on); the director's calls only; refusals named."""

from __future__ import annotations

import pytest
from django.test import Client

from settlement.models import EventShareLink

from .conftest import assert_error

pytestmark = pytest.mark.django_db


def _event(table):
    body = {"name": "周五晚", "variant": "baifen.benxi", "players": [f"P{i}" for i in range(8)]}
    made = table.client("owner").post(f"/api/v1/clubs/{table.club.slug}/events/", body, format="json")
    assert made.status_code == 201, made.json()
    return made.json()["id"]


@pytest.mark.parametrize("who", ["owner", "scorekeeper"])
def test_the_director_makes_a_link_whose_address_opens_the_big_screen_without_a_login(table, who):
    event = _event(table)
    made = table.client(who).post(f"/api/v1/events/{event}/share/", format="json")
    assert made.status_code == 201, made.json()
    body = made.json()
    assert set(body) == {"token", "url"} and len(body["token"]) == 32
    assert body["url"] == f"http://testserver/e/{body['token']}/" == made["Location"]
    screen = Client().get(f"/e/{body['token']}/")
    assert screen.status_code == 200 and "周五晚" in screen.content.decode()


def test_a_new_link_replaces_the_old_one_and_revoking_makes_it_a_410(table):
    event = _event(table)
    client = table.client("owner")
    first = client.post(f"/api/v1/events/{event}/share/", {}, format="json").json()
    second = client.post(f"/api/v1/events/{event}/share/", {}, format="json").json()
    assert first["token"] != second["token"]
    assert Client().get(f"/e/{first['token']}/").status_code == 410
    revoked = client.post(f"/api/v1/events/{event}/share/revoke/", format="json")
    assert revoked.status_code == 200 and revoked.json() == {"revoked": 1}
    assert Client().get(f"/e/{second['token']}/").status_code == 410
    again = client.post(f"/api/v1/events/{event}/share/revoke/", {}, format="json")
    assert again.json() == {"revoked": 0}


@pytest.mark.parametrize(("who", "status"), [("viewer", 403), ("outsider", 404), ("anonymous", 401)])
@pytest.mark.parametrize("path", ["share/", "share/revoke/"])
def test_only_the_club_s_director_makes_or_revokes_a_link(table, who, status, path):
    event = _event(table)
    link = table.client("owner").post(f"/api/v1/events/{event}/share/", format="json").json()
    response = table.client(who).post(f"/api/v1/events/{event}/{path}", {}, format="json")
    assert response.status_code == status
    assert list(EventShareLink.objects.filter(revoked_at__isnull=True).values_list("token", flat=True)) == [
        link["token"]
    ]


@pytest.mark.parametrize("path", ["share/", "share/revoke/"])
def test_a_body_field_or_a_query_the_call_does_not_take_is_a_400_naming_it(table, path):
    event = _event(table)
    client = table.client("owner")
    assert_error(
        client.post(f"/api/v1/events/{event}/{path}", {"token": "mine"}, format="json"),
        400,
        "field.unknown",
        field="token",
    )
    assert_error(
        client.post(f"/api/v1/events/{event}/{path}?view=tv", {}, format="json"), 400, "field.unknown", field="view"
    )


def test_an_event_that_does_not_exist_is_a_404(table):
    assert table.client("owner").post("/api/v1/events/999999/share/", {}, format="json").status_code == 404
