"""Incremental sync: `created` and `updated` on every object, `updated_since` and pages on every list."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from settlement.models import Club, Player, Session
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_player

pytestmark = pytest.mark.django_db


def _at(text: str) -> datetime.datetime:
    return datetime.datetime.fromisoformat(text)


def test_every_object_carries_created_and_updated(table):
    client = table.client("owner")
    sid = table.session.pk
    made = client.post("/api/v1/tokens/", {"name": "sync"}, format="json").json()
    objects = {
        "club": client.get("/api/v1/clubs/").json()["results"][0],
        "player": client.get("/api/v1/clubs/laonian/players/").json()["results"][0],
        "session summary": client.get("/api/v1/clubs/laonian/sessions/").json()["results"][0],
        "session": client.get(f"/api/v1/sessions/{sid}/").json(),
        "hand": client.get(f"/api/v1/sessions/{sid}/hands/").json()["results"][0],
        "revision": client.get(f"/api/v1/sessions/{sid}/hands/1/revisions/").json()["results"][0],
        "token": client.get("/api/v1/tokens/").json()["results"][0],
        "new token": made,
        "closed": client.post(f"/api/v1/sessions/{sid}/close/", {}, format="json").json(),
    }
    for name, body in objects.items():
        assert _at(body["created"]) <= _at(body["updated"]), name


TIME_KEYS = ("created", "updated", "closed_at", "expires", "last_used", "revoked")


def _times(body) -> list[tuple[str, str]]:
    """(key, value) of every time-valued key anywhere in `body`."""
    found = []
    if isinstance(body, dict):
        for key, value in body.items():
            if key in TIME_KEYS and value is not None:
                found.append((key, value))
            found += _times(value)
    elif isinstance(body, list):
        for value in body:
            found += _times(value)
    return found


def test_every_time_is_answered_in_utc_with_z_and_a_sessions_date_stays_its_local_day(table):
    client = table.client("owner")
    sid = table.session.pk
    Session.objects.filter(pk=sid).update(date=datetime.date(2026, 3, 1))
    made = client.post("/api/v1/tokens/", {"name": "sync", "expires": "2099-01-01T08:00:00+08:00"}, format="json")
    bodies = [
        made.json(),
        client.get("/api/v1/clubs/").json(),
        client.get("/api/v1/clubs/laonian/players/").json(),
        client.get(f"/api/v1/clubs/laonian/players/{table.session.seats.first().player_id}/").json(),
        client.get("/api/v1/clubs/laonian/sessions/").json(),
        client.get(f"/api/v1/sessions/{sid}/").json(),
        client.post(f"/api/v1/sessions/{sid}/hands/", BENXI_EXAMPLE[2], format="json").json(),
        client.get(f"/api/v1/sessions/{sid}/hands/").json(),
        client.get(f"/api/v1/sessions/{sid}/hands/1/revisions/").json(),
        client.post(f"/api/v1/sessions/{sid}/close/", {}, format="json").json(),
    ]
    assert client.delete(f"/api/v1/tokens/{made.json()['id']}/").status_code == 204
    bodies.append(client.get("/api/v1/tokens/").json())
    times = [pair for body in bodies for pair in _times(body)]
    assert {key for key, _ in times} == set(TIME_KEYS) - {"last_used"}  # a token sent in a header only
    for key, value in times:
        assert value.endswith("Z") and _at(value).utcoffset() == datetime.timedelta(0), (key, value)
    assert made.json()["expires"] == "2099-01-01T00:00:00Z"
    assert bodies[5]["date"] == "2026-03-01" and bodies[4]["results"][0]["date"] == "2026-03-01"


def test_a_sessions_updated_is_its_latest_write(table):
    client = table.client("owner")
    sid = table.session.pk
    before = _at(client.get(f"/api/v1/sessions/{sid}/").json()["updated"])
    written = client.post(f"/api/v1/sessions/{sid}/hands/", BENXI_EXAMPLE[2], format="json").json()
    after_record = _at(client.get(f"/api/v1/sessions/{sid}/").json()["updated"])
    assert before < after_record == _at(written["updated"])
    voided = client.post(f"/api/v1/sessions/{sid}/hands/1/void/", {"reason": "twice"}, format="json").json()
    after_void = _at(client.get(f"/api/v1/sessions/{sid}/").json()["updated"])
    assert after_record < after_void == _at(voided["updated"])
    closed = client.post(f"/api/v1/sessions/{sid}/close/", {}, format="json").json()
    assert after_void < _at(closed["updated"]) == _at(client.get(f"/api/v1/sessions/{sid}/").json()["updated"])
    # The void hand 1 is listed with its void revision's time; hand 1 was recorded before hand 3.
    hands = client.get(f"/api/v1/sessions/{sid}/hands/").json()["results"]
    assert [(h["n"], h["revision"], h["is_void"]) for h in hands] == [(1, 2, True), (2, 1, False), (3, 1, False)]
    assert hands[0]["input"] is None and _at(hands[0]["updated"]) == after_void
    assert hands[2]["input"] == BENXI_EXAMPLE[2]


def test_updated_since_lists_only_what_changed_at_or_after_it(table):
    client = table.client("owner")
    sid = table.session.pk
    old = timezone.now() - datetime.timedelta(days=1)
    Session.objects.filter(pk=sid).update(updated_at=old)
    Player.objects.update(updated_at=old)
    Club.objects.update(updated_at=old)
    other = make_player(table.club, "新人")  # made now
    cut = (timezone.now() - datetime.timedelta(minutes=1)).isoformat()
    players = client.get("/api/v1/clubs/laonian/players/", {"updated_since": cut}).json()
    assert [p["id"] for p in players["results"]] == [other.pk] and players["count"] == 1
    assert client.get("/api/v1/clubs/laonian/sessions/", {"updated_since": cut}).json()["count"] == 0
    client.post(f"/api/v1/sessions/{sid}/hands/", BENXI_EXAMPLE[2], format="json")
    sessions = client.get("/api/v1/clubs/laonian/sessions/", {"updated_since": cut}).json()
    assert [s["id"] for s in sessions["results"]] == [sid]
    # Hands 1 and 2 were recorded when the table was set up, hand 3 now; a cut after hand 2's time leaves 3.
    second = client.get(f"/api/v1/sessions/{sid}/hands/").json()["results"][1]["updated"]
    later = (_at(second) + datetime.timedelta(microseconds=1)).isoformat()
    hands = client.get(f"/api/v1/sessions/{sid}/hands/", {"updated_since": later}).json()
    assert [h["n"] for h in hands["results"]] == [3]
    assert client.get("/api/v1/clubs/", {"updated_since": cut}).json()["count"] == 0
    Club.objects.filter(pk=table.club.pk).update(name="改名")  # an update() does not touch auto_now: save does
    table.club.refresh_from_db()
    table.club.save()
    assert client.get("/api/v1/clubs/", {"updated_since": cut}).json()["count"] == 1


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/clubs/",
        "/api/v1/clubs/laonian/players/",
        "/api/v1/clubs/laonian/sessions/",
        "/api/v1/sessions/{sid}/hands/",
        "/api/v1/sessions/{sid}/hands/1/revisions/",
        "/api/v1/tokens/",
    ],
)
def test_every_list_pages_and_refuses_a_bad_updated_since_or_limit(table, url):
    client = table.client("owner")
    url = url.format(sid=table.session.pk)
    body = client.get(url, {"limit": 1}).json()
    assert set(body) == {"count", "next", "previous", "results"} and len(body["results"]) <= 1
    assert body["previous"] is None
    assert client.get(url, {"limit": 0}).json()["field"] == "limit"
    if "revisions" not in url and "tokens" not in url:
        bad = client.get(url, {"updated_since": "yesterday"})
        assert bad.status_code == 400 and bad.json()["field"] == "updated_since"


def test_the_players_list_pages_through_every_player_once(table):
    for i in range(3):
        make_player(table.club, f"p{i}")
    client = table.client("owner")
    first = client.get("/api/v1/clubs/laonian/players/", {"limit": 2}).json()
    names, page = [], first
    while True:
        names += [p["name"] for p in page["results"]]
        if page["next"] is None:
            break
        page = client.get(page["next"]).json()
    # the table's four seated guests 甲乙丙丁 and p0–p2: seven, each once
    assert first["count"] == len(names) == len(set(names)) == 7


def test_the_clubs_list_has_only_your_clubs(table):
    make_member(make_club(slug="third"), user=table.viewer)
    slugs = [c["slug"] for c in table.client("viewer").get("/api/v1/clubs/").json()["results"]]
    assert sorted(slugs) == ["laonian", "third"]
