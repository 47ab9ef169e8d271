//! End-to-end tests of `gauntlet serve policy` with `gauntlet eval --policy openai:…`, run as a
//! user would: the HTTP evaluation reports what the in-process one reports, an evaluation
//! survives its server being killed and restarted (every episode scored or recorded as failed,
//! a re-run completes it), and the official `openai` Python client talks to the server.
//!
//! Most tests serve a tiny random model saved with `gauntlet_model::checkpoint`, so they take
//! seconds; the Python client test serves SmolLM2 (`GAUNTLET_SMOLLM2_GGUF`) and needs the
//! interpreter of a venv with `openai` (`GAUNTLET_OPENAI_PYTHON`); `scripts/test.sh` provides both
//! and the test skips with a message without them.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use gauntlet_model::{checkpoint, ChatTemplate, Config, Tokenizer};

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gauntlet"));
    c.env("NO_PROGRESS", "1").env("RAYON_NUM_THREADS", "1");
    c
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("binary runs")
}

fn ok(args: &[&str]) -> Output {
    let out = run(args);
    assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

/// A tiny random model saved as a Hugging Face folder named `tiny` (so it is served as `tiny`).
fn tiny_model(root: &Path) -> PathBuf {
    let dir = root.join("tiny");
    let cfg = Config::tiny(260);
    let (_, vars) = checkpoint::new_model(&cfg, &candle_core::Device::Cpu, 7).unwrap();
    checkpoint::save_chat(&dir, &vars, &cfg, &Tokenizer::bytes(), &ChatTemplate::chatml(), &[]).unwrap();
    dir
}

/// A running `gauntlet serve policy`; killed when dropped.
struct PolicyServer {
    child: Child,
    base: String,
}

impl PolicyServer {
    /// Starts the server on `port` (0: any) and waits until it listens.
    fn start(model: &str, port: u16) -> PolicyServer {
        let mut child = bin()
            .args(["serve", "policy", "--model", model, "--port", &port.to_string(), "--threads", "1"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("server starts");
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let base = loop {
            let line = lines.next().expect("the server prints its address").unwrap();
            if let Some(rest) = line.split("listening on ").nth(1) {
                break rest.split_whitespace().next().unwrap().to_string();
            }
        };
        // Keep draining stderr so the server never blocks on a full pipe.
        std::thread::spawn(move || lines.for_each(drop));
        PolicyServer { child, base }
    }

    fn port(&self) -> u16 {
        self.base.rsplit(':').next().unwrap().trim_end_matches("/v1").parse().unwrap()
    }

    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for PolicyServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn lines(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

#[test]
fn eval_over_http_reports_what_eval_in_process_reports() {
    let tmp = tempfile::tempdir().unwrap();
    let model = tiny_model(tmp.path());
    let server = PolicyServer::start(model.to_str().unwrap(), 0);
    let common =
        ["--tasks", "caesar,guess_number", "-n", "5", "-k", "2", "--max-tokens", "12", "--seed", "3"];
    let spec = format!("openai:{}#tiny", server.base);
    let mut http = vec!["eval", "--policy", &spec, "--concurrency", "3"];
    http.extend(common);
    let local_spec = format!("local:{}", model.display());
    let mut local = vec!["eval", "--policy", &local_spec];
    local.extend(common);
    let over_http = ok(&http);
    let in_process = ok(&local);
    let table = String::from_utf8(over_http.stdout).unwrap();
    assert!(table.starts_with("| task | level | n | k | pass@1 |"), "{table}");
    assert!(
        table.contains("| caesar | 1 | 5 | 2 |") && table.contains("| guess_number | 1 | 5 | 2 |"),
        "{table}"
    );
    assert_eq!(table, String::from_utf8(in_process.stdout).unwrap());
    let err = String::from_utf8_lossy(&over_http.stderr);
    assert!(err.contains("0 failed"), "{err}");
    // A policy spec without a model says how to write one.
    let bad = run(&["eval", "--policy", &format!("openai:{}", server.base), "-n", "1"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("openai:URL#MODEL"));
}

#[test]
fn an_eval_survives_its_server_being_killed_and_restarted() {
    let tmp = tempfile::tempdir().unwrap();
    let model = tiny_model(tmp.path());
    let model = model.to_str().unwrap();
    let server = PolicyServer::start(model, 0);
    let port = server.port();
    let spec = format!("openai:{}#tiny", server.base);
    let results = tmp.path().join("results.jsonl");
    let (n, k) = (40, 2);
    let (n_s, k_s) = (n.to_string(), k.to_string());
    let args = [
        "eval",
        "--policy",
        &spec,
        "--tasks",
        "caesar",
        "-n",
        &n_s,
        "-k",
        &k_s,
        "--max-tokens",
        "24",
        "--seed",
        "1",
        "--concurrency",
        "2",
        "--retries",
        "1",
        "--breaker-failures",
        "2",
        "--breaker-cooldown",
        "0.5",
        "--request-timeout",
        "10",
    ];
    let mut with_results: Vec<&str> = args.to_vec();
    let results_arg = results.to_str().unwrap().to_string();
    with_results.extend(["--results", &results_arg]);
    let mut eval = bin().args(&with_results).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    let wait_for = |what: &str, f: &dyn Fn(&[serde_json::Value]) -> bool| {
        while !f(&lines(&results)) {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    wait_for("some scored episodes", &|l| l.len() >= 6);
    server.kill();
    wait_for("a failed episode", &|l| l.iter().any(|r| !r["error"].is_null()));
    let restarted = PolicyServer::start(model, port);
    let out = loop {
        if let Some(status) = eval.try_wait().unwrap() {
            let out = eval.wait_with_output().unwrap();
            assert!(status.success(), "eval failed: {}", String::from_utf8_lossy(&out.stderr));
            break out;
        }
        assert!(Instant::now() < deadline, "the evaluation did not finish");
        std::thread::sleep(Duration::from_millis(50));
    };
    let recorded = lines(&results);
    let keys: std::collections::HashSet<(u64, u64)> =
        recorded.iter().map(|r| (r["seed"].as_u64().unwrap(), r["sample"].as_u64().unwrap())).collect();
    assert_eq!(keys.len(), n * k, "every episode has a line");
    assert_eq!(recorded.len(), n * k, "and only one");
    let first_failure = recorded.iter().position(|r| !r["error"].is_null()).unwrap();
    for r in &recorded {
        assert!(
            r["error"].is_null() || r["error"].as_str().unwrap().contains("POST http://127.0.0.1"),
            "{r}"
        );
    }
    assert!(
        recorded[first_failure..].iter().any(|r| r["error"].is_null()),
        "episodes after the restart are scored again"
    );
    let failed = recorded.iter().filter(|r| !r["error"].is_null()).count();
    let table = String::from_utf8(out.stdout).unwrap();
    let row = table.lines().nth(2).unwrap();
    assert!(row.ends_with(&format!("| {failed} |")), "the report counts the {failed} failures: {table}");
    // A re-run plays only the failed episodes and reports what an uninterrupted run reports.
    let again = ok(&with_results);
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(
        err.contains(&format!("{} of {} episodes already finished, {failed} to play", n * k - failed, n * k)),
        "{err}"
    );
    assert_eq!(lines(&results).len(), n * k + failed);
    let reference = ok(&args);
    assert_eq!(String::from_utf8(again.stdout).unwrap(), String::from_utf8(reference.stdout).unwrap());
    drop(restarted);
}

#[test]
fn the_official_openai_python_client_talks_to_the_server() {
    let (Some(python), Some(gguf)) =
        (std::env::var_os("GAUNTLET_OPENAI_PYTHON"), std::env::var_os("GAUNTLET_SMOLLM2_GGUF"))
    else {
        eprintln!(
            "skipping: set GAUNTLET_OPENAI_PYTHON (a Python with `openai`) and GAUNTLET_SMOLLM2_GGUF \
             (scripts/test.sh sets both)"
        );
        return;
    };
    let model = format!("gguf:{}", Path::new(&gguf).display());
    let server = PolicyServer::start(&model, 0);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/openai_client.py");
    let name = Path::new(&gguf).file_stem().unwrap().to_str().unwrap().to_string();
    let out = Command::new(python).arg(&script).arg(&server.base).arg(&name).output().expect("python runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("all checks passed"), "{stdout}");
}
