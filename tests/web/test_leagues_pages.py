"""The league pages: the club's leagues, a new league, the league page (its rule, events, table and each player's
history) and the director's "add an event" and "take it out"; in both languages, refusals on the field they name,
without JavaScript."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.urls import reverse

from settlement import services
from settlement.models import Event, League, Role
from settlement.selectors.leagues import league_standings
from tests.factories import make_club, make_member

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    return make_club()


@pytest.fixture
def owner(club):
    return make_member(club)


def _evening(club, owner, day, awards):
    """An event of the players in `awards`, a round drawn, each player's total their award (hand-worked)."""
    event = services.event_create(
        club=club,
        user=owner,
        name=f"{day} 号晚",
        variant="baifen.benxi",
        date=datetime.date(2026, 12, day),
        players=list(awards),
    )
    services.round_draw(event=event, user=owner, draw="random", seed=day)
    players = {ep.player.name: ep.player for ep in event.players.select_related("player")}
    for name, amount in awards.items():
        services.adjustment_add(event=event, user=owner, player=players[name], kind="award", amount=amount, reason="x")
    return event


def _login(client, user, lang):
    client.force_login(user)
    if lang == "en":
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("zh-hans", ["联赛积分榜", "3 场取最好的 2 场", "每位玩家的记录", "未计入"]),
        ("en", ["League table", "best 2 of 3 events", "Each player's history", "not counted"]),
    ],
)
def test_the_league_page_states_its_rule_and_shows_the_table_and_each_history(client, club, owner, lang, words):
    # A: 5, 1, 9 → best two 14; B: 2, 8, 3 → 11 (the 2 of the first evening not counted).
    events = [
        _evening(club, owner, day, {"A": a, "B": b, "C": 1, "D": 1})
        for day, a, b in ((4, 5, 2), (11, 1, 8), (18, 9, 3))
    ]
    league = services.league_create(club=club, user=owner, name="冬季联赛", ranking="best", best_n=2, events=events)
    page = _login(client, owner, lang).get(reverse("league_detail", args=[club.slug, league.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    for word in words:
        assert word in text
    rows = text.split("<tbody>")[1].split("</tbody>")[0]
    assert rows.index(">A<") < rows.index(">B<") and ">14<" in rows and ">11<" in rows
    assert text.count('class="not-counted"') == 4  # one event of each of A, B, C, D
    assert 'href="#player-' in text and reverse("event_detail", args=[club.slug, events[0].pk]) in text


def test_a_director_makes_a_league_with_events_from_the_form(client, club, owner):
    event = _evening(club, owner, 4, {"A": 1, "B": 1, "C": 1, "D": 1})
    _login(client, owner, "en")
    form = client.get(reverse("league_new", args=[club.slug]))
    assert form.status_code == 200 and "Create the league" in form.content.decode()
    body = {"name": "冬季联赛", "unit": "分", "ranking": "sum", "events": [str(event.pk)], "client_key": "k1"}
    made = client.post(reverse("league_new", args=[club.slug]), body)
    league = League.objects.get()
    assert made.status_code == 302 and made["Location"] == reverse("league_detail", args=[club.slug, league.pk])
    assert Event.objects.get(pk=event.pk).league_id == league.pk
    listed = client.get(reverse("league_list", args=[club.slug])).content.decode()
    assert "冬季联赛" in listed
    assert (
        reverse("league_list", args=[club.slug]) in client.get(reverse("event_list", args=[club.slug])).content.decode()
    )


def test_a_best_n_league_without_n_is_refused_on_its_field(client, club, owner):
    _login(client, owner, "en")
    body = {"name": "冬", "unit": "分", "ranking": "best", "best_n": ""}
    refused = client.post(reverse("league_new", args=[club.slug]), body)
    assert refused.status_code == 400
    assert 'id="id_best_n_error"' in refused.content.decode()
    assert not League.objects.exists()


def test_an_event_of_another_unit_is_refused_on_the_event_field(client, club, owner):
    league = services.league_create(club=club, user=owner, name="注", unit="注")
    event = services.event_create(club=club, user=owner, name="晚", variant="baifen.benxi")
    _login(client, owner, "en")
    refused = client.post(reverse("league_event_add", args=[club.slug, league.pk]), {"event": str(event.pk)})
    assert refused.status_code == 400
    text = refused.content.decode()
    assert 'id="id_event_error"' in text and "the league counts in 注" in text
    assert Event.objects.get(pk=event.pk).league_id is None
    ok = services.league_create(club=club, user=owner, name="分", unit="分")
    added = client.post(reverse("league_event_add", args=[club.slug, ok.pk]), {"event": str(event.pk)})
    assert added.status_code == 302 and Event.objects.get(pk=event.pk).league_id == ok.pk
    # The event page links to its league.
    page = client.get(reverse("event_detail", args=[club.slug, event.pk])).content.decode()
    assert reverse("league_detail", args=[club.slug, ok.pk]) in page


def test_a_viewer_reads_the_league_but_sees_no_form(client, club, owner):
    league = services.league_create(club=club, user=owner, name="冬", unit="分")
    viewer = make_member(club, Role.VIEWER)
    page = _login(client, viewer, "en").get(reverse("league_detail", args=[club.slug, league.pk]))
    assert page.status_code == 200 and "Add an event to this league" not in page.content.decode()
    assert client.get(reverse("league_new", args=[club.slug])).status_code == 403


def test_an_event_page_s_add_to_a_league_offers_that_event_on_each_league_s_page(client, club, owner):
    league = services.league_create(club=club, user=owner, name="冬", unit="分")
    event = services.event_create(club=club, user=owner, name="晚", variant="baifen.benxi")
    _login(client, owner, "en")
    page = client.get(reverse("event_detail", args=[club.slug, event.pk])).content.decode()
    listed = reverse("league_list", args=[club.slug]) + f"?event={event.pk}"
    assert listed in page
    leagues = client.get(listed).content.decode()
    detail = reverse("league_detail", args=[club.slug, league.pk]) + f"?event={event.pk}"
    assert detail in leagues
    offered = client.get(detail).content.decode()
    assert f'<option value="{event.pk}" selected>' in offered


# --- an event taken out of a league: a button per event, asked once on a page of its own ---


def _two_evenings(club, owner):
    first = _evening(club, owner, 4, {"A": 5, "B": 2, "C": 1, "D": 1})
    second = _evening(club, owner, 11, {"A": 1, "B": 8, "C": 1, "D": 1})
    league = services.league_create(club=club, user=owner, name="冬季联赛", events=[first, second])
    return league, first, second


@pytest.mark.parametrize(
    ("lang", "button", "question"),
    [
        ("zh-hans", "移出联赛…", "把活动移出联赛？"),
        ("en", "Take out of the league…", "Take the event out of the league?"),
    ],
)
def test_taking_an_event_out_asks_once_then_the_table_no_longer_counts_it(client, club, owner, lang, button, question):
    league, _, second = _two_evenings(club, owner)
    _login(client, owner, lang)
    page = client.get(reverse("league_detail", args=[club.slug, league.pk])).content.decode()
    assert page.count(button) == 2
    url = reverse("league_event_remove", args=[club.slug, league.pk])
    asked = client.post(url, {"event": str(second.pk)})
    text = asked.content.decode()
    assert asked.status_code == 200 and question in text and "11 号晚" in text and 'name="confirm"' in text
    assert Event.objects.get(pk=second.pk).league_id == league.pk  # asked, not yet taken out
    done = client.post(url, {"event": str(second.pk), "confirm": "on"})
    assert done.status_code == 302 and done["Location"].endswith("#events")
    assert Event.objects.get(pk=second.pk).league_id is None
    # The table: A 5, B 2 (the first evening's awards alone), where both evenings made A 6 and B 10.
    table = client.get(reverse("league_detail", args=[club.slug, league.pk])).content.decode()
    assert page.count(button) == 2 and table.count(button) == 1
    assert [(row.player.name, row.total) for row in league_standings(league=league).rows][:2] == [("A", 5), ("B", 2)]


def test_taking_out_an_event_not_in_the_league_is_refused_on_the_page(client, club, owner):
    league, _, _ = _two_evenings(club, owner)
    free = services.event_create(club=club, user=owner, name="空", variant="baifen.benxi")
    _login(client, owner, "en")
    url = reverse("league_event_remove", args=[club.slug, league.pk])
    refused = client.post(url, {"event": str(free.pk), "confirm": "on"})
    assert refused.status_code == 400
    assert "this event does not count in this league" in refused.content.decode()
    elsewhere = client.post(url, {"event": "999999", "confirm": "on"})
    assert elsewhere.status_code == 400
    assert Event.objects.filter(league=league).count() == 2


def test_a_viewer_sees_no_take_out_button_and_may_not_take_an_event_out(client, club, owner):
    league, first, _ = _two_evenings(club, owner)
    viewer = make_member(club, Role.VIEWER)
    page = _login(client, viewer, "en").get(reverse("league_detail", args=[club.slug, league.pk])).content.decode()
    assert "Take out of the league" not in page
    url = reverse("league_event_remove", args=[club.slug, league.pk])
    assert client.post(url, {"event": str(first.pk), "confirm": "on"}).status_code == 403
    assert client.get(url).status_code == 405
    assert Event.objects.get(pk=first.pk).league_id == league.pk
