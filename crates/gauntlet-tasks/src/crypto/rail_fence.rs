//! Rail fence: decrypt a zigzag transposition of the message's letters.
//!
//! **Generates** a plaintext of vocabulary words, drops the spaces, writes the letters in a
//! zigzag over `r` rails and reads the rails top to bottom. At levels 1–3 the number of rails is
//! shown; at levels 4–5 it is hidden (a range is given) and the prompt lists the vocabulary: the
//! generator checks that exactly one rail count in the range yields a text that splits into
//! vocabulary words, so the decryption is unique.
//!
//! **Verifies** the answer letter by letter against the plaintext
//! ([`score_letters`](crate::crypto::classical::score_letters): spaces and case ignored, so the
//! answer may be written with or without word breaks; any non-letter unparsable). 0/1.
//!
//! | level | words | rails |
//! |---|---|---|
//! | 1 | 3 | 2, shown |
//! | 2 | 4 | 3, shown |
//! | 3 | 6 | 4–5, shown |
//! | 4 | 6 | 2–6, hidden |
//! | 5 | 10 | 3–8, hidden |
//!
//! Level 5 is hard for frontier models: for each candidate rail count the rail lengths must be
//! computed and the zigzag re-threaded over 50-odd letters without an index slip.
//!
//! **Example**: 3 rails: `WECRLTEERDSOEEFEAOCAIVDEN` → `WEAREDISCOVEREDFLEEATONCE`.
//!
//! **Failure modes**: digits or punctuation are unparsable; any misplaced letter is wrong.

use crate::crypto::classical::{letters, plaintext, rail_decrypt, rail_encrypt, score_letters, segmentable};
use crate::crypto::words::VOCAB;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The rail-fence family.
pub struct RailFence;

/// One problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RailFenceProblem {
    /// Uppercase ciphertext letters, no spaces.
    pub ciphertext: String,
    /// Number of rails.
    pub rails: u8,
    /// Smallest and largest rail count the prompt allows when the count is hidden.
    pub range: (u8, u8),
    /// Whether the prompt shows the rail count.
    pub shown: bool,
}

fn decrypt(c: &str, rails: usize) -> Vec<u8> {
    rail_decrypt(&letters(c), rails)
}

impl Task for RailFence {
    type Problem = RailFenceProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "rail_fence",
            category: Category::Crypto,
            description: "Decrypt a rail-fence (zigzag) transposition, rail count shown or hidden.",
            levels: [
                "3 words, 2 rails shown",
                "4 words, 3 rails shown",
                "6 words, 4-5 rails shown",
                "6 words, 2-6 rails hidden",
                "10 words, 3-8 rails hidden",
            ],
            answer_format: "the decrypted message in capital letters (spaces optional), e.g. `MEET AT NOON`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> RailFenceProblem {
        let (words, lo, hi) = d.pick([(3, 2, 2), (4, 3, 3), (6, 4, 5), (6, 2, 6), (10, 3, 8)]);
        let shown = d.level() <= 3;
        loop {
            let p = letters(&plaintext(rng, words));
            let rails = lo + rng.index(hi - lo + 1);
            let c = rail_encrypt(&p, rails);
            let ciphertext = String::from_utf8(c).unwrap_or_default();
            let ok = shown || (lo..=hi).filter(|&r| segmentable(&decrypt(&ciphertext, r))).count() == 1;
            if ok && ciphertext.len() > 2 * rails {
                return RailFenceProblem {
                    ciphertext,
                    rails: rails as u8,
                    range: (lo as u8, hi as u8),
                    shown,
                };
            }
        }
    }

    fn prompt(&self, p: &RailFenceProblem) -> String {
        let key = if p.shown {
            format!("The message was written on {} rails.", p.rails)
        } else {
            format!(
                "The number of rails is unknown, between {} and {}. The message is a sequence of these words: {}.",
                p.range.0,
                p.range.1,
                VOCAB.join(", ")
            )
        };
        format!(
            "Decrypt this rail fence cipher. The letters of the message (spaces removed) were written in a \
             zigzag down and up across the rails, starting on the top rail, and the ciphertext reads the \
             top rail left to right, then the next rail, and so on.\n{key}\n\nCiphertext: {}\n\n{}",
            p.ciphertext,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &RailFenceProblem) -> String {
        String::from_utf8(decrypt(&p.ciphertext, p.rails.max(2) as usize)).unwrap_or_default()
    }

    fn verify(&self, p: &RailFenceProblem, answer: &str) -> Score {
        if p.rails < 2 || p.ciphertext.is_empty() {
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
        let p = RailFenceProblem {
            ciphertext: "WECRLTEERDSOEEFEAOCAIVDEN".into(),
            rails: 3,
            range: (3, 3),
            shown: true,
        };
        assert_eq!(RailFence.solve(&p), "WEAREDISCOVEREDFLEEATONCE");
        assert!(RailFence.verify(&p, "we are discovered flee at once").correct);
        assert!(!RailFence.verify(&p, "WE ARE DISCOVERED FLEE AT ONCE NOW").correct);
        assert!(!RailFence.verify(&p, "WECRLTEERDSOEEFEAOCAIVDEN").correct);
        assert!(RailFence.verify(&p, "WE ARE 1").is_format_error());
    }

    #[test]
    fn hidden_rail_counts_are_unique() {
        for seed in 0..20 {
            let p = RailFence.generate(seed, Difficulty::new(5).unwrap());
            let n =
                (p.range.0..=p.range.1).filter(|&r| segmentable(&decrypt(&p.ciphertext, r as usize))).count();
            assert_eq!(n, 1);
            assert!(RailFence.verify(&p, &RailFence.solve(&p)).correct);
        }
    }
}
