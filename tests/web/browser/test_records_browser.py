"""The records page, a player's records and achievements, and the club's settings at 360 × 740, both languages:
nothing scrolls sideways, the hands' links open their receipts, hiding the badges hides them (axe on every page)."""

from __future__ import annotations

import datetime
import re

import pytest

from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_session, record_hands

from .conftest import PHONE, overflows

pytestmark = pytest.mark.django_db(transaction=True)

# 本溪: three 抠底 for 李 and 赵 (seats 1 + 3), then 抠手 for 王 and 张.
KOU_EVENING = [
    {"dealer": 0, "declarer": 0, "bid": 80, "captured": 20, "kou": "trump"},
    {"dealer": 1, "declarer": 0, "bid": 85, "captured": 20, "kou": "joker"},
    {"dealer": 2, "declarer": 2, "bid": 85, "captured": 20, "kou": "trump"},
    {"dealer": 3, "declarer": 3, "bid": 85, "captured": 20, "kou": "side"},
]
# 打二鬼 (rules/erguai.md): 王 declares 90 with 张, the 闲 take 45 (包场: 王 pays alone), then 100爆 with 李, 光头.
ERGUAI = [
    {"declarer": 0, "bid": 90, "partner": 2, "captured": 45},
    {"declarer": 0, "bid": 100, "contract": "bao", "partner": 1, "captured": 0},
]


def records_club():
    """A club with a 本溪 evening, a 抠底 evening and an 打二鬼 evening: records in two families, badges."""
    club = make_club("茶馆", slug="cha")
    owner = make_member(club)
    players = ["王", "李", "张", "赵"]
    for day, variant, hands in (
        (1, "baifen.benxi", BENXI_EXAMPLE),
        (2, "erguai", ERGUAI),
        (3, "baifen.benxi", KOU_EVENING),
    ):
        session = make_session(club, owner, variant=variant, date=datetime.date(2026, 11, day), players=players)
        record_hands(session, owner, hands)
    return club, owner


@pytest.mark.parametrize(
    ("lang", "title", "badge", "hide"),
    [
        ("zh-hans", "纪录", "一天三抠底", "在玩家页面显示成就"),
        ("en", "Records", "Three 抠底 in a day", "Show the achievements (成就) on the player pages"),
    ],
)
def test_records_badges_and_the_setting_on_a_phone(new_page, live_server, lang, title, badge, hide):
    club, owner = records_club()
    page = new_page(owner, viewport=PHONE, lang=lang)
    page.goto(f"{live_server.url}/clubs/cha/standings/")
    page.get_by_role("link", name=title).first.click()
    page.wait_for_url("**/records/")
    assert page.locator("h1").inner_text() == title
    assert page.locator("li.record").count() == 8  # 本溪: run, biggest, 抠底, 出锅; 打二鬼: run, biggest, 光头, 包场
    assert not overflows(page)
    page.locator("li.record-run a.hand").first.click()  # the run's last hand: its receipt
    page.wait_for_url(re.compile(r"/hands/\d+/"))
    page.goto(f"{live_server.url}/clubs/cha/players/{club.players.get(name='李').pk}/")
    assert page.locator(".player-badges li").filter(has_text=badge).count() == 1
    assert not overflows(page)
    page.goto(f"{live_server.url}/clubs/cha/settings/")
    assert not overflows(page)
    page.get_by_label(hide).uncheck()
    page.locator("form.club-settings button[type=submit]").click()
    # The click returns once the answer starts loading: read the page when it has loaded.
    page.wait_for_url(re.compile(r"/settings/\?saved=1$"))
    assert page.locator("p.flash").count() == 1
    page.goto(f"{live_server.url}/clubs/cha/players/{club.players.get(name='李').pk}/")
    assert page.locator(".player-badges").count() == 0
    assert page.locator(".player-records li.record").count() > 0
