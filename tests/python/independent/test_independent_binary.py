"""Independent checks of the shading / placement grid families, from the prompt text alone.

binairo, kakurasu, nonogram, hitori, tents, n_queens, magic_square: parse the question, check
answers with our own reading of the rules, find up to two solutions with our own solver, and
compare every verdict with gauntlet's (alternative solutions must be accepted; a puzzle whose
prompt says it has exactly one solution must have exactly one).
"""

from __future__ import annotations

import random
import re
from itertools import combinations, product

import pytest

from ._common import LEVELS, agree, entries, fmt_grid
from ._solvers import fixpoint, solve_csp

SEEDS = 3
Cell = tuple[int, int]


def line_table_step(table: list[tuple[list[Cell], list[tuple[int, ...]]]]):
    """Propagation over lines whose allowed value tuples are listed."""

    def step(d):
        changed = False
        for cells, ok in table:
            doms = [d[c] for c in cells]
            support = [set() for _ in cells]
            for t in ok:
                if all(v in dm for v, dm in zip(t, doms, strict=True)):
                    for k, v in enumerate(t):
                        support[k].add(v)
            for k, c in enumerate(cells):
                if not support[k]:
                    return None
                if support[k] != d[c]:
                    d[c] = support[k]
                    changed = True
        return changed

    return step


def to_grid(sol: dict[Cell, int], h: int, w: int) -> list[list[int]]:
    return [[sol[(r, c)] for c in range(w)] for r in range(h)]


def parse_rows(text: str) -> list[list[str]]:
    out = []
    for line in text.strip().splitlines():
        toks = line.split()
        out.append(list(toks[0]) if len(toks) == 1 else toks)
    return out


def flips(grid, rng, k=5, alphabet=("0", "1")):
    """Near misses: one cell changed, and the last row dropped."""
    out = []
    h, w = len(grid), len(grid[0])
    for _ in range(k):
        g = [r[:] for r in grid]
        r, c = rng.randrange(h), rng.randrange(w)
        g[r][c] = rng.choice([a for a in alphabet if a != g[r][c]])
        out.append(g)
    out.append([r[:] for r in grid[:-1]])
    return out


def runs(line) -> list[int]:
    out, k = [], 0
    for v in line:
        if v:
            k += 1
        elif k:
            out.append(k)
            k = 0
    if k:
        out.append(k)
    return out


def check_family(name, level, parse, valid, solve, alphabet=("0", "1"), joined=True, spaced=True):
    rng = random.Random(level * 31)
    for data, entry in entries(name, level, SEEDS):
        q = entry["question"]
        p = parse(q)
        oracle = parse_rows(entry["answer"])
        assert valid(p, oracle), (name, level, entry["answer"])
        agree(data, entry, entry["answer"], True, "oracle")
        sols = solve(p)
        assert sols, (name, level, "own solver found no solution")
        for s in sols:
            assert valid(p, s)
            agree(data, entry, fmt_grid(s), True, "solver's solution")
        if "exactly one solution" in q:
            assert len(sols) == 1, (name, level, entry["metadata"]["seed"], sols)
        if spaced:
            agree(data, entry, fmt_grid(oracle, " "), True, "cells separated by spaces")
        if joined:
            agree(data, entry, fmt_grid(oracle, ""), True, "cells written together")
        for g in flips(oracle, rng, alphabet=alphabet):
            agree(data, entry, fmt_grid(g), len(g) == len(oracle) and valid(p, g), "near miss")


# ---------------------------------------------------------------- binairo


def parse_binairo(q):
    n = int(re.search(r"Solve this (\d+)×", q).group(1))
    rows = [ln.split() for ln in q.splitlines() if re.fullmatch(r"[.01]( [.01])+", ln)]
    assert len(rows) == n
    return {"n": n, "givens": rows}


def binairo_line_ok(line) -> bool:
    n = len(line)
    s = "".join(line)
    return s.count("0") == n // 2 and s.count("1") == n // 2 and "000" not in s and "111" not in s


def binairo_valid(p, g) -> bool:
    n = p["n"]
    if len(g) != n or any(len(r) != n or set(r) - {"0", "1"} for r in g):
        return False
    if any(p["givens"][r][c] != "." and p["givens"][r][c] != g[r][c] for r in range(n) for c in range(n)):
        return False
    cols = [[g[r][c] for r in range(n)] for c in range(n)]
    return (
        all(binairo_line_ok(x) for x in g + cols)
        and len({"".join(r) for r in g}) == n
        and len({"".join(c) for c in cols}) == n
    )


def binairo_solve(p):
    n = p["n"]
    ok = [t for t in product((0, 1), repeat=n) if binairo_line_ok([str(v) for v in t])]
    table = [([(r, c) for c in range(n)], ok) for r in range(n)] + [([(r, c) for r in range(n)], ok) for c in range(n)]
    dom = {(r, c): {0, 1} if p["givens"][r][c] == "." else {int(p["givens"][r][c])} for r in range(n) for c in range(n)}

    def distinct(d):
        for lines in (table[:n], table[n:]):
            done = [tuple(next(iter(d[c])) for c in cells) for cells, _ in lines if all(len(d[c]) == 1 for c in cells)]
            if len(done) != len(set(done)):
                return None
        return False

    sols = solve_csp(dom, lambda d: fixpoint([line_table_step(table), distinct], d))
    return [[[str(v) for v in row] for row in to_grid(s, n, n)] for s in sols]


@pytest.mark.parametrize("level", LEVELS)
def test_binairo(level):
    check_family("binairo", level, parse_binairo, binairo_valid, binairo_solve)


# ---------------------------------------------------------------- kakurasu


def parse_kakurasu(q):
    n = int(re.search(r"on a (\d+)x", q).group(1))
    rows = [int(x) for x in re.search(r"^Row clues[^:]*: (.*)$", q, re.M).group(1).split()]
    cols = [int(x) for x in re.search(r"^Column clues[^:]*: (.*)$", q, re.M).group(1).split()]
    assert len(rows) == len(cols) == n
    return {"n": n, "rows": rows, "cols": cols}


def kakurasu_valid(p, g) -> bool:
    n = p["n"]
    if len(g) != n or any(len(r) != n or set(r) - {"0", "1"} for r in g):
        return False
    b = [[int(v) for v in r] for r in g]
    return all(sum(c + 1 for c in range(n) if b[r][c]) == p["rows"][r] for r in range(n)) and all(
        sum(r + 1 for r in range(n) if b[r][c]) == p["cols"][c] for c in range(n)
    )


def kakurasu_solve(p):
    n = p["n"]
    pats = list(product((0, 1), repeat=n))
    table = []
    for i in range(n):
        ok_r = [t for t in pats if sum(k + 1 for k in range(n) if t[k]) == p["rows"][i]]
        ok_c = [t for t in pats if sum(k + 1 for k in range(n) if t[k]) == p["cols"][i]]
        table.append(([(i, c) for c in range(n)], ok_r))
        table.append(([(r, i) for r in range(n)], ok_c))
    dom = {(r, c): {0, 1} for r in range(n) for c in range(n)}
    sols = solve_csp(dom, lambda d: fixpoint([line_table_step(table)], d))
    return [[[str(v) for v in row] for row in to_grid(s, n, n)] for s in sols]


@pytest.mark.parametrize("level", LEVELS)
def test_kakurasu(level):
    check_family("kakurasu", level, parse_kakurasu, kakurasu_valid, kakurasu_solve)


# ---------------------------------------------------------------- nonogram


def parse_nonogram(q):
    h, w = (int(x) for x in re.search(r"on a (\d+)x(\d+)", q).groups())
    rows_txt = q.split("Row clues")[1].split("Column clues")[0]
    cols_txt = q.split("Column clues")[1].split("Think it through")[0]

    def clues(txt):
        return [[int(x) for x in m.split()] for m in re.findall(r"^\s*\d+: ([\d ]+)$", txt, re.M)]

    rows, cols = clues(rows_txt), clues(cols_txt)
    assert len(rows) == h and len(cols) == w, q
    return {"h": h, "w": w, "rows": [[x for x in r if x] for r in rows], "cols": [[x for x in c if x] for c in cols]}


def nonogram_valid(p, g) -> bool:
    h, w = p["h"], p["w"]
    if len(g) != h or any(len(r) != w or set(r) - {"0", "1"} for r in g):
        return False
    b = [[int(v) for v in r] for r in g]
    return all(runs(b[r]) == p["rows"][r] for r in range(h)) and all(
        runs([b[r][c] for r in range(h)]) == p["cols"][c] for c in range(w)
    )


def line_patterns(clue, n):
    """Every 0/1 line of length n whose runs are `clue`."""
    if not clue:
        return [(0,) * n]
    out = []

    def rec(i, pos, acc):
        if i == len(clue):
            out.append(tuple(acc + [0] * (n - len(acc))))
            return
        need = sum(clue[i:]) + len(clue) - i - 1
        for start in range(pos, n - need + 1):
            block = [0] * (start - len(acc)) + [1] * clue[i]
            nxt = acc + block
            if i < len(clue) - 1:
                nxt = [*nxt, 0]
            rec(i + 1, len(nxt), nxt)

    rec(0, 0, [])
    return out


def nonogram_solve(p):
    h, w = p["h"], p["w"]
    table = [([(r, c) for c in range(w)], line_patterns(p["rows"][r], w)) for r in range(h)]
    table += [([(r, c) for r in range(h)], line_patterns(p["cols"][c], h)) for c in range(w)]
    dom = {(r, c): {0, 1} for r in range(h) for c in range(w)}
    sols = solve_csp(dom, lambda d: fixpoint([line_table_step(table)], d))
    return [[[str(v) for v in row] for row in to_grid(s, h, w)] for s in sols]


@pytest.mark.parametrize("level", LEVELS)
def test_nonogram(level):
    check_family("nonogram", level, parse_nonogram, nonogram_valid, nonogram_solve)


# ---------------------------------------------------------------- hitori


def parse_hitori(q):
    n = int(re.search(r"on a (\d+)x", q).group(1))
    rows = [[int(t) for t in ln.split()] for ln in q.splitlines() if re.fullmatch(r"\d+( \d+)+", ln.strip())]
    assert len(rows) == n and all(len(r) == n for r in rows), q
    return {"n": n, "nums": rows}


def connected(cells: set[Cell]) -> bool:
    if not cells:
        return True
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nb in cells and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == len(cells)


def hitori_valid(p, g) -> bool:
    n, nums = p["n"], p["nums"]
    if len(g) != n or any(len(r) != n or set(r) - {"0", "1"} for r in g):
        return False
    shaded = {(r, c) for r in range(n) for c in range(n) if g[r][c] == "1"}
    for r, c in shaded:
        if (r + 1, c) in shaded or (r, c + 1) in shaded:
            return False
    for i in range(n):
        row = [nums[i][c] for c in range(n) if (i, c) not in shaded]
        col = [nums[r][i] for r in range(n) if (r, i) not in shaded]
        if len(row) != len(set(row)) or len(col) != len(set(col)):
            return False
    return connected({(r, c) for r in range(n) for c in range(n)} - shaded)


def hitori_solve(p):
    n, nums = p["n"], p["nums"]
    cells = [(r, c) for r in range(n) for c in range(n)]
    groups = []
    for i in range(n):
        for line in ([(i, c) for c in range(n)], [(r, i) for r in range(n)]):
            by: dict[int, list[Cell]] = {}
            for rc in line:
                by.setdefault(nums[rc[0]][rc[1]], []).append(rc)
            groups += [g for g in by.values() if len(g) > 1]

    def step(d):
        changed = False

        def fix(cell, v):
            nonlocal changed
            if v not in d[cell]:
                return False
            if len(d[cell]) > 1:
                d[cell] = {v}
                changed = True
            return True

        for r, c in cells:
            if d[(r, c)] == {1}:
                for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if nb in d and not fix(nb, 0):
                        return None
        for grp in groups:
            white = [x for x in grp if d[x] == {0}]
            if len(white) > 1:
                return None
            if white:
                for x in grp:
                    if x != white[0] and not fix(x, 1):
                        return None
        maybe_white = {x for x in cells if 0 in d[x]}
        sure_white = {x for x in cells if d[x] == {0}}
        if sure_white:
            start = next(iter(sure_white))
            seen, todo = {start}, [start]
            while todo:
                r, c = todo.pop()
                for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if nb in maybe_white and nb not in seen:
                        seen.add(nb)
                        todo.append(nb)
            if not sure_white <= seen:
                return None
        if all(len(d[x]) == 1 for x in cells) and not connected(sure_white):
            return None
        return changed

    dom = {x: {0, 1} for x in cells}
    sols = solve_csp(dom, lambda d: fixpoint([step], d))
    return [[[str(v) for v in row] for row in to_grid(s, n, n)] for s in sols]


def hitori_extra_shading(p, g):
    """Valid shadings with one more shaded cell than `g` (the rules as stated allow them)."""
    n = p["n"]
    out = []
    for r in range(n):
        for c in range(n):
            if g[r][c] == "0":
                h = [row[:] for row in g]
                h[r][c] = "1"
                if hitori_valid(p, h):
                    out.append(h)
    return out


@pytest.mark.parametrize("level", LEVELS)
def test_hitori(level):
    check_family("hitori", level, parse_hitori, hitori_valid, hitori_solve)
    for data, entry in entries("hitori", level, SEEDS):
        p = parse_hitori(entry["question"])
        for g in hitori_extra_shading(p, parse_rows(entry["answer"]))[:3]:
            agree(data, entry, fmt_grid(g), True, "oracle plus one more shaded cell (still valid)")


# ---------------------------------------------------------------- tents


def parse_tents(q):
    n = int(re.search(r"on a (\d+)x", q).group(1))
    rows = [ln.split() for ln in q.splitlines() if re.fullmatch(r"[T0]( [T0])+", ln.strip())]
    assert len(rows) == n, q
    rc = [int(x) for x in re.search(r"^Tents per row[^:]*: (.*)$", q, re.M).group(1).split()]
    cc = [int(x) for x in re.search(r"^Tents per column[^:]*: (.*)$", q, re.M).group(1).split()]
    return {"n": n, "board": rows, "rows": rc, "cols": cc}


def matching_exists(tents: list[Cell], trees: list[Cell]) -> bool:
    if len(tents) != len(trees):
        return False
    match: dict[Cell, Cell] = {}

    def adj(a, b):
        return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1

    def augment(t, seen):
        for tr in trees:
            if adj(t, tr) and tr not in seen:
                seen.add(tr)
                if tr not in match or augment(match[tr], seen):
                    match[tr] = t
                    return True
        return False

    return all(augment(t, set()) for t in tents)


def tents_valid(p, g) -> bool:
    n, board = p["n"], p["board"]
    if len(g) != n or any(len(r) != n or set(r) - {"0", "T", "A"} for r in g):
        return False
    for r in range(n):
        for c in range(n):
            if (board[r][c] == "T") != (g[r][c] == "T"):
                return False
    tents = [(r, c) for r in range(n) for c in range(n) if g[r][c] == "A"]
    trees = [(r, c) for r in range(n) for c in range(n) if g[r][c] == "T"]
    ts = set(tents)
    for r, c in tents:
        if any((r + dr, c + dc) in ts for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)):
            return False
    if [sum(1 for c in range(n) if g[r][c] == "A") for r in range(n)] != p["rows"]:
        return False
    if [sum(1 for r in range(n) if g[r][c] == "A") for c in range(n)] != p["cols"]:
        return False
    return matching_exists(tents, trees)


def tents_solve(p):
    n, board = p["n"], p["board"]
    trees = [(r, c) for r in range(n) for c in range(n) if board[r][c] == "T"]
    near = {(r + dr, c + dc) for r, c in trees for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))}
    # a tent pairs with an orthogonally adjacent tree, so cells next to no tree stay empty
    dom = {(r, c): ({0, 1} if board[r][c] != "T" and (r, c) in near else {0}) for r in range(n) for c in range(n)}
    table = []
    for i in range(n):
        for cells, k in (([(i, c) for c in range(n)], p["rows"][i]), ([(r, i) for r in range(n)], p["cols"][i])):
            ok = []
            for pos in combinations(range(n), k):
                if all(b - a > 1 for a, b in zip(pos, pos[1:], strict=False)):  # noqa: RUF007
                    ok.append(tuple(1 if j in pos else 0 for j in range(n)))
            table.append((cells, ok))

    def no_touch(d):
        changed = False
        for (r, c), s in d.items():
            if s == {1}:
                for dr in (-1, 0, 1):
                    for dc in (-1, 0, 1):
                        nb = (r + dr, c + dc)
                        if (dr, dc) != (0, 0) and nb in d and 1 in d[nb]:
                            if d[nb] == {1}:
                                return None
                            d[nb] = {0}
                            changed = True
        for r, c in trees:
            if not any(1 in d.get(nb, ()) for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))):
                return None
        if all(len(s) == 1 for s in d.values()):
            tents = [x for x, s in d.items() if s == {1}]
            if not matching_exists(tents, trees):
                return None
        return changed

    sols = solve_csp(dom, lambda d: fixpoint([line_table_step(table), no_touch], d))
    out = []
    for s in sols:
        out.append([["T" if board[r][c] == "T" else ("A" if s[(r, c)] else "0") for c in range(n)] for r in range(n)])
    return out


@pytest.mark.parametrize("level", LEVELS)
def test_tents(level):
    check_family("tents", level, parse_tents, tents_valid, tents_solve, alphabet=("0", "A", "T"))


# ---------------------------------------------------------------- n_queens


def parse_queens(q):
    n = int(re.search(r"Place (\d+) queens", q).group(1))
    fixed = [(int(r) - 1, int(c) - 1) for r, c in re.findall(r"\(row (\d+), column (\d+)\)", q)]
    return {"n": n, "fixed": fixed}


def queens_valid(p, cols) -> bool:
    n = p["n"]
    if len(cols) != n or any(not 1 <= c <= n for c in cols):
        return False
    if any(cols[r] != c + 1 for r, c in p["fixed"]):
        return False
    return all(cols[a] != cols[b] and abs(cols[a] - cols[b]) != b - a for a in range(n) for b in range(a + 1, n))


def queens_solve(p, limit=2):
    n = p["n"]
    dom = {(r, 0): set(range(1, n + 1)) for r in range(n)}
    for r, c in p["fixed"]:
        dom[(r, 0)] = {c + 1}

    def step(d):
        changed = False
        for (r, _), s in list(d.items()):
            if len(s) == 1:
                c = next(iter(s))
                for r2 in range(n):
                    if r2 != r:
                        bad = {c, c + (r2 - r), c - (r2 - r)}
                        if d[(r2, 0)] & bad:
                            d[(r2, 0)] = d[(r2, 0)] - bad
                            if not d[(r2, 0)]:
                                return None
                            changed = True
        return changed

    sols = solve_csp(dom, lambda d: fixpoint([step], d), limit)
    return [[s[(r, 0)] for r in range(n)] for s in sols]


@pytest.mark.parametrize("level", LEVELS)
def test_n_queens(level):
    rng = random.Random(level)
    for data, entry in entries("n_queens", level, SEEDS):
        p = parse_queens(entry["question"])
        oracle = [int(x) for x in entry["answer"].split()]
        assert queens_valid(p, oracle)
        agree(data, entry, entry["answer"], True, "oracle")
        sols = queens_solve(p, 3)
        assert sols
        for s in sols:
            agree(data, entry, " ".join(map(str, s)), True, "another valid placement")
        for _ in range(4):
            g = oracle[:]
            a, b = rng.sample(range(p["n"]), 2)
            g[a], g[b] = g[b], g[a]
            agree(data, entry, " ".join(map(str, g)), queens_valid(p, g), "two rows swapped")
            g = oracle[:]
            r = rng.randrange(p["n"])
            g[r] = rng.choice([c for c in range(1, p["n"] + 1) if c != g[r]])
            agree(data, entry, " ".join(map(str, g)), queens_valid(p, g), "one queen moved")
        agree(data, entry, " ".join(map(str, oracle[:-1])), False, "last row missing")


# ---------------------------------------------------------------- magic_square


def parse_magic(q):
    n = int(re.search(r"Complete this (\d+)×", q).group(1))
    magic = int(re.search(r"magic constant (\d+)", q).group(1))
    rows = [ln.split() for ln in q.splitlines() if re.fullmatch(r"[\d.]+( +[\d.]+)+", ln.strip())]
    rows = [r for r in rows if len(r) == n][:n]
    assert len(rows) == n, q
    return {"n": n, "magic": magic, "givens": [[0 if t == "." else int(t) for t in r] for r in rows]}


def magic_valid(p, g) -> bool:
    n, m = p["n"], p["magic"]
    if len(g) != n or any(len(r) != n for r in g):
        return False
    if sorted(v for r in g for v in r) != list(range(1, n * n + 1)):
        return False
    if any(p["givens"][r][c] and p["givens"][r][c] != g[r][c] for r in range(n) for c in range(n)):
        return False
    lines = [*g, *([g[r][c] for r in range(n)] for c in range(n))]
    lines += [[g[i][i] for i in range(n)], [g[i][n - 1 - i] for i in range(n)]]
    return all(sum(x) == m for x in lines)


def magic_symmetries(g):
    """The 8 rotations/reflections of a square, plus the complement x -> n^2+1-x of each."""
    n = len(g)
    out = []
    cur = [r[:] for r in g]
    for _ in range(4):
        cur = [list(r) for r in zip(*cur[::-1], strict=True)]
        out.append(cur)
        out.append([r[::-1] for r in cur])
    return out + [[[n * n + 1 - v for v in r] for r in s] for s in out]


@pytest.mark.parametrize("level", LEVELS)
def test_magic_square(level):
    rng = random.Random(level)
    for data, entry in entries("magic_square", level, SEEDS):
        p = parse_magic(entry["question"])
        oracle = [[int(t) for t in ln.split()] for ln in entry["answer"].strip().splitlines()]
        assert magic_valid(p, oracle)
        agree(data, entry, entry["answer"], True, "oracle")
        # other magic squares: those that keep the givens must be accepted, the others rejected
        for s in magic_symmetries(oracle):
            agree(data, entry, fmt_grid(s), magic_valid(p, s), "symmetric image of the oracle")
        n = p["n"]
        for _ in range(4):
            g = [r[:] for r in oracle]
            (a, b), (c, d) = rng.sample([(r, c) for r in range(n) for c in range(n)], 2)
            g[a][b], g[c][d] = g[c][d], g[a][b]
            agree(data, entry, fmt_grid(g), magic_valid(p, g), "two cells swapped")
