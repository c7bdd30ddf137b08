"""Renaming and merging players (services/players.py): owners only, one transaction, audit trail, results follow."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied

from settlement import selectors, services
from settlement.ledger import LedgerError
from settlement.models import GameRow, Player, PlayerEvent, RatingRow, Role, Session, SessionSeat, SettlementRow
from settlement.services import player_merge, player_rename
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_player, make_session, make_user, record_hands

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    club = make_club()
    return club, make_member(club)


def test_an_owner_renames_a_player_and_the_trail_keeps_the_old_name(club):
    club, owner = club
    player = make_player(club, "小王")
    player_rename(player=player, user=owner, name="  王强 ", reason="his real name")
    player.refresh_from_db()
    assert player.name == "王强"
    (event,) = PlayerEvent.objects.filter(player=player)
    assert (event.kind, event.old_name, event.new_name, event.reason, event.user) == (
        "renamed",
        "小王",
        "王强",
        "his real name",
        owner,
    )


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("", "player.name_required"),
        ("   ", "player.name_required"),
        ("小王", "player.name_unchanged"),
        ("张伟", "player.name_taken"),
        ("ＺＨＡＮＧ", "player.name_taken"),  # looks like `zhang` (NFKC + case folding)
        ("x" * 61, "player.name_too_long"),
        (5, "value.not_text"),
    ],
)
def test_a_rename_is_refused_naming_the_field(club, name, code):
    club, owner = club
    make_player(club, "张伟")
    make_player(club, "zhang")
    player = make_player(club, "小王")
    with pytest.raises(LedgerError) as caught:
        player_rename(player=player, user=owner, name=name)
    assert (caught.value.code, caught.value.field) == (code, "name")
    assert not PlayerEvent.objects.exists()


@pytest.mark.parametrize("role", [Role.SCOREKEEPER, Role.VIEWER])
def test_only_an_owner_renames_or_merges(club, role):
    club, _ = club
    user = make_member(club, role)
    a, b = make_player(club, "甲"), make_player(club, "乙")
    with pytest.raises(PermissionDenied):
        player_rename(player=a, user=user, name="丙")
    with pytest.raises(PermissionDenied):
        player_merge(player=a, into=b, user=user)


@pytest.fixture
def two_records(club):
    """小王 (a guest) played one 本溪 session, 王强 another: the same person under two names."""
    club, owner = club
    guest = make_player(club, "小王", is_guest=True)
    real = make_player(club, "王强")
    first = make_session(club, owner, players=[guest, "乙", "丙", "丁"], date="2026-11-01")
    record_hands(first, owner, BENXI_EXAMPLE)
    second = make_session(club, owner, players=["乙", real, "丙", "丁"], date="2026-11-08")
    record_hands(second, owner, BENXI_EXAMPLE)
    return club, owner, guest, real, first, second


def test_a_merge_moves_every_result_to_the_survivor(two_records):
    club, owner, guest, real, _first, _second = two_records
    seats_before = SessionSeat.objects.filter(player__in=[guest, real]).count()
    rows_before = SettlementRow.objects.filter(player__in=[guest, real]).count()
    games_before = GameRow.objects.filter(player__in=[guest, real]).count()
    survivor = player_merge(player=guest, into=real, user=owner, reason="same person")
    assert survivor == real
    for model, before in ((SessionSeat, seats_before), (SettlementRow, rows_before), (GameRow, games_before)):
        assert model.objects.filter(player=guest).count() == 0
        assert model.objects.filter(player=real).count() == before
    assert not RatingRow.objects.filter(player=guest).exists()
    # Both sessions' finished 盘 now rate 王强: 2 per session (BENXI_EXAMPLE ends 盘 1 at hand 4 and 盘 2 at hand 5).
    assert RatingRow.objects.filter(player=real, family="baifen").count() == 4
    guest.refresh_from_db()
    assert guest.merged_into == real
    (event,) = PlayerEvent.objects.filter(kind="merged")
    assert (event.player, event.into, event.old_name, event.new_name, event.reason) == (
        guest,
        real,
        "小王",
        "王强",
        "same person",
    )
    assert guest not in selectors.club_players(club=club)


def test_a_merge_gives_the_ratings_a_rebuild_from_the_start_would(two_records):
    club, owner, guest, real, *_ = two_records
    player_merge(player=guest, into=real, user=owner)
    stored = list(RatingRow.objects.filter(club=club).order_by("family", "order", "player").values_list("mu", "sigma"))
    from settlement.ledger.ratings import ratings_rebuild_club

    ratings_rebuild_club(club=club)
    again = list(RatingRow.objects.filter(club=club).order_by("family", "order", "player").values_list("mu", "sigma"))
    assert again == stored


def test_a_name_of_a_merged_record_finds_the_survivor(two_records):
    club, owner, guest, real, *_ = two_records
    player_merge(player=guest, into=real, user=owner)
    session = make_session(club, owner, players=["小王", "乙", "丙", "丁"], date="2026-11-15")
    assert SessionSeat.objects.get(session=session, seat=0).player == real


def test_a_merge_refuses_two_who_sat_at_one_table(club):
    club, owner = club
    a, b = make_player(club, "甲"), make_player(club, "乙")
    session = make_session(club, owner, players=[a, b, "丙", "丁"], date="2026-11-01")
    with pytest.raises(LedgerError) as caught:
        player_merge(player=a, into=b, user=owner)
    assert (caught.value.code, caught.value.field) == ("player.merge_same_session", "into")
    assert caught.value.params == {"date": "2026-11-01", "session": session.pk}
    assert "2026-11-01" in caught.value.message("zh-Hans")
    assert not PlayerEvent.objects.exists()


def test_a_merge_refuses_itself_another_club_and_a_merged_record(club):
    club, owner = club
    a, b, c = make_player(club, "甲"), make_player(club, "乙"), make_player(club, "丙")
    elsewhere = make_player(make_club(), "甲")
    cases = [
        (a, a, "player.merge_self", "into"),
        (a, elsewhere, "player.other_club", "into"),
    ]
    for player, into, code, field in cases:
        with pytest.raises(LedgerError) as caught:
            player_merge(player=player, into=into, user=owner)
        assert (caught.value.code, caught.value.field) == (code, field)
    player_merge(player=b, into=c, user=owner)
    with pytest.raises(LedgerError) as caught:
        player_merge(player=a, into=b, user=owner)
    assert (caught.value.code, caught.value.field) == ("player.merged", "into")
    with pytest.raises(LedgerError) as caught:
        player_merge(player=b, into=a, user=owner)
    assert (caught.value.code, caught.value.field) == ("player.merged", "player")


def test_records_merged_into_a_merged_record_follow_to_the_last_survivor(club):
    club, owner = club
    a, b, c = make_player(club, "甲"), make_player(club, "乙"), make_player(club, "丙")
    player_merge(player=a, into=b, user=owner)
    player_merge(player=b, into=c, user=owner)
    assert Player.objects.get(pk=a.pk).merged_into == c


def test_a_correction_after_a_merge_still_rebuilds_the_survivors_ratings(two_records):
    _club, owner, guest, real, first, _ = two_records
    player_merge(player=guest, into=real, user=owner)
    services.hand_void(session=first, user=owner, number=5, reason="entered twice")
    assert RatingRow.objects.filter(player=real, session=first).count() == 1


LONG_AGO = datetime.datetime(2020, 1, 1, tzinfo=datetime.UTC)


@pytest.mark.parametrize(
    ("reason", "code", "params"),
    [
        (5, "value.not_text", {}),
        ("x" * 501, "value.too_long", {"limit": 500}),  # REASON_MAX, as the web forms' reason field
        ("a\x00b", "value.bad_character", {}),
    ],
)
def test_a_rename_or_merge_with_a_bad_reason_is_refused_naming_the_reason(club, reason, code, params):
    club, owner = club
    a, b = make_player(club, "甲"), make_player(club, "乙")
    for write in (
        lambda: player_rename(player=a, user=owner, name="丙", reason=reason),
        lambda: player_merge(player=a, into=b, user=owner, reason=reason),
    ):
        with pytest.raises(LedgerError) as caught:
            write()
        assert (caught.value.code, caught.value.field, caught.value.params) == (code, "reason", params)
    assert not PlayerEvent.objects.exists()
    assert Player.objects.get(pk=a.pk).name == "甲" and Player.objects.get(pk=a.pk).merged_into is None


@pytest.mark.parametrize("reason", [{}, {"reason": None}], ids=["omitted", "None"])
def test_a_reason_omitted_or_none_is_kept_as_no_reason(club, reason):
    club, owner = club
    a, b = make_player(club, "甲"), make_player(club, "乙")
    player_rename(player=a, user=owner, name="丙", **reason)
    player_merge(player=a, into=b, user=owner, **reason)
    assert [e.reason for e in PlayerEvent.objects.order_by("pk")] == ["", ""]


def test_a_taken_name_is_named_in_the_refusal_as_entered_and_cleaned(club):
    club, owner = club
    make_player(club, "zhang")
    player = make_player(club, "小王")
    with pytest.raises(LedgerError) as caught:
        player_rename(player=player, user=owner, name=" Zhang ")
    assert (caught.value.code, caught.value.params) == ("player.name_taken", {"name": "Zhang"})


def test_a_player_may_take_a_look_alike_of_their_own_name(club):
    # Only the club's other players count: "zhang" becoming "Zhang" is a new spelling of the same name.
    club, owner = club
    player = make_player(club, "zhang")
    player_rename(player=player, user=owner, name="Zhang")
    assert Player.objects.get(pk=player.pk).name == "Zhang"


def test_a_merged_record_is_not_renamed(club):
    club, owner = club
    a, b = make_player(club, "甲"), make_player(club, "乙")
    player_merge(player=a, into=b, user=owner)
    with pytest.raises(LedgerError) as caught:
        player_rename(player=a, user=owner, name="丙")
    assert (caught.value.code, caught.value.field, caught.value.params) == ("player.merged", "player", {"name": "甲"})


def test_a_rename_moves_the_players_updated_time(club):
    club, owner = club
    player = make_player(club, "甲")
    Player.objects.filter(pk=player.pk).update(updated_at=LONG_AGO)
    player_rename(player=player, user=owner, name="乙")
    assert Player.objects.get(pk=player.pk).updated_at > LONG_AGO


def test_a_merge_moves_the_updated_time_of_both_records_and_of_the_merged_ones_sessions(two_records):
    _club, owner, guest, real, first, second = two_records
    Player.objects.filter(pk__in=[guest.pk, real.pk]).update(updated_at=LONG_AGO)
    Session.objects.filter(pk__in=[first.pk, second.pk]).update(updated_at=LONG_AGO)
    player_merge(player=guest, into=real, user=owner)
    for record in (guest, real):
        assert Player.objects.get(pk=record.pk).updated_at > LONG_AGO
    assert Session.objects.get(pk=first.pk).updated_at > LONG_AGO  # the guest sat in it
    assert Session.objects.get(pk=second.pk).updated_at == LONG_AGO


@pytest.mark.parametrize(("guest_has_user", "survivor_has_user"), [(True, False), (False, True), (True, True)])
def test_a_merge_keeps_the_survivors_account_or_takes_the_merged_ones(club, guest_has_user, survivor_has_user):
    club, owner = club
    guest_user, survivor_user = make_user(), make_user()
    guest = make_player(club, "甲", user=guest_user if guest_has_user else None)
    survivor = make_player(club, "乙", user=survivor_user if survivor_has_user else None)
    player_merge(player=guest, into=survivor, user=owner)
    expected = survivor_user if survivor_has_user else guest_user
    assert Player.objects.get(pk=survivor.pk).user == expected


def test_a_merge_refused_for_a_shared_table_names_the_first_session_they_shared(club):
    club, owner = club
    a, b = make_player(club, "甲"), make_player(club, "乙")
    later = make_session(club, owner, players=[a, b, "丙", "丁"], date="2026-11-08")
    earlier = make_session(club, owner, players=[b, a, "丙", "丁"], date="2026-11-01")
    with pytest.raises(LedgerError) as caught:
        player_merge(player=a, into=b, user=owner)
    assert caught.value.params == {"date": "2026-11-01", "session": earlier.pk}
    assert later.pk != earlier.pk


def test_the_merge_trail_names_the_club_and_the_owner(two_records):
    club, owner, guest, real, *_ = two_records
    player_merge(player=guest, into=real, user=owner)
    (event,) = PlayerEvent.objects.filter(kind="merged")
    assert (event.club, event.user) == (club, owner)
    assert list(PlayerEvent.objects.filter(club=club)) == [event]


def test_of_two_shared_tables_on_one_date_the_refusal_names_the_one_opened_first(club):
    # The survivor's seat at the earlier session is written last, so only the order by session names it.
    club, owner = club
    a, b = make_player(club, "甲"), make_player(club, "乙")
    earlier = make_session(club, owner, players=[a, "戊", "丙", "丁"], date="2026-11-01")
    make_session(club, owner, players=[a, b, "丙", "丁"], date="2026-11-01")
    SessionSeat.objects.filter(session=earlier, seat=1).delete()
    SessionSeat.objects.create(session=earlier, seat=1, player=b)
    with pytest.raises(LedgerError) as caught:
        player_merge(player=a, into=b, user=owner)
    assert caught.value.params == {"date": "2026-11-01", "session": earlier.pk}
