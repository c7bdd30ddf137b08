"""Six-player classic 打百分 on every page (rules/baifen.md classic, seed 001 也有6人的): the opening form's player
count, the table, the record, the share page and its big screen, the statistics, export, and the six side colours.

The session is ../shared/golden-next/baifen-classic-six-players.json, worked by hand there: totals
[−15, −9, −6, −15, +39, +6]; the settle-up pairs 丙 −6 with 己 +6 and clears the other four in three.
"""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from django.conf import settings
from django.urls import reverse

from settlement import services
from settlement.models import Session
from tests.conftest import ROOT
from tests.factories import SIX_CLASSIC_HANDS, SIX_NAMES, make_session, record_hands

from .test_entry_forms import page_defaults

pytestmark = pytest.mark.django_db

SIX = list(SIX_NAMES)
HANDS = SIX_CLASSIC_HANDS


def _url(name, session, **extra):
    return reverse(name, kwargs={"slug": session.club.slug, "session_id": session.pk, **extra})


def _english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


def _text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def six(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner, variant="baifen.classic", players=SIX)
    record_hands(session, owner, HANDS)
    return client, session, owner


def test_the_opening_form_offers_four_or_six_and_starts_at_four(owner_client):
    client, club, _ = owner_client
    url = reverse("session_new", kwargs={"slug": club.slug})
    page = client.get(url, {"variant": "baifen.classic"})
    html = page.content.decode()
    assert 'players=4" class="current"' in html and 'players=6" class=""' in html
    assert page.context["form"].n_players == 4
    page = client.get(url, {"variant": "baifen.classic", "players": "6"})
    assert page.context["form"].n_players == 6 and 'name="seat_5_name"' in page.content.decode()


def test_the_opening_form_opens_a_six_player_classic_session(owner_client):
    client, club, _ = owner_client
    url = reverse("session_new", kwargs={"slug": club.slug}) + "?variant=baifen.classic&players=6"
    data = page_defaults(client.get(url).context["form"])
    data |= {f"seat_{seat}_name": name for seat, name in enumerate(SIX)}
    assert client.post(url, data).status_code == 302
    session = Session.objects.get()
    assert [s.player.name for s in session.seats.order_by("seat")] == SIX


def test_the_table_page_shows_six_seats_in_six_colours_and_alone_is_1_against_5(six):
    client, session, _ = six
    _english(client)
    page = client.get(_url("table", session)).content.decode()
    for seat in range(6):
        assert f'<tr class="side s{seat}">' in page
        assert re.search(rf'<input type="radio"[^>]* name="partner"[^>]* value="{seat}"', page)
    assert "alone (1 against 5)" in page and "1 against 3" not in page
    board = _text(page[page.index('class="board"') : page.index("</table>", page.index('class="board"'))])
    assert "甲 −15" in board and "戊 +39" in board and "己 +6" in board
    # hand 5 was dealt by 戊 (seat 4): the sixth seat, 己, deals hand 6.
    assert "Hand 6" in _text(page)
    assert re.findall(r'<input type="radio"[^>]* name="dealer"[^>]* value="(\d)"[^>]* checked', page) == ["5"]


def test_the_table_preview_receipt_in_both_languages(six):
    client, session, _ = six
    hand = {"declarer": "1", "bid": "55", "partner": "none", "captured": "45"}
    zh = client.post(_url("table_preview", session), hand).content.decode()
    # 45 ≥ 45: broken, m 1; 乙 alone pays each of the five 1.
    assert "庄家一打五：−5，其余各 +1" in zh
    _english(client)
    en = client.post(_url("table_preview", session), hand).content.decode()
    assert "declarer alone: −5, the others +1 each" in en


def test_the_closed_record_settles_up_in_four_transfers(six):
    client, session, owner = six
    services.session_close(session=session, user=owner)
    _english(client)
    page = _text(client.get(_url("session_detail", session)).content.decode())
    for line in ("甲 pays 戊 15", "乙 pays 戊 9", "丙 pays 己 6", "丁 pays 戊 15"):
        assert line in page
    assert page.count(" pays ") == 4


@pytest.mark.parametrize("tv", [False, True])
def test_the_share_page_and_the_big_screen_show_all_six(six, tv):
    client, session, owner = six
    link = services.share_create(session=session, user=owner)
    client.logout()
    page = client.get(reverse("share", args=[link.token]) + ("?view=tv" if tv else "")).content.decode()
    for seat, name in enumerate(SIX):
        assert f'<tr class="side s{seat}">' in page and name in page
    if not tv:  # the chart and its legend: one series per seat
        assert all(f'class="series s{seat}"' in page for seat in range(6))
    live = client.get(reverse("share_live", args=[link.token])).content.decode()
    assert "+39" in live and "−15" in live


def test_the_stats_and_the_leaderboard_count_six_players(six):
    client, session, owner = six
    services.session_close(session=session, user=owner)
    club = session.club
    standings = _text(client.get(reverse("standings", args=[club.slug])).content.decode())
    for name, total in zip(SIX, ("−15", "−9", "−6", "−15", "+39", "+6"), strict=True):
        assert f"{name} {total}" in standings
    board = client.get(reverse("club_leaderboard", args=[club.slug]) + "?family=baifen.classic").content.decode()
    assert all(name in board for name in SIX)
    rows = list(csv.reader(io.StringIO(client.get(reverse("standings_csv", args=[club.slug])).content.decode())))
    assert sorted(cell for row in rows[1:] for cell in row if cell in SIX) == sorted(SIX)


def test_the_export_is_the_six_player_document(six):
    client, session, _ = six
    document = json.loads(client.get(_url("session_export", session)).content)
    assert (document["variant"], document["players"]) == ("baifen.classic", SIX)
    assert [h.get("dealer") for h in document["hands"]] == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("css", ["table.css", "share.css"])
def test_six_seats_have_six_distinct_colours_in_light_and_dark(css):
    text = (ROOT / "static" / "css" / css).read_text(encoding="utf-8")
    for seat in range(6):
        assert f".s{seat} .swatch, .series.s{seat} {{ color: var(--s{seat}); }}" in text
    schemes = [dict(re.findall(r"--s(\d): (#[0-9a-f]{6})", line)) for line in text.splitlines() if "--s0:" in line]
    assert len(schemes) == 2  # the light scheme and the dark one
    for colours in schemes:
        assert sorted(colours) == [str(s) for s in range(6)] and len(set(colours.values())) == 6


def test_a_players_page_lists_the_six_player_session_and_its_partners(six):
    client, session, _ = six
    wu = session.seats.get(seat=4).player
    page = _text(client.get(reverse("player_detail", args=[session.club.slug, wu.pk])).content.decode())
    assert "+39" in page
    assert all(name in page for name in SIX)
