"""A pairs event through the API: pairs named at creation, or set after check-in until the first draw, sit as
partners every round; standings per pair; refusals naming `pairs`."""

from __future__ import annotations

import pytest

from settlement.models import Event
from tests.factories import BENXI_EXAMPLE

from .conftest import assert_error

pytestmark = pytest.mark.django_db

NAMES = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛"]
PAIRS = [["甲", "乙"], ["丙", "丁"], ["戊", "己"], ["庚", "辛"]]


def _create(table, **fields):
    body = {"name": "对抗赛", "variant": "baifen.benxi", "players": NAMES, "pairs": PAIRS, **fields}
    return table.client("owner", lang="en").post(f"/api/v1/clubs/{table.club.slug}/events/", body, format="json")


def test_pairs_sit_as_partners_every_balanced_round_and_rank_per_pair(table):
    client = table.client("owner")
    created = _create(table)
    assert created.status_code == 201, created.json()
    event = created.json()
    assert [[p["name"] for p in pair] for pair in event["pairs"]] == PAIRS
    named = {frozenset(pair) for pair in PAIRS}
    opponents = []
    for _ in range(3):
        drawn = client.post(
            f"/api/v1/events/{event['id']}/rounds/", {"draw": "balanced", "close_open": True}, format="json"
        )
        assert drawn.status_code == 201, drawn.json()
        for t in drawn.json()["tables"]:
            names = [p["name"] for p in t["players"]]
            sides = {frozenset((names[0], names[2])), frozenset((names[1], names[3]))}
            assert sides <= named
            opponents.append(frozenset(sides))
            hand = BENXI_EXAMPLE[0]
            assert client.post(f"/api/v1/sessions/{t['session']}/hands/", hand, format="json").status_code == 201
    # Four pairs over three rounds: each pair meets each other pair once.
    assert len(opponents) == len(set(opponents)) == 6
    body = client.get(f"/api/v1/events/{event['id']}/standings/").json()
    rows = {row["player"]["name"]: row["total"] for row in body["rows"]}
    assert body["pair_rule"] and len(body["pairs"]) == 4
    for row in body["pairs"]:
        a, b = (p["name"] for p in row["players"])
        assert row["total"] == rows[a] + rows[b]
    totals = [row["total"] for row in body["pairs"]]
    assert totals == sorted(totals, reverse=True) and body["pairs"][0]["rank"] == 1


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"pairs": [["甲", "乙"], ["乙", "丙"], ["戊", "己"], ["庚", "辛"]]}, "in two pairs"),
        ({"pairs": [["甲", "乙"], ["丙", "无名"], ["戊", "己"], ["庚", "辛"]]}, "not checked in"),
        ({"pairs": [["甲", "乙"], ["丙", "丁"], ["戊", "己"]]}, "has no partner"),
        ({"variant": "biaofen", "table_size": 4}, "no fixed partnerships"),
        ({"pairs": [["甲"]]}, ""),
        ({"pairs": None}, ""),
    ],
)
def test_pairs_that_cannot_be_are_a_400_naming_pairs(table, fields, message):
    refused = _create(table, **fields)
    assert refused.status_code == 400, refused.json()
    assert refused.json()["field"].startswith("pairs")
    assert message in refused.json()["message"]
    assert not Event.objects.exists()


# --- the pairs set after check-in: POST /api/v1/events/{id}/pairs/ ---


def _plain(table):
    """An event of the eight players, created without pairs: its id and each player's id by name."""
    created = _create(table, pairs=[])
    assert created.status_code == 201, created.json()
    event = created.json()
    return event["id"], {p["name"]: p["id"] for p in event["players"]}


def test_pairs_set_after_check_in_answer_the_event_with_them_by_id_or_name(table):
    event, ids = _plain(table)
    body = {"pairs": [[ids["甲"], ids["乙"]], ["丙", "丁"], [ids["戊"], "己"], ["庚", "辛"]]}
    answer = table.client("owner").post(f"/api/v1/events/{event}/pairs/", body, format="json")
    assert answer.status_code == 200, answer.json()
    assert {frozenset(p["name"] for p in pair) for pair in answer.json()["pairs"]} == {
        frozenset(pair) for pair in PAIRS
    }
    drawn = table.client("owner").post(f"/api/v1/events/{event}/rounds/", {"draw": "random"}, format="json").json()
    for t in drawn["tables"]:
        names = [p["name"] for p in t["players"]]
        assert {frozenset((names[0], names[2])), frozenset((names[1], names[3]))} <= {frozenset(p) for p in PAIRS}


def test_pairs_after_a_round_is_drawn_are_a_409_naming_pairs(table):
    created = _create(table).json()
    client = table.client("owner")
    assert client.post(f"/api/v1/events/{created['id']}/rounds/", {"draw": "random"}, format="json").status_code == 201
    refused = client.post(f"/api/v1/events/{created['id']}/pairs/", {"pairs": []}, format="json")
    assert_error(refused, 409, "event.pairs_drawn", field="pairs")
    assert len(Event.objects.get().pairs) == 4


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({}, "field.required"),
        ({"pairs": None}, "value.not_list"),
        ({"pairs": [["甲", "乙"], ["丙", "丁"], ["戊", "己"]]}, "pairs.unpaired"),
        ({"pairs": [["甲", 999999], ["丙", "丁"], ["戊", "己"], ["庚", "辛"]]}, "player.not_found"),
    ],
)
def test_pairs_that_cannot_be_set_are_a_400_naming_pairs(table, body, code):
    event, _ = _plain(table)
    refused = table.client("owner").post(f"/api/v1/events/{event}/pairs/", body, format="json")
    assert_error(refused, 400, code, field="pairs")
    assert Event.objects.get().pairs == []


def test_a_viewer_cannot_set_the_pairs(table):
    event, _ = _plain(table)
    refused = table.client("viewer").post(f"/api/v1/events/{event}/pairs/", {"pairs": PAIRS}, format="json")
    assert refused.status_code == 403
    assert Event.objects.get().pairs == []
