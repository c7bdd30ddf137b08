"""The director's event actions on the pages, without JavaScript: finishing the event (asked once), a round's late
hands, seating a substitute; in both languages, refusals on the field they name."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from settlement import services
from settlement.models import Event, Role, Session
from tests.factories import make_club, make_member

pytestmark = pytest.mark.django_db

NAMES = [f"选手{i:02}" for i in range(9)]


def _english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


def _url(name, event, **extra):
    return reverse(name, kwargs={"slug": event.club.slug, "event_id": event.pk, **extra})


@pytest.fixture
def setting(client):
    club = make_club()
    owner = make_member(club)
    event = services.event_create(
        club=club, user=owner, name="周五晚赛", variant="baifen.benxi", players=NAMES[:8], late_hands="refused"
    )
    services.round_draw(event=event, user=owner, draw="random", seed=1, length_minutes=30)
    client.force_login(owner)
    return client, event, owner


@pytest.mark.parametrize(("lang", "words"), [("zh-hans", "结束活动"), ("en", "Finish the event")])
def test_the_event_page_links_to_a_finish_page_that_lists_the_open_tables(setting, lang, words):
    client, event, _ = setting
    if lang == "en":
        _english(client)
    page = client.get(_url("event_detail", event)).content.decode()
    assert _url("event_finish", event) in page and words in page
    confirm = client.get(_url("event_finish", event)).content.decode()
    assert 'name="close_open"' in confirm and 'method="post"' in confirm


def test_finishing_without_closing_the_open_tables_is_refused_on_the_checkbox(setting):
    client, event, _ = setting
    _english(client)
    response = client.post(_url("event_finish", event), {})
    assert response.status_code == 400
    assert 'id="id_close_open_error"' in response.content.decode()
    event.refresh_from_db()
    assert event.state == Event.State.RUNNING


def test_finishing_with_the_tables_closed_shows_the_final_results(setting):
    client, event, _ = setting
    _english(client)
    response = client.post(_url("event_finish", event), {"close_open": "on"}, follow=True)
    assert response.redirect_chain[-1][0] == _url("event_results", event)
    assert "Final results" in response.content.decode()
    event.refresh_from_db()
    assert event.state == Event.State.FINISHED
    assert not Session.objects.filter(event_table__round__event=event, status="open").exists()
    page = client.get(_url("event_detail", event)).content.decode()
    assert "Final standings" in page and f'action="{_url("event_draw", event)}"' not in page
    assert _url("event_finish", event) not in page
    # The finish page of a finished event is its results.
    assert client.get(_url("event_finish", event)).url == _url("event_results", event)


def test_a_viewer_cannot_finish(setting):
    client, event, _ = setting
    client.force_login(make_member(event.club, Role.VIEWER))
    assert client.get(_url("event_finish", event)).status_code == 403
    assert client.post(_url("event_finish", event), {"close_open": "on"}).status_code == 403


def test_the_late_hands_button_allows_then_refuses_again(setting):
    client, event, _ = setting
    _english(client)
    page = client.get(_url("event_detail", event)).content.decode()
    assert "Allow late hands" in page and _url("event_round_late", event, n=1) in page
    client.post(_url("event_round_late", event, n=1), {"allowed": "on"})
    assert event.rounds.get(n=1).late_allowed is True
    assert "Refuse late hands again" in client.get(_url("event_detail", event)).content.decode()
    client.post(_url("event_round_late", event, n=1), {})
    assert event.rounds.get(n=1).late_allowed is False
    assert client.post(_url("event_round_late", event, n=4), {"allowed": "on"}).status_code == 404


def test_a_substitute_is_seated_from_the_event_page_and_the_standings_detail_says_for_whom(setting):
    client, event, _ = setting
    _english(client)
    page = client.get(_url("event_detail", event)).content.decode()
    assert _url("event_substitute", event) in page and "A substitute plays a seat" in page
    table = event.rounds.get(n=1).tables.order_by("number").first()
    absent = table.session.seats.get(seat=2).player
    response = client.post(_url("event_substitute", event), {"round_n": "1", "absent": absent.pk, "substitute": "李娜"})
    assert response.status_code == 302
    assert table.session.seats.get(seat=2).player.name == "李娜"
    page = client.get(_url("event_detail", event)).content.decode()
    assert f"李娜 for {absent.name}, round 1" in page


def test_a_substitute_already_seated_is_refused_on_the_substitute_field_in_chinese(setting):
    client, event, _ = setting
    table = event.rounds.get(n=1).tables.order_by("number").first()
    absent, seated = table.session.seats.get(seat=0).player, table.session.seats.get(seat=1).player
    response = client.post(
        _url("event_substitute", event), {"round_n": "1", "absent": absent.pk, "substitute": seated.name}
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert 'id="id_substitute_error"' in page and "第 1 轮已经入座" in page
    assert table.session.seats.get(seat=0).player == absent
