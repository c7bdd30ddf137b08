"""hand_record's `expected_number`: the number a phone entered a kept hand as (the table page offline).

本溪, rules/baifen.md's example hand 1: seat 0 bids 80, 15 captured, made.
"""

from __future__ import annotations

import pytest

from settlement import services
from settlement.ledger import LedgerError
from tests.factories import make_club, make_member, make_session

pytestmark = pytest.mark.django_db


def test_hand_record_refuses_a_hand_that_would_land_on_another_number_but_a_repeat_is_a_repeat():
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    hand = {"declarer": 0, "bid": 80, "captured": 15}
    first = services.hand_record(session=session, user=owner, hand_input=hand, client_key="a", expected_number=1)
    assert first.hand.number == 1
    with pytest.raises(LedgerError) as refused:
        services.hand_record(session=session, user=owner, hand_input=hand, client_key="b", expected_number=1)
    assert (refused.value.code, refused.value.params["last"]) == ("hand.moved", 1)
    repeat = services.hand_record(session=session, user=owner, hand_input=hand, client_key="a", expected_number=1)
    assert (repeat.hand.number, repeat.created) == (1, False)


def test_without_an_expected_number_a_hand_is_recorded_wherever_the_session_is():
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    services.hand_record(session=session, user=owner, hand_input={"declarer": 0, "bid": 80, "captured": 15})
    # Hand 2 of the example: seat 1 (the dealer now) bids 85.
    second = {"declarer": 1, "bid": 85, "captured": 20}
    assert services.hand_record(session=session, user=owner, hand_input=second).hand.number == 2
