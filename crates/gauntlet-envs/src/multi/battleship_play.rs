//! Battleship solitaire: find and sink a hidden fleet with a limited number of shots.
//!
//! **Generates** an `n × n` sea with ships placed at random (horizontal or vertical, not
//! touching), hidden from the agent.
//!
//! **Plays**: `fire <row> <col>` (1-based) answers miss, hit or sunk (with the ship's length);
//! firing at a cell already fired at is invalid. Success: every ship sunk within the shot limit.
//! The observation shows the shots so far (`o` miss, `x` hit, `#` sunk) and the ships still
//! afloat.
//!
//! | level | sea | ships | shots |
//! |---|---|---|---|
//! | 1 | 5×5 | 2, 2 | 18 |
//! | 2 | 6×6 | 3, 2, 2 | 26 |
//! | 3 | 7×7 | 3, 3, 2 | 34 |
//! | 4 | 8×8 | 4, 3, 2, 2 | 44 |
//! | 5 | 9×9 | 4, 3, 3, 2, 2 | 56 |
//!
//! **Example**: `fire 3 3` → hit; `fire 3 4` → hit, sunk (length 2).
//!
//! **Oracle**: hunt and target: after a hit it fires along the line of the hits (or around a
//! single hit); otherwise it fires at the untried cell covered by the most placements of the
//! ships still afloat that fit the shots so far (a probability-density hunt). It sees only the
//! shots; measured, not exact (registry floors).
//!
//! **Failure modes**: firing at random instead of finishing a hit ship, firing next to sunk ships
//! (ships never touch), repeating shots.

use super::ledger::Outcome;
use super::shell::{index1, verb, Step, World};
use gauntlet_core::Rng;

const SIZE: [usize; 5] = [5, 6, 7, 8, 9];
const SHIPS: [&[usize]; 5] = [&[2, 2], &[3, 2, 2], &[3, 3, 2], &[4, 3, 2, 2], &[4, 3, 3, 2, 2]];
const SHOTS: [u32; 5] = [18, 26, 34, 44, 56];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shot {
    None,
    Miss,
    Hit,
    Sunk,
}

/// The battleship world.
pub struct BattleshipPlay {
    n: usize,
    /// Cells of each ship.
    ships: Vec<Vec<usize>>,
    shots: Vec<Shot>,
    limit: u32,
}

impl BattleshipPlay {
    fn cells(&self, p: usize, len: usize, vertical: bool) -> Option<Vec<usize>> {
        let (r, c) = (p / self.n, p % self.n);
        if (vertical && r + len > self.n) || (!vertical && c + len > self.n) {
            return None;
        }
        Some((0..len).map(|i| if vertical { p + i * self.n } else { p + i }).collect())
    }

    fn around(&self, p: usize) -> Vec<usize> {
        let (r, c) = ((p / self.n) as isize, (p % self.n) as isize);
        let mut out = Vec::new();
        for dr in -1..=1 {
            for dc in -1..=1 {
                let (nr, nc) = (r + dr, c + dc);
                if nr >= 0 && nc >= 0 && (nr as usize) < self.n && (nc as usize) < self.n {
                    out.push(nr as usize * self.n + nc as usize);
                }
            }
        }
        out
    }

    fn afloat(&self) -> Vec<usize> {
        self.ships
            .iter()
            .filter(|s| !s.iter().all(|&p| self.shots[p] != Shot::None))
            .map(|s| s.len())
            .collect()
    }

    /// Cells next to a sunk ship (no ship can be there).
    fn excluded(&self) -> Vec<bool> {
        let mut ex = vec![false; self.n * self.n];
        for p in (0..self.n * self.n).filter(|&p| self.shots[p] == Shot::Sunk) {
            for q in self.around(p) {
                ex[q] = true;
            }
        }
        ex
    }

    fn plan(&self) -> usize {
        let ex = self.excluded();
        let open = |p: usize| self.shots[p] == Shot::None && !ex[p];
        let hits: Vec<usize> = (0..self.n * self.n).filter(|&p| self.shots[p] == Shot::Hit).collect();
        let mut score = vec![0u32; self.n * self.n];
        for len in self.afloat() {
            for p in 0..self.n * self.n {
                for vertical in [false, true] {
                    let Some(cells) = self.cells(p, len, vertical) else { continue };
                    if cells.iter().any(|&q| !(open(q) || self.shots[q] == Shot::Hit)) {
                        continue;
                    }
                    let covered = cells.iter().filter(|&&q| self.shots[q] == Shot::Hit).count() as u32;
                    if !hits.is_empty() && covered == 0 {
                        continue;
                    }
                    for &q in &cells {
                        score[q] += 1 + 20 * covered;
                    }
                }
            }
        }
        (0..self.n * self.n)
            .filter(|&p| open(p))
            .max_by_key(|&p| (score[p], std::cmp::Reverse(p)))
            .unwrap_or(0)
    }
}

impl World for BattleshipPlay {
    const NAME: &'static str = "battleship_play";
    const CATEGORY: &'static str = "grid";
    const DESCRIPTION: &'static str = "Sink a hidden fleet with a limited number of shots.";
    const FLOORS: [f64; 5] = [0.95; 5];

    fn generate(rng: &mut Rng, level: u8) -> Self {
        let i = level as usize - 1;
        let n = SIZE[i];
        'again: loop {
            let mut w =
                BattleshipPlay { n, ships: Vec::new(), shots: vec![Shot::None; n * n], limit: SHOTS[i] };
            let mut blocked = vec![false; n * n];
            for &len in SHIPS[i] {
                let mut tries = 0;
                loop {
                    tries += 1;
                    if tries > 200 {
                        continue 'again;
                    }
                    let Some(cells) = w.cells(rng.index(n * n), len, rng.chance(0.5)) else { continue };
                    if cells.iter().any(|&q| blocked[q]) {
                        continue;
                    }
                    for &q in &cells {
                        for b in w.around(q) {
                            blocked[b] = true;
                        }
                    }
                    w.ships.push(cells);
                    break;
                }
            }
            return w;
        }
    }

    fn limit(&self) -> u32 {
        self.limit
    }

    fn intro(&self) -> String {
        let lens: Vec<String> = self.ships.iter().map(|s| s.len().to_string()).collect();
        format!(
            "Battleship. A {n}×{n} sea hides ships of lengths {} (straight, never touching, not even at corners). \
             Sink them all within {} shots. Rows and columns are numbered from 1.",
            lens.join(", "),
            self.limit,
            n = self.n
        )
    }

    fn render(&self) -> String {
        let mut out = String::new();
        for p in 0..self.n * self.n {
            out.push(match self.shots[p] {
                Shot::None => '.',
                Shot::Miss => 'o',
                Shot::Hit => 'x',
                Shot::Sunk => '#',
            });
            out.push(if p % self.n == self.n - 1 { '\n' } else { ' ' });
        }
        let afloat: Vec<String> = self.afloat().iter().map(|l| l.to_string()).collect();
        format!("{out}Ships afloat: {}.", afloat.join(", "))
    }

    fn grammar(&self) -> String {
        format!("Actions: fire <row 1-{n}> <column 1-{n}>.", n = self.n)
    }

    fn step(&mut self, action: &str) -> Step {
        let (v, rest) = verb(action);
        let args: Vec<Option<usize>> = rest.split(' ').map(|a| index1(a, self.n)).collect();
        let p = match (v.as_str(), args.as_slice()) {
            ("fire", [Some(r), Some(c)]) => r * self.n + c,
            _ => return Step::Format(self.grammar()),
        };
        if self.shots[p] != Shot::None {
            return Step::Invalid("You already fired there.".into());
        }
        let at = format!("({}, {})", p / self.n + 1, p % self.n + 1);
        let Some(ship) = self.ships.iter().position(|s| s.contains(&p)) else {
            self.shots[p] = Shot::Miss;
            return Step::Done(Outcome::Continue, format!("{at}: miss."));
        };
        self.shots[p] = Shot::Hit;
        if !self.ships[ship].iter().all(|&q| self.shots[q] == Shot::Hit) {
            return Step::Done(Outcome::Continue, format!("{at}: hit."));
        }
        for q in self.ships[ship].clone() {
            self.shots[q] = Shot::Sunk;
        }
        let len = self.ships[ship].len();
        if self.afloat().is_empty() {
            return Step::Done(Outcome::Won, format!("{at}: hit, sunk (length {len}). The fleet is sunk!"));
        }
        Step::Done(Outcome::Continue, format!("{at}: hit, sunk (length {len})."))
    }

    fn legal(&self) -> Vec<String> {
        (0..self.n * self.n)
            .filter(|&p| self.shots[p] == Shot::None)
            .map(|p| format!("fire {} {}", p / self.n + 1, p % self.n + 1))
            .collect()
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        let p = self.plan();
        format!("fire {} {}", p / self.n + 1, p % self.n + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shots_hit_sink_and_repeat() {
        let mut w = BattleshipPlay { n: 5, ships: vec![vec![0, 1]], shots: vec![Shot::None; 25], limit: 10 };
        assert!(matches!(w.step("fire 1 1"), Step::Done(Outcome::Continue, m) if m.contains("hit")));
        assert!(matches!(w.step("fire 1 1"), Step::Invalid(_)));
        assert!(matches!(w.step("fire 0 1"), Step::Format(_)));
        assert_eq!(w.plan(), 1, "targets along the hit");
        assert!(matches!(w.step("fire 1 2"), Step::Done(Outcome::Won, _)));
    }
}
