//! Clues, random true clues and the solver of the zebra family: bitmask domains, constraint
//! propagation and backtracking.
//!
//! Every attribute value ("item") has a domain: the set of houses it may be in, as a bit mask.
//! Propagation narrows domains with each clue (shifts of the masks for "left of" / "next to"),
//! and with the all-different rule of each attribute (a value fixed to a house removes that house
//! from the others; a house only one value can take gets it). Search branches on the item with the
//! smallest domain and stops at a solution-count limit, so uniqueness checks cost two solutions.
//! [`Solver::breaking`] looks only for solutions that break one given clue: none means the clue
//! is implied by the others, which is how the generator drops redundant clues.

use crate::logic::pair;
use gauntlet_core::Rng;
use serde::{Deserialize, Serialize};

/// Houses and attributes are at most this many.
pub const MAX: usize = 8;

/// One attribute value: `(attribute index, value index)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Item(pub u8, pub u8);

/// A clue about the houses (0-based house numbers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Clue {
    /// The item is in this house.
    At(Item, u8),
    /// The item is not in this house.
    NotAt(Item, u8),
    /// Both items are in the same house.
    Same(Item, Item),
    /// The items are in different houses.
    NotSame(Item, Item),
    /// The first item's house is directly left of the second's (one less).
    LeftOf(Item, Item),
    /// The items are in adjacent houses.
    NextTo(Item, Item),
    /// The first item's house is somewhere left of the second's (any lower number).
    Before(Item, Item),
}

impl Clue {
    /// The items the clue mentions.
    pub fn items(&self) -> (Item, Option<Item>) {
        match *self {
            Clue::At(x, _) | Clue::NotAt(x, _) => (x, None),
            Clue::Same(x, y)
            | Clue::NotSame(x, y)
            | Clue::LeftOf(x, y)
            | Clue::NextTo(x, y)
            | Clue::Before(x, y) => (x, Some(y)),
        }
    }

    /// Whether the clue holds when item `x` is in house `house(x)`.
    pub fn holds(&self, house: impl Fn(Item) -> usize) -> bool {
        match *self {
            Clue::At(x, h) => house(x) == h as usize,
            Clue::NotAt(x, h) => house(x) != h as usize,
            Clue::Same(x, y) => house(x) == house(y),
            Clue::NotSame(x, y) => house(x) != house(y),
            Clue::LeftOf(x, y) => house(x) + 1 == house(y),
            Clue::NextTo(x, y) => house(x).abs_diff(house(y)) == 1,
            Clue::Before(x, y) => house(x) < house(y),
        }
    }

    /// Whether every item and house named is within `n` houses and the given attribute sizes.
    pub fn in_range(&self, n: usize, attrs: usize) -> bool {
        let ok = |i: Item| (i.0 as usize) < attrs && (i.1 as usize) < n;
        let (x, y) = self.items();
        let house_ok = match *self {
            Clue::At(_, h) | Clue::NotAt(_, h) => (h as usize) < n,
            _ => true,
        };
        ok(x) && y.is_none_or(ok) && house_ok
    }
}

/// Domains: `d[a * MAX + v]` is the set of houses value `v` of attribute `a` may be in.
pub type Domains = [u8; MAX * MAX];

/// A puzzle: `n` houses, `k` attributes of `n` values each, and clues (all in range).
pub struct Solver<'a> {
    n: usize,
    k: usize,
    clues: &'a [Clue],
    /// A clue that must be *false* (to look for solutions that break it).
    negated: Option<Clue>,
}

fn idx(i: Item) -> usize {
    i.0 as usize * MAX + i.1 as usize
}

impl<'a> Solver<'a> {
    /// A solver; `None` unless `1 ≤ n, k ≤ MAX` and every clue is in range.
    pub fn new(n: usize, k: usize, clues: &'a [Clue]) -> Option<Self> {
        let ok = (1..=MAX).contains(&n) && (1..=MAX).contains(&k) && clues.iter().all(|c| c.in_range(n, k));
        ok.then_some(Solver { n, k, clues, negated: None })
    }

    /// Narrow `d` to a fixpoint; false when some item has no house left.
    fn propagate(&self, d: &mut Domains) -> bool {
        let full: u8 = ((1u16 << self.n) - 1) as u8;
        loop {
            let before = *d;
            for c in self.clues {
                match *c {
                    Clue::At(x, h) => d[idx(x)] &= 1 << h,
                    Clue::NotAt(x, h) => d[idx(x)] &= !(1 << h),
                    Clue::Same(x, y) => {
                        let m = d[idx(x)] & d[idx(y)];
                        d[idx(x)] = m;
                        d[idx(y)] = m;
                    }
                    Clue::NotSame(x, y) => {
                        let (a, b) = (d[idx(x)], d[idx(y)]);
                        if a.count_ones() == 1 {
                            d[idx(y)] &= !a;
                        }
                        if b.count_ones() == 1 {
                            d[idx(x)] &= !b;
                        }
                    }
                    Clue::LeftOf(x, y) => {
                        d[idx(y)] &= d[idx(x)] << 1;
                        d[idx(x)] &= d[idx(y)] >> 1;
                    }
                    Clue::NextTo(x, y) => {
                        let a = d[idx(x)];
                        d[idx(y)] &= ((a << 1) | (a >> 1)) & full;
                        let b = d[idx(y)];
                        d[idx(x)] &= (b << 1) | (b >> 1);
                    }
                    Clue::Before(x, y) => {
                        let a = d[idx(x)];
                        if a == 0 {
                            return false;
                        }
                        // y is above x's lowest house; x is below y's highest house.
                        d[idx(y)] &= !((a & a.wrapping_neg()) << 1).wrapping_sub(1) & !(a & a.wrapping_neg());
                        let b = d[idx(y)];
                        if b == 0 {
                            return false;
                        }
                        d[idx(x)] &= ((1u16 << (7 - b.leading_zeros())) - 1) as u8;
                    }
                }
            }
            if let Some(c) = self.negated {
                if !propagate_negated(c, d) {
                    return false;
                }
            }
            for a in 0..self.k {
                let row = &mut d[a * MAX..a * MAX + self.n];
                let mut fixed = 0u8;
                for &m in row.iter() {
                    if m == 0 || (m.count_ones() == 1 && fixed & m != 0) {
                        return false;
                    }
                    if m.count_ones() == 1 {
                        fixed |= m;
                    }
                }
                for m in row.iter_mut() {
                    if m.count_ones() > 1 {
                        *m &= !fixed;
                        if *m == 0 {
                            return false;
                        }
                    }
                }
                for h in 0..self.n {
                    let bit = 1u8 << h;
                    let mut only = None;
                    let mut count = 0;
                    for (v, &m) in row.iter().enumerate() {
                        if m & bit != 0 {
                            count += 1;
                            only = Some(v);
                        }
                    }
                    match (count, only) {
                        (0, _) => return false,
                        (1, Some(v)) => row[v] = bit,
                        _ => {}
                    }
                }
            }
            if *d == before {
                return true;
            }
        }
    }

    fn search(&self, mut d: Domains, limit: usize, found: &mut Vec<Domains>) {
        if !self.propagate(&mut d) {
            return;
        }
        let mut best: Option<(u32, usize)> = None;
        for a in 0..self.k {
            for v in 0..self.n {
                let c = d[a * MAX + v].count_ones();
                if c > 1 && best.is_none_or(|(b, _)| c < b) {
                    best = Some((c, a * MAX + v));
                }
            }
        }
        let Some((_, i)) = best else {
            found.push(d);
            return;
        };
        let mut m = d[i];
        while m != 0 && found.len() < limit {
            let bit = m & m.wrapping_neg();
            m &= !bit;
            let mut e = d;
            e[i] = bit;
            self.search(e, limit, found);
        }
    }

    /// Up to `limit` solutions, each as `sol[a][v]` = the house (0-based) of value `v` of attribute `a`.
    pub fn solutions(&self, limit: usize) -> Vec<Vec<Vec<u8>>> {
        let full = ((1u16 << self.n) - 1) as u8;
        let mut d: Domains = [0; MAX * MAX];
        for a in 0..self.k {
            d[a * MAX..a * MAX + self.n].fill(full);
        }
        let mut found = Vec::new();
        self.search(d, limit, &mut found);
        found
            .iter()
            .map(|d| {
                (0..self.k)
                    .map(|a| (0..self.n).map(|v| d[a * MAX + v].trailing_zeros() as u8).collect())
                    .collect()
            })
            .collect()
    }

    /// This solver restricted to solutions that break clue `c` (`c` must be in range). With
    /// `count(1) == 0`, `c` is implied by the clues: a unique solution stays unique without it.
    pub fn breaking(self, c: Clue) -> Self {
        Solver { negated: Some(c), ..self }
    }

    /// The number of solutions, counting at most to `limit`.
    pub fn count(&self, limit: usize) -> usize {
        self.solutions(limit).len()
    }
}

/// A random clue that holds for the solution `sol[a][v]` (house of each value); `w` weighs the
/// kinds in [`Clue`] order (at, not at, same, not same, left of, next to, before).
pub fn random_clue(rng: &mut Rng, sol: &[Vec<u8>], n: usize, w: &[u32; 7]) -> Clue {
    let k = sol.len();
    let total: u32 = w.iter().sum();
    let mut r = rng.below(total as u64) as u32;
    let mut kind = 0;
    while r >= w[kind] {
        r -= w[kind];
        kind += 1;
    }
    // The value of attribute `a` in house `h`.
    let at =
        |a: usize, h: usize| Item(a as u8, sol[a].iter().position(|&x| x as usize == h).unwrap_or(0) as u8);
    match kind {
        0 => {
            let (a, h) = (rng.index(k), rng.index(n));
            Clue::At(at(a, h), h as u8)
        }
        1 => {
            let (a, h) = (rng.index(k), rng.index(n));
            Clue::NotAt(at(a, h), ((h + 1 + rng.index(n - 1)) % n) as u8)
        }
        2 | 3 if k < 2 => Clue::At(at(0, 0), 0),
        2 => {
            let ((a, b), h) = (pair(rng, k), rng.index(n));
            Clue::Same(at(a, h), at(b, h))
        }
        3 => {
            let ((a, b), h) = (pair(rng, k), rng.index(n));
            Clue::NotSame(at(a, h), at(b, (h + 1 + rng.index(n - 1)) % n))
        }
        4 | 5 => {
            let h = rng.index(n - 1);
            let (x, y) = (at(rng.index(k), h), at(rng.index(k), h + 1));
            match (kind, rng.chance(0.5)) {
                (4, _) => Clue::LeftOf(x, y),
                (_, true) => Clue::NextTo(x, y),
                _ => Clue::NextTo(y, x),
            }
        }
        _ => {
            let (a, b) = pair(rng, n);
            let (h1, h2) = (a.min(b), a.max(b));
            Clue::Before(at(rng.index(k), h1), at(rng.index(k), h2))
        }
    }
}

/// Narrow `d` so that clue `c` can still be false; false when it cannot.
fn propagate_negated(c: Clue, d: &mut Domains) -> bool {
    let single = |m: u8| m.count_ones() == 1;
    match c {
        Clue::At(x, h) => d[idx(x)] &= !(1 << h),
        Clue::NotAt(x, h) => d[idx(x)] &= 1 << h,
        Clue::Same(x, y) | Clue::LeftOf(x, y) | Clue::NextTo(x, y) => {
            // The houses y may not take, given x's (single) house, and vice versa.
            let away = |m: u8, back: bool| match c {
                Clue::Same(..) => m,
                Clue::LeftOf(..) if back => m >> 1,
                Clue::LeftOf(..) => m << 1,
                _ => (m << 1) | (m >> 1),
            };
            let (a, b) = (d[idx(x)], d[idx(y)]);
            if single(a) {
                d[idx(y)] &= !away(a, false);
            }
            if single(b) {
                d[idx(x)] &= !away(b, true);
            }
        }
        Clue::NotSame(x, y) => {
            let m = d[idx(x)] & d[idx(y)];
            d[idx(x)] = m;
            d[idx(y)] = m;
        }
        Clue::Before(x, y) => {
            // Not (x < y): x is at or above y's lowest house, y at or below x's highest house.
            let b = d[idx(y)];
            if b == 0 {
                return false;
            }
            d[idx(x)] &= !((b & b.wrapping_neg()) - 1);
            let a = d[idx(x)];
            if a == 0 {
                return false;
            }
            d[idx(y)] &= ((1u16 << (8 - a.leading_zeros())) - 1) as u8;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force over all permutations of 3 houses × 2 attributes.
    fn brute(clues: &[Clue]) -> usize {
        let perms = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
        let mut n = 0;
        for p in &perms {
            for q in &perms {
                let house = |i: Item| if i.0 == 0 { p[i.1 as usize] } else { q[i.1 as usize] };
                n += usize::from(clues.iter().all(|c| c.holds(house)));
            }
        }
        n
    }

    #[test]
    fn counts_match_brute_force() {
        let (a, b, c) = (Item(0, 0), Item(0, 1), Item(1, 2));
        let cases: Vec<Vec<Clue>> = vec![
            vec![],
            vec![Clue::At(a, 1)],
            vec![Clue::Before(a, c)],
            vec![Clue::Before(c, a), Clue::NextTo(a, b)],
            vec![Clue::LeftOf(a, c), Clue::NotSame(b, c)],
            vec![Clue::Same(a, c), Clue::NotAt(b, 0), Clue::LeftOf(b, a)],
            vec![Clue::NextTo(a, c), Clue::NotAt(a, 1), Clue::Before(b, c)],
        ];
        for clues in cases {
            let s = Solver::new(3, 2, &clues).unwrap();
            assert_eq!(s.count(100), brute(&clues), "{clues:?}");
            for i in 0..clues.len() {
                let others: Vec<Clue> =
                    clues.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, c)| *c).collect();
                let want = brute(&others) != brute(&clues);
                let got = Solver::new(3, 2, &others).unwrap().breaking(clues[i]).count(1) > 0;
                assert_eq!(got, want, "{clues:?} without {i}");
            }
            for sol in s.solutions(100) {
                assert!(clues.iter().all(|c| c.holds(|i| sol[i.0 as usize][i.1 as usize] as usize)));
            }
        }
    }
}
