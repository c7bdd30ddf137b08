"""API rate limits: DRF's anonymous and per-user throttles, their rates read when a request comes.

DRF's own classes copy `DEFAULT_THROTTLE_RATES` once, at import; reading it per
request lets a test (or `override_settings`) change a rate. The rates come from
`BAIFEN_API_RATE_ANON` / `BAIFEN_API_RATE_USER` (settings.py); a refusal is a 429
with `Retry-After`, in the API's one error shape (errors.py).
"""

from __future__ import annotations

from rest_framework import throttling
from rest_framework.settings import api_settings


class AnonRateThrottle(throttling.AnonRateThrottle):
    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)


class UserRateThrottle(throttling.UserRateThrottle):
    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)
