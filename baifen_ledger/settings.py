"""Baifen Ledger settings: one module, configured by environment variables.

Every variable has a default that works on a fresh checkout (SQLite in the
project folder, debug off, a secret key made once and kept in `data/`), so
every `manage.py` command runs with no environment set. The README's
"Running it for a club" lists every variable.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
from datetime import timedelta
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value else default


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    return [item.strip() for item in value.split(",") if item.strip()] if value else default


def secret_key_load(*, path: Path) -> str:
    """The installation's own secret key, made on first use and kept in `path` (mode 0600).

    Written to a private temporary file and linked into place, so two processes
    starting at once (gunicorn's workers) both end up with the one key.
    """
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".secret_key.")  # mkstemp makes it 0600
    try:
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_urlsafe(50) + "\n")
        with contextlib.suppress(FileExistsError):  # another process was first: its key stands
            os.link(tmp, path)
    finally:
        os.unlink(tmp)
    return path.read_text().strip()


DEBUG = env_bool("DJANGO_DEBUG")
# Runtime files that are not code: the secret key (SQLite and backups may live here too); git-ignored.
DATA_DIR = Path(env_str("BAIFEN_DATA_DIR", str(BASE_DIR / "data")))
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or secret_key_load(path=DATA_DIR / "secret_key")
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

# CORS (django-cors-headers), for browser apps on other origins: only under /api/, only the origins listed in
# BAIFEN_CORS_ORIGINS (none by default), and never with cookies — such an app sends a token.
CORS_ALLOWED_ORIGINS = env_list("BAIFEN_CORS_ORIGINS", [])
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_CREDENTIALS = False
CORS_ALLOW_HEADERS = (
    "accept",
    "accept-language",
    "authorization",
    "content-type",
    "idempotency-key",
    "if-none-match",
    "x-request-id",
)
CORS_EXPOSE_HEADERS = (
    "ETag",
    "Idempotent-Replayed",
    "Location",
    "Retry-After",
    "X-Request-Id",
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
)

# DJANGO_HTTPS=1: the site is reached over HTTPS only, directly or behind a proxy that sets X-Forwarded-Proto.
HTTPS = env_bool("DJANGO_HTTPS")
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_SSL_REDIRECT = HTTPS
# Only trusted when HTTPS is on: the proxy in front must then overwrite the header, never pass the client's on.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if HTTPS else None
# A monitor on the machine itself may ask over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31_536_000) if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS and env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = HTTPS and env_bool("DJANGO_HSTS_PRELOAD", False)
# Preloading puts the domain into the browsers' own lists, hard to undo: the domain owner's choice, not ours.
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]

INSTALLED_APPS = [
    "corsheaders",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Before staticfiles: its `runserver` (no Nagle stall, settlement/management/commands/runserver.py) is the one run.
    "settlement",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
]

MIDDLEWARE = [
    # First: every answer, a refusal by any middleware too, carries X-Request-Id, and every log line of it.
    "baifen_ledger.middleware.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before CommonMiddleware and anything that may answer: a preflight or a refusal carries the CORS headers.
    "corsheaders.middleware.CorsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # After LocaleMiddleware: their refusals are in the request's language.
    "baifen_ledger.middleware.NulRefusalMiddleware",
    "baifen_ledger.middleware.ApiBodyLimitMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the login page saying so.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "baifen_ledger.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # The tag libraries live with the pages (settlement/web/templatetags/); Django looks for them only in an
            # installed app's own `templatetags` package, so they are named here (`{% load ledger %}` as before).
            "libraries": {
                "ledger": "settlement.web.templatetags.ledger",
                "share": "settlement.web.templatetags.share",
                "events": "settlement.web.templatetags.events",
            },
        },
    },
]

WSGI_APPLICATION = "baifen_ledger.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0),
        # A kept connection (gunicorn.conf.py keeps them 60 s) is checked before a request's first query reuses
        # it: one the server dropped (a restart, a failover) is replaced instead of failing that request.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Parameters bound by the server, and a statement run DATABASE_PREPARE_THRESHOLD times on a connection prepared
    # there: PostgreSQL plans it once, not on every run (planning was most of a small join's cost, 0.7 of 0.9 ms;
    # a hand's entry 12.7 -> 9.5-10.3 ms). DATABASE_PREPARE_THRESHOLD=0 turns it off (Django's default: the client
    # binds, nothing is prepared), e.g. behind a pooler that cannot keep prepared statements.
    prepare_threshold = env_int("DATABASE_PREPARE_THRESHOLD", 5)
    if prepare_threshold > 0:
        DATABASES["default"]["OPTIONS"] = {
            **DATABASES["default"].get("OPTIONS", {}),
            "server_side_binding": True,
            "prepare_threshold": prepare_threshold,
        }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite queues writers instead of failing them with "database is locked": WAL lets readers
    # go on while one writes, every transaction takes the write lock when it begins (so none has
    # to upgrade a read lock mid-way, which SQLite cannot wait for), and a writer waits up to
    # `timeout` seconds for the lock.
    DATABASES["default"]["OPTIONS"] = {
        **DATABASES["default"].get("OPTIONS", {}),
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL;",
    }

# The cache holds what requests share: the API's rate counts, the share page's rendered fragments, anything a
# worker must see of another's. It is never one process's memory: `make serve` runs several workers, and a site
# may run several servers behind one proxy (docs/operations.md). With BAIFEN_REDIS_URL (redis://host:6379/0) it
# is Redis, through Django's RedisCache; without, a table of the database (created by `migrate`: settlement's
# post_migrate). BAIFEN_CACHE_KEY_PREFIX keeps two sites on one Redis apart.
REDIS_URL = env_str("BAIFEN_REDIS_URL", "")
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": env_str("BAIFEN_CACHE_KEY_PREFIX", "baifen"),
    }
    if REDIS_URL
    else {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "baifen_cache",
        "KEY_PREFIX": env_str("BAIFEN_CACHE_KEY_PREFIX", "baifen"),
        # Django's 300 rows is a small site's: a room of 100 tables keeps a few thousand fragments current, and at
        # 300 the table was culled by a third again and again, so the polls rendered them again (bench/event_load.py:
        # write p95 236-282 -> 132 ms).
        "OPTIONS": {"MAX_ENTRIES": env_int("BAIFEN_CACHE_MAX_ENTRIES", 5000)},
    }
}

# django-axes first: it refuses a locked-out login before the password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", "简体中文"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("DJANGO_TIME_ZONE", "Asia/Shanghai")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# BAIFEN_STATIC_ROOT: where `collectstatic` puts them (the test suite points it at its own collected copy).
STATIC_ROOT = Path(os.environ.get("BAIFEN_STATIC_ROOT") or BASE_DIR / "staticfiles")
# Hashed and compressed copies made by `collectstatic` (make serve and make run do it), served by WhiteNoise
# with far-future cache headers. The test suite renders and serves them too (tests/conftest.py).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# A request body larger than this is refused (413 under /api/); forms and imports stay far below it.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("BAIFEN_MAX_BODY_BYTES", 5 * 1024 * 1024)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# A refused form (no or stale CSRF token) gets the site's own translated page, not Django's bare one.
CSRF_FAILURE_VIEW = "baifen_ledger.views.csrf_failure"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "settlement.api.authentication.ApiTokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Counted per address (anonymous) or per user, in the shared cache (CACHES): across workers and servers.
    "DEFAULT_THROTTLE_CLASSES": [
        "settlement.api.throttles.AnonRateThrottle",
        "settlement.api.throttles.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env_str("BAIFEN_API_RATE_ANON", "120/minute"),
        "user": env_str("BAIFEN_API_RATE_USER", "20000/hour"),
        # Requests with a wrong token, per address: past it, a 429 before the token is looked up.
        "bad_token": env_str("BAIFEN_API_RATE_BAD_TOKEN", "30/minute"),
    },
    # One error shape across the API: {"code", "hand", "field", "message"}.
    "EXCEPTION_HANDLER": "settlement.api.errors.api_exception_handler",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Baifen Ledger API",
    "DESCRIPTION": "Standings, session import/export and hand entry for 打百分 clubs.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI from the sidecar package: no CDN, the machines are offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Two `ranking` choice sets: an event's (sum, placement) and a league's (sum, best).
    "ENUM_NAME_OVERRIDES": {
        "EventRankingEnum": ["sum", "placement"],
        "LeagueRankingEnum": ["sum", "best"],
    },
    "TAGS": [
        {"name": "clubs", "description": "Your clubs and their players. Another club's objects are 404s."},
        {
            "name": "sessions",
            "description": "A club's sittings: list, import a session document, read its results, close and "
            "reopen, what the next hand takes.",
        },
        {
            "name": "hands",
            "description": "Record, preview, correct and void a session's hands; every change is a new revision "
            "of the append-only log, with its reason.",
        },
        {"name": "standings", "description": "Each player's figures across a club's sessions, as JSON or CSV."},
        {"name": "variants", "description": "The rules engine's variants: player counts, presets and options."},
        {
            "name": "events",
            "description": "A club's evenings and tournaments: check-in, rounds seated by a draw (each table an "
            "ordinary session), the director's penalties and awards, the event standings.",
        },
        {
            "name": "leagues",
            "description": "A club's seasons: a named series of events with a league table (the sum of each "
            "player's event totals, or their best N), in one unit, and each player's event by event history.",
        },
        {
            "name": "tokens",
            "description": "Your personal API tokens: named, optionally expiring, stored hashed; the secret is "
            "shown once.",
        },
    ],
    # The per-variant hand and session document schemas (settlement/api/schema.py), required request bodies.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "settlement.api.schema.schema_components",
    ],
}

# Content-Security-Policy (django-csp 4): no inline script and no inline style anywhere; every script and
# style sheet is a file under /static/. Swagger UI is served by SpectacularSwaggerSplitView, which keeps
# its start-up script in a file too (settlement/api/urls.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
    },
}

# django-axes: 10 failed logins for one username from one address within 15 minutes lock that pair out
# for 15 minutes; the login page says so (baifen_ledger.views.login_locked_out).
AXES_FAILURE_LIMIT = env_int("BAIFEN_LOGIN_FAILURE_LIMIT", 10)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("BAIFEN_LOGIN_LOCKOUT_MINUTES", 15))
AXES_USE_ATTEMPT_EXPIRATION = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_CALLABLE = "baifen_ledger.views.login_locked_out"
AXES_CLIENT_IP_CALLABLE = "baifen_ledger.views.client_ip"
# How many proxies in front append to X-Forwarded-For (1 behind nginx or caddy); 0 trusts REMOTE_ADDR only.
BAIFEN_TRUSTED_PROXIES = env_int("BAIFEN_TRUSTED_PROXIES", 0)

# Everything to stderr (gunicorn and systemd keep it): django.request logs every 500 with its traceback.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "baifen_ledger.request_id.RequestIdFilter"}},
    "formatters": {"plain": {"format": "{asctime} {levelname} {name} [{request_id}]: {message}", "style": "{"}},
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "plain", "filters": ["request_id"]}},
    "root": {"handlers": ["stderr"], "level": env_str("DJANGO_LOG_LEVEL", "INFO")},
    "loggers": {
        "django": {"handlers": ["stderr"], "level": env_str("DJANGO_LOG_LEVEL", "INFO"), "propagate": False},
        # Lock-outs are warnings; axes' start-up banner and each failed attempt would fill the log.
        "axes": {"handlers": ["stderr"], "level": "WARNING", "propagate": False},
    },
}

# --- Input limits (issue 10) ---
# The most hands one session may hold, and one import may bring (void hands count).
BAIFEN_MAX_HANDS = env_int("BAIFEN_MAX_HANDS", 2000)
