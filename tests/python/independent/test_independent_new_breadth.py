"""Independent checks of graph_isomorphism, coordinate_geometry, lights_out_presses, quantum_lock,
largest_island, matrix_manipulation and blicket, from the prompt text alone: our own parser, rules
and solver for each, every verdict compared with gauntlet's (other valid answers, near misses,
hedges and extra text)."""

from __future__ import annotations

import random
import re
from collections import deque
from fractions import Fraction
from itertools import product

import pytest

from ._common import LEVELS, agree, entries

SEEDS = 3


def body(q):
    return q.split("Think it through")[0]


# ---------------------------------------------------------------- graph_isomorphism


def iso_parse(q):
    g_part = q.split("Graph G")[1].split("Graph H")[0]
    h_part = q.split("Graph H")[1].split("The graphs are")[0]
    g = re.findall(r"^([A-Z]) - ([A-Z])$", g_part, re.M)
    h = re.findall(r"^(\d+) - (\d+)$", h_part, re.M)
    n = int(re.search(r"have (\d+) nodes", q).group(1))
    gn = [chr(65 + i) for i in range(n)]
    hn = [str(i) for i in range(1, n + 1)]
    return gn, hn, {frozenset(e) for e in g}, {frozenset(e) for e in h}


def iso_ok(m, gn, hn, ge, he):
    if set(m) != set(gn) or len(set(m.values())) != len(gn) or not set(m.values()) <= set(hn):
        return False
    return {frozenset(m[x] for x in e) for e in ge} == he


def iso_all(gn, hn, ge, he, limit):
    deg_g = {v: sum(v in e for e in ge) for v in gn}
    deg_h = {v: sum(v in e for e in he) for v in hn}
    out = []

    def go(i, m):
        if len(out) >= limit:
            return
        if i == len(gn):
            out.append(dict(m))
            return
        v = gn[i]
        for w in hn:
            if w in m.values() or deg_g[v] != deg_h[w]:
                continue
            if all((frozenset((v, u)) in ge) == (frozenset((w, m[u])) in he) for u in m):
                m[v] = w
                go(i + 1, m)
                del m[v]

    go(0, {})
    return out


def fmt_map(m, order):
    return ", ".join(f"{k}={m[k]}" for k in order)


@pytest.mark.parametrize("level", LEVELS)
def test_graph_isomorphism(level):
    rng = random.Random(level)
    for data, entry in entries("graph_isomorphism", level, SEEDS):
        gn, hn, ge, he = iso_parse(entry["question"])
        oracle = dict(re.findall(r"([A-Z])=(\d+)", entry["answer"]))
        assert iso_ok(oracle, gn, hn, ge, he)
        agree(data, entry, entry["answer"], True, "oracle")
        for m in iso_all(gn, hn, ge, he, 4):
            order = gn[:]
            rng.shuffle(order)
            agree(data, entry, fmt_map(m, order), True, "our isomorphism, nodes in another order")
            agree(data, entry, "; ".join(f"{k}: {m[k]}" for k in gn), True, "our isomorphism, `k: v` with semicolons")
        for _ in range(5):
            m = dict(oracle)
            a, b = rng.sample(gn, 2)
            m[a], m[b] = m[b], m[a]
            agree(data, entry, fmt_map(m, gn), iso_ok(m, gn, hn, ge, he), "two images swapped")
        agree(data, entry, fmt_map(oracle, gn[:-1]), False, "last node missing")
        dup = dict(oracle)
        dup[gn[0]] = oracle[gn[1]]
        agree(data, entry, fmt_map(dup, gn), False, "two nodes on one image")
        agree(data, entry, entry["answer"].replace("=", "=", 1).replace(", ", " or 1, ", 1), False, "hedge")
        agree(data, entry, entry["answer"] + ", Z=1", False, "unknown node")


# ---------------------------------------------------------------- coordinate_geometry


def F(x):
    return Fraction(x)


def cross(a, b):
    return a[0] * b[1] - a[1] * b[0]


def sub(a, b):
    return (a[0] - b[0], a[1] - b[1])


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1]


def foot(a, b, p):
    d = sub(b, a)
    t = Fraction(dot(sub(p, a), d), dot(d, d))
    return (a[0] + t * d[0], a[1] + t * d[1])


def reflect(a, b, p):
    f = foot(a, b, p)
    return (2 * f[0] - p[0], 2 * f[1] - p[1])


def circum(a, b, c):
    # Solve |X-A|^2 = |X-B|^2 = |X-C|^2 as two linear equations (Cramer).
    a1, b1, c1 = 2 * (b[0] - a[0]), 2 * (b[1] - a[1]), dot(b, b) - dot(a, a)
    a2, b2, c2 = 2 * (c[0] - a[0]), 2 * (c[1] - a[1]), dot(c, c) - dot(a, a)
    det = a1 * b2 - a2 * b1
    return (Fraction(c1 * b2 - c2 * b1, det), Fraction(a1 * c2 - a2 * c1, det))


def area(pts):
    s = sum(cross(pts[i], pts[(i + 1) % len(pts)]) for i in range(len(pts)))
    return abs(Fraction(s, 2))


def geo_expected(q):
    pts = {k: (F(x), F(y)) for k, x, y in re.findall(r"(\w+) = \((-?\d+), (-?\d+)\)", q)}
    A, B, C, D, P = (pts.get(k) for k in "ABCDP")
    if "centroid" in q:
        return ((A[0] + B[0] + C[0]) / 3, (A[1] + B[1] + C[1]) / 3)
    if "area of triangle ABC" in q:
        return area([A, B, C])
    if "line through A and B meet the line through C and D" in q:
        # A + t(B-A) = C + s(D-C)
        d1, d2 = sub(B, A), sub(D, C)
        t = cross(sub(C, A), d2) / cross(d1, d2)
        return (A[0] + t * d1[0], A[1] + t * d1[1])
    if "foot of the perpendicular" in q:
        return foot(A, B, P)
    if "Reflect P in the line through A and B, then" in q:
        return reflect(C, D, reflect(A, B, P))
    if "mirror image of P" in q:
        return reflect(A, B, P)
    if "circumcentre" in q:
        return circum(A, B, C)
    if "orthocentre" in q:
        # Intersection of the altitudes from A and from B: (X-A).(C-B) = 0, (X-B).(C-A) = 0.
        a1, b1, c1 = C[0] - B[0], C[1] - B[1], dot(A, sub(C, B))
        a2, b2, c2 = C[0] - A[0], C[1] - A[1], dot(B, sub(C, A))
        det = a1 * b2 - a2 * b1
        return ((c1 * b2 - c2 * b1) / det, (a1 * c2 - a2 * c1) / det)
    if "square of the radius" in q:
        o = circum(A, B, C)
        return dot(sub(A, o), sub(A, o))
    if "feet of the altitudes" in q:
        return area([foot(B, C, A), foot(C, A, B), foot(A, B, C)])
    if "simple polygon" in q:
        verts = [pts[k] for k in sorted((k for k in pts if k.startswith("V")), key=lambda k: int(k[1:]))]
        return area(verts)
    raise AssertionError(q)


def fmt_num(x, style):
    if style == "unreduced":
        return f"{3 * x.numerator}/{3 * x.denominator}"
    if style == "decimal":
        d = x.denominator
        while d % 2 == 0:
            d //= 2
        while d % 5 == 0:
            d //= 5
        if d != 1:
            return None
        k = 0
        while (x * 10**k).denominator != 1:
            k += 1
        digits = str(abs(x.numerator * 10**k // x.denominator)).rjust(k + 1, "0")
        s = ("-" if x < 0 else "") + (digits[:-k] + "." + digits[-k:] if k else digits)
        assert Fraction(s) == x, (s, x)
        return s
    return str(x)


@pytest.mark.parametrize("level", LEVELS)
def test_coordinate_geometry(level):
    for data, entry in entries("coordinate_geometry", level, 6):
        q = body(entry["question"])
        want = geo_expected(q)
        point = isinstance(want, tuple)
        assert ("Give a point." in q) == point
        for style in ("plain", "unreduced", "decimal"):
            if point:
                xs = [fmt_num(v, style) for v in want]
                if None in xs:
                    continue
                agree(data, entry, f"({xs[0]}, {xs[1]})", True, f"our value, {style}")
            else:
                x = fmt_num(want, style)
                if x is not None:
                    agree(data, entry, x, True, f"our value, {style}")
        if point:
            x, y = want
            agree(data, entry, f"({x + 1}, {y})", False, "x off by one")
            agree(data, entry, f"({x}, {y + Fraction(1, 7)})", False, "y off by 1/7")
            agree(data, entry, f"({y}, {x})", x == y, "coordinates swapped")
            agree(data, entry, f"{x}, {y}", False, "no parentheses")
            agree(data, entry, f"({x}, {y}) approximately", False, "extra text")
            agree(data, entry, f"({x} or {x + 1}, {y})", False, "hedge")
        else:
            agree(data, entry, f"{want + 1}", False, "off by one")
            agree(data, entry, f"{want * 2}", want == 0, "doubled")
            agree(data, entry, f"({want}, 0)", False, "a point for a number")
            agree(data, entry, f"{want} or {want + 1}", False, "hedge")
            agree(data, entry, f"about {want}", False, "extra text")


# ---------------------------------------------------------------- lights_out


def lo_parse(q):
    n = int(re.search(r"this (\d+)×\d+ grid", q).group(1))
    rows = []
    for line in q.splitlines():
        toks = line.split()
        if len(toks) == n + 1 and toks[0] == str(len(rows) + 1) and all(t in "01" for t in toks[1:]):
            rows.append([int(t) for t in toks[1:]])
    assert len(rows) == n, q
    return n, rows


def lo_apply(n, rows, presses):
    g = [r[:] for r in rows]
    for r, c in presses:
        for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < n and 0 <= cc < n:
                g[rr][cc] ^= 1
    return g


def lo_all_solutions(n, rows):
    """Light chasing: every choice of first-row presses determines the rest."""
    sols = []
    for first in product((0, 1), repeat=n):
        presses = [(0, c) for c in range(n) if first[c]]
        g = lo_apply(n, rows, presses)
        for r in range(1, n):
            row_presses = [(r, c) for c in range(n) if g[r - 1][c]]
            presses += row_presses
            g = lo_apply(n, g, row_presses)
        if not any(any(r) for r in g):
            sols.append(presses)
    return sols


def fmt_presses(ps):
    return " ".join(f"({r + 1},{c + 1})" for r, c in ps)


@pytest.mark.parametrize("level", LEVELS)
def test_lights_out(level):
    rng = random.Random(level)
    for data, entry in entries("lights_out_presses", level, SEEDS):
        n, rows = lo_parse(entry["question"])
        oracle = [(int(r) - 1, int(c) - 1) for r, c in re.findall(r"\((\d+),(\d+)\)", entry["answer"])]
        assert not any(any(r) for r in lo_apply(n, rows, oracle))
        agree(data, entry, entry["answer"], True, "oracle")
        sols = lo_all_solutions(n, rows)
        assert sols and len(sols) == {3: 1, 4: 16, 5: 4, 6: 1, 7: 1}[n]
        for s in sols[:4]:
            s = s[:]
            rng.shuffle(s)
            agree(data, entry, fmt_presses(s), True, "our solution, shuffled")
            agree(data, entry, ", ".join(f"{r + 1} {c + 1}" for r, c in s), True, "our solution, `r c` pairs")
        s = sols[0]
        agree(data, entry, fmt_presses(s[:-1]), False, "one press dropped")
        extra = next((r, c) for r in range(n) for c in range(n) if (r, c) not in s)
        agree(data, entry, fmt_presses([*s, extra]), False, "one press added")
        agree(data, entry, fmt_presses([*s, s[0], s[0]]), False, "a cell listed three times")
        agree(data, entry, fmt_presses(s) + " or (1,1)", False, "hedge")
        agree(data, entry, "none", False, "no presses")


# ---------------------------------------------------------------- quantum_lock


def ql_parse(q):
    buttons = {}
    for name, op, k, when in re.findall(
        r"^([A-Z]): (add|subtract|multiply by) (\d+) \((any time|only while the light is (?:red|green))\)$", q, re.M
    ):
        need = None if when == "any time" else when.split()[-1]
        buttons[name] = (op, int(k), need)
    m = re.search(r"Make the number equal (-?\d+) using at most (\d+) presses", q)
    return buttons, int(m.group(1)), int(m.group(2))


def ql_run(buttons, seq):
    x, light = 0, "red"
    for b in seq:
        op, k, need = buttons[b]
        if need is not None and need != light:
            return None
        x = x + k if op == "add" else x - k if op == "subtract" else x * k
        light = "green" if light == "red" else "red"
    return x


def ql_bfs(buttons, target, limit):
    start = (0, "red")
    prev = {start: None}
    dq = deque([(start, 0)])
    while dq:
        (x, light), d = dq.popleft()
        if x == target:
            seq, s = [], (x, light)
            while prev[s] is not None:
                s, b = prev[s]
                seq.append(b)
            return seq[::-1]
        if d == limit:
            continue
        for b, (op, k, need) in buttons.items():
            if need is not None and need != light:
                continue
            y = x + k if op == "add" else x - k if op == "subtract" else x * k
            if abs(y) > 10_000:
                continue
            s = (y, "green" if light == "red" else "red")
            if s not in prev:
                prev[s] = ((x, light), b)
                dq.append((s, d + 1))
    return None


@pytest.mark.parametrize("level", LEVELS)
def test_quantum_lock(level):
    rng = random.Random(level)
    for data, entry in entries("quantum_lock", level, 4):
        buttons, target, budget = ql_parse(entry["question"])
        assert len(buttons) == {1: 2, 2: 3, 3: 3, 4: 4, 5: 4}[level]
        oracle = entry["answer"].split()
        assert ql_run(buttons, oracle) == target and len(oracle) <= budget
        agree(data, entry, entry["answer"], True, "oracle")
        ours = ql_bfs(buttons, target, budget)
        assert ours is not None and len(ours) <= budget
        agree(data, entry, " ".join(ours), True, "our shortest sequence")
        agree(data, entry, ",".join(ours).lower(), True, "commas, lower case")
        # Random sequences of every length up to the budget: our verdict against gauntlet's.
        names = sorted(buttons)
        for _ in range(30):
            seq = [rng.choice(names) for _ in range(rng.randint(1, budget + 1))]
            mine = ql_run(buttons, seq) == target and len(seq) <= budget
            agree(data, entry, " ".join(seq), mine, "random sequence")
        agree(data, entry, " ".join(oracle[:-1]), ql_run(buttons, oracle[:-1]) == target, "last press dropped")
        # A longer sequence reaching the target: if one exists within budget + 4, it is over budget.
        longer = None
        for _ in range(3000):
            seq = [rng.choice(names) for _ in range(budget + rng.randint(1, 4))]
            if ql_run(buttons, seq) == target:
                longer = seq
                break
        if longer:
            agree(data, entry, " ".join(longer), False, "reaches the target over budget")
        agree(data, entry, " ".join(oracle) + " or A", False, "hedge")
        agree(data, entry, "Z " + " ".join(oracle), False, "unknown button")


# ---------------------------------------------------------------- largest_island


def islands(grid):
    h, w = len(grid), len(grid[0])
    seen, sizes = set(), []
    for r in range(h):
        for c in range(w):
            if grid[r][c] == "1" and (r, c) not in seen:
                seen.add((r, c))
                stack, size = [(r, c)], 0
                while stack:
                    y, x = stack.pop()
                    size += 1
                    for yy, xx in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                        if 0 <= yy < h and 0 <= xx < w and grid[yy][xx] == "1" and (yy, xx) not in seen:
                            seen.add((yy, xx))
                            stack.append((yy, xx))
                sizes.append(size)
    return sizes


@pytest.mark.parametrize("level", LEVELS)
def test_largest_island(level):
    for data, entry in entries("largest_island", level, SEEDS):
        q = body(entry["question"])
        grid = [line.split() for line in q.splitlines() if line and set(line.split()) <= {"0", "1"}]
        sizes = islands(grid)
        k, m = len(sizes), max(sizes)
        agree(data, entry, f"islands={k}, largest={m}", True, "our counts")
        agree(data, entry, f"largest: {m}; islands: {k}", True, "other order, colons")
        agree(data, entry, f"islands={k + 1}, largest={m}", False, "one island too many")
        agree(data, entry, f"islands={k}, largest={m - 1}", False, "largest off by one")
        agree(data, entry, f"islands={k}", False, "only one number")
        agree(data, entry, f"islands={k}, largest={m}, total={sum(sizes)}", False, "an extra item")
        agree(data, entry, f"islands={k} or {k + 1}, largest={m}", False, "hedge")
        # Eight-connected counting (the rule the prompt excludes) gives a different answer when
        # some islands touch at a corner; gauntlet must refuse it then.
        h, w = len(grid), len(grid[0])
        g8 = [row[:] for row in grid]
        for r in range(h - 1):
            for c in range(w - 1):
                if grid[r][c] == "1" and grid[r + 1][c + 1] == "1" and grid[r][c + 1] == grid[r + 1][c] == "0":
                    g8[r][c + 1] = "1"  # join through the corner
        s8 = islands(g8)
        if len(s8) != k:
            agree(data, entry, f"islands={len(s8)}, largest={m}", False, "diagonal joins counted")


# ---------------------------------------------------------------- matrix_manipulation


def mm_apply(m, op):
    if op == "Rotate the matrix 90 degrees clockwise.":
        return [list(r) for r in zip(*m[::-1], strict=True)]
    if op == "Rotate the matrix 90 degrees counterclockwise.":
        return [list(r) for r in zip(*m, strict=True)][::-1]
    if op == "Rotate the matrix 180 degrees.":
        return [r[::-1] for r in m[::-1]]
    if op.startswith("Transpose the matrix"):
        return [list(r) for r in zip(*m, strict=True)]
    if op.startswith("Flip the matrix left to right"):
        return [r[::-1] for r in m]
    if op.startswith("Flip the matrix upside down"):
        return m[::-1]
    if g := re.fullmatch(r"Swap rows (\d+) and (\d+)\.", op):
        a, b = int(g.group(1)) - 1, int(g.group(2)) - 1
        m = [r[:] for r in m]
        m[a], m[b] = m[b], m[a]
        return m
    if g := re.fullmatch(r"Swap columns (\d+) and (\d+)\.", op):
        a, b = int(g.group(1)) - 1, int(g.group(2)) - 1
        out = []
        for r in m:
            r = r[:]
            r[a], r[b] = r[b], r[a]
            out.append(r)
        return out
    if g := re.fullmatch(r"Delete row (\d+)\.", op):
        return [r for i, r in enumerate(m) if i != int(g.group(1)) - 1]
    if g := re.fullmatch(r"Delete column (\d+)\.", op):
        j = int(g.group(1)) - 1
        return [[v for i, v in enumerate(r) if i != j] for r in m]
    if g := re.fullmatch(r"Replace every (-?\d+) by (-?\d+)\.", op):
        a, b = int(g.group(1)), int(g.group(2))
        return [[b if v == a else v for v in r] for r in m]
    raise AssertionError(op)


def fmt_m(m, sep=" "):
    return "\n".join(sep.join(str(v) for v in r) for r in m)


@pytest.mark.parametrize("level", LEVELS)
def test_matrix_manipulation(level):
    rng = random.Random(level)
    for data, entry in entries("matrix_manipulation", level, SEEDS):
        q = body(entry["question"])
        start = q.split("Start with this matrix:")[1].split("Apply these")[0]
        m = [[int(v) for v in line.split()] for line in start.strip().splitlines()]
        ops = re.findall(r"^\d+\. (.*)$", q.split("Apply these operations")[1], re.M)
        assert len(ops) == {1: 1, 2: 2, 3: 3, 4: 5, 5: 7}[level]
        for op in ops:
            m = mm_apply(m, op)
        agree(data, entry, fmt_m(m), True, "our final matrix")
        agree(data, entry, fmt_m(m, ", "), True, "commas between numbers")
        agree(data, entry, "\n".join("[" + ", ".join(map(str, r)) + "]" for r in m), True, "bracketed rows")
        bad = [r[:] for r in m]
        i, j = rng.randrange(len(bad)), rng.randrange(len(bad[0]))
        bad[i][j] += 1
        agree(data, entry, fmt_m(bad), False, "one entry changed")
        t = [list(r) for r in zip(*m, strict=True)]
        agree(data, entry, fmt_m(t), t == m, "transposed")
        agree(data, entry, fmt_m(m[:-1]), False, "last row missing")
        agree(data, entry, fmt_m(m) + "\nDone", False, "extra text")


# ---------------------------------------------------------------- blicket


def bl_parse(q):
    objects = q.split("The objects: ")[1].split(". Each object")[0].split(", ")
    m = re.search(r"at least (\d+) blickets are on it together", q)
    threshold = int(m.group(1)) if m else 1
    assert m or "at least one blicket is on it" in q
    trial_text = q.split("what happened):")[1].split("For each group")[0]
    trials = [
        (set(g.split(", ")), res == "lights up")
        for g, res in re.findall(r"^- (.*): (lights up|stays off)$", trial_text, re.M)
    ]
    queries = [set(g.split(", ")) for g in re.findall(r"^\d+\. (.*)$", q.split("For each group")[1], re.M)]
    return objects, threshold, trials, queries


@pytest.mark.parametrize("level", LEVELS)
def test_blicket(level):
    for data, entry in entries("blicket", level, 4):
        objects, threshold, trials, queries = bl_parse(body(entry["question"]))
        possible = [[False, False] for _ in queries]
        for bits in product((False, True), repeat=len(objects)):
            bl = {o for o, b in zip(objects, bits, strict=True) if b}
            if all((len(bl & g) >= threshold) == on for g, on in trials):
                for i, g in enumerate(queries):
                    possible[i][len(bl & g) >= threshold] = True
        labels = ["undetermined" if on and off else "on" if on else "off" for off, on in possible]
        ans = ", ".join(f"{i + 1}: {lab}" for i, lab in enumerate(labels))
        agree(data, entry, ans, True, "our labels")
        agree(
            data,
            entry,
            "\n".join(f"{i + 1}={lab.upper()}" for i, lab in reversed(list(enumerate(labels)))),
            True,
            "reversed, `n=LABEL` lines",
        )
        for i, lab in enumerate(labels):
            other = labels[:]
            other[i] = {"on": "off", "off": "undetermined", "undetermined": "on"}[lab]
            agree(data, entry, ", ".join(f"{k + 1}: {v}" for k, v in enumerate(other)), False, f"query {i + 1} changed")
        agree(data, entry, ", ".join(f"{i + 1}: {lab}" for i, lab in enumerate(labels[:-1])), False, "last missing")
        agree(data, entry, ans + f", {len(labels) + 1}: on", False, "an extra query")
        agree(data, entry, ans.replace(labels[0], f"{labels[0]} or off", 1), False, "hedge")


# ---------------------------------------------------------------- dominosa


def dom_parse(q):
    n = int(re.search(r"0 ≤ a ≤ b ≤ (\d+)", q).group(1))
    grid = [[int(v) for v in line.split()] for line in q.splitlines() if re.fullmatch(r"\d( \d)+", line)]
    assert len(grid) == n + 1 and all(len(r) == n + 2 for r in grid), q
    return n, grid


def dom_ok(grid, dirs):
    h, w = len(grid), len(grid[0])
    if len(dirs) != h or any(len(r) != w for r in dirs):
        return False
    step = {"L": (0, -1, "R"), "R": (0, 1, "L"), "U": (-1, 0, "D"), "D": (1, 0, "U")}
    pairs = []
    for r in range(h):
        for c in range(w):
            dr, dc, back = step[dirs[r][c]]
            rr, cc = r + dr, c + dc
            if not (0 <= rr < h and 0 <= cc < w) or dirs[rr][cc] != back:
                return False
            if dirs[r][c] in "RD":
                pairs.append(tuple(sorted((grid[r][c], grid[rr][cc]))))
    return len(pairs) == len(set(pairs))


def dom_solutions(grid, limit, budget=200_000):
    h, w = len(grid), len(grid[0])
    d = [["." for _ in range(w)] for _ in range(h)]
    used, out, nodes = set(), [], [0]

    def go():
        nodes[0] += 1
        if len(out) >= limit or nodes[0] > budget:
            return
        free = next(((r, c) for r in range(h) for c in range(w) if d[r][c] == "."), None)
        if free is None:
            out.append([row[:] for row in d])
            return
        r, c = free
        for rr, cc, a, b in ((r, c + 1, "R", "L"), (r + 1, c, "D", "U")):
            if rr < h and cc < w and d[rr][cc] == ".":
                p = tuple(sorted((grid[r][c], grid[rr][cc])))
                if p not in used:
                    used.add(p)
                    d[r][c], d[rr][cc] = a, b
                    go()
                    d[r][c], d[rr][cc] = ".", "."
                    used.discard(p)

    go()
    return out


@pytest.mark.parametrize("level", LEVELS)
def test_dominosa(level):
    rng = random.Random(level)
    for data, entry in entries("dominosa", level, SEEDS):
        n, grid = dom_parse(body(entry["question"]))
        # A full double-n set shows every number n + 2 times (n + 1 dominoes, the double twice).
        assert all(sum(row.count(k) for row in grid) == n + 2 for k in range(n + 1))
        oracle = [line.split() for line in entry["answer"].splitlines()]
        assert dom_ok(grid, oracle)
        agree(data, entry, entry["answer"], True, "oracle")
        agree(data, entry, "\n".join("".join(r).lower() for r in oracle), True, "letters run together, lower case")
        for s in dom_solutions(grid, 3):
            assert dom_ok(grid, s)
            agree(data, entry, "\n".join(" ".join(r) for r in s), True, "our split")
        # Near misses: rotate a 2x2 block of two parallel dominoes (valid exactly when the pairs stay
        # distinct), swap two letters, drop a row.
        h, w = len(grid), len(grid[0])
        for _ in range(20):
            r, c = rng.randrange(h - 1), rng.randrange(w - 1)
            d = [row[:] for row in oracle]
            if d[r][c] == "R" and d[r + 1][c] == "R":
                d[r][c], d[r][c + 1], d[r + 1][c], d[r + 1][c + 1] = "D", "D", "U", "U"
            elif d[r][c] == "D" and d[r][c + 1] == "D":
                d[r][c], d[r][c + 1], d[r + 1][c], d[r + 1][c + 1] = "R", "L", "R", "L"
            else:
                continue
            agree(data, entry, "\n".join(" ".join(x) for x in d), dom_ok(grid, d), "a 2x2 block flipped")
        d = [row[:] for row in oracle]
        d[0][0] = {"R": "D", "D": "R"}[d[0][0]]
        agree(data, entry, "\n".join(" ".join(x) for x in d), False, "one letter changed")
        agree(data, entry, "\n".join(" ".join(x) for x in oracle[:-1]), False, "last row missing")
        agree(data, entry, entry["answer"] + "\nDone", False, "extra line")


# ---------------------------------------------------------------- knight_swap


def ks_parse(q):
    rows = {}
    for line in q.splitlines():
        if m := re.fullmatch(r"(\d)  ([#.WB](?: [#.WB])*)", line):
            rows[int(m.group(1))] = m.group(2).split()
    files = re.search(r"^ {3}([a-z](?: [a-z])*)$", q, re.M).group(1).split()
    board, white, black = set(), set(), set()
    for rank, cells in rows.items():
        assert len(cells) == len(files)
        for f, ch in zip(files, cells, strict=True):
            sq = f"{f}{rank}"
            if ch != "#":
                board.add(sq)
            if ch == "W":
                white.add(sq)
            if ch == "B":
                black.add(sq)
    budget = int(re.search(r"Use at most (\d+) moves", q).group(1))
    return board, frozenset(white), frozenset(black), budget


def ks_jump(a, b):
    df, dr = abs(ord(a[0]) - ord(b[0])), abs(int(a[1:]) - int(b[1:]))
    return {df, dr} == {1, 2}


def ks_run(board, white, black, moves):
    w, b = set(white), set(black)
    for i, (s, t) in enumerate(moves):
        mine = w if i % 2 == 0 else b
        if s not in mine or t not in board or t in w or t in b or not ks_jump(s, t):
            return None
        mine.remove(s)
        mine.add(t)
    return frozenset(w), frozenset(b)


def ks_bfs(board, white, black):
    start = (white, black, 0)
    prev = {start: None}
    dq = deque([start])
    while dq:
        st = dq.popleft()
        w, b, turn = st
        if (w, b) == (black, white):
            moves = []
            while prev[st] is not None:
                st, mv = prev[st]
                moves.append(mv)
            return moves[::-1]
        mine = w if turn == 0 else b
        for s in mine:
            for t in board:
                if t not in w and t not in b and ks_jump(s, t):
                    moved = (mine - {s}) | {t}
                    nxt = (moved, b, 1) if turn == 0 else (w, moved, 0)
                    if nxt not in prev:
                        prev[nxt] = (st, (s, t))
                        dq.append(nxt)
    return None


@pytest.mark.parametrize("level", LEVELS)
def test_knight_swap(level):
    rng = random.Random(level)
    for data, entry in entries("knight_swap", level, 2):
        board, white, black, budget = ks_parse(body(entry["question"]))
        oracle = [tuple(m.split("-")) for m in entry["answer"].split()]
        assert ks_run(board, white, black, oracle) == (black, white) and len(oracle) <= budget
        agree(data, entry, entry["answer"], True, "oracle")
        ours = ks_bfs(board, white, black)
        assert ours is not None
        slack = {1: 2, 2: 2, 3: 0, 4: 0, 5: 0}[level]
        assert len(ours) + slack == budget, "the budget is the fewest plus the level's slack"
        agree(data, entry, ", ".join(f"{s.upper()}-{t.upper()}" for s, t in ours), True, "our plan, upper case")
        agree(data, entry, " ".join(f"{s}-{t}" for s, t in oracle[:-1]), False, "last move dropped")
        # The same plan with the first two moves exchanged: black would move first.
        if len(oracle) >= 2:
            swapped = [oracle[1], oracle[0], *oracle[2:]]
            res = ks_run(board, white, black, swapped)
            agree(data, entry, " ".join(f"{s}-{t}" for s, t in swapped), res == (black, white), "first two swapped")
        for _ in range(10):
            plan = list(oracle)
            i = rng.randrange(len(plan))
            s, _t = plan[i]
            plan[i] = (s, rng.choice(sorted(board)))
            res = ks_run(board, white, black, plan)
            agree(data, entry, " ".join(f"{s}-{t}" for s, t in plan), res == (black, white), "one landing changed")
        agree(data, entry, entry["answer"] + " or a1-b3", False, "hedge")


# ---------------------------------------------------------------- egocentric_navigation

HEADINGS = ["north", "east", "south", "west"]
VECTORS = {"north": (0, 1), "east": (1, 0), "south": (0, -1), "west": (-1, 0)}


def nav_walk(lines):
    x = y = 0
    face = 0
    for line in lines:
        if m := re.fullmatch(
            r"Take (\d+) steps? (forward|backward|to the left|to the right|north|east|south|west)\.", line
        ):
            n, how = int(m.group(1)), m.group(2)
            heading = {
                "forward": HEADINGS[face],
                "backward": HEADINGS[(face + 2) % 4],
                "to the left": HEADINGS[(face + 3) % 4],
                "to the right": HEADINGS[(face + 1) % 4],
            }.get(how, how)
            dx, dy = VECTORS[heading]
            x, y = x + n * dx, y + n * dy
        elif line == "Turn left.":
            face = (face + 3) % 4
        elif line == "Turn right.":
            face = (face + 1) % 4
        elif line == "Turn around.":
            face = (face + 2) % 4
        elif m := re.fullmatch(r"Face (north|east|south|west)\.", line):
            face = HEADINGS.index(m.group(1))
        else:
            raise AssertionError(line)
    return x, y, HEADINGS[face]


@pytest.mark.parametrize("level", LEVELS)
def test_egocentric_navigation(level):
    for data, entry in entries("egocentric_navigation", level, 4):
        q = body(entry["question"])
        lines = re.findall(r"^\d+\. (.*)$", q, re.M)
        assert len(lines) == {1: 4, 2: 6, 3: 9, 4: 13, 5: 18}[level]
        x, y, f = nav_walk(lines)
        agree(data, entry, f"x={x}, y={y}, facing={f}", True, "our walk")
        agree(data, entry, f"facing: {f.upper()}; y: {y}; x: {x}", True, "other order and case")
        agree(data, entry, f"x={x}, y={y}, facing={HEADINGS[(HEADINGS.index(f) + 2) % 4]}", False, "facing reversed")
        agree(data, entry, f"x={-x}, y={y}, facing={f}", x == 0, "x mirrored")
        agree(data, entry, f"x={y}, y={x}, facing={f}", x == y, "x and y swapped")
        agree(data, entry, f"x={x}, y={y}", False, "facing missing")
        agree(data, entry, f"({x}, {y}) facing {f}", False, "another layout")
        agree(data, entry, f"x={x}, y={y}, facing={f} or north", False, "hedge")
        # Backward read as forward (a classic slip) changes the answer whenever a backward step moves us.
        flipped = [ln.replace("backward", "forward") for ln in lines]
        if nav_walk(flipped) != (x, y, f):
            fx, fy, ff = nav_walk(flipped)
            agree(data, entry, f"x={fx}, y={fy}, facing={ff}", False, "backward read as forward")


# ---------------------------------------------------------------- survo


def survo_parse(q):
    rows, sums, col_sums = [], [], None
    for line in q.splitlines():
        if m := re.fullmatch(r"((?:\s+(?:\d+|_))+) \|\s+(\d+)", line):
            rows.append([None if t == "_" else int(t) for t in m.group(1).split()])
            sums.append(int(m.group(2)))
        elif rows and col_sums is None and re.fullmatch(r"(\s+\d+)+", line):
            col_sums = [int(t) for t in line.split()]
    numbers = [int(t) for t in q.split("each used exactly once: ")[1].split(". Every row")[0].split(", ")]
    return rows, sums, col_sums, numbers


def survo_ok(rows, sums, col_sums, numbers, g):
    if len(g) != len(rows) or any(len(a) != len(b) for a, b in zip(g, rows, strict=True)):
        return False
    placed = []
    for a, b in zip(g, rows, strict=True):
        for x, y in zip(a, b, strict=True):
            if y is None:
                placed.append(x)
            elif x != y:
                return False
    return (
        sorted(placed) == sorted(numbers)
        and [sum(r) for r in g] == sums
        and [sum(r[j] for r in g) for j in range(len(col_sums))] == col_sums
    )


def survo_solutions(rows, sums, col_sums, numbers, limit):
    blanks = [(i, j) for i, r in enumerate(rows) for j, v in enumerate(r) if v is None]
    g = [[0 if v is None else v for v in r] for r in rows]
    out = []

    def go(k, left):
        if len(out) >= limit:
            return
        if k == len(blanks):
            if survo_ok(rows, sums, col_sums, numbers, g):
                out.append([r[:] for r in g])
            return
        i, j = blanks[k]
        for v in sorted(set(left)):
            g[i][j] = v
            rest = list(left)
            rest.remove(v)
            row_full = all(b[0] != i for b in blanks[k + 1 :])
            col_full = all(b[1] != j for b in blanks[k + 1 :])
            if (not row_full or sum(g[i]) == sums[i]) and (not col_full or sum(r[j] for r in g) == col_sums[j]):
                go(k + 1, rest)
        g[i][j] = 0

    go(0, numbers)
    return out


@pytest.mark.parametrize("level", LEVELS)
def test_survo(level):
    rng = random.Random(level)
    for data, entry in entries("survo", level, SEEDS):
        rows, sums, col_sums, numbers = survo_parse(body(entry["question"]))
        assert col_sums and len(col_sums) == len(rows[0])
        assert len(numbers) == sum(v is None for r in rows for v in r) == {1: 3, 2: 5, 3: 7, 4: 9, 5: 12}[level]
        oracle = [[int(v) for v in line.split()] for line in entry["answer"].splitlines()]
        assert survo_ok(rows, sums, col_sums, numbers, oracle)
        agree(data, entry, entry["answer"], True, "oracle")
        sols = survo_solutions(rows, sums, col_sums, numbers, 4)
        assert sols
        for s in sols:
            agree(data, entry, "\n".join(", ".join(map(str, r)) for r in s), True, "our filling, commas")
        for _ in range(8):
            g = [r[:] for r in oracle]
            i = rng.randrange(len(g))
            a, b = rng.sample(range(len(g[i])), 2)
            g[i][a], g[i][b] = g[i][b], g[i][a]
            ok = survo_ok(rows, sums, col_sums, numbers, g)
            agree(data, entry, "\n".join(" ".join(map(str, r)) for r in g), ok, "two cells of a row swapped")
        g = [r[:] for r in oracle]
        i, j = next((i, j) for i, r in enumerate(rows) for j, v in enumerate(r) if v is None)
        g[i][j] += 1
        agree(data, entry, "\n".join(" ".join(map(str, r)) for r in g), False, "a blank off by one")
        agree(data, entry, "\n".join(" ".join(map(str, r)) for r in oracle[:-1]), False, "last row missing")
        agree(data, entry, entry["answer"] + f"\n{' '.join(map(str, col_sums))}", False, "column sums appended")


# ---------------------------------------------------------------- cyclic_shift


def cs_parse(q):
    now = q.split("Grid now:\n")[1].split("\n\n")[0]
    grid = [line.split() for line in now.splitlines()]
    budget = int(re.search(r"in at most (\d+) moves", q).group(1))
    return grid, budget


def cs_apply(grid, move):
    g = [r[:] for r in grid]
    kind, idx, d = move[0].upper(), int(move[1:-1]) - 1, move[-1]
    if kind == "R":
        row = g[idx]
        g[idx] = [row[-1], *row[:-1]] if d == "+" else [*row[1:], row[0]]
    else:
        col = [r[idx] for r in g]
        col = [col[-1], *col[:-1]] if d == "+" else [*col[1:], col[0]]
        for r, v in zip(g, col, strict=True):
            r[idx] = v
    return g


def cs_solved(grid):
    flat = [v for r in grid for v in r]
    return flat == [chr(65 + i) for i in range(len(flat))]


def cs_run(grid, moves):
    for m in moves:
        grid = cs_apply(grid, m)
    return grid


def cs_bfs(grid, limit):
    """Iterative deepening over all moves (small grids, budgets ≤ 7, pruned by no immediate undo)."""
    n = len(grid)
    moves = [f"{k}{i}{d}" for k in "RC" for i in range(1, n + 1) for d in "+-"]
    start = tuple(v for r in grid for v in r)
    frontier = {start: []}
    seen = {start}
    for _ in range(limit):
        nxt = {}
        for state, path in frontier.items():
            if cs_solved([list(state[i * n : (i + 1) * n]) for i in range(n)]):
                return path
            g = [list(state[i * n : (i + 1) * n]) for i in range(n)]
            for m in moves:
                s = tuple(v for r in cs_apply(g, m) for v in r)
                if s not in seen:
                    seen.add(s)
                    nxt[s] = [*path, m]
        frontier = nxt
    for state, path in frontier.items():
        if cs_solved([list(state[i * n : (i + 1) * n]) for i in range(n)]):
            return path
    return None


@pytest.mark.parametrize("level", LEVELS)
def test_cyclic_shift(level):
    rng = random.Random(level)
    for data, entry in entries("cyclic_shift", level, SEEDS):
        grid, budget = cs_parse(body(entry["question"]))
        oracle = entry["answer"].split()
        assert cs_solved(cs_run(grid, oracle)) and len(oracle) <= budget
        agree(data, entry, entry["answer"], True, "oracle")
        if level <= 3:
            ours = cs_bfs(grid, budget)
            assert ours is not None and len(ours) <= len(oracle)
            agree(data, entry, " ".join(ours).lower(), True, "our shortest, lower case")
        n = len(grid)
        names = [f"{k}{i}{d}" for k in "RC" for i in range(1, n + 1) for d in "+-"]
        for _ in range(20):
            seq = [rng.choice(names) for _ in range(rng.randint(1, budget + 1))]
            mine = cs_solved(cs_run(grid, seq)) and len(seq) <= budget
            agree(data, entry, " ".join(seq), mine, "random moves")
        flipped = [m[:-1] + ("-" if m[-1] == "+" else "+") for m in oracle]
        agree(data, entry, " ".join(flipped), cs_solved(cs_run(grid, flipped)), "every direction flipped")
        padded = [*oracle, "R1+", "R1-"]
        agree(data, entry, " ".join(padded), len(padded) <= budget, "a move and its undo appended")
        agree(data, entry, entry["answer"] + " or R1+", False, "hedge")
        agree(data, entry, f"R{n + 1}+ " + entry["answer"], False, "a row that does not exist")
