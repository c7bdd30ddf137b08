"""Personal API tokens: made, listed and revoked through the API; sent as Bearer or Token; stored hashed."""

from __future__ import annotations

import datetime
import re

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from settlement.ledger import LedgerError
from settlement.models import ApiToken
from settlement.services import api_token_create

from .conftest import assert_error

pytestmark = pytest.mark.django_db


def _with(secret: str, keyword: str = "Bearer") -> APIClient:
    return APIClient(HTTP_AUTHORIZATION=f"{keyword} {secret}", HTTP_ACCEPT_LANGUAGE="en")


def test_a_token_made_through_the_api_works_as_bearer_and_token_and_is_stored_hashed(table):
    response = table.client("viewer").post("/api/v1/tokens/", {"name": "spreadsheet"}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    secret = body["token"]
    assert secret.startswith("bf_") and body["prefix"] == secret[:10] and body["expires"] is None
    stored = ApiToken.objects.get(pk=body["id"])
    assert secret not in (stored.key_hash, stored.prefix) and len(stored.key_hash) == 64
    for keyword in ("Bearer", "Token", "bearer"):
        assert _with(secret, keyword).get("/api/v1/clubs/").json()["results"][0]["slug"] == "laonian"
    listed = table.client("viewer").get("/api/v1/tokens/").json()["results"]
    assert [t["name"] for t in listed] == ["spreadsheet"] and "token" not in listed[0]
    assert listed[0]["last_used"] is not None


def test_a_revoked_token_stops_working_and_the_list_says_when(table):
    token, secret = api_token_create(user=table.owner, name="phone")
    response = _with(secret).delete(f"/api/v1/tokens/{token.pk}/")
    assert response.status_code == 204 and response.content == b""
    assert_error(_with(secret).get("/api/v1/clubs/"), 401, "authentication_failed")
    assert table.client("owner").get("/api/v1/tokens/").json()["results"][0]["revoked"] is not None


def test_an_expired_token_is_refused(table):
    token, secret = api_token_create(
        user=table.owner, name="old", expires_at=timezone.now() + datetime.timedelta(hours=1)
    )
    ApiToken.objects.filter(pk=token.pk).update(expires_at=timezone.now() - datetime.timedelta(seconds=1))
    assert_error(_with(secret).get("/api/v1/clubs/"), 401, "authentication_failed")


def test_another_users_token_cannot_be_revoked(table):
    token, secret = api_token_create(user=table.owner, name="mine")
    assert_error(table.client("outsider").delete(f"/api/v1/tokens/{token.pk}/"), 404, "token.not_found", field="id")
    assert _with(secret).get("/api/v1/clubs/").status_code == 200
    assert table.client("outsider").get("/api/v1/tokens/").json()["results"] == []


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({}, "token.name_required", "name"),
        ({"name": "  "}, "token.name_required", "name"),
        ({"name": "x" * 61}, "value.too_long", "name"),  # ApiToken.name holds 60
        ({"name": 5}, "value.not_text", "name"),
        ({"name": "x", "expires": "2000-01-01T00:00:00Z"}, "token.expired", "expires"),
        ({"name": "x", "expires": "soon"}, "invalid", "expires"),
        ({"name": "x", "scope": "all"}, "field.unknown", "scope"),
    ],
)
def test_a_token_request_that_is_wrong_is_refused_naming_the_field(table, body, code, field):
    assert_error(table.client("owner").post("/api/v1/tokens/", body, format="json"), 400, code, field=field)
    assert not ApiToken.objects.exists()


def test_a_tokens_secret_is_the_prefix_and_32_random_bytes_in_url_safe_base64(table):
    # 32 bytes are 256 bits, 43 characters of base64 without padding (ceil(256 / 6)).
    _token, secret = api_token_create(user=table.owner, name="x")
    assert re.fullmatch(r"bf_[A-Za-z0-9_-]{43}", secret), secret


def test_a_token_expiring_at_the_moment_it_is_made_is_refused(table, monkeypatch):
    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now)
    with pytest.raises(LedgerError) as caught:
        api_token_create(user=table.owner, name="x", expires_at=now)
    assert (caught.value.code, caught.value.field) == ("token.expired", "expires")
    assert not ApiToken.objects.exists()


def test_revoking_one_of_three_tokens_revokes_that_one_only(table):
    made = [api_token_create(user=table.owner, name=name) for name in ("first", "second", "third")]
    (_, middle_secret) = made[1]
    assert table.client("owner").delete(f"/api/v1/tokens/{made[1][0].pk}/").status_code == 204
    assert_error(_with(middle_secret).get("/api/v1/clubs/"), 401, "authentication_failed")
    for token, secret in (made[0], made[2]):
        assert _with(secret).get("/api/v1/clubs/").status_code == 200
        assert ApiToken.objects.get(pk=token.pk).revoked_at is None


def test_a_token_with_an_expiry_keeps_it(table):
    when = (timezone.now() + datetime.timedelta(days=30)).replace(microsecond=0)
    body = (
        table.client("owner").post("/api/v1/tokens/", {"name": "x", "expires": when.isoformat()}, format="json").json()
    )
    assert datetime.datetime.fromisoformat(body["expires"]) == when


def test_tokens_need_a_login(table):
    assert_error(table.client("anonymous").get("/api/v1/tokens/"), 401, "not_authenticated")
    assert_error(_with("bf_nothing").get("/api/v1/tokens/"), 401, "authentication_failed")


def test_the_old_authtoken_works_with_either_keyword_until_it_is_deleted(table):
    from rest_framework.authtoken.models import Token

    legacy = Token.objects.create(user=table.viewer)
    for keyword in ("Token", "Bearer"):
        assert _with(legacy.key, keyword).get("/api/v1/clubs/").status_code == 200
    legacy.delete()
    assert_error(_with(legacy.key, "Token").get("/api/v1/clubs/"), 401, "authentication_failed")


@pytest.mark.parametrize(("lang", "title"), [("en", "API tokens"), ("zh-hans", "API 令牌")])
def test_the_tokens_page_makes_shows_once_and_revokes_a_token(table, client, lang, title):
    client.force_login(table.owner)
    client.cookies["django_language"] = lang
    page = client.get("/tokens/", HTTP_ACCEPT_LANGUAGE=lang)
    assert page.status_code == 200 and title in page.content.decode()
    made = client.post("/tokens/", {"name": "表格", "days": "30"}, HTTP_ACCEPT_LANGUAGE=lang)
    assert made.status_code == 302 and made["Location"] == "/tokens/"  # post, redirect, get
    token = ApiToken.objects.get(user=table.owner)
    html = client.get("/tokens/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    secret = html.split('id="token-secret">')[1].split("<")[0]
    assert secret.startswith(token.prefix) and token.expires_at is not None
    assert _with(secret).get("/api/v1/clubs/").status_code == 200
    # Shown once: the list shows only its first characters.
    assert secret not in client.get("/tokens/").content.decode()
    assert client.post(f"/tokens/{token.pk}/revoke/").status_code == 302
    assert _with(secret).get("/api/v1/clubs/").status_code == 401


def test_reloading_the_page_after_making_a_token_makes_no_second_one_and_hides_the_secret(table, client):
    client.force_login(table.owner)
    shown = client.post("/tokens/", {"name": "表格", "days": "0"}, follow=True)
    assert shown.redirect_chain == [("/tokens/", 302)]
    secret = shown.content.decode().split('id="token-secret">')[1].split("<")[0]
    assert secret.startswith("bf_") and secret not in shown.redirect_chain[0][0]
    reloaded = client.get("/tokens/").content.decode()
    assert ApiToken.objects.filter(user=table.owner).count() == 1
    assert secret not in reloaded and 'id="token-secret"' not in reloaded
    assert secret not in str(client.cookies)


def test_an_invalid_token_form_makes_nothing_and_stays_on_the_page(table, client):
    client.force_login(table.owner)
    page = client.post("/tokens/", {"name": "", "days": "0"})
    assert page.status_code == 200 and 'id="token-secret"' not in page.content.decode()
    assert not ApiToken.objects.filter(user=table.owner).exists()


def test_the_tokens_page_needs_a_login_and_revokes_only_ones_own(table, client):
    assert client.get("/tokens/").status_code == 302
    token, secret = api_token_create(user=table.owner, name="mine")
    client.force_login(table.outsider)
    client.post(f"/tokens/{token.pk}/revoke/")
    assert _with(secret).get("/api/v1/clubs/").status_code == 200
    assert "mine" not in client.get("/tokens/").content.decode()


def test_the_tokens_page_is_in_chinese_for_a_chinese_reader(table, client):
    client.force_login(table.owner)
    client.cookies["django_language"] = "zh-hans"
    html = client.get("/tokens/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "令牌让脚本" in html and "新建令牌" in html and "你还没有令牌" in html
