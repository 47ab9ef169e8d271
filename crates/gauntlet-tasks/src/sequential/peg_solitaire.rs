//! Peg solitaire: jump pegs over each other until a single peg is left.
//!
//! **Generates** a position by reverse jumps from a single peg on a random hole: a reverse jump
//! takes a peg whose two neighbours in one direction are empty holes, removes it and puts pegs on
//! both those holes. After the level's number of reverse jumps the position has that many pegs
//! plus one and is solvable by construction (play the reverse jumps backwards). Levels 1–3 use a
//! 5×5 square board, levels 4–5 the 33-hole English cross.
//!
//! **Answers** are jumps separated by commas or spaces, each `from-to` with cells named by column
//! letter and row number (row 1 at the top), e.g. `d2-d4` jumps the peg on d2 over d3 into the
//! empty hole d4, removing the peg on d3. Anything else (`d2-d4 or b4-d4`, `d2 to d4`, prose) is
//! unparsable.
//!
//! **Verifies** by simulation: each jump must move a peg two holes up, down, left or right over a
//! peg into an empty hole; after the last jump exactly one peg must remain (anywhere). Any such
//! sequence scores 1.0 (there are usually many). 0/1.
//!
//! | level | board | pegs | jumps |
//! |---|---|---|---|
//! | 1 | 5×5 square | 4 | 3 |
//! | 2 | 5×5 square | 6 | 5 |
//! | 3 | 5×5 square | 9 | 8 |
//! | 4 | English cross (33 holes) | 13 | 12 |
//! | 5 | English cross (33 holes) | 19 | 18 |
//!
//! Level 5 is hard for frontier models: eighteen jumps must be tracked exactly on a 33-hole board,
//! and most greedy jump orders strand two or more pegs far apart, so a plan needs look-ahead and
//! backtracking rather than a local rule.
//!
//! **Example**: on the row `o o . o`, written as one row of a board, `a1-c1` leaves `. . o o`,
//! then `d1-b1` leaves the single peg on b1.
//!
//! **Failure modes**: jumping over an empty hole, jumping diagonally or off the board, landing on
//! a peg, and stopping with two or more pegs left.

use crate::sequential::moves::MAX_MOVES;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// The peg solitaire family.
pub struct PegSolitaire;

/// One peg solitaire problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PegProblem {
    /// The board, one string per row: `o` a peg, `.` an empty hole, `#` no hole.
    pub rows: Vec<String>,
}

/// A board: its size, the holes and the pegs as bit masks over cells `r * w + c`.
struct Board {
    h: usize,
    w: usize,
    holes: u64,
}

const CROSS: [&str; 7] = ["##...##", "##...##", ".......", ".......", ".......", "##...##", "##...##"];

fn parse_board(rows: &[String]) -> Result<(Board, u64), String> {
    let h = rows.len();
    let w = rows.first().map_or(0, |r| r.chars().count());
    if !(1..=8).contains(&h) || !(1..=8).contains(&w) || rows.iter().any(|r| r.chars().count() != w) {
        return Err("the board must be a rectangle of at most 8x8 cells".into());
    }
    let (mut holes, mut pegs) = (0u64, 0u64);
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            let bit = 1u64 << (r * w + c);
            match ch {
                'o' => {
                    holes |= bit;
                    pegs |= bit;
                }
                '.' => holes |= bit,
                '#' => {}
                _ => return Err(format!("unexpected cell `{ch}`")),
            }
        }
    }
    if pegs == 0 {
        return Err("no pegs".into());
    }
    Ok((Board { h, w, holes }, pegs))
}

/// A jump as (from, over, to) cells.
type Jump = (usize, usize, usize);

impl Board {
    fn cell(&self, r: i64, c: i64) -> Option<usize> {
        if r < 0 || c < 0 || r as usize >= self.h || c as usize >= self.w {
            return None;
        }
        let i = r as usize * self.w + c as usize;
        (self.holes >> i & 1 == 1).then_some(i)
    }

    /// Every legal jump in `pegs` (forward when `forward`, else reverse jumps), as (from, over, to).
    fn jumps(&self, pegs: u64, forward: bool) -> Vec<Jump> {
        let mut out = Vec::new();
        for i in 0..self.h * self.w {
            if pegs >> i & 1 == 0 {
                continue;
            }
            let (r, c) = ((i / self.w) as i64, (i % self.w) as i64);
            for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                let (Some(m), Some(t)) = (self.cell(r + dr, c + dc), self.cell(r + 2 * dr, c + 2 * dc))
                else {
                    continue;
                };
                let (pm, pt) = (pegs >> m & 1 == 1, pegs >> t & 1 == 1);
                if !pt && pm == forward {
                    out.push((i, m, t));
                }
            }
        }
        out
    }

    fn name(&self, i: usize) -> String {
        format!("{}{}", (b'a' + (i % self.w) as u8) as char, i / self.w + 1)
    }

    fn parse_cell(&self, s: &str) -> Option<usize> {
        let mut cs = s.chars();
        let col = cs.next()?.to_ascii_lowercase();
        let row: usize =
            cs.as_str().parse().ok().filter(|_| cs.as_str().chars().all(|c| c.is_ascii_digit()))?;
        let c = (col as u32).checked_sub('a' as u32)? as i64;
        self.cell(row as i64 - 1, c)
    }

    fn render(&self, pegs: u64) -> Vec<String> {
        (0..self.h)
            .map(|r| {
                (0..self.w)
                    .map(|c| {
                        let i = r * self.w + c;
                        if self.holes >> i & 1 == 0 {
                            '#'
                        } else if pegs >> i & 1 == 1 {
                            'o'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// A winning jump sequence from `pegs` by depth-first search, remembering dead positions.
    fn solve(&self, pegs: u64, dead: &mut HashSet<u64>, path: &mut Vec<Jump>) -> bool {
        if pegs.count_ones() == 1 {
            return true;
        }
        if dead.contains(&pegs) || dead.len() > 2_000_000 {
            return false;
        }
        for j in self.jumps(pegs, true) {
            path.push(j);
            if self.solve(pegs ^ (1 << j.0) ^ (1 << j.1) ^ (1 << j.2), dead, path) {
                return true;
            }
            path.pop();
        }
        dead.insert(pegs);
        false
    }
}

impl Task for PegSolitaire {
    type Problem = PegProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "peg_solitaire",
            category: Category::Sequential,
            description: "Jump pegs over each other, removing the jumped peg, until a single peg is left.",
            levels: [
                "5x5 square board, 4 pegs (3 jumps)",
                "5x5 square board, 6 pegs (5 jumps)",
                "5x5 square board, 9 pegs (8 jumps)",
                "33-hole English cross, 13 pegs (12 jumps)",
                "33-hole English cross, 19 pegs (18 jumps)",
            ],
            answer_format:
                "the jumps in order, separated by commas, each `from-to` with cells named by column letter \
                            and row number, e.g. `d2-d4, b3-d3`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> PegProblem {
        let (cross, jumps) = d.pick([(false, 3), (false, 5), (false, 8), (true, 12), (true, 18)]);
        let rows: Vec<String> =
            if cross { CROSS.iter().map(|r| r.to_string()).collect() } else { vec![".....".to_string(); 5] };
        let (board, _) = parse_board(&rows.iter().map(|r| r.replacen('.', "o", 1)).collect::<Vec<_>>())
            .expect("built-in board");
        let cells: Vec<usize> = (0..board.h * board.w).filter(|&i| board.holes >> i & 1 == 1).collect();
        loop {
            let mut pegs = 1u64 << cells[rng.index(cells.len())];
            for _ in 0..jumps {
                let options = board.jumps(pegs, false);
                let Some(&(f, m, t)) = rng.choose(&options) else { break };
                pegs ^= (1 << f) | (1 << m) | (1 << t);
            }
            if pegs.count_ones() as usize == jumps + 1 {
                return PegProblem { rows: board.render(pegs) };
            }
        }
    }

    fn prompt(&self, p: &PegProblem) -> String {
        let w = p.rows.first().map_or(0, |r| r.chars().count());
        let header: Vec<String> = (0..w).map(|c| ((b'a' + c as u8) as char).to_string()).collect();
        let grid: Vec<String> = p
            .rows
            .iter()
            .enumerate()
            .map(|(r, row)| {
                format!("{} {}", r + 1, row.chars().map(String::from).collect::<Vec<_>>().join(" "))
            })
            .collect();
        format!(
            "Peg solitaire board (`o` is a peg, `.` an empty hole, `#` no hole; columns a, b, c, … from the left, \
             rows 1, 2, 3, … from the top):\n\n  {}\n{}\n\nA jump moves a peg two holes up, down, left or right, \
             over an adjacent peg, into an empty hole; the jumped-over peg is removed. `d2-d4` jumps the peg on d2 \
             over d3 into d4.\n\nGoal: jump until exactly one peg is left (anywhere on the board).\n\n{}",
            header.join(" "),
            grid.join("\n"),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &PegProblem) -> String {
        let Ok((b, pegs)) = parse_board(&p.rows) else { return String::new() };
        let mut path = Vec::new();
        b.solve(pegs, &mut HashSet::new(), &mut path);
        path.iter().map(|&(f, _, t)| format!("{}-{}", b.name(f), b.name(t))).collect::<Vec<_>>().join(", ")
    }

    fn verify(&self, p: &PegProblem, answer: &str) -> Score {
        let (b, mut pegs) = match parse_board(&p.rows) {
            Ok(x) => x,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        let parse = |t: &str| {
            let (f, to) = t.split_once('-')?;
            Some((b.parse_cell(f)?, b.parse_cell(to)?))
        };
        let jumps = match gauntlet_core::answer::tokens(answer, MAX_MOVES, parse) {
            Ok(j) => j,
            Err(e) => return Score::unparsable(format!("{e} (a jump is like `d2-d4`)")),
        };
        if jumps.is_empty() {
            return Score::unparsable("no jumps");
        }
        for (k, &(f, t)) in jumps.iter().enumerate() {
            let legal = b.jumps(pegs, true).into_iter().find(|j| j.0 == f && j.2 == t);
            let Some((_, m, _)) = legal else {
                return Score::wrong(format!("jump {} ({}-{}) is not legal", k + 1, b.name(f), b.name(t)));
            };
            pegs ^= (1 << f) | (1 << m) | (1 << t);
        }
        match pegs.count_ones() {
            1 => Score::correct(),
            n => Score::wrong(format!("{n} pegs remain after {} jumps", jumps.len())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(rows: &[&str]) -> PegProblem {
        PegProblem { rows: rows.iter().map(|r| r.to_string()).collect() }
    }

    #[test]
    fn example_from_the_docs() {
        let p = problem(&["oo.o"]);
        let oracle = PegSolitaire.solve(&p);
        assert!(PegSolitaire.verify(&p, &oracle).correct, "{oracle}");
        assert!(PegSolitaire.verify(&p, "a1-c1, d1-b1").correct);
        assert!(PegSolitaire.verify(&p, "A1-C1 D1-B1").correct);
        for (bad, why) in [("a1-c1", "2 pegs"), ("d1-b1", "not legal"), ("a1-c1, c1-a1", "not legal")] {
            let s = PegSolitaire.verify(&p, bad);
            assert!(!s.correct && s.reward == 0.0 && s.reason.contains(why), "{bad}: {s:?}");
        }
        let q = problem(&[".oo."]);
        for ok in ["b1-d1", "c1-a1"] {
            assert!(PegSolitaire.verify(&q, ok).correct, "{ok}");
        }
        for bad in
            ["b1-d1 or c1-a1", "b1-d1/c1-a1", "b1 to d1", "z9-d1", "b1-d1 done", "", "b1-d1-c1", "b+1-d1"]
        {
            assert!(PegSolitaire.verify(&q, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn generated_positions_are_solved_by_the_oracle() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..10 {
                let p = PegSolitaire.generate(seed, d);
                let sol = PegSolitaire.solve(&p);
                assert!(PegSolitaire.verify(&p, &sol).correct, "L{level} seed {seed}: {p:?} {sol}");
            }
        }
    }
}
