"""The import's fast path (`ledger/bulk.py`): the same rows as model instances and `bulk_create` would write."""

from __future__ import annotations

import gc
import json

import pytest
from django.forms.models import model_to_dict

from settlement import services
from settlement.ledger.bulk import gc_paused, rows_insert
from settlement.models import GameRow, Hand, HandRevision, HandState, Session, SettlementRow
from settlement.selectors.integrity import session_verify
from tests.conftest import SHARED_GOLDEN
from tests.factories import make_club, make_member

pytestmark = pytest.mark.django_db

GOLDEN = [
    path for path in sorted(SHARED_GOLDEN.glob("*.json")) if "expect" in json.loads(path.read_text(encoding="utf-8"))
]


def _rows(session: Session) -> dict[str, list[dict]]:
    """Every row the import writes for `session`, without the ids the database hands out."""
    hands = list(Hand.objects.filter(session=session).order_by("number"))
    numbers = {hand.pk: hand.number for hand in hands}

    def plain(rows, *drop):
        out = []
        for row in rows:
            values = model_to_dict(row)
            for name in ("id", "session", "hand", "player", *drop):
                values.pop(name, None)
            if hasattr(row, "hand_id"):
                values["hand_number"] = numbers[row.hand_id]
            if hasattr(row, "player_id"):
                values["seat_player"] = row.player_id
            out.append(values)
        return out

    return {
        "hands": plain(hands),
        "revisions": plain(HandRevision.objects.filter(hand__session=session).order_by("hand__number"), "author"),
        "settlement": plain(SettlementRow.objects.filter(session=session).order_by("number", "seat")),
        "games": plain(GameRow.objects.filter(session=session).order_by("game", "seat")),
        "states": plain(HandState.objects.filter(session=session).order_by("number")),
    }


@pytest.mark.parametrize("path", GOLDEN, ids=lambda path: path.stem)
def test_an_imported_session_holds_the_rows_a_rebuild_from_its_log_writes(path):
    club = make_club()
    owner = make_member(club)
    document = json.loads(path.read_text(encoding="utf-8"))["input"]
    session = services.session_import(club=club, user=owner, document=document).session
    imported = _rows(session)
    assert len(imported["hands"]) == len(document["hands"])
    assert all(r["number"] == 1 and not r["is_void"] and r["reason"] == "" for r in imported["revisions"])
    assert all(h["client_key"] == "" for h in imported["hands"])
    assert session_verify(session=session) == []  # the replay's rows, field by field
    # The model-instance path (`bulk_create` of `derived.derived_rows`) writes the very same derived rows.
    services.session_derived_rebuild(session=session)
    rebuilt = _rows(session)
    for kind in ("settlement", "games", "states"):
        assert rebuilt[kind] == imported[kind], kind


def test_an_insert_fills_the_columns_it_is_not_given_with_their_defaults():
    club = make_club()
    owner = make_member(club)
    session = services.session_open(club=club, user=owner, variant="baifen.benxi", players=["甲", "乙", "丙", "丁"])
    rows_insert(Hand, ("session_id", "number"), [(session.pk, 1), (session.pk, 2)])
    hands = list(Hand.objects.filter(session=session).order_by("number"))
    assert [(h.number, h.client_key) for h in hands] == [(1, ""), (2, "")]
    assert all(h.created_at is not None for h in hands)  # timezone.now, the field's default


def test_an_insert_naming_a_column_the_model_lacks_is_refused():
    with pytest.raises(ValueError, match="no column"):
        rows_insert(Hand, ("session_id", "numbr"), [])


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_paused_for_the_block_and_left_as_it_was_even_after_an_error(enabled):
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        with pytest.raises(RuntimeError), gc_paused():
            assert not gc.isenabled()
            raise RuntimeError("the import failed")
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_an_import_leaves_the_collector_running():
    club = make_club()
    owner = make_member(club)
    document = {"variant": "baifen.benxi", "players": ["甲", "乙", "丙", "丁"], "hands": [{"redeal": "all_pass"}]}
    services.session_import(club=club, user=owner, document=document)
    assert gc.isenabled()
