//! A referential (signalling) game for two seats on one team (after Lewis signalling games and
//! the referential games of emergent-communication work).
//!
//! **Rounds**. Each round shows both seats the same objects, each described by features
//! (colour, shape, then size and pattern at higher levels), in an order private to each seat.
//! The round's speaker (seat 0 in odd rounds, seat 1 in even ones) also sees which object is
//! the target and sends a message of at most the level's number of words from the vocabulary of
//! feature values (`say red star`); some rounds forbid the words of one feature. The listener
//! sees the objects in its own order and the message, never the target, and answers `pick N`
//! (its own numbering). The round is right when the pick is the target. The generator draws
//! objects until the target is singled out by at most the allowed number of allowed words, so
//! every round can be won.
//!
//! **Returns** (cooperative, teams `[0, 0]`): both seats get the share of rounds right, in
//! [0, 1]; a forfeit gives both −1. `success()`: every round right.
//!
//! | level | features | objects | words per message | forbidden feature | rounds |
//! |---|---|---|---|---|---|
//! | 1 | colour, shape | 3 | 2 | none | 2 |
//! | 2 | + size | 4 | 2 | none | 3 |
//! | 3 | + size | 5 | 2 | one per round | 3 |
//! | 4 | + pattern | 7 | 2 | one per round | 4 |
//! | 5 | + pattern | 9 | 1 | one per round | 5 |
//!
//! **Oracle**: the speaker names the values of the smallest set of allowed features (fewest
//! words, then feature order) that only the target has; the listener picks the first object
//! of its order that has every named value. The oracle team is right every round.
//!
//! **Example** (speaker, level 2): `Objects: 1: small red circle; 2: large red star (target);
//! 3: small blue star; 4: large blue circle.` → `say red star`; the listener, seeing
//! `1: large blue circle; 2: large red star; …`, answers `pick 2`.
//!
//! **Failure modes**: naming a feature every object shares, naming a forbidden feature,
//! answering with the speaker's numbering, describing instead of picking.

use super::engine::{push_num, Game, MoveError};
use gauntlet_core::{Difficulty, Rng};

/// Feature names and their values, in the order objects are described.
const FEATURES: [(&str, &[&str]); 4] = [
    ("size", &["small", "medium", "large"]),
    ("colour", &["red", "blue", "green", "yellow", "purple", "orange"]),
    ("pattern", &["plain", "striped", "dotted", "checked"]),
    ("shape", &["circle", "square", "triangle", "star", "heart", "diamond"]),
];

/// An object: a value index per feature (unused features 0).
type Object = [u8; 4];

/// One round: objects (in the generator's order), the target, each seat's view order, the
/// forbidden feature, the message and the pick.
#[derive(Debug, Clone)]
struct Round {
    objects: Vec<Object>,
    target: usize,
    /// `order[seat][k]` = the object shown to `seat` as number `k + 1`.
    order: [Vec<usize>; 2],
    forbidden: Option<usize>,
    message: Option<Vec<(usize, u8)>>,
    pick: Option<usize>,
}

/// The referential game state.
#[derive(Debug, Clone)]
pub struct Referential {
    /// The features in play (indices into [`FEATURES`]).
    features: Vec<usize>,
    words: usize,
    rounds: Vec<Round>,
    current: usize,
}

fn describe(features: &[usize], o: &Object, out: &mut String) {
    let mut first = true;
    for f in 0..4 {
        if features.contains(&f) {
            if !first {
                out.push(' ');
            }
            first = false;
            out.push_str(FEATURES[f].1[o[f] as usize]);
        }
    }
}

/// The smallest set of allowed features (fewest, then feature order) whose values single out
/// `target`, if one of at most `words` exists.
fn distinguishing(
    features: &[usize],
    forbidden: Option<usize>,
    words: usize,
    objects: &[Object],
    target: usize,
) -> Option<Vec<usize>> {
    let allowed: Vec<usize> = features.iter().copied().filter(|&f| Some(f) != forbidden).collect();
    let t = objects[target];
    let mut sets: Vec<Vec<usize>> = Vec::new();
    for mask in 1u32..(1 << allowed.len()) {
        if mask.count_ones() as usize <= words {
            sets.push((0..allowed.len()).filter(|&i| mask & (1 << i) != 0).map(|i| allowed[i]).collect());
        }
    }
    sets.sort_by_key(|s| (s.len(), s.clone()));
    sets.into_iter()
        .find(|s| objects.iter().enumerate().all(|(i, o)| i == target || s.iter().any(|&f| o[f] != t[f])))
}

impl Referential {
    /// The speaker of the running round.
    fn speaker(&self) -> usize {
        self.current % 2
    }

    /// Rounds right so far.
    pub fn right(&self) -> usize {
        self.rounds.iter().filter(|r| r.pick == Some(r.target)).count()
    }

    /// The number of rounds.
    pub fn rounds(&self) -> usize {
        self.rounds.len()
    }

    fn vocabulary(&self, forbidden: Option<usize>) -> Vec<(usize, u8)> {
        let mut out = Vec::new();
        for &f in &self.features {
            if Some(f) != forbidden {
                out.extend((0..FEATURES[f].1.len() as u8).map(|v| (f, v)));
            }
        }
        out
    }

    fn word(w: (usize, u8)) -> &'static str {
        FEATURES[w.0].1[w.1 as usize]
    }

    fn say(words: &[(usize, u8)]) -> String {
        let mut s = String::from("say");
        for &w in words {
            s.push(' ');
            s.push_str(Self::word(w));
        }
        s
    }
}

impl Game for Referential {
    const NAME: &'static str = "referential_game";
    const DESCRIPTION: &'static str =
        "Cooperative signalling: a speaker names the target among distractors in a few words, the listener picks it.";
    const RULES: &'static str = "Referential game (cooperative: you and your partner are one team and share the \
        score). Each round one of you is the speaker and sees which object is the target; the speaker sends a short \
        message of feature words (`say red star`), the listener sees the same objects in its own private order and \
        answers `pick N` with its own numbering. A round is right when the listener picks the target. Score: the share \
        of rounds right.";
    const ZERO_SUM: bool = false;

    fn deal(level: Difficulty, rng: &mut Rng) -> Self {
        let features: Vec<usize> =
            level.pick([&[1, 3][..], &[0, 1, 3], &[0, 1, 3], &[0, 1, 2, 3], &[0, 1, 2, 3]]).to_vec();
        let n = level.pick([3, 4, 5, 7, 9]);
        let words = level.pick([2, 2, 2, 2, 1]);
        let forbid = level.level() >= 3;
        let count = level.pick([2, 3, 3, 4, 5]);
        let mut rounds = Vec::new();
        while rounds.len() < count {
            let forbidden = forbid.then(|| features[rng.index(features.len())]);
            let mut objects: Vec<Object> = Vec::new();
            while objects.len() < n {
                let mut o = [0u8; 4];
                for &f in &features {
                    o[f] = rng.index(FEATURES[f].1.len()) as u8;
                }
                if !objects.contains(&o) {
                    objects.push(o);
                }
            }
            let target = rng.index(n);
            if distinguishing(&features, forbidden, words, &objects, target).is_none() {
                continue;
            }
            let order = [rng.permutation(n), rng.permutation(n)];
            rounds.push(Round { objects, target, order, forbidden, message: None, pick: None });
        }
        Referential { features, words, rounds, current: 0 }
    }

    fn to_move(&self) -> Option<usize> {
        let r = self.rounds.get(self.current)?;
        Some(if r.message.is_none() { self.speaker() } else { 1 - self.speaker() })
    }

    fn teams() -> Vec<usize> {
        vec![0, 0]
    }

    fn forfeit_returns(_offender: usize) -> Vec<f64> {
        vec![-1.0, -1.0]
    }

    fn seat_won(&self, seat: usize, returns: &[f64]) -> bool {
        returns[seat] >= 0.0 && self.current == self.rounds.len() && self.right() == self.rounds.len()
    }

    fn play(&mut self, action: &str, note: &mut String) -> Result<(), MoveError> {
        let Some(seat) = self.to_move() else {
            return Err(MoveError::Illegal("the game is over".into()));
        };
        let speaking = seat == self.speaker();
        let words: Vec<&str> = action.split_whitespace().collect();
        let round = &self.rounds[self.current];
        match words.as_slice() {
            ["say", rest @ ..] if speaking => {
                if rest.is_empty() || rest.len() > self.words {
                    return Err(MoveError::Illegal(format!("say 1 to {} word(s)", self.words)));
                }
                let mut message = Vec::new();
                for w in rest {
                    let Some(found) = self
                        .features
                        .iter()
                        .find_map(|&f| FEATURES[f].1.iter().position(|v| v == w).map(|v| (f, v as u8)))
                    else {
                        return Err(MoveError::Illegal(format!(
                            "`{}` is not in the vocabulary",
                            super::board::clip(w)
                        )));
                    };
                    if Some(found.0) == round.forbidden {
                        return Err(MoveError::Illegal(format!(
                            "this round you may not name the {}",
                            FEATURES[found.0].0
                        )));
                    }
                    if message.contains(&found) {
                        return Err(MoveError::Illegal(format!("`{w}` said twice")));
                    }
                    message.push(found);
                }
                message.sort_unstable();
                note.push_str("the speaker said: ");
                note.push_str(&Self::say(&message)[4..]);
                self.rounds[self.current].message = Some(message);
                Ok(())
            }
            ["pick", n] if !speaking => {
                let k: usize = n
                    .parse()
                    .map_err(|_| MoveError::Format(format!("`{}` is not a number", super::board::clip(n))))?;
                if k == 0 || k > round.objects.len() {
                    return Err(MoveError::Illegal(format!(
                        "objects are numbered 1 to {}",
                        round.objects.len()
                    )));
                }
                let picked = round.order[seat][k - 1];
                let right = picked == round.target;
                note.push_str("the listener picked ");
                describe(&self.features, &round.objects[picked], note);
                note.push_str(if right { ": right" } else { ": wrong" });
                self.rounds[self.current].pick = Some(picked);
                self.current += 1;
                Ok(())
            }
            ["say", ..] => Err(MoveError::Illegal("you are the listener this round: `pick N`".into())),
            ["pick", ..] => Err(MoveError::Illegal("you are the speaker this round: `say WORDS`".into())),
            _ => Err(MoveError::Format(format!(
                "`{}` is not `say WORDS` or `pick N`",
                super::board::clip(action)
            ))),
        }
    }

    fn legal(&self, out: &mut Vec<String>) {
        let Some(seat) = self.to_move() else { return };
        let round = &self.rounds[self.current];
        if seat == self.speaker() {
            let vocab = self.vocabulary(round.forbidden);
            for (i, &a) in vocab.iter().enumerate() {
                out.push(Self::say(&[a]));
                if self.words >= 2 {
                    for &b in &vocab[i + 1..] {
                        out.push(Self::say(&[a, b]));
                    }
                }
            }
        } else {
            out.extend((1..=round.objects.len()).map(|k| format!("pick {k}")));
        }
    }

    fn write_legal(&self, out: &mut String) {
        let Some(seat) = self.to_move() else { return };
        let round = &self.rounds[self.current];
        if seat == self.speaker() {
            out.push_str("say followed by 1 to ");
            push_num(out, self.words);
            out.push_str(" different word(s) from:");
            for w in self.vocabulary(round.forbidden) {
                out.push(' ');
                out.push_str(Self::word(w));
            }
        } else {
            out.push_str("pick 1 to pick ");
            push_num(out, round.objects.len());
        }
    }

    fn render(&self, seat: usize, out: &mut String) {
        for (i, r) in self.rounds[..self.current].iter().enumerate() {
            out.push_str("Round ");
            push_num(out, i + 1);
            out.push_str(if i % 2 == seat { " (you spoke): " } else { " (you listened): " });
            out.push_str(Self::say(r.message.as_deref().unwrap_or_default()).get(4..).unwrap_or_default());
            out.push_str(" -> ");
            out.push_str(if r.pick == Some(r.target) { "right" } else { "wrong" });
            out.push('\n');
        }
        out.push_str("Rounds right: ");
        push_num(out, self.right());
        out.push_str(" of ");
        push_num(out, self.rounds.len());
        out.push('.');
        let Some(round) = self.rounds.get(self.current) else {
            out.push_str("\nAll rounds played.");
            return;
        };
        let speaking = seat == self.speaker();
        out.push_str("\nRound ");
        push_num(out, self.current + 1);
        out.push_str(if speaking { ": you are the speaker." } else { ": you are the listener." });
        out.push_str("\nObjects:");
        for (k, &i) in round.order[seat].iter().enumerate() {
            out.push_str(if k == 0 { " " } else { "; " });
            push_num(out, k + 1);
            out.push_str(": ");
            describe(&self.features, &round.objects[i], out);
            if speaking && i == round.target {
                out.push_str(" (target)");
            }
        }
        out.push('.');
        if let Some(f) = round.forbidden {
            out.push_str("\nThis round the speaker may not name the ");
            out.push_str(FEATURES[f].0);
            out.push('.');
        }
        match &round.message {
            Some(m) => {
                out.push_str(if speaking { "\nYou said:" } else { "\nYour partner said:" });
                out.push_str(&Self::say(m)[3..]);
                out.push('.');
            }
            None if !speaking => out.push_str("\nWaiting for your partner's message."),
            None => {}
        }
    }

    fn anchor(&self, seat: usize, out: &mut String) {
        push_num(out, self.current);
        out.push('|');
        push_num(out, self.right());
        if let Some(round) = self.rounds.get(self.current) {
            let speaking = seat == self.speaker();
            for &i in &round.order[seat] {
                out.push('|');
                describe(&self.features, &round.objects[i], out);
                if speaking && i == round.target {
                    out.push('*');
                }
            }
            out.push('|');
            if let Some(f) = round.forbidden {
                out.push_str(FEATURES[f].0);
            }
            if let Some(m) = &round.message {
                out.push_str(&Self::say(m));
            }
        }
    }

    fn outcome(&self) -> Vec<f64> {
        let r = self.right() as f64 / self.rounds.len().max(1) as f64;
        vec![r, r]
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        let Some(seat) = self.to_move() else { return String::new() };
        let round = &self.rounds[self.current];
        match &round.message {
            None => {
                let set =
                    distinguishing(&self.features, round.forbidden, self.words, &round.objects, round.target)
                        .unwrap_or_default();
                let t = round.objects[round.target];
                let words: Vec<(usize, u8)> = set.into_iter().map(|f| (f, t[f])).collect();
                Self::say(&words)
            }
            Some(m) => {
                let k = round.order[seat]
                    .iter()
                    .position(|&i| m.iter().all(|&(f, v)| round.objects[i][f] == v))
                    .unwrap_or(0);
                format!("pick {}", k + 1)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameEnv;
    use crate::ScriptedEnv;
    use gauntlet_core::{AgentId, Env};

    fn level(n: u8) -> Difficulty {
        Difficulty::new(n).unwrap()
    }

    #[test]
    fn every_round_has_a_distinguishing_message() {
        for lv in 1..=5 {
            for seed in 0..100 {
                let g = Referential::deal(level(lv), &mut Rng::new(seed));
                for r in &g.rounds {
                    let set =
                        distinguishing(&g.features, r.forbidden, g.words, &r.objects, r.target).unwrap();
                    assert!(set.len() <= g.words && !set.contains(&r.forbidden.unwrap_or(9)));
                }
            }
        }
    }

    #[test]
    fn the_listener_never_sees_the_target() {
        let mut env = GameEnv::<Referential>::new();
        for seed in 0..50 {
            env.reset(seed, level(1 + (seed % 5) as u8)).unwrap();
            let mut rng = Rng::new(seed);
            while let Some(seat) = env.to_act() {
                let g = env.game();
                let listener = 1 - g.speaker();
                let obs = env.observe(AgentId(listener));
                assert!(!obs.text.contains("target)") && !obs.anchor.contains('*'), "{}", obs.text);
                assert!(env.observe(AgentId(g.speaker())).text.contains("(target)"));
                let a = env.random_action(&mut rng);
                env.act(seat, &a);
            }
        }
    }

    #[test]
    fn private_orders_differ_and_numbers_are_the_listeners() {
        let mut env = GameEnv::<Referential>::new();
        env.reset(3, level(4)).unwrap();
        let g = env.game().clone();
        let r = &g.rounds[0];
        assert_ne!(r.order[0], r.order[1]);
        env.act(AgentId(0), &format!("<answer>{}</answer>", env.oracle_action(&mut Rng::new(0))));
        // The listener's pick of the target in its own numbering is right.
        let k = r.order[1].iter().position(|&i| i == r.target).unwrap() + 1;
        env.act(AgentId(1), &format!("pick {k}"));
        assert_eq!(env.game().right(), 1);
    }

    #[test]
    fn forbidden_and_unknown_words_are_refused() {
        let mut env = GameEnv::<Referential>::new();
        for seed in 0..20 {
            env.reset(seed, level(3)).unwrap();
            let f = env.game().rounds[0].forbidden.unwrap();
            let fb = env.act(AgentId(0), &format!("say {}", FEATURES[f].1[0]));
            assert!(fb.invalid, "{fb:?}");
            assert!(env.act(AgentId(0), "say gigantic").invalid);
            assert!(env.act(AgentId(0), "pick 1").done);
        }
    }
}
