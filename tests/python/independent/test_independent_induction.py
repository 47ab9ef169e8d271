"""Independent checks of number_sequence, custom_operator, list_functions, string_transduction,
arc_1d and regex_induction, from the prompt text alone: every rule of the kinds the prompt lists is tried
(asserting, as the prompt says, that all fitting rules agree on the answer), and gauntlet's verdict
is compared with ours on that answer and on near misses."""

from __future__ import annotations

import re
from fractions import Fraction
from itertools import pairwise, product

import pytest

import gauntlet

from ._common import LEVELS, agree, entries

SEEDS = 3


def body(q):
    return q.split("Think it through")[0]


# ---------------------------------------------------------------- number_sequence


def seq_rules(xs):
    """Every rule of the four kinds the prompt lists that fits xs, as a next-term function of the
    sequence so far."""
    rules = []
    # polynomial of degree <= 3: Lagrange through the first 4 points, checked on the rest
    pts = list(range(min(4, len(xs))))
    assert len(xs) >= 4, "fewer than 4 terms: polynomials of degree 3 are not determined"

    def poly(n, pts=pts):
        total = Fraction(0)
        for i in pts:
            term = Fraction(xs[i])
            for j in pts:
                if j != i:
                    term *= Fraction(n - j, i - j)
            total += term
        return total

    if all(poly(n) == xs[n] for n in range(len(xs))):
        rules.append(lambda s: int(poly(len(s))))
    for p, q in product(range(-3, 4), repeat=2):
        if all(xs[n] == p * xs[n - 1] + q * xs[n - 2] for n in range(2, len(xs))):
            rules.append(lambda s, p=p, q=q: p * s[-1] + q * s[-2])
    for m, c in product(range(-3, 4), range(-20, 21)):
        if all(xs[n] == m * xs[n - 1] + c for n in range(1, len(xs))):
            rules.append(lambda s, m=m, c=c: m * s[-1] + c)
    ev, od = xs[0::2], xs[1::2]
    if len(set(b - a for a, b in pairwise(ev))) <= 1 and len(set(b - a for a, b in pairwise(od))) <= 1:
        assert len(ev) >= 2 and len(od) >= 2

        def alt(s):
            same = s[len(s) % 2 :: 2]
            return same[-1] + (same[-1] - same[-2])

        rules.append(alt)
    return rules


@pytest.mark.parametrize("level", LEVELS)
def test_number_sequence(level):
    for data, entry in entries("number_sequence", level, SEEDS + 2):
        q = body(entry["question"])
        xs = [int(t) for t in re.search(r"Sequence: (.*), …", q).group(1).split(", ")]
        k = int(re.search(r"Give the next (\d+) terms?", q).group(1))
        conts = set()
        for rule in seq_rules(xs):
            s = list(xs)
            for _ in range(k):
                s.append(rule(s))
            conts.add(tuple(s[len(xs) :]))
        assert len(conts) == 1, (level, entry["metadata"]["seed"], conts)
        mine = list(conts.pop())
        text = ", ".join(map(str, mine))
        agree(data, entry, text, True, "the common continuation")
        agree(data, entry, " ".join(map(str, mine)), True, "separated by spaces")
        agree(data, entry, ", ".join(map(str, [*mine[:-1], mine[-1] + 1])), False, "last term off by one")
        if k > 1:
            agree(data, entry, ", ".join(map(str, mine[:-1])), False, "last term missing")
            agree(data, entry, ", ".join(map(str, mine[::-1])), mine == mine[::-1], "terms reversed")


# ---------------------------------------------------------------- custom_operator


def py_expr(text):
    """A prompt formula (·, −, ², named coefficients) as a Python expression."""
    return text.replace("·", "*").replace("−", "-").replace("²", "**2")


def operator_defs(q):
    ops = {}
    for sym, rhs in re.findall(r"^a (\S) b = (.*)$", q, re.M):
        if m := re.fullmatch(r"(.*) when a > b, and (.*) otherwise\.", rhs):
            hi, lo = py_expr(m.group(1)), py_expr(m.group(2))
            ops[sym] = lambda a, b, hi=hi, lo=lo: eval(hi if a > b else lo, {"a": a, "b": b})
        elif "fixed unknown integers" in rhs:
            known = re.findall(
                rf"^  (\(-?\d+\)|-?\d+) {re.escape(sym)} (\(-?\d+\)|-?\d+) = (-?\d+)$", q.split(rhs)[1], re.M
            )
            rows = [(int(a.strip("()")), int(b.strip("()")), int(v)) for a, b, v in known]
            coeffs = solve_quadratic_form(rows)
            ops[sym] = lambda a, b, c=coeffs: c[0] + c[1] * a + c[2] * b + c[3] * a * b + c[4] * a * a + c[5] * b * b
        else:
            f = py_expr(rhs)
            ops[sym] = lambda a, b, f=f: eval(f, {"a": a, "b": b})
    return ops


def solve_quadratic_form(rows):
    """The unique c0..c5 with c0 + c1·a + c2·b + c3·a·b + c4·a² + c5·b² = v on every row (Gauss over Q)."""
    m = [[Fraction(x) for x in (1, a, b, a * b, a * a, b * b, v)] for a, b, v in rows]
    for r in range(6):
        col = r
        piv = next((i for i in range(r, len(m)) if m[i][col] != 0), None)
        assert piv is not None, "the known values do not determine the coefficients"
        m[r], m[piv] = m[piv], m[r]
        m[r] = [x / m[r][col] for x in m[r]]
        for i in range(len(m)):
            if i != r and m[i][col] != 0:
                m[i] = [x - m[i][col] * y for x, y in zip(m[i], m[r], strict=True)]
    assert all(row[6] == 0 for row in m[6:]), "the known values are inconsistent"
    coeffs = [m[i][6] for i in range(6)]
    assert all(c.denominator == 1 for c in coeffs)
    return [int(c) for c in coeffs]


def evaluate(expr, ops):
    """Evaluate a fully parenthesised expression; asserts no level mixes two operators unbracketed."""
    toks = re.findall(r"\(-\d+\)|-?\d+|[()]|[^\s\d()-]", expr)

    def parse(i):
        val, i = atom(i)
        if i < len(toks) and toks[i] in ops:
            op = toks[i]
            rhs, i = atom(i + 1)
            val = ops[op](val, rhs)
            assert not (i < len(toks) and toks[i] in ops), f"ambiguous expression {expr!r}"
        return val, i

    def atom(i):
        t = toks[i]
        if t == "(":
            val, i = parse(i + 1)
            assert toks[i] == ")"
            return val, i + 1
        return int(t.strip("()")), i + 1

    val, i = parse(0)
    assert i == len(toks)
    return val


@pytest.mark.parametrize("level", LEVELS)
def test_custom_operator(level):
    for data, entry in entries("custom_operator", level, SEEDS + 2):
        q = body(entry["question"])
        ops = operator_defs(q)
        expr = re.search(r"What is (.*)\?", q).group(1)
        mine = evaluate(expr, ops)
        agree(data, entry, str(mine), True, "our value")
        agree(data, entry, str(mine + 1), False, "off by one")
        agree(data, entry, str(-mine), mine == 0, "sign flipped")


# ---------------------------------------------------------------- list_functions


def list_ops():
    ops = {}
    for k in (1, 2, 3, 5, 10, -1, -2):
        ops[f"add {k}"] = lambda xs, k=k: [x + k for x in xs]
    for k in (2, 3, -1):
        ops[f"mul {k}"] = lambda xs, k=k: [x * k for x in xs]
    for t in (3, 5, 10, 20):
        ops[f"gt {t}"] = lambda xs, t=t: [x for x in xs if x > t]
        ops[f"lt {t}"] = lambda xs, t=t: [x for x in xs if x < t]
    ops["even"] = lambda xs: [x for x in xs if x % 2 == 0]
    ops["odd"] = lambda xs: [x for x in xs if x % 2 != 0]
    ops["reverse"] = lambda xs: xs[::-1]
    ops["sort"] = sorted
    ops["sort desc"] = lambda xs: sorted(xs, reverse=True)
    ops["dedup"] = lambda xs: list(dict.fromkeys(xs))
    for k in (1, 2, 3):
        ops[f"take {k}"] = lambda xs, k=k: xs[:k]
        ops[f"drop {k}"] = lambda xs, k=k: xs[k:]
    ops["rotate"] = lambda xs: xs[1:] + xs[:1]
    ops["running sums"] = lambda xs: [sum(xs[: i + 1]) for i in range(len(xs))]
    ops["pair sums"] = lambda xs: [a + b for a, b in pairwise(xs)]
    return ops


def fitting_outputs(ops, examples, new):
    """Outputs on `new` of every op or pair of ops (applied in order) that fits all examples."""
    fns = list(ops.values())
    outs = set()
    for f in fns:
        if all(f(x) == y for x, y in examples):
            outs.add(repr(f(new)))
    for f, g in product(fns, repeat=2):
        if all(g(f(x)) == y for x, y in examples):
            outs.add(repr(g(f(new))))
    return outs


def plist(text):
    return [int(t) for t in re.findall(r"-?\d+", text)]


@pytest.mark.parametrize("level", LEVELS)
def test_list_functions(level):
    ops = list_ops()
    for data, entry in entries("list_functions", level, SEEDS):
        q = body(entry["question"])
        examples = [(plist(a), plist(b)) for a, b in re.findall(r"^(\[[^\]]*\]) -> (\[[^\]]*\])$", q, re.M)]
        new = plist(re.search(r"output for (\[[^\]]*\])\?", q).group(1))
        outs = fitting_outputs(ops, examples, new)
        assert len(outs) == 1, (level, entry["metadata"]["seed"], outs)
        mine = eval(outs.pop())
        agree(data, entry, str(mine), True, "the common output")
        agree(data, entry, str(mine).replace(" ", ""), True, "no spaces")
        if mine:
            agree(data, entry, str(mine[:-1]), False, "last element dropped")
            agree(data, entry, str([*mine[:-1], mine[-1] + 1]), False, "last element off by one")
            agree(data, entry, str(mine[::-1]), mine == mine[::-1], "reversed")
        else:
            agree(data, entry, str([0]), False, "an element added")


# ---------------------------------------------------------------- string_transduction


def string_ops(literal_rotation=False):
    """The prompt's operations. `literal_rotation`: moving the first k letters of a word shorter than
    k moves the whole word (a no-op); otherwise the rotation is by k modulo the length."""

    def shift(w, k):
        return "".join(chr((ord(c) - 97 + k) % 26 + 97) for c in w)

    def swap_pairs(w):
        s = list(w)
        for i in range(0, len(s) - 1, 2):
            s[i], s[i + 1] = s[i + 1], s[i]
        return "".join(s)

    ops = {"reverse": lambda w: w[::-1]}
    for k in (1, 2, 3, 13, 25):
        ops[f"shift {k}"] = lambda w, k=k: shift(w, k)
    ops["double"] = lambda w: "".join(c + c for c in w)
    ops["no vowels"] = lambda w: "".join(c for c in w if c not in "aeiou")
    ops["sort"] = lambda w: "".join(sorted(w))
    ops["dedup"] = lambda w: "".join(dict.fromkeys(w))
    for k in (1, 2, 3):
        ops[f"rotate {k}"] = lambda w, k=k: (
            w[k:] + w[:k] if literal_rotation or not w else w[k % len(w) :] + w[: k % len(w)]
        )
    ops["swap pairs"] = swap_pairs
    ops["swap ends"] = lambda w: w[-1] + w[1:-1] + w[0] if len(w) > 1 else w
    ops["every other"] = lambda w: w[::2]
    ops["drop first"] = lambda w: w[1:]
    ops["append reversed"] = lambda w: w + w[::-1]
    return ops


@pytest.mark.parametrize("level", LEVELS)
def test_string_transduction(level):
    ops = string_ops()
    for data, entry in entries("string_transduction", level, SEEDS):
        q = body(entry["question"])
        examples = re.findall(r"^([a-z]+) -> ([a-z]*)$", q, re.M)
        new = re.search(r"output for ([a-z]+)\?", q).group(1)
        outs = fitting_outputs(ops, examples, new)
        assert len(outs) == 1, (level, entry["metadata"]["seed"], outs)
        mine = eval(outs.pop())
        agree(data, entry, mine, True, "the common output")
        if mine:
            agree(data, entry, mine[:-1], False, "last letter dropped")
            agree(data, entry, mine[::-1], mine == mine[::-1], "reversed")
            agree(data, entry, mine + mine[-1], False, "last letter doubled")


# ---------------------------------------------------------------- regex_induction

SYNTAX = re.compile(r"[a-z()|*+?]+")


def regex_ok(rx, alphabet, limit, pos, neg):
    """Our reading of the rules: allowed characters only, at most `limit` long, a well-formed
    expression, whole-string matches of every A string and no B string."""
    if len(rx) > limit or not SYNTAX.fullmatch(rx) or set(re.sub(r"[()|*+?]", "", rx)) - set(alphabet):
        return False
    # every operator needs its operands: no empty group, empty alternative or dangling postfix
    if re.search(r"\(\)|[(|][*+?]|^[*+?]|[*+?]{2}|^\||\|$|\|\||\(\||\|\)", rx):
        return False
    try:
        pat = re.compile(rx)
    except re.error:
        return False
    return all(pat.fullmatch(s) for s in pos) and not any(pat.fullmatch(s) for s in neg)


@pytest.mark.parametrize("level", LEVELS)
def test_regex_induction(level):
    for data, entry in entries("regex_induction", level, SEEDS):
        q = body(entry["question"])
        alphabet = re.search(r"over the letters \{([a-z, ]+)\}", q).group(1).split(", ")
        limit = int(re.search(r"at most (\d+) characters long", q).group(1))
        pos = re.search(r"^A \(must match\): (.*)$", q, re.M).group(1).split(", ")
        neg = re.search(r"^B \(must not match\): (.*)$", q, re.M).group(1).split(", ")
        pos = ["" if s == "ε" else s for s in pos]
        neg = ["" if s == "ε" else s for s in neg]
        oracle = entry["answer"]
        assert regex_ok(oracle, alphabet, limit, pos, neg)
        agree(data, entry, oracle, True, "oracle")
        listing = "|".join(s for s in pos)
        if all(pos):
            agree(data, entry, listing, regex_ok(listing, alphabet, limit, pos, neg), "the A strings listed")
        wrapped = f"({oracle})"
        agree(data, entry, wrapped, regex_ok(wrapped, alphabet, limit, pos, neg), "oracle in parentheses")
        star = "(" + "|".join(alphabet) + ")*"
        agree(data, entry, star, False, "matches everything")
        dropped = oracle[:-1]
        agree(data, entry, dropped, regex_ok(dropped, alphabet, limit, pos, neg), "last character dropped")
        dotted = "." + oracle
        agree(data, entry, dotted, False, "a `.` (not allowed)")


def test_string_transduction_states_how_a_rotation_wraps_around_a_short_word():
    """Level 3 seed 1298 fits only if moving 3 letters of a 2-letter word moves 1 (og -> go): the
    prompt must say so (under the literal reading, the whole word moved, no listed rule fits)."""
    data = gauntlet.create_dataset("string_transduction", size=1, seed=1298, level=3)
    entry = data[0]
    q = body(entry["question"])
    assert "moving 3 letters of a 2-letter word moves 1" in q
    examples = re.findall(r"^([a-z]+) -> ([a-z]*)$", q, re.M)
    new = re.search(r"output for ([a-z]+)\?", q).group(1)
    assert fitting_outputs(string_ops(literal_rotation=True), examples, new) == set()
    outs = fitting_outputs(string_ops(), examples, new)
    assert len(outs) == 1, outs
    agree(data, entry, eval(outs.pop()), True, "the wrap-around reading's output")


# ---------------------------------------------------------------- arc_1d


def runs(row):
    """(start, end exclusive, colour) of every maximal block of one colour (colours 1-9)."""
    out, i = [], 0
    while i < len(row):
        j = i
        while j < len(row) and row[j] == row[i]:
            j += 1
        if row[i]:
            out.append((i, j, row[i]))
        i = j
    return out


def arc_ops():
    def shift(row, k):
        n = len(row)
        return [row[i - k] if 0 <= i - k < n else 0 for i in range(n)]

    def gravity(row, left):
        cells = [v for v in row if v]
        pad = [0] * (len(row) - len(cells))
        return cells + pad if left else pad + cells

    def fill(row):
        out = row[:]
        idx = [i for i, v in enumerate(row) if v]
        for a, b in pairwise(idx):
            if row[a] == row[b]:
                out[a:b] = [row[a]] * (b - a)
        return out

    def spread(row):
        out, cur = row[:], 0
        for i, v in enumerate(row):
            cur = v or cur
            out[i] = cur
        return out

    def drop_singles(row):
        out = row[:]
        for a, b, _ in runs(row):
            if b - a == 1:
                out[a] = 0
        return out

    def hollow(row):
        out = row[:]
        for a, b, _ in runs(row):
            if b - a >= 3:
                out[a + 1 : b - 1] = [0] * (b - a - 2)
        return out

    ops = {}
    for k in range(1, 5):
        ops[f"shift +{k}"] = lambda r, k=k: shift(r, k)
        ops[f"shift -{k}"] = lambda r, k=k: shift(r, -k)
    ops["mirror"] = lambda r: r[::-1]
    for a, b in product(range(1, 10), repeat=2):
        if a != b:
            ops[f"recolour {a}->{b}"] = lambda r, a=a, b=b: [b if v == a else v for v in r]
            if a < b:
                ops[f"swap {a}<->{b}"] = lambda r, a=a, b=b: [b if v == a else a if v == b else v for v in r]
    ops["to left"] = lambda r: gravity(r, True)
    ops["to right"] = lambda r: gravity(r, False)
    ops["fill"] = fill
    ops["spread right"] = spread
    ops["spread left"] = lambda r: spread(r[::-1])[::-1]
    ops["drop singles"] = drop_singles
    ops["hollow"] = hollow
    return ops


def row_of(text):
    return [int(t) for t in text.split()]


@pytest.mark.parametrize("level", LEVELS)
def test_arc_1d(level):
    ops = arc_ops()
    for data, entry in entries("arc_1d", level, SEEDS if level < 4 else 2):
        q = body(entry["question"])
        examples = [(row_of(a), row_of(b)) for a, b in re.findall(r"^Input: +(.*)\nOutput: +(.*)$", q, re.M)]
        new = row_of(re.search(r"^New input: (.*)$", q, re.M).group(1))
        two = "two of these operations applied one after the other" in q
        outs = set()
        for f in ops.values():
            mids = [f(x) for x, _ in examples]
            if not two:
                if all(m == y for m, (_, y) in zip(mids, examples, strict=True)):
                    outs.add(tuple(f(new)))
                continue
            for g in ops.values():
                if all(g(m) == y for m, (_, y) in zip(mids, examples, strict=True)):
                    outs.add(tuple(g(f(new))))
        assert len(outs) == 1, (level, entry["metadata"]["seed"], outs)
        mine = list(outs.pop())
        agree(data, entry, " ".join(map(str, mine)), True, "the common output")
        agree(data, entry, " ".join(map(str, mine[:-1])), False, "last cell dropped")
        i = next((k for k, v in enumerate(mine) if v), 0)
        changed = [*mine[:i], (mine[i] % 9) + 1, *mine[i + 1 :]]
        agree(data, entry, " ".join(map(str, changed)), False, "one cell recoloured")
        agree(data, entry, " ".join(map(str, mine[::-1])), mine == mine[::-1], "mirrored")
        agree(data, entry, " ".join(map(str, new)), new == mine, "the new input itself")
