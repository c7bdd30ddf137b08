"""The database refuses to change or delete the hand log, whatever writes to it; only `flush` may empty it."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction

from settlement.ledger import log_deletes_allowed
from settlement.models import GameRow, Hand, HandRevision, Session, SettlementRow
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_recorded_session, make_session, record_hands

LOG_TABLES = ["settlement_hand", "settlement_handrevision"]
RAW_STATEMENTS = {
    "update": "UPDATE {table} SET created_at = created_at",
    "delete": "DELETE FROM {table}",
}


@pytest.fixture
def recorded():
    return make_recorded_session(BENXI_EXAMPLE[:2])[2]


def _refused(statement, params=()):
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(statement, params)


def _deletes_allowed_flag():
    with connection.cursor() as cursor:
        cursor.execute("SELECT deletes_allowed FROM settlement_ledger_maintenance WHERE id = 1")
        return bool(cursor.fetchone()[0])


@pytest.mark.django_db
@pytest.mark.parametrize("table", LOG_TABLES)
@pytest.mark.parametrize("statement", list(RAW_STATEMENTS))
def test_the_database_refuses_raw_sql_that_changes_the_hand_log(recorded, table, statement):
    _refused(RAW_STATEMENTS[statement].format(table=table))
    assert Hand.objects.filter(session=recorded).count() == 2
    assert HandRevision.objects.filter(hand__session=recorded).count() == 2


@pytest.mark.django_db
@pytest.mark.parametrize(
    "write",
    [
        lambda s: Hand.objects.filter(session=s).update(number=9),
        lambda s: HandRevision.objects.filter(hand__session=s).update(reason="edited"),
        lambda s: HandRevision.objects.filter(hand__session=s).delete(),
    ],
    ids=["hand-update", "revision-update", "revision-delete"],
)
def test_the_database_refuses_queryset_writes_that_bypass_the_models(recorded, write):
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        write(recorded)
    assert list(Hand.objects.filter(session=recorded).values_list("number", flat=True)) == [1, 2]
    assert SettlementRow.objects.filter(session=recorded).count() == 8


@pytest.mark.django_db
def test_derived_rows_stay_writable_they_are_rebuilt_from_the_log(recorded):
    assert SettlementRow.objects.filter(session=recorded).update(delta=0) == 8
    assert GameRow.objects.filter(session=recorded).delete()[0] == 4


@pytest.mark.django_db
def test_the_maintenance_flag_lets_deletes_through_only_inside_its_block_and_never_updates(recorded):
    with transaction.atomic():
        with log_deletes_allowed():
            _refused("UPDATE settlement_handrevision SET reason = %s", ["edited"])
            with connection.cursor() as cursor:
                cursor.execute("DELETE FROM settlement_handrevision")
            assert HandRevision.objects.filter(hand__session=recorded).count() == 0
        assert _deletes_allowed_flag() is False
        _refused("DELETE FROM settlement_hand")
        transaction.set_rollback(True)
    assert HandRevision.objects.filter(hand__session=recorded).count() == 2


@pytest.mark.django_db(transaction=True)
def test_the_maintenance_flag_cannot_be_set_outside_a_transaction():
    with pytest.raises(RuntimeError, match="needs a transaction"), log_deletes_allowed():
        pass
    assert _deletes_allowed_flag() is False


@pytest.mark.django_db(transaction=True)
def test_flush_empties_the_hand_log_and_leaves_the_flag_off(recorded):
    call_command("flush", interactive=False, verbosity=0)
    assert (Session.objects.count(), Hand.objects.count(), HandRevision.objects.count()) == (0, 0, 0)
    assert _deletes_allowed_flag() is False
    club = make_club()
    owner = make_member(club)
    record_hands(make_session(club, owner), owner, BENXI_EXAMPLE[:1])
    _refused("DELETE FROM settlement_hand")  # protected again afterwards
