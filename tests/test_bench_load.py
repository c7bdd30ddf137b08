"""bench/load.py's own rules: it touches only this machine, and its percentiles are the nearest-rank ones."""

from __future__ import annotations

import pytest

from bench import load


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
