"""Events: a round's tables are ordinary sessions made in one transaction, seated as drawn; the refusals change
nothing; adjustments are append-only in the database."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, connection, transaction

from settlement import services
from settlement.ledger import LedgerError
from settlement.models import Adjustment, Event, Role, Round, RoundTable, Session, SessionSeat
from settlement.rules.draws import Seating
from tests.factories import BENXI_EXAMPLE, make_club, make_member, record_hands

pytestmark = pytest.mark.django_db

VARIANT = "baifen.benxi"


def _event(club, owner, count=8, **fields):
    return services.event_create(
        club=club, user=owner, name="周五晚", variant=VARIANT, players=[f"P{i}" for i in range(count)], **fields
    )


@pytest.fixture
def club():
    return make_club()


@pytest.fixture
def owner(club):
    return make_member(club)


def test_a_round_opens_an_ordinary_session_per_table_seated_as_drawn(club, owner):
    event = _event(club, owner, count=9)
    drawn = services.round_draw(event=event, user=owner, draw="balanced", seed=7)
    tables = list(RoundTable.objects.filter(round=drawn).order_by("number"))
    assert [t.number for t in tables] == [1, 2]
    seated = [
        list(SessionSeat.objects.filter(session=t.session).order_by("seat").values_list("player_id", flat=True))
        for t in tables
    ]
    everyone = {p for table in seated for p in table} | set(drawn.sitting_out)
    assert len(everyone) == 9 and len(drawn.sitting_out) == 1
    assert all(len(table) == 4 for table in seated)
    for table in tables:
        assert table.session.variant == VARIANT and table.session.is_open and table.session.club_id == club.pk
    event.refresh_from_db()
    assert event.state == Event.State.RUNNING


def test_the_same_seed_draws_the_same_round(club, owner):
    first = _event(club, owner)
    second = services.event_create(
        club=club,
        user=owner,
        name="另一晚",
        variant=VARIANT,
        players=list(first.players.values_list("player__name", flat=True)),
    )

    def seating(event):
        drawn = services.round_draw(event=event, user=owner, draw="random", seed=42)
        return [
            list(t.session.seats.order_by("seat").values_list("player_id", flat=True))
            for t in drawn.tables.order_by("number")
        ]

    assert seating(first) == seating(second)


def test_a_round_is_refused_while_the_last_round_has_open_tables_unless_the_director_closes_them(club, owner):
    event = _event(club, owner)
    first = services.round_draw(event=event, user=owner, draw="random", seed=1)
    with pytest.raises(LedgerError) as refused:
        services.round_draw(event=event, user=owner, draw="random", seed=2)
    assert (refused.value.code, refused.value.field) == ("round.tables_open", "close_open")
    assert Round.objects.filter(event=event).count() == 1
    services.round_draw(event=event, user=owner, draw="random", seed=2, close_open=True)
    assert not Session.objects.filter(event_table__round=first, status=Session.Status.OPEN).exists()
    first.refresh_from_db()
    assert first.ended_at is not None


@pytest.mark.parametrize(
    ("count", "draw", "seating", "code"),
    [
        (3, "random", None, "draw.too_few_players"),
        (8, "manual", None, "field.required"),
        (8, "shuffle", None, "draw.unknown_method"),
    ],
)
def test_a_refused_draw_leaves_nothing_behind(club, owner, count, draw, seating, code):
    event = _event(club, owner, count=count)
    sessions = Session.objects.count()
    with pytest.raises(LedgerError) as refused:
        services.round_draw(event=event, user=owner, draw=draw, seating=seating)
    assert refused.value.code == code
    assert (Round.objects.count(), Session.objects.count()) == (0, sessions)


def test_a_manual_seating_with_a_player_at_two_tables_is_refused(club, owner):
    event = _event(club, owner)
    ids = sorted(event.players.values_list("player_id", flat=True))
    twice = Seating(tables=(tuple(ids[:4]), (ids[0], *ids[5:8])), sitting_out=(ids[4],))
    with pytest.raises(LedgerError) as refused:
        services.round_draw(event=event, user=owner, draw="manual", seating=twice)
    assert refused.value.field == "seating"
    assert not Session.objects.exists()


def test_a_manual_seating_that_leaves_someone_out_is_refused(club, owner):
    event = _event(club, owner)
    ids = sorted(event.players.values_list("player_id", flat=True))
    with pytest.raises(LedgerError) as refused:
        services.round_draw(event=event, user=owner, draw="manual", seating=Seating(tables=(tuple(ids[:4]),)))
    assert (refused.value.code, refused.value.field) == ("draw.left_out", "seating")


@pytest.mark.parametrize("role", [Role.VIEWER, None])
def test_only_a_director_draws_or_adjusts(club, owner, role):
    event = _event(club, owner)
    other = make_member(club, role) if role else make_member(make_club())
    with pytest.raises(PermissionDenied):
        services.round_draw(event=event, user=other, draw="random")
    with pytest.raises(PermissionDenied):
        services.event_create(club=club, user=other, name="x", variant=VARIANT)


def test_a_scorekeeper_directs(club, owner):
    scorekeeper = make_member(club, Role.SCOREKEEPER)
    event = _event(club, scorekeeper)
    assert services.round_draw(event=event, user=scorekeeper, draw="random").n == 1


def test_a_late_arrival_joins_from_the_next_round(club, owner):
    event = _event(club, owner, count=8)
    first = services.round_draw(event=event, user=owner, draw="random", seed=3)
    services.event_check_in(event=event, user=owner, players=["Late1", "Late2", "Late3", "Late4"])
    assert len(first.sitting_out) == 0
    second = services.round_draw(event=event, user=owner, draw="balanced", seed=4, close_open=True)
    assert second.tables.count() == 3


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"name": "  "}, "name"),
        ({"variant": "mahjong"}, "variant"),
        ({"table_size": 5}, "table_size"),
        ({"preset": "nope"}, "preset"),
        ({"options": {"no_such_option": 1}}, "options.no_such_option"),
        ({"bye": "figure"}, "bye_figure"),
        ({"bye": "sometimes"}, "bye"),
    ],
)
def test_a_bad_event_is_refused_naming_the_field(club, owner, fields, field):
    with pytest.raises(LedgerError) as refused:
        services.event_create(club=club, user=owner, **{"name": "晚", "variant": VARIANT, **fields})
    assert refused.value.field == field
    assert refused.value.message("en") and refused.value.message("zh-Hans")
    assert not Event.objects.exists()


def test_a_penalty_needs_a_checked_in_player_an_amount_a_reason_and_a_round(club, owner):
    event = _event(club, owner)
    player = event.players.first().player
    with pytest.raises(LedgerError) as refused:
        services.adjustment_add(event=event, user=owner, player=player, kind="penalty", amount=5, reason="迟到")
    assert refused.value.code == "event.no_round"
    services.round_draw(event=event, user=owner, draw="random")
    stranger = services.event_create(club=club, user=owner, name="别的", variant=VARIANT, players=["外人"])
    outsider = stranger.players.first().player
    cases = [
        ({"player": outsider}, "player"),
        ({"amount": 0}, "amount"),
        ({"amount": "5"}, "amount"),
        ({"reason": " "}, "reason"),
        ({"kind": "fine"}, "kind"),
        ({"round_n": 9}, "round"),
    ]
    for change, field in cases:
        args = {"player": player, "kind": "penalty", "amount": 5, "reason": "迟到", **change}
        with pytest.raises(LedgerError) as refused:
            services.adjustment_add(event=event, user=owner, **args)
        assert refused.value.field == field
    made = services.adjustment_add(event=event, user=owner, player=player, kind="penalty", amount=5, reason="迟到")
    assert (made.round.n, made.signed, made.author_id) == (1, -5, owner.pk)


def test_adjustments_are_append_only_in_the_database(club, owner):
    event = _event(club, owner)
    services.round_draw(event=event, user=owner, draw="random")
    player = event.players.first().player
    services.adjustment_add(event=event, user=owner, player=player, kind="award", amount=3, reason="好牌风")
    for statement in ("UPDATE settlement_adjustment SET amount = 1", "DELETE FROM settlement_adjustment"):
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement)
    assert Adjustment.objects.get().amount == 3


def test_hands_at_an_event_table_are_recorded_as_at_any_session(club, owner):
    event = _event(club, owner)
    drawn = services.round_draw(event=event, user=owner, draw="random")
    session = drawn.tables.first().session
    record_hands(session, owner, BENXI_EXAMPLE[:2])
    assert session.hands.count() == 2
