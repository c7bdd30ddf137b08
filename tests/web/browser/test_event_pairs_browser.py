"""A pairs event's page on a phone (360 × 740) in both languages: the pairs' standings shown, nothing off the
page, axe clean; the new-event form with its pairs field too."""

from __future__ import annotations

import pytest

from settlement import services
from tests.factories import BENXI_EXAMPLE, make_club, make_member, record_hands

from .conftest import PHONE, overflows

pytestmark = pytest.mark.django_db(transaction=True)

expect = pytest.importorskip("playwright.sync_api").expect


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_a_pairs_event_shows_its_pairs_on_a_phone(new_page, live_server, lang):
    club = make_club("东城俱乐部")
    owner = make_member(club)
    names = [f"选手{i:02}" for i in range(8)]
    pairs = [names[i : i + 2] for i in range(0, 8, 2)]
    event = services.event_create(
        club=club, user=owner, name="对抗赛", variant="baifen.benxi", players=names, pairs=pairs
    )
    drawn = services.round_draw(event=event, user=owner, draw="balanced", seed=4)
    record_hands(drawn.tables.order_by("number").first().session, owner, BENXI_EXAMPLE[:1])
    page = new_page(owner, viewport=PHONE, lang=lang)
    page.goto(f"{live_server.url}/clubs/{club.slug}/events/{event.pk}/")
    expect(page.locator(".pair-standings tbody tr")).to_have_count(4)
    assert overflows(page) == []
    page.goto(f"{live_server.url}/clubs/{club.slug}/events/new/?variant=baifen.benxi")
    expect(page.locator('textarea[name="pairs"]')).to_have_count(1)
    assert overflows(page) == []
    assert page.js_errors == []
