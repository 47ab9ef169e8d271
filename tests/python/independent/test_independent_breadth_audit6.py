"""Outside audit of tsumego, geometric_shapes and temporal_sequences, written from the `question` text alone.

The auditor read neither the families' Rust source, nor their unit tests, nor their rows in docs/tasks.md
(one search of that page for the answer-format policy printed the geometric_shapes row by accident; this
file relies on nothing beyond the prompt and the policy); the `answer` field is only the oracle's answer
under test, never ground truth.

- tsumego: the board read from the diagram (columns A.. skipping I, row 1 at the bottom); Go's capture,
  suicide and (levels 3-5) ko rules exactly as the prompt states them. Levels 1-2: every empty point
  played, captures counted, the accepted set is every legal move that captures the most. Levels 3-5: the
  marked group (the `@` stones, checked against the stones the question lists and against the board:
  one White group, no unmarked White stone attached) must be captured within k Black moves whatever
  White does: an AND-OR search (White may pass or play any legal move, Black must play; a Black move
  that leaves the group more liberties than Black has moves left is refuted by White passing, and for
  White's last reply only a pass, a liberty of the group or a capture can change the outcome, since
  any other move leaves the group and the ko state as a pass does). Every empty point on the board is
  then scored and must be accepted exactly when it wins (or captures the most); stones, off-board
  points, `I` columns, two points, a pass and malformed strings must not score. The default seeds never
  reach a position where ko or suicide decides, so `test_tsumego_rules_decide` pins twelve entries
  (found by sweeps) where the stated rules and another rule set (no ko; a ko on any single captured
  stone; suicide allowed) accept different first moves.
- geometric_shapes: own path reader (absolute and relative `M`/`L`/`A`, `Z`), SVG's endpoint-to-centre
  arc conversion, collinear pieces merged into maximal sides, a simple-closed-outline check, the
  quadrilateral kinds by exact integer lengths, dot and cross products and a convexity test, arc
  coverage per ellipse (whole circle or ellipse, or one circular arc plus exactly its two radii for a
  sector). The oracle's name must be the first that fits; the name, its synonyms (`line segment`,
  `trapezium`) and its capitalised forms are accepted; every other name of the list is refused, in
  particular the later names that also fit (a square is also a rectangle, rhombus, parallelogram,
  kite and quadrilateral).
- temporal_sequences: the facts read line by line (three sentence shapes of a sighting, several people
  per sighting, waking and bedtime, `closed after` and one or two opening spans); the free stretches
  computed from every breakpoint. The prompt's "exactly one such stretch" and (levels 1-2) exactly one
  matching option are asserted. Accepted: the letter as `B` and `(B)`, `(B)` followed by its slot, the
  bare slot, each time in any of the three stated styles (`2pm`, `2:30pm`, `14:30`), mixed; refused:
  every other letter, a letter with a wrong slot, the stretch moved or shortened at either end (the
  answer is the whole stretch), ends swapped, am/pm flipped, letters where no options are listed.

Every family also gets hedges (`X or Y`), prose inside the tags and malformed strings (never raise,
never 1.0). Where gauntlet and the prompt part ways the test is an xfail(strict) naming the finding. One
was found and fixed: temporal_sequences refused `B 6pm to 9pm` although the prompt lets the letter be
written `B` and lets the option's slot follow the letter (`test_temporal_bare_letter_with_slot`).
"""

from __future__ import annotations

import itertools
import math
import random
import re
from math import gcd

import pytest

import gauntlet

from ._common import HUGE, LEVELS, agree, entries, no_panic

SEEDS = 4
GENERIC_JUNK = ["", " ", "\n\n", "(", "-", "None", "{}", "A=", "Z Z Z", ",,,", "|", "1/0", HUGE, "é"]


def rng_for(name: str, level: int, seed: int) -> random.Random:
    return random.Random(f"audit6-{name}-{level}-{seed}")


def hedges_and_prose(data, entry, right: str, wrong: str) -> None:
    """Two answers at once, and a right answer wrapped in prose, never score."""
    agree(data, entry, f"{right} or {wrong}", False, "hedge: right or wrong")
    agree(data, entry, f"{wrong} or {right}", False, "hedge: wrong or right")
    agree(data, entry, f"{right}/{wrong}", False, "hedge: right/wrong")
    agree(data, entry, f"The answer is: {right}", False, "prose before the answer")
    agree(data, entry, f"{right} (I think)", False, "prose after the answer")
    agree(data, entry, f"{right}\n{right}", False, "the answer twice")


def wrappers(data, entry, right: str) -> None:
    """The answer-format policy's tolerated wrappers keep a right answer right."""
    for t in (f"`{right}`", f"{right}.", f"  {right}\n", f"`{right}`."):
        agree(data, entry, t, True, f"tolerated wrapper {t!r}")


# ================================================================ tsumego

COLS = "ABCDEFGHJKLMNOPQRST"  # Go boards skip I


def parse_go(q):
    """(size, board as a string row-major from the top, marked points, Black moves allowed or None)."""
    n = int(re.search(r"Go problem, (\d+)×\1 board, Black \(X\) to play\.", q).group(1))
    assert re.search(r"^ +" + " ".join(COLS[:n]) + "$", q, re.M), q
    rows = {}
    for m in re.finditer(rf"^ *(\d+) ((?:[XO@.] ){{{n - 1}}}[XO@.])$", q, re.M):
        rows[int(m.group(1))] = m.group(2).split()
    assert sorted(rows) == list(range(1, n + 1)), q
    cells = [rows[n - r][c] for r in range(n) for c in range(n)]
    marked = [i for i, t in enumerate(cells) if t == "@"]
    board = "".join("O" if t == "@" else t for t in cells)
    moves = None
    if marked:
        listed = re.search(r"the marked group is the White group of the stones at ([A-Z0-9, ]+)\. ", q).group(1)
        assert sorted(point(n, s) for s in listed.split(", ")) == marked, (listed, q)
        moves = int(re.search(r"within (\d+) Black moves in all, this move included, whatever White does", q).group(1))
        assert "Ko: when a single stone has just captured exactly one stone" in q, q
    else:
        assert "captures as many White stones as possible with this one move" in q, q
        assert "no ko restriction applies" in q, q
    return n, board, marked, moves


def pname(n: int, i: int) -> str:
    return f"{COLS[i % n]}{n - i // n}"


def point(n: int, s: str) -> int:
    m = re.fullmatch(r"([A-HJ-T])(\d+)", s)
    c, r = COLS.index(m.group(1)), int(m.group(2))
    assert c < n and 1 <= r <= n, s
    return (n - r) * n + c


def go_neighbours(n: int):
    out = []
    for i in range(n * n):
        r, c = divmod(i, n)
        out.append(tuple(j for j, ok in ((i - n, r > 0), (i + n, r < n - 1), (i - 1, c > 0), (i + 1, c < n - 1)) if ok))
    return out


def go_group(board, nb, p):
    """(stones, liberties) of the group at p."""
    col = board[p]
    stones, libs, stack = {p}, set(), [p]
    while stack:
        for q in nb[stack.pop()]:
            t = board[q]
            if t == ".":
                libs.add(q)
            elif t == col and q not in stones:
                stones.add(q)
                stack.append(q)
    return stones, libs


def go_play(board, nb, p, col, ko=None, suicide=False):
    """The prompt's move: (new board, captured stones, point the opponent may not take next) or None if illegal.

    Place, remove every opposing group left without a liberty, then the mover's group needs a liberty
    (suicide). Ko: a single stone that captured exactly one stone and has one liberty may not be taken
    back on that liberty on the very next move. `suicide=True` is another rule set's reading (a move
    without a liberty removes its own group), used only to find the entries where the rules differ."""
    if board[p] != "." or p == ko:
        return None
    opp = "O" if col == "X" else "X"
    b = list(board)
    b[p] = col
    dead = set()
    for q in nb[p]:
        if b[q] == opp and q not in dead:
            st, lb = go_group(b, nb, q)
            if not lb:
                dead |= st
    for q in dead:
        b[q] = "."
    st, lb = go_group(b, nb, p)
    if not lb and not suicide:
        return None
    for q in st if not lb else ():
        b[q] = "."
    ban = next(iter(dead)) if len(dead) == 1 and len(st) == 1 and len(lb) == 1 else None
    return "".join(b), dead, ban


class CaptureSearch:
    """Can Black capture the group at `anchor` within d moves whatever White does (White may pass)?"""

    def __init__(self, n, anchor, rule="prompt"):
        self.nb, self.anchor, self.memo, self.rule = go_neighbours(n), anchor, {}, rule

    def play(self, board, p, col, ko):
        return go_play(board, self.nb, p, col, ko, suicide=self.rule == "suicide")

    def ban(self, played):
        """The point the opponent may not take next: the prompt's ko; other rules only to find where they
        differ: no ko at all (`no-ko`), a ko that bans retaking any single captured stone (`one-stone`)."""
        _, dead, ban = played
        if self.rule in ("prompt", "suicide"):
            return ban
        return next(iter(dead)) if self.rule == "one-stone" and len(dead) == 1 else None

    def libs(self, board):
        return go_group(board, self.nb, self.anchor)[1]

    def black_wins(self, board, d, ko):
        """Black to move with d moves left."""
        key = (board, d, ko)
        if key not in self.memo:
            libs = self.libs(board)
            if d == 1:
                # only filling the last liberty captures; a capture is never suicide, only ko forbids it
                res = len(libs) == 1 and next(iter(libs)) != ko
            elif len(libs) > d:
                res = False  # each Black move takes at most one liberty and White can pass
            else:
                others = [] if len(libs) == d else [i for i, t in enumerate(board) if t == "." and i not in libs]
                res = any(self.after_black(board, m, d, ko) for m in [*sorted(libs), *others])
            self.memo[key] = res
        return self.memo[key]

    def after_black(self, board, m, d, ko):
        """Black plays m with d moves left, m included."""
        r = self.play(board, m, "X", ko)
        if r is None:
            return False
        b = r[0]
        if b[self.anchor] != "O":
            return True
        if d == 1 or len(self.libs(b)) > d - 1:
            return False
        return self.white_all(b, d - 1, self.ban(r))

    def white_all(self, board, d, ko):
        """White to move (any legal move or a pass); Black then has d moves: does Black win every line?"""
        if not self.black_wins(board, d, None):  # a pass
            return False
        libs, caps, seen = self.libs(board), set(), set()
        for i, t in enumerate(board):
            if t == "X" and i not in seen:
                st, lb = go_group(board, self.nb, i)
                seen |= st
                if len(lb) == 1:
                    caps |= lb
        replies = [*sorted(libs), *sorted(caps - libs)]
        if d > 1:
            replies += [i for i, t in enumerate(board) if t == "." and i not in libs and i not in caps]
        for w in replies:
            r = self.play(board, w, "O", ko)
            if r is not None and not self.black_wins(r[0], d, self.ban(r)):
                return False
        return True


def tsumego_answers(n, board, marked, moves, rule="prompt"):
    """{empty point: accepted?} by the prompt's rules (other `rule`s: see `CaptureSearch`)."""
    nb = go_neighbours(n)
    empty = [p for p in range(n * n) if board[p] == "."]
    if not marked:
        caught = {p: len(r[1]) for p in empty if (r := go_play(board, nb, p, "X")) is not None}
        best = max(caught.values())
        assert best >= 1, "no move captures anything"
        return {p: caught.get(p) == best for p in empty}
    search = CaptureSearch(n, marked[0], rule)
    stones, _ = go_group(board, search.nb, marked[0])
    assert sorted(stones) == marked, "the marked stones are not exactly one White group"
    return {p: search.after_black(board, p, moves, None) for p in empty}


@pytest.mark.parametrize("level", LEVELS)
def test_tsumego(level):
    for data, entry in entries("tsumego", level, SEEDS):
        rng = rng_for("tsumego", level, entry["metadata"]["seed"])
        n, board, marked, moves = parse_go(entry["question"])
        verdict = tsumego_answers(n, board, marked, moves)
        wins = [p for p, ok in verdict.items() if ok]
        assert wins, "no move does what the question asks"
        oracle = entry["answer"].strip()
        assert point(n, oracle) in wins, f"the oracle's {oracle} does not win; winners {[pname(n, p) for p in wins]}"
        for p, ok in verdict.items():
            agree(data, entry, pname(n, p), ok, "every empty point: " + ("a winning move" if ok else "not winning"))
        stones = [p for p in range(n * n) if board[p] != "."]
        for p in rng.sample(stones, min(6, len(stones))) + marked[:1]:
            agree(data, entry, pname(n, p), False, "a point with a stone on it")
        wrappers(data, entry, oracle)
        loser = next((pname(n, p) for p in verdict if not verdict[p]), pname(n, stones[0]))
        agree(data, entry, f"{oracle} {loser}", False, "two points")
        agree(data, entry, f"{oracle}, {oracle}", False, "the point twice")
        off = [f"{COLS[n]}1", f"A{n + 1}", "A0", f"I{n // 2 + 1}", f"{oracle[0]}{HUGE}"]
        for t in off:
            agree(data, entry, t, False, "off the board or an I column")
        hedges_and_prose(data, entry, oracle, loser)
        no_panic(data, entry, [*GENERIC_JUNK, "pass", "D", "4", "4D", f"{oracle}{oracle}", f"{oracle}-", "@", "X"])


# Entries (level, seed) where the rules as stated decide whether a first move wins, found by sweeping
# 300 entries per level 3-5 under other rules: without ko (7 of 900 differ, from seed 31003), with a ko that
# bans retaking any single captured stone even when the capturing stone joined a group (26 of 900, from
# seed 41003: snapbacks; two of them a first move that wins only under that looser rule), and with suicide
# allowed, removing the mover's group (91 of 900, from seed 61003). The default seeds meet none of these.
RULE_DECIDES = [
    ("no-ko", 4, 31041),
    ("no-ko", 4, 31111),
    ("no-ko", 5, 31165),
    ("no-ko", 5, 31250),
    ("one-stone", 3, 41023),
    ("one-stone", 4, 41056),
    ("one-stone", 5, 41091),
    ("one-stone", 5, 41231),
    ("one-stone", 5, 41267),
    ("suicide", 3, 61009),
    ("suicide", 4, 61015),
    ("suicide", 5, 61193),
]


@pytest.mark.parametrize(("other", "level", "seed"), RULE_DECIDES)
def test_tsumego_rules_decide(other, level, seed):
    data = gauntlet.create_dataset("tsumego", size=1, seed=seed, level=level)
    entry = data[0]
    n, board, marked, moves = parse_go(entry["question"])
    verdict = tsumego_answers(n, board, marked, moves)
    under_other = tsumego_answers(n, board, marked, moves, rule=other)
    differ = [p for p in verdict if verdict[p] != under_other[p]]
    assert differ, f"the {other} rule no longer differs in this entry: pick another from a new sweep"
    assert point(n, entry["answer"].strip()) in [p for p, ok in verdict.items() if ok]
    for p in differ:
        why = "wins only under the stated rules" if verdict[p] else f"wins only under the {other} rule"
        agree(data, entry, pname(n, p), verdict[p], f"{pname(n, p)} {why}")


# ================================================================ geometric_shapes

SHAPES = [
    "line",
    "triangle",
    "square",
    "rectangle",
    "rhombus",
    "parallelogram",
    "trapezoid",
    "kite",
    "quadrilateral",
    "pentagon",
    "hexagon",
    "heptagon",
    "octagon",
    "circle",
    "ellipse",
    "sector",
]
SYNONYMS = {"line": ["line segment"], "trapezoid": ["trapezium"]}
ARGS = {"M": 2, "L": 2, "A": 7, "Z": 0}


def parse_path(q):
    """(straight segments, arcs) of the path; every command is written out, as the prompt's grammar has it."""
    for name in SHAPES:
        assert re.search(rf"^- (?:[a-z]+, )*{name}\b", q, re.M), name
    d = re.search(r'<path d="([^"]*)"/>', q).group(1)
    toks = re.findall(r"[A-Za-z]|-?\d+", d)
    segs, arcs = [], []
    cur = start = None
    i = 0
    while i < len(toks):
        cmd = toks[i]
        assert cmd in "MLAZmla", d
        c, rel = cmd.upper(), cmd.islower()
        args = [int(t) for t in toks[i + 1 : i + 1 + ARGS[c]]]
        i += 1 + ARGS[c]
        if c == "Z":
            segs.append((cur, start))
            cur = start
            continue
        x, y = args[-2:]
        p = (cur[0] + x, cur[1] + y) if rel else (x, y)
        if c == "M":
            start = p
        elif c == "L":
            segs.append((cur, p))
        else:
            rx, ry, rot, large, sweep = args[:5]
            assert rot == 0 and large in (0, 1) and sweep in (0, 1) and rx > 0 and ry > 0, d
            arcs.append((cur, p, rx, ry, large, sweep))
        cur = p
    return [s for s in segs if s[0] != s[1]], [a for a in arcs if a[0] != a[1]]


def arc_geometry(arc):
    """SVG's endpoint-to-centre conversion (rotation 0): centre, radii, start angle, signed sweep angle.

    With x' = (x1 - x2)/2, y' = (y1 - y2)/2: the centre is c' + midpoint with
    c' = ±sqrt((rx²ry² - rx²y'² - ry²x'²)/(rx²y'² + ry²x'²)) (rx y'/ry, -ry x'/rx), minus when large = sweep;
    the sweep is the angle from the start to the end, positive when sweep = 1."""
    (x1, y1), (x2, y2), rx, ry, large, sweep = arc
    xp, yp = (x1 - x2) / 2, (y1 - y2) / 2
    assert xp * xp / (rx * rx) + yp * yp / (ry * ry) <= 1 + 1e-9, f"no such ellipse passes both ends: {arc}"
    num = rx * rx * ry * ry - rx * rx * yp * yp - ry * ry * xp * xp
    den = rx * rx * yp * yp + ry * ry * xp * xp
    k = math.sqrt(max(0.0, num / den)) * (-1 if large == sweep else 1)
    cxp, cyp = k * rx * yp / ry, -k * ry * xp / rx
    t1 = math.atan2((yp - cyp) / ry, (xp - cxp) / rx)
    t2 = math.atan2((-yp - cyp) / ry, (-xp - cxp) / rx)
    dt = (t2 - t1) % (2 * math.pi)
    if sweep == 0:
        dt -= 2 * math.pi
    half = abs(abs(dt) - math.pi) < 1e-9
    assert half or (abs(dt) > math.pi) == (large == 1), f"the arc's length disagrees with its large flag: {arc}"
    return (cxp + (x1 + x2) / 2, cyp + (y1 + y2) / 2), (rx, ry), t1, dt


def arc_cover(arcs):
    """{(cx, cy, rx, ry): merged angle intervals within [0, 2π)} of everything the arcs draw."""
    tau = 2 * math.pi
    out = {}
    for arc in arcs:
        (cx, cy), (rx, ry), t1, dt = arc_geometry(arc)
        s = (t1 if dt > 0 else t1 + dt) % tau
        e = s + abs(dt)
        ivs = out.setdefault((round(cx, 6), round(cy, 6), rx, ry), [])
        ivs.extend([(s, min(e, tau))] + ([(0.0, e - tau)] if e > tau else []))
    for key, ivs in out.items():
        ivs.sort()
        merged = [list(ivs[0])]
        for s, e in ivs[1:]:
            if s <= merged[-1][1] + 1e-9:
                merged[-1][1] = max(merged[-1][1], e)
            else:
                merged.append([s, e])
        if len(merged) > 1 and merged[0][0] < 1e-9 and merged[-1][1] > tau - 1e-9:
            merged[0][0] = merged[-1][0] - tau  # one interval across angle 0
            merged.pop()
        out[key] = merged
    return out


def maximal_sides(segs):
    """Collinear segments that overlap or touch become one side (a straight outline point is no corner)."""
    lines = {}
    for p, q in segs:
        a, b = q[1] - p[1], p[0] - q[0]
        g = gcd(a, b)
        a, b = a // g, b // g
        if a < 0 or (a == 0 and b < 0):
            a, b = -a, -b
        lines.setdefault((a, b, a * p[0] + b * p[1]), []).append(tuple(sorted((p, q))))
    out = []
    for pieces in lines.values():
        pieces.sort()
        cur = list(pieces[0])
        for p, q in pieces[1:]:
            if p <= cur[1]:
                cur[1] = max(cur[1], q)
            else:
                out.append(tuple(cur))
                cur = [p, q]
        out.append(tuple(cur))
    return out


def cross(o, a, b):
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def on_segment(p, a, b):
    return cross(a, b, p) == 0 and min(a, b) <= p <= max(a, b)


def segments_meet(p1, p2, p3, p4):
    d1, d2, d3, d4 = cross(p3, p4, p1), cross(p3, p4, p2), cross(p1, p2, p3), cross(p1, p2, p4)
    if d1 * d2 < 0 and d3 * d4 < 0:
        return True
    return on_segment(p1, p3, p4) or on_segment(p2, p3, p4) or on_segment(p3, p1, p2) or on_segment(p4, p1, p2)


def outline(sides):
    """The corners, in order, of the simple closed outline these maximal sides make, or None."""
    ends = {}
    for s in sides:
        for p in s:
            ends.setdefault(p, []).append(s)
    if any(len(v) != 2 for v in ends.values()):
        return None
    corners, prev, p = [sides[0][0]], sides[0], sides[0][1]
    while p != corners[0]:
        corners.append(p)
        prev = next(s for s in ends[p] if s != prev)
        p = prev[1] if prev[0] == p else prev[0]
    k = len(corners)
    if k != len(sides):
        return None
    for i in range(k):
        for j in range(i + 2, k - (i == 0)):
            if segments_meet(corners[i], corners[(i + 1) % k], corners[j], corners[(j + 1) % k]):
                return None
    return corners


def quadrilateral_names(v):
    """Every quadrilateral name of the list that fits corners v, in the list's order (exact integers)."""
    s = [(v[(i + 1) % 4][0] - v[i][0], v[(i + 1) % 4][1] - v[i][1]) for i in range(4)]
    ln = [x * x + y * y for x, y in s]
    right = all(s[i - 1][0] * s[i][0] + s[i - 1][1] * s[i][1] == 0 for i in range(4))
    par = [s[i][0] * s[i + 2][1] - s[i][1] * s[i + 2][0] == 0 for i in range(2)]
    turns = [s[i][0] * s[(i + 1) % 4][1] - s[i][1] * s[(i + 1) % 4][0] for i in range(4)]
    convex = all(t > 0 for t in turns) or all(t < 0 for t in turns)
    equal = len(set(ln)) == 1
    kite = convex and ((ln[0] == ln[1] and ln[2] == ln[3]) or (ln[1] == ln[2] and ln[3] == ln[0]))
    fits = [equal and right, right, equal, all(par), sum(par) == 1, kite, True]
    names = ["square", "rectangle", "rhombus", "parallelogram", "trapezoid", "kite", "quadrilateral"]
    return [name for name, ok in zip(names, fits, strict=True) if ok]


def sector_fits(sides, cover) -> bool:
    """One circular arc (not whole) and, as the only straight pieces, the radii to its two ends."""
    (cx, cy, rx, ry), ivs = next(iter(cover.items()))
    if rx != ry or len(ivs) != 1:
        return False
    s, e = ivs[0]
    ends = [(cx + rx * math.cos(t), cy + ry * math.sin(t)) for t in (s, e)]
    want = [((cx, cy), p) for p in ends]
    if abs(e - s - math.pi) < 1e-9:
        want = [tuple(ends)]  # exactly half: the two radii make one diameter

    def close(p, q):
        return abs(p[0] - q[0]) < 1e-6 and abs(p[1] - q[1]) < 1e-6

    def same(g, w):  # the same segment, either end first
        return (close(g[0], w[0]) and close(g[1], w[1])) or (close(g[0], w[1]) and close(g[1], w[0]))

    return len(sides) == len(want) and all(any(same(g, w) for g in sides) for w in want)


def shape_names(segs, arcs):
    """Every name of the list that fits the figure, in the list's order: the first is the answer."""
    sides = maximal_sides(segs)
    if not arcs:
        if len(sides) == 1:
            return ["line"]
        corners = outline(sides)
        assert corners is not None, f"neither one segment nor a simple closed outline: {sides}"
        k = len(corners)
        assert 3 <= k <= 8, f"{k} sides"
        if k == 4:
            return quadrilateral_names(corners)
        return [{3: "triangle", 5: "pentagon", 6: "hexagon", 7: "heptagon", 8: "octagon"}[k]]
    cover = arc_cover(arcs)
    assert len(cover) == 1, f"arcs of several ellipses: {cover}"
    (_, _, rx, ry), ivs = next(iter(cover.items()))
    if len(ivs) == 1 and ivs[0][1] - ivs[0][0] >= 2 * math.pi - 1e-9:
        assert not sides, "a whole ellipse and straight pieces: no name fits"
        return ["circle"] if rx == ry else ["ellipse"]
    assert sector_fits(sides, cover), f"no name fits: sides {sides}, arcs {ivs}"
    return ["sector"]


@pytest.mark.parametrize("level", LEVELS)
def test_geometric_shapes(level):
    for data, entry in entries("geometric_shapes", level, SEEDS * 3):
        segs, arcs = parse_path(entry["question"])
        names = shape_names(segs, arcs)
        mine = names[0]
        assert entry["answer"].strip() == mine, f"the oracle says {entry['answer']}, the first fitting name is {mine}"
        agree(data, entry, mine, True, "own name")
        for alias in SYNONYMS.get(mine, []):
            agree(data, entry, alias, True, f"synonym {alias}")
        agree(data, entry, mine.capitalize(), True, "capitalised (names are case-insensitive)")
        agree(data, entry, mine.upper(), True, "upper case (names are case-insensitive)")
        wrappers(data, entry, mine)
        for other in SHAPES:
            if other != mine:
                why = "a later name that also fits" if other in names else "a name that does not fit"
                agree(data, entry, other, False, f"{other}: {why}")
        for name, aliases in SYNONYMS.items():
            if name != mine:
                for alias in aliases:
                    agree(data, entry, alias, False, f"synonym of {name}")
        wrong = "circle" if mine != "circle" else "ellipse"
        agree(data, entry, f"a {mine}", False, "an article")
        agree(data, entry, f"{mine}s", False, "plural")
        agree(data, entry, f"{mine} {mine}", False, "the name twice")
        hedges_and_prose(data, entry, mine, wrong)
        no_panic(data, entry, [*GENERIC_JUNK, "shape", "polygon", "4-gon", "nonagon", "oval", mine[:-1], f"<{mine}>"])


# ================================================================ temporal_sequences

TIME = r"(\d{1,2}(?::\d\d)?(?:am|pm)?)"
NAME = r"[A-Z][a-z]+"
WHO = rf"({NAME}(?: and {NAME})*)"


def minutes(t: str) -> int:
    """`2pm`, `2:30pm` (12pm is noon) or `14:30` (24-hour clock) as minutes after midnight."""
    m = re.fullmatch(r"(\d{1,2})(?::(\d\d))?(am|pm)?", t)
    h, mi, ap = int(m.group(1)), int(m.group(2) or 0), m.group(3)
    assert mi < 60 and (ap or m.group(2)), t
    if ap:
        assert 1 <= h <= 12, t
        h = h % 12 + (12 if ap == "pm" else 0)
    return h * 60 + mi


def parse_temporal(q):
    """(person, wake, bed or None, the person's sightings, opening spans, {letter: slot})."""
    head = rf"Today, ({NAME}) went to the ([a-z ]+)\. Between what times could they have gone\?"
    who, place = re.match(head, q).groups()
    facts = q.split("We know that:\n", 1)[1].split("\n\nRules:", 1)[0].splitlines()
    wake, bed, seen, opened = None, None, [], None
    for line in facts:
        if m := re.fullmatch(rf"{who} woke up at {TIME}\.", line):
            wake = minutes(m.group(1))
        elif m := re.fullmatch(rf"{who} went to bed at {TIME}\.", line):
            bed = minutes(m.group(1))
        elif m := re.fullmatch(rf"The {place} was closed after {TIME}\.", line):
            opened = [(None, minutes(m.group(1)))]
        elif m := re.fullmatch(rf"The {place} was open from (.*) and closed at all other times\.", line):
            spans = [re.fullmatch(rf"{TIME} to {TIME}", s).groups() for s in m.group(1).split(" and from ")]
            opened = [(minutes(a), minutes(b)) for a, b in spans]
        elif (m := re.fullmatch(rf"{NAME} saw {WHO} [a-z].* from {TIME} to {TIME}\.", line)) or (
            m := re.fullmatch(rf"{WHO} (?:was|were) seen [a-z].* by {NAME} from {TIME} to {TIME}\.", line)
        ):
            seen.append((m.group(1).split(" and "), minutes(m.group(2)), minutes(m.group(3))))
        elif m := re.fullmatch(rf"From {TIME} to {TIME}, {NAME} saw {WHO} [a-z].*\.", line):
            seen.append((m.group(3).split(" and "), minutes(m.group(1)), minutes(m.group(2))))
        else:
            raise AssertionError(f"a fact this reader does not know: {line}")
    assert wake is not None and opened is not None, q
    assert ("after going to bed" in q) == (bed is not None), q
    busy = [(a, b) for names, a, b in seen if who in names]
    assert all(a < b for a, b in busy), busy
    opts = {k: (minutes(a), minutes(b)) for k, a, b in re.findall(rf"^\(([A-Z])\) {TIME} to {TIME}$", q, re.M)}
    assert bool(opts) == ("There are no options" not in q), q
    return who, wake, bed, busy, opened, opts


def free_stretches(wake, bed, busy, opened):
    """Maximal stretches [a, b], a < b, in which the person is awake, seen nowhere and the place is open."""
    day_end = bed if bed is not None else 48 * 60
    pts = sorted({wake, day_end, *(t for s in busy for t in s), *(t for s in opened for t in s if t is not None)})
    out = []
    for a, b in itertools.pairwise(pts):
        mid = (a + b) / 2
        ok = wake < mid < day_end and not any(x < mid < y for x, y in busy)
        if ok and any((x is None or x < mid) and mid < y for x, y in opened):
            if out and out[-1][1] == a:
                out[-1][1] = b
            else:
                out.append([a, b])
    return [tuple(s) for s in out]


def fmt12_minutes(m: int) -> str:
    h, mi = divmod(m, 60)
    return f"{h % 12 or 12}:{mi:02d}{'am' if h < 12 else 'pm'}"


def fmt12(m: int) -> str:
    """`2pm` on the hour, else `2:30pm`."""
    return fmt12_minutes(m).replace(":00", "")


def fmt24(m: int) -> str:
    return f"{m // 60}:{m % 60:02d}"


STYLES = [fmt12, fmt12_minutes, fmt24]


def slot_forms(a: int, b: int, rng) -> list[str]:
    """The slot in every stated style and in a few mixed ones."""
    out = [f"{f(a)} to {f(b)}" for f in STYLES]
    for _ in range(3):
        f, g = rng.choice(STYLES), rng.choice(STYLES)
        out.append(f"{f(a)} to {g(b)}")
    return out


def slot_misses(a: int, b: int, opts) -> list[tuple[str, str]]:
    """(slot, what) near misses: moved, shortened or widened at one end, swapped, am/pm flipped, other options."""
    out = []
    moves = [(15, 0, "starts late"), (-15, 0, "starts early"), (0, -15, "ends early"), (0, 15, "ends late")]
    for da, db, what in moves:
        out += [((a + da, b + db), what), ((a + 4 * da, b + 4 * db), what + " by an hour")]
    out += [((a + 30, b - 30), "a part of the stretch"), ((a + 12 * 60, b + 12 * 60), "am/pm flipped")]
    out += [(s, f"option {k}'s slot") for k, s in opts.items()]
    misses = [(f"{fmt12(x)} to {fmt12(y)}", what) for (x, y), what in out if 0 <= x < y < 24 * 60 and (x, y) != (a, b)]
    if 12 * 60 in (a, b):  # noon is 12pm, never 12am
        misses.append((f"{fmt12(a)} to {fmt12(b)}".replace("12pm", "12am"), "noon written 12am"))
    return misses


@pytest.mark.parametrize("level", LEVELS)
def test_temporal_sequences(level):
    for data, entry in entries("temporal_sequences", level, SEEDS * 2):
        rng = rng_for("temporal", level, entry["metadata"]["seed"])
        _, wake, bed, busy, opened, opts = parse_temporal(entry["question"])
        found = free_stretches(wake, bed, busy, opened)
        assert len(found) == 1, f"the prompt says exactly one stretch; found {found}"
        a, b = found[0]
        assert 0 <= a < b < 24 * 60, found
        slot = f"{fmt12(a)} to {fmt12(b)}"
        for form in slot_forms(a, b, rng):
            agree(data, entry, form, True, "the whole stretch as a slot")
        for miss, what in slot_misses(a, b, opts):
            agree(data, entry, miss, False, what)
        agree(data, entry, f"{fmt12(b)} to {fmt12(a)}", False, "ends swapped")
        agree(data, entry, f"{fmt12(a)} to {fmt12(a)}", False, "an empty slot")
        wrappers(data, entry, slot)
        if opts:
            right = [k for k, s in opts.items() if s == (a, b)]
            assert len(right) == 1 and len(set(opts.values())) == len(opts), opts
            k = right[0]
            assert entry["answer"].strip() in (k, f"({k})"), entry["answer"]
            for form in (k, f"({k})", f"({k}) {slot}", f"({k}) {fmt24(a)} to {fmt24(b)}"):
                agree(data, entry, form, True, f"letter form {form!r}")
            for other, s in opts.items():
                if other != k:
                    agree(data, entry, f"({other})", False, f"option {other}")
                    agree(data, entry, other, False, f"option {other}, bare letter")
                    theirs = f"{fmt12(s[0])} to {fmt12(s[1])}"
                    agree(data, entry, f"({other}) {theirs}", False, f"option {other} with its slot")
                    agree(data, entry, f"({k}) {theirs}", False, f"the right letter, {other}'s slot")
            agree(data, entry, f"({chr(ord(max(opts)) + 1)})", False, "a letter past the options")
            wrong = f"({next(o for o in opts if o != k)})"
            hedges_and_prose(data, entry, f"({k})", wrong)
            no_panic(data, entry, [*GENERIC_JUNK, "()", f"({k}", f"{k}{k}", f"({k}) {slot} {k}", f"({k}) to"])
        else:
            for letter in "ABCD":
                agree(data, entry, letter, False, "a letter where no options are listed")
            hedges_and_prose(data, entry, slot, slot_misses(a, b, opts)[0][0])
        no_panic(data, entry, [f"{fmt12(a)} to", f"to {fmt12(b)}", f"{slot} to {fmt12(b)}", "25:00 to 26:00"])
        no_panic(data, entry, ["13pm to 14pm", "9:60am to 11am", f"{HUGE} to {HUGE}", f"{fmt12(a)}", "noon to noon"])


def test_temporal_bare_letter_with_slot():
    for data, entry in entries("temporal_sequences", 1, 2):
        _, wake, bed, busy, opened, opts = parse_temporal(entry["question"])
        (a, b) = free_stretches(wake, bed, busy, opened)[0]
        k = next(k for k, s in opts.items() if s == (a, b))
        agree(data, entry, f"{k} {fmt12(a)} to {fmt12(b)}", True, "bare letter followed by its slot")
