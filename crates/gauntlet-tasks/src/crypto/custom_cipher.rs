//! Custom cipher: follow a made-up cipher described in words, forwards or backwards.
//!
//! **Generates** a cipher as a pipeline of one to four invertible steps drawn from a pool (shift
//! every letter by `k`; shift the letter at position `i` of each word by `i`; replace each letter
//! by its mirror in the alphabet; reverse each word; reverse the order of the words; swap the
//! letters of each word in adjacent pairs; move the first letter of each word to its end; cycle the
//! vowels a→e→i→o→u→a), each described in prose, and a message of vocabulary words. Levels 1–3
//! ask for the encryption of a plaintext; levels 4–5 give a ciphertext and ask for the plaintext,
//! which needs every step inverted in reverse order. Every step is a bijection, so the answer is
//! unique.
//!
//! **Verifies** the answer letter by letter against the exact result
//! ([`score_letters`](crate::crypto::classical::score_letters): spaces and case ignored, any
//! non-letter unparsable). 0/1.
//!
//! | level | steps | direction | words |
//! |---|---|---|---|
//! | 1 | 1 | encrypt | 3 |
//! | 2 | 2 | encrypt | 3 |
//! | 3 | 3 | encrypt | 4 |
//! | 4 | 2 | decrypt | 4 |
//! | 5 | 4 | decrypt | 5 |
//!
//! Level 5 is hard for frontier models: four letter-level steps, undone in reverse order, each
//! inverted correctly (a position-dependent shift runs backwards, the vowel cycle runs the other
//! way), over twenty-odd letters.
//!
//! **Example**: steps "reverse each word", then "shift every letter forward by 1": `THE CAT` →
//! `FIU UBD`.
//!
//! **Failure modes**: digits or punctuation are unparsable; any wrong letter is wrong.

use crate::crypto::classical::{plaintext, score_letters};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The custom-cipher family.
pub struct CustomCipher;

/// One invertible step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Step {
    /// Shift every letter forward by `k`.
    Shift(u8),
    /// Shift the letter at 0-based position `i` of each word forward by `i`.
    Progressive,
    /// A ↔ Z, B ↔ Y, ….
    Mirror,
    /// Reverse each word.
    ReverseWords,
    /// Reverse the order of the words.
    ReverseOrder,
    /// Swap letters 1↔2, 3↔4, … within each word.
    SwapPairs,
    /// Move the first letter of each word to its end.
    RotateWords,
    /// A→E→I→O→U→A.
    Vowels,
}

const VOWELS: &[u8] = b"AEIOU";

fn shift(c: u8, k: i64) -> u8 {
    b'A' + ((c - b'A') as i64 + k).rem_euclid(26) as u8
}

fn vowel(c: u8, dir: i64) -> u8 {
    match VOWELS.iter().position(|&v| v == c) {
        Some(i) => VOWELS[(i as i64 + dir).rem_euclid(5) as usize],
        None => c,
    }
}

/// Apply a step (`inverse` undoes it) to a text of uppercase words separated by single spaces.
pub fn apply(step: Step, text: &str, inverse: bool) -> String {
    let d: i64 = if inverse { -1 } else { 1 };
    let words: Vec<Vec<u8>> = text.split(' ').map(|w| w.as_bytes().to_vec()).collect();
    let out: Vec<Vec<u8>> = match step {
        Step::ReverseOrder => words.into_iter().rev().collect(),
        _ => words
            .into_iter()
            .map(|mut w| {
                match step {
                    Step::Shift(k) => w.iter_mut().for_each(|c| *c = shift(*c, d * k as i64)),
                    Step::Progressive => {
                        w.iter_mut().enumerate().for_each(|(i, c)| *c = shift(*c, d * i as i64))
                    }
                    Step::Mirror => w.iter_mut().for_each(|c| *c = b'Z' - (*c - b'A')),
                    Step::ReverseWords => w.reverse(),
                    Step::SwapPairs => w.chunks_mut(2).for_each(|c| c.reverse()),
                    Step::RotateWords if !w.is_empty() => {
                        if inverse {
                            w.rotate_right(1)
                        } else {
                            w.rotate_left(1)
                        }
                    }
                    Step::Vowels => w.iter_mut().for_each(|c| *c = vowel(*c, d)),
                    _ => {}
                }
                w
            })
            .collect(),
    };
    out.iter().map(|w| String::from_utf8_lossy(w).into_owned()).collect::<Vec<_>>().join(" ")
}

fn describe(s: Step) -> String {
    match s {
        Step::Shift(k) => format!("shift every letter forward by {k} in the alphabet (wrapping Z to A)"),
        Step::Progressive => "in each word, shift the 1st letter by 0, the 2nd by 1, the 3rd by 2, and so on (wrapping Z to A)".into(),
        Step::Mirror => "replace every letter by its mirror in the alphabet (A↔Z, B↔Y, C↔X, …)".into(),
        Step::ReverseWords => "reverse the letters of each word".into(),
        Step::ReverseOrder => "reverse the order of the words".into(),
        Step::SwapPairs => "in each word, swap the 1st and 2nd letters, the 3rd and 4th, and so on (a last unpaired letter stays)".into(),
        Step::RotateWords => "move the first letter of each word to the end of that word".into(),
        Step::Vowels => "replace each vowel by the next one in the cycle A→E→I→O→U→A (consonants stay)".into(),
    }
}

/// One problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CustomCipherProblem {
    /// The encryption steps, in order.
    pub steps: Vec<Step>,
    /// The given text: a plaintext to encrypt, or a ciphertext to decrypt.
    pub text: String,
    /// Whether the task is to decrypt.
    pub decrypt: bool,
}

fn run(p: &CustomCipherProblem) -> String {
    if p.decrypt {
        p.steps.iter().rev().fold(p.text.clone(), |t, &s| apply(s, &t, true))
    } else {
        p.steps.iter().fold(p.text.clone(), |t, &s| apply(s, &t, false))
    }
}

fn well_formed(p: &CustomCipherProblem) -> bool {
    crate::crypto::text::is_upper_text(&p.text) && !p.steps.is_empty() && p.steps.len() <= 8
}

impl Task for CustomCipher {
    type Problem = CustomCipherProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "custom_cipher",
            category: Category::Crypto,
            description: "Apply, or undo, a made-up cipher of one to four steps described in words.",
            levels: [
                "1 step, encrypt 3 words",
                "2 steps, encrypt 3 words",
                "3 steps, encrypt 4 words",
                "2 steps, decrypt 4 words",
                "4 steps, decrypt 5 words",
            ],
            answer_format: "the resulting text in capital letters, words separated by spaces, e.g. `FIU UBD`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> CustomCipherProblem {
        let (n, words) = d.pick([(1, 3), (2, 3), (3, 4), (2, 4), (4, 5)]);
        let decrypt = d.level() >= 4;
        let pool = |rng: &mut Rng| match rng.index(8) {
            0 => Step::Shift(1 + rng.below(12) as u8),
            1 => Step::Progressive,
            2 => Step::Mirror,
            3 => Step::ReverseWords,
            4 => Step::ReverseOrder,
            5 => Step::SwapPairs,
            6 => Step::RotateWords,
            _ => Step::Vowels,
        };
        loop {
            let mut steps: Vec<Step> = Vec::new();
            while steps.len() < n {
                let s = pool(rng);
                if !steps.contains(&s) {
                    steps.push(s);
                }
            }
            let plain = plaintext(rng, words);
            let cipher = steps.iter().fold(plain.clone(), |t, &s| apply(s, &t, false));
            if cipher.replace(' ', "") == plain.replace(' ', "") {
                continue;
            }
            let text = if decrypt { cipher } else { plain };
            return CustomCipherProblem { steps, text, decrypt };
        }
    }

    fn prompt(&self, p: &CustomCipherProblem) -> String {
        let mut s = String::from(
            "A cipher encrypts a message of capital letters and spaces by applying these steps in order:\n",
        );
        for (i, &st) in p.steps.iter().enumerate() {
            s += &format!("{}. {}\n", i + 1, describe(st));
        }
        if p.decrypt {
            s += &format!("\nThis ciphertext was produced by the cipher. What was the original message?\n\nCiphertext: {}\n\n", p.text);
        } else {
            s += &format!("\nEncrypt this message with the cipher.\n\nMessage: {}\n\n", p.text);
        }
        s + &self.answer_instruction()
    }

    fn solve(&self, p: &CustomCipherProblem) -> String {
        if well_formed(p) {
            run(p)
        } else {
            String::new()
        }
    }

    fn verify(&self, p: &CustomCipherProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem");
        }
        score_letters(&run(p), answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_and_inverses() {
        let p = CustomCipherProblem {
            steps: vec![Step::ReverseWords, Step::Shift(1)],
            text: "THE CAT".into(),
            decrypt: false,
        };
        let t = CustomCipher;
        assert_eq!(t.solve(&p), "FIU UBD");
        assert!(t.verify(&p, "fiu ubd").correct);
        assert!(!t.verify(&p, "FIU UBE").correct);
        assert!(t.verify(&p, "FIU-UBD").is_format_error());
        let all = [
            Step::Shift(5),
            Step::Progressive,
            Step::Mirror,
            Step::ReverseWords,
            Step::ReverseOrder,
            Step::SwapPairs,
            Step::RotateWords,
            Step::Vowels,
        ];
        for s in all {
            let c = apply(s, "QUICK BROWN FOX", false);
            assert_eq!(apply(s, &c, true), "QUICK BROWN FOX", "{s:?}");
        }
        for d in Difficulty::all() {
            for seed in 0..20 {
                let p = t.generate(seed, d);
                assert!(t.verify(&p, &t.solve(&p)).correct);
                if p.decrypt {
                    let back = p.steps.iter().fold(run(&p), |x, &s| apply(s, &x, false));
                    assert_eq!(back, p.text);
                }
            }
        }
    }
}
