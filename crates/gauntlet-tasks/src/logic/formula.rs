//! Propositional formulas shared by the logic families: an AST, a strict parser for ASCII and
//! Unicode connectives, bit-parallel truth tables and an unambiguous renderer.
//!
//! **Grammar** (lowest precedence first): `a <-> b` (also `↔`, `<=>`), `a -> b` (also `→`, `=>`,
//! right-associative), `a | b` (`∨`, `||`), `a ^ b` (`⊕`), `a & b` (`∧`, `&&`), `~a` (`!`, `¬`),
//! parentheses and variable names. Variable names are compared case-insensitively with the names
//! the problem allows; any other word (`or`, `and`, `true`, an unknown variable) or character
//! makes the formula unparsable, so hedges such as `p or q` or `p/q` are never read as formulas.
//! Nesting is limited to [`MAX_DEPTH`] and length to [`MAX_TOKENS`], so no input overflows the
//! stack or takes long to parse.

use serde::{Deserialize, Serialize};

/// Deepest nesting the parser accepts.
pub const MAX_DEPTH: usize = 64;
/// Most tokens the parser accepts.
pub const MAX_TOKENS: usize = 4000;

/// A propositional formula over variables `0..n`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Formula {
    /// Variable number `i`.
    Var(u8),
    /// Negation.
    Not(Box<Formula>),
    /// Conjunction.
    And(Box<Formula>, Box<Formula>),
    /// Disjunction.
    Or(Box<Formula>, Box<Formula>),
    /// Exclusive or.
    Xor(Box<Formula>, Box<Formula>),
    /// Material implication.
    Implies(Box<Formula>, Box<Formula>),
    /// Biconditional.
    Iff(Box<Formula>, Box<Formula>),
}

/// The binary connectives, for generators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `&`
    And,
    /// `|`
    Or,
    /// `^`
    Xor,
    /// `->`
    Implies,
    /// `<->`
    Iff,
}

/// Bit patterns of the first six variables within one 64-row word.
const PAT: [u64; 6] = [
    0xAAAA_AAAA_AAAA_AAAA,
    0xCCCC_CCCC_CCCC_CCCC,
    0xF0F0_F0F0_F0F0_F0F0,
    0xFF00_FF00_FF00_FF00,
    0xFFFF_0000_FFFF_0000,
    0xFFFF_FFFF_0000_0000,
];

/// A truth table over `n` variables: bit `r` is the value on row `r`, where variable `i` is bit
/// `i` of `r`. Rows beyond `2^n` are zero.
pub type Table = Vec<u64>;

/// The all-true table over `n` variables (the mask of valid rows).
pub fn mask(n: usize) -> Table {
    let rows = 1usize << n;
    if rows >= 64 {
        vec![u64::MAX; rows / 64]
    } else {
        vec![(1u64 << rows) - 1]
    }
}

/// The table of variable `i` over `n` variables.
pub fn var_table(i: usize, n: usize) -> Table {
    let m = mask(n);
    (0..m.len())
        .map(|w| {
            let v = if i < 6 {
                PAT[i]
            } else if (w >> (i - 6)) & 1 == 1 {
                u64::MAX
            } else {
                0
            };
            v & m[w]
        })
        .collect()
}

fn zip(a: &Table, b: &Table, m: &Table, f: impl Fn(u64, u64) -> u64) -> Table {
    a.iter().zip(b).zip(m).map(|((x, y), k)| f(*x, *y) & k).collect()
}

/// Whether row `r` of table `t` is true.
pub fn row(t: &Table, r: usize) -> bool {
    t.get(r / 64).is_some_and(|w| w >> (r % 64) & 1 == 1)
}

impl Formula {
    /// `Var(i)`.
    pub fn var(i: usize) -> Formula {
        Formula::Var(i as u8)
    }

    /// `¬f`.
    pub fn negate(f: Formula) -> Formula {
        Formula::Not(Box::new(f))
    }

    /// The binary formula `a op b`.
    pub fn bin(op: Op, a: Formula, b: Formula) -> Formula {
        let (a, b) = (Box::new(a), Box::new(b));
        match op {
            Op::And => Formula::And(a, b),
            Op::Or => Formula::Or(a, b),
            Op::Xor => Formula::Xor(a, b),
            Op::Implies => Formula::Implies(a, b),
            Op::Iff => Formula::Iff(a, b),
        }
    }

    /// The truth table over `n` variables (variables `≥ n` read as false).
    pub fn table(&self, n: usize) -> Table {
        let m = mask(n);
        self.table_in(n, &m)
    }

    fn table_in(&self, n: usize, m: &Table) -> Table {
        match self {
            Formula::Var(i) if (*i as usize) < n => var_table(*i as usize, n),
            Formula::Var(_) => vec![0; m.len()],
            Formula::Not(a) => a.table_in(n, m).iter().zip(m).map(|(x, k)| !x & k).collect(),
            Formula::And(a, b) => zip(&a.table_in(n, m), &b.table_in(n, m), m, |x, y| x & y),
            Formula::Or(a, b) => zip(&a.table_in(n, m), &b.table_in(n, m), m, |x, y| x | y),
            Formula::Xor(a, b) => zip(&a.table_in(n, m), &b.table_in(n, m), m, |x, y| x ^ y),
            Formula::Implies(a, b) => zip(&a.table_in(n, m), &b.table_in(n, m), m, |x, y| !x | y),
            Formula::Iff(a, b) => zip(&a.table_in(n, m), &b.table_in(n, m), m, |x, y| !(x ^ y)),
        }
    }

    /// The value under an assignment (bit `i` of `vals` is variable `i`).
    pub fn eval(&self, vals: u64) -> bool {
        match self {
            Formula::Var(i) => vals >> i & 1 == 1,
            Formula::Not(a) => !a.eval(vals),
            Formula::And(a, b) => a.eval(vals) && b.eval(vals),
            Formula::Or(a, b) => a.eval(vals) || b.eval(vals),
            Formula::Xor(a, b) => a.eval(vals) != b.eval(vals),
            Formula::Implies(a, b) => !a.eval(vals) || b.eval(vals),
            Formula::Iff(a, b) => a.eval(vals) == b.eval(vals),
        }
    }

    /// The set of variables it mentions, as a bit mask.
    pub fn vars(&self) -> u64 {
        match self {
            Formula::Var(i) => 1u64 << (*i).min(63),
            Formula::Not(a) => a.vars(),
            Formula::And(a, b)
            | Formula::Or(a, b)
            | Formula::Xor(a, b)
            | Formula::Implies(a, b)
            | Formula::Iff(a, b) => a.vars() | b.vars(),
        }
    }

    /// ASCII rendering with `names[i]` for variable `i`; every binary subformula below the top is
    /// parenthesised, so the text never depends on precedence.
    pub fn render(&self, names: &[&str]) -> String {
        self.render_at(names, true)
    }

    fn render_at(&self, names: &[&str], top: bool) -> String {
        let (sym, a, b) = match self {
            Formula::Var(i) => return names.get(*i as usize).copied().unwrap_or("?").to_string(),
            Formula::Not(a) => return format!("~{}", a.render_at(names, false)),
            Formula::And(a, b) => ("&", a, b),
            Formula::Or(a, b) => ("|", a, b),
            Formula::Xor(a, b) => ("^", a, b),
            Formula::Implies(a, b) => ("->", a, b),
            Formula::Iff(a, b) => ("<->", a, b),
        };
        let s = format!("{} {sym} {}", a.render_at(names, false), b.render_at(names, false));
        if top {
            s
        } else {
            format!("({s})")
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Var(u8),
    Not,
    And,
    Or,
    Xor,
    Imp,
    Iff,
    Open,
    Close,
}

fn lex(text: &str, names: &[&str]) -> Result<Vec<Tok>, String> {
    let mut out = Vec::new();
    let mut it = text.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        if out.len() > MAX_TOKENS {
            return Err(format!("more than {MAX_TOKENS} tokens"));
        }
        let rest = &text[i..];
        let tok = match c {
            c if c.is_whitespace() => continue,
            '(' => Tok::Open,
            ')' => Tok::Close,
            '~' | '!' | '¬' => Tok::Not,
            '∧' => Tok::And,
            '∨' => Tok::Or,
            '^' | '⊕' => Tok::Xor,
            '→' => Tok::Imp,
            '↔' => Tok::Iff,
            '&' | '|' => {
                if it.peek().map(|p| p.1) == Some(c) {
                    it.next();
                }
                if c == '&' {
                    Tok::And
                } else {
                    Tok::Or
                }
            }
            '-' | '=' if rest[1..].starts_with('>') => {
                it.next();
                Tok::Imp
            }
            '<' if rest.starts_with("<->") || rest.starts_with("<=>") => {
                it.next();
                it.next();
                Tok::Iff
            }
            c if c.is_ascii_alphabetic() => {
                let len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
                let word = &rest[..len];
                for _ in 1..word.len() {
                    it.next();
                }
                match names.iter().position(|n| n.eq_ignore_ascii_case(word)) {
                    Some(v) => Tok::Var(v as u8),
                    None => {
                        return Err(format!(
                            "`{}` is not a variable of this problem",
                            crate::common::clip(word, 20)
                        ))
                    }
                }
            }
            c => return Err(format!("unexpected character `{c}`")),
        };
        out.push(tok);
    }
    Ok(out)
}

struct Parser {
    toks: Vec<Tok>,
    at: usize,
    depth: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }

    fn eat(&mut self, t: &Tok) -> bool {
        if self.peek() == Some(t) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn enter(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err("formula nested too deeply".into());
        }
        Ok(())
    }

    fn iff(&mut self) -> Result<Formula, String> {
        self.enter()?;
        let mut a = self.imp()?;
        while self.eat(&Tok::Iff) {
            a = Formula::bin(Op::Iff, a, self.imp()?);
        }
        self.depth -= 1;
        Ok(a)
    }

    fn imp(&mut self) -> Result<Formula, String> {
        self.enter()?;
        let a = self.left(0)?;
        let r = if self.eat(&Tok::Imp) { Formula::bin(Op::Implies, a, self.imp()?) } else { a };
        self.depth -= 1;
        Ok(r)
    }

    /// Left-associative levels: 0 `|`, 1 `^`, 2 `&`, 3 unary.
    fn left(&mut self, level: usize) -> Result<Formula, String> {
        if level == 3 {
            return self.unary();
        }
        let (tok, op) = [(Tok::Or, Op::Or), (Tok::Xor, Op::Xor), (Tok::And, Op::And)][level].clone();
        let mut a = self.left(level + 1)?;
        while self.eat(&tok) {
            a = Formula::bin(op, a, self.left(level + 1)?);
        }
        Ok(a)
    }

    fn unary(&mut self) -> Result<Formula, String> {
        self.enter()?;
        let r = match self.toks.get(self.at).cloned() {
            Some(Tok::Not) => {
                self.at += 1;
                Formula::negate(self.unary()?)
            }
            Some(Tok::Open) => {
                self.at += 1;
                let f = self.iff()?;
                if !self.eat(&Tok::Close) {
                    return Err("missing `)`".into());
                }
                f
            }
            Some(Tok::Var(v)) => {
                self.at += 1;
                Formula::Var(v)
            }
            Some(t) => return Err(format!("unexpected `{}`", tok_text(&t))),
            None => return Err("formula ends too early".into()),
        };
        self.depth -= 1;
        Ok(r)
    }
}

fn tok_text(t: &Tok) -> &'static str {
    match t {
        Tok::Var(_) => "variable",
        Tok::Not => "~",
        Tok::And => "&",
        Tok::Or => "|",
        Tok::Xor => "^",
        Tok::Imp => "->",
        Tok::Iff => "<->",
        Tok::Open => "(",
        Tok::Close => ")",
    }
}

/// Parse a whole formula over the variables `names` (variable `i` is `names[i]`), strictly: every
/// character must belong to the formula.
pub fn parse(text: &str, names: &[&str]) -> Result<Formula, String> {
    let toks = lex(text, names)?;
    if toks.is_empty() {
        return Err("empty formula".into());
    }
    let mut p = Parser { toks, at: 0, depth: 0 };
    let f = p.iff()?;
    if let Some(t) = p.peek() {
        return Err(format!("unexpected `{}` after a complete formula", tok_text(t)));
    }
    Ok(f)
}

/// A random formula over variables `vars` with `leaves` leaves, binary connectives drawn from
/// `ops`, and each leaf or subformula negated with probability `neg`.
pub fn random(rng: &mut gauntlet_core::Rng, vars: &[usize], leaves: usize, ops: &[Op], neg: f64) -> Formula {
    let f = if leaves <= 1 {
        Formula::var(*rng.choose(vars).unwrap_or(&0))
    } else {
        let left = 1 + rng.index(leaves - 1);
        let a = random(rng, vars, left, ops, neg);
        let b = random(rng, vars, leaves - left, ops, neg);
        Formula::bin(*rng.choose(ops).unwrap_or(&Op::And), a, b)
    };
    if rng.chance(neg) {
        Formula::negate(f)
    } else {
        f
    }
}

/// A disjunctive normal form of the function over variables `vars` (in that order) whose value
/// on the minterm `k` (bit `j` of `k` is `vars[j]`) is `f(k)`; a conjunctive normal form when that
/// is shorter. `None` when the function is constant.
pub fn normal_form(vars: &[usize], names: &[&str], f: impl Fn(usize) -> bool) -> Option<String> {
    let rows = 1usize << vars.len();
    let ones: Vec<usize> = (0..rows).filter(|&k| f(k)).collect();
    if ones.is_empty() || ones.len() == rows {
        return None;
    }
    let dnf = ones.len() * 2 <= rows;
    let pick: Vec<usize> = if dnf { ones } else { (0..rows).filter(|&k| !f(k)).collect() };
    let term = |k: usize| {
        let lits: Vec<String> = vars
            .iter()
            .enumerate()
            .map(|(j, &v)| {
                let pos = (k >> j & 1 == 1) == dnf;
                format!("{}{}", if pos { "" } else { "~" }, names[v])
            })
            .collect();
        lits.join(if dnf { " & " } else { " | " })
    };
    let terms: Vec<String> = pick.iter().map(|&k| term(k)).collect();
    if terms.len() == 1 {
        return Some(terms[0].clone());
    }
    let terms: Vec<String> =
        terms.into_iter().map(|t| if vars.len() > 1 { format!("({t})") } else { t }).collect();
    Some(terms.join(if dnf { " | " } else { " & " }))
}

#[cfg(test)]
mod tests {
    use super::*;

    const N: [&str; 3] = ["p", "q", "r"];

    #[test]
    fn parses_with_precedence_and_rejects_hedges() {
        let f = parse("p & q | ~r -> q", &N).unwrap();
        let g = parse("((p ∧ q) ∨ ¬r) → q", &N).unwrap();
        assert_eq!(f, g);
        assert_eq!(parse("p -> q -> r", &N).unwrap(), parse("p -> (q -> r)", &N).unwrap());
        assert_eq!(
            parse("P <-> Q", &N).unwrap().table(2),
            parse("(p -> q) & (q -> p)", &N).unwrap().table(2)
        );
        for bad in ["p or q", "p/q", "p q", "(p", "p)", "", "s", "p & ", "true", "p -", "p <- q", "~"] {
            assert!(parse(bad, &N).is_err(), "{bad}");
        }
        assert!(parse(&"(".repeat(500), &N).is_err());
        assert!(parse(&"~".repeat(500), &N).is_err());
    }

    #[test]
    fn tables_match_evaluation() {
        let mut rng = gauntlet_core::Rng::new(3);
        let ops = [Op::And, Op::Or, Op::Xor, Op::Implies, Op::Iff];
        for n in [1, 3, 6, 8] {
            let vars: Vec<usize> = (0..n).collect();
            let f = random(&mut rng, &vars, 6, &ops, 0.3);
            let t = f.table(n);
            for r in 0..1usize << n {
                assert_eq!(row(&t, r), f.eval(r as u64));
            }
            let names = ["a", "b", "c", "d", "e", "f", "g", "h"];
            assert_eq!(parse(&f.render(&names), &names).unwrap().table(n), t);
        }
    }

    #[test]
    fn normal_forms_are_equivalent() {
        let names = ["p", "q", "r"];
        let f = |k: usize| k % 3 == 1;
        let s = normal_form(&[0, 2], &names, f).unwrap();
        let g = parse(&s, &names).unwrap();
        for r in 0..8u64 {
            let k = (r & 1) | (r >> 2 & 1) << 1;
            assert_eq!(g.eval(r), f(k as usize), "{s}");
        }
        assert!(normal_form(&[0], &names, |_| true).is_none());
    }
}
