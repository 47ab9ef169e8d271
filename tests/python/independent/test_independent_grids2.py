"""Independent checks of kakuro, numbrix, star_battle, hashi, slitherlink and norinori, from the
prompt text alone: parse the grid, check answers with our own rules, find up to 2 solutions with our
own solver (every one must be accepted: none of these prompts claims a unique solution, and norinori
instances typically have several), and compare every verdict with gauntlet's on the oracle answer
and on near misses (a cell changed, two cells swapped, a row or a line dropped)."""

from __future__ import annotations

import random
import re
from collections import deque

import pytest

from ._common import LEVELS, agree, entries, fmt_grid
from ._solvers import filter_by_tuples, fixpoint, solve_csp, sum_step

SEEDS = 3
NEIGH4 = ((0, 1), (1, 0), (0, -1), (-1, 0))


def body(q):
    return q.split("Think it through")[0]


def size(q):
    m = re.search(r"on a (\d+)x(\d+) grid", q)
    return int(m.group(1)), int(m.group(2))


def token_rows(q, w, pattern):
    """The first run of lines with `w` tokens that all match `pattern`."""
    rows = []
    for ln in q.splitlines():
        toks = ln.split()
        if len(toks) == w and all(re.fullmatch(pattern, t) for t in toks):
            rows.append(toks)
        elif rows:
            break
    return rows


def parse_grid(text):
    return [ln.split() for ln in text.strip().splitlines()]


def connected(cells):
    cells = set(cells)
    if not cells:
        return False
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for dr, dc in NEIGH4:
            nb = (r + dr, c + dc)
            if nb in cells and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return seen == cells


def binary_misses(grid, rng, k=4):
    """0/1 grid near misses: one cell flipped (k times), two different cells of a row swapped, last row
    dropped, an empty row appended."""
    h, w = len(grid), len(grid[0])
    out = []
    for _ in range(k):
        g = [row[:] for row in grid]
        r, c = rng.randrange(h), rng.randrange(w)
        g[r][c] = 1 - g[r][c]
        out.append(g)
    for r in rng.sample(range(h), min(h, 3)):
        if 0 < sum(grid[r]) < w:
            g = [row[:] for row in grid]
            a = g[r].index(1)
            b = g[r].index(0)
            g[r][a], g[r][b] = 0, 1
            out.append(g)
    out.append([row[:] for row in grid[:-1]])
    out.append([*(row[:] for row in grid), [0] * w])
    return out


# ---------------------------------------------------------------- kakuro


def parse_kakuro(q):
    h, w = size(q)
    rows = token_rows(q, w, r"[#_1-9]")
    assert len(rows) == h
    runs = []
    for r, c1, c2, s in re.findall(r"^row (\d+), columns (\d+)-(\d+): (\d+)$", q, re.M):
        runs.append(([(int(r) - 1, c) for c in range(int(c1) - 1, int(c2))], int(s)))
    for c, r1, r2, s in re.findall(r"^column (\d+), rows (\d+)-(\d+): (\d+)$", q, re.M):
        runs.append(([(r, int(c) - 1) for r in range(int(r1) - 1, int(r2))], int(s)))
    return {"h": h, "w": w, "rows": rows, "runs": runs}


def kakuro_runs_ok(p):
    """The clue list holds exactly the maximal runs of >= 2 white cells."""
    white = {(r, c) for r in range(p["h"]) for c in range(p["w"]) if p["rows"][r][c] != "#"}
    found = []
    for horiz in (True, False):
        outer, inner = (p["h"], p["w"]) if horiz else (p["w"], p["h"])
        for a in range(outer):
            run = []
            for b in [*range(inner), None]:
                cell = None if b is None else ((a, b) if horiz else (b, a))
                if cell in white:
                    run.append(cell)
                else:
                    if len(run) >= 2:
                        found.append(tuple(run))
                    run = []
    return sorted(found) == sorted(tuple(cells) for cells, _ in p["runs"])


def kakuro_valid(p, g):
    h, w = p["h"], p["w"]
    if len(g) != h or any(len(row) != w for row in g):
        return False
    for r in range(h):
        for c in range(w):
            given = p["rows"][r][c]
            if (given == "#") != (g[r][c] == "#"):
                return False
            if given != "#" and (not re.fullmatch(r"[1-9]", g[r][c]) or given not in ("_", g[r][c])):
                return False
    for cells, s in p["runs"]:
        vals = [int(g[r][c]) for r, c in cells]
        if len(set(vals)) != len(vals) or sum(vals) != s:
            return False
    return True


def kakuro_solve(p, limit=2):
    dom = {}
    for r in range(p["h"]):
        for c in range(p["w"]):
            t = p["rows"][r][c]
            if t != "#":
                dom[(r, c)] = set(range(1, 10)) if t == "_" else {int(t)}

    def run_step(d):
        changed = False
        for cells, s in p["runs"]:
            fixed = [next(iter(d[c])) for c in cells if len(d[c]) == 1]
            if len(set(fixed)) != len(fixed):
                return None
            free = [c for c in cells if len(d[c]) > 1]
            if not free:
                if sum(fixed) != s:
                    return None
                continue
            pool = set().union(*(d[c] for c in free)) - set(fixed)
            for c in free:
                keep = set()
                for v in d[c] - set(fixed):
                    rest = sorted(pool - {v})
                    k, need = len(free) - 1, s - sum(fixed) - v
                    if len(rest) >= k and sum(rest[:k]) <= need <= sum(rest[len(rest) - k :]):
                        keep.add(v)
                if not keep:
                    return None
                if keep != d[c]:
                    d[c] = keep
                    changed = True
        return changed

    sols = solve_csp(dom, lambda d: fixpoint([run_step], d), limit)
    out = []
    for s in sols:
        out.append([[str(s[(r, c)]) if (r, c) in s else "#" for c in range(p["w"])] for r in range(p["h"])])
    return out


@pytest.mark.parametrize("level", LEVELS)
def test_kakuro(level):
    rng = random.Random(level)
    for data, entry in entries("kakuro", level, SEEDS if level < 5 else 2):
        p = parse_kakuro(body(entry["question"]))
        assert kakuro_runs_ok(p), "the clue list is not the grid's runs"
        oracle = parse_grid(entry["answer"])
        assert kakuro_valid(p, oracle)
        agree(data, entry, entry["answer"], True, "oracle")
        sols = kakuro_solve(p)
        assert sols
        for s in sols:
            assert kakuro_valid(p, s)
            agree(data, entry, fmt_grid(s), True, "solver's solution")
        white = [(r, c) for r in range(p["h"]) for c in range(p["w"]) if p["rows"][r][c] == "_"]
        for _ in range(4):
            g = [row[:] for row in oracle]
            r, c = rng.choice(white)
            g[r][c] = str(rng.choice([v for v in range(1, 10) if str(v) != g[r][c]]))
            agree(data, entry, fmt_grid(g), kakuro_valid(p, g), "one digit changed")
            g = [row[:] for row in oracle]
            (r1, c1), (r2, c2) = rng.sample(white, 2)
            g[r1][c1], g[r2][c2] = g[r2][c2], g[r1][c1]
            agree(data, entry, fmt_grid(g), kakuro_valid(p, g), "two digits swapped")
        agree(data, entry, fmt_grid(oracle[:-1]), False, "last row dropped")


# ---------------------------------------------------------------- numbrix


def numbrix_valid(givens, g):
    n = len(givens)
    if len(g) != n or any(len(row) != n for row in g):
        return False
    try:
        vals = [[int(t) for t in row] for row in g]
    except ValueError:
        return False
    pos = {}
    for r in range(n):
        for c in range(n):
            pos[vals[r][c]] = (r, c)
            if givens[r][c] != "_" and int(givens[r][c]) != vals[r][c]:
                return False
    if sorted(pos) != list(range(1, n * n + 1)) or len(pos) != n * n:
        return False
    return all(abs(pos[k][0] - pos[k + 1][0]) + abs(pos[k][1] - pos[k + 1][1]) == 1 for k in range(1, n * n))


def numbrix_solve(givens, limit=2, budget=200_000):
    """Up to `limit` fillings by extending the path 1, 2, ... cell by cell (next given within reach,
    with the right parity); None when the search exceeds `budget` steps."""
    n = len(givens)
    total = n * n
    pos = {int(t): (r, c) for r, row in enumerate(givens) for c, t in enumerate(row) if t != "_"}
    given_cells = set(pos.values())
    nexts = sorted(pos)
    grid = [[0] * n for _ in range(n)]
    sols, steps = [], 0

    def reachable(k, cell):
        m = next((g for g in nexts if g > k), None)
        if m is None:
            return True
        dist = abs(cell[0] - pos[m][0]) + abs(cell[1] - pos[m][1])
        return dist <= m - k and (m - k - dist) % 2 == 0

    def rec(k, cell):
        nonlocal steps
        steps += 1
        if steps > budget or len(sols) >= limit:
            return
        grid[cell[0]][cell[1]] = k
        if k == total:
            sols.append([[str(v) for v in row] for row in grid])
        elif k + 1 in pos:
            nxt = pos[k + 1]
            if abs(nxt[0] - cell[0]) + abs(nxt[1] - cell[1]) == 1:
                rec(k + 1, nxt)
        else:
            for dr, dc in NEIGH4:
                r, c = cell[0] + dr, cell[1] + dc
                free = 0 <= r < n and 0 <= c < n and not grid[r][c] and (r, c) not in given_cells
                if free and reachable(k + 1, (r, c)):
                    rec(k + 1, (r, c))
        grid[cell[0]][cell[1]] = 0

    starts = [pos[1]] if 1 in pos else [(r, c) for r in range(n) for c in range(n) if (r, c) not in given_cells]
    for start in starts:
        if reachable(1, start):
            rec(1, start)
    return None if steps > budget else sols


@pytest.mark.parametrize("level", LEVELS)
def test_numbrix(level):
    # The prompt does not claim uniqueness: every filling our path search finds (up to 2) must be
    # accepted; on a 9x9 grid the search may exceed its step budget and is then left out.
    rng = random.Random(level)
    for data, entry in entries("numbrix", level, SEEDS):
        q = body(entry["question"])
        n = size(q)[0]
        givens = token_rows(q, n, r"_|\d+")
        assert len(givens) == n
        oracle = parse_grid(entry["answer"])
        assert numbrix_valid(givens, oracle)
        agree(data, entry, entry["answer"], True, "oracle")
        sols = numbrix_solve(givens)
        for sol in sols or []:
            assert numbrix_valid(givens, sol)
            agree(data, entry, fmt_grid(sol), True, "solver's solution")
        assert sols is None or sols, "our search found no filling"
        agree(data, entry, fmt_grid(oracle, "  "), True, "two spaces between numbers")
        free = [(r, c) for r in range(n) for c in range(n) if givens[r][c] == "_"]
        for _ in range(4):
            g = [row[:] for row in oracle]
            (r1, c1), (r2, c2) = rng.sample(free, 2)
            g[r1][c1], g[r2][c2] = g[r2][c2], g[r1][c1]
            agree(data, entry, fmt_grid(g), numbrix_valid(givens, g), "two numbers swapped")
            g = [row[:] for row in oracle]
            r, c = rng.choice(free)
            g[r][c] = str(rng.randrange(1, n * n + 1))
            agree(data, entry, fmt_grid(g), numbrix_valid(givens, g), "one number changed")
        # the whole path reversed (k -> n*n+1-k) is a valid path when no given pins the direction
        rev = [[str(n * n + 1 - int(t)) for t in row] for row in oracle]
        agree(data, entry, fmt_grid(rev), numbrix_valid(givens, rev), "path reversed")
        agree(data, entry, fmt_grid(oracle[:-1]), False, "last row dropped")


# ---------------------------------------------------------------- star_battle


def parse_regions(q, n):
    rows = token_rows(q, n, r"[A-Za-z]")
    assert len(rows) == n
    return rows


def star_valid(regions, k, g):
    n = len(regions)
    if len(g) != n or any(len(row) != n for row in g) or any(v not in (0, 1) for row in g for v in row):
        return False
    stars = [(r, c) for r in range(n) for c in range(n) if g[r][c]]
    counts: dict = {}
    for r, c in stars:
        for key in (("r", r), ("c", c), ("g", regions[r][c])):
            counts[key] = counts.get(key, 0) + 1
    letters = {ch for row in regions for ch in row}
    keys = [("r", i) for i in range(n)] + [("c", i) for i in range(n)] + [("g", ch) for ch in letters]
    if any(counts.get(key, 0) != k for key in keys) or len(counts) != len(keys):
        return False
    return all(not (abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1) for i, a in enumerate(stars) for b in stars[:i])


def star_solve(regions, k, limit=2):
    """Row by row: choose k non-adjacent columns per row, keeping column and region counts <= k."""
    from itertools import combinations, pairwise

    n = len(regions)
    letters = {ch for row in regions for ch in row}
    region_rows = {ch: max(r for r in range(n) for c in range(n) if regions[r][c] == ch) for ch in letters}
    col, reg = [0] * n, dict.fromkeys(letters, 0)
    grid = [[0] * n for _ in range(n)]
    sols = []
    choices = [cs for cs in combinations(range(n), k) if all(b - a > 1 for a, b in pairwise(cs))]

    def rec(r, prev):
        if len(sols) >= limit:
            return
        if r == n:
            sols.append([row[:] for row in grid])
            return
        for cs in choices:
            if any(col[c] >= k or any(abs(c - p) <= 1 for p in prev) for c in cs):
                continue
            for c in cs:
                col[c] += 1
                reg[regions[r][c]] += 1
                grid[r][c] = 1
            closed = [ch for ch in letters if region_rows[ch] == r]
            left = n - r - 1
            regions_ok = all(reg[ch] <= k for ch in letters) and all(reg[ch] == k for ch in closed)
            if regions_ok and all(col[c] + left >= k for c in range(n)):
                rec(r + 1, cs)
            for c in cs:
                col[c] -= 1
                reg[regions[r][c]] -= 1
                grid[r][c] = 0

    rec(0, ())
    return sols


@pytest.mark.parametrize("level", LEVELS)
def test_star_battle(level):
    rng = random.Random(level)
    for data, entry in entries("star_battle", level, SEEDS):
        q = body(entry["question"])
        n = size(q)[0]
        k = int(re.search(r"holds exactly (\d+) stars?", q).group(1))
        regions = parse_regions(q, n)
        oracle = [[int(t) for t in row] for row in parse_grid(entry["answer"])]
        assert star_valid(regions, k, oracle)
        agree(data, entry, entry["answer"], True, "oracle")
        sols = star_solve(regions, k)
        assert sols
        for s in sols:
            assert star_valid(regions, k, s)
            agree(data, entry, fmt_grid(s), True, "solver's solution")
        for g in binary_misses(oracle, rng):
            agree(data, entry, fmt_grid(g), star_valid(regions, k, g), "near miss")


# ---------------------------------------------------------------- norinori


def norinori_valid(regions, g):
    n = len(regions)
    if len(g) != n or any(len(row) != n for row in g) or any(v not in (0, 1) for row in g for v in row):
        return False
    counts: dict = {}
    for r in range(n):
        for c in range(n):
            counts.setdefault(regions[r][c], 0)
            if g[r][c]:
                counts[regions[r][c]] += 1
                nbs = sum(1 for dr, dc in NEIGH4 if 0 <= r + dr < n and 0 <= c + dc < n and g[r + dr][c + dc])
                if nbs != 1:
                    return False
    return all(v == 2 for v in counts.values())


def norinori_solve(regions, limit=2):
    """Up to `limit` shadings: each region's shaded count is 2 (sum_step) and every shaded cell has
    exactly one shaded edge neighbour."""
    n = len(regions)
    cells = [(r, c) for r in range(n) for c in range(n)]
    nbs = {(r, c): [(r + dr, c + dc) for dr, dc in NEIGH4 if 0 <= r + dr < n and 0 <= c + dc < n] for r, c in cells}
    groups = {}
    for r, c in cells:
        groups.setdefault(regions[r][c], []).append((r, c))
    region_step = sum_step([(g, 2, 2) for g in groups.values()])

    def domino_step(d):
        changed = False
        for cell in cells:
            if d[cell] != {1}:
                continue
            ones = [x for x in nbs[cell] if d[x] == {1}]
            free = [x for x in nbs[cell] if len(d[x]) > 1]
            if len(ones) > 1 or (not ones and not free):
                return None
            if ones and free:
                for x in free:
                    d[x] = {0}
                changed = True
            elif not ones and len(free) == 1:
                d[free[0]] = {1}
                changed = True
        return changed

    dom = {cell: {0, 1} for cell in cells}
    sols = solve_csp(dom, lambda d: fixpoint([region_step, domino_step], d), limit)
    return [[[s[(r, c)] for c in range(n)] for r in range(n)] for s in sols]


@pytest.mark.parametrize("level", LEVELS)
def test_norinori(level):
    # The prompt does not claim uniqueness: every solution our solver finds (up to 2) must be accepted.
    rng = random.Random(level)
    for data, entry in entries("norinori", level, SEEDS):
        q = body(entry["question"])
        n = size(q)[0]
        regions = parse_regions(q, n)
        m = re.search(r"divided into (\d+) regions", q)
        assert int(m.group(1)) == len({ch for row in regions for ch in row})
        oracle = [[int(t) for t in row] for row in parse_grid(entry["answer"])]
        assert norinori_valid(regions, oracle)
        agree(data, entry, entry["answer"], True, "oracle")
        sols = norinori_solve(regions)
        assert sols
        for sol in sols:
            assert norinori_valid(regions, sol)
            agree(data, entry, fmt_grid(sol), True, "solver's solution")
        for g in binary_misses(oracle, rng):
            agree(data, entry, fmt_grid(g), norinori_valid(regions, g), "near miss")


# ---------------------------------------------------------------- slitherlink


def slither_valid(clues, g):
    h, w = len(clues), len(clues[0])
    if len(g) != h or any(len(row) != w for row in g) or any(v not in (0, 1) for row in g for v in row):
        return False
    val = lambda r, c: g[r][c] if 0 <= r < h and 0 <= c < w else 0  # noqa: E731
    ones = [(r, c) for r in range(h) for c in range(w) if g[r][c]]
    if not connected(ones):
        return False
    # every 0-cell reaches the border through 0-cells: flood from outside
    seen = set()
    todo = deque((r, c) for r in range(h) for c in range(w) if (r in (0, h - 1) or c in (0, w - 1)) and not g[r][c])
    seen.update(todo)
    while todo:
        r, c = todo.popleft()
        for dr, dc in NEIGH4:
            nb = (r + dr, c + dc)
            if 0 <= nb[0] < h and 0 <= nb[1] < w and not g[nb[0]][nb[1]] and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    if len(seen) != h * w - len(ones):
        return False
    for r in range(h - 1):
        for c in range(w - 1):
            a, b, cc, d = g[r][c], g[r][c + 1], g[r + 1][c], g[r + 1][c + 1]
            if a == d and b == cc and a != b:
                return False
    for r in range(h):
        for c in range(w):
            if clues[r][c] != ".":
                sides = sum(1 for dr, dc in NEIGH4 if val(r + dr, c + dc) != g[r][c])
                if sides != int(clues[r][c]):
                    return False
    return True


def slither_solve(clues, limit=2):
    """Up to `limit` inside/outside markings: clue and 2x2 constraints by arc consistency on the
    cells' 0/1 domains, the two connectivity rules checked on what is still possible."""
    h, w = len(clues), len(clues[0])
    cells = [(r, c) for r in range(h) for c in range(w)]
    cons = []
    for r, c in cells:
        if clues[r][c] != ".":
            nbs = [(r + dr, c + dc) for dr, dc in NEIGH4 if 0 <= r + dr < h and 0 <= c + dc < w]
            outside, k = 4 - len(nbs), int(clues[r][c])
            cons.append(([(r, c), *nbs], lambda t, o=outside, k=k: sum(v != t[0] for v in t[1:]) + o * t[0] == k))
    for r in range(h - 1):
        for c in range(w - 1):
            block = [(r, c), (r, c + 1), (r + 1, c + 1), (r + 1, c)]
            cons.append((block, lambda t: not (t[0] == t[2] and t[1] == t[3] and t[0] != t[1])))

    def local(d):
        changed = False
        for cs, ok in cons:
            res = filter_by_tuples(d, cs, ok)
            if res is None:
                return None
            changed = changed or res
        return changed

    def reach(d, value, seeds):
        todo = [x for x in seeds if value in d[x]]
        seen = set(todo)
        while todo:
            r, c = todo.pop()
            for dr, dc in NEIGH4:
                nb = (r + dr, c + dc)
                if nb in d and nb not in seen and value in d[nb]:
                    seen.add(nb)
                    todo.append(nb)
        return seen

    def connectivity(d):
        ones = [x for x in cells if d[x] == {1}]
        if ones and not all(x in reach(d, 1, ones[:1]) for x in ones):
            return None
        if not any(1 in d[x] for x in cells):
            return None
        border = [(r, c) for r, c in cells if r in (0, h - 1) or c in (0, w - 1)]
        outside = reach(d, 0, border)
        if any(d[x] == {0} and x not in outside for x in cells):
            return None
        return False

    dom = {x: {0, 1} for x in cells}
    sols = solve_csp(dom, lambda d: fixpoint([local, connectivity], d), limit)
    return [[[s[(r, c)] for c in range(w)] for r in range(h)] for s in sols]


@pytest.mark.parametrize("level", LEVELS)
def test_slitherlink(level):
    # The prompt does not claim uniqueness: every solution our solver finds (up to 2) must be accepted.
    rng = random.Random(level)
    for data, entry in entries("slitherlink", level, SEEDS):
        q = body(entry["question"])
        h, w = size(q)
        clues = token_rows(q, w, r"[.0-4]")
        assert len(clues) == h
        oracle = [[int(t) for t in row] for row in parse_grid(entry["answer"])]
        assert slither_valid(clues, oracle)
        agree(data, entry, entry["answer"], True, "oracle")
        sols = slither_solve(clues)
        assert sols
        for sol in sols:
            assert slither_valid(clues, sol)
            agree(data, entry, fmt_grid(sol), True, "solver's solution")
        for g in binary_misses(oracle, rng, k=6):
            agree(data, entry, fmt_grid(g), slither_valid(clues, g), "near miss")


# ---------------------------------------------------------------- hashi


def parse_bridges(text):
    out = []
    for ln in text.strip().splitlines():
        m = re.fullmatch(r"\s*r(\d+)c(\d+)\s*-\s*r(\d+)c(\d+)\s*=\s*(\d+)\s*", ln)
        if not m:
            return None
        r1, c1, r2, c2, k = map(int, m.groups())
        out.append(((r1 - 1, c1 - 1), (r2 - 1, c2 - 1), k))
    return out


def hashi_valid(islands, bridges):
    if bridges is None:
        return False
    deg = dict.fromkeys(islands, 0)
    seen = set()
    segs = []
    for a, b, k in bridges:
        key = frozenset((a, b))
        if a not in islands or b not in islands or a == b or key in seen or k not in (1, 2):
            return False
        seen.add(key)
        if a[0] != b[0] and a[1] != b[1]:
            return False
        (r1, c1), (r2, c2) = sorted((a, b))
        inner = [(r1, c) for c in range(c1 + 1, c2)] if r1 == r2 else [(r, c1) for r in range(r1 + 1, r2)]
        if any(cell in islands for cell in inner):
            return False
        segs.append((r1 == r2, (r1, c1), (r2, c2)))
        deg[a] += k
        deg[b] += k
    for hz, (r1, c1), (_r2, c2) in segs:
        for vt, (s1, t1), (s2, _t2) in segs:
            if hz and not vt and s1 < r1 < s2 and c1 < t1 < c2:
                return False
    if any(deg[i] != islands[i] for i in islands):
        return False
    adj = {i: set() for i in islands}
    for a, b, _ in bridges:
        adj[a].add(b)
        adj[b].add(a)
    start = next(iter(islands))
    comp, todo = {start}, [start]
    while todo:
        for nb in adj[todo.pop()]:
            if nb not in comp:
                comp.add(nb)
                todo.append(nb)
    return len(comp) == len(islands)


def fmt_bridges(bridges):
    return "\n".join(f"r{a[0] + 1}c{a[1] + 1}-r{b[0] + 1}c{b[1] + 1}={k}" for a, b, k in bridges)


def hashi_solve(islands, n, limit=2):
    """Up to `limit` bridge sets: one 0/1/2 variable per pair of islands that see each other along a
    row or column, degree bounds, no crossing, and the islands joinable by what is still possible."""
    pairs = []
    for r, c in islands:
        for dr, dc in ((0, 1), (1, 0)):
            rr, cc = r + dr, c + dc
            while 0 <= rr < n and 0 <= cc < n and (rr, cc) not in islands:
                rr, cc = rr + dr, cc + dc
            if (rr, cc) in islands:
                pairs.append(((r, c), (rr, cc)))
    crossing = []
    for i, (a, b) in enumerate(pairs):
        for j, (e, f) in enumerate(pairs):
            horiz, vert = a[0] == b[0], e[1] == f[1] and e[0] != f[0]
            if horiz and vert and e[0] < a[0] < f[0] and a[1] < e[1] < b[1]:
                crossing.append((i, j))
    at = {x: [i for i, p in enumerate(pairs) if x in p] for x in islands}

    def degree(d):
        changed = False
        for x, need in islands.items():
            es = at[x]
            lo, hi = sum(min(d[(i, 0)]) for i in es), sum(max(d[(i, 0)]) for i in es)
            if not lo <= need <= hi:
                return None
            for i in es:
                keep = {v for v in d[(i, 0)] if lo - min(d[(i, 0)]) + v <= need <= hi - max(d[(i, 0)]) + v}
                if keep != d[(i, 0)]:
                    d[(i, 0)] = keep
                    changed = True
        return changed

    def cross(d):
        changed = False
        for i, j in crossing:
            for a, b in ((i, j), (j, i)):
                if 0 not in d[(a, 0)] and d[(b, 0)] != {0}:
                    if 0 not in d[(b, 0)]:
                        return None
                    d[(b, 0)] = {0}
                    changed = True
        return changed

    def joined(d):
        start = next(iter(islands))
        seen, todo = {start}, [start]
        while todo:
            x = todo.pop()
            for i in at[x]:
                if max(d[(i, 0)]) > 0:
                    y = pairs[i][1] if pairs[i][0] == x else pairs[i][0]
                    if y not in seen:
                        seen.add(y)
                        todo.append(y)
        return False if len(seen) == len(islands) else None

    dom = {(i, 0): {0, 1, 2} for i in range(len(pairs))}
    sols = solve_csp(dom, lambda d: fixpoint([degree, cross, joined], d), limit)
    return [[(pairs[i][0], pairs[i][1], v) for (i, _), v in sorted(s.items()) if v] for s in sols]


@pytest.mark.parametrize("level", LEVELS)
def test_hashi(level):
    # The prompt does not claim uniqueness: every solution our solver finds (up to 2) must be accepted.
    rng = random.Random(level)
    for data, entry in entries("hashi", level, SEEDS):
        q = body(entry["question"])
        n = size(q)[0]
        rows = token_rows(q, n, r"[.1-8]")
        assert len(rows) == n
        islands = {(r, c): int(t) for r, row in enumerate(rows) for c, t in enumerate(row) if t != "."}
        oracle = parse_bridges(entry["answer"])
        assert hashi_valid(islands, oracle)
        agree(data, entry, entry["answer"], True, "oracle")
        sols = hashi_solve(islands, n)
        assert sols
        for sol in sols:
            assert hashi_valid(islands, sol)
            agree(data, entry, fmt_bridges(sol), True, "solver's solution")
        shuffled = oracle[:]
        rng.shuffle(shuffled)
        agree(data, entry, fmt_bridges(shuffled), True, "lines in another order")
        flipped = [(b, a, k) for a, b, k in oracle]
        agree(data, entry, fmt_bridges(flipped), True, "each pair written the other way round")
        for i in rng.sample(range(len(oracle)), min(3, len(oracle))):
            a, b, k = oracle[i]
            changed = [*oracle[:i], (a, b, 3 - k), *oracle[i + 1 :]]
            agree(data, entry, fmt_bridges(changed), hashi_valid(islands, changed), "bridge count 1<->2")
            dropped = oracle[:i] + oracle[i + 1 :]
            agree(data, entry, fmt_bridges(dropped), hashi_valid(islands, dropped), "one bridge line dropped")
        agree(data, entry, fmt_bridges([*oracle, oracle[0]]), False, "a pair given twice")
        a, b, _ = oracle[0]
        agree(data, entry, fmt_bridges([*oracle, (a, b, 0)]), False, "the first pair again with =0 (k is 1 or 2)")
