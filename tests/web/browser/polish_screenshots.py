"""Screenshots of the pages issue 31 (items 3, 4, 6, 8, 14, 16) changed, into docs/screenshots/, both languages.

Not collected by `make test` (the name does not start with test_); run it by path:
`.venv/bin/python -m pytest -q tests/web/browser/polish_screenshots.py`.
"""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from settlement import services
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_session, record_hands

from .conftest import PHONE

pytestmark = pytest.mark.django_db(transaction=True)

OUT = Path(__file__).resolve().parents[3] / "docs" / "screenshots"
TV = {"width": 1280, "height": 720}


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_issue_31_screenshots(new_page, live_server, lang):
    OUT.mkdir(parents=True, exist_ok=True)
    name = "zh" if lang == "zh-hans" else "en"
    club = make_club("茶馆", slug="cha")
    owner = make_member(club)
    session = make_session(club, owner, date=datetime.date(2026, 11, 1), players=["王强", "李娜", "张伟", "刘洋"])
    record_hands(session, owner, BENXI_EXAMPLE[:4])
    base = f"{live_server.url}/clubs/cha"
    page = new_page(owner, viewport=PHONE, lang=lang)
    # The hand that ends a game: who won, at the top of the form (item 6).
    page.goto(f"{base}/sessions/{session.pk}/table/?saved=4#next")
    page.screenshot(path=str(OUT / f"table-game-end-{name}-phone.png"))
    # Revoking a link asks first (item 8).
    link = services.share_create(session=session, user=owner)
    page.goto(f"{base}/sessions/{session.pk}/share/revoke/")
    page.screenshot(path=str(OUT / f"share-revoke-{name}-phone.png"))
    services.share_revoke(session=session, user=owner)
    viewer = new_page(viewport=PHONE, lang=lang)
    viewer.goto(f"{live_server.url}/s/{link.token}/")
    viewer.screenshot(path=str(OUT / f"share-revoked-{name}-phone.png"))
    # The player page's chart, titled, its axes labelled (item 16).
    wang = club.players.get(name="王强")
    page.goto(f"{base}/players/{wang.pk}/")
    page.locator("figure.running").scroll_into_view_if_needed()
    page.screenshot(path=str(OUT / f"player-chart-{name}-phone.png"))
    # A new API token, shown once after the redirect (item 14).
    page.goto(f"{live_server.url}/tokens/")
    page.fill("#id_name", "表格")
    page.click("form.token-new button[type=submit]")
    page.locator("#token-secret").wait_for()
    page.screenshot(path=str(OUT / f"tokens-new-{name}-phone.png"))
    # The big screen of a four-player 升级 session (item 4).
    shengji = make_session(club, owner, variant="shengji", players=["王强", "李娜", "张伟", "刘洋"])
    record_hands(shengji, owner, [{"declarer": 0, "captured": 20}, {"captured": 30}, {"captured": 100}])
    tv_link = services.share_create(session=shengji, user=owner)
    tv = new_page(viewport=TV, lang=lang)
    tv.goto(f"{live_server.url}/s/{tv_link.token}/?view=tv")
    tv.screenshot(path=str(OUT / f"share-shengji-{name}-tv.png"))
