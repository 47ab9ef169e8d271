"""Independent checks of bayes_net, nl_navigation, belief_tracking and kinship, from the prompt text
alone: exact enumeration of the network, our own shortest routes, a replay of the moves, and the
relation words' stated definitions; gauntlet's verdict is compared with ours on our answer and on
near misses."""

from __future__ import annotations

import heapq
import re
from fractions import Fraction
from functools import cache
from itertools import pairwise, product

import pytest

import gauntlet

from ._common import LEVELS, agree, entries

SEEDS = 3


def body(q):
    return q.split("Think it through")[0]


def numbered(answers):
    return ", ".join(f"{i + 1}: {a}" for i, a in enumerate(answers))


def check_numbered(data, entry, answers):
    """Our numbered answers, in another order (each carries its number), and with the last
    question's number given to the first question again."""
    agree(data, entry, numbered(answers), True, "our answers")
    items = numbered(answers).split(", ")
    agree(data, entry, ", ".join(items[::-1]), True, "numbered answers in reverse order")
    if len(answers) > 1:
        twice = [*items[:-1], f"1: {answers[-1]}"]
        agree(data, entry, ", ".join(twice), False, "question 1 answered twice, the last one not at all")


# ---------------------------------------------------------------- bayes_net


def parse_net(q):
    names = re.search(r"true/false variables ([A-Z, ]+)\.", q).group(1).split(", ")
    cpt: dict = {}
    for var, cond, p in re.findall(r"^P\(([A-Z])=true(?: \| ([^)]*))?\) = ([\d.]+)$", q, re.M):
        key = tuple(sorted((v, val == "true") for v, val in re.findall(r"([A-Z])=(true|false)", cond or "")))
        cpt.setdefault(var, {})[key] = Fraction(p)
    return names, cpt


def joint(names, cpt, world):
    p = Fraction(1)
    for v in names:
        parents = {name for key in cpt[v] for name, _ in key}
        key = tuple(sorted((u, world[u]) for u in parents))
        pt = cpt[v][key]
        p *= pt if world[v] else 1 - pt
    return p


def query(q, names, cpt):
    m = re.search(r"Compute P\(([A-Z])=(true|false)(?: \| ([^)]*))?\) exactly", q)
    target = (m.group(1), m.group(2) == "true")
    evidence = [(v, val == "true") for v, val in re.findall(r"([A-Z])=(true|false)", m.group(3) or "")]
    num = den = Fraction(0)
    for vals in product((False, True), repeat=len(names)):
        world = dict(zip(names, vals, strict=True))
        if all(world[v] == b for v, b in evidence):
            p = joint(names, cpt, world)
            den += p
            if world[target[0]] == target[1]:
                num += p
    return num / den


@pytest.mark.parametrize("level", LEVELS)
def test_bayes_net(level):
    for data, entry in entries("bayes_net", level, SEEDS):
        q = body(entry["question"])
        names, cpt = parse_net(q)
        # every variable's table covers every combination of its parents
        for v in names:
            parents = {name for key in cpt[v] for name, _ in key}
            assert len(cpt[v]) == 2 ** len(parents), (v, cpt[v])
        p = query(q, names, cpt)
        mine = f"{p.numerator}/{p.denominator}"
        agree(data, entry, mine, True, "exact enumeration")
        agree(data, entry, f"{3 * p.numerator}/{3 * p.denominator}", True, "not in lowest terms (still exact)")
        agree(data, entry, f"{p.numerator + 1}/{p.denominator}", False, "numerator off by one")
        if p != 1 - p:
            c = 1 - p
            agree(data, entry, f"{c.numerator}/{c.denominator}", False, "the complement")


# ---------------------------------------------------------------- nl_navigation


def parse_town(q):
    kinds = dict(re.findall(r"([A-Z][a-z]+) is an? ([a-zé ]+?)\.", q.split("The streets:")[0]))
    streets = q.split("The streets:")[1].split("No other streets")[0]
    edges = []
    for pat in (
        r"A (\d+)-minute walk joins ([A-Z][a-z]+) and ([A-Z][a-z]+)\.",
        r"It takes (\d+) minutes to walk between ([A-Z][a-z]+) and ([A-Z][a-z]+)\.",
    ):
        edges += [(a, b, int(t)) for t, a, b in re.findall(pat, streets)]
    edges += [
        (a, b, int(t))
        for a, b, t in re.findall(
            r"From ([A-Z][a-z]+) a street leads to ([A-Z][a-z]+); walking it takes (\d+) minutes", streets
        )
    ]
    edges += [
        (a, b, int(t))
        for a, b, t in re.findall(
            r"([A-Z][a-z]+) and ([A-Z][a-z]+) are linked by a street that takes (\d+) min", streets
        )
    ]
    assert len(edges) == len(re.findall(r"\.(?:\s|$)", streets)), "a street sentence we could not read"
    adj: dict = {}
    for a, b, t in edges:
        adj.setdefault(a, {})[b] = t
        adj.setdefault(b, {})[a] = t
    return kinds, adj


def shortest_routes(adj, start, goals):
    """Every quickest route from start to the nearest goal."""
    dist = {start: 0}
    heap = [(0, start)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for v, t in adj.get(u, {}).items():
            if d + t < dist.get(v, 1 << 60):
                dist[v] = d + t
                heapq.heappush(heap, (d + t, v))
    best = min(dist[g] for g in goals if g in dist)
    routes = []

    def back(path):
        u = path[-1]
        if u == start:
            routes.append(path[::-1])
            return
        for v, t in adj[u].items():
            if v in dist and dist[v] + t == dist[u]:
                back([*path, v])

    for g in goals:
        if dist.get(g) == best:
            back([g])
    return best, routes


def route_ok(adj, kinds, start, kind, best, route):
    if route[0] != start or kinds.get(route[-1]) != kind or len(set(route)) != len(route):
        return False
    if any(b not in adj.get(a, {}) for a, b in pairwise(route)):
        return False
    return sum(adj[a][b] for a, b in pairwise(route)) == best


@pytest.mark.parametrize("level", LEVELS)
def test_nl_navigation(level):
    for data, entry in entries("nl_navigation", level, SEEDS):
        q = body(entry["question"])
        kinds, adj = parse_town(q)
        start = re.search(r"You are at ([A-Z][a-z]+)\.", q).group(1)
        kind = re.search(r"quickest route to an? ([a-zé ]+)\?", q).group(1)
        goals = [p for p, k in kinds.items() if k == kind]
        best, routes = shortest_routes(adj, start, goals)
        for r in routes:
            agree(data, entry, ", ".join(r), True, "a quickest route")
        route = routes[0]
        if len(route) > 2:
            dropped = route[:1] + route[2:]
            agree(data, entry, ", ".join(dropped), route_ok(adj, kinds, start, kind, best, dropped), "a stop dropped")
        agree(data, entry, ", ".join(route[::-1]), False, "reversed")
        agree(data, entry, ", ".join(route[:-1]), False, "the destination missing")
        for goal in goals:
            other_best, other = shortest_routes(adj, start, [goal])
            if other and other_best > best:
                agree(data, entry, ", ".join(other[0]), False, "the quickest route to a farther place")


# ---------------------------------------------------------------- belief_tracking


def replay(q):
    """Where everyone last saw each object, and the full move history with who saw each move."""
    people = re.search(r"^(.*) are in a room with", q, re.M).group(1).split(", ")
    start = dict((o, c) for o, c in re.findall(r"The (\w+) is in the (\w+)\.", q.split("Then, in order:")[0]))
    present = set(people)
    events = [(frozenset(people), None, dict(start))]  # (who saw it, object moved, locations after it)
    loc = dict(start)
    for step in re.findall(r"^\d+\. (.*)$", q.split("Then, in order:")[1].split("Everyone in the room")[0], re.M):
        if m := re.fullmatch(r"(\w+) moves the (\w+) to the (\w+)\.", step):
            assert m.group(1) in present
            loc[m.group(2)] = m.group(3)
            events.append((frozenset(present), m.group(2), dict(loc)))
        elif m := re.fullmatch(r"(\w+) leaves the room\.", step):
            present.discard(m.group(1))
        elif m := re.fullmatch(r"(\w+) enters the room\.", step):
            present.add(m.group(1))
        else:
            raise AssertionError(f"unknown event {step!r}")
    return loc, events


def believe(events, obj, *who):
    """Where the object was at the last move of it (or the start) that every one of `who` saw."""
    for seen, moved, loc in reversed(events):
        if moved in (None, obj) and all(w in seen for w in who):
            return loc[obj]
    raise AssertionError("no common event")


@pytest.mark.parametrize("level", LEVELS)
def test_belief_tracking(level):
    for data, entry in entries("belief_tracking", level, SEEDS):
        q = body(entry["question"])
        loc, events = replay(q)
        containers = re.search(r"in a room with (.*?)\. The", q).group(1).replace("a ", "").split(", ")
        answers = []
        for question in re.findall(r"^\d+\. (Where .*\?)$", q, re.M):
            if m := re.fullmatch(r"Where is the (\w+) really\?", question):
                answers.append(loc[m.group(1)])
            elif m := re.fullmatch(r"Where does (\w+) think (\w+) thinks the (\w+) is\?", question):
                answers.append(believe(events, m.group(3), m.group(1), m.group(2)))
            elif m := re.fullmatch(r"Where does (\w+) think the (\w+) is\?", question):
                answers.append(believe(events, m.group(2), m.group(1)))
            else:
                raise AssertionError(f"unknown question {question!r}")
        check_numbered(data, entry, answers)
        for i in range(len(answers)):
            wrong = [*answers]
            wrong[i] = next(c for c in containers if c != answers[i])
            agree(data, entry, numbered(wrong), False, f"answer {i + 1} changed")
        agree(data, entry, numbered(answers[:-1]), False, "last answer missing")


# ---------------------------------------------------------------- kinship

FEMALE = {"mother", "daughter", "sister", "wife", "aunt", "niece"}


@cache
def name_genders():
    """Gender of each name, learnt from son/daughter facts in a sample of kinship prompts (the prompt
    itself only says "son"/"daughter"; spouses' genders follow from names in common use)."""
    out: dict = {}
    for level in LEVELS:
        for entry in gauntlet.create_dataset("kinship", size=60, seed=77, level=level):
            for name, rel in re.findall(r"^- (\w+) is the (son|daughter) of", entry["question"], re.M):
                assert out.setdefault(name, rel == "daughter") == (rel == "daughter"), name
    return out


def kin_words(facts, x, y, female):
    """Every relation word w for which "x is the w of y" holds under the prompt's definitions."""
    parents: dict = {}
    spouse: dict = {}
    for a, b in facts["married"]:
        spouse[a], spouse[b] = b, a
    for child, parent in facts["child"]:
        parents.setdefault(child, set()).update({parent} | ({spouse[parent]} if parent in spouse else set()))
    par = lambda p: parents.get(p, set())  # noqa: E731
    people = {p for pair in facts["married"] + facts["child"] for p in pair}
    sib = lambda a, b: a != b and par(a) and par(a) == par(b)  # noqa: E731
    siblings = lambda p: {s for s in people if sib(s, p)}  # noqa: E731
    g = lambda m, f: f if female[x] else m  # noqa: E731
    words = set()
    if x in par(y):
        words.add(g("father", "mother"))
    if y in par(x):
        words.add(g("son", "daughter"))
    if sib(x, y):
        words.add(g("brother", "sister"))
    if spouse.get(y) == x:
        words.add(g("husband", "wife"))
    gp = {a for p in par(y) for a in par(p)}
    if x in gp:
        words.add(g("grandfather", "grandmother"))
    if y in {a for p in par(x) for a in par(p)}:
        words.add(g("grandson", "granddaughter"))
    if x in {a for p in gp for a in par(p)}:
        words.add(g("great-grandfather", "great-grandmother"))
    if y in {a for p in par(x) for b in par(p) for a in par(b)}:
        words.add(g("great-grandson", "great-granddaughter"))

    def uncle_of(a, b):
        sibs = {s for p in par(b) for s in siblings(p)}
        return a in sibs or a in {spouse.get(s) for s in sibs}

    if uncle_of(x, y):
        words.add(g("uncle", "aunt"))
    if uncle_of(y, x):
        words.add(g("nephew", "niece"))
    if any(x in {c for c in people if p2 in par(c)} for p in par(y) for p2 in siblings(p)):
        words.add("cousin")
    if y in spouse and x in par(spouse[y]):
        words.add(g("father-in-law", "mother-in-law"))
    if x in spouse and y in par(spouse[x]):
        words.add(g("son-in-law", "daughter-in-law"))
    if (y in spouse and sib(x, spouse[y])) or any(spouse.get(s) == x for s in siblings(y)):
        words.add(g("brother-in-law", "sister-in-law"))
    return words


def other_gender(word):
    pairs = dict(
        p.split("/")
        for p in [
            "father/mother",
            "son/daughter",
            "brother/sister",
            "husband/wife",
            "uncle/aunt",
            "nephew/niece",
            "grandfather/grandmother",
            "grandson/granddaughter",
            "father-in-law/mother-in-law",
            "son-in-law/daughter-in-law",
            "brother-in-law/sister-in-law",
        ]
    )
    pairs.update({v: k for k, v in pairs.items()})
    for base, other in sorted(pairs.items(), key=lambda kv: -len(kv[0])):
        if word.endswith(base):
            return word[: len(word) - len(base)] + other
    return None


@pytest.mark.parametrize("level", LEVELS)
def test_kinship(level):
    genders = name_genders()
    for data, entry in entries("kinship", level, SEEDS):
        q = body(entry["question"])
        facts = {
            "child": re.findall(r"^- (\w+) is the (?:son|daughter) of (\w+)\.", q, re.M),
            "married": re.findall(r"^- (\w+) is married to (\w+)\.", q, re.M),
        }
        female = dict(genders)
        for name, rel in re.findall(r"^- (\w+) is the (son|daughter) of", q, re.M):
            female[name] = rel == "daughter"
        answers = []
        for x, y in re.findall(r"^\d+\. What is (\w+) to (\w+)\?$", q, re.M):
            assert x in female, f"gender of {x} not known"
            words = kin_words(facts, x, y, female)
            assert len(words) == 1, (level, entry["metadata"]["seed"], x, y, words)
            answers.append(words.pop())
        check_numbered(data, entry, answers)
        for i, w in enumerate(answers):
            if (o := other_gender(w)) is not None:
                wrong = [*answers[:i], o, *answers[i + 1 :]]
                agree(data, entry, numbered(wrong), False, f"answer {i + 1} with the other gender")
        agree(data, entry, numbered(answers[:-1]), False, "last answer missing")


# ---------------------------------------------------------------- fol_entailment


class Models:
    """Every situation (each person has or lacks each property) as one bit of a big integer: a
    sentence is the set of situations where it holds."""

    def __init__(self, people, props):
        self.people, self.props = people, props
        n = len(people) * len(props)
        self.all = (1 << (1 << n)) - 1
        self.atoms = {}
        for i, (p, a) in enumerate(product(people, props)):
            mask = 0
            for m in range(1 << n):
                if m >> i & 1:
                    mask |= 1 << m
            self.atoms[(p, a)] = mask

    def lit(self, person, text):
        neg, prop = re.fullmatch(r"(not )?(\w+)", text).groups()
        assert prop in self.props, prop
        atom = self.atoms[(person, prop)]
        return self.all ^ atom if neg else atom

    def conj(self, person, text):
        out = self.all
        for part in text.split(" and "):
            out &= self.lit(person, part)
        return out

    def sentence(self, s):
        s = s.rstrip(".")
        everyone = lambda f: self._fold(f, all_=True)  # noqa: E731
        someone = lambda f: self._fold(f, all_=False)  # noqa: E731
        if m := re.fullmatch(r"Everyone is ((?:not )?\w+) or ((?:not )?\w+)", s):
            return everyone(lambda p: self.lit(p, m.group(1)) | self.lit(p, m.group(2)))
        if m := re.fullmatch(r"Everyone who is (.+) is ((?:not )?\w+)", s):
            return everyone(lambda p: (self.all ^ self.conj(p, m.group(1))) | self.lit(p, m.group(2)))
        if m := re.fullmatch(r"Someone is (.+)", s):
            return someone(lambda p: self.conj(p, m.group(1)))
        if m := re.fullmatch(r"If (\w+) is ((?:not )?\w+), then (\w+) is ((?:not )?\w+)", s):
            a, b = self.lit(m.group(1), m.group(2)), self.lit(m.group(3), m.group(4))
            return (self.all ^ a) | b
        if m := re.fullmatch(r"(\w+) is ((?:not )?\w+) or (\w+) is ((?:not )?\w+)", s):
            return self.lit(m.group(1), m.group(2)) | self.lit(m.group(3), m.group(4))
        if m := re.fullmatch(r"(\w+) is ((?:not )?\w+)", s):
            return self.lit(m.group(1), m.group(2))
        raise AssertionError(f"unknown sentence {s!r}")

    def _fold(self, f, all_):
        out = self.all if all_ else 0
        for p in self.people:
            out = out & f(p) if all_ else out | f(p)
        return out


@pytest.mark.parametrize("level", LEVELS)
def test_fol_entailment(level):
    for data, entry in entries("fol_entailment", level, SEEDS):
        q = body(entry["question"])
        people = re.search(r"The only people are (.*?);", q).group(1).split(", ")
        props = re.search(r"each of the properties (.*)\.", q).group(1).split(", ")
        models = Models(people, props)
        premises = models.all
        for s in re.findall(r"^- (.*)$", q.split("Premises:")[1].split("For each hypothesis")[0], re.M):
            premises &= models.sentence(s)
        assert premises, "the premises are inconsistent"
        answers = []
        for s in re.findall(r"^\d+\. (.*)$", q.split("For each hypothesis")[1], re.M):
            h = models.sentence(s)
            answers.append("entailed" if premises & ~h == 0 else "contradicted" if premises & h == 0 else "neutral")
        check_numbered(data, entry, answers)
        for i, a in enumerate(answers):
            for other in {"entailed", "contradicted", "neutral"} - {a}:
                agree(data, entry, numbered([*answers[:i], other, *answers[i + 1 :]]), False, f"answer {i + 1} {other}")
        agree(data, entry, numbered(answers[:-1]), False, "last answer missing")
