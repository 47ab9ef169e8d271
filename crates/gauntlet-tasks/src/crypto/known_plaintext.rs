//! Known-plaintext attack: recover the key from one plaintext/ciphertext pair, then decrypt.
//!
//! **Generates** a cipher with a hidden key, one known message (plaintext and ciphertext), and a
//! second ciphertext under the same key to decrypt. The cipher rises with the level: Caesar,
//! affine, Vigenère with a key of 3 and of 5 letters (length stated), and a 2×2 Hill cipher. The
//! generator proves the key is determined by the known pair: for Caesar and Vigenère every key
//! letter is fixed by an aligned letter pair; for affine it counts the keys consistent with the
//! pair (exactly one is kept); for Hill it requires two plaintext digraphs whose matrix is
//! invertible mod 26 (then `K = C·P⁻¹` is the only key).
//!
//! **Verifies** the answer letter by letter against the second plaintext
//! ([`score_letters`](crate::crypto::classical::score_letters): spaces and case ignored, any
//! non-letter unparsable). 0/1.
//!
//! | level | cipher | known message | target |
//! |---|---|---|---|
//! | 1 | Caesar | 3 words | 3 words |
//! | 2 | affine | 3 words | 4 words |
//! | 3 | Vigenère, key of 3 | 3 words | 5 words |
//! | 4 | Vigenère, key of 5 | 4 words | 6 words |
//! | 5 | Hill 2×2 | 4 words | 6 words |
//!
//! Level 5 is hard for frontier models: recovering a Hill key needs choosing two plaintext pairs
//! with an invertible matrix, inverting it mod 26 and multiplying, then decrypting with `K⁻¹`.
//!
//! **Example**: Caesar; `HELLO` ↦ `KHOOR`; decrypt `ZRUOG` → `WORLD`.
//!
//! **Failure modes**: digits or punctuation are unparsable; any wrong letter is wrong.

use crate::crypto::classical::{
    affine_decrypt, affine_encrypt, hill_apply, inv26, letters, map_letters, mat_inv, mat_mul, plaintext,
    score_letters, Mat2,
};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The known-plaintext family.
pub struct KnownPlaintext;

/// The cipher and its (hidden) key.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Cipher {
    /// Shift by `k`.
    Caesar(u8),
    /// `x ↦ a·x + b`.
    Affine(u8, u8),
    /// Vigenère with this uppercase key, restarting at each message's first letter.
    Vigenere(String),
    /// Hill 2×2 encryption matrix.
    Hill(Mat2),
}

/// One problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KnownPlaintextProblem {
    /// The cipher with its key.
    pub cipher: Cipher,
    /// The known plaintext.
    pub known_plain: String,
    /// Its ciphertext.
    pub known_cipher: String,
    /// The ciphertext to decrypt.
    pub target: String,
}

fn vigenere(s: &str, key: &[u8], sign: i64) -> String {
    let mut i = 0;
    map_letters(s, |x| {
        let k = key.get(i % key.len().max(1)).map_or(0, |c| (*c as i64) - 65);
        i += 1;
        x + sign * k
    })
}

fn valid(c: &Cipher) -> bool {
    match c {
        Cipher::Caesar(k) => *k < 26,
        Cipher::Affine(a, b) => inv26(*a as i64).is_some() && *b < 26,
        Cipher::Vigenere(k) => !k.is_empty() && k.bytes().all(|b| b.is_ascii_uppercase()),
        Cipher::Hill(m) => mat_inv(*m).is_some(),
    }
}

fn encrypt(c: &Cipher, s: &str) -> String {
    match c {
        Cipher::Caesar(k) => map_letters(s, |x| x + *k as i64),
        Cipher::Affine(a, b) => affine_encrypt(s, *a as i64, *b as i64),
        Cipher::Vigenere(k) => vigenere(s, k.as_bytes(), 1),
        Cipher::Hill(m) => hill_apply(s, *m),
    }
}

fn decrypt(c: &Cipher, s: &str) -> String {
    match c {
        Cipher::Caesar(k) => map_letters(s, |x| x - *k as i64),
        Cipher::Affine(a, b) => affine_decrypt(s, *a as i64, *b as i64),
        Cipher::Vigenere(k) => vigenere(s, k.as_bytes(), -1),
        Cipher::Hill(m) => mat_inv(*m).map(|i| hill_apply(s, i)).unwrap_or_default(),
    }
}

/// Whether the known pair determines the key (see the module doc).
fn determined(c: &Cipher, plain: &str) -> bool {
    let p = letters(plain);
    match c {
        Cipher::Caesar(_) => !p.is_empty(),
        Cipher::Vigenere(k) => p.len() >= k.len(),
        Cipher::Affine(..) => {
            let want = encrypt(c, plain);
            let units = (1..26).filter(|&a| inv26(a).is_some());
            units
                .flat_map(|a| (0..26).map(move |b| (a, b)))
                .filter(|&(a, b)| affine_encrypt(plain, a, b) == want)
                .count()
                == 1
        }
        Cipher::Hill(_) => {
            let pairs: Vec<(i64, i64)> = p
                .chunks(2)
                .filter(|c| c.len() == 2)
                .map(|c| ((c[0] - 65) as i64, (c[1] - 65) as i64))
                .collect();
            pairs
                .iter()
                .enumerate()
                .any(|(i, a)| pairs[i + 1..].iter().any(|b| mat_inv([a.0, b.0, a.1, b.1]).is_some()))
        }
    }
}

fn even_letters(s: &str) -> bool {
    letters(s).len().is_multiple_of(2)
}

impl Task for KnownPlaintext {
    type Problem = KnownPlaintextProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "known_plaintext",
            category: Category::Crypto,
            description: "Recover a cipher key from a known plaintext/ciphertext pair and decrypt a second message.",
            levels: ["Caesar", "affine", "Vigenère, key of 3", "Vigenère, key of 5", "Hill 2x2"],
            answer_format: "the decrypted second message in capital letters, words separated by spaces, e.g. `MEET AT NOON`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> KnownPlaintextProblem {
        let (kw, tw) = d.pick([(3, 3), (3, 4), (3, 5), (4, 6), (4, 6)]);
        loop {
            let cipher = match d.level() {
                1 => Cipher::Caesar(1 + rng.below(25) as u8),
                2 => Cipher::Affine(
                    *rng.choose(&[3u8, 5, 7, 9, 11, 15, 17, 19, 21, 23, 25]).unwrap_or(&5),
                    rng.below(26) as u8,
                ),
                3 | 4 => {
                    let n = if d.level() == 3 { 3 } else { 5 };
                    Cipher::Vigenere((0..n).map(|_| (b'A' + rng.below(26) as u8) as char).collect())
                }
                _ => Cipher::Hill([0; 4].map(|_| rng.below(26) as i64)),
            };
            if !valid(&cipher) {
                continue;
            }
            let known_plain = plaintext(rng, kw);
            let target_plain = plaintext(rng, tw);
            let hill = matches!(cipher, Cipher::Hill(_));
            if hill && !(even_letters(&known_plain) && even_letters(&target_plain)) {
                continue;
            }
            if known_plain == target_plain || !determined(&cipher, &known_plain) {
                continue;
            }
            let known_cipher = encrypt(&cipher, &known_plain);
            let target = encrypt(&cipher, &target_plain);
            return KnownPlaintextProblem { cipher, known_plain, known_cipher, target };
        }
    }

    fn prompt(&self, p: &KnownPlaintextProblem) -> String {
        let how = match &p.cipher {
            Cipher::Caesar(_) => "a Caesar cipher: every letter is shifted forward by the same unknown amount (wrapping Z to A)".to_string(),
            Cipher::Affine(..) => "an affine cipher: with A=0 … Z=25, every letter x becomes (a·x + b) mod 26 for an unknown key (a, b), a coprime to 26".to_string(),
            Cipher::Vigenere(k) => format!(
                "a Vigenère cipher with an unknown key of {} letters: the key is repeated along the message's letters (spaces skipped, starting again at the first letter of each message) and each letter is shifted forward by its key letter (A=0 … Z=25)",
                k.len()
            ),
            Cipher::Hill(_) => "a Hill cipher with an unknown 2×2 key matrix K: with A=0 … Z=25, the letters (spaces skipped) are taken in consecutive pairs (x, y) and each pair becomes K·(x, y) mod 26, i.e. (a·x + b·y, c·x + d·y) mod 26 for K = [[a, b], [c, d]]; spaces stay in place".to_string(),
        };
        format!(
            "Two messages were encrypted with the same key of {how}; spaces are kept as they were.\n\n\
             Known plaintext: {}\nIts ciphertext:  {}\n\nDecrypt this second ciphertext: {}\n\n{}",
            p.known_plain,
            p.known_cipher,
            p.target,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &KnownPlaintextProblem) -> String {
        decrypt(&p.cipher, &p.target)
    }

    fn verify(&self, p: &KnownPlaintextProblem, answer: &str) -> Score {
        if !valid(&p.cipher) || p.target.is_empty() {
            return Score::wrong("malformed problem");
        }
        score_letters(&self.solve(p), answer)
    }
}

/// Recover a Hill key from two plaintext pairs and their ciphertext pairs (used by the tests to
/// show the key is determined): `K = C·P⁻¹` with the pairs as columns.
pub fn hill_key(p: [(i64, i64); 2], c: [(i64, i64); 2]) -> Option<Mat2> {
    let pm = [p[0].0, p[1].0, p[0].1, p[1].1];
    let cm = [c[0].0, c[1].0, c[0].1, c[1].1];
    Some(mat_mul(cm, mat_inv(pm)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_and_near_misses() {
        let p = KnownPlaintextProblem {
            cipher: Cipher::Caesar(3),
            known_plain: "HELLO".into(),
            known_cipher: "KHOOR".into(),
            target: "ZRUOG".into(),
        };
        assert_eq!(KnownPlaintext.solve(&p), "WORLD");
        assert!(KnownPlaintext.verify(&p, "world").correct);
        assert!(!KnownPlaintext.verify(&p, "HELLO").correct);
        assert!(KnownPlaintext.verify(&p, "WORLD?").is_format_error());
    }

    #[test]
    fn keys_are_recoverable_from_the_known_pair() {
        for d in Difficulty::all() {
            for seed in 0..20 {
                let p = KnownPlaintext.generate(seed, d);
                assert!(KnownPlaintext.verify(&p, &KnownPlaintext.solve(&p)).correct);
                assert_eq!(encrypt(&p.cipher, &p.known_plain), p.known_cipher);
                if let Cipher::Hill(k) = p.cipher {
                    let (pl, cl) = (letters(&p.known_plain), letters(&p.known_cipher));
                    let pairs: Vec<usize> = (0..pl.len() / 2).collect();
                    let found =
                        pairs.iter().flat_map(|&i| pairs.iter().map(move |&j| (i, j))).find_map(|(i, j)| {
                            let f = |s: &[u8], t: usize| ((s[2 * t] - 65) as i64, (s[2 * t + 1] - 65) as i64);
                            hill_key([f(&pl, i), f(&pl, j)], [f(&cl, i), f(&cl, j)])
                        });
                    assert_eq!(found, Some(k));
                }
            }
        }
    }
}
