"""verl's custom reward function for gauntlet rows.

Point verl at it (``gauntlet generate`` / :func:`gauntlet.rows` write the rows)::

    reward.custom_reward_function.path=pkg://gauntlet.verl      # verl >= 0.7; older:
    custom_reward_function.path=pkg://gauntlet.verl             # (or the file path of this module)
    custom_reward_function.name=compute_score                   # or compute_score_batch with
                                                                #   reward_manager=batch

For a row whose ``data_source`` is ``gauntlet/<task>``, the response is scored by the task's
validity verifier against the serialized problem in ``reward_model.ground_truth``; the result is
a dict with ``score`` (the reward verl uses) and the logged fields ``task``, ``level``,
``correct`` and ``format_error`` (numbers 0/1, so verl can average them). Any other
``data_source`` falls through to verl's own ``default_compute_score`` (when verl is importable)
and comes back with the same keys, so mixed batches log consistently.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from . import _core
from .errors import BadRowError, ConfigError

__all__ = ["compute_score", "compute_score_batch", "is_gauntlet"]

PREFIX = "gauntlet/"


def is_gauntlet(data_source: Any) -> bool:
    """Whether a row with this ``data_source`` is one of gauntlet's (``gauntlet/<task>``)."""
    return isinstance(data_source, str) and data_source.startswith(PREFIX)


def _task_level(data_source: str, extra_info: Mapping[str, Any] | None) -> tuple[str, int]:
    extra = extra_info if isinstance(extra_info, Mapping) else {}
    task = extra.get("task") or data_source[len(PREFIX) :]
    level = extra.get("level")
    return str(task), int(level) if isinstance(level, int) else 0


def _problem(ground_truth: Any) -> str:
    if isinstance(ground_truth, str):
        return ground_truth
    if isinstance(ground_truth, Mapping):
        return json.dumps(dict(ground_truth))
    err = BadRowError(f"`reward_model.ground_truth` must be the problem's JSON text, got {type(ground_truth).__name__}")
    err.field = "reward_model.ground_truth"
    raise err


def _result(task: str, level: int, verdict: tuple[float, bool, bool, str]) -> dict[str, Any]:
    reward, correct, format_error, _reason = verdict
    return {
        "score": reward,
        "task": task,
        "level": level,
        "correct": float(correct),
        "format_error": float(format_error),
    }


def _fallback() -> Callable[..., Any]:
    try:
        from verl.utils.reward_score import default_compute_score
    except ImportError:
        try:
            from verl.utils.reward_score import _default_compute_score as default_compute_score
        except ImportError:
            default_compute_score = None
    if default_compute_score is None:
        raise ConfigError(
            "this row is not gauntlet's (data_source is not `gauntlet/<task>`) and verl's "
            "default_compute_score is not importable; install verl or route these rows to another reward function"
        )
    return default_compute_score


def _fall_through(data_source: Any, solution_str: str, ground_truth: Any, extra_info: Any, **kwargs: Any) -> dict:
    out = _fallback()(data_source, solution_str, ground_truth, extra_info, **kwargs)
    res: dict[str, Any] = dict(out) if isinstance(out, Mapping) else {"score": float(out)}
    level = extra_info.get("level") if isinstance(extra_info, Mapping) else None
    res.setdefault("task", str(data_source))
    res.setdefault("level", level if isinstance(level, int) else 0)
    res.setdefault("correct", float(float(res["score"]) >= 1.0))
    res.setdefault("format_error", 0.0)
    return res


def compute_score(
    data_source: str, solution_str: str, ground_truth: Any, extra_info: Mapping[str, Any] | None = None, **kwargs: Any
) -> dict[str, Any]:
    """Score one response (verl's ``compute_score`` signature). Returns ``{"score", "task",
    "level", "correct", "format_error"}``; extra keyword arguments (verl's ``reward_kwargs``) are
    ignored for gauntlet rows and passed on for others."""
    if not is_gauntlet(data_source):
        return _fall_through(data_source, solution_str, ground_truth, extra_info, **kwargs)
    task, level = _task_level(data_source, extra_info)
    return _result(task, level, _core.score(task, _problem(ground_truth), solution_str or ""))


def compute_score_batch(
    data_sources: Sequence[str],
    solution_strs: Sequence[str],
    ground_truths: Sequence[Any],
    extra_infos: Sequence[Mapping[str, Any] | None] | None = None,
    *,
    threads: int = 0,
    **kwargs: Any,
) -> list[dict[str, Any]]:
    """verl's batch reward-manager signature: every gauntlet row is scored in one call on
    ``threads`` Rust threads (0: one per core) without the GIL; other rows fall through one by one."""
    n = len(data_sources)
    extras = list(extra_infos) if extra_infos is not None else [None] * n
    if not len(solution_strs) == len(ground_truths) == len(extras) == n:
        raise BadRowError(
            f"batch lengths differ: {n} data_sources, {len(solution_strs)} solution_strs, "
            f"{len(ground_truths)} ground_truths, {len(extras)} extra_infos"
        )
    out: list[dict[str, Any] | None] = [None] * n
    mine = [i for i in range(n) if is_gauntlet(data_sources[i])]
    meta = [_task_level(data_sources[i], extras[i]) for i in mine]
    verdicts = _core.score_batch(
        [t for t, _ in meta],
        [_problem(ground_truths[i]) for i in mine],
        [solution_strs[i] or "" for i in mine],
        threads,
    )
    for i, (task, level), v in zip(mine, meta, verdicts, strict=True):
        out[i] = _result(task, level, v)
    for i in range(n):
        if out[i] is None:
            out[i] = _fall_through(data_sources[i], solution_strs[i], ground_truths[i], extras[i], **kwargs)
    return out  # type: ignore[return-value]
