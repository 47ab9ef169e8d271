//! Bitwise arithmetic on fixed-width unsigned integers.
//!
//! **Generates** a random expression tree over `&` (AND), `|` (OR), `^` (XOR), `<<`, `>>` and
//! `~` (NOT within the word width), fully parenthesised so precedence never matters, with
//! operands shown in decimal, binary (`0b…`) or hexadecimal (`0x…`) by level.
//!
//! **Verifies** by evaluating the stored tree with exact `u64` arithmetic masked to the width
//! (left shifts drop the bits that leave the word) and comparing with one decimal integer. No
//! partial credit.
//!
//! **Oracle**: the same evaluation.
//!
//! | level | width | operators | operands |
//! |---|---|---|---|
//! | 1 | 4 bits | 1 of `& | ^` | decimal |
//! | 2 | 8 bits | 2 of `& | ^` | binary |
//! | 3 | 8 bits | 3, with shifts | hexadecimal |
//! | 4 | 16 bits | 4, with shifts and `~` | hexadecimal |
//! | 5 | 32 bits | 6, with shifts and `~` | hexadecimal |
//!
//! Level 5 is hard for frontier models: 32-bit values must be tracked through six operations,
//! and the final hex-to-decimal conversion of a 10-digit value is itself error-prone.
//!
//! **Example**: 8 bits, `(0b1100 & 0b1010) | 0b0001` → `9`.
//!
//! **Failure modes**: forgetting the mask on `~` and `<<`, hex digit slips, answering in hex.

use super::expression::parse_int_answer;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The bitwise-arithmetic family.
pub struct BitwiseArithmetic;

/// An expression tree.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bits {
    /// A literal.
    Num(u64),
    /// NOT within the width.
    Not(Box<Bits>),
    /// A binary operator (`&`, `|`, `^`, `<`, `>` for `<<`, `>>`).
    Bin(char, Box<Bits>, Box<Bits>),
}

/// One question.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BitwiseProblem {
    /// Word width in bits (4–32).
    pub width: u32,
    /// Literal style: 10, 2 or 16.
    pub radix: u32,
    /// The expression.
    pub expr: Bits,
}

fn eval(e: &Bits, mask: u64, depth: usize) -> Option<u64> {
    if depth > 20 {
        return None;
    }
    Some(match e {
        Bits::Num(n) => n & mask,
        Bits::Not(a) => !eval(a, mask, depth + 1)? & mask,
        Bits::Bin(op, a, b) => {
            let (x, y) = (eval(a, mask, depth + 1)?, eval(b, mask, depth + 1)?);
            match op {
                '&' => x & y,
                '|' => x | y,
                '^' => x ^ y,
                '<' if y < 64 => (x << y) & mask,
                '>' if y < 64 => x >> y,
                _ => return None,
            }
        }
    })
}

fn value(p: &BitwiseProblem) -> Option<u64> {
    if !(1..=32).contains(&p.width) {
        return None;
    }
    eval(&p.expr, (1u64 << p.width) - 1, 0)
}

fn literal(n: u64, p: &BitwiseProblem) -> String {
    let digits = (p.width / 4) as usize;
    match p.radix {
        2 => format!("0b{n:0w$b}", w = p.width as usize),
        16 => format!("0x{n:0digits$X}"),
        _ => n.to_string(),
    }
}

fn show(e: &Bits, p: &BitwiseProblem, top: bool) -> String {
    let s = match e {
        Bits::Num(n) => return literal(*n, p),
        Bits::Not(a) => return format!("~{}", show(a, p, false)),
        Bits::Bin(op, a, b) => {
            let sym = match op {
                '<' => "<<",
                '>' => ">>",
                '&' => "&",
                '|' => "|",
                _ => "^",
            };
            // Shift amounts are shown in decimal.
            let right = if matches!(op, '<' | '>') {
                match **b {
                    Bits::Num(k) => k.to_string(),
                    _ => show(b, p, false),
                }
            } else {
                show(b, p, false)
            };
            format!("{} {sym} {right}", show(a, p, false))
        }
    };
    if top {
        s
    } else {
        format!("({s})")
    }
}

fn tree(rng: &mut Rng, ops: usize, width: u32, shifts: bool, not: bool) -> Bits {
    if ops == 0 {
        return Bits::Num(rng.below(1 << width));
    }
    if not && rng.chance(0.2) {
        return Bits::Not(Box::new(tree(rng, ops - 1, width, shifts, not)));
    }
    if shifts && rng.chance(0.3) {
        let op = if rng.chance(0.5) { '<' } else { '>' };
        let k = rng.range(1, i64::from(width / 2).max(1)) as u64;
        return Bits::Bin(op, Box::new(tree(rng, ops - 1, width, shifts, not)), Box::new(Bits::Num(k)));
    }
    let left = rng.index(ops);
    let op = ['&', '|', '^'][rng.index(3)];
    Bits::Bin(
        op,
        Box::new(tree(rng, left, width, shifts, not)),
        Box::new(tree(rng, ops - 1 - left, width, shifts, not)),
    )
}

impl Task for BitwiseArithmetic {
    type Problem = BitwiseProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "bitwise_arithmetic",
            category: Category::Arithmetic,
            description:
                "Evaluate an expression of AND, OR, XOR, shifts and NOT on fixed-width unsigned integers.",
            levels: [
                "4 bits, one of & | ^, decimal operands",
                "8 bits, 2 operators, binary operands",
                "8 bits, 3 operators with shifts, hex operands",
                "16 bits, 4 operators with shifts and ~, hex operands",
                "32 bits, 6 operators with shifts and ~, hex operands",
            ],
            answer_format: "the value as one decimal integer, e.g. `37`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> BitwiseProblem {
        let (width, radix, ops, shifts, not) = d.pick([
            (4, 10, 1, false, false),
            (8, 2, 2, false, false),
            (8, 16, 3, true, false),
            (16, 16, 4, true, true),
            (32, 16, 6, true, true),
        ]);
        BitwiseProblem { width, radix, expr: tree(rng, ops, width, shifts, not) }
    }

    fn prompt(&self, p: &BitwiseProblem) -> String {
        format!(
            "All values are unsigned {}-bit integers: & is bitwise AND, | is OR, ^ is XOR, ~ is NOT \
             (flip all {} bits), << and >> shift left and right (bits shifted out are lost, zeros are \
             shifted in). Evaluate:\n\n{}\n\nGive the result in decimal.\n\n{}",
            p.width,
            p.width,
            show(&p.expr, p, true),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &BitwiseProblem) -> String {
        value(p).map(|v| v.to_string()).unwrap_or_default()
    }

    fn verify(&self, p: &BitwiseProblem, answer: &str) -> Score {
        let Some(want) = value(p) else {
            return Score::wrong("malformed problem");
        };
        match parse_int_answer(answer) {
            Err(e) => Score::unparsable(e),
            Ok(Some(v)) if v >= 0 && v as u64 == want => Score::correct(),
            Ok(Some(v)) => Score::wrong(format!("{v} is not the value")),
            Ok(None) => Score::wrong("not an integer"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(n: u64) -> Box<Bits> {
        Box::new(Bits::Num(n))
    }

    #[test]
    fn evaluation_masks_to_the_width() {
        let and_or = Bits::Bin('|', Box::new(Bits::Bin('&', num(12), num(10))), num(1));
        let p = BitwiseProblem { width: 8, radix: 2, expr: and_or };
        assert_eq!(BitwiseArithmetic.solve(&p), "9");
        assert!(show(&p.expr, &p, true).contains("0b00001100 & 0b00001010"));
        let not = BitwiseProblem { width: 8, radix: 16, expr: Bits::Not(num(0x0F)) };
        assert_eq!(BitwiseArithmetic.solve(&not), "240");
        let shl = BitwiseProblem { width: 8, radix: 16, expr: Bits::Bin('<', num(0xF0), num(2)) };
        assert_eq!(BitwiseArithmetic.solve(&shl), "192");
    }

    #[test]
    fn near_misses_are_rejected() {
        let p = BitwiseProblem { width: 8, radix: 16, expr: Bits::Not(num(0x0F)) };
        assert!(BitwiseArithmetic.verify(&p, "240").correct);
        assert!(!BitwiseArithmetic.verify(&p, "-16").correct);
        for bad in ["0xF0", "240 or 241", "11110000b", "240 (0xF0)"] {
            assert!(BitwiseArithmetic.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn generated_questions_verify() {
        for d in Difficulty::all() {
            for seed in 0..40 {
                let p = BitwiseArithmetic.generate(seed, d);
                assert!(BitwiseArithmetic.verify(&p, &BitwiseArithmetic.solve(&p)).correct, "{p:?}");
            }
        }
    }
}
