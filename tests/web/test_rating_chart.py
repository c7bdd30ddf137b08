"""The leaderboard's rating graph as geometry (`presentation.chart.rating_chart`), worked by hand.

A plot 256 wide (x 52 to 308) and 150 high (y 160 up to 10). 甲 rated 0.0 and 2.0 on 11-01, 4.0 on 11-03;
乙 −2.0 on 11-03. Ratings −2 to 4: y = 160 − 150 × (r + 2) / 6, so 4 → 10, 2 → 60, 0 → 110, −2 → 160.
By games: x = 52 + 256 × (played − 1) / 2. By date: 11-01 at 52, 11-03 at 308, a day's last rating only.
"""

from __future__ import annotations

import datetime

import pytest

from settlement.models import Player
from settlement.presentation.chart import BY_DATE, BY_GAMES, RATING_POINTS, rating_chart
from settlement.selectors.ratings import RatingStep

NOV_1, NOV_3 = datetime.date(2026, 11, 1), datetime.date(2026, 11, 3)
JIA, YI = Player(pk=1, name="甲"), Player(pk=2, name="乙")
STEPS = {
    1: (
        RatingStep(played=1, date=NOV_1, ordinal=0.0),
        RatingStep(played=2, date=NOV_1, ordinal=2.0),
        RatingStep(played=3, date=NOV_3, ordinal=4.0),
    ),
    2: (RatingStep(played=1, date=NOV_3, ordinal=-2.0),),
}


@pytest.mark.parametrize(
    ("by", "lines", "ends"),
    [
        (BY_GAMES, ["52.0,110.0 180.0,60.0 308.0,10.0", "52.0,160.0"], ("1", "3")),
        (BY_DATE, ["52.0,60.0 308.0,10.0", "308.0,160.0"], ("2026-11-01", "2026-11-03")),
    ],
)
def test_a_line_a_player_across_the_games_played_or_the_dates(by, lines, ends):
    chart = rating_chart(players=[JIA, YI], steps=STEPS, by=by)
    assert [s.points for s in chart.series] == lines
    assert [(s.player.name, s.last, s.played) for s in chart.series] == [("甲", "4.0", 3), ("乙", "−2.0", 1)]
    assert (chart.first_x, chart.last_x) == ends
    assert [(t.y, t.label) for t in chart.ticks] == [(10.0, "4.0"), (110.0, "0.0"), (160.0, "−2.0")]
    assert chart.zero_y == 110.0


def test_nothing_rated_draws_no_graph():
    assert rating_chart(players=[JIA], steps={1: ()}, by=BY_GAMES) is None


def test_a_long_history_is_drawn_from_evenly_spaced_outcomes_and_keeps_the_last():
    long = tuple(RatingStep(played=n, date=NOV_1, ordinal=float(n)) for n in range(1, 1001))
    chart = rating_chart(players=[JIA], steps={1: long}, by=BY_GAMES)
    points = chart.series[0].points.split()
    assert len(points) == RATING_POINTS
    assert points[0] == "52.0,160.0" and points[-1] == "308.0,10.0"  # outcome 1 (rating 1) and 1,000 (1,000)
    assert chart.series[0].played == 1000
