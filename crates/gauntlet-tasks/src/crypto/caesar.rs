//! Caesar cipher: decrypt a message shifted by an unknown amount.
//!
//! **Generates** a plaintext of common English words, a shift in `1..=25`, and shows the
//! ciphertext. At levels 1–2 the shift is given; from level 3 it is hidden and must be found
//! (the plaintext words come from a fixed vocabulary listed in the prompt, so the decryption is
//! unique: the generator checks that exactly one shift yields vocabulary words only).
//!
//! **Verifies** the answer by case- and whitespace-insensitive comparison with the plaintext.
//! Any valid decryption is the same string, so this is a validity check, not a stored-string
//! match. Scoring is 0/1 (see [`score_plaintext`](crate::crypto::text::score_plaintext)): credit
//! for words in place would pay a constant answer such as `THE THE THE`.
//!
//! | level | words | shift shown |
//! |---|---|---|
//! | 1 | 3 | yes |
//! | 2 | 5 | yes |
//! | 3 | 5 | no |
//! | 4 | 8 | no |
//! | 5 | 12 | no |
//!
//! **Example**: `KHOOR ZRUOG` with shift 3 → `HELLO WORLD`.
//!
//! **Failure modes**: punctuation or digits in the answer make it unparsable; extra words make it
//! wrong.

use crate::crypto::words::{is_vocab, VOCAB};
use crate::overrides::{Overridable, Overrides};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Caesar cipher family.
pub struct Caesar;

/// One Caesar problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CaesarProblem {
    /// Uppercase ciphertext, words separated by single spaces.
    pub ciphertext: String,
    /// The shift that was applied (plaintext + shift = ciphertext).
    pub shift: u8,
    /// Whether the prompt reveals the shift.
    pub shift_shown: bool,
}

/// Shift the letters of `s` forward by `k` (mod 26); other chars are kept.
pub fn shift_text(s: &str, k: u8) -> String {
    s.chars()
        .map(|c| if c.is_ascii_uppercase() { (b'A' + (c as u8 - b'A' + k % 26) % 26) as char } else { c })
        .collect()
}

impl Task for Caesar {
    type Problem = CaesarProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "caesar",
            category: Category::Crypto,
            description: "Decrypt a Caesar-shifted message of common English words.",
            levels: [
                "3 words, shift shown",
                "5 words, shift shown",
                "5 words, shift hidden",
                "8 words, shift hidden",
                "12 words, shift hidden",
            ],
            answer_format:
                "the decrypted message in capital letters, words separated by spaces, e.g. `MEET AT NOON`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> CaesarProblem {
        self.sample_with(rng, d, &Overrides::NONE)
    }

    fn prompt(&self, p: &CaesarProblem) -> String {
        let key = if p.shift_shown {
            format!(
                "Each letter was shifted forward by {} positions in the alphabet (wrapping Z to A).",
                p.shift
            )
        } else {
            format!(
                "Each letter was shifted forward by the same unknown number of positions (wrapping Z to A). \
                 Every word of the message is one of: {}.",
                VOCAB.join(", ")
            )
        };
        format!(
            "Decrypt this Caesar cipher.\n{key}\n\nCiphertext: {}\n\n{}",
            p.ciphertext,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &CaesarProblem) -> String {
        shift_text(&p.ciphertext, 26 - p.shift % 26)
    }

    fn verify(&self, p: &CaesarProblem, answer: &str) -> Score {
        crate::crypto::text::score_plaintext(&self.solve(p), answer)
    }
}

impl Overridable for Caesar {
    /// `words` (of the message) and `rotation` (the shift's range); the level keeps whether the
    /// shift is shown.
    fn sample_with(&self, rng: &mut Rng, d: Difficulty, o: &Overrides) -> CaesarProblem {
        let words = o.draw("words", rng).map_or(d.pick([3, 5, 5, 8, 12]), |w| w as usize);
        let rotation = o.range("rotation");
        let shift_shown = d.level() <= 2;
        loop {
            let plain: Vec<&str> = (0..words).map(|_| *rng.choose(VOCAB).unwrap()).collect();
            let plain = plain.join(" ");
            let shift = match rotation {
                Some((lo, hi)) if lo == hi => lo as u8,
                Some((lo, hi)) => rng.range(lo, hi) as u8,
                None => 1 + rng.below(25) as u8,
            };
            let ciphertext = shift_text(&plain, shift);
            // Unique decryption: exactly one shift maps every word into the vocabulary.
            let ok_shifts =
                (0..26u8).filter(|k| shift_text(&ciphertext, 26 - k).split(' ').all(is_vocab)).count();
            if shift_shown || ok_shifts == 1 {
                return CaesarProblem { ciphertext, shift, shift_shown };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_from_the_docs() {
        assert_eq!(shift_text("HELLO WORLD", 3), "KHOOR ZRUOG");
        let p = CaesarProblem { ciphertext: "KHOOR ZRUOG".into(), shift: 3, shift_shown: true };
        assert!(Caesar.verify(&p, "hello   world").correct);
        assert!(!Caesar.verify(&p, "HELLO").correct);
        assert_eq!(Caesar.verify(&p, "HELLO").reward, 0.0);
        assert_eq!(Caesar.verify(&p, "HELLO HELLO").reward, 0.0);
    }
}
