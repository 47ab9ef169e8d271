"""Issue 32: one episode kernel, one rendering. The episode runner that ``gauntlet train``'s
rollouts play on (``gauntlet.EpisodeRunner``) and the Python drivers (TRL's
``environment_factory`` environments, the verifiers taskset, the verl agent loop, which all render
through ``gauntlet.render_user_message``) show a policy the same conversation for the same world,
seed and actions. The verl agent loop's half of this check needs verl, so it lives in
tests/verl/test_agent_loop.py (``test_issue_32_the_agent_loop_shows_the_runners_conversation``)."""

import pytest

import gauntlet
from gauntlet.errors import EpisodeError, UnknownEnvError
from gauntlet.trl import environment_factory


def test_render_user_message_is_the_kernels_rule():
    assert gauntlet.render_user_message("", "obs") == "obs"
    assert gauntlet.render_user_message("Too low.", "Guess again.") == "Too low.\n\nGuess again."


def _runner_conversation(name, seed, level):
    run = gauntlet.EpisodeRunner(name, seed, level)
    actions = []
    while (seat := run.to_act()) is not None:
        run.messages(seat)
        response = run.oracle_response()
        actions.append(response)
        run.submit(seat, response)
    out = run.finish()
    return out, actions


@pytest.mark.parametrize(("name", "level"), [("guess_number", 2), ("frozen_lake", 2), ("hangman", 1)])
def test_a_plain_text_driver_sees_the_runners_conversation(name, level):
    out, actions = _runner_conversation(name, 5, level)
    assert out["success"] and out["error"] is None
    users = [m["content"] for m in out["conversations"][0] if m["role"] == "user"]
    assert [m["content"] for m in out["conversations"][0] if m["role"] == "assistant"] == actions

    # The verifiers / plain-text form of the TRL environment: actions as text, observations kept.
    cls = environment_factory(name, level=level)
    cls.tool_calls = False
    env = cls()
    shown = [env.reset(seed=5)]
    for action in actions[:-1]:
        text = action.removeprefix("<answer>").removesuffix("</answer>")
        shown.append(env._act(text))
    assert shown == users


def test_the_runner_guards_seats_and_finished_episodes():
    run = gauntlet.EpisodeRunner("tic_tac_toe", 1, 1)
    seat = run.to_act()
    with pytest.raises(EpisodeError, match="turn"):
        run.messages(1 - seat)
    assert run.messages(seat)[0]["role"] == "user"
    run.finish()
    with pytest.raises(EpisodeError):
        run.to_act()
    with pytest.raises(UnknownEnvError, match="did you mean"):
        gauntlet.EpisodeRunner("tic_tac", 1)
