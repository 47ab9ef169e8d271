"""Independent check of rubiks_2x2, from the prompt text alone: the net is read into a 3-D sticker
model built from the prompt's description of the net and of the moves, answers are replayed on it,
the stated shortest length is confirmed by our own search where that is cheap, and gauntlet's
verdict is compared with ours on the oracle answer, padded answers and near misses."""

from __future__ import annotations

import random
import re

import pytest

from ._common import LEVELS, agree, entries

SEEDS = 3
AXES = {"U": (0, 1, 0), "D": (0, -1, 0), "R": (1, 0, 0), "L": (-1, 0, 0), "F": (0, 0, 1), "B": (0, 0, -1)}


def face_cell(face, r, c):
    """Cubie position (coordinates +-1; x right, y up, z towards the viewer) of cell (r, c) of a face
    as drawn in the net: every face seen from outside, L F R B with U above them, U's bottom row
    against F's top row and D's top row against F's bottom row."""
    a, b = 1 - 2 * r, -1 + 2 * c  # a: up the drawing, b: right along it
    return {
        "F": (b, a, 1),
        "R": (1, a, -b),
        "B": (-b, a, -1),
        "L": (-1, a, b),
        "U": (b, 1, -a),
        "D": (b, -1, a),
    }[face]


def parse_net(q):
    rows = [ln.split() for ln in q.splitlines() if re.fullmatch(r"[WYGBRO ]+", ln) and ln.strip()]
    assert [len(r) for r in rows] == [2, 2, 8, 8, 2, 2], rows
    state = {}
    for r in range(2):
        for c in range(2):
            state[(face_cell("U", r, c), AXES["U"])] = rows[r][c]
            state[(face_cell("D", r, c), AXES["D"])] = rows[4 + r][c]
            for k, face in enumerate("LFRB"):
                state[(face_cell(face, r, c), AXES[face])] = rows[2 + r][2 * k + c]
    return state


def rot(a, v):
    """v turned a quarter clockwise about the outward axis a, seen from outside: a(a.v) - a x v."""
    dot = sum(x * y for x, y in zip(a, v, strict=True))
    cross = (a[1] * v[2] - a[2] * v[1], a[2] * v[0] - a[0] * v[2], a[0] * v[1] - a[1] * v[0])
    return tuple(a[i] * dot - cross[i] for i in range(3))


def turn(state, face):
    a = AXES[face]
    out = {}
    for (pos, normal), colour in state.items():
        if sum(x * y for x, y in zip(a, pos, strict=True)) > 0:
            pos, normal = rot(a, pos), rot(a, normal)
        out[(pos, normal)] = colour
    return out


def apply(state, move):
    times = {"": 1, "2": 2, "'": 3}[move[1:]]
    for _ in range(times):
        state = turn(state, move[0])
    return state


def solved(state):
    return all(len({c for (_, n), c in state.items() if n == a}) == 1 for a in AXES.values())


MOVES = [f + s for f in "UDLRFB" for s in ("", "'", "2")]


def answer_ok(state, text, limit, exact=False):
    moves = text.split()
    if any(m not in MOVES for m in moves) or (limit is not None and len(moves) > limit):
        return False
    if exact and len(moves) != limit:
        return False
    for m in moves:
        state = apply(state, m)
    return solved(state)


def shortest_at_least(state, k):
    """No solution shorter than k moves (depth-first search to k - 1, no face twice in a row)."""

    def rec(s, depth, last):
        if solved(s):
            return True
        if depth == 0:
            return False
        return any(rec(apply(s, m), depth - 1, m[0]) for m in MOVES if m[0] != last)

    return not any(rec(state, d, "") for d in range(k))


@pytest.mark.parametrize("level", LEVELS)
def test_rubiks_2x2(level):
    rng = random.Random(level)
    for data, entry in entries("rubiks_2x2", level, SEEDS):
        q = entry["question"].split("Think it through")[0]
        state = parse_net(q)
        assert sorted(state.values()) == sorted("WYGBRO" * 4)
        m = re.search(r"(at most|exactly) (\d+) moves", q)
        limit = int(m.group(2)) if m else None
        exact = bool(m) and m.group(1) == "exactly"
        shortest = int(
            re.search(r"(?:the shortest solution has|a shortest solution: a sequence of exactly) (\d+) moves", q).group(
                1
            )
        )
        oracle = entry["answer"]
        ok = lambda text, s=state, n=limit, e=exact: answer_ok(s, text, n, e)  # noqa: E731
        assert ok(oracle)
        assert len(oracle.split()) == shortest or limit is not None
        if shortest <= 4:  # deeper searches are too slow in pure Python
            assert shortest_at_least(state, shortest), "a shorter solution exists"
        agree(data, entry, oracle, True, "oracle")
        moves = oracle.split()
        padded = " ".join([*moves, "U", "U'"])
        agree(data, entry, padded, ok(padded), "U U' appended")
        for extra in ("U D'", "R L'", "F2 B2"):  # a whole-cube turn made of two face turns
            turned = " ".join([*moves, extra])
            agree(data, entry, turned, ok(turned), f"{extra} appended (cube solved in another orientation)")
        split = " ".join(m if not m.endswith("2") else f"{m[0]} {m[0]}" for m in moves)
        agree(data, entry, split, ok(split), "each half turn as two quarter turns")
        agree(data, entry, " ".join(moves[:-1]), ok(" ".join(moves[:-1])), "last move dropped")
        i = rng.randrange(len(moves))
        for alt in ("", "'", "2"):
            cand = " ".join([*moves[:i], moves[i][0] + alt, *moves[i + 1 :]])
            agree(data, entry, cand, ok(cand), f"move {i + 1} as {moves[i][0] + alt}")
        rev = " ".join(moves[::-1])
        agree(data, entry, rev, ok(rev), "moves reversed")
        # the same solution seen from another side: a whole-cube turn is not a move
        agree(data, entry, oracle + " x", False, "a whole-cube rotation")
