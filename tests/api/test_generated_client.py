"""A client generated from the schema with openapi-python-client drives the API on a live server.

The schema is written by `manage.py spectacular`, the client generated into a temporary folder (no
post-hooks: the generated code is used as it comes) and imported: if the schema does not say what the
server does, the generated client fails here. The evening: list the clubs, import a golden session,
record a hand with a key, replay it, correct it, void it, close the session, read the standings as JSON
and CSV, revoke the token. And for every variant: import, record, correct (into a redeal), void, the hand's
revisions and the hand list, each answer parsed into the variant's own models (the `variant` beside
`input` picks them) and giving back, whole, the JSON the server sent.
"""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from settlement.api.schema import variant_name
from settlement.models import HandRevision, Role
from settlement.rules.registry import VARIANTS
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


def _golden_by_variant() -> dict[str, dict[str, Any]]:
    """A worked session document of each variant (the first of tests/golden that is not a refusal)."""
    found: dict[str, dict[str, Any]] = {}
    for path in sorted((ROOT / "tests" / "golden").glob("*.json")):
        if not path.name.startswith("bad-"):
            document = json.loads(path.read_text(encoding="utf-8"))["input"]
            found.setdefault(document["variant"], document)
    return found


GOLDEN_BY_VARIANT = _golden_by_variant()


def test_every_variant_has_a_worked_session_to_drive():
    assert set(GOLDEN_BY_VARIANT) == set(VARIANTS)


def _utc_as_python_writes_it(value: Any) -> Any:
    """The raw JSON with each UTC time's `Z` as Python's `isoformat` writes it (`+00:00`): the same instant, as
    the generated models give a parsed time back."""
    if isinstance(value, dict):
        return {key: _utc_as_python_writes_it(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_utc_as_python_writes_it(item) for item in value]
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d\d-\d\dT[\d:.]+Z", value):
        return value[:-1] + "+00:00"
    return value


def _whole(answer: Any, model: str) -> Any:
    """The parsed answer: a `model` (the variant's own, not the first that fits) that gives back the raw JSON."""
    raw = json.loads(answer.content)
    assert type(answer.parsed).__name__ == model, (type(answer.parsed), raw)
    assert answer.parsed.to_dict() == _utc_as_python_writes_it(raw)
    return answer.parsed


def _entered(sent: dict[str, Any], stored: Any) -> bool:
    """The stored hand is the one sent (with the defaults the server fills in: the dealer, a locked declarer)."""
    return sent.items() <= stored.to_dict().items()


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.django_db(transaction=True)
def test_the_generated_client_parses_every_variants_hands_whole(generated, live_server, variant):
    club = make_club(slug="round-trip")
    _, secret = api_token_create(user=make_member(club, Role.OWNER), name="generated client")
    client = generated.AuthenticatedClient(base_url=live_server.url, token=secret, raise_on_unexpected_status=True)
    models, name = _module("models"), variant_name(variant)
    document = GOLDEN_BY_VARIANT[variant]
    *before, last = document["hands"]
    with client as http:
        body = getattr(models, f"SessionDocument{name}").from_dict({**document, "hands": before})
        imported = _module("api.sessions.club_sessions_import").sync_detailed(
            "round-trip", client=http, body=body, close=False
        )
        assert imported.status_code == 201, imported.content
        sid = imported.parsed.id
        reason = _module("api.sessions.session_entry").sync(sid, client=http).redeal_reasons[0].value

        # The document's last hand, recorded: sent whole (the variant's own model) and answered whole.
        hand = getattr(models, f"HandInput{name}{'Redeal' if 'redeal' in last else 'Scored'}").from_dict(last)
        assert hand.to_dict() == last
        recorded = _module("api.hands.hand_record").sync_detailed(sid, client=http, body=hand, idempotency_key="k1")
        written = _whole(recorded, f"HandWrite{name}")
        n = written.n
        assert (n, written.variant) == (len(document["hands"]), variant)
        assert _entered(last, written.input_)

        # Corrected into a redeal, then voided: three revisions, each typed as the variant's.
        correct = models.HandCorrect.from_dict({"hand": {"redeal": reason}, "reason": "thrown in"})
        corrected = _whole(
            _module("api.hands.hand_correct").sync_detailed(sid, n, client=http, body=correct), f"HandWrite{name}"
        )
        assert corrected.revision == 2 and _entered({"redeal": reason}, corrected.input_)
        void = models.HandVoid.from_dict({"reason": "entered twice"})
        voided = _whole(
            _module("api.hands.hand_void").sync_detailed(sid, n, client=http, body=void), f"HandWrite{name}"
        )
        assert (voided.revision, voided.is_void, voided.input_) == (3, True, None)

        revisions = _whole(_module("api.hands.hand_revisions").sync_detailed(sid, n, client=http), "RevisionPage")
        assert [type(r).__name__ for r in revisions.results] == [f"Revision{name}"] * 3
        first, second, third = revisions.results
        assert _entered(last, first.input_) and _entered({"redeal": reason}, second.input_) and third.input_ is None

        listed = _whole(_module("api.hands.hands_list").sync_detailed(sid, client=http), "HandPage")
        assert [type(h).__name__ for h in listed.results] == [f"HandListItem{name}"] * len(document["hands"])
        *kept, gone = listed.results
        assert all(_entered(sent, h.input_) for sent, h in zip(before, kept, strict=True)) and gone.input_ is None


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
