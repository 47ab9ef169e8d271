//! Goods exchange: people start with items, swap, give and trade them in a story, and the
//! questions ask who holds an item or what a person holds at the end.
//!
//! **Generates** a cast and a set of items (each item starts with one person), then a story of
//! exchanges, each valid when it happens: two people *swap* everything they hold, someone *gives*
//! an item they hold to someone else, two people *trade* one item each, and (from level 4)
//! *whoever holds* a named item passes it on, so the giver must be tracked rather than read off
//! the sentence. The questions ask who holds an item at the end, or what a person holds at the
//! end (possibly several items, possibly nothing); items that moved are asked about first. The
//! answers are computed by replaying the story; they are unique by construction.
//!
//! **Verifies** `n: answer` for every question (the strict numbered `name: value` grammar): a
//! who-question takes one person of the story, a what-question takes the item names joined by `+`
//! in any order, or `nothing`. Names are case-insensitive; an unknown name, an item listed twice,
//! a hedge or prose is unparsable; a missing question or a wrong answer is wrong. 0/1.
//!
//! | level | people | items | events | kinds | questions |
//! |---|---|---|---|---|---|
//! | 1 | 3 | 3, one each | 3 | swaps | 1 |
//! | 2 | 5 | 5, one each | 6 | swaps | 2 |
//! | 3 | 4 | 6 | 8 | swaps, gives, trades | 3 |
//! | 4 | 6 | 8 | 12 | + "whoever holds" | 4 |
//! | 5 | 7 | 10 | 18 | all, more indirect | 5 |
//!
//! **Example**: Alice has the book, Bob the pen, Carol the hat. Alice and Bob swap items; Bob and
//! Carol swap items; Carol and Alice swap items. Who holds the book? `1: Alice` (the book went to
//! Bob, then to Carol, then back to Alice).
//!
//! **Failure modes**: losing track of an item after a swap of everything (a person with two items
//! hands both over), treating a trade as one-way, answering for the holder at the start of a
//! "whoever holds" sentence instead of the current one.

use crate::logic::numbered;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The goods-exchange family.
pub struct GoodsExchange;

/// One event of the story (people and items are indices).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Exchange {
    /// The two people exchange everything each of them holds.
    Swap(u8, u8),
    /// The first person gives the item to the second person.
    Give(u8, u8, u8),
    /// Person a gives item x to person b and b gives item y to a: `Trade(a, x, b, y)`.
    Trade(u8, u8, u8, u8),
    /// Whoever holds the item gives it to the person.
    Pass(u8, u8),
}

/// One question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ask {
    /// Who holds this item at the end?
    Who(u8),
    /// What does this person hold at the end?
    Holds(u8),
}

/// One problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GoodsExchangeProblem {
    /// People's names.
    pub people: Vec<String>,
    /// Item names.
    pub items: Vec<String>,
    /// The starting holder of each item.
    pub start: Vec<u8>,
    /// The story.
    pub events: Vec<Exchange>,
    /// The questions, in order.
    pub questions: Vec<Ask>,
}

const PEOPLE: [&str; 10] =
    ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy"];
const ITEMS: [&str; 14] = [
    "book", "pen", "hat", "ball", "lamp", "kite", "clock", "vase", "ring", "scarf", "drum", "mug", "map",
    "coin",
];

/// One answer: a person, or a set of items (sorted; empty is `nothing`).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Value {
    Person(u8),
    Items(Vec<u8>),
}

fn well_formed(p: &GoodsExchangeProblem) -> bool {
    let (np, ni) = (p.people.len(), p.items.len());
    let person = |x: u8| (x as usize) < np;
    let item = |x: u8| (x as usize) < ni;
    (2..=10).contains(&np)
        && (1..=14).contains(&ni)
        && p.start.len() == ni
        && p.start.iter().all(|&h| person(h))
        && p.events.len() <= 64
        && p.events.iter().all(|e| match *e {
            Exchange::Swap(a, b) => person(a) && person(b) && a != b,
            Exchange::Give(a, x, b) => person(a) && item(x) && person(b) && a != b,
            Exchange::Trade(a, x, b, y) => person(a) && item(x) && person(b) && item(y) && a != b,
            Exchange::Pass(x, b) => item(x) && person(b),
        })
        && (1..=8).contains(&p.questions.len())
        && p.questions.iter().all(|q| match *q {
            Ask::Who(x) => item(x),
            Ask::Holds(a) => person(a),
        })
}

/// Replay the story: the holder of each item at the end, or the first event that is impossible
/// when it happens (a give or trade of an item the giver does not hold, a pass to the holder).
fn replay(p: &GoodsExchangeProblem) -> Result<Vec<u8>, String> {
    let mut holder = p.start.clone();
    for (i, &e) in p.events.iter().enumerate() {
        let bad = || format!("event {} is impossible", i + 1);
        match e {
            Exchange::Swap(a, b) => {
                for h in holder.iter_mut() {
                    if *h == a {
                        *h = b;
                    } else if *h == b {
                        *h = a;
                    }
                }
            }
            Exchange::Give(a, x, b) => {
                if holder[x as usize] != a {
                    return Err(bad());
                }
                holder[x as usize] = b;
            }
            Exchange::Trade(a, x, b, y) => {
                if holder[x as usize] != a || holder[y as usize] != b {
                    return Err(bad());
                }
                holder[x as usize] = b;
                holder[y as usize] = a;
            }
            Exchange::Pass(x, b) => {
                if holder[x as usize] == b {
                    return Err(bad());
                }
                holder[x as usize] = b;
            }
        }
    }
    Ok(holder)
}

fn expected(holder: &[u8], q: Ask) -> Value {
    match q {
        Ask::Who(x) => Value::Person(holder[x as usize]),
        Ask::Holds(a) => Value::Items((0..holder.len() as u8).filter(|&x| holder[x as usize] == a).collect()),
    }
}

/// Level parameters: people, items, events, questions, kinds of event allowed (1: swaps only,
/// 2: + gives and trades, 3: + passes).
fn params(d: Difficulty) -> (usize, usize, usize, usize, u8) {
    d.pick([(3, 3, 3, 1, 1), (5, 5, 6, 2, 1), (4, 6, 8, 3, 2), (6, 8, 12, 4, 3), (7, 10, 18, 5, 3)])
}

/// One valid event given the current holders.
fn draw_event(rng: &mut Rng, holder: &[u8], np: usize, kinds: u8) -> Exchange {
    let (ni, n) = (holder.len(), np as u8);
    loop {
        let kind = if kinds == 1 { 0 } else { rng.index(if kinds == 2 { 3 } else { 4 }) };
        let x = rng.index(ni) as u8;
        let a = holder[x as usize];
        let b = (a + 1 + rng.below(np as u64 - 1) as u8) % n;
        match kind {
            0 => return Exchange::Swap(a, b),
            1 => return Exchange::Give(a, x, b),
            2 => {
                let theirs: Vec<u8> = (0..ni as u8).filter(|&y| holder[y as usize] == b).collect();
                if let Some(&y) = rng.choose(&theirs) {
                    return Exchange::Trade(a, x, b, y);
                }
            }
            _ => return Exchange::Pass(x, b),
        }
    }
}

/// Up to `nq` questions, items that changed hands and people whose holdings changed first, mixing
/// both kinds.
fn draw_questions(rng: &mut Rng, p: &GoodsExchangeProblem, holder: &[u8], nq: usize) -> Vec<Ask> {
    let mut cands: Vec<(bool, Ask)> = Vec::new();
    for x in 0..p.items.len() {
        cands.push((holder[x] != p.start[x], Ask::Who(x as u8)));
    }
    for a in 0..p.people.len() as u8 {
        let now = expected(holder, Ask::Holds(a));
        let before = expected(&p.start, Ask::Holds(a));
        cands.push((now != before, Ask::Holds(a)));
    }
    rng.shuffle(&mut cands);
    cands.sort_by_key(|&(changed, _)| !changed);
    cands.truncate(nq);
    cands.into_iter().map(|(_, q)| q).collect()
}

fn start_sentence(p: &GoodsExchangeProblem) -> String {
    let parts: Vec<String> = (0..p.people.len() as u8)
        .map(|a| {
            let mine: Vec<String> = (0..p.items.len())
                .filter(|&x| p.start[x] == a)
                .map(|x| format!("the {}", p.items[x]))
                .collect();
            let what = match mine.len() {
                0 => "nothing".to_string(),
                1 => mine[0].clone(),
                n => format!("{} and {}", mine[..n - 1].join(", "), mine[n - 1]),
            };
            format!("{} has {what}", p.people[a as usize])
        })
        .collect();
    format!("At the start, {}.", parts.join("; "))
}

fn event_sentence(p: &GoodsExchangeProblem, e: Exchange) -> String {
    let name = |a: u8| p.people[a as usize].as_str();
    let item = |x: u8| p.items[x as usize].as_str();
    match e {
        Exchange::Swap(a, b) => format!("{} and {} swap everything they hold.", name(a), name(b)),
        Exchange::Give(a, x, b) => format!("{} gives the {} to {}.", name(a), item(x), name(b)),
        Exchange::Trade(a, x, b, y) => {
            format!("{} trades the {} for {}'s {}.", name(a), item(x), name(b), item(y))
        }
        Exchange::Pass(x, b) => format!("Whoever holds the {} now gives it to {}.", item(x), name(b)),
    }
}

fn parse_value(p: &GoodsExchangeProblem, text: &str) -> Option<Value> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("nothing") {
        return Some(Value::Items(Vec::new()));
    }
    if let Some(a) = p.people.iter().position(|n| n.eq_ignore_ascii_case(t)) {
        return Some(Value::Person(a as u8));
    }
    let mut items = Vec::new();
    for part in t.split('+') {
        let w = part.trim();
        let w = w.strip_prefix("the ").or_else(|| w.strip_prefix("The ")).unwrap_or(w).trim();
        let x = p.items.iter().position(|n| n.eq_ignore_ascii_case(w))? as u8;
        if items.contains(&x) {
            return None;
        }
        items.push(x);
    }
    items.sort_unstable();
    Some(Value::Items(items))
}

fn show(p: &GoodsExchangeProblem, v: &Value) -> String {
    match v {
        Value::Person(a) => p.people[*a as usize].clone(),
        Value::Items(xs) if xs.is_empty() => "nothing".into(),
        Value::Items(xs) => xs.iter().map(|&x| p.items[x as usize].as_str()).collect::<Vec<_>>().join(" + "),
    }
}

impl Task for GoodsExchange {
    type Problem = GoodsExchangeProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "goods_exchange",
            category: Category::Logic,
            description: "Track items through swaps, gives and trades; say who holds what at the end.",
            levels: [
                "3 people with one item each, 3 swaps, 1 question",
                "5 people with one item each, 6 swaps, 2 questions",
                "4 people, 6 items, 8 swaps/gives/trades, 3 questions",
                "6 people, 8 items, 12 events with \"whoever holds\", 4 questions",
                "7 people, 10 items, 18 events, 5 questions",
            ],
            answer_format: "`n: answer` for every question, separated by commas; a person's name, or the \
                            items joined by `+` (any order), or `nothing` (e.g. `1: Alice, 2: book + pen`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> GoodsExchangeProblem {
        let (np, ni, ne, nq, kinds) = params(d);
        let people: Vec<String> =
            rng.sample_indices(PEOPLE.len(), np).into_iter().map(|i| PEOPLE[i].into()).collect();
        let items: Vec<String> =
            rng.sample_indices(ITEMS.len(), ni).into_iter().map(|i| ITEMS[i].into()).collect();
        // One item each first, then the extra items to anyone.
        let mut start: Vec<u8> =
            (0..ni).map(|x| if x < np { x as u8 } else { rng.index(np) as u8 }).collect();
        rng.shuffle(&mut start);
        let mut holder = start.clone();
        let mut p = GoodsExchangeProblem { people, items, start, events: Vec::new(), questions: Vec::new() };
        for _ in 0..ne {
            let e = draw_event(rng, &holder, np, kinds);
            p.events.push(e);
            holder = replay(&p).unwrap_or(holder);
        }
        p.questions = draw_questions(rng, &p, &holder, nq);
        p
    }

    fn prompt(&self, p: &GoodsExchangeProblem) -> String {
        let rules = "Items change hands only as the story says, and every event happens in order. \"X and Y \
                     swap everything they hold\" means X ends up with everything Y held and Y with everything \
                     X held (someone holding nothing gives nothing). \"X gives the I to Y\" moves that one item \
                     from X to Y. \"X trades the I for Y's J\" moves I from X to Y and J from Y to X at the \
                     same time. \"Whoever holds the I now gives it to Y\" moves that item from the person \
                     holding it at that moment to Y.";
        let mut story = start_sentence(p);
        for &e in &p.events {
            story.push(' ');
            story.push_str(&event_sentence(p, e));
        }
        let qs: Vec<String> = p
            .questions
            .iter()
            .enumerate()
            .map(|(i, &q)| match q {
                Ask::Who(x) => format!("{}. Who holds the {} at the end?", i + 1, p.items[x as usize]),
                Ask::Holds(a) => format!("{}. What does {} hold at the end?", i + 1, p.people[a as usize]),
            })
            .collect();
        format!(
            "{rules}\n\n{story}\n\n{}\n\nAnswer every question: a who-question with one person's name; a \
             what-question with the names of all the items that person holds, joined by `+` in any order, or \
             `nothing` if they hold none.\n\n{}",
            qs.join("\n"),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &GoodsExchangeProblem) -> String {
        if !well_formed(p) {
            return String::new();
        }
        let Ok(holder) = replay(p) else { return String::new() };
        let parts: Vec<String> = p
            .questions
            .iter()
            .enumerate()
            .map(|(i, &q)| format!("{}: {}", i + 1, show(p, &expected(&holder, q))))
            .collect();
        parts.join(", ")
    }

    fn verify(&self, p: &GoodsExchangeProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem: names, indices or sizes out of range");
        }
        let holder = match replay(p) {
            Ok(h) => h,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        let vals = match numbered(answer, p.questions.len(), |v| parse_value(p, v)) {
            Ok(v) => v,
            Err(s) => return s,
        };
        for (i, (&q, got)) in p.questions.iter().zip(&vals).enumerate() {
            let want = expected(&holder, q);
            if *got != want {
                return Score::wrong(format!("question {}: `{}` is wrong", i + 1, show(p, got)));
            }
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> GoodsExchangeProblem {
        GoodsExchangeProblem {
            people: vec!["Alice".into(), "Bob".into(), "Carol".into()],
            items: vec!["book".into(), "pen".into(), "hat".into()],
            start: vec![0, 1, 2],
            events: vec![Exchange::Swap(0, 1), Exchange::Swap(1, 2), Exchange::Swap(2, 0)],
            questions: vec![Ask::Who(0)],
        }
    }

    #[test]
    fn example_from_the_docs() {
        let t = GoodsExchange;
        let p = example();
        assert_eq!(t.solve(&p), "1: Alice");
        assert!(t.verify(&p, "1: alice").correct);
        assert!(t.prompt(&p).contains("Alice and Bob swap everything they hold."));
        assert!(t.prompt(&p).contains("Who holds the book at the end?"));
        assert!(t.verify(&p, "1: Bob").reason.contains("question 1"));
        for bad in
            ["Alice", "1: Alice or Bob", "1: Alice/Bob", "1: Alice, 1: Bob", "1: Zed", "1: Alice, 2: Bob"]
        {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn sets_of_items_in_any_order_and_nothing() {
        let t = GoodsExchange;
        let mut p = example();
        // Alice gives Bob the book: Bob holds book + pen, Alice nothing.
        p.events = vec![Exchange::Give(0, 0, 1), Exchange::Trade(1, 1, 2, 2), Exchange::Pass(2, 2)];
        // After: book Bob, pen Carol, hat Bob → pass hat to Carol.
        p.questions = vec![Ask::Holds(1), Ask::Holds(0), Ask::Holds(2)];
        assert_eq!(t.solve(&p), "1: book, 2: nothing, 3: pen + hat");
        assert!(t.verify(&p, "1: the book, 2: Nothing, 3: hat + pen").correct);
        assert!(t.verify(&p, "1: book, 2: nothing, 3: pen").reason.contains("question 3"));
        assert!(t.verify(&p, "1: book, 2: nothing").reason.contains("no value for 3"));
        assert!(t.verify(&p, "1: book, 2: nothing, 3: pen + pen + hat").is_format_error());
        assert!(t.verify(&p, "1: book, 2: nothing, 3: pen and hat").is_format_error());
        // An impossible story is a malformed problem, not a panic.
        p.events = vec![Exchange::Give(0, 1, 2)];
        assert!(t.verify(&p, "1: book").reason.starts_with("malformed"));
    }

    #[test]
    fn swaps_move_everything_held() {
        let mut p = example();
        p.start = vec![0, 0, 2];
        p.events = vec![Exchange::Swap(0, 1)];
        assert_eq!(replay(&p).unwrap(), vec![1, 1, 2]);
        p.events = vec![Exchange::Swap(0, 2)];
        assert_eq!(replay(&p).unwrap(), vec![2, 2, 0]);
    }

    #[test]
    fn oracle_at_every_level() {
        let t = GoodsExchange;
        for d in Difficulty::all() {
            let (np, ni, ne, nq, _) = params(d);
            for seed in 0..300 {
                let p = t.generate(seed, d);
                assert_eq!((p.people.len(), p.items.len(), p.events.len()), (np, ni, ne));
                assert_eq!(p.questions.len(), nq);
                assert!(t.verify(&p, &t.solve(&p)).correct, "L{d} seed {seed}");
            }
        }
    }

    #[test]
    fn parser_fuzz_never_panics() {
        let t = GoodsExchange;
        let p = t.generate(3, Difficulty::new(5).unwrap());
        let mut rng = Rng::new(38);
        let alphabet: Vec<char> = "12345:,+ \nAliceBobnothingbookpen/é".chars().collect();
        for _ in 0..3000 {
            let s: String = (0..rng.index(40)).map(|_| alphabet[rng.index(alphabet.len())]).collect();
            let v = t.verify(&p, &s);
            assert!((0.0..=1.0).contains(&v.reward));
        }
    }
}
