"""The events API's director's actions: finish the event, a round's late hands, substitutes; refusals named."""

from __future__ import annotations

import pytest

from settlement.models import Event, Session

from .conftest import assert_error

pytestmark = pytest.mark.django_db


def _event(table, count=8, **fields):
    client = table.client("owner")
    body = {"name": "周五晚", "variant": "baifen.benxi", "players": [f"P{i}" for i in range(count)], **fields}
    event = client.post(f"/api/v1/clubs/{table.club.slug}/events/", body, format="json").json()
    return event["id"], [p["id"] for p in event["players"]]


def _draw(table, event, **body):
    drawn = table.client("owner").post(f"/api/v1/events/{event}/rounds/", {"draw": "random", **body}, format="json")
    assert drawn.status_code == 201, drawn.json()
    return drawn.json()


def test_finishing_with_open_tables_is_a_409_then_close_open_finishes_and_the_standings_are_final(table):
    event, _ = _event(table)
    _draw(table, event)
    client = table.client("owner")
    refused = client.post(f"/api/v1/events/{event}/finish/", {}, format="json")
    assert_error(refused, 409, "round.tables_open", field="close_open")
    finished = client.post(f"/api/v1/events/{event}/finish/", {"close_open": True}, format="json")
    assert finished.status_code == 200, finished.json()
    assert finished.json()["state"] == "finished"
    assert Session.objects.filter(event_table__round__event_id=event, status="open").count() == 0
    standings = client.get(f"/api/v1/events/{event}/standings/").json()
    assert standings["final"] is True
    again = client.post(f"/api/v1/events/{event}/rounds/", {"draw": "random", "close_open": True}, format="json")
    assert_error(again, 409, "event.finished", field="event")


def test_the_finish_replays_under_its_key(table):
    event, _ = _event(table)
    client = table.client("owner")
    first = client.post(f"/api/v1/events/{event}/finish/", {}, format="json", HTTP_IDEMPOTENCY_KEY="fin-1")
    again = client.post(f"/api/v1/events/{event}/finish/", {}, format="json", HTTP_IDEMPOTENCY_KEY="fin-1")
    assert (first.status_code, again.status_code) == (200, 200)
    assert again["Idempotent-Replayed"] == "true" and again.content == first.content


@pytest.mark.parametrize(("who", "status"), [("viewer", 403), ("outsider", 404)])
def test_only_the_club_s_director_finishes(table, who, status):
    event, _ = _event(table)
    response = table.client(who).post(f"/api/v1/events/{event}/finish/", {}, format="json")
    assert response.status_code == status
    assert Event.objects.get(pk=event).state == "open"


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"close_open": "yes"}, "value.not_bool", "close_open"),
        ({"close_open": None}, "value.not_bool", "close_open"),
    ],
)
def test_a_bad_finish_is_a_400_naming_the_field(table, body, code, field):
    event, _ = _event(table)
    assert_error(
        table.client("owner").post(f"/api/v1/events/{event}/finish/", body, format="json"), 400, code, field=field
    )


def test_late_hands_are_allowed_and_refused_again_through_the_api(table):
    event, _ = _event(table, late_hands="refused")
    _draw(table, event, length_minutes=30)
    client = table.client("owner")
    allowed = client.post(f"/api/v1/events/{event}/rounds/1/late/", {"allowed": True}, format="json")
    assert allowed.status_code == 200, allowed.json()
    assert (allowed.json()["n"], allowed.json()["late_allowed"]) == (1, True)
    refused = client.post(f"/api/v1/events/{event}/rounds/1/late/", {"allowed": False}, format="json")
    assert refused.json()["late_allowed"] is False


@pytest.mark.parametrize(
    ("path", "body", "status", "code", "field"),
    [
        ("rounds/2/late/", {"allowed": True}, 400, "round.not_found", "round"),
        ("rounds/1/late/", {}, 400, "field.required", "allowed"),
        ("rounds/1/late/", {"allowed": 1}, 400, "value.not_bool", "allowed"),
    ],
)
def test_a_bad_late_call_is_refused_naming_the_field(table, path, body, status, code, field):
    event, _ = _event(table)
    _draw(table, event)
    response = table.client("owner").post(f"/api/v1/events/{event}/{path}", body, format="json")
    assert_error(response, status, code, field=field)


BENXI_FIRST = {"dealer": 0, "declarer": 0, "bid": 80, "captured": 15}


def test_a_substitute_is_a_201_and_the_standings_count_the_seat_for_the_absent_player(table):
    event, _ = _event(table)
    drawn = _draw(table, event, seed=3)
    client = table.client("owner")
    first = drawn["tables"][0]
    absent = first["players"][1]
    made = client.post(
        f"/api/v1/events/{event}/substitutes/",
        {"round": 1, "absent": absent["id"], "substitute": "李娜"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="sub-1",
    )
    assert made.status_code == 201, made.json()
    body = made.json()
    placed = (body["table"], body["session"], body["seat"], body["substitute_result"])
    assert placed == (1, first["session"], 1, "absent")
    assert (body["absent"], body["substitute"]["name"]) == (absent, "李娜")
    # The 本溪 example's first hand: the seats score 80, 15, 80, 15; the absent player's row counts seat 1's 15.
    assert client.post(f"/api/v1/sessions/{first['session']}/hands/", BENXI_FIRST, format="json").status_code == 201
    rows = {row["player"]["id"]: row for row in client.get(f"/api/v1/events/{event}/standings/").json()["rows"]}
    assert rows[absent["id"]]["tables_total"] == 15
    (seat,) = rows[absent["id"]]["seats"]
    assert (seat["substitute"], seat["absent"]) == ("李娜", absent["name"])


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"round": 2, "absent": "A", "substitute": "李娜"}, "round.not_found", "round"),
        ({"round": 1, "absent": "OUT", "substitute": "李娜"}, "substitute.absent_not_seated", "absent"),
        ({"round": 1, "absent": "A", "substitute": "B"}, "substitute.already_seated", "substitute"),
        ({"round": 1, "absent": "A"}, "field.required", "substitute"),
        ({"round": 1, "absent": "A", "substitute": None}, "value.not_text", "substitute"),
        ({"round": 1, "absent": "A", "substitute": 999999}, "player.not_found", "substitute"),
    ],
)
def test_a_bad_substitute_is_a_400_naming_the_field(table, body, code, field):
    event, _ = _event(table, count=9)
    drawn = _draw(table, event, seed=3)
    ids = {
        "A": drawn["tables"][0]["players"][1]["id"],
        "B": drawn["tables"][1]["players"][0]["id"],
        "OUT": drawn["sitting_out"][0]["id"],
    }
    body = {k: ids.get(v, v) if isinstance(v, str) else v for k, v in body.items()}
    response = table.client("owner").post(f"/api/v1/events/{event}/substitutes/", body, format="json")
    assert_error(response, 400, code, field=field)


def test_an_event_says_whose_result_a_substitute_s_seat_is(table):
    event, _ = _event(table, substitute_result="substitute")
    assert table.client("owner").get(f"/api/v1/events/{event}/").json()["substitute_result"] == "substitute"
    body = {"name": "周六晚", "variant": "baifen.benxi", "substitute_result": "nobody"}
    bad = table.client("owner").post(f"/api/v1/clubs/{table.club.slug}/events/", body, format="json")
    assert_error(bad, 400, "event.choice", field="substitute_result")
