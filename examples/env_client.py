#!/usr/bin/env python3
"""A client for gauntlet's environment server (`gauntlet serve env`), standard library only.

Paste it into a training script, or import it. Three ways to use it:

1. As a verl reward function (`custom_reward_function.path=env_client.py`,
   `custom_reward_function.name=compute_score`) over rows made by `gauntlet generate`:

       compute_score(data_source, solution_str, ground_truth, extra_info) -> float

   or, for verl's batch reward manager, `compute_score_batch(data_sources, solution_strs,
   ground_truths, extra_infos) -> list[float]` (one HTTP call per batch).

2. As a TRL reward function (`GRPOTrainer(reward_funcs=[trl_reward], ...)` on a dataset with the
   `data_source` and `reward_model` columns): `trl_reward(completions, data_source, reward_model)`.

3. In an agent loop over any task or environment:

       env = EnvClient()
       s = env.create("sudoku", seed=0, level=2)
       while not s["done"]:
           s = env.act(s["id"], my_policy(s["observation"]["text"]), seat=s["to_act"])
       env.delete(s["id"])

The server address comes from `GAUNTLET_ENV_URL` (default `http://127.0.0.1:8100`) and the
bearer token, if the server has one, from `GAUNTLET_SERVE_TOKEN`. Errors raise `GauntletError`
with the server's `status`, `type`, `code` and `message`.

Run it as a script for a short demonstration against a running server:
`python3 examples/env_client.py [URL]`.
"""

import json
import os
import sys
import urllib.error
import urllib.request

DEFAULT_URL = "http://127.0.0.1:8100"


class GauntletError(Exception):
    """An error answer of the server: HTTP status plus its `error` object."""

    def __init__(self, status, kind, code, message):
        super().__init__(f"{status} {code}: {message}")
        self.status, self.type, self.code, self.message = status, kind, code, message


class EnvClient:
    """A thin JSON-over-HTTP client; one method per route."""

    def __init__(self, url=None, token=None, timeout=60.0):
        self.url = (url or os.environ.get("GAUNTLET_ENV_URL") or DEFAULT_URL).rstrip("/")
        self.token = token if token is not None else os.environ.get("GAUNTLET_SERVE_TOKEN")
        self.timeout = timeout

    def call(self, method, path, body=None):
        """Send one request; return the parsed JSON answer or raise GauntletError."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if self.token:
            req.add_header("Authorization", "Bearer " + self.token)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                return json.loads(resp.read())
        except urllib.error.HTTPError as e:
            raw = e.read()
            try:
                err = json.loads(raw)["error"]
            except (ValueError, KeyError, TypeError):
                err = {"type": "http_error", "code": str(e.code), "message": raw.decode("utf-8", "replace")}
            raise GauntletError(e.code, err.get("type"), err.get("code"), err.get("message")) from None

    def health(self):
        return self.call("GET", "/health")

    def tasks(self):
        """Every task and environment: name, kind, seats, category, description, levels."""
        return self.call("GET", "/v1/tasks")["tasks"]

    def generate(self, task, n=1, seed=0, level=1):
        """Dataset rows (the verl/TRL columns), as `gauntlet generate` writes them."""
        return self.call("POST", "/v1/generate", {"task": task, "n": n, "seed": seed, "level": level})["rows"]

    def verify(self, items):
        """Score a batch: each item is {"row", "response"} or {"task", "problem", "response"}.
        Returns one {"task", "reward", "correct", "format_error", "reason"} per item."""
        return self.call("POST", "/v1/verify", {"items": list(items)})["results"]

    def create(self, task, seed=0, level=1):
        """Start an episode; returns the session view (id, to_act, observation, done, ...)."""
        return self.call("POST", "/v1/sessions", {"task": task, "seed": seed, "level": level})

    def observe(self, session_id, seat=None):
        query = "" if seat is None else f"?seat={int(seat)}"
        return self.call("GET", f"/v1/sessions/{session_id}{query}")

    def act(self, session_id, response, seat=None):
        """Send the acting seat's response; returns the view with `feedback` and `returns`."""
        body = {"response": response}
        if seat is not None:
            body["seat"] = seat
        return self.call("POST", f"/v1/sessions/{session_id}/act", body)

    def delete(self, session_id):
        return self.call("DELETE", f"/v1/sessions/{session_id}")


_client = None


def _shared():
    global _client
    if _client is None:
        _client = EnvClient()
    return _client


def _task_of(data_source, extra_info):
    if isinstance(extra_info, dict) and isinstance(extra_info.get("task"), str):
        return extra_info["task"]
    return data_source  # the server accepts `gauntlet/<task>`


def compute_score(data_source, solution_str, ground_truth, extra_info=None):
    """verl's reward-function signature: the reward in [0, 1] of one response."""
    item = {"task": _task_of(data_source, extra_info), "problem": ground_truth, "response": solution_str}
    return float(_shared().verify([item])[0]["reward"])


def compute_score_batch(data_sources, solution_strs, ground_truths, extra_infos=None):
    """verl's batch reward manager signature: one HTTP call for the whole batch (split it if it
    is larger than the server's `max_batch`, 4096 by default)."""
    extra_infos = extra_infos or [None] * len(solution_strs)
    items = [
        {"task": _task_of(ds, ei), "problem": gt, "response": s}
        for ds, s, gt, ei in zip(data_sources, solution_strs, ground_truths, extra_infos, strict=True)
    ]
    return [float(r["reward"]) for r in _shared().verify(items)]


def trl_reward(completions, data_source, reward_model, **kwargs):
    """A TRL reward function (GRPOTrainer): the dataset's `data_source` and `reward_model`
    columns arrive as lists next to the completions (plain strings or chat messages)."""
    texts = [c if isinstance(c, str) else c[-1]["content"] for c in completions]
    truths = [rm["ground_truth"] for rm in reward_model]
    return compute_score_batch(data_source, texts, truths)


def play(env, task, policy, seed=0, level=1):
    """Run one episode with `policy(observation_text, seat) -> response`; return the per-seat
    returns. The session is deleted afterwards, even on errors."""
    s = env.create(task, seed=seed, level=level)
    try:
        while not s["done"]:
            s = env.act(s["id"], policy(s["observation"]["text"], s["to_act"]), seat=s["to_act"])
        return s["returns"]
    finally:
        env.delete(s["id"])


def _solve_24(text, seat):
    """A toy policy for the demo: brute-force the Game of 24 from the prompt's `Numbers:` line."""
    from fractions import Fraction
    from itertools import permutations

    line = next((ln for ln in text.splitlines() if ln.startswith("Numbers:")), "Numbers:")
    nums = [(Fraction(int(x)), x) for x in line.split()[1:]]

    def search(items):
        if len(items) == 1:
            return items[0][1] if items[0][0] == 24 else None
        for (a, ea), (b, eb) in permutations(items, 2):
            rest = list(items)
            rest.remove((a, ea))
            rest.remove((b, eb))
            options = [(a + b, f"({ea} + {eb})"), (a - b, f"({ea} - {eb})"), (a * b, f"({ea} * {eb})")]
            if b != 0:
                options.append((a / b, f"({ea} / {eb})"))
            for v in options:
                found = search([*rest, v])
                if found:
                    return found
        return None

    return f"<answer>{search(nums) or '0'}</answer>"


def _demo(url):
    env = EnvClient(url)
    print("health:", env.health())
    tasks = env.tasks()
    kinds = {}
    for t in tasks:
        kinds[t["kind"]] = kinds.get(t["kind"], 0) + 1
    print(f"{len(tasks)} tasks/environments:", kinds)

    rows = env.generate("countdown", n=2, seed=7, level=2)
    row = rows[0]
    print("row:", row["data_source"], row["extra_info"], row["prompt"][0]["content"][:90].replace("\n", " "), "...")
    gt = row["reward_model"]["ground_truth"]
    wrong = compute_score(row["data_source"], "<answer>1+2</answer>", gt, row["extra_info"])
    print("compute_score(wrong answer):", wrong)
    print("compute_score(no answer):   ", compute_score(row["data_source"], "I give up", gt, row["extra_info"]))
    print("verify:", env.verify([{"row": r, "response": "<answer>3*4</answer>"} for r in rows]))

    for seed in range(3):
        returns = play(env, "game_of_24", _solve_24, seed=seed, level=1)
        print(f"agent loop on game_of_24 seed {seed} (brute-force policy), returns:", returns)
    s = env.create("sudoku", seed=1, level=1)
    print("session:", s["id"], "to_act:", s["to_act"], "anchor:", s["observation"]["anchor"])
    s = env.act(s["id"], "<answer>not a grid</answer>")
    print("feedback:", s["feedback"])
    try:
        env.act(s["id"], "again")
    except GauntletError as e:
        print("acting on a finished episode ->", e.status, e.code)
    env.delete(s["id"])
    try:
        env.create("sudokku")
    except GauntletError as e:
        print("unknown task ->", e.status, e.code, "|", e.message)
    print("live sessions at the end:", env.health()["sessions"])


if __name__ == "__main__":
    _demo(sys.argv[1] if len(sys.argv) > 1 else None)
