"""The standings page, a player page and both downloads at 360 × 740, in both languages (one compact test)."""

from __future__ import annotations

import datetime

import pytest

from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_session, record_hands

from .conftest import PHONE, overflows

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    ("lang", "title", "download"), [("zh-hans", "排名", "下载 Excel"), ("en", "Standings", "Download Excel")]
)
def test_standings_player_page_and_downloads_on_a_phone(new_page, live_server, lang, title, download):
    club = make_club("茶馆", slug="cha")
    owner = make_member(club)
    record_hands(
        make_session(club, owner, date=datetime.date(2026, 11, 1), players=["王", "李", "张", "赵"]),
        owner,
        BENXI_EXAMPLE,
    )
    page = new_page(owner, viewport=PHONE, lang=lang)
    page.goto(f"{live_server.url}/clubs/cha/standings/")
    assert page.locator("h1").inner_text() == title
    assert not overflows(page)
    for link, suffix in ((download, ".xlsx"), (download.replace("Excel", "CSV"), ".csv")):
        with page.expect_download() as info:
            page.get_by_role("link", name=link).click()
        assert info.value.suggested_filename == f"standings-cha{suffix}"
    page.get_by_role("link", name="王").first.click()
    page.wait_for_selector("svg.running-chart")
    assert not overflows(page)
