"""Recording hands: numbers, derived rows, refusals that write nothing, idempotent client keys."""

from __future__ import annotations

import threading

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection, connections
from django.http import Http404
from django.test.utils import CaptureQueriesContext

from settlement import services
from settlement.models import GameRow, Hand, HandRevision, HandState, Role, SettlementRow
from settlement.scoping import session_for_write
from settlement.selectors import session_results
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_recorded_session, make_session, record_hands

pytestmark = pytest.mark.django_db


def _ledger_counts():
    return (Hand.objects.count(), HandRevision.objects.count(), SettlementRow.objects.count(), GameRow.objects.count())


@pytest.fixture
def table():
    return make_recorded_session(hands=[])


def test_it_numbers_hands_and_derives_rows_from_the_replay(table):
    _, owner, session = table
    record_hands(session, owner, BENXI_EXAMPLE)
    assert list(Hand.objects.filter(session=session).values_list("number", flat=True)) == [1, 2, 3, 4, 5]
    team_a = list(SettlementRow.objects.filter(session=session, seat=0).values_list("number", "game", "delta", "total"))
    team_b = list(SettlementRow.objects.filter(session=session, seat=1).values_list("number", "game", "delta", "total"))
    # A: 80, 100, 100, 15 → B reaches 230 and wins the 盘; A then makes 100 clean: +300, wins 盘 2 at once.
    assert team_a == [(1, 1, 80, 80), (2, 1, 20, 100), (3, 1, 0, 100), (4, 1, -85, 15), (5, 2, 300, 300)]
    assert team_b == [(1, 1, 15, 15), (2, 1, -85, -70), (3, 1, 200, 130), (4, 1, 100, 230), (5, 2, 0, 0)]
    declarers = SettlementRow.objects.filter(session=session, is_declarer=True).values_list(
        "number", "seat", "declarer_won"
    )
    assert list(declarers.order_by("number")) == [
        (1, 0, True),
        (2, 1, False),
        (3, 3, True),
        (4, 2, False),
        (5, 0, True),
    ]
    games = list(
        GameRow.objects.filter(session=session, seat__in=[0, 1])
        .order_by("game", "seat")
        .values_list("game", "seat", "first_hand", "last_hand", "finished", "how", "won", "total")
    )
    assert games == [
        (1, 0, 1, 4, True, "target", False, 15),
        (1, 1, 1, 4, True, "target", True, 230),
        (2, 0, 5, 5, True, "target", True, 300),
        (2, 1, 5, 5, True, "target", False, 0),
    ]


def test_a_refused_hand_writes_nothing_and_names_the_ledger_hand_number(table):
    _, owner, session = table
    record_hands(session, owner, BENXI_EXAMPLE[:3])
    services.hand_void(session=session, user=owner, number=1, reason="entered twice")
    before = _ledger_counts()
    # Hand 4 of the ledger is the engine's 3rd: dealer 3, declarer 1 is place 2, which must bid 85 or more.
    with pytest.raises(services.LedgerError) as caught:
        services.hand_record(
            session=session, user=owner, hand_input={"dealer": 3, "declarer": 1, "bid": 80, "captured": 0}
        )
    error = caught.value
    assert (error.code, error.hand, error.field) == ("bid.place_minimum", 4, "bid")
    assert error.describe("en") == "hand 4: bid: in Benxi the third bidder (the dealer is first) must bid at least 85"
    assert error.describe("zh-Hans").startswith("hand 4: bid: 本溪")
    assert _ledger_counts() == before


@pytest.mark.parametrize(
    ("hand", "code", "field"),
    [
        ({"declarer": 0, "bid": 80, "captured": 12}, "points.not_multiple_of_5", "captured"),
        ({"declarer": 0, "bid": 80, "captured": 105}, "points.over_deck", "captured"),
        ({"declarer": 0, "bid": 80, "captured": 10, "partner": 2}, "field.unknown", "partner"),
        ({"declarer": 0, "captured": 10}, "field.required", "bid"),
        ({"declarer": 7, "bid": 80, "captured": 10}, "seat.invalid", "declarer"),
    ],
)
def test_a_hand_the_rules_refuse_is_not_recorded(table, hand, code, field):
    _, owner, session = table
    with pytest.raises(services.LedgerError) as caught:
        services.hand_record(session=session, user=owner, hand_input=hand, client_key="k1")
    assert (caught.value.code, caught.value.hand, caught.value.field) == (code, 1, field)
    assert _ledger_counts() == (0, 0, 0, 0)


def test_the_same_key_twice_records_one_hand_with_the_same_result(table):
    _, owner, session = table
    hand = {"declarer": 1, "bid": 85, "captured": 20}
    first = services.hand_record(session=session, user=owner, hand_input=hand, client_key="tap-1")
    results = session_results(session=session, lang="en").results
    second = services.hand_record(session=session, user=owner, hand_input=dict(hand), client_key="tap-1")
    assert first.created is True and second.created is False
    assert second.hand.pk == first.hand.pk and second.revision.pk == first.revision.pk
    assert Hand.objects.filter(session=session).count() == 1
    assert session_results(session=session, lang="en").results == results
    assert results["hands"][0]["deltas"] == [20, -85, 20, -85]


def test_the_same_key_with_a_different_hand_is_refused(table):
    _, owner, session = table
    services.hand_record(
        session=session, user=owner, hand_input={"declarer": 1, "bid": 85, "captured": 20}, client_key="k"
    )
    before = _ledger_counts()
    with pytest.raises(services.LedgerError) as caught:
        services.hand_record(
            session=session, user=owner, hand_input={"declarer": 1, "bid": 85, "captured": 25}, client_key="k"
        )
    assert (caught.value.code, caught.value.field, caught.value.hand) == ("client_key.reused", "client_key", 1)
    assert "hand 1" in caught.value.message("en")
    assert _ledger_counts() == before


def test_keys_are_per_session(table):
    club, owner, session = table
    other = make_session(club, owner)
    hand = {"declarer": 1, "bid": 85, "captured": 20}
    services.hand_record(session=session, user=owner, hand_input=hand, client_key="same")
    again = services.hand_record(session=other, user=owner, hand_input=hand, client_key="same")
    assert again.created is True


def test_a_closed_session_refuses_new_hands_but_still_answers_a_repeat(table):
    _, owner, session = table
    hand = {"declarer": 1, "bid": 85, "captured": 20}
    first = services.hand_record(session=session, user=owner, hand_input=hand, client_key="before-close")
    services.session_close(session=session, user=owner)
    repeat = services.hand_record(session=session, user=owner, hand_input=hand, client_key="before-close")
    assert repeat.hand.pk == first.hand.pk
    with pytest.raises(services.LedgerError) as caught:
        services.hand_record(session=session, user=owner, hand_input=hand, client_key="after-close")
    assert caught.value.code == "session.closed"
    assert Hand.objects.filter(session=session).count() == 1


def test_a_viewer_cannot_record(table):
    club, _, session = table
    viewer = make_member(club, Role.VIEWER)
    with pytest.raises(PermissionDenied):
        services.hand_record(session=session, user=viewer, hand_input={"declarer": 1, "bid": 85, "captured": 20})
    assert _ledger_counts() == (0, 0, 0, 0)


@pytest.mark.parametrize("whose", ["another club's member", "a missing session"])
def test_a_session_the_user_cannot_see_is_not_found_and_nothing_is_written(table, whose):
    """The service reads and scopes the session under its lock: a caller may hand it the id alone."""
    _, owner, session = table
    user, target = (make_member(make_club()), session.pk) if whose.startswith("another") else (owner, session.pk + 99)
    with pytest.raises(Http404):
        services.hand_record(session=session_for_write(target), user=user, hand_input=BENXI_EXAMPLE[0])
    assert _ledger_counts() == (0, 0, 0, 0)


def test_a_session_given_by_its_id_alone_records_as_the_session_read(table):
    _, owner, session = table
    write = services.hand_record(session=session_for_write(session.pk), user=owner, hand_input=BENXI_EXAMPLE[0])
    assert (write.hand.number, write.hand.session.variant, write.hand.session.club_id) == (
        1,
        session.variant,
        session.club_id,
    )


def test_the_preview_is_the_engines_result_in_context_and_writes_nothing(table):
    _, owner, session = table
    record_hands(session, owner, BENXI_EXAMPLE[:3])
    preview = services.hand_preview(session=session, hand_input=BENXI_EXAMPLE[3], lang="en")
    hand = preview["hands"][-1]
    # Worked by hand: A breaks 85 with 55 captured (翻倍): A −85, B +100; B reaches 230 ≥ 205.
    assert (hand["n"], hand["deltas"], hand["totals"]) == (4, [-85, 100, -85, 100], [15, 230, 15, 230])
    assert preview["games"][0]["finished"] is True and preview["games"][0]["winners"] == [1, 3]
    assert any("broken" in step for step in hand["steps"])
    assert Hand.objects.filter(session=session).count() == 3


def test_the_preview_of_a_correction_replaces_that_hand(table):
    _, owner, session = table
    record_hands(session, owner, BENXI_EXAMPLE[:2])
    preview = services.hand_preview(
        session=session, hand_input={"dealer": 0, "declarer": 0, "bid": 80, "captured": 0}, lang="en", number=1
    )
    # 80 clean scores 100 in 本溪; then B breaks 85 with 20 captured: A 100 + 20.
    assert [h["deltas"][0] for h in preview["hands"]] == [100, 20]


def test_recording_costs_the_same_queries_however_long_the_session(table):
    club, owner, session = table
    long_session = make_session(club, owner)
    hands = [{"dealer": i % 4, "declarer": i % 4, "bid": 80, "captured": 20} for i in range(24)]
    record_hands(session, owner, hands[:2])
    record_hands(long_session, owner, hands[:20])
    counts = []
    for s in (session, long_session):
        with CaptureQueriesContext(connection) as queries:
            services.hand_record(session=s, user=owner, hand_input=hands[20])
        counts.append(len(queries))
    assert counts[0] == counts[1]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers need a database with row locks")
@pytest.mark.django_db(transaction=True)
def test_concurrent_repeats_of_one_key_record_one_hand():
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    hand = {"declarer": 1, "bid": 85, "captured": 20}
    barrier = threading.Barrier(6)
    outcomes, errors = [], []

    def tap(key: str) -> None:
        try:
            barrier.wait()
            outcomes.append(services.hand_record(session=session, user=owner, hand_input=hand, client_key=key))
        except Exception as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=tap, args=("double-tap",)) for _ in range(4)]
    threads += [threading.Thread(target=tap, args=(f"other-{i}",)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    same_key = [o for o in outcomes if o.hand.client_key == "double-tap"]
    assert len({o.hand.pk for o in same_key}) == 1
    assert sum(o.created for o in same_key) == 1
    # Three hands in all, numbered without gaps: the session lock serializes writers.
    assert sorted(Hand.objects.filter(session=session).values_list("number", flat=True)) == [1, 2, 3]
    assert SettlementRow.objects.filter(session=session).count() == 12


# --- refusals name their field and figures; repeats; a stored state of another version (docs/mutants.md, S1) ---


def test_a_closed_session_and_a_moved_hand_name_their_field_and_figures(table):
    _, owner, session = table
    services.hand_record(session=session, user=owner, hand_input={"declarer": 1, "bid": 85, "captured": 20})
    with pytest.raises(services.LedgerError) as moved:
        services.hand_record(
            session=session, user=owner, hand_input={"declarer": 2, "bid": 80, "captured": 20}, expected_number=5
        )
    # Entered as hand 5, but the session holds 1 hand: it would be hand 2.
    assert (moved.value.code, moved.value.field, moved.value.params) == (
        "hand.moved",
        "number",
        {"number": 5, "last": 1},
    )
    services.session_close(session=session, user=owner)
    with pytest.raises(services.LedgerError) as closed:
        services.hand_record(session=session, user=owner, hand_input={"declarer": 2, "bid": 80, "captured": 20})
    assert (closed.value.code, closed.value.field, closed.value.params) == ("session.closed", "session", {})


def test_the_preview_of_a_correction_of_a_missing_hand_names_it(table):
    _, owner, session = table
    record_hands(session, owner, BENXI_EXAMPLE[:2])
    with pytest.raises(services.LedgerError) as caught:
        services.hand_preview(session=session, hand_input=BENXI_EXAMPLE[0], lang="en", number=3)
    assert (caught.value.code, caught.value.field, caught.value.hand, caught.value.params) == (
        "hand.not_found",
        "number",
        3,
        {"number": 3},
    )


def test_a_repeat_that_spells_out_a_default_is_the_same_hand(table):
    _, owner, session = table
    hand = {"declarer": 1, "bid": 85, "captured": 20}
    first = services.hand_record(session=session, user=owner, hand_input=hand, client_key="k")
    # `forced` is false unless given (rules/baifen.md): a client that sends every field sends the same hand.
    again = services.hand_record(session=session, user=owner, hand_input={**hand, "forced": False}, client_key="k")
    assert (again.hand.pk, again.created) == (first.hand.pk, False)
    with pytest.raises(services.LedgerError) as caught:
        services.hand_record(session=session, user=owner, hand_input={**hand, "forced": True}, client_key="k")
    assert caught.value.code == "client_key.reused"


@pytest.mark.parametrize("entered", [5, "hand", [1, 85, 20], None])
def test_a_repeat_of_a_key_with_something_that_is_not_a_hand_is_refused(table, entered):
    _, owner, session = table
    services.hand_record(
        session=session, user=owner, hand_input={"declarer": 1, "bid": 85, "captured": 20}, client_key="k"
    )
    with pytest.raises(services.LedgerError) as caught:
        services.hand_record(session=session, user=owner, hand_input=entered, client_key="k")
    assert (caught.value.code, caught.value.field, caught.value.hand) == ("client_key.reused", "client_key", 1)


def test_a_recorded_hand_answers_with_its_state_and_players_and_is_the_sessions_latest_write(table):
    _, owner, session = table
    write = services.hand_record(session=session, user=owner, hand_input={"declarer": 1, "bid": 85, "captured": 20})
    assert (write.hand.number, write.created, write.derived.number, write.derived.hand_id) == (
        1,
        True,
        1,
        write.hand.pk,
    )
    assert [p.name for p in write.players] == ["甲", "乙", "丙", "丁"]
    assert write.hand.session.updated_at == write.revision.created_at
    session.refresh_from_db()
    assert session.updated_at == write.revision.created_at


def test_the_next_hands_preview_replays_the_log_when_the_stored_state_is_of_another_version(table):
    _, owner, session = table
    record_hands(session, owner, BENXI_EXAMPLE[:3])
    HandState.objects.filter(session=session).update(state={"not": "a state"})
    preview = services.hand_preview_next(session=session, hand_input=BENXI_EXAMPLE[3], lang="en")
    # As test_the_preview_is_the_engines_result_in_context_and_writes_nothing worked it.
    assert (preview["hands"][-1]["n"], preview["hands"][-1]["totals"]) == (4, [15, 230, 15, 230])


def test_a_client_key_of_64_characters_is_kept_and_one_of_65_refused(table):
    _, owner, session = table
    hand = {"declarer": 1, "bid": 85, "captured": 20}
    kept = services.hand_record(session=session, user=owner, hand_input=hand, client_key="k" * 64)
    assert kept.hand.client_key == "k" * 64
    with pytest.raises(services.LedgerError) as caught:
        services.hand_record(session=session, user=owner, hand_input=hand, client_key="k" * 65)
    assert (caught.value.code, caught.value.field) == ("client_key.invalid", "client_key")


def test_a_correction_rebuilds_only_its_own_sessions_rows(table):
    club, owner, session = table
    other = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE[:2])
    record_hands(other, owner, BENXI_EXAMPLE[:2])
    services.hand_correct(session=session, user=owner, number=1, hand_input=BENXI_EXAMPLE[2], reason="x")
    assert (
        SettlementRow.objects.filter(session=other).count(),
        HandState.objects.filter(session=other).count(),
    ) == (8, 2)
