"""Multi-turn environments (gymnasium's shape) and games (PettingZoo AEC's shape).

Actions and observations are text. An action is the model's whole response: the environment
reads the last ``<answer>…</answer>`` block, or the whole trimmed text when there is none.

Single agent::

    env = gauntlet.make("wordle", level=2)
    obs, info = env.reset(seed=7)
    while True:
        obs, reward, terminated, truncated, info = env.step(env.oracle_action())
        if terminated or truncated:
            break

Games (several seats, one acting at a time)::

    game = gauntlet.make("tic_tac_toe")
    game.reset(seed=3)
    for agent in game.agent_iter():
        obs, reward, terminated, truncated, info = game.last()
        game.step(None if terminated or truncated else game.random_action())
    print(game.returns())
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from . import _core
from .errors import ConfigError, EpisodeError, InvalidLevelError

#: The episode kernel's state machine (``gauntlet_episode::EpisodeRunner``): the runner
#: ``gauntlet train``'s rollouts play on, one seat's turn at a time (``to_act``, ``messages``,
#: ``submit``, ``oracle_response``, ``finish``).
EpisodeRunner = _core.EpisodeRunner
#: The one rendering of a turn's user message: the environment's message about the seat's last
#: action, a blank line, then the new observation (the observation alone without a message).
render_user_message = _core.render_user_message

__all__ = [
    "Env",
    "EpisodeRunner",
    "GameEnv",
    "TextSpace",
    "advance_to_seat",
    "list_envs",
    "make",
    "play_episode",
    "render_user_message",
    "seat_view",
]

RENDER_MODES = ("ansi", "human")
"""``render_mode`` values :func:`make` accepts (``None`` too): ``"ansi"`` makes ``render()``
return the text, ``"human"`` also prints it."""

MAX_TEXT = 1 << 20
"""The longest action or observation the text spaces describe (characters)."""


def list_envs(kind: str | None = None) -> list[str]:
    """Names of every environment and game (``kind``: ``"multi_turn"`` or ``"game"`` to filter)."""
    return [s["name"] for s in _core.env_specs() if kind is None or s["kind"] == kind]


def play_episode(name: str, seed: int, level: int = 1, policy: str = "oracle") -> tuple[list[float], int, bool]:
    """Play one whole episode in Rust with ``policy`` (``"oracle"`` or ``"random"``) on every seat;
    returns (per-seat returns, turns, success). Python-driven episodes with the same seed and
    policy (``oracle_action``/``random_action`` after ``reset(seed=...)``) give the same result."""
    if policy not in ("oracle", "random"):
        err = ConfigError(f"policy must be 'oracle' or 'random', got {policy!r}")
        err.field = "policy"
        raise err
    return _core.play_episode(name, _check_seed(seed), _check_level(level), policy)


def _check_seed(seed: Any) -> int:
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
        err = ConfigError(f"seed must be an integer in [0, 2**64), got {seed!r}")
        err.field = "seed"
        raise err
    return seed


class TextSpace:
    """The space of a text action or observation: any string of at most ``max_length``
    characters. Describes what PettingZoo's and gymnasium's ``action_space``/``observation_space``
    describe (``contains``, ``sample``, ``seed``) without depending on either library; the
    legal actions of a turn are ``legal_actions()``."""

    def __init__(self, max_length: int = MAX_TEXT, min_length: int = 0):
        self.max_length = max_length
        self.min_length = min_length
        self.shape = None
        self.dtype = str
        self._rng = random.Random(0)

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

    __contains__ = contains

    def seed(self, seed: int | None = None) -> list[int | None]:
        self._rng.seed(seed)
        return [seed]

    def sample(self, mask: Any = None) -> str:
        n = self._rng.randint(max(self.min_length, 1), min(self.max_length, 8))
        return "".join(self._rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(n))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TextSpace) and (other.min_length, other.max_length) == (
            self.min_length,
            self.max_length,
        )

    def __hash__(self) -> int:
        return hash((TextSpace, self.min_length, self.max_length))

    def __repr__(self) -> str:
        return f"TextSpace(max_length={self.max_length})"


def _check_level(level: Any) -> int:
    if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= 5:
        err = InvalidLevelError(f"level must be an integer in 1..=5, got {level!r}")
        err.field = "level"
        raise err
    return level


class _Base:
    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "is_parallelizable": False}  # noqa: RUF012

    def __init__(self, name: str, level: int = 1, render_mode: str | None = None):
        self._env = _core.Env(name)
        _check_level(level)
        if render_mode is not None and render_mode not in RENDER_MODES:
            err = ConfigError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
            err.field = "render_mode"
            raise err
        self.name: str = self._env.name
        self.level = level
        self.render_mode = render_mode
        self.metadata = {**type(self).metadata, "name": self.name}
        self._next_seed = 0
        self._seed: int | None = None

    @property
    def unwrapped(self) -> _Base:
        """This environment (gymnasium and PettingZoo wrappers reach the base through it)."""
        return self

    def _shown(self, text: str) -> str:
        if self.render_mode == "human":
            print(text)
        return text

    @property
    def num_seats(self) -> int:
        """Number of seats."""
        return self._env.seats

    def _reset(self, seed: int | None, options: dict[str, Any] | None) -> None:
        level = self.level
        if options:
            level = _check_level(options.get("level", level))
        seed = self._next_seed if seed is None else _check_seed(seed)
        self._env.reset(seed, level)
        self._seed, self._next_seed = seed, (seed + 1) % 2**64

    def legal_actions(self) -> list[str]:
        """Legal actions of the seat to act (a representative sample for open-ended action
        spaces such as a Wordle guess); empty once the episode is over."""
        return self._env.legal_actions()

    def oracle_action(self) -> str:
        """The scripted strong policy's action for the seat to act (solver, minimax or heuristic)."""
        return self._env.oracle_action()

    def random_action(self) -> str:
        """A uniformly random legal action for the seat to act."""
        return self._env.random_action()

    def returns(self) -> list[float]:
        """The episode return of every seat so far."""
        return self._env.returns()

    def success(self) -> bool:
        """Whether the episode is a success (goal reached; for games, seat 0 won)."""
        return self._env.success()

    def to_act(self) -> int | None:
        """The seat to act, or ``None`` once the episode is over."""
        return self._env.to_act()

    def close(self) -> None:
        """Nothing to release; present for gymnasium/PettingZoo compatibility."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, level={self.level}, seats={self.num_seats})"


def _info(fb: tuple[float, bool, bool, bool, bool, str] | None, env: _core.Env, anchor: str) -> dict[str, Any]:
    info: dict[str, Any] = {"anchor": anchor, "to_act": env.to_act(), "returns": env.returns()}
    if fb is not None:
        info.update(format_error=fb[3], invalid=fb[4], message=fb[5], success=env.success())
    return info


class Env(_Base):
    """One multi-turn environment, gymnasium-shaped: ``reset(seed=, options=)`` returns
    ``(obs, info)``, ``step(action)`` returns ``(obs, reward, terminated, truncated, info)``.

    ``obs`` is the text the model sees; ``info`` has ``anchor`` (a history-free state key, what
    GiGPO groups on), ``returns``, and after a step ``format_error``, ``invalid``, ``message``
    (the environment's feedback) and ``success``. ``options={"level": n}`` changes the level for
    this episode; ``seed=None`` continues with the previous seed + 1 (the first is 0).
    """

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        """Start an episode; returns the first observation and its info."""
        self._reset(seed, options)
        text, anchor = self._env.observe(0)
        return text, _info(None, self._env, anchor)

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        """Apply ``action`` (the model's response text)."""
        fb = self._env.act(action)
        text, anchor = self._env.observe(0)
        done, truncated = fb[1], fb[2]
        return text, fb[0], done and not truncated, truncated, _info(fb, self._env, anchor)

    action_space = TextSpace()
    """Actions are text (the model's response); ``legal_actions()`` lists this turn's."""
    observation_space = TextSpace()
    """Observations are text."""

    def render(self) -> str:
        """The text the model sees now."""
        return self._shown(self._env.observe(0)[0])


class GameEnv(_Base):
    """A game with several seats, PettingZoo-AEC-shaped: agents are ``"seat_0"``, ``"seat_1"``, …;
    ``agent_selection`` is the one to act; ``rewards`` holds every seat's reward of the last step,
    ``_cumulative_rewards`` their returns; ``last()`` gives the acting agent's view.

    ``reset`` also returns ``(obs, info)`` of the agent to act (AEC's returns ``None``; ignoring
    the value keeps AEC code working), and ``step`` returns the acting seat's
    ``(obs, reward, terminated, truncated, info)`` after its move.
    """

    def __init__(self, name: str, level: int = 1, render_mode: str | None = None):
        super().__init__(name, level, render_mode)
        self.possible_agents = [f"seat_{i}" for i in range(self.num_seats)]
        self.observation_spaces = {a: TextSpace() for a in self.possible_agents}
        self.action_spaces = {a: TextSpace() for a in self.possible_agents}
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]

    def _seat(self, agent: str | int) -> int:
        if isinstance(agent, int) and not isinstance(agent, bool):
            if not 0 <= agent < self.num_seats:
                raise EpisodeError(f"seat {agent} does not exist; seats are 0..{self.num_seats - 1}")
            return agent
        try:
            return self.possible_agents.index(agent)
        except ValueError:
            raise EpisodeError(f"unknown agent {agent!r}; agents are {self.possible_agents}") from None

    def _sync(self, returns_before: list[float], fb: tuple[float, bool, bool, bool, bool, str] | None) -> None:
        returns = self._env.returns()
        seat = self._env.to_act()
        over = seat is None
        truncated = bool(fb and fb[2])
        for i, a in enumerate(self.possible_agents):
            self.rewards[a] = returns[i] - returns_before[i]
            self._cumulative_rewards[a] = returns[i]
            self.terminations[a] = over and not truncated
            self.truncations[a] = over and truncated
            self.infos[a] = {"returns": returns}
        if fb is not None:
            acted = self.agent_selection
            self.infos[acted].update(format_error=fb[3], invalid=fb[4], message=fb[5])
        if not over:
            self.agent_selection = self.possible_agents[seat]

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        """Start an episode; returns the observation and info of the agent to act."""
        self._reset(seed, options)
        self.agents = list(self.possible_agents)
        self._sync([0.0] * self.num_seats, None)
        return self.observe(self.agent_selection), self.infos[self.agent_selection]

    def observe(self, agent: str | int) -> str:
        """What ``agent`` (``"seat_1"`` or ``1``) sees now (private information stays private)."""
        return self._env.observe(self._seat(agent))[0]

    def anchor(self, agent: str | int) -> str:
        """A history-free key of the state ``agent`` is in."""
        return self._env.observe(self._seat(agent))[1]

    @property
    def num_agents(self) -> int:
        """Agents still in the episode (PettingZoo's ``len(env.agents)``)."""
        return len(self.agents)

    @property
    def max_num_agents(self) -> int:
        """Every seat of the game."""
        return len(self.possible_agents)

    def observation_space(self, agent: str) -> TextSpace:
        """``agent``'s observations: text (the same object on every call)."""
        return self.observation_spaces[self.possible_agents[self._seat(agent)]]

    def action_space(self, agent: str) -> TextSpace:
        """``agent``'s actions: text; ``legal_actions()`` lists the legal ones of the turn."""
        return self.action_spaces[self.possible_agents[self._seat(agent)]]

    def last(self, observe: bool = True) -> tuple[str | None, float, bool, bool, dict[str, Any]]:
        """(observation, return, terminated, truncated, info) of ``agent_selection``; the
        observation is ``None`` with ``observe=False``."""
        a = self.agent_selection
        obs = self.observe(a) if observe else None
        return obs, self._cumulative_rewards[a], self.terminations[a], self.truncations[a], self.infos[a]

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """Yield the agent to act until the episode ends; each live agent then gets one last turn
        with ``terminated``/``truncated`` set, as in PettingZoo (step it with ``None``)."""
        n = 0
        while self.agents and n < max_iter:
            yield self.agent_selection
            n += 1

    def step(self, action: str | None) -> tuple[str, float, bool, bool, dict[str, Any]]:
        """Apply ``action`` for ``agent_selection``. After the end, ``step(None)`` retires the
        selected agent (PettingZoo's dead step)."""
        a = self.agent_selection
        if self._env.to_act() is None:
            if action is not None:
                raise EpisodeError("the episode is over; step(None) retires agents, reset() starts another")
            if a in self.agents:
                self.agents.remove(a)
            if self.agents:
                self.agent_selection = self.agents[0]
            return self.observe(a), 0.0, self.terminations[a], self.truncations[a], self.infos[a]
        if action is None:
            raise EpisodeError(f"{a} must act: step(None) is only for agents after the end")
        before = self._env.returns()
        fb = self._env.act(action)
        self._sync(before, fb)
        return self.observe(a), self.rewards[a], self.terminations[a], self.truncations[a], self.infos[a]

    def render(self) -> str:
        """The text the agent to act sees now."""
        return self._shown(self.observe(self.agent_selection))


def make(name: str, level: int = 1, *, render_mode: str | None = None) -> Env | GameEnv:
    """The environment or game ``name`` at ``level`` (1..5): an :class:`Env` for one seat, a
    :class:`GameEnv` for several. Call ``reset(seed=...)`` before stepping. ``render_mode``
    (gymnasium's keyword) may be ``None``, ``"ansi"`` or ``"human"``."""
    probe = _core.Env(name)
    cls = GameEnv if probe.seats > 1 else Env
    return cls(probe.name, level, render_mode)


def advance_to_seat(env: Env | GameEnv, seat: int = 0) -> None:
    """Let the scripted opponent (each seat's oracle policy) move for every seat but ``seat``
    until ``seat`` is to act or the episode is over: how a learner is seated in a game. A
    no-op for single-seat environments."""
    while (acting := env.to_act()) is not None and acting != seat:
        env.step(env.oracle_action())


def seat_view(env: Env | GameEnv, seat: int = 0) -> tuple[str, str]:
    """(observation, anchor) of ``seat``: what it sees now and the history-free key of its state
    (what GiGPO-style estimators group steps on)."""
    if isinstance(env, GameEnv):
        return env.observe(seat), env.anchor(seat)
    return env._env.observe(0)
