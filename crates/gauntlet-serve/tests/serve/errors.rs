//! Every kind of bad request answers the right 4xx with a JSON error, and the server keeps
//! answering afterwards.

use crate::util::{bounded, oracle, start, Server};
use gauntlet_serve::EnvServerConfig;
use serde_json::json;

async fn raw(s: &Server, method: &str, path: &str, body: &'static str) -> crate::util::Answer {
    let rb = s
        .client
        .request(method.parse().unwrap(), format!("{}{path}", s.base))
        .header("content-type", "application/json")
        .body(body);
    s.send(rb).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_answer_json_4xx() {
    bounded(30, async {
        let s =
            start(EnvServerConfig { max_batch: 10, max_body_bytes: 64 << 10, ..Default::default() }).await;

        // Body shape.
        raw(&s, "POST", "/v1/generate", "{\"task\": ").await.expect_error(400, "malformed_json");
        raw(&s, "POST", "/v1/verify", "[1, 2,]").await.expect_error(400, "malformed_json");
        raw(&s, "POST", "/v1/sessions", "").await.expect_error(400, "wrong_type");
        raw(&s, "POST", "/v1/generate", "").await.expect_error(400, "missing_body");
        s.post("/v1/generate", json!(17)).await.expect_error(400, "wrong_type");
        s.post("/v1/generate", json!([3])).await.expect_error(400, "wrong_type");
        s.post("/v1/sessions", json!([{"task": "sudoku"}])).await.expect_error(400, "wrong_type");
        s.post("/v1/generate", json!({"requests": {"task": "sudoku"}})).await.expect_error(400, "wrong_type");
        s.post("/v1/generate", json!({"requests": [], "n": 1})).await.expect_error(400, "unknown_field");

        // Fields.
        s.post("/v1/generate", json!({"n": 1})).await.expect_error(400, "missing_field");
        s.post("/v1/generate", json!({"task": 3})).await.expect_error(400, "wrong_type");
        s.post("/v1/generate", json!({"task": "sudoku", "n": "many"})).await.expect_error(400, "wrong_type");
        s.post("/v1/generate", json!({"task": "sudoku", "n": -1})).await.expect_error(400, "wrong_type");
        s.post("/v1/generate", json!({"task": "sudoku", "seed": 1.5})).await.expect_error(400, "wrong_type");
        s.post("/v1/generate", json!({"task": "sudoku", "levle": 2}))
            .await
            .expect_error(400, "unknown_field");
        for level in [json!(0), json!(6), json!(300), json!("hard"), json!(2.5), json!(-1)] {
            s.post("/v1/generate", json!({"task": "sudoku", "level": level}))
                .await
                .expect_error(400, "bad_level");
            s.post("/v1/sessions", json!({"task": "sudoku", "level": level}))
                .await
                .expect_error(400, "bad_level");
        }
        let u = s.post("/v1/generate", json!({"task": "sudokku"})).await;
        u.expect_error(404, "unknown_task");
        assert!(u.body["error"]["message"].as_str().unwrap().contains("`sudoku`"), "{}", u.body);
        s.post("/v1/sessions", json!({"task": "nope"})).await.expect_error(404, "unknown_task");
        let many = s.post("/v1/generate", json!([{"task": "maze", "n": 6}, {"task": "maze", "n": 5}])).await;
        many.expect_error(400, "batch_too_large");
        let nth = s.post("/v1/generate", json!([{"task": "maze"}, {"task": "maze", "level": 9}])).await;
        nth.expect_error(400, "bad_level");
        assert!(nth.body["error"]["message"].as_str().unwrap().contains("[1].level"), "{}", nth.body);
        if let Some(env) = gauntlet_envs::registry().first() {
            s.post("/v1/generate", json!({"task": env.name})).await.expect_error(400, "not_single_turn");
        }

        // Verify items.
        let items: Vec<_> = (0..11).map(|_| json!({"task": "maze", "problem": {}, "response": ""})).collect();
        s.post("/v1/verify", json!(items)).await.expect_error(400, "batch_too_large");
        s.post(
            "/v1/verify",
            json!({"task": "sudoku", "problem": {"x": 1}, "response": "<answer>1</answer>"}),
        )
        .await
        .expect_error(400, "bad_problem");
        s.post("/v1/verify", json!({"task": "sudoku", "problem": "{not json", "response": "a"}))
            .await
            .expect_error(400, "bad_problem");
        s.post("/v1/verify", json!({"task": "sudoku", "response": "a"}))
            .await
            .expect_error(400, "missing_field");
        s.post("/v1/verify", json!({"task": "sudoku", "problem": {}}))
            .await
            .expect_error(400, "missing_field");
        s.post("/v1/verify", json!({"row": {"data_source": "x"}, "response": "a"}))
            .await
            .expect_error(400, "bad_row");
        s.post("/v1/verify", json!({"row": {}, "task": "sudoku", "response": "a"}))
            .await
            .expect_error(400, "ambiguous_item");
        s.post("/v1/verify", json!({"task": "sudoku", "problem": {}, "response": 5}))
            .await
            .expect_error(400, "wrong_type");
        let gen = s.post("/v1/generate", json!({"task": "countdown"})).await;
        let row = gen.body["rows"][0].clone();
        let long = "x".repeat(80_000);
        let s2 = start(EnvServerConfig { max_response_bytes: 1000, ..Default::default() }).await;
        s2.post("/v1/verify", json!({"row": row, "response": "y".repeat(1001)}))
            .await
            .expect_error(400, "response_too_long");

        // Body limit: 413 with JSON.
        s.post("/v1/verify", json!({"row": row, "response": long})).await.expect_error(413, "body_too_large");

        // Sessions.
        let zero = "0000000000000000";
        s.get(&format!("/v1/sessions/{zero}")).await.expect_error(404, "unknown_session");
        s.get("/v1/sessions/not-an-id").await.expect_error(404, "unknown_session");
        s.post(&format!("/v1/sessions/{zero}/act"), json!({"response": "a"}))
            .await
            .expect_error(404, "unknown_session");
        s.call("DELETE", "/v1/sessions/xyz", None).await.expect_error(404, "unknown_session");
        let c = s.post("/v1/sessions", json!({"task": "countdown", "seed": 1})).await;
        let id = c.body["id"].as_str().unwrap().to_string();
        s.get(&format!("/v1/sessions/{id}?seat=1")).await.expect_error(400, "bad_seat");
        s.get(&format!("/v1/sessions/{id}?seat=x")).await.expect_error(400, "bad_seat");
        s.get(&format!("/v1/sessions/{id}?sat=0")).await.expect_error(400, "unknown_field");
        let act = format!("/v1/sessions/{id}/act");
        s.post(&act, json!({})).await.expect_error(400, "missing_field");
        s.post(&act, json!({"response": ["a"]})).await.expect_error(400, "wrong_type");
        s.post(&act, json!({"response": "a", "seat": 1})).await.expect_error(400, "bad_seat");
        s.post(&act, json!({"response": "a", "seat": -1})).await.expect_error(400, "wrong_type");
        s.post(&act, json!({"response": "a", "extra": 1})).await.expect_error(400, "unknown_field");
        raw(&s, "POST", &act, "{").await.expect_error(400, "malformed_json");
        // None of that used up the turn: the oracle still wins.
        let ok = s.post(&act, json!({"seat": 0, "response": oracle("countdown", 1, 1)})).await;
        assert_eq!(ok.body["feedback"]["reward"], 1.0, "{}", ok.body);
        s.post(&act, json!({"response": "a"})).await.expect_error(409, "episode_over");

        // Routes and methods.
        s.get("/v1/nothing").await.expect_error(404, "unknown_route");
        s.get("/v1/generate").await.expect_error(405, "method_not_allowed");
        s.call("PUT", "/v1/tasks", None).await.expect_error(405, "method_not_allowed");

        // Weird responses do not hurt anything.
        let c = s.post("/v1/sessions", json!({"task": "sudoku", "level": 5})).await;
        let id = c.body["id"].as_str().unwrap().to_string();
        let weird = "<answer><answer>\u{0}é😀</answer>".repeat(100);
        let w = s.post(&format!("/v1/sessions/{id}/act"), json!({"response": weird})).await;
        assert_eq!(w.status, 200, "{}", w.body);
        assert_eq!(w.body["feedback"]["reward"], 0.0);

        // Still serving, nothing leaked, no panic caught.
        let st = s.get("/v1/stats").await;
        assert_eq!(st.status, 200);
        assert_eq!(st.body["panics"], 0);
        assert_eq!(st.body["sessions"]["live"], 2);
        assert_eq!(s.get("/health").await.status, 200);
    })
    .await;
}
