"""An event's big screen by link (`/e/<token>/`): no login, the members' screen word for word, a 410 with the share
page's own words once revoked, its poll one query whatever the tables; the event page's link, QR code and the
director's make / revoke buttons (plain POST forms); and what the big screen shows besides the players: a pairs
event's pairs, a zero-sum variant's settle-up."""

from __future__ import annotations

import html
import re

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from settlement import services
from settlement.models import EventShareLink, Role
from tests.factories import BENXI_EXAMPLE, make_club, make_member, record_hands
from tests.ops.test_pages import inline_parts

pytestmark = pytest.mark.django_db

ALONE_CLEAN = {"declarer": 1, "bid": 45, "partner": None, "captured": 0}  # classic: [−2, +6, −2, −2]


def _event(club, owner, count=16, **fields):
    event = services.event_create(
        club=club,
        user=owner,
        name="周五晚赛",
        variant=fields.pop("variant", "baifen.benxi"),
        players=[f"P{i:02}" for i in range(count)],
        **fields,
    )
    services.round_draw(event=event, user=owner, draw="balanced", seed=11)
    return event


def _screen(link):
    return reverse("event_share", args=[link.token])


def _live(link):
    return reverse("event_share_live", args=[link.token])


def _detail(event):
    return reverse("event_detail", args=[event.club.slug, event.pk])


@pytest.fixture
def anon():
    """The room's TV: the link and no login."""
    return Client()


@pytest.fixture
def shared(owner_client):
    """A 本溪 event of 16 at four tables, round 1 drawn, with a big-screen link: (event, link, owner)."""
    _, club, owner = owner_client
    event = _event(club, owner)
    return event, services.event_share_create(event=event, user=owner), owner


@pytest.mark.parametrize(
    ("lang", "words"), [("zh-hans", ["1 号桌", "排名", "第 1 轮"]), ("en", ["Table 1", "Standings", "Round 1"])]
)
def test_the_link_opens_the_big_screen_without_a_login(anon, shared, lang, words):
    event, link, _ = shared
    anon.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    response = anon.get(_screen(link))
    page = response.content.decode()
    assert response.status_code == 200
    for word in words:
        assert word in page
    assert page.count('<li class="open">') == 4
    assert f'data-src="{_live(link)}"' in page and "js/share" in page
    assert _detail(event) not in page  # no link a TV cannot open


def test_the_shared_screen_shows_what_the_members_screen_shows(anon, owner_client, shared):
    client, club, _ = owner_client
    event, link, _ = shared
    members = client.get(reverse("event_screen_live", args=[club.slug, event.pk]))
    cache.clear()
    theirs = anon.get(_live(link))
    assert theirs.content == members.content and theirs["ETag"] == members["ETag"]


def test_the_shared_pages_have_nothing_inline_and_are_never_cached_by_others(anon, shared):
    _, link, _ = shared
    for url in (_screen(link), _live(link)):
        response = anon.get(url)
        assert inline_parts(response.content.decode()) == [], url
        assert "private" in response["Cache-Control"] and "no-cache" in response["Cache-Control"]
        assert response["Referrer-Policy"] == "no-referrer" and response["X-Robots-Tag"] == "noindex, nofollow"


@pytest.mark.parametrize("token", ["x", "a" * 32, "a" * 65])
def test_a_token_that_was_never_made_is_a_404(anon, shared, token):
    assert anon.get(f"/e/{token}/").status_code == 404
    assert anon.get(f"/e/{token}/live/").status_code == 404


def test_a_session_share_token_opens_no_event_and_an_event_token_no_session(anon, owner_client, shared):
    _, link, owner = shared
    table = link.event.rounds.get().tables.get(number=1).session
    session_link = services.share_create(session=table, user=owner)
    assert anon.get(f"/e/{session_link.token}/").status_code == 404
    assert anon.get(f"/s/{link.token}/").status_code == 404


@pytest.mark.parametrize(
    ("lang", "heading", "ask", "not_said"),
    [
        ("zh-hans", "此链接已撤销", "请向裁判要新的链接", ["找不到页面", "请在牌桌上要"]),
        ("en", "This link was revoked", "ask the director for the new link", ["Page not found", "Ask at the table"]),
    ],
)
def test_a_revoked_link_is_a_410_saying_to_ask_the_director(anon, shared, lang, heading, ask, not_said):
    """The share page's heading, and its own sentence: read on a room's TV, whom to ask is the director, not the
    table."""
    event, link, owner = shared
    services.event_share_revoke(event=event, user=owner)
    anon.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    response = anon.get(_screen(link))
    page = html.unescape(response.content.decode())
    assert response.status_code == 410 and f"<h1>{heading}</h1>" in page and ask in page
    assert not any(words in page for words in not_said)
    assert event.name not in page and "P00" not in page
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert anon.get(_live(link)).status_code == 410


def test_a_new_link_replaces_the_old_one(anon, shared):
    event, link, owner = shared
    fresh = services.event_share_create(event=event, user=owner)
    assert anon.get(_screen(link)).status_code == 410
    assert anon.get(_screen(fresh)).status_code == 200


# --- the poll ---


@pytest.mark.parametrize("count", [8, 40])
def test_an_unchanged_screen_is_a_304_for_one_query_whatever_the_tables(
    anon, owner_client, count, django_assert_num_queries
):
    _, club, owner = owner_client
    event = _event(club, owner, count=count)
    link = services.event_share_create(event=event, user=owner)
    first = anon.get(_live(link))
    assert first.status_code == 200 and first["ETag"]
    with django_assert_num_queries(1):
        again = anon.get(_live(link), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == first["ETag"]


@pytest.mark.parametrize("count", [8, 40])
def test_the_fragment_reads_a_fixed_number_of_queries_whatever_the_tables(
    anon, owner_client, count, django_assert_num_queries
):
    _, club, owner = owner_client
    event = _event(club, owner, count=count)
    link = services.event_share_create(event=event, user=owner)
    cache.clear()
    # the versions (1); the link with its event (1); the standings (7); rounds, tables, seats
    with django_assert_num_queries(12):
        anon.get(_live(link), HTTP_IF_NONE_MATCH='"other"')


def test_the_next_reader_of_the_same_news_costs_one_query(anon, shared, django_assert_num_queries):
    _, link, _ = shared
    anon.get(_live(link))
    with django_assert_num_queries(1):
        assert Client().get(_live(link)).status_code == 200


def test_a_substitution_changes_the_etag_and_shows_the_substitute(anon, shared, screen_refresh_passes):
    event, link, owner = shared
    etag = anon.get(_live(link))["ETag"]
    absent = event.rounds.get().tables.get(number=1).session.seats.get(seat=0).player
    services.substitute_seat(event=event, user=owner, round_n=1, absent=absent, substitute="李娜")
    screen_refresh_passes(event)
    fresh = anon.get(_live(link), HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200 and fresh["ETag"] != etag
    first_table = fresh.content.decode().split('<li class="open">')[1]
    assert "李娜" in first_table and absent.name not in first_table


def test_a_hand_at_a_table_changes_the_etag(anon, shared, screen_refresh_passes):
    event, link, owner = shared
    etag = anon.get(_live(link))["ETag"]
    record_hands(event.rounds.get().tables.get(number=2).session, owner, BENXI_EXAMPLE[:1])
    screen_refresh_passes(event)
    fresh = anon.get(_live(link), HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200 and fresh.content.decode().count("<small>1 局</small>") == 1


# --- the event page: the link, its QR code, make and revoke ---


def test_the_event_page_shows_the_link_and_its_qr_code_and_the_directors_buttons(owner_client, shared):
    client, club, _ = owner_client
    event, link, _ = shared
    page = client.get(_detail(event)).content.decode()
    assert f"http://testserver{_screen(link)}" in page
    assert re.search(r'<div class="qr-box"><svg viewBox="0 0 \d+ \d+" class="qr">', page)
    for name in ("event_share_create", "event_share_revoke"):
        assert f'<form method="post" action="{reverse(name, args=[club.slug, event.pk])}">' in page


def test_without_a_link_the_director_is_offered_to_make_one(owner_client):
    client, club, owner = owner_client
    event = _event(club, owner, count=8)
    page = client.get(_detail(event)).content.decode()
    assert reverse("event_share_create", args=[club.slug, event.pk]) in page
    assert reverse("event_share_revoke", args=[club.slug, event.pk]) not in page and 'class="qr"' not in page
    assert "生成分享链接" in page


def test_a_viewer_sees_the_link_but_no_buttons_and_may_not_make_or_revoke(client, shared):
    event, link, _ = shared
    viewer = make_member(event.club, Role.VIEWER)
    client.force_login(viewer)
    page = client.get(_detail(event)).content.decode()
    assert f"http://testserver{_screen(link)}" in page
    assert reverse("event_share_create", args=[event.club.slug, event.pk]) not in page
    for name in ("event_share_create", "event_share_revoke"):
        assert client.post(reverse(name, args=[event.club.slug, event.pk])).status_code == 403
    assert list(EventShareLink.objects.filter(event=event, revoked_at__isnull=True)) == [link]


@pytest.mark.parametrize("role", [Role.OWNER, Role.SCOREKEEPER])
def test_the_director_makes_and_revokes_the_link_with_plain_posts(client, role):
    club = make_club("东城俱乐部", slug="east")
    owner = make_member(club)
    event = _event(club, owner, count=8)
    client.force_login(owner if role == Role.OWNER else make_member(club, role))
    made = client.post(reverse("event_share_create", args=[club.slug, event.pk]))
    assert made.status_code == 302 and made["Location"] == _detail(event) + "?share=1#share"
    link = EventShareLink.objects.get(event=event, revoked_at__isnull=True)
    page = client.get(made["Location"]).content.decode()
    assert 'id="share" open' in page and link.token in page
    revoked = client.post(reverse("event_share_revoke", args=[club.slug, event.pk]))
    assert revoked.status_code == 302
    assert not EventShareLink.objects.filter(event=event, revoked_at__isnull=True).exists()
    assert Client().get(_screen(link)).status_code == 410


def test_making_a_link_needs_a_login_and_a_post(anon, owner_client):
    client, club, owner = owner_client
    event = _event(club, owner, count=8)
    url = reverse("event_share_create", args=[club.slug, event.pk])
    assert anon.post(url).status_code == 302 and not EventShareLink.objects.exists()  # to the login page
    assert client.get(url).status_code == 405


def test_another_clubs_event_cannot_be_shared(client):
    ours, theirs = make_club(slug="ours"), make_club(slug="theirs")
    event = _event(theirs, make_member(theirs), count=8)
    client.force_login(make_member(ours))
    assert client.post(reverse("event_share_create", args=[theirs.slug, event.pk])).status_code == 404
    assert not EventShareLink.objects.exists()


# --- what the big screen shows besides the players ---


@pytest.mark.parametrize(("lang", "heading"), [("zh-hans", "各对成绩"), ("en", "Pairs")])
def test_a_pairs_events_screen_ranks_the_pairs(owner_client, lang, heading):
    client, club, owner = owner_client
    event = services.event_create(
        club=club,
        user=owner,
        name="对抗赛",
        variant="baifen.benxi",
        players=["甲", "乙", "丙", "丁"],
        pairs=[["甲", "乙"], ["丙", "丁"]],
    )
    drawn = services.round_draw(event=event, user=owner, draw="random", seed=5)
    record_hands(drawn.tables.get().session, owner, BENXI_EXAMPLE[:1])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    body = client.get(reverse("event_screen_live", args=[club.slug, event.pk])).content.decode()
    assert f'<h2 id="pairs-h">{heading}' in body
    pairs = body.split('class="screen-standings screen-pairs"')[1].split("</ol>")[0]
    lines = re.findall(r'<span class="name">(\S+) · (\S+)</span> <span class="total[^"]*">(-?\d+)</span>', pairs)
    assert {frozenset(line[:2]) for line in lines} == {frozenset("甲乙"), frozenset("丙丁")}
    # Bid 80 + captured 15 = 95 ≤ 100: made, the declarer's side +80 each, the capturing side +15 each; the pairs
    # sit as partners, so a pair's total is its side's twice, and each partner's is on the table's card.
    assert sorted(int(total) for *_, total in lines) == [30, 160]
    seats = dict(re.findall(r'<span class="name">(\S)</span> <span class="total[^"]*">(-?\d+)</span>', body))
    for a, b, total in lines:
        assert int(total) == int(seats[a]) + int(seats[b])


def test_an_event_drawn_player_by_player_shows_no_pairs(owner_client, shared):
    client, club, _ = owner_client
    event, _, _ = shared
    body = client.get(reverse("event_screen_live", args=[club.slug, event.pk])).content.decode()
    assert "pairs-h" not in body


@pytest.mark.parametrize(("lang", "heading"), [("zh-hans", "全场结算"), ("en", "Settle-up over the whole event")])
def test_a_zero_sum_events_screen_shows_who_pays_whom(owner_client, lang, heading):
    client, club, owner = owner_client
    event = services.event_create(
        club=club,
        user=owner,
        name="周五",
        variant="baifen.classic",
        options={"unit_value": 2},
        players=list("甲乙丙丁"),
    )
    session = services.round_draw(event=event, user=owner, draw="random", seed=2).tables.get().session
    record_hands(session, owner, [ALONE_CLEAN])
    winner = session.seats.get(seat=1).player.name
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    body = client.get(reverse("event_screen_live", args=[club.slug, event.pk])).content.decode()
    assert f'<h2 id="settle-h">{heading}</h2>' in body
    transfers = body.split('<ul class="screen-transfers">')[1].split("</ul>")[0]
    # The three others each pay the winner 2 注 at 2 a 注: 4 in money.
    assert transfers.count(f'<span class="name">{winner}</span> <span class="total">4</span>') == 3
    assert transfers.count("<li>") == 3


def test_a_variant_that_is_not_zero_sum_shows_no_settle_up(owner_client, shared):
    client, club, _ = owner_client
    event, _, _ = shared
    body = client.get(reverse("event_screen_live", args=[club.slug, event.pk])).content.decode()
    assert "settle-h" not in body and "screen-transfers" not in body
