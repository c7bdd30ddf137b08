"""Set-up shared by the in-process benchmarks (share_poll.py, stats.py): Django through its test client on a
throw-away in-memory SQLite database, with no network and no gunicorn."""

from __future__ import annotations

import os
import warnings


def setup() -> None:
    """Django's set-up, before anything imports a model."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baifen_ledger.settings")
    os.environ.pop("DATABASE_URL", None)  # always the throw-away SQLite database
    warnings.filterwarnings("ignore", message="No directory at")  # WhiteNoise: no collectstatic here
    import django

    django.setup()


def throwaway_database() -> None:
    """Make the throw-away database (migrated) and serve static files without `collectstatic`."""
    from django.conf import settings
    from django.db import connection
    from django.test.utils import setup_test_environment

    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    setup_test_environment()
    connection.creation.create_test_db(verbosity=0)
