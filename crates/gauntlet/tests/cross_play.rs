//! `gauntlet eval` with any policy at any seat (`--opponent SPEC`, `--seat-policy SEAT=SPEC`) and
//! `gauntlet eval --cross-play`, run as a user runs them (issue 35).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use gauntlet_model::{checkpoint, ChatTemplate, Config, Tokenizer};
use serde_json::Value;

fn gauntlet(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gauntlet"))
        .args(args)
        .env("NO_PROGRESS", "1")
        .env("RAYON_NUM_THREADS", "1")
        .output()
        .expect("binary runs")
}

fn ok(args: &[&str]) -> Output {
    let out = gauntlet(args);
    assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

/// The error of a command that must fail.
fn refused(args: &[&str]) -> String {
    let out = gauntlet(args);
    assert!(!out.status.success(), "{args:?} should fail");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A tiny random model saved as a Hugging Face folder (it answers with noise: illegal moves).
fn tiny_model(root: &Path) -> PathBuf {
    let dir = root.join("tiny");
    let cfg = Config::tiny(260);
    let (_, vars) = checkpoint::new_model(&cfg, &candle_core::Device::Cpu, 7).unwrap();
    checkpoint::save_chat(&dir, &vars, &cfg, &Tokenizer::bytes(), &ChatTemplate::chatml(), &[]).unwrap();
    dir
}

/// The cell of `policy` against `opponent` in a section of `crossplay.json`.
fn cell<'a>(section: &'a Value, policy: &str, opponent: &str) -> &'a Value {
    section["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["policy"] == policy && c["opponent"] == opponent)
        .unwrap_or_else(|| panic!("no cell {policy} vs {opponent}"))
}

fn count(v: &Value, key: &str) -> u64 {
    v[key].as_u64().unwrap()
}

#[test]
fn the_oracle_does_not_lose_to_random_at_level_5() {
    // The check of the issue: over 200 games of tic-tac-toe at level 5 against `random`, the
    // scripted oracle (minimax) loses none (docs/eval.md quotes the figures).
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("cp");
    ok(&[
        "eval",
        "--cross-play",
        "oracle,random",
        "--tasks",
        "tic_tac_toe",
        "--level",
        "5",
        "-n",
        "100",
        "--out",
        p(&out),
    ]);
    let r = json(&out.join("crossplay.json"));
    let c = cell(&r["sections"][0], "oracle", "random");
    let (games, wins, draws) = (count(c, "games"), count(c, "wins"), count(c, "draws"));
    assert_eq!(games, 200);
    let non_losses = (wins + draws) as f64 / games as f64;
    assert!(non_losses >= 0.9, "{wins} wins and {draws} draws of {games}");
    assert_eq!((count(c, "losses"), count(c, "failed")), (0, 0), "{c}");
    assert!(wins >= 170, "minimax wins most games against random play: {c}");

    // The ordered pair (oracle, random) is exactly `eval --policy oracle --opponent random`.
    let order = r["orders"].as_array().unwrap().iter().find(|o| o["first"] == "oracle").unwrap();
    let eval_json = tmp.path().join("eval.json");
    ok(&[
        "eval",
        "--policy",
        "oracle",
        "--opponent",
        "random",
        "--tasks",
        "tic_tac_toe",
        "--level",
        "5",
        "-n",
        "100",
        "-o",
        p(&eval_json),
    ]);
    let row = &json(&eval_json)["results"][0];
    assert_eq!(row["pass_at_1"].as_f64().unwrap(), count(order, "wins") as f64 / 100.0, "{order} vs {row}");
    // Tic-tac-toe pays +1, 0, -1: the mean reward is wins minus losses.
    let losses = count(order, "losses") as f64 / 100.0;
    assert!(
        (row["mean_reward"].as_f64().unwrap() - (row["pass_at_1"].as_f64().unwrap() - losses)).abs() < 1e-9
    );
}

#[test]
fn cross_play_writes_the_matrix_ratings_and_heat_map_and_repeats_byte_for_byte() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |dir: &Path| {
        let out = ok(&[
            "eval",
            "--cross-play",
            "random,oracle",
            "--tasks",
            "tic_tac_toe,nim",
            "-n",
            "12",
            "--out",
            p(dir),
        ]);
        String::from_utf8(out.stdout).unwrap()
    };
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let printed = run(&a);
    run(&b);
    for f in ["crossplay.md", "crossplay.json", "crossplay.svg"] {
        let bytes = std::fs::read(a.join(f)).unwrap();
        assert_eq!(bytes, std::fs::read(b.join(f)).unwrap(), "{f} differs between two runs");
    }
    assert_eq!(printed, std::fs::read_to_string(a.join("crossplay.md")).unwrap());
    assert!(printed.contains("## Ratings: all games") && printed.contains("## Matrix: nim@L1"), "{printed}");
    assert!(std::fs::read_to_string(a.join("crossplay.svg")).unwrap().starts_with("<svg"));

    let r = json(&a.join("crossplay.json"));
    assert_eq!(r["format"], "gauntlet-crossplay/1");
    assert_eq!(r["anchor"], "random = 0");
    // All games, then each game.
    let titles: Vec<&str> =
        r["sections"].as_array().unwrap().iter().map(|s| s["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["all games", "tic_tac_toe@L1", "nim@L1"]);
    for section in r["sections"].as_array().unwrap() {
        let ratings = section["ratings"].as_array().unwrap();
        let rating = |name: &str| ratings.iter().find(|x| x["policy"] == name).unwrap();
        assert_eq!(rating("random")["rating"], 0.0);
        assert_eq!(rating("random")["ci95"], serde_json::json!([0.0, 0.0]));
        let oracle = rating("oracle");
        let (lo, hi) = (oracle["ci95"][0].as_f64().unwrap(), oracle["ci95"][1].as_f64().unwrap());
        let x = oracle["rating"].as_f64().unwrap();
        assert!(x > 0.0 && lo <= x && x <= hi, "{oracle}");
        // Both sides of every cell agree.
        let (o, q) = (cell(section, "oracle", "random"), cell(section, "random", "oracle"));
        assert_eq!((count(o, "wins"), count(o, "draws")), (count(q, "losses"), count(q, "draws")));
        let [low, high] = [0, 1].map(|i| o["score"]["ci95"][i].as_f64().unwrap());
        assert!(low <= o["score"]["rate"].as_f64().unwrap() && high <= 1.0);
    }
    assert_eq!(count(cell(&r["sections"][0], "oracle", "random"), "games"), 48);
    // Each policy holds each seat equally often.
    for g in r["seats"].as_array().unwrap() {
        for (policy, seats) in g["seats"].as_object().unwrap() {
            assert_eq!(seats, &serde_json::json!([12, 12]), "{policy} in {}", g["game"]);
        }
    }
}

#[test]
fn a_model_sits_at_any_seat_and_joins_a_cross_play() {
    let tmp = tempfile::tempdir().unwrap();
    let model = tiny_model(tmp.path());
    let tiny = format!("local:{}", model.display());
    let common = ["--tasks", "tic_tac_toe", "-n", "4", "--max-tokens", "6", "--threads", "1"];
    // As the opponent of the oracle, and pinned at seat 1 under a random policy.
    let out = tmp.path().join("vs.json");
    let mut args = vec!["eval", "--policy", "oracle", "--opponent", &tiny, "-o", p(&out)];
    args.extend(common);
    ok(&args);
    let r = json(&out);
    assert_eq!(r["opponent"], tiny.as_str());
    assert_eq!(r["results"][0]["pass_at_1"], 1.0, "noise never beats minimax: {r}");
    let out = tmp.path().join("pinned.json");
    let pin = format!("1={tiny}");
    let mut args = vec!["eval", "--policy", "oracle", "--seat-policy", &pin, "-o", p(&out)];
    args.extend(common);
    ok(&args);
    let r = json(&out);
    assert_eq!(r["seat_policies"]["1"], tiny.as_str());
    assert_eq!(r["results"][0]["pass_at_1"], 1.0, "{r}");

    // Three policies: six ordered pairs.
    let dir = tmp.path().join("cp");
    let list = format!("oracle,random,{tiny}");
    let mut args = vec!["eval", "--cross-play", &list, "--out", p(&dir)];
    args.extend(common);
    ok(&args);
    let r = json(&dir.join("crossplay.json"));
    assert_eq!(r["policies"].as_array().unwrap().len(), 3);
    assert_eq!(r["orders"].as_array().unwrap().len(), 6);
    let ratings = r["sections"][0]["ratings"].as_array().unwrap();
    let rating =
        |name: &str| ratings.iter().find(|x| x["policy"] == name).unwrap()["rating"].as_f64().unwrap();
    assert!(rating("oracle") > rating(&tiny), "{ratings:?}");
    assert_eq!(count(cell(&r["sections"][0], "oracle", &tiny), "losses"), 0);
}

#[test]
fn pinned_seats_decide_who_the_evaluated_policy_faces() {
    let tmp = tempfile::tempdir().unwrap();
    let eval = |policy: &str, extra: &[&str]| {
        let out = tmp.path().join("e.json");
        let mut args = vec!["eval", "--policy", policy, "--tasks", "tic_tac_toe", "-n", "40", "-o", p(&out)];
        args.extend(extra);
        ok(&args);
        json(&out)
    };
    // Random at seat 1 against the oracle pinned at seat 0, and the reverse: random never wins.
    let r = eval("random", &["--seat-policy", "0=oracle"]);
    assert_eq!(r["results"][0]["pass_at_1"], 0.0, "{r}");
    assert_eq!(r["seat_policies"], serde_json::json!({ "0": "oracle" }));
    let r = eval("oracle", &["--seat-policy", "0=random"]);
    assert!(r["results"][0]["pass_at_1"].as_f64().unwrap() > 0.5, "{r}");
    // Without pins the JSON is as before (no `seat_policies`), and `self` is the default.
    let r = eval("oracle", &[]);
    assert!(r.get("seat_policies").is_none() && r["opponent"] == "self", "{r}");
}

#[test]
fn bad_seats_specs_and_games_are_refused_with_the_reason() {
    let ttt = ["--tasks", "tic_tac_toe", "-n", "2"];
    let with = |extra: &[&str]| {
        let mut args = vec!["eval"];
        args.extend(extra);
        args.extend(ttt);
        refused(&args)
    };
    assert!(with(&["--policy", "oracle", "--seat-policy", "2=random"]).contains("has 2 seat(s)"));
    let e = with(&["--policy", "oracle", "--seat-policy", "0=random", "--seat-policy", "1=oracle"]);
    assert!(e.contains("every seat of `tic_tac_toe` is pinned"), "{e}");
    assert!(with(&["--policy", "oracle", "--seat-policy", "random"]).contains("SEAT=SPEC"));
    let e = with(&["--policy", "oracle", "--opponent", "rnadom"]);
    assert!(e.contains("`self` or a policy spec") && e.contains("openai:URL#MODEL"), "{e}");
    let e = with(&["--policy", "oracle", "--opponent", "local:/no/such/run"]);
    assert!(e.contains("does not exist"), "{e}");
    assert!(with(&["--policy", "oracle", "--out", "x"]).contains("--out is the folder"));
    assert!(with(&["--cross-play", "oracle"]).contains("at least two policies"));
    assert!(with(&["--cross-play", "oracle,random,oracle"]).contains("listed twice"));
    assert!(with(&["--cross-play", "oracle,random", "--opponent", "random"]).contains("cannot be used with"));
    let cp = |tasks: &str| refused(&["eval", "--cross-play", "oracle,random", "--tasks", tasks, "-n", "2"]);
    assert!(cp("caesar").contains("one seat"));
    assert!(cp("hanabi").contains("cooperative"));
    assert!(refused(&["eval", "--cross-play", "oracle,random"]).contains("--tasks"));
    // Suites keep their scripted opponents.
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("suite");
    let e = refused(&[
        "eval",
        "--suite",
        "quick",
        "--policy",
        "oracle",
        "--opponent",
        "local:x",
        "--out",
        p(&out),
    ]);
    assert!(e.contains("--opponent must be one of self, random, oracle"), "{e}");
}
