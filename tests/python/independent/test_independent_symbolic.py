"""Independent checks of differentiation, integration, term_rewriting and code_execution, from the
prompt text alone: formulas are read by our own parser and compared numerically (central differences
at several points), rewriting is simulated with the stated strategy, and the Python program is run;
gauntlet's verdict is compared with ours on the oracle answer, equivalent forms and near misses."""

from __future__ import annotations

import contextlib
import io
import math
import re

import pytest

from ._common import LEVELS, agree, entries

SEEDS = 3
POINTS = (0.31, 0.57, 0.83, 1.13, 1.41, 1.77)
FUNCS = {"sin": math.sin, "cos": math.cos, "ln": math.log, "exp": math.exp}


def body(q):
    return q.split("Think it through")[0]


def to_python(formula):
    """Our reading of the prompt's formula syntax as a Python expression in x (None if unreadable)."""
    toks = re.findall(r"\d+\.\d+|\d+|sin|cos|ln|exp|e|x|[-+*/^()]|\S", formula.replace(" ", ""))
    out = []
    for i, t in enumerate(toks):
        if t == "e" and i + 1 < len(toks) and toks[i + 1] == "^":
            t = "exp"
        elif t == "^" and out and out[-1] == "exp":
            continue
        elif t == "^":
            t = "**"
        elif t == "e":
            t = str(math.e)
        elif not re.fullmatch(r"\d+\.\d+|\d+|sin|cos|ln|exp|x|[-+*/()]", t):
            return None
        prev = out[-1] if out else None
        if prev and (re.fullmatch(r"[\d.]+|x|\)", prev)) and re.fullmatch(r"[\d.]+|x|\(|sin|cos|ln|exp", t):
            out.append("*")
        out.append(t)
    return " ".join(out)


def value(formula, x):
    expr = to_python(formula)
    if expr is None:
        return None
    try:
        return eval(expr, {"__builtins__": {}, **FUNCS}, {"x": x})
    except (ValueError, ZeroDivisionError, OverflowError, SyntaxError, TypeError):
        return None


MULTIPLE_OF_X = re.compile(r"-?(\d+(\.\d+)?(/\d+)?\*?)?x(/\d+)?|-?\(\d+/\d+\)\*?x")


def args_ok(formula):
    """The prompt's rule: the arguments of e^, exp, sin and cos are multiples of x."""
    f = formula.replace(" ", "")
    for m in re.finditer(r"(e\^|exp|sin|cos)\(", f):
        depth, i = 1, m.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(f[i], 0)
            i += 1
        if not MULTIPLE_OF_X.fullmatch(f[m.end() : i - 1]):
            return False
    return True


def close(a, b):
    return a is not None and b is not None and abs(a - b) <= 1e-5 * max(1.0, abs(a), abs(b))


def derivative(formula, x, h=1e-5):
    lo, hi = value(formula, x - h), value(formula, x + h)
    return None if lo is None or hi is None else (hi - lo) / (2 * h)


def is_derivative_of(cand, f):
    """cand(x) equals f'(x) at every test point (central differences)."""
    return args_ok(cand) and all(close(value(cand, x), derivative(f, x)) for x in POINTS)


def is_antiderivative_of(cand, f):
    """cand'(x) equals f(x) at every test point; the constant `+ C` is allowed."""
    cand = re.sub(r"\+\s*C\s*$", "", cand.strip())
    return args_ok(cand) and all(close(derivative(cand, x), value(f, x)) for x in POINTS)


def formula_of(q):
    return re.search(r"^f\(x\) = (.*)$", q, re.M).group(1)


@pytest.mark.parametrize("level", LEVELS)
def test_differentiation(level):
    for data, entry in entries("differentiation", level, SEEDS):
        f = formula_of(body(entry["question"]))
        oracle = entry["answer"]
        assert is_derivative_of(oracle, f), (f, oracle)
        agree(data, entry, oracle, True, "oracle")
        agree(data, entry, oracle.replace("e^(", "exp("), True, "exp(...) for e^(...)")
        agree(data, entry, re.sub(r"(\d)\*x", r"\1x", oracle), True, "implicit multiplication")
        for cand, what in (
            (f"{oracle} + 1", "plus 1"),
            (f"2*({oracle})", "doubled"),
            (f, "f itself"),
            (oracle.replace("x", "(x+1)", 1), "x shifted once"),
            (f"{oracle} + sin(2*x) - sin(2*x)", "sin(2*x) added and taken away"),
            (f"{oracle} + sin(x+1) - sin(x+1)", "sin(x+1) added and taken away (argument not a multiple of x)"),
        ):
            agree(data, entry, cand, is_derivative_of(cand, f), what)


@pytest.mark.parametrize("level", LEVELS)
def test_integration(level):
    for data, entry in entries("integration", level, SEEDS):
        f = formula_of(body(entry["question"]))
        oracle = entry["answer"]
        assert is_antiderivative_of(oracle, f), (f, oracle)
        agree(data, entry, oracle, True, "oracle")
        agree(data, entry, f"{oracle} + C", True, "+ C")
        agree(data, entry, f"{oracle} + 7", True, "another constant")
        agree(data, entry, oracle.replace("e^(", "exp("), True, "exp(...) for e^(...)")
        for cand, what in (
            (f"2*({oracle})", "doubled"),
            (f"{oracle} + x", "plus x"),
            (f, "f itself"),
            (oracle.replace("x", "(x+1)", 1), "x shifted once"),
            (f"{oracle} + cos(x+1) - cos(x+1)", "cos(x+1) added and taken away (argument not a multiple of x)"),
            (f"{oracle} + e^(0*x)", "the constant e^(0*x)"),
        ):
            agree(data, entry, cand, is_antiderivative_of(cand, f), what)


# ---------------------------------------------------------------- term_rewriting


def rewrite(start, rules, cap=100_000):
    s = start
    for _ in range(cap):
        for lhs, rhs in rules:
            i = s.find(lhs)
            if i >= 0:
                s = s[:i] + rhs + s[i + len(lhs) :]
                break
        else:
            return s
    raise AssertionError("no normal form within the step cap")


@pytest.mark.parametrize("level", LEVELS)
def test_term_rewriting(level):
    for data, entry in entries("term_rewriting", level, SEEDS + 2):
        q = body(entry["question"])
        rules = [(lhs, "" if rhs == "(empty)" else rhs) for lhs, rhs in re.findall(r"^\d+\. (\S+) -> (\S+)$", q, re.M)]
        start = re.search(r"^Start: (\S+)$", q, re.M).group(1)
        mine = rewrite(start, rules)
        assert mine, "empty normal form: the answer format does not say how to write it"
        agree(data, entry, mine, True, "our normal form")
        agree(data, entry, mine[:-1], False, "last letter dropped")
        agree(data, entry, mine[::-1], mine == mine[::-1], "reversed")
        agree(data, entry, start, start == mine, "the start string")
        # the same rules applied in another order (last rule first) usually reach another string
        other = rewrite(start, rules[::-1])
        agree(data, entry, other, other == mine, "normal form under the reversed rule order")


# ---------------------------------------------------------------- code_execution


@pytest.mark.parametrize("level", LEVELS)
def test_code_execution(level):
    for data, entry in entries("code_execution", level, SEEDS + 2):
        q = body(entry["question"])
        code = re.search(r"```python\n(.*?)```", q, re.S).group(1)
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            exec(code, {})  # the program is the prompt's own Python
        printed = buf.getvalue().split()
        assert all(re.fullmatch(r"-?\d+", t) for t in printed), "a printed value is not an integer"
        mine = " ".join(printed)
        agree(data, entry, mine, True, "the program's output")
        agree(data, entry, "\n".join(printed), True, "one value per line")
        agree(data, entry, ", ".join(printed), True, "comma separated")
        if printed:
            agree(data, entry, " ".join(printed[:-1]), False, "last value dropped")
            agree(data, entry, " ".join([*printed[:-1], str(int(printed[-1]) + 1)]), False, "last value off by one")
            agree(data, entry, " ".join(printed[::-1]), printed == printed[::-1], "reversed")
