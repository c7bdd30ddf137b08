"""The table page under `make serve` itself (tests/served.py: gunicorn, DEBUG off, collected static files), in
Chromium at 360 × 740: logged in through the form, its service worker registers, Chromium finds the app
installable, and with the network off the page reloads from the worker with every file it links.

Chromium says a context of Playwright's own is incognito (not installable there): a profile on disk.
"""

from __future__ import annotations

import pytest

from settlement.management.commands.demo_load import PASSWORD, USERNAME
from tests.served import served

from .conftest import CHROMIUM_ARGS, PHONE, chromium_path
from .test_offline_browser import KEPT_STATIC, LINKED_STATIC, _controlled, expect


@pytest.fixture(scope="module")
def site(tmp_path_factory, collected_static):
    with served(tmp_path_factory.mktemp("serve"), collected_static) as running:
        yield running


def test_under_make_serve_the_table_page_registers_its_worker_is_installable_and_reloads_offline(
    browser, site, tmp_path
):
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=chromium_path(),
        args=CHROMIUM_ARGS,
        viewport=PHONE,
        locale="en-US",  # the pages in English (Accept-Language)
    )
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(site.url + "/login/?next=" + site.pages["table"])
        page.fill('input[name="username"]', USERNAME)
        page.fill('input[name="password"]', PASSWORD)
        page.click('section.login button[type="submit"]')
        page.wait_for_url(site.url + site.pages["table"])
        _controlled(page)
        registration = page.evaluate(
            "() => navigator.serviceWorker.getRegistration().then(r => [r.scope, r.active.scriptURL])"
        )
        assert registration == [site.url + "/", site.url + "/sw.js"]
        assert sorted(set(page.evaluate(LINKED_STATIC)) - set(page.evaluate(KEPT_STATIC))) == []

        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == [] and '"name": "Baifen Ledger"' in manifest["data"]

        totals = page.locator(".scoreboard table.board tbody")
        online = totals.inner_text()
        failed: list[str] = []
        page.on("requestfailed", lambda request: failed.append(request.url))
        context.set_offline(True)
        response = page.reload()
        assert response is not None and response.from_service_worker
        # (navigator.onLine stays true in a persistent context set offline: the live-server tests check the
        # page's "No connection"; here the page and its files came from the worker with the network off.)
        expect(page.locator("#entry-title")).to_be_visible()
        assert totals.inner_text() == online
        page.wait_for_load_state("load")
        assert [url for url in failed if "/static/" in url] == []
        assert errors == []
    finally:
        context.close()
