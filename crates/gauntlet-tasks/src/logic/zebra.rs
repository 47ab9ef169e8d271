//! Zebra (Einstein) puzzle: fill in a houses × attributes table from clues.
//!
//! **Generates** `n` houses in a row and `k` attributes (name, color, pet, drink, …, each with `n`
//! values drawn from a larger pool), a random solution, then random *true* clues (a value in / not
//! in a house, two values in the same / different houses, directly left of, next to, somewhere left
//! of) until the solver (bitmask constraint propagation + backtracking, see
//! [`zebra_solver`](crate::logic::zebra_solver)) proves the solution unique. Then every clue is
//! tried for removal in random order and dropped when the solution stays unique, so the final
//! clue set is minimal. After 400 clues a deterministic fallback adds "X lives in house h" clues.
//!
//! **Verifies** that the answer is a complete table (every house has one value of each attribute,
//! every value used exactly once) that satisfies every clue. The solution is unique, so this is
//! equivalent to correctness. Scoring is 0/1: a table copied from the prompt's value lists
//! already satisfies some clues, so credit for a clue fraction would pay a copied prompt.
//!
//! | level | houses × attributes | clue mix |
//! |---|---|---|
//! | 1 | 3 × 3 | many position and same-house clues |
//! | 2 | 4 × 3 | as level 1 |
//! | 3 | 4 × 4 | more relative clues (next to, left of) |
//! | 4 | 5 × 5 | mostly relative and negative clues |
//! | 5 | 6 × 5 | as level 4 |
//!
//! **Example** (2 × 2): "Alice lives in house 1. Bob is the cat owner." Answer:
//! `1: Alice, dog` / `2: Bob, cat`.
//!
//! **Answer grammar** (strict, shared policy of `gauntlet_core::answer`): one `house: value,
//! value, …` line per house. A line without a house number, an unknown word, two values of one
//! attribute on a line (`Alice or Bob`, `Alice/Bob`) and a house listed twice are unparsable; a
//! missing value is wrong.

use crate::logic::zebra_solver::{random_clue, Clue, Item, Solver};
use crate::logic::{capitalise, words};
use crate::overrides::{Overridable, Overrides};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The zebra puzzle family.
pub struct Zebra;

/// One attribute: its name and its values (one per house).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Attribute {
    /// Attribute name (`color`).
    pub name: String,
    /// The values, in the order the prompt lists them.
    pub values: Vec<String>,
}

/// One zebra problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ZebraProblem {
    /// Number of houses.
    pub houses: u8,
    /// The attributes (each with `houses` values).
    pub attributes: Vec<Attribute>,
    /// The clues; the solution they determine is unique.
    pub clues: Vec<Clue>,
}

struct Cat {
    name: &'static str,
    /// How a clue refers to the person with a value (`{}` is the value).
    phrase: &'static str,
    values: &'static [&'static str],
}

const CATS: &[Cat] = &[
    Cat {
        name: "name",
        phrase: "{}",
        values: &["Alice", "Bob", "Carol", "David", "Emma", "Felix", "Grace", "Henry"],
    },
    Cat {
        name: "color",
        phrase: "the person in the {} house",
        values: &["red", "green", "blue", "yellow", "white", "purple", "orange", "pink"],
    },
    Cat {
        name: "pet",
        phrase: "the {} owner",
        values: &["dog", "cat", "bird", "fish", "horse", "rabbit", "hamster", "turtle"],
    },
    Cat {
        name: "drink",
        phrase: "the {} drinker",
        values: &["tea", "coffee", "milk", "water", "juice", "soda", "cocoa", "lemonade"],
    },
    Cat {
        name: "food",
        phrase: "the person who eats {}",
        values: &["pizza", "pasta", "sushi", "curry", "salad", "tacos", "soup", "burgers"],
    },
    Cat {
        name: "sport",
        phrase: "the person who plays {}",
        values: &["tennis", "soccer", "golf", "hockey", "rugby", "cricket", "baseball", "volleyball"],
    },
    Cat {
        name: "music",
        phrase: "the {} fan",
        values: &["jazz", "rock", "blues", "reggae", "techno", "opera", "punk", "folk"],
    },
    Cat {
        name: "job",
        phrase: "the {}",
        values: &["doctor", "teacher", "baker", "pilot", "lawyer", "farmer", "nurse", "artist"],
    },
    Cat {
        name: "nationality",
        phrase: "the {}",
        values: &["Brit", "Swede", "Dane", "Norwegian", "German", "Spaniard", "Italian", "Greek"],
    },
    Cat {
        name: "flower",
        phrase: "the person who grows {}",
        values: &["roses", "tulips", "lilies", "daisies", "orchids", "violets", "irises", "peonies"],
    },
];

/// Clue weights by level: at, not at, same, not same, left of, next to, before.
const WEIGHTS: [[u32; 7]; 5] = [
    [3, 1, 4, 1, 2, 2, 1],
    [3, 1, 4, 1, 2, 2, 1],
    [1, 1, 4, 2, 2, 3, 2],
    [1, 2, 4, 2, 2, 3, 2],
    [1, 2, 4, 2, 2, 3, 2],
];

impl ZebraProblem {
    /// Whether sizes and indices are consistent (a deserialized problem may not be).
    fn well_formed(&self) -> bool {
        let n = self.houses as usize;
        let mut seen: Vec<String> = Vec::new();
        for a in &self.attributes {
            for v in &a.values {
                let v = v.to_ascii_lowercase();
                if words(&v, 2).len() != 1 || v.chars().all(|c| c.is_ascii_digit()) || seen.contains(&v) {
                    return false;
                }
                seen.push(v);
            }
        }
        self.attributes.iter().all(|a| a.values.len() == n)
            && Solver::new(n, self.attributes.len(), &self.clues).is_some()
    }

    fn phrase(&self, i: Item) -> String {
        let Some(a) = self.attributes.get(i.0 as usize) else { return "someone".into() };
        let template = CATS.iter().find(|c| c.name == a.name).map_or("the person with {}", |c| c.phrase);
        template.replace("{}", a.values.get(i.1 as usize).map_or("?", |v| v.as_str()))
    }

    fn render_clue(&self, c: &Clue) -> String {
        let is_name = |i: Item| self.attributes.get(i.0 as usize).is_some_and(|a| a.name == "name");
        let (x, y) = c.items();
        let (px, py) = (self.phrase(x), y.map(|y| self.phrase(y)).unwrap_or_default());
        let s = match *c {
            Clue::At(_, h) => format!("{px} lives in house {}", h + 1),
            Clue::NotAt(_, h) => format!("{px} does not live in house {}", h + 1),
            Clue::Same(x, _) if is_name(x) => format!("{px} is {py}"),
            Clue::Same(_, y) if is_name(y) => format!("{py} is {px}"),
            Clue::Same(..) => format!("{px} and {py} live in the same house"),
            Clue::NotSame(x, _) if is_name(x) => format!("{px} is not {py}"),
            Clue::NotSame(_, y) if is_name(y) => format!("{py} is not {px}"),
            Clue::NotSame(..) => format!("{px} and {py} live in different houses"),
            Clue::LeftOf(..) => format!("{px} lives directly left of {py}"),
            Clue::NextTo(..) => format!("{px} and {py} live next to each other"),
            Clue::Before(..) => format!("{px} lives somewhere to the left of {py}"),
        };
        capitalise(&s) + "."
    }
}

fn generate(rng: &mut Rng, n: usize, k: usize, w: &[u32; 7]) -> (Vec<Attribute>, Vec<Clue>) {
    let mut cats = rng.sample_indices(CATS.len(), k);
    // "name" reads best first when present.
    if let Some(i) = cats.iter().position(|&c| c == 0) {
        cats.swap(0, i);
    }
    let attributes: Vec<Attribute> = cats
        .iter()
        .map(|&c| Attribute {
            name: CATS[c].name.into(),
            values: rng
                .sample_indices(CATS[c].values.len(), n)
                .into_iter()
                .map(|i| CATS[c].values[i].into())
                .collect(),
        })
        .collect();
    let sol: Vec<Vec<u8>> =
        (0..k).map(|_| rng.permutation(n).into_iter().map(|h| h as u8).collect()).collect();
    let mut clues: Vec<Clue> = Vec::new();
    loop {
        let sols = Solver::new(n, k, &clues).map(|s| s.solutions(2)).unwrap_or_default();
        let Some(alt) = sols.iter().find(|s| **s != sol) else { break };
        if clues.len() >= 400 {
            // Fallback: pin every value of every attribute but the first.
            for a in 1..k {
                for v in 0..n {
                    clues.push(Clue::At(Item(a as u8, v as u8), sol[a][v]));
                }
            }
            continue;
        }
        // A new true clue, preferably one that rules out the alternative solution found.
        for t in 0..40 {
            let c = random_clue(rng, &sol, n, w);
            if !clues.contains(&c) && (t == 39 || !c.holds(|i| alt[i.0 as usize][i.1 as usize] as usize)) {
                clues.push(c);
                break;
            }
        }
    }
    // Drop clues implied by the others (no solution of the others breaks them), in random order.
    let mut keep = vec![true; clues.len()];
    let mut others = Vec::with_capacity(clues.len());
    for i in rng.permutation(clues.len()) {
        others.clear();
        others.extend(clues.iter().enumerate().filter(|&(j, _)| keep[j] && j != i).map(|(_, c)| *c));
        if Solver::new(n, k, &others).is_some_and(|s| s.breaking(clues[i]).count(1) == 0) {
            keep[i] = false;
        }
    }
    let mut clues: Vec<Clue> = clues.into_iter().zip(keep).filter(|(_, k)| *k).map(|(c, _)| c).collect();
    rng.shuffle(&mut clues);
    (attributes, clues)
}

/// Parse one line per house (`2: Bob, cat`) strictly into `table[house][attribute]`: every
/// non-blank line is a house number, a colon and comma-separated values of the problem (any
/// order, case-insensitive), each attribute at most once; anything else is an error.
pub fn parse_table(p: &ZebraProblem, answer: &str) -> Result<Vec<Vec<Option<u8>>>, String> {
    use crate::common::clip;
    let n = p.houses as usize;
    // (attribute, value) of a word, case-insensitively; the first match in the puzzle's order.
    let lookup = |word: &str| {
        p.attributes
            .iter()
            .enumerate()
            .find_map(|(a, at)| at.values.iter().position(|s| s.eq_ignore_ascii_case(word)).map(|v| (a, v)))
    };
    let mut table = vec![vec![None; p.attributes.len()]; n];
    let mut listed = vec![false; n];
    for line in answer.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let Some((number, values)) = line.split_once(':') else {
            return Err(format!("line `{}` is not `house: values`", clip(line, 30)));
        };
        let h = number.trim().parse::<usize>().ok().filter(|h| (1..=n).contains(h));
        let Some(h) = h else {
            return Err(format!("`{}` is not a house number (1 to {n})", clip(number.trim(), 10)));
        };
        if std::mem::replace(&mut listed[h - 1], true) {
            return Err(format!("house {h} is listed twice"));
        }
        for word in values.split(',').map(str::trim) {
            let Some((a, v)) = lookup(word) else {
                return Err(format!("house {h}: `{}` is not a value of the puzzle", clip(word, 20)));
            };
            if let Some(old) = table[h - 1][a].replace(v as u8) {
                let other = &p.attributes[a].values[old as usize];
                return Err(format!("house {h} has two {}s: {other} and {word}", p.attributes[a].name));
            }
        }
    }
    if !listed.iter().any(|l| *l) {
        return Err("no lines like `1: value, value, …` found".into());
    }
    Ok(table)
}

impl Task for Zebra {
    type Problem = ZebraProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "zebra",
            category: Category::Logic,
            description:
                "Solve an Einstein (zebra) puzzle: assign every attribute value to a house from clues.",
            levels: [
                "3 houses × 3 attributes, many position/same-house clues",
                "4 houses × 3 attributes",
                "4 houses × 4 attributes, more relative clues",
                "5 houses × 5 attributes, mostly relative and negative clues",
                "6 houses × 5 attributes",
            ],
            answer_format: "one line per house, the house number, a colon, then its values in the attribute \
                            order given, comma-separated, e.g. `1: Alice, red, dog`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> ZebraProblem {
        self.sample_with(rng, d, &Overrides::NONE)
    }

    fn prompt(&self, p: &ZebraProblem) -> String {
        let n = p.houses;
        let mut s = format!(
            "There are {n} houses in a row, numbered 1 to {n} from left to right. Each house has one \
             occupant, and each attribute below takes each of its values in exactly one house:\n"
        );
        for a in &p.attributes {
            s += &format!("- {}: {}\n", a.name, a.values.join(", "));
        }
        s += "\nClues:\n";
        for (i, c) in p.clues.iter().enumerate() {
            s += &format!("{}. {}\n", i + 1, p.render_clue(c));
        }
        let order: Vec<&str> = p.attributes.iter().map(|a| a.name.as_str()).collect();
        s += &format!(
            "\n\"Directly left of\" means in the house numbered one less; \"somewhere to the left of\" means \
             in any lower-numbered house; \"next to each other\" means in adjacent houses. The clues \
             determine exactly one solution. Give the full table: one line per house, `house: {}`.\n\n",
            order.iter().map(|o| format!("<{o}>")).collect::<Vec<_>>().join(", ")
        );
        s + &self.answer_instruction()
    }

    fn solve(&self, p: &ZebraProblem) -> String {
        let n = p.houses as usize;
        if !p.well_formed() {
            return String::new();
        }
        let Some(sol) = Solver::new(n, p.attributes.len(), &p.clues).and_then(|s| s.solutions(1).pop())
        else {
            return String::new();
        };
        (0..n)
            .map(|h| {
                let vals: Vec<&str> = p
                    .attributes
                    .iter()
                    .zip(&sol)
                    .map(|(a, s)| {
                        s.iter().position(|&x| x as usize == h).map_or("?", |v| a.values[v].as_str())
                    })
                    .collect();
                format!("{}: {}", h + 1, vals.join(", "))
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn verify(&self, p: &ZebraProblem, answer: &str) -> Score {
        if !p.well_formed() {
            return Score::wrong("malformed problem");
        }
        let n = p.houses as usize;
        let table = match parse_table(p, answer) {
            Ok(t) => t,
            Err(e) => return Score::unparsable(e),
        };
        // house_of[a][v]: where the answer puts each value.
        let mut house_of = vec![vec![usize::MAX; n]; p.attributes.len()];
        for (h, row) in table.iter().enumerate() {
            for (a, cell) in row.iter().enumerate() {
                let Some(v) = *cell else {
                    return Score::wrong(format!("house {} has no {}", h + 1, p.attributes[a].name));
                };
                let slot = &mut house_of[a][v as usize];
                if *slot != usize::MAX {
                    let name = &p.attributes[a].values[v as usize];
                    return Score::wrong(format!("{name} is in houses {} and {}", *slot + 1, h + 1));
                }
                *slot = h;
            }
        }
        let broken: Vec<usize> = (0..p.clues.len())
            .filter(|&i| !p.clues[i].holds(|it| house_of[it.0 as usize][it.1 as usize]))
            .collect();
        match broken.first() {
            None => Score::correct(),
            Some(&c) => Score::wrong(format!(
                "clue {} is broken ({} of {} broken): {}",
                c + 1,
                broken.len(),
                p.clues.len(),
                p.render_clue(&p.clues[c])
            )),
        }
    }
}

impl Overridable for Zebra {
    /// `people` (houses) and `characteristics` (attributes); the level keeps the kinds of clue.
    fn sample_with(&self, rng: &mut Rng, d: Difficulty, o: &Overrides) -> ZebraProblem {
        let (mut n, mut k) = d.pick([(3, 3), (4, 3), (4, 4), (5, 5), (6, 5)]);
        if let Some(v) = o.draw("people", rng) {
            n = v as usize;
        }
        if let Some(v) = o.draw("characteristics", rng) {
            k = v as usize;
        }
        let (attributes, clues) = generate(rng, n, k, &WEIGHTS[d.index()]);
        ZebraProblem { houses: n as u8, attributes, clues }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> ZebraProblem {
        let attr =
            |name: &str, v: [&str; 2]| Attribute { name: name.into(), values: v.map(String::from).to_vec() };
        ZebraProblem {
            houses: 2,
            attributes: vec![attr("name", ["Alice", "Bob"]), attr("pet", ["dog", "cat"])],
            clues: vec![Clue::At(Item(0, 0), 0), Clue::Same(Item(0, 1), Item(1, 1))],
        }
    }

    #[test]
    fn example_from_the_docs() {
        let p = example();
        let prompt = Zebra.prompt(&p);
        assert!(prompt.contains("1. Alice lives in house 1.\n2. Bob is the cat owner."), "{prompt}");
        assert_eq!(Zebra.solve(&p), "1: Alice, dog\n2: Bob, cat");
        assert!(Zebra.verify(&p, "2: cat, BOB\n\n1: dog, Alice").correct);
        for bad in [
            "House 2: cat, BOB\nHouse 1: dog, Alice",
            "| House | name | pet |\n|---|---|---|\n| 1 | Alice | dog |\n| 2 | Bob | cat |",
            "1: Alice or Bob, dog\n2: Bob, cat",
            "1: Alice/Bob, dog\n2: Bob, cat",
            "1: Alice, dog\n2: Bob, cat\nDone",
            "1: Alice, dog, tall\n2: Bob, cat",
        ] {
            assert!(Zebra.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn wrong_answers_say_why() {
        let p = example();
        let s = Zebra.verify(&p, "1: Alice, cat\n2: Bob, dog");
        assert!(!s.correct && s.reward == 0.0 && s.reason.contains("clue 2 is broken"), "{s:?}");
        assert_eq!(Zebra.verify(&p, "1: Alice, dog\n2: Bob").reason, "house 2 has no pet");
        assert_eq!(Zebra.verify(&p, "1: Alice, dog\n2: Bob, dog").reason, "dog is in houses 1 and 2");
        assert!(Zebra.verify(&p, "1: Alice, dog, cat").reason.contains("house 1 has two pets"));
        assert!(Zebra.verify(&p, "1: Alice, dog\n1: Bob, cat").reason.contains("listed twice"));
        assert!(Zebra.verify(&p, "Alice, dog").reason.contains("not `house: values`"));
        assert!(Zebra.verify(&p, "3: Alice, dog").reason.contains("`3` is not a house number"));
        assert!(Zebra.verify(&p, "zebra").is_format_error());
    }

    #[test]
    fn generated_puzzles_are_unique_and_minimal() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..8 {
                let p = Zebra.generate(seed, d);
                let (n, k) = (p.houses as usize, p.attributes.len());
                assert_eq!(Solver::new(n, k, &p.clues).unwrap().count(5), 1, "L{level} seed {seed}");
                for i in 0..p.clues.len() {
                    let mut fewer = p.clues.clone();
                    fewer.remove(i);
                    assert!(Solver::new(n, k, &fewer).unwrap().count(2) > 1, "clue {i} is redundant");
                }
                assert!(Zebra.verify(&p, &Zebra.solve(&p)).correct);
            }
        }
    }

    #[test]
    fn random_tables_earn_little() {
        let d = Difficulty::new(4).unwrap();
        let mut rng = Rng::new(5);
        let mut total = 0.0;
        for seed in 0..50 {
            let p = Zebra.generate(seed, d);
            let n = p.houses as usize;
            let cols: Vec<Vec<usize>> = p.attributes.iter().map(|_| rng.permutation(n)).collect();
            let table: Vec<String> = (0..n)
                .map(|h| {
                    let vals: Vec<&str> =
                        p.attributes.iter().zip(&cols).map(|(a, c)| a.values[c[h]].as_str()).collect();
                    format!("{}: {}", h + 1, vals.join(", "))
                })
                .collect();
            total += Zebra.verify(&p, &table.join("\n")).reward;
        }
        assert!(total / 50.0 < 0.1, "random tables average {}", total / 50.0);
    }
}
