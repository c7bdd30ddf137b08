"""Bad input through the API: always a 4xx in the error shape, never a 500, nothing written.

Also retries: an import under an `Idempotency-Key`, and a correction from a stale `revision`.
"""

from __future__ import annotations

import json

import pytest

from settlement.ledger.values import JSON_DEPTH_MAX
from settlement.models import Hand, HandRevision, Session
from tests.factories import BENXI_EXAMPLE, NAMES, written

from .conftest import assert_error

pytestmark = pytest.mark.django_db

DOCUMENT = {"variant": "baifen.benxi", "players": list(NAMES), "hands": BENXI_EXAMPLE[:2], "venue": "一号桌"}


def _urls(table):
    session, club = table.session.pk, table.club.slug
    return {
        "record": f"/api/v1/sessions/{session}/hands/",
        "preview": f"/api/v1/sessions/{session}/hands/preview/",
        "correct": f"/api/v1/sessions/{session}/hands/1/correct/",
        "void": f"/api/v1/sessions/{session}/hands/1/void/",
        "import": f"/api/v1/clubs/{club}/sessions/",
    }


def _post_raw(client, url, text, **headers):
    return client.post(url, data=text.encode("utf-8", "surrogatepass"), content_type="application/json", **headers)


ENDPOINTS = ["record", "preview", "correct", "void", "import"]


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_a_body_nested_5000_deep_is_a_400_not_a_crash(table, endpoint):
    text = "[" * 5000 + "]" * 5000  # 10 KB
    before = written()
    response = _post_raw(table.client("owner"), _urls(table)[endpoint], text)
    body = assert_error(response, 400, "value.too_deep", field="body")
    assert str(JSON_DEPTH_MAX) in body["message"]
    assert written() == before


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_a_body_one_level_past_the_bound_is_refused_and_one_within_is_not(table, endpoint):
    client = table.client("owner")
    over = {"x": json.loads("[" * JSON_DEPTH_MAX + "]" * JSON_DEPTH_MAX)}  # 33 levels with the object
    assert_error(client.post(_urls(table)[endpoint], over, format="json"), 400, "value.too_deep", field="body")
    within = {"x": json.loads("[" * (JSON_DEPTH_MAX - 1) + "]" * (JSON_DEPTH_MAX - 1))}
    response = client.post(_urls(table)[endpoint], within, format="json")
    assert response.status_code == 400 and response.json()["code"] != "value.too_deep"


@pytest.mark.parametrize(
    "endpoint, text, field",
    [
        ("record", '{"declarer": 1, "\\ud800": 1}', "body"),
        ("record", '{"declarer": 1, "kou": "\\udfff"}', "kou"),
        ("record", '{"declarer": 1, "kou": "side\\u001b"}', "kou"),
        ("preview", '{"\\ud800x": 1}', "body"),
        ("correct", '{"hand": {"\\ud800": 1}, "reason": "x"}', "hand"),
        ("correct", '{"hand": {"bid": 85}, "reason": "why\\ud800"}', "reason"),
        ("void", '{"reason": "tab\\there"}', "reason"),
        ("import", '{"variant": "baifen.benxi", "players": ["甲", "乙\\ud800", "丙", "丁"]}', "players[1]"),
        ("import", '{"variant": "baifen.benxi", "players": ["甲", "乙", "丙", "丁"], "venue": "\\u0085"}', "venue"),
    ],
)
def test_a_lone_surrogate_or_control_character_is_a_400_naming_where(table, endpoint, text, field):
    before = written()
    response = _post_raw(table.client("owner"), _urls(table)[endpoint], text)
    assert_error(response, 400, "value.bad_character", field=field)
    assert written() == before


def test_a_raw_lone_surrogate_in_the_bytes_is_a_parse_error(table):
    # Encoded surrogates are not UTF-8: the body does not decode.
    response = _post_raw(table.client("owner"), _urls(table)["record"], '{"kou": "\ud800"}')
    assert_error(response, 400, "parse_error")


def test_a_nul_is_still_refused_with_djangos_code(table):
    response = _post_raw(table.client("owner"), _urls(table)["record"], '{"kou": "a\\u0000"}')
    assert_error(response, 400, "null_characters_not_allowed", field="kou")


@pytest.mark.parametrize("endpoint", ["correct", "void"])
def test_a_2_mb_reason_is_refused_naming_the_limit(table, endpoint):
    body = {"hand": BENXI_EXAMPLE[0] | {"captured": 0}, "reason": "x" * 2_000_000}
    if endpoint == "void":
        del body["hand"]
    before = written()
    response = table.client("owner").post(_urls(table)[endpoint], body, format="json")
    error = assert_error(response, 400, "value.too_long", field="reason")
    assert "500" in error["message"]
    assert written() == before


def test_a_body_over_the_upload_limit_is_a_413_in_the_error_shape(table, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = table.client("owner").post(_urls(table)["void"], {"reason": "x" * 2000}, format="json")
    assert_error(response, 413, "body.too_large", field="body")


def test_a_long_venue_is_refused_naming_the_limit(table):
    response = table.client("owner").post(_urls(table)["import"], {**DOCUMENT, "venue": "桌" * 101}, format="json")
    assert "100" in assert_error(response, 400, "value.too_long", field="venue")["message"]


def test_import_cleans_names_and_refuses_look_alikes(table):
    client = table.client("owner")
    alike = client.post(_urls(table)["import"], {**DOCUMENT, "players": ["Ann", "乙", "ＡＮＮ", "丁"]}, format="json")
    assert_error(alike, 400, "players.duplicate", field="players")
    cleaned = {**DOCUMENT, "players": [" 甲\u200b", "乙\u202e", "丙", "丁"]}
    response = client.post(_urls(table)["import"], cleaned, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["players"] == list(NAMES)


# --- how many hands ---


def test_the_hand_past_the_limit_is_a_400_naming_it(table, settings):
    settings.BAIFEN_MAX_HANDS = 2  # the table's session holds 2
    response = table.client("owner").post(_urls(table)["record"], BENXI_EXAMPLE[2], format="json")
    body = assert_error(response, 400, "session.too_many_hands", field="hands")
    assert "2" in body["message"]
    assert Hand.objects.filter(session=table.session).count() == 2


def test_an_import_past_the_limit_is_a_400_naming_it(table, settings):
    settings.BAIFEN_MAX_HANDS = 4
    before = written()
    response = table.client("owner", lang="zh-hans").post(
        _urls(table)["import"], {**DOCUMENT, "hands": BENXI_EXAMPLE}, format="json"
    )
    body = assert_error(response, 400, "session.too_many_hands", field="hands")
    assert "4" in body["message"]
    assert written() == before


# --- an import retried under a key ---


def test_the_same_import_under_the_same_key_answers_as_the_first_time(table):
    client = table.client("owner")
    first = client.post(_urls(table)["import"], DOCUMENT, format="json", HTTP_IDEMPOTENCY_KEY="upload-7")
    again = client.post(
        _urls(table)["import"], dict(reversed(DOCUMENT.items())), format="json", HTTP_IDEMPOTENCY_KEY="upload-7"
    )
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again["Location"] == first["Location"]
    assert again["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first
    assert Session.objects.filter(club=table.club, client_key="upload-7").count() == 1


@pytest.mark.parametrize(
    "document, query",
    [({**DOCUMENT, "hands": BENXI_EXAMPLE[:3]}, ""), (DOCUMENT, "?close=false")],
    ids=["another-document", "another-close"],
)
def test_another_import_under_a_used_key_is_a_409(table, document, query):
    client = table.client("owner")
    first = client.post(_urls(table)["import"], DOCUMENT, format="json", HTTP_IDEMPOTENCY_KEY="upload-7")
    before = written()
    response = client.post(_urls(table)["import"] + query, document, format="json", HTTP_IDEMPOTENCY_KEY="upload-7")
    body = assert_error(response, 409, "client_key.reused", field="Idempotency-Key")
    assert str(first.json()["id"]) in body["message"]
    assert written() == before


def test_an_import_key_over_255_characters_is_a_400(table):
    client = table.client("owner")
    response = client.post(_urls(table)["import"], DOCUMENT, format="json", HTTP_IDEMPOTENCY_KEY="k" * 256)
    assert_error(response, 400, "client_key.invalid", field="Idempotency-Key")


# --- a correction from a stale revision ---


def test_a_correction_from_a_stale_revision_is_a_409_naming_the_current_one(table):
    client = table.client("owner")
    url = _urls(table)["correct"]
    ok = client.post(url, {"hand": BENXI_EXAMPLE[0] | {"captured": 0}, "reason": "0", "revision": 1}, format="json")
    assert ok.status_code == 200 and ok.json()["revision"] == 2
    # Another scorekeeper's form, still at revision 1.
    other = table.client("scorekeeper")
    stale = other.post(url, {"hand": BENXI_EXAMPLE[0] | {"captured": 5}, "reason": "5", "revision": 1}, format="json")
    body = assert_error(stale, 409, "hand.stale", hand=1, field="revision")
    assert "revision 2" in body["message"]
    void = other.post(_urls(table)["void"], {"reason": "x", "revision": 1}, format="json")
    assert_error(void, 409, "hand.stale", hand=1, field="revision")
    assert HandRevision.objects.filter(hand__session=table.session, hand__number=1).count() == 2


def test_a_retried_correction_is_a_200_with_the_revision_it_made(table):
    client = table.client("owner")
    url = _urls(table)["correct"]
    body = {"hand": BENXI_EXAMPLE[0] | {"captured": 0}, "reason": "nothing captured", "revision": 1}
    first = client.post(url, body, format="json")
    again = client.post(url, body, format="json")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json() and again.json()["revision"] == 2
    assert HandRevision.objects.filter(hand__session=table.session, hand__number=1).count() == 2


def test_a_retried_void_is_a_200(table):
    client = table.client("owner")
    first = client.post(_urls(table)["void"], {"reason": "twice", "revision": 1}, format="json")
    again = client.post(_urls(table)["void"], {"reason": "twice", "revision": 1}, format="json")
    assert first.status_code == again.status_code == 200
    assert again.json()["revision"] == 2


@pytest.mark.parametrize("revision", ["1", 0, -1, 1.5])
def test_a_revision_that_is_not_a_whole_number_is_a_400(table, revision):
    response = table.client("owner").post(_urls(table)["void"], {"reason": "x", "revision": revision}, format="json")
    assert_error(response, 400, "revision.invalid", field="revision")
