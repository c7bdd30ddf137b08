"""The table page offline, server side: the service worker, the manifest and the queue's sync endpoint.

Figures from ../shared/rules/baifen.md's 本溪 example (A = seats 0+2, B = seats 1+3): hand 1, dealer 0,
seat 0 bids 80 and B captures 15: 80 + 15 = 95 ≤ 100, made, A +80, B +15; hand 2, seat 1 bids 85 and A
captures 20: 105 > 100, broken, B −85 (15 − 85 = −70), A +20 (80 + 20 = 100).
"""

from __future__ import annotations

import json
import re
import struct

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.urls import reverse

from settlement import services
from settlement.models import Hand, HandRevision, Role
from settlement.web import offline
from tests.factories import make_club, make_member, make_session
from tests.linked import linked_static

pytestmark = pytest.mark.django_db

HAND_1 = {"dealer": "0", "declarer": "0", "bid": "80", "captured": "15"}
HAND_2 = {"dealer": "1", "declarer": "1", "bid": "85", "captured": "20"}


@pytest.fixture
def table(client):
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    client.force_login(owner)
    return session, client


def _sync(client, session, fields, *, key, expected=None, force=False, lang=None):
    if lang:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    body = {**fields, "client_key": key}
    if expected is not None:
        body["expected"] = str(expected)
    if force:
        body["force"] = "1"
    url = reverse("table_sync", kwargs={"slug": session.club.slug, "session_id": session.pk})
    return client.post(url, body)


# --- the service worker and the manifest ---


def test_the_service_worker_is_served_from_the_root_as_javascript_and_revalidated(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    config = json.loads(body.split("var CONFIG = ", 1)[1].split(";\n", 1)[0])
    assert config["version"] == offline.offline_version()
    # The hashed names (collected, as make serve has them), which the worker answers from its cache.
    assert re.fullmatch(r"/static/js/offline\.[0-9a-f]{12}\.js", static("js/offline.js"))
    assert static("js/offline.js") in config["assets"] and static("css/table.css") in config["assets"]
    assert config["static"] == "/static/"
    assert config["start"] == "/?pwa=1"


def test_the_service_worker_keeps_every_static_file_the_table_and_share_pages_link(table):
    """Offline, a page opens only with each file it links in the worker's cache: the first visit is not
    yet controlled by the worker, so what it fetched is kept only if the worker's list names it."""
    session, client = table
    link = services.share_create(session=session, user=session.created_by)
    body = client.get("/sw.js").content.decode()
    kept = json.loads(body.split("var CONFIG = ", 1)[1].split(";\n", 1)[0])["assets"]
    pages = [
        reverse("table", kwargs={"slug": session.club.slug, "session_id": session.pk}),
        reverse("share", kwargs={"token": link.token}),
    ]
    for lang in ("zh-hans", "en"):
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
        for url in pages:
            files = linked_static(client.get(url).content.decode())
            assert static("css/base.css") in files
            assert [path for path in files if path not in kept] == [], url


def test_every_file_the_service_worker_keeps_exists():
    assert [path for path in offline.OFFLINE_ASSETS if finders.find(path) is None] == []


def test_a_deploy_that_renames_a_static_file_is_a_new_service_worker(monkeypatch):
    offline.offline_version.cache_clear()
    before = offline.offline_version()
    # What ManifestStaticFilesStorage does on a deploy that changed table.js: another hashed name.
    real = offline.static
    renamed = re.sub(r"table\.[0-9a-f]{12}\.js$", "table.0123456789ab.js", real("js/table.js"))
    assert renamed != real("js/table.js")
    monkeypatch.setattr(offline, "static", lambda path: renamed if path == "js/table.js" else real(path))
    offline.offline_version.cache_clear()
    try:
        assert offline.offline_version() != before
    finally:
        offline.offline_version.cache_clear()


def _png_size(client, url):
    """The icon as WhiteNoise serves it from the collected files, under the name the manifest gives."""
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    head = b"".join(response.streaming_content)[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


@pytest.mark.parametrize(
    ("lang", "name", "short_name", "doc_lang"),
    [("zh-hans", "百分账本", "百分账本", "zh-Hans"), ("en", "Baifen Ledger", "Baifen", "en")],
)
def test_the_manifest_names_the_app_in_the_pages_language_and_makes_it_installable(
    client, lang, name, short_name, doc_lang
):
    response = client.get(f"/manifest.webmanifest?lang={lang}")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/manifest+json")
    manifest = json.loads(response.content)
    assert (manifest["name"], manifest["short_name"], manifest["lang"]) == (name, short_name, doc_lang)
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/?pwa=1" and manifest["scope"] == "/"
    assert manifest["theme_color"] == "#8b1e1e"
    sizes = {icon["sizes"]: icon for icon in manifest["icons"]}
    assert _png_size(client, sizes["192x192"]["src"]) == (192, 192)
    assert _png_size(client, sizes["512x512"]["src"]) == (512, 512)
    assert client.get(sizes["any"]["src"]).status_code == 200


def test_only_the_table_and_share_pages_link_the_manifest_and_the_worker(table):
    session, client = table
    link = services.share_create(session=session, user=session.created_by)
    table_page = client.get(reverse("table", kwargs={"slug": session.club.slug, "session_id": session.pk}))
    share_page = client.get(reverse("share", kwargs={"token": link.token}))
    for page in (table_page, share_page):
        html = page.content.decode()
        assert 'rel="manifest"' in html and static("js/offline.js") in html and 'data-sw="/sw.js"' in html
    for other in (
        reverse("session_detail", kwargs={"slug": session.club.slug, "session_id": session.pk}),
        reverse("club_home", kwargs={"slug": session.club.slug}),
    ):
        html = client.get(other).content.decode()
        assert 'rel="manifest"' not in html and "offline.js" not in html


# --- sending a kept hand ---


def test_a_kept_hand_is_recorded_with_the_servers_receipt_in_the_users_language(table):
    session, client = table
    response = _sync(client, session, HAND_1, key="phone-1", expected=1, lang="en")
    assert response.status_code == 200
    answer = response.json()
    assert (answer["status"], answer["number"], answer["created"]) == ("recorded", 1, True)
    assert answer["label"] == "Hand 1 recorded."
    assert answer["figures"] == ["甲·丙 +80 → 80", "乙·丁 +15 → 15"]
    assert any("bid 80 + captured 15 = 95 ≤ 100: made" in step for step in answer["steps"])


def test_sending_a_kept_hand_twice_records_it_once(table):
    session, client = table
    first = _sync(client, session, HAND_1, key="phone-1", expected=1).json()
    again = _sync(client, session, HAND_1, key="phone-1", expected=1).json()
    assert (first["number"], first["created"]) == (1, True)
    assert (again["number"], again["created"]) == (1, False)
    assert Hand.objects.filter(session=session).count() == 1


def test_a_hand_recorded_by_another_device_meanwhile_is_a_conflict_until_sent_anyway(table):
    session, client = table
    services.hand_record(
        session=session, user=session.created_by, hand_input={"declarer": 0, "bid": 80, "captured": 15}
    )
    response = _sync(client, session, HAND_2, key="phone-2", expected=1, lang="en")
    assert response.status_code == 409
    assert response.json()["moved"] is True
    assert response.json()["message"] == (
        "another device recorded hand 1 meanwhile: this hand was entered as hand 1, on the state this phone knew then"
    )
    assert Hand.objects.filter(session=session).count() == 1
    anyway = _sync(client, session, HAND_2, key="phone-2", expected=1, force=True).json()
    assert (anyway["status"], anyway["number"]) == ("recorded", 2)
    assert anyway["figures"] == ["甲·丙 +20 → 100", "乙·丁 −85 → −70"]


def test_a_refused_hand_says_why_at_its_field_in_chinese_by_default(table):
    session, client = table
    response = _sync(client, session, {**HAND_1, "captured": "300"}, key="phone-1", expected=1)
    assert response.status_code == 400
    answer = response.json()
    assert answer["status"] == "refused" and answer["field"] == "captured"
    assert answer["message"] and not answer["message"].isascii()
    assert Hand.objects.filter(session=session).count() == 0


def test_a_kept_hand_for_a_closed_session_is_refused_and_one_already_sent_is_still_its_receipt(table):
    session, client = table
    _sync(client, session, HAND_1, key="phone-1", expected=1)
    services.session_close(session=session, user=session.created_by)
    assert _sync(client, session, HAND_1, key="phone-1", expected=1).json()["number"] == 1
    refused = _sync(client, session, HAND_2, key="phone-2", expected=2, lang="en")
    assert refused.status_code == 400
    assert refused.json()["message"] == "the session is closed"


def test_a_viewer_cannot_send_kept_hands(client):
    club = make_club()
    owner = make_member(club)
    session = make_session(club, owner)
    client.force_login(make_member(club, Role.VIEWER))
    assert _sync(client, session, HAND_1, key="phone-1", expected=1).status_code == 403
    assert Hand.objects.filter(session=session).count() == 0


# --- a key sent before with another hand: the lost answer, then an edit on the phone ---


def test_another_hand_under_a_key_already_recorded_is_refused_naming_that_hand_and_nothing_changes(table):
    """The first send arrived (captured 20), its answer did not; the phone edited the hand to 35."""
    session, client = table
    first = {**HAND_1, "captured": "20"}
    assert _sync(client, session, first, key="phone-1", expected=1).json()["number"] == 1
    edited = _sync(client, session, {**HAND_1, "captured": "35"}, key="phone-1", expected=1, lang="en")
    assert edited.status_code == 409
    answer = edited.json()
    assert (answer["status"], answer["code"], answer["field"]) == ("refused", "client_key.reused", "client_key")
    assert answer["message"] == "this key was already used for a different hand (hand 1)"
    assert (answer["reused"], answer["number"], answer["revision"]) == (True, 1, 1)
    assert [r.input["captured"] for r in HandRevision.objects.filter(hand__session=session)] == [20]


def test_the_reused_key_refusal_is_in_chinese_by_default(table):
    session, client = table
    _sync(client, session, HAND_1, key="phone-1", expected=1)
    answer = _sync(client, session, {**HAND_1, "captured": "35"}, key="phone-1", expected=1).json()
    assert answer["message"] == "这个键已用于另一局（第 1 局）"


def test_the_edit_asked_for_as_a_correction_is_a_new_revision_of_the_hand_it_became(table):
    session, client = table
    _sync(client, session, {**HAND_1, "captured": "20"}, key="phone-1", expected=1)
    body = {**HAND_1, "captured": "35", "correct": "1", "revision": "1"}
    answer = _sync(client, session, body, key="phone-1", expected=1, lang="en").json()
    # 80 + 35 = 115 > 100: broken, A −80, B +35 (rules/baifen.md).
    assert (answer["status"], answer["number"], answer["corrected"]) == ("recorded", 1, True)
    assert answer["label"] == "Hand 1, corrected"
    assert answer["figures"] == ["甲·丙 −80 → −80", "乙·丁 +35 → 35"]
    revisions = list(HandRevision.objects.filter(hand__session=session).order_by("number"))
    assert [(r.number, r.input["captured"]) for r in revisions] == [(1, 20), (2, 35)]
    assert revisions[1].reason == "Edited on the phone after it was sent: the hand it became is corrected."
    # Sent again (its answer lost too): the same correction, not a third revision.
    again = _sync(client, session, body, key="phone-1", expected=1).json()
    assert (again["status"], again["number"]) == ("recorded", 1)
    assert HandRevision.objects.filter(hand__session=session).count() == 2


def test_a_repeat_of_a_hand_recorded_before_later_hands_is_still_that_hand(table):
    """Read against the state it was entered on: hand 1's dealer 0 is not hand 3's."""
    session, client = table
    _sync(client, session, HAND_1, key="phone-1", expected=1)
    _sync(client, session, HAND_2, key="phone-2", expected=2)
    again = _sync(client, session, HAND_1, key="phone-1", expected=1).json()
    assert (again["status"], again["number"], again["created"]) == ("recorded", 1, False)
    assert Hand.objects.filter(session=session).count() == 2


@pytest.mark.parametrize("key", ["a\x00b", "\x00", "a\x07"])
def test_a_control_character_in_the_client_key_is_a_400_in_the_sync_shape(table, key):
    session, client = table
    response = _sync(client, session, HAND_1, key=key, expected=1, lang="en")
    assert response.status_code == 400
    answer = response.json()
    assert (answer["status"], answer["field"], answer["code"]) == ("refused", "client_key", "client_key.invalid")
    assert answer["message"] == "the client key must be at most 64 characters, without control characters"
    assert Hand.objects.filter(session=session).count() == 0
