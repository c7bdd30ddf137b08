"""Ratings (`ledger/ratings.py`): figures worked by hand from the Weng-Lin formulas, and what a write changes."""

from __future__ import annotations

import datetime
import io
import math

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import given
from hypothesis import strategies as st

from settlement import services
from settlement.ledger import ratings
from settlement.ledger.ratings import MU, SIGMA, Outcome
from settlement.models import Club, Player, RatingRow, Session
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_session, record_hands

# Bradley-Terry, full pairing (Weng-Lin 2011, algorithm 1; with two sides the same update as their Plackett-Luce,
# algorithm 4) with openskill's defaults: μ = 25, σ = 25/3, β = 25/6, τ = 25/300.
# Before an outcome each σ² grows by τ²: (25/3)² + (1/12)² = 69.444 444 + 0.006 944 = 69.451 389.
SIGMA2 = 69.451389


def test_one_against_one_worked_by_hand():
    # Two fresh players, A beats B. c² = Σ over teams (σ² + β²) = 2 × (69.451 389 + 17.361 111) = 173.625,
    # c = 13.176 68.
    # c_AB = √(σ_A² + σ_B² + 2β²) is that c. Equal μ: P(A beats B) = e^(μ/c) / (e^(μ/c) + e^(μ/c)) = 1/2.
    # Ω_A = σ²/c × (1 − 1/2) = 69.451 389 / 13.176 68 × 0.5 = 2.635 389 → μ_A = 27.635 389, μ_B = 22.364 611.
    # δ = γ σ²/c² × p(1 − p) with γ = σ/c = 8.333 750 / 13.176 68 = 0.632 467, σ²/c² = 0.4: δ = 0.632 467 × 0.4 × 0.25
    # = 0.063 247; σ'² = σ² (1 − δ) = 69.451 389 × 0.936 753 = 65.058 82 → σ' = 8.065 90 for both.
    after = ratings.rate({}, Outcome(session_id=0, game=1, sides=((1,), (2,)), ranks=(1, 2)))
    assert after[1] == pytest.approx((27.635389, 8.065901), abs=1e-5)
    assert after[2] == pytest.approx((22.364611, 8.065901), abs=1e-5)


# Two against two, all fresh (the demo's first finished 盘): a team's σ² is the sum of its players', 2 × 69.451 389
# = 138.902 778; c² = 2 × (138.902 778 + 17.361 111) = 312.527 778, c = 17.678 45, P = 1/2 again.
# Team Ω = 138.902 778 / 17.678 45 × 0.5 = 3.928 622; each player takes the share σ_i²/σ_team² = 1/2: ±1.964 311
# → μ 26.964 311 (winners), 23.035 689 (losers) — the library gives 26.964 295: the digits above are rounded.
# δ = γ × σ_team²/c² × 1/4 with γ = √138.902 778 / 17.678 45 = 0.666 671, σ_team²/c² = 0.444 457: δ = 0.074 076;
# a player's σ'² = σ_i² (1 − δ × 1/2) = 69.451 389 × 0.962 962 = 66.879 05 → σ' = 8.177 96.
WIN_2V2 = (26.964295, 8.177963)
LOSE_2V2 = (23.035705, 8.177963)


@pytest.fixture
def demo(db):
    call_command("demo_load", verbosity=0)
    return Club.objects.get(slug="demo")


def _rows(club, family):
    return list(
        RatingRow.objects.filter(club=club, family=family)
        .order_by("order", "player__name")
        .values_list("order", "player__name", "game", "rank", "mu", "sigma", "ordinal")
    )


def test_the_demo_clubs_first_game_is_worked_by_hand(demo):
    # 2026-11-07 本溪: 小李 (seat 1) and 老赵 (seat 3) win 盘 1 at hand 4 (255 : −165, rules/baifen.md's target 205).
    first = {name: (mu, sigma) for order, name, *_, mu, sigma, _ordinal in _rows(demo, "baifen") if order == 1}
    assert first.keys() == {"老王", "小李", "张姐", "老赵"}
    for name in ("小李", "老赵"):
        assert first[name] == pytest.approx(WIN_2V2, abs=1e-5)
    for name in ("老王", "张姐"):
        assert first[name] == pytest.approx(LOSE_2V2, abs=1e-5)


def test_the_demo_clubs_ratings_follow_each_outcome(demo):
    rows = _rows(demo, "baifen")
    # 2026-11-07: three finished 盘 (winners 1+3, 0+2, 1+3; the fourth is unfinished). Every row's ordinal is
    # μ − 3σ, and every step shrinks σ below √(σ_before² + τ²).
    last: dict[str, tuple[float, float]] = {}
    for _order, name, _game, rank, mu, sigma, ordinal in rows:
        assert ordinal == pytest.approx(mu - 3 * sigma)
        before_mu, before_sigma = last.get(name, (MU, SIGMA))
        assert sigma < math.sqrt(before_sigma**2 + (25 / 300) ** 2)
        assert (mu > before_mu) if rank == 1 else (mu < before_mu)
        last[name] = (mu, sigma)
    assert [row[2] for row in rows][::4] == [1, 2, 3]
    assert [row[3] for row in rows if row[1] == "小李"] == [1, 2, 1]


@pytest.mark.parametrize(("order", "date", "seats"), [(1, "2026-11-14", 4), (2, "2026-11-30", 6)])
def test_a_closed_friend_card_session_is_one_ranking_by_total(demo, order, date, seats):
    # The demo's two classic sessions, four players and six: each is one outcome, everyone on their own.
    rows = [row for row in _rows(demo, "baifen.classic") if row[0] == order]
    session = Session.objects.get(club=demo, variant="baifen.classic", date=date)
    totals = {seat.player.name: seat.total for seat in services_seats(session)}
    assert len(totals) == seats and {row[1] for row in rows} == set(totals)
    ranks = {row[1]: row[3] for row in rows}
    before = {name: mu for o, name, *_, mu, _sigma, _ordinal in _rows(demo, "baifen.classic") if o < order}
    gained = {name: row[4] - before.get(name, MU) for name in totals for row in rows if row[1] == name}
    for a in totals:
        for b in totals:
            if totals[a] > totals[b]:
                assert ranks[a] < ranks[b]
            if totals[a] == totals[b]:
                assert ranks[a] == ranks[b]
    # the session's winner gains and its loser loses, whatever they stood at before
    assert gained[max(totals, key=totals.__getitem__)] > 0 > gained[min(totals, key=totals.__getitem__)]


def services_seats(session):
    from settlement import selectors

    (summary,) = [s for s in selectors.club_sessions(club=session.club) if s.session.pk == session.pk]
    return summary.seats


def test_the_demo_rates_what_has_an_outcome_and_nothing_else(demo):
    # The level games' demo sessions (打滚子, 红星五, 升级) and the open 本溪 300 end no game yet (`manage.py settle`
    # shows game 1 unfinished in each): no rating. 本溪 11-07 finished three 盘; the closed friend-card and
    # individual sessions (classic 11-14 and the six-player 11-30, 打二鬼 11-15, 标分 11-16) are one ranking each.
    families = dict.fromkeys(RatingRow.objects.filter(club=demo).values_list("family", flat=True).order_by("family"))
    assert list(families) == ["baifen", "baifen.classic", "biaofen", "erguai"]
    assert RatingRow.objects.filter(club=demo, family="baifen").values("order").distinct().count() == 3
    for family, orders in (("baifen.classic", {1, 2}), ("biaofen", {1}), ("erguai", {1})):
        assert set(RatingRow.objects.filter(club=demo, family=family).values_list("order", flat=True)) == orders
    assert RatingRow.objects.filter(club=demo, family="baifen.classic", order=2).count() == 6


def _snapshot(club):
    return {
        family: _rows(club, family) for family in RatingRow.objects.filter(club=club).values_list("family", flat=True)
    }


def test_an_incremental_rebuild_equals_a_rebuild_from_the_start(demo):
    before = _snapshot(demo)
    ratings.ratings_rebuild_club(club=demo)
    assert _snapshot(demo) == before


@pytest.fixture
def club_with_history(db):
    club = make_club()
    user = make_member(club)
    early = make_session(club, user, date="2026-11-01")
    record_hands(early, user, BENXI_EXAMPLE)  # B (乙·丁) wins 盘 1, A (甲·丙) 盘 2
    late = make_session(club, user, date="2026-11-08")
    record_hands(late, user, BENXI_EXAMPLE)
    other = make_session(club, user, variant="erguai", date="2026-11-02")
    record_hands(other, user, [{"declarer": 0, "bid": 90, "partner": 2, "captured": 45}])
    services.session_close(session=other, user=user)
    return club, user, early, late


def _ids_and_figures(club, session):
    return list(
        RatingRow.objects.filter(club=club, session=session)
        .order_by("order", "player")
        .values_list("id", "mu", "sigma")
    )


def test_a_correction_changes_the_ratings_that_depend_on_it_and_nothing_else(club_with_history):
    club, user, early, late = club_with_history
    erguai = _rows(club, "erguai")
    early_rows = _ids_and_figures(club, early)
    late_before = _ids_and_figures(club, late)
    # The later session's hand 4 with 乙·丁 capturing nothing: 盘 1 no longer ends there for them the same way.
    services.hand_correct(
        session=late, user=user, number=1, hand_input=BENXI_EXAMPLE[0] | {"captured": 100}, reason="r"
    )
    assert _ids_and_figures(club, early) == early_rows  # earlier: the very same rows, untouched
    assert _rows(club, "erguai") == erguai  # another family: unchanged
    assert _ids_and_figures(club, late) != late_before
    before = _snapshot(club)
    ratings.ratings_rebuild_club(club=club)
    assert _snapshot(club) == before


def test_a_void_in_an_earlier_session_moves_the_later_sessions_ratings(club_with_history):
    club, user, early, late = club_with_history
    erguai = _rows(club, "erguai")
    late_figures = [row[1:] for row in _ids_and_figures(club, late)]
    services.hand_void(session=early, user=user, number=5, reason="entered twice")  # 盘 2 no longer finishes
    assert RatingRow.objects.filter(session=early).values("order").distinct().count() == 1
    assert [row[1:] for row in _ids_and_figures(club, late)] != late_figures
    assert _rows(club, "erguai") == erguai


def test_a_friend_card_session_counts_once_closed_and_not_after_reopening(club_with_history):
    club, user, *_ = club_with_history
    session = Session.objects.get(club=club, variant="erguai")
    assert RatingRow.objects.filter(session=session).count() == 4
    services.session_reopen(session=session, user=user)
    assert RatingRow.objects.filter(session=session).count() == 0
    services.session_close(session=session, user=user)
    assert RatingRow.objects.filter(session=session).count() == 4


@given(
    st.lists(st.tuples(st.integers(0, 1), st.integers(-2, 2)), min_size=1, max_size=6),
)
def test_team_outcomes_move_winners_up_and_losers_down(games):
    # Pure: no database. Random 2-against-2 outcomes among 4 players (side 0 wins, side 1 wins, or a draw).
    current: dict[int, tuple[float, float]] = {}
    for winner, shift in games:
        sides = ((1, 3), (2, 4)) if shift >= 0 else ((1, 2), (3, 4))
        ranks = (1, 1) if shift == 0 else ((1, 2) if winner == 0 else (2, 1))
        after = ratings.rate(current, Outcome(session_id=1, game=1, sides=sides, ranks=ranks))
        for side, rank in zip(sides, ranks, strict=True):
            for player in side:
                mu, sigma = current.get(player, (MU, SIGMA))
                if ranks[0] != ranks[1]:
                    assert (after[player][0] > mu) == (rank == 1)
                assert after[player][1] < math.sqrt(sigma**2 + (25 / 300) ** 2)
        current.update(after)


def test_the_leaderboard_ratings_are_stored_as_floats_that_round_trip(demo):
    row = RatingRow.objects.filter(club=demo).order_by("order").first()
    again = RatingRow.objects.get(pk=row.pk)
    assert isinstance(again.mu, float) and again.mu == row.mu
    assert Player.objects.filter(club=demo, rating_rows__isnull=False).exists()
    assert datetime.date(2026, 11, 7) == row.session.date


def _row(session, game, seat, player, *, finished=True, won=False, total=0):
    return {
        "session_id": session,
        "game": game,
        "seat": seat,
        "player_id": player,
        "finished": finished,
        "won": won,
        "total": total,
    }


@pytest.mark.parametrize(
    ("winners", "ranks"),
    [
        ((1, 3), (2, 1)),  # seats 1 + 3 won: the second side first
        ((0, 2), (1, 2)),
        ((), (1, 1)),  # a finished game with no winner side is a draw
    ],
)
def test_a_team_game_is_one_side_against_the_other(winners, ranks):
    rows = [_row(7, 1, seat, 10 + seat, won=seat in winners) for seat in range(4)]
    rows += [_row(7, 2, seat, 10 + seat, finished=False) for seat in range(4)]  # unfinished: no outcome
    (outcome,) = ratings.outcomes(family=ratings.FAMILIES["baifen"], sessions=[{"id": 7, "status": "open"}], rows=rows)
    assert (outcome.game, outcome.sides, outcome.ranks) == (1, ((10, 12), (11, 13)), ranks)


@pytest.mark.parametrize(
    ("totals", "ranks"),
    [
        ((30, 10, 10, -50), (1, 2, 2, 4)),  # competition ranking: 1 + how many did better
        ((0, 0, 0, 0), (1, 1, 1, 1)),
        ((-5, 5, -15, 15), (3, 2, 4, 1)),
    ],
)
def test_a_friend_card_session_ranks_players_by_their_total_over_its_games(totals, ranks):
    # Two games; the session total is their sum: game 1 holds the totals, game 2 adds 0.
    rows = [_row(3, 1, seat, 20 + seat, total=total) for seat, total in enumerate(totals)]
    rows += [_row(3, 2, seat, 20 + seat, finished=False) for seat in range(4)]
    family = ratings.FAMILIES["erguai"]
    (outcome,) = ratings.outcomes(family=family, sessions=[{"id": 3, "status": "closed"}], rows=rows)
    assert (outcome.game, outcome.sides, outcome.ranks) == (0, ((20,), (21,), (22,), (23,)), ranks)
    assert ratings.outcomes(family=family, sessions=[{"id": 3, "status": "open"}], rows=rows) == []


def test_players_tied_in_a_session_get_the_same_rating():
    # Bradley-Terry, full pairing: two players tied first move up alike, and above the third.
    outcome = Outcome(session_id=1, game=0, sides=((1,), (2,), (3,), (4,)), ranks=(1, 1, 3, 4))
    after = ratings.rate({}, outcome)
    assert after[1] == after[2]
    assert after[1][0] > after[3][0] > after[4][0]


def test_recording_a_hand_rates_only_when_it_finishes_a_game(db):
    # BENXI_EXAMPLE: hands 1–3 leave 盘 1 in progress, hand 4 ends it (乙·丁 reach 230 ≥ 205).
    club = make_club()
    user = make_member(club)
    session = make_session(club, user)
    record_hands(session, user, BENXI_EXAMPLE[:2])
    assert not RatingRow.objects.filter(session=session).exists()
    with CaptureQueriesContext(connection) as mid_game:
        services.hand_record(session=session, user=user, hand_input=BENXI_EXAMPLE[2])
    assert not any("settlement_ratingrow" in query["sql"] for query in mid_game.captured_queries)
    services.hand_record(session=session, user=user, hand_input=BENXI_EXAMPLE[3])
    ranks = dict(RatingRow.objects.filter(session=session).values_list("player__name", "rank"))
    assert ranks == {"甲": 2, "乙": 1, "丙": 2, "丁": 1}


def test_ledger_verify_finds_a_changed_rating_and_repair_rebuilds_it(club_with_history):
    from django.core.management.base import CommandError

    club, *_ = club_with_history
    row = RatingRow.objects.filter(club=club).order_by("order").first()
    RatingRow.objects.filter(pk=row.pk).update(mu=99.0)  # a derived row, not the log: an update passes
    with pytest.raises(CommandError, match="ratings of 1 club"):
        call_command("ledger_verify", stdout=io.StringIO())
    out = io.StringIO()
    call_command("ledger_verify", "--repair", stdout=out)
    assert f"#{row.order} player {row.player_id} mu: stored 99.0" in out.getvalue()
    assert ratings.ratings_verify(club=club) == []
    call_command("ledger_verify", stdout=io.StringIO())


@pytest.mark.parametrize(
    ("later_players", "later_rows_kept"),
    [
        (["戊", "己", "庚", "辛"], True),  # another table: its rows move along, their figures kept
        (["戊", "己", "庚", "甲"], False),  # 甲 sits at both: the later table is rated again
    ],
)
def test_a_game_finished_before_a_later_session_rates_that_session_again_only_when_it_seats_a_player_of_the_game(
    db, later_players, later_rows_kept
):
    club = make_club()
    user = make_member(club)
    tonight = make_session(club, user, date=datetime.date(2026, 1, 1))
    record_hands(tonight, user, BENXI_EXAMPLE[:4])  # 盘 1: outcome 1
    later = make_session(club, user, date=datetime.date(2026, 1, 1), players=later_players)
    record_hands(later, user, BENXI_EXAMPLE[:4] * 2)  # its 盘 1 and 2: outcomes 2 and 3
    stored = set(RatingRow.objects.filter(session=later).values_list("pk", flat=True))
    record_hands(tonight, user, BENXI_EXAMPLE[:4])  # tonight's 盘 2 becomes outcome 2, the later table's 3 and 4
    assert (set(RatingRow.objects.filter(session=later).values_list("pk", flat=True)) == stored) is later_rows_kept
    assert list(
        RatingRow.objects.filter(club=club).order_by("order").values_list("order", "session_id", "game").distinct()
    ) == [(1, tonight.pk, 1), (2, tonight.pk, 2), (3, later.pk, 1), (4, later.pk, 2)]
    assert ratings.ratings_verify(club=club) == []


@pytest.mark.parametrize("later_session", [False, True])
def test_games_finished_by_appended_hands_are_rated_as_a_rebuild_from_the_start_rates_them(db, later_session):
    # Tonight's session rates only its newly finished game; with a later session of the family the later one is
    # rated again after it. Either way the stored rows are what a computation from the start gives (ratings_verify).
    club = make_club()
    user = make_member(club)
    tonight = make_session(club, user, date=datetime.date(2026, 1, 1))
    if later_session:
        later = make_session(club, user, date=datetime.date(2026, 1, 2))
        record_hands(later, user, BENXI_EXAMPLE[:4])
    record_hands(tonight, user, BENXI_EXAMPLE[:4] * 3)  # hands 4, 8, 12 each end a 盘
    assert RatingRow.objects.filter(session=tonight).values("game").distinct().count() == 3
    assert ratings.ratings_verify(club=club) == []
