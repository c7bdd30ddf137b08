"""Several writers recording hands at once: the workload of `test_concurrent_writers.py`.

`writers_run` is shared by the in-process PostgreSQL test and by this module run
as a script (`python -m tests.services.writers DB_FILE`), which sets up a fresh
file SQLite database with the project's own settings and prints what happened as
JSON — the SQLite settings (WAL, IMMEDIATE transactions, busy timeout) are what
is under test there, so it must not run inside pytest's in-memory test database.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from typing import Any

THREADS = 8
HANDS_EACH = 3
# 打百分 (本溪): a bid of 100 is allowed at every place, so any order of the writers is a valid log.
HAND = {"declarer": 0, "bid": 100, "captured": 20}


def writers_run(*, sessions: list[Any], user: Any, threads: int = THREADS, hands_each: int = HANDS_EACH) -> list[str]:
    """`threads` writers, spread over `sessions`, each recording `hands_each` hands; the errors they met."""
    from django.db import connections

    from settlement import services

    barrier = threading.Barrier(threads)
    errors: list[str] = []

    def write(session: Any) -> None:
        try:
            barrier.wait()
            for _ in range(hands_each):
                services.hand_record(session=session, user=user, hand_input=HAND)
        except Exception as exc:
            errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            connections.close_all()

    workers = [threading.Thread(target=write, args=(sessions[i % len(sessions)],)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return errors


def _scenario(*, club: Any, owner: Any, session_count: int) -> dict[str, Any]:
    from settlement import services
    from settlement.models import Hand, SettlementRow

    sessions = [
        services.session_open(club=club, user=owner, variant="baifen.benxi", players=["甲", "乙", "丙", "丁"])
        for _ in range(session_count)
    ]
    errors = writers_run(sessions=sessions, user=owner)
    return {
        "errors": errors,
        "numbers": [
            sorted(Hand.objects.filter(session=session).values_list("number", flat=True)) for session in sessions
        ],
        "settlement_rows": [SettlementRow.objects.filter(session=session).count() for session in sessions],
    }


def main(db_file: str) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{db_file}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baifen_ledger.settings")
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from settlement.models import Club, Membership, Role

    call_command("migrate", verbosity=0)
    club = Club.objects.create(name="Writers", slug="writers")
    owner = User.objects.create_user(username="owner")
    Membership.objects.create(user=owner, club=club, role=Role.OWNER)
    report = {str(count): _scenario(club=club, owner=owner, session_count=count) for count in (1, 2)}
    print(json.dumps(report))


if __name__ == "__main__":
    main(sys.argv[1])
