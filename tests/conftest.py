"""Shared test set-up: Hypothesis profiles and paths to the shared rules data."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
SHARED_GOLDEN = SHARED / "golden"
OWN_GOLDEN = ROOT / "tests" / "golden"

# "ci" (the default, and what CI runs) keeps `make test` within minutes on 2 cores;
# HYPOTHESIS_PROFILE=thorough runs many more examples by hand.
settings.register_profile("ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=3000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
