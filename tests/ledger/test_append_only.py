"""The database refuses to change or delete the logs (the hands and their revisions, the session and player audit
trails, the change feed), whatever writes to them, and no write to a table can switch that off; only `flush` may
empty them."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import DatabaseError, IntegrityError, connection, transaction

from settlement import services
from settlement.ledger import log_deletes_allowed
from settlement.models import GameRow, Hand, HandRevision, PlayerEvent, Session, SessionEvent, SettlementRow
from tests.factories import (
    BENXI_EXAMPLE,
    make_club,
    make_member,
    make_player,
    make_recorded_session,
    make_session,
    record_hands,
)

LOG_TABLES = [
    "settlement_hand",
    "settlement_handrevision",
    "settlement_sessionevent",
    "settlement_playerevent",
    "settlement_change",
]
RAW_STATEMENTS = {
    "update": "UPDATE {table} SET created_at = created_at",
    "delete": "DELETE FROM {table}",
}


@pytest.fixture
def recorded():
    """A session of two hands, closed and reopened, in a club with one player renamed: a row in every log."""
    club, owner, session = make_recorded_session(BENXI_EXAMPLE[:2])
    services.session_close(session=session, user=owner)
    services.session_reopen(session=session, user=owner)
    services.player_rename(player=make_player(club, "小王"), user=owner, name="老王")
    return session


def _log_counts(session):
    return (
        Hand.objects.filter(session=session).count(),
        HandRevision.objects.filter(hand__session=session).count(),
        SessionEvent.objects.filter(session=session).count(),
        PlayerEvent.objects.filter(club=session.club).count(),
    )


def _refused(statement, params=()):
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(statement, params)


def _protection_on():
    """Whether a DELETE from each log table is refused right now (tried, then rolled back). Row triggers fire on
    rows: every table must hold one."""
    refused = []
    for table in LOG_TABLES:
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT count(*) FROM {table}")
            assert cursor.fetchone()[0] > 0, table
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(f"DELETE FROM {table}")
                transaction.set_rollback(True)
            refused.append(False)
        except IntegrityError:
            refused.append(True)
    return all(refused)


@pytest.mark.django_db
@pytest.mark.parametrize("table", LOG_TABLES)
@pytest.mark.parametrize("statement", list(RAW_STATEMENTS))
def test_the_database_refuses_raw_sql_that_changes_a_log(recorded, table, statement):
    assert _log_counts(recorded) == (2, 2, 2, 1)
    _refused(RAW_STATEMENTS[statement].format(table=table))
    assert _log_counts(recorded) == (2, 2, 2, 1)


# What switched 0004's protection off: its flag was a row the app's connection could write.
FLAG_WRITES = [
    "UPDATE settlement_ledger_maintenance SET deletes_allowed = true",
    "INSERT INTO settlement_ledger_maintenance (id, deletes_allowed) VALUES (2, true)",
]


@pytest.mark.django_db
@pytest.mark.parametrize("flag_write", FLAG_WRITES)
@pytest.mark.parametrize("table", LOG_TABLES)
def test_no_write_to_a_table_lets_a_delete_from_a_log_through(recorded, flag_write, table):
    with transaction.atomic():
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(flag_write)
        except DatabaseError:
            pass  # no such table any more: nothing to write
        _refused(f"DELETE FROM {table}")
    assert _log_counts(recorded) == (2, 2, 2, 1)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "write",
    [
        lambda s: Hand.objects.filter(session=s).update(number=9),
        lambda s: HandRevision.objects.filter(hand__session=s).update(reason="edited"),
        lambda s: HandRevision.objects.filter(hand__session=s).delete(),
        lambda s: SessionEvent.objects.filter(session=s).update(kind="closed"),
        lambda s: SessionEvent.objects.filter(session=s).delete(),
        lambda s: PlayerEvent.objects.filter(club=s.club).update(reason="edited"),
        lambda s: PlayerEvent.objects.filter(club=s.club).delete(),
    ],
    ids=[
        "hand-update",
        "revision-update",
        "revision-delete",
        "session-event-update",
        "session-event-delete",
        "player-event-update",
        "player-event-delete",
    ],
)
def test_the_database_refuses_queryset_writes_that_bypass_the_models(recorded, write):
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        write(recorded)
    assert list(Hand.objects.filter(session=recorded).values_list("number", flat=True)) == [1, 2]
    assert SettlementRow.objects.filter(session=recorded).count() == 8
    assert _log_counts(recorded) == (2, 2, 2, 1)


@pytest.mark.django_db
def test_derived_rows_stay_writable_they_are_rebuilt_from_the_log(recorded):
    assert SettlementRow.objects.filter(session=recorded).update(delta=0) == 8
    assert GameRow.objects.filter(session=recorded).delete()[0] == 4


@pytest.mark.django_db
def test_the_maintenance_path_lets_deletes_through_only_inside_its_block_and_never_updates(recorded):
    with transaction.atomic():
        with log_deletes_allowed():
            _refused("UPDATE settlement_handrevision SET reason = %s", ["edited"])
            _refused("UPDATE settlement_playerevent SET reason = %s", ["edited"])
            with connection.cursor() as cursor:
                for table in ["settlement_handrevision", "settlement_sessionevent", "settlement_playerevent"]:
                    cursor.execute(f"DELETE FROM {table}")
            assert _log_counts(recorded) == (2, 0, 0, 0)
        _refused("DELETE FROM settlement_hand")
        record_hands(recorded, recorded.created_by, BENXI_EXAMPLE[2:3])  # a row in every log again
        services.session_close(session=recorded, user=recorded.created_by)
        services.player_rename(player=make_player(recorded.club, "小李"), user=recorded.created_by, name="老李")
        assert _protection_on()
        transaction.set_rollback(True)
    assert _log_counts(recorded) == (2, 2, 2, 1)


@pytest.mark.django_db
def test_a_failure_inside_the_maintenance_path_leaves_the_logs_protected(recorded):
    with pytest.raises(ZeroDivisionError), transaction.atomic(), log_deletes_allowed():
        1 / 0  # noqa: B018
    assert _protection_on()
    assert _log_counts(recorded) == (2, 2, 2, 1)


@pytest.mark.django_db(transaction=True)
def test_the_maintenance_path_cannot_be_taken_outside_a_transaction(recorded):
    with pytest.raises(RuntimeError, match="needs a transaction"), log_deletes_allowed():
        pass
    assert _protection_on()


@pytest.mark.django_db(transaction=True)
def test_flush_empties_the_logs_and_leaves_them_protected(recorded):
    call_command("flush", interactive=False, verbosity=0)
    assert (Session.objects.count(), Hand.objects.count(), HandRevision.objects.count()) == (0, 0, 0)
    assert (SessionEvent.objects.count(), PlayerEvent.objects.count()) == (0, 0)
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE[:1])
    services.session_close(session=session, user=owner)
    services.player_rename(player=make_player(club, "小王"), user=owner, name="老王")
    assert _protection_on()  # protected again afterwards
