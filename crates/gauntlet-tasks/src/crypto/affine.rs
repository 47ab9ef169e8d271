//! Affine cipher: decrypt a message enciphered letter by letter with `x ↦ a·x + b (mod 26)`.
//!
//! **Generates** a plaintext of vocabulary words and a key (`a` coprime to 26, `b` in `0..26`,
//! never the identity). At levels 1–2 the key is shown; from level 3 it is hidden and the prompt
//! lists the vocabulary; the generator checks that exactly one of the 311 non-identity keys turns
//! the ciphertext into vocabulary words only, so the decryption is unique.
//!
//! **Verifies** the answer letter by letter against the plaintext
//! ([`score_letters`](crate::crypto::classical::score_letters): spaces and case ignored, any
//! non-letter unparsable). 0/1.
//!
//! | level | words | key |
//! |---|---|---|
//! | 1 | 3 | shown |
//! | 2 | 5 | shown |
//! | 3 | 5 | hidden |
//! | 4 | 8 | hidden |
//! | 5 | 12 | hidden |
//!
//! Level 5 is hard for frontier models: recovering `a` and `b` needs a crib guess and a modular
//! inverse, then 60-odd letters decrypted exactly with `a⁻¹·(y − b)`.
//!
//! **Example**: `a = 5, b = 8`: `IHHWVC` → `AFFINE`.
//!
//! **Failure modes**: digits or punctuation are unparsable; any wrong letter is wrong.

use crate::crypto::classical::{affine_decrypt, affine_encrypt, inv26, plaintext, score_letters};
use crate::crypto::words::{is_vocab, VOCAB};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The affine-cipher family.
pub struct Affine;

/// One problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AffineProblem {
    /// Uppercase ciphertext, words separated by single spaces.
    pub ciphertext: String,
    /// Multiplier (coprime to 26).
    pub a: u8,
    /// Shift.
    pub b: u8,
    /// Whether the prompt shows the key.
    pub key_shown: bool,
}

/// Keys `(a, b)` that decrypt `c` into vocabulary words only.
fn vocab_keys(c: &str) -> usize {
    let mut n = 0;
    for a in (1..26).filter(|&a| inv26(a).is_some()) {
        for b in 0..26 {
            if affine_decrypt(c, a, b).split(' ').all(is_vocab) {
                n += 1;
            }
        }
    }
    n
}

impl Task for Affine {
    type Problem = AffineProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "affine",
            category: Category::Crypto,
            description: "Decrypt an affine cipher (x -> a*x + b mod 26), key shown or hidden.",
            levels: [
                "3 words, key shown",
                "5 words, key shown",
                "5 words, key hidden",
                "8 words, key hidden",
                "12 words, key hidden",
            ],
            answer_format:
                "the decrypted message in capital letters, words separated by spaces, e.g. `MEET AT NOON`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> AffineProblem {
        let words = d.pick([3, 5, 5, 8, 12]);
        let key_shown = d.level() <= 2;
        let units = [1, 3, 5, 7, 9, 11, 15, 17, 19, 21, 23, 25];
        loop {
            let a = *rng.choose(&units).unwrap_or(&5);
            let b = rng.below(26) as i64;
            if a == 1 && b == 0 {
                continue;
            }
            let ciphertext = affine_encrypt(&plaintext(rng, words), a, b);
            if key_shown || vocab_keys(&ciphertext) == 1 {
                return AffineProblem { ciphertext, a: a as u8, b: b as u8, key_shown };
            }
        }
    }

    fn prompt(&self, p: &AffineProblem) -> String {
        let key = if p.key_shown {
            format!("The key is a = {}, b = {}.", p.a, p.b)
        } else {
            format!(
                "The key (a, b) is unknown, with a coprime to 26. Every word of the message is one of: {}.",
                VOCAB.join(", ")
            )
        };
        format!(
            "Decrypt this affine cipher. Letters are numbered A=0 … Z=25 and each plaintext letter x was \
             replaced by the letter (a·x + b) mod 26; spaces were kept.\n{key}\n\nCiphertext: {}\n\n{}",
            p.ciphertext,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &AffineProblem) -> String {
        affine_decrypt(&p.ciphertext, p.a as i64, p.b as i64)
    }

    fn verify(&self, p: &AffineProblem, answer: &str) -> Score {
        if inv26(p.a as i64).is_none() {
            return Score::wrong("malformed problem");
        }
        score_letters(&self.solve(p), answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_and_near_misses() {
        let p = AffineProblem { ciphertext: affine_encrypt("QUICK FOX", 5, 8), a: 5, b: 8, key_shown: true };
        assert_eq!(Affine.solve(&p), "QUICK FOX");
        assert!(Affine.verify(&p, "quick fox").correct);
        assert!(Affine.verify(&p, "QUICKFOX").correct);
        assert!(!Affine.verify(&p, "QUICK BOX").correct);
        assert!(!Affine.verify(&p, "QUICK").correct);
        assert!(Affine.verify(&p, "QUICK FOX/BOX").is_format_error());
        assert!(Affine.verify(&p, "QUICK FOX 1").is_format_error());
    }

    #[test]
    fn hidden_keys_are_unique() {
        for seed in 0..20 {
            let p = Affine.generate(seed, Difficulty::new(3).unwrap());
            assert_eq!(vocab_keys(&p.ciphertext), 1);
            assert!(Affine.verify(&p, &Affine.solve(&p)).correct);
        }
    }
}
