"""Shared helpers of the independent checks: entries, scoring, prompt parsing utilities.

The checkers in this directory are written from each family's prompt text alone (the
`question` string), as an outside auditor would: they never read the family's Rust source nor the
entry's serialized problem.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

import gauntlet

LEVELS = (1, 2, 3, 4, 5)


def entries(name: str, level: int, n: int, seed: int = 1000) -> Iterator[tuple[Any, dict[str, Any]]]:
    """(dataset, entry) for `n` seeds of one family at one level ($GAUNTLET_INDEPENDENT_SEEDS overrides `n`
    for a longer sweep, $GAUNTLET_INDEPENDENT_SEED the first seed)."""
    n = int(os.environ.get("GAUNTLET_INDEPENDENT_SEEDS", n))
    seed = int(os.environ.get("GAUNTLET_INDEPENDENT_SEED", seed))
    data = gauntlet.create_dataset(name, size=n, seed=seed + 97 * level, level=level)
    for entry in data:
        yield data, entry


def score(data: Any, answer: str, entry: dict[str, Any]) -> float:
    """gauntlet's reward for a bare answer (wrapped in <answer> tags)."""
    return data.score_answer(f"<answer>{answer}</answer>", entry)


def agree(data: Any, entry: dict[str, Any], answer: str, mine: bool, what: str = "") -> None:
    """Assert gauntlet's verdict on `answer` equals the independent checker's."""
    got = score(data, answer, entry)
    assert (got == 1.0) == mine, (
        f"{entry['metadata']['task']} level {entry['metadata']['level']} seed {entry['metadata']['seed']} "
        f"{what}: independent={mine} gauntlet={got}\nanswer:\n{answer}\nquestion:\n{entry['question']}"
    )


def ints(text: str) -> list[int]:
    """All (signed) integers in text."""
    return [int(x) for x in re.findall(r"-?\d+", text)]


def grid_block(question: str, width: int | None = None) -> list[list[str]]:
    """The first run of consecutive lines that look like grid rows (tokens of 1-2 characters)."""
    rows: list[list[str]] = []
    for line in question.splitlines():
        toks = line.split()
        if toks and all(len(t) <= 2 for t in toks) and (width is None or len(toks) == width):
            rows.append(toks)
        elif rows:
            break
    return rows


def fmt_grid(grid: list[list[Any]], sep: str = " ") -> str:
    """Rows joined by newlines, cells by `sep`."""
    return "\n".join(sep.join(str(v) for v in row) for row in grid)


HUGE = "99999999999999999999999999999999"
"""A number too large for any machine integer: parsers must refuse it, not overflow."""


def no_panic(data: Any, entry: dict[str, Any], answers: list[str]) -> None:
    """Malformed answers must get a score (never raise) and never full marks."""
    for junk in answers:
        got = score(data, junk, entry)
        assert got < 1.0, (entry["metadata"]["task"], entry["metadata"]["seed"], junk, got)
