"""Outside audit of ten breadth families, written from each family's `question` text alone.

rotten_oranges, eulerian_trail, set_operations, meeting_scheduling, thermometers, rectangle_count,
knapsack, car_painting, convex_hull, arc_2d: for each one we parse the prompt, compute answers with
our own solver (brute force at these sizes), look for a second valid answer where the prompt accepts
several, and compare gauntlet's verdict with ours on near misses and malformed answers. Where
gauntlet and the prompt part ways the test is an xfail(strict) naming the finding.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter, deque
from functools import cache

import pytest

from ._common import HUGE, LEVELS, agree, entries, fmt_grid, no_panic

SEEDS = 4


def rng_for(name: str, level: int) -> random.Random:
    return random.Random(f"audit2-{name}-{level}")


GENERIC_JUNK = ["", " ", "\n\n", "(", "-", "0", "-1", HUGE, "1/0", "None", "{}", "A=", "Z Z Z"]


# ================================================================ rotten_oranges


def parse_oranges(q):
    rows = [ln.split() for ln in q.splitlines() if re.fullmatch(r"[012]( [012])*", ln.strip())]
    assert rows and all(len(r) == len(rows[0]) for r in rows), q
    return [[int(v) for v in r] for r in rows]


def rot(grid):
    h, w = len(grid), len(grid[0])
    dist = {}
    dq = deque()
    for r in range(h):
        for c in range(w):
            if grid[r][c] == 2:
                dist[r, c] = 0
                dq.append((r, c))
    while dq:
        r, c = dq.popleft()
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < h and 0 <= cc < w and grid[rr][cc] == 1 and (rr, cc) not in dist:
                dist[rr, cc] = dist[r, c] + 1
                dq.append((rr, cc))
    minutes = max(dist.values(), default=0)
    fresh = sum(1 for r in range(h) for c in range(w) if grid[r][c] == 1 and (r, c) not in dist)
    return minutes, fresh


def rot_by_simulation(grid):
    """The rule as literally stated: minute by minute, all at once."""
    g = [row[:] for row in grid]
    h, w = len(g), len(g[0])
    minute = 0
    while True:
        new = [
            (r, c)
            for r in range(h)
            for c in range(w)
            if g[r][c] == 1
            and any(
                0 <= r + dr < h and 0 <= c + dc < w and g[r + dr][c + dc] == 2
                for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
            )
        ]
        if not new:
            return minute, sum(row.count(1) for row in g)
        minute += 1
        for r, c in new:
            g[r][c] = 2


@pytest.mark.parametrize("level", LEVELS)
def test_rotten_oranges(level):
    for data, entry in entries("rotten_oranges", level, SEEDS):
        grid = parse_oranges(entry["question"])
        m, f = rot(grid)
        assert rot_by_simulation(grid) == (m, f)
        agree(data, entry, f"minutes={m}, fresh={f}", True, "own answer")
        agree(data, entry, f"minutes = {m}, fresh = {f}", True, "spaces around =")
        for dm, df in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)):
            if m + dm >= 0 and f + df >= 0:
                agree(data, entry, f"minutes={m + dm}, fresh={f + df}", False, f"off by ({dm},{df})")
        # the count of minutes including the start (minute 0 counted as one), a classic off-by-one
        agree(data, entry, f"minutes={m + 1}, fresh={f}", False, "minutes counted from 1")
        agree(data, entry, f"minutes={m}", False, "fresh left out")
        agree(data, entry, f"fresh={f}", False, "minutes left out")
        agree(data, entry, f"minutes={m}, fresh={f}, minutes={m + 1}", False, "minutes given twice")
        agree(data, entry, f"minutes={m + 1}, minutes={m}, fresh={f}", False, "minutes given twice")
        agree(data, entry, f"minutes={m}, fresh={f + 1}, fresh={f}", False, "fresh given twice")
        no_panic(
            data,
            entry,
            [
                *GENERIC_JUNK,
                f"minutes={HUGE}, fresh={f}",
                f"minutes={m}, fresh={HUGE}",
                f"minutes=-{m + 1}, fresh={f}",
                "minutes=, fresh=",
                f"minutes={m}.5, fresh={f}",
            ],
        )


# ================================================================ eulerian_trail


def parse_euler(q):
    lo, hi = re.search(r"has the nodes ([A-Z]) to ([A-Z])", q).groups()
    nodes = [chr(c) for c in range(ord(lo), ord(hi) + 1)]
    m = int(re.search(r"these (\d+) edges", q).group(1))
    edges = re.findall(r"^([A-Z]) - ([A-Z])$", q, re.M)
    assert len(edges) == m, q
    return nodes, edges


def euler_valid(p, walk) -> bool:
    nodes, edges = p
    if len(walk) != len(edges) + 1 or any(v not in nodes for v in walk):
        return False
    left = Counter(frozenset(e) for e in edges)
    for a, b in itertools.pairwise(walk):
        k = frozenset((a, b))
        if a == b or left[k] == 0:
            return False
        left[k] -= 1
    return sum(left.values()) == 0


def euler_trail(p, rng):
    """Hierholzer's algorithm with random choices; starts at an odd node when there is one."""
    nodes, edges = p
    adj = {v: [] for v in nodes}
    for i, (a, b) in enumerate(edges):
        adj[a].append((b, i))
        adj[b].append((a, i))
    for v in adj:
        rng.shuffle(adj[v])
    odd = [v for v in nodes if len(adj[v]) % 2]
    starts = odd if odd else [v for v in nodes if adj[v]]
    start = rng.choice(starts)
    used = set()
    stack, out = [start], []
    while stack:
        v = stack[-1]
        while adj[v] and adj[v][-1][1] in used:
            adj[v].pop()
        if adj[v]:
            w, i = adj[v].pop()
            used.add(i)
            stack.append(w)
        else:
            out.append(stack.pop())
    return out[::-1]


@pytest.mark.parametrize("level", LEVELS)
def test_eulerian_trail(level):
    rng = rng_for("euler", level)
    for data, entry in entries("eulerian_trail", level, SEEDS):
        p = parse_euler(entry["question"])
        nodes, edges = p
        degree = Counter(v for e in edges for v in e)
        odd = [v for v in nodes if degree[v] % 2]
        assert len(odd) in (0, 2), "the prompt promises a one-stroke walk"
        oracle = entry["answer"].split()
        assert euler_valid(p, oracle)
        trails = {tuple(euler_trail(p, rng)) for _ in range(12)}
        for t in trails:
            assert euler_valid(p, list(t))
            agree(data, entry, " ".join(t), True, "own trail")
            agree(data, entry, " ".join(t[::-1]), True, "own trail reversed")
        assert len(trails | {tuple(oracle)}) > 1 or len(edges) <= 3
        if not odd:
            # a closed walk may start anywhere on it
            k = rng.randrange(1, len(oracle) - 1)
            rotated = oracle[k:-1] + oracle[:k] + [oracle[k]]
            assert euler_valid(p, rotated)
            agree(data, entry, " ".join(rotated), True, "closed walk started elsewhere")
        # near misses, judged by our checker
        w = list(oracle)
        agree(data, entry, " ".join(w[:-1]), False, "last step left out")
        agree(data, entry, " ".join([*w, w[-2]]), False, "last edge walked back")
        for _ in range(6):
            i, j = sorted(rng.sample(range(len(w)), 2))
            v = list(w)
            v[i], v[j] = v[j], v[i]
            agree(data, entry, " ".join(v), euler_valid(p, v), f"positions {i} and {j} swapped")
        for _ in range(3):
            i = rng.randrange(len(w))
            v = list(w)
            v[i] = rng.choice([x for x in nodes if x != w[i]])
            agree(data, entry, " ".join(v), euler_valid(p, v), f"node {i} replaced")
        if odd:
            # no one-stroke walk starts at an even node when two nodes are odd
            for s in [x for x in nodes if degree[x] % 2 == 0 and degree[x]][:2]:
                v = [s, *w[1:]]
                agree(data, entry, " ".join(v), euler_valid(p, v), f"first node replaced by even node {s}")
        no_panic(
            data,
            entry,
            [*GENERIC_JUNK, " ".join([*w, w[-1]]), " ".join(w + w), " ".join([*w[:-1], "Z"]), "A"],
        )


# ================================================================ set_operations

OPS = {"∪": "union", "∩": "inter", "\\": "diff", "△": "sym"}


def parse_setops(q):
    n = int(re.search(r"U = \{1, 2, …, (\d+)\}", q).group(1))
    sets = {}
    for name, body in re.findall(r"^([A-Z]) = \{([^}]*)\}$", q, re.M):
        sets[name] = {int(x) for x in body.replace(" ", "").split(",") if x}
    expr = q.split("Evaluate:")[1].split("List every")[0].strip()
    return n, sets, expr


def eval_setexpr(expr, n, sets):
    toks = re.findall(r"[A-Z]|[()∪∩\\△]", expr)
    assert "".join(toks) == expr.replace(" ", ""), expr
    universe = set(range(1, n + 1))
    pos = [0]

    def operand():
        t = toks[pos[0]]
        pos[0] += 1
        if t == "(":
            v = binary()
            assert toks[pos[0]] == ")"
            pos[0] += 1
            return v
        return universe if t == "U" else sets[t]

    def binary():
        left = operand()
        if pos[0] < len(toks) and toks[pos[0]] in OPS:
            op = OPS[toks[pos[0]]]
            pos[0] += 1
            right = operand()
            # "Parentheses are explicit": never two operators on one level
            assert pos[0] >= len(toks) or toks[pos[0]] == ")", expr
            return {
                "union": left | right,
                "inter": left & right,
                "diff": left - right,
                "sym": left ^ right,
            }[op]
        return left

    v = binary()
    assert pos[0] == len(toks), expr
    return v


def fmt_set(xs):
    return "{" + ", ".join(str(x) for x in xs) + "}"


@pytest.mark.parametrize("level", LEVELS)
def test_set_operations(level):
    rng = rng_for("sets", level)
    for data, entry in entries("set_operations", level, SEEDS * 2):
        n, sets, expr = parse_setops(entry["question"])
        mine = sorted(eval_setexpr(expr, n, sets))
        agree(data, entry, fmt_set(mine), True, "own result")
        shuffled = list(mine)
        rng.shuffle(shuffled)
        agree(data, entry, fmt_set(shuffled), True, "own result in another order")
        agree(data, entry, "{" + ",".join(map(str, mine)) + "}", True, "no spaces")
        if mine:
            for x in rng.sample(mine, min(2, len(mine))):
                agree(data, entry, fmt_set([y for y in mine if y != x]), False, f"{x} left out")
        outside = [x for x in range(1, n + 1) if x not in mine]
        for x in rng.sample(outside, min(2, len(outside))):
            agree(data, entry, fmt_set(sorted([*mine, x])), False, f"{x} added")
        agree(data, entry, fmt_set([*mine, n + 1]), False, "a number outside U added")
        agree(data, entry, fmt_set([0, *mine]), False, "0 added")
        # the complement (a misread of the whole expression)
        agree(data, entry, fmt_set(outside), not outside and not mine, "the complement")
        no_panic(
            data,
            entry,
            [*GENERIC_JUNK, fmt_set([*mine, HUGE]), fmt_set([-1, *mine]), "{0, , 0}", "{" + "1, " * 200 + "}"],
        )


@pytest.mark.parametrize("level", LEVELS)
def test_set_operations_duplicates(level):
    """'List every member of the result exactly once': a member listed twice is not what was asked."""
    for data, entry in entries("set_operations", level, SEEDS):
        n, sets, expr = parse_setops(entry["question"])
        mine = sorted(eval_setexpr(expr, n, sets))
        if mine:
            agree(data, entry, fmt_set([*mine, mine[0]]), False, "first member listed twice")


# ================================================================ meeting_scheduling


def hm(t):
    h, m = t.split(":")
    return int(h) * 60 + int(m)


def fmt_hm(x):
    return f"{x // 60:02d}:{x % 60:02d}"


def parse_meetings(q):
    d0, d1 = re.search(r"one working day, (\d\d:\d\d) to (\d\d:\d\d)", q).groups()
    busy = {}
    for name, body in re.findall(r"^([A-Z][a-z]+) is busy (.*)\.$", q, re.M):
        busy[name] = [tuple(hm(t) for t in iv.split("–")) for iv in body.split(", ")]
    meetings = {}
    for i, dur, people in re.findall(r"^Meeting (\d+) \((\d+) minutes\): (.*)$", q, re.M):
        meetings[int(i)] = (int(dur), [x.strip() for x in people.split(",")])
    earliest, latest_end, after = {}, {}, []
    for i, t in re.findall(r"^- meeting (\d+) must start at (\d\d:\d\d) or later$", q, re.M):
        earliest[int(i)] = max(earliest.get(int(i), 0), hm(t))
    for i, t in re.findall(r"^- meeting (\d+) must end by (\d\d:\d\d)$", q, re.M):
        latest_end[int(i)] = min(latest_end.get(int(i), 10**9), hm(t))
    for i, j in re.findall(r"^- meeting (\d+) must start at or after the end of meeting (\d+)$", q, re.M):
        after.append((int(i), int(j)))
    rules = len(re.findall(r"^- ", q, re.M))
    assert rules == sum(1 for _ in re.finditer(r"^- meeting \d+ must (start at \d|end by|start at or after)", q, re.M))
    for who in {p for _, ps in meetings.values() for p in ps}:
        busy.setdefault(who, [])
    return (hm(d0), hm(d1)), busy, meetings, earliest, latest_end, after


def schedule_valid(p, sched) -> bool:
    (d0, d1), busy, meetings, earliest, latest_end, after = p
    if set(sched) != set(meetings):
        return False
    for i, (dur, people) in meetings.items():
        s, e = sched[i], sched[i] + dur
        if s < d0 or e > d1 or s < earliest.get(i, 0) or e > latest_end.get(i, 10**9):
            return False
        for who in people:
            if any(s < b1 and b0 < e for b0, b1 in busy[who]):
                return False
    for i in meetings:
        for j in meetings:
            if i < j and set(meetings[i][1]) & set(meetings[j][1]):
                si, ei = sched[i], sched[i] + meetings[i][0]
                sj, ej = sched[j], sched[j] + meetings[j][0]
                if si < ej and sj < ei:
                    return False
    return all(sched[i] >= sched[j] + meetings[j][0] for i, j in after)


def schedules(p, limit, rng=None, step=15):
    (d0, d1), busy, meetings, earliest, latest_end, after = p
    order = sorted(meetings)
    out, cur = [], {}

    def ok(i, s):
        dur, people = meetings[i]
        e = s + dur
        if e > d1 or s < earliest.get(i, 0) or e > latest_end.get(i, 10**9):
            return False
        for who in people:
            if any(s < b1 and b0 < e for b0, b1 in busy[who]):
                return False
        for j, sj in cur.items():
            ej = sj + meetings[j][0]
            if set(people) & set(meetings[j][1]) and s < ej and sj < e:
                return False
        for a, b in after:
            if a == i and b in cur and s < cur[b] + meetings[b][0]:
                return False
            if b == i and a in cur and cur[a] < e:
                return False
        return True

    def rec(k):
        if len(out) >= limit:
            return
        if k == len(order):
            out.append(dict(cur))
            return
        i = order[k]
        starts = list(range(d0, d1, step))
        if rng:
            rng.shuffle(starts)
        for s in starts:
            if ok(i, s):
                cur[i] = s
                rec(k + 1)
                del cur[i]
                if len(out) >= limit:
                    return

    rec(0)
    return out


def fmt_sched(sched, order=None):
    keys = order if order is not None else sorted(sched)
    return ", ".join(f"{i}: {fmt_hm(sched[i])}" for i in keys)


def parse_sched(text):
    return {int(i): hm(t) for i, t in re.findall(r"(\d+): (\d\d:\d\d)", text)}


@pytest.mark.parametrize("level", LEVELS)
def test_meeting_scheduling(level):
    rng = rng_for("meet", level)
    for data, entry in entries("meeting_scheduling", level, SEEDS):
        p = parse_meetings(entry["question"])
        meetings = p[2]
        oracle = parse_sched(entry["answer"])
        assert schedule_valid(p, oracle)
        found = schedules(p, 6, rng=rng)
        assert found, "own search found no schedule"
        for s in found:
            assert schedule_valid(p, s)
            agree(data, entry, fmt_sched(s), True, "own schedule")
        keys = sorted(oracle)
        rng.shuffle(keys)
        agree(data, entry, fmt_sched(oracle, keys), True, "meetings listed in another order")
        # moving one meeting of a valid schedule: gauntlet must agree with our checker either way
        for s in [oracle, *found[:2]]:
            for i in sorted(meetings):
                for delta in (-60, -15, -5, 5, 15, 30, 60):
                    t = dict(s)
                    t[i] += delta
                    if 0 <= t[i] < 24 * 60:
                        agree(data, entry, fmt_sched(t), schedule_valid(p, t), f"meeting {i} moved {delta:+d} min")
        first = min(meetings)
        agree(data, entry, fmt_sched({i: v for i, v in oracle.items() if i != first}), False, "one meeting left out")
        agree(data, entry, fmt_sched({**oracle, max(meetings) + 1: p[0][0]}), False, "an extra meeting")
        agree(data, entry, fmt_sched({**oracle, 0: p[0][0]}), False, "a meeting 0")
        # one meeting given two start times
        other = (oracle[first] + 60) % (24 * 60)
        agree(data, entry, f"{first}: {fmt_hm(other)}, " + fmt_sched(oracle), False, "meeting given twice")
        agree(data, entry, fmt_sched(oracle) + f", {first}: {fmt_hm(other)}", False, "meeting given twice")
        no_panic(
            data,
            entry,
            [
                *GENERIC_JUNK,
                f"{first}: 25:00",
                f"{first}: 12:60",
                f"{first}: 99:99",
                f"{HUGE}: 10:00",
                f"{first}: {HUGE}:00",
                "1: ",
                ": 10:00",
                "1: 10:00 2: 11:00",
            ],
        )


@pytest.mark.parametrize("level", LEVELS)
def test_meeting_scheduling_off_quarter_starts(level):
    """The prompt asks for any `HH:MM` start and says any schedule that follows the rules is
    accepted: a start that is not on a quarter hour, and follows every rule, is a valid answer."""
    rng = rng_for("meet-minutes", level)
    for data, entry in entries("meeting_scheduling", level, SEEDS):
        p = parse_meetings(entry["question"])
        base = schedules(p, 4, rng=rng)
        for s in base:
            for i in sorted(s):
                for delta in (1, 7, -7, -1):
                    t = dict(s)
                    t[i] += delta
                    if schedule_valid(p, t):
                        agree(data, entry, fmt_sched(t), True, f"meeting {i} moved {delta:+d} min, still valid")
                        break


# ================================================================ thermometers


def parse_thermo(q):
    n = int(re.search(r"A (\d+)×\1 grid", q).group(1))
    therms = []
    for body in re.findall(r"^T\d+: (.*)$", q, re.M):
        therms.append([(int(r) - 1, int(c) - 1) for r, c in re.findall(r"\((\d+),(\d+)\)", body)])
    rows = [int(x) for x in re.search(r"from top to bottom, is: ([\d ]+)", q).group(1).split()]
    cols = [int(x) for x in re.search(r"from left to right, is: ([\d ]+)", q).group(1).split()]
    given = {}
    m = re.search(r"^Given cells: (.*)\.$", q, re.M)
    if m:
        for r, c, what in re.findall(r"\((\d+),(\d+)\) is (filled|empty)", m.group(1)):
            given[int(r) - 1, int(c) - 1] = what == "filled"
    cells = [x for t in therms for x in t]
    assert len(cells) == len(set(cells)) == n * n, "thermometers tile the grid"
    return n, therms, rows, cols, given


def thermo_valid(p, grid) -> bool:
    n, therms, rows, cols, given = p
    if len(grid) != n or any(len(r) != n for r in grid) or any(v not in (0, 1) for r in grid for v in r):
        return False
    if [sum(r) for r in grid] != rows or [sum(grid[r][c] for r in range(n)) for c in range(n)] != cols:
        return False
    for t in therms:
        vals = [grid[r][c] for r, c in t]
        if vals != sorted(vals, reverse=True):
            return False
    return all(grid[r][c] == int(v) for (r, c), v in given.items())


def thermo_solve(p, limit=3, use_given=True):
    n, therms, rows, cols, given = p
    given = given if use_given else {}
    order = sorted(range(len(therms)), key=lambda i: -len(therms[i]))
    rsum, csum = [0] * n, [0] * n
    # capacity left per row/column from thermometers not yet placed
    rcap, ccap = [0] * n, [0] * n
    for t in therms:
        for r, c in t:
            rcap[r] += 1
            ccap[c] += 1
    out, grid = [], [[0] * n for _ in range(n)]

    def rec(k):
        if len(out) >= limit:
            return
        if k == len(order):
            if rsum == rows and csum == cols:
                out.append([row[:] for row in grid])
            return
        t = therms[order[k]]
        for r, c in t:
            rcap[r] -= 1
            ccap[c] -= 1
        for fill in range(len(t) + 1):
            # cells t[:fill] filled, t[fill:] empty
            if fill > 0:
                r, c = t[fill - 1]
                rsum[r] += 1
                csum[c] += 1
                grid[r][c] = 1
                if rsum[r] > rows[r] or csum[c] > cols[c] or given.get((r, c)) is False:
                    break
            if any(given.get(x) is True for x in t[fill:]):
                continue
            if all(rsum[r] + rcap[r] >= rows[r] for r in range(n)) and all(
                csum[c] + ccap[c] >= cols[c] for c in range(n)
            ):
                rec(k + 1)
        for r, c in t[:fill]:
            if grid[r][c]:
                rsum[r] -= 1
                csum[c] -= 1
                grid[r][c] = 0
        for r, c in t:
            rcap[r] += 1
            ccap[c] += 1

    rec(0)
    return out


@pytest.mark.parametrize("level", LEVELS)
def test_thermometers(level):
    rng = rng_for("thermo", level)
    for data, entry in entries("thermometers", level, SEEDS):
        p = parse_thermo(entry["question"])
        n = p[0]
        sols = thermo_solve(p)
        assert len(sols) == 1, f"'The solution is unique' but we find {len(sols)}"
        sol = sols[0]
        assert thermo_valid(p, sol)
        agree(data, entry, fmt_grid(sol), True, "own solution")
        for _ in range(4):
            r, c = rng.randrange(n), rng.randrange(n)
            g = [row[:] for row in sol]
            g[r][c] ^= 1
            agree(data, entry, fmt_grid(g), False, f"cell ({r + 1},{c + 1}) flipped")
        # move one filled cell to the tip of the next one along its thermometer when that keeps the counts
        agree(data, entry, fmt_grid([row[::-1] for row in sol]), thermo_valid(p, [row[::-1] for row in sol]), "mirror")
        # solutions that ignore the given cells break a stated rule
        for g in thermo_solve(p, limit=3, use_given=False):
            agree(data, entry, fmt_grid(g), thermo_valid(p, g), "solution of the puzzle without its given cells")
        agree(data, entry, fmt_grid(sol[:-1]), False, "last row left out")
        agree(data, entry, fmt_grid([*sol, sol[-1]]), False, "a row too many")
        agree(data, entry, fmt_grid([[*row, 0] for row in sol]), False, "a column too many")
        no_panic(
            data,
            entry,
            [
                *GENERIC_JUNK,
                fmt_grid([[2 if v else 0 for v in row] for row in sol]),
                fmt_grid([[HUGE if v else 0 for v in row] for row in sol]),
                fmt_grid([[-1 if v else 0 for v in row] for row in sol]),
                fmt_grid([["x" if v else "." for v in row] for row in sol]),
            ],
        )


# ================================================================ rectangle_count


def parse_drawing(q):
    body = q.split("```")[1].strip("\n").split("\n")
    assert len(body) % 2 == 1, body
    width = max(len(ln) for ln in body)
    lines = [ln.ljust(width) for ln in body]
    h = len(lines) // 2 + 1
    w = (width - 1) // 4 + 1
    horiz, vert = set(), set()
    for y in range(h):
        ln = lines[2 * y]
        for x in range(w):
            ch = ln[4 * x] if 4 * x < len(ln) else " "
            assert ch in "+ ", (y, x, ln)
            if x + 1 < w and ln[4 * x + 1 : 4 * x + 4] == "---":
                assert ch == "+" and ln[4 * x + 4] == "+"
                horiz.add((y, x))
            else:
                assert ln[4 * x + 1 : 4 * x + 4].strip() == "", ln
    for y in range(h - 1):
        ln = lines[2 * y + 1]
        for x in range(w):
            if ln[4 * x] == "|":
                vert.add((y, x))
        assert set(ln) <= {" ", "|"} and all(ch == " " or i % 4 == 0 for i, ch in enumerate(ln)), ln
    # '`+` a point that a line touches': a `+` exactly where some line ends or passes
    touched = {p for y, x in horiz for p in ((y, x), (y, x + 1))} | {p for y, x in vert for p in ((y, x), (y + 1, x))}
    plus = {(y, x) for y in range(h) for x in range(w) if 4 * x < width and lines[2 * y][4 * x] == "+"}
    assert plus == touched, sorted(plus ^ touched)
    return h, w, horiz, vert


def count_rects(h, w, horiz, vert):
    total = 0
    for y1 in range(h):
        for y2 in range(y1 + 1, h):
            for x1 in range(w):
                if not all((y, x1) in vert for y in range(y1, y2)):
                    continue
                for x2 in range(x1 + 1, w):
                    if not ((y1, x2 - 1) in horiz and (y2, x2 - 1) in horiz):
                        break
                    if all((y, x2) in vert for y in range(y1, y2)):
                        total += 1
    return total


def count_rects_naive(h, w, horiz, vert):
    total = 0
    for y1 in range(h):
        for y2 in range(y1 + 1, h):
            for x1 in range(w):
                for x2 in range(x1 + 1, w):
                    sides = [(y1, x) in horiz and (y2, x) in horiz for x in range(x1, x2)]
                    sides += [(y, x1) in vert and (y, x2) in vert for y in range(y1, y2)]
                    total += all(sides)
    return total


@pytest.mark.parametrize("level", LEVELS)
def test_rectangle_count(level):
    for data, entry in entries("rectangle_count", level, SEEDS * 2):
        d = parse_drawing(entry["question"])
        mine = count_rects(*d)
        assert mine == count_rects_naive(*d)
        agree(data, entry, str(mine), True, "own count")
        for delta in (-2, -1, 1, 2):
            if mine + delta >= 0:
                agree(data, entry, str(mine + delta), False, f"count {delta:+d}")
        # counting only the unit cells (the smallest rectangles) is a different number when any rectangle is bigger
        h, w, horiz, vert = d
        cells = sum(
            1
            for y in range(h - 1)
            for x in range(w - 1)
            if (y, x) in horiz and (y + 1, x) in horiz and (y, x) in vert and (y, x + 1) in vert
        )
        agree(data, entry, str(cells), cells == mine, "unit cells only")
        no_panic(data, entry, [*GENERIC_JUNK[:-1], f"-{mine}", f"{mine}.5", "1e9", f"{mine} {mine + 1}"])


# ================================================================ knapsack


def parse_knap(q):
    cap = int(re.search(r"holds a total weight of at most (\d+)", q).group(1))
    items = {int(i): (int(w), int(v)) for i, w, v in re.findall(r"^item (\d+): weight (\d+), value (\d+)$", q, re.M)}
    assert sorted(items) == list(range(1, len(items) + 1)), q
    return cap, items


def knap_best_sets(cap, items, limit=50):
    """All optimal selections (up to `limit`), by DP on (item, capacity) then enumeration."""
    ids = sorted(items)

    @cache
    def best(k, c):
        if k == len(ids):
            return 0
        w, v = items[ids[k]]
        b = best(k + 1, c)
        if w <= c:
            b = max(b, v + best(k + 1, c - w))
        return b

    out = []

    def enum(k, c, need, chosen):
        if len(out) >= limit:
            return
        if k == len(ids):
            if need == 0:
                out.append(list(chosen))
            return
        w, v = items[ids[k]]
        if w <= c and v + best(k + 1, c - w) == need:
            chosen.append(ids[k])
            enum(k + 1, c - w, need - v, chosen)
            chosen.pop()
        if best(k + 1, c) == need:
            enum(k + 1, c, need, chosen)

    top = best(0, cap)
    enum(0, cap, top, [])
    return top, out


def knap_valid(cap, items, sel, top) -> bool:
    if len(set(sel)) != len(sel) or any(i not in items for i in sel):
        return False
    return sum(items[i][0] for i in sel) <= cap and sum(items[i][1] for i in sel) == top


@pytest.mark.parametrize("level", LEVELS)
def test_knapsack(level):
    rng = rng_for("knap", level)
    for data, entry in entries("knapsack", level, SEEDS * 2):
        cap, items = parse_knap(entry["question"])
        top, sets = knap_best_sets(cap, items)
        assert sets
        if len(items) <= 12:
            subsets = (c for r in range(len(items) + 1) for c in itertools.combinations(sorted(items), r))
            feasible = [c for c in subsets if sum(items[i][0] for i in c) <= cap]
            assert top == max(sum(items[i][1] for i in c) for c in feasible)
            assert len(sets) == sum(1 for c in feasible if sum(items[i][1] for i in c) == top)
        oracle = [int(x) for x in entry["answer"].split()]
        assert knap_valid(cap, items, oracle, top)
        for s in sets[:6]:
            agree(data, entry, " ".join(map(str, s)), True, "own optimal selection")
            t = list(s)
            rng.shuffle(t)
            agree(data, entry, " ".join(map(str, t)), True, "own selection in another order")
        for s in sets:
            if sorted(s) != sorted(oracle):
                agree(data, entry, " ".join(map(str, s)), True, "a second optimal selection")
                break
        # near misses
        for x in oracle:
            t = [y for y in oracle if y != x]
            agree(data, entry, " ".join(map(str, t)), knap_valid(cap, items, t, top), f"item {x} left out")
        for x in sorted(items):
            if x not in oracle:
                t = [*oracle, x]
                agree(data, entry, " ".join(map(str, t)), knap_valid(cap, items, t, top), f"item {x} added")
                for y in oracle:
                    u = [z for z in t if z != y]
                    agree(data, entry, " ".join(map(str, u)), knap_valid(cap, items, u, top), f"{y} swapped for {x}")
        # greedy by value per weight
        greedy, room = [], cap
        for i in sorted(items, key=lambda i: -items[i][1] / items[i][0]):
            if items[i][0] <= room:
                greedy.append(i)
                room -= items[i][0]
        agree(data, entry, " ".join(map(str, greedy)), knap_valid(cap, items, greedy, top), "greedy selection")
        # everything (over the limit unless it all fits)
        every = sorted(items)
        agree(data, entry, " ".join(map(str, every)), knap_valid(cap, items, every, top), "every item")
        agree(data, entry, " ".join(map(str, [*oracle, oracle[0]])), False, "an item twice (each at most once)")
        agree(data, entry, " ".join(map(str, [*oracle, 0])), False, "item 0 added")
        agree(data, entry, " ".join(map(str, [*oracle, len(items) + 1])), False, "unlisted item added")
        no_panic(data, entry, [*GENERIC_JUNK, " ".join(map(str, [*oracle, HUGE])), "0, 0", "-" + str(oracle[0])])


# ================================================================ car_painting


def parse_cars(q):
    n = int(re.search(r"^(\d+) cars wait in line", q, re.M).group(1))
    colours = dict(re.findall(r"^(\d+) ([a-z]+)$", q, re.M))
    colours = [colours[str(i)] for i in range(1, n + 1)]
    k = int(re.search(r"at most (\d+) place\(s\) away", q).group(1))
    return colours, k


def changes(colours, order):
    return sum(1 for a, b in itertools.pairwise(order) if colours[a - 1] != colours[b - 1])


def cars_valid(colours, k, order) -> bool:
    n = len(colours)
    if sorted(order) != list(range(1, n + 1)):
        return False
    return all(abs(car - (pos + 1)) <= k for pos, car in enumerate(order))


def cars_optimum(colours, k, rng=None):
    """Fewest colour changes over all orders that keep each car within k places, and one such order
    (random tie-breaking when `rng` is given)."""
    n = len(colours)

    @cache
    def best(pos, placed, last):
        if pos == n:
            return 0
        res = None
        for car in cand(pos, placed):
            c = colours[car - 1]
            v = (last is not None and c != last) + best(pos + 1, placed | (1 << car), c)
            if res is None or v < res:
                res = v
        return 10**6 if res is None else res

    def cand(pos, placed):
        p = pos + 1
        # a car whose last allowed place is this one must go here
        forced = p - k
        if forced >= 1 and not placed >> forced & 1:
            return [forced]
        return [c for c in range(max(1, p - k), min(n, p + k) + 1) if not placed >> c & 1]

    top = best(0, 0, None)
    order, placed, last = [], 0, None
    for pos in range(n):
        opts = []
        for car in cand(pos, placed):
            c = colours[car - 1]
            v = (last is not None and c != last) + best(pos + 1, placed | (1 << car), c)
            if v == best(pos, placed, last):
                opts.append(car)
        car = rng.choice(opts) if rng else opts[0]
        order.append(car)
        placed |= 1 << car
        last = colours[car - 1]
    assert changes(colours, order) == top
    return top, order


@pytest.mark.parametrize("level", LEVELS)
def test_car_painting(level):
    rng = rng_for("cars", level)
    for data, entry in entries("car_painting", level, SEEDS):
        colours, k = parse_cars(entry["question"])
        n = len(colours)
        top, order = cars_optimum(colours, k)
        assert cars_valid(colours, k, order)
        if n <= 8:
            perms = (list(o) for o in itertools.permutations(range(1, n + 1)))
            assert top == min(changes(colours, o) for o in perms if cars_valid(colours, k, o))
        agree(data, entry, " ".join(map(str, order)), True, "own optimal order")
        oracle = [int(x) for x in entry["answer"].split()]
        assert cars_valid(colours, k, oracle) and changes(colours, oracle) == top
        others = {tuple(cars_optimum(colours, k, rng)[1]) for _ in range(6)}
        for o in others:
            agree(data, entry, " ".join(map(str, o)), True, "another optimal order")
        # near misses, judged by our checker
        ident = list(range(1, n + 1))
        ok = cars_valid(colours, k, ident) and changes(colours, ident) == top
        agree(data, entry, " ".join(map(str, ident)), ok, "the original order")
        for _ in range(6):
            i = rng.randrange(n - 1)
            t = list(oracle)
            t[i], t[i + 1] = t[i + 1], t[i]
            ok = cars_valid(colours, k, t) and changes(colours, t) == top
            agree(data, entry, " ".join(map(str, t)), ok, f"places {i + 1} and {i + 2} swapped")
        # every colour grouped together: fewest changes of all, but usually moves cars too far
        grouped = sorted(ident, key=lambda c: (colours.index(colours[c - 1]), c))
        ok = cars_valid(colours, k, grouped) and changes(colours, grouped) == top
        agree(data, entry, " ".join(map(str, grouped)), ok, "colours grouped regardless of distance")
        agree(data, entry, " ".join(map(str, oracle[:-1])), False, "last car left out")
        agree(data, entry, " ".join(map(str, [*oracle, oracle[-1]])), False, "last car twice")
        t = list(oracle)
        t[-1] = t[0]
        agree(data, entry, " ".join(map(str, t)), False, "a car twice, one missing")
        agree(data, entry, " ".join(map(str, [*oracle, n + 1])), False, "an unknown car")
        agree(data, entry, " ".join(map(str, [0, *oracle])), False, "car 0")
        no_panic(data, entry, [*GENERIC_JUNK, " ".join(map(str, [*oracle[:-1], HUGE])), ", ".join(["x"] * n)])


# ================================================================ convex_hull


def parse_points(q):
    pts = {a: (int(x), int(y)) for a, x, y in re.findall(r"^([A-Z])\((-?\d+), (-?\d+)\)$", q, re.M)}
    assert pts, q
    return pts


def cross(o, a, b):
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def hull(pts):
    """Andrew's monotone chain, counter-clockwise, without points on edges."""
    names = sorted(pts, key=lambda a: pts[a])
    if len(names) < 3:
        return names

    def half(seq):
        out = []
        for a in seq:
            while len(out) >= 2 and cross(pts[out[-2]], pts[out[-1]], pts[a]) <= 0:
                out.pop()
            out.append(a)
        return out

    lower, upper = half(names), half(names[::-1])
    return lower[:-1] + upper[:-1]


def corners_by_edges(pts):
    """Brute force: a is a corner when some a->b has every other point strictly to its left or
    strictly inside the segment."""
    out = set()
    for a in pts:
        for b in pts:
            if a == b:
                continue
            pa, pb = pts[a], pts[b]
            if all(
                cross(pa, pb, pts[c]) > 0 or (cross(pa, pb, pts[c]) == 0 and min(pa, pb) < pts[c] < max(pa, pb))
                for c in pts
                if c not in (a, b)
            ):
                out.add(a)
    return out


def hull_valid(pts, ans) -> bool:
    h = hull(pts)
    if sorted(ans) != sorted(h) or len(ans) != len(h):
        return False
    k = h.index(ans[0])
    rot = h[k:] + h[:k]
    rev = [rot[0], *rot[1:][::-1]]
    return ans in (rot, rev)


@pytest.mark.parametrize("level", LEVELS)
def test_convex_hull(level):
    rng = rng_for("hull", level)
    for data, entry in entries("convex_hull", level, SEEDS * 2):
        pts = parse_points(entry["question"])
        assert len(set(pts.values())) == len(pts), "two labels on one point make the corners ambiguous"
        h = hull(pts)
        assert set(h) == corners_by_edges(pts)
        agree(data, entry, " ".join(h), True, "own hull, counter-clockwise")
        agree(data, entry, " ".join(h[::-1]), True, "own hull, clockwise")
        k = rng.randrange(len(h))
        agree(data, entry, " ".join(h[k:] + h[:k]), True, f"own hull from corner {k}")
        for _ in range(4):
            i, j = rng.sample(range(len(h)), 2)
            t = list(h)
            t[i], t[j] = t[j], t[i]
            agree(data, entry, " ".join(t), hull_valid(pts, t), "two corners swapped")
        for x in h[:2]:
            t = [y for y in h if y != x]
            agree(data, entry, " ".join(t), False, f"corner {x} left out")
        inside = [a for a in pts if a not in h]
        for x in inside[:2]:
            on_edge = any(cross(pts[h[i]], pts[h[(i + 1) % len(h)]], pts[x]) == 0 for i in range(len(h)))
            t = list(h)
            t.insert(1, x)
            agree(data, entry, " ".join(t), False, f"{x} added ({'on an edge' if on_edge else 'inside'})")
        # a point on an edge, put in its place along the boundary: the prompt says it is not a corner
        for i in range(len(h)):
            a, b = pts[h[i]], pts[h[(i + 1) % len(h)]]
            for x in inside:
                c = pts[x]
                if cross(a, b, c) == 0 and min(a, b) < c < max(a, b):
                    t = [*h[: i + 1], x, *h[i + 1 :]]
                    agree(data, entry, " ".join(t), False, f"{x} on edge {h[i]}{h[(i + 1) % len(h)]} listed")
        agree(data, entry, " ".join(sorted(pts)), hull_valid(pts, sorted(pts)), "every point")
        no_panic(
            data, entry, [*GENERIC_JUNK, " ".join([*h, "Z"]), " ".join(h).lower() + " zz", ",".join(h[:-1]) + ",,"]
        )


@pytest.mark.parametrize("level", LEVELS)
def test_convex_hull_corner_twice(level):
    """'Give each corner once': closing the polygon by repeating the first corner is not that."""
    for data, entry in entries("convex_hull", level, SEEDS):
        h = hull(parse_points(entry["question"]))
        agree(data, entry, " ".join([*h, h[0]]), False, "first corner repeated at the end")
        agree(data, entry, " ".join([*h, *h]), False, "hull listed twice round")
        agree(data, entry, " ".join([*h[:2], h[0], *h[2:]]), False, "first corner repeated in the middle")


# ================================================================ arc_2d


def parse_arc(q):
    def grid_after(label):
        lines = q.split(label, 1)[1].split("\n")[1:]
        rows = []
        for ln in lines:
            if re.fullmatch(r"\d( \d)*", ln.strip()) and ln.strip():
                rows.append([int(x) for x in ln.split()])
            else:
                break
        assert rows and all(len(r) == len(rows[0]) for r in rows), label
        return rows

    k = len(re.findall(r"^Example \d+ input:$", q, re.M))
    pairs = [(grid_after(f"Example {i} input:"), grid_after(f"Example {i} output:")) for i in range(1, k + 1)]
    test = grid_after("New input:")
    depth = re.search(r"It is (one|\d+) of these operations", q).group(1)
    return pairs, test, 1 if depth == "one" else int(depth)


def T(g):
    return [list(r) for r in zip(*g, strict=True)]


def gravity(g, d):
    def pack_left(row):
        cs = [v for v in row if v]
        return cs + [0] * (len(row) - len(cs))

    if d == "left":
        return [pack_left(r) for r in g]
    if d == "right":
        return [pack_left(r[::-1])[::-1] for r in g]
    if d == "up":
        return T(gravity(T(g), "left"))
    return T(gravity(T(g), "right"))


def ray(g, d):
    def fill_right(row):
        out, cur = [], 0
        for v in row:
            if v:
                cur = v
            out.append(v if v else cur)
        return out

    if d == "right":
        return [fill_right(r) for r in g]
    if d == "left":
        return [fill_right(r[::-1])[::-1] for r in g]
    if d == "down":
        return T(ray(T(g), "right"))
    return T(ray(T(g), "left"))


def crop(g):
    cells = [(r, c) for r, row in enumerate(g) for c, v in enumerate(row) if v]
    if not cells:
        return None
    r0, r1 = min(r for r, _ in cells), max(r for r, _ in cells)
    c0, c1 = min(c for _, c in cells), max(c for _, c in cells)
    return [row[c0 : c1 + 1] for row in g[r0 : r1 + 1]]


def border(g, col):
    h, w = len(g), len(g[0])
    return [[col if r in (0, h - 1) or c in (0, w - 1) else g[r][c] for c in range(w)] for r in range(h)]


def arc_ops():
    ops = {
        "rot90cw": lambda g: [list(r) for r in zip(*g[::-1], strict=True)],
        "rot180": lambda g: [r[::-1] for r in g[::-1]],
        "rot90ccw": lambda g: [list(r) for r in zip(*g, strict=True)][::-1],
        "mirror_lr": lambda g: [r[::-1] for r in g],
        "mirror_tb": lambda g: [list(r) for r in g[::-1]],
        "transpose": T,
        "crop": crop,
        "double": lambda g: [[v for v in r for _ in (0, 1)] for r in g for _ in (0, 1)],
        "append_lr": lambda g: [list(r) + r[::-1] for r in g],
        "append_tb": lambda g: [list(r) for r in g] + [list(r) for r in g[::-1]],
        "shift_right": lambda g: [r[-1:] + r[:-1] for r in g],
        "shift_left": lambda g: [r[1:] + r[:1] for r in g],
        "shift_down": lambda g: [list(r) for r in g[-1:] + g[:-1]],
        "shift_up": lambda g: [list(r) for r in g[1:] + g[:1]],
    }
    for d in ("up", "down", "left", "right"):
        ops[f"gravity_{d}"] = lambda g, d=d: gravity(g, d)
        ops[f"ray_{d}"] = lambda g, d=d: ray(g, d)
    for a in range(1, 10):
        ops[f"border_{a}"] = lambda g, a=a: border(g, a)
        for b in range(1, 10):
            if a < b:
                ops[f"swap_{a}_{b}"] = lambda g, a=a, b=b: [[b if v == a else a if v == b else v for v in r] for r in g]
            if a != b:
                ops[f"recolour_{a}_{b}"] = lambda g, a=a, b=b: [[b if v == a else v for v in r] for r in g]
    return ops


ARC_OPS = arc_ops()


def arc_fits(pairs, test, depth):
    """{name: output on the new grid} for every chain of `depth` operations that fits every example."""
    names = list(ARC_OPS)
    # chains are built level by level from memoised prefixes, pruned on the first example
    (i0, o0), rest = pairs[0], pairs[1:]

    def run(chain, g):
        for n in chain:
            if g is None or not g or not g[0]:
                return None
            g = ARC_OPS[n](g)
        return g

    prefix = {(): i0}
    for _ in range(depth - 1):
        nxt = {}
        for c, g in prefix.items():
            if g is None:
                continue
            for n in names:
                nxt[(*c, n)] = ARC_OPS[n](g)
        prefix = nxt
    fits = {}
    for c, g in prefix.items():
        if g is None or not g or not g[0]:
            continue
        for n in names:
            if ARC_OPS[n](g) == o0:
                chain = (*c, n)
                if all(run(chain, i) == o for i, o in rest):
                    out = run(chain, test)
                    if out is not None:
                        fits[chain] = out
    return fits


@pytest.mark.parametrize("level", LEVELS)
def test_arc_2d(level):
    rng = rng_for("arc", level)
    for data, entry in entries("arc_2d", level, SEEDS):
        pairs, test, depth = parse_arc(entry["question"])
        fits = arc_fits(pairs, test, depth)
        assert fits, "no chain of the listed operations fits the examples"
        outs = {fmt_grid(g) for g in fits.values()}
        assert len(outs) == 1, f"the examples leave {len(outs)} different outputs: {sorted(fits)[:6]}"
        mine = next(iter(fits.values()))
        agree(data, entry, fmt_grid(mine), True, f"own output ({sorted(fits)[0]})")
        h, w = len(mine), len(mine[0])
        for _ in range(3):
            r, c = rng.randrange(h), rng.randrange(w)
            g = [row[:] for row in mine]
            g[r][c] = (g[r][c] + rng.randrange(1, 10)) % 10
            agree(data, entry, fmt_grid(g), False, f"cell ({r},{c}) changed")
        agree(data, entry, fmt_grid(test), test == mine, "the input unchanged")
        if h > 1:
            agree(data, entry, fmt_grid(mine[:-1]), False, "last row left out")
        agree(data, entry, fmt_grid(T(mine)), T(mine) == mine, "transposed output")
        agree(data, entry, fmt_grid([[*row, 0] for row in mine]), False, "an extra column")
        no_panic(
            data,
            entry,
            [
                *GENERIC_JUNK,
                fmt_grid([[HUGE for _ in row] for row in mine]),
                fmt_grid([[-1 for _ in row] for row in mine]),
                fmt_grid([[10 for _ in row] for row in mine]),
                "\n".join("".join(map(str, row)) + " x" for row in mine),
            ],
        )


# ================================================================ sweeps for the rarer cases


@pytest.mark.parametrize("level", LEVELS)
def test_knapsack_ties(level):
    """'Any selection with the greatest possible value is accepted': where several selections reach
    the best value (a few percent of entries), every one of them scores."""
    seen = 0
    for data, entry in entries("knapsack", level, 100, seed=3000):
        cap, items = parse_knap(entry["question"])
        _, sets = knap_best_sets(cap, items)
        if len(sets) > 1:
            seen += 1
            for s in sets[:10]:
                agree(data, entry, " ".join(map(str, s)), True, f"one of {len(sets)} optimal selections")
    assert seen, "the sweep holds no entry with tied optima"


@pytest.mark.parametrize("level", LEVELS)
def test_eulerian_circuits(level):
    """When every degree is even the walk is closed and may start at any node on it, in either direction."""
    seen = 0
    for data, entry in entries("eulerian_trail", level, 20, seed=3000):
        p = parse_euler(entry["question"])
        degree = Counter(v for e in p[1] for v in e)
        if any(degree[v] % 2 for v in p[0]):
            continue
        seen += 1
        w = entry["answer"].split()
        assert w[0] == w[-1]
        for k in range(1, len(w) - 1):
            rotated = w[k:-1] + w[:k] + [w[k]]
            agree(data, entry, " ".join(rotated), True, f"closed walk started at step {k}")
            agree(data, entry, " ".join(rotated[::-1]), True, f"closed walk started at step {k}, reversed")
        # a closed walk with its closing step left out uses one edge too few
        agree(data, entry, " ".join(w[:-1]), False, "closing step left out")
    assert seen, "the sweep holds no closed walk"


@pytest.mark.parametrize("level", LEVELS)
def test_meeting_scheduling_flush(level):
    """Boundaries: a meeting may start when a busy time ends, end when one begins, end at the end of the
    day or exactly at its 'end by' time, start exactly at its 'start at or later' time. Each meeting is
    slid, minute by minute, as early and as late as the rules allow; both placements are valid."""
    for data, entry in entries("meeting_scheduling", level, SEEDS):
        p = parse_meetings(entry["question"])
        base = parse_sched(entry["answer"])
        for i in sorted(base):
            for step in (-1, 1):
                t = dict(base)
                while schedule_valid(p, {**t, i: t[i] + step}):
                    t[i] += step
                assert schedule_valid(p, t)
                agree(data, entry, fmt_sched(t), True, f"meeting {i} slid {'earliest' if step < 0 else 'latest'}")
                bad = {**t, i: t[i] + step}
                agree(data, entry, fmt_sched(bad), False, f"meeting {i} one minute past its limit")
