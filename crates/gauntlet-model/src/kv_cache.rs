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

/// One row's start for [`KvCache::from_row_prefixes`]: its keys and values per layer (real
/// tokens only) and how many of their tokens to keep.
pub type RowPrefix<'a> = (Option<&'a [(Tensor, Tensor)]>, usize);

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

    /// A cache whose row `r` holds the first `n_r` cached tokens of `rows[r] = (kv, n_r)`, where
    /// `kv` is one row's keys and values per layer (`[1, kv_heads, ≥ n_r, head_dim]`, real tokens
    /// only, as [`KvCache::row_real`] returns them; `None` when `n_r = 0`). Rows are left-padded
    /// to the longest; the padding is masked and positions continue at `n_r`, so each row decodes
    /// exactly as if its `n_r` tokens had just been prefilled alone.
    pub fn from_row_prefixes(num_layers: usize, rows: &[RowPrefix<'_>]) -> Result<KvCache> {
        let batch = rows.len();
        let len = rows.iter().map(|(_, n)| *n).max().unwrap_or(0);
        let Some(template) = rows.iter().find_map(|(kv, n)| kv.filter(|_| *n > 0)) else {
            return Ok(KvCache::new(num_layers, batch));
        };
        for (r, (kv, n)) in rows.iter().enumerate() {
            let ok = *n == 0
                || kv.is_some_and(|kv| {
                    kv.len() == num_layers && kv.iter().all(|(k, _)| k.dim(2).is_ok_and(|d| d >= *n))
                });
            if !ok {
                return Err(Error::Sampling(format!(
                    "row {r}: asked for {n} cached tokens of {num_layers} layers that are not there"
                )));
            }
        }
        let mut layers = Vec::with_capacity(num_layers);
        for l in 0..num_layers {
            let (k0, _) = &template[l];
            let (_, heads, _, dim) = k0.dims4()?;
            let zeros = |n: usize| Tensor::zeros((1, heads, n, dim), k0.dtype(), k0.device());
            let (mut ks, mut vs) = (Vec::with_capacity(batch), Vec::with_capacity(batch));
            for (kv, n) in rows {
                let (k, v) = match kv {
                    Some(kv) if *n > 0 => (kv[l].0.narrow(2, 0, *n)?, kv[l].1.narrow(2, 0, *n)?),
                    _ => (zeros(len)?, zeros(len)?),
                };
                let pad = len - k.dim(2)?;
                if pad > 0 {
                    ks.push(Tensor::cat(&[&zeros(pad)?, &k], 2)?);
                    vs.push(Tensor::cat(&[&zeros(pad)?, &v], 2)?);
                } else {
                    ks.push(k);
                    vs.push(v);
                }
            }
            layers.push(Some((Tensor::cat(&ks, 0)?, Tensor::cat(&vs, 0)?)));
        }
        let mut key_valid = vec![0u8; batch * len];
        for (r, (_, n)) in rows.iter().enumerate() {
            key_valid[r * len + len - n..][..*n].fill(1);
        }
        Ok(KvCache { layers, batch, len, key_valid, next_pos: rows.iter().map(|(_, n)| *n as u32).collect() })
    }

    /// Row `r`'s cached keys and values without its padding, per layer `[1, kv_heads, n, head_dim]`
    /// with `n` the row's real tokens, in order (what [`KvCache::from_row_prefixes`] takes back).
    pub fn row_real(&self, r: usize) -> Result<Vec<(Tensor, Tensor)>> {
        if r >= self.batch {
            return Err(Error::Sampling(format!("row {r} is outside a batch of {}", self.batch)));
        }
        let flags = &self.key_valid[r * self.len..][..self.len];
        let cols: Vec<u32> = (0..self.len as u32).filter(|&j| flags[j as usize] != 0).collect();
        if cols.is_empty() {
            return Err(Error::Sampling(format!("row {r} has no cached tokens")));
        }
        let contiguous = cols.last().is_some_and(|&e| (e - cols[0]) as usize + 1 == cols.len());
        let pick = |t: &Tensor| -> Result<Tensor> {
            let row = t.narrow(0, r, 1)?;
            Ok(if contiguous {
                row.narrow(2, cols[0] as usize, cols.len())?.contiguous()?
            } else {
                row.index_select(&Tensor::new(cols.as_slice(), t.device())?, 2)?.contiguous()?
            })
        };
        self.layers
            .iter()
            .map(|l| {
                let (k, v) =
                    l.as_ref().ok_or_else(|| Error::Sampling("a layer has nothing cached".into()))?;
                Ok((pick(k)?, pick(v)?))
            })
            .collect()
    }

    /// Keeps only the rows `rows` (indices into the current batch, in their new order): rows
    /// that finished sampling leave the batch, so later decoding steps cost only the rest.
    pub fn select_rows(&mut self, rows: &[usize]) -> Result<()> {
        if let Some(&r) = rows.iter().find(|&&r| r >= self.batch) {
            return Err(Error::Sampling(format!("row {r} is outside a batch of {}", self.batch)));
        }
        let ids: Vec<u32> = rows.iter().map(|&r| r as u32).collect();
        for slot in self.layers.iter_mut() {
            if let Some((k, v)) = slot.take() {
                let idx = Tensor::new(ids.as_slice(), k.device())?;
                *slot = Some((k.index_select(&idx, 0)?, v.index_select(&idx, 0)?));
            }
        }
        let len = self.len;
        self.key_valid =
            rows.iter().flat_map(|&r| self.key_valid[r * len..][..len].iter().copied()).collect();
        self.next_pos = rows.iter().map(|&r| self.next_pos[r]).collect();
        self.batch = rows.len();
        Ok(())
    }

    /// Forgets everything cached.
    pub fn reset(&mut self) {
        *self = KvCache::new(self.layers.len(), self.batch);
    }
}
