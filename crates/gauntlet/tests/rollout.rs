//! `gauntlet rollout --trainer URL` as a second process: a training run with `[serve]` and
//! `rl.source = "agents"` trains on the episodes the worker plays through its endpoint, and both
//! processes exit cleanly (the worker when the endpoint goes away).

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gauntlet"));
    c.env("NO_PROGRESS", "1").env("RAYON_NUM_THREADS", "1");
    c
}

/// A 27k-parameter byte-level model, no SFT, two RL steps of 2 groups × 2 episodes from agents,
/// its endpoint on a free port. One thread: `gauntlet train` runs on the compute pool's only
/// worker and waits there for agents' episodes, running the served policy's sampling meanwhile
/// (a wait that held the worker would never end).
fn config(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("agents.toml");
    let text = format!(
        r#"run_dir = "{}"
threads = 1
seed = 3
[model]
hidden_size = 32
num_hidden_layers = 1
num_attention_heads = 2
intermediate_size = 64
max_position_embeddings = 512
tokenizer = "bytes"
[[tasks]]
name = "caesar"
level = 1
max_level = 1
[curriculum]
enabled = false
[sft]
steps = 0
[rl]
source = "agents"
steps = 2
prompts_per_step = 2
group_size = 2
max_tokens = 6
dynamic_sampling = false
max_staleness = 0
[eval]
before_sft = false
after_sft = false
n = 2
max_tokens = 4
[checkpoint]
every = 0
[serve]
port = 0
name = "learner"
"#,
        dir.join("run").display()
    );
    std::fs::write(&path, text).unwrap();
    path
}

/// Every stderr line of a child, sent as it comes.
fn lines_of(stderr: impl std::io::Read + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// Waits for `child` to exit, at most until `deadline`; kills it past that.
fn wait(child: &mut std::process::Child, deadline: Instant, what: &str) -> std::process::ExitStatus {
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{what} did not exit in time");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_rollout_worker_in_another_process_feeds_a_training_run_and_stops_when_it_ends() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path());
    let deadline = Instant::now() + Duration::from_secs(300);
    let mut train = bin()
        .args(["train", "--config", cfg.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("train starts");
    let train_log = lines_of(train.stderr.take().unwrap());
    let mut seen = Vec::new();
    // The run log says where the endpoint listens (a free port: `[serve] port = 0`).
    let addr = loop {
        let line = train_log.recv_timeout(Duration::from_secs(120)).unwrap_or_else(|_| {
            let _ = train.kill();
            panic!("the run never served its policy:\n{}", seen.join("\n"))
        });
        seen.push(line.clone());
        if let Some(rest) = line.split("serving the policy on ").nth(1) {
            break rest.split_whitespace().next().unwrap().trim_end_matches("/v1").to_string();
        }
    };
    let mut worker = bin()
        .args(["rollout", "--trainer", &addr, "--tasks", "caesar", "--group-size", "2", "--groups", "2"])
        .args(["--max-tokens", "6", "--seed", "11", "--worker", "w11", "--retries", "0"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rollout starts");
    let worker_log = lines_of(worker.stderr.take().unwrap());

    let trained = wait(&mut train, deadline, "gauntlet train");
    seen.extend(train_log.try_iter());
    assert!(trained.success(), "the run failed:\n{}", seen.join("\n"));
    let done = wait(&mut worker, deadline, "gauntlet rollout");
    let said: Vec<String> = worker_log.iter().collect();
    assert!(done.success(), "the worker failed:\n{}", said.join("\n"));
    let said = said.join("\n");
    assert!(said.contains("episodes reported") && said.contains("went away"), "{said}");

    let run = dir.path().join("run");
    let metrics = std::fs::read_to_string(run.join("metrics.jsonl")).unwrap();
    let rl: Vec<serde_json::Value> = metrics
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|l| l["phase"] == "rl")
        .collect();
    assert_eq!(rl.len(), 2, "two RL steps:\n{metrics}");
    for l in &rl {
        assert_eq!(l["rows"], 4, "prompts_per_step x group_size episodes per step: {l}");
        assert!(l["logprob_gap"].as_f64().unwrap().abs() < 1e-4, "the sampled log-probs: {l}");
    }
    // The worker's first groups: two problems, each played twice.
    assert_eq!(rl[0]["groups"], 2, "{}", rl[0]);
    // Every recorded episode is the worker's, its id `WORKER-BATCH-INDEX`, its problem reported.
    let traces = std::fs::read_to_string(run.join("traces.jsonl")).unwrap();
    let records: Vec<serde_json::Value> = traces.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(records.len() >= 8, "{} traces", records.len());
    for r in &records {
        assert!(r["id"].as_str().unwrap().starts_with("w11-"), "{}", r["id"]);
        assert_eq!(r["episode"]["spec"]["env"], "caesar");
        assert!(r["temperatures"].as_array().unwrap().iter().all(|t| t == 1.0), "{}", r["temperatures"]);
    }
}
