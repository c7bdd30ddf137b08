"""The derived columns the statistics read (migration 0012): written with every hand, filled for old rows, verified."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.core.management import CommandError, call_command

from settlement.models import SettlementRow
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_session, record_hands

pytestmark = pytest.mark.django_db

COLUMNS = ("number", "seat", "declaring_side", "bid", "level")


def _rows(session):
    return list(SettlementRow.objects.filter(session=session).order_by("number", "seat").values_list(*COLUMNS))


@pytest.fixture
def sessions():
    club = make_club()
    owner = make_member(club)
    benxi = make_session(club, owner)
    record_hands(benxi, owner, BENXI_EXAMPLE[:2])
    # 红星五, golden hongxingwu-worked: 甲 declares at 2 (→ 10), 丙 at 10; then 甲 at J.
    hxw = make_session(club, owner, variant="hongxingwu")
    record_hands(hxw, owner, [{"declarer": 0, "captured": 0}, {"captured": 100}, {"captured": 140}])
    return benxi, hxw


def test_each_hand_stores_the_side_the_bid_and_the_level(sessions):
    benxi, hxw = sessions
    # 本溪 hand 1: seat 0 bids 80 (team 0 + 2 declare); hand 2: seat 1 bids 85 (team 1 + 3).
    assert _rows(benxi) == [
        (1, 0, True, 80, None),
        (1, 1, False, 80, None),
        (1, 2, True, 80, None),
        (1, 3, False, 80, None),
        (2, 0, False, 85, None),
        (2, 1, True, 85, None),
        (2, 2, False, 85, None),
        (2, 3, True, 85, None),
    ]
    assert [(n, seat, side, level) for n, seat, side, _, level in _rows(hxw) if seat == 0] == [
        (1, 0, True, "2"),
        (2, 0, True, "10"),
        (3, 0, True, "J"),
    ]


def test_the_migration_fills_the_columns_of_rows_written_before_it(sessions):
    expected = [_rows(session) for session in sessions]
    SettlementRow.objects.update(declaring_side=None, bid=None, level=None)
    migration = importlib.import_module("settlement.migrations.0012_stats_columns")
    migration.stats_columns_fill(apps, None)
    assert [_rows(session) for session in sessions] == expected


def test_ledger_verify_reports_and_repairs_a_wrong_column(sessions, capsys):
    benxi, _ = sessions
    SettlementRow.objects.filter(session=benxi, number=2, seat=1).update(bid=90)
    with pytest.raises(CommandError, match="1 of 1 sessions differ"):
        call_command("ledger_verify", "--session", str(benxi.pk))
    assert "hand 2 seat 1 bid: stored 90, replayed 85" in capsys.readouterr().out
    call_command("ledger_verify", "--session", str(benxi.pk), "--repair")
    assert SettlementRow.objects.get(session=benxi, number=2, seat=1).bid == 85
