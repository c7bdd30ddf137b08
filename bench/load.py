"""A bounded load against the production server (`make serve`'s gunicorn) on PostgreSQL: throughput and latency.

    make bench-load                                  # 10 clients for 60 s
    .venv/bin/python bench/load.py --seconds 15      # shorter

It makes a throwaway database (`--database`, default `baifen_load`) on the PostgreSQL server of `BENCH_PG_URL`
(default `postgres://postgres@127.0.0.1:5432/postgres`), migrates it, seeds a club and its owner's token
(`manage.py api_seed`), starts gunicorn with `gunicorn.conf.py` on a free port of 127.0.0.1, and gives each
client its own open 本溪 session, a table of its own four players (an import of `--hands` hands). Then `--clients`
threads send requests for `--seconds` seconds, each picking at random: 40 % writes (`POST sessions/{id}/hands/`,
the session's next hand), 30 % reads (`GET sessions/{id}/`, or its `entry/`) and 30 % previews
(`POST …/hands/preview/`). It prints requests per second and p50/p95/p99 per kind and overall, stops the server
and drops the database. It touches nothing but 127.0.0.1, and stops by itself.

The floor, in the same run on the same server (bench/settings.py serves bench/urls.py's bare DRF views beside the
site): the same clients and mix against a bare DRF create of one row (the writes) and a bare DRF read of one row
(the reads and previews), in blocks alternating with the app's (`--blocks`, each `--seconds` / blocks long), so a
burst of other load on the machine falls on both. It prints the app's throughput and p95 against the floor's.

`--sqlite` runs it all on a SQLite file in a temporary folder instead (`make serve`'s default database).

Before the load, one request at a time over one kept-alive connection (one worker answers it): hand entry at hand
#10 and at #1,000 against the bare create, in alternating blocks (`--sequential` requests of each), as ratios: of the
run's medians, and the lowest and highest of the blocks' own.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
import requests
from psycopg import sql

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.run import benxi_session  # noqa: E402

PYTHON = str(ROOT / ".venv" / "bin" / "python")
GUNICORN = str(ROOT / ".venv" / "bin" / "gunicorn")
LOCAL = {"127.0.0.1", "localhost", "::1"}
MIX = (("write", 0.4), ("read", 0.3), ("preview", 0.3))


def cache_named() -> str:
    """Which cache the server shares between its workers (settings.CACHES): Redis, or the database's table."""
    return "Redis (BAIFEN_REDIS_URL)" if os.environ.get("BAIFEN_REDIS_URL") else "the database's table"


def local_url(url: str) -> str:
    """`url` itself, refused unless it points at this machine."""
    host = urlsplit(url).hostname
    if host not in LOCAL:
        raise SystemExit(f"bench/load.py touches only 127.0.0.1, not {host!r}")
    return url


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def database_url(admin_url: str, name: str) -> str:
    parts = urlsplit(admin_url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", "", ""))


def database_reset(admin_url: str, name: str, *, create: bool) -> None:
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        if create:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def server_start(*, env: dict[str, str], base: str, log_path: Path) -> subprocess.Popen[bytes]:
    """`make serve`'s gunicorn (gunicorn.conf.py) in a process group of its own, once it answers /healthz. The
    access log is left out: it would time the terminal, not the server."""
    log = open(log_path, "w")  # noqa: SIM115 # the server's; closed when the process ends
    server = subprocess.Popen(
        [GUNICORN, "--config", "gunicorn.conf.py", "--access-logfile", "/dev/null"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    for _ in range(200):
        try:
            if requests.get(f"{base}/healthz", timeout=1).status_code == 200:
                return server
        except requests.RequestException:
            pass
        time.sleep(0.1)
    server_stop(server)
    raise SystemExit(f"the server did not answer; its log: {log_path}")


def server_stop(server: subprocess.Popen[bytes]) -> None:
    """Stop gunicorn's master and workers (its process group): TERM, then KILL after 30 s."""
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()


def percentile(samples: list[float], p: float) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


class Wire:
    """A phone's kept-alive HTTP/1.1 connection, on the standard library's http.client: the load's own CPU is a
    share of the same two cores as the server's, and `requests` spent about 1.5 ms of it on every request of
    bench/event_load.py's 140 threads. A connection idle longer than the server keeps one (gunicorn's keep-alive,
    2 s) is opened again before it is used, as urllib3 does; one that fails is an error, never sent again."""

    IDLE = 1.5  # seconds: under gunicorn's `keepalive`

    def __init__(self, base: str, headers: dict[str, str], *, timeout: float) -> None:
        parts = urlsplit(base)
        self.host, self.port, self.timeout = parts.hostname or "127.0.0.1", parts.port or 80, timeout
        self.headers = headers
        self.connection: http.client.HTTPConnection | None = None
        self.used = 0.0

    def send(
        self, method: str, path: str, *, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, http.client.HTTPMessage]:
        """The answer's status and headers (its body read and dropped); OSError or HTTPException when it fails."""
        data = None if body is None else json.dumps(body).encode()
        sent = {**self.headers, **(headers or {})}
        if data is not None:
            sent["Content-Type"] = "application/json"
        if self.connection is not None and time.monotonic() - self.used > self.IDLE:
            self.close()
        if self.connection is None:
            self.connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        try:
            self.connection.request(method, path, body=data, headers=sent)
            response = self.connection.getresponse()
            response.read()
        except (OSError, http.client.HTTPException):
            self.close()
            raise
        self.used = time.monotonic()
        if response.will_close:
            self.close()
        return response.status, response.headers

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


class Client:
    """One scorekeeper's device: its own session, its next hand, requests until the deadline (`block`); or, `bare`,
    the same mix against the bare DRF views (bench/urls.py)."""

    def __init__(
        self,
        *,
        base: str,
        token: str,
        session_id: int,
        hands: list[dict[str, Any]],
        position: int,
        seed: int,
        bare: bool = False,
    ) -> None:
        self.base, self.session_id, self.hands, self.position = base, session_id, hands, position
        self.bare, self.seed, self.made = bare, seed, 0
        self.deadline = 0.0
        self.random = random.Random(seed)
        self.wire = Wire(base, {"Authorization": f"Token {token}", "Accept-Language": "zh-Hans"}, timeout=30)
        self.samples: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)

    def block(self, seconds: float) -> threading.Thread:
        """Requests for `seconds`, in a thread of its own (started)."""
        self.deadline = time.monotonic() + seconds
        thread = threading.Thread(target=self.run_bare if self.bare else self.run, daemon=True)
        thread.start()
        return thread

    def run_bare(self) -> None:
        while time.monotonic() < self.deadline:
            kind = self.random.choices([k for k, _ in MIX], weights=[w for _, w in MIX])[0]
            start = time.perf_counter()
            try:
                if kind == "write":
                    self.made += 1
                    club = {"name": "bare", "slug": f"bare-{self.seed}-{self.made}"}
                    ok = self.wire.send("POST", "/bench/bare/", body=club)[0] == 201
                else:
                    ok = self.wire.send("GET", "/bench/bare/api/")[0] == 200
            except (OSError, http.client.HTTPException):
                ok = False
            self.samples[kind].append(time.perf_counter() - start)
            if not ok:
                self.errors[kind] += 1

    def run(self) -> None:
        session = f"/api/v1/sessions/{self.session_id}"
        while time.monotonic() < self.deadline:
            kind = self.random.choices([k for k, _ in MIX], weights=[w for _, w in MIX])[0]
            hand = self.hands[self.position % len(self.hands)]
            start = time.perf_counter()
            try:
                if kind == "write":
                    ok = self.wire.send("POST", f"{session}/hands/", body=hand)[0] == 201
                    if ok:
                        self.position += 1
                elif kind == "preview":
                    ok = self.wire.send("POST", f"{session}/hands/preview/", body=hand)[0] == 200
                else:
                    path = "/" if self.random.random() < 0.5 else "/entry/"
                    ok = self.wire.send("GET", f"{session}{path}")[0] == 200
            except (OSError, http.client.HTTPException):
                ok = False
            elapsed = time.perf_counter() - start
            self.samples[kind].append(elapsed)
            if not ok:
                self.errors[kind] += 1


def session_import(*, base: str, headers: dict[str, str], document: dict[str, Any], players: list[str]) -> int:
    """An open session of `document`'s hands at a table of `players`, imported through the API: its id."""
    response = requests.post(
        f"{base}/api/v1/clubs/api/sessions/?close=false",
        json={**document, "players": players},
        headers=headers,
        timeout=60,
    )
    response.raise_for_status()
    return int(response.headers["Location"].rstrip("/").rsplit("/", 1)[-1])


def sequential(*, base: str, token: str, document: dict[str, Any], requests_each: int, database: str) -> None:
    """Hand entry against a bare DRF create, served: one request at a time over one kept-alive connection (so one
    worker answers each), in alternating blocks of bare, entry at hand #10 and entry at hand #1,000, five times
    over. Prints each median and the ratios of issue 29's first target."""
    headers = {"Authorization": f"Token {token}"}
    positions = {}
    for size in (10, 1000):
        players = [f"{name}序{size}" for name in document["players"]]
        start_doc = {**document, "hands": document["hands"][:size]}
        positions[size] = [session_import(base=base, headers=headers, document=start_doc, players=players), size]
    wire = Wire(base, {**headers, "Accept-Language": "zh-Hans"}, timeout=30)
    made = 0

    def bare() -> int:
        nonlocal made
        made += 1
        return wire.send("POST", "/bench/bare/", body={"name": "bare", "slug": f"seq-{made}"})[0]

    def entry(size: int) -> int:
        session_id, position = positions[size]
        positions[size][1] += 1
        return wire.send("POST", f"/api/v1/sessions/{session_id}/hands/", body=document["hands"][position])[0]

    calls: dict[str, Callable[[], int]] = {"bare": bare, "entry10": lambda: entry(10), "entry1000": lambda: entry(1000)}
    blocks: list[dict[str, list[float]]] = []
    for _ in range(5):
        block: dict[str, list[float]] = {name: [] for name in calls}
        for name, call in calls.items():
            for _ in range(max(1, requests_each // 5)):
                start = time.perf_counter()
                status = call()
                block[name].append(time.perf_counter() - start)
                if status != 201:
                    raise SystemExit(f"sequential {name}: HTTP {status}")
        blocks.append(block)
    wire.close()
    samples = {name: [value for block in blocks for value in block[name]] for name in calls}
    median = {name: statistics.median(values) for name, values in samples.items()}
    print(
        f"Sequential, served on {database} (one kept-alive connection, one worker answering;"
        f" {len(samples['bare'])} requests of each in alternating blocks), median:"
    )
    print(f"  {'bare DRF create of one row':<38} {median['bare'] * 1e3:>7.2f} ms")
    for size, label in ((10, "#10"), (1000, "#1,000")):
        value = median[f"entry{size}"]
        low, high = ratio_spread(blocks, f"entry{size}")
        print(
            f"  {'hand entry at ' + label:<38} {value * 1e3:>7.2f} ms  {value / median['bare']:>5.2f}× the bare create"
            f" (blocks {low:.2f}–{high:.2f})   target ≤ 1.5"
        )
    print(f"  {'entry #1,000 / #10':<38} {'':>10}  {median['entry1000'] / median['entry10']:>5.2f}×   target ≤ 1.2")


def ratio_spread(blocks: list[dict[str, list[float]]], name: str) -> tuple[float, float]:
    """The lowest and the highest of `name`'s median over the bare create's, block by block: how far the machine
    moved the ratio during the run (the run's median ratio alone does not say whether a target it meets was met by
    every block or by luck)."""
    ratios = [statistics.median(block[name]) / statistics.median(block["bare"]) for block in blocks]
    return min(ratios), max(ratios)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--clients", type=int, default=10)
    parser.add_argument("--hands", type=int, default=100, help="hands each client's session starts with")
    parser.add_argument("--blocks", type=int, default=4, help="alternating blocks of the app's load and the floor's")
    parser.add_argument(
        "--sequential", type=int, default=250, help="requests of each kind in the sequential comparison (0: none)"
    )
    parser.add_argument("--database", default=os.environ.get("BENCH_LOAD_DB", "baifen_load"))
    parser.add_argument(
        "--sqlite", action="store_true", help="a SQLite file in a temporary folder (make serve's default)"
    )
    args = parser.parse_args()
    admin_url = local_url(os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432/postgres"))
    port = free_port()
    base = local_url(f"http://127.0.0.1:{port}")
    data_dir = tempfile.mkdtemp(prefix="baifen-load-")
    db_url = f"sqlite:///{data_dir}/load.sqlite3" if args.sqlite else database_url(admin_url, args.database)
    env = {
        **os.environ,
        "DATABASE_URL": db_url,
        "BAIFEN_BIND": f"127.0.0.1:{port}",
        "BAIFEN_DATA_DIR": data_dir,
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(40),
        "BAIFEN_API_RATE_USER": "100000000/hour",
        "DJANGO_DEBUG": "0",
        "DJANGO_LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "bench.settings",  # the site and the bare DRF views of the floor
        # With BAIFEN_REDIS_URL the cache is Redis: a prefix of this run's own, so no fragment of an earlier run's
        # database (the same session ids) is served.
        "BAIFEN_CACHE_KEY_PREFIX": f"bench-{secrets.token_hex(4)}",
    }
    if not args.sqlite:
        database_reset(admin_url, args.database, create=True)
    server = None
    try:
        for command in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
            subprocess.run([PYTHON, "manage.py", *command], cwd=ROOT, env=env, check=True)
        token = subprocess.run(
            [PYTHON, "manage.py", "api_seed"], cwd=ROOT, env=env, check=True, capture_output=True, text=True
        ).stdout.split()[-1]
        server = server_start(env=env, base=base, log_path=Path(data_dir) / "gunicorn.log")
        headers = {"Authorization": f"Token {token}"}
        document = benxi_session(args.hands + 2000)
        start_doc = {**document, "hands": document["hands"][: args.hands]}
        if args.sequential:
            database = "SQLite" if args.sqlite else "PostgreSQL"
            sequential(base=base, token=token, document=document, requests_each=args.sequential, database=database)
        # A table's own four players: one person does not sit at ten tables at once, and the ratings of a game's
        # players decide what a game's end rates again (ledger/ratings.py).
        sessions = [
            session_import(
                base=base, headers=headers, document=start_doc, players=[f"{n}{table}" for n in document["players"]]
            )
            for table in range(1, args.clients + 1)
        ]
        apps = [
            Client(base=base, token=token, session_id=session_id, hands=document["hands"], position=args.hands, seed=i)
            for i, session_id in enumerate(sessions)
        ]
        floors = [
            Client(base=base, token=token, session_id=0, hands=[], position=0, seed=i, bare=True)
            for i in range(args.clients)
        ]
        blocks = max(1, args.blocks)
        elapsed = {"app": 0.0, "floor": 0.0}
        for _ in range(blocks):
            for name, clients in (("app", apps), ("floor", floors)):
                began = time.monotonic()
                for thread in [client.block(args.seconds / blocks) for client in clients]:
                    thread.join()
                elapsed[name] += time.monotonic() - began
        workers = env.get("WEB_CONCURRENCY") or "gunicorn.conf.py's"
        app = report(apps, elapsed=elapsed["app"], args=args, workers=workers, title="the app")
        floor = report(floors, elapsed=elapsed["floor"], args=args, workers=workers, title="the floor (bare DRF)")
        print(
            f"App against the floor, same run: throughput {app[0] / floor[0]:.2f}× the floor's,"
            f" p95 {app[1] / floor[1]:.2f}× the floor's"
        )
    finally:
        if server is not None:
            server_stop(server)
        if not args.sqlite:
            database_reset(admin_url, args.database, create=False)
        shutil.rmtree(data_dir, ignore_errors=True)


def report(
    clients: list[Client], *, elapsed: float, args: argparse.Namespace, workers: str, title: str
) -> tuple[float, float]:
    """Print the clients' figures; their requests per second and p95 (ms)."""
    merged: dict[str, list[float]] = defaultdict(list)
    errors: dict[str, int] = defaultdict(int)
    for client in clients:
        for kind, samples in client.samples.items():
            merged[kind].extend(samples)
        for kind, count in client.errors.items():
            errors[kind] += count
    everything = [s for samples in merged.values() for s in samples]
    print(
        f"Load, {title}: {args.clients} clients for {elapsed:.0f} s against gunicorn (workers: {workers})"
        f" on {'SQLite' if args.sqlite else 'PostgreSQL'};"
    )
    print(f"      {os.cpu_count()} CPUs seen, shared with whatever else runs here; the cache: {cache_named()}.")
    print(f"  {'kind':<9} {'requests':>9} {'share':>6} {'errors':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}")
    for kind in [k for k, _ in MIX] + ["all"]:
        samples = everything if kind == "all" else merged.get(kind, [])
        failed = sum(errors.values()) if kind == "all" else errors.get(kind, 0)
        share = len(samples) / max(1, len(everything))
        print(
            f"  {kind:<9} {len(samples):>9} {share:>6.0%} {failed:>7} {percentile(samples, 50) * 1e3:>8.1f}"
            f" {percentile(samples, 95) * 1e3:>8.1f} {percentile(samples, 99) * 1e3:>8.1f}"
        )
    rate = len(everything) / elapsed
    p95 = percentile(everything, 95) * 1e3
    print(
        f"Throughput: {rate:.1f} req/s (target ≥ 100); p95 {p95:.0f} ms (target ≤ 150);"
        f" mean {statistics.fmean(everything) * 1e3:.1f} ms"
    )
    return rate, p95


if __name__ == "__main__":
    main()
