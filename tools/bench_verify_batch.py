#!/usr/bin/env python3
"""``gauntlet.verify_batch`` on 2,048 rows of oracle responses, 1 thread against 2 (best of 7).

Usage (any venv with the gauntlet package installed):

    python tools/bench_verify_batch.py
"""

from __future__ import annotations

import time

import gauntlet

FAMILIES = [("sudoku", 4), ("countdown", 4), ("zebra", 3), ("knights_knaves", 1), ("maze", 1)]


def best_rate(rows: list, responses: list[str], threads: int, repeats: int = 7) -> float:
    """Rows per second of the fastest of ``repeats`` calls."""
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        gauntlet.verify_batch(rows, responses, threads=threads)
        best = min(best, time.perf_counter() - t)
    return len(rows) / best


def main() -> None:
    for name, level in FAMILIES:
        rows = list(gauntlet.create_dataset(name, size=2048, seed=1000, level=level))
        responses = [f"<answer>{e['answer']}</answer>" for e in rows]
        assert all(v.correct for v in gauntlet.verify_batch(rows, responses))
        one, two = best_rate(rows, responses, 1), best_rate(rows, responses, 2)
        print(f"{name:16s} 1 thread {one:12,.0f}/s   2 threads {two:12,.0f}/s   x{two / one:.2f}")


if __name__ == "__main__":
    main()
