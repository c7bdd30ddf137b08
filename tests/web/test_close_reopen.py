"""Closing asks once, without JavaScript; an owner reopens; a fix in a closed session warns first."""

from __future__ import annotations

import pytest
from django.urls import reverse

from settlement import services
from settlement.models import Role
from tests.factories import BENXI_EXAMPLE, make_member, make_session, record_hands

pytestmark = pytest.mark.django_db


def _url(name, session, **kwargs):
    return reverse(name, kwargs={"slug": session.club.slug, "session_id": session.pk, **kwargs})


@pytest.mark.parametrize(
    ("page", "query", "back_to"),
    [("session_detail", "", "session_detail"), ("table", "?from=table", "table")],
)
def test_closing_goes_through_one_confirmation_page_and_returns_where_it_started(owner_client, page, query, back_to):
    client, club, owner = owner_client
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE[:2])
    confirm = _url("session_close_confirm", session) + query
    html = client.get(_url(page, session)).content.decode()
    assert f'href="{confirm.replace("&", "&amp;")}"' in html  # a link, not a form that closes at once
    assert f'action="{_url("session_close", session)}"' not in html
    html = client.get(confirm).content.decode()
    assert "结束这一场？" in html and "2 局" in html
    response = client.post(_url("session_close", session), {"back": "table" if query else "session"})
    assert response["Location"] == _url(back_to, session)
    session.refresh_from_db()
    assert not session.is_open


def test_the_session_page_lists_closing_and_reopening_and_offers_the_owner_a_reopen(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    services.session_close(session=session, user=owner)
    html = client.get(_url("session_detail", session)).content.decode()
    assert f'action="{_url("session_reopen", session)}"' in html
    response = client.post(_url("session_reopen", session))
    assert response["Location"] == _url("session_detail", session)
    html = client.get(_url("session_detail", session)).content.decode()
    events = html[html.index('<ul class="events">') : html.index("</ul>", html.index('<ul class="events">'))]
    assert events.count("<li") == 2 and "已结束" in events and "重新打开" in events


def test_a_scorekeeper_sees_no_reopen_and_is_refused(client, owner_client):
    _, club, owner = owner_client
    session = make_session(club, owner)
    services.session_close(session=session, user=owner)
    client.force_login(make_member(club, Role.SCOREKEEPER))
    assert "session_reopen" not in client.get(_url("session_detail", session)).content.decode()
    assert (
        f'action="{_url("session_reopen", session)}"'
        not in client.get(_url("session_detail", session)).content.decode()
    )
    assert client.post(_url("session_reopen", session)).status_code == 403
    session.refresh_from_db()
    assert not session.is_open


def test_fixing_a_hand_of_a_closed_session_warns_that_settled_amounts_change(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE[:2])
    fix = reverse("table_fix", kwargs={"slug": club.slug, "session_id": session.pk, "number": 1})
    assert "closed-fix" not in client.get(fix).content.decode()
    services.session_close(session=session, user=owner)
    assert "这一场已结束：保存更正或作废会改变最终排名和已经结算的金额。" in client.get(fix).content.decode()
    hand = reverse("hand_detail", kwargs={"slug": club.slug, "session_id": session.pk, "number": 1})
    assert "closed-fix" in client.get(hand).content.decode()
