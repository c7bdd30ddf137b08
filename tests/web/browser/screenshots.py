"""`make screenshots`: the table page in zh-Hans and English, on a phone and a desktop, into docs/screenshots/;
the new-session page and a corrected hand's page on a phone.

Not collected by `make test` (the name does not start with test_); run it by path. It loads the demo
club into the test database, plays a few more hands into the demo's open 本溪 session and fills in
the next hand so that the receipt shows.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from settlement import services
from settlement.models import Session
from tests.factories import record_hands

from .conftest import DESKTOP, PHONE

pytestmark = pytest.mark.django_db(transaction=True)

OUT = Path(__file__).resolve().parents[3] / "docs" / "screenshots"
# After the demo's three hands (dealers 0, 1, 2), to 盘分 300.
MORE_HANDS = [
    {"dealer": 3, "declarer": 3, "bid": 85, "captured": 10},
    {"dealer": 0, "declarer": 2, "bid": 90, "captured": 0},
    {"dealer": 1, "declarer": 1, "bid": 80, "captured": 55},
    {"dealer": 2, "declarer": 0, "bid": 85, "captured": 25},
    {"dealer": 3, "declarer": 1, "bid": 95, "captured": 0},
]


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_table_screenshots(new_page, live_server, lang):
    call_command("demo_load", verbosity=0)
    user = User.objects.get(username="demo")
    session = Session.objects.get(status=Session.Status.OPEN, variant="baifen.benxi")
    record_hands(session, user, MORE_HANDS)
    url = f"{live_server.url}/clubs/{session.club.slug}/sessions/{session.pk}/table/"
    OUT.mkdir(parents=True, exist_ok=True)
    name = "zh" if lang == "zh-hans" else "en"
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page = new_page(user, viewport=viewport, lang=lang)
        page.goto(url)
        page.click('label[for="declarer-3"]')
        page.click('label[for="bid-85"]')
        page.fill('input[name="captured"]', "30")
        page.locator("#receipt .steps").wait_for()
        if size == "phone":  # the first screen: the totals, the entry, the receipt's gist by Record
            page.evaluate("window.scrollTo(0, 0)")
            page.locator(".actions .summary .tag").first.wait_for()
            page.screenshot(path=str(OUT / f"table-{name}-{size}.png"))
        else:
            page.screenshot(path=str(OUT / f"table-{name}-{size}.png"), full_page=True)


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_new_session_and_corrected_hand_screenshots(new_page, live_server, lang):
    """The new-session page (本溪, its first preset) and the hand page of a corrected hand, on a phone."""
    call_command("demo_load", verbosity=0)
    user = User.objects.get(username="demo")
    session = Session.objects.get(status=Session.Status.OPEN, variant="baifen.benxi")
    record_hands(session, user, MORE_HANDS[:1])
    number = session.hands.count()
    # Hand 4 (dealer 3, 丁 declares 85) was entered with 10 captured; the table counted 15.
    fixed = {**MORE_HANDS[0], "captured": 15}
    reason = "少记了一个五" if lang == "zh-hans" else "a five was missed"
    services.hand_correct(session=session, user=user, number=number, hand_input=fixed, reason=reason)
    OUT.mkdir(parents=True, exist_ok=True)
    name = "zh" if lang == "zh-hans" else "en"
    page = new_page(user, viewport=PHONE, lang=lang)
    page.goto(f"{live_server.url}/clubs/{session.club.slug}/sessions/new/?variant=baifen.benxi")
    page.screenshot(path=str(OUT / f"session-new-{name}-phone.png"))
    page.goto(f"{live_server.url}/clubs/{session.club.slug}/sessions/{session.pk}/hands/{number}/")
    page.locator("section.history").scroll_into_view_if_needed()
    page.screenshot(path=str(OUT / f"hand-{name}-phone.png"))
