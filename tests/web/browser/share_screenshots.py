"""The share page in zh-Hans and English, on a phone (360 × 740) and a TV (1920 × 1080, light and dark),
into docs/screenshots/. Not collected by `make test`; run it by path:

    .venv/bin/python -m pytest -q tests/web/browser/share_screenshots.py
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from settlement import services
from settlement.models import Session
from tests.factories import record_hands

from .conftest import PHONE
from .screenshots import MORE_HANDS, OUT

pytestmark = pytest.mark.django_db(transaction=True)

TV = {"width": 1920, "height": 1080}


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_share_screenshots(new_page, live_server, lang, browser):
    call_command("demo_load", verbosity=0)
    user = User.objects.get(username="demo")
    session = Session.objects.get(status=Session.Status.OPEN, variant="baifen.benxi")
    record_hands(session, user, MORE_HANDS)
    link = services.share_create(session=session, user=user)
    url = f"{live_server.url}/s/{link.token}/"
    OUT.mkdir(parents=True, exist_ok=True)
    name = "zh" if lang == "zh-hans" else "en"
    page = new_page(viewport=PHONE, lang=lang)
    page.goto(url)
    page.screenshot(path=str(OUT / f"share-{name}-phone.png"))
    for scheme in ("light", "dark"):
        page = new_page(viewport=TV, lang=lang)
        page.emulate_media(color_scheme=scheme)
        page.goto(url + "?view=tv")
        page.screenshot(path=str(OUT / f"share-{name}-tv-{scheme}.png"))
    table = new_page(user, viewport=PHONE, lang=lang)
    table.goto(f"{live_server.url}/clubs/{session.club.slug}/sessions/{session.pk}/table/?share=1#share")
    table.locator("#share").scroll_into_view_if_needed()
    table.screenshot(path=str(OUT / f"share-panel-{name}-phone.png"))
    table.goto(f"{live_server.url}/clubs/{session.club.slug}/sessions/{session.pk}/share/card/")
    table.screenshot(path=str(OUT / f"share-card-{name}-phone.png"))
