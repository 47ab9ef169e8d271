//! A small regular-expression engine shared by [`regex_match`](super::regex_match) and
//! [`regex_induction`](super::regex_induction): parser, renderer, matcher, random generator and
//! sampler.
//!
//! **Syntax** (whole-string matching, no anchors needed): lowercase letters are literals;
//! `xy` is concatenation, `x|y` alternation (lowest precedence), `x*` zero or more, `x+` one or
//! more, `x?` optional (postfix, highest precedence), and parentheses group. Nothing else is
//! allowed: no spaces, no `.`, no classes, no empty alternatives.
//!
//! **Matching** works on sets of positions as bit masks (strings of up to 63 characters): the
//! set of end positions of a regex from a set of start positions, with a fixpoint for `*`. It is
//! exact and linear in the regex size times the string length (times the length again for `*`).

use gauntlet_core::Rng;
use serde::{Deserialize, Serialize};

/// Longest string the matcher accepts.
pub const MAX_LEN: usize = 63;
/// Deepest parenthesis nesting the parser accepts.
const MAX_DEPTH: usize = 40;

/// A parsed regular expression.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Re {
    /// One letter.
    Lit(u8),
    /// Concatenation (at least two parts).
    Cat(Vec<Re>),
    /// Alternation (at least two branches).
    Alt(Vec<Re>),
    /// `x*`
    Star(Box<Re>),
    /// `x+`
    Plus(Box<Re>),
    /// `x?`
    Opt(Box<Re>),
}

/// Parse a regex over the letters of `alphabet`; `Err` names the offending position.
pub fn parse(text: &str, alphabet: &[u8]) -> Result<Re, String> {
    let mut p = Parser { s: text.as_bytes(), i: 0, alphabet, depth: 0 };
    if text.is_empty() {
        return Err("empty regex".into());
    }
    let re = p.alt()?;
    if p.i != p.s.len() {
        return Err(p.error());
    }
    Ok(re)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    alphabet: &'a [u8],
    depth: usize,
}

impl Parser<'_> {
    fn error(&self) -> String {
        let rest = String::from_utf8_lossy(&self.s[self.i.min(self.s.len())..]).into_owned();
        format!(
            "not a regex over {{{}}} at `{}`",
            String::from_utf8_lossy(self.alphabet),
            crate::common::clip(&rest, 20)
        )
    }

    fn alt(&mut self) -> Result<Re, String> {
        let mut branches = vec![self.cat()?];
        while self.s.get(self.i) == Some(&b'|') {
            self.i += 1;
            branches.push(self.cat()?);
        }
        Ok(if branches.len() == 1 { branches.remove(0) } else { Re::Alt(branches) })
    }

    fn cat(&mut self) -> Result<Re, String> {
        let mut parts = Vec::new();
        while let Some(&c) = self.s.get(self.i) {
            if c == b'|' || c == b')' {
                break;
            }
            parts.push(self.repeat()?);
        }
        match parts.len() {
            0 => Err(self.error()),
            1 => Ok(parts.remove(0)),
            _ => Ok(Re::Cat(parts)),
        }
    }

    fn repeat(&mut self) -> Result<Re, String> {
        let mut re = self.atom()?;
        while let Some(&c) = self.s.get(self.i) {
            re = match c {
                b'*' => Re::Star(Box::new(re)),
                b'+' => Re::Plus(Box::new(re)),
                b'?' => Re::Opt(Box::new(re)),
                _ => break,
            };
            self.i += 1;
        }
        Ok(re)
    }

    fn atom(&mut self) -> Result<Re, String> {
        match self.s.get(self.i) {
            Some(&b'(') => {
                self.depth += 1;
                if self.depth > MAX_DEPTH {
                    return Err("parentheses nested too deeply".into());
                }
                self.i += 1;
                let re = self.alt()?;
                if self.s.get(self.i) != Some(&b')') {
                    return Err(self.error());
                }
                self.i += 1;
                self.depth -= 1;
                Ok(re)
            }
            Some(&c) if self.alphabet.contains(&c) => {
                self.i += 1;
                Ok(Re::Lit(c))
            }
            _ => Err(self.error()),
        }
    }
}

/// The regex as text, with only the parentheses it needs.
pub fn render(re: &Re) -> String {
    match re {
        Re::Lit(c) => (*c as char).to_string(),
        Re::Cat(parts) => parts
            .iter()
            .map(|p| if matches!(p, Re::Alt(_)) { format!("({})", render(p)) } else { render(p) })
            .collect(),
        Re::Alt(bs) => bs.iter().map(render).collect::<Vec<_>>().join("|"),
        Re::Star(x) => format!("{}*", postfix_operand(x)),
        Re::Plus(x) => format!("{}+", postfix_operand(x)),
        Re::Opt(x) => format!("{}?", postfix_operand(x)),
    }
}

fn postfix_operand(x: &Re) -> String {
    match x {
        Re::Lit(_) => render(x),
        _ => format!("({})", render(x)),
    }
}

/// End positions reachable by matching `re` from each start position in `starts` (bit masks).
fn ends(re: &Re, starts: u64, s: &[u8]) -> u64 {
    match re {
        Re::Lit(c) => {
            let mut out = 0;
            for (p, &x) in s.iter().enumerate() {
                if x == *c && starts >> p & 1 == 1 {
                    out |= 1 << (p + 1);
                }
            }
            out
        }
        Re::Cat(parts) => parts.iter().fold(starts, |acc, p| if acc == 0 { 0 } else { ends(p, acc, s) }),
        Re::Alt(bs) => bs.iter().fold(0, |acc, b| acc | ends(b, starts, s)),
        Re::Star(x) => closure(x, starts, s),
        Re::Plus(x) => closure(x, ends(x, starts, s), s),
        Re::Opt(x) => starts | ends(x, starts, s),
    }
}

fn closure(x: &Re, starts: u64, s: &[u8]) -> u64 {
    let (mut reach, mut frontier) = (starts, starts);
    while frontier != 0 {
        let new = ends(x, frontier, s) & !reach;
        reach |= new;
        frontier = new;
    }
    reach
}

/// Whether `re` matches the whole of `s` (strings longer than [`MAX_LEN`] never match).
pub fn matches(re: &Re, s: &[u8]) -> bool {
    s.len() <= MAX_LEN && ends(re, 1, s) >> s.len() & 1 == 1
}

/// Draw a random regex of nesting `depth` over `alphabet`: literals and short words at the
/// leaves, concatenation, alternation and the three repetitions above them.
pub fn random(rng: &mut Rng, depth: usize, alphabet: &[u8]) -> Re {
    let letter = |rng: &mut Rng| Re::Lit(alphabet[rng.index(alphabet.len())]);
    if depth == 0 {
        let n = 1 + rng.index(2);
        return if n == 1 { letter(rng) } else { Re::Cat((0..n).map(|_| letter(rng)).collect()) };
    }
    match rng.index(6) {
        0 | 1 => Re::Cat(vec![random(rng, depth - 1, alphabet), random(rng, depth - 1, alphabet)]),
        2 => Re::Alt(vec![random(rng, depth - 1, alphabet), random(rng, depth - 1, alphabet)]),
        3 => Re::Cat(vec![
            Re::Star(Box::new(random(rng, depth - 1, alphabet))),
            random(rng, depth - 1, alphabet),
        ]),
        4 => Re::Cat(vec![
            random(rng, depth - 1, alphabet),
            Re::Plus(Box::new(random(rng, depth - 1, alphabet))),
        ]),
        _ => Re::Cat(vec![
            Re::Opt(Box::new(random(rng, depth - 1, alphabet))),
            random(rng, depth - 1, alphabet),
        ]),
    }
}

/// Draw a random string of the language of `re` (repetitions 0–3 times).
pub fn sample(rng: &mut Rng, re: &Re, out: &mut Vec<u8>) {
    match re {
        Re::Lit(c) => out.push(*c),
        Re::Cat(parts) => parts.iter().for_each(|p| sample(rng, p, out)),
        Re::Alt(bs) => {
            let k = rng.index(bs.len());
            sample(rng, &bs[k], out)
        }
        Re::Star(x) => (0..rng.index(4)).for_each(|_| sample(rng, x, out)),
        Re::Plus(x) => (0..1 + rng.index(3)).for_each(|_| sample(rng, x, out)),
        Re::Opt(x) => {
            if rng.chance(0.5) {
                sample(rng, x, out)
            }
        }
    }
}

/// A one-edit mutation of `s` (substitute, insert or delete one letter); may equal `s` rarely.
pub fn mutate(rng: &mut Rng, s: &[u8], alphabet: &[u8]) -> Vec<u8> {
    let mut t = s.to_vec();
    let c = alphabet[rng.index(alphabet.len())];
    match rng.index(3) {
        0 if !t.is_empty() => {
            let i = rng.index(t.len());
            t[i] = c;
        }
        1 if !t.is_empty() => {
            t.remove(rng.index(t.len()));
        }
        _ => t.insert(rng.index(t.len() + 1), c),
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_renders_and_matches() {
        let ab = b"ab";
        let re = parse("(ab|b)*a+", ab).unwrap();
        assert_eq!(render(&re), "(ab|b)*a+");
        for yes in ["a", "aba", "bbaaa", "abbaba"] {
            assert!(matches(&re, yes.as_bytes()), "{yes}");
        }
        for no in ["", "b", "abab", "aab"] {
            assert!(!matches(&re, no.as_bytes()), "{no}");
        }
        assert!(matches(&parse("a?b?", ab).unwrap(), b""));
        assert!(matches(&parse("(a*)*", ab).unwrap(), b"aaa"));
        for bad in ["", "a|", "|a", "(a", "a)", "()", "*a", "a b", "c", "A", "a.b", &"(".repeat(100)] {
            assert!(parse(bad, ab).is_err(), "{bad}");
        }
    }

    #[test]
    fn samples_are_in_the_language() {
        let mut rng = Rng::new(5);
        for _ in 0..200 {
            let re = random(&mut rng, 3, b"abc");
            let again = parse(&render(&re), b"abc").unwrap();
            let mut s = Vec::new();
            sample(&mut rng, &re, &mut s);
            if s.len() <= MAX_LEN {
                assert!(matches(&re, &s) && matches(&again, &s), "{} {:?}", render(&re), s);
                let t = mutate(&mut rng, &s, b"abc");
                assert_eq!(matches(&re, &t), matches(&again, &t));
            }
        }
    }
}
