"""Sessions: the paginated, filtered list; the results document; export; import whole or not at all."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection

from settlement.models import Hand, HandRevision, Player, Session
from settlement.rules.session import session_settle
from tests.factories import BENXI_EXAMPLE, make_club, make_history, make_member, make_player, make_session, record_hands

from .conftest import assert_error

pytestmark = pytest.mark.django_db

D = datetime.date
LIST = "/api/v1/clubs/{}/sessions/"


@pytest.fixture
def history(table):
    """Three more sessions: a closed 本溪 on 11-01 with 老王, a classic on 11-08 with 老王, an empty 本溪 on 11-15."""
    club, owner = table.club, table.owner
    wang, a, b, c = make_history(club, owner)
    table.session.date = D(2026, 11, 20)
    table.session.save(update_fields=["date"])
    return {"a": a, "b": b, "c": c, "t": table.session, "wang": wang}


def _names(history, body):
    ids = {s.pk: name for name, s in history.items() if name != "wang"}
    return [ids[row["id"]] for row in body["results"]]


def test_the_list_shows_each_session_with_its_seats_and_totals(table, history):
    body = table.client("viewer").get(LIST.format("laonian")).json()
    assert body["count"] == 4 and body["next"] is None and body["previous"] is None
    assert _names(history, body) == ["t", "c", "b", "a"]
    a = body["results"][3]
    assert (a["date"], a["variant"], a["status"], a["unit"], a["hands"]) == (
        "2026-11-01",
        "baifen.benxi",
        "closed",
        "分",
        5,
    )
    # rules/baifen.md's example: A 15 + 300, B 230 + 0; each team won one 盘.
    assert [(s["seat"], s["name"], s["total"], s["games_won"]) for s in a["seats"]] == [
        (0, "老王", 315, 1),
        (1, "乙", 230, 1),
        (2, "丙", 315, 1),
        (3, "丁", 230, 1),
    ]
    assert a["seats"][0]["player"] == history["wang"].pk
    assert [s["total"] for s in body["results"][2]["seats"]] == [1, -1, 1, -1]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("date_from=2026-11-08", ["t", "c", "b"]),
        ("date_to=2026-11-08", ["b", "a"]),
        ("date_from=2026-11-02&date_to=2026-11-14", ["b"]),
        ("variant=baifen.classic", ["b"]),
        ("variant=baifen.benxi", ["t", "c", "a"]),
        ("status=closed", ["a"]),
        ("status=open", ["t", "c", "b"]),
        ("variant=baifen.benxi&status=open", ["t", "c"]),
    ],
)
def test_the_list_filters(table, history, query, expected):
    body = table.client("owner").get(LIST.format("laonian") + "?" + query).json()
    assert _names(history, body) == expected and body["count"] == len(expected)


def test_the_list_filters_by_player(table, history):
    body = table.client("owner").get(LIST.format("laonian"), {"player": history["wang"].pk}).json()
    assert _names(history, body) == ["b", "a"]


@pytest.mark.parametrize(
    ("query", "code", "field"),
    [
        ({"date_from": "30/11/2026"}, "invalid", "date_from"),
        ({"variant": "mahjong"}, "invalid_choice", "variant"),
        ({"status": "lost"}, "invalid_choice", "status"),
        ({"limit": "0"}, "min_value", "limit"),
        ({"offset": "-1"}, "min_value", "offset"),
    ],
)
def test_a_bad_filter_is_a_400_naming_it(table, query, code, field):
    assert_error(table.client("owner").get(LIST.format("laonian"), query), 400, code, field=field)


def test_another_clubs_player_is_not_a_filter(table):
    other_player = make_player(make_club(), "外人")
    response = table.client("owner").get(LIST.format("laonian"), {"player": other_player.pk})
    assert_error(response, 400, "does_not_exist", field="player")


def test_the_list_pages_with_limit_and_offset(table, history):
    client = table.client("owner")
    first = client.get(LIST.format("laonian"), {"limit": 3}).json()
    assert _names(history, first) == ["t", "c", "b"] and first["count"] == 4
    assert first["previous"] is None and first["next"].endswith("?limit=3&offset=3")
    second = client.get(first["next"]).json()
    assert _names(history, second) == ["a"] and second["next"] is None
    assert second["previous"].endswith("?limit=3")
    assert client.get(LIST.format("laonian"), {"offset": 10}).json()["results"] == []


def test_the_list_costs_the_same_queries_however_many_sessions(table, django_assert_num_queries):
    client = table.client("owner")
    url = LIST.format("laonian")
    # token, membership, count, page, seats, hand totals, game totals
    with django_assert_num_queries(7):
        assert client.get(url).json()["count"] == 1
    for day in range(1, 9):
        session = make_session(table.club, table.owner, date=D(2026, 10, day))
        record_hands(session, table.owner, BENXI_EXAMPLE[: day % 5 + 1])
    with django_assert_num_queries(7):
        assert len(client.get(url).json()["results"]) == 9


def test_players_list_costs_the_same_queries_however_many_players(table, django_assert_num_queries):
    client = table.client("viewer")
    with django_assert_num_queries(4):  # token, membership, count, players
        first = client.get("/api/v1/clubs/laonian/players/").json()["results"]
    for i in range(10):
        make_player(table.club, f"新人{i}")
    with django_assert_num_queries(4):
        assert len(client.get("/api/v1/clubs/laonian/players/").json()["results"]) == len(first) + 10
    jia = next(player for player in first if player["name"] == "甲")
    assert (jia["is_guest"], jia["sessions"]) == (True, 1)


def test_clubs_list_costs_the_same_queries_however_many_clubs(table, django_assert_num_queries):
    client = table.client("owner")
    with django_assert_num_queries(3):  # token, count, clubs
        client.get("/api/v1/clubs/")
    for _ in range(5):
        make_member(make_club(), user=table.owner)
    with django_assert_num_queries(3):
        assert len(client.get("/api/v1/clubs/").json()["results"]) == 6


def test_the_session_is_the_settle_results_document_plus_id_club_date_and_status(table):
    response = table.client("viewer").get(f"/api/v1/sessions/{table.session.pk}/")
    assert response.status_code == 200
    body = response.json()
    times = {k: datetime.datetime.fromisoformat(body.pop(k)) for k in ("created", "updated")}
    table.session.refresh_from_db()
    # opened, then two hands recorded: `updated` is the second hand's revision's time
    assert times == {"created": table.session.created_at, "updated": table.session.updated_at}
    assert table.session.updated_at == table.session.hands.get(number=2).revisions.get().created_at
    meta = {k: body.pop(k) for k in ("id", "club", "date", "venue", "status", "hand_count", "next", "previous")}
    assert meta == {
        "id": table.session.pk,
        "club": "laonian",
        "date": table.session.date.isoformat(),
        "venue": "",
        "status": "open",
        "hand_count": 2,
        "next": None,  # one page: the whole document
        "previous": None,
    }
    document = {"variant": "baifen.benxi", "players": ["甲", "乙", "丙", "丁"], "hands": BENXI_EXAMPLE[:2]}
    assert body == session_settle(document, lang="en")
    # Worked by hand (rules/baifen.md): A 80 then +20, B 15 then −85.
    assert body["totals"] == [100, -70, 100, -70]


def test_the_session_speaks_the_requests_language(table):
    url = f"/api/v1/sessions/{table.session.pk}/"
    en = table.client("owner", lang="en").get(url).json()["hands"][0]["steps"][0]
    zh = table.client("owner", lang="zh-hans").get(url).json()["hands"][0]["steps"][0]
    assert en == "bid 80 + captured 15 = 95 ≤ 100: made"
    assert zh == "叫分 80 + 抓分 15 = 95 ≤ 100：成"


def test_the_session_results_cost_the_same_queries_however_many_hands(table, django_assert_num_queries):
    client = table.client("owner")
    long = make_session(table.club, table.owner)
    record_hands(long, table.owner, BENXI_EXAMPLE * 4)
    for session in (table.session, long):
        # token, the session's version (its ETag), session with the membership and club, seats with the last state
        # (and the log's last number), the page's revisions
        with django_assert_num_queries(5):
            client.get(f"/api/v1/sessions/{session.pk}/")


@pytest.mark.parametrize("n", [5, 17])
def test_recording_a_hand_answers_from_the_write_at_a_fixed_cost(table, n, django_assert_num_queries):
    client = table.client("owner")
    session = make_session(table.club, table.owner)
    record_hands(session, table.owner, (BENXI_EXAMPLE * 4)[:n])
    # token, then the service's, whose lock reads the session and the user's role in one (the view does not read
    # it first; tests/services/test_query_pins.py: the hand and its revision one INSERT on PostgreSQL, its change
    # feed row after the feed lock there): the answer is built from the rows the write made, with the seats it read
    postgresql = connection.vendor == "postgresql"
    with django_assert_num_queries(1 + 9 + (1 if postgresql else 2) + (2 if postgresql else 1)):
        response = client.post(f"/api/v1/sessions/{session.pk}/hands/", BENXI_EXAMPLE[n % 5], format="json")
    assert response.status_code == 201 and response.json()["n"] == n + 1
    stored = client.get(f"/api/v1/sessions/{session.pk}/").json()["hands"]
    assert response.json()["result"] == next(hand for hand in stored if hand["n"] == n + 1)


def test_void_hands_keep_their_numbers_in_the_results_and_leave_the_export(table):
    client = table.client("owner")
    record_hands(table.session, table.owner, BENXI_EXAMPLE[2:4])
    client.post(f"/api/v1/sessions/{table.session.pk}/hands/2/void/", {"reason": "entered twice"}, format="json")
    results = client.get(f"/api/v1/sessions/{table.session.pk}/").json()
    assert [hand["n"] for hand in results["hands"]] == [1, 3, 4]
    exported = client.get(f"/api/v1/sessions/{table.session.pk}/export/").json()
    assert exported["hands"] == [BENXI_EXAMPLE[0], BENXI_EXAMPLE[2], BENXI_EXAMPLE[3]]
    assert exported["date"] == table.session.date.isoformat()


def test_import_creates_a_closed_session_and_answers_with_its_results(table):
    document = {
        "variant": "baifen.benxi",
        "players": ["甲", "乙", "新人", "丁"],
        "hands": BENXI_EXAMPLE,
        "date": "2026-11-07",
        "venue": "一号桌",
    }
    response = table.client("scorekeeper").post(LIST.format("laonian"), document, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    session = Session.objects.get(pk=body["id"])
    assert response["Location"].endswith(f"/api/v1/sessions/{session.pk}/")
    assert (body["club"], body["date"], body["venue"], body["status"]) == ("laonian", "2026-11-07", "一号桌", "closed")
    assert body["totals"] == [315, 230, 315, 230] and body["games_won"] == [1, 1, 1, 1]
    assert session.seats.get(seat=0).player == Player.objects.get(club=table.club, name="甲")
    assert Player.objects.get(club=table.club, name="新人").is_guest


def test_import_can_leave_the_session_open_for_more_hands(table):
    document = {"variant": "baifen.benxi", "players": ["甲", "乙", "丙", "丁"], "hands": BENXI_EXAMPLE[:2]}
    client = table.client("owner")
    body = client.post(LIST.format("laonian") + "?close=false", document, format="json").json()
    assert body["status"] == "open"
    response = client.post(f"/api/v1/sessions/{body['id']}/hands/", BENXI_EXAMPLE[2], format="json")
    assert response.status_code == 201 and response.json()["n"] == 3


@pytest.mark.parametrize(
    ("change", "status", "code", "hand", "field"),
    [
        # 本溪: seat 0 is place (0 − 2) mod 4 = 2 after dealer 2, and place 2 must bid 85 or more.
        (
            {"hands": [*BENXI_EXAMPLE[:2], {"dealer": 2, "declarer": 0, "bid": 80, "captured": 0}]},
            400,
            "bid.place_minimum",
            3,
            "bid",
        ),
        (
            {"hands": [BENXI_EXAMPLE[0], {"declarer": 1, "bid": 85, "captured": 12}]},
            400,
            "points.not_multiple_of_5",
            2,
            "captured",
        ),
        ({"hands": [BENXI_EXAMPLE[0] | {"partner": 2}]}, 400, "field.unknown", 1, "partner"),
        ({"players": ["甲", "乙", "丙"]}, 400, "players.count", None, "players"),
        ({"options": {"target": 7}}, 400, "option.invalid", None, "options.target"),
        ({"date": "30/11/2026"}, 400, "value.not_date", None, "date"),
        ({"colour": "red"}, 400, "field.unknown", None, "colour"),
    ],
)
def test_a_bad_document_is_refused_whole_naming_the_hand_and_the_field(table, change, status, code, hand, field):
    document = {
        "variant": "baifen.benxi",
        "players": ["新甲", "新乙", "新丙", "新丁"],
        "hands": BENXI_EXAMPLE,
        **change,
    }
    before = (Session.objects.count(), Hand.objects.count(), Player.objects.count())
    response = table.client("owner").post(LIST.format("laonian"), document, format="json")
    assert_error(response, status, code, hand=hand, field=field)
    assert (Session.objects.count(), Hand.objects.count(), Player.objects.count()) == before


def test_a_refusal_is_in_the_requests_language(table):
    document = {
        "variant": "baifen.benxi",
        "players": ["甲", "乙", "丙", "丁"],
        "hands": [{"declarer": 2, "bid": 80, "captured": 0}],
    }
    en = table.client("owner", lang="en").post(LIST.format("laonian"), document, format="json").json()
    zh = table.client("owner", lang="zh-hans").post(LIST.format("laonian"), document, format="json").json()
    assert en["message"] == "in Benxi the third bidder (the dealer is first) must bid at least 85"
    assert zh["message"].startswith("本溪") and (zh["hand"], zh["field"]) == (en["hand"], en["field"]) == (1, "bid")


def test_an_option_too_big_to_settle_is_a_400_and_imports_nothing(table):
    # Unbounded, a stake of 10**30 × 8 (a 100 bid) × 3 (a lone declarer) would overflow the stored figures.
    document = {
        "variant": "baifen.classic",
        "options": {"stake": 10**30},
        "players": ["甲", "乙", "丙", "丁"],
        "hands": [{"declarer": 0, "bid": 100, "partner": None, "captured": 0}],
    }
    before = (Session.objects.count(), Hand.objects.count())
    response = table.client("owner").post(LIST.format("laonian"), document, format="json")
    assert_error(response, 400, "option.invalid", field="options.stake")
    assert (Session.objects.count(), Hand.objects.count()) == before


def test_a_log_that_no_longer_replays_is_a_409_naming_the_hand(table):
    # As if the rules had changed under a stored hand: write a revision the engine refuses, bypassing the services.
    hand = Hand.objects.create(session=table.session, number=3)
    bad = {"declarer": 9, "bid": 80, "captured": 0}
    HandRevision.objects.create(hand=hand, number=1, input=bad, author=table.owner)
    response = table.client("owner").get(f"/api/v1/sessions/{table.session.pk}/")
    body = assert_error(response, 409, "log.unreadable", hand=3, field="declarer")
    assert body["message"].startswith("the hand log no longer replays")
