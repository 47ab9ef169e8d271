//! Cryptarithms (alphametics): letters stand for distinct digits in a column addition.
//!
//! **Generates** a random injective map from ten letters (drawn from `A..Z`) onto the digits
//! 0–9, random addends with the level's digit counts (no leading zero), their sum, and spells
//! every number with the letters. The puzzle is the words alone (`ABC + DEF = GHIJ`). A
//! column-wise backtracking solver counts solutions (up to two); while there is more than one,
//! one more letter's digit is revealed as a hint (`Given: A = 3`), so every puzzle has exactly
//! one solution, proven by the solver. Draws are repeated (up to 40) until a puzzle needs at
//! most the level's number of hints (2, 2, 1, 1, 0); otherwise the draw needing fewest is kept.
//!
//! **Verifies** the assignment, not a stored string: every letter of the puzzle must receive one
//! digit (`A=1, B=2, …`, any order, any case), distinct letters distinct digits, no word of two
//! or more letters may start with 0, every hint must be respected, and the column addition must
//! hold (checked with exact `u128` arithmetic). Missing, repeated or unknown letters and values
//! that are not one digit are unparsable. No partial credit.
//!
//! **Oracle**: the generating map restricted to the puzzle's letters (the unique solution).
//!
//! | level | addends | digits per addend |
//! |---|---|---|
//! | 1 | 2 | 2–3 |
//! | 2 | 2 | 3–4 |
//! | 3 | 2 | 4–5 |
//! | 4 | 3 | 4–6 |
//! | 5 | 4 | 5–7 |
//!
//! Level 5 is hard for frontier models: nine or ten letters, four addends and carries up to 3
//! make the column reasoning long, and a single wrong carry breaks the whole assignment.
//!
//! **Example**: `SEND + MORE = MONEY` → `S=9, E=5, N=6, D=7, M=1, O=0, R=8, Y=2`.
//!
//! **Failure modes**: two letters given the same digit, a leading zero, a dropped carry,
//! forgetting a letter.

use gauntlet_core::answer::assignments;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The cryptarithm family.
pub struct Cryptarithm;

/// One puzzle: `addends[0] + addends[1] + … = sum`, letters standing for digits.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CryptarithmProblem {
    /// The words being added (uppercase letters).
    pub addends: Vec<String>,
    /// The word of the sum.
    pub sum: String,
    /// Letters whose digit is given, with that digit.
    pub hints: Vec<(char, u8)>,
    /// The unique solution, letter → digit, in order of first appearance.
    pub solution: Vec<(char, u8)>,
}

fn words(p: &CryptarithmProblem) -> impl Iterator<Item = &String> {
    p.addends.iter().chain(std::iter::once(&p.sum))
}

/// The distinct letters of the puzzle in order of first appearance.
fn letters(p: &CryptarithmProblem) -> Vec<char> {
    let mut out = Vec::new();
    for c in words(p).flat_map(|w| w.chars()) {
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

fn check_problem(p: &CryptarithmProblem) -> Result<(), String> {
    let ok = |w: &String| !w.is_empty() && w.len() <= 12 && w.chars().all(|c| c.is_ascii_uppercase());
    if p.addends.len() < 2 || p.addends.len() > 6 || !words(p).all(ok) {
        return Err("malformed problem: bad words".into());
    }
    if letters(p).len() > 10 || p.hints.iter().any(|&(_, d)| d > 9) {
        return Err("malformed problem: more than ten letters".into());
    }
    Ok(())
}

/// Column-wise solver: counts assignments (up to `limit`) that satisfy the addition.
struct Solver {
    /// Per column (least significant first): addend letters and the sum letter (if any).
    cols: Vec<(Vec<usize>, Option<usize>)>,
    leading: Vec<bool>,
    n: usize,
}

impl Solver {
    fn new(p: &CryptarithmProblem) -> (Solver, Vec<char>) {
        let ls = letters(p);
        let idx = |c: char| ls.iter().position(|&l| l == c).unwrap_or(0);
        let width = words(p).map(String::len).max().unwrap_or(0);
        let col_of = |w: &str, k: usize| w.chars().rev().nth(k).map(idx);
        let cols = (0..width)
            .map(|k| (p.addends.iter().filter_map(|w| col_of(w, k)).collect(), col_of(&p.sum, k)))
            .collect();
        let mut leading = vec![false; ls.len()];
        for w in words(p).filter(|w| w.len() > 1) {
            leading[idx(w.chars().next().unwrap_or('A'))] = true;
        }
        (Solver { cols, leading, n: ls.len() }, ls)
    }

    /// Whether letter `l` may take digit `d`: unused, and not 0 for a leading letter.
    fn allowed(&self, d: u8, l: usize, used: &[bool; 10]) -> bool {
        !used[d as usize] && (d != 0 || !self.leading[l])
    }

    /// Count solutions up to `limit`, with `fixed` digits pre-assigned.
    fn count(&self, fixed: &[Option<u8>], limit: usize) -> usize {
        let mut val = fixed.to_vec();
        let mut used = [false; 10];
        for &d in val.iter().flatten() {
            if used[d as usize] {
                return 0;
            }
            used[d as usize] = true;
        }
        let mut found = 0;
        self.column(0, 0, &mut val, &mut used, limit, &mut found);
        found
    }

    fn column(
        &self,
        k: usize,
        carry: u32,
        val: &mut [Option<u8>],
        used: &mut [bool; 10],
        lim: usize,
        found: &mut usize,
    ) {
        if *found >= lim {
            return;
        }
        if k == self.cols.len() {
            if carry == 0 && val.iter().take(self.n).all(Option::is_some) {
                *found += 1;
            }
            return;
        }
        // Assign the first unassigned addend letter of this column, then recurse on the same column.
        let (adds, sum) = &self.cols[k];
        if let Some(&l) = adds.iter().find(|&&l| val[l].is_none()) {
            for d in 0..10u8 {
                if self.allowed(d, l, used) {
                    (val[l], used[d as usize]) = (Some(d), true);
                    self.column(k, carry, val, used, lim, found);
                    (val[l], used[d as usize]) = (None, false);
                }
            }
            return;
        }
        let total = carry + adds.iter().map(|&l| u32::from(val[l].unwrap_or(0))).sum::<u32>();
        let digit = (total % 10) as u8;
        match sum {
            None => {
                if total == 0 {
                    self.column(k + 1, 0, val, used, lim, found);
                }
            }
            Some(s) => match val[*s] {
                Some(d) if d == digit => self.column(k + 1, total / 10, val, used, lim, found),
                Some(_) => {}
                None if self.allowed(digit, *s, used) => {
                    (val[*s], used[digit as usize]) = (Some(digit), true);
                    self.column(k + 1, total / 10, val, used, lim, found);
                    (val[*s], used[digit as usize]) = (None, false);
                }
                None => {}
            },
        }
    }
}

fn number(rng: &mut Rng, digits: i64) -> u64 {
    rng.range(10i64.pow(digits as u32 - 1), 10i64.pow(digits as u32) - 1) as u64
}

fn spell(n: u64, map: &[char; 10]) -> String {
    n.to_string().bytes().map(|b| map[(b - b'0') as usize]).collect()
}

fn value(w: &str, digit: &dyn Fn(char) -> u8) -> u128 {
    w.chars().fold(0u128, |acc, c| acc * 10 + u128::from(digit(c)))
}

/// One random puzzle with `k` addends of `lo..=hi` digits, with the hints that make it unique.
fn draw(rng: &mut Rng, k: usize, lo: i64, hi: i64) -> CryptarithmProblem {
    let alphabet: Vec<char> = ('A'..='Z').collect();
    let pick = rng.sample_indices(26, 10);
    let mut map = ['A'; 10];
    for (digit, &i) in pick.iter().enumerate() {
        map[digit] = alphabet[i];
    }
    rng.shuffle(&mut map);
    let nums: Vec<u64> = (0..k)
        .map(|_| {
            let digits = rng.range(lo, hi);
            number(rng, digits)
        })
        .collect();
    let total: u64 = nums.iter().sum();
    let mut p = CryptarithmProblem {
        addends: nums.iter().map(|&n| spell(n, &map)).collect(),
        sum: spell(total, &map),
        hints: Vec::new(),
        solution: Vec::new(),
    };
    let ls = letters(&p);
    let digit_of = |c: char| map.iter().position(|&m| m == c).unwrap_or(0) as u8;
    p.solution = ls.iter().map(|&c| (c, digit_of(c))).collect();
    let (solver, _) = Solver::new(&p);
    let mut fixed = vec![None; ls.len()];
    let mut order = rng.permutation(ls.len());
    while solver.count(&fixed, 2) > 1 {
        let Some(i) = order.pop() else { break };
        fixed[i] = Some(digit_of(ls[i]));
        p.hints.push((ls[i], digit_of(ls[i])));
    }
    p
}

impl Task for Cryptarithm {
    type Problem = CryptarithmProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "cryptarithm",
            category: Category::Arithmetic,
            description:
                "Find the digit of every letter in a word addition (distinct letters, distinct digits).",
            levels: [
                "2 addends of 2-3 digits",
                "2 addends of 3-4 digits",
                "2 addends of 4-5 digits",
                "3 addends of 4-6 digits",
                "4 addends of 5-7 digits",
            ],
            answer_format:
                "every letter as LETTER=digit, separated by commas, in any order, e.g. `A=1, B=0, C=9`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> CryptarithmProblem {
        let (k, lo, hi) = d.pick([(2, 2, 3), (2, 3, 4), (2, 4, 5), (3, 4, 6), (4, 5, 7)]);
        let allowed = d.pick([2, 2, 1, 1, 0]);
        let mut best: Option<CryptarithmProblem> = None;
        // Draw puzzles until one needs at most `allowed` hints (keep the best of 40 draws).
        for _ in 0..40 {
            let p = draw(rng, k, lo, hi);
            if p.hints.len() <= allowed {
                return p;
            }
            if best.as_ref().is_none_or(|b| p.hints.len() < b.hints.len()) {
                best = Some(p);
            }
        }
        best.unwrap_or_else(|| draw(rng, k, lo, hi))
    }

    fn prompt(&self, p: &CryptarithmProblem) -> String {
        let hints = if p.hints.is_empty() {
            String::new()
        } else {
            let h: Vec<String> = p.hints.iter().map(|(c, d)| format!("{c} = {d}")).collect();
            format!("\nGiven: {}\n", h.join(", "))
        };
        format!(
            "Solve this cryptarithm. Each letter stands for one digit 0-9; different letters stand for \
             different digits, and no number of two or more digits starts with 0. The addition holds \
             in base 10, and the puzzle has exactly one solution.\n\n{} = {}\n{hints}\n{}",
            p.addends.join(" + "),
            p.sum,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &CryptarithmProblem) -> String {
        p.solution.iter().map(|(c, d)| format!("{c}={d}")).collect::<Vec<_>>().join(", ")
    }

    fn verify(&self, p: &CryptarithmProblem, answer: &str) -> Score {
        if let Err(e) = check_problem(p) {
            return Score::wrong(e);
        }
        let ls = letters(p);
        let names: Vec<String> = ls.iter().map(char::to_string).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let parsed = assignments(answer, &names, |v| match v.as_bytes() {
            [b @ b'0'..=b'9'] => Some(b - b'0'),
            _ => None,
        });
        let vals = match parsed {
            Ok(v) => v,
            Err(e) => return Score::unparsable(e),
        };
        if let Some(i) = vals.iter().position(Option::is_none) {
            return Score::unparsable(format!("no digit for {}", ls[i]));
        }
        let vals: Vec<u8> = vals.into_iter().flatten().collect();
        for i in 0..vals.len() {
            if let Some(j) = (i + 1..vals.len()).find(|&j| vals[j] == vals[i]) {
                return Score::wrong(format!("{} and {} are both {}", ls[i], ls[j], vals[i]));
            }
        }
        let digit = |c: char| ls.iter().position(|&l| l == c).map_or(0, |i| vals[i]);
        if let Some(&(c, d)) = p.hints.iter().find(|&&(c, d)| digit(c) != d) {
            return Score::wrong(format!("the hint says {c} = {d}"));
        }
        if let Some(w) = words(p).find(|w| w.len() > 1 && w.starts_with(|c| digit(c) == 0)) {
            return Score::wrong(format!("{w} starts with 0"));
        }
        let lhs: u128 = p.addends.iter().map(|w| value(w, &digit)).sum();
        let rhs = value(&p.sum, &digit);
        if lhs == rhs {
            Score::correct()
        } else {
            Score::wrong(format!("the addends sum to {lhs}, but {} is {rhs}", p.sum))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn send_more() -> CryptarithmProblem {
        let mut p = CryptarithmProblem {
            addends: vec!["SEND".into(), "MORE".into()],
            sum: "MONEY".into(),
            hints: vec![],
            solution: vec![],
        };
        p.solution = "SENDMORY".chars().zip([9, 5, 6, 7, 1, 0, 8, 2]).collect();
        p
    }

    #[test]
    fn send_more_money_is_unique_and_verified() {
        let p = send_more();
        let (solver, ls) = Solver::new(&p);
        assert_eq!(solver.count(&vec![None; ls.len()], 3), 1);
        assert!(Cryptarithm.verify(&p, &Cryptarithm.solve(&p)).correct);
        // Any order and case, newlines.
        assert!(Cryptarithm.verify(&p, "y=2\nM=1, O=0, R=8, S=9, E=5, N=6, D=7").correct);
    }

    #[test]
    fn near_misses_and_hedges_are_rejected() {
        let p = send_more();
        let r = |a: &str| Cryptarithm.verify(&p, a);
        assert!(!r("S=9, E=5, N=6, D=7, M=1, O=0, R=8, Y=3").correct); // wrong sum
        assert!(r("S=9, E=5, N=6, D=7, M=1, O=0, R=8, Y=2, Y=2").is_format_error());
        assert!(r("S=9 or 8, E=5, N=6, D=7, M=1, O=0, R=8, Y=2").is_format_error());
        assert!(r("S=9, E=5, N=6, D=7, M=1, O=0, R=8").is_format_error()); // Y missing
        assert!(r("S=9, E=5, N=6, D=7, M=1, O=0, R=8, Y=2, Q=4").is_format_error());
        assert!(r("S=10, E=5, N=6, D=7, M=1, O=0, R=8, Y=2").is_format_error());
        let dup = r("S=9, E=5, N=5, D=7, M=1, O=0, R=8, Y=2");
        assert!(!dup.correct && dup.reason.contains("both 5"), "{dup:?}");
    }

    #[test]
    fn leading_zero_and_hints_are_enforced() {
        // A + B = C: many solutions without hints; with hints only one.
        let mut p = CryptarithmProblem {
            addends: vec!["AB".into(), "AC".into()],
            sum: "DE".into(),
            hints: vec![('A', 1)],
            solution: vec![],
        };
        assert!(!Cryptarithm.verify(&p, "A=2, B=3, C=4, D=4, E=7").correct);
        assert!(Cryptarithm.verify(&p, "A=1, B=3, C=4, D=2, E=7").correct);
        p.hints.clear();
        assert!(!Cryptarithm.verify(&p, "A=0, B=3, C=4, D=1, E=7").correct);
    }

    #[test]
    fn generated_puzzles_are_unique() {
        for d in Difficulty::all() {
            for seed in 0..30 {
                let p = Cryptarithm.generate(seed, d);
                let (solver, ls) = Solver::new(&p);
                let mut fixed = vec![None; ls.len()];
                for &(c, v) in &p.hints {
                    fixed[ls.iter().position(|&l| l == c).unwrap()] = Some(v);
                }
                assert_eq!(solver.count(&fixed, 2), 1, "{p:?}");
                assert!(Cryptarithm.verify(&p, &Cryptarithm.solve(&p)).correct);
            }
        }
    }
}
