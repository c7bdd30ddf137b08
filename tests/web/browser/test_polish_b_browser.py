"""Issue 31's items 11, 12 and 17 in Chromium at 360 × 740, in both languages, axe-checked on every page
(the conftest runs axe-core on each document): the settle-up with its unit, the money on the new-session
form, undoing the last hand (with JavaScript and without), a hand's note in its trail. Screenshots of each go
into docs/screenshots/ under `make screenshots` (the `screenshots` fixture)."""

from __future__ import annotations

import pytest

from settlement import services
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_session, record_hands

from .conftest import PHONE

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_the_changed_pages_at_360_px(new_page, live_server, lang, screenshots):
    out = screenshots
    club = make_club("东城俱乐部", slug="east")
    owner = make_member(club)
    name = "zh" if lang == "zh-hans" else "en"
    base = f"{live_server.url}/clubs/{club.slug}"
    page = new_page(owner, viewport=PHONE, lang=lang)

    page.goto(f"{base}/sessions/new/?variant=biaofen")
    page.locator("fieldset.money").scroll_into_view_if_needed()
    page.screenshot(path=str(out / f"session-new-money-{name}-phone.png"))

    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE[:2])
    services.hand_record(session=session, user=owner, hand_input=BENXI_EXAMPLE[2], note="乙 出错了牌")
    page.goto(f"{base}/sessions/{session.pk}/table/")
    page.locator("a.undo-last").click()
    page.wait_for_url("**/table/undo/")
    page.screenshot(path=str(out / f"undo-{name}-phone.png"))
    page.locator("button.danger").click()
    page.wait_for_url("**/table/?voided=3")
    assert page.locator("a.undo-last").count() == 0  # hand 3 is void: nothing more to undo

    page.goto(f"{base}/sessions/{session.pk}/hands/3/")
    page.locator("section.history").scroll_into_view_if_needed()
    assert page.locator(".history .note").count() == 1
    page.screenshot(path=str(out / f"hand-note-{name}-phone.png"))

    classic = make_session(club, owner, variant="baifen.classic", options={"unit_value": 3})
    record_hands(classic, owner, [{"declarer": 0, "bid": 60, "partner": 2, "captured": 30}])
    services.session_close(session=classic, user=owner)
    page.goto(f"{base}/sessions/{classic.pk}/table/")
    page.locator("ul.settle-up").scroll_into_view_if_needed()
    page.screenshot(path=str(out / f"settle-up-{name}-phone.png"))


def test_undo_works_without_javascript(new_page, live_server):
    club = make_club("东城俱乐部", slug="east")
    owner = make_member(club)
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE[:2])
    page = new_page(owner, viewport=PHONE, script=False)
    page.goto(f"{live_server.url}/clubs/{club.slug}/sessions/{session.pk}/table/")
    page.locator("a.undo-last").click()
    page.locator("button.danger").click()
    page.wait_for_url("**/table/?voided=2")
