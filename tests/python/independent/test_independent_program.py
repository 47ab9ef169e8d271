"""Independent checks of cfg_parse, regex_match, polynomial_multiplication and
complex_arithmetic, from the prompt text alone: every parse tree our own parser finds must be
accepted, the matching set by Python's own regex engine, the expansion and the complex value by
our own exact arithmetic (terms in any order)."""

from __future__ import annotations

import random
import re
from fractions import Fraction

import pytest

from ._common import LEVELS, agree, entries
from .test_independent_numbers import fmt_frac, poly_coeffs, poly_str

SEEDS = 3


# ---------------------------------------------------------------- cfg_parse


def parse_grammar(q):
    rules: dict[str, list[list[str]]] = {}
    for lhs, rhs in re.findall(r"^([A-Z]) -> (.*)$", q, re.M):
        rules[lhs] = [alt.split() for alt in rhs.split(" | ")]
    sentence = re.search(r"^Sentence: (.*)$", q, re.M).group(1).split()
    return rules, sentence


def splits(alt, i, j, derives):
    """Ways to cut words[i:j] into the parts of `alt`, each part derivable (a list of cut lists)."""
    if not alt:
        return [[]] if i == j else []
    out = []
    first, rest = alt[0], alt[1:]
    for k in range(i + 1, j + 1) if rest else [j]:
        if derives(first, i, k):
            out += [[k, *r] for r in splits(rest, k, j, derives)]
    return out


def all_trees(rules, words, limit=4):
    """Parse trees (as strings) of S over `words`, up to `limit`: a CYK-style chart of which
    nonterminal derives which span (unit productions closed to a fixpoint), then trees read top
    down inside the chart, never re-entering the same (symbol, span) on one path."""
    n = len(words)
    chart: dict[tuple[int, int], set[str]] = {}

    def derives(s, i, k):
        return (k == i + 1 and words[i] == s) if s.islower() else s in chart.get((i, k), set())

    for length in range(1, n + 1):
        for i in range(n - length + 1):
            j = i + length
            cell = chart.setdefault((i, j), set())
            grew = True
            while grew:
                grew = False
                for lhs, alts in rules.items():
                    if lhs not in cell and any(splits(alt, i, j, derives) for alt in alts):
                        cell.add(lhs)
                        grew = True

    def trees(s, i, j, path):
        if s.islower():
            return [s]
        out = []
        for alt in rules.get(s, []):
            for cuts in splits(alt, i, j, derives):
                bounds = [i, *cuts]
                kid_sets = []
                for sym, a, b in zip(alt, bounds, bounds[1:], strict=False):
                    if (sym, a, b) in path:
                        kid_sets = None
                        break
                    kid_sets.append(trees(sym, a, b, path | {(sym, a, b)})[:limit])
                if not kid_sets or any(not ks for ks in kid_sets):
                    continue
                combos = [[]]
                for ks in kid_sets:
                    combos = [[*c, k] for c in combos for k in ks][:limit]
                out += [f"({s} {' '.join(c)})" for c in combos]
                if len(out) >= limit:
                    return out[:limit]
        return out

    if "S" not in chart.get((0, n), set()):
        return []
    return trees("S", 0, n, frozenset({("S", 0, n)}))


def tree_ok(rules, words, text):
    toks = re.findall(r"\(|\)|[A-Za-z]", text)
    pos = 0
    leaves: list[str] = []

    def node():
        nonlocal pos
        if toks[pos] != "(":
            t = toks[pos]
            pos += 1
            if not t.islower():
                raise ValueError
            leaves.append(t)
            return t
        pos += 1
        label = toks[pos]
        pos += 1
        kids = []
        while toks[pos] != ")":
            k = node()
            kids.append(k if isinstance(k, str) else k[0])
        pos += 1
        if kids not in rules.get(label, []):
            raise ValueError
        return (label,)

    try:
        root = node()
        return pos == len(toks) and root == ("S",) and leaves == words
    except (ValueError, IndexError):
        return False


@pytest.mark.parametrize("level", LEVELS)
def test_cfg_parse(level):
    for data, entry in entries("cfg_parse", level, SEEDS):
        rules, words = parse_grammar(entry["question"])
        assert tree_ok(rules, words, entry["answer"])
        agree(data, entry, entry["answer"], True, "oracle")
        trees = all_trees(rules, words)
        assert trees
        for t in trees:
            assert tree_ok(rules, words, t), t
            agree(data, entry, t, True, "a parse tree our own parser found")
        wrong = entry["answer"].replace("(S", "(A", 1)
        agree(data, entry, wrong, tree_ok(rules, words, wrong), "root relabelled")
        lab = re.findall(r"\(([A-Z])", entry["answer"])
        if len(lab) > 1:
            idx = [m.start() for m in re.finditer(r"\([A-Z]", entry["answer"])][-1]
            other = next(x for x in "SABC" if x != entry["answer"][idx + 1])
            w2 = entry["answer"][: idx + 1] + other + entry["answer"][idx + 2 :]
            agree(data, entry, w2, tree_ok(rules, words, w2), "last node relabelled")


# ---------------------------------------------------------------- regex_match


@pytest.mark.parametrize("level", LEVELS)
def test_regex_match(level):
    rng = random.Random(level)
    for data, entry in entries("regex_match", level, SEEDS):
        q = entry["question"]
        rx = re.search(r"^Regular expression: (.*)$", q, re.M).group(1)
        assert re.fullmatch(r"[a-z()|*+?]+", rx), rx
        strings = re.findall(r"^(\d+)\. ([a-z]*)$", q.split("Strings:")[1], re.M)
        hits = [n for n, s in strings if re.fullmatch(rx, s)]
        if hits:
            agree(data, entry, " ".join(hits), True, "the strings Python's re.fullmatch matches")
        if len(hits) > 1:
            agree(data, entry, " ".join(hits[::-1]), True, "the same numbers in another order")
            agree(data, entry, " ".join(hits[1:]), False, "one match left out")
        misses = [n for n, _ in strings if n not in hits]
        if misses and hits:
            agree(data, entry, " ".join([*hits, rng.choice(misses)]), False, "one non-match added")


# ---------------------------------------------------------------- polynomial_multiplication


def pmul(a, b):
    out: dict[int, Fraction] = {}
    for i, x in a.items():
        for j, y in b.items():
            out[i + j] = out.get(i + j, 0) + x * y
    return {k: v for k, v in out.items() if v}


@pytest.mark.parametrize("level", LEVELS)
def test_polynomial_multiplication(level):
    for data, entry in entries("polynomial_multiplication", level, SEEDS):
        line = next(ln for ln in entry["question"].splitlines() if ln.startswith("(") and ln.endswith(")"))
        factors = re.findall(r"\(([^()]*)\)(?:\^(\d+))?", line)
        prod_: dict[int, Fraction] = {0: Fraction(1)}
        for f, e in factors:
            for _ in range(int(e or 1)):
                prod_ = pmul(prod_, poly_coeffs(f))
        mine = poly_str(prod_)
        agree(data, entry, mine, True, "our expansion")
        parts = [poly_str({d: c}) for d, c in sorted(prod_.items())]
        rev = parts[0] + "".join(f" - {t[1:]}" if t.startswith("-") else f" + {t}" for t in parts[1:])
        assert poly_coeffs(rev) == {k: v for k, v in prod_.items() if v}, rev
        agree(data, entry, rev, True, "terms in ascending order")
        bumped = dict(prod_)
        bumped[0] = bumped.get(0, 0) + 1
        agree(data, entry, poly_str(bumped), False, "constant term off by one")


# ---------------------------------------------------------------- complex_arithmetic


def cparse(text):
    """Evaluate an expression over integers, i, + - * / and ^ with exact rationals."""
    toks = re.findall(r"\d+|i|[-+*/^()]", text.replace(" ", ""))
    pos = 0

    def mul(a, b):
        return (a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0])

    def div(a, b):
        d = b[0] ** 2 + b[1] ** 2
        return ((a[0] * b[0] + a[1] * b[1]) / d, (a[1] * b[0] - a[0] * b[1]) / d)

    def primary():
        nonlocal pos
        t = toks[pos]
        pos += 1
        if t == "(":
            v = expr()
            pos += 1
        elif t == "i":
            v = (Fraction(0), Fraction(1))
        elif t == "-":
            a = primary()
            v = (-a[0], -a[1])
        else:
            v = (Fraction(int(t)), Fraction(0))
            if pos < len(toks) and toks[pos] == "i":
                pos += 1
                v = (Fraction(0), v[0])
        while pos < len(toks) and toks[pos] == "^":
            pos += 1
            k = int(toks[pos])
            pos += 1
            r = (Fraction(1), Fraction(0))
            for _ in range(k):
                r = mul(r, v)
            v = r
        return v

    def term():
        nonlocal pos
        v = primary()
        while pos < len(toks) and toks[pos] in "*/":
            op = toks[pos]
            pos += 1
            w = primary()
            v = mul(v, w) if op == "*" else div(v, w)
        return v

    def expr():
        nonlocal pos
        v = term()
        while pos < len(toks) and toks[pos] in "+-":
            op = toks[pos]
            pos += 1
            w = term()
            v = (v[0] + w[0], v[1] + w[1]) if op == "+" else (v[0] - w[0], v[1] - w[1])
        return v

    v = expr()
    assert pos == len(toks), text
    return v


def cfmt(v):
    a, b = v
    sign = "-" if b < 0 else "+"
    return f"{fmt_frac(a)}{sign}{fmt_frac(abs(b))}i"


@pytest.mark.parametrize("level", LEVELS)
def test_complex_arithmetic(level):
    for data, entry in entries("complex_arithmetic", level, SEEDS):
        q = entry["question"].split("Think it through")[0]
        line = next(ln for ln in q.splitlines() if re.fullmatch(r"[\d i+\-*/^()]+", ln.strip()) and "i" in ln)
        v = cparse(line)
        agree(data, entry, cfmt(v), True, "our exact value")
        agree(data, entry, cfmt(v).replace("+", " + ").replace("-", " - ").strip(" "), True, "spaces around the sign")
        agree(data, entry, cfmt((v[0] + 1, v[1])), False, "real part + 1")
        agree(data, entry, cfmt((v[0], v[1] + 1)), False, "imaginary part + 1")
