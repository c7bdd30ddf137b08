"""The event page and the printable results show the event's settle-up, or say why there is none."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from settlement import services
from tests.factories import BENXI_EXAMPLE, record_hands

pytestmark = pytest.mark.django_db

ALONE_CLEAN = {"declarer": 1, "bid": 45, "partner": None, "captured": 0}  # classic: [−2, +6, −2, −2]


def _event(club, owner, variant, **options):
    event = services.event_create(
        club=club, user=owner, name="周五", variant=variant, options=options, players=["甲", "乙", "丙", "丁"]
    )
    drawn = services.round_draw(event=event, user=owner, draw="random", seed=2)
    session = drawn.tables.get().session
    record_hands(session, owner, [ALONE_CLEAN] if variant == "baifen.classic" else BENXI_EXAMPLE[:1])
    winner = session.seats.get(seat=1).player.name
    return event, winner


@pytest.mark.parametrize("page", ["event_detail", "event_results"])
@pytest.mark.parametrize(
    ("lang", "words", "line"),
    [
        ("zh-hans", ("全场结算", "不是钱"), "付给 {winner} 钱 4（2 注）"),
        ("en", ("Settle-up over the whole event", "not money"), "pays {winner} 4 in money (2 注)"),
    ],
)
def test_the_pages_show_who_pays_whom_in_money_and_say_penalties_are_not_in_it(owner_client, page, lang, words, line):
    client, club, owner = owner_client
    event, winner = _event(club, owner, "baifen.classic", unit_value=2)
    if lang == "en":
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = client.get(reverse(page, args=[club.slug, event.pk])).content.decode()
    for word in words:
        assert word in html
    # The three others each pay the winner 2 注 at 2 a 注.
    assert html.count(line.format(winner=winner)) == 3


def test_a_variant_that_is_not_zero_sum_says_why_there_is_no_settle_up(owner_client):
    client, club, owner = owner_client
    event, _ = _event(club, owner, "baifen.benxi")
    html = client.get(reverse("event_results", args=[club.slug, event.pk])).content.decode()
    assert "不结算" in html and "付给" not in html
