"""Backups: `backup` copies a SQLite database while it serves; `club_export` / `club_import` carry a club
with its whole history (hand numbers, void hands, every revision) into an empty database."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import connection

from settlement import services
from settlement.ledger import LedgerError, log_deletes_allowed
from settlement.models import (
    Club,
    GameRow,
    Hand,
    HandRevision,
    Membership,
    Player,
    PlayerEvent,
    Role,
    Session,
    SessionEvent,
    SettlementRow,
)
from settlement.selectors import hand_history, session_results, session_verify
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_player, make_session, record_hands


def _club_with_history():
    """Three sessions of one club: corrections by two people, a void, a session closed, reopened and closed
    again, client keys, a player renamed and a guest merged into the player he turned out to be."""
    club = make_club("百分俱乐部", slug="baifen-club")
    owner = make_member(club, user=User.objects.create_user(username="laowang"))
    keeper = make_member(club, Role.SCOREKEEPER, user=User.objects.create_user(username="xiaoli"))
    first = make_session(club, owner, venue="一号桌", players=["甲", "乙", "丙", "丁"])
    record_hands(first, keeper, BENXI_EXAMPLE[:4])
    services.hand_record(session=first, user=keeper, hand_input=BENXI_EXAMPLE[4], client_key="tap-5")
    services.hand_correct(
        session=first, user=keeper, number=2, hand_input={**BENXI_EXAMPLE[1], "captured": 25}, reason="数错了"
    )
    services.hand_correct(session=first, user=owner, number=2, hand_input=BENXI_EXAMPLE[1], reason="原来是对的")
    services.hand_void(session=first, user=owner, number=5, reason="重复录入")
    services.session_close(session=first, user=owner)
    services.session_reopen(session=first, user=owner)
    services.session_close(session=first, user=keeper)
    second = make_session(club, keeper, players=["甲", "乙", "丙", "戊"])
    record_hands(second, keeper, BENXI_EXAMPLE[:2])
    third = make_session(club, keeper, players=["甲", "乙", "丙", "小五"])
    record_hands(third, keeper, BENXI_EXAMPLE[:1])
    services.player_rename(player=Player.objects.get(club=club, name="丁"), user=owner, name="丁丁", reason="全名")
    services.player_merge(
        player=Player.objects.get(club=club, name="小五"),
        into=Player.objects.get(club=club, name="戊"),
        user=owner,
        reason="同一个人",
    )
    return club


def _snapshot(club):
    """Everything the restore must reproduce, as plain values (no ids)."""
    sessions = []
    for session in Session.objects.filter(club=club).order_by("created_at", "pk"):
        sessions.append(
            {
                "fields": (session.date, session.venue, session.variant, session.options, session.status),
                "closed_at": session.closed_at,
                "events": list(session.events.order_by("created_at", "pk").values_list("kind", "user__username")),
                "event_times": list(session.events.order_by("created_at", "pk").values_list("created_at", flat=True)),
                "opened": (session.created_at, session.created_by.username, session.client_key, session.client_digest),
                "results": session_results(session=session, lang="en").results,
                "history": [
                    (r.hand, r.number, r.input, r.is_void, r.reason, r.author, r.created_at)
                    for r in hand_history(session=session)
                ],
                "hands": list(Hand.objects.filter(session=session).values_list("number", "client_key", "created_at")),
                "settlement": list(
                    SettlementRow.objects.filter(session=session)
                    .order_by("number", "seat")
                    .values_list("number", "seat", "player__name", "game", "delta", "total", "is_declarer")
                ),
                "games": list(
                    GameRow.objects.filter(session=session)
                    .order_by("game", "seat")
                    .values_list("game", "seat", "player__name", "finished", "won", "adjustment", "total")
                ),
            }
        )
    return {
        "club": (club.name, club.created_at),
        "members": sorted(club.memberships.values_list("user__username", "role")),
        "sessions": sessions,
        "players": sorted(Player.objects.filter(club=club).values_list("name", "is_guest", "merged_into__name")),
        "accounts": sorted(Player.objects.filter(club=club).values_list("name", "user__username", "created_at")),
        "player_events": list(
            PlayerEvent.objects.filter(club=club)
            .order_by("created_at", "pk")
            .values_list("player__name", "kind", "old_name", "new_name", "into__name", "reason", "user__username")
        ),
        "player_event_times": list(
            PlayerEvent.objects.filter(club=club).order_by("created_at", "pk").values_list("created_at", flat=True)
        ),
    }


@pytest.mark.django_db(transaction=True)
def test_a_club_exported_then_imported_into_an_empty_database_has_the_same_history_and_results(tmp_path):
    club = _club_with_history()
    before = _snapshot(club)
    # Worked by hand from rules/baifen.md's example: hand 5 is void, hands 1-4 (B wins 盘 1) stand.
    first = before["sessions"][0]
    assert [h[0] for h in first["hands"]] == [1, 2, 3, 4, 5]
    assert [h["n"] for h in first["results"]["hands"]] == [1, 2, 3, 4]
    assert [r[:2] for r in first["history"]] == [(1, 1), (2, 1), (2, 2), (2, 3), (3, 1), (4, 1), (5, 1), (5, 2)]
    assert first["events"] == [("closed", "laowang"), ("reopened", "laowang"), ("closed", "xiaoli")]
    assert before["player_events"] == [
        ("丁丁", "renamed", "丁", "丁丁", None, "全名", "laowang"),
        ("小五", "merged", "小五", "戊", "戊", "同一个人", "laowang"),
    ]
    assert ("小五", True, "戊") in before["players"]

    path = tmp_path / "club.json"
    call_command("club_export", "baifen-club", str(path), stderr=StringIO())
    call_command("flush", interactive=False, verbosity=0)
    assert (Club.objects.count(), User.objects.count(), HandRevision.objects.count()) == (0, 0, 0)

    out = StringIO()
    call_command("club_import", str(path), stdout=out)
    assert out.getvalue() == "baifen-club: 3 sessions, 8 hands restored\n"
    restored = Club.objects.get(slug="baifen-club")
    assert restored.name == "百分俱乐部"
    assert _snapshot(restored) == before
    assert all(session_verify(session=s) == [] for s in Session.objects.filter(club=restored))
    # The people come back as accounts an administrator has to activate, with their roles.
    assert sorted(User.objects.values_list("username", "is_active")) == [("laowang", False), ("xiaoli", False)]
    assert not User.objects.get(username="laowang").has_usable_password()
    assert sorted(restored.memberships.values_list("user__username", "role")) == [
        ("laowang", "owner"),
        ("xiaoli", "scorekeeper"),
    ]


@pytest.mark.django_db
def test_the_export_carries_every_revision_with_who_when_why_and_void():
    club = _club_with_history()
    document = json.loads(json.dumps(services.club_export(club=club)))
    first = document["sessions"][0]
    # players by their names now: 丁 was renamed 丁丁 after the session
    assert (first["status"], first["venue"], first["players"]) == ("closed", "一号桌", ["甲", "乙", "丙", "丁丁"])
    assert [(e["kind"], e["user"]) for e in first["events"]] == [
        ("closed", "laowang"),
        ("reopened", "laowang"),
        ("closed", "xiaoli"),
    ]
    assert {p["name"]: p["merged_into"] for p in document["players"]}["小五"] == "戊"
    assert [(e["player"], e["kind"], e["into"]) for e in document["player_events"]] == [
        ("丁丁", "renamed", None),
        ("小五", "merged", "戊"),
    ]
    assert [(r["author"], r["reason"], r["void"]) for r in first["hands"][1]["revisions"]] == [
        ("xiaoli", "", False),
        ("xiaoli", "数错了", False),
        ("laowang", "原来是对的", False),
    ]
    assert first["hands"][1]["revisions"][1]["input"]["captured"] == 25
    assert first["hands"][4]["client_key"] == "tap-5"
    assert first["hands"][4]["revisions"][1] | {"created_at": None} == {
        "number": 2,
        "author": "laowang",
        "created_at": None,
        "reason": "重复录入",
        "input": None,
        "void": True,
    }


@pytest.mark.django_db
def test_a_version_1_export_without_the_trails_still_restores():
    document = json.loads(json.dumps(services.club_export(club=_club_with_history())))
    document = {**document, "version": 1, "club": {**document["club"], "slug": "old-copy"}}
    del document["player_events"]
    for player in document["players"]:
        del player["merged_into"]
    for session in document["sessions"]:
        del session["events"]
        del session["client_digest"]
    restored = services.club_import(document=document)
    # no digest is the model's empty one, as for a session opened rather than imported
    assert set(Session.objects.filter(club=restored).values_list("client_digest", flat=True)) == {""}
    assert Hand.objects.filter(session__club=restored).count() == 8
    assert not PlayerEvent.objects.filter(club=restored).exists()
    assert not Player.objects.filter(club=restored, merged_into__isnull=False).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "code", "field", "params"),
    [
        (lambda doc: doc, "club.exists", "club.slug", {"slug": "baifen-club"}),
        (
            lambda doc: {**doc, "format": "something-else"},
            "document.invalid",
            "document",
            {"detail": "ValueError(\"format 'something-else' version 2\")"},
        ),
        (
            lambda doc: {**doc, "version": 3},
            "document.invalid",
            "document",
            {"detail": "ValueError(\"format 'baifen-ledger-club' version 3\")"},
        ),
        (
            lambda doc: {**doc, "club": {**doc["club"], "slug": "copy", "created_at": "2026-11-01T20:00:00"}},
            "document.invalid",
            "document",
            {"detail": "ValueError('time without a time zone: 2026-11-01T20:00:00')"},
        ),
        (
            lambda doc: {**doc, "club": {**doc["club"], "slug": "copy"}, "sessions": [{}]},
            "document.invalid",
            "document",
            None,
        ),
    ],
    ids=["slug-taken", "wrong-format", "wrong-version", "naive-time", "broken-session"],
)
def test_an_import_that_cannot_be_restored_writes_nothing_and_says_why(change, code, field, params):
    # The refusal names what was found: the message is "this is not a club export: {detail}".
    club = _club_with_history()
    document = change(services.club_export(club=club))
    counts = (Club.objects.count(), Session.objects.count(), HandRevision.objects.count())
    with pytest.raises(LedgerError) as refused:
        services.club_import(document=document)
    assert (refused.value.code, refused.value.field) == (code, field)
    if params is not None:
        assert refused.value.params == params
    else:
        assert refused.value.params["detail"].startswith("KeyError(")
    assert (Club.objects.count(), Session.objects.count(), HandRevision.objects.count()) == counts


@pytest.mark.django_db
def test_an_import_under_another_slug_sits_beside_the_original():
    club = _club_with_history()
    document = services.club_export(club=club)
    document["club"]["slug"] = "baifen-club-copy"
    copy = services.club_import(document=document)
    assert _snapshot(copy) == _snapshot(club)


@pytest.mark.skipif(connection.vendor != "sqlite", reason="backup copies SQLite databases")
@pytest.mark.django_db(transaction=True)
def test_backup_writes_a_consistent_copy_of_the_sqlite_database(tmp_path):
    club = make_club()
    owner = make_member(club)
    record_hands(make_session(club, owner), owner, BENXI_EXAMPLE)
    out = StringIO()
    call_command("backup", str(tmp_path / "backups"), stdout=out)
    copy_path = out.getvalue().strip()
    assert copy_path.startswith(str(tmp_path / "backups")) and copy_path.endswith(".sqlite3")
    assert stat.S_IMODE(os.stat(copy_path).st_mode) == 0o600  # password hashes and session keys: the owner's only
    copy = sqlite3.connect(copy_path)
    try:
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert copy.execute("SELECT count(*) FROM settlement_handrevision").fetchone() == (5,)
        # The copy keeps the log's protection.
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            copy.execute("DELETE FROM settlement_hand")
    finally:
        copy.close()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the refusal is PostgreSQL's")
def test_backup_on_postgresql_refuses_and_points_at_pg_dump(tmp_path):
    with pytest.raises(CommandError, match="pg_dump --format=custom"):
        call_command("backup", str(tmp_path))
    assert not any(tmp_path.iterdir())


@pytest.mark.django_db
def test_an_import_retried_after_a_restore_is_still_the_same_import():
    club = make_club(slug="night")
    owner = make_member(club)
    document = {"variant": "baifen.benxi", "players": ["甲", "乙", "丙", "丁"], "hands": BENXI_EXAMPLE[:2]}
    services.session_import(club=club, user=owner, document=document, client_key="night-1")
    exported = json.loads(json.dumps(services.club_export(club=club)))
    restored = services.club_import(document={**exported, "club": {**exported["club"], "slug": "night-copy"}})
    retry = services.session_import(club=restored, user=owner, document=document, client_key="night-1")
    assert retry.created is False and retry.session.club == restored
    with pytest.raises(LedgerError) as caught:
        services.session_import(club=restored, user=owner, document={**document, "hands": []}, client_key="night-1")
    assert caught.value.code == "client_key.reused"


@pytest.mark.django_db
def test_people_who_left_the_club_come_back_with_what_they_did_but_not_as_members():
    # Each of these did one thing only, then left (their membership deleted): the restore must still find the
    # account for every record that names one, whichever part of the document names it.
    club = make_club(slug="leavers")
    make_member(club, user=User.objects.create_user(username="laowang"))
    make_member(club, Role.VIEWER, user=User.objects.create_user(username="kanke"))  # a member, nothing else
    jia = User.objects.create_user(username="jia")  # only the account of the player 甲, never a member
    make_player(club, "甲", user=jia)
    opener, recorder, closer, renamer = (
        make_member(club, role, user=User.objects.create_user(username=name))
        for name, role in [
            ("kaiju", Role.SCOREKEEPER),
            ("jilu", Role.SCOREKEEPER),
            ("guanju", Role.SCOREKEEPER),
            ("gaiming", Role.OWNER),
        ]
    )
    session = make_session(club, opener, players=["甲", "乙", "丙", "丁"])
    record_hands(session, recorder, BENXI_EXAMPLE[:2])
    services.session_close(session=session, user=closer)
    services.player_rename(player=Player.objects.get(club=club, name="乙"), user=renamer, name="乙乙", reason="")
    club.memberships.filter(user__in=[opener, recorder, closer, renamer]).delete()
    before = _snapshot(club)
    assert before["members"] == [("kanke", "viewer"), ("laowang", "owner")]
    assert ("甲", "jia") in [account[:2] for account in before["accounts"]]
    assert before["sessions"][0]["opened"][1] == "kaiju"
    assert {r[5] for r in before["sessions"][0]["history"]} == {"jilu"}
    assert before["sessions"][0]["events"] == [("closed", "guanju")]
    assert [e[-1] for e in before["player_events"]] == ["gaiming"]

    document = json.loads(json.dumps(services.club_export(club=club)))
    copy = services.club_import(document={**document, "club": {**document["club"], "slug": "leavers-copy"}})
    assert _snapshot(copy) == before


@pytest.mark.django_db
def test_the_export_of_a_restored_club_lists_everything_oldest_first_whatever_order_it_was_restored_in():
    # Restored from a document listing sessions, their events, players and the players' trail newest first,
    # the copy's rows are written (and numbered) in that reversed order; its export still lists them by time,
    # so it is the export the copy was made from.
    exported = json.loads(json.dumps(services.club_export(club=_club_with_history())))
    assert len(exported["sessions"]) == 3 and len(exported["sessions"][0]["events"]) == 3
    assert len(exported["players"]) >= 2 and len(exported["player_events"]) == 2
    reversed_document = {
        **exported,
        "club": {**exported["club"], "slug": "reversed"},
        "sessions": [{**s, "events": s["events"][::-1]} for s in exported["sessions"][::-1]],
        "players": exported["players"][::-1],
        "player_events": exported["player_events"][::-1],
    }
    copy = services.club_import(document=reversed_document)
    assert json.loads(json.dumps(services.club_export(club=copy))) == {
        **exported,
        "club": {**exported["club"], "slug": "reversed"},
    }


@pytest.mark.django_db
@pytest.mark.parametrize("more", [False, True])
def test_exporting_a_club_costs_no_query_per_hand_revision_event_player_or_member(more, django_assert_num_queries):
    """The session events, the sessions, then each session's seats and revisions (`log_load`: two), the players, the
    player trail and the members: each read with the accounts and players it names, not a query per row."""
    club = _club_with_history()
    first = Session.objects.get(club=club, venue="一号桌")
    if more:  # more hands, revisions, events, players, accounts, members and trail in the same three sessions
        guest_owner = make_member(club, Role.SCOREKEEPER, user=User.objects.create_user(username="xiaozhao"))
        services.session_reopen(session=first, user=Membership.objects.get(club=club, role=Role.OWNER).user)
        record_hands(first, guest_owner, BENXI_EXAMPLE[:3])
        services.hand_correct(session=first, user=guest_owner, number=7, hand_input=BENXI_EXAMPLE[0], reason="再改")
        make_player(club, "老周", user=guest_owner)
        services.player_rename(
            player=Player.objects.get(club=club, name="甲"), user=first.created_by, name="甲甲", reason="全名"
        )
    sessions = Session.objects.filter(club=club).count()
    assert sessions == 3
    with django_assert_num_queries(2 + 2 * sessions + 3):
        services.club_export(club=club)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite keeps rows in the order they were made")
@pytest.mark.django_db
def test_rows_made_at_the_same_moment_export_in_the_order_they_were_made():
    """Two rows of one `created_at` are listed by id. PostgreSQL writes an updated row anew after the others, so
    a row touched since comes back second among equals unless the export orders by id as well."""
    club = make_club()
    owner = make_member(club)
    first = make_session(club, owner, venue="一号桌", players=["甲", "乙", "丙", "丁"])
    make_session(club, owner, venue="二号桌", players=["甲", "乙", "丙", "戊"])
    services.session_close(session=first, user=owner)
    services.session_reopen(session=first, user=owner)
    jia = Player.objects.get(club=club, name="甲")
    services.player_rename(player=jia, user=owner, name="甲一", reason="")
    services.player_rename(player=jia, user=owner, name="甲二", reason="")
    moment = first.created_at
    for model, rows in [
        (Session, Session.objects.filter(club=club)),
        (SessionEvent, SessionEvent.objects.filter(session=first)),
        (Player, Player.objects.filter(club=club, name__in=["甲二", "乙"])),
        (PlayerEvent, PlayerEvent.objects.filter(club=club)),
    ]:
        ids = sorted(rows.values_list("pk", flat=True))
        assert len(ids) == 2, model
        if model in (SessionEvent, PlayerEvent):
            # The trails refuse UPDATE even to the database's maintenance path: both rows are made anew at the
            # moment, with their ids, the older one written after the other.
            both = {fields["id"]: fields for fields in model.objects.filter(pk__in=ids).values()}
            with log_deletes_allowed():
                model.objects.filter(pk__in=ids).delete()
            for pk in reversed(ids):
                model.objects.create(**{**both[pk], "created_at": moment})
        else:
            model.objects.filter(pk__in=ids).update(created_at=moment)
            model.objects.filter(pk=ids[0]).update(created_at=moment)  # the older row, written again after the other

    document = services.club_export(club=club)
    assert [session["venue"] for session in document["sessions"]] == ["一号桌", "二号桌"]
    assert [event["kind"] for event in document["sessions"][0]["events"]] == ["closed", "reopened"]
    assert [p["name"] for p in document["players"] if p["name"] in ("甲二", "乙")] == ["甲二", "乙"]
    assert [e["new_name"] for e in document["player_events"]] == ["甲一", "甲二"]
