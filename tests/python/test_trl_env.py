"""gauntlet.trl's environment layer without TRL installed: the tool methods that
`environment_factory` derives from each environment's actions play whole episodes, and the
oracle played through them earns exactly the returns of the Rust side."""

from __future__ import annotations

import inspect

import pytest

import gauntlet
import gauntlet.trl as gtrl
from gauntlet.errors import ConfigError, EpisodeError


def tools_of(cls: type) -> dict[str, object]:
    """What TRL exposes as tools: every public function of the class but reset/get_reward."""
    return {
        name: fn
        for name, fn in inspect.getmembers(cls, predicate=inspect.isfunction)
        if not name.startswith("_") and name not in ("reset", "get_reward")
    }


@pytest.mark.parametrize("name", gauntlet.list_envs())
def test_oracle_through_tools_earns_the_rust_returns(name: str) -> None:
    cls = gtrl.environment_factory(name, level=2)
    assert set(tools_of(cls)) == set(cls.action_tools)
    env = cls()
    for seed in range(2):
        first = env.reset(seed=seed, level=2)
        assert first and "<answer>" not in first
        while not env.done:
            env._act(env.env.oracle_action())
        want = gauntlet.play_episode(name, seed, 2, "oracle")[0][0]
        assert env.get_reward() == pytest.approx(want)
        with pytest.raises(EpisodeError):
            env._act(env.env.oracle_action() or "x")


@pytest.mark.parametrize("name", ["frozen_lake", "sql_query", "wordle", "chess", "leduc_holdem"])
def test_tools_are_typed_and_documented_for_tool_schemas(name: str) -> None:
    for tool, fn in tools_of(gtrl.environment_factory(name)).items():
        params = list(inspect.signature(fn).parameters)[1:]
        assert fn.__name__ == tool and fn.__doc__ and "Returns:" in fn.__doc__
        for p in params:
            assert fn.__annotations__[p] is str and f"{p}:" in fn.__doc__
        assert fn.__annotations__["return"] is str


def test_tool_shapes_follow_the_actions() -> None:
    assert set(gtrl.environment_factory("frozen_lake").action_tools) == {"up", "down", "left", "right"}
    assert gtrl.environment_factory("sql_query").action_tools == {"sql": ("sql", "args"), "answer": ("answer", "args")}
    assert gtrl.environment_factory("chess").action_tools == {"move": ("", "move")}
    # `raise` is a Python keyword: the tool is `raise_`, and it still plays `raise`.
    assert gtrl.environment_factory("leduc_holdem").action_tools["raise_"] == ("raise", None)


def test_games_seat_the_model_against_the_scripted_opponent() -> None:
    env = gtrl.environment_factory("tic_tac_toe", seat=1)()
    env.reset(seed=0)
    assert env.env.to_act() == 1  # the opponent (seat 0) has already moved
    env.move(env.env.oracle_action())
    assert env.done or env.env.to_act() == 1
    with pytest.raises(ConfigError):
        gtrl.environment_factory("tic_tac_toe", seat=2)


def test_invalid_action_is_feedback_not_an_exception() -> None:
    env = gtrl.environment_factory("sql_query")()
    env.reset(seed=3)
    text = env.sql("DELETE FROM employees")
    assert not env.done and text.startswith("Query 1 failed: Refused") and "read-only" in text


def test_spec_for_a_task_and_for_an_environment() -> None:
    task = gtrl.GauntletSpec("countdown", size=4)
    assert task.environment_factory is None and task.reward_funcs == [gtrl.reward]
    env = gtrl.GauntletSpec("wordle", level=2, size=4, seed=10)
    assert env.reward_funcs == [] and issubclass(env.environment_factory, gtrl.ToolEnvironment)
    try:
        import datasets  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match="pip install datasets"):
            _ = env.train_dataset
    else:
        rows = env.train_dataset
        assert rows["seed"] == [10, 11, 12, 13] and rows["level"] == [2] * 4
