//! Keys and values kept from one sampling call to the next, for prompts that extend earlier ones.
//!
//! In a multi-turn episode the prompt of turn `t + 1` is the prompt of turn `t`, the reply
//! sampled there and the environment's answer: re-prefilling it from scratch makes an episode's
//! prompt cost quadratic in its turns (SmolLM2 on guess_number read 3.3× more prompt tokens than
//! its conversations hold). A [`PrefixStore`] keeps, after each call, every row's cached keys
//! and values with the exact tokens they encode (prompt + the sampled tokens fed back); the next
//! call starts each row from the stored entry sharing the longest prefix with its prompt and
//! prefills only the rest. Reuse is exact: the keys of a token depend only on the tokens before
//! it, so a row continued from the store decodes as if its whole prompt were prefilled (up to
//! float rounding).
//!
//! An entry whose tokens are a prefix of a newer entry's is dropped (the episode moved on); when
//! the store would exceed its byte budget the least recently used entries go first. The cached
//! keys belong to the weights that computed them: clear the store (or make a new one) whenever
//! the weights change.

use candle_core::Tensor;

/// One row's keys and values with the tokens they encode.
struct Entry {
    tokens: Vec<u32>,
    kv: Vec<(Tensor, Tensor)>,
    bytes: usize,
    last_used: u64,
}

/// Cached keys and values of earlier rows, found again by token prefix; see the module doc.
pub struct PrefixStore {
    entries: Vec<Entry>,
    bytes: usize,
    budget: usize,
    clock: u64,
    reused: u64,
    prefilled: u64,
}

impl std::fmt::Debug for PrefixStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PrefixStore")
            .field("entries", &self.entries.len())
            .field("bytes", &self.bytes)
            .field("budget", &self.budget)
            .field("reused_tokens", &self.reused)
            .field("prefilled_tokens", &self.prefilled)
            .finish()
    }
}

impl PrefixStore {
    /// Shortest stored prefix worth reusing (below it, copying costs about what prefilling does).
    pub const MIN_REUSE: usize = 16;

    /// An empty store that holds at most `budget_bytes` of keys and values.
    pub fn new(budget_bytes: usize) -> Self {
        PrefixStore { entries: Vec::new(), bytes: 0, budget: budget_bytes, clock: 0, reused: 0, prefilled: 0 }
    }

    /// Entries held.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing is held.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Bytes of keys and values held.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Most bytes of keys and values it holds.
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// Prompt tokens taken from the store so far, and prompt tokens prefilled.
    pub fn token_counts(&self) -> (u64, u64) {
        (self.reused, self.prefilled)
    }

    /// Forgets every entry (call when the weights change); keeps the token counts.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.bytes = 0;
    }

    /// The stored keys and values sharing the longest prefix with `prompt`, and how many tokens
    /// of them to reuse: at most `prompt.len() - 1` (the last prompt token is prefilled to give
    /// the first logits) and at least [`Self::MIN_REUSE`], else `None`. Counts the reuse.
    pub(crate) fn lookup(&mut self, prompt: &[u32]) -> Option<(Vec<(Tensor, Tensor)>, usize)> {
        let cap = prompt.len().saturating_sub(1);
        let common = |e: &Entry| e.tokens.iter().zip(&prompt[..cap]).take_while(|(a, b)| a == b).count();
        let best = (0..self.entries.len())
            .map(|i| (common(&self.entries[i]), i))
            .max_by_key(|&(n, i)| (n, std::cmp::Reverse(i)));
        self.clock += 1;
        match best {
            Some((n, i)) if n >= Self::MIN_REUSE => {
                self.reused += n as u64;
                self.prefilled += (prompt.len() - n) as u64;
                let e = &mut self.entries[i];
                e.last_used = self.clock;
                Some((e.kv.clone(), n))
            }
            _ => {
                self.prefilled += prompt.len() as u64;
                None
            }
        }
    }

    /// Keeps `kv` (one row, per layer `[1, kv_heads, tokens.len(), head_dim]`) for `tokens`,
    /// dropping entries it extends, then the least recently used ones while over budget (an
    /// entry larger than the whole budget is not kept).
    pub(crate) fn insert(&mut self, tokens: Vec<u32>, kv: Vec<(Tensor, Tensor)>) {
        let bytes: usize =
            kv.iter().map(|(k, v)| (k.elem_count() + v.elem_count()) * k.dtype().size_in_bytes()).sum();
        let mut freed = 0;
        self.entries.retain(|e| {
            let extended = e.tokens.len() <= tokens.len() && tokens.starts_with(&e.tokens);
            if extended {
                freed += e.bytes;
            }
            !extended
        });
        self.bytes -= freed;
        if bytes > self.budget {
            return;
        }
        while self.bytes + bytes > self.budget {
            let Some(oldest) = (0..self.entries.len()).min_by_key(|&i| self.entries[i].last_used) else {
                break;
            };
            self.bytes -= self.entries.swap_remove(oldest).bytes;
        }
        self.clock += 1;
        self.bytes += bytes;
        self.entries.push(Entry { tokens, kv, bytes, last_used: self.clock });
    }
}
