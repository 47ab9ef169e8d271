"""gauntlet.verl.compute_score inside the real verl (PyPI `verl`): loaded by verl's own
custom-reward-function loader from `pkg://gauntlet.verl`, and called by verl's reward-loop
`naive` reward manager on a DataProto of tokenized responses, as in a training step.

Oracle answers score 1.0 and wrong answers 0.0 with gauntlet's logged fields; a row whose
`data_source` is not gauntlet's falls through to verl's default scorer (gsm8k here).
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

pytest.importorskip("verl")

import numpy as np
import torch
from omegaconf import OmegaConf
from verl import DataProto
from verl.experimental.reward_loop.reward_manager.naive import NaiveRewardManager
from verl.trainer.ppo.reward import get_custom_reward_fn

import gauntlet

GGUF = os.environ.get("GAUNTLET_SMOLLM2_GGUF", "")
CONFIG = OmegaConf.create(
    {
        "reward": {
            "custom_reward_function": {"path": "pkg://gauntlet.verl", "name": "compute_score", "reward_kwargs": {}}
        }
    }
)


def oracle_rows(name: str, n: int) -> list[tuple[dict, str]]:
    """Rows from gauntlet.rows with the oracle's answer of each."""
    data = gauntlet.create_dataset(name, size=n, seed=0, level=2)
    rows = gauntlet.rows(name, n, seed=0, level=2)
    return [(row, data[i]["answer"]) for i, row in enumerate(rows)]


def test_verls_loader_calls_compute_score_on_gauntlet_rows() -> None:
    score = get_custom_reward_fn(CONFIG)
    for row, answer in oracle_rows("countdown", 4) + oracle_rows("sudoku", 2):
        gt, extra = row["reward_model"]["ground_truth"], row["extra_info"]
        good = score(row["data_source"], f"Done. <answer>{answer}</answer>", gt, extra)
        bad = score(row["data_source"], "<answer>1 + 1</answer>", gt, extra)
        assert good["score"] == 1.0 and good["correct"] == 1 and good["format_error"] == 0
        assert bad["score"] == 0.0 and bad["correct"] == 0
        assert good["task"] == bad["task"] == row["data_source"].split("/", 1)[1]
    # Not gauntlet's: verl's default scorer (gsm8k reads the number after ####).
    other = score("openai/gsm8k", "so the answer is #### 42", "42", {})
    assert other["score"] == 1.0


@pytest.fixture(scope="module")
def tokenizer():
    if not GGUF or not Path(GGUF).is_file():
        pytest.skip("no SmolLM2 GGUF: set GAUNTLET_SMOLLM2_GGUF (scripts/test.sh fetches it)")
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(str(Path(GGUF).parent), gguf_file=Path(GGUF).name)


def test_verls_naive_reward_manager_scores_tokenized_responses(tokenizer) -> None:
    manager = NaiveRewardManager(CONFIG, tokenizer, get_custom_reward_fn(CONFIG))
    cases = [(row, f"<answer>{answer}</answer>", 1.0) for row, answer in oracle_rows("countdown", 3)]
    cases += [(row, "I do not know.", 0.0) for row, _ in oracle_rows("countdown", 2)]
    for row, text, want in cases:
        ids = tokenizer(text, add_special_tokens=False)["input_ids"]
        pad = 8  # right padding, masked out, as verl's batches have
        responses = torch.tensor([ids + [tokenizer.pad_token_id or 0] * pad])
        mask = torch.tensor([[1] * len(ids) + [0] * pad])
        data = DataProto.from_dict(
            tensors={"responses": responses, "attention_mask": mask},
            non_tensors={
                "data_source": np.array([row["data_source"]], dtype=object),
                "reward_model": np.array([row["reward_model"]], dtype=object),
                "extra_info": np.array([dict(row["extra_info"])], dtype=object),
            },
        )
        out = asyncio.get_event_loop().run_until_complete(manager.run_single(data))
        assert out["reward_score"] == want, (text, out)
        assert out["reward_extra_info"]["format_error"] == (1 if want == 0.0 else 0)
