"""A note on a hand (issue 31, item 17): free text stored with the hand's revision, never an edit of a stored
row; shown in the hand's audit trail and the API's revisions, kept by a backup."""

from __future__ import annotations

import pytest
from django.urls import reverse

from settlement import services
from settlement.ledger import LedgerError
from settlement.models import HandRevision
from tests.factories import BENXI_EXAMPLE, make_session

pytestmark = pytest.mark.django_db


def test_a_note_is_stored_with_the_recorded_hand_and_shown_in_its_trail(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    services.hand_record(session=session, user=owner, hand_input=BENXI_EXAMPLE[0], note="乙 出错了牌")
    assert HandRevision.objects.get().note == "乙 出错了牌"
    page = client.get(reverse("hand_detail", args=[club.slug, session.pk, 1])).content.decode()
    assert "备注：乙 出错了牌" in page


def test_changing_only_the_note_is_a_new_revision_and_the_old_one_keeps_its_note(owner_client):
    _, club, owner = owner_client
    session = make_session(club, owner)
    services.hand_record(session=session, user=owner, hand_input=BENXI_EXAMPLE[0], note="first")
    services.hand_correct(
        session=session, user=owner, number=1, hand_input=BENXI_EXAMPLE[0], reason="note", note="second"
    )
    assert list(HandRevision.objects.order_by("number").values_list("note", flat=True)) == ["first", "second"]
    # No note given: the current one is carried over, so the same input again is no change.
    with pytest.raises(LedgerError, match="same as the current entry"):
        services.hand_correct(session=session, user=owner, number=1, hand_input=BENXI_EXAMPLE[0], reason="again")


def test_the_table_form_posts_the_note(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner)
    url = reverse("table", args=[club.slug, session.pk])
    hand = {"action": "record", "dealer": "0", "declarer": "0", "bid": "80", "captured": "15", "client_key": "k1"}
    assert client.post(url, hand | {"note": "最后一圈手机掉线"}).status_code == 302
    assert HandRevision.objects.get().note == "最后一圈手机掉线"
