"""gauntlet for the verifiers library (``verifiers >= 0.4``, its v1 API) and prime-rl.

Every gauntlet task, environment and game is one taskset, selected by its ``name``::

    vf-eval gauntlet --env.taskset.task-name sudoku --env.taskset.level 2 -n 50 \\
        --client.base-url http://localhost:8000/v1 -m smollm2

The taskset id ``gauntlet`` resolves to this package (verifiers imports the module named by
the id and takes the ``Taskset`` and ``Env`` subclasses it exports), so nothing but
``pip install gauntlet verifiers`` is needed. In Python, :func:`load_environment` builds the
same ``vf.Env`` from keyword arguments, and :func:`load_taskset` the taskset alone.

Tasks are single-turn: the model's last reply is scored by gauntlet's verifier (reward
``gauntlet``, 0/1). Environments and games are multi-turn: :class:`GauntletEnv` plays the
episode, feeding each reply to the environment as the action and its next observation back as
the user turn (in games the level's scripted opponent plays the other seats), and the episode
return of the model's seat is the reward. Task ``i`` has seed ``seed + i``; the taskset is
infinite, so runs pass ``-n``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

try:
    import verifiers.v1 as vf
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError("gauntlet.verifiers needs the verifiers library: pip install 'verifiers>=0.4'") from e

from . import _core
from .envs import list_envs, make
from .trl import ToolEnvironment

__all__ = [
    "GauntletConfig",
    "GauntletData",
    "GauntletEnv",
    "GauntletEnvConfig",
    "GauntletTask",
    "GauntletTaskset",
    "load_environment",
    "load_taskset",
]

SYSTEM_PROMPT = (
    "Solve the task. Think step by step if you need to, then give your final answer (or, in an "
    "environment, your action for this turn) inside <answer></answer>."
)


class GauntletConfig(vf.TasksetConfig):
    """Which gauntlet task, environment or game, at which level, from which seed."""

    task_name: str = "countdown"
    """A task family, environment or game (``gauntlet tasks`` lists them)."""
    level: int = 1
    """Difficulty, 1..5."""
    seed: int = 0
    """Seed of task 0; task ``i`` has seed ``seed + i``."""
    seat: int = 0
    """The model's seat in games (the scripted opponent plays the others)."""


class GauntletData(vf.TaskData):
    """One task: ``info`` holds the family or environment name, seed, level, seat and, for
    single-turn tasks, the serialized problem the verifier scores against."""

    info: dict


class GauntletTask(vf.Task[GauntletData, vf.State, vf.TaskConfig]):
    """A gauntlet task or episode; its reward ``gauntlet`` is the verifier's score of the last
    reply (tasks) or the episode return :class:`GauntletEnv` recorded (environments)."""

    @vf.reward(weight=1.0)
    async def gauntlet(self, trace: vf.Trace) -> float:
        info = self.data.info
        if info["kind"] == "env":
            return float(trace.info.get("gauntlet_return", 0.0))
        reward, correct, format_error, _ = _core.score(info["name"], info["problem"], trace.last_reply or "")
        trace.info.update(correct=correct, format_error=format_error)
        return reward


class GauntletTaskset(vf.Taskset[GauntletTask, GauntletConfig]):
    """Tasks of one gauntlet family, environment or game (infinite: runs pass ``-n``)."""

    INFINITE = True

    def load(self) -> Iterator[GauntletTask]:
        c = self.config
        if c.task_name in list_envs():
            yield from self._episodes(c)
        else:
            yield from self._problems(c)

    def _problems(self, c: GauntletConfig) -> Iterator[GauntletTask]:
        name = _core.canonical_task(c.task_name)
        for start in itertools.count(c.seed, 64):
            seeds = [s % 2**64 for s in range(start, start + 64)]
            for s, (prompt, problem, _) in zip(seeds, _core.generate_entries(name, seeds, c.level), strict=True):
                info = {"kind": "task", "name": name, "seed": s, "level": c.level, "problem": problem}
                yield GauntletTask(GauntletData(name=f"{name}#{s}", prompt=prompt, info=info), c.task)

    def _episodes(self, c: GauntletConfig) -> Iterator[GauntletTask]:
        name = make(c.task_name, level=c.level).name
        for s in itertools.count(c.seed):
            first = _Episode(name, s, c.level, c.seat).first
            info = {"kind": "env", "name": name, "seed": s, "level": c.level, "seat": c.seat}
            data = GauntletData(name=f"{name}#{s}", prompt=first, system_prompt=SYSTEM_PROMPT, info=info)
            yield GauntletTask(data, c.task)


class _Episode(ToolEnvironment):
    """One episode as the model's seat sees it: ``_play(reply)`` applies the reply's
    ``<answer>`` as the action, lets the opponents answer, and returns the next observation."""

    tool_calls = False

    def __init__(self, name: str, seed: int, level: int, seat: int) -> None:
        self.env_name, self.level, self.seat = name, level, seat
        super().__init__()
        self.first = self.reset(seed=seed)


class GauntletEnvConfig(vf.EnvConfig):
    """The one seat the model plays (``--env.player.*``): by default verifiers' plain chat
    harness (``null``) in a local subprocess, since gauntlet's tasks need no tools or sandbox."""

    player: vf.AgentConfig = vf.AgentConfig.model_validate(
        {"harness": {"id": "null"}, "runtime": {"type": "subprocess"}}
    )


class GauntletEnv(vf.Env[GauntletEnvConfig]):
    """Plays a gauntlet task (one turn) or episode (turns until it ends) with the model."""

    async def run(self, task: GauntletTask, agents: Any) -> None:
        info = task.data.info
        async with agents.player.interaction(task) as interaction:
            segment = await interaction.turn()
            if info["kind"] == "env":
                episode = _Episode(info["name"], info["seed"], info["level"], info["seat"])
                while not segment.terminated and not episode.done:
                    observation = episode._play(segment.last_reply or "")
                    if episode.done:
                        break
                    segment = await interaction.turn(observation)
                interaction.trace.info["gauntlet_return"] = episode.get_reward()
                interaction.trace.info["turns"] = episode.turns


def load_taskset(name: str, level: int = 1, seed: int = 0, seat: int = 0) -> GauntletTaskset:
    """The taskset of ``name`` (a task family, environment or game)."""
    return GauntletTaskset(GauntletConfig(id="gauntlet", task_name=name, level=level, seed=seed, seat=seat))


def load_environment(name: str, level: int = 1, seed: int = 0, seat: int = 0, **env: Any) -> GauntletEnv:
    """The ``vf.Env`` that plays ``name``: what ``vf-eval gauntlet --env.taskset.task-name NAME``
    builds. ``env`` holds further ``EnvConfig`` fields (e.g. ``player``)."""
    taskset = GauntletConfig(id="gauntlet", task_name=name, level=level, seed=seed, seat=seat)
    return GauntletEnv(GauntletEnvConfig(taskset=taskset, **env))
