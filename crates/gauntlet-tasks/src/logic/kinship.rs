//! Kinship: name the family relation between two people of a generated family tree.
//!
//! **Generates** a family over two to four generations: a founding couple, their children, the
//! children's spouses (from outside the family) and their children in turn. The prompt lists the
//! facts in shuffled order — marriages, and for every child *one* of its parents (the other follows
//! from the marriage) — and asks what one person is to another. Relations are computed from the
//! tree by the definitions stated in the prompt (parent, child, sibling, spouse, grandparent and
//! great-grandparent, grandchild and great-grandchild, uncle/aunt including by marriage,
//! nephew/niece, cousin, parent-, child- and sibling-in-law); a question is kept only when
//! exactly one relation word applies.
//!
//! **Verifies** `n: relation` for every question (strict `name: value` grammar; relation words as
//! listed, case-insensitive) against the relations computed from the tree. 0/1.
//!
//! | level | generations | questions |
//! |---|---|---|
//! | 1 | 2 | 2 |
//! | 2 | 3 | 2 |
//! | 3 | 3 | 3 |
//! | 4 | 4 | 3 |
//! | 5 | 4 | 5, distant relations preferred |
//!
//! Level 5 is hard for frontier models: 25-odd people, facts shuffled and each child tied to only
//! one named parent, and questions about great-grandparents, cousins and in-laws that need chains
//! of three or four facts.
//!
//! **Example**: `Ann is married to Bob. Cal is the son of Ann. Dee is the daughter of Cal.` → Bob
//! is Dee's `grandfather`.
//!
//! **Failure modes**: a missing question is wrong; a word outside the list (`grandpa`), two words
//! or an unknown question number are unparsable.

use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The kinship family.
pub struct Kinship;

/// One person.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Person {
    /// First name (unique in the problem).
    pub name: String,
    /// Whether male (selects the gendered relation word).
    pub male: bool,
    /// Both parents, for people born into the family.
    pub parents: Option<(u8, u8)>,
    /// The spouse, if married.
    pub spouse: Option<u8>,
    /// The parent named in the prompt's fact about this person's birth.
    pub named_parent: Option<u8>,
}

/// One problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KinshipProblem {
    /// The people.
    pub people: Vec<Person>,
    /// Facts in listing order: `(person, is_marriage)` — a marriage of the person with their
    /// spouse, or the person's birth to their named parent.
    pub facts: Vec<(u8, bool)>,
    /// Questions `(a, b)`: what is `a` to `b`?
    pub questions: Vec<(u8, u8)>,
}

const MEN: &[&str] = &[
    "Adam", "Boris", "Carlos", "David", "Emil", "Felix", "George", "Henry", "Ivan", "Jack", "Karl", "Leon",
    "Marco", "Nico", "Oscar", "Peter", "Quentin", "Rafael", "Simon", "Tomas", "Victor", "Walter", "Yusuf",
    "Zane", "Arthur", "Bruno", "Conrad", "Dennis",
];
const WOMEN: &[&str] = &[
    "Alice", "Beatrice", "Clara", "Diana", "Eva", "Fiona", "Grace", "Hannah", "Irene", "Julia", "Kira",
    "Laura", "Maria", "Nora", "Olivia", "Paula", "Rita", "Sofia", "Tina", "Ursula", "Vera", "Wanda", "Yara",
    "Zoe", "Agnes", "Bianca", "Carmen", "Delia",
];

/// Relation words: (male form, female form).
const WORDS: [(&str, &str); 14] = [
    ("father", "mother"),
    ("son", "daughter"),
    ("brother", "sister"),
    ("husband", "wife"),
    ("grandfather", "grandmother"),
    ("grandson", "granddaughter"),
    ("great-grandfather", "great-grandmother"),
    ("great-grandson", "great-granddaughter"),
    ("uncle", "aunt"),
    ("nephew", "niece"),
    ("cousin", "cousin"),
    ("father-in-law", "mother-in-law"),
    ("son-in-law", "daughter-in-law"),
    ("brother-in-law", "sister-in-law"),
];

struct Tree<'a>(&'a [Person]);

impl Tree<'_> {
    fn parents(&self, x: usize) -> Vec<usize> {
        self.0[x].parents.map(|(a, b)| vec![a as usize, b as usize]).unwrap_or_default()
    }
    fn parents_of(&self, xs: &[usize]) -> Vec<usize> {
        xs.iter().flat_map(|&x| self.parents(x)).collect()
    }
    fn siblings(&self, x: usize) -> Vec<usize> {
        match self.0[x].parents {
            None => vec![],
            Some(p) => (0..self.0.len()).filter(|&y| y != x && self.0[y].parents == Some(p)).collect(),
        }
    }
    fn siblings_of(&self, xs: &[usize]) -> Vec<usize> {
        xs.iter().flat_map(|&x| self.siblings(x)).collect()
    }
    fn spouse(&self, x: usize) -> Vec<usize> {
        self.0[x].spouse.map(|s| vec![s as usize]).unwrap_or_default()
    }
    fn spouses_of(&self, xs: &[usize]) -> Vec<usize> {
        xs.iter().flat_map(|&x| self.spouse(x)).collect()
    }
    fn children(&self, x: usize) -> Vec<usize> {
        (0..self.0.len()).filter(|&y| self.parents(y).contains(&x)).collect()
    }

    /// The relation indices (into [`WORDS`]) that hold for "a is the ___ of b".
    fn relations(&self, a: usize, b: usize) -> Vec<usize> {
        if a == b {
            return vec![];
        }
        let pb = self.parents(b);
        let pa = self.parents(a);
        let uncles: Vec<usize> = {
            let s = self.siblings_of(&pb);
            let mut u = self.spouses_of(&s);
            u.extend(s);
            u
        };
        let nephew_of: Vec<usize> = {
            let s = self.siblings_of(&pa);
            let mut u = self.spouses_of(&s);
            u.extend(s);
            u
        };
        let sb = self.spouse(b);
        let in_law_sibs: Vec<usize> = {
            let mut v = self.siblings_of(&sb);
            v.extend(self.spouses_of(&self.siblings(b)));
            v
        };
        let tests = [
            pb.contains(&a),
            pa.contains(&b),
            self.siblings(b).contains(&a),
            sb.contains(&a),
            self.parents_of(&pb).contains(&a),
            self.parents_of(&pa).contains(&b),
            self.parents_of(&self.parents_of(&pb)).contains(&a),
            self.parents_of(&self.parents_of(&pa)).contains(&b),
            uncles.contains(&a),
            nephew_of.contains(&b),
            pa.iter().any(|p| self.siblings_of(&pb).contains(p)),
            self.parents_of(&sb).contains(&a),
            self.spouses_of(&self.children(b)).contains(&a),
            in_law_sibs.contains(&a),
        ];
        (0..tests.len()).filter(|&i| tests[i]).collect()
    }
}

fn well_formed(p: &KinshipProblem) -> bool {
    let n = p.people.len();
    let ok = |i: u8| (i as usize) < n;
    (2..=60).contains(&n)
        && p.people.iter().all(|x| {
            x.parents.is_none_or(|(a, b)| ok(a) && ok(b))
                && x.spouse.is_none_or(ok)
                && x.named_parent.is_none_or(ok)
        })
        && p.facts.iter().all(|f| ok(f.0))
        && !p.questions.is_empty()
        && p.questions.iter().all(|q| ok(q.0) && ok(q.1))
}

fn word(p: &KinshipProblem, a: usize, rel: usize) -> &'static str {
    if p.people[a].male {
        WORDS[rel].0
    } else {
        WORDS[rel].1
    }
}

fn build(rng: &mut Rng, generations: usize) -> (Vec<Person>, Vec<(u8, bool)>) {
    let mut men: Vec<&str> = MEN.to_vec();
    let mut women: Vec<&str> = WOMEN.to_vec();
    rng.shuffle(&mut men);
    rng.shuffle(&mut women);
    let mut people: Vec<Person> = Vec::new();
    let mut add = |people: &mut Vec<Person>, male: bool, parents: Option<(u8, u8)>| {
        let name = if male { men.pop() } else { women.pop() }.unwrap_or("Sam").to_string();
        people.push(Person { name, male, parents, spouse: None, named_parent: None });
        people.len() - 1
    };
    let marry = |people: &mut Vec<Person>, a: usize, b: usize| {
        people[a].spouse = Some(b as u8);
        people[b].spouse = Some(a as u8);
    };
    let (h, w) = (add(&mut people, true, None), add(&mut people, false, None));
    marry(&mut people, h, w);
    let mut couples = vec![(h, w)];
    for g in 1..generations {
        let mut next = Vec::new();
        for &(a, b) in &couples {
            let kids = 1 + rng.index(if g + 1 == generations { 3 } else { 2 }) + usize::from(g == 1);
            for _ in 0..kids {
                let c = add(&mut people, rng.chance(0.5), Some((a as u8, b as u8)));
                people[c].named_parent = Some(if rng.chance(0.5) { a } else { b } as u8);
                if g + 1 < generations && rng.chance(0.75) {
                    let male = !people[c].male;
                    let s = add(&mut people, male, None);
                    marry(&mut people, c, s);
                    next.push(if people[c].male { (c, s) } else { (s, c) });
                }
            }
        }
        couples = next;
    }
    let mut facts: Vec<(u8, bool)> = Vec::new();
    for (i, x) in people.iter().enumerate() {
        if x.spouse.is_some_and(|s| (s as usize) > i) {
            facts.push((i as u8, true));
        }
        if x.parents.is_some() {
            facts.push((i as u8, false));
        }
    }
    rng.shuffle(&mut facts);
    (people, facts)
}

impl Task for Kinship {
    type Problem = KinshipProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "kinship",
            category: Category::Logic,
            description: "Name the relation between two people of a generated family tree (parents, cousins, in-laws, great-grandparents).",
            levels: [
                "2 generations, 2 questions",
                "3 generations, 2 questions",
                "3 generations, 3 questions",
                "4 generations, 3 questions",
                "4 generations, 5 questions, distant relations",
            ],
            answer_format: "every question's number with one relation word, comma-separated, e.g. `1: aunt, 2: grandson`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> KinshipProblem {
        let (generations, k) = d.pick([(2, 2), (3, 2), (3, 3), (4, 3), (4, 5)]);
        loop {
            let (people, facts) = build(rng, generations);
            let names_unique =
                (0..people.len()).all(|i| people[..i].iter().all(|q| q.name != people[i].name));
            if !names_unique {
                continue;
            }
            let t = Tree(&people);
            let n = people.len();
            let mut pairs: Vec<(usize, usize, usize)> = Vec::new();
            for a in 0..n {
                for b in 0..n {
                    if let [r] = t.relations(a, b)[..] {
                        pairs.push((a, b, r));
                    }
                }
            }
            rng.shuffle(&mut pairs);
            if d.level() == 5 {
                // Distant relations first: grand-, great-, cousins, uncles, in-laws.
                pairs.sort_by_key(|&(_, _, r)| usize::from(r < 4));
            }
            let mut questions: Vec<(u8, u8)> = Vec::new();
            let mut used = Vec::new();
            for (a, b, r) in pairs {
                if questions.len() == k {
                    break;
                }
                if !used.contains(&r) || used.len() >= WORDS.len() {
                    used.push(r);
                    questions.push((a as u8, b as u8));
                }
            }
            if questions.len() == k {
                return KinshipProblem { people, facts, questions };
            }
        }
    }

    fn prompt(&self, p: &KinshipProblem) -> String {
        if !well_formed(p) {
            return self.answer_instruction();
        }
        let name = |i: u8| p.people[i as usize].name.as_str();
        let mut s = String::from(
            "Facts about a family (a child of a married couple is the child of both spouses; nobody else \
             has children, and nobody in the family married twice):\n",
        );
        for &(i, marriage) in &p.facts {
            let x = &p.people[i as usize];
            if marriage {
                s += &format!("- {} is married to {}.\n", x.name, name(x.spouse.unwrap_or(i)));
            } else {
                let rel = if x.male { "son" } else { "daughter" };
                s += &format!("- {} is the {rel} of {}.\n", x.name, name(x.named_parent.unwrap_or(i)));
            }
        }
        s += "\nRelation words (\"X is the ___ of Y\"): father/mother, son/daughter, brother/sister (same \
              parents), husband/wife, grandfather/grandmother and grandson/granddaughter (two generations), \
              great-grandfather/great-grandmother and great-grandson/great-granddaughter (three), \
              uncle/aunt (a sibling of Y's parent, or the spouse of one), nephew/niece (the converse), \
              cousin (a child of a sibling of Y's parent), father-in-law/mother-in-law (a parent of Y's \
              spouse), son-in-law/daughter-in-law (the spouse of Y's child), brother-in-law/sister-in-law \
              (a sibling of Y's spouse, or the spouse of Y's sibling). Each question has exactly one \
              answer.\n\n";
        for (i, &(a, b)) in p.questions.iter().enumerate() {
            s += &format!("{}. What is {} to {}?\n", i + 1, name(a), name(b));
        }
        s + "\n" + &self.answer_instruction()
    }

    fn solve(&self, p: &KinshipProblem) -> String {
        if !well_formed(p) {
            return String::new();
        }
        let t = Tree(&p.people);
        p.questions
            .iter()
            .enumerate()
            .map(|(i, &(a, b))| {
                let r =
                    t.relations(a as usize, b as usize).first().map_or("cousin", |&r| word(p, a as usize, r));
                format!("{}: {r}", i + 1)
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn verify(&self, p: &KinshipProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem");
        }
        let parse = |v: &str| {
            let v = v.to_ascii_lowercase();
            WORDS.iter().flat_map(|(m, f)| [*m, *f]).find(|w| *w == v)
        };
        let got = match crate::logic::numbered(answer, p.questions.len(), parse) {
            Ok(g) => g,
            Err(s) => return s,
        };
        let t = Tree(&p.people);
        for (i, (&(a, b), w)) in p.questions.iter().zip(&got).enumerate() {
            let ok = t.relations(a as usize, b as usize).iter().any(|&r| word(p, a as usize, r) == *w);
            if !ok {
                return Score::wrong(format!(
                    "question {}: {} is not {w} of {}",
                    i + 1,
                    p.people[a as usize].name,
                    p.people[b as usize].name
                ));
            }
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person(name: &str, male: bool, parents: Option<(u8, u8)>, spouse: Option<u8>) -> Person {
        Person { name: name.into(), male, parents, spouse, named_parent: parents.map(|p| p.1) }
    }

    #[test]
    fn example_from_the_docs() {
        let people = vec![
            person("Ann", false, None, Some(1)),
            person("Bob", true, None, Some(0)),
            person("Cal", true, Some((1, 0)), Some(4)),
            person("Dee", false, Some((2, 4)), None),
            person("Eve", false, None, Some(2)),
            person("Fay", false, Some((1, 0)), None),
        ];
        let p = KinshipProblem {
            people,
            facts: vec![(0, true), (2, false), (3, false), (2, true), (5, false)],
            questions: vec![(1, 3), (5, 3), (4, 5)],
        };
        let t = Kinship;
        assert_eq!(t.solve(&p), "1: grandfather, 2: aunt, 3: sister-in-law");
        assert!(t.verify(&p, "1: Grandfather\n2: aunt\n3: sister-in-law").correct);
        assert!(!t.verify(&p, "1: father, 2: aunt, 3: sister-in-law").correct);
        assert!(!t.verify(&p, "1: grandmother, 2: aunt, 3: sister-in-law").correct);
        for bad in [
            "1: grandfather or father, 2: aunt, 3: sister-in-law",
            "1: grandpa, 2: aunt, 3: sister-in-law",
            "1: grandfather, 2: aunt, 3: sister-in-law, 4: aunt",
        ] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn generated_questions_have_one_relation() {
        for d in Difficulty::all() {
            for seed in 0..20 {
                let p = Kinship.generate(seed, d);
                let t = Tree(&p.people);
                for &(a, b) in &p.questions {
                    assert_eq!(t.relations(a as usize, b as usize).len(), 1);
                }
                assert!(Kinship.verify(&p, &Kinship.solve(&p)).correct);
            }
        }
    }
}
