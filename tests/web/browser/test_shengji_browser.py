"""A short 升级 session in Chromium on a 360 × 740 phone, in zh-Hans and in English: opened from the
new-session page with the 上海80分 preset (failed throws set to cost 10), four hands tapped in at the
table — a 光头, a 抠底 with a tractor that the gate 2 holds (卡关), a failed throw (甩牌), and a
光头 that the gate 5 stops — each receipt and the levels checked against figures worked by hand.

The figures, from ../shared/rules/shengji.md: 4 players, 2 decks, so T = 80, d = 40, z = 1; the
preset's must_defend is 2, 5, 10, K (finish "pass_ace"); kou_multiplier "times", kou_count "cards";
shuai_penalty 10 (set on the form). Teams 甲·丙 (seats 0 + 2) and 乙·丁 (1 + 3), both at 2.

1. 甲 declares, captured 0: s = 0 ≤ 0 (光头) → the declaring team +(⌈(80 − 5) / 40⌉ + 1 + ⌊0 / 40⌋) = 2 + 1 = 3.
   Promotion of 甲·丙 from 2: i = 0 leaves the gate 2 (declaring, first step) → 3; i = 1 → 4; i = 2 → 5.
   Levels 甲·丙 5, 乙·丁 2; s < T: 甲's 对家 丙 declares next. Deltas +3 to 甲, 丙.
2. 丙 declares (by the rotation), captured 30, 抠底 with a two-pair tractor: kou_cards = 4 (1 single,
   2 pair, 4 two-pair tractor), so m = 2N = 2 × 4 = 8; bottom 20: s = 30 + 20 × 8 = 190 ≥ 80 → 乙·丁
   take over and go up max(0, ⌊(190 − 80) / 40⌋ − 1 + 1) = 2; but 乙·丁 are at 2, a gate, and not
   declaring: stopped at i = 0 (卡关), up 0. Levels 5 / 2; s ≥ T: 丙's 下家 丁 declares next. Deltas 0.
3. 丁 declares, captured 40, 乙 (declaring team) fails a throw: P = 10 × (1 − 0) = +10, s = 50 < 80
   → the declaring team +⌈(80 − 50) / 40⌉ = 1: 乙·丁 2 → 3 (declaring, first step leaves the gate).
   Levels 5 / 3; 丁's 对家 乙 declares next. Deltas +1 to 乙, 丁.
4. 乙 declares, captured 0: 光头, +3 again; 乙·丁 from 3: i = 0 → 4, i = 1 → 5, i = 2: 5 is a gate and
   i > 0 → stop (卡关), up 2. Levels 5 / 5; 乙's 对家 丁 declares next. Deltas +2 to 乙, 丁.
Totals: 甲 3, 乙 1 + 2 = 3, 丙 3, 丁 3. Both teams at 5 still have 5, 10, K to defend.
"""

from __future__ import annotations

import re

import pytest

from settlement import selectors
from settlement.models import HandRevision, Session
from tests.factories import make_club, make_member, make_player

from .conftest import PHONE, overflows

pytestmark = pytest.mark.django_db(transaction=True)

expect = pytest.importorskip("playwright.sync_api").expect

NAMES = ["甲", "乙", "丙", "丁"]

# Each hand: what is tapped (declarer only on the game's first hand: then the rotation locks it),
# and the receipt's steps in each language.
HANDS = [
    (
        {"declarer": 0, "captured": 0},
        {
            "zh-hans": [
                "得分 0 ≤ 0（光头）：庄家方升 ⌈(80 − 5) / 40⌉ + 1 + ⌊0 / 40⌋ = 3 级",
                "级别：甲·丙 5，乙·丁 2",
                "下一副由庄家的对家丙坐庄",
            ],
            "en": [
                "points 0 ≤ 0 (光头): declaring team up ⌈(80 − 5) / 40⌉ + 1 + ⌊0 / 40⌋ = 3",
                "levels: 甲·丙 5, 乙·丁 2",
                "next declarer: the declarer's partner (对家), 丙",
            ],
        },
    ),
    (
        {"captured": 30, "kou_di": True, "kou_cards": 4, "bottom_points": 20},
        {
            "zh-hans": [
                "底分倍数：最后一墩每人 4 张，2 × 4 = 8",
                "抠底：抓分 30 + 底分 20 × 8 = 190",
                "得分 190 ≥ 80：抓分方上台并升 ⌊(190 − 80) / 40⌋ − 1 + 1 = 2 级",
                "乙·丁卡在必打关卡 2，实升 0 级",
                "级别：甲·丙 5，乙·丁 2",
                "下一副由庄家的下家丁坐庄",
            ],
            "en": [
                "bottom multiplier: 4 cards each in the last trick, 2 × 4 = 8",
                "last trick (抠底): captured 30 + bottom 20 × 8 = 190",
                "points 190 ≥ 80: the capture team takes over and goes up ⌊(190 − 80) / 40⌋ − 1 + 1 = 2",
                "乙·丁 is held at 2, a level it must defend (卡关): up 0",
                "levels: 甲·丙 5, 乙·丁 2",
                "next declarer: the declarer's 下家, 丁",
            ],
        },
    ),
    (
        {"captured": 40, "shuai": 1},
        {
            "zh-hans": [
                "甩牌失败：庄家方 1 次、抓分方 0 次，每次 10 分，+10 → 50",
                "得分 50 < 80：庄家方升 ⌈(80 − 50) / 40⌉ = 1 级",
                "级别：甲·丙 5，乙·丁 3",
                "下一副由庄家的对家乙坐庄",
            ],
            "en": [
                "failed throws: declaring team 1, capture team 0, 10 each: +10 → 50",
                "points 50 < 80: declaring team up ⌈(80 − 50) / 40⌉ = 1",
                "levels: 甲·丙 5, 乙·丁 3",
                "next declarer: the declarer's partner (对家), 乙",
            ],
        },
    ),
    (
        {"captured": 0},
        {
            "zh-hans": ["乙·丁卡在必打关卡 5，实升 2 级", "级别：甲·丙 5，乙·丁 5", "下一副由庄家的对家丁坐庄"],
            "en": [
                "乙·丁 is held at 5, a level it must defend (卡关): up 2",
                "levels: 甲·丙 5, 乙·丁 5",
                "next declarer: the declarer's partner (对家), 丁",
            ],
        },
    ),
]

# The scoreboard after each hand: the team lines (level, the gates still to defend), the next declarer.
BOARD = {
    "zh-hans": {
        "teams": [
            ["甲·丙 级 5 必打： 5, 10, K", "乙·丁 级 2 必打： 2, 5, 10, K"],
            ["甲·丙 级 5 必打： 5, 10, K", "乙·丁 级 2 必打： 2, 5, 10, K"],
            ["甲·丙 级 5 必打： 5, 10, K", "乙·丁 级 3 必打： 5, 10, K"],
            ["甲·丙 级 5 必打： 5, 10, K", "乙·丁 级 5 必打： 5, 10, K"],
        ],
        "next": ["下一副坐庄：丙", "下一副坐庄：丁", "下一副坐庄：乙", "下一副坐庄：丁"],
        "open": "开场",
        "first": "下一副坐庄：新的一盘，在牌桌上定",
    },
    "en": {
        "teams": [
            ["甲·丙 level 5 to defend: 5, 10, K", "乙·丁 level 2 to defend: 2, 5, 10, K"],
            ["甲·丙 level 5 to defend: 5, 10, K", "乙·丁 level 2 to defend: 2, 5, 10, K"],
            ["甲·丙 level 5 to defend: 5, 10, K", "乙·丁 level 3 to defend: 5, 10, K"],
            ["甲·丙 level 5 to defend: 5, 10, K", "乙·丁 level 5 to defend: 5, 10, K"],
        ],
        "next": ["Next declarer: 丙", "Next declarer: 丁", "Next declarer: 乙", "Next declarer: 丁"],
        "open": "Open the session",
        "first": "Next declarer: named at the table (a new game)",
    },
}
DELTAS = [[3, 0, 3, 0], [0, 0, 0, 0], [0, 1, 0, 1], [0, 2, 0, 2]]


def _team_lines(page):
    return [" ".join(text.split()) for text in page.locator("ul.level-teams li").all_inner_texts()]


def _open_session(page, live_server, club, lang):
    """From the new-session page: 升级, the 上海80分 preset, four players, failed throws at 10."""
    zh = lang == "zh-hans"
    page.goto(f"{live_server.url}/clubs/{club.slug}/sessions/new/")
    page.click("ul.variants >> text=" + ("升级（80分、拖拉机）" if zh else "Shengji (80 points, Tractor)"))
    page.wait_for_url(re.compile(r"\?variant=shengji"))
    page.click("p.choices:not(.presets) a >> text='4'")
    page.wait_for_url(re.compile(r"&players=4$"))
    page.click("p.presets a >> text=" + ("上海80分" if zh else "Shanghai 80 points"))
    page.wait_for_url(re.compile(r"&preset="))
    expect(page.locator("div.seat")).to_have_count(4)
    for seat, name in enumerate(NAMES):
        page.select_option(f'select[name="seat_{seat}_player"]', label=name)
    page.click("details.advanced > summary")
    page.fill('input[name="option_shuai_penalty"]', "10")
    page.click(f"form.open button[type=submit] >> text={BOARD[lang]['open']}")
    page.wait_for_url(re.compile(r"/sessions/\d+/table/$"))
    return int(page.url.rstrip("/").split("/")[-2])


def _tap(page, fields):
    if "declarer" in fields:
        page.click(f'label[for="declarer-{fields["declarer"]}"]')
    page.fill('input[name="captured"]', str(fields["captured"]))
    if fields.get("kou_di"):
        page.check('input[name="kou_di"]')
        page.fill('input[name="kou_cards"]', str(fields["kou_cards"]))
        page.fill('input[name="bottom_points"]', str(fields["bottom_points"]))
    if fields.get("shuai"):
        page.click('fieldset[data-group="penalties"] summary')
        page.fill('input[name="shuai_1"]', str(fields["shuai"]))


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_a_shanghai_80fen_session_tapped_in_on_a_phone_matches_the_rules_worked_by_hand(new_page, live_server, lang):
    club = make_club("东城俱乐部", slug="east")
    owner = make_member(club)
    for name in NAMES:
        make_player(club, name)
    page = new_page(owner, viewport=PHONE, lang=lang)
    board = BOARD[lang]

    session_id = _open_session(page, live_server, club, lang)
    session = Session.objects.get(pk=session_id)
    assert session.options["must_defend"] == ["2", "5", "10", "K"] and session.options["shuai_penalty"] == 10
    page.goto(f"{live_server.url}/clubs/{club.slug}/sessions/{session_id}/table/")
    expect(page.locator("p.next-declarer")).to_have_text(board["first"])

    for n, (fields, steps) in enumerate(HANDS, start=1):
        _tap(page, fields)
        receipt = page.locator("#receipt .steps")
        for step in steps[lang]:
            expect(receipt).to_contain_text(step)
        page.click("button.record")
        page.wait_for_url(re.compile(rf"\?saved={n}#next$"))
        expect(page.locator(f"#hand-{n}")).to_be_visible()
        assert _team_lines(page) == board["teams"][n - 1], n
        expect(page.locator("p.next-declarer")).to_have_text(board["next"][n - 1])
        assert overflows(page) == [], n

    # What was stored is what was tapped (the rotation's declarer included), and what it settled to.
    inputs = [r.input for r in HandRevision.objects.filter(hand__session_id=session_id).order_by("hand__number")]
    assert inputs[1] == {"declarer": 2, "captured": 30, "kou_di": True, "kou_cards": 4, "bottom_points": 20}
    assert inputs[2] == {"declarer": 3, "captured": 40, "penalties": [{"seat": 1, "kind": "shuai"}]}
    hands = selectors.table_view(session=session).results["hands"]
    assert [hand["deltas"] for hand in hands] == DELTAS
    assert [hand["tags"] for hand in hands] == [["光头"], ["抠底", "卡关"], ["甩牌"], ["光头", "卡关"]]
    assert page.js_errors == []
