"""The director's event forms in Chromium on a phone (360 × 740): a new event with its options (whose result a
substitute's seat is, late hands, placement points) and a table option changed over its preset's, its pairs chosen
on the event page before the first draw, an event taken out of a league after its question page; nothing off
screen, axe-core clean (conftest)."""

from __future__ import annotations

import datetime

import pytest

from settlement import services
from settlement.models import Event
from tests.factories import make_club, make_member

from .conftest import PHONE, overflows

pytestmark = pytest.mark.django_db(transaction=True)

expect = pytest.importorskip("playwright.sync_api").expect


@pytest.mark.parametrize(
    ("lang", "create", "pair", "pairs", "preset", "options", "fanbei"),
    [
        ("zh-hans", "创建活动", "设定搭档", "各对成绩", "本溪 300", "各桌的选项", "翻倍线"),
        ("en", "Create the event", "Set the pairs", "Pairs", "Benxi, to 300", "The tables' options", "Doubling line"),
    ],
)
def test_a_new_event_s_options_and_its_pairs_are_set_on_a_phone(
    new_page, live_server, lang, create, pair, pairs, preset, options, fanbei
):
    club = make_club("东城俱乐部")
    owner = make_member(club)
    page = new_page(owner, viewport=PHONE, lang=lang)
    page.goto(f"{live_server.url}/clubs/{club.slug}/events/new/?variant=baifen.benxi")
    assert overflows(page) == []
    page.get_by_role("link", name=preset, exact=True).click()  # the preset's link fills the options in
    page.get_by_text(options, exact=True).click()
    expect(page.locator('input[name="option_target"]')).to_have_value("300")
    assert overflows(page) == []
    page.get_by_role("spinbutton", name=fanbei, exact=True).fill("60")
    page.locator('input[name="name"]').fill("周六赛")
    page.locator('textarea[name="guests"]').fill("甲\n乙\n丙\n丁")
    page.locator('input[name="substitute_result"][value="substitute"]').check()
    page.locator('input[name="late_hands"][value="refused"]').check()
    page.locator('input[name="ranking"][value="placement"]').check()
    page.locator('input[name="placement_points"]').fill("5, 3, 1, 0")
    page.get_by_role("button", name=create).click()
    page.wait_for_url("**/events/*/")
    event = Event.objects.get()
    assert (event.preset, event.options) == ("本溪 300", {"target": 300, "fanbei": 60})
    assert (event.substitute_result, event.late_hands, event.ranking) == ("substitute", "refused", "placement")
    assert event.placement_points == [5, 3, 1, 0]
    ids = {ep.player.name: ep.player_id for ep in event.players.select_related("player")}
    assert overflows(page) == []
    page.locator(f'select[name="partner_{ids["甲"]}"]').select_option(str(ids["乙"]))
    page.locator(f'select[name="partner_{ids["丙"]}"]').select_option(str(ids["丁"]))
    page.get_by_role("button", name=pair).click()
    page.wait_for_url("**#pairs")
    expect(page.locator("section.pair-standings")).to_contain_text(pairs)
    event.refresh_from_db()
    assert {frozenset(p) for p in event.pairs} == {frozenset((ids["甲"], ids["乙"])), frozenset((ids["丙"], ids["丁"]))}
    assert overflows(page) == []
    assert page.js_errors == []


@pytest.mark.parametrize(
    ("lang", "take_out", "confirm", "none_left"),
    [
        ("zh-hans", "移出联赛…", "移出", "这个联赛还没有活动"),
        ("en", "Take out of the league…", "Take it out", "No events in this league yet."),
    ],
)
def test_an_event_is_taken_out_of_a_league_after_its_question_on_a_phone(
    new_page, live_server, lang, take_out, confirm, none_left
):
    club = make_club("东城俱乐部")
    owner = make_member(club)
    event = services.event_create(
        club=club, user=owner, name="周五晚赛", variant="baifen.benxi", date=datetime.date(2026, 12, 4)
    )
    league = services.league_create(club=club, user=owner, name="冬季联赛", events=[event])
    page = new_page(owner, viewport=PHONE, lang=lang)
    page.goto(f"{live_server.url}/clubs/{club.slug}/leagues/{league.pk}/")
    assert overflows(page) == []
    page.get_by_role("button", name=take_out).click()
    expect(page.locator("h1")).to_be_visible()
    expect(page.locator("section.confirm-finish")).to_contain_text("周五晚赛")
    assert overflows(page) == []
    page.get_by_role("button", name=confirm, exact=True).click()
    page.wait_for_url("**#events")
    expect(page.locator("#events")).to_contain_text(none_left)
    assert Event.objects.get().league_id is None
    assert page.js_errors == []
