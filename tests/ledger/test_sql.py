"""The hand entry's statements in SQL (`ledger/sql.py`) at their edges: no hand yet, every hand void, another club."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from settlement import services
from settlement.ledger import sql
from settlement.ledger.bulk import rows_insert
from settlement.models import Club, Hand, HandRevision, HandState, Role, Session
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_player, make_session, make_user, record_hands

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    club = make_club()
    owner = make_member(club)
    return club, owner, make_session(club, owner)


def test_a_session_without_hands_has_no_last_hand_and_no_state(table):
    _, _, session = table
    assert sql.last_hand_row(session_id=session.pk) == (0, None)


def test_the_last_number_counts_void_hands_and_the_state_is_the_last_counted_hands(table):
    _, owner, session = table
    record_hands(session, owner, BENXI_EXAMPLE[:3])
    services.hand_void(session=session, user=owner, number=3, reason="entered twice")
    last, row = sql.last_hand_row(session_id=session.pk)
    stored = HandState.objects.get(session=session, number=2)
    assert last == 3
    # After hand 2 the team 0 + 2 has won both hands (rules/baifen.md's example): a run of 2, seats 1 and 3 none.
    assert row == {
        "state": stored.state,
        "game_first": stored.game_first,
        "number": 2,
        "runs": [2, 0, 2, 0],
        "receipt": stored.receipt,
        "game_end": stored.game_end,
    }


def test_a_session_whose_every_hand_is_void_has_a_last_hand_but_no_state(table):
    _, owner, session = table
    record_hands(session, owner, BENXI_EXAMPLE[:1])
    services.hand_void(session=session, user=owner, number=1, reason="not played")
    assert sql.last_hand_row(session_id=session.pk) == (1, None)


@pytest.mark.parametrize("role", [Role.OWNER, Role.SCOREKEEPER, Role.VIEWER])
def test_the_session_comes_with_the_members_role_and_its_club(table, role):
    club, _, session = table
    member = make_member(club, role)
    found = sql.session_for_member(session_id=session.pk, user_id=member.pk, slug=club.slug)
    assert found is not None
    membership, read = found
    assert (read.pk, read.club, membership.club, membership.role, membership.user_id) == (
        session.pk,
        club,
        club,
        role,
        member.pk,
    )
    assert session_lock_role(session, member) == role


def test_the_club_read_with_the_session_is_the_one_the_orm_reads_field_for_field(table):
    club, owner, session = table
    club.show_achievements = False
    club.save()
    _, read = sql.session_for_member(session_id=session.pk, user_id=owner.pk)
    stored = Club.objects.get(pk=club.pk)
    for field in Club._meta.concrete_fields:
        value, expected = getattr(read.club, field.attname), getattr(stored, field.attname)
        assert (type(value), value) == (type(expected), expected), field.name
    assert not read.club._state.adding


def session_lock_role(session, user):
    _, role = sql.session_lock(session_id=session.pk, user_id=user.pk)
    return role


def test_no_session_for_a_stranger_another_clubs_slug_or_a_missing_one(table):
    _, owner, session = table
    stranger = make_member(make_club())
    assert sql.session_for_member(session_id=session.pk, user_id=stranger.pk) is None
    assert sql.session_for_member(session_id=session.pk, user_id=None) is None
    assert sql.session_for_member(session_id=session.pk, user_id=owner.pk, slug="another") is None
    assert sql.session_for_member(session_id=session.pk + 1000, user_id=owner.pk) is None
    assert session_lock_role(session, stranger) is None
    assert session_lock_role(session, make_user()) is None


def test_the_players_come_in_seat_order_not_the_order_they_were_made(table):
    club, owner, _ = table
    made = [make_player(club, name) for name in ("戊", "己", "庚", "辛")]
    session = make_session(club, owner, players=made[::-1])
    assert sql.session_players(session_id=session.pk) == tuple(made[::-1])


def test_pipelined_writes_land_in_order_and_a_read_inside_the_block_sees_them(table):
    _, _, session = table
    before = Session.objects.get(pk=session.pk).version
    with transaction.atomic(), sql.pipelined():
        sql.session_touch(session_id=session.pk, when=timezone.now())
        sql.session_touch(session_id=session.pk, when=timezone.now())
        assert Session.objects.get(pk=session.pk).version == before + 2
        sql.session_touch(session_id=session.pk, when=timezone.now())
    assert Session.objects.get(pk=session.pk).version == before + 3


def test_a_pipelined_write_that_fails_is_djangos_error_and_rolls_the_block_back(table):
    """On PostgreSQL the failed INSERT's answer arrives at the block's end: still Django's IntegrityError (the
    service's callers know it), and the session's version bumped before it is rolled back with it."""
    _, owner, session = table
    record_hands(session, owner, BENXI_EXAMPLE[:1])
    before = Session.objects.get(pk=session.pk).version
    with pytest.raises(IntegrityError), transaction.atomic(), sql.pipelined():
        sql.session_touch(session_id=session.pk, when=timezone.now())
        rows_insert(Hand, ("session_id", "number", "client_key"), [(session.pk, 1, "")])  # hand 1 exists
    assert Session.objects.get(pk=session.pk).version == before
    assert Hand.objects.filter(session=session).count() == 1


@pytest.mark.parametrize("hands", [0, 3])
def test_the_seats_with_the_last_hand_are_the_two_reads_in_one(table, hands):
    _, owner, session = table
    record_hands(session, owner, BENXI_EXAMPLE[:hands])
    players, last, row = sql.session_table(session_id=session.pk)
    assert players == sql.session_players(session_id=session.pk)
    assert len(players) == 4
    assert (last, row) == sql.last_hand_row(session_id=session.pk)
    assert last == hands and (row is None) == (hands == 0)


def test_the_seats_with_the_last_hand_keep_seat_order(table):
    club, owner, _ = table
    made = [make_player(club, name) for name in ("戊", "己", "庚", "辛")]
    session = make_session(club, owner, players=made[::-1])
    assert sql.session_table(session_id=session.pk)[0] == tuple(made[::-1])


def _fields(instance):
    return {field.attname: getattr(instance, field.attname) for field in type(instance)._meta.concrete_fields}


def test_the_hand_and_revision_inserted_are_what_the_orm_reads_back(table):
    _, owner, session = table
    when = timezone.now()
    entry = {"dealer": 0, "declarer": 0, "bid": 85, "captured": 20, "note": "甲"}
    with transaction.atomic():
        hand, revision = sql.hand_insert(
            session_id=session.pk,
            number=1,
            client_key="k1",
            hand_input=entry,
            author_id=owner.pk,
            note="记错了",
            when=when,
        )
    assert not hand._state.adding and not revision._state.adding
    assert _fields(hand) == _fields(Hand.objects.get(pk=hand.pk))
    assert _fields(revision) == _fields(HandRevision.objects.get(pk=revision.pk))
    assert (revision.hand_id, revision.number, revision.input, revision.created_at) == (hand.pk, 1, entry, when)


def test_a_hand_inserted_twice_is_refused_whole(table):
    _, owner, session = table
    record_hands(session, owner, BENXI_EXAMPLE[:1])
    with pytest.raises(IntegrityError), transaction.atomic():
        sql.hand_insert(
            session_id=session.pk,
            number=1,
            client_key="",
            hand_input={},
            author_id=owner.pk,
            note=None,
            when=timezone.now(),
        )
    assert HandRevision.objects.filter(hand__session=session).count() == 1


def test_the_session_read_with_its_lock_is_the_one_the_orm_reads_field_for_field(table):
    _, owner, session = table
    with transaction.atomic():
        locked, role = sql.session_lock(session_id=session.pk, user_id=owner.pk)
    assert _fields(locked) == _fields(Session.objects.get(pk=session.pk))
    assert (role, locked.late_round, locked._state.adding) == (Role.OWNER, None, False)
