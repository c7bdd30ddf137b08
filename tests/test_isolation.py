"""Every club route, pages and API, GET and POST, against the callers who must not get through.

The table is checked against the URLconf: a new route under a club or a
session without a row here fails `test_every_club_route_has_a_row`. Each row
is run for another club's owner (404, nothing written), the club's viewer
(403 on writes, nothing written; reads answer) and an anonymous caller (the
login page for pages, 401 for the API).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from settlement import services
from settlement.models import (
    Adjustment,
    Event,
    EventPlayer,
    EventShareLink,
    Hand,
    HandRevision,
    League,
    Player,
    PlayerEvent,
    Role,
    Round,
    Session,
)
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_player, make_session, record_hands

pytestmark = pytest.mark.django_db

READ, WRITE = "read", "write"
WEB_HAND = {"action": "record", "declarer": "2", "bid": "90", "captured": "0", "dealer": "2", "client_key": "k"}
DOCUMENT = {"variant": "baifen.benxi", "players": ["甲", "乙", "丙", "丁"], "hands": BENXI_EXAMPLE[:3]}


@dataclass(frozen=True)
class Row:
    name: str
    method: str
    kind: str  # READ: any member; WRITE: a viewer is refused
    body: Any = None


# Every route that takes a club (slug) or a session, with every method it answers.
ROUTES = [
    Row("club_home", "get", READ),
    Row("club_history", "get", READ),
    Row("player_detail", "get", READ),
    Row("standings", "get", READ),
    Row("standings_csv", "get", READ),
    Row("standings_xlsx", "get", READ),
    Row("session_new", "get", WRITE),
    Row("session_new", "post", WRITE, {"seat_0_name": "甲"}),
    Row("session_detail", "get", READ),
    Row("session_export", "get", READ),
    Row("session_close", "post", WRITE, {}),
    Row("session_close_confirm", "get", WRITE),
    Row("session_reopen", "post", WRITE, {}),
    Row("session_what_if", "get", READ),
    Row("hand_detail", "get", READ),
    Row("table", "get", READ),
    Row("table", "post", WRITE, WEB_HAND),
    Row("table_preview", "post", WRITE, {**WEB_HAND, "action": "preview"}),
    Row("table_close", "post", WRITE, {}),
    Row("table_undo", "get", WRITE),
    Row("standings_picture", "get", READ),
    Row("table_undo", "post", WRITE, {"number": "3", "revision": "1", "reason": "entered twice"}),
    Row("table_sync", "post", WRITE, {**WEB_HAND, "expected": "3"}),
    Row("share_create", "post", WRITE, {}),
    Row("share_revoke", "post", WRITE, {}),
    Row("share_card", "get", READ),
    Row("table_fix", "get", READ),
    Row("table_fix", "post", WRITE, {"action": "void", "reason": "entered twice"}),
    Row("api_club_players", "get", READ),
    Row("api_club_sessions", "get", READ),
    Row("api_club_sessions", "post", WRITE, DOCUMENT),
    Row("api_club_standings", "get", READ),
    Row("api_club_standings_csv", "get", READ),
    Row("api_player_stats", "get", READ),
    Row("api_session_detail", "get", READ),
    Row("api_session_export", "get", READ),
    Row("api_session_entry", "get", READ),
    Row("api_hand_record", "get", READ),
    Row("api_hand_record", "post", WRITE, BENXI_EXAMPLE[2]),
    Row("api_hand_preview", "post", READ, BENXI_EXAMPLE[2]),
    Row("api_hand_correct", "post", WRITE, {"hand": BENXI_EXAMPLE[0] | {"captured": 10}, "reason": "10, not 15"}),
    Row("api_hand_void", "post", WRITE, {"reason": "entered twice"}),
    Row("api_hand_revisions", "get", READ),
    Row("api_hand_detail", "get", READ),
    Row("api_session_what_if", "post", READ, {"preset": "本溪 300"}),
    Row("api_club_changes", "get", READ),
    Row("api_session_close", "post", WRITE, {}),
    Row("api_session_reopen", "post", WRITE, {}),
    Row("club_leaderboard", "get", READ),
    Row("club_records", "get", READ),
    Row("club_settings", "get", WRITE),
    Row("club_settings", "post", WRITE, {"show_achievements": "on"}),
    Row("player_rename", "post", WRITE, {"name": "新名字"}),
    Row("player_merge", "post", WRITE, {"into": "0"}),
    Row("api_club_leaderboard", "get", READ),
    Row("api_player_detail", "get", READ),
    Row("api_player_detail", "patch", WRITE, {"name": "新名字"}),
    Row("api_player_merge", "post", WRITE, {"into": 0}),
    Row("api_club_events", "post", WRITE, {"name": "周五晚", "variant": "baifen.benxi"}),
    Row("event_list", "get", READ),
    Row("event_new", "get", WRITE),
    Row("event_new", "post", WRITE, {"name": "周六晚"}),
    Row("event_detail", "get", READ),
    Row("event_check_in", "post", WRITE, {"guests": "晚到"}),
    Row("event_leave", "post", WRITE, {}),
    Row("event_pairs", "post", WRITE, {}),
    Row("event_draw", "post", WRITE, {"draw": "random"}),
    Row("event_adjust", "post", WRITE, {"kind": "penalty", "amount": "5", "reason": "超时"}),
    Row("event_finish", "get", WRITE),
    Row("event_finish", "post", WRITE, {"close_open": "on"}),
    Row("event_round_late", "post", WRITE, {"allowed": "on"}),
    Row("event_substitute", "post", WRITE, {"round_n": "1", "substitute": "李娜"}),
    Row("event_screen", "get", READ),
    Row("event_screen_live", "get", READ),
    Row("event_share_create", "post", WRITE, {}),
    Row("event_share_revoke", "post", WRITE, {}),
    Row("event_cards", "get", READ),
    Row("event_results", "get", READ),
    Row("api_club_leagues", "get", READ),
    Row("api_club_leagues", "post", WRITE, {"name": "冬季联赛", "unit": "分"}),
    Row("league_list", "get", READ),
    Row("league_new", "get", WRITE),
    Row("league_new", "post", WRITE, {"name": "冬季联赛", "unit": "分", "ranking": "sum"}),
    Row("league_detail", "get", READ),
    Row("league_event_add", "post", WRITE, {"event": "0"}),
    Row("league_event_remove", "post", WRITE, {"event": "0", "confirm": "on"}),
]
IDS = [f"{row.name}-{row.method}" for row in ROUTES]
SCOPED = {"slug", "session_id"}


def _club_routes(patterns: list[Any] | None = None) -> set[str]:
    """Names of the URLconf's routes whose path names a club or a session."""
    found: set[str] = set()
    for entry in patterns if patterns is not None else get_resolver().url_patterns:
        if isinstance(entry, URLResolver):
            found |= _club_routes(entry.url_patterns)
        elif isinstance(entry, URLPattern) and SCOPED & set(entry.pattern.regex.groupindex):
            found.add(entry.name)
    return found


def test_every_club_route_has_a_row():
    assert _club_routes() == {row.name for row in ROUTES}


@dataclass
class World:
    ours: dict[str, Any]
    theirs: dict[str, Any]
    viewer: Any
    outsider: Any  # owner of the other club


@pytest.fixture
def world() -> World:
    objects = {}
    for key in ("ours", "theirs"):
        club = make_club(slug=key)
        owner = make_member(club)
        player = make_player(club, f"player-{key}")
        session = make_session(club, owner, players=[player, "乙", "丙", "丁"])
        record_hands(session, owner, BENXI_EXAMPLE[:2])
        services.share_create(session=session, user=owner)  # so that its printable card is there to refuse
        event = services.event_create(
            club=club, user=owner, name=f"周五晚 {key}", variant="baifen.benxi", players=[f"E{i}" for i in range(8)]
        )
        services.round_draw(event=event, user=owner, draw="random", seed=1)  # its round's cards to refuse
        services.event_share_create(event=event, user=owner)  # so that there is a link to refuse to revoke
        league = services.league_create(club=club, user=owner, name=f"联赛 {key}", unit="分")
        objects[key] = {
            "club": club,
            "owner": owner,
            "player": player,
            "session": session,
            "event": event,
            "league": league,
        }
    ours = objects["ours"]
    return World(ours, objects["theirs"], make_member(ours["club"], Role.VIEWER), objects["theirs"]["owner"])


def _params(name: str) -> set[str]:
    return {param for entry in get_resolver().reverse_dict.getlist(name) for forms in entry[0] for param in forms[1]}


def _url(name: str, target: dict[str, Any], slug: str | None = None) -> str:
    """The route's URL for `target`'s objects (with `slug`: under that club's address instead)."""
    params = {
        "slug": slug or target["club"].slug,
        "session_id": target["session"].pk,
        "number": 1,
        "player_id": target["player"].pk,
        "event_id": target["event"].pk,
        "league_id": target["league"].pk,
        "n": 1,
    }
    return reverse(name, kwargs={k: v for k, v in params.items() if k in _params(name)})


def _call(client: Client, row: Row, url: str):
    if row.method == "get":
        return client.get(url)
    if row.method == "patch":
        return client.patch(url, json.dumps(row.body), content_type="application/json")
    if row.name.startswith("api_"):
        return client.post(url, json.dumps(row.body), content_type="application/json")
    return client.post(url, row.body)


def _ledger() -> tuple[int, ...]:
    return (
        Session.objects.count(),
        Session.objects.filter(status=Session.Status.CLOSED).count(),
        Hand.objects.count(),
        HandRevision.objects.count(),
        Player.objects.count(),
        PlayerEvent.objects.count(),
        tuple(Player.objects.order_by("pk").values_list("name", "merged_into")),
        Event.objects.count(),
        tuple(EventPlayer.objects.order_by("pk").values_list("player", "left")),
        Round.objects.count(),
        Adjustment.objects.count(),
        League.objects.count(),
        tuple(Event.objects.order_by("pk").values_list("league", flat=True)),
        tuple(EventShareLink.objects.order_by("pk").values_list("revoked_at", flat=True)),
    )


def _urls_for_outsider(row: Row, world: World) -> list[str]:
    """Our objects at our address, and our session or player under the outsider's own club's address."""
    urls = [_url(row.name, world.ours)]
    if {"slug"} < _params(row.name):
        urls.append(_url(row.name, world.ours, slug=world.theirs["club"].slug))
    return urls


@pytest.mark.parametrize("row", ROUTES, ids=IDS)
def test_another_clubs_owner_finds_nothing_and_changes_nothing(row, world):
    client = Client()
    client.force_login(world.outsider)
    for url in _urls_for_outsider(row, world):
        before = _ledger()
        response = _call(client, row, url)
        assert response.status_code == 404, url
        assert _ledger() == before


@pytest.mark.parametrize("row", ROUTES, ids=IDS)
def test_a_viewer_reads_but_every_write_is_refused(row, world):
    client = Client()
    client.force_login(world.viewer)
    before = _ledger()
    response = _call(client, row, _url(row.name, world.ours))
    if row.kind == WRITE:
        assert response.status_code == 403
        assert _ledger() == before
    else:
        assert response.status_code == 200, response.content[:300]


@pytest.mark.parametrize("row", ROUTES, ids=IDS)
def test_an_anonymous_caller_is_sent_to_log_in(row, world):
    before = _ledger()
    url = _url(row.name, world.ours)
    response = _call(Client(), row, url)
    if row.name.startswith("api_"):
        assert response.status_code == 401
    else:
        assert response.status_code == 302
        assert response["Location"] == f"{reverse('login')}?next={url}"
    assert _ledger() == before
