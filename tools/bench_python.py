#!/usr/bin/env python3
"""gauntlet vs reasoning-gym from Python, in one process: generation and scoring throughput.

For each shared family, at the gauntlet level closest to reasoning-gym's default config:

- generation: ``create_dataset(name, size=N, seed=...)`` and iterating over every entry
  (items/s; gauntlet with 1 Rust thread, and with every core);
- scoring: ``dataset.score_answer(entry["answer"], entry)`` on the oracle answers (items/s);
- ``gauntlet.verify_batch`` on oracle responses with 1 and 2 Rust threads (scaling).

Each measurement grows its item count until it runs for at least ``--budget`` seconds and keeps
the best of ``--repeats`` runs (the machine may be shared). Without reasoning-gym installed, its
columns are left empty.

Usage (a throwaway venv with both packages):

    python3 -m venv /tmp/rg-venv
    /tmp/rg-venv/bin/pip install reasoning-gym==0.1.25 maturin
    /tmp/rg-venv/bin/maturin build --release -o /tmp/wheels && /tmp/rg-venv/bin/pip install /tmp/wheels/gauntlet-*.whl
    /tmp/rg-venv/bin/python tools/bench_python.py --markdown
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

import gauntlet

try:
    import reasoning_gym as rg
except ImportError:  # the gauntlet side still runs
    rg = None

# (gauntlet family, gauntlet level, reasoning-gym name, why this level)
PAIRS = [
    ("sudoku", 4, "sudoku", "9×9, 36 clues; rg: 9×9, 30–50 blanks"),
    ("countdown", 4, "countdown", "6 numbers, target 100–999; rg: 4–6 numbers, 100–999"),
    ("zebra", 3, "zebra_puzzles", "4 houses × 4 attributes; rg: 4 people × 4 characteristics"),
    ("knights_knaves", 1, "knights_knaves", "2 people; rg: 2 people"),
    ("maze", 1, "maze", "7×7 maze, path answer; rg: 5–10 grid, step-count answer"),
]


def rate(work: Callable[[int], None], budget: float, repeats: int, start: int = 1) -> float:
    """Items/s of ``work(n)``: n doubles until one run takes ``budget`` s; best of ``repeats``."""
    n = start
    while True:
        t = time.perf_counter()
        work(n)
        dt = time.perf_counter() - t
        if dt >= budget or n >= 1 << 22:
            break
        n = max(n * 2, int(n * budget / max(dt, 1e-9) * 1.1))
    best = dt
    for _ in range(repeats - 1):
        t = time.perf_counter()
        work(n)
        best = min(best, time.perf_counter() - t)
    return n / best


def gen_gauntlet(name: str, level: int, threads: int) -> Callable[[int], None]:
    def work(n: int) -> None:
        for _ in gauntlet.create_dataset(name, size=n, seed=1000, level=level, threads=threads):
            pass

    return work


RG_FAILURES: dict[str, int] = {}


def gen_rg(name: str) -> Callable[[int], None]:
    def work(n: int) -> None:
        ds = rg.create_dataset(name, size=n, seed=1000)
        for i in range(n):
            try:
                ds[i]
            except RuntimeError:  # reasoning-gym's maze gives up on some seeds; counted, not fatal
                RG_FAILURES[name] = RG_FAILURES.get(name, 0) + 1

    return work


def score_work(ds, entries) -> Callable[[int], None]:
    def work(n: int) -> None:
        k = len(entries)
        for i in range(n):
            e = entries[i % k]
            ds.score_answer(e["answer"], e)

    return work


def batch_work(rows, responses, threads: int) -> Callable[[int], None]:
    def work(n: int) -> None:
        reps = max(1, n // len(rows))
        for _ in range(reps):
            gauntlet.verify_batch(rows, responses, threads=threads)

    return work


class NoOp:
    """A scorer that does nothing: the most calls per second any Python-level
    ``score_answer(answer, entry)`` can reach in this interpreter."""

    def score_answer(self, answer: str, entry: dict) -> float:
        return 1.0


def fmt(x: float | None) -> str:
    if x is None:
        return "–"
    return f"{x:,.0f}" if x >= 100 else f"{x:,.1f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=1.0, help="seconds per measurement run")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--markdown", action="store_true", help="print markdown tables")
    ap.add_argument("--families", default=",".join(p[0] for p in PAIRS))
    args = ap.parse_args()
    wanted = set(args.families.split(","))
    print(
        f"gauntlet {gauntlet.__version__}; reasoning-gym {'absent' if rg is None else 'present'}; "
        f"{os.cpu_count()} cores; budget {args.budget}s, best of {args.repeats}"
    )
    gen_rows, score_rows, batch_rows = [], [], []
    for name, level, rg_name, note in PAIRS:
        if name not in wanted:
            continue
        g1 = rate(gen_gauntlet(name, level, 1), args.budget, args.repeats, start=16)
        gn = rate(gen_gauntlet(name, level, 0), args.budget, args.repeats, start=16)
        r = rate(gen_rg(rg_name), args.budget, args.repeats) if rg else None
        gen_rows.append((name, level, rg_name, g1, gn, r, note))
        gds = gauntlet.create_dataset(name, size=200, seed=7, level=level)
        gentries = list(gds)
        gs = rate(score_work(gds, gentries), args.budget, args.repeats, start=64)
        rs = None
        if rg:
            rds = rg.create_dataset(rg_name, size=50, seed=7)
            rs = rate(score_work(rds, list(rds)), args.budget, args.repeats, start=16)
        score_rows.append((name, level, rg_name, gs, rs))
        rows = gauntlet.rows(name, count=2048, seed=7, level=level)
        answers = {
            e["metadata"]["seed"]: e["answer"] for e in gauntlet.create_dataset(name, size=2048, seed=7, level=level)
        }
        responses = [f"<answer>{answers[r['extra_info']['seed']]}</answer>" for r in rows]
        b1 = rate(batch_work(rows, responses, 1), args.budget, args.repeats, start=2048)
        b2 = rate(batch_work(rows, responses, 2), args.budget, args.repeats, start=2048)
        batch_rows.append((name, level, b1, b2))
        print(
            f"  {name}: gen {fmt(g1)}/s (1 thread), {fmt(gn)}/s (all) vs rg {fmt(r)}/s; "
            f"score {fmt(gs)}/s vs rg {fmt(rs)}/s; verify_batch {fmt(b1)}/s → {fmt(b2)}/s",
            flush=True,
        )

    floor = rate(score_work(NoOp(), [{"answer": "1"}]), args.budget, args.repeats, start=4096)
    print(f"a score_answer method that does nothing: {fmt(floor)} calls/s")
    if RG_FAILURES:
        print(f"reasoning-gym items that raised (skipped, time counted): {RG_FAILURES}")

    def ratio(a: float | None, b: float | None) -> str:
        return "–" if a is None or b is None else (f"{a / b:,.0f}×" if a >= 10 * b else f"{a / b:.2f}×")

    if not args.markdown:
        return
    print(
        "\n| family (gauntlet level) | reasoning-gym dataset | gauntlet items/s, 1 thread | gauntlet items/s, all "
        "cores | reasoning-gym items/s | speed-up (1 thread) | comparable config |"
    )
    print("|---|---|---:|---:|---:|---:|---|")
    for name, level, rg_name, g1, gn, r, note in gen_rows:
        print(f"| {name} ({level}) | {rg_name} | {fmt(g1)} | {fmt(gn)} | {fmt(r)} | {ratio(g1, r)} | {note} |")
    print(
        "\n| family (gauntlet level) | reasoning-gym dataset | gauntlet score_answer/s | reasoning-gym "
        "score_answer/s | speed-up |"
    )
    print("|---|---|---:|---:|---:|")
    for name, level, rg_name, gs, rs in score_rows:
        print(f"| {name} ({level}) | {rg_name} | {fmt(gs)} | {fmt(rs)} | {ratio(gs, rs)} |")
    print(f"| (a method that does nothing) | | {fmt(floor)} | | |")
    print("\n| family (level) | verify_batch items/s, 1 thread | 2 threads | scaling |")
    print("|---|---:|---:|---:|")
    for name, level, b1, b2 in batch_rows:
        print(f"| {name} ({level}) | {fmt(b1)} | {fmt(b2)} | {b2 / b1:.2f}× |")


if __name__ == "__main__":
    main()
