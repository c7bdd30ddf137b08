"""Django's development server with Nagle's algorithm off, for `make run` and the tests' live server.

Django's handler writes an answer's headers and its body in two sends. With Nagle's algorithm on, the body of an
answer on a kept-alive connection then waits for the client's delayed ACK of the headers: about 40 ms an answer
on Linux, where the same request takes well under 1 ms with it off (as gunicorn, `make serve`, has it).
"""

import socket

from django.core.servers.basehttp import ThreadedWSGIServer, WSGIServer


class NoDelayWSGIServer(WSGIServer):
    """runserver's server (it adds the threads itself), each accepted connection with TCP_NODELAY."""

    def get_request(self):
        conn, address = super().get_request()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return conn, address


class NoDelayThreadedWSGIServer(ThreadedWSGIServer, NoDelayWSGIServer):
    """The live server's (django.test's LiveServerThread), likewise."""
