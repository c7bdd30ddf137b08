"""A pairs event from the new-event form, or its pairs chosen on the event page before the first draw; its draw
seating pairs as partners, the pairs' standings on the page."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from settlement import services
from settlement.models import Event, Role
from tests.factories import make_member

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("variant", "offered"), [("baifen.benxi", True), ("biaofen", False)])
def test_the_form_offers_pairs_only_for_fixed_partnerships(owner_client, variant, offered):
    client, club, _ = owner_client
    page = client.get(reverse("event_new", args=[club.slug]) + f"?variant={variant}").content.decode()
    assert ('name="pairs"' in page) == offered


@pytest.mark.parametrize(("lang", "words"), [("zh-hans", "各对成绩"), ("en", "Pairs")])
def test_a_pairs_event_is_made_from_the_form_and_its_page_ranks_the_pairs(owner_client, lang, words):
    client, club, owner = owner_client
    url = reverse("event_new", args=[club.slug]) + "?variant=baifen.benxi"
    body = {"name": "对抗赛", "date": "2026-12-05", "table_size": "4", "bye": "zero", "preset": "本溪 205"}
    response = client.post(url, {**body, "guests": "甲\n乙\n丙\n丁", "pairs": "甲，乙\n丙, 丁"})
    assert response.status_code == 302, response.content.decode()
    event = Event.objects.get()
    names = {ep.player_id: ep.player.name for ep in event.players.select_related("player")}
    assert {frozenset(names[p] for p in pair) for pair in event.pairs} == {frozenset("甲乙"), frozenset("丙丁")}
    drawn = services.round_draw(event=event, user=owner, draw="random", seed=5)
    seats = [names[p] for p in drawn.tables.get().session.seats.order_by("seat").values_list("player_id", flat=True)]
    assert {frozenset((seats[0], seats[2])), frozenset((seats[1], seats[3]))} == {
        frozenset(("甲", "乙")),
        frozenset(("丙", "丁")),
    }
    if lang == "en":
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(response["Location"]).content.decode()
    assert words in page
    assert "甲 · 乙" in page or "乙 · 甲" in page


def test_a_pair_line_of_one_name_is_refused_on_the_field(owner_client):
    client, club, _ = owner_client
    url = reverse("event_new", args=[club.slug]) + "?variant=baifen.benxi"
    body = {"name": "对抗赛", "date": "2026-12-05", "table_size": "4", "bye": "zero", "preset": "本溪 205"}
    response = client.post(url, {**body, "guests": "甲\n乙", "pairs": "甲"})
    assert response.status_code == 400
    assert "id_pairs_error" in response.content.decode()
    assert not Event.objects.exists()


# --- the pairs set on the event page, after check-in, until the first draw ---


def _checked_in(owner, club, names=("甲", "乙", "丙", "丁"), **fields):
    event = services.event_create(
        club=club, user=owner, name="周五晚", variant="baifen.benxi", players=list(names), **fields
    )
    return event, {ep.player.name: ep.player_id for ep in event.players.select_related("player")}


@pytest.mark.parametrize(
    ("lang", "words"),
    [("zh-hans", ["固定搭档", "的搭档", "设定搭档"]), ("en", ["Fixed pairs", "'s partner", "Set the pairs"])],
)
def test_the_event_page_offers_each_player_a_partner_before_the_first_draw(owner_client, lang, words):
    client, club, owner = owner_client
    event, ids = _checked_in(owner, club)
    if lang == "en":
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("event_detail", args=[club.slug, event.pk])).content.decode()
    for word in words:
        assert word in page
    for player in ids.values():
        assert f'name="partner_{player}"' in page
    services.round_draw(event=event, user=owner, draw="random", seed=1)
    assert 'name="partner_' not in client.get(reverse("event_detail", args=[club.slug, event.pk])).content.decode()


def test_the_pairs_form_is_not_offered_for_a_variant_without_fixed_partners(owner_client):
    client, club, owner = owner_client
    event = services.event_create(
        club=club, user=owner, name="晚", variant="biaofen", table_size=4, players=["甲", "乙", "丙", "丁"]
    )
    assert 'name="partner_' not in client.get(reverse("event_detail", args=[club.slug, event.pk])).content.decode()


def test_each_player_choosing_a_partner_sets_the_pairs_and_the_page_shows_them_chosen(owner_client):
    client, club, owner = owner_client
    event, ids = _checked_in(owner, club)
    url = reverse("event_pairs", args=[club.slug, event.pk])
    # 甲 and 乙 both choose each other; only 丙 chooses 丁: one choice of the two is enough.
    body = {f"partner_{ids['甲']}": ids["乙"], f"partner_{ids['乙']}": ids["甲"], f"partner_{ids['丙']}": ids["丁"]}
    response = client.post(url, body)
    assert response.status_code == 302 and response["Location"].endswith("#pairs")
    event.refresh_from_db()
    assert {frozenset(pair) for pair in event.pairs} == {
        frozenset((ids["甲"], ids["乙"])),
        frozenset((ids["丙"], ids["丁"])),
    }
    page = client.get(reverse("event_detail", args=[club.slug, event.pk])).content.decode()
    assert f'<option value="{ids["丙"]}" selected>丙</option>' in page  # in 丁's choice: 丙 chose 丁


def test_a_player_left_without_a_partner_is_refused_on_that_player_s_choice(owner_client):
    client, club, owner = owner_client
    event, ids = _checked_in(owner, club)
    url = reverse("event_pairs", args=[club.slug, event.pk])
    response = client.post(url, {f"partner_{ids['甲']}": ids["乙"]})
    assert response.status_code == 400
    text = response.content.decode()
    assert f"id_partner_{ids['丙']}_error" in text and "丙" in text
    event.refresh_from_db()
    assert event.pairs == []


def test_the_pairs_after_a_draw_are_refused_on_the_page(owner_client):
    client, club, owner = owner_client
    event, ids = _checked_in(owner, club)
    services.round_draw(event=event, user=owner, draw="random", seed=1)
    body = {f"partner_{ids['甲']}": ids["乙"], f"partner_{ids['丙']}": ids["丁"]}
    response = client.post(reverse("event_pairs", args=[club.slug, event.pk]), body)
    assert response.status_code == 400
    assert "搭档不能再改" in response.content.decode()
    event.refresh_from_db()
    assert event.pairs == []


def test_a_viewer_may_not_set_the_pairs(client, owner_client):
    _, club, owner = owner_client
    event, ids = _checked_in(owner, club)
    viewer = make_member(club, Role.VIEWER)
    client.force_login(viewer)
    page = client.get(reverse("event_detail", args=[club.slug, event.pk])).content.decode()
    assert 'name="partner_' not in page
    response = client.post(reverse("event_pairs", args=[club.slug, event.pk]), {f"partner_{ids['甲']}": ids["乙"]})
    assert response.status_code == 403
