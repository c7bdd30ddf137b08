"""bench/load.py's own rules: it touches only this machine, and its percentiles are the nearest-rank ones; and
bench/event_load.py keeps to its bounds and still runs (a tiny round)."""

from __future__ import annotations

import os
import secrets

import psycopg
import pytest

from bench import event_load, load


@pytest.mark.parametrize(
    "url", ["http://127.0.0.1:8000", "postgres://postgres@127.0.0.1:5432/postgres", "http://localhost:1/"]
)
def test_a_local_address_is_taken_as_it_is(url):
    assert load.local_url(url) == url


@pytest.mark.parametrize("url", ["http://example.com/", "postgres://u@10.0.0.5:5432/db", "http://192.168.1.2:8000"])
def test_any_other_address_stops_the_load_before_it_starts(url):
    with pytest.raises(SystemExit, match=r"only 127\.0\.0\.1"):
        load.local_url(url)


@pytest.mark.parametrize(
    ("p", "expected"),
    [
        # nearest rank of 1 … 100: the p-th value
        (50, 50),
        (95, 95),
        (99, 99),
        (100, 100),
    ],
)
def test_a_percentile_is_the_nearest_rank(p, expected):
    assert load.percentile([float(x) for x in range(100, 0, -1)], p) == expected


def test_the_throwaway_database_is_named_on_the_admin_servers_address():
    url = load.database_url("postgres://postgres@127.0.0.1:5432/postgres", "wt_x_load")
    assert url == "postgres://postgres@127.0.0.1:5432/wt_x_load"


@pytest.mark.parametrize(
    "argv",
    [["--tables", "0"], ["--tables", "201"], ["--spectators", "5001"], ["--seconds", "601"], ["--poll", "0.5"]],
)
def test_the_event_load_refuses_a_load_past_its_bounds_before_it_starts(argv):
    with pytest.raises(SystemExit, match=r"at most|up to"):
        event_load.main(argv)


def test_the_event_load_runs_a_tiny_round_end_to_end(capsys):
    """Two tables, one hand each, five spectators for 3 s: every kind of request is sent and answered, nothing fails
    (no timing is asserted). Needs PostgreSQL on 127.0.0.1 (BENCH_PG_URL), as `make bench-load` does."""
    try:
        psycopg.connect(
            os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432/postgres"), connect_timeout=3
        ).close()
    except psycopg.Error as error:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and no PostgreSQL: {error}")
        pytest.skip(f"no PostgreSQL: {error}")
    argv = ["--tables", "2", "--hands", "1", "--spectators", "5", "--poll", "1", "--seconds", "3"]
    result = event_load.main([*argv, "--database", f"baifen_event_load_{secrets.token_hex(4)}"])
    assert sum(result["errors"].values()) == 0, result
    assert result["counts"]["write"] == 2 and result["counts"]["floor"] == 2
    assert result["counts"]["share"] > 0 and result["counts"]["screen"] > 0
    assert "Writes: p95" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("blocks", "expected"),
    [
        # one block: its own ratio, twice
        ([{"bare": [1.0, 2.0, 3.0], "entry": [3.0, 4.0, 5.0]}], (2.0, 2.0)),
        # each block's medians divided, not the run's: 4 / 2 and 9 / 6
        (
            [{"bare": [2.0, 2.0, 9.0], "entry": [1.0, 4.0, 4.0]}, {"bare": [6.0], "entry": [9.0]}],
            (1.5, 2.0),
        ),
    ],
)
def test_the_spread_of_the_sequential_ratios_is_each_blocks_median_over_its_bare_one(blocks, expected):
    assert load.ratio_spread(blocks, "entry") == expected
