"""Screenshots of what issue 32 (items 1 and 5) changed, into docs/screenshots/, both languages, on a phone:
a player's partners and rivals, and the leaderboard's rating graph by date and by games played.

Not collected by `make test` (the name does not start with test_); run it by path:
`.venv/bin/python -m pytest -q tests/web/browser/partners_screenshots.py`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import PHONE
from .test_stats_browser import _partners_club

pytestmark = pytest.mark.django_db(transaction=True)

OUT = Path(__file__).resolve().parents[3] / "docs" / "screenshots"


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_issue_32_screenshots(new_page, live_server, lang):
    OUT.mkdir(parents=True, exist_ok=True)
    name = "zh" if lang == "zh-hans" else "en"
    club, owner = _partners_club()
    wang = club.players.get(name="王")
    page = new_page(owner, viewport=PHONE, lang=lang)
    page.goto(f"{live_server.url}/clubs/cha/players/{wang.pk}/")
    section = page.locator("section.partners-rivals").first
    section.scroll_into_view_if_needed()
    section.screenshot(path=str(OUT / f"player-partners-{name}-phone.png"))
    for by, query in (("date", ""), ("games", "?by=games")):
        page.goto(f"{live_server.url}/clubs/cha/leaderboard/{query}")
        page.locator("section.rating-graph").scroll_into_view_if_needed()
        page.screenshot(path=str(OUT / f"leaderboard-graph-{by}-{name}-phone.png"), full_page=True)
