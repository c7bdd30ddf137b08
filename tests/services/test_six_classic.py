"""Six-player classic 打百分 in the ledger: opening, refusals, the stored results and settle-up, export and import,
the club backup.

The hands are ../shared/golden-next/baifen-classic-six-players.json's, worked by hand there: totals
[−15, −9, −6, −15, +39, +6].
"""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from settlement import services
from settlement.models import Club
from settlement.selectors import session_results
from tests.factories import SIX_CLASSIC_HANDS, SIX_NAMES, make_club, make_member, make_session, record_hands

from .test_club_backup import _snapshot

pytestmark = pytest.mark.django_db

SIX = list(SIX_NAMES)
HANDS = SIX_CLASSIC_HANDS


@pytest.fixture
def owner():
    club = make_club()
    return club, make_member(club)


def test_a_recorded_six_player_session_stores_the_worked_totals_and_settles_up_minimally(owner):
    club, user = owner
    session = make_session(club, user, variant="baifen.classic", players=SIX)
    record_hands(session, user, HANDS)
    services.session_close(session=session, user=user)
    results = session_results(session=session, lang="en").results
    assert results["totals"] == [-15, -9, -6, -15, 39, 6]
    # {丙 −6, 己 +6} and {甲, 乙, 丁, 戊}: 1 + 3 transfers.
    assert [(t["from"], t["to"], t["amount"]) for t in results["settle_up"]] == [
        (0, 4, 15),
        (1, 4, 9),
        (2, 5, 6),
        (3, 4, 15),
    ]


@pytest.mark.parametrize("count", [3, 5, 7])
def test_classic_refuses_a_table_of_neither_four_nor_six_naming_players(owner, count):
    club, user = owner
    with pytest.raises(services.LedgerError) as caught:
        make_session(club, user, variant="baifen.classic", players=[f"客{i}" for i in range(count)])
    assert (caught.value.code, caught.value.field) == ("players.count", "players")


def test_a_seat_past_5_is_refused_and_nothing_is_recorded(owner):
    club, user = owner
    session = make_session(club, user, variant="baifen.classic", players=SIX)
    with pytest.raises(services.LedgerError) as caught:
        services.hand_record(
            session=session, user=user, hand_input={"declarer": 0, "bid": 60, "partner": 6, "captured": 20}
        )
    assert (caught.value.code, caught.value.hand, caught.value.field) == ("seat.invalid", 1, "partner")
    assert not session.hands.exists()


def test_the_export_reimports_into_another_club_with_the_same_figures(owner):
    club, user = owner
    session = make_session(club, user, variant="baifen.classic", players=SIX)
    record_hands(session, user, HANDS)
    document = services.session_export(session=session)
    other = make_club()
    again = services.session_import(club=other, user=make_member(other), document=document).session
    first, second = (session_results(session=s, lang="zh-Hans").results for s in (session, again))
    assert [h["deltas"] for h in second["hands"]] == [h["deltas"] for h in first["hands"]]
    assert (second["totals"], second["settle_up"], second["players"]) == (first["totals"], first["settle_up"], SIX)


@pytest.mark.django_db(transaction=True)
def test_a_club_backup_restores_a_six_player_session_as_it_was(tmp_path):
    club = make_club(slug="six-club")
    user = make_member(club)
    session = make_session(club, user, variant="baifen.classic", players=SIX)
    record_hands(session, user, HANDS)
    services.session_close(session=session, user=user)
    before = _snapshot(club)
    path = tmp_path / "club.json"
    call_command("club_export", "six-club", str(path), stderr=StringIO())
    call_command("flush", interactive=False, verbosity=0)
    call_command("club_import", str(path), stdout=StringIO())
    assert _snapshot(Club.objects.get(slug="six-club")) == before
    assert before["sessions"][0]["results"]["totals"] == [-15, -9, -6, -15, 39, 6]
