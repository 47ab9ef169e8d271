"""OpenEnv conformance of `gauntlet serve env`, checked with the real `openenv-core` package.

For a task (countdown), an environment (sokoban_play) and two games (tic_tac_toe, kuhn_poker):

- `openenv validate --url http://HOST/openenv/NAME` (openenv-core's own runtime validator) passes
  for the task, the environment and tic_tac_toe;
- `GenericEnvClient` (openenv-core's WebSocket client) plays 64 whole episodes at once per name,
  and every episode's per-seat returns equal those of the same actions played through the
  server's native session API (`/v1/sessions`, the in-process `Env`); countdown is answered with
  the oracle's answers from `gauntlet generate | gauntlet solve`, so each of its returns is 1.0;
- a server with `--max-sessions 2` refuses a third client with `CAPACITY_REACHED`.

Run by scripts/test.sh in a cached venv with openenv-core and pytest. The binary is `$GAUNTLET_BIN`,
else target/release/gauntlet, else target/debug/gauntlet (the test skips without one).
"""

import asyncio
import json
import os
import random
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from openenv.core import GenericEnvClient

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["countdown", "sokoban_play", "tic_tac_toe", "kuhn_poker"]
VALIDATED = ["countdown", "sokoban_play", "tic_tac_toe"]
SESSIONS = 64
LEVEL = 2


def gauntlet_bin() -> str:
    given = os.environ.get("GAUNTLET_BIN")
    if given:
        return given
    for p in ("target/release/gauntlet", "target/debug/gauntlet"):
        if (ROOT / p).exists():
            return str(ROOT / p)
    pytest.skip("no gauntlet binary: `cargo build -p gauntlet` first, or set GAUNTLET_BIN")


class Server:
    """`gauntlet serve env --port 0` in a child process; `url` is its base URL."""

    def __init__(self, *args: str):
        self.proc = subprocess.Popen(
            [gauntlet_bin(), "serve", "env", "--port", "0", *args],
            stderr=subprocess.PIPE,
            text=True,
        )
        line = self.proc.stderr.readline()
        if "listening on " not in line:
            self.proc.kill()
            raise RuntimeError(f"the server did not start: {line!r}")
        self.url = line.strip().split("listening on ")[1]

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def server():
    s = Server()
    yield s.url
    s.stop()


def http(method: str, url: str, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method)
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def oracle_answers(task: str, n: int, level: int) -> list:
    """The oracle's answers for seeds 0..n-1, from the CLI (`generate | solve`)."""
    rows = subprocess.run(
        [gauntlet_bin(), "generate", task, "-n", str(n), "--seed", "0", "--level", str(level)],
        capture_output=True,
        check=True,
        text=True,
    ).stdout
    solved = subprocess.run([gauntlet_bin(), "solve"], input=rows, capture_output=True, check=True, text=True).stdout
    return [json.loads(line)["response"] for line in solved.splitlines() if line.strip()]


def test_openenv_validate_passes(server):
    """`openenv validate --url` for a task, an environment and a game (run side by side: most of
    each run is the CLI's start-up)."""
    cli = Path(sys.executable).parent / "openenv"
    runs = {
        name: subprocess.Popen(
            [str(cli), "validate", "--url", f"{server}/openenv/{name}", "--json"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in VALIDATED
    }
    for name, proc in runs.items():
        out, err = proc.communicate(timeout=180)
        report = json.loads(out)
        failed = [c for c in report["criteria"] if not c["passed"]]
        assert report["passed"] and proc.returncode == 0, (name, failed, err)
        assert report["mode"] == "simulation", name
        assert report["standard_profile"] == "openenv-http/1.x", name


async def play_openenv(url: str, name: str, seed: int, choose) -> tuple:
    """One whole episode through GenericEnvClient; the actions taken and the final returns."""
    async with GenericEnvClient(base_url=f"{url}/openenv/{name}") as env:
        r = await env.reset(seed=seed, level=LEVEL)
        assert r.reward is None and not r.done
        actions = []
        while not r.done:
            obs = r.observation
            assert obs["to_act"] == obs["seat"]
            action = choose(obs)
            actions.append((obs["to_act"], action))
            r = await env.step({"response": action, "seat": obs["to_act"]})
            assert isinstance(r.reward, float)
            assert len(r.observation["rewards"]) == r.observation["seats"]
        state = await env.state()
        assert state["step_count"] == len(actions) and state["done"]
        return actions, r.observation["returns"]


def play_native(url: str, name: str, seed: int, actions: list) -> list:
    """The same actions through the native session API: the in-process episode's returns."""
    s = http("POST", f"{url}/v1/sessions", {"task": name, "seed": seed, "level": LEVEL})
    for seat, action in actions:
        s = http("POST", f"{url}/v1/sessions/{s['id']}/act", {"response": action, "seat": seat})
    http("DELETE", f"{url}/v1/sessions/{s['id']}")
    assert s["done"]
    return s["returns"]


def chooser(name: str, seed: int, answers: list):
    if answers:
        return lambda obs: answers[seed]
    rng = random.Random(f"{name}:{seed}")
    return lambda obs: rng.choice(obs["legal_actions"])


@pytest.mark.parametrize("name", NAMES)
def test_64_concurrent_episodes_match_in_process(server, name):
    answers = oracle_answers(name, SESSIONS, LEVEL) if name == "countdown" else []

    async def main():
        games = [play_openenv(server, name, s, chooser(name, s, answers)) for s in range(SESSIONS)]
        return await asyncio.gather(*games)

    start = time.perf_counter()
    results = asyncio.run(main())
    took = time.perf_counter() - start
    steps = sum(len(a) for a, _ in results)
    print(f"{name}: {SESSIONS} concurrent episodes, {steps} steps in {took:.2f} s")
    for seed, (actions, returns) in enumerate(results):
        assert returns == play_native(server, name, seed, actions), (name, seed)
        if answers:
            assert returns == [1.0], (name, seed, returns)
    assert {tuple(r) for _, r in results} != set() and len(results) == SESSIONS
    for _ in range(100):
        if http("GET", f"{server}/health")["sessions"] == 0:
            break
        time.sleep(0.02)
    assert http("GET", f"{server}/health")["sessions"] == 0


def test_capacity_reached_is_refused():
    small = Server("--max-sessions", "2")
    try:

        async def main():
            url = f"{small.url}/openenv/nim"
            a, b, c = (GenericEnvClient(base_url=url) for _ in range(3))
            await a.reset(seed=1)
            await b.reset(seed=2)
            with pytest.raises(RuntimeError, match="CAPACITY_REACHED"):
                await c.reset(seed=3)
            for client in (a, b, c):
                await client.close()

        asyncio.run(main())
    finally:
        small.stop()
