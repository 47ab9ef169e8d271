//! The HTTP backend against fake servers (axum on loopback): retries, `Retry-After`, timeouts,
//! the circuit breaker and response parsing. The real policy server is tested against this
//! backend in `gauntlet-serve`'s test suite.

use super::*;
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::post;
use std::sync::atomic::{AtomicBool, AtomicUsize};

/// A chat completion the way vLLM answers with `return_token_ids` and logprobs.
fn ok_body() -> Value {
    json!({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "m",
        "prompt_token_ids": [1, 2, 3],
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": "hi"},
            "finish_reason": "stop",
            "token_ids": [104, 105],
            "logprobs": {"content": [
                {"token": "token_id:104", "logprob": -0.5, "bytes": [104], "top_logprobs": []},
                {"token": "token_id:105", "logprob": -1.5, "bytes": [105], "top_logprobs": []}
            ]}
        }],
        "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}
    })
}

/// What the fake server does with call number `n` (0-based).
type Script = Arc<dyn Fn(usize, &Value) -> axum::response::Response + Send + Sync>;

/// Serves `app` on a free loopback port from a thread of its own (a two-thread runtime, so
/// requests overlap); returns the base URL.
fn spawn_router(app: axum::Router) -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            axum::serve(listener, app).await.unwrap();
        });
    });
    format!("http://{}/v1", rx.recv().unwrap())
}

/// Serves `script` (call number → answer); returns the base URL and the call counter.
fn fake_server(script: Script) -> (String, Arc<AtomicUsize>) {
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = calls.clone();
    let app = axum::Router::new().route(
        "/v1/chat/completions",
        post(move |axum::Json(body): axum::Json<Value>| {
            let n = counter.fetch_add(1, Ordering::SeqCst);
            let script = script.clone();
            async move { script(n, &body) }
        }),
    );
    (spawn_router(app), calls)
}

fn config(url: &str) -> OpenAiConfig {
    let mut c = OpenAiConfig::new(url, "m");
    c.backoff_base = Duration::from_millis(5);
    c.backoff_max = Duration::from_millis(20);
    c.timeout = Duration::from_secs(5);
    c
}

fn ask(policy: &OpenAiPolicy, seed: u64) -> Result<Response, PolicyError> {
    policy.reply(&[ChatMessage::new("user", "hello")], seed)
}

#[test]
fn specs_parse_and_bad_ones_say_why() {
    let c = OpenAiConfig::from_spec("openai:http://127.0.0.1:8000/v1/#org/model#2").unwrap();
    assert_eq!((c.base_url.as_str(), c.model.as_str()), ("http://127.0.0.1:8000/v1", "org/model#2"));
    assert_eq!(c.spec(), "openai:http://127.0.0.1:8000/v1#org/model#2");
    for (bad, why) in [
        ("openai:http://127.0.0.1:8000/v1", "no model"),
        ("openai:http://h/v1#", "empty"),
        ("openai:https://api.example.invalid/v1#m", "HTTPS"),
        ("openai:ftp://h/v1#m", "http://"),
        ("openai:http:///v1#m", "no host"),
    ] {
        let e = OpenAiConfig::from_spec(bad).unwrap_err().to_string();
        assert!(e.contains(why), "{bad}: {e}");
    }
    assert_eq!(token_id_of("token_id:42"), Some(42));
    assert_eq!(token_id_of("42"), None);
}

#[test]
fn the_request_carries_seed_logprobs_and_the_token_id_extensions() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let (url, _) = fake_server(Arc::new(move |_, body: &Value| {
        log.lock().unwrap().push(body.clone());
        axum::Json(ok_body()).into_response()
    }));
    let mut cfg = config(&url);
    cfg.params = SamplingParams {
        temperature: 0.5,
        top_k: 9,
        max_tokens: 7,
        stop: vec!["</a>".into()],
        ..Default::default()
    };
    let policy = OpenAiPolicy::new(cfg.clone()).unwrap();
    let r = ask(&policy, 77).unwrap();
    assert_eq!(r.text, "hi");
    assert_eq!(r.prompt_ids, vec![1, 2, 3]);
    assert_eq!(r.response_ids, vec![104, 105]);
    assert_eq!(r.logprobs, vec![-0.5, -1.5]);
    assert_eq!(r.finish, Finish::Stop);
    let body = seen.lock().unwrap()[0].clone();
    assert_eq!(body["seed"], 77);
    assert_eq!(body["model"], "m");
    assert_eq!(body["max_tokens"], 7);
    assert_eq!(body["top_k"], 9);
    assert_eq!(body["stop"], json!(["</a>"]));
    assert_eq!(body["logprobs"], true);
    assert_eq!(body["return_token_ids"], true);
    assert_eq!(body["messages"], json!([{"role": "user", "content": "hello"}]));
    // Plain OpenAI: no extension fields.
    cfg.token_ids = false;
    ask(&OpenAiPolicy::new(cfg).unwrap(), 1).unwrap();
    let body = seen.lock().unwrap()[1].clone();
    assert!(body.get("return_token_ids").is_none() && body.get("top_k").is_none(), "{body}");
}

#[test]
fn token_ids_come_from_token_id_strings_when_the_field_is_missing() {
    let mut b = ok_body();
    b["choices"][0].as_object_mut().unwrap().remove("token_ids");
    b.as_object_mut().unwrap().remove("prompt_token_ids");
    b["choices"][0]["finish_reason"] = json!("length");
    let r = parse_response(&b.to_string()).unwrap();
    assert_eq!((r.response_ids, r.prompt_ids, r.finish), (vec![104, 105], vec![], Finish::Length));
    // Plain token strings: text and log-probs only.
    b["choices"][0]["logprobs"]["content"][0]["token"] = json!("h");
    let r = parse_response(&b.to_string()).unwrap();
    assert!(r.response_ids.is_empty() && r.logprobs.len() == 2);
    b["choices"][0]["token_ids"] = json!([1, 2, 3]);
    assert!(parse_response(&b.to_string()).unwrap_err().contains("3 token ids but 2 log-probs"));
    assert!(parse_response("{}").unwrap_err().contains("no `choices`"));
}

#[test]
fn a_503_then_200_is_retried_and_answers() {
    let (url, calls) = fake_server(Arc::new(|n, _: &Value| {
        if n < 2 {
            (StatusCode::SERVICE_UNAVAILABLE, "busy").into_response()
        } else {
            axum::Json(ok_body()).into_response()
        }
    }));
    let policy = OpenAiPolicy::new(config(&url)).unwrap();
    assert_eq!(ask(&policy, 1).unwrap().text, "hi");
    assert_eq!(calls.load(Ordering::SeqCst), 3);
    let s = policy.stats();
    assert_eq!((s.requests, s.attempts, s.failed), (1, 3, 0));
}

#[test]
fn a_429_waits_for_retry_after() {
    let (url, calls) = fake_server(Arc::new(|n, _: &Value| {
        if n == 0 {
            let mut h = HeaderMap::new();
            h.insert("retry-after", "1".parse().unwrap());
            (StatusCode::TOO_MANY_REQUESTS, h, r#"{"error":{"message":"slow down"}}"#).into_response()
        } else {
            axum::Json(ok_body()).into_response()
        }
    }));
    let policy = OpenAiPolicy::new(config(&url)).unwrap();
    let t0 = Instant::now();
    assert_eq!(ask(&policy, 1).unwrap().text, "hi");
    // The backoff alone would wait at most 20 ms.
    assert!(t0.elapsed() >= Duration::from_millis(950), "{:?}", t0.elapsed());
    assert_eq!(calls.load(Ordering::SeqCst), 2);
}

#[test]
fn client_errors_are_not_retried_and_keep_the_servers_message() {
    let (url, calls) = fake_server(Arc::new(|_, _: &Value| {
        (StatusCode::BAD_REQUEST, r#"{"error":{"message":"field `top_p`: must be in (0, 1]"}}"#)
            .into_response()
    }));
    let e = ask(&OpenAiPolicy::new(config(&url)).unwrap(), 1).unwrap_err().to_string();
    assert!(e.contains("400") && e.contains("field `top_p`"), "{e}");
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}

#[test]
fn timeouts_fail_after_the_retries() {
    let calls = Arc::new(AtomicUsize::new(0));
    let c = calls.clone();
    let url = spawn_router(axum::Router::new().route(
        "/v1/chat/completions",
        post(move || {
            c.fetch_add(1, Ordering::SeqCst);
            async {
                tokio::time::sleep(Duration::from_millis(1500)).await;
                axum::Json(ok_body())
            }
        }),
    ));
    let mut cfg = config(&url);
    cfg.timeout = Duration::from_millis(150);
    cfg.retries = 1;
    let t0 = Instant::now();
    let e = ask(&OpenAiPolicy::new(cfg).unwrap(), 1).unwrap_err().to_string();
    assert!(e.contains("timed out") && e.contains("after 2 attempts"), "{e}");
    assert!(t0.elapsed() < Duration::from_millis(1400), "{:?}", t0.elapsed());
    assert_eq!(calls.load(Ordering::SeqCst), 2);
}

#[test]
fn the_circuit_breaker_opens_fails_fast_then_lets_a_probe_through() {
    let healthy = Arc::new(AtomicBool::new(false));
    let h = healthy.clone();
    let (url, calls) = fake_server(Arc::new(move |_, _: &Value| {
        if h.load(Ordering::SeqCst) {
            axum::Json(ok_body()).into_response()
        } else {
            (StatusCode::INTERNAL_SERVER_ERROR, "boom").into_response()
        }
    }));
    let mut cfg = config(&url);
    cfg.retries = 0;
    cfg.breaker_failures = 3;
    cfg.breaker_cooldown = Duration::from_millis(400);
    let policy = OpenAiPolicy::new(cfg).unwrap();
    for seed in 0..3 {
        let e = ask(&policy, seed).unwrap_err().to_string();
        assert!(e.contains("500"), "{e}");
    }
    assert_eq!(calls.load(Ordering::SeqCst), 3);
    // Open: refused without a request.
    let e = ask(&policy, 9).unwrap_err().to_string();
    assert!(e.contains("circuit breaker open") && e.contains("3 failed attempts"), "{e}");
    assert_eq!(calls.load(Ordering::SeqCst), 3);
    // Half-open after the cool-down: a failing probe re-opens it at once.
    std::thread::sleep(Duration::from_millis(450));
    assert!(ask(&policy, 10).unwrap_err().to_string().contains("500"));
    assert_eq!(calls.load(Ordering::SeqCst), 4);
    assert!(ask(&policy, 11).unwrap_err().to_string().contains("circuit breaker open"));
    // A successful probe closes it.
    healthy.store(true, Ordering::SeqCst);
    std::thread::sleep(Duration::from_millis(450));
    assert_eq!(ask(&policy, 12).unwrap().text, "hi");
    assert_eq!(ask(&policy, 13).unwrap().text, "hi");
    let s = policy.stats();
    assert_eq!((s.breaker_opened, s.short_circuited), (2, 2));
}

#[test]
fn connection_errors_are_retried_then_reported() {
    // A port that was free a moment ago: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut cfg = config(&format!("http://127.0.0.1:{port}/v1"));
    cfg.retries = 2;
    let policy = OpenAiPolicy::new(cfg).unwrap();
    let e = ask(&policy, 1).unwrap_err().to_string();
    assert!(e.contains("cannot connect") && e.contains("after 3 attempts"), "{e}");
    assert_eq!(policy.stats().attempts, 3);
}

#[test]
fn a_batch_runs_concurrently_under_the_limit_and_keeps_its_order() {
    let in_flight = Arc::new(AtomicUsize::new(0));
    let peak = Arc::new(AtomicUsize::new(0));
    let (f, p) = (in_flight.clone(), peak.clone());
    let url = spawn_router(axum::Router::new().route(
        "/v1/chat/completions",
        post(move |axum::Json(body): axum::Json<Value>| {
            let (f, p) = (f.clone(), p.clone());
            async move {
                let now = f.fetch_add(1, Ordering::SeqCst) + 1;
                p.fetch_max(now, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(20)).await;
                f.fetch_sub(1, Ordering::SeqCst);
                let mut b = ok_body();
                b["choices"][0]["message"]["content"] = json!(body["seed"].to_string());
                axum::Json(b)
            }
        }),
    ));
    let mut cfg = config(&url);
    cfg.concurrency = 4;
    let policy = OpenAiPolicy::new(cfg).unwrap();
    let jobs: Vec<(Vec<ChatMessage>, u64)> =
        (0..40).map(|s| (vec![ChatMessage::new("user", "x")], s)).collect();
    let t0 = Instant::now();
    let out = policy.run_all(jobs);
    for (s, r) in out.iter().enumerate() {
        assert_eq!(r.as_ref().unwrap().text, s.to_string());
    }
    // 40 requests of 20 ms, 4 at a time: about 200 ms, never more than 4 in flight.
    assert_eq!(peak.load(Ordering::SeqCst), 4);
    assert!(t0.elapsed() < Duration::from_millis(800), "{:?}", t0.elapsed());
    // From inside a tokio runtime too (the policy moves to a helper thread).
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let inside = rt.block_on(async { ask(&policy, 3) });
    assert_eq!(inside.unwrap().text, "3");
}

#[test]
fn two_thousand_requests_are_in_flight_at_once_on_one_runtime_thread() {
    let in_flight = Arc::new(AtomicUsize::new(0));
    let peak = Arc::new(AtomicUsize::new(0));
    let (f, p) = (in_flight.clone(), peak.clone());
    let url = spawn_router(axum::Router::new().route(
        "/v1/chat/completions",
        post(move || {
            let (f, p) = (f.clone(), p.clone());
            async move {
                p.fetch_max(f.fetch_add(1, Ordering::SeqCst) + 1, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(300)).await;
                f.fetch_sub(1, Ordering::SeqCst);
                axum::Json(ok_body())
            }
        }),
    ));
    let mut cfg = config(&url);
    cfg.concurrency = 2000;
    let policy = OpenAiPolicy::new(cfg).unwrap();
    let jobs: Vec<(Vec<ChatMessage>, u64)> =
        (0..2000).map(|s| (vec![ChatMessage::new("user", "x")], s)).collect();
    let t0 = Instant::now();
    let out = policy.run_all(jobs);
    assert!(out.iter().all(|r| r.as_ref().is_ok_and(|r| r.text == "hi")));
    // One after another they would take 600 s; 300 ms each, all at once, takes about one.
    assert!(peak.load(Ordering::SeqCst) >= 1000, "peak {} in flight", peak.load(Ordering::SeqCst));
    assert!(t0.elapsed() < Duration::from_secs(20), "{:?}", t0.elapsed());
}

/// What `header_server` saw: each request's episode header and last user message.
type Seen = Arc<Mutex<Vec<(Option<String>, String)>>>;

/// Serves chat completions that answer `ok_body`, recording each request's episode header
/// (`None` when absent) with the last user message; returns the base URL and the record.
fn header_server() -> (String, Seen) {
    let seen: Seen = Arc::default();
    let log = seen.clone();
    let app = axum::Router::new().route(
        "/v1/chat/completions",
        post(move |headers: HeaderMap, axum::Json(body): axum::Json<Value>| {
            let tag = headers.get(EPISODE_HEADER).map(|v| v.to_str().unwrap().to_string());
            let last =
                body["messages"].as_array().unwrap().last().unwrap()["content"].as_str().unwrap().to_string();
            log.lock().unwrap().push((tag, last));
            async move { axum::Json(ok_body()).into_response() }
        }),
    );
    (spawn_router(app), seen)
}

#[test]
fn an_episode_tag_names_each_request_by_its_episodes_index_and_no_tag_sends_no_header() {
    use crate::{play, EpisodeSpec, RolloutOptions};
    let (url, seen) = header_server();
    // Three single-turn problems: one request per episode, each with its own prompt.
    let specs = EpisodeSpec::groups("caesar", 1, &[1, 2, 3], 1);
    let prompts: Vec<String> = {
        let task = gauntlet_tasks::get("caesar").unwrap();
        specs
            .iter()
            .map(|s| task.instance(s.seed, gauntlet_core::Difficulty::new(1).unwrap()).prompt)
            .collect()
    };
    let mut tagged = OpenAiPolicy::new(config(&url)).unwrap().with_episode_tag("w1-b0").unwrap();
    assert_eq!(tagged.episode_tag(), Some("w1-b0"));
    let episodes = play(&specs, &mut tagged, &RolloutOptions::default()).unwrap();
    assert!(episodes.iter().all(|e| e.error.is_none()));
    let mut got = std::mem::take(&mut *seen.lock().unwrap());
    got.sort();
    let mut want: Vec<(Option<String>, String)> =
        prompts.iter().enumerate().map(|(i, p)| (Some(format!("w1-b0-{i}")), p.clone())).collect();
    want.sort();
    assert_eq!(got, want);
    // Without a tag (every other user of the policy): no header at all.
    tagged.set_episode_tag(None).unwrap();
    play(&specs, &mut tagged, &RolloutOptions::default()).unwrap();
    assert!(seen.lock().unwrap().iter().all(|(t, _)| t.is_none()));
    ask(&tagged, 1).unwrap();
    assert_eq!(seen.lock().unwrap().len(), 4);
    assert!(seen.lock().unwrap().iter().all(|(t, _)| t.is_none()));
    // Tags that could not be a header value or a URL path segment are refused, naming the fix.
    let long = "x".repeat(MAX_EPISODE_TAG + 1);
    for bad in ["", "a b", "a/b", long.as_str()] {
        let e = tagged.set_episode_tag(Some(bad.to_string())).unwrap_err().to_string();
        assert!(e.contains("episode tag"), "{bad}: {e}");
    }
}
