//! Load generator for the environment server: requests/s and latency percentiles for a fixed
//! mix, against a server in another process.
//!
//! ```sh
//! cargo run --release -p gauntlet-serve --example env_server -- --port 8100 &
//! cargo run --release -p gauntlet-serve --example env_load -- --url http://127.0.0.1:8100 \
//!     [--clients 32] [--seconds 10] [--scenario mixed|episode|verify-batch] [--batch 256] [--token T]
//! ```
//!
//! Scenarios (each client loops over it until the time is up, on a pool of 1,024 precomputed
//! `(task, seed, level)` instances over countdown, sudoku, caesar and maze at levels 1–3):
//!
//! - `mixed` (default): `generate` one row, `verify` the oracle's answer to it, then a whole
//!   session: create, observe, act (the oracle's answer on even rounds, a wrong one on odd
//!   rounds), delete. Six requests per round.
//! - `episode`: only the four session requests.
//! - `verify-batch`: one `verify` call of `--batch` items per request (reports items/s too).
//!
//! Every answer is checked (status 200, oracle answers correct); any failure is counted and
//! reported, and makes the exit status 1.

use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const TASKS: [&str; 4] = ["countdown", "sudoku", "caesar", "maze"];

struct Case {
    task: &'static str,
    seed: u64,
    level: u8,
    row: Value,
    oracle: String,
}

fn cases() -> Vec<Case> {
    (0..1024u64)
        .map(|i| {
            let task = TASKS[(i % 4) as usize];
            let level = (i % 3 + 1) as u8;
            let t = gauntlet_tasks::get(task).unwrap();
            let inst = t.instance(i, gauntlet_core::Difficulty::new(level).unwrap());
            let oracle = t.oracle_response_of(&inst.problem).unwrap();
            let row =
                serde_json::to_value(gauntlet_tasks::rows::Row::from_instance(&t.spec(), &inst, 0)).unwrap();
            Case { task, seed: i, level, row, oracle }
        })
        .collect()
}

struct Opts {
    url: String,
    clients: usize,
    seconds: f64,
    scenario: String,
    batch: usize,
    token: Option<String>,
}

fn opts() -> Result<Opts, String> {
    let mut o = Opts {
        url: "http://127.0.0.1:8100".into(),
        clients: 32,
        seconds: 10.0,
        scenario: "mixed".into(),
        batch: 256,
        token: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let v = it.next().ok_or_else(|| format!("`{flag}` needs a value"))?;
        let bad = |e: &dyn std::fmt::Display| format!("`{flag} {v}`: {e}");
        match flag.as_str() {
            "--url" => o.url = v.trim_end_matches('/').to_string(),
            "--clients" => o.clients = v.parse().map_err(|e| bad(&e))?,
            "--seconds" => o.seconds = v.parse().map_err(|e| bad(&e))?,
            "--scenario" => o.scenario = v,
            "--batch" => o.batch = v.parse().map_err(|e| bad(&e))?,
            "--token" => o.token = Some(v),
            _ => return Err(format!("unknown flag `{flag}`")),
        }
    }
    if !["mixed", "episode", "verify-batch"].contains(&o.scenario.as_str()) {
        return Err(format!("unknown scenario `{}`; expected mixed, episode or verify-batch", o.scenario));
    }
    Ok(o)
}

/// Latencies in microseconds per request kind.
#[derive(Default)]
struct Record {
    by_kind: Vec<(&'static str, Vec<u32>)>,
}

impl Record {
    fn add(&mut self, kind: &'static str, us: u32) {
        match self.by_kind.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, v)) => v.push(us),
            None => self.by_kind.push((kind, vec![us])),
        }
    }
}

struct Client {
    http: reqwest::Client,
    url: String,
    token: Option<String>,
    rec: Record,
    errors: u64,
    items: u64,
}

impl Client {
    async fn call(
        &mut self,
        kind: &'static str,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> Value {
        let mut rb = self.http.request(method, format!("{}{path}", self.url));
        if let Some(t) = &self.token {
            rb = rb.bearer_auth(t);
        }
        if let Some(b) = &body {
            rb = rb.json(b);
        }
        let t0 = Instant::now();
        let out = match rb.send().await {
            Ok(r) => {
                let ok = r.status().is_success();
                match r.json::<Value>().await {
                    Ok(v) if ok => Some(v),
                    Ok(v) => {
                        if self.errors < 5 {
                            eprintln!("{kind}: {v}");
                        }
                        None
                    }
                    Err(_) => None,
                }
            }
            Err(e) => {
                if self.errors < 5 {
                    eprintln!("{kind}: {e}");
                }
                None
            }
        };
        self.rec.add(kind, t0.elapsed().as_micros().min(u32::MAX as u128) as u32);
        match out {
            Some(v) => v,
            None => {
                self.errors += 1;
                Value::Null
            }
        }
    }

    fn check(&mut self, cond: bool) {
        if !cond {
            self.errors += 1;
        }
    }

    async fn episode(&mut self, c: &Case, win: bool) {
        use reqwest::Method;
        let s = self
            .call(
                "create",
                Method::POST,
                "/v1/sessions",
                Some(json!({"task": c.task, "seed": c.seed, "level": c.level})),
            )
            .await;
        let Some(id) = s["id"].as_str().map(str::to_string) else { return };
        let o = self.call("observe", Method::GET, &format!("/v1/sessions/{id}"), None).await;
        self.check(o["observation"]["text"] == c.row["prompt"][0]["content"]);
        let response = if win { c.oracle.clone() } else { "<answer>no</answer>".into() };
        let a = self
            .call("act", Method::POST, &format!("/v1/sessions/{id}/act"), Some(json!({"response": response})))
            .await;
        self.check(a["returns"][0] == if win { 1.0 } else { 0.0 });
        self.call("delete", Method::DELETE, &format!("/v1/sessions/{id}"), None).await;
    }

    async fn round(&mut self, scenario: &str, cases: &[Case], i: usize, batch: usize) {
        use reqwest::Method;
        let c = &cases[i % cases.len()];
        match scenario {
            "mixed" => {
                let g = self
                    .call(
                        "generate",
                        Method::POST,
                        "/v1/generate",
                        Some(json!({"task": c.task, "seed": c.seed, "level": c.level})),
                    )
                    .await;
                self.check(g["rows"][0]["reward_model"] == c.row["reward_model"]);
                let v = self
                    .call(
                        "verify",
                        Method::POST,
                        "/v1/verify",
                        Some(json!([{"row": c.row, "response": c.oracle}])),
                    )
                    .await;
                self.check(v["results"][0]["correct"] == true);
                self.items += 1;
                self.episode(c, i.is_multiple_of(2)).await;
            }
            "episode" => self.episode(c, i.is_multiple_of(2)).await,
            _ => {
                let items: Vec<Value> = (0..batch)
                    .map(|k| {
                        let c = &cases[(i * batch + k) % cases.len()];
                        json!({"row": c.row, "response": c.oracle})
                    })
                    .collect();
                let v = self
                    .call("verify-batch", Method::POST, "/v1/verify", Some(json!({"items": items})))
                    .await;
                let n =
                    v["results"].as_array().map_or(0, |r| r.iter().filter(|x| x["correct"] == true).count());
                self.check(n == batch);
                self.items += batch as u64;
            }
        }
    }
}

fn pct(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

#[tokio::main]
async fn main() {
    let o = match opts() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let cases = Arc::new(cases());
    let http = reqwest::Client::builder().pool_max_idle_per_host(o.clients).build().unwrap();
    // Warm-up: one health check (also fails fast when no server is there).
    if let Err(e) = http.get(format!("{}/health", o.url)).send().await {
        eprintln!("error: no server at {}: {e}", o.url);
        std::process::exit(2);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let next = Arc::new(AtomicU64::new(0));
    let results = Arc::new(Mutex::new(Vec::new()));
    let t0 = Instant::now();
    let handles: Vec<_> = (0..o.clients)
        .map(|_| {
            let (cases, stop, next, results) = (cases.clone(), stop.clone(), next.clone(), results.clone());
            let mut client = Client {
                http: http.clone(),
                url: o.url.clone(),
                token: o.token.clone(),
                rec: Record::default(),
                errors: 0,
                items: 0,
            };
            let (scenario, batch) = (o.scenario.clone(), o.batch);
            tokio::spawn(async move {
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed) as usize;
                    client.round(&scenario, &cases, i, batch).await;
                }
                results.lock().unwrap().push((client.rec, client.errors, client.items));
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_secs_f64(o.seconds)).await;
    stop.store(true, Ordering::Relaxed);
    for h in handles {
        h.await.unwrap();
    }
    let elapsed = t0.elapsed().as_secs_f64();

    let mut all: Vec<u32> = Vec::new();
    let mut kinds: Vec<(&'static str, Vec<u32>)> = Vec::new();
    let (mut errors, mut items) = (0, 0);
    for (rec, e, it) in results.lock().unwrap().drain(..) {
        errors += e;
        items += it;
        for (k, v) in rec.by_kind {
            all.extend(&v);
            match kinds.iter_mut().find(|(kk, _)| *kk == k) {
                Some((_, w)) => w.extend(v),
                None => kinds.push((k, v)),
            }
        }
    }
    all.sort_unstable();
    let mut out = String::new();
    out.push_str(&format!(
        "scenario {} | {} clients | {:.1} s | {} requests | {:.0} req/s | p50 {:.3} ms | p99 {:.3} ms | errors {}\n",
        o.scenario,
        o.clients,
        elapsed,
        all.len(),
        all.len() as f64 / elapsed,
        pct(&all, 0.5),
        pct(&all, 0.99),
        errors
    ));
    if o.scenario != "episode" {
        out.push_str(&format!("verified items: {items} ({:.0} items/s)\n", items as f64 / elapsed));
    }
    out.push_str(&format!(
        "{:<13} {:>9} {:>10} {:>10} {:>10}\n",
        "request", "count", "p50 ms", "p99 ms", "max ms"
    ));
    for (k, mut v) in kinds {
        v.sort_unstable();
        out.push_str(&format!(
            "{:<13} {:>9} {:>10.3} {:>10.3} {:>10.3}\n",
            k,
            v.len(),
            pct(&v, 0.5),
            pct(&v, 0.99),
            *v.last().unwrap_or(&0) as f64 / 1000.0
        ));
    }
    // A closed stdout (`| head`) is not an error worth a panic.
    let _ = std::io::Write::write_all(&mut std::io::stdout(), out.as_bytes());
    if errors > 0 {
        std::process::exit(1);
    }
}
