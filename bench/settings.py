"""The site's settings with bench/urls.py's URLs (the bare DRF create and read beside the site's): what
bench/load.py's gunicorn serves, so the app and its floor are measured on one server in one run."""

from baifen_ledger.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
