"""The league pages in Chromium at 360 × 740 and on a desktop, in both languages: a new league made with the form
(no script needed), then its page with the rule, the table and each player's history; nothing overflows, and
axe-core checks every page shown (conftest)."""

from __future__ import annotations

import datetime

import pytest

from settlement import services
from tests.factories import make_club, make_member

from .conftest import DESKTOP, PHONE, overflows

pytestmark = pytest.mark.django_db(transaction=True)

expect = pytest.importorskip("playwright.sync_api").expect


def season(club, owner):
    """Two evenings of four players, each player's total their award."""
    for day, awards in ((4, (5, 2, 1, 3)), (11, (1, 8, 2, 2))):
        names = ["老王", "小李", "阿强", "张姐"]
        event = services.event_create(
            club=club,
            user=owner,
            name=f"{day} 号周五晚赛",
            variant="baifen.benxi",
            players=names,
            date=datetime.date(2026, 12, day),
        )
        services.round_draw(event=event, user=owner, draw="random", seed=day)
        for ep, amount in zip(event.players.select_related("player").order_by("id"), awards, strict=True):
            services.adjustment_add(event=event, user=owner, player=ep.player, kind="award", amount=amount, reason="x")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize(
    ("lang", "create", "rule"),
    [("zh-hans", "创建联赛", "2 场取最好的 1 场"), ("en", "Create the league", "best 1 of 2 events")],
)
def test_a_director_makes_a_league_and_reads_its_table(new_page, live_server, viewport, lang, create, rule):
    club = make_club("东城俱乐部")
    owner = make_member(club)
    season(club, owner)
    page = new_page(owner, viewport=viewport, lang=lang)
    page.goto(f"{live_server.url}/clubs/{club.slug}/leagues/new/")
    assert overflows(page) == []
    page.locator('input[name="name"]').fill("冬季联赛")
    page.locator('input[name="ranking"][value="best"]').check()
    page.locator('input[name="best_n"]').fill("1")
    for box in page.locator('input[name="events"]').all():
        box.check()
    page.get_by_role("button", name=create).click()
    expect(page.locator("p.meta")).to_contain_text(rule)
    # 老王 5 and 1 → best 5; 小李 2 and 8 → best 8: 小李 first.
    expect(page.locator("table.standings tbody tr").first).to_contain_text("小李")
    expect(page.locator("article.history")).to_have_count(4)
    assert overflows(page) == []
    page.goto(f"{live_server.url}/clubs/{club.slug}/leagues/")
    assert overflows(page) == []
