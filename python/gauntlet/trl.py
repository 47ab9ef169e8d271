"""TRL reward functions for gauntlet's single-turn rows.

``GRPOTrainer`` calls each reward function as ``f(prompts=..., completions=..., **columns)``,
with every dataset column (``data_source``, ``reward_model``, ``extra_info``, ...) as a per-sample
list. Rows from :func:`gauntlet.rows` (or ``gauntlet generate``) carry those columns::

    from datasets import Dataset
    from trl import GRPOTrainer
    import gauntlet, gauntlet.trl

    train = Dataset.from_list(gauntlet.rows("sudoku,countdown", count=2000, level=2))
    trainer = GRPOTrainer(model=..., train_dataset=train, reward_funcs=[gauntlet.trl.reward])

A sample whose ``data_source`` is not ``gauntlet/<task>`` gets ``None``, which TRL treats as
"this function does not score this sample", so gauntlet's reward composes with other reward
functions in multi-task runs. Completions may be plain text or conversational (lists of
messages; the last message's content is scored).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import _core
from .errors import BadRowError
from .verl import _problem, _task_level, is_gauntlet

__all__ = ["correct", "format_error", "reward", "verdicts"]


def _text(completion: Any) -> str:
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Sequence) and completion and isinstance(completion[-1], Mapping):
        content = completion[-1].get("content", "")
        if isinstance(content, str):
            return content
        # Content parts: [{"type": "text", "text": ...}, ...]
        return "".join(p.get("text", "") for p in content if isinstance(p, Mapping))
    return "" if completion is None else str(completion)


def verdicts(completions: Sequence[Any], *, threads: int = 0, **kwargs: Any) -> list[tuple | None]:
    """(reward, correct, format_error, reason) per sample, ``None`` for rows that are not
    gauntlet's; gauntlet rows are scored in one call on Rust threads, without the GIL."""
    n = len(completions)
    sources = kwargs.get("data_source")
    if sources is None:
        raise BadRowError("no `data_source` column: reward functions need gauntlet's rows (gauntlet.rows)")
    models = kwargs.get("reward_model") or [None] * n
    extras = kwargs.get("extra_info") or [None] * n
    mine = [i for i in range(n) if is_gauntlet(sources[i])]
    out: list[tuple | None] = [None] * n
    if not mine:
        return out
    meta = [_task_level(sources[i], extras[i]) for i in mine]
    problems = []
    for i in mine:
        rm = models[i]
        if not isinstance(rm, Mapping) or "ground_truth" not in rm:
            err = BadRowError(f"sample {i}: no `reward_model.ground_truth` (keep the column in the dataset)")
            err.field = "reward_model.ground_truth"
            raise err
        problems.append(_problem(rm["ground_truth"]))
    texts = [_text(completions[i]) for i in mine]
    for i, v in zip(mine, _core.score_batch([t for t, _ in meta], problems, texts, threads), strict=True):
        out[i] = v
    return out


def reward(prompts: Sequence[Any], completions: Sequence[Any], **kwargs: Any) -> list[float | None]:
    """The verifier's reward in [0, 1] per sample (``None`` for rows that are not gauntlet's)."""
    return [None if v is None else v[0] for v in verdicts(completions, **kwargs)]


def correct(prompts: Sequence[Any], completions: Sequence[Any], **kwargs: Any) -> list[float | None]:
    """1.0 when the answer solves the problem, else 0.0 (``None`` for rows not gauntlet's)."""
    return [None if v is None else float(v[1]) for v in verdicts(completions, **kwargs)]


def format_error(prompts: Sequence[Any], completions: Sequence[Any], **kwargs: Any) -> list[float | None]:
    """1.0 when the response had no parsable answer (log it, or weight it negatively)."""
    return [None if v is None else float(v[2]) for v in verdicts(completions, **kwargs)]
