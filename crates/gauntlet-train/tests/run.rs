//! End-to-end runs of a tiny configuration: files, determinism and exact resume.

mod common;

use common::{comparable, tmp};
use gauntlet_train::config::{TaskMix, TrainConfig};
use gauntlet_train::{Quiet, Trainer};

fn tiny(dir: &std::path::Path) -> TrainConfig {
    let mut c = common::tiny_model(dir);
    c.tasks = vec![TaskMix { name: "caesar".into(), weight: 1.0, level: 1, max_level: 2 }];
    c.sft.steps = 4;
    c.sft.batch_size = 3;
    c.sft.optim.warmup_steps = 1;
    c.rl.steps = 4;
    c.rl.prompts_per_step = 2;
    c.rl.group_size = 2;
    c.rl.max_tokens = 6;
    c.rl.optim.warmup_steps = 1;
    // Rewards of an untrained model are all 0; the entropy bonus keeps RL gradients non-zero.
    c.rl.entropy_coef = 0.01;
    // Keep every group: an untrained model's equal rewards would all be dropped by the default
    // run's dynamic sampling, leaving these runs nothing to train on.
    c.rl.dynamic_sampling = false;
    c.eval.n = 3;
    c.eval.every = 2;
    c.eval.max_tokens = 6;
    c.curriculum.probe = 2;
    c.curriculum.window = 2;
    c.checkpoint.every = 3;
    c.checkpoint.keep = 1;
    c
}

#[test]
fn a_tiny_run_writes_everything_and_resumes_exactly() {
    let a = tmp("a");
    let mut t = Trainer::new(tiny(&a)).unwrap();
    t.run(&mut Quiet).unwrap();
    for f in [
        "config.toml",
        "metrics.jsonl",
        "final/model.safetensors",
        "final/trainer_state.json",
        "final/tokenizer.json",
        "checkpoints/sft/config.json",
        "report/summary.md",
        "report/curves.svg",
    ] {
        assert!(a.join(f).exists(), "missing {f}");
    }
    let steps: Vec<_> =
        std::fs::read_dir(a.join("checkpoints")).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(
        steps.iter().filter(|n| n.to_string_lossy().starts_with("step-")).count(),
        1,
        "keep = 1: {steps:?}"
    );
    let rec = comparable(&a);
    let phases: Vec<&str> = rec.iter().map(|r| r["phase"].as_str().unwrap()).collect();
    assert_eq!(phases.iter().filter(|p| **p == "sft").count(), 4);
    assert_eq!(phases.iter().filter(|p| **p == "rl").count(), 4);
    assert!(rec.iter().all(|r| r.values().all(|v| !v.is_f64() || v.as_f64().unwrap().is_finite())));
    assert!(rec.iter().filter(|r| r["phase"] == "rl").all(|r| r["grad_norm"].as_f64().unwrap() > 0.0));
    let summary = std::fs::read_to_string(a.join("report/summary.md")).unwrap();
    assert!(summary.contains("| caesar | 1 |"), "{summary}");
    let svg = std::fs::read_to_string(a.join("report/curves.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("polyline"), "{}", &svg[..200.min(svg.len())]);

    // Killed after step 5 (SFT 4 + RL 1; the last checkpoint is the end-of-SFT one), then resumed.
    let b = tmp("b");
    let mut t = Trainer::new(tiny(&b)).unwrap();
    t.stop_after = Some(5);
    t.run(&mut Quiet).unwrap();
    drop(t);
    let mut t = Trainer::resume(&b).unwrap();
    assert_eq!(t.state.sft_step + t.state.rl_step, 4, "resumes from the last checkpoint");
    t.run(&mut Quiet).unwrap();
    let (ra, rb) = (comparable(&a), comparable(&b));
    assert_eq!(ra.len(), rb.len());
    for (x, y) in ra.iter().zip(&rb) {
        assert_eq!(x, y);
    }
    assert_eq!(
        std::fs::read(a.join("final/model.safetensors")).unwrap(),
        std::fs::read(b.join("final/model.safetensors")).unwrap(),
        "bit-identical final weights"
    );
    // A finished run refuses to start again in the same folder.
    assert!(Trainer::new(tiny(&a)).is_err());
    let _ = std::fs::remove_dir_all(&a);
    let _ = std::fs::remove_dir_all(&b);
}

/// `eval.after_sft = false` skips one evaluation and nothing else: the same training, the same
/// final weights and evaluations, and a summary whose gains are over the starting model.
#[test]
fn skipping_the_evaluation_after_sft_trains_the_same_run() {
    let (a, b) = (tmp("with-sft-eval"), tmp("without-sft-eval"));
    let mut c = tiny(&a);
    c.eval.every = 0;
    Trainer::new(c.clone()).unwrap().run(&mut Quiet).unwrap();
    c.run_dir = b.display().to_string();
    c.eval.after_sft = false;
    let mut t = Trainer::new(c).unwrap();
    t.run(&mut Quiet).unwrap();
    assert!(!t.state.evals.contains_key("after_sft") && b.join("checkpoints/sft/config.json").exists());
    let ra: Vec<_> = comparable(&a)
        .into_iter()
        .filter(|r| r.get("name").and_then(|n| n.as_str()) != Some("after_sft"))
        .collect();
    assert_eq!(ra, comparable(&b));
    assert_eq!(
        std::fs::read(a.join("final/model.safetensors")).unwrap(),
        std::fs::read(b.join("final/model.safetensors")).unwrap()
    );
    let summary = std::fs::read_to_string(b.join("report/summary.md")).unwrap();
    assert!(summary.contains("| gain over start |") && summary.contains("| caesar | 1 |"), "{summary}");
    let _ = std::fs::remove_dir_all(&a);
    let _ = std::fs::remove_dir_all(&b);
}

#[test]
fn bad_configs_name_the_field() {
    let err = TrainConfig::from_toml("[rl]\nestimator = \"gpro\"\n", "x.toml").unwrap_err();
    assert!(err.contains("rl.estimator") && err.contains("grpo"), "{err}");
    let err = TrainConfig::from_toml("[[tasks]]\nname = \"sudokku\"\n", "x.toml").unwrap_err();
    assert!(err.contains("tasks[0].name") && err.contains("sudoku"), "{err}");
    let err = TrainConfig::from_toml("[sft]\nstepz = 3\n", "x.toml").unwrap_err();
    assert!(err.contains("stepz"), "{err}");
    let d = TrainConfig::default();
    assert_eq!(TrainConfig::from_toml(&d.to_toml(), "default").unwrap(), d);
}

#[test]
fn a_pool_run_with_rae_keeps_its_snapshots_and_baselines_across_a_resume() {
    let cfg = |dir: &std::path::Path| {
        let mut c = tiny(dir);
        c.tasks = vec![TaskMix { name: "tic_tac_toe".into(), weight: 1.0, level: 1, max_level: 1 }];
        c.rl.estimator = gauntlet_algos::AdvantageEstimator::Rae;
        c.rl.opponent = "pool".into();
        c.rl.pool.members = vec!["self".into(), "snapshots".into(), "random".into()];
        c.rl.pool.snapshot_every = 1;
        c.rl.pool.keep = 2;
        c.eval.opponent = "random".into();
        c.rl.max_tokens = 4;
        c
    };
    let a = tmp("rae-a");
    let mut t = Trainer::new(cfg(&a)).unwrap();
    t.run(&mut Quiet).unwrap();
    // One baseline per seat that acted (an untrained model often forfeits before seat 1 moves).
    assert!(!t.state.rae.is_empty() && t.state.rae.iter().all(|e| e.0 == 0 && e.1 < 2), "{:?}", t.state.rae);
    let rae_a = t.state.rae.clone();
    assert_eq!(t.pool.iter().map(|p| p.0).collect::<Vec<_>>(), vec![3, 4], "the last two snapshots");
    for step in 1..=4 {
        assert!(a.join(format!("checkpoints/pool/step-{step:06}/model.safetensors")).exists());
    }
    let b = tmp("rae-b");
    let mut t = Trainer::new(cfg(&b)).unwrap();
    t.stop_after = Some(6);
    t.run(&mut Quiet).unwrap();
    drop(t);
    let mut t = Trainer::resume(&b).unwrap();
    assert_eq!(t.pool.iter().map(|p| p.0).collect::<Vec<_>>(), vec![1, 2], "the pool as of the checkpoint");
    t.run(&mut Quiet).unwrap();
    let (ra, rb) = (comparable(&a), comparable(&b));
    for (x, y) in ra.iter().zip(&rb) {
        assert_eq!(x, y);
    }
    assert_eq!(t.state.rae, rae_a, "baselines restored from the checkpoint");
    let _ = std::fs::remove_dir_all(&a);
    let _ = std::fs::remove_dir_all(&b);
}

/// Issue 35: `rl.estimator = "mars"` (turn-level advantages normalised per (task, role)) trains
/// a two-seat game in self-play, every seat's turns in the batch.
#[test]
fn self_play_with_per_role_turn_advantages_trains() {
    let d = tmp("mars");
    let mut c = tiny(&d);
    c.tasks = vec![TaskMix { name: "tic_tac_toe".into(), weight: 1.0, level: 1, max_level: 1 }];
    c.rl.estimator = "mars".parse().unwrap();
    c.rl.opponent = "self".into();
    c.rl.steps = 2;
    c.rl.max_tokens = 4;
    c.sft.steps = 2;
    c.eval.every = 0;
    c.eval.after_sft = false;
    let text = c.to_toml();
    assert!(text.contains("estimator = \"mars\""), "{text}");
    let mut t = Trainer::new(TrainConfig::from_toml(&text, "mars.toml").unwrap()).unwrap();
    t.run(&mut Quiet).unwrap();
    let rl: Vec<_> = comparable(&d).into_iter().filter(|r| r["phase"] == "rl").collect();
    assert_eq!(rl.len(), 2);
    for r in &rl {
        assert!(r["rows"].as_u64().unwrap() > 0, "{r:?}");
        assert!(
            r["grad_norm"].as_f64().unwrap().is_finite() && r["loss"].as_f64().unwrap().is_finite(),
            "{r:?}"
        );
        let adv = r["tic_tac_toe/adv_abs_mean/turn0"].as_f64().unwrap();
        assert!(adv.is_finite(), "{r:?}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn against_an_unbeatable_opponent_the_learner_never_wins() {
    let d = tmp("vs-oracle");
    let mut c = tiny(&d);
    c.tasks = vec![TaskMix { name: "tic_tac_toe".into(), weight: 1.0, level: 1, max_level: 1 }];
    c.rl.opponent = "oracle".into();
    c.eval.opponent = "oracle".into();
    c.rl.steps = 2;
    let mut t = Trainer::new(c).unwrap();
    t.run(&mut Quiet).unwrap();
    for name in ["before_sft", "after_sft", "after_rl"] {
        let r = &t.state.evals[name][0];
        assert_eq!(r.pass_at_1, 0.0, "{name}: {r:?}");
        assert!(r.mean_reward <= 0.0, "{name}: {r:?}");
    }
    let rl: Vec<_> = comparable(&d).into_iter().filter(|r| r["phase"] == "rl").collect();
    assert!(rl.iter().all(|r| r["success"].as_f64() == Some(0.0)), "{rl:?}");
    let _ = std::fs::remove_dir_all(&d);
}

/// Sampling at `rl.temperature` ≠ 1: the update scores tokens under the same tempered
/// distribution the rollout drew them from (as verl's actor divides its logits), so the first
/// update is on-policy up to float noise.
#[test]
fn rl_at_a_temperature_scores_tokens_under_the_distribution_that_drew_them() {
    let d = tmp("temperature");
    let mut c = tiny(&d);
    c.rl.temperature = 2.0;
    c.rl.steps = 2;
    let mut t = Trainer::new(c).unwrap();
    t.run(&mut Quiet).unwrap();
    let rl: Vec<_> = comparable(&d).into_iter().filter(|r| r["phase"] == "rl").collect();
    assert_eq!(rl.len(), 2);
    for r in &rl {
        let gap = r["logprob_gap"].as_f64().unwrap();
        assert!(gap < 1e-4, "behaviour vs recomputed log-prob gap {gap}: {r:?}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// Issue 17: LoRA on a pretrained folder (named through `${VAR:-default}`): checkpoints hold
/// only the PEFT adapter and its moments, and a killed run resumes bit for bit.
#[test]
fn a_tiny_lora_run_writes_a_peft_adapter_and_resumes_exactly() {
    use gauntlet_model::{checkpoint, ChatTemplate, Config, Tokenizer};
    let base = tmp("lora-base");
    let tok = Tokenizer::bytes();
    let mut mc = Config::tiny(tok.vocab_size());
    mc.model_type = "qwen3".into();
    mc.max_position_embeddings = 512;
    let (_, vars) = checkpoint::new_model(&mc, &candle_core::Device::Cpu, 9).unwrap();
    checkpoint::save_chat(&base, &vars, &mc, &tok, &ChatTemplate::chatml(), &[]).unwrap();
    let cfg = |dir: &std::path::Path| {
        let mut c = tiny(dir);
        c.model.init = format!("${{GAUNTLET_NO_SUCH_VAR_17:-{}}}", base.display());
        c.model.lora = Some(gauntlet_model::lora::LoraConfig { rank: 2, alpha: 4.0, ..Default::default() });
        c.rl.kl_coef = 0.01;
        c
    };
    let a = tmp("lora-a");
    Trainer::new(cfg(&a)).unwrap().run(&mut Quiet).unwrap();
    for f in ["final/adapter_config.json", "final/adapter_model.safetensors", "final/optimizer.safetensors"] {
        assert!(a.join(f).exists(), "missing {f}");
    }
    assert!(!a.join("final/model.safetensors").exists(), "a LoRA checkpoint holds only the adapter");
    let acfg: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(a.join("final/adapter_config.json")).unwrap()).unwrap();
    assert_eq!(acfg["peft_type"], "LORA");
    assert_eq!(acfg["r"], 2);
    assert_eq!(acfg["base_model_name_or_path"], base.display().to_string());
    let names =
        candle_core::safetensors::load(a.join("final/adapter_model.safetensors"), &candle_core::Device::Cpu)
            .unwrap();
    assert!(names.contains_key("base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight"));
    assert_eq!(names.len(), 2 * 2 * 7);

    let b = tmp("lora-b");
    let mut t = Trainer::new(cfg(&b)).unwrap();
    t.stop_after = Some(5);
    t.run(&mut Quiet).unwrap();
    drop(t);
    let mut t = Trainer::resume(&b).unwrap();
    t.run(&mut Quiet).unwrap();
    let (ra, rb) = (comparable(&a), comparable(&b));
    assert_eq!(ra, rb);
    assert_eq!(
        std::fs::read(a.join("final/adapter_model.safetensors")).unwrap(),
        std::fs::read(b.join("final/adapter_model.safetensors")).unwrap(),
        "bit-identical final adapter"
    );
    for d in [&a, &b, &base] {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// `rl.activation_checkpointing` recomputes the layers in the backward pass instead of keeping
/// their activations: the updates are the plain run's (gradient norms and losses to 1e-5).
#[test]
fn activation_checkpointing_trains_the_same_updates() {
    let (a, b) = (tmp("plain-backward"), tmp("checkpointed-backward"));
    let mut c = tiny(&a);
    c.model.num_hidden_layers = 2;
    c.eval.every = 0;
    c.rl.steps = 2;
    Trainer::new(c.clone()).unwrap().run(&mut Quiet).unwrap();
    c.run_dir = b.display().to_string();
    c.rl.activation_checkpointing = true;
    Trainer::new(c).unwrap().run(&mut Quiet).unwrap();
    let steps = |d: &std::path::Path| -> Vec<(f64, f64)> {
        comparable(d)
            .into_iter()
            .filter(|r| r.get("phase").and_then(|p| p.as_str()) == Some("rl"))
            .map(|r| (r["grad_norm"].as_f64().unwrap(), r["loss"].as_f64().unwrap()))
            .collect()
    };
    let (pa, pb) = (steps(&a), steps(&b));
    assert_eq!(pa.len(), 2, "{pa:?}");
    for ((ga, la), (gb, lb)) in pa.iter().zip(&pb) {
        assert!(*ga > 0.0 && (ga - gb).abs() <= 1e-5 * ga.abs().max(1e-3), "grad norms {ga} vs {gb}");
        assert!((la - lb).abs() <= 1e-5 * la.abs().max(1e-3), "losses {la} vs {lb}");
    }
    let _ = std::fs::remove_dir_all(&a);
    let _ = std::fs::remove_dir_all(&b);
}

/// `rl.train_max_tokens` splits the update into smaller micro-batches by padded tokens: the
/// same gradients (norms to 1e-5; the logged loss is a mean over micro-batches, so it differs).
#[test]
fn a_token_bound_on_micro_batches_trains_the_same_updates() {
    let (a, b) = (tmp("rows-only"), tmp("token-bound"));
    let mut c = tiny(&a);
    c.eval.every = 0;
    c.rl.steps = 2;
    Trainer::new(c.clone()).unwrap().run(&mut Quiet).unwrap();
    c.run_dir = b.display().to_string();
    c.rl.train_max_tokens = 1;
    Trainer::new(c).unwrap().run(&mut Quiet).unwrap();
    let norms = |d: &std::path::Path| -> Vec<f64> {
        comparable(d)
            .into_iter()
            .filter(|r| r.get("phase").and_then(|p| p.as_str()) == Some("rl"))
            .map(|r| r["grad_norm"].as_f64().unwrap())
            .collect()
    };
    let (na, nb) = (norms(&a), norms(&b));
    assert_eq!(na.len(), 2);
    for (x, y) in na.iter().zip(&nb) {
        assert!(*x > 0.0 && (x - y).abs() <= 1e-5 * x, "grad norms {x} vs {y}");
    }
    let _ = std::fs::remove_dir_all(&a);
    let _ = std::fs::remove_dir_all(&b);
}
