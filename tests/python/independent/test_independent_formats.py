"""Layouts that docs/tasks.md says a family's grammar accepts (case-insensitive names, `name: value`
or `name=value`, commas, semicolons or newlines between items, grid digits together or apart):
the oracle's answer rewritten in each must keep full credit, and a hedge must not."""

from __future__ import annotations

import re

import pytest

from ._common import LEVELS, agree, entries

KEYED = ["knights_knaves", "web_of_lies", "sat", "graph_coloring", "cryptarithm", "self_reference"]
GRIDS = ["sudoku", "futoshiki", "calcudoku", "skyscraper", "magic_square"]


def items(answer):
    return [tuple(x.strip() for x in re.split(r"\s*[:=]\s*", it, maxsplit=1)) for it in re.split(r"[,;\n]", answer)]


@pytest.mark.parametrize("name", KEYED)
@pytest.mark.parametrize("level", LEVELS)
def test_keyed_layouts(name, level):
    for data, entry in entries(name, level, 2):
        pairs = items(entry["answer"])
        assert all(len(p) == 2 for p in pairs), entry["answer"]
        agree(data, entry, "; ".join(f"{k}={v}" for k, v in pairs), True, "name=value; semicolons")
        agree(data, entry, "\n".join(f"{k}: {v}" for k, v in pairs), True, "name: value, one per line")
        agree(data, entry, ", ".join(f"{k.lower()}: {v}" for k, v in pairs), True, "names lower-cased")
        agree(data, entry, ", ".join(f"{k.upper()}: {v}" for k, v in pairs), True, "names upper-cased")
        k, v = pairs[0]
        agree(data, entry, ", ".join([f"{k}: {v}", *(f"{a}: {b}" for a, b in pairs)]), False, "first item twice")


@pytest.mark.parametrize("name", GRIDS)
@pytest.mark.parametrize("level", LEVELS)
def test_grid_layouts(name, level):
    for data, entry in entries(name, level, 2):
        rows = [ln.split() if " " in ln.strip() else list(ln.strip()) for ln in entry["answer"].strip().splitlines()]
        agree(data, entry, "\n".join(" ".join(r) for r in rows), True, "cells separated by spaces")
        agree(data, entry, "\n".join("  ".join(r) for r in rows), True, "cells separated by two spaces")
        if all(len(c) == 1 for r in rows for c in r):
            agree(data, entry, "\n".join("".join(r) for r in rows), True, "digits written together")
        agree(data, entry, "\n\n".join(" ".join(r) for r in rows), True, "blank lines between rows")
        agree(data, entry, "\n".join(" ".join(r) for r in rows[:-1]), False, "last row missing")
        agree(data, entry, "\n".join(" ".join(r) for r in [*rows, rows[-1]]), False, "a row too many")
