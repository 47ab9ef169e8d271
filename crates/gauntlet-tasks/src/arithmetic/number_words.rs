//! Number words: write a number in English words, or read English words as a number.
//!
//! **Generates** a number whose size grows with the level; odd levels ask for the words of a
//! numeral, even levels for the numeral of some words (short scale: thousand, million, billion).
//!
//! **Verifies** by value. A words answer is parsed by a strict grammar of English number names
//! (`zero`–`nineteen`, tens, `hundred`, `thousand`, `million`, `billion`; hyphens or spaces
//! between a ten and a unit; an optional `and` after `hundred` or a scale word; commas between
//! groups; any case) into a value, and every spelling of the right value is accepted
//! (`one hundred and five`, `one hundred five`, `twenty-one`, `Twenty One`). Misordered or
//! repeated groups (`five hundred thousand thousand`, `twenty ninety`) are unparsable;
//! `fifteen hundred` is read as 1500 when it is the whole number. A numeral
//! answer is one integer (`1,234` grouping allowed). No partial credit.
//!
//! **Oracle**: the canonical words (no `and`, hyphenated tens) or the numeral.
//!
//! | level | direction | size |
//! |---|---|---|
//! | 1 | numeral → words | < 100 |
//! | 2 | words → numeral | < 10,000 |
//! | 3 | numeral → words | < 10^6 |
//! | 4 | words → numeral | < 10^9 |
//! | 5 | numeral → words | < 10^12, with zero groups |
//!
//! Level 5 is hard for frontier models mostly through care: twelve digits with empty groups
//! (`4,000,017,300`) must become exactly the right sequence of scale words.
//!
//! **Example**: `4,017` → `four thousand seventeen`.
//!
//! **Failure modes**: dropping an empty group's scale word or keeping it (`zero thousand`),
//! `fourty`.

use super::expression::parse_int_answer;
use crate::common::clip;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The number-words family.
pub struct NumberWords;

/// One question.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct NumberWordsProblem {
    /// The number.
    pub value: u64,
    /// `true`: the answer is words; `false`: the answer is the numeral.
    pub to_words: bool,
}

const UNITS: [&str; 20] = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
];
const TENS: [&str; 10] =
    ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
const SCALES: [(&str, u64); 3] = [("billion", 1_000_000_000), ("million", 1_000_000), ("thousand", 1_000)];

fn below_1000(n: u64) -> String {
    let mut parts = Vec::new();
    if n >= 100 {
        parts.push(format!("{} hundred", UNITS[(n / 100) as usize]));
    }
    let r = n % 100;
    if r >= 20 {
        parts.push(if r.is_multiple_of(10) {
            TENS[(r / 10) as usize].to_string()
        } else {
            format!("{}-{}", TENS[(r / 10) as usize], UNITS[(r % 10) as usize])
        });
    } else if r > 0 {
        parts.push(UNITS[r as usize].to_string());
    }
    parts.join(" ")
}

/// The canonical English words of `n` (short scale, no `and`).
pub fn words(n: u64) -> String {
    if n == 0 {
        return "zero".into();
    }
    let mut parts = Vec::new();
    let mut rest = n;
    for (name, scale) in SCALES {
        if rest >= scale {
            parts.push(format!("{} {name}", below_1000(rest / scale)));
            rest %= scale;
        }
    }
    if rest > 0 {
        parts.push(below_1000(rest));
    }
    parts.join(" ")
}

/// Parse a value below 100 at the start of `toks`: `(value, tokens used)`, `(0, 0)` if none.
fn below_100(toks: &[&str]) -> (u64, usize) {
    let unit = |t: &str| UNITS.iter().position(|u| *u == t).map(|v| v as u64);
    let ten = |t: &str| TENS.iter().position(|u| !u.is_empty() && *u == t).map(|v| v as u64 * 10);
    match toks.first().copied() {
        Some(t) if ten(t).is_some() => {
            let tens = ten(t).unwrap_or(0);
            match toks.get(1).and_then(|t| unit(t)).filter(|u| (1..=9).contains(u)) {
                Some(u) => (tens + u, 2),
                None => (tens, 1),
            }
        }
        Some(t) => unit(t).filter(|&u| u >= 1).map_or((0, 0), |u| (u, 1)),
        None => (0, 0),
    }
}

/// Parse a group from `toks`: `(value, tokens used, hundreds multiplier above 9)`; `None` if no
/// group. `twenty-one hundred` (2100) is a group with a large multiplier.
fn group(toks: &[&str]) -> Option<(u64, usize, bool)> {
    let (mut v, mut i) = below_100(toks);
    let mut big = false;
    if i > 0 && toks.get(i) == Some(&"hundred") {
        big = v >= 10;
        v *= 100;
        i += 1;
        if toks.get(i) == Some(&"and") {
            i += 1;
        }
        let (r, used) = below_100(&toks[i..]);
        v += r;
        i += used;
    }
    // A trailing `and` (after hundred) must be followed by something.
    if i == 0 || toks[i - 1] == "and" {
        return None;
    }
    Some((v, i, big))
}

/// Parse English number words into a value (see the module doc).
pub fn parse_words(text: &str) -> Result<u64, String> {
    let bad = || format!("`{}` is not a number in words", clip(text, 40));
    let lower = text.to_ascii_lowercase().replace([',', '-'], " ");
    let toks: Vec<&str> = lower.split_whitespace().collect();
    if toks == ["zero"] {
        return Ok(0);
    }
    if toks.is_empty() || toks.len() > 40 {
        return Err(bad());
    }
    let mut i = 0;
    let mut total = 0u64;
    let mut last_scale = u64::MAX;
    while i < toks.len() {
        if i > 0 && toks[i] == "and" {
            i += 1;
        }
        let start = i;
        let (v, used, big) = group(&toks[i..]).ok_or_else(bad)?;
        i += used;
        // `twenty-one hundred` only as the whole number.
        if big && (start > 0 || i < toks.len()) {
            return Err(bad());
        }
        match toks.get(i).and_then(|t| SCALES.iter().find(|s| s.0 == *t)) {
            Some(&(_, scale)) if scale < last_scale && v > 0 => {
                total += v * scale;
                last_scale = scale;
                i += 1;
            }
            Some(_) => return Err(bad()),
            None if i == toks.len() => {
                total += v;
                break;
            }
            None => return Err(bad()),
        }
    }
    Ok(total)
}

impl Task for NumberWords {
    type Problem = NumberWordsProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "number_words",
            category: Category::Arithmetic,
            description: "Write a number in English words, or read number words as a numeral.",
            levels: [
                "numeral to words, < 100",
                "words to numeral, < 10,000",
                "numeral to words, < 10^6",
                "words to numeral, < 10^9",
                "numeral to words, < 10^12 with empty groups",
            ],
            answer_format:
                "English words for a numeral, or digits for words, as asked, e.g. `four thousand seventeen`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> NumberWordsProblem {
        let value = match d.level() {
            1 => rng.range(0, 99),
            2 => rng.range(100, 9_999),
            3 => rng.range(1_000, 999_999),
            4 => rng.range(1_000_000, 999_999_999),
            _ => {
                // Empty groups on purpose: zero out one or two of the four 3-digit groups.
                let mut v = rng.range(1_000_000_000, 999_999_999_999);
                for _ in 0..rng.range(1, 2) {
                    let g = 1_000i64.pow(rng.range(0, 2) as u32);
                    v -= (v / g % 1000) * g;
                }
                v
            }
        } as u64;
        NumberWordsProblem { value, to_words: d.level() % 2 == 1 }
    }

    fn prompt(&self, p: &NumberWordsProblem) -> String {
        let q = if p.to_words {
            format!(
                "Write the number {} in English words (short scale: thousand, million, billion).",
                group_digits(p.value)
            )
        } else {
            format!("Write this number with digits: {}.", words(p.value))
        };
        format!("{q}\n\n{}", self.answer_instruction())
    }

    fn solve(&self, p: &NumberWordsProblem) -> String {
        if p.to_words {
            words(p.value)
        } else {
            p.value.to_string()
        }
    }

    fn verify(&self, p: &NumberWordsProblem, answer: &str) -> Score {
        let got = if p.to_words {
            parse_words(answer).map(|v| v as i128)
        } else {
            match parse_int_answer(answer) {
                Ok(Some(v)) => Ok(v.into()),
                Ok(None) => return Score::wrong("not an integer"),
                Err(e) => Err(e),
            }
        };
        match got {
            Err(e) => Score::unparsable(e),
            Ok(v) if v == i128::from(p.value) => Score::correct(),
            Ok(v) => Score::wrong(format!("that is {v}, not {}", p.value)),
        }
    }
}

fn group_digits(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip() {
        assert_eq!(words(4017), "four thousand seventeen");
        assert_eq!(words(4_000_017_300), "four billion seventeen thousand three hundred");
        assert_eq!(words(999_999), "nine hundred ninety-nine thousand nine hundred ninety-nine");
        for n in [0u64, 7, 15, 20, 99, 100, 101, 110, 1000, 1_000_001, 123_456_789_012] {
            assert_eq!(parse_words(&words(n)), Ok(n), "{n}");
        }
        assert_eq!(group_digits(4017), "4,017");
    }

    #[test]
    fn every_spelling_is_accepted_and_garbage_is_not() {
        let p = NumberWordsProblem { value: 105, to_words: true };
        for ok in ["one hundred five", "one hundred and five", "One Hundred Five"] {
            assert!(NumberWords.verify(&p, ok).correct, "{ok}");
        }
        let q = NumberWordsProblem { value: 2_021, to_words: true };
        for ok in ["two thousand twenty-one", "two thousand and twenty one", "two thousand, twenty-one"] {
            assert!(NumberWords.verify(&q, ok).correct, "{ok}");
        }
        assert!(!NumberWords.verify(&q, "two thousand twenty-two").correct);
        assert!(!NumberWords.verify(&q, "twenty-one hundred").correct); // 2100: valid words, wrong value
        let r = NumberWordsProblem { value: 1500, to_words: true };
        assert!(NumberWords.verify(&r, "fifteen hundred").correct);
        for bad in [
            "two thousand twenty-one or two",
            "twenty ninety",
            "five thousand thousand",
            "2021",
            "two thousand and",
            "zero thousand twenty-one",
            "thousand twenty-one",
            "hundred five",
            "twenty-one hundred thousand",
        ] {
            assert!(NumberWords.verify(&q, bad).is_format_error(), "{bad}");
        }
        let n = NumberWordsProblem { value: 4017, to_words: false };
        assert!(NumberWords.verify(&n, "4017").correct && NumberWords.verify(&n, "4,017").correct);
        assert!(NumberWords.verify(&n, "four thousand seventeen").is_format_error());
    }

    #[test]
    fn generated_questions_verify() {
        for d in Difficulty::all() {
            for seed in 0..40 {
                let p = NumberWords.generate(seed, d);
                assert!(NumberWords.verify(&p, &NumberWords.solve(&p)).correct, "{p:?}");
            }
        }
    }
}
