"""Opening and closing sessions: frozen options, players into seats, roles."""

from __future__ import annotations

import dataclasses
import datetime

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from settlement import services
from settlement.models import Player, Role, Session, SessionSeat
from settlement.rules import baifen
from settlement.rules.registry import VARIANTS
from settlement.selectors import session_results
from tests.factories import make_club, make_member, make_player, make_session, make_user, record_hands

pytestmark = pytest.mark.django_db


def test_it_freezes_every_option_resolved_at_opening():
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner, options={"target": 300})
    # The whole 本溪 preset, every option present, with the override applied.
    assert session.options["target"] == 300
    assert session.options["clean"] == {"80": 100, "85": 100, "90": 200, "95": 200, "100": 300}
    assert session.options["kou_award"] == {"side": 200, "trump": 200, "joker": 200}
    assert set(session.options) == {f.name for f in dataclasses.fields(baifen.RegionalOptions)}


def test_later_changes_to_the_defaults_never_alter_an_old_session(monkeypatch):
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)  # 本溪 205, frozen
    changed = dataclasses.replace(
        VARIANTS["baifen.benxi"],
        defaults=lambda n: dataclasses.replace(baifen.PRESET_DEFAULTS[baifen.Region.BENXI], target=1000),
    )
    monkeypatch.setitem(VARIANTS, "baifen.benxi", changed)
    # B: 90 clean (+200), then a made 85 with 15 captured (+85): 285 ≥ 205 ends the 盘 under the frozen target.
    record_hands(
        session,
        owner,
        [{"declarer": 1, "bid": 90, "captured": 0}, {"declarer": 1, "bid": 85, "captured": 15}],
    )
    results = session_results(session=session, lang="en").results
    assert results["options"]["target"] == 205
    assert results["games"][0]["finished"] is True
    assert results["games"][0]["winners"] == [1, 3]


def test_it_matches_names_to_club_players_and_makes_guests_of_new_names():
    club = make_club()
    owner = make_member(club)
    wang = make_player(club, "老王")
    li = make_player(club, "小李")
    session = services.session_open(
        club=club,
        user=owner,
        variant="baifen.classic",
        players=[wang, "小李", "新人", "  客人  "],
        date=datetime.date(2026, 11, 30),
        venue="一号桌",
    )
    seats = list(SessionSeat.objects.filter(session=session).order_by("seat").values_list("player__name", "player_id"))
    assert [name for name, _ in seats] == ["老王", "小李", "新人", "客人"]
    assert seats[1][1] == li.pk
    assert set(Player.objects.filter(club=club, is_guest=True).values_list("name", flat=True)) == {"新人", "客人"}
    assert session.date == datetime.date(2026, 11, 30)
    assert session.venue == "一号桌"
    assert session.status == Session.Status.OPEN


def test_a_player_of_another_club_is_refused():
    club, other = make_club(), make_club()
    owner = make_member(club)
    stranger = make_player(other, "外人")
    with pytest.raises(services.LedgerError) as caught:
        make_session(club, owner, players=["甲", stranger, "丙", "丁"])
    assert (caught.value.code, caught.value.field) == ("player.other_club", "players[1]")
    assert not Session.objects.exists()


@pytest.mark.parametrize(
    ("kwargs", "code", "field"),
    [
        ({"options": {"target": 207}}, "option.invalid", "options.target"),
        ({"options": {"nope": 1}}, "option.unknown", "options.nope"),
        ({"players": ["甲", "乙", "丙"]}, "players.count", "players"),
        ({"players": ["甲", "乙", "甲", "丁"]}, "players.duplicate", "players"),
        ({"players": ["甲", "乙", " ", "丁"]}, "players.name", "players[2]"),
        ({"variant": "baifen.nowhere"}, "variant.unknown", "variant"),
        ({"venue": 5}, "value.not_text", "venue"),
        ({"options": {"target": float("nan")}}, "value.not_json", "options"),
        ({"venue": None}, "value.not_text", "venue"),
    ],
)
def test_a_bad_opening_is_refused_and_writes_nothing(kwargs, code, field):
    club = make_club()
    owner = make_member(club)
    with pytest.raises(services.LedgerError) as caught:
        make_session(club, owner, **kwargs)
    assert (caught.value.code, caught.value.field) == (code, field)
    assert caught.value.message("en")  # the engine's text for its own codes
    assert not Session.objects.exists()
    assert not Player.objects.exists()


@pytest.mark.parametrize("role", [Role.VIEWER, None])
def test_only_owners_and_scorekeepers_open_sessions(role):
    club = make_club()
    user = make_member(club, role) if role else make_user()
    with pytest.raises(PermissionDenied):
        make_session(club, user)
    assert not Session.objects.exists()


def test_a_scorekeeper_opens_and_closes_a_session():
    club = make_club()
    keeper = make_member(club, Role.SCOREKEEPER)
    session = make_session(club, keeper)
    closed = services.session_close(session=session, user=keeper)
    assert closed.status == Session.Status.CLOSED and closed.closed_at is not None
    again = services.session_close(session=session, user=keeper)
    assert again.closed_at == closed.closed_at


def test_a_viewer_cannot_close_a_session():
    club = make_club()
    owner = make_member(club)
    viewer = make_member(club, Role.VIEWER)
    session = make_session(club, owner)
    with pytest.raises(PermissionDenied):
        services.session_close(session=session, user=viewer)
    session.refresh_from_db()
    assert session.is_open


def test_a_resubmitted_opening_form_returns_the_session_it_opened():
    club = make_club()
    owner = make_member(club)
    first = make_session(club, owner, client_key="form-1")
    again = make_session(club, owner, client_key="form-1")
    other = make_session(club, owner, client_key="form-2")
    assert again.pk == first.pk
    assert other.pk != first.pk
    assert Session.objects.filter(club=club).count() == 2


def test_the_same_opening_key_in_another_club_opens_its_own_session():
    owner = make_user()
    club_a, club_b = make_club(slug="a"), make_club(slug="b")
    make_member(club_a, user=owner)
    make_member(club_b, user=owner)
    first = make_session(club_a, owner, client_key="k")
    second = make_session(club_b, owner, client_key="k")
    assert second.pk != first.pk and second.club_id == club_b.pk


def test_a_session_opened_without_date_or_venue_is_dated_today_with_no_venue():
    club = make_club()
    session = make_session(club, make_member(club))
    session.refresh_from_db()
    assert (session.date, session.venue) == (timezone.localdate(), "")


@pytest.mark.parametrize(
    ("variant", "players", "counts"),
    # rules/README.md: 升级 is played by 4 or 6, 标分 by 3 or 4.
    [("shengji", 5, "4 / 6"), ("biaofen", 5, "3 / 4"), ("baifen.benxi", 3, "4")],
)
def test_a_wrong_number_of_players_is_refused_naming_the_counts_allowed(variant, players, counts):
    club = make_club()
    with pytest.raises(services.LedgerError) as caught:
        make_session(club, make_member(club), variant=variant, players=[f"P{i}" for i in range(players)])
    assert (caught.value.code, caught.value.params) == ("players.count", {"counts": counts})
    assert caught.value.message("en") == f"needs {counts} players"


def test_an_unknown_variant_is_refused_naming_every_variant():
    club = make_club()
    with pytest.raises(services.LedgerError) as caught:
        make_session(club, make_member(club), variant="baifen.nowhere")
    assert caught.value.params["choices"].split(", ") == list(VARIANTS)
    assert caught.value.message("en") == "unknown variant; one of: " + ", ".join(VARIANTS)


@pytest.mark.parametrize(("players", "decks"), [(4, 2), (6, 3)])
def test_a_shengji_session_gets_the_decks_of_its_table_size(players, decks):
    # shengji.md, options: `decks` 2 (6 players: 3).
    club = make_club()
    session = make_session(club, make_member(club), variant="shengji", players=[f"P{i}" for i in range(players)])
    assert session.options["decks"] == decks
