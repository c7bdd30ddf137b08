"""Every page passes axe-core (WCAG 2.1 A and AA), in both languages, on a phone and a desktop, as the
owner, as a viewer and logged out; in the dark scheme too. The table page works by keyboard alone
and with the text at 200 %.

The automatic check in conftest.py runs axe on each page visited here; these tests make sure every
kind of page is visited (the demo club: open and closed sessions of each variant, corrected hands).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from settlement.models import Club, Player, Session
from settlement.rules.registry import VARIANTS
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_session, record_hands

from .conftest import DESKTOP, PHONE, axe_check, overflows

# fast_passwords: demo_load sets two passwords each time (the default hasher takes a second a password here).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_passwords")]

expect = pytest.importorskip("playwright.sync_api").expect


def _demo() -> tuple[Club, User, User]:
    call_command("demo_load", verbosity=0)
    club = Club.objects.get(slug="demo")
    return club, User.objects.get(username="demo"), User.objects.get(username="demo-viewer")


def _pages(club: Club, *, owner: bool) -> list[str]:
    """Every kind of page a member sees: the owner also the new-session page (each variant and player
    count), the fix pages and the close confirmation."""
    base = f"/clubs/{club.slug}"
    open_ = Session.objects.filter(club=club, status=Session.Status.OPEN).order_by("pk").first()
    closed = Session.objects.filter(club=club, status=Session.Status.CLOSED).order_by("pk").first()
    player = Player.objects.filter(club=club).order_by("pk").first()
    pages = [
        "/",
        f"{base}/",
        f"{base}/history/",
        f"{base}/history/?status=closed&player={player.pk}",
        f"{base}/players/{player.pk}/",
        f"{base}/sessions/{open_.pk}/",
        f"{base}/sessions/{closed.pk}/",
        f"{base}/sessions/{open_.pk}/table/",
        f"{base}/sessions/{closed.pk}/table/",
        f"{base}/sessions/{open_.pk}/hands/1/",
        f"{base}/sessions/{closed.pk}/hands/1/",
        f"{base}/sessions/{closed.pk}/what-if/",
        f"{base}/sessions/{closed.pk}/what-if/?preset={next(iter(VARIANTS[closed.variant].presets))}",
    ]
    if owner:
        pages.append(f"{base}/sessions/new/")
        for key, rules in VARIANTS.items():
            for n in sorted(rules.player_counts):
                pages.append(f"{base}/sessions/new/?variant={key}&players={n}")
        pages += [
            f"{base}/sessions/{open_.pk}/table/hands/1/",
            f"{base}/sessions/{closed.pk}/table/hands/1/",
            f"{base}/sessions/{open_.pk}/close/confirm/",
            f"{base}/sessions/{open_.pk}/table/?saved=1",
        ]
    return pages


def _visit(page: Any, url: str) -> Any:
    """Go to the page (axe checks it as it loads), then open what is folded (<details>) and check again."""
    response = page.goto(url)
    if page.evaluate("() => document.querySelectorAll('details:not([open])').length"):
        page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
        axe_check(page, "every <details> open")
    return response


SIZES = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]
LANGS = ["zh-hans", "en"]


@pytest.mark.parametrize("viewport", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_every_page_passes_axe(new_page, live_server, lang, viewport):
    club, owner, viewer = _demo()
    visited = 0
    for user, pages in ((owner, _pages(club, owner=True)), (viewer, _pages(club, owner=False))):
        page = new_page(user, viewport=viewport, lang=lang)
        for path in pages:
            response = _visit(page, live_server.url + path)
            assert response.status == 200, path
            visited += 1
        assert page.js_errors == []
    # Logged out: the login page (a failed login too) and the error pages.
    page = new_page(viewport=viewport, lang=lang)
    page.goto(live_server.url + f"/clubs/{club.slug}/")
    page.wait_for_url(re.compile(r"/login/"))
    page.fill("#id_username", "demo")
    page.fill("#id_password", "wrong")
    page.click("main button[type=submit]")
    expect(page.locator("main .error")).to_be_visible()
    assert page.goto(live_server.url + "/no/such/page/").status == 404
    # A viewer asking for an owner's page: 403.
    page = new_page(viewer, viewport=viewport, lang=lang)
    assert page.goto(live_server.url + f"/clubs/{club.slug}/sessions/new/").status in (403, 404)
    assert visited > 30


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_passes_axe_in_the_dark_scheme(new_page, live_server, lang):
    club, owner, _viewer = _demo()
    page = new_page(owner, viewport=PHONE, lang=lang, color_scheme="dark")
    for path in _pages(club, owner=True):
        _visit(page, live_server.url + path)
    assert page.evaluate("() => matchMedia('(prefers-color-scheme: dark)').matches")
    page = new_page(viewport=DESKTOP, lang=lang, color_scheme="dark")
    page.goto(live_server.url + "/login/")
    page.goto(live_server.url + "/no/such/page/")


# --- keyboard alone ---

# The focused element, where its focus ring is drawn (a choice's radio is hidden: its label shows the ring),
# and whether that ring is visible (an outline of 2 px or more, not "none").
FOCUS = """() => {
  const el = document.activeElement;
  const shown = el.classList.contains("vh") && el.labels && el.labels.length ? el.labels[0] : el;
  const style = getComputedStyle(shown), box = shown.getBoundingClientRect();
  const name = el.tagName.toLowerCase() + (el.name ? "[" + el.name + "=" + el.value + "]" : "")
    + (el.className ? "." + String(el.className).split(" ").join(".") : "")
    + " " + (el.textContent || "").trim().slice(0, 20);
  return {
    name: name,
    ring: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2,
    top: box.top + window.scrollY,
    inForm: !!el.closest("form.table-entry"),
  };
}"""


class Keyboard:
    """Moves the focus with Tab only, and remembers every stop: each must show its focus ring."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.stops: list[dict[str, Any]] = []

    def tab_to(self, selector: str, limit: int = 150) -> None:
        for _ in range(limit):
            self.page.keyboard.press("Tab")
            self.stops.append(self.page.evaluate(FOCUS))
            if self.page.evaluate("s => document.activeElement.matches(s)", selector):
                return
        raise AssertionError(f"{selector} not reached with Tab: {[s['name'] for s in self.stops[-limit:]]}")

    def without_ring(self) -> list[str]:
        return [s["name"] for s in self.stops if not s["ring"] and not s["name"].startswith("main")]


def test_the_table_page_by_keyboard_alone_record_fix_and_void(new_page, live_server):
    """Tab moves, Space chooses, Enter follows a link or presses a button; digits and letters are typed
    into the text boxes. Every stop shows its focus ring, and the entry form is crossed top to bottom."""
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    table = f"{live_server.url}/clubs/{club.slug}/sessions/{session.pk}/table/"
    page = new_page(owner, viewport=DESKTOP)
    page.goto(table)
    keys = Keyboard(page)

    # The first stop is the skip link to the hand entry; Enter on it puts the focus on its first field (the
    # dealer, chosen already); the skip link to the page's content comes next.
    keys.tab_to("a.skip-entry", limit=1)
    expect(page.locator("a.skip-entry")).to_be_in_viewport()
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "dealer-0"

    # Hand 1 (rules/baifen.md): dealer seat 0 is chosen already; declarer 甲 (the first seat), bid 80 (the
    # first bid open to place 0), 15 captured: 80 + 15 = 95 ≤ 100, made.
    assert page.is_checked("#dealer-0")
    keys.tab_to('input[name="declarer"]')
    page.keyboard.press("Space")
    assert page.is_checked("#declarer-0")
    keys.tab_to('input[name="bid"]')
    page.keyboard.press("Space")
    assert page.is_checked("#bid-80")
    keys.tab_to('input[name="captured"]')
    page.keyboard.type("15")
    expect(page.locator("#receipt")).to_contain_text("叫分 80 + 抓分 15 = 95 ≤ 100：成")
    # The receipt is said politely, in one sentence: the hand, and each side's figure.
    status = page.locator("#receipt-status")
    expect(status).to_contain_text("第 1 局")
    expect(status).to_contain_text("甲·丙 +")
    assert status.get_attribute("role") == "status" and status.get_attribute("aria-live") == "polite"
    axe_check(page, "the receipt filled in")
    keys.tab_to("button.record")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"\?saved=1#next$"))
    assert session.hands.count() == 1

    # The entry form was crossed in reading order: no stop above the one before it.
    tops = [s["top"] for s in keys.stops if s["inForm"]]
    assert tops == sorted(tops), [s["name"] for s in keys.stops if s["inForm"]]
    assert page.evaluate("() => [...document.querySelectorAll('[tabindex]')].filter(e => e.tabIndex > 0).length") == 0

    # Fix hand 1: 20 captured, not 15 (80 + 20 = 100: still made, the figures change).
    keys.tab_to("#hand-1 a.fix")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/table/hands/1/"))
    keys.tab_to('input[name="captured"]')
    page.keyboard.press("Backspace")
    page.keyboard.press("Backspace")
    page.keyboard.type("20")
    keys.tab_to('input[name="reason"]')
    page.keyboard.type("少记了五分")
    expect(page.locator("#receipt")).to_contain_text("叫分 80 + 抓分 20")
    keys.tab_to('button[value="correct"]')
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"\?fixed=1"))
    assert session.hands.get(number=1).revisions.count() == 2

    # Void it.
    keys.tab_to("#hand-1 a.fix")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/table/hands/1/"))
    keys.tab_to('input[name="reason"]')
    page.keyboard.type("这局不算")
    keys.tab_to('button[value="void"]')
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"\?voided=1"))
    expect(page.locator("#hand-1 .badge.void")).to_be_visible()

    assert keys.without_ring() == []
    assert page.js_errors == []


def test_choices_say_what_they_are_and_which_is_chosen(new_page, live_server):
    """Bids, seats and shapes are radio buttons in a named group (the fieldset's legend): a screen reader
    says "叫分, 85, radio button, checked"; the arrow keys move the choice within a group, as in any form."""
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner, variant="hongxingwu")
    page = new_page(owner, viewport=PHONE)
    page.goto(f"{live_server.url}/clubs/{club.slug}/sessions/{session.pk}/table/")
    snapshot = page.locator("form.table-entry").aria_snapshot()
    assert re.search(r"group \"[^\"]+\"", snapshot)
    assert re.search(r"radio \"甲 [^\"]*\"", snapshot)
    page.check('input[name="kou_di"]')
    page.focus("#kou_shape-pair")
    page.keyboard.press("ArrowRight")
    chosen = page.eval_on_selector('input[name="kou_shape"]:checked', "e => e.labels[0].innerText")
    assert chosen and page.input_value('input[name="bottom_multiplier"]') != ""
    expect(page.locator('input[name="kou_shape"]:checked')).to_be_focused()
    shapes = page.locator('fieldset[data-group="bottom_multiplier"]').aria_snapshot()
    checked = [line for line in shapes.splitlines() if line.endswith("[checked]")]
    assert len(checked) == 1 and " ".join(chosen.split()) in checked[0], shapes
    axe_check(page, "抠底 and a shape chosen")


# --- large type and 200 % text ---

# Controls smaller than 44 × 44 CSS px (links inside a sentence are not counted: WCAG 2.5.5's exception).
SMALL_TARGETS = """() => [...document.querySelectorAll(`main button:not([hidden]), main select, main summary,
    main input:not([type=hidden]):not(.vh):not([type=checkbox]), .buttons label, label.toggle,
    main a.button, main a.target, a.fix, p.older a, nav a, header.top a, header.top button`)]
  .filter(e => e.offsetParent !== null)
  .map(e => [e, e.getBoundingClientRect()])
  .filter(([e, r]) => r.width < 43.5 || r.height < 43.5)
  .map(([e, r]) => e.outerHTML.slice(0, 80) + " " + Math.round(r.width) + "×" + Math.round(r.height))"""


def _text_200(page: Any) -> None:
    """Text at 200 %, the way a reader sets it: the browser's default font size doubled (Chrome's
    Settings › Appearance › Font size, through the DevTools protocol), the viewport left at 360 CSS px.
    Unlike page zoom this enlarges only what is sized in rem/em; text fixed in px would stay small,
    and the test checks that it did not (the root is 32 px)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Page.enable")
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 26}})


def test_every_page_reflows_with_the_text_at_200_percent_on_a_phone(new_page, live_server):
    club, owner, _viewer = _demo()
    pages = _pages(club, owner=True)
    session = make_session(club, owner)
    page = new_page(owner, viewport=PHONE)
    _text_200(page)
    wide = {}
    for path in pages:
        page.goto(live_server.url + path)
        assert page.evaluate("() => getComputedStyle(document.documentElement).fontSize") == "32px"
        if found := overflows(page):
            wide[path] = found[:6]
    assert wide == {}, "\n".join(f"{path}: {found}" for path, found in wide.items())
    # The table page at 200 % still records a hand: tap, type, Record.
    page.goto(f"{live_server.url}/clubs/{club.slug}/sessions/{session.pk}/table/")
    page.click('label[for="declarer-0"]')
    page.click('label[for="bid-80"]')
    page.fill('input[name="captured"]', "15")
    expect(page.locator("#receipt")).to_contain_text("95 ≤ 100")
    expect(page.locator("button.record")).to_be_in_viewport()
    assert overflows(page) == []
    page.click("button.record")
    page.wait_for_url(re.compile(r"\?saved=1#next$"))
    assert overflows(page) == []
    assert page.js_errors == []


def test_large_type_is_remembered_on_the_device_and_drawn_large_from_the_start(new_page, live_server):
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE[:3])
    table = f"{live_server.url}/clubs/{club.slug}/sessions/{session.pk}/table/"
    page = new_page(owner, viewport=PHONE)
    # Whether <html> had the class when <body> first appeared: before anything could be drawn.
    page.context.add_init_script(
        script="""new MutationObserver((_, observer) => {
          if (!document.body) return;
          window.__largeAtBody = document.documentElement.classList.contains("large-type");
          observer.disconnect();
        }).observe(document, {childList: true, subtree: true});"""
    )
    page.goto(table)
    switch = page.locator("button.large-type")
    expect(switch).to_have_attribute("aria-pressed", "false")
    normal = page.evaluate("() => parseFloat(getComputedStyle(document.documentElement).fontSize)")
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("() => parseFloat(getComputedStyle(document.documentElement).fontSize)") > normal * 1.2
    page.reload()
    expect(page.locator("button.large-type")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("() => window.__largeAtBody") is True
    assert overflows(page) == []
    # Big enough to tap: every control on the table page is at least 44 × 44 CSS px.
    small = page.evaluate(SMALL_TARGETS)
    assert small == []
    axe_check(page, "large type")
    page.goto(table.replace("/table/", "/table/hands/1/"))
    assert page.evaluate("() => document.documentElement.classList.contains('large-type')")
    assert overflows(page) == []


@pytest.mark.parametrize("viewport", SIZES)
def test_tap_targets_are_44_px_at_normal_size(new_page, live_server, viewport):
    club, owner, _viewer = _demo()
    page = new_page(owner, viewport=viewport)
    open_ = Session.objects.filter(club=club, status=Session.Status.OPEN).order_by("pk").first()
    for path in (f"/clubs/{club.slug}/", f"/clubs/{club.slug}/sessions/{open_.pk}/table/"):
        page.goto(live_server.url + path)
        small = page.evaluate(SMALL_TARGETS)
        assert small == [], path


def test_reduced_motion_and_the_page_language(new_page, live_server):
    club, owner, _viewer = _demo()
    for lang, code in (("zh-hans", "zh-hans"), ("en", "en")):
        page = new_page(owner, viewport=PHONE, lang=lang, reduced_motion="reduce")
        page.goto(f"{live_server.url}/clubs/{club.slug}/")
        assert page.evaluate("() => document.documentElement.lang") == code
        # The other language's name in the switch is marked as that language.
        other = page.locator("form.lang button")
        assert other.get_attribute("lang") == ("en" if lang == "zh-hans" else "zh-hans")
        assert page.evaluate("() => matchMedia('(prefers-reduced-motion: reduce)').matches")
        # No movement: every transition and animation is cut to nothing.
        assert page.evaluate("() => getComputedStyle(document.querySelector('main a')).transitionDuration") in (
            "1e-05s",
            "0.00001s",
        )
