"""Independent checks of stack_permutation, rush_hour, peg_solitaire and sokoban, from the prompt
text alone: our own simulator of the moves as the prompt states them, our own search for other
valid plans (and, for rush_hour, the stated optimum), and every verdict compared with gauntlet's."""

from __future__ import annotations

import random
import re

import pytest

from ._common import LEVELS, agree, entries
from .test_independent_plans import bfs

SEEDS = 3


# ---------------------------------------------------------------- stack_permutation


def parse_stacks_task(q):
    inp = re.search(r"^Input \(front first\): (.*)$", q, re.M).group(1).split()
    out = re.search(r"^Target output: (.*)$", q, re.M).group(1).split()
    two = "There are two stacks" in q
    m = re.search(r"holds at most (\d+) items", q)
    cap = int(m.group(1)) if m else 10**9
    return inp, out, two, cap


def stack_run(inp, out, two, cap, ops):
    stacks = {"1": [], "2": []}
    i, produced = 0, []
    for op in ops:
        m = re.fullmatch(r"(push|pop)([12]?)", op)
        if not m or (two and not m.group(2)) or (not two and m.group(2)):
            return False
        s = stacks[m.group(2) or "1"]
        if m.group(1) == "push":
            if i >= len(inp) or len(s) >= cap:
                return False
            s.append(inp[i])
            i += 1
        else:
            if not s:
                return False
            produced.append(s.pop())
    return produced == out and i == len(inp) and not stacks["1"] and not stacks["2"]


def stack_solutions(inp, out, two, cap, limit=3):
    sols: list[list[str]] = []
    names = ["1", "2"] if two else [""]

    def rec(i, stacks, k, ops):
        if len(sols) >= limit:
            return
        if k == len(out):
            sols.append(ops[:])
            return
        for n, s in zip(names, stacks, strict=True):
            if s and s[-1] == out[k]:
                rec(i, [x[:-1] if x is s else x for x in stacks], k + 1, [*ops, f"pop{n}"])
        if i < len(inp):
            for n, s in zip(names, stacks, strict=True):
                if len(s) < cap:
                    rec(i + 1, [[*x, inp[i]] if x is s else x for x in stacks], k, [*ops, f"push{n}"])

    rec(0, [[] for _ in names], 0, [])
    return sols


@pytest.mark.parametrize("level", LEVELS)
def test_stack_permutation(level):
    rng = random.Random(level)
    for data, entry in entries("stack_permutation", level, SEEDS):
        inp, out, two, cap = parse_stacks_task(entry["question"])
        oracle = entry["answer"].split()
        assert stack_run(inp, out, two, cap, oracle)
        agree(data, entry, entry["answer"], True, "oracle")
        for s in stack_solutions(inp, out, two, cap):
            agree(data, entry, " ".join(s), True, "another valid sequence")
        for _ in range(5):
            p = oracle[:]
            i = rng.randrange(len(p) - 1)
            p[i], p[i + 1] = p[i + 1], p[i]
            agree(data, entry, " ".join(p), stack_run(inp, out, two, cap, p), "two operations swapped")
        agree(data, entry, " ".join(oracle[:-1]), False, "last operation dropped")


# ---------------------------------------------------------------- rush_hour


def parse_rush(q):
    rows = []
    for ln in q.splitlines():
        toks = ln.split()
        if toks and all(len(t) == 1 and (t == "." or t.isalpha()) for t in toks) and len(toks) >= 5:
            rows.append(toks)
    n = len(rows)
    cars: dict[str, list[tuple[int, int]]] = {}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch != ".":
                cars.setdefault(ch, []).append((r, c))
    info = {}
    for ch, cells in cars.items():
        horiz = len({r for r, _ in cells}) == 1
        info[ch] = (horiz, len(cells))
    state = tuple(sorted((ch, min(cells)) for ch, cells in cars.items()))
    return n, info, state


def rush_cells(info, ch, pos):
    horiz, k = info[ch]
    return [(pos[0], pos[1] + i) if horiz else (pos[0] + i, pos[1]) for i in range(k)]


def rush_step(n, info, state, move):
    m = re.fullmatch(r"([A-Z])([+-])(\d+)", move)
    if not m or m.group(1) not in info or int(m.group(3)) == 0:
        return None
    ch, sign, d = m.group(1), 1 if m.group(2) == "+" else -1, int(m.group(3))
    pos = dict(state)
    occupied = {cell for c, p in pos.items() if c != ch for cell in rush_cells(info, c, p)}
    horiz = info[ch][0]
    cur = pos[ch]
    for _ in range(d):
        cur = (cur[0], cur[1] + sign) if horiz else (cur[0] + sign, cur[1])
        cells = rush_cells(info, ch, cur)
        if any(not (0 <= r < n and 0 <= c < n) or (r, c) in occupied for r, c in cells):
            return None
    pos[ch] = cur
    return tuple(sorted(pos.items()))


def rush_successors(n, info, state):
    """{move: next state} for every legal slide (occupancy computed once)."""
    pos = dict(state)
    cells_of = {c: rush_cells(info, c, p) for c, p in pos.items()}
    occupied = {cell for cells in cells_of.values() for cell in cells}
    out = {}
    for ch, p in pos.items():
        horiz, k = info[ch]
        own = set(cells_of[ch])
        for sign in (1, -1):
            for d in range(1, n):
                lead = (
                    (p[0], p[1] + (k - 1 if sign > 0 else 0) + sign * d)
                    if horiz
                    else (
                        p[0] + (k - 1 if sign > 0 else 0) + sign * d,
                        p[1],
                    )
                )
                if not (0 <= lead[0] < n and 0 <= lead[1] < n) or (lead in occupied and lead not in own):
                    break
                np_ = (p[0], p[1] + sign * d) if horiz else (p[0] + sign * d, p[1])
                nxt = dict(pos)
                nxt[ch] = np_
                out[f"{ch}{'+' if sign > 0 else '-'}{d}"] = tuple(sorted(nxt.items()))
    return out


def rush_bfs(n, info, start, goal):
    cache: dict = {}

    def moves(s):
        cache[s] = rush_successors(n, info, s)
        return list(cache[s])

    return bfs(start, goal, moves, lambda s, m: cache[s][m])


@pytest.mark.parametrize("level", LEVELS)
def test_rush_hour(level):
    rng = random.Random(level)
    for data, entry in entries("rush_hour", level, SEEDS):
        q = entry["question"]
        n, info, start = parse_rush(q)
        budget = int(re.search(r"at most (\d+) moves", q).group(1))
        opt = int(re.search(r"shortest plan has (\d+)", q).group(1))
        row_x = start[[c for c, _ in start].index("X")][1][0]

        def goal(s, row_x=row_x, n=n):
            return dict(s)["X"] == (row_x, n - 2)

        def ok(plan, start=start, budget=budget, n=n, info=info, goal=goal):
            s = start
            for m in plan:
                s = rush_step(n, info, s, m)
                if s is None:
                    return False
            return len(plan) <= budget and goal(s)

        oracle = [m.strip() for m in entry["answer"].split(",")]
        assert ok(oracle)
        agree(data, entry, entry["answer"], True, "oracle")
        mine = rush_bfs(n, info, start, goal)
        assert len(mine) == opt, (level, entry["metadata"]["seed"], opt, len(mine))
        agree(data, entry, ", ".join(mine), True, "our own shortest plan")
        last = oracle[-1]
        m = re.fullmatch(r"X\+(\d+)", last)
        if m and int(m.group(1)) > 1:
            p = [*oracle[:-1], "X+1", f"X+{int(m.group(1)) - 1}"]
            agree(data, entry, ", ".join(p), ok(p), "last slide split in two")
        for _ in range(4):
            p = oracle[:]
            i = rng.randrange(len(p))
            p[i] = p[i][:-1] + str(int(p[i][-1]) % 3 + 1)
            agree(data, entry, ", ".join(p), ok(p), "one distance changed")
        agree(data, entry, ", ".join(oracle[:-1]), False, "last move dropped")


# ---------------------------------------------------------------- peg_solitaire


def parse_pegs(q):
    lines = q.splitlines()
    i = next(k for k, ln in enumerate(lines) if re.fullmatch(r"\s+a( [a-z])+", ln))
    cols = lines[i].split()
    board = {}
    for ln in lines[i + 1 :]:
        toks = ln.split()
        if not toks or not toks[0].isdigit():
            break
        for c, t in zip(cols, toks[1:], strict=True):
            if t != "#":
                board[f"{c}{toks[0]}"] = t == "o"
    return board


def peg_jump(board, move):
    m = re.fullmatch(r"([a-z])(\d+)-([a-z])(\d+)", move)
    if not m:
        return None
    c1, r1, c2, r2 = ord(m.group(1)), int(m.group(2)), ord(m.group(3)), int(m.group(4))
    if sorted((abs(c1 - c2), abs(r1 - r2))) != [0, 2]:
        return None
    mid = f"{chr((c1 + c2) // 2)}{(r1 + r2) // 2}"
    a, b = f"{chr(c1)}{r1}", f"{chr(c2)}{r2}"
    if not (board.get(a) and board.get(mid) and board.get(b) is False):
        return None
    nb = dict(board)
    nb[a], nb[mid], nb[b] = False, False, True
    return nb


def peg_ok(board, plan):
    for m in plan:
        board = peg_jump(board, m)
        if board is None:
            return False
    return sum(board.values()) == 1


def peg_all_jumps(board):
    out = []
    for cell, full in board.items():
        if full:
            c, r = ord(cell[0]), int(cell[1:])
            for dc, dr in ((2, 0), (-2, 0), (0, 2), (0, -2)):
                mv = f"{cell}-{chr(c + dc)}{r + dr}"
                if peg_jump(board, mv) is not None:
                    out.append(mv)
    return out


def peg_search(board, avoid, budget=5000):
    """A winning jump sequence different from `avoid`, by DFS with a dead-state memo."""
    dead: set[frozenset] = set()
    count = 0

    def rec(b, path):
        nonlocal count
        count += 1
        if count > budget:
            return None
        if sum(b.values()) == 1:
            return path if path != avoid else None
        key = frozenset(k for k, v in b.items() if v)
        if key in dead:
            return None
        for mv in peg_all_jumps(b):
            r = rec(peg_jump(b, mv), [*path, mv])
            if r:
                return r
        dead.add(key)
        return None

    return rec(board, [])


@pytest.mark.parametrize("level", LEVELS)
def test_peg_solitaire(level):
    rng = random.Random(level)
    for data, entry in entries("peg_solitaire", level, SEEDS):
        board = parse_pegs(entry["question"])
        oracle = [m.strip() for m in entry["answer"].split(",")]
        assert peg_ok(board, oracle)
        agree(data, entry, entry["answer"], True, "oracle")
        other = peg_search(board, oracle)
        if other:
            assert peg_ok(board, other)
            agree(data, entry, ", ".join(other), True, "another winning sequence")
        for _ in range(3):
            p = oracle[:]
            i = rng.randrange(len(p) - 1)
            p[i], p[i + 1] = p[i + 1], p[i]
            agree(data, entry, ", ".join(p), peg_ok(board, p), "two jumps swapped")
        agree(data, entry, ", ".join(oracle[:-1]), False, "last jump dropped")


# ---------------------------------------------------------------- sokoban

MOVES = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}


def parse_sokoban(q):
    rows = [ln for ln in q.splitlines() if re.fullmatch(r"[#_.$*@+]+", ln) and ln.startswith("#")]
    walls, goals, boxes, player = set(), set(), set(), None
    for r, ln in enumerate(rows):
        for c, ch in enumerate(ln):
            if ch == "#":
                walls.add((r, c))
            if ch in ".*+":
                goals.add((r, c))
            if ch in "$*":
                boxes.add((r, c))
            if ch in "@+":
                player = (r, c)
    return walls, goals, frozenset(boxes), player


def sokoban_step(walls, state, m):
    player, boxes = state
    dr, dc = MOVES[m]
    t = (player[0] + dr, player[1] + dc)
    if t in walls:
        return None
    if t in boxes:
        b = (t[0] + dr, t[1] + dc)
        if b in walls or b in boxes:
            return None
        boxes = (boxes - {t}) | {b}
    return (t, frozenset(boxes))


def sokoban_ok(walls, goals, start, plan):
    s = start
    for m in plan:
        s = sokoban_step(walls, s, m)
        if s is None:
            return False
    return s[1] <= goals  # solved when every box stands on a goal


@pytest.mark.parametrize("level", LEVELS)
def test_sokoban(level):
    rng = random.Random(level)
    for data, entry in entries("sokoban", level, SEEDS):
        walls, goals, boxes, player = parse_sokoban(entry["question"])
        start = (player, boxes)
        oracle = list(entry["answer"].strip())
        assert sokoban_ok(walls, goals, start, oracle)
        agree(data, entry, entry["answer"], True, "oracle")
        agree(data, entry, " ".join(oracle), True, "moves separated by spaces")
        # a detour (a step and its way back without pushing) before the oracle's moves
        for a, b in (("U", "D"), ("D", "U"), ("L", "R"), ("R", "L")):
            s = sokoban_step(walls, start, a)
            if s is not None and s[1] == boxes:
                p = [a, b, *oracle]
                agree(data, entry, "".join(p), sokoban_ok(walls, goals, start, p), "detour first")
                break
        for _ in range(4):
            p = oracle[:]
            p[rng.randrange(len(p))] = rng.choice("UDLR")
            agree(data, entry, "".join(p), sokoban_ok(walls, goals, start, p), "one move changed")
        agree(data, entry, "".join(oracle[:-1]), sokoban_ok(walls, goals, start, oracle[:-1]), "last move dropped")
