"""API rate limits: DRF's anonymous and per-user throttles, their rates read when a request comes.

DRF's own classes copy `DEFAULT_THROTTLE_RATES` once, at import; reading it per
request lets a test (or `override_settings`) change a rate. The rates come from
`BAIFEN_API_RATE_ANON` / `BAIFEN_API_RATE_USER` (settings.py); a refusal is a 429
with `Retry-After`, in the API's one error shape (errors.py).

Each limit is one counter in the shared cache (CACHES: Redis or the database), not DRF's list of every request's
time (which grew to the whole rate, 20,000 floats pickled and written back on every request): a window opens with
the first request and lasts the rate's period, and the counter holds the window's start and its count in one
integer (`start × SPAN + count`), so a request is one round trip to Redis (SET NX and INCR in one MULTI) or a read
and a write of one small row in the database cache. Refused requests count too; the window's end is the reset.
"""

from __future__ import annotations

import math
from typing import Any

from django.core.cache.backends.redis import RedisCache
from rest_framework import exceptions, throttling
from rest_framework.settings import api_settings

SPAN = 10**9  # the count's share of a counter: `start × SPAN + count`, start in whole seconds (fits 63 bits)


def counter_read(cache: Any, key: str) -> tuple[int, int]:
    """The window's start (0: no window open) and its count so far."""
    value = cache.get(key)
    return divmod(value, SPAN) if isinstance(value, int) else (0, 0)


def counter_count(cache: Any, key: str, *, now: float, duration: int) -> tuple[int, int]:
    """Count one request: the window's start and its count with this one (a new window if none is open)."""
    fresh = int(now) * SPAN
    if isinstance(cache, RedisCache):  # atomic across workers and servers: one round trip
        name = cache.make_and_validate_key(key)
        with cache._cache.get_client(name, write=True).pipeline(transaction=True) as pipe:
            pipe.set(name, fresh, ex=duration, nx=True)
            pipe.incr(name)
            value = int(pipe.execute()[1])
        return divmod(value, SPAN)
    start, count = counter_read(cache, key)
    if not start:
        start, count = int(now), 0
    cache.set(key, start * SPAN + count + 1, max(1, math.ceil(start + duration - now)))
    return start, count + 1


class RateLimitReported(throttling.SimpleRateThrottle):
    """Tells the request how much of its limit is left (`RateLimit-*` headers: baifen_ledger.middleware).

    Of the throttles that applied, the one with the fewest requests left is reported."""

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.now = self.timer()
        start, count = counter_count(self.cache, self.key, now=self.now, duration=self.duration)
        self.reset = max(0.0, start + self.duration - self.now)
        remaining = max(0, self.num_requests - count)
        report = (self.num_requests, remaining, max(0, math.ceil(self.reset)))
        raw = request._request
        if getattr(raw, "ratelimit", None) is None or remaining < raw.ratelimit[1]:
            raw.ratelimit = report
        return count <= self.num_requests

    def wait(self) -> float:
        return max(1.0, self.reset)


class AnonRateThrottle(RateLimitReported, throttling.AnonRateThrottle):
    pass


class UserRateThrottle(RateLimitReported, throttling.UserRateThrottle):
    pass


class BadTokenThrottle(RateLimitReported):
    """Wrong tokens, counted per address (`BAIFEN_API_RATE_BAD_TOKEN`): over the rate, a call that sends a token
    is a 429 with `Retry-After` before the token is even looked up, so guessing tokens is slow.

    Not one of DRF's throttles (those run after authentication, which refuses a wrong token first): the
    authentication asks it (`refuse_if_over`: one read) and tells it of each refusal (`refusal_count`)."""

    scope = "bad_token"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def refuse_if_over(self, request: Any) -> None:
        if self.rate is None:
            return
        now = self.timer()
        start, count = counter_read(self.cache, self.get_cache_key(request, None))
        if start and start + self.duration > now and count >= self.num_requests:
            raise exceptions.Throttled(wait=max(1, math.ceil(start + self.duration - now)))

    def refusal_count(self, request: Any) -> None:
        if self.rate is not None:
            counter_count(self.cache, self.get_cache_key(request, None), now=self.timer(), duration=self.duration)
