//! LoRA adapters (Hu et al. 2021, <https://arxiv.org/abs/2106.09685>) in the PEFT layout.
//!
//! A target projection `y = x Wᵀ + b` (frozen) gains a trainable low-rank update:
//!
//! ```text
//! y = x Wᵀ + b + s · (x Aᵀ) Bᵀ,    A [r, in],  B [out, r],  s = alpha / r
//! ```
//!
//! `A` starts uniform in `±1/√in` (PEFT's default, Kaiming-uniform with `a = √5`), `B` at zero,
//! so the adapted model starts exactly at the base model. [`attach`] freezes every base weight
//! (detached tensors: no gradient is accumulated for them, and their projections run through
//! [`crate::fused::frozen_matmul`], whose backward skips the weight-gradient products that a
//! plain `matmul` would compute and throw away) and returns a [`VarMap`] holding only
//! the adapter, under PEFT's names: `base_model.model.model.layers.N.self_attn.q_proj.lora_A.weight`
//! and `…lora_B.weight`.
//!
//! Files ([`save_adapter`], [`load_adapter`]): `adapter_config.json` (`peft_type = "LORA"`, `r`,
//! `lora_alpha`, `lora_dropout`, `target_modules`, `base_model_name_or_path`) and
//! `adapter_model.safetensors`, what `peft.PeftModel.from_pretrained` and vLLM read. [`merge`]
//! folds the update into the weights (`W + s·B A`) for a plain Hugging Face export.
//!
//! Dropout on the adapter input is not implemented: a config with `dropout > 0` is refused.

use std::collections::HashMap;
use std::path::Path;

use candle_core::{DType, Tensor, Var};
use candle_nn::VarMap;
use gauntlet_core::Rng;
use serde::{Deserialize, Serialize};

use crate::attention::Linear;
use crate::{Error, Llama, Result};

/// Projections LoRA can adapt (Hugging Face module names).
pub const MODULES: [&str; 7] = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"];

/// Rank, scaling and targets of an adapter (`[model.lora]` in a training config).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LoraConfig {
    /// Rank `r` of the update.
    pub rank: usize,
    /// Scale numerator: the update is multiplied by `alpha / rank`.
    pub alpha: f64,
    /// Dropout on the adapter input; only 0 is supported.
    pub dropout: f64,
    /// Projections to adapt, from [`MODULES`].
    pub target_modules: Vec<String>,
}

impl Default for LoraConfig {
    fn default() -> Self {
        LoraConfig { rank: 16, alpha: 32.0, dropout: 0.0, target_modules: MODULES.map(String::from).to_vec() }
    }
}

impl LoraConfig {
    /// The update's scale `alpha / rank`.
    pub fn scale(&self) -> f64 {
        self.alpha / self.rank as f64
    }

    /// Checks the fields; the message names the bad one.
    pub fn validate(&self) -> Result<()> {
        let bad = |m: String| Err(Error::Config(m));
        if self.rank == 0 {
            return bad("`lora.rank` must be positive".into());
        }
        if !(self.alpha > 0.0 && self.alpha.is_finite()) {
            return bad(format!("`lora.alpha` must be positive, got {}", self.alpha));
        }
        if self.dropout != 0.0 {
            return bad(format!(
                "`lora.dropout` {} is not supported: LoRA dropout is not implemented, set 0",
                self.dropout
            ));
        }
        if self.target_modules.is_empty() {
            return bad("`lora.target_modules` is empty".into());
        }
        if let Some(m) = self.target_modules.iter().find(|m| !MODULES.contains(&m.as_str())) {
            return bad(format!(
                "`lora.target_modules` has unknown module `{m}` (use {})",
                MODULES.join(", ")
            ));
        }
        Ok(())
    }
}

/// A frozen projection plus its low-rank update.
#[derive(Debug, Clone)]
pub struct LoraLinear {
    /// The frozen base map.
    pub base: Linear,
    /// `lora_A`, `[r, in]`.
    pub a: Tensor,
    /// `lora_B`, `[out, r]`.
    pub b: Tensor,
    /// `alpha / r`.
    pub scale: f64,
}

impl LoraLinear {
    /// `x Wᵀ + b + s (x Aᵀ) Bᵀ` for `x` `[..., in]`.
    pub fn forward(&self, x: &Tensor) -> Result<Tensor> {
        if let Some(y) = self.fused(x)? {
            return Ok(y);
        }
        let lin = |w: &Tensor| Linear::dense(w.clone(), None);
        let low = lin(&self.b).forward(&lin(&self.a).forward(x)?)?;
        Ok((self.base.forward(x)? + (low * self.scale)?)?)
    }

    /// The fused op ([`crate::fused::lora_matmul`]) when everything is `f32` on the CPU, the base
    /// is dense and there are more rows than decoding has (`None` otherwise).
    fn fused(&self, x: &Tensor) -> Result<Option<Tensor>> {
        use crate::fused::{lora_matmul, supported};
        let Linear::Dense { weight, bias, .. } = &self.base else { return Ok(None) };
        let (x2, dims) = crate::attention::as_rows(x)?;
        let all_f32 = [x, weight, &self.a, &self.b].into_iter().chain(bias).all(supported);
        if !all_f32 || x2.dim(0)? <= crate::attention::SMALL_ROWS {
            return Ok(None);
        }
        let y = lora_matmul(&x2, weight, bias.as_ref(), &self.a, &self.b, self.scale)?;
        Ok(Some(crate::attention::with_rows_of(&y, dims)?))
    }
}

/// PEFT's name of a layer's module, without the `.lora_A.weight` suffix.
fn peft_prefix(layer: usize, module: &str) -> String {
    let part = if ["gate_proj", "up_proj", "down_proj"].contains(&module) { "mlp" } else { "self_attn" };
    format!("base_model.model.model.layers.{layer}.{part}.{module}")
}

/// The projection `module` of a block.
fn module_mut<'a>(block: &'a mut crate::Block, module: &str) -> &'a mut Linear {
    match module {
        "q_proj" => &mut block.self_attn.q_proj,
        "k_proj" => &mut block.self_attn.k_proj,
        "v_proj" => &mut block.self_attn.v_proj,
        "o_proj" => &mut block.self_attn.o_proj,
        "gate_proj" => &mut block.mlp.gate_proj,
        "up_proj" => &mut block.mlp.up_proj,
        _ => &mut block.mlp.down_proj,
    }
}

fn detach_linear(l: &Linear) -> Linear {
    match l {
        Linear::Dense { weight, bias, .. } => {
            Linear::dense(weight.detach(), bias.as_ref().map(|b| b.detach()))
        }
        other => other.clone(),
    }
}

/// Freezes every weight of `model` (no gradient flows into them any more).
pub fn freeze(model: &mut Llama) {
    model.embed_tokens = model.embed_tokens.detach();
    model.norm = model.norm.detach();
    model.lm_head = detach_linear(&model.lm_head);
    for b in &mut model.layers {
        b.input_layernorm = b.input_layernorm.detach();
        b.post_attention_layernorm = b.post_attention_layernorm.detach();
        if let Some((q, k)) = &b.self_attn.qk_norm {
            b.self_attn.qk_norm = Some((q.detach(), k.detach()));
        }
        for m in MODULES {
            let l = module_mut(b, m);
            *l = detach_linear(l);
        }
    }
}

/// Whether any projection of `model` carries an adapter.
pub fn has_adapter(model: &Llama) -> bool {
    model.layers.iter().any(|b| {
        let (a, m) = (&b.self_attn, &b.mlp);
        [&a.q_proj, &a.k_proj, &a.v_proj, &a.o_proj, &m.gate_proj, &m.up_proj, &m.down_proj]
            .iter()
            .any(|l| matches!(l, Linear::Lora(_)))
    })
}

/// Freezes `model` and wraps its target projections with fresh adapters (seeded `A`, zero `B`);
/// returns the adapter's variables (PEFT names), the only trainable ones.
pub fn attach(model: &mut Llama, cfg: &LoraConfig, seed: u64) -> Result<VarMap> {
    cfg.validate()?;
    if has_adapter(model) {
        return Err(Error::Config("the model already carries a LoRA adapter".into()));
    }
    freeze(model);
    let dev = model.device().clone();
    let mut shapes: Vec<(String, usize, usize)> = Vec::new();
    for (l, b) in model.layers.iter_mut().enumerate() {
        for m in &cfg.target_modules {
            let (out, inn) = match module_mut(b, m) {
                Linear::Dense { weight, .. } => weight.dims2()?,
                _ => {
                    return Err(Error::Config(format!(
                        "LoRA needs f32 base weights; layer {l} `{m}` is quantized"
                    )))
                }
            };
            shapes.push((peft_prefix(l, m), out, inn));
        }
    }
    shapes.sort();
    let varmap = VarMap::new();
    let mut rng = Rng::new(seed);
    {
        let mut vars = varmap.data().lock().unwrap_or_else(|e| e.into_inner());
        for (prefix, out, inn) in &shapes {
            let bound = 1.0 / (*inn as f64).sqrt();
            let a: Vec<f32> =
                (0..cfg.rank * inn).map(|_| ((2.0 * rng.unit() - 1.0) * bound) as f32).collect();
            let a = Tensor::from_vec(a, (cfg.rank, *inn), &dev)?;
            vars.insert(format!("{prefix}.lora_A.weight"), Var::from_tensor(&a)?);
            vars.insert(format!("{prefix}.lora_B.weight"), Var::zeros((*out, cfg.rank), DType::F32, &dev)?);
        }
    }
    wrap(model, cfg, &varmap)?;
    Ok(varmap)
}

/// Wraps the target projections of a frozen `model` with the adapter tensors of `varmap`.
fn wrap(model: &mut Llama, cfg: &LoraConfig, varmap: &VarMap) -> Result<()> {
    let vars = varmap.data().lock().unwrap_or_else(|e| e.into_inner());
    for (l, b) in model.layers.iter_mut().enumerate() {
        for m in &cfg.target_modules {
            let prefix = peft_prefix(l, m);
            let get = |s: &str| {
                vars.get(&format!("{prefix}.{s}.weight"))
                    .map(|v| v.as_tensor().clone())
                    .ok_or_else(|| Error::Checkpoint(format!("the adapter lacks `{prefix}.{s}.weight`")))
            };
            let lin = module_mut(b, m);
            let (a, bb) = (get("lora_A")?, get("lora_B")?);
            let (out, inn) = match &*lin {
                Linear::Dense { weight, .. } => weight.dims2()?,
                _ => {
                    return Err(Error::Config(format!("LoRA needs f32 base weights; layer {l} `{m}` is not")))
                }
            };
            if a.dims() != [cfg.rank, inn] || bb.dims() != [out, cfg.rank] {
                return Err(Error::Checkpoint(format!(
                    "adapter `{prefix}`: lora_A {:?} / lora_B {:?}, expected [{}, {inn}] / [{out}, {}]",
                    a.dims(),
                    bb.dims(),
                    cfg.rank,
                    cfg.rank
                )));
            }
            *lin = Linear::Lora(Box::new(LoraLinear { base: lin.clone(), a, b: bb, scale: cfg.scale() }));
        }
    }
    Ok(())
}

/// `adapter_config.json` for `cfg` (PEFT's `LoraConfig` fields).
pub fn peft_config(cfg: &LoraConfig, base_model: &str) -> serde_json::Value {
    serde_json::json!({
        "peft_type": "LORA",
        "task_type": "CAUSAL_LM",
        "base_model_name_or_path": base_model,
        "r": cfg.rank,
        "lora_alpha": cfg.alpha,
        "lora_dropout": cfg.dropout,
        "target_modules": cfg.target_modules,
        "bias": "none",
        "fan_in_fan_out": false,
        "inference_mode": true,
        "init_lora_weights": true,
        "use_rslora": false,
        "use_dora": false,
        "modules_to_save": null,
        "layers_to_transform": null,
        "layers_pattern": null,
        "rank_pattern": {},
        "alpha_pattern": {},
        "revision": null
    })
}

/// Reads `adapter_config.json` in `dir`: the [`LoraConfig`] and `base_model_name_or_path`.
pub fn read_config(dir: &Path) -> Result<(LoraConfig, String)> {
    let path = dir.join("adapter_config.json");
    let text = std::fs::read_to_string(&path).map_err(|e| Error::io("read", &path, e))?;
    let v: serde_json::Value =
        serde_json::from_str(&text).map_err(|source| Error::Json { path: path.clone(), source })?;
    let bad = |m: &str| Error::Checkpoint(format!("`{}`: {m}", path.display()));
    if v["peft_type"] != "LORA" {
        return Err(bad("`peft_type` is not `LORA`"));
    }
    for (key, ok) in [("use_rslora", false), ("use_dora", false), ("fan_in_fan_out", false)] {
        if v[key].as_bool().unwrap_or(ok) != ok {
            return Err(bad(&format!("`{key}` = true is not supported")));
        }
    }
    if !matches!(v["bias"].as_str(), None | Some("none")) {
        return Err(bad("only `bias = \"none\"` is supported"));
    }
    let targets = match &v["target_modules"] {
        serde_json::Value::Array(a) => a.iter().filter_map(|s| s.as_str().map(String::from)).collect(),
        serde_json::Value::String(s) => {
            MODULES.iter().filter(|m| s.contains(*m)).map(|m| m.to_string()).collect()
        }
        _ => return Err(bad("`target_modules` is missing")),
    };
    let cfg = LoraConfig {
        rank: v["r"].as_u64().ok_or_else(|| bad("`r` is missing"))? as usize,
        alpha: v["lora_alpha"].as_f64().ok_or_else(|| bad("`lora_alpha` is missing"))?,
        dropout: 0.0,
        target_modules: targets,
    };
    cfg.validate().map_err(|e| bad(&e.to_string()))?;
    let base = v["base_model_name_or_path"].as_str().unwrap_or_default().to_string();
    Ok((cfg, base))
}

/// Freezes `model` and applies the adapter saved in `dir`; returns its variables (trainable, so
/// a run can continue from it) and config.
pub fn load_adapter(model: &mut Llama, dir: &Path) -> Result<(VarMap, LoraConfig)> {
    let (cfg, _) = read_config(dir)?;
    let path = dir.join("adapter_model.safetensors");
    let tensors = candle_core::safetensors::load(&path, model.device())
        .map_err(|e| Error::Checkpoint(format!("`{}`: {e}", path.display())))?;
    freeze(model);
    let varmap = VarMap::new();
    {
        let mut vars = varmap.data().lock().unwrap_or_else(|e| e.into_inner());
        for (name, t) in tensors {
            vars.insert(name, Var::from_tensor(&t.to_dtype(DType::F32)?)?);
        }
    }
    wrap(model, &cfg, &varmap).map_err(|e| Error::Checkpoint(format!("`{}`: {e}", path.display())))?;
    Ok((varmap, cfg))
}

/// The files of an adapter folder: `adapter_config.json` and `adapter_model.safetensors`.
pub fn adapter_files(varmap: &VarMap, cfg: &LoraConfig, base_model: &str) -> Result<Vec<(String, Vec<u8>)>> {
    let tensors: Vec<(String, Tensor)> = {
        let vars = varmap.data().lock().unwrap_or_else(|e| e.into_inner());
        let mut v: Vec<(String, Tensor)> =
            vars.iter().map(|(k, v)| (k.clone(), v.as_tensor().clone())).collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    };
    let metadata = HashMap::from([("format".to_string(), "pt".to_string())]);
    let bytes = safetensors::tensor::serialize(tensors.iter().map(|(k, t)| (k.as_str(), t)), Some(metadata))
        .map_err(|e| Error::Checkpoint(format!("serialise the adapter: {e}")))?;
    let config = serde_json::to_vec_pretty(&peft_config(cfg, base_model)).expect("json");
    Ok(vec![("adapter_config.json".into(), config), ("adapter_model.safetensors".into(), bytes)])
}

/// Writes the adapter (plus `extra` files) into `dir` atomically.
pub fn save_adapter(
    dir: &Path,
    varmap: &VarMap,
    cfg: &LoraConfig,
    base_model: &str,
    extra: &[(String, Vec<u8>)],
) -> Result<()> {
    let mut files = adapter_files(varmap, cfg, base_model)?;
    files.extend(extra.iter().cloned());
    crate::checkpoint::write_folder(dir, &files)
}

/// `model` with every adapter folded into its base weight (`W + s·B A`): a plain dense model.
pub fn merge(model: &Llama) -> Result<Llama> {
    let mut m = model.clone();
    for b in &mut m.layers {
        for name in MODULES {
            let lin = module_mut(b, name);
            if let Linear::Lora(l) = &*lin {
                let Linear::Dense { weight, bias, .. } = &l.base else {
                    return Err(Error::Config("LoRA base weights must be f32 to merge".into()));
                };
                let delta = (l.b.matmul(&l.a)? * l.scale)?;
                *lin = Linear::dense((weight + delta)?.detach(), bias.clone());
            }
        }
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{checkpoint, Config};
    use candle_core::Device;

    fn max_diff(a: &Tensor, b: &Tensor) -> f32 {
        (a - b).unwrap().abs().unwrap().max_all().unwrap().to_scalar::<f32>().unwrap()
    }

    /// A tiny Qwen3 with an adapter on every projection whose `B` is random (not the zero start).
    fn adapted(seed: u64) -> (Llama, Llama, VarMap, LoraConfig) {
        let dev = Device::Cpu;
        let mut cfg = Config::tiny(40);
        cfg.model_type = "qwen3".into();
        let (base, _) = checkpoint::new_model(&cfg, &dev, seed).unwrap();
        let mut model = base.clone();
        let lcfg = LoraConfig { rank: 4, alpha: 8.0, ..Default::default() };
        let vm = attach(&mut model, &lcfg, seed).unwrap();
        (base, model, vm, lcfg)
    }

    fn randomize_b(vm: &VarMap) {
        for (name, var) in vm.data().lock().unwrap().iter() {
            if name.ends_with("lora_B.weight") {
                var.set(&Tensor::randn(0f32, 0.1, var.shape(), &Device::Cpu).unwrap()).unwrap();
            }
        }
    }

    #[test]
    fn adapter_starts_at_the_base_and_trains_only_itself() {
        let (base, model, vm, cfg) = adapted(3);
        let ids = Tensor::new(&[[1u32, 5, 9, 2]], &Device::Cpu).unwrap();
        assert_eq!(max_diff(&model.forward(&ids, None).unwrap(), &base.forward(&ids, None).unwrap()), 0.0);
        let names: Vec<String> = vm.data().lock().unwrap().keys().cloned().collect();
        assert_eq!(names.len(), 2 * 2 * cfg.target_modules.len());
        assert!(names.contains(&"base_model.model.model.layers.1.mlp.down_proj.lora_A.weight".to_string()));
        assert!(names.contains(&"base_model.model.model.layers.0.self_attn.q_proj.lora_B.weight".to_string()));
        randomize_b(&vm);
        // 4 rows take the composite path, 150 the fused op; both train every adapter weight.
        let long = Tensor::from_vec((0..150u32).map(|i| i % 40).collect(), (1, 150), &Device::Cpu).unwrap();
        for ids in [&ids, &long] {
            let loss = model.forward(ids, None).unwrap().sqr().unwrap().mean_all().unwrap();
            let grads = loss.backward().unwrap();
            for (name, var) in vm.data().lock().unwrap().iter() {
                let g = grads.get(var.as_tensor()).unwrap_or_else(|| panic!("{name}: no gradient"));
                let n = g.sqr().unwrap().sum_all().unwrap().to_scalar::<f32>().unwrap();
                assert!(n.is_finite() && n > 0.0, "{name}: |g|² = {n}");
            }
            // Frozen base weights get no gradient at all.
            assert!(grads.get(&model.embed_tokens).is_none());
            assert!(grads.get(&model.layers[0].input_layernorm).is_none());
        }
    }

    #[test]
    fn saved_adapter_reloads_and_merges_to_the_same_logits() {
        let (base, model, vm, cfg) = adapted(4);
        randomize_b(&vm);
        let dir = std::env::temp_dir().join(format!("gauntlet-lora-{}", std::process::id()));
        save_adapter(&dir, &vm, &cfg, "base", &[]).unwrap();
        let (read, name) = read_config(&dir).unwrap();
        assert_eq!((read, name.as_str()), (cfg.clone(), "base"));
        let mut back = base.clone();
        let (vm2, _) = load_adapter(&mut back, &dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(vm2.all_vars().len(), vm.all_vars().len());
        let ids = Tensor::new(&[[3u32, 1, 4, 1, 5], [9, 2, 6, 5, 3]], &Device::Cpu).unwrap();
        let want = model.forward(&ids, None).unwrap();
        assert!(max_diff(&want, &base.forward(&ids, None).unwrap()) > 1e-3, "the adapter changes nothing");
        assert_eq!(max_diff(&back.forward(&ids, None).unwrap(), &want), 0.0);
        let merged = merge(&model).unwrap();
        assert!(!has_adapter(&merged));
        assert!(max_diff(&merged.forward(&ids, None).unwrap(), &want) < 1e-5);
        // Past `SMALL_ROWS` rows the adapter runs as one fused op (`fused::lora_matmul`).
        let long = Tensor::from_vec((0..150u32).map(|i| i % 40).collect(), (2, 75), &Device::Cpu).unwrap();
        let want = model.forward(&long, None).unwrap();
        assert!(max_diff(&merged.forward(&long, None).unwrap(), &want) < 1e-5);
    }

    #[test]
    fn bad_configs_are_refused_by_name() {
        let err = |c: LoraConfig| c.validate().unwrap_err().to_string();
        assert!(err(LoraConfig { dropout: 0.1, ..Default::default() }).contains("lora.dropout"));
        assert!(err(LoraConfig { rank: 0, ..Default::default() }).contains("lora.rank"));
        let c = LoraConfig { target_modules: vec!["qkv".into()], ..Default::default() };
        assert!(err(c).contains("unknown module `qkv`"));
    }
}
