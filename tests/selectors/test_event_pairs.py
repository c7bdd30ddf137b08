"""A pairs event's standings per pair, worked by hand from the players' rows."""

from __future__ import annotations

from settlement.models import Event, Player
from settlement.selectors.events import EventStandingRow, EventStandings, event_pair_standings


def _row(pk, name, total, tables_total):
    return EventStandingRow(
        player=Player(pk=pk, name=name),
        rank=0,
        total=total,
        tables_total=tables_total,
        byes=0,
        bye_total=0,
        adjustments_total=total - tables_total,
        seats=(),
        adjustments=(),
    )


def test_a_pair_s_total_is_its_two_players_totals_and_table_totals_break_ties():
    event = Event(variant="baifen.benxi", table_size=4, pairs=[[1, 2], [3, 4], [5, 6]])
    rows = (
        _row(1, "甲", 30, 30),
        _row(2, "乙", -10, -10),  # 甲乙: 20, tables 20
        _row(3, "丙", 25, 30),  # a penalty of 5
        _row(4, "丁", -5, -5),  # 丙丁: 20, tables 25: ahead of 甲乙 on the tie-break
        _row(5, "戊", -20, -20),
        _row(6, "己", -20, -20),  # 戊己: −40
    )
    standings = EventStandings(event=event, rule="", unit="分", rounds=1, rows=rows)
    ranked = [
        ([p.name for p in row.players], row.rank, row.total, row.tables_total)
        for row in event_pair_standings(standings=standings)
    ]
    assert ranked == [(["丙", "丁"], 1, 20, 25), (["甲", "乙"], 2, 20, 20), (["戊", "己"], 3, -40, -40)]


def test_pairs_equal_on_total_and_tables_share_a_rank():
    event = Event(variant="baifen.benxi", table_size=4, pairs=[[1, 2], [3, 4]])
    rows = (_row(1, "甲", 5, 5), _row(2, "乙", -5, -5), _row(3, "丙", 0, 0), _row(4, "丁", 0, 0))
    standings = EventStandings(event=event, rule="", unit="分", rounds=1, rows=rows)
    assert [row.rank for row in event_pair_standings(standings=standings)] == [1, 1]


def test_an_event_without_pairs_has_no_pair_rows():
    event = Event(variant="baifen.benxi", table_size=4)
    standings = EventStandings(event=event, rule="", unit="分", rounds=0, rows=(_row(1, "甲", 0, 0),))
    assert event_pair_standings(standings=standings) == ()
