"""`ledger_verify`: stored derived rows are compared with the log's replay; `--repair` rebuilds them."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from settlement import services
from settlement.models import GameRow, HandState, SettlementRow
from settlement.selectors import Difference, session_verify
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_recorded_session, make_session, record_hands

pytestmark = pytest.mark.django_db


@pytest.fixture
def benxi():
    """rules/baifen.md's worked 本溪 example: hand 2 (乙 bids 85, captures 20 against him) is -85 for team B."""
    return make_recorded_session()[2]


def _verify(*args):
    out, err = StringIO(), StringIO()
    try:
        call_command("ledger_verify", *args, stdout=out, stderr=err)
    except CommandError as error:
        return error.returncode, out.getvalue(), err.getvalue() + str(error)
    return 0, out.getvalue(), err.getvalue()


def test_a_session_recorded_through_the_services_verifies_clean(benxi):
    assert session_verify(session=benxi) == []
    assert _verify()[0] == 0


@pytest.mark.parametrize(
    ("tamper", "expected"),
    [
        (
            lambda s: SettlementRow.objects.filter(session=s, number=2, seat=1).update(delta=999),
            [("hand", 2, 1, "delta", 999, -85)],
        ),
        (
            lambda s: SettlementRow.objects.filter(session=s, number=3, seat=3).update(is_declarer=False),
            [("hand", 3, 3, "is_declarer", False, True)],  # 丁 (seat 3) declared hand 3,
        ),
        (
            lambda s: GameRow.objects.filter(session=s, game=1).update(won=False),
            # B (seats 1 and 3) won 盘 1.
            [("game", 1, 1, "won", False, True), ("game", 1, 3, "won", False, True)],
        ),
        (
            lambda s: GameRow.objects.filter(session=s, game=2, seat=0).delete(),
            [("game", 2, 0, "row", None, (2, 0))],
        ),
    ],
    ids=["hand-delta", "hand-declarer", "game-won", "game-row-missing"],
)
def test_verify_names_each_tampered_derived_field(benxi, tamper, expected):
    tamper(benxi)
    differences = session_verify(session=benxi)
    assert differences == [
        Difference(session=benxi.pk, kind=kind, number=n, seat=seat, field=field, stored=stored, replayed=replayed)
        for kind, n, seat, field, stored, replayed in expected
    ]


@pytest.mark.parametrize(
    ("tamper", "field"),
    [
        (lambda s: HandState.objects.filter(session=s, number=2).update(state={"version": 1}), "state"),
        (lambda s: HandState.objects.filter(session=s, number=3).update(receipt={}), "receipt"),
        (lambda s: HandState.objects.filter(session=s, number=1).delete(), "row"),
    ],
    ids=["state", "receipt", "row-missing"],
)
def test_verify_and_repair_cover_the_stored_state_after_each_hand(benxi, tamper, field):
    """The state a write plays on from is a derived row like the others: checked, and rebuilt by --repair."""
    tamper(benxi)
    assert [(d.kind, d.field) for d in session_verify(session=benxi)] == [("state", field)]
    _verify("--repair")
    assert session_verify(session=benxi) == []


def test_the_command_exits_1_on_a_difference_and_repair_fixes_it(benxi):
    SettlementRow.objects.filter(session=benxi, number=2, seat=1).update(delta=999)
    GameRow.objects.filter(session=benxi, game=2, seat=0).delete()

    status, out, err = _verify()
    assert "1 of 1 sessions differ from their hand log; --repair rebuilds them" in err
    assert status == 1
    assert f"session {benxi.pk} hand 2 seat 1 delta: stored 999, replayed -85" in out.splitlines()
    assert f"session {benxi.pk} game 2 seat 0 row: stored absent, replayed present" in out.splitlines()

    status, out, _ = _verify("--repair")
    assert status == 0
    assert f"session {benxi.pk}: repaired (2 differences fixed)" in out
    assert SettlementRow.objects.get(session=benxi, number=2, seat=1).delta == -85

    assert _verify() == (0, "1 sessions checked: the derived rows match the hand log\n", "")


def test_only_the_chosen_session_is_verified(benxi):
    club = make_club()
    owner = make_member(club)
    other = make_session(club, owner)
    record_hands(other, owner, BENXI_EXAMPLE[:2])
    SettlementRow.objects.filter(session=other).update(total=0)
    assert _verify("--session", str(benxi.pk))[0] == 0
    assert _verify("--session", str(other.pk))[0] == 1
    assert _verify("--session", "999999")[0] == 1


def test_the_rebuild_service_replaces_every_derived_row(benxi):
    SettlementRow.objects.filter(session=benxi).delete()
    GameRow.objects.filter(session=benxi).update(total=7)
    services.session_derived_rebuild(session=benxi)
    assert session_verify(session=benxi) == []
    assert SettlementRow.objects.filter(session=benxi).count() == 5 * 4
