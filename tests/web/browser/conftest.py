"""Browser tests: Playwright's Python package driving the system's Chromium, never a downloaded browser.

With `CI=true` a missing Chromium (or Playwright) fails the run; elsewhere the tests are skipped.
Django's live server runs in a thread of this process, and sync Playwright keeps an event loop
running in the test's thread, so the ORM is told that is fine (DJANGO_ALLOW_ASYNC_UNSAFE). On SQLite the
test database is a file (tests/conftest.py says why), so each of the server's request threads has a connection
of its own, as under gunicorn.

Every page a test visits is checked with axe-core (WCAG 2.1 A and AA): the copy bundled in the pinned
`axe-playwright-python` wheel is put into each document before the page's own scripts (an init
script, which the Content-Security-Policy does not apply to), runs once the page has loaded and its
fetches have settled, and reports back to Python. A test that passed fails with the report of every
violation found on any page it visited; `axe_check(page)` checks the page as it is now (after a
change made by hand, in the dark scheme …). axe-core loads nothing from the network.

A page state this worker has checked already (the same markup but for hidden inputs' values and which digits
stand in text and links, the same form state, viewport and media features) is not checked again: the answer
found for it stands, violations included. The run ends with how many states were checked and how many repeated.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "1"


CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


# Debian's headless build of the same Chromium (package chromium-headless-shell) when it is installed: the same
# Blink draws the pages without the full browser's compositor and GPU process around them, and the browser tests
# are most of `make test` (here: 18 min 56 s with `chromium`, 14 min 29 s with the headless build). Debian's
# `chromium` otherwise.
HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell"


def chromium_path() -> str | None:
    for path in (os.environ.get("CHROMIUM"), HEADLESS_SHELL, "/usr/bin/chromium", shutil.which("chromium")):
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
        _missing("no Chromium (apt-get install chromium chromium-headless-shell fonts-noto-cjk)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package is not installed")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


DOCS_SCREENSHOTS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"


@pytest.fixture
def screenshots(tmp_path: Path) -> Path:
    """Where a test's screenshots go: docs/screenshots/ under `make screenshots` (BAIFEN_SCREENSHOTS=1), else the
    test's own temporary folder, so `make test` never rewrites a tracked file."""
    if os.environ.get("BAIFEN_SCREENSHOTS"):
        DOCS_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        return DOCS_SCREENSHOTS
    return tmp_path


@pytest.fixture
def fast_passwords(settings: Any) -> None:
    """Logging in through the form hashes a password; the fastest hasher keeps the test quick."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# --- axe-core on every page ---

# The rules of WCAG 2.0 and 2.1, levels A and AA (axe's tags); "best-practice" rules are not failures.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
AXE_OPTIONS = {"runOnly": {"type": "tag", "values": AXE_TAGS}, "resultTypes": ["violations"]}


def _axe_source() -> str:
    import axe_playwright_python

    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text(encoding="utf-8")


# Runs in every document before its own scripts: counts the page's fetches (the table page asks for its
# receipt as it loads), and once the page has loaded and nothing is in flight, runs axe and reports.
AXE_RUNNER = """
(() => {
  if (window.top !== window || !/^https?:$/.test(location.protocol)) return;
  let inFlight = 0;
  const realFetch = window.fetch;
  window.fetch = function () {
    inFlight++;
    return realFetch.apply(this, arguments).finally(() => setTimeout(() => inFlight--, 150));
  };
  window.__axeDone = new Promise((resolve) => {
    window.addEventListener("load", () => {
      const started = Date.now();
      const go = () => {
        if (inFlight > 0 && Date.now() - started < 5000) return setTimeout(go, 50);
        window.__axeCheck()
          .then(([key, found]) => window.__axeReport(location.href, found, key))
          .then(resolve, resolve);
      };
      setTimeout(go, 50);
    });
  });
  // What decides axe's answer: the document as it is (markup, form state, scroll), the viewport and the media
  // features. A state already checked in this worker is not checked again: the earlier answer stands for it.
  // Not part of it: hidden inputs' values (a CSRF token, a form's one-time key: new on every response, never
  // shown), and which digits stand in text, links and values
  // (a session's number, a score: each test has its own) — every digit counts as 0, so the length stays.
  // Digits in what ties elements together (id, for, aria-*, headers, name) stay as they are.
  const zero = (text) => text.replace(/[0-9]/g, "0");
  const ZEROED = new Set(["href", "action", "src", "formaction", "value", "content", "title", "datetime"]);
  window.__axeKey = async () => {
    const root = document.documentElement.cloneNode(true);
    root.querySelectorAll("input[type=hidden]").forEach((i) => i.removeAttribute("value"));
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let node = walk.currentNode; node; node = walk.nextNode()) {
      if (node.nodeType === Node.TEXT_NODE) {
        if (node.parentNode.nodeName !== "STYLE") node.data = zero(node.data);  // a style sheet's numbers count
        continue;
      }
      for (const attr of Array.from(node.attributes)) {
        if (ZEROED.has(attr.name) || attr.name.startsWith("data-")) node.setAttribute(attr.name, zero(attr.value));
      }
    }
    const controls = Array.from(document.querySelectorAll("input:not([type=hidden]), select, textarea"), (c) =>
      [zero(c.value), c.checked, c.disabled]);
    const media = ["(prefers-color-scheme: dark)", "(prefers-reduced-motion: reduce)"]
      .map((q) => matchMedia(q).matches);
    const state = JSON.stringify([innerWidth, innerHeight, devicePixelRatio, scrollX, scrollY, media, controls,
      document.activeElement ? zero(document.activeElement.outerHTML.slice(0, 200)) : null, root.outerHTML]);
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(state));
    return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  };
  window.__axeCheck = async () => {
    const key = await window.__axeKey();
    if (await window.__axeKnown(key)) return [key, null];
    const found = await window.axe.run(document, %(options)s)
      .then((r) => window.__axeSlim(r.violations))
      .catch((e) => [{id: "axe-error", impact: "critical", help: String(e), nodes: []}]);
    return [key, found];
  };
  window.__axeSlim = (violations) => violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({target: n.target.join(" "), html: n.html.slice(0, 160), summary: n.failureSummary})),
  }));
})();
"""


def axe_report(found: list[tuple[str, str, list[dict[str, Any]]]]) -> str:
    """The violations, page by page, rule by rule, element by element: readable in a test's failure."""
    lines = [f"axe-core (WCAG 2.1 A/AA) found violations on {len(found)} page state(s):"]
    for where, url, violations in found:
        lines.append(f"\n{url}  [{where}]")
        for v in violations:
            lines.append(f"  {v['id']} ({v['impact']}): {v['help']} — {len(v['nodes'])} element(s)")
            for node in v["nodes"][:8]:
                lines.append(f"    {node['target']}  {node['html']}")
                summary = " ".join((node.get("summary") or "").split())
                if summary:
                    lines.append(f"      {summary[:300]}")
            if len(v["nodes"]) > 8:
                lines.append(f"    … and {len(v['nodes']) - 8} more")
    return "\n".join(lines)


def _where(page: Any) -> str:
    return page.axe_where


def _settle(page: Any) -> None:
    """Wait for the axe run of the document now shown (a test's next step must not cut it short)."""
    from playwright.sync_api import Error

    if page.is_closed():
        return
    for _attempt in range(3):
        try:
            page.evaluate("() => window.__axeDone || null")
            return
        except Error:  # navigating: the next document has its own run
            page.wait_for_load_state("load")


# The answers of axe-core in this worker, by page state (window.__axeKey): a state shown again — the same page,
# the same markup, the same viewport — is not checked again, its earlier answer stands (violations included).
AXE_ANSWERS: dict[str, list[dict[str, Any]]] = {}
AXE_COUNTS = {"checked": 0, "repeated": 0}


def axe_answer(key: str, violations: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """axe's answer for the page state `key`: the one just found, or (None) the one found for it before."""
    if violations is None:
        AXE_COUNTS["repeated"] += 1
        return AXE_ANSWERS[key]
    AXE_COUNTS["checked"] += 1
    if not any(v["id"] == "axe-error" for v in violations):  # an error is no answer: the next time runs again
        AXE_ANSWERS[key] = violations
    return violations


def axe_check(page: Any, what: str = "") -> None:
    """Check the page as it is now (after the test changed it) and fail with the report of its violations."""
    _settle(page)
    key, found = page.evaluate("() => window.__axeCheck()")
    violations = axe_answer(key, found)
    if violations:
        where = _where(page) + (f", {what}" if what else "")
        raise AssertionError(axe_report([(where, page.url, violations)]))


def axe_found(page: Any) -> list[tuple[str, str, list[dict[str, Any]]]]:
    """The violations reported by the automatic runs so far (each page visited), once the last has finished."""
    _settle(page)
    return [(_where(page), url, v) for url, v in page.axe_reports if v]


# The page's methods that act on it or leave it: before each, the run on the current document finishes.
_ACTIONS = ("goto", "click", "dblclick", "fill", "check", "uncheck", "press", "select_option", "go_back", "reload")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: Any) -> Any:
    """A browser test that passed fails when axe-core found a violation on a page it visited."""
    result = yield
    found = []
    for page in getattr(item, "axe_pages", []):
        found.extend(axe_found(page))
    if found:
        raise AssertionError(axe_report(found))
    return result


def pytest_sessionfinish(session: Any) -> None:
    """An xdist worker sends its counts to the controller (tests/conftest.py prints the sum)."""
    if hasattr(session.config, "workeroutput"):
        session.config.workeroutput["axe"] = dict(AXE_COUNTS)


@pytest.fixture
def new_page(browser: Any, live_server: Any, request: Any) -> Iterator[Any]:
    """`new_page(user=None, viewport=PHONE, lang="zh-hans", script=True, color_scheme="light")`: a page in a
    fresh context, as `user`; axe-core checks each document it shows (not with `script=False`: no script runs)."""
    contexts = []
    request.node.axe_pages = []
    _live_server_threads(live_server)  # from the first request on
    runner = _axe_source() + "\n" + AXE_RUNNER % {"options": json.dumps(AXE_OPTIONS)}

    def make(
        user: Any = None,
        viewport: dict[str, int] = PHONE,
        lang: str = "zh-hans",
        script: bool = True,
        color_scheme: str = "light",
        reduced_motion: str = "no-preference",
    ) -> Any:
        context = browser.new_context(
            viewport=viewport,
            device_scale_factor=1,
            java_script_enabled=script,
            color_scheme=color_scheme,
            reduced_motion=reduced_motion,
        )
        context.set_default_timeout(10_000)
        cookies = [{"name": settings.LANGUAGE_COOKIE_NAME, "value": lang, "url": live_server.url}]
        if user is not None:
            client = Client()
            client.force_login(user)
            key = client.cookies[settings.SESSION_COOKIE_NAME].value
            cookies.append({"name": settings.SESSION_COOKIE_NAME, "value": key, "url": live_server.url})
        context.add_cookies(cookies)
        contexts.append(context)
        reports: list[tuple[str, list[dict[str, Any]]]] = []
        if script:
            context.expose_binding(
                "__axeReport", lambda _source, url, found, key: reports.append((url, axe_answer(key, found)))
            )
            context.expose_binding("__axeKnown", lambda _source, key: key in AXE_ANSWERS)
            context.add_init_script(script=runner)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.js_errors = errors
        page.axe_reports = reports
        page.axe_where = f"{lang}, {viewport['width']}×{viewport['height']}, {color_scheme}"
        if script:
            for name in _ACTIONS:
                _settle_before(page, name)
            request.node.axe_pages.append(page)
        return page

    yield make
    for context in contexts:
        context.close()
    _live_server_idle(live_server)


def _live_server_threads(live_server: Any) -> set[threading.Thread]:
    """The live server's request threads still running, kept from now on. Django's server makes them daemon threads,
    which socketserver does not keep (its `_threads` stays empty), so each records itself here while it runs."""
    httpd = getattr(getattr(live_server, "thread", None), "httpd", None)
    if httpd is None:
        return set()
    running = getattr(httpd, "baifen_running", None)
    if running is None:
        running = httpd.baifen_running = set()
        serve = httpd.process_request_thread

        def recorded(request: Any, client_address: Any) -> None:
            running.add(threading.current_thread())
            try:
                serve(request, client_address)
            finally:
                running.discard(threading.current_thread())

        httpd.process_request_thread = recorded  # looked up on the instance as each request's thread starts
    return running


def _live_server_idle(live_server: Any) -> None:
    """Wait for the live server's request threads to end (the browser's connections closed with its contexts), so
    that nothing of a request still runs when the database is flushed after the test (on PostgreSQL a request
    still in its transaction deadlocks the flush's TRUNCATE)."""
    for thread in _live_server_threads(live_server).copy():  # a copy in one step: request threads change the set
        thread.join(timeout=5)


def _settle_before(page: Any, name: str) -> None:
    action = getattr(page, name)

    def settled_first(*args: Any, **kwargs: Any) -> Any:
        _settle(page)
        return action(*args, **kwargs)

    setattr(page, name, settled_first)


def overflows(page: Any) -> list[str]:
    """Elements wider than the viewport (nothing may scroll sideways on a phone)."""
    return page.evaluate(
        """() => {
          const root = document.documentElement, width = root.clientWidth, wide = [];
          if (root.scrollWidth > width) wide.push("document " + root.scrollWidth);
          for (const el of document.querySelectorAll("body *")) {
            const box = el.getBoundingClientRect();
            const out = box.right > width + 0.5 || box.left < -0.5;
            if (el.closest(".table-scroll")) continue;  // a wide data table scrolls in its own region
            if (box.width && out && getComputedStyle(el).position !== "absolute") {
              wide.push(el.tagName.toLowerCase() + "." + el.className + " " + Math.round(box.right));
            }
          }
          return wide;
        }"""
    )
