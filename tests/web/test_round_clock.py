"""The round clock on an event's tables: the table page, its share viewer and the big screen say when the round
ends and the minutes left (served so, it works without script), and after the end what a hand recorded now is
(counted, refused, or allowed by the director); the same paragraph on each page; none without a clock."""

from __future__ import annotations

import datetime
import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from settlement import services
from settlement.models import Round, RoundTable
from tests.factories import make_session

pytestmark = pytest.mark.django_db


def _event(club, owner, *, late_hands="counted", length=45):
    event = services.event_create(
        club=club,
        user=owner,
        name="周五晚赛",
        variant="baifen.benxi",
        players=[f"P{i:02}" for i in range(8)],
        late_hands=late_hands,
    )
    services.round_draw(event=event, user=owner, draw="random", seed=3, length_minutes=length)
    return event


def _ends_in(event, delta):
    ends = timezone.now() + delta
    Round.objects.filter(event=event).update(ends_at=ends)
    return timezone.localtime(ends).strftime("%H:%M")


def _table(event):
    return RoundTable.objects.filter(round__event=event).order_by("number").first().session


def _clock(page):
    found = re.search(r'<p class="round-clock[^"]*".*?</p>', page, re.S)
    return found.group(0) if found else None


@pytest.mark.parametrize(
    ("lang", "ends", "left"),
    [
        ("zh-hans", "第 1 轮 <time>{t}</time> 结束", "还剩 13 分钟"),
        ("en", "Round 1 ends at <time>{t}</time>", "13 min left"),
    ],
)
def test_the_table_page_says_when_the_round_ends_and_the_minutes_left(owner_client, lang, ends, left):
    client, club, owner = owner_client
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    event = _event(club, owner)
    time = _ends_in(event, datetime.timedelta(minutes=12, seconds=30))  # 12½ minutes: 13 rounded up

    clock = _clock(client.get(reverse("table", args=[club.slug, _table(event).pk])).content.decode())

    assert ends.format(t=time) in clock and left in clock
    running = re.search(r'<span class="clock-running"([^>]*)>', clock).group(1)
    over = re.search(r'<span class="clock-over"([^>]*)>', clock).group(1)
    assert "hidden" not in running and "hidden" in over  # what script shows at the end is there, hidden


LATE = [
    ("counted", False, "zh-hans", "现在录入的牌局照常计分。"),
    ("counted", False, "en", "A hand recorded now still counts."),
    ("refused", False, "zh-hans", "现在录入的牌局不予接受，除非裁判允许补录。"),
    ("refused", False, "en", "A hand recorded now is refused, unless the director allows late hands."),
    ("refused", True, "zh-hans", "裁判已允许补录：现在录入的牌局照常计分。"),
    ("refused", True, "en", "The director allows late hands: a hand recorded now counts."),
]


@pytest.mark.parametrize(("late_hands", "allowed", "lang", "words"), LATE)
def test_after_the_end_the_table_page_says_what_a_late_hand_is(owner_client, late_hands, allowed, lang, words):
    client, club, owner = owner_client
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    event = _event(club, owner, late_hands=late_hands)
    time = _ends_in(event, -datetime.timedelta(minutes=3))
    if allowed:
        services.round_late_allow(event=event, user=owner, n=1)

    clock = _clock(client.get(reverse("table", args=[club.slug, _table(event).pk])).content.decode())

    up = f"第 1 轮时间已到（{time}）。" if lang == "zh-hans" else f"Round 1's time is up ({time})."
    assert up in clock and words in clock and 'class="round-clock over"' in clock
    assert "hidden" in re.search(r'<span class="clock-running"([^>]*)>', clock).group(1)


def test_the_share_viewer_and_the_big_screen_show_the_table_pages_clock(owner_client):
    client, club, owner = owner_client
    event = _event(club, owner, late_hands="refused")
    _ends_in(event, datetime.timedelta(minutes=20))
    session = _table(event)
    link = services.share_create(session=session, user=owner)
    pages = [
        reverse("table", args=[club.slug, session.pk]),
        reverse("share", args=[link.token]),
        reverse("event_screen", kwargs={"slug": club.slug, "event_id": event.pk}),
        reverse("event_screen_live", kwargs={"slug": club.slug, "event_id": event.pk}),
    ]
    clocks = {re.sub(r' data-clock-now="[^"]*"', "", _clock(client.get(url).content.decode())) for url in pages}
    assert len(clocks) == 1  # one paragraph, word for word, on every page
    (clock,) = clocks
    assert re.search(r'data-clock-ends="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"', clock)


def test_the_late_hand_being_allowed_changes_the_big_screens_etag(owner_client, screen_refresh_passes):
    client, club, owner = owner_client
    event = _event(club, owner, late_hands="refused")
    url = reverse("event_screen_live", kwargs={"slug": club.slug, "event_id": event.pk})
    before = client.get(url)["ETag"]
    services.round_late_allow(event=event, user=owner, n=1)
    screen_refresh_passes(event)
    assert client.get(url, HTTP_IF_NONE_MATCH=before).status_code == 200


@pytest.mark.parametrize("how", ["no event", "no length", "session closed"])
def test_a_table_without_a_running_clock_shows_none(owner_client, how):
    client, club, owner = owner_client
    if how == "no event":
        session = make_session(club, owner)
    else:
        event = _event(club, owner, length=None if how == "no length" else 30)
        session = _table(event)
        if how == "session closed":
            services.session_close(session=session, user=owner)
    page = client.get(reverse("table", args=[club.slug, session.pk])).content.decode()
    assert _clock(page) is None and "round-clock" not in page
