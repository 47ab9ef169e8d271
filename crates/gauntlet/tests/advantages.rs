//! `gauntlet advantages` end to end: the binary against the numpy re-derivation of verl's
//! formulas (`tools/golden_algos.py` → `crates/gauntlet-algos/tests/fixtures/advantages.json`),
//! against a slow leave-one-out oracle on random batches, and on bad input.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gauntlet"))
        .arg("advantages")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn gauntlet");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn ok(args: &[&str], stdin: &str) -> Vec<Value> {
    let out = run(args, stdin);
    assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn err(args: &[&str], stdin: &str) -> String {
    let out = run(args, stdin);
    assert!(!out.status.success(), "{args:?} should fail");
    String::from_utf8(out.stderr).unwrap()
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect()
}

fn rows_of(v: &Value) -> Vec<Vec<f64>> {
    v.as_array().unwrap().iter().map(floats).collect()
}

fn assert_close(got: &[Vec<f64>], want: &[Vec<f64>], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g.len(), w.len(), "{what}: row {i}");
        for (a, b) in g.iter().zip(w) {
            assert!((a - b).abs() <= 1e-9 * b.abs().max(1.0), "{what}: row {i}: got {a}, want {b}");
        }
    }
}

#[test]
fn reproduces_the_reference_vectors() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../gauntlet-algos/tests/fixtures/advantages.json");
    let fx: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut covered = std::collections::BTreeSet::new();
    for case in fx["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let est = case["estimator"].as_str().unwrap();
        let rows = case["rows"].as_array().unwrap();
        let input: String = rows.iter().map(|r| format!("{r}\n")).collect();
        let mut args = vec!["--estimator", est];
        let flags: Vec<&str> =
            case["flags"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
        args.extend(flags);
        let out = ok(&args, &input);
        assert_eq!(out.len(), rows.len(), "{name}");
        let adv: Vec<Vec<f64>> = out.iter().map(|r| floats(&r["advantages"])).collect();
        assert_close(&adv, &rows_of(&case["advantages"]), name);
        if !case["returns"].is_null() {
            let ret: Vec<Vec<f64>> = out.iter().map(|r| floats(&r["returns"])).collect();
            assert_close(&ret, &rows_of(&case["returns"]), name);
        }
        // Input fields come back unchanged.
        for (o, r) in out.iter().zip(rows) {
            for (k, v) in r.as_object().unwrap() {
                assert_eq!(&o[k], v, "{name}: field {k}");
            }
        }
        covered.insert(est.to_string());
    }
    for est in ["grpo", "dr-grpo", "rloo", "reinforce-pp-baseline", "gae", "gigpo"] {
        assert!(covered.contains(est), "no CLI case for {est}");
    }
}

/// xorshift64* for random batches.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The slowest obvious definitions, straight from ALGORITHMS.md.
fn oracle(est: &str, scores: &[f64], groups: &[u64]) -> Vec<f64> {
    (0..scores.len())
        .map(|i| {
            let g: Vec<f64> =
                (0..scores.len()).filter(|&j| groups[j] == groups[i]).map(|j| scores[j]).collect();
            let n = g.len() as f64;
            let mean = g.iter().sum::<f64>() / n;
            match est {
                "rloo" if g.len() == 1 => scores[i],
                "rloo" => {
                    let others: f64 = (0..scores.len())
                        .filter(|&j| j != i && groups[j] == groups[i])
                        .map(|j| scores[j])
                        .sum();
                    scores[i] - others / (n - 1.0)
                }
                "dr-grpo" if g.len() == 1 => scores[i],
                "dr-grpo" => scores[i] - mean,
                _ if g.len() == 1 => scores[i] / (1.0 + 1e-6),
                _ => {
                    let std = (g.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
                    (scores[i] - mean) / (std + 1e-6)
                }
            }
        })
        .collect()
}

#[test]
fn random_batches_match_a_slow_oracle() {
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    for round in 0..8 {
        let n = 1 + rng.below(30) as usize;
        let groups: Vec<u64> = (0..n).map(|_| rng.below(8)).collect();
        let scores: Vec<f64> = (0..n)
            .map(|_| if round % 2 == 0 { rng.below(2) as f64 } else { rng.below(1000) as f64 / 100.0 - 5.0 })
            .collect();
        let masks: Vec<Vec<u8>> =
            (0..n).map(|_| (0..1 + rng.below(10)).map(|_| u8::from(rng.below(4) != 0)).collect()).collect();
        let input: String = (0..n)
            .map(|i| format!("{}\n", serde_json::json!({"group": format!("q{}", groups[i]), "score": scores[i], "mask": masks[i]})))
            .collect();
        for est in ["grpo", "dr-grpo", "rloo"] {
            let out = ok(&["--estimator", est], &input);
            let want = oracle(est, &scores, &groups);
            for (i, row) in out.iter().enumerate() {
                let got = floats(&row["advantages"]);
                assert_eq!(got.len(), masks[i].len());
                for (t, a) in got.iter().enumerate() {
                    let w = want[i] * f64::from(masks[i][t]);
                    assert!(
                        (a - w).abs() <= 1e-9 * w.abs().max(1.0),
                        "{est} round {round} row {i}: {a} vs {w}"
                    );
                }
            }
        }
    }
}

#[test]
fn bad_rows_name_the_line() {
    let input =
        "{\"group\":\"a\",\"score\":1,\"mask\":[1]}\n\n{\"group\":\"a\",\"score\":0,\"mask\":[1,\"x\"]}\n";
    assert!(err(&[], input).contains("line 3: field `mask`: expected an array of 0/1"));
    assert!(err(&[], "{\"group\":\"a\",\"mask\":[1]}\n").contains("line 1: missing field `score`"));
    assert!(
        err(&[], "{\"group\":\"a\",\"score\":1,\"mask\":[1]}\nnot json\n").contains("line 2: not valid JSON")
    );
    let gae = "{\"group\":\"a\",\"score\":1,\"mask\":[1,1],\"values\":[0.5]}\n";
    assert!(
        err(&["--estimator", "gae"], gae).contains("line 1: field `values`: expected an array of 2 numbers")
    );
    let dup = "{\"group\":\"e\",\"trajectory\":\"t\",\"turn\":0,\"anchor\":\"s\",\"score\":1,\"step_reward\":0,\"mask\":[1]}\n";
    assert!(err(&["--estimator", "gigpo"], &format!("{dup}{dup}")).contains("lines 1 and 2"));
}

#[test]
fn estimator_names_and_flags_are_checked() {
    let e = err(&["--estimator", "grpoo"], "");
    assert!(e.contains("did you mean `grpo`") && e.contains("reinforce-pp-baseline"), "{e}");
    let e = err(&["--estimator", "grpo", "--lambda", "0.9"], "");
    assert!(e.contains("`--lambda` does not apply to `grpo`"), "{e}");
}

#[test]
fn empty_input_and_singletons() {
    assert!(ok(&["--estimator", "grpo"], "").is_empty());
    let out = ok(&["--estimator", "rloo"], "{\"group\":\"a\",\"score\":0.5,\"mask\":[1,0,1]}\n");
    assert_eq!(out[0]["advantages"], serde_json::json!([0.5, 0.0, 0.5]));
    // Whitening estimators need two tokens, as in verl.
    assert!(err(&["--estimator", "reinforce-pp-baseline"], "{\"group\":\"a\",\"score\":1,\"mask\":[1]}\n")
        .contains("at least 2 unmasked tokens"));
}

#[test]
fn output_file_is_written_atomically() {
    let dir = std::env::temp_dir().join(format!("gauntlet-adv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("in.jsonl");
    let output = dir.join("out.jsonl");
    std::fs::write(
        &input,
        "{\"group\":1,\"score\":1,\"mask\":[1]}\n{\"group\":1,\"score\":0,\"mask\":[1]}\n",
    )
    .unwrap();
    let out =
        run(&["--estimator", "dr-grpo", "-i", input.to_str().unwrap(), "-o", output.to_str().unwrap()], "");
    assert!(out.status.success() && out.stdout.is_empty());
    let text = std::fs::read_to_string(&output).unwrap();
    assert_eq!(text.lines().count(), 2);
    assert!(text.contains("\"advantages\":[0.5]"));
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}
