"""`examples/agent_any/agent.py` (the `openai` package and the standard library only) against a real
`gauntlet serve env` and a real `gauntlet train --config configs/agent_any.toml`: the agent takes its
problems and rewards from the env server, its answers from the trainer's endpoint, and the RL steps
train on its episodes. The agent runs under the venv with `openai` that scripts/test.sh makes
(`~/.cache/gauntlet/venv-openai`, or `$GAUNTLET_OPENAI_PYTHON`); without it these tests skip."""

from __future__ import annotations

import json
import os
import re
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import ServingTrainer

ROOT = Path(__file__).resolve().parents[2]
AGENT = ROOT / "examples/agent_any/agent.py"
CACHE = Path(
    os.environ.get("GAUNTLET_CACHE") or Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "gauntlet"
)

# The documented run, shortened: a few SFT steps, three RL steps of two problems x four episodes.
OVERRIDES = {
    ("sft", "steps"): "10",
    ("rl", "steps"): "3",
    ("rl", "prompts_per_step"): "2",
    ("rl", "group_size"): "4",
    ("eval", "n"): "8",
    ("serve", "port"): "0",
}
# Two problems of four episodes per policy version: every step trains one batch the agent played.
AGENT_FLAGS = ["--group", "4", "--per-version", "8", "--parallel", "2", "--seed", "1000"]


@pytest.fixture(scope="module")
def openai_python() -> str:
    """A Python with the `openai` package (and no need for gauntlet's)."""
    py = os.environ.get("GAUNTLET_OPENAI_PYTHON") or str(CACHE / "venv-openai/bin/python")
    if not Path(py).is_file():
        pytest.skip(
            f"no Python with the `openai` package at {py} (scripts/test.sh makes it, or set GAUNTLET_OPENAI_PYTHON)"
        )
    if subprocess.run([py, "-c", "import openai"], capture_output=True).returncode != 0:
        pytest.skip(f"{py} cannot import `openai` (pip install openai into it, or set GAUNTLET_OPENAI_PYTHON)")
    return py


@pytest.fixture(scope="module")
def env_url(gauntlet_bin: str) -> Iterator[str]:
    """A `gauntlet serve env` on a free port, for the module's tests."""
    server = subprocess.Popen(
        [gauntlet_bin, "serve", "env", "--port", "0"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True
    )
    try:
        assert server.stderr is not None
        line = server.stderr.readline()
        m = re.search(r"listening on (http://\S+)", line)
        assert m, line
        threading.Thread(target=lambda: server.stderr and server.stderr.read(), daemon=True).start()
        yield m.group(1)
    finally:
        server.kill()
        server.wait()


def shortened(config: str, overrides: dict[tuple[str, str], str]) -> str:
    """`config` with each `(section, key)` of `overrides` set; every one must exist in the file."""
    out, section, seen = [], "", set()
    for line in config.splitlines():
        head = re.fullmatch(r"\[+([^\]]+)\]+\s*", line)
        if head:
            section = head.group(1)
        key = re.match(r"(\w+)\s*=", line)
        if key and (section, key.group(1)) in overrides:
            line = f"{key.group(1)} = {overrides[(section, key.group(1))]}"
            seen.add((section, key.group(1)))
        out.append(line)
    missing = set(overrides) - seen
    assert not missing, f"configs/agent_any.toml no longer sets {sorted(missing)}"
    return "\n".join(out) + "\n"


def test_the_openai_agent_drives_the_rl_steps(
    serving_trainer: Callable[[Path, Path], ServingTrainer], openai_python: str, env_url: str, tmp_path: Path
) -> None:
    config = (ROOT / "configs/agent_any.toml").read_text()
    task = re.search(r'\[\[tasks\]\]\nname = "(\w+)"', config).group(1)
    cfg = tmp_path / "agent_any.toml"
    cfg.write_text(shortened(config, OVERRIDES))
    trainer = serving_trainer(cfg, tmp_path / "run")
    run_dir = tmp_path / "run"
    # A request the trainer refuses (4xx) stops the agent with the server's message and code.
    refused = subprocess.run(
        [openai_python, str(AGENT), "--trainer", trainer.url, "--env", env_url, "--task", task, "--temperature", "3"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert refused.returncode == 1, refused
    assert "the trainer refused a chat completion (400)" in refused.stderr, refused.stderr
    assert "bad_temperature" in refused.stderr, refused.stderr
    agent = subprocess.run(
        [openai_python, str(AGENT), "--trainer", trainer.url, "--env", env_url, "--task", task, *AGENT_FLAGS],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert agent.returncode == 0, (agent.stdout, agent.stderr, "".join(trainer.log))
    trainer.wait(timeout=300)

    summary = re.search(r"played (\d+) episodes, mean reward [0-9.]+", agent.stdout)
    assert summary, (agent.stdout, agent.stderr)
    played = int(summary.group(1))
    rl = [x for x in map(json.loads, (run_dir / "metrics.jsonl").read_text().splitlines()) if x.get("phase") == "rl"]
    assert len(rl) == 3, rl
    # Every step trained one batch of the agent's episodes: two problems, four episodes each, all
    # sampled by the weights being trained (the agent waits for each new version).
    assert [(x["rows"], x["groups"], x["stale_dropped"]) for x in rl] == [(8, 2, 0)] * 3, rl
    traces = [json.loads(x) for x in (run_dir / "traces.jsonl").read_text().splitlines()]
    assert 3 * 8 <= len(traces) <= played, (len(traces), played)
    episodes = [t["episode"] for t in traces]
    assert {e["spec"]["env"] for e in episodes} == {task}
    assert {e["spec"]["seed"] for e in episodes[:24]} == set(range(1000, 1006)), "problems in the agent's order"
    turns = [t for e in episodes for t in e["turns"]]
    assert all(t["response_ids"] and len(t["logprobs"]) == len(t["response_ids"]) for t in turns)
    versions = sorted({t["policy_version"] for t in turns})
    # Each update's weights were served in turn: consecutive optimiser steps.
    assert len(versions) >= 3 and versions == list(range(versions[0], versions[0] + len(versions))), versions


def test_unreachable_servers_and_unknown_tasks_are_clear_errors(openai_python: str, env_url: str) -> None:
    def agent(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([openai_python, str(AGENT), *args], capture_output=True, text=True, timeout=60)

    r = agent("--env", "http://127.0.0.1:9", "--trainer", "http://127.0.0.1:9")
    assert r.returncode == 2, r
    assert "cannot reach the env server" in r.stderr and "gauntlet serve env" in r.stderr, r.stderr
    r = agent("--env", env_url, "--task", "n_queen")
    assert r.returncode == 1, r
    assert "no task `n_queen`" in r.stderr and "n_queens" in r.stderr, r.stderr
    r = agent("--env", env_url, "--task", "tic_tac_toe")
    assert r.returncode == 1 and "2-seat game" in r.stderr, r.stderr
    r = agent("--env", env_url, "--trainer", "http://127.0.0.1:9", "--wait", "0")
    assert r.returncode == 2, r
    assert "cannot reach the trainer" in r.stderr and "configs/agent_any.toml" in r.stderr, r.stderr
