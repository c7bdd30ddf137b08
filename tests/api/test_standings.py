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
# Session A, 2026-11-01, 本溪 (分), seats 王 李 张 赵: rules/baifen.md's example.
#   A (王 + 张): 80, +20, +0, −85 → 15; then +300 → 315.  B (李 + 赵): 15, −85, +200, +100 → 230 (wins 盘 1).
#   A wins 盘 2 with a clean 100.  Declarers: 王 made 80 and 100 (won 2), 李 broke 85, 赵 made 90, 张 broke 85.
# Session B, 2026-11-08, classic (注, stake 1, unit_value 10), seats 李 王 钱 张:
#   1. 李 bids 60 with 钱, 30 captured < 40: made, m = 1: 李 +1, 钱 +1, 王 −1, 张 −1.
#   2. 王 bids 70 alone, nothing captured: made clean, m = 2: each opponent −2, 王 +6.
#   3. 张 bids 50 with 王, 50 captured ≥ 50: broken, m = 1: 张 −1, 王 −1, 李 +1, 钱 +1.
#   4. a hand entered by mistake, then void: it counts nowhere.
#   Totals 李 0, 王 +4, 钱 0, 张 −4; money × 10: 王 +40, 张 −40. One game, never finished.
A_FIGURES = {
    "王": (1, 5, 2, 2, 1, {"分": 315}, None),
    "李": (1, 5, 1, 0, 1, {"分": 230}, None),
    "张": (1, 5, 1, 0, 1, {"分": 315}, None),
    "赵": (1, 5, 1, 1, 1, {"分": 230}, None),
}
B_FIGURES = {
    "王": (1, 3, 1, 1, 0, {"注": 4}, 40),
    "李": (1, 3, 1, 1, 0, {"注": 0}, 0),
    "张": (1, 3, 1, 0, 0, {"注": -4}, -40),
    "钱": (1, 3, 0, 0, 0, {"注": 0}, 0),
}
ALL_FIGURES = {
    "王": (2, 8, 3, 3, 1, {"分": 315, "注": 4}, 40),
    "李": (2, 8, 2, 1, 1, {"分": 230, "注": 0}, 0),
    "张": (2, 8, 2, 0, 1, {"分": 315, "注": -4}, -40),
    "赵": (1, 5, 1, 1, 1, {"分": 230}, None),
    "钱": (1, 3, 0, 0, 0, {"注": 0}, 0),
}
FIELDS = ("sessions", "hands", "declared", "declarer_won", "games_won", "totals", "money")


@pytest.fixture
def tea_house():
    club = make_club("茶馆", slug="cha")
    owner = make_member(club)
    wang, li, zhang, zhao = (make_player(club, name) for name in ("王", "李", "张", "赵"))
    a = make_session(club, owner, date=datetime.date(2026, 11, 1), players=[wang, li, zhang, zhao])
    record_hands(a, owner, BENXI_EXAMPLE)
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
    return club, owner


def _by_name(rows):
    return {row["name"]: tuple(row[field] for field in FIELDS) for row in rows}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({}, ALL_FIGURES),
        ({"variant": "baifen.benxi"}, A_FIGURES),
        ({"variant": "baifen.classic"}, B_FIGURES),
        ({"date_to": "2026-11-01"}, A_FIGURES),
        ({"date_from": "2026-11-02"}, B_FIGURES),
        ({"date_from": "2026-11-01", "date_to": "2026-11-08"}, ALL_FIGURES),
        ({"date_from": "2026-11-09"}, {}),
        ({"variant": "erguai"}, {}),
    ],
)
def test_standings_add_up_each_players_sessions_per_unit(tea_house, query, expected):
    _, owner = tea_house
    response = client_for(owner).get(URL, query)
    assert response.status_code == 200, response.content
    assert _by_name(response.json()) == expected


def test_standings_rows_name_the_player(tea_house):
    club, owner = tea_house
    rows = client_for(owner).get(URL).json()
    qian = next(row for row in rows if row["name"] == "钱")
    assert qian["is_guest"] is True and qian["player"] == club.players.get(name="钱").pk


def test_standings_cost_the_same_queries_however_many_sessions(tea_house, django_assert_num_queries):
    club, owner = tea_house
    client = client_for(owner)
    # token, membership, seats, hand figures, game figures, players
    with django_assert_num_queries(6):
        client.get(URL)
    for day in range(1, 8):
        session = make_session(club, owner, date=datetime.date(2026, 10, day), players=["王", "李", f"客{day}", "赵"])
        record_hands(session, owner, BENXI_EXAMPLE[: day % 5 + 1])
    with django_assert_num_queries(6):
        assert len(client.get(URL).json()) == 5 + 7


def test_the_csv_is_utf8_with_a_bom_and_reads_back_with_chinese_names(tea_house):
    _, owner = tea_house
    response = client_for(owner, lang="zh-hans").get(URL, {"format": "csv"})
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="standings-cha.csv"'
    assert response.content.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == [
        "玩家编号",
        "玩家",
        "场数",
        "局数",
        "坐庄局数",
        "坐庄获胜局数",
        "胜盘数",
        "总计（分）",
        "总计（注）",
        "总计（档）",
        "总计（级）",
        "金额",
    ]
    by_name = {row[1]: row[2:] for row in rows[1:]}
    assert set(by_name) == {"王", "李", "张", "赵", "钱"}
    # A unit the player never played in, or no money, is an empty cell, not 0.
    assert by_name["王"] == ["2", "8", "3", "3", "1", "315", "4", "", "", "40"]
    assert by_name["赵"] == ["1", "5", "1", "1", "1", "230", "", "", "", ""]
    assert by_name["钱"] == ["1", "3", "0", "0", "0", "", "0", "", "", "0"]


def test_the_csv_has_the_same_rows_as_the_json(tea_house):
    _, owner = tea_house
    client = client_for(owner, lang="en")
    rows = list(csv.DictReader(io.StringIO(client.get(URL, {"format": "csv"}).content.decode("utf-8-sig"))))
    figures = client.get(URL).json()
    assert [row["player"] for row in rows] == [row["name"] for row in figures]
    assert [int(row["won as declarer"]) for row in rows] == [row["declarer_won"] for row in figures]
    assert [row["total (分)"] for row in rows] == [str(row["totals"].get("分", "")) for row in figures]


def test_the_csv_filters_like_the_json(tea_house):
    _, owner = tea_house
    content = client_for(owner).get(URL, {"format": "csv", "variant": "baifen.classic"}).content.decode("utf-8-sig")
    assert {row[1] for row in list(csv.reader(io.StringIO(content)))[1:]} == {"王", "李", "张", "钱"}


def test_a_name_a_spreadsheet_would_run_as_a_formula_stays_text(tea_house):
    club, owner = tea_house
    session = make_session(club, owner, players=["=1+1", "李", "张", "赵"])
    record_hands(session, owner, BENXI_EXAMPLE[:1])
    content = client_for(owner).get(URL, {"format": "csv"}).content.decode("utf-8-sig")
    assert "'=1+1" in [row[1] for row in csv.reader(io.StringIO(content))]


def test_standings_errors_are_json_even_when_csv_was_asked_for(tea_house):
    _, owner = tea_house
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
