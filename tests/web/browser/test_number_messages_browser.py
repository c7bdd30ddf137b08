"""Issue 31 item 13 in Chromium at 360 × 740, both languages, axe-checked: a number not allowed is named beside
its field by script before anything is sent (抓分 −5 on the table page, 盘分 −5 on the new-session form), the
same words the server gives. Screenshots into docs/screenshots/."""

from __future__ import annotations

import pytest

from settlement.models import Session
from tests.factories import make_club, make_member, make_session

from .conftest import PHONE

pytestmark = pytest.mark.django_db(transaction=True)


MESSAGES = {
    "zh-hans": ("抓分只能填 0 到 100 之间 5 的倍数", "盘分只能填 5 到 1000000 之间 5 的倍数"),
    "en": ("Points captured: a multiple of 5 from 0 to 100", "Game target: a multiple of 5 from 5 to 1000000"),
}


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_script_names_a_number_not_allowed_beside_its_field_before_the_form_is_sent(
    new_page, live_server, lang, screenshots
):
    club = make_club("东城俱乐部", slug="east")
    owner = make_member(club)
    session = make_session(club, owner)
    name = "zh" if lang == "zh-hans" else "en"
    captured_message, target_message = MESSAGES[lang]
    page = new_page(owner, viewport=PHONE, lang=lang)
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" and "/preview/" not in r.url else None)

    page.goto(f"{live_server.url}/clubs/{club.slug}/sessions/{session.pk}/table/")
    page.locator('input[name="declarer"][value="0"]').check(force=True)
    page.locator('input[name="bid"][value="80"]').check(force=True)
    page.locator('input[name="captured"]').fill("-5")
    page.locator("button.record").click()

    slot = page.locator("#error-captured")
    slot.wait_for(state="visible")
    assert slot.inner_text() == captured_message
    assert page.locator('input[name="captured"]').get_attribute("aria-invalid") == "true"
    assert page.evaluate("document.activeElement.name") == "captured"
    assert posts == [] and not session.hands.exists()
    page.locator('fieldset[data-group="captured"]').scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / f"table-number-message-{name}-phone.png"))

    # Put right, the message goes and the hand is recorded.
    page.locator('input[name="captured"]').fill("30")
    page.locator('input[name="captured"]').dispatch_event("change")
    assert slot.inner_text() == ""
    page.locator("button.record").click()
    page.wait_for_url("**/table/?saved=1#next")
    assert session.hands.count() == 1

    page.goto(f"{live_server.url}/clubs/{club.slug}/sessions/new/?variant=baifen.benxi")
    page.locator("details.advanced summary").click()
    for seat, guest in enumerate(["甲", "乙", "丙", "丁"]):
        page.locator(f'input[name="seat_{seat}_name"]').fill(guest)
    page.locator('input[name="option_target"]').fill("-5")
    posts.clear()
    page.locator("form.open button[type=submit]").click()
    error = page.locator("#option-target-error")
    error.wait_for(state="visible")
    assert error.inner_text() == target_message
    assert posts == [] and Session.objects.count() == 1
    error.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / f"session-new-number-message-{name}-phone.png"))
