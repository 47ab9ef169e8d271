//! Episode traces on the policy server (issue 36): an outside agent's tagged calls come back as
//! an episode record with exactly the token ids and log-probs the server sampled, and every
//! misuse of the reward route answers a clear error without touching the records.

use crate::util::{start_policy, Server};
use gauntlet_episode::Granularity;
use gauntlet_serve::policy::traces::{read_traces, EPISODE_HEADER};
use gauntlet_serve::PolicyServerConfig;
use serde_json::{json, Value};

async fn call(s: &Server, episode: Option<&str>, messages: Value, extra: Value) -> (u16, Value) {
    let mut body = json!({"model": "tiny", "messages": messages, "max_tokens": 8, "seed": 3,
                          "logprobs": true, "return_token_ids": true});
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    let mut req = s.client.post(format!("{}/v1/chat/completions", s.base)).json(&body);
    if let Some(id) = episode {
        req = req.header(EPISODE_HEADER, id);
    }
    let resp = req.send().await.unwrap();
    let status = resp.status().as_u16();
    let text = resp.text().await.unwrap();
    let v = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, v)
}

async fn reward(s: &Server, id: &str, body: Value) -> (u16, Value) {
    let resp = s.client.post(format!("{}/v1/episodes/{id}/reward", s.base)).json(&body).send().await.unwrap();
    (resp.status().as_u16(), resp.json().await.unwrap())
}

fn u32s(v: &Value) -> Vec<u32> {
    v.as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as u32).collect()
}

fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("gauntlet-traces-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&d);
    d
}

/// A three-call conversation whose calls extend each other: the record holds every call's
/// prompt and completion ids and log-probs exactly as answered (streamed or not), the
/// per-call rewards, and trains as one sequence.
#[tokio::test]
async fn a_tagged_conversation_becomes_an_exact_episode_record() {
    let file = tmp("conversation.jsonl");
    let s = start_policy(PolicyServerConfig { traces: Some(file.clone()), ..Default::default() }).await;
    let mut messages = vec![json!({"role": "user", "content": "Guess a number from 1 to 10."})];
    let mut answered = vec![];
    for turn in 0..3 {
        let extra = if turn == 1 { json!({"stream": false, "temperature": 0.7}) } else { json!({}) };
        let (status, v) = call(&s, Some("ep-1"), json!(messages), extra).await;
        assert_eq!(status, 200, "{v}");
        let c = &v["choices"][0];
        let lps: Vec<f32> = c["logprobs"]["content"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["logprob"].as_f64().unwrap() as f32)
            .collect();
        answered.push((u32s(&v["prompt_token_ids"]), u32s(&c["token_ids"]), lps));
        messages.push(json!({"role": "assistant", "content": c["message"]["content"]}));
        messages.push(json!({"role": "user", "content": format!("Not yet ({turn}).")}));
    }
    let open: Value =
        s.client.get(format!("{}/v1/episodes/ep-1", s.base)).send().await.unwrap().json().await.unwrap();
    assert_eq!(open["calls"], 3);
    let (status, v) =
        reward(&s, "ep-1", json!({"rewards": [0.0, 0.5, 1.0], "task": "guess", "seed": 7})).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (v["calls"].as_u64(), v["return"].as_f64(), v["success"].as_bool()),
        (Some(3), Some(1.5), Some(true))
    );
    let records = read_traces(&file).unwrap();
    assert_eq!(records.len(), 1);
    let r = &records[0];
    assert_eq!((r.id.as_str(), r.episode.spec.env.as_str(), r.episode.spec.seed), ("ep-1", "guess", 7));
    assert_eq!(r.temperatures, vec![1.0, 0.7, 1.0]);
    for (t, (p, ids, lps)) in r.episode.turns.iter().zip(&answered) {
        assert_eq!((&t.prompt_ids, &t.response_ids), (p, ids));
        assert_eq!(&t.logprobs, lps, "the log-probs are the ones the server sent");
    }
    assert_eq!(r.episode.turns.iter().map(|t| t.reward).collect::<Vec<_>>(), vec![0.0, 0.5, 1.0]);
    // When each call's prompt extends the previous call's prompt and answer, the episode trains
    // as one sequence with a loss span per call; otherwise (the tiny model's random bytes may
    // not survive the client's round trip through text) one row per call.
    let t = &r.episode.turns;
    let extends = t.windows(2).all(|w| {
        let head: Vec<u32> = w[0].prompt_ids.iter().chain(&w[0].response_ids).copied().collect();
        w[1].prompt_ids.starts_with(&head)
    });
    let seqs = r.episode.sequences(0, Granularity::Trajectory);
    let want = if extends { vec![3] } else { vec![1, 1, 1] };
    assert_eq!(seqs.iter().map(|q| q.spans.len()).collect::<Vec<_>>(), want, "{seqs:?}");
    let _ = std::fs::remove_file(&file);
}

/// Streamed calls are recorded exactly like whole ones.
#[tokio::test]
async fn streamed_calls_are_recorded_with_their_tokens() {
    let file = tmp("streamed.jsonl");
    let s = start_policy(PolicyServerConfig { traces: Some(file.clone()), ..Default::default() }).await;
    let m = json!([{"role": "user", "content": "hi"}]);
    let (_, whole) = call(&s, None, m.clone(), json!({})).await;
    let resp = s
        .client
        .post(format!("{}/v1/chat/completions", s.base))
        .header(EPISODE_HEADER, "streamed")
        .json(&json!({"model": "tiny", "messages": m, "max_tokens": 8, "seed": 3, "stream": true}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let _ = resp.text().await.unwrap();
    let (status, v) = reward(&s, "streamed", json!({"reward": 0.0})).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["success"], false);
    // The same seed samples the same tokens whether streamed or not.
    let t = &read_traces(&file).unwrap()[0].episode.turns[0];
    assert_eq!(t.response_ids, u32s(&whole["choices"][0]["token_ids"]));
    assert_eq!(t.prompt_ids, u32s(&whole["prompt_token_ids"]));
    assert_eq!(t.response_ids.len(), t.logprobs.len());
    let _ = std::fs::remove_file(&file);
}

/// Unknown episodes, second rewards, wrong reward lengths, bad bodies, `n > 1` and bad ids each
/// get their own 4xx, and none of them writes or loses a record.
#[tokio::test]
async fn misuse_answers_clear_errors_and_loses_nothing() {
    let file = tmp("misuse.jsonl");
    let s = start_policy(PolicyServerConfig { traces: Some(file.clone()), ..Default::default() }).await;
    let m = json!([{"role": "user", "content": "hi"}]);
    let code = |v: &Value| v["error"]["code"].as_str().unwrap_or("").to_string();
    let (st, v) = reward(&s, "nobody", json!({"reward": 1.0})).await;
    assert_eq!((st, code(&v).as_str()), (404, "unknown_episode"));
    assert_eq!(call(&s, Some("a"), m.clone(), json!({})).await.0, 200);
    assert_eq!(call(&s, Some("a"), m.clone(), json!({})).await.0, 200);
    for (body, status, want) in [
        (json!({"rewards": [1.0]}), 400, "rewards_length"),
        (json!({"reward": 1.0, "rewards": [1.0, 0.0]}), 400, "conflicting_fields"),
        (json!({}), 400, "missing_field"),
        (json!({"reward": "yes"}), 400, "wrong_type"),
        (json!({"reward": 1.0, "level": 9}), 400, "out_of_range"),
        (json!({"reward": 1.0, "bonus": 1}), 400, "unknown_field"),
    ] {
        let (st, v) = reward(&s, "a", body.clone()).await;
        assert_eq!((st, code(&v).as_str()), (status, want), "{body}: {v}");
    }
    assert!(!file.exists(), "no record is written by a refused reward");
    assert_eq!(reward(&s, "a", json!({"reward": 1.0})).await.0, 200);
    let (st, v) = reward(&s, "a", json!({"reward": 1.0})).await;
    assert_eq!((st, code(&v).as_str()), (409, "reward_reported"));
    let (st, v) = call(&s, Some("a"), m.clone(), json!({})).await;
    assert_eq!((st, code(&v).as_str()), (409, "episode_finished"));
    let (st, v) = call(&s, Some("b"), m.clone(), json!({"n": 2})).await;
    assert_eq!((st, code(&v).as_str()), (400, "episode_n"));
    let (st, v) = call(&s, Some("has space"), m, json!({})).await;
    assert_eq!((st, code(&v).as_str()), (400, "bad_episode_id"));
    let records = read_traces(&file).unwrap();
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].episode.turns.len(), 2);
    let health: Value =
        s.client.get(format!("{}/health", s.base)).send().await.unwrap().json().await.unwrap();
    assert_eq!((health["episodes_finished"].as_u64(), health["episodes_open"].as_u64()), (Some(1), Some(0)));
    let _ = std::fs::remove_file(&file);
}

/// An episode with no call for the timeout is abandoned: its reward answers 404, and so does
/// nothing else change.
#[tokio::test]
async fn idle_episodes_are_abandoned() {
    let s = start_policy(PolicyServerConfig { episode_timeout_s: 1, ..Default::default() }).await;
    let m = json!([{"role": "user", "content": "hi"}]);
    assert_eq!(call(&s, Some("slow"), m, json!({})).await.0, 200);
    tokio::time::sleep(std::time::Duration::from_millis(1_300)).await;
    let (st, v) = reward(&s, "slow", json!({"reward": 1.0})).await;
    assert_eq!((st, v["error"]["code"].as_str()), (404, Some("episode_abandoned")));
    let health: Value =
        s.client.get(format!("{}/health", s.base)).send().await.unwrap().json().await.unwrap();
    assert_eq!(health["episodes_abandoned"], 1);
}
