"""Environments and games through Python: whole episodes, equality with Rust, AEC shape, errors."""

from __future__ import annotations

import pytest

import gauntlet
from gauntlet.errors import EpisodeError, InvalidLevelError, UnknownEnvError

SINGLE = gauntlet.list_envs("multi_turn")
GAMES = gauntlet.list_envs("game")


def test_listing():
    assert SINGLE
    assert GAMES
    assert set(SINGLE) | set(GAMES) == set(gauntlet.list_envs())


def play_single(env, policy, seed, level):
    obs, info = env.reset(seed=seed, options={"level": level})
    assert isinstance(obs, str)
    assert obs
    assert "anchor" in info
    total, turns = 0.0, 0
    while True:
        action = env.oracle_action() if policy == "oracle" else env.random_action()
        obs, reward, terminated, truncated, info = env.step(f"<answer>{action}</answer>")
        total += reward
        turns += 1
        if terminated or truncated:
            return env.returns(), turns, env.success(), total


@pytest.mark.parametrize("name", SINGLE)
@pytest.mark.parametrize("policy", ["oracle", "random"])
def test_single_agent_episodes_equal_rust(name, policy):
    env = gauntlet.make(name)
    assert isinstance(env, gauntlet.Env)
    for seed, level in [(0, 1), (1, 3), (2, 5)]:
        returns, turns, success, total = play_single(env, policy, seed, level)
        assert (returns, turns, success) == gauntlet.play_episode(name, seed, level, policy)
        assert total == pytest.approx(returns[0])
        assert env.legal_actions() == []


def play_game(game, policy, seed, level):
    game.reset(seed=seed, options={"level": level})
    turns = 0
    for _agent in game.agent_iter():
        obs, _ret, terminated, truncated, _info = game.last()
        assert isinstance(obs, str)
        if terminated or truncated:
            game.step(None)
            continue
        assert game.agent_selection == f"seat_{game.to_act()}"
        action = game.oracle_action() if policy == "oracle" else game.random_action()
        # A talking world's messages (`say TEXT`) and answers (`answer TEXT`) are free text: its
        # legal actions list examples.
        legal = game.legal_actions()
        free_text = action.startswith(("say ", "answer "))
        assert action in legal or not legal or free_text, (action, legal)
        game.step(f"<answer>{action}</answer>")
        turns += 1
    return game.returns(), turns, game.success()


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("policy", ["oracle", "random"])
def test_games_equal_rust_and_follow_aec(name, policy):
    game = gauntlet.make(name)
    assert isinstance(game, gauntlet.GameEnv)
    assert len(game.possible_agents) >= 2
    for seed, level in [(0, 1), (4, 3)]:
        result = play_game(game, policy, seed, level)
        assert result == gauntlet.play_episode(name, seed, level, policy)
        assert game.agents == []
        assert [game._cumulative_rewards[a] for a in game.possible_agents] == result[0]


def test_per_seat_rewards_sum_to_returns():
    game = gauntlet.make("kuhn_poker")
    game.reset(seed=3)
    totals = dict.fromkeys(game.possible_agents, 0.0)
    while game.to_act() is not None:
        game.step(game.random_action())
        for a, r in game.rewards.items():
            totals[a] += r
    assert [totals[a] for a in game.possible_agents] == pytest.approx(game.returns())


def test_errors():
    with pytest.raises(UnknownEnvError) as e:
        gauntlet.make("wordel")
    assert "wordle" in e.value.suggestions
    assert isinstance(e.value, KeyError)
    with pytest.raises(InvalidLevelError):
        gauntlet.make("wordle", level=7)
    env = gauntlet.make("wordle")
    with pytest.raises(EpisodeError, match="reset"):
        env.step("crane")
    env.reset(seed=0)
    while True:
        *_, terminated, truncated, _ = env.step(env.oracle_action())
        if terminated or truncated:
            break
    with pytest.raises(EpisodeError, match="over"):
        env.step("crane")
    # Garbage actions are feedback, not exceptions.
    env.reset(seed=1)
    _obs, _reward, terminated, truncated, info = env.step("\u0000" * 1000)
    assert info["format_error"] or info["invalid"]


def test_reset_without_seed_continues_and_render_matches_obs():
    env = gauntlet.make("sokoban_play", level=2)
    obs0, _ = env.reset()
    obs1, _ = env.reset()
    assert env.render() == obs1
    assert gauntlet.make("sokoban_play", level=2).reset(seed=0)[0] == obs0
