"""gunicorn's settings for `make serve` (see the README's "Running it for a club").

BAIFEN_BIND: where to listen (default 127.0.0.1:8000, behind a proxy on the same machine);
WEB_CONCURRENCY: worker processes (default 2: one a core of a small server; Python runs one thread at a time in each).
WEB_THREADS: threads in each worker (default 4, gunicorn's gthread worker): while one waits on the database, another
runs, and a client's connection is kept alive between its requests (the sync worker closes it after each).
DATABASE_CONN_MAX_AGE: 60 s here unless set (settings.py's default is 0, for manage.py commands): a worker keeps
its database connection between requests instead of opening one per request (bench/load.py: 6 → 11 req/s).
The control socket (`gunicornc`) is `gunicorn.ctl` in the data folder (BAIFEN_DATA_DIR, default `data/`), not
gunicorn's default `~/.gunicorn/gunicorn.ctl`, which every gunicorn of the user would share.
"""

import os
from pathlib import Path

# Read by the workers' settings when they load the app (after this file, inherited through the fork).
os.environ.setdefault("DATABASE_CONN_MAX_AGE", "60")

wsgi_app = "baifen_ledger.wsgi:application"
bind = [os.environ.get("BAIFEN_BIND") or "127.0.0.1:8000"]
workers = int(os.environ.get("WEB_CONCURRENCY") or 2)
worker_class = "gthread"
threads = int(os.environ.get("WEB_THREADS") or 4)
timeout = int(os.environ.get("BAIFEN_WORKER_TIMEOUT") or 30)
# gunicorn's own limits (its defaults), written out because the API's schema documents them (414 and 431 on
# every call, settlement/api/schema.py): a longer request line or header is refused before Django reads it.
limit_request_line = 4094
limit_request_field_size = 8190
limit_request_fields = 100
# The access log and errors to stderr, with Django's own log: one stream for systemd or docker to keep.
accesslog = "-"
errorlog = "-"
# Only the proxy on this machine may set X-Forwarded-* (Django trusts X-Forwarded-Proto only with DJANGO_HTTPS=1).
forwarded_allow_ips = os.environ.get("BAIFEN_FORWARDED_ALLOW_IPS") or "127.0.0.1,::1"
# This installation's own control socket (mode 0600, gunicorn's default mode), beside its secret key.
data_dir = Path(os.environ.get("BAIFEN_DATA_DIR") or Path(__file__).resolve().parent / "data")
control_socket = str(data_dir / "gunicorn.ctl")
