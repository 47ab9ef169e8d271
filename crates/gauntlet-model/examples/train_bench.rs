//! Training throughput of a 0.86M-parameter Llama on the CPU: ms per forward + backward + AdamW
//! step, optionally against PyTorch on the same architecture and batch in the same run.
//!
//! ```text
//! cargo run --release -p gauntlet-model --example train_bench -- --threads 2 --steps 30 \
//!     [--torch /tmp/venv-torch/bin/python] [--composite] \
//!     [--model gguf:FILE|HF_DIR] [--batch B] [--seq T] [--lora RANK] [--composite-attention]
//! ```
//!
//! With `--torch` and `--model`, PyTorch trains the same pretrained model (a GGUF is exported to a
//! `transformers` folder first) at the same batch and sequence length, with a `peft` adapter of
//! the same rank and targets under `--lora`.
//!
//! `--model` trains a pretrained model (loaded as `f32`) instead of the tiny one; `--lora RANK`
//! trains a LoRA adapter (alpha = 2·rank, every projection) with the base frozen, so only the
//! adapter has gradients and AdamW state. `--batch` and `--seq` override 32 × 64.
//! `--composite-attention` keeps the attention matrices for the backward pass on long sequences
//! instead of the memory-efficient attention (`fused::memory_efficient_attention`, from
//! `attention::MEMORY_EFFICIENT_FROM` query × key pairs).
//!
//! Architecture (also in `tools/bench_torch_train.py`): vocab 256, hidden 128, 4 layers,
//! 4 heads, 4 kv heads, intermediate 344, untied head; batch 32 × seq 64 random tokens;
//! next-token cross-entropy; AdamW lr 1e-3, weight decay 0.01. Prints JSON lines; `cpu_ms_per_step`
//! (process CPU time) is the figure to compare when other processes share the cores. The run
//! re-executes itself with glibc malloc tunables that keep freed memory (`--system-malloc` to
//! measure without); the PyTorch child gets the same environment.

use std::time::Instant;

use anyhow::Context;
use candle_core::Var;
use candle_core::{Device, Tensor};
use gauntlet_model::fused::{adamw_step, AdamWStep};
use gauntlet_model::{checkpoint, logprobs::next_token_loss, lora, Config};

/// Large blocks from the heap (not `mmap`), and never trimmed back to the kernel.
const MALLOC_TUNABLES: &str = "glibc.malloc.mmap_threshold=4294967295:glibc.malloc.trim_threshold=4294967295";

/// AdamW (lr 1e-3, weight decay 0.01 on every parameter, β 0.9/0.999, ε 1e-8: PyTorch's and
/// candle-nn's defaults) through the in-place step the trainer's optimiser uses.
struct Adam {
    vars: Vec<(Var, Tensor, Tensor)>,
    t: i32,
}

impl Adam {
    fn new(vars: Vec<Var>) -> anyhow::Result<Self> {
        let zeros = |v: &Var| v.as_tensor().zeros_like();
        let vars =
            vars.into_iter().map(|v| Ok((zeros(&v)?, zeros(&v)?, v))).collect::<anyhow::Result<Vec<_>>>()?;
        Ok(Adam { vars: vars.into_iter().map(|(m, v, p)| (p, m, v)).collect(), t: 0 })
    }

    fn step(&mut self, grads: &candle_core::backprop::GradStore) -> anyhow::Result<()> {
        self.t += 1;
        let (b1, b2) = (0.9f64, 0.999f64);
        let s = AdamWStep {
            lr: 1e-3,
            beta1: b1,
            beta2: b2,
            eps: 1e-8,
            weight_decay: 0.01,
            c1: 1.0 - b1.powi(self.t),
            c2: 1.0 - b2.powi(self.t),
            grad_scale: 1.0,
        };
        for (p, m, v) in &self.vars {
            if let Some(g) = grads.get(p.as_tensor()) {
                anyhow::ensure!(
                    adamw_step(p.as_tensor(), m, v, g, &s)?,
                    "AdamW needs contiguous f32 CPU tensors"
                );
            }
        }
        Ok(())
    }
}

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned())
}

/// CPU seconds (user + system) this process has used, from `/proc/self/stat` (Linux; 0 elsewhere).
/// Unlike wall time it barely moves when other processes compete for the cores.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    // Fields 14 and 15 of the file (utime, stime) are the 12th and 13th after the `)`, in ticks
    // of 1/100 s.
    let tick = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    (tick(11) + tick(12)) / 100.0
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let threads: usize = arg(&args, "--threads").map(|s| s.parse()).transpose()?.unwrap_or(2);
    let steps: usize = arg(&args, "--steps").map(|s| s.parse()).transpose()?.unwrap_or(30);
    let warmup: usize = arg(&args, "--warmup").map(|s| s.parse()).transpose()?.unwrap_or(5);
    let composite = args.iter().any(|a| a == "--composite");
    // glibc returns large freed blocks to the kernel, so every step page-faults its activations
    // back in (a fifth of the step). Keep them: rerun this binary with malloc tunables set,
    // unless told not to (`--system-malloc`) or already done.
    if std::env::var_os("GLIBC_TUNABLES").is_none() && !args.iter().any(|a| a == "--system-malloc") {
        let status = std::process::Command::new(std::env::current_exe()?)
            .args(&args[1..])
            .env("GLIBC_TUNABLES", MALLOC_TUNABLES)
            .status()?;
        std::process::exit(status.code().unwrap_or(1));
    }
    // Both rayon's pool and candle's gemm read this before their first use.
    std::env::set_var("RAYON_NUM_THREADS", threads.to_string());
    gauntlet_model::limit_candle_spinning();

    let batch: usize = arg(&args, "--batch").map(|s| s.parse()).transpose()?.unwrap_or(32);
    let seq: usize = arg(&args, "--seq").map(|s| s.parse()).transpose()?.unwrap_or(64);
    let lora_rank: Option<usize> = arg(&args, "--lora").map(|s| s.parse()).transpose()?;
    let dev = Device::Cpu;
    let (mut model, vars, cfg) = match arg(&args, "--model") {
        Some(spec) => {
            let (chat, vars, cfg) = gauntlet_model::pretrained::load_base(&spec, &dev)?;
            (chat.model, vars, cfg)
        }
        None => {
            let mut cfg = Config::llama(256, 128, 4, 4, 4, 344);
            cfg.max_position_embeddings = seq + 1;
            let (model, vars) = checkpoint::new_model(&cfg, &dev, 0)?;
            (model, vars, cfg)
        }
    };
    let vocab = cfg.vocab_size;
    model.fused = !composite;
    // `--composite-attention`: keep the [b, h, t, T] attention matrices for the backward pass
    // even on long sequences (the memory-efficient attention's baseline).
    if args.iter().any(|a| a == "--composite-attention") {
        for block in &mut model.layers {
            block.self_attn.memory_efficient_from = usize::MAX;
        }
    }
    let vars = match lora_rank {
        Some(rank) => {
            let l = lora::LoraConfig { rank, alpha: 2.0 * rank as f64, ..Default::default() };
            lora::attach(&mut model, &l, 0)?
        }
        None => vars,
    };
    let trainable: usize = vars.all_vars().iter().map(|v| v.elem_count()).sum();
    let mut rng = gauntlet_core::Rng::new(0);
    let ids: Vec<u32> = (0..batch * seq).map(|_| rng.below(vocab as u64) as u32).collect();
    let ids = Tensor::from_vec(ids, (batch, seq), &dev)?;
    let mut opt = Adam::new(vars.all_vars())?;
    // Seconds spent in forward, backward and the optimizer step, over the timed steps.
    let mut parts = [0f64; 3];
    let mut step = |parts: &mut [f64; 3]| -> anyhow::Result<f32> {
        let t0 = Instant::now();
        let loss = next_token_loss(&model.forward(&ids, None)?, &ids, None)?;
        let t1 = Instant::now();
        let grads = loss.backward()?;
        let t2 = Instant::now();
        opt.step(&grads)?;
        let t3 = Instant::now();
        parts[0] += (t1 - t0).as_secs_f64();
        parts[1] += (t2 - t1).as_secs_f64();
        parts[2] += (t3 - t2).as_secs_f64();
        Ok(loss.to_scalar::<f32>()?)
    };
    for _ in 0..warmup {
        step(&mut [0f64; 3])?;
    }
    let mut times = Vec::with_capacity(steps);
    let mut loss = 0.0;
    let cpu0 = cpu_seconds();
    for _ in 0..steps {
        let t0 = Instant::now();
        loss = step(&mut parts)?;
        times.push(t0.elapsed().as_secs_f64());
    }
    let cpu_ms = 1000.0 * (cpu_seconds() - cpu0) / steps as f64;
    times.sort_by(f64::total_cmp);
    let ms = 1000.0 * times[times.len() / 2];
    let mean = 1000.0 * times.iter().sum::<f64>() / times.len() as f64;
    let tps = (batch * seq) as f64 / (ms / 1000.0);
    println!(
        "{{\"impl\": \"candle\", \"fused\": {}, \"threads\": {threads}, \"params\": {}, \"trainable\": {trainable}, \"lora_rank\": {}, \"batch\": {batch}, \"seq\": {seq}, \"ms_per_step\": {ms:.2}, \"ms_per_step_mean\": {mean:.2}, \"tokens_per_s\": {tps:.0}, \"cpu_ms_per_step\": {cpu_ms:.1}, \"final_loss\": {loss:.4}, \"ms_forward\": {:.2}, \"ms_backward\": {:.2}, \"ms_optimizer\": {:.2}}}",
        !composite,
        cfg.num_parameters(),
        lora_rank.map(|r| r.to_string()).unwrap_or_else(|| "null".into()),
        1000.0 * parts[0] / steps as f64,
        1000.0 * parts[1] / steps as f64,
        1000.0 * parts[2] / steps as f64,
    );
    if let Some(python) = arg(&args, "--torch") {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tools/bench_torch_train.py");
        let mut cmd = std::process::Command::new(&python);
        cmd.args([script, "--threads", &threads.to_string(), "--steps", &steps.to_string()]).args([
            "--warmup",
            &warmup.to_string(),
            "--batch",
            &batch.to_string(),
            "--seq",
            &seq.to_string(),
        ]);
        // The same pretrained model as a `transformers` folder (a GGUF is exported to one first).
        let exported = std::env::temp_dir().join(format!("train_bench-hf-{}", std::process::id()));
        if let Some(spec) = arg(&args, "--model") {
            let folder = match spec.strip_prefix("gguf:") {
                Some(_) => {
                    gauntlet_model::pretrained::export(&spec, None, &exported)?;
                    exported.display().to_string()
                }
                None => spec,
            };
            cmd.args(["--model", &folder]);
        }
        if let Some(rank) = lora_rank {
            cmd.args(["--lora", &rank.to_string()]);
        }
        let out = cmd.output().with_context(|| format!("run `{python}`"));
        let _ = std::fs::remove_dir_all(&exported);
        let out = out?;
        anyhow::ensure!(
            out.status.success(),
            "torch benchmark failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let line = String::from_utf8(out.stdout)?;
        println!("{}", line.trim());
        let torch: serde_json::Value = serde_json::from_str(line.trim())?;
        let torch_ms = torch["ms_per_step"].as_f64().context("torch output lacks ms_per_step")?;
        let torch_cpu = torch["cpu_ms_per_step"].as_f64().unwrap_or(f64::NAN);
        println!(
            "{{\"candle_throughput_vs_torch\": {:.3}, \"by_cpu_time\": {:.3}}}",
            torch_ms / ms,
            torch_cpu / cpu_ms
        );
    }
    Ok(())
}
