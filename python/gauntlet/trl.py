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

Multi-turn environments and games go through TRL's ``environment_factory``:
:func:`environment_factory` builds a class whose tool methods are the environment's actions
(``up()``, ``fire(args)``, ``move(move)``, ...), and :class:`GauntletSpec` hands the trainer its
three arguments at once::

    spec = gauntlet.trl.GauntletSpec("sokoban_play", level=1, size=256)
    trainer = GRPOTrainer(model=..., args=..., **spec.kwargs())
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Mapping, Sequence
from typing import Any

from .envs import Env, GameEnv, advance_to_seat, list_envs, make, render_user_message
from .errors import BadRowError, ConfigError, EpisodeError
from .tasks import _score_responses, rows
from .verl import _problem, _task_level, is_gauntlet

__all__ = [
    "GauntletSpec",
    "ToolEnvironment",
    "correct",
    "environment_factory",
    "format_error",
    "reward",
    "verdicts",
]


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


def verdicts(
    completions: Sequence[Any], *, threads: int = 0, extract: str | None = None, **kwargs: Any
) -> list[tuple | None]:
    """(reward, correct, format_error, reason) per sample, ``None`` for rows that are not
    gauntlet's; gauntlet rows are scored in one call on Rust threads, without the GIL. The
    answer is a completion's last ``<answer>`` block (none: a format error);
    ``functools.partial(gauntlet.trl.reward, extract="boxed")`` reads ``\\boxed{…}`` instead."""
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
    scored = _score_responses([t for t, _ in meta], problems, texts, threads, extract)
    for i, v in zip(mine, scored, strict=True):
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


# ---------------------------------------------------------------------------------------------
# Multi-turn environments and games: TRL's `environment_factory`.
# ---------------------------------------------------------------------------------------------

# Tool names for environments whose actions are one free-form word or code (a guess, a square).
_FREE_TOOL = {
    "guess_number": ("guess", "number", "the number to guess"),
    "hangman": ("guess", "letter", "one letter"),
    "wordle": ("guess", "word", "a five-letter word"),
    "mastermind": ("guess", "code", "the code, one digit per peg"),
    "word_ladder_play": ("step", "word", "the next word of the ladder"),
    "twenty_questions": ("ask", "question", "a yes/no question, or your final guess"),
    "lights_out": ("press", "cell", "`row col` of the light to press"),
    "rush_hour_play": ("slide", "move", "`CAR direction`, e.g. `X right`"),
    "maze_explore": ("go", "direction", "a compass direction"),
}
# Names an environment class already uses (TRL's API and the episode state): an action word
# spelled like one (calendar_assistant's `done`) becomes a tool with a trailing underscore.
_RESERVED = {
    "reset",
    "get_reward",
    "done",
    "reward",
    "turns",
    "env",
    "env_name",
    "level",
    "seat",
    "tool_calls",
    "action_tools",
}
_MAX_CLOSED = 10  # at most this many argument-free tools, one per action word
_MAX_VERBS = 6  # at most this many verb tools taking the rest of the action as `args`
_IDENT = re.compile(r"^[a-z][a-z_]*$")
_ANSWER_LINE = re.compile(r"^.*<answer>.*</answer>.*$\n?", re.MULTILINE)


def _sample_actions(name: str, level: int, seeds: int = 4, steps: int = 40) -> list[str]:
    """Legal actions seen over a few random episodes and a few oracle ones (what the tool methods
    are derived from: random play never reaches some actions, such as a shop's `checkout`)."""
    env = make(name, level=level)
    seen: dict[str, None] = {}
    for seed in range(2 * seeds):
        oracle = seed >= seeds
        env.reset(seed=seed % seeds)
        for _ in range(steps):
            if env.to_act() is None:
                break
            seen.update(dict.fromkeys(env.legal_actions()))
            action = env.oracle_action() if oracle else env.random_action()
            if oracle:
                seen[action] = None
            env.step(action)
    return list(seen)


def _tool_name(word: str) -> str:
    return f"{word}_" if keyword.iskeyword(word) or word in _RESERVED else word


def _tool_plan(name: str, level: int, seats: int) -> list[tuple[str, str, str | None, str]]:
    """(tool name, action verb, argument name or None, argument doc) per tool.

    One argument-free tool per action when the actions are a few bare words (``up()``,
    ``hit()``); one tool per verb taking the rest of the action when the actions are a few verbs
    with arguments (``fire(args)``, ``sql(args)``); otherwise one tool taking the whole action
    (``guess(word)`` for guessing games, ``move(move)`` for board games, ``act(action)``)."""
    if name in _FREE_TOOL:
        tool, arg, doc = _FREE_TOOL[name]
        return [(tool, "", arg, doc)]
    actions = _sample_actions(name, level)
    words = {a.split(" ", 1)[0] for a in actions if a}
    if words and all(_IDENT.match(w) for w in words):
        bare = all(" " not in a for a in actions)
        if bare and len(words) <= _MAX_CLOSED:
            return [(_tool_name(w), w, None, "") for w in sorted(words)]
        if len(words) <= _MAX_VERBS:
            plan = []
            for w in sorted(words):
                rest = [a.split(" ", 1)[1] for a in actions if a.startswith(w + " ")]
                if rest:
                    examples = ", ".join(f"`{r}`" for r in rest[:3])
                    plan.append((_tool_name(w), w, "args", f"what follows `{w}` in the action, e.g. {examples}"))
                else:
                    plan.append((_tool_name(w), w, None, ""))
            return plan
    examples = ", ".join(f"`{a}`" for a in actions[:4])
    if seats > 1:
        return [("move", "", "move", f"your move, e.g. {examples}")]
    return [("act", "", "action", f"the action, e.g. {examples}")]


class ToolEnvironment:
    """One gauntlet environment or game as TRL's ``environment_factory`` expects it.

    ``reset(**row)`` starts the episode the dataset row names (its ``seed`` and ``level``
    columns, so every completion of a GRPO group starts from the same state) and returns the
    first observation; each public tool method plays one action and returns what the model sees
    next; ``get_reward()`` is the episode return of the model's seat. In games the model plays
    seat ``seat`` and the level's scripted opponent plays the others, right after each move.
    Subclasses made by :func:`environment_factory` add the tool methods.
    """

    env_name: str = ""
    level: int = 1
    seat: int = 0
    #: whether actions arrive as tool calls (TRL), so the observation's "reply inside <answer>"
    #: line is dropped; plain-text players (verifiers) keep it.
    tool_calls: bool = True
    #: tool name -> (action verb, argument name or None): how each tool spells its action.
    action_tools: dict[str, tuple[str, str | None]] = {}  # noqa: RUF012 (set per subclass)

    def _act(self, action: str) -> str:
        """Play ``action`` (text as the environment reads it) through the matching tool, as a
        model's tool call would; raises ``ConfigError`` when no tool spells it."""
        word, _, rest = action.partition(" ")
        for tool, (verb, arg) in self.action_tools.items():
            if verb == "":
                return getattr(self, tool)(action)
            if verb == word and (arg is None) == (rest == ""):
                return getattr(self, tool)(rest) if arg else getattr(self, tool)()
        raise ConfigError(f"no tool of `{self.env_name}` plays {action!r}; tools: {sorted(self.action_tools)}")

    def __init__(self) -> None:
        self.env: Env | GameEnv = make(self.env_name, level=self.level)
        self.done = True
        self.reward = 0.0
        self.turns = 0

    def reset(self, seed: int = 0, level: int | None = None, **_: Any) -> str:
        """Start the episode of ``seed`` (at ``level``, default the class's) and return its first
        observation, after the opponents' opening moves."""
        options = None if level is None else {"level": int(level)}
        self.env.reset(seed=int(seed), options=options)
        self.done, self.reward, self.turns = False, 0.0, 0
        self._opponents_move()
        return self._observation()

    def get_reward(self) -> float:
        """The episode return of the model's seat (0 until the episode has rewarded anything)."""
        return self.reward

    def _observation(self) -> str:
        if self.done:
            return f"The episode is over. Your return: {self.reward:g}."
        text = self.env.observe(self.seat) if isinstance(self.env, GameEnv) else self.env.render()
        return _ANSWER_LINE.sub("", text) if self.tool_calls else text

    def _opponents_move(self) -> None:
        advance_to_seat(self.env, self.seat)
        self._sync()

    def _sync(self) -> None:
        self.reward = self.env.returns()[self.seat]
        self.done = self.env.to_act() is None

    def _play(self, action: str) -> str:
        if self.done:
            raise EpisodeError("The episode is over; no more actions.")
        result = self.env.step(action)
        self.turns += 1
        message = result[4].get("message", "")
        self._opponents_move()
        text = self._observation()
        # The episode kernel's one rendering, as `gauntlet train` shows it (blank line between).
        return render_user_message(message, text)


def _make_tool(tool: str, verb: str, arg: str | None, doc: str) -> Any:
    if arg is None:

        def method(self: ToolEnvironment) -> str:
            return self._play(verb)

        method.__annotations__ = {"return": str}
        method.__doc__ = f"Play the action `{verb}`.\n\nReturns:\n    What you see after it."
    else:

        def method(self: ToolEnvironment, value: str) -> str:
            return self._play(f"{verb} {value}".strip())

        # The schema names the argument after what it is; keep the Python name in step.
        method.__code__ = method.__code__.replace(co_varnames=("self", arg, *method.__code__.co_varnames[2:]))
        method.__annotations__ = {arg: str, "return": str}
        what = f"`{verb} …`" if verb else "one action"
        method.__doc__ = f"Play {what}.\n\nArgs:\n    {arg}: {doc}\n\nReturns:\n    What you see after it."
    method.__name__ = method.__qualname__ = tool
    return method


def environment_factory(name: str, level: int = 1, *, seat: int = 0) -> type[ToolEnvironment]:
    """A :class:`ToolEnvironment` subclass for ``name`` (any of :func:`gauntlet.list_envs`),
    ready for ``GRPOTrainer(environment_factory=...)``: its tool methods are the environment's
    actions, derived from the legal actions of a few random episodes at ``level``."""
    env = make(name, level=level)
    if not 0 <= seat < env.num_seats:
        err = ConfigError(f"seat must be in 0..{env.num_seats - 1} for `{env.name}`, got {seat}")
        err.field = "seat"
        raise err
    attrs: dict[str, Any] = {"env_name": env.name, "level": level, "seat": seat, "__module__": __name__}
    plan = _tool_plan(env.name, level, env.num_seats)
    for tool, verb, arg, doc in plan:
        attrs[tool] = _make_tool(tool, verb, arg, doc)
    attrs["action_tools"] = {tool: (verb, arg) for tool, verb, arg, _ in plan}
    attrs["__doc__"] = f"`{env.name}` (level {level}, seat {seat}) for TRL's environment_factory."
    class_name = "".join(part.capitalize() for part in env.name.split("_")) + "Env"
    return type(class_name, (ToolEnvironment,), attrs)


def _instruction(name: str, seats: int, seat: int) -> str:
    who = f" You play seat {seat}; a scripted opponent plays the other seats." if seats > 1 else ""
    return (
        f"You are playing `{name}`.{who} Act only by calling the tools, one action per call; "
        "each call returns what you see next. Keep acting until the episode is over."
    )


class GauntletSpec:
    """Everything ``GRPOTrainer`` needs for one gauntlet task, environment or game::

        spec = GauntletSpec("wordle", level=2, size=512)
        trainer = GRPOTrainer(model=..., args=..., **spec.kwargs())

    For a single-turn task (or several: ``"sudoku,countdown"``) ``train_dataset`` holds
    :func:`gauntlet.rows` and ``reward_funcs`` is ``[reward]``; for an environment or game,
    ``train_dataset`` holds one conversational prompt per episode with its ``seed`` and
    ``level`` columns, ``environment_factory`` is :func:`environment_factory`'s class and the
    reward is the environment's ``get_reward`` (TRL adds it, weight 1). Row ``i`` has seed
    ``seed + i``. ``train_dataset`` is a ``datasets.Dataset`` (install ``datasets``)."""

    def __init__(self, name: str, *, level: int = 1, size: int = 256, seed: int = 0, seat: int = 0):
        self.name, self.level, self.size, self.seed, self.seat = name, level, size, seed, seat
        self.is_env = name in list_envs()
        self._factory = environment_factory(name, level, seat=seat) if self.is_env else None

    @property
    def train_dataset(self) -> Any:
        """The training prompts as a ``datasets.Dataset``."""
        try:
            from datasets import Dataset
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError("GauntletSpec.train_dataset needs `datasets`: pip install datasets") from e
        if not self.is_env:
            return Dataset.from_list(rows(self.name, self.size, self.seed, self.level))
        seats = make(self.name, level=self.level).num_seats
        text = _instruction(self.name, seats, self.seat)
        data = [
            {"prompt": [{"role": "user", "content": text}], "seed": self.seed + i, "level": self.level}
            for i in range(self.size)
        ]
        return Dataset.from_list(data)

    @property
    def environment_factory(self) -> type[ToolEnvironment] | None:
        """The environment class (``None`` for single-turn tasks)."""
        return self._factory

    @property
    def reward_funcs(self) -> list[Any]:
        """``[reward]`` for tasks; empty for environments (their ``get_reward`` is the reward)."""
        return [] if self.is_env else [reward]

    def kwargs(self) -> dict[str, Any]:
        """``train_dataset``, ``reward_funcs`` and (for environments) ``environment_factory``."""
        out: dict[str, Any] = {"train_dataset": self.train_dataset, "reward_funcs": self.reward_funcs}
        if self._factory is not None:
            out["environment_factory"] = self._factory
        return out
