"""Tasks through Python: reasoning-gym call shapes, oracle answers, near misses, rows, batches."""

from __future__ import annotations

import contextlib
import json
import pickle
import subprocess

import pytest

import gauntlet
from gauntlet.errors import BadProblemError, BadRowError, ConfigError, InvalidLevelError, UnknownTaskError

TASKS = gauntlet.list_tasks()


def test_listing_is_not_empty_and_specs_have_five_levels():
    assert len(TASKS) >= 20
    info = gauntlet.task_info("sudoku")
    assert info["name"] == "sudoku"
    assert len(info["levels"]) == 5


@pytest.mark.parametrize("name", TASKS)
def test_oracle_scores_one_at_every_level_and_wrong_answers_lower(name):
    for level in range(1, 6):
        data = gauntlet.create_dataset(name, size=3, seed=11, level=level)
        for entry in data:
            assert set(entry) == {"question", "answer", "metadata"}
            meta = entry["metadata"]
            assert meta["task"] == name
            assert meta["level"] == level
            assert data.score_answer(entry["answer"], entry) == 1.0, (name, level, entry["answer"])
            # The full response form scores the same.
            assert data.score_answer(f"think...<answer>{entry['answer']}</answer>", entry) == 1.0
            assert data.score_answer(None, entry) == 0.0
            assert data.score_answer("", entry) == 0.0
            assert data.score_answer("I do not know", entry) < 1.0
            # Leftover tokens after a correct answer are not forgiven (answer-format policy).
            assert data.score_answer(entry["answer"] + " maybe", entry) < 1.0


def test_sudoku_near_miss_scores_zero():
    data = gauntlet.create_dataset("sudoku", size=5, seed=3, level=2)
    for entry in data:
        ans = entry["answer"]
        i = next(k for k, c in enumerate(ans) if c.isdigit())
        wrong = ans[:i] + ("1" if ans[i] != "1" else "2") + ans[i + 1 :]
        v = data.verify(wrong, entry)
        assert v.reward == 0.0 and not v.correct and not v.format_error, v


def test_entries_are_deterministic_indexable_and_lazy():
    a = gauntlet.create_dataset("countdown", size=100_000, seed=5, level=2)
    b = gauntlet.create_dataset("countdown", size=100_000, seed=5, level=2)
    assert len(a) == 100_000
    assert a[99_999] == b[-1]
    assert a[3] == a[0:5][3]
    assert a[3]["metadata"]["seed"] == 8
    assert a[3]["metadata"]["source_index"] == 3
    assert a[1]["question"] != a[2]["question"]
    with pytest.raises(IndexError):
        a[100_000]


def test_iteration_matches_indexing():
    d = gauntlet.create_dataset("zebra", size=300, seed=9, level=1)
    items = list(d)
    assert len(items) == 300
    assert items[257] == d[257]


def test_pickling_round_trips():
    d = gauntlet.create_dataset("maze", size=10, seed=1, level=3)
    e = pickle.loads(pickle.dumps(d))
    assert e[4] == d[4]
    assert len(e) == 10
    entry = pickle.loads(pickle.dumps(d[2]))
    assert d.score_answer(entry["answer"], entry) == 1.0


def test_get_score_answer_fn_and_composite():
    d = gauntlet.create_dataset(
        "composite",
        size=60,
        seed=2,
        datasets=[{"name": "sudoku", "weight": 1, "level": 2}, gauntlet.DatasetSpec("knights_knaves", 2.0), "maze"],
    )
    seen = set()
    for entry in d:
        task = entry["metadata"]["source_dataset"]
        seen.add(task)
        fn = gauntlet.get_score_answer_fn(task)
        assert fn(entry["answer"], entry) == 1.0
        assert d.score_answer(entry["answer"], entry) == 1.0
        if task == "sudoku":
            assert entry["metadata"]["level"] == 2
    assert seen == {"sudoku", "knights_knaves", "maze"}
    again = gauntlet.create_dataset("composite", size=60, seed=2, datasets=d.__reduce__()[1][0])
    assert list(again) == list(d)
    assert pickle.loads(pickle.dumps(d))[17] == d[17]


def test_errors_say_what_to_fix():
    with pytest.raises(UnknownTaskError) as e:
        gauntlet.create_dataset("sudokuu")
    assert "did you mean `sudoku`" in str(e.value)
    assert e.value.suggestions[0] == "sudoku"
    assert isinstance(e.value, KeyError)
    assert e.value.field == "name"
    with pytest.raises(InvalidLevelError, match=r"1\.\.=5"):
        gauntlet.create_dataset("sudoku", level=0)
    with pytest.raises(ValueError, match=r"1\.\.=5"):
        gauntlet.create_dataset("sudoku", level=6)
    with pytest.raises(ConfigError, match="min_empty"):  # the error lists the options sudoku takes
        gauntlet.create_dataset("sudoku", difficulty=3)
    with pytest.raises(ConfigError, match="size"):
        gauntlet.create_dataset("sudoku", size=-1)
    with pytest.raises(BadProblemError, match="sudoku"):
        gauntlet.verify("sudoku", '{"nope": 1}', "<answer>1</answer>")
    with pytest.raises(BadProblemError, match="not valid JSON"):
        gauntlet.verify("sudoku", "{", "<answer>1</answer>")
    with pytest.raises(BadRowError) as e:
        gauntlet.verify_batch([{"data_source": "gauntlet/sudoku"}], ["x"])
    assert e.value.field == "reward_model"
    with pytest.raises(BadRowError, match="response"):
        gauntlet.verify_batch(gauntlet.rows("sudoku", 1))


def test_fuzzed_inputs_raise_python_errors_never_abort():
    rows = gauntlet.rows(TASKS, 1, seed=4, level=2)
    junk = [
        "",
        "<answer></answer>",
        "<answer>" + "9" * 10_000 + "</answer>",
        "<answer>\u0000\u00ff💥</answer>",
        "<answer><answer>1</answer>",
        "}{][",
        "<answer>-1 -1 -1</answer>",
    ]
    for row in rows:
        task = row["extra_info"]["task"]
        gt = row["reward_model"]["ground_truth"]
        for j in junk:
            v = gauntlet.verify(task, gt, j)
            assert v.reward <= 1.0
        problem = json.loads(gt)
        for bad in ([], 3, "x", {"a": [1, 2]}, {k: None for k in problem} if isinstance(problem, dict) else None):
            with contextlib.suppress(BadProblemError):
                gauntlet.verify(task, json.dumps(bad), "<answer>1</answer>")


def test_rows_have_the_verl_trl_columns_and_verify_batch_scores_them():
    rows = gauntlet.rows(["sudoku", "maze"], count=4, seed=7, level=2)
    assert len(rows) == 8
    r = rows[5]
    assert r["data_source"] == "gauntlet/maze"
    assert r["prompt"][0]["role"] == "user"
    assert r["reward_model"]["style"] == "rule"
    assert r["extra_info"] == {"task": "maze", "seed": 8, "level": 2, "index": 5}
    data = gauntlet.create_dataset("maze", size=4, seed=7, level=2)
    assert data[1]["question"] == r["prompt"][0]["content"]
    assert json.loads(data[1]["metadata"]["problem"]) == json.loads(r["reward_model"]["ground_truth"])
    oracle = [
        "<answer>"
        + gauntlet.create_dataset(x["extra_info"]["task"], size=1, seed=x["extra_info"]["seed"], level=2)[0]["answer"]
        + "</answer>"
        for x in rows
    ]
    verdicts = gauntlet.verify_batch(rows, oracle)
    assert all(v.correct and v.reward == 1.0 for v in verdicts)
    bad = gauntlet.verify_batch([dict(x, response="<answer>no</answer>") for x in rows], threads=1)
    assert not any(v.correct for v in bad)
    assert gauntlet.verify_batch(rows, oracle, threads=1) == gauntlet.verify_batch(rows, oracle, threads=2)


def test_verify_batch_reads_every_row_layout_the_same_way_on_any_thread_count():
    """Rows read in Rust (plain dicts) and through the Python layer (other mappings, a dict
    ground truth) give the same verdicts; batches span several pipelined chunks."""
    from types import MappingProxyType

    rows = gauntlet.rows(["sudoku", "countdown", "maze"], count=80, seed=3, level=2)
    entries = [
        gauntlet.create_dataset(r["extra_info"]["task"], size=1, seed=r["extra_info"]["seed"], level=2)[0] for r in rows
    ]
    oracle = [f"<answer>{e['answer']}</answer>" for e in entries]
    want = gauntlet.verify_batch(rows, oracle, threads=1)
    assert len(want) == 240 and all(v.correct for v in want)
    assert all(type(v) is gauntlet.Verdict and v == gauntlet.Verdict(1.0, True, False, "ok") for v in want)
    wrong = gauntlet.verify_batch(rows, ["<answer>1</answer>"] * 240, threads=2)
    assert all(type(v) is gauntlet.Verdict and v.reward == 0.0 and not v.correct and v.reason for v in wrong)
    for threads in (0, 2, 3):
        assert gauntlet.verify_batch(rows, oracle, threads=threads) == want
    assert gauntlet.verify_batch(entries, oracle, threads=2) == want
    proxied = [MappingProxyType(r) for r in rows]
    assert gauntlet.verify_batch(proxied, oracle, threads=2) == want
    as_dicts = [
        dict(r, reward_model=dict(r["reward_model"], ground_truth=json.loads(r["reward_model"]["ground_truth"])))
        for r in rows
    ]
    assert gauntlet.verify_batch(as_dicts, oracle, threads=2) == want
    no_extra = [{k: v for k, v in r.items() if k != "extra_info"} for r in rows]
    assert gauntlet.verify_batch(no_extra, oracle, threads=2) == want
    with_response = [dict(r, response=o) for r, o in zip(rows, oracle, strict=True)]
    assert gauntlet.verify_batch(with_response, threads=2) == want

    class Answer:
        def __init__(self, text: str) -> None:
            self.text = text

        def __str__(self) -> str:
            return self.text

    assert gauntlet.verify_batch(rows, [Answer(o) for o in oracle], threads=2) == want


@pytest.mark.parametrize("threads", [1, 2])
def test_verify_batch_errors_name_the_row_deep_in_a_batch(threads):
    rows = gauntlet.rows("countdown", count=200, seed=1, level=1)
    ok = ["<answer>1</answer>"] * 200
    bad = list(rows)
    bad[150] = {"data_source": "gauntlet/countdown"}
    with pytest.raises(BadRowError, match="row 150") as e:
        gauntlet.verify_batch(bad, ok, threads=threads)
    assert e.value.field == "reward_model"
    bad[150] = dict(rows[150], reward_model={"ground_truth": "{"})
    with pytest.raises(BadProblemError, match=r"item 150.*not valid JSON"):
        gauntlet.verify_batch(bad, ok, threads=threads)
    bad[150] = dict(rows[150], data_source="gauntlet/countdwn", extra_info={})
    with pytest.raises(UnknownTaskError, match="item 150") as e:
        gauntlet.verify_batch(bad, ok, threads=threads)
    assert "countdown" in e.value.suggestions
    with pytest.raises(BadRowError, match="row 0: field `response`"):
        gauntlet.verify_batch(rows, threads=threads)
    with pytest.raises(BadRowError, match="199 responses for 200 rows"):
        gauntlet.verify_batch(rows, ok[:199], threads=threads)
    with pytest.raises(BadRowError, match="row 7: field `\\(row\\)`"):
        gauntlet.verify_batch([*rows[:7], 3, *rows[8:]], ok, threads=threads)
    assert gauntlet.verify_batch([], [], threads=threads) == []


def test_rows_are_byte_identical_to_the_cli(gauntlet_bin, tmp_path):
    for tasks, n, seed, level in [("sudoku", 5, 0, 1), ("countdown,zebra,maze", 7, 123, 3), ("all", 2, 9, 5)]:
        cli = subprocess.run(
            [gauntlet_bin, "generate", tasks, "-n", str(n), "--seed", str(seed), "--level", str(level)],
            check=True,
            capture_output=True,
            env={"NO_PROGRESS": "1"},
        ).stdout
        assert gauntlet.generate_jsonl(tasks, n, seed, level) == cli
        assert gauntlet.generate_jsonl(tasks, n, seed, level, threads=1) == cli
    out = tmp_path / "rows.jsonl"
    assert gauntlet.generate("sudoku", out, count=5) == 5
    assert out.read_bytes() == gauntlet.generate_jsonl("sudoku", 5)


def test_a_rust_panic_becomes_an_exception():
    from gauntlet import _core
    from gauntlet.errors import InternalError

    with pytest.raises(InternalError, match="boom"):
        _core._panic_for_tests("boom")
    # The interpreter and the module still work afterwards.
    assert gauntlet.list_tasks() == TASKS
