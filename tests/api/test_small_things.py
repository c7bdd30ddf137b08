"""What clients rely on (issue 30, point 7): `Location` on every 201, one hand's GET, a throttle on wrong tokens,
the errors raised outside the views compact UTF-8 JSON, a malformed body's error in the user's language."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import override_settings
from rest_framework.settings import api_settings
from rest_framework.test import APIClient

from settlement.models import Hand
from tests.factories import BENXI_EXAMPLE, NAMES

from .conftest import assert_error

DOCUMENT = {"variant": "baifen.benxi", "players": list(NAMES), "hands": BENXI_EXAMPLE[:2]}


@pytest.mark.parametrize(
    ("url", "body"),
    [
        ("/api/v1/clubs/laonian/sessions/", DOCUMENT),
        ("/api/v1/sessions/{session}/hands/", BENXI_EXAMPLE[2]),
        ("/api/v1/tokens/", {"name": "sheet"}),
    ],
)
def test_a_201_names_the_address_of_what_it_made_and_that_address_reads_it(table, url, body):
    client = table.client("owner")
    made = client.post(url.format(session=table.session.pk), body, format="json")
    assert made.status_code == 201, made.content
    assert made["Location"].startswith("http://testserver/api/v1/")
    read = client.get(made["Location"])
    assert read.status_code == 200
    assert read.json()["created"] == made.json()["created"]


def test_one_hand_is_read_as_the_list_gives_it_with_an_etag(table):
    client = table.client("owner")
    listed = client.get(f"/api/v1/sessions/{table.session.pk}/hands/").json()["results"][1]
    one = client.get(f"/api/v1/sessions/{table.session.pk}/hands/2/")
    assert one.status_code == 200 and one.json() == listed and listed["n"] == 2
    again = client.get(f"/api/v1/sessions/{table.session.pk}/hands/2/", HTTP_IF_NONE_MATCH=one["ETag"])
    assert again.status_code == 304


def test_a_hand_not_in_the_session_is_a_404(table):
    response = table.client("owner").get(f"/api/v1/sessions/{table.session.pk}/hands/9/")
    assert_error(response, 404, "hand.not_found", field="number")
    assert Hand.objects.filter(session=table.session).count() == 2


def test_another_clubs_hand_is_a_404(table):
    response = table.client("outsider").get(f"/api/v1/sessions/{table.session.pk}/hands/1/")
    assert response.status_code == 404


def test_wrong_tokens_past_the_limit_are_429s_with_retry_after(table):
    rates = {**api_settings.DEFAULT_THROTTLE_RATES, "bad_token": "5/minute"}
    with override_settings(REST_FRAMEWORK={**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}):
        wrong = APIClient(HTTP_AUTHORIZATION="Bearer bf_not-a-token")
        answers = [wrong.get("/api/v1/clubs/") for _ in range(8)]
    assert [a.status_code for a in answers] == [401] * 5 + [429] * 3
    assert all(0 < int(a["Retry-After"]) <= 60 for a in answers[5:])
    assert answers[-1].json()["code"] == "throttled"


def test_right_tokens_do_not_count_towards_the_wrong_token_limit(table):
    rates = {**api_settings.DEFAULT_THROTTLE_RATES, "bad_token": "2/minute"}
    with override_settings(REST_FRAMEWORK={**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}):
        statuses = [table.client("owner").get("/api/v1/clubs/").status_code for _ in range(4)]
    assert statuses == [200] * 4


def test_the_default_limit_stops_125_wrong_tokens_well_short_of_125_401s(db):
    wrong = APIClient(HTTP_AUTHORIZATION="Token bf_guess")
    statuses = [wrong.get("/api/v1/clubs/").status_code for _ in range(125)]
    assert statuses.count(401) <= 60 and statuses[-1] == 429


def test_a_right_token_from_that_address_is_refused_too_once_over(table):
    rates = {**api_settings.DEFAULT_THROTTLE_RATES, "bad_token": "2/minute"}
    with override_settings(REST_FRAMEWORK={**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}):
        for _ in range(2):
            APIClient(HTTP_AUTHORIZATION="Bearer bf_wrong").get("/api/v1/clubs/")
        response = table.client("owner").get("/api/v1/clubs/")
    assert response.status_code == 429


@pytest.mark.parametrize(
    ("send", "status"),
    [
        (lambda c: c.get("/api/v1/no-such/", HTTP_ACCEPT_LANGUAGE="zh-hans"), 404),
        (lambda c: c.post("/api/v1/tokens", {}, format="json", HTTP_ACCEPT_LANGUAGE="zh-hans"), 404),
        (
            lambda c: c.generic(
                "POST",
                "/api/v1/tokens/",
                "x",
                content_type="application/json",
                CONTENT_LENGTH=str(settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1),
                HTTP_ACCEPT_LANGUAGE="zh-hans",
            ),
            413,
        ),
    ],
)
def test_errors_outside_the_views_are_compact_utf8_json_in_the_one_shape(table, send, status):
    response = send(table.client("owner"))
    assert response.status_code == status and response["Content-Type"] == "application/json"
    text = response.content.decode("utf-8")
    assert '":' in text and '": ' not in text and '","' in text
    assert "\\u" not in text  # Chinese as UTF-8, not escaped
    assert set(response.json()) == {"code", "hand", "field", "message"}


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ("en", "The body is not valid JSON (line 1, column 10)."),
        ("zh-hans", "请求体不是有效的 JSON（第 1 行，第 10 列）。"),
    ],
)
def test_a_malformed_body_is_a_parse_error_in_the_users_language(table, lang, message):
    client = table.client("owner", lang=lang)
    response = client.post("/api/v1/tokens/", '{"name": }', content_type="application/json")
    body = assert_error(response, 400, "parse_error")
    assert body["message"] == message
