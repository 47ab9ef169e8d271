//! Information-asymmetry question answering for two seats on one team (in the style of
//! Optima's information-exchange tasks: each agent holds part of the evidence).
//!
//! **Generates** a small kinship world: `people` names and facts `X's mother is Y` / `X's father
//! is Y` (at most one mother and one father per person). A question asks for the end of a chain,
//! `Who is Ana's father's mother?`, whose hops are facts of the world; the generator computes the
//! answer by following them. The chain's facts are dealt alternately to the two seats (from a
//! random first seat) and the distractor facts at random, so neither seat can answer alone.
//!
//! **Moves** alternate, seat 0 first: `say TEXT` sends a free-text message (at most
//! [`MAX_MESSAGE`] characters) that both seats see from then on; `answer NAME` answers for the
//! team and ends the game. After the level's turn limit without an answer the game ends
//! unanswered (`truncated`). Moves are read lowercased, so messages appear in lowercase.
//!
//! **Returns** (cooperative, teams `[0, 0]`): 1 to both seats for the right answer, 0 for a
//! wrong one or none; a forfeit gives both −1. `success()`: the right answer.
//!
//! | level | people | hops | distractor facts | turn limit |
//! |---|---|---|---|---|
//! | 1 | 6 | 2 | 2 | 6 |
//! | 2 | 8 | 2 | 5 | 6 |
//! | 3 | 10 | 3 | 7 | 8 |
//! | 4 | 12 | 3 | 10 | 8 |
//! | 5 | 16 | 4 | 14 | 10 |
//!
//! **Oracle**: follows the question's chain through its own facts and those stated in the
//! conversation (sentences `X's mother is Y`); answers once the chain is complete, else says the
//! facts of the chain it resolved that it has not said yet (or that it does not know the next
//! hop). Every turn extends the team's chain by at least one hop, so the oracle team always
//! answers right within the limit.
//!
//! **Example** (seat 0): `Question: Who is Ana's father's mother? Your facts: Ana's father is
//! Ben. Cy's mother is Dee.` → `say Ana's father is Ben.`; seat 1, holding `Ben's mother is
//! Eve.`, answers `answer Eve`.
//!
//! **Failure modes**: answering before the chain is known, repeating facts instead of sharing
//! the missing one, sharing distractors, running out of turns.

use super::engine::{push_num, Game, MoveError};
use gauntlet_core::{Difficulty, Rng};

/// Longest message accepted, in characters.
pub const MAX_MESSAGE: usize = 400;

const NAMES: [&str; 32] = [
    "Ana", "Ben", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lea", "Max", "Nia", "Oto",
    "Pia", "Quin", "Ray", "Sam", "Tess", "Uma", "Vic", "Wes", "Xan", "Yara", "Zed", "Abe", "Bea", "Cal",
    "Dot", "Eli", "Fay",
];
const RELATIONS: [&str; 2] = ["mother", "father"];

/// A fact: `people[subject]`'s `RELATIONS[relation]` is `people[object]`.
type Fact = (usize, usize, usize);

/// The split-facts state.
#[derive(Debug, Clone)]
pub struct SplitFacts {
    people: Vec<&'static str>,
    /// The question: start person and relations to follow.
    start: usize,
    path: Vec<usize>,
    answer: usize,
    facts: [Vec<Fact>; 2],
    limit: usize,
    /// Messages so far: (seat, text).
    log: Vec<(usize, String)>,
    /// The team's answer, once given (index into `people`, or `None` for an unknown name).
    answered: Option<Option<usize>>,
}

impl SplitFacts {
    /// Whether the team answered right.
    pub fn right(&self) -> bool {
        self.answered == Some(Some(self.answer))
    }

    fn over(&self) -> bool {
        self.answered.is_some() || self.log.len() >= self.limit
    }

    fn sentence(&self, f: Fact) -> String {
        format!("{}'s {} is {}.", self.people[f.0], RELATIONS[f.1], self.people[f.2])
    }

    fn question(&self) -> String {
        let mut q = format!("Who is {}'s", self.people[self.start]);
        for (i, &r) in self.path.iter().enumerate() {
            if i > 0 {
                q.push_str("'s");
            }
            q.push(' ');
            q.push_str(RELATIONS[r]);
        }
        q.push('?');
        q
    }

    fn person(&self, name: &str) -> Option<usize> {
        self.people.iter().position(|p| p.eq_ignore_ascii_case(name))
    }

    /// Facts stated in a message: sentences `X's REL is Y`.
    fn parse_facts(&self, text: &str) -> Vec<Fact> {
        let mut out = Vec::new();
        for s in text.split(['.', ';', '\n']) {
            let w: Vec<&str> = s.split_whitespace().collect();
            if let [x, rel, "is", y] = w.as_slice() {
                let (Some(x), Some(rel), Some(y)) = (
                    x.strip_suffix("'s").and_then(|x| self.person(x)),
                    RELATIONS.iter().position(|r| r.eq_ignore_ascii_case(rel)),
                    self.person(y),
                ) else {
                    continue;
                };
                out.push((x, rel, y));
            }
        }
        out
    }

    fn seat(&self) -> usize {
        self.log.len() % 2
    }
}

impl Game for SplitFacts {
    const NAME: &'static str = "split_facts";
    const DESCRIPTION: &'static str =
        "Cooperative question answering: two seats each hold part of a kinship world's facts and must talk to answer.";
    const RULES: &'static str = "Split facts (cooperative: you and your partner are one team and share the score). \
        You both see the same question about a family; each of you holds only some of the facts needed to answer it. \
        On your turn either `say TEXT` (a message your partner will read) or `answer NAME` (the team's answer; it ends \
        the game). Score: 1 for the right answer, 0 otherwise.";
    const ZERO_SUM: bool = false;

    fn deal(level: Difficulty, rng: &mut Rng) -> Self {
        let n = level.pick([6, 8, 10, 12, 16]);
        let hops = level.pick([2, 2, 3, 3, 4]);
        let distractors = level.pick([2, 5, 7, 10, 14]);
        let mut people: Vec<&'static str> = NAMES.to_vec();
        rng.shuffle(&mut people);
        people.truncate(n);
        // The chain visits distinct people 0 -> 1 -> ... -> hops (after the shuffle).
        let chain: Vec<usize> = rng.sample_indices(n, hops + 1);
        let path: Vec<usize> = (0..hops).map(|_| rng.index(2)).collect();
        let mut all: Vec<Fact> = (0..hops).map(|i| (chain[i], path[i], chain[i + 1])).collect();
        let mut known = all.clone();
        let mut tries = 0;
        while known.len() < hops + distractors && tries < 1000 {
            tries += 1;
            let (x, rel, y) = (rng.index(n), rng.index(2), rng.index(n));
            if x == y || known.iter().any(|&(a, r, _)| a == x && r == rel) {
                continue;
            }
            known.push((x, rel, y));
        }
        let mut facts = [Vec::new(), Vec::new()];
        let first = rng.index(2);
        for (i, f) in all.drain(..).enumerate() {
            facts[(first + i) % 2].push(f);
        }
        for &f in &known[hops..] {
            facts[rng.index(2)].push(f);
        }
        for hand in &mut facts {
            rng.shuffle(hand);
        }
        SplitFacts {
            people,
            start: chain[0],
            path,
            answer: chain[hops],
            facts,
            limit: level.pick([6, 6, 8, 8, 10]),
            log: Vec::new(),
            answered: None,
        }
    }

    fn to_move(&self) -> Option<usize> {
        (!self.over()).then(|| self.seat())
    }

    fn teams() -> Vec<usize> {
        vec![0, 0]
    }

    fn forfeit_returns(_offender: usize) -> Vec<f64> {
        vec![-1.0, -1.0]
    }

    fn seat_won(&self, seat: usize, returns: &[f64]) -> bool {
        returns[seat] > 0.0 && self.right()
    }

    fn truncated(&self) -> bool {
        self.answered.is_none()
    }

    fn play(&mut self, action: &str, note: &mut String) -> Result<(), MoveError> {
        if self.over() {
            return Err(MoveError::Illegal("the game is over".into()));
        }
        let seat = self.seat();
        if let Some(text) = action.strip_prefix("say ") {
            let text = text.trim();
            if text.is_empty() {
                return Err(MoveError::Illegal("say something: `say TEXT`".into()));
            }
            if text.chars().count() > MAX_MESSAGE {
                return Err(MoveError::Illegal(format!("messages are at most {MAX_MESSAGE} characters")));
            }
            note.push_str(if seat == 0 { "seat 0 said: " } else { "seat 1 said: " });
            note.push_str(text);
            self.log.push((seat, text.to_string()));
            return Ok(());
        }
        if let Some(name) = action.strip_prefix("answer ") {
            let name = name.trim().trim_end_matches('.');
            if name.is_empty() || name.contains(char::is_whitespace) {
                return Err(MoveError::Format("answer with one name: `answer NAME`".into()));
            }
            let who = self.person(name);
            self.answered = Some(who);
            self.log.push((seat, format!("(answered {name})")));
            note.push_str(if seat == 0 { "seat 0 answered " } else { "seat 1 answered " });
            note.push_str(name);
            note.push_str(if self.right() { ": right" } else { ": wrong" });
            return Ok(());
        }
        Err(MoveError::Format(format!("`{}` is not `say TEXT` or `answer NAME`", super::board::clip(action))))
    }

    fn legal(&self, out: &mut Vec<String>) {
        if self.over() {
            return;
        }
        for &f in &self.facts[self.seat()] {
            out.push(format!("say {}", self.sentence(f)).to_ascii_lowercase());
        }
        out.extend(self.people.iter().map(|p| format!("answer {}", p.to_ascii_lowercase())));
    }

    fn write_legal(&self, out: &mut String) {
        out.push_str("say TEXT (at most ");
        push_num(out, MAX_MESSAGE);
        out.push_str(" characters), or answer NAME");
    }

    fn render(&self, seat: usize, out: &mut String) {
        out.push_str("You are seat ");
        push_num(out, seat);
        out.push_str(".\nQuestion: ");
        out.push_str(&self.question());
        out.push_str("\nPeople: ");
        let mut names = self.people.clone();
        names.sort_unstable();
        out.push_str(&names.join(", "));
        out.push_str(".\nYour facts:");
        for &f in &self.facts[seat] {
            out.push(' ');
            out.push_str(&self.sentence(f));
        }
        out.push_str("\nConversation:");
        if self.log.is_empty() {
            out.push_str(" none yet.");
        }
        for (s, text) in &self.log {
            out.push_str(if *s == seat { "\n  you: " } else { "\n  partner: " });
            out.push_str(text);
        }
        if self.over() {
            out.push_str(match self.answered {
                Some(_) if self.right() => "\nGame over: the team answered right.",
                Some(_) => "\nGame over: the team answered wrong.",
                None => "\nGame over: no answer within the turn limit.",
            });
        } else {
            out.push_str("\nTurns left: ");
            push_num(out, self.limit - self.log.len());
            out.push('.');
        }
    }

    fn anchor(&self, seat: usize, out: &mut String) {
        push_num(out, self.limit - self.log.len().min(self.limit));
        out.push('|');
        out.push_str(&self.question());
        for &f in &self.facts[seat] {
            out.push('|');
            out.push_str(&self.sentence(f));
        }
        for (s, text) in &self.log {
            out.push('|');
            push_num(out, (*s != seat) as usize);
            out.push_str(text);
        }
    }

    fn outcome(&self) -> Vec<f64> {
        let r = if self.right() { 1.0 } else { 0.0 };
        vec![r, r]
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        if self.over() {
            return String::new();
        }
        let seat = self.seat();
        let heard: Vec<Fact> =
            self.log.iter().filter(|(s, _)| *s != seat).flat_map(|(_, t)| self.parse_facts(t)).collect();
        let said: Vec<Fact> =
            self.log.iter().filter(|(s, _)| *s == seat).flat_map(|(_, t)| self.parse_facts(t)).collect();
        let mine = &self.facts[seat];
        let mut at = self.start;
        let mut new = Vec::new();
        for &rel in &self.path {
            let hop = |fs: &[Fact]| fs.iter().find(|f| f.0 == at && f.1 == rel).copied();
            if let Some(f) = hop(&heard) {
                at = f.2;
            } else if let Some(f) = hop(mine) {
                if !said.contains(&f) {
                    new.push(f);
                }
                at = f.2;
            } else {
                if new.is_empty() {
                    let ask = format!("say I do not know {}'s {}.", self.people[at], RELATIONS[rel]);
                    return ask.to_ascii_lowercase();
                }
                let text: Vec<String> = new.iter().map(|&f| self.sentence(f)).collect();
                return format!("say {}", text.join(" ")).to_ascii_lowercase();
            }
        }
        format!("answer {}", self.people[at]).to_ascii_lowercase()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameEnv;
    use gauntlet_core::{AgentId, Env};

    fn level(n: u8) -> Difficulty {
        Difficulty::new(n).unwrap()
    }

    #[test]
    fn chains_are_split_and_facts_consistent() {
        for lv in 1..=5 {
            for seed in 0..100 {
                let g = SplitFacts::deal(level(lv), &mut Rng::new(seed));
                let all: Vec<Fact> = g.facts.iter().flatten().copied().collect();
                for (i, a) in all.iter().enumerate() {
                    assert!(
                        all[i + 1..].iter().all(|b| (a.0, a.1) != (b.0, b.1)),
                        "two values for one relation"
                    );
                }
                // Following the chain through all facts reaches the answer, and neither seat
                // holds the whole chain.
                let mut at = g.start;
                let mut holders = [false; 2];
                for &rel in &g.path {
                    let s = (0..2).find(|&s| g.facts[s].iter().any(|f| f.0 == at && f.1 == rel)).unwrap();
                    holders[s] = true;
                    at = g.facts[s].iter().find(|f| f.0 == at && f.1 == rel).unwrap().2;
                }
                assert_eq!(at, g.answer);
                assert!(holders[0] && holders[1]);
            }
        }
    }

    #[test]
    fn a_seat_sees_only_its_facts_and_the_conversation() {
        let mut env = GameEnv::<SplitFacts>::new();
        for seed in 0..50 {
            env.reset(seed, level(1 + (seed % 5) as u8)).unwrap();
            let g = env.game().clone();
            for seat in 0..2 {
                let obs = env.observe(AgentId(seat));
                for &f in &g.facts[1 - seat] {
                    let s = g.sentence(f);
                    assert!(!obs.text.contains(&s) && !obs.anchor.contains(&s), "seat {seat} sees {s}");
                }
            }
        }
    }

    #[test]
    fn messages_are_shared_and_answers_end_the_game() {
        let mut env = GameEnv::<SplitFacts>::new();
        env.reset(1, level(2)).unwrap();
        assert!(!env.act(AgentId(0), "<answer>say hello partner</answer>").invalid);
        assert!(env.observe(AgentId(1)).text.contains("partner: hello partner"));
        assert!(env.act(AgentId(1), &format!("say {}", "x".repeat(MAX_MESSAGE + 1))).invalid);
        let answer = env.game().people[env.game().answer];
        let fb = env.act(AgentId(1), &format!("answer {answer}"));
        assert!(fb.done && fb.reward == 1.0, "{fb:?}");
        assert_eq!(env.returns(), vec![1.0, 1.0]);
    }
}
