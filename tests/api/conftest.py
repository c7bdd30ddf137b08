"""API test set-up: a club with an owner, a scorekeeper, a viewer and an outsider, each with a token.

The zh-Hans catalogue is compiled first when it is missing or stale (as in
`tests/web/conftest.py`): error messages and CSV headers are checked in both languages.
"""

from __future__ import annotations

from dataclasses import dataclass

import django.test.signals  # noqa: F401 - connects the receiver that drops cached catalogues
import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.signals import setting_changed
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from settlement.management.commands.compile_translations import translations_compile
from settlement.models import Club, Role, Session
from tests.conftest import ROOT
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_session, record_hands

_po = ROOT / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"
_mo = _po.with_suffix(".mo")
if not _mo.exists() or _mo.stat().st_mtime < _po.stat().st_mtime:
    translations_compile([ROOT / "locale"])
    setting_changed.send(sender=None, setting="LOCALE_PATHS", value=settings.LOCALE_PATHS, enter=False)


def client_for(user: User | None, *, lang: str = "en") -> APIClient:
    """A client that sends the user's token (none for None) and asks for `lang`."""
    client = APIClient(HTTP_ACCEPT_LANGUAGE=lang)
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@dataclass
class Table:
    club: Club
    owner: User
    scorekeeper: User
    viewer: User
    outsider: User  # owner of another club
    session: Session  # open, 本溪, the rules' example's first two hands recorded

    def client(self, who: str, *, lang: str = "en") -> APIClient:
        return client_for(None if who == "anonymous" else getattr(self, who), lang=lang)


@pytest.fixture
def table(db) -> Table:
    club = make_club("老年活动中心", slug="laonian")
    owner = make_member(club, Role.OWNER)
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE[:2])
    other = make_club(slug="other")
    return Table(
        club=club,
        owner=owner,
        scorekeeper=make_member(club, Role.SCOREKEEPER),
        viewer=make_member(club, Role.VIEWER),
        outsider=make_member(other, Role.OWNER),
        session=session,
    )


def assert_error(response, status: int, code: str, *, hand=None, field=None) -> dict:
    """The one error shape: exactly code, hand, field and a non-empty message."""
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"code", "hand", "field", "message"}
    assert (body["code"], body["hand"], body["field"]) == (code, hand, field)
    assert isinstance(body["message"], str) and body["message"]
    return body
