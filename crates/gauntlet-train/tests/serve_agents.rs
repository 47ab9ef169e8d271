//! `[serve]` with `rl.source = "agents"`: an outside agent (plain HTTP, no gauntlet code on its
//! side but the task's prompt and verifier) plays through the trainer's endpoint, tags its calls
//! with an episode id, reports each episode's reward, and the trainer trains on those episodes,
//! swapping in its new weights after each update.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use gauntlet_core::Difficulty;
use gauntlet_train::config::{TaskMix, TrainConfig};
use gauntlet_train::{metrics, Quiet, Trainer};
use serde_json::{json, Value};

mod common;

fn tiny(dir: &std::path::Path) -> TrainConfig {
    let mut c = common::tiny_model(dir);
    c.model.tokenizer = "bytes".into();
    c.tasks = vec![TaskMix { name: "caesar".into(), weight: 1.0, level: 1, max_level: 1 }];
    c.sft.steps = 0;
    c.rl.steps = 3;
    c.rl.prompts_per_step = 2;
    c.rl.group_size = 2;
    c.rl.max_tokens = 6;
    c.rl.entropy_coef = 0.01;
    c.rl.dynamic_sampling = false;
    c.rl.optim.warmup_steps = 1;
    c.rl.source = "agents".into();
    c.eval.before_sft = false;
    c.eval.after_sft = false;
    c.eval.n = 2;
    c.eval.max_tokens = 4;
    c.checkpoint.every = 0;
    c.serve =
        Some(gauntlet_serve::PolicyServerConfig { port: 0, name: "learner".into(), ..Default::default() });
    c
}

/// Plays caesar problems through `base` until `stop`, two episodes per problem (a group); returns
/// how many episodes it finished.
async fn agent(base: String, temperature: f64, stop: Arc<AtomicBool>) -> usize {
    let task = gauntlet_tasks::get("caesar").unwrap();
    let http = reqwest::Client::new();
    let mut done = 0;
    for seed in 0u64.. {
        for copy in 0..2 {
            if stop.load(Ordering::SeqCst) {
                return done;
            }
            let inst = task.instance(seed, Difficulty::new(1).unwrap());
            let id = format!("caesar-{seed}-{copy}");
            let body = json!({"model": "learner", "messages": [{"role": "user", "content": inst.prompt}],
                              "temperature": temperature, "max_tokens": 6, "seed": seed * 2 + copy});
            let Ok(r) = http
                .post(format!("{base}/v1/chat/completions"))
                .header("x-gauntlet-episode", &id)
                .json(&body)
                .send()
                .await
            else {
                return done;
            };
            let Ok(answer) = r.json::<Value>().await else { return done };
            let text = answer["choices"][0]["message"]["content"].as_str().unwrap_or_default().to_string();
            let score = task.score_of(&inst.problem, &text).unwrap();
            let report = json!({"reward": score.reward, "task": "caesar", "seed": seed, "level": 1});
            let Ok(r) = http.post(format!("{base}/v1/episodes/{id}/reward")).json(&report).send().await
            else {
                return done;
            };
            assert!(r.status().is_success(), "reward refused: {}", r.text().await.unwrap_or_default());
            done += 1;
        }
    }
    done
}

#[test]
fn the_trainer_learns_from_an_outside_agents_episodes_and_serves_each_new_version() {
    let dir = std::env::temp_dir().join(format!("gauntlet-train-{}-agents", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cfg = tiny(&dir);
    let temperature = cfg.rl.temperature;
    let mut trainer = Trainer::new(cfg).unwrap();
    trainer.start_serving(&mut Quiet).unwrap();
    let base = format!("http://{}", trainer.serving.as_ref().unwrap().addr);
    let stop = Arc::new(AtomicBool::new(false));
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let played = rt.spawn(agent(base, temperature, stop.clone()));
    trainer.run(&mut Quiet).unwrap();
    stop.store(true, Ordering::SeqCst);
    let played = rt.block_on(played).unwrap();
    drop(trainer);

    let lines = metrics::read(&dir.join("metrics.jsonl")).unwrap();
    let rl: Vec<&serde_json::Map<String, Value>> = lines.iter().filter(|l| l["phase"] == "rl").collect();
    assert_eq!(rl.len(), 3, "three RL steps on the agent's episodes");
    for l in &rl {
        assert_eq!(l["rows"], 4, "each step trains prompts_per_step x group_size episodes: {l:?}");
        // Exactly the behaviour log-probs the server recorded (the same weights recompute them).
        assert!(l["logprob_gap"].as_f64().unwrap().abs() < 1e-4, "{l:?}");
    }
    // The oldest episodes first, grouped by the problem the agent reported: the first step's four
    // are two problems played twice (later steps may start mid-group after stale drops).
    assert_eq!(rl[0]["groups"], 2, "{:?}", rl[0]);
    // The agent kept playing while the trainer updated: the episodes sampled by a version the
    // trainer had moved past were dropped (max_staleness = 0), never trained on.
    let traces = gauntlet_serve::policy::traces::read_traces(&dir.join("traces.jsonl")).unwrap();
    assert!(traces.len() >= 12 && played >= traces.len(), "{} traces, {played} played", traces.len());
    let versions: std::collections::BTreeSet<u64> =
        traces.iter().flat_map(|r| r.episode.turns.iter().map(|t| t.policy_version)).collect();
    // Each update's weights were served in turn: the versions are consecutive optimiser steps.
    assert!(versions.len() >= 3, "{versions:?}");
    let v: Vec<u64> = versions.iter().copied().collect();
    assert!(v.windows(2).all(|w| w[1] == w[0] + 1), "{versions:?}");
    let stale = rl.last().unwrap()["stale_dropped"].as_u64().unwrap() as usize;
    let trained = 12;
    assert!(traces.len() >= trained + stale, "{} traces, {stale} stale", traces.len());
    let _ = std::fs::remove_dir_all(&dir);
}
