"""The event page's settle-up on a phone (360 × 740) in both languages: shown, nothing off the page, axe clean."""

from __future__ import annotations

import pytest

from settlement import services
from tests.factories import make_club, make_member, record_hands

from .conftest import PHONE, overflows

pytestmark = pytest.mark.django_db(transaction=True)

expect = pytest.importorskip("playwright.sync_api").expect


@pytest.mark.parametrize(("lang", "heading"), [("zh-hans", "全场结算"), ("en", "Settle-up over the whole event")])
def test_the_settle_up_shows_on_a_phone(new_page, live_server, lang, heading):
    club = make_club("东城俱乐部")
    owner = make_member(club)
    names = [f"选手{i:02}" for i in range(4)]
    event = services.event_create(
        club=club, user=owner, name="周五晚赛", variant="baifen.classic", options={"unit_value": 2}, players=names
    )
    drawn = services.round_draw(event=event, user=owner, draw="random", seed=4)
    record_hands(drawn.tables.get().session, owner, [{"declarer": 1, "bid": 45, "partner": None, "captured": 0}])
    page = new_page(owner, viewport=PHONE, lang=lang)
    page.goto(f"{live_server.url}/clubs/{club.slug}/events/{event.pk}/")
    expect(page.locator("#settle-up-h")).to_have_text(heading)
    expect(page.locator(".settle-up ul.transfers li")).to_have_count(3)
    assert overflows(page) == []
    page.goto(f"{live_server.url}/clubs/{club.slug}/events/{event.pk}/results/")
    expect(page.locator(".settle-up ul.transfers li")).to_have_count(3)
    assert overflows(page) == []
    assert page.js_errors == []
