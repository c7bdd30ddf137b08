"""Engine benchmarks: replay cost per hand as sessions grow, as ratios to a baseline from the same run.

The baseline is a 10-hand session. A ratio near 1.0 for the per-hand cost of
a 1,000-hand session means replay stays linear (the ledger replays a whole
session after every entry and correction). Absolute times are printed for
reference only; compare ratios, not seconds, across machines.

    make bench
"""

from __future__ import annotations

import json
import os
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from settlement.rules.document import document_parse  # noqa: E402
from settlement.rules.registry import VARIANTS  # noqa: E402
from settlement.rules.session import results_document, session_replay, session_settle  # noqa: E402

GOLDEN = [ROOT / "tests" / "golden", ROOT.parent / "shared" / "golden", ROOT.parent / "shared" / "golden-shengji"]


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
    for _ in range(repeat):  # CPU time: on a shared machine a long run's wall time mostly waits for a core
        start = time.process_time()
        session_settle(doc)
        best = min(best, time.process_time() - start)
    return best / hands


def peak_bytes(hands: int) -> int:
    doc = benxi_session(hands)
    tracemalloc.start()
    session_settle(doc)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def golden_documents() -> dict[str, list[dict[str, Any]]]:
    """The worked sessions of each variant (the golden folders' valid inputs), by variant key."""
    documents: dict[str, list[dict[str, Any]]] = {}
    for folder in GOLDEN:
        for path in sorted(folder.glob("*.json")):
            raw = json.loads(path.read_text(encoding="utf-8"))
            document = raw.get("input", raw) if isinstance(raw, dict) else raw
            if path.name.startswith("bad-") or not isinstance(document, dict):
                continue
            if document.get("variant") in VARIANTS and "expect_error" not in raw:
                documents.setdefault(document["variant"], []).append(document)
    return documents


def engine_per_variant(repeat: int) -> None:
    """µs per hand of each variant's worked sessions: parse, play, render (best of `repeat`, CPU time)."""
    print("Engine, µs per hand (each variant's worked sessions; best of", repeat, "runs, CPU time):")
    print(f"  {'variant':<18} {'parse':>7} {'play':>7} {'render':>7} {'total':>7}  hands")
    documents = golden_documents()
    for key in sorted(VARIANTS):
        docs = documents.get(key, [])
        hands = sum(len(d["hands"]) for d in docs)
        if not hands:
            print(f"  {key:<18} no worked session")
            continue
        best = [float("inf")] * 3
        for _ in range(repeat):
            t0 = time.process_time()
            parsed = [document_parse(d, variants=VARIANTS) for d in docs]
            t1 = time.process_time()
            played = [session_replay(d) for d in parsed]
            t2 = time.process_time()
            for result in played:
                results_document(result)
            t3 = time.process_time()
            best = [min(b, t) for b, t in zip(best, (t1 - t0, t2 - t1, t3 - t2), strict=True)]
        parse, play, render = (x / hands * 1e6 for x in best)
        print(f"  {key:<18} {parse:>7.1f} {play:>7.1f} {render:>7.1f} {parse + play + render:>7.1f}  {hands}")
    doc = benxi_session(5000)
    best = [float("inf")] * 3
    for _ in range(max(1, repeat // 10)):
        t0 = time.process_time()
        parsed_doc = document_parse(doc, variants=VARIANTS)
        t1 = time.process_time()
        result = session_replay(parsed_doc)
        t2 = time.process_time()
        results_document(result)
        t3 = time.process_time()
        best = [min(b, t) for b, t in zip(best, (t1 - t0, t2 - t1, t3 - t2), strict=True)]
    parse, play, render = (x / 5000 * 1e6 for x in best)
    print(f"  {'本溪, 5,000 hands':<18} {parse:>7.1f} {play:>7.1f} {render:>7.1f} {parse + play + render:>7.1f}  5000")


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
    engine_per_variant(repeat * 4)


if __name__ == "__main__":
    main()
