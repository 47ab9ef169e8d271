//! Playfair: decrypt digraphs enciphered with a 5×5 keyword square.
//!
//! **Generates** a plaintext of vocabulary words without `J` whose letter stream splits into
//! pairs with no doubled letter and has even length (so no filler `X` is inserted and the
//! decryption is exactly the plaintext, never ambiguous), and a keyword. The 5×5 square is the
//! keyword's letters followed by the rest of the alphabet, without `J`. At levels 1–2 the square
//! is printed; from level 3 only the keyword is given and the solver builds the square.
//!
//! **Verifies** the answer letter by letter against the plaintext
//! ([`score_letters`](crate::crypto::classical::score_letters): spaces and case ignored, any
//! non-letter unparsable). Playfair is a bijection on such digraphs, so decryption is unique. 0/1.
//!
//! | level | words | square |
//! |---|---|---|
//! | 1 | 2 | shown |
//! | 2 | 3 | shown |
//! | 3 | 4 | keyword only |
//! | 4 | 6 | keyword only |
//! | 5 | 9 | keyword only |
//!
//! Level 5 is hard for frontier models: building the square from the keyword and applying the
//! three digraph rules in reverse over some 22 pairs, where each rule is easy to misapply.
//!
//! **Example**: keyword `PLAYFAIR EXAMPLE`: `BMODZBXDNABEKUDMUIXMMOUVIF` → `HIDETHEGOLDINTHETREXESTUMP`.
//!
//! **Failure modes**: digits or punctuation are unparsable; any wrong letter is wrong.

use crate::crypto::classical::{letters, plaintext, playfair, playfair_square, score_letters};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Playfair family.
pub struct Playfair;

/// One problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PlayfairProblem {
    /// Uppercase ciphertext letters.
    pub ciphertext: String,
    /// The keyword.
    pub key: String,
    /// Whether the prompt prints the square.
    pub square_shown: bool,
}

const KEYS: &[&str] = &[
    "MONARCHY",
    "KEYWORD",
    "CIPHER",
    "SECRET",
    "PLAYFAIR",
    "WHEATSTONE",
    "BALLOON",
    "GALAXY",
    "HARBOUR",
    "QUARTZ",
    "VELVET",
    "LANTERN",
];

/// Whether a letter stream can be enciphered without fillers: even length, no `J`, no doubled pair.
fn clean(p: &[u8]) -> bool {
    p.len().is_multiple_of(2) && !p.contains(&b'J') && p.chunks(2).all(|c| c[0] != c[1])
}

fn square_text(sq: &[u8]) -> String {
    sq.chunks(5)
        .map(|r| r.iter().map(|&c| (c as char).to_string()).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

impl Task for Playfair {
    type Problem = PlayfairProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "playfair",
            category: Category::Crypto,
            description: "Decrypt a Playfair cipher from its keyword (square shown at the easy levels).",
            levels: [
                "2 words, square shown",
                "3 words, square shown",
                "4 words, keyword only",
                "6 words, keyword only",
                "9 words, keyword only",
            ],
            answer_format: "the decrypted message in capital letters (spaces optional), e.g. `MEET AT NOON`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> PlayfairProblem {
        let words = d.pick([2, 3, 4, 6, 9]);
        let key = rng.choose(KEYS).copied().unwrap_or("MONARCHY").to_string();
        let sq = playfair_square(&key);
        loop {
            let p = letters(&plaintext(rng, words));
            if clean(&p) {
                let c = playfair(&p, &sq, 1);
                return PlayfairProblem {
                    ciphertext: String::from_utf8(c).unwrap_or_default(),
                    key,
                    square_shown: d.level() <= 2,
                };
            }
        }
    }

    fn prompt(&self, p: &PlayfairProblem) -> String {
        let sq = playfair_square(&p.key);
        let square =
            if p.square_shown { format!("\n\nThe square:\n{}", square_text(&sq)) } else { String::new() };
        format!(
            "Decrypt this Playfair cipher. The 5×5 square holds the letters of the keyword {} (repeats \
             dropped) followed by the rest of the alphabet in order, without J, filled row by row.{square}\n\n\
             The message (no J, spaces removed) was split into pairs of different letters, and each pair \
             was enciphered: letters in the same row are replaced by the letters to their right (wrapping \
             around), letters in the same column by the letters below them (wrapping around), and \
             otherwise each letter is replaced by the letter in its own row and the other letter's \
             column.\n\nCiphertext: {}\n\n{}",
            p.key,
            p.ciphertext,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &PlayfairProblem) -> String {
        String::from_utf8(playfair(&letters(&p.ciphertext), &playfair_square(&p.key), 4)).unwrap_or_default()
    }

    fn verify(&self, p: &PlayfairProblem, answer: &str) -> Score {
        let c = letters(&p.ciphertext);
        if c.is_empty() || c.len() != p.ciphertext.len() || !clean(&c) {
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
        let p = PlayfairProblem {
            ciphertext: "BMODZBXDNABEKUDMUIXMMOUVIF".into(),
            key: "PLAYFAIR EXAMPLE".into(),
            square_shown: false,
        };
        assert_eq!(Playfair.solve(&p), "HIDETHEGOLDINTHETREXESTUMP");
        assert!(Playfair.verify(&p, "hide the gold in the trexestump").correct);
        assert!(!Playfair.verify(&p, "HIDE THE GOLD IN THE TREE STUMP").correct);
        assert!(Playfair.verify(&p, "HIDE, THE").is_format_error());
        for d in Difficulty::all() {
            for seed in 0..10 {
                let p = Playfair.generate(seed, d);
                assert!(Playfair.verify(&p, &Playfair.solve(&p)).correct);
            }
        }
    }
}
