"""Small generic solvers for the independent checks: written from the puzzle rules only."""

from __future__ import annotations

from collections.abc import Callable

Grid = list[list[int]]


def count_latin(
    n: int,
    givens: Grid,
    check: Callable[[Grid, int, int], bool],
    limit: int = 2,
    values: list[int] | None = None,
    latin: bool = True,
) -> int:
    """Count fillings of an n x n grid (0 = empty) up to `limit`.

    Every row and column holds distinct values when `latin`; `check(grid, r, c)` says whether the
    partial grid is still consistent after grid[r][c] was filled.
    """
    vals = values if values is not None else list(range(1, n + 1))
    grid = [row[:] for row in givens]
    found = 0

    def candidates(r: int, c: int) -> list[int]:
        used = set(grid[r]) | {grid[i][c] for i in range(n)} if latin else set()
        out = []
        for v in vals:
            if v in used:
                continue
            grid[r][c] = v
            if check(grid, r, c):
                out.append(v)
            grid[r][c] = 0
        return out

    def rec() -> None:
        nonlocal found
        best = None
        for r in range(n):
            for c in range(n):
                if grid[r][c] == 0:
                    cand = candidates(r, c)
                    if best is None or len(cand) < len(best[2]):
                        best = (r, c, cand)
                        if not cand:
                            return
        if best is None:
            found += 1
            return
        r, c, cand = best
        for v in cand:
            grid[r][c] = v
            rec()
            grid[r][c] = 0
            if found >= limit:
                return

    rec()
    return found


def latin_ok(grid: Grid, n: int, values: list[int] | None = None) -> bool:
    """Every row and column is a permutation of `values` (default 1..n)."""
    want = sorted(values if values is not None else range(1, n + 1))
    if len(grid) != n or any(len(row) != n for row in grid):
        return False
    return all(sorted(row) == want for row in grid) and all(
        sorted(grid[r][c] for r in range(n)) == want for c in range(n)
    )


def count_sat(nvars: int, clauses: list[list[int]], limit: int = 2) -> int:
    """Count models of a CNF (DIMACS-style literals over 1..nvars) up to `limit` by DPLL branching."""
    found = 0

    def rec(assign: dict[int, bool], cls: list[list[int]]) -> None:
        nonlocal found
        # unit propagation
        cls = [c[:] for c in cls]
        assign = dict(assign)
        while True:
            new = []
            unit = None
            for c in cls:
                if any(assign.get(abs(lit)) == (lit > 0) for lit in c):
                    continue
                rest = [lit for lit in c if abs(lit) not in assign]
                if not rest:
                    return
                if len(rest) == 1 and unit is None:
                    unit = rest[0]
                new.append(rest)
            cls = new
            if unit is None:
                break
            assign[abs(unit)] = unit > 0
        if not cls:
            free = nvars - len(assign)
            found += 2**free
            return
        v = abs(cls[0][0])
        for val in (True, False):
            rec({**assign, v: val}, cls)
            if found >= limit:
                return

    rec({}, clauses)
    return min(found, limit)


Dom = dict[tuple[int, int], set[int]]


def alldiff_units(units: list[list[tuple[int, int]]], dom: Dom, exact: bool) -> bool | None:
    """One pass of all-different propagation over `units`: naked singles removed from peers and,
    when `exact` (every value exactly once per unit), hidden singles. None on a wipe-out, else
    whether anything changed."""
    changed = False
    for unit in units:
        for cell in unit:
            d = dom[cell]
            if len(d) == 1:
                v = next(iter(d))
                for other in unit:
                    if other != cell and v in dom[other]:
                        dom[other] = dom[other] - {v}
                        if not dom[other]:
                            return None
                        changed = True
        if exact:
            values = set().union(*(dom[c] for c in unit))
            if len(values) < len(unit):
                return None
            for v in values:
                where = [c for c in unit if v in dom[c]]
                if len(where) == 1 and len(dom[where[0]]) > 1:
                    dom[where[0]] = {v}
                    changed = True
    return changed


def solve_csp(dom: Dom, propagate: Callable[[Dom], bool], limit: int = 2) -> list[dict[tuple[int, int], int]]:
    """Solutions (up to `limit`) of a finite-domain CSP by propagation and MRV branching.

    `propagate(dom)` narrows the domains in place to a fixpoint and returns False on a
    contradiction; it must also reject complete assignments that break a constraint."""
    sols: list[dict[tuple[int, int], int]] = []

    def rec(d: Dom) -> None:
        if not propagate(d):
            return
        open_cells = [c for c in d if len(d[c]) > 1]
        if not open_cells:
            sols.append({c: next(iter(v)) for c, v in d.items()})
            return
        cell = min(open_cells, key=lambda c: len(d[c]))
        for v in sorted(d[cell]):
            child = {c: set(s) for c, s in d.items()}
            child[cell] = {v}
            rec(child)
            if len(sols) >= limit:
                return

    rec({c: set(s) for c, s in dom.items()})
    return sols


def latin_units(n: int) -> list[list[tuple[int, int]]]:
    """Rows and columns of an n x n grid as cell lists."""
    return [[(r, c) for c in range(n)] for r in range(n)] + [[(r, c) for r in range(n)] for c in range(n)]


def fixpoint(steps: list[Callable[[Dom], bool | None]], dom: Dom) -> bool:
    """Run every propagation step until none changes anything; False on a wipe-out."""
    while True:
        changed = False
        for step in steps:
            res = step(dom)
            if res is None:
                return False
            changed = changed or res
        if not changed:
            return True


def filter_by_tuples(dom: Dom, cells: list[tuple[int, int]], ok: Callable[[tuple[int, ...]], bool]) -> bool | None:
    """Generalised arc consistency on one constraint over `cells` by enumerating the domains'
    product (keep only supported values). None on a wipe-out, else whether anything changed."""
    from itertools import product as iproduct

    support: list[set[int]] = [set() for _ in cells]
    for tup in iproduct(*(sorted(dom[c]) for c in cells)):
        if ok(tup):
            for i, v in enumerate(tup):
                support[i].add(v)
    changed = False
    for i, c in enumerate(cells):
        if not support[i]:
            return None
        if support[i] != dom[c]:
            dom[c] = support[i]
            changed = True
    return changed


def sum_step(groups: list[tuple[list[tuple[int, int]], int, int]]):
    """Propagation for 0/1 cells: each group's number of ones lies in [lo, hi]."""

    def step(d: Dom) -> bool | None:
        changed = False
        for cells, lo, hi in groups:
            ones = sum(1 for c in cells if d[c] == {1})
            free = [c for c in cells if len(d[c]) > 1]
            if ones > hi or ones + len(free) < lo:
                return None
            if free and ones == hi:
                for c in free:
                    d[c] = {0}
                changed = changed or bool(free)
            elif free and ones + len(free) == lo:
                for c in free:
                    d[c] = {1}
                changed = True
        return changed

    return step
