"""What the statistics pages cost as a club's history grows: 1,000 sessions against 10, and against /healthz.

In process, through Django's test client, on a throw-away SQLite database. The standings page, its CSV and
Excel downloads, the player page (with its records and achievements), the records page, the leaderboard with
its rating graph (by date and by games played) and `GET clubs/{slug}/players/{id}/stats/` are timed with 10
sessions and again with 1,000 (each 5 hands of 本溪, imported); they read aggregates of the stored rows in a
fixed number of queries, so what grows is the database's aggregation and the rows drawn (a player's running-total chart
has a point per session, the rating graph at most 120 a line). Last, a hand that ends a game at the club's newest
table, with each history: it rates that game from its players' last ratings, which must not cost more as the
club's rating rows pile up.

    .venv/bin/python bench/stats.py

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

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from settlement.models import RatingRow  # noqa: E402
from tests.factories import BENXI_EXAMPLE as HANDS  # noqa: E402  (rules/baifen.md's 本溪 example)

NAMES = ["王", "李", "张", "赵", "钱", "孙"]


def timed(client: Client, url: str, repeat: int) -> tuple[float, int, int]:
    """Median seconds of `repeat` GETs, the bytes of the last answer and its queries."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - start)
        assert response.status_code == 200, (url, response.status_code)
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    return statistics.median(times), len(response.content), len(queries.captured_queries)


def grow(club, owner, upto: int, have: int) -> None:
    from settlement import services

    for i in range(have, upto):
        players = [NAMES[(i + k) % len(NAMES)] for k in range(4)]
        document = {"variant": "baifen.benxi", "date": f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}", "players": players}
        services.session_import(club=club, user=owner, document={**document, "hands": HANDS, "venue": f"t{i}"})


def game_end(club, owner, repeat: int) -> float:
    """Median seconds of `services.hand_record` for a hand that finishes a game, at the club's newest table (a
    fresh table each time: 18 hands imported, the 19th ends the game), so its ratings are rated in place."""
    from settlement import services

    times = []
    for i in range(repeat):
        document = {"variant": "baifen.benxi", "date": "2027-01-01", "players": NAMES[:4], "venue": f"end{i}"}
        hands = (HANDS * 4)[:18]
        session = services.session_import(club=club, user=owner, document={**document, "hands": hands}, close=False)
        start = time.perf_counter()
        services.hand_record(session=session.session, user=owner, hand_input=HANDS[18 % len(HANDS)])
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    inprocess.throwaway_database()
    from tests.factories import make_club, make_member

    club = make_club("Bench", slug="bench")
    owner = make_member(club)
    client = Client()
    client.force_login(owner)
    api = Client(HTTP_AUTHORIZATION="")
    api.force_login(owner)
    repeat = int(os.environ.get("BENCH_REPEAT", "15"))
    floor, _, _ = timed(client, "/healthz", repeat * 5)
    grow(club, owner, 10, 0)
    wang = club.players.get(name="王").pk
    pages = {
        "standings page": "/clubs/bench/standings/",
        "standings CSV": "/clubs/bench/standings.csv",
        "standings Excel": "/clubs/bench/standings.xlsx",
        "player page": f"/clubs/bench/players/{wang}/",
        "leaderboard, by date": "/clubs/bench/leaderboard/",
        "leaderboard, by games": "/clubs/bench/leaderboard/?by=games",
        "records page": "/clubs/bench/records/",
        "GET standings/": "/api/v1/clubs/bench/standings/",
        "GET players/{id}/stats/": f"/api/v1/clubs/bench/players/{wang}/stats/",
    }
    small = {name: timed(api if "GET" in name else client, url, repeat) for name, url in pages.items()}
    end_small = game_end(club, owner, repeat)
    start = time.perf_counter()
    grow(club, owner, 1000, 10 + repeat)
    print(f"(imported {990 - repeat} sessions in {time.perf_counter() - start:.0f} s)")
    large = {name: timed(api if "GET" in name else client, url, repeat) for name, url in pages.items()}
    end_large = game_end(club, owner, repeat)
    ratings = RatingRow.objects.filter(club=club).count()
    print(f"{'figure':28} {'10 / healthz':>13} {'1,000 / healthz':>16} {'1,000 / 10':>11} {'queries':>8}  bytes")
    for name in pages:
        (t10, b10, q10), (t1k, b1k, q1k) = small[name], large[name]
        print(
            f"{name:28} {t10 / floor:12.1f}× {t1k / floor:15.1f}× {t1k / t10:10.2f}× {q10:>3} → {q1k:<3} "
            f"{b10 / 1024:.0f} → {b1k / 1024:.0f} KB"
        )
    # A game's end rates that game from each player's last rating: what it costs must not grow with the history.
    print(
        f"{'a hand ending a game':28} {end_small * 1e3:11.1f}ms {end_large * 1e3:14.1f}ms"
        f" {end_large / end_small:10.2f}×"
        f"   (target ≤ 1.2; services.hand_record, {ratings:,} rating rows at the end)"
    )


if __name__ == "__main__":
    main()
