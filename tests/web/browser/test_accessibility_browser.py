"""Every page passes axe-core (WCAG 2.1 A and AA), in both languages, on a phone and a desktop, as the
owner, as a viewer and logged out; in the dark scheme too. The table page works by keyboard alone
and with the text at 200 %.

The automatic check in conftest.py runs axe on each page visited here; these tests make sure every
kind of page is visited (the demo club: open and closed sessions of each variant, corrected hands).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from settlement.models import Club, Player, Session
from settlement.rules.registry import VARIANTS
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_session, record_hands

from .conftest import DESKTOP, PHONE, axe_check, overflows

pytestmark = pytest.mark.django_db(transaction=True)

expect = pytest.importorskip("playwright.sync_api").expect


def _demo() -> tuple[Club, User, User]:
    call_command("demo_load", verbosity=0)
    club = Club.objects.get(slug="demo")
    return club, User.objects.get(username="demo"), User.objects.get(username="demo-viewer")


def _pages(club: Club, *, owner: bool) -> list[str]:
    """Every kind of page a member sees: the owner also the new-session page (each variant and player
    count), the fix pages and the close confirmation."""
    base = f"/clubs/{club.slug}"
    open_ = Session.objects.filter(club=club, status=Session.Status.OPEN).order_by("pk").first()
    closed = Session.objects.filter(club=club, status=Session.Status.CLOSED).order_by("pk").first()
    player = Player.objects.filter(club=club).order_by("pk").first()
    pages = [
        "/",
        f"{base}/",
        f"{base}/history/",
        f"{base}/history/?status=closed&player={player.pk}",
        f"{base}/players/{player.pk}/",
        f"{base}/sessions/{open_.pk}/",
        f"{base}/sessions/{closed.pk}/",
        f"{base}/sessions/{open_.pk}/table/",
        f"{base}/sessions/{closed.pk}/table/",
        f"{base}/sessions/{open_.pk}/hands/1/",
        f"{base}/sessions/{closed.pk}/hands/1/",
    ]
    if owner:
        pages.append(f"{base}/sessions/new/")
        for key, rules in VARIANTS.items():
            for n in sorted(rules.player_counts):
                pages.append(f"{base}/sessions/new/?variant={key}&players={n}")
        pages += [
            f"{base}/sessions/{open_.pk}/table/hands/1/",
            f"{base}/sessions/{closed.pk}/table/hands/1/",
            f"{base}/sessions/{open_.pk}/close/confirm/",
            f"{base}/sessions/{open_.pk}/table/?saved=1",
        ]
    return pages


def _visit(page: Any, url: str) -> Any:
    """Go to the page (axe checks it as it loads), then open what is folded (<details>) and check again."""
    response = page.goto(url)
    if page.evaluate("() => document.querySelectorAll('details:not([open])').length"):
        page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
        axe_check(page, "every <details> open")
    return response


SIZES = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]
LANGS = ["zh-hans", "en"]


@pytest.mark.parametrize("viewport", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_every_page_passes_axe(new_page, live_server, lang, viewport):
    club, owner, viewer = _demo()
    visited = 0
    for user, pages in ((owner, _pages(club, owner=True)), (viewer, _pages(club, owner=False))):
        page = new_page(user, viewport=viewport, lang=lang)
        for path in pages:
            response = _visit(page, live_server.url + path)
            assert response.status == 200, path
            visited += 1
        assert page.js_errors == []
    # Logged out: the login page (a failed login too) and the error pages.
    page = new_page(viewport=viewport, lang=lang)
    page.goto(live_server.url + f"/clubs/{club.slug}/")
    page.wait_for_url(re.compile(r"/login/"))
    page.fill("#id_username", "demo")
    page.fill("#id_password", "wrong")
    page.click("main button[type=submit]")
    expect(page.locator("main .error")).to_be_visible()
    assert page.goto(live_server.url + "/no/such/page/").status == 404
    # A viewer asking for an owner's page: 403.
    page = new_page(viewer, viewport=viewport, lang=lang)
    assert page.goto(live_server.url + f"/clubs/{club.slug}/sessions/new/").status in (403, 404)
    assert visited > 30


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_passes_axe_in_the_dark_scheme(new_page, live_server, lang):
    club, owner, _viewer = _demo()
    page = new_page(owner, viewport=PHONE, lang=lang, color_scheme="dark")
    for path in _pages(club, owner=True):
        _visit(page, live_server.url + path)
    assert page.evaluate("() => matchMedia('(prefers-color-scheme: dark)').matches")
    page = new_page(viewport=DESKTOP, lang=lang, color_scheme="dark")
    page.goto(live_server.url + "/login/")
    page.goto(live_server.url + "/no/such/page/")
