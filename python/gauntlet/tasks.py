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

import contextlib
import json
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple, overload

from . import _core
from .errors import BadRowError, ConfigError, InvalidLevelError

__all__ = [
    "CompositeDataset",
    "DatasetSpec",
    "ProceduralDataset",
    "Verdict",
    "create_dataset",
    "generate",
    "generate_jsonl",
    "get_score_answer_fn",
    "list_aliases",
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


_ALIASES: dict[str, dict[str, Any]] = {}


def list_aliases() -> list[dict[str, Any]]:
    """reasoning-gym's family names that gauntlet serves, as dicts: ``name`` (reasoning-gym's),
    ``family`` (gauntlet's), ``level`` (the level nearest reasoning-gym's default
    configuration, used when no level is given), ``differs`` (what is not the same), ``keys``
    (every reasoning-gym configuration key it takes), ``overrides`` (the keys that set a
    generator parameter: ``keys``, ``param``, reasoning-gym's ``defaults``, the ``bounds``
    gauntlet's generator accepts and a ``doc``; the other keys choose a level) and ``fields``
    (problem fields reasoning-gym's entries name differently)."""
    return [dict(a) for a in _core.task_aliases()]


def _renames(source: str) -> dict[str, str]:
    """Problem fields that reasoning-gym's entries of ``source`` name differently."""
    alias = _alias(source)
    return dict(alias.get("fields") or {}) if alias else {}


def _alias(name: str) -> dict[str, Any] | None:
    if not _ALIASES:
        _ALIASES.update((a["name"], a) for a in _core.task_aliases())
    return _ALIASES.get(name.strip().lower().replace("-", "_")) if isinstance(name, str) else None


def task_info(name: str) -> dict[str, Any]:
    """The family's spec: name, category, description, levels (5 strings), answer_format."""
    canonical = _core.canonical_task(name)
    return next(s for s in _core.task_specs() if s["name"] == canonical)


_EXTRACTS = (None, "answer", "boxed", "fenced")


def _check_extract(extract: str | None) -> str | None:
    if extract not in _EXTRACTS:
        err = ConfigError(f"extract must be None, 'answer', 'boxed' or 'fenced', got {extract!r}")
        err.field = "extract"
        raise err
    return None if extract == "answer" else extract


def _missing(extract: str) -> Verdict:
    what = "\\boxed{…}" if extract == "boxed" else "fenced code block"
    return Verdict(0.0, False, True, f"unparsable: no {what}")


def _from_response(response: str | None, extract: str | None) -> str | None:
    """The response the verifier reads, for entry points that take a full response: unchanged,
    or with ``extract="boxed"``/``"fenced"`` the last such block moved into an ``<answer>``
    block (``None`` when the response has none)."""
    text = "" if response is None else str(response)
    if extract is None:
        return text
    found = _core.extract(text, extract)
    return None if found is None else f"<answer>{found}</answer>"


def _score_responses(
    names: list[str], problems: list[str], responses: list[str], threads: int, extract: str | None
) -> list[tuple[float, bool, bool, str]]:
    """Verdicts of full responses (the verl and TRL entry points), read as :func:`verify` reads
    them; one GIL-free call on ``threads`` Rust threads."""
    extract = _check_extract(extract)
    if extract is None:
        return _core.score_batch(names, problems, responses, threads)
    moved = [_from_response(r, extract) for r in responses]
    verdicts = _core.score_batch(names, problems, ["" if m is None else m for m in moved], threads)
    return [tuple(_missing(extract)) if m is None else v for v, m in zip(verdicts, moved, strict=True)]


def _respond(answer: str | None, extract: str | None = None) -> str | None:
    """The answer-taking entry points (``score_answer``, ``dataset.verify``): a bare answer is
    wrapped as the response the verifier extracts from; a text that already has an
    ``<answer>`` block is scored on its last block."""
    if answer is None:
        return ""
    text = str(answer)
    if extract is not None:
        return _from_response(text, extract)
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


def _score_entry(answer: str | None, entry: Mapping[str, Any], *, extract: str | None = None) -> float:
    if extract is None:
        return _core.score_entry(answer, entry)
    return _verify_answer(answer, entry, extract).reward


def _number(key: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        err = ConfigError(f"option `{key}` must be a number, got {value!r}")
        err.field = key
        raise err
    return float(value)


def _setting_keys(alias: Mapping[str, Any] | None) -> set[str]:
    """The reasoning-gym keys of ``alias`` that set a generator parameter."""
    return {k for o in (alias or {}).get("overrides", ()) for k in o["keys"]}


def _resolve_level(name: str, level: Any, cfg: Mapping[str, Any]) -> int:
    """The level of a dataset of ``name``: ``level`` when given; else the one reasoning-gym's
    configuration keys in ``cfg`` choose; else, for a reasoning-gym name, the level nearest its
    default configuration; else 1. Keys that set a generator parameter (``min_empty``) choose
    no level: they apply on top of it (checked here, so a bad value fails at once). Options a
    family does not take raise ``ConfigError`` listing the ones it does."""
    alias = _alias(name)
    if cfg and alias is None:
        keys = ", ".join(f"`{k}`" for k in sorted(cfg))
        err = ConfigError(
            f"unknown dataset option(s) {keys}: `{name}` is not a reasoning-gym name, so it takes "
            "only `level=1..5` (see gauntlet.task_info(name)['levels'] for what each level means)"
        )
        err.field = sorted(cfg)[0]
        raise err
    pairs = [(k, _number(k, v)) for k, v in cfg.items()]
    chosen = _core.alias_level(name, pairs) if cfg else None  # also refuses unknown keys
    if cfg:
        _core.alias_overrides(name, pairs)  # refuses values out of bounds
    choosing = sorted(set(cfg) - _setting_keys(alias))
    if level is not None:
        if choosing:
            keys = ", ".join(f"`{k}`" for k in choosing)
            raise ConfigError(f"give either `level=` or the reasoning-gym options that choose one ({keys}), not both")
        return _check_level(level)
    if chosen is not None:
        return int(chosen)
    return int(alias["level"]) if alias is not None else 1


def _settings(name: str, cfg: Mapping[str, Any]) -> list[tuple[str, float]] | None:
    """The options of ``cfg`` that set generator parameters of reasoning-gym name ``name``, as
    the (key, value) pairs generation takes; ``None`` when there are none."""
    keys = _setting_keys(_alias(name))
    pairs = [(k, _number(k, v)) for k, v in cfg.items() if k in keys]
    return pairs or None


def _check_level(level: Any) -> int:
    if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= 5:
        err = InvalidLevelError(f"level must be an integer in 1..=5, got {level!r}")
        err.field = "level"
        raise err
    return level


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
        err = ConfigError(f"seed must be an integer in [0, 2**64), got {seed!r}")
        err.field = "seed"
        raise err
    return seed


def _check_count(count: Any) -> int:
    if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count < 2**64:
        err = ConfigError(f"count must be an integer >= 0, got {count!r}")
        err.field = "count"
        raise err
    return count


def _check_threads(threads: Any) -> int:
    if not isinstance(threads, int) or isinstance(threads, bool) or not 0 <= threads <= 4096:
        err = ConfigError(f"threads must be an integer in 0..=4096 (0: one per core), got {threads!r}")
        err.field = "threads"
        raise err
    return threads


_RESERVED = frozenset({"source_dataset", "source_index", "task", "seed", "level", "difficulty", "problem"})


def _entry(
    name: str,
    index: int,
    seed: int,
    level: int,
    item: tuple[str, str, str],
    source: str | None = None,
    renames: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    prompt, problem, answer = item
    meta: dict[str, Any] = {
        "source_dataset": source or name,
        "source_index": index,
        "task": name,
        "seed": seed,
        "level": level,
        "difficulty": {"level": level},
        "problem": problem,
    }
    # The family's own fields by name (`numbers`, `target`, `grid`, ...), as reasoning-gym's
    # entries carry theirs; the keys above win where a name is shared.
    with contextlib.suppress(ValueError):
        fields = json.loads(problem)
        if isinstance(fields, dict):
            for k, v in fields.items():
                if k not in _RESERVED:
                    meta[k] = v
            # ... and under reasoning-gym's name for it, where that differs.
            for ours, theirs in (renames or {}).items():
                if ours in fields and theirs not in meta:
                    meta[theirs] = fields[ours]
    return {"question": prompt, "answer": answer, "metadata": meta}


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

    def score_answer(self, answer: str | None, entry: Mapping[str, Any], *, extract: str | None = None) -> float:
        """Reward in [0, 1] of ``answer`` for ``entry``. Like reasoning-gym, ``answer`` is the
        already-extracted answer; a text with an ``<answer>`` block is scored on its last
        block. ``extract="boxed"`` reads the last ``\\boxed{…}`` instead. The verifier checks
        validity, so any correct answer scores 1.0."""
        if extract is None:
            return _core.score_entry(answer, entry)
        return self.verify(answer, entry, extract=extract).reward

    def verify(self, answer: str | None, entry: Mapping[str, Any], *, extract: str | None = None) -> Verdict:
        """The full verdict (reward, correct, format_error, reason) of ``answer`` for ``entry``,
        read as :meth:`score_answer` reads it."""
        return _verify_answer(answer, entry, extract)


def _verify_answer(answer: str | None, entry: Mapping[str, Any], extract: str | None) -> Verdict:
    extract = _check_extract(extract)
    task, problem = _problem_of(entry)
    response = _respond(answer, extract)
    if response is None:
        return _missing(str(extract))
    v = Verdict(*_core.score(task, problem, response))
    text = "" if answer is None else str(answer)
    if v.format_error and extract is None and text.strip() and "<answer>" not in text.lower():
        hint = " (the text has no <answer>…</answer> block, so all of it was read as the answer)"
        v = v._replace(reason=v.reason + hint)
    return v


class ProceduralDataset(_LazyDataset):
    """``size`` generated problems of one family at one level; entry ``i`` has seed ``seed + i``.

    ``name`` is a gauntlet family or a reasoning-gym name (:func:`list_aliases`); ``config``
    holds reasoning-gym options: those with a generator parameter set it on top of the level
    (``min_empty=40``), the others choose the level. ``dataset.config`` is the configuration in
    effect (``size``, ``seed``, ``level`` and the options given); ``dataset.overrides`` the
    generator parameters set (``{"empty": (40, 50)}``).
    Indexable (ints, negative ints, slices), iterable, ``len()``-able and picklable (only the
    arguments are pickled; entries are regenerated, identically, on the other side).
    """

    def __init__(
        self,
        name: str,
        size: int = 500,
        seed: int | None = 0,
        level: int | None = None,
        threads: int = 0,
        config: Mapping[str, Any] | None = None,
    ):
        self.name = _core.canonical_task(name)
        self.source = name.strip().lower().replace("-", "_") if _alias(name) else self.name
        self.options = dict(config or {})
        self.size = _check_size(size)
        self.seed = _check_seed(seed)
        self.level = _resolve_level(name, level, self.options)
        self.threads = _check_threads(threads)
        self.config: dict[str, Any] = {**self.options, "size": self.size, "seed": self.seed, "level": self.level}
        self._settings = _settings(self.source, self.options)
        self.overrides: dict[str, tuple[int, int]] = {
            p: (lo, hi) for p, lo, hi in (_core.alias_overrides(self.source, self._settings) if self._settings else [])
        }
        self._level_arg = level

    def _make(self, indices: Sequence[int]) -> list[dict[str, Any]]:
        seeds = [(self.seed + i) % 2**64 for i in indices]
        items = _core.generate_entries(self.name, seeds, self.level, self.threads, self.source, self._settings)
        renames = _renames(self.source)
        return [
            _entry(self.name, i, s, self.level, it, self.source, renames)
            for i, s, it in zip(indices, seeds, items, strict=True)
        ]

    def __reduce__(self) -> tuple[Any, ...]:
        args = (self.source, self.size, self.seed, self._level_arg, self.threads, self.options)
        return (ProceduralDataset, args)

    def __repr__(self) -> str:
        options = "".join(f", {k}={v!r}" for k, v in self.options.items())
        return f"ProceduralDataset({self.name!r}, size={self.size}, seed={self.seed}, level={self.level}{options})"


class DatasetSpec(NamedTuple):
    """One member of a composite dataset: reasoning-gym's ``DatasetSpec(name, weight, config)``,
    plus ``level``. ``config`` takes reasoning-gym's options for the family (as
    :func:`create_dataset` reads them) and ``"level"``."""

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
            raise ConfigError(f"composite member has unknown key(s) {sorted(extra)}; use name, weight, config, level")
        if "name" not in s:
            raise ConfigError("composite member needs a `name`")
        return DatasetSpec(s["name"], _number("weight", s.get("weight", 1.0)), s.get("config") or {}, s.get("level"))
    if hasattr(s, "name"):
        return DatasetSpec(
            s.name,
            _number("weight", getattr(s, "weight", 1.0)),
            getattr(s, "config", {}) or {},
            getattr(s, "level", None),
        )
    raise ConfigError(f"composite member must be a name, a dict or a DatasetSpec, got {type(s).__name__}")


class CompositeDataset(_LazyDataset):
    """Entries drawn from several families by weight, each at its own level.

    Entry ``i`` comes from the member chosen by a seeded draw (a pure function of ``seed``, the
    weights and ``i``) and is that family's instance of seed ``seed + i``. ``datasets`` may
    also be a :class:`gauntlet.composite.CompositeConfig` (reasoning-gym's shape), whose
    ``size`` and ``seed`` then apply.
    """

    def __init__(
        self, datasets: Any, size: int = 500, seed: int | None = 0, level: int | None = None, threads: int = 0
    ):
        if hasattr(datasets, "datasets") and not isinstance(datasets, (str, Mapping)):
            size = getattr(datasets, "size", size)
            seed = getattr(datasets, "seed", seed)
            datasets = datasets.datasets or []
        if isinstance(datasets, (str, Mapping)) or not isinstance(datasets, Iterable):
            raise ConfigError("`datasets` must be a list of names, dicts or DatasetSpec")
        specs = [_spec(s) for s in datasets]
        if not specs:
            raise ConfigError("a composite dataset needs at least one member in `datasets`")
        self.members: list[tuple[str, int, float]] = []
        self.sources: list[str] = []
        self._settings: list[list[tuple[str, float]] | None] = []
        self._options: list[dict[str, Any]] = []  # per member, the options that set parameters
        for s in specs:
            cfg = dict(s.config)
            lvl = cfg.pop("level", s.level if s.level is not None else level)
            name = _core.canonical_task(s.name)
            self.members.append((name, _resolve_level(s.name, lvl, cfg), float(s.weight)))
            self.sources.append(s.name.strip().lower().replace("-", "_") if _alias(s.name) else name)
            self._settings.append(_settings(self.sources[-1], cfg))
            self._options.append({k: cfg[k] for k, _ in self._settings[-1] or []})
        self.size = _check_size(size)
        self.seed = _check_seed(seed)
        self.level = level
        self.threads = _check_threads(threads)
        self._plan = _core.composite_plan(self.seed, self.size, [w for _, _, w in self.members])
        self.config: dict[str, Any] = {
            "size": self.size,
            "seed": self.seed,
            "datasets": [
                DatasetSpec(src, w, {"level": lvl, **options})
                for src, (_, lvl, w), options in zip(self.sources, self.members, self._options, strict=True)
            ],
        }

    def _make(self, indices: Sequence[int]) -> list[dict[str, Any]]:
        out: dict[int, dict[str, Any]] = {}
        by_member: dict[int, list[int]] = {}
        for i in indices:
            by_member.setdefault(self._plan[i], []).append(i)
        for k, idx in by_member.items():
            name, lvl, _ = self.members[k]
            seeds = [(self.seed + i) % 2**64 for i in idx]
            items = _core.generate_entries(name, seeds, lvl, self.threads, self.sources[k], self._settings[k])
            for i, s, it in zip(idx, seeds, items, strict=True):
                out[i] = _entry(name, i, s, lvl, it, self.sources[k], _renames(self.sources[k]))
        return [out[i] for i in indices]

    def __reduce__(self) -> tuple[Any, ...]:
        specs = [
            {"name": src, "weight": w, "level": lvl, "config": options}
            for src, (_, lvl, w), options in zip(self.sources, self.members, self._options, strict=True)
        ]
        return (CompositeDataset, (specs, self.size, self.seed, self.level, self.threads))

    def __repr__(self) -> str:
        names = ", ".join(f"{n}@{lvl}:{w:g}" for n, lvl, w in self.members)
        return f"CompositeDataset([{names}], size={self.size}, seed={self.seed})"


def create_dataset(
    name: str, *, size: int = 500, seed: int | None = 0, level: int | None = None, threads: int = 0, **cfg: Any
) -> ProceduralDataset | CompositeDataset:
    """A dataset of ``size`` problems of family ``name``, reasoning-gym style.

    ``name`` is a gauntlet family or a reasoning-gym name (``zebra_puzzles``; see
    :func:`list_aliases`). Options in ``cfg`` are reasoning-gym's configuration keys. Those that
    have a generator parameter in gauntlet (``list_aliases()[i]["overrides"]``: sizes, counts,
    ranges such as ``min_empty``, ``min_terms``, ``min_value``) set it, as reasoning-gym reads
    them (a ``min_``/``max_`` pair is a range each problem draws from; a key not given keeps
    reasoning-gym's default), on top of the level. The level is ``level`` (1..5) when given;
    otherwise the one the remaining options choose (each picks the level whose parameter is
    nearest, the hardest wins); otherwise, for a reasoning-gym name, the level nearest its
    default configuration; otherwise 1. An option the family does not take raises
    :class:`~gauntlet.errors.ConfigError` listing the ones it does, as does a value out of the
    generator's bounds.

    ``name="composite"`` takes ``datasets=[...]`` (names, dicts ``{"name", "weight", "config",
    "level"}`` or :class:`DatasetSpec`). ``threads`` is the number of Rust threads generating
    each chunk (0: one per core).
    """
    if name == "composite":
        datasets = cfg.pop("datasets", None)
        _check_cfg(cfg)
        if datasets is None:
            raise ConfigError("create_dataset('composite', ...) needs datasets=[...]")
        return CompositeDataset(datasets, size=size, seed=seed, level=level, threads=threads)
    return ProceduralDataset(name, size=size, seed=seed, level=level, threads=threads, config=cfg)


def get_score_answer_fn(name: str) -> Callable[..., float]:
    """``fn(answer, entry) -> reward`` for entries of family ``name`` (reasoning-gym's shape;
    ``name`` may be a reasoning-gym name). ``answer`` is read as ``score_answer`` reads it."""
    _core.canonical_task(name)
    return _score_entry


def verify(task: str, problem: str | Mapping[str, Any], response: str | None, *, extract: str | None = None) -> Verdict:
    """Score a full ``response`` against a serialized problem (the JSON text of
    ``reward_model.ground_truth`` or ``metadata["problem"]``, or its dict). The answer is the
    last ``<answer>…</answer>`` block; a response without one is a format error ("no
    <answer>…</answer> block"). ``extract="boxed"`` reads the last ``\\boxed{…}`` instead."""
    extract = _check_extract(extract)
    text = problem if isinstance(problem, str) else json.dumps(problem)
    resp = _from_response(response, extract)
    if resp is None:
        _core.score(task, text, "")  # still refuses an unknown task or a malformed problem
        return _missing(str(extract))
    return Verdict(*_core.score(task, text, resp))


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
    rows: Sequence[Mapping[str, Any]],
    responses: Sequence[str] | None = None,
    *,
    threads: int = 0,
    extract: str | None = None,
) -> list[Verdict]:
    """Verdicts for many rows at once, computed on ``threads`` Rust threads (0: one per core)
    without the GIL. ``rows`` are verl/TRL rows (``gauntlet generate``'s layout) or dataset
    entries; the responses come from ``responses`` or else each row's ``response`` field. Each
    response is read as :func:`verify` reads it (the last ``<answer>`` block, or with
    ``extract="boxed"`` the last ``\\boxed{…}``).

    Rows are read in Rust (plain dicts; any other mapping through :func:`_row_task_problem`) and
    handed to the threads in chunks as they are read, so the second core checks answers while
    the interpreter's thread reads the next rows and builds the verdicts."""
    extract = _check_extract(extract)
    threads = _check_threads(threads)
    if extract is None:
        return _core.verify_rows(rows, responses, threads)
    if responses is None:
        responses = []
        for i, row in enumerate(rows):
            if not isinstance(row, Mapping) or "response" not in row:
                err = BadRowError(f"row {i}: field `response`: missing (pass `responses=`)")
                err.field = "response"
                raise err
            responses.append(row["response"])
    moved = [_from_response(r, extract) for r in responses]
    verdicts = _core.verify_rows(rows, ["" if m is None else m for m in moved], threads)
    return [_missing(extract) if m is None else v for v, m in zip(verdicts, moved, strict=True)]


def generate_jsonl(
    tasks: str | Sequence[str], count: int = 100, seed: int = 0, level: int = 1, *, threads: int = 0
) -> bytes:
    """The JSONL bytes ``gauntlet generate TASKS -n COUNT --seed SEED --level LEVEL`` writes
    (byte-identical), generated on ``threads`` Rust threads (0: one per core)."""
    spec = tasks if isinstance(tasks, str) else ",".join(tasks)
    count, seed = _check_count(count), _check_seed(seed)
    return _core.generate_jsonl(spec, count, seed, _check_level(level), _check_threads(threads))


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
