"""Play gauntlet environments over OpenEnv's WebSocket protocol with openenv-core's own client.

    gauntlet serve env --port 8100 &
    pip install openenv-core openai
    python examples/openenv_play.py sokoban_play --episodes 8            # random legal moves
    python examples/openenv_play.py wordle --model smollm2 --base-url http://127.0.0.1:8000/v1

This is the loop every OpenEnv trainer runs (TRL's environment_factory examples, SkyRL,
torchforge): reset with a seed and level, send the model's reply as `{"response": text}`, read
the next observation, until `done`. With --model the replies come from any OpenAI-compatible
server (gauntlet serve policy, vLLM); without it, from the legal moves the observation lists.
Episodes run concurrently, one WebSocket session each.
"""

from __future__ import annotations

import argparse
import asyncio
import random

from openenv.core import GenericEnvClient


def reply_with(args: argparse.Namespace):
    """A function from an observation to the model's reply text."""
    if not args.model:
        rng = random.Random(0)
        return lambda obs: rng.choice(obs["legal_actions"])
    from openai import OpenAI

    client = OpenAI(base_url=args.base_url, api_key="unused")

    def ask(obs: dict) -> str:
        out = client.chat.completions.create(
            model=args.model, messages=[{"role": "user", "content": obs["text"]}], max_tokens=64
        )
        return out.choices[0].message.content or ""

    return ask


async def episode(url: str, seed: int, level: int, reply) -> list[float]:
    async with GenericEnvClient(base_url=url) as env:
        r = await env.reset(seed=seed, level=level)
        while not r.done:
            obs = r.observation
            text = await asyncio.to_thread(reply, obs)
            r = await env.step({"response": text, "seat": obs["to_act"]})
        return r.observation["returns"]


async def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("name", help="a task, environment or game (`gauntlet tasks`)")
    p.add_argument("--server", default="http://127.0.0.1:8100", help="gauntlet serve env")
    p.add_argument("--level", type=int, default=1)
    p.add_argument("--episodes", type=int, default=8)
    p.add_argument("--model", help="a model id on --base-url; random legal moves without it")
    p.add_argument("--base-url", default="http://127.0.0.1:8000/v1")
    args = p.parse_args()
    url = f"{args.server}/openenv/{args.name}"
    reply = reply_with(args)
    returns = await asyncio.gather(*(episode(url, s, args.level, reply) for s in range(args.episodes)))
    for seed, r in enumerate(returns):
        print(f"seed {seed}: returns {r}")
    print(f"mean return of seat 0: {sum(r[0] for r in returns) / len(returns):.3f}")


if __name__ == "__main__":
    asyncio.run(main())
