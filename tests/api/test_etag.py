"""ETag and If-None-Match on the reads a client polls: session detail, standings, the sessions and hand lists."""

from __future__ import annotations

import pytest

from settlement import services
from tests.factories import BENXI_EXAMPLE, make_player

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/sessions/{sid}/",
        "/api/v1/clubs/laonian/standings/",
        "/api/v1/clubs/laonian/standings/?format=csv",
        "/api/v1/clubs/laonian/sessions/",
        "/api/v1/sessions/{sid}/hands/",
    ],
)
def test_an_unchanged_read_is_a_304_and_a_changed_one_a_200_with_a_new_etag(table, path):
    url = path.format(sid=table.session.pk)
    client = table.client("owner")
    first = client.get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and etag
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag
    client.post(f"/api/v1/sessions/{table.session.pk}/hands/", BENXI_EXAMPLE[2], format="json")
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_another_languages_answer_has_another_etag(table):
    url = f"/api/v1/sessions/{table.session.pk}/"
    assert table.client("owner").get(url)["ETag"] != table.client("owner", lang="zh-hans").get(url)["ETag"]


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/sessions/{sid}/",
        "/api/v1/clubs/laonian/standings/",
        "/api/v1/clubs/laonian/sessions/",
        "/api/v1/sessions/{sid}/hands/",
    ],
)
def test_head_is_get_without_the_body_its_etag_and_its_304(table, path):
    url = path.format(sid=table.session.pk)
    client = table.client("owner")
    etag = client.get(url)["ETag"]
    head = client.head(url)
    assert (head.status_code, head["ETag"], head.content) == (200, etag, b"")
    again = client.head(url, HTTP_IF_NONE_MATCH=etag)
    assert (again.status_code, again["ETag"], again.content) == (304, etag, b"")
    assert client.head(url, HTTP_IF_NONE_MATCH='"another"').status_code == 200


SESSION_READS = ["/api/v1/sessions/{sid}/", "/api/v1/sessions/{sid}/hands/"]


@pytest.mark.parametrize("path", SESSION_READS)
def test_a_rename_of_a_seated_player_changes_the_etag(table, path):
    url = path.format(sid=table.session.pk)
    client = table.client("owner")
    etag = client.get(url)["ETag"]
    seated = table.session.seats.order_by("seat").first().player
    services.player_rename(player=seated, user=table.owner, name="新名字")
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


@pytest.mark.parametrize("path", SESSION_READS)
def test_a_rename_of_a_player_not_seated_keeps_the_304(table, path):
    url = path.format(sid=table.session.pk)
    client = table.client("owner")
    etag = client.get(url)["ETag"]
    services.player_rename(player=make_player(table.club, "路人"), user=table.owner, name="路人甲")
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304


@pytest.mark.parametrize("path", SESSION_READS)
def test_another_page_of_the_same_session_has_another_etag(table, path):
    url = path.format(sid=table.session.pk)
    client = table.client("owner")
    assert client.get(url)["ETag"] != client.get(url + "?limit=1")["ETag"]


@pytest.mark.parametrize("path", SESSION_READS)
def test_a_304_is_the_token_and_the_version_and_nothing_else(table, path, django_assert_num_queries):
    """Two queries: the caller's token (with its user) and the session's version; nothing is rendered."""
    url = path.format(sid=table.session.pk)
    client = table.client("owner")
    etag = client.get(url)["ETag"]
    with django_assert_num_queries(2):
        again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304


@pytest.mark.parametrize("path", SESSION_READS)
def test_an_outsider_with_an_etag_gets_the_404(table, path):
    url = path.format(sid=table.session.pk)
    etag = table.client("owner").get(url)["ETag"]
    assert table.client("outsider").get(url, HTTP_IF_NONE_MATCH=etag).status_code == 404
