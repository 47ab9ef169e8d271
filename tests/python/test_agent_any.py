"""`examples/agent_any.py` against a real `gauntlet train --config configs/agents.toml` run: the
trainer serves its policy, the agent plays through it, and the RL steps train on its episodes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conftest import ServingTrainer

ROOT = Path(__file__).resolve().parents[2]


def test_an_outside_agent_drives_the_rl_steps_of_a_training_run(
    serving_trainer: Callable[[Path, Path], ServingTrainer], tmp_path: Path
) -> None:
    config = (ROOT / "configs/agents.toml").read_text()
    assert "\nport = 8000\n" in config
    cfg = tmp_path / "agents.toml"
    cfg.write_text(config.replace("\nport = 8000\n", "\nport = 0\n"))
    run_dir = tmp_path / "run"
    trainer = serving_trainer(cfg, run_dir)
    agent = subprocess.run(
        [sys.executable, str(ROOT / "examples/agent_any.py"), "--url", trainer.url, "--task", "caesar", "--group", "4"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert agent.returncode == 0, agent.stderr
    trainer.wait(timeout=600)
    played = int(re.search(r"played (\d+) episodes", agent.stdout).group(1))

    lines = [json.loads(x) for x in (run_dir / "metrics.jsonl").read_text().splitlines()]
    rl = [x for x in lines if x.get("phase") == "rl"]
    assert len(rl) == 4, rl
    assert all(x["rows"] == 8 for x in rl), rl
    # The first step trains the oldest episodes: two problems played four times each.
    assert rl[0]["groups"] == 2, rl[0]
    traces = (run_dir / "traces.jsonl").read_text().splitlines()
    # Every trained episode was recorded first; the agent played at least as many as were recorded.
    assert 4 * 8 <= len(traces) <= played, (len(traces), played)
    versions = {t["policy_version"] for r in map(json.loads, traces) for t in r["episode"]["turns"]}
    # Each update's weights were served in turn: consecutive optimiser steps, one per RL update.
    assert len(versions) >= 4 and max(versions) - min(versions) == len(versions) - 1, versions
