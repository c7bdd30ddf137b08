"""The share page in Chromium: a player's phone follows the scorekeeper's table without reloading.

Two browser contexts: the scorekeeper (logged in) on the table page, a player (no login) on the
share link. Figures from rules/baifen.md's 本溪 example (tests/factories.BENXI_EXAMPLE), worked there.
"""

from __future__ import annotations

import re

import pytest

from settlement import services
from settlement.models import Role
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_session, record_hands

from .conftest import PHONE, overflows
from .test_table_browser import _enter, _record, _table

pytestmark = pytest.mark.django_db(transaction=True)

expect = pytest.importorskip("playwright.sync_api").expect

LIVE = 5_000  # ms: the news must be on the share page within 5 s (it polls every 2 s)


def _board(page):
    return page.eval_on_selector_all(
        "table.board tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText.trim()))"
    )


def test_the_share_page_follows_a_record_a_correction_and_a_void_without_a_reload(new_page, live_server):
    club = make_club("东城俱乐部")
    make_member(club)
    keeper = make_member(club, Role.SCOREKEEPER)
    session = make_session(club, keeper)
    record_hands(session, keeper, BENXI_EXAMPLE[:1])
    link = services.share_create(session=session, user=keeper)
    share_url = f"{live_server.url}/s/{link.token}/"

    player = new_page(viewport=PHONE)  # no login
    player.goto(share_url)
    expect(player.locator("#hand-1")).to_be_visible()
    player.evaluate("document.body.dataset.loaded = 'once'")  # gone if the page ever reloads
    expect(player.locator("#live-status")).to_contain_text("实时")
    assert overflows(player) == []

    table = new_page(keeper, viewport=PHONE)
    table.goto(_table(live_server, session))
    # Hand 2 as in the example: 乙 declares 85 and the defenders capture 20: made.
    _enter(table, "叫分 85 + 抓分 20 = 105 > 100：破", declarer=1, bid=85, captured=20)
    _record(table, 2)
    expect(player.locator("#hand-2")).to_contain_text("叫分 85 + 抓分 20", timeout=LIVE)

    # Correct hand 2 to 10 captured (made).
    table.click("#hand-2 a.fix")
    table.fill('input[name="captured"]', "10")
    table.fill('input[name="reason"]', "少记了一个十")
    expect(table.locator("#receipt")).to_contain_text("叫分 85 + 抓分 10 = 95 ≤ 100：成")
    table.click("button[value=correct]")
    table.wait_for_url(re.compile(r"\?fixed=2$"))
    expect(player.locator("#hand-2")).to_contain_text("少记了一个十", timeout=LIVE)
    expect(player.locator("#hand-2")).to_contain_text("叫分 85 + 抓分 10", timeout=LIVE)

    # Void hand 1.
    table.click("#hand-1 a.fix")
    table.fill('input[name="reason"]', "发错牌")
    table.click("button[value=void]")
    table.wait_for_url(re.compile(r"\?voided=1$"))
    expect(player.locator("#hand-1 .badge.void")).to_be_visible(timeout=LIVE)
    expect(player.locator("#hand-1")).to_contain_text("发错牌")
    assert _board(player) == _board(table)  # the same totals as the scorekeeper sees
    assert player.evaluate("document.body.dataset.loaded") == "once"  # never reloaded
    assert player.js_errors == [] and table.js_errors == []

    # Revoked: the open page says so; the link is gone (410) with a page that says it was revoked.
    services.share_revoke(session=session, user=keeper)
    expect(player.locator("#live-status")).to_contain_text("此链接已撤销", timeout=LIVE)
    assert player.goto(share_url).status == 410
    expect(player.locator("h1")).to_have_text("此链接已撤销")


def test_without_javascript_a_reload_shows_the_news(new_page, live_server):
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE[:1])
    link = services.share_create(session=session, user=owner)
    player = new_page(viewport=PHONE, script=False, lang="en")
    player.goto(f"{live_server.url}/s/{link.token}/")
    expect(player.locator("#live-status")).to_contain_text("Reload the page")
    assert player.locator("#hand-2").count() == 0
    record_hands(session, owner, BENXI_EXAMPLE[1:2])
    player.reload()
    expect(player.locator("#hand-2")).to_be_visible()
    assert overflows(player) == []


SIX = ["甲", "乙", "丙", "丁", "戊", "己"]


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 720}], ids=["phone", "tv-720p"])
def test_six_classic_seats_fit_the_big_screen_in_six_colours(new_page, live_server, viewport):
    # 6-player classic (rules/baifen.md): every seat's row is on the first screen, each its own colour.
    club = make_club()
    keeper = make_member(club)
    session = make_session(club, keeper, variant="baifen.classic", players=SIX)
    record_hands(session, keeper, [{"declarer": 4, "bid": 100, "partner": None, "captured": 0}])
    link = services.share_create(session=session, user=keeper)
    page = new_page(viewport=viewport)
    for url in (f"{live_server.url}/s/{link.token}/?view=tv", f"{live_server.url}/s/{link.token}/"):
        page.goto(url)
        rows = page.locator("table.board tbody tr")
        assert rows.count() == 6
        if "view=tv" in url:
            for i in range(6):
                box = rows.nth(i).bounding_box()
                assert box is not None and box["y"] + box["height"] <= viewport["height"], (i, box)
        colours = page.eval_on_selector_all(
            "table.board tbody .swatch", "els => els.map(e => getComputedStyle(e).backgroundColor)"
        )
        assert len(set(colours)) == 6, colours
        assert overflows(page) == []


SHENGJI_NAMES = ["王强", "李娜", "张伟", "刘洋", "陈静", "杨磊"]
# rules/shengji.md: 100 captured of 80 (4 players) takes the attackers up; of 120 (6 players) the declarers
# go up a level.
SHENGJI_HANDS = [{"declarer": 0, "captured": 20}, {"captured": 30}, {"captured": 100}]


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
@pytest.mark.parametrize("seats", [4, 6])
def test_every_shengji_seat_fits_the_big_screen_and_the_level_is_the_large_figure(new_page, live_server, seats, lang):
    club = make_club()
    keeper = make_member(club)
    session = make_session(club, keeper, variant="shengji", players=SHENGJI_NAMES[:seats])
    record_hands(session, keeper, SHENGJI_HANDS)
    link = services.share_create(session=session, user=keeper)
    viewport = {"width": 1280, "height": 720}
    page = new_page(viewport=viewport, lang=lang)
    page.goto(f"{live_server.url}/s/{link.token}/?view=tv")
    rows = page.locator("table.board tbody tr")
    assert rows.count() == seats
    for i in range(seats):
        box = rows.nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], (i, box)
        assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], (i, box)
    sizes = page.eval_on_selector(
        "table.board tbody tr",
        "r => [r.querySelector('td.level'), r.querySelector('td.big')]"
        ".map(c => parseFloat(getComputedStyle(c).fontSize))",
    )
    level, gained = sizes
    assert level > gained * 1.4, sizes  # the level reads across a room; the levels gained this game less so
    assert overflows(page) == []
