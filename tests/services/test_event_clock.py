"""The round clock: a round with a length ends at its start plus that length; a hand recorded at one of its
tables after that is counted, or refused unless the director allows that round's, as the event says."""

from __future__ import annotations

import datetime

import pytest

from settlement import services
from settlement.ledger import LedgerError
from settlement.models import Event, Hand, Round, Session
from tests.factories import BENXI_EXAMPLE, make_club, make_member

pytestmark = pytest.mark.django_db


def _round(late_hands, length=30):
    club = make_club()
    owner = make_member(club)
    event = services.event_create(
        club=club, user=owner, name="周五晚", variant="baifen.benxi", players=list("ABCD"), late_hands=late_hands
    )
    drawn = services.round_draw(event=event, user=owner, draw="random", seed=1, length_minutes=length)
    return owner, event, drawn, Session.objects.get(event_table__round=drawn)


def _time_up(drawn):
    Round.objects.filter(pk=drawn.pk).update(ends_at=drawn.started_at - datetime.timedelta(seconds=1))


def test_a_round_with_a_length_ends_that_many_minutes_after_it_starts():
    _, _, drawn, _ = _round(Event.LateHands.COUNTED, length=45)
    assert drawn.ends_at - drawn.started_at == datetime.timedelta(minutes=45)
    _, _, untimed, _ = _round(Event.LateHands.COUNTED, length=None)
    assert untimed.ends_at is None


@pytest.mark.parametrize(
    ("late_hands", "time_up", "allowed", "recorded"),
    [
        (Event.LateHands.COUNTED, True, False, True),
        (Event.LateHands.REFUSED, False, False, True),
        (Event.LateHands.REFUSED, True, False, False),
        (Event.LateHands.REFUSED, True, True, True),
    ],
)
def test_a_hand_after_the_clock_is_what_the_event_says(late_hands, time_up, allowed, recorded):
    owner, event, drawn, session = _round(late_hands)
    if time_up:
        _time_up(drawn)
    if allowed:
        services.round_late_allow(event=event, user=owner, n=drawn.n)
    if recorded:
        services.hand_record(session=session, user=owner, hand_input=BENXI_EXAMPLE[0])
        assert Hand.objects.filter(session=session).count() == 1
    else:
        with pytest.raises(LedgerError) as refused:
            services.hand_record(session=session, user=owner, hand_input=BENXI_EXAMPLE[0])
        assert (refused.value.code, refused.value.field) == ("round.time_up", "hand")
        assert not Hand.objects.filter(session=session).exists()


def test_allowing_late_hands_again_refuses_them_when_taken_back():
    owner, event, drawn, session = _round(Event.LateHands.REFUSED)
    _time_up(drawn)
    services.round_late_allow(event=event, user=owner, n=1)
    services.round_late_allow(event=event, user=owner, n=1, allowed=False)
    with pytest.raises(LedgerError):
        services.hand_record(session=session, user=owner, hand_input=BENXI_EXAMPLE[0])


def test_an_unknown_late_hands_rule_is_refused_by_name():
    club = make_club()
    with pytest.raises(LedgerError) as refused:
        services.event_create(
            club=club, user=make_member(club), name="n", variant="baifen.benxi", late_hands="sometimes"
        )
    assert refused.value.field == "late_hands"
