"""A hand's audit trail reads as words with names: what each revision changed, who, when and why."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from settlement import selectors, services
from settlement.presentation.revisions import revision_lines, when_label
from tests.factories import make_club, make_member, make_session, record_hands

pytestmark = pytest.mark.django_db

# Seats 0–3 of make_session are 甲 乙 丙 丁.


def _lines(session, number, lang):
    record = selectors.session_results(session=session, lang=lang)
    entry = next(h for h in record.hands if h.number == number)
    return revision_lines(revisions=entry.revisions, players=record.players, lang=lang)


@pytest.fixture
def benxi():
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    record_hands(session, owner, [{"dealer": 0, "declarer": 1, "bid": 85, "captured": 35}])
    return session, owner


@pytest.mark.parametrize(
    ("lang", "recorded"),
    [
        ("zh-Hans", ("记录", ("头家 甲", "庄家 乙", "叫分 85", "抓分 35"))),
        ("en", ("recorded", ("dealer 甲", "declarer 乙", "bid 85", "captured 35"))),
    ],
)
def test_the_first_revision_lists_what_was_recorded_with_names_for_seats(benxi, lang, recorded):
    session, _ = benxi
    (line,) = _lines(session, 1, lang)
    assert (line.action, line.changes) == recorded
    assert line.kind == "record"


@pytest.mark.parametrize(
    ("lang", "action", "change"),
    [("zh-Hans", "更正", "抓分 35 → 30"), ("en", "corrected", "captured 35 → 30")],
)
def test_a_correction_names_only_the_field_it_changed(benxi, lang, action, change):
    session, owner = benxi
    services.hand_correct(
        session=session,
        user=owner,
        number=1,
        hand_input={"dealer": 0, "declarer": 1, "bid": 85, "captured": 30},
        reason="数错了",
    )
    line = _lines(session, 1, lang)[1]
    assert (line.action, line.changes, line.reason) == (action, (change,), "数错了")
    assert line.author == owner.get_username()


@pytest.mark.parametrize(
    ("lang", "change"),
    [("zh-Hans", "庄家 乙 → 丁"), ("en", "declarer 乙 → 丁")],
)
def test_a_changed_seat_reads_as_the_players_names(benxi, lang, change):
    session, owner = benxi
    services.hand_correct(
        session=session,
        user=owner,
        number=1,
        hand_input={"dealer": 0, "declarer": 3, "bid": 85, "captured": 35},
        reason="坐错了",
    )
    assert _lines(session, 1, lang)[1].changes == (change,)


@pytest.mark.parametrize(
    ("lang", "void", "back"),
    [
        ("zh-Hans", ("作废", ("不再计分",)), ("恢复", ("头家 甲", "庄家 乙", "叫分 85", "抓分 35"))),
        (
            "en",
            ("voided", ("the hand no longer counts",)),
            ("brought back", ("dealer 甲", "declarer 乙", "bid 85", "captured 35")),
        ),
    ],
)
def test_a_void_says_so_and_a_correction_after_it_lists_what_came_back(benxi, lang, void, back):
    session, owner = benxi
    services.hand_void(session=session, user=owner, number=1, reason="重复记了")
    services.hand_correct(
        session=session,
        user=owner,
        number=1,
        hand_input={"dealer": 0, "declarer": 1, "bid": 85, "captured": 35},
        reason="没有重复",
    )
    lines = _lines(session, 1, lang)
    assert [(line.action, line.changes) for line in lines[1:]] == [void, back]
    assert [line.kind for line in lines] == ["record", "void", "restore"]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("zh-Hans", ("头家 甲", "重新发牌 无人叫分")),
        ("en", ("dealer 甲", "redealt all passed")),
    ],
)
def test_a_redeal_reason_is_in_words(lang, words):
    # The ledger stores the dealer the table filled in (the first hand's is seat 0), so it is listed too.
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    record_hands(session, owner, [{"redeal": "all_pass"}])
    assert _lines(session, 1, lang)[0].changes == words


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        # 红星五: seats 0 + 2 are a team; 甲 declares, the capture side wins the last trick with a pair (×4).
        ("zh-Hans", ("庄家 甲", "抓分 60", "抠底", "底分 10", "倍数 ×4")),
        ("en", ("declarer 甲", "captured 60", "last trick to the capture side", "bottom points 10", "multiplier ×4")),
    ],
)
def test_flags_and_multipliers_read_as_words(lang, expected):
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner, variant="hongxingwu")
    record_hands(
        session,
        owner,
        [{"declarer": 0, "captured": 60, "kou_di": True, "bottom_points": 10, "bottom_multiplier": 4}],
    )
    assert _lines(session, 1, lang)[0].changes == expected


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("zh-Hans", "11月28日 21:04"), ("en", "28 Nov 21:04")],
)
def test_the_time_is_local_day_month_and_minutes(lang, expected, settings):
    settings.TIME_ZONE = "Asia/Shanghai"
    moment = datetime.datetime(2026, 11, 28, 13, 4, tzinfo=datetime.UTC)  # 21:04 in Shanghai (UTC+8)
    with timezone.override("Asia/Shanghai"):
        assert when_label(moment, lang) == expected
