"""gauntlet.verl.compute_score and gauntlet.trl reward functions on gauntlet's rows."""

from __future__ import annotations

import sys
import types

import pytest

import gauntlet
import gauntlet.trl
import gauntlet.verl
from gauntlet.errors import BadRowError, ConfigError


def rows_and_oracle(tasks="sudoku,maze,countdown", n=4, level=2):
    rows = gauntlet.rows(tasks, count=n, seed=3, level=level)
    answers = []
    for r in rows:
        e = r["extra_info"]
        answers.append(gauntlet.create_dataset(e["task"], size=1, seed=e["seed"], level=e["level"])[0]["answer"])
    return rows, [f"<think>easy</think><answer>{a}</answer>" for a in answers]


def test_compute_score_on_rows():
    rows, good = rows_and_oracle()
    for r, g in zip(rows, good, strict=True):
        args = (r["data_source"], g, r["reward_model"]["ground_truth"], r["extra_info"])
        out = gauntlet.verl.compute_score(*args)
        assert out == {"score": 1.0, "task": r["extra_info"]["task"], "level": 2, "correct": 1.0, "format_error": 0.0}
        bad = gauntlet.verl.compute_score(r["data_source"], "no tags here", r["reward_model"]["ground_truth"])
        assert bad["score"] == 0.0 and bad["format_error"] == 1.0 and bad["level"] == 0
    batch = gauntlet.verl.compute_score_batch(
        [r["data_source"] for r in rows],
        good,
        [r["reward_model"]["ground_truth"] for r in rows],
        [r["extra_info"] for r in rows],
    )
    assert all(b["score"] == 1.0 for b in batch)


def test_non_gauntlet_rows_fall_through(monkeypatch):
    with pytest.raises(ConfigError, match="default_compute_score"):
        gauntlet.verl.compute_score("openai/gsm8k", "#### 4", "4")
    fake = types.ModuleType("verl.utils.reward_score")
    calls = []

    def default_compute_score(data_source, solution_str, ground_truth, extra_info=None, **kw):
        calls.append((data_source, solution_str, ground_truth))
        return 1.0 if solution_str.endswith(ground_truth) else 0.0

    fake.default_compute_score = default_compute_score
    for name in ("verl", "verl.utils"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.setitem(sys.modules, "verl.utils.reward_score", fake)
    out = gauntlet.verl.compute_score("openai/gsm8k", "#### 4", "4", {"index": 1})
    assert out == {"score": 1.0, "task": "openai/gsm8k", "level": 0, "correct": 1.0, "format_error": 0.0}
    rows, good = rows_and_oracle("sudoku", 2)
    mixed = gauntlet.verl.compute_score_batch(
        ["openai/gsm8k", rows[0]["data_source"]],
        ["#### 5", good[0]],
        ["4", rows[0]["reward_model"]["ground_truth"]],
    )
    assert [m["score"] for m in mixed] == [0.0, 1.0]
    assert set(mixed[0]) == set(mixed[1])
    assert len(calls) == 2


def test_trl_reward_functions_conversational_and_mixed():
    rows, good = rows_and_oracle()
    cols = {k: [r[k] for r in rows] for k in ("data_source", "reward_model", "extra_info", "ability")}
    prompts = [r["prompt"] for r in rows]
    conv = [[{"role": "assistant", "content": g}] for g in good]
    assert gauntlet.trl.reward(prompts, conv, **cols) == [1.0] * len(rows)
    assert gauntlet.trl.reward(prompts, good, trainer_state=None, **cols) == [1.0] * len(rows)
    wrong = ["<answer>nope</answer>"] * len(rows)
    assert gauntlet.trl.reward(prompts, wrong, **cols) == [0.0] * len(rows)
    assert gauntlet.trl.format_error(prompts, ["nothing"] * len(rows), **cols) == [1.0] * len(rows)
    assert gauntlet.trl.correct(prompts, good, **cols) == [1.0] * len(rows)
    # A row that is not gauntlet's gets None, so other reward functions score it.
    cols["data_source"][0] = "openai/gsm8k"
    cols["reward_model"][0] = {"style": "rule", "ground_truth": "4"}
    out = gauntlet.trl.reward(prompts, good, **cols)
    assert out[0] is None and out[1:] == [1.0] * (len(rows) - 1)


def test_trl_errors_name_the_missing_column():
    with pytest.raises(BadRowError, match="data_source"):
        gauntlet.trl.reward(["p"], ["c"])
    with pytest.raises(BadRowError, match="ground_truth"):
        gauntlet.trl.reward(["p"], ["c"], data_source=["gauntlet/sudoku"], reward_model=[{}])
