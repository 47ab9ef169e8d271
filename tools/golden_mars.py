#!/usr/bin/env python3
"""Golden vectors for the `mars` advantage estimator of gauntlet-algos, with numpy.

MARS / MARSHAL (arXiv 2510.15414, thu-nics/MARSHAL `roll/utils/functionals.py`:
`reward_normalize_by_player`, `compute_reinforce_return`, `normalize_unique_values_by_player`)
in the per-role form gauntlet implements:

1. within each (game, role), centre every turn reward on the role's mean turn reward;
2. reward-to-go over the turns of one seat of one episode: R_k = sum_{k' >= k} gamma^(k'-k) r~_k';
3. within each (game, role): A = (R - mean R) / (std R + eps), std with ddof = 1
   (A = R - mean R without the std); a (game, role) with one row gets 0.

It is an independent re-derivation (dictionaries keyed like MARSHAL's `group_id` + player, an
upper-triangular discount matrix for the returns), not gauntlet's code translated back; the Rust
test `crates/gauntlet-algos/tests/mars.rs` compares the two to 1e-9. Rows are ragged and the
advantage is tiled over each row's mask, as for every sequence-level estimator.

Run:  python3 tools/golden_mars.py   (writes crates/gauntlet-algos/tests/fixtures/mars.json)
Needs: numpy.
"""

import json
import os
from collections import defaultdict

import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "..", "crates", "gauntlet-algos", "tests", "fixtures")


def discount_matrix(n, gamma):
    """U[k, k'] = gamma^(k' - k) for k' >= k, else 0: returns = U @ rewards."""
    u = np.zeros((n, n))
    for k in range(n):
        for kk in range(k, n):
            u[k, kk] = gamma ** (kk - k)
    return u


def mars(rows, gamma=1.0, eps=1e-6, norm_by_std=True):
    n = len(rows)
    key = [(r["task"], r["role"]) for r in rows]
    r = np.array([row["step_reward"] for row in rows], dtype=np.float64)
    # 1. reward_normalize_by_player (separate_norm_for_selfplay, method mean).
    by_key = defaultdict(list)
    for i, k in enumerate(key):
        by_key[k].append(i)
    mu = {k: float(np.mean(r[idx])) for k, idx in by_key.items()}
    centred = np.array([r[i] - mu[key[i]] for i in range(n)])
    # 2. compute_reinforce_return over each seat's own turns of one episode.
    chains = defaultdict(list)
    for i, row in enumerate(rows):
        chains[(row["group"], row["trajectory"], row["seat"])].append(i)
    ret = np.zeros(n)
    for idx in chains.values():
        idx = sorted(idx, key=lambda i: rows[i]["turn"])
        ret[idx] = discount_matrix(len(idx), gamma) @ centred[idx]
    # 3. per-role normalisation of the returns.
    adv = np.zeros(n)
    for idx in by_key.values():
        v = ret[idx]
        if len(idx) == 1 or np.all(v == v[0]):
            adv[idx] = 0.0  # nothing to compare: one row, or equal returns
        elif norm_by_std:
            adv[idx] = (v - v.mean()) / (np.std(v, ddof=1) + eps)
        else:
            adv[idx] = v - v.mean()
    return adv


def tiled(adv, rows):
    return [[float(a * m) for m in row["mask"]] for a, row in zip(adv, rows, strict=True)]


# --------------------------------------------------------------------------------------------
# Batches
# --------------------------------------------------------------------------------------------


def worked_rows():
    """Two episodes of a two-seat game: seat 0 wins the first, seat 1 the second."""
    rows = []
    for e, rewards in enumerate(([0.0, 0.0, 1.0, -1.0], [0.0, 0.0, -1.0, 1.0])):
        for t, x in enumerate(rewards):
            rows.append(
                {
                    "group": "g0",
                    "task": "tic_tac_toe",
                    "seat": t % 2,
                    "role": f"seat{t % 2}",
                    "trajectory": f"e{e}",
                    "turn": t,
                    "step_reward": x,
                    "score": 0.0,
                    "mask": [1, 1],
                }
            )
    return rows


def random_rows(rng, named_roles):
    """Games of 2-3 seats, episodes in groups, turns interleaved across seats, rows shuffled.

    Each role has its own reward scale. With `named_roles`, the role follows the move order
    (`first`, `second`, ... from a random starting seat) rather than the seat, and in three-seat
    games two seats share a role.
    """
    rows = []
    for task, seats in (("duel", 2), ("trio", 3)):
        scale = {}
        for g in range(int(rng.integers(1, 4))):
            for e in range(int(rng.integers(1, 4))):
                start = int(rng.integers(0, seats))
                length = int(rng.integers(1, 9))
                order = [(start + k) % seats for k in range(length)]
                last = {s: k for k, s in enumerate(order)}
                for k, s in enumerate(order):
                    if named_roles:
                        pos = (s - start) % seats
                        role = ["first", "second", "first"][pos]
                    else:
                        role = f"seat{s}"
                    sc = scale.setdefault(role, [1.0, 10.0, 0.1][len(scale) % 3])
                    x = 0.0
                    if rng.random() < 0.3:
                        x += round(float(rng.normal()), 6)
                    if last[s] == k:
                        x += float(rng.choice([-1.0, 0.0, 1.0]))
                    n = int(rng.integers(1, 6))
                    mask = [1] * n
                    if n > 2 and rng.random() < 0.3:
                        mask[1] = 0
                    rows.append(
                        {
                            "group": f"{task}-g{g}",
                            "task": task,
                            "seat": s,
                            "role": role,
                            "trajectory": f"e{e}",
                            "turn": k,
                            "step_reward": round(x * sc, 6),
                            "score": 0.0,
                            "mask": mask,
                        }
                    )
    perm = rng.permutation(len(rows))
    return [rows[i] for i in perm]


def edge_rows():
    """A role with one row, a role whose rewards are all equal, a role of three one-turn chains."""
    base = {"group": "g", "task": "t", "score": 0.0, "mask": [1, 0, 1]}
    spec = [
        ("solo", 0, "a", 0, 5.0),
        ("flat", 1, "b", 0, 2.0),
        ("flat", 1, "b", 1, 2.0),
        ("flat", 1, "c", 0, 2.0),
        ("three", 2, "d", 0, 1.0),
        ("three", 2, "e", 0, 1.0),
        ("three", 2, "f", 0, 0.0),
    ]
    return [
        dict(base, role=role, seat=seat, trajectory=traj, turn=turn, step_reward=x)
        for role, seat, traj, turn, x in spec
    ]


def cases():
    rng = np.random.default_rng(20251015)
    out = []

    def add(name, rows, cfg=None):
        cfg = cfg or {}
        adv = mars(rows, cfg.get("gamma", 1.0), cfg.get("epsilon", 1e-6), cfg.get("norm_by_std", True))
        out.append({"name": name, "config": cfg, "rows": rows, "advantages": tiled(adv, rows)})

    add("worked-example", worked_rows())
    add("edge", edge_rows())
    for k in range(4):
        rows = random_rows(rng, named_roles=(k % 2 == 1))
        add(f"random-{k}", rows)
        add(f"random-{k}-gamma", rows, {"gamma": 0.9})
        add(f"random-{k}-eps", rows, {"epsilon": 1e-4})
        add(f"random-{k}-no-std", rows, {"norm_by_std": False})
    return out


def main():
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "mars.json"), "w") as f:
        json.dump({"generator": "tools/golden_mars.py", "cases": cases()}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
