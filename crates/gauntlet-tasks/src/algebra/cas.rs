//! A small exact computer-algebra system for the calculus families (`differentiation`,
//! `integration`).
//!
//! **The class of functions.** Every function is held in a canonical form: a finite linear
//! combination, with rational coefficients, of basis functions
//! `x^n · e^(a·x) · T(b·x) · ln(x)^m` where `n` is an integer (negative allowed), `a` a rational,
//! `T` is 1, `sin` or `cos` with a rational `b > 0`, and `m ≥ 0`. These basis functions are
//! linearly independent, so two functions are equal exactly when their canonical forms are
//! equal; there is no numeric sampling and no tolerance. The class is closed under `+`, `·`
//! (products of sines and cosines are rewritten by the product-to-sum identities, so
//! `sin(x)^2` becomes `1/2 - 1/2·cos(2x)`) and differentiation.
//!
//! **Parsing** ([`parse`]) reads what a person or model writes: numbers (integers, decimals),
//! `x`, `+ - * / ^` (also `**`, `·`, `×`, `−`), parentheses, implicit multiplication (`3x`,
//! `2x e^(3x)`; it binds like `*`, so `1/2x` is `x/2`), `e^(…)`, `exp(…)`, `sin(…)`, `cos(…)`,
//! `ln(…)`, powers of a function written `sin^2(x)` (= `sin(x)^2`; also `cos^k`, `ln^k`,
//! `1 ≤ k ≤ 12`), and (for antiderivatives) a constant of integration `C` (or `c`). The
//! variable ranges over `x > 0`, so `ln|…|`, `ln(|…|)` and `ln(abs(…))` are read as `ln(…)`
//! (bars and `abs` are read nowhere else). Arguments of `e^`, `exp`, `sin` and `cos` must be
//! rational multiples of `x`; `ln` takes `c·x^k`, `k ≠ 0` (`ln(2x) = ln(x) + ln 2`: the
//! constant `ln 2` is tracked as an unknown additive constant, which only an antiderivative may
//! carry). Division is by a single term without `sin`, `cos` or `ln` (`1/(2*x^2)` is one term;
//! `1/(x+1)` is refused); exponents are integer constants with `|k| ≤` [`MAX_EXPONENT`] (no
//! `x^(1/2)`, no `2^x`). Anything outside the class is an error that names it and says what to
//! write instead; input size, nesting depth and the number of terms are capped, and nothing
//! panics.
//!
//! **Integration** ([`integrate`]) of one basis function solves `F' = f` by exact Gaussian
//! elimination over the span of the candidate basis functions that can differentiate into it;
//! terms with no elementary antiderivative in the class (`e^x / x`) give `None`.

use crate::arithmetic::expr::Rat;
use std::collections::BTreeMap;

/// The trigonometric factor of a basis function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Trig {
    /// No trigonometric factor.
    One,
    /// `sin(b·x)`, `b > 0`.
    Sin(Rat),
    /// `cos(b·x)`, `b > 0`.
    Cos(Rat),
}

/// A basis function `x^n · e^(a·x) · T · ln(x)^m`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    /// Power of `x`.
    pub n: i32,
    /// Rate of the exponential.
    pub a: Rat,
    /// Trigonometric factor.
    pub t: Trig,
    /// Power of `ln(x)`.
    pub m: u32,
}

/// The constant basis function `1`.
pub const ONE: Key = Key { n: 0, a: Rat::ZERO, t: Trig::One, m: 0 };

/// A function in canonical form: basis function → non-zero coefficient.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Func(pub BTreeMap<Key, Rat>);

const MAX_TERMS: usize = 400;
const MAX_POW_X: i32 = 40;
const MAX_POW_LN: u32 = 8;

type R<T> = Result<T, String>;

fn ovf() -> String {
    "numbers too large".to_string()
}

fn rat_lt(a: Rat, b: Rat) -> bool {
    (a.num() as i128 * b.den() as i128) < (b.num() as i128 * a.den() as i128)
}

impl Func {
    /// The constant `c`.
    pub fn constant(c: Rat) -> Func {
        Func::term(ONE, c)
    }

    /// `c · key`.
    pub fn term(key: Key, c: Rat) -> Func {
        let mut m = BTreeMap::new();
        if c != Rat::ZERO {
            m.insert(key, c);
        }
        Func(m)
    }

    /// Add `c · key` in place.
    fn add_term(&mut self, key: Key, c: Rat) -> R<()> {
        if key.n.abs() > MAX_POW_X || key.m > MAX_POW_LN {
            return Err("powers too large".into());
        }
        let v = self.0.get(&key).copied().unwrap_or(Rat::ZERO).checked_add(c).ok_or_else(ovf)?;
        if v == Rat::ZERO {
            self.0.remove(&key);
        } else {
            self.0.insert(key, v);
        }
        if self.0.len() > MAX_TERMS {
            return Err("too many terms".into());
        }
        Ok(())
    }

    /// `self + k · o`.
    pub fn add_scaled(&self, o: &Func, k: Rat) -> R<Func> {
        let mut out = self.clone();
        for (&key, &c) in &o.0 {
            out.add_term(key, c.checked_mul(k).ok_or_else(ovf)?)?;
        }
        Ok(out)
    }

    /// The value as a rational constant, if it is one.
    pub fn as_constant(&self) -> Option<Rat> {
        match self.0.len() {
            0 => Some(Rat::ZERO),
            1 => self.0.get(&ONE).copied(),
            _ => None,
        }
    }

    /// The single term, if there is exactly one.
    fn single(&self) -> Option<(Key, Rat)> {
        if self.0.len() == 1 {
            self.0.iter().next().map(|(k, c)| (*k, *c))
        } else {
            None
        }
    }

    /// `self · o`.
    pub fn mul(&self, o: &Func) -> R<Func> {
        let mut out = Func::default();
        for (k1, c1) in &self.0 {
            for (k2, c2) in &o.0 {
                let c = c1.checked_mul(*c2).ok_or_else(ovf)?;
                let base = Key {
                    n: k1.n + k2.n,
                    a: k1.a.checked_add(k2.a).ok_or_else(ovf)?,
                    t: Trig::One,
                    m: k1.m + k2.m,
                };
                for (t, f) in trig_product(k1.t, k2.t)? {
                    out.add_term(Key { t, ..base }, c.checked_mul(f).ok_or_else(ovf)?)?;
                }
            }
        }
        Ok(out)
    }

    /// The derivative.
    pub fn derivative(&self) -> R<Func> {
        let mut out = Func::default();
        for (&k, &c) in &self.0 {
            let mul = |c: Rat, f: i64| c.checked_mul(Rat::int(f)).ok_or_else(ovf);
            if k.n != 0 {
                out.add_term(Key { n: k.n - 1, ..k }, mul(c, k.n.into())?)?;
            }
            if k.a != Rat::ZERO {
                out.add_term(k, c.checked_mul(k.a).ok_or_else(ovf)?)?;
            }
            match k.t {
                Trig::One => {}
                Trig::Sin(b) => {
                    out.add_term(Key { t: Trig::Cos(b), ..k }, c.checked_mul(b).ok_or_else(ovf)?)?
                }
                Trig::Cos(b) => out.add_term(
                    Key { t: Trig::Sin(b), ..k },
                    c.checked_mul(b).and_then(Rat::checked_neg).ok_or_else(ovf)?,
                )?,
            }
            if k.m > 0 {
                out.add_term(Key { n: k.n - 1, m: k.m - 1, ..k }, mul(c, k.m.into())?)?;
            }
        }
        Ok(out)
    }

    /// Render for prompts and answers: `3/2*x^2*e^(3*x)*sin(2*x) - x*ln(x) + 5`, terms in a
    /// fixed order. [`parse`] reads it back to the same function.
    pub fn render(&self) -> String {
        let mut s = String::new();
        // Highest powers first reads most naturally.
        for (k, &c) in self.0.iter().rev() {
            let neg = c.num() < 0;
            let abs = if neg { c.checked_neg().unwrap_or(c) } else { c };
            s.push_str(match (s.is_empty(), neg) {
                (true, true) => "-",
                (true, false) => "",
                (false, true) => " - ",
                (false, false) => " + ",
            });
            let factors = key_factors(k);
            if factors.is_empty() {
                s.push_str(&abs.to_string());
            } else if abs == Rat::int(1) {
                s.push_str(&factors.join("*"));
            } else {
                s.push_str(&format!("{abs}*{}", factors.join("*")));
            }
        }
        if s.is_empty() {
            s.push('0');
        }
        s
    }
}

fn times_x(r: Rat) -> String {
    if r == Rat::int(1) {
        "x".into()
    } else if r == Rat::int(-1) {
        "-x".into()
    } else {
        format!("{r}*x")
    }
}

fn key_factors(k: &Key) -> Vec<String> {
    let mut f = Vec::new();
    match k.n {
        0 => {}
        1 => f.push("x".to_string()),
        n if n < 0 => f.push(format!("x^({n})")),
        n => f.push(format!("x^{n}")),
    }
    if k.a != Rat::ZERO {
        f.push(format!("e^({})", times_x(k.a)));
    }
    match k.t {
        Trig::One => {}
        Trig::Sin(b) => f.push(format!("sin({})", times_x(b))),
        Trig::Cos(b) => f.push(format!("cos({})", times_x(b))),
    }
    match k.m {
        0 => {}
        1 => f.push("ln(x)".into()),
        m => f.push(format!("ln(x)^{m}")),
    }
    f
}

/// Normalise `sin(b x)` / `cos(b x)` for any rational `b`: `(factor, trig)` with `b > 0`.
fn trig_norm(sin: bool, b: Rat) -> R<(Rat, Trig)> {
    if b == Rat::ZERO {
        return Ok(if sin { (Rat::ZERO, Trig::One) } else { (Rat::int(1), Trig::One) });
    }
    let neg = rat_lt(b, Rat::ZERO);
    let b = if neg { b.checked_neg().ok_or_else(ovf)? } else { b };
    Ok(match (sin, neg) {
        (true, true) => (Rat::int(-1), Trig::Sin(b)),
        (true, false) => (Rat::int(1), Trig::Sin(b)),
        (false, _) => (Rat::int(1), Trig::Cos(b)),
    })
}

/// Product-to-sum: `T1 · T2` as a list of `(T, factor)`.
fn trig_product(t1: Trig, t2: Trig) -> R<Vec<(Trig, Rat)>> {
    let half = Rat::new(1, 2).ok_or_else(ovf)?;
    let (p, q) = match (t1, t2) {
        (Trig::One, t) | (t, Trig::One) => return Ok(vec![(t, Rat::int(1))]),
        (Trig::Sin(p), Trig::Sin(q)) | (Trig::Cos(p), Trig::Cos(q)) | (Trig::Sin(p), Trig::Cos(q)) => (p, q),
        (Trig::Cos(q), Trig::Sin(p)) => (p, q),
    };
    let diff = p.checked_sub(q).ok_or_else(ovf)?;
    let sum = p.checked_add(q).ok_or_else(ovf)?;
    // sin p sin q = (cos(p−q) − cos(p+q))/2; cos p cos q = (cos(p−q) + cos(p+q))/2;
    // sin p cos q = (sin(p+q) + sin(p−q))/2.
    let parts: [(bool, Rat, i64); 2] = match (t1, t2) {
        (Trig::Sin(_), Trig::Sin(_)) => [(false, diff, 1), (false, sum, -1)],
        (Trig::Cos(_), Trig::Cos(_)) => [(false, diff, 1), (false, sum, 1)],
        _ => [(true, sum, 1), (true, diff, 1)],
    };
    let mut out = Vec::new();
    for (sin, b, s) in parts {
        let (f, t) = trig_norm(sin, b)?;
        if f != Rat::ZERO {
            out.push((t, f.checked_mul(half).and_then(|v| v.checked_mul(Rat::int(s))).ok_or_else(ovf)?));
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(Rat),
    Ident(String),
    Sym(char),
}

const MAX_CHARS: usize = 3000;

/// The largest `|k|` of an exponent `^k` (and of `sin^k(…)`): powers are repeated products, so
/// this bounds the work one `^` can ask for.
pub const MAX_EXPONENT: i64 = 12;
const MAX_DEPTH: usize = 40;

fn tokenize(text: &str) -> R<Vec<Tok>> {
    if text.chars().count() > MAX_CHARS {
        return Err(format!("longer than {MAX_CHARS} characters"));
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let int: String = chars[start..i].iter().collect();
            let mut frac = String::new();
            if i + 1 < chars.len() && chars[i] == '.' && chars[i + 1].is_ascii_digit() {
                i += 1;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    frac.push(chars[i]);
                    i += 1;
                }
            }
            if int.len() + frac.len() > 15 {
                return Err("number too long".into());
            }
            let num: i128 = format!("{int}{frac}").parse().map_err(|_| ovf())?;
            out.push(Tok::Num(Rat::new(num, 10i128.pow(frac.len() as u32)).ok_or_else(ovf)?));
        } else if c.is_ascii_alphabetic() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_alphabetic() {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            // `xe` or `2xsin` would be ambiguous: identifiers are whole words from a fixed list.
            match word.as_str() {
                "x" | "e" | "sin" | "cos" | "exp" | "ln" | "abs" | "C" => out.push(Tok::Ident(word)),
                "c" => out.push(Tok::Ident("C".into())),
                _ => return Err(format!("unknown name `{word}` (use x, e, exp, sin, cos, ln, C)")),
            }
        } else {
            let sym = match c {
                '*' if chars.get(i + 1) == Some(&'*') => {
                    i += 1;
                    '^'
                }
                '+' | '-' | '*' | '/' | '^' | '(' | ')' | '|' => c,
                '−' => '-',
                '·' | '×' => '*',
                _ => return Err(format!("unexpected `{c}`")),
            };
            out.push(Tok::Sym(sym));
            i += 1;
        }
    }
    Ok(out)
}

/// A parsed value: a function plus, possibly, an unknown additive constant (`C`, `ln 2`).
#[derive(Debug, Clone)]
pub struct Parsed {
    /// The function.
    pub f: Func,
    /// Whether an unknown additive constant was added (`+ C`, `ln(2x)`).
    pub unknown_constant: bool,
}

struct Parser {
    toks: Vec<Tok>,
    i: usize,
    depth: usize,
}

/// Parse `text` into canonical form (see the module doc for the accepted language).
pub fn parse(text: &str) -> R<Parsed> {
    let mut p = Parser { toks: tokenize(text)?, i: 0, depth: 0 };
    if p.toks.is_empty() {
        return Err("empty expression".into());
    }
    let v = p.sum()?;
    if p.i != p.toks.len() {
        return Err(format!("unexpected {:?} after the expression", p.toks[p.i]));
    }
    Ok(v)
}

fn pure(f: Func) -> Parsed {
    Parsed { f, unknown_constant: false }
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i)
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::Sym(c)) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: char) -> R<()> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(format!("expected `{c}`"))
        }
    }

    fn enter(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err("nested too deeply".into());
        }
        Ok(())
    }

    fn sum(&mut self) -> R<Parsed> {
        self.enter()?;
        let mut acc = self.product()?;
        loop {
            let sign = if self.eat('+') {
                1
            } else if self.eat('-') {
                -1
            } else {
                break;
            };
            let t = self.product()?;
            acc = Parsed {
                f: acc.f.add_scaled(&t.f, Rat::int(sign))?,
                unknown_constant: acc.unknown_constant || t.unknown_constant,
            };
        }
        self.depth -= 1;
        Ok(acc)
    }

    fn starts_primary(&self) -> bool {
        matches!(self.peek(), Some(Tok::Num(_)) | Some(Tok::Ident(_)) | Some(Tok::Sym('(')))
    }

    fn product(&mut self) -> R<Parsed> {
        let mut acc = self.unary()?;
        loop {
            if self.eat('*') || self.starts_primary() {
                let r = self.unary()?;
                acc = mul(acc, r)?;
            } else if self.eat('/') {
                let r = self.unary()?;
                acc = div(acc, r)?;
            } else {
                return Ok(acc);
            }
        }
    }

    fn unary(&mut self) -> R<Parsed> {
        self.enter()?;
        let v = if self.eat('-') {
            let v = self.unary()?;
            Parsed { f: Func::default().add_scaled(&v.f, Rat::int(-1))?, ..v }
        } else if self.eat('+') {
            self.unary()?
        } else {
            self.power()?
        };
        self.depth -= 1;
        Ok(v)
    }

    fn power(&mut self) -> R<Parsed> {
        if self.peek() == Some(&Tok::Ident("e".into())) {
            self.i += 1;
            if !self.eat('^') {
                return Err("the constant e is only allowed as e^(k*x)".into());
            }
            let arg = self.unary()?;
            return exp_of(arg);
        }
        let base = self.primary()?;
        if !self.eat('^') {
            return Ok(base);
        }
        let exp = self.unary()?;
        let k = exp
            .f
            .as_constant()
            .and_then(Rat::as_int)
            .filter(|k| k.abs() <= MAX_EXPONENT && !exp.unknown_constant);
        let Some(k) = k else {
            return Err(format!(
                "exponents must be integer constants from -{MAX_EXPONENT} to {MAX_EXPONENT} (no x^(1/2), no 2^x)"
            ));
        };
        int_pow(base, k)
    }

    /// The `k` of a function name written `sin^k(…)`, `cos^k(…)` or `ln^k(…)` (1 when there is
    /// no `^`): a whole number from 1 to [`MAX_EXPONENT`], written as a plain numeral.
    fn name_power(&mut self, name: &str) -> R<i64> {
        if !self.eat('^') {
            return Ok(1);
        }
        let k = match self.peek() {
            Some(Tok::Num(r)) => r.as_int().filter(|k| (1..=MAX_EXPONENT).contains(k)),
            _ => None,
        };
        let Some(k) = k else {
            return Err(format!(
                "write a power of {name} as {name}(x)^2 or {name}^2(x), with a whole number from 1 to {MAX_EXPONENT}"
            ));
        };
        self.i += 1;
        Ok(k)
    }

    /// The argument of `ln`, after the name: `(…)`, `|…|`, `(|…|)` or `(abs(…))`; the flag says
    /// whether it was inside an absolute value.
    fn ln_arg(&mut self) -> R<(Parsed, bool)> {
        if self.eat('|') {
            let arg = self.sum()?;
            self.expect('|')?;
            return Ok((arg, true));
        }
        if !self.eat('(') {
            return Err("ln needs parentheses: ln(x)".into());
        }
        let (arg, abs) = if self.eat('|') {
            let arg = self.sum()?;
            self.expect('|')?;
            (arg, true)
        } else if self.peek() == Some(&Tok::Ident("abs".into())) {
            self.i += 1;
            self.expect('(')?;
            let arg = self.sum()?;
            self.expect(')')?;
            (arg, true)
        } else {
            (self.sum()?, false)
        };
        self.expect(')')?;
        Ok((arg, abs))
    }

    fn primary(&mut self) -> R<Parsed> {
        let Some(t) = self.peek().cloned() else {
            return Err("expression ends too early".into());
        };
        self.i += 1;
        match t {
            Tok::Num(r) => Ok(pure(Func::constant(r))),
            Tok::Sym('(') => {
                let v = self.sum()?;
                self.expect(')')?;
                Ok(v)
            }
            Tok::Ident(w) => match w.as_str() {
                "x" => Ok(pure(Func::term(Key { n: 1, ..ONE }, Rat::int(1)))),
                "C" => Ok(Parsed { f: Func::default(), unknown_constant: true }),
                "ln" => {
                    let k = self.name_power("ln")?;
                    let (arg, abs) = self.ln_arg()?;
                    int_pow(ln_of(arg, abs)?, k)
                }
                "abs" => Err("abs(...) is read only as the argument of ln, as in ln(abs(x))".into()),
                f => {
                    let k = if f == "exp" { 1 } else { self.name_power(f)? };
                    if !self.eat('(') {
                        return Err(format!("{f} needs parentheses: {f}(x), not {f} x"));
                    }
                    let arg = self.sum()?;
                    self.expect(')')?;
                    let v = match f {
                        "exp" => exp_of(arg)?,
                        "sin" | "cos" => trig_of(f == "sin", arg)?,
                        _ => return Err(format!("`{f}` is not a function")),
                    };
                    int_pow(v, k)
                }
            },
            Tok::Sym('|') => {
                Err("absolute value bars are read only around the argument of ln, as in ln|x|".into())
            }
            Tok::Sym(c) => Err(format!("unexpected `{c}`")),
        }
    }
}

/// `base^k` for an integer `k` (`|k| ≤ MAX_EXPONENT`): repeated products, and for `k < 0` the
/// powers of [`invert`]`(base)`, so a negative power needs a base that can be divided by.
fn int_pow(base: Parsed, k: i64) -> R<Parsed> {
    if k == 1 {
        return Ok(base);
    }
    if base.unknown_constant {
        return Err("cannot raise an unknown constant to a power".into());
    }
    if k == 0 {
        return Ok(pure(Func::constant(Rat::int(1))));
    }
    let b = if k > 0 { base.f } else { invert(&base.f)? };
    let mut f = b.clone();
    for _ in 1..k.abs() {
        f = f.mul(&b)?;
    }
    Ok(pure(f))
}

fn mul(a: Parsed, b: Parsed) -> R<Parsed> {
    let const_ok = |p: &Parsed, other: &Parsed| !p.unknown_constant || other.f.as_constant().is_some();
    if !const_ok(&a, &b) || !const_ok(&b, &a) {
        return Err("an unknown constant may only be added, not multiplied by a function".into());
    }
    Ok(Parsed { f: a.f.mul(&b.f)?, unknown_constant: a.unknown_constant || b.unknown_constant })
}

fn div(a: Parsed, b: Parsed) -> R<Parsed> {
    if b.unknown_constant {
        return Err("cannot divide by an unknown constant".into());
    }
    let inv = invert(&b.f)?;
    if a.unknown_constant && inv.as_constant().is_none() {
        return Err("an unknown constant may only be added, not divided by a function".into());
    }
    Ok(Parsed { f: a.f.mul(&inv)?, unknown_constant: a.unknown_constant })
}

/// `1 / f` for a single term without sine or cosine.
fn invert(f: &Func) -> R<Func> {
    match f.single() {
        Some((k, c)) if k.t == Trig::One && k.m == 0 => {
            let key = Key { n: -k.n, a: k.a.checked_neg().ok_or_else(ovf)?, t: Trig::One, m: 0 };
            Ok(Func::term(key, Rat::int(1).checked_div(c).ok_or_else(ovf)?))
        }
        _ if f.0.is_empty() => Err("division by zero".into()),
        _ => Err("can only divide by a single term without sin, cos or ln, such as 3, 2*x^2 or e^(2x) \
                  (not by a sum like x+1)"
            .into()),
    }
}

/// The `r` of an argument `r·x` (or 0 for the constant 0).
fn linear_rate(arg: &Parsed) -> R<Rat> {
    if arg.unknown_constant {
        return Err("function arguments must be k*x".into());
    }
    if arg.f.0.is_empty() {
        return Ok(Rat::ZERO);
    }
    match arg.f.single() {
        Some((k, c)) if k == (Key { n: 1, ..ONE }) => Ok(c),
        _ => Err("arguments of e^, exp, sin and cos must be a multiple of x, like 3x or -x/2".into()),
    }
}

fn exp_of(arg: Parsed) -> R<Parsed> {
    let a = linear_rate(&arg)?;
    Ok(pure(Func::term(Key { a, ..ONE }, Rat::int(1))))
}

fn trig_of(sin: bool, arg: Parsed) -> R<Parsed> {
    let (f, t) = trig_norm(sin, linear_rate(&arg)?)?;
    Ok(pure(Func::term(Key { t, ..ONE }, f)))
}

/// `ln(c·x^k)` = `k·ln(x) + ln(c)`: the `ln c` part is an unknown constant unless `c = 1`.
fn ln_of(arg: Parsed, abs: bool) -> R<Parsed> {
    let bad = || "ln takes c*x^k, like ln(x), ln|x| or ln(2x)".to_string();
    let (k, c) = arg.f.single().filter(|_| !arg.unknown_constant).ok_or_else(bad)?;
    if k.a != Rat::ZERO || k.t != Trig::One || k.m != 0 || k.n == 0 || (!abs && c.num() < 0) {
        return Err(bad());
    }
    let f = Func::term(Key { m: 1, ..ONE }, Rat::int(k.n.into()));
    Ok(Parsed { f, unknown_constant: c != Rat::int(1) && c != Rat::int(-1) })
}

// ---------------------------------------------------------------------------------------------
// Integration
// ---------------------------------------------------------------------------------------------

/// An antiderivative of `f` in the class, or `None` when a term has none there.
pub fn integrate(f: &Func) -> Option<Func> {
    let mut out = Func::default();
    for (&k, &c) in &f.0 {
        let g = integrate_term(k)?;
        out = out.add_scaled(&g, c).ok()?;
    }
    Some(out)
}

fn integrate_term(k: Key) -> Option<Func> {
    let plain = k.a == Rat::ZERO && k.t == Trig::One;
    if k.n < 0 && !(plain && (k.m == 0 || k.n == -1)) {
        return None; // e^x / x, sin(x)/x, ln(x)/x^2 …: not needed, not attempted.
    }
    // Candidates: x^j e^{ax} T ln^l with j in lo..=n+1, l in 0..=m+1, T in {sin b, cos b} or {1}.
    let trigs: Vec<Trig> = match k.t {
        Trig::One => vec![Trig::One],
        Trig::Sin(b) | Trig::Cos(b) => vec![Trig::Sin(b), Trig::Cos(b)],
    };
    let lo = k.n.min(0);
    let mut cands = Vec::new();
    for j in lo..=k.n + 1 {
        for l in 0..=k.m + 1 {
            for &t in &trigs {
                if !(j == 0 && l == 0 && t == Trig::One && k.a == Rat::ZERO) {
                    cands.push(Key { n: j, a: k.a, t, m: l });
                }
            }
        }
    }
    let derivs: Vec<Func> =
        cands.iter().map(|&c| Func::term(c, Rat::int(1)).derivative()).collect::<Result<_, _>>().ok()?;
    let mut rows: Vec<Key> = derivs.iter().flat_map(|d| d.0.keys().copied()).collect();
    rows.push(k);
    rows.sort();
    rows.dedup();
    // Augmented matrix: rows = basis keys, columns = candidates, last column = target.
    let mut m: Vec<Vec<Rat>> = rows
        .iter()
        .map(|r| {
            let mut row: Vec<Rat> = derivs.iter().map(|d| d.0.get(r).copied().unwrap_or(Rat::ZERO)).collect();
            row.push(if *r == k { Rat::int(1) } else { Rat::ZERO });
            row
        })
        .collect();
    let sol = solve_any(&mut m, cands.len())?;
    let mut out = Func::default();
    for (c, v) in cands.iter().zip(sol) {
        out.add_term(*c, v).ok()?;
    }
    (out.derivative().ok()? == Func::term(k, Rat::int(1))).then_some(out)
}

/// One solution of an over-determined consistent system (free variables set to 0).
fn solve_any(m: &mut [Vec<Rat>], n: usize) -> Option<Vec<Rat>> {
    let mut pivots = Vec::new();
    let mut r = 0;
    for col in 0..n {
        let Some(p) = (r..m.len()).find(|&i| m[i][col] != Rat::ZERO) else { continue };
        m.swap(r, p);
        let inv = Rat::int(1).checked_div(m[r][col])?;
        for c in col..=n {
            m[r][c] = m[r][c].checked_mul(inv)?;
        }
        for i in 0..m.len() {
            if i != r && m[i][col] != Rat::ZERO {
                let f = m[i][col];
                for c in col..=n {
                    m[i][c] = m[i][c].checked_sub(f.checked_mul(m[r][c])?)?;
                }
            }
        }
        pivots.push(col);
        r += 1;
    }
    if m[r..].iter().any(|row| row[n] != Rat::ZERO) {
        return None;
    }
    let mut x = vec![Rat::ZERO; n];
    for (i, &col) in pivots.iter().enumerate() {
        x[col] = m[i][n];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(s: &str) -> Func {
        parse(s).unwrap_or_else(|e| panic!("{s}: {e}")).f
    }

    #[test]
    fn equal_functions_have_equal_forms() {
        assert_eq!(f("sin(x)^2 + cos(x)^2"), f("1"));
        assert_eq!(f("2sin(x)cos(x)"), f("sin(2x)"));
        assert_eq!(f("e^(2x) * e^(-x)"), f("exp(x)"));
        assert_eq!(f("(x+1)^2"), f("x^2 + 2x + 1"));
        assert_eq!(f("x^3/x"), f("x**2"));
        assert_eq!(f("sin(-3x)"), f("-sin(3*x)"));
        assert_eq!(f("cos(-x/2)"), f("cos(0.5x)"));
        assert_eq!(f("ln(x^3)"), f("3ln(x)"));
        assert_eq!(f("1/x^2"), f("x^(-2)"));
        assert_ne!(f("sin(x)"), f("cos(x)"));
    }

    #[test]
    fn parser_rejects_what_it_cannot_represent() {
        for bad in [
            "sin x",
            "tan(x)",
            "1/(x+1)",
            "e^2x",
            "e",
            "x^(1/2)",
            "sin(x+1)",
            "2 or 3",
            "x/sin(x)",
            "ln(x+1)",
            "(x",
            "x)",
            "xe^x",
            "",
            "3 4 5 x ^",
            "x^99",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        assert!(parse("x^2/2 + C").unwrap().unknown_constant);
        assert!(parse("ln(2x)").unwrap().unknown_constant);
        assert!(!parse("ln|x|").unwrap().unknown_constant);
        assert!(parse("C*x").is_err());
    }

    /// Issue 38 item 4: every form the prompts' syntax paragraph promises is read, as the
    /// function it means on `x > 0`.
    #[test]
    fn issue_38_widened_forms_are_read() {
        for (form, same_as) in [
            ("ln(|x|)", "ln(x)"),
            ("ln(abs(x))", "ln(x)"),
            ("ln|x|", "ln(x)"),
            ("3ln(|x^2|)", "6ln(x)"),
            ("ln(abs(-x))", "ln(x)"),
            ("1/(2*x^2)", "x^(-2)/2"),
            ("1/(2x^2 e^(x))", "1/2*x^(-2)*e^(-x)"),
            ("(x^2 + x)/x", "x + 1"),
            ("1/2x", "x/2"),
            ("sin^2(x)", "sin(x)^2"),
            ("cos^3(2x)", "cos(2x)^3"),
            ("ln^2(x)", "ln(x)^2"),
            ("ln^2|x|", "ln(x)^2"),
            ("x^12", "x^6*x^6"),
            ("x^(-12)", "1/x^12"),
            ("x^(4/2)", "x^2"),
        ] {
            assert_eq!(f(form), f(same_as), "{form}");
        }
        assert!(parse("x^2/2 + c").unwrap().unknown_constant);
        assert!(parse("ln(|2x|)").unwrap().unknown_constant);
    }

    /// Issue 38 item 4: what the grammar refuses, each with a reason that says what to write.
    #[test]
    fn issue_38_refusals_name_the_rule() {
        for (bad, why) in [
            ("x^(1/2)", "integer constants from -12 to 12"),
            ("x^13", "integer constants from -12 to 12"),
            ("x^(-13)", "integer constants from -12 to 12"),
            ("2^x", "integer constants"),
            ("sqrt(x)", "unknown name `sqrt`"),
            ("1/(x+1)", "single term"),
            ("x/sin(x)", "single term"),
            ("1/ln(x)", "single term"),
            ("sin(x)^(-1)", "single term"),
            ("|x|", "only around the argument of ln"),
            ("abs(x)", "only as the argument of ln"),
            ("ln(-x)", "ln takes c*x^k"),
            ("ln(x+1)", "ln takes c*x^k"),
            ("ln(2)", "ln takes c*x^k"),
            ("sin x", "sin needs parentheses"),
            ("sin^-1(x)", "power of sin"),
            ("sin^(1/2)(x)", "power of sin"),
            ("cos^13(x)", "power of cos"),
            ("e^3x", "multiple of x"),
            ("sin(x+1)", "multiple of x"),
            ("e^(x^2)", "multiple of x"),
            ("tan(x)", "unknown name `tan`"),
            ("log(x)", "unknown name `log`"),
            ("pi*x", "unknown name `pi`"),
            ("C*x", "only be added"),
        ] {
            match parse(bad) {
                Ok(_) => panic!("{bad} was read"),
                Err(e) => assert!(e.contains(why), "{bad}: {e}"),
            }
        }
    }

    #[test]
    fn derivatives_follow_the_rules() {
        assert_eq!(f("x^2*e^(3x)").derivative().unwrap(), f("2x e^(3x) + 3x^2 e^(3x)"));
        assert_eq!(f("x ln(x)").derivative().unwrap(), f("ln(x) + 1"));
        assert_eq!(f("sin(2x)cos(3x)").derivative().unwrap(), f("2cos(2x)cos(3x) - 3sin(2x)sin(3x)"));
        assert_eq!(f("ln(x)").derivative().unwrap(), f("1/x"));
    }

    #[test]
    fn integrals_differentiate_back() {
        for s in [
            "x^3",
            "1/x",
            "x^(-3)",
            "e^(2x)",
            "x e^(-x)",
            "x^2 sin(3x)",
            "e^(x)cos(2x)",
            "x^2 ln(x)",
            "ln(x)/x",
            "x^2 e^(x/2) sin(x)",
        ] {
            let g = f(s);
            let big = integrate(&g).unwrap_or_else(|| panic!("{s}"));
            assert_eq!(big.derivative().unwrap(), g, "{s}");
            // The rendering parses back to the same function.
            assert_eq!(f(&big.render()), big, "{}", big.render());
        }
        assert!(integrate(&f("e^x/x")).is_none());
    }
}
