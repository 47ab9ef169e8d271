//! Polynomials in one variable with exact rational coefficients, shared by the algebra families.
//!
//! [`Poly`] holds coefficients lowest power first, without trailing zeros. Every operation is
//! checked (`None` on overflow). [`Poly::parse`] reads a polynomial written by a person or a
//! model, strictly: terms `c`, `cx`, `c*x`, `c x^k`, `x**k`, joined by `+` and `-`, integer
//! coefficients only; juxtaposed numbers (`3 4`), parentheses, division and any other token are
//! errors. Like terms may repeat and come in any order (they are collected).

use crate::arithmetic::expr::Rat;
use crate::common::clip;

/// A polynomial with rational coefficients, `c[k]` the coefficient of `x^k`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Poly {
    c: Vec<Rat>,
}

/// Highest degree [`Poly::parse`] accepts.
pub const MAX_DEGREE: usize = 64;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Tok {
    Num(i128),
    X,
    Caret,
    Star,
    Plus,
    Minus,
}

fn tokenize(text: &str, var: char) -> Result<Vec<Tok>, String> {
    let mut out = Vec::new();
    let mut it = text.chars().peekable();
    while let Some(c) = it.next() {
        let t = match c {
            c if c.is_whitespace() => continue,
            '+' => Tok::Plus,
            '-' | '\u{2212}' => Tok::Minus,
            '^' => Tok::Caret,
            '*' if it.peek() == Some(&'*') => {
                it.next();
                Tok::Caret
            }
            '*' | '·' | '×' => Tok::Star,
            c if c == var || c == var.to_ascii_uppercase() => Tok::X,
            '0'..='9' => {
                let mut n = i128::from(c as u8 - b'0');
                while let Some(d) = it.peek().and_then(|d| d.to_digit(10)) {
                    n = n
                        .checked_mul(10)
                        .and_then(|n| n.checked_add(i128::from(d)))
                        .ok_or("number too large")?;
                    if n > i128::from(i64::MAX) {
                        return Err("number too large".into());
                    }
                    it.next();
                }
                Tok::Num(n)
            }
            c => return Err(format!("unexpected `{c}` in a polynomial in {var}")),
        };
        out.push(t);
        if out.len() > 2000 {
            return Err("polynomial too long".into());
        }
    }
    Ok(out)
}

impl Poly {
    /// The polynomial with integer coefficients `c` (lowest power first).
    pub fn from_ints(c: &[i64]) -> Poly {
        Poly::new(c.iter().map(|&v| Rat::int(v)).collect())
    }

    /// The polynomial with coefficients `c` (lowest power first); trailing zeros are dropped.
    pub fn new(mut c: Vec<Rat>) -> Poly {
        while c.last() == Some(&Rat::ZERO) {
            c.pop();
        }
        Poly { c }
    }

    /// Coefficients, lowest power first (empty for the zero polynomial).
    pub fn coeffs(&self) -> &[Rat] {
        &self.c
    }

    /// The degree (`None` for the zero polynomial).
    pub fn degree(&self) -> Option<usize> {
        self.c.len().checked_sub(1)
    }

    /// `self · o`, checked.
    pub fn mul(&self, o: &Poly) -> Option<Poly> {
        if self.c.is_empty() || o.c.is_empty() {
            return Some(Poly::new(vec![]));
        }
        let mut c = vec![Rat::ZERO; self.c.len() + o.c.len() - 1];
        for (i, a) in self.c.iter().enumerate() {
            for (j, b) in o.c.iter().enumerate() {
                c[i + j] = c[i + j].checked_add(a.checked_mul(*b)?)?;
            }
        }
        Some(Poly::new(c))
    }

    /// `self + o`, checked.
    pub fn add(&self, o: &Poly) -> Option<Poly> {
        let n = self.c.len().max(o.c.len());
        let get = |p: &Poly, i: usize| p.c.get(i).copied().unwrap_or(Rat::ZERO);
        Some(Poly::new((0..n).map(|i| get(self, i).checked_add(get(o, i))).collect::<Option<_>>()?))
    }

    /// `self · k`, checked.
    pub fn scale(&self, k: Rat) -> Option<Poly> {
        Some(Poly::new(self.c.iter().map(|a| a.checked_mul(k)).collect::<Option<_>>()?))
    }

    /// The value at `x` (Horner), checked.
    pub fn eval(&self, x: Rat) -> Option<Rat> {
        self.c.iter().rev().try_fold(Rat::ZERO, |acc, &a| acc.checked_mul(x)?.checked_add(a))
    }

    /// `(quotient, remainder)` of the division by a non-zero `d`, checked.
    pub fn div_rem(&self, d: &Poly) -> Option<(Poly, Poly)> {
        let dd = d.degree()?;
        let lead = d.c[dd];
        let mut r = self.c.clone();
        let mut q = vec![Rat::ZERO; self.c.len().saturating_sub(dd).max(1)];
        while r.len() > dd && !r.is_empty() {
            let k = r.len() - 1 - dd;
            let f = r[r.len() - 1].checked_div(lead)?;
            q[k] = f;
            for (i, &dc) in d.c.iter().enumerate() {
                r[k + i] = r[k + i].checked_sub(f.checked_mul(dc)?)?;
            }
            r.pop();
            while r.last() == Some(&Rat::ZERO) {
                r.pop();
            }
        }
        Some((Poly::new(q), Poly::new(r)))
    }

    /// Display in `var`, highest power first: `3x^2 - x + 5`, `-2x`, `0`; non-integer
    /// coefficients as `3/2*x^2`.
    pub fn render(&self, var: char) -> String {
        let mut s = String::new();
        for (k, &a) in self.c.iter().enumerate().rev().filter(|(_, a)| **a != Rat::ZERO) {
            let neg = a.num() < 0;
            let abs = if neg { a.checked_neg().unwrap_or(a) } else { a };
            if s.is_empty() {
                s.push_str(if neg { "-" } else { "" });
            } else {
                s.push_str(if neg { " - " } else { " + " });
            }
            let mono = match k {
                0 => String::new(),
                1 => var.to_string(),
                k => format!("{var}^{k}"),
            };
            let coef = match (abs.as_int(), k) {
                (_, 0) => abs.to_string(),
                (Some(1), _) => String::new(),
                (Some(n), _) => n.to_string(),
                (None, _) => format!("{abs}*"),
            };
            s.push_str(&format!("{coef}{mono}"));
        }
        if s.is_empty() {
            s.push('0');
        }
        s
    }

    /// Parse a polynomial in `var` with integer coefficients (see the module doc).
    pub fn parse(text: &str, var: char) -> Result<Poly, String> {
        let toks = tokenize(text, var)?;
        if toks.is_empty() {
            return Err("empty polynomial".into());
        }
        let mut c = vec![Rat::ZERO; MAX_DEGREE + 1];
        let mut i = 0;
        let mut first = true;
        while i < toks.len() {
            let neg = match toks[i] {
                Tok::Plus if !first => false,
                Tok::Minus => true,
                _ if first => false,
                t => return Err(format!("expected `+` or `-` between terms, found {t:?}")),
            };
            if matches!(toks[i], Tok::Plus | Tok::Minus) {
                i += 1;
            }
            first = false;
            let (coef, k, used) = term(&toks[i..])?;
            i += used;
            let coef = if neg { -coef } else { coef };
            let v = Rat::new(coef, 1).ok_or("coefficient too large")?;
            c[k] = c[k].checked_add(v).ok_or("coefficient too large")?;
        }
        Ok(Poly::new(c))
    }
}

/// One term at the start of `t`: `(coefficient, power, tokens used)`.
fn term(t: &[Tok]) -> Result<(i128, usize, usize), String> {
    let bad = || "expected a term like `3x^2`, `x` or `5`".to_string();
    let mut i = 0;
    let mut coef = 1;
    let mut has_coef = false;
    if let Some(Tok::Num(n)) = t.first() {
        coef = *n;
        has_coef = true;
        i = 1;
        if t.get(1) == Some(&Tok::Star) {
            i = 2;
            if t.get(2) != Some(&Tok::X) {
                return Err(bad());
            }
        }
    }
    if t.get(i) != Some(&Tok::X) {
        return if has_coef { Ok((coef, 0, i)) } else { Err(bad()) };
    }
    i += 1;
    if t.get(i) != Some(&Tok::Caret) {
        return Ok((coef, 1, i));
    }
    match t.get(i + 1) {
        Some(&Tok::Num(k)) if k as usize <= MAX_DEGREE => Ok((coef, k as usize, i + 2)),
        _ => Err(format!("exponent missing or above {MAX_DEGREE}")),
    }
}

/// Parse a polynomial answer, mapping errors to a message that quotes the answer.
pub fn parse_answer(answer: &str, var: char) -> Result<Poly, String> {
    Poly::parse(answer, var).map_err(|e| format!("`{}` is not a polynomial in {var}: {e}", clip(answer, 40)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_accepts_every_spelling_and_collects_like_terms() {
        let want = Poly::from_ints(&[5, -1, 3]);
        for ok in [
            "3x^2 - x + 5",
            "5 - x + 3x^2",
            "3*x**2-1x+5",
            "3 x^2 + 2x - 3x + 5",
            "+3X^2 - x^1 + 5x^0",
            "3x^2 − x + 5",
        ] {
            assert_eq!(Poly::parse(ok, 'x').unwrap(), want, "{ok}");
        }
        for bad in
            ["3x^2 - x + 5 or 4", "3x^2 x", "3 4", "(x+1)", "3x/2", "3x^2 - - x", "x^", "", "3y", "x^99"]
        {
            assert!(Poly::parse(bad, 'x').is_err(), "{bad}");
        }
        assert_eq!(want.render('x'), "3x^2 - x + 5");
        assert_eq!(Poly::from_ints(&[0, -1]).render('x'), "-x");
        assert_eq!(Poly::from_ints(&[]).render('x'), "0");
    }

    #[test]
    fn arithmetic_is_exact() {
        let a = Poly::from_ints(&[1, 1]); // x + 1
        let b = Poly::from_ints(&[-1, 1]); // x - 1
        let p = a.mul(&b).unwrap();
        assert_eq!(p, Poly::from_ints(&[-1, 0, 1]));
        assert_eq!(p.eval(Rat::int(3)), Some(Rat::int(8)));
        let (q, r) = p.add(&Poly::from_ints(&[3])).unwrap().div_rem(&a).unwrap();
        assert_eq!((q, r), (b, Poly::from_ints(&[3])));
    }
}
