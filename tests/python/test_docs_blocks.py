"""Every ```python block of README.md and docs/*.md runs, offline, as written.

The blocks of one file run in order in one namespace (like a doctest session), in a temporary
folder, after ``import gauntlet``. Two placeholders that the docs use for "your model" are
supplied: ``my_model(text)`` answers ``<answer>up</answer>`` and ``policy[agent](obs)`` plays a
random legal action of the game being played (``game``).

A block is skipped, with its reason shown, when:

- the line just before it is ``<!-- doctest: skip (reason) -->`` (for blocks that need a
  network service, a GPU or a model download);
- it imports a module that is not installed (``openai``, ``trl``, ...): it is skipped here and
  runs wherever that module is;
- it is listed in ``UNMARKED`` below: blocks of pages whose owners have not added the marker
  yet (moving the reason into a marker comment on the page empties this table).
"""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```python\n(.*?)^```", re.M | re.S)
MARK = re.compile(r"<!--\s*doctest:\s*skip\s*\((.*?)\)\s*-->\s*$")

# (page, first line of the block) -> why it cannot run offline.
UNMARKED = {
    ("README.md", "from openai import OpenAI"): "needs a running `gauntlet serve policy` server",
    ("README.md", 'spec = gauntlet.trl.GauntletSpec("sokoban_play", level=1, size=512)   # a task works too'): (
        "downloads a model from the Hugging Face Hub"
    ),
    ("openenv.md", "# pip install openenv-core"): "needs a running `gauntlet serve env` server",
    ("pretrained.md", "from transformers import AutoModelForCausalLM"): "needs a model folder on disk",
    ("serve-policy.md", "from openai import OpenAI"): "needs a running `gauntlet serve policy` server",
    ("trl.md", "from trl import GRPOConfig, GRPOTrainer"): "downloads a model from the Hugging Face Hub",
}


def _blocks() -> list[tuple[Path, int, str, str | None]]:
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            before = text[: m.start()].rstrip("\n").rsplit("\n", 1)[-1]
            code = m.group(1)
            marked = MARK.search(before)
            first = code.split("\n", 1)[0]
            reason = marked.group(1) if marked else UNMARKED.get((page.name, first))
            out.append((page, line, code, reason))
    return out


BLOCKS = _blocks()


def _missing_module(code: str) -> str | None:
    for node in ast.walk(ast.parse(code)):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        for n in names:
            top = n.split(".")[0]
            if importlib.util.find_spec(top) is None:
                return top
    return None


class _Policies(dict):
    def __init__(self, ns: dict[str, Any]):
        super().__init__()
        self.ns = ns

    def __missing__(self, agent: str) -> Any:
        return lambda obs: self.ns["game"].random_action()


def _namespace() -> dict[str, Any]:
    import gauntlet

    ns: dict[str, Any] = {"gauntlet": gauntlet}
    ns["my_model"] = lambda text: "<answer>up</answer>"
    ns["policy"] = _Policies(ns)
    return ns


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_python_blocks_run(page, tmp_path, monkeypatch):
    blocks = [b for b in BLOCKS if b[0] == page]
    if not blocks:
        pytest.skip("no python blocks")
    monkeypatch.chdir(tmp_path)
    ns = _namespace()
    skipped = []
    for _, line, code, reason in blocks:
        missing = _missing_module(code)
        if reason or missing:
            skipped.append(f"{page.name}:{line}: {reason or f'needs `{missing}`, not installed'}")
            continue
        try:
            exec(compile(code, f"{page.name}:{line}", "exec"), ns)
        except Exception as e:
            raise AssertionError(f"{page.name}:{line}: the block fails: {type(e).__name__}: {e}") from e
    if skipped and len(skipped) == len(blocks):
        pytest.skip("; ".join(skipped))


def test_every_skip_has_a_reason_and_unmarked_entries_exist():
    firsts = {(b[0].name, b[2].split("\n", 1)[0]) for b in BLOCKS}
    for key, reason in UNMARKED.items():
        assert reason
        assert key in firsts, f"UNMARKED entry no longer matches a block: {key}"
