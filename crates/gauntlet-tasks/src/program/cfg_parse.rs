//! CFG parsing: give a parse tree of a sentence under a random context-free grammar.
//!
//! **Generates** a grammar over nonterminals `S A B C D E` (uppercase, `S` the start symbol) and
//! terminals `a b c d` (lowercase): every nonterminal has two or three productions with one to
//! three symbols on the right, one of them terminals only (so every derivation can end). A
//! sentence is derived at random from `S` (with a depth cap) until its length falls in the
//! level's range; that derivation is the oracle's answer. Grammars are often ambiguous, and any
//! parse tree is accepted.
//!
//! **Answers** are one bracketed tree, `(S (A a) b)`: a node is `(`, its nonterminal, its
//! children and `)`; a leaf is a terminal letter; tokens are separated by spaces or parentheses. Parsed
//! strictly: any other token (a word, `or`, `/`, a symbol the grammar does not have) or an
//! unbalanced parenthesis is unparsable.
//!
//! **Verifies** the tree: the root is `S`, every node's children (their labels or letters, in
//! order) are exactly the right side of one production of the node's nonterminal, and the leaves
//! read left to right are the sentence. 0/1; the reason names the first bad node.
//!
//! | level | nonterminals | terminals | sentence length |
//! |---|---|---|---|
//! | 1 | 2 | `ab` | 3–5 |
//! | 2 | 3 | `abc` | 5–7 |
//! | 3 | 4 | `abc` | 7–10 |
//! | 4 | 5 | `abcd` | 10–14 |
//! | 5 | 6 | `abcd` | 14–20 |
//!
//! **Example**: grammar `S -> A b | a`, `A -> a A | a`, sentence `a a b`: `(S (A a (A a)) b)`.
//!
//! **Failure modes**: choosing a production greedily and getting stuck, dropping or reordering a
//! leaf, using a production the nonterminal does not have; at level 5 a 6-symbol grammar and a
//! 14–20-letter sentence need a real search (a bottom-up chart), not a guess.

use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The CFG parsing family.
pub struct CfgParse;

/// One CFG parsing problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CfgParseProblem {
    /// Productions `(left, right)`; symbols are single letters, uppercase = nonterminal.
    pub rules: Vec<(char, String)>,
    /// The sentence (terminal letters).
    pub sentence: String,
    /// A parse tree found by the generator (the oracle's answer).
    pub tree: String,
}

const NONTERMINALS: [char; 6] = ['S', 'A', 'B', 'C', 'D', 'E'];

/// A parsed tree: a node with a label and children, or a leaf letter.
#[derive(Debug, Clone, PartialEq)]
enum Tree {
    Leaf(char),
    Node(char, Vec<Tree>),
}

fn params(d: Difficulty) -> (usize, &'static str, usize, usize) {
    d.pick([(2, "ab", 3, 5), (3, "abc", 5, 7), (4, "abc", 7, 10), (5, "abcd", 10, 14), (6, "abcd", 14, 20)])
}

fn grammar(rng: &mut Rng, nts: usize, terms: &[u8]) -> Vec<(char, String)> {
    let t = |rng: &mut Rng| terms[rng.index(terms.len())] as char;
    let mut rules = Vec::new();
    for &x in &NONTERMINALS[..nts] {
        let mut rhs: Vec<String> = vec![(0..1 + rng.index(2)).map(|_| t(rng)).collect()];
        while rhs.len() < 2 + rng.index(2) {
            let r: String = (0..1 + rng.index(3))
                .map(|_| if rng.chance(0.5) { t(rng) } else { NONTERMINALS[rng.index(nts)] })
                .collect();
            if !rhs.contains(&r) && r != x.to_string() {
                rhs.push(r);
            }
        }
        rng.shuffle(&mut rhs);
        rules.extend(rhs.into_iter().map(|r| (x, r)));
    }
    rules
}

fn derive(rng: &mut Rng, rules: &[(char, String)], x: char, depth: usize, out: &mut String) -> Tree {
    let mine: Vec<&String> = rules.iter().filter(|(l, _)| *l == x).map(|(_, r)| r).collect();
    let leafy: Vec<&String> =
        mine.iter().copied().filter(|r| r.chars().all(|c| c.is_ascii_lowercase())).collect();
    let pool = if depth == 0 || out.len() > 24 { &leafy } else { &mine };
    let Some(rhs) = rng.choose(pool).copied() else { return Tree::Node(x, Vec::new()) };
    let kids = rhs
        .chars()
        .map(|c| {
            if c.is_ascii_uppercase() {
                derive(rng, rules, c, depth.saturating_sub(1), out)
            } else {
                out.push(c);
                Tree::Leaf(c)
            }
        })
        .collect();
    Tree::Node(x, kids)
}

fn render(t: &Tree) -> String {
    match t {
        Tree::Leaf(c) => c.to_string(),
        Tree::Node(x, kids) => format!("({x} {})", kids.iter().map(render).collect::<Vec<_>>().join(" ")),
    }
}

/// Parse a bracketed tree strictly: labels are uppercase letters of `nts`, leaves lowercase
/// letters of `terms`.
fn parse_tree(text: &str, nts: &[char], terms: &[char]) -> Result<Tree, String> {
    let spaced = text.replace('(', " ( ").replace(')', " ) ");
    let toks: Vec<&str> = spaced.split_whitespace().collect();
    if toks.len() > 4000 {
        return Err("tree too large".into());
    }
    let mut i = 0;
    let t = node(&toks, &mut i, nts, terms, 0)?;
    if i != toks.len() {
        return Err(format!("unexpected `{}` after the tree", crate::common::clip(toks[i], 20)));
    }
    Ok(t)
}

fn node(toks: &[&str], i: &mut usize, nts: &[char], terms: &[char], depth: usize) -> Result<Tree, String> {
    if depth > 200 {
        return Err("tree nested too deeply".into());
    }
    let tok = *toks.get(*i).ok_or("the tree ends early")?;
    *i += 1;
    let single = |s: &str| -> Option<char> {
        let mut cs = s.chars();
        let c = cs.next()?;
        cs.next().is_none().then_some(c)
    };
    if tok != "(" {
        return match single(tok).filter(|c| terms.contains(c)) {
            Some(c) => Ok(Tree::Leaf(c)),
            None => Err(format!("`{}` is not a terminal or `(`", crate::common::clip(tok, 20))),
        };
    }
    let label = toks.get(*i).and_then(|t| single(t)).filter(|c| nts.contains(c));
    let label = label.ok_or_else(|| {
        format!("`(` must be followed by a nonterminal, got `{}`", toks.get(*i).map_or("", |t| t))
    })?;
    *i += 1;
    let mut kids = Vec::new();
    while toks.get(*i) != Some(&")") {
        if *i >= toks.len() {
            return Err("unbalanced parentheses".into());
        }
        kids.push(node(toks, i, nts, terms, depth + 1)?);
    }
    *i += 1;
    Ok(Tree::Node(label, kids))
}

/// Check every node against the productions and collect the leaves; `Err` names the bad node.
fn check(t: &Tree, rules: &[(char, String)], leaves: &mut String) -> Result<(), String> {
    match t {
        Tree::Leaf(c) => {
            leaves.push(*c);
            Ok(())
        }
        Tree::Node(x, kids) => {
            let rhs: String = kids
                .iter()
                .map(|k| match k {
                    Tree::Leaf(c) | Tree::Node(c, _) => *c,
                })
                .collect();
            if !rules.iter().any(|(l, r)| l == x && *r == rhs) {
                return Err(format!(
                    "`{x} -> {}` is not a production",
                    if rhs.is_empty() { "(nothing)".into() } else { spaced(&rhs) }
                ));
            }
            kids.iter().try_for_each(|k| check(k, rules, leaves))
        }
    }
}

fn spaced(s: &str) -> String {
    s.chars().map(String::from).collect::<Vec<_>>().join(" ")
}

fn symbols(p: &CfgParseProblem) -> (Vec<char>, Vec<char>) {
    let mut nts: Vec<char> = p.rules.iter().map(|(l, _)| *l).collect();
    nts.dedup();
    let mut terms: Vec<char> =
        p.rules.iter().flat_map(|(_, r)| r.chars()).filter(char::is_ascii_lowercase).collect();
    terms.sort_unstable();
    terms.dedup();
    (nts, terms)
}

impl Task for CfgParse {
    type Problem = CfgParseProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "cfg_parse",
            category: Category::Program,
            description: "Give a parse tree of a sentence under a random context-free grammar.",
            levels: [
                "2 nonterminals, terminals ab, sentence of 3-5 letters",
                "3 nonterminals, terminals abc, 5-7 letters",
                "4 nonterminals, terminals abc, 7-10 letters",
                "5 nonterminals, terminals abcd, 10-14 letters",
                "6 nonterminals, terminals abcd, 14-20 letters",
            ],
            answer_format:
                "one parse tree in brackets, each node written (NONTERMINAL children...), e.g. `(S (A a) b)`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> CfgParseProblem {
        let (nts, terms, lo, hi) = params(d);
        loop {
            let rules = grammar(rng, nts, terms.as_bytes());
            for _ in 0..50 {
                let mut sentence = String::new();
                let tree = derive(rng, &rules, 'S', 8, &mut sentence);
                if (lo..=hi).contains(&sentence.len()) {
                    return CfgParseProblem { rules, sentence: spaced(&sentence), tree: render(&tree) };
                }
            }
        }
    }

    fn prompt(&self, p: &CfgParseProblem) -> String {
        let (nts, _) = symbols(p);
        let lines: Vec<String> = nts
            .iter()
            .map(|x| {
                let alts: Vec<String> =
                    p.rules.iter().filter(|(l, _)| l == x).map(|(_, r)| spaced(r)).collect();
                format!("{x} -> {}", alts.join(" | "))
            })
            .collect();
        format!(
            "Context-free grammar (start symbol S; uppercase letters are nonterminals, lowercase letters are \
             terminals):\n{}\n\nSentence: {}\n\nGive a parse tree that derives exactly this sentence from S. Write a \
             node as an opening parenthesis, its nonterminal, its children in order and a closing parenthesis; write \
             a terminal as its letter. Every node's children must be exactly the right-hand side of one of its \
             nonterminal's productions.\n\n{}",
            lines.join("\n"),
            p.sentence,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &CfgParseProblem) -> String {
        p.tree.clone()
    }

    fn verify(&self, p: &CfgParseProblem, answer: &str) -> Score {
        let (nts, terms) = symbols(p);
        let tree = match parse_tree(answer, &nts, &terms) {
            Ok(t) => t,
            Err(e) => return Score::unparsable(e),
        };
        if !matches!(tree, Tree::Node('S', _)) {
            return Score::wrong("the root is not S");
        }
        let mut leaves = String::new();
        if let Err(e) = check(&tree, &p.rules, &mut leaves) {
            return Score::wrong(e);
        }
        if spaced(&leaves) != p.sentence {
            return Score::wrong(format!(
                "the tree derives `{}`, not the sentence",
                crate::common::clip(&spaced(&leaves), 60)
            ));
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> CfgParseProblem {
        let r = |l: char, s: &str| (l, s.to_string());
        CfgParseProblem {
            rules: vec![
                r('S', "Ab"),
                r('S', "a"),
                r('S', "aB"),
                r('A', "aA"),
                r('A', "a"),
                r('B', "ab"),
                r('B', "Ab"),
            ],
            sentence: "a a b".into(),
            tree: "(S (A a (A a)) b)".into(),
        }
    }

    #[test]
    fn example_from_the_docs() {
        let p = example();
        assert!(CfgParse.verify(&p, &CfgParse.solve(&p)).correct);
        // The grammar is ambiguous: S -> a B, B -> a b is another parse.
        assert!(CfgParse.verify(&p, "(S a (B a b))").correct);
        assert!(CfgParse.verify(&p, "(S a(B (A a) b))").correct);
        for near in
            ["(S (A a) b)", "(S (A a (A a)) a)", "(A (A a (A a)) b)", "(S (A a a) b)", "(S (B a (A a)) b)"]
        {
            let s = CfgParse.verify(&p, near);
            assert!(!s.correct && !s.is_format_error(), "{near}: {s:?}");
        }
        for bad in [
            "(S (A a (A a)) b",
            "(S (A a (A a)) b))",
            "(S (A a or b (A a)) b)",
            "(S/A a)",
            "S -> A b",
            "(S (A a (A a)) c)",
            "",
        ] {
            assert!(CfgParse.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn generated_sentences_have_the_level_length() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            let (_, _, lo, hi) = params(d);
            for seed in 0..30 {
                let p = CfgParse.generate(seed, d);
                let n = p.sentence.split(' ').count();
                assert!((lo..=hi).contains(&n), "L{level} seed {seed}: {n}");
                assert!(CfgParse.verify(&p, &p.tree).correct);
            }
        }
    }
}
