"""The scorekeeper's table page through the test client (no script): entry, receipt, fixes, closing.

Expected figures are worked by hand from ../shared/rules/*.md; the comment beside each says how.
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import reverse

from settlement import selectors, services
from settlement.models import Hand, HandRevision, Role
from settlement.selectors import table as table_selectors
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_session, record_hands

pytestmark = pytest.mark.django_db


def _url(name, session, **extra):
    return reverse(name, kwargs={"slug": session.club.slug, "session_id": session.pk, **extra})


def _english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


def _inputs(page):
    """The names of the form inputs on a page."""
    return set(re.findall(r'<input[^>]* name="([a-z_0-9]+)"', page))


def _checked(page, name):
    found = re.findall(rf'<input type="radio"[^>]* name="{name}"[^>]* value="([^"]*)" checked', page)
    return found[0] if found else None


def _board(page):
    """The scoreboard's rows as cell texts."""
    start = page.index('class="board"')
    body = page[page.index("<tbody>", start) : page.index("</tbody>", start)]
    rows = re.findall(r"<tr.*?</tr>", body, re.S)
    return [
        [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", r, re.S)] for r in rows
    ]


def _button_attrs(page, name, value):
    match = re.search(rf'<input type="radio"[^>]* name="{name}"[^>]* value="{value}"([^>]*)>', page)
    assert match, f"no {name} button {value}"
    return dict(re.findall(r'(data-[a-z-]+)="([^"]*)"', match.group(0)))


# --- the form shows what the variant uses, in play order, with defaults from the state ---


@pytest.mark.parametrize(
    ("variant", "present", "absent"),
    [
        ("baifen.benxi", ["dealer", "declarer", "bid", "forced", "captured", "kou"], ["partner", "kou_di", "bombs"]),
        ("baifen.classic", ["dealer", "declarer", "bid", "partner", "captured", "kou_di"], ["kou", "forced"]),
        ("erguai", ["dealer", "declarer", "bid", "contract", "partner", "captured"], ["kou_di", "forced"]),
        (
            "biaofen",
            ["dealer", "declarer", "bid", "no_trump_bottom", "surrender", "bombs", "captured", "kou_di", "shuai_0"],
            ["partner", "kou", "bottom_multiplier"],
        ),
        (
            "hongxingwu",
            ["declarer", "captured", "kou_di", "bottom_points", "kou_shape", "bottom_multiplier"],
            ["dealer", "bid", "tribute", "bottom_jokers_big"],
        ),
        (
            "gunzi",
            ["declarer", "captured", "kou_di", "bottom_points", "bottom_jokers_big", "bottom_jokers_small", "gan_guo"],
            ["dealer", "bid", "bottom_multiplier", "tribute"],  # no tribute into a game's first hand
        ),
        (
            # shengji.md, Inputs: no bid; with the default "times" × "cards" scheme kou_cards, no kou_unit;
            # 勾J only with jack_back_to_two; penalties are failed throws only
            "shengji",
            ["declarer", "captured", "kou_di", "kou_cards", "bottom_points", "shuai_0", "shuai_3"],
            ["dealer", "bid", "kou_unit", "jack_kou", "misdeal_0", "bottom_multiplier", "kou_shape"],
        ),
    ],
)
def test_the_entry_form_shows_only_the_fields_the_variant_uses(owner_client, variant, present, absent):
    client, club, owner = owner_client
    session = make_session(club, owner, variant=variant)
    page = client.get(_url("table", session)).content.decode()
    names = _inputs(page)
    assert set(present) <= names
    assert not set(absent) & names


def test_the_fields_come_in_the_order_play_produces_them(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner, variant="biaofen")
    page = client.get(_url("table", session)).content.decode()
    groups = re.findall(r'data-group="([a-z_]+)"', page)
    assert groups[:10] == [
        "dealer",
        "declarer",
        "bid",
        "no_trump_bottom",
        "surrender",
        "bombs",
        "captured",
        "kou_di",
        "bottom_points",
        "penalties",
    ]


def test_the_next_dealer_is_checked_by_default(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    assert _checked(client.get(_url("table", session)).content.decode(), "dealer") == "0"  # the first hand: seat 0
    record_hands(session, owner, BENXI_EXAMPLE[:3])  # dealers 0, 1, 2: the next is 3
    page = client.get(_url("table", session)).content.decode()
    assert _checked(page, "dealer") == "3"
    assert _checked(page, "declarer") is None  # won in the bidding: no default


def test_biaofen_asks_for_the_dealer_at_the_start_of_each_round(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner, variant="biaofen", options={"round_hands": 2})
    table = _url("table", session)
    assert _checked(client.get(table).content.decode(), "dealer") is None
    # 庄胜 keeps the deal with the declarer (biaofen.md, "Who bids first next").
    record_hands(session, owner, [{"dealer": 2, "declarer": 1, "bid": 50, "captured": 20}])
    assert _checked(client.get(table).content.decode(), "dealer") == "1"
    record_hands(session, owner, [{"dealer": 1, "declarer": 1, "bid": 50, "captured": 20}])  # the round of 2 ends
    page = client.get(table).content.decode()
    assert _checked(page, "dealer") is None and "新的一轮：翻一张牌定谁先叫。" in page
    hand = {"declarer": "1", "bid": "50", "captured": "20"}
    response = client.post(table, hand | {"action": "preview"})
    assert "还要填： <strong>头家（先叫）</strong>" in response.content.decode()
    response = client.post(table, hand | {"action": "record"})
    assert response.status_code == 400 and "谁先叫？" in response.content.decode()
    assert not Hand.objects.filter(session=session, number=3).exists()
    assert client.post(table, hand | {"dealer": "3", "action": "record"}).status_code == 302
    assert HandRevision.objects.get(hand__session=session, hand__number=3).input["dealer"] == 3


def test_a_level_game_takes_the_declarer_from_the_rotation_and_stores_it_with_the_hand(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner, variant="hongxingwu")
    table = _url("table", session)
    assert _checked(client.get(table).content.decode(), "declarer") is None  # a game's first hand: asked
    # s = 50: the declaring team goes up 4 levels (40–55), so the declarer's 对家, seat 2, declares next.
    assert client.post(table, {"declarer": "0", "captured": "50", "action": "record"}).status_code == 302
    page = client.get(table).content.decode()
    assert '<input type="hidden" name="declarer" value="2">' in page and "按轮转" in page
    assert 'name="declarer" id=' not in page  # no seat buttons: the rotation decides
    assert client.post(table, {"declarer": "2", "captured": "130", "action": "record"}).status_code == 302
    # The form leaves the rotation's declarer out; the ledger stores it as a fact of the hand (README, the ledger).
    assert HandRevision.objects.get(hand__session=session, hand__number=2).input == {"captured": 130, "declarer": 2}


# --- bids, shapes, tribute: what the rules allow, asked of the engine ---


def test_benxi_bid_buttons_carry_the_places_where_the_rules_allow_them(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    page = client.get(_url("table", session)).content.decode()
    # 本溪: places 2 and 3 bid at least 85; forced only at place 3 with 90 or more (baifen.md).
    assert _button_attrs(page, "bid", "80") == {"data-places": "0 1", "data-forced-places": ""}
    assert _button_attrs(page, "bid", "85") == {"data-places": "0 1 2 3", "data-forced-places": ""}
    assert _button_attrs(page, "bid", "90") == {"data-places": "0 1 2 3", "data-forced-places": "3"}
    assert _button_attrs(page, "bid", "100") == {"data-places": "0 1 2 3", "data-forced-places": "3"}
    assert 'value="75"' not in page and 'value="105"' not in page


def test_fushun_offers_80_only_as_the_forced_bid_of_the_first_place(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner, variant="baifen.fushun")
    page = client.get(_url("table", session)).content.decode()
    assert _button_attrs(page, "bid", "80") == {"data-places": "", "data-forced-places": "0"}
    assert _button_attrs(page, "bid", "85") == {"data-places": "0 1 2 3", "data-forced-places": ""}
    assert 'name="redeal" id="redeal-misdeal"' in page and "redeal-all_pass" not in page  # 抚顺: misdeal only


@pytest.mark.parametrize(
    ("variant", "low", "high"), [("baifen.classic", 45, 100), ("biaofen", 5, 80), ("erguai", 80, 100)]
)
def test_the_bid_buttons_span_the_variants_range(owner_client, variant, low, high):
    client, club, owner = owner_client
    session = make_session(club, owner, variant=variant)
    page = client.get(_url("table", session)).content.decode()
    bids = [int(b) for b in re.findall(r'name="bid" id="bid-\d+" value="(\d+)"', page)]
    assert bids == list(range(low, high + 1, 5))


def test_hongxingwu_shape_buttons_fill_the_multiplier(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner, variant="hongxingwu")
    table = _url("table", session)
    page = client.get(table).content.decode()
    # The default kou_shapes option: single ×2, pair ×4, triple ×8, ….
    assert _button_attrs(page, "kou_shape", "pair") == {"data-multiplier": "4"}
    assert _button_attrs(page, "kou_shape", "tractor_4_pairs") == {"data-multiplier": "16"}
    hand = {"declarer": "0", "captured": "60", "kou_di": "on", "bottom_points": "20", "kou_shape": "pair"}
    response = client.post(table, hand | {"action": "preview"})
    # s = 60 + 20 × 4 = 140: the capture team takes over and goes up 1 (hongxingwu.md, 140–155).
    assert response.status_code == 200 and "抠底：抓分 60 + 底分 20 × 4 = 140" in response.content.decode()
    assert client.post(table, hand | {"action": "record"}).status_code == 302
    assert HandRevision.objects.get(hand__session=session).input == {
        "declarer": 0,
        "captured": 60,
        "kou_di": True,
        "bottom_points": 20,
        "bottom_multiplier": 4,
    }


def test_shengji_records_a_kou_di_with_its_cards_and_a_failed_throw_and_names_the_players(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner, variant="shengji", options={"shuai_penalty": 10})
    table = _url("table", session)
    _english(client)
    hand = {
        "declarer": "0",
        "captured": "40",
        "kou_di": "on",
        "kou_cards": "2",
        "bottom_points": "20",
        "shuai_2": "1",  # 丙, of the declaring team, failed a throw
        "action": "record",
    }
    response = client.post(table, hand)
    assert response.status_code == 302
    assert HandRevision.objects.get(hand__session=session).input == {
        "declarer": 0,
        "captured": 40,
        "kou_di": True,
        "kou_cards": 2,
        "bottom_points": 20,
        "penalties": [{"seat": 2, "kind": "shuai"}],
    }
    page = client.get(response["Location"]).content.decode()
    # shengji.md, One hand, 2 decks (T 80, d 40, z 1): m = 2N = 2 × 2 = 4; s = 40 + 20 × 4 = 120;
    # P = 10 × (1 declaring − 0 capture) = +10 → 130 ≥ 80: 乙·丁 take over and go up
    # ⌊(130 − 80) / 40⌋ − 1 + 1 = 1, 2 → 3; the declarer's 下家 乙 declares next.
    for step in (
        "bottom multiplier: 2 cards each in the last trick, 2 × 2 = 4",
        "last trick (抠底): captured 40 + bottom 20 × 4 = 120",
        "failed throws: declaring team 1, capture team 0, 10 each: +10 → 130",
        "the capture team takes over and goes up ⌊(130 − 80) / 40⌋ − 1 + 1 = 1",
        "levels: 甲·丙 2, 乙·丁 3",
        "next declarer: the declarer&#x27;s 下家, 乙",
    ):
        assert step in page, step
    # The next hand: 乙 declares by the rotation (locked), and the kou_cards input is still offered.
    assert "by the rotation" in page and 'name="declarer" value="1"' in page and 'name="kou_cards"' in page


def test_gunzi_shows_the_tribute_the_previous_hand_set_and_records_it_reversed(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner, variant="gunzi")
    table = _url("table", session)
    # s = 50 without 抠底: the declaring team (0, 2) goes up; seat 2 declares next; 50 is 30 short of 80,
    # so the capture team pays 3 cards: the next declarer's 上家, seat 1 (乙), to seat 2 (丙).
    record_hands(session, owner, [{"declarer": 0, "captured": 50}])
    _english(client)
    page = client.get(table).content.decode()
    assert "乙 pays 丙 3 cards" in page and _checked(page, "tribute") == "normal"
    response = client.post(table, {"declarer": "2", "captured": "100", "tribute": "reversed", "action": "record"})
    assert response.status_code == 302
    # The rotation's declarer is stored with the hand (README, the ledger).
    assert HandRevision.objects.get(hand__number=2).input == {"captured": 100, "tribute": "reversed", "declarer": 2}
    # s = 100: seats 0 and 2 go up again, +3 each, 1 and 3 −3; reversed, 丙 pays 乙 the 3 instead.
    results = services.hand_preview(session=session, hand_input={"captured": 100}, lang="en")
    assert results["hands"][1]["deltas"] == [3, 0, 0, -3]


# --- the receipt before saving ---


def test_preview_without_script_shows_the_receipt_and_saves_nothing(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    data = {"dealer": "0", "declarer": "1", "bid": "85", "captured": "20", "action": "preview"}
    response = client.post(_url("table", session), data)
    page = response.content.decode()
    assert response.status_code == 200
    assert "叫分 85 + 抓分 20 = 105 &gt; 100：破" in page and "庄家方 −85" in page
    assert 'value="85" checked' in page and 'value="20"' in page  # the form keeps what was entered
    assert not Hand.objects.exists()


def test_the_preview_fragment_puts_a_refusal_at_its_field(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    _english(client)
    data = {"dealer": "0", "declarer": "2", "bid": "80", "captured": "20"}
    fragment = client.post(_url("table_preview", session), data).content.decode()
    assert '<li data-field="bid">in Benxi the third bidder (the dealer is first) must bid at least 85</li>' in fragment
    assert "The rules refuse this hand" in fragment
    fragment = client.post(_url("table_preview", session), {"dealer": "0", "declarer": "2"}).content.decode()
    assert "Still to fill in: <strong>Bid</strong>" in fragment and "refuse" not in fragment


def test_a_refused_hand_is_not_recorded_and_the_reason_shows_at_the_field(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    data = {"dealer": "0", "declarer": "2", "bid": "80", "captured": "20", "action": "record"}
    response = client.post(_url("table", session), data)
    page = response.content.decode()
    assert response.status_code == 400 and not Hand.objects.exists()
    assert re.search(r'data-error-for="bid">本溪第 3 个叫的（头家为第 1 个）至少叫 85<', page)


# --- recording: once per key ---


def test_recording_twice_with_one_key_records_one_hand(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    table = _url("table", session)
    data = {"dealer": "0", "declarer": "0", "bid": "80", "captured": "15", "client_key": "tap-1", "action": "record"}
    first, second = client.post(table, data), client.post(table, data)
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"] == table + "?saved=1#next"
    assert Hand.objects.filter(session=session).count() == 1


def test_each_rendered_form_has_a_fresh_client_key(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    keys = [
        re.search(r'name="client_key" value="([0-9a-f]+)"', client.get(_url("table", session)).content.decode())[1]
        for _ in range(2)
    ]
    assert len(set(keys)) == 2


def test_classic_partner_alone_and_biaofen_surrender_become_document_fields(owner_client):
    client, club, owner = owner_client
    classic = make_session(club, owner, variant="baifen.classic")
    data = {"dealer": "0", "declarer": "1", "bid": "60", "partner": "none", "captured": "30", "action": "record"}
    assert client.post(_url("table", classic), data).status_code == 302
    assert HandRevision.objects.get(hand__session=classic).input == {
        "dealer": 0,
        "declarer": 1,
        "bid": 60,
        "partner": None,
        "captured": 30,
    }
    biaofen = make_session(club, owner, variant="biaofen")
    data = {"dealer": "0", "declarer": "0", "bid": "40", "surrender": "on", "captured": "35", "misdeal_2": "1"}
    assert client.post(_url("table", biaofen), data | {"action": "record"}).status_code == 302
    # The hand was not played: what was typed as captured is dropped, the misdeal stays.
    assert HandRevision.objects.get(hand__session=biaofen).input == {
        "dealer": 0,
        "declarer": 0,
        "bid": 40,
        "surrender": True,
        "penalties": [{"seat": 2, "kind": "misdeal"}],
    }


def test_a_thrown_in_hand_keeps_only_the_dealer(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    data = {"dealer": "0", "declarer": "1", "bid": "85", "redeal": "all_pass", "action": "record"}
    assert client.post(_url("table", session), data).status_code == 302
    assert HandRevision.objects.get().input == {"dealer": 0, "redeal": "all_pass"}
    assert _checked(client.get(_url("table", session)).content.decode(), "dealer") == "1"  # the deal passes on


# --- after saving: totals, games won, chart, newest hands ---


def test_after_saving_the_page_shows_game_and_session_totals_games_won_and_receipts(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE)
    _english(client)
    page = client.get(_url("table", session) + "?saved=5").content.decode()
    # Hand 5 (A makes 100 clean, +300) wins 盘 2 for A at once, so 盘 3 starts at 0 : 0.
    # Session: A 15 + 300 = 315, B 230 + 0; one 盘 each.
    assert "Hand 5 recorded." in page and "Game 2 is over" in page and "Game 3" in page and "Pot " not in page
    assert _board(page) == [["甲·丙", "0", "+315", "1"], ["乙·丁", "0", "+230", "1"]]
    assert "bid 100, nothing captured: made" in page  # the newest hand's receipt
    assert page.count('<article class="hand') == 5


def test_the_chart_has_a_line_per_team_restarting_when_a_pot_ends(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE)
    page = client.get(_url("table", session)).content.decode()
    svg = page[page.index("<svg") : page.index("</svg>")]
    assert svg.count('<g class="series') == 2
    assert svg.count("<polyline") == 4  # two teams × two 盘
    assert "+205" in svg and "−205" in svg  # the target lines


def test_a_one_game_variant_charts_the_session_totals(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner, variant="erguai")
    record_hands(session, owner, [{"dealer": 0, "declarer": 0, "bid": 85, "partner": 2, "captured": 10}])
    page = client.get(_url("table", session)).content.decode()
    svg = page[page.index("<svg") : page.index("</svg>")]
    assert svg.count("<polyline") == 4  # one line per player
    assert "This game" not in page and "本盘" not in page


# --- fixing mistakes ---


def test_correcting_an_earlier_hand_from_the_table_changes_the_totals_after_it(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE)
    fix = _url("table_fix", session, number=2)
    page = client.get(fix).content.decode()
    assert _checked(page, "bid") == "85" and 'name="captured" value="20"' in page and 'name="reason"' in page
    corrected = {"dealer": "1", "declarer": "1", "bid": "85", "captured": "10"}
    preview = client.post(_url("table_preview", session), corrected | {"fix": "2"}).content.decode()
    # Made now: B +85, A +10 → A 90, B 100; hand 3 B +200 → B 300 ends 盘 1; hand 4 opens 盘 2 at A −85,
    # B +100; hand 5 A +300 → A 215 wins 盘 2. Session: A 90 − 85 + 300 = 305, B 300 + 100 = 400.
    assert "<s>315</s> → 305" in preview and "<s>230</s> → 400" in preview
    assert client.post(fix, corrected | {"action": "correct", "reason": ""}).status_code == 400
    response = client.post(fix, corrected | {"action": "correct", "reason": "少算了一个十"})
    assert response.status_code == 302 and response["Location"] == _url("table", session) + "?fixed=2"
    later = [hand.result["totals"] for hand in selectors.session_results(session=session).hands[2:]]
    assert later == [
        [90, 300, 90, 300],
        [-85, 100, -85, 100],
        [215, 100, 215, 100],
    ]
    page = client.get(response["Location"]).content.decode()
    assert "少算了一个十" in page and _url("hand_detail", session, number=2) in page  # the audit trail


def test_voiding_from_the_table_needs_a_reason_and_stops_the_hand_counting(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE[:2])
    fix = _url("table_fix", session, number=2)
    assert client.post(fix, {"action": "void", "reason": " "}).status_code == 400
    assert client.post(fix, {"action": "void", "reason": "发错牌"}).status_code == 302
    page = client.get(_url("table", session)).content.decode()
    assert 'class="badge void"' in page
    assert services.session_export(session=session)["hands"] == [BENXI_EXAMPLE[0]]


@pytest.mark.parametrize(
    ("variant", "lang", "notice", "not_said"),
    [
        ("baifen.benxi", "zh-hans", "第 2 局已作废，之后各局已重新结算。", "已更正"),
        ("hongxingwu", "zh-hans", "第 2 副已作废，之后各副已重新结算。", "已更正"),
        ("baifen.benxi", "en", "Hand 2 voided; the totals after it are settled again.", "fixed"),
    ],
)
def test_a_voids_notice_says_voided_not_corrected(owner_client, variant, lang, notice, not_said):
    client, club, owner = owner_client
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    session = make_session(club, owner, variant=variant)
    record_hands(
        session,
        owner,
        BENXI_EXAMPLE[:2]
        if variant == "baifen.benxi"
        else [{"declarer": 0, "captured": 50}, {"declarer": 2, "captured": 50}],
    )
    response = client.post(_url("table_fix", session, number=2), {"action": "void", "reason": "发错牌"})
    assert response.status_code == 302 and response["Location"] == _url("table", session) + "?voided=2"
    flash = re.search(r'<p class="flash" role="status">(.*?)<a', client.get(response["Location"]).content.decode())
    assert flash and flash.group(1).strip() == notice and not_said not in flash.group(1)


# --- closing ---


def test_closing_shows_the_final_standings_and_the_settle_up_in_money(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner, variant="biaofen", options={"unit_value": 10})
    record_hands(
        session,
        owner,
        [
            # 庄胜 at 50 (< 55: 3 each) with 小光 (20 ≤ 25: +1): seat 0 +12, the others −4.
            {"dealer": 0, "declarer": 0, "bid": 50, "captured": 20},
            # 打宕 at 60 (60 reaches only the first threshold): seat 1 pays each 1.
            {"dealer": 0, "declarer": 1, "bid": 60, "captured": 60},
        ],
    )
    response = client.post(_url("table_close", session))
    assert response.status_code == 302 and response["Location"] == _url("table", session)
    page = client.get(_url("table", session)).content.decode()
    assert 'name="client_key"' not in page  # no entry form once closed
    # Totals 13, −7, −3, −3 (档) × 10: 乙 pays 甲 70, 丙 30, 丁 30.
    assert re.findall(r"<li>(.*?)</li>", page[page.index('class="settle-up"') :])[:3] == [
        "乙 付给 甲 钱 70（7 档）",
        "丙 付给 甲 钱 30（3 档）",
        "丁 付给 甲 钱 30（3 档）",
    ]
    ranking = page[page.index('class="ranking"') : page.index("</ol>", page.index('class="ranking"'))]
    assert [re.sub(r"<[^>]+>", "", n).strip() for n in re.findall(r'class="name">(.*?)</span>\s*<span', ranking)] == [
        "甲",
        "丙",
        "丁",
        "乙",
    ]


def test_a_viewer_reads_the_table_but_cannot_write_and_other_clubs_see_nothing(client):
    club = make_club()
    owner = make_member(club)
    viewer = make_member(club, Role.VIEWER)
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE[:1])
    client.force_login(viewer)
    page = client.get(_url("table", session)).content.decode()
    assert "叫分 80 + 抓分 15" in page and 'name="client_key"' not in page
    data = {"dealer": "1", "declarer": "1", "bid": "85", "captured": "0", "action": "record"}
    assert client.post(_url("table", session), data).status_code == 403
    assert client.post(_url("table_preview", session), data).status_code == 403
    assert client.post(_url("table_fix", session, number=1), {"action": "void", "reason": "x"}).status_code == 403
    assert client.post(_url("table_close", session)).status_code == 403
    client.force_login(make_member(make_club()))
    assert client.get(_url("table", session)).status_code == 404


def test_the_table_page_costs_the_same_queries_for_few_or_many_hands(owner_client, django_assert_num_queries):
    client, club, owner = owner_client
    short, long = make_session(club, owner), make_session(club, owner)
    record_hands(short, owner, BENXI_EXAMPLE[:2])
    record_hands(long, owner, BENXI_EXAMPLE * 4)
    services.hand_void(session=long, user=owner, number=3, reason="x")
    # django session, user, session (the URL) + membership + club, seats with the state after the last hand (and
    # the log's last number), the newest hands' revisions with their stored states, the chart's settlement
    # and game rows, the share link, the event round it may be a table of (the round clock)
    with django_assert_num_queries(9):
        client.get(_url("table", short))
    with django_assert_num_queries(9):
        client.get(_url("table", long))


def test_a_session_chart_costs_the_same_queries_for_few_or_many_hands(
    owner_client, django_assert_num_queries, monkeypatch
):
    client, club, owner = owner_client
    round_of_two = [{"dealer": 0, "declarer": 0, "bid": 50, "captured": 30}, {"declarer": 0, "bid": 50, "captured": 30}]
    short = make_session(club, owner, variant="biaofen", options={"round_hands": 2})
    long = make_session(club, owner, variant="biaofen", options={"round_hands": 2})
    record_hands(short, owner, round_of_two[:1])
    record_hands(long, owner, round_of_two * 3)
    monkeypatch.setattr(table_selectors, "CHART_HANDS", 3)  # the long one's chart starts after two rounds
    # As the 打百分 page above, plus the chart's base: what the rounds before its first hand add up to.
    with django_assert_num_queries(10):
        client.get(_url("table", short))
    with django_assert_num_queries(10):
        client.get(_url("table", long))


def test_the_opening_form_fills_in_todays_date_as_a_date_input_reads_it(owner_client):
    client, club, _ = owner_client
    page = client.get(reverse("session_new", kwargs={"slug": club.slug}) + "?variant=baifen.benxi").content.decode()
    # zh-Hans formats dates 2026/11/30, which an <input type="date"> cannot show: the value is ISO.
    assert re.search(r'<input type="date" name="date" value="\d{4}-\d{2}-\d{2}"', page)


def test_hands_older_than_the_newest_are_listed_with_a_link_to_fix_them(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE * 2)  # ten hands: the newest eight in full, #1 and #2 as links
    page = client.get(_url("table", session)).content.decode()
    assert page.count('<article class="hand') == 8
    older = page[page.index('class="older"') :]
    assert _url("table_fix", session, number=1) in older and _url("table_fix", session, number=2) in older
    assert _url("table_fix", session, number=3) not in older


def test_a_correction_that_a_later_hand_no_longer_passes_is_refused_naming_that_hand(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner, variant="gunzi")
    # Hand 1's 50 sets a tribute of 3 cards, which hand 2 paid reversed.
    record_hands(session, owner, [{"declarer": 0, "captured": 50}, {"captured": 100, "tribute": "reversed"}])
    # Nothing captured is a special that ends the game (gunzi.md): hand 2 would open a new game,
    # which pays no tribute, and it says it paid one reversed.
    data = {"declarer": "0", "captured": "0", "reason": "记错了", "action": "correct"}
    response = client.post(_url("table_fix", session, number=1), data)
    page = response.content.decode()
    assert response.status_code == 400 and "第 2 副：一盘的第一副牌没有进贡" in page
    assert HandRevision.objects.filter(hand__number=1).count() == 1


def _level_teams(page):
    """The level games' team lines under the scoreboard, as texts."""
    start = page.index('class="level-teams"')
    body = page[start : page.index("</ul>", start)]
    return [" ".join(re.sub(r"<[^>]+>", " ", li).split()) for li in re.findall(r"<li.*?</li>", body, re.S)]


def _next_declarer(page):
    match = re.search(r'<p class="next-declarer">(.*?)</p>', page, re.S)
    return match and " ".join(match.group(1).split())


def test_shengji_shows_each_teams_level_the_levels_it_must_defend_and_who_declares_next(owner_client):
    client, club, owner = owner_client
    # The 上海80分 preset: must_defend 2, 5, 10, K (shengji.md, Options).
    session = make_session(club, owner, variant="shengji", options={"must_defend": ["2", "5", "10", "K"]})
    table = _url("table", session)
    page = client.get(table).content.decode()
    assert _level_teams(page) == ["甲·丙 级 2 必打： 2, 5, 10, K", "乙·丁 级 2 必打： 2, 5, 10, K"]
    assert _next_declarer(page) == "下一副坐庄：新的一盘，在牌桌上定"
    # shengji.md, 2 decks: s = 0 (光头) → the declaring team +3. Promotion from 2 while declaring: i = 0
    # leaves the gate 2 (declaring, first step), 3 and 4 are no gates → 5; next declarer 甲's 对家 丙.
    record_hands(session, owner, [{"declarer": 0, "captured": 0}])
    _english(client)
    page = client.get(table).content.decode()
    assert _level_teams(page) == ["甲·丙 level 5 to defend: 5, 10, K", "乙·丁 level 2 to defend: 2, 5, 10, K"]
    assert _next_declarer(page) == "Next declarer: 丙"
    assert '<li class="team t0 declares">' in page
    # Correcting hand 1 shows the form's state before it, but the scoreboard stays the session's now.
    page = client.get(_url("table_fix", session, number=1)).content.decode()
    assert _level_teams(page)[0] == "甲·丙 level 5 to defend: 5, 10, K" and _next_declarer(page) == "Next declarer: 丙"


def test_six_player_shengji_names_its_teams_of_three_and_a_game_without_gates_lists_none(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner, variant="shengji", players=["甲", "乙", "丙", "丁", "戊", "己"])
    # 6 players, 3 decks (T 120, d 60): s = 150 ≥ 120 → 上台 with max(0, ⌊30 / 60⌋ − 1 + 1) = 0 levels;
    # next declarer 戊's 下家, 己 (seat 5).
    record_hands(session, owner, [{"declarer": 4, "captured": 150}])
    _english(client)
    page = client.get(_url("table", session)).content.decode()
    assert _level_teams(page) == ["甲·丙·戊 level 2", "乙·丁·己 level 2"]
    assert _next_declarer(page) == "Next declarer: 己"


@pytest.mark.parametrize("n", [5, 50])
def test_the_preview_fragment_costs_the_same_queries_for_few_or_many_hands(owner_client, n, django_assert_num_queries):
    client, club, owner = owner_client
    session = make_session(club, owner)
    record_hands(session, owner, (BENXI_EXAMPLE * n)[:n])
    hand = BENXI_EXAMPLE[n % 5]
    data = {key: str(value) for key, value in hand.items()}
    # The table page's read (as above, less the share link); the preview plays on from the seats and the stored
    # state that read found (services.hand_preview_next): no query of its own, no replay of the log.
    with django_assert_num_queries(7):
        fragment = client.post(_url("table_preview", session), data).content.decode()
    assert "−" in fragment or "+" in fragment


# --- a stale page: the number it was entered as ---


def test_the_entry_form_carries_the_number_it_is_entered_as(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE[:2])
    page = client.get(_url("table", session)).content.decode()
    assert '<input type="hidden" name="expected" value="3">' in page


def test_a_hand_entered_on_a_page_another_device_moved_on_is_a_conflict_then_recorded_as_the_next_hand(owner_client):
    """The page shows hand 1 (dealer 0 pre-selected); another phone records hand 1 meanwhile.

    本溪 hand 2 of rules/baifen.md: dealer 1 (the next seat), 乙 (seat 1) bids 85, A captures 20: broken.
    """
    client, club, owner = owner_client
    session = make_session(club, owner)
    _english(client)
    table = _url("table", session)
    assert _checked(client.get(table).content.decode(), "dealer") == "0"
    services.hand_record(session=session, user=owner, hand_input=BENXI_EXAMPLE[0])  # another device
    stale = {"dealer": "0", "declarer": "1", "bid": "85", "captured": "20", "client_key": "k-2", "expected": "1"}
    response = client.post(table, {**stale, "action": "record"})
    page = response.content.decode()
    assert response.status_code == 409
    assert Hand.objects.filter(session=session).count() == 1  # nothing saved
    assert "Another device recorded Hand 1 meanwhile, while this page still showed it." in page
    assert 'role="alert"' in page and "Discard it" in page
    # What was entered stays, as hand 2, its dealer the rule's for hand 2; the receipt is hand 2's.
    assert _checked(page, "dealer") == "1" and _checked(page, "declarer") == "1" and _checked(page, "bid") == "85"
    assert '<input type="hidden" name="expected" value="2">' in page
    assert ">Record as hand 2</button>" in page
    assert "bid 85 + captured 20 = 105 &gt; 100: broken" in page
    again = client.post(table, {**stale, "dealer": "1", "expected": "2", "action": "record"})
    assert again.status_code == 302 and again["Location"] == table + "?saved=2#next"
    stored = HandRevision.objects.get(hand__session=session, hand__number=2).input
    assert (stored["dealer"], stored["declarer"], stored["captured"]) == (1, 1, 20)


def test_the_conflict_is_said_in_chinese_by_default(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    services.hand_record(session=session, user=owner, hand_input=BENXI_EXAMPLE[0])
    data = {"dealer": "0", "declarer": "1", "bid": "85", "captured": "20", "expected": "1", "action": "record"}
    page = client.post(_url("table", session), data).content.decode()
    assert "另一台设备同时记下了第 1 局" in page and ">记为第 2 局</button>" in page


# --- issue 31: the keyboard, and the hand that ends a game ---


@pytest.mark.parametrize(
    ("saved", "lang", "notice"),
    [
        # 本溪 205: after hand 4 乙·丁 have 230 ≥ 205 (出锅); hand 5, 100 clean for 甲 (+300), wins game 2 for 甲·丙.
        (4, "zh-hans", "出锅：乙·丁胜"),
        (5, "zh-hans", "出锅：甲·丙胜"),
        (4, "en", "reached the target: 乙·丁 won"),
    ],
)
def test_the_hand_that_ends_a_game_says_who_won_it_at_the_top_of_the_form(owner_client, saved, lang, notice):
    client, club, owner = owner_client
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE)
    page = client.get(_url("table", session) + f"?saved={saved}").content.decode()
    flash = re.search(r'<p class="flash game-ended" role="status"><strong class="game-end-notice">(.*?)</strong>', page)
    assert flash and flash.group(1) == notice
    assert page.index("game-end-notice") < page.index('<form method="post" class="table-entry"')


def test_a_hand_that_ends_no_game_gets_the_plain_notice(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE[:3])
    page = client.get(_url("table", session) + "?saved=3").content.decode()
    assert '<p class="flash" role="status">第 3 局已记录。' in page and "game-end-notice" not in page


def _submit_buttons(form_html):
    return re.findall(r'<button type="submit" name="action" value="(\w+)"', form_html)


def test_the_forms_first_submit_button_records_so_enter_records_without_script(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE[:1])
    page = client.get(_url("table", session)).content.decode()
    form = page[page.index('class="table-entry"') :]
    assert _submit_buttons(form)[0] == "record" and "preview" in _submit_buttons(form)
    fix = client.get(_url("table_fix", session, number=1)).content.decode()
    assert _submit_buttons(fix[fix.index('class="table-entry"') :])[:2] == ["correct", "preview"]


@pytest.mark.parametrize(("lang", "text"), [("zh-hans", "跳到记分"), ("en", "Skip to the hand entry")])
def test_the_first_link_of_the_table_page_skips_to_the_entry(owner_client, lang, text):
    client, club, owner = owner_client
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    session = make_session(club, owner)
    page = client.get(_url("table", session)).content.decode()
    body = page[page.index("<body") :]
    assert re.search(r"<a [^>]*href=\"([^\"]+)\"", body).group(1) == "#entry"
    assert f'<a class="skip skip-entry" href="#entry">{text}</a>' in body
    assert '<section class="entry" id="entry" tabindex="-1"' in body
