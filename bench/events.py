"""What an event's standings and big screen cost as the room grows: 100 tables against 4, and against /healthz.

In process, through Django's test client, on a throw-away SQLite database. Two events of 本溪, one of 4 tables
(16 players) and one of 100 (400 players), each with 3 balanced rounds and 2 hands recorded at every table. Timed:
`GET events/{id}/standings/`, the event page, the big screen's fragment rendered afresh (its cache cleared) and
its idle poll (a 304 from the stored versions). Each reads stored rows in a fixed number of queries, so the
queries stay flat from 4 tables to 100; what grows is the rows drawn (100 tables on the screen, 400 players in
the standings).

    .venv/bin/python bench/events.py

Compare ratios, not milliseconds, across machines.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench import inprocess

inprocess.setup()

from django.core.cache import cache  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from tests.factories import BENXI_EXAMPLE as HANDS  # noqa: E402  (rules/baifen.md's 本溪 example)

ROUNDS = 3


def timed(client: Client, url: str, repeat: int, *, status: int = 200, **headers: str) -> tuple[float, int]:
    """Median seconds of `repeat` GETs (the screen's fragment cache cleared before each) and the queries of one."""
    times = []
    for _ in range(repeat):
        cache.clear()
        start = time.perf_counter()
        response = client.get(url, headers=headers)
        times.append(time.perf_counter() - start)
        assert response.status_code == status, (url, response.status_code)
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        client.get(url, headers=headers)
    return statistics.median(times), len(queries.captured_queries)


def event_made(club, owner, tables: int):
    from settlement import services

    event = services.event_create(
        club=club,
        user=owner,
        name=f"{tables} 桌",
        variant="baifen.benxi",
        players=[f"P{i:03}" for i in range(tables * 4)],
    )
    for n in range(ROUNDS):
        services.round_draw(event=event, user=owner, draw="balanced", seed=n, close_open=n > 0)
        for table in event.rounds.get(n=n + 1).tables.select_related("session"):
            for hand in HANDS[:2]:
                services.hand_record(session=table.session, user=owner, hand_input=hand)
    return event


def main() -> None:
    inprocess.throwaway_database()
    from tests.factories import make_club, make_member

    club = make_club("Bench", slug="bench")
    owner = make_member(club)
    client = Client()
    client.force_login(owner)
    api = Client(HTTP_AUTHORIZATION="")
    api.force_login(owner)
    repeat = int(os.environ.get("BENCH_REPEAT", "9"))
    floor, _ = timed(client, "/healthz", repeat * 5)
    start = time.perf_counter()
    events = {tables: event_made(club, owner, tables) for tables in (4, 100)}
    made = time.perf_counter() - start
    print(f"(two events, {ROUNDS} rounds of 4 and 100 tables with their hands, made in {made:.0f} s)")

    def figures(event) -> dict[str, tuple[float, int]]:
        base = f"/clubs/bench/events/{event.pk}/"
        etag = client.get(base + "screen/live/")["ETag"]
        return {
            "GET events/{id}/standings/": timed(api, f"/api/v1/events/{event.pk}/standings/", repeat),
            "event page": timed(client, base, repeat),
            "big screen fragment": timed(client, base + "screen/live/", repeat, if_none_match='"other"'),
            "big screen idle poll (304)": timed(client, base + "screen/live/", repeat, status=304, if_none_match=etag),
        }

    small, large = figures(events[4]), figures(events[100])
    print(f"{'figure':28} {'4 / healthz':>12} {'100 / healthz':>14} {'100 / 4':>8} {'queries':>9}")
    for name in small:
        (t4, q4), (t100, q100) = small[name], large[name]
        flat = "flat" if q4 == q100 else "GROWS"
        print(f"{name:28} {t4 / floor:11.1f}× {t100 / floor:13.1f}× {t100 / t4:7.2f}× {q4:>3} → {q100:<3} {flat}")


if __name__ == "__main__":
    main()
