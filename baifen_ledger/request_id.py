"""The request being answered, for the log: its `X-Request-Id` (set by `middleware.RequestIdMiddleware`).

Apart from the middleware so that the logging set-up (settings.LOGGING) can name the filter without importing
the API.
"""

from __future__ import annotations

import contextvars
import logging

request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")


class RequestIdFilter(logging.Filter):
    """Adds `request_id` (the `X-Request-Id` of the request being answered, `-` outside one) to each record."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        return True
