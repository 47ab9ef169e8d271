//! Columnar transposition: decrypt a message written in rows under a keyword and read by columns.
//!
//! **Generates** a plaintext of vocabulary words whose letter count is a multiple of the key
//! length (so the rectangle is full and no padding has to be guessed), and a keyword of distinct
//! letters. The letters are written row by row under the keyword and the columns are read in the
//! alphabetical order of the keyword's letters. The keyword is shown, so decryption is unique.
//!
//! **Verifies** the answer letter by letter against the plaintext
//! ([`score_letters`](crate::crypto::classical::score_letters): spaces and case ignored, any
//! non-letter unparsable). 0/1.
//!
//! | level | words | key length |
//! |---|---|---|
//! | 1 | 3 | 3 |
//! | 2 | 4 | 4 |
//! | 3 | 6 | 5 |
//! | 4 | 8 | 6 |
//! | 5 | 12 | 7 |
//!
//! Level 5 is hard for frontier models: a 7-column key over 60-odd letters means splitting the
//! ciphertext into columns of exactly the right length, ordering them by the key and reading 9 or
//! more rows across without a slip.
//!
//! **Example**: key `ZEBRAS`, ciphertext `EVLNACDTESEAROFODEECWIRE` → `WEAREDISCOVEREDFLEEATONC`.
//!
//! **Failure modes**: digits or punctuation are unparsable; any misplaced letter is wrong.

use crate::crypto::classical::{columnar_decrypt, columnar_encrypt, letters, plaintext, score_letters};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The columnar-transposition family.
pub struct ColumnarTransposition;

/// One problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ColumnarProblem {
    /// Uppercase ciphertext letters.
    pub ciphertext: String,
    /// The keyword (distinct uppercase letters).
    pub key: String,
}

const KEYS: &[&str] = &[
    "CAT", "DOG", "SUN", "ORB", "KEY", "MAP", "FOX", "OWL", "BEAR", "LAMP", "WOLF", "KING", "FROG", "MINT",
    "PLANT", "STONE", "CHAIR", "GHOST", "TRAIN", "MOUSE", "CASTLE", "GARDEN", "PLANET", "BRIDGE", "ISLAND",
    "SILVER", "WINTER", "KINGDOM", "HISTORY", "PICTURE", "JOURNEY", "PROBLEM",
];

fn valid_key(k: &str) -> bool {
    let b = k.as_bytes();
    !b.is_empty() && b.iter().all(u8::is_ascii_uppercase) && (0..b.len()).all(|i| !b[..i].contains(&b[i]))
}

impl Task for ColumnarTransposition {
    type Problem = ColumnarProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "columnar_transposition",
            category: Category::Crypto,
            description: "Decrypt a columnar transposition under a shown keyword.",
            levels: [
                "3 words, key of 3",
                "4 words, key of 4",
                "6 words, key of 5",
                "8 words, key of 6",
                "12 words, key of 7",
            ],
            answer_format: "the decrypted message in capital letters (spaces optional), e.g. `MEET AT NOON`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> ColumnarProblem {
        let (words, k) = d.pick([(3, 3), (4, 4), (6, 5), (8, 6), (12, 7)]);
        let keys: Vec<&str> = KEYS.iter().copied().filter(|x| x.len() == k && valid_key(x)).collect();
        let key = rng.choose(&keys).copied().unwrap_or("CAT").to_string();
        loop {
            let p = letters(&plaintext(rng, words));
            if p.len().is_multiple_of(k) {
                let c = columnar_encrypt(&p, key.as_bytes());
                return ColumnarProblem { ciphertext: String::from_utf8(c).unwrap_or_default(), key };
            }
        }
    }

    fn prompt(&self, p: &ColumnarProblem) -> String {
        let k = p.key.len().max(1);
        format!(
            "Decrypt this columnar transposition cipher. The letters of the message (spaces removed) were \
             written row by row, left to right, in a grid of {k} columns headed by the letters of the \
             keyword {}; every row is full. The ciphertext reads the columns top to bottom, taking the \
             columns in the alphabetical order of their keyword letters.\n\nCiphertext: {}\n\n{}",
            p.key,
            p.ciphertext,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &ColumnarProblem) -> String {
        String::from_utf8(columnar_decrypt(&letters(&p.ciphertext), p.key.as_bytes())).unwrap_or_default()
    }

    fn verify(&self, p: &ColumnarProblem, answer: &str) -> Score {
        if !valid_key(&p.key) || p.ciphertext.is_empty() || !p.ciphertext.len().is_multiple_of(p.key.len()) {
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
        let p = ColumnarProblem { ciphertext: "EVLNACDTESEAROFODEECWIRE".into(), key: "ZEBRAS".into() };
        assert_eq!(ColumnarTransposition.solve(&p), "WEAREDISCOVEREDFLEEATONC");
        assert!(ColumnarTransposition.verify(&p, "we are discovered flee at onc").correct);
        assert!(!ColumnarTransposition.verify(&p, "WE ARE DISCOVERED FLEE AT ONCE").correct);
        assert!(ColumnarTransposition.verify(&p, "WE-ARE").is_format_error());
        assert!(KEYS.iter().all(|k| valid_key(k)));
    }
}
