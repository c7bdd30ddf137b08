"""The table page with no connection: installable, opened from the service worker's cache, hands kept
on the phone and sent once, in order, when the connection is back.

Figures: rules/baifen.md's 本溪 example, hands 1–3 (A = seats 0+2, B = seats 1+3):
1. dealer 0, 甲 (seat 0) bids 80, B captures 15: 80 + 15 = 95 ≤ 100, made: A +80, B +15;
2. dealer 1, 乙 (seat 1) bids 85, A captures 20: 85 + 20 = 105 > 100, broken: B −85, A +20;
3. dealer 2, 丁 (seat 3) bids 90, A captures 0: made clean, B +200 (90 → 200), A +0.
Captured 300 is more than the deck's points (100 in a 本溪 deck): the server refuses it, the phone cannot know.
"""

from __future__ import annotations

import re

import pytest

from settlement import services
from settlement.models import Hand, HandRevision
from settlement.services import share_create
from tests.factories import make_club, make_member, make_session

from .conftest import CHROMIUM_ARGS, PHONE, chromium_path
from .test_table_browser import _table

pytestmark = pytest.mark.django_db(transaction=True)

expect = pytest.importorskip("playwright.sync_api").expect
PlaywrightError = pytest.importorskip("playwright.sync_api").Error

HANDS = [
    {"dealer": 0, "declarer": 0, "bid": 80, "captured": 15},
    {"dealer": 1, "declarer": 1, "bid": 85, "captured": 20},
    {"dealer": 2, "declarer": 3, "bid": 90, "captured": 0},
]


def _fill(page, dealer, declarer, bid, captured):
    """A hand entered with the thumb; offline there is no receipt to wait for."""
    page.click(f'label[for="dealer-{dealer}"]')
    page.click(f'label[for="declarer-{declarer}"]')
    page.click(f'label[for="bid-{bid}"]')
    page.fill('input[name="captured"]', str(captured))


def _until(page, predicate, arg=None, what="the condition"):
    """Wait until the async JS `predicate(arg)` resolves truthy (wait_for_function would not await its promise)."""
    # The predicate goes into the evaluated source itself: the page's CSP forbids eval().
    waiting = """async (arg) => {
      const predicate = %s, deadline = Date.now() + 10000;
      while (Date.now() < deadline) {
        if (await predicate(arg)) return true;
        await new Promise((wake) => setTimeout(wake, 50));
      }
      return false;
    }"""
    met = page.evaluate(waiting % predicate, arg)
    assert met, f"timed out waiting for {what}"


def _controlled(page):
    """Wait until the service worker controls the page (it claims it once it is active) and keeps a copy."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    kept = "() => caches.open('baifen-pages').then(c => c.match(location.origin + location.pathname)).then(r => !!r)"
    _until(page, kept, what="the service worker to keep the page")


def _offline_table(new_page, live_server, pages=1, variant="baifen.benxi", recorded=()):
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner, variant=variant)
    for hand in recorded:
        services.hand_record(session=session, user=owner, hand_input=hand)
    first = new_page(owner, viewport=PHONE, lang="en")
    first.goto(_table(live_server, session))
    _controlled(first)
    opened = [first]
    for _ in range(pages - 1):
        other = first.context.new_page()
        other.goto(_table(live_server, session))
        opened.append(other)
    first.context.set_offline(True)
    for page in opened:
        response = page.reload()  # no connection: the service worker answers from its cache
        assert response is not None and response.from_service_worker
        expect(page.locator("#kept .kept-status")).to_contain_text("No connection")
    return session, opened


def _enter_offline(page, hands, first_number=1):
    for i, hand in enumerate(hands):
        _fill(page, **hand)
        if hand["captured"] > 100:
            # A refusal only the server makes: numbers.js would name 300 beside the field and keep nothing.
            page.evaluate("document.querySelector('input[name=captured]').removeAttribute('data-rule')")
        page.click("button.record")
        expect(page.locator("#kept article.hand.kept")).to_have_count(i + 1)
        expect(page.locator(".submit-status")).to_contain_text(f"Hand {first_number + i} is kept on this phone")
        # The next hand's number and state are the phone's guess, and say so.
        expect(page.locator("#entry-title")).to_have_text(re.compile(rf"^\s*Hand {first_number + i + 1}\b"))
        expect(page.locator(".col-entry .provisional")).to_contain_text("Provisional")


def _captured(session):
    return [
        r.input["captured"]
        for r in HandRevision.objects.filter(hand__session=session).order_by("hand__number", "number")
    ]


def test_installable_the_manifest_and_service_worker_pass_chromiums_check(browser, live_server, tmp_path):
    """Chromium says a context of Playwright's own is incognito (not installable there): a profile on disk."""
    from django.conf import settings
    from django.test import Client

    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    client = Client()
    client.force_login(owner)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=chromium_path(), args=CHROMIUM_ARGS, viewport=PHONE
    )
    try:
        context.add_cookies(
            [
                {"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url},
                {"name": settings.LANGUAGE_COOKIE_NAME, "value": "zh-hans", "url": live_server.url},
            ]
        )
        page = context.new_page()
        page.goto(_table(live_server, session))
        _controlled(page)
        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == []
        assert '"name": "百分账本"' in manifest["data"]  # in the page's language
    finally:
        context.close()


# The page's files as it links them (hashed names), and those the service worker keeps in its static cache.
LINKED_STATIC = """() => Array.from(document.querySelectorAll("link[href], script[src], img[src]"))
  .map(el => new URL(el.href || el.src, location.href)).filter(u => u.origin === location.origin
  && u.pathname.startsWith("/static/")).map(u => u.pathname)"""
KEPT_STATIC = """() => caches.keys().then(names => Promise.all(names.filter(n => n.startsWith("baifen-static-"))
  .map(n => caches.open(n).then(c => c.keys())))).then(lists => lists.flat().map(r => new URL(r.url).pathname))"""


def _kept_page_says(page, text):
    """Wait until the copy the service worker keeps of this page (network first, kept after) contains `text`."""
    kept = """async (text) => {
      const kept = await caches.open("baifen-pages").then(c => c.match(location.origin + location.pathname));
      return !!kept && (await kept.text()).includes(text);
    }"""
    _until(page, kept, text, what=f"the kept page to say {text}")


def test_after_one_visit_the_table_page_reloads_offline_with_the_last_known_totals_and_takes_hands(
    new_page, live_server
):
    """Hand 1 recorded before the visit, hand 2 from the page: offline, the page shows the totals after hand 2
    (A 80 + 20 = 100, B 15 − 85 = −70), every file it links from the worker's cache, and takes hand 3."""
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    services.hand_record(session=session, user=owner, hand_input=HANDS[0])
    page = new_page(owner, viewport=PHONE, lang="en")
    page.goto(_table(live_server, session))
    _controlled(page)
    linked = page.evaluate(LINKED_STATIC)
    assert any(re.fullmatch(r"/static/js/offline\.[0-9a-f]{12}\.js", path) for path in linked)  # collected
    assert sorted(set(linked) - set(page.evaluate(KEPT_STATIC))) == []  # kept at install, under those names

    _fill(page, **HANDS[1])
    page.click("button.record")
    page.wait_for_url(re.compile(r"/table/\?saved=2#next$"))
    totals = page.locator(".scoreboard table.board tbody")
    expect(totals.locator("tr.side.s0")).to_contain_text("+100")
    expect(totals.locator("tr.side.s1")).to_contain_text("−70")
    online = totals.inner_text()
    _kept_page_says(page, 'id="hand-2"')

    failed = []
    page.on("requestfailed", lambda request: failed.append(request.url))
    page.context.set_offline(True)
    response = page.reload()
    assert response is not None and response.from_service_worker
    expect(page.locator("#kept .kept-status")).to_contain_text("No connection")
    assert totals.inner_text() == online  # the totals as last known, not those of the first visit
    expect(page.locator("#hand-2")).to_be_visible()
    page.wait_for_load_state("load")
    assert [url for url in failed if "/static/" in url] == []  # every file came from the worker's cache

    _enter_offline(page, HANDS[2:], first_number=3)
    page.context.set_offline(False)
    page.wait_for_url(re.compile(r"/table/\?saved=3#next$"))
    assert _captured(session) == [15, 20, 0]
    assert page.js_errors == []


def test_three_hands_entered_offline_are_recorded_in_order_with_their_receipts_when_back_online(new_page, live_server):
    session, (page,) = _offline_table(new_page, live_server)
    _enter_offline(page, HANDS)
    expect(page.locator("#kept article.hand.kept.pending .phone-says").nth(1)).to_contain_text("Bid 85")
    assert Hand.objects.filter(session=session).count() == 0  # nothing reached the server

    page.context.set_offline(False)  # the phone sends them by itself, then shows the server's state
    page.wait_for_url(re.compile(r"/table/\?saved=3#next$"))
    assert list(Hand.objects.filter(session=session).order_by("number").values_list("number", flat=True)) == [1, 2, 3]
    assert _captured(session) == [15, 20, 0]
    sent = page.locator("#kept article.hand.kept.recorded")
    expect(sent).to_have_count(3)
    expect(sent.nth(0)).to_contain_text("bid 80 + captured 15 = 95 ≤ 100: made")
    expect(sent.nth(1)).to_contain_text("> 100: broken")
    expect(sent.nth(2)).to_contain_text("+200")
    expect(page.locator("#entry-title")).to_have_text(re.compile(r"^\s*Hand 4\b"))  # the server's state again
    assert page.js_errors == []


def test_a_refused_hand_stays_on_the_phone_and_the_next_waits_until_it_is_fixed(new_page, live_server):
    session, (page,) = _offline_table(new_page, live_server)
    _enter_offline(page, [HANDS[0], {**HANDS[1], "captured": 300}, HANDS[2]])

    page.context.set_offline(False)
    refused = page.locator("#kept article.hand.kept.refused")
    expect(refused).to_contain_text("The server says:")
    expect(page.locator("#kept article.hand.kept.pending")).to_contain_text("Waits for the hand before it")
    assert Hand.objects.filter(session=session).count() == 1  # hand 1 only: hand 3 waits behind hand 2

    refused.locator("button.edit").click()  # back into the form; Record puts it back in its place
    expect(page.locator(".col-entry .provisional")).to_contain_text("Editing Hand 2")
    page.fill('input[name="captured"]', "20")
    page.click("button.record")
    page.wait_for_url(re.compile(r"/table/\?saved=3#next$"))
    assert _captured(session) == [15, 20, 0]
    assert page.js_errors == []


def _sync_by_hand(tab, *, times: int) -> None:
    """Send the tab's list `times` more, unless the tab is already done: a sync that ends shows the server's state,
    a navigation, which may come while the call is being made."""
    try:
        tab.evaluate(f"() => {{ for (let i = 0; i < {times}; i++) window.baifenOffline.sync(); }}")
    except PlaywrightError as error:
        assert "Execution context was destroyed" in error.message


def test_sending_twice_at_once_from_two_tabs_records_each_hand_once(new_page, live_server):
    session, (page, other) = _offline_table(new_page, live_server, pages=2)
    page.bring_to_front()  # a tab in the background has its timers slowed down
    _enter_offline(page, HANDS[:2])
    page.context.set_offline(False)  # both tabs hear "online" and send; and twice more by hand
    _sync_by_hand(page, times=2)
    _sync_by_hand(other, times=1)
    for tab in (page, other):  # each shows the server's state once its list is empty
        expect(tab.locator("#entry-title")).to_have_text(re.compile(r"^\s*Hand 3\b"))
        expect(tab.locator("#kept article.hand.kept.pending")).to_have_count(0)
    assert _captured(session) == [15, 20]
    assert Hand.objects.filter(session=session).count() == 2


def test_a_hand_recorded_by_another_device_meanwhile_is_a_conflict_sent_only_when_asked(new_page, live_server):
    session, (page,) = _offline_table(new_page, live_server)
    _enter_offline(page, HANDS[1:2])
    services.hand_record(session=session, user=session.created_by, hand_input=HANDS[0])  # another phone
    page.context.set_offline(False)
    conflict = page.locator("#kept article.hand.kept.moved")
    expect(conflict).to_contain_text("another device recorded hand 1 meanwhile: this hand was entered as hand 1")
    assert Hand.objects.filter(session=session).count() == 1
    conflict.locator("button.send-anyway").click()
    page.wait_for_url(re.compile(r"/table/\?saved=2#next$"))
    assert _captured(session) == [15, 20]


def test_a_refused_hand_discarded_lets_the_next_one_take_its_place(new_page, live_server):
    session, (page,) = _offline_table(new_page, live_server)
    _enter_offline(page, [{**HANDS[0], "captured": 300}, HANDS[0]])
    page.context.set_offline(False)
    refused = page.locator("#kept article.hand.kept.refused")
    expect(refused).to_contain_text("The server says:")
    page.once("dialog", lambda dialog: dialog.accept())  # "Discard this hand from the phone?"
    refused.locator("button.discard").click()
    page.wait_for_url(re.compile(r"/table/\?saved=1#next$"))  # the hand after it became hand 1
    assert _captured(session) == [15]
    assert page.js_errors == []


def test_a_record_with_no_answer_while_the_phone_believes_it_is_online_is_kept_and_sent_once(new_page, live_server):
    """Basement Wi-Fi: connected, no internet. The hand stays on the phone under its key, not "tap again"."""
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    page = new_page(owner, viewport=PHONE, lang="en")
    page.goto(_table(live_server, session))
    no_answer = re.compile(r"/table/(sync/)?$")
    page.route(no_answer, lambda route: route.abort() if route.request.method == "POST" else route.continue_())
    _fill(page, **HANDS[0])
    page.click("button.record")
    expect(page.locator("#kept article.hand.kept.pending")).to_have_count(1)
    expect(page.locator(".submit-status")).to_contain_text("Hand 1 is kept on this phone")
    expect(page.locator("#kept .kept-status")).to_contain_text("could not be reached")  # the sending failed too
    assert Hand.objects.filter(session=session).count() == 0

    page.unroute(no_answer)
    page.click("#kept button.send-now")
    page.wait_for_url(re.compile(r"/table/\?saved=1#next$"))
    assert _captured(session) == [15]
    assert page.js_errors == []


def test_the_share_page_opens_offline_from_the_cache_after_one_visit(new_page, live_server):
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    services.hand_record(session=session, user=owner, hand_input=HANDS[0])
    link = share_create(session=session, user=owner)
    page = new_page(None, viewport=PHONE, lang="en")  # a player with no account
    page.goto(f"{live_server.url}/s/{link.token}/")
    _controlled(page)
    page.context.set_offline(True)
    response = page.reload()
    assert response is not None and response.from_service_worker
    expect(page.locator("#hand-1")).to_be_visible()


def test_logging_out_asks_about_unsent_hands_then_clears_the_kept_pages_and_hands(new_page, live_server):
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    page = new_page(owner, viewport=PHONE, lang="en")
    page.goto(_table(live_server, session))
    _controlled(page)
    page.route(
        re.compile(r"/table/(sync/)?$"),
        lambda route: route.abort() if route.request.method == "POST" else route.continue_(),
    )
    _fill(page, **HANDS[0])
    page.click("button.record")
    expect(page.locator("#kept article.hand.kept.pending")).to_have_count(1)

    # The question comes once the phone has counted what waits (IndexedDB answers asynchronously): wait for it.
    # A loaded machine took the count past the default 10 s: wait as long as for the login page below.
    # no_wait_after: a submit button's click makes Playwright wait for the navigation it schedules, which the
    # question holds up (on PostgreSQL under load that wait ran past 10 s with the dialog open).
    with page.expect_event("dialog", timeout=30_000) as asked:
        page.click("form.logout button", no_wait_after=True)
    assert asked.value.message == (
        "1 hand(s) kept on this phone are not sent yet. Logging out removes them from this phone. Log out anyway?"
    )
    asked.value.dismiss()
    # Cancel: still logged in, still kept.
    expect(page.locator("#kept article.hand.kept.pending")).to_have_count(1, timeout=30_000)
    assert "/table/" in page.url

    page.once("dialog", lambda dialog: dialog.accept())
    # The form is sent only once the phone's storage is cleared (up to 2 s, logout.js): wait for the login page
    # itself rather than for the click's navigation, which a loaded machine took past the click's 10 s.
    page.click("form.logout button", no_wait_after=True)
    page.wait_for_url(re.compile(r"/login/"), timeout=30_000)
    assert page.evaluate("() => caches.has('baifen-pages')") is False
    assert page.evaluate("() => caches.keys().then(names => names.some(n => n.startsWith('baifen-static-')))")
    kept = "() => new Promise(ok => { const r = indexedDB.open('baifen-offline', 1); r.onsuccess = () => {"
    kept += (
        " const q = r.result.transaction('hands').objectStore('hands').count(); q.onsuccess = () => ok(q.result); }; })"
    )
    assert page.evaluate(kept) == 0
    assert Hand.objects.filter(session=session).count() == 0


def _dealer_checked(page):
    return page.evaluate("() => (document.querySelector('input[name=dealer]:checked') || {}).value || null")


def test_hands_kept_offline_carry_the_dealers_the_rules_give_and_the_bids_of_each_place(new_page, live_server):
    """本溪: the deal passes to the next seat after every hand (rules/baifen.md): dealers 0, 1, 2, never the
    page's 0 three times; and the bids follow the dealer (hand 3, dealer 2: seat 0 is the third bidder, ≥ 85)."""
    session, (page,) = _offline_table(new_page, live_server)
    for i, hand in enumerate(HANDS):
        assert _dealer_checked(page) == str(hand["dealer"])  # pre-selected by the rotation, not clicked
        if i == 2:
            page.click('label[for="declarer-0"]')
            expect(page.locator('input[name="bid"][value="80"]')).to_be_disabled()
            expect(page.locator('input[name="bid"][value="85"]')).to_be_enabled()
        page.click(f'label[for="declarer-{hand["declarer"]}"]')
        page.click(f'label[for="bid-{hand["bid"]}"]')
        page.fill('input[name="captured"]', str(hand["captured"]))
        page.click("button.record")
        expect(page.locator("#kept article.hand.kept")).to_have_count(i + 1)
    expect(page.locator('fieldset[data-group="dealer"] .rotation-hint')).to_contain_text("By the rules after Hand 3")
    assert _dealer_checked(page) == "3"

    page.context.set_offline(False)
    page.wait_for_url(re.compile(r"/table/\?saved=3#next$"))
    stored = HandRevision.objects.filter(hand__session=session).order_by("hand__number")
    assert [r.input["dealer"] for r in stored] == [0, 1, 2]
    assert _captured(session) == [15, 20, 0]
    assert page.js_errors == []


def test_a_level_game_kept_offline_leaves_the_next_declarer_to_the_result_and_never_sends_a_stale_one(
    new_page, live_server
):
    """升级 (rules/shengji.md): hand 1, 甲 (seat 0) declares and the attackers take 30: the declarers go up,
    his partner 丙 (seat 2) declares hand 2. Hand 2 offline, 100 taken: the attackers take over, so hand 3 is
    丙's 下家 丁 (seat 3) — the phone cannot settle that, so it names both seats and sends no declarer."""
    session, (page,) = _offline_table(
        new_page, live_server, variant="shengji", recorded=[{"declarer": 0, "captured": 30}]
    )
    locked = page.locator('fieldset[data-group="declarer"] .locked')
    expect(locked.locator("strong")).to_have_text("丙")  # the server's rotation for hand 2
    page.fill('input[name="captured"]', "100")
    page.click("button.record")
    expect(page.locator("#kept article.hand.kept")).to_have_count(1)
    # Hand 3: 甲 if 丙's side won hand 2, else 丁; nothing stale (丙) goes out.
    expect(locked.locator("strong")).to_have_text(
        "set by the server when the hand is sent: 甲 if the declaring side won Hand 2, else 丁"
    )
    assert page.evaluate("() => document.querySelector('.locked input[name=declarer]').disabled")
    page.fill('input[name="captured"]', "30")
    page.click("button.record")
    expect(page.locator("#kept article.hand.kept")).to_have_count(2)

    page.context.set_offline(False)
    page.wait_for_url(re.compile(r"/table/\?saved=3#next$"))
    stored = HandRevision.objects.filter(hand__session=session).order_by("hand__number")
    assert [(r.input["declarer"], r.input["captured"]) for r in stored] == [(0, 30), (2, 100), (3, 30)]
    assert page.js_errors == []


def test_a_kept_hand_edited_after_a_sending_whose_answer_was_lost_becomes_a_correction_of_that_hand(
    new_page, live_server
):
    """The lost answer: hand 1 (captured 20) reaches the server, its answer never reaches the phone; the
    scorekeeper then edits the kept hand to 35. The server keeps one hand 1, corrected to 35 (80 + 35 = 115
    > 100: broken), and the phone says so — never "recorded" while the edit is dropped."""
    session, (page,) = _offline_table(new_page, live_server)
    _enter_offline(page, [{**HANDS[0], "captured": 20}])

    def arrives_but_no_answer(route):
        if route.request.method != "POST":
            return route.continue_()
        route.fetch()  # the server records it …
        return route.abort()  # … and the phone never hears

    sync = re.compile(r"/table/sync/$")
    page.route(sync, arrives_but_no_answer)
    page.context.set_offline(False)
    expect(page.locator("#kept .kept-status")).to_contain_text("could not be reached")
    assert _captured(session) == [20]
    page.context.set_offline(True)
    page.unroute(sync)

    page.locator("#kept article.hand.kept.pending button.edit").click()
    expect(page.locator(".col-entry .provisional")).to_contain_text("Editing Hand 1")
    page.fill('input[name="captured"]', "35")
    page.click("button.record")
    expect(page.locator("#kept article.hand.kept.pending .phone-says")).to_contain_text("35")

    page.context.set_offline(False)
    page.wait_for_url(re.compile(r"/table/\?saved=1#next$"))
    revisions = list(HandRevision.objects.filter(hand__session=session).order_by("number"))
    assert [(r.number, r.input["captured"]) for r in revisions] == [(1, 20), (2, 35)]
    assert revisions[1].reason == "Edited on the phone after it was sent: the hand it became is corrected."
    assert Hand.objects.filter(session=session).count() == 1
    sent = page.locator("#kept article.hand.kept.recorded")
    expect(sent).to_contain_text("Hand 1 had reached the server before it was edited on this phone")
    expect(sent).to_contain_text("Hand 1, corrected")
    expect(sent).to_contain_text("115 > 100: broken")
    assert page.js_errors == []
