//! Magic square: complete an n×n square with `1..=n²`, each once, so that every row, column and
//! both diagonals sum to the magic constant `n(n² + 1) / 2`.
//!
//! **Generates** a random magic square and shows some of its cells, so a completion always
//! exists (that square). 3×3: the Lo Shu square under one of its 8 symmetries (there is no other
//! 3×3 magic square). 4×4: a depth-first search in random order over an ordering of the cells
//! in which each completed line fixes its last cell (8 free choices, pruned by line-sum bounds),
//! restarted when it runs long (Dürer's square as a fallback that is not reached in practice). 5×5: `5·σ(A) + τ(B) + 1` for two
//! orthogonal cyclic Latin squares `A = (ai + bj) mod 5`, `B = (di + ej) mod 5` with magic
//! diagonals and random digit relabelings `σ`, `τ`. Every square is then moved by a random
//! symmetry of the board, possibly complemented (`x → n² + 1 − x`), and its rows and columns
//! permuted together by a permutation that commutes with the reflection `i → n − 1 − i` (all
//! three keep a square magic).
//!
//! **Verifies** validity: givens kept, the numbers `1..=n²` each used once, all `2n + 2` lines
//! summing to the constant. The completion need not be unique: **any** valid square scores 1.0.
//! No partial credit.
//!
//! | level | square | givens |
//! |---|---|---|
//! | 1 | 3×3 | 4 |
//! | 2 | 3×3 | 2 |
//! | 3 | 4×4 | 8 |
//! | 4 | 4×4 | 5 |
//! | 5 | 5×5 | 10 |
//!
//! **Example**: 3×3 with `2 . .` / `. 5 .` / `. . 8` (constant 15): `2 7 6` / `9 5 1` / `4 3 8`
//! and `2 9 4` / `7 5 3` / `6 1 8` are both correct.
//!
//! **Failure modes**: forgetting the diagonals, reusing a number, sums off by one.

use super::{grid_text, int_in, is_square};
use crate::common::parse_grid;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The magic-square family.
pub struct MagicSquare;

/// One magic-square problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MagicSquareProblem {
    /// Side of the square.
    pub n: usize,
    /// The puzzle row by row; `0` is a blank cell.
    pub puzzle: Vec<Vec<u32>>,
    /// The square the givens were taken from (one valid completion).
    pub solution: Vec<Vec<u32>>,
}

/// Largest side accepted from a deserialized problem.
const MAX_N: usize = 12;

/// The magic constant of side `n`.
pub fn magic_constant(n: usize) -> u64 {
    let n = n as u64;
    n * (n * n + 1) / 2
}

/// Cells of every line: rows, columns, main diagonal, anti-diagonal.
fn lines(n: usize) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = (0..n).map(|r| (0..n).map(|c| r * n + c).collect()).collect();
    out.extend((0..n).map(|c| (0..n).map(|r| r * n + c).collect::<Vec<_>>()));
    out.push((0..n).map(|i| i * n + i).collect());
    out.push((0..n).map(|i| i * n + n - 1 - i).collect());
    out
}

fn line_name(n: usize, k: usize) -> String {
    match k {
        _ if k < n => format!("row {}", k + 1),
        _ if k < 2 * n => format!("column {}", k - n + 1),
        _ if k == 2 * n => "the main diagonal (top left to bottom right)".into(),
        _ => "the anti-diagonal (top right to bottom left)".into(),
    }
}

/// Depth-first search state for [`search4`].
struct Search4 {
    sq: [u32; 16],
    used: u32,
    sum: [u32; 10],
    cnt: [u32; 10],
    nodes: u32,
    budget: u32,
}

/// Lines through cell `c` of a 4×4 square: row, column, then the diagonals it lies on
/// (`usize::MAX` = none).
fn lines4(c: usize) -> [usize; 4] {
    let (r, k) = (c / 4, c % 4);
    [r, 4 + k, if r == k { 8 } else { usize::MAX }, if r + k == 3 { 9 } else { usize::MAX }]
}

/// The order in which [`search4`] fills cells: each row, column or diagonal is completed as
/// early as possible, so that 7 of the 16 cells are fixed by a line sum (8 free choices).
const ORDER4: [usize; 16] = [0, 1, 2, 3, 4, 8, 12, 5, 10, 15, 6, 9, 7, 11, 13, 14];

impl Search4 {
    /// Sums of the `k` smallest and `k` largest unused numbers, `k = 0..=3` (bounds for what
    /// `k` open cells of a line can still add up to).
    fn bounds(&self) -> ([u32; 4], [u32; 4]) {
        let (mut lo, mut hi) = ([0u32; 4], [0u32; 4]);
        let free = 0x1_fffe & !self.used;
        let (mut a, mut b) = (free, free);
        for k in 1..4 {
            if a == 0 {
                (lo[k], hi[k]) = (u32::MAX, 0);
                continue;
            }
            let large = 31 - b.leading_zeros();
            (lo[k], hi[k]) = (lo[k - 1].saturating_add(a.trailing_zeros()), hi[k - 1] + large);
            a &= a - 1;
            b &= !(1 << large);
        }
        (lo, hi)
    }

    /// Place `v` at `cell`; false (and nothing placed) when a line through it can no longer
    /// reach 34 given the `bounds` of the unused numbers.
    fn place(&mut self, cell: usize, v: u32, (lo, hi): &([u32; 4], [u32; 4])) -> bool {
        let ls = lines4(cell);
        for &l in ls.iter().filter(|&&l| l < 10) {
            let open = (3 - self.cnt[l]) as usize;
            let Some(need) = 34u32.checked_sub(self.sum[l] + v) else { return false };
            if need < lo[open] || need > hi[open] {
                return false;
            }
        }
        for &l in ls.iter().filter(|&&l| l < 10) {
            self.sum[l] += v;
            self.cnt[l] += 1;
        }
        self.sq[cell] = v;
        self.used |= 1 << v;
        true
    }

    fn unplace(&mut self, cell: usize) {
        let v = self.sq[cell];
        for &l in lines4(cell).iter().filter(|&&l| l < 10) {
            self.sum[l] -= v;
            self.cnt[l] -= 1;
        }
        self.used &= !(1 << v);
        self.sq[cell] = 0;
    }

    fn go(&mut self, k: usize, rng: &mut Rng) -> bool {
        if k == 16 {
            return true;
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            return false;
        }
        let cell = ORDER4[k];
        let bounds = self.bounds();
        // A line with three cells filled fixes this one.
        if let Some(&l) = lines4(cell).iter().find(|&&l| l < 10 && self.cnt[l] == 3) {
            let v = 34u32.wrapping_sub(self.sum[l]);
            if (1..=16).contains(&v) && self.used >> v & 1 == 0 && self.place(cell, v, &bounds) {
                if self.go(k + 1, rng) {
                    return true;
                }
                self.unplace(cell);
            }
            return false;
        }
        // Try all 16 numbers in a random cyclic order with a random odd step.
        let (start, step) = (rng.below(16) as u32, 2 * rng.below(8) as u32 + 1);
        for i in 0..16 {
            let v = (start + i * step) % 16 + 1;
            if self.used >> v & 1 == 0 && self.place(cell, v, &bounds) {
                if self.go(k + 1, rng) {
                    return true;
                }
                self.unplace(cell);
            }
        }
        false
    }
}

/// A random 4×4 magic square by depth-first search, restarted with fresh random choices after
/// 300 nodes (the search time has a heavy tail; restarts bring the mean to about 1 400 nodes);
/// `None` after 400 restarts.
fn search4(rng: &mut Rng) -> Option<Vec<u32>> {
    for _ in 0..400 {
        let mut s = Search4 { sq: [0; 16], used: 0, sum: [0; 10], cnt: [0; 10], nodes: 0, budget: 300 };
        if s.go(0, rng) {
            return Some(s.sq.to_vec());
        }
    }
    None
}

/// A random 5×5 magic square from two orthogonal cyclic Latin squares.
fn construct5(rng: &mut Rng) -> Vec<u32> {
    // (a, b) with a, b, a + b, a − b all non-zero mod 5: rows, columns and diagonals of
    // (a·i + b·j) mod 5 are permutations.
    let ok: Vec<(i64, i64)> = (1..5)
        .flat_map(|a| (1..5).map(move |b| (a, b)))
        .filter(|&(a, b)| (a + b) % 5 != 0 && a != b)
        .collect();
    let (mut p, mut q) = ((1, 2), (2, 1));
    for _ in 0..100 {
        let (x, y) = (ok[rng.index(ok.len())], ok[rng.index(ok.len())]);
        if (x.0 * y.1 - x.1 * y.0).rem_euclid(5) != 0 {
            (p, q) = (x, y);
            break;
        }
    }
    let (s, t) = (rng.permutation(5), rng.permutation(5));
    (0..25)
        .map(|k| {
            let (i, j) = ((k / 5) as i64, (k % 5) as i64);
            let a = (p.0 * i + p.1 * j).rem_euclid(5) as usize;
            let b = (q.0 * i + q.1 * j).rem_euclid(5) as usize;
            (5 * s[a] + t[b] + 1) as u32
        })
        .collect()
}

/// Move a magic square by a random symmetry, complement and reflection-commuting permutation.
fn scramble(sq: &[u32], n: usize, rng: &mut Rng) -> Vec<u32> {
    // A permutation of 0..n commuting with i → n − 1 − i: permute the mirror pairs, flip some.
    let pairs = n / 2;
    let order = rng.permutation(pairs);
    let mut perm: Vec<usize> = (0..n).collect();
    for (k, &to) in order.iter().enumerate() {
        let flip = rng.chance(0.5);
        let (a, b) = if flip { (n - 1 - to, to) } else { (to, n - 1 - to) };
        perm[k] = a;
        perm[n - 1 - k] = b;
    }
    let complement = rng.chance(0.5);
    let (transpose, flip_r, flip_c) = (rng.chance(0.5), rng.chance(0.5), rng.chance(0.5));
    let top = (n * n + 1) as u32;
    (0..n * n)
        .map(|k| {
            let (mut r, mut c) = (k / n, k % n);
            if transpose {
                (r, c) = (c, r);
            }
            if flip_r {
                r = n - 1 - r;
            }
            if flip_c {
                c = n - 1 - c;
            }
            let v = sq[perm[r] * n + perm[c]];
            if complement {
                top - v
            } else {
                v
            }
        })
        .collect()
}

/// The first rule a filled square breaks, if any.
fn first_violation(p: &MagicSquareProblem, g: &[Vec<i64>]) -> Option<String> {
    let n = p.n;
    let flat: Vec<i64> = g.concat();
    for (k, (&want, &got)) in p.puzzle.iter().flatten().zip(&flat).enumerate() {
        if want != 0 && want as i64 != got {
            return Some(format!("row {} column {} must keep the given {want}", k / n + 1, k % n + 1));
        }
    }
    let mut seen = vec![false; n * n + 1];
    for &v in &flat {
        // Parsing bounds every value to 1..=n², so the index is in range.
        if std::mem::replace(&mut seen[v as usize], true) {
            return Some(format!("{v} is used more than once"));
        }
    }
    let target = magic_constant(n) as i64;
    for (k, line) in lines(n).iter().enumerate() {
        let sum: i64 = line.iter().map(|&c| flat[c]).sum();
        if sum != target {
            return Some(format!("{} sums to {sum}, not {target}", line_name(n, k)));
        }
    }
    None
}

impl Task for MagicSquare {
    type Problem = MagicSquareProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "magic_square",
            category: Category::Grid,
            description: "Complete a magic square around given numbers; any valid completion counts.",
            levels: ["3×3, 4 givens", "3×3, 2 givens", "4×4, 8 givens", "4×4, 5 givens", "5×5, 10 givens"],
            answer_format: "the completed square, one row per line, numbers separated by spaces (e.g. \
                            `2 7 6` for a 3×3 row)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> MagicSquareProblem {
        let (n, k) = d.pick([(3, 4), (3, 2), (4, 8), (4, 5), (5, 10)]);
        let base: Vec<u32> = match n {
            3 => vec![2, 7, 6, 9, 5, 1, 4, 3, 8],
            4 => search4(rng).unwrap_or_else(|| vec![16, 3, 2, 13, 5, 10, 11, 8, 9, 6, 7, 12, 4, 15, 14, 1]),
            _ => construct5(rng),
        };
        let sq = scramble(&base, n, rng);
        let mut puzzle = vec![0u32; n * n];
        for c in rng.sample_indices(n * n, k) {
            puzzle[c] = sq[c];
        }
        let rows = |g: &[u32]| g.chunks(n).map(<[u32]>::to_vec).collect();
        MagicSquareProblem { n, puzzle: rows(&puzzle), solution: rows(&sq) }
    }

    fn prompt(&self, p: &MagicSquareProblem) -> String {
        let n = p.n;
        let w = (n * n).to_string().len();
        let grid: Vec<String> = p
            .puzzle
            .iter()
            .map(|r| {
                r.iter()
                    .map(|&v| if v == 0 { format!("{:>w$}", ".") } else { format!("{v:>w$}") })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        format!(
            "Complete this {n}×{n} magic square. Fill every blank cell (shown as `.`) so that the square \
             contains each whole number from 1 to {nn} exactly once, and every row, every column and both \
             main diagonals add up to the magic constant {m}. The given numbers must stay where they \
             are. Any valid completion is accepted.\n\n{}\n\nWrite the whole completed square: {n} lines \
             of {n} numbers.\n\n{}",
            grid.join("\n"),
            self.answer_instruction(),
            nn = n * n,
            m = magic_constant(n),
        )
    }

    fn solve(&self, p: &MagicSquareProblem) -> String {
        p.solution
            .iter()
            .map(|r| r.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn verify(&self, p: &MagicSquareProblem, answer: &str) -> Score {
        let n = p.n;
        if !(1..=MAX_N).contains(&n) || !is_square(&p.puzzle, n) || !is_square(&p.solution, n) {
            return Score::wrong("malformed problem: bad size or grid");
        }
        let text = match grid_text(answer) {
            Ok(t) => t,
            Err(e) => return Score::unparsable(e),
        };
        // Single-digit squares (3×3) also accept rows written as `276`.
        let grid = match parse_grid(&text, n, n, int_in(1, (n * n) as i64)) {
            Ok(g) => g,
            Err(e) => return Score::unparsable(e),
        };
        match first_violation(p, &grid) {
            None => Score::correct(),
            Some(reason) => Score::wrong(reason),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> MagicSquareProblem {
        MagicSquareProblem {
            n: 3,
            puzzle: vec![vec![2, 0, 0], vec![0, 5, 0], vec![0, 0, 8]],
            solution: vec![vec![2, 7, 6], vec![9, 5, 1], vec![4, 3, 8]],
        }
    }

    fn is_magic(sq: &[Vec<u32>]) -> bool {
        let p = MagicSquareProblem { n: sq.len(), puzzle: sq.to_vec(), solution: sq.to_vec() };
        MagicSquare.verify(&p, &MagicSquare.solve(&p)).correct
    }

    #[test]
    fn example_from_the_docs_and_an_alternative() {
        let p = example();
        assert!(MagicSquare.verify(&p, "2 7 6\n9 5 1\n4 3 8").correct);
        assert!(MagicSquare.verify(&p, "2 9 4\n7 5 3\n6 1 8").correct);
        assert!(MagicSquare.verify(&p, "[2, 9, 4]\n[7, 5, 3]\n[6, 1, 8]").correct);
    }

    #[test]
    fn wrong_answers_get_reasons() {
        let p = example();
        assert_eq!(
            MagicSquare.verify(&p, "4 9 2\n3 5 7\n8 1 6").reason,
            "row 1 column 1 must keep the given 2"
        );
        assert_eq!(MagicSquare.verify(&p, "2 7 6\n9 5 1\n4 7 8").reason, "7 is used more than once");
        assert_eq!(MagicSquare.verify(&p, "2 7 6\n1 5 9\n4 3 8").reason, "column 1 sums to 7, not 15");
        let q = MagicSquareProblem { puzzle: vec![vec![0; 3]; 3], ..example() };
        assert_eq!(
            MagicSquare.verify(&q, "1 6 8\n9 5 1\n5 4 3").reason,
            "1 is used more than once".to_string()
        );
        assert!(MagicSquare.verify(&p, "2 7 6\n9 5 1\n4 3 10").reason.starts_with("unparsable"));
        assert!(MagicSquare.verify(&p, "2 7 6\n9 5 1").reason.starts_with("unparsable"));
        let bad = MagicSquareProblem { n: 4, ..example() };
        assert!(MagicSquare.verify(&bad, "1").reason.starts_with("malformed"));
    }

    #[test]
    fn generated_squares_are_magic_and_varied() {
        let mut rng = Rng::new(3);
        for _ in 0..30 {
            let sq4 = search4(&mut rng).expect("search finds a square within its budget");
            assert!(is_magic(&sq4.chunks(4).map(<[u32]>::to_vec).collect::<Vec<_>>()));
            let sq5 = scramble(&construct5(&mut rng), 5, &mut rng);
            assert!(is_magic(&sq5.chunks(5).map(<[u32]>::to_vec).collect::<Vec<_>>()));
        }
        for level in 1..=5 {
            for seed in 0..20 {
                let p = MagicSquare.generate(seed, Difficulty::new(level).unwrap());
                assert!(is_magic(&p.solution), "L{level} seed {seed}");
                assert!(MagicSquare.verify(&p, &MagicSquare.solve(&p)).correct);
            }
        }
    }
}
