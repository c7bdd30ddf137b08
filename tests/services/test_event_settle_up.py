"""The event's settle-up: every player's table totals over the event, cleared in the fewest transfers, in money
when the tables play for it; adjustments and byes stay in the standings."""

from __future__ import annotations

import pytest

from settlement import selectors, services
from settlement.rules.draws import Seating
from tests.factories import BENXI_EXAMPLE, make_club, make_member, record_hands

pytestmark = pytest.mark.django_db

# Classic 打百分 (rules/baifen.md, the golden baifen-classic-settle-up): these two hands give these deltas.
PAIR_MADE = {"declarer": 0, "bid": 60, "partner": 2, "captured": 35}  # [+1, −1, +1, −1]
ALONE_CLEAN = {"declarer": 1, "bid": 45, "partner": None, "captured": 0}  # [−2, +6, −2, −2]


def _classic_evening(**options):
    club = make_club()
    owner = make_member(club)
    event = services.event_create(
        club=club, user=owner, name="周五", variant="baifen.classic", options=options, players=list("ABCDEFGH")
    )
    ids = {ep.player.name: ep.player for ep in event.players.select_related("player")}
    seating = Seating(tables=(tuple(ids[n].pk for n in "ABCD"), tuple(ids[n].pk for n in "EFGH")))
    drawn = services.round_draw(event=event, user=owner, draw="manual", seating=seating)
    first, second = (t.session for t in drawn.tables.order_by("number"))
    record_hands(first, owner, [PAIR_MADE])  # A +1, B −1, C +1, D −1
    record_hands(second, owner, [ALONE_CLEAN])  # E −2, F +6, G −2, H −2
    return owner, event, ids


def _lines(settle_up):
    return [(t.payer.name, t.payee.name, t.amount, t.units) for t in settle_up.transfers]


def test_an_evening_of_two_tables_settles_in_five_transfers_in_money_without_the_penalty():
    owner, event, ids = _classic_evening(unit_value=2)
    services.adjustment_add(event=event, user=owner, player=ids["F"], kind="penalty", amount=3, reason="late")
    standings = selectors.event_standings(event=event)
    settle_up = selectors.event_settle_up(standings=standings)
    # Ranked: F 6, A 1, C 1, B −1, D −1, E −2, G −2, H −2 (the penalty moves F's total to 3, not the money).
    # Eight owed or owing: the equal pairs first (B pays A, D pays C), then E, G and H each pay F 2 注 = 4.
    assert settle_up.zero_sum and settle_up.unit == "注" and settle_up.unit_value == 2
    assert _lines(settle_up) == [
        ("B", "A", 2, 1),
        ("D", "C", 2, 1),
        ("E", "F", 4, 2),
        ("G", "F", 4, 2),
        ("H", "F", 4, 2),
    ]


def test_without_money_the_settle_up_is_in_the_variant_s_unit():
    _, event, _ = _classic_evening()
    settle_up = selectors.event_settle_up(standings=selectors.event_standings(event=event))
    assert settle_up.unit_value == 1
    assert [line[2] for line in _lines(settle_up)] == [1, 1, 2, 2, 2]


def test_the_settle_up_reads_no_query_beyond_the_standings(django_assert_num_queries):
    _, event, _ = _classic_evening(unit_value=2)
    standings = selectors.event_standings(event=event)
    with django_assert_num_queries(0):
        selectors.event_settle_up(standings=standings)


def test_a_variant_whose_tables_do_not_sum_to_zero_has_no_settle_up():
    club = make_club()
    owner = make_member(club)
    event = services.event_create(club=club, user=owner, name="晚", variant="baifen.benxi", players=list("ABCD"))
    drawn = services.round_draw(event=event, user=owner, draw="random", seed=1)
    record_hands(drawn.tables.get().session, owner, BENXI_EXAMPLE[:2])
    settle_up = selectors.event_settle_up(standings=selectors.event_standings(event=event))
    assert not settle_up.zero_sum
    assert settle_up.transfers == ()
