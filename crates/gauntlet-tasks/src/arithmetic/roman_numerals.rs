//! Roman numerals: read them, write them in standard form, and compute with them.
//!
//! **Generates** by level: a Roman numeral to read (answer in digits); a number to write as a
//! Roman numeral; then sums, differences and products of Roman numerals whose result is asked
//! as a Roman numeral. Operands and results stay in 1–3999, the range standard form covers, and
//! values rich in subtractive pairs (4s and 9s) are drawn more often than chance.
//!
//! **Verifies** a digit answer as one integer equal to the value. A Roman answer must consist of
//! the letters `I V X L C D M` only (either case) and be the value's *standard form*: symbols
//! from largest to smallest, each of the six subtractive pairs `IV IX XL XC CD CM` used where it
//! applies, no symbol more than three times in a row, `V L D` never repeated. That form is
//! unique, so a numeral of the right value in another form (`IIII`, `VX`, `XCIX` written as
//! `IC`) is wrong, and the reason says so. Scoring is 0/1.
//!
//! | level | question | values |
//! |---|---|---|
//! | 1 | Roman → digits | 1–399 |
//! | 2 | digits → Roman | 1–3999 |
//! | 3 | Roman + Roman → Roman | sum ≤ 2000 |
//! | 4 | Roman + Roman − Roman → Roman | result 1–3999 |
//! | 5 | Roman × Roman − Roman → Roman | result 1–3999 |
//!
//! **Example**: `XLIX + CDXCIV` = 49 + 494 = 543 = `DXLIII`.
//!
//! **Failure modes**: `IL` for 49, `IIII` for 4, reading `XC` as 110, carrying errors when adding
//! numerals symbol by symbol.

use crate::arithmetic::number::parse_int;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Roman-numerals family.
pub struct RomanNumerals;

/// One question.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RomanNumeralsProblem {
    /// The operands, in order.
    pub operands: Vec<u32>,
    /// The operators between them (`+`, `-`, `*`); empty for a single number.
    pub ops: Vec<char>,
    /// Whether the operands are shown as Roman numerals (else in digits).
    pub roman_in: bool,
    /// Whether the answer is asked as a Roman numeral (else in digits).
    pub roman_out: bool,
}

const SYMBOLS: [(u32, &str); 13] = [
    (1000, "M"),
    (900, "CM"),
    (500, "D"),
    (400, "CD"),
    (100, "C"),
    (90, "XC"),
    (50, "L"),
    (40, "XL"),
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
];

/// The standard form of `n` (1–3999).
pub fn to_roman(mut n: u32) -> String {
    let mut out = String::new();
    for &(v, s) in &SYMBOLS {
        while n >= v {
            out.push_str(s);
            n -= v;
        }
    }
    out
}

/// The value of a string of Roman symbols read additively, a smaller symbol before a larger one
/// subtracting (`None` for any other character or an empty string). This reads non-standard
/// forms too (`IIII` = 4); the verifier compares with [`to_roman`] for the form.
pub fn roman_value(s: &str) -> Option<u32> {
    let vals: Vec<u32> = s
        .chars()
        .map(|c| match c.to_ascii_uppercase() {
            'I' => Some(1),
            'V' => Some(5),
            'X' => Some(10),
            'L' => Some(50),
            'C' => Some(100),
            'D' => Some(500),
            'M' => Some(1000),
            _ => None,
        })
        .collect::<Option<_>>()?;
    if vals.is_empty() || vals.len() > 40 {
        return None;
    }
    let mut total: i64 = 0;
    for (i, &v) in vals.iter().enumerate() {
        if vals.get(i + 1).is_some_and(|&next| next > v) {
            total -= v as i64;
        } else {
            total += v as i64;
        }
    }
    u32::try_from(total).ok()
}

impl RomanNumeralsProblem {
    /// The value of the expression, checked to lie in 1–3999 at every step.
    pub fn value(&self) -> Result<u32, String> {
        let bad = || "operands or operators out of range".to_string();
        if self.operands.is_empty() || self.operands.len() > 4 || self.ops.len() + 1 != self.operands.len() {
            return Err(bad());
        }
        if self.operands.iter().any(|&v| !(1..=3999).contains(&v)) {
            return Err(bad());
        }
        // `*` binds first; the problems only put it first, but evaluate properly anyway.
        let mut terms: Vec<(char, i64)> = vec![('+', self.operands[0] as i64)];
        for (&op, &v) in self.ops.iter().zip(&self.operands[1..]) {
            match op {
                '*' => {
                    let last = terms.last_mut().ok_or_else(bad)?;
                    last.1 *= v as i64;
                }
                '+' | '-' => terms.push((op, v as i64)),
                _ => return Err(bad()),
            }
        }
        let total: i64 = terms.iter().map(|&(op, v)| if op == '-' { -v } else { v }).sum();
        u32::try_from(total)
            .ok()
            .filter(|v| (1..=3999).contains(v))
            .ok_or_else(|| "the result is outside 1–3999".into())
    }

    fn show(&self, v: u32) -> String {
        if self.roman_in {
            to_roman(v)
        } else {
            v.to_string()
        }
    }
}

/// A value in `lo..=hi`, half the time built from digits 4 and 9 (subtractive pairs).
fn draw(rng: &mut Rng, lo: u32, hi: u32) -> u32 {
    if rng.chance(0.5) {
        for _ in 0..20 {
            let digits: u32 = (0..4).fold(0, |acc, _| acc * 10 + [4, 9, 4, 9, 0, 1, 3, 8][rng.index(8)]);
            let v = digits % (hi + 1);
            if v >= lo {
                return v;
            }
        }
    }
    rng.range(lo as i64, hi as i64) as u32
}

impl Task for RomanNumerals {
    type Problem = RomanNumeralsProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "roman_numerals",
            category: Category::Arithmetic,
            description: "Read, write and compute with Roman numerals in standard form.",
            levels: [
                "read a Roman numeral (1–399) as digits",
                "write a number (1–3999) as a Roman numeral",
                "add two Roman numerals, answer as a Roman numeral",
                "a + b − c in Roman numerals, result 1–3999",
                "a × b − c in Roman numerals, result 1–3999",
            ],
            answer_format: "a Roman numeral in standard form, or an integer in digits where the question \
                            asks for digits (e.g. `MCMXCIV`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> RomanNumeralsProblem {
        loop {
            let p = match d.level() {
                1 => RomanNumeralsProblem {
                    operands: vec![draw(rng, 1, 399)],
                    ops: vec![],
                    roman_in: true,
                    roman_out: false,
                },
                2 => RomanNumeralsProblem {
                    operands: vec![draw(rng, 1, 3999)],
                    ops: vec![],
                    roman_in: false,
                    roman_out: true,
                },
                3 => RomanNumeralsProblem {
                    operands: vec![draw(rng, 1, 1000), draw(rng, 1, 1000)],
                    ops: vec!['+'],
                    roman_in: true,
                    roman_out: true,
                },
                4 => RomanNumeralsProblem {
                    operands: vec![draw(rng, 100, 2500), draw(rng, 1, 1500), draw(rng, 1, 1500)],
                    ops: vec!['+', '-'],
                    roman_in: true,
                    roman_out: true,
                },
                _ => RomanNumeralsProblem {
                    operands: vec![draw(rng, 11, 150), draw(rng, 3, 40), draw(rng, 1, 999)],
                    ops: vec!['*', '-'],
                    roman_in: true,
                    roman_out: true,
                },
            };
            if p.value().is_ok() {
                return p;
            }
        }
    }

    fn prompt(&self, p: &RomanNumeralsProblem) -> String {
        let rules = "Roman numerals use I = 1, V = 5, X = 10, L = 50, C = 100, D = 500 and M = 1000. In standard \
                     form a number is written from the largest symbols to the smallest, left to right, adding \
                     their values, except for the six subtractive pairs IV = 4, IX = 9, XL = 40, XC = 90, CD = 400 \
                     and CM = 900, which must be used wherever they apply; no symbol appears more than three times \
                     in a row, and V, L and D never repeat. So 4 is IV (not IIII), 49 is XLIX (not IL) and 1994 is \
                     MCMXCIV. Standard form covers 1 to 3999.";
        let mut expr = p.show(p.operands.first().copied().unwrap_or(1));
        for (&op, &v) in p.ops.iter().zip(p.operands.iter().skip(1)) {
            let sym = match op {
                '*' => "×",
                '-' => "−",
                _ => "+",
            };
            expr = format!("{expr} {sym} {}", p.show(v));
        }
        let question = match (p.ops.is_empty(), p.roman_out) {
            (true, false) => format!("What number is the Roman numeral {expr}? Answer with the integer in digits."),
            (true, true) => format!("Write the number {expr} as a Roman numeral in standard form."),
            _ => format!(
                "Compute {expr} (× before − and +). Answer with the result as a Roman numeral in standard form."
            ),
        };
        format!("{rules}\n\n{question}\n\n{}", self.answer_instruction())
    }

    fn solve(&self, p: &RomanNumeralsProblem) -> String {
        match p.value() {
            Ok(v) if p.roman_out => to_roman(v),
            Ok(v) => v.to_string(),
            Err(_) => String::new(),
        }
    }

    fn verify(&self, p: &RomanNumeralsProblem, answer: &str) -> Score {
        let want = match p.value() {
            Ok(v) => v,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        if !p.roman_out {
            return match parse_int(answer) {
                Err(e) => Score::unparsable(e),
                Ok(v) if v == want as i64 => Score::correct(),
                Ok(v) => Score::wrong(format!("{v} is not the value")),
            };
        }
        let Some(v) = roman_value(answer) else {
            return Score::unparsable(format!(
                "`{}` is not a Roman numeral (letters I V X L C D M only)",
                gauntlet_core::answer::clip(answer, 30)
            ));
        };
        let upper = answer.to_ascii_uppercase();
        if v != want {
            return Score::wrong(format!("{upper} reads as {v}, not {want}"));
        }
        if upper != to_roman(want) {
            return Score::wrong(format!("{upper} is not the standard form of {want} ({})", to_roman(want)));
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(operands: Vec<u32>, ops: Vec<char>, roman_out: bool) -> RomanNumeralsProblem {
        RomanNumeralsProblem { operands, ops, roman_in: true, roman_out }
    }

    #[test]
    fn standard_forms() {
        for (n, s) in [
            (4, "IV"),
            (9, "IX"),
            (14, "XIV"),
            (40, "XL"),
            (49, "XLIX"),
            (90, "XC"),
            (400, "CD"),
            (944, "CMXLIV"),
            (1994, "MCMXCIV"),
            (3999, "MMMCMXCIX"),
        ] {
            assert_eq!(to_roman(n), s);
            assert_eq!(roman_value(s), Some(n));
        }
        for n in 1..=3999 {
            assert_eq!(roman_value(&to_roman(n)), Some(n));
        }
        assert_eq!(roman_value("IIII"), Some(4));
        assert_eq!(roman_value("IL"), Some(49));
        assert_eq!(roman_value("X I"), None);
    }

    #[test]
    fn example_from_the_docs() {
        let t = RomanNumerals;
        let q = p(vec![49, 494], vec!['+'], true);
        assert_eq!(t.solve(&q), "DXLIII");
        assert!(t.verify(&q, "DXLIII").correct);
        assert!(t.verify(&q, "dxliii").correct);
        assert!(t.verify(&q, "DXLIIII").reason.contains("reads as 544"));
        assert!(t.verify(&q, "DXXXXIII").reason.contains("standard form"));
        for bad in ["543", "DXLIII or DXLIV", "DXLIII/DXLIV", "D XLIII", "the answer is DXLIII", ""] {
            assert!(t.verify(&q, bad).is_format_error(), "{bad}");
        }
        let r = p(vec![49], vec![], false);
        assert!(t.prompt(&r).contains("Roman numeral XLIX?"));
        assert!(t.verify(&r, "49").correct);
        assert!(t.verify(&r, "XLIX").is_format_error());
        let m = p(vec![12, 30, 7], vec!['*', '-'], true);
        assert_eq!(m.value(), Ok(353));
    }

    #[test]
    fn oracle_at_every_level() {
        let t = RomanNumerals;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..80 {
                let q = t.generate(seed, d);
                assert!(t.verify(&q, &t.solve(&q)).correct, "L{level} seed {seed}");
            }
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = RomanNumerals;
        for q in [
            p(vec![], vec![], true),
            p(vec![0], vec![], true),
            p(vec![5, 9], vec!['-'], true),
            p(vec![5, 9], vec!['/'], true),
        ] {
            assert!(t.verify(&q, "I").reason.starts_with("malformed"));
        }
    }
}
