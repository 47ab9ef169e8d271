//! Atbash: decrypt a message whose alphabet was reversed (A↔Z, B↔Y, …).
//!
//! **Generates** a plaintext of vocabulary words and applies Atbash. Atbash has no key, so the
//! ladder is the message length and its layout: word spaces are kept up to level 3 and removed at
//! levels 4–5 (the answer may then be written with or without spaces).
//!
//! **Verifies** the answer letter by letter against the plaintext
//! ([`score_letters`](crate::crypto::classical::score_letters): spaces and case ignored, any
//! non-letter unparsable). The decryption is unique (Atbash is an involution). 0/1.
//!
//! | level | words | spaces |
//! |---|---|---|
//! | 1 | 3 | kept |
//! | 2 | 6 | kept |
//! | 3 | 10 | kept |
//! | 4 | 14 | removed |
//! | 5 | 24 | removed |
//!
//! Level 5 is hard for frontier models: 130-odd letters without spaces must be mapped one by one;
//! tokenisers split the ciphertext into arbitrary chunks and any dropped or doubled letter fails.
//!
//! **Example**: `GSV JFRXP ULC` → `THE QUICK FOX`.
//!
//! **Failure modes**: digits or punctuation are unparsable; a missing, extra or wrong letter is
//! wrong.

use crate::crypto::classical::{map_letters, plaintext, score_letters};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Atbash family.
pub struct Atbash;

/// One problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AtbashProblem {
    /// Uppercase ciphertext (with or without word spaces).
    pub ciphertext: String,
}

/// Atbash of the letters of `s` (its own inverse).
pub fn atbash(s: &str) -> String {
    map_letters(s, |x| 25 - x)
}

impl Task for Atbash {
    type Problem = AtbashProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "atbash",
            category: Category::Crypto,
            description:
                "Decrypt an Atbash cipher (reversed alphabet), long messages without spaces at the top.",
            levels: [
                "3 words",
                "6 words",
                "10 words",
                "14 words, spaces removed",
                "24 words, spaces removed",
            ],
            answer_format: "the decrypted message in capital letters (spaces optional), e.g. `MEET AT NOON`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> AtbashProblem {
        let words = d.pick([3, 6, 10, 14, 24]);
        let mut p = plaintext(rng, words);
        if d.level() >= 4 {
            p.retain(|c| c != ' ');
        }
        AtbashProblem { ciphertext: atbash(&p) }
    }

    fn prompt(&self, p: &AtbashProblem) -> String {
        format!(
            "Decrypt this Atbash cipher: each letter was replaced by the letter at the same position from \
             the other end of the alphabet (A↔Z, B↔Y, C↔X, …).\n\nCiphertext: {}\n\n{}",
            p.ciphertext,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &AtbashProblem) -> String {
        atbash(&p.ciphertext)
    }

    fn verify(&self, p: &AtbashProblem, answer: &str) -> Score {
        if p.ciphertext.is_empty() {
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
        let p = AtbashProblem { ciphertext: "GSV JFRXP ULC".into() };
        assert_eq!(Atbash.solve(&p), "THE QUICK FOX");
        assert!(Atbash.verify(&p, "thequickfox").correct);
        assert!(!Atbash.verify(&p, "THE QUICK BOX").correct);
        assert!(!Atbash.verify(&p, "GSV JFRXP ULC").correct);
        assert!(Atbash.verify(&p, "THE QUICK FOX.").is_format_error());
    }
}
