//! The local candle backend: a [`ChatModel`] sampling turns in length-sorted micro-batches.
//!
//! Prompts are rendered with the model's chat template and tokenised, except when the request
//! carries the seat's append-only token record (`prefix_ids`): then only the text the template
//! adds after the last assistant message is tokenised and appended, so the tokens the model
//! sampled earlier are never re-tokenised (re-tokenising can merge them differently and break the
//! log-prob record). Each request samples from its own seed, so a response does not depend on
//! which other requests share its micro-batch.

use gauntlet_model::{generate_seeded, ChatMessage, ChatModel, FinishReason, SamplingParams};

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
    name: String,
}

impl LocalPolicy {
    /// Wraps a chat model; the template's EOS token is added to the stop tokens.
    pub fn new(chat: ChatModel, mut params: SamplingParams, name: impl Into<String>) -> Self {
        params.stop_token_ids.extend(chat.eos_token_id());
        params.stop_token_ids.dedup();
        LocalPolicy { chat, params, micro_batch: 32, version: 0, name: name.into() }
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
        let out = generate_seeded(&self.chat.model, &self.chat.tokenizer, &[ids], &[seed], &self.params)
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
        // Length-sorted micro-batches waste little compute on padding.
        ready.sort_by_key(|(i, ids)| (ids.len(), *i));
        for chunk in ready.chunks(self.micro_batch.max(1)) {
            let prompts: Vec<Vec<u32>> = chunk.iter().map(|(_, ids)| ids.clone()).collect();
            let seeds: Vec<u64> = chunk.iter().map(|(i, _)| requests[*i].seed).collect();
            match generate_seeded(&self.chat.model, &self.chat.tokenizer, &prompts, &seeds, &self.params) {
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
