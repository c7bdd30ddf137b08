"""The table page's reads (`selectors.table_view`): entry state, tribute, chart. Figures worked by hand."""

from __future__ import annotations

import pytest
from django.urls import reverse

from settlement import selectors
from settlement.presentation.chart import table_chart, view_chart
from settlement.selectors import records, table
from tests.factories import make_session, record_hands

pytestmark = pytest.mark.django_db

BENXI = [
    {"dealer": 0, "declarer": 0, "bid": 80, "captured": 15},
    {"dealer": 1, "declarer": 1, "bid": 85, "captured": 20},
    {"dealer": 2, "declarer": 3, "bid": 90, "captured": 0},
]


def test_the_entry_state_of_a_correction_is_the_state_before_that_hand(owner):
    club, user = owner
    session = make_session(club, user)
    record_hands(session, user, BENXI)
    view = selectors.table_view(session=session, fix=2)
    assert (view.entry.number, view.entry.game, view.entry.dealer) == (2, 1, 1)  # after hand 1 dealt by seat 0
    assert view.fix.number == 2
    assert selectors.table_view(session=session).entry.dealer == 3


def test_no_tribute_is_pending_when_the_last_hand_set_none(owner):
    club, user = owner
    session = make_session(club, user, variant="gunzi")
    # s = 100: between 80 and 115 the capture team pays only the bottom's jokers, here none.
    record_hands(session, user, [{"declarer": 0, "captured": 100}])
    entry = selectors.table_view(session=session).entry
    assert entry.declarer == 2 and entry.declarer_locked and entry.tribute is None
    assert entry.levels == ("4", "3", "4", "3")  # seats 0 and 2 went up from 3


def test_a_tribute_of_two_points_a_card_is_counted_in_cards(owner):
    club, user = owner
    session = make_session(club, user, variant="gunzi", options={"card_points": 2})
    # s = 30: 50 short of 80, 5 cards; the next declarer is seat 2, its 上家 seat 1 pays 5 × 2.
    record_hands(session, user, [{"declarer": 0, "captured": 30}])
    tribute = selectors.table_view(session=session).entry.tribute
    assert (tribute.cards, tribute.amount, tribute.payer, tribute.payee) == (5, 10, 1, 2)


def test_the_session_chart_adds_a_rounds_adjustments_at_its_last_hand(owner):
    club, user = owner
    session = make_session(club, user, variant="biaofen", options={"round_hands": 2})
    # Seat 0 declares both hands of a round of 2, each 庄胜 at 50 with 30 captured: 3 from each 边家,
    # plus 1 each in the last hand for declaring the whole round: 9, then 12. Seats 1–3 never declared:
    # each pays 2 to every other player (0 gets 6, each of them nets −2). Round: 27, −9, −9, −9.
    hands = [{"dealer": 0, "declarer": 0, "bid": 50, "captured": 30}, {"declarer": 0, "bid": 50, "captured": 30}]
    record_hands(session, user, hands)
    view = selectors.table_view(session=session)
    chart = view_chart(view)
    assert not chart.per_game and chart.hands == 2
    assert [series.last for series in chart.series] == [27, -9, -9, -9]
    assert [s.total for s in view.standings] == [27, -9, -9, -9]
    assert [s.game_total for s in view.standings] == [0, 0, 0, 0]  # the round is over: a new one starts
    assert view.entry.ask_dealer and view.entry.dealer is None


def test_the_pot_chart_restarts_each_pot_and_keeps_the_target_in_view(owner):
    club, user = owner
    session = make_session(club, user, options={"target": 300})
    record_hands(session, user, BENXI)
    chart = view_chart(selectors.table_view(session=session))
    assert chart.per_game and [s.last for s in chart.series] == [100, 130]
    assert {tick.value for tick in chart.ticks} >= {0, 300, -300}
    assert all(len(series.segments) == 1 for series in chart.series)  # one 盘 so far


# Before the first hand each team stands at its variant's first level (hongxingwu.md `start_level` "2",
# gunzi.md `first_level` "3", shengji.md: both teams start at the ladder's first, "2" by default and
# "5" for a ladder that starts there), whatever the variant calls that option.
@pytest.mark.parametrize(
    ("variant", "options", "first"),
    [
        ("hongxingwu", {}, "2"),
        ("gunzi", {}, "3"),
        ("shengji", {}, "2"),
        ("shengji", {"ladder": ["5", "10", "K", "A"]}, "5"),
    ],
)
def test_the_level_column_shows_the_first_level_before_the_first_hand(owner, variant, options, first):
    club, user = owner
    session = make_session(club, user, variant=variant, options=options)
    levels = {standing.side.seats[0]: standing.level for standing in selectors.table_view(session=session).standings}
    assert levels[0] == levels[1] == first


def test_the_level_column_follows_the_levels_after_the_last_hand(owner):
    club, user = owner
    session = make_session(club, user, variant="shengji")
    # shengji.md, 2 decks (T 80, d 40): the declaring team 甲·丙 holds the capture team to 0 → 光头, up 3: 2 → 5.
    record_hands(session, user, [{"declarer": 0, "captured": 0}])
    levels = {standing.side.seats[0]: standing.level for standing in selectors.table_view(session=session).standings}
    assert (levels[0], levels[1]) == ("5", "2")


# --- the chart of a long session: the newest CHART_HANDS hands only ---

ROUND_OF_TWO = [{"dealer": 0, "declarer": 0, "bid": 50, "captured": 30}, {"declarer": 0, "bid": 50, "captured": 30}]


@pytest.mark.parametrize(
    ("chart_hands", "first", "drawn"),
    [
        (10, 1, 4),  # the whole session fits: drawn from 0 before hand 1
        (3, 2, 3),  # hands 2–4: round 1's last hand, then round 2
        (2, 3, 2),  # hands 3–4: round 2 alone, on top of round 1's 27, −9, −9, −9
        (1, 4, 1),
    ],
)
def test_a_session_chart_of_the_newest_hands_starts_from_the_games_before_them(
    owner, monkeypatch, chart_hands, first, drawn
):
    club, user = owner
    session = make_session(club, user, variant="biaofen", options={"round_hands": 2})
    # Two rounds of two hands as in the test above, each round 27, −9, −9, −9: the session ends 54, −18, −18, −18.
    record_hands(session, user, ROUND_OF_TWO * 2)
    monkeypatch.setattr(table, "CHART_HANDS", chart_hands)
    view = selectors.table_view(session=session)
    chart = view_chart(view)
    assert (chart.first, chart.last, chart.hands) == (first, 4, drawn)
    assert [series.last for series in chart.series] == [54, -18, -18, -18]
    # The replay's results document, cut the same way, draws the same chart.
    replayed = records._replayed_record(session=session, window=records.hand_window(count=4), lang="zh-Hans")
    source = table.chart_window(replayed.results, first=first, per_game=False)
    assert table_chart(target=None, results=source, sides=view.sides) == chart


def test_a_pot_chart_of_the_newest_hands_draws_them_from_the_left_edge(owner, monkeypatch):
    club, user = owner
    session = make_session(club, user, options={"target": 300})
    record_hands(session, user, BENXI)
    monkeypatch.setattr(table, "CHART_HANDS", 2)
    chart = view_chart(selectors.table_view(session=session))
    # Hands 2 and 3 of one 盘: no point for "before hand 1", hand 2 at the left edge, hand 3 at the right.
    assert (chart.first, chart.last, chart.hands) == (2, 3, 2)
    assert [s.last for s in chart.series] == [100, 130]  # the same totals as the whole chart above
    for series in chart.series:
        (points,) = series.segments
        xs = [float(point.split(",")[0]) for point in points.split()]
        assert xs == [chart.left, chart.right]


def test_the_table_page_says_when_its_chart_holds_the_newest_hands_only(owner, client, monkeypatch):
    club, user = owner
    session = make_session(club, user, variant="biaofen", options={"round_hands": 2})
    record_hands(session, user, ROUND_OF_TWO * 2)
    client.force_login(user)
    url = reverse("table", kwargs={"slug": club.slug, "session_id": session.pk})
    client.cookies["django_language"] = "en"
    assert "The newest hands only" not in client.get(url).content.decode()
    monkeypatch.setattr(table, "CHART_HANDS", 2)
    page = client.get(url).content.decode()
    assert "The newest hands only: 2 counted hands, #3 to #4." in page
    assert "over the newest 2 counted hands, #3 to #4" in page
