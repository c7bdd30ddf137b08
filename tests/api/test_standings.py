"""Club standings: figures worked by hand for a small club with sessions in two units; CSV for spreadsheets."""

from __future__ import annotations

import csv
import datetime
import io

import pytest

from settlement import services
from tests.factories import BENXI_EXAMPLE, make_club, make_member, make_player, make_session, record_hands

from .conftest import assert_error, client_for

pytestmark = pytest.mark.django_db

URL = "/api/v1/clubs/cha/standings/"

# The figures, worked by hand.
#
# Session A, 2026-11-01, 本溪 (盘 points), seats 王 李 张 赵, closed: rules/baifen.md's example.
#   1. 王 bids 80, 15 captured: made, 王 + 张 +80, 李 + 赵 +15.
#   2. 李 bids 85, 20 captured: 105 > 100 broken, 李 + 赵 −85, 王 + 张 +20.
#   3. 赵 bids 90, 0 captured: made clean, 李 + 赵 +200 (clean[90]), 王 + 张 +0.
#   4. 张 bids 85, 55 captured: broken, 王 + 张 −85; 55 ≥ 50 counts 100: 李 + 赵 +100 → 230 ≥ 205, 盘 1 theirs.
#   5. 王 bids 100, 0 captured: clean, 王 + 张 +300 → 盘 2 theirs.
#   Totals 王 张 15 + 300 = 315, 李 赵 230; each wins one 盘; 王 and 张 win the session (highest, closed).
#   Declarers: 王 2 (80 and 100, both made), 李 1 broken, 赵 1 made, 张 1 broken. 315 / 5 hands = 63.0; 230 / 5 = 46.0.
# Session B, 2026-11-08, classic (注, stake 1, unit_value 10), seats 李 王 钱 张, open:
#   1. 李 bids 60 with 钱, 30 captured < 40: made, m = 1: 李 +1, 钱 +1, 王 −1, 张 −1.
#   2. 王 bids 70 alone, nothing captured: made clean, m = 2: each opponent −2, 王 +6.
#   3. 张 bids 50 with 王, 50 captured ≥ 50: broken, m = 1: 张 −1, 王 −1, 李 +1, 钱 +1.
#   4. a hand entered by mistake, then void: it counts nowhere.
#   Totals 李 0, 王 +4, 钱 0, 张 −4 over 3 hands; open, so no one has won it. 4 / 3 = 1.3, −4 / 3 = −1.3.
# Ranked by total, then games won, then sessions won; a tie on all three shares the rank (listed by name:
# 张 U+5F20 before 王 U+738B, 李 U+674E before 赵 U+8D75 and 钱 U+94B1).
# (rank, sessions, sessions_won, hands, declared, declarer_won, games_won, total, per_session, per_hand)
PAN = [
    ("张", (1, 1, 1, 5, 1, 0, 1, 315, 315.0, 63.0)),
    ("王", (1, 1, 1, 5, 2, 2, 1, 315, 315.0, 63.0)),
    ("李", (3, 1, 0, 5, 1, 0, 1, 230, 230.0, 46.0)),
    ("赵", (3, 1, 0, 5, 1, 1, 1, 230, 230.0, 46.0)),
]
ZHU = [
    ("王", (1, 1, 0, 3, 1, 1, 0, 4, 4.0, 1.3)),
    ("李", (2, 1, 0, 3, 1, 1, 0, 0, 0.0, 0.0)),
    ("钱", (2, 1, 0, 3, 0, 0, 0, 0, 0.0, 0.0)),
    ("张", (4, 1, 0, 3, 1, 0, 0, -4, -4.0, -1.3)),
]
A_GROUPS = {"baifen/pan_points": PAN}
B_GROUPS = {"baifen/zhu": ZHU}
ALL_GROUPS = {**A_GROUPS, **B_GROUPS}
FIELDS = (
    "rank",
    "sessions",
    "sessions_won",
    "hands",
    "declared",
    "declarer_won",
    "games_won",
    "total",
    "per_session",
    "per_hand",
)


@pytest.fixture
def tea_house():
    club = make_club("茶馆", slug="cha")
    owner = make_member(club)
    wang, li, zhang, zhao = (make_player(club, name) for name in ("王", "李", "张", "赵"))
    a = make_session(club, owner, date=datetime.date(2026, 11, 1), players=[wang, li, zhang, zhao])
    record_hands(a, owner, BENXI_EXAMPLE)
    services.session_close(session=a, user=owner)
    b = make_session(
        club,
        owner,
        variant="baifen.classic",
        options={"unit_value": 10},
        date=datetime.date(2026, 11, 8),
        players=[li, wang, "钱", zhang],
    )
    record_hands(
        b,
        owner,
        [
            {"declarer": 0, "bid": 60, "partner": 2, "captured": 30},
            {"declarer": 1, "bid": 70, "partner": None, "captured": 0},
            {"declarer": 3, "bid": 50, "partner": 1, "captured": 50},
            {"declarer": 0, "bid": 100, "partner": None, "captured": 0},
        ],
    )
    services.hand_void(session=b, user=owner, number=4, reason="entered by mistake")
    # Another club's session with the same names must not count.
    other = make_club(slug="elsewhere")
    stranger = make_member(other)
    record_hands(make_session(other, stranger, players=["王", "李", "张", "赵"]), stranger, BENXI_EXAMPLE)
    return club, owner, a, b


def seven_more_sessions(club, owner):
    """Seven 本溪 sessions in October, 王 李 and 赵 with a new guest each, of 2, 3, 4, 5, 1, 2, 3 hands."""
    for day in range(1, 8):
        session = make_session(club, owner, date=datetime.date(2026, 10, day), players=["王", "李", f"客{day}", "赵"])
        record_hands(session, owner, BENXI_EXAMPLE[: day % 5 + 1])


def _grouped(groups):
    return {
        group["group"]: [(row["player"]["name"], tuple(row[field] for field in FIELDS)) for row in group["rows"]]
        for group in groups
    }


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({}, ALL_GROUPS),
        ({"variant": "baifen.benxi"}, A_GROUPS),
        ({"variant": "baifen.classic"}, B_GROUPS),
        ({"date_to": "2026-11-01"}, A_GROUPS),
        ({"date_from": "2026-11-02"}, B_GROUPS),
        ({"date_from": "2026-11-01", "date_to": "2026-11-08"}, ALL_GROUPS),
        ({"date_from": "2026-11-09"}, {}),
        ({"variant": "erguai"}, {}),
    ],
)
def test_standings_rank_each_family_and_unit_apart(tea_house, query, expected):
    owner = tea_house[1]
    response = client_for(owner).get(URL, query)
    assert response.status_code == 200, response.content
    assert _grouped(response.json()) == expected


def test_standings_groups_say_their_unit_and_ranking_rule_in_the_request_language(tea_house):
    owner = tea_house[1]
    zh = client_for(owner, lang="zh-hans").get(URL).json()
    assert [(g["family"], g["unit"], g["label"]) for g in zh] == [
        ("baifen", "pan_points", "打百分 · 盘分"),
        ("baifen", "zhu", "打百分 · 注"),
    ]
    assert zh[0]["variants"] == ["baifen.benxi"]
    assert zh[0]["ranking"].startswith("按合计")
    assert client_for(owner).get(URL).json()[0]["ranking"].startswith("Ranked by total")


def test_standings_rows_name_the_player(tea_house):
    club, owner = tea_house[:2]
    groups = client_for(owner).get(URL).json()
    qian = next(row for row in groups[1]["rows"] if row["player"]["name"] == "钱")
    assert qian["player"] == {"id": club.players.get(name="钱").pk, "name": "钱", "is_guest": True}


def test_standings_cost_the_same_queries_however_many_sessions(tea_house, django_assert_num_queries):
    club, owner = tea_house[:2]
    client = client_for(owner)
    # token, membership, seats, hand figures, game figures, players
    with django_assert_num_queries(6):
        client.get(URL)
    seven_more_sessions(club, owner)
    with django_assert_num_queries(6):
        assert len(client.get(URL).json()[0]["rows"]) == 4 + 7


def test_the_csv_is_utf8_with_a_bom_and_reads_back_with_chinese_names(tea_house):
    owner = tea_house[1]
    response = client_for(owner, lang="zh-hans").get(URL, {"format": "csv"})
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="standings-cha.csv"'
    assert response.content.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    # The header is the JSON's keys whatever the request's language; the cells keep the request's language.
    assert rows[0] == [
        "label",
        "rank",
        "player.id",
        "player.name",
        "sessions",
        "sessions_won",
        "hands",
        "declared",
        "declarer_won",
        "games_won",
        "total",
        "per_session",
        "per_hand",
    ]
    by_name = {(row[0], row[3]): row[1:3] + row[4:] for row in rows[1:]}
    wang = tea_house[0].players.get(name="王").pk
    assert by_name[("打百分 · 盘分", "王")] == ["1", str(wang), "1", "1", "5", "2", "2", "1", "315", "315.0", "63.0"]
    assert by_name[("打百分 · 注", "王")] == ["1", str(wang), "1", "0", "3", "1", "1", "0", "4", "4.0", "1.3"]
    assert len(rows) == 1 + 4 + 4


@pytest.mark.parametrize("lang", ["en", "zh-hans"])
def test_the_csv_header_is_in_words_on_request_and_only_the_header_changes(tea_house, lang):
    owner = tea_house[1]
    keyed = client_for(owner, lang=lang).get(URL, {"format": "csv"}).content.decode("utf-8-sig").splitlines()
    response = client_for(owner, lang=lang).get(URL, {"format": "csv", "labels": "zh-Hans"})
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == [
        "分组",
        "名次",
        "玩家编号",
        "玩家",
        "场数",
        "赢的场数",
        "局数",
        "坐庄局数",
        "坐庄获胜局数",
        "胜盘数",
        "合计",
        "每场平均",
        "每局平均",
    ]
    assert response.content.decode("utf-8-sig").splitlines()[1:] == keyed[1:]
    english = client_for(owner, lang=lang).get(URL, {"format": "csv", "labels": "en"}).content.decode("utf-8-sig")
    assert english.splitlines()[0].split(",")[:3] == ["group", "rank", "player id"]


def test_labels_other_than_the_two_languages_are_refused(tea_house):
    response = client_for(tea_house[1]).get(URL, {"format": "csv", "labels": "fr"})
    assert response.status_code == 400 and response.json()["field"] == "labels"


def test_the_csv_has_the_same_rows_as_the_json(tea_house):
    owner = tea_house[1]
    client = client_for(owner, lang="en")
    rows = list(csv.DictReader(io.StringIO(client.get(URL, {"format": "csv"}).content.decode("utf-8-sig"))))
    groups = client.get(URL).json()
    assert [row["player.name"] for row in rows] == [r["player"]["name"] for g in groups for r in g["rows"]]
    assert [int(row["total"]) for row in rows] == [r["total"] for g in groups for r in g["rows"]]


def test_the_csv_filters_like_the_json(tea_house):
    owner = tea_house[1]
    content = client_for(owner).get(URL, {"format": "csv", "variant": "baifen.classic"}).content.decode("utf-8-sig")
    assert {row[3] for row in list(csv.reader(io.StringIO(content)))[1:]} == {"王", "李", "张", "钱"}


def test_a_name_a_spreadsheet_would_run_as_a_formula_stays_text(tea_house):
    club, owner = tea_house[:2]
    session = make_session(club, owner, players=["=1+1", "李", "张", "赵"])
    record_hands(session, owner, BENXI_EXAMPLE[:1])
    content = client_for(owner).get(URL, {"format": "csv"}).content.decode("utf-8-sig")
    assert "'=1+1" in [row[3] for row in csv.reader(io.StringIO(content))]


def test_standings_errors_are_json_even_when_csv_was_asked_for(tea_house):
    owner = tea_house[1]
    outsider = make_member(make_club())
    response = client_for(outsider).get(URL, {"format": "csv"})
    assert response["Content-Type"] == "application/json"
    assert_error(response, 404, "not_found")
    assert_error(client_for(owner).get(URL, {"date_from": "soon"}), 400, "invalid", field="date_from")


def test_standings_csv_has_its_own_address_equal_to_the_format_parameter(table):
    client = table.client("viewer")
    own = client.get("/api/v1/clubs/laonian/standings.csv")
    old = client.get("/api/v1/clubs/laonian/standings/?format=csv")
    assert own.status_code == old.status_code == 200
    assert own["Content-Type"].startswith("text/csv") and own.content == old.content
    assert own.content.startswith("\ufeff".encode())
    assert client.get("/api/v1/clubs/laonian/standings.csv?variant=").status_code == 400
    assert client.get("/api/v1/clubs/other/standings.csv").json()["code"] == "not_found"


def test_options_on_the_csv_address_is_no_server_error(table):
    response = table.client("viewer").options("/api/v1/clubs/laonian/standings.csv")
    assert response.status_code == 200 and response.content.startswith("\ufeff".encode())
