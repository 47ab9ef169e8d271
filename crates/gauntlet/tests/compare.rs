//! `gauntlet compare`: suite results of the scripted policies side by side, as a user runs it.

use std::path::Path;
use std::process::{Command, Output};

use gauntlet_rollout::{OraclePolicy, Policy, RandomPolicy, RolloutOptions};
use gauntlet_train::scorecard;
use gauntlet_train::suites::{self, Entry, RunEvent, RunInfo, Suite, SuiteResults};

fn gauntlet(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gauntlet"))
        .args(args)
        .env("NO_PROGRESS", "1")
        .output()
        .expect("binary runs")
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Plays `suite` with `policy` and writes its results and scorecard into `dir`.
fn results(suite: &Suite, mut policy: impl Policy + Send, dir: &Path) -> SuiteResults {
    let name = policy.name();
    let mut lanes: Vec<&mut (dyn Policy + Send)> = vec![&mut policy];
    let mut episodes = Vec::new();
    suites::play(suite, &mut lanes, &RolloutOptions::default(), "oracle", 8, &[], &mut |e| {
        if let RunEvent::Episode(r) = e {
            episodes.push(r.clone());
        }
    })
    .unwrap();
    let r = SuiteResults::new(suite, RunInfo::new(&name, "oracle").with("temperature", 0.0), &episodes, &[]);
    scorecard::write(dir, &r).unwrap();
    r
}

#[test]
fn compare_prints_paired_differences_and_refuses_other_versions() {
    let tmp = tempfile::tempdir().unwrap();
    let suite = Suite::custom(
        "tiny",
        vec![Entry::new("caesar", 1, 16), Entry::new("countdown", 1, 16), Entry::new("tic_tac_toe", 1, 4)],
    )
    .unwrap();
    let (a, b) = (tmp.path().join("oracle"), tmp.path().join("random"));
    results(&suite, OraclePolicy::new(0), &a);
    let random = results(&suite, RandomPolicy::new(0), &b);

    // Files, or the folders holding them.
    let out = gauntlet(&["compare", p(&a.join("results.json")), p(&b)]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(md.starts_with("# `tiny@0`: `oracle` vs `random`"), "{md}");
    assert!(md.contains("| category | A | B | B − A |"), "{md}");
    let all = md.lines().find(|l| l.starts_with("| **all** |")).expect("overall row");
    assert!(all.contains("| 0.000 [") && all.ends_with(" * |"), "{all}");
    let caesar = md.lines().find(|l| l.starts_with("| caesar@L1 |")).expect("caesar row");
    assert!(caesar.contains("| 1.000 [0.806, 1.000] | 0.000 [0.000, 0.194] | -100.0 ["), "{caesar}");
    assert!(caesar.ends_with(" * |"), "16 of 16 against a random answer is significant: {caesar}");
    assert!(md.contains("significantly worse"), "{md}");

    // JSON, into a file.
    let json = tmp.path().join("cmp.json");
    let out = gauntlet(&["compare", p(&a), p(&b), "--json", "--output", p(&json)]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["suite"], "tiny@0");
    assert_eq!(v["overall"]["differences"][0]["significant"], true);
    assert_eq!(v["entries"].as_array().unwrap().len(), 3);

    // Three runs: each later one against the first.
    let out = gauntlet(&["compare", p(&a), p(&b), p(&a)]);
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(md.contains("| category | A | B | B − A | C | C − A |"), "{md}");

    // Another version of the suite is refused, with both versions named.
    let mut v2 = random;
    v2.suite = "tiny@2".into();
    v2.version = 2;
    let c = tmp.path().join("v2.json");
    std::fs::write(&c, serde_json::to_string(&v2).unwrap()).unwrap();
    let out = gauntlet(&["compare", p(&a), p(&c)]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("different suites or suite versions") && err.contains("tiny@2"), "{err}");
    // Not a results file; a single file.
    let out = gauntlet(&["compare", p(&a), p(&a.join("scorecard.md"))]);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("not JSON"));
    assert!(!gauntlet(&["compare", p(&a)]).status.success());
}
