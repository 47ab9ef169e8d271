//! Exact rational numbers and a small arithmetic-expression parser, shared by the families of
//! this category.
//!
//! - [`Rat`] is an exact fraction of two `i64` (always reduced, positive denominator). Every
//!   operation is checked: overflow and division by zero give `None`, never a panic.
//! - [`Expr::parse`] is a recursive-descent parser for `+ - * /` with parentheses, integer
//!   literals and (optionally) single-letter variables, unary minus and implicit multiplication
//!   (`3x`, `2(x + 1)`), as the [`Syntax`] allows. It is strict about content and never panics:
//!   input length, literal size and nesting depth are capped.
//! - [`Expr::eval`] evaluates exactly with [`Rat`]; [`Expr::numbers`] lists the literals used, so
//!   a verifier can check that an answer uses the numbers it was given.

use crate::common::clip;
use std::fmt;

/// An exact fraction `num / den`, reduced, with `den > 0`.
///
/// The derived ordering is structural (by numerator, then denominator), not numeric; it exists
/// so that sets of values can be sorted into canonical keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rat {
    num: i64,
    den: i64,
}

/// Binary GCD on `u64` (`gcd(0, b) = b`).
fn gcd_u64(mut a: u64, mut b: u64) -> u64 {
    if a == 0 || b == 0 {
        return a | b;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

fn gcd_u128(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Rat {
    /// Zero.
    pub const ZERO: Rat = Rat { num: 0, den: 1 };

    /// The integer `n`.
    pub fn int(n: i64) -> Rat {
        Rat { num: n, den: 1 }
    }

    /// `num / den`, reduced; `None` when `den == 0` or the reduced parts do not fit in `i64`.
    pub fn new(num: i128, den: i128) -> Option<Rat> {
        if den == 0 {
            return None;
        }
        // Fast path: both parts fit in i64 (and are not i64::MIN, so negation is safe).
        if let (Ok(n), Ok(d)) = (i64::try_from(num), i64::try_from(den)) {
            if n != i64::MIN && d != i64::MIN {
                let g = gcd_u64(n.unsigned_abs(), d.unsigned_abs()) as i64;
                let (n, d) = (n / g, d / g);
                return Some(if d < 0 { Rat { num: -n, den: -d } } else { Rat { num: n, den: d } });
            }
        }
        let g = gcd_u128(num.unsigned_abs(), den.unsigned_abs());
        let g = i128::try_from(g).ok()?;
        let (mut n, mut d) = (num / g, den / g);
        if d < 0 {
            n = n.checked_neg()?;
            d = d.checked_neg()?;
        }
        Some(Rat { num: i64::try_from(n).ok()?, den: i64::try_from(d).ok()? })
    }

    /// The numerator (sign carrier).
    pub fn num(self) -> i64 {
        self.num
    }

    /// The denominator (always positive).
    pub fn den(self) -> i64 {
        self.den
    }

    /// The value as an integer, if it is one.
    pub fn as_int(self) -> Option<i64> {
        (self.den == 1).then_some(self.num)
    }

    /// `self + o`, checked.
    pub fn checked_add(self, o: Rat) -> Option<Rat> {
        if self.den == 1 && o.den == 1 {
            return self.num.checked_add(o.num).map(Rat::int);
        }
        let (a, b, c, d) = (self.num as i128, self.den as i128, o.num as i128, o.den as i128);
        Rat::new(a * d + c * b, b * d)
    }

    /// `self - o`, checked.
    pub fn checked_sub(self, o: Rat) -> Option<Rat> {
        self.checked_add(Rat { num: o.num.checked_neg()?, den: o.den })
    }

    /// `self * o`, checked.
    pub fn checked_mul(self, o: Rat) -> Option<Rat> {
        if self.den == 1 && o.den == 1 {
            return self.num.checked_mul(o.num).map(Rat::int);
        }
        Rat::new(self.num as i128 * o.num as i128, self.den as i128 * o.den as i128)
    }

    /// `self / o`, checked; `None` when `o` is zero.
    pub fn checked_div(self, o: Rat) -> Option<Rat> {
        if o.num == 0 {
            return None;
        }
        if self.den == 1 && o.den == 1 && self.num.checked_rem(o.num) == Some(0) {
            return self.num.checked_div(o.num).map(Rat::int);
        }
        Rat::new(self.num as i128 * o.den as i128, self.den as i128 * o.num as i128)
    }

    /// `-self`, checked.
    pub fn checked_neg(self) -> Option<Rat> {
        Some(Rat { num: self.num.checked_neg()?, den: self.den })
    }
}

impl fmt::Display for Rat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (exact)
    Div,
}

impl Op {
    /// Apply the operator exactly; `None` on overflow or division by zero.
    pub fn apply(self, a: Rat, b: Rat) -> Option<Rat> {
        match self {
            Op::Add => a.checked_add(b),
            Op::Sub => a.checked_sub(b),
            Op::Mul => a.checked_mul(b),
            Op::Div => a.checked_div(b),
        }
    }

    /// The ASCII symbol.
    pub fn symbol(self) -> char {
        match self {
            Op::Add => '+',
            Op::Sub => '-',
            Op::Mul => '*',
            Op::Div => '/',
        }
    }
}

/// What an [`Expr`] may contain besides integer literals, `+ - * /` and parentheses.
#[derive(Debug, Clone, Copy, Default)]
pub struct Syntax<'a> {
    /// Allow unary minus (`-3`, `2 * -(1 + 1)`).
    pub unary_minus: bool,
    /// Allow implicit multiplication by juxtaposition (`3x`, `2(x + 1)`, `x(y)`).
    pub implicit_mul: bool,
    /// Single-letter variables that may appear (case-sensitive).
    pub vars: &'a [char],
}

/// Longest accepted expression, in chars.
pub const MAX_EXPR_CHARS: usize = 2000;
const MAX_DEPTH: usize = 64;

/// One node of a parsed expression. Children always precede their parent in [`Expr`]'s arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Node {
    Num(i64),
    Var(char),
    Neg(usize),
    Bin(Op, usize, usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok {
    Num(i64),
    Var(char),
    Op(Op),
    Open,
    Close,
}

/// A parsed arithmetic expression.
#[derive(Debug, Clone)]
pub struct Expr {
    nodes: Vec<Node>,
}

fn tokenize(text: &str, syn: &Syntax) -> Result<Vec<Tok>, String> {
    if text.chars().count() > MAX_EXPR_CHARS {
        return Err(format!("expression longer than {MAX_EXPR_CHARS} characters"));
    }
    let mut toks = Vec::new();
    let mut it = text.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        let t = match c {
            c if c.is_whitespace() => continue,
            '0'..='9' => {
                let mut end = i + 1;
                while let Some(&(j, d)) = it.peek() {
                    if !d.is_ascii_digit() {
                        break;
                    }
                    end = j + 1;
                    it.next();
                }
                let lit = &text[i..end];
                if lit.len() > 15 {
                    return Err(format!("number `{}` is too long", clip(lit, 20)));
                }
                Tok::Num(lit.parse().map_err(|_| format!("bad number `{lit}`"))?)
            }
            '+' => Tok::Op(Op::Add),
            '-' | '\u{2212}' | '\u{2013}' => Tok::Op(Op::Sub),
            '*' | '\u{d7}' | '\u{b7}' | '\u{2217}' | '\u{22c5}' => Tok::Op(Op::Mul),
            '/' | '\u{f7}' => Tok::Op(Op::Div),
            '(' | '[' | '{' => Tok::Open,
            ')' | ']' | '}' => Tok::Close,
            c if syn.vars.contains(&c) => Tok::Var(c),
            'x' | 'X' if syn.vars.is_empty() => Tok::Op(Op::Mul),
            c => return Err(format!("unexpected character `{}`", c.escape_debug())),
        };
        toks.push(t);
    }
    if toks.is_empty() {
        return Err("empty expression".into());
    }
    Ok(toks)
}

struct Parser<'s, 'a> {
    toks: Vec<Tok>,
    pos: usize,
    nodes: Vec<Node>,
    syn: &'s Syntax<'a>,
    depth: usize,
}

impl Parser<'_, '_> {
    fn peek(&self) -> Option<Tok> {
        self.toks.get(self.pos).copied()
    }

    fn push(&mut self, n: Node) -> usize {
        self.nodes.push(n);
        self.nodes.len() - 1
    }

    fn expr(&mut self) -> Result<usize, String> {
        let mut left = self.term()?;
        while let Some(Tok::Op(op @ (Op::Add | Op::Sub))) = self.peek() {
            self.pos += 1;
            let right = self.term()?;
            left = self.push(Node::Bin(op, left, right));
        }
        Ok(left)
    }

    fn term(&mut self) -> Result<usize, String> {
        let mut left = self.factor()?;
        loop {
            match self.peek() {
                Some(Tok::Op(op @ (Op::Mul | Op::Div))) => {
                    self.pos += 1;
                    let right = self.factor()?;
                    left = self.push(Node::Bin(op, left, right));
                }
                Some(Tok::Var(_) | Tok::Open) if self.syn.implicit_mul => {
                    let right = self.factor()?;
                    left = self.push(Node::Bin(Op::Mul, left, right));
                }
                Some(Tok::Num(_)) if self.syn.implicit_mul => {
                    return Err("a number cannot follow a variable or `)` directly".into());
                }
                _ => return Ok(left),
            }
        }
    }

    fn factor(&mut self) -> Result<usize, String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err("expression nested too deeply".into());
        }
        let r = match self.peek() {
            None => Err("expression ends early".into()),
            Some(Tok::Num(n)) => {
                self.pos += 1;
                Ok(self.push(Node::Num(n)))
            }
            Some(Tok::Var(v)) => {
                self.pos += 1;
                Ok(self.push(Node::Var(v)))
            }
            Some(Tok::Open) => {
                self.pos += 1;
                let inner = self.expr()?;
                if self.peek() != Some(Tok::Close) {
                    return Err("unbalanced parentheses".into());
                }
                self.pos += 1;
                Ok(inner)
            }
            Some(Tok::Op(Op::Sub)) if self.syn.unary_minus => {
                self.pos += 1;
                let inner = self.factor()?;
                Ok(self.push(Node::Neg(inner)))
            }
            Some(Tok::Op(Op::Sub)) => Err("unary minus is not allowed".into()),
            Some(Tok::Op(op)) => Err(format!("operator `{}` is missing an operand", op.symbol())),
            Some(Tok::Close) => Err("unbalanced parentheses".into()),
        };
        self.depth -= 1;
        r
    }
}

impl Expr {
    /// Parse `text` under `syn`; `Err(reason)` for anything that is not a well-formed expression.
    pub fn parse(text: &str, syn: &Syntax) -> Result<Expr, String> {
        let toks = tokenize(text, syn)?;
        let mut p = Parser { toks, pos: 0, nodes: Vec::new(), syn, depth: 0 };
        p.expr()?;
        match p.peek() {
            None => Ok(Expr { nodes: p.nodes }),
            Some(Tok::Close) => Err("unbalanced parentheses".into()),
            Some(_) => Err("two operands without an operator between them".into()),
        }
    }

    /// Evaluate exactly with the variables bound by `vars`; `Err` on division by zero, overflow
    /// or an unbound variable.
    pub fn eval(&self, vars: &[(char, Rat)]) -> Result<Rat, String> {
        let mut vals: Vec<Rat> = Vec::with_capacity(self.nodes.len());
        for n in &self.nodes {
            let v = match *n {
                Node::Num(k) => Some(Rat::int(k)),
                Node::Var(c) => match vars.iter().find(|(v, _)| *v == c) {
                    Some(&(_, r)) => Some(r),
                    None => return Err(format!("variable `{c}` has no value")),
                },
                Node::Neg(a) => vals[a].checked_neg(),
                Node::Bin(op, a, b) => {
                    if op == Op::Div && vals[b] == Rat::ZERO {
                        return Err("division by zero".into());
                    }
                    op.apply(vals[a], vals[b])
                }
            };
            vals.push(v.ok_or("arithmetic overflow")?);
        }
        vals.last().copied().ok_or_else(|| "empty expression".into())
    }

    /// The integer literals of the expression, in order of appearance.
    pub fn numbers(&self) -> Vec<i64> {
        // Literals are pushed in the order they appear in the text.
        self.nodes.iter().filter_map(|n| if let Node::Num(k) = n { Some(*k) } else { None }).collect()
    }
}

/// Check the literals `used` against the `given` numbers: each given number may be used at most
/// as often as it is given, and exactly that often when `use_all`. `Err` says what is wrong.
pub fn check_numbers(used: &[i64], given: &[i64], use_all: bool) -> Result<(), String> {
    let mut left: Vec<i64> = given.to_vec();
    for &u in used {
        match left.iter().position(|&g| g == u) {
            Some(i) => {
                left.swap_remove(i);
            }
            None if given.contains(&u) => {
                let n = given.iter().filter(|&&g| g == u).count();
                return Err(format!("uses {u} more often than given ({n}×)"));
            }
            None => return Err(format!("uses {u}, which is not one of the given numbers")),
        }
    }
    if use_all && !left.is_empty() {
        left.sort_unstable();
        let list: Vec<String> = left.iter().map(|n| n.to_string()).collect();
        return Err(format!("does not use {}", list.join(", ")));
    }
    Ok(())
}

/// Strip a trailing `= target` (or leading `target =`) that models often append; any other `=`
/// is an error.
pub fn strip_equals(answer: &str, target: i64) -> Result<&str, String> {
    let parts: Vec<&str> = answer.split('=').collect();
    match parts.as_slice() {
        [one] => Ok(one),
        [a, b] if b.trim().parse::<i64>() == Ok(target) => Ok(a),
        [a, b] if a.trim().parse::<i64>() == Ok(target) => Ok(b),
        _ => Err("`=` may only appear as a final `= target`".into()),
    }
}

/// The verifier shared by `countdown` (`use_all = false`: any subset, each number at most once)
/// and `game_of_24` (`use_all = true`: every number exactly once): parse the expression (an
/// optional trailing `= target` is allowed), check the numbers it uses against `numbers`, and
/// compare its exact value with `target`.
pub fn verify_expression(numbers: &[i64], target: i64, answer: &str, use_all: bool) -> gauntlet_core::Score {
    use gauntlet_core::Score;
    if numbers.is_empty() || numbers.len() > super::reach::MAX_NUMBERS {
        return Score::wrong(format!("malformed problem: {} numbers", numbers.len()));
    }
    if answer.trim().is_empty() {
        return Score::unparsable("empty answer");
    }
    let body = match strip_equals(answer, target) {
        Ok(b) => b,
        Err(e) => return Score::unparsable(e),
    };
    let expr = match Expr::parse(body, &Syntax::default()) {
        Ok(e) => e,
        Err(e) => return Score::unparsable(format!("{e} in `{}`", clip(body.trim(), 40))),
    };
    if let Err(e) = check_numbers(&expr.numbers(), numbers, use_all) {
        return Score::wrong(e);
    }
    match expr.eval(&[]) {
        Err(e) => Score::wrong(e),
        Ok(v) if v.as_int() == Some(target) => Score::correct(),
        Ok(v) => Score::wrong(format!("evaluates to {v}, not {target}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(s: &str, syn: &Syntax) -> Result<Rat, String> {
        Expr::parse(s, syn)?.eval(&[('x', Rat::int(2))])
    }

    #[test]
    fn rationals_are_exact_and_checked() {
        let third = Rat::new(1, 3).unwrap();
        assert_eq!(third.checked_add(third).unwrap().checked_add(third).unwrap(), Rat::int(1));
        assert_eq!(Rat::new(4, -6).unwrap(), Rat::new(-2, 3).unwrap());
        assert_eq!(Rat::int(1).checked_div(Rat::ZERO), None);
        assert_eq!(Rat::int(i64::MAX).checked_add(Rat::int(1)), None);
        assert_eq!(Rat::int(i64::MIN).checked_neg(), None);
        assert_eq!(Rat::new(i64::MIN as i128, -1), None);
        assert_eq!(Rat::new(i64::MIN as i128, 2), Some(Rat::int(i64::MIN / 2)));
        assert_eq!(Rat::new(-(1i128 << 100), 1i128 << 98), Some(Rat::int(-4)));
        assert_eq!(Rat::int(i64::MIN).checked_div(Rat::int(-1)), None);
        assert_eq!(Rat::int(12).checked_div(Rat::int(-8)), Rat::new(-3, 2));
        assert_eq!(gcd_u64(48, 18), 6);
        assert_eq!(gcd_u64(0, 7), 7);
    }

    #[test]
    fn parser_respects_precedence_and_syntax() {
        let plain = Syntax::default();
        assert_eq!(eval("8 / (3 - 8 / 3)", &plain), Ok(Rat::int(24)));
        assert_eq!(eval("2 + 3 * 4 - 6 / 2", &plain), Ok(Rat::int(11)));
        assert_eq!(eval("10 - 4 - 3", &plain), Ok(Rat::int(3)));
        assert_eq!(eval("[2 × (3 + 1)] ÷ 4", &plain), Ok(Rat::int(2)));
        assert!(eval("-3 + 5", &plain).unwrap_err().contains("unary"));
        assert!(eval("(1 + 2", &plain).is_err());
        assert!(eval("1 + 2)", &plain).is_err());
        assert!(eval("1 2", &plain).is_err());
        assert!(eval("2 ^ 3", &plain).is_err());
        assert_eq!(eval("2 x 3 X 4", &plain), Ok(Rat::int(24)));
        assert!(eval("", &plain).is_err());
        assert_eq!(eval("1 / (2 - 2)", &plain), Err("division by zero".into()));
        assert!(eval(&"(".repeat(500), &plain).is_err());
        assert!(eval(&"9".repeat(400), &plain).is_err());
        assert_eq!(eval("99999999999 * 99999999999", &plain), Err("arithmetic overflow".into()));
        let alg = Syntax { unary_minus: true, implicit_mul: true, vars: &['x'] };
        assert_eq!(eval("-3(2x - 1) + x", &alg), Ok(Rat::int(-7)));
        assert_eq!(eval("2 * -x", &alg), Ok(Rat::int(-4)));
        assert!(eval("x2", &alg).is_err());
        assert!(eval("y", &alg).is_err());
    }

    #[test]
    fn numbers_and_multisets() {
        let e = Expr::parse("(13 - 1) * (1 + 1)", &Syntax::default()).unwrap();
        assert_eq!(e.numbers(), vec![13, 1, 1, 1]);
        assert!(check_numbers(&[13, 1, 1, 1], &[1, 1, 1, 13], true).is_ok());
        assert!(check_numbers(&[13, 1, 1], &[1, 1, 1, 13], true).unwrap_err().contains("does not use 1"));
        assert!(check_numbers(&[13, 1, 1], &[1, 1, 1, 13], false).is_ok());
        assert!(check_numbers(&[13, 13], &[1, 13], false).unwrap_err().contains("more often"));
        assert!(check_numbers(&[12], &[1, 2], false).unwrap_err().contains("not one of"));
        assert_eq!(strip_equals("(1+2+3)*4 = 24", 24), Ok("(1+2+3)*4 "));
        assert!(strip_equals("1 = 2 = 24", 24).is_err());
        assert!(strip_equals("6*4 = 25", 24).is_err());
    }
}
