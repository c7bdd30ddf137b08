"""A club's feed rebuilt from what is stored (a restored club, migration 0017 for the clubs before the feed) is
the feed its writes appended, change for change."""

from __future__ import annotations

import importlib
import json

import pytest

from settlement import services
from settlement.ledger.changes import BACKFILL
from settlement.models import Change, Player, Session
from tests.services.test_club_backup import _club_with_history

pytestmark = pytest.mark.django_db


def _feed(club):
    """The club's changes with names and session order in place of ids (the restored club's ids differ)."""
    players = {p.pk: p.name for p in Player.objects.filter(club=club)}
    sessions = {
        pk: i
        for i, pk in enumerate(
            Session.objects.filter(club=club).order_by("created_at", "pk").values_list("pk", flat=True)
        )
    }
    out = []
    for change in Change.objects.filter(club=club).order_by("pk"):
        what = players[change.object_id] if change.kind.startswith("player.") else None
        out.append(
            (
                change.kind,
                what,
                sessions.get(change.session_id),
                change.number,
                change.revision,
                players.get(change.into_id),
            )
        )
    return out


def test_a_restored_clubs_feed_is_the_one_its_writes_appended():
    club = _club_with_history()
    written = _feed(club)
    assert [kind for kind, *_ in written].count("hand.recorded") == 8
    assert ("player.merged", "小五", None, None, None, "戊") in written
    document = json.loads(json.dumps(services.club_export(club=club)))
    restored = services.club_import(document={**document, "club": {**document["club"], "slug": "copy"}})
    assert _feed(restored) == written


def test_the_migrations_backfill_is_the_ledgers_statement_for_every_club():
    migration = importlib.import_module("settlement.migrations.0017_change_feed")
    assert BACKFILL.replace("WHERE {where}\n", "") == migration.BACKFILL
