//! Counting problems: committees, anagrams, lattice paths with blocked points, bounded integer
//! solutions.
//!
//! **Generates** one counting question per level (table) with random parameters.
//!
//! **Verifies** by parsing one integer and comparing it with the exact count, computed by a
//! method independent of any closed formula: binomials by Pascal's rule, anagrams by the
//! multinomial coefficient in `u128`, lattice paths by dynamic programming over the grid, bounded
//! solutions by dynamic programming over the variables. The count is unique, so this is validity
//! checking. No partial credit.
//!
//! **Oracle**: the same computation.
//!
//! | level | question |
//! |---|---|
//! | 1 | committees: choose k of n people (n 6–15) |
//! | 2 | distinct arrangements of a multiset of 6–9 letters |
//! | 3 | monotone lattice paths in a grid up to 7×7 avoiding two blocked points |
//! | 4 | integer solutions of `x1 + … + xk = n` with `lo ≤ xi ≤ hi` (k = 3–4) |
//! | 5 | lattice paths in a grid up to 10×10 avoiding four blocked points, or bounded solutions with 5–6 variables and individual upper bounds |
//!
//! Level 5 is hard for frontier models: inclusion–exclusion over four blocked points (sixteen
//! terms, some vanishing by order) or over six upper bounds is long and error-prone.
//!
//! **Example**: paths from (0,0) to (2,2) moving right or up, avoiding (1,1) → `2`.
//!
//! **Failure modes**: forgetting to divide by repeated letters, inclusion–exclusion sign
//! errors, counting paths through a blocked point.

use super::super::arithmetic::expression::parse_int_answer;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The combinatorics family.
pub struct Combinatorics;

/// One counting question.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CountProblem {
    /// Choose `k` of `n`.
    Committee {
        /// People.
        n: u32,
        /// Committee size.
        k: u32,
    },
    /// Arrangements of the letters of `word` (a multiset).
    Anagram {
        /// The letters.
        word: String,
    },
    /// Right/up paths from (0,0) to (w,h) avoiding the blocked points.
    Paths {
        /// Target x.
        w: u32,
        /// Target y.
        h: u32,
        /// Blocked points.
        blocked: Vec<(u32, u32)>,
    },
    /// Solutions of `sum x_i = total` with `lo ≤ x_i ≤ hi_i`.
    Bounded {
        /// Required sum.
        total: u32,
        /// Common lower bound.
        lo: u32,
        /// Upper bound of each variable.
        hi: Vec<u32>,
    },
}

fn count(p: &CountProblem) -> Option<u128> {
    match p {
        CountProblem::Committee { n, k } if *n <= 60 => Some(pascal(*n, *k)),
        CountProblem::Anagram { word } if !word.is_empty() && word.len() <= 20 => {
            let mut counts = [0u32; 26];
            for b in word.bytes() {
                counts[usize::from(b.checked_sub(b'A')?).min(25)] += 1;
            }
            let mut left = word.len() as u32;
            let mut acc = 1u128;
            for &c in &counts {
                acc = acc.checked_mul(pascal(left, c))?;
                left -= c;
            }
            Some(acc)
        }
        CountProblem::Paths { w, h, blocked } if *w <= 20 && *h <= 20 => {
            let (w, h) = (*w as usize, *h as usize);
            let mut grid = vec![vec![0u128; h + 1]; w + 1];
            for x in 0..=w {
                for y in 0..=h {
                    grid[x][y] = if blocked.contains(&(x as u32, y as u32)) {
                        0
                    } else if x == 0 && y == 0 {
                        1
                    } else {
                        (if x > 0 { grid[x - 1][y] } else { 0 }) + (if y > 0 { grid[x][y - 1] } else { 0 })
                    };
                }
            }
            Some(grid[w][h])
        }
        CountProblem::Bounded { total, lo, hi } if *total <= 200 && hi.len() <= 8 => {
            let t = *total as usize;
            let mut ways = vec![0u128; t + 1];
            ways[0] = 1;
            for &h in hi {
                let mut next = vec![0u128; t + 1];
                for (s, &w) in ways.iter().enumerate().filter(|(_, w)| **w > 0) {
                    for v in *lo..=h {
                        if s + v as usize <= t {
                            next[s + v as usize] += w;
                        }
                    }
                }
                ways = next;
            }
            Some(ways[t])
        }
        _ => None,
    }
}

fn pascal(n: u32, k: u32) -> u128 {
    if k > n {
        return 0;
    }
    let mut row = vec![1u128];
    for _ in 0..n {
        let mut next = vec![1u128; row.len() + 1];
        for i in 1..row.len() {
            next[i] = row[i - 1] + row[i];
        }
        row = next;
    }
    row[k as usize]
}

fn paths(rng: &mut Rng, max: i64, nblocked: usize) -> CountProblem {
    loop {
        let (w, h) = (rng.range(3, max) as u32, rng.range(3, max) as u32);
        let mut blocked = Vec::new();
        while blocked.len() < nblocked {
            let b = (rng.range(0, w.into()) as u32, rng.range(0, h.into()) as u32);
            if b != (0, 0) && b != (w, h) && !blocked.contains(&b) {
                blocked.push(b);
            }
        }
        let p = CountProblem::Paths { w, h, blocked };
        if count(&p).is_some_and(|c| c > 0) {
            return p;
        }
    }
}

fn bounded(rng: &mut Rng, k: usize, individual: bool) -> CountProblem {
    loop {
        let lo = rng.range(0, 2) as u32;
        let h = rng.range(lo as i64 + 2, 9) as u32;
        let hi: Vec<u32> =
            (0..k).map(|_| if individual { rng.range(lo as i64 + 2, 9) as u32 } else { h }).collect();
        let max: u32 = hi.iter().sum();
        let total = rng.range((lo * k as u32) as i64 + 1, max as i64 - 1) as u32;
        let p = CountProblem::Bounded { total, lo, hi };
        if count(&p).is_some_and(|c| c > 1) {
            return p;
        }
    }
}

impl Task for Combinatorics {
    type Problem = CountProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "combinatorics",
            category: Category::Probability,
            description: "Count committees, anagrams, lattice paths or bounded integer solutions exactly.",
            levels: [
                "choose k of n people, n 6-15",
                "arrangements of a multiset of 6-9 letters",
                "lattice paths up to 7x7 avoiding two points",
                "bounded integer solutions, 3-4 variables",
                "lattice paths up to 10x10 avoiding four points, or 5-6 variables with individual bounds",
            ],
            answer_format: "one integer, e.g. `120`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> CountProblem {
        match d.level() {
            1 => {
                let n = rng.range(6, 15) as u32;
                CountProblem::Committee { n, k: rng.range(2, n as i64 - 2) as u32 }
            }
            2 => {
                let len = rng.range(6, 9) as usize;
                let distinct = rng.range(2, 4) as u8;
                let mut word: Vec<u8> = (0..len).map(|_| b'A' + rng.below(distinct.into()) as u8).collect();
                word.sort_unstable();
                CountProblem::Anagram { word: String::from_utf8(word).unwrap_or_default() }
            }
            3 => paths(rng, 7, 2),
            4 => {
                let k = rng.range(3, 4) as usize;
                bounded(rng, k, false)
            }
            _ => {
                if rng.chance(0.5) {
                    paths(rng, 10, 4)
                } else {
                    let k = rng.range(5, 6) as usize;
                    bounded(rng, k, true)
                }
            }
        }
    }

    fn prompt(&self, p: &CountProblem) -> String {
        let q = match p {
            CountProblem::Committee { n, k } => {
                format!("In how many ways can a committee of {k} people be chosen from {n} people? (Order does not matter.)")
            }
            CountProblem::Anagram { word } => {
                let letters: Vec<String> = word.chars().map(String::from).collect();
                format!(
                    "How many distinct strings can be formed by arranging all of these letters: {}? \
                     (Strings that read the same count once.)",
                    letters.join(", ")
                )
            }
            CountProblem::Paths { w, h, blocked } => {
                let b: Vec<String> = blocked.iter().map(|(x, y)| format!("({x},{y})")).collect();
                format!(
                    "A path on the integer grid starts at (0,0) and ends at ({w},{h}); each step moves one unit \
                     right (x+1) or one unit up (y+1). How many such paths avoid every one of these points: {}?",
                    b.join(", ")
                )
            }
            CountProblem::Bounded { total, lo, hi } => {
                let vars: Vec<String> = (1..=hi.len()).map(|i| format!("x{i}")).collect();
                let bounds: Vec<String> =
                    hi.iter().enumerate().map(|(i, h)| format!("{lo} <= x{} <= {h}", i + 1)).collect();
                format!(
                    "How many solutions in integers does {} = {total} have, with {}?",
                    vars.join(" + "),
                    bounds.join(", ")
                )
            }
        };
        format!("{q}\n\n{}", self.answer_instruction())
    }

    fn solve(&self, p: &CountProblem) -> String {
        count(p).map(|c| c.to_string()).unwrap_or_default()
    }

    fn verify(&self, p: &CountProblem, answer: &str) -> Score {
        let Some(want) = count(p) else {
            return Score::wrong("malformed problem");
        };
        match parse_int_answer(answer) {
            Err(e) => Score::unparsable(e),
            Ok(Some(v)) if i128::from(v) == want as i128 => Score::correct(),
            Ok(Some(v)) => Score::wrong(format!("{v} is not the count")),
            Ok(None) => Score::wrong("not an integer"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_match_closed_forms() {
        assert_eq!(count(&CountProblem::Committee { n: 10, k: 3 }), Some(120));
        assert_eq!(count(&CountProblem::Anagram { word: "AABBBC".into() }), Some(60)); // 6!/(2!3!1!)
        let p = CountProblem::Paths { w: 2, h: 2, blocked: vec![(1, 1)] };
        assert_eq!(count(&p), Some(2));
        // x1+x2+x3 = 5, 0 <= xi <= 2: coefficient of t^5 in (1+t+t^2)^3 = 3
        assert_eq!(count(&CountProblem::Bounded { total: 5, lo: 0, hi: vec![2, 2, 2] }), Some(3));
    }

    #[test]
    fn answers_are_integers_strictly() {
        let p = CountProblem::Committee { n: 10, k: 3 };
        assert!(Combinatorics.verify(&p, "120").correct);
        assert!(Combinatorics.verify(&p, "120.0").correct);
        assert!(!Combinatorics.verify(&p, "720").correct);
        for bad in ["120 or 720", "C(10,3)", "10 choose 3", "120 ways"] {
            assert!(Combinatorics.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn generated_problems_have_positive_counts() {
        for d in Difficulty::all() {
            for seed in 0..40 {
                let p = Combinatorics.generate(seed, d);
                assert!(count(&p).is_some_and(|c| c > 0), "{p:?}");
                assert!(Combinatorics.verify(&p, &Combinatorics.solve(&p)).correct);
            }
        }
    }
}
