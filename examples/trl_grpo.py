"""Train a small instruct model with TRL's GRPOTrainer on a gauntlet environment or task.

    pip install .  trl datasets          # gauntlet from this repository, TRL from PyPI
    python examples/trl_grpo.py frozen_lake --level 1 --model HuggingFaceTB/SmolLM2-135M-Instruct
    python examples/trl_grpo.py sudoku,countdown --level 2

Environments and games go through TRL's environment_factory (the model acts by tool calls; its
chat template must support them, e.g. Qwen2.5/Qwen3 instruct models); tasks through gauntlet's
reward functions. Everything gauntlet-side is deterministic per seed. On a machine without a
GPU it trains on the CPU in float32 (slowly: use a small model and a few steps); `--cpu` forces
that.
"""

from __future__ import annotations

import argparse
from typing import Any

from trl import GRPOConfig, GRPOTrainer

import gauntlet.trl


def device_options(force_cpu: bool = False) -> dict[str, Any]:
    """GRPOConfig options for this machine: bf16 on a GPU that has it, fp16 on an older GPU,
    float32 on the CPU (TRL refuses bf16 there: "Your setup doesn't support bf16/gpu")."""
    import torch

    if force_cpu or not torch.cuda.is_available():
        return {"bf16": False, "fp16": False, "use_cpu": True}
    if torch.cuda.is_bf16_supported():
        return {"bf16": True, "fp16": False}
    return {"bf16": False, "fp16": True}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("name", help="a gauntlet environment, game or task (or tasks: 'sudoku,countdown')")
    p.add_argument("--level", type=int, default=1)
    p.add_argument("--model", default="Qwen/Qwen2.5-0.5B-Instruct")
    p.add_argument("--size", type=int, default=512, help="training prompts (episodes or rows)")
    p.add_argument("--steps", type=int, default=100)
    p.add_argument("--out", default="trl-out")
    p.add_argument("--cpu", action="store_true", help="train on the CPU even when a GPU is present")
    a = p.parse_args()
    device = device_options(a.cpu)
    print(f"training on {'the CPU' if device.get('use_cpu') else 'the GPU'}: {device}")

    # One object gives the trainer its dataset, reward functions and (for environments) the
    # environment class whose tools are the environment's actions.
    spec = gauntlet.trl.GauntletSpec(a.name, level=a.level, size=a.size)
    args = GRPOConfig(
        output_dir=a.out,
        max_steps=a.steps,
        per_device_train_batch_size=8,
        num_generations=8,  # the GRPO group: 8 completions of the same episode seed
        max_completion_length=512,  # for environments: the whole multi-turn episode
        logging_steps=1,
        report_to="none",
        **device,
    )
    trainer = GRPOTrainer(model=a.model, args=args, **spec.kwargs())
    trainer.train()
    trainer.save_model(a.out)


if __name__ == "__main__":
    main()
