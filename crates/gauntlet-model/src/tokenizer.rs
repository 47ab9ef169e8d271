//! Tokenizers: bytes for from-scratch models, `tokenizer.json` for pretrained ones.
//!
//! [`Tokenizer::Bytes`] maps each UTF-8 byte to its own id (`0..256`) and adds a few special
//! tokens after them ([`SPECIAL_TOKENS`]: `<|endoftext|>` 256, `<|im_start|>` 257, `<|im_end|>`
//! 258, `<pad>` 259), so a from-scratch model needs vocabulary 260 and never meets an unknown
//! character. A special token's text inside the input encodes to its id, as Hugging Face
//! tokenizers do with added tokens. Saved checkpoints carry an equivalent `tokenizer.json`
//! (byte-level BPE without merges, GPT-2's byte-to-character table), so `transformers` loads
//! them too.
//!
//! [`Tokenizer::Hf`] wraps the `tokenizers` crate (`tokenizer.json` of a pretrained model, or
//! one rebuilt from GGUF metadata). Encoding never adds BOS/EOS by itself: chat templates put
//! the special tokens in the text.
//!
//! ```
//! use gauntlet_model::Tokenizer;
//! let tok = Tokenizer::bytes();
//! let ids = tok.encode("<|im_start|>hé").unwrap();
//! assert_eq!(ids, vec![257, b'h' as u32, 0xC3, 0xA9]);
//! assert_eq!(tok.decode(&ids, true).unwrap(), "hé");
//! ```

use std::path::Path;

use crate::{Error, Result};

/// Special tokens of the byte tokenizer, with ids `256..`.
pub const SPECIAL_TOKENS: [&str; 4] = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<pad>"];

/// A tokenizer: raw bytes or a Hugging Face `tokenizers` pipeline.
#[derive(Debug, Clone)]
pub enum Tokenizer {
    /// One id per byte plus [`SPECIAL_TOKENS`].
    Bytes,
    /// A `tokenizer.json` pipeline.
    Hf(Box<tokenizers::Tokenizer>),
}

impl Tokenizer {
    /// The byte-level tokenizer (vocabulary 260).
    pub fn bytes() -> Self {
        Tokenizer::Bytes
    }

    /// Loads a `tokenizer.json`.
    pub fn from_file(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let t = tokenizers::Tokenizer::from_file(path)
            .map_err(|e| Error::Tokenizer(format!("load `{}`: {e}", path.display())))?;
        Ok(Tokenizer::Hf(Box::new(t)))
    }

    /// Parses the text of a `tokenizer.json`.
    pub fn from_json(json: &str) -> Result<Self> {
        let t: tokenizers::Tokenizer =
            json.parse().map_err(|e| Error::Tokenizer(format!("parse tokenizer.json: {e}")))?;
        Ok(Tokenizer::Hf(Box::new(t)))
    }

    /// Number of ids (special tokens included).
    pub fn vocab_size(&self) -> usize {
        match self {
            Tokenizer::Bytes => 256 + SPECIAL_TOKENS.len(),
            Tokenizer::Hf(t) => t.get_vocab_size(true),
        }
    }

    /// The id of a token's text (a special token, or a single byte for [`Tokenizer::Bytes`]).
    pub fn token_id(&self, token: &str) -> Option<u32> {
        match self {
            Tokenizer::Bytes => match SPECIAL_TOKENS.iter().position(|s| *s == token) {
                Some(i) => Some(256 + i as u32),
                None if token.len() == 1 => Some(token.as_bytes()[0] as u32),
                None => None,
            },
            Tokenizer::Hf(t) => t.token_to_id(token),
        }
    }

    /// Encodes text (special tokens written in it become their ids; nothing is added).
    pub fn encode(&self, text: &str) -> Result<Vec<u32>> {
        match self {
            Tokenizer::Bytes => {
                let mut ids = Vec::with_capacity(text.len());
                let mut rest = text;
                while !rest.is_empty() {
                    let hit = SPECIAL_TOKENS.iter().enumerate().find(|(_, s)| rest.starts_with(**s));
                    if let Some((i, s)) = hit {
                        ids.push(256 + i as u32);
                        rest = &rest[s.len()..];
                    } else {
                        let n = match rest.find('<') {
                            Some(0) => 1,
                            Some(n) => n,
                            None => rest.len(),
                        };
                        ids.extend(rest[..n].bytes().map(u32::from));
                        rest = &rest[n..];
                    }
                }
                Ok(ids)
            }
            Tokenizer::Hf(t) => Ok(t
                .encode(text, false)
                .map_err(|e| Error::Tokenizer(format!("encode: {e}")))?
                .get_ids()
                .to_vec()),
        }
    }

    /// Decodes ids to text; invalid UTF-8 becomes U+FFFD; special tokens are dropped when
    /// `skip_special` is true.
    pub fn decode(&self, ids: &[u32], skip_special: bool) -> Result<String> {
        match self {
            Tokenizer::Bytes => {
                let mut out = String::new();
                let mut bytes = Vec::new();
                for &id in ids {
                    if id < 256 {
                        bytes.push(id as u8);
                        continue;
                    }
                    out.push_str(&String::from_utf8_lossy(&bytes));
                    bytes.clear();
                    let s = SPECIAL_TOKENS.get(id as usize - 256).ok_or_else(|| {
                        Error::Tokenizer(format!("id {id} is outside the byte vocabulary of 260"))
                    })?;
                    if !skip_special {
                        out.push_str(s);
                    }
                }
                out.push_str(&String::from_utf8_lossy(&bytes));
                Ok(out)
            }
            Tokenizer::Hf(t) => {
                t.decode(ids, skip_special).map_err(|e| Error::Tokenizer(format!("decode: {e}")))
            }
        }
    }

    /// The `tokenizer.json` text for this tokenizer (for checkpoints).
    pub fn to_json(&self) -> Result<String> {
        match self {
            Tokenizer::Bytes => Ok(byte_tokenizer_json().to_string()),
            Tokenizer::Hf(t) => t.to_string(false).map_err(|e| Error::Tokenizer(format!("serialise: {e}"))),
        }
    }
}

/// How [`Tokenizer::train_bpe`] cuts text before learning merges: every capital letter and every
/// digit stands alone; everything between them (lower-case words, spaces, punctuation, new lines)
/// forms one run that merges may span.
///
/// Why: in gauntlet's tasks the instructions are lower-case prose that repeats across problems
/// (merging whole phrases shortens prompts four- to six-fold), while the content a policy must
/// reason over character by character (ciphertext, node names, grid symbols, numbers) is capitals
/// and digits, which stay one token per character so the model sees them exactly as a byte model
/// would.
pub const BPE_SPLIT_PATTERN: &str = "[A-Z]|[0-9]|[^A-Z0-9]+";

impl Tokenizer {
    /// Learns a byte-level BPE tokenizer of `vocab_size` ids from `texts` (for from-scratch
    /// models: a vocabulary fitted to the task mix they train on).
    ///
    /// The vocabulary holds [`SPECIAL_TOKENS`] (ids `0..4`, recognised inside text as in the
    /// byte tokenizer), the 256 byte symbols, then merges learned with the `tokenizers` crate's
    /// BPE trainer on the splits of [`BPE_SPLIT_PATTERN`]. Any text encodes (bytes are the
    /// fallback) and decodes back exactly. Training is deterministic: the same texts give the
    /// same `tokenizer.json`, byte for byte (ties between merges go to the smaller pair).
    ///
    /// `vocab_size` must be at least 260; a corpus with few distinct runs may stop short of it.
    pub fn train_bpe<S: AsRef<str> + Sync>(texts: &[S], vocab_size: usize) -> Result<Self> {
        use tokenizers::models::bpe::{BpeTrainer, BPE};
        use tokenizers::pre_tokenizers::byte_level::ByteLevel;
        use tokenizers::pre_tokenizers::sequence::Sequence;
        use tokenizers::pre_tokenizers::split::{Split, SplitPattern};
        use tokenizers::{AddedToken, SplitDelimiterBehavior};
        let min = 256 + SPECIAL_TOKENS.len();
        if vocab_size < min {
            return Err(Error::Tokenizer(format!(
                "a BPE vocabulary needs at least {min} ids (bytes and special tokens), got {vocab_size}"
            )));
        }
        let err = |e: tokenizers::Error| Error::Tokenizer(format!("train BPE: {e}"));
        let specials: Vec<AddedToken> =
            SPECIAL_TOKENS.iter().map(|s| AddedToken::from(s.to_string(), true)).collect();
        let split = Split::new(
            SplitPattern::Regex(BPE_SPLIT_PATTERN.into()),
            SplitDelimiterBehavior::Isolated,
            false,
        )
        .map_err(err)?;
        let byte_level = ByteLevel::new(false, false, false);
        let mut tok = tokenizers::Tokenizer::new(BPE::default());
        tok.with_pre_tokenizer(Some(Sequence::new(vec![split.into(), byte_level.into()])));
        tok.with_decoder(Some(byte_level));
        tok.add_special_tokens(specials.clone()).map_err(err)?;
        let mut trainer = tokenizers::models::TrainerWrapper::BpeTrainer(
            BpeTrainer::builder()
                .vocab_size(vocab_size)
                .show_progress(false)
                .special_tokens(specials)
                .initial_alphabet(ByteLevel::alphabet().into_iter().collect())
                .build(),
        );
        tok.train(&mut trainer, texts.iter()).map_err(err)?;
        Ok(Tokenizer::Hf(Box::new(tok)))
    }
}

/// GPT-2's reversible map from bytes to printable characters (used by byte-level BPE).
pub fn byte_to_char() -> [char; 256] {
    let mut printable: Vec<u32> = (b'!' as u32..=b'~' as u32).chain(0xA1..=0xAC).chain(0xAE..=0xFF).collect();
    let mut chars: Vec<u32> = printable.clone();
    let mut n = 0;
    for b in 0..256u32 {
        if !printable.contains(&b) {
            printable.push(b);
            chars.push(256 + n);
            n += 1;
        }
    }
    let mut table = ['\0'; 256];
    for (b, c) in printable.into_iter().zip(chars) {
        table[b as usize] = char::from_u32(c).expect("valid char");
    }
    table
}

/// A Hugging Face `tokenizer.json` equivalent to [`Tokenizer::Bytes`].
fn byte_tokenizer_json() -> serde_json::Value {
    let table = byte_to_char();
    let vocab: serde_json::Map<String, serde_json::Value> =
        (0..256).map(|b| (table[b].to_string(), serde_json::json!(b))).collect();
    let added: Vec<serde_json::Value> = SPECIAL_TOKENS
        .iter()
        .enumerate()
        .map(|(i, s)| {
            serde_json::json!({"id": 256 + i, "content": s, "single_word": false, "lstrip": false,
                "rstrip": false, "normalized": false, "special": true})
        })
        .collect();
    serde_json::json!({
        "version": "1.0",
        "truncation": null,
        "padding": null,
        "added_tokens": added,
        "normalizer": null,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": false, "use_regex": false},
        "post_processor": null,
        "decoder": {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": false, "use_regex": false},
        "model": {"type": "BPE", "dropout": null, "unk_token": null, "continuing_subword_prefix": null,
            "end_of_word_suffix": null, "fuse_unk": false, "byte_fallback": false, "ignore_merges": false,
            "vocab": vocab, "merges": []}
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_tokenizer_round_trips_any_text() {
        let tok = Tokenizer::bytes();
        for text in ["", "a<b <|im_end", "<|im_start|>user\nhi ☃<|im_end|>\n", "<<|pad>"] {
            let ids = tok.encode(text).unwrap();
            assert_eq!(tok.decode(&ids, false).unwrap(), text);
        }
        assert_eq!(tok.encode("<|im_end|>x").unwrap(), vec![258, b'x' as u32]);
        assert_eq!(tok.encode("<pad><|endoftext|>").unwrap(), vec![259, 256]);
    }

    #[test]
    fn trained_bpe_is_deterministic_and_round_trips() {
        let corpus: Vec<String> = (0..200)
            .map(|i| {
                format!(
                    "<|im_start|>user\nDecrypt this message, shifted by {i}: KHOOR ZRUOG<|im_end|>\n\
                     <|im_start|>assistant\n<answer>HELLO WORLD</answer><|im_end|>"
                )
            })
            .collect();
        let a = Tokenizer::train_bpe(&corpus, 300).unwrap();
        let b = Tokenizer::train_bpe(&corpus, 300).unwrap();
        assert_eq!(a.to_json().unwrap(), b.to_json().unwrap());
        assert_eq!(a.vocab_size(), 300);
        let text = &corpus[7];
        let ids = a.encode(text).unwrap();
        assert!(ids.len() * 2 < text.len(), "{} tokens for {} bytes", ids.len(), text.len());
        assert_eq!(a.decode(&ids, false).unwrap(), *text);
        assert_eq!(a.token_id("<|im_end|>"), Some(2));
        // Capitals and digits stay one token each; unseen text still encodes (byte fallback).
        let caps = a.encode("KHOOR 42").unwrap();
        assert_eq!(caps.len(), 8);
        for unseen in ["ünïcödé ☃ \u{0}", "", "<|im_start|>"] {
            assert_eq!(a.decode(&a.encode(unseen).unwrap(), false).unwrap(), unseen);
        }
        // Reloaded from its tokenizer.json it encodes the same.
        let c = Tokenizer::from_json(&a.to_json().unwrap()).unwrap();
        assert_eq!(c.encode(text).unwrap(), ids);
        assert!(Tokenizer::train_bpe(&corpus, 100).is_err());
    }

    #[test]
    fn byte_tokenizer_json_encodes_like_the_byte_tokenizer() {
        let ours = Tokenizer::bytes();
        let hf = Tokenizer::from_json(&ours.to_json().unwrap()).unwrap();
        assert_eq!(hf.vocab_size(), 260);
        for text in ["hello world", " two  spaces\tand tab\n", "ünïcödé ☃ 🙂", "<|im_start|>a<|im_end|>"]
        {
            let (a, b) = (ours.encode(text).unwrap(), hf.encode(text).unwrap());
            assert_eq!(a, b, "{text:?}");
            assert_eq!(hf.decode(&b, false).unwrap(), text);
        }
    }
}
