"""Tables of two sizes in one round: 标分 with seven players is a table of four and one of three, no bye, each
session with its own size's defaults; refused for a variant with one size and with placement points."""

from __future__ import annotations

import pytest

from settlement import services
from settlement.ledger import LedgerError
from settlement.rules.draws import Seating
from settlement.rules.options import options_dump, options_resolve
from settlement.rules.registry import VARIANTS
from tests.factories import make_club, make_member

pytestmark = pytest.mark.django_db


def _event(variant, count, **fields):
    club = make_club()
    owner = make_member(club)
    event = services.event_create(
        club=club, user=owner, name="晚", variant=variant, players=[f"P{i}" for i in range(count)], **fields
    )
    return owner, event


@pytest.mark.parametrize(
    ("variant", "count", "mixed", "sizes", "out"),
    [
        # 标分 seats 3 or 4: seven at tables of three alone is two tables and a bye; mixed, 4 + 3 and nobody out.
        ("biaofen", 7, False, [3, 3], 1),
        ("biaofen", 7, True, [4, 3], 0),
        # Ten: 4 + 3 + 3 mixed (the fewest tables seating all ten), else 3 + 3 + 3 and a bye.
        ("biaofen", 10, True, [4, 3, 3], 0),
        ("biaofen", 10, False, [3, 3, 3], 1),
        # Classic 打百分 seats 4 or 6: ten is 6 + 4 mixed, 4 + 4 and two byes without.
        ("baifen.classic", 10, True, [6, 4], 0),
        ("baifen.classic", 10, False, [4, 4], 2),
    ],
)
def test_a_round_seats_tables_of_both_sizes_only_when_the_event_says_so(variant, count, mixed, sizes, out):
    owner, event = _event(variant, count, mixed_sizes=mixed)
    drawn = services.round_draw(event=event, user=owner, draw="balanced", seed=3)
    tables = [t.session for t in drawn.tables.order_by("number")]
    assert [t.seats.count() for t in tables] == sizes
    assert len(drawn.sitting_out) == out
    rules = VARIANTS[variant]
    for session in tables:
        size = session.seats.count()
        assert session.options == options_dump(options_resolve(rules.defaults(size), event.options))


def test_a_manual_seating_may_use_either_size_when_mixed():
    owner, event = _event("biaofen", 7, mixed_sizes=True)
    ids = list(event.players.order_by("id").values_list("player_id", flat=True))
    seating = Seating(tables=(tuple(ids[:3]), tuple(ids[3:])))
    drawn = services.round_draw(event=event, user=owner, draw="manual", seating=seating)
    assert [t.session.seats.count() for t in drawn.tables.order_by("number")] == [3, 4]


@pytest.mark.parametrize(
    ("variant", "fields", "code"),
    [
        ("baifen.benxi", {}, "event.mixed_sizes_one_size"),
        ("biaofen", {"ranking": "placement"}, "event.mixed_sizes_placement"),
        ("biaofen", {"mixed_sizes": "yes"}, "value.not_bool"),
    ],
)
def test_tables_of_two_sizes_are_refused_by_name_where_they_cannot_be(variant, fields, code):
    club = make_club()
    owner = make_member(club)
    with pytest.raises(LedgerError) as caught:
        services.event_create(
            club=club,
            user=owner,
            name="晚",
            variant=variant,
            players=["A", "B", "C"],
            **{"mixed_sizes": True, **fields},
        )
    assert caught.value.field == "mixed_sizes"
    assert caught.value.code == code
