"""Independent checks of syllogism, propositional_logic, circuit_logic and brainfuck, from the
prompt text alone: validity by our own Venn-region counter-model search, eliminations by our own
truth tables (any equivalent formula must pass), our own circuit simulator and interpreter."""

from __future__ import annotations

import random
import re
from itertools import product

import pytest

from ._common import LEVELS, agree, entries

SEEDS = 3


# ---------------------------------------------------------------- syllogism


def parse_stmt(text):
    for pat, kind in (
        (r"All (\w+) are (\w+)", "A"),
        (r"No (\w+) are (\w+)", "E"),
        (r"Some (\w+) are not (\w+)", "O"),
        (r"Some (\w+) are (\w+)", "I"),
    ):
        m = re.fullmatch(pat + r"\.", text.strip())
        if m:
            return kind, m.group(1), m.group(2)
    raise AssertionError(f"unparsed statement {text!r}")


def valid_argument(premises, conclusion):
    """Valid iff no model (a set of non-empty Venn regions) makes the premises true and the
    conclusion false (modern reading: universals carry no existential import)."""
    terms = sorted({t for _, a, b in [*premises, conclusion] for t in (a, b)})
    regions = [dict(zip(terms, bits, strict=True)) for bits in product((False, True), repeat=len(terms))]
    kind, a, b = conclusion
    negated = {"A": ("O", a, b), "E": ("I", a, b), "I": ("E", a, b), "O": ("A", a, b)}[kind]
    stmts = [*premises, negated]
    allowed = [
        r
        for r in regions
        if all(not (k == "A" and r[x] and not r[y]) and not (k == "E" and r[x] and r[y]) for k, x, y in stmts)
    ]
    for k, x, y in stmts:
        if k == "I" and not any(r[x] and r[y] for r in allowed):
            return True
        if k == "O" and not any(r[x] and not r[y] for r in allowed):
            return True
    return False


@pytest.mark.parametrize("level", LEVELS)
def test_syllogism(level):
    for data, entry in entries("syllogism", level, SEEDS):
        verdicts = {}
        for num, block in re.findall(r"^Argument (\d+):\n((?:  .*\n?)+)", entry["question"], re.M):
            lines = [ln.strip() for ln in block.strip().splitlines()]
            premises = [parse_stmt(ln) for ln in lines if not ln.startswith("Therefore")]
            conclusion = parse_stmt(lines[-1].removeprefix("Therefore: "))
            verdicts[num] = valid_argument(premises, conclusion)
        assert verdicts
        mine = ", ".join(f"{k}: {'valid' if v else 'invalid'}" for k, v in verdicts.items())
        agree(data, entry, mine, True, "our validity verdicts")
        k0 = next(iter(verdicts))
        flipped = ", ".join(f"{k}: {'valid' if v != (k == k0) else 'invalid'}" for k, v in verdicts.items())
        agree(data, entry, flipped, False, "first verdict flipped")


# ---------------------------------------------------------------- propositional_logic

TOKEN = re.compile(r"\s*(<->|->|[~&|^()]|[a-z]\w*)")


class Ambiguous(Exception):
    """Different binary connectives mixed without parentheses (the prompt states no precedence)."""


def parse_formula(text):
    toks = TOKEN.findall(text)
    assert "".join(toks) == text.replace(" ", ""), text
    pos = 0

    def atom():
        nonlocal pos
        t = toks[pos]
        pos += 1
        if t == "~":
            f = atom()
            return lambda v: not f(v)
        if t == "(":
            f = expr()
            assert toks[pos] == ")"
            pos += 1
            return f
        assert re.fullmatch(r"[a-z]\w*", t), t
        return lambda v: v[t]

    def expr():
        nonlocal pos
        parts, ops = [atom()], []
        while pos < len(toks) and toks[pos] in ("&", "|", "^", "->", "<->"):
            ops.append(toks[pos])
            pos += 1
            parts.append(atom())
        if len(set(ops)) > 1:
            raise Ambiguous(text)
        if not ops:
            return parts[0]
        op = ops[0]
        if op in ("->", "<->") and len(parts) > 2:
            raise Ambiguous(text)
        fns = {
            "&": lambda v: all(p(v) for p in parts),
            "|": lambda v: any(p(v) for p in parts),
            "^": lambda v: sum(p(v) for p in parts) % 2 == 1,
            "->": lambda v: (not parts[0](v)) or parts[1](v),
            "<->": lambda v: parts[0](v) == parts[1](v),
        }
        return fns[op]

    f = expr()
    assert pos == len(toks), text
    return f


@pytest.mark.parametrize("level", LEVELS)
def test_propositional_logic(level):
    for data, entry in entries("propositional_logic", level, SEEDS):
        q = entry["question"]
        allvars = re.search(r"variables ([a-z, ]+) are all true", q).group(1).replace(" ", "").split(",")
        keep = re.search(r"mentions only ([a-z, ]+) and is true", q).group(1).replace(" ", "").split(",")
        premises = [parse_formula(t) for t in re.findall(r"^\d+\. (.*)$", q, re.M)]
        elim = [x for x in allvars if x not in keep]
        table = {}
        for bits in product((False, True), repeat=len(keep)):
            v = dict(zip(keep, bits, strict=True))
            table[bits] = any(
                all(p({**v, **dict(zip(elim, e, strict=True))}) for p in premises)
                for e in product((False, True), repeat=len(elim))
            )
        oracle = parse_formula(entry["answer"])
        assert all(oracle(dict(zip(keep, b, strict=True))) == t for b, t in table.items()), entry["answer"]
        agree(data, entry, entry["answer"], True, "oracle")

        def lit(x, b):
            return x if b else f"~{x}"

        true_rows = [b for b, t in table.items() if t]
        false_rows = [b for b, t in table.items() if not t]
        if true_rows:
            dnf = " | ".join(
                "(" + " & ".join(lit(x, b) for x, b in zip(keep, row, strict=True)) + ")" for row in true_rows
            )
            agree(data, entry, dnf, True, "our DNF of the projection (an equivalent formula)")
            if len(true_rows) > 1:
                fewer = " | ".join(
                    "(" + " & ".join(lit(x, b) for x, b in zip(keep, row, strict=True)) + ")" for row in true_rows[1:]
                )
                agree(data, entry, fewer, False, "DNF missing one satisfying row")
        if false_rows:
            cnf = " & ".join(
                "(" + " | ".join(lit(x, not b) for x, b in zip(keep, row, strict=True)) + ")" for row in false_rows
            )
            agree(data, entry, cnf, True, "our CNF of the projection (an equivalent formula)")
        agree(data, entry, f"~({entry['answer']})", False, "the negation")


# ---------------------------------------------------------------- circuit_logic

GATES = {
    "AND": lambda xs: all(xs),
    "OR": lambda xs: any(xs),
    "XOR": lambda xs: sum(xs) % 2 == 1,
    "NAND": lambda xs: not all(xs),
    "NOR": lambda xs: not any(xs),
    "XNOR": lambda xs: sum(xs) % 2 == 0,
    "NOT": lambda xs: not xs[0],
}


def gate_value(g, vals, gates):
    """Value of wire `g` (memoised in `vals`)."""
    if g not in vals:
        op, args = gates[g]
        vals[g] = GATES[op]([gate_value(a, vals, gates) for a in args])
    return vals[g]


@pytest.mark.parametrize("level", LEVELS)
def test_circuit_logic(level):
    for data, entry in entries("circuit_logic", level, SEEDS):
        q = entry["question"]
        vals = {k: v == "1" for k, v in re.findall(r"(x\d+)=([01])", q.split("Gates:")[0])}
        gates = {
            g: (op, [a.strip() for a in args.split(",")])
            for g, op, args in re.findall(r"^(g\d+) = (\w+)\((.*)\)$", q, re.M)
        }

        outs = re.search(r"values of the outputs? ([g\d, and]+)\?", q).group(1).replace(" and ", ", ").split(", ")
        mine = {g: int(gate_value(g, vals, gates)) for g in outs}
        agree(data, entry, ", ".join(f"{g}={v}" for g, v in mine.items()), True, "our simulation")
        g0 = outs[0]
        agree(data, entry, ", ".join(f"{g}={v ^ (g == g0)}" for g, v in mine.items()), False, "first output flipped")


# ---------------------------------------------------------------- brainfuck


def run_bf(prog, cells=30000, max_steps=10_000_000):
    tape, ptr, pc, out, steps = [0] * cells, 0, 0, [], 0
    match, stack = {}, []
    for i, ch in enumerate(prog):
        if ch == "[":
            stack.append(i)
        elif ch == "]":
            j = stack.pop()
            match[i], match[j] = j, i
    while pc < len(prog):
        ch = prog[pc]
        if ch == "+":
            tape[ptr] = (tape[ptr] + 1) % 256
        elif ch == "-":
            tape[ptr] = (tape[ptr] - 1) % 256
        elif ch == ">":
            ptr += 1
        elif ch == "<":
            ptr -= 1
        elif ch == ".":
            out.append(chr(tape[ptr]))
        elif (ch == "[" and tape[ptr] == 0) or (ch == "]" and tape[ptr] != 0):
            pc = match[pc]
        pc += 1
        steps += 1
        assert steps < max_steps
    return "".join(out)


@pytest.mark.parametrize("level", LEVELS)
def test_brainfuck(level):
    rng = random.Random(level)
    for data, entry in entries("brainfuck", level, SEEDS):
        prog = next(ln for ln in entry["question"].splitlines() if ln and set(ln) <= set("+-<>[].,"))
        out = run_bf(prog)
        agree(data, entry, out, True, "our interpreter's output")
        i = rng.randrange(len(out))
        wrong = out[:i] + ("a" if out[i] != "a" else "b") + out[i + 1 :]
        agree(data, entry, wrong, False, "one character changed")
        agree(data, entry, out[:-1], False, "last character missing")
        if out.lower() != out or out.upper() != out:
            agree(data, entry, out.swapcase(), False, "case swapped (the output is exact)")
