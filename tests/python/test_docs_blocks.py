"""Every ```python and ```sh block of README.md and docs/*.md runs, offline, as written.

The blocks of one page run in order, in one temporary folder: the Python blocks in one namespace
(like a doctest session, after ``import gauntlet``), each shell block as a ``bash`` script
(``set -eo pipefail``) with ``gauntlet`` (the CLI the tests use) and ``python`` (this
interpreter, with the package importable) on ``PATH``. Stand-ins supply what the docs leave to
the reader: ``my_model(text)`` answers ``<answer>up</answer>``, ``policy[agent](obs)`` plays a
random legal action of the game being played (``game``), and the folder holds
``rollouts.jsonl`` and ``turns.jsonl`` (logged rollouts in ``gauntlet advantages``'s row format,
from its golden fixtures), ``configs/``, ``examples/`` and ``tools/`` of this checkout, and
SmolLM2's GGUF when ``GAUNTLET_SMOLLM2_GGUF`` names it. Background jobs a shell block starts
(``… &``) are killed when it ends.

A block is not run, with its reason shown, when:

- its first line is the comment ``# not run by the doc tests: REASON``, visible on the page
  (a long training run, a release build, a download, a network service, ``...`` standing for
  the reader's own options);
- it needs a Python module that is not installed (a Python block importing it; a shell block
  stopping on ``No module named …``): it runs wherever that module is;
- it is listed in ``UNMARKED`` below: blocks of pages whose owners have not added the marker
  yet (moving the reason into the marker comment on the page empties this table).
"""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any, NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(python|sh|bash|shell|console)\n(.*?)^```", re.M | re.S)
MARK = re.compile(r"^#\s*not run by the doc tests:\s*(.+?)\s*$")
SHELL_TIMEOUT_S = 120

# (page, start of the block's first line) -> why it cannot run offline and quickly: blocks of
# pages owned elsewhere, whose owners have not added the marker yet. Each entry matches one block.
UNMARKED = {
    ("README.md", "gauntlet train  "): "trains the default run (minutes), resumes it and trains 3 seeds",
    ("README.md", "gauntlet train --config configs/multiturn.toml"): "three full training runs",
    ("README.md", "gauntlet play sokoban_play"): "`gauntlet bench --envs` measures every environment for minutes",
    ("README.md", "gauntlet serve env --port 8100"): (
        "servers that run until stopped, a trained run (runs/default) and an evaluation against it"
    ),
    ("README.md", "from openai import OpenAI"): "needs a running `gauntlet serve policy` server",
    ("benchmarks.md", "cargo build --release\n"): "a release build and benchmarks; reasoning-gym from PyPI",
    ("benchmarks.md", "python3 -m venv /tmp/rg-venv"): "reasoning-gym and maturin from PyPI, a release build",
    ("benchmarks.md", "cargo build --release -p gauntlet &&"): "a release build and load benchmarks (minutes)",
    ("benchmarks.md", "cargo build --release -p gauntlet-model --example train_bench"): (
        "a release build and training benchmarks (minutes)"
    ),
    ("benchmarks.md", "python3 -m venv /tmp/venv-llama"): "llama-cpp-python from PyPI, a release build, benchmarks",
    ("openenv.md", "gauntlet serve env --port 8000"): "a server that runs until stopped",
    ("openenv.md", "openenv validate"): "needs openenv-core and a running server (tests/openenv runs the validator)",
    ("openenv.md", "docker build"): "needs docker and the network",
    ("openenv.md", "# pip install openenv-core"): "needs a running `gauntlet serve env` server",
    ("pretrained.md", "# a LoRA run evaluates as any run"): "needs a trained SmolLM2 LoRA run (runs/smollm2)",
    ("pretrained.md", "gauntlet export --adapter"): "needs a trained SmolLM2 LoRA run (runs/smollm2)",
    ("pretrained.md", "export GAUNTLET_SMOLLM2_GGUF="): "trains SmolLM2 with LoRA (about 25 minutes per seed)",
    ("pretrained.md", "from transformers import AutoModelForCausalLM"): "needs a model folder on disk",
    ("serve-env.md", "gauntlet serve env [--host"): "a synopsis (optional flags in brackets), not a command",
    ("serve-env.md", "cargo run --release"): "a release build and a server that runs until stopped",
    ("serve-env.md", "$ curl"): "a transcript against a running `gauntlet serve env`",
    ("serve-env.md", "cargo build --release -p gauntlet-serve --examples"): "a release build and load benchmarks",
    ("serve-policy.md", "gauntlet serve policy --model runs/default"): (
        "servers that run until stopped, on a trained run and a model folder"
    ),
    ("serve-policy.md", "from openai import OpenAI"): "needs a running `gauntlet serve policy` server",
}


class Block(NamedTuple):
    page: Path
    line: int
    lang: str  # "python" or "sh"
    code: str
    reason: str | None  # why it is not run, or None


def _blocks() -> list[Block]:
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            lang = "python" if m.group(1) == "python" else "sh"
            code = m.group(2)
            marked = MARK.match(code.split("\n", 1)[0])
            reason = marked.group(1) if marked else _unmarked(page.name, code)
            out.append(Block(page, line, lang, code, reason))
    return out


def _unmarked(page: str, code: str) -> str | None:
    return next((r for (p, start), r in UNMARKED.items() if p == page and code.startswith(start)), None)


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


def _gauntlet_bin() -> str | None:
    candidates = [os.environ.get("GAUNTLET_BIN"), ROOT / "target/debug/gauntlet", ROOT / "target/release/gauntlet"]
    return next((str(c) for c in candidates if c and Path(c).is_file()), None)


def _shell_folder(folder: Path, binary: str) -> dict[str, str]:
    """Fill ``folder`` with what shell blocks expect around them; returns their environment."""
    bin_dir = folder / ".doc-bin"
    bin_dir.mkdir()
    (bin_dir / "gauntlet").symlink_to(binary)
    for name in ("python", "python3"):
        shim = bin_dir / name
        shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
        shim.chmod(0o755)
    for name in ("configs", "examples", "tools"):
        (folder / name).symlink_to(ROOT / name)
    gguf = os.environ.get("GAUNTLET_SMOLLM2_GGUF")
    if gguf and Path(gguf).is_file():
        (folder / Path(gguf).name).symlink_to(gguf)
    cases = json.loads((ROOT / "crates/gauntlet-algos/tests/fixtures/advantages.json").read_text())["cases"]
    for file, estimator in (("rollouts.jsonl", "grpo"), ("turns.jsonl", "gigpo")):
        rows = next(c["rows"] for c in cases if c["estimator"] == estimator)
        (folder / file).write_text("".join(json.dumps(r) + "\n" for r in rows))
    env = dict(os.environ)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT / "python"), env.get("PYTHONPATH")) if p)
    env.update(NO_PROGRESS="1", NO_COLOR="1")
    return env


def _run_shell(code: str, folder: Path, env: dict[str, str]) -> tuple[int | None, str]:
    """Run ``code`` under bash in its own process group; (exit status or None on timeout, output)."""
    proc = subprocess.Popen(
        ["bash", "-c", "set -eo pipefail\n" + code],
        cwd=folder,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        out, _ = proc.communicate(timeout=SHELL_TIMEOUT_S)
        return proc.returncode, out
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        return None, out
    finally:
        # Servers and other background jobs the block started.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_blocks_run(page, tmp_path, monkeypatch):
    blocks = [b for b in BLOCKS if b.page == page]
    if not blocks:
        pytest.skip("no python or shell blocks")
    monkeypatch.chdir(tmp_path)
    ns = _namespace()
    shell_env: dict[str, str] | None = None
    skipped = []
    for b in blocks:
        where = f"{page.name}:{b.line}"
        missing = _missing_module(b.code) if b.lang == "python" else None
        if b.reason or missing:
            skipped.append(f"{where}: {b.reason or f'needs `{missing}`, not installed'}")
            continue
        if b.lang == "python":
            try:
                exec(compile(b.code, where, "exec"), ns)
            except Exception as e:
                raise AssertionError(f"{where}: the block fails: {type(e).__name__}: {e}") from e
            continue
        if shell_env is None:
            binary = _gauntlet_bin()
            if binary is None:
                skipped.append(f"{where}: the gauntlet CLI is not built (cargo build -p gauntlet, or GAUNTLET_BIN)")
                continue
            shell_env = _shell_folder(tmp_path, binary)
        status, out = _run_shell(b.code, tmp_path, shell_env)
        module = re.search(r"No module named '([\w.]+)'", out)
        if status != 0 and module:
            skipped.append(f"{where}: needs `{module.group(1)}`, not installed")
            continue
        assert status is not None, f"{where}: the block ran past {SHELL_TIMEOUT_S} s:\n{out[-3000:]}"
        assert status == 0, f"{where}: the block exits with {status}:\n{out[-3000:]}"
    if skipped and len(skipped) == len(blocks):
        pytest.skip("; ".join(skipped))
    for line in skipped:  # the page ran, but not all of it: say what was left out where a module is missing
        if "not installed" in line:
            warnings.warn(line, stacklevel=1)


def test_every_skip_has_a_reason_and_unmarked_entries_exist():
    for (page, start), reason in UNMARKED.items():
        assert reason
        matches = [b for b in BLOCKS if b.page.name == page and b.code.startswith(start)]
        assert len(matches) == 1, f"UNMARKED entry ({page}, {start!r}) matches {len(matches)} blocks, not 1"
    for b in BLOCKS:
        assert b.reason is None or b.reason.strip(), f"{b.page.name}:{b.line}: a skip needs its reason"


def test_the_skip_marker_is_a_visible_comment_and_shell_blocks_are_counted():
    """The marker is the block's first line, so readers see it; both kinds of block are found."""
    assert MARK.match("# not run by the doc tests: needs a GPU").group(1) == "needs a GPU"
    assert not MARK.match("x = 1  # not run by the doc tests: no")
    langs = {b.lang for b in BLOCKS}
    assert langs == {"python", "sh"}
    ran = [b for b in BLOCKS if b.reason is None]
    assert any(b.lang == "sh" for b in ran) and any(b.lang == "python" for b in ran)
