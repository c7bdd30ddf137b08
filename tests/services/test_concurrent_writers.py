"""Eight writers at once, into one session and into two: every hand lands, numbered without gap or repeat.

SQLite (the default database) queues writers only with the settings made for it
(WAL, transactions that take the write lock at BEGIN, a busy timeout); without
them some writers fail with `database is locked`. That runs against a file
database in a process of its own (`writers.py`), on every CI pass; on
PostgreSQL the same workload runs in-process against the test database.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from django.db import connection

from settlement.models import Hand, SettlementRow
from tests.conftest import ROOT
from tests.factories import make_club, make_member, make_session
from tests.services.writers import HANDS_EACH, THREADS, writers_run

SEATS = 4
ALL_HANDS = THREADS * HANDS_EACH  # 24


@pytest.fixture(scope="module")
def sqlite_report(tmp_path_factory):
    db_file = tmp_path_factory.mktemp("writers") / "ledger.sqlite3"
    done = subprocess.run(
        [sys.executable, "-m", "tests.services.writers", str(db_file)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize(
    ("sessions", "hands_per_session"),
    [(1, [ALL_HANDS]), (2, [ALL_HANDS // 2, ALL_HANDS // 2])],
)
def test_eight_writers_on_a_file_sqlite_database_all_land_in_order(sqlite_report, sessions, hands_per_session):
    outcome = sqlite_report[str(sessions)]
    assert outcome["errors"] == []
    assert outcome["numbers"] == [list(range(1, n + 1)) for n in hands_per_session]
    assert outcome["settlement_rows"] == [n * SEATS for n in hands_per_session]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the SQLite case runs in its own process above")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("sessions", "hands_per_session"),
    [(1, [ALL_HANDS]), (2, [ALL_HANDS // 2, ALL_HANDS // 2])],
)
def test_eight_writers_on_postgresql_all_land_in_order(sessions, hands_per_session):
    club = make_club()
    owner = make_member(club)
    opened = [make_session(club, owner) for _ in range(sessions)]
    assert writers_run(sessions=opened, user=owner) == []
    for session, n in zip(opened, hands_per_session, strict=True):
        assert list(Hand.objects.filter(session=session).order_by("number").values_list("number", flat=True)) == list(
            range(1, n + 1)
        )
        assert SettlementRow.objects.filter(session=session).count() == n * SEATS
