"""The leagues API: create a league (with events, or add them), read it and its table; refusals named."""

from __future__ import annotations

import pytest

from settlement.models import Event, League
from tests.factories import BENXI_EXAMPLE

from .conftest import assert_error

pytestmark = pytest.mark.django_db


def _event(client, slug, name, **fields):
    body = {"name": name, "variant": "baifen.benxi", "players": ["甲", "乙", "丙", "丁"], **fields}
    created = client.post(f"/api/v1/clubs/{slug}/events/", body, format="json")
    assert created.status_code == 201, created.json()
    return created.json()["id"]


def _evening(client, slug, name, hands, **fields):
    """An event of the four players, one round, `hands` recorded at its table: the event's id and each player's
    table total as the session reports it."""
    event = _event(client, slug, name, **fields)
    drawn = client.post(f"/api/v1/events/{event}/rounds/", {"draw": "random"}, format="json").json()
    (table,) = drawn["tables"]
    for hand in hands:
        assert client.post(f"/api/v1/sessions/{table['session']}/hands/", hand, format="json").status_code == 201
    totals = client.get(f"/api/v1/sessions/{table['session']}/").json()["totals"]
    return event, {p["id"]: total for p, total in zip(table["players"], totals, strict=True)}


def test_a_league_of_two_events_totals_each_player_s_event_totals(table):
    """End to end: two evenings with hands, a league of both; each league total is the sum of the event totals."""
    client = table.client("owner")
    slug = table.club.slug
    first, first_totals = _evening(client, slug, "周五晚", BENXI_EXAMPLE[:3])
    created = client.post(f"/api/v1/clubs/{slug}/leagues/", {"name": "冬季联赛", "events": [first]}, format="json")
    assert created.status_code == 201, created.json()
    league = created.json()
    assert created["Location"].endswith(f"/api/v1/leagues/{league['id']}/")
    assert (league["unit"], league["ranking"], [e["id"] for e in league["events"]]) == ("分", "sum", [first])
    second, second_totals = _evening(client, slug, "周六晚", BENXI_EXAMPLE[:4], league=league["id"])
    assert Event.objects.get(pk=second).league_id == league["id"]
    standings = client.get(f"/api/v1/leagues/{league['id']}/standings/")
    assert standings.status_code == 200
    body = standings.json()
    assert body["rule"] and body["unit"] == "分" and [e["id"] for e in body["events"]] == [first, second]
    by_id = {row["player"]["id"]: row for row in body["rows"]}
    assert set(by_id) == set(first_totals) == set(second_totals)
    for player, row in by_id.items():
        assert row["total"] == first_totals[player] + second_totals[player]
        assert [(r["event"], r["total"], r["counted"]) for r in row["events"]] == [
            (first, first_totals[player], True),
            (second, second_totals[player], True),
        ]
    totals = [row["total"] for row in body["rows"]]
    assert totals == sorted(totals, reverse=True) and body["rows"][0]["rank"] == 1


def test_a_best_n_league_states_its_rule(table):
    client = table.client("owner")
    events = [_event(client, "laonian", name) for name in ("一", "二", "三")]
    body = {"name": "春季", "ranking": "best", "best_n": 2, "events": events}
    league = client.post("/api/v1/clubs/laonian/leagues/", body, format="json").json()
    assert league["rule"] == "best 2 of 3 events"
    assert client.get(f"/api/v1/leagues/{league['id']}/").json()["rule"] == "best 2 of 3 events"
    zh = table.client("owner", lang="zh-Hans").get(f"/api/v1/leagues/{league['id']}/standings/").json()
    assert "2" in zh["rule_short"] and "3" in zh["rule_short"] and zh["rule"] != league["rule"]


def test_an_event_is_added_and_one_of_another_unit_is_refused_naming_the_field(table):
    client = table.client("owner")
    league = client.post("/api/v1/clubs/laonian/leagues/", {"name": "冬", "unit": "分"}, format="json").json()
    event = _event(client, "laonian", "晚")
    added = client.post(f"/api/v1/leagues/{league['id']}/events/", {"event": event}, format="json")
    assert added.status_code == 200 and [e["id"] for e in added.json()["events"]] == [event]
    classic = client.post(
        "/api/v1/clubs/laonian/events/", {"name": "六人", "variant": "baifen.classic", "table_size": 6}, format="json"
    ).json()["id"]
    refused = client.post(f"/api/v1/leagues/{league['id']}/events/", {"event": classic}, format="json")
    body = assert_error(refused, 400, "league.unit", field="event")
    assert "注" in body["message"] and "分" in body["message"]
    refused = client.post(
        "/api/v1/clubs/laonian/events/",
        {"name": "六人", "variant": "baifen.classic", "league": league["id"]},
        format="json",
    )
    assert_error(refused, 400, "league.unit", field="league")


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"name": "x"}, "event.choice", "unit"),
        ({"name": "x", "unit": "分", "ranking": "best"}, "league.best_n", "best_n"),
        ({"name": "x", "unit": "分", "best_n": None}, "value.not_integer", "best_n"),
        ({"name": "x", "unit": "分", "events": [99999]}, "league.event_not_found", "events[0]"),
        ({"name": "x", "unit": "分", "colour": "red"}, "field.unknown", "colour"),
    ],
)
def test_a_bad_league_is_a_400_naming_the_field(table, body, code, field):
    refused = table.client("owner").post("/api/v1/clubs/laonian/leagues/", body, format="json")
    assert_error(refused, 400, code, field=field)
    assert not League.objects.exists()


def test_a_viewer_reads_the_leagues_but_may_not_create_one_and_another_club_sees_none(table):
    owner = table.client("owner")
    league = owner.post("/api/v1/clubs/laonian/leagues/", {"name": "冬", "unit": "分"}, format="json").json()
    viewer = table.client("viewer")
    assert [r["id"] for r in viewer.get("/api/v1/clubs/laonian/leagues/").json()["results"]] == [league["id"]]
    assert viewer.get(f"/api/v1/leagues/{league['id']}/standings/").status_code == 200
    refused = viewer.post("/api/v1/clubs/laonian/leagues/", {"name": "夏", "unit": "分"}, format="json")
    assert refused.status_code == 403
    outsider = table.client("outsider")
    assert outsider.get(f"/api/v1/leagues/{league['id']}/").status_code == 404
    assert outsider.post(f"/api/v1/leagues/{league['id']}/events/", {"event": 1}, format="json").status_code == 404


def test_a_keyed_create_is_replayed(table):
    client = table.client("owner")
    body = {"name": "冬", "unit": "分"}
    first = client.post("/api/v1/clubs/laonian/leagues/", body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    again = client.post("/api/v1/clubs/laonian/leagues/", body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again["Idempotent-Replayed"] == "true" and again.json()["id"] == first.json()["id"]
    assert League.objects.count() == 1


# --- an event taken out: POST /api/v1/leagues/{id}/events/remove/ ---


def test_an_event_taken_out_leaves_the_league_and_its_table(table):
    client = table.client("owner")
    slug = table.club.slug
    first, first_totals = _evening(client, slug, "周五晚", BENXI_EXAMPLE[:3])
    second, _ = _evening(client, slug, "周六晚", BENXI_EXAMPLE[:4])
    league = client.post(f"/api/v1/clubs/{slug}/leagues/", {"name": "冬", "events": [first, second]}, format="json")
    league_id = league.json()["id"]
    removed = client.post(f"/api/v1/leagues/{league_id}/events/remove/", {"event": second}, format="json")
    assert removed.status_code == 200, removed.json()
    assert [e["id"] for e in removed.json()["events"]] == [first]
    body = client.get(f"/api/v1/leagues/{league_id}/standings/").json()
    assert [e["id"] for e in body["events"]] == [first]
    assert {row["player"]["id"]: row["total"] for row in body["rows"]} == first_totals
    assert Event.objects.get(pk=second).league_id is None


def test_taking_out_an_event_not_in_the_league_is_a_400_naming_event(table):
    client = table.client("owner")
    league = client.post("/api/v1/clubs/laonian/leagues/", {"name": "冬", "unit": "分"}, format="json").json()
    event = _event(client, "laonian", "晚")
    url = f"/api/v1/leagues/{league['id']}/events/remove/"
    assert_error(client.post(url, {"event": event}, format="json"), 400, "league.event_not_in", field="event")
    assert_error(client.post(url, {"event": 99999}, format="json"), 400, "league.event_not_found", field="event")
    assert_error(client.post(url, {}, format="json"), 400, "field.required", field="event")
    assert_error(client.post(url, {"event": None}, format="json"), 400, "value.not_integer", field="event")


def test_a_viewer_may_not_take_an_event_out(table):
    owner = table.client("owner")
    event = _event(owner, "laonian", "晚")
    league = owner.post("/api/v1/clubs/laonian/leagues/", {"name": "冬", "events": [event]}, format="json").json()
    url = f"/api/v1/leagues/{league['id']}/events/remove/"
    assert table.client("viewer").post(url, {"event": event}, format="json").status_code == 403
    assert table.client("outsider").post(url, {"event": event}, format="json").status_code == 404
    assert Event.objects.get(pk=event).league_id == league["id"]
