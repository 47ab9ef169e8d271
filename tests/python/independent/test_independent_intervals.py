"""Independent check of interval_reasoning, from the prompt text alone: every Allen relation the
prompt defines is turned into point constraints between endpoints (<, =), closed transitively; a
query is forced exactly when all four endpoint pairs are ordered, and then we read the relation."""

from __future__ import annotations

import re

import pytest

from ._common import LEVELS, agree, entries

SEEDS = 3

# relation of X to Y as (xs?ys, xs?ye, xe?ys, xe?ye) with -1 (<), 0 (=), 1 (>)
ALLEN = {
    "before": (-1, -1, -1, -1),
    "after": (1, 1, 1, 1),
    "meets": (-1, -1, 0, -1),
    "met-by": (1, 0, 1, 1),
    "overlaps": (-1, -1, 1, -1),
    "overlapped-by": (1, -1, 1, 1),
    "starts": (0, -1, 1, -1),
    "started-by": (0, -1, 1, 1),
    "during": (1, -1, 1, -1),
    "contains": (-1, -1, 1, 1),
    "finishes": (1, -1, 1, 0),
    "finished-by": (-1, -1, 1, 0),
    "equals": (0, -1, 1, 0),
}


def closure(names, facts):
    """Order between endpoints ('X', 0 start / 1 end): dict pair -> -1/0/1 where forced."""
    pts = [(n, k) for n in names for k in (0, 1)]
    parent = {p: p for p in pts}

    def find(p):
        while parent[p] != p:
            parent[p] = parent[parent[p]]
            p = parent[p]
        return p

    less = [((n, 0), (n, 1)) for n in names]
    for x, rel, y in facts:
        for (a, b), sign in zip(
            (((x, 0), (y, 0)), ((x, 0), (y, 1)), ((x, 1), (y, 0)), ((x, 1), (y, 1))), ALLEN[rel], strict=True
        ):
            if sign == 0:
                parent[find(a)] = find(b)
            elif sign < 0:
                less.append((a, b))
            else:
                less.append((b, a))
    reps = sorted({find(p) for p in pts})
    lt = {(find(a), find(b)) for a, b in less}
    changed = True
    while changed:
        changed = False
        for a, b in list(lt):
            for c, d in list(lt):
                if b == c and (a, d) not in lt:
                    lt.add((a, d))
                    changed = True
    assert not any((r, r) in lt for r in reps), "the facts are inconsistent"

    def order(p, q):
        a, b = find(p), find(q)
        if a == b:
            return 0
        if (a, b) in lt:
            return -1
        if (b, a) in lt:
            return 1
        return None

    return order


@pytest.mark.parametrize("level", LEVELS)
def test_interval_reasoning(level):
    for data, entry in entries("interval_reasoning", level, SEEDS):
        q = entry["question"]
        names = re.match(r"([A-Z](?:, [A-Z])*(?:,? and [A-Z])?) are time intervals", q).group(1)
        names = re.findall(r"[A-Z]", names)
        facts = re.findall(r"^- ([A-Z]) ([a-z-]+) ([A-Z])$", q.split("Facts:")[1], re.M)
        assert facts and all(r in ALLEN for _, r, _ in facts), facts
        order = closure(names, facts)
        answers = {}
        for num, x, y in re.findall(r"^(\d+)\. ([A-Z]) \? ([A-Z])$", q, re.M):
            sig = tuple(order((x, i), (y, j)) for i, j in ((0, 0), (0, 1), (1, 0), (1, 1)))
            assert None not in sig, (level, entry["metadata"]["seed"], "query not forced", x, y, sig)
            answers[num] = next(r for r, s in ALLEN.items() if s == sig)
        mine = ", ".join(f"{k}: {v}" for k, v in answers.items())
        agree(data, entry, mine, True, "our forced relations")
        k0 = next(iter(answers))
        other = "before" if answers[k0] != "before" else "after"
        agree(data, entry, ", ".join(f"{k}: {other if k == k0 else v}" for k, v in answers.items()), False, "one wrong")
