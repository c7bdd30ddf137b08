"""Eight writers at once, into one session and into two: every hand lands, numbered without gap or repeat.

SQLite (the default database) queues writers only with the settings made for it
(WAL, transactions that take the write lock at BEGIN, a busy timeout); without
them some writers fail with `database is locked`. That runs against a file
database in a process of its own (`writers.py`), on every CI pass; on
PostgreSQL the same workload runs in-process against the test database.

Two writes that race on the club's players (PostgreSQL only: SQLite's writers never overlap), the first held
uncommitted while the second runs: two renames to look-alike names (the second waits on the club's row, which
`services.players` locks with the player's, and is refused), two openings that make one new guest (the second
takes the first's), two imports or two submits of one new-session form under one key (the second is the
first's replay). And a player merged or renamed while eight writers record hands into the sessions the player
sat in: every write takes its locks in the one order (`services.common`), so none deadlocks.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
import threading
import time
from collections.abc import Callable

import pytest
from django.db import connection, connections, transaction

from settlement import services
from settlement.ledger import LedgerError
from settlement.models import Hand, Player, Session, SettlementRow
from settlement.services import player_rename
from tests.conftest import ROOT
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_player, make_session, record_hands
from tests.services.writers import HAND, HANDS_EACH, THREADS, writers_run

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


def _while_uncommitted(
    first: Callable[[], object], second: Callable[[], object], meanwhile: Callable[[], object] | None = None
) -> tuple[bool, dict[str, str]]:
    """Run `first` in a transaction held open until `second`, on another connection, has finished or waits on a lock;
    then `meanwhile` (committed at once), then let `first` commit.

    Answers whether `second` was seen waiting, and each write's error ("second": its code, or "done").
    """
    first_done, release = threading.Event(), threading.Event()
    outcome: dict[str, str] = {}

    def run(key: str, write: Callable[[], object], hold: bool) -> None:
        try:
            with transaction.atomic():
                write()
                if hold:
                    first_done.set()
                    release.wait(timeout=30)
            if not hold:
                outcome[key] = "done"
        except LedgerError as exc:
            outcome[key] = exc.code
        except Exception as exc:
            outcome[key] = f"{type(exc).__name__}: {exc}"
        finally:
            first_done.set()
            connections.close_all()

    holder = threading.Thread(target=run, args=("first", first, True))
    holder.start()
    first_done.wait(timeout=30)
    waiter = threading.Thread(target=run, args=("second", second, False))
    waiter.start()
    deadline = time.monotonic() + 30
    waited = False
    while waiter.is_alive() and time.monotonic() < deadline:
        if _lock_waiters():
            waited = True
            break
        time.sleep(0.02)
    if meanwhile is not None:
        meanwhile()
    release.set()
    holder.join(timeout=30)
    waiter.join(timeout=30)
    return waited, outcome


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite writers never overlap")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("second_name", ["zhang", "Zhang"])  # a look-alike (`name_key`) and the very name
def test_a_rename_while_another_in_the_club_is_uncommitted_waits_for_it_and_is_refused(second_name):
    # `services.players` locks the club's row with the player's. Without that lock the second rename reads the
    # names as they were: `zhang` passes (two look-alikes in one club), `Zhang` fails on the unique constraint.
    club = make_club()
    owner = make_member(club)
    first, second = make_player(club, "小王"), make_player(club, "小李")
    waited, outcome = _while_uncommitted(
        lambda: player_rename(player=first, user=owner, name="Zhang"),
        lambda: player_rename(player=second, user=owner, name=second_name),
    )
    assert (waited, outcome) == (True, {"second": "player.name_taken"})
    assert sorted(Player.objects.filter(club=club).values_list("name", flat=True)) == sorted(["Zhang", "小李"])


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite writers never overlap")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("other_club_guest", [False, True])
def test_two_sessions_opened_at_once_with_one_new_name_seat_one_guest(other_club_guest):
    # Each opening finds no player of that name and makes a guest; the second's insert waits for the first's
    # and then takes the guest it made (`ignore_conflicts`) rather than failing on the unique constraint.
    # Another club's player of that name, made while the second waits, is newer than the guest: the second
    # must still take its own club's.
    club = make_club()
    owner = make_member(club)
    opened: list[Session] = []
    waited, outcome = _while_uncommitted(
        lambda: opened.append(make_session(club, owner, players=["新人", "甲", "乙", "丙"])),
        lambda: opened.append(make_session(club, owner, players=["丁", "戊", "己", "新人"])),
        meanwhile=(lambda: make_player(make_club("西城俱乐部"), "新人")) if other_club_guest else None,
    )
    assert (waited, outcome) == (True, {"second": "done"})
    (guest,) = Player.objects.filter(club=club, name="新人")
    assert [session.seats.get(player=guest).seat for session in opened] == [0, 3]


IMPORTED = {"variant": "baifen.benxi", "players": ["甲", "乙", "丙", "丁"], "hands": BENXI_EXAMPLE[:2]}


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite writers never overlap")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("second_document", "second_outcome"),
    [(IMPORTED, "done"), ({**IMPORTED, "hands": BENXI_EXAMPLE[:1]}, "client_key.reused")],
)
def test_two_imports_at_once_under_one_key_make_one_session_and_the_second_is_its_replay(
    second_document, second_outcome
):
    # Both find no session under the key; the second's insert waits on the first's and then loses the unique
    # constraint: it answers as a retry would (the same session, or the key's reuse refused), not an IntegrityError.
    club = make_club()
    owner = make_member(club)
    writes: list[services.SessionWrite] = []
    waited, outcome = _while_uncommitted(
        lambda: writes.append(services.session_import(club=club, user=owner, document=IMPORTED, client_key="k1")),
        lambda: writes.append(
            services.session_import(club=club, user=owner, document=second_document, client_key="k1")
        ),
    )
    assert (waited, outcome) == (True, {"second": second_outcome})
    (session,) = Session.objects.filter(club=club)
    assert [(write.session.pk, write.created) for write in writes] == [(session.pk, True)] + (
        [(session.pk, False)] if second_outcome == "done" else []
    )
    assert Hand.objects.filter(session=session).count() == 2


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite writers never overlap")
@pytest.mark.django_db(transaction=True)
def test_a_new_session_form_submitted_twice_at_once_opens_one_session():
    club = make_club()
    owner = make_member(club)
    opened: list[Session] = []
    waited, outcome = _while_uncommitted(
        lambda: opened.append(make_session(club, owner, client_key="form-1")),
        lambda: opened.append(make_session(club, owner, client_key="form-1")),
    )
    assert (waited, outcome) == (True, {"second": "done"})
    (session,) = Session.objects.filter(club=club)
    assert [s.pk for s in opened] == [session.pk, session.pk]


def _while_recording(sessions: list[Session], user, edit: Callable[[], object], *, writers: int = 8) -> list[str]:
    """`writers` threads each recording hands into `sessions` (round robin) while `edit` runs on a connection of its
    own, all started at once; the errors any of them met."""
    barrier = threading.Barrier(writers + 1)
    errors: list[str] = []

    def run(write: Callable[[], object]) -> None:
        try:
            barrier.wait(timeout=30)
            write()
        except Exception as exc:
            errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            connections.close_all()

    def record(session: Session) -> Callable[[], None]:
        def write() -> None:
            for _ in range(HANDS_EACH):
                services.hand_record(session=session, user=user, hand_input=HAND)

        return write

    threads = [threading.Thread(target=run, args=(record(sessions[i % len(sessions)]),)) for i in range(writers)]
    threads.append(threading.Thread(target=run, args=(edit,)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return errors


def _renames(*, player: Player, user, names: list[str]) -> None:
    for name in names:
        player_rename(player=player, user=user, name=name)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite writers never overlap")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("edit", ["merge", "rename"])
def test_a_player_merged_or_renamed_while_hands_are_recorded_deadlocks_nothing(edit):
    # The hands' writers lock their session, then (rebuilding the ratings) the club, and name the players in the
    # rows they insert (a key-share lock); a merge or rename takes its locks in that same order, never in reverse.
    club = make_club()
    owner = make_member(club)
    played = [make_session(club, owner, players=["甲", "乙", "丙", "丁"]) for _ in range(2)]
    played.append(make_session(club, owner, players=["甲二", "乙", "丙", "丁"]))
    for session in played:
        record_hands(session, owner, BENXI_EXAMPLE)
    jia = Player.objects.get(club=club, name="甲")
    into = Player.objects.get(club=club, name="甲二")
    for round_ in range(3):  # a deadlock needs an unlucky interleaving: give it a few chances
        if edit == "merge":
            run = functools.partial(services.player_merge, player=jia, into=into, user=owner)
        else:
            run = functools.partial(_renames, player=jia, user=owner, names=[f"甲{round_}-{k}" for k in range(5)])
        assert _while_recording(played, owner, run) == []
        if edit == "merge":
            jia = make_player(club, f"甲{round_}")  # the next round's merged record, in a session of its own
            played[0] = make_session(club, owner, players=[jia, "乙", "丙", "丁"])
            record_hands(played[0], owner, BENXI_EXAMPLE)
