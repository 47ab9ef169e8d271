//! Twenty questions: identify a secret animal by asking yes/no questions about attributes.
//!
//! **Generates** a candidate list of `n` animals from an embedded table of 48 animals with 20
//! boolean attributes ([`OBJECTS`], [`ATTRIBUTES`]; every animal has a distinct attribute
//! vector) and a secret among them. The subset is redrawn (at most 64 times) until the
//! oracle's decision tree needs at most `turns − 1` questions for every possible secret, so the
//! oracle is exact by construction.
//!
//! **Verifies** each action: `is it <attribute>?` (one of the listed attributes, with or without
//! its article) is answered `yes` or `no` from the table; `it is <animal>` (or `guess <animal>`)
//! names a listed candidate and wins on the secret (reward 1.0), otherwise the answer is `no`
//! and that turn is spent. Running out of turns ends the episode with 0.0 (done, not
//! truncated). Repeated questions or guesses and unknown attributes or animals are invalid;
//! anything else is a format error.
//!
//! | level | candidates | turns (questions + guesses) | ⌈log2 n⌉ |
//! |---|---|---|---|
//! | 1 | 8 | 6 | 3 |
//! | 2 | 12 | 7 | 4 |
//! | 3 | 20 | 8 | 5 |
//! | 4 | 32 | 8 | 5 |
//! | 5 | 48 | 9 | 6 |
//!
//! **Example**: candidates dog, cat, eagle, shark; `is it a mammal?` → yes; `is it a tree
//! climber?` → no; `it is dog` → correct.
//!
//! **Oracle**: among the candidates consistent with every answer (minus wrong guesses), asks the
//! attribute that splits them most evenly (lowest attribute index on ties); guesses when one is
//! left. Exact (1.0) by the construction above.
//!
//! **Failure modes**: questions that split the candidates unevenly or not at all, guessing
//! early, and misreading which candidates an answer rules out.

use super::text_common::{clip, spec, Ledger, ANSWER_HINT};
use crate::{EnvEntry, ScriptedEnv};
use gauntlet_core::{AgentId, Difficulty, Env, EnvError, EnvKind, EnvSpec, Feedback, Observation, Rng};

const SIZES: [usize; 5] = [8, 12, 20, 32, 48];
const TURNS: [usize; 5] = [6, 7, 8, 8, 9];

/// The registry entry.
pub fn entry() -> EnvEntry {
    EnvEntry {
        name: "twenty_questions",
        kind: EnvKind::MultiTurn,
        seats: 1,
        oracle_success: [1.0; 5],
        make: || Box::new(TwentyQuestions::new()),
    }
}

/// The oracle's question for a candidate set (indices into [`OBJECTS`]): the attribute whose
/// yes/no split is most even, or `None` when no attribute splits the set.
fn split(cands: &[usize]) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None;
    for k in 0..ATTRIBUTES.len() {
        let yes = cands.iter().filter(|&&i| OBJECTS[i].1 >> k & 1 == 1).count();
        if yes == 0 || yes == cands.len() {
            continue;
        }
        let gap = (2 * yes).abs_diff(cands.len());
        if best.is_none_or(|(g, _)| gap < g) {
            best = Some((gap, k));
        }
    }
    best.map(|(_, k)| k)
}

/// Questions the oracle needs in the worst case to isolate any member of `cands`.
fn depth(cands: &[usize]) -> usize {
    if cands.len() <= 1 {
        return 0;
    }
    let Some(k) = split(cands) else { return usize::MAX / 2 };
    let (yes, no): (Vec<usize>, Vec<usize>) = cands.iter().partition(|&&i| OBJECTS[i].1 >> k & 1 == 1);
    1 + depth(&yes).max(depth(&no))
}

/// The twenty-questions environment.
pub struct TwentyQuestions {
    spec: EnvSpec,
    cands: Vec<usize>,
    secret: usize,
    qa: Vec<(usize, bool)>,
    wrong: Vec<usize>,
    ledger: Ledger,
}

impl TwentyQuestions {
    /// A new environment (call `reset` before use).
    pub fn new() -> Self {
        TwentyQuestions {
            spec: spec(
                "twenty_questions",
                "agentic",
                "Identify a secret animal with yes/no attribute questions.",
            ),
            cands: Vec::new(),
            secret: 0,
            qa: Vec::new(),
            wrong: Vec::new(),
            ledger: Ledger::new(1),
        }
    }

    fn consistent(&self) -> Vec<usize> {
        self.cands
            .iter()
            .copied()
            .filter(|i| {
                !self.wrong.contains(i) && self.qa.iter().all(|&(k, a)| (OBJECTS[*i].1 >> k & 1 == 1) == a)
            })
            .collect()
    }

    fn spend(&mut self, msg: String) -> Feedback {
        if self.ledger.turns + 1 >= self.ledger.max_turns {
            let name = OBJECTS[self.secret].0;
            return self.ledger.finish(false, format!("{msg} Out of turns; it was {name}."));
        }
        self.ledger.advance(msg)
    }
}

impl Default for TwentyQuestions {
    fn default() -> Self {
        Self::new()
    }
}

fn attribute(text: &str) -> Option<usize> {
    ATTRIBUTES.iter().position(|a| {
        a.eq_ignore_ascii_case(text)
            || a.strip_prefix("a ")
                .or_else(|| a.strip_prefix("an "))
                .is_some_and(|b| b.eq_ignore_ascii_case(text))
    })
}

impl Env for TwentyQuestions {
    fn spec(&self) -> &EnvSpec {
        &self.spec
    }

    fn reset(&mut self, seed: u64, difficulty: Difficulty) -> Result<(), EnvError> {
        let mut rng = Rng::for_instance("twenty_questions", seed, difficulty.level());
        let (n, turns) = (difficulty.pick(SIZES), difficulty.pick(TURNS));
        let mut cands = Vec::new();
        for _ in 0..64 {
            cands = rng.sample_indices(OBJECTS.len(), n);
            cands.sort_unstable();
            if depth(&cands) < turns {
                break;
            }
        }
        self.secret = cands[rng.index(n)];
        self.cands = cands;
        self.qa.clear();
        self.wrong.clear();
        self.ledger = Ledger::new(turns);
        Ok(())
    }

    fn to_act(&self) -> Option<AgentId> {
        (!self.ledger.done).then_some(AgentId(0))
    }

    fn observe(&self, _agent: AgentId) -> Observation {
        let names: Vec<&str> = self.cands.iter().map(|&i| OBJECTS[i].0).collect();
        let qa: Vec<String> = self
            .qa
            .iter()
            .map(|&(k, a)| format!("{}? {}", ATTRIBUTES[k], if a { "yes" } else { "no" }))
            .collect();
        let wrong: Vec<&str> = self.wrong.iter().map(|&i| OBJECTS[i].0).collect();
        let text = format!(
            "Twenty questions: I am thinking of one of these animals: {names}.\nAsk `is it <attribute>?` \
             with an attribute from: {attrs}. Or guess with `it is <animal>`. Questions and guesses each \
             cost a turn; you have {max}.\nAnswers so far: {qa}\nWrong guesses: {wrong}\nTurns left: \
             {left}.\n{status}\n{ANSWER_HINT}",
            names = names.join(", "),
            attrs = ATTRIBUTES.join("; "),
            max = self.ledger.max_turns,
            qa = if qa.is_empty() { "none".into() } else { qa.join("; ") },
            wrong = if wrong.is_empty() { "none".into() } else { wrong.join(", ") },
            left = self.ledger.max_turns - self.ledger.turns,
            status = self.ledger.status(),
        );
        let keys: Vec<String> =
            self.qa.iter().map(|&(k, a)| format!("{k}{}", if a { 'y' } else { 'n' })).collect();
        let wrong: Vec<String> = self.wrong.iter().map(|i| i.to_string()).collect();
        Observation {
            text,
            anchor: format!(
                "twenty_questions|{}|{}|{}|{}",
                self.cands.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(","),
                keys.join(","),
                wrong.join(","),
                self.ledger.turns
            ),
        }
    }

    fn act(&mut self, _agent: AgentId, response: &str) -> Feedback {
        let action = match self.ledger.parse(response) {
            Ok(a) => a,
            Err(f) => return f,
        };
        let action = action.trim_end_matches(['?', '.', '!']).trim().to_string();
        if let Some(q) = action.strip_prefix("is it ") {
            let Some(k) = attribute(q.trim()) else {
                return self.ledger.reject(false, format!("Unknown attribute `{}`.", clip(q)));
            };
            if self.qa.iter().any(|&(j, _)| j == k) {
                return self.ledger.reject(false, format!("Already asked: {}.", ATTRIBUTES[k]));
            }
            let yes = OBJECTS[self.secret].1 >> k & 1 == 1;
            self.qa.push((k, yes));
            return self.spend(format!("Is it {}? {}.", ATTRIBUTES[k], if yes { "Yes" } else { "No" }));
        }
        if let Some(g) = action.strip_prefix("it is ").or_else(|| action.strip_prefix("guess ")) {
            let g = g.trim();
            let g = g.strip_prefix("a ").or_else(|| g.strip_prefix("an ")).unwrap_or(g);
            let Some(&i) = self.cands.iter().find(|&&i| OBJECTS[i].0 == g) else {
                return self.ledger.reject(false, format!("`{}` is not a candidate.", clip(g)));
            };
            if self.wrong.contains(&i) {
                return self.ledger.reject(false, format!("Already guessed {g}."));
            }
            if i == self.secret {
                return self.ledger.finish(true, format!("Yes, it is {g}!"));
            }
            self.wrong.push(i);
            return self.spend(format!("No, it is not {g}."));
        }
        self.ledger.reject(true, format!("`{}` is neither `is it ...?` nor `it is ...`.", clip(&action)))
    }

    fn returns(&self) -> Vec<f64> {
        vec![self.ledger.reward]
    }
}

impl ScriptedEnv for TwentyQuestions {
    fn legal_actions(&self) -> Vec<String> {
        if self.ledger.done {
            return Vec::new();
        }
        let asked = |k: usize| self.qa.iter().any(|&(j, _)| j == k);
        let mut out: Vec<String> = (0..ATTRIBUTES.len())
            .filter(|&k| !asked(k))
            .map(|k| format!("is it {}?", ATTRIBUTES[k]))
            .collect();
        out.extend(
            self.cands.iter().filter(|i| !self.wrong.contains(i)).map(|&i| format!("it is {}", OBJECTS[i].0)),
        );
        out
    }

    fn oracle_action(&self, _rng: &mut Rng) -> String {
        let cands = self.consistent();
        match (cands.len(), split(&cands)) {
            (0, _) => format!("it is {}", OBJECTS[self.cands[0]].0),
            (1, _) | (_, None) => format!("it is {}", OBJECTS[cands[0]].0),
            (_, Some(k)) => format!("is it {}?", ATTRIBUTES[k]),
        }
    }

    fn success(&self) -> bool {
        self.ledger.won
    }
}

/// The attributes the answerer knows, as asked: `is it <attribute>?`.
pub const ATTRIBUTES: [&str; 20] = [
    "a mammal",
    "a bird",
    "a fish",
    "a reptile",
    "an insect",
    "able to fly",
    "a good swimmer",
    "four-legged",
    "bigger than a person",
    "kept as a pet",
    "a farm animal",
    "a meat eater",
    "furry",
    "striped or spotted",
    "found in Africa",
    "a sea animal",
    "a tree climber",
    "horned or antlered",
    "small enough to hold in a hand",
    "venomous",
];
/// The 48 animals: name and attribute bit mask (bit `k` set = yes to [`ATTRIBUTES`]`[k]`).
pub const OBJECTS: [(&str, u32); 48] = [
    ("dog", 1 << 0 | 1 << 6 | 1 << 7 | 1 << 9 | 1 << 11 | 1 << 12),
    ("cat", 1 << 0 | 1 << 7 | 1 << 9 | 1 << 11 | 1 << 12 | 1 << 16),
    ("horse", 1 << 0 | 1 << 7 | 1 << 8 | 1 << 10 | 1 << 12),
    ("cow", 1 << 0 | 1 << 7 | 1 << 8 | 1 << 10 | 1 << 12 | 1 << 13 | 1 << 17),
    ("pig", 1 << 0 | 1 << 7 | 1 << 10),
    ("sheep", 1 << 0 | 1 << 7 | 1 << 10 | 1 << 12),
    ("goat", 1 << 0 | 1 << 7 | 1 << 10 | 1 << 12 | 1 << 16 | 1 << 17),
    ("chicken", 1 << 1 | 1 << 10),
    ("duck", 1 << 1 | 1 << 5 | 1 << 6 | 1 << 10),
    ("rabbit", 1 << 0 | 1 << 7 | 1 << 9 | 1 << 12),
    ("hamster", 1 << 0 | 1 << 7 | 1 << 9 | 1 << 12 | 1 << 18),
    ("mouse", 1 << 0 | 1 << 7 | 1 << 12 | 1 << 16 | 1 << 18),
    ("lion", 1 << 0 | 1 << 7 | 1 << 8 | 1 << 11 | 1 << 12 | 1 << 14),
    ("tiger", 1 << 0 | 1 << 6 | 1 << 7 | 1 << 8 | 1 << 11 | 1 << 12 | 1 << 13),
    ("elephant", 1 << 0 | 1 << 7 | 1 << 8 | 1 << 14),
    ("giraffe", 1 << 0 | 1 << 7 | 1 << 8 | 1 << 12 | 1 << 13 | 1 << 14 | 1 << 17),
    ("zebra", 1 << 0 | 1 << 7 | 1 << 8 | 1 << 12 | 1 << 13 | 1 << 14),
    ("bear", 1 << 0 | 1 << 6 | 1 << 7 | 1 << 8 | 1 << 11 | 1 << 12 | 1 << 16),
    ("wolf", 1 << 0 | 1 << 7 | 1 << 11 | 1 << 12),
    ("fox", 1 << 0 | 1 << 7 | 1 << 11 | 1 << 12 | 1 << 16),
    ("deer", 1 << 0 | 1 << 7 | 1 << 12 | 1 << 17),
    ("monkey", 1 << 0 | 1 << 12 | 1 << 14 | 1 << 16),
    ("kangaroo", 1 << 0 | 1 << 8 | 1 << 12),
    ("whale", 1 << 0 | 1 << 6 | 1 << 8 | 1 << 11 | 1 << 15),
    ("dolphin", 1 << 0 | 1 << 6 | 1 << 11 | 1 << 15),
    ("shark", 1 << 2 | 1 << 6 | 1 << 8 | 1 << 11 | 1 << 15),
    ("salmon", 1 << 2 | 1 << 6),
    ("goldfish", 1 << 2 | 1 << 6 | 1 << 9 | 1 << 18),
    ("eagle", 1 << 1 | 1 << 5 | 1 << 11),
    ("owl", 1 << 1 | 1 << 5 | 1 << 11 | 1 << 16),
    ("penguin", 1 << 1 | 1 << 6 | 1 << 11 | 1 << 15),
    ("parrot", 1 << 1 | 1 << 5 | 1 << 9 | 1 << 16),
    ("snake", 1 << 3 | 1 << 11 | 1 << 13 | 1 << 16 | 1 << 19),
    ("crocodile", 1 << 3 | 1 << 6 | 1 << 7 | 1 << 8 | 1 << 11 | 1 << 14),
    ("turtle", 1 << 3 | 1 << 6 | 1 << 7 | 1 << 15),
    ("lizard", 1 << 3 | 1 << 7 | 1 << 9 | 1 << 16),
    ("bee", 1 << 4 | 1 << 5 | 1 << 13 | 1 << 18 | 1 << 19),
    ("butterfly", 1 << 4 | 1 << 5 | 1 << 13 | 1 << 18),
    ("ant", 1 << 4 | 1 << 16 | 1 << 18),
    ("bat", 1 << 0 | 1 << 5 | 1 << 11 | 1 << 12),
    ("camel", 1 << 0 | 1 << 7 | 1 << 8 | 1 << 10 | 1 << 12 | 1 << 14),
    ("octopus", 1 << 6 | 1 << 11 | 1 << 15),
    ("squirrel", 1 << 0 | 1 << 7 | 1 << 12 | 1 << 16),
    ("leopard", 1 << 0 | 1 << 7 | 1 << 11 | 1 << 12 | 1 << 13 | 1 << 14 | 1 << 16),
    ("hippo", 1 << 0 | 1 << 6 | 1 << 7 | 1 << 8 | 1 << 14),
    ("frog", 1 << 6 | 1 << 7 | 1 << 11 | 1 << 18),
    ("ladybird", 1 << 4 | 1 << 5 | 1 << 13 | 1 << 16 | 1 << 18),
    ("seal", 1 << 0 | 1 << 6 | 1 << 11 | 1 << 12 | 1 << 15),
];
