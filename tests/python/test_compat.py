"""reasoning-gym, gymnasium and PettingZoo drop-in behaviour: names, options, composite, one
answer rule across entry points, API edges and PettingZoo's API checks for every game."""

from __future__ import annotations

import pickle

import pytest

import gauntlet
import gauntlet.trl
import gauntlet.verl
from gauntlet import algos
from gauntlet.errors import (
    ConfigError,
    EpisodeError,
    GauntletError,
    InvalidLevelError,
    UnknownEstimatorError,
    UnknownTaskError,
)

ALIASES = gauntlet.list_aliases()


def test_alias_table_is_large_and_points_at_families():
    assert len(ALIASES) >= 60
    tasks = set(gauntlet.list_tasks())
    for a in ALIASES:
        assert a["family"] in tasks, a
        assert 1 <= a["level"] <= 5
        assert a["differs"]
    names = {a["name"] for a in ALIASES}
    for rg in ["zebra_puzzles", "caesar_cipher", "gcd", "lcm", "bf", "tower_of_hanoi", "jugs", "puzzle24"]:
        assert rg in names
    for rg in ["graph_color", "dice", "rubiks_cube", "simple_integration", "mini_sudoku", "basic_arithmetic"]:
        assert rg in names


@pytest.mark.parametrize("alias", ALIASES, ids=[a["name"] for a in ALIASES])
def test_reasoning_gym_readme_loop_runs_for_every_alias(alias):
    # reasoning-gym's README, with only the import changed.
    import gauntlet as reasoning_gym

    data = reasoning_gym.create_dataset(alias["name"], size=3, seed=42)
    assert data.level == alias["level"]
    assert data.config["level"] == alias["level"] and data.config["size"] == 3
    for i, x in enumerate(data):
        assert x["question"] and isinstance(x["answer"], str)
        assert x["metadata"]["source_dataset"] == alias["name"]
        assert x["metadata"]["task"] == alias["family"]
        assert data.score_answer(answer=x["answer"], entry=x) == 1.0, (i, alias)
        fn = reasoning_gym.get_score_answer_fn(x["metadata"]["source_dataset"])
        assert fn(x["answer"], x) == 1.0
    assert pickle.loads(pickle.dumps(data))[1] == data[1]


def _empty_cells(entry) -> int:
    return sum(v == 0 for row in entry["metadata"]["puzzle"] for v in row)


def test_config_keys_set_generator_parameters_on_top_of_the_level():
    assert gauntlet.create_dataset("sudoku", size=1).level == 4  # reasoning-gym's default is 9x9
    d = gauntlet.create_dataset("sudoku", size=8, seed=3, min_empty=40, max_empty=44)
    assert d.level == 4 and d.overrides == {"empty": (40, 44)} and d.config["min_empty"] == 40
    for x in d:
        assert 40 <= _empty_cells(x) <= 44
        assert d.score_answer(x["answer"], x) == 1.0
    # A key not given keeps reasoning-gym's default (max_empty=50), as in reasoning-gym.
    assert gauntlet.create_dataset("sudoku", size=1, min_empty=35).overrides == {"empty": (35, 50)}
    # With `level=`: the level's other parameters (here 4x4 at level 2 of mini_sudoku), the key's value.
    mini = gauntlet.create_dataset("mini_sudoku", size=6, seed=1, min_empty=6, max_empty=6)
    assert mini.level == 2 and all(_empty_cells(x) <= 6 for x in mini)
    d = gauntlet.create_dataset("sudoku", size=2, level=5, min_empty=30, max_empty=30)
    assert d.level == 5 and all(_empty_cells(x) == 30 for x in d)
    z = gauntlet.create_dataset("zebra_puzzles", size=2, seed=1, num_people=5, num_characteristics=3)
    assert z.level == 3 and all((x["metadata"]["houses"], len(x["metadata"]["attributes"])) == (5, 3) for x in z)
    g = gauntlet.create_dataset("gcd", size=6, seed=2, min_numbers=3, max_numbers=3, max_value=100)
    assert g.overrides == {"numbers": (3, 3), "value": (1, 100)}
    assert all(len(x["metadata"]["numbers"]) == 3 and max(x["metadata"]["numbers"]) <= 100 for x in g)
    # Settings survive pickling (the entries are regenerated from the arguments).
    assert pickle.loads(pickle.dumps(d))[1] == d[1]
    assert pickle.loads(pickle.dumps(g)).overrides == g.overrides


def test_other_config_keys_choose_levels_and_bad_keys_or_values_say_what_is_accepted():
    # Keys without a generator parameter still choose the level whose parameter is nearest.
    assert gauntlet.create_dataset("rubiks_cube", size=1, max_scramble_steps=30).level == 5
    assert gauntlet.create_dataset("course_schedule", size=1, min_num_courses=5, max_num_courses=5).level == 1
    with pytest.raises(ConfigError, match="not both"):
        gauntlet.create_dataset("rubiks_cube", level=2, max_scramble_steps=30)
    with pytest.raises(ConfigError) as e:
        gauntlet.create_dataset("sudoku", difficulty=3)
    assert "`max_empty`, `min_empty`" in str(e.value)
    with pytest.raises(ConfigError, match=r"0\.\.=64"):
        gauntlet.create_dataset("sudoku", min_empty=70)
    with pytest.raises(ConfigError, match="above"):
        gauntlet.create_dataset("sudoku", min_empty=45, max_empty=40)
    with pytest.raises(ConfigError, match="whole number"):
        gauntlet.create_dataset("countdown", min_numbers=4.5)
    with pytest.raises(ConfigError, match="not a reasoning-gym name"):
        gauntlet.create_dataset("hitori", rows=5)
    with pytest.raises(ConfigError, match="number"):
        gauntlet.create_dataset("sudoku", min_empty="many")
    # gauntlet's own names keep level 1 by default.
    assert gauntlet.create_dataset("hitori", size=1).level == 1


SETTING = [a for a in ALIASES if a["overrides"]]


@pytest.mark.parametrize("alias", SETTING, ids=[a["name"] for a in SETTING])
def test_every_generator_parameter_at_reasoning_gyms_defaults_and_bounds(alias):
    """Each key set to reasoning-gym's default, then the other end of its bounds' span that
    generates quickly: entries generate, the oracle scores 1.0, and the config says what was set."""
    defaults = {k: v for o in alias["overrides"] for k, v in zip(o["keys"], o["defaults"], strict=False)}
    data = gauntlet.create_dataset(alias["name"], size=3, seed=11, **defaults)
    assert set(data.overrides) == {o["param"] for o in alias["overrides"]}
    for o in alias["overrides"]:
        assert data.overrides[o["param"]] == tuple(o["defaults"])
        assert set(o["keys"]) <= set(alias["keys"])
        lo, hi = o["bounds"]
        assert lo <= o["defaults"][0] <= o["defaults"][1] <= hi
    for x in data:
        assert data.score_answer(x["answer"], x) == 1.0
    assert data.level == alias["level"]


def test_metadata_carries_the_family_fields():
    e = gauntlet.create_dataset("puzzle24", size=1, seed=3)[0]
    meta = e["metadata"]
    assert meta["task"] == "game_of_24" and meta["source_dataset"] == "puzzle24"
    problem = __import__("json").loads(meta["problem"])
    for k, v in problem.items():
        if k not in {"task", "seed", "level", "problem", "difficulty", "source_dataset", "source_index"}:
            assert meta[k] == v


def test_metadata_also_uses_reasoning_gym_field_names():
    fields = {a["name"]: a.get("fields", {}) for a in ALIASES}
    if not fields["caesar_cipher"]:
        pytest.skip("extension built before the field table")
    meta = gauntlet.create_dataset("caesar_cipher", size=1, seed=2)[0]["metadata"]
    assert meta["cipher_text"] == meta["ciphertext"] and meta["rotation"] == meta["shift"]
    meta = gauntlet.create_dataset("word_ladder", size=1, seed=2)[0]["metadata"]
    assert (meta["start_word"], meta["end_word"]) == (meta["start"], meta["end"])
    meta = gauntlet.create_dataset("brainfuck", size=1, seed=2)[0]["metadata"]
    assert "bf_program" not in meta  # only under the reasoning-gym name
    assert "bf_program" in gauntlet.create_dataset("bf", size=1, seed=2)[0]["metadata"]


def test_composite_in_reasoning_gym_shape():
    from gauntlet.composite import CompositeConfig, CompositeDataset, DatasetSpec

    specs = [
        DatasetSpec(name="sudoku", weight=2, config={"min_empty": 45}),
        DatasetSpec(name="zebra_puzzles", weight=1, config={}),
        DatasetSpec("gcd", 1.0, {"max_value": 100}),
    ]
    data = gauntlet.create_dataset("composite", size=40, seed=5, datasets=specs)
    same = CompositeDataset(CompositeConfig(size=40, seed=5, datasets=specs))
    assert list(data) == list(same)
    seen = set()
    for x in data:
        seen.add(x["metadata"]["source_dataset"])
        assert data.score_answer(x["answer"], x) == 1.0
        if x["metadata"]["task"] == "sudoku":
            assert x["metadata"]["level"] == 4 and _empty_cells(x) >= 45
        if x["metadata"]["task"] == "gcd_lcm":
            assert x["metadata"]["level"] == 2 and max(x["metadata"]["numbers"]) <= 100
    assert seen == {"sudoku", "zebra_puzzles", "gcd"}
    assert [s.name for s in data.config["datasets"]] == ["sudoku", "zebra_puzzles", "gcd"]
    assert pickle.loads(pickle.dumps(data))[7] == data[7]
    with pytest.raises(ConfigError):
        gauntlet.create_dataset("composite", size=4, datasets=[DatasetSpec("sudoku", 1, {"bogus": 1})])


def test_suggestions_rank_aliases_substrings_and_prefixes_first():
    def first(name):
        with pytest.raises(UnknownTaskError) as e:
            gauntlet.create_dataset(name)
        return e.value.suggestions

    assert first("zebra_puzzle")[0] == "zebra_puzzles"
    assert "zebra" in first("zebra_puzzle")[:2]
    assert first("towers_of_hanoi")[:2] == ["hanoi", "tower_of_hanoi"]
    assert first("puzzle_24")[0] == "puzzle24"
    assert first("brainf")[0] == "brainfuck"
    assert first("sudokuu")[0] == "sudoku"
    for name in ["bf", "tower_of_hanoi", "puzzle24", "zebra_puzzles", "Caesar-Cipher"]:
        assert gauntlet.create_dataset(name, size=1)[0]["question"]
    with pytest.raises(UnknownEstimatorError, match="did you mean `grpo`"):
        algos.advantages("gpro", scores=[1, 0], groups=["p", "p"], masks=[[1], [1]])


# ---- one answer rule ------------------------------------------------------------------------


def _entry():
    return gauntlet.create_dataset("countdown", size=1, seed=7, level=1)[0]


def _all_response_verdicts(entry, response, extract=None):
    """The verdict of ``response`` through every entry point that takes a full response."""
    task, problem = entry["metadata"]["task"], entry["metadata"]["problem"]
    row = gauntlet.rows(task, 1, seed=entry["metadata"]["seed"], level=entry["metadata"]["level"])[0]
    kw = {} if extract is None else {"extract": extract}
    out = {
        "verify": tuple(gauntlet.verify(task, problem, response, **kw)),
        "verify_batch(row)": tuple(gauntlet.verify_batch([row], [response], **kw)[0]),
        "verify_batch(entry)": tuple(gauntlet.verify_batch([entry], [response], **kw)[0]),
    }
    s = gauntlet.verl.compute_score(row["data_source"], response, row["reward_model"]["ground_truth"], **kw)
    out["compute_score"] = (s["score"], bool(s["correct"]), bool(s["format_error"]))
    b = gauntlet.verl.compute_score_batch([row["data_source"]], [response], [row["reward_model"]["ground_truth"]], **kw)
    out["compute_score_batch"] = (b[0]["score"], bool(b[0]["correct"]), bool(b[0]["format_error"]))
    cols = {k: [row[k]] for k in ("data_source", "reward_model", "extra_info")}
    out["trl.reward"] = gauntlet.trl.reward([row["prompt"]], [response], **cols, **kw)[0]
    return out


@pytest.mark.parametrize(
    "kind", ["block", "bare", "reasoning-then-bare", "two-blocks", "empty", "boxed-only", "boxed-and-block"]
)
def test_one_answer_rule(kind):
    entry = _entry()
    ans = entry["answer"]
    response = {
        "block": f"Let me think.\n<answer>{ans}</answer>",
        "bare": ans,
        "reasoning-then-bare": f"Let me think. The answer is {ans}",
        "two-blocks": f"<answer>nope</answer> then <answer>{ans}</answer>",
        "empty": "",
        "boxed-only": f"So \\boxed{{{ans}}}",
        "boxed-and-block": f"\\boxed{{{ans}}} <answer>nope</answer>",
    }[kind]
    has_block = "<answer>" in response
    verdicts = _all_response_verdicts(entry, response)
    reward = 1.0 if kind in ("block", "two-blocks") else 0.0
    for where, v in verdicts.items():
        if where == "trl.reward":
            assert v == reward, (where, v)
        elif where.startswith("compute_score"):
            assert v == verdicts["verify"][:3], (where, v)
        else:
            assert v[0] == reward and v[1] == (reward == 1.0), (where, v)
            if not has_block:
                assert v[2] and "no <answer>…</answer> block" in v[3], (where, v)
    # The answer-taking entry points read a text without a block as the answer itself.
    data = gauntlet.create_dataset("countdown", size=1, seed=7, level=1)
    fn = gauntlet.get_score_answer_fn("countdown")
    want = 1.0 if kind in ("block", "bare", "two-blocks") else 0.0
    assert data.score_answer(response, entry) == want == fn(response, entry)
    assert data.verify(response, entry).reward == want
    # extract="boxed" reads the last \boxed{} through every entry point.
    boxed = _all_response_verdicts(entry, response, extract="boxed")
    want_boxed = 1.0 if kind in ("boxed-only", "boxed-and-block") else 0.0
    for where, v in boxed.items():
        if where == "trl.reward":
            assert v == want_boxed, (where, v)
            continue
        assert v[0] == want_boxed, (where, v)
        if "\\boxed" not in response:
            assert v[2], (where, v)
            if len(v) == 4:
                assert "no \\boxed{…}" in v[3], (where, v)
    assert data.score_answer(response, entry, extract="boxed") == want_boxed == fn(response, entry, extract="boxed")


def test_prose_answer_reason_says_there_is_no_block():
    entry = _entry()
    v = gauntlet.create_dataset("countdown", size=1, seed=7, level=1).verify("Let me think. 42", entry)
    assert v.format_error and "no <answer>…</answer> block" in v.reason
    v = gauntlet.verify("countdown", entry["metadata"]["problem"], "Let me think. 42")
    assert v.format_error and v.reason == "unparsable: no <answer>…</answer> block"
    with pytest.raises(ConfigError):
        gauntlet.verify("countdown", entry["metadata"]["problem"], "x", extract="latex")


# ---- API edges ------------------------------------------------------------------------------


def test_negative_and_oversized_numbers_are_gauntlet_errors():
    env = gauntlet.make("wordle")
    game = gauntlet.make("tic_tac_toe")
    calls = [
        lambda: env.reset(seed=-1),
        lambda: env.reset(seed=2**64),
        lambda: game.reset(seed=-5),
        lambda: gauntlet.rows("sudoku", 1, seed=-1),
        lambda: gauntlet.rows("sudoku", -1),
        lambda: gauntlet.rows("sudoku", 1, level=2**70),
        lambda: gauntlet.generate_jsonl("sudoku", 1, seed=2**70),
        lambda: gauntlet.play_episode("wordle", -1),
        lambda: gauntlet.play_episode("wordle", 0, 2**70),
        lambda: gauntlet.create_dataset("sudoku", level=2**70),
        lambda: gauntlet.create_dataset("sudoku", level=-1),
        lambda: gauntlet.create_dataset("sudoku", seed=-1),
        lambda: gauntlet.create_dataset("sudoku", threads=-1),
        lambda: gauntlet.make("wordle", level=2**70),
    ]
    for i, call in enumerate(calls):
        with pytest.raises(GauntletError) as e:
            call()
        assert isinstance(e.value, (ConfigError, InvalidLevelError)), (i, e.value)
    # The highest seed is fine and the next reset wraps around.
    env.reset(seed=2**64 - 1)
    env.reset()


def test_gymnasium_make_accepts_render_mode():
    env = gauntlet.make("sokoban_play", level=1, render_mode="ansi")
    obs, _ = env.reset(seed=1)
    assert env.render() == obs
    assert env.render_mode == "ansi" and "ansi" in env.metadata["render_modes"]
    assert env.action_space.contains("up") and not env.action_space.contains(3)
    assert env.unwrapped is env
    with pytest.raises(ConfigError):
        gauntlet.make("sokoban_play", render_mode="rgb_array")


def test_readme_wordle_snippet_accepts_common_words():
    env = gauntlet.make("wordle", level=2)
    obs, _ = env.reset(seed=7)
    assert "valid guess" in obs and "crane" in obs
    for word in ["crane", "slate", "adieu"]:
        obs, _reward, _term, _trunc, info = env.step(f"<answer>{word}</answer>")
        assert not info["invalid"] and not info["format_error"], (word, info)
    env.reset(seed=7)
    *_, info = env.step("<answer>xqzzv</answer>")
    assert info["invalid"]


# ---- PettingZoo's api_test, written out (pettingzoo is not a dependency) -------------------


@pytest.mark.parametrize("name", gauntlet.list_envs("game"))
def test_pettingzoo_api_checks(name):
    env = gauntlet.make(name)
    assert isinstance(env, gauntlet.GameEnv)
    assert env.max_num_agents == len(env.possible_agents) >= 2
    for a in env.possible_agents:
        assert env.observation_space(a) is env.observation_space(a)
        assert env.action_space(a) is env.action_space(a)
    env.reset(seed=0)
    assert env.agents == env.possible_agents and env.num_agents == len(env.agents)
    for d in (env.rewards, env._cumulative_rewards, env.terminations, env.truncations, env.infos):
        assert set(d) == set(env.agents)
    assert env.agent_selection in env.agents
    for a in env.agents:
        assert env.observation_space(a).contains(env.observe(a))
    # Observations of other seats do not change when the agent to act only looks.
    before = [env.observe(a) for a in env.possible_agents]
    env.last()
    assert [env.observe(a) for a in env.possible_agents] == before
    steps = 0
    for agent in env.agent_iter(max_iter=10_000):
        assert agent == env.agent_selection
        obs, reward, terminated, truncated, info = env.last()
        obs2, *_ = env.last(observe=False)
        assert obs2 is None and env.observation_space(agent).contains(obs)
        assert isinstance(reward, float) and isinstance(info, dict)
        assert reward == env._cumulative_rewards[agent]
        if terminated or truncated:
            env.step(None)
        else:
            action = env.random_action()
            assert env.action_space(agent).contains(action)
            env.step(action)
        assert env.num_agents == len(env.agents)
        steps += 1
    assert env.agents == [] and env.num_agents == 0 and steps > 0
    # After the end, a non-None action is refused, and reset starts over.
    with pytest.raises(EpisodeError):
        env.step("x")
    env.reset(seed=1)
    assert env.num_agents == env.max_num_agents
    env.close()


def test_docs_alias_table_matches_the_registry():
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs/python.md").read_text()
    names_table = text.split("### Options that set generator parameters", 1)[0]
    rows = re.findall(r"^\| `([a-z0-9_]+)` \| `([a-z0-9_]+)` \| (\d) \| (.*?) \|", names_table, re.M)
    assert [r[:3] for r in rows] == [(a["name"], a["family"], str(a["level"])) for a in ALIASES]
    for (name, *_, options), a in zip(rows, ALIASES, strict=True):
        setting = {k for o in a["overrides"] for k in o["keys"]}
        want = ", ".join(f"**`{k}`**" if k in setting else f"`{k}`" for k in a["keys"]) or "—"
        assert options == want, name
    # The per-family table of options that set generator parameters.
    section = text.split("### Options that set generator parameters", 1)[1].split("\n### ", 1)[0]
    params = re.findall(r"^\| `([a-z0-9_]+)` \| (.*?) \| (.*?) \| (.*?) \| (.*?) \|$", section, re.M)
    want = []
    for a in ALIASES:
        for o in a["overrides"]:
            d, (lo, hi) = o["defaults"], o["bounds"]
            default = str(d[0]) if len(o["keys"]) == 1 else f"{d[0]}–{d[1]}"
            keys = " / ".join(f"`{k}`" for k in o["keys"])
            want.append((a["name"], keys, default, f"{lo:,}–{hi:,}", o["doc"]))
    assert params == want
