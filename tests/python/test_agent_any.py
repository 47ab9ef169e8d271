"""`examples/agent_any.py` against a real `gauntlet train --config configs/agents.toml` run: the
trainer serves its policy, the agent plays through it, and the RL steps train on its episodes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_an_outside_agent_drives_the_rl_steps_of_a_training_run(gauntlet_bin: str, tmp_path: Path) -> None:
    config = (ROOT / "configs/agents.toml").read_text()
    assert "\nport = 8000\n" in config
    cfg = tmp_path / "agents.toml"
    cfg.write_text(config.replace("\nport = 8000\n", "\nport = 0\n"))
    run_dir = tmp_path / "run"
    trainer = subprocess.Popen(
        [gauntlet_bin, "train", "--config", str(cfg), "--run-dir", str(run_dir)],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    try:
        played = _drive(trainer)
    finally:
        if trainer.poll() is None:
            trainer.kill()
            trainer.wait()

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


def _drive(trainer: subprocess.Popen) -> int:
    """Waits for the trainer's endpoint, runs the example agent against it until the run ends;
    returns how many episodes the agent played."""
    assert trainer.stderr is not None
    url = None
    log: list[str] = []
    for line in trainer.stderr:
        log.append(line)
        m = re.search(r"serving the policy on (http://\S+)/v1", line)
        if m:
            url = m.group(1)
            break
    assert url, "".join(log)
    # Keep draining the trainer's stderr so it never blocks on a full pipe.
    drain = threading.Thread(target=lambda: log.extend(trainer.stderr or []), daemon=True)
    drain.start()
    agent = subprocess.run(
        [sys.executable, str(ROOT / "examples/agent_any.py"), "--url", url, "--task", "caesar", "--group", "4"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert agent.returncode == 0, agent.stderr
    assert trainer.wait(timeout=600) == 0, "".join(log)
    return int(re.search(r"played (\d+) episodes", agent.stdout).group(1))
