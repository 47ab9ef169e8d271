//! Reaching a target number from a multiset of numbers with `+ - * /`: the solver and the random
//! generator shared by `game_of_24` and `countdown`.
//!
//! The solver is a subset dynamic programme with a goal-directed top. For every subset (bitmask)
//! of at most `k` numbers it materialises the sorted, deduplicated set of values those numbers
//! make (each with a back-pointer to the two sub-results it came from). A larger subset is never
//! enumerated: to ask whether it makes a goal `g`, each split into two halves is tried, iterating
//! the values `a` of a materialised half and solving for the value `b` the other half must make
//! (`g - a`, `g / a`, `a - g`, …), which is a binary search or, for a large half, the same question
//! one level down. [`solve`] uses `k = n - 2`, at most 3 (measured fastest: larger tables cost
//! more to build than they save); a six-number Countdown is solved in tens of microseconds instead
//! of the milliseconds of an exhaustive expression search.
//!
//! Completeness: every expression whose intermediate values are non-zero is found (inverting an
//! operation is exact then); expressions that pass through zero may be missed, which only makes
//! the "is this solvable" test of the generators slightly conservative.

use super::expr::{Op, Rat};
use gauntlet_core::Rng;

/// Which expressions the solver and the generator consider.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rules {
    /// Every number exactly once; intermediate values may be any fraction (Game of 24).
    AllExact,
    /// Any subset, each number at most once; every intermediate value a positive integer
    /// (classic Countdown). The generator and solver use these stricter rules; verifiers accept
    /// any exact expression.
    SubsetPositive,
}

/// Most numbers the solver accepts.
pub const MAX_NUMBERS: usize = 7;

/// `x op y` if allowed under `rules` (`None` for division by zero, overflow, or, under
/// [`Rules::SubsetPositive`], a result that is not a positive integer or equals an operand).
fn allowed(op: Op, x: Rat, y: Rat, rules: Rules) -> Option<Rat> {
    if rules == Rules::SubsetPositive {
        // Integer fast path. Classic pruning: a result equal to an operand (`x * 1`, `x / 1`,
        // `2x - x`) is made by fewer numbers already, so nothing reachable is lost.
        let (a, b) = (x.as_int()?, y.as_int()?);
        let v = match op {
            Op::Add => a.checked_add(b)?,
            Op::Mul if a != 1 && b != 1 => a.checked_mul(b)?,
            Op::Sub if a > b => a.checked_sub(b)?,
            Op::Div if b > 1 && a >= b && a % b == 0 => a / b,
            _ => return None,
        };
        return (v > 0 && v != a && v != b).then_some(Rat::int(v));
    }
    if op == Op::Div && y == Rat::ZERO {
        return None;
    }
    op.apply(x, y)
}

/// The six ways to combine `a` and `b`: `(op, swapped)` where `swapped` means `b op a`.
const WAYS: [(Op, bool); 6] = [
    (Op::Add, false),
    (Op::Mul, false),
    (Op::Sub, false),
    (Op::Sub, true),
    (Op::Div, false),
    (Op::Div, true),
];

/// One reachable value of a subset, with where it came from (`left == 0`: a given number).
#[derive(Debug, Clone, Copy)]
struct Entry {
    v: Rat,
    op: Op,
    left: u16,
    li: u32,
    right: u16,
    ri: u32,
}

/// How a goal was reached: a materialised entry, or `left op right` of two found parts.
enum Found {
    Entry(usize, usize),
    Node(Op, Box<Found>, Box<Found>),
}

/// The subset tables for one multiset of numbers.
pub struct Solver<'a> {
    nums: &'a [i64],
    rules: Rules,
    k: u32,
    sets: Vec<Vec<Entry>>,
}

impl<'a> Solver<'a> {
    /// Materialise the value sets of every subset of at most `k` numbers (at most
    /// [`MAX_NUMBERS`] numbers are used).
    pub fn new(nums: &'a [i64], rules: Rules, k: u32) -> Self {
        let nums = &nums[..nums.len().min(MAX_NUMBERS)];
        let n = nums.len();
        let mut sets: Vec<Vec<Entry>> = vec![Vec::new(); 1 << n];
        for mask in 1usize..1 << n {
            let size = mask.count_ones();
            if size > k {
                continue;
            }
            let mut vals = Vec::new();
            if size == 1 {
                let v = Rat::int(nums[mask.trailing_zeros() as usize]);
                vals.push(Entry { v, op: Op::Add, left: 0, li: 0, right: 0, ri: 0 });
            } else {
                let mut sub = (mask - 1) & mask;
                while sub > 0 {
                    let rest = mask ^ sub;
                    if sub < rest {
                        for (li, a) in sets[sub].iter().enumerate() {
                            for (ri, b) in sets[rest].iter().enumerate() {
                                for (op, swapped) in WAYS {
                                    let (x, y) = if swapped { (b.v, a.v) } else { (a.v, b.v) };
                                    if let Some(v) = allowed(op, x, y, rules) {
                                        let (l, r) = if swapped {
                                            ((rest, ri), (sub, li))
                                        } else {
                                            ((sub, li), (rest, ri))
                                        };
                                        vals.push(Entry {
                                            v,
                                            op,
                                            left: l.0 as u16,
                                            li: l.1 as u32,
                                            right: r.0 as u16,
                                            ri: r.1 as u32,
                                        });
                                    }
                                }
                            }
                        }
                    }
                    sub = (sub - 1) & mask;
                }
                vals.sort_unstable_by_key(|e| e.v);
                vals.dedup_by_key(|e| e.v);
            }
            sets[mask] = vals;
        }
        Solver { nums, rules, k, sets }
    }

    fn lookup(&self, mask: usize, g: Rat) -> Option<usize> {
        self.sets[mask].binary_search_by_key(&g, |e| e.v).ok()
    }

    /// How `mask`'s numbers (all of them) make `g`, if they can.
    fn find(&self, mask: usize, g: Rat) -> Option<Found> {
        if mask.count_ones() <= self.k {
            return self.lookup(mask, g).map(|i| Found::Entry(mask, i));
        }
        if self.rules == Rules::SubsetPositive && (g.den() != 1 || g.num() <= 0) {
            return None;
        }
        let mut sub = (mask - 1) & mask;
        while sub > 0 {
            let rest = mask ^ sub;
            let small = |m: usize| m.count_ones() <= self.k;
            // Iterate the values of a materialised half (the smaller set if both are).
            let (a_mask, b_mask) = match (small(sub), small(rest)) {
                (true, true) if self.sets[sub].len() <= self.sets[rest].len() => (sub, rest),
                (true, true) | (false, true) => (rest, sub),
                (true, false) => (sub, rest),
                (false, false) => (0, 0),
            };
            if sub < rest && a_mask != 0 {
                for (ai, a) in self.sets[a_mask].iter().enumerate() {
                    for (op, a_right) in WAYS {
                        let Some(b) = invert(op, a_right, a.v, g) else { continue };
                        let (x, y) = if a_right { (b, a.v) } else { (a.v, b) };
                        if allowed(op, x, y, self.rules) != Some(g) {
                            continue;
                        }
                        if let Some(fb) = self.find(b_mask, b) {
                            let fa = Box::new(Found::Entry(a_mask, ai));
                            let fb = Box::new(fb);
                            let (l, r) = if a_right { (fb, fa) } else { (fa, fb) };
                            return Some(Found::Node(op, l, r));
                        }
                    }
                }
            }
            sub = (sub - 1) & mask;
        }
        None
    }

    fn render_entry(&self, mask: usize, i: usize) -> (String, u8) {
        let e = self.sets[mask][i];
        if e.left == 0 {
            return (self.nums[mask.trailing_zeros() as usize].to_string(), 3);
        }
        let l = self.render_entry(e.left as usize, e.li as usize);
        let r = self.render_entry(e.right as usize, e.ri as usize);
        join(l, e.op, r)
    }

    fn render(&self, f: &Found) -> (String, u8) {
        match f {
            Found::Entry(m, i) => self.render_entry(*m, *i),
            Found::Node(op, l, r) => join(self.render(l), *op, self.render(r)),
        }
    }

    /// An expression for `target`: over all the numbers under [`Rules::AllExact`], over the
    /// smallest subset that works under [`Rules::SubsetPositive`].
    pub fn solve(&self, target: i64) -> Option<String> {
        let n = self.nums.len();
        if n == 0 {
            return None;
        }
        let g = Rat::int(target);
        let found = match self.rules {
            Rules::AllExact => self.find((1 << n) - 1, g),
            Rules::SubsetPositive => {
                let mut masks: Vec<usize> = (1..1 << n).collect();
                masks.sort_by_key(|m| m.count_ones());
                masks.into_iter().find_map(|m| self.find(m, g))
            }
        };
        found.map(|f| self.render(&f).0)
    }

    /// Every value made by some subset of at most `k` numbers (those materialised), as integers,
    /// sorted and deduplicated.
    pub fn small_integer_values(&self) -> Vec<i64> {
        let mut all: Vec<i64> = self.sets.iter().flatten().filter_map(|e| e.v.as_int()).collect();
        all.sort_unstable();
        all.dedup();
        all
    }
}

/// The `b` with `b op a = g` (`a_right`) or `a op b = g`, when it exists.
fn invert(op: Op, a_right: bool, a: Rat, g: Rat) -> Option<Rat> {
    match (op, a_right) {
        (Op::Add, _) => g.checked_sub(a),
        (Op::Mul, _) => g.checked_div(a),
        (Op::Sub, false) => a.checked_sub(g),
        (Op::Sub, true) => g.checked_add(a),
        (Op::Div, false) => a.checked_div(g),
        (Op::Div, true) => g.checked_mul(a),
    }
}

/// Join two rendered parts with the fewest parentheses (precedence 1: `+ -`, 2: `* /`, 3: atom).
fn join((l, lp): (String, u8), op: Op, (r, rp): (String, u8)) -> (String, u8) {
    let p = if matches!(op, Op::Add | Op::Sub) { 1 } else { 2 };
    let l = if lp < p { format!("({l})") } else { l };
    let r = if rp < p || (rp == p && matches!(op, Op::Sub | Op::Div)) { format!("({r})") } else { r };
    (format!("{l} {} {r}", op.symbol()), p)
}

/// An expression over `nums` (under `rules`) whose value is `target`, or `None` when the solver
/// finds none (or more than [`MAX_NUMBERS`] numbers are given). Under
/// [`Rules::SubsetPositive`] the smallest subsets are tried first.
pub fn solve(nums: &[i64], target: i64, rules: Rules) -> Option<String> {
    let n = nums.len();
    if n == 0 || n > MAX_NUMBERS {
        return None;
    }
    Solver::new(nums, rules, (n as u32).saturating_sub(2).clamp(1, 3)).solve(target)
}

/// Combine all of `nums` at random (random pairs, random allowed operators) under `rules`,
/// never producing zero, and return the value. `None` only if some step has no allowed
/// operator, which cannot happen for positive numbers (`+` always applies).
pub fn random_value(rng: &mut Rng, nums: &[i64], rules: Rules) -> Option<Rat> {
    let mut items: Vec<Rat> = nums.iter().map(|&x| Rat::int(x)).collect();
    while items.len() > 1 {
        let i = rng.index(items.len());
        let mut j = rng.index(items.len() - 1);
        if j >= i {
            j += 1;
        }
        let (a, b) = (items[i], items[j]);
        let mut cands = [Rat::ZERO; 6];
        let mut m = 0;
        for (op, swapped) in WAYS {
            let (x, y) = if swapped { (b, a) } else { (a, b) };
            if let Some(v) = allowed(op, x, y, rules).filter(|v| *v != Rat::ZERO) {
                cands[m] = v;
                m += 1;
            }
        }
        let v = *rng.choose(&cands[..m])?;
        items.swap_remove(i.max(j));
        items.swap_remove(i.min(j));
        items.push(v);
    }
    items.pop()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arithmetic::expr::{Expr, Syntax};

    fn value(e: &str) -> Rat {
        Expr::parse(e, &Syntax::default()).unwrap().eval(&[]).unwrap()
    }

    #[test]
    fn solver_finds_fraction_solutions_and_proves_impossibility() {
        assert_eq!(solve(&[3, 3, 8, 8], 24, Rules::AllExact).as_deref(), Some("8 / (3 - 8 / 3)"));
        let e = solve(&[1, 5, 5, 5], 24, Rules::AllExact).unwrap();
        assert_eq!(value(&e), Rat::int(24));
        assert_eq!(solve(&[1, 1, 1, 1], 24, Rules::AllExact), None);
        assert_eq!(solve(&[3, 3, 8, 8], 24, Rules::SubsetPositive).as_deref(), Some("3 * 8"));
        assert_eq!(solve(&[2, 3], 7, Rules::SubsetPositive), None);
        let e = solve(&[100, 75, 50, 25, 6, 3], 952, Rules::SubsetPositive).unwrap();
        assert_eq!(value(&e), Rat::int(952));
        assert_eq!(solve(&[1; 9], 3, Rules::SubsetPositive), None);
    }

    #[test]
    fn random_values_are_found_by_the_solver() {
        let mut rng = Rng::new(5);
        for rules in [Rules::AllExact, Rules::SubsetPositive] {
            for nums in [&[2, 7, 7, 13][..], &[2, 7, 7, 13, 25], &[3, 8, 1, 100, 50, 9]] {
                for _ in 0..30 {
                    let v = random_value(&mut rng, nums, rules).unwrap();
                    let Some(t) = v.as_int() else { continue };
                    let e = solve(nums, t, rules).unwrap_or_else(|| panic!("{nums:?} {t}"));
                    assert_eq!(value(&e), v, "{e}");
                }
            }
        }
    }

    #[test]
    fn exhaustive_agreement_on_four_numbers() {
        // Brute force over all values of the full 4-subset (k = 4) against goal search (k = 2).
        let nums = [1, 5, 6, 13];
        let full = Solver::new(&nums, Rules::AllExact, 4);
        let vals: Vec<i64> = full.sets[15].iter().filter_map(|e| e.v.as_int()).collect();
        for t in -200..=200 {
            assert_eq!(solve(&nums, t, Rules::AllExact).is_some(), vals.contains(&t), "{t}");
        }
    }

    #[test]
    fn small_values_cover_small_subsets() {
        let s = Solver::new(&[4, 9, 25, 2], Rules::SubsetPositive, 2);
        let small = s.small_integer_values();
        assert!(small.contains(&36) && small.contains(&100) && small.contains(&16) && small.contains(&25));
        assert!(!small.contains(&(4 * 9 * 25)));
        assert!(!small.contains(&0) && !small.contains(&-5));
    }
}
