"""`mixed_sizes` through the API: 标分 with seven players draws a table of four and one of three; refusals named."""

from __future__ import annotations

import pytest

from settlement.models import Event

pytestmark = pytest.mark.django_db


def _create(table, variant="biaofen", count=7, **fields):
    body = {"name": "周五", "variant": variant, "players": [f"P{i}" for i in range(count)], **fields}
    return table.client("owner").post(f"/api/v1/clubs/{table.club.slug}/events/", body, format="json")


def test_seven_at_biaofen_with_mixed_sizes_sit_at_a_four_and_a_three_with_no_bye(table):
    created = _create(table, mixed_sizes=True)
    assert created.status_code == 201, created.json()
    assert created.json()["mixed_sizes"] is True
    event = created.json()["id"]
    drawn = table.client("owner").post(f"/api/v1/events/{event}/rounds/", {"draw": "random", "seed": 1}, format="json")
    assert drawn.status_code == 201, drawn.json()
    assert [len(t["players"]) for t in drawn.json()["tables"]] == [4, 3]
    assert drawn.json()["sitting_out"] == []


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"variant": "baifen.benxi", "mixed_sizes": True}, "one table size"),
        ({"mixed_sizes": True, "ranking": "placement"}, "placement"),
        ({"mixed_sizes": None}, "true or false"),
        ({"mixed_sizes": "yes"}, "true or false"),
    ],
)
def test_mixed_sizes_where_they_cannot_be_are_a_400_naming_the_field(table, fields, message):
    refused = table.client("owner", lang="en").post(
        f"/api/v1/clubs/{table.club.slug}/events/",
        {"name": "周五", "variant": "biaofen", "players": ["A", "B", "C"], **fields},
        format="json",
    )
    assert refused.status_code == 400, refused.json()
    assert refused.json()["field"] == "mixed_sizes"
    assert message in refused.json()["message"]
    assert not Event.objects.exists()
