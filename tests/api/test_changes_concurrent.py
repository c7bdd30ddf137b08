"""PostgreSQL: writers of one club commit their changes in id order, so a reader following the feed skips none.

Sequence values are drawn at insert and may commit out of order: two writers into two sessions of one club hold
different session locks, so without more the second could commit id 12 while the first still holds id 11, and a
reader that saw 12 would never see 11. Each write takes the club's feed lock just before its change rows
(`ledger/changes.py`); these tests show the second writer waiting on it, and a reader polling the feed while
writers race reading every change exactly once, in order. (SQLite's writers never overlap.)
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, connections, transaction

from settlement import services
from settlement.models import Change
from tests.api.conftest import client_for
from tests.factories import make_club, make_member, make_session
from tests.services.writers import HAND

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite has one writer at a time"),
    pytest.mark.django_db(transaction=True),
]


def _feed_lock_waiters() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
        return cursor.fetchone()[0]


def _follow(client, feed, cursor):
    """Every change after `cursor`, page by page: (the changes' ids, the last cursor)."""
    from settlement.api.change_serializers import cursor_decode

    ids = []
    while True:
        body = client.get(feed, {"limit": 5, **({"after": cursor} if cursor else {})}).json()
        ids += [cursor_decode(entry["cursor"]) for entry in body["results"]]
        cursor = body["cursor"]
        if not body["has_more"]:
            return ids, cursor


def test_a_second_writer_of_the_club_waits_for_the_first_to_commit_its_change():
    club = make_club()
    owner = make_member(club)
    first, second = make_session(club, owner), make_session(club, owner)
    client = client_for(owner)
    feed = f"/api/v1/clubs/{club.slug}/changes/"
    _, cursor = _follow(client, feed, None)
    held, release, outcome = threading.Event(), threading.Event(), {}

    def hold():
        try:
            with transaction.atomic():
                services.hand_record(session=first, user=owner, hand_input=HAND)
                held.set()
                release.wait(timeout=30)
        finally:
            held.set()
            connections.close_all()

    def write():
        try:
            services.hand_record(session=second, user=owner, hand_input=HAND)
            outcome["second"] = "done"
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait(timeout=30)
    writer = threading.Thread(target=write)
    writer.start()
    deadline = time.monotonic() + 30
    while not _feed_lock_waiters() and time.monotonic() < deadline:
        time.sleep(0.02)
    waiting = _feed_lock_waiters()
    during, _ = _follow(client, feed, cursor)  # neither hand is committed: the feed shows neither
    release.set()
    holder.join(timeout=30)
    writer.join(timeout=30)
    assert waiting == 1 and during == [] and outcome == {"second": "done"}
    after, _ = _follow(client, feed, cursor)
    changes = {c.pk: c.session_id for c in Change.objects.filter(club=club, kind="hand.recorded")}
    assert [changes[pk] for pk in after] == [first.pk, second.pk]  # the first to commit has the smaller id


def test_a_reader_polling_while_writers_race_reads_every_change_once_in_order():
    club = make_club()
    owner = make_member(club)
    sessions = [make_session(club, owner) for _ in range(4)]
    client = client_for(owner)
    feed = f"/api/v1/clubs/{club.slug}/changes/"
    barrier, errors = threading.Barrier(len(sessions)), []

    def write(session):
        try:
            barrier.wait(timeout=30)
            for _ in range(5):
                services.hand_record(session=session, user=owner, hand_input=HAND)
        except Exception as exc:
            errors.append(repr(exc))
        finally:
            connections.close_all()

    writers = [threading.Thread(target=write, args=(session,)) for session in sessions]
    for writer in writers:
        writer.start()
    seen, cursor = _follow(client, feed, None)
    while any(writer.is_alive() for writer in writers):
        more, cursor = _follow(client, feed, cursor)
        seen += more
    for writer in writers:
        writer.join(timeout=60)
    more, _ = _follow(client, feed, cursor)
    seen += more
    assert errors == []
    assert seen == list(Change.objects.filter(club=club).order_by("pk").values_list("pk", flat=True))
    assert Change.objects.filter(club=club, kind="hand.recorded").count() == 20
