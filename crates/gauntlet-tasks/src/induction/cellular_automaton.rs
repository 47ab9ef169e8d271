//! Cellular automaton: infer an unknown elementary (Wolfram) rule from consecutive generations of a
//! row of 0/1 cells, and give the next generations or the rule number.
//!
//! **Generates** a hidden rule (0–255), a random first row and the generations that follow, under
//! a stated boundary (the row wraps around, or cells beyond the ends are 0). The prompt shows the
//! first few generations; the question asks for the next one (two at level 4) or, at level 5, the
//! rule's Wolfram number. Uniqueness is **proved** from the rows shown: each transition reveals
//! the new value for the neighbourhoods (left, centre, right) it contains, and an instance is kept
//! only when every neighbourhood the answer depends on was revealed, so every rule consistent with
//! the rows shown gives the same answer (the unit tests check this against all 256 rules); for
//! the rule number that means all 8 neighbourhoods. Instances whose next row equals the last row
//! shown, or is all 0s or all 1s, are redrawn.
//!
//! **Verifies** the answered rows (exactly the asked number, each of the row's width; cells `0`
//! `1`, written together or separated by spaces, one row per line) cell by cell against the
//! rule's output, or one integer against the rule number. 0/1.
//!
//! | level | width | generations shown | asked | boundary |
//! |---|---|---|---|---|
//! | 1 | 8 | 4 | next row | wraps |
//! | 2 | 10 | 3 | next row | wraps or 0 |
//! | 3 | 12 | 3 | next row | wraps or 0 |
//! | 4 | 14 | 2 | next 2 rows | wraps or 0 |
//! | 5 | 12–16 | 2–3 | the rule number | wraps or 0 |
//!
//! **Example**: rule 30 (new cell = L XOR (C OR R)), cells beyond the ends 0, width 7:
//! `0001000` → `0011100` → `0110010` → `1101111`; the next generation is `1001000`.
//!
//! **Failure modes**: reading the rule off one neighbourhood and generalising, forgetting the
//! wrap-around (or the 0 border) at the ends, writing the Wolfram number with the bit order
//! reversed.

use crate::common::parse_grid;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The cellular-automaton family.
pub struct CellularAutomaton;

/// One problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CellularAutomatonProblem {
    /// The hidden Wolfram rule.
    pub rule: u8,
    /// Whether the row wraps around (else cells beyond the ends are 0).
    pub wrap: bool,
    /// The generations shown, first first (all of one width).
    pub rows: Vec<Vec<u8>>,
    /// How many next generations are asked; 0 asks for the rule number.
    pub ask: u8,
}

/// The neighbourhood index `4·left + 2·centre + right` of cell `i`.
fn hood(row: &[u8], i: usize, wrap: bool) -> usize {
    let n = row.len();
    let at = |j: Option<usize>| j.map_or(0, |j| row[j] as usize);
    let left = if i > 0 {
        Some(i - 1)
    } else if wrap {
        Some(n - 1)
    } else {
        None
    };
    let right = if i + 1 < n {
        Some(i + 1)
    } else if wrap {
        Some(0)
    } else {
        None
    };
    4 * at(left) + 2 * row[i] as usize + at(right)
}

/// One generation under `rule`: cell `i` becomes bit `hood(i)` of the rule.
pub fn step(rule: u8, row: &[u8], wrap: bool) -> Vec<u8> {
    (0..row.len()).map(|i| (rule >> hood(row, i, wrap)) & 1).collect()
}

/// The bit mask of neighbourhoods present in `row`.
fn hoods(row: &[u8], wrap: bool) -> u8 {
    (0..row.len()).fold(0u8, |m, i| m | 1 << hood(row, i, wrap))
}

fn well_formed(p: &CellularAutomatonProblem) -> bool {
    let w = p.rows.first().map_or(0, Vec::len);
    (3..=32).contains(&w)
        && (2..=6).contains(&p.rows.len())
        && p.ask <= 3
        && p.rows.iter().all(|r| r.len() == w && r.iter().all(|&c| c <= 1))
}

/// Whether `rule` produces every transition shown.
fn fits(p: &CellularAutomatonProblem, rule: u8) -> bool {
    p.rows.windows(2).all(|w| step(rule, &w[0], p.wrap) == w[1])
}

/// The rows asked for (empty when the rule number is asked).
fn answer_rows(p: &CellularAutomatonProblem) -> Vec<Vec<u8>> {
    let mut row = p.rows.last().cloned().unwrap_or_default();
    (0..p.ask)
        .map(|_| {
            row = step(p.rule, &row, p.wrap);
            row.clone()
        })
        .collect()
}

/// The neighbourhoods revealed by the transitions shown.
fn revealed(p: &CellularAutomatonProblem) -> u8 {
    p.rows[..p.rows.len() - 1].iter().fold(0, |m, r| m | hoods(r, p.wrap))
}

/// Whether every rule that fits the rows shown gives the same answer: the neighbourhoods the
/// answer reads (those of the last row and of every asked row but the final one; all 8 for the
/// rule number) were all revealed.
fn unique(p: &CellularAutomatonProblem) -> bool {
    let need = if p.ask == 0 {
        0xff
    } else {
        let mut rows = vec![p.rows[p.rows.len() - 1].clone()];
        rows.extend(answer_rows(p));
        rows[..rows.len() - 1].iter().fold(0, |m, r| m | hoods(r, p.wrap))
    };
    need & !revealed(p) == 0
}

/// Level parameters: width range, generations shown (range), rows asked (0 = the rule number).
fn params(d: Difficulty) -> ((usize, usize), (usize, usize), u8) {
    d.pick([
        ((8, 8), (4, 4), 1),
        ((10, 10), (3, 3), 1),
        ((12, 12), (3, 3), 1),
        ((14, 14), (2, 2), 2),
        ((12, 16), (2, 3), 0),
    ])
}

fn show_row(r: &[u8]) -> String {
    r.iter().map(|c| if *c == 1 { '1' } else { '0' }).collect()
}

impl Task for CellularAutomaton {
    type Problem = CellularAutomatonProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "cellular_automaton",
            category: Category::Induction,
            description:
                "Infer an unknown elementary cellular-automaton rule from generations shown; give the \
                          next generation or the rule number.",
            levels: [
                "width 8, 4 generations shown, wrapping; next row",
                "width 10, 3 generations; next row",
                "width 12, 3 generations; next row",
                "width 14, 2 generations; next 2 rows",
                "width 12–16, 2–3 generations; the Wolfram rule number",
            ],
            answer_format:
                "the asked rows of 0s and 1s, one row per line (spaces between cells allowed), or one \
                            integer where the rule number is asked (e.g. `01101001`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> CellularAutomatonProblem {
        let ((wlo, whi), (glo, ghi), ask) = params(d);
        loop {
            let w = rng.range(wlo as i64, whi as i64) as usize;
            let gens = rng.range(glo as i64, ghi as i64) as usize;
            let rule = rng.below(256) as u8;
            let wrap = d.level() == 1 || rng.chance(0.5);
            let mut rows = vec![(0..w).map(|_| rng.below(2) as u8).collect::<Vec<u8>>()];
            while rows.len() < gens {
                let next = step(rule, &rows[rows.len() - 1], wrap);
                rows.push(next);
            }
            let p = CellularAutomatonProblem { rule, wrap, rows, ask };
            let next = step(rule, &p.rows[gens - 1], wrap);
            let flat = next.iter().all(|&c| c == next[0]);
            let shown_flat = p.rows.iter().any(|r| r.iter().all(|&c| c == r[0]));
            if unique(&p) && !flat && !shown_flat && next != p.rows[gens - 1] {
                return p;
            }
        }
    }

    fn prompt(&self, p: &CellularAutomatonProblem) -> String {
        let boundary = if p.wrap {
            "The row wraps around: the left neighbour of the first cell is the last cell, and the right \
             neighbour of the last cell is the first cell."
        } else {
            "Cells beyond the two ends of the row count as 0 (the first cell's left neighbour and the last \
             cell's right neighbour are 0)."
        };
        let rows: Vec<String> = p
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| format!("generation {}: {}", i + 1, show_row(r)))
            .collect();
        let question = match p.ask {
            0 => "What is the rule's number? The number of a rule is the sum of 2^(4·L + 2·C + R) over the \
                  neighbourhoods (L, C, R) whose new value is 1 (so the neighbourhood 111 is worth 128 and 000 \
                  is worth 1). Answer with one integer from 0 to 255."
                .to_string(),
            1 => format!("Give generation {}: one row of {} cells.", p.rows.len() + 1, p.rows[0].len()),
            k => format!(
                "Give the next {k} generations, {} to {}: one row of {} cells per line.",
                p.rows.len() + 1,
                p.rows.len() + k as usize,
                p.rows[0].len()
            ),
        };
        format!(
            "A row of cells, each 0 or 1, changes in generations by a fixed but unknown rule. In every generation \
             every cell's new value depends only on the values of its left neighbour L, itself C and its right \
             neighbour R in the previous generation, by the same table of 8 cases for every cell and every \
             generation (an elementary cellular automaton). {boundary} The rows shown determine the answer.\n\n\
             {}\n\n{question}\n\n{}",
            rows.join("\n"),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &CellularAutomatonProblem) -> String {
        if !well_formed(p) {
            return String::new();
        }
        if p.ask == 0 {
            return p.rule.to_string();
        }
        answer_rows(p).iter().map(|r| show_row(r)).collect::<Vec<_>>().join("\n")
    }

    fn verify(&self, p: &CellularAutomatonProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem: rows of unequal width, bad cells or sizes");
        }
        if p.ask == 0 {
            return match crate::arithmetic::number::parse_int(answer) {
                Err(e) => Score::unparsable(e),
                Ok(v) if v == p.rule as i64 => Score::correct(),
                Ok(v) if !(0..=255).contains(&v) => Score::wrong(format!("{v} is not a rule number (0–255)")),
                Ok(v) if fits(p, v as u8) => {
                    Score::wrong(format!("rule {v} fits the rows but is not the rule"))
                }
                Ok(v) => Score::wrong(format!("rule {v} does not produce the rows shown")),
            };
        }
        let w = p.rows[0].len();
        let cell = |t: &str| match t {
            "0" => Some(0u8),
            "1" => Some(1u8),
            _ => None,
        };
        let got = match parse_grid(answer, p.ask as usize, w, cell) {
            Ok(g) => g,
            Err(e) => return Score::unparsable(e),
        };
        for (g, (a, b)) in got.iter().zip(answer_rows(p)).enumerate() {
            if let Some(i) = a.iter().zip(&b).position(|(x, y)| x != y) {
                return Score::wrong(format!("row {} cell {} is wrong", g + 1, i + 1));
            }
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(s: &str) -> Vec<u8> {
        s.bytes().map(|b| b - b'0').collect()
    }

    #[test]
    fn example_from_the_docs() {
        let mut row = bits("00010000");
        for want in ["00101000", "01000100", "10101010", "00000000"] {
            row = step(90, &row, true);
            assert_eq!(show_row(&row), want);
        }
        // Rule 30 without wrapping: the left edge sees a 0 neighbour.
        assert_eq!(show_row(&step(30, &bits("10000001"), false)), "11000011");
        assert_eq!(show_row(&step(30, &bits("10000001"), true)), "01000011");
        let t = CellularAutomaton;
        let p = CellularAutomatonProblem {
            rule: 30,
            wrap: false,
            rows: vec![bits("0001000"), bits("0011100"), bits("0110010"), bits("1101111")],
            ask: 1,
        };
        assert_eq!(t.solve(&p), "1001000");
        for ok in ["1001000", "1 0 0 1 0 0 0", "1,0,0,1,0,0,0"] {
            assert!(t.verify(&p, ok).correct, "{ok}");
        }
        assert!(t.verify(&p, "1001001").reason.contains("cell 7"));
        for bad in ["100100", "10010001", "1001000\n1001000", "1001002", "1001000 or 1001001", "rule 30", ""]
        {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
        let r = CellularAutomatonProblem { ask: 0, ..p };
        assert!(t.verify(&r, "30").correct);
        assert!(t.verify(&r, "120").reason.contains("does not produce"));
        assert!(t.verify(&r, "256").reason.contains("not a rule number"));
        assert!(t.verify(&r, "0b11110").is_format_error());
    }

    /// Every rule consistent with the rows shown, by brute force over all 256.
    fn consistent(p: &CellularAutomatonProblem) -> Vec<u8> {
        (0..=255u8).filter(|&r| p.rows.windows(2).all(|w| step(r, &w[0], p.wrap) == w[1])).collect()
    }

    #[test]
    fn answers_are_unique_over_all_256_rules() {
        let t = CellularAutomaton;
        for d in Difficulty::all() {
            for seed in 0..100 {
                let p = t.generate(seed, d);
                let rules = consistent(&p);
                assert!(rules.contains(&p.rule));
                if p.ask == 0 {
                    assert_eq!(rules, vec![p.rule], "L{d} seed {seed}");
                }
                for r in rules {
                    let q = CellularAutomatonProblem { rule: r, ..p.clone() };
                    assert_eq!(answer_rows(&q), answer_rows(&p), "L{d} seed {seed} rule {r}");
                }
            }
        }
        // And the check is not vacuous: one transition of a sparse row leaves many rules open.
        let p = CellularAutomatonProblem {
            rule: 90,
            wrap: true,
            rows: vec![bits("00010000"), bits("00101000")],
            ask: 1,
        };
        assert!(consistent(&p).len() > 1);
        assert!(!unique(&p));
    }

    #[test]
    fn oracle_at_every_level() {
        let t = CellularAutomaton;
        for d in Difficulty::all() {
            for seed in 0..300 {
                let p = t.generate(seed, d);
                assert!(t.verify(&p, &t.solve(&p)).correct, "L{d} seed {seed}");
            }
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = CellularAutomaton;
        let good = t.generate(0, Difficulty::new(3).unwrap());
        let mut bad = vec![good.clone(), good.clone(), good.clone()];
        bad[0].rows[1].pop();
        bad[1].rows[0][0] = 2;
        bad[2].rows.truncate(1);
        for p in bad {
            assert!(t.verify(&p, "0").reason.starts_with("malformed"));
            assert_eq!(t.solve(&p), "");
        }
    }

    #[test]
    fn parser_fuzz_never_panics() {
        let t = CellularAutomaton;
        let mut rng = Rng::new(90);
        let alphabet: Vec<char> = "0101 \n,2x-".chars().collect();
        for level in [4, 5] {
            let p = t.generate(1, Difficulty::new(level).unwrap());
            for _ in 0..3000 {
                let s: String = (0..rng.index(40)).map(|_| alphabet[rng.index(alphabet.len())]).collect();
                let v = t.verify(&p, &s);
                assert!((0.0..=1.0).contains(&v.reward));
            }
        }
    }
}
