"""The event pages in Chromium: the director's page on a phone (360 × 740) in both languages, drawing a round with
the form and making the big screen's share link, and the big screen at 1280 × 720 and 1920 × 1080 with nothing off
screen (with a pairs event's pairs, a zero-sum variant's settle-up), following a hand recorded at a table without a
reload; the shared big screen with no login at 360 × 740 and 1280 × 720, saying so when its link is revoked;
every event and league page at 360 × 740 and 1280 × 720.
axe-core checks every page shown (conftest)."""

from __future__ import annotations

import pytest

from settlement import services
from settlement.models import Role
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


ALONE_CLEAN = {"declarer": 1, "bid": 45, "partner": None, "captured": 0}  # classic: [−2, +6, −2, −2]
ROOM_SCREENS = ({"width": 1280, "height": 720}, {"width": 1920, "height": 1080})


def _clipped(page) -> list[str]:
    """The standings column's lists cut off inside it (its overflow is hidden: nothing may be lost there)."""
    return page.evaluate(
        """() => [...document.querySelectorAll(".ranking ol, .ranking ul, .ranking")]
            .filter(el => el.scrollHeight > el.clientHeight + 1)
            .map(el => el.className + " " + el.scrollHeight + ">" + el.clientHeight)"""
    )


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
@pytest.mark.parametrize("kind", ["pairs", "settle-up", "both"])
def test_the_big_screen_with_pairs_or_a_settle_up_still_fits_the_room_screens(new_page, live_server, lang, kind):
    club = make_club("东城俱乐部")
    owner = make_member(club)
    names = [f"选手{i:02}" for i in range(16)]
    pairs = [names[i : i + 2] for i in range(0, 16, 2)]
    variant, options, fields, hand = SCREENS[kind]
    event = services.event_create(
        club=club, user=owner, name="周五晚赛", variant=variant, options=options, players=names, **fields(pairs)
    )
    made = services.round_draw(event=event, user=owner, draw="balanced", seed=5)
    for table in made.tables.all():
        record_hands(table.session, owner, [hand])
    url = f"{live_server.url}/clubs/{club.slug}/events/{event.pk}/screen/"
    shown = [s for k, s in (("pairs", "ol.screen-pairs > li"), ("settle-up", "ul.screen-transfers > li")) if k in kind]
    shown = shown or ["ol.screen-pairs > li", "ul.screen-transfers > li"]
    for viewport in ROOM_SCREENS:
        page = new_page(owner, viewport=viewport, lang=lang, color_scheme="dark")
        page.goto(url)
        for selector in shown:
            expect(page.locator(selector).first).to_be_visible()
            assert page.locator(selector).count() >= 5, selector
        assert off_screen(page) == [], viewport
        assert _clipped(page) == [], viewport
        for selector in (*shown, "ol.screen-standings:not(.screen-pairs) > li"):
            font = page.evaluate(f"parseFloat(getComputedStyle(document.querySelector('{selector}')).fontSize)")
            assert font >= viewport["height"] * 0.018, selector  # legible across the room
        assert page.js_errors == []


# kind → (variant, options, pairs or not, the hand recorded at every table)
GUNZI_B_WINS = {"declarer": 1, "captured": 55, "bottom_jokers": {"big": 2, "small": 1}}  # [-18, 18, -18, 18]
SCREENS = {
    "pairs": ("baifen.benxi", {}, lambda pairs: {"pairs": pairs}, BENXI_EXAMPLE[0]),
    "settle-up": ("baifen.classic", {"unit_value": 2}, lambda pairs: {}, ALONE_CLEAN),
    "both": ("gunzi", {"tribute_rounding": "ceil"}, lambda pairs: {"pairs": pairs}, GUNZI_B_WINS),
}


@pytest.mark.parametrize(
    ("lang", "make", "revoked"), [("zh-hans", "生成分享链接", "已撤销"), ("en", "Make a share link", "revoked")]
)
def test_the_director_shares_the_big_screen_and_a_tv_follows_it_with_no_login(
    new_page, live_server, lang, make, revoked
):
    club, owner, event = _event(16)
    made = services.round_draw(event=event, user=owner, draw="balanced", seed=5)
    keeper = make_member(club, Role.SCOREKEEPER)
    director = new_page(keeper, viewport=PHONE, lang=lang)
    director.goto(f"{live_server.url}/clubs/{club.slug}/events/{event.pk}/")
    director.locator("#share summary").click()
    director.get_by_role("button", name=make).click()
    expect(director.locator("#share .qr-box svg")).to_be_visible()
    assert overflows(director) == []
    share_url = director.locator("#share .share-url a").inner_text()
    assert share_url.startswith(f"{live_server.url}/e/")

    tvs = []
    for viewport in (PHONE, {"width": 1280, "height": 720}):
        tv = new_page(viewport=viewport, lang=lang, color_scheme="dark")  # no login
        tv.goto(share_url)
        expect(tv.locator("ul.screen-tables > li")).to_have_count(4)
        assert overflows(tv) == []
        if viewport != PHONE:
            assert off_screen(tv) == []
        tvs.append(tv)
    record_hands(made.tables.get(number=1).session, owner, BENXI_EXAMPLE[:1])
    hand = "1 局" if lang == "zh-hans" else "1 hand"
    for tv in tvs:
        expect(tv.locator("ul.screen-tables > li").first.locator("h3 small")).to_contain_text(hand, timeout=LIVE)
    director.get_by_role("button", name="作废链接" if lang == "zh-hans" else "Revoke the link").click()
    expect(director.locator("#share .qr-box")).to_have_count(0)
    for tv in tvs:
        expect(tv.locator("#live-status")).to_contain_text(revoked, timeout=LIVE)
        assert tv.js_errors == []
    assert director.js_errors == []


ROOM = {"width": 1280, "height": 720}


@pytest.mark.parametrize("viewport", [pytest.param(PHONE, id="phone"), pytest.param(ROOM, id="1280x720")])
@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_every_event_and_league_page_shows_whole_at_both_sizes(new_page, live_server, lang, viewport):
    """The director's event pages and the league's, once the event has a round with hands, a penalty and a
    substitute: each answers, nothing scrolls sideways, and axe-core finds nothing (conftest)."""
    club, owner, event = _event(8)
    services.round_draw(event=event, user=owner, draw="balanced", seed=5)
    table = event.rounds.get(n=1).tables.order_by("number").first()
    record_hands(table.session, owner, BENXI_EXAMPLE[:2])
    seated = table.session.seats.order_by("seat").first().player
    services.adjustment_add(event=event, user=owner, player=seated, kind="penalty", amount=5, reason="迟到")
    services.substitute_seat(event=event, user=owner, round_n=1, absent=seated, substitute="李娜")
    league = services.league_create(club=club, user=owner, name="冬季联赛", unit="分")
    services.league_event_add(league=league, user=owner, event=event)
    base = f"{live_server.url}/clubs/{club.slug}"
    page = new_page(owner, viewport=viewport, lang=lang)
    for path in (
        "/events/",
        "/events/new/",
        "/events/new/?variant=baifen.benxi",
        f"/events/{event.pk}/",
        f"/events/{event.pk}/rounds/1/cards/",
        f"/events/{event.pk}/results/",
        f"/events/{event.pk}/finish/",
        "/leagues/",
        "/leagues/new/",
        f"/leagues/{league.pk}/",
    ):
        assert page.goto(base + path).status == 200, path
        assert overflows(page) == [], path
    assert page.js_errors == []
