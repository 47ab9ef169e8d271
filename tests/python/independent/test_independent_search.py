"""Independent checks of sat, cryptarithm, minesweeper, light_up and the graph families, from the
prompt text alone: our own parser, rules and solver; every verdict compared with gauntlet's."""

from __future__ import annotations

import random
import re
from itertools import pairwise, permutations, product

import pytest

from ._common import LEVELS, agree, entries
from ._solvers import fixpoint, solve_csp, sum_step

SEEDS = 3


# ---------------------------------------------------------------- sat


def parse_sat(q):
    n = int(re.search(r"variables x1 to x(\d+)", q).group(1))
    body = q.split("Clauses:")[1].split("Think it through")[0]
    clauses = []
    for line in re.findall(r"^\d+\. \((.*)\)$", body, re.M):
        lits = []
        for lit in line.split(" ∨ "):
            m = re.fullmatch(r"(¬?)x(\d+)", lit.strip())
            assert m, line
            lits.append(-int(m.group(2)) if m.group(1) else int(m.group(2)))
        clauses.append(lits)
    return n, clauses


def sat_ok(clauses, a) -> bool:
    return all(any(a[abs(lit)] == (lit > 0) for lit in c) for c in clauses)


def fmt_sat(a, order):
    return ", ".join(f"x{i}={'T' if a[i] else 'F'}" for i in order)


@pytest.mark.parametrize("level", LEVELS)
def test_sat(level):
    rng = random.Random(level)
    for data, entry in entries("sat", level, SEEDS):
        n, clauses = parse_sat(entry["question"])
        models = []
        for bits in product((False, True), repeat=n):
            a = dict(zip(range(1, n + 1), bits, strict=True))
            if sat_ok(clauses, a):
                models.append(a)
        assert models
        for a in models[:4]:
            order = list(range(1, n + 1))
            agree(data, entry, fmt_sat(a, order), True, "a model")
            rng.shuffle(order)
            agree(data, entry, fmt_sat(a, order), True, "a model, variables in another order")
        for _ in range(12):
            a = {i: rng.random() < 0.5 for i in range(1, n + 1)}
            agree(data, entry, fmt_sat(a, range(1, n + 1)), sat_ok(clauses, a), "random assignment")
        a = dict(models[0])
        agree(data, entry, fmt_sat(a, range(1, n)), False, "last variable missing")


# ---------------------------------------------------------------- graphs


def parse_edges(q, arrow):
    return [tuple(e) for e in re.findall(rf"^(\w+) {arrow} (\w+)$", q, re.M)]


def vertex_names(q):
    m = re.search(r"(\d+) (?:vertices|tasks), (\w+) to (\w+)", q)
    k = int(m.group(1))
    if m.group(2).isdigit():
        names = [str(i) for i in range(int(m.group(2)), int(m.group(3)) + 1)]
    else:
        names = [chr(c) for c in range(ord(m.group(2)), ord(m.group(3)) + 1)]
    assert len(names) == k, q
    return names


@pytest.mark.parametrize("level", LEVELS)
def test_graph_coloring(level):
    rng = random.Random(level)
    for data, entry in entries("graph_coloring", level, SEEDS):
        q = entry["question"]
        k = int(re.search(r"at most (\d+) colours", q).group(1))
        names = vertex_names(q)
        edges = parse_edges(q, "-")

        def ok(col, edges=edges, k=k, names=names):
            return (
                set(col) == set(names)
                and all(1 <= c <= k for c in col.values())
                and all(col[a] != col[b] for a, b in edges)
            )

        oracle = {a: int(b) for a, b in re.findall(r"(\w+): (\d+)", entry["answer"])}
        assert ok(oracle)
        agree(data, entry, entry["answer"], True, "oracle")
        for perm in list(permutations(range(1, k + 1)))[:4]:
            col = {v: perm[c - 1] for v, c in oracle.items()}
            agree(data, entry, ", ".join(f"{v}: {c}" for v, c in col.items()), True, "colours renamed")
        for _ in range(6):
            col = dict(oracle)
            v = rng.choice(names)
            col[v] = rng.choice([c for c in range(1, k + 2) if c != col[v]])
            agree(data, entry, ", ".join(f"{v}: {c}" for v, c in col.items()), ok(col), "one vertex recoloured")


@pytest.mark.parametrize("level", LEVELS)
def test_hamiltonian_path(level):
    rng = random.Random(level)
    for data, entry in entries("hamiltonian_path", level, SEEDS):
        q = entry["question"]
        names = vertex_names(q)
        adj = {frozenset(e) for e in parse_edges(q, "-")}

        def ok(path, names=names, adj=adj):
            return sorted(path) == sorted(names) and all(frozenset(p) in adj for p in pairwise(path))

        oracle = entry["answer"].split()
        assert ok(oracle)
        agree(data, entry, entry["answer"], True, "oracle")
        agree(data, entry, " ".join(oracle[::-1]), True, "oracle reversed")
        for _ in range(5):
            p = oracle[:]
            a, b = rng.sample(range(len(p)), 2)
            p[a], p[b] = p[b], p[a]
            agree(data, entry, " ".join(p), ok(p), "two vertices swapped")
        agree(data, entry, " ".join(oracle[:-1]), False, "last vertex dropped")


@pytest.mark.parametrize("level", LEVELS)
def test_topological_order(level):
    rng = random.Random(level)
    for data, entry in entries("topological_order", level, SEEDS):
        q = entry["question"]
        names = vertex_names(q)
        cons = parse_edges(q, "->")

        def ok(order, names=names, cons=cons):
            pos = {v: i for i, v in enumerate(order)}
            return sorted(order) == sorted(names) and all(pos[a] < pos[b] for a, b in cons)

        oracle = entry["answer"].split()
        assert ok(oracle)
        agree(data, entry, entry["answer"], True, "oracle")
        for _ in range(3):  # random Kahn orders: all valid
            indeg = {v: 0 for v in names}
            for _, b in cons:
                indeg[b] += 1
            order, ready = [], [v for v in names if indeg[v] == 0]
            while ready:
                v = ready.pop(rng.randrange(len(ready)))
                order.append(v)
                for a, b in cons:
                    if a == v:
                        indeg[b] -= 1
                        if indeg[b] == 0:
                            ready.append(b)
            agree(data, entry, " ".join(order), True, "another topological order")
        for _ in range(5):
            p = oracle[:]
            i = rng.randrange(len(p) - 1)
            p[i], p[i + 1] = p[i + 1], p[i]
            agree(data, entry, " ".join(p), ok(p), "two neighbours swapped")


# ---------------------------------------------------------------- minesweeper and light_up


def parse_board(q):
    """The numbered board: {(r, c): token} with 1-based rows and columns."""
    lines = q.splitlines()
    i = next(k for k, ln in enumerate(lines) if re.fullmatch(r"\s+1( +\d+)+", ln))
    w = len(lines[i].split())
    board = {}
    for ln in lines[i + 1 :]:
        toks = ln.split()
        if len(toks) != w + 1 or not toks[0].isdigit():
            break
        r = int(toks[0])
        for c, t in enumerate(toks[1:], start=1):
            board[(r, c)] = t
    return board


def pairs(text):
    return [(int(a), int(b)) for a, b in re.findall(r"\((\d+),\s*(\d+)\)", text)]


def fmt_pairs(cells):
    return " ".join(f"({r},{c})" for r, c in cells)


def neighbours8(cell, board):
    r, c = cell
    return [(r + a, c + b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0) and (r + a, c + b) in board]


def mines_ok(board, total, mines) -> bool:
    ms = set(mines)
    if len(ms) != len(mines) or len(ms) != total or any(board.get(m) != "?" for m in ms):
        return False
    return all(sum(1 for nb in neighbours8(cell, board) if nb in ms) == int(t) for cell, t in board.items() if t != "?")


@pytest.mark.parametrize("level", LEVELS)
def test_minesweeper(level):
    rng = random.Random(level)
    for data, entry in entries("minesweeper", level, SEEDS):
        q = entry["question"]
        total = int(re.search(r"exactly (\d+) mines", q).group(1))
        board = parse_board(q)
        unknown = [c for c, t in board.items() if t == "?"]
        oracle = pairs(entry["answer"])
        assert mines_ok(board, total, oracle)
        agree(data, entry, entry["answer"], True, "oracle")
        agree(data, entry, fmt_pairs(sorted(oracle, reverse=True)), True, "oracle in another order")
        groups = [
            ([nb for nb in neighbours8(c, board) if board[nb] == "?"], int(t), int(t))
            for c, t in board.items()
            if t != "?"
        ]
        groups.append((unknown, total, total))
        dom = {c: {0, 1} for c in unknown}
        step = sum_step(groups)
        sols = solve_csp(dom, lambda d, step=step: fixpoint([step], d))
        for s in sols:
            mines = [c for c in unknown if s[c]]
            assert mines_ok(board, total, mines)
            agree(data, entry, fmt_pairs(mines), True, "solver's layout")
        if "uniquely" in q:
            assert len(sols) == 1, (level, entry["metadata"]["seed"], sols)
        for _ in range(4):
            m = oracle[:]
            m[rng.randrange(len(m))] = rng.choice(unknown)
            agree(data, entry, fmt_pairs(m), mines_ok(board, total, m), "one mine moved")
        agree(data, entry, fmt_pairs(oracle[:-1]), False, "one mine missing")


def light_ok(board, bulbs) -> bool:
    bs = set(bulbs)
    if len(bs) != len(bulbs) or any(board.get(b) != "." for b in bs):
        return False
    lit = set()
    for r, c in bs:
        lit.add((r, c))
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            x = (r + dr, c + dc)
            while board.get(x) == ".":
                if x in bs:
                    return False
                lit.add(x)
                x = (x[0] + dr, x[1] + dc)
    if any(t == "." and cell not in lit for cell, t in board.items()):
        return False
    for (r, c), t in board.items():
        if t.isdigit():
            around = [(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)]
            if sum(1 for x in around if x in bs) != int(t):
                return False
    return True


@pytest.mark.parametrize("level", LEVELS)
def test_light_up(level):
    rng = random.Random(level)
    for data, entry in entries("light_up", level, SEEDS):
        board = parse_board(entry["question"])
        white = [c for c, t in board.items() if t == "."]
        oracle = pairs(entry["answer"])
        assert light_ok(board, oracle)
        agree(data, entry, entry["answer"], True, "oracle")
        agree(data, entry, fmt_pairs(oracle[::-1]), True, "oracle in another order")
        groups = []
        for cell in white:  # every white cell lit; at most one bulb per row/column segment
            seen = [cell]
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                x = (cell[0] + dr, cell[1] + dc)
                while board.get(x) == ".":
                    seen.append(x)
                    x = (x[0] + dr, x[1] + dc)
            groups.append((seen, 1, len(seen)))
        for cell in white:
            for dr, dc in ((0, 1), (1, 0)):
                if board.get((cell[0] - dr, cell[1] - dc)) != ".":
                    seg, x = [], cell
                    while board.get(x) == ".":
                        seg.append(x)
                        x = (x[0] + dr, x[1] + dc)
                    groups.append((seg, 0, 1))
        for (r, c), t in board.items():
            if t.isdigit():
                around = [x for x in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)) if board.get(x) == "."]
                groups.append((around, int(t), int(t)))
        step = sum_step(groups)
        sols = solve_csp({c: {0, 1} for c in white}, lambda d, step=step: fixpoint([step], d), 3)
        assert sols
        for s in sols:
            bulbs = [c for c in white if s[c]]
            assert light_ok(board, bulbs)
            agree(data, entry, fmt_pairs(bulbs), True, "solver's placement")
        for _ in range(4):
            b = oracle[:]
            b[rng.randrange(len(b))] = rng.choice(white)
            agree(data, entry, fmt_pairs(b), light_ok(board, b), "one bulb moved")
        agree(data, entry, fmt_pairs(oracle[:-1]), light_ok(board, oracle[:-1]), "one bulb removed")
