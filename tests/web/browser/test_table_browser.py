"""The scorekeeper's table page in Chromium: what a scorekeeper does at a real table, on a phone.

Few and quick: they run twice in CI (SQLite and PostgreSQL). Expected figures are worked by hand
from ../shared/rules/*.md; the comments say how.
"""

from __future__ import annotations

import re

import pytest

from settlement import services
from settlement.models import Hand, HandRevision, Membership, Role
from tests.factories import make_club, make_member, make_session, make_user, record_hands

from .conftest import DESKTOP, PHONE, overflows

pytestmark = pytest.mark.django_db(transaction=True)

expect = pytest.importorskip("playwright.sync_api").expect


def _table(live_server, session):
    return f"{live_server.url}/clubs/{session.club.slug}/sessions/{session.pk}/table/"


def _enter(page, receipt, **fields):
    """Fill a hand the way a thumb does (seat and bid buttons, the points typed), then wait for its receipt."""
    for name in ("dealer", "declarer", "partner", "bid", "tribute", "kou_shape"):
        if name in fields:
            page.click(f'label[for="{name}-{fields[name]}"]')
    for name in ("kou_di", "surrender", "forced"):
        if fields.get(name):
            page.check(f'input[name="{name}"]')
    for name in ("captured", "bottom_points"):
        if name in fields:
            page.fill(f'input[name="{name}"]', str(fields[name]))
    expect(page.locator("#receipt")).to_contain_text(receipt)


def _record(page, number):
    page.click("button.record")
    page.wait_for_url(re.compile(rf"/table/\?saved={number}#next$"))


def _board(page):
    """The scoreboard's rows as cell texts."""
    return page.eval_on_selector_all(
        "table.board tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText.trim()))"
    )


def test_a_benxi_pot_on_a_phone_from_login_to_closing_with_a_correction(new_page, live_server, fast_passwords):
    club = make_club("东城俱乐部", slug="east")
    keeper = make_user("keeper", password="table-pass")
    Membership.objects.create(user=keeper, club=club, role=Role.SCOREKEEPER)
    page = new_page(viewport=PHONE)

    page.goto(live_server.url + "/")
    page.fill("#id_username", "keeper")
    page.fill("#id_password", "table-pass")
    page.click("main button[type=submit]")
    page.click("text=开一场")
    page.click("text=打百分（本溪）")
    for seat, name in enumerate(["甲", "乙", "丙", "丁"]):
        page.fill(f'input[name="seat_{seat}_name"]', name)
    page.click("text=开场")
    page.wait_for_url(re.compile(r"/sessions/\d+/table/$"))  # a new session opens on its table page
    expect(page.locator("h2#entry-title")).to_contain_text("第 1 局")
    assert overflows(page) == []

    # rules/baifen.md's example, with hand 2 entered wrong (10 captured instead of 20).
    assert page.is_checked("#dealer-0")  # the first hand's dealer: seat 0
    _enter(page, "叫分 80 + 抓分 15 = 95 ≤ 100：成", declarer=0, bid=80, captured=15)
    _record(page, 1)
    assert page.is_checked("#dealer-1")  # the deal passes on
    _enter(page, "叫分 85 + 抓分 10 = 95 ≤ 100：成", declarer=1, bid=85, captured=10)
    _record(page, 2)
    # Wrongly made: A 90, B 100; B's clean 90 (+200) takes B to 300 ≥ 205: B wins 盘 1 already.
    _enter(page, "第 1 盘结束", declarer=3, bid=90, captured=0)
    _record(page, 3)
    expect(page.locator(".game-over")).to_contain_text("第 1 盘结束")
    # Dealer 丁 (seat 3) and declarer 丙 (seat 2): place 3 may not bid 80 in 本溪.
    page.click('label[for="declarer-2"]')
    assert page.is_disabled("#bid-80") and not page.is_disabled("#bid-85")
    _enter(page, "叫分 85 + 抓分 55 = 140 > 100：破", bid=85, captured=55)
    _record(page, 4)
    assert _board(page) == [["甲·丙", "−85", "+5", "0"], ["乙·丁", "100", "+400", "1"]]
    assert overflows(page) == []

    # Fix hand 2: broken after all, so B wins 盘 1 only at hand 4 (A 15 : B 230), as in the rules.
    page.click("#hand-2 a.fix")
    expect(page.locator("h2#entry-title")).to_contain_text("更正第 2 局")
    page.fill('input[name="captured"]', "20")
    page.fill('input[name="reason"]', "少记了一个十")
    expect(page.locator("#receipt")).to_contain_text("叫分 85 + 抓分 20 = 105 > 100：破")
    expect(page.locator("#receipt table.figures")).to_contain_text("5 → 15")
    expect(page.locator("#receipt table.figures")).to_contain_text("400 → 230")
    assert overflows(page) == []
    page.click("button[value=correct]")
    page.wait_for_url(re.compile(r"\?fixed=2$"))
    assert _board(page) == [["甲·丙", "0", "+15", "0"], ["乙·丁", "0", "+230", "1"]]
    expect(page.locator("#hand-4")).to_contain_text("→ 230")  # a later hand's running total changed
    expect(page.locator("#hand-2")).to_contain_text("少记了一个十")

    page.click("text=结束这一场")
    page.click("text=确定结束")
    expect(page.locator("section.final")).to_contain_text("最终排名")
    ranking = page.eval_on_selector_all("ol.ranking li", "items => items.map(i => i.innerText.replace(/\\s+/g, ' '))")
    assert ranking == ["乙·丁 +230 胜 1 盘", "甲·丙 +15 胜 0 盘"]
    assert page.locator("form.table-entry").count() == 0
    assert overflows(page) == []
    assert page.js_errors == []


def test_a_biaofen_round_of_six_asks_the_dealer_and_settles_up(new_page, live_server):
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner, variant="biaofen", options={"unit_value": 10})
    page = new_page(owner, viewport=DESKTOP)
    page.goto(_table(live_server, session))
    assert page.locator('input[name="dealer"]:checked').count() == 0  # drawn by turning a card: asked
    expect(page.locator("#receipt")).to_contain_text("还要填")
    # Per 边家: 庄胜 3 under 55, 2 from 55; 小光 +1; 打宕 pays k; the third declaration on +1 (biaofen.md).
    hands = [
        ({"dealer": 2, "declarer": 0, "bid": 50, "captured": 30}, "庄胜"),  # 0 +9
        ({"declarer": 1, "bid": 60, "captured": 60}, "打宕"),  # 1 pays each 1
        ({"declarer": 0, "bid": 50, "captured": 30}, "庄胜"),  # 0 +9
        ({"declarer": 0, "bid": 50, "captured": 30}, "庄胜"),  # third: 0 +12
        ({"declarer": 2, "bid": 70, "captured": 10}, "庄胜"),  # 2 (+1 小光) +9
        ({"declarer": 0, "bid": 50, "captured": 30}, "第 1 轮结束"),  # fourth: 0 +12; the round ends
    ]
    dealers = []
    for number, (fields, receipt) in enumerate(hands, start=1):
        if number > 1:
            dealers.append(page.eval_on_selector('input[name="dealer"]:checked', "e => e.value"))
        _enter(page, receipt, **fields)
        _record(page, number)
    # 庄胜 keeps the deal with the declarer, 打宕 passes it to the declarer's 下家.
    assert dealers == ["0", "2", "0", "0", "2"]
    # Hands: 40, −20, −4, −16; 丁 never declared and pays 2 to each: round 42, −18, −2, −22.
    expect(page.locator("#hand-6 .game-end")).to_contain_text("第 1 轮结束")
    assert [row[2] for row in _board(page)] == ["+42", "−18", "−2", "−22"]
    page.click("text=结束这一场")
    page.click("text=确定结束")
    # 18, 2 and 22 档 (the totals above), × 10 money a 档, the unit said: on the page the close leads to.
    expect(page.locator("ul.settle-up li")).to_have_text(
        ["乙 付给 甲 钱 180（18 档）", "丙 付给 甲 钱 20（2 档）", "丁 付给 甲 钱 220（22 档）"]
    )
    assert page.js_errors == []


def test_a_gunzi_hand_pays_the_tribute_the_last_hand_set(new_page, live_server):
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner, variant="gunzi")
    # s = 50: seats 0 and 2 go up, 丙 (seat 2) declares next; 30 short of 80: 3 cards, 乙 (seat 1) to 丙.
    record_hands(session, owner, [{"declarer": 0, "captured": 50}])
    page = new_page(owner, viewport=PHONE, lang="en")
    page.goto(_table(live_server, session))
    expect(page.locator(".tribute-info")).to_contain_text("乙 pays 丙 3 cards")
    expect(page.locator('fieldset[data-group="declarer"]')).to_contain_text("丙 by the rotation")
    _enter(page, "tribute 3 cards: 乙 (the 上家) pays the declarer, 丙, 3", captured=100)
    # The payer had three big jokers: reversed, 丙 pays 乙; with 保底 (+3 to seats 0, 2) the hand is 3, 0, 0, −3.
    _enter(page, "the payer holds three big jokers, reversed (3 cards)", tribute="reversed")
    _record(page, 2)
    expect(page.locator("#hand-2 .figures")).to_contain_text("甲 +3")
    expect(page.locator("#hand-2 .figures")).to_contain_text("丁 −3")
    # The rotation's declarer is stored with the hand (README, the ledger).
    assert HandRevision.objects.get(hand__number=2).input == {"captured": 100, "tribute": "reversed", "declarer": 2}
    assert page.js_errors == []


def test_a_record_whose_answer_was_lost_is_kept_on_the_phone_and_recorded_once(new_page, live_server):
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    page = new_page(owner, viewport=PHONE)
    page.goto(_table(live_server, session))
    dropped = []

    def drop_the_answer(route):
        if route.request.method == "POST" and not dropped:
            dropped.append(route.fetch())  # the server records the hand …
            route.abort()  # … and the phone never hears back
        else:
            route.continue_()

    page.route(re.compile(r"/table/$"), drop_the_answer)
    _enter(page, "叫分 80 + 抓分 15", declarer=0, bid=80, captured=15)
    page.click("button.record")
    # The hand is kept on the phone under its key and sent at once (table/sync/): the server has it already.
    page.wait_for_url(re.compile(r"\?saved=1#next$"))
    assert Hand.objects.filter(session=session).count() == 1
    page.unroute(re.compile(r"/table/$"))
    # A double tap on the next hand: the second tap is ignored while the first is saving.
    _enter(page, "叫分 85 + 抓分 20", declarer=1, bid=85, captured=20)
    page.dblclick("button.record")
    page.wait_for_url(re.compile(r"\?saved=2#next$"))
    assert Hand.objects.filter(session=session).count() == 2
    assert page.locator("article.hand").count() == 2


def test_nothing_scrolls_sideways_at_360_by_740(new_page, live_server):
    club = make_club()
    owner = make_member(club)
    played = {
        "baifen.benxi": {"dealer": 0, "declarer": 1, "bid": 85, "captured": 20},
        "baifen.classic": {"dealer": 0, "declarer": 1, "bid": 60, "partner": 3, "captured": 30},
        "erguai": {"dealer": 0, "declarer": 0, "bid": 100, "contract": "bao", "partner": 1, "captured": 0},
        "biaofen": {"dealer": 0, "declarer": 0, "bid": 50, "captured": 30},
        "hongxingwu": {"declarer": 0, "captured": 50},
        "gunzi": {"declarer": 0, "captured": 50},
    }
    sessions = {}
    for variant, hand in played.items():
        sessions[variant] = make_session(club, owner, variant=variant)
        record_hands(sessions[variant], owner, [hand])
    sessions["classic-6"] = make_session(
        club, owner, variant="baifen.classic", players=["很长的名字一号", "二", "三", "四", "很长的名字五号", "六"]
    )
    record_hands(sessions["classic-6"], owner, [{"declarer": 4, "bid": 60, "partner": 5, "captured": 30}])
    closed = make_session(club, owner, variant="erguai", players=["很长的名字一号", "很长的名字二号", "三", "四"])
    record_hands(closed, owner, [played["erguai"]])
    services.session_close(session=closed, user=owner)
    for lang in ("zh-hans", "en"):
        page = new_page(owner, viewport=PHONE, lang=lang)
        for session in [*sessions.values(), closed]:
            page.goto(_table(live_server, session))
            assert overflows(page) == [], (lang, session.variant)
        page.goto(_table(live_server, sessions["baifen.benxi"]).replace("/table/", "/table/hands/1/"))
        assert overflows(page) == [], (lang, "fix")
        assert page.js_errors == []
    # 红星五: a shape button fills the multiplier.
    page.goto(_table(live_server, sessions["hongxingwu"]))
    page.check('input[name="kou_di"]')
    page.click('label[for="kou_shape-pair"]')
    assert page.input_value('input[name="bottom_multiplier"]') == "4"


def test_without_javascript_preview_and_record_post_the_form(new_page, live_server):
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    page = new_page(owner, viewport=PHONE, lang="en", script=False)
    page.goto(_table(live_server, session))
    page.click('label[for="declarer-2"]')
    page.click('label[for="bid-80"]')  # place 2 in 本溪: at least 85
    page.fill('input[name="captured"]', "20")
    page.click("button.preview-button")
    expect(page.locator('[data-error-for="bid"]')).to_have_text(
        "in Benxi the third bidder (the dealer is first) must bid at least 85"
    )
    page.click('label[for="bid-85"]')
    page.click("button.preview-button")
    expect(page.locator("#receipt")).to_contain_text("bid 85 + captured 20 = 105 > 100: broken")
    page.click("button.record")
    page.wait_for_url(re.compile(r"\?saved=1#next$"))
    assert Hand.objects.filter(session=session).count() == 1


TEXT31 = {
    "zh-hans": {"skip": "跳到记分", "end": "出锅：乙·丁胜"},
    "en": {"skip": "Skip to the hand entry", "end": "reached the target: 乙·丁 won"},
}


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_from_a_fresh_load_the_keyboard_skips_to_the_entry_and_enter_records_in_one_page_load(
    new_page, live_server, lang
):
    # BENXI_EXAMPLE's first three hands, then its hand 4 (丙 declares 85, the defenders capture 55: 破), which
    # takes 乙·丁 to 230 ≥ 205 (rules/baifen.md): the notice at the top of the form names the winners.
    from tests.factories import BENXI_EXAMPLE

    club = make_club()
    keeper = make_member(club)
    session = make_session(club, keeper)
    record_hands(session, keeper, BENXI_EXAMPLE[:3])
    page = new_page(keeper, viewport=PHONE, lang=lang)
    page.goto(_table(live_server, session))
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == TEXT31[lang]["skip"]
    page.keyboard.press("Enter")
    # The first entry field: the dealer's buttons, at the dealer the rules give (seat 3 deals hand 4).
    assert page.evaluate("document.activeElement.id") == "dealer-3"

    loads = []
    page.on("request", lambda r: loads.append(r.method) if "/table/?saved=" in r.url else None)
    _enter(page, "85", declarer=2, bid=85, captured=55)
    page.focus('input[name="captured"]')
    page.keyboard.press("Enter")  # records: Record is the form's first submit button
    page.wait_for_url(re.compile(r"/table/\?saved=4#next$"))
    expect(page.locator(".flash .game-end-notice")).to_have_text(TEXT31[lang]["end"])
    assert Hand.objects.filter(session=session).count() == 4
    assert loads == ["GET"]  # the page the record redirected to, fetched once and shown: not loaded again
    assert page.evaluate("document.activeElement.name") == "dealer"  # the next hand's first field
    assert page.js_errors == [] and overflows(page) == []
    from .conftest import axe_check

    axe_check(page, "after Enter recorded")


def test_without_script_enter_in_a_field_records_not_previews(new_page, live_server):
    club = make_club()
    keeper = make_member(club)
    session = make_session(club, keeper)
    page = new_page(keeper, viewport=PHONE, script=False)
    page.goto(_table(live_server, session))
    for name in ("declarer-0", "bid-80"):
        page.click(f'label[for="{name}"]')
    page.fill('input[name="captured"]', "15")
    page.press('input[name="captured"]', "Enter")
    page.wait_for_url(re.compile(r"/table/\?saved=1#next$"))
    assert Hand.objects.filter(session=session).count() == 1
