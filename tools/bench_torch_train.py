#!/usr/bin/env python3
"""Training-throughput reference for gauntlet-model's `train_bench` example, in PyTorch (CPU).

Same architecture as the Rust benchmark: a Llama-style decoder (RMSNorm, half-layout RoPE,
causal grouped-query attention, SwiGLU MLP, untied lm_head) with vocab 256, hidden 128,
4 layers, 4 heads (4 kv heads), intermediate 344 (857,216 parameters); batch 32 x seq 64 of
random tokens; next-token cross-entropy; AdamW (lr 1e-3, weight decay 0.01); one step =
forward + backward + optimizer step. Prints one JSON line:

    {"impl": "torch", "ms_per_step": ..., "tokens_per_s": ..., "threads": ..., ...}

Usage:
    python3 -m venv /tmp/venv-torch && /tmp/venv-torch/bin/pip install torch
    /tmp/venv-torch/bin/python tools/bench_torch_train.py --threads 2 --steps 30

`--model HF_DIR` trains that pretrained `transformers` model (loaded as float32) instead, and
`--lora RANK` trains a `peft` LoRA adapter on it (alpha = 2 * rank, every projection, as
`train_bench --lora`), the base frozen; the vocabulary then comes from the model.

`--attention manual` spells attention out (matmul + mask + softmax) like the Rust model's
composite path; the default `sdpa` uses torch's fused scaled_dot_product_attention.
"""

import argparse
import json
import math
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class RMSNorm(nn.Module):
    def __init__(self, d, eps=1e-5):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.eps = eps

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def rope_tables(head_dim, max_pos, theta=10000.0):
    inv = theta ** (-torch.arange(0, head_dim, 2, dtype=torch.float64) / head_dim)
    ang = torch.arange(max_pos, dtype=torch.float64)[:, None] * inv[None, :]
    return ang.cos().float(), ang.sin().float()


def apply_rope(x, cos, sin):
    # x: [b, h, t, d]; cos/sin: [t, d/2]; pairs (i, i + d/2) as in Hugging Face.
    d = x.shape[-1] // 2
    x1, x2 = x[..., :d], x[..., d:]
    return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)


class Block(nn.Module):
    def __init__(self, hidden, heads, kv_heads, inter, attention):
        super().__init__()
        self.h, self.kv, self.d = heads, kv_heads, hidden // heads
        self.attention = attention
        self.input_layernorm = RMSNorm(hidden)
        self.q_proj = nn.Linear(hidden, heads * self.d, bias=False)
        self.k_proj = nn.Linear(hidden, kv_heads * self.d, bias=False)
        self.v_proj = nn.Linear(hidden, kv_heads * self.d, bias=False)
        self.o_proj = nn.Linear(heads * self.d, hidden, bias=False)
        self.post_attention_layernorm = RMSNorm(hidden)
        self.gate_proj = nn.Linear(hidden, inter, bias=False)
        self.up_proj = nn.Linear(hidden, inter, bias=False)
        self.down_proj = nn.Linear(inter, hidden, bias=False)

    def forward(self, x, cos, sin, mask):
        b, t, _ = x.shape
        n = self.input_layernorm(x)
        q = self.q_proj(n).view(b, t, self.h, self.d).transpose(1, 2)
        k = self.k_proj(n).view(b, t, self.kv, self.d).transpose(1, 2)
        v = self.v_proj(n).view(b, t, self.kv, self.d).transpose(1, 2)
        q, k = apply_rope(q, cos, sin), apply_rope(k, cos, sin)
        if self.kv != self.h:
            k = k.repeat_interleave(self.h // self.kv, dim=1)
            v = v.repeat_interleave(self.h // self.kv, dim=1)
        if self.attention == "sdpa":
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            s = q @ k.transpose(-1, -2) / math.sqrt(self.d) + mask
            y = torch.softmax(s, dim=-1) @ v
        x = x + self.o_proj(y.transpose(1, 2).reshape(b, t, -1))
        n = self.post_attention_layernorm(x)
        return x + self.down_proj(F.silu(self.gate_proj(n)) * self.up_proj(n))


class Llama(nn.Module):
    def __init__(self, vocab, hidden, layers, heads, kv_heads, inter, max_pos, attention):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.layers = nn.ModuleList(Block(hidden, heads, kv_heads, inter, attention) for _ in range(layers))
        self.norm = RMSNorm(hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)
        cos, sin = rope_tables(hidden // heads, max_pos)
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)
        for p in self.parameters():
            if p.dim() == 2:
                nn.init.normal_(p, std=0.02)

    def forward(self, ids):
        t = ids.shape[1]
        mask = torch.full((t, t), float("-inf")).triu(1)
        x = self.embed_tokens(ids)
        cos, sin = self.cos[:t], self.sin[:t]
        for layer in self.layers:
            x = layer(x, cos, sin, mask)
        return self.lm_head(self.norm(x))


def pretrained(folder, lora_rank):
    """A `transformers` causal LM from `folder` in float32, with a LoRA adapter when asked."""
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(folder, torch_dtype=torch.float32, attn_implementation="sdpa")
    if lora_rank is None:
        return model
    from peft import LoraConfig, get_peft_model

    targets = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]
    cfg = LoraConfig(r=lora_rank, lora_alpha=2 * lora_rank, lora_dropout=0.0, target_modules=targets)
    return get_peft_model(model, cfg)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--seq", type=int, default=64)
    ap.add_argument("--vocab", type=int, default=256)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--kv-heads", type=int, default=4)
    ap.add_argument("--intermediate", type=int, default=344)
    ap.add_argument("--attention", choices=["sdpa", "manual"], default="sdpa")
    ap.add_argument("--model", help="a transformers model folder to train instead of the tiny model")
    ap.add_argument("--lora", type=int, help="train a peft LoRA adapter of this rank (with --model)")
    args = ap.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    if args.model:
        model = pretrained(args.model, args.lora)
        args.vocab = model.config.vocab_size
    else:
        model = Llama(
            args.vocab,
            args.hidden,
            args.layers,
            args.heads,
            args.kv_heads,
            args.intermediate,
            args.seq + 1,
            args.attention,
        )
    params = sum(p.numel() for p in model.parameters())
    trainable = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(trainable, lr=1e-3, weight_decay=0.01)
    g = torch.Generator().manual_seed(0)
    ids = torch.randint(0, args.vocab, (args.batch, args.seq), generator=g)

    def step():
        logits = model(ids).logits if args.model else model(ids)
        loss = F.cross_entropy(logits[:, :-1].reshape(-1, args.vocab), ids[:, 1:].reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        return loss.item()

    for _ in range(args.warmup):
        step()
    times = []
    cpu0 = time.process_time()
    for _ in range(args.steps):
        t0 = time.perf_counter()
        loss = step()
        times.append(time.perf_counter() - t0)
    cpu_ms = 1000 * (time.process_time() - cpu0) / args.steps
    times.sort()
    ms = 1000 * times[len(times) // 2]
    print(
        json.dumps(
            {
                "impl": "torch",
                "torch": torch.__version__,
                "attention": args.attention,
                "threads": args.threads,
                "params": params,
                "trainable": sum(p.numel() for p in trainable),
                "lora_rank": args.lora,
                "model": args.model,
                "batch": args.batch,
                "seq": args.seq,
                "ms_per_step": round(ms, 2),
                "ms_per_step_mean": round(1000 * sum(times) / len(times), 2),
                "tokens_per_s": round(args.batch * args.seq / (ms / 1000)),
                "cpu_ms_per_step": round(cpu_ms, 1),
                "final_loss": round(loss, 4),
            }
        )
    )


if __name__ == "__main__":
    main()
