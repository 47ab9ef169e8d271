//! Substitution cipher with known plaintext: learn the key from a sample, then decrypt.
//!
//! **Generates** a random one-to-one letter key, a sample message of common English words with
//! its encryption (which reveals the key for every letter in the sample), and a new message to
//! decrypt. At levels 1–3 every letter of the new ciphertext occurs in the sample, so each letter
//! decrypts by lookup. At levels 4–5 some letters do not occur in the sample; the prompt then lists
//! the vocabulary the message is drawn from, and the generator checks that every ciphertext word
//! has exactly one vocabulary word consistent with the revealed letters (known letters decrypt as
//! revealed; unknown ones to distinct letters that no revealed cipher letter already stands for,
//! the same cipher letter always to the same plain letter). One candidate per word makes the whole
//! decryption unique.
//!
//! **Verifies** the answer by case- and whitespace-insensitive comparison with the plaintext,
//! which is the only valid decryption (see above), so this is a validity check, not a
//! stored-string match. Scoring is 0/1: word-by-position credit would pay a constant answer
//! (`THE THE THE …`) or the prompt echoed inside the tags.
//!
//! | level | sample words | message words | letters missing from the sample |
//! |---|---|---|---|
//! | 1 | 6 | 3 | none |
//! | 2 | 6 | 5 | none |
//! | 3 | 5 | 6 | none |
//! | 4 | 4 | 6 | ≥ 1, vocabulary listed |
//! | 5 | 3 | 8 | ≥ 3, vocabulary listed |
//!
//! **Example**: sample `CAT DOG` → `XQV ZLM` reveals C→X, A→Q, T→V, D→Z, O→L, G→M; the ciphertext
//! `ZLM XQV` decrypts to `DOG CAT`.
//!
//! **Failure modes**: applying the key in the wrong direction (encrypting the ciphertext), and
//! at levels 4–5 guessing a word that fits the length but not the revealed letters.

use crate::crypto::text::{is_upper_text, score_plaintext};
use crate::crypto::words::VOCAB;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The substitution cipher family.
pub struct Substitution;

/// One substitution problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SubstitutionProblem {
    /// The key: 26 distinct uppercase letters, the cipher letter for A, B, …, Z in turn.
    pub key: String,
    /// The sample plaintext (uppercase words).
    pub sample: String,
    /// The message to decrypt, enciphered with `key`.
    pub ciphertext: String,
    /// Whether the prompt lists the vocabulary (levels where some letters are not in the sample).
    pub vocabulary_shown: bool,
}

/// Encipher the uppercase letters of `s` with `key` (cipher letter of A, B, … in turn).
pub fn encipher(s: &str, key: &[u8; 26]) -> String {
    s.bytes()
        .map(|b| if b.is_ascii_uppercase() { key[(b - b'A') as usize] as char } else { b as char })
        .collect()
}

/// The validated key as an array, or why not.
fn key_of(p: &SubstitutionProblem) -> Result<[u8; 26], String> {
    let bytes = p.key.as_bytes();
    let mut seen = [false; 26];
    let mut key = [0u8; 26];
    if bytes.len() != 26 || !is_upper_text(&p.sample) || !is_upper_text(&p.ciphertext) {
        return Err("malformed problem: bad key or text".into());
    }
    for (i, &b) in bytes.iter().enumerate() {
        if !b.is_ascii_uppercase() || std::mem::replace(&mut seen[(b - b'A') as usize], true) {
            return Err("malformed problem: key is not a permutation".into());
        }
        key[i] = b;
    }
    Ok(key)
}

/// The partial inverse key revealed by the sample: `known[c]` is the plain letter of cipher
/// letter `c`, or 0 when `c` does not occur in the sample's ciphertext.
fn revealed(sample: &str, key: &[u8; 26]) -> [u8; 26] {
    let mut known = [0u8; 26];
    for b in sample.bytes().filter(u8::is_ascii_uppercase) {
        known[(key[(b - b'A') as usize] - b'A') as usize] = b;
    }
    known
}

/// How many vocabulary words the cipher word `cw` can stand for, given the revealed letters.
fn candidates(cw: &[u8], known: &[u8; 26]) -> usize {
    let mut used = [false; 26];
    for &p in known.iter().filter(|&&p| p != 0) {
        used[(p - b'A') as usize] = true;
    }
    VOCAB
        .iter()
        .filter(|w| {
            let w = w.as_bytes();
            if w.len() != cw.len() {
                return false;
            }
            let (mut fwd, mut back) = ([0u8; 26], [0u8; 26]);
            cw.iter().zip(w).all(|(&c, &p)| {
                let (ci, pi) = ((c - b'A') as usize, (p - b'A') as usize);
                match known[ci] {
                    0 if used[pi] => false,
                    0 => {
                        let ok = (fwd[ci] == 0 || fwd[ci] == p) && (back[pi] == 0 || back[pi] == c);
                        (fwd[ci], back[pi]) = (p, c);
                        ok
                    }
                    k => k == p,
                }
            })
        })
        .count()
}

impl Task for Substitution {
    type Problem = SubstitutionProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "substitution",
            category: Category::Crypto,
            description: "Decrypt a substitution cipher, learning the key from a known plaintext sample.",
            levels: [
                "sample of 6 words, message of 3 words, all letters in the sample",
                "sample of 6 words, message of 5 words, all letters in the sample",
                "sample of 5 words, message of 6 words, all letters in the sample",
                "sample of 4 words, message of 6 words, at least 1 letter not in the sample, vocabulary given",
                "sample of 3 words, message of 8 words, at least 3 letters not in the sample, vocabulary given",
            ],
            answer_format: "the decrypted message in capital letters, words separated by spaces, e.g. `MEET AT NOON`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> SubstitutionProblem {
        let (sample_words, words) = (d.pick([6, 6, 5, 4, 3]), d.pick([3, 5, 6, 6, 8]));
        let min_missing = d.pick([0, 0, 0, 1, 3]);
        let mut key = [0u8; 26];
        for (k, p) in key.iter_mut().zip(rng.permutation(26)) {
            *k = b'A' + p as u8;
        }
        let draw = |rng: &mut Rng, n: usize, from: &[&'static str]| -> Vec<&'static str> {
            (0..n).map(|_| *rng.choose(from).unwrap_or(&"THE")).collect()
        };
        let mut found = None;
        for _ in 0..200 {
            let sample = draw(rng, sample_words, VOCAB).join(" ");
            let known = revealed(&sample, &key);
            let revealed_letter = |b: u8| known[(key[(b - b'A') as usize] - b'A') as usize] != 0;
            let covered = |w: &str| w.bytes().all(revealed_letter);
            let message = if min_missing == 0 {
                let pool: Vec<&str> = VOCAB.iter().copied().filter(|w| covered(w)).collect();
                if pool.len() < 4 {
                    continue;
                }
                draw(rng, words, &pool)
            } else {
                let message = draw(rng, words, VOCAB);
                let mut missing = [false; 26];
                for b in message.iter().flat_map(|w| w.bytes()).filter(|&b| !revealed_letter(b)) {
                    missing[(b - b'A') as usize] = true;
                }
                let unique = message.iter().all(|w| candidates(encipher(w, &key).as_bytes(), &known) == 1);
                if missing.iter().filter(|&&m| m).count() < min_missing || !unique {
                    continue;
                }
                message
            };
            found = Some((sample, message.join(" ")));
            break;
        }
        // Fallback (rare): the message repeats sample words, whose letters are all revealed.
        let (sample, message) = found.unwrap_or_else(|| {
            let sample = draw(rng, sample_words, VOCAB);
            let message = draw(rng, words, &sample).join(" ");
            (sample.join(" "), message)
        });
        SubstitutionProblem {
            key: String::from_utf8(key.to_vec()).unwrap_or_default(),
            ciphertext: encipher(&message, &key),
            sample,
            vocabulary_shown: min_missing > 0,
        }
    }

    fn prompt(&self, p: &SubstitutionProblem) -> String {
        let key = key_of(p).unwrap_or([b'A'; 26]);
        let hint = if p.vocabulary_shown {
            format!(
                "Some letters of the message do not occur in the sample. Every word of the message is one \
                 of: {}.",
                VOCAB.join(", ")
            )
        } else {
            "Every letter of the message's ciphertext also occurs in the sample ciphertext.".to_string()
        };
        format!(
            "Decrypt this substitution cipher. Each letter of the alphabet was replaced by a fixed letter \
             (the same plain letter always becomes the same cipher letter, and different plain letters \
             become different cipher letters); spaces are kept.\n\
             A sample message and its encryption with the same key:\n\
             Sample plaintext:  {}\nSample ciphertext: {}\n{hint}\n\nCiphertext to decrypt: {}\n\n{}",
            p.sample,
            encipher(&p.sample, &key),
            p.ciphertext,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &SubstitutionProblem) -> String {
        let Ok(key) = key_of(p) else { return String::new() };
        let mut inverse = [0u8; 26];
        for (i, &c) in key.iter().enumerate() {
            inverse[(c - b'A') as usize] = b'A' + i as u8;
        }
        encipher(&p.ciphertext, &inverse)
    }

    fn verify(&self, p: &SubstitutionProblem, answer: &str) -> Score {
        match key_of(p) {
            Ok(_) => score_plaintext(&self.solve(p), answer),
            Err(e) => Score::wrong(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key_from(pairs: &[(u8, u8)]) -> String {
        // A permutation that sends each plain letter of `pairs` to its cipher letter.
        let mut key = [0u8; 26];
        let mut free: Vec<u8> = (b'A'..=b'Z').filter(|c| !pairs.iter().any(|p| p.1 == *c)).collect();
        for (i, k) in key.iter_mut().enumerate() {
            *k = pairs.iter().find(|p| p.0 == b'A' + i as u8).map_or_else(|| free.remove(0), |p| p.1);
        }
        String::from_utf8(key.to_vec()).unwrap()
    }

    #[test]
    fn example_from_the_docs() {
        let pairs = [(b'C', b'X'), (b'A', b'Q'), (b'T', b'V'), (b'D', b'Z'), (b'O', b'L'), (b'G', b'M')];
        let key = key_from(&pairs);
        let k: [u8; 26] = key.as_bytes().try_into().unwrap();
        assert_eq!(encipher("CAT DOG", &k), "XQV ZLM");
        let p = SubstitutionProblem {
            key,
            sample: "CAT DOG".into(),
            ciphertext: "ZLM XQV".into(),
            vocabulary_shown: false,
        };
        assert_eq!(Substitution.solve(&p), "DOG CAT");
        assert!(Substitution.verify(&p, "dog  cat").correct);
        assert_eq!(Substitution.verify(&p, "DOG COT").reason, "1 of 2 words correct");
        assert!(Substitution.prompt(&p).contains("Sample ciphertext: XQV ZLM"));
        let bad = SubstitutionProblem { key: "ABC".into(), ..p.clone() };
        assert!(Substitution.verify(&bad, "DOG CAT").reason.starts_with("malformed"));
        let bad = SubstitutionProblem { key: "A".repeat(26), ..p };
        assert!(Substitution.verify(&bad, "DOG CAT").reason.starts_with("malformed"));
    }

    #[test]
    fn generated_decryptions_are_unique() {
        for level in 1..=5 {
            for seed in 0..30 {
                let p = Substitution.generate(seed, Difficulty::new(level).unwrap());
                let key: [u8; 26] = p.key.as_bytes().try_into().unwrap();
                let known = revealed(&p.sample, &key);
                for w in p.ciphertext.split(' ') {
                    let all_known = w.bytes().all(|c| known[(c - b'A') as usize] != 0);
                    assert!(
                        all_known || (level >= 4 && candidates(w.as_bytes(), &known) == 1),
                        "L{level} {seed}"
                    );
                }
                if level == 5 {
                    let missing: std::collections::BTreeSet<u8> = p
                        .ciphertext
                        .bytes()
                        .filter(|&c| c != b' ' && known[(c - b'A') as usize] == 0)
                        .collect();
                    assert!(missing.len() >= 3, "seed {seed}: {missing:?}");
                }
                assert!(Substitution.verify(&p, &Substitution.solve(&p)).correct);
            }
        }
    }
}
