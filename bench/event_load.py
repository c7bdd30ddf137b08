"""An event's load on the production server (`make serve`'s gunicorn) on PostgreSQL: a round of many tables
recording hands while a room of spectators polls.

    make bench-load                                          # 100 tables, 1,000 spectators, 60 s
    .venv/bin/python bench/event_load.py --tables 10 --spectators 100 --seconds 15

Like bench/load.py it makes a throwaway database (`--database`, default `baifen_event_load`) on the PostgreSQL
server of `BENCH_PG_URL`, migrates it, seeds the API club (`manage.py api_seed`) and starts gunicorn on a free port
of 127.0.0.1. Then, through the services, an event of `--tables` × 4 players (本溪) and its first round drawn
(random), a share link for every table, and a logged-in browser session for the big screens. For `--seconds`:

- every table records `--hands` hands (`POST sessions/{id}/hands/`, the scorekeeper's phone), spread evenly
  over the time, one table's hands in order;
- `--spectators` poll every `--poll` seconds with the ETag they have (`If-None-Match`): one in ten the event's
  big screen (`screen/live/`), the others a table's share fragment (`s/{token}/live/`);
- the floor: a bare DRF create of one row (bench/urls.py) at the writes' rate, on the same server in the same
  run, so the writes' p95 is printed as a ratio to it as well as in ms.

A spectator polls again `--poll` seconds after its answer came (as share.js does), so a slow server sees fewer
polls, never a backlog. It prints the writes' and the polls' counts, errors and p50/p95, the polls answered 304,
and stops the server and drops the database. Bounded: no poll is sent after `--seconds`, no hand after 30 s more
(GRACE, then an error), and it touches nothing but 127.0.0.1.
"""

from __future__ import annotations

import argparse
import heapq
import http.client
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import (  # noqa: E402
    PYTHON,
    Wire,
    cache_named,
    database_reset,
    database_url,
    free_port,
    local_url,
    percentile,
    server_start,
    server_stop,
)
from bench.run import benxi_session  # noqa: E402

GRACE = 30.0  # seconds an answer on its way may still take after the last request is sent

# Run by `manage.py shell` on the throwaway database: the event, its round, the share links and a browser login.
SETUP = """
import json
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
from settlement import services
from settlement.models import Club
club, user = Club.objects.get(slug="api"), User.objects.get(username="api")
players = [f"选手{n:03d}" for n in range(1, 4 * TABLES + 1)]
event = services.event_create(club=club, user=user, name="百桌赛", variant="baifen.benxi", players=players)
round_ = services.round_draw(event=event, user=user, draw="random", seed=1)
sessions = [table.session for table in round_.tables.select_related("session").order_by("pk")]
shares = [services.share_create(session=session, user=user).token for session in sessions]
login = SessionStore()
login[SESSION_KEY], login[BACKEND_SESSION_KEY] = str(user.pk), "django.contrib.auth.backends.ModelBackend"
login[HASH_SESSION_KEY] = user.get_session_auth_hash()
login.create()
print(json.dumps({"event": event.pk, "sessions": [s.pk for s in sessions], "shares": shares,
                  "cookie": login.session_key}))
"""


class Samples:
    """Latencies and errors by kind, from many threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)
        self.not_modified: dict[str, int] = defaultdict(int)

    def add(self, kind: str, seconds: float, ok: bool, *, not_modified: bool = False) -> None:
        with self.lock:
            self.times[kind].append(seconds)
            self.errors[kind] += not ok
            self.not_modified[kind] += not_modified


def writes_run(
    *, base: str, token: str, sessions: list[int], hands: int, seconds: float, began: float, samples: Samples
) -> None:
    """One thread per table: its hands at even intervals (tables staggered), then the floor's create in step."""
    cycle = benxi_session(hands)["hands"]

    def table(index: int, session_id: int) -> None:
        wire = Wire(base, {"Authorization": f"Token {token}", "Accept-Language": "zh-Hans"}, timeout=GRACE)
        step = seconds / hands
        for n in range(hands):
            due = began + n * step + (index / len(sessions)) * step
            if time.monotonic() > began + seconds + GRACE:  # bounded: a hand not sent by then is an error
                samples.add("write", 0.0, False)
                continue
            time.sleep(max(0.0, due - time.monotonic()))
            for kind, path, body, expected in (
                ("write", f"/api/v1/sessions/{session_id}/hands/", cycle[n], 201),
                ("floor", "/bench/bare/", {"name": "bare", "slug": f"bare-{session_id}-{n}"}, 201),
            ):
                start = time.perf_counter()
                try:
                    ok = wire.send("POST", path, body=body)[0] == expected
                except (OSError, http.client.HTTPException):
                    ok = False
                samples.add(kind, time.perf_counter() - start, ok)

    threads = [threading.Thread(target=table, args=(i, s), daemon=True) for i, s in enumerate(sessions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 2 * GRACE)


def polls_run(
    *,
    base: str,
    paths: list[str],
    cookie: str,
    spectators: int,
    poll: float,
    seconds: float,
    began: float,
    threads: int,
    samples: Samples,
) -> None:
    """`spectators` pollers, each every `poll` seconds with its last ETag, served by `threads` threads."""
    due = [(began + poll * i / spectators, i) for i in range(spectators)]  # first polls spread over one period
    heapq.heapify(due)
    etags: dict[int, str] = {}
    lock = threading.Lock()
    end = began + seconds

    def worker() -> None:
        wire = Wire(base, {"Cookie": f"sessionid={cookie}", "Accept-Language": "zh-Hans"}, timeout=GRACE)
        while True:
            with lock:
                if not due or due[0][0] >= end or time.monotonic() >= end:
                    return
                when, who = heapq.heappop(due)
            time.sleep(max(0.0, when - time.monotonic()))
            path = paths[who % len(paths)]
            headers = {"If-None-Match": etags[who]} if who in etags else {}
            kind = "screen" if "/screen/" in path else "share"
            start = time.perf_counter()
            try:
                status, answer = wire.send("GET", path, headers=headers)
                ok = status in (200, 304)
                if ok and answer.get("ETag"):
                    etags[who] = answer["ETag"]
                samples.add(kind, time.perf_counter() - start, ok, not_modified=status == 304)
            except (OSError, http.client.HTTPException):
                samples.add(kind, time.perf_counter() - start, False)
            with lock:  # as share.js does: the next poll `poll` seconds after this answer, never a catch-up burst
                heapq.heappush(due, (time.monotonic() + poll, who))

    pool = [threading.Thread(target=worker, daemon=True) for _ in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join(timeout=seconds + 2 * GRACE)


def report(samples: Samples, *, args: argparse.Namespace, elapsed: float) -> dict[str, float]:
    print(
        f"Event load: {args.tables} tables × {args.hands} hands and {args.spectators} spectators polling every"
        f" {args.poll:g} s, for {elapsed:.0f} s, against gunicorn on PostgreSQL ({os.cpu_count()} CPUs seen,"
        f" shared with whatever else runs here; the cache: {cache_named()})."
    )
    print(f"  {'kind':<8} {'requests':>9} {'errors':>7} {'304s':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    figures = {}
    for kind in ("write", "floor", "screen", "share"):
        times = samples.times.get(kind, [])
        figures[kind] = percentile(times, 95) * 1e3
        print(
            f"  {kind:<8} {len(times):>9} {samples.errors.get(kind, 0):>7} {samples.not_modified.get(kind, 0):>6}"
            f" {percentile(times, 50) * 1e3:>8.1f}"
            f" {figures[kind]:>8.1f} {max(times, default=float('nan')) * 1e3:>8.1f}"
        )
    polls = len(samples.times.get("screen", [])) + len(samples.times.get("share", []))
    errors = sum(samples.errors.values())
    print(
        f"Writes: p95 {figures['write']:.0f} ms (target ≤ 150), {figures['write'] / figures['floor']:.2f}× the"
        f" floor's (a bare DRF create, same run); errors {errors} (target 0);"
        f" polls {polls / elapsed:.0f}/s, {sum(samples.not_modified.values()) / max(1, polls):.0%} answered 304"
    )
    return figures


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--hands", type=int, default=3, help="hands each table records")
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument("--poll", type=float, default=5.0, help="seconds between a spectator's polls")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--poll-threads", type=int, default=40, help="threads sending the spectators' polls")
    parser.add_argument("--database", default=os.environ.get("BENCH_EVENT_LOAD_DB", "baifen_event_load"))
    args = parser.parse_args(argv)
    if not (1 <= args.tables <= 200 and 1 <= args.hands <= 20 and 0 <= args.spectators <= 5000):
        raise SystemExit("bench/event_load.py: at most 200 tables, 20 hands a table and 5,000 spectators")
    if not (0 < args.seconds <= 600 and args.poll >= 1):
        raise SystemExit("bench/event_load.py: --seconds up to 600, --poll at least 1")
    admin_url = local_url(os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432/postgres"))
    port = free_port()
    base = local_url(f"http://127.0.0.1:{port}")
    data_dir = tempfile.mkdtemp(prefix="baifen-event-load-")
    env = {
        **os.environ,
        "DATABASE_URL": database_url(admin_url, args.database),
        "BAIFEN_BIND": f"127.0.0.1:{port}",
        "BAIFEN_DATA_DIR": data_dir,
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(40),
        "BAIFEN_API_RATE_USER": "100000000/hour",
        "DJANGO_DEBUG": "0",
        "DJANGO_LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "bench.settings",  # the site and the floor's bare DRF create
        "BAIFEN_CACHE_KEY_PREFIX": f"bench-{secrets.token_hex(4)}",  # as bench/load.py
    }
    database_reset(admin_url, args.database, create=True)
    server = None
    try:
        for command in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
            subprocess.run([PYTHON, "manage.py", *command], cwd=ROOT, env=env, check=True)

        def manage(*command: str) -> str:
            done = subprocess.run(
                [PYTHON, "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True, text=True
            )
            return done.stdout.strip().splitlines()[-1]

        token = manage("api_seed").split()[-1]
        made = json.loads(manage("shell", "-c", f"TABLES = {args.tables}\n" + SETUP))
        server = server_start(env=env, base=base, log_path=Path(data_dir) / "gunicorn.log")
        screen = f"/clubs/api/events/{made['event']}/screen/live/"
        # One spectator in ten watches the big screen, the others a table's share fragment.
        paths = [
            screen if n % 10 == 0 else f"/s/{made['shares'][n % len(made['shares'])]}/live/"
            for n in range(max(1, args.spectators))
        ]
        samples = Samples()
        began = time.monotonic()
        writer = threading.Thread(
            target=writes_run,
            kwargs={
                "base": base,
                "token": token,
                "sessions": made["sessions"],
                "hands": args.hands,
                "seconds": args.seconds,
                "began": began,
                "samples": samples,
            },
            daemon=True,
        )
        writer.start()
        if args.spectators:
            polls_run(
                base=base,
                paths=paths,
                cookie=made["cookie"],
                spectators=args.spectators,
                poll=args.poll,
                seconds=args.seconds,
                began=began,
                threads=min(args.poll_threads, args.spectators),
                samples=samples,
            )
        writer.join(timeout=args.seconds + 2 * GRACE)
        elapsed = time.monotonic() - began
        figures = report(samples, args=args, elapsed=elapsed)
        return {
            "figures": figures,
            "errors": dict(samples.errors),
            "counts": {k: len(v) for k, v in samples.times.items()},
            "not_modified": samples.not_modified,
        }
    finally:
        if server is not None:
            server_stop(server)
        database_reset(admin_url, args.database, create=False)
        shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
