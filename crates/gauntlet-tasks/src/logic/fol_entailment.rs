//! First-order entailment in a finite domain: is each hypothesis entailed, contradicted or neither?
//!
//! **Generates** a closed domain of named people and a few properties, premises in quantified and
//! ground forms (`Everyone who is brave is tall.`, `Someone is quiet but not clever.`, `Everyone
//! is tall or quiet.`, `Alice is not brave.`, `If Bob is tall, then Carol is quiet.`, `Alice is
//! brave or Bob is clever.`, and at level 5 `Everyone who is brave and quiet is tall.`), and
//! hypotheses of the same forms. Labels are **computed by model enumeration**: the statements are
//! grounded over the domain into propositional formulas over the atoms `property(person)` and
//! every model is checked at once with bit-parallel truth tables
//! ([`formula`](crate::logic::formula)); a hypothesis is *entailed* when it holds in every model
//! of the premises, *contradicted* when it holds in none, *neutral* otherwise. Premises are
//! consistent, hypotheses are not copies of premises, and the three labels are drawn evenly.
//!
//! **Verifies** `n: entailed|contradicted|neutral` for every hypothesis (strict `name: value`
//! grammar) against the computed labels. 0/1.
//!
//! | level | people | properties | premises | hypotheses |
//! |---|---|---|---|---|
//! | 1 | 2 | 2 | 3 | 2 |
//! | 2 | 3 | 2 | 4 | 3 |
//! | 3 | 3 | 3 | 5 | 3 |
//! | 4 | 4 | 3 | 6 | 4 |
//! | 5 | 4 | 4 | 8, with two-condition rules | 4 |
//!
//! Level 5 is hard for frontier models: 16 ground atoms (65,536 models), eight interacting premises
//! with existentials and conditional rules, and "neutral" hypotheses that look entailed until a
//! countermodel is found.
//!
//! **Example**: people Alice, Bob; `Everyone who is brave is tall. Alice is brave.` → `Alice is
//! tall.` entailed, `Bob is tall.` neutral, `Alice is not tall.` contradicted.
//!
//! **Failure modes**: a missing hypothesis is wrong; `entailed or neutral`, `true`, `yes` are
//! unparsable.

use crate::logic::formula::{Formula, Op};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The finite-domain entailment family.
pub struct FolEntailment;

/// A literal over a property: `(property, positive)`.
pub type Lit = (u8, bool);

/// A statement form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stmt {
    /// ∀x a(x) → b(x).
    All(Lit, Lit),
    /// ∀x a(x) ∧ b(x) → c(x).
    All2(Lit, Lit, Lit),
    /// ∃x a(x) ∧ b(x).
    Some(Lit, Lit),
    /// ∀x a(x) ∨ b(x).
    Every(Lit, Lit),
    /// a(x) for a person.
    Fact(u8, Lit),
    /// a(x) ∨ b(y).
    Or(u8, Lit, u8, Lit),
    /// a(x) → b(y).
    If(u8, Lit, u8, Lit),
}

/// One problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FolProblem {
    /// People (the whole domain).
    pub people: Vec<String>,
    /// Property adjectives.
    pub props: Vec<String>,
    /// Premises.
    pub premises: Vec<Stmt>,
    /// Hypotheses.
    pub hypotheses: Vec<Stmt>,
}

const PEOPLE: &[&str] = &["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Gina", "Hugo"];
const PROPS: &[&str] = &["brave", "tall", "quiet", "clever", "kind", "rich", "calm", "young"];
const LABELS: [&str; 3] = ["entailed", "contradicted", "neutral"];

struct Ground {
    d: usize,
    k: usize,
}

impl Ground {
    fn atom(&self, x: usize, (p, pos): Lit) -> Formula {
        let v = Formula::var(x * self.k + p as usize);
        if pos {
            v
        } else {
            Formula::negate(v)
        }
    }

    fn over(&self, op: Op, f: impl Fn(usize) -> Formula) -> Formula {
        (1..self.d).fold(f(0), |acc, x| Formula::bin(op, acc, f(x)))
    }

    fn formula(&self, s: &Stmt) -> Formula {
        let imp = |a: Formula, b: Formula| Formula::bin(Op::Implies, a, b);
        let and = |a: Formula, b: Formula| Formula::bin(Op::And, a, b);
        let or = |a: Formula, b: Formula| Formula::bin(Op::Or, a, b);
        match *s {
            Stmt::All(a, b) => self.over(Op::And, |x| imp(self.atom(x, a), self.atom(x, b))),
            Stmt::All2(a, b, c) => {
                self.over(Op::And, |x| imp(and(self.atom(x, a), self.atom(x, b)), self.atom(x, c)))
            }
            Stmt::Some(a, b) => self.over(Op::Or, |x| and(self.atom(x, a), self.atom(x, b))),
            Stmt::Every(a, b) => self.over(Op::And, |x| or(self.atom(x, a), self.atom(x, b))),
            Stmt::Fact(x, a) => self.atom(x as usize, a),
            Stmt::Or(x, a, y, b) => or(self.atom(x as usize, a), self.atom(y as usize, b)),
            Stmt::If(x, a, y, b) => imp(self.atom(x as usize, a), self.atom(y as usize, b)),
        }
    }
}

fn is_(p: &FolProblem, (q, pos): Lit) -> String {
    format!("{}{}", if pos { "" } else { "not " }, p.props[q as usize])
}

fn render(p: &FolProblem, s: &Stmt) -> String {
    let who = |x: u8| p.people[x as usize].as_str();
    match *s {
        Stmt::All(a, b) => format!("Everyone who is {} is {}.", is_(p, a), is_(p, b)),
        Stmt::All2(a, b, c) => format!("Everyone who is {} and {} is {}.", is_(p, a), is_(p, b), is_(p, c)),
        Stmt::Some(a, b) => format!("Someone is {} and {}.", is_(p, a), is_(p, b)),
        Stmt::Every(a, b) => format!("Everyone is {} or {}.", is_(p, a), is_(p, b)),
        Stmt::Fact(x, a) => format!("{} is {}.", who(x), is_(p, a)),
        Stmt::Or(x, a, y, b) => format!("{} is {} or {} is {}.", who(x), is_(p, a), who(y), is_(p, b)),
        Stmt::If(x, a, y, b) => format!("If {} is {}, then {} is {}.", who(x), is_(p, a), who(y), is_(p, b)),
    }
}

fn lits(s: &Stmt) -> Vec<Lit> {
    match *s {
        Stmt::All(a, b)
        | Stmt::Some(a, b)
        | Stmt::Every(a, b)
        | Stmt::Or(_, a, _, b)
        | Stmt::If(_, a, _, b) => vec![a, b],
        Stmt::All2(a, b, c) => vec![a, b, c],
        Stmt::Fact(_, a) => vec![a],
    }
}

fn people_of(s: &Stmt) -> Vec<u8> {
    match *s {
        Stmt::Fact(x, _) => vec![x],
        Stmt::Or(x, _, y, _) | Stmt::If(x, _, y, _) => vec![x, y],
        _ => vec![],
    }
}

fn well_formed(p: &FolProblem) -> bool {
    let (d, k) = (p.people.len(), p.props.len());
    (1..=8).contains(&d)
        && (1..=8).contains(&k)
        && d * k <= 16
        && !p.hypotheses.is_empty()
        && p.premises.iter().chain(&p.hypotheses).all(|s| {
            lits(s).iter().all(|l| (l.0 as usize) < k) && people_of(s).iter().all(|&x| (x as usize) < d)
        })
}

/// Label indices (into `LABELS`) of every hypothesis.
fn labels(p: &FolProblem) -> Vec<usize> {
    let g = Ground { d: p.people.len(), k: p.props.len() };
    let n = g.d * g.k;
    let mut models = crate::logic::formula::mask(n);
    for s in &p.premises {
        for (w, x) in models.iter_mut().zip(g.formula(s).table(n)) {
            *w &= x;
        }
    }
    p.hypotheses.iter().map(|h| label(&models, &g.formula(h).table(n))).collect()
}

fn label(models: &[u64], h: &[u64]) -> usize {
    if models.iter().zip(h).all(|(m, x)| m & !x == 0) {
        0
    } else if models.iter().zip(h).all(|(m, x)| m & x == 0) {
        1
    } else {
        2
    }
}

fn draw_stmt(rng: &mut Rng, d: usize, k: usize, two: bool) -> Stmt {
    let lit = |rng: &mut Rng| (rng.index(k) as u8, rng.chance(0.7));
    let pair = |rng: &mut Rng| {
        let (a, b) = crate::logic::pair(rng, k);
        ((a as u8, rng.chance(0.7)), (b as u8, rng.chance(0.7)))
    };
    let person = |rng: &mut Rng| rng.index(d) as u8;
    match rng.index(if two { 8 } else { 7 }) {
        0 | 7 if two => {
            let ((a, b), c) = (pair(rng), lit(rng));
            if c.0 == a.0 || c.0 == b.0 {
                Stmt::All(a, b)
            } else {
                Stmt::All2(a, b, c)
            }
        }
        0 | 1 => {
            let (a, b) = pair(rng);
            Stmt::All(a, b)
        }
        2 => {
            let (a, b) = pair(rng);
            Stmt::Some(a, b)
        }
        3 => {
            let (a, b) = pair(rng);
            Stmt::Every(a, b)
        }
        4 => Stmt::Fact(person(rng), lit(rng)),
        5 => Stmt::Or(person(rng), lit(rng), person(rng), lit(rng)),
        _ => Stmt::If(person(rng), lit(rng), person(rng), lit(rng)),
    }
}

impl Task for FolEntailment {
    type Problem = FolProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "fol_entailment",
            category: Category::Logic,
            description: "Quantified premises over a closed finite domain: label hypotheses entailed, contradicted or neutral (computed over all models).",
            levels: [
                "2 people, 2 properties, 3 premises, 2 hypotheses",
                "3 people, 2 properties, 4 premises, 3 hypotheses",
                "3 people, 3 properties, 5 premises, 3 hypotheses",
                "4 people, 3 properties, 6 premises, 4 hypotheses",
                "4 people, 4 properties, 8 premises with two-condition rules, 4 hypotheses",
            ],
            answer_format: "every hypothesis's number with entailed, contradicted or neutral, comma-separated, e.g. `1: entailed, 2: neutral`",
        }
    }

    fn sample(&self, rng: &mut Rng, dl: Difficulty) -> FolProblem {
        let (d, k, m, h) = dl.pick([(2, 2, 3, 2), (3, 2, 4, 3), (3, 3, 5, 3), (4, 3, 6, 4), (4, 4, 8, 4)]);
        let two = dl.level() == 5;
        loop {
            let people: Vec<String> = PEOPLE[..d].iter().map(|s| s.to_string()).collect();
            let props: Vec<String> =
                rng.sample_indices(PROPS.len(), k).into_iter().map(|i| PROPS[i].to_string()).collect();
            let premises: Vec<Stmt> = (0..m).map(|_| draw_stmt(rng, d, k, two)).collect();
            let mut p = FolProblem { people, props, premises, hypotheses: vec![] };
            let g = Ground { d, k };
            let n = d * k;
            let mut models = crate::logic::formula::mask(n);
            for s in &p.premises {
                for (w, x) in models.iter_mut().zip(g.formula(s).table(n)) {
                    *w &= x;
                }
            }
            if models.iter().all(|&w| w == 0) {
                continue;
            }
            for _ in 0..h {
                let want = rng.index(3);
                for _ in 0..60 {
                    let s = draw_stmt(rng, d, k, two);
                    if p.premises.contains(&s) || p.hypotheses.contains(&s) {
                        continue;
                    }
                    if label(&models, &g.formula(&s).table(n)) == want {
                        p.hypotheses.push(s);
                        break;
                    }
                }
            }
            if p.hypotheses.len() == h {
                return p;
            }
        }
    }

    fn prompt(&self, p: &FolProblem) -> String {
        if !well_formed(p) {
            return self.answer_instruction();
        }
        let mut s = format!(
            "The only people are {}; \"everyone\" and \"someone\" range over exactly these people. Each \
             person either has or lacks each of the properties {}.\n\nPremises:\n",
            p.people.join(", "),
            p.props.join(", ")
        );
        for st in &p.premises {
            s += &format!("- {}\n", render(p, st));
        }
        s += "\nFor each hypothesis: is it entailed by the premises (true in every situation where all \
              premises hold), contradicted (false in every such situation), or neutral (neither)?\n";
        for (i, st) in p.hypotheses.iter().enumerate() {
            s += &format!("{}. {}\n", i + 1, render(p, st));
        }
        s + "\n" + &self.answer_instruction()
    }

    fn solve(&self, p: &FolProblem) -> String {
        if !well_formed(p) {
            return String::new();
        }
        labels(p)
            .iter()
            .enumerate()
            .map(|(i, &l)| format!("{}: {}", i + 1, LABELS[l]))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn verify(&self, p: &FolProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem");
        }
        let word = |v: &str| LABELS.iter().position(|l| l.eq_ignore_ascii_case(v));
        let got = match crate::logic::numbered(answer, p.hypotheses.len(), word) {
            Ok(g) => g,
            Err(s) => return s,
        };
        let want = labels(p);
        match want.iter().zip(&got).position(|(a, b)| a != b) {
            None => Score::correct(),
            Some(i) => Score::wrong(format!("hypothesis {} is {}", i + 1, LABELS[want[i]])),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_from_the_docs() {
        let p = FolProblem {
            people: vec!["Alice".into(), "Bob".into()],
            props: vec!["brave".into(), "tall".into()],
            premises: vec![Stmt::All((0, true), (1, true)), Stmt::Fact(0, (0, true))],
            hypotheses: vec![Stmt::Fact(0, (1, true)), Stmt::Fact(1, (1, true)), Stmt::Fact(0, (1, false))],
        };
        let t = FolEntailment;
        assert_eq!(t.solve(&p), "1: entailed, 2: neutral, 3: contradicted");
        assert!(t.verify(&p, "3: CONTRADICTED; 1: entailed; 2: neutral").correct);
        assert!(!t.verify(&p, "1: entailed, 2: entailed, 3: contradicted").correct);
        for bad in [
            "1: entailed, 2: neutral or entailed, 3: contradicted",
            "1: yes, 2: neutral, 3: contradicted",
            "1: entailed, 2: neutral, 3: contradicted, 4: neutral",
        ] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
        assert_eq!(render(&p, &Stmt::Some((0, true), (1, false))), "Someone is brave and not tall.");
    }

    #[test]
    fn existentials_need_a_witness() {
        // Someone is brave and tall; Alice is not tall ⊢ Bob is brave.
        let p = FolProblem {
            people: vec!["Alice".into(), "Bob".into()],
            props: vec!["brave".into(), "tall".into()],
            premises: vec![Stmt::Some((0, true), (1, true)), Stmt::Fact(0, (1, false))],
            hypotheses: vec![Stmt::Fact(1, (0, true)), Stmt::Every((0, true), (1, true))],
        };
        assert_eq!(labels(&p), vec![0, 2]);
    }

    #[test]
    fn labels_are_mixed_and_oracle_correct() {
        let mut seen = [0; 3];
        for d in Difficulty::all() {
            for seed in 0..20 {
                let p = FolEntailment.generate(seed, d);
                for l in labels(&p) {
                    seen[l] += 1;
                }
                assert!(FolEntailment.verify(&p, &FolEntailment.solve(&p)).correct);
            }
        }
        assert!(seen.iter().all(|&c| c > 40), "{seen:?}");
    }
}
