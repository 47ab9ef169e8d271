//! The Binairo solver behind the `binairo` family: known cells as row and column bitmasks,
//! complete line solving (a cell is forced when every valid line pattern that fits the known
//! cells and differs from the complete lines agrees on it), a search that counts solutions up
//! to a limit, a random full-grid generator and the uniqueness-keeping digger.
//!
//! Grids are flat (`r * n + c`) with `0`, `1`, and `2` for a blank cell.

use super::binairo::MAX_N;
use gauntlet_core::Rng;

/// Known ones and zeros: bit `c` of `ro[r]` says cell `(r, c)` is 1; `co[c]` bit `r` likewise.
#[derive(Clone, Copy)]
struct Board {
    n: usize,
    ro: [u16; MAX_N],
    rz: [u16; MAX_N],
    co: [u16; MAX_N],
    cz: [u16; MAX_N],
}

impl Board {
    fn new(n: usize) -> Self {
        Board { n, ro: [0; MAX_N], rz: [0; MAX_N], co: [0; MAX_N], cz: [0; MAX_N] }
    }

    fn set(&mut self, r: usize, c: usize, one: bool) {
        if one {
            self.ro[r] |= 1 << c;
            self.co[c] |= 1 << r;
        } else {
            self.rz[r] |= 1 << c;
            self.cz[c] |= 1 << r;
        }
    }

    fn from_grid(n: usize, grid: &[u8]) -> Self {
        let mut b = Board::new(n);
        for (i, &v) in grid.iter().enumerate().take(n * n) {
            if v <= 1 {
                b.set(i / n, i % n, v == 1);
            }
        }
        b
    }

    fn full(&self) -> u16 {
        ((1u32 << self.n) - 1) as u16
    }
}

/// Every valid line of length `n`: balanced, no three equal digits in a row (bit `c` = 1 at
/// position `c`). 84 lines for `n = 10`, 208 for `n = 12`.
fn patterns(n: usize) -> Vec<u16> {
    let full = (1u32 << n) - 1;
    (0..=full)
        .map(|p| p as u16)
        .filter(|&p| {
            let q = !p & full as u16;
            p.count_ones() as usize * 2 == n && p & (p >> 1) & (p >> 2) == 0 && q & (q >> 1) & (q >> 2) == 0
        })
        .collect()
}

/// Line solving: the cells of a line (known ones `o`, zeros `z`) that are the same in every
/// valid pattern consistent with them and different from every complete other line in
/// `complete` (`(index, pattern)`; `me` is this line's index). Returns the forced ones and
/// zeros, or `None` when no pattern fits.
fn line_solve(
    o: u16,
    z: u16,
    pats: &[u16],
    full: u16,
    complete: &[(usize, u16)],
    me: usize,
) -> Option<(u16, u16)> {
    let (mut ones, mut zeros, mut any) = (full, full, false);
    for &p in pats {
        if p & z != 0 || !p & o != 0 || complete.iter().any(|&(i, q)| i != me && q == p) {
            continue;
        }
        ones &= p;
        zeros &= !p;
        any = true;
    }
    any.then_some((ones, zeros & full))
}

/// Complete lines among `o`/`z` as a bit set, and the `(index, pattern)` list of them.
fn complete_lines(o: &[u16], z: &[u16], full: u16, list: &mut [(usize, u16); MAX_N]) -> (u16, usize) {
    let (mut mask, mut k) = (0u16, 0);
    for i in 0..o.len() {
        if o[i] | z[i] == full {
            mask |= 1 << i;
            list[k] = (i, o[i]);
            k += 1;
        }
    }
    (mask, k)
}

/// After lines `fresh` became complete: false if one equals another complete line; otherwise
/// the incomplete lines that could still match a fresh one (they must now avoid it).
fn restricted(o: &[u16], z: &[u16], done: u16, mut fresh: u16) -> Option<u16> {
    let mut dirty = 0;
    while fresh != 0 {
        let i = fresh.trailing_zeros() as usize;
        fresh &= fresh - 1;
        for q in 0..o.len() {
            if q == i {
                continue;
            }
            if done >> q & 1 == 1 {
                if o[q] == o[i] {
                    return None;
                }
            } else if o[i] & z[q] == 0 && !o[i] & o[q] == 0 {
                dirty |= 1 << q;
            }
        }
    }
    Some(dirty)
}

/// The cheap line rules: `xx_`, `_xx` and `x_x` force the other digit next to them, a line
/// with half its cells at one digit gets the other digit everywhere else. Returns the new
/// known ones and zeros of the line, or `None` on a contradiction (overfull, three in a row).
fn deduce(o: u16, z: u16, n: usize, full: u16) -> Option<(u16, u16)> {
    let half = (n / 2) as u32;
    let (mut o, mut z) = (o, z);
    loop {
        if o & z != 0 || o.count_ones() > half || z.count_ones() > half {
            return None;
        }
        if o & (o >> 1) & (o >> 2) != 0 || z & (z >> 1) & (z >> 2) != 0 {
            return None;
        }
        let forced = |x: u16| {
            let pair = x & (x >> 1);
            ((pair >> 1) | (pair << 2) | ((x & (x >> 2)) << 1)) & full
        };
        let mut no = o | forced(z);
        let mut nz = z | forced(o);
        if no.count_ones() == half {
            nz |= full & !no;
        }
        if nz.count_ones() == half {
            no |= full & !nz;
        }
        if (no, nz) == (o, z) {
            return Some((o, z));
        }
        (o, z) = (no, nz);
    }
}

/// Line-solve dirty rows and columns until nothing changes; false on a contradiction (a line
/// no valid pattern fits, or two equal complete lines).
fn propagate(b: &mut Board, pats: &[u16], mut dirty_rows: u16, mut dirty_cols: u16) -> bool {
    let (n, full) = (b.n, b.full());
    (dirty_rows, dirty_cols) = (dirty_rows & full, dirty_cols & full);
    let mut done_rows = [(0usize, 0u16); MAX_N];
    let mut done_cols = [(0usize, 0u16); MAX_N];
    // Complete lines already checked against the others (none at first).
    let mut checked = [0u16; 2];
    while dirty_rows | dirty_cols != 0 {
        let (_, nr) = complete_lines(&b.ro[..n], &b.rz[..n], full, &mut done_rows);
        let (_, nc) = complete_lines(&b.co[..n], &b.cz[..n], full, &mut done_cols);
        while dirty_rows != 0 {
            let r = dirty_rows.trailing_zeros() as usize;
            dirty_rows &= dirty_rows - 1;
            let Some((o, z)) = line_solve(b.ro[r], b.rz[r], pats, full, &done_rows[..nr], r) else {
                return false;
            };
            let (new_o, new_z) = (o & !b.ro[r], z & !b.rz[r]);
            for (mut bits, one) in [(new_o, true), (new_z, false)] {
                while bits != 0 {
                    let c = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    b.set(r, c, one);
                    dirty_cols |= 1 << c;
                }
            }
        }
        while dirty_cols != 0 {
            let c = dirty_cols.trailing_zeros() as usize;
            dirty_cols &= dirty_cols - 1;
            let Some((o, z)) = line_solve(b.co[c], b.cz[c], pats, full, &done_cols[..nc], c) else {
                return false;
            };
            let (new_o, new_z) = (o & !b.co[c], z & !b.cz[c]);
            for (mut bits, one) in [(new_o, true), (new_z, false)] {
                while bits != 0 {
                    let r = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    b.set(r, c, one);
                    dirty_rows |= 1 << r;
                }
            }
        }
        // Lines completed since the last check must differ from the other complete lines, and
        // the incomplete lines that could still match them must be solved again.
        let (rows_now, _) = complete_lines(&b.ro[..n], &b.rz[..n], full, &mut done_rows);
        let (cols_now, _) = complete_lines(&b.co[..n], &b.cz[..n], full, &mut done_cols);
        let Some(more_rows) = restricted(&b.ro[..n], &b.rz[..n], rows_now, rows_now & !checked[0]) else {
            return false;
        };
        let Some(more_cols) = restricted(&b.co[..n], &b.cz[..n], cols_now, cols_now & !checked[1]) else {
            return false;
        };
        checked = [rows_now, cols_now];
        dirty_rows |= more_rows;
        dirty_cols |= more_cols;
    }
    true
}

/// The patterns that fit line `(o, z)` and differ from the complete lines in `done`, written
/// into `out` (stops counting past `cap`). Returns how many.
fn fitting(o: &[u16], z: &[u16], i: usize, pats: &[u16], done: u16, out: &mut Vec<u16>, cap: usize) -> usize {
    out.clear();
    for &p in pats {
        if p & z[i] != 0 || !p & o[i] != 0 {
            continue;
        }
        let mut d = done;
        let mut clash = false;
        while d != 0 {
            let q = d.trailing_zeros() as usize;
            d &= d - 1;
            clash |= o[q] == p;
        }
        if !clash {
            out.push(p);
            if out.len() > cap {
                break;
            }
        }
    }
    out.len()
}

/// Search below the propagated board `b`: count solutions up to `limit`, keep the first. It
/// branches on the incomplete row or column with the fewest fitting patterns, over those
/// patterns (whole lines at a time).
fn search(
    b: &Board,
    pats: &[u16],
    limit: usize,
    count: &mut usize,
    first: &mut Option<Board>,
    mut rng: Option<&mut Rng>,
) {
    let (n, full) = (b.n, b.full());
    let mut tmp = Vec::new();
    let mut best: Option<(bool, usize, Vec<u16>)> = None;
    for is_row in [true, false] {
        let (o, z) = if is_row { (&b.ro[..n], &b.rz[..n]) } else { (&b.co[..n], &b.cz[..n]) };
        let mut done = 0u16;
        for i in 0..n {
            if o[i] | z[i] == full {
                done |= 1 << i;
            }
        }
        for i in 0..n {
            if done >> i & 1 == 1 {
                continue;
            }
            let cap = best.as_ref().map_or(usize::MAX, |(_, _, v)| v.len());
            let k = fitting(o, z, i, pats, done, &mut tmp, cap);
            if k < cap {
                best = Some((is_row, i, std::mem::take(&mut tmp)));
                if k <= 2 {
                    break;
                }
            }
        }
    }
    let Some((is_row, i, mut options)) = best else {
        *count += 1;
        if first.is_none() {
            *first = Some(*b);
        }
        return;
    };
    if let Some(rng) = rng.as_deref_mut() {
        rng.shuffle(&mut options);
    }
    for p in options {
        let mut child = *b;
        let unknown = if is_row { full & !(b.ro[i] | b.rz[i]) } else { full & !(b.co[i] | b.cz[i]) };
        let mut bits = unknown;
        while bits != 0 {
            let j = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let one = p >> j & 1 == 1;
            if is_row {
                child.set(i, j, one);
            } else {
                child.set(j, i, one);
            }
        }
        let (dr, dc) = if is_row { (1 << i, unknown) } else { (unknown, 1 << i) };
        if propagate(&mut child, pats, dr, dc) {
            search(&child, pats, limit, count, first, rng.as_deref_mut());
            if *count >= limit {
                return;
            }
        }
    }
}

fn to_grid(b: &Board) -> Vec<u8> {
    let n = b.n;
    (0..n * n).map(|i| u8::from(b.ro[i / n] >> (i % n) & 1 == 1)).collect()
}

/// Number of solutions of the flat puzzle `grid` (`2` = blank), counted up to `limit`.
pub fn count_solutions(n: usize, grid: &[u8], limit: usize) -> usize {
    if n == 0 || n > MAX_N || n & 1 == 1 || grid.len() != n * n {
        return 0;
    }
    let pats = patterns(n);
    let mut b = Board::from_grid(n, grid);
    if !propagate(&mut b, &pats, u16::MAX, u16::MAX) {
        return 0;
    }
    let (mut count, mut first) = (0, None);
    search(&b, &pats, limit, &mut count, &mut first, None);
    count
}

/// A random solved grid of side `n` (even, at most [`MAX_N`]): a search in random value order.
pub fn random_grid(n: usize, rng: &mut Rng) -> Vec<u8> {
    let pats = patterns(n);
    let mut b = Board::new(n);
    let (mut count, mut first) = (0, None);
    if propagate(&mut b, &pats, u16::MAX, u16::MAX) {
        search(&b, &pats, 1, &mut count, &mut first, Some(rng));
    }
    // Every even side has solutions, so the search finds one; the fallback keeps this total.
    first.map(|b| to_grid(&b)).unwrap_or_else(|| vec![2; n * n])
}

/// Whether the flat puzzle `grid` (blank at `cell`) has a solution whose digit at `cell` is not
/// `v`.
fn has_other(n: usize, pats: &[u16], grid: &[u8], cell: usize, v: u8) -> bool {
    let mut b = Board::from_grid(n, grid);
    let (r, c) = (cell / n, cell % n);
    b.set(r, c, v == 0);
    // Quick refutation: the other digit breaks a simple rule in its own row or column.
    let full = b.full();
    if deduce(b.ro[r], b.rz[r], n, full).is_none() || deduce(b.co[c], b.cz[c], n, full).is_none() {
        return false;
    }
    if !propagate(&mut b, pats, u16::MAX, u16::MAX) {
        return false;
    }
    let (mut count, mut first) = (0, None);
    search(&b, pats, 1, &mut count, &mut first, None);
    count > 0
}

/// Remove givens of the solved grid in random order while the solution stays unique, until
/// `target` givens remain or none can go. Returns the flat puzzle (`2` = blank).
pub fn dig(n: usize, solution: &[u8], target: usize, rng: &mut Rng) -> Vec<u8> {
    let pats = patterns(n);
    let mut grid = solution.to_vec();
    let mut givens = n * n;
    for cell in rng.permutation(n * n) {
        if givens <= target {
            break;
        }
        let v = grid[cell];
        grid[cell] = 2;
        if has_other(n, &pats, &grid, cell, v) {
            grid[cell] = v;
        } else {
            givens -= 1;
        }
    }
    grid
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_known_totals() {
        // Valid grids with all three rules: 72 (4×4) and 4 140 (6×6; 11 222 without the
        // distinct-lines rule), checked by brute force.
        assert_eq!(count_solutions(4, &[2; 16], 1000), 72);
        assert_eq!(count_solutions(6, &[2; 36], 20_000), 4_140);
    }

    #[test]
    fn line_solving_applies_the_rules() {
        // `11..` in a row of 4: both blanks are 0 (also by the cheap rules).
        assert_eq!(deduce(0b0011, 0, 4, 0b1111), Some((0b0011, 0b1100)));
        assert_eq!(deduce(0b0111, 0, 4, 0b1111), None);
        let p4 = patterns(4);
        assert_eq!(p4.len(), 6);
        assert_eq!(patterns(10).len(), 84);
        // `11..` in a row of 4: both blanks are 0.
        assert_eq!(line_solve(0b0011, 0, &p4, 0b1111, &[], 0), Some((0b0011, 0b1100)));
        // `1.1...`: the gap is 0.
        let p6 = patterns(6);
        assert_eq!(line_solve(0b101, 0, &p6, 0b11_1111, &[], 0).map(|(_, z)| z & 0b10), Some(0b10));
        assert_eq!(line_solve(0b0111, 0, &p4, 0b1111, &[], 0), None);
        // `10..` next to a complete row `1010` must be `1001`.
        assert_eq!(line_solve(0b01, 0b10, &p4, 0b1111, &[(1, 0b0101)], 0), Some((0b1001, 0b0110)));
    }
}
