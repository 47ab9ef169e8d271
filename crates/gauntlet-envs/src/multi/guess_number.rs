//! Guess the number: find a secret integer in `1..=N` from "higher" / "lower" answers.
//!
//! **Generates** a secret uniformly in `1..=N`. **Verifies** each guess against it: the scripted
//! answerer replies `higher` (the secret is larger), `lower` or `correct`. A correct guess ends
//! the episode with reward 1.0; running out of guesses ends it with 0.0 (done, not truncated:
//! the budget is a rule of the game). Non-numbers are format errors, numbers outside `1..=N`
//! are invalid (see [`super::text_common`] for the error allowance).
//!
//! | level | N | guesses (= ⌊log2 N⌋ + 1, binary search's worst case) |
//! |---|---|---|
//! | 1 | 10 | 4 |
//! | 2 | 50 | 6 |
//! | 3 | 100 | 7 |
//! | 4 | 500 | 9 |
//! | 5 | 1000 | 10 |
//!
//! **Example**: N = 10, secret 7: `5` → higher, `8` → lower, `6` → higher, `7` → correct.
//!
//! **Oracle**: binary search on the interval consistent with the answers (exact).
//!
//! **Failure modes**: ignoring the direction, guessing outside the consistent interval, linear
//! scans that exhaust the budget.

use super::text_common::{clip, spec, Ledger, ANSWER_HINT};
use crate::{EnvEntry, ScriptedEnv};
use gauntlet_core::{AgentId, Difficulty, Env, EnvError, EnvKind, EnvSpec, Feedback, Observation, Rng};

const RANGE: [i64; 5] = [10, 50, 100, 500, 1000];
const GUESSES: [usize; 5] = [4, 6, 7, 9, 10];

/// The registry entry.
pub fn entry() -> EnvEntry {
    EnvEntry {
        name: "guess_number",
        kind: EnvKind::MultiTurn,
        seats: 1,
        oracle_success: [1.0; 5],
        make: || Box::new(GuessNumber::new()),
    }
}

/// The guess-the-number environment.
pub struct GuessNumber {
    spec: EnvSpec,
    n: i64,
    secret: i64,
    lo: i64,
    hi: i64,
    history: Vec<(i64, &'static str)>,
    ledger: Ledger,
}

impl GuessNumber {
    /// A new environment (call `reset` before use).
    pub fn new() -> Self {
        GuessNumber {
            spec: spec("guess_number", "agentic", "Find a secret number from higher/lower answers."),
            n: 10,
            secret: 1,
            lo: 1,
            hi: 10,
            history: Vec::new(),
            ledger: Ledger::new(4),
        }
    }
}

impl Default for GuessNumber {
    fn default() -> Self {
        Self::new()
    }
}

impl Env for GuessNumber {
    fn spec(&self) -> &EnvSpec {
        &self.spec
    }

    fn reset(&mut self, seed: u64, difficulty: Difficulty) -> Result<(), EnvError> {
        let mut rng = Rng::for_instance("guess_number", seed, difficulty.level());
        self.n = difficulty.pick(RANGE);
        self.secret = rng.range(1, self.n);
        self.lo = 1;
        self.hi = self.n;
        self.history.clear();
        self.ledger = Ledger::new(difficulty.pick(GUESSES));
        Ok(())
    }

    fn to_act(&self) -> Option<AgentId> {
        (!self.ledger.done).then_some(AgentId(0))
    }

    fn observe(&self, _agent: AgentId) -> Observation {
        let hist: Vec<String> = self.history.iter().map(|(g, a)| format!("{g}:{a}")).collect();
        let text = format!(
            "Guess the secret integer in 1..={n}. After each guess you are told higher (the secret is \
             larger), lower, or correct. You have {max} guesses.\nGuesses so far: {h}\nGuesses left: \
             {left}.\n{status}\nAction: a number in 1..={n}.\n{ANSWER_HINT}",
            n = self.n,
            max = self.ledger.max_turns,
            h = if hist.is_empty() { "none".into() } else { hist.join(", ") },
            left = self.ledger.max_turns - self.ledger.turns,
            status = self.ledger.status(),
        );
        Observation {
            text,
            anchor: format!("guess_number|{}|{}|{}", self.n, hist.join(","), self.ledger.turns),
        }
    }

    fn act(&mut self, _agent: AgentId, response: &str) -> Feedback {
        let action = match self.ledger.parse(response) {
            Ok(a) => a,
            Err(f) => return f,
        };
        let Ok(g) = action.trim_start_matches("guess").trim().parse::<i64>() else {
            return self.ledger.reject(true, format!("Not a number: `{}`.", clip(&action)));
        };
        if g < 1 || g > self.n {
            return self.ledger.reject(false, format!("{g} is outside 1..={}.", self.n));
        }
        if g == self.secret {
            self.history.push((g, "correct"));
            return self.ledger.finish(true, format!("{g} is correct!"));
        }
        let answer = if self.secret > g { "higher" } else { "lower" };
        if self.secret > g {
            self.lo = self.lo.max(g + 1);
        } else {
            self.hi = self.hi.min(g - 1);
        }
        self.history.push((g, answer));
        let msg = format!("{g}: {answer}.");
        if self.ledger.turns + 1 >= self.ledger.max_turns {
            return self
                .ledger
                .finish(false, format!("{msg} Out of guesses; the number was {}.", self.secret));
        }
        self.ledger.advance(msg)
    }

    fn returns(&self) -> Vec<f64> {
        vec![self.ledger.reward]
    }
}

impl ScriptedEnv for GuessNumber {
    fn legal_actions(&self) -> Vec<String> {
        if self.ledger.done {
            return Vec::new();
        }
        (1..=self.n).map(|v| v.to_string()).collect()
    }

    fn oracle_action(&self, _rng: &mut Rng) -> String {
        ((self.lo + self.hi) / 2).to_string()
    }

    fn success(&self) -> bool {
        self.ledger.won
    }
}
