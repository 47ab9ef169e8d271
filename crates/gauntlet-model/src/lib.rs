//! # gauntlet-model
//!
//! Candle transformer policies for gauntlet: one Llama-style decoder that loads real
//! checkpoints and trains from scratch, plus everything needed to drive it as an agent.
//!
//! - [`Llama`] ([`llama`]): RoPE, RMSNorm, SwiGLU, grouped-query attention; [`Config`] and
//!   tensor names follow Hugging Face `config.json`/`model.safetensors` for Llama, Qwen2 and
//!   Qwen3.
//! - [`logprobs`]: differentiable log-probs and entropies of given tokens.
//! - [`sampling`]: batched sampling with a [`KvCache`] (temperature, top-p, top-k, stop
//!   strings, max tokens), seeded, returning behaviour log-probs; [`generate_rows`] gives each
//!   row its own knobs and reports tokens as they are drawn (for the policy server);
//!   [`generate_rows_reusing`] continues rows from a [`PrefixStore`] of earlier calls' keys and
//!   values ([`prefix_store`]), so a multi-turn prompt prefills only its new tokens.
//! - [`checkpoint`]: seeded initialisation, loading and atomic saving in the HF layout.
//! - [`pretrained`]: model specs (HF folder of Llama/Qwen2/Qwen3, `gguf:FILE` dequantized to
//!   trainable weights, LoRA adapter folders), `${VAR:-default}` expansion, merged export.
//! - [`lora`]: LoRA adapters in the PEFT layout (attach, save, load, merge).
//! - [`Tokenizer`] ([`tokenizer`]): a byte-level tokenizer for from-scratch models and
//!   `tokenizer.json` for pretrained ones; [`ChatTemplate`] renders `tokenizer_config.json`'s
//!   Jinja chat template with minijinja.
//! - [`gguf`]: GGUF models (llama.cpp files, e.g. SmolLM2-135M-Instruct Q4_1) behind the same
//!   model type and sampling interface, for inference (dequantized to `f32` up to 1B parameters,
//!   quantized kernels above).
//!
//! Compatibility with `transformers` is checked against reference logits of tiny random Llama
//! and Qwen2 checkpoints written by `tests/fixtures/make_hf_fixtures.py`.
//!
//! Design choice: candle's fused CPU ops (`rms_norm`, `softmax_last_dim`, `rope`, `sdpa`) have
//! no backward, so a model built on them trains only its `lm_head`. Every op here is either an
//! elementary candle op or a kernel of [`fused`] with a hand-written backward, checked against
//! the elementary version; a test asserts that every parameter gets a finite, non-zero gradient.
//!
//! Performance notes (measured in `docs/benchmarks.md`): benchmark release builds only (the
//! workspace's dev profile keeps `debug-assertions` in candle and gemm, halving their speed), and
//! run training binaries with
//! `GLIBC_TUNABLES=glibc.malloc.mmap_threshold=4294967295:glibc.malloc.trim_threshold=4294967295`
//! so that glibc keeps freed activations instead of page-faulting them back every step.
//!
//! ```
//! use candle_core::{Device, Tensor};
//! use gauntlet_model::{checkpoint, Config};
//! let cfg = Config::tiny(260);
//! let (model, _vars) = checkpoint::new_model(&cfg, &Device::Cpu, 7).unwrap();
//! let ids = Tensor::new(&[[1u32, 2, 3]], &Device::Cpu).unwrap();
//! let logits = model.forward(&ids, None).unwrap();
//! assert_eq!(logits.dims(), &[1, 3, 260]);
//! ```
#![deny(missing_docs)]

mod attention;
mod chat_template;
pub mod checkpoint;
mod config;
mod error;
pub mod fused;
pub mod gguf;
mod kv_cache;
mod llama;
pub mod logprobs;
pub mod lora;
pub mod prefix_store;
pub mod pretrained;
mod remat;
pub mod rope;
pub mod sampling;
mod tokenizer;

pub use attention::{causal_mask, masked_softmax_slow, Attention, Linear, MASK_NEG};
pub use chat_template::{ChatMessage, ChatTemplate, CHATML};
pub use config::{Config, RopeStyle};
pub use error::{Error, Result};
pub use kv_cache::{KvCache, RowPrefix};
pub use llama::{rms_norm_slow, Block, Llama, Mlp};
pub use prefix_store::PrefixStore;
pub use remat::Remat;
pub use sampling::{
    generate, generate_rows, generate_rows_reusing, generate_seeded, ChatModel, Completion, FinishReason,
    Row, RowEvent, SamplingParams,
};
pub use tokenizer::{Tokenizer, SPECIAL_TOKENS};

/// Runs `f` on a worker of rayon's global pool and waits for it (runs it in place on a worker).
///
/// A parallel loop started from outside the pool queues its work, wakes every sleeping worker
/// and puts the caller to sleep until they finish: three thread switches per loop, about as
/// long as a decoding step's small projections (a 960×576 projection of 8 rows on 2 threads took
/// 0.065 ms from outside the pool and 0.036 ms from inside). From inside, the calling worker
/// takes its own share and only the others wake. Which thread computes a share never changes
/// its result: runs are the same to the bit either way. `gauntlet train` runs on it, and
/// `LocalPolicy` samples on it.
///
/// `f` must not wait on other threads that use the pool: with one worker (`--threads 1`) the
/// worker running `f` would wait on them while they wait for it. That is why `gauntlet eval`,
/// whose lanes each play on a thread of their own, enters the pool only where a lane samples.
pub fn on_pool<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    rayon::scope(|_| f())
}

/// Polls `ready` until it gives a value, sleeping `idle` between polls when there is nothing
/// else to do. On a worker of rayon's pool ([`on_pool`]) the wait runs the pool's pending work
/// instead of holding the worker: what is being waited for (another thread's sampling, a
/// policy server's batch) may compute on the same pool, and with one worker a blocked wait would
/// never end. Off the pool it only polls.
pub fn wait_on_pool<T>(idle: std::time::Duration, mut ready: impl FnMut() -> Option<T>) -> T {
    loop {
        if let Some(x) = ready() {
            return x;
        }
        if rayon::yield_now() != Some(rayon::Yield::Executed) {
            std::thread::sleep(idle);
        }
    }
}

/// How many times a worker of candle's elementwise thread pool spins before it parks when there
/// is no work. candle's default, 25,000, keeps a worker spinning through the matmul that usually
/// follows an elementwise op, taking a core from it on a small machine: with 100, a LoRA training
/// step of SmolLM2-135M on 2 cores took 5–10% less wall time and 15% less CPU time
/// (`docs/benchmarks.md`).
pub const CANDLE_SPIN_LIMIT: u32 = 100;

/// Sets `CANDLE_BARRIER_POOL_SPIN_LIMIT` to [`CANDLE_SPIN_LIMIT`] unless the user has set it.
/// candle reads it when its pool starts, at the first parallel elementwise op: call this at the
/// start of `main`, before other threads exist.
pub fn limit_candle_spinning() {
    if std::env::var_os("CANDLE_BARRIER_POOL_SPIN_LIMIT").is_none() {
        std::env::set_var("CANDLE_BARRIER_POOL_SPIN_LIMIT", CANDLE_SPIN_LIMIT.to_string());
    }
}

#[cfg(test)]
mod tests;
