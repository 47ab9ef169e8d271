//! Vigenère cipher: decrypt a message enciphered with a repeating key.
//!
//! **Generates** a plaintext of common English words and a random key of letters `B`–`Z` (so
//! every letter moves), and shows the ciphertext: the i-th *letter* of the message (spaces are
//! kept and skipped) is shifted forward by the alphabet index (A=0 … Z=25) of key letter
//! `i mod key length`. At levels 1–4 the key is given. At level 5 it is hidden; the prompt gives
//! its length and, as a known-plaintext crib, the first words of the message, which cover at least
//! as many letters as the key has: every key letter is then `cipher − plain` at its position.
//!
//! **Verifies** the answer by case- and whitespace-insensitive comparison with the plaintext.
//! Decryption with a known key is a bijection, and at level 5 the crib fixes every key letter, so
//! the plaintext is unique: any valid decryption is this string, and the comparison is a
//! validity check, not a stored-string match. Scoring is 0/1: word-by-position credit would pay a
//! constant answer (`THE THE THE …`).
//!
//! | level | words | key length | key |
//! |---|---|---|---|
//! | 1 | 3 | 3 | shown |
//! | 2 | 5 | 4 | shown |
//! | 3 | 6 | 5 | shown |
//! | 4 | 8 | 7 | shown |
//! | 5 | 10 | 5 | hidden; length and the leading words (≥ 5 letters) shown |
//!
//! **Example**: `HELLO WORLD` with key `BC` → `IGMNP YPTMF`.
//!
//! **Failure modes**: advancing the key on spaces, shifting the wrong way (encrypting again),
//! and at level 5 using the crib but not repeating the recovered key.

use crate::crypto::text::{is_upper_text, score_plaintext};
use crate::crypto::words::VOCAB;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Vigenère cipher family.
pub struct Vigenere;

/// One Vigenère problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct VigenereProblem {
    /// Uppercase ciphertext, words separated by single spaces.
    pub ciphertext: String,
    /// The key (uppercase letters).
    pub key: String,
    /// Whether the prompt shows the key (else its length and a crib).
    pub key_shown: bool,
    /// How many leading plaintext words the prompt reveals when the key is hidden.
    pub crib_words: usize,
}

/// Apply the key to the uppercase letters of `s`: shift forward (encrypt) or, with `decrypt`,
/// backward. The key advances on letters only; other chars are kept. An empty key changes nothing.
pub fn vigenere(s: &str, key: &[u8], decrypt: bool) -> String {
    let mut j = 0;
    s.chars()
        .map(|c| {
            if !c.is_ascii_uppercase() || key.is_empty() {
                return c;
            }
            let k = key[j % key.len()].wrapping_sub(b'A') % 26;
            j += 1;
            let k = if decrypt { 26 - k } else { k };
            (b'A' + (c as u8 - b'A' + k) % 26) as char
        })
        .collect()
}

fn decrypt(p: &VigenereProblem) -> Result<String, String> {
    if !is_upper_text(&p.ciphertext) || p.key.is_empty() || !p.key.bytes().all(|b| b.is_ascii_uppercase()) {
        return Err("malformed problem: bad ciphertext or key".into());
    }
    Ok(vigenere(&p.ciphertext, p.key.as_bytes(), true))
}

impl Task for Vigenere {
    type Problem = VigenereProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "vigenere",
            category: Category::Crypto,
            description: "Decrypt a Vigenère-enciphered message of common English words.",
            levels: [
                "3 words, key of 3 letters shown",
                "5 words, key of 4 letters shown",
                "6 words, key of 5 letters shown",
                "8 words, key of 7 letters shown",
                "10 words, key of 5 letters hidden; leading words given as a crib",
            ],
            answer_format:
                "the decrypted message in capital letters, words separated by spaces, e.g. `MEET AT NOON`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> VigenereProblem {
        let words = d.pick([3, 5, 6, 8, 10]);
        let key_len = d.pick([3, 4, 5, 7, 5]);
        let key_shown = d.level() <= 4;
        let plain: Vec<&str> = (0..words).map(|_| *rng.choose(VOCAB).unwrap()).collect();
        let key: Vec<u8> = (0..key_len).map(|_| b'B' + rng.below(25) as u8).collect();
        // The shortest run of leading words that covers every key position.
        let mut crib_words = 0;
        let mut letters = 0;
        while !key_shown && letters < key_len && crib_words < words {
            letters += plain[crib_words].len();
            crib_words += 1;
        }
        VigenereProblem {
            ciphertext: vigenere(&plain.join(" "), &key, false),
            key: String::from_utf8(key).unwrap_or_default(),
            key_shown,
            crib_words,
        }
    }

    fn prompt(&self, p: &VigenereProblem) -> String {
        let rule = "Each letter of the message was shifted forward in the alphabet (wrapping Z to A) by the \
                    position of one key letter (A=0, B=1, …, Z=25). The key is repeated along the message: \
                    letter i of the message (counting letters only; spaces are kept and skipped) uses key \
                    letter i mod (key length). For example, the key BC turns HELLO WORLD into IGMNP YPTMF.";
        let key = if p.key_shown {
            format!("The key is {}.", p.key)
        } else {
            let plain = decrypt(p).unwrap_or_default();
            let crib: Vec<&str> = plain.split(' ').take(p.crib_words).collect();
            format!(
                "The key is unknown, but it has {} letters, and the message begins with the words: {}.",
                p.key.len(),
                crib.join(" ")
            )
        };
        format!(
            "Decrypt this Vigenère cipher.\n{rule}\n{key}\n\nCiphertext: {}\n\n{}",
            p.ciphertext,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &VigenereProblem) -> String {
        decrypt(p).unwrap_or_default()
    }

    fn verify(&self, p: &VigenereProblem, answer: &str) -> Score {
        match decrypt(p) {
            Ok(plain) => score_plaintext(&plain, answer),
            Err(e) => Score::wrong(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_from_the_docs() {
        assert_eq!(vigenere("HELLO WORLD", b"BC", false), "IGMNP YPTMF");
        let p = VigenereProblem {
            ciphertext: "IGMNP YPTMF".into(),
            key: "BC".into(),
            key_shown: true,
            crib_words: 0,
        };
        assert_eq!(Vigenere.solve(&p), "HELLO WORLD");
        assert!(Vigenere.verify(&p, "hello \n world").correct);
        let s = Vigenere.verify(&p, "HELLO");
        assert!(!s.correct && s.reward == 0.0);
        assert_eq!(s.reason, "1 of 2 words correct");
        assert!(Vigenere.verify(&p, " ").reason.starts_with("unparsable"));
        let bad = VigenereProblem { key: "b1".into(), ..p };
        assert!(Vigenere.verify(&bad, "HELLO WORLD").reason.starts_with("malformed"));
    }

    #[test]
    fn the_crib_fixes_the_key_at_level_5() {
        for seed in 0..20 {
            let p = Vigenere.generate(seed, Difficulty::new(5).unwrap());
            assert!(!p.key_shown);
            let plain = Vigenere.solve(&p);
            let crib: String = plain.split(' ').take(p.crib_words).collect();
            assert!(crib.len() >= p.key.len());
            let ct: Vec<u8> = p.ciphertext.bytes().filter(|b| *b != b' ').collect();
            let recovered: Vec<u8> =
                (0..p.key.len()).map(|i| b'A' + (ct[i] + 26 - crib.as_bytes()[i]) % 26).collect();
            assert_eq!(recovered, p.key.as_bytes());
            assert!(Vigenere.prompt(&p).contains(&format!(
                "begins with the words: {}.",
                plain.split(' ').take(p.crib_words).collect::<Vec<_>>().join(" ")
            )));
        }
    }
}
