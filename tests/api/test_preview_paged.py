"""POST sessions/{id}/hands/preview/ for a new hand: played on from the stored state and added to the newest page
of stored hands, as GET sessions/{id}/ pages them — the same cost at hand 6 as at hand 51."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from bench.run import benxi_session
from settlement import services
from settlement.models import Hand
from tests.factories import make_club, make_member

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    club = make_club()
    user = make_member(club)
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(user)
    return club, user, api


def _session(owner, n):
    club, user, _ = owner
    document = benxi_session(n + 1)
    session = services.session_import(
        club=club, user=user, document=document | {"hands": document["hands"][:n]}, close=False
    ).session
    return session, document["hands"][n]


@pytest.mark.parametrize(("n", "page", "older"), [(5, list(range(1, 7)), False), (50, list(range(31, 52)), True)])
def test_the_preview_is_the_newest_page_with_the_hand_added_at_a_fixed_cost(
    owner, n, page, older, django_assert_num_queries
):
    _, _, api = owner
    session, hand = _session(owner, n)
    # the session with the membership and its club; the page's seats with the last state, and its revisions with
    # their states, which the preview plays on from (it asks nothing of its own)
    with django_assert_num_queries(3):
        response = api.post(f"/api/v1/sessions/{session.pk}/hands/preview/", hand, format="json")
    assert response.status_code == 200
    body = response.json()
    assert [h["n"] for h in body["hands"]] == page
    assert (body["next"] or "").endswith("?offset=20") if older else body["next"] is None
    assert Hand.objects.filter(session=session).count() == n


@pytest.mark.parametrize("n", [3, 4, 19, 50])
def test_the_preview_answers_what_recording_the_hand_then_gives(owner, n):
    _, _, api = owner
    session, hand = _session(owner, n)
    preview = api.post(f"/api/v1/sessions/{session.pk}/hands/preview/", hand, format="json").json()
    assert api.post(f"/api/v1/sessions/{session.pk}/hands/", hand, format="json").status_code == 201
    recorded = api.get(f"/api/v1/sessions/{session.pk}/").json()
    assert preview["hands"][-1] == recorded["hands"][-1]
    for key in ("totals", "games_won", "settle_up"):
        assert preview[key] == recorded[key]
    tail = [g for g in recorded["games"] if g["last_hand"] == n + 1 or not g["finished"]]
    assert [g for g in preview["games"] if g["last_hand"] == n + 1 or not g["finished"]] == tail


def test_a_corrections_preview_is_still_the_whole_document(owner):
    _, _, api = owner
    session, _ = _session(owner, 25)
    body = api.post(
        f"/api/v1/sessions/{session.pk}/hands/preview/?number=1", benxi_session(1)["hands"][0], format="json"
    ).json()
    assert [h["n"] for h in body["hands"]] == list(range(1, 26))
    assert body["next"] is None
