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


def _partners_club():
    """王 with 张 in seat 2 for 10 hands (63.0 a hand), with 李 for 10 (13.0): test_stats_pages.py works them out."""
    club = make_club("茶馆", slug="cha")
    owner = make_member(club)
    for day, players, hands in (
        (1, ["王", "李", "张", "赵"], 5),
        (2, ["王", "赵", "张", "李"], 5),
        (3, ["王", "赵", "李", "张"], 4),
        (4, ["王", "赵", "李", "张"], 4),
        (5, ["王", "赵", "李", "张"], 2),
    ):
        session = make_session(club, owner, date=datetime.date(2026, 11, day), players=players)
        record_hands(session, owner, BENXI_EXAMPLE[:hands])
    return club, owner


@pytest.mark.parametrize(
    ("lang", "best", "by_games", "title"),
    [
        ("zh-hans", "张：每局平均 63.0，共 10 局", "按已赛场数", "等级分走势（按已赛场数）"),
        ("en", "张: 63.0 per hand over 10 hands", "By games played", "Ratings by games played"),
    ],
)
def test_partners_and_the_rating_graph_by_games_played_on_a_phone(new_page, live_server, lang, best, by_games, title):
    club, owner = _partners_club()
    wang = club.players.get(name="王")
    page = new_page(owner, viewport=PHONE, lang=lang)
    page.goto(f"{live_server.url}/clubs/cha/players/{wang.pk}/")
    section = page.locator("section.partners-rivals")
    section.scroll_into_view_if_needed()
    assert best in section.inner_text()
    assert not overflows(page)
    page.goto(f"{live_server.url}/clubs/cha/leaderboard/")
    page.wait_for_selector("svg.rating-chart")
    assert not overflows(page)
    page.get_by_role("link", name=by_games).click()  # a plain link: the graph across the games played
    page.wait_for_selector("svg.rating-chart")
    assert page.locator("#rating-graph-title").inner_text() == title
    assert page.locator("svg.rating-chart g.series").count() == 4
    assert not overflows(page)
