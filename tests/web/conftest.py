"""Web tests render the pages in both languages: make sure the zh-Hans catalogue is compiled.

`make test` compiles it first; running pytest straight from a fresh clone compiles it here,
then tells Django to drop the catalogue it loaded at set-up, before the .mo existed.
"""

from __future__ import annotations

import django.test.signals  # noqa: F401 - connects the receiver that drops cached catalogues
import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.signals import setting_changed

from settlement.management.commands.compile_translations import translations_compile
from settlement.web.event_screens import screen_render_gate
from tests.conftest import ROOT
from tests.factories import make_club, make_member

_po = ROOT / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"
_mo = _po.with_suffix(".mo")
if not _mo.exists() or _mo.stat().st_mtime < _po.stat().st_mtime:
    translations_compile([ROOT / "locale"])
    setting_changed.send(sender=None, setting="LOCALE_PATHS", value=settings.LOCALE_PATHS, enter=False)


@pytest.fixture
def owner_client(client):
    """A logged-in owner of a fresh club: (client, club, owner)."""
    club = make_club("东城俱乐部", slug="east")
    owner = make_member(club)
    client.force_login(owner)
    return client, club, owner


@pytest.fixture
def screen_refresh_passes():
    """`passes(event)`: the big screen's refresh period ends, as `SCREEN_REFRESH_SECONDS` would (its gate opens)."""

    def passes(event) -> None:
        cache.delete_many([screen_render_gate(event_id=event.pk, lang=code) for code, _ in settings.LANGUAGES])

    return passes
