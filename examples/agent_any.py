"""Any agent, trained by gauntlet: play a task through a training run's OpenAI-compatible endpoint.

A training run with a `[serve]` section and `rl.source = "agents"` (configs/agents.toml) serves its
current policy and trains on the episodes agents play through it. This agent needs nothing from
gauntlet but the task's prompts and verifier (the `gauntlet` package); its model calls are plain
HTTP, as any agent framework's would be. For each problem it plays `--group` episodes (a group for
GRPO-style advantages), tags every call of an episode with the header `x-gauntlet-episode`, and
reports the verifier's reward with the task, seed and level.

    gauntlet train --config configs/agents.toml &
    python examples/agent_any.py --url http://127.0.0.1:8000 --task caesar --group 4

It stops when the trainer's endpoint goes away (the run finished) or after `--problems` problems,
and prints how many episodes it played and their mean reward.
"""

from __future__ import annotations

import argparse
import json
import urllib.error
import urllib.request
import uuid
from typing import Any

import gauntlet


def post(url: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> dict[str, Any]:
    """POSTs `body` as JSON and returns the JSON answer (raises on an HTTP error)."""
    req = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    with urllib.request.urlopen(req, timeout=300) as r:
        return json.loads(r.read())


def play(args: argparse.Namespace) -> tuple[int, float]:
    """Plays until the endpoint goes away or `args.problems` problems are done."""
    base = args.url.rstrip("/")
    data = gauntlet.create_dataset(args.task, size=args.problems, seed=args.seed, level=args.level)
    played, total = 0, 0.0
    run = uuid.uuid4().hex[:8]
    for entry in data:
        seed = entry["metadata"]["seed"]
        for copy in range(args.group):
            episode = f"{args.task}-{seed}-{copy}-{run}"
            try:
                answer = post(
                    f"{base}/v1/chat/completions",
                    {
                        "model": args.model,
                        "messages": [{"role": "user", "content": entry["question"]}],
                        "temperature": args.temperature,
                        "max_tokens": args.max_tokens,
                    },
                    {"x-gauntlet-episode": episode},
                )
            except urllib.error.HTTPError:
                raise  # the server refused the request: say why
            except (urllib.error.URLError, ConnectionError):
                return played, total  # the run finished and closed its endpoint
            text = answer["choices"][0]["message"]["content"]
            reward = data.score_answer(text, entry)
            report = {"reward": reward, "task": args.task, "seed": seed, "level": args.level}
            try:
                post(f"{base}/v1/episodes/{episode}/reward", report)
            except urllib.error.HTTPError:
                raise
            except (urllib.error.URLError, ConnectionError):
                return played, total
            played += 1
            total += reward
    return played, total


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--url", default="http://127.0.0.1:8000", help="the trainer's endpoint (without /v1)")
    p.add_argument("--model", default="agents", help="the model name `[serve] name` gives")
    p.add_argument("--task", default="caesar")
    p.add_argument("--level", type=int, default=1)
    p.add_argument("--group", type=int, default=4, help="episodes per problem")
    p.add_argument("--problems", type=int, default=10_000)
    p.add_argument("--seed", type=int, default=0, help="first problem seed")
    p.add_argument("--temperature", type=float, default=1.0, help="must equal the run's rl.temperature")
    p.add_argument("--max-tokens", type=int, default=32)
    args = p.parse_args()
    played, total = play(args)
    print(f"played {played} episodes, mean reward {total / max(played, 1):.3f}")


if __name__ == "__main__":
    main()
