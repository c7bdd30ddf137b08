"""Settings from the environment, safe by default: a per-installation secret key, HTTPS flags, check --deploy."""

from __future__ import annotations

import json
import os
import runpy
import secrets
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from gunicorn.config import Config

from baifen_ledger.settings import secret_key_load
from tests.conftest import ROOT


def test_the_secret_key_is_made_once_private_and_reused(tmp_path):
    path = tmp_path / "data" / "secret_key"
    first = secret_key_load(path=path)
    assert len(first) >= 50 and len(set(first)) >= 5
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert secret_key_load(path=path) == first
    assert list(path.parent.iterdir()) == [path]  # no temporary file left behind


def test_another_installation_gets_another_key(tmp_path):
    assert secret_key_load(path=tmp_path / "a") != secret_key_load(path=tmp_path / "b")


def _settings_in_subprocess(env: dict[str, str], *names: str) -> dict:
    code = (
        "import json, sys; from django.conf import settings; import django; django.setup(); "
        "print(json.dumps({n: getattr(settings, n) for n in sys.argv[1:]}, default=str))"
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "BAIFEN_"))}
    result = subprocess.run(
        [sys.executable, "-c", code, *names],
        env={**clean, "DJANGO_SETTINGS_MODULE": "baifen_ledger.settings", **env},
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_with_no_environment_the_key_comes_from_the_data_folder(tmp_path):
    got = _settings_in_subprocess({"BAIFEN_DATA_DIR": str(tmp_path)}, "SECRET_KEY", "DEBUG")
    assert got == {"SECRET_KEY": (tmp_path / "secret_key").read_text().strip(), "DEBUG": False}


HTTPS_FLAGS = [
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SECURE_SSL_REDIRECT",
    "SECURE_PROXY_SSL_HEADER",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
]


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, [False, False, False, None, 0, False]),
        ({"DJANGO_HTTPS": "1"}, [True, True, True, ["HTTP_X_FORWARDED_PROTO", "https"], 31_536_000, True]),
        (
            {"DJANGO_HTTPS": "1", "DJANGO_HSTS_SECONDS": "3600", "DJANGO_HSTS_INCLUDE_SUBDOMAINS": "0"},
            [True, True, True, ["HTTP_X_FORWARDED_PROTO", "https"], 3600, False],
        ),
    ],
)
def test_django_https_turns_on_secure_cookies_hsts_redirect_and_the_proxy_header(tmp_path, env, expected):
    got = _settings_in_subprocess({"DJANGO_SECRET_KEY": "x" * 60, **env}, *HTTPS_FLAGS)
    assert [got[name] for name in HTTPS_FLAGS] == expected


def test_hosts_and_trusted_origins_come_from_the_environment():
    env = {
        "DJANGO_ALLOWED_HOSTS": "club.example, www.club.example",
        "DJANGO_CSRF_TRUSTED_ORIGINS": "https://club.example",
    }
    got = _settings_in_subprocess(env, "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS")
    assert got == {
        "ALLOWED_HOSTS": ["club.example", "www.club.example"],
        "CSRF_TRUSTED_ORIGINS": ["https://club.example"],
    }


def test_the_deploy_check_passes_with_https_hosts_and_a_key():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "BAIFEN_"))}
    env |= {"DJANGO_HTTPS": "1", "DJANGO_ALLOWED_HOSTS": "club.example", "DJANGO_SECRET_KEY": secrets.token_urlsafe(50)}
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr


def _sqlite_opened_in_subprocess(path: Path, tmp_path: Path) -> None:
    """A fresh process opens the SQLite database at `path` once, as `manage.py` or a gunicorn worker would."""
    code = "import django; django.setup(); from django.db import connection; connection.ensure_connection()"
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "BAIFEN_", "DATABASE_"))}
    env = {**clean, "DJANGO_SETTINGS_MODULE": "baifen_ledger.settings", "BAIFEN_DATA_DIR": str(tmp_path)}
    subprocess.run(
        [sys.executable, "-c", code],
        env={**env, "DATABASE_URL": f"sqlite:///{path}"},
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )


def test_a_new_sqlite_database_and_its_wal_are_private_to_the_owner(tmp_path):
    path = tmp_path / "db.sqlite3"
    _sqlite_opened_in_subprocess(path, tmp_path)
    files = [p for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")) if p.exists()]
    assert path in files
    assert {p.name: stat.S_IMODE(p.stat().st_mode) for p in files} == {p.name: 0o600 for p in files}


def test_an_existing_world_readable_database_is_narrowed_when_opened(tmp_path):
    path = tmp_path / "db.sqlite3"
    sqlite3.connect(path).close()
    path.chmod(0o644)
    _sqlite_opened_in_subprocess(path, tmp_path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_gunicorns_control_socket_is_the_installations_own_in_the_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("BAIFEN_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("DATABASE_CONN_MAX_AGE", "60")  # the file's setdefault leaves the environment as it was
    conf = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert "control_socket" in Config().settings  # a setting gunicorn knows, not a typo it would ignore
    assert conf["control_socket"] == str(tmp_path / "gunicorn.ctl")
    assert not conf.get("control_socket_disable", False)


@pytest.mark.parametrize(
    ("env", "backend", "location"),
    [
        ({"BAIFEN_REDIS_URL": "redis://127.0.0.1:6379/3"}, "redis.RedisCache", "redis://127.0.0.1:6379/3"),
        ({}, "db.DatabaseCache", "baifen_cache"),
    ],
)
def test_the_cache_is_shared_redis_or_the_database_never_one_processs_memory(env, backend, location):
    cache = _settings_in_subprocess({"DJANGO_SECRET_KEY": "x" * 60, **env}, "CACHES")["CACHES"]["default"]
    assert (cache["BACKEND"], cache["LOCATION"]) == (f"django.core.cache.backends.{backend}", location)


@pytest.mark.parametrize(
    ("url", "threshold", "options"),
    [
        ("postgres://baifen@127.0.0.1:5432/baifen", None, {"server_side_binding": True, "prepare_threshold": 5}),
        ("postgres://baifen@127.0.0.1:5432/baifen", "20", {"server_side_binding": True, "prepare_threshold": 20}),
        ("postgres://baifen@127.0.0.1:5432/baifen", "0", {}),  # behind a pooler: the client binds, as Django does
        ("sqlite:///x.sqlite3", None, {"transaction_mode": "IMMEDIATE"}),
    ],
)
def test_postgresql_binds_on_the_server_and_prepares_what_a_connection_runs_often(url, threshold, options):
    env = {"DJANGO_SECRET_KEY": "x" * 60, "DATABASE_URL": url}
    if threshold is not None:
        env["DATABASE_PREPARE_THRESHOLD"] = threshold
    got = _settings_in_subprocess(env, "DATABASES")["DATABASES"]["default"].get("OPTIONS", {})
    assert {key: got.get(key) for key in options} == options
    if "server_side_binding" not in options:
        assert "server_side_binding" not in got and "prepare_threshold" not in got
