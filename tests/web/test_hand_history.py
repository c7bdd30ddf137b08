"""The hand page's audit trail: words with names, in the page's language, never JSON."""

from __future__ import annotations

import re

import pytest

from settlement import services
from tests.factories import make_session, record_hands

pytestmark = pytest.mark.django_db


def _history(html: str) -> str:
    start = html.index('<section class="history">')
    return html[start : html.index("</section>", start)]


@pytest.mark.parametrize(
    ("lang", "change", "reason"),
    [("zh-hans", "抓分 35 → 30", "原因：数错了"), ("en", "captured 35 → 30", "reason: 数错了")],
)
def test_the_hand_page_shows_the_trail_in_words_and_no_json(owner_client, lang, change, reason):
    client, club, owner = owner_client
    client.cookies["django_language"] = lang
    session = make_session(club, owner)
    record_hands(session, owner, [{"dealer": 0, "declarer": 1, "bid": 85, "captured": 35}])
    services.hand_correct(
        session=session,
        user=owner,
        number=1,
        hand_input={"dealer": 0, "declarer": 1, "bid": 85, "captured": 30},
        reason="数错了",
    )
    history = _history(client.get(f"/clubs/{club.slug}/sessions/{session.pk}/hands/1/").content.decode())
    assert change in history
    assert reason in history
    assert "{" not in history and '"captured"' not in history


@pytest.mark.parametrize(
    ("action", "extra", "message"),
    [
        ("void", {}, "请写明为什么作废。"),
        ("correct", {"captured": "30"}, "请写明为什么更正。"),
    ],
)
def test_a_refused_fix_from_the_hand_page_comes_back_on_the_hand_page(owner_client, action, extra, message):
    client, club, owner = owner_client
    session = make_session(club, owner)
    record_hands(session, owner, [{"dealer": 0, "declarer": 1, "bid": 85, "captured": 35}])
    page = client.get(f"/clubs/{club.slug}/sessions/{session.pk}/hands/1/").content.decode()
    form = dict(re.findall(r'<input type="hidden" name="([a-z_]+)" value="([^"]*)"', page))
    assert form["return_to"] == "hand"
    data = {**form, "dealer": "0", "declarer": "1", "bid": "85", "captured": "35", **extra, "action": action}
    response = client.post(f"/clubs/{club.slug}/sessions/{session.pk}/table/hands/1/", data)
    html = response.content.decode()
    assert response.status_code == 400
    assert '<section class="history">' in html  # the hand page, its trail still there
    assert message in html
    assert 'name="return_to" value="hand"' in html  # a second try comes back here too
