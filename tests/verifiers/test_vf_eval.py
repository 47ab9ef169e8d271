"""gauntlet through the verifiers library's own evaluation entry point (`vf-eval`, verifiers v1).

`vf-eval @ examples/verifiers/eval.toml` resolves the taskset id `gauntlet` to this package
(GauntletTaskset and GauntletEnv), and evaluates SmolLM2-135M-Instruct served by `gauntlet serve
policy` with the verifiers chat harness (`null`) in a local subprocess runtime (GauntletEnv's
default), for a single-turn task (countdown)
and a multi-turn environment (frozen_lake). The checks re-score what the model said: the task's
reward equals gauntlet's verifier on the trace's last reply, and the environment's reward and
turn count equal replaying the trace's replies in `gauntlet.make` with the same seed.

Run by scripts/test.sh with the cached venv that has verifiers (and `uv`, which verifiers uses to
run its chat program); skips without it, without the gauntlet binary or without the SmolLM2 GGUF.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("verifiers.v1")

import gauntlet

ROOT = Path(__file__).resolve().parents[2]
GGUF = os.environ.get("GAUNTLET_SMOLLM2_GGUF", "")


def gauntlet_bin() -> str:
    given = os.environ.get("GAUNTLET_BIN")
    if given:
        return given
    for p in ("target/release/gauntlet", "target/debug/gauntlet"):
        if (ROOT / p).exists():
            return str(ROOT / p)
    pytest.skip("no gauntlet binary: `cargo build -p gauntlet` first, or set GAUNTLET_BIN")


@pytest.fixture(scope="module")
def policy_url():
    if not GGUF or not Path(GGUF).is_file():
        pytest.skip("no SmolLM2 GGUF: set GAUNTLET_SMOLLM2_GGUF (scripts/test.sh fetches it)")
    proc = subprocess.Popen(
        [gauntlet_bin(), "serve", "policy", "--model", f"gguf:{GGUF}", "--port", "0", "--name", "smollm2"],
        stderr=subprocess.PIPE,
        text=True,
    )
    line = proc.stderr.readline()
    if "listening on " not in line:
        proc.kill()
        raise RuntimeError(f"the policy server did not start: {line!r}")
    yield line.split("listening on ")[1].split()[0]
    proc.terminate()
    proc.wait(timeout=10)


def vf_eval(url: str, name: str, out: Path, n: int, max_tokens: int) -> list[dict]:
    """Run `vf-eval gauntlet` on `n` tasks of `name`; the traces it wrote."""
    bin_dir = Path(sys.executable).parent
    vf = shutil.which("vf-eval", path=str(bin_dir)) or pytest.skip("no vf-eval next to this Python")
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(ROOT / "python"),
        "GAUNTLET_VF_KEY": "unused",
    }
    # The shipped example config, with this test's server, task and sizes on top; the chat
    # harness in a local subprocess is GauntletEnv's default, so no harness flags.
    cmd = [
        vf, "@", str(ROOT / "examples/verifiers/eval.toml"),
        "--env.taskset.task-name", name, "-n", str(n), "-r", "1",
        "--client.base-url", url, "--client.api-key-var", "GAUNTLET_VF_KEY",
        "--sampling.max-tokens", str(max_tokens), "-o", str(out),
    ]  # fmt: skip
    run = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    files = list(out.rglob("traces.jsonl"))
    assert len(files) == 1, run.stdout[-2000:]
    episodes = [json.loads(line) for line in files[0].read_text().splitlines()]
    assert len(episodes) == n and all(e["ok"] for e in episodes), [e.get("errors") for e in episodes]
    return [e["traces"][0] for e in episodes]


def replies(trace: dict) -> list[str]:
    return [n["message"]["content"] or "" for n in trace["nodes"] if n["message"]["role"] == "assistant"]


def test_vf_eval_scores_a_task_with_gauntlets_verifier(policy_url, tmp_path):
    traces = vf_eval(policy_url, "countdown", tmp_path, n=2, max_tokens=48)
    for t in traces:
        info = t["task"]["data"]["info"]
        assert info["kind"] == "task" and info["name"] == "countdown"
        said = replies(t)
        assert len(said) == 1
        want = gauntlet.verify("countdown", info["problem"], said[0].strip())
        assert t["rewards"]["gauntlet"]["score"] == want.reward
        assert t["info"]["format_error"] == want.format_error


def test_vf_eval_plays_an_environment_episode(policy_url, tmp_path):
    traces = vf_eval(policy_url, "frozen_lake", tmp_path, n=2, max_tokens=24)
    for t in traces:
        info = t["task"]["data"]["info"]
        assert info["kind"] == "env"
        env = gauntlet.make("frozen_lake", level=info["level"])
        env.reset(seed=info["seed"])
        said = replies(t)
        assert len(said) == t["info"]["turns"] >= 1
        for reply in said:
            assert env.to_act() is not None
            env.step(reply.strip())
        assert t["info"]["gauntlet_return"] == env.returns()[0]
        assert t["rewards"]["gauntlet"]["score"] == env.returns()[0]
