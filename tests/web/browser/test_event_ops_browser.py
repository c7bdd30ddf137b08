"""The director's event actions in Chromium on a phone (360 × 740): a substitute seated, a round's late hands
allowed, the event finished after its confirmation page; nothing off screen, axe-core clean (conftest)."""

from __future__ import annotations

import pytest

from settlement import services
from tests.factories import make_club, make_member

from .conftest import PHONE, overflows

pytestmark = pytest.mark.django_db(transaction=True)

expect = pytest.importorskip("playwright.sync_api").expect


@pytest.mark.parametrize(
    ("lang", "seat", "allow", "finish", "final"),
    [
        ("zh-hans", "替补入座", "放行超时牌局", "现在结束", "最终排名"),
        ("en", "Seat the substitute", "Allow late hands", "Finish it now", "Final standings"),
    ],
)
def test_the_director_seats_a_substitute_allows_late_hands_and_finishes_on_a_phone(
    new_page, live_server, lang, seat, allow, finish, final
):
    club = make_club("东城俱乐部")
    owner = make_member(club)
    names = [f"选手{i:02}" for i in range(8)]
    event = services.event_create(
        club=club, user=owner, name="周五晚赛", variant="baifen.benxi", players=names, late_hands="refused"
    )
    services.round_draw(event=event, user=owner, draw="random", seed=2, length_minutes=30)
    page = new_page(owner, viewport=PHONE, lang=lang)
    url = f"{live_server.url}/clubs/{club.slug}/events/{event.pk}/"
    page.goto(url)
    assert overflows(page) == []
    page.locator('#substitute select[name="absent"]').select_option(index=0)
    page.locator('#substitute input[name="substitute"]').fill("李娜")
    page.get_by_role("button", name=seat).click()
    expect(page.locator("#round-1 table.seating")).to_contain_text("李娜")
    page.get_by_role("button", name=allow).click()
    expect(page.locator("#round-1 div.late form button")).to_be_visible()
    assert overflows(page) == []
    page.goto(url + "finish/")
    assert overflows(page) == []
    page.locator('input[name="close_open"]').check()
    page.get_by_role("button", name=finish).click()
    page.wait_for_url("**/results/")
    page.goto(url)
    expect(page.locator("p.final")).to_contain_text(final)
    assert overflows(page) == []
    assert page.js_errors == []
