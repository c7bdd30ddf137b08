"""`pytest tests/web/browser/league_screenshots.py`: the league page on a phone into docs/screenshots/ (zh-Hans
and English). Not collected by `make test` (the name does not start with test_)."""

from __future__ import annotations

from pathlib import Path

import pytest

from settlement import services
from settlement.models import Event
from tests.factories import make_club, make_member

from .conftest import PHONE
from .test_leagues_browser import season

pytestmark = pytest.mark.django_db(transaction=True)

OUT = Path(__file__).resolve().parents[3] / "docs" / "screenshots"


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_league_screenshots(new_page, live_server, lang):
    club = make_club("东城俱乐部", slug="east")
    owner = make_member(club)
    season(club, owner)
    events = list(Event.objects.filter(club=club))
    league = services.league_create(club=club, user=owner, name="冬季联赛", ranking="best", best_n=1, events=events)
    OUT.mkdir(parents=True, exist_ok=True)
    name = "zh" if lang == "zh-hans" else "en"
    page = new_page(owner, viewport=PHONE, lang=lang)
    page.goto(f"{live_server.url}/clubs/{club.slug}/leagues/{league.pk}/")
    page.screenshot(path=str(OUT / f"league-{name}-phone.png"), full_page=True)
