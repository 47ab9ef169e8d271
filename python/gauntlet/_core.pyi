"""Type stubs of the ``gauntlet._core`` extension module (crates/gauntlet-py).

The Python modules (:mod:`gauntlet.tasks`, :mod:`gauntlet.envs`, :mod:`gauntlet.algos`) are the
public API; this module is the thin Rust layer under them. Every function here that does real
work releases the GIL; ``threads=0`` means one Rust thread per core.
"""

from collections.abc import Mapping, Sequence
from typing import Any

from gauntlet.tasks import Verdict

__version__: str

# Tasks

def task_specs() -> list[dict[str, Any]]:
    """Every family: name, category, description, levels (5 strings), answer_format."""

def canonical_task(name: str) -> str:
    """The registry name of ``name``; raises UnknownTaskError with suggestions."""

def generate_entries(
    name: str,
    seeds: list[int],
    level: int = 1,
    threads: int = 1,
    alias: str | None = None,
    config: list[tuple[str, float]] | None = None,
) -> list[tuple[str, str, str]]:
    """(prompt, serialized problem JSON, oracle's bare answer) for each seed; ``config`` (keys of
    reasoning-gym name ``alias``) sets generator parameters past the level."""

def score(name: str, problem: str, response: str) -> tuple[float, bool, bool, str]:
    """(reward, correct, format_error, reason) of a full response against a serialized problem."""

def score_entry(answer: object, entry: Mapping[str, Any]) -> float:
    """Reward of ``answer`` (bare, in an ``<answer>`` block, or None) for a dataset entry."""

def score_batch(
    names: list[str], problems: list[str], responses: list[str], threads: int = 0
) -> list[tuple[float, bool, bool, str]]:
    """:func:`score` for many items on Rust threads; errors name the item."""

def verify_rows(
    rows: Sequence[Mapping[str, Any]], responses: Sequence[object] | None = None, threads: int = 0
) -> list[Verdict]:
    """``gauntlet.verify_batch``: rows read in Rust, checked on ``threads`` Rust threads (0: one
    per core) while the calling thread reads the next rows; errors name the row and field."""

def generate_jsonl(tasks: str, count: int = 100, seed: int = 0, level: int = 1, threads: int = 0) -> bytes:
    """The bytes ``gauntlet generate`` writes for the same arguments."""

def composite_plan(seed: int, size: int, weights: list[float]) -> list[int]:
    """The member index of each entry of a composite dataset."""

def task_aliases() -> list[dict[str, Any]]:
    """reasoning-gym names: name, family, level, differs, keys, overrides, fields."""

def alias_level(name: str, config: list[tuple[str, float]]) -> int | None:
    """The level reasoning-gym options of alias ``name`` choose (keys that set a generator
    parameter choose none); ConfigError for keys it does not take."""

def alias_overrides(name: str, config: list[tuple[str, float]]) -> list[tuple[str, int, int]]:
    """The generator parameters options of alias ``name`` set: (parameter, lo, hi) ranges;
    ConfigError for a value out of bounds or a ``min_`` above its ``max_``."""

def extract(response: str, mode: str) -> str | None:
    """The last ``<answer>``/``\\boxed{}``/fenced block's content (``mode``: answer, boxed, fenced)."""

# Environments and games

def env_specs() -> list[dict[str, Any]]:
    """Every environment and game: name, kind (multi_turn/game), seats, category, description."""

def play_episode(
    name: str, seed: int, level: int = 1, policy: str = "oracle", max_turns: int = 10000
) -> tuple[list[float], int, bool]:
    """(returns, turns, success) of one episode played in Rust by ``policy`` on every seat."""

class Env:
    """One environment or game, driven seat by seat."""

    def __init__(self, name: str) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def seats(self) -> int: ...
    def reset(self, seed: int, level: int = 1) -> None: ...
    def to_act(self) -> int | None: ...
    def observe(self, seat: int) -> tuple[str, str]:
        """(text, anchor) of what ``seat`` sees."""
    def act(self, response: str, seat: int | None = None) -> tuple[float, bool, bool, bool, bool, str]:
        """(reward, done, truncated, format_error, invalid, message) for the seat to act."""
    def returns(self) -> list[float]: ...
    def legal_actions(self) -> list[str]: ...
    def oracle_action(self) -> str: ...
    def random_action(self) -> str: ...
    def success(self) -> bool: ...

# Learning signal

def estimator_names() -> list[str]: ...
def advantages(
    estimator: str,
    groups: list[str],
    scores: list[float],
    masks: list[list[float]],
    *,
    rewards: list[list[float]] | None = None,
    values: list[list[float]] | None = None,
    lengths: list[float] | None = None,
    baselines: list[float] | None = None,
    seats: list[int] | None = None,
    tasks: list[str] | None = None,
    trajectories: list[str] | None = None,
    turns: list[int] | None = None,
    anchors: list[str] | None = None,
    step_rewards: list[float] | None = None,
    gamma: float | None = None,
    lam: float | None = None,
    eps: float | None = None,
    no_std: bool = False,
    mode: str | None = None,
    step_weight: float | None = None,
    per_seat: bool = False,
    task_balance: str | None = None,
    rae_decay: float | None = None,
) -> tuple[list[list[float]], list[list[float]] | None]:
    """Per-token advantages and (gae, reinforce-pp, remax) returns."""

def _panic_for_tests(message: str) -> None:
    """Panic in Rust (tests: the panic must arrive as InternalError)."""

def render_user_message(message: str, observation: str) -> str:
    """The user message that opens a seat's turn: ``message``, a blank line, ``observation``
    (the observation alone when ``message`` is empty); the rendering ``gauntlet train`` uses."""

class EpisodeRunner:
    """One episode on the episode kernel, one seat's turn at a time (the runner of ``gauntlet
    train``'s rollouts). ``history``: ``None`` shows the whole conversation, ``n`` the last ``n``
    exchanges. The scripted oracle draws from a generator seeded with ``seed``."""

    def __init__(
        self,
        name: str,
        seed: int,
        level: int = 1,
        history: int | None = None,
        system_prompt: str | None = None,
        max_turns: int = 256,
    ) -> None: ...
    def to_act(self) -> int | None:
        """The seat to act, or ``None`` once the episode is over."""
    def messages(self, seat: int) -> list[dict[str, str]]:
        """Open ``seat``'s turn and return what it is shown (``role``/``content`` dicts)."""
    def oracle_response(self) -> str:
        """The scripted oracle's response for the seat to act."""
    def submit(self, seat: int, text: str) -> dict[str, Any]:
        """Play ``text`` for ``seat``: the turn's ``reward``, ``message``, ``format_error``, ``invalid``."""
    def finish(self) -> dict[str, Any]:
        """End the episode: ``returns``, ``success``, ``truncated``, ``error``, ``conversations``."""
