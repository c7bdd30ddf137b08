"""A client generated from the schema with openapi-python-client drives the API on a live server.

The schema is written by `manage.py spectacular`, the client generated into a temporary folder (no
post-hooks: the generated code is used as it comes) and imported: if the schema does not say what the
server does, the generated client fails here. The evening: list the clubs, import a golden session,
record a hand with a key, replay it, correct it, void it, close the session, read the standings as JSON
and CSV, revoke the token.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from settlement.models import HandRevision, Role
from settlement.services import api_token_create
from tests.conftest import ROOT
from tests.factories import make_club, make_member

GOLDEN = ROOT / "tests" / "golden" / "baifen-benxi-300-chuguo.json"
GENERATOR = Path(sys.executable).parent / "openapi-python-client"
PACKAGE = "baifen_client"


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Any:
    """The generated client package, imported."""
    folder = tmp_path_factory.mktemp("client")
    schema, config = folder / "schema.yaml", folder / "config.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(schema))
    config.write_text("post_hooks: []\n", encoding="utf-8")
    command = ["generate", "--path", str(schema), "--output-path", str(folder / PACKAGE), "--meta", "none"]
    done = subprocess.run(
        [str(GENERATOR), *command, "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    # A schema the generator cannot fully use is a failure ("Warning(s) encountered … some pieces may be missing").
    assert done.returncode == 0 and "Warning" not in done.stdout + done.stderr, done.stdout + done.stderr
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def _module(name: str) -> Any:
    return importlib.import_module(f"{PACKAGE}.{name}")


@pytest.mark.django_db(transaction=True)
def test_the_generated_client_keeps_an_evening(generated, live_server):
    club = make_club("老年活动中心", slug="laonian")
    owner = make_member(club, Role.OWNER)
    token, secret = api_token_create(user=owner, name="generated client")
    client = generated.AuthenticatedClient(base_url=live_server.url, token=secret, raise_on_unexpected_status=True)
    with client as http:
        clubs = _module("api.clubs.clubs_list").sync(client=http)
        assert [c.slug for c in clubs.results] == ["laonian"] and clubs.results[0].role == "owner"

        # Import a golden session (8 hands of 本溪 to 300), left open for more hands.
        document = json.loads(GOLDEN.read_text(encoding="utf-8"))["input"]
        body = _module("models").SessionDocumentBaifenBenxi.from_dict(document)
        imported = _module("api.sessions.club_sessions_import").sync_detailed(
            "laonian", client=http, body=body, close=False
        )
        assert imported.status_code == 201, imported.content
        session = imported.parsed
        assert (session.hand_count, session.status) == (8, "open")
        sid = session.id

        # The next hand, from what the engine says it takes: the default dealer declares the lowest bid
        # allowed at the dealer's own place (place 0) and the capture side takes 20.
        entry = _module("api.sessions.session_entry").sync(sid, client=http)
        bid = min(rule.bid for rule in entry.bids if 0 in rule.places)
        hand = {"declarer": entry.dealer, "bid": bid, "captured": 20}
        record = _module("api.hands.hand_record")
        scored = _module("models").HandInputBaifenBenxiScored.from_dict(hand)
        first = record.sync_detailed(sid, client=http, body=scored, idempotency_key="table1-hand9")
        again = record.sync_detailed(sid, client=http, body=scored, idempotency_key="table1-hand9")
        assert first.status_code == again.status_code == 201
        assert first.parsed.n == again.parsed.n == 9 and again.headers["Idempotent-Replayed"] == "true"
        assert HandRevision.objects.filter(hand__session_id=sid, hand__number=9).count() == 1

        correct = _module("models").HandCorrect.from_dict({"hand": {**hand, "captured": 25}, "reason": "25, not 20"})
        corrected = _module("api.hands.hand_correct").sync(sid, 9, client=http, body=correct)
        assert (corrected.n, corrected.revision, corrected.is_void) == (9, 2, False)

        void = _module("models").HandVoid.from_dict({"reason": "entered twice"})
        voided = _module("api.hands.hand_void").sync(sid, 9, client=http, body=void)
        assert (voided.revision, voided.is_void) == (3, True)

        closed = _module("api.sessions.session_close").sync(sid, client=http)
        assert closed.status == "closed" and closed.closed_at is not None

        standings = _module("api.standings.club_standings").sync_detailed("laonian", client=http)
        assert standings.status_code == 200 and standings.headers["Content-Type"].startswith("application/json")
        # Grouped by family and unit, typed by the generated models: one 打百分 group of the four players.
        assert [(group.family, {row.player.name for row in group.rows}) for group in standings.parsed] == [
            ("baifen", {"甲", "乙", "丙", "丁"})
        ]
        csv = _module("api.standings.club_standings_csv").sync_detailed("laonian", client=http)
        assert csv.status_code == 200 and csv.content.startswith("\ufeff".encode())
        assert "甲" in csv.parsed

        listed = _module("api.tokens.tokens_list").sync(client=http)
        assert [t.id for t in listed.results] == [token.pk]
        revoked = _module("api.tokens.tokens_revoke").sync_detailed(token.pk, client=http)
        assert revoked.status_code == 204

    after = generated.AuthenticatedClient(base_url=live_server.url, token=secret)
    refused = _module("api.clubs.clubs_list").sync_detailed(client=after)
    assert refused.status_code == 401 and refused.parsed.code == "authentication_failed"
