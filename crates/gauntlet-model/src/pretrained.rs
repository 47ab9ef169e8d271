//! Pretrained starting points: where a policy's weights come from.
//!
//! A model spec is one of
//!
//! - a Hugging Face model folder (`config.json`, `model.safetensors` or shards, `tokenizer.json`,
//!   `tokenizer_config.json` with the chat template) of the Llama, Qwen2 or Qwen3 family;
//! - `gguf:FILE`, a llama.cpp file dequantized to trainable `f32` weights in the Hugging Face
//!   layout ([`crate::gguf::load_trainable`]);
//! - a LoRA adapter folder (`adapter_config.json`, `adapter_model.safetensors`, as
//!   [`crate::lora::save_adapter`] writes it): its `base_model_name_or_path` plus the adapter.
//!
//! `${VAR}` and `${VAR:-default}` in a spec are replaced from the environment ([`expand_env`]),
//! so a shipped config can name a cached file: `gguf:${GAUNTLET_SMOLLM2_GGUF:-smollm2.gguf}`.
//! The model's own tokenizer and chat template come with it.

use std::path::Path;

use candle_core::Device;
use candle_nn::VarMap;

use crate::lora::{self, LoraConfig};
use crate::{ChatModel, Config, Error, Result};

/// Replaces `${VAR}` and `${VAR:-default}` with the variable's value (the default when it is
/// unset or empty); an unset `${VAR}` without default is an error naming it.
///
/// ```
/// use gauntlet_model::pretrained::expand_env;
/// assert_eq!(expand_env("gguf:${GAUNTLET_NO_SUCH_VAR:-a.gguf}").unwrap(), "gguf:a.gguf");
/// assert!(expand_env("${GAUNTLET_NO_SUCH_VAR}").is_err());
/// assert_eq!(expand_env("plain").unwrap(), "plain");
/// ```
pub fn expand_env(s: &str) -> Result<String> {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("${") {
        out.push_str(&rest[..i]);
        let body = &rest[i + 2..];
        let end =
            body.find('}').ok_or_else(|| Error::Config(format!("`{s}`: `${{` without a closing `}}`")))?;
        let (name, default) = match body[..end].split_once(":-") {
            Some((n, d)) => (n, Some(d)),
            None => (&body[..end], None),
        };
        match (std::env::var(name).ok().filter(|v| !v.is_empty()), default) {
            (Some(v), _) => out.push_str(&v),
            (None, Some(d)) => out.push_str(d),
            (None, None) => {
                return Err(Error::Config(format!("`{s}`: environment variable `{name}` is not set")));
            }
        }
        rest = &body[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The variables of `${VAR:-default}` in `s` that are unset, so their default was used.
fn defaulted_vars(s: &str) -> Vec<&str> {
    s.split("${")
        .skip(1)
        .filter_map(|b| b.split_once('}').map(|(body, _)| body))
        .filter_map(|body| body.split_once(":-").map(|(name, _)| name))
        .filter(|name| std::env::var(name).map_or(true, |v| v.is_empty()))
        .collect()
}

/// An error for a `gguf:FILE` whose file is not there, saying how to point at it: when the spec
/// fell back to the default of an unset `${VAR:-default}`, that setting `VAR` is the fix.
fn check_gguf_file(spec: &str, file: &str) -> Result<()> {
    if Path::new(file).is_file() {
        return Ok(());
    }
    let hint = match defaulted_vars(spec).first() {
        Some(var) => format!(
            "; `{var}` is not set, so `{spec}` fell back to its default: set `{var}` to the file's path{}",
            if file.contains("SmolLM2") {
                " (the test script caches it at ~/.cache/gauntlet/smollm2/SmolLM2-135M-Instruct.Q4_1.gguf)"
            } else {
                ""
            }
        ),
        None => format!("; give `gguf:` the path of an existing GGUF file (model `{spec}`)"),
    };
    Err(Error::Config(format!("the GGUF file `{file}` does not exist{hint}")))
}

/// Whether `dir` holds a LoRA adapter (and no full model).
pub fn is_adapter(dir: &Path) -> bool {
    dir.join("adapter_config.json").exists() && !dir.join("config.json").exists()
}

/// Loads a base model spec (folder or `gguf:FILE`, env-expanded) as a trainable `f32` model.
pub fn load_base(spec: &str, device: &Device) -> Result<(ChatModel, VarMap, Config)> {
    let raw = spec;
    let spec = expand_env(spec)?;
    if let Some(file) = spec.strip_prefix("gguf:") {
        check_gguf_file(raw, file)?;
        return crate::gguf::load_trainable(file, device);
    }
    let dir = Path::new(&spec);
    if !dir.join("config.json").exists() {
        return Err(Error::Config(format!(
            "model `{spec}` is neither `gguf:FILE` nor a Hugging Face model folder with `config.json`"
        )));
    }
    crate::checkpoint::load_chat(dir, device)
}

/// Loads `base` and applies the adapter in `adapter`: the model (base frozen), the adapter's
/// trainable variables and its config.
pub fn load_adapted(base: &str, adapter: &Path, device: &Device) -> Result<(ChatModel, VarMap, LoraConfig)> {
    let (mut chat, _, _) = load_base(base, device)?;
    let (vars, cfg) = lora::load_adapter(&mut chat.model, adapter)?;
    Ok((chat, vars, cfg))
}

/// A base plus adapter for inference: the adapter folded into the base weights (`W + s·B A`,
/// [`lora::merge`], as the merged export), so sampling runs one matmul per projection and
/// records no autograd graph.
fn load_adapted_frozen(base: &str, adapter: &Path, device: &Device) -> Result<ChatModel> {
    let (chat, _, _) = load_adapted(base, adapter, device)?;
    let mut model = lora::merge(&chat.model)?;
    model.pack_frozen()?;
    Ok(ChatModel { model, ..chat })
}

/// A policy for inference: `spec` (a model folder, `gguf:FILE` or an adapter folder, whose base
/// is its `base_model_name_or_path`) plus, optionally, the adapter in `adapter`.
pub fn load_policy(spec: &str, adapter: Option<&Path>, device: &Device) -> Result<ChatModel> {
    let expanded = expand_env(spec)?;
    if is_adapter(Path::new(&expanded)) {
        if adapter.is_some() {
            return Err(Error::Config(format!(
                "`{spec}` is already an adapter; pass its base model instead"
            )));
        }
        let (_, base) = lora::read_config(Path::new(&expanded))?;
        if base.is_empty() {
            return Err(Error::Config(format!(
                "`{spec}/adapter_config.json` has no `base_model_name_or_path`; name the base model and pass the adapter separately"
            )));
        }
        return load_adapted_frozen(&base, Path::new(&expanded), device);
    }
    match adapter {
        Some(a) => load_adapted_frozen(&expanded, a, device),
        None if expanded.starts_with("gguf:") => {
            let file = &expanded["gguf:".len()..];
            check_gguf_file(spec, file)?;
            crate::gguf::load(file, device)
        }
        None => Ok(load_base(&expanded, device)?.0),
    }
}

/// Checks that the files an export reads are there, naming the first one missing: the base
/// (`gguf:FILE`, or a folder with `config.json` and `model.safetensors` or a shard index; without
/// `tokenizer.json` the byte tokenizer is used, as everywhere) and the adapter (`adapter_config.json`, `adapter_model.safetensors`).
pub fn check_export_inputs(base: &str, adapter: Option<&Path>) -> Result<()> {
    let missing = |what: &str, path: &Path, hint: &str| {
        Err(Error::Config(format!("{what} `{}` is missing{hint}", path.display())))
    };
    let spec = expand_env(base)?;
    if let Some(file) = spec.strip_prefix("gguf:") {
        check_gguf_file(base, file)?;
    } else {
        let dir = Path::new(&spec);
        if is_adapter(dir) {
            return Err(Error::Config(format!(
                "`{spec}` is an adapter folder; pass its base model as the base and the folder as the adapter"
            )));
        }
        if !dir.join("config.json").is_file() {
            let hint = " (the base must be a Hugging Face model folder or `gguf:FILE`)";
            return missing("the base model's", &dir.join("config.json"), hint);
        }
        if !dir.join("model.safetensors").is_file() && !dir.join("model.safetensors.index.json").is_file() {
            return missing(
                "the base model's weights",
                &dir.join("model.safetensors"),
                " (nor a shard index)",
            );
        }
    }
    if let Some(a) = adapter {
        for file in ["adapter_config.json", "adapter_model.safetensors"] {
            if !a.join(file).is_file() {
                return missing("the adapter's", &a.join(file), " (expected a PEFT adapter folder)");
            }
        }
    }
    Ok(())
}

/// Merges the adapter in `adapter` into `base` and writes a full Hugging Face model folder
/// (weights, `config.json`, `tokenizer.json`, `tokenizer_config.json`) at `out`, atomically (a
/// temporary folder renamed into place); without an adapter, writes the base itself (e.g. a GGUF
/// file as a `transformers` folder). Inputs are checked first ([`check_export_inputs`]).
pub fn export(base: &str, adapter: Option<&Path>, out: &Path) -> Result<()> {
    check_export_inputs(base, adapter)?;
    let dev = Device::Cpu;
    let (chat, cfg) = match adapter {
        Some(a) => {
            let (chat, _, _) = load_adapted(base, a, &dev)?;
            let cfg = chat.model.cfg.clone();
            (ChatModel { model: lora::merge(&chat.model)?, ..chat }, cfg)
        }
        None => {
            let (chat, _, cfg) = load_base(base, &dev)?;
            (chat, cfg)
        }
    };
    let tensors = chat.model.named_tensors()?.into_iter().collect();
    let (_, varmap) = crate::checkpoint::from_tensors(&cfg, &tensors, base, &dev)?;
    crate::checkpoint::save_chat(out, &varmap, &cfg, &chat.tokenizer, &chat.template, &[])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_gguf_file_says_how_to_point_at_it() {
        let spec = "gguf:${GAUNTLET_TEST_NEVER_SET:-SmolLM2-135M-Instruct.Q4_1.gguf}";
        let e = load_policy(spec, None, &Device::Cpu).unwrap_err().to_string();
        assert!(e.contains("set `GAUNTLET_TEST_NEVER_SET` to the file's path"), "{e}");
        assert!(e.contains("~/.cache/gauntlet/smollm2/"), "{e}");
        let Err(e) = load_base("gguf:/no/such/model.gguf", &Device::Cpu) else {
            panic!("loaded a missing file")
        };
        let e = e.to_string();
        assert!(e.contains("`/no/such/model.gguf` does not exist; give `gguf:` the path"), "{e}");
        assert!(check_export_inputs(spec, None).unwrap_err().to_string().contains("GAUNTLET_TEST_NEVER_SET"));
    }
}
