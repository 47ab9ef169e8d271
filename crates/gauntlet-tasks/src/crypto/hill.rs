//! Hill cipher: decrypt pairs of letters enciphered by a 2×2 key matrix mod 26.
//!
//! **Generates** a plaintext of vocabulary words with an even number of letters and an invertible
//! key matrix `K` (determinant coprime to 26). The letters, read as one stream, are taken in pairs
//! `(x, y)` and replaced by `K·(x, y)ᵀ mod 26`; word spaces stay where they were. The prompt shows
//! the encryption matrix `K`; at levels 1–2 it also shows the decryption matrix `K⁻¹`, from level 3
//! the solver has to invert `K` mod 26 itself. The key is invertible, so decryption is unique.
//!
//! **Verifies** the answer letter by letter against the plaintext
//! ([`score_letters`](crate::crypto::classical::score_letters): spaces and case ignored, any
//! non-letter unparsable). 0/1.
//!
//! | level | words | inverse shown |
//! |---|---|---|
//! | 1 | 2 | yes |
//! | 2 | 4 | yes |
//! | 3 | 4 | no |
//! | 4 | 6 | no |
//! | 5 | 10 | no |
//!
//! Level 5 is hard for frontier models: a modular matrix inverse followed by some 25 exact 2×2
//! matrix-vector products mod 26.
//!
//! **Example**: `K = [[3, 3], [2, 5]]`: `HIAT` → `HELP`.
//!
//! **Failure modes**: digits or punctuation are unparsable; any wrong letter is wrong.

use crate::crypto::classical::{hill_apply, letters, mat_inv, plaintext, score_letters, Mat2};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Hill-cipher family.
pub struct Hill;

/// One problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HillProblem {
    /// Uppercase ciphertext, word spaces kept.
    pub ciphertext: String,
    /// The encryption matrix, row-major.
    pub key: Mat2,
    /// Whether the prompt also shows the inverse.
    pub inverse_shown: bool,
}

fn render(m: Mat2) -> String {
    format!("[[{}, {}], [{}, {}]]", m[0], m[1], m[2], m[3])
}

impl Task for Hill {
    type Problem = HillProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "hill",
            category: Category::Crypto,
            description: "Decrypt a 2x2 Hill cipher given its key matrix (inverse shown at the easy levels).",
            levels: [
                "2 words, inverse shown",
                "4 words, inverse shown",
                "4 words, invert the key",
                "6 words, invert the key",
                "10 words, invert the key",
            ],
            answer_format:
                "the decrypted message in capital letters, words separated by spaces, e.g. `MEET AT NOON`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> HillProblem {
        let words = d.pick([2, 4, 4, 6, 10]);
        let key = loop {
            let m: Mat2 = [0; 4].map(|_| rng.below(26) as i64);
            if mat_inv(m).is_some() && m != [1, 0, 0, 1] {
                break m;
            }
        };
        loop {
            let p = plaintext(rng, words);
            if letters(&p).len().is_multiple_of(2) {
                return HillProblem { ciphertext: hill_apply(&p, key), key, inverse_shown: d.level() <= 2 };
            }
        }
    }

    fn prompt(&self, p: &HillProblem) -> String {
        let inv = match mat_inv(p.key) {
            Some(m) if p.inverse_shown => format!(" Its inverse mod 26 is {}.", render(m)),
            _ => String::new(),
        };
        format!(
            "Decrypt this Hill cipher. Letters are numbered A=0 … Z=25. Ignoring spaces, the letters of the \
             message were taken in consecutive pairs (x, y), and each pair was replaced by the pair \
             K·(x, y) mod 26, i.e. (a·x + b·y, c·x + d·y) mod 26 for K = [[a, b], [c, d]]; the spaces \
             were then put back in their places. The key is K = {}.{inv}\n\nCiphertext: {}\n\n{}",
            render(p.key),
            p.ciphertext,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &HillProblem) -> String {
        mat_inv(p.key).map(|m| hill_apply(&p.ciphertext, m)).unwrap_or_default()
    }

    fn verify(&self, p: &HillProblem, answer: &str) -> Score {
        if mat_inv(p.key).is_none()
            || !letters(&p.ciphertext).len().is_multiple_of(2)
            || p.ciphertext.is_empty()
        {
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
        let p = HillProblem { ciphertext: "HIAT".into(), key: [3, 3, 2, 5], inverse_shown: false };
        assert_eq!(Hill.solve(&p), "HELP");
        assert!(Hill.verify(&p, "help").correct);
        assert!(!Hill.verify(&p, "HELL").correct);
        assert!(Hill.verify(&p, "HELP!").is_format_error());
        for seed in 0..20 {
            let p = Hill.generate(seed, Difficulty::new(5).unwrap());
            assert!(Hill.verify(&p, &Hill.solve(&p)).correct);
        }
    }
}
