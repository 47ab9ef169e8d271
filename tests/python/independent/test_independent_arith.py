"""Independent checks of game_of_24 and countdown, from the prompt text alone: our own expression
evaluator (exact fractions, only + - * / and parentheses, no unary minus, numbers used as the
rules allow), alternative expressions found by our own search, and near misses that break one rule
each (a number not given, a number used too often, unary minus, joined digits, a wrong value)."""

from __future__ import annotations

import ast
import re
from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest

from ._common import LEVELS, agree, entries

SEEDS = 3


def evaluate(expr: str):
    """(value, numbers used) of an expression over + - * / and parentheses, or None if the text
    uses anything else (unary minus, powers, other names, decimals) or divides by zero."""
    if not re.fullmatch(r"[\d+\-*/() ]+", expr) or "**" in expr or "//" in expr:
        return None
    try:
        tree = ast.parse(expr, mode="eval").body
    except SyntaxError:
        return None
    used: list[int] = []

    def ev(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            used.append(node.value)
            return Fraction(node.value)
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
            a, b = ev(node.left), ev(node.right)
            if a is None or b is None:
                return None
            if isinstance(node.op, ast.Add):
                return a + b
            if isinstance(node.op, ast.Sub):
                return a - b
            if isinstance(node.op, ast.Mult):
                return a * b
            return None if b == 0 else a / b
        return None

    v = ev(tree)
    if any(re.search(r"\b0\d", tok) for tok in re.findall(r"\d+", expr)):
        return None  # a leading zero would be a joined/changed number
    return None if v is None else (v, used)


def parse_numbers(q):
    nums = [int(x) for x in re.search(r"^Numbers: (.*)$", q, re.M).group(1).split()]
    target = int(re.search(r"^Target: (\d+)$", q, re.M).group(1))
    return nums, target


def expr_ok(expr, nums, target, all_once):
    r = evaluate(expr)
    if r is None:
        return False
    v, used = r
    have, want = Counter(used), Counter(nums)
    if all_once and have != want:
        return False
    if not all_once and any(have[k] > want[k] for k in have):
        return False
    return v == target


def search(nums, target, all_once, limit=3):
    """Some expressions reaching the target (exhaustive over pairwise combinations)."""
    found: list[str] = []

    def rec(items):
        if len(found) >= limit:
            return
        for v, e in items:
            if v == target and (not all_once or len(items) == 1) and e not in found:
                found.append(e)
        if len(items) == 1:
            return
        for i, j in combinations(range(len(items)), 2):
            (a, ea), (b, eb) = items[i], items[j]
            rest = [items[k] for k in range(len(items)) if k not in (i, j)]
            cands = [(a + b, f"({ea} + {eb})"), (a * b, f"({ea} * {eb})"), (a - b, f"({ea} - {eb})")]
            cands += [(b - a, f"({eb} - {ea})")]
            if b:
                cands.append((a / b, f"({ea} / {eb})"))
            if a:
                cands.append((b / a, f"({eb} / {ea})"))
            for c in cands:
                rec([*rest, c])
                if len(found) >= limit:
                    return

    rec([(Fraction(n), str(n)) for n in nums])
    return found


def run(name, level, all_once):
    for data, entry in entries(name, level, SEEDS):
        nums, target = parse_numbers(entry["question"])
        oracle = entry["answer"]
        assert expr_ok(oracle, nums, target, all_once), oracle
        agree(data, entry, oracle, True, "oracle")
        if len(nums) <= 4:
            for e in search(nums, target, all_once):
                assert expr_ok(e, nums, target, all_once)
                agree(data, entry, e, True, "another expression found by our search")
        agree(data, entry, f"({oracle})", True, "oracle in parentheses")
        misses = [
            f"{oracle} + 0",
            f"({oracle}) * 1",
            f"{oracle} + {nums[0]} - {nums[0]}",
            f"-{nums[0]} + {nums[0]} + ({oracle})",
            f"({oracle}) + 1",
            f"{target}",
            f"({oracle}) ** 1",
        ]
        a, b = nums[0], nums[1]
        misses.append(f"{a}{b}")
        for m in misses:
            agree(data, entry, m, expr_ok(m, nums, target, all_once), "near miss")


@pytest.mark.parametrize("level", LEVELS)
def test_game_of_24(level):
    run("game_of_24", level, True)


@pytest.mark.parametrize("level", LEVELS)
def test_countdown(level):
    run("countdown", level, False)
