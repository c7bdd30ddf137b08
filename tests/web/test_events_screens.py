"""An event's screens: the big screen and its fragment (ETag, 304, fresh after a hand), the table cards with a QR
code of each table's entry page, the printable results; both languages; a fixed number of queries."""

from __future__ import annotations

import pytest
import segno  # noqa: F401 - the QR codes are drawn by it
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from settlement import services
from settlement.models import EventPlayer
from tests.factories import BENXI_EXAMPLE, make_club, make_member, record_hands

pytestmark = pytest.mark.django_db


def _event(club, owner, count=16):
    event = services.event_create(
        club=club, user=owner, name="周五晚赛", variant="baifen.benxi", players=[f"P{i:02}" for i in range(count)]
    )
    services.round_draw(event=event, user=owner, draw="balanced", seed=11)
    return event


def _url(name, event, **extra):
    return reverse(name, kwargs={"slug": event.club.slug, "event_id": event.pk, **extra})


@pytest.mark.parametrize(
    ("lang", "words"), [("zh-hans", ["1 号桌", "排名", "第 1 轮"]), ("en", ["Table 1", "Standings", "Round 1"])]
)
def test_the_big_screen_shows_every_table_and_the_standings(owner_client, lang, words):
    client, club, owner = owner_client
    event = _event(club, owner)
    if lang == "en":
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(_url("event_screen", event)).content.decode()
    for word in words:
        assert word in page
    assert page.count('<li class="open">') == 4  # four tables of four
    assert 'id="live"' in page and _url("event_screen_live", event) in page and "js/share" in page


def test_the_event_page_with_view_tv_opens_the_big_screen(owner_client):
    client, club, owner = owner_client
    event = _event(club, owner)
    response = client.get(_url("event_detail", event) + "?view=tv")
    assert response.status_code == 302 and response["Location"] == _url("event_screen", event)


def test_the_big_screen_fragment_is_a_304_until_a_hand_is_recorded(
    owner_client, screen_refresh_passes, django_assert_num_queries
):
    client, club, owner = owner_client
    event = _event(club, owner)
    first = client.get(_url("event_screen_live", event))
    assert first.status_code == 200 and first["ETag"]
    # django session, user; the ETag (one query, which checks the membership too): nothing else for a screen up to date
    with django_assert_num_queries(3):
        again = client.get(_url("event_screen_live", event), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    session = event.rounds.get().tables.get(number=1).session
    record_hands(session, owner, BENXI_EXAMPLE[:1])
    screen_refresh_passes(event)
    fresh = client.get(_url("event_screen_live", event), HTTP_IF_NONE_MATCH=first["ETag"])
    assert fresh.status_code == 200 and fresh["ETag"] != first["ETag"]
    body = fresh.content.decode()
    assert body.count("<small>1 局</small>") == 1 and body.count("<small>0 局</small>") == 3


def test_news_within_the_refresh_period_shows_at_its_end_and_the_newest_render_meanwhile(
    owner_client, screen_refresh_passes, django_assert_num_queries
):
    """A round's writes come several a second: the screen is rendered at most once a period, not once a write."""
    client, club, owner = owner_client
    event = _event(club, owner)
    first = client.get(_url("event_screen_live", event))
    for number in (1, 2, 3):
        record_hands(event.rounds.get().tables.get(number=number).session, owner, BENXI_EXAMPLE[:1])
    # Nothing is read beyond the idle poll's three queries (no standings): the newest render's ETag, a 304 for it.
    with django_assert_num_queries(3):
        waiting = client.get(_url("event_screen_live", event), HTTP_IF_NONE_MATCH=first["ETag"])
    assert waiting.status_code == 304 and waiting["ETag"] == first["ETag"]
    newcomer = client.get(_url("event_screen_live", event))
    assert newcomer.status_code == 200 and newcomer["ETag"] == first["ETag"] and newcomer.content == first.content
    screen_refresh_passes(event)
    fresh = client.get(_url("event_screen_live", event), HTTP_IF_NONE_MATCH=first["ETag"])
    assert fresh.status_code == 200 and fresh["ETag"] != first["ETag"]
    assert fresh.content.decode().count("<small>1 局</small>") == 3


def test_the_refresh_period_holds_for_both_doors_and_each_language_on_its_own(owner_client, screen_refresh_passes):
    client, club, owner = owner_client
    event = _event(club, owner)
    link = services.event_share_create(event=event, user=owner)
    members = client.get(_url("event_screen_live", event))
    record_hands(event.rounds.get().tables.get(number=1).session, owner, BENXI_EXAMPLE[:1])
    tv = Client().get(reverse("event_share_live", args=[link.token]))
    assert tv["ETag"] == members["ETag"] and tv.content == members.content  # the members' render, until the period ends
    english = Client(headers={"accept-language": "en"}).get(reverse("event_share_live", args=[link.token]))
    assert english.status_code == 200 and "<small>1 hand</small>" in english.content.decode()


def test_the_big_screen_fragment_changes_with_an_adjustment(owner_client, screen_refresh_passes):
    client, club, owner = owner_client
    event = _event(club, owner)
    etag = client.get(_url("event_screen_live", event))["ETag"]
    player = EventPlayer.objects.filter(event=event).first().player
    services.adjustment_add(event=event, user=owner, player=player, kind="penalty", amount=3, reason="迟到")
    screen_refresh_passes(event)
    assert client.get(_url("event_screen_live", event), HTTP_IF_NONE_MATCH=etag).status_code == 200


@pytest.mark.parametrize("count", [8, 40])
def test_the_big_screen_reads_a_fixed_number_of_queries_whatever_the_tables(
    owner_client, count, django_assert_num_queries
):
    client, club, owner = owner_client
    event = _event(club, owner, count=count)
    cache.clear()  # the fragment is kept under its ETag: the first reader after a write renders it
    # django session, user; the ETag (1); event, membership; the standings (7); rounds, tables, seats
    with django_assert_num_queries(15):
        client.get(_url("event_screen_live", event), HTTP_IF_NONE_MATCH='"other"')


@pytest.mark.parametrize(("lang", "scan"), [("zh-hans", "记分员：扫码打开本桌的记分页"), ("en", "Scorekeeper: scan")])
def test_the_table_cards_carry_each_tables_entry_link_as_a_qr_code_and_its_players_in_seat_order(
    owner_client, lang, scan
):
    client, club, owner = owner_client
    event = _event(club, owner, count=8)
    if lang == "en":
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(_url("event_cards", event, n=1)).content.decode()
    assert page.count('class="table-card"') == 2 and page.count("<svg") == 2 and scan in page
    for table in event.rounds.get().tables.all():
        assert f"http://testserver{reverse('table', args=[club.slug, table.session.pk])}" in page
        names = list(table.session.seats.order_by("seat").values_list("player__name", flat=True))
        card = page.split(f"http://testserver{reverse('table', args=[club.slug, table.session.pk])}")[0]
        card = card.rsplit('class="table-card"', 1)[1]
        positions = [card.index(name) for name in names]
        assert positions == sorted(positions)
    assert "@media print" in (settings.BASE_DIR / "static" / "css" / "event_print.css").read_text()


def test_a_round_that_does_not_exist_has_no_cards(owner_client):
    client, club, owner = owner_client
    event = _event(club, owner, count=8)
    assert client.get(_url("event_cards", event, n=2)).status_code == 404


@pytest.mark.parametrize(("lang", "title"), [("zh-hans", "目前成绩"), ("en", "Results so far")])
def test_the_printable_results_list_the_standings_rule_and_adjustments(owner_client, lang, title):
    client, club, owner = owner_client
    event = _event(club, owner, count=8)
    player = EventPlayer.objects.filter(event=event).first().player
    services.adjustment_add(event=event, user=owner, player=player, kind="award", amount=4, reason="最佳风度")
    if lang == "en":
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(_url("event_results", event)).content.decode()
    assert title in page and "最佳风度" in page and "P07" in page
    assert ("Rule:" if lang == "en" else "规则：") in page


def test_a_session_of_an_event_links_back_to_its_event(owner_client):
    client, club, owner = owner_client
    event = _event(club, owner, count=8)
    table = event.rounds.get().tables.get(number=2)
    page = client.get(reverse("session_detail", args=[club.slug, table.session.pk])).content.decode()
    assert _url("event_detail", event) in page and "第 1 轮 2 号桌" in page


def test_another_clubs_table_cards_are_not_found(owner_client):
    client, _club, _ = owner_client
    other = make_club(slug="west")
    event = _event(other, make_member(other), count=8)
    assert client.get(_url("event_cards", event, n=1)).status_code == 404
