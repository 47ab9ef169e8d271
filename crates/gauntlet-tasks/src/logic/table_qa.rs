//! Table QA: questions over a generated markdown table of zoo animals (and, from level 4, a second
//! table joined on the species) that need a lookup, a filter and count, an argmax/argmin or a sum.
//!
//! **Generates** a table of animals with a name, a species, an age, a height and a weight (names
//! unique), and from level 4 a second table giving each species' keeper. Questions are drawn by
//! level: look up a cell; count the rows that meet conditions (`species = x`, `age > 5`,
//! `keeper = Sam` through the second table, joined with "and"); which animal has the largest or
//! smallest value of a column among those that meet conditions; the total of a column over them.
//! The rows a question selects are never empty, and an argmax/argmin question is kept only when
//! its extreme is reached by exactly one animal, so every answer is unique.
//!
//! **Verifies** `n: answer` for every question (the strict numbered `name: value` grammar): an
//! integer (`parse_int`) where the answer is a number, else one name from the tables (animal or
//! species, case-insensitive), compared with the answer computed from the tables. A value of the
//! wrong kind, an unknown name, a hedge or prose is unparsable; a missing question or a wrong
//! value is wrong. 0/1.
//!
//! | level | rows | questions | kinds |
//! |---|---|---|---|
//! | 1 | 4 | 1 | lookup, count with 1 condition |
//! | 2 | 6 | 2 | count, largest/smallest |
//! | 3 | 8 | 3 | + total, 2 conditions |
//! | 4 | 10 | 3 | + second table (keeper by species) |
//! | 5 | 12 | 4 | 2–3 conditions through the join |
//!
//! **Example**: rows `Ada | otter | 4 | 60 | 9`, `Bo | lemur | 7 | 45 | 3`, `Cy | otter | 9 | 70 |
//! 11`; "Count the animals with: species = otter and age > 5" → `1: 1`; "Which animal has the
//! largest weight (kg) among the animals with: species = otter?" → `Cy`.
//!
//! **Failure modes**: `>` read as `≥`, summing over all rows instead of the selected ones, missing
//! the join (keeper conditions apply through the species), ties (never asked).

use crate::arithmetic::number::parse_int;
use crate::logic::numbered;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The table-QA family.
pub struct TableQa;

/// One animal: name, species (indices into the word lists) and the numeric columns age, height,
/// weight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// Index into the names.
    pub name: u8,
    /// Index into the species.
    pub species: u8,
    /// Age, height (cm), weight (kg).
    pub nums: [u32; 3],
}

/// One condition on a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cond {
    /// The species is this one.
    Species(u8),
    /// The species' keeper (second table) is this one.
    Keeper(u8),
    /// Numeric column `col` is greater than the value.
    Above(u8, u32),
    /// Numeric column `col` is less than the value.
    Below(u8, u32),
}

/// What a question asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    /// The value of column `col` (0–2 numeric, 3 the species) for the animal in this row.
    Lookup(u8, u8),
    /// How many rows meet the conditions.
    Count,
    /// The animal with the largest value of the column among them.
    Max(u8),
    /// The animal with the smallest value of the column among them.
    Min(u8),
    /// The total of the column over them.
    Sum(u8),
}

/// One question.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TableQuestion {
    /// What is asked.
    pub kind: Kind,
    /// The conditions (all must hold).
    pub conds: Vec<Cond>,
}

/// One problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TableQaProblem {
    /// The animals.
    pub rows: Vec<Row>,
    /// The second table: the keeper of each species (index = species); empty when absent.
    pub keepers: Vec<u8>,
    /// The questions.
    pub questions: Vec<TableQuestion>,
}

const NAMES: [&str; 16] = [
    "Ada", "Bo", "Cy", "Dot", "Eli", "Fig", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lux", "Max", "Nia", "Oz",
    "Pip",
];
const SPECIES: [&str; 6] = ["otter", "lemur", "penguin", "tortoise", "parrot", "meerkat"];
const KEEPERS: [&str; 4] = ["Sam", "Rosa", "Tariq", "Wen"];
const COLUMNS: [&str; 4] = ["age (years)", "height (cm)", "weight (kg)", "species"];

/// The answer to a question: a number or a name.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Answer {
    Int(i64),
    Name(String),
}

fn holds(p: &TableQaProblem, r: &Row, c: Cond) -> Option<bool> {
    Some(match c {
        Cond::Species(s) => r.species == s,
        Cond::Keeper(k) => *p.keepers.get(r.species as usize)? == k,
        Cond::Above(col, v) => *r.nums.get(col as usize)? > v,
        Cond::Below(col, v) => *r.nums.get(col as usize)? < v,
    })
}

fn well_formed(p: &TableQaProblem) -> bool {
    let mut seen = [false; NAMES.len()];
    (2..=16).contains(&p.rows.len())
        && p.rows.iter().all(|r| {
            (r.name as usize) < NAMES.len()
                && !std::mem::replace(&mut seen[r.name as usize], true)
                && (r.species as usize) < SPECIES.len()
        })
        && (p.keepers.is_empty() || p.keepers.len() == SPECIES.len())
        && p.keepers.iter().all(|&k| (k as usize) < KEEPERS.len())
        && (1..=6).contains(&p.questions.len())
}

/// The answer, or `None` when the question is malformed, selects no row or has a tie at the
/// extreme.
fn answer(p: &TableQaProblem, q: &TableQuestion) -> Option<Answer> {
    if q.conds.len() > 4 {
        return None;
    }
    let mut sel = Vec::new();
    for r in &p.rows {
        let mut ok = true;
        for &c in &q.conds {
            ok &= holds(p, r, c)?;
        }
        if ok {
            sel.push(*r);
        }
    }
    let col = |c: u8| (c < 3).then_some(c as usize);
    match q.kind {
        Kind::Lookup(i, c) => {
            let r = p.rows.get(i as usize)?;
            Some(match c {
                3 => Answer::Name(SPECIES[r.species as usize].into()),
                c => Answer::Int(r.nums[col(c)?] as i64),
            })
        }
        _ if sel.is_empty() => None,
        Kind::Count => Some(Answer::Int(sel.len() as i64)),
        Kind::Sum(c) => {
            let c = col(c)?;
            Some(Answer::Int(sel.iter().map(|r| r.nums[c] as i64).sum::<i64>()))
        }
        Kind::Max(c) | Kind::Min(c) => {
            let c = col(c)?;
            let key =
                |r: &Row| if matches!(q.kind, Kind::Max(_)) { r.nums[c] as i64 } else { -(r.nums[c] as i64) };
            let best = sel.iter().map(key).max()?;
            let top: Vec<&Row> = sel.iter().filter(|r| key(r) == best).collect();
            (top.len() == 1).then(|| Answer::Name(NAMES[top[0].name as usize].into()))
        }
    }
}

/// Level parameters: rows, questions, joined table, most conditions per question.
fn params(d: Difficulty) -> (usize, usize, bool, usize) {
    d.pick([(4, 1, false, 1), (6, 2, false, 1), (8, 3, false, 2), (10, 3, true, 2), (12, 4, true, 3)])
}

fn draw_cond(rng: &mut Rng, p: &TableQaProblem) -> Cond {
    let r = p.rows[rng.index(p.rows.len())];
    match rng.index(if p.keepers.is_empty() { 3 } else { 4 }) {
        0 => Cond::Species(r.species),
        3 => Cond::Keeper(p.keepers[r.species as usize]),
        k => {
            let col = rng.index(3) as u8;
            let v = r.nums[col as usize];
            if k == 1 {
                Cond::Above(col, v.saturating_sub(1 + rng.below(3) as u32))
            } else {
                Cond::Below(col, v + 1 + rng.below(3) as u32)
            }
        }
    }
}

fn draw_question(rng: &mut Rng, p: &TableQaProblem, level: u8, max_conds: usize) -> TableQuestion {
    loop {
        let kinds: &[u8] = match level {
            1 => &[0, 1],
            2 => &[1, 2, 3],
            _ => &[1, 2, 3, 4],
        };
        let col = rng.index(3) as u8;
        let kind = match kinds[rng.index(kinds.len())] {
            0 => Kind::Lookup(rng.index(p.rows.len()) as u8, rng.index(4) as u8),
            1 => Kind::Count,
            2 => Kind::Max(col),
            3 => Kind::Min(col),
            _ => Kind::Sum(col),
        };
        let n = match kind {
            Kind::Lookup(..) => 0,
            Kind::Max(_) | Kind::Min(_) if level == 2 => rng.index(2),
            _ => 1 + rng.index(max_conds),
        };
        let mut conds: Vec<Cond> = (0..n).map(|_| draw_cond(rng, p)).collect();
        if !p.keepers.is_empty()
            && n > 0
            && !conds.iter().any(|c| matches!(c, Cond::Keeper(_)))
            && rng.chance(0.6)
        {
            conds[0] = Cond::Keeper(rng.index(KEEPERS.len()) as u8);
        }
        let q = TableQuestion { kind, conds };
        if answer(p, &q).is_some() && distinct_slots(&q.conds) {
            return q;
        }
    }
}

/// Whether no two conditions constrain the same thing the same way (two species, two keepers, two
/// lower or two upper bounds on one column), so none is redundant or contradicts another by form.
fn distinct_slots(conds: &[Cond]) -> bool {
    let slot = |c: &Cond| match *c {
        Cond::Species(_) => 0,
        Cond::Keeper(_) => 1,
        Cond::Above(col, _) => 2 + col as usize,
        Cond::Below(col, _) => 5 + col as usize,
    };
    (0..conds.len()).all(|i| (i + 1..conds.len()).all(|j| slot(&conds[i]) != slot(&conds[j])))
}

fn cond_text(c: Cond) -> String {
    let short = ["age", "height", "weight"];
    match c {
        Cond::Species(s) => format!("species = {}", SPECIES[s as usize]),
        Cond::Keeper(k) => format!("keeper = {}", KEEPERS[k as usize]),
        Cond::Above(col, v) => format!("{} > {v}", short.get(col as usize).unwrap_or(&"?")),
        Cond::Below(col, v) => format!("{} < {v}", short.get(col as usize).unwrap_or(&"?")),
    }
}

fn question_text(p: &TableQaProblem, q: &TableQuestion) -> String {
    let among = if q.conds.is_empty() {
        "all the animals".to_string()
    } else {
        format!(
            "the animals with: {}",
            q.conds.iter().map(|&c| cond_text(c)).collect::<Vec<_>>().join(" and ")
        )
    };
    let colname = |c: u8| COLUMNS.get(c as usize).copied().unwrap_or("?");
    match q.kind {
        Kind::Lookup(i, 3) => format!("What species is {}?", NAMES[p.rows[i as usize].name as usize]),
        Kind::Lookup(i, c) => {
            format!("What is the {} of {}?", colname(c), NAMES[p.rows[i as usize].name as usize])
        }
        Kind::Count => format!("How many animals are there among {among}?"),
        Kind::Max(c) => format!("Which animal has the largest {} among {among}?", colname(c)),
        Kind::Min(c) => format!("Which animal has the smallest {} among {among}?", colname(c)),
        Kind::Sum(c) => format!("What is the total {} of {among}?", colname(c)),
    }
}

fn show(a: &Answer) -> String {
    match a {
        Answer::Int(v) => v.to_string(),
        Answer::Name(s) => s.clone(),
    }
}

impl Task for TableQa {
    type Problem = TableQaProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "table_qa",
            category: Category::Logic,
            description:
                "Answer lookup, count, argmax and sum questions over a markdown table, joined with a \
                          second table at the top levels.",
            levels: [
                "4 rows, 1 lookup or count question",
                "6 rows, 2 count / largest / smallest questions",
                "8 rows, 3 questions with totals and 2 conditions",
                "10 rows + a keeper table joined on species, 3 questions",
                "12 rows + the keeper table, 4 questions, up to 3 conditions",
            ],
            answer_format:
                "`n: answer` for every question, separated by commas: an integer, or one name from the \
                            tables (e.g. `1: 3, 2: Ada`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> TableQaProblem {
        let (nr, nq, join, max_conds) = params(d);
        let nsp = (nr / 2).clamp(2, SPECIES.len());
        let species = rng.sample_indices(SPECIES.len(), nsp);
        let rows: Vec<Row> = rng
            .sample_indices(NAMES.len(), nr)
            .into_iter()
            .map(|n| Row {
                name: n as u8,
                species: species[rng.index(nsp)] as u8,
                nums: [rng.range(1, 20) as u32, rng.range(20, 120) as u32, rng.range(1, 60) as u32],
            })
            .collect();
        let keepers =
            if join { (0..SPECIES.len()).map(|_| rng.index(KEEPERS.len()) as u8).collect() } else { vec![] };
        let mut p = TableQaProblem { rows, keepers, questions: Vec::new() };
        p.questions = (0..nq).map(|_| draw_question(rng, &p, d.level(), max_conds)).collect();
        p
    }

    fn prompt(&self, p: &TableQaProblem) -> String {
        let mut t = String::from(
            "| name | species | age (years) | height (cm) | weight (kg) |\n|---|---|---|---|---|\n",
        );
        for r in &p.rows {
            t.push_str(&format!(
                "| {} | {} | {} | {} | {} |\n",
                NAMES[r.name as usize], SPECIES[r.species as usize], r.nums[0], r.nums[1], r.nums[2]
            ));
        }
        let join = if p.keepers.is_empty() {
            String::new()
        } else {
            let mut k = String::from(
                "\nEach species has one keeper, who looks after every animal of that species:\n\n| species | keeper |\n|---|---|\n",
            );
            let mut used: Vec<u8> = p.rows.iter().map(|r| r.species).collect();
            used.sort_unstable();
            used.dedup();
            for s in used {
                k.push_str(&format!(
                    "| {} | {} |\n",
                    SPECIES[s as usize], KEEPERS[p.keepers[s as usize] as usize]
                ));
            }
            k
        };
        let qs: Vec<String> = p
            .questions
            .iter()
            .enumerate()
            .map(|(i, q)| format!("{}. {}", i + 1, question_text(p, q)))
            .collect();
        format!(
            "The table lists the animals of a zoo.\n\n{t}{join}\nConditions joined by \"and\" must all hold; `>` \
             and `<` are strict (`age > 5` does not include 5); `keeper = X` means the animal's species has keeper \
             X. A total adds the column over the animals that meet the conditions.\n\n{}\n\nAnswer every \
             question: a number as an integer in digits, an animal or a species by its name.\n\n{}",
            qs.join("\n"),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &TableQaProblem) -> String {
        if !well_formed(p) {
            return String::new();
        }
        let parts: Option<Vec<String>> = p
            .questions
            .iter()
            .enumerate()
            .map(|(i, q)| answer(p, q).map(|a| format!("{}: {}", i + 1, show(&a))))
            .collect();
        parts.map(|v| v.join(", ")).unwrap_or_default()
    }

    fn verify(&self, p: &TableQaProblem, text: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem: bad rows, keepers or questions");
        }
        let Some(want) = p.questions.iter().map(|q| answer(p, q)).collect::<Option<Vec<Answer>>>() else {
            return Score::wrong("malformed problem: a question has no unique answer");
        };
        let vals = match numbered(text, p.questions.len(), |v| Some(v.trim().to_string())) {
            Ok(v) => v,
            Err(s) => return s,
        };
        let known = |v: &str| {
            NAMES
                .iter()
                .chain(SPECIES.iter())
                .chain(KEEPERS.iter())
                .find(|n| n.eq_ignore_ascii_case(v))
                .copied()
        };
        let mut wrong = None;
        for (i, (w, v)) in want.iter().zip(&vals).enumerate() {
            let right = match w {
                Answer::Int(x) => match parse_int(v) {
                    Ok(g) => g == *x,
                    Err(e) => return Score::unparsable(format!("question {}: {e}", i + 1)),
                },
                Answer::Name(n) => match known(v) {
                    Some(g) => g == n,
                    None => {
                        return Score::unparsable(format!(
                            "question {}: `{}` is not a name from the tables",
                            i + 1,
                            crate::common::clip(v, 20)
                        ))
                    }
                },
            };
            if !right && wrong.is_none() {
                wrong = Some(i + 1);
            }
        }
        match wrong {
            None => Score::correct(),
            Some(i) => Score::wrong(format!("question {i} is wrong")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> TableQaProblem {
        TableQaProblem {
            rows: vec![
                Row { name: 0, species: 0, nums: [4, 60, 9] },
                Row { name: 1, species: 1, nums: [7, 45, 3] },
                Row { name: 2, species: 0, nums: [9, 70, 11] },
            ],
            keepers: vec![],
            questions: vec![
                TableQuestion { kind: Kind::Count, conds: vec![Cond::Species(0), Cond::Above(0, 5)] },
                TableQuestion { kind: Kind::Max(2), conds: vec![Cond::Species(0)] },
            ],
        }
    }

    #[test]
    fn example_from_the_docs() {
        let t = TableQa;
        let p = example();
        let prompt = t.prompt(&p);
        assert!(prompt.contains("| Ada | otter | 4 | 60 | 9 |"));
        assert!(prompt
            .contains("1. How many animals are there among the animals with: species = otter and age > 5?"));
        assert!(prompt.contains(
            "2. Which animal has the largest weight (kg) among the animals with: species = otter?"
        ));
        assert_eq!(t.solve(&p), "1: 1, 2: Cy");
        assert!(t.verify(&p, "1: 1, 2: cy").correct);
        assert!(t.verify(&p, "1: 2, 2: Cy").reason.contains("question 1"));
        assert!(t.verify(&p, "1: 1, 2: Ada").reason.contains("question 2"));
        assert!(t.verify(&p, "1: 1").reason.contains("no value for 2"));
        for bad in
            ["1: one, 2: Cy", "1: 1, 2: Zed", "1: 1, 2: Cy or Ada", "1: 1 or 2, 2: Cy", "Cy", "1: 1, 2: 3"]
        {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn joins_ties_and_lookups() {
        let mut p = example();
        p.keepers = vec![2, 3, 0, 0, 0, 0];
        let q = |kind, conds| TableQuestion { kind, conds };
        assert_eq!(answer(&p, &q(Kind::Sum(1), vec![Cond::Keeper(2)])), Some(Answer::Int(130)));
        assert_eq!(
            answer(&p, &q(Kind::Count, vec![Cond::Keeper(3), Cond::Below(2, 4)])),
            Some(Answer::Int(1))
        );
        assert_eq!(answer(&p, &q(Kind::Count, vec![Cond::Keeper(1)])), None);
        assert_eq!(answer(&p, &q(Kind::Lookup(1, 3), vec![])), Some(Answer::Name("lemur".into())));
        assert_eq!(answer(&p, &q(Kind::Lookup(2, 1), vec![])), Some(Answer::Int(70)));
        p.rows[0].nums[2] = 11;
        assert_eq!(answer(&p, &q(Kind::Max(2), vec![])), None, "a tie has no unique answer");
        p.questions = vec![q(Kind::Max(2), vec![])];
        assert!(TableQa.verify(&p, "1: Ada").reason.starts_with("malformed"));
        p.rows[1].name = 0;
        assert!(TableQa.verify(&p, "1: Ada").reason.starts_with("malformed"));
    }

    #[test]
    fn oracle_at_every_level() {
        let t = TableQa;
        for d in Difficulty::all() {
            let (nr, nq, join, _) = params(d);
            for seed in 0..300 {
                let p = t.generate(seed, d);
                assert_eq!((p.rows.len(), p.questions.len(), p.keepers.is_empty()), (nr, nq, !join));
                assert!(t.verify(&p, &t.solve(&p)).correct, "L{d} seed {seed}");
                assert!(p.questions.iter().all(|q| distinct_slots(&q.conds)), "L{d} seed {seed}");
            }
        }
        assert!(!distinct_slots(&[Cond::Below(2, 51), Cond::Below(2, 14)]));
        assert!(distinct_slots(&[Cond::Above(1, 28), Cond::Below(1, 52), Cond::Keeper(0)]));
    }

    #[test]
    fn parser_fuzz_never_panics() {
        let t = TableQa;
        let p = t.generate(5, Difficulty::new(5).unwrap());
        let mut rng = Rng::new(12);
        let alphabet: Vec<char> = "12345:, AdaCyotter-09\n/é".chars().collect();
        for _ in 0..3000 {
            let s: String = (0..rng.index(40)).map(|_| alphabet[rng.index(alphabet.len())]).collect();
            let v = t.verify(&p, &s);
            assert!((0.0..=1.0).contains(&v.reward));
        }
    }
}
