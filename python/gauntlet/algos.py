"""The learning signal: every advantage estimator of ``gauntlet advantages``, same names, same
options, same numbers.

Inputs are one row per response (per turn for GiGPO), given either as the CLI's JSONL rows
(:func:`compute_advantages`) or as columns (:func:`advantages`). Columns may be Python lists or
numpy arrays; numpy is optional, and outputs are lists of per-token lists (ragged rows).

    >>> import gauntlet.algos as A
    >>> adv, _ = A.advantages("grpo", scores=[1, 0, 0, 0], groups=["p"] * 4, masks=[[1, 1]] * 4)
    >>> round(adv[0][0], 6)
    1.499997
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import _core
from .errors import AlgoError

__all__ = ["ESTIMATORS", "advantages", "compute_advantages"]

ESTIMATORS: list[str] = list(_core.estimator_names())
"""Registry names: grpo, dr-grpo, rloo, reinforce-pp, reinforce-pp-baseline, remax, opo, gpg,
gae, gigpo, rae (verl's snake_case spellings are accepted too)."""

_OPTIONS = ("gamma", "lam", "eps", "no_std", "mode", "step_weight", "per_seat", "task_balance", "rae_decay")


def _list(x: Any) -> Any:
    """numpy arrays (any depth) to lists; everything else unchanged."""
    tolist = getattr(x, "tolist", None)
    if callable(tolist):
        return tolist()
    if isinstance(x, (list, tuple)) and x and hasattr(x[0], "tolist"):
        return [r.tolist() for r in x]
    return x


def _key(v: Any) -> str:
    # The CLI keys groups/tasks/trajectories by their JSON text: 3 and "3" are the same group.
    if isinstance(v, bool):
        raise AlgoError(f"group/task/trajectory keys must be strings or integers, got {v!r}")
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def advantages(
    estimator: str,
    scores: Sequence[float],
    groups: Sequence[Any],
    masks: Sequence[Sequence[float]],
    *,
    as_numpy: bool = False,
    **columns_and_options: Any,
) -> tuple[Any, Any]:
    """Run ``estimator`` on one batch; returns ``(advantages, returns)``: one list of per-token
    values per row (0 where the mask is 0), and ``returns`` for gae, reinforce-pp and remax
    (``None`` otherwise). With ``as_numpy=True`` each is a list of numpy arrays.

    Optional columns (one entry per row): ``rewards`` and ``values`` (per token), ``lengths``
    (OPO), ``baselines`` (ReMax), ``seats``, ``tasks``, and for GiGPO ``trajectories``,
    ``turns``, ``anchors``, ``step_rewards``. Options (the CLI's flags): ``gamma``, ``lam``
    (``--lambda``), ``eps``, ``no_std``, ``mode``, ``step_weight``, ``per_seat``,
    ``task_balance`` (``"within-task"`` or ``"median"``), ``rae_decay``. An option the estimator
    does not read raises :class:`~gauntlet.errors.AlgoError`, as the CLI refuses the flag.
    """
    kw: dict[str, Any] = {}
    for k, v in columns_and_options.items():
        if k in ("tasks", "trajectories", "anchors"):
            kw[k] = None if v is None else [_key(x) for x in _list(v)]
        elif k in ("rewards", "values", "lengths", "baselines", "seats", "turns", "step_rewards"):
            kw[k] = None if v is None else _list(v)
        elif k in _OPTIONS:
            kw[k] = v
        else:
            raise AlgoError(f"unknown column or option `{k}`")
    adv, ret = _core.advantages(
        estimator, [_key(g) for g in _list(groups)], [float(s) for s in _list(scores)], _list(masks), **kw
    )
    if as_numpy:
        import numpy as np

        adv = [np.asarray(r) for r in adv]
        ret = None if ret is None else [np.asarray(r) for r in ret]
    return adv, ret


_ROW_COLUMNS = {
    "rewards": "rewards",
    "values": "values",
    "length": "lengths",
    "baseline": "baselines",
    "seat": "seats",
    "task": "tasks",
    "trajectory": "trajectories",
    "turn": "turns",
    "anchor": "anchors",
    "step_reward": "step_rewards",
}


def compute_advantages(estimator: str, rows: Sequence[Mapping[str, Any]], **options: Any) -> list[dict[str, Any]]:
    """The rows of ``gauntlet advantages --estimator ESTIMATOR`` for the same input rows: each row
    comes back (a copy) with ``advantages`` and, where the estimator defines them, ``returns``.

    Rows have the CLI's fields (``group``, ``score``, ``mask``, ...). As in the CLI, an optional
    field present on the first row is required on every row.
    """
    if not rows:
        return []
    cols: dict[str, Any] = {}
    for field, col in _ROW_COLUMNS.items():
        if field in rows[0] or (field == "anchor" and "trajectory" in rows[0]):
            try:
                vals = [r[field] for r in rows]
            except KeyError:
                raise AlgoError(f"field `{field}` is on the first row, so every row needs it") from None
            if field == "anchor":
                vals = [a if isinstance(a, str) else _json(a) for a in vals]
            cols[col] = vals
    try:
        groups = [r["group"] for r in rows]
        scores = [r["score"] for r in rows]
        masks = [r["mask"] for r in rows]
    except KeyError as e:
        raise AlgoError(f"every row needs field `{e.args[0]}`") from None
    adv, ret = advantages(estimator, scores, groups, masks, **cols, **options)
    out = []
    for i, r in enumerate(rows):
        row = dict(r)
        row["advantages"] = adv[i]
        if ret is not None:
            row["returns"] = ret[i]
        out.append(row)
    return out


def _json(v: Any) -> str:
    import json

    return json.dumps(v, separators=(",", ":"))
