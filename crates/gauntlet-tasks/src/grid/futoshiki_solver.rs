//! The Futoshiki solver behind the `futoshiki` family: Latin-square candidates as bitmasks with
//! naked and hidden singles per row and column, bound propagation along the inequalities, and an
//! MRV search that collects solutions up to a limit (optionally in random digit order, which
//! also makes it the random Latin square generator).
//!
//! Grids are flat (`r * n + c`), digits `1..=n`, `0` for a blank; `n ≤ 9`.

use gauntlet_core::Rng;

/// Largest side handled.
pub const MAX_N: usize = 9;

#[derive(Clone, Copy)]
struct State {
    cand: [u16; 81],
    /// Solved cells whose digit has been removed from their row and column.
    done: u128,
}

/// One puzzle: side, givens and the `(a, b)` cell pairs with `value(a) < value(b)`.
pub struct Puzzle<'a> {
    /// Side of the square.
    pub n: usize,
    /// Flat givens, `0` = blank.
    pub givens: &'a [u8],
    /// Cell pairs `(a, b)` meaning `value(a) < value(b)`.
    pub less: &'a [(usize, usize)],
}

fn single(v: u16) -> bool {
    v & v.wrapping_sub(1) == 0
}

/// Solved cells waiting to be propagated (each cell becomes solved once per state).
struct Stack {
    items: [u8; 96],
    len: usize,
}

impl Stack {
    fn push(&mut self, c: usize) {
        if self.len < self.items.len() {
            self.items[self.len] = c as u8;
            self.len += 1;
        }
    }
}

/// Propagate to a fixpoint (naked singles through the stack, hidden singles per row and
/// column, bounds along the inequalities); false on a contradiction.
fn propagate(p: &Puzzle, s: &mut State, st: &mut Stack) -> bool {
    let n = p.n;
    let all = ((1u32 << n) - 1) as u16;
    loop {
        while st.len > 0 {
            st.len -= 1;
            let c = st.items[st.len] as usize;
            if s.done >> c & 1 == 1 {
                continue;
            }
            s.done |= 1 << c;
            let bit = s.cand[c];
            let (r, k) = (c / n, c % n);
            for j in 0..n {
                for q in [r * n + j, j * n + k] {
                    if q != c && s.cand[q] & bit != 0 {
                        let v = s.cand[q] & !bit;
                        if v == 0 {
                            return false;
                        }
                        s.cand[q] = v;
                        if single(v) {
                            st.push(q);
                        }
                    }
                }
            }
        }
        let mut progress = false;
        for &(a, b) in p.less {
            let (ma, mb) = (s.cand[a] as u32, s.cand[b] as u32);
            // a < max(b) and b > min(a); both sets are non-empty here.
            let na = ma & ((1u32 << (31 - mb.leading_zeros())) - 1);
            if na == 0 {
                return false;
            }
            let nb = mb & !((2u32 << na.trailing_zeros()) - 1);
            if nb == 0 {
                return false;
            }
            for (cell, old, new) in [(a, ma, na), (b, mb, nb)] {
                if new != old {
                    s.cand[cell] = new as u16;
                    if single(new as u16) {
                        st.push(cell);
                    }
                    progress = true;
                }
            }
        }
        if progress {
            continue;
        }
        for u in 0..2 * n {
            let cell = |j: usize| if u < n { u * n + j } else { j * n + (u - n) };
            let (mut once, mut twice) = (0u16, 0u16);
            for j in 0..n {
                let v = s.cand[cell(j)];
                twice |= once & v;
                once |= v;
            }
            if once != all {
                return false;
            }
            let hidden = once & !twice;
            if hidden == 0 {
                continue;
            }
            for j in 0..n {
                let (c, v) = (cell(j), s.cand[cell(j)]);
                let h = v & hidden;
                if h != 0 && !single(v) {
                    if !single(h) {
                        return false;
                    }
                    s.cand[c] = h;
                    st.push(c);
                    progress = true;
                }
            }
        }
        if !progress {
            return true;
        }
    }
}

fn search(p: &Puzzle, s: &State, limit: usize, out: &mut Vec<Vec<u8>>, mut rng: Option<&mut Rng>) {
    let cells = p.n * p.n;
    let mut best = None;
    let mut best_k = u32::MAX;
    let mut open = !s.done & ((1u128 << cells) - 1);
    while open != 0 {
        let c = open.trailing_zeros() as usize;
        open &= open - 1;
        let k = s.cand[c].count_ones();
        if k < best_k {
            best = Some(c);
            best_k = k;
            if k == 2 {
                break;
            }
        }
    }
    let Some(c) = best else {
        out.push((0..cells).map(|i| s.cand[i].trailing_zeros() as u8 + 1).collect());
        return;
    };
    let mut bits = [0u16; MAX_N];
    let mut k = 0;
    let mut m = s.cand[c];
    while m != 0 {
        bits[k] = m & m.wrapping_neg();
        m &= m - 1;
        k += 1;
    }
    if let Some(r) = rng.as_deref_mut() {
        r.shuffle(&mut bits[..k]);
    }
    let mut st = Stack { items: [0; 96], len: 0 };
    for &bit in &bits[..k] {
        let mut child = *s;
        child.cand[c] = bit;
        st.len = 0;
        st.push(c);
        if propagate(p, &mut child, &mut st) {
            search(p, &child, limit, out, rng.as_deref_mut());
            if out.len() >= limit {
                return;
            }
        }
    }
}

/// Search with the candidates of `exclude.0` narrowed to exclude digit `exclude.1` (0 = none).
fn solve_with(p: &Puzzle, limit: usize, exclude: (usize, u8), rng: Option<&mut Rng>) -> Vec<Vec<u8>> {
    let n = p.n;
    let mut out = Vec::new();
    if n == 0 || n > MAX_N || p.givens.len() != n * n {
        return out;
    }
    if p.givens.iter().any(|&v| v as usize > n) || p.less.iter().any(|&(a, b)| a >= n * n || b >= n * n) {
        return out;
    }
    let all = ((1u32 << n) - 1) as u16;
    let mut s = State { cand: [0; 81], done: 0 };
    let mut st = Stack { items: [0; 96], len: 0 };
    for (c, &v) in p.givens.iter().enumerate() {
        s.cand[c] = if v == 0 { all } else { 1 << (v - 1) };
        if (c, v) == (exclude.0, 0) && exclude.1 != 0 {
            s.cand[c] &= !(1 << (exclude.1 - 1));
        }
        if s.cand[c] == 0 {
            return out;
        }
        if single(s.cand[c]) {
            st.push(c);
        }
    }
    if propagate(p, &mut s, &mut st) {
        search(p, &s, limit, &mut out, rng);
    }
    out
}

/// Up to `limit` solutions of the puzzle.
pub fn solutions(p: &Puzzle, limit: usize) -> Vec<Vec<u8>> {
    solve_with(p, limit, (0, 0), None)
}

/// Whether the puzzle (blank at `cell`) has a solution whose digit at `cell` is not `v`.
pub fn has_other(p: &Puzzle, cell: usize, v: u8) -> bool {
    !solve_with(p, 1, (cell, v), None).is_empty()
}

/// A random Latin square of side `n` (`1 ≤ n ≤ 9`): a search in random digit order from a
/// shuffled first row.
pub fn random_latin(n: usize, rng: &mut Rng) -> Vec<u8> {
    let mut givens = vec![0u8; n * n];
    let first: Vec<usize> = rng.permutation(n);
    for (c, &v) in first.iter().enumerate() {
        givens[c] = v as u8 + 1;
    }
    let p = Puzzle { n, givens: &givens, less: &[] };
    // A Latin row always extends to a square (cyclic shifts), so the search succeeds; the
    // fallback keeps this total.
    solve_with(&p, 1, (0, 0), Some(rng))
        .pop()
        .unwrap_or_else(|| (0..n * n).map(|i| ((first[i % n] + i / n) % n) as u8 + 1).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_latin_squares() {
        let empty = [0u8; 16];
        assert_eq!(solutions(&Puzzle { n: 4, givens: &empty, less: &[] }, 1000).len(), 576);
        // A chain of inequalities along row 1 forces it to 1 2 3 4.
        let less = [(0, 1), (1, 2), (2, 3)];
        let sols = solutions(&Puzzle { n: 4, givens: &empty, less: &less }, 1000);
        assert_eq!(sols.len(), 24);
        assert!(sols.iter().all(|s| s[..4] == [1, 2, 3, 4]));
    }

    #[test]
    fn random_latin_squares_are_latin() {
        let mut rng = Rng::new(9);
        for n in 1..=9 {
            let sq = random_latin(n, &mut rng);
            for i in 0..n {
                let row: u32 = (0..n).map(|j| 1 << sq[i * n + j]).sum();
                let col: u32 = (0..n).map(|j| 1 << sq[j * n + i]).sum();
                assert_eq!(row, ((1 << n) - 1) << 1);
                assert_eq!(col, row);
            }
        }
    }
}
