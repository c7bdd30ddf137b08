"""The standings page, its downloads and the player page's statistics: words, files and flat query counts."""

from __future__ import annotations

import csv
import datetime
import io
import re

import pytest
from openpyxl import load_workbook

from tests.factories import BENXI_EXAMPLE, make_session, record_hands

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_with_a_session(owner_client):
    client, club, owner = owner_client
    session = make_session(club, owner, date=datetime.date(2026, 11, 1), players=["王", "李", "张", "赵"])
    record_hands(session, owner, BENXI_EXAMPLE)
    return client, club, owner


def _more_sessions(club, owner, n=6):
    for day in range(1, n + 1):
        session = make_session(club, owner, date=datetime.date(2026, 10, day), players=["王", "李", f"客{day}", "赵"])
        record_hands(session, owner, BENXI_EXAMPLE[: day % 5 + 1])


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("zh-hans", ("<h1>排名</h1>", "打百分 · 盘分", "按合计排名")),
        ("en", ("<h1>Standings</h1>", "Baifen (打百分) · 盘 points", "Ranked by total")),
    ],
)
def test_the_standings_page_states_its_groups_and_ranking_rule(club_with_a_session, lang, words):
    client, club, _ = club_with_a_session
    page = client.get(f"/clubs/{club.slug}/standings/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    for word in words:
        assert word in page
    # 王 and 张 315 (rank 1, 张 first by name), 李 and 赵 230 (rank 3): test_standings.py works them out.
    assert page.index("张") < page.index("王") < page.index("李") < page.index("赵")


def test_the_club_navigation_links_the_standings(club_with_a_session):
    client, club, _ = club_with_a_session
    assert f'href="/clubs/{club.slug}/standings/"' in client.get(f"/clubs/{club.slug}/").content.decode()


def test_a_bad_date_is_a_400_naming_the_field_on_the_page_and_the_downloads(club_with_a_session):
    client, club, _ = club_with_a_session
    response = client.get(f"/clubs/{club.slug}/standings/?date_from=soon", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400 and "Enter a valid date" in response.content.decode()
    assert client.get(f"/clubs/{club.slug}/standings.csv?date_from=soon").status_code == 400
    assert client.get(f"/clubs/{club.slug}/standings.xlsx?date_from=soon").status_code == 400
    # A good filter, or none, is still a 200.
    assert client.get(f"/clubs/{club.slug}/standings/?date_from=2026-01-01").status_code == 200
    assert client.get(f"/clubs/{club.slug}/standings/").status_code == 200


def test_the_csv_download_is_utf8_with_a_bom(club_with_a_session):
    client, club, _ = club_with_a_session
    response = client.get(f"/clubs/{club.slug}/standings.csv?variant=baifen.benxi", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response["Content-Disposition"] == f'attachment; filename="standings-{club.slug}.csv"'
    assert response.content.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert [(row[1], row[3], row[10]) for row in rows[1:]] == [
        ("1", "张", "315"),
        ("1", "王", "315"),
        ("3", "李", "230"),
        ("3", "赵", "230"),
    ]


def test_the_excel_download_has_a_sheet_per_group(club_with_a_session):
    client, club, owner = club_with_a_session
    record_hands(make_session(club, owner, variant="baifen.classic", players=["王", "李", "张", "赵"]), owner, [])
    response = client.get(f"/clubs/{club.slug}/standings.xlsx", HTTP_ACCEPT_LANGUAGE="en")
    assert response["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    book = load_workbook(io.BytesIO(response.content))
    assert book.sheetnames[0] == "Standings" and book.worksheets[0]["A1"].value.startswith("Ranked by total")
    sheet = book["Baifen (打百分) · 盘 points"]
    assert [cell.value for cell in sheet[1]][:3] == ["rank", "player id", "player"]
    assert [(row[0], row[2], row[9]) for row in sheet.iter_rows(min_row=2, values_only=True)] == [
        (1, "张", 315),
        (1, "王", 315),
        (3, "李", 230),
        (3, "赵", 230),
    ]


def test_the_player_page_shows_the_statistics_and_the_chart(club_with_a_session):
    client, club, _ = club_with_a_session
    wang = club.players.get(name="王")
    page = client.get(f"/clubs/{club.slug}/players/{wang.pk}/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "统计" in page and "对战" in page and "搭档" in page
    assert '<svg class="running-chart"' in page and "1 场后：+315" in page
    english = client.get(f"/clubs/{club.slug}/players/{wang.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Head to head" in english and "After 1 session: +315" in english


# Pinned, with 1 session and with 7: the login session, its user, the membership, then the standings' seats,
# hand figures, game figures and players (7); the player page adds the player, its newest sessions' own reads
# (sessions, seats, totals, games won: 4; one session more than shown says whether to link the rest) and the
# statistics' seats, hand figures, game figures, bids, partners, opponents and their names (7), and the
# ratings part (`ledger/ratings.py`): the player's rating rows, its audit trail and, for an owner, the players it could
# be merged into (3); the records part (`_player_records.html`): the player's longest run, biggest hand, 抠底, 光头,
# 包场 and 出锅 (6), and the achievements, one a badge (8).
PAGE_QUERIES = {"standings/": 7, "standings.csv": 7, "standings.xlsx": 7, "players/{player}/": 15 + 3 + 6 + 8}


@pytest.mark.parametrize(("page", "queries"), PAGE_QUERIES.items())
def test_stats_pages_cost_the_same_queries_however_many_sessions(
    club_with_a_session, django_assert_num_queries, page, queries, monkeypatch
):
    monkeypatch.setattr("settlement.web.players.PLAYER_SESSIONS", 3)  # 1 session, then 7: the player page's list is cut
    client, club, owner = club_with_a_session
    url = f"/clubs/{club.slug}/" + page.format(player=club.players.get(name="王").pk)
    with django_assert_num_queries(queries):
        assert client.get(url).status_code == 200
    _more_sessions(club, owner)
    with django_assert_num_queries(queries):
        assert client.get(url).status_code == 200


@pytest.mark.parametrize(
    ("lang", "caption", "across", "up", "desc"),
    [
        ("zh-hans", "累计总分，逐场", "场次（从早到晚）", "累计", "横轴：2026-11-01 至 2026-11-01 的各场"),
        ("en", "Running total, session by session", "Sessions, oldest first", "Running total", "Across: the sessions"),
    ],
)
def test_the_player_chart_has_a_title_and_labelled_axes_in_the_readers_language(
    club_with_a_session, lang, caption, across, up, desc
):
    client, club, _ = club_with_a_session
    wang = club.players.get(name="王")
    page = client.get(f"/clubs/{club.slug}/players/{wang.pk}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    figure = page[page.index('<figure class="running">') : page.index("</figure>")]
    assert f'<figcaption id="chart-title-1">{caption}</figcaption>' in figure
    assert re.search(r'<svg class="running-chart"[^>]* role="img" aria-labelledby="chart-svg-title-1"', figure)
    assert re.search(rf'<text class="axis-title x-title"[^>]*>{across}</text>', figure)
    assert re.search(rf'<text class="axis-title y-title" transform="rotate\(-90\)"[^>]*>{up}</text>', figure)
    assert desc in figure and figure.count('class="axis"') == 2
    assert '<text class="date"' in figure and "2026-11-01" in figure  # the one session's date under the line


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "zh-hans",
            (
                "搭档与对手",
                "至少 10 局",
                "最佳搭档",
                "张：每局平均 63.0，共 10 局",
                "最差搭档",
                "李：每局平均 13.0，共 10 局",
            ),
        ),
        (
            "en",
            (
                "Partners and rivals",
                "at least 10 hands together (or against)",
                "Best partner</dt><dd>张: 63.0 per hand over 10 hands",
                "Worst partner</dt><dd>李: 13.0 per hand over 10 hands",
            ),
        ),
    ],
)
def test_the_player_page_names_the_best_and_worst_partner_with_the_minimum_stated(club_with_a_session, lang, words):
    client, club, owner = club_with_a_session
    # 王 with 张 (seat 2): the fixture's 5 hands and 5 more, 315 each time: 630 over 10, 63.0 a hand. With 李 in
    # seat 2: hands 1–4 twice (80 + 20 + 0 − 85 = 15 each) and 1–2 (100): 130 over 10, 13.0 a hand.
    record_hands(
        make_session(club, owner, date=datetime.date(2026, 11, 2), players=["王", "赵", "张", "李"]),
        owner,
        BENXI_EXAMPLE,
    )
    for day, hands in ((3, 4), (4, 4), (5, 2)):
        session = make_session(club, owner, date=datetime.date(2026, 11, day), players=["王", "赵", "李", "张"])
        record_hands(session, owner, BENXI_EXAMPLE[:hands])
    wang = club.players.get(name="王")
    page = client.get(f"/clubs/{club.slug}/players/{wang.pk}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    for word in words:
        assert word in re.sub(r"\s*\n\s*", "", page)
