//! The key/value cache for incremental decoding of a batch of sequences.
//!
//! Decoding token `T+1` needs the keys and values of tokens `0..=T` in every layer; recomputing
//! them costs a full forward per token (`O(T²)` work per sequence), caching them makes each new
//! token one row of work. [`KvCache`] keeps, per layer, keys (after RoPE) and values as
//! `[batch, kv_heads, T, head_dim]`, plus what attention needs to treat a ragged batch:
//!
//! - `key_valid[r][j]`: whether cached token `j` of row `r` is a real token (1) or padding (0).
//!   Prompts of different lengths are **left**-padded so that every row's next token lands in the
//!   same column; padding keys are then masked out.
//! - `next_pos[r]`: the RoPE position of row `r`'s next real token, i.e. how many real tokens
//!   the row holds. Padding does not advance it, so a left-padded row sees exactly the positions
//!   it would see alone, and cached decoding matches a full forward of the unpadded sequence.
//!
//! Keys and values are preallocated in chunks of [`KvCache::CHUNK`] positions and written in
//! place with `slice_set`, so a step costs one narrow view instead of a copy of the whole cache.
//!
//! ```
//! use gauntlet_model::KvCache;
//! let mut cache = KvCache::new(2, 3);
//! assert_eq!(cache.len(), 0);
//! let pos = cache.extend(&[0, 1, 1, 1, 1, 1], 2).unwrap();
//! assert_eq!(pos, vec![0, 0, 0, 1, 0, 1]); // row 0 is left-padded by one token
//! assert_eq!(cache.len(), 2);
//! ```

use candle_core::Tensor;

use crate::{Error, Result};

/// Per-layer cached keys and values for a batch, with padding and position bookkeeping.
#[derive(Debug, Clone)]
pub struct KvCache {
    layers: Vec<Option<(Tensor, Tensor)>>,
    batch: usize,
    len: usize,
    key_valid: Vec<u8>,
    next_pos: Vec<u32>,
}

impl KvCache {
    /// Positions preallocated at a time.
    pub const CHUNK: usize = 256;

    /// An empty cache for `num_layers` layers and `batch` rows.
    pub fn new(num_layers: usize, batch: usize) -> Self {
        KvCache {
            layers: vec![None; num_layers],
            batch,
            len: 0,
            key_valid: Vec::new(),
            next_pos: vec![0; batch],
        }
    }

    /// Cached tokens per row (padding included).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing is cached yet.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Rows in the batch.
    pub fn batch(&self) -> usize {
        self.batch
    }

    /// Row-major `[batch, len]` flags: 1 for a real token, 0 for padding.
    pub fn key_valid(&self) -> &[u8] {
        &self.key_valid
    }

    /// Registers `t` new tokens per row (`valid` is row-major `[batch, t]`, 1 = real) and
    /// returns their RoPE positions, row-major `[batch, t]`. Call once per forward, before the
    /// layers append their keys.
    pub fn extend(&mut self, valid: &[u8], t: usize) -> Result<Vec<u32>> {
        if valid.len() != self.batch * t {
            return Err(Error::Sampling(format!(
                "valid flags have {} entries, expected batch {} × {t}",
                valid.len(),
                self.batch
            )));
        }
        let old = self.len;
        let mut kv = vec![0u8; self.batch * (old + t)];
        let mut pos = vec![0u32; self.batch * t];
        for r in 0..self.batch {
            kv[r * (old + t)..][..old].copy_from_slice(&self.key_valid[r * old..][..old]);
            for i in 0..t {
                let ok = valid[r * t + i];
                kv[r * (old + t) + old + i] = ok;
                pos[r * t + i] = self.next_pos[r];
                if ok != 0 {
                    self.next_pos[r] += 1;
                }
            }
        }
        self.key_valid = kv;
        self.len = old + t;
        Ok(pos)
    }

    /// Appends one layer's new keys and values (`[batch, kv_heads, t, head_dim]`) and returns
    /// all cached ones, `[batch, kv_heads, len, head_dim]`.
    pub fn append(&mut self, layer: usize, k: &Tensor, v: &Tensor) -> Result<(Tensor, Tensor)> {
        let t = k.dim(2)?;
        let slot = self
            .layers
            .get_mut(layer)
            .ok_or_else(|| Error::Sampling(format!("layer {layer} is outside the cache")))?;
        let start = self.len - t;
        let (kb, vb) = match slot.take() {
            Some((kb, vb)) if kb.dim(2)? >= self.len => (kb, vb),
            old => {
                let (b, h, _, d) = k.dims4()?;
                let cap = self.len.div_ceil(Self::CHUNK) * Self::CHUNK;
                let kb = Tensor::zeros((b, h, cap, d), k.dtype(), k.device())?;
                let vb = Tensor::zeros((b, h, cap, d), v.dtype(), v.device())?;
                if let Some((ok, ov)) = old {
                    kb.slice_set(&ok.narrow(2, 0, start)?.contiguous()?, 2, 0)?;
                    vb.slice_set(&ov.narrow(2, 0, start)?.contiguous()?, 2, 0)?;
                }
                (kb, vb)
            }
        };
        kb.slice_set(&k.contiguous()?, 2, start)?;
        vb.slice_set(&v.contiguous()?, 2, start)?;
        let out = (kb.narrow(2, 0, self.len)?, vb.narrow(2, 0, self.len)?);
        *slot = Some((kb, vb));
        Ok(out)
    }

    /// This one-row cache's contents copied to each of `batch` rows: a prompt prefix that every
    /// row of a batch shares is prefilled once and then serves them all.
    pub fn repeat_rows(&self, batch: usize) -> Result<KvCache> {
        if self.batch != 1 {
            return Err(Error::Sampling(format!(
                "repeat_rows needs a one-row cache, not {} rows",
                self.batch
            )));
        }
        let repeat =
            |t: &Tensor| -> Result<Tensor> { Ok(t.narrow(2, 0, self.len)?.repeat((batch, 1, 1, 1))?) };
        let layers = self
            .layers
            .iter()
            .map(|l| l.as_ref().map(|(k, v)| Ok((repeat(k)?, repeat(v)?))).transpose())
            .collect::<Result<Vec<_>>>()?;
        Ok(KvCache {
            layers,
            batch,
            len: self.len,
            key_valid: self.key_valid.repeat(batch),
            next_pos: vec![self.next_pos[0]; batch],
        })
    }

    /// Forgets everything cached.
    pub fn reset(&mut self) {
        *self = KvCache::new(self.layers.len(), self.batch);
    }
}
