"""The standings' settle-up through the API: who pays whom by id and name, the amount in money."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def _classic(table, **options):
    client = table.client("owner")
    body = {"name": "周五", "variant": "baifen.classic", "players": list("ABCD"), "options": options}
    created = client.post(f"/api/v1/clubs/{table.club.slug}/events/", body, format="json")
    assert created.status_code == 201, created.json()
    event = created.json()["id"]
    drawn = client.post(f"/api/v1/events/{event}/rounds/", {"draw": "random", "seed": 3}, format="json").json()
    (t,) = drawn["tables"]
    # seat 1 alone bids 45 and takes nothing: [−2, +6, −2, −2] (the golden baifen-classic-settle-up's hand 2).
    hand = {"declarer": 1, "bid": 45, "partner": None, "captured": 0}
    assert client.post(f"/api/v1/sessions/{t['session']}/hands/", hand, format="json").status_code == 201
    return client, event, t["players"]


def test_the_standings_carry_the_settle_up_in_money(table):
    client, event, seated = _classic(table, unit_value=5)
    body = client.get(f"/api/v1/events/{event}/standings/").json()
    winner = seated[1]
    assert body["unit_value"] == 5
    # Three pay the one winner 2 注 each, at 5 a 注: 10.
    assert sorted((t["from"]["id"], t["to"]["id"], t["amount"]) for t in body["settle_up"]) == sorted(
        (p["id"], winner["id"], 10) for i, p in enumerate(seated) if i != 1
    )
    assert all(t["to"] == winner for t in body["settle_up"])


def test_a_variant_that_is_not_zero_sum_has_an_empty_settle_up(table):
    client = table.client("owner")
    body = {"name": "周五", "variant": "baifen.benxi", "players": list("ABCD")}
    event = client.post(f"/api/v1/clubs/{table.club.slug}/events/", body, format="json").json()["id"]
    assert client.get(f"/api/v1/events/{event}/standings/").json()["settle_up"] == []
