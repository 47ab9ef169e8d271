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
//!
//! [`generate_seeded`] takes one seed per row instead, and [`generate_rows`] one seed *and* one
//! set of knobs per row, reporting each token as it is drawn (with its most likely alternatives
//! and the text it makes final) and each row as it finishes: what an OpenAI-compatible server
//! needs to batch unrelated requests together and stream them. All three share one decoding
//! loop, so a row gives the same tokens whichever of them samples it and whatever shares its
//! batch.
//!
//! ```
//! use gauntlet_model::{checkpoint, generate_rows, Config, Row, RowEvent, SamplingParams, Tokenizer};
//! let (model, _) = checkpoint::new_model(&Config::tiny(260), &candle_core::Device::Cpu, 1).unwrap();
//! let tok = Tokenizer::bytes();
//! let (greedy, hot) = (
//!     SamplingParams { temperature: 0.0, max_tokens: 4, ..Default::default() },
//!     SamplingParams { temperature: 1.0, max_tokens: 6, ..Default::default() },
//! );
//! let prompt = tok.encode("hi").unwrap();
//! let rows = [
//!     Row { prompt: &prompt, seed: 1, params: &greedy, top_logprobs: 2, stream_text: true },
//!     Row { prompt: &prompt, seed: 2, params: &hot, top_logprobs: 0, stream_text: false },
//! ];
//! let mut streamed = String::new();
//! let mut on_event = |e: RowEvent<'_>| {
//!     if let RowEvent::Token { row: 0, text, top, .. } = e {
//!         assert_eq!(top.len(), 2);
//!         streamed.push_str(text);
//!     }
//!     true
//! };
//! let out = generate_rows(&model, &tok, &rows, Some(&mut on_event)).unwrap();
//! assert_eq!((out[0].tokens.len(), out[1].tokens.len()), (4, 6));
//! assert_eq!(streamed, out[0].text);
//! ```

use crate::fused::exp::{exp, exp_in_place};
use candle_core::Tensor;
use gauntlet_core::{rng::splitmix64, Rng};

use crate::{ChatMessage, ChatTemplate, Error, KvCache, Llama, PrefixStore, Result, Tokenizer};

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
    let mut e: Vec<f32> = z.iter().map(|v| (v - mx) / t).collect();
    let lse = mx / t + exp_in_place(&mut e).ln();
    let logprob = |i: usize| z[i] / t - lse;
    if p.temperature <= 0.0 {
        let best = z.iter().enumerate().fold(0, |b, (i, v)| if *v > z[b] { i } else { b });
        return (best as u32, logprob(best));
    }
    if !(p.top_k > 0 && p.top_k < z.len()) && p.top_p >= 1.0 {
        return sample_full(z, t, lse, rng);
    }
    let mut idx: Vec<usize> = (0..z.len()).collect();
    let by_logit = |a: &usize, b: &usize| z[*b].total_cmp(&z[*a]);
    if p.top_k > 0 && p.top_k < idx.len() {
        idx.select_nth_unstable_by(p.top_k - 1, by_logit);
        idx.truncate(p.top_k);
    }
    if p.top_p < 1.0 {
        idx.sort_unstable_by(by_logit);
        let total: f32 = idx.iter().map(|&i| exp(logprob(i))).sum();
        let mut acc = 0.0;
        let mut keep = idx.len();
        for (n, &i) in idx.iter().enumerate() {
            acc += exp(logprob(i)) / total;
            if acc >= p.top_p as f32 {
                keep = n + 1;
                break;
            }
        }
        idx.truncate(keep);
    }
    let weights: Vec<f32> = idx.iter().map(|&i| exp(logprob(i))).collect();
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

/// [`sample_token`] over the whole vocabulary (no top-k, no top-p): the same draw and the same
/// numbers, without the candidate list.
fn sample_full(z: &[f32], t: f32, lse: f32, rng: &mut Rng) -> (u32, f32) {
    let mut weights: Vec<f32> = z.iter().map(|v| v / t - lse).collect();
    let total = exp_in_place(&mut weights);
    let mut u = rng.unit() as f32 * total;
    let i = weights.iter().position(|w| {
        u -= w;
        u < 0.0
    });
    let i = i.unwrap_or(z.len() - 1);
    (i as u32, z[i] / t - lse)
}

fn check_row(params: &SamplingParams, prompt: &[u32], model: &Llama, row: Option<usize>) -> Result<()> {
    let at = |msg: String| match row {
        Some(r) => Error::Sampling(format!("row {r}: {msg}")),
        None => Error::Sampling(msg),
    };
    if !(params.top_p > 0.0 && params.top_p <= 1.0) {
        return Err(at(format!("`top_p` {} must be in (0, 1]", params.top_p)));
    }
    if params.temperature < 0.0 || !params.temperature.is_finite() {
        return Err(at(format!("`temperature` {} must be ≥ 0", params.temperature)));
    }
    let v = model.cfg.vocab_size as u32;
    if let Some(bad) = prompt.iter().find(|&&t| t >= v) {
        return Err(at(format!("prompt token {bad} is outside the vocabulary of {v}")));
    }
    Ok(())
}

fn check(params: &SamplingParams, prompts: &[Vec<u32>], model: &Llama) -> Result<()> {
    check_row(params, &[], model, None)?;
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
    for p in prompts {
        check_row(params, p, model, None)?;
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
    let rows: Vec<Row<'_>> = prompts
        .iter()
        .zip(seeds)
        .map(|(p, &seed)| Row { prompt: p, seed, params, top_logprobs: 0, stream_text: false })
        .collect();
    generate_rows(model, tokenizer, &rows, None)
}

/// One row of [`generate_rows`]: a prompt with its own seed and sampling knobs.
#[derive(Debug, Clone, Copy)]
pub struct Row<'a> {
    /// Prompt token ids (not empty).
    pub prompt: &'a [u32],
    /// Seed of the row's sampling stream (`params.seed` is ignored).
    pub seed: u64,
    /// The row's sampling knobs.
    pub params: &'a SamplingParams,
    /// How many most likely alternatives to report with each token ([`RowEvent::Token::top`]);
    /// 0 = none.
    pub top_logprobs: usize,
    /// Whether to report the text each token adds ([`RowEvent::Token::text`]), for streaming.
    pub stream_text: bool,
}

/// What [`generate_rows`] reports to its callback, as soon as it happens.
#[derive(Debug)]
pub enum RowEvent<'a> {
    /// Row `row` sampled `token`.
    Token {
        /// Index of the row in the batch.
        row: usize,
        /// The sampled id.
        token: u32,
        /// Its behaviour log-prob (see the module doc).
        logprob: f32,
        /// The row's `top_logprobs` most likely ids at this step with their log-probs under the
        /// same distribution, most likely first (ties to the smaller id).
        top: &'a [(u32, f32)],
        /// Text this token makes final, when the row asked for `stream_text` (else empty): the
        /// decoded text grows by it, minus a trailing incomplete UTF-8 character and minus any
        /// tail that could still become a stop string; those come with a later token. The
        /// pieces of a row add up to its [`Completion::text`].
        text: &'a str,
    },
    /// Row `row` finished (stop token, stop string or its `max_tokens`).
    Done {
        /// Index of the row in the batch.
        row: usize,
        /// Its completion, the same as the row's entry in the returned vector.
        completion: &'a Completion,
    },
}

/// Per-row state of the text stream: what has been reported so far.
#[derive(Default)]
struct TextStream {
    sent: String,
}

impl TextStream {
    /// The new final text given the row's decoded text so far (`done`: the row's final text).
    fn advance(&mut self, text: &str, stops: &[String], done: bool) -> String {
        let mut safe = text;
        if !done {
            safe = safe.trim_end_matches('\u{FFFD}');
            // Hold back the longest tail that is a proper prefix of a stop string.
            let hold = stops
                .iter()
                .flat_map(|s| (1..s.len()).filter(|&n| s.is_char_boundary(n)).map(move |n| &s[..n]))
                .filter(|p| safe.ends_with(*p))
                .map(str::len)
                .max()
                .unwrap_or(0);
            safe = &safe[..safe.len() - hold];
        }
        match safe.strip_prefix(self.sent.as_str()) {
            Some(new) if !new.is_empty() => {
                let new = new.to_string();
                self.sent.push_str(&new);
                new
            }
            _ => String::new(),
        }
    }
}

/// The `k` most likely ids of logits `z` under temperature `t` (1 when greedy), with their
/// log-probs, most likely first, ties to the smaller id.
fn top_logprobs(z: &[f32], temperature: f64, k: usize) -> Vec<(u32, f32)> {
    if k == 0 {
        return Vec::new();
    }
    let t = if temperature > 0.0 { temperature as f32 } else { 1.0 };
    let mx = z.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut e: Vec<f32> = z.iter().map(|v| (v - mx) / t).collect();
    let lse = mx / t + exp_in_place(&mut e).ln();
    let mut idx: Vec<usize> = (0..z.len()).collect();
    let order = |a: &usize, b: &usize| z[*b].total_cmp(&z[*a]).then(a.cmp(b));
    let k = k.min(idx.len());
    if k < idx.len() {
        idx.select_nth_unstable_by(k - 1, order);
        idx.truncate(k);
    }
    idx.sort_unstable_by(order);
    idx.into_iter().map(|i| (i as u32, z[i] / t - lse)).collect()
}

/// Samples a batch of rows that each have their own prompt, seed and sampling knobs, reporting
/// every token and every finished row to `on_event` as it happens (for streaming servers).
///
/// Each row follows exactly the rules of [`generate_seeded`] with its own `params`: the returned
/// completions are the ones `generate_seeded` would give each row alone with the same seed. The
/// batch runs until its last row finishes; a finished row is reported at once
/// ([`RowEvent::Done`]). When `on_event` returns `false` for a row's event, the row is cancelled
/// (nothing more is reported for it; its returned completion is cut where it stopped, with
/// finish reason `Length`).
pub fn generate_rows(
    model: &Llama,
    tokenizer: &Tokenizer,
    rows: &[Row<'_>],
    on_event: Option<&mut dyn FnMut(RowEvent<'_>) -> bool>,
) -> Result<Vec<Completion>> {
    generate_rows_reusing(model, tokenizer, rows, on_event, None)
}

/// [`generate_rows`] that, given a [`PrefixStore`], starts each row from the stored keys and
/// values sharing the longest prefix with its prompt, prefills only the rest, and leaves every
/// row's keys and values (prompt and sampled tokens) in the store for the next call: a
/// multi-turn episode's next prompt then costs only its new tokens. The store must hold keys
/// computed by these same weights.
pub fn generate_rows_reusing(
    model: &Llama,
    tokenizer: &Tokenizer,
    rows: &[Row<'_>],
    mut on_event: Option<&mut dyn FnMut(RowEvent<'_>) -> bool>,
    mut store: Option<&mut PrefixStore>,
) -> Result<Vec<Completion>> {
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    check_rows(model, rows)?;
    let dev = model.device();
    let (mut cache, cached) = start_cache(model, rows, store.as_deref_mut())?;
    let mut logits = prefill(model, rows, &cached, &mut cache)?;
    let mut d = Decoding::new(rows, store.is_some());
    report_finished(&d.out, &d.active, &mut d.reported, &mut on_event);
    while d.any_active() {
        let z: Vec<Vec<Vec<f32>>> = logits.to_dtype(candle_core::DType::F32)?.to_vec3()?;
        let (next, sampled) = d.sample_step(&z, rows, tokenizer, &mut on_event)?;
        report_finished(&d.out, &d.active, &mut d.reported, &mut on_event);
        if !d.any_active() {
            break;
        }
        d.compact(&mut cache, store.as_deref_mut())?;
        if !d.fed.is_empty() {
            for &r in d.live.iter().filter(|&&r| sampled[r] != 0) {
                d.fed[r].push(next[r]);
            }
        }
        let ids = Tensor::from_vec(d.live.iter().map(|&r| next[r]).collect(), (d.live.len(), 1), dev)?;
        let step_valid: Vec<u8> = d.live.iter().map(|&r| sampled[r]).collect();
        logits = model.forward_cached(&ids, Some(&step_valid), &mut cache, true)?;
    }
    if let Some(store) = store {
        for &r in &d.live {
            store.insert(std::mem::take(&mut d.fed[r]), cache.row_real(d.slot[r])?);
        }
    }
    Ok(d.out)
}

/// Every row has a prompt, valid knobs, and room for its `max_tokens` in the model's positions.
fn check_rows(model: &Llama, rows: &[Row<'_>]) -> Result<()> {
    for (r, row) in rows.iter().enumerate() {
        if row.prompt.is_empty() {
            return Err(Error::Sampling(format!("prompt {r} is empty")));
        }
        check_row(row.params, row.prompt, model, Some(r))?;
        if row.prompt.len() + row.params.max_tokens > model.rope.max_positions() {
            return Err(Error::Sampling(format!(
                "row {r}: prompt of {} tokens + `max_tokens` {} exceeds the model's {} positions",
                row.prompt.len(),
                row.params.max_tokens,
                model.rope.max_positions()
            )));
        }
    }
    Ok(())
}

/// Feeds each row's prompt past its first `cached[r]` tokens (left-padded to the longest) into
/// `cache`, giving the logits `[rows, 1, vocab]` of every row's last prompt position.
fn prefill(model: &Llama, rows: &[Row<'_>], cached: &[usize], cache: &mut KvCache) -> Result<Tensor> {
    let b = rows.len();
    let longest = rows.iter().zip(cached).map(|(r, &c)| r.prompt.len() - c).max().unwrap_or(0);
    let mut ids = vec![0u32; b * longest];
    let mut valid = vec![0u8; b * longest];
    for (r, row) in rows.iter().enumerate() {
        let p = &row.prompt[cached[r]..];
        let pad = longest - p.len();
        ids[r * longest + pad..][..p.len()].copy_from_slice(p);
        valid[r * longest + pad..][..p.len()].fill(1);
    }
    let ids = Tensor::from_vec(ids, (b, longest), model.device())?;
    model.forward_cached(&ids, Some(&valid), cache, true)
}

/// The per-row state of a batch being decoded by [`generate_rows_reusing`].
struct Decoding {
    out: Vec<Completion>,
    rngs: Vec<Rng>,
    streams: Vec<TextStream>,
    active: Vec<bool>,
    reported: Vec<bool>,
    /// What each row's cache holds, for the store: its prompt, then every token fed back
    /// (empty without a store).
    fed: Vec<Vec<u32>>,
    /// The rows the cache holds, in its batch order, and each row's index there.
    live: Vec<usize>,
    slot: Vec<usize>,
}

impl Decoding {
    fn new(rows: &[Row<'_>], with_store: bool) -> Self {
        let b = rows.len();
        let empty = || Completion {
            tokens: vec![],
            logprobs: vec![],
            text: String::new(),
            finish_reason: FinishReason::Length,
        };
        Decoding {
            out: (0..b).map(|_| empty()).collect(),
            rngs: rows.iter().map(|r| Rng::new(r.seed)).collect(),
            streams: (0..b).map(|_| TextStream::default()).collect(),
            active: rows.iter().map(|r| r.params.max_tokens > 0).collect(),
            reported: vec![false; b],
            fed: if with_store { rows.iter().map(|r| r.prompt.to_vec()).collect() } else { vec![] },
            live: (0..b).collect(),
            slot: (0..b).collect(),
        }
    }

    fn any_active(&self) -> bool {
        self.active.iter().any(|&a| a)
    }

    /// Samples a token for every active row from its logits (`z[slot]`), and returns each row's
    /// next input (its last token) and whether it sampled one this step.
    fn sample_step(
        &mut self,
        z: &[Vec<Vec<f32>>],
        rows: &[Row<'_>],
        tokenizer: &Tokenizer,
        on_event: &mut Option<&mut dyn FnMut(RowEvent<'_>) -> bool>,
    ) -> Result<(Vec<u32>, Vec<u8>)> {
        use rayon::prelude::*;
        let b = rows.len();
        // The draws in parallel (each row has its own generator), the bookkeeping in order.
        let (active, slot) = (&self.active, &self.slot);
        let draws: Vec<Option<(u32, f32)>> = (self.rngs.par_iter_mut().enumerate())
            .map(|(r, rng)| active[r].then(|| sample_token(&z[slot[r]][0], rows[r].params, rng)))
            .collect();
        let (mut next, mut sampled) = (vec![0u32; b], vec![0u8; b]);
        for (r, draw) in draws.into_iter().enumerate() {
            next[r] = self.out[r].tokens.last().copied().unwrap_or(0);
            if let Some(draw) = draw {
                self.take_token(r, draw, &z[self.slot[r]][0], &rows[r], tokenizer, on_event)?;
                (next[r], sampled[r]) = (draw.0, 1);
            }
        }
        Ok((next, sampled))
    }

    /// Appends row `r`'s sampled token and its log-prob, applies its stop rules and reports the
    /// token (a `false` from `on_event` cancels the row); `z` are the logits it was drawn from.
    fn take_token(
        &mut self,
        r: usize,
        (tok, lp): (u32, f32),
        z: &[f32],
        row: &Row<'_>,
        tokenizer: &Tokenizer,
        on_event: &mut Option<&mut dyn FnMut(RowEvent<'_>) -> bool>,
    ) -> Result<()> {
        let params = row.params;
        let c = &mut self.out[r];
        c.tokens.push(tok);
        c.logprobs.push(lp);
        let mut decoded = None;
        if params.stop_token_ids.contains(&tok) {
            c.finish_reason = FinishReason::Stop;
            self.active[r] = false;
        } else if params.stop.iter().any(|s| !s.is_empty()) {
            let text = tokenizer.decode(&c.tokens, true)?;
            if params.stop.iter().any(|s| !s.is_empty() && text.contains(s.as_str())) {
                c.finish_reason = FinishReason::Stop;
                self.active[r] = false;
            }
            decoded = Some(text);
        }
        if c.tokens.len() >= params.max_tokens {
            self.active[r] = false;
        }
        if !self.active[r] {
            finish_text(c, tokenizer, &params.stop)?;
        }
        let Some(f) = on_event.as_deref_mut() else { return Ok(()) };
        let top = top_logprobs(z, params.temperature, row.top_logprobs);
        let text = if row.stream_text {
            let full = match (self.active[r], decoded) {
                (false, _) => c.text.clone(),
                (true, Some(t)) => t,
                (true, None) => tokenizer.decode(&c.tokens, true)?,
            };
            self.streams[r].advance(&full, &params.stop, !self.active[r])
        } else {
            String::new()
        };
        if !f(RowEvent::Token { row: r, token: tok, logprob: lp, top: &top, text: &text }) {
            // Cancelled: stop the row without reporting it again.
            if self.active[r] {
                self.active[r] = false;
                finish_text(c, tokenizer, &params.stop)?;
            }
            self.reported[r] = true;
        }
        Ok(())
    }

    /// Once half the batch has finished, the finished rows leave the cache (into the store first).
    fn compact(&mut self, cache: &mut KvCache, store: Option<&mut PrefixStore>) -> Result<()> {
        let keep: Vec<usize> = self.live.iter().copied().filter(|&r| self.active[r]).collect();
        if keep.len() * 2 > self.live.len() {
            return Ok(());
        }
        if let Some(store) = store {
            for &r in self.live.iter().filter(|&&r| !self.active[r]) {
                store.insert(std::mem::take(&mut self.fed[r]), cache.row_real(self.slot[r])?);
            }
        }
        cache.select_rows(&keep.iter().map(|&r| self.slot[r]).collect::<Vec<_>>())?;
        for (i, &r) in keep.iter().enumerate() {
            self.slot[r] = i;
        }
        self.live = keep;
        Ok(())
    }
}

/// The cache a batch starts from and how many leading prompt tokens of each row it already
/// holds: with a store, each row's longest stored prefix ([`PrefixStore::lookup`]); without one
/// (or when no row finds one), the prompt prefix every row shares, prefilled once.
fn start_cache(
    model: &Llama,
    rows: &[Row<'_>],
    store: Option<&mut PrefixStore>,
) -> Result<(KvCache, Vec<usize>)> {
    let (b, layers) = (rows.len(), model.layers.len());
    if let Some(store) = store {
        let found: Vec<_> = rows.iter().map(|r| store.lookup(r.prompt)).collect();
        if found.iter().any(Option::is_some) {
            let parts: Vec<_> =
                found.iter().map(|f| f.as_ref().map_or((None, 0), |(kv, n)| (Some(&kv[..]), *n))).collect();
            let cached = parts.iter().map(|p| p.1).collect();
            return Ok((KvCache::from_row_prefixes(layers, &parts)?, cached));
        }
    }
    let shared = shared_prefix_len(rows);
    if shared == 0 {
        return Ok((KvCache::new(layers, b), vec![0; b]));
    }
    let mut one = KvCache::new(layers, 1);
    let prefix = Tensor::from_vec(rows[0].prompt[..shared].to_vec(), (1, shared), model.device())?;
    model.forward_cached(&prefix, None, &mut one, true)?;
    Ok((one.repeat_rows(b)?, vec![shared; b]))
}

/// Shortest shared prompt prefix worth prefilling once for the whole batch.
const MIN_SHARED_PREFIX: usize = 16;

/// How many leading prompt tokens every row shares (0 for one row, or below
/// [`MIN_SHARED_PREFIX`]), keeping at least one token of each prompt for the batched prefill
/// that yields the first logits. Chat prompts share their template's system turn and usually
/// the task's instructions: prefilling those once, then copying their keys and values to every
/// row ([`KvCache::repeat_rows`]), saves that share of the prefill. The suffixes are
/// left-padded after it; padding keys are masked and do not advance positions, so each row sees
/// the positions it would see alone.
fn shared_prefix_len(rows: &[Row<'_>]) -> usize {
    let Some((first, rest)) = rows.split_first() else { return 0 };
    if rest.is_empty() {
        return 0;
    }
    let shortest = rows.iter().map(|r| r.prompt.len()).min().unwrap_or(0);
    let mut n = shortest.saturating_sub(1);
    for r in rest {
        n = first.prompt[..n].iter().zip(r.prompt).take_while(|(a, b)| a == b).count();
    }
    if n >= MIN_SHARED_PREFIX {
        n
    } else {
        0
    }
}

/// Reports every row that has finished and was not reported yet.
fn report_finished(
    out: &[Completion],
    active: &[bool],
    reported: &mut [bool],
    on_event: &mut Option<&mut dyn FnMut(RowEvent<'_>) -> bool>,
) {
    for r in 0..out.len() {
        if !active[r] && !reported[r] {
            reported[r] = true;
            if let Some(f) = on_event.as_deref_mut() {
                f(RowEvent::Done { row: r, completion: &out[r] });
            }
        }
    }
}

/// Decodes a finished row's tokens into its text, cut before the first (non-empty) stop string.
fn finish_text(c: &mut Completion, tokenizer: &Tokenizer, stop: &[String]) -> Result<()> {
    let mut text = tokenizer.decode(&c.tokens, true)?;
    if let Some(cut) = stop.iter().filter(|s| !s.is_empty()).filter_map(|s| text.find(s.as_str())).min() {
        text.truncate(cut);
    }
    c.text = text;
    Ok(())
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
    fn a_shared_prompt_prefix_prefilled_once_changes_no_row() {
        let (model, tok) = setup();
        let pre = "You are a careful assistant. Question: ";
        let prompts: Vec<Vec<u32>> =
            ["a", "hello there", "xy"].iter().map(|q| tok.encode(&format!("{pre}{q}")).unwrap()).collect();
        let params = SamplingParams { temperature: 1.0, max_tokens: 8, ..Default::default() };
        let rows: Vec<Row<'_>> = prompts
            .iter()
            .enumerate()
            .map(|(i, p)| Row {
                prompt: p,
                seed: 40 + i as u64,
                params: &params,
                top_logprobs: 0,
                stream_text: false,
            })
            .collect();
        assert_eq!(shared_prefix_len(&rows), pre.len());
        assert_eq!(shared_prefix_len(&rows[..1]), 0);
        let batch = generate_rows(&model, &tok, &rows, None).unwrap();
        for (r, row) in rows.iter().enumerate() {
            let alone = generate_rows(&model, &tok, std::slice::from_ref(row), None).unwrap();
            assert_eq!(alone[0].tokens, batch[r].tokens, "row {r}");
            for (a, b) in alone[0].logprobs.iter().zip(&batch[r].logprobs) {
                assert!((a - b).abs() < 1e-4, "row {r}: {a} vs {b}");
            }
        }
        // A prompt that is all prefix keeps its last token for the batched prefill.
        let short = tok.encode(pre).unwrap();
        let both = [Row { prompt: &short, ..rows[0] }, rows[1]];
        assert_eq!(shared_prefix_len(&both), pre.len() - 1);
        let out = generate_rows(&model, &tok, &both, None).unwrap();
        let alone = generate_rows(&model, &tok, &both[..1], None).unwrap();
        assert_eq!(out[0].tokens, alone[0].tokens);
    }

    /// The same tokens, texts and finishes, and log-probs equal to 1e-4: a row prefilled in
    /// pieces goes through products of other shapes (a few rows take the tile kernel, many take
    /// gemm), which round differently in the last bits.
    fn same_samples(a: &[Completion], b: &[Completion], what: &str) {
        assert_eq!(a.len(), b.len(), "{what}");
        for (r, (a, b)) in a.iter().zip(b).enumerate() {
            assert_eq!(
                (&a.tokens, &a.text, &a.finish_reason),
                (&b.tokens, &b.text, &b.finish_reason),
                "{what}, row {r}"
            );
            for (x, y) in a.logprobs.iter().zip(&b.logprobs) {
                assert!((x - y).abs() < 1e-4, "{what}, row {r}: {x} vs {y}");
            }
        }
    }

    #[test]
    fn rows_continued_from_the_prefix_store_match_a_full_prefill() {
        let (model, tok) = setup();
        let pre = "System: answer briefly. User: ";
        let params = SamplingParams { temperature: 1.0, max_tokens: 7, ..Default::default() };
        let brief = SamplingParams { max_tokens: 3, ..params.clone() };
        fn row<'a>(prompt: &'a [u32], seed: u64, params: &'a SamplingParams) -> Row<'a> {
            Row { prompt, seed, params, top_logprobs: 0, stream_text: false }
        }
        let mut prompts: Vec<Vec<u32>> = ["guess", "a longer first question", "x"]
            .iter()
            .map(|q| tok.encode(&format!("{pre}{q}")).unwrap())
            .collect();
        let mut store = PrefixStore::new(1 << 30);
        for turn in 0..3u64 {
            let rows: Vec<Row<'_>> = prompts
                .iter()
                .enumerate()
                .map(|(i, p)| row(p, 10 * turn + i as u64, if i >= 1 { &brief } else { &params }))
                .collect();
            let reused = generate_rows_reusing(&model, &tok, &rows, None, Some(&mut store)).unwrap();
            let fresh = generate_rows(&model, &tok, &rows, None).unwrap();
            same_samples(&reused, &fresh, &format!("turn {turn}"));
            // The next turn: the prompt, what was sampled, then the environment's answer.
            for (p, c) in prompts.iter_mut().zip(&reused) {
                p.extend(&c.tokens);
                p.extend(tok.encode(&format!(" Env: turn {turn} done. User: ")).unwrap());
            }
            // Rows stopped at different lengths (two left the batch early, to the store) and each
            // kept only its own entry.
            assert_eq!(store.len(), 3, "turn {turn}");
        }
        let (reused, prefilled) = store.token_counts();
        assert!(reused > prefilled, "reused {reused}, prefilled {prefilled}");
        // A prompt that shares only the system text with stored rows borrows that much, and a
        // row with nothing to borrow shares the batch with it.
        let other = tok.encode(&format!("{pre}something new entirely")).unwrap();
        let short = tok.encode("hi").unwrap();
        let rows = [row(&other, 7, &params), row(&short, 8, &params)];
        let before = store.token_counts().0;
        let out = generate_rows_reusing(&model, &tok, &rows, None, Some(&mut store)).unwrap();
        assert_eq!(store.token_counts().0 - before, pre.len() as u64);
        same_samples(&out, &generate_rows(&model, &tok, &rows, None).unwrap(), "borrowed prefix");
        // Over budget, the least recently used entries go; an entry larger than the budget is
        // not kept.
        let mut roomy = PrefixStore::new(1 << 30);
        generate_rows_reusing(&model, &tok, &rows, None, Some(&mut roomy)).unwrap();
        assert_eq!(roomy.len(), 2);
        let mut tight = PrefixStore::new(roomy.bytes() - 1);
        generate_rows_reusing(&model, &tok, &rows, None, Some(&mut tight)).unwrap();
        assert_eq!(tight.len(), 1);
        let mut tiny = PrefixStore::new(1);
        generate_rows_reusing(&model, &tok, &rows, None, Some(&mut tiny)).unwrap();
        assert!(tiny.is_empty());
        store.clear();
        assert_eq!((store.len(), store.bytes()), (0, 0));
    }

    #[test]
    fn rows_with_their_own_knobs_match_each_row_sampled_alone() {
        let (model, tok) = setup();
        let prompts =
            [tok.encode("ab").unwrap(), tok.encode("hello there").unwrap(), tok.encode("x").unwrap()];
        let params = [
            SamplingParams { temperature: 0.0, max_tokens: 5, ..Default::default() },
            SamplingParams { temperature: 0.8, top_p: 0.9, max_tokens: 9, ..Default::default() },
            SamplingParams { temperature: 1.2, top_k: 7, max_tokens: 3, ..Default::default() },
        ];
        let rows: Vec<Row<'_>> = (0..3)
            .map(|r| Row {
                prompt: &prompts[r],
                seed: 40 + r as u64,
                params: &params[r],
                top_logprobs: 3,
                stream_text: true,
            })
            .collect();
        let mut tokens = vec![Vec::new(); 3];
        let mut texts = vec![String::new(); 3];
        let mut done = vec![None; 3];
        let mut on_event = |e: RowEvent<'_>| {
            match e {
                RowEvent::Token { row, token, logprob, top, text } => {
                    assert!(done[row].is_none(), "token after done");
                    assert_eq!(top.len(), 3);
                    assert!(top.windows(2).all(|w| w[0].1 >= w[1].1));
                    assert!(
                        top.iter().any(|&(t, lp)| t == token && (lp - logprob).abs() < 1e-5)
                            || logprob <= top[2].1
                    );
                    tokens[row].push(token);
                    texts[row].push_str(text);
                }
                RowEvent::Done { row, completion } => done[row] = Some(completion.clone()),
            }
            true
        };
        let out = generate_rows(&model, &tok, &rows, Some(&mut on_event)).unwrap();
        for r in 0..3 {
            let alone = generate_seeded(&model, &tok, &prompts[r..=r], &[40 + r as u64], &params[r]).unwrap();
            assert_eq!(out[r].tokens, alone[0].tokens, "row {r}");
            assert_eq!(out[r].text, alone[0].text);
            assert_eq!(tokens[r], out[r].tokens);
            assert_eq!(texts[r], out[r].text, "streamed pieces add up to the text");
            assert_eq!(done[r].as_ref(), Some(&out[r]));
            assert_eq!(out[r].tokens.len(), params[r].max_tokens);
        }
        // Greedy: the first alternative is the sampled token itself.
        let greedy = Row { top_logprobs: 1, ..rows[0] };
        let mut firsts = Vec::new();
        let mut on_event = |e: RowEvent<'_>| {
            if let RowEvent::Token { token, logprob, top, .. } = e {
                firsts.push((top[0].0 == token, (top[0].1 - logprob).abs() < 1e-6));
            }
            true
        };
        generate_rows(&model, &tok, &[greedy], Some(&mut on_event)).unwrap();
        assert!(firsts.iter().all(|&(a, b)| a && b), "{firsts:?}");
    }

    #[test]
    fn streamed_text_holds_back_stop_prefixes_and_cancelled_rows_stop() {
        let mut s = TextStream::default();
        let stops = vec!["</answer>".to_string()];
        assert_eq!(s.advance("ok </ans", &stops, false), "ok ");
        assert_eq!(s.advance("ok </and", &stops, false), "</and");
        assert_eq!(s.advance("ok </and caf\u{FFFD}", &stops, false), " caf");
        assert_eq!(s.advance("ok </and café", &stops, true), "é");
        let (model, tok) = setup();
        let prompt = tok.encode("abc").unwrap();
        let p = SamplingParams { max_tokens: 20, ..Default::default() };
        let rows = [Row { prompt: &prompt, seed: 1, params: &p, top_logprobs: 0, stream_text: false }; 2];
        let mut seen = [0usize; 2];
        let mut dones = 0;
        let mut on_event = |e: RowEvent<'_>| match e {
            RowEvent::Token { row, .. } => {
                seen[row] += 1;
                !(row == 0 && seen[0] == 3)
            }
            RowEvent::Done { .. } => {
                dones += 1;
                true
            }
        };
        let out = generate_rows(&model, &tok, &rows, Some(&mut on_event)).unwrap();
        assert_eq!(seen, [3, 20]);
        assert_eq!(dones, 1, "a cancelled row is not reported as done");
        assert_eq!(out[0].tokens, out[1].tokens[..3]);
        let too_long = SamplingParams { max_tokens: 5000, ..Default::default() };
        let row = Row { prompt: &prompt, seed: 1, params: &too_long, top_logprobs: 0, stream_text: false };
        let e = generate_rows(&model, &tok, &[row], None).unwrap_err().to_string();
        assert!(e.contains("row 0") && e.contains("5000"), "{e}");
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
