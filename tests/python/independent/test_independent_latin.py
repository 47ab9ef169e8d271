"""Independent checks of the Latin-square grid families, written from the prompt text alone.

sudoku, futoshiki, calcudoku, skyscraper: parse the question, check answers with our own rules,
count solutions with our own solver (stop at 2), and compare every verdict with gauntlet's.
"""

from __future__ import annotations

import random
import re
from itertools import permutations
from math import prod

import pytest

from ._common import LEVELS, agree, entries, fmt_grid
from ._solvers import alldiff_units, filter_by_tuples, fixpoint, latin_ok, latin_units, solve_csp

SEEDS = 3


def parse_answer_grid(text: str) -> list[list[int]]:
    rows = []
    for line in text.strip().splitlines():
        toks = line.split()
        if len(toks) == 1 and len(toks[0]) > 1:
            toks = list(toks[0])
        rows.append([int(t) for t in toks])
    return rows


def near_misses(grid: list[list[int]], n: int, rng: random.Random, k: int = 4) -> list[list[list[int]]]:
    """One cell changed; two cells of a row swapped; a row dropped."""
    out = []
    for _ in range(k):
        g = [r[:] for r in grid]
        r, c = rng.randrange(n), rng.randrange(n)
        g[r][c] = rng.choice([v for v in range(1, n + 1) if v != g[r][c]])
        out.append(g)
        g = [r[:] for r in grid]
        r = rng.randrange(n)
        a, b = rng.sample(range(n), 2)
        g[r][a], g[r][b] = g[r][b], g[r][a]
        out.append(g)
    out.append([r[:] for r in grid[:-1]])
    return out


def all_solutions(n, units, extra, givens=None, limit=2):
    """Up to `limit` solutions (grids) of a Latin-type puzzle: all-different `units` (every value
    once) plus the family's `extra` propagation steps."""
    dom = {(r, c): set(range(1, n + 1)) for r in range(n) for c in range(n)}
    for r in range(n):
        for c in range(n):
            if givens and givens[r][c]:
                dom[(r, c)] = {givens[r][c]}
    steps = [lambda d: alldiff_units(units, d, True), *extra]
    sols = solve_csp(dom, lambda d: fixpoint(steps, d), limit)
    return [[[s[(r, c)] for c in range(n)] for r in range(n)] for s in sols]


def run_family(name, parse, valid, check_fn, level, spaced=True):
    rng = random.Random(level)
    for data, entry in entries(name, level, SEEDS):
        q = entry["question"]
        puz = parse(q)
        n = puz["n"]
        oracle = parse_answer_grid(entry["answer"])
        assert valid(puz, oracle), (name, level, entry["answer"])
        agree(data, entry, entry["answer"], True, "oracle")
        sols = check_fn(puz)
        assert sols, (name, level, "own solver found no solution")
        for s in sols:
            assert valid(puz, s)
            agree(data, entry, fmt_grid(s), True, "solver's solution")
        if "exactly one solution" in q:
            assert len(sols) == 1, (name, level, entry["metadata"]["seed"], "two solutions", sols)
        if spaced:
            agree(data, entry, fmt_grid(oracle, " "), True, "spaced digits")
        for g in near_misses(oracle, n, rng):
            agree(data, entry, fmt_grid(g), valid(puz, g) if len(g) == n else False, "near miss")


# ---------------------------------------------------------------- sudoku


def parse_sudoku(q: str) -> dict:
    n = int(re.search(r"Solve this (\d+)×", q).group(1))
    lines = [ln for ln in q.splitlines() if re.fullmatch(r"[\d. |]+", ln) and any(ch in ln for ch in ".123456789")]
    lines = [ln for ln in lines if len(ln.replace("|", "").split()) == n]
    assert len(lines) == n, q
    bw = len(lines[0].split("|")[0].split())
    bh = n // bw
    givens = [[0 if t == "." else int(t) for t in ln.replace("|", " ").split()] for ln in lines]
    # box height: rows between `-` separator lines
    seps = [i for i, ln in enumerate(q.splitlines()) if re.fullmatch(r"[-+]+", ln)]
    if seps:
        first = q.splitlines().index(lines[0])
        bh = seps[0] - first
    return {"n": n, "givens": givens, "bw": bw, "bh": bh}


def sudoku_valid(p, g) -> bool:
    n, bw, bh = p["n"], p["bw"], p["bh"]
    if not latin_ok(g, n):
        return False
    if any(p["givens"][r][c] and p["givens"][r][c] != g[r][c] for r in range(n) for c in range(n)):
        return False
    for br in range(0, n, bh):
        for bc in range(0, n, bw):
            box = sorted(g[r][c] for r in range(br, br + bh) for c in range(bc, bc + bw))
            if box != list(range(1, n + 1)):
                return False
    return True


def sudoku_check(p):
    n, bw, bh = p["n"], p["bw"], p["bh"]
    boxes = [
        [(r, c) for r in range(br, br + bh) for c in range(bc, bc + bw)]
        for br in range(0, n, bh)
        for bc in range(0, n, bw)
    ]
    return all_solutions(n, latin_units(n) + boxes, [], p["givens"])


@pytest.mark.parametrize("level", LEVELS)
def test_sudoku(level):
    run_family("sudoku", parse_sudoku, sudoku_valid, sudoku_check, level)


# ---------------------------------------------------------------- futoshiki


def parse_futoshiki(q: str) -> dict:
    n = int(re.search(r"Solve this (\d+)×", q).group(1))
    lines = q.split("Grid:")[1].strip().splitlines()[:n]
    givens = [[0 if t == "." else int(t) for t in ln.split()] for ln in lines]
    ineq = [
        ((int(a) - 1, int(b) - 1), op, (int(c) - 1, int(d) - 1))
        for a, b, op, c, d in re.findall(r"\((\d+),(\d+)\) ([<>]) \((\d+),(\d+)\)", q.split("Inequalities")[1])
    ]
    m = re.search(r"Inequalities \((\d+)\)", q)
    assert m is None or int(m.group(1)) == len(ineq)
    rel: dict = {}
    for t in ineq:
        rel.setdefault(t[0], []).append(t)
        rel.setdefault(t[2], []).append(t)
    return {"n": n, "givens": givens, "ineq": ineq, "rel": rel}


def _ineq_ok(g, ineq, partial):
    for (a, b), op, (c, d) in ineq:
        x, y = g[a][b], g[c][d]
        if partial and (not x or not y):
            continue
        if (op == "<" and not x < y) or (op == ">" and not x > y):
            return False
    return True


def futoshiki_valid(p, g) -> bool:
    n = p["n"]
    if not latin_ok(g, n):
        return False
    if any(p["givens"][r][c] and p["givens"][r][c] != g[r][c] for r in range(n) for c in range(n)):
        return False
    return _ineq_ok(g, p["ineq"], False)


def futoshiki_check(p):
    def bounds(d):
        changed = False
        for a, op, b in p["ineq"]:
            lo, hi = (a, b) if op == "<" else (b, a)
            new_lo = {x for x in d[lo] if x < max(d[hi])}
            new_hi = {y for y in d[hi] if y > min(d[lo])}
            if not new_lo or not new_hi:
                return None
            if new_lo != d[lo] or new_hi != d[hi]:
                d[lo], d[hi] = new_lo, new_hi
                changed = True
        return changed

    return all_solutions(p["n"], latin_units(p["n"]), [bounds], p["givens"])


@pytest.mark.parametrize("level", LEVELS)
def test_futoshiki(level):
    run_family("futoshiki", parse_futoshiki, futoshiki_valid, futoshiki_check, level)


# ---------------------------------------------------------------- calcudoku


def parse_calcudoku(q: str) -> dict:
    n = int(re.search(r"Solve this (\d+)x", q).group(1))
    cage_lines = q.split("Cages:")[1].strip().splitlines()[:n]
    letters = [ln.split() for ln in cage_lines]
    cages: dict[str, list[tuple[int, int]]] = {}
    for r, row in enumerate(letters):
        for c, ch in enumerate(row):
            cages.setdefault(ch, []).append((r, c))
    targets = {}
    for ch, text in re.findall(r"^([A-Z]+): (.*)$", q.split("Targets:")[1], re.M):
        m = re.fullmatch(r"the cell is (\d+)|(sum|product|difference|quotient) (\d+)( \(.*\))?", text)
        assert m, f"unknown cage target {text!r}"
        targets[ch] = ("cell", int(m.group(1))) if m.group(1) else (m.group(2), int(m.group(3)))
    assert set(targets) == set(cages)
    cell_of = {rc: ch for ch, cells in cages.items() for rc in cells}
    return {"n": n, "givens": [[0] * n for _ in range(n)], "cages": cages, "targets": targets, "cell_of": cell_of}


def cage_ok(op, t, vals, complete) -> bool:
    if not complete:
        if op == "sum":
            return sum(vals) < t
        if op == "product":
            return t % prod(vals) == 0
        return True
    if op == "cell":
        return vals == [t]
    if op == "sum":
        return sum(vals) == t
    if op == "product":
        return prod(vals) == t
    if op == "difference":
        return len(vals) == 2 and max(vals) - min(vals) == t
    if op == "quotient":
        return len(vals) == 2 and max(vals) == t * min(vals)
    raise AssertionError(op)


def calcudoku_valid(p, g) -> bool:
    if not latin_ok(g, p["n"]):
        return False
    return all(cage_ok(*p["targets"][ch], [g[r][c] for r, c in cells], True) for ch, cells in p["cages"].items())


def calcudoku_check(p):
    def cage_tuple_ok(ch):
        cells = p["cages"][ch]
        op, t = p["targets"][ch]

        def ok(tup):
            for i in range(len(cells)):
                for j in range(i):
                    same_line = cells[i][0] == cells[j][0] or cells[i][1] == cells[j][1]
                    if same_line and tup[i] == tup[j]:
                        return False
            return cage_ok(op, t, list(tup), True)

        return ok

    checks = [(p["cages"][ch], cage_tuple_ok(ch)) for ch in p["cages"]]

    def cages(d):
        changed = False
        for cells, ok in checks:
            res = filter_by_tuples(d, cells, ok)
            if res is None:
                return None
            changed = changed or res
        return changed

    return all_solutions(p["n"], latin_units(p["n"]), [cages])


@pytest.mark.parametrize("level", LEVELS)
def test_calcudoku(level):
    run_family("calcudoku", parse_calcudoku, calcudoku_valid, calcudoku_check, level)


# ---------------------------------------------------------------- skyscraper


def parse_skyscraper(q: str) -> dict:
    n = int(re.search(r"on a (\d+)x", q).group(1))

    def clues(label):
        line = re.search(rf"^{label} clues \([^)]*\): (.*)$", q, re.M).group(1).split()
        assert len(line) == n
        return [0 if t == "-" else int(t) for t in line]

    return {
        "n": n,
        "givens": [[0] * n for _ in range(n)],
        "top": clues("Top"),
        "bottom": clues("Bottom"),
        "left": clues("Left"),
        "right": clues("Right"),
    }


def visible(line) -> int:
    best, k = 0, 0
    for h in line:
        if h > best:
            best, k = h, k + 1
    return k


def _sky_line_ok(p, g, r=None, c=None) -> bool:
    n = p["n"]
    if r is not None:
        line = g[r]
        a, b = p["left"][r], p["right"][r]
    else:
        line = [g[i][c] for i in range(n)]
        a, b = p["top"][c], p["bottom"][c]
    if not all(line):
        return True
    return (not a or visible(line) == a) and (not b or visible(line[::-1]) == b)


def skyscraper_valid(p, g) -> bool:
    n = p["n"]
    return latin_ok(g, n) and all(_sky_line_ok(p, g, r=i) and _sky_line_ok(p, g, c=i) for i in range(n))


def skyscraper_check(p):
    n = p["n"]
    lines = []
    for i in range(n):
        lines.append(([(i, c) for c in range(n)], p["left"][i], p["right"][i]))
        lines.append(([(r, i) for r in range(n)], p["top"][i], p["bottom"][i]))
    perms = list(permutations(range(1, n + 1)))
    table = []
    for cells, a, b in lines:
        if a or b:
            ok = [t for t in perms if (not a or visible(t) == a) and (not b or visible(t[::-1]) == b)]
            table.append((cells, ok))

    def clue_lines(d):
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

    return all_solutions(n, latin_units(n), [clue_lines])


@pytest.mark.parametrize("level", LEVELS)
def test_skyscraper(level):
    run_family("skyscraper", parse_skyscraper, skyscraper_valid, skyscraper_check, level)
