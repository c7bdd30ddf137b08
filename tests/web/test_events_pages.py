"""The director's event pages: the list, a new event, the event page's check-in, leaving, draws and adjustments;
in both languages, scoped to the user's club, refusals on the field they name, all without JavaScript."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from settlement import services
from settlement.models import Adjustment, Event, EventPlayer, Membership, Role, Round, Session
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_player, record_hands

pytestmark = pytest.mark.django_db

NAMES = [f"选手{i:02}" for i in range(9)]


def _english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


def _event(club, owner, count=8, **fields):
    return services.event_create(
        club=club, user=owner, name="周五晚赛", variant="baifen.benxi", players=NAMES[:count], **fields
    )


def _url(name, event, **extra):
    return reverse(name, kwargs={"slug": event.club.slug, "event_id": event.pk, **extra})


def _errors(page: str) -> str:
    """The text of the page's field errors, each with the id naming its field."""
    return " ".join(part.split("</p>")[0] for part in page.split('class="error" id="')[1:])


@pytest.mark.parametrize(
    ("lang", "words"),
    [("zh-hans", ["活动", "新建活动"]), ("en", ["Events", "New event"])],
)
def test_the_events_list_shows_the_clubs_events_in_both_languages(owner_client, lang, words):
    client, club, owner = owner_client
    _event(club, owner)
    if lang == "en":
        _english(client)
    page = client.get(reverse("event_list", args=[club.slug])).content.decode()
    assert "周五晚赛" in page
    for word in words:
        assert word in page


def test_the_club_navigation_links_to_the_events(owner_client):
    client, club, _ = owner_client
    page = client.get(reverse("club_home", args=[club.slug])).content.decode()
    assert reverse("event_list", args=[club.slug]) in page


def test_a_new_event_is_made_from_the_form_with_members_and_guests(owner_client):
    client, club, _ = owner_client
    members = [make_player(club, name) for name in ("甲", "乙")]
    url = reverse("event_new", args=[club.slug]) + "?variant=baifen.benxi"
    assert client.get(url).status_code == 200
    response = client.post(
        url,
        {
            "name": "周六赛",
            "date": "2026-12-05",
            "venue": "会所",
            "preset": "本溪 205",
            "table_size": "4",
            "bye": "zero",
            "members": [m.pk for m in members],
            "guests": "丙\n丁, 戊",
            "client_key": "k1",
        },
    )
    event = Event.objects.get(name="周六赛")
    assert response.status_code == 302 and response["Location"] == _url("event_detail", event)
    assert str(event.date) == "2026-12-05" and event.venue == "会所" and event.bye == "zero"
    names = sorted(EventPlayer.objects.filter(event=event).values_list("player__name", flat=True))
    assert names == sorted(["甲", "乙", "丙", "丁", "戊"])


@pytest.mark.parametrize(
    ("field", "change", "message"),
    [
        ("name", {"name": ""}, "This field is required."),
        ("date", {"date": "tomorrow"}, "Enter a valid date."),
        ("bye_figure", {"bye": "figure"}, "Give the figure a round sat out counts."),
        ("table_size", {"table_size": "5"}, "Select a valid choice."),
    ],
)
def test_a_new_event_with_bad_input_is_refused_naming_the_field(owner_client, field, change, message):
    client, club, _ = owner_client
    _english(client)
    url = reverse("event_new", args=[club.slug]) + "?variant=baifen.benxi"
    body = {"name": "赛", "date": "2026-12-05", "table_size": "4", "bye": "average", "preset": "本溪 205", **change}
    response = client.post(url, body)
    assert response.status_code == 400
    errors = _errors(response.content.decode())
    assert f"id_{field}_error" in errors and message in errors
    assert not Event.objects.exists()


def test_the_new_event_form_is_for_directors_only(client):
    club = make_club(slug="east")
    client.force_login(make_member(club, Role.VIEWER))
    assert client.get(reverse("event_new", args=[club.slug])).status_code == 403


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_the_event_page_shows_players_rounds_tables_and_standings_with_their_rule(owner_client, lang):
    client, club, owner = owner_client
    event = _event(club, owner, count=9)
    drawn = services.round_draw(event=event, user=owner, draw="balanced", seed=7)
    table = drawn.tables.order_by("number").first()
    record_hands(table.session, owner, BENXI_EXAMPLE[:2])
    if lang == "en":
        _english(client)
    page = client.get(_url("event_detail", event)).content.decode()
    assert all(name in page for name in NAMES)
    assert reverse("table", args=[club.slug, table.session.pk]) in page
    assert reverse("session_detail", args=[club.slug, table.session.pk]) in page
    rule = "the sum of each player" if lang == "en" else "每位玩家各桌总分"
    assert rule in page
    assert ("Sitting out:" if lang == "en" else "轮空：") in page


def test_another_clubs_event_is_not_found(owner_client):
    client, club, _ = owner_client
    other = make_club(slug="west")
    event = _event(other, make_member(other))
    for name in ("event_detail", "event_screen", "event_screen_live", "event_results"):
        assert client.get(_url(name, event)).status_code == 404
        assert client.get(reverse(name, kwargs={"slug": club.slug, "event_id": event.pk})).status_code == 404
    assert client.post(_url("event_draw", event), {"draw": "random"}).status_code == 404
    assert not Round.objects.exists()


def test_checking_in_a_late_arrival_and_a_player_leaving(owner_client):
    client, club, owner = owner_client
    event = _event(club, owner)
    services.round_draw(event=event, user=owner, draw="random", seed=1)
    response = client.post(_url("event_check_in", event), {"guests": "迟到者"})
    assert response.status_code == 302
    late = EventPlayer.objects.get(event=event, player__name="迟到者")
    assert late.joined == 2
    leaving = EventPlayer.objects.get(event=event, player__name=NAMES[0])
    assert client.post(_url("event_leave", event), {"player": leaving.player_id}).status_code == 302
    leaving.refresh_from_db()
    assert leaving.left == 1
    _english(client)
    page = client.get(_url("event_detail", event)).content.decode()
    assert "from round 2" in page and "left after round 1" in page


def test_a_check_in_with_nobody_is_refused_on_the_players_field(owner_client):
    client, club, owner = owner_client
    event = _event(club, owner)
    _english(client)
    response = client.post(_url("event_check_in", event), {"guests": " "})
    assert response.status_code == 400
    assert "id_members_error" in _errors(response.content.decode())


def test_drawing_a_round_opens_a_session_per_table(owner_client):
    client, club, owner = owner_client
    event = _event(club, owner)
    response = client.post(_url("event_draw", event), {"draw": "balanced", "client_key": "d1"})
    assert response.status_code == 302
    made = Round.objects.get(event=event)
    assert made.n == 1 and made.tables.count() == 2
    assert Session.objects.filter(event_table__round=made).count() == 2


def test_a_draw_while_tables_are_open_is_refused_until_the_director_closes_them(owner_client):
    client, club, owner = owner_client
    event = _event(club, owner)
    services.round_draw(event=event, user=owner, draw="random", seed=1)
    _english(client)
    refused = client.post(_url("event_draw", event), {"draw": "random"})
    assert refused.status_code == 400
    assert "id_close_open_error" in _errors(refused.content.decode())
    assert Round.objects.filter(event=event).count() == 1
    assert client.post(_url("event_draw", event), {"draw": "random", "close_open": "on"}).status_code == 302
    assert Round.objects.filter(event=event).count() == 2


def test_a_manual_draw_seats_the_typed_tables_in_seat_order(owner_client):
    client, club, owner = owner_client
    event = _event(club, owner)
    seating = f"{','.join(NAMES[4:8])}\n{','.join(NAMES[:4])}"
    assert client.post(_url("event_draw", event), {"draw": "manual", "seating": seating}).status_code == 302
    first = Round.objects.get(event=event).tables.get(number=1).session
    assert list(first.seats.order_by("seat").values_list("player__name", flat=True)) == NAMES[4:8]


def test_a_manual_draw_is_also_a_csv_upload(owner_client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client, club, owner = owner_client
    event = _event(club, owner)
    upload = SimpleUploadedFile("seating.csv", f"{','.join(NAMES[:4])}\r\n{','.join(NAMES[4:8])}\r\n".encode())
    assert client.post(_url("event_draw", event), {"draw": "manual", "seating_csv": upload}).status_code == 302
    second = Round.objects.get(event=event).tables.get(number=2).session
    assert list(second.seats.order_by("seat").values_list("player__name", flat=True)) == NAMES[4:8]


@pytest.mark.parametrize(
    ("seating", "message"),
    [
        ("", "A manual draw needs the seating."),
        (f"{','.join(NAMES[:4])}\n{','.join(NAMES[4:7])},陌生人", "“陌生人” is not checked in to the event."),
        (f"{','.join(NAMES[:4])}", None),  # leaves four out: the engine refuses it
    ],
)
def test_a_bad_manual_seating_is_refused_on_the_seating_field(owner_client, seating, message):
    client, club, owner = owner_client
    event = _event(club, owner)
    _english(client)
    response = client.post(_url("event_draw", event), {"draw": "manual", "seating": seating})
    assert response.status_code == 400
    errors = _errors(response.content.decode())
    assert "id_seating_error" in errors
    if message:
        assert message in errors
    assert not Round.objects.exists()


def test_a_penalty_is_counted_and_listed_with_its_reason_in_the_standings_detail(owner_client):
    client, club, owner = owner_client
    event = _event(club, owner)
    services.round_draw(event=event, user=owner, draw="random", seed=3)
    player = EventPlayer.objects.get(event=event, player__name=NAMES[2]).player
    body = {"player": player.pk, "kind": "penalty", "amount": "5", "reason": "迟到", "client_key": "a1"}
    assert client.post(_url("event_adjust", event), body).status_code == 302
    assert Adjustment.objects.get(event=event).signed == -5
    page = client.get(_url("event_detail", event)).content.decode()
    detail = page.split('class="standing-detail"')[1].split("</details>")[0]
    assert "迟到" in detail and "-5" in detail


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"amount": "0"}, "amount"),
        ({"reason": ""}, "reason"),
        ({"kind": "bonus"}, "kind"),
        ({"round_n": "9"}, "round_n"),
    ],
)
def test_a_bad_adjustment_is_refused_naming_the_field(owner_client, change, field):
    client, club, owner = owner_client
    event = _event(club, owner)
    services.round_draw(event=event, user=owner, draw="random", seed=3)
    player = EventPlayer.objects.filter(event=event).first().player
    body = {"player": player.pk, "kind": "award", "amount": "5", "reason": "好", **change}
    response = client.post(_url("event_adjust", event), body)
    assert response.status_code == 400
    assert f"id_{field}_error" in _errors(response.content.decode())
    assert not Adjustment.objects.exists()


def test_a_viewer_sees_the_event_but_cannot_direct_it(client):
    club = make_club(slug="east")
    owner = make_member(club)
    event = _event(club, owner)
    client.force_login(make_member(club, Role.VIEWER))
    page = client.get(_url("event_detail", event)).content.decode()
    assert "周五晚赛" in page and _url("event_draw", event) not in page
    assert client.post(_url("event_draw", event), {"draw": "random"}).status_code == 403
    assert Membership.objects.filter(club=club).count() == 2


def test_the_event_pages_work_without_javascript(owner_client):
    client, club, owner = owner_client
    event = _event(club, owner)
    page = client.get(_url("event_detail", event)).content.decode()
    assert "<script" not in page.split("</header>", 1)[1]  # only the header's logout script
    assert 'method="post"' in page
