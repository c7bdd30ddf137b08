"""The club pages: what they show, in both languages, and what their forms do."""

from __future__ import annotations

import datetime
import json

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from settlement import services
from tests.factories import BENXI_EXAMPLE, make_player, make_session, record_hands

pytestmark = pytest.mark.django_db


def _english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


def _session_url(name, session, **extra):
    return reverse(name, kwargs={"slug": session.club.slug, "session_id": session.pk, **extra})


def test_the_session_record_shows_receipts_games_and_corrections_in_chinese_by_default(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner, venue="一号桌")
    record_hands(session, owner, BENXI_EXAMPLE)
    services.hand_correct(
        session=session, user=owner, number=3, hand_input=BENXI_EXAMPLE[2] | {"captured": 10}, reason="漏记一个十"
    )
    services.hand_void(session=session, user=owner, number=2, reason="发错牌")
    page = client.get(_session_url("session_detail", session)).content.decode()
    assert "一号桌" in page and "打百分（本溪）" in page
    assert "叫分 90 + 抓分 10 = 100 ≤ 100：成" in page  # the corrected hand's receipt
    assert "漏记一个十" in page and "发错牌" in page and owner.username in page
    assert "作废" in page and "各局" in page
    # Without hand 2 and with hand 3 made at 90: A 80, 90, 5, 305 → A wins the 盘 at hand 5.
    assert "+305" in page


def test_the_session_record_in_english(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE)
    _english(client)
    page = client.get(_session_url("session_detail", session)).content.decode()
    assert "Baifen (Benxi)" in page and "Hands" in page
    assert "bid 85 + captured 55 = 140 &gt; 100: broken" in page
    assert "Game 1 over" in page and "reached the target" in page
    assert "各局" not in page


def test_the_language_switch_uses_set_language(owner_client):
    client, club, _ = owner_client
    url = reverse("club_home", kwargs={"slug": club.slug})
    assert "最近的场次" in client.get(url).content.decode()
    response = client.post(reverse("set_language"), {"language": "en", "next": url})
    assert response.status_code == 302 and response["Location"] == url
    page = client.get(url).content.decode()
    assert "Recent sessions" in page and 'lang="en"' in page


def test_club_home_shows_open_and_recent_sessions_and_players(owner_client):
    client, club, owner = owner_client
    wang = make_player(club, "老王")
    open_session = make_session(club, owner, players=[wang, "乙", "丙", "丁"], venue="今晚")
    closed = make_session(club, owner, venue="上周", date=datetime.date(2026, 11, 1))
    record_hands(closed, owner, BENXI_EXAMPLE)
    services.session_close(session=closed, user=owner)
    response = client.get(reverse("club_home", kwargs={"slug": club.slug}))
    page = response.content.decode()
    assert page.index("今晚") < page.index("上周")
    assert _session_url("session_detail", open_session) in page and _session_url("session_detail", closed) in page
    assert reverse("player_detail", kwargs={"slug": club.slug, "player_id": wang.pk}) in page
    assert "+315" in page and "+230" in page  # the closed session's totals


def test_club_history_filters_by_date_variant_and_player(owner_client):
    client, club, owner = owner_client
    wang = make_player(club, "老王")
    a = make_session(club, owner, date=datetime.date(2026, 11, 1), players=[wang, "乙", "丙", "丁"])
    b = make_session(club, owner, date=datetime.date(2026, 11, 8), variant="baifen.classic")
    c = make_session(club, owner, date=datetime.date(2026, 11, 15), players=["甲", "乙", wang, "丁"])
    url = reverse("club_history", kwargs={"slug": club.slug})

    def shown(params):
        page = client.get(url, params).content.decode()
        return [s for s, name in ((a, "a"), (b, "b"), (c, "c")) if _session_url("session_detail", s) in page]

    assert shown({}) == [a, b, c]
    assert shown({"date_from": "2026-11-02", "date_to": "2026-11-15"}) == [b, c]
    assert shown({"variant": "baifen.classic"}) == [b]
    assert shown({"player": wang.pk}) == [a, c]
    assert shown({"player": wang.pk, "date_to": "2026-11-10"}) == [a]


@pytest.mark.parametrize(
    ("params", "field", "error"),
    [
        ({"date_from": "soon"}, "date_from", "Enter a valid date."),
        ({"date_to": "2026-13-01"}, "date_to", "Enter a valid date."),
        ({"variant": "poker"}, "variant", "Select a valid choice. poker is not one of the available choices."),
        ({"status": "lost"}, "status", "Select a valid choice. lost is not one of the available choices."),
    ],
)
def test_a_bad_history_filter_is_a_400_naming_the_field_and_lists_no_sessions(owner_client, params, field, error):
    client, club, owner = owner_client
    _english(client)
    session = make_session(club, owner)
    url = reverse("club_history", kwargs={"slug": club.slug})
    response = client.get(url, params)
    page = response.content.decode()
    assert response.status_code == 400
    assert f'name="{field}"' in page and f'<span class="error">{error}</span>' in page
    assert _session_url("session_detail", session) not in page  # not the whole history, unfiltered
    assert client.get(url, {"date_from": "2026-01-01"}).status_code == 200


def test_club_history_comes_a_page_at_a_time_keeping_its_filters(owner_client, monkeypatch):
    monkeypatch.setattr("settlement.web.clubs.HISTORY_PAGE", 2)
    client, club, owner = owner_client
    _english(client)
    wang = make_player(club, "老王")
    # five of 老王's sessions on the 1st to the 5th of November, and one without him on the 6th
    days = {
        day: make_session(club, owner, date=datetime.date(2026, 11, day), players=["甲", wang, "丙", "丁"])
        for day in range(1, 6)
    }
    make_session(club, owner, date=datetime.date(2026, 11, 6))
    url = reverse("club_history", kwargs={"slug": club.slug})

    def shown(page):
        return [day for day, s in days.items() if _session_url("session_detail", s) in page]

    first = client.get(url, {"player": wang.pk}).content.decode()
    # 5 sessions, 2 a page: pages 1 (5th, 4th), 2 (3rd, 2nd), 3 (1st)
    assert shown(first) == [4, 5] and "page 1 of 3, newest first" in first
    assert f'rel="next" href="{url}?player={wang.pk}&amp;page=2"' in first and 'rel="prev"' not in first
    second = client.get(url, {"player": wang.pk, "page": 2}).content.decode()
    assert shown(second) == [2, 3] and f'rel="prev" href="{url}?player={wang.pk}"' in second
    last = client.get(url, {"player": wang.pk, "page": 3}).content.decode()
    assert shown(last) == [1] and 'rel="next"' not in last
    assert client.get(url, {"player": wang.pk, "page": 4}).status_code == 404
    assert client.get(url, {"page": 10**30}).status_code == 404
    assert client.get(url, {"page": "x"}).status_code == 200  # not a number: the first page


def test_the_player_page_lists_the_players_sessions(owner_client):
    client, club, owner = owner_client
    wang = make_player(club, "老王")
    session = make_session(club, owner, players=["甲", wang, "丙", "丁"])
    record_hands(session, owner, BENXI_EXAMPLE)
    other = make_session(club, owner)
    page = client.get(reverse("player_detail", kwargs={"slug": club.slug, "player_id": wang.pk})).content.decode()
    assert _session_url("session_detail", session) in page and _session_url("session_detail", other) not in page
    assert "+230" in page


@pytest.mark.parametrize(("lang", "seat"), [("zh-hans", "<td>2号位</td>"), ("en", "<td>Seat 2</td>")])
def test_the_player_page_counts_seats_from_1_as_everywhere_else(owner_client, lang, seat):
    client, club, owner = owner_client
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    wang = make_player(club, "老王")
    make_session(club, owner, players=["甲", wang, "丙", "丁"])
    page = client.get(reverse("player_detail", kwargs={"slug": club.slug, "player_id": wang.pk})).content.decode()
    assert seat in page and "<td>1</td>" not in page


def test_the_player_page_lists_the_newest_sessions_and_links_the_history_for_the_rest(owner_client, monkeypatch):
    monkeypatch.setattr("settlement.web.players.PLAYER_SESSIONS", 2)
    client, club, owner = owner_client
    _english(client)
    wang = make_player(club, "老王")
    url = reverse("player_detail", kwargs={"slug": club.slug, "player_id": wang.pk})
    history = reverse("club_history", kwargs={"slug": club.slug}) + f"?player={wang.pk}"
    middle, newest = (
        make_session(club, owner, date=datetime.date(2026, 11, day), players=["甲", wang, "丙", "丁"]) for day in (2, 3)
    )
    page = client.get(url).content.decode()
    # two sessions, two shown: no more to link
    assert _session_url("session_detail", newest) in page and _session_url("session_detail", middle) in page
    assert "sessions only" not in page and "All of them" not in page
    oldest = make_session(club, owner, date=datetime.date(2026, 11, 1), players=["甲", wang, "丙", "丁"])
    page = client.get(url).content.decode()
    # three, two shown: the 3rd and the 2nd of November, and the link to all three
    assert _session_url("session_detail", newest) in page and _session_url("session_detail", middle) in page
    assert _session_url("session_detail", oldest) not in page
    assert "The newest 2 sessions only." in page and f'href="{history}">All of them' in page


def test_closing_and_exporting_a_session(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner, venue="一号桌")
    record_hands(session, owner, BENXI_EXAMPLE[:2])
    assert client.get(_session_url("session_close", session)).status_code == 405
    assert client.post(_session_url("session_close", session)).status_code == 302
    session.refresh_from_db()
    assert not session.is_open
    page = client.get(_session_url("session_detail", session)).content.decode()
    assert "<textarea" not in page  # no JSON box, and no entry once closed
    response = client.get(_session_url("session_export", session))
    document = json.loads(response.content)
    assert response["Content-Disposition"].startswith("attachment;")
    assert document["hands"] == BENXI_EXAMPLE[:2] and document["venue"] == "一号桌"


# --- query counts do not grow with the number of hands or sessions ---


def _queries(client, url):
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_the_session_record_costs_the_same_queries_for_2_or_20_hands(owner_client, django_assert_num_queries):
    client, club, owner = owner_client
    short, long = make_session(club, owner), make_session(club, owner)
    record_hands(short, owner, BENXI_EXAMPLE[:2])
    record_hands(long, owner, BENXI_EXAMPLE * 4)
    services.hand_void(session=long, user=owner, number=3, reason="x")
    services.hand_correct(
        session=long, user=owner, number=6, hand_input=BENXI_EXAMPLE[0] | {"captured": 10}, reason="x"
    )
    # django session, user, session + membership + club, seats with the state after the last hand (and the log's
    # last number), the page's revisions with their stored states, closings and reopenings, the event it is a
    # table of (none)
    with django_assert_num_queries(7):
        client.get(_session_url("session_detail", short))
    with django_assert_num_queries(7):
        client.get(_session_url("session_detail", long))
    with django_assert_num_queries(7):  # the hand's page: its seats alone, then the hand (selectors.hand_view)
        client.get(_session_url("hand_detail", long, number=6))


def test_club_pages_cost_the_same_queries_for_few_or_many_sessions(owner_client):
    client, club, owner = owner_client
    wang = make_player(club, "老王")
    urls = [
        reverse("club_home", kwargs={"slug": club.slug}),
        reverse("club_history", kwargs={"slug": club.slug}),
        reverse("player_detail", kwargs={"slug": club.slug, "player_id": wang.pk}),
    ]
    record_hands(make_session(club, owner, players=[wang, "乙", "丙", "丁"]), owner, BENXI_EXAMPLE[:2])
    closed = make_session(club, owner, players=[wang, "乙", "丙", "丁"])
    services.session_close(session=closed, user=owner)
    few = [_queries(client, url) for url in urls]
    for day in range(1, 9):
        session = make_session(club, owner, players=[wang, f"乙{day}", "丙", "丁"], date=datetime.date(2026, 10, day))
        record_hands(session, owner, BENXI_EXAMPLE)
        if day % 2:
            services.session_close(session=session, user=owner)
    many = [_queries(client, url) for url in urls]
    assert few == many
    # club home: django session, user, membership + club, 2 × sessions (4 each), players
    assert few[0] == 3 + 8 + 1
