"""`Idempotency-Key` on every POST and PATCH of the schema: a retry answers as the first call did and writes
nothing more, another request under the key is a 409, a key over 255 characters a 400 naming the header.

The operations are read from the served schema: a new write without a row in `WRITES` fails here."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

from settlement import services
from settlement.models import (
    Adjustment,
    ApiToken,
    Event,
    EventPlayer,
    EventShareLink,
    HandRevision,
    IdempotentAnswer,
    League,
    Player,
    PlayerEvent,
    Round,
    Session,
    SessionEvent,
    SessionSeat,
    Substitute,
)
from tests.factories import BENXI_EXAMPLE, NAMES, make_player

from .conftest import Table, assert_error

DOCUMENT = {"variant": "baifen.benxi", "players": list(NAMES), "hands": BENXI_EXAMPLE[:2], "venue": "一号桌"}
CORRECTED = {**BENXI_EXAMPLE[1], "captured": BENXI_EXAMPLE[1]["captured"] + 5}


def _session(table: Table) -> str:
    return f"/api/v1/sessions/{table.session.pk}/"


def _closed(table: Table) -> str:
    services.session_close(session=table.session, user=table.owner)
    return _session(table) + "reopen/"


def _player(table: Table) -> str:
    return f"/api/v1/clubs/laonian/players/{make_player(table.club, '戊').pk}/"


def _merge(table: Table) -> tuple[str, dict[str, Any], dict[str, Any]]:
    into = make_player(table.club, "己").pk
    return _player(table) + "merge/", {"into": into}, {"into": into, "reason": "the same person"}


EVENT = {"name": "周五晚", "variant": "baifen.benxi", "players": [f"P{i}" for i in range(8)]}


def _event(table: Table, *, drawn: bool = False) -> str:
    """An event of eight players (with a round drawn): its address."""
    client = table.client("owner")
    event = client.post("/api/v1/clubs/laonian/events/", EVENT, format="json").json()
    url = f"/api/v1/events/{event['id']}/"
    if drawn:
        assert client.post(url + "rounds/", {"draw": "random"}, format="json").status_code == 201
    return url


def _penalty(table: Table) -> tuple[str, dict[str, Any], dict[str, Any]]:
    url = _event(table, drawn=True)
    player = Event.objects.get().players.first().player_id
    body = {"player": player, "kind": "penalty", "amount": 7, "reason": "出牌超时"}
    return url + "adjustments/", body, {**body, "amount": 8}


LEAGUE = {"name": "冬季联赛", "unit": "分"}


def _league_event(table: Table) -> tuple[str, dict[str, Any], dict[str, Any]]:
    league = table.client("owner").post("/api/v1/clubs/laonian/leagues/", LEAGUE, format="json").json()
    first, second = (
        services.event_create(club=table.club, user=table.owner, name=n, variant="baifen.benxi") for n in "甲乙"
    )
    return f"/api/v1/leagues/{league['id']}/events/", {"event": first.pk}, {"event": second.pk}


def _league_event_out(table: Table) -> tuple[str, dict[str, Any], dict[str, Any]]:
    first, second = (
        services.event_create(club=table.club, user=table.owner, name=n, variant="baifen.benxi") for n in "甲乙"
    )
    league = services.league_create(club=table.club, user=table.owner, name="冬季联赛", events=[first, second])
    return f"/api/v1/leagues/{league.pk}/events/remove/", {"event": first.pk}, {"event": second.pk}


PAIRS = [[f"P{i}", f"P{i + 1}"] for i in range(0, 8, 2)]
OTHER_PAIRS = [[f"P{i}", f"P{i + 2}"] for i in (0, 1, 4, 5)]


def _substitute(table: Table) -> tuple[str, dict[str, Any], dict[str, Any]]:
    url = _event(table, drawn=True)
    absent = Event.objects.get().rounds.get().tables.first().session.seats.first().player_id
    body = {"round": 1, "absent": absent, "substitute": "李娜"}
    return url + "substitutes/", body, {**body, "substitute": "王芳"}


def _share_revoke(table: Table) -> tuple[str, dict[str, Any], dict[str, Any]]:
    url = _event(table)
    assert table.client("owner").post(url + "share/", {}, format="json").status_code == 201
    return url + "share/revoke/", {}, {"reason": "not taken"}


# operationId → (method, set-up giving the address, a body and another body)
Setup = Callable[[Table], tuple[str, Any, Any]]
WRITES: dict[str, tuple[str, Setup]] = {
    "club_sessions_import": (
        "post",
        lambda t: ("/api/v1/clubs/laonian/sessions/", DOCUMENT, {**DOCUMENT, "venue": "二号桌"}),
    ),
    "hand_record": ("post", lambda t: (_session(t) + "hands/", BENXI_EXAMPLE[2], BENXI_EXAMPLE[3])),
    "hand_preview": ("post", lambda t: (_session(t) + "hands/preview/", BENXI_EXAMPLE[2], BENXI_EXAMPLE[3])),
    "hand_correct": (
        "post",
        lambda t: (
            _session(t) + "hands/2/correct/",
            {"hand": CORRECTED, "reason": "5 more"},
            {"hand": CORRECTED, "reason": "x"},
        ),
    ),
    "hand_void": ("post", lambda t: (_session(t) + "hands/2/void/", {"reason": "twice"}, {"reason": "entered twice"})),
    "session_close": ("post", lambda t: (_session(t) + "close/", {}, {"reason": "not taken"})),
    "session_reopen": ("post", lambda t: (_closed(t), {}, {"reason": "not taken"})),
    "session_what_if": ("post", lambda t: (_session(t) + "what-if/", {"preset": "本溪 300"}, {"preset": "本溪 205"})),
    "tokens_create": ("post", lambda t: ("/api/v1/tokens/", {"name": "sheet"}, {"name": "phone"})),
    "player_rename": ("patch", lambda t: (_player(t), {"name": "王强"}, {"name": "王刚"})),
    "player_merge": ("post", _merge),
    "club_event_create": (
        "post",
        lambda t: ("/api/v1/clubs/laonian/events/", EVENT, {**EVENT, "name": "周六晚"}),
    ),
    "event_check_in": ("post", lambda t: (_event(t) + "players/", {"players": ["晚到"]}, {"players": ["又一个"]})),
    "event_round_draw": ("post", lambda t: (_event(t) + "rounds/", {"draw": "random"}, {"draw": "balanced"})),
    "event_adjustment_add": ("post", _penalty),
    "club_league_create": (
        "post",
        lambda t: ("/api/v1/clubs/laonian/leagues/", LEAGUE, {**LEAGUE, "name": "夏季联赛"}),
    ),
    "league_event_add": ("post", _league_event),
    "league_event_remove": ("post", _league_event_out),
    "event_pairs_set": ("post", lambda t: (_event(t) + "pairs/", {"pairs": PAIRS}, {"pairs": OTHER_PAIRS})),
    "event_substitute_add": ("post", _substitute),
    "event_finish": ("post", lambda t: (_event(t, drawn=True) + "finish/", {"close_open": True}, {})),
    "event_round_late": (
        "post",
        lambda t: (_event(t, drawn=True) + "rounds/1/late/", {"allowed": True}, {"allowed": False}),
    ),
    "event_share_create": ("post", lambda t: (_event(t) + "share/", {}, {"reason": "not taken"})),
    "event_share_revoke": ("post", _share_revoke),
}


def _schema_writes() -> list[str]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return sorted(
        op["operationId"]
        for item in schema["paths"].values()
        for method, op in item.items()
        if method in ("post", "patch")
    )


SCHEMA_WRITES = _schema_writes()


def _ledger() -> tuple[Any, ...]:
    """What the writes above change, to see that a replay writes nothing."""
    return (
        Session.objects.count(),
        sorted(Session.objects.values_list("status", flat=True)),
        HandRevision.objects.count(),
        ApiToken.objects.count(),
        sorted(Player.objects.values_list("name", "merged_into")),
        SessionEvent.objects.count(),
        PlayerEvent.objects.count(),
        Event.objects.count(),
        EventPlayer.objects.count(),
        Round.objects.count(),
        Adjustment.objects.count(),
        League.objects.count(),
        sorted(Event.objects.values_list("pk", "league")),
        sorted(Event.objects.values_list("pk", "pairs")),
        Substitute.objects.count(),
        sorted(SessionSeat.objects.values_list("session_id", "seat", "player_id")),
        sorted(EventShareLink.objects.values_list("token", "revoked_at")),
    )


def _prepared(table: Table, operation: str) -> tuple[str, Any, Any]:
    """The operation's address and bodies, its set-up (a player made, a session closed) run once."""
    if id(table) not in _sent:
        _sent[id(table)] = WRITES[operation][1](table)
    return _sent[id(table)]


def _send(table: Table, operation: str, *, key: str, other: bool = False, lang: str = "en") -> Any:
    method = WRITES[operation][0]
    url, body, other_body = _prepared(table, operation)
    client = table.client("owner", lang=lang)
    return getattr(client, method)(url, other_body if other else body, format="json", HTTP_IDEMPOTENCY_KEY=key)


_sent: dict[int, tuple[str, Any, Any]] = {}


@pytest.fixture(autouse=True)
def _fresh_setups():
    _sent.clear()
    yield
    _sent.clear()


def test_every_write_of_the_schema_has_a_row_here():
    assert sorted(WRITES) == SCHEMA_WRITES


@pytest.mark.parametrize("operation", SCHEMA_WRITES)
def test_a_retry_under_the_key_answers_as_the_first_call_and_writes_nothing(table, operation):
    _prepared(table, operation)
    first = _send(table, operation, key="retry-1")
    assert 200 <= first.status_code < 300, first.content
    assert "Idempotent-Replayed" not in first
    after = _ledger()
    again = _send(table, operation, key="retry-1")
    assert (again.status_code, again.content) == (first.status_code, first.content)
    assert again["Idempotent-Replayed"] == "true"
    assert again.get("Location") == first.get("Location")
    assert _ledger() == after


@pytest.mark.parametrize("operation", SCHEMA_WRITES)
def test_another_request_under_the_key_is_a_409_naming_the_header(table, operation):
    assert 200 <= _send(table, operation, key="retry-2").status_code < 300
    after = _ledger()
    response = _send(table, operation, key="retry-2", other=True)
    assert response.status_code == 409, response.content
    assert (response.json()["code"], response.json()["field"]) == ("client_key.reused", "Idempotency-Key")
    assert _ledger() == after


@pytest.mark.parametrize("operation", SCHEMA_WRITES)
def test_a_key_of_256_characters_is_a_400_naming_the_header(table, operation):
    _prepared(table, operation)
    before = _ledger()
    response = _send(table, operation, key="k" * 256)
    assert_error(response, 400, "client_key.invalid", field="Idempotency-Key")
    assert "255" in response.json()["message"]
    assert _ledger() == before


def test_a_key_of_255_characters_is_taken(table):
    first = _send(table, "tokens_create", key="k" * 255)
    again = _send(table, "tokens_create", key="k" * 255)
    assert (first.status_code, again.status_code) == (201, 201) and again["Idempotent-Replayed"] == "true"
    assert ApiToken.objects.count() == 1


def test_a_correction_retried_without_its_revision_replays_instead_of_hand_unchanged(table):
    first = _send(table, "hand_correct", key="fix-2")
    assert first.status_code == 200
    assert _send(table, "hand_correct", key="fix-2").content == first.content
    # Without a key the same retry is refused: the hand is already so.
    url, body, _ = _sent[id(table)]
    assert_error(table.client("owner").post(url, body, format="json"), 400, "hand.unchanged", hand=2, field="hand")


def test_the_same_request_spelled_another_way_is_the_same_request(table):
    url = "/api/v1/tokens/"
    client = table.client("owner")
    first = client.post(url, '{"name": "sheet"}', content_type="application/json", HTTP_IDEMPOTENCY_KEY="k")
    again = client.post(url, '{ "name":"sheet" }', content_type="application/json", HTTP_IDEMPOTENCY_KEY="k")
    assert again["Idempotent-Replayed"] == "true" and again.content == first.content


@pytest.mark.parametrize(
    ("age", "replayed"), [(datetime.timedelta(hours=23), True), (datetime.timedelta(hours=25), False)]
)
def test_an_answer_is_kept_at_least_a_day(table, age, replayed):
    assert _send(table, "tokens_create", key="daily").status_code == 201
    IdempotentAnswer.objects.update(created_at=IdempotentAnswer.objects.get().created_at - age)
    again = _send(table, "tokens_create", key="daily")
    assert again.status_code == 201 and ("Idempotent-Replayed" in again) is replayed
    assert ApiToken.objects.count() == (1 if replayed else 2)


def test_keys_are_each_users_own(table):
    url, body = "/api/v1/tokens/", {"name": "sheet"}
    for who in ("owner", "scorekeeper"):
        response = table.client(who).post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="mine")
        assert response.status_code == 201 and "Idempotent-Replayed" not in response


def test_a_refusal_is_not_kept_so_a_retry_runs_again(table):
    url = _session(table) + "hands/9/void/"
    client = table.client("owner")
    assert client.post(url, {"reason": "x"}, format="json", HTTP_IDEMPOTENCY_KEY="v9").status_code == 404
    assert not IdempotentAnswer.objects.exists()


def test_a_reused_key_is_refused_in_the_users_language(table):
    _send(table, "tokens_create", key="zh")
    response = _send(table, "tokens_create", key="zh", other=True, lang="zh-hans")
    assert_error(response, 409, "client_key.reused", field="Idempotency-Key")
    assert response.json()["message"] == "这个 Idempotency-Key 已用于另一个请求"
