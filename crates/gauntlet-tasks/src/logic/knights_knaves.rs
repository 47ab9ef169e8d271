//! Knights and Knaves: decide who tells the truth on an island of truth-tellers and liars.
//!
//! **Generates** `n` named inhabitants, each a knight (always tells the truth) or a knave (always
//! lies), drawn at random, and one statement per inhabitant built from a level-dependent grammar:
//! claims about one person, "and", "or", "either … or … but not both", "if … then", "if and only
//! if", "same kind", counts ("exactly 2 of us are knaves") and nested reports ("Bob would say
//! '…'"). Every statement is consistent with the drawn roles, and statements are re-drawn until
//! *exactly one* assignment of roles is consistent with all of them (checked by brute force over
//! all `2^n` assignments, each statement compiled to a 64-bit truth table); after 300 failed
//! re-draws a deterministic fallback of self-pinning statements ("I am a knave or …") is used.
//!
//! **Verifies** by evaluating every statement under the answered roles: a knight's statement must
//! be true and a knave's false. Since the consistent assignment is unique, consistency is
//! correctness. Scoring is 0/1: with two roles per person, any credit for "some roles right"
//! would pay a constant answer (everyone a knight), so there is none.
//!
//! | level | people | statement kinds | nesting |
//! |---|---|---|---|
//! | 1 | 2 | claim, and, or | none |
//! | 2 | 3 | + either/or, if-then, same kind | none |
//! | 3 | 4 | + iff, "exactly k of us" | none |
//! | 4 | 5 | + not both, at least/at most, "X would say" | 25% compound operands |
//! | 5 | 6 | all | 50% compound operands |
//!
//! **Example**: Alice says "Bob is a knave." Bob says "Alice and I are knights." Alice knight
//! would make Bob a knave whose (false) statement is fine; Alice knave makes Bob a knight whose
//! statement is then false. Answer: `Alice: knight, Bob: knave`.
//!
//! **Answer grammar** (strict, shared policy of `gauntlet_core::answer`): `Name: role` items
//! (or `Name=role`) separated by commas, semicolons or newlines, names case-insensitive. A second
//! role (`knight or knave`, `knight/knave`, a name given twice), an unknown name, sentences
//! (`Alice is a knight`) or any other leftover text make the answer unparsable.

use crate::logic::claim::{full, var, Claim, Cmp, VAR};
use crate::logic::{capitalise, pair};
use crate::overrides::{Overridable, Overrides};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Knights and Knaves family.
pub struct KnightsKnaves;

/// One inhabitant's statement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Statement {
    /// Index of the speaker.
    pub speaker: u8,
    /// What they say.
    pub claim: Claim,
}

/// One Knights and Knaves problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KnightsKnavesProblem {
    /// The inhabitants' names (at most 6).
    pub names: Vec<String>,
    /// The statements, at least one per inhabitant.
    pub statements: Vec<Statement>,
}

const NAMES: &[&str] = &[
    "Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Gina", "Hank", "Iris", "Jack", "Kate", "Liam", "Mona",
    "Nate", "Olga", "Paul", "Quinn", "Rita", "Sam", "Tara", "Umar", "Vera", "Wade", "Xena", "Yuri", "Zara",
    "Abel", "Bea", "Cody", "Dina", "Ezra", "Faye", "Gus", "Hugo", "Ida", "Joel", "Kira", "Leo", "Mia",
    "Noah", "Omar", "Pia", "Reed", "Sara", "Theo", "Uma", "Vince", "Wendy",
];

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Is,
    Same,
    Count,
    And,
    Or,
    Xor,
    Iff,
    Implies,
    NotBoth,
    Says,
}

struct Params {
    n: usize,
    kinds: &'static [(Kind, u32)],
    any_cmp: bool,
    nest: f64,
}

const L1: &[(Kind, u32)] = &[(Kind::Is, 3), (Kind::And, 2), (Kind::Or, 2)];
const L2: &[(Kind, u32)] =
    &[(Kind::Is, 2), (Kind::Same, 2), (Kind::And, 2), (Kind::Or, 2), (Kind::Xor, 2), (Kind::Implies, 1)];
const L3: &[(Kind, u32)] = &[
    (Kind::Is, 1),
    (Kind::Same, 2),
    (Kind::Count, 2),
    (Kind::And, 2),
    (Kind::Or, 2),
    (Kind::Xor, 2),
    (Kind::Iff, 2),
    (Kind::Implies, 2),
];
const L45: &[(Kind, u32)] = &[
    (Kind::Is, 1),
    (Kind::Same, 1),
    (Kind::Count, 2),
    (Kind::And, 2),
    (Kind::Or, 2),
    (Kind::Xor, 2),
    (Kind::Iff, 2),
    (Kind::Implies, 2),
    (Kind::NotBoth, 1),
    (Kind::Says, 3),
];
const NESTED: &[(Kind, u32)] =
    &[(Kind::Same, 1), (Kind::Count, 1), (Kind::And, 2), (Kind::Or, 2), (Kind::Xor, 1)];

fn params(d: Difficulty) -> Params {
    let kinds = d.pick([L1, L2, L3, L45, L45]);
    Params {
        n: d.pick([2, 3, 4, 5, 6]),
        kinds,
        any_cmp: d.level() >= 4,
        nest: d.pick([0.0, 0.0, 0.0, 0.25, 0.5]),
    }
}

fn weighted(rng: &mut Rng, kinds: &[(Kind, u32)]) -> Kind {
    let total: u32 = kinds.iter().map(|k| k.1).sum();
    let mut r = rng.below(total as u64) as u32;
    for &(k, w) in kinds {
        if r < w {
            return k;
        }
        r -= w;
    }
    kinds[0].0
}

fn atom(rng: &mut Rng, n: usize) -> Claim {
    Claim::Is { who: rng.index(n) as u8, knight: rng.chance(0.5) }
}

fn gen_claim(rng: &mut Rng, p: &Params, depth: u8) -> Claim {
    let n = p.n;
    let kind = weighted(rng, if depth == 0 { p.kinds } else { NESTED });
    // An operand about `who`: compound with probability `nest` at the top level.
    let operand = |rng: &mut Rng, who: usize| {
        if depth == 0 && rng.chance(p.nest) {
            Box::new(gen_claim(rng, p, depth + 1))
        } else {
            Box::new(Claim::Is { who: who as u8, knight: rng.chance(0.5) })
        }
    };
    // Two operands, about two different people when they are simple claims.
    let operands = |rng: &mut Rng| {
        let (a, b) = pair(rng, n);
        (operand(rng, a), operand(rng, b))
    };
    match kind {
        Kind::Is => atom(rng, n),
        Kind::Same => {
            let (a, b) = pair(rng, n);
            Claim::Same { a: a as u8, b: b as u8, same: rng.chance(0.5) }
        }
        Kind::Count => {
            let cmp = if p.any_cmp {
                [Cmp::Exactly, Cmp::AtLeast, Cmp::AtMost][rng.index(3)]
            } else {
                Cmp::Exactly
            };
            let k = match cmp {
                Cmp::Exactly => rng.index(n + 1),
                Cmp::AtLeast => 1 + rng.index(n),
                Cmp::AtMost => rng.index(n),
            };
            Claim::Count { cmp, k: k as u8, knights: rng.chance(0.5) }
        }
        Kind::Says => {
            let (a, b) = pair(rng, n);
            Claim::Says { who: a as u8, claim: operand(rng, b) }
        }
        _ => {
            let (a, b) = operands(rng);
            match kind {
                Kind::And => Claim::And(a, b),
                Kind::Or => Claim::Or(a, b),
                Kind::Xor => Claim::Xor(a, b),
                Kind::Iff => Claim::Iff(a, b),
                Kind::Implies => Claim::Implies(a, b),
                _ => Claim::NotBoth(a, b),
            }
        }
    }
}

/// A non-trivial statement by `speaker` that is consistent with the roles `sol`.
fn gen_statement(rng: &mut Rng, p: &Params, speaker: usize, sol: u64) -> Claim {
    let knight = sol >> speaker & 1 == 1;
    for _ in 0..40 {
        let c = gen_claim(rng, p, 0);
        if c.nontrivial(p.n) && c.mask(p.n).is_some_and(|m| (m >> sol & 1 == 1) == knight) {
            return c;
        }
    }
    let who = (speaker + 1) % p.n;
    Claim::Is { who: who as u8, knight: (sol >> who & 1 == 1) == knight }
}

/// The set of assignments consistent with every statement (`None` for a malformed problem).
pub fn consistent(p: &KnightsKnavesProblem) -> Option<u64> {
    let n = p.names.len();
    if !(1..=6).contains(&n) {
        return None;
    }
    let mut m = full(n);
    for s in &p.statements {
        m &= !(var(s.speaker, n)? ^ s.claim.mask(n)?) & full(n);
    }
    Some(m)
}

/// The fallback: every knight says "I am a knave or X is <true>", every knave "I am a knave and X is
/// <false>"; each statement pins its speaker, so the roles are unique.
fn pinning(n: usize, sol: u64) -> Vec<Claim> {
    (0..n)
        .map(|s| {
            let me = Box::new(Claim::Is { who: s as u8, knight: false });
            let x = (s + 1) % n;
            let truth = sol >> x & 1 == 1;
            if sol >> s & 1 == 1 {
                Claim::Or(me, Box::new(Claim::Is { who: x as u8, knight: truth }))
            } else {
                Claim::And(me, Box::new(Claim::Is { who: x as u8, knight: !truth }))
            }
        })
        .collect()
}

/// Parse `Name: knight, Name: knave, …` strictly (the shared
/// [`assignments`](gauntlet_core::answer::assignments) grammar): every item is one known name,
/// `:` or `=`, and exactly one role word. Returns one entry per inhabitant.
pub fn parse_roles(names: &[String], answer: &str) -> Result<Vec<Option<bool>>, String> {
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    gauntlet_core::answer::assignments(answer, &names, |v| match v.to_ascii_lowercase().as_str() {
        "knight" => Some(true),
        "knave" => Some(false),
        _ => None,
    })
}

impl Task for KnightsKnaves {
    type Problem = KnightsKnavesProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "knights_knaves",
            category: Category::Logic,
            description:
                "Decide who is a knight (truth-teller) and who a knave (liar) from their statements.",
            levels: [
                "2 people; simple claims, and, or",
                "3 people; + either/or, if-then, same kind",
                "4 people; + iff, exactly-k counts",
                "5 people; + not both, at least/most, nested 'would say'; 25% compound operands",
                "6 people; all statement kinds; 50% compound operands",
            ],
            answer_format: "every inhabitant's name followed by `knight` or `knave`, comma-separated, \
                            e.g. `Alice: knight, Bob: knave`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> KnightsKnavesProblem {
        self.sample_with(rng, d, &Overrides::NONE)
    }

    fn prompt(&self, p: &KnightsKnavesProblem) -> String {
        let mut s = format!(
            "On an island, every inhabitant is either a knight, who always tells the truth, or a knave, \
             who always lies. You meet {} inhabitants: {}.\n\n",
            p.names.len(),
            p.names.join(", ")
        );
        for st in &p.statements {
            let who = p.names.get(st.speaker as usize).map_or("Someone", |s| s.as_str());
            s += &format!("{who} says: \"{}.\"\n", capitalise(&st.claim.render(&p.names, Some(st.speaker))));
        }
        s +=
            "\nHow to read the statements: \"or\" means at least one part is true; \"either … or …, but not \
              both\" means exactly one part is true; \"if A, then B\" is false only when A is true and B is \
              false; \"A if and only if B\" means both are true or both are false; \"of us\" counts all \
              inhabitants, speaker included; \"X would say 'S'\" is true exactly when X is a knight and S is \
              true, or X is a knave and S is false (inside the quotes, \"I\" means X). Parentheses group \
              parts.\n\nExactly one assignment of roles is consistent with all statements. Determine \
              who is a knight and who is a knave.\n\n";
        s + &self.answer_instruction()
    }

    fn solve(&self, p: &KnightsKnavesProblem) -> String {
        let a = consistent(p).filter(|m| *m != 0).map_or(0, u64::trailing_zeros);
        let role = |i: usize| if a >> i & 1 == 1 { "knight" } else { "knave" };
        p.names.iter().enumerate().map(|(i, n)| format!("{n}: {}", role(i))).collect::<Vec<_>>().join(", ")
    }

    fn verify(&self, p: &KnightsKnavesProblem, answer: &str) -> Score {
        let n = p.names.len();
        let Some(cons) = consistent(p) else { return Score::wrong("malformed problem") };
        let roles = match parse_roles(&p.names, answer) {
            Ok(r) => r,
            Err(e) => return Score::unparsable(e),
        };
        if let Some(i) = roles.iter().position(Option::is_none) {
            return Score::wrong(format!("no role given for {}", p.names[i]));
        }
        let a = roles.iter().enumerate().fold(0u64, |a, (i, r)| a | (u64::from(*r == Some(true)) << i));
        if cons >> a & 1 == 1 {
            return Score::correct();
        }
        for st in &p.statements {
            let truth = st.claim.mask(n).is_some_and(|m| m >> a & 1 == 1);
            if truth != (a >> st.speaker & 1 == 1) {
                let who = &p.names[st.speaker as usize];
                let (role, val) = if truth { ("a knave", "true") } else { ("a knight", "false") };
                return Score::wrong(format!("{who} is {role} but their statement is {val}"));
            }
        }
        Score::wrong("inconsistent roles")
    }
}

impl Overridable for KnightsKnaves {
    /// `people`: the inhabitants; the level keeps the kinds of statement.
    fn sample_with(&self, rng: &mut Rng, d: Difficulty, o: &Overrides) -> KnightsKnavesProblem {
        let mut p = params(d);
        if let Some(v) = o.draw("people", rng) {
            p.n = v as usize;
        }
        let n = p.n;
        let names: Vec<String> =
            rng.sample_indices(NAMES.len(), n).into_iter().map(|i| NAMES[i].into()).collect();
        let sol = rng.below(1 << n);
        let mut claims: Vec<Claim> = (0..n).map(|s| gen_statement(rng, &p, s, sol)).collect();
        let cons = |c: &[Claim]| {
            c.iter().enumerate().fold(full(n), |m, (s, c)| m & !(VAR[s] ^ c.mask(n).unwrap_or(0)) & full(n))
        };
        let mut count = cons(&claims).count_ones();
        let mut tries = 0;
        while count > 1 && tries < 300 {
            tries += 1;
            let s = rng.index(n);
            let old = std::mem::replace(&mut claims[s], gen_statement(rng, &p, s, sol));
            let c = cons(&claims).count_ones();
            if c <= count {
                count = c;
            } else {
                claims[s] = old;
            }
        }
        if count != 1 {
            claims = pinning(n, sol);
        }
        let statements =
            claims.into_iter().enumerate().map(|(s, claim)| Statement { speaker: s as u8, claim }).collect();
        KnightsKnavesProblem { names, statements }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> KnightsKnavesProblem {
        KnightsKnavesProblem {
            names: vec!["Alice".into(), "Bob".into()],
            statements: vec![
                Statement { speaker: 0, claim: Claim::Is { who: 1, knight: false } },
                Statement {
                    speaker: 1,
                    claim: Claim::And(
                        Box::new(Claim::Is { who: 0, knight: true }),
                        Box::new(Claim::Is { who: 1, knight: true }),
                    ),
                },
            ],
        }
    }

    #[test]
    fn example_from_the_docs() {
        let p = example();
        assert_eq!(consistent(&p), Some(1 << 0b01)); // only assignment 0b01: Alice knight, Bob knave
        assert_eq!(KnightsKnaves.solve(&p), "Alice: knight, Bob: knave");
        assert!(KnightsKnaves.verify(&p, "bob = KNAVE;  alice: knight").correct);
        assert!(KnightsKnaves.verify(&p, "Alice is a knight and Bob is a knave").is_format_error());
        assert!(KnightsKnaves.prompt(&p).contains("Bob says: \"Alice is a knight and I am a knight.\""));
    }

    #[test]
    fn wrong_answers_say_why() {
        let p = example();
        let s = KnightsKnaves.verify(&p, "Alice: knave, Bob: knight");
        assert!(!s.correct && s.reward == 0.0, "{s:?}");
        assert!(s.reason.contains("Bob is a knight but their statement is false"), "{}", s.reason);
        let s = KnightsKnaves.verify(&p, "Alice: knight");
        assert!(s.reason.contains("no role given for Bob"), "{}", s.reason);
        assert!(KnightsKnaves.verify(&p, "Alice and Bob are knights").is_format_error());
        assert!(KnightsKnaves.verify(&p, "Alice: knight, Alice: knave").is_format_error());
        assert!(KnightsKnaves.verify(&p, "Alice: knight or knave, Bob: knave").is_format_error());
        assert!(KnightsKnaves.verify(&p, "Alice: knight/knave, Bob: knave/knight").is_format_error());
        assert!(KnightsKnaves.verify(&p, "Alice: knight, Bob: knave, Carol: knave").is_format_error());
        assert!(KnightsKnaves.verify(&p, "Alice is not a knave").is_format_error());
        assert!(KnightsKnaves.verify(&p, "Carol: knight").is_format_error());
    }

    #[test]
    fn generated_puzzles_are_unique_and_near_misses_earn_nothing() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..50 {
                let p = KnightsKnaves.generate(seed, d);
                assert_eq!(consistent(&p).unwrap().count_ones(), 1, "L{level} seed {seed}");
                assert!(p.statements.iter().all(|s| s.claim.nontrivial(p.names.len())));
                let sol = consistent(&p).unwrap().trailing_zeros() as u64;
                let claims: Vec<Claim> = p.statements.iter().map(|s| s.claim.clone()).collect();
                assert_ne!(claims, pinning(p.names.len(), sol), "fallback used");
                // One role flipped or all flipped: nothing.
                let n = p.names.len();
                let sol = consistent(&p).unwrap().trailing_zeros() as usize;
                let render = |a: usize| {
                    let r = |i: usize| if a >> i & 1 == 1 { "knight" } else { "knave" };
                    (0..n).map(|i| format!("{}: {}", p.names[i], r(i))).collect::<Vec<_>>().join(", ")
                };
                assert!(KnightsKnaves.verify(&p, &render(sol)).correct);
                let s = KnightsKnaves.verify(&p, &render(sol ^ 1));
                assert!(!s.correct && s.reward == 0.0, "{s:?}");
                assert_eq!(KnightsKnaves.verify(&p, &render(sol ^ ((1 << n) - 1))).reward, 0.0);
            }
        }
    }

    #[test]
    fn fallback_pins_everyone() {
        for n in 2..=6 {
            for sol in 0..(1u64 << n) {
                let names = NAMES[..n].iter().map(|s| s.to_string()).collect();
                let statements = pinning(n, sol)
                    .into_iter()
                    .enumerate()
                    .map(|(s, claim)| Statement { speaker: s as u8, claim });
                let p = KnightsKnavesProblem { names, statements: statements.collect() };
                assert_eq!(consistent(&p), Some(1 << sol));
            }
        }
    }
}
