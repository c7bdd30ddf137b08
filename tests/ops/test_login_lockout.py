"""Login throttling (django-axes): 10 failures for one username from one address lock that pair out for 15 minutes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt, AccessAttemptExpiration
from django.urls import reverse
from django.utils import timezone

from tests.factories import make_club, make_member, make_user

pytestmark = pytest.mark.django_db

PASSWORD = "the-right-pass"


@pytest.fixture(autouse=True)
def _fast_hashing(settings):
    """Dozens of logins: a fast hasher keeps this module to seconds (the lock-out does not depend on it)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def user():
    user = make_user("keeper", password=PASSWORD)
    make_member(make_club(slug="k"), user=user)
    return user


def _fail(client, times: int, *, username: str = "keeper", addr: str = "10.1.1.1") -> list[int]:
    return [
        client.post(reverse("login"), {"username": username, "password": "wrong"}, REMOTE_ADDR=addr).status_code
        for _ in range(times)
    ]


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ("en", "Too many failed logins for this username from your address. Try again in 15 minutes."),
        ("zh-hans", "此用户名从你的地址登录失败次数过多。请 15 分钟后再试。"),
    ],
)
def test_ten_failures_lock_out_even_the_right_password_with_a_clear_message(client, user, lang, message):
    assert _fail(client, 9) == [200] * 9  # the login page again, "didn't match"
    response = client.post(
        reverse("login"), {"username": "keeper", "password": "wrong"}, REMOTE_ADDR="10.1.1.1", HTTP_ACCEPT_LANGUAGE=lang
    )
    assert response.status_code == 429
    right = {"username": "keeper", "password": PASSWORD}
    response = client.post(reverse("login"), right, REMOTE_ADDR="10.1.1.1", HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 429
    page = response.content.decode()
    assert message in page and 'name="password"' in page  # the login page itself, saying why
    assert "_auth_user_id" not in client.session


def test_nine_failures_still_let_the_right_password_in(client, user):
    _fail(client, 9)
    response = client.post(reverse("login"), {"username": "keeper", "password": PASSWORD}, REMOTE_ADDR="10.1.1.1")
    assert response.status_code == 302


@pytest.mark.parametrize(("username", "addr"), [("keeper", "10.2.2.2"), ("someone-else", "10.1.1.1")])
def test_the_lock_is_on_the_username_and_address_together(client, user, username, addr):
    _fail(client, 10)
    make_user("someone-else", password=PASSWORD)
    response = client.post(reverse("login"), {"username": username, "password": PASSWORD}, REMOTE_ADDR=addr)
    assert response.status_code == 302


def test_the_lock_ends_after_15_minutes(client, user):
    _fail(client, 10)
    # 15 minutes and a little later, as far as axes' records can tell.
    past = timezone.now() - timedelta(minutes=15, seconds=5)
    AccessAttempt.objects.update(attempt_time=past)
    AccessAttemptExpiration.objects.update(expires_at=past + timedelta(minutes=15))
    response = client.post(reverse("login"), {"username": "keeper", "password": PASSWORD}, REMOTE_ADDR="10.1.1.1")
    assert response.status_code == 302


def test_the_admin_login_is_locked_out_too(client, user):
    user.is_staff = True
    user.save()
    for _ in range(10):
        client.post("/admin/login/", {"username": "keeper", "password": "wrong"}, REMOTE_ADDR="10.3.3.3")
    response = client.post("/admin/login/", {"username": "keeper", "password": PASSWORD}, REMOTE_ADDR="10.3.3.3")
    assert response.status_code == 429


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, "203.0.113.7", "127.0.0.1"),
        (1, "203.0.113.7", "203.0.113.7"),
        (1, "198.51.100.1, 203.0.113.7", "203.0.113.7"),
        (2, "198.51.100.1, 203.0.113.7", "198.51.100.1"),
        (2, "203.0.113.7", "127.0.0.1"),
    ],
)
def test_the_client_address_trusts_only_the_configured_proxies(rf, settings, proxies, forwarded, expected):
    from baifen_ledger.views import client_ip

    settings.BAIFEN_TRUSTED_PROXIES = proxies
    request = rf.get("/login/", HTTP_X_FORWARDED_FOR=forwarded, REMOTE_ADDR="127.0.0.1")
    assert client_ip(request) == expected
