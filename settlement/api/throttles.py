"""API rate limits: DRF's anonymous and per-user throttles, their rates read when a request comes.

DRF's own classes copy `DEFAULT_THROTTLE_RATES` once, at import; reading it per
request lets a test (or `override_settings`) change a rate. The rates come from
`BAIFEN_API_RATE_ANON` / `BAIFEN_API_RATE_USER` (settings.py); a refusal is a 429
with `Retry-After`, in the API's one error shape (errors.py).
"""

from __future__ import annotations

import math
from typing import Any

from rest_framework import exceptions, throttling
from rest_framework.settings import api_settings


class RateLimitReported(throttling.SimpleRateThrottle):
    """Tells the request how much of its limit is left (`RateLimit-*` headers: baifen_ledger.middleware).

    Of the throttles that applied, the one with the fewest requests left is reported."""

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def allow_request(self, request: Any, view: Any) -> bool:
        allowed = super().allow_request(request, view)
        if self.rate is not None and getattr(self, "key", None) is not None:
            remaining = max(0, self.num_requests - len(self.history))
            reset = self.duration - (self.now - self.history[-1]) if self.history else self.duration
            report = (self.num_requests, remaining, max(0, math.ceil(reset)))
            raw = request._request
            if getattr(raw, "ratelimit", None) is None or remaining < raw.ratelimit[1]:
                raw.ratelimit = report
        return allowed


class AnonRateThrottle(RateLimitReported, throttling.AnonRateThrottle):
    pass


class UserRateThrottle(RateLimitReported, throttling.UserRateThrottle):
    pass


class BadTokenThrottle(RateLimitReported):
    """Wrong tokens, counted per address (`BAIFEN_API_RATE_BAD_TOKEN`): over the rate, a call that sends a token
    is a 429 with `Retry-After` before the token is even looked up, so guessing tokens is slow.

    Not one of DRF's throttles (those run after authentication, which refuses a wrong token first): the
    authentication asks it (`refuse_if_over`) and tells it of each refusal (`refusal_count`)."""

    scope = "bad_token"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def _history(self, request: Any) -> list[float] | None:
        if self.rate is None:
            return None
        self.key = self.get_cache_key(request, None)
        self.now = self.timer()
        self.history = [t for t in self.cache.get(self.key, []) if t > self.now - self.duration]
        return self.history

    def refuse_if_over(self, request: Any) -> None:
        history = self._history(request)
        if history is not None and len(history) >= self.num_requests:
            raise exceptions.Throttled(wait=max(1, math.ceil(self.duration - (self.now - history[-1]))))

    def refusal_count(self, request: Any) -> None:
        history = self._history(request)
        if history is not None:
            history.insert(0, self.now)
            self.cache.set(self.key, history, self.duration)
