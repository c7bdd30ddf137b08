"""Seating draw benchmark: a 100-table balanced round (400 players, 3 earlier rounds), as a ratio to a floor.

The floor is a random draw of the same room in the same run (a seeded shuffle dealt into tables): the ratio
says what balancing costs on top of it. The issue's budget is about 1 s for the balanced round; absolute
times are printed for reference only (CPU time, best of `BENCH_REPEAT` runs).

    make bench
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from settlement.rules.draws import Seating, seating_draw  # noqa: E402


def best_seconds(method: str, players: list[int], history: list[Seating], repeat: int) -> float:
    best = float("inf")
    for seed in range(repeat):
        start = time.process_time()
        seating_draw(variant="baifen.benxi", method=method, players=players, seed=seed, history=history)
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    repeat = int(os.environ.get("BENCH_REPEAT", "5"))
    players = list(range(1, 401))
    history: list[Seating] = []
    for r in range(3):
        history.append(
            seating_draw(variant="baifen.benxi", method="balanced", players=players, seed=100 + r, history=history)
        )
    floor = best_seconds("random", players, history, repeat)
    print(f"Seating draw, 100 tables (400 players, 3 earlier rounds), best of {repeat} runs, CPU time:")
    print(f"  {'draw':<10} {'ms':>8} {'ratio to random':>16}")
    print(f"  {'random':<10} {floor * 1e3:>8.2f} {1.0:>16.2f}")
    for method in ("balanced", "swiss"):
        t = best_seconds(method, players, history, repeat)
        print(f"  {method:<10} {t * 1e3:>8.2f} {t / floor:>16.2f}")


if __name__ == "__main__":
    main()
