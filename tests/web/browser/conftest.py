"""Browser tests: Playwright's Python package driving the system's Chromium, never a downloaded browser.

With `CI=true` a missing Chromium (or Playwright) fails the run; elsewhere the tests are skipped.
Django's live server runs in a thread of this process, and sync Playwright keeps an event loop
running in the test's thread, so the ORM is told that is fine (DJANGO_ALLOW_ASYNC_UNSAFE).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "1"

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


def chromium_path() -> str | None:
    for path in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if path and os.path.exists(path):
            return path
    return None


def _missing(why: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true and {why}: the browser tests cannot run", pytrace=False)
    pytest.skip(why)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    path = chromium_path()
    if path is None:
        _missing("no Chromium (apt-get install chromium fonts-noto-cjk)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package is not installed")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def fast_passwords(settings: Any) -> None:
    """Logging in through the form hashes a password; the fastest hasher keeps the test quick."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def new_page(browser: Any, live_server: Any) -> Iterator[Any]:
    """`new_page(user=None, viewport=PHONE, lang="zh-hans", script=True)`: a page in a fresh context, as `user`."""
    contexts = []

    def make(user: Any = None, viewport: dict[str, int] = PHONE, lang: str = "zh-hans", script: bool = True) -> Any:
        context = browser.new_context(viewport=viewport, device_scale_factor=1, java_script_enabled=script)
        context.set_default_timeout(10_000)
        cookies = [{"name": settings.LANGUAGE_COOKIE_NAME, "value": lang, "url": live_server.url}]
        if user is not None:
            client = Client()
            client.force_login(user)
            key = client.cookies[settings.SESSION_COOKIE_NAME].value
            cookies.append({"name": settings.SESSION_COOKIE_NAME, "value": key, "url": live_server.url})
        context.add_cookies(cookies)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.js_errors = errors
        return page

    yield make
    for context in contexts:
        context.close()


def overflows(page: Any) -> list[str]:
    """Elements wider than the viewport (nothing may scroll sideways on a phone)."""
    return page.evaluate(
        """() => {
          const root = document.documentElement, width = root.clientWidth, wide = [];
          if (root.scrollWidth > width) wide.push("document " + root.scrollWidth);
          for (const el of document.querySelectorAll("body *")) {
            const box = el.getBoundingClientRect();
            const out = box.right > width + 0.5 || box.left < -0.5;
            if (box.width && out && getComputedStyle(el).position !== "absolute") {
              wide.push(el.tagName.toLowerCase() + "." + el.className + " " + Math.round(box.right));
            }
          }
          return wide;
        }"""
    )
