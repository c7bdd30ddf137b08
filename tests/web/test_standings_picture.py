"""The closing standings as a picture (SVG) for a chat group (issue 31, item 17): the table page's figures."""

from __future__ import annotations

import re
from xml.etree import ElementTree

import pytest
from django.urls import reverse

from settlement import services
from tests.factories import BENXI_EXAMPLE, make_session, record_hands

pytestmark = pytest.mark.django_db


def test_the_picture_ranks_the_sides_as_the_final_standings_do(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    # rules/baifen.md's example: B wins 盘 1 (A 15, B 230), A wins 盘 2 (+300); A 315, B 230 in all.
    record_hands(session, owner, BENXI_EXAMPLE)
    services.session_close(session=session, user=owner)
    detail = client.get(reverse("session_detail", args=[club.slug, session.pk])).content.decode()
    url = reverse("standings_picture", args=[club.slug, session.pk])
    assert f'href="{url}" download' in detail
    response = client.get(url)
    assert response["Content-Type"].startswith("image/svg+xml")
    svg = response.content.decode()
    ElementTree.fromstring(svg)  # well-formed
    texts = re.findall(r">([^<>]+)</text>", svg)
    assert texts[2:] == ["1. 甲·丙", "+315", "2. 乙·丁", "+230"]
