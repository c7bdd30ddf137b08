"""The OpenAPI schema validates with no warnings, and the seed command CI's schemathesis run relies on."""

from __future__ import annotations

import io

import pytest
import yaml
from django.core.management import call_command
from rest_framework.authtoken.models import Token

from settlement.api.schema import BEFORE_THE_API
from settlement.models import Club, Event, League, Session

from .conftest import assert_error, client_for


def test_the_schema_validates_without_a_warning(tmp_path):
    # --fail-on-warn exits non-zero on any warning (an unannotated view, a guessed type …).
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yaml"))
    schema = yaml.safe_load((tmp_path / "schema.yaml").read_text(encoding="utf-8"))
    operations = {op["operationId"] for path in schema["paths"].values() for op in path.values()}
    assert operations == {
        "clubs_list",
        "club_players_list",
        "club_sessions_list",
        "club_sessions_import",
        "club_standings",
        "player_stats",
        "session_retrieve",
        "session_export",
        "session_entry",
        "session_close",
        "session_reopen",
        "session_what_if",
        "club_changes",
        "event_retrieve",
        "hand_revisions",
        "tokens_list",
        "club_standings_csv",
        "tokens_create",
        "tokens_revoke",
        "token_retrieve",
        "variants_list",
        "hand_record",
        "hands_list",
        "hand_retrieve",
        "hand_preview",
        "hand_correct",
        "hand_void",
        "club_leaderboard",
        "player_detail",
        "player_rename",
        "player_merge",
        "club_event_create",
        "event_check_in",
        "event_pairs_set",
        "event_round_draw",
        "event_adjustment_add",
        "event_standings",
        "club_leagues_list",
        "club_league_create",
        "league_retrieve",
        "league_event_add",
        "league_event_remove",
        "league_standings",
        "event_finish",
        "event_round_late",
        "event_substitute_add",
        "event_share_create",
        "event_share_revoke",
    }
    # Every operation documents the one error shape for the caller who is not logged in.
    for path in schema["paths"].values():
        for op in path.values():
            assert op["responses"]["401"]["content"]["application/json"]["schema"] == {
                "$ref": "#/components/schemas/Error"
            }


@pytest.mark.django_db
def test_api_seed_prints_a_working_token_and_runs_twice_without_adding_anything():
    out = io.StringIO()
    call_command("api_seed", stdout=out)
    key = out.getvalue().strip()
    counts = (Club.objects.count(), Session.objects.count())
    again = io.StringIO()
    call_command("api_seed", stdout=again)
    assert again.getvalue().strip() == key == Token.objects.get(user__username="api").key
    assert (Club.objects.count(), Session.objects.count()) == counts
    # Two open sittings, and the seeded event's first round: eight players at two open tables.
    assert Session.objects.filter(status="open", event_table__isnull=True).count() == 2
    assert Session.objects.filter(status="open", event_table__round__n=1).count() == 2
    client = client_for(Token.objects.get(key=key).user)
    # The event schemathesis reaches (.ci/schemathesis.toml: `event_id = 1`, the first of a fresh database).
    standings = client.get(f"/api/v1/events/{Event.objects.get().pk}/standings/").json()
    assert (standings["rounds"], len(standings["rows"])) == (1, 8)
    # The league schemathesis reaches (`league_id = 1`): the seeded event counts in it.
    league = client.get(f"/api/v1/leagues/{League.objects.get().pk}/standings/").json()
    assert (len(league["events"]), len(league["rows"])) == (1, 8)
    assert client.get("/api/v1/clubs/").json()["results"][0]["role"] == "owner"
    assert client.get("/api/v1/clubs/api/sessions/").json()["count"] == counts[1]


@pytest.mark.django_db
def test_an_unknown_method_is_a_405_in_the_one_shape(table):
    response = table.client("owner").delete(f"/api/v1/sessions/{table.session.pk}/")
    assert_error(response, 405, "method_not_allowed")


@pytest.fixture(scope="module")
def schema(tmp_path_factory) -> dict:
    """The schema as `manage.py spectacular` writes it, generated once for the tests that only read it."""
    path = tmp_path_factory.mktemp("schema") / "schema.yaml"
    call_command("spectacular", "--file", str(path))
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_the_schema_says_how_to_send_a_token(schema):
    scheme = schema["components"]["securitySchemes"]["bearerAuth"]
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer") and "Token" in scheme["description"]
    assert {"bearerAuth": []} in schema["paths"]["/api/v1/clubs/"]["get"]["security"]


def test_the_hand_schema_takes_every_variants_fields_and_the_seats_of_six_players(schema):
    from settlement.rules.registry import VARIANTS

    schemas = schema["components"]["schemas"]
    for key, variant in VARIANTS.items():
        name = "HandInput" + "".join(p.capitalize() for p in key.replace(".", "_").split("_"))
        scored, redeal = schemas[name + "Scored"], schemas[name + "Redeal"]
        assert set(scored["properties"]) | set(redeal["properties"]) == set(variant.hand_fields), key
    # 升级 with six players (shengji.md): seats 0–5.
    hand = schemas["HandInputShengjiScored"]["properties"]
    for seat in (hand["declarer"], schemas["HandInputShengjiPenalty"]["properties"]["seat"]):
        assert (seat["minimum"], seat["maximum"]) == (0, 5)
    assert hand["kou_cards"]["minimum"] == hand["kou_unit"]["minimum"] == 1
    assert hand["jack_kou"]["type"] == "boolean"


def test_the_variants_and_the_leaderboard_are_pages_without_updated_since(schema):
    components = schema["components"]["schemas"]
    for path in ("/api/v1/variants/", "/api/v1/clubs/{slug}/leaderboard/"):
        op = schema["paths"][path]["get"]
        body = op["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
        assert {"count", "next", "previous", "results"} <= set(components[body]["properties"])
        params = {p["name"] for p in op["parameters"] if p["in"] == "query"}
        assert {"limit", "offset"} <= params and "updated_since" not in params
        assert "No `updated_since`" in op["description"]


def test_the_schema_declares_the_headers_a_client_relies_on(schema):
    operations = {op["operationId"]: op for path in schema["paths"].values() for op in path.values()}
    conditional = {name for name, op in operations.items() if "304" in op["responses"]}
    assert conditional == {
        "club_sessions_list",
        "session_retrieve",
        "hands_list",
        "hand_retrieve",
        "club_standings",
        "club_standings_csv",
        "club_changes",
    }
    for name in conditional:
        op = operations[name]
        assert {"ETag"} <= set(op["responses"]["200"]["headers"]) and "ETag" in op["responses"]["304"]["headers"]
        assert {"in": "header", "name": "If-None-Match"}.items() <= next(
            p for p in op["parameters"] if p["name"] == "If-None-Match"
        ).items()
    for op in operations.values():
        assert "Retry-After" in op["responses"]["429"]["headers"], op["operationId"]
        for code, response in op["responses"].items():
            if code in BEFORE_THE_API:
                # gunicorn answers these before the API runs: claiming the API's headers on them would be untrue
                assert "headers" not in response, (op["operationId"], code)
                continue
            assert {"X-Request-Id", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} <= set(
                response["headers"]
            )
    writes = [op for path in schema["paths"].values() for method, op in path.items() if method in ("post", "patch")]
    assert len(writes) == 24
    for op in writes:
        key = next(p for p in op["parameters"] if p["in"] == "header" and p["name"] == "Idempotency-Key")
        assert key["schema"]["maxLength"] == 255
        for code, response in op["responses"].items():
            replayed = "Idempotent-Replayed" in response.get("headers", {})
            assert replayed == code.startswith("2"), (op["operationId"], code)
    made = {name for name, op in operations.items() if "201" in op["responses"]}
    assert made == {
        "club_sessions_import",
        "hand_record",
        "tokens_create",
        "club_event_create",
        "event_round_draw",
        "event_adjustment_add",
        "club_league_create",
        "event_substitute_add",
        "event_share_create",
    }
    for name in made:
        assert "Location" in operations[name]["responses"]["201"]["headers"]


def test_an_entry_choices_value_is_typed_as_its_field_is(schema):
    value = schema["components"]["schemas"]["EntryChoice"]["properties"]["value"]
    assert value["oneOf"] == [{"type": "integer"}, {"type": "string"}] and value["nullable"] is True
