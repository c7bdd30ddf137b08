"""A pairs event through the API: pairs named at creation sit as partners every round; standings per pair;
refusals naming `pairs`."""

from __future__ import annotations

import pytest

from settlement.models import Event
from tests.factories import BENXI_EXAMPLE

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
