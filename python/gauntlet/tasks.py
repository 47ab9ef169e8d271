"""Single-turn task families with reasoning-gym's call shapes, plus gauntlet's dataset rows.

A reasoning-gym script switches by changing its import::

    import gauntlet as rg            # was: import reasoning_gym as rg
    data = rg.create_dataset("sudoku", size=10, seed=42, level=2)
    for entry in data:
        print(entry["question"])
        assert data.score_answer(entry["answer"], entry) == 1.0

Entries are built lazily (in chunks, on Rust threads) as they are indexed or iterated, so a
dataset of 100,000 items costs nothing until it is read. Entry ``i`` of a dataset with seed
``s`` is the instance of seed ``s + i``: the same problem ``gauntlet generate --seed s`` writes
on row ``i``.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple, overload

from . import _core
from .errors import BadRowError, ConfigError

__all__ = [
    "CompositeDataset",
    "DatasetSpec",
    "ProceduralDataset",
    "Verdict",
    "create_dataset",
    "generate",
    "generate_jsonl",
    "get_score_answer_fn",
    "list_tasks",
    "rows",
    "task_info",
    "verify",
    "verify_batch",
]

_CHUNK = 256


class Verdict(NamedTuple):
    """A verifier's full verdict on one response."""

    reward: float
    """Reward in [0, 1] (1.0 exactly when correct)."""
    correct: bool
    """Whether the answer solves the problem."""
    format_error: bool
    """The response had no parsable answer (as opposed to a wrong one)."""
    reason: str
    """Why, in a few words (``"ok"``, ``"row 3 repeats 7"``)."""


def list_tasks() -> list[str]:
    """Names of every single-turn task family, in registry order."""
    return [s["name"] for s in _core.task_specs()]


def task_info(name: str) -> dict[str, Any]:
    """The family's spec: name, category, description, levels (5 strings), answer_format."""
    canonical = _core.canonical_task(name)
    return next(s for s in _core.task_specs() if s["name"] == canonical)


def _respond(answer: str | None) -> str:
    """A bare answer (reasoning-gym style) wrapped as the response the verifier extracts from;
    a response that already has an ``<answer>`` block is scored as it is."""
    if answer is None:
        return ""
    text = str(answer)
    return text if "<answer>" in text.lower() else f"<answer>{text}</answer>"


def _problem_of(entry: Mapping[str, Any]) -> tuple[str, str]:
    """(task, serialized problem) of a dataset entry, naming the missing field on error."""
    meta = entry.get("metadata") if isinstance(entry, Mapping) else None
    if not isinstance(meta, Mapping):
        raise BadRowError("entry has no `metadata` dict (pass an entry of a gauntlet dataset)")
    try:
        return str(meta["task"]), str(meta["problem"])
    except KeyError as e:
        err = BadRowError(f"entry metadata has no `{e.args[0]}` (pass an entry of a gauntlet dataset)")
        err.field = f"metadata.{e.args[0]}"
        raise err from None


def _score_entry(answer: str | None, entry: Mapping[str, Any]) -> float:
    return _core.score_entry(answer, entry)


def _check_cfg(cfg: Mapping[str, Any]) -> None:
    if cfg:
        keys = ", ".join(f"`{k}`" for k in sorted(cfg))
        raise ConfigError(
            f"unknown dataset option(s) {keys}: gauntlet sets difficulty with `level=1..5` "
            "(see gauntlet.task_info(name)['levels'] for what each level means)"
        )


def _check_size(size: int) -> int:
    if not isinstance(size, int) or isinstance(size, bool) or size < 0:
        raise ConfigError(f"size must be an integer >= 0, got {size!r}")
    return size


def _check_seed(seed: int | None) -> int:
    if seed is None:
        return 0
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
        raise ConfigError(f"seed must be an integer in [0, 2**64), got {seed!r}")
    return seed


def _entry(name: str, index: int, seed: int, level: int, item: tuple[str, str, str]) -> dict[str, Any]:
    prompt, problem, answer = item
    return {
        "question": prompt,
        "answer": answer,
        "metadata": {
            "source_dataset": name,
            "source_index": index,
            "task": name,
            "seed": seed,
            "level": level,
            "difficulty": {"level": level},
            "problem": problem,
        },
    }


class _LazyDataset:
    """Shared machinery: lazy, chunked, cached entries; indexing, slicing and iteration."""

    size: int
    threads: int

    def _make(self, indices: Sequence[int]) -> list[dict[str, Any]]:
        raise NotImplementedError

    def __len__(self) -> int:
        return self.size

    @overload
    def __getitem__(self, idx: int) -> dict[str, Any]: ...
    @overload
    def __getitem__(self, idx: slice) -> list[dict[str, Any]]: ...
    def __getitem__(self, idx: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(idx, slice):
            return self._make(range(*idx.indices(self.size)))
        if not isinstance(idx, int):
            raise TypeError(f"dataset indices must be integers or slices, not {type(idx).__name__}")
        i = idx + self.size if idx < 0 else idx
        if not 0 <= i < self.size:
            raise IndexError(f"index {idx} out of range for a dataset of size {self.size}")
        return self._make([i])[0]

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for start in range(0, self.size, _CHUNK):
            yield from self._make(range(start, min(start + _CHUNK, self.size)))

    def score_answer(self, answer: str | None, entry: Mapping[str, Any]) -> float:
        """Reward in [0, 1] of ``answer`` (a bare answer, or a response with an ``<answer>``
        block) for ``entry``: the verifier checks validity, so any correct answer scores 1.0."""
        return _core.score_entry(answer, entry)

    def verify(self, answer: str | None, entry: Mapping[str, Any]) -> Verdict:
        """The full verdict (reward, correct, format_error, reason) of ``answer`` for ``entry``."""
        task, problem = _problem_of(entry)
        return Verdict(*_core.score(task, problem, _respond(answer)))


class ProceduralDataset(_LazyDataset):
    """``size`` generated problems of one family at one level; entry ``i`` has seed ``seed + i``.

    Indexable (ints, negative ints, slices), iterable, ``len()``-able and picklable (only the
    arguments are pickled; entries are regenerated, identically, on the other side).
    """

    def __init__(self, name: str, size: int = 500, seed: int | None = 0, level: int = 1, threads: int = 0):
        self.name = _core.canonical_task(name)
        self.size = _check_size(size)
        self.seed = _check_seed(seed)
        self.level = level
        self.threads = threads
        _core.generate_entries(self.name, [], level)  # validates the level now, not on first read

    def _make(self, indices: Sequence[int]) -> list[dict[str, Any]]:
        seeds = [(self.seed + i) % 2**64 for i in indices]
        items = _core.generate_entries(self.name, seeds, self.level, self.threads)
        return [_entry(self.name, i, s, self.level, it) for i, s, it in zip(indices, seeds, items, strict=True)]

    def __reduce__(self) -> tuple[Any, ...]:
        return (ProceduralDataset, (self.name, self.size, self.seed, self.level, self.threads))

    def __repr__(self) -> str:
        return f"ProceduralDataset({self.name!r}, size={self.size}, seed={self.seed}, level={self.level})"


class DatasetSpec(NamedTuple):
    """One member of a composite dataset (reasoning-gym's ``DatasetSpec`` shape, plus ``level``)."""

    name: str
    weight: float = 1.0
    config: Mapping[str, Any] = {}
    level: int | None = None


def _spec(s: Any) -> DatasetSpec:
    if isinstance(s, str):
        return DatasetSpec(s)
    if isinstance(s, Mapping):
        extra = set(s) - {"name", "weight", "config", "level"}
        if extra:
            raise ConfigError(f"composite member has unknown key(s) {sorted(extra)}; use name, weight, level")
        return DatasetSpec(s["name"], float(s.get("weight", 1.0)), s.get("config") or {}, s.get("level"))
    if hasattr(s, "name"):
        return DatasetSpec(
            s.name, float(getattr(s, "weight", 1.0)), getattr(s, "config", {}) or {}, getattr(s, "level", None)
        )
    raise ConfigError(f"composite member must be a name, a dict or a DatasetSpec, got {type(s).__name__}")


class CompositeDataset(_LazyDataset):
    """Entries drawn from several families by weight, each at its own level.

    Entry ``i`` comes from the member chosen by a seeded draw (a pure function of ``seed``, the
    weights and ``i``) and is that family's instance of seed ``seed + i``.
    """

    def __init__(
        self, datasets: Iterable[Any], size: int = 500, seed: int | None = 0, level: int = 1, threads: int = 0
    ):
        specs = [_spec(s) for s in datasets]
        if not specs:
            raise ConfigError("a composite dataset needs at least one member in `datasets`")
        self.members: list[tuple[str, int, float]] = []
        for s in specs:
            cfg = dict(s.config)
            lvl = cfg.pop("level", s.level if s.level is not None else level)
            _check_cfg(cfg)
            name = _core.canonical_task(s.name)
            _core.generate_entries(name, [], lvl)
            self.members.append((name, int(lvl), float(s.weight)))
        self.size = _check_size(size)
        self.seed = _check_seed(seed)
        self.level = level
        self.threads = threads
        self._plan = _core.composite_plan(self.seed, self.size, [w for _, _, w in self.members])

    def _make(self, indices: Sequence[int]) -> list[dict[str, Any]]:
        out: dict[int, dict[str, Any]] = {}
        by_member: dict[int, list[int]] = {}
        for i in indices:
            by_member.setdefault(self._plan[i], []).append(i)
        for k, idx in by_member.items():
            name, lvl, _ = self.members[k]
            seeds = [(self.seed + i) % 2**64 for i in idx]
            for i, s, it in zip(idx, seeds, _core.generate_entries(name, seeds, lvl, self.threads), strict=True):
                out[i] = _entry(name, i, s, lvl, it)
        return [out[i] for i in indices]

    def __reduce__(self) -> tuple[Any, ...]:
        specs = [{"name": n, "weight": w, "level": lvl} for n, lvl, w in self.members]
        return (CompositeDataset, (specs, self.size, self.seed, self.level, self.threads))

    def __repr__(self) -> str:
        names = ", ".join(f"{n}@{lvl}:{w:g}" for n, lvl, w in self.members)
        return f"CompositeDataset([{names}], size={self.size}, seed={self.seed})"


def create_dataset(
    name: str, *, size: int = 500, seed: int | None = 0, level: int = 1, threads: int = 0, **cfg: Any
) -> ProceduralDataset | CompositeDataset:
    """A dataset of ``size`` problems of family ``name`` at ``level`` (1..5), reasoning-gym style.

    ``name="composite"`` takes ``datasets=[...]`` (names, dicts ``{"name", "weight", "level"}``
    or :class:`DatasetSpec`). ``threads`` is the number of Rust threads generating each chunk
    (0: one per core). Options reasoning-gym families take (``min_empty``, ...) do not exist
    here: difficulty is the level, and unknown options raise :class:`~gauntlet.errors.ConfigError`.
    """
    if name == "composite":
        datasets = cfg.pop("datasets", None)
        _check_cfg(cfg)
        if datasets is None:
            raise ConfigError("create_dataset('composite', ...) needs datasets=[...]")
        return CompositeDataset(datasets, size=size, seed=seed, level=level, threads=threads)
    _check_cfg(cfg)
    return ProceduralDataset(name, size=size, seed=seed, level=level, threads=threads)


def get_score_answer_fn(name: str) -> Callable[[str | None, Mapping[str, Any]], float]:
    """``fn(answer, entry) -> reward`` for entries of family ``name`` (reasoning-gym's shape)."""
    _core.canonical_task(name)
    return _score_entry


def verify(task: str, problem: str | Mapping[str, Any], response: str) -> Verdict:
    """Score a full ``response`` (answer in ``<answer>…</answer>``) against a serialized problem
    (the JSON text of ``reward_model.ground_truth`` or ``metadata["problem"]``, or its dict)."""
    text = problem if isinstance(problem, str) else json.dumps(problem)
    return Verdict(*_core.score(task, text, response))


def _row_task_problem(row: Mapping[str, Any], i: int) -> tuple[str, str]:
    """(task, problem) of a verl/TRL row or a dataset entry, naming the field at fault."""

    def bad(field: str, msg: str) -> BadRowError:
        e = BadRowError(f"row {i}: field `{field}`: {msg}")
        e.field = field
        return e

    if not isinstance(row, Mapping):
        raise bad("(row)", f"expected a dict, got {type(row).__name__}")
    if isinstance(row.get("metadata"), Mapping) and "problem" in row["metadata"]:
        return _problem_of(row)
    extra = row.get("extra_info")
    task = extra.get("task") if isinstance(extra, Mapping) else None
    if task is None:
        ds = row.get("data_source")
        if not isinstance(ds, str) or not ds.startswith("gauntlet/"):
            raise bad("data_source", f"expected `gauntlet/<task>`, got {ds!r}")
        task = ds[len("gauntlet/") :]
    rm = row.get("reward_model")
    if not isinstance(rm, Mapping):
        raise bad("reward_model", "missing or not a dict")
    gt = rm.get("ground_truth")
    if isinstance(gt, Mapping):
        gt = json.dumps(gt)
    if not isinstance(gt, str):
        raise bad("reward_model.ground_truth", "expected a JSON string or a dict")
    return str(task), gt


def verify_batch(
    rows: Sequence[Mapping[str, Any]], responses: Sequence[str] | None = None, *, threads: int = 0
) -> list[Verdict]:
    """Verdicts for many rows at once, computed on ``threads`` Rust threads (0: one per core)
    without the GIL. ``rows`` are verl/TRL rows (``gauntlet generate``'s layout) or dataset
    entries; the responses come from ``responses`` or else each row's ``response`` field.

    Rows are read in Rust (plain dicts; any other mapping through :func:`_row_task_problem`) and
    handed to the threads in chunks as they are read, so the second core checks answers while
    the interpreter's thread reads the next rows and builds the verdicts."""
    return _core.verify_rows(rows, responses, threads)


def generate_jsonl(
    tasks: str | Sequence[str], count: int = 100, seed: int = 0, level: int = 1, *, threads: int = 0
) -> bytes:
    """The JSONL bytes ``gauntlet generate TASKS -n COUNT --seed SEED --level LEVEL`` writes
    (byte-identical), generated on ``threads`` Rust threads (0: one per core)."""
    spec = tasks if isinstance(tasks, str) else ",".join(tasks)
    return _core.generate_jsonl(spec, count, seed, level, threads)


def rows(
    tasks: str | Sequence[str], count: int = 100, seed: int = 0, level: int = 1, *, threads: int = 0
) -> list[dict[str, Any]]:
    """Dataset rows in verl/TRL's columns (``data_source``, ``prompt``, ``ability``,
    ``reward_model``, ``extra_info``), as ``gauntlet generate`` writes them: ``count`` per family
    (``tasks`` is a name, a list, ``"a,b"`` or ``"all"``), row ``i`` of a family with seed
    ``seed + i``. Ready for ``datasets.Dataset.from_list``."""
    data = generate_jsonl(tasks, count, seed, level, threads=threads)
    return [json.loads(line) for line in data.splitlines()]


def generate(
    tasks: str | Sequence[str],
    output: str | os.PathLike[str],
    count: int = 100,
    seed: int = 0,
    level: int = 1,
    *,
    threads: int = 0,
) -> int:
    """Write the rows of :func:`rows` to ``output`` as JSONL, atomically (a temporary file in the
    same folder, then a rename); returns the number of rows written."""
    data = generate_jsonl(tasks, count, seed, level, threads=threads)
    path = os.fspath(output)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".gauntlet-", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    return data.count(b"\n")
