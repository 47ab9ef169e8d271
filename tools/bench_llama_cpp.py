#!/usr/bin/env python3
"""Sampling-throughput reference for gauntlet-model's `decode_bench` example: llama.cpp.

Runs the GGUF file itself through llama-cpp-python (one sequence: its Python API decodes one at a
time), on the first of the given prompts: prefill with `eval`, then `--new-tokens` rounds of
`sample` (temperature 0.8, top-k and top-p off) and `eval` of the sampled token. Times one new
token (`t1`) and all of them (`tN`), median of `--reps`, and prints one JSON line:

    {"engine": "llama.cpp", "batch": 1, "prefill_tokens_per_s": ..., "decode_tokens_per_s": ...}

with prefill = prompt tokens / t1 and decode = (N - 1) / (tN - t1).

Usage (llama-cpp-python builds llama.cpp from source for this CPU):
    python3 -m venv /tmp/venv-llama && /tmp/venv-llama/bin/pip install llama-cpp-python
    /tmp/venv-llama/bin/python tools/bench_llama_cpp.py --gguf FILE --prompts prompts.json --threads 2
"""

import argparse
import json
import statistics
import time

import llama_cpp


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gguf", required=True)
    ap.add_argument("--prompts", required=True, help="JSON list of token-id lists")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--new-tokens", type=int, default=64)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--batches", default="1", help="only batch 1 is measured")
    args = ap.parse_args()
    llm = llama_cpp.Llama(
        model_path=args.gguf, n_ctx=512, n_threads=args.threads, n_threads_batch=args.threads, seed=1, verbose=False
    )
    with open(args.prompts) as f:
        prompt = json.load(f)[0]

    def run(n: int) -> None:
        llm.reset()
        llm.eval(prompt)
        for _ in range(n):
            tok = llm.sample(temp=0.8, top_k=0, top_p=1.0, min_p=0.0)
            llm.eval([tok])

    def timed(n: int) -> float:
        run(n)  # warm-up
        secs = []
        for _ in range(args.reps):
            t0 = time.perf_counter()
            run(n)
            secs.append(time.perf_counter() - t0)
        return statistics.median(secs)

    # `run(n)` evaluates every sampled token, the last one included: t1 is prefill + one decode
    # step, so tN - t1 covers N - 1 decode steps, as for the other engines.
    t1, tn = timed(1), timed(args.new_tokens)
    print(
        json.dumps(
            {
                "engine": "llama.cpp (GGUF as is)",
                "batch": 1,
                "prefill_tokens_per_s": round(len(prompt) / t1, 1),
                "decode_tokens_per_s": round((args.new_tokens - 1) / (tn - t1), 1),
                "llama_cpp_python": llama_cpp.__version__,
            }
        ),
        flush=True,
    )


if __name__ == "__main__":
    main()
