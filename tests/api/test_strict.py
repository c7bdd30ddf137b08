"""Kind to clients and strict about input: HEAD, missing slashes, formats, nulls, unknown fields, defaults."""

from __future__ import annotations

import pytest

from settlement.models import Hand
from tests.factories import BENXI_EXAMPLE

from .conftest import assert_error

pytestmark = pytest.mark.django_db


def _gets(table) -> list[str]:
    sid = table.session.pk
    return [
        "/api/v1/clubs/",
        "/api/v1/variants/",
        "/api/v1/clubs/laonian/players/",
        "/api/v1/clubs/laonian/sessions/",
        "/api/v1/clubs/laonian/standings/",
        "/api/v1/clubs/laonian/standings/?format=csv",
        f"/api/v1/sessions/{sid}/",
        f"/api/v1/sessions/{sid}/hands/",
        f"/api/v1/sessions/{sid}/export/",
        f"/api/v1/sessions/{sid}/entry/",
        f"/api/v1/sessions/{sid}/hands/1/revisions/",
        "/api/v1/tokens/",
    ]


def test_head_answers_every_get_with_its_status_and_headers_and_no_body(table):
    client = table.client("viewer")
    for url in _gets(table):
        get, head = client.get(url), client.head(url)
        assert get.status_code == 200, url
        assert head.status_code == 200, (url, head.content)
        assert head.content == b"", url
        assert head["Content-Type"] == get["Content-Type"], url


@pytest.mark.parametrize(
    ("path", "right"),
    [
        ("hands", "/api/v1/sessions/{sid}/hands/"),
        ("hands/1/void", "/api/v1/sessions/{sid}/hands/1/void/"),
        ("close", "/api/v1/sessions/{sid}/close/"),
    ],
)
def test_a_post_without_the_trailing_slash_is_a_json_404_naming_the_path(table, path, right):
    sid = table.session.pk
    response = table.client("owner").post(f"/api/v1/sessions/{sid}/{path}", BENXI_EXAMPLE[2], format="json")
    body = assert_error(response, 404, "not_found.slash")
    assert right.format(sid=sid) in body["message"]
    assert Hand.objects.filter(session=table.session).count() == 2


def test_an_address_that_is_not_there_with_or_without_a_slash_is_a_plain_json_404(table):
    assert_error(table.client("owner").post("/api/v1/nothing/here", {}, format="json"), 404, "not_found")


@pytest.mark.parametrize("url", ["/api/v1/clubs/laonian/standings/", "/api/v1/clubs/", "/api/v1/variants/"])
@pytest.mark.parametrize("fmt", ["xml", "html"])
def test_an_unknown_format_is_a_400_naming_format(table, url, fmt):
    response = table.client("viewer").get(f"{url}?format={fmt}")
    body = assert_error(response, 400, "format.unknown", field="format")
    assert fmt in body["message"]


def test_an_empty_format_on_standings_is_a_400_naming_format(table):
    response = table.client("viewer").get("/api/v1/clubs/laonian/standings/?format=")
    assert response.status_code == 400 and response.json()["field"] == "format"


@pytest.mark.parametrize("param", ["variant", "date_from", "status", "player", "limit"])
def test_an_empty_filter_is_refused_naming_it(table, param):
    response = table.client("viewer").get(f"/api/v1/clubs/laonian/sessions/?{param}=")
    body = assert_error(response, 400, response.json()["code"], field=param)
    assert body["code"] != "not_found"


@pytest.mark.parametrize("param", ["limit", "offset"])
@pytest.mark.parametrize("path", ["sessions/{pk}/", "sessions/{pk}/hands/", "clubs/laonian/sessions/", "clubs/"])
def test_an_empty_page_size_or_offset_is_refused_naming_it_on_every_paged_read(table, path, param):
    """An empty `limit=` is not "the default": the schema says an integer (schemathesis sent one to a session)."""
    url = "/api/v1/" + path.format(pk=table.session.pk) + f"?{param}="
    response = table.client("viewer").get(url)
    assert_error(response, 400, response.json()["code"], field=param)


def test_an_empty_variant_is_refused_on_standings_too(table):
    response = table.client("viewer").get("/api/v1/clubs/laonian/standings/?variant=")
    assert response.status_code == 400 and response.json()["field"] == "variant"


@pytest.mark.parametrize("key", ["venue", "date"])
def test_a_null_venue_or_date_in_a_document_is_refused(table, key):
    document = {"variant": "baifen.benxi", "players": ["甲", "乙", "丙", "丁"], "hands": [], key: None}
    response = table.client("owner").post("/api/v1/clubs/laonian/sessions/", document, format="json")
    assert_error(response, 400, "value.not_text", field=key)


def test_null_options_in_a_document_are_refused_not_read_as_none_given(table):
    document = {"variant": "shengji", "players": ["甲", "乙", "丙", "丁"], "hands": [], "options": None}
    response = table.client("owner").post("/api/v1/clubs/laonian/sessions/", document, format="json")
    assert_error(response, 400, "value.not_object", field="options")


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("hands/1/void/", {"reason": "twice", "why": "x"}, "why"),
        ("hands/1/correct/", {"hand": BENXI_EXAMPLE[0], "reason": "x", "note": 1}, "note"),
        ("close/", {"now": True}, "now"),
    ],
)
def test_unknown_top_level_fields_are_refused_naming_them(table, path, body, field):
    response = table.client("owner").post(f"/api/v1/sessions/{table.session.pk}/{path}", body, format="json")
    assert_error(response, 400, "field.unknown", field=field)


def test_an_unknown_field_of_a_document_is_refused(table):
    document = {"variant": "baifen.benxi", "players": ["甲", "乙", "丙", "丁"], "hands": [], "colour": "red"}
    response = table.client("owner").post("/api/v1/clubs/laonian/sessions/", document, format="json")
    assert_error(response, 400, "field.unknown", field="colour")


@pytest.mark.parametrize("reason", [5, ["x"], {"a": 1}, True])
def test_a_reason_that_is_not_text_says_so(table, reason):
    response = table.client("owner").post(
        f"/api/v1/sessions/{table.session.pk}/hands/1/void/", {"reason": reason}, format="json"
    )
    body = assert_error(response, 400, "value.not_text", field="reason")
    assert "text" in body["message"]


@pytest.mark.parametrize("action", ["void", "correct"])
def test_a_hand_that_is_not_there_is_named_in_hand(table, action):
    body = {"reason": "x"} if action == "void" else {"hand": BENXI_EXAMPLE[0], "reason": "x"}
    response = table.client("owner").post(f"/api/v1/sessions/{table.session.pk}/hands/9/{action}/", body, format="json")
    assert_error(response, 404, "hand.not_found", hand=9, field="number")


@pytest.mark.parametrize(
    "again",
    [
        {**BENXI_EXAMPLE[2], "forced": False},
        {"forced": False, **dict(reversed(BENXI_EXAMPLE[2].items()))},
    ],
)
def test_the_same_hand_with_an_explicit_default_under_the_same_key_is_a_replay(table, again):
    client = table.client("owner")
    url = f"/api/v1/sessions/{table.session.pk}/hands/"
    first = client.post(url, BENXI_EXAMPLE[2], format="json", HTTP_IDEMPOTENCY_KEY="k3")
    replay = client.post(url, again, format="json", HTTP_IDEMPOTENCY_KEY="k3")
    assert first.status_code == replay.status_code == 201, replay.content
    assert replay["Idempotent-Replayed"] == "true"
    assert replay.json() == first.json()
    assert Hand.objects.filter(session=table.session).count() == 3


def test_a_different_hand_under_the_same_key_is_still_a_409(table):
    client = table.client("owner")
    url = f"/api/v1/sessions/{table.session.pk}/hands/"
    client.post(url, BENXI_EXAMPLE[2], format="json", HTTP_IDEMPOTENCY_KEY="k3")
    response = client.post(url, {**BENXI_EXAMPLE[2], "forced": True}, format="json", HTTP_IDEMPOTENCY_KEY="k3")
    assert_error(response, 409, "client_key.reused", hand=3, field="Idempotency-Key")


def _writes(table) -> list[tuple[str, str, dict]]:
    sid = table.session.pk
    return [
        ("post", "/api/v1/clubs/laonian/sessions/", {}),
        ("post", f"/api/v1/sessions/{sid}/hands/", BENXI_EXAMPLE[2]),
        ("post", f"/api/v1/sessions/{sid}/hands/preview/", BENXI_EXAMPLE[2]),
        ("post", f"/api/v1/sessions/{sid}/hands/1/correct/", {"hand": BENXI_EXAMPLE[0], "reason": "x"}),
        ("post", f"/api/v1/sessions/{sid}/hands/1/void/", {"reason": "x"}),
        ("post", f"/api/v1/sessions/{sid}/close/", {}),
        ("post", f"/api/v1/sessions/{sid}/reopen/", {}),
        ("post", "/api/v1/tokens/", {"name": "x"}),
    ]


def test_an_unknown_query_parameter_is_refused_by_name_on_every_read(table):
    client = table.client("owner")
    for url in _gets(table):
        joined = f"{url}{'&' if '?' in url else '?'}page=2"
        assert_error(client.get(joined), 400, "field.unknown", field="page")


def test_an_unknown_query_parameter_is_refused_by_name_on_every_write_and_nothing_is_written(table):
    client = table.client("owner")
    hands = Hand.objects.count()
    for method, url, body in _writes(table):
        assert_error(
            getattr(client, method)(f"{url}?dry_run=1", body, format="json"), 400, "field.unknown", field="dry_run"
        )
    assert Hand.objects.count() == hands


def test_an_unknown_query_parameter_is_named_in_the_users_language(table):
    body = assert_error(
        table.client("owner", lang="zh-hans").get("/api/v1/clubs/?page=2"), 400, "field.unknown", field="page"
    )
    assert body["message"] == "不认识的查询参数 page"


@pytest.mark.parametrize("since", ["2026-03-01", "2026-03-01T12:00:00", "2026-03-01 12:00"])
def test_updated_since_without_a_zone_is_refused(table, since):
    for url in ("/api/v1/clubs/", "/api/v1/clubs/laonian/sessions/", f"/api/v1/sessions/{table.session.pk}/hands/"):
        assert_error(
            table.client("owner").get(url, {"updated_since": since}), 400, "datetime.zone", field="updated_since"
        )


@pytest.mark.parametrize("since", ["2026-03-01T12:00:00Z", "2026-03-01T20:00:00+08:00"])
def test_updated_since_with_a_zone_is_taken(table, since):
    assert table.client("owner").get("/api/v1/clubs/laonian/sessions/", {"updated_since": since}).status_code == 200
