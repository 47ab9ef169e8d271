"""A plain Python agent that gauntlet trains from its traces: `openai` and the standard library only.

The agent gets its problems and rewards from a `gauntlet serve env` server (plain JSON over HTTP)
and its answers from a training run's OpenAI-compatible endpoint (`[serve]` with
`rl.source = "agents"`, configs/agent_any.toml). It knows nothing of gauntlet's Python package
or its models: every model call is `openai.OpenAI(...).chat.completions.create`, as in any agent.

- A single-turn task (`caesar`, `n_queens`, ...): `POST /v1/generate` gives the problems (problem
  `i` has seed `--seed + i`), the user message is the row's prompt, and `POST /v1/verify` scores
  the answer.
- A one-seat world (`frozen_lake`, `guess_number`, ...): `POST /v1/sessions` starts an episode and
  `POST /v1/sessions/ID/act` plays each answer until `done`; the reward is the session's return.
  Each observation's `text` is a user message; by default only the newest is shown, as
  `gauntlet train` shows its own episodes (`history_window = 0`: each world renders the history
  it needs into its observation); `--history N` adds the last N exchanges, `--history -1` the
  whole conversation (the run's `full_history = true`).

Each problem is played `--group` times (a group for GRPO-style advantages). Every call of an
episode carries the header `x-gauntlet-episode: ID`, and the episode's reward goes to
`POST TRAINER/v1/episodes/ID/reward` with the task, seed and level, so the trainer groups the
episodes of one problem. The trainer records the token ids and log-probs it sampled and trains
its RL steps on them.

    gauntlet serve env --port 8100 &
    gauntlet train --config configs/agent_any.toml &
    python examples/agent_any/agent.py --trainer http://127.0.0.1:8000 --env http://127.0.0.1:8100 \
        --task n_queens --group 8 --per-version 64

It waits up to `--wait` seconds for the trainer's endpoint (which opens when RL starts, after
SFT), plays until the endpoint goes away (the run finished) or `--problems` problems are done,
and prints `played N episodes, mean reward R`. Exit status: 0 done, 1 a server refused a
request (its message is printed), 2 a server could not be reached (or, up, failed a call).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import openai


class AgentError(Exception):
    """A failure the agent cannot play past; `status` is the exit code (1 refused, 2 unreachable)."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


class TrainerGone(Exception):
    """The trainer's endpoint closed: the run finished (or was stopped)."""


def _error_message(body: bytes) -> str:
    """The `error.message` (and `code`) of a gauntlet or OpenAI-style error body, else the raw text."""
    text = body.decode("utf-8", "replace").strip()
    try:
        err = json.loads(text)["error"]
        return f"{err['message']} ({err.get('code') or err.get('type')})"
    except (ValueError, KeyError, TypeError):
        return text[:500] or "(empty body)"


def _api_message(e: openai.APIStatusError) -> str:
    """The server's message and code from an `openai` status error."""
    body = e.body
    if isinstance(body, dict) and "message" in body:
        return f"{body['message']} ({body.get('code') or body.get('type')})"
    return e.message


def http_json(method: str, url: str, body: Any = None, token: str | None = None, timeout: float = 300) -> Any:
    """Sends `body` as JSON and returns the decoded answer.

    Raises `AgentError` with the server's message on an HTTP error status, and `ConnectionError`
    (naming the URL) when nothing answers.
    """
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        raise AgentError(f"{method} {url} answered {e.code}: {_error_message(e.read())}") from None
    except (urllib.error.URLError, OSError, http.client.HTTPException) as e:
        # Refused, reset or cut short: the server is not there (any more).
        reason = getattr(e, "reason", e)
        raise ConnectionError(f"{method} {url}: {reason or type(e).__name__}") from None


class EnvServer:
    """The `gauntlet serve env` API this agent uses (docs/serve-env.md)."""

    def __init__(self, url: str, token: str | None) -> None:
        self.url = url.rstrip("/")
        self.token = token

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        try:
            return http_json(method, self.url + path, body, self.token)
        except ConnectionError as e:
            raise AgentError(
                f"cannot reach the env server ({e}): start it with `gauntlet serve env --port 8100` "
                "or point `--env` at it",
                2,
            ) from None

    def task(self, name: str) -> dict[str, Any]:
        """The `/v1/tasks` entry of `name` (case, `-`/`_` and a `gauntlet/` prefix forgiven)."""
        key = name.lower().removeprefix("gauntlet/").replace("-", "_")
        tasks = self._call("GET", "/v1/tasks")["tasks"]
        for t in tasks:
            if t["name"] == key:
                return t
        close = [t["name"] for t in tasks if key[:4] in t["name"]][:5]
        hint = f"; did you mean {', '.join(close)}?" if close else "; `GET /v1/tasks` lists them"
        raise AgentError(f"the env server has no task `{name}`{hint}")

    def rows(self, task: str, seed: int, n: int, level: int) -> list[dict[str, Any]]:
        """`n` dataset rows; row `i` is the problem of seed `seed + i`."""
        return self._call("POST", "/v1/generate", {"task": task, "n": n, "seed": seed, "level": level})["rows"]

    def verify(self, row: dict[str, Any], response: str) -> dict[str, Any]:
        """The verdict on `response` to `row`: `{reward, correct, format_error, reason}`."""
        return self._call("POST", "/v1/verify", {"row": row, "response": response})["results"][0]

    def start(self, task: str, seed: int, level: int) -> dict[str, Any]:
        """A new session (episode) of a world; answers its first view."""
        return self._call("POST", "/v1/sessions", {"task": task, "seed": seed, "level": level})

    def act(self, session: str, response: str) -> dict[str, Any]:
        """Plays `response` as the session's next turn; answers the new view."""
        return self._call("POST", f"/v1/sessions/{session}/act", {"response": response})

    def close(self, session: str) -> None:
        """Deletes a session (finished sessions stay until deleted or expired)."""
        self._call("DELETE", f"/v1/sessions/{session}")


class Trainer:
    """The training run's endpoint: chat completions through `openai`, rewards as plain POSTs."""

    def __init__(self, url: str, api_key: str, model: str | None, temperature: float, max_tokens: int) -> None:
        self.url = url.rstrip("/")
        self.api_key = api_key
        self.client = openai.OpenAI(base_url=f"{self.url}/v1", api_key=api_key, max_retries=3, timeout=300)
        self.model = model or ""
        self.temperature = temperature
        self.max_tokens = max_tokens

    def health(self) -> dict[str, Any]:
        """`GET /health` (the policy version is `policy_version`); `ConnectionError` when closed."""
        return http_json("GET", f"{self.url}/health", timeout=60)

    def gone(self, why: str) -> TrainerGone | AgentError:
        """After a failed call: `TrainerGone` when `/health` keeps failing for 5 s (the run closed
        its endpoint), else an `AgentError` naming the failure (a busy or broken server, not an end)."""
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                self.health()
                return AgentError(f"the trainer at {self.url} is up but a call to it failed: {why}", 2)
            except ConnectionError:
                time.sleep(0.5)
        print(f"agent: the trainer's endpoint closed ({why}); stopping", file=sys.stderr)
        return TrainerGone()

    def wait_open(self, seconds: float) -> dict[str, Any]:
        """Polls `/health` until the endpoint answers (SFT runs before it opens), then learns the
        served model's name when `--model` was not given."""
        deadline = time.monotonic() + seconds
        while True:
            try:
                h = self.health()
                break
            except ConnectionError as e:
                if time.monotonic() >= deadline:
                    raise AgentError(
                        f"cannot reach the trainer ({e}) after {seconds:.0f} s: start "
                        "`gauntlet train --config configs/agent_any.toml` (its endpoint opens when RL starts) "
                        "or point `--trainer` at it",
                        2,
                    ) from None
                time.sleep(0.5)
        if not self.model:
            try:
                self.model = self.client.models.list().data[0].id
            except openai.APIConnectionError:
                raise TrainerGone from None
            except openai.APIStatusError as e:
                raise AgentError(f"the trainer refused `GET /v1/models` ({e.status_code}): {_api_message(e)}") from None
        return h

    def answer(self, episode: str, messages: list[dict[str, str]]) -> str:
        """One chat completion of `episode`, sampled at the trainer's temperature."""
        try:
            r = self.client.chat.completions.create(
                model=self.model,
                messages=messages,  # type: ignore[arg-type]
                temperature=self.temperature,
                max_tokens=self.max_tokens,
                extra_headers={"x-gauntlet-episode": episode},
            )
        except openai.APIConnectionError as e:
            raise self.gone(f"chat completion: {e}") from None
        except openai.APIStatusError as e:
            raise AgentError(f"the trainer refused a chat completion ({e.status_code}): {_api_message(e)}") from None
        return r.choices[0].message.content or ""

    def report(
        self,
        episode: str,
        reward: float,
        success: bool | None,
        problem: tuple[str, int, int],
        calls: Calls,
    ) -> None:
        """Finishes `episode` with its return; the problem (task, seed, level) makes its group, and
        what the environment said of each call (format refused, move refused, the state it acted
        in) lets the run's `rl.format_reward`, `rl.invalid_penalty` and GiGPO's step groups apply."""
        task, seed, level = problem
        body: dict[str, Any] = {"reward": reward, "task": task, "seed": seed, "level": level}
        body.update(format_errors=calls.format_errors, invalid=calls.invalid, anchors=calls.anchors)
        if success is not None:
            body["success"] = success
        try:
            http_json("POST", f"{self.url}/v1/episodes/{episode}/reward", body, self.api_key)
        except ConnectionError as e:
            raise self.gone(str(e)) from None


@dataclass
class Calls:
    """What the environment said of each of an episode's calls, in order."""

    format_errors: list[bool] = field(default_factory=list)
    invalid: list[bool] = field(default_factory=list)
    anchors: list[str] = field(default_factory=list)


@dataclass
class Tally:
    """Episodes played and their rewards, overall and since the last policy version change."""

    episodes: int = 0
    total: float = 0.0
    recent: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, reward: float) -> None:
        """Counts one finished episode."""
        with self.lock:
            self.episodes += 1
            self.total += reward
            self.recent.append(reward)

    def mean(self) -> float:
        """Mean reward over every episode so far (0 before any)."""
        return self.total / max(self.episodes, 1)


@dataclass
class Problem:
    """One problem: its seed, and the dataset row for a single-turn task."""

    seed: int
    row: dict[str, Any] | None = None


def play_episode(env: EnvServer, trainer: Trainer, args: argparse.Namespace, p: Problem, episode: str) -> float:
    """Plays one episode of `p` through the trainer, reports its reward and returns it."""
    if p.row is not None:
        messages = [{"role": m["role"], "content": m["content"]} for m in p.row["prompt"]]
        text = trainer.answer(episode, messages)
        verdict = env.verify(p.row, text)
        reward, success = float(verdict["reward"]), bool(verdict["correct"])
        calls = Calls([bool(verdict["format_error"])], [False], [""])
    else:
        view = env.start(args.task, p.seed, args.level)
        calls = Calls()
        try:
            conversation: list[dict[str, str]] = []
            while not view["done"]:
                conversation.append({"role": "user", "content": view["observation"]["text"]})
                shown = conversation if args.history < 0 else conversation[-(2 * args.history + 1) :]
                calls.anchors.append(str(view["observation"].get("anchor") or ""))
                text = trainer.answer(episode, shown)
                conversation.append({"role": "assistant", "content": text})
                view = env.act(view["id"], text)
                feedback = view.get("feedback") or {}
                calls.format_errors.append(bool(feedback.get("format_error")))
                calls.invalid.append(bool(feedback.get("invalid")))
            reward, success = float(view["returns"][0]), None
        finally:
            env.close(view["id"])
    trainer.report(episode, reward, success, (args.task, p.seed, args.level), calls)
    return reward


def problems(env: EnvServer, args: argparse.Namespace, single_turn: bool, n: int, start: int) -> list[Problem]:
    """Problems `start .. start + n` (seeds `--seed + start ...`), with their rows when single-turn."""
    seed = args.seed + start
    if not single_turn:
        return [Problem(seed + i) for i in range(n)]
    return [Problem(seed + i, row) for i, row in enumerate(env.rows(args.task, seed, n, args.level))]


def wave_size(args: argparse.Namespace, done: int, at_version: int) -> int:
    """Problems to play next: `--parallel`, but no more than `--per-version` still allows at this
    policy version (whole groups) or than are left of `--problems`."""
    n = args.parallel
    if args.per_version:
        n = min(n, max(1, -(-(args.per_version - at_version) // args.group)))
    if args.problems:
        n = min(n, args.problems - done)
    return n


def wait_for_new_version(trainer: Trainer, version: int, seconds: float) -> int:
    """Waits until the served policy version differs from `version` (the trainer has updated on
    the episodes just played), for at most `seconds`; returns the version then served."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            now = int(trainer.health()["policy_version"])
        except ConnectionError as e:
            error = trainer.gone(str(e))
            if isinstance(error, TrainerGone):
                raise error from None
            continue  # it answers again: keep waiting
        if now != version:
            return now
        time.sleep(0.1)
    print(f"agent: the policy stayed at version {version} for {seconds:.0f} s; playing on", file=sys.stderr)
    return version


def run(args: argparse.Namespace) -> Tally:
    """Plays until the trainer's endpoint goes away or `--problems` problems are done."""
    env = EnvServer(args.env, args.env_token)
    info = env.task(args.task)
    args.task = info["name"]
    if info["seats"] != 1:
        raise AgentError(
            f"`{args.task}` is a {info['seats']}-seat game; this agent plays single-turn tasks and one-seat worlds"
        )
    single_turn = info["kind"] == "single_turn"
    trainer = Trainer(args.trainer, args.api_key, args.model, args.temperature, args.max_tokens)
    tally = Tally()
    run_id = uuid.uuid4().hex[:8]
    try:
        version = int(trainer.wait_open(args.wait).get("policy_version", 0))
    except TrainerGone:
        return tally
    print(
        f"agent: {args.task} L{args.level} ({'rows' if single_turn else 'sessions'}), model "
        f"`{trainer.model}` at version {version}, {args.group} episodes per problem",
        file=sys.stderr,
    )
    at_version = 0  # episodes played since `version` was first served
    with ThreadPoolExecutor(max_workers=args.parallel * args.group) as pool:
        try:
            done = 0
            while not args.problems or done < args.problems:
                if args.per_version and at_version >= args.per_version:
                    new = wait_for_new_version(trainer, version, args.wait)
                    if new != version:
                        with tally.lock:
                            r, tally.recent = tally.recent, []
                        print(
                            f"agent: version {version}: {len(r)} episodes, mean reward {sum(r) / max(len(r), 1):.3f}",
                            file=sys.stderr,
                        )
                    version, at_version = new, 0
                n = wave_size(args, done, at_version)
                batch = problems(env, args, single_turn, n, done)
                done += n
                jobs = [
                    pool.submit(play_episode, env, trainer, args, p, f"{run_id}-{args.task}-{p.seed}-{copy}")
                    for p in batch
                    for copy in range(args.group)
                ]
                for job in jobs:
                    tally.add(job.result())
                at_version += len(jobs)
        except TrainerGone:
            pass
    return tally


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line (see the module doc)."""
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--trainer", default="http://127.0.0.1:8000", help="the training run's endpoint, without /v1")
    p.add_argument("--env", default="http://127.0.0.1:8100", help="the `gauntlet serve env` server")
    p.add_argument("--task", default="n_queens", help="a single-turn task or a one-seat world")
    p.add_argument("--level", type=int, default=1, choices=range(1, 6), metavar="1-5")
    p.add_argument("--group", type=int, default=8, help="episodes per problem (the trainer's rl.group_size)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first problem (below 2^40: training seeds)")
    p.add_argument("--problems", type=int, default=0, help="stop after this many problems (0: until the run ends)")
    p.add_argument("--parallel", type=int, default=4, help="problems played at once (their groups in parallel)")
    p.add_argument(
        "--per-version",
        type=int,
        default=0,
        help="after this many episodes, wait for the trainer's next policy version before playing on "
        "(its rl.prompts_per_step x rl.group_size: every batch sampled by the weights it trains; 0: never wait)",
    )
    p.add_argument("--temperature", type=float, default=1.0, help="the run's rl.temperature (other ones are dropped)")
    p.add_argument("--max-tokens", type=int, default=48, help="the run's rl.max_tokens")
    p.add_argument(
        "--history",
        type=int,
        default=0,
        help="earlier exchanges a world's turn shows (the run's history_window; -1: all, its full_history)",
    )
    p.add_argument("--model", default=None, help="the served model (default: the one `GET /v1/models` lists)")
    p.add_argument("--api-key", default=os.environ.get("GAUNTLET_API_KEY", "unused"), help="the trainer's key")
    p.add_argument("--env-token", default=os.environ.get("GAUNTLET_SERVE_TOKEN"), help="the env server's token")
    p.add_argument("--wait", type=float, default=900, help="seconds to wait for the trainer's endpoint to open")
    args = p.parse_args(argv)
    for name in ("group", "parallel"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
    if not re.fullmatch(r"[A-Za-z0-9_/-]+", args.task):
        p.error(f"--task takes a task name such as `n_queens`, got `{args.task}`")
    return args


def main(argv: list[str] | None = None) -> int:
    """Runs the agent; prints the summary line on stdout and errors on stderr."""
    args = parse_args(argv)
    try:
        tally = run(args)
    except AgentError as e:
        print(f"agent: error: {e}", file=sys.stderr)
        return e.status
    except KeyboardInterrupt:
        return 130
    print(f"played {tally.episodes} episodes, mean reward {tally.mean():.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
