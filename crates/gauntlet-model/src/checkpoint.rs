//! Creating, loading and saving models in the Hugging Face layout.
//!
//! A checkpoint is a folder with `config.json`, `model.safetensors` (or shards listed in
//! `model.safetensors.index.json` when loading) and, when present, `tokenizer.json` and
//! `tokenizer_config.json`: the layout `transformers` reads and writes, so a model trained here
//! loads there and vice versa.
//!
//! Saving is atomic: everything is written into a hidden sibling folder, flushed, then renamed
//! onto the target (an existing checkpoint there is moved aside first and removed after), so a
//! crash leaves either the old checkpoint or the new one, never half of one.
//!
//! Weights are held as `f32` [`candle_core::Var`]s in a [`VarMap`] (trainable); bf16/f16
//! checkpoints are converted on load. Fresh weights ([`init_weights`]) follow `transformers`'
//! Llama initialisation: normal(0, 0.02) for matrices and embeddings, ones for norms, zeros for
//! biases, drawn from a portable seeded ChaCha8 stream in sorted-name order, so a seed gives the
//! same model on every machine.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use candle_core::{DType, Device, Tensor, Var};
use candle_nn::{VarBuilder, VarMap};
use gauntlet_core::Rng;

use crate::{Config, Error, Llama, Result};

/// Standard deviation of the initial weights (`initializer_range` in `transformers`).
pub const INIT_STD: f64 = 0.02;

fn lock(vm: &VarMap) -> std::sync::MutexGuard<'_, HashMap<String, Var>> {
    vm.data().lock().unwrap_or_else(|e| e.into_inner())
}

/// Overwrites every variable of `varmap` with fresh seeded values (see the module doc).
pub fn init_weights(varmap: &VarMap, seed: u64) -> Result<()> {
    let vars = lock(varmap);
    let mut names: Vec<&String> = vars.keys().collect();
    names.sort();
    let mut rng = Rng::new(seed);
    for name in names {
        let var = &vars[name];
        let n = var.elem_count();
        let values: Vec<f32> = if name.ends_with("norm.weight") {
            vec![1.0; n]
        } else if name.ends_with(".bias") {
            vec![0.0; n]
        } else {
            (0..n).map(|_| normal(&mut rng) * INIT_STD as f32).collect()
        };
        var.set(&Tensor::from_vec(values, var.shape(), var.device())?)?;
    }
    Ok(())
}

/// A standard normal draw (Box–Muller).
fn normal(rng: &mut Rng) -> f32 {
    let u1 = rng.unit().max(f64::MIN_POSITIVE);
    let u2 = rng.unit();
    ((-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()) as f32
}

/// A freshly initialised trainable model: the model and the [`VarMap`] owning its weights.
pub fn new_model(cfg: &Config, device: &Device, seed: u64) -> Result<(Llama, VarMap)> {
    let varmap = VarMap::new();
    let model = Llama::load(VarBuilder::from_varmap(&varmap, DType::F32, device), cfg)?;
    init_weights(&varmap, seed)?;
    Ok((model, varmap))
}

/// Reads every tensor of the checkpoint in `dir` (single file or shards).
fn read_tensors(dir: &Path, device: &Device) -> Result<HashMap<String, Tensor>> {
    let single = dir.join("model.safetensors");
    if single.exists() {
        return Ok(candle_core::safetensors::load(&single, device)?);
    }
    let index = dir.join("model.safetensors.index.json");
    let text = std::fs::read_to_string(&index).map_err(|e| {
        Error::io("read", &index, std::io::Error::new(e.kind(), "no `model.safetensors` nor shard index"))
    })?;
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|source| Error::Json { path: index.clone(), source })?;
    let mut files: Vec<&str> = json["weight_map"]
        .as_object()
        .ok_or_else(|| Error::Checkpoint(format!("`{}` has no `weight_map`", index.display())))?
        .values()
        .filter_map(|v| v.as_str())
        .collect();
    files.sort();
    files.dedup();
    let mut all = HashMap::new();
    for f in files {
        all.extend(candle_core::safetensors::load(dir.join(f), device)?);
    }
    Ok(all)
}

/// Loads `config.json` and the weights in `dir` into a trainable `f32` model.
///
/// Fails naming the first tensor the model needs that the checkpoint lacks or has with another
/// shape; extra tensors (a tied `lm_head.weight`, RoPE buffers) are ignored.
pub fn load(dir: impl AsRef<Path>, device: &Device) -> Result<(Llama, VarMap, Config)> {
    let dir = dir.as_ref();
    let cfg = Config::from_file(dir.join("config.json"))?;
    let tensors = read_tensors(dir, device)?;
    let (model, varmap) = from_tensors(&cfg, &tensors, &dir.display().to_string(), device)?;
    Ok((model, varmap, cfg))
}

/// A trainable `f32` model from tensors with Hugging Face names (copied into fresh variables);
/// `source` names where they came from in errors (a missing or misshapen tensor).
pub fn from_tensors(
    cfg: &Config,
    tensors: &HashMap<String, Tensor>,
    source: &str,
    device: &Device,
) -> Result<(Llama, VarMap)> {
    let names = tensor_names(cfg)?;
    if let Some(name) = names.iter().find(|n| !tensors.contains_key(*n)) {
        return Err(Error::Checkpoint(format!("`{source}` lacks tensor `{name}`")));
    }
    let varmap = VarMap::new();
    {
        let mut vars = lock(&varmap);
        for name in names {
            let t = tensors[&name].to_dtype(DType::F32)?.to_device(device)?;
            vars.insert(name.clone(), Var::from_tensor(&t)?);
        }
    }
    let model =
        Llama::load(VarBuilder::from_varmap(&varmap, DType::F32, device), cfg).map_err(|e| match e {
            Error::Candle(c) => Error::Checkpoint(format!("`{source}`: {c}")),
            e => e,
        })?;
    Ok((model, varmap))
}

/// Loads a checkpoint folder as a [`crate::ChatModel`]: weights and config ([`load`]), the
/// tokenizer from `tokenizer.json` (the byte tokenizer when the file is the one
/// [`crate::Tokenizer::bytes`] writes, or when there is none) and the chat template from
/// `tokenizer_config.json` (ChatML when there is none). Returns the trainable variables too.
pub fn load_chat(dir: impl AsRef<Path>, device: &Device) -> Result<(crate::ChatModel, VarMap, Config)> {
    let dir = dir.as_ref();
    let (model, varmap, cfg) = load(dir, device)?;
    let tok_path = dir.join("tokenizer.json");
    let tokenizer = match std::fs::read_to_string(&tok_path) {
        Ok(text) if text == crate::Tokenizer::bytes().to_json()? => crate::Tokenizer::bytes(),
        Ok(text) => crate::Tokenizer::from_json(&text)
            .map_err(|e| Error::Checkpoint(format!("`{}`: {e}", tok_path.display())))?,
        Err(_) => crate::Tokenizer::bytes(),
    };
    let tc = dir.join("tokenizer_config.json");
    let template = if tc.exists() {
        crate::ChatTemplate::from_tokenizer_config(&tc)?
    } else {
        crate::ChatTemplate::chatml()
    };
    Ok((crate::ChatModel { model, tokenizer, template }, varmap, cfg))
}

/// Saves a chat model's weights, config, `tokenizer.json`, `tokenizer_config.json` and any
/// `extra` files atomically (see [`save`]).
pub fn save_chat(
    dir: impl AsRef<Path>,
    varmap: &VarMap,
    cfg: &Config,
    tokenizer: &crate::Tokenizer,
    template: &crate::ChatTemplate,
    extra: &[(String, Vec<u8>)],
) -> Result<()> {
    let mut files = vec![
        ("tokenizer.json".to_string(), tokenizer.to_json()?.into_bytes()),
        ("tokenizer_config.json".to_string(), template.to_tokenizer_config().to_string().into_bytes()),
    ];
    files.extend(extra.iter().cloned());
    save(dir, varmap, cfg, &files)
}

/// The Hugging Face names of the tensors a model with this configuration has, sorted.
pub fn tensor_names(cfg: &Config) -> Result<Vec<String>> {
    let vm = VarMap::new();
    Llama::load(VarBuilder::from_varmap(&vm, DType::F32, &Device::Cpu), &shrunk(cfg))?;
    let mut names: Vec<String> = lock(&vm).keys().cloned().collect();
    names.sort();
    Ok(names)
}

/// The same architecture at vocabulary 2 and width 2, cheap to instantiate for its names.
fn shrunk(cfg: &Config) -> Config {
    let mut c = cfg.clone();
    c.vocab_size = 2;
    c.hidden_size = 2 * c.num_attention_heads;
    c.head_dim = Some(2);
    c.intermediate_size = 2;
    c.max_position_embeddings = 1;
    c
}

/// Writes `varmap`'s tensors, `config.json` and any `extra` files (name, bytes) into `dir`,
/// atomically (see the module doc). Tensors are stored as they are held (`f32`).
pub fn save(dir: impl AsRef<Path>, varmap: &VarMap, cfg: &Config, extra: &[(String, Vec<u8>)]) -> Result<()> {
    let tensors: Vec<(String, Tensor)> = {
        let vars = lock(varmap);
        let mut v: Vec<(String, Tensor)> =
            vars.iter().map(|(k, v)| (k.clone(), v.as_tensor().clone())).collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    };
    let metadata = HashMap::from([("format".to_string(), "pt".to_string())]);
    let weights =
        safetensors::tensor::serialize(tensors.iter().map(|(k, t)| (k.as_str(), t)), Some(metadata))
            .map_err(|e| Error::Checkpoint(format!("serialise the weights: {e}")))?;
    let mut files = vec![
        ("model.safetensors".to_string(), weights),
        ("config.json".to_string(), serde_json::to_vec_pretty(cfg).expect("config serialises")),
    ];
    files.extend(extra.iter().cloned());
    write_folder(dir, &files)
}

/// Writes the files (name, bytes) as the folder `dir`, atomically (see the module doc).
pub fn write_folder(dir: impl AsRef<Path>, files: &[(String, Vec<u8>)]) -> Result<()> {
    let dir = dir.as_ref();
    let parent = dir.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| Error::io("create", parent, e))?;
    let name = dir
        .file_name()
        .ok_or_else(|| Error::Checkpoint(format!("`{}` is not a folder name", dir.display())))?;
    let stamp = format!(
        "{}-{}",
        std::process::id(),
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0)
    );
    let tmp: PathBuf = parent.join(format!(".{}.tmp-{stamp}", name.to_string_lossy()));
    std::fs::create_dir_all(&tmp).map_err(|e| Error::io("create", &tmp, e))?;
    let result = write_all(&tmp, files).and_then(|()| swap_in(&tmp, dir, &stamp));
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    result
}

fn write_all(tmp: &Path, files: &[(String, Vec<u8>)]) -> Result<()> {
    for (name, bytes) in files {
        let p = tmp.join(name);
        std::fs::write(&p, bytes).map_err(|e| Error::io("write", &p, e))?;
        std::fs::File::open(&p).and_then(|f| f.sync_all()).map_err(|e| Error::io("sync", &p, e))?;
    }
    Ok(())
}

fn swap_in(tmp: &Path, dir: &Path, stamp: &str) -> Result<()> {
    let old =
        dir.with_file_name(format!(".{}.old-{stamp}", dir.file_name().unwrap_or_default().to_string_lossy()));
    let had_old = dir.exists();
    if had_old {
        std::fs::rename(dir, &old).map_err(|e| Error::io("rename", dir, e))?;
    }
    if let Err(e) = std::fs::rename(tmp, dir) {
        if had_old {
            let _ = std::fs::rename(&old, dir);
        }
        return Err(Error::io("rename", tmp, e));
    }
    if had_old {
        std::fs::remove_dir_all(&old).map_err(|e| Error::io("remove", &old, e))?;
    }
    if let Some(parent) = dir.parent() {
        let _ = std::fs::File::open(parent).and_then(|f| f.sync_all());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ChatTemplate, Tokenizer};

    fn tmp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("gauntlet-ckpt-{}-{name}", std::process::id()))
    }

    #[test]
    fn save_then_load_is_bit_exact_and_atomic() {
        let dev = Device::Cpu;
        let mut cfg = Config::tiny(260);
        cfg.model_type = "qwen2".into();
        cfg.tie_word_embeddings = true;
        let (model, vm) = new_model(&cfg, &dev, 11).unwrap();
        let root = tmp("exact");
        let dir = root.join("step-1");
        let files = vec![
            ("tokenizer.json".to_string(), Tokenizer::bytes().to_json().unwrap().into_bytes()),
            (
                "tokenizer_config.json".to_string(),
                ChatTemplate::chatml().to_tokenizer_config().to_string().into_bytes(),
            ),
        ];
        save(&dir, &vm, &cfg, &files).unwrap();
        save(&dir, &vm, &cfg, &files).unwrap(); // over an existing checkpoint
        let leftovers: Vec<_> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(leftovers, vec![std::ffi::OsString::from("step-1")]);
        let (back, vm2, cfg2) = load(&dir, &dev).unwrap();
        assert_eq!(serde_json::to_value(&cfg).unwrap(), serde_json::to_value(&cfg2).unwrap());
        let (a, b) = (lock(&vm), lock(&vm2));
        assert_eq!(a.len(), b.len());
        for (name, var) in a.iter() {
            let x: Vec<f32> = var.as_tensor().flatten_all().unwrap().to_vec1().unwrap();
            let y: Vec<f32> = b[name].as_tensor().flatten_all().unwrap().to_vec1().unwrap();
            assert!(x.iter().zip(&y).all(|(p, q)| p.to_bits() == q.to_bits()), "{name} differs");
        }
        let ids = Tensor::new(&[[1u32, 2, 3]], &dev).unwrap();
        let d = (model.forward(&ids, None).unwrap() - back.forward(&ids, None).unwrap()).unwrap();
        assert_eq!(d.abs().unwrap().sum_all().unwrap().to_scalar::<f32>().unwrap(), 0.0);
        assert!(Tokenizer::from_file(dir.join("tokenizer.json")).is_ok());
        assert!(ChatTemplate::from_tokenizer_config(dir.join("tokenizer_config.json")).is_ok());
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn loading_names_the_missing_tensor() {
        let dev = Device::Cpu;
        let cfg = Config::tiny(16);
        let (_, vm) = new_model(&cfg, &dev, 1).unwrap();
        lock(&vm).remove("model.layers.1.mlp.up_proj.weight");
        let dir = tmp("missing");
        save(&dir, &vm, &cfg, &[]).unwrap();
        let err = match load(&dir, &dev) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("loaded a checkpoint that lacks a tensor"),
        };
        assert!(err.contains("lacks tensor `model.layers.1.mlp.up_proj.weight`"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn tensor_names_follow_hugging_face() {
        let mut cfg = Config::tiny(16);
        cfg.num_hidden_layers = 1;
        let names = tensor_names(&cfg).unwrap();
        let want = [
            "lm_head.weight",
            "model.embed_tokens.weight",
            "model.layers.0.input_layernorm.weight",
            "model.layers.0.mlp.down_proj.weight",
            "model.layers.0.mlp.gate_proj.weight",
            "model.layers.0.mlp.up_proj.weight",
            "model.layers.0.post_attention_layernorm.weight",
            "model.layers.0.self_attn.k_proj.weight",
            "model.layers.0.self_attn.o_proj.weight",
            "model.layers.0.self_attn.q_proj.weight",
            "model.layers.0.self_attn.v_proj.weight",
            "model.norm.weight",
        ];
        assert_eq!(names, want);
    }
}
