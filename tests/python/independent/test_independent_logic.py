"""Independent checks of zebra, cryptarithm and self_reference, from the prompt text alone: our
own parser of the clues, our own solver (counting solutions up to 2 where the prompt says the
answer is unique), and every verdict compared with gauntlet's."""

from __future__ import annotations

import random
import re
from itertools import product

import pytest

from ._common import LEVELS, agree, entries
from ._solvers import alldiff_units, filter_by_tuples, fixpoint, solve_csp

SEEDS = 3


# ---------------------------------------------------------------- zebra

RELATIONS = [
    (r"^V is not V$", "ne"),
    (r"^V is V$", "eq"),
    (r"^V does not live in house (\d+)$", "not_at"),
    (r"^V lives in house (\d+)$", "at"),
    (r"^V and V live in the same house$", "eq"),
    (r"^V and V live in different houses$", "ne"),
    (r"^V lives directly left of V$", "left"),
    (r"^V lives somewhere to the left of V$", "before"),
    (r"^V and V live next to each other$", "next"),
]


def parse_zebra(q):
    n = int(re.search(r"There are (\d+) houses", q).group(1))
    attrs = []
    for name, vals in re.findall(r"^- ([\w ]+): (.*)$", q, re.M):
        vs = [v.strip() for v in vals.split(",")]
        assert len(vs) == n
        attrs.append((name, vs))
    owner = {v: i for i, (_, vs) in enumerate(attrs) for v in vs}
    assert len(owner) == n * len(attrs), "values repeated across attributes: the clues would be ambiguous"
    words = sorted(owner, key=len, reverse=True)
    clues = []
    body = q.split("Clues:")[1].split("\n\n")[1] if "\n\n" in q.split("Clues:")[1][:2] else q.split("Clues:")[1]
    for text in re.findall(r"^\d+\. (.*)\.$", body, re.M):
        found = []
        masked = text
        for w in words:
            for m in re.finditer(rf"(?<![\w-]){re.escape(w)}(?![\w-])", masked):
                found.append((m.start(), w))
            masked = re.sub(rf"(?<![\w-]){re.escape(w)}(?![\w-])", lambda m: "\0" * len(m.group(0)), masked)
        found.sort()
        shape = re.sub(r"\0+", "V", masked)
        shape = re.sub(
            r"\b(?:The|the) (?:person who (?:grows|plays|eats|drinks|owns|keeps) |person in the )?(?=V)", "", shape
        )
        shape = re.sub(r"V (house|fan|drinker|owner)\b", "V", shape)
        shape = re.sub(r"person in V", "V", shape)
        for pat, rel in RELATIONS:
            m = re.match(pat, shape)
            if m:
                vals = [w for _, w in found]
                clues.append((rel, vals, int(m.group(1)) if m.groups() else None))
                break
        else:
            raise AssertionError(f"unparsed clue {text!r} (shape {shape!r})")
    return {"n": n, "attrs": attrs, "clues": clues}


def rel_ok(rel, a, b, k):
    return {
        "eq": lambda: a == b,
        "ne": lambda: a != b,
        "at": lambda: a == k,
        "not_at": lambda: a != k,
        "left": lambda: a + 1 == b,
        "before": lambda: a < b,
        "next": lambda: abs(a - b) == 1,
    }[rel]()


def zebra_ok(p, table) -> bool:
    """`table` maps each value to its house (1-based)."""
    n = p["n"]
    for _, vs in p["attrs"]:
        if sorted(table.get(v, 0) for v in vs) != list(range(1, n + 1)):
            return False
    for rel, vals, k in p["clues"]:
        a = table[vals[0]]
        b = table[vals[1]] if len(vals) > 1 else None
        if not rel_ok(rel, a, b, k):
            return False
    return True


def zebra_solve(p):
    n = p["n"]
    dom = {v: set(range(1, n + 1)) for _, vs in p["attrs"] for v in vs}
    units = [list(vs) for _, vs in p["attrs"]]
    steps = [lambda d: alldiff_units(units, d, True)]
    for rel, vals, k in p["clues"]:
        steps.append(
            lambda d, rel=rel, vals=vals, k=k: filter_by_tuples(d, vals, lambda t: rel_ok(rel, t[0], t[-1], k))
        )
    return solve_csp(dom, lambda d: fixpoint(steps, d))


def fmt_zebra(p, table):
    inv = {}
    for _, vs in p["attrs"]:
        for v in vs:
            inv.setdefault(table[v], []).append(v)
    return "\n".join(f"{h}: " + ", ".join(inv[h]) for h in range(1, p["n"] + 1))


@pytest.mark.parametrize("level", LEVELS)
def test_zebra(level):
    rng = random.Random(level)
    for data, entry in entries("zebra", level, SEEDS):
        q = entry["question"]
        p = parse_zebra(q)
        oracle = {}
        for h, vals in re.findall(r"^(\d+): (.*)$", entry["answer"], re.M):
            for v in vals.split(","):
                oracle[v.strip()] = int(h)
        assert zebra_ok(p, oracle), entry["answer"]
        agree(data, entry, entry["answer"], True, "oracle")
        sols = zebra_solve(p)
        for s in sols:
            assert zebra_ok(p, s)
            agree(data, entry, fmt_zebra(p, s), True, "solver's table")
        assert "exactly one solution" in q
        assert len(sols) == 1, (level, entry["metadata"]["seed"], sols)
        lines = entry["answer"].strip().splitlines()
        agree(data, entry, "\n".join(lines[::-1]), True, "house lines in another order")
        for _ in range(4):
            _, vs = rng.choice(p["attrs"])
            a, b = rng.sample(vs, 2)
            t = dict(oracle)
            t[a], t[b] = t[b], t[a]
            agree(data, entry, fmt_zebra(p, t), zebra_ok(p, t), "two values of one attribute swapped")


# ---------------------------------------------------------------- cryptarithm


def parse_crypt(q):
    m = re.search(r"^([A-Z]+(?: \+ [A-Z]+)+) = ([A-Z]+)$", q, re.M)
    words = m.group(1).split(" + ")
    result = m.group(2)
    given = {a: int(b) for a, b in re.findall(r"([A-Z]) = (\d)", q.split(m.group(0))[1].split("Think it")[0])}
    return words, result, given


def crypt_ok(words, result, given, a) -> bool:
    letters = set("".join(words) + result)
    if set(a) != letters or len(set(a.values())) != len(a) or any(not 0 <= v <= 9 for v in a.values()):
        return False
    if any(a[k] != v for k, v in given.items()):
        return False
    if any(len(w) > 1 and a[w[0]] == 0 for w in [*words, result]):
        return False

    def val(w):
        return int("".join(str(a[ch]) for ch in w))

    return sum(val(w) for w in words) == val(result)


def crypt_solve(words, result, given, limit=2):
    """Column by column from the right, with carries."""
    width = max(len(w) for w in [*words, result])
    if len(result) < max(len(w) for w in words):
        return []
    cols = [[w[-1 - i] for w in words if i < len(w)] for i in range(width)]
    leading = {w[0] for w in [*words, result] if len(w) > 1}
    sols = []
    a = dict(given)

    def assign_all(letters, then):
        if not letters:
            then()
            return
        ch, rest = letters[0], letters[1:]
        if ch in a:
            assign_all(rest, then)
            return
        used = set(a.values())
        for d in range(10):
            if d in used or (d == 0 and ch in leading):
                continue
            a[ch] = d
            assign_all(rest, then)
            del a[ch]
            if len(sols) >= limit:
                return

    def column(i, carry):
        if i == width:
            if carry == 0:
                sols.append(dict(a))
            return

        def after():
            s = sum(a[ch] for ch in cols[i]) + carry
            digit, ch = s % 10, result[-1 - i] if i < len(result) else None
            if ch is None:
                return
            if ch in a:
                if a[ch] == digit:
                    column(i + 1, s // 10)
            elif digit not in a.values() and not (digit == 0 and ch in leading):
                a[ch] = digit
                column(i + 1, s // 10)
                del a[ch]

        assign_all(cols[i], after)

    column(0, 0)
    return sols


@pytest.mark.parametrize("level", LEVELS)
def test_cryptarithm(level):
    rng = random.Random(level)
    for data, entry in entries("cryptarithm", level, SEEDS):
        q = entry["question"]
        words, result, given = parse_crypt(q)
        oracle = {k: int(v) for k, v in re.findall(r"([A-Z])=(\d)", entry["answer"])}
        assert crypt_ok(words, result, given, oracle)
        agree(data, entry, entry["answer"], True, "oracle")
        sols = crypt_solve(words, result, given)
        assert "exactly one solution" in q
        assert len(sols) == 1, (level, entry["metadata"]["seed"], sols)
        keys = sorted(oracle)
        agree(data, entry, ", ".join(f"{k}={oracle[k]}" for k in keys), True, "letters in another order")
        for _ in range(4):
            t = dict(oracle)
            x, y = rng.sample(keys, 2)
            t[x], t[y] = t[y], t[x]
            agree(data, entry, ", ".join(f"{k}={t[k]}" for k in keys), crypt_ok(words, result, given, t), "swap")
        agree(data, entry, ", ".join(f"{k}={oracle[k]}" for k in keys[:-1]), False, "one letter missing")


# ---------------------------------------------------------------- self_reference


def parse_selfref(q):
    out = []
    for _num, text in re.findall(r"^(\d+)\. (.*)$", q, re.M):
        out.append(text)
    return out


def is_prime(k):
    return k > 1 and all(k % d for d in range(2, k))


def statement_holds(text, a):
    """Truth of one statement under assignment `a` (list of bools, statement i at a[i-1])."""
    t, f = sum(a), len(a) - sum(a)
    pats = [
        (r"Statement (\d+) is true", lambda m: a[int(m[1]) - 1]),
        (r"Statement (\d+) is false", lambda m: not a[int(m[1]) - 1]),
        (r"At least (\d+) of these statements (?:are|is) true", lambda m: t >= int(m[1])),
        (r"At most (\d+) of these statements (?:are|is) true", lambda m: t <= int(m[1])),
        (r"At least (\d+) of these statements (?:are|is) false", lambda m: f >= int(m[1])),
        (r"At most (\d+) of these statements (?:are|is) false", lambda m: f <= int(m[1])),
        (r"Exactly (\d+) of these statements (?:are|is) true", lambda m: t == int(m[1])),
        (r"Exactly (\d+) of these statements (?:are|is) false", lambda m: f == int(m[1])),
        (
            r"Either statement (\d+) or statement (\d+) is true, but not both",
            lambda m: a[int(m[1]) - 1] != a[int(m[2]) - 1],
        ),
        (
            r"If statement (\d+) is true, then statement (\d+) is (true|false)",
            lambda m: (not a[int(m[1]) - 1]) or (a[int(m[2]) - 1] == (m[3] == "true")),
        ),
        (r"The number of true statements is a prime number", lambda m: is_prime(t)),
        (r"The number of false statements is a prime number", lambda m: is_prime(f)),
        (r"The number of true statements is even \(zero counts as even\)", lambda m: t % 2 == 0),
        (r"The number of false statements is even \(zero counts as even\)", lambda m: f % 2 == 0),
        (r"The number of true statements is odd", lambda m: t % 2 == 1),
        (r"The number of false statements is odd", lambda m: f % 2 == 1),
    ]
    for pat, fn in pats:
        m = re.fullmatch(pat + r"\.", text)
        if m:
            return bool(fn(m))
    raise AssertionError(f"unparsed statement {text!r}")


@pytest.mark.parametrize("level", LEVELS)
def test_self_reference(level):
    rng = random.Random(level)
    for data, entry in entries("self_reference", level, SEEDS):
        stmts = parse_selfref(entry["question"])
        n = len(stmts)

        def ok(a, stmts=stmts):
            return all(statement_holds(s, a) == a[i] for i, s in enumerate(stmts))

        consistent = [list(a) for a in product((True, False), repeat=n) if ok(list(a))]
        assert consistent
        for a in consistent[:4]:
            agree(data, entry, ", ".join(f"{i + 1}: {'T' if v else 'F'}" for i, v in enumerate(a)), True, "consistent")
        for _ in range(8):
            a = [rng.random() < 0.5 for _ in range(n)]
            agree(data, entry, ", ".join(f"{i + 1}: {'T' if v else 'F'}" for i, v in enumerate(a)), ok(a), "random")


# ---------------------------------------------------------------- knights_knaves


def split_top(s, sep):
    """Every split of s at an occurrence of `sep` outside parentheses and quotes."""
    depth, quote, out = 0, False, []
    for i, ch in enumerate(s):
        if ch == "'" and (quote or i == 0 or s[i - 1] == " "):
            quote = not quote
        elif not quote and ch == "(":
            depth += 1
        elif not quote and ch == ")":
            depth -= 1
        elif depth == 0 and not quote and s.startswith(sep, i):
            out.append((s[:i], s[i + len(sep) :]))
    return out


class Unparsed(Exception):
    """A statement our grammar does not read."""


def kk_binary(text, sep, speaker, names):
    """The predicates of the two sides of the first split at `sep` where both sides parse."""
    for a, b in split_top(text, sep):
        try:
            return kk_parse(a, speaker, names), kk_parse(b, speaker, names)
        except Unparsed:
            continue
    return None


def strip_parens(s):
    s = s.strip()
    while s.startswith("(") and s.endswith(")"):
        depth = 0
        for i, ch in enumerate(s):
            depth += ch == "("
            depth -= ch == ")"
            if depth == 0 and i < len(s) - 1:
                return s
        s = s[1:-1].strip()
    return s


def kk_parse(s, speaker, names):
    """A predicate roles -> bool for statement `s` said by `speaker` (roles: name -> is knight)."""
    s = strip_parens(s)
    kind = {"knight": True, "knave": False, "knights": True, "knaves": False}
    who = {"I": speaker, **{n: n for n in names}}
    m = re.fullmatch(r"(\w+) would say '(.*)'", s)
    if m and m.group(1) in who:
        inner = kk_parse(m.group(2), who[m.group(1)], names)
        x = who[m.group(1)]
        return lambda r: r[x] == inner(r)
    m = re.fullmatch(r"(?i:either) (.*), but not both", s)
    if m and (pair := kk_binary(m.group(1), " or ", speaker, names)):
        fa, fb = pair
        return lambda r: fa(r) != fb(r)
    m = re.fullmatch(r"(?i:if) (.*)", s)
    if m and (pair := kk_binary(m.group(1), ", then ", speaker, names)):
        fa, fb = pair
        return lambda r: (not fa(r)) or fb(r)
    m = re.fullmatch(r"(?i:it is not the case that both) (.*)", s)
    if m and (pair := kk_binary(m.group(1), " and ", speaker, names)):
        fa, fb = pair
        return lambda r: not (fa(r) and fb(r))
    m = re.fullmatch(r"(?i:it is not the case that) (.*)", s)
    if m:
        fa = kk_parse(m.group(1), speaker, names)
        return lambda r: not fa(r)
    m = re.fullmatch(r"(?i:neither) (.*)", s)
    if m and (pair := kk_binary(m.group(1), " nor ", speaker, names)):
        fa, fb = pair
        return lambda r: not fa(r) and not fb(r)
    m = re.fullmatch(r"(I|\w+) (?:am|is) an? (knight|knave)", s)
    if m and m.group(1) in who:
        x, k = who[m.group(1)], kind[m.group(2)]
        return lambda r: r[x] == k
    m = re.fullmatch(r"(I|\w+) and (I|\w+) are of (the same kind|different kinds)", s)
    if m and m.group(1) in who and m.group(2) in who:
        x, y, same = who[m.group(1)], who[m.group(2)], m.group(3) == "the same kind"
        return lambda r: (r[x] == r[y]) == same
    m = re.fullmatch(
        r"(?i:(exactly|at least|at most)) (\d+) of us (?:are|is) (knights|knaves|a knight|a knave|knight|knave)", s
    )
    if m:
        op, k, want = m.group(1).capitalize(), int(m.group(2)), m.group(3).split()[-1] in ("knights", "knight")

        def count(r, op=op, k=k, want=want):
            c = sum(1 for v in r.values() if v == want)
            return c == k if op == "Exactly" else (c >= k if op == "At least" else c <= k)

        return count
    for sep, fn in (
        (" if and only if ", lambda a, b: a == b),
        (" or ", lambda a, b: a or b),
        (" and ", lambda a, b: a and b),
    ):
        pair = kk_binary(s, sep, speaker, names)
        if pair:
            fa, fb = pair
            return lambda r, fa=fa, fb=fb, fn=fn: fn(fa(r), fb(r))
    raise Unparsed(s)


@pytest.mark.parametrize("level", LEVELS)
def test_knights_knaves(level):
    for data, entry in entries("knights_knaves", level, SEEDS):
        q = entry["question"]
        names = re.search(r"inhabitants: (.*)\.$", q, re.M).group(1).split(", ")
        said = [(x, kk_parse(s, x, names)) for x, s in re.findall(r'^(\w+) says: "(.*)\."$', q, re.M)]
        assert said

        def ok(r, said=said):
            return all(f(r) == r[x] for x, f in said)

        good = []
        for bits in product((True, False), repeat=len(names)):
            r = dict(zip(names, bits, strict=True))
            if ok(r):
                good.append(r)
            answer = ", ".join(f"{x}: {'knight' if r[x] else 'knave'}" for x in names)
            agree(data, entry, answer, ok(r), "an assignment of roles")
        assert "Exactly one assignment" in q
        assert len(good) == 1, (level, entry["metadata"]["seed"], good)
        r = good[0]
        agree(data, entry, ", ".join(f"{x}: {'knight' if r[x] else 'knave'}" for x in names[::-1]), True, "reversed")


# ---------------------------------------------------------------- web_of_lies


def wol_claim(text, names):
    """A predicate truth -> bool for one quoted claim (truth: name -> tells the truth)."""
    m = re.fullmatch(r"(\w+) (tells the truth|lies)", text)
    if m and m.group(1) in names:
        x, t = m.group(1), m.group(2) == "tells the truth"
        return lambda tr: tr[x] == t
    m = re.fullmatch(
        r"(both|at least one of|at most one of|an odd number of|none of|neither|all of|exactly one of|"
        r"at least (\d+) of|at most (\d+) of|exactly (\d+) of) (.*) (lies|lie)",
        text,
    )
    assert m, f"unparsed claim {text!r}"
    group = re.split(r", | and | nor ", m.group(5))
    assert all(g in names for g in group), text
    q = m.group(1)
    k = int(m.group(2) or m.group(3) or m.group(4) or 0)

    def pred(tr, group=group, q=q, k=k):
        liars = sum(1 for g in group if not tr[g])
        return {
            "both": liars == len(group),
            "all of": liars == len(group),
            "at least one of": liars >= 1,
            "at most one of": liars <= 1,
            "an odd number of": liars % 2 == 1,
            "none of": liars == 0,
            "neither": liars == 0,
            "exactly one of": liars == 1,
        }.get(q, liars >= k if q.startswith("at least") else liars <= k if q.startswith("at most") else liars == k)

    return pred


@pytest.mark.parametrize("level", LEVELS)
def test_web_of_lies(level):
    rng = random.Random(level)
    for data, entry in entries("web_of_lies", level, SEEDS):
        q = entry["question"]
        names = re.search(r"Each of (.*) either", q).group(1).replace(" and ", ", ").split(", ")
        facts = [(x, t == "tells the truth") for x, t in re.findall(r"^(\w+) (tells the truth|lies)\.$", q, re.M)]
        claims = [(x, wol_claim(c, names)) for x, c in re.findall(r'^(\w+) says: "(.*)\."$', q, re.M)]

        def ok(tr, facts=facts, claims=claims):
            return all(tr[x] == t for x, t in facts) and all(f(tr) == tr[x] for x, f in claims)

        good = []
        for bits in product((True, False), repeat=len(names)):
            tr = dict(zip(names, bits, strict=True))
            if ok(tr):
                good.append(tr)
        assert "unique" in q
        assert len(good) == 1, (level, entry["metadata"]["seed"], good)
        agree(data, entry, entry["answer"], True, "oracle")
        for tr in [good[0]] + [{x: rng.random() < 0.5 for x in names} for _ in range(10)]:
            order = names[:]
            rng.shuffle(order)
            answer = ", ".join(f"{x}: {'truth' if tr[x] else 'lie'}" for x in order)
            agree(data, entry, answer, ok(tr), "an assignment")
