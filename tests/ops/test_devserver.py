"""The development servers (`make run`'s runserver, the tests' live server) answer without Nagle's stall."""

from __future__ import annotations

import socket

import pytest
from django.core.management import get_commands
from django.core.servers.basehttp import WSGIRequestHandler

from baifen_ledger.devserver import NoDelayThreadedWSGIServer, NoDelayWSGIServer


@pytest.mark.parametrize("server_class", [NoDelayWSGIServer, NoDelayThreadedWSGIServer])
def test_every_accepted_connection_has_nagles_algorithm_off(server_class):
    server = server_class(("127.0.0.1", 0), WSGIRequestHandler)
    client = socket.create_connection(server.server_address)
    try:
        accepted, _ = server.get_request()
        with accepted:
            assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
    finally:
        client.close()
        server.server_close()


def test_manage_py_runserver_is_the_projects_own():
    """settlement stands before django.contrib.staticfiles, whose runserver would otherwise be the one run."""
    assert get_commands()["runserver"] == "settlement"


def test_the_tests_live_server_is_the_no_delay_one(live_server):
    assert isinstance(live_server.thread.httpd, NoDelayThreadedWSGIServer)
