"""The new-event form offers tables of two sizes only for a variant with two, and the event page states them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from settlement.models import Event

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("variant", "label"),
    [("biaofen", "3 人桌和 4 人桌混开"), ("baifen.classic", "4 人桌和 6 人桌混开"), ("baifen.benxi", None)],
)
def test_the_form_offers_tables_of_two_sizes_only_where_the_variant_has_two(owner_client, variant, label):
    client, club, _ = owner_client
    page = client.get(reverse("event_new", args=[club.slug]) + f"?variant={variant}").content.decode()
    assert ('name="mixed_sizes"' in page) == (label is not None)
    if label:
        assert label in page


def test_a_biaofen_evening_of_mixed_tables_is_made_from_the_form_and_states_its_sizes(owner_client):
    client, club, _ = owner_client
    url = reverse("event_new", args=[club.slug]) + "?variant=biaofen"
    body = {"name": "周六赛", "date": "2026-12-05", "table_size": "3", "bye": "zero", "mixed_sizes": "on"}
    response = client.post(url, {**body, "guests": "甲\n乙\n丙\n丁\n戊\n己\n庚"})
    assert response.status_code == 302
    event = Event.objects.get()
    assert event.mixed_sizes and event.table_sizes == {3, 4}
    page = client.get(response["Location"]).content.decode()
    assert "3 / 4" in page
