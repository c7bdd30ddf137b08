"""A pairs event from the new-event form, its draw seating pairs as partners, the pairs' standings on the page."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from settlement import services
from settlement.models import Event

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
