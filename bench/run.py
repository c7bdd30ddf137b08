"""Engine benchmarks: replay cost per hand as sessions grow, as ratios to a baseline from the same run.

The baseline is a 10-hand session. A ratio near 1.0 for the per-hand cost of
a 1,000-hand session means replay stays linear (the ledger replays a whole
session after every entry and correction). Absolute times are printed for
reference only; compare ratios, not seconds, across machines.

    make bench
"""

from __future__ import annotations

import os
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from settlement.rules.session import session_settle


def benxi_session(hands: int) -> dict[str, Any]:
    # Dealers rotate 0, 1, 2, 3; each hand's declarer sits at place 0 or 1, so any bid of 85+ is allowed.
    cycle = [
        {"dealer": 0, "declarer": 0, "bid": 85, "captured": 20},
        {"dealer": 1, "declarer": 2, "bid": 85, "captured": 20},
        {"dealer": 2, "declarer": 3, "bid": 90, "captured": 0},
        {"dealer": 3, "declarer": 3, "bid": 85, "captured": 55},
        {"dealer": 0, "redeal": "all_pass"},
    ]
    return {
        "variant": "baifen.benxi",
        "players": ["甲", "乙", "丙", "丁"],
        "hands": [dict(cycle[i % len(cycle)]) for i in range(hands)],
    }


def per_hand_seconds(hands: int, repeat: int) -> float:
    doc = benxi_session(hands)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        session_settle(doc)
        best = min(best, time.perf_counter() - start)
    return best / hands


def peak_bytes(hands: int) -> int:
    doc = benxi_session(hands)
    tracemalloc.start()
    session_settle(doc)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def main() -> None:
    repeat = int(os.environ.get("BENCH_REPEAT", "5"))
    base_time = per_hand_seconds(10, repeat * 20)
    base_mem = peak_bytes(10) / 10
    print(f"baseline: 10-hand session, {base_time * 1e6:.1f} µs and {base_mem / 1024:.1f} KiB per hand")
    print(f"{'hands':>6} {'time/hand ratio':>16} {'peak mem/hand ratio':>20}")
    for hands in (100, 1000, 5000):
        t = per_hand_seconds(hands, repeat)
        m = peak_bytes(hands) / hands
        print(f"{hands:>6} {t / base_time:>16.2f} {m / base_mem:>20.2f}")


if __name__ == "__main__":
    main()
