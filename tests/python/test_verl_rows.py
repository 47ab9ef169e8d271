"""Rows for the verl agent loop (`gauntlet.verl.agent_rows` / `write_agent_rows`), without verl."""

from __future__ import annotations

import json

import pytest

import gauntlet
import gauntlet.verl
from gauntlet.envs import advance_to_seat, seat_view
from gauntlet.errors import ConfigError


def test_agent_rows_start_each_seed_where_the_loop_starts():
    rows = gauntlet.verl.agent_rows("tic_tac_toe", 3, seed=10, seat=1, system="Play well.")
    assert [r["extra_info"]["seed"] for r in rows] == [10, 11, 12]
    for i, row in enumerate(rows):
        assert row["agent_name"] == gauntlet.verl.AGENT_NAME == "gauntlet"
        assert row["data_source"] == "gauntlet/tic_tac_toe" and row["ability"] == "game"
        assert row["extra_info"] == {"env": "tic_tac_toe", "seed": 10 + i, "level": 1, "seat": 1, "index": i}
        env = gauntlet.make("tic_tac_toe")
        env.reset(seed=10 + i)
        advance_to_seat(env, 1)
        assert env.to_act() == 1
        assert row["prompt"] == [
            {"role": "system", "content": "Play well."},
            {"role": "user", "content": seat_view(env, 1)[0]},
        ]


def test_write_agent_rows_jsonl_and_refusals(tmp_path):
    path = tmp_path / "rows.jsonl"
    assert gauntlet.verl.write_agent_rows(path, "wordle", 4, seed=2, level=2) == 4
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines == gauntlet.verl.agent_rows("wordle", 4, seed=2, level=2)
    with pytest.raises(ConfigError, match="parquet"):
        gauntlet.verl.write_agent_rows(tmp_path / "rows.csv", "wordle", 1)
    with pytest.raises(ConfigError, match="seat"):
        gauntlet.verl.agent_rows("wordle", 1, seat=1)
    with pytest.raises(ConfigError, match="agent loop"):
        gauntlet.verl.compute_score("gauntlet/wordle", "<answer>crane</answer>", "", lines[0]["extra_info"])
    assert list(tmp_path.iterdir()) == [path], "no temporary files left behind"
