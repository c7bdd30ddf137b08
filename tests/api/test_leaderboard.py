"""`GET clubs/{slug}/leaderboard/`, `GET`/`PATCH clubs/{slug}/players/{id}/` and `POST …/players/{id}/merge/`."""

from __future__ import annotations

import pytest

from settlement.models import Player, PlayerEvent, SessionSeat
from tests.api.conftest import assert_error
from tests.factories import BENXI_EXAMPLE, make_player, make_session, record_hands

pytestmark = pytest.mark.django_db


def _url(table, *parts):
    return "/api/v1/clubs/" + "/".join([table.club.slug, *map(str, parts)]) + "/"


def test_the_leaderboard_lists_the_rated_players_best_first(table):
    record_hands(table.session, table.owner, BENXI_EXAMPLE[2:])  # 盘 1 to 乙·丁 (hand 4), 盘 2 to 甲·丙 (hand 5)
    body = table.client("viewer").get(_url(table, "leaderboard")).json()
    assert body["family"] == "baifen"
    assert body["families"] == [{"family": "baifen", "label": "Baifen, regional (Benxi, Fushun, Shenyang)"}]
    assert body["how"].startswith("How ratings work")
    assert (body["count"], body["next"], body["previous"]) == (4, None, None)
    entries = body["results"]
    assert [entry["rank"] for entry in entries] == [1, 2, 3, 4]
    assert {entry["name"] for entry in entries} == {"甲", "乙", "丙", "丁"}
    for entry in entries:
        assert entry["rating"] == pytest.approx(entry["mu"] - 3 * entry["sigma"])
        assert entry["outcomes"] == 2
    assert [entry["rating"] for entry in entries] == sorted((entry["rating"] for entry in entries), reverse=True)


def test_an_empty_board_and_an_unknown_family(table):
    body = table.client("owner").get(_url(table, "leaderboard")).json()
    assert body == {
        "count": 0,
        "next": None,
        "previous": None,
        "family": None,
        "families": [],
        "how": body["how"],
        "results": [],
    }
    assert_error(
        table.client("owner").get(_url(table, "leaderboard") + "?family=nope"), 400, "invalid_choice", field="family"
    )


def test_the_leaderboard_comes_a_page_at_a_time(table):
    record_hands(table.session, table.owner, BENXI_EXAMPLE[2:])
    client = table.client("viewer")
    whole = client.get(_url(table, "leaderboard")).json()["results"]
    first = client.get(_url(table, "leaderboard") + "?family=baifen&limit=3").json()
    assert first["count"] == 4 and first["results"] == whole[:3] and first["previous"] is None
    assert first["next"].endswith("/leaderboard/?family=baifen&limit=3&offset=3")
    last = client.get(first["next"]).json()
    assert [entry["rank"] for entry in last["results"]] == [4] and last["next"] is None
    assert last["family"] == "baifen" and last["previous"].endswith("/leaderboard/?family=baifen&limit=3")
    assert_error(client.get(_url(table, "leaderboard") + "?offset=-1"), 400, "min_value", field="offset")


def test_the_leaderboard_costs_the_same_queries_with_more_sessions(table, django_assert_num_queries):
    # Token, membership with the club, then families, each player's last order, the rows.
    client = table.client("owner")
    record_hands(table.session, table.owner, BENXI_EXAMPLE[2:])
    with django_assert_num_queries(5):
        client.get(_url(table, "leaderboard"))
    for day in ("2026-12-01", "2026-12-02"):
        record_hands(make_session(table.club, table.owner, date=day), table.owner, BENXI_EXAMPLE)
    with django_assert_num_queries(5):
        client.get(_url(table, "leaderboard"))


def test_an_owner_renames_a_player(table):
    player = Player.objects.get(club=table.club, name="甲")
    response = table.client("owner").patch(
        _url(table, "players", player.pk), {"name": "王强", "reason": "real name"}, format="json"
    )
    assert response.status_code == 200
    body = response.json()
    assert body["created"] < body["updated"]  # a rename moves `updated`
    assert {k: body[k] for k in ("id", "name", "is_guest")} == {"id": player.pk, "name": "王强", "is_guest": True}
    assert PlayerEvent.objects.get().old_name == "甲"


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"name": "乙"}, "player.name_taken", "name"),
        ({"name": ""}, "player.name_required", "name"),
        ({}, "player.name_required", "name"),
        ({"name": "x", "nick": "y"}, "field.unknown", "nick"),
    ],
)
def test_a_refused_rename_names_the_field(table, body, code, field):
    player = Player.objects.get(club=table.club, name="甲")
    response = table.client("owner").patch(_url(table, "players", player.pk), body, format="json")
    assert_error(response, 400, code, field=field)


def test_a_scorekeeper_cannot_rename_or_merge(table):
    a, b = (Player.objects.get(club=table.club, name=name) for name in ("甲", "乙"))
    client = table.client("scorekeeper")
    assert client.patch(_url(table, "players", a.pk), {"name": "x"}, format="json").status_code == 403
    assert client.post(_url(table, "players", a.pk, "merge"), {"into": b.pk}, format="json").status_code == 403


def test_an_owner_merges_a_guest_into_a_player(table):
    guest = make_player(table.club, "阿甲", is_guest=True)
    session = make_session(table.club, table.owner, players=[guest, "乙", "丙", "丁"], date="2026-12-01")
    record_hands(session, table.owner, BENXI_EXAMPLE)
    other = make_player(table.club, "王强")
    response = table.client("owner").post(
        _url(table, "players", guest.pk, "merge"), {"into": other.pk, "reason": "same"}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["id"] == other.pk
    assert SessionSeat.objects.get(session=session, seat=0).player == other
    # The merged record's address answers with the survivor.
    assert table.client("viewer").get(_url(table, "players", guest.pk)).json()["id"] == other.pk


@pytest.mark.parametrize("into", ["乙", "self", 0, -1, 2**63, "x", True, None])
def test_a_refused_merge_names_into(table, into):
    a = Player.objects.get(club=table.club, name="甲")
    target = {"乙": lambda: Player.objects.get(club=table.club, name="乙").pk, "self": lambda: a.pk}.get(into)
    body = {"into": target() if callable(target) else into}
    code = {"乙": "player.merge_same_session", "self": "player.merge_self"}.get(into, "player.not_found")
    response = table.client("owner", lang="zh-hans").post(_url(table, "players", a.pk, "merge"), body, format="json")
    assert_error(response, 400, code, field="into")


def test_another_clubs_player_is_not_found(table):
    elsewhere = make_player(table.outsider.memberships.get().club, "甲")
    a = Player.objects.get(club=table.club, name="甲")
    response = table.client("owner").post(_url(table, "players", a.pk, "merge"), {"into": elsewhere.pk}, format="json")
    assert_error(response, 400, "player.not_found", field="into")
    assert table.client("owner").get(_url(table, "players", elsewhere.pk)).status_code == 404


@pytest.mark.parametrize("reason", [None, 5])
def test_a_rename_or_merge_reason_that_is_not_text_is_refused(table, reason):
    player = Player.objects.get(club=table.club, name="甲")
    client = table.client("owner")
    renamed = client.patch(_url(table, "players", player.pk), {"name": "王强", "reason": reason}, format="json")
    assert renamed.status_code == 400 and renamed.json()["field"] == "reason"
    other = Player.objects.exclude(pk=player.pk).filter(club=table.club).first()
    merge = client.post(
        _url(table, "players", player.pk) + "merge/", {"into": other.pk, "reason": reason}, format="json"
    )
    assert merge.status_code == 400 and merge.json()["field"] == "reason"
    assert Player.objects.get(pk=player.pk).name == "甲"
