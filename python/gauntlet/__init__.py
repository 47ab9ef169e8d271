"""gauntlet: verifiable tasks, environments, games and the RL learning signal, from Rust.

Tasks (reasoning-gym's call shapes)::

    import gauntlet
    data = gauntlet.create_dataset("sudoku", size=100, seed=0, level=3)
    entry = data[0]
    assert data.score_answer(entry["answer"], entry) == 1.0

Environments and games (gymnasium / PettingZoo-AEC shapes)::

    env = gauntlet.make("sokoban")
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(env.oracle_action())

Every call that does real work runs in Rust without the GIL; batch calls (``verify_batch``,
iteration over a dataset, ``rows``) spread over Rust threads. Errors are
:mod:`gauntlet.errors` classes that say what to fix.
"""

from __future__ import annotations

import importlib.util
from typing import Any

from . import _core, algos, composite, errors
from .envs import Env, EpisodeRunner, GameEnv, list_envs, make, play_episode, render_user_message
from .errors import GauntletError
from .tasks import (
    CompositeDataset,
    DatasetSpec,
    ProceduralDataset,
    Verdict,
    create_dataset,
    generate,
    generate_jsonl,
    get_score_answer_fn,
    list_aliases,
    list_tasks,
    rows,
    task_info,
    verify,
    verify_batch,
)

__version__: str = _core.__version__

__all__ = [
    "CompositeDataset",
    "DatasetSpec",
    "Env",
    "EpisodeRunner",
    "GameEnv",
    "GauntletError",
    "ProceduralDataset",
    "Verdict",
    "__version__",
    "algos",
    "composite",
    "create_dataset",
    "errors",
    "generate",
    "generate_jsonl",
    "get_score_answer_fn",
    "list_aliases",
    "list_envs",
    "list_tasks",
    "make",
    "play_episode",
    "render_user_message",
    "rows",
    "task_info",
    "verify",
    "verify_batch",
]

# `vf-eval gauntlet` (verifiers' v1 loader) imports this package and takes the Taskset and Env
# subclasses it exports; they load lazily, and are exported only where verifiers is installed.
_VERIFIERS = ("GauntletEnv", "GauntletTaskset")
if importlib.util.find_spec("verifiers") is not None:
    __all__ += list(_VERIFIERS)


def __getattr__(name: str) -> Any:
    if name in _VERIFIERS:
        from . import verifiers

        return getattr(verifiers, name)
    raise AttributeError(f"module 'gauntlet' has no attribute {name!r}")
