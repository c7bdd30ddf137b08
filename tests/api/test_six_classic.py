"""Six-player classic 打百分 through the API (rules/baifen.md classic, seed 001 也有6人的): import, hands with seats
past 3, refusals, export, the description and the schema.

The session is ../shared/golden-next/baifen-classic-six-players.json, worked by hand there: totals
[−15, −9, −6, −15, +39, +6]; its settle-up splits into {丙 −6, 己 +6} and the other four (4 transfers, not 5).
"""

from __future__ import annotations

import pytest
import yaml
from django.core.management import call_command

from settlement.models import Player, Session
from tests.factories import SIX_CLASSIC_HANDS, SIX_NAMES

from .conftest import assert_error

LIST = "/api/v1/clubs/{}/sessions/"
SIX = list(SIX_NAMES)
HANDS = SIX_CLASSIC_HANDS
TOTALS = [-15, -9, -6, -15, 39, 6]


def _document(**change):
    return {"variant": "baifen.classic", "players": SIX, "hands": HANDS, "date": "2026-11-30", **change}


def test_a_six_player_classic_import_settles_up_in_the_fewest_transfers(table):
    response = table.client("scorekeeper").post(LIST.format("laonian"), _document(), format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["status"], body["players"], body["totals"]) == ("closed", SIX, TOTALS)
    assert [h["deltas"] for h in body["hands"]][1] == [-8, -8, -8, -8, 40, -8]  # 1 v 5 on a 100 bid: ±5 × 8
    # 丙 pays 己 6; 甲, 乙 and 丁 pay 戊 15, 9 and 15.
    assert body["settle_up"] == [
        {"from": 0, "to": 4, "amount": 15},
        {"from": 1, "to": 4, "amount": 9},
        {"from": 2, "to": 5, "amount": 6},
        {"from": 3, "to": 4, "amount": 15},
    ]


def test_hands_with_seats_4_and_5_are_recorded_and_the_receipt_speaks_both_languages(table):
    body = table.client("owner").post(LIST.format("laonian") + "?close=false", _document(hands=[]), format="json")
    session_id = body.json()["id"]
    hand = {"declarer": 5, "bid": 60, "partner": 4, "captured": 45}
    en = table.client("scorekeeper").post(f"/api/v1/sessions/{session_id}/hands/", hand, format="json")
    assert en.status_code == 201, en.content
    # 45 ≥ 40: broken, m 1; the declarer side (戊 + 己) pays each of the four 1: −2 each.
    assert en.json()["result"]["deltas"] == [1, 1, 1, 1, -2, -2]
    assert en.json()["result"]["steps"][-1] == "declarer and partner −2 each, the other four +1 each"
    zh = table.client("scorekeeper", lang="zh-hans").get(f"/api/v1/sessions/{session_id}/").json()
    assert zh["hands"][0]["steps"][-1] == "庄家、朋家各 −2，另四家各 +1"


@pytest.mark.parametrize(
    ("hand", "field"),
    [
        ({"declarer": 6, "bid": 60, "partner": 1, "captured": 20}, "declarer"),
        ({"declarer": 0, "bid": 60, "partner": 6, "captured": 20}, "partner"),
        ({"dealer": 6, "declarer": 0, "bid": 60, "partner": 1, "captured": 20}, "dealer"),
    ],
)
def test_a_seat_past_5_is_refused_naming_the_field(table, hand, field):
    body = table.client("owner").post(LIST.format("laonian") + "?close=false", _document(hands=[]), format="json")
    response = table.client("owner").post(f"/api/v1/sessions/{body.json()['id']}/hands/", hand, format="json")
    assert_error(response, 400, "seat.invalid", hand=1, field=field)


def test_five_players_are_refused_naming_players(table):
    before = Session.objects.count()
    response = table.client("owner").post(LIST.format("laonian"), _document(players=SIX[:5]), format="json")
    assert_error(response, 400, "players.count", field="players")
    assert Session.objects.count() == before


def test_the_export_reimports_to_the_same_results(table):
    client = table.client("owner")
    first = client.post(LIST.format("laonian"), _document(), format="json").json()
    document = client.get(f"/api/v1/sessions/{first['id']}/export/").json()
    assert document["players"] == SIX and len(document["hands"]) == 5
    again = client.post(LIST.format("laonian"), {**document, "date": "2026-12-01"}, format="json").json()
    assert (again["totals"], again["settle_up"]) == (first["totals"], first["settle_up"])
    assert [h["deltas"] for h in again["hands"]] == [h["deltas"] for h in first["hands"]]


def test_the_variant_description_offers_four_or_six_and_starts_at_four(table):
    pages = table.client("viewer").get("/api/v1/variants/?limit=100").json()
    classic = next(v for v in pages["results"] if v["key"] == "baifen.classic")
    assert (classic["player_counts"], classic["default_players"]) == ([4, 6], 4)


def test_the_schema_takes_classic_seats_0_to_5_and_four_to_six_players(tmp_path):
    call_command("spectacular", "--file", str(tmp_path / "schema.yaml"))
    schemas = yaml.safe_load((tmp_path / "schema.yaml").read_text(encoding="utf-8"))["components"]["schemas"]
    hand = schemas["HandInputBaifenClassicScored"]["properties"]
    for field in ("dealer", "declarer", "partner"):
        assert (hand[field]["minimum"], hand[field]["maximum"]) == (0, 5), field


def test_a_six_player_classic_players_stats_count_partners_and_opponents(table):
    client = table.client("owner")
    client.post(LIST.format("laonian"), _document(), format="json")
    wu = Player.objects.get(club=table.club, name="戊")
    groups = {g["group"]: g for g in client.get(f"/api/v1/clubs/laonian/players/{wu.pk}/stats/").json()["groups"]}
    classic = groups["baifen/zhu"]
    # 戊 declares hand 2 alone (100, made: +40) and is on the capture side of hands 1, 3 and 5:
    # with 甲 乙 丁 against 丙 + 己 (made: −1), with 乙 丙 己 against 甲 + 丁 (broken: +2), with 甲 乙 丙 丁 against 己
    # alone (made: −2).
    assert (classic["total"], classic["declared"], classic["declarer_won"]) == (39, 1, 1)
    partners = {row["player"]["name"]: (row["hands"], row["won"]) for row in classic["partners"]}
    assert partners == {"甲": (2, 0), "乙": (3, 1), "丙": (2, 1), "丁": (2, 0), "己": (1, 1)}
    opponents = {row["player"]["name"]: (row["hands"], row["won"], row["net"]) for row in classic["opponents"]}
    # 己: hands 1 (−1), 2 (+40, won) and 5 (−2).
    assert opponents["己"] == (3, 1, 37)
