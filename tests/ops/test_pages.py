"""What every page carries: a strict Content-Security-Policy with nothing inline, icons; and /healthz."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.db import DatabaseError, connection
from django.templatetags.static import static

from tests.factories import BENXI_EXAMPLE, make_session, record_hands

pytestmark = pytest.mark.django_db


class InlineFinder(HTMLParser):
    """Collects what a strict CSP would block: inline scripts, event-handler attributes, style attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        names = dict(attrs)
        if tag == "script" and "src" not in names:
            self._in_script = True
        if tag == "style":
            self.found.append("<style>")
        for name in names:
            if name.startswith("on") or name == "style":
                self.found.append(f"{tag} {name}=")

    def handle_endtag(self, tag):
        self._in_script = self._in_script and tag != "script"

    def handle_data(self, data):
        if self._in_script and data.strip():
            self.found.append("inline <script>")


def inline_parts(html: str) -> list[str]:
    finder = InlineFinder()
    finder.feed(html)
    return finder.found


def test_the_inline_finder_finds_what_it_looks_for():
    html = '<script>alert(1)</script><p style="x"><button onclick="y"><style>a{}</style><script src="/a.js"></script>'
    assert inline_parts(html) == ["inline <script>", "p style=", "button onclick=", "<style>"]


def _pages(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE[:2])
    base = f"/clubs/{club.slug}/"
    return client, [
        "/",
        base,
        base + "history/",
        base + "sessions/new/",
        f"{base}sessions/{session.pk}/",
        f"{base}sessions/{session.pk}/table/",
        f"{base}sessions/{session.pk}/hands/1/",
        "/no/such/page/",
        "/api/v1/docs/",
    ]


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_every_page_has_a_strict_csp_and_nothing_inline(owner_client, lang):
    client, urls = _pages(owner_client)
    for url in urls:
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
        policy = response["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy, url
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, url
        assert inline_parts(response.content.decode()) == [], url


def test_the_login_page_is_clean_too(client):
    response = client.get("/login/")
    assert "default-src 'self'" in response["Content-Security-Policy"]
    assert inline_parts(response.content.decode()) == []


def test_swagger_ui_gets_its_start_up_script_from_a_file(client):
    page = client.get("/api/v1/docs/").content.decode()
    assert '<script src="/api/v1/docs/?script="></script>' in page
    script = client.get("/api/v1/docs/?script=")
    assert script.status_code == 200 and script["Content-Type"].startswith("application/javascript")
    assert b"SwaggerUIBundle" in script.content and b"/api/v1/schema/" in script.content


def test_pages_link_a_favicon_and_an_apple_touch_icon_that_are_served(client):
    page = client.get("/login/").content.decode()
    for name in ("favicon.ico", "img/icon.svg", "img/apple-touch-icon.png"):
        href = static(name)  # the collected copy's hashed name
        assert href != f"/static/{name}" and f'href="{href}"' in page
        assert client.get(href).status_code == 200


def test_favicon_ico_at_the_root_leads_to_the_static_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 302 and response["Location"] == static("favicon.ico")
    assert client.get(response["Location"]).status_code == 200


def test_healthz_answers_without_a_login():
    from django.test import Client

    response = Client().get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}


def test_healthz_is_a_503_when_the_database_does_not_answer(client, monkeypatch):
    def down(*args, **kwargs):
        raise DatabaseError("connection refused")

    monkeypatch.setattr(connection, "cursor", down)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "error", "database": "unavailable"}


def test_healthz_is_not_throttled(client, settings):
    rates = {"anon": "1/hour", "user": "1/hour"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    assert [client.get("/healthz").status_code for _ in range(5)] == [200] * 5


@pytest.mark.parametrize(
    ("lang", "words"),
    [("zh-hans", "表单已过期"), ("en", "The form had expired")],
)
def test_a_form_without_its_csrf_token_gets_the_sites_own_translated_page(lang, words):
    from django.conf import settings
    from django.test import Client
    from django.urls import reverse

    client = Client(enforce_csrf_checks=True)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    response = client.post(reverse("login"), {"username": "x", "password": "y"})
    page = response.content.decode()
    assert response.status_code == 403
    assert words in page and "CSRF verification failed" not in page
