"""Kept database connections heal: after PostgreSQL drops one (a restart, a failover, `pg_terminate_backend`),
the next request opens a new one instead of failing.

`make serve` keeps each worker's connection for 60 s (gunicorn.conf.py). The requests go through Django's own
WSGI handler, as gunicorn's workers call it: its `request_started` signal is where kept connections are checked
(the test client skips that signal, so it could not show the failure).
"""

from __future__ import annotations

import io
from wsgiref.util import setup_testing_defaults

import psycopg
import pytest
from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection
from django.test import Client

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL drops connections; SQLite has none"),
    pytest.mark.django_db(transaction=True),
]


def _get(path: str, *, cookie: str = "") -> int:
    """The status of a GET of `path` served by a gunicorn worker's handler."""
    environ: dict = {"PATH_INFO": path, "REQUEST_METHOD": "GET", "wsgi.input": io.BytesIO(), "HTTP_COOKIE": cookie}
    setup_testing_defaults(environ)
    answer: list[str] = []
    response = WSGIHandler()(environ, lambda status, headers, exc_info=None: answer.append(status))
    b"".join(response)
    response.close()  # request_finished, as the server sends it
    return int(answer[0].split()[0])


def _backend_terminate(pid: int) -> None:
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as other:
        assert other.execute("SELECT pg_terminate_backend(%s)", [pid]).fetchone() == (True,)


@pytest.fixture
def kept_connections():
    """The default connection as a gunicorn worker has it under `make serve`: kept for 60 s."""
    connection.close()
    kept = connection.settings_dict["CONN_MAX_AGE"]
    connection.settings_dict["CONN_MAX_AGE"] = 60
    yield
    connection.settings_dict["CONN_MAX_AGE"] = kept
    connection.close()


@pytest.mark.parametrize(("path", "status"), [("/healthz", 200), ("/", 302), ("/api/v1/variants/", 200)])
def test_no_request_fails_after_postgresql_drops_the_kept_connection(kept_connections, owner, path, status):
    client = Client()
    client.force_login(owner[1])
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    assert _get(path, cookie=cookie) == status  # the user's session is read from the database: every one queries
    _backend_terminate(connection.connection.info.backend_pid)
    assert [_get(path, cookie=cookie), _get(path, cookie=cookie)] == [status, status]
