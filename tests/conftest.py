"""Shared test set-up: Hypothesis profiles, paths to the shared rules data, static files without collectstatic."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from hypothesis import HealthCheck, settings

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


# The hashed static storage needs `collectstatic` first; the suite renders {% static %} straight from static/,
# and WhiteNoise serves it from there (as it does under DEBUG).
django_settings.STORAGES = {
    **django_settings.STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
django_settings.WHITENOISE_USE_FINDERS = True
django_settings.WHITENOISE_AUTOREFRESH = True


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
