"""Eight writers at once, into one session and into two: every hand lands, numbered without gap or repeat.

SQLite (the default database) queues writers only with the settings made for it
(WAL, transactions that take the write lock at BEGIN, a busy timeout); without
them some writers fail with `database is locked`. That runs against a file
database in a process of its own (`writers.py`), on every CI pass; on
PostgreSQL the same workload runs in-process against the test database.

Two renames in one club at once (PostgreSQL only: SQLite's writers never overlap): the second waits for the
first on the club's row, which `services.players` locks with the player's.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time

import pytest
from django.db import connection, connections, transaction

from settlement.ledger import LedgerError
from settlement.models import Hand, Player, SettlementRow
from settlement.services import player_rename
from tests.conftest import ROOT
from tests.factories import make_club, make_member, make_player, make_session
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


def _lock_waiters() -> int:
    """Connections to this test database waiting on a lock (a row lock or a transaction) right now."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite writers never overlap")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("second_name", ["zhang", "Zhang"])  # a look-alike (`name_key`) and the very name
def test_a_rename_while_another_in_the_club_is_uncommitted_waits_for_it_and_is_refused(second_name):
    # The first rename is held uncommitted; without the club row's lock the second reads the names as they were
    # (`zhang` then passes, and two look-alikes stand in the club; `Zhang` fails on the unique constraint).
    club = make_club()
    owner = make_member(club)
    first, second = make_player(club, "小王"), make_player(club, "小李")
    first_renamed, release = threading.Event(), threading.Event()
    outcome: dict[str, str] = {}

    def rename_first() -> None:
        try:
            with transaction.atomic():
                player_rename(player=first, user=owner, name="Zhang")
                first_renamed.set()
                release.wait(timeout=30)
        except Exception as exc:
            outcome["first"] = f"{type(exc).__name__}: {exc}"
        finally:
            first_renamed.set()
            connections.close_all()

    def rename_second() -> None:
        try:
            player_rename(player=second, user=owner, name=second_name)
            outcome["second"] = "renamed"
        except LedgerError as exc:
            outcome["second"] = exc.code
        except Exception as exc:
            outcome["second"] = f"{type(exc).__name__}: {exc}"
        finally:
            connections.close_all()

    holder = threading.Thread(target=rename_first)
    holder.start()
    first_renamed.wait(timeout=30)
    waiter = threading.Thread(target=rename_second)
    waiter.start()
    # Commit the first once the second has finished or is seen waiting on a lock.
    deadline = time.monotonic() + 30
    waited = False
    while waiter.is_alive() and time.monotonic() < deadline:
        if _lock_waiters():
            waited = True
            break
        time.sleep(0.02)
    release.set()
    holder.join(timeout=30)
    waiter.join(timeout=30)
    assert (waited, outcome) == (True, {"second": "player.name_taken"})
    assert sorted(Player.objects.filter(club=club).values_list("name", flat=True)) == sorted(["Zhang", "小李"])
