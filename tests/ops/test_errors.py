"""Errors say something and leave a trace: one JSON shape under /api/, the site's own pages elsewhere."""

from __future__ import annotations

import logging

import pytest
from django.templatetags.static import static
from django.test import Client, override_settings
from rest_framework.settings import api_settings

from tests.api.conftest import assert_error, client_for
from tests.factories import make_club, make_member

pytestmark = pytest.mark.django_db

LOW_RATES = {**api_settings.user_settings, "DEFAULT_THROTTLE_RATES": {"anon": "2/minute", "user": "3/minute"}}


@pytest.mark.parametrize(
    ("method", "path", "status", "code"),
    [
        ("get", "/api/v1/no-such-thing/", 404, "not_found"),
        ("get", "/api/nothing", 404, "not_found"),
        ("delete", "/api/v1/clubs/", 405, "method_not_allowed"),
        ("put", "/api/v1/clubs/", 405, "method_not_allowed"),
    ],
)
def test_api_refusals_outside_any_view_have_the_one_error_shape(method, path, status, code):
    user = make_member(make_club())
    response = getattr(client_for(user), method)(path)
    assert_error(response, status, code)


def test_an_api_body_of_the_wrong_media_type_is_a_415():
    user = make_member(make_club(slug="c"))
    response = client_for(user).post("/api/v1/clubs/c/sessions/", "players=a", content_type="text/plain")
    assert_error(response, 415, "unsupported_media_type")


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
@pytest.mark.parametrize(("lang", "words"), [("en", "limit is 1000 bytes"), ("zh-hans", "上限是 1000 字节")])
def test_an_api_body_over_the_limit_is_a_413_that_names_the_limit(lang, words):
    user = make_member(make_club(slug="c"))
    body = '{"players": ["' + "x" * 2000 + '"]}'
    response = client_for(user, lang=lang).post("/api/v1/clubs/c/sessions/", body, content_type="application/json")
    assert_error(response, 413, "body.too_large", field="body")
    assert words in response.json()["message"]


@override_settings(REST_FRAMEWORK=LOW_RATES)
def test_the_api_throttles_a_user_with_a_429_and_retry_after():
    user = make_member(make_club())
    client = client_for(user)
    assert [client.get("/api/v1/clubs/").status_code for _ in range(3)] == [200, 200, 200]
    response = client.get("/api/v1/clubs/")
    assert_error(response, 429, "throttled")
    assert 0 < int(response["Retry-After"]) <= 60


@override_settings(REST_FRAMEWORK=LOW_RATES)
def test_the_api_throttles_anonymous_callers_by_address():
    client = client_for(None)
    assert [client.get("/api/v1/schema/").status_code for _ in range(2)] == [200, 200]
    assert_error(client.get("/api/v1/schema/"), 429, "throttled")
    assert client_for(None).get("/api/v1/schema/", REMOTE_ADDR="10.0.0.9").status_code == 200


@pytest.mark.urls("tests.ops.urls_boom")
def test_an_api_server_error_is_a_500_in_the_one_shape_and_its_traceback_is_logged(caplog):
    client = client_for(None)
    client.raise_request_exception = False
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = client.get("/api/v1/boom/")
    assert_error(response, 500, "server_error")
    record = next(r for r in caplog.records if r.name == "django.request")
    assert record.exc_info and "boom: a bug in a view" in str(record.exc_info[1])


@pytest.mark.urls("tests.ops.urls_boom")
@pytest.mark.parametrize(("lang", "heading"), [("en", "Something went wrong"), ("zh-hans", "出错了")])
def test_a_page_server_error_is_the_sites_500_page_in_the_language(lang, heading):
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE=lang)
    response = client.get("/boom/")
    assert response.status_code == 500
    page = response.content.decode()
    assert f"<h1>{heading}</h1>" in page and static("css/base.css") in page


@pytest.mark.parametrize(("lang", "heading"), [("en", "Page not found"), ("zh-hans", "页面不存在")])
def test_an_unknown_page_is_the_sites_404_page_in_the_language(client, lang, heading):
    response = client.get("/no/such/page/", HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 404
    assert f"<h1>{heading}</h1>" in response.content.decode()


@pytest.mark.parametrize(("lang", "heading"), [("en", "Not allowed"), ("zh-hans", "没有权限")])
def test_a_viewers_write_is_the_sites_403_page_in_the_language(client, lang, heading):
    club = make_club(slug="v")
    client.force_login(make_member(club, "viewer"))
    response = client.get("/clubs/v/sessions/new/", HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 403
    assert f"<h1>{heading}</h1>" in response.content.decode()


# Bad input no view should ever see: each a 400 in the page's or the API's shape, never a 500 (PostgreSQL refuses
# NUL in text and django-axes records a failed login's username in 255 characters).
BAD_REQUESTS = [
    ("get", "/s/%00/", {}),
    ("get", "/s/%00/live/", {}),
    ("get", "/s/ab%00cd/", {}),
    ("get", "/clubs/%00/", {}),
    ("get", "/?next=%00", {}),
    ("post", "/login/", {"username": "u" * 256, "password": "x"}),
    ("post", "/login/", {"username": "u" * 151, "password": "x"}),  # longer than any account's username
    ("post", "/admin/login/", {"username": "u" * 256, "password": "x"}),
]


@pytest.mark.parametrize(("method", "path", "data"), BAD_REQUESTS)
@pytest.mark.parametrize(("lang", "heading"), [("en", "Bad request"), ("zh-hans", "请求有误")])
def test_bad_input_outside_any_form_is_the_sites_400_page(method, path, data, lang, heading):
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE=lang)
    response = getattr(client, method)(path, data)
    assert response.status_code == 400
    assert f"<h1>{heading}</h1>" in response.content.decode()


@pytest.mark.parametrize("path", ["/api/v1/clubs/%00/", "/api/v1/clubs/?x=%00", "/api/v1/variants/%00/"])
def test_a_nul_in_an_api_address_is_a_400_in_the_one_error_shape(path):
    user = make_member(make_club())
    client = client_for(user)
    client.raise_request_exception = False
    assert_error(client.get(path), 400, "bad_request")


def test_a_long_username_is_refused_before_any_attempt_is_recorded():
    from axes.models import AccessAttempt

    Client(raise_request_exception=False).post("/login/", {"username": "u" * 300, "password": "x"})
    assert not AccessAttempt.objects.exists()
