//! `gauntlet eval --adapter` and `gauntlet export` on a tiny random model and a seeded LoRA
//! adapter (issue 17): the adapter changes what the policy does, evaluating base + adapter gives
//! exactly the episodes the merged export gives, and bad inputs are refused by name.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use candle_core::{Device, Tensor};
use gauntlet_core::Rng;
use gauntlet_model::{checkpoint, lora, ChatTemplate, Config, Tokenizer};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gauntlet"))
        .env("NO_PROGRESS", "1")
        .env("RAYON_NUM_THREADS", "1")
        .args(args)
        .output()
        .expect("binary runs")
}

fn ok(args: &[&str]) -> Output {
    let out = run(args);
    assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

fn err(args: &[&str]) -> String {
    let out = run(args);
    assert!(!out.status.success(), "{args:?} succeeded");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A tiny random model folder `base` and an adapter folder `adapter` (rank 4 on every
/// projection, seeded normal `B` so that it changes the model), whose base is `base`.
fn base_and_adapter(root: &Path) -> (PathBuf, PathBuf) {
    let (base, adapter) = (root.join("base"), root.join("adapter"));
    let cfg = Config::tiny(260);
    let (mut model, vars) = checkpoint::new_model(&cfg, &Device::Cpu, 11).unwrap();
    checkpoint::save_chat(&base, &vars, &cfg, &Tokenizer::bytes(), &ChatTemplate::chatml(), &[]).unwrap();
    let lcfg = lora::LoraConfig { rank: 4, alpha: 8.0, ..Default::default() };
    let vm = lora::attach(&mut model, &lcfg, 5).unwrap();
    let mut rng = Rng::new(9);
    for (_, var) in vm.data().lock().unwrap().iter().filter(|(n, _)| n.ends_with("lora_B.weight")) {
        let v: Vec<f32> = (0..var.elem_count()).map(|_| (rng.unit() as f32 - 0.5) * 0.6).collect();
        var.set(&Tensor::from_vec(v, var.shape(), &Device::Cpu).unwrap()).unwrap();
    }
    lora::save_adapter(&adapter, &vm, &lcfg, base.to_str().unwrap(), &[]).unwrap();
    (base, adapter)
}

/// Per-episode `(task, seed, sample, success, reward, tokens, format_error)` of a results file.
fn episodes(path: &Path) -> Vec<String> {
    let mut rows: Vec<String> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let keys = ["task", "seed", "sample", "success", "reward", "tokens", "format_error", "error"];
            keys.iter().map(|k| v[k].to_string()).collect::<Vec<_>>().join(" ")
        })
        .collect();
    rows.sort();
    rows
}

fn eval(policy: &str, adapter: Option<&Path>, results: &Path) -> Vec<String> {
    let results_s = results.to_str().unwrap();
    let mut args = vec!["eval", "--policy", policy, "--tasks", "caesar,guess_number", "-n", "6"];
    args.extend(["--temperature", "0", "--max-tokens", "16", "--threads", "1", "--results", results_s]);
    let a;
    if let Some(p) = adapter {
        a = p.to_str().unwrap().to_string();
        args.extend(["--adapter", &a]);
    }
    ok(&args);
    episodes(results)
}

#[test]
fn eval_with_an_adapter_equals_eval_of_the_merged_export() {
    let tmp = tempfile::tempdir().unwrap();
    let (base, adapter) = base_and_adapter(tmp.path());
    let merged = tmp.path().join("merged");
    // No `--base`: the adapter's `base_model_name_or_path` names it.
    ok(&["export", "--adapter", adapter.to_str().unwrap(), "--out", merged.to_str().unwrap()]);
    for f in ["config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json"] {
        assert!(merged.join(f).is_file(), "the export lacks {f}");
    }
    let base_spec = format!("local:{}", base.display());
    let plain = eval(&base_spec, None, &tmp.path().join("base.jsonl"));
    let with_adapter = eval(&base_spec, Some(&adapter), &tmp.path().join("adapter.jsonl"));
    let exported = eval(&format!("local:{}", merged.display()), None, &tmp.path().join("merged.jsonl"));
    assert_eq!(with_adapter.len(), 12);
    assert_ne!(plain, with_adapter, "the adapter changes nothing");
    assert_eq!(with_adapter, exported);
    // The adapter folder alone is a policy too (its base comes from `adapter_config.json`).
    let alone = eval(&format!("local:{}", adapter.display()), None, &tmp.path().join("alone.jsonl"));
    assert_eq!(alone, with_adapter);
}

#[test]
fn export_and_adapter_errors_name_what_is_missing() {
    let tmp = tempfile::tempdir().unwrap();
    let (base, adapter) = base_and_adapter(tmp.path());
    let (b, a) = (base.to_str().unwrap(), adapter.to_str().unwrap());
    let out = tmp.path().join("out");
    let o = out.to_str().unwrap();
    // Without the weights file the message names it.
    let broken = tmp.path().join("broken");
    std::fs::create_dir_all(&broken).unwrap();
    std::fs::copy(adapter.join("adapter_config.json"), broken.join("adapter_config.json")).unwrap();
    let e = err(&["export", "--base", b, "--adapter", broken.to_str().unwrap(), "--out", o]);
    assert!(e.contains("adapter_model.safetensors"), "{e}");
    // A base folder without its weights is refused by name.
    let no_weights = tmp.path().join("no-weights");
    std::fs::create_dir_all(&no_weights).unwrap();
    std::fs::copy(base.join("config.json"), no_weights.join("config.json")).unwrap();
    let e = err(&["export", "--base", no_weights.to_str().unwrap(), "--adapter", a, "--out", o]);
    assert!(e.contains("model.safetensors"), "{e}");
    assert!(err(&["export", "--out", o]).contains("--base"));
    assert!(!out.exists(), "a failed export left `{o}` behind");
    // An existing, non-empty `--out` needs `--force`.
    ok(&["export", "--base", b, "--adapter", a, "--out", o]);
    assert!(err(&["export", "--base", b, "--adapter", a, "--out", o]).contains("--force"));
    ok(&["export", "--base", b, "--out", o, "--force"]);
    let leftovers: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "temporary folders left: {leftovers:?}");
    // `--adapter` is for local models only, and must be an adapter folder.
    assert!(err(&["eval", "--policy", "oracle", "--adapter", a]).contains("--adapter needs"));
    let e = err(&["eval", "--policy", &format!("local:{b}"), "--adapter", b, "-n", "1"]);
    assert!(e.contains("adapter_config.json"), "{e}");
}

/// `gauntlet serve policy --adapter` serves base + adapter: an evaluation over HTTP plays the
/// episodes the in-process evaluation with the adapter plays.
#[test]
fn the_policy_server_serves_base_plus_adapter() {
    use std::io::{BufRead, BufReader};
    let tmp = tempfile::tempdir().unwrap();
    let (base, adapter) = base_and_adapter(tmp.path());
    let mut child = Command::new(env!("CARGO_BIN_EXE_gauntlet"))
        .env("RAYON_NUM_THREADS", "1")
        .args(["serve", "policy", "--model", base.to_str().unwrap(), "--adapter"])
        .args([adapter.to_str().unwrap(), "--port", "0", "--threads", "1", "--name", "tiny"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("server starts");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let url = loop {
        let line = lines.next().expect("the server prints its address").unwrap();
        if let Some(rest) = line.split("listening on ").nth(1) {
            break rest.split_whitespace().next().unwrap().to_string();
        }
    };
    std::thread::spawn(move || lines.for_each(drop));
    let over_http = eval(&format!("openai:{url}#tiny"), None, &tmp.path().join("http.jsonl"));
    let _ = child.kill();
    let _ = child.wait();
    let in_process =
        eval(&format!("local:{}", base.display()), Some(&adapter), &tmp.path().join("local.jsonl"));
    assert_eq!(over_http, in_process);
}

/// `gauntlet play` against a model reads the transcript of a greedy game with `seat` typed moves.
fn play_against(vs: &str, adapter: Option<&Path>) -> String {
    use std::io::Write;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gauntlet"));
    cmd.env("RAYON_NUM_THREADS", "1").args(["play", "tic_tac_toe", "--seat", "1", "--vs", vs]);
    if let Some(a) = adapter {
        cmd.arg("--adapter").arg(a);
    }
    let mut child = cmd
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.as_mut().unwrap().write_all("1\n".repeat(9).as_bytes());
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "play --vs {vs} failed: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.contains("[seat 0] plays:"), "{text}");
    text
}

/// Issue 32: `play --vs` loads policies as `eval --policy` does (one parser, one loader): an
/// adapter folder over its base, and a base with `--adapter`, play the same game; bad specs are
/// refused with the accepted forms.
#[test]
fn play_loads_adapters_as_eval_does() {
    let tmp = tempfile::tempdir().unwrap();
    let (base, adapter) = base_and_adapter(tmp.path());
    let alone = play_against(&format!("local:{}", adapter.display()), None);
    let over_base = play_against(&format!("local:{}", base.display()), Some(&adapter));
    assert_eq!(alone, over_base);
    let e = err(&["play", "tic_tac_toe", "--vs", base.to_str().unwrap()]);
    assert!(
        e.contains(&format!("did you mean `local:{}`", base.display())) && e.contains("gguf:FILE"),
        "{e}"
    );
    let e = err(&["play", "tic_tac_toe", "--vs", "oracle", "--adapter", adapter.to_str().unwrap()]);
    assert!(e.contains("--adapter needs"), "{e}");
    let e = err(&["serve", "policy", "--model", "oracle"]);
    assert!(e.contains("not a model") && e.contains("gguf:FILE"), "{e}");
}
