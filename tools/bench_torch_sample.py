#!/usr/bin/env python3
"""Sampling-throughput reference for gauntlet-model's `decode_bench` example: PyTorch + transformers.

Loads a `transformers` model folder in float32 (`decode_bench` exports the GGUF it measures to
one), left-pads the given prompt token ids into a batch, and times `generate` (sampling at
temperature 0.8, every row producing exactly `--new-tokens` tokens) for one new token (`t1`) and
for all of them (`tN`), median of `--reps`. Prints one JSON line per batch size:

    {"engine": "pytorch f32", "batch": B, "prefill_tokens_per_s": ..., "decode_tokens_per_s": ...}

with prefill = prompt tokens / t1 and decode = B (N - 1) / (tN - t1).

Usage:
    python tools/bench_torch_sample.py --model HF_DIR --prompts prompts.json --threads 2 \\
        --new-tokens 64 --reps 3 --batches 1,8,32
"""

import argparse
import json
import statistics
import time

import torch
from transformers import AutoModelForCausalLM


def batch_inputs(prompts: list[list[int]], pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Left-padded input ids and attention mask for a list of token-id prompts."""
    longest = max(len(p) for p in prompts)
    ids = torch.full((len(prompts), longest), pad_id, dtype=torch.long)
    mask = torch.zeros((len(prompts), longest), dtype=torch.long)
    for i, p in enumerate(prompts):
        ids[i, longest - len(p) :] = torch.tensor(p)
        mask[i, longest - len(p) :] = 1
    return ids, mask


def timed(reps: int, fn) -> float:
    """Median wall seconds of `reps` calls of `fn`."""
    secs = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        secs.append(time.perf_counter() - t0)
    return statistics.median(secs)


def generate_secs(model, ids: torch.Tensor, mask: torch.Tensor, n: int, pad_id: int, reps: int) -> float:
    """Median seconds of `generate` producing exactly `n` sampled tokens per row (after a warm-up)."""

    def go() -> None:
        with torch.inference_mode():
            out = model.generate(
                input_ids=ids,
                attention_mask=mask,
                do_sample=True,
                temperature=0.8,
                top_p=1.0,
                top_k=0,
                max_new_tokens=n,
                min_new_tokens=n,
                pad_token_id=pad_id,
            )
        assert out.shape[1] == ids.shape[1] + n

    go()
    return timed(reps, go)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", required=True)
    ap.add_argument("--prompts", required=True, help="JSON list of token-id lists")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--new-tokens", type=int, default=64)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--batches", default="1,8,32")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(1)
    model = AutoModelForCausalLM.from_pretrained(args.model, torch_dtype=torch.float32).eval()
    with open(args.prompts) as f:
        prompts = json.load(f)
    pad_id = model.config.eos_token_id if model.config.pad_token_id is None else model.config.pad_token_id
    if isinstance(pad_id, list):
        pad_id = pad_id[0]
    for b in [int(x) for x in args.batches.split(",")]:
        ids, mask = batch_inputs(prompts[:b], pad_id)
        t1, tn = (generate_secs(model, ids, mask, n, pad_id, args.reps) for n in (1, args.new_tokens))
        prompt_tokens = sum(len(p) for p in prompts[:b])
        print(
            json.dumps(
                {
                    "engine": "pytorch f32",
                    "batch": b,
                    "prefill_tokens_per_s": round(prompt_tokens / t1, 1),
                    "decode_tokens_per_s": round(b * (args.new_tokens - 1) / (tn - t1), 1),
                    "torch": torch.__version__,
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
