"""Undo the last hand at the table (issue 31, item 17): a confirmed void of the newest hand, with a default
reason; plain links and a form, so it works without JavaScript."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from settlement import services
from settlement.ledger import LedgerError
from settlement.models import HandRevision, Role
from tests.factories import BENXI_EXAMPLE, make_member, make_session, record_hands

pytestmark = pytest.mark.django_db


def _url(session, name):
    return reverse(name, kwargs={"slug": session.club.slug, "session_id": session.pk})


@pytest.fixture
def two_hands(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    record_hands(session, owner, BENXI_EXAMPLE[:2])
    return client, session, owner


@pytest.mark.parametrize(
    ("lang", "link", "title", "reason"),
    [
        ("zh-hans", "撤销上一局（第 2 局）", "撤销第 2 局？", "记分台撤销：记错了"),
        ("en", "Undo the last hand (Hand 2)", "Undo Hand 2?", "Undone at the table: entered by mistake"),
    ],
)
def test_the_table_links_to_a_confirmation_of_the_newest_hand(two_hands, lang, link, title, reason):
    client, session, _ = two_hands
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    table = client.get(_url(session, "table")).content.decode()
    assert link in table and _url(session, "table_undo") in table
    page = client.get(_url(session, "table_undo")).content.decode()
    assert title in page and f'value="{reason}"' in page
    assert 'name="number" value="2"' in page and 'name="revision" value="1"' in page
    assert HandRevision.objects.filter(is_void=True).count() == 0  # asking writes nothing


def test_confirming_voids_the_newest_hand_with_the_default_reason(two_hands):
    client, session, _ = two_hands
    page = client.get(_url(session, "table_undo"))
    reason = page.context["form"].initial["reason"]
    response = client.post(_url(session, "table_undo"), {"number": 2, "revision": 1, "reason": reason})
    assert response.status_code == 302 and response["Location"] == _url(session, "table") + "?voided=2"
    void = HandRevision.objects.get(is_void=True)
    assert (void.hand.number, void.reason) == (2, "记分台撤销：记错了")
    # Hand 1 is now the newest that counts, but the newest hand (2) is void: nothing more to undo.
    assert "撤销上一局" not in client.get(_url(session, "table")).content.decode()
    assert client.get(_url(session, "table_undo"))["Location"] == _url(session, "table")


def test_a_hand_recorded_after_the_confirmation_is_not_undone_instead(two_hands):
    client, session, owner = two_hands
    record_hands(session, owner, [BENXI_EXAMPLE[2]])  # another phone records hand 3 meanwhile
    response = client.post(_url(session, "table_undo"), {"number": 2, "revision": 1, "reason": "记错了"})
    assert response.status_code == 400
    assert "第 2 局已不是最后一局" in response.content.decode()
    assert not HandRevision.objects.filter(is_void=True).exists()


def test_an_empty_reason_is_refused_beside_the_field(two_hands):
    client, session, _ = two_hands
    html = client.post(_url(session, "table_undo"), {"number": 2, "revision": 1, "reason": ""}).content.decode()
    assert 'aria-describedby="undo-reason-error"' in html and 'id="undo-reason-error"' in html
    assert not HandRevision.objects.filter(is_void=True).exists()


def test_the_service_refuses_a_newest_void_of_an_earlier_hand(two_hands):
    _, session, owner = two_hands
    with pytest.raises(LedgerError) as refused:
        services.hand_void(session=session, user=owner, number=1, reason="x", newest=True)
    assert refused.value.code == "hand.not_newest"


def test_a_viewer_is_offered_no_undo_and_may_not_post_one(two_hands):
    client, session, _ = two_hands
    viewer = make_member(session.club, Role.VIEWER)
    client.force_login(viewer)
    assert "撤销上一局" not in client.get(_url(session, "table")).content.decode()
    assert client.post(_url(session, "table_undo"), {"number": 2, "revision": 1, "reason": "x"}).status_code == 403
