"""Every answer names its request (`X-Request-Id`, the client's own or one made) and, once the call is
authenticated, its rate limit (`RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`)."""

from __future__ import annotations

import logging
import re

import pytest
from django.test import override_settings
from rest_framework.settings import api_settings

from baifen_ledger.request_id import RequestIdFilter

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/api/v1/clubs/", "/api/v1/nowhere/", "/login/"])
def test_every_answer_carries_a_request_id_made_when_the_client_sent_none(table, path):
    first, second = (table.client("owner").get(path) for _ in range(2))
    assert re.fullmatch(r"[0-9a-f]{32}", first["X-Request-Id"]) and first["X-Request-Id"] != second["X-Request-Id"]


@pytest.mark.parametrize(("sent", "kept"), [("client-42.a:b", True), ("x" * 129, False), ("two words", False)])
def test_a_clients_own_request_id_is_kept_when_it_is_a_plain_token(table, sent, kept):
    got = table.client("owner").get("/api/v1/clubs/", HTTP_X_REQUEST_ID=sent)["X-Request-Id"]
    assert (got == sent) is kept and re.fullmatch(r"[A-Za-z0-9._:-]{1,128}", got)


def test_the_log_lines_of_a_request_name_its_id(table, caplog):
    caplog.handler.addFilter(RequestIdFilter())
    with caplog.at_level(logging.WARNING, logger="django.request"):
        table.client("owner").get("/api/v1/clubs/?page=2", HTTP_X_REQUEST_ID="trace-7")
    assert [r.request_id for r in caplog.records if r.name == "django.request"] == ["trace-7"]


def test_an_authenticated_answer_says_how_much_of_its_rate_limit_is_left(table, settings):
    rates = {**api_settings.DEFAULT_THROTTLE_RATES, "user": "5/minute"}
    with override_settings(REST_FRAMEWORK={**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}):
        client = table.client("owner")
        answers = [client.get("/api/v1/clubs/") for _ in range(6)]
    assert [a.status_code for a in answers] == [200] * 5 + [429]
    assert [a["RateLimit-Remaining"] for a in answers] == ["4", "3", "2", "1", "0", "0"]
    assert {a["RateLimit-Limit"] for a in answers} == {"5"}
    assert all(0 < int(a["RateLimit-Reset"]) <= 60 for a in answers)
    assert "Retry-After" in answers[-1]
