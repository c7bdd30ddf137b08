"""A club's evening without a line of JSON (issue 11), in Chromium on a 360 × 740 phone.

Every variant with every preset, at each player count it allows, opened from the new-session page
with the page's own defaults (links, selects and the Open button: nothing posted by hand); then for
one session of each variant a hand recorded at the table, fixed from the hand page, voided (first
without a reason), the session closed after its confirmation step and reopened by the owner.

Runtime: one test a variant and language (xdist spreads them over its workers; one long test kept
a worker busy alone for a minute and a half). zh-Hans opens all 20 sessions (every variant × count ×
preset) and plays the flow in every variant; English opens each variant at each count with its first
preset (11) and plays the flow in 本溪, 标分, 打滚子 and 升级 — the English pages are the same
templates, so the rest would double the time for little.
"""

from __future__ import annotations

import re

import pytest

from settlement.models import HandRevision, Session
from tests.factories import make_club, make_member, make_player

from .conftest import PHONE, overflows

pytestmark = pytest.mark.django_db(transaction=True)

expect = pytest.importorskip("playwright.sync_api").expect

NAMES = ["甲", "乙", "丙", "丁", "戊", "己"]

# What each variant offers, from ../shared/rules/*.md and the presets listed in README's variants:
# (variant key, its name in zh-Hans, in English, the player counts, how many presets).
VARIANTS = [
    ("baifen.benxi", "打百分（本溪）", "Baifen (Benxi)", (4,), 2),  # 本溪 205, 本溪 300
    ("baifen.fushun", "打百分（抚顺）", "Baifen (Fushun)", (4,), 2),  # 抚顺 300, 抚顺 500
    ("baifen.shenyang", "打百分（沈阳）", "Baifen (Shenyang)", (4,), 1),
    ("baifen.classic", "打百分（找朋友）", "Baifen (friend card)", (4,), 1),
    ("erguai", "打二鬼", "Erguai (Sichuan friend card)", (4,), 2),  # 初级场, 高级场
    ("biaofen", "标分", "Biaofen (bid-down)", (3, 4), 1),  # 3 or 4 players (biaofen.md)
    ("hongxingwu", "济源红星五", "Hongxingwu (Jiyuan)", (4,), 2),
    ("gunzi", "打滚子（大连）", "Gunzi (Dalian)", (4,), 2),
    ("shengji", "升级（80分、拖拉机）", "Shengji (80 points, Tractor)", (4, 6), 3),  # 拖拉机, 上海80分, 紅5
]

# One hand per variant as a scorekeeper taps it, and the correction made to it (captured + 5, worked
# by hand to stay within the rules: same outcome class, so nothing after it is refused).
# (variant, the hand's buttons and numbers, the receipt's first words (zh-Hans), the captured fixed to)
PLAYED = {
    # 叫分 80 + 抓分 15 = 95 ≤ 100: made (baifen.md); 80 + 20 = 100 ≤ 100 still made.
    "baifen.benxi": ({"dealer": 0, "declarer": 0, "bid": 80, "captured": 15}, "叫分 80 + 抓分 15", 20),
    "baifen.fushun": ({"dealer": 0, "declarer": 0, "bid": 85, "captured": 10}, "叫分 85 + 抓分 10", 15),
    "baifen.shenyang": ({"dealer": 0, "declarer": 1, "bid": 85, "captured": 10}, "叫分 85 + 抓分 10", 15),
    "baifen.classic": ({"dealer": 0, "declarer": 1, "bid": 60, "partner": 3, "captured": 30}, "", 35),
    "erguai": ({"dealer": 0, "declarer": 0, "bid": 100, "contract": "bao", "partner": 1, "captured": 0}, "", 5),
    "biaofen": ({"dealer": 0, "declarer": 0, "bid": 50, "captured": 30}, "庄胜", 35),
    "hongxingwu": ({"declarer": 0, "captured": 50}, "抓分方得分 50", 55),
    "gunzi": ({"declarer": 0, "captured": 50}, "抓分方得分 50", 55),
    "shengji": ({"declarer": 0, "captured": 40}, "抓分方得分 40", 45),
}
ENGLISH_FLOWS = ("baifen.benxi", "biaofen", "gunzi", "shengji")

TEXT = {
    "zh-hans": {
        "new": "开一场",
        "open": "开场",
        "table": "记分台",
        "hand": {"局": "第 1 局", "副": "第 1 副"},
        "changed": "抓分 {old} → {new}",
        "reason_fix": "少记了一个五",
        "reason_void": "牌没洗开",
        "no_reason": "请写明为什么作废",
        "void": "作废",
        "close": "结束这一场…",
        "confirm": "结束这一场？",
        "close_now": "确定结束",
        "closed": "已结束",
        "reopen": "重新打开这一场",
        "reopened": "进行中",
    },
    "en": {
        "new": "Open a session",
        "open": "Open the session",
        "table": "Scorekeeper's table",
        "hand": {"局": "Hand 1", "副": "Hand 1"},
        "changed": "captured {old} → {new}",
        "reason_fix": "a five was missed",
        "reason_void": "badly shuffled",
        "no_reason": "Say why the hand is voided",
        "void": "void",
        "close": "Close the session…",
        "confirm": "Close the session?",
        "close_now": "Close it now",
        "closed": "closed",
        "reopen": "Reopen the session",
        "reopened": "open",
    },
}
LEVEL_GAMES = {"hongxingwu", "gunzi", "shengji"}  # a hand is 副 there


def _open_sessions(page, live_server, club, lang, key, every_preset):
    """Open the variant at each player count it allows, with every preset or the first one, from the page.

    The first is reached from the club page's button, the others from the new-session page's own list.
    Returns the sessions' ids.
    """
    _key, zh, en, counts, presets = next(v for v in VARIANTS if v[0] == key)
    name = zh if lang == "zh-hans" else en
    opened: list[int] = []
    for n in counts:
        for i in range(presets if every_preset else 1):
            if not opened:
                page.goto(f"{live_server.url}/clubs/{club.slug}/")
                page.click(f"main >> text={TEXT[lang]['new']}")
            else:
                page.goto(f"{live_server.url}/clubs/{club.slug}/sessions/new/")
            page.click(f"ul.variants >> text={name}")
            page.wait_for_url(re.compile(r"\?variant="))
            if len(counts) > 1:
                page.click(f"p.choices:not(.presets) a >> text='{n}'")
                page.wait_for_url(re.compile(rf"&players={n}$"))
            offered = page.locator("p.presets a")
            expect(offered).to_have_count(presets)
            offered.nth(i).click()
            page.wait_for_url(re.compile(r"&preset="))
            expect(page.locator("p.presets a").nth(i)).to_have_class("current")
            expect(page.locator("div.seat")).to_have_count(n)
            for seat in range(n):
                page.select_option(f'select[name="seat_{seat}_player"]', label=NAMES[seat])
            page.click(f"form.open button[type=submit] >> text={TEXT[lang]['open']}")
            page.wait_for_url(re.compile(r"/sessions/\d+/table/$"))
            expect(page.locator("h1")).to_contain_text(name)
            for player in NAMES[:n]:
                expect(page.locator("main")).to_contain_text(player)
            assert overflows(page) == [], (key, n, i, lang)
            opened.append(int(page.url.rstrip("/").split("/")[-2]))
    return opened


def _tap(page, fields):
    for name in ("dealer", "declarer", "partner", "bid", "contract"):
        if name in fields:
            page.click(f'label[for="{name}-{fields[name]}"]')
    page.fill('input[name="captured"]', str(fields["captured"]))


def _evening(page, live_server, club, session_id, key, lang):
    """Record a hand at the table, fix it and void it from the hand page, close and reopen the session."""
    text = TEXT[lang]
    fields, receipt, fixed = PLAYED[key]
    session_url = f"{live_server.url}/clubs/{club.slug}/sessions/{session_id}/"
    page.goto(session_url)
    page.click(f"main >> text={text['table']}")
    _tap(page, fields)
    if receipt and lang == "zh-hans":
        expect(page.locator("#receipt")).to_contain_text(receipt)
    page.locator("#receipt .steps").wait_for()
    page.click("button.record")
    page.wait_for_url(re.compile(r"/table/\?saved=1#next$"))
    expect(page.locator("#hand-1")).to_be_visible()

    # The hand page: correct the captured points with a reason; the trail shows the change in words.
    page.goto(session_url + "hands/1/")
    word = "副" if key in LEVEL_GAMES else "局"
    expect(page.locator("h1")).to_contain_text(text["hand"][word])
    page.fill('input[name="captured"]', str(fixed))
    page.fill('input[name="reason"]', text["reason_fix"])
    page.click("button[value=correct]")
    page.wait_for_url(re.compile(r"/hands/1/$"))
    history = page.locator("section.history")
    expect(history).to_contain_text(text["changed"].format(old=fields["captured"], new=fixed))
    expect(history).to_contain_text(text["reason_fix"])

    # Void without a reason: refused, the error stays in view (script on); then with one.
    page.click("button[value=void]")
    page.wait_for_load_state("load")
    error = page.locator('.field-error[data-error-for~="reason"]')
    expect(error).to_contain_text(text["no_reason"])
    expect(error).to_be_visible()
    expect(page.locator("section.history")).to_be_visible()  # still the hand page
    page.fill('input[name="reason"]', text["reason_void"])
    page.click("button[value=void]")
    page.wait_for_url(re.compile(r"/hands/1/$"))
    expect(page.locator("h1 .badge.void")).to_have_text(text["void"])
    assert HandRevision.objects.filter(hand__session_id=session_id, hand__number=1, is_void=True).exists()

    # Close, with its confirmation step, from the table page; then the owner reopens it.
    page.goto(session_url + "table/")
    expect(page.locator("#hand-1 .badge.void")).to_be_visible()
    page.click(f"text={text['close']}")
    expect(page.locator("h1")).to_have_text(text["confirm"])
    page.click(f"text={text['close_now']}")
    expect(page.locator(".table-head .badge")).to_have_text(text["closed"])
    page.click(f"text={text['reopen']}")
    expect(page.locator(".table-head .badge")).to_have_text(text["reopened"])
    assert Session.objects.get(pk=session_id).status == Session.Status.OPEN


@pytest.mark.parametrize("key", [key for key, *_rest in VARIANTS])
@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_a_clubs_evening_from_the_new_session_page_to_reopening(new_page, live_server, lang, key):
    club = make_club("东城俱乐部", slug="east")
    owner = make_member(club)
    for name in NAMES:
        make_player(club, name)
    page = new_page(owner, viewport=PHONE, lang=lang)

    every_preset = lang == "zh-hans"
    opened = _open_sessions(page, live_server, club, lang, key, every_preset)
    # Every preset: each count times the variant's presets (20 sessions over all variants); the first
    # preset at each count: one a count (9 variants + 标分's and 升级's second count = 11).
    _key, _zh, _en, counts, presets = next(v for v in VARIANTS if v[0] == key)
    expected = len(counts) * (presets if every_preset else 1)
    assert len(opened) == expected
    assert Session.objects.filter(club=club).count() == expected

    if lang == "zh-hans" or key in ENGLISH_FLOWS:
        _evening(page, live_server, club, opened[0], key, lang)
    assert page.js_errors == []


def test_the_evening_opens_20_sessions_in_zh_hans_and_11_in_english():
    """The split by variant still covers what the one long test did: every preset (20), the first (11)."""
    assert sum(len(counts) * presets for _key, _zh, _en, counts, presets in VARIANTS) == 20
    assert sum(len(counts) for _key, _zh, _en, counts, _presets in VARIANTS) == 11
