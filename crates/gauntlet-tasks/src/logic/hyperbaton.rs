//! Hyperbaton: English adjective order. Pick the phrase whose adjectives are in the right order,
//! or put given adjectives in order.
//!
//! **Generates** noun phrases of adjectives from distinct classes of the conventional order
//! *opinion, size, age, shape, colour, origin, material, purpose* (a fixed lexicon whose class of
//! every word is listed in the prompt, so the rule is fully stated). A *choose* question shows
//! several orderings of one phrase as lettered options, exactly one in the right order (the
//! others are distinct permutations; from level 4 most differ from the right one by a single
//! swap of neighbours); an *arrange* question (from level 3) lists the adjectives shuffled and
//! asks for the phrase.
//!
//! **Verifies** `n: answer` for every question (the strict numbered `name: value` grammar): a
//! choose question takes one option letter; an arrange question takes the adjectives of the
//! question, each exactly once, in the conventional order (the noun at the end optional). With
//! one adjective per class the right order is unique, so the verifier checks the order against
//! the classes rather than a stored string. An unknown or missing word, a word twice, two
//! letters, a hedge or prose is unparsable; a missing question or a wrong order is wrong. 0/1.
//!
//! | level | questions | adjectives | options |
//! |---|---|---|---|
//! | 1 | 1 choose | 3 | 3 |
//! | 2 | 1 choose | 4 | 4 |
//! | 3 | 1 choose + 1 arrange | 4–5 | 4 |
//! | 4 | 2 choose + 1 arrange | 5–6 | 5, near misses |
//! | 5 | 2 choose + 2 arrange | 6–8 | 5, near misses |
//!
//! **Example**: options (A) `wooden lovely big box`, (B) `lovely big wooden box`, (C) `big lovely
//! wooden box` → `1: B` (opinion, size, material).
//!
//! **Failure modes**: putting colour before age or size, origin after material, purpose words
//! (`hiking`, `drinking`) anywhere but next to the noun; answering with the option's text
//! instead of its letter.

use crate::logic::numbered;
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The hyperbaton family.
pub struct Hyperbaton;

/// One question. Words are `(class, index)` pairs into [`LEXICON`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Question {
    /// Choose the right option: the noun and the options' word orders.
    Choose {
        /// Index into [`NOUNS`].
        noun: u8,
        /// The options, each the same words in some order.
        options: Vec<Vec<(u8, u8)>>,
    },
    /// Put these words (shown in this order) in the right order.
    Arrange {
        /// Index into [`NOUNS`].
        noun: u8,
        /// The adjectives, shuffled.
        words: Vec<(u8, u8)>,
    },
}

/// One problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HyperbatonProblem {
    /// The questions, in order.
    pub questions: Vec<Question>,
}

/// The adjective classes in their conventional order.
pub const CLASSES: [&str; 8] = ["opinion", "size", "age", "shape", "colour", "origin", "material", "purpose"];

/// The words of each class (same order as [`CLASSES`]).
pub const LEXICON: [[&str; 6]; 8] = [
    ["lovely", "ugly", "wonderful", "terrible", "silly", "nice"],
    ["big", "small", "tiny", "huge", "little", "enormous"],
    ["old", "new", "ancient", "young", "antique", "modern"],
    ["square", "round", "triangular", "rectangular", "circular", "oval"],
    ["red", "blue", "green", "black", "white", "yellow"],
    ["French", "Chinese", "Mexican", "Brazilian", "Japanese", "Egyptian"],
    ["wooden", "plastic", "glass", "steel", "paper", "leather"],
    ["hiking", "walking", "drinking", "cooking", "fishing", "sleeping"],
];

/// The nouns.
pub const NOUNS: [&str; 10] =
    ["box", "bag", "chair", "knife", "cup", "table", "basket", "boat", "lamp", "shoe"];

fn word(w: (u8, u8)) -> &'static str {
    LEXICON[w.0 as usize][w.1 as usize]
}

fn in_order(ws: &[(u8, u8)]) -> bool {
    ws.windows(2).all(|p| p[0].0 < p[1].0)
}

fn well_formed(p: &HyperbatonProblem) -> bool {
    let ok_words = |ws: &[(u8, u8)]| {
        (2..=8).contains(&ws.len())
            && ws.iter().all(|&(c, i)| c < 8 && i < 6)
            && (0..ws.len()).all(|a| (a + 1..ws.len()).all(|b| ws[a].0 != ws[b].0))
    };
    (1..=6).contains(&p.questions.len())
        && p.questions.iter().all(|q| match q {
            Question::Choose { noun, options } => {
                (*noun as usize) < NOUNS.len()
                    && (2..=6).contains(&options.len())
                    && options.iter().all(|o| ok_words(o))
                    && options.iter().filter(|o| in_order(o)).count() == 1
                    && options.iter().all(|o| {
                        let mut a = o.clone();
                        let mut b = options[0].clone();
                        a.sort_unstable();
                        b.sort_unstable();
                        a == b
                    })
            }
            Question::Arrange { noun, words } => (*noun as usize) < NOUNS.len() && ok_words(words),
        })
}

fn letter(i: usize) -> char {
    (b'A' + i as u8) as char
}

/// Level parameters: choose questions, arrange questions, adjectives (range), options.
fn params(d: Difficulty) -> (usize, usize, (usize, usize), usize) {
    d.pick([(1, 0, (3, 3), 3), (1, 0, (4, 4), 4), (1, 1, (4, 5), 4), (2, 1, (5, 6), 5), (2, 2, (6, 8), 5)])
}

/// `k` adjectives of distinct classes, in the right order.
fn draw_words(rng: &mut Rng, k: usize) -> Vec<(u8, u8)> {
    let mut classes = rng.sample_indices(8, k);
    classes.sort_unstable();
    classes.into_iter().map(|c| (c as u8, rng.index(6) as u8)).collect()
}

/// `n` distinct orderings of `right` (which is among them, at a random place); with `near`, most
/// wrong ones swap two neighbours of the right order.
fn draw_options(rng: &mut Rng, right: &[(u8, u8)], n: usize, near: bool) -> Vec<Vec<(u8, u8)>> {
    let mut opts = vec![right.to_vec()];
    while opts.len() < n {
        let mut o = right.to_vec();
        if near && rng.chance(0.7) {
            let i = rng.index(o.len() - 1);
            o.swap(i, i + 1);
        } else {
            rng.shuffle(&mut o);
        }
        if !opts.contains(&o) {
            opts.push(o);
        }
    }
    rng.shuffle(&mut opts);
    opts
}

fn phrase(ws: &[(u8, u8)], noun: u8) -> String {
    let mut s: Vec<&str> = ws.iter().map(|&w| word(w)).collect();
    s.push(NOUNS[noun as usize]);
    s.join(" ")
}

/// Check one answer text against one question: `Ok(true)` right, `Ok(false)` wrong, `Err` when
/// it is not a single answer of the question's kind.
fn check(q: &Question, text: &str) -> Result<bool, String> {
    match q {
        Question::Choose { options, .. } => {
            let t = text.trim();
            let mut cs = t.chars();
            let (Some(c), None) = (cs.next(), cs.next()) else {
                return Err(format!("`{}` is not one option letter", crate::common::clip(t, 20)));
            };
            let i = (c.to_ascii_uppercase() as u32).wrapping_sub('A' as u32) as usize;
            if !c.is_ascii_alphabetic() || i >= options.len() {
                return Err(format!("`{c}` is not an option letter"));
            }
            Ok(in_order(&options[i]))
        }
        Question::Arrange { noun, words } => {
            let mut toks: Vec<&str> = text.split_whitespace().collect();
            if toks.last().is_some_and(|t| t.eq_ignore_ascii_case(NOUNS[*noun as usize])) {
                toks.pop();
            }
            let mut got = Vec::with_capacity(toks.len());
            for t in &toks {
                let Some(&w) = words.iter().find(|&&w| word(w).eq_ignore_ascii_case(t)) else {
                    return Err(format!(
                        "`{}` is not one of the adjectives given",
                        crate::common::clip(t, 20)
                    ));
                };
                if got.contains(&w) {
                    return Err(format!("`{t}` is given twice"));
                }
                got.push(w);
            }
            if got.len() != words.len() {
                return Err(format!("{} of the {} adjectives given", got.len(), words.len()));
            }
            Ok(in_order(&got))
        }
    }
}

impl Task for Hyperbaton {
    type Problem = HyperbatonProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "hyperbaton",
            category: Category::Logic,
            description:
                "English adjective order: pick the correctly ordered phrase, or order the adjectives.",
            levels: [
                "1 question, 3 adjectives, 3 options",
                "1 question, 4 adjectives, 4 options",
                "choose (4–5 adjectives, 4 options) + arrange",
                "2 choose (5–6 adjectives, 5 near-miss options) + 1 arrange",
                "2 choose + 2 arrange, 6–8 adjectives",
            ],
            answer_format: "`n: answer` for every question, separated by commas: an option letter, or the \
                            adjectives in order (e.g. `1: B, 2: lovely big red box`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> HyperbatonProblem {
        let (nc, na, (klo, khi), no) = params(d);
        let near = d.level() >= 4;
        let mut questions = Vec::new();
        for i in 0..nc + na {
            let k = rng.range(klo as i64, khi as i64) as usize;
            let right = draw_words(rng, k);
            let noun = rng.index(NOUNS.len()) as u8;
            questions.push(if i < nc {
                Question::Choose { noun, options: draw_options(rng, &right, no, near) }
            } else {
                let mut words = right.clone();
                while in_order(&words) {
                    rng.shuffle(&mut words);
                }
                Question::Arrange { noun, words }
            });
        }
        HyperbatonProblem { questions }
    }

    fn prompt(&self, p: &HyperbatonProblem) -> String {
        let mut used: Vec<(u8, u8)> = Vec::new();
        for q in &p.questions {
            let ws = match q {
                Question::Choose { options, .. } => &options[0],
                Question::Arrange { words, .. } => words,
            };
            used.extend(ws.iter().copied());
        }
        used.sort_unstable();
        used.dedup();
        let glossary: Vec<String> = CLASSES
            .iter()
            .enumerate()
            .filter_map(|(c, name)| {
                let ws: Vec<&str> = used.iter().filter(|w| w.0 as usize == c).map(|&w| word(w)).collect();
                (!ws.is_empty()).then(|| format!("{name}: {}", ws.join(", ")))
            })
            .collect();
        let mut qs = Vec::new();
        for (i, q) in p.questions.iter().enumerate() {
            match q {
                Question::Choose { noun, options } => {
                    let opts: Vec<String> = options
                        .iter()
                        .enumerate()
                        .map(|(j, o)| format!("({}) {}", letter(j), phrase(o, *noun)))
                        .collect();
                    qs.push(format!(
                        "{}. Which option has its adjectives in the right order? {}",
                        i + 1,
                        opts.join(" ")
                    ));
                }
                Question::Arrange { noun, words } => {
                    let ws: Vec<&str> = words.iter().map(|&w| word(w)).collect();
                    qs.push(format!(
                        "{}. Put the adjectives {} in the right order before the noun \"{}\".",
                        i + 1,
                        ws.join(", "),
                        NOUNS[*noun as usize]
                    ));
                }
            }
        }
        format!(
            "In English, adjectives before a noun go in this order: opinion, size, age, shape, colour, origin, \
             material, purpose (so \"a lovely big old round red French wooden hiking box\"). The class of every \
             adjective used below:\n{}\n\n{}\n\nAnswer every question: a choose question with the letter of its \
             option, an order question with its adjectives (each exactly once, separated by spaces) in the right \
             order, the noun at the end optional.\n\n{}",
            glossary.join("\n"),
            qs.join("\n"),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &HyperbatonProblem) -> String {
        if !well_formed(p) {
            return String::new();
        }
        let parts: Vec<String> = p
            .questions
            .iter()
            .enumerate()
            .map(|(i, q)| match q {
                Question::Choose { options, .. } => {
                    format!("{}: {}", i + 1, letter(options.iter().position(|o| in_order(o)).unwrap_or(0)))
                }
                Question::Arrange { noun, words } => {
                    let mut ws = words.clone();
                    ws.sort_unstable();
                    format!("{}: {}", i + 1, phrase(&ws, *noun))
                }
            })
            .collect();
        parts.join(", ")
    }

    fn verify(&self, p: &HyperbatonProblem, answer: &str) -> Score {
        if !well_formed(p) {
            return Score::wrong("malformed problem: bad words, classes or options");
        }
        let vals = match numbered(answer, p.questions.len(), |v| Some(v.to_string())) {
            Ok(v) => v,
            Err(s) => return s,
        };
        let mut wrong = None;
        for (i, (q, v)) in p.questions.iter().zip(&vals).enumerate() {
            match check(q, v) {
                Err(e) => return Score::unparsable(format!("question {}: {e}", i + 1)),
                Ok(false) if wrong.is_none() => wrong = Some(i + 1),
                Ok(_) => {}
            }
        }
        match wrong {
            None => Score::correct(),
            Some(i) => Score::wrong(format!("question {i}: the adjectives are not in the right order")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> HyperbatonProblem {
        // lovely (opinion 0), big (size 0), wooden (material 0); noun box.
        let (l, b, w) = ((0, 0), (1, 0), (6, 0));
        HyperbatonProblem {
            questions: vec![Question::Choose {
                noun: 0,
                options: vec![vec![w, l, b], vec![l, b, w], vec![b, l, w]],
            }],
        }
    }

    #[test]
    fn example_from_the_docs() {
        let t = Hyperbaton;
        let p = example();
        assert!(t
            .prompt(&p)
            .contains("(A) wooden lovely big box (B) lovely big wooden box (C) big lovely wooden box"));
        assert!(t.prompt(&p).contains("opinion: lovely\nsize: big\nmaterial: wooden"));
        assert_eq!(t.solve(&p), "1: B");
        assert!(t.verify(&p, "1: b").correct);
        assert!(t.verify(&p, "1: A").reason.contains("not in the right order"));
        for bad in ["B", "1: B or C", "1: B/C", "1: lovely big wooden box", "1: D", "1: BB", "1: B, 2: A"] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn arrange_answers_are_checked_by_class() {
        let t = Hyperbaton;
        let p = HyperbatonProblem {
            questions: vec![Question::Arrange { noun: 1, words: vec![(4, 0), (0, 1), (5, 1), (2, 0)] }],
        };
        assert_eq!(t.solve(&p), "1: ugly old red Chinese bag");
        assert!(t.verify(&p, "1: ugly old red Chinese").correct);
        assert!(t.verify(&p, "1: Ugly OLD red chinese bag").correct);
        assert!(!t.verify(&p, "1: ugly red old Chinese bag").correct);
        for bad in [
            "1: ugly old red bag",
            "1: ugly old red Chinese Chinese bag",
            "1: ugly old red Chinese blue bag",
            "1: ugly, old, red, Chinese",
            "1: ugly old red Chinese bag or ugly red old Chinese bag",
        ] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn oracle_at_every_level_and_one_right_option() {
        let t = Hyperbaton;
        for d in Difficulty::all() {
            for seed in 0..300 {
                let p = t.generate(seed, d);
                assert!(well_formed(&p), "L{d} seed {seed}");
                assert!(t.verify(&p, &t.solve(&p)).correct, "L{d} seed {seed}");
                for q in &p.questions {
                    if let Question::Choose { options, .. } = q {
                        assert_eq!(options.iter().filter(|o| in_order(o)).count(), 1);
                    }
                }
            }
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let mut p = example();
        if let Question::Choose { options, .. } = &mut p.questions[0] {
            options[0] = options[1].clone();
        }
        assert!(Hyperbaton.verify(&p, "1: A").reason.starts_with("malformed"));
        let q =
            HyperbatonProblem { questions: vec![Question::Arrange { noun: 0, words: vec![(9, 0), (1, 0)] }] };
        assert!(Hyperbaton.verify(&q, "1: a").reason.starts_with("malformed"));
    }

    #[test]
    fn parser_fuzz_never_panics() {
        let t = Hyperbaton;
        let p = t.generate(4, Difficulty::new(5).unwrap());
        let mut rng = Rng::new(11);
        let alphabet: Vec<char> = "1234:, ABCDEabloveyigredé\n".chars().collect();
        for _ in 0..3000 {
            let s: String = (0..rng.index(40)).map(|_| alphabet[rng.index(alphabet.len())]).collect();
            let v = t.verify(&p, &s);
            assert!((0.0..=1.0).contains(&v.reward));
        }
    }
}
