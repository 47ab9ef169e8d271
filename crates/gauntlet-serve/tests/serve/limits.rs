//! Session capacity, idle expiry and bearer-token authentication.

use crate::util::{bounded, start};
use gauntlet_serve::EnvServerConfig;
use serde_json::json;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn max_sessions_rejects_then_recovers() {
    bounded(20, async {
        let s = start(EnvServerConfig { max_sessions: 3, ..Default::default() }).await;
        let mut ids = Vec::new();
        for seed in 0..3 {
            let c = s.post("/v1/sessions", json!({"task": "countdown", "seed": seed})).await;
            assert_eq!(c.status, 200);
            ids.push(c.body["id"].as_str().unwrap().to_string());
        }
        let resp = s
            .client
            .post(format!("{}/v1/sessions", s.base))
            .json(&json!({"task": "countdown"}))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status().as_u16(), 503);
        assert_eq!(resp.headers()["retry-after"], "1");
        let full: serde_json::Value = resp.json().await.unwrap();
        assert_eq!(full["error"]["code"], "too_many_sessions");
        assert_eq!(full["error"]["type"], "capacity_error");

        assert_eq!(s.call("DELETE", &format!("/v1/sessions/{}", ids[0]), None).await.status, 200);
        assert_eq!(s.post("/v1/sessions", json!({"task": "sudoku"})).await.status, 200);
        assert_eq!(s.sessions().await, 3);
        let st = s.get("/v1/stats").await;
        assert_eq!(st.body["sessions"]["rejected"], 1);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_creates_never_exceed_the_cap() {
    bounded(20, async {
        let s = std::sync::Arc::new(start(EnvServerConfig { max_sessions: 10, ..Default::default() }).await);
        let tasks: Vec<_> = (0..60)
            .map(|seed| {
                let s = s.clone();
                tokio::spawn(async move {
                    s.post("/v1/sessions", json!({"task": "maze", "seed": seed})).await.status
                })
            })
            .collect();
        let mut ok = 0;
        for t in tasks {
            match t.await.unwrap() {
                200 => ok += 1,
                503 => {}
                other => panic!("unexpected status {other}"),
            }
        }
        assert_eq!(ok, 10);
        assert_eq!(s.sessions().await, 10);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_sessions_expire() {
    bounded(20, async {
        let s = start(EnvServerConfig { idle_timeout_secs: 0.4, ..Default::default() }).await;
        let idle = s.post("/v1/sessions", json!({"task": "countdown"})).await.body["id"]
            .as_str()
            .unwrap()
            .to_string();
        let busy = s.post("/v1/sessions", json!({"task": "countdown"})).await.body["id"]
            .as_str()
            .unwrap()
            .to_string();
        // Touch `busy` every 100 ms for 1.2 s; `idle` sits.
        for _ in 0..12 {
            tokio::time::sleep(Duration::from_millis(100)).await;
            assert_eq!(s.get(&format!("/v1/sessions/{busy}")).await.status, 200);
        }
        // The sweeper (every 100 ms here) removed `idle` without anyone asking for it.
        assert_eq!(s.sessions().await, 1);
        s.get(&format!("/v1/sessions/{idle}")).await.expect_error(404, "unknown_session");
        let st = s.get("/v1/stats").await;
        assert_eq!(st.body["sessions"]["expired"], 1);
        tokio::time::sleep(Duration::from_millis(900)).await;
        assert_eq!(s.sessions().await, 0);
        s.post(&format!("/v1/sessions/{busy}/act"), json!({"response": "1"}))
            .await
            .expect_error(404, "unknown_session");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bearer_token_guards_v1() {
    bounded(20, async {
        let s = start(EnvServerConfig { token: Some("s3cret".into()), ..Default::default() }).await;
        assert_eq!(s.get("/health").await.status, 200);
        let none = s.get("/v1/tasks").await;
        none.expect_error(401, "invalid_token");
        let resp = s.client.get(format!("{}/v1/tasks", s.base)).bearer_auth("wrong").send().await.unwrap();
        assert_eq!(resp.status().as_u16(), 401);
        assert_eq!(resp.headers()["www-authenticate"], "Bearer");
        let bad = s
            .send(s.client.post(format!("{}/v1/sessions", s.base)).bearer_auth("s3cre").json(&json!({})))
            .await;
        bad.expect_error(401, "invalid_token");
        let basic =
            s.send(s.client.get(format!("{}/v1/tasks", s.base)).basic_auth("u", Some("s3cret"))).await;
        basic.expect_error(401, "invalid_token");
        let ok = s.send(s.client.get(format!("{}/v1/tasks", s.base)).bearer_auth("s3cret")).await;
        assert_eq!(ok.status, 200);
        let gen = s
            .send(
                s.client
                    .post(format!("{}/v1/generate", s.base))
                    .bearer_auth("s3cret")
                    .json(&json!({"task": "caesar"})),
            )
            .await;
        assert_eq!(gen.status, 200, "{}", gen.body);
        // Without a token nothing is created.
        assert_eq!(s.post("/v1/sessions", json!({"task": "caesar"})).await.status, 401);
        assert_eq!(s.sessions().await, 0);
    })
    .await;
}
