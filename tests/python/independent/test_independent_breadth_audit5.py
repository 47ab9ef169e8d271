"""Outside audit of nine families added on 2026-11-29, written from each family's `question` text alone.

The auditor read neither the families' Rust source, nor their rows in docs/tasks.md, nor their unit
tests; the `answer` field is only the oracle's answer under test, never ground truth.

- strongly_connected_components: components by mutual reachability (own BFS from every node); the
  partition in any order of components and nodes, `|` with or without spaces; near misses: two
  components merged, one split, a node moved, dropped or listed twice, every node alone or together.
- graph_bridges (bridges at the low levels, cut vertices at the high ones): every edge / vertex removed
  in turn and connectivity recomputed; the prompt's "connected" and "at least one" asserted; either
  vertex first, any order; near misses: one dropped, a non-bridge added, one listed twice (also
  reversed), cut vertices written as edges.
- longest_common_subsequence: k-string DP, every longest common subsequence enumerated; several other
  longest ones tried; near misses: a letter dropped, added or changed, a subsequence of one string only.
- coin_change: DP for the fewest coins, every optimal multiset enumerated; other optimal selections in
  any order; near misses: a payment with more coins, a coin too many or changed, a value not offered,
  `impossible` when payable (and coins when not).
- huffman_code: the optimum from Huffman's merges (cross-checked by brute force over code-length
  profiles at small sizes); other optimal codes (random tie-breaking, bits flipped per node, canonical
  codes, equal counts swapped), `name=value`, semicolons, newlines, lower-case names; near misses: a
  codeword lengthened, a prefix clash, two codewords swapped across counts, a symbol missing or twice.
- shikaku, slant, aquarium, killer_sudoku: own backtracking solvers that count solutions up to 2 (no
  prompt claims uniqueness, so every solution must score); the oracle's grid checked by an own rule
  checker; relabelled rectangles (both letter cases), rows written together where the policy allows
  it; near misses: one cell changed, two cells swapped, one rectangle merged or a water level moved.

Every family also gets hedges (`X or Y`), prose inside the tags and malformed strings (never raise,
never 1.0). Where gauntlet and the prompt part ways the test is an xfail(strict) naming the finding.
"""

from __future__ import annotations

import heapq
import itertools
import random
import re
from collections import deque
from functools import cache, partial

import pytest

from ._common import HUGE, LEVELS, agree, entries, no_panic

SEEDS = 4
GENERIC_JUNK = ["", " ", "\n\n", "(", "-", "None", "{}", "A=", "Z Z Z", ",,,", "|", "1/0", HUGE, "é"]


def rng_for(name: str, level: int, seed: int) -> random.Random:
    return random.Random(f"audit5-{name}-{level}-{seed}")


def hedges_and_prose(data, entry, right: str, wrong: str) -> None:
    """Two answers at once, and a right answer wrapped in prose, never score."""
    agree(data, entry, f"{right} or {wrong}", False, "hedge: right or wrong")
    agree(data, entry, f"{wrong} or {right}", False, "hedge: wrong or right")
    agree(data, entry, f"The answer is: {right}", False, "prose before the answer")
    agree(data, entry, f"{right} (I think)", False, "prose after the answer")
    agree(data, entry, f"{right}\n{right}", False, "the answer twice")


# ================================================================ strongly_connected_components


def parse_scc(q):
    lo, hi = re.search(r"has the nodes ([A-Z]) to ([A-Z]) and these one-way edges", q).groups()
    nodes = [chr(c) for c in range(ord(lo), ord(hi) + 1)]
    edges = re.findall(r"^([A-Z]) -> ([A-Z])$", q, re.M)
    assert edges and all(a in nodes and b in nodes for a, b in edges), q
    return nodes, edges


def reach(nodes, edges):
    out = {v: set() for v in nodes}
    for a, b in edges:
        out[a].add(b)
    seen = {}
    for s in nodes:
        got, dq = {s}, deque([s])
        while dq:
            for w in out[dq.popleft()]:
                if w not in got:
                    got.add(w)
                    dq.append(w)
        seen[s] = got
    return seen


def scc_partition(nodes, edges):
    r = reach(nodes, edges)
    comps, done = [], set()
    for v in nodes:
        if v not in done:
            comp = [w for w in nodes if w in r[v] and v in r[w]]
            done.update(comp)
            comps.append(comp)
    return comps


def scc_valid(nodes, comps_true, text: str) -> bool:
    """The prompt's rules: components split by `|`, nodes by spaces, every node exactly once."""
    parts = text.split("|")
    comps = [p.split() for p in parts]
    if any(not c for c in comps):
        return False
    flat = [v for c in comps for v in c]
    if sorted(flat) != sorted(nodes):
        return False
    return sorted(sorted(c) for c in comps) == sorted(sorted(c) for c in comps_true)


def fmt_scc(comps, sep=" | "):
    return sep.join(" ".join(c) for c in comps)


@pytest.mark.parametrize("level", LEVELS)
def test_strongly_connected_components(level):
    for data, entry in entries("strongly_connected_components", level, SEEDS):
        rng = rng_for("scc", level, entry["metadata"]["seed"])
        nodes, edges = parse_scc(entry["question"])
        comps = scc_partition(nodes, edges)
        assert scc_valid(nodes, comps, entry["answer"]), f"the oracle's partition is wrong: {entry['answer']}"
        agree(data, entry, fmt_scc(comps), True, "own partition")
        for _ in range(3):
            sh = [rng.sample(c, len(c)) for c in rng.sample(comps, len(comps))]
            agree(data, entry, fmt_scc(sh), True, "components and nodes shuffled")
        agree(data, entry, fmt_scc(comps, "|"), True, "`|` without spaces")
        agree(data, entry, fmt_scc(comps, "  |   "), True, "`|` with extra spaces")
        big = [c for c in comps if len(c) > 1]
        if len(comps) > 1:
            i, j = rng.sample(range(len(comps)), 2)
            merged = [c for k, c in enumerate(comps) if k not in (i, j)] + [comps[i] + comps[j]]
            agree(data, entry, fmt_scc(merged), False, "two components merged")
            t = [list(c) for c in comps]
            v = t[i].pop()
            t[j].append(v)
            t = [c for c in t if c]
            agree(data, entry, fmt_scc(t), scc_valid(nodes, comps, fmt_scc(t)), f"{v} moved")
        for c in big[:2]:
            split = [x for x in comps if x is not c] + [c[:1], c[1:]]
            agree(data, entry, fmt_scc(split), False, f"component {c} split")
        agree(data, entry, fmt_scc([nodes]), len(comps) == 1, "every node in one component")
        agree(data, entry, fmt_scc([[v] for v in nodes]), len(comps) == len(nodes), "every node alone")
        agree(data, entry, fmt_scc(comps)[:-1].rstrip(" |"), False, "last node dropped")
        agree(data, entry, fmt_scc(comps) + f" | {nodes[0]}", False, f"{nodes[0]} listed twice")
        agree(data, entry, fmt_scc(comps) + f" {nodes[0]}", False, f"{nodes[0]} twice, same component end")
        agree(data, entry, fmt_scc(comps) + " | " + chr(ord(nodes[-1]) + 1), False, "an unknown node")
        agree(data, entry, fmt_scc(comps) + " |", False, "an empty last component")
        agree(data, entry, fmt_scc(comps).replace(" | ", ", ", 1), False, "a comma for `|`")
        hedges_and_prose(data, entry, fmt_scc(comps), fmt_scc([[v] for v in nodes[::-1]]) + " | " + nodes[0])
        no_panic(data, entry, [*GENERIC_JUNK, "A -> B", " ".join(nodes * 2), "| | |", fmt_scc(comps) + " ||"])


# ================================================================ graph_bridges


def parse_bridges(q):
    lo, hi = re.search(r"has the vertices ([A-Z]) to ([A-Z]) and these edges", q).groups()
    nodes = [chr(c) for c in range(ord(lo), ord(hi) + 1)]
    edges = re.findall(r"^([A-Z]) - ([A-Z])$", q, re.M)
    ask = "cut" if "Find every cut vertex" in q else "bridge"
    assert ask == "cut" or "Find every bridge" in q, q
    assert edges and all(a != b and a in nodes and b in nodes for a, b in edges), q
    return nodes, edges, ask


def connected(nodes, edges) -> bool:
    if not nodes:
        return True
    adj = {v: [] for v in nodes}
    for a, b in edges:
        adj[a].append(b)
        adj[b].append(a)
    seen, dq = {nodes[0]}, deque([nodes[0]])
    while dq:
        for w in adj[dq.popleft()]:
            if w not in seen:
                seen.add(w)
                dq.append(w)
    return len(seen) == len(nodes)


def bridges_of(nodes, edges):
    """Each edge (as a sorted pair) whose removal, one copy only, disconnects the graph."""
    out = []
    for k, e in enumerate(edges):
        if not connected(nodes, edges[:k] + edges[k + 1 :]):
            out.append(tuple(sorted(e)))
    return out


def cut_vertices_of(nodes, edges):
    return [v for v in nodes if not connected([w for w in nodes if w != v], [e for e in edges if v not in e])]


def bridges_valid(nodes, edges, ask, truth, text: str) -> bool:
    items = [t.strip() for t in text.split(",")]
    if ask == "cut":
        if any(t not in nodes for t in items) or len(set(items)) != len(items):
            return False
        return sorted(items) == sorted(truth)
    pairs = []
    for t in items:
        m = re.fullmatch(r"([A-Z])-([A-Z])", t)
        if not m:
            return False
        pairs.append(tuple(sorted(m.groups())))
    return len(set(pairs)) == len(pairs) and sorted(pairs) == sorted(truth)


def fmt_pairs(pairs):
    return ", ".join(f"{a}-{b}" for a, b in pairs)


@pytest.mark.parametrize("level", LEVELS)
def test_graph_bridges(level):
    for data, entry in entries("graph_bridges", level, SEEDS):
        rng = rng_for("bridges", level, entry["metadata"]["seed"])
        nodes, edges, ask = parse_bridges(entry["question"])
        assert connected(nodes, edges), "the prompt says connected"
        truth = bridges_of(nodes, edges) if ask == "bridge" else cut_vertices_of(nodes, edges)
        assert truth, "the prompt says there is at least one"
        assert len(set(truth)) == len(truth)
        ok = bridges_valid(nodes, edges, ask, truth, entry["answer"])
        assert ok, f"the oracle's answer is wrong: {entry['answer']} vs {truth}"
        valid = partial(bridges_valid, nodes, edges, ask, truth)
        if ask == "bridge":
            fmt = fmt_pairs
            others = [tuple(sorted(e)) for e in edges if tuple(sorted(e)) not in truth]
            agree(data, entry, fmt(truth), True, "own bridges")
            for _ in range(3):
                t = [p[::-1] if rng.random() < 0.5 else p for p in rng.sample(truth, len(truth))]
                agree(data, entry, fmt(t), True, "bridges shuffled, ends flipped")
            agree(data, entry, ",".join(f"{a}-{b}" for a, b in truth), True, "commas without spaces")
            for k in range(len(truth)):
                agree(data, entry, fmt(truth[:k] + truth[k + 1 :]), False, f"bridge {truth[k]} left out")
            for e in others[:3]:
                agree(data, entry, fmt([*truth, e]), False, f"non-bridge {e} added")
            agree(data, entry, fmt([*truth, truth[0]]), False, "a bridge twice")
            agree(data, entry, fmt([*truth, truth[0][::-1]]), False, "a bridge twice, reversed")
            agree(data, entry, fmt(truth).replace("-", " ", 1), False, "a space for the hyphen")
            agree(data, entry, ", ".join(sorted({v for p in truth for v in p})), False, "the bridges' ends")
            agree(data, entry, fmt([*truth, (nodes[0], nodes[0])]), False, "a loop added")
            wrong = fmt(others[:1] or [(nodes[0], nodes[-1])])
            hedges_and_prose(data, entry, fmt(truth), wrong)
        else:
            fmt = ", ".join
            non = [v for v in nodes if v not in truth]
            agree(data, entry, fmt(truth), True, "own cut vertices")
            for _ in range(3):
                agree(data, entry, fmt(rng.sample(truth, len(truth))), True, "cut vertices shuffled")
            agree(data, entry, ",".join(truth), True, "commas without spaces")
            for k in range(len(truth)):
                agree(data, entry, fmt(truth[:k] + truth[k + 1 :]), False, f"{truth[k]} left out")
            for v in rng.sample(non, min(3, len(non))):
                agree(data, entry, fmt([*truth, v]), False, f"{v} added")
            agree(data, entry, fmt([*truth, truth[0]]), False, "a cut vertex twice")
            bridge_ends = [f"{a}-{b}" for a, b in bridges_of(nodes, edges)]
            if bridge_ends:
                agree(data, entry, ", ".join(bridge_ends), False, "the bridges instead")
            agree(data, entry, fmt(nodes), valid(fmt(nodes)), "every vertex")
            hedges_and_prose(data, entry, fmt(truth), fmt(non[:1]))
        no_panic(data, entry, [*GENERIC_JUNK, "A-", "-A", "A--B", "A-B-C", ", ".join(nodes * 2), f"{nodes[0]}-{HUGE}"])


# ================================================================ longest_common_subsequence


def parse_lcs(q):
    strings = re.findall(r"^\d+\. ([A-Z]+)$", q, re.M)
    k = int(re.search(r"a subsequence of every one of these (\d+) strings", q).group(1))
    assert len(strings) == k >= 2, q
    return strings


def is_subseq(s, t) -> bool:
    it = iter(t)
    return all(c in it for c in s)


def lcs_valid(n, strings, s) -> bool:
    """A common subsequence of the greatest length n."""
    return len(s) == n and all(is_subseq(s, t) for t in strings)


def all_lcs(strings, cap=4000):
    """(length, set of every longest common subsequence) by a k-dimensional DP."""

    @cache
    def best(pos):
        if any(p == len(s) for p, s in zip(pos, strings, strict=True)):
            return 0, frozenset([""])
        out_len, out = 0, set()
        for c in sorted(set(strings[0][pos[0] :])):
            nxt = []
            for p, s in zip(pos, strings, strict=True):
                i = s.find(c, p)
                if i < 0:
                    break
                nxt.append(i + 1)
            else:
                ln, subs = best(tuple(nxt))
                if ln + 1 > out_len:
                    out_len, out = ln + 1, set()
                if ln + 1 == out_len and len(out) < cap:
                    out.update(c + x for x in subs)
        return out_len, frozenset(out) if out else frozenset([""])

    return best(tuple(0 for _ in strings))


@pytest.mark.parametrize("level", LEVELS)
def test_longest_common_subsequence(level):
    for data, entry in entries("longest_common_subsequence", level, SEEDS):
        rng = rng_for("lcs", level, entry["metadata"]["seed"])
        strings = parse_lcs(entry["question"])
        n, every = all_lcs(strings)
        assert every and all(len(s) == n and all(is_subseq(s, t) for t in strings) for s in every)
        # brute force on the shortest string for small cases
        short = min(strings, key=len)
        if len(short) <= 12:
            bf = max(
                (
                    r
                    for r in range(len(short) + 1)
                    for c in itertools.combinations(short, r)
                    if all(is_subseq("".join(c), t) for t in strings)
                ),
                default=0,
            )
            assert bf == n
        oracle = entry["answer"].strip()
        assert oracle in every, f"the oracle's {oracle} is not a longest common subsequence (length {n})"
        valid = partial(lcs_valid, n, strings)
        picks = sorted(every)
        for s in rng.sample(picks, min(6, len(picks))):
            agree(data, entry, s, True, f"another LCS of length {n}")
        for k in range(len(oracle)):
            t = oracle[:k] + oracle[k + 1 :]
            agree(data, entry, t, valid(t), f"letter {k + 1} dropped")
        for k in range(len(oracle) + 1):
            for c in "ABCDEF"[:3]:
                t = oracle[:k] + c + oracle[k:]
                agree(data, entry, t, valid(t), f"{c} inserted at {k}")
        for k in range(len(oracle)):
            c = rng.choice([x for x in "ABCDE" if x != oracle[k]])
            t = oracle[:k] + c + oracle[k + 1 :]
            agree(data, entry, t, valid(t), f"letter {k + 1} changed to {c}")
        agree(data, entry, oracle[::-1], valid(oracle[::-1]), "reversed")
        agree(data, entry, strings[0], valid(strings[0]), "the first string itself")
        agree(data, entry, " ".join(oracle), False, "letters separated by spaces")
        other = next((s for s in picks if s != oracle), oracle[:-1] + "Z")
        hedges_and_prose(data, entry, oracle, other)
        no_panic(
            data,
            entry,
            [
                *GENERIC_JUNK,
                oracle + "1",
                oracle + "-",
                "zzz" if lcs_valid(n, strings, "ABC") else "abc",
                oracle + "\n" + oracle,
                "Ä" * n,
            ],
        )


# ================================================================ coin_change


def parse_coins(q):
    vals = [int(x) for x in re.search(r"coins of each of these values: ([\d, ]+)\.", q).group(1).split(",")]
    amount = int(re.search(r"Pay exactly (\d+) using as few coins as possible", q).group(1))
    assert vals and amount > 0 and len(set(vals)) == len(vals), q
    return vals, amount


def fewest_coins(vals, amount):
    inf = 10**9
    best = [0] + [inf] * amount
    for a in range(1, amount + 1):
        best[a] = min((best[a - v] + 1 for v in vals if v <= a), default=inf)
    return best, (best[amount] if best[amount] < inf else None)


def optimal_multisets(vals, amount, best, cap=50):
    """Every multiset (as a sorted tuple, largest first) of the fewest coins paying `amount`."""
    vals = sorted(vals, reverse=True)
    out = []

    def go(rest, start, acc):
        if len(out) >= cap:
            return
        if rest == 0:
            out.append(tuple(acc))
            return
        for i in range(start, len(vals)):
            v = vals[i]
            if v <= rest and best[rest - v] + len(acc) + 1 == best[amount] and best[rest - v] == best[rest] - 1:
                go(rest - v, i, [*acc, v])

    go(amount, 0, [])
    return out


def fmt_coins(coins):
    return " ".join(map(str, coins))


@pytest.mark.parametrize("level", LEVELS)
def test_coin_change(level):
    for data, entry in entries("coin_change", level, SEEDS * 2):
        rng = rng_for("coins", level, entry["metadata"]["seed"])
        vals, amount = parse_coins(entry["question"])
        best, k = fewest_coins(vals, amount)
        fmt = fmt_coins
        if k is None:
            assert entry["answer"].strip() == "impossible", "the oracle pays an amount that cannot be paid"
            agree(data, entry, "impossible", True, "own verdict: impossible")
            agree(data, entry, fmt([max(vals)] * (amount // max(vals))), False, "coins below the amount")
            agree(data, entry, fmt([amount]), False, "the amount as one coin")
            hedges_and_prose(data, entry, "impossible", fmt([min(vals)]))
        else:
            sel = [int(x) for x in entry["answer"].split()]
            assert sum(sel) == amount and all(v in vals for v in sel) and len(sel) == k, entry["answer"]
            opts = optimal_multisets(vals, amount, best)
            assert opts and all(len(o) == k and sum(o) == amount for o in opts)
            for o in opts[:6]:
                agree(data, entry, fmt(o), True, f"an optimal selection of {k} coins")
                agree(data, entry, fmt(rng.sample(o, len(o))), True, "an optimal selection, shuffled")
            o = opts[0]
            agree(data, entry, "impossible", False, "impossible, though payable")
            agree(data, entry, fmt([*o, min(vals)]), False, "one coin too many")
            agree(data, entry, fmt(o[:-1]), False, "one coin too few")
            agree(data, entry, fmt([o[0] + 1, *o[1:]]), False, "one coin one more")
            # a payment with more coins than the fewest, when there is one
            more = next(
                (
                    fmt([v, *ob])
                    for v in vals
                    if v < amount and best[amount - v] >= k
                    for ob in optimal_multisets(vals, amount - v, best, cap=1)
                ),
                None,
            )
            if more is not None:
                agree(data, entry, more, len(more.split()) == k, "an exact payment with more coins")
            agree(data, entry, str(amount), str(amount) in map(str, vals), "the amount as one coin")
            if k >= 2:
                merged = [o[0] + o[1], *o[2:]]
                agree(data, entry, fmt(merged), merged[0] in vals and len(merged) == k, "two coins joined")
            hedges_and_prose(data, entry, fmt(o), "impossible")
        no_panic(data, entry, [*GENERIC_JUNK, "0", "-5 5", "impossible impossible", "1.5", f"{amount}x", "possible"])


# ================================================================ huffman_code


def parse_huffman(q):
    lo, hi = re.search(r"uses the symbols ([A-Z]) to ([A-Z]), which occur", q).groups()
    counts = {
        s: int(c)
        for s, c in re.findall(r"([A-Z]): (\d+)", q.split("which occur this many times each:")[1].split("\n\n")[0])
    }
    assert list(counts) == [chr(c) for c in range(ord(lo), ord(hi) + 1)], q
    assert all(c > 0 for c in counts.values())
    return counts


def huffman_cost(counts):
    h = list(counts.values())
    heapq.heapify(h)
    cost = 0
    while len(h) > 1:
        a, b = heapq.heappop(h), heapq.heappop(h)
        cost += a + b
        heapq.heappush(h, a + b)
    return cost


def brute_cost(counts):
    """Smallest total over every length profile that meets Kraft's inequality (small alphabets)."""
    ws = sorted(counts.values(), reverse=True)
    n = len(ws)
    best = None
    for lens in itertools.combinations_with_replacement(range(1, n), n):
        if sum(2.0**-x for x in lens) <= 1 + 1e-12:
            c = sum(w * x for w, x in zip(ws, lens, strict=True))
            best = c if best is None else min(best, c)
    return best


def random_huffman(counts, rng):
    """A Huffman code with random tie-breaking and random bit order at each merge."""
    h = [(c, rng.random(), [s]) for s, c in counts.items()]
    heapq.heapify(h)
    code = dict.fromkeys(counts, "")
    while len(h) > 1:
        a, b = heapq.heappop(h), heapq.heappop(h)
        if rng.random() < 0.5:
            a, b = b, a
        for s in a[2]:
            code[s] = "0" + code[s]
        for s in b[2]:
            code[s] = "1" + code[s]
        heapq.heappush(h, (a[0] + b[0], rng.random(), a[2] + b[2]))
    return code


def canonical(code):
    """The canonical code with the same lengths (shorter codewords first, then by symbol)."""
    out, value, prev = {}, 0, 0
    for s in sorted(code, key=lambda s: (len(code[s]), s)):
        ln = len(code[s])
        value <<= ln - prev
        out[s] = format(value, f"0{ln}b")
        value += 1
        prev = ln
    return out


def code_valid(counts, opt, code) -> bool:
    if set(code) != set(counts) or any(not w or set(w) - {"0", "1"} for w in code.values()):
        return False
    ws = list(code.values())
    if any(a != b and b.startswith(a) for a in ws for b in ws) or len(set(ws)) != len(ws):
        return False
    return sum(counts[s] * len(w) for s, w in code.items()) == opt


def parse_code(text):
    return {s: w for s, w in re.findall(r"([A-Za-z]): ([01]*)", text)}


def fmt_code(code, order=None, sep=", ", eq=": "):
    return sep.join(f"{s}{eq}{code[s]}" for s in (order or sorted(code)))


@pytest.mark.parametrize("level", LEVELS)
def test_huffman_code(level):
    for data, entry in entries("huffman_code", level, SEEDS):
        rng = rng_for("huffman", level, entry["metadata"]["seed"])
        counts = parse_huffman(entry["question"])
        opt = huffman_cost(counts)
        if len(counts) <= 7:
            assert brute_cost(counts) == opt
        assert code_valid(counts, opt, parse_code(entry["answer"])), entry["answer"]
        valid = partial(code_valid, counts, opt)
        mine = random_huffman(counts, rng)
        agree(data, entry, fmt_code(mine), True, "own Huffman code")
        for _ in range(4):
            alt = random_huffman(counts, rng)
            agree(data, entry, fmt_code(alt, rng.sample(sorted(alt), len(alt))), True, "another optimal code")
        agree(data, entry, fmt_code(canonical(mine)), True, "canonical code")
        flipped = {s: w.translate(str.maketrans("01", "10")) for s, w in mine.items()}
        agree(data, entry, fmt_code(flipped), True, "every bit flipped")
        agree(data, entry, fmt_code(mine, sep="; ", eq="="), True, "name=value, semicolons")
        agree(data, entry, fmt_code(mine, sep="\n"), True, "one item per line")
        agree(data, entry, fmt_code({s.lower(): w for s, w in mine.items()}), True, "lower-case names (policy)")
        for a, b in itertools.combinations(sorted(counts), 2):
            t = {**mine, a: mine[b], b: mine[a]}
            if counts[a] == counts[b] or len(mine[a]) == len(mine[b]):
                agree(data, entry, fmt_code(t), True, f"{a} and {b} swapped (same count or length)")
                break
        for s in rng.sample(sorted(counts), min(3, len(counts))):
            t = {**mine, s: mine[s] + "0"}
            agree(data, entry, fmt_code(t), valid(t), f"{s}'s codeword lengthened")
            t = {**mine, s: mine[s][:-1]}
            agree(data, entry, fmt_code(t), valid(t), f"{s}'s codeword shortened")
            agree(data, entry, fmt_code({x: w for x, w in mine.items() if x != s}), False, f"{s} missing")
        by = sorted(counts, key=lambda s: (len(mine[s]), s))
        lo, hi = by[0], by[-1]
        t = {**mine, lo: mine[hi], hi: mine[lo]}
        agree(data, entry, fmt_code(t), valid(t), f"{lo} and {hi} swapped")
        agree(data, entry, fmt_code(mine) + f", {lo}: {mine[hi]}", False, f"{lo} twice")
        agree(data, entry, fmt_code(mine) + ", " + chr(ord(max(counts)) + 1) + ": 0", False, "an unknown symbol")
        naive = {s: format(i, f"0{max(1, (len(counts) - 1).bit_length())}b") for i, s in enumerate(sorted(counts))}
        agree(data, entry, fmt_code(naive), valid(naive), "a fixed-length code")
        agree(data, entry, fmt_code({**mine, lo: ""}), False, "an empty codeword")
        agree(data, entry, fmt_code({**mine, lo: mine[lo] + "2"}), False, "a digit 2")
        hedges_and_prose(data, entry, fmt_code(mine), fmt_code(naive))
        no_panic(
            data, entry, [*GENERIC_JUNK, "A: 0 or 1", "A: 0/1", fmt_code(mine).replace(": ", " "), "A: " + "0" * 200]
        )


# ================================================================ grids: shared pieces


def grid_after(q, marker, rows, cols):
    """The `rows` lines of `cols` whitespace-separated tokens that follow the line holding `marker`."""
    lines = q.split(marker, 1)[1].splitlines()
    out = []
    for line in lines:
        toks = line.split()
        if len(toks) == cols:
            out.append(toks)
            if len(out) == rows:
                return out
        elif out or (toks and not line.startswith(" ") and len(toks) > cols):
            break
    raise AssertionError(f"no {rows}x{cols} grid after {marker!r}:\n{q}")


def cell_changes(grid, alphabet, rng, k):
    """Up to k copies of `grid` with one cell changed to another symbol of `alphabet`."""
    out = []
    cells = [(r, c) for r in range(len(grid)) for c in range(len(grid[0]))]
    for r, c in rng.sample(cells, min(k, len(cells))):
        t = [list(row) for row in grid]
        t[r][c] = rng.choice([a for a in alphabet if a != grid[r][c]])
        out.append((f"cell ({r + 1},{c + 1}) changed to {t[r][c]}", t))
    return out


def fmt_rows(grid, sep=" "):
    return "\n".join(sep.join(str(v) for v in row) for row in grid)


# ================================================================ shikaku


def parse_shikaku(q):
    h, w = map(int, re.search(r"Shikaku on a (\d+)x(\d+) grid", q).groups())
    g = grid_after(q, "A dot marks a cell with no number.", h, w)
    clues = {(r, c): int(t) for r, row in enumerate(g) for c, t in enumerate(row) if t != "."}
    assert all(t == "." or t.isdigit() for row in g for t in row), q
    return h, w, clues


def shikaku_solutions(h, w, clues, limit=2):
    """Up to `limit` solutions, each a list of rectangles (r0, c0, r1, c1) inclusive, by backtracking."""
    cands = {}
    for (r, c), n in clues.items():
        opts = []
        for hh in range(1, n + 1):
            if n % hh:
                continue
            ww = n // hh
            for r0 in range(r - hh + 1, r + 1):
                for c0 in range(c - ww + 1, c + 1):
                    r1, c1 = r0 + hh - 1, c0 + ww - 1
                    if r0 < 0 or c0 < 0 or r1 >= h or c1 >= w:
                        continue
                    inside = [k for k in clues if r0 <= k[0] <= r1 and c0 <= k[1] <= c1]
                    if inside == [(r, c)]:
                        opts.append((r0, c0, r1, c1))
        cands[(r, c)] = opts
    by_cell = {}
    for opts in cands.values():
        for rect in opts:
            r0, c0, r1, c1 = rect
            for rr in range(r0, r1 + 1):
                for cc in range(c0, c1 + 1):
                    by_cell.setdefault((rr, cc), []).append(rect)
    covered = [[False] * w for _ in range(h)]
    sols, chosen = [], []

    def free(rect):
        r0, c0, r1, c1 = rect
        return all(not covered[rr][cc] for rr in range(r0, r1 + 1) for cc in range(c0, c1 + 1))

    def mark(rect, v):
        r0, c0, r1, c1 = rect
        for rr in range(r0, r1 + 1):
            for cc in range(c0, c1 + 1):
                covered[rr][cc] = v

    def go(pos):
        if len(sols) >= limit:
            return
        while pos < h * w and covered[pos // w][pos % w]:
            pos += 1
        if pos == h * w:
            sols.append(list(chosen))
            return
        for rect in by_cell.get((pos // w, pos % w), []):
            if free(rect):
                mark(rect, True)
                chosen.append(rect)
                go(pos + 1)
                chosen.pop()
                mark(rect, False)

    go(0)
    return sols


LETTERS = [chr(c) for c in range(65, 91)] + [chr(c) for c in range(97, 123)]


def label(h, w, rects, names):
    g = [[""] * w for _ in range(h)]
    for rect, name in zip(rects, names, strict=True):
        r0, c0, r1, c1 = rect
        for rr in range(r0, r1 + 1):
            for cc in range(c0, c1 + 1):
                g[rr][cc] = name
    return g


def shikaku_valid(h, w, clues, g) -> bool:
    """Every letter a filled rectangle holding exactly one number equal to its area."""
    if len(g) != h or any(len(row) != w for row in g) or any(t not in LETTERS for row in g for t in row):
        return False
    for name in {t for row in g for t in row}:
        cells = [(r, c) for r in range(h) for c in range(w) if g[r][c] == name]
        rs, cs = [r for r, _ in cells], [c for _, c in cells]
        area = (max(rs) - min(rs) + 1) * (max(cs) - min(cs) + 1)
        nums = [clues[k] for k in cells if k in clues]
        if area != len(cells) or nums != [area]:
            return False
    return True


@pytest.mark.parametrize("level", LEVELS)
def test_shikaku(level):
    for data, entry in entries("shikaku", level, SEEDS):
        rng = rng_for("shikaku", level, entry["metadata"]["seed"])
        h, w, clues = parse_shikaku(entry["question"])
        assert sum(clues.values()) == h * w
        oracle = [row.split() for row in entry["answer"].strip().splitlines()]
        assert shikaku_valid(h, w, clues, oracle), entry["answer"]
        sols = shikaku_solutions(h, w, clues)
        assert sols, "no solution"
        for k, rects in enumerate(sols):
            g = label(h, w, rects, LETTERS[: len(rects)])
            assert shikaku_valid(h, w, clues, g)
            agree(data, entry, fmt_rows(g), True, f"own solution {k + 1} of {len(sols)}+")
        rects = sols[0]
        names = rng.sample(LETTERS, len(rects))
        g = label(h, w, rects, names)
        agree(data, entry, fmt_rows(g), True, "letters drawn from A-Z and a-z")
        pairs = [LETTERS[i // 2] if i % 2 == 0 else LETTERS[26 + i // 2] for i in range(len(rects))]
        mixed = label(h, w, rects, pairs)
        agree(data, entry, fmt_rows(mixed), True, "A, a, B, b, ...: one letter in both cases for two rectangles")
        agree(data, entry, fmt_rows(g, "  "), True, "two spaces between cells")
        for what, t in cell_changes(g, sorted({x for row in g for x in row}), rng, 6):
            agree(data, entry, fmt_rows(t), shikaku_valid(h, w, clues, t), what)
        # two rectangles sharing one letter
        a, b = rng.sample(range(len(rects)), 2)
        same = label(h, w, rects, [names[a] if i == b else n for i, n in enumerate(names)])
        agree(data, entry, fmt_rows(same), shikaku_valid(h, w, clues, same), "two rectangles, one letter")
        agree(data, entry, fmt_rows(g[:-1]), False, "last row missing")
        agree(data, entry, fmt_rows([row[:-1] for row in g]), False, "last column missing")
        agree(data, entry, fmt_rows(g) + "\n" + " ".join(g[0]), False, "a row too many")
        agree(data, entry, fmt_rows([["A"] * w] * h), False, "one rectangle")
        digits = [[str(clues.get((r, c), 0)) for c in range(w)] for r in range(h)]
        agree(data, entry, fmt_rows(digits), False, "the clue grid")
        hedges_and_prose(data, entry, fmt_rows(g), fmt_rows(same))
        no_panic(data, entry, [*GENERIC_JUNK, fmt_rows(g).replace(g[0][0], "?"), fmt_rows(g).replace(g[0][0], "1")])


# ================================================================ slant


def parse_slant(q):
    h, w = map(int, re.search(r"Slant on a (\d+)x(\d+) grid of cells", q).groups())
    pts = grid_after(q, "Points (row by row", h + 1, w + 1)
    clues = {(r, c): int(t) for r, row in enumerate(pts) for c, t in enumerate(row) if t != "."}
    return h, w, clues


def slant_ends(r, c, d):
    return ((r, c), (r + 1, c + 1)) if d == "\\" else ((r, c + 1), (r + 1, c))


def slant_valid(h, w, clues, g) -> bool:
    if len(g) != h or any(len(row) != w for row in g) or any(t not in "/\\" for row in g for t in row):
        return False
    deg = {}
    parent = {}

    def find(x):
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    for r in range(h):
        for c in range(w):
            a, b = slant_ends(r, c, g[r][c])
            deg[a] = deg.get(a, 0) + 1
            deg[b] = deg.get(b, 0) + 1
            ra, rb = find(a), find(b)
            if ra == rb:
                return False
            parent[ra] = rb
    return all(deg.get(p, 0) == n for p, n in clues.items())


def corners(r, c):
    return ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))


def slant_solutions(h, w, clues, limit=2, loops=False, budget=None):
    """Up to `limit` fillings that meet every clue (and close no loop unless `loops`), cell by cell with
    a union-find of the points; `budget` caps the cells tried."""
    deg = {(r, c): 0 for r in range(h + 1) for c in range(w + 1)}
    left = {p: sum(1 for dr in (-1, 0) for dc in (-1, 0) if 0 <= p[0] + dr < h and 0 <= p[1] + dc < w) for p in deg}
    parent = {p: p for p in deg}
    g = [[None] * w for _ in range(h)]
    sols = []

    def find(x):
        while parent[x] != x:
            x = parent[x]
        return x

    tries = [0]

    def go(k):
        if len(sols) >= limit or (budget is not None and tries[0] > budget):
            return
        if k == h * w:
            sols.append([list(row) for row in g])
            return
        r, c = divmod(k, w)
        for d in "\\/":
            tries[0] += 1
            a, b = slant_ends(r, c, d)
            ra, rb = find(a), find(b)
            if ra == rb and not loops:
                continue
            for p in corners(r, c):
                left[p] -= 1
            deg[a] += 1
            deg[b] += 1
            ok = all(p not in clues or deg[p] <= clues[p] <= deg[p] + left[p] for p in corners(r, c))
            if ok:
                parent[ra] = rb
                g[r][c] = d
                go(k + 1)
                parent[ra] = ra
            deg[a] -= 1
            deg[b] -= 1
            for p in corners(r, c):
                left[p] += 1

    go(0)
    return sols


@pytest.mark.parametrize("level", LEVELS)
def test_slant(level):
    for data, entry in entries("slant", level, SEEDS):
        rng = rng_for("slant", level, entry["metadata"]["seed"])
        h, w, clues = parse_slant(entry["question"])
        oracle = [row.split() for row in entry["answer"].strip().splitlines()]
        assert slant_valid(h, w, clues, oracle), entry["answer"]
        sols = slant_solutions(h, w, clues)
        assert sols, "no solution"
        for k, g in enumerate(sols):
            assert slant_valid(h, w, clues, g)
            agree(data, entry, fmt_rows(g), True, f"own solution {k + 1} of {len(sols)}+")
        g = sols[0]
        for what, t in cell_changes(g, "/\\", rng, 8):
            agree(data, entry, fmt_rows(t), slant_valid(h, w, clues, t), what)
        if len(sols) == 1:  # any other filling that meets every clue must close a loop
            for t in slant_solutions(h, w, clues, limit=2, loops=True, budget=20000):
                if t != g:
                    assert not slant_valid(h, w, clues, t)
                    agree(data, entry, fmt_rows(t), False, "every clue met, but a loop closed")
        mirrored = [row[::-1] for row in g]
        mirrored = [["/" if x == "\\" else "\\" for x in row] for row in mirrored]
        agree(data, entry, fmt_rows(mirrored), slant_valid(h, w, clues, mirrored), "mirrored left to right")
        agree(data, entry, fmt_rows([["/"] * w] * h), slant_valid(h, w, clues, [["/"] * w] * h), "every cell /")
        agree(data, entry, fmt_rows(g[:-1]), False, "last row missing")
        agree(data, entry, fmt_rows(g).replace("\\", "|"), False, "| for \\")
        agree(data, entry, fmt_rows(g).replace("/", "\\\\/", 1), False, "a cell of two characters")
        agree(data, entry, fmt_rows([["X"] * w] * h), False, "X in every cell")
        wrong = cell_changes(g, "/\\", rng, 1)[0][1]
        hedges_and_prose(data, entry, fmt_rows(g), fmt_rows(wrong))
        no_panic(data, entry, [*GENERIC_JUNK, "/", "\\", fmt_rows(g).replace("/", "1"), fmt_rows(g) + " /"])


# ================================================================ aquarium


def parse_aquarium(q):
    h, w = map(int, re.search(r"Aquarium on a (\d+)x(\d+) grid", q).groups())
    tanks = grid_after(q, "A tank may be empty or full.", h, w)
    rows = [int(x) for x in re.search(r"Water cells per row \(top to bottom\): ([\d ]+)$", q, re.M).group(1).split()]
    cols = [int(x) for x in re.search(r"Water cells per column \(left to right\): ([\d ]+)$", q, re.M).group(1).split()]
    assert len(rows) == h and len(cols) == w, q
    return h, w, tanks, rows, cols


def aquarium_valid(h, w, tanks, rows, cols, g) -> bool:
    if len(g) != h or any(len(row) != w for row in g) or any(t not in "01" for row in g for t in row):
        return False
    if [row.count("1") for row in g] != rows or [sum(g[r][c] == "1" for r in range(h)) for c in range(w)] != cols:
        return False
    for name in {t for row in tanks for t in row}:
        cells = [(r, c) for r in range(h) for c in range(w) if tanks[r][c] == name]
        wet = [r for r, c in cells if g[r][c] == "1"]
        level = min(wet, default=h)  # the highest water row
        if any((g[r][c] == "1") != (r >= level) for r, c in cells):
            return False
    return True


def aquarium_solutions(h, w, tanks, rows, cols, limit=2):
    """Top-down: a tank that holds water in a row holds it in every lower row of the tank."""
    in_row = [sorted({tanks[r][c] for c in range(w)}) for r in range(h)]
    cells = {(r, t): [c for c in range(w) if tanks[r][c] == t] for r in range(h) for t in in_row[r]}
    below = [[sum(1 for rr in range(r, h)) for _ in range(w)] for r in range(h + 1)]
    sols = []
    colsum = [0] * w

    def go(r, wet, grid):
        if len(sols) >= limit:
            return
        if r == h:
            if colsum == cols:
                sols.append([list(row) for row in grid])
            return
        forced = [t for t in in_row[r] if t in wet]
        free = [t for t in in_row[r] if t not in wet]
        base = sum(len(cells[(r, t)]) for t in forced)
        for k in range(len(free) + 1):
            for pick in itertools.combinations(free, k):
                if base + sum(len(cells[(r, t)]) for t in pick) != rows[r]:
                    continue
                on = set(forced) | set(pick)
                row = ["1" if tanks[r][c] in on else "0" for c in range(w)]
                for c in range(w):
                    colsum[c] += row[c] == "1"
                if all(colsum[c] <= cols[c] <= colsum[c] + below[r + 1][c] for c in range(w)):
                    go(r + 1, wet | set(pick), [*grid, row])
                for c in range(w):
                    colsum[c] -= row[c] == "1"

    go(0, frozenset(), [])
    return sols


@pytest.mark.parametrize("level", LEVELS)
def test_aquarium(level):
    for data, entry in entries("aquarium", level, SEEDS):
        rng = rng_for("aquarium", level, entry["metadata"]["seed"])
        h, w, tanks, rows, cols = parse_aquarium(entry["question"])
        valid = partial(aquarium_valid, h, w, tanks, rows, cols)
        oracle = [row.split() for row in entry["answer"].strip().splitlines()]
        assert valid(oracle), entry["answer"]
        sols = aquarium_solutions(h, w, tanks, rows, cols)
        assert sols, "no solution"
        for k, g in enumerate(sols):
            assert valid(g)
            agree(data, entry, fmt_rows(g), True, f"own solution {k + 1} of {len(sols)}+")
        g = sols[0]
        agree(data, entry, fmt_rows(g, ""), True, "digits of a row written together (policy)")
        for what, t in cell_changes(g, "01", rng, 8):
            agree(data, entry, fmt_rows(t), valid(t), what)
        # one tank's level moved up or down by one of its rows
        for name in rng.sample(sorted({t for row in tanks for t in row}), 3):
            tr = sorted({r for r in range(h) for c in range(w) if tanks[r][c] == name})
            wet = [r for r in tr if any(g[r][c] == "1" and tanks[r][c] == name for c in range(w))]
            for new in (len(wet) - 1, len(wet) + 1):
                if 0 <= new <= len(tr):
                    lvl = tr[len(tr) - new] if new else h
                    t = [
                        [("1" if r >= lvl else "0") if tanks[r][c] == name else g[r][c] for c in range(w)]
                        for r in range(h)
                    ]
                    agree(data, entry, fmt_rows(t), valid(t), f"tank {name} holds {new} rows")
        # four cells of a rectangle toggled keep every row and column count; the tanks decide
        swaps = [
            (r1, r2, c1, c2)
            for r1, r2 in itertools.combinations(range(h), 2)
            for c1, c2 in itertools.combinations(range(w), 2)
            if g[r1][c1] == g[r2][c2] != g[r1][c2] == g[r2][c1]
        ]
        for r1, r2, c1, c2 in rng.sample(swaps, min(4, len(swaps))):
            t = [list(row) for row in g]
            for r, c in ((r1, c1), (r1, c2), (r2, c1), (r2, c2)):
                t[r][c] = "1" if g[r][c] == "0" else "0"
            agree(data, entry, fmt_rows(t), valid(t), f"rows {r1 + 1},{r2 + 1} x columns {c1 + 1},{c2 + 1} toggled")
        # water floating: a tank's rows flipped upside down keeps the counts of that tank's rows only by chance
        flipped = g[::-1]
        agree(data, entry, fmt_rows(flipped), valid(flipped), "grid upside down")
        agree(data, entry, fmt_rows(g[:-1]), False, "last row missing")
        agree(data, entry, fmt_rows(g).replace("1", "W"), False, "W for water")
        wrong = cell_changes(g, "01", rng, 1)[0][1]
        hedges_and_prose(data, entry, fmt_rows(g), fmt_rows(wrong))
        no_panic(data, entry, [*GENERIC_JUNK, fmt_rows(g).replace(g[0][0], "2", 1), fmt_rows(g) + " 1", "1"])


# ================================================================ killer_sudoku


def parse_killer(q):
    n, br, bc = map(
        int, re.search(r"Killer Sudoku on a (\d+)x\1 grid with boxes of (\d+) rows by (\d+) columns", q).groups()
    )
    assert br * bc == n and f"a digit from 1 to {n}" in q, q
    cages = grid_after(q, "Cages:", n, n)
    sums = {k: int(v) for k, v in re.findall(r"([A-Za-z])=(\d+)", re.search(r"^Cage sums: (.*)$", q, re.M).group(1))}
    assert {t for row in cages for t in row} == set(sums), q
    givens = {}
    if "Given digits" in q:
        gv = grid_after(q, "Given digits (a dot is blank):", n, n)
        givens = {(r, c): int(t) for r, row in enumerate(gv) for c, t in enumerate(row) if t != "."}
    return n, br, bc, cages, sums, givens


def killer_units(n, br, bc):
    units = [[(r, c) for c in range(n)] for r in range(n)] + [[(r, c) for r in range(n)] for c in range(n)]
    for r0 in range(0, n, br):
        for c0 in range(0, n, bc):
            units.append([(r, c) for r in range(r0, r0 + br) for c in range(c0, c0 + bc)])
    return units


def killer_valid(p, g) -> bool:
    n, br, bc, cages, sums, givens = p
    if len(g) != n or any(len(row) != n for row in g):
        return False
    if any(not t.isdigit() or not 1 <= int(t) <= n for row in g for t in row):
        return False
    v = [[int(t) for t in row] for row in g]
    if any(sorted(v[r][c] for r, c in u) != list(range(1, n + 1)) for u in killer_units(n, br, bc)):
        return False
    for name, total in sums.items():
        ds = [v[r][c] for r in range(n) for c in range(n) if cages[r][c] == name]
        if sum(ds) != total or len(set(ds)) != len(ds):
            return False
    return all(v[r][c] == d for (r, c), d in givens.items())


def killer_solutions(p, limit=2, boxes=True, budget=None):
    """Up to `limit` solutions, one cage at a time. Each cell keeps a set of candidate digits; every filling
    of every open cage (distinct digits, the cage's sum, each digit a candidate of its cell) is listed and
    the candidates cut to those some filling uses, a digit with one place left in a row, column or box is
    put there and a placed digit leaves the other cells of its units, until nothing changes. A cage with
    no filling, or a digit with no place in a unit, prunes; the cage with the fewest fillings is tried.
    `boxes=False` drops the box rule (to find near misses that break only it); `budget` caps the nodes."""
    n, br, bc, cages, sums, givens = p
    names = sorted(sums)
    cage_cells = [[(r, c) for r in range(n) for c in range(n) if cages[r][c] == k] for k in names]
    units = killer_units(n, br, bc)[: None if boxes else 2 * n]
    peers = {(r, c): set() for r in range(n) for c in range(n)}
    for u in units:
        for x in u:
            peers[x].update(y for y in u if y != x)
    full = (1 << (n + 1)) - 2
    sols = []

    cache = {}
    sets = [
        [ds for ds in itertools.combinations(range(1, n + 1), len(cs)) if sum(ds) == sums[k]]
        for k, cs in zip(names, cage_cells, strict=True)
    ]

    def fillings(k, masks):
        """Every filling of cage k: a digit set of the cage's sum, laid out over its cells."""
        cs = cage_cells[k]
        key = (k, *(masks[x] for x in cs))
        if key in cache:
            return cache[key]
        out = cache[key] = []
        ms = [masks[x] for x in cs]

        def dfs(i, left, acc):
            if i == len(cs):
                out.append(tuple(acc))
                return
            for d in left:
                if ms[i] >> d & 1:
                    acc.append(d)
                    dfs(i + 1, [e for e in left if e != d], acc)
                    acc.pop()

        for ds in sets[k]:
            if all(any(m >> d & 1 for d in ds) for m in ms):
                dfs(0, list(ds), [])
        return out

    def propagate(masks, open_cages):
        """Cut candidates until stable; the fillings of every open cage, or None on a contradiction."""
        while True:
            changed = False
            fills = {}
            for k in open_cages:
                fs = fillings(k, masks)
                if not fs:
                    return None
                fills[k] = fs
                for i, x in enumerate(cage_cells[k]):
                    sup = 0
                    for f in fs:
                        sup |= 1 << f[i]
                    if sup != masks[x]:
                        masks[x] = sup
                        changed = True
            for x, m in masks.items():
                if m & (m - 1) == 0:
                    for y in peers[x]:
                        if masks[y] & m:
                            masks[y] &= ~m
                            if not masks[y]:
                                return None
                            changed = True
            for u in units:
                for d in range(1, n + 1):
                    at = [x for x in u if masks[x] >> d & 1]
                    if not at:
                        return None
                    if len(at) == 1 and masks[at[0]] != 1 << d:
                        masks[at[0]] = 1 << d
                        changed = True
            if not changed:
                return fills

    nodes = [0]

    def go(masks, open_cages):
        nodes[0] += 1
        if len(sols) >= limit or (budget is not None and nodes[0] > budget):
            return
        fills = propagate(masks, open_cages)
        if fills is None:
            return
        if all(len(fills[k]) == 1 for k in open_cages):
            g = [[0] * n for _ in range(n)]
            for k in open_cages:
                for (r, c), d in zip(cage_cells[k], fills[k][0], strict=True):
                    g[r][c] = str(d)
            grid = [row[:] for row in g]
            if all(sorted(int(grid[r][c]) for r, c in u) == list(range(1, n + 1)) for u in units):
                sols.append(grid)
            return
        k = min((j for j in open_cages if len(fills[j]) > 1), key=lambda j: len(fills[j]))
        for f in fills[k]:
            m = dict(masks)
            for x, d in zip(cage_cells[k], f, strict=True):
                m[x] = 1 << d
            go(m, open_cages)

    start = {(r, c): (1 << givens[(r, c)]) if (r, c) in givens else full for r in range(n) for c in range(n)}
    go(start, list(range(len(names))))
    return sols


@pytest.mark.parametrize("level", LEVELS)
def test_killer_sudoku(level):
    for data, entry in entries("killer_sudoku", level, SEEDS):
        rng = rng_for("killer", level, entry["metadata"]["seed"])
        p = parse_killer(entry["question"])
        n = p[0]
        oracle = [row.split() for row in entry["answer"].strip().splitlines()]
        assert killer_valid(p, oracle), entry["answer"]
        sols = killer_solutions(p)
        assert sols, "no solution"
        for k, g in enumerate(sols):
            assert killer_valid(p, g)
            agree(data, entry, fmt_rows(g), True, f"own solution {k + 1} of {len(sols)}+")
        g = sols[0]
        agree(data, entry, fmt_rows(g, ""), True, "digits of a row written together (policy)")
        for what, t in cell_changes(g, [str(d) for d in range(1, n + 1)], rng, 6):
            agree(data, entry, fmt_rows(t), killer_valid(p, t), what)
        for _ in range(4):
            r = rng.randrange(n)
            a, b = rng.sample(range(n), 2)
            t = [list(row) for row in g]
            t[r][a], t[r][b] = t[r][b], t[r][a]
            agree(data, entry, fmt_rows(t), killer_valid(p, t), f"row {r + 1}: columns {a + 1} and {b + 1} swapped")
        # a whole band of rows permuted keeps rows, columns and boxes valid; the cages decide
        t = [g[1], g[0], *g[2:]]
        agree(data, entry, fmt_rows(t), killer_valid(p, t), "rows 1 and 2 swapped")
        for t in killer_solutions(p, limit=2, boxes=False, budget=100):
            if t != g:
                agree(data, entry, fmt_rows(t), killer_valid(p, t), "rows, columns and cages kept, a box broken")
        relabel = [[str(n + 1 - int(x)) for x in row] for row in g]
        agree(data, entry, fmt_rows(relabel), killer_valid(p, relabel), "every digit d as n+1-d")
        agree(data, entry, fmt_rows(g[:-1]), False, "last row missing")
        agree(data, entry, fmt_rows([row[:-1] for row in g]), False, "last column missing")
        agree(data, entry, fmt_rows(g).replace(g[0][0], "0", 1), False, "a 0")
        wrong = cell_changes(g, [str(d) for d in range(1, n + 1)], rng, 1)[0][1]
        hedges_and_prose(data, entry, fmt_rows(g), fmt_rows(wrong))
        no_panic(data, entry, [*GENERIC_JUNK, fmt_rows(g).replace(g[0][0], str(n + 1)), fmt_rows(g) + " 1", "1 " * n])
