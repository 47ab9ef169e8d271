//! The statement language of the knights and knaves family: claims, their truth tables over all
//! role assignments, and their English rendering.

use crate::logic::capitalise;
use serde::{Deserialize, Serialize};

/// How a count statement compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cmp {
    /// Exactly `k`.
    Exactly,
    /// At least `k`.
    AtLeast,
    /// At most `k`.
    AtMost,
}

/// A claim about the inhabitants (persons are indices into the problem's names).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Claim {
    /// "`who` is a knight" (or "a knave" when `knight` is false).
    Is {
        /// The person.
        who: u8,
        /// Knight (true) or knave (false).
        knight: bool,
    },
    /// "`a` and `b` are of the same kind" (or of different kinds when `same` is false).
    Same {
        /// First person.
        a: u8,
        /// Second person.
        b: u8,
        /// Same (true) or different (false).
        same: bool,
    },
    /// "`cmp` `k` of us are knights (knaves)", counting every inhabitant.
    Count {
        /// Comparison.
        cmp: Cmp,
        /// The number.
        k: u8,
        /// Counting knights (true) or knaves (false).
        knights: bool,
    },
    /// Both are true.
    And(Box<Claim>, Box<Claim>),
    /// At least one is true.
    Or(Box<Claim>, Box<Claim>),
    /// Exactly one is true.
    Xor(Box<Claim>, Box<Claim>),
    /// Both true or both false.
    Iff(Box<Claim>, Box<Claim>),
    /// The first is false or the second true.
    Implies(Box<Claim>, Box<Claim>),
    /// Not both are true.
    NotBoth(Box<Claim>, Box<Claim>),
    /// "`who` would say '`claim`'": true iff `who` is a knight and the claim is true, or a knave
    /// and it is false.
    Says {
        /// The person quoted.
        who: u8,
        /// What they would say.
        claim: Box<Claim>,
    },
}

/// Truth table of "person i is a knight" over the 64 assignments of 6 people (bit `a` is
/// assignment `a`, where bit `i` of `a` says whether person `i` is a knight).
pub(crate) const VAR: [u64; 6] = [
    0xAAAA_AAAA_AAAA_AAAA,
    0xCCCC_CCCC_CCCC_CCCC,
    0xF0F0_F0F0_F0F0_F0F0,
    0xFF00_FF00_FF00_FF00,
    0xFFFF_0000_FFFF_0000,
    0xFFFF_FFFF_0000_0000,
];

pub(crate) fn full(n: usize) -> u64 {
    if n >= 6 {
        u64::MAX
    } else {
        (1u64 << (1 << n)) - 1
    }
}

pub(crate) fn var(who: u8, n: usize) -> Option<u64> {
    ((who as usize) < n).then(|| VAR[who as usize] & full(n))
}

impl Claim {
    /// The claim's truth table over the `2^n` assignments, or `None` when it names a person
    /// outside `0..n`.
    pub fn mask(&self, n: usize) -> Option<u64> {
        let f = full(n);
        let bin = |a: &Claim, b: &Claim| Some((a.mask(n)?, b.mask(n)?));
        Some(match self {
            Claim::Is { who, knight } => var(*who, n)? ^ if *knight { 0 } else { f },
            Claim::Same { a, b, same } => !(var(*a, n)? ^ var(*b, n)?) & f ^ if *same { 0 } else { f },
            Claim::Count { cmp, k, knights } => {
                let mut m = 0;
                for a in 0..(1u64 << n) {
                    let c = if *knights { a.count_ones() } else { n as u32 - a.count_ones() };
                    let k = *k as u32;
                    if match cmp {
                        Cmp::Exactly => c == k,
                        Cmp::AtLeast => c >= k,
                        Cmp::AtMost => c <= k,
                    } {
                        m |= 1 << a;
                    }
                }
                m
            }
            Claim::And(a, b) => bin(a, b).map(|(x, y)| x & y)?,
            Claim::Or(a, b) => bin(a, b).map(|(x, y)| x | y)?,
            Claim::Xor(a, b) => bin(a, b).map(|(x, y)| x ^ y)?,
            Claim::Iff(a, b) => bin(a, b).map(|(x, y)| !(x ^ y) & f)?,
            Claim::Implies(a, b) => bin(a, b).map(|(x, y)| (!x | y) & f)?,
            Claim::NotBoth(a, b) => bin(a, b).map(|(x, y)| !(x & y) & f)?,
            Claim::Says { who, claim } => !(var(*who, n)? ^ claim.mask(n)?) & f,
        })
    }

    /// Whether no part of the claim is a tautology, a contradiction or a repetition.
    pub(crate) fn nontrivial(&self, n: usize) -> bool {
        let f = full(n);
        let good = |m: Option<u64>| m.is_some_and(|m| m != 0 && m != f);
        let pair = |a: &Claim, b: &Claim| match (a.mask(n), b.mask(n)) {
            (Some(x), Some(y)) => x != y && x != !y & f && a.nontrivial(n) && b.nontrivial(n),
            _ => false,
        };
        good(self.mask(n))
            && match self {
                Claim::And(a, b)
                | Claim::Or(a, b)
                | Claim::Xor(a, b)
                | Claim::Iff(a, b)
                | Claim::Implies(a, b)
                | Claim::NotBoth(a, b) => pair(a, b),
                Claim::Says { claim, .. } => claim.nontrivial(n),
                _ => true,
            }
    }

    fn compound(&self) -> bool {
        !matches!(self, Claim::Is { .. } | Claim::Same { .. } | Claim::Count { .. })
    }

    /// English rendering; `me` is the person speaking (rendered as "I").
    pub(crate) fn render(&self, names: &[String], me: Option<u8>) -> String {
        let name = |w: &u8| names.get(*w as usize).map_or("someone", |s| s.as_str());
        let sub = |c: &Claim| {
            let s = c.render(names, me);
            if c.compound() {
                format!("({s})")
            } else {
                s
            }
        };
        let kind = |k: bool| if k { "a knight" } else { "a knave" };
        match self {
            Claim::Is { who, knight } if Some(*who) == me => format!("I am {}", kind(*knight)),
            Claim::Is { who, knight } => format!("{} is {}", name(who), kind(*knight)),
            Claim::Same { a, b, same } => {
                let (x, y) = if Some(*a) == me {
                    (name(b), "I")
                } else if Some(*b) == me {
                    (name(a), "I")
                } else {
                    (name(a), name(b))
                };
                format!("{x} and {y} are of {}", if *same { "the same kind" } else { "different kinds" })
            }
            Claim::Count { cmp, k, knights } => {
                let c = match cmp {
                    Cmp::Exactly => "exactly",
                    Cmp::AtLeast => "at least",
                    Cmp::AtMost => "at most",
                };
                let what = if *knights { "knight" } else { "knave" };
                let (verb, s) = if *k == 1 { ("is", "") } else { ("are", "s") };
                format!("{c} {k} of us {verb} {what}{s}")
            }
            Claim::And(a, b) => format!("{} and {}", sub(a), sub(b)),
            Claim::Or(a, b) => format!("{} or {}", sub(a), sub(b)),
            Claim::Xor(a, b) => format!("either {} or {}, but not both", sub(a), sub(b)),
            Claim::Iff(a, b) => format!("{} if and only if {}", sub(a), sub(b)),
            Claim::Implies(a, b) => format!("if {}, then {}", sub(a), sub(b)),
            Claim::NotBoth(a, b) => format!("it is not the case that both {} and {}", sub(a), sub(b)),
            Claim::Says { who, claim } => {
                let inner = capitalise(&claim.render(names, Some(*who)));
                if Some(*who) == me {
                    format!("I would say '{inner}'")
                } else {
                    format!("{} would say '{inner}'", name(who))
                }
            }
        }
    }
}
