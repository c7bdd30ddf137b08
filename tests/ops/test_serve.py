"""What `make serve` serves: every page's files, the service worker, the manifest and its icons answer 200.

The site runs as a club runs it (tests/served.py: gunicorn with gunicorn.conf.py, DEBUG off, the collected
static files, the demo club). Each page is fetched logged in, and everything it links is fetched in turn:
style sheets, scripts, icons, the manifest (and every icon it names), the service worker (and every file it
keeps, which must be the hashed names the pages link).
"""

from __future__ import annotations

import json
import re

import httpx
import pytest
from django.templatetags.static import static

from tests.linked import linked, linked_static
from tests.served import served

HASHED = re.compile(r"^/static/.+\.[0-9a-f]{12}\.[a-z0-9]+$")


@pytest.fixture(scope="module")
def site(tmp_path_factory, collected_static):
    with served(tmp_path_factory.mktemp("serve"), collected_static) as running:
        client = running.logged_in()
        try:
            yield running, client
        finally:
            client.close()


def _get(client, url, site):
    response = client.get(url)
    log = site.log.read_text()[-3000:]
    assert response.status_code == 200, f"{url} answered {response.status_code}; gunicorn's log:\n{log}"
    assert response.content, url
    return response


def _worker_config(body: str) -> dict:
    return json.loads(body.split("var CONFIG = ", 1)[1].split(";\n", 1)[0])


def test_every_page_and_everything_it_links_answers_200(site):
    running, client = site
    pages = [
        "/login/",
        running.pages["club"],  # where / leads the demo owner
        running.pages["session"],
        running.pages["table"],
        running.pages["share"],
        running.pages["share"] + "?view=tv",
        "/tokens/",
        "/api/v1/docs/",
    ]
    fetched: dict[str, int] = {}
    for page in pages:
        html = _get(client, page, running).text
        urls = linked(html)
        assert linked_static(html), f"{page} links no static file"
        for url in urls:
            if url not in fetched:
                fetched[url] = _get(client, url, running).status_code
        # Collected names, as the manifest storage gives them (a plain name would be served uncached).
        assert [url for url in linked_static(html) if not HASHED.match(url)] == [], page
    # The API docs page's own files, its start-up script and Swagger UI's bundle, came with it.
    assert "/api/v1/docs/?script=" in fetched
    assert any("swagger-ui-bundle" in url for url in fetched)


def test_the_service_worker_the_manifest_and_every_icon_answer_200(site):
    running, client = site
    table = _get(client, running.pages["table"], running).text
    share = _get(client, running.pages["share"], running).text
    assert 'data-sw="/sw.js"' in table and 'data-sw="/sw.js"' in share

    worker = _get(client, "/sw.js", running)
    assert worker.headers["Content-Type"].startswith("application/javascript")
    config = _worker_config(worker.text)
    assert config["static"] == "/static/"
    for url in config["assets"]:
        assert HASHED.match(url), url
        _get(client, url, running)
    # What the table and share pages link is what the worker keeps, under the same (hashed) names.
    for html in (table, share):
        assert [url for url in linked_static(html) if url not in config["assets"]] == []

    manifests = [url for url in linked(table) + linked(share) if url.startswith("/manifest.webmanifest")]
    assert manifests
    for url in dict.fromkeys(manifests):
        manifest = _get(client, url, running).json()
        assert manifest["icons"]
        for icon in manifest["icons"]:
            assert HASHED.match(icon["src"]), icon
            _get(client, icon["src"], running)

    favicon = client.get("/favicon.ico")
    assert favicon.status_code == 302 and HASHED.match(favicon.headers["Location"])
    _get(client, favicon.headers["Location"], running)


def test_an_error_page_links_only_files_that_are_served(site):
    running, client = site
    missing = client.get("/clubs/no-such-club/")
    assert missing.status_code == 404
    for url in linked(missing.text):
        _get(client, url, running)


def test_the_test_live_server_serves_the_collected_files_as_whitenoise_does(live_server):
    """The browser tests' server: a hashed name with WhiteNoise's far-future headers, never the source tree."""
    hashed = httpx.get(live_server.url + static("css/base.css"))
    assert hashed.status_code == 200 and "immutable" in hashed.headers["Cache-Control"]
    assert httpx.get(live_server.url + "/manage.py").status_code == 404


@pytest.mark.parametrize(
    ("headers", "query", "code"),
    [
        ({}, "offset=" + "9" * 4100, "414"),
        ({"If-None-Match": "x" * 8200}, "", "431"),
    ],
    ids=["a request line over 4,094 bytes", "a header over 8,190 bytes"],
)
def test_what_the_server_answers_before_the_api_is_what_the_schema_says(site, headers, query, code):
    """gunicorn refuses these before Django reads the request; the schema documents them as its HTML page."""
    running, client = site
    schema = client.get("/api/v1/schema/", headers={"Accept": "application/json"}).json()
    documented = schema["paths"]["/api/v1/tokens/"]["get"]["responses"][code]
    refused = httpx.get(f"{running.url}/api/v1/tokens/?{query}", headers=headers)
    assert str(refused.status_code) == code
    assert refused.headers["Content-Type"].split(";")[0] in documented["content"]
    assert "X-Request-Id" not in refused.headers
