"""Issue 28 point 3 in Chromium, both languages, axe-checked: the round clock on a table page at 360 × 740 counts
down and, at the end, says what a late hand is, without a reload; the big screen at 1280 × 720 shows the same
clock and still fits. Screenshots into docs/screenshots/."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from settlement import services
from settlement.models import Round, RoundTable
from tests.factories import make_club, make_member

from .conftest import PHONE
from .test_events_browser import off_screen

pytestmark = pytest.mark.django_db(transaction=True)

TV = {"width": 1280, "height": 720}


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_the_round_clock_counts_down_and_says_what_a_late_hand_is(new_page, live_server, lang, screenshots):
    club = make_club("东城俱乐部", slug="east")
    owner = make_member(club)
    names = [f"选手{i + 1}" for i in range(16)]
    event = services.event_create(
        club=club, user=owner, name="周五晚赛", variant="baifen.benxi", players=names, late_hands="refused"
    )
    services.round_draw(event=event, user=owner, draw="balanced", seed=5, length_minutes=30)
    name = "zh" if lang == "zh-hans" else "en"

    screen = new_page(owner, viewport=TV, lang=lang)
    screen.goto(f"{live_server.url}/clubs/{club.slug}/events/{event.pk}/screen/")
    left = "还剩 30 分钟" if lang == "zh-hans" else "30 min left"
    assert screen.locator(".round-clock .clock-left").inner_text() == left
    assert off_screen(screen) == []
    screen.screenshot(path=str(screenshots / f"event-screen-clock-{name}-tv.png"))

    # Seven seconds to go: the page is served with 1 minute left, then script shows the end and the rule.
    Round.objects.filter(event=event).update(ends_at=timezone.now() + datetime.timedelta(seconds=7))
    session = RoundTable.objects.filter(round__event=event, number=1).get().session
    page = new_page(owner, viewport=PHONE, lang=lang)
    page.goto(f"{live_server.url}/clubs/{club.slug}/sessions/{session.pk}/table/")
    clock = page.locator(".round-clock")
    assert clock.locator(".clock-left").inner_text() == ("还剩 1 分钟" if lang == "zh-hans" else "1 min left")
    assert clock.locator(".clock-over").is_hidden()
    clock.locator(".clock-over").wait_for(state="visible", timeout=20_000)
    assert clock.locator(".clock-running").is_hidden()
    refused = "除非裁判允许补录" if lang == "zh-hans" else "unless the director allows late hands"
    assert refused in clock.inner_text()
    page.screenshot(path=str(screenshots / f"table-clock-over-{name}-phone.png"))
