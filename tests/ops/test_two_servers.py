"""Two app servers of one site (docs/operations.md): what one counts or writes, the other sees at once.

Two `make serve`-like gunicorns (tests/served.py) on two free ports, against one PostgreSQL database (made
for this test and dropped after) and one Redis (BAIFEN_REDIS_URL, under a key prefix of this run's own): the
API's rate limit counts requests to both, and a hand recorded through one moves the session's ETag on the
other. Without PostgreSQL or Redis on 127.0.0.1 it is skipped, except in CI (CI=true), where it fails.

BAIFEN_TEST_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres): the server to make the database on;
BAIFEN_TEST_REDIS_URL (default redis://127.0.0.1:6379/4).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator

import httpx
import psycopg
import pytest
import redis

from tests.factories import BENXI_EXAMPLE
from tests.served import Served, served

PG_URL = os.environ.get("BAIFEN_TEST_PG_URL", "postgres://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("BAIFEN_TEST_REDIS_URL", "redis://127.0.0.1:6379/4")
RATE = 12  # the API's per-user rate here, a minute

# A token for the demo club's owner, and one for a user of no club, whose requests only count against the limit.
TOKENS = """
from django.contrib.auth.models import User
from settlement import services
counted = User.objects.create_user("counted")
print(*(services.api_token_create(user=u, name="two servers")[1] for u in (User.objects.get(username="demo"), counted)))
"""


def _unreachable() -> str | None:
    try:
        psycopg.connect(PG_URL, connect_timeout=3).close()
    except psycopg.Error as error:
        return f"PostgreSQL at {PG_URL}: {error}"
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3).ping()
    except redis.RedisError as error:
        return f"Redis at {REDIS_URL}: {error}"
    return None


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    missing = _unreachable()
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and {missing}: the two-server test must run in CI")
        pytest.skip(missing)
    name = f"baifen_two_servers_{secrets.token_hex(4)}"
    with psycopg.connect(PG_URL, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield PG_URL.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(PG_URL, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def servers(tmp_path_factory, collected_static, database) -> Iterator[tuple[Served, Served, list[str]]]:
    prefix = f"two-servers-{secrets.token_hex(4)}"
    env = {"BAIFEN_REDIS_URL": REDIS_URL, "BAIFEN_CACHE_KEY_PREFIX": prefix, "BAIFEN_API_RATE_USER": f"{RATE}/minute"}
    try:
        with served(tmp_path_factory.mktemp("one"), collected_static, database_url=database, extra_env=env) as one:
            tokens = one.manage("shell", "-c", TOKENS).strip().splitlines()[-1].split()
            with served(
                tmp_path_factory.mktemp("two"), collected_static, database_url=database, extra_env=env, prepare=False
            ) as two:
                yield one, two, tokens
    finally:
        cache = redis.Redis.from_url(REDIS_URL)
        for key in cache.scan_iter(f"{prefix}:*"):
            cache.delete(key)


def _api(server: Served, token: str) -> httpx.Client:
    """A client of the site as a proxy in front of both servers passes it on: one Host for both (the answers'
    links, and so their ETags, name the site, not the server's port)."""
    headers = {"Authorization": f"Bearer {token}", "Host": "127.0.0.1"}
    return httpx.Client(base_url=server.url + "/api/v1", headers=headers, timeout=30)


def test_a_hand_recorded_through_one_server_changes_the_others_etag_at_once(servers):
    one, two, (token, _) = servers
    with _api(one, token) as first, _api(two, token) as second:
        document = {"variant": "baifen.benxi", "players": ["甲", "乙", "丙", "丁"], "hands": BENXI_EXAMPLE[:2]}
        made = first.post("/clubs/demo/sessions/?close=false", json=document)
        assert made.status_code == 201, made.text
        url = f"/sessions/{made.json()['id']}/"
        etag = first.get(url).headers["ETag"]
        assert second.get(url, headers={"If-None-Match": etag}).status_code == 304  # one version, both servers
        recorded = second.post(url + "hands/", json=BENXI_EXAMPLE[2])
        assert recorded.status_code == 201, recorded.text
        changed = first.get(url, headers={"If-None-Match": etag})
        assert changed.status_code == 200 and changed.headers["ETag"] != etag
        assert second.get(url, headers={"If-None-Match": changed.headers["ETag"]}).status_code == 304


def test_the_rate_limit_counts_the_requests_to_both_servers(servers):
    one, two, (_, token) = servers
    with _api(one, token) as first, _api(two, token) as second:
        answers = [(first, second)[n % 2].get("/clubs/") for n in range(2 * RATE)]
    statuses = [a.status_code for a in answers]
    assert 429 in statuses, statuses
    refused = statuses.index(429)
    assert set(statuses[refused:]) == {429}  # counted together: once refused, refused by either
    left = [int(a.headers["RateLimit-Remaining"]) for a in answers[:refused]]
    assert left == list(range(left[0], left[0] - refused, -1)) and left[-1] == 0, left
