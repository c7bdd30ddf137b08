"""`pytest tests/web/browser/event_screenshots.py`: the event pages into docs/screenshots/ (zh-Hans and English):
the events list, a new event, the event page on a phone, the big screen at 1280 × 720, a table card, the results.

Not collected by `make test` (the name does not start with test_). A club of 16 players, one balanced round of
本溪 with hands at every table and a penalty.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from settlement import services
from settlement.models import EventPlayer
from tests.factories import BENXI_EXAMPLE, make_club, make_member, record_hands

from .conftest import PHONE

pytestmark = pytest.mark.django_db(transaction=True)

OUT = Path(__file__).resolve().parents[3] / "docs" / "screenshots"
NAMES = [
    "老王",
    "小李",
    "阿强",
    "张姐",
    "刘叔",
    "小美",
    "大勇",
    "陈老师",
    "周周",
    "小赵",
    "孙哥",
    "吴姨",
    "郑伟",
    "冯丽",
    "褚明",
    "卫东",
]


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_event_screenshots(new_page, live_server, lang):
    club = make_club("东城俱乐部", slug="east")
    owner = make_member(club)
    event = services.event_create(
        club=club, user=owner, name="周五晚赛", variant="baifen.benxi", venue="会所二楼", players=NAMES
    )
    made = services.round_draw(event=event, user=owner, draw="balanced", seed=2026)
    for i, table in enumerate(made.tables.order_by("number")):
        record_hands(table.session, owner, BENXI_EXAMPLE[: 2 + i % 3])
    late = EventPlayer.objects.filter(event=event, player__name="小赵").get().player
    reason = "迟到十分钟" if lang == "zh-hans" else "ten minutes late"
    services.adjustment_add(event=event, user=owner, player=late, kind="penalty", amount=5, reason=reason)
    OUT.mkdir(parents=True, exist_ok=True)
    name = "zh" if lang == "zh-hans" else "en"
    base = f"{live_server.url}/clubs/{club.slug}/events/"
    phone = new_page(owner, viewport=PHONE, lang=lang)
    for path, shot in (
        ("", "events"),
        ("new/?variant=baifen.benxi", "event-new"),
        (f"{event.pk}/", "event"),
        (f"{event.pk}/rounds/1/cards/", "event-cards"),
        (f"{event.pk}/results/", "event-results"),
    ):
        phone.goto(base + path)
        phone.screenshot(path=str(OUT / f"{shot}-{name}-phone.png"))
    tv = new_page(owner, viewport={"width": 1280, "height": 720}, lang=lang, color_scheme="dark")
    tv.goto(f"{base}{event.pk}/screen/")
    tv.screenshot(path=str(OUT / f"event-screen-{name}-tv.png"))
