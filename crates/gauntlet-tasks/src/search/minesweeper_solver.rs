//! The layout counter behind [`Minesweeper`](super::minesweeper::Minesweeper)'s generator: how
//! many mine layouts (0, 1, or "2 or more") agree with the revealed numbers and the mine count.

use crate::search::board::{step, KING};

/// The outcome of counting consistent layouts.
pub enum Count {
    /// Exactly one layout.
    Unique,
    /// Several; with the cells that one other layout mines although they are safe in the truth
    /// (empty when the other layouts differ only in how many mines the floating cells hold).
    Several(Vec<usize>),
    /// Not proven: the node budget ran out, or the clues admit no layout at all.
    Unknown,
}

/// A list of at most 8 small indices (neighbours, constraints of a cell).
#[derive(Clone, Copy, Default)]
struct List8 {
    len: u8,
    items: [u16; 8],
}

impl List8 {
    fn push(&mut self, x: usize) {
        self.items[self.len as usize] = x as u16;
        self.len += 1;
    }

    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.items[..self.len as usize].iter().map(|&x| x as usize)
    }
}

/// Backtracking counter of mine layouts over the unrevealed cells next to a number (the
/// frontier), with the other unrevealed cells ("floating") counted combinatorially. Cells forced
/// by a single number (all its mines found, or all its free neighbours needed) are fixed first;
/// the search branches on the rest (`order`). Buffers are reused across calls on one board size.
pub struct Solver {
    nbrs: Vec<List8>,
    var_of: Vec<usize>,
    vars: Vec<usize>,
    var_cons: Vec<List8>,
    con_vars: Vec<List8>,
    need: Vec<i32>,
    free: Vec<i32>,
    order: Vec<usize>,
    assign: Vec<bool>,
    floating: usize,
    mines: usize,
    count: u32,
    nodes: u32,
    witness: Vec<usize>,
}

const NODE_BUDGET: u32 = 200_000;

impl Solver {
    /// A solver for boards of `rows × cols` (at most 65 536 cells).
    pub fn new(rows: usize, cols: usize) -> Solver {
        let nbrs = (0..rows * cols)
            .map(|i| {
                let mut l = List8::default();
                KING.iter()
                    .filter_map(|&d| step(i / cols, i % cols, d, rows, cols))
                    .for_each(|(r, c)| l.push(r * cols + c));
                l
            })
            .collect();
        Solver {
            nbrs,
            var_of: vec![usize::MAX; rows * cols],
            vars: Vec::new(),
            var_cons: Vec::new(),
            con_vars: Vec::new(),
            need: Vec::new(),
            free: Vec::new(),
            order: Vec::new(),
            assign: Vec::new(),
            floating: 0,
            mines: 0,
            count: 0,
            nodes: 0,
            witness: Vec::new(),
        }
    }

    /// Count (up to 2) the layouts of `mines` mines consistent with the revealed `cells`.
    /// `truth` is the generator's layout, used to report a cell another layout mines wrongly.
    pub fn count(&mut self, cells: &[Option<u8>], mines: usize, truth: &[bool]) -> Count {
        let n = cells.len();
        (self.floating, self.mines, self.count, self.nodes) = (0, mines, 0, 0);
        self.vars.clear();
        self.witness.clear();
        for i in 0..n {
            self.var_of[i] = usize::MAX;
            if cells[i].is_some() {
                continue;
            }
            if self.nbrs[i].iter().any(|j| cells[j].is_some()) {
                self.var_of[i] = self.vars.len();
                self.vars.push(i);
            } else {
                self.floating += 1;
            }
        }
        self.var_cons.clear();
        self.var_cons.resize(self.vars.len(), List8::default());
        self.con_vars.clear();
        self.need.clear();
        self.free.clear();
        for i in 0..n {
            let Some(num) = cells[i] else { continue };
            let con = self.need.len();
            let mut cv = List8::default();
            for j in self.nbrs[i].iter() {
                let v = self.var_of[j];
                if v != usize::MAX {
                    self.var_cons[v].push(con);
                    cv.push(v);
                }
            }
            self.need.push(num as i32);
            self.free.push(cv.len as i32);
            self.con_vars.push(cv);
        }
        // Fix the cells forced by one number, to a fixpoint.
        let mut fixed: Vec<Option<bool>> = vec![None; self.vars.len()];
        let mut changed = true;
        while changed {
            changed = false;
            for c in 0..self.need.len() {
                let (need, free) = (self.need[c], self.free[c]);
                if need < 0 || need > free {
                    return Count::Unknown; // contradictory clues: never emitted, so "not proven"
                }
                if free == 0 || (need != 0 && need != free) {
                    continue;
                }
                for v in self.con_vars[c].iter() {
                    if fixed[v].is_none() {
                        fixed[v] = Some(need != 0);
                        for c2 in self.var_cons[v].iter() {
                            self.need[c2] -= (need != 0) as i32;
                            self.free[c2] -= 1;
                        }
                        changed = true;
                    }
                }
            }
        }
        self.order.clear();
        self.order.extend((0..self.vars.len()).filter(|&v| fixed[v].is_none()));
        self.assign.clear();
        self.assign.extend(fixed.iter().map(|f| f == &Some(true)));
        let k = self.assign.iter().filter(|&&a| a).count();
        if k <= mines {
            self.search(0, k, truth);
        }
        match (self.nodes > NODE_BUDGET, self.count) {
            (true, _) | (_, 0) => Count::Unknown,
            (_, 1) => Count::Unique,
            _ => Count::Several(std::mem::take(&mut self.witness)),
        }
    }

    fn search(&mut self, i: usize, k: usize, truth: &[bool]) {
        self.nodes += 1;
        if self.count >= 2
            || self.nodes > NODE_BUDGET
            || k + (self.order.len() - i) + self.floating < self.mines
        {
            return;
        }
        if i == self.order.len() {
            let rest = self.mines - k;
            if rest <= self.floating {
                self.count += if rest == 0 || rest == self.floating { 1 } else { 2 };
                if self.witness.is_empty() {
                    let vars = self.vars.iter().zip(&self.assign);
                    self.witness.extend(vars.filter(|(&c, &a)| a && !truth[c]).map(|(&c, _)| c));
                }
            }
            return;
        }
        let v = self.order[i];
        for val in [false, true] {
            if val && k == self.mines {
                continue;
            }
            let d = val as i32;
            let cons = self.var_cons[v];
            if !cons.iter().all(|c| self.need[c] >= d && self.free[c] > self.need[c] - d) {
                continue;
            }
            for c in cons.iter() {
                self.need[c] -= d;
                self.free[c] -= 1;
            }
            self.assign[v] = val;
            self.search(i + 1, k + val as usize, truth);
            for c in cons.iter() {
                self.need[c] += d;
                self.free[c] += 1;
            }
            self.assign[v] = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floating_cells_are_counted_by_the_mine_total() {
        // `1???`: the 1 forces a mine at column 2; columns 3-4 touch no number.
        let cells = [Some(1), None, None, None];
        let mut s = Solver::new(1, 4);
        let truth = [false, true, true, false];
        assert!(matches!(s.count(&cells, 1, &[false, true, false, false]), Count::Unique));
        assert!(matches!(s.count(&cells, 3, &[false, true, true, true]), Count::Unique));
        assert!(matches!(s.count(&cells, 2, &truth), Count::Several(w) if w.is_empty()));
        assert!(matches!(s.count(&cells, 4, &truth), Count::Unknown));
        // `1?1` over `???` with 1 mine: it is at (1,2) or (2,2).
        let cells = [Some(1), None, Some(1), None, None, None];
        let truth = [false, true, false, false, false, false];
        assert!(matches!(Solver::new(2, 3).count(&cells, 1, &truth), Count::Several(w) if w == [4]));
        assert!(matches!(
            Solver::new(2, 3).count(&cells, 2, &[false, false, false, true, false, true]),
            Count::Unique
        ));
    }
}
