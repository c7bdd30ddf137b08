"""The club's records page, the records and achievements on a player's page, and the club's settings page that
hides the achievements: words in both languages, links to the hands, flat query counts."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings

from settlement.models import Club, Role
from tests.factories import BENXI_EXAMPLE, make_member, make_session, record_hands

pytestmark = pytest.mark.django_db

KOU_EVENING = [  # 本溪: three 抠底 for 李 and 赵 (seats 1 + 3), then 抠手 for 王 and 张
    {"dealer": 0, "declarer": 0, "bid": 80, "captured": 20, "kou": "trump"},
    {"dealer": 1, "declarer": 0, "bid": 85, "captured": 20, "kou": "joker"},
    {"dealer": 2, "declarer": 2, "bid": 85, "captured": 20, "kou": "trump"},
    {"dealer": 3, "declarer": 3, "bid": 85, "captured": 20, "kou": "side"},
]


@pytest.fixture
def club_with_sessions(owner_client):
    client, club, owner = owner_client
    players = ["王", "李", "张", "赵"]
    first = make_session(club, owner, date=datetime.date(2026, 11, 1), players=players)
    record_hands(first, owner, BENXI_EXAMPLE)
    kou = make_session(club, owner, date=datetime.date(2026, 11, 3), players=players)
    record_hands(kou, owner, KOU_EVENING)
    return client, club, owner, first, kou


def _get(client, url, lang):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("zh-hans", ("纪录", "最长连胜", "3 局", "单局最高", "+300 分", "抠底最多", "3 次", "出锅最多", "盘分")),
        ("en", ("Records", "Longest run of hands won", "3 hands", "Biggest hand", "+300 分", "Most 抠底", "3 times")),
    ],
)
def test_the_records_page_names_each_record_its_holder_and_links_its_hand(club_with_sessions, lang, words):
    client, club, _, first, kou = club_with_sessions
    page = _get(client, f"/clubs/{club.slug}/records/", lang)
    for word in words:
        assert word in page, word
    li = club.players.get(name="李")
    # The run of 3 and the three 抠底: 李 on 11-03 hand 3; the 300: 王 on 11-01 hand 5.
    assert f'href="/clubs/{club.slug}/sessions/{kou.pk}/hands/3/"' in page
    assert f'href="/clubs/{club.slug}/sessions/{first.pk}/hands/5/"' in page
    assert f'href="/clubs/{club.slug}/players/{li.pk}/"' in page


def test_the_standings_page_links_the_records(club_with_sessions):
    client, club, *_ = club_with_sessions
    assert f'href="/clubs/{club.slug}/records/"' in _get(client, f"/clubs/{club.slug}/standings/", "en")


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("zh-hans", ("成就", "首个抠底", "一天三抠底", "首次出锅", "抠底（抓分方）")),
        ("en", ("Achievements (成就)", "First 抠底", "Three 抠底 in a day", "First 出锅", "抠底 (on the capture")),
    ],
)
def test_the_player_page_shows_the_badges_with_their_hands(club_with_sessions, lang, words):
    client, club, _, first, kou = club_with_sessions
    li = club.players.get(name="李")
    page = _get(client, f"/clubs/{club.slug}/players/{li.pk}/", lang)
    for word in words:
        assert word in page, word
    badges = page[page.index('class="player-badges"') :]
    # First 抠底 at 11-03 hand 1, the third at hand 3, 出锅 on 11-01 at hand 4 (李赵 reach 230).
    for session, number in ((kou, 1), (kou, 3), (first, 4)):
        assert f'href="/clubs/{club.slug}/sessions/{session.pk}/hands/{number}/"' in badges


def test_an_owner_hides_the_achievements_and_shows_them_again(club_with_sessions):
    client, club, *_ = club_with_sessions
    li = club.players.get(name="李")
    settings_page = _get(client, f"/clubs/{club.slug}/settings/", "en")
    assert 'name="show_achievements"' in settings_page and "checked" in settings_page
    response = client.post(f"/clubs/{club.slug}/settings/", {})
    assert response.status_code == 302 and response["Location"].endswith("?saved=1")
    assert Club.objects.get(pk=club.pk).show_achievements is False
    page = _get(client, f"/clubs/{club.slug}/players/{li.pk}/", "en")
    assert "player-badges" not in page and "First 抠底" not in page
    assert "Longest run of hands won" in page  # the records stay
    client.post(f"/clubs/{club.slug}/settings/", {"show_achievements": "on"})
    assert "First 抠底" in _get(client, f"/clubs/{club.slug}/players/{li.pk}/", "en")


@pytest.mark.parametrize("role", [Role.SCOREKEEPER, Role.VIEWER])
def test_only_the_owner_changes_the_clubs_settings(club_with_sessions, client, role):
    _, club, *_ = club_with_sessions
    client.force_login(make_member(club, role))
    assert client.get(f"/clubs/{club.slug}/settings/").status_code == 403
    assert client.post(f"/clubs/{club.slug}/settings/", {}).status_code == 403
    assert Club.objects.get(pk=club.pk).show_achievements is True


def _more_sessions(club, owner, n=6):
    for day in range(1, n + 1):
        session = make_session(club, owner, date=datetime.date(2026, 10, day), players=["王", "李", f"客{day}", "赵"])
        record_hands(session, owner, (BENXI_EXAMPLE + KOU_EVENING)[: day + 3])


# The login session, its user and the membership (3), then the records: the longest run, the biggest hand, the most
# 抠底, 光头 and 包场, the most 出锅 (6) and the holders (1).
def test_the_records_page_costs_the_same_queries_however_many_sessions(club_with_sessions, django_assert_num_queries):
    client, club, owner, *_ = club_with_sessions
    with django_assert_num_queries(10):
        assert client.get(f"/clubs/{club.slug}/records/").status_code == 200
    _more_sessions(club, owner)
    with django_assert_num_queries(10):
        assert client.get(f"/clubs/{club.slug}/records/").status_code == 200
