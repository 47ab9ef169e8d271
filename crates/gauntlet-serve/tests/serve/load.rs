//! Load: 32 concurrent clients make over 10,000 requests mixing generate, verify and whole
//! session lifecycles; every answer must be right, and no session may be left behind.

use crate::util::{bounded, oracle, start, Server};
use gauntlet_serve::EnvServerConfig;
use serde_json::json;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

const CLIENTS: u64 = 32;
const ROUNDS: u64 = 53; // 32 × 53 rounds × 6 requests = 10,176 requests

const TASKS: [&str; 4] = ["countdown", "sudoku", "caesar", "maze"];

async fn round(s: &Server, client: u64, r: u64, count: &AtomicU64) {
    let task = TASKS[((client + r) % 4) as usize];
    let seed = client * 1000 + r;
    let level = (r % 3 + 1) as u8;

    let g = s.post("/v1/generate", json!({"task": task, "n": 1, "seed": seed, "level": level})).await;
    assert_eq!(g.status, 200, "{}", g.body);
    let row = g.body["rows"][0].clone();
    let v = s.post("/v1/verify", json!([{"row": row, "response": oracle(task, seed, level)}])).await;
    assert_eq!(v.status, 200, "{}", v.body);
    assert_eq!(v.body["results"][0]["correct"], true, "{task} {seed} {level}: {}", v.body);

    let c = s.post("/v1/sessions", json!({"task": task, "seed": seed, "level": level})).await;
    assert_eq!(c.status, 200, "{}", c.body);
    let id = c.body["id"].as_str().unwrap().to_string();
    let o = s.get(&format!("/v1/sessions/{id}")).await;
    assert_eq!(o.status, 200, "{}", o.body);
    assert_eq!(o.body["observation"]["text"], row["prompt"][0]["content"]);
    let win = r.is_multiple_of(2);
    // Half the episodes are won by the oracle, half lost to a wrong answer.
    let response = if win { oracle(task, seed, level) } else { "<answer>no</answer>".to_string() };
    let a = s.post(&format!("/v1/sessions/{id}/act"), json!({"response": response})).await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.body["done"], true);
    assert_eq!(a.body["returns"][0], if win { 1.0 } else { 0.0 }, "{task} {seed}: {}", a.body);
    let d = s.call("DELETE", &format!("/v1/sessions/{id}"), None).await;
    assert_eq!(d.status, 200, "{}", d.body);
    count.fetch_add(6, Ordering::Relaxed);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_mixed_requests_without_an_error() {
    bounded(120, async {
        let s = Arc::new(start(EnvServerConfig::default()).await);
        let count = Arc::new(AtomicU64::new(0));
        let t0 = std::time::Instant::now();
        let clients: Vec<_> = (0..CLIENTS)
            .map(|c| {
                let (s, count) = (s.clone(), count.clone());
                tokio::spawn(async move {
                    for r in 0..ROUNDS {
                        round(&s, c, r, &count).await;
                    }
                })
            })
            .collect();
        for c in clients {
            c.await.expect("a client failed");
        }
        let n = count.load(Ordering::Relaxed);
        assert!(n >= 10_000, "{n}");
        eprintln!("{n} requests in {:.2?} ({:.0}/s)", t0.elapsed(), n as f64 / t0.elapsed().as_secs_f64());

        let st = s.get("/v1/stats").await.body;
        assert_eq!(st["sessions"]["live"], 0, "{st}");
        assert_eq!(st["sessions"]["created"], CLIENTS * ROUNDS);
        assert_eq!(st["sessions"]["deleted"], CLIENTS * ROUNDS);
        assert_eq!(st["acts"], CLIENTS * ROUNDS);
        assert_eq!(st["panics"], 0);
        assert_eq!(s.sessions().await, 0);
    })
    .await;
}
