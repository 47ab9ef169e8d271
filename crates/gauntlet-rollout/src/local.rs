//! The local candle backend: a [`ChatModel`] sampling turns in length-sorted micro-batches.
//!
//! Prompts are rendered with the model's chat template and tokenised, except when the request
//! carries the seat's append-only token record (`prefix_ids`): then only the text the template
//! adds after the last assistant message is tokenised and appended, so the tokens the model
//! sampled earlier are never re-tokenised (re-tokenising can merge them differently and break the
//! log-prob record). Each request samples from its own seed, so a response does not depend on
//! which other requests share its micro-batch.
//!
//! The keys and values of every answered prompt stay in a [`PrefixStore`] until the weights
//! change (a new [`LocalPolicy::version`]): the next turn of an episode extends its previous
//! prompt and reply, so only the new tokens are prefilled.

use gauntlet_model::{
    generate_rows_reusing, generate_seeded, on_pool, ChatMessage, ChatModel, FinishReason, PrefixStore, Row,
    SamplingParams,
};

use crate::{Finish, Policy, PolicyError, Request, Response};

/// A local model as a [`Policy`].
pub struct LocalPolicy {
    /// The model, tokenizer and chat template. Trainers update the weights in place (candle
    /// `Var`s) and bump [`LocalPolicy::version`].
    pub chat: ChatModel,
    /// Sampling knobs (`seed` is ignored: every request has its own).
    pub params: SamplingParams,
    /// Most requests sampled together.
    pub micro_batch: usize,
    /// Weight version, reported in every turn.
    pub version: u64,
    /// Keys and values of earlier prompts ([`LocalPolicy::prefix_store_bytes`] by default;
    /// `PrefixStore::new(0)` turns reuse off). Cleared when `version` changes.
    pub prefix_store: PrefixStore,
    store_version: u64,
    name: String,
}

impl LocalPolicy {
    /// Wraps a chat model; the template's EOS token is added to the stop tokens.
    pub fn new(chat: ChatModel, mut params: SamplingParams, name: impl Into<String>) -> Self {
        params.stop_token_ids.extend(chat.eos_token_id());
        params.stop_token_ids.dedup();
        LocalPolicy {
            params,
            micro_batch: 32,
            version: 0,
            prefix_store: PrefixStore::new(Self::prefix_store_bytes(&chat.model.cfg)),
            store_version: 0,
            chat,
            name: name.into(),
        }
    }

    /// Most bytes the prefix store takes by default, whatever the model: SmolLM2-135M's keys and
    /// values take 46 KB per token, so 6 GiB holds about 170 episodes of 800 tokens.
    pub const PREFIX_STORE_BYTES: usize = 6 << 30;

    /// Most tokens the prefix store keeps by default: 262,144 (SmolLM2-135M reaches
    /// [`Self::PREFIX_STORE_BYTES`] first; the 1M-parameter model's 4 KB per token take 1 GiB,
    /// where a byte budget alone let it hold 6 GiB of finished episodes).
    pub const PREFIX_STORE_TOKENS: usize = 1 << 18;

    /// The prefix store's default budget for a model of `cfg`: the keys and values (f32) of
    /// [`Self::PREFIX_STORE_TOKENS`] tokens, at most [`Self::PREFIX_STORE_BYTES`].
    pub fn prefix_store_bytes(cfg: &gauntlet_model::Config) -> usize {
        let per_token =
            cfg.num_hidden_layers * 2 * cfg.kv_heads() * cfg.head_dim() * std::mem::size_of::<f32>();
        Self::PREFIX_STORE_TOKENS.saturating_mul(per_token).min(Self::PREFIX_STORE_BYTES)
    }

    /// The prompt token ids of a request.
    pub fn prompt_ids(&self, r: &Request<'_>) -> Result<Vec<u32>, PolicyError> {
        let err = |e: gauntlet_model::Error| PolicyError(e.to_string());
        let template = &self.chat.template;
        if let (Some(prefix), Some(last_assistant)) =
            (r.prefix_ids, r.messages.iter().rposition(|m| m.role == "assistant"))
        {
            let before = template.render(&r.messages[..=last_assistant], false).map_err(err)?;
            let full = template.render(r.messages, true).map_err(err)?;
            let content = &r.messages[last_assistant].content;
            let eos = template.eos_token();
            // The sampled tokens end with the assistant content (and EOS when it stopped there);
            // everything the template renders after that is new text.
            if let Some(end) = before.rfind(content.as_str()).map(|p| p + content.len()) {
                if full.starts_with(&before) {
                    let sampled_eos = prefix.last().copied() == self.chat.eos_token_id();
                    let tail = &before[end..];
                    let tail = if sampled_eos && !eos.is_empty() && tail.starts_with(eos) {
                        &tail[eos.len()..]
                    } else {
                        tail
                    };
                    let mut ids = prefix.to_vec();
                    ids.extend(
                        self.chat
                            .tokenizer
                            .encode(&format!("{tail}{}", &full[before.len()..]))
                            .map_err(err)?,
                    );
                    return Ok(ids);
                }
            }
        }
        let text = template.render(r.messages, true).map_err(err)?;
        self.chat.tokenizer.encode(&text).map_err(err)
    }

    /// Samples one reply to one conversation (for tools and tests).
    pub fn reply(&mut self, messages: &[ChatMessage], seed: u64) -> Result<String, PolicyError> {
        let ids = self
            .chat
            .tokenizer
            .encode(&self.chat.template.render(messages, true).map_err(|e| PolicyError(e.to_string()))?);
        let ids = ids.map_err(|e| PolicyError(e.to_string()))?;
        let (chat, params) = (&self.chat, &self.params);
        let out = on_pool(|| generate_seeded(&chat.model, &chat.tokenizer, &[ids], &[seed], params))
            .map_err(|e| PolicyError(e.to_string()))?;
        Ok(out.into_iter().next().map(|c| c.text).unwrap_or_default())
    }
}

impl Policy for LocalPolicy {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn version(&self) -> u64 {
        self.version
    }

    fn respond(&mut self, requests: &[Request<'_>]) -> Vec<Result<Response, PolicyError>> {
        let mut out: Vec<Option<Result<Response, PolicyError>>> = vec![None; requests.len()];
        let mut ready: Vec<(usize, Vec<u32>)> = Vec::new();
        for (i, r) in requests.iter().enumerate() {
            match self.prompt_ids(r) {
                Ok(ids) => ready.push((i, ids)),
                Err(e) => out[i] = Some(Err(e)),
            }
        }
        if self.store_version != self.version {
            self.prefix_store.clear();
            self.store_version = self.version;
        }
        // Length-sorted micro-batches waste little compute on padding.
        ready.sort_by_key(|(i, ids)| (ids.len(), *i));
        for chunk in ready.chunks(self.micro_batch.max(1)) {
            let rows: Vec<Row<'_>> = chunk
                .iter()
                .map(|(i, ids)| Row {
                    prompt: ids,
                    seed: requests[*i].seed,
                    params: &self.params,
                    top_logprobs: 0,
                    stream_text: false,
                })
                .collect();
            let (model, tokenizer, store) = (&self.chat.model, &self.chat.tokenizer, &mut self.prefix_store);
            // On a worker of rayon's pool (`on_pool`: from outside it, every small op of a decoding
            // step costs three thread switches); the same tokens either way.
            let sampled = on_pool(|| generate_rows_reusing(model, tokenizer, &rows, None, Some(store)));
            match sampled {
                Ok(completions) => {
                    for ((i, ids), c) in chunk.iter().zip(completions) {
                        out[*i] = Some(Ok(Response {
                            text: c.text,
                            prompt_ids: ids.clone(),
                            response_ids: c.tokens,
                            logprobs: c.logprobs,
                            finish: match c.finish_reason {
                                FinishReason::Stop => Finish::Stop,
                                FinishReason::Length => Finish::Length,
                            },
                        }));
                    }
                }
                Err(e) => {
                    for (i, _) in chunk {
                        out[*i] = Some(Err(PolicyError(e.to_string())));
                    }
                }
            }
        }
        out.into_iter().map(|r| r.unwrap_or_else(|| Err(PolicyError("not answered".into())))).collect()
    }
}

#[cfg(test)]
mod tests {
    use gauntlet_model::{checkpoint, ChatTemplate, Config, PrefixStore, SamplingParams, Tokenizer};

    use super::*;
    use crate::{play, EpisodeSpec, History, RolloutOptions};

    fn tiny_policy(store_bytes: usize) -> LocalPolicy {
        let (model, _) = checkpoint::new_model(&Config::tiny(260), &candle_core::Device::Cpu, 3).unwrap();
        let chat = ChatModel { model, tokenizer: Tokenizer::bytes(), template: ChatTemplate::chatml() };
        let params = SamplingParams { temperature: 1.0, max_tokens: 6, ..Default::default() };
        let mut p = LocalPolicy::new(chat, params, "tiny");
        p.micro_batch = 3;
        p.prefix_store = PrefixStore::new(store_bytes);
        p
    }

    /// The default budget holds the same number of tokens for any model, up to 6 GiB.
    #[test]
    fn the_prefix_store_budget_follows_the_models_size() {
        // SmolLM2-135M: 30 layers, 3 key/value heads of 64: 46,080 bytes per token.
        let smollm2 = Config::llama(49152, 576, 30, 9, 3, 1536);
        assert_eq!(LocalPolicy::prefix_store_bytes(&smollm2), LocalPolicy::PREFIX_STORE_BYTES);
        let tiny = Config::tiny(260);
        let per_token = tiny.num_hidden_layers * 2 * tiny.kv_heads() * tiny.head_dim() * 4;
        assert_eq!(LocalPolicy::prefix_store_bytes(&tiny), LocalPolicy::PREFIX_STORE_TOKENS * per_token);
        assert_eq!(tiny_policy(1).prefix_store.budget(), 1);
        let default = LocalPolicy::new(tiny_policy(0).chat, SamplingParams::default(), "t");
        assert_eq!(default.prefix_store.budget(), LocalPolicy::PREFIX_STORE_TOKENS * per_token);
    }

    #[test]
    fn turns_continued_from_the_prefix_store_are_the_turns_sampled_from_scratch() {
        let specs = EpisodeSpec::groups("guess_number", 1, &[1, 2, 3, 4], 2);
        let opts = RolloutOptions { seed: 9, history: History::Full, ..Default::default() };
        let mut reusing = tiny_policy(LocalPolicy::PREFIX_STORE_BYTES);
        let mut fresh = tiny_policy(0);
        let a = play(&specs, &mut reusing, &opts).unwrap();
        let b = play(&specs, &mut fresh, &opts).unwrap();
        assert!(a.iter().any(|e| e.turns.len() > 2), "the episodes must be multi-turn");
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x.turns.len(), y.turns.len());
            for (s, t) in x.turns.iter().zip(&y.turns) {
                assert_eq!((&s.prompt_ids, &s.response_ids), (&t.prompt_ids, &t.response_ids));
            }
        }
        let (reused, prefilled) = reusing.prefix_store.token_counts();
        assert!(reused > prefilled, "reused {reused} prompt tokens, prefilled {prefilled}");
        assert_eq!(fresh.prefix_store.token_counts().0, 0);
        // New weights: the store starts over.
        reusing.version += 1;
        play(&specs[..1], &mut reusing, &opts).unwrap();
        assert!(reusing.prefix_store.len() <= 1);
    }
}
