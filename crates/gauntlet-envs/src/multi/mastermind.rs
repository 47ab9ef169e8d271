//! Mastermind: break a secret code of coloured pegs from black/white peg feedback.
//!
//! **Generates** a secret code of `L` digits, each a colour in `1..=C` (repeats allowed),
//! uniformly at random.
//!
//! **Verifies** each guess and answers `B` black pegs (right colour, right place) and `W` white
//! pegs (right colour, wrong place): `W = Σ_c min(#c in guess, #c in secret) − B`. Guessing the
//! code ends the episode with reward 1.0; running out of guesses ends it with 0.0 (done, not
//! truncated). A guess is `L` digits, optionally separated by spaces or commas; anything else is
//! a format error, and a wrong length or a digit outside `1..=C` is invalid.
//!
//! | level | length L | colours C | codes | guesses |
//! |---|---|---|---|---|
//! | 1 | 3 | 4 | 64 | 6 |
//! | 2 | 4 | 4 | 256 | 7 |
//! | 3 | 4 | 6 | 1296 | 8 |
//! | 4 | 5 | 6 | 7776 | 9 |
//! | 5 | 5 | 8 | 32768 | 10 |
//!
//! **Example**: secret `1234`, guess `1325` → `B1 W2` (`1` placed; `3` and `2` elsewhere).
//!
//! **Oracle**: Knuth-style: opens with `112`, `1122` or `11223`; then keeps the codes
//! consistent with every answer and guesses the consistent code whose worst-case answer class
//! is smallest (then the smallest sum of squared class sizes), scoring at most 60 evenly spaced
//! consistent codes against at most 400 evenly spaced candidates so that large code spaces stay
//! fast. Measured success over 200 seeds: 1.0 at every level.
//!
//! **Failure modes**: guesses inconsistent with earlier answers, confusing black with white,
//! and miscounting repeated colours.

use super::text_common::{clip, spec, Ledger, ANSWER_HINT};
use crate::{EnvEntry, ScriptedEnv};
use gauntlet_core::{AgentId, Difficulty, Env, EnvError, EnvKind, EnvSpec, Feedback, Observation, Rng};

const SHAPE: [(usize, u8, usize); 5] = [(3, 4, 6), (4, 4, 7), (4, 6, 8), (5, 6, 9), (5, 8, 10)];

/// The registry entry.
pub fn entry() -> EnvEntry {
    EnvEntry {
        name: "mastermind",
        kind: EnvKind::MultiTurn,
        seats: 1,
        oracle_success: [1.0; 5],
        make: || Box::new(Mastermind::new()),
    }
}

/// A code: up to five colours (`1..=8`); only the first `len` entries are used.
type Code = [u8; 5];

/// Black and white pegs of `guess` against `secret` (the first `len` positions).
pub fn pegs(guess: &[u8], secret: &[u8]) -> (usize, usize) {
    let mut black = 0;
    let (mut cg, mut cs) = ([0usize; 10], [0usize; 10]);
    for (g, s) in guess.iter().zip(secret) {
        if g == s {
            black += 1;
        }
        cg[*g as usize % 10] += 1;
        cs[*s as usize % 10] += 1;
    }
    let common: usize = cg.iter().zip(&cs).map(|(a, b)| a.min(b)).sum();
    (black, common - black)
}

fn render(code: &Code, len: usize) -> String {
    code[..len].iter().map(|d| char::from(b'0' + d)).collect()
}

/// The Mastermind environment.
pub struct Mastermind {
    spec: EnvSpec,
    len: usize,
    colours: u8,
    secret: Code,
    rows: Vec<(Code, (usize, usize))>,
    /// Codes consistent with every answer so far (public information, kept for the oracle).
    consistent: Vec<Code>,
    ledger: Ledger,
}

impl Mastermind {
    /// A new environment (call `reset` before use).
    pub fn new() -> Self {
        Mastermind {
            spec: spec("mastermind", "agentic", "Break a secret colour code from black/white peg feedback."),
            len: 3,
            colours: 4,
            secret: [1; 5],
            rows: Vec::new(),
            consistent: Vec::new(),
            ledger: Ledger::new(6),
        }
    }

    fn all_codes(&self) -> Vec<Code> {
        let total = (self.colours as usize).pow(self.len as u32);
        (0..total)
            .map(|mut i| {
                let mut c = [0u8; 5];
                for p in (0..self.len).rev() {
                    c[p] = (i % self.colours as usize) as u8 + 1;
                    i /= self.colours as usize;
                }
                c
            })
            .collect()
    }

    fn parse_code(&self, action: &str) -> Result<Code, (bool, String)> {
        let digits: Vec<char> = action.chars().filter(|c| !matches!(c, ' ' | ',')).collect();
        if digits.is_empty() || !digits.iter().all(|c| c.is_ascii_digit()) {
            return Err((true, format!("`{}` is not a code of digits.", clip(action))));
        }
        if digits.len() != self.len {
            return Err((false, format!("A code has {} digits.", self.len)));
        }
        let mut code = [0u8; 5];
        for (i, c) in digits.iter().enumerate() {
            let d = *c as u8 - b'0';
            if d < 1 || d > self.colours {
                return Err((false, format!("Colours are digits 1..={}.", self.colours)));
            }
            code[i] = d;
        }
        Ok(code)
    }
}

impl Default for Mastermind {
    fn default() -> Self {
        Self::new()
    }
}

impl Env for Mastermind {
    fn spec(&self) -> &EnvSpec {
        &self.spec
    }

    fn reset(&mut self, seed: u64, difficulty: Difficulty) -> Result<(), EnvError> {
        let mut rng = Rng::for_instance("mastermind", seed, difficulty.level());
        let (len, colours, guesses) = difficulty.pick(SHAPE);
        self.len = len;
        self.colours = colours;
        self.secret = [0; 5];
        for p in 0..len {
            self.secret[p] = rng.range(1, colours as i64) as u8;
        }
        self.rows.clear();
        self.consistent = self.all_codes();
        self.ledger = Ledger::new(guesses);
        Ok(())
    }

    fn to_act(&self) -> Option<AgentId> {
        (!self.ledger.done).then_some(AgentId(0))
    }

    fn observe(&self, _agent: AgentId) -> Observation {
        let rows: Vec<String> =
            self.rows.iter().map(|(c, (b, w))| format!("{} B{b} W{w}", render(c, self.len))).collect();
        let text = format!(
            "Mastermind: find the secret code of {len} digits, each a colour 1..={c} (repeats allowed), in \
             {max} guesses. Each guess is answered with B (right colour, right place) and W (right \
             colour, wrong place).\nGuesses:\n{rows}\nGuesses left: {left}.\n{status}\nAction: {len} \
             digits, e.g. {ex}.\n{ANSWER_HINT}",
            len = self.len,
            c = self.colours,
            max = self.ledger.max_turns,
            rows = if rows.is_empty() { "(none)".into() } else { rows.join("\n") },
            left = self.ledger.max_turns - self.ledger.turns,
            status = self.ledger.status(),
            ex = render(&[1, 2, 3, 4, 5], self.len),
        );
        Observation { text, anchor: format!("mastermind|{}x{}|{}", self.len, self.colours, rows.join(",")) }
    }

    fn act(&mut self, _agent: AgentId, response: &str) -> Feedback {
        let action = match self.ledger.parse(response) {
            Ok(a) => a,
            Err(f) => return f,
        };
        let code = match self.parse_code(action.strip_prefix("guess").unwrap_or(&action)) {
            Ok(c) => c,
            Err((format, msg)) => return self.ledger.reject(format, msg),
        };
        let answer = pegs(&code[..self.len], &self.secret[..self.len]);
        self.rows.push((code, answer));
        let len = self.len;
        self.consistent.retain(|c| pegs(&code[..len], &c[..len]) == answer);
        let msg = format!("{} B{} W{}", render(&code, len), answer.0, answer.1);
        if answer.0 == len {
            return self.ledger.finish(true, format!("{msg}: cracked!"));
        }
        if self.ledger.turns + 1 >= self.ledger.max_turns {
            return self.ledger.finish(
                false,
                format!("{msg}. Out of guesses; the code was {}.", render(&self.secret, len)),
            );
        }
        self.ledger.advance(format!("{msg}."))
    }

    fn returns(&self) -> Vec<f64> {
        vec![self.ledger.reward]
    }
}

impl ScriptedEnv for Mastermind {
    /// A representative sample of 40 evenly spaced codes (the code space reaches 32768).
    fn legal_actions(&self) -> Vec<String> {
        if self.ledger.done {
            return Vec::new();
        }
        let all = self.all_codes();
        let step = all.len().div_ceil(40);
        all.iter().step_by(step).map(|c| render(c, self.len)).collect()
    }

    fn random_action(&self, rng: &mut Rng) -> String {
        (0..self.len).map(|_| char::from(b'1' + rng.below(self.colours as u64) as u8)).collect()
    }

    fn oracle_action(&self, _rng: &mut Rng) -> String {
        if self.rows.is_empty() {
            return render(&[1, 1, 2, 2, 3], self.len);
        }
        let cands = &self.consistent;
        if cands.len() <= 2 {
            return cands.first().map(|c| render(c, self.len)).unwrap_or_default();
        }
        let sample = |n: usize| cands.iter().step_by(cands.len().div_ceil(n));
        let mut best: Option<((usize, usize), Code)> = None;
        let mut counts = vec![0usize; 64];
        for g in sample(60) {
            counts.fill(0);
            for c in sample(400) {
                let (b, w) = pegs(&g[..self.len], &c[..self.len]);
                counts[b * 8 + w] += 1;
            }
            let key = (*counts.iter().max().unwrap_or(&0), counts.iter().map(|n| n * n).sum());
            if best.is_none_or(|(k, _)| key < k) {
                best = Some((key, *g));
            }
        }
        best.map(|(_, g)| render(&g, self.len)).unwrap_or_default()
    }

    fn success(&self) -> bool {
        self.ledger.won
    }
}
