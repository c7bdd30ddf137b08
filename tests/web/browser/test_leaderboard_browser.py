"""The leaderboard and a player's ratings on a 360 × 740 phone, in zh-Hans and in English (axe-core checks each page).

A club with one 本溪 session of the rules' example (rules/baifen.md: 乙·丁 win 盘 1 at hand 4, 甲·丙 盘 2 at
hand 5): every player won one 盘 and lost one, from the same start, so the four ratings come out the same
two by two — worked in tests/ledger/test_ratings.py; here: what the phone shows, in both languages.
"""

from __future__ import annotations

import pytest

from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_session, record_hands

from .conftest import PHONE, overflows

pytestmark = pytest.mark.django_db(transaction=True)

expect = pytest.importorskip("playwright.sync_api").expect

TEXTS = {
    "zh-hans": ("等级分排行榜", "等级分怎么算", "等级分", "改名或合并"),
    "en": ("Leaderboard", "How ratings work", "Ratings", "Rename or merge"),
}


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_the_leaderboard_and_a_players_ratings_on_a_phone(new_page, live_server, lang):
    club = make_club("东城俱乐部", slug="east")
    owner = make_member(club)
    session = make_session(club, owner, date="2026-11-01")
    record_hands(session, owner, BENXI_EXAMPLE)
    heading, how, ratings, manage = TEXTS[lang]
    page = new_page(owner, viewport=PHONE, lang=lang)
    page.goto(f"{live_server.url}/clubs/east/leaderboard/")
    expect(page.get_by_role("heading", level=1)).to_contain_text(heading)
    expect(page.locator("p.how")).to_contain_text(how)
    rows = page.locator("table.leaderboard tbody tr")
    expect(rows).to_have_count(4)
    assert overflows(page) == []
    rows.first.get_by_role("link").click()
    expect(page.get_by_role("heading", name=ratings, exact=True)).to_be_visible()
    expect(page.get_by_role("heading", name=manage)).to_be_visible()
    expect(page.locator("table.rating-history tbody tr")).to_have_count(2)
    assert overflows(page) == []
