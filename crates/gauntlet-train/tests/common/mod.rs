//! What the trainer's integration tests share: a tiny model's run and its metrics.
#![allow(dead_code)] // each test file uses a part

use gauntlet_train::config::TrainConfig;
use gauntlet_train::metrics;

/// The default run in `dir` with a 1-layer, 32-wide model (seconds per run in debug builds).
pub fn tiny_model(dir: &std::path::Path) -> TrainConfig {
    let mut c = TrainConfig { run_dir: dir.display().to_string(), ..Default::default() };
    c.model.hidden_size = 32;
    c.model.num_hidden_layers = 1;
    c.model.num_attention_heads = 2;
    c.model.intermediate_size = 64;
    c.model.max_position_embeddings = 512;
    c
}

/// A fresh folder under the system's temporary folder, unique to this test process.
pub fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("gauntlet-train-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// A run's `metrics.jsonl` without its wall-clock fields.
pub fn comparable(dir: &std::path::Path) -> Vec<serde_json::Map<String, serde_json::Value>> {
    metrics::read(&dir.join("metrics.jsonl")).unwrap().into_iter().map(metrics::without_timing).collect()
}

/// The RL lines of [`comparable`].
pub fn rl_lines(dir: &std::path::Path) -> Vec<serde_json::Map<String, serde_json::Value>> {
    comparable(dir).into_iter().filter(|r| r.get("phase").and_then(|p| p.as_str()) == Some("rl")).collect()
}
