//! Batched, seeded sampling with a KV cache.
//!
//! [`generate`] left-pads the prompts to a common length, runs them through the model once
//! (prefill, filling the [`KvCache`]), then decodes one token per row per step. For each row the
//! next token is drawn from the logits `z` of its last position:
//!
//! ```text
//! temperature T = 0:  y = argmax z
//! T > 0:              p = softmax(z / T); keep the top_k largest (top_k > 0), then the smallest
//!                     prefix of the sorted rest whose mass reaches top_p (top_p < 1); renormalise;
//!                     draw y with one uniform number from the row's ChaCha8 stream
//! ```
//!
//! The behaviour log-prob returned with each token is `log softmax(z / T)[y]` over the whole
//! vocabulary (`T = 1` when greedy): the log-prob the trainer recomputes from the same logits, so
//! importance ratios start at exactly 1 for an unchanged policy (top-k/top-p truncation is not
//! reflected, as in vLLM and verl).
//!
//! A row stops at `max_tokens`, at a token of `stop_token_ids` (kept in `tokens`), or when its
//! decoded text contains a stop string (text cut before it; tokens up to the one completing it).
//! Row `r` draws from the stream seeded by `(seed, r)`, so a row's output depends on its prompt,
//! the seed and its index only, not on the other rows.

use candle_core::Tensor;
use gauntlet_core::{rng::splitmix64, Rng};

use crate::{ChatMessage, ChatTemplate, Error, KvCache, Llama, Result, Tokenizer};

/// Sampling knobs (vLLM/OpenAI names and meanings).
#[derive(Debug, Clone, PartialEq)]
pub struct SamplingParams {
    /// Softmax temperature; 0 = greedy. Default 1.
    pub temperature: f64,
    /// Nucleus mass in `(0, 1]`; 1 = off. Default 1.
    pub top_p: f64,
    /// Keep only the `top_k` most likely tokens; 0 = off. Default 0.
    pub top_k: usize,
    /// Most new tokens per row. Default 256.
    pub max_tokens: usize,
    /// Stop strings (not included in the returned text).
    pub stop: Vec<String>,
    /// Stop token ids (EOS; included in the returned tokens).
    pub stop_token_ids: Vec<u32>,
    /// Seed of the row streams. Default 0.
    pub seed: u64,
}

impl Default for SamplingParams {
    fn default() -> Self {
        SamplingParams {
            temperature: 1.0,
            top_p: 1.0,
            top_k: 0,
            max_tokens: 256,
            stop: Vec::new(),
            stop_token_ids: Vec::new(),
            seed: 0,
        }
    }
}

/// Why a row stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FinishReason {
    /// A stop token or stop string.
    Stop,
    /// `max_tokens` reached.
    Length,
}

/// One row's result.
#[derive(Debug, Clone, PartialEq)]
pub struct Completion {
    /// Sampled token ids.
    pub tokens: Vec<u32>,
    /// Behaviour log-prob of each sampled token (see the module doc).
    pub logprobs: Vec<f32>,
    /// Decoded text (special tokens skipped, cut before a stop string).
    pub text: String,
    /// Why it stopped.
    pub finish_reason: FinishReason,
}

/// Samples one token from logits `z`; returns the token and its behaviour log-prob.
pub fn sample_token(z: &[f32], p: &SamplingParams, rng: &mut Rng) -> (u32, f32) {
    let t = if p.temperature > 0.0 { p.temperature as f32 } else { 1.0 };
    let mx = z.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let lse = mx / t + z.iter().map(|v| ((v - mx) / t).exp()).sum::<f32>().ln();
    let logprob = |i: usize| z[i] / t - lse;
    if p.temperature <= 0.0 {
        let best = z.iter().enumerate().fold(0, |b, (i, v)| if *v > z[b] { i } else { b });
        return (best as u32, logprob(best));
    }
    let mut idx: Vec<usize> = (0..z.len()).collect();
    let by_logit = |a: &usize, b: &usize| z[*b].total_cmp(&z[*a]);
    if p.top_k > 0 && p.top_k < idx.len() {
        idx.select_nth_unstable_by(p.top_k - 1, by_logit);
        idx.truncate(p.top_k);
    }
    if p.top_p < 1.0 {
        idx.sort_unstable_by(by_logit);
        let total: f32 = idx.iter().map(|&i| logprob(i).exp()).sum();
        let mut acc = 0.0;
        let mut keep = idx.len();
        for (n, &i) in idx.iter().enumerate() {
            acc += logprob(i).exp() / total;
            if acc >= p.top_p as f32 {
                keep = n + 1;
                break;
            }
        }
        idx.truncate(keep);
    }
    let weights: Vec<f32> = idx.iter().map(|&i| logprob(i).exp()).collect();
    let total: f32 = weights.iter().sum();
    let mut u = rng.unit() as f32 * total;
    for (&i, w) in idx.iter().zip(&weights) {
        u -= w;
        if u < 0.0 {
            return (i as u32, logprob(i));
        }
    }
    let last = *idx.last().expect("at least one candidate");
    (last as u32, logprob(last))
}

fn check(params: &SamplingParams, prompts: &[Vec<u32>], model: &Llama) -> Result<()> {
    if !(params.top_p > 0.0 && params.top_p <= 1.0) {
        return Err(Error::Sampling(format!("`top_p` {} must be in (0, 1]", params.top_p)));
    }
    if params.temperature < 0.0 || !params.temperature.is_finite() {
        return Err(Error::Sampling(format!("`temperature` {} must be ≥ 0", params.temperature)));
    }
    if let Some(i) = prompts.iter().position(|p| p.is_empty()) {
        return Err(Error::Sampling(format!("prompt {i} is empty")));
    }
    let longest = prompts.iter().map(Vec::len).max().unwrap_or(0);
    if longest + params.max_tokens > model.rope.max_positions() {
        return Err(Error::Sampling(format!(
            "prompt of {longest} tokens + `max_tokens` {} exceeds the model's {} positions",
            params.max_tokens,
            model.rope.max_positions()
        )));
    }
    let v = model.cfg.vocab_size as u32;
    if let Some(bad) = prompts.iter().flatten().find(|&&t| t >= v) {
        return Err(Error::Sampling(format!("prompt token {bad} is outside the vocabulary of {v}")));
    }
    Ok(())
}

/// Samples a completion for each prompt (token ids), as one batch; see the module doc.
pub fn generate(
    model: &Llama,
    tokenizer: &Tokenizer,
    prompts: &[Vec<u32>],
    params: &SamplingParams,
) -> Result<Vec<Completion>> {
    let seeds: Vec<u64> =
        (0..prompts.len()).map(|r| splitmix64(params.seed) ^ splitmix64(r as u64 + 1)).collect();
    generate_seeded(model, tokenizer, prompts, &seeds, params)
}

/// [`generate`] with one stream seed per row (`params.seed` is ignored): a row's output then
/// depends on its prompt and its seed only, whatever batch it is sampled in.
pub fn generate_seeded(
    model: &Llama,
    tokenizer: &Tokenizer,
    prompts: &[Vec<u32>],
    seeds: &[u64],
    params: &SamplingParams,
) -> Result<Vec<Completion>> {
    check(params, prompts, model)?;
    if seeds.len() != prompts.len() {
        return Err(Error::Sampling(format!("{} seeds for {} prompts", seeds.len(), prompts.len())));
    }
    let b = prompts.len();
    if b == 0 {
        return Ok(Vec::new());
    }
    let dev = model.device();
    let longest = prompts.iter().map(Vec::len).max().unwrap_or(0);
    let mut ids = vec![0u32; b * longest];
    let mut valid = vec![0u8; b * longest];
    for (r, p) in prompts.iter().enumerate() {
        let pad = longest - p.len();
        ids[r * longest + pad..][..p.len()].copy_from_slice(p);
        valid[r * longest + pad..][..p.len()].fill(1);
    }
    let mut rngs: Vec<Rng> = seeds.iter().map(|&s| Rng::new(s)).collect();
    let mut out: Vec<Completion> = (0..b)
        .map(|_| Completion {
            tokens: vec![],
            logprobs: vec![],
            text: String::new(),
            finish_reason: FinishReason::Length,
        })
        .collect();
    let mut active = vec![params.max_tokens > 0; b];
    let mut cache = KvCache::new(model.layers.len(), b);
    let mut logits =
        model.forward_cached(&Tensor::from_vec(ids, (b, longest), dev)?, Some(&valid), &mut cache, true)?;
    let max_stop = params.stop.iter().map(String::len).max().unwrap_or(0);
    while active.iter().any(|&a| a) {
        let rows: Vec<Vec<Vec<f32>>> = logits.to_dtype(candle_core::DType::F32)?.to_vec3()?;
        let mut next = vec![0u32; b];
        let mut step_valid = vec![0u8; b];
        for r in 0..b {
            let c = &mut out[r];
            next[r] = c.tokens.last().copied().unwrap_or(0);
            if !active[r] {
                continue;
            }
            let (tok, lp) = sample_token(&rows[r][0], params, &mut rngs[r]);
            c.tokens.push(tok);
            c.logprobs.push(lp);
            next[r] = tok;
            step_valid[r] = 1;
            if params.stop_token_ids.contains(&tok) {
                c.finish_reason = FinishReason::Stop;
                active[r] = false;
            } else if max_stop > 0 {
                let text = tokenizer.decode(&c.tokens, true)?;
                if params.stop.iter().any(|s| text.contains(s.as_str())) {
                    c.finish_reason = FinishReason::Stop;
                    active[r] = false;
                }
            }
            if c.tokens.len() >= params.max_tokens {
                active[r] = false;
            }
        }
        if !active.iter().any(|&a| a) {
            break;
        }
        let ids = Tensor::from_vec(next, (b, 1), dev)?;
        logits = model.forward_cached(&ids, Some(&step_valid), &mut cache, true)?;
    }
    for c in &mut out {
        let mut text = tokenizer.decode(&c.tokens, true)?;
        if let Some(cut) = params.stop.iter().filter_map(|s| text.find(s.as_str())).min() {
            text.truncate(cut);
        }
        c.text = text;
    }
    Ok(out)
}

/// A model with its tokenizer and chat template: conversations in, completions out.
#[derive(Debug, Clone)]
pub struct ChatModel {
    /// The decoder.
    pub model: Llama,
    /// Its tokenizer.
    pub tokenizer: Tokenizer,
    /// Its chat template.
    pub template: ChatTemplate,
}

impl ChatModel {
    /// The template's EOS token id, if the tokenizer knows it.
    pub fn eos_token_id(&self) -> Option<u32> {
        self.tokenizer.token_id(self.template.eos_token())
    }

    /// Renders each conversation with the generation prompt, encodes it and samples a reply.
    /// The template's EOS token is added to `params.stop_token_ids`.
    pub fn chat(
        &self,
        conversations: &[Vec<ChatMessage>],
        params: &SamplingParams,
    ) -> Result<Vec<Completion>> {
        let mut prompts = Vec::with_capacity(conversations.len());
        for c in conversations {
            prompts.push(self.tokenizer.encode(&self.template.render(c, true)?)?);
        }
        let mut p = params.clone();
        p.stop_token_ids.extend(self.eos_token_id());
        generate(&self.model, &self.tokenizer, &prompts, &p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn greedy_takes_the_argmax_and_reports_its_logprob() {
        let z = [0.0f32, 2.0, 1.0];
        let p = SamplingParams { temperature: 0.0, ..Default::default() };
        let (t, lp) = sample_token(&z, &p, &mut Rng::new(1));
        assert_eq!(t, 1);
        let lse = (1.0f32 + 2f32.exp() + 1f32.exp()).ln();
        assert!((lp - (2.0 - lse)).abs() < 1e-6);
    }

    #[test]
    fn top_k_and_top_p_restrict_the_candidates() {
        let z = [5.0f32, 4.0, 0.0, -1.0, 3.9];
        let mut rng = Rng::new(3);
        let k2 = SamplingParams { top_k: 2, ..Default::default() };
        let p_small = SamplingParams { top_p: 0.5, ..Default::default() };
        for _ in 0..200 {
            assert!(sample_token(&z, &k2, &mut rng).0 <= 1);
            assert_eq!(sample_token(&z, &p_small, &mut rng).0, 0);
        }
    }

    #[test]
    fn sampling_frequencies_follow_the_softmax() {
        let z = [0.0f32, 1.0, 2.0];
        let mut rng = Rng::new(9);
        let p = SamplingParams::default();
        let mut counts = [0usize; 3];
        for _ in 0..20_000 {
            counts[sample_token(&z, &p, &mut rng).0 as usize] += 1;
        }
        let total: f32 = z.iter().map(|v| v.exp()).sum();
        for i in 0..3 {
            let want = z[i].exp() / total;
            let got = counts[i] as f32 / 20_000.0;
            assert!((want - got).abs() < 0.015, "{i}: {got} vs {want}");
        }
    }

    fn setup() -> (Llama, Tokenizer) {
        let (model, _) =
            crate::checkpoint::new_model(&crate::Config::tiny(260), &candle_core::Device::Cpu, 1).unwrap();
        (model, Tokenizer::bytes())
    }

    #[test]
    fn generation_is_seeded_batch_independent_and_logprobs_match_the_model() {
        let (model, tok) = setup();
        let prompts = vec![tok.encode("a").unwrap(), tok.encode("hello").unwrap()];
        let p = SamplingParams { max_tokens: 6, seed: 5, ..Default::default() };
        let both = generate(&model, &tok, &prompts, &p).unwrap();
        assert_eq!(both, generate(&model, &tok, &prompts, &p).unwrap());
        let alone = generate(&model, &tok, &prompts[..1], &p).unwrap();
        assert_eq!(alone[0].tokens, both[0].tokens);
        assert_eq!(both[0].tokens.len(), 6);
        assert_eq!(both[0].finish_reason, FinishReason::Length);
        let other_seed = SamplingParams { seed: 6, ..p.clone() };
        assert_ne!(generate(&model, &tok, &prompts, &other_seed).unwrap()[1].tokens, both[1].tokens);
        // Behaviour log-probs equal the log-probs of a full forward over prompt + completion.
        let full: Vec<u32> = prompts[0].iter().chain(&both[0].tokens).copied().collect();
        let ids = Tensor::new(full.as_slice(), model.device()).unwrap().unsqueeze(0).unwrap();
        let logits = model.forward(&ids, None).unwrap();
        let (z, y) = crate::logprobs::shift_for_next_token(&logits, &ids).unwrap();
        let lp: Vec<f32> =
            crate::logprobs::token_logprobs(&z, &y).unwrap().squeeze(0).unwrap().to_vec1().unwrap();
        for (i, want) in lp[prompts[0].len() - 1..].iter().enumerate() {
            assert!(
                (want - both[0].logprobs[i]).abs() < 1e-4,
                "token {i}: {want} vs {}",
                both[0].logprobs[i]
            );
        }
    }

    #[test]
    fn stop_tokens_and_stop_strings_end_a_row() {
        let (model, tok) = setup();
        let prompts = vec![tok.encode("<|im_start|>").unwrap()];
        let greedy = SamplingParams { temperature: 0.0, max_tokens: 12, ..Default::default() };
        let free = &generate(&model, &tok, &prompts, &greedy).unwrap()[0];
        let stop_id = free.tokens[3];
        let first = free.tokens.iter().position(|&t| t == stop_id).unwrap();
        let p = SamplingParams { stop_token_ids: vec![stop_id], ..greedy.clone() };
        let c = &generate(&model, &tok, &prompts, &p).unwrap()[0];
        assert_eq!(c.tokens, free.tokens[..=first]);
        assert_eq!(c.finish_reason, FinishReason::Stop);
        let chars: Vec<char> = free.text.chars().collect();
        let stop: String = chars[chars.len() / 2..][..2.min(chars.len() - chars.len() / 2)].iter().collect();
        let p = SamplingParams { stop: vec![stop.clone()], ..greedy };
        let c = &generate(&model, &tok, &prompts, &p).unwrap()[0];
        assert_eq!(c.finish_reason, FinishReason::Stop);
        assert!(!c.text.contains(&stop) && free.text.starts_with(&c.text), "{:?} vs {:?}", c.text, free.text);
    }
}
