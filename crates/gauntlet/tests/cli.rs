//! End-to-end tests of the task CLI: `tasks`, `generate`, `solve`, `verify`, run as a user would.

use std::path::Path;
use std::process::{Command, Output};

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

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn tasks_json_lists_every_family_with_all_categories() {
    let out = ok(&["tasks", "--json"]);
    let all: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    let v: Vec<&serde_json::Value> = all.iter().filter(|t| t["kind"] == "single_turn").collect();
    assert!(v.len() >= 24, "{} families", v.len());
    let cats: std::collections::BTreeSet<_> =
        v.iter().map(|t| t["category"].as_str().unwrap().to_string()).collect();
    for c in gauntlet_core::Category::ALL {
        assert!(cats.contains(c.name()), "no family of category {c}: {cats:?}");
    }
    let multi = all.iter().filter(|t| t["kind"] == "multi_turn" && t["seats"] == 1).count();
    let games = all.iter().filter(|t| t["kind"] == "game" && t["seats"].as_u64().unwrap() >= 2).count();
    assert!(multi >= 12 && games >= 6, "{multi} multi-turn environments, {games} games");
    // Issue 35: cooperative worlds (seats sharing a team) are marked, and there are at least 10.
    let team: Vec<&str> =
        all.iter().filter(|t| t["team"] == true).map(|t| t["name"].as_str().unwrap()).collect();
    assert!(team.len() >= 10 && team.contains(&"hanabi"), "{team:?}");
    assert_eq!(all.iter().find(|t| t["name"] == "tic_tac_toe").unwrap()["team"], false);
    for t in &v {
        assert_eq!(t["levels"].as_array().unwrap().len(), 5);
        assert_eq!(t["kind"], "single_turn");
    }
}

#[test]
fn generate_solve_verify_scores_one_for_every_family_and_level() {
    let dir = tempfile::tempdir().unwrap();
    for level in ["1", "2", "3", "4", "5"] {
        let data = dir.path().join(format!("d{level}.jsonl"));
        let solved = dir.path().join(format!("s{level}.jsonl"));
        let scores = dir.path().join(format!("v{level}.jsonl"));
        ok(&["generate", "all", "-n", "8", "--level", level, "-o", p(&data)]);
        ok(&["solve", "-i", p(&data), "-o", p(&solved)]);
        ok(&["verify", "-i", p(&solved), "-o", p(&scores)]);
        let text = std::fs::read_to_string(&scores).unwrap();
        for line in text.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(v["reward"], 1.0, "level {level}: {line}");
            assert_eq!(v["correct"], true, "level {level}: {line}");
        }
        assert!(text.lines().count() >= 24 * 8);
    }
}

#[test]
fn generate_is_byte_identical_and_rows_have_the_verl_columns() {
    let a = ok(&["generate", "sat,maze", "-n", "5", "--seed", "11", "--level", "3"]).stdout;
    let b = ok(&["generate", "sat,maze", "-n", "5", "--seed", "11", "--level", "3"]).stdout;
    assert_eq!(a, b);
    let c = ok(&["generate", "sat,maze", "-n", "5", "--seed", "12", "--level", "3"]).stdout;
    assert_ne!(a, c);
    let first: serde_json::Value = serde_json::from_slice(a.split(|b| *b == b'\n').next().unwrap()).unwrap();
    assert_eq!(first["data_source"], "gauntlet/sat");
    assert_eq!(first["ability"], "logic");
    assert_eq!(first["prompt"][0]["role"], "user");
    assert_eq!(first["reward_model"]["style"], "rule");
    assert!(first["reward_model"]["ground_truth"].is_string());
    assert_eq!(first["extra_info"]["seed"], 11);
    assert_eq!(first["extra_info"]["level"], 3);
    assert_eq!(first["extra_info"]["index"], 0);
}

#[test]
fn parquet_round_trips_through_solve_and_verify() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("d.parquet");
    let solved = dir.path().join("s.parquet");
    ok(&["generate", "countdown,hanoi", "-n", "10", "--level", "2", "-o", p(&data)]);
    assert_eq!(&std::fs::read(&data).unwrap()[..4], b"PAR1");
    ok(&["solve", "-i", p(&data), "-o", p(&solved)]);
    let out = ok(&["verify", "-i", p(&solved)]);
    let n = String::from_utf8(out.stdout).unwrap().lines().filter(|l| l.contains("\"correct\":true")).count();
    assert_eq!(n, 20);
}

#[test]
fn errors_name_the_line_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.jsonl");
    let good = String::from_utf8(ok(&["generate", "maze", "-n", "2"]).stdout).unwrap();
    let mut lines: Vec<String> = good.lines().map(str::to_string).collect();
    lines.push(
        r#"{"data_source":"gauntlet/maze","reward_model":{"ground_truth":"{\"grid\": 3}"},"response":"x"}"#
            .into(),
    );
    std::fs::write(&bad, lines.join("\n")).unwrap();
    let out = gauntlet(&["solve", "-i", p(&bad)]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.jsonl:3") && err.contains("reward_model.ground_truth"), "{err}");

    let out = gauntlet(&["verify", "-i", p(&bad)]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.jsonl:1") && err.contains("`response`"), "{err}");

    std::fs::write(&bad, "{\"data_source\": 3}\n").unwrap();
    let err = String::from_utf8_lossy(&gauntlet(&["verify", "-i", p(&bad)]).stderr).to_string();
    assert!(err.contains("bad.jsonl:1") && err.contains("data_source"), "{err}");

    let err = String::from_utf8_lossy(&gauntlet(&["generate", "sudok", "-n", "1"]).stderr).to_string();
    assert!(err.contains("unknown task `sudok`") && err.contains("`sudoku`"), "{err}");
}

#[test]
fn verify_never_fails_on_odd_responses() {
    let data = String::from_utf8(ok(&["generate", "all", "-n", "1", "--level", "3"]).stdout).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let rows = dir.path().join("r.jsonl");
    let odd = ["", "<answer>", "<answer>😀</answer>", "<answer>99999999999999999999999</answer>", "\u{0}"];
    let mut out = String::new();
    for (i, line) in data.lines().enumerate() {
        let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
        v["response"] = serde_json::Value::String(odd[i % odd.len()].to_string());
        out.push_str(&v.to_string());
        out.push('\n');
    }
    std::fs::write(&rows, out).unwrap();
    let o = ok(&["verify", "-i", p(&rows)]);
    assert!(String::from_utf8(o.stdout).unwrap().lines().all(|l| l.contains("\"correct\":false")));
}

#[test]
fn output_is_written_atomically_into_new_folders() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("a/b/data.jsonl");
    ok(&["generate", "caesar", "-n", "3", "-o", p(&out)]);
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 3);
    let names: Vec<_> =
        std::fs::read_dir(out.parent().unwrap()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names.len(), 1, "temp files left behind: {names:?}");
}

#[test]
fn a_closed_pipe_ends_a_listing_quietly() {
    // `gauntlet tasks | head -1`, made deterministic: the reading end is closed before gauntlet
    // writes anything, so its first write fails with a broken pipe.
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_gauntlet"))
        .arg("tasks")
        .stdout(writer)
        .output()
        .expect("gauntlet runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "exit {:?}: {stderr}", out.status);
    assert!(!stderr.contains("panicked"), "{stderr}");
}
