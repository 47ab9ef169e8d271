//! Model configuration, read from and written to Hugging Face `config.json`.
//!
//! [`Config`] carries the fields the Llama and Qwen2 families share (`LlamaForCausalLM`,
//! `Qwen2ForCausalLM` in `transformers`); unknown fields are kept in [`Config::extra`] so a
//! pretrained `config.json` round-trips through a checkpoint unchanged.
//!
//! Derived sizes: `head_dim = hidden_size / num_attention_heads` unless `head_dim` is given;
//! query heads share key/value heads in groups of `num_attention_heads / num_key_value_heads`
//! (grouped-query attention; `num_key_value_heads` defaults to `num_attention_heads`).
//!
//! Biases: Qwen2 has biases on the q/k/v projections and none on `o_proj`; Llama and Qwen3 have
//! biases on all four attention projections only when `attention_bias` is true, and on the MLP
//! when `mlp_bias` is true. Qwen3 (`Qwen3ForCausalLM`) RMS-normalises every query and key head
//! before RoPE (`self_attn.q_norm.weight`, `self_attn.k_norm.weight`, `[head_dim]` each).
//!
//! ```
//! use gauntlet_model::Config;
//! let cfg = Config::tiny(260);
//! assert_eq!(cfg.head_dim(), 16);
//! let json = serde_json::to_string(&cfg).unwrap();
//! let back: Config = serde_json::from_str(&json).unwrap();
//! assert_eq!(back.hidden_size, cfg.hidden_size);
//! ```

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::{Error, Result};

fn default_eps() -> f64 {
    1e-6
}
fn default_theta() -> f64 {
    10_000.0
}
fn default_max_pos() -> usize {
    2048
}
fn default_model_type() -> String {
    "llama".to_string()
}
fn default_act() -> String {
    "silu".to_string()
}

/// How rotary embeddings pair up the dimensions of a head.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RopeStyle {
    /// Hugging Face layout: dimension `i` rotates with `i + head_dim/2` (`rotate_half`).
    #[default]
    Half,
    /// llama.cpp layout for GGUF Llama files: dimension `2i` rotates with `2i + 1`.
    Interleaved,
}

/// A Llama/Qwen2 decoder configuration with Hugging Face field names.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Config {
    /// `"llama"`, `"qwen2"` or `"qwen3"` (decides the biases and Qwen3's per-head q/k norms);
    /// default `"llama"`.
    #[serde(default = "default_model_type")]
    pub model_type: String,
    /// Number of token ids.
    pub vocab_size: usize,
    /// Width of the residual stream.
    pub hidden_size: usize,
    /// Width of the SwiGLU hidden layer.
    pub intermediate_size: usize,
    /// Number of decoder blocks.
    pub num_hidden_layers: usize,
    /// Number of query heads.
    pub num_attention_heads: usize,
    /// Number of key/value heads (grouped-query attention); default `num_attention_heads`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub num_key_value_heads: Option<usize>,
    /// Per-head width; default `hidden_size / num_attention_heads`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head_dim: Option<usize>,
    /// RMSNorm epsilon; default `1e-6`.
    #[serde(default = "default_eps")]
    pub rms_norm_eps: f64,
    /// RoPE base frequency θ; default `10000`.
    #[serde(default = "default_theta")]
    pub rope_theta: f64,
    /// Longest sequence the RoPE tables cover; default 2048.
    #[serde(default = "default_max_pos")]
    pub max_position_embeddings: usize,
    /// Whether `lm_head` reuses `model.embed_tokens.weight`; default false.
    #[serde(default)]
    pub tie_word_embeddings: bool,
    /// Llama: biases on q/k/v/o projections; default false.
    #[serde(default)]
    pub attention_bias: bool,
    /// Llama: biases on the MLP projections; default false.
    #[serde(default)]
    pub mlp_bias: bool,
    /// Activation; only `"silu"` is supported.
    #[serde(default = "default_act")]
    pub hidden_act: String,
    /// Every other field of `config.json` (`architectures`, token ids, `torch_dtype`, …), kept
    /// so that a checkpoint writes back what it read.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
    /// RoPE pairing; not part of `config.json` (GGUF Llama files use [`RopeStyle::Interleaved`]).
    #[serde(skip)]
    pub rope_style: RopeStyle,
}

impl Config {
    /// A tiny Llama for tests: hidden 64, 2 layers, 4 query heads, 2 key/value heads.
    pub fn tiny(vocab_size: usize) -> Self {
        Config::llama(vocab_size, 64, 2, 4, 2, 128)
    }

    /// A Llama config from the sizes that matter, with HF defaults for the rest.
    pub fn llama(
        vocab_size: usize,
        hidden_size: usize,
        num_hidden_layers: usize,
        num_attention_heads: usize,
        num_key_value_heads: usize,
        intermediate_size: usize,
    ) -> Self {
        let mut extra = serde_json::Map::new();
        extra.insert("architectures".into(), serde_json::json!(["LlamaForCausalLM"]));
        extra.insert("torch_dtype".into(), serde_json::json!("float32"));
        Config {
            model_type: "llama".into(),
            vocab_size,
            hidden_size,
            intermediate_size,
            num_hidden_layers,
            num_attention_heads,
            num_key_value_heads: Some(num_key_value_heads),
            head_dim: None,
            rms_norm_eps: 1e-5,
            rope_theta: 10_000.0,
            max_position_embeddings: 2048,
            tie_word_embeddings: false,
            attention_bias: false,
            mlp_bias: false,
            hidden_act: "silu".into(),
            extra,
            rope_style: RopeStyle::Half,
        }
    }

    /// Reads and validates `config.json`.
    pub fn from_file(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|e| Error::io("read", path, e))?;
        let mut cfg: Config =
            serde_json::from_str(&text).map_err(|source| Error::Json { path: path.into(), source })?;
        // transformers ≥ 5 writes `rope_parameters: {rope_theta, rope_type}` instead of `rope_theta`.
        if let Some(theta) =
            cfg.extra.get("rope_parameters").and_then(|r| r.get("rope_theta")).and_then(|t| t.as_f64())
        {
            cfg.rope_theta = theta;
        }
        cfg.validate()?;
        Ok(cfg)
    }

    /// Number of key/value heads.
    pub fn kv_heads(&self) -> usize {
        self.num_key_value_heads.unwrap_or(self.num_attention_heads)
    }

    /// Width of one attention head.
    pub fn head_dim(&self) -> usize {
        self.head_dim.unwrap_or(self.hidden_size / self.num_attention_heads.max(1))
    }

    /// Whether q/k/v projections carry a bias (Qwen2 always; Llama with `attention_bias`).
    pub fn qkv_bias(&self) -> bool {
        self.model_type == "qwen2" || self.attention_bias
    }

    /// Whether each query and key head is RMS-normalised before RoPE (Qwen3's `q_norm`/`k_norm`).
    pub fn qk_norm(&self) -> bool {
        self.model_type == "qwen3"
    }

    /// Whether `o_proj` carries a bias (Llama and Qwen3 with `attention_bias`; never Qwen2).
    pub fn o_bias(&self) -> bool {
        self.model_type != "qwen2" && self.attention_bias
    }

    /// Number of trainable parameters (tied embeddings counted once).
    pub fn num_parameters(&self) -> usize {
        let (h, i, d) = (self.hidden_size, self.intermediate_size, self.head_dim());
        let (q, kv) = (self.num_attention_heads * d, self.kv_heads() * d);
        let mut attn = h * q + 2 * h * kv + q * h;
        if self.qkv_bias() {
            attn += q + 2 * kv;
        }
        if self.o_bias() {
            attn += h;
        }
        if self.qk_norm() {
            attn += 2 * d;
        }
        let mut mlp = 3 * h * i;
        if self.mlp_bias {
            mlp += 2 * i + h;
        }
        let block = attn + mlp + 2 * h;
        let head = if self.tie_word_embeddings { 0 } else { self.vocab_size * h };
        self.vocab_size * h + self.num_hidden_layers * block + h + head
    }

    /// Checks sizes and unsupported options; the message names the bad field.
    pub fn validate(&self) -> Result<()> {
        let bad = |m: String| Err(Error::Config(m));
        if !matches!(self.model_type.as_str(), "llama" | "qwen2" | "qwen3" | "mistral") {
            return bad(format!(
                "`model_type` `{}` is not supported (use `llama`, `qwen2` or `qwen3`)",
                self.model_type
            ));
        }
        for (name, v) in [
            ("vocab_size", self.vocab_size),
            ("hidden_size", self.hidden_size),
            ("intermediate_size", self.intermediate_size),
            ("num_attention_heads", self.num_attention_heads),
            ("num_key_value_heads", self.kv_heads()),
        ] {
            if v == 0 {
                return bad(format!("`{name}` must be positive"));
            }
        }
        if !self.num_attention_heads.is_multiple_of(self.kv_heads()) {
            return bad(format!(
                "`num_attention_heads` {} is not a multiple of `num_key_value_heads` {}",
                self.num_attention_heads,
                self.kv_heads()
            ));
        }
        if self.head_dim.is_none() && !self.hidden_size.is_multiple_of(self.num_attention_heads) {
            return bad(format!(
                "`hidden_size` {} is not a multiple of `num_attention_heads` {}",
                self.hidden_size, self.num_attention_heads
            ));
        }
        if !self.head_dim().is_multiple_of(2) {
            return bad(format!("head_dim {} must be even for RoPE", self.head_dim()));
        }
        if self.hidden_act != "silu" {
            return bad(format!("`hidden_act` `{}` is not supported (only `silu`)", self.hidden_act));
        }
        if let Some(s) = self.extra.get("rope_scaling") {
            if !s.is_null() {
                return bad(format!("`rope_scaling` {s} is not supported"));
            }
        }
        if let Some(kind) = self.extra.get("rope_parameters").and_then(|r| r.get("rope_type")) {
            if kind != "default" {
                return bad(format!("`rope_parameters.rope_type` {kind} is not supported (only `default`)"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_qwen2_config_and_keeps_unknown_fields() {
        let json = r#"{"architectures":["Qwen2ForCausalLM"],"model_type":"qwen2","vocab_size":151936,
            "hidden_size":896,"intermediate_size":4864,"num_hidden_layers":24,"num_attention_heads":14,
            "num_key_value_heads":2,"rms_norm_eps":1e-6,"rope_theta":1000000.0,
            "max_position_embeddings":32768,"tie_word_embeddings":true,"bos_token_id":151643}"#;
        let cfg: Config = serde_json::from_str(json).unwrap();
        cfg.validate().unwrap();
        assert_eq!(cfg.head_dim(), 64);
        assert_eq!(cfg.kv_heads(), 2);
        assert!(cfg.qkv_bias() && !cfg.o_bias());
        // Qwen2-0.5B has 494M parameters.
        assert_eq!(cfg.num_parameters(), 494_032_768);
        let back = serde_json::to_value(&cfg).unwrap();
        assert_eq!(back["bos_token_id"], 151643);
        assert_eq!(back["architectures"][0], "Qwen2ForCausalLM");
    }

    #[test]
    fn qwen3_has_per_head_norms_and_no_qkv_bias() {
        // Qwen3-0.6B: 596M parameters with tied embeddings (0.44B without them).
        let json = r#"{"architectures":["Qwen3ForCausalLM"],"model_type":"qwen3","vocab_size":151936,
            "hidden_size":1024,"intermediate_size":3072,"num_hidden_layers":28,"num_attention_heads":16,
            "num_key_value_heads":8,"head_dim":128,"rms_norm_eps":1e-6,"rope_theta":1000000,
            "attention_bias":false,"tie_word_embeddings":true}"#;
        let cfg: Config = serde_json::from_str(json).unwrap();
        cfg.validate().unwrap();
        assert!(cfg.qk_norm() && !cfg.qkv_bias() && !cfg.o_bias());
        assert_eq!(cfg.num_parameters(), 596_049_920);
    }

    #[test]
    fn rejects_bad_head_grouping() {
        let mut cfg = Config::tiny(32);
        cfg.num_key_value_heads = Some(3);
        let err = cfg.validate().unwrap_err().to_string();
        assert!(err.contains("num_key_value_heads"), "{err}");
    }
}
