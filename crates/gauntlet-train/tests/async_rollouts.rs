//! `rl.mode = "async"`: a rollout thread plays the next RL steps while the trainer updates, with
//! a fixed lag of `rl.max_staleness` updates (crates/gauntlet-train/src/collect.rs).

mod common;

use common::{comparable as records, rl_lines, tmp};
use gauntlet_train::config::{TaskMix, TrainConfig};
use gauntlet_train::{Quiet, Trainer};

/// A tiny run over a single-turn family and a game against a scripted opponent, with a periodic
/// evaluation and curriculum probes between RL steps.
fn tiny(dir: &std::path::Path) -> TrainConfig {
    let mut c = common::tiny_model(dir);
    c.tasks = vec![
        TaskMix { name: "caesar".into(), weight: 1.0, level: 1, max_level: 2 },
        TaskMix { name: "tic_tac_toe".into(), weight: 1.0, level: 1, max_level: 1 },
    ];
    c.sft.steps = 2;
    c.sft.batch_size = 2;
    c.rl.steps = 4;
    c.rl.prompts_per_step = 2;
    c.rl.group_size = 2;
    c.rl.max_tokens = 6;
    c.rl.opponent = "oracle".into();
    c.rl.optim.warmup_steps = 1;
    c.rl.entropy_coef = 0.01;
    c.rl.dynamic_sampling = false;
    c.eval.n = 2;
    c.eval.every = 2;
    c.eval.max_tokens = 6;
    c.curriculum.probe = 2;
    c.curriculum.window = 2;
    c.checkpoint.every = 0;
    c
}

fn weights(dir: &std::path::Path) -> Vec<u8> {
    std::fs::read(dir.join("final/model.safetensors")).unwrap()
}

/// With `max_staleness = 0` the rollout thread waits for every update, so the run is the
/// synchronous one: the same metrics line for line (less the lag it adds) and bit-identical
/// final weights.
#[test]
fn async_with_no_staleness_trains_exactly_the_synchronous_run() {
    let (a, b) = (tmp("async-sync"), tmp("async-0"));
    let c = tiny(&a);
    Trainer::new(c.clone()).unwrap().run(&mut Quiet).unwrap();
    let mut c = c;
    c.run_dir = b.display().to_string();
    c.rl.mode = "async".into();
    c.rl.max_staleness = 0;
    Trainer::new(c).unwrap().run(&mut Quiet).unwrap();
    let mut rb = records(&b);
    let lags: Vec<u64> =
        rb.iter_mut().filter_map(|r| r.remove("policy_lag")).map(|v| v.as_u64().unwrap()).collect();
    assert_eq!(lags, vec![0; 4]);
    let ra = records(&a);
    assert_eq!(ra.len(), rb.len());
    for (x, y) in ra.iter().zip(&rb) {
        assert_eq!(x, y);
    }
    assert!(rl_lines(&a).iter().all(|r| r["grad_norm"].as_f64().unwrap() > 0.0));
    assert_eq!(weights(&a), weights(&b), "bit-identical final weights");
    let _ = std::fs::remove_dir_all(&a);
    let _ = std::fs::remove_dir_all(&b);
}

/// With `max_staleness = 1` step `s` is sampled by the weights after step `s − 1` (the first
/// step by the weights RL starts from), trained with AReaL's decoupled objective; the lag is
/// fixed rather than left to thread timing, so two runs are identical.
#[test]
fn async_with_a_lag_of_one_trains_one_update_behind_and_is_reproducible() {
    let (a, b) = (tmp("async-1a"), tmp("async-1b"));
    let mut c = tiny(&a);
    c.rl.mode = "async".into();
    c.rl.max_staleness = 1;
    c.rl.loss = "decoupled-ppo".parse().unwrap();
    Trainer::new(c.clone()).unwrap().run(&mut Quiet).unwrap();
    c.run_dir = b.display().to_string();
    Trainer::new(c).unwrap().run(&mut Quiet).unwrap();
    let lines = rl_lines(&a);
    let lags: Vec<u64> = lines.iter().map(|r| r["policy_lag"].as_u64().unwrap()).collect();
    assert_eq!(lags, vec![0, 1, 1, 1]);
    for r in &lines {
        let w = r["behav_weight_mean"].as_f64().unwrap();
        assert!(w.is_finite() && w > 0.0, "{r:?}");
        assert!(r["grad_norm"].as_f64().unwrap() > 0.0);
    }
    // The stale steps' behaviour and proximal policies differ by one update.
    assert!(lines[1..].iter().any(|r| (r["behav_weight_mean"].as_f64().unwrap() - 1.0).abs() > 1e-6));
    assert_eq!(records(&a), records(&b));
    assert_eq!(weights(&a), weights(&b));
    let _ = std::fs::remove_dir_all(&a);
    let _ = std::fs::remove_dir_all(&b);
}

#[test]
fn async_settings_are_checked() {
    let mut c = tiny(&tmp("bad-mode"));
    c.rl.mode = "overlapped".into();
    let e = c.validate().unwrap_err();
    assert!(e.contains("`rl.mode` must be `sync` or `async`"), "{e}");
    c.rl.mode = "async".into();
    c.rl.source = "agents".into();
    c.serve = Some(Default::default());
    let e = c.validate().unwrap_err();
    assert!(e.contains("drop `rl.mode`"), "{e}");
}

/// `gauntlet train` runs on a worker of the compute pool and the rollout thread samples on the
/// same pool: with one worker, the trainer's wait for episodes must run the pool's work, or the
/// two would wait for each other forever.
#[test]
fn async_on_a_one_thread_pool_finishes() {
    let a = tmp("async-pool-1");
    let mut c = tiny(&a);
    c.rl.mode = "async".into();
    c.rl.max_staleness = 1;
    c.rl.steps = 3;
    c.eval.every = 0;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    pool.install(|| gauntlet_model::on_pool(|| Trainer::new(c).unwrap().run(&mut Quiet).unwrap()));
    let lags: Vec<u64> = rl_lines(&a).iter().map(|r| r["policy_lag"].as_u64().unwrap()).collect();
    assert_eq!(lags, vec![0, 1, 1]);
    let _ = std::fs::remove_dir_all(&a);
}
