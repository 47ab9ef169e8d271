"""Independent checks of families whose answer is computed (boolean_expressions, dyck_language,
dyck_error, game_of_life, atbash, bitwise_arithmetic), from the prompt text alone: our own
evaluation of what the prompt asks, compared with gauntlet's verdicts on it and on wrong answers."""

from __future__ import annotations

import ast
import random
import re

import pytest

from ._common import LEVELS, agree, entries

SEEDS = 3
PAIRS = {")": "(", "]": "[", "}": "{", ">": "<"}
CLOSE = {v: k for k, v in PAIRS.items()}


@pytest.mark.parametrize("level", LEVELS)
def test_boolean_expressions(level):
    for data, entry in entries("boolean_expressions", level, SEEDS):
        exprs = re.findall(r"^(\d+)\. (.*)$", entry["question"], re.M)
        vals = {}
        for k, e in exprs:
            assert re.fullmatch(r"[()a-zA-Z ]+", e) and set(re.findall(r"[a-zA-Z]+", e)) <= {
                "True",
                "False",
                "not",
                "and",
                "or",
            }
            vals[k] = eval(e, {"__builtins__": {}})  # only True/False/not/and/or/parentheses (checked above)
        mine = ", ".join(f"{k}: {v}" for k, v in vals.items())
        agree(data, entry, mine, True, "our evaluation")
        k0 = next(iter(vals))
        flipped = ", ".join(f"{k}: {(not v) if k == k0 else v}" for k, v in vals.items())
        agree(data, entry, flipped, False, "first value flipped")


@pytest.mark.parametrize("level", LEVELS)
def test_dyck_language(level):
    for data, entry in entries("dyck_language", level, SEEDS):
        seq = re.search(r"^Sequence: (.*)$", entry["question"], re.M).group(1).split()
        stack = []
        for b in seq:
            if b in CLOSE:
                stack.append(b)
            else:
                assert stack and stack[-1] == PAIRS[b]
                stack.pop()
        mine = [CLOSE[b] for b in reversed(stack)]
        agree(data, entry, " ".join(mine), True, "our completion")
        agree(data, entry, "".join(mine), True, "brackets written together")
        if len(mine) > 1:
            agree(data, entry, " ".join(mine[::-1]), mine[::-1] == mine, "reversed")
        agree(data, entry, " ".join([*mine, "(", ")"]), False, "balanced but not the fewest brackets")
        agree(data, entry, " ".join(mine[:-1]), False, "one bracket short")


@pytest.mark.parametrize("level", LEVELS)
def test_dyck_error(level):
    for data, entry in entries("dyck_error", level, SEEDS):
        seq_text = re.search(r"^Sequence: (.*)$", entry["question"], re.M).group(1)
        seq = [ch for ch in seq_text if ch in "()[]{}<>"]
        stack, first = [], None
        for i, b in enumerate(seq, start=1):
            if b in CLOSE:
                stack.append(b)
            elif not stack or stack[-1] != PAIRS[b]:
                first = i
                break
            else:
                stack.pop()
        assert first is not None
        agree(data, entry, str(first), True, "our first error")
        agree(data, entry, str(first + 1), False, "one later")
        agree(data, entry, str(first - 1), False, "one earlier")


@pytest.mark.parametrize("level", LEVELS)
def test_game_of_life(level):
    rng = random.Random(level)
    for data, entry in entries("game_of_life", level, SEEDS):
        q = entry["question"]
        gens = int(re.search(r"after (\d+) generations?", q).group(1)) if "generation" in q.split("Starting")[1] else 1
        block = q.split("Starting board:")[1].strip().split("\n\n")[0]
        b = [[int(x) for x in ln.split()] for ln in block.splitlines()]
        h, w = len(b), len(b[0])
        for _ in range(gens):
            nb = [[0] * w for _ in range(h)]
            for r in range(h):
                for c in range(w):
                    k = sum(
                        b[r + dr][c + dc]
                        for dr in (-1, 0, 1)
                        for dc in (-1, 0, 1)
                        if (dr, dc) != (0, 0) and 0 <= r + dr < h and 0 <= c + dc < w
                    )
                    nb[r][c] = 1 if k == 3 or (b[r][c] and k == 2) else 0
            b = nb
        agree(data, entry, "\n".join(" ".join(map(str, r)) for r in b), True, "our simulation")
        for _ in range(3):
            g = [r[:] for r in b]
            r, c = rng.randrange(h), rng.randrange(w)
            g[r][c] ^= 1
            agree(data, entry, "\n".join(" ".join(map(str, x)) for x in g), False, "one cell flipped")


@pytest.mark.parametrize("level", LEVELS)
def test_atbash(level):
    for data, entry in entries("atbash", level, SEEDS):
        ct = re.search(r"^Ciphertext: (.*)$", entry["question"], re.M).group(1)
        pt = "".join(chr(ord("Z") - (ord(ch) - ord("A"))) if ch.isalpha() else ch for ch in ct)
        agree(data, entry, pt, True, "our decryption")
        agree(data, entry, pt.replace(" ", ""), True, "spaces left out (the prompt allows it)")
        agree(data, entry, ct, ct == pt, "the ciphertext itself")
        i = next(k for k, ch in enumerate(pt) if ch.isalpha())
        wrong = pt[:i] + ("A" if pt[i] != "A" else "B") + pt[i + 1 :]
        agree(data, entry, wrong, False, "one letter changed")


def bit_eval(node, mask):
    """Value of a parsed expression over unsigned integers of the given mask's width."""
    if isinstance(node, ast.Constant):
        return node.value & mask
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
        return ~bit_eval(node.operand, mask) & mask
    if isinstance(node, ast.BinOp):
        a, b = bit_eval(node.left, mask), bit_eval(node.right, mask)
        ops = {
            ast.BitAnd: lambda: a & b,
            ast.BitOr: lambda: a | b,
            ast.BitXor: lambda: a ^ b,
            ast.LShift: lambda: a << b,
            ast.RShift: lambda: a >> b,
        }
        return ops[type(node.op)]() & mask
    raise AssertionError(ast.dump(node))


@pytest.mark.parametrize("level", LEVELS)
def test_bitwise_arithmetic(level):
    for data, entry in entries("bitwise_arithmetic", level, SEEDS):
        q = entry["question"]
        m = re.search(r"unsigned (\d+)-bit", q)
        assert m, q
        mask = (1 << int(m.group(1))) - 1
        body = q.split("Think it through")[0].splitlines()
        lines = [ln for ln in body if re.fullmatch(r"[\dxA-Fa-f&|^~<>() ]+", ln.strip())]
        assert len(lines) == 1, q
        v = bit_eval(ast.parse(lines[0].strip(), mode="eval").body, mask)
        agree(data, entry, str(v), True, "our evaluation")
        agree(data, entry, str(v + 1), False, "off by one")
