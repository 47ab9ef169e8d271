//! Longest common subsequence: find a longest string that is a subsequence of two or three given
//! strings.
//!
//! **Generates** two (levels 1–3) or three (levels 4–5) random strings over a small alphabet of
//! capital letters. Half the time a hidden string is first planted in all of them (its letters
//! spread among random letters), so long common subsequences exist; the length asked for is
//! always the one computed by dynamic programming. Instances whose longest common subsequence
//! is shorter than 2 letters are redrawn.
//!
//! **Verifies** the answer by the rules: one word of capital letters (lower case is read as
//! upper case) that is a subsequence of every given string (its letters appear in each string in
//! the same order, not necessarily adjacent) and whose length equals the optimum
//! `L = LCS(s1, …, sk)`, from the recurrence `L(i, j) = L(i−1, j−1) + 1` when `s1[i] = s2[j]`,
//! else `max(L(i−1, j), L(i, j−1))` (one more index for three strings). *Any* common subsequence
//! of that length scores 1.0. Scoring is 0/1; the reason says which string does not contain the
//! answer, or how much shorter it is than the optimum.
//!
//! | level | strings | length | alphabet |
//! |---|---|---|---|
//! | 1 | 2 | 6 | `ABC` |
//! | 2 | 2 | 9 | `ABCD` |
//! | 3 | 2 | 13 | `ABCDE` |
//! | 4 | 3 | 10 | `ABCD` |
//! | 5 | 3 | 14 | `ABCDE` |
//!
//! **Example**: `ABCBDAB` and `BDCABA`: `BCBA`, `BDAB` and `BCAB` are all correct (length 4);
//! `BCB` is common but too short; `ABBA` is not a subsequence of `BDCABA`.
//!
//! **Failure modes**: a common substring (contiguous) instead of the longest subsequence, greedy
//! matching from the left, answers that drop out of order in one of three strings.

use crate::common::clip;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The longest-common-subsequence family.
pub struct LongestCommonSubsequence;

/// Two or three strings of capital letters.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LcsProblem {
    /// The strings.
    pub strings: Vec<String>,
}

/// The longest string a problem may hold (keeps the three-string table small).
const MAX_LEN: usize = 60;

impl LcsProblem {
    fn checked(&self) -> Result<Vec<&[u8]>, String> {
        if !(2..=3).contains(&self.strings.len()) {
            return Err(format!("{} strings (need 2 or 3)", self.strings.len()));
        }
        let mut out = Vec::new();
        for s in &self.strings {
            if s.is_empty() || s.len() > MAX_LEN || !s.bytes().all(|b| b.is_ascii_uppercase()) {
                return Err(format!("string `{}` is not 1–{MAX_LEN} capital letters", clip(s, 20)));
            }
            out.push(s.as_bytes());
        }
        Ok(out)
    }
}

/// Whether `sub` is a subsequence of `s`.
pub fn is_subsequence(sub: &[u8], s: &[u8]) -> bool {
    let mut it = s.iter();
    sub.iter().all(|c| it.any(|x| x == c))
}

/// One longest common subsequence of two or three strings, by dynamic programming over suffixes
/// (`O(|a|·|b|·|c|)`; for two strings the third is absent).
pub fn lcs(strings: &[&[u8]]) -> Vec<u8> {
    let a = strings.first().copied().unwrap_or(b"");
    let b = strings.get(1).copied().unwrap_or(b"");
    let third = strings.get(2).copied();
    let c = third.unwrap_or(b"");
    let (la, lb, lc) = (a.len(), b.len(), if third.is_some() { c.len() } else { 0 });
    let dims = (lb + 1) * (lc + 1);
    // t[i][j][k]: LCS length of a[i..], b[j..], c[k..] (c ignored for two strings).
    let idx = |i: usize, j: usize, k: usize| i * dims + j * (lc + 1) + k;
    let mut t = vec![0u16; (la + 1) * dims];
    for i in (0..la).rev() {
        for j in (0..lb).rev() {
            for k in (0..=lc).rev() {
                let two = third.is_none();
                if !two && k == lc {
                    continue;
                }
                t[idx(i, j, k)] = if a[i] == b[j] && (two || a[i] == c[k]) {
                    t[idx(i + 1, j + 1, if two { k } else { k + 1 })] + 1
                } else {
                    let mut best = t[idx(i + 1, j, k)].max(t[idx(i, j + 1, k)]);
                    if !two {
                        best = best.max(t[idx(i, j, k + 1)]);
                    }
                    best
                };
            }
        }
    }
    let mut out = Vec::new();
    let (mut i, mut j, mut k) = (0, 0, 0);
    let two = third.is_none();
    while i < la && j < lb && (two || k < lc) {
        let here = t[idx(i, j, k)];
        if here == 0 {
            break;
        }
        if a[i] == b[j]
            && (two || a[i] == c[k])
            && t[idx(i + 1, j + 1, if two { k } else { k + 1 })] + 1 == here
        {
            out.push(a[i]);
            i += 1;
            j += 1;
            if !two {
                k += 1;
            }
        } else if t[idx(i + 1, j, k)] == here {
            i += 1;
        } else if t[idx(i, j + 1, k)] == here {
            j += 1;
        } else {
            k += 1;
        }
    }
    out
}

/// A random string of `len` letters from the first `alpha` capitals, with the letters of
/// `hidden` (at most `len`) placed in order at random positions.
fn random_string(rng: &mut Rng, len: usize, alpha: u64, hidden: &[u8]) -> String {
    let mut slots = rng.sample_indices(len, hidden.len().min(len));
    slots.sort_unstable();
    let mut planted = hidden.iter().zip(slots).peekable();
    (0..len)
        .map(|i| match planted.next_if(|&(_, at)| at == i) {
            Some((&c, _)) => c,
            None => b'A' + rng.below(alpha) as u8,
        })
        .map(char::from)
        .collect()
}

impl Task for LongestCommonSubsequence {
    type Problem = LcsProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "longest_common_subsequence",
            category: Category::Search,
            description: "Find a longest common subsequence of two or three strings.",
            levels: [
                "2 strings of 6 letters from ABC",
                "2 strings of 9 letters from ABCD",
                "2 strings of 13 letters from ABCDE",
                "3 strings of 10 letters from ABCD",
                "3 strings of 14 letters from ABCDE",
            ],
            answer_format: "the subsequence as one word of capital letters with no spaces (e.g. `BCAB`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> LcsProblem {
        let k = d.pick([2usize, 2, 2, 3, 3]);
        let len = d.pick([6usize, 9, 13, 10, 14]);
        let alpha = d.pick([3u64, 4, 5, 4, 5]);
        loop {
            let hidden: Vec<u8> = if rng.chance(0.5) {
                let h = len / 2 + rng.index(len / 4 + 1);
                (0..h).map(|_| b'A' + rng.below(alpha) as u8).collect()
            } else {
                Vec::new()
            };
            let strings: Vec<String> = (0..k).map(|_| random_string(rng, len, alpha, &hidden)).collect();
            let p = LcsProblem { strings };
            let Ok(bytes) = p.checked() else { continue };
            if lcs(&bytes).len() >= 2 {
                return p;
            }
        }
    }

    fn prompt(&self, p: &LcsProblem) -> String {
        let list: String = p.strings.iter().enumerate().map(|(i, s)| format!("{}. {s}\n", i + 1)).collect();
        format!(
            "A subsequence of a string is what remains after deleting any of its letters (none, some or \
             all), keeping the rest in their original order; the kept letters need not be adjacent. \
             For example, ACE is a subsequence of ABCDE, but AEC is not.\n\n\
             Strings:\n{list}\n\
             Find a longest string that is a subsequence of every one of these {} strings. If several \
             common subsequences have the greatest length, any of them is accepted. Write it as one \
             word of capital letters with no spaces or separators.\n\n{}",
            p.strings.len(),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &LcsProblem) -> String {
        let Ok(bytes) = p.checked() else { return String::new() };
        String::from_utf8(lcs(&bytes)).unwrap_or_default()
    }

    fn verify(&self, p: &LcsProblem, answer: &str) -> Score {
        let bytes = match p.checked() {
            Ok(b) => b,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        if answer.is_empty() {
            return Score::unparsable("empty answer: write the subsequence as one word of letters");
        }
        if answer.len() > 200 || !answer.bytes().all(|b| b.is_ascii_alphabetic()) {
            return Score::unparsable(format!(
                "`{}` is not one word of letters (no spaces or separators)",
                clip(answer, 30)
            ));
        }
        let sub = answer.to_ascii_uppercase();
        if let Some(i) = bytes.iter().position(|s| !is_subsequence(sub.as_bytes(), s)) {
            return Score::wrong(format!(
                "{sub} is not a subsequence of string {} ({})",
                i + 1,
                p.strings[i]
            ));
        }
        let best = lcs(&bytes).len();
        if sub.len() != best {
            return Score::wrong(format!(
                "{sub} is a common subsequence of length {}, but the longest has length {best}",
                sub.len()
            ));
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gauntlet_core::Rng;
    use proptest::prelude::*;

    fn p(strings: &[&str]) -> LcsProblem {
        LcsProblem { strings: strings.iter().map(|s| s.to_string()).collect() }
    }

    /// Brute force: the longest common subsequence length by trying every subsequence of the
    /// first string (short strings only).
    fn brute(strings: &[&str]) -> usize {
        let a = strings[0].as_bytes();
        (0u32..1 << a.len())
            .filter_map(|mask| {
                let sub: Vec<u8> = (0..a.len()).filter(|&i| mask >> i & 1 == 1).map(|i| a[i]).collect();
                strings.iter().all(|s| is_subsequence(&sub, s.as_bytes())).then_some(sub.len())
            })
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn example_from_the_docs() {
        let t = LongestCommonSubsequence;
        let q = p(&["ABCBDAB", "BDCABA"]);
        assert_eq!(t.solve(&q).len(), 4);
        for good in ["BCBA", "BDAB", "BCAB", "bcab"] {
            assert!(t.verify(&q, good).correct, "{good}");
        }
        let s = t.verify(&q, "BCB");
        assert!(!s.correct && s.reason.contains("length 3") && s.reason.contains("length 4"), "{s:?}");
        let s = t.verify(&q, "ABBA");
        assert!(!s.correct && s.reason.contains("string 2"), "{s:?}");
        assert!(t.prompt(&q).contains("2. BDCABA\n"));
    }

    #[test]
    fn malformed_answers_are_unparsable() {
        let t = LongestCommonSubsequence;
        let q = p(&["ABCBDAB", "BDCABA"]);
        for bad in [
            "",
            "B C A B",
            "BCAB or BDAB",
            "BCAB/BDAB",
            "B-C-A-B",
            "BCAB, BDAB",
            "BCAB1",
            "The answer is BCAB",
        ] {
            assert!(t.verify(&q, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn dynamic_programme_matches_brute_force() {
        let mut rng = Rng::new(11);
        for _ in 0..300 {
            let k = 2 + rng.index(2);
            let strings: Vec<String> = (0..k)
                .map(|_| (0..1 + rng.index(9)).map(|_| char::from(b'A' + rng.below(3) as u8)).collect())
                .collect();
            let refs: Vec<&str> = strings.iter().map(String::as_str).collect();
            let bytes: Vec<&[u8]> = refs.iter().map(|s| s.as_bytes()).collect();
            let sub = lcs(&bytes);
            assert_eq!(sub.len(), brute(&refs), "{refs:?}");
            assert!(bytes.iter().all(|s| is_subsequence(&sub, s)));
        }
    }

    #[test]
    fn oracle_at_every_level_and_every_longest_is_accepted() {
        let t = LongestCommonSubsequence;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..200 {
                let q = t.generate(seed, d);
                assert!(q.strings.iter().all(|s| s.len() == d.pick([6, 9, 13, 10, 14])));
                let s = t.verify(&q, &t.solve(&q));
                assert!(s.correct, "L{level} seed {seed}: {s:?}");
            }
        }
        // Every longest common subsequence of small instances is accepted.
        for seed in 0..30 {
            let q = t.generate(seed, Difficulty::new(1).unwrap());
            let a = q.strings[0].as_bytes();
            let best = t.solve(&q).len();
            for mask in 0u32..1 << a.len() {
                let sub: Vec<u8> = (0..a.len()).filter(|&i| mask >> i & 1 == 1).map(|i| a[i]).collect();
                let common = q.strings.iter().all(|s| is_subsequence(&sub, s.as_bytes()));
                let text = String::from_utf8(sub.clone()).unwrap();
                if !text.is_empty() {
                    assert_eq!(t.verify(&q, &text).correct, common && sub.len() == best, "{text}");
                }
            }
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = LongestCommonSubsequence;
        for q in [p(&["AB"]), p(&["AB", ""]), p(&["AB", "ab"]), p(&["AB", "AB", "AB", "AB"])] {
            assert!(t.verify(&q, "A").reason.starts_with("malformed"), "{q:?}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]
        #[test]
        fn no_answer_panics(s in "\\PC*", w in "[A-Fa-f ]{0,30}") {
            let q = LongestCommonSubsequence.generate(3, Difficulty::new(4).unwrap());
            let _ = LongestCommonSubsequence.verify(&q, &s);
            let _ = LongestCommonSubsequence.verify(&q, &w);
        }
    }
}
