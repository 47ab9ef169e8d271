//! End-to-end tests of `gauntlet train`, `eval` and `play` as a user runs them.

use std::path::Path;
use std::process::{Command, Output, Stdio};

mod common;
use common::TINY_MODEL;

fn gauntlet(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gauntlet"))
        .args(args)
        .env("NO_PROGRESS", "1")
        .output()
        .expect("binary runs")
}

fn ok(args: &[&str]) -> Output {
    let out = gauntlet(args);
    assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

/// A run small enough for the test suite (a 30k-parameter model, a few steps).
fn tiny_config(dir: &Path, run: &str, sft_steps: usize) -> std::path::PathBuf {
    let path = dir.join(format!("{run}.toml"));
    let text = format!(
        r#"run_dir = "{}"
threads = 1
{TINY_MODEL}[[tasks]]
name = "caesar"
max_level = 2
[[tasks]]
name = "guess_number"
max_level = 2
[sft]
steps = {sft_steps}
batch_size = 3
[rl]
steps = 3
prompts_per_step = 2
group_size = 2
max_tokens = 8
entropy_coef = 0.01
[eval]
n = 4
every = 2
max_tokens = 8
[checkpoint]
every = 2
keep = 2
"#,
        dir.join(run).display()
    );
    std::fs::write(&path, text).unwrap();
    path
}

fn metrics(run: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(run.join("metrics.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: serde_json::Map<String, serde_json::Value> = serde_json::from_str(l).unwrap();
            v.retain(|k, _| !k.ends_with("time_s") && !k.ends_with("_per_s"));
            serde_json::Value::Object(v)
        })
        .collect()
}

#[test]
fn print_config_round_trips_and_bad_configs_are_refused() {
    let out = ok(&["train", "--print-config"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("[sft]") && text.contains("[rl]") && text.contains("estimator = \"gigpo\""));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.toml");
    std::fs::write(&path, &text).unwrap();
    let again = ok(&["train", "--config", path.to_str().unwrap(), "--print-config"]);
    assert_eq!(String::from_utf8(again.stdout).unwrap(), text);
    std::fs::write(&path, "[rl]\nloss = \"ppo2\"\n").unwrap();
    let out = gauntlet(&["train", "--config", path.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("rl.loss") && err.contains("c.toml"), "{err}");
    let out = gauntlet(&["train", "--resume", dir.path().join("nope").to_str().unwrap()]);
    assert!(!out.status.success());
}

#[test]
fn a_killed_run_resumes_to_the_same_metrics_and_eval_reproduces_the_report() {
    let dir = tempfile::tempdir().unwrap();
    // Uninterrupted.
    let cfg_a = tiny_config(dir.path(), "a", 40);
    ok(&["train", "--config", cfg_a.to_str().unwrap()]);
    let a = dir.path().join("a");
    for f in [
        "metrics.jsonl",
        "final/model.safetensors",
        "report/summary.md",
        "report/curves.svg",
        "samples/after_sft.jsonl",
        "samples/after_rl.jsonl",
    ] {
        assert!(a.join(f).exists(), "missing {f}");
    }
    // Killed with SIGKILL once a step checkpoint exists, then resumed.
    let cfg_b = tiny_config(dir.path(), "b", 40);
    let b = dir.path().join("b");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gauntlet"))
        .args(["train", "--config", cfg_b.to_str().unwrap()])
        .env("NO_PROGRESS", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t0 = std::time::Instant::now();
    loop {
        let n = std::fs::read_dir(b.join("checkpoints")).map(|d| d.count()).unwrap_or(0);
        if n >= 2 || t0.elapsed().as_secs() > 120 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // Whatever the kill interrupted, no half-written checkpoint is visible.
    for e in std::fs::read_dir(b.join("checkpoints")).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if !name.starts_with('.') {
            assert!(p.join("model.safetensors").exists() && p.join("trainer_state.json").exists(), "{name}");
        }
    }
    ok(&["train", "--resume", b.to_str().unwrap()]);
    assert_eq!(metrics(&a), metrics(&b));
    assert_eq!(
        std::fs::read(a.join("final/model.safetensors")).unwrap(),
        std::fs::read(b.join("final/model.safetensors")).unwrap()
    );

    // `eval --policy local:RUN` reproduces the reported after-RL numbers.
    let out_json = dir.path().join("eval.json");
    ok(&["eval", "--policy", &format!("local:{}", a.display()), "-o", out_json.to_str().unwrap()]);
    let ours: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out_json).unwrap()).unwrap();
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(a.join("report/summary.json")).unwrap()).unwrap();
    assert_eq!(ours["results"], summary["evals"]["after_rl"]);
}

/// Per-task `(task, level, pass@1)` of an evaluation's result rows.
fn pass_at_1(rows: &serde_json::Value) -> Vec<(String, u64, f64)> {
    rows.as_array()
        .expect("result rows")
        .iter()
        .map(|r| {
            (
                r["task"].as_str().unwrap().to_string(),
                r["level"].as_u64().unwrap(),
                r["pass_at_1"].as_f64().unwrap(),
            )
        })
        .collect()
}

/// Issue 32: `gauntlet eval --policy local:RUN` plays a run's games against the run's evaluation
/// opponent (`eval.opponent`), with the learner at the seat the trainer gave it, and its tasks
/// with the run's seed, `n`, `max_tokens` and temperature, so it reproduces the run's reported
/// numbers (it used to play games in self-play).
#[test]
fn eval_reproduces_a_self_play_runs_game_numbers_against_its_opponent() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("g.toml");
    let run = dir.path().join("g");
    std::fs::write(
        &cfg,
        format!(
            r#"run_dir = "{}"
threads = 1
seed = 5
{TINY_MODEL}[[tasks]]
name = "tic_tac_toe"
[[tasks]]
name = "caesar"
[sft]
steps = 150
batch_size = 6
[rl]
steps = 1
prompts_per_step = 2
group_size = 2
max_tokens = 8
opponent = "self"
[eval]
n = 8
max_tokens = 6
temperature = 0.7
after_sft = false
opponent = "random"
"#,
            run.display()
        ),
    )
    .unwrap();
    ok(&["train", "--config", cfg.to_str().unwrap()]);
    let out_json = dir.path().join("eval.json");
    ok(&["eval", "--policy", &format!("local:{}", run.display()), "-o", out_json.to_str().unwrap()]);
    let ours: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out_json).unwrap()).unwrap();
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("report/summary.json")).unwrap()).unwrap();
    let reported = &summary["evals"]["after_rl"];
    assert_eq!(ours["opponent"], "random");
    assert_eq!((&ours["max_tokens"], &ours["temperature"]), (&serde_json::json!(6), &serde_json::json!(0.7)));
    let tasks: Vec<String> = pass_at_1(reported).into_iter().map(|r| r.0).collect();
    assert_eq!(tasks, ["tic_tac_toe", "caesar"]);
    assert_eq!(pass_at_1(&ours["results"]), pass_at_1(reported));
    assert_eq!(ours["results"], *reported);
    // Self-play is a different evaluation: both seats are the learner's (its tokens at every
    // seat count), so the game's row differs while the task's does not. (150 SFT steps teach the
    // tiny model enough moves for the opponent to matter: it wins 3 of 8 games against itself.)
    let self_json = dir.path().join("self.json");
    let spec = format!("local:{}", run.display());
    ok(&["eval", "--policy", &spec, "--opponent", "self", "-o", self_json.to_str().unwrap()]);
    let selfplay: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&self_json).unwrap()).unwrap();
    assert_eq!(selfplay["opponent"], "self");
    assert_ne!(selfplay["results"][0], reported[0]);
    assert_eq!(selfplay["results"][1], reported[1]);
    // `play --vs local:RUN` plays against the same weights.
    let mut child = Command::new(env!("CARGO_BIN_EXE_gauntlet"))
        .args(["play", "tic_tac_toe", "--seat", "1", "--vs", &spec])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let _ = child.stdin.as_mut().unwrap().write_all("1\n".repeat(9).as_bytes());
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("[seat 0] plays:"));
}

#[test]
fn eval_scores_scripted_policies_on_tasks_and_environments() {
    let out = ok(&[
        "eval",
        "--policy",
        "oracle",
        "--tasks",
        "caesar,sokoban_play,guess_number",
        "-n",
        "6",
        "-k",
        "2",
    ]);
    let table = String::from_utf8(out.stdout).unwrap();
    for t in ["caesar", "sokoban_play", "guess_number"] {
        assert!(
            table.contains(&format!(
                "| {t} | 1 | 6 | 2 | 1.000 [0.610, 1.000] | 1.000 [0.758, 1.000] | 1.000 [0.610, 1.000] \
                 | 1.000 | 0.000 [0.000, 0.242] |"
            )),
            "{table}"
        );
    }
    let out = gauntlet(&["eval", "--policy", "oracle", "--tasks", "sudokku"]);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("sudoku"));
}

#[test]
fn eval_runs_a_real_pretrained_gguf_model_through_its_chat_template() {
    let Ok(gguf) = std::env::var("GAUNTLET_SMOLLM2_GGUF") else {
        eprintln!(
            "skipped: GAUNTLET_SMOLLM2_GGUF is not set (scripts/test.sh fetches SmolLM2-135M-Instruct)"
        );
        return;
    };
    let out = ok(&[
        "eval",
        "--policy",
        &format!("gguf:{gguf}"),
        "--tasks",
        "expression",
        "-n",
        "2",
        "--max-tokens",
        "24",
        "--temperature",
        "0",
    ]);
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.contains("| expression | 1 | 2 | 1 |"), "{table}");
}

#[test]
fn play_runs_a_game_from_standard_input() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gauntlet"))
        .args(["play", "tic_tac_toe", "--vs", "oracle", "--level", "5"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let stdin = child.stdin.as_mut().unwrap();
        // Always pick the first listed move until the game ends.
        for _ in 0..9 {
            let _ = stdin.write_all(b"1\n");
        }
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.to_lowercase().contains("return"), "{text}");
}
