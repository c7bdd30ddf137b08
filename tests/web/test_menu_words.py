"""Distinct words for distinct pages (issue 31, item 15): the menu's standings and the ratings' leaderboard,
as docs/glossary.md names them."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import reverse

from tests.conftest import ROOT

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("lang", "standings", "leaderboard"), [("zh-hans", "排名", "等级分排行榜"), ("en", "Standings", "Leaderboard")]
)
def test_the_standings_and_the_leaderboard_have_their_own_words(owner_client, lang, standings, leaderboard):
    client, club, _ = owner_client
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    home = client.get(reverse("club_home", args=[club.slug])).content.decode()
    links = dict(re.findall(r'<a[^>]*href="([^"]+)"[^>]*>([^<]+)</a>', home))
    assert links[reverse("standings", args=[club.slug])] == standings
    assert links[reverse("club_leaderboard", args=[club.slug])] == leaderboard
    for url, word in (
        (reverse("standings", args=[club.slug]), standings),
        (reverse("club_leaderboard", args=[club.slug]), leaderboard),
    ):
        assert f"<h1>{word}" in client.get(url).content.decode()


def test_the_glossary_gives_the_same_words():
    glossary = (ROOT / "docs" / "glossary.md").read_text()
    assert "| 排名 | standings |" in glossary and "| 等级分排行榜 | leaderboard |" in glossary
