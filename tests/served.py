"""The site as `make serve` runs it, for the tests that must see exactly that: gunicorn with gunicorn.conf.py,
DEBUG off, the collected static files, a SQLite file of its own with the demo club (`make run`'s data).

`served(folder, static_root)` migrates, loads the demo club, opens a share link for its open session (on SQLite:
once per test run, each served site getting a copy of that database), starts
gunicorn on a free port of 127.0.0.1 and yields a `Served` (its URL and the pages to visit); gunicorn stops
(master and worker) however the block ends.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from settlement.management.commands.demo_load import PASSWORD, USERNAME

ROOT = Path(__file__).resolve().parent.parent

# Run in the served site's environment after demo_load: the open session's pages, and a share link for it.
SEED = """
import json
from django.contrib.auth.models import User
from django.urls import reverse
from settlement import services
from settlement.models import Session
session = Session.objects.filter(club__slug="demo", closed_at__isnull=True).order_by("-date").first()
user = User.objects.get(username="demo")
link = services.share_create(session=session, user=user)
args = [session.club.slug, session.pk]
print(json.dumps({
    "club": reverse("club_home", args=[session.club.slug]),
    "table": reverse("table", args=args),
    "session": reverse("session_detail", args=args),
    "share": reverse("share", args=[link.token]),
}))
"""


@dataclass(frozen=True, kw_only=True)
class Served:
    url: str
    pages: dict[str, str]  # club, table, session, share: paths on the served site
    log: Path
    env: dict[str, str]  # the server's environment (for manage.py against the same site)

    def manage(self, *args: str) -> str:
        """What `manage.py ARGS` prints, run against the served site's database and settings."""
        return _manage(self.env, *args)

    def logged_in(self) -> httpx.Client:
        """An HTTP client logged in through the login form as the demo club's owner."""
        client = httpx.Client(base_url=self.url, timeout=30)
        form = client.get("/login/")
        token = form.text.split('name="csrfmiddlewaretoken" value="', 1)[1].split('"', 1)[0]
        answer = client.post("/login/", data={"csrfmiddlewaretoken": token, "username": USERNAME, "password": PASSWORD})
        assert answer.status_code == 302, answer.text[:500]
        return client


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"manage.py {' '.join(args)}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@contextmanager
def served(
    folder: Path,
    static_root: Path,
    *,
    database_url: str | None = None,
    extra_env: dict[str, str] | None = None,
    prepare: bool = True,
) -> Iterator[Served]:
    """`database_url`: another database than a SQLite file in `folder`; `extra_env`: more settings (a shared
    cache); `prepare=False`: the database is set up already (a second server of one site): no migrate, no demo
    club, no new share link, and no pages."""
    port = _free_port()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "BAIFEN_", "DATABASE_"))},
        "DJANGO_SETTINGS_MODULE": "baifen_ledger.settings",
        "DJANGO_DEBUG": "0",
        "DATABASE_URL": database_url or f"sqlite:///{folder / 'db.sqlite3'}",
        "BAIFEN_DATA_DIR": str(folder / "data"),
        "BAIFEN_STATIC_ROOT": str(static_root),
        "BAIFEN_BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "1",
        **(extra_env or {}),
    }
    pages: dict[str, str] = {}
    if prepare and database_url is None:
        pages = _prepared_copy(folder, env)
    elif prepare:
        pages = _prepare(env)
    log = folder / "gunicorn.log"
    with open(log, "wb") as out:
        # No control socket: gunicorn's default path is one per user, shared with any other gunicorn running.
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py", "--no-control-socket"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, server, log)
        yield Served(url=url, pages=pages, log=log, env=env)
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _prepare(env: dict[str, str]) -> dict[str, str]:
    """Migrate, load the demo club and open a share link: the pages to visit."""
    _manage(env, "migrate", "--noinput", "-v0")
    _manage(env, "demo_load")
    return json.loads(_manage(env, "shell", "-c", SEED).strip().splitlines()[-1])


def _prepared_copy(folder: Path, env: dict[str, str]) -> dict[str, str]:
    """The SQLite site prepared once per test run (both xdist workers, every module that serves one) and copied
    into `folder`, database and data folder (its secret key) alike: each served site is still its own, as new."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID") or f"pid-{os.getpid()}"
    cache = Path(tempfile.gettempdir()) / f"baifen-test-served-{os.getuid()}"
    cache.mkdir(mode=0o700, parents=True, exist_ok=True)
    ready = cache / run
    with open(cache / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the other worker preparing it: wait for its copy
        if not (ready / "pages.json").exists():
            for old in cache.iterdir():  # earlier runs' copies
                if old.is_dir() and time.time() - old.stat().st_mtime > 3600:
                    shutil.rmtree(old, ignore_errors=True)
            building = Path(tempfile.mkdtemp(dir=cache, prefix=".building-"))
            database = f"sqlite:///{building / 'db.sqlite3'}"
            pages = _prepare({**env, "DATABASE_URL": database, "BAIFEN_DATA_DIR": str(building / "data")})
            (building / "pages.json").write_text(json.dumps(pages), encoding="utf-8")
            building.rename(ready)  # whole or not at all
    shutil.copyfile(ready / "db.sqlite3", folder / "db.sqlite3")
    if (ready / "data").exists():
        shutil.copytree(ready / "data", folder / "data", dirs_exist_ok=True)
    return json.loads((ready / "pages.json").read_text(encoding="utf-8"))


def _wait_healthy(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise AssertionError(f"gunicorn exited ({server.returncode}):\n{log.read_text()[-3000:]}")
        try:
            if httpx.get(url + "/healthz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)  # polling a starting server, not timing anything
    raise AssertionError(f"gunicorn did not answer /healthz within 60 s:\n{log.read_text()[-3000:]}")
