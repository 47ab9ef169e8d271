"""gauntlet.algos against the golden fixtures `gauntlet advantages` is tested on."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from gauntlet import algos
from gauntlet.errors import AlgoError, UnknownEstimatorError

FIXTURE = Path(__file__).resolve().parents[2] / "crates/gauntlet-algos/tests/fixtures/advantages.json"
CASES = json.loads(FIXTURE.read_text())["cases"]

FLAG_TO_OPTION = {
    "--eps": "eps",
    "--gamma": "gamma",
    "--lambda": "lam",
    "--mode": "mode",
    "--step-weight": "step_weight",
    "--rae-decay": "rae_decay",
    "--task-balance": "task_balance",
}
SWITCHES = {"--no-std": "no_std", "--per-seat": "per_seat"}


def options(flags):
    out, i = {}, 0
    while i < len(flags):
        f = flags[i]
        if f in SWITCHES:
            out[SWITCHES[f]] = True
            i += 1
        else:
            v = flags[i + 1]
            out[FLAG_TO_OPTION[f]] = v if f in ("--mode", "--task-balance") else float(v)
            i += 2
    return out


def close(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert g == pytest.approx(w, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden_cases(case):
    out = algos.compute_advantages(case["estimator"], case["rows"], **options(case["flags"]))
    close([r["advantages"] for r in out], case["advantages"])
    if case.get("returns") is not None:
        close([r["returns"] for r in out], case["returns"])
    for o, r in zip(out, case["rows"], strict=True):
        assert {k: o[k] for k in r} == r


def test_every_estimator_is_covered():
    assert {c["estimator"] for c in CASES} >= {"grpo", "dr-grpo", "rloo", "reinforce-pp-baseline", "gae", "gigpo"}
    assert "grpo" in algos.ESTIMATORS
    assert "rae" in algos.ESTIMATORS


def test_same_numbers_as_the_cli(gauntlet_bin):
    for case in CASES[::7]:
        text = "".join(json.dumps(r) + "\n" for r in case["rows"])
        cli = subprocess.run(
            [gauntlet_bin, "advantages", "--estimator", case["estimator"], *case["flags"]],
            input=text.encode(),
            capture_output=True,
            check=True,
        ).stdout.decode()
        want = [json.loads(line)["advantages"] for line in cli.splitlines()]
        got = [
            r["advantages"] for r in algos.compute_advantages(case["estimator"], case["rows"], **options(case["flags"]))
        ]
        assert got == want


def test_numpy_inputs_and_outputs():
    np = pytest.importorskip("numpy")
    adv, ret = algos.advantages(
        "grpo", np.array([1.0, 0.0, 0.0, 0.0]), np.array([7, 7, 7, 7]), np.ones((4, 3)), as_numpy=True
    )
    assert ret is None
    assert isinstance(adv[0], np.ndarray)
    assert adv[0][0] == pytest.approx(1.499997, abs=1e-6)


def test_errors_name_the_problem():
    with pytest.raises(UnknownEstimatorError, match="did you mean `grpo`"):
        algos.advantages("grpoo", [1.0], ["a"], [[1]])
    with pytest.raises(AlgoError, match="`lam` does not apply to `grpo`"):
        algos.advantages("grpo", [1.0, 0.0], ["a", "a"], [[1], [1]], lam=0.9)
    with pytest.raises(AlgoError, match="mask"):
        algos.advantages("grpo", [1.0, 0.0], ["a", "a"], [[1], [2]])
    with pytest.raises(AlgoError, match="trajectories"):
        algos.advantages("gigpo", [1.0], ["a"], [[1]])
    with pytest.raises(AlgoError, match="score"):
        algos.compute_advantages("grpo", [{"group": "a", "mask": [1]}])
