"""Screenshots of the pages issue 32 (points 2 and 3) changed, into docs/screenshots/, both languages, on a phone:
the club's records, the records and achievements on a player's page, the club's settings.

Not collected by `make test` (the name does not start with test_); run it by path:
`.venv/bin/python -m pytest -q tests/web/browser/records_screenshots.py`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import PHONE
from .test_records_browser import records_club

pytestmark = pytest.mark.django_db(transaction=True)

OUT = Path(__file__).resolve().parents[3] / "docs" / "screenshots"


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_issue_32_records_screenshots(new_page, live_server, lang):
    OUT.mkdir(parents=True, exist_ok=True)
    name = "zh" if lang == "zh-hans" else "en"
    club, owner = records_club()
    page = new_page(owner, viewport=PHONE, lang=lang)
    page.goto(f"{live_server.url}/clubs/cha/records/")
    page.screenshot(path=str(OUT / f"records-{name}-phone.png"), full_page=True)
    page.goto(f"{live_server.url}/clubs/cha/players/{club.players.get(name='李').pk}/#records-title")
    page.locator(".player-records").scroll_into_view_if_needed()
    page.locator(".player-records").screenshot(path=str(OUT / f"player-records-{name}-phone.png"))
    page.locator(".player-badges").screenshot(path=str(OUT / f"player-badges-{name}-phone.png"))
    page.goto(f"{live_server.url}/clubs/cha/settings/")
    page.screenshot(path=str(OUT / f"club-settings-{name}-phone.png"), full_page=True)
