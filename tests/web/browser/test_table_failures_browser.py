"""table.js when the server does not answer as hoped: a failed preview, an expired login, a refused Record.

Figures from ../shared/rules/baifen.md (本溪): bid 80 with 15 captured is made; 85 + 20 = 105 > 100 is broken.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

import pytest
from django.contrib.sessions.models import Session as LoginSession

from settlement import services
from settlement.models import Hand
from tests.factories import make_club, make_member, make_session

from .conftest import PHONE
from .test_table_browser import _enter, _table

pytestmark = pytest.mark.django_db(transaction=True)

expect = pytest.importorskip("playwright.sync_api").expect


@pytest.fixture
def scorekeeping(new_page, live_server):
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    page = new_page(owner, viewport=PHONE, lang="en")
    page.goto(_table(live_server, session))
    posts = []
    page.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
    return page, session, posts


def test_a_failed_preview_says_the_receipt_is_stale_and_the_next_one_clears_it(scorekeeping):
    page, _, _ = scorekeeping
    _enter(page, "bid 80 + captured 15", declarer=0, bid=80, captured=15)
    page.route(re.compile(r"/table/preview/$"), lambda route: route.fulfill(status=500, body="boom"))
    page.fill('input[name="captured"]', "20")
    expect(page.locator("#receipt .preview-failed")).to_contain_text("could not be updated")
    expect(page.locator("#receipt")).to_contain_text("bid 80 + captured 15")  # the old receipt, marked
    page.unroute(re.compile(r"/table/preview/$"))
    page.fill('input[name="captured"]', "25")
    expect(page.locator("#receipt")).to_contain_text("bid 80 + captured 25")
    expect(page.locator("#receipt .preview-failed")).to_have_count(0)


def test_a_preview_answered_after_a_later_change_is_dropped(scorekeeping):
    page, _, _ = scorekeeping
    _enter(page, "bid 80 + captured 15", declarer=0, bid=80, captured=15)
    page.evaluate(
        """() => { window.receipts = [];
        new MutationObserver(() => window.receipts.push(document.querySelector('#receipt').textContent))
          .observe(document.querySelector('#receipt'), {childList: true, subtree: true}); }"""
    )
    held = []
    preview = re.compile(r"/table/preview/$")
    page.route(preview, lambda route: route.continue_() if held else held.append(route))  # holds the first
    page.fill('input[name="captured"]', "20")
    page.wait_for_timeout(50)
    while not held:  # the preview waits for a pause in typing before it is sent
        page.wait_for_timeout(50)
    answer_for_20 = held[0].fetch()
    # 25 is typed while the answer for 20 is still on its way; that answer arrives before 25's preview is sent.
    page.fill('input[name="captured"]', "25")
    held[0].fulfill(response=answer_for_20)
    expect(page.locator("#receipt")).to_contain_text("bid 80 + captured 25")
    assert not [text for text in page.evaluate("window.receipts") if "captured 20" in text]


def test_an_expired_login_leads_to_the_login_page_not_into_the_receipt(scorekeeping):
    page, session, _ = scorekeeping
    _enter(page, "bid 80 + captured 15", declarer=0, bid=80, captured=15)
    LoginSession.objects.all().delete()  # the login expires while the page is open
    page.fill('input[name="captured"]', "20")
    page.wait_for_url(re.compile(r"/login/\?next="))
    assert f"sessions/{session.pk}/table/" in unquote(page.url)


def test_an_expired_login_on_record_leads_to_the_login_page_and_records_nothing(scorekeeping):
    page, session, posts = scorekeeping
    _enter(page, "bid 80 + captured 15", declarer=0, bid=80, captured=15)
    LoginSession.objects.all().delete()
    page.route(re.compile(r"/table/preview/$"), lambda route: route.abort())  # only the Record call counts
    page.click("button.record")
    page.wait_for_url(re.compile(r"/login/\?next="))
    assert Hand.objects.filter(session=session).count() == 0
    assert len([url for url in posts if url.endswith("/table/")]) == 1


def test_a_refused_record_shows_why_without_posting_the_form_again(scorekeeping):
    page, session, posts = scorekeeping
    _enter(page, "bid 80 + captured 15", declarer=0, bid=80, captured=15)
    services.session_close(session=session, user=session.created_by)  # closed at another phone meanwhile
    page.click("button.record")
    expect(page.locator(".banner[role=alert]")).to_be_visible()
    page.wait_for_timeout(300)
    assert [url for url in posts if url.endswith("/table/")] == [page.url.split("#")[0]]
    assert Hand.objects.filter(session=session).count() == 0
    assert page.js_errors == []


def test_a_page_left_on_a_hand_another_device_recorded_is_a_conflict_then_recorded_as_the_next(scorekeeping):
    """The page shows hand 1, dealer 甲 (seat 0); another phone records hand 1 meanwhile. Record brings the
    conflict: nothing saved, the hand kept as hand 2 with its dealer the next seat 乙 (seat 1), which the
    scorekeeper records as hand 2 (rules/baifen.md hand 2: 乙 bids 85, 20 captured, broken)."""
    page, session, _ = scorekeeping
    _enter(page, "bid 85 + captured 20", declarer=1, bid=85, captured=20)
    services.hand_record(
        session=session, user=session.created_by, hand_input={"dealer": 0, "declarer": 0, "bid": 80, "captured": 15}
    )
    page.click("button.record")
    expect(page.locator(".conflict[role=alert]")).to_contain_text("Another device recorded Hand 1 meanwhile")
    assert Hand.objects.filter(session=session).count() == 1
    expect(page.locator('input[name="dealer"][value="1"]')).to_be_checked()
    expect(page.locator("button.record")).to_have_text("Record as hand 2")
    page.click("button.record")
    page.wait_for_url(re.compile(r"/table/\?saved=2#next$"))
    stored = session.hands.get(number=2).revisions.get().input
    assert (stored["dealer"], stored["declarer"], stored["captured"]) == (1, 1, 20)
    assert page.js_errors == []
