//! Sampling throughput of a GGUF chat model side by side: gauntlet, PyTorch `generate` and
//! llama.cpp on the same prompts, and the compute ceiling, in one run.
//!
//! ```text
//! cargo run --release -p gauntlet-model --example decode_bench -- --gguf SmolLM2-135M-Instruct.Q4_1.gguf \
//!     --threads 2 --batches 1,8,32 --new-tokens 64 --reps 3 \
//!     [--torch ~/.cache/gauntlet/venv-torch/bin/python] [--llama-cpp /tmp/venv-llama/bin/python]
//! ```
//!
//! Workload: `B` chat-templated prompts ("Write a short story about the number i.", 30 tokens
//! each with SmolLM2's template), sampled at temperature 0.8, every row decoding exactly
//! `--new-tokens` tokens (no stop token, so no engine gets credit for rows that stop early).
//! Each engine is timed twice per batch, for one new token (prefill + first token, `t1`) and
//! for `N` (`tN`), median of `--reps`:
//!
//! ```text
//! prefill tokens/s = prompt tokens / t1        decode tokens/s = B (N - 1) / (tN - t1)
//! ```
//!
//! gauntlet runs the model dequantized to `f32` (its default below 1B parameters) and, with
//! `--quantized`, re-quantized to Q8_0; PyTorch runs the same weights exported to a
//! `transformers` folder in `f32` (`tools/bench_torch_sample.py`); llama.cpp runs the GGUF file
//! itself (`tools/bench_llama_cpp.py`, llama-cpp-python, batch 1: its Python API decodes one
//! sequence). The ceiling is `2 × parameters` FLOPs per decoded token at the `f32` matmul rate
//! measured here on a 1024³ product. Decoding also reads every weight once per step for the whole
//! batch, so the memory read rate bounds it too: the roofline of a row is
//!
//! ```text
//! min(compute ceiling, B × read GB/s / weight bytes)    weight bytes = parameters × 4 (f32),
//!                                                         × 34/32 (Q8_0), × 20/32 (Q4_1)
//! ```
//!
//! with the read rate measured here (1 GiB summed by rayon's threads) and the keys and values
//! the step also reads left out (so the roofline is generous). Prints one JSON line per engine
//! and batch, then a table.

use std::time::Instant;

use anyhow::Context;
use candle_core::{Device, Tensor};
use gauntlet_model::{generate, ChatMessage, ChatModel, SamplingParams};

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned())
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// One engine's figures at one batch size.
struct Row {
    engine: String,
    batch: usize,
    prefill_tps: f64,
    decode_tps: f64,
}

/// Median seconds of `reps` runs of `f`.
fn timed(reps: usize, mut f: impl FnMut() -> anyhow::Result<()>) -> anyhow::Result<f64> {
    let mut secs = Vec::with_capacity(reps);
    for _ in 0..reps {
        let t0 = Instant::now();
        f()?;
        secs.push(t0.elapsed().as_secs_f64());
    }
    Ok(median(secs))
}

/// gauntlet's prefill and decode rates for `prompts` (see the module doc).
fn gauntlet_row(
    chat: &ChatModel,
    engine: &str,
    prompts: &[Vec<u32>],
    n: usize,
    reps: usize,
) -> anyhow::Result<Row> {
    let run = |max_tokens: usize| {
        let p = SamplingParams { temperature: 0.8, max_tokens, seed: 1, ..Default::default() };
        timed(reps, || {
            let out = generate(&chat.model, &chat.tokenizer, prompts, &p)?;
            anyhow::ensure!(out.iter().all(|c| c.tokens.len() == max_tokens), "a row stopped early");
            Ok(())
        })
    };
    run(1)?; // warm-up
    let (t1, tn) = (run(1)?, run(n)?);
    let b = prompts.len();
    let prompt_tokens: usize = prompts.iter().map(Vec::len).sum();
    Ok(Row {
        engine: engine.into(),
        batch: b,
        prefill_tps: prompt_tokens as f64 / t1,
        decode_tps: (b * (n - 1)) as f64 / (tn - t1),
    })
}

/// The `f32` matmul rate of this machine through candle, GFLOP/s: the fastest of 10 1024³
/// products after a warm-up, before the model is loaded. The fastest, so the ceiling is the
/// machine's best and a ratio to it errs low: the median of 5 taken after loading the model
/// ranged from 305 to 440 GFLOP/s between runs here, with the allocator in another state.
fn matmul_gflops() -> anyhow::Result<f64> {
    let dev = Device::Cpu;
    let a = Tensor::randn(0f32, 1.0, (1024, 1024), &dev)?;
    let b = Tensor::randn(0f32, 1.0, (1024, 1024), &dev)?;
    a.matmul(&b)?;
    let mut best = f64::INFINITY;
    for _ in 0..10 {
        let t0 = Instant::now();
        a.matmul(&b)?;
        best = best.min(t0.elapsed().as_secs_f64());
    }
    Ok(2.0 * 1024f64.powi(3) / best / 1e9)
}

/// The memory read rate of this machine, GB/s: 1 GiB of `f32` summed by rayon's threads, 16
/// independent sums per chunk so the adds vectorize (median of 5).
fn read_gbs() -> anyhow::Result<f64> {
    use rayon::prelude::*;
    let data = vec![1f32; 1 << 28];
    let sum = || -> f32 {
        data.par_chunks(1 << 16)
            .map(|c| {
                let mut acc = [0f32; 16];
                for x in c.chunks_exact(16) {
                    for (a, v) in acc.iter_mut().zip(x) {
                        *a += v;
                    }
                }
                acc.iter().sum::<f32>()
            })
            .sum()
    };
    std::hint::black_box(sum());
    let secs = timed(5, || {
        std::hint::black_box(sum());
        Ok(())
    })?;
    Ok((data.len() * 4) as f64 / secs / 1e9)
}

/// Bytes per parameter of an engine's weights (see the module doc).
fn weight_bytes(engine: &str) -> f64 {
    if engine.contains("Q8_0") {
        34.0 / 32.0
    } else if engine.contains("llama.cpp") {
        20.0 / 32.0
    } else {
        4.0
    }
}

/// Runs a Python side (`script` in `tools/`) and parses its JSON lines into rows.
fn python_rows(python: &str, script: &str, extra: &[String]) -> anyhow::Result<Vec<Row>> {
    let path = format!("{}/../../tools/{script}", env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new(python)
        .arg(&path)
        .args(extra)
        .output()
        .with_context(|| format!("run `{python} {path}`"))?;
    anyhow::ensure!(out.status.success(), "{script} failed: {}", String::from_utf8_lossy(&out.stderr));
    let mut rows = Vec::new();
    for line in String::from_utf8(out.stdout)?.lines().filter(|l| l.starts_with('{')) {
        println!("{line}");
        let v: serde_json::Value = serde_json::from_str(line)?;
        rows.push(Row {
            engine: v["engine"].as_str().context("`engine` missing")?.to_string(),
            batch: v["batch"].as_u64().context("`batch` missing")? as usize,
            prefill_tps: v["prefill_tokens_per_s"].as_f64().context("`prefill_tokens_per_s` missing")?,
            decode_tps: v["decode_tokens_per_s"].as_f64().context("`decode_tokens_per_s` missing")?,
        });
    }
    Ok(rows)
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let gguf = arg(&args, "--gguf").context("--gguf FILE is required")?;
    let threads: usize = arg(&args, "--threads").map(|s| s.parse()).transpose()?.unwrap_or(2);
    let n: usize = arg(&args, "--new-tokens").map(|s| s.parse()).transpose()?.unwrap_or(64);
    let reps: usize = arg(&args, "--reps").map(|s| s.parse()).transpose()?.unwrap_or(3);
    let batches: Vec<usize> = arg(&args, "--batches")
        .unwrap_or_else(|| "1,8,32".into())
        .split(',')
        .map(str::parse)
        .collect::<Result<_, _>>()?;
    anyhow::ensure!(n >= 2, "--new-tokens must be at least 2");
    std::env::set_var("RAYON_NUM_THREADS", threads.to_string());
    gauntlet_model::limit_candle_spinning();
    // On a worker of the pool, as `gauntlet train` and `eval` run the model (`gauntlet_model::on_pool`):
    // parallel loops then start from inside it.
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).stack_size(8 << 20).build()?;
    pool.install(|| bench(&args, &gguf, threads, n, reps, &batches))
}

/// The whole measurement: gauntlet's rows, then PyTorch's and llama.cpp's, then the table.
fn bench(
    args: &[String],
    gguf: &str,
    threads: usize,
    n: usize,
    reps: usize,
    batches: &[usize],
) -> anyhow::Result<()> {
    let dev = Device::Cpu;
    let gflops = matmul_gflops()?;
    let chat = gauntlet_model::gguf::load(gguf, &dev)?;
    let most = batches.iter().copied().max().unwrap_or(1);
    let mut prompts = Vec::with_capacity(most);
    for i in 0..most {
        let conv = [ChatMessage::new("user", format!("Write a short story about the number {i}."))];
        prompts.push(chat.tokenizer.encode(&chat.template.render(&conv, true)?)?);
    }
    let params = chat.model.cfg.num_parameters();
    let ceiling = gflops * 1e9 / (2.0 * params as f64);
    let gbs = read_gbs()?;
    println!(
        "{{\"matmul_gflops\": {gflops:.1}, \"read_gb_per_s\": {gbs:.1}, \"parameters\": {params}, \"decode_ceiling_tokens_per_s\": {ceiling:.0}}}"
    );
    let roofline = |engine: &str, batch: usize| -> f64 {
        ceiling.min(batch as f64 * gbs * 1e9 / (params as f64 * weight_bytes(engine)))
    };

    let mut rows = Vec::new();
    for &b in batches {
        rows.push(gauntlet_row(&chat, "gauntlet f32", &prompts[..b], n, reps)?);
    }
    if args.iter().any(|a| a == "--quantized") {
        let q = gauntlet_model::gguf::load_with(gguf, &dev, 0)?;
        for &b in batches {
            rows.push(gauntlet_row(&q, "gauntlet Q8_0", &prompts[..b], n, reps)?);
        }
    }
    let prompt_file = std::env::temp_dir().join(format!("decode_bench-prompts-{}.json", std::process::id()));
    std::fs::write(&prompt_file, serde_json::to_string(&prompts)?)?;
    let common = |batches: &str| -> Vec<String> {
        let mut v: Vec<String> = ["--prompts", &prompt_file.display().to_string(), "--threads"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        v.extend([
            threads.to_string(),
            "--new-tokens".into(),
            n.to_string(),
            "--reps".into(),
            reps.to_string(),
        ]);
        v.extend(["--batches".into(), batches.to_string()]);
        v
    };
    let batch_list = batches.iter().map(usize::to_string).collect::<Vec<_>>().join(",");
    let result = (|| -> anyhow::Result<()> {
        if let Some(python) = arg(args, "--torch") {
            let folder = std::env::temp_dir().join(format!("decode_bench-hf-{}", std::process::id()));
            gauntlet_model::pretrained::export(&format!("gguf:{gguf}"), None, &folder)?;
            let mut extra = common(&batch_list);
            extra.extend(["--model".into(), folder.display().to_string()]);
            let r = python_rows(&python, "bench_torch_sample.py", &extra);
            let _ = std::fs::remove_dir_all(&folder);
            rows.extend(r?);
        }
        if let Some(python) = arg(args, "--llama-cpp") {
            let mut extra = common("1");
            extra.extend(["--gguf".into(), gguf.to_string()]);
            rows.extend(python_rows(&python, "bench_llama_cpp.py", &extra)?);
        }
        Ok(())
    })();
    let _ = std::fs::remove_file(&prompt_file);
    result?;

    println!("\n| engine | batch | prefill tokens/s | decode tokens/s | decode / ceiling | roofline | decode / roofline |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for r in &rows {
        let roof = roofline(&r.engine, r.batch);
        println!(
            "| {} | {} | {:.0} | {:.1} | {:.0}% | {:.0} | {:.0}% |",
            r.engine,
            r.batch,
            r.prefill_tps,
            r.decode_tps,
            100.0 * r.decode_tps / ceiling,
            roof,
            100.0 * r.decode_tps / roof
        );
    }
    Ok(())
}
