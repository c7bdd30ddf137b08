"""Who may call what: anonymous callers are 401, another club's objects 404, viewers cannot write."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.templatetags.static import static
from rest_framework.test import APIClient

from settlement.models import Hand, HandRevision, Player, Session
from tests.factories import BENXI_EXAMPLE

from .conftest import assert_error

pytestmark = pytest.mark.django_db

DOCUMENT = {"variant": "baifen.benxi", "players": ["甲", "乙", "丙", "丁"], "hands": BENXI_EXAMPLE[:3]}

# (endpoint, method, path, body, writes, status for the owner)
ENDPOINTS = [
    ("players", "get", "/api/v1/clubs/{slug}/players/", None, False, 200),
    ("sessions", "get", "/api/v1/clubs/{slug}/sessions/", None, False, 200),
    ("import", "post", "/api/v1/clubs/{slug}/sessions/", DOCUMENT, True, 201),
    ("standings", "get", "/api/v1/clubs/{slug}/standings/", None, False, 200),
    ("standings csv", "get", "/api/v1/clubs/{slug}/standings/?format=csv", None, False, 200),
    ("session", "get", "/api/v1/sessions/{id}/", None, False, 200),
    ("export", "get", "/api/v1/sessions/{id}/export/", None, False, 200),
    ("hands", "get", "/api/v1/sessions/{id}/hands/", None, False, 200),
    ("hand", "post", "/api/v1/sessions/{id}/hands/", BENXI_EXAMPLE[2], True, 201),
    ("preview", "post", "/api/v1/sessions/{id}/hands/preview/", BENXI_EXAMPLE[2], False, 200),
    (
        "correct",
        "post",
        "/api/v1/sessions/{id}/hands/1/correct/",
        {"hand": BENXI_EXAMPLE[0] | {"captured": 10}, "reason": "10, not 15"},
        True,
        200,
    ),
    ("void", "post", "/api/v1/sessions/{id}/hands/2/void/", {"reason": "entered twice"}, True, 200),
]
IDS = [e[0] for e in ENDPOINTS]
WRITES = [e for e in ENDPOINTS if e[4]]


def _call(client, table, method, path, body):
    url = path.format(slug=table.club.slug, id=table.session.pk)
    return getattr(client, method)(url, body, format="json") if body is not None else getattr(client, method)(url)


def _ledger():
    return (Session.objects.count(), Hand.objects.count(), HandRevision.objects.count(), Player.objects.count())


@pytest.mark.parametrize(("name", "method", "path", "body", "writes", "ok"), ENDPOINTS, ids=IDS)
def test_an_anonymous_caller_gets_401_naming_the_token_scheme(table, name, method, path, body, writes, ok):
    before = _ledger()
    response = _call(table.client("anonymous"), table, method, path, body)
    assert_error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == "Token"
    assert _ledger() == before


@pytest.mark.parametrize(("name", "method", "path", "body", "writes", "ok"), ENDPOINTS, ids=IDS)
def test_a_bad_token_gets_401(table, name, method, path, body, writes, ok):
    client = APIClient(HTTP_AUTHORIZATION="Token 0123456789abcdef0123456789abcdef01234567")
    assert_error(_call(client, table, method, path, body), 401, "authentication_failed")


@pytest.mark.parametrize(("name", "method", "path", "body", "writes", "ok"), ENDPOINTS, ids=IDS)
def test_another_clubs_member_gets_404_and_changes_nothing(table, name, method, path, body, writes, ok):
    before = _ledger()
    assert_error(_call(table.client("outsider"), table, method, path, body), 404, "not_found")
    assert _ledger() == before


@pytest.mark.parametrize(("name", "method", "path", "body", "writes", "ok"), ENDPOINTS, ids=IDS)
def test_a_viewer_reads_but_cannot_write(table, name, method, path, body, writes, ok):
    before = _ledger()
    response = _call(table.client("viewer"), table, method, path, body)
    if writes:
        assert_error(response, 403, "permission_denied")
        assert _ledger() == before
    else:
        assert response.status_code == ok, response.content


@pytest.mark.parametrize(("name", "method", "path", "body", "writes", "ok"), ENDPOINTS, ids=IDS)
@pytest.mark.parametrize("who", ["owner", "scorekeeper"])
def test_owners_and_scorekeepers_may_call_every_endpoint(table, who, name, method, path, body, writes, ok):
    response = _call(table.client(who), table, method, path, body)
    assert response.status_code == ok, response.content


def test_clubs_lists_only_the_callers_clubs_with_the_role(table):
    response = table.client("viewer").get("/api/v1/clubs/")
    assert response.status_code == 200
    clubs = response.json()["results"]
    assert [{k: c[k] for k in ("slug", "name", "role")} for c in clubs] == [
        {"slug": "laonian", "name": "老年活动中心", "role": "viewer"}
    ]
    assert [c["slug"] for c in table.client("outsider").get("/api/v1/clubs/").json()["results"]] == ["other"]
    assert_error(table.client("anonymous").get("/api/v1/clubs/"), 401, "not_authenticated")


def test_a_missing_session_is_the_same_404_as_another_clubs(table):
    missing = table.client("owner").get("/api/v1/sessions/999999/")
    foreign = table.client("outsider").get(f"/api/v1/sessions/{table.session.pk}/")
    assert missing.json() == foreign.json()


def test_a_hand_for_a_missing_session_is_the_same_404_as_for_another_clubs(table):
    """The entry's view reads no session: the service's lock scopes it (services.hand_record)."""
    before = _ledger()
    missing = table.client("owner").post("/api/v1/sessions/999999/hands/", BENXI_EXAMPLE[2], format="json")
    foreign = table.client("outsider").post(
        f"/api/v1/sessions/{table.session.pk}/hands/", BENXI_EXAMPLE[2], format="json", HTTP_IDEMPOTENCY_KEY="k-1"
    )
    assert_error(missing, 404, "not_found")
    assert missing.json() == foreign.json()
    assert _ledger() == before


def test_the_schema_and_the_docs_need_no_login(client):
    schema = client.get("/api/v1/schema/")
    assert schema.status_code == 200 and b"openapi: 3" in schema.content
    docs = client.get("/api/v1/docs/")
    assert docs.status_code == 200
    # Swagger UI comes from the sidecar package under /static/, never from a CDN.
    assert static("drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js").encode() in docs.content
    assert b"cdn" not in docs.content.lower()


def test_a_browser_session_can_read_and_must_send_the_csrf_token_to_write(table):
    browser = APIClient(enforce_csrf_checks=True)
    browser.force_login(table.owner)
    assert browser.get(f"/api/v1/sessions/{table.session.pk}/").status_code == 200
    response = browser.post(f"/api/v1/sessions/{table.session.pk}/hands/", BENXI_EXAMPLE[2], format="json")
    body = assert_error(response, 403, "permission_denied")
    assert "CSRF" in body["message"]
    assert Hand.objects.filter(session=table.session).count() == 2


def test_drf_create_token_makes_a_token_the_api_accepts(table, capsys):
    call_command("drf_create_token", table.scorekeeper.username)
    key = capsys.readouterr().out.split()[2]
    client = APIClient(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get("/api/v1/clubs/").json()["results"][0]["slug"] == "laonian"
