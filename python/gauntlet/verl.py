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

Multi-turn environments and games are played inside verl's rollout by the ``gauntlet`` agent loop
(:mod:`gauntlet.verl_agent`, which needs verl installed): :func:`agent_rows` /
:func:`write_agent_rows` make its rows (``agent_name: gauntlet``) and :data:`AGENT_LOOP_CONFIG`
is the agent-loop config file to hand verl::

    gauntlet.verl.write_agent_rows("wordle.parquet", "wordle", size=512, level=2)
    actor_rollout_ref.rollout.agent.agent_loop_config_path=<AGENT_LOOP_CONFIG>

Those rows' reward is the episode return the agent loop sets; ``compute_score`` refuses them
with a message saying so.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .envs import GameEnv, advance_to_seat, make, seat_view
from .errors import BadRowError, ConfigError
from .tasks import _score_responses

__all__ = [
    "AGENT_LOOP_CONFIG",
    "AGENT_NAME",
    "agent_rows",
    "compute_score",
    "compute_score_batch",
    "is_gauntlet",
    "write_agent_rows",
]

PREFIX = "gauntlet/"
#: The name the agent loop is registered under (rows' ``agent_name``).
AGENT_NAME = "gauntlet"
#: Absolute path of the agent-loop config verl reads
#: (``actor_rollout_ref.rollout.agent.agent_loop_config_path``).
AGENT_LOOP_CONFIG = str(Path(__file__).with_name("verl_agent_loop.yaml"))


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


def _refuse_agent_row(extra_info: Any) -> None:
    if isinstance(extra_info, Mapping) and extra_info.get("env") is not None:
        raise ConfigError(
            f"this row plays the environment `{extra_info['env']}`: its reward is the episode return set by "
            f"the `{AGENT_NAME}` agent loop; set actor_rollout_ref.rollout.agent.agent_loop_config_path to "
            "gauntlet.verl.AGENT_LOOP_CONFIG and keep the rows' agent_name column"
        )


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
    data_source: str,
    solution_str: str,
    ground_truth: Any,
    extra_info: Mapping[str, Any] | None = None,
    *,
    extract: str | None = None,
    **kwargs: Any,
) -> dict[str, Any]:
    """Score one response (verl's ``compute_score`` signature). Returns ``{"score", "task",
    "level", "correct", "format_error"}``. The answer is the last ``<answer>`` block (a response
    without one is a format error); ``extract="boxed"`` (``reward_kwargs``) reads the last
    ``\\boxed{…}`` instead. Other keyword arguments are ignored for gauntlet rows and passed on
    for others."""
    if not is_gauntlet(data_source):
        return _fall_through(data_source, solution_str, ground_truth, extra_info, **kwargs)
    _refuse_agent_row(extra_info)
    task, level = _task_level(data_source, extra_info)
    v = _score_responses([task], [_problem(ground_truth)], [solution_str or ""], 1, extract)[0]
    return _result(task, level, v)


def compute_score_batch(
    data_sources: Sequence[str],
    solution_strs: Sequence[str],
    ground_truths: Sequence[Any],
    extra_infos: Sequence[Mapping[str, Any] | None] | None = None,
    *,
    threads: int = 0,
    extract: str | None = None,
    **kwargs: Any,
) -> list[dict[str, Any]]:
    """verl's batch reward-manager signature: every gauntlet row is scored in one call on
    ``threads`` Rust threads (0: one per core) without the GIL; other rows fall through one by
    one. Responses are read as :func:`compute_score` reads them."""
    n = len(data_sources)
    extras = list(extra_infos) if extra_infos is not None else [None] * n
    if not len(solution_strs) == len(ground_truths) == len(extras) == n:
        raise BadRowError(
            f"batch lengths differ: {n} data_sources, {len(solution_strs)} solution_strs, "
            f"{len(ground_truths)} ground_truths, {len(extras)} extra_infos"
        )
    out: list[dict[str, Any] | None] = [None] * n
    mine = [i for i in range(n) if is_gauntlet(data_sources[i])]
    for i in mine:
        _refuse_agent_row(extras[i])
    meta = [_task_level(data_sources[i], extras[i]) for i in mine]
    verdicts = _score_responses(
        [t for t, _ in meta],
        [_problem(ground_truths[i]) for i in mine],
        [solution_strs[i] or "" for i in mine],
        threads,
        extract,
    )
    for i, (task, level), v in zip(mine, meta, verdicts, strict=True):
        out[i] = _result(task, level, v)
    for i in range(n):
        if out[i] is None:
            out[i] = _fall_through(data_sources[i], solution_strs[i], ground_truths[i], extras[i], **kwargs)
    return out  # type: ignore[return-value]


# ---------------------------------------------------------------------------------------------
# Rows for the `gauntlet` agent loop (multi-turn environments and games).
# ---------------------------------------------------------------------------------------------


def agent_rows(
    name: str, size: int = 256, seed: int = 0, level: int = 1, *, seat: int = 0, system: str | None = None
) -> list[dict[str, Any]]:
    """Rows for the ``gauntlet`` agent loop: one episode of environment or game ``name`` per row,
    row ``i`` with seed ``seed + i`` (every rollout of a GRPO group starts from the same state).

    Columns: ``data_source`` (``gauntlet/<name>``), ``agent_name`` (``gauntlet``), ``prompt``
    (the optional ``system`` message, then the first observation of ``seat`` after the scripted
    opponents' opening moves, as a user message), ``ability`` (``"agent"``), ``reward_model``
    (``{"style": "episode", "ground_truth": ""}``: the agent loop sets the reward) and
    ``extra_info`` (``env``, ``seed``, ``level``, ``seat``, ``index``: what the loop plays)."""
    env = make(name, level=level)
    if not 0 <= seat < env.num_seats:
        err = ConfigError(f"seat must be in 0..{env.num_seats - 1} for `{env.name}`, got {seat}")
        err.field = "seat"
        raise err
    if size < 0:
        raise ConfigError(f"size must be >= 0, got {size}")
    out = []
    for i in range(size):
        env.reset(seed=seed + i, options={"level": level})
        advance_to_seat(env, seat)
        prompt = [{"role": "system", "content": system}] if system else []
        prompt.append({"role": "user", "content": seat_view(env, seat)[0]})
        out.append(
            {
                "data_source": PREFIX + env.name,
                "agent_name": AGENT_NAME,
                "prompt": prompt,
                "ability": "game" if isinstance(env, GameEnv) else "agent",
                "reward_model": {"style": "episode", "ground_truth": ""},
                "extra_info": {"env": env.name, "seed": seed + i, "level": level, "seat": seat, "index": i},
            }
        )
    return out


def write_agent_rows(
    path: str | os.PathLike[str],
    name: str,
    size: int = 256,
    seed: int = 0,
    level: int = 1,
    *,
    seat: int = 0,
    system: str | None = None,
) -> int:
    """Write :func:`agent_rows` to ``path`` atomically: Parquet for ``.parquet`` (needs
    ``pyarrow``, which verl installs), JSON lines for ``.jsonl``/``.json`` (both of which verl's
    ``RLHFDataset`` reads). Returns the number of rows."""
    data = agent_rows(name, size, seed, level, seat=seat, system=system)
    out = os.fspath(path)
    suffix = os.path.splitext(out)[1].lower()
    if suffix not in (".parquet", ".jsonl", ".json"):
        raise ConfigError(f"write_agent_rows writes .parquet, .jsonl or .json files, got {out!r}")
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(out)), prefix=".gauntlet-", suffix=".part")
    try:
        if suffix == ".parquet":
            os.close(fd)
            try:
                import pyarrow as pa
                import pyarrow.parquet as pq
            except ImportError as e:
                raise ConfigError("writing Parquet needs pyarrow (pip install pyarrow), or write .jsonl") from e
            pq.write_table(pa.Table.from_pylist(data), tmp)
        else:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in data)
        os.replace(tmp, out)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return len(data)
