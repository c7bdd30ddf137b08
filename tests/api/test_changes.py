"""The change feed: every write of the club's sessions, hands and players, in order, resumable from a cursor."""

from __future__ import annotations

import pytest

from settlement import services
from settlement.models import Change
from tests.api.conftest import assert_error
from tests.factories import BENXI_EXAMPLE, NAMES, make_club, make_member, make_session

pytestmark = pytest.mark.django_db

FEED = "/api/v1/clubs/laonian/changes/"
START = "AAAAAAAAAAA"  # the cursor before the first change: id 0 as 8 bytes, base64url


def _feed(client, **query):
    response = client.get(FEED, query)
    assert response.status_code == 200, response.content
    return response.json()


def _brief(entries):
    return [(e["kind"], e["id"], e["session"], e["number"], e["revision"], e["into"]) for e in entries]


def test_the_feed_from_the_start_is_the_clubs_history_in_the_order_it_was_written(table):
    sid = table.session.pk
    hands = {h.number: h.pk for h in table.session.hands.all()}
    players = [seat.player_id for seat in table.session.seats.order_by("seat")]
    body = _feed(table.client("viewer"))
    assert _brief(body["results"]) == [
        *(("player.created", pk, None, None, None, None) for pk in players),  # the opening's four guests
        ("session.created", sid, sid, None, None, None),
        ("hand.recorded", hands[1], sid, 1, 1, None),
        ("hand.recorded", hands[2], sid, 2, 1, None),
    ]
    assert body["has_more"] is False and body["next"] is None
    assert body["cursor"] == body["results"][-1]["cursor"]


def test_a_hand_recorded_after_a_cursor_is_the_change_after_it_and_its_url_gives_it(table):
    client = table.client("scorekeeper")
    cursor = _feed(client)["cursor"]
    assert _feed(client, after=cursor) == {"results": [], "cursor": cursor, "has_more": False, "next": None}
    sid = table.session.pk
    assert client.post(f"/api/v1/sessions/{sid}/hands/", BENXI_EXAMPLE[2], format="json").status_code == 201
    body = _feed(client, after=cursor)
    (change,) = body["results"]
    assert (change["kind"], change["subject"], change["session"], change["number"]) == ("hand.recorded", "hand", sid, 3)
    assert change["url"] == f"http://testserver/api/v1/sessions/{sid}/hands/3/revisions/"
    assert client.get(change["url"]).json()["results"][0]["input"]["bid"] == BENXI_EXAMPLE[2]["bid"]
    assert body["cursor"] == change["cursor"] != cursor
    assert change["at"].endswith("Z")


def test_corrections_voids_closes_and_reopens_each_write_one_change(table):
    client = table.client("owner")
    sid = table.session.pk
    cursor = _feed(client)["cursor"]
    base = f"/api/v1/sessions/{sid}/"
    fixed = {**BENXI_EXAMPLE[0], "captured": 20}
    assert (
        client.post(base + "hands/1/correct/", {"hand": fixed, "reason": "miscounted"}, format="json").status_code
        == 200
    )
    assert client.post(base + "hands/2/void/", {"reason": "not played"}, format="json").status_code == 200
    assert client.post(base + "close/", {}, format="json").status_code == 200
    assert (
        client.post(base + "close/", {}, format="json").status_code == 200
    )  # closing a closed session changes nothing
    assert client.post(base + "reopen/", {}, format="json").status_code == 200
    hands = {h.number: h.pk for h in table.session.hands.all()}
    assert _brief(_feed(client, after=cursor)["results"]) == [
        ("hand.corrected", hands[1], sid, 1, 2, None),
        ("hand.voided", hands[2], sid, 2, 2, None),
        ("session.closed", sid, sid, None, None, None),
        ("session.reopened", sid, sid, None, None, None),
    ]


def test_a_rename_is_a_change_and_a_merge_a_tombstone_of_the_merged_away_id(table):
    client = table.client("owner")
    cursor = _feed(client)["cursor"]
    alone = services.session_open(club=table.club, user=table.owner, variant="baifen.benxi", players=["王", *NAMES[1:]])
    wang = alone.seats.get(seat=0).player
    first = table.session.seats.get(seat=0).player  # 甲, who never sat with 王
    assert (
        client.patch(f"/api/v1/clubs/laonian/players/{first.pk}/", {"name": "甲一"}, format="json").status_code == 200
    )
    merged = client.post(f"/api/v1/clubs/laonian/players/{wang.pk}/merge/", {"into": first.pk}, format="json")
    assert merged.status_code == 200, merged.content
    entries = _feed(client, after=cursor)["results"]
    assert _brief(entries) == [
        ("player.created", wang.pk, None, None, None, None),
        ("session.created", alone.pk, alone.pk, None, None, None),
        ("player.renamed", first.pk, None, None, None, None),
        ("player.merged", wang.pk, None, None, None, first.pk),
    ]
    tombstone = entries[-1]
    assert tombstone["url"] == f"http://testserver/api/v1/clubs/laonian/players/{wang.pk}/"
    assert client.get(tombstone["url"]).json()["id"] == first.pk  # the merged-away address answers the survivor


def test_an_import_is_the_session_its_new_players_and_every_hand_in_order(table):
    client = table.client("owner")
    cursor = _feed(client)["cursor"]
    document = {"variant": "baifen.benxi", "players": ["赵", "钱", "孙", "李"], "hands": BENXI_EXAMPLE}
    made = client.post("/api/v1/clubs/laonian/sessions/", document, format="json")
    assert made.status_code == 201, made.content
    kinds = [(e["kind"], e["number"]) for e in _feed(client, after=cursor)["results"]]
    assert kinds == [
        *[("player.created", None)] * 4,
        ("session.created", None),
        *(("hand.recorded", n) for n in range(1, 6)),
    ]


def test_pages_by_cursor_give_every_change_once_in_order(table):
    client = table.client("viewer")
    whole = _feed(client)["results"]
    seen, body = [], _feed(client, limit=3)
    pages = 1
    while body["has_more"]:
        seen += body["results"]
        assert len(body["results"]) == 3
        response = client.get(body["next"])
        body = response.json()
        pages += 1
    seen += body["results"]
    assert seen == whole and pages == 3  # 7 changes: 3 + 3 + 1
    assert body["next"] is None


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"after": "12"}, "after"),
        ({"after": "AAAAAAAAAAA="}, "after"),  # 12 characters
        ({"after": "AAAAAAAAAAB"}, "after"),  # the same bytes spelt otherwise: not a cursor this feed gave
        ({"after": "AAAAAAAAA!A"}, "after"),
        ({"after": ""}, "after"),
        ({"limit": "0"}, "limit"),
        ({"limit": "1001"}, "limit"),
        ({"limit": "ten"}, "limit"),
    ],
)
def test_a_bad_cursor_or_limit_is_a_400_naming_it(table, query, field):
    response = table.client("owner").get(FEED, query)
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["field"] == field and body["hand"] is None and body["message"]


def test_an_unknown_query_parameter_is_refused_by_name(table):
    assert_error(table.client("owner").get(FEED, {"since": START}), 400, "field.unknown", field="since")


def test_the_start_cursor_is_the_whole_feed(table):
    client = table.client("owner")
    assert _feed(client, after=START) == _feed(client)


@pytest.mark.parametrize(("who", "status"), [("anonymous", 401), ("outsider", 404)])
def test_only_the_clubs_members_read_its_feed(table, who, status):
    assert table.client(who).get(FEED).status_code == status


def test_another_clubs_changes_are_not_in_the_feed(table):
    other = make_club(slug="elsewhere")
    owner = make_member(other)
    make_session(other, owner)
    ids = {e["id"] for e in _feed(table.client("owner"))["results"] if e["kind"] == "session.created"}
    assert ids == {table.session.pk}
    assert Change.objects.filter(club=other).count() == 5  # its four guests and its session


def test_an_unchanged_feed_is_a_304(table):
    client = table.client("viewer")
    first = client.get(FEED)
    again = client.get(FEED, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


@pytest.mark.parametrize("limit", [1, 1000])
def test_a_page_costs_the_same_queries_whatever_its_limit(table, django_assert_num_queries, limit):
    client = table.client("viewer")
    client.get(FEED)  # the token's first use writes its `last_used`
    with django_assert_num_queries(3):  # the token, the membership with its club, the changes
        client.get(FEED, {"limit": limit})


def test_an_events_writes_are_changes_with_their_guests_and_tables(table):
    client = table.client("owner")
    body = {"name": "周五晚", "variant": "baifen.benxi", "players": [f"P{i}" for i in range(8)]}
    event = client.post("/api/v1/clubs/laonian/events/", body, format="json").json()["id"]
    start = _feed(client)["cursor"]
    drawn = client.post(f"/api/v1/events/{event}/rounds/", {"draw": "random"}, format="json").json()
    penalised = drawn["tables"][0]["players"][0]["id"]
    adjustment = {"player": penalised, "kind": "penalty", "amount": 7, "reason": "出牌超时"}
    assert client.post(f"/api/v1/events/{event}/adjustments/", adjustment, format="json").status_code == 201

    after = _feed(client, after=start)["results"]

    tables = [t["session"] for t in drawn["tables"]]
    assert _brief(after) == [
        *(("session.created", sid, sid, None, None, None) for sid in tables),
        ("event.round_drawn", event, None, 1, None, None),
        ("event.adjusted", event, None, 1, None, None),
    ]
    assert after[-1]["subject"] == "event" and after[-1]["url"].endswith(f"/api/v1/events/{event}/standings/")
    made = _feed(client)["results"]
    assert [e["kind"] for e in made].count("player.created") == 4 + 8  # the table fixture's four, the event's eight
    assert ("event.created", event) in [(e["kind"], e["id"]) for e in made]
