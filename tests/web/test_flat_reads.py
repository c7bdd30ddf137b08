"""Reads come from the stored rows: no page replays the session, and the long ones come in pages."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from bench.run import benxi_session
from settlement import services
from settlement.ledger import log
from settlement.rules import session as engine
from settlement.selectors import records
from tests.factories import BENXI_EXAMPLE

pytestmark = pytest.mark.django_db


def _url(name, session, **kwargs):
    return reverse(name, kwargs={"slug": session.club.slug, "session_id": session.pk, **kwargs})


def _refuse_replay(monkeypatch):
    """Make every way into the engine's replay fail loudly."""

    def refuse(*args, **kwargs):
        raise AssertionError("a read replayed the session")

    for module, name in (
        (engine, "session_replay"),
        (engine, "session_play"),
        (log, "session_play"),
        (log, "log_replay"),
        (records, "log_replay"),
    ):
        monkeypatch.setattr(module, name, refuse)


def test_the_pages_and_the_api_read_the_stored_rows_without_replaying(owner_client, monkeypatch):
    client, club, owner = owner_client
    session = services.session_import(club=club, user=owner, document=benxi_session(10), close=False).session
    services.hand_void(session=session, user=owner, number=3, reason="entered twice")
    services.hand_correct(session=session, user=owner, number=6, hand_input=BENXI_EXAMPLE[0], reason="x")
    link = services.share_create(session=session, user=owner)
    window = records.hand_window(count=10)
    expected = records._replayed_record(session=session, window=window, lang="en").results
    _refuse_replay(monkeypatch)
    for url in (
        _url("session_detail", session),
        _url("table", session),
        _url("hand_detail", session, number=2),
        _url("hand_detail", session, number=3),
        _url("table_fix", session, number=4),
        reverse("share", args=[link.token]),
        reverse("share_live", args=[link.token]),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(owner)
    body = api.get(f"/api/v1/sessions/{session.pk}/").json()
    assert {key: body[key] for key in expected} == expected


def test_a_read_of_the_stored_rows_equals_the_replay_for_every_window(owner_client):
    _, club, owner = owner_client
    session = services.session_import(club=club, user=owner, document=benxi_session(23), close=False).session
    services.hand_void(session=session, user=owner, number=7, reason="x")
    services.hand_correct(session=session, user=owner, number=12, hand_input=BENXI_EXAMPLE[0], reason="x")
    whole = records.session_results(session=session, lang="en")
    replayed = records._replayed_record(session=session, window=whole.window, lang="en")
    assert whole.results == replayed.results and whole.hands == replayed.hands
    assert whole.last_game == replayed.last_game and whole.last_hand == replayed.last_hand
    for offset, limit in ((0, 5), (5, 5), (20, 5), (3, 9)):
        page = records.session_results(session=session, lang="en", offset=offset, limit=limit)
        window = page.window
        assert [h.number for h in page.hands] == list(range(window.first, window.last + 1))
        assert window.last == 23 - offset and len(page.hands) == min(limit, 23 - offset)
        for key in ("totals", "games_won", "settle_up", "options", "players", "unit", "variant"):
            assert page.results[key] == whole.results[key]
        assert page.results["hands"] == [h for h in whole.results["hands"] if window.first <= h["n"] <= window.last]


def test_the_session_page_pages_its_hands_newest_first(owner_client, django_assert_num_queries):
    client, club, owner = owner_client
    session = services.session_import(club=club, user=owner, document=benxi_session(120), close=False).session
    first = client.get(_url("session_detail", session)).content.decode()
    numbers = [int(n) for n in re.findall(r'id="hand-(\d+)"', first)]
    assert numbers == list(range(120, 100, -1))
    assert f'href="{_url("session_detail", session)}?page=2"' in first and 'rel="prev"' not in first
    last = client.get(_url("session_detail", session) + "?page=6").content.decode()
    assert [int(n) for n in re.findall(r'id="hand-(\d+)"', last)] == list(range(20, 0, -1))
    assert 'rel="next"' not in last and f'href="{_url("session_detail", session)}?page=5"' in last
    assert client.get(_url("session_detail", session) + "?page=7").status_code == 404
    # django session, user, session + membership + club, seats with the state, revisions, events, the event it is a
    # table of
    with django_assert_num_queries(7):
        client.get(_url("session_detail", session) + "?page=2")


def test_the_table_page_lists_a_bounded_number_of_earlier_hands(owner_client):
    client, club, owner = owner_client
    session = services.session_import(club=club, user=owner, document=benxi_session(200), close=False).session
    page = client.get(_url("table", session)).content.decode()
    older = page[page.index('class="older"') :]
    assert page.count('<article class="hand') == 8
    assert "#192" in older and "#153" in older and "#152" not in older
    assert _url("session_detail", session) in older  # the rest is on the session page


def test_the_api_pages_the_hands_of_a_long_session(owner_client, django_assert_num_queries):
    _, club, owner = owner_client
    session = services.session_import(club=club, user=owner, document=benxi_session(12), close=False).session
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(owner)
    url = f"http://testserver/api/v1/sessions/{session.pk}/?limit=5"
    whole = api.get(f"/api/v1/sessions/{session.pk}/").json()
    assert whole["next"] is None and whole["hand_count"] == 12
    seen, pages = [], []
    while url:
        body = api.get(url).json()
        pages.append(body)
        seen[:0] = [hand["n"] for hand in body["hands"]]
        assert body["totals"] == whole["totals"] and body["settle_up"] == whole["settle_up"]
        url = body["next"]
    assert [hand["n"] for hand in whole["hands"]] == seen  # every counted hand once, in play order
    assert pages[0]["previous"] is None and pages[1]["previous"].endswith("?limit=5")
    assert pages[2]["previous"].endswith("limit=5&offset=5")
    finished = [g for page in pages for g in page["games"] if g["finished"]]
    assert sorted(finished, key=lambda g: g["n"]) == [g for g in whole["games"] if g["finished"]]
    assert api.get(f"/api/v1/sessions/{session.pk}/?limit=0").status_code == 400
    long = services.session_import(club=club, user=owner, document=benxi_session(300), close=False).session
    for target in (session, long):
        # the session's version (its ETag), the session with the membership and club, seats with the last state, the
        # page's revisions with their states
        with django_assert_num_queries(4):
            body = api.get(f"/api/v1/sessions/{target.pk}/").json()
    # the default page is the newest 20 (HANDS_PAGE): 281 … 300
    assert [hand["n"] for hand in body["hands"]] == list(range(281, 301))
    assert body["next"].endswith("?offset=20")
