//! The policy server's OpenAI API: models, whole and streamed completions, log-probs, `n`,
//! stop strings, seeds, batching, and every kind of bad request.

use crate::util::{bounded, start_policy, tiny_chat, Server};
use gauntlet_model::{generate_seeded, SamplingParams};
use gauntlet_serve::PolicyServerConfig;
use serde_json::{json, Value};

fn ask(extra: Value) -> Value {
    let mut body = json!({
        "model": "tiny",
        "messages": [{"role": "system", "content": "Answer briefly."}, {"role": "user", "content": "Decrypt KHOOR."}],
        "max_tokens": 12,
        "seed": 5,
    });
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    body
}

/// The `data:` payloads of a server-sent event stream, `[DONE]` included as a string.
async fn stream(s: &Server, body: Value) -> Vec<Value> {
    let resp = s.client.post(format!("{}/v1/chat/completions", s.base)).json(&body).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["content-type"], "text/event-stream");
    let text = resp.text().await.unwrap();
    assert!(text.ends_with("data: [DONE]\n\n"), "{text}");
    text.split("\n\n")
        .filter(|f| !f.is_empty())
        .map(|f| {
            let data = f.strip_prefix("data: ").unwrap_or_else(|| panic!("not an event: {f:?}"));
            serde_json::from_str(data).unwrap_or(Value::String(data.into()))
        })
        .collect()
}

/// What a stream adds up to, per choice: text, token ids, log-probs, finish reason.
fn gather(events: &[Value], n: usize) -> Vec<(String, Vec<u64>, Vec<f64>, String)> {
    let mut out = vec![(String::new(), vec![], vec![], String::new()); n];
    for e in events.iter().filter(|e| e.is_object()) {
        for c in e["choices"].as_array().unwrap() {
            let i = c["index"].as_u64().unwrap() as usize;
            out[i].0.push_str(c["delta"]["content"].as_str().unwrap_or(""));
            for t in c["token_ids"].as_array().into_iter().flatten() {
                out[i].1.push(t.as_u64().unwrap());
            }
            for l in c["logprobs"]["content"].as_array().into_iter().flatten() {
                out[i].2.push(l["logprob"].as_f64().unwrap());
            }
            if let Some(f) = c["finish_reason"].as_str() {
                out[i].3 = f.to_string();
            }
        }
    }
    out
}

fn ids(v: &Value) -> Vec<u64> {
    v.as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect()
}

fn logprobs(choice: &Value) -> Vec<f64> {
    choice["logprobs"]["content"].as_array().unwrap().iter().map(|e| e["logprob"].as_f64().unwrap()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn models_are_listed_and_unknown_ones_are_404() {
    bounded(20, async {
        let s = start_policy(PolicyServerConfig::default()).await;
        let m = s.get("/v1/models").await;
        assert_eq!(m.status, 200);
        assert_eq!(m.body["object"], "list");
        assert_eq!(m.body["data"][0]["id"], "tiny");
        assert_eq!(m.body["data"][0]["object"], "model");
        assert_eq!(m.body["data"][0]["max_model_len"], 2048);
        assert_eq!(s.get("/v1/models/tiny").await.body["id"], "tiny");
        s.get("/v1/models/other").await.expect_error(404, "model_not_found");
        let a = s.post("/v1/chat/completions", ask(json!({"model": "gpt-4o"}))).await;
        a.expect_error(404, "model_not_found");
        assert_eq!(a.body["error"]["param"], "model");
        assert!(a.body["error"]["message"].as_str().unwrap().contains("`tiny`"));
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_completion_is_what_the_model_samples_with_its_logprobs_and_token_ids() {
    bounded(30, async {
        let s = start_policy(PolicyServerConfig::default()).await;
        let a = s
            .post(
                "/v1/chat/completions",
                ask(json!({"logprobs": true, "top_logprobs": 2, "return_token_ids": true})),
            )
            .await;
        assert_eq!(a.status, 200, "{}", a.body);
        let b = &a.body;
        assert_eq!(b["object"], "chat.completion");
        assert!(b["id"].as_str().unwrap().starts_with("chatcmpl-"));
        assert_eq!(b["model"], "tiny");
        let c = &b["choices"][0];
        assert_eq!(c["message"]["role"], "assistant");
        // The same prompt and seed through the sampler directly.
        let chat = tiny_chat();
        let messages = vec![
            gauntlet_model::ChatMessage::new("system", "Answer briefly."),
            gauntlet_model::ChatMessage::new("user", "Decrypt KHOOR."),
        ];
        let prompt = chat.tokenizer.encode(&chat.template.render(&messages, true).unwrap()).unwrap();
        let params = SamplingParams { max_tokens: 12, stop_token_ids: vec![258], ..Default::default() };
        let want =
            &generate_seeded(&chat.model, &chat.tokenizer, std::slice::from_ref(&prompt), &[5], &params)
                .unwrap()[0];
        assert_eq!(ids(&b["prompt_token_ids"]), prompt.iter().map(|&t| t as u64).collect::<Vec<_>>());
        assert_eq!(ids(&c["token_ids"]), want.tokens.iter().map(|&t| t as u64).collect::<Vec<_>>());
        assert_eq!(c["message"]["content"], want.text.as_str());
        for (got, want) in logprobs(c).iter().zip(&want.logprobs) {
            assert!((got - *want as f64).abs() < 1e-5, "{got} vs {want}");
        }
        let finish =
            if want.finish_reason == gauntlet_model::FinishReason::Length { "length" } else { "stop" };
        assert_eq!(c["finish_reason"], finish);
        for (e, &t) in c["logprobs"]["content"].as_array().unwrap().iter().zip(&want.tokens) {
            assert_eq!(e["top_logprobs"].as_array().unwrap().len(), 2);
            if t < 256 {
                assert_eq!(e["bytes"], json!([t]), "{e}");
            }
            assert!(e["token"].is_string());
        }
        assert_eq!(b["usage"]["prompt_tokens"], prompt.len());
        assert_eq!(b["usage"]["completion_tokens"], want.tokens.len());
        assert_eq!(b["usage"]["total_tokens"], prompt.len() + want.tokens.len());
        // Without the extensions: no id fields; `return_tokens_as_token_ids` names tokens by id.
        let plain = s.post("/v1/chat/completions", ask(json!({}))).await.body;
        assert!(plain.get("prompt_token_ids").is_none() && plain["choices"][0].get("token_ids").is_none());
        assert!(plain["choices"][0]["logprobs"].is_null());
        assert_eq!(plain["choices"][0]["message"], c["message"]);
        let named = s
            .post("/v1/chat/completions", ask(json!({"logprobs": true, "return_tokens_as_token_ids": true})))
            .await
            .body;
        let first = &named["choices"][0]["logprobs"]["content"][0]["token"];
        assert_eq!(first.as_str().unwrap(), format!("token_id:{}", want.tokens[0]));
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_adds_up_to_the_whole_answer() {
    bounded(30, async {
        let s = start_policy(PolicyServerConfig::default()).await;
        let extra = json!({"logprobs": true, "return_token_ids": true, "n": 2, "max_tokens": 20});
        let whole = s.post("/v1/chat/completions", ask(extra.clone())).await.body;
        let mut streamed = extra.clone();
        streamed["stream"] = json!(true);
        streamed["stream_options"] = json!({"include_usage": true});
        let events = stream(&s, ask(streamed)).await;
        assert_eq!(events.last().unwrap(), "[DONE]");
        let first = &events[0];
        assert_eq!(first["object"], "chat.completion.chunk");
        assert_eq!(first["choices"][0]["delta"]["role"], "assistant");
        assert_eq!(first["prompt_token_ids"], whole["prompt_token_ids"]);
        let usage = &events[events.len() - 2];
        assert_eq!(usage["choices"], json!([]));
        assert_eq!(usage["usage"], whole["usage"]);
        assert!(events[1]["usage"].is_null());
        for (i, (text, tokens, lps, finish)) in gather(&events, 2).into_iter().enumerate() {
            let c = &whole["choices"][i];
            assert_eq!(text, c["message"]["content"].as_str().unwrap(), "choice {i}");
            assert_eq!(tokens, ids(&c["token_ids"]));
            assert_eq!(lps, logprobs(c));
            assert_eq!(finish, c["finish_reason"].as_str().unwrap());
        }
        // One event per token, plus the role and finish events of each choice.
        let tokens = whole["usage"]["completion_tokens"].as_u64().unwrap() as usize;
        assert_eq!(events.len(), tokens + 2 * 2 + 2);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn n_choices_seeds_and_stop_strings() {
    bounded(30, async {
        let s = start_policy(PolicyServerConfig::default()).await;
        let one = s.post("/v1/chat/completions", ask(json!({"return_token_ids": true}))).await.body;
        let again = s.post("/v1/chat/completions", ask(json!({"return_token_ids": true}))).await.body;
        assert_eq!(one["choices"], again["choices"], "same seed, same answer");
        let other = s.post("/v1/chat/completions", ask(json!({"return_token_ids": true, "seed": 6}))).await.body;
        assert_ne!(one["choices"][0]["token_ids"], other["choices"][0]["token_ids"]);
        let three = s.post("/v1/chat/completions", ask(json!({"return_token_ids": true, "n": 3}))).await.body;
        let choices = three["choices"].as_array().unwrap();
        assert_eq!(choices.len(), 3);
        assert_eq!(choices[0]["token_ids"], one["choices"][0]["token_ids"], "choice 0 uses the request's seed");
        assert!(choices[1]["token_ids"] != choices[0]["token_ids"] || choices[2]["token_ids"] != choices[0]["token_ids"]);
        let total: usize = choices.iter().map(|c| c["token_ids"].as_array().unwrap().len()).sum();
        assert_eq!(three["usage"]["completion_tokens"], total);
        // Greedy text, then a stop string from its middle cuts it there.
        let free = s.post("/v1/chat/completions", ask(json!({"temperature": 0, "max_tokens": 24}))).await.body;
        let text = free["choices"][0]["message"]["content"].as_str().unwrap().to_string();
        let chars: Vec<char> = text.chars().collect();
        let stop = chars[3..].iter().find(|&&c| c != '\u{FFFD}').expect("a character to stop at").to_string();
        let cut = text.find(&stop).unwrap();
        for streamed in [false, true] {
            let body = ask(json!({"temperature": 0, "max_tokens": 24, "stop": [stop.clone(), "never-said"], "stream": streamed}));
            let (content, finish) = if streamed {
                let g = gather(&stream(&s, body).await, 1).remove(0);
                (g.0, g.3)
            } else {
                let c = s.post("/v1/chat/completions", body).await.body["choices"][0].clone();
                (c["message"]["content"].as_str().unwrap().to_string(), c["finish_reason"].as_str().unwrap().to_string())
            };
            assert_eq!(content, &text[..cut], "stop {stop:?} in {text:?} (streamed: {streamed})");
            assert_eq!(finish, "stop");
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_requests_are_batched_and_answer_as_if_alone() {
    bounded(60, async {
        let s = start_policy(PolicyServerConfig { batch_wait_ms: 50, ..Default::default() }).await;
        let bodies: Vec<Value> = (0..12u64)
            .map(|i| {
                let temperature = [0.0, 0.7, 1.0][i as usize % 3];
                let top_p = [1.0, 0.9][i as usize % 2];
                ask(json!({
                    "seed": 100 + i,
                    "max_tokens": 4 + i as usize,
                    "temperature": temperature,
                    "top_p": top_p,
                    "return_token_ids": true,
                    "logprobs": true,
                    "messages": [{"role": "user", "content": "x".repeat(1 + i as usize * 7)}],
                }))
            })
            .collect();
        let mut alone = Vec::new();
        for b in &bodies {
            alone.push(s.post("/v1/chat/completions", b.clone()).await.body);
        }
        let before = s.get("/health").await.body;
        let together =
            futures_util::future::join_all(bodies.iter().map(|b| s.post("/v1/chat/completions", b.clone())))
                .await;
        let after = s.get("/health").await.body;
        for (a, t) in alone.iter().zip(&together) {
            assert_eq!(t.status, 200);
            let (a, t) = (&a["choices"][0], &t.body["choices"][0]);
            assert_eq!(a["token_ids"], t["token_ids"]);
            assert_eq!(a["message"], t["message"]);
            for (x, y) in logprobs(a).iter().zip(logprobs(t)) {
                assert!((x - y).abs() < 1e-4, "{x} vs {y}");
            }
        }
        let batches = after["batches"].as_u64().unwrap() - before["batches"].as_u64().unwrap();
        let rows = after["rows"].as_u64().unwrap() - before["rows"].as_u64().unwrap();
        assert_eq!(rows, 12);
        assert!(batches < 12, "12 concurrent requests took {batches} batches");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_answer_4xx_json_and_the_server_stays_up() {
    bounded(30, async {
        let s = start_policy(PolicyServerConfig { max_body_bytes: 4096, ..Default::default() }).await;
        let post_raw = |body: &'static str| {
            s.client
                .post(format!("{}/v1/chat/completions", s.base))
                .header("content-type", "application/json")
                .body(body)
        };
        s.send(post_raw("{not json")).await.expect_error(400, "malformed_json");
        s.send(post_raw("")).await.expect_error(400, "missing_body");
        for (extra, param, code) in [
            (json!({"temperature": "warm"}), "temperature", "wrong_type"),
            (json!({"temperature": 9}), "temperature", "bad_temperature"),
            (json!({"n": 0}), "n", "bad_n"),
            (json!({"n": 99}), "n", "bad_n"),
            (json!({"max_tokens": 0}), "max_tokens", "bad_max_tokens"),
            (json!({"max_tokens": 5000}), "max_tokens", "context_length_exceeded"),
            (json!({"messages": "hi"}), "messages", "wrong_type"),
            (json!({"messages": [{"role": "wizard", "content": "hi"}]}), "messages[0].role", "bad_role"),
            (json!({"stop": [1, 2]}), "stop", "wrong_type"),
            (json!({"top_logprobs": 50, "logprobs": true}), "top_logprobs", "bad_top_logprobs"),
            (
                json!({"tools": [{"type": "function", "function": {"name": "f"}}]}),
                "tools",
                "unsupported_parameter",
            ),
            (json!({"frequency_penalty": 1.0}), "frequency_penalty", "unsupported_parameter"),
            (json!({"mystery": true}), "mystery", "unknown_field"),
        ] {
            let a = s.post("/v1/chat/completions", ask(extra.clone())).await;
            a.expect_error(400, code);
            assert_eq!(a.body["error"]["param"], param, "{extra}: {}", a.body);
            assert_eq!(a.body["error"]["type"], "invalid_request_error");
        }
        let long = "y".repeat(3000);
        let a = s
            .post(
                "/v1/chat/completions",
                ask(json!({"messages": [{"role": "user", "content": long.repeat(2)}]})),
            )
            .await;
        a.expect_error(413, "body_too_large");
        let long_prompt =
            ask(json!({"messages": [{"role": "user", "content": "z".repeat(2100)}], "max_tokens": 1}));
        let s2 = start_policy(PolicyServerConfig::default()).await;
        let a = s2.post("/v1/chat/completions", long_prompt).await;
        a.expect_error(400, "context_length_exceeded");
        assert_eq!(a.body["error"]["param"], "messages");
        s.get("/v1/nothing").await.expect_error(404, "unknown_route");
        s.get("/v1/chat/completions").await.expect_error(405, "method_not_allowed");
        let ok = s.post("/v1/chat/completions", ask(json!({}))).await;
        assert_eq!(ok.status, 200, "{}", ok.body);
        assert_eq!(s.get("/health").await.body["panics"], 0);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_are_checked_and_a_full_queue_answers_503() {
    bounded(60, async {
        let s =
            start_policy(PolicyServerConfig { api_key: Some("sk-test".into()), ..Default::default() }).await;
        s.post("/v1/chat/completions", ask(json!({}))).await.expect_error(401, "invalid_token");
        let wrong = s.client.get(format!("{}/v1/models", s.base)).bearer_auth("sk-nope");
        s.send(wrong).await.expect_error(401, "invalid_token");
        let right = s.client.get(format!("{}/v1/models", s.base)).bearer_auth("sk-test");
        assert_eq!(s.send(right).await.status, 200);
        assert_eq!(s.get("/health").await.status, 200, "health needs no key");

        let s = start_policy(PolicyServerConfig {
            max_queue: 1,
            max_batch: 1,
            batch_wait_ms: 0,
            ..Default::default()
        })
        .await;
        let slow = ask(json!({"max_tokens": 400}));
        let answers = futures_util::future::join_all(
            (0..8).map(|_| s.client.post(format!("{}/v1/chat/completions", s.base)).json(&slow).send()),
        )
        .await;
        let mut full = 0;
        for a in answers {
            let a = a.unwrap();
            if a.status() == 503 {
                full += 1;
                assert_eq!(a.headers()["retry-after"], "1");
                let body: Value = a.json().await.unwrap();
                assert_eq!(body["error"]["code"], "queue_full");
            } else {
                assert_eq!(a.status(), 200);
            }
        }
        assert!(full >= 1, "8 requests into a queue of 1 should see a 503");
        assert!(s.get("/health").await.body["rejected"].as_u64().unwrap() >= 1);
        assert_eq!(s.post("/v1/chat/completions", ask(json!({}))).await.status, 200);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_leaving_mid_stream_cancels_its_rows() {
    bounded(30, async {
        let s = start_policy(PolicyServerConfig::default()).await;
        let mut resp = s
            .client
            .post(format!("{}/v1/chat/completions", s.base))
            .json(&ask(
                json!({"max_tokens": 2000, "stream": true, "messages": [{"role": "user", "content": "a"}]}),
            ))
            .send()
            .await
            .unwrap();
        assert!(resp.chunk().await.unwrap().is_some());
        drop(resp);
        // The worker drops the abandoned row at its next token, so this answers quickly.
        let t0 = std::time::Instant::now();
        assert_eq!(s.post("/v1/chat/completions", ask(json!({"max_tokens": 4}))).await.status, 200);
        let tokens = s.get("/health").await.body["tokens"].as_u64().unwrap();
        assert!(
            tokens < 1500,
            "{tokens} tokens sampled: the abandoned stream was not cancelled ({:?})",
            t0.elapsed()
        );
    })
    .await;
}
