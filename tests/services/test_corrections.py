"""Corrections and voids: new revisions, never edits; everything after the changed hand is settled again."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from settlement import services
from settlement.models import GameRow, Hand, HandRevision, HandState, Role, SettlementRow
from settlement.selectors import hand_history, session_results
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_recorded_session, make_session, record_hands

pytestmark = pytest.mark.django_db


@pytest.fixture
def benxi():
    return make_recorded_session()


def _rows(session, seat):
    return list(
        SettlementRow.objects.filter(session=session, seat=seat)
        .order_by("number")
        .values_list("number", "game", "delta", "total")
    )


def _games(session, seat):
    return list(
        GameRow.objects.filter(session=session, seat=seat)
        .order_by("game")
        .values_list("game", "first_hand", "last_hand", "finished", "won", "total")
    )


def test_a_correction_in_the_middle_settles_every_later_hand_and_game_again(benxi):
    _, owner, session = benxi
    write = services.hand_correct(
        session=session,
        user=owner,
        number=3,
        hand_input={"dealer": 2, "declarer": 3, "bid": 90, "captured": 10},
        reason="B lost a 10 after all",
    )
    assert write.revision.number == 2 and write.created is False
    # Worked by hand: 3 is now a plain made 90 (B +90, A +10): A 110, B 20; hand 4: A −85, B +100 (翻倍):
    # A 25, B 120, no 盘 end; hand 5: A +300 clean 100 → 325 ≥ 205, A wins the 盘 that now runs 1–5.
    assert _rows(session, 0) == [(1, 1, 80, 80), (2, 1, 20, 100), (3, 1, 10, 110), (4, 1, -85, 25), (5, 1, 300, 325)]
    assert _rows(session, 1) == [(1, 1, 15, 15), (2, 1, -85, -70), (3, 1, 90, 20), (4, 1, 100, 120), (5, 1, 0, 120)]
    assert _games(session, 0) == [(1, 1, 5, True, True, 325)]
    assert _games(session, 1) == [(1, 1, 5, True, False, 120)]
    results = session_results(session=session, lang="en").results
    assert results["totals"] == [325, 120, 325, 120]
    assert results["games_won"] == [1, 0, 1, 0]


def test_a_correction_keeps_the_original_entry_and_says_who_when_and_why(benxi):
    _, owner, session = benxi
    original = HandRevision.objects.get(hand__session=session, hand__number=3, number=1)
    services.hand_correct(
        session=session,
        user=owner,
        number=3,
        hand_input={"dealer": 2, "declarer": 3, "bid": 90, "captured": 10},
        reason="typo",
    )
    revisions = [r for r in hand_history(session=session) if r.hand == 3]
    assert [(r.number, r.kind, r.reason, r.author) for r in revisions] == [
        (1, "record", "", owner.username),
        (2, "correction", "typo", owner.username),
    ]
    assert revisions[0].input == BENXI_EXAMPLE[2] == original.input
    record = session_results(session=session, lang="en")
    assert record.hands[2].is_corrected and record.hands[2].current.input["captured"] == 10


def test_revisions_cannot_be_edited_or_deleted(benxi):
    _, _, session = benxi
    revision = HandRevision.objects.filter(hand__session=session).first()
    revision.reason = "sneaky"
    with pytest.raises(ValueError, match="append-only"):
        revision.save()
    with pytest.raises(ValueError, match="append-only"):
        revision.delete()
    with pytest.raises(ValueError, match="append-only"):
        Hand.objects.filter(session=session).first().delete()


def test_a_void_keeps_the_number_and_stops_counting(benxi):
    _, owner, session = benxi
    services.hand_void(session=session, user=owner, number=3, reason="dealt by mistake")
    # Without hand 3 (B's clean 200): A 80, 100, then 15 after hand 4 (B −70 + 100 = 30); hand 5: A 315 wins.
    assert _rows(session, 0) == [(1, 1, 80, 80), (2, 1, 20, 100), (4, 1, -85, 15), (5, 1, 300, 315)]
    assert _rows(session, 1) == [(1, 1, 15, 15), (2, 1, -85, -70), (4, 1, 100, 30), (5, 1, 0, 30)]
    assert _games(session, 0) == [(1, 1, 5, True, True, 315)]
    record = session_results(session=session, lang="en")
    assert [h.number for h in record.hands] == [1, 2, 3, 4, 5]
    assert record.hands[2].is_void and record.hands[2].result is None
    assert [h["n"] for h in record.results["hands"]] == [1, 2, 4, 5]
    assert record.results["games"][0]["last_hand"] == 5
    # The next hand is number 6, even though only four count.
    write = services.hand_record(
        session=session, user=owner, hand_input={"dealer": 1, "declarer": 1, "bid": 80, "captured": 0}
    )
    assert write.hand.number == 6


def test_voiding_the_last_hand_drops_the_game_it_had_started(benxi):
    _, owner, session = benxi
    services.hand_void(session=session, user=owner, number=5, reason="not played")
    assert _games(session, 0) == [(1, 1, 4, True, False, 15)]
    assert not SettlementRow.objects.filter(session=session, number=5).exists()


def test_a_correction_brings_a_void_hand_back(benxi):
    _, owner, session = benxi
    services.hand_void(session=session, user=owner, number=3, reason="wrong table")
    write = services.hand_correct(
        session=session, user=owner, number=3, hand_input=BENXI_EXAMPLE[2], reason="it was ours after all"
    )
    assert write.revision.number == 3
    assert session_results(session=session, lang="en").results["totals"] == [315, 230, 315, 230]


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda s, u: services.hand_void(session=s, user=u, number=9, reason="x"), "hand.not_found"),
        (lambda s, u: services.hand_void(session=s, user=u, number=2, reason="  "), "reason.required"),
        (
            lambda s, u: services.hand_correct(session=s, user=u, number=2, hand_input=BENXI_EXAMPLE[1], reason="same"),
            "hand.unchanged",
        ),
        (
            lambda s, u: services.hand_correct(session=s, user=u, number=2, hand_input=BENXI_EXAMPLE[0], reason=""),
            "reason.required",
        ),
    ],
)
def test_pointless_or_unexplained_changes_are_refused(benxi, call, code):
    _, owner, session = benxi
    with pytest.raises(services.LedgerError) as caught:
        call(session, owner)
    assert caught.value.code == code
    assert HandRevision.objects.filter(hand__session=session).count() == 5


def test_a_void_hand_cannot_be_voided_again(benxi):
    _, owner, session = benxi
    services.hand_void(session=session, user=owner, number=2, reason="x")
    with pytest.raises(services.LedgerError) as caught:
        services.hand_void(session=session, user=owner, number=2, reason="again")
    assert (caught.value.code, caught.value.hand) == ("hand.already_void", 2)


def test_a_correction_that_breaks_a_later_stored_declarer_is_refused_naming_it():
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner, variant="hongxingwu")
    # rules/hongxingwu.md: hand 1, s = 0, team A +8, next declarer the 对家, seat 2 — stored with hand 2.
    record_hands(session, owner, [{"declarer": 0, "captured": 0}, {"captured": 0}])
    assert Hand.objects.get(session=session, number=2).revisions.get().input == {"captured": 0, "declarer": 2}
    before = (HandRevision.objects.count(), list(SettlementRow.objects.values_list("id", flat=True)))
    # s = 130: the capture team takes over, so the rotation's next declarer is the 下家, seat 1 — not hand 2's 2.
    with pytest.raises(services.LedgerError) as caught:
        services.hand_correct(
            session=session, user=owner, number=1, hand_input={"declarer": 0, "captured": 130}, reason="130, not 0"
        )
    assert (caught.value.code, caught.value.hand, caught.value.field) == ("declarer.rotation", 2, "declarer")
    assert (HandRevision.objects.count(), list(SettlementRow.objects.values_list("id", flat=True))) == before


# rules/baifen.md: each dealer is the previous one + 1 from seat 0. Hand 3 (dealer 2): declarer 3 bids 80
# from place 1, which is allowed; from place 2 (dealer 1) 本溪 wants 85.
WITHOUT_DEALERS = [
    {"declarer": 0, "bid": 80, "captured": 15},
    {"declarer": 1, "bid": 85, "captured": 20},
    {"declarer": 3, "bid": 80, "captured": 20},
]


def _dealers(session):
    results = session_results(session=session, lang="en").results
    return [(hand["n"], hand["dealer"]) for hand in results["hands"]]


def test_the_dealer_a_hand_was_recorded_with_is_stored_with_it():
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    record_hands(session, owner, WITHOUT_DEALERS)
    stored = [hand.revisions.get().input["dealer"] for hand in Hand.objects.filter(session=session).order_by("number")]
    assert stored == [0, 1, 2]


def test_voiding_hand_1_leaves_the_later_hands_dealers_where_they_were():
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    record_hands(session, owner, WITHOUT_DEALERS)
    # Re-deriving the dealers would deal hand 3 from seat 1 and refuse its 80 (place 2); stored, it stays at seat 2.
    services.hand_void(session=session, user=owner, number=1, reason="not ours")
    assert _dealers(session) == [(2, 1), (3, 2)]
    # Settled on those dealers (rules/baifen.md): hand 2 broken, B −85, A +20; hand 3 made (80 + 20 = 100), B +80,
    # A +20.
    assert _rows(session, 0) == [(2, 1, 20, 20), (3, 1, 20, 40)]
    assert _rows(session, 1) == [(2, 1, -85, -85), (3, 1, 80, -5)]


def test_correcting_hand_1_leaves_the_later_hands_dealers_where_they_were():
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    record_hands(session, owner, WITHOUT_DEALERS)
    services.hand_correct(
        session=session,
        user=owner,
        number=1,
        hand_input={"dealer": 3, "declarer": 0, "bid": 80, "captured": 15},
        reason="seat 3 dealt",
    )
    assert _dealers(session) == [(1, 3), (2, 1), (3, 2)]


def test_a_correction_without_a_dealer_stores_the_one_the_state_gives_it():
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    record_hands(session, owner, [{"dealer": 2, "declarer": 2, "bid": 80, "captured": 15}, WITHOUT_DEALERS[1]])
    services.hand_correct(
        session=session, user=owner, number=2, hand_input={**WITHOUT_DEALERS[1], "captured": 25}, reason="25"
    )
    # Hand 1 was dealt by seat 2, so hand 2 by seat 3: what the correction stores.
    assert Hand.objects.get(session=session, number=2).revisions.last().input["dealer"] == 3


def test_viewers_cannot_correct_and_scorekeepers_cannot_once_closed(benxi):
    club, owner, session = benxi
    viewer = make_member(club, Role.VIEWER)
    keeper = make_member(club, Role.SCOREKEEPER)
    with pytest.raises(PermissionDenied):
        services.hand_void(session=session, user=viewer, number=1, reason="x")
    services.hand_void(session=session, user=keeper, number=1, reason="keeper may while open")
    services.session_close(session=session, user=owner)
    with pytest.raises(services.LedgerError) as caught:
        services.hand_correct(session=session, user=keeper, number=1, hand_input=BENXI_EXAMPLE[0], reason="x")
    assert caught.value.code == "session.closed"
    # The owner can still put a closed session right.
    services.hand_correct(session=session, user=owner, number=1, hand_input=BENXI_EXAMPLE[0], reason="owner restores")
    assert session_results(session=session, lang="en").results["totals"] == [315, 230, 315, 230]


# --- a level game: rules/gunzi.md, hand by hand ---

GUNZI = [
    {"declarer": 0, "captured": 50},
    {"captured": 100, "bottom_jokers": {"big": 1, "small": 1}},
    {"captured": 100, "bottom_points": 20, "kou_di": True, "tribute": "reversed"},
    {"captured": 200},
    {"captured": 100, "bottom_points": 10, "kou_di": True, "bottom_jokers": {"big": 2}},
]


def test_a_correction_in_a_level_game_changes_later_levels_and_tribute():
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner, variant="gunzi")
    record_hands(session, owner, GUNZI)
    before = session_results(session=session, lang="en").results
    # As entered: hand 2 buries 1 big + 1 small joker (J = 3): A up 4 levels (3 × 4 = 12 each) plus the 3-card
    # tribute from hand 1 (s = 50: ⌊30 / 10⌋ = 3), paid by seat 1 to seat 2; hand 3 then owes a 3-card
    # tribute (s = 100, J = 3), reversed: seat 0 pays seat 3.
    assert [h["deltas"] for h in before["hands"][1:3]] == [[12, -15, 15, -12], [-7, 4, -4, 7]]
    assert before["hands"][2]["levels"] == ["8", "4", "8", "4"]

    services.hand_correct(
        session=session, user=owner, number=2, hand_input={"captured": 100}, reason="no jokers in the bottom"
    )
    after = session_results(session=session, lang="en").results
    # Hand 2: J = 0, A up 1 level (+3 each) plus the same incoming tribute of 3 (seat 1 → seat 2): [3, −6, 6, −3];
    # it now owes no tribute (80 ≤ s ≤ 115 pays J = 0), so hand 3's "reversed" moves nothing: B takes over and
    # goes up 1 (1 + 3 × 1 = 4 each): [−4, 4, −4, 4]. Hands 4 and 5 are as before.
    assert [h["deltas"] for h in after["hands"]] == [
        [3, -3, 3, -3],
        [3, -6, 6, -3],
        [-4, 4, -4, 4],
        [1, -1, 1, -1],
        [-16, 11, -11, 16],
    ]
    assert [h["levels"] for h in after["hands"]] == [
        ["4", "3", "4", "3"],
        ["5", "3", "5", "3"],
        ["5", "4", "5", "4"],
        ["5", "4", "5", "4"],
        ["5", "9", "5", "9"],
    ]
    assert after["totals"] == [-13, 5, -5, 13]
    assert list(
        SettlementRow.objects.filter(session=session, number=3).order_by("seat").values_list("delta", flat=True)
    ) == [-4, 4, -4, 4]


CORRECTED_3 = {"dealer": 2, "declarer": 3, "bid": 90, "captured": 10}


def test_a_correction_made_from_an_older_revision_is_refused_as_stale(benxi):
    _, owner, session = benxi
    services.hand_void(session=session, user=owner, number=3, reason="entered twice", revision=1)
    with pytest.raises(services.LedgerError) as refused:
        services.hand_correct(
            session=session, user=owner, number=3, hand_input=CORRECTED_3, reason="captured 10", revision=1
        )
    assert (refused.value.code, refused.value.field, refused.value.hand) == ("hand.stale", "revision", 3)
    assert refused.value.params["current"] == 2
    assert HandRevision.objects.filter(hand__session=session, hand__number=3).count() == 2


def test_a_void_made_from_an_older_revision_is_refused_as_stale(benxi):
    _, owner, session = benxi
    services.hand_correct(session=session, user=owner, number=3, hand_input=CORRECTED_3, reason="10", revision=1)
    with pytest.raises(services.LedgerError) as refused:
        services.hand_void(session=session, user=owner, number=3, reason="entered twice", revision=1)
    assert refused.value.code == "hand.stale"
    assert not HandRevision.objects.filter(hand__session=session, is_void=True).exists()


@pytest.mark.parametrize("change", ["correct", "void"])
def test_a_retried_change_returns_the_revision_it_made_instead_of_a_stale_refusal(benxi, change):
    _, owner, session = benxi

    def send():
        if change == "void":
            return services.hand_void(session=session, user=owner, number=3, reason="twice", revision=1)
        return services.hand_correct(
            session=session, user=owner, number=3, hand_input=CORRECTED_3, reason="10", revision=1
        )

    first, retry = send(), send()
    assert retry.revision.pk == first.revision.pk and retry.revision.number == 2
    assert HandRevision.objects.filter(hand__session=session, hand__number=3).count() == 2


def test_another_users_identical_change_from_an_old_revision_is_still_stale(benxi):
    club, owner, session = benxi
    keeper = make_member(club, Role.SCOREKEEPER)
    services.hand_void(session=session, user=owner, number=3, reason="twice", revision=1)
    with pytest.raises(services.LedgerError) as refused:
        services.hand_void(session=session, user=keeper, number=3, reason="twice", revision=1)
    assert refused.value.code == "hand.stale"


# --- refusals name the hand, the field and their parameters; the answers name the hand (docs/mutants.md, S1) ---


@pytest.mark.parametrize(
    ("call", "code", "field", "hand", "params"),
    [
        (
            lambda s, u: services.hand_void(session=s, user=u, number=9, reason="x"),
            "hand.not_found",
            "number",
            9,
            {"number": 9},
        ),
        (
            lambda s, u: services.hand_correct(session=s, user=u, number=9, hand_input=CORRECTED_3, reason="x"),
            "hand.not_found",
            "number",
            9,
            {"number": 9},
        ),
        (
            lambda s, u: services.hand_correct(session=s, user=u, number=2, hand_input=BENXI_EXAMPLE[1], reason="x"),
            "hand.unchanged",
            "hand",
            2,
            {},
        ),
        (
            lambda s, u: services.hand_void(session=s, user=u, number=2, reason="  "),
            "reason.required",
            "reason",
            None,
            {},
        ),
        (lambda s, u: services.hand_void(session=s, user=u, number=2, reason=5), "value.not_text", "reason", None, {}),
        (
            lambda s, u: services.hand_correct(session=s, user=u, number=2, hand_input=CORRECTED_3, reason=None),
            "value.not_text",
            "reason",
            None,
            {},
        ),
        # A revision number must be a whole number from 1; True is not one, nor is 0 (the revision before 1).
        (
            lambda s, u: services.hand_void(session=s, user=u, number=3, reason="x", revision=0),
            "revision.invalid",
            "revision",
            None,
            {},
        ),
        (
            lambda s, u: services.hand_void(session=s, user=u, number=3, reason="x", revision="1"),
            "revision.invalid",
            "revision",
            None,
            {},
        ),
    ],
    ids=[
        "void-missing",
        "correct-missing",
        "unchanged",
        "reason-blank",
        "reason-number",
        "reason-none",
        "rev-0",
        "rev-str",
    ],
)
def test_a_refused_change_names_its_hand_field_and_figures(benxi, call, code, field, hand, params):
    _, owner, session = benxi
    with pytest.raises(services.LedgerError) as caught:
        call(session, owner)
    assert (caught.value.code, caught.value.field, caught.value.hand, caught.value.params) == (
        code,
        field,
        hand,
        params,
    )
    assert HandRevision.objects.filter(hand__session=session).count() == 5


def test_a_revision_number_of_true_is_refused_not_taken_for_1(benxi):
    _, owner, session = benxi
    services.hand_void(session=session, user=owner, number=3, reason="x", revision=1)
    with pytest.raises(services.LedgerError) as caught:
        services.hand_correct(session=session, user=owner, number=3, hand_input=CORRECTED_3, reason="y", revision=True)
    assert (caught.value.code, caught.value.field) == ("revision.invalid", "revision")


def test_voiding_a_void_hand_again_names_it(benxi):
    _, owner, session = benxi
    services.hand_void(session=session, user=owner, number=2, reason="x")
    with pytest.raises(services.LedgerError) as caught:
        services.hand_void(session=session, user=owner, number=2, reason="again")
    assert (caught.value.code, caught.value.field, caught.value.hand, caught.value.params) == (
        "hand.already_void",
        "number",
        2,
        {"number": 2},
    )


def test_a_stale_change_names_the_hand_and_its_current_revision(benxi):
    _, owner, session = benxi
    services.hand_correct(session=session, user=owner, number=3, hand_input=CORRECTED_3, reason="10", revision=1)
    # The same user and reason, from the same revision, but another input: not a retry.
    other = {**CORRECTED_3, "captured": 20}
    with pytest.raises(services.LedgerError) as caught:
        services.hand_correct(session=session, user=owner, number=3, hand_input=other, reason="10", revision=1)
    assert (caught.value.code, caught.value.field, caught.value.hand, caught.value.params) == (
        "hand.stale",
        "revision",
        3,
        {"number": 3, "current": 2},
    )


def test_a_correction_answers_with_its_hand_the_new_state_and_the_players(benxi):
    _, owner, session = benxi
    write = services.hand_correct(session=session, user=owner, number=3, hand_input=CORRECTED_3, reason="10")
    hand = Hand.objects.get(session=session, number=3)
    assert (write.hand.pk, write.revision.number, write.created) == (hand.pk, 2, False)
    # As worked above: hand 3 a plain made 90, A 110, B 20.
    assert (write.derived.number, write.derived.hand_id) == (3, hand.pk)
    assert [p.name for p in write.players] == ["甲", "乙", "丙", "丁"]
    assert type(session).objects.get(pk=session.pk).updated_at == write.revision.created_at


@pytest.mark.parametrize("change", ["correct", "void"])
def test_a_void_and_a_retry_answer_with_their_hand_and_create_nothing(benxi, change):
    _, owner, session = benxi
    hand = Hand.objects.get(session=session, number=3)

    def send():
        if change == "void":
            return services.hand_void(session=session, user=owner, number=3, reason="twice", revision=1)
        return services.hand_correct(
            session=session, user=owner, number=3, hand_input=CORRECTED_3, reason="10", revision=1
        )

    for write in (send(), send()):
        assert (write.hand.pk, write.revision.number, write.created) == (hand.pk, 2, False)


@pytest.mark.parametrize("change", ["correct", "void", "record"])
def test_a_stored_state_of_another_version_is_replayed_from_the_log(benxi, change):
    """A state that cannot be played on from (`ResumeUnavailable`): the earlier hands are replayed instead."""
    _, owner, session = benxi
    HandState.objects.filter(session=session).update(state={"not": "a state"})
    if change == "correct":
        services.hand_correct(session=session, user=owner, number=3, hand_input=CORRECTED_3, reason="10")
        # As test_a_correction_in_the_middle_settles_every_later_hand_and_game_again worked it.
        assert _rows(session, 0)[2:] == [(3, 1, 10, 110), (4, 1, -85, 25), (5, 1, 300, 325)]
    elif change == "void":
        services.hand_void(session=session, user=owner, number=3, reason="dealt by mistake")
        # As test_a_void_keeps_the_number_and_stops_counting worked it.
        assert _rows(session, 0)[2:] == [(4, 1, -85, 15), (5, 1, 300, 315)]
    else:
        # Hand 6 starts 盘 3 (A won 盘 2 at hand 5); seat 1 declares 80 and captures 0, clean in 本溪: B +100.
        services.hand_record(
            session=session, user=owner, hand_input={"dealer": 1, "declarer": 1, "bid": 80, "captured": 0}
        )
        assert _rows(session, 1)[-1] == (6, 3, 100, 100)
        assert _rows(session, 0)[-1] == (6, 3, 0, 0)
