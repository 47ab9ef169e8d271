//! Web of lies: who tells the truth when people make claims about each other's honesty.
//!
//! **Generates** `n` people, each either always truthful or always lying (a hidden assignment).
//! One person's status is stated as a fact; everyone else makes one claim about how many of some
//! other people lie (`X lies`, `X tells the truth`, `exactly one of X and Y lies`, `both X and Y
//! lie`, `at least one of X, Y lies`, `an odd number of X, Y, Z lie`, …). A claim is true for a
//! truthful speaker and false for a liar. At levels 1–2 every claim is about earlier people (a
//! chain, solvable by propagation); from level 3 claims point anywhere, including forwards and in
//! cycles. The generator keeps only instances whose solution is **unique**, by enumerating all
//! `2^n` assignments.
//!
//! **Verifies** `Name: truth|lie` for every person (strict `name: value` grammar) by checking
//! the fact and every claim under the answer. Since the solution is unique, this is the same as
//! comparing with it. 0/1.
//!
//! | level | people | claims about |
//! |---|---|---|
//! | 1 | 4 | one earlier person |
//! | 2 | 6 | one or two earlier people |
//! | 3 | 7 | one or two people, anywhere |
//! | 4 | 9 | one to three people, anywhere |
//! | 5 | 12 | two or three people, anywhere, with parity claims |
//!
//! Level 5 is hard for frontier models: twelve people with cyclic two- and three-person claims
//! (parity, at most, at least) admit no chain of propagation; the model has to search.
//!
//! **Example**: `Ann tells the truth. Bob says Ann lies. Cid says Bob lies.` → `Ann: truth, Bob:
//! lie, Cid: truth`.
//!
//! **Failure modes**: a missing person is wrong; `truth or lie`, `liar`, unknown names are
//! unparsable.

use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The web-of-lies family.
pub struct WebOfLies;

/// What a claim says about the number of liars among its subjects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Count {
    /// Exactly this many lie.
    Exactly(u8),
    /// At least this many lie.
    AtLeast(u8),
    /// At most this many lie.
    AtMost(u8),
    /// An odd number lie.
    Odd,
}

/// One person's claim.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Claim {
    /// Who speaks.
    pub speaker: u8,
    /// Whom the claim is about.
    pub about: Vec<u8>,
    /// How many of them lie, per the claim.
    pub count: Count,
}

/// One problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WebOfLiesProblem {
    /// Names of the people.
    pub names: Vec<String>,
    /// The person whose status is given, and whether they are truthful.
    pub fact: (u8, bool),
    /// The claims, in listing order.
    pub claims: Vec<Claim>,
}

const NAMES: &[&str] = &[
    "Alice", "Bruno", "Carmen", "Dmitri", "Elena", "Farid", "Greta", "Hiro", "Ines", "Jonas", "Keiko",
    "Luis", "Mara", "Nils", "Olga", "Pavel", "Quinn", "Rosa", "Sanjay", "Tara", "Umar", "Vera", "Wendell",
    "Ximena",
];

fn holds(c: &Claim, truthful: u32) -> bool {
    let liars = c.about.iter().filter(|&&a| truthful >> a & 1 == 0).count() as u8;
    match c.count {
        Count::Exactly(k) => liars == k,
        Count::AtLeast(k) => liars >= k,
        Count::AtMost(k) => liars <= k,
        Count::Odd => liars % 2 == 1,
    }
}

/// Whether `truthful` (bit `i`: person `i` tells the truth) is consistent with the problem.
fn consistent(p: &WebOfLiesProblem, truthful: u32) -> bool {
    (truthful >> p.fact.0 & 1 == 1) == p.fact.1
        && p.claims.iter().all(|c| holds(c, truthful) == (truthful >> c.speaker & 1 == 1))
}

/// Up to `limit` consistent assignments.
fn solutions(p: &WebOfLiesProblem, limit: usize) -> Vec<u32> {
    let n = p.names.len().min(20);
    (0..1u32 << n).filter(|&t| consistent(p, t)).take(limit).collect()
}

fn well_formed(p: &WebOfLiesProblem) -> bool {
    let n = p.names.len();
    (2..=20).contains(&n)
        && (p.fact.0 as usize) < n
        && p.claims.iter().all(|c| (c.speaker as usize) < n && c.about.iter().all(|&a| (a as usize) < n))
}

fn draw_claim(rng: &mut Rng, speaker: usize, n: usize, level: u8) -> Claim {
    let size = match level {
        1 => 1,
        2 | 3 => 1 + rng.index(2),
        4 => 1 + rng.index(3),
        _ => 2 + rng.index(2),
    };
    let pool: Vec<usize> =
        if level <= 2 { (0..speaker).collect() } else { (0..n).filter(|&i| i != speaker).collect() };
    let size = size.min(pool.len()).max(1);
    let about: Vec<u8> = rng.sample_indices(pool.len(), size).into_iter().map(|i| pool[i] as u8).collect();
    let k = size as u8;
    let count = match (size, rng.index(4)) {
        (1, x) => Count::Exactly((x % 2) as u8),
        (_, 0) => Count::Exactly(rng.index(size + 1) as u8),
        (_, 1) => Count::AtLeast(1 + rng.index(size) as u8),
        (_, 2) => Count::AtMost(rng.index(size) as u8),
        _ if level >= 5 => Count::Odd,
        _ => Count::Exactly(k),
    };
    Claim { speaker: speaker as u8, about, count }
}

fn list(names: &[&str]) -> String {
    match names {
        [a] => a.to_string(),
        [a, b] => format!("{a} and {b}"),
        _ => format!("{} and {}", names[..names.len() - 1].join(", "), names[names.len() - 1]),
    }
}

fn render(c: &Claim, names: &[String]) -> String {
    let who: Vec<&str> = c.about.iter().map(|&a| names[a as usize].as_str()).collect();
    let speaker = &names[c.speaker as usize];
    let n = who.len() as u8;
    let what = match (n, c.count) {
        (1, Count::Exactly(0)) => format!("{} tells the truth", who[0]),
        (1, _) => format!("{} lies", who[0]),
        (2, Count::Exactly(0)) => format!("neither {} nor {} lies", who[0], who[1]),
        (_, Count::Exactly(0)) => format!("none of {} lies", list(&who)),
        (2, Count::Exactly(2)) => format!("both {} lie", list(&who)),
        (_, Count::Exactly(k)) if k == n => format!("all of {} lie", list(&who)),
        (_, Count::Exactly(1)) => format!("exactly one of {} lies", list(&who)),
        (_, Count::Exactly(k)) => format!("exactly {k} of {} lie", list(&who)),
        (_, Count::AtLeast(1)) => format!("at least one of {} lies", list(&who)),
        (_, Count::AtLeast(k)) => format!("at least {k} of {} lie", list(&who)),
        (_, Count::AtMost(0)) => format!("none of {} lies", list(&who)),
        (_, Count::AtMost(1)) => format!("at most one of {} lies", list(&who)),
        (_, Count::AtMost(k)) => format!("at most {k} of {} lie", list(&who)),
        (_, Count::Odd) => format!("an odd number of {} lie", list(&who)),
    };
    format!("{speaker} says: \"{what}.\"")
}

impl Task for WebOfLies {
    type Problem = WebOfLiesProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "web_of_lies",
            category: Category::Logic,
            description: "Truth-tellers and liars making claims about how many of the others lie; find everyone's status (unique).",
            levels: [
                "4 people, claims about one earlier person",
                "6 people, claims about one or two earlier people",
                "7 people, claims about anyone",
                "9 people, claims about up to three people",
                "12 people, two- and three-person claims with parity",
            ],
            answer_format: "every person with truth or lie, comma-separated, e.g. `Alice: truth, Bruno: lie`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> WebOfLiesProblem {
        let n = d.pick([4, 6, 7, 9, 12]);
        loop {
            let names: Vec<String> =
                rng.sample_indices(NAMES.len(), n).into_iter().map(|i| NAMES[i].to_string()).collect();
            let hidden = rng.below(1 << n) as u32;
            let fact = (0u8, hidden & 1 == 1);
            let mut claims: Vec<Claim> = (1..n)
                .map(|s| loop {
                    let c = draw_claim(rng, s, n, d.level());
                    if holds(&c, hidden) == (hidden >> s & 1 == 1) {
                        break c;
                    }
                })
                .collect();
            if d.level() >= 3 {
                rng.shuffle(&mut claims);
            }
            let p = WebOfLiesProblem { names, fact, claims };
            if solutions(&p, 2).len() == 1 {
                return p;
            }
        }
    }

    fn prompt(&self, p: &WebOfLiesProblem) -> String {
        if !well_formed(p) {
            return self.answer_instruction();
        }
        let mut s = format!(
            "Each of {} either always tells the truth or always lies: everything a truth-teller says is \
             true and everything a liar says is false.\n\n",
            list(&p.names.iter().map(String::as_str).collect::<Vec<_>>())
        );
        let (f, t) = p.fact;
        s += &format!("{} {}.\n", p.names[f as usize], if t { "tells the truth" } else { "lies" });
        for c in &p.claims {
            s += &render(c, &p.names);
            s += "\n";
        }
        s += "\nWho tells the truth and who lies? (The answer is unique.)\n\n";
        s + &self.answer_instruction()
    }

    fn solve(&self, p: &WebOfLiesProblem) -> String {
        let t = if well_formed(p) { solutions(p, 1).first().copied().unwrap_or(0) } else { 0 };
        p.names
            .iter()
            .enumerate()
            .map(|(i, n)| format!("{n}: {}", if t >> i & 1 == 1 { "truth" } else { "lie" }))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn verify(&self, p: &WebOfLiesProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem");
        }
        let names: Vec<&str> = p.names.iter().map(String::as_str).collect();
        let word = |v: &str| match v.to_ascii_lowercase().as_str() {
            "truth" => Some(true),
            "lie" => Some(false),
            _ => None,
        };
        let got = match crate::logic::keyed(answer, &names, word) {
            Ok(g) => g,
            Err(s) => return s,
        };
        let t: u32 = got.iter().enumerate().map(|(i, &b)| u32::from(b) << i).sum();
        if (t >> p.fact.0 & 1 == 1) != p.fact.1 {
            return Score::wrong(format!("contradicts the given status of {}", names[p.fact.0 as usize]));
        }
        match p.claims.iter().find(|c| holds(c, t) != (t >> c.speaker & 1 == 1)) {
            None => Score::correct(),
            Some(c) => Score::wrong(format!(
                "{}'s claim does not fit: {}",
                names[c.speaker as usize],
                render(c, &p.names)
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> WebOfLiesProblem {
        WebOfLiesProblem {
            names: vec!["Ann".into(), "Bob".into(), "Cid".into()],
            fact: (0, true),
            claims: vec![
                Claim { speaker: 1, about: vec![0], count: Count::Exactly(1) },
                Claim { speaker: 2, about: vec![1], count: Count::Exactly(1) },
            ],
        }
    }

    #[test]
    fn example_from_the_docs() {
        let p = example();
        let t = WebOfLies;
        assert_eq!(t.solve(&p), "Ann: truth, Bob: lie, Cid: truth");
        assert!(t.verify(&p, "cid: TRUTH; bob: lie; ann: truth").correct);
        assert!(!t.verify(&p, "Ann: truth, Bob: truth, Cid: lie").correct);
        assert!(!t.verify(&p, "Ann: truth, Bob: lie").correct);
        for bad in [
            "Ann: truth, Bob: lie, Cid: truth or lie",
            "Ann: truth, Bob: liar, Cid: truth",
            "Ann: truth, Bob: lie, Cid: truth, Dan: lie",
        ] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
        assert!(render(&p.claims[0], &p.names).contains("Ann lies"));
    }

    #[test]
    fn generated_instances_are_unique() {
        for d in Difficulty::all() {
            for seed in 0..20 {
                let p = WebOfLies.generate(seed, d);
                assert_eq!(solutions(&p, 3).len(), 1);
                assert!(WebOfLies.verify(&p, &WebOfLies.solve(&p)).correct);
            }
        }
    }
}
