"""Independent checks of number and algebra families (gcd_lcm, prime_factorization,
modular_arithmetic, linear_equation, linear_system, polynomial_roots, polynomial_division,
fraction_arithmetic), from the prompt text alone: our own exact computation of the answer, other
spellings the answer format allows, and wrong values, compared with gauntlet's verdicts."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from functools import reduce

import numpy as np
import pytest

from ._common import LEVELS, agree, entries

SEEDS = 3


def question_body(q):
    return q.split("Think it through")[0]


# ---------------------------------------------------------------- gcd_lcm


@pytest.mark.parametrize("level", LEVELS)
def test_gcd_lcm(level):
    for data, entry in entries("gcd_lcm", level, SEEDS):
        nums = [int(x) for x in re.search(r"these numbers: ([\d, ]+)\.", entry["question"]).group(1).split(", ")]
        g = reduce(math.gcd, nums)
        lcm = reduce(lambda a, b: a * b // math.gcd(a, b), nums)
        agree(data, entry, entry["answer"], entry["answer"].replace(" ", "") == f"gcd={g},lcm={lcm}", "oracle")
        agree(data, entry, f"lcm={lcm}, gcd={g}", True, "keys in the other order")
        agree(data, entry, f"gcd={g}, lcm={lcm + g}", False, "wrong lcm")
        agree(data, entry, f"gcd={g * 2}, lcm={lcm}", False, "wrong gcd")
        agree(data, entry, f"gcd={g}", False, "lcm missing")


# ---------------------------------------------------------------- prime_factorization


def is_prime(n):
    if n < 2:
        return False
    for p in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def factor_ok(n, text):
    total = 1
    for part in text.split("*"):
        m = re.fullmatch(r"\s*(\d+)(?:\^(\d+))?\s*", part)
        if not m or not is_prime(int(m.group(1))):
            return False
        total *= int(m.group(1)) ** int(m.group(2) or 1)
    return total == n


@pytest.mark.parametrize("level", LEVELS)
def test_prime_factorization(level):
    for data, entry in entries("prime_factorization", level, SEEDS):
        n = int(re.search(r"Write (\d+) as a product", entry["question"]).group(1))
        oracle = entry["answer"]
        assert factor_ok(n, oracle)
        agree(data, entry, oracle, True, "oracle")
        factors = []
        for part in oracle.split("*"):
            b, _, e = part.strip().partition("^")
            factors += [b] * int(e or 1)
        agree(data, entry, " * ".join(factors[::-1]), True, "factors reversed, powers written out")
        agree(data, entry, "*".join(factors), True, "no spaces")
        p = int(factors[0])
        agree(
            data, entry, " * ".join([str(p * p), *factors[2:]]) if len(factors) > 1 else str(p * p), False, "p*p as one"
        )
        agree(data, entry, " * ".join([*factors, "1"]), factor_ok(n, " * ".join([*factors, "1"])), "times 1")
        agree(data, entry, " * ".join([*factors, factors[0]]), False, "one factor too many")


# ---------------------------------------------------------------- modular_arithmetic


def modular_answer(q):
    body = question_body(q)
    m = re.search(r"Compute \((\d+) \* (\d+) \+ (\d+)\) mod (\d+)", body)
    if m:
        a, b, c, mod = map(int, m.groups())
        return (a * b + c) % mod, mod
    m = re.search(r"Compute (\d+)\^(\d+) mod (\d+)", body)
    if m:
        a, e, mod = map(int, m.groups())
        return pow(a, e, mod), mod
    m = re.search(r"inverse of (\d+) modulo (\d+)", body)
    if m:
        a, mod = map(int, m.groups())
        return pow(a, -1, mod), mod
    congr = [(int(a), int(b)) for a, b in re.findall(r"x ≡ (\d+) \(mod (\d+)\)", body)]
    assert congr, body
    x, mod = 0, 1
    for a, b in congr:  # merge x = x (mod mod) with x = a (mod b) by stepping through x + k*mod
        step = mod
        for _ in range(b):
            if x % b == a % b:
                break
            x += step
        else:
            return None, mod
        mod = mod * b // math.gcd(mod, b)
        x %= mod
    assert all(x % b == a % b for a, b in congr)
    return x, mod


@pytest.mark.parametrize("level", LEVELS)
def test_modular_arithmetic(level):
    for data, entry in entries("modular_arithmetic", level, SEEDS):
        x, mod = modular_answer(entry["question"])
        if x is None:
            continue
        agree(data, entry, entry["answer"], int(entry["answer"]) == x, "oracle")
        agree(data, entry, str(x + mod), False, "x + m (not in 0..m-1 / not smallest)")
        agree(data, entry, str((x + 1) % mod), False, "x + 1")


# ---------------------------------------------------------------- linear equations


def affine(expr, names):
    """Coefficients (per name) and constant of a linear expression with implicit products."""
    e = expr.replace("−", "-")
    e = re.sub(r"(\d)\s*([a-z(])", r"\1*\2", e)
    e = re.sub(r"\)\s*([a-z(\d])", r")*\1", e)

    def at(values):
        env = {k: Fraction(v) for k, v in values.items()}
        src = re.sub(r"(\d+)", r"Fraction(\1)", e)
        return eval(src, {"Fraction": Fraction, "__builtins__": {}}, env)

    zero = {k: 0 for k in names}
    c0 = at(zero)
    return {k: at({**zero, k: 1}) - c0 for k in names}, c0


def solve_linear(q):
    body = question_body(q)
    names = re.search(r"for ([a-z](?:, [a-z])*)[.:]?\s", body).group(1).split(", ")
    eqs = [ln for ln in body.splitlines() if "=" in ln and not ln.startswith(("Solve", "A number"))]
    rows = []
    for eq in eqs:
        lhs, rhs = eq.split("=")
        (a, c), (b, d) = affine(lhs, names), affine(rhs, names)
        rows.append([a[k] - b[k] for k in names] + [d - c])
    n = len(names)
    for col in range(n):  # Gauss-Jordan over the rationals
        piv = next(r for r in range(col, len(rows)) if rows[r][col] != 0)
        rows[col], rows[piv] = rows[piv], rows[col]
        rows[col] = [v / rows[col][col] for v in rows[col]]
        for r in range(len(rows)):
            if r != col and rows[r][col] != 0:
                f = rows[r][col]
                rows[r] = [v - f * w for v, w in zip(rows[r], rows[col], strict=True)]
    return {k: rows[i][n] for i, k in enumerate(names)}


def fmt_frac(v):
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


@pytest.mark.parametrize("name", ["linear_equation", "linear_system"])
@pytest.mark.parametrize("level", LEVELS)
def test_linear(name, level):
    for data, entry in entries(name, level, SEEDS):
        sol = solve_linear(entry["question"])
        mine = ", ".join(f"{k}={fmt_frac(v)}" for k, v in sol.items())
        agree(data, entry, mine, True, "our own solution")
        oracle = {k: Fraction(v) for k, v in re.findall(r"(\w+)=(-?[\d/]+)", entry["answer"])}
        assert oracle == sol, (entry["answer"], sol)
        agree(data, entry, ", ".join(f"{k}={fmt_frac(v)}" for k, v in list(sol.items())[::-1]), True, "reversed")
        k0 = next(iter(sol))
        wrong = dict(sol)
        wrong[k0] += 1
        agree(data, entry, ", ".join(f"{k}={fmt_frac(v)}" for k, v in wrong.items()), False, "one value off by 1")
        if sol[k0].denominator == 1:
            alt = ", ".join(f"{k}={fmt_frac(v)}" if k != k0 else f"{k}={2 * v.numerator}/2" for k, v in sol.items())
            agree(data, entry, alt, True, "an integer written as a fraction n/1 form 2n/2 (same value)")


# ---------------------------------------------------------------- polynomials


def poly_coeffs(text):
    """{degree: coefficient} of a polynomial like `36x^5 - 2x + 7` (Fractions)."""
    t = text.replace(" ", "").replace("−", "-")
    if t[0] not in "+-":
        t = "+" + t
    out: dict[int, Fraction] = {}
    for sign, coef, x, power in re.findall(r"([+-])(\d*(?:/\d+)?)(x?)(?:\^(\d+))?", t):
        if not coef and not x:
            continue
        c = Fraction(coef) if coef else Fraction(1)
        d = (int(power) if power else 1) if x else 0
        out[d] = out.get(d, 0) + (c if sign == "+" else -c)
    return out


def peval(p, x):
    return sum(c * x**d for d, c in p.items())


@pytest.mark.parametrize("level", LEVELS)
def test_polynomial_roots(level):
    for data, entry in entries("polynomial_roots", level, SEEDS):
        eq = next(ln for ln in entry["question"].splitlines() if ln.endswith("= 0"))
        p = poly_coeffs(eq[:-4])
        deg = max(p)
        a0 = next(p[d] for d in range(deg + 1) if p.get(d))
        low = min(d for d in p if p[d])
        cands = {Fraction(0)} if low > 0 else set()
        num, den = abs(int(p[low])), abs(int(p[deg]))
        for a in range(1, num + 1):
            if num % a == 0:
                for b in range(1, den + 1):
                    if den % b == 0:
                        cands |= {Fraction(a, b), Fraction(-a, b)}
        roots = sorted(r for r in cands if peval(p, r) == 0)
        assert a0
        # every real root is rational: deflate the rational roots (with multiplicity) and check the
        # quotient has no real root left (numerically; repeated roots are removed exactly first)
        rest = dict(p)
        for r in roots:
            while True:
                qd, rem = pdivmod(rest, {1: Fraction(1), 0: -r})
                if any(rem.values()):
                    break
                rest = qd
        if rest and max(rest) > 0:
            numeric = np.roots([float(rest.get(d, 0)) for d in range(max(rest), -1, -1)])
            assert all(abs(z.imag) > 1e-7 for z in numeric), ("an irrational real root?", eq, numeric, roots)
        agree(data, entry, ", ".join(fmt_frac(r) for r in roots), True, "our rational roots")
        agree(data, entry, ", ".join(fmt_frac(r) for r in roots[::-1]), True, "reversed")
        if roots:
            agree(data, entry, ", ".join(fmt_frac(r) for r in [*roots, roots[0]]), False, "a root listed twice")
            agree(data, entry, ", ".join(fmt_frac(r) for r in roots[1:]) or "none", False, "a root missing")
            agree(data, entry, ", ".join(fmt_frac(r) for r in [*roots, roots[0] + 1]), False, "an extra number")


def poly_str(p):
    terms = []
    for d in sorted(p, reverse=True):
        c = p[d]
        if c == 0:
            continue
        mag = abs(c)
        body = "x" if d == 1 else f"x^{d}" if d > 1 else ""
        coef = "" if mag == 1 and d > 0 else fmt_frac(mag)
        terms.append(("-" if c < 0 else "+", coef + body))
    if not terms:
        return "0"
    s = ("-" if terms[0][0] == "-" else "") + terms[0][1]
    for sign, t in terms[1:]:
        s += f" {sign} {t}"
    return s


def pdivmod(p, d):
    p = dict(p)
    q: dict[int, Fraction] = {}
    dd = max(k for k in d if d[k])
    while p and max((k for k in p if p[k]), default=-1) >= dd:
        k = max(k for k in p if p[k])
        c = Fraction(p[k]) / d[dd]
        q[k - dd] = c
        for j, v in d.items():
            p[j + k - dd] = p.get(j + k - dd, 0) - c * v
        p = {j: v for j, v in p.items() if v}
    return q, p


@pytest.mark.parametrize("level", LEVELS)
def test_polynomial_division(level):
    for data, entry in entries("polynomial_division", level, SEEDS):
        m = re.search(r"Divide p\(x\) = (.*) by d\(x\) = (.*?)\. Find", entry["question"])
        p, d = poly_coeffs(m.group(1)), poly_coeffs(m.group(2))
        q, r = pdivmod(p, d)
        agree(data, entry, f"q={poly_str(q)}, r={poly_str(r)}", True, "our own quotient and remainder")
        q2 = dict(q)
        q2[0] = q2.get(0, 0) + 1
        agree(data, entry, f"q={poly_str(q2)}, r={poly_str(r)}", False, "quotient off by 1")
        r2 = {k: v for k, v in r.items()}
        r2[0] = r2.get(0, 0) + 1
        agree(data, entry, f"q={poly_str(q)}, r={poly_str(r2)}", False, "remainder off by 1")


# ---------------------------------------------------------------- fraction_arithmetic


@pytest.mark.parametrize("level", LEVELS)
def test_fraction_arithmetic(level):
    for data, entry in entries("fraction_arithmetic", level, SEEDS):
        body = question_body(entry["question"])
        expr = next(ln for ln in body.splitlines() if re.fullmatch(r"[\d/()+\-* ]+", ln.strip()) and "/" in ln)
        src = re.sub(r"(\d+)", r"Fraction(\1)", expr)
        v = eval(src, {"Fraction": Fraction, "__builtins__": {}})
        agree(data, entry, fmt_frac(v), True, "our own value")
        agree(data, entry, entry["answer"], fmt_frac(v) == entry["answer"], "oracle")
        agree(data, entry, f"{2 * v.numerator}/{2 * v.denominator}", False, "not in lowest terms (prompt asks lowest)")
        agree(data, entry, fmt_frac(v + Fraction(1, v.denominator + 1)), False, "wrong value")
