"""The events API: create, draw rounds whose tables are ordinary sessions, penalties, standings; refusals named."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from settlement.models import Event, Round, Session
from tests.factories import BENXI_EXAMPLE

pytestmark = pytest.mark.django_db


def _create(table, count=16, who="owner", **fields):
    body = {"name": "周五晚", "variant": "baifen.benxi", "players": [f"P{i:02}" for i in range(count)], **fields}
    return table.client(who).post(f"/api/v1/clubs/{table.club.slug}/events/", body, format="json")


def test_sixteen_players_four_balanced_rounds_no_partner_twice_totals_add_up_and_a_penalty_counts(table):
    """The issue's done-test, through the API."""
    client = table.client("owner")
    created = _create(table)
    assert created.status_code == 201, created.json()
    event = created.json()["id"]
    partners: list[frozenset[int]] = []
    seat_totals: dict[int, int] = {}
    for n in range(1, 5):
        drawn = client.post(f"/api/v1/events/{event}/rounds/", {"draw": "balanced", "close_open": True}, format="json")
        assert drawn.status_code == 201, drawn.json()
        body = drawn.json()
        assert body["n"] == n and len(body["tables"]) == 4 and body["sitting_out"] == []
        for t in body["tables"]:
            ids = [p["id"] for p in t["players"]]
            partners += [frozenset((ids[0], ids[2])), frozenset((ids[1], ids[3]))]
            for hand in BENXI_EXAMPLE[:3]:
                recorded = client.post(f"/api/v1/sessions/{t['session']}/hands/", hand, format="json")
                assert recorded.status_code == 201, recorded.json()
            session = client.get(f"/api/v1/sessions/{t['session']}/").json()
            for player_id, total in zip(ids, session["totals"], strict=True):
                seat_totals[player_id] = seat_totals.get(player_id, 0) + total
    assert len(partners) == len(set(partners)) == 32  # no partner twice
    penalised = next(iter(seat_totals))
    penalty = client.post(
        f"/api/v1/events/{event}/adjustments/",
        {"player": penalised, "kind": "penalty", "amount": 7, "reason": "出牌超时"},
        format="json",
    )
    assert penalty.status_code == 201, penalty.json()
    standings = client.get(f"/api/v1/events/{event}/standings/")
    assert standings.status_code == 200
    body = standings.json()
    assert body["rule"] and body["rounds"] == 4
    by_id = {row["player"]["id"]: row for row in body["rows"]}
    assert set(by_id) == set(seat_totals)
    for player_id, total in seat_totals.items():
        expected = total - (7 if player_id == penalised else 0)
        assert by_id[player_id]["total"] == expected
        assert len(by_id[player_id]["seats"]) == 4
    totals = [row["total"] for row in body["rows"]]
    assert totals == sorted(totals, reverse=True)
    assert body["rows"][0]["rank"] == 1


def test_a_round_sits_out_the_odd_player_and_lists_them(table):
    event = _create(table, count=9).json()["id"]
    body = table.client("owner").post(f"/api/v1/events/{event}/rounds/", {"draw": "random"}, format="json").json()
    assert len(body["tables"]) == 2 and len(body["sitting_out"]) == 1
    assert all(Session.objects.get(pk=t["session"]).is_open for t in body["tables"])


def test_a_draw_with_the_last_round_open_is_a_409_naming_the_field(table):
    event = _create(table, count=8).json()["id"]
    client = table.client("owner", lang="zh-Hans")
    assert client.post(f"/api/v1/events/{event}/rounds/", {"draw": "random"}, format="json").status_code == 201
    refused = client.post(f"/api/v1/events/{event}/rounds/", {"draw": "random"}, format="json")
    assert refused.status_code == 409
    assert (refused.json()["code"], refused.json()["field"]) == ("round.tables_open", "close_open")
    assert Round.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"draw": "shuffle"}, "draw"),
        ({}, "draw"),
        ({"draw": "random", "seed": -1}, "seed"),
        ({"draw": "random", "typo": 1}, "typo"),
        ({"draw": "manual", "seating": {"tables": [[1, 2, 3, 4]]}}, "seating"),
        ({"draw": "random", "close_open": "yes"}, "close_open"),
    ],
)
@pytest.mark.parametrize("lang", ["en", "zh-Hans"])
def test_a_bad_draw_is_a_400_naming_the_field_in_the_reader_s_language(table, body, field, lang):
    event = _create(table, count=8).json()["id"]
    refused = table.client("owner", lang=lang).post(f"/api/v1/events/{event}/rounds/", body, format="json")
    assert refused.status_code == 400, refused.json()
    assert refused.json()["field"] == field
    message = refused.json()["message"]
    assert message and (any("\u4e00" <= ch <= "\u9fff" for ch in message) == (lang == "zh-Hans") or field == "typo")


@pytest.mark.parametrize(
    ("fields", "field"),
    [({"name": ""}, "name"), ({"variant": "mahjong"}, "variant"), ({"players": [10**9]}, "players[0]")],
)
def test_a_bad_event_is_a_400_naming_the_field(table, fields, field):
    refused = _create(table, **fields)
    assert refused.status_code == 400
    assert refused.json()["field"] == field
    assert not Event.objects.exists()


def test_an_idempotency_key_makes_a_retry_the_same_event_and_round(table):
    client = table.client("owner")
    url = f"/api/v1/clubs/{table.club.slug}/events/"
    body = {"name": "周五晚", "variant": "baifen.benxi", "players": [f"P{i}" for i in range(8)]}
    first = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="ev-1")
    again = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="ev-1")
    assert first.json()["id"] == again.json()["id"] and again["Idempotent-Replayed"] == "true"
    rounds = f"/api/v1/events/{first.json()['id']}/rounds/"
    one = client.post(rounds, {"draw": "random"}, format="json", HTTP_IDEMPOTENCY_KEY="r-1")
    two = client.post(rounds, {"draw": "random"}, format="json", HTTP_IDEMPOTENCY_KEY="r-1")
    assert one.json() == two.json() and Round.objects.count() == 1


@pytest.mark.parametrize(("who", "code"), [("viewer", 403), ("outsider", 404), ("anonymous", 401)])
def test_only_a_director_draws(table, who, code):
    event = _create(table, count=8).json()["id"]
    response = table.client(who).post(f"/api/v1/events/{event}/rounds/", {"draw": "random"}, format="json")
    assert response.status_code == code


def test_a_penalty_for_a_player_not_in_the_event_is_refused(table):
    event = _create(table, count=8).json()["id"]
    client = table.client("owner")
    client.post(f"/api/v1/events/{event}/rounds/", {"draw": "random"}, format="json")
    outsider = table.session.seats.first().player_id
    refused = client.post(
        f"/api/v1/events/{event}/adjustments/",
        {"player": outsider, "kind": "penalty", "amount": 5, "reason": "x"},
        format="json",
    )
    assert (refused.status_code, refused.json()["field"]) == (400, "player")


def test_the_standings_answer_in_as_many_queries_for_one_table_as_for_ten(table):
    client = table.client("owner")
    counts = []
    for players in (4, 40):
        event = _create(table, count=players, name=f"晚{players}").json()["id"]
        client.post(f"/api/v1/events/{event}/rounds/", {"draw": "random"}, format="json")
        with CaptureQueriesContext(connection) as captured:
            assert client.get(f"/api/v1/events/{event}/standings/").status_code == 200
        counts.append(len(captured))
    assert counts[0] == counts[1]


def _post(table, path, body, key):
    return table.client("owner").post(path, body, format="json", HTTP_IDEMPOTENCY_KEY=key)


@pytest.mark.parametrize("write", ["event", "round", "adjustment"])
def test_a_key_replays_its_own_request_and_refuses_another_body_with_a_409(table, write):
    """As the hands API does: the same key and body give the first answer again (`Idempotent-Replayed`),
    the same key with another body (no body at all, too) is `client_key.reused`, and nothing more is written."""
    event = _create(table, count=8).json()["id"]
    if write == "event":
        path = f"/api/v1/clubs/{table.club.slug}/events/"
        body, other = {"name": "周六", "variant": "baifen.benxi", "players": ["A", "B", "C", "D"]}, {}
    elif write == "round":
        path, body, other = f"/api/v1/events/{event}/rounds/", {"draw": "random", "seed": 3}, {"draw": "balanced"}
    else:
        table.client("owner").post(f"/api/v1/events/{event}/rounds/", {"draw": "random"}, format="json")
        player = Event.objects.get(pk=event).players.first().player_id
        path = f"/api/v1/events/{event}/adjustments/"
        body = {"player": player, "kind": "penalty", "amount": 5, "reason": "迟到"}
        other = {**body, "amount": 6}
    first = _post(table, path, body, "k-1")
    assert first.status_code == 201, first.json()
    counts = (Event.objects.count(), Round.objects.count(), Session.objects.count())
    again = _post(table, path, body, "k-1")
    assert (again.status_code, again.json(), again.headers.get("Idempotent-Replayed")) == (201, first.json(), "true")
    assert "Idempotent-Replayed" not in first.headers
    refused = _post(table, path, other, "k-1")
    assert refused.status_code == 409, refused.json()
    assert (refused.json()["code"], refused.json()["field"]) == ("client_key.reused", "Idempotency-Key")
    assert (Event.objects.count(), Round.objects.count(), Session.objects.count()) == counts


def test_a_player_named_by_an_object_is_refused_by_the_schema_and_the_server(table):
    created = _create(table, count=0, players=[{}])
    assert created.status_code == 400
    assert created.json()["field"].startswith("players")


@pytest.mark.parametrize("field", ["round", "date", "options", "seating", "seed", "players"])
def test_a_null_is_refused_by_name_as_the_schema_says(table, field):
    event = _create(table, count=8).json()["id"]
    table.client("owner").post(f"/api/v1/events/{event}/rounds/", {"draw": "random"}, format="json")
    player = Event.objects.get(pk=event).players.first().player_id
    path, body = {
        "round": (
            f"/api/v1/events/{event}/adjustments/",
            {"player": player, "kind": "award", "amount": 1, "reason": "r"},
        ),
        "date": (f"/api/v1/clubs/{table.club.slug}/events/", {"name": "n", "variant": "baifen.benxi"}),
        "options": (f"/api/v1/clubs/{table.club.slug}/events/", {"name": "n", "variant": "baifen.benxi"}),
        "seating": (f"/api/v1/events/{event}/rounds/", {"draw": "manual", "close_open": True}),
        "seed": (f"/api/v1/events/{event}/rounds/", {"draw": "random", "close_open": True}),
        "players": (f"/api/v1/events/{event}/players/", {}),
    }[field]
    refused = table.client("owner").post(path, {**body, field: None}, format="json")
    assert (refused.status_code, refused.json()["field"]) == (400, field)


def test_a_round_with_a_length_states_when_it_ends_and_the_event_its_late_hands_rule(table):
    created = _create(table, count=4, late_hands="refused")
    assert created.json()["late_hands"] == "refused"
    drawn = table.client("owner").post(
        f"/api/v1/events/{created.json()['id']}/rounds/", {"draw": "random", "length_minutes": 40}, format="json"
    )
    made = Round.objects.get()
    assert drawn.json()["ends_at"] == made.ends_at.isoformat().replace("+00:00", "Z")
    assert made.ends_at - made.started_at == datetime.timedelta(minutes=40)


def test_a_placement_event_states_its_points_and_each_seat_s_points(table):
    created = _create(table, count=4, ranking="placement", placement_points=[5, 3, 1, 0])
    assert (created.json()["ranking"], created.json()["placement_points"]) == ("placement", [5, 3, 1, 0])
    event = created.json()["id"]
    drawn = table.client("owner").post(f"/api/v1/events/{event}/rounds/", {"draw": "random"}, format="json")
    session = drawn.json()["tables"][0]["session"]
    table.client("owner").post(f"/api/v1/sessions/{session}/hands/", BENXI_EXAMPLE[0], format="json")
    body = table.client("owner").get(f"/api/v1/events/{event}/standings/").json()
    assert "5 / 3 / 1 / 0" in body["rule"]
    # 本溪's partners share a result: two pairs tied, the winners share 5 and 3, the losers 1 and 0 (rounded down).
    assert sorted(row["points_total"] for row in body["rows"]) == [0, 0, 4, 4]
    assert all(row["seats"][0]["points"] == row["points_total"] for row in body["rows"])


@pytest.mark.parametrize("draw", ["manual", "swiss"])
def test_a_seating_that_is_not_player_ids_is_refused_whatever_the_draw(table, draw):
    event = _create(table, count=4).json()["id"]
    body = {"draw": draw, "seating": {"tables": [[1, 2, 3, 4]], "sitting_out": [-5]}}
    refused = table.client("owner").post(f"/api/v1/events/{event}/rounds/", body, format="json")
    assert (refused.status_code, refused.json()["field"]) == (400, "seating")
    assert not Round.objects.exists()
