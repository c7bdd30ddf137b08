"""CORS: the origins in BAIFEN_CORS_ORIGINS (settings.CORS_ALLOWED_ORIGINS) may call the API from a browser."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.fixture
def allowed(settings):
    settings.CORS_ALLOWED_ORIGINS = ["https://app.example"]


@pytest.mark.parametrize(("origin", "allowed_origin"), [("https://app.example", True), ("https://evil.example", False)])
def test_a_preflight_is_answered_for_a_listed_origin_only(table, allowed, origin, allowed_origin):
    response = table.client("anonymous").options(
        "/api/v1/clubs/",
        HTTP_ORIGIN=origin,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, idempotency-key",
    )
    assert (response.get("Access-Control-Allow-Origin") == origin) is allowed_origin
    if allowed_origin:
        assert "idempotency-key" in response["Access-Control-Allow-Headers"]


def test_a_listed_origin_reads_the_etag_and_the_site_pages_get_no_cors(table, allowed):
    client = table.client("owner")
    response = client.get("/api/v1/clubs/laonian/sessions/", HTTP_ORIGIN="https://app.example")
    assert response["Access-Control-Allow-Origin"] == "https://app.example"
    assert "ETag" in response["Access-Control-Expose-Headers"]
    assert "Access-Control-Allow-Credentials" not in response
    assert "Access-Control-Allow-Origin" not in client.get("/login/", HTTP_ORIGIN="https://app.example")


def test_no_origin_is_allowed_by_default(table):
    response = table.client("owner").get("/api/v1/clubs/", HTTP_ORIGIN="https://app.example")
    assert "Access-Control-Allow-Origin" not in response
