#!/usr/bin/env python3
"""Time reasoning-gym's generation and verification, single thread, the way `gauntlet bench` does.

For each dataset: n items are generated one at a time (reasoning-gym generates an item on
`dataset[i]`), each timed; then each item's own answer is scored with `score_answer`, each timed.
Prints items/s and the per-item median, p99 and max in microseconds, as JSON lines and a table.

Set-up (once):  python3 -m venv .venv-rg && .venv-rg/bin/pip install reasoning-gym
Run:            .venv-rg/bin/python tools/bench_reasoning_gym.py -n 500
"""

import argparse
import json
import time

import reasoning_gym

# name → config kwargs, chosen to match gauntlet's level-3 settings where one exists.
DATASETS = {
    "sudoku": {},
    "countdown": {},
    "maze": {},
    "basic_arithmetic": {},
    "knights_knaves": {},
    "zebra_puzzles": {},
}


def stats(ns):
    ns = sorted(ns)
    total = sum(ns)

    def q(f):
        return ns[round((len(ns) - 1) * f)] / 1e3

    return {
        "items_per_s": len(ns) / (total / 1e9),
        "median_us": q(0.5),
        "p99_us": q(0.99),
        "max_us": ns[-1] / 1e3,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=500)
    ap.add_argument("--datasets", default=",".join(DATASETS))
    args = ap.parse_args()
    rows = []
    for name in args.datasets.split(","):
        ds = reasoning_gym.create_dataset(name, size=args.n, seed=42, **DATASETS.get(name, {}))
        gen, items = [], []
        for i in range(args.n):
            t0 = time.perf_counter_ns()
            item = ds[i]
            gen.append(time.perf_counter_ns() - t0)
            items.append(item)
        ver = []
        for item in items:
            t0 = time.perf_counter_ns()
            ds.score_answer(answer=item["answer"], entry=item)
            ver.append(time.perf_counter_ns() - t0)
        row = {"task": name, "generate": stats(gen), "verify": stats(ver)}
        rows.append(row)
        print(json.dumps(row), flush=True)
    cols = ("gen items/s", "med µs", "p99 µs", "max µs", "ver items/s", "med µs", "p99 µs", "max µs")
    widths = (12, 9, 9, 10, 12, 9, 9, 10)
    print("\n" + f"{'dataset':<18} " + " ".join(f"{c:>{w}}" for c, w in zip(cols, widths, strict=True)))
    for r in rows:
        g, v = r["generate"], r["verify"]
        gen = f"{g['items_per_s']:>12.1f} {g['median_us']:>9.0f} {g['p99_us']:>9.0f} {g['max_us']:>10.0f}"
        ver = f"{v['items_per_s']:>12.0f} {v['median_us']:>9.1f} {v['p99_us']:>9.1f} {v['max_us']:>10.1f}"
        print(f"{r['task']:<18} {gen} {ver}")


if __name__ == "__main__":
    main()
