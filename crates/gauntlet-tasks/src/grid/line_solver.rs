//! A solution counter for grid puzzles whose every row and column is "one of a list of
//! patterns": Skyscraper (permutations with the right visibility), Kakurasu (0/1 rows with the
//! right weighted sum), Nonogram (0/1 rows with the right runs).
//!
//! Each cell keeps a bit set of candidate values (`0..16`); each line keeps the patterns still
//! consistent with its cells. Propagation alternates between the two until nothing changes
//! (drop patterns that use a value a cell no longer allows; restrict each cell to the values
//! its line's remaining patterns put there). When propagation stalls, the solver branches on the
//! line with the fewest patterns left. [`count`] stops at `limit` solutions, so
//! `count(lines, 2) == 1` proves a puzzle unique.

/// The candidate patterns of every row and every column (each pattern has one value per cell,
/// every value below 16).
#[derive(Debug, Clone)]
pub struct Lines {
    /// Patterns of each row (each of length = number of columns).
    pub rows: Vec<Vec<Vec<u8>>>,
    /// Patterns of each column (each of length = number of rows).
    pub cols: Vec<Vec<Vec<u8>>>,
}

#[derive(Clone)]
struct State {
    cells: Vec<u16>,
    active: Vec<Vec<u32>>,
}

impl Lines {
    fn height(&self) -> usize {
        self.rows.len()
    }

    fn width(&self) -> usize {
        self.cols.len()
    }

    fn pattern(&self, line: usize, k: u32) -> &[u8] {
        if line < self.height() {
            &self.rows[line][k as usize]
        } else {
            &self.cols[line - self.height()][k as usize]
        }
    }

    fn cell(&self, line: usize, i: usize) -> usize {
        if line < self.height() {
            line * self.width() + i
        } else {
            i * self.width() + (line - self.height())
        }
    }

    /// Propagate to a fixpoint from the lines in `queue` (only lines whose cells changed are
    /// revisited); `false` on a contradiction.
    fn propagate(&self, st: &mut State, mut queue: Vec<usize>) -> bool {
        let (h, w) = (self.height(), self.width());
        let mut queued = vec![false; h + w];
        queue.iter().for_each(|&l| queued[l] = true);
        let mut union = [0u16; 64];
        while let Some(line) = queue.pop() {
            queued[line] = false;
            let len = if line < h { w } else { h };
            let mut active = std::mem::take(&mut st.active[line]);
            active.retain(|&k| {
                self.pattern(line, k)
                    .iter()
                    .enumerate()
                    .all(|(i, &v)| st.cells[self.cell(line, i)] >> v & 1 == 1)
            });
            if active.is_empty() {
                return false;
            }
            union[..len].iter_mut().for_each(|u| *u = 0);
            for &k in &active {
                for (i, &v) in self.pattern(line, k).iter().enumerate() {
                    union[i] |= 1 << v;
                }
            }
            st.active[line] = active;
            for (i, &u) in union[..len].iter().enumerate() {
                let c = self.cell(line, i);
                let new = st.cells[c] & u;
                if new != st.cells[c] {
                    st.cells[c] = new;
                    let cross = if line < h { h + i } else { i };
                    if !queued[cross] {
                        queued[cross] = true;
                        queue.push(cross);
                    }
                }
            }
        }
        true
    }

    fn search(
        &self,
        mut st: State,
        queue: Vec<usize>,
        limit: usize,
        found: &mut usize,
        first: &mut Option<Vec<Vec<u8>>>,
    ) {
        if *found >= limit || !self.propagate(&mut st, queue) {
            return;
        }
        let open =
            (0..st.active.len()).filter(|&l| st.active[l].len() > 1).min_by_key(|&l| st.active[l].len());
        let Some(line) = open else {
            *found += 1;
            if first.is_none() {
                let w = self.width();
                let grid = (0..self.height())
                    .map(|r| (0..w).map(|c| st.cells[r * w + c].trailing_zeros() as u8).collect())
                    .collect();
                *first = Some(grid);
            }
            return;
        };
        for &k in &st.active[line].clone() {
            let mut next = st.clone();
            next.active[line] = vec![k];
            self.search(next, vec![line], limit, found, first);
            if *found >= limit {
                return;
            }
        }
    }
}

/// Count the solutions up to `limit`, with the first one found.
pub fn count(lines: &Lines, limit: usize) -> (usize, Option<Vec<Vec<u8>>>) {
    let (h, w) = (lines.height(), lines.width());
    let active = lines.rows.iter().chain(&lines.cols).map(|ps| (0..ps.len() as u32).collect()).collect();
    let st = State { cells: vec![u16::MAX; h * w], active };
    let (mut found, mut first) = (0, None);
    if h + w > 64 || h > 64 || w > 64 {
        return (0, None);
    }
    lines.search(st, (0..h + w).collect(), limit, &mut found, &mut first);
    (found, first)
}

/// Every 0/1 vector of length `n` (as bytes), in counting order.
pub fn binary_patterns(n: usize) -> Vec<Vec<u8>> {
    (0u32..1 << n).map(|m| (0..n).map(|i| (m >> i & 1) as u8).collect()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_latin_squares_of_order_three() {
        let perms: Vec<Vec<u8>> =
            vec![vec![1, 2, 3], vec![1, 3, 2], vec![2, 1, 3], vec![2, 3, 1], vec![3, 1, 2], vec![3, 2, 1]];
        let lines = Lines { rows: vec![perms.clone(); 3], cols: vec![perms; 3] };
        assert_eq!(count(&lines, 100).0, 12);
        assert_eq!(count(&lines, 2).0, 2);
        let mut one = lines.clone();
        one.rows[0] = vec![vec![1, 2, 3]];
        one.rows[1] = vec![vec![2, 3, 1]];
        let (n, first) = count(&one, 5);
        assert_eq!(n, 1);
        assert_eq!(first.unwrap()[2], vec![3, 1, 2]);
    }
}
