"""Shared test set-up: Hypothesis profiles, paths to the shared rules data, static files as `make serve` has them.

Static files: the tests render and serve what a club's server does. `collectstatic` runs into a folder of
its own once per content of the static files (every app's, hashed with Django's and WhiteNoise's versions),
under the system's temporary folder, one xdist worker at a time (a file lock): the first run after a change
pays a few seconds, every other run only the hash. STATIC_ROOT points there, the storage is the production
one (WhiteNoise's CompressedManifestStaticFilesStorage, strict: a {% static %} name missing from the
manifest is a ValueError, as under DEBUG off, which pytest-django's default is), and WhiteNoise serves
from the collected files only (no finders). One difference, for speed: WHITENOISE_AUTOREFRESH looks each
file up in STATIC_ROOT when asked, instead of listing all ~750 of them each time a test client starts
(60 ms a client). A live server (pytest-django's) is Django's WSGI application alone, as gunicorn runs it:
WhiteNoise answers /static/, not the test handler that serves from the source folders.
"""

from __future__ import annotations

import atexit
import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path

import django
import django.test.testcases
import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.core.management import call_command
from django.core.signals import setting_changed
from django.test.utils import override_settings
from hypothesis import HealthCheck, settings

from baifen_ledger.devserver import NoDelayThreadedWSGIServer

ROOT = Path(__file__).resolve().parent.parent
# BAIFEN_SHARED_DIR: where the shared rules data lives when the tree runs from a copy (mutmut's mutants/).
SHARED = Path(os.environ.get("BAIFEN_SHARED_DIR") or ROOT.parent / "shared")
SHARED_GOLDEN = SHARED / "golden"
SHARED_GOLDEN_NEXT = SHARED / "golden-next"
OWN_GOLDEN = ROOT / "tests" / "golden"

# "ci" (the default, and what CI runs) keeps `make test` within minutes on 2 cores;
# HYPOTHESIS_PROFILE=thorough runs many more examples by hand.
settings.register_profile("ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=3000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# Each test client would otherwise list every collected file when it starts (see above).
django_settings.WHITENOISE_AUTOREFRESH = True
# The tests' own cache is the process's memory (each test starts with it empty, `_fresh_cache`): the production
# caches (Redis, the database's table: settings.CACHES) are run by the served site's tests (tests/ops/).
django_settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# On SQLite the test database is a file, as a club's is, not pytest-django's shared in-memory one: the live
# server's request threads then have connections of their own that wait for the write lock (WAL, the busy
# timeout in settings.py), where threads sharing the in-memory database met "database table is locked" now
# and then. Each xdist worker has its own file (pytest-django adds the worker's name), in a folder of this
# process's, deleted when it ends. Nothing of a test needs to survive a crash, so SQLite need not sync it.
if django_settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    _TEST_DB_DIR = tempfile.mkdtemp(prefix="baifen-test-db-")
    atexit.register(shutil.rmtree, _TEST_DB_DIR, ignore_errors=True)
    django_settings.DATABASES["default"].setdefault("TEST", {})["NAME"] = str(Path(_TEST_DB_DIR) / "test.sqlite3")
    _options = django_settings.DATABASES["default"].setdefault("OPTIONS", {})
    _options["init_command"] = _options.get("init_command", "") + "PRAGMA synchronous=OFF;"

# Each xdist worker would migrate its own test database (7 s a worker at the start of `make test`, the four at once
# on two cores). On SQLite the first worker migrates one copy for the run, in a process of its own, under a lock;
# every worker starts from a copy of it, and Django, keeping the database (keepdb), applies the migrations it
# lacks: none. A database as `migrate` leaves it either way; the copy is the run's own (its xdist run id), so no
# stale one is ever used. Without xdist, or on PostgreSQL, the test database is created as pytest-django does.
MIGRATED_CACHE = Path(tempfile.gettempdir()) / f"baifen-test-migrated-{os.getuid()}"


def _migrated_copy(run: str) -> Path:
    """This run's migrated SQLite database (migrated now if no worker has yet)."""
    MIGRATED_CACHE.mkdir(mode=0o700, parents=True, exist_ok=True)
    ready = MIGRATED_CACHE / run / "db.sqlite3"
    with open(MIGRATED_CACHE / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another worker migrating it: wait for its copy
        if not ready.exists():
            for old in MIGRATED_CACHE.iterdir():  # earlier runs' copies
                if old.is_dir() and time.time() - old.stat().st_mtime > 3600:
                    shutil.rmtree(old, ignore_errors=True)
            building = Path(tempfile.mkdtemp(dir=MIGRATED_CACHE, prefix=".building-"))
            env = {k: v for k, v in os.environ.items() if not k.startswith("DATABASE_")}
            env["DATABASE_URL"] = f"sqlite:///{building / 'db.sqlite3'}"
            done = subprocess.run(
                [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                check=False,
            )
            assert done.returncode == 0, f"manage.py migrate:\n{done.stdout}\n{done.stderr}"
            assert not (building / "db.sqlite3-wal").exists(), "migrate left a write-ahead log: the copy would lack it"
            building.rename(ready.parent)  # whole or not at all
    return ready


@pytest.fixture(scope="session")
def django_db_keepdb(request: pytest.FixtureRequest, django_db_modify_db_settings: None) -> bool:
    """pytest-django's (--reuse-db), or on SQLite under xdist: the worker's test database copied from the run's
    migrated one, and kept (migrate then finds nothing to do; the folder goes when the worker ends)."""
    from django.db import connections

    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    database = connections["default"].settings_dict  # the worker's name added (pytest-django)
    if request.config.getvalue("reuse_db") or request.config.getvalue("create_db"):
        return bool(request.config.getvalue("reuse_db"))
    if run is None or database["ENGINE"] != "django.db.backends.sqlite3":
        return False
    shutil.copyfile(_migrated_copy(run), database["TEST"]["NAME"])
    return True


STATIC_CACHE = Path(tempfile.gettempdir()) / f"baifen-test-static-{os.getuid()}"
STATIC_CACHE_DAYS = 7


def static_key() -> str:
    """A hash of every file collectstatic would copy, and of what decides the copies' names and contents."""
    from django.contrib.staticfiles.finders import get_finders

    digest = hashlib.sha256()
    for part in (django.__version__, version("whitenoise"), django_settings.STATIC_URL, repr(django_settings.STORAGES)):
        digest.update(part.encode() + b"\0")
    found = sorted({path: storage for finder in get_finders() for path, storage in finder.list([])}.items())
    for path, storage in found:
        with storage.open(path) as handle:
            digest.update(path.encode() + b"\0" + handle.read())
    return digest.hexdigest()[:20]


def static_collected() -> Path:
    """The collected static files of this tree (collected now if no run has yet, under a lock)."""
    root = STATIC_CACHE / static_key()
    if (root / "staticfiles.json").exists():
        os.utime(root)  # in use: not pruned
        return root
    STATIC_CACHE.mkdir(mode=0o700, parents=True, exist_ok=True)
    with open(STATIC_CACHE / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another worker collecting the same files: wait for its copy
        if not (root / "staticfiles.json").exists():
            building = Path(tempfile.mkdtemp(dir=STATIC_CACHE, prefix=".building-"))
            with override_settings(STATIC_ROOT=str(building)):
                call_command("collectstatic", interactive=False, verbosity=0)
            building.rename(root)  # whole or not at all: the manifest marks a finished copy
        _prune(keep=root)
    return root


def _prune(*, keep: Path) -> None:
    """Copies of other contents (another branch, last week's files) go once unused for a week."""
    for old in STATIC_CACHE.iterdir():
        if old != keep and old.is_dir() and time.time() - old.stat().st_mtime > STATIC_CACHE_DAYS * 86400:
            shutil.rmtree(old, ignore_errors=True)
    os.utime(keep)


@pytest.fixture(scope="session", autouse=True)
def collected_static() -> Path:
    """STATIC_ROOT: the collected files, before any page is rendered or served."""
    root = static_collected()
    django_settings.STATIC_ROOT = str(root)
    setting_changed.send(sender=None, setting="STATIC_ROOT", value=str(root), enter=True)
    return root


class ProductionLiveServerThread(django.test.testcases.LiveServerThread):
    """pytest-django's live server without its static files handler: WhiteNoise serves them, as under gunicorn."""

    server_class = NoDelayThreadedWSGIServer  # no ~40 ms stall an answer on a kept-alive connection

    def __init__(self, host: str, static_handler: object = None, **kwargs: object) -> None:
        super().__init__(host, static_handler=lambda _media_handler: WSGIHandler(), **kwargs)


# pytest-django imports the class from here when it starts a live server.
django.test.testcases.LiveServerThread = ProductionLiveServerThread  # type: ignore[misc]


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The API's rate counts live in the cache: each test starts with none."""
    yield
    cache.clear()


@pytest.fixture
def owner(db):
    """A club and its owner, `(club, user)`: where most service tests start."""
    from tests.factories import make_club, make_member

    club = make_club()
    return club, make_member(club)


# axe-core's counts in the browser tests (tests/web/browser/conftest.py): summed over the xdist workers.
_AXE_TOTALS: dict[str, int] = {}


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    for name, count in getattr(node, "workeroutput", {}).get("axe", {}).items():
        _AXE_TOTALS[name] = _AXE_TOTALS.get(name, 0) + count


def pytest_terminal_summary(terminalreporter):
    browser = sys.modules.get("tests.web.browser.conftest")
    totals = dict(_AXE_TOTALS) or (dict(browser.AXE_COUNTS) if browser else {})
    if any(totals.values()):
        terminalreporter.write_line(
            f"axe-core: {totals['checked']} page states checked, {totals['repeated']} shown again"
            " (the answer found for them before stood)"
        )


# --- the order the xdist workers take the tests in (`make test`: `-n 4 --dist worksteal`) ---
#
# worksteal gives each worker a contiguous part of the collection; a worker that runs out takes the second half
# of what another still has queued. With the long tests (the browser tests, half a minute each for the axe
# crawls) where they fall in the collection, one worker ran most of them while the others finished their short
# ones, and the run ended on one core: the longest tests decided the tail. So each part starts with its share of
# the long tests (dealt out longest first to the part with least so far) and ends with short ones, which a
# worker that finishes first takes from another: the run ends on short tests. Nothing is left out and each test
# runs as it is; a module with a module- or class-scoped fixture stays whole and in one part (its fixture is set
# up once). Without xdist the order is the collection's. Any --dist mode: an xdist worker is told "no" for its
# own, and the order is harmless under the others.

# Seconds a test takes on a quiet machine, roughly (`pytest --durations`), by the start of its node id; the
# longest matching start counts. A browser test not named here counts as BROWSER_SECONDS, any other as
# OTHER_SECONDS: a new test written the usual way needs no row (only a very long one is worth one).
EXPECTED_SECONDS = {
    "tests/web/browser/test_accessibility_browser.py::test_every_page_passes_axe[": 33.0,
    "tests/web/browser/test_accessibility_browser.py::test_every_page_passes_axe_in_the_dark_scheme": 22.0,
    "tests/web/browser/test_accessibility_browser.py::test_every_page_reflows": 17.0,
    "tests/web/browser/test_evening_browser.py::test_a_clubs_evening": 10.0,
    "tests/web/browser/test_evening_browser.py::test_a_clubs_evening_from_the_new_session_page_to_reopening"
    "[zh-hans-shengji]": 19.0,
    "tests/web/browser/test_table_browser.py::test_nothing_scrolls_sideways": 14.0,
    "tests/web/browser/test_round_clock_browser.py": 13.0,
    "tests/web/browser/test_share_browser.py::test_the_share_page_follows": 11.0,
    "tests/web/browser/test_serve_browser.py": 14.0,
    "tests/test_bench_load.py::test_the_event_load": 13.0,
    "tests/ops/test_serve.py": 4.0,
    "tests/ops/test_two_servers.py": 11.0,
    "tests/api/test_generated_client.py": 2.0,
    "tests/api/test_schema.py::test_the_schema_validates": 6.0,
    "tests/rules/test_resume.py": 1.0,
}
BROWSER_SECONDS = 3.0
OTHER_SECONDS = 0.05
LONG_SECONDS = 1.0  # a chunk of at least this goes to the front of its half


def expected_seconds(nodeid: str) -> float:
    starts = [start for start in EXPECTED_SECONDS if nodeid.startswith(start)]
    if starts:
        return EXPECTED_SECONDS[max(starts, key=len)]
    return BROWSER_SECONDS if nodeid.startswith("tests/web/browser/") else OTHER_SECONDS


def _keeps_module_whole(item: pytest.Item) -> bool:
    """A fixture of this project's tests (not a plugin's, like pytest-django's class-scoped autouse one) set up
    once for a module, class or package."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(
        d.scope in ("module", "class", "package") and d.baseid.startswith("tests")
        for defs in info.name2fixturedefs.values()
        for d in defs
    )


def part_sizes(count: int, workers: int) -> list[int]:
    """How many tests worksteal sends each worker at the start: the collection in contiguous parts, as even as
    integer division makes them (xdist's `check_schedule`)."""
    sizes = []
    left = count
    for i in range(workers):
        size = left // (workers - i)
        sizes.append(size)
        left -= size
    return sizes


def in_parts(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """The items in the order described above: for each worker's part in turn, its long tests then its short ones;
    the parts exactly the sizes worksteal gives out (`part_sizes`)."""
    chunks: dict[str, list[pytest.Item]] = {}  # a whole module, or one test
    for item in items:
        module = item.nodeid.split("::", 1)[0]
        key = module if _keeps_module_whole(item) else item.nodeid
        chunks.setdefault(key, []).append(item)
    weight = {key: sum(expected_seconds(i.nodeid) for i in chunk) for key, chunk in chunks.items()}
    long_keys = sorted((k for k in chunks if weight[k] >= LONG_SECONDS), key=lambda k: -weight[k])
    sizes = part_sizes(len(items), workers)
    parts: list[list[str]] = [[] for _ in range(workers)]
    loads = [0.0] * workers
    counts = [0] * workers
    for key in long_keys:  # longest first, to the part with the least so far
        side = min(range(workers), key=lambda i: loads[i])
        parts[side].append(key)
        loads[side] += weight[key]
        counts[side] += len(chunks[key])
    short: list[list[str]] = [[] for _ in range(workers)]
    side = 0
    for key in (k for k in chunks if weight[k] < LONG_SECONDS):  # in collection order, each part filled to its size
        while side < workers - 1 and counts[side] + len(chunks[key]) > sizes[side]:
            side += 1
        counts[side] += len(chunks[key])
        short[side].append(key)
    ordered = [item for i in range(workers) for key in parts[i] + short[i] for item in chunks[key]]
    assert sorted(map(id, ordered)) == sorted(map(id, items)), "every test once"
    return ordered


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    if getattr(config, "workerinput", None) is None:  # not an xdist worker (a worker's own --dist is "no")
        return
    items[:] = in_parts(items, config.workerinput["workercount"])
