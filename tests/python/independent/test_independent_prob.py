"""Independent checks of dice_probability, urn_probability and combinatorics, from the prompt text
alone: exact values by our own enumeration, compared with gauntlet's verdicts; also the value as
an unreduced fraction (the prompts ask for "the exact probability as a fraction", not for lowest
terms)."""

from __future__ import annotations

import re
from fractions import Fraction
from itertools import product
from math import comb, factorial

import pytest

from ._common import LEVELS, agree, entries

SEEDS = 3


def body(q):
    return q.split("Think it through")[0]


def check_fraction(data, entry, p):
    agree(data, entry, f"{p.numerator}/{p.denominator}", True, "our exact value")
    agree(data, entry, f"{3 * p.numerator}/{3 * p.denominator}", True, "the same value, not in lowest terms")
    agree(data, entry, f"{p.numerator + 1}/{p.denominator}", False, "numerator + 1")


@pytest.mark.parametrize("level", LEVELS)
def test_dice_probability(level):
    for data, entry in entries("dice_probability", level, SEEDS):
        q = body(entry["question"])
        dice = [int(x) for x in re.findall(r"\bd(\d+)\b", q.split("(a dN")[0].split("(a d")[0])]
        dist = {0: 1}
        for n in dice:
            new: dict[int, int] = {}
            for s, c in dist.items():
                for f in range(1, n + 1):
                    new[s + f] = new.get(s + f, 0) + c
            dist = new
        total = 1
        for n in dice:
            total *= n
        if m := re.search(r"sum of the dice is exactly (\d+)", q):
            ok = {int(m.group(1))}
        elif m := re.search(r"sum of the dice is at least (\d+)", q):
            ok = {s for s in dist if s >= int(m.group(1))}
        elif m := re.search(r"sum of the dice is at most (\d+)", q):
            ok = {s for s in dist if s <= int(m.group(1))}
        else:
            m = re.search(r"sum of the dice is between (\d+) and (\d+) \(both included\)", q)
            ok = {s for s in dist if int(m.group(1)) <= s <= int(m.group(2))}
        check_fraction(data, entry, Fraction(sum(dist.get(s, 0) for s in ok), total))


@pytest.mark.parametrize("level", LEVELS)
def test_urn_probability(level):
    for data, entry in entries("urn_probability", level, SEEDS):
        q = body(entry["question"])
        counts = {c: int(n) for n, c in re.findall(r"(\d+) (red|blue|green|yellow|white)\b(?! ball)", q.split(". ")[0])}
        draw = int(re.search(r"(\d+) balls are drawn", q).group(1))
        colours = list(counts)
        cond = q.split("probability that ")[1]

        def holds(k, cond=cond, colours=colours):
            if m := re.fullmatch(r"exactly (\d+) of the drawn balls are (\w+)\?\s*", cond):
                return k[m.group(2)] == int(m.group(1))
            if m := re.fullmatch(r"at least one of the drawn balls is (\w+)\?\s*", cond):
                return k[m.group(1)] >= 1
            if m := re.fullmatch(r"exactly (\d+) (\w+) balls? and exactly (\d+) (\w+) balls? are drawn\?\s*", cond):
                return k[m.group(2)] == int(m.group(1)) and k[m.group(4)] == int(m.group(3))
            if re.fullmatch(r"the drawn balls include at least one ball of every colour\?\s*", cond):
                return all(k[c] >= 1 for c in colours)
            if m := re.fullmatch(r"the drawn balls show exactly (\d+) different colours\?\s*", cond):
                return sum(1 for c in colours if k[c]) == int(m.group(1))
            raise AssertionError(cond)

        good = 0
        for ks in product(*(range(counts[c] + 1) for c in colours)):
            if sum(ks) == draw:
                k = dict(zip(colours, ks, strict=True))
                if holds(k):
                    w = 1
                    for c in colours:
                        w *= comb(counts[c], k[c])
                    good += w
        check_fraction(data, entry, Fraction(good, comb(sum(counts.values()), draw)))


@pytest.mark.parametrize("level", LEVELS)
def test_combinatorics(level):
    for data, entry in entries("combinatorics", level, SEEDS):
        q = body(entry["question"])
        if m := re.search(r"committee of (\d+) people be chosen from (\d+) people", q):
            n = comb(int(m.group(2)), int(m.group(1)))
        elif m := re.search(r"arranging all of these letters: ([A-Z, ]+)\?", q):
            letters = m.group(1).split(", ")
            n = factorial(len(letters))
            for ch in set(letters):
                n //= factorial(letters.count(ch))
        elif m := re.search(r"starts at \((\d+),(\d+)\) and ends at \((\d+),(\d+)\)", q):
            x0, y0, x1, y1 = map(int, m.groups())
            bad = {
                (int(a), int(b))
                for a, b in re.findall(r"\((\d+),(\d+)\)", q.split("avoid every one of these points:")[1])
            }
            ways = {}
            for x in range(x0, x1 + 1):
                for y in range(y0, y1 + 1):
                    if (x, y) in bad:
                        ways[(x, y)] = 0
                    elif (x, y) == (x0, y0):
                        ways[(x, y)] = 1
                    else:
                        ways[(x, y)] = ways.get((x - 1, y), 0) + ways.get((x, y - 1), 0)
            n = ways[(x1, y1)]
        else:
            m = re.search(r"does ([x\d + ]+) = (\d+) have, with (.*)\?", q)
            total = int(m.group(2))
            bounds = [(int(a), int(b)) for a, b in re.findall(r"(-?\d+) <= x\d+ <= (-?\d+)", m.group(3))]
            n = sum(1 for xs in product(*(range(a, b + 1) for a, b in bounds)) if sum(xs) == total)
        agree(data, entry, str(n), True, "our count")
        agree(data, entry, str(n + 1), False, "count + 1")
