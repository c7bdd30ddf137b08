"""The leaderboard page and the player page's ratings, audit trail and owner's forms."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from settlement.models import Club, Player, PlayerEvent, Role
from tests.factories import BENXI_EXAMPLE, make_member, make_player, make_session, record_hands

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(db):
    call_command("demo_load", verbosity=0)
    club = Club.objects.get(slug="demo")
    client = Client()
    client.force_login(club.memberships.get(role=Role.OWNER).user)
    return client, club


def _page(client, url, lang="zh-hans"):
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    return response.content.decode()


def test_the_leaderboard_ranks_the_demo_club_in_both_languages(demo):
    client, club = demo
    url = reverse("club_leaderboard", args=[club.slug])
    zh = _page(client, url)
    assert "等级分排行榜" in zh and "等级分怎么算" in zh and "打百分（本溪、抚顺、沈阳）" in zh
    en = _page(client, url, "en")
    assert "How ratings work" in en and "Baifen, regional (Benxi, Fushun, Shenyang)" in en
    # After 11-07's three 盘 小李 and 老赵 won two, 老王 and 张姐 one: the winners of two lead.
    assert en.index("小李") < en.index("老王") and en.index("老赵") < en.index("张姐")
    classic = _page(client, url + "?family=baifen.classic", "en")
    assert 'aria-current="page"' in classic


def test_an_unknown_family_shows_an_empty_board(demo):
    client, club = demo
    page = _page(client, reverse("club_leaderboard", args=[club.slug]) + "?family=nope", "en")
    assert "No ratings yet" in page


def test_the_leaderboard_costs_the_same_queries_with_more_hands_and_sessions(demo, django_assert_num_queries):
    # Session, user, membership with the club, then the board: families, each player's last order, the rows;
    # and the rating graph: its leaders' every rating row (one query, by date or by games played alike).
    client, club = demo
    for query in ("", "?by=games"):
        url = reverse("club_leaderboard", args=[club.slug]) + query
        with django_assert_num_queries(7):
            client.get(url)
    owner = club.memberships.get(role=Role.OWNER).user
    for day in ("2026-12-01", "2026-12-02", "2026-12-03"):
        session = make_session(club, owner, players=["老王", "小李", "张姐", "老赵"], date=day)
        record_hands(session, owner, BENXI_EXAMPLE)
    for query in ("", "?by=games"):
        url = reverse("club_leaderboard", args=[club.slug]) + query
        with django_assert_num_queries(7):
            client.get(url)


@pytest.mark.parametrize(
    ("lang", "query", "title", "across", "current"),
    [
        ("zh-hans", "", "等级分走势（按日期）", "日期", "按日期"),
        ("zh-hans", "?family=baifen&by=games", "等级分走势（按已赛场数）", "已赛场数", "按已赛场数"),
        ("en", "?by=date", "Ratings by date", "Date", "By date"),
        ("en", "?by=games", "Ratings by games played", "Games played", "By games played"),
        ("en", "?by=nonsense", "Ratings by date", "Date", "By date"),
    ],
)
def test_the_rating_graph_goes_by_date_or_by_games_played_with_a_title_and_labelled_axes(
    demo, lang, query, title, across, current
):
    client, club = demo
    page = _page(client, reverse("club_leaderboard", args=[club.slug]) + query, lang)
    graph = page[page.index('<section class="rating-graph"') :]
    assert f'<h2 id="rating-graph-title">{title}</h2>' in graph
    assert f'<title id="rating-svg-title">{title} · ' in graph
    assert f'text-anchor="middle">{across}</text>' in graph
    assert ">等级分</text>" in graph if lang == "zh-hans" else ">Rating</text>" in graph
    assert f'aria-current="page">{current}</a>' in graph
    # Each way is a plain link (no script): the other one keeps the family.
    assert 'href="?family=baifen&amp;by=games"' in graph and 'href="?family=baifen"' in graph
    # The demo's 本溪 evening: 11-07's three 盘, four players, each rated three times.
    assert graph.count('<g class="series') == 4 and graph.count("<polyline") == 4


def test_the_rating_graph_by_games_played_draws_each_outcome_and_by_date_each_days_last(demo):
    client, club = demo
    url = reverse("club_leaderboard", args=[club.slug])
    by_games = _page(client, url + "?by=games", "en")
    by_date = _page(client, url, "en")
    # One evening of three 盘: three points a line across the games, one a line across the dates.
    lines = [re.search(r'<polyline points="([^"]*)"', page).group(1).split() for page in (by_games, by_date)]
    assert [len(points) for points in lines] == [3, 1]
    assert "from 1 to 3" in by_games and "from 2026-11-07 to 2026-11-07" in by_date


def test_a_player_page_shows_the_rating_and_its_history(demo):
    client, club = demo
    player = Player.objects.get(club=club, name="小李")
    page = _page(client, reverse("player_detail", args=[club.slug, player.pk]), "en")
    assert "Ratings" in page and "Baifen, regional" in page and "game 3" in page
    assert "Rename or merge" in page  # an owner


def test_a_viewer_sees_no_forms_and_cannot_post_them(demo):
    _, club = demo
    viewer = Client()
    viewer.force_login(make_member(club, Role.VIEWER))
    player = Player.objects.get(club=club, name="小李")
    page = _page(viewer, reverse("player_detail", args=[club.slug, player.pk]), "en")
    assert "Rename or merge" not in page
    response = viewer.post(reverse("player_rename", args=[club.slug, player.pk]), {"name": "李"})
    assert response.status_code == 403


def test_an_owner_renames_from_the_player_page(demo):
    client, club = demo
    player = Player.objects.get(club=club, name="小李")
    response = client.post(reverse("player_rename", args=[club.slug, player.pk]), {"name": "李明", "reason": "全名"})
    assert response.status_code == 302
    page = _page(client, response["Location"])
    assert "改名 小李 → 李明" in page and "原因： 全名" in page


def test_a_refused_rename_names_the_field_in_the_readers_language(demo):
    client, club = demo
    player = Player.objects.get(club=club, name="小李")
    response = client.post(
        reverse("player_rename", args=[club.slug, player.pk]), {"name": "老王"}, HTTP_ACCEPT_LANGUAGE="zh-hans"
    )
    assert response.status_code == 400
    assert "俱乐部里已有名叫 老王 的玩家" in response.content.decode()
    assert not PlayerEvent.objects.exists()


def test_a_merge_from_the_player_page_and_the_old_address_redirects(demo):
    client, club = demo
    owner = club.memberships.get(role=Role.OWNER).user
    guest = make_player(club, "小李子", is_guest=True)
    session = make_session(club, owner, players=[guest, "老王", "张姐", "老赵"], date="2026-12-05")
    record_hands(session, owner, BENXI_EXAMPLE)
    survivor = Player.objects.get(club=club, name="小李")
    response = client.post(reverse("player_merge", args=[club.slug, guest.pk]), {"into": survivor.pk})
    assert response.status_code == 302
    assert response["Location"] == reverse("player_detail", args=[club.slug, survivor.pk])
    old = client.get(reverse("player_detail", args=[club.slug, guest.pk]))
    assert old.status_code == 302 and old["Location"] == response["Location"]
    page = _page(client, response["Location"], "en")
    assert "小李子 merged into 小李" in page
    home = _page(client, reverse("club_home", args=[club.slug]))
    assert "小李子" not in home


def test_a_refused_merge_says_why(demo):
    client, club = demo
    a, b = Player.objects.get(club=club, name="老王"), Player.objects.get(club=club, name="小李")
    response = client.post(reverse("player_merge", args=[club.slug, a.pk]), {"into": b.pk}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "both sat in the session of 2026-11-07" in response.content.decode()
    response = client.post(reverse("player_merge", args=[club.slug, a.pk]), {"into": "x"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "there is no such player in this club" in response.content.decode()


def test_merged_players_leave_the_session_picker(demo):
    client, club = demo
    owner = club.memberships.get(role=Role.OWNER).user
    a = make_player(club, "路人甲", is_guest=True)
    from settlement.services import player_merge

    player_merge(player=a, into=Player.objects.get(club=club, name="春燕"), user=owner)
    page = _page(client, reverse("session_new", args=[club.slug]) + "?variant=baifen.benxi")
    assert "路人甲" not in page and "春燕" in page
