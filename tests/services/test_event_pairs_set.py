"""A pairs event's pairs set or changed after check-in (`services.event_pairs_set`): until the first round is drawn,
checked as at creation, every refusal naming `pairs` and changing nothing."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from settlement import services
from settlement.ledger import LedgerError
from settlement.models import Change, Event, Role
from tests.factories import make_club, make_member

pytestmark = pytest.mark.django_db

NAMES = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛"]


@pytest.fixture
def club():
    return make_club()


@pytest.fixture
def owner(club):
    return make_member(club)


def _event(club, owner, names=NAMES, **fields):
    return services.event_create(club=club, user=owner, name="对抗赛", variant="baifen.benxi", players=names, **fields)


def _ids(event):
    return {ep.player.name: ep.player_id for ep in event.players.select_related("player")}


def _named(event):
    """The event's stored pairs, by name, as a set of pairs."""
    event.refresh_from_db()
    names = {v: k for k, v in _ids(event).items()}
    return {frozenset(names[p] for p in pair) for pair in event.pairs}


def _partners(made):
    """Each table's two sides (seats 1 + 3 and 2 + 4), by player id."""
    sides = set()
    for table in made.tables.all():
        seats = list(table.session.seats.order_by("seat").values_list("player_id", flat=True))
        sides |= {frozenset((seats[0], seats[2])), frozenset((seats[1], seats[3]))}
    return sides


def test_pairs_set_after_check_in_sit_as_partners_in_the_draw(club, owner):
    event = _event(club, owner)
    ids = _ids(event)
    # By id and by name, in any order inside a pair.
    pairs = [[ids["乙"], ids["甲"]], ["丙", "丁"], [ids["戊"], "己"], ["辛", "庚"]]
    services.event_pairs_set(event=event, user=owner, pairs=pairs)
    assert _named(event) == {frozenset("甲乙"), frozenset("丙丁"), frozenset("戊己"), frozenset("庚辛")}
    made = services.round_draw(event=event, user=owner, draw="random", seed=3)
    expected = {frozenset((ids[a], ids[b])) for a, b in ("甲乙", "丙丁", "戊己", "庚辛")}
    assert _partners(made) == expected


def test_pairs_named_at_creation_can_change_before_the_first_draw(club, owner):
    event = _event(club, owner, pairs=[["甲", "乙"], ["丙", "丁"], ["戊", "己"], ["庚", "辛"]])
    services.event_pairs_set(event=event, user=owner, pairs=[["甲", "丙"], ["乙", "丁"], ["戊", "庚"], ["己", "辛"]])
    assert _named(event) == {frozenset("甲丙"), frozenset("乙丁"), frozenset("戊庚"), frozenset("己辛")}


def test_a_late_arrival_s_pair_set_lets_the_draw_go_ahead(club, owner):
    """At creation six players in three pairs; two more check in, unpaired: the draw is refused until the pairs
    are set again with them."""
    event = _event(club, owner, names=NAMES[:6], pairs=[["甲", "乙"], ["丙", "丁"], ["戊", "己"]])
    services.event_check_in(event=event, user=owner, players=["庚", "辛"])
    with pytest.raises(LedgerError) as refused:
        services.round_draw(event=event, user=owner, draw="random", seed=1)
    assert refused.value.code == "pairs.unpaired"
    services.event_pairs_set(event=event, user=owner, pairs=[["甲", "乙"], ["丙", "丁"], ["戊", "己"], ["庚", "辛"]])
    made = services.round_draw(event=event, user=owner, draw="random", seed=1)
    assert made.tables.count() == 2 and made.sitting_out == []


def test_a_player_who_left_before_the_first_draw_needs_no_partner(club, owner):
    event = _event(club, owner, names=NAMES[:5])
    services.event_player_leave(event=event, user=owner, player=event.players.get(player__name="戊").player)
    services.event_pairs_set(event=event, user=owner, pairs=[["甲", "乙"], ["丙", "丁"]])
    assert _named(event) == {frozenset("甲乙"), frozenset("丙丁")}


def test_no_pairs_makes_the_event_draw_players_one_by_one_again(club, owner):
    event = _event(club, owner, pairs=[["甲", "乙"], ["丙", "丁"], ["戊", "己"], ["庚", "辛"]])
    services.event_pairs_set(event=event, user=owner, pairs=[])
    event.refresh_from_db()
    assert event.pairs == []


def test_setting_the_pairs_notes_the_feed(club, owner):
    event = _event(club, owner)
    services.event_pairs_set(event=event, user=owner, pairs=[["甲", "乙"], ["丙", "丁"], ["戊", "己"], ["庚", "辛"]])
    last = Change.objects.filter(club=club).order_by("pk").last()
    assert (last.kind, last.object_id, last.number) == ("event.paired", event.pk, None)


PAIRS = [["甲", "乙"], ["丙", "丁"], ["戊", "己"], ["庚", "辛"]]
OTHER = [["甲", "丙"], ["乙", "丁"], ["戊", "庚"], ["己", "辛"]]


def test_once_a_round_is_drawn_the_pairs_are_refused_naming_pairs_and_stay(club, owner):
    event = _event(club, owner, pairs=PAIRS)
    services.round_draw(event=event, user=owner, draw="random", seed=1)
    changes = Change.objects.count()
    with pytest.raises(LedgerError) as refused:
        services.event_pairs_set(event=event, user=owner, pairs=OTHER)
    assert (refused.value.code, refused.value.field) == ("event.pairs_drawn", "pairs")
    assert "drawn" in refused.value.message("en")
    assert _named(event) == {frozenset(pair) for pair in PAIRS}
    assert Change.objects.count() == changes


@pytest.mark.parametrize(
    ("pairs", "code", "player"),
    [
        ([["甲", "乙"], ["乙", "丙"], ["丁", "戊"], ["己", "庚"]], "pairs.player_twice", "乙"),
        ([["甲", "乙"], ["丙", "无名"], ["戊", "己"], ["庚", "辛"]], "pairs.not_checked_in", "无名"),
        ([["甲", "乙"], ["丙", "丁"], ["戊", "己"]], "pairs.unpaired", "庚"),
        ([["甲", "甲"], ["丙", "丁"], ["戊", "己"], ["庚", "辛"]], "pairs.not_two", None),
    ],
)
def test_pairs_that_cannot_be_are_refused_naming_pairs_and_change_nothing(club, owner, pairs, code, player):
    event = _event(club, owner, pairs=PAIRS)
    with pytest.raises(LedgerError) as refused:
        services.event_pairs_set(event=event, user=owner, pairs=pairs)
    assert (refused.value.code, refused.value.field) == (code, "pairs")
    if player is not None:
        assert player in refused.value.message("en")
    assert _named(event) == {frozenset(pair) for pair in PAIRS}


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"variant": "biaofen", "table_size": 4}, "pairs.variant"),
        ({"variant": "shengji", "table_size": 6}, "pairs.table_size"),
        ({"variant": "shengji", "table_size": 4, "mixed_sizes": True}, "pairs.table_size"),
    ],
)
def test_pairs_at_an_event_that_cannot_play_them_are_refused_naming_pairs(club, owner, fields, code):
    event = services.event_create(club=club, user=owner, name="晚", players=NAMES, **fields)
    with pytest.raises(LedgerError) as refused:
        services.event_pairs_set(event=event, user=owner, pairs=PAIRS)
    assert (refused.value.code, refused.value.field) == (code, "pairs")


def test_pairs_of_a_finished_event_are_refused(club, owner):
    event = _event(club, owner)
    services.event_finish(event=event, user=owner)
    with pytest.raises(LedgerError) as refused:
        services.event_pairs_set(event=event, user=owner, pairs=PAIRS)
    assert (refused.value.code, refused.value.field) == ("event.finished", "event")


def test_a_viewer_cannot_set_the_pairs(club, owner):
    event = _event(club, owner)
    with pytest.raises(PermissionDenied):
        services.event_pairs_set(event=event, user=make_member(club, Role.VIEWER), pairs=PAIRS)
    assert Event.objects.get().pairs == []
