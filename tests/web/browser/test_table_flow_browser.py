"""The table page between hands, in Chromium on a phone: where Record leaves the scorekeeper, and
refusals of the server that must stay on the screen with JavaScript on."""

from __future__ import annotations

import re

import pytest

from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_session, record_hands

from .conftest import PHONE

pytestmark = pytest.mark.django_db(transaction=True)

expect = pytest.importorskip("playwright.sync_api").expect


def _table(live_server, session, path=""):
    return f"{live_server.url}/clubs/{session.club.slug}/sessions/{session.pk}/table/{path}"


def test_after_record_the_next_hands_first_field_is_in_view_and_focused(new_page, live_server):
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    page = new_page(owner, viewport=PHONE)
    page.goto(_table(live_server, session))
    page.click('label[for="declarer-0"]')
    page.click('label[for="bid-80"]')
    page.fill('input[name="captured"]', "15")
    expect(page.locator("#receipt")).to_contain_text("叫分 80 + 抓分 15")
    page.click("button.record")
    page.wait_for_url(re.compile(r"\?saved=1#next$"))
    expect(page.locator("h2#entry-title")).to_contain_text("第 2 局")
    # The first group of hand 2 is the dealer (rules/baifen.md: the deal passes on, so seat 1 is chosen).
    page.wait_for_function("() => document.activeElement !== document.body")
    focused = page.evaluate(
        "() => [document.activeElement.name, document.activeElement.value,"
        " !!document.activeElement.closest('form.table-entry .played > fieldset:first-child')]"
    )
    assert focused == ["dealer", "1", True]
    assert page.evaluate("() => window.scrollY") > 0  # not back at the top of the page
    # In view: the first field below the top, the points box above the sticky Record bar.
    bar_top = page.eval_on_selector(".actions", "e => e.getBoundingClientRect().top")
    first = page.eval_on_selector('label[for="dealer-1"]', "e => e.getBoundingClientRect()")
    captured = page.eval_on_selector('input[name="captured"]', "e => e.getBoundingClientRect()")
    assert first["top"] >= 0 and first["bottom"] <= bar_top
    assert captured["top"] >= 0 and captured["bottom"] <= bar_top
    assert page.js_errors == []


@pytest.mark.parametrize(("action", "message"), [("void", "请写明为什么作废"), ("correct", "请写明为什么更正")])
def test_a_fix_or_void_without_a_reason_keeps_the_servers_error_with_script_on(new_page, live_server, action, message):
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE[:2])
    page = new_page(owner, viewport=PHONE)
    page.goto(_table(live_server, session, "hands/2/"))
    if action == "correct":
        page.fill('input[name="captured"]', "25")
    page.click(f"button[value={action}]")
    page.wait_for_load_state("load")
    error = page.locator('.field-error[data-error-for~="reason"]')
    expect(error).to_contain_text(message)
    page.wait_for_timeout(700)  # longer than the preview's 200 ms delay and its answer on this machine
    expect(error).to_contain_text(message)
    expect(error).to_be_visible()
    # Typing a reason is the change that lets the preview take over that field again.
    page.fill('input[name="reason"]', "记错了")
    expect(error).to_be_empty()
