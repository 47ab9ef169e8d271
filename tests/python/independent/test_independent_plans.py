"""Independent checks of the planning families (hanoi, water_jugs, blocksworld, maze,
sliding_puzzle, word_ladder, shortest_path), from the prompt text alone: our own simulator of the
moves as the prompt defines them, our own BFS for the optimum the prompt states, and every verdict
compared with gauntlet's (alternative plans accepted, near misses rejected)."""

from __future__ import annotations

import heapq
import random
import re
from collections import deque
from itertools import pairwise

import pytest

from ._common import LEVELS, agree, entries

SEEDS = 3


def bfs(start, goal, moves, step, max_states=300_000):
    """A shortest move list from start to a goal state, or None."""
    prev = {start: None}
    todo = deque([start])
    while todo:
        s = todo.popleft()
        if goal(s):
            path = []
            while prev[s] is not None:
                s, m = prev[s]
                path.append(m)
            return path[::-1]
        for m in moves(s):
            t = step(s, m)
            if t is not None and t not in prev:
                prev[t] = (s, m)
                todo.append(t)
        assert len(prev) < max_states
    return None


def simulate(start, goal, step, plan):
    s = start
    for m in plan:
        s = step(s, m)
        if s is None:
            return False
    return goal(s)


def budget_of(q):
    m = re.search(r"at most (\d+) moves", q) or re.search(r"exactly (\d+) moves", q)
    return int(m.group(1))


def optimum_of(q):
    m = re.search(r"shortest (?:solution|plan) has (\d+)", q) or re.search(r"exactly (\d+) moves", q)
    return int(m.group(1)) if m else None


def check_plan_family(name, level, parse, fmt, parse_answer):
    rng = random.Random(level)
    for data, entry in entries(name, level, SEEDS):
        q = entry["question"]
        start, goal, moves, step = parse(q)
        budget, opt = budget_of(q), optimum_of(q)

        def ok(plan, start=start, goal=goal, step=step, budget=budget):
            return len(plan) <= budget and simulate(start, goal, step, plan)

        oracle = parse_answer(entry["answer"])
        assert ok(oracle), entry["answer"]
        agree(data, entry, entry["answer"], True, "oracle")
        mine = bfs(start, goal, moves, step)
        assert mine is not None
        if opt is not None:
            assert len(mine) == opt, (name, level, entry["metadata"]["seed"], "stated optimum", opt, len(mine))
        agree(data, entry, fmt(mine), True, "our own shortest plan")
        alphabet = sorted({m for s in (start,) for m in moves(s)} | set(oracle), key=str)
        for i in range(len(oracle) + 1):  # a detour: a move and its undo, where one exists
            s = start
            for m in oracle[:i]:
                s = step(s, m)
            for m in moves(s):
                t = step(s, m)
                back = [u for u in moves(t) if step(t, u) == s] if t is not None else []
                if back:
                    plan = [*oracle[:i], m, back[0], *oracle[i:]]
                    agree(data, entry, fmt(plan), ok(plan), "oracle with a detour")
                    break
            if i > 2:
                break
        misses = [oracle[:-1], oracle[1:], [*oracle, oracle[-1]]]
        for _ in range(3):
            p = oracle[:]
            i = rng.randrange(len(p))
            p[i] = rng.choice(alphabet)
            misses.append(p)
            if len(p) > 1:
                p = oracle[:]
                i = rng.randrange(len(p) - 1)
                p[i], p[i + 1] = p[i + 1], p[i]
                misses.append(p)
        for p in misses:
            if p:
                agree(data, entry, fmt(p), ok(p), "near miss")


# ---------------------------------------------------------------- hanoi


def parse_pegs(block):
    out = []
    for _, body in re.findall(r"^\s+([A-C]): (.*)$", block, re.M):
        out.append(tuple(int(x) for x in body.split()) if body != "(empty)" else ())
    return tuple(out)


def parse_hanoi(q):
    start = parse_pegs(q.split("Start")[1].split("Target")[0])
    target = parse_pegs(q.split("Target")[1].split("Give")[0])
    pegs = "ABC"

    def moves(s):
        return [f"{a}->{b}" for a in pegs for b in pegs if a != b]

    def step(s, m):
        a, b = pegs.index(m[0]), pegs.index(m[-1])
        if not s[a] or (s[b] and s[b][-1] < s[a][-1]):
            return None
        t = list(s)
        t[b] = (*s[b], s[a][-1])
        t[a] = s[a][:-1]
        return tuple(t)

    return start, (lambda s: s == target), moves, step


def moves_csv(text):
    return [m.strip() for m in text.split(",")]


@pytest.mark.parametrize("level", LEVELS)
def test_hanoi(level):
    check_plan_family("hanoi", level, parse_hanoi, ", ".join, moves_csv)


# ---------------------------------------------------------------- water_jugs


def parse_jugs(q):
    caps = {a: int(b) for a, b in re.findall(r"([A-Z]) holds (\d+) litres", q)}
    names = sorted(caps)
    want = int(re.search(r"holds exactly (\d+) litres", q).group(1))

    def moves(s):
        return (
            [f"fill {x}" for x in names]
            + [f"empty {x}" for x in names]
            + [f"{x}->{y}" for x in names for y in names if x != y]
        )

    def step(s, m):
        v = dict(zip(names, s, strict=True))
        if m.startswith("fill "):
            v[m[5:]] = caps[m[5:]]
        elif m.startswith("empty "):
            v[m[6:]] = 0
        else:
            x, y = m.split("->")
            amount = min(v[x], caps[y] - v[y])
            v[x] -= amount
            v[y] += amount
        return tuple(v[x] for x in names)

    return tuple(0 for _ in names), (lambda s: want in s), moves, step


@pytest.mark.parametrize("level", LEVELS)
def test_water_jugs(level):
    check_plan_family("water_jugs", level, parse_jugs, ", ".join, moves_csv)


# ---------------------------------------------------------------- blocksworld


def parse_stacks(block):
    return frozenset(tuple(ln.split()) for ln in block.strip().splitlines() if ln.strip())


def parse_blocks(q):
    start = parse_stacks(q.split("Start:")[1].split("Goal:")[0])
    goal = parse_stacks(q.split("Goal:")[1].split("A move")[0])
    blocks = sorted(b for s in start for b in s)

    def moves(s):
        tops = [st[-1] for st in s]
        return [f"{x}->{y}" for x in tops for y in [*tops, "table"] if x != y]

    def step(s, m):
        x, y = m.split("->")
        stacks = [list(st) for st in s]
        src = next((st for st in stacks if st and st[-1] == x), None)
        if src is None:
            return None
        if y == "table":
            # The prompt's rule allows picking up a clear block that is already on the table and
            # putting it on the table (a move that changes nothing); gauntlet accepts it too.
            src.pop()
            stacks.append([x])
        else:
            dst = next((st for st in stacks if st and st[-1] == y), None)
            if dst is None or dst is src:
                return None
            src.pop()
            dst.append(x)
        return frozenset(tuple(st) for st in stacks if st)

    assert sorted(b for s in goal for b in s) == blocks
    return start, (lambda s: s == goal), moves, step


@pytest.mark.parametrize("level", LEVELS)
def test_blocksworld(level):
    check_plan_family("blocksworld", level, parse_blocks, ", ".join, moves_csv)


# ---------------------------------------------------------------- maze and sliding_puzzle

DIRS = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}


def parse_maze(q):
    rows = [ln for ln in q.splitlines() if re.fullmatch(r"[#.SG]+", ln) and "#" in ln]
    cells = {(r, c): ch for r, ln in enumerate(rows) for c, ch in enumerate(ln)}
    start = next(k for k, v in cells.items() if v == "S")
    goal = next(k for k, v in cells.items() if v == "G")

    def step(s, m):
        t = (s[0] + DIRS[m][0], s[1] + DIRS[m][1])
        return t if cells.get(t, "#") != "#" else None

    return start, (lambda s: s == goal), (lambda s: list("UDLR")), step


@pytest.mark.parametrize("level", LEVELS)
def test_maze(level):
    rng = random.Random(level)
    for data, entry in entries("maze", level, SEEDS):
        q = entry["question"]
        start, goal, moves, step = parse_maze(q)
        shortest_asked = "Give a shortest path" in q
        best = len(bfs(start, goal, moves, step))

        def ok(plan, start=start, goal=goal, step=step, best=best, shortest_asked=shortest_asked):
            return simulate(start, goal, step, plan) and (not shortest_asked or len(plan) == best)

        oracle = [ch for ch in entry["answer"] if ch in DIRS]
        assert ok(oracle)
        agree(data, entry, entry["answer"], True, "oracle")
        agree(data, entry, " ".join(oracle), True, "moves separated by spaces")
        agree(data, entry, ",".join(oracle), True, "moves separated by commas")
        mine = bfs(start, goal, moves, step)
        agree(data, entry, "".join(mine), True, "our own shortest path")
        for i in range(len(oracle)):
            s = start
            for m in oracle[:i]:
                s = step(s, m)
            for a, b in (("U", "D"), ("D", "U"), ("L", "R"), ("R", "L")):
                t = step(s, a)
                if t is not None:
                    p = [*oracle[:i], a, b, *oracle[i:]]
                    agree(data, entry, "".join(p), ok(p), "oracle with a detour")
                    break
            else:
                continue
            break
        for _ in range(4):
            p = oracle[:]
            p[rng.randrange(len(p))] = rng.choice("UDLR")
            agree(data, entry, "".join(p), ok(p), "one move changed")
        agree(data, entry, "".join(oracle[:-1]), False, "last move dropped")


def parse_sliding(q):
    n = int(re.search(r"on a (\d+)x", q).group(1))

    def board(block):
        rows = [ln.split() for ln in block.strip().splitlines()[:n]]
        return tuple(0 if t == "_" else int(t) for r in rows for t in r)

    start = board(q.split("Board:")[1].split("Solved board:")[0])
    solved = board(q.split("Solved board:")[1])

    def step(s, m):
        i = s.index(0)
        r, c = divmod(i, n)
        r2, c2 = r + DIRS[m][0], c + DIRS[m][1]
        if not (0 <= r2 < n and 0 <= c2 < n):
            return None
        t = list(s)
        j = r2 * n + c2
        t[i], t[j] = t[j], t[i]
        return tuple(t)

    return start, solved, step


@pytest.mark.parametrize("level", LEVELS)
def test_sliding_puzzle(level):
    rng = random.Random(level)
    for data, entry in entries("sliding_puzzle", level, SEEDS):
        q = entry["question"]
        start, solved, step = parse_sliding(q)
        budget = budget_of(q)

        def ok(plan, start=start, solved=solved, step=step, budget=budget):
            return len(plan) <= budget and simulate(start, lambda x, solved=solved: x == solved, step, plan)

        oracle = entry["answer"].split()
        assert ok(oracle)
        agree(data, entry, entry["answer"], True, "oracle")
        opposite = {"U": "D", "D": "U", "L": "R", "R": "L"}
        for i in range(len(oracle)):
            s = start
            for m in oracle[:i]:
                s = step(s, m)
            a = next((a for a in "UDLR" if step(s, a) is not None), None)
            p = [*oracle[:i], a, opposite[a], *oracle[i:]]
            agree(data, entry, " ".join(p), ok(p), "oracle with a detour")
            if i > 1:
                break
        for _ in range(4):
            p = oracle[:]
            p[rng.randrange(len(p))] = rng.choice("UDLR")
            agree(data, entry, " ".join(p), ok(p), "one move changed")
        agree(data, entry, " ".join(oracle[:-1]), False, "last move dropped")


# ---------------------------------------------------------------- word_ladder and shortest_path


@pytest.mark.parametrize("level", LEVELS)
def test_word_ladder(level):
    for data, entry in entries("word_ladder", level, SEEDS):
        q = entry["question"]
        a, b = re.search(r"change `(\w+)` into `(\w+)`", q).groups()
        words = set(q.split("must be in this list:")[1].split("Use as few")[0].split())

        def nbrs(w, words=words):
            return [v for v in words if sum(x != y for x, y in zip(v, w, strict=True)) == 1]

        best = bfs(a, lambda s, b=b: s == b, nbrs, lambda s, m: m)
        m = re.search(r"shortest ladder has (\d+) steps", q)
        if m:
            assert int(m.group(1)) == len(best)

        def ok(ladder, a=a, b=b, words=words, best=best):
            return (
                ladder[0] == a
                and ladder[-1] == b
                and all(w in words or w == a for w in ladder)
                and all(sum(x != y for x, y in zip(u, v, strict=True)) == 1 for u, v in pairwise(ladder))
                and len(ladder) - 1 == len(best)
            )

        oracle = [w.strip() for w in entry["answer"].split(",")]
        assert ok(oracle)
        agree(data, entry, entry["answer"], True, "oracle")
        mine = [a, *best]
        assert ok(mine)
        agree(data, entry, ", ".join(mine), True, "our own shortest ladder")
        # a longer ladder (a detour through a neighbour and back) is wrong: the prompt asks for the fewest steps
        for v in nbrs(oracle[1])[:1]:
            p = [oracle[0], oracle[1], v, *oracle[1:]]
            agree(data, entry, ", ".join(p), ok(p), "ladder with a detour")
        agree(data, entry, ", ".join(oracle[:-1]), False, "last word dropped")


@pytest.mark.parametrize("level", LEVELS)
def test_shortest_path(level):
    for data, entry in entries("shortest_path", level, SEEDS):
        q = entry["question"]
        adj: dict[str, dict[str, int]] = {}
        for x, y, w in re.findall(r"^(\w+) - (\w+): (\d+)$", q, re.M):
            adj.setdefault(x, {})[y] = int(w)
            adj.setdefault(y, {})[x] = int(w)
        s, t = re.search(r"Find a path from (\w+) to (\w+)", q).groups()
        dist = {s: 0}
        heap = [(0, s)]
        while heap:
            d, u = heapq.heappop(heap)
            if d > dist[u]:
                continue
            for v, w in adj[u].items():
                if d + w < dist.get(v, 1 << 60):
                    dist[v] = d + w
                    heapq.heappush(heap, (d + w, v))

        def ok(path, adj=adj, s=s, t=t, best=dist[t]):
            if path[0] != s or path[-1] != t or any(b not in adj.get(a, {}) for a, b in pairwise(path)):
                return False
            return sum(adj[a][b] for a, b in pairwise(path)) == best

        oracle = entry["answer"].split()
        assert ok(oracle)
        agree(data, entry, entry["answer"], True, "oracle")
        # every shortest path (up to 6) is accepted
        paths, stack = [], [[s]]
        while stack and len(paths) < 6:
            p = stack.pop()
            u = p[-1]
            if u == t:
                paths.append(p)
                continue
            for v, w in adj[u].items():
                if v not in p and dist.get(u, 0) + w == dist.get(v) and dist[v] <= dist[t]:
                    stack.append([*p, v])
        for p in paths:
            agree(data, entry, " ".join(p), ok(p), "a shortest path")
        for v in adj[s]:
            p = [s, v, s, *oracle[1:]]
            agree(data, entry, " ".join(p), ok(p), "a detour")
            break
        agree(data, entry, " ".join(oracle[:-1]), False, "target dropped")
