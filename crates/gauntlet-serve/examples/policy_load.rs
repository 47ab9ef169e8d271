//! Load generator for the policy server (`gauntlet serve policy`): requests/s, completion
//! tokens/s and latency percentiles at a fixed concurrency, against a server in another process.
//!
//! ```sh
//! # the tiny random model of the tests (vocabulary 260, hidden 64, 2 layers), saved once
//! cargo run --release -p gauntlet-serve --example policy_load -- --save-tiny /tmp/tiny
//! gauntlet serve policy --model /tmp/tiny --port 8000 &
//! cargo run --release -p gauntlet-serve --example policy_load -- --url http://127.0.0.1:8000/v1 \
//!     --model tiny [--clients 16] [--seconds 10] [--max-tokens 32] [--stream]
//! ```
//!
//! Each client loops: one chat completion (a fixed short conversation, `temperature` 1, its own
//! seed every time, `max_tokens` as given, `logprobs: true`), waits for the whole answer (or the
//! whole stream), and records the latency. Every answer is checked (status 200, as many log-probs
//! as completion tokens); failures are counted and make the exit status 1.

use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

struct Opts {
    url: String,
    model: String,
    clients: usize,
    seconds: f64,
    max_tokens: usize,
    stream: bool,
}

fn parse() -> Result<Option<Opts>, String> {
    let mut o = Opts {
        url: "http://127.0.0.1:8000/v1".into(),
        model: "tiny".into(),
        clients: 16,
        seconds: 10.0,
        max_tokens: 32,
        stream: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().ok_or(format!("`{a}` needs a value"));
        match a.as_str() {
            "--save-tiny" => {
                save_tiny(&val()?)?;
                return Ok(None);
            }
            "--url" => o.url = val()?,
            "--model" => o.model = val()?,
            "--clients" => o.clients = val()?.parse().map_err(|e| format!("--clients: {e}"))?,
            "--seconds" => o.seconds = val()?.parse().map_err(|e| format!("--seconds: {e}"))?,
            "--max-tokens" => o.max_tokens = val()?.parse().map_err(|e| format!("--max-tokens: {e}"))?,
            "--stream" => o.stream = true,
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(Some(o))
}

/// Writes the tests' tiny random model (seed 7) as a Hugging Face folder.
fn save_tiny(dir: &str) -> Result<(), String> {
    use gauntlet_model::{checkpoint, ChatTemplate, Config, Tokenizer};
    let cfg = Config::tiny(260);
    let (_, vars) = checkpoint::new_model(&cfg, &candle_core::Device::Cpu, 7).map_err(|e| e.to_string())?;
    checkpoint::save_chat(dir, &vars, &cfg, &Tokenizer::bytes(), &ChatTemplate::chatml(), &[])
        .map_err(|e| e.to_string())?;
    eprintln!("saved the tiny model to {dir} (serve it with `gauntlet serve policy --model {dir}`)");
    Ok(())
}

#[derive(Default)]
struct Tally {
    latencies_ms: Vec<f64>,
    tokens: u64,
}

async fn one(client: &reqwest::Client, o: &Opts, seed: u64) -> Result<u64, String> {
    let body = json!({
        "model": o.model,
        "messages": [{"role": "system", "content": "You solve puzzles."},
                     {"role": "user", "content": "Decrypt this Caesar cipher (shift 3): KHOOR ZRUOG"}],
        "max_tokens": o.max_tokens, "temperature": 1.0, "seed": seed, "logprobs": true, "stream": o.stream,
    });
    let resp = client
        .post(format!("{}/chat/completions", o.url))
        .json(&body)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let status = resp.status();
    let text = resp.text().await.map_err(|e| e.to_string())?;
    if !status.is_success() {
        return Err(format!("{status}: {text}"));
    }
    if o.stream {
        let tokens = text.matches("\"logprob\"").count() as u64;
        if !text.ends_with("data: [DONE]\n\n") || tokens == 0 {
            return Err(format!("bad stream: {text:.200}"));
        }
        return Ok(tokens);
    }
    let v: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let n = v["usage"]["completion_tokens"].as_u64().ok_or("no usage")?;
    let lps = v["choices"][0]["logprobs"]["content"].as_array().map_or(0, |a| a.len()) as u64;
    if n != lps || n == 0 {
        return Err(format!("{n} tokens but {lps} log-probs"));
    }
    Ok(n)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn main() {
    let o = match parse() {
        Ok(Some(o)) => Arc::new(o),
        Ok(None) => return,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let tally = Arc::new(Mutex::new(Tally::default()));
    let failures = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let seeds = Arc::new(AtomicU64::new(0));
    let client = reqwest::Client::builder().pool_max_idle_per_host(o.clients).build().unwrap();
    let t0 = Instant::now();
    rt.block_on(async {
        let mut tasks = Vec::new();
        for _ in 0..o.clients {
            let (o, tally, failures, stop, seeds, client) =
                (o.clone(), tally.clone(), failures.clone(), stop.clone(), seeds.clone(), client.clone());
            tasks.push(tokio::spawn(async move {
                while !stop.load(Ordering::Relaxed) {
                    let t = Instant::now();
                    match one(&client, &o, seeds.fetch_add(1, Ordering::Relaxed)).await {
                        Ok(n) => {
                            let mut tl = tally.lock().unwrap();
                            tl.latencies_ms.push(t.elapsed().as_secs_f64() * 1e3);
                            tl.tokens += n;
                        }
                        Err(e) => {
                            if failures.fetch_add(1, Ordering::Relaxed) < 3 {
                                eprintln!("failure: {e}");
                            }
                        }
                    }
                }
            }));
        }
        tokio::time::sleep(Duration::from_secs_f64(o.seconds)).await;
        stop.store(true, Ordering::Relaxed);
        for t in tasks {
            let _ = t.await;
        }
    });
    let secs = t0.elapsed().as_secs_f64();
    let mut tl = tally.lock().unwrap();
    tl.latencies_ms.sort_by(f64::total_cmp);
    let n = tl.latencies_ms.len();
    println!(
        "clients {} max_tokens {} stream {}: {n} requests in {secs:.1} s = {:.1} req/s, {:.0} completion tokens/s, \
         latency p50 {:.1} ms p99 {:.1} ms, {} failures",
        o.clients,
        o.max_tokens,
        o.stream,
        n as f64 / secs,
        tl.tokens as f64 / secs,
        percentile(&tl.latencies_ms, 0.5),
        percentile(&tl.latencies_ms, 0.99),
        failures.load(Ordering::Relaxed)
    );
    if failures.load(Ordering::Relaxed) > 0 {
        std::process::exit(1);
    }
}
