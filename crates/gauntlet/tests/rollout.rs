//! `gauntlet rollout --trainer URL` as a second process: a training run with `[serve]` and
//! `rl.source = "agents"` trains on the episodes the worker plays through its endpoint, and both
//! processes exit cleanly (the worker when the endpoint goes away); a worker killed in the
//! middle of its episodes loses only the episodes it had in flight.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

mod common;
use common::TINY_MODEL;

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gauntlet"));
    c.env("NO_PROGRESS", "1").env("RAYON_NUM_THREADS", "1");
    c
}

/// A 27k-parameter byte-level model, no SFT, two RL steps of 2 groups × 2 episodes of `task`
/// from agents, its endpoint on a free port (plus `serve_extra` lines in `[serve]`). One thread:
/// `gauntlet train` runs on the compute pool's only worker and waits there for agents'
/// episodes, running the served policy's sampling meanwhile (a wait that held the worker would
/// never end).
fn config(dir: &Path, task: &str, serve_extra: &str) -> std::path::PathBuf {
    let path = dir.join("agents.toml");
    let text = format!(
        r#"run_dir = "{}"
threads = 1
seed = 3
{TINY_MODEL}tokenizer = "bytes"
[[tasks]]
name = "{task}"
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
{serve_extra}
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

/// The RL steps' records in `run`'s metrics, checked to be the config's two.
fn two_rl_steps(run: &Path) -> Vec<serde_json::Value> {
    let metrics = std::fs::read_to_string(run.join("metrics.jsonl")).unwrap();
    let rl: Vec<serde_json::Value> = metrics
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|l| l["phase"] == "rl")
        .collect();
    assert_eq!(rl.len(), 2, "two RL steps:\n{metrics}");
    rl
}

/// Starts `gauntlet train --config cfg` and reads its log until it says where its endpoint
/// listens. Returns the child, its log so far and from now on, and the endpoint's address.
fn start_train(cfg: &Path) -> (std::process::Child, Vec<String>, mpsc::Receiver<String>, String) {
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
    (train, seen, train_log, addr)
}

#[test]
fn a_rollout_worker_in_another_process_feeds_a_training_run_and_stops_when_it_ends() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path(), "caesar", "");
    let deadline = Instant::now() + Duration::from_secs(300);
    let (mut train, mut seen, train_log, addr) = start_train(&cfg);
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
    let rl = two_rl_steps(&run);
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

/// The endpoint's `GET /health`, over a plain HTTP/1.1 connection.
fn health(addr: &str) -> serde_json::Value {
    let host = addr.trim_start_matches("http://");
    let mut conn = std::net::TcpStream::connect(host).expect("the endpoint accepts connections");
    conn.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(conn, "GET /health HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").unwrap();
    let mut reply = String::new();
    conn.read_to_string(&mut reply).unwrap();
    let body = reply.split("\r\n\r\n").nth(1).unwrap_or_else(|| panic!("no body in {reply}"));
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// Polls `/health` until `done` holds for it (at most 60 s).
fn health_until(addr: &str, what: &str, done: impl Fn(&serde_json::Value) -> bool) -> serde_json::Value {
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let h = health(addr);
        if done(&h) {
            return h;
        }
        assert!(Instant::now() < until, "{what} never happened: {h}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_rollout_worker_killed_mid_episode_loses_only_the_episodes_it_had_in_flight() {
    let dir = tempfile::tempdir().unwrap();
    // guess_number: several calls per episode; an episode idle for 3 s is abandoned.
    let cfg = config(dir.path(), "guess_number", "episode_timeout_s = 3");
    let deadline = Instant::now() + Duration::from_secs(300);
    let (mut train, mut seen, train_log, addr) = start_train(&cfg);
    let rollout = |worker: &str, seed: &str| {
        bin()
            .args(["rollout", "--trainer", &addr, "--tasks", "guess_number", "--level", "1"])
            .args(["--group-size", "2", "--groups", "1", "--concurrency", "1", "--max-tokens", "6"])
            .args(["--seed", seed, "--worker", worker, "--retries", "0"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("rollout starts")
    };
    // Worker `wa` is stopped (SIGSTOP) once it has reported an episode and has episodes open:
    // in the middle of a batch. Stopped, it can neither call nor report; a call in flight still
    // lands. If its episodes were all reported just before the stop it is let go on and caught
    // again; once it is caught mid-episode it is killed.
    let mut wa = rollout("wa", "21");
    let signal = |sig: &str, pid: u32| {
        let ok = Command::new("kill").args([sig, &pid.to_string()]).status().unwrap().success();
        assert!(ok, "kill {sig} {pid}");
    };
    let in_flight = loop {
        health_until(&addr, "wa's episodes in flight", |h| {
            h["episodes_finished"].as_u64() > Some(0) && h["episodes_open"] != 0
        });
        signal("-STOP", wa.id());
        // Until a call in flight has landed: the same count twice, 300 ms apart.
        let mut open = health(&addr)["episodes_open"].as_u64().unwrap();
        loop {
            std::thread::sleep(Duration::from_millis(300));
            let again = health(&addr)["episodes_open"].as_u64().unwrap();
            if again == open {
                break;
            }
            open = again;
        }
        if open > 0 {
            break open;
        }
        signal("-CONT", wa.id());
    };
    wa.kill().unwrap();
    wa.wait().unwrap();
    // Its open episodes are abandoned after 3 s without a call.
    let h = health_until(&addr, "wa's episodes abandoned", |h| h["episodes_open"] == 0);
    assert_eq!(h["episodes_abandoned"], in_flight, "exactly the episodes in flight are lost: {h}");

    // A second worker plays the rest of the run.
    let mut wb = rollout("wb", "22");
    let trained = wait(&mut train, deadline, "gauntlet train");
    seen.extend(train_log.try_iter());
    let log = seen.join("\n");
    assert!(trained.success(), "the run failed:\n{log}");
    wait(&mut wb, deadline, "the second worker");

    // The run names each abandoned episode once; they are `wa`'s, all of its last batch.
    let abandoned: Vec<&str> = seen
        .iter()
        .filter(|l| l.contains("abandoned"))
        .filter_map(|l| l.split("episode `").nth(1)?.split('`').next())
        .collect();
    assert_eq!(abandoned.len() as u64, in_flight, "{log}");
    let batch_of = |id: &str| id.split('-').nth(1).unwrap().parse::<u64>().unwrap();
    let last = batch_of(abandoned[0]);
    assert!(abandoned.iter().all(|id| id.starts_with("wa-") && batch_of(id) == last), "{abandoned:?}");
    // Every other episode is kept: `wa`'s earlier batches whole, then `wb`'s, and two full steps.
    let run = dir.path().join("run");
    let traces = std::fs::read_to_string(run.join("traces.jsonl")).unwrap();
    let ids: Vec<String> = traces
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["id"].as_str().unwrap().to_string())
        .collect();
    let from_wa: Vec<&String> = ids.iter().filter(|id| id.starts_with("wa-")).collect();
    let before_last = from_wa.iter().filter(|id| batch_of(id) < last).count() as u64;
    assert_eq!(before_last, 2 * last, "wa's batches before the kill are whole: {ids:?}");
    assert!(from_wa.iter().all(|id| !abandoned.contains(&id.as_str())), "{ids:?}");
    assert!(ids.iter().all(|id| id.starts_with("wa-") || id.starts_with("wb-")), "{ids:?}");
    let rl = two_rl_steps(&run);
    for l in &rl {
        assert!(l["logprob_gap"].as_f64().unwrap().abs() < 1e-4, "the sampled log-probs: {l}");
    }
}
