"""The event pages in Chromium: the director's page on a phone (360 × 740) in both languages, drawing a round with
the form, and the big screen at 1280 × 720 and 1920 × 1080 with nothing off screen, following a hand recorded
at a table without a reload. axe-core checks every page shown (conftest)."""

from __future__ import annotations

import pytest

from settlement import services
from tests.factories import BENXI_EXAMPLE, make_club, make_member, record_hands

from .conftest import PHONE, overflows

pytestmark = pytest.mark.django_db(transaction=True)

expect = pytest.importorskip("playwright.sync_api").expect

LIVE = 5_000  # ms: the big screen polls every 2 s


def _event(count: int):
    club = make_club("东城俱乐部")
    owner = make_member(club)
    names = [f"选手{i:02}" for i in range(count)]
    event = services.event_create(club=club, user=owner, name="周五晚赛", variant="baifen.benxi", players=names)
    return club, owner, event


def off_screen(page) -> list[str]:
    """Elements (with a box) reaching past the viewport's right or bottom edge, and a page that scrolls."""
    return page.evaluate(
        """() => {
          const w = innerWidth, h = innerHeight, root = document.documentElement, out = [];
          if (root.scrollHeight > root.clientHeight + 1) out.push("document " + root.scrollHeight);
          if (root.scrollWidth > root.clientWidth + 1) out.push("document width " + root.scrollWidth);
          for (const el of document.querySelectorAll("main *")) {
            const box = el.getBoundingClientRect();
            if (!box.width || !box.height) continue;
            if (box.right > w + 0.5 || box.bottom > h + 0.5) {
            out.push(`${el.tagName.toLowerCase()}.${el.className} ${Math.round(box.right)}x${Math.round(box.bottom)}`);
            }
          }
          return out;
        }"""
    )


@pytest.mark.parametrize(
    ("lang", "draw", "round_1"), [("zh-hans", "排座", "第 1 轮"), ("en", "Draw the round", "Round 1")]
)
def test_the_director_draws_a_round_on_a_phone(new_page, live_server, lang, draw, round_1):
    club, owner, event = _event(9)
    page = new_page(owner, viewport=PHONE, lang=lang)
    page.goto(f"{live_server.url}/clubs/{club.slug}/events/{event.pk}/")
    assert overflows(page) == []
    page.locator('input[name="draw"][value="balanced"]').check()
    page.get_by_role("button", name=draw).click()
    expect(page.locator("#round-1 h3")).to_contain_text(round_1)
    expect(page.locator("#round-1 table.seating tbody tr")).to_have_count(2)
    assert overflows(page) == []
    page.goto(f"{live_server.url}/clubs/{club.slug}/events/")
    page.goto(f"{live_server.url}/clubs/{club.slug}/events/{event.pk}/rounds/1/cards/")
    expect(page.locator("article.table-card svg")).to_have_count(2)
    assert overflows(page) == []
    assert page.js_errors == []


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
@pytest.mark.parametrize("count", [16, 40])
def test_the_big_screen_fits_the_room_screens_and_follows_the_tables(new_page, live_server, lang, count):
    club, owner, event = _event(count)
    made = services.round_draw(event=event, user=owner, draw="balanced", seed=5)
    url = f"{live_server.url}/clubs/{club.slug}/events/{event.pk}/screen/"
    pages = []
    for viewport in ({"width": 1280, "height": 720}, {"width": 1920, "height": 1080}):
        page = new_page(owner, viewport=viewport, lang=lang, color_scheme="dark")
        page.goto(url)
        expect(page.locator("ul.screen-tables > li")).to_have_count(count // 4)
        assert off_screen(page) == [], viewport
        font = page.evaluate("parseFloat(getComputedStyle(document.querySelector('ul.screen-tables')).fontSize)")
        assert font >= viewport["height"] * 0.018  # about 2 vmin at the least: legible across a room
        pages.append(page)
    session = made.tables.get(number=1).session
    record_hands(session, owner, BENXI_EXAMPLE[:1])
    hand = "1 局" if lang == "zh-hans" else "1 hand"
    for page in pages:
        expect(page.locator("ul.screen-tables > li").first.locator("h3 small")).to_contain_text(hand, timeout=LIVE)
        assert off_screen(page) == []
        assert page.js_errors == []
