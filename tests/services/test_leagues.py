"""Leagues: a club's series of events, its table the sum (or the best N) of each player's event totals, in one
unit; the refusals change nothing; the table reads a fixed number of queries whatever the events."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied

from settlement import services
from settlement.ledger import LedgerError
from settlement.models import Change, Event, League, Role
from settlement.selectors.leagues import league_standings
from tests.factories import make_club, make_member

pytestmark = pytest.mark.django_db

# Three evenings; each player's event total is the director's awards (+) and penalties (-) alone (no hands):
#        E1   E2   E3  | sum | best 2 of 3 (counted)
#   A   +10   +2   -4  |   8 | 12 (E1, E2)
#   B    +5   +8   +1  |  14 | 13 (E1, E2)
#   C    -3   +6   +9  |  12 | 15 (E2, E3)
#   D     0   -1    -  |  -1 | -1 (E1, E2)
#   E     -    -    0  |   0 |  0 (E3)
RESULTS = [
    {"A": 10, "B": 5, "C": -3, "D": 0},
    {"A": 2, "B": 8, "C": 6, "D": -1},
    {"A": -4, "B": 1, "C": 9, "E": 0},
]


@pytest.fixture
def club():
    return make_club()


@pytest.fixture
def owner(club):
    return make_member(club)


def _evening(club, owner, day, results, variant="baifen.benxi", **fields):
    event = services.event_create(
        club=club,
        user=owner,
        name=f"晚{day}",
        variant=variant,
        date=datetime.date(2026, 12, day),
        players=list(results),
        **fields,
    )
    services.round_draw(event=event, user=owner, draw="random", seed=day)
    players = {ep.player.name: ep.player for ep in event.players.select_related("player")}
    for name, amount in results.items():
        if amount:
            kind = "award" if amount > 0 else "penalty"
            services.adjustment_add(
                event=event, user=owner, player=players[name], kind=kind, amount=abs(amount), reason="x"
            )
    return event


def _season(club, owner, **fields):
    events = [_evening(club, owner, day, results) for day, results in zip((4, 11, 18), RESULTS, strict=True)]
    return services.league_create(club=club, user=owner, name="冬季联赛", events=events, **fields), events


def _table(league):
    return [(row.player.name, row.total, row.rank) for row in league_standings(league=league).rows]


def test_a_sum_league_adds_each_player_s_event_totals(club, owner):
    league, _ = _season(club, owner)
    assert _table(league) == [("B", 14, 1), ("C", 12, 2), ("A", 8, 3), ("E", 0, 4), ("D", -1, 5)]
    assert league.unit == "分"


def test_a_best_n_league_adds_each_player_s_best_n_and_says_which_counted(club, owner):
    league, events = _season(club, owner, ranking="best", best_n=2)
    standings = league_standings(league=league)
    assert [(row.player.name, row.total, row.rank) for row in standings.rows] == [
        ("C", 15, 1),
        ("B", 13, 2),
        ("A", 12, 3),
        ("E", 0, 4),
        ("D", -1, 5),
    ]
    counted = {row.player.name: [r.event.pk for r in row.results if r.counted] for row in standings.rows}
    e1, e2, e3 = (e.pk for e in events)
    assert counted == {"A": [e1, e2], "B": [e1, e2], "C": [e2, e3], "D": [e1, e2], "E": [e3]}
    history = {row.player.name: [(r.event.pk, r.total) for r in row.results] for row in standings.rows}
    assert history["A"] == [(e1, 10), (e2, 2), (e3, -4)]
    assert "2" in standings.rule_short and "3" in standings.rule_short


def test_equal_totals_are_broken_by_the_best_single_event_then_share_a_rank(club, owner):
    # P: 6 + 0 = 6 (best 6); Q: 3 + 3 = 6 (best 3); R: 3 + 3 = 6 (best 3): P first, Q and R share second.
    events = [
        _evening(club, owner, 4, {"P": 6, "Q": 3, "R": 3, "S": -9}),
        _evening(club, owner, 11, {"P": 0, "Q": 3, "R": 3, "S": -9}),
    ]
    league = services.league_create(club=club, user=owner, name="春", events=events)
    assert _table(league) == [("P", 6, 1), ("Q", 6, 2), ("R", 6, 2), ("S", -18, 4)]


def test_an_event_of_another_unit_is_refused_naming_the_field(club, owner):
    league = services.league_create(club=club, user=owner, name="注联赛", unit="注")
    event = _evening(club, owner, 4, {"A": 0, "B": 0, "C": 0, "D": 0})
    with pytest.raises(LedgerError) as refused:
        services.league_event_add(league=league, user=owner, event=event)
    assert (refused.value.code, refused.value.field) == ("league.unit", "event")
    assert "注" in refused.value.message("en") and "分" in refused.value.message("en")
    event.refresh_from_db()
    assert event.league_id is None
    with pytest.raises(LedgerError) as refused:
        services.event_create(club=club, user=owner, name="晚", variant="baifen.benxi", league=league)
    assert (refused.value.code, refused.value.field) == ("league.unit", "league")
    assert not Event.objects.filter(name="晚").exists()


def test_an_event_ranked_by_placement_points_or_in_another_league_is_refused(club, owner):
    league = services.league_create(club=club, user=owner, name="甲", unit="分")
    other = services.league_create(club=club, user=owner, name="乙", unit="分")
    placed = services.event_create(club=club, user=owner, name="名次", variant="baifen.benxi", ranking="placement")
    with pytest.raises(LedgerError) as refused:
        services.league_event_add(league=league, user=owner, event=placed)
    assert (refused.value.code, refused.value.field) == ("league.event_ranking", "event")
    event = services.event_create(club=club, user=owner, name="晚", variant="baifen.benxi", league=other)
    with pytest.raises(LedgerError) as refused:
        services.league_event_add(league=league, user=owner, event=event)
    assert (refused.value.code, refused.value.field) == ("league.event_taken", "event")
    # Added again to its own league, it stays as it is.
    assert services.league_event_add(league=other, user=owner, event=event).league_id == other.pk


def test_another_club_s_event_is_refused(club, owner):
    elsewhere = make_club()
    stranger = services.event_create(club=elsewhere, user=make_member(elsewhere), name="别处", variant="baifen.benxi")
    league = services.league_create(club=club, user=owner, name="甲", unit="分")
    with pytest.raises(LedgerError) as refused:
        services.league_event_add(league=league, user=owner, event=stranger)
    assert (refused.value.code, refused.value.field) == ("league.event_not_found", "event")


@pytest.mark.parametrize(
    ("fields", "code", "field"),
    [
        ({"name": " ", "unit": "分"}, "league.name_required", "name"),
        ({"name": "x", "unit": "元"}, "event.choice", "unit"),
        ({"name": "x"}, "event.choice", "unit"),
        ({"name": "x", "unit": "分", "ranking": "median"}, "event.choice", "ranking"),
        ({"name": "x", "unit": "分", "ranking": "best"}, "league.best_n", "best_n"),
        ({"name": "x", "unit": "分", "ranking": "best", "best_n": 0}, "league.best_n", "best_n"),
        ({"name": "x", "unit": "分", "ranking": "sum", "best_n": 2}, "league.best_n", "best_n"),
    ],
)
def test_a_bad_league_is_refused_naming_the_field(club, owner, fields, code, field):
    with pytest.raises(LedgerError) as refused:
        services.league_create(club=club, user=owner, **fields)
    assert (refused.value.code, refused.value.field) == (code, field)
    assert not League.objects.exists()


@pytest.mark.parametrize("role", [Role.VIEWER])
def test_only_a_director_creates_a_league_or_adds_an_event(club, owner, role):
    viewer = make_member(club, role)
    with pytest.raises(PermissionDenied):
        services.league_create(club=club, user=viewer, name="x", unit="分")
    league = services.league_create(club=club, user=owner, name="x", unit="分")
    event = services.event_create(club=club, user=owner, name="晚", variant="baifen.benxi")
    with pytest.raises(PermissionDenied):
        services.league_event_add(league=league, user=viewer, event=event)
    scorekeeper = make_member(club, Role.SCOREKEEPER)
    assert services.league_event_add(league=league, user=scorekeeper, event=event).league_id == league.pk


def test_a_keyed_create_is_made_once_and_another_body_under_the_key_is_refused(club, owner):
    first = services.league_create(club=club, user=owner, name="冬", unit="分", client_key="k1")
    again = services.league_create(club=club, user=owner, name="冬", unit="分", client_key="k1")
    assert again.pk == first.pk and League.objects.count() == 1
    with pytest.raises(LedgerError) as refused:
        services.league_create(club=club, user=owner, name="夏", unit="分", client_key="k1")
    assert refused.value.code == "client_key.reused"
    assert League.objects.count() == 1


def test_the_writes_append_to_the_change_feed(club, owner):
    event = services.event_create(club=club, user=owner, name="晚", variant="baifen.benxi")
    league = services.league_create(club=club, user=owner, name="冬", events=[event])
    kinds = list(
        Change.objects.filter(club=club, kind__startswith="league.", object_id=league.pk).values_list("kind", "number")
    )
    assert kinds == [("league.created", None), ("league.event_added", event.pk)]


@pytest.mark.parametrize("count", [1, 3])
def test_the_league_table_reads_eight_queries_whatever_the_events(club, owner, count, django_assert_num_queries):
    events = [
        _evening(club, owner, day, results) for day, results in zip((4, 11, 18)[:count], RESULTS[:count], strict=True)
    ]
    league = services.league_create(club=club, user=owner, name="冬", events=events)
    with django_assert_num_queries(8):
        standings = league_standings(league=league)
    assert len(standings.events) == count


# --- an event taken out of a league ---


def test_an_event_taken_out_no_longer_counts_in_the_table(club, owner):
    league, events = _season(club, owner)
    services.league_event_remove(league=league, user=owner, event=events[2])
    # RESULTS without E3: A 10 + 2, B 5 + 8, C −3 + 6, D 0 − 1; E played E3 only and leaves the table.
    assert _table(league) == [("B", 13, 1), ("A", 12, 2), ("C", 3, 3), ("D", -1, 4)]
    events[2].refresh_from_db()
    assert events[2].league_id is None
    # Free again: another league may take it.
    other = services.league_create(club=club, user=owner, name="春季联赛", unit="分")
    assert services.league_event_add(league=other, user=owner, event=events[2]).league_id == other.pk


def test_taking_out_an_event_the_league_does_not_count_is_refused_naming_event(club, owner):
    league, events = _season(club, owner)
    other = services.league_create(club=club, user=owner, name="春季联赛", unit="分")
    free = services.event_create(club=club, user=owner, name="空", variant="baifen.benxi")
    changes = Change.objects.count()
    for event in (free, events[0]):
        with pytest.raises(LedgerError) as refused:
            services.league_event_remove(league=other, user=owner, event=event)
        assert (refused.value.code, refused.value.field) == ("league.event_not_in", "event")
        assert "does not count" in refused.value.message("en")
    assert Change.objects.count() == changes
    events[0].refresh_from_db()
    assert events[0].league_id == league.pk


def test_taking_an_event_out_notes_the_feed(club, owner):
    league, events = _season(club, owner)
    services.league_event_remove(league=league, user=owner, event=events[0])
    last = Change.objects.filter(club=club).order_by("pk").last()
    assert (last.kind, last.object_id, last.number) == ("league.event_removed", league.pk, events[0].pk)


@pytest.mark.parametrize("role", [Role.VIEWER])
def test_only_a_director_takes_an_event_out(club, owner, role):
    league, events = _season(club, owner)
    with pytest.raises(PermissionDenied):
        services.league_event_remove(league=league, user=make_member(club, role), event=events[0])
    events[0].refresh_from_db()
    assert events[0].league_id == league.pk
