//! Sampling throughput with the KV cache: generated tokens per second for a batch.
//!
//! ```text
//! cargo run --release -p gauntlet-model --example sample_bench -- --threads 2 --batch 8 \
//!     --max-tokens 128 [--gguf SmolLM2-135M-Instruct.Q4_1.gguf [--quantized]]
//! ```
//!
//! Without `--gguf` it samples from a random 0.86M-parameter model (the `train_bench`
//! architecture, byte tokenizer); with it, from the GGUF model through its chat template
//! (dequantized to `f32`, or kept quantized with `--quantized`).
//! Prints one JSON line per run.

use std::time::Instant;

use candle_core::Device;
use gauntlet_model::{checkpoint, generate, ChatMessage, Config, SamplingParams, Tokenizer};

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned())
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let threads: usize = arg(&args, "--threads").map(|s| s.parse()).transpose()?.unwrap_or(2);
    let batch: usize = arg(&args, "--batch").map(|s| s.parse()).transpose()?.unwrap_or(8);
    let max_tokens: usize = arg(&args, "--max-tokens").map(|s| s.parse()).transpose()?.unwrap_or(128);
    std::env::set_var("RAYON_NUM_THREADS", threads.to_string());
    gauntlet_model::limit_candle_spinning();
    let params = SamplingParams { temperature: 0.8, top_p: 0.95, max_tokens, seed: 1, ..Default::default() };
    let dev = Device::Cpu;
    let (name, t0, outs) = match arg(&args, "--gguf") {
        Some(path) => {
            let limit =
                if args.iter().any(|a| a == "--quantized") { 0 } else { gauntlet_model::gguf::DENSE_LIMIT };
            let chat = gauntlet_model::gguf::load_with(&path, &dev, limit)?;
            let convs: Vec<Vec<ChatMessage>> = (0..batch)
                .map(|i| vec![ChatMessage::new("user", format!("Write a short story about the number {i}."))])
                .collect();
            let t0 = Instant::now();
            (path, t0, chat.chat(&convs, &params)?)
        }
        None => {
            let mut cfg = Config::llama(260, 128, 4, 4, 4, 344);
            cfg.max_position_embeddings = 1024;
            let (model, _) = checkpoint::new_model(&cfg, &dev, 0)?;
            let tok = Tokenizer::bytes();
            let prompts: Vec<Vec<u32>> = (0..batch)
                .map(|i| tok.encode(&format!("<|im_start|>user\nprompt {i}<|im_end|>\n")))
                .collect::<Result<_, _>>()?;
            let t0 = Instant::now();
            ("random-0.86M".to_string(), t0, generate(&model, &tok, &prompts, &params)?)
        }
    };
    let secs = t0.elapsed().as_secs_f64();
    let tokens: usize = outs.iter().map(|c| c.tokens.len()).sum();
    println!(
        "{{\"model\": {:?}, \"threads\": {threads}, \"batch\": {batch}, \"max_tokens\": {max_tokens}, \"generated\": {tokens}, \"seconds\": {secs:.3}, \"tokens_per_s\": {:.1}}}",
        name,
        tokens as f64 / secs
    );
    if let Some(c) = outs.first() {
        eprintln!("sample 0: {:?}", c.text);
    }
    Ok(())
}
