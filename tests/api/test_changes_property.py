"""Whatever writes come between a client's reads of the feed, following it by cursor gives each change once, in
order, and the changes are exactly the writes that took effect."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from settlement import services
from settlement.api.change_serializers import cursor_decode
from settlement.ledger import LedgerError
from settlement.models import Change
from tests.api.conftest import client_for
from tests.factories import make_club, make_member, make_session

pytestmark = pytest.mark.django_db

# 本溪 hands the rules accept in any context: the declarer deals, so any bid of 80–100 is allowed.
hands = st.builds(
    lambda seat, bid, captured: {"dealer": seat, "declarer": seat, "bid": bid, "captured": captured},
    st.integers(0, 3),
    st.sampled_from([80, 90, 100]),
    st.sampled_from([0, 20, 50]),
)
steps = st.lists(
    st.one_of(
        st.tuples(st.just("record"), st.integers(0, 1), hands),
        st.tuples(st.just("correct"), st.integers(0, 1), st.integers(1, 6), hands),
        st.tuples(st.just("void"), st.integers(0, 1), st.integers(1, 6)),
        st.tuples(st.just("close"), st.integers(0, 1)),
        st.tuples(st.just("reopen"), st.integers(0, 1)),
        st.tuples(st.just("rename"), st.integers(0, 3), st.integers(0, 99)),
        st.tuples(st.just("read"), st.integers(1, 4)),
    ),
    min_size=1,
    max_size=25,
)


def _write(step, *, sessions, owner):
    """The change kind the step writes, or None when it changes nothing (a refusal, a close of a closed session)."""
    what, *args = step
    try:
        if what == "record":
            services.hand_record(session=sessions[args[0]], user=owner, hand_input=args[1])
            return "hand.recorded"
        if what == "correct":
            services.hand_correct(session=sessions[args[0]], user=owner, number=args[1], hand_input=args[2], reason="x")
            return "hand.corrected"
        if what == "void":
            services.hand_void(session=sessions[args[0]], user=owner, number=args[1], reason="x")
            return "hand.voided"
        session = sessions[args[0]] if what in {"close", "reopen"} else None
        if what == "close":
            was_open = type(session).objects.get(pk=session.pk).is_open
            services.session_close(session=session, user=owner)
            return "session.closed" if was_open else None
        if what == "reopen":
            was_open = type(session).objects.get(pk=session.pk).is_open
            services.session_reopen(session=session, user=owner)
            return None if was_open else "session.reopened"
        seat = sessions[0].seats.select_related("player").get(seat=args[0])
        services.player_rename(player=seat.player, user=owner, name=f"新{args[1]}")
        return "player.renamed"
    except LedgerError:
        return None


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plan=steps)
def test_following_the_feed_by_cursor_gives_every_write_once_in_order(plan):
    club = make_club()
    owner = make_member(club)
    sessions = [make_session(club, owner), make_session(club, owner, players=["甲", "乙", "丙", "戊"])]
    client = client_for(owner)
    feed = f"/api/v1/clubs/{club.slug}/changes/"
    seen, cursor = [], None
    expected = [c.kind for c in Change.objects.filter(club=club)]  # the two openings
    assert len(expected) == 2 + 4 + 1  # 甲乙丙丁, a session, 戊 (the others are the same players), a session

    def read(limit):
        nonlocal cursor
        body = client.get(feed, {"limit": limit, **({"after": cursor} if cursor else {})}).json()
        seen.extend(body["results"])
        cursor = body["cursor"]
        return body["has_more"]

    for step in plan:
        if step[0] == "read":
            read(step[1])
        else:
            kind = _write(step, sessions=sessions, owner=owner)
            if kind is not None:
                expected.append(kind)
    while read(3):
        pass
    assert [entry["kind"] for entry in seen] == expected
    assert [cursor_decode(entry["cursor"]) for entry in seen] == list(
        Change.objects.filter(club=club).order_by("pk").values_list("pk", flat=True)
    )
