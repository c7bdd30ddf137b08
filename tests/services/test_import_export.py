"""Importing session documents (all or nothing) and exporting them back."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import PermissionDenied
from django.db.models import Sum
from django.utils import timezone

from settlement import services
from settlement.models import GameRow, Hand, Player, Role, Session, SettlementRow
from settlement.rules.session import session_settle
from settlement.selectors import session_results
from tests.conftest import SHARED_GOLDEN, SHARED_GOLDEN_NEXT
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_player, make_session, record_hands

pytestmark = pytest.mark.django_db

GOLDEN = sorted([*SHARED_GOLDEN.glob("*.json"), *SHARED_GOLDEN_NEXT.glob("*.json")])  # golden-next: 6-player classic
VALID = [path for path in GOLDEN if "expect" in json.loads(path.read_text(encoding="utf-8"))]
INVALID = [path for path in GOLDEN if "expect_error" in json.loads(path.read_text(encoding="utf-8"))]


def _case(path):
    return json.loads(path.read_text(encoding="utf-8"))


def _imported(document):
    """The session `document` makes when imported into a new club by its owner."""
    club = make_club()
    return services.session_import(club=club, user=make_member(club), document=document).session


def _figures(results):
    """What a re-import must reproduce: per-hand deltas and games, totals (hand numbers may close up)."""
    return {
        "deltas": [hand["deltas"] for hand in results["hands"]],
        "running": [hand["totals"] for hand in results["hands"]],
        "games": [(g["finished"], g["winners"], g["how"], g["adjustments"], g["totals"]) for g in results["games"]],
        "totals": results["totals"],
        "games_won": results["games_won"],
    }


def test_there_are_golden_documents_to_import():
    assert len(VALID) >= 5 and len(INVALID) >= 1


@pytest.mark.parametrize("path", VALID, ids=[p.stem for p in VALID])
def test_importing_a_golden_document_reproduces_its_settlement(path):
    case = _case(path)
    session = _imported(case["input"])
    settled = session_settle(case["input"], lang="en")
    results = session_results(session=session, lang="en").results
    assert results == settled  # no void hands: ledger numbers are the document's
    if "totals" in case["expect"]:  # the rules file's hand-worked figures
        assert results["totals"] == case["expect"]["totals"]
    # The derived rows add up to the same totals (hand deltas plus game adjustments).
    per_seat = [
        (SettlementRow.objects.filter(session=session, seat=seat).aggregate(s=Sum("delta"))["s"] or 0)
        + (GameRow.objects.filter(session=session, seat=seat).aggregate(s=Sum("adjustment"))["s"] or 0)
        for seat in range(len(case["input"]["players"]))
    ]
    assert per_seat == settled["totals"]
    won = [GameRow.objects.filter(session=session, seat=seat, won=True).count() for seat in range(len(per_seat))]
    assert won == settled["games_won"]


@pytest.mark.parametrize("path", INVALID, ids=[p.stem for p in INVALID])
def test_importing_a_bad_golden_document_is_refused_whole(path):
    case = _case(path)
    club = make_club()
    owner = make_member(club)
    with pytest.raises(services.LedgerError) as caught:
        services.session_import(club=club, user=owner, document=case["input"])
    assert (caught.value.hand, caught.value.field) == (case["expect_error"]["hand"], case["expect_error"]["field"])
    assert not Session.objects.exists() and not Hand.objects.exists() and not Player.objects.exists()


def test_import_matches_names_keeps_date_and_venue_and_closes_the_session():
    club = make_club()
    owner = make_member(club)
    wang = make_player(club, "甲")
    document = {
        "variant": "baifen.benxi",
        "players": ["甲", "乙", "丙", "丁"],
        "hands": BENXI_EXAMPLE,
        "date": "2026-11-07",
        "venue": "一号桌",
    }
    session = services.session_import(club=club, user=owner, document=document).session
    assert str(session.date) == "2026-11-07" and session.venue == "一号桌"
    assert session.status == Session.Status.CLOSED
    assert session.seats.get(seat=0).player == wang
    assert sorted(Player.objects.filter(is_guest=True).values_list("name", flat=True)) == ["丁", "丙", "乙"]
    assert session.options["target"] == 205 and "kou_award" in session.options


def test_import_can_leave_the_session_open():
    club = make_club()
    owner = make_member(club)
    document = {"variant": "baifen.benxi", "players": ["甲", "乙", "丙", "丁"], "hands": BENXI_EXAMPLE[:2]}
    session = services.session_import(club=club, user=owner, document=document, close=False).session
    assert session.is_open
    write = services.hand_record(session=session, user=owner, hand_input=BENXI_EXAMPLE[2])
    assert write.hand.number == 3


def test_an_import_without_date_or_venue_is_dated_today_with_no_venue():
    club = make_club()
    owner = make_member(club)
    document = {"variant": "baifen.benxi", "players": ["甲", "乙", "丙", "丁"], "hands": BENXI_EXAMPLE[:2]}
    session = services.session_import(club=club, user=owner, document=document).session
    session.refresh_from_db()
    assert (session.date, session.venue) == (timezone.localdate(), "")
    assert "venue" not in services.session_export(session=session)


def test_an_imported_hand_is_stored_with_the_dealer_the_table_filled_in():
    # baifen.md "Dealer": the first hand's dealer defaults to seat 0, each later one to the previous + 1.
    hands = [{key: value for key, value in hand.items() if key != "dealer"} for hand in BENXI_EXAMPLE]
    document = {"variant": "baifen.benxi", "players": ["甲", "乙", "丙", "丁"], "hands": hands}
    session = _imported(document)
    stored = [hand.revisions.get().input for hand in Hand.objects.filter(session=session).order_by("number")]
    assert [hand.get("dealer") for hand in stored] == [0, 1, 2, 3, 0]


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"date": "30/11/2026"}, "value.not_date", "date"),
        ({"venue": "x" * 101}, "value.too_long", "venue"),
        ({"colour": "red"}, "field.unknown", "colour"),
    ],
)
def test_a_bad_document_imports_nothing(change, code, field):
    club = make_club()
    owner = make_member(club)
    document = {
        "variant": "baifen.benxi",
        "players": ["新甲", "新乙", "新丙", "新丁"],
        "hands": BENXI_EXAMPLE,
        **change,
    }
    with pytest.raises(services.LedgerError) as caught:
        services.session_import(club=club, user=owner, document=document)
    assert (caught.value.code, caught.value.field) == (code, field)
    assert not Session.objects.exists() and not Player.objects.exists()


def test_a_viewer_cannot_import():
    club = make_club()
    viewer = make_member(club, Role.VIEWER)
    document = {"variant": "baifen.benxi", "players": ["甲", "乙", "丙", "丁"], "hands": []}
    with pytest.raises(PermissionDenied):
        services.session_import(club=club, user=viewer, document=document)


def test_export_then_import_gives_the_same_results_with_voids_and_corrections():
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner, options={"target": 300}, venue="二号桌")
    record_hands(session, owner, BENXI_EXAMPLE)
    record_hands(session, owner, [{"dealer": 1, "redeal": "all_pass"}, {"declarer": 2, "bid": 85, "captured": 30}])
    services.hand_void(session=session, user=owner, number=2, reason="dup")
    services.hand_correct(
        session=session,
        user=owner,
        number=4,
        hand_input={"dealer": 3, "declarer": 2, "bid": 85, "captured": 10},
        reason="x",
    )
    exported = services.session_export(session=session)
    assert exported["venue"] == "二号桌" and exported["date"] == session.date.isoformat()
    assert exported["options"] == session.options
    assert len(exported["hands"]) == 6 and exported["hands"][2]["captured"] == 10
    # The exported document is a plain session document: settle reads it too.
    json.dumps(exported)
    assert session_settle(exported)["totals"] == session_results(session=session, lang="zh-Hans").results["totals"]

    other = make_club()
    again = services.session_import(club=other, user=make_member(other), document=exported).session
    original = session_results(session=session, lang="en").results
    copy = session_results(session=again, lang="en").results
    assert _figures(copy) == _figures(original)
    assert again.options == session.options and again.venue == "二号桌" and again.date == session.date
    assert services.session_export(session=again) == exported


@pytest.mark.parametrize("path", VALID, ids=[p.stem for p in VALID])
def test_every_golden_document_survives_an_export_round_trip(path):
    case = _case(path)
    session = _imported(case["input"])
    exported = services.session_export(session=session)
    # Export carries every option resolved; settling it gives exactly what the original document gave.
    assert session_settle(exported) == session_settle(case["input"])
