//! A logic puzzle with split clues: two seats on one team each hold part of the clues of a small
//! assignment puzzle, and only all of them together fix the answer (the two-player Einstein
//! puzzles and AsymPuzl of the research notes, "C = C1 ∪ C2").
//!
//! **Generates** `people` names, each with a distinct colour and, from level 3, a distinct pet
//! (a random solution), then clues true of it, `ana has red.`, `ben does not have blue.`,
//! `whoever has red has cat.`, each added only if it rules something out, until exactly one
//! assignment satisfies them all. The clues are dealt to the two seats so that neither seat's
//! clues alone have a unique solution.
//!
//! **Moves** alternate, seat 0 first: `say TEXT` (a message, at most [`MAX_MESSAGE`] characters)
//! or `answer NAME VALUES; NAME VALUES; ...` (`answer ana red cat; ben blue dog; cy green fish`),
//! which ends the game. After the level's turn limit without an answer the game ends
//! (`truncated`). Moves are read lowercased.
//!
//! **Returns** (cooperative, teams `[0, 0]`): 1 to both seats for the right assignment, else 0;
//! a forfeit gives both −1. `success()`: the right assignment.
//!
//! | level | people | attributes | turn limit |
//! |---|---|---|---|
//! | 1 | 3 | colour | 6 |
//! | 2 | 4 | colour | 6 |
//! | 3 | 3 | colour, pet | 6 |
//! | 4 | 4 | colour, pet | 8 |
//! | 5 | 5 | colour, pet | 8 |
//!
//! **Oracle**: says all its clues on its first turn; once it has heard its partner's clues it
//! solves the puzzle by enumeration and answers. The oracle team answers right on the second
//! turn.
//!
//! **Failure modes**: answering from one's own clues alone, sharing a summary that loses a
//! negative clue, misreading `whoever has` links.

use super::engine::{push_num, Game, MoveError};
use gauntlet_core::{Difficulty, Rng};

/// Longest message accepted, in characters.
pub const MAX_MESSAGE: usize = 400;

const NAMES: [&str; 5] = ["ana", "ben", "cy", "dee", "eli"];
const VALUES: [[&str; 5]; 2] =
    [["red", "blue", "green", "yellow", "white"], ["cat", "dog", "fish", "bird", "horse"]];

/// A clue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Clue {
    /// Person has value `v` of attribute `a`.
    Has { person: usize, a: usize, v: usize },
    /// Person does not have value `v` of attribute `a`.
    HasNot { person: usize, a: usize, v: usize },
    /// Whoever has colour `c` has pet `p`.
    Link { c: usize, p: usize },
}

/// An assignment: per attribute, the value index of each person.
type Assignment = Vec<Vec<usize>>;

fn holds(clue: Clue, x: &Assignment) -> bool {
    match clue {
        Clue::Has { person, a, v } => x[a][person] == v,
        Clue::HasNot { person, a, v } => x[a][person] != v,
        Clue::Link { c, p } => (0..x[0].len()).all(|i| (x[0][i] == c) == (x[1][i] == p)),
    }
}

fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for i in 0..n {
            let mut q = p.clone();
            q.insert(i, n - 1);
            out.push(q);
        }
    }
    out
}

fn assignments(n: usize, attrs: usize) -> Vec<Assignment> {
    let perms = permutations(n);
    if attrs == 1 {
        return perms.into_iter().map(|p| vec![p]).collect();
    }
    let mut out = Vec::new();
    for a in &perms {
        for b in &perms {
            out.push(vec![a.clone(), b.clone()]);
        }
    }
    out
}

/// The split-logic state.
#[derive(Debug, Clone)]
pub struct SplitLogic {
    people: usize,
    attrs: usize,
    solution: Assignment,
    clues: [Vec<Clue>; 2],
    limit: usize,
    log: Vec<(usize, String)>,
    answered: Option<bool>,
}

impl SplitLogic {
    fn sentence(c: Clue) -> String {
        match c {
            Clue::Has { person, a, v } => format!("{} has {}.", NAMES[person], VALUES[a][v]),
            Clue::HasNot { person, a, v } => format!("{} does not have {}.", NAMES[person], VALUES[a][v]),
            Clue::Link { c, p } => format!("whoever has {} has {}.", VALUES[0][c], VALUES[1][p]),
        }
    }

    fn value(&self, w: &str) -> Option<(usize, usize)> {
        (0..self.attrs).find_map(|a| VALUES[a][..self.people].iter().position(|&x| x == w).map(|v| (a, v)))
    }

    fn person(&self, w: &str) -> Option<usize> {
        NAMES[..self.people].iter().position(|&x| x == w)
    }

    /// Clues stated in a text (sentences in the forms [`Self::sentence`] writes).
    fn parse_clues(&self, text: &str) -> Vec<Clue> {
        let mut out = Vec::new();
        for s in text.split(['.', ';']) {
            let w: Vec<&str> = s.split_whitespace().collect();
            let clue = match w.as_slice() {
                [x, "has", v] => match (self.person(x), self.value(v)) {
                    (Some(person), Some((a, v))) => Some(Clue::Has { person, a, v }),
                    _ => None,
                },
                [x, "does", "not", "have", v] => match (self.person(x), self.value(v)) {
                    (Some(person), Some((a, v))) => Some(Clue::HasNot { person, a, v }),
                    _ => None,
                },
                ["whoever", "has", c, "has", p] => match (self.value(c), self.value(p)) {
                    (Some((0, c)), Some((1, p))) => Some(Clue::Link { c, p }),
                    _ => None,
                },
                _ => None,
            };
            out.extend(clue);
        }
        out
    }

    fn parse_answer(&self, text: &str) -> Option<Assignment> {
        let mut x = vec![vec![usize::MAX; self.people]; self.attrs];
        for part in text.split([';', ',']) {
            let w: Vec<&str> = part.split_whitespace().collect();
            if w.is_empty() {
                continue;
            }
            let (name, values) = w.split_first()?;
            let person = self.person(name)?;
            for v in values {
                let (a, v) = self.value(v)?;
                x[a][person] = v;
            }
        }
        x.iter().all(|row| row.iter().all(|&v| v != usize::MAX)).then_some(x)
    }

    fn answer_text(&self, x: &Assignment) -> String {
        let parts: Vec<String> = (0..self.people)
            .map(|i| {
                let mut s = NAMES[i].to_string();
                for (a, row) in x.iter().enumerate() {
                    s.push(' ');
                    s.push_str(VALUES[a][row[i]]);
                }
                s
            })
            .collect();
        format!("answer {}", parts.join("; "))
    }

    fn seat(&self) -> usize {
        self.log.len() % 2
    }

    fn over(&self) -> bool {
        self.answered.is_some() || self.log.len() >= self.limit
    }

    /// Whether the team answered right.
    pub fn right(&self) -> bool {
        self.answered == Some(true)
    }
}

impl Game for SplitLogic {
    const NAME: &'static str = "split_logic";
    const DESCRIPTION: &'static str =
        "Cooperative logic puzzle: two seats each hold part of the clues of an assignment puzzle and must combine them.";
    const RULES: &'static str = "Split logic (cooperative: you and your partner are one team and share the score). \
        Each person has a different colour (and, in larger puzzles, a different pet). You each hold only some of the \
        clues; together they fix one answer. On your turn: `say TEXT` (a message) or `answer NAME VALUES; NAME \
        VALUES; ...` for every person (e.g. `answer ana red cat; ben blue dog`), which ends the game. Score: 1 for \
        the right answer.";
    const ZERO_SUM: bool = false;

    fn deal(level: Difficulty, rng: &mut Rng) -> Self {
        let people = level.pick([3, 4, 3, 4, 5]);
        let attrs = level.pick([1, 1, 2, 2, 2]);
        let all = assignments(people, attrs);
        loop {
            let solution = all[rng.index(all.len())].clone();
            let mut candidates: Vec<&Assignment> = all.iter().collect();
            let mut clues = Vec::new();
            let mut tries = 0;
            while candidates.len() > 1 && tries < 500 {
                tries += 1;
                let person = rng.index(people);
                let a = rng.index(attrs);
                let clue = match rng.index(if attrs == 2 { 10 } else { 7 }) {
                    0..=1 => Clue::Has { person, a, v: solution[a][person] },
                    2..=6 => {
                        let v = rng.index(people);
                        if v == solution[a][person] {
                            continue;
                        }
                        Clue::HasNot { person, a, v }
                    }
                    _ => Clue::Link { c: solution[0][person], p: solution[1][person] },
                };
                let kept: Vec<&Assignment> = candidates.iter().copied().filter(|x| holds(clue, x)).collect();
                if kept.len() < candidates.len() {
                    candidates = kept;
                    clues.push(clue);
                }
            }
            if candidates.len() != 1 || clues.len() < 2 {
                continue;
            }
            for _ in 0..20 {
                rng.shuffle(&mut clues);
                let half = clues.len() / 2 + rng.index(clues.len() % 2 + 1);
                let split = [clues[..half].to_vec(), clues[half..].to_vec()];
                let alone = |cs: &[Clue]| all.iter().filter(|x| cs.iter().all(|&c| holds(c, x))).count();
                if alone(&split[0]) > 1 && alone(&split[1]) > 1 {
                    return SplitLogic {
                        people,
                        attrs,
                        solution,
                        clues: split,
                        limit: level.pick([6, 6, 6, 8, 8]),
                        log: Vec::new(),
                        answered: None,
                    };
                }
            }
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
            if text.is_empty() || text.chars().count() > MAX_MESSAGE {
                return Err(MoveError::Illegal(format!("messages have 1 to {MAX_MESSAGE} characters")));
            }
            note.push_str(if seat == 0 { "seat 0 said: " } else { "seat 1 said: " });
            note.push_str(text);
            self.log.push((seat, text.to_string()));
            return Ok(());
        }
        if let Some(text) = action.strip_prefix("answer ") {
            let Some(x) = self.parse_answer(text) else {
                return Err(MoveError::Illegal(
                    "answer every person with a value per attribute: `answer ana red cat; ben blue dog; ...`"
                        .into(),
                ));
            };
            let right = x == self.solution;
            self.answered = Some(right);
            self.log.push((seat, format!("(answered {text})")));
            note.push_str(if seat == 0 { "seat 0 answered: " } else { "seat 1 answered: " });
            note.push_str(if right { "right" } else { "wrong" });
            return Ok(());
        }
        Err(MoveError::Format(format!("`{}` is not `say TEXT` or `answer ...`", super::board::clip(action))))
    }

    fn legal(&self, out: &mut Vec<String>) {
        if self.over() {
            return;
        }
        for &c in &self.clues[self.seat()] {
            out.push(format!("say {}", Self::sentence(c)));
        }
        // A few answers: the identity assignment and its rotations.
        for r in 0..self.people {
            let x: Assignment = (0..self.attrs)
                .map(|a| (0..self.people).map(|i| (i + r + a) % self.people).collect())
                .collect();
            out.push(self.answer_text(&x));
        }
    }

    fn write_legal(&self, out: &mut String) {
        out.push_str("say TEXT, or answer NAME VALUES; NAME VALUES; ... (every person)");
    }

    fn render(&self, seat: usize, out: &mut String) {
        out.push_str("You are seat ");
        push_num(out, seat);
        out.push_str(".\nPeople: ");
        out.push_str(&NAMES[..self.people].join(", "));
        out.push_str(".\nColours: ");
        out.push_str(&VALUES[0][..self.people].join(", "));
        if self.attrs == 2 {
            out.push_str(".\nPets: ");
            out.push_str(&VALUES[1][..self.people].join(", "));
        }
        out.push_str(".\nYour clues:");
        for &c in &self.clues[seat] {
            out.push(' ');
            out.push_str(&Self::sentence(c));
        }
        out.push_str("\nConversation:");
        if self.log.is_empty() {
            out.push_str(" none yet.");
        }
        for (s, text) in &self.log {
            out.push_str(if *s == seat { "\n  you: " } else { "\n  partner: " });
            out.push_str(text);
        }
        match self.answered {
            Some(true) => out.push_str("\nGame over: the team answered right."),
            Some(false) => out.push_str("\nGame over: the team answered wrong."),
            None if self.over() => out.push_str("\nGame over: no answer within the turn limit."),
            None => {
                out.push_str("\nTurns left: ");
                push_num(out, self.limit - self.log.len());
                out.push('.');
            }
        }
    }

    fn anchor(&self, seat: usize, out: &mut String) {
        push_num(out, self.limit - self.log.len().min(self.limit));
        for &c in &self.clues[seat] {
            out.push('|');
            out.push_str(&Self::sentence(c));
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
        let mut known = self.clues[seat].clone();
        for (s, text) in &self.log {
            if *s != seat {
                known.extend(self.parse_clues(text));
            }
        }
        let fits: Vec<Assignment> = assignments(self.people, self.attrs)
            .into_iter()
            .filter(|x| known.iter().all(|&c| holds(c, x)))
            .collect();
        if fits.len() == 1 {
            return self.answer_text(&fits[0]);
        }
        let said: Vec<String> = self.clues[seat].iter().map(|&c| Self::sentence(c)).collect();
        format!("say {}", said.join(" "))
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
    fn puzzles_are_unique_only_together() {
        for lv in 1..=5 {
            for seed in 0..15 {
                let g = SplitLogic::deal(level(lv), &mut Rng::new(seed));
                let all = assignments(g.people, g.attrs);
                let count = |cs: &[Clue]| all.iter().filter(|x| cs.iter().all(|&c| holds(c, x))).count();
                let both: Vec<Clue> = g.clues.iter().flatten().copied().collect();
                assert_eq!(count(&both), 1);
                assert!(count(&g.clues[0]) > 1 && count(&g.clues[1]) > 1);
                assert!(both.iter().all(|&c| holds(c, &g.solution)));
                for &c in &both {
                    assert_eq!(g.parse_clues(&SplitLogic::sentence(c)), vec![c]);
                }
            }
        }
    }

    #[test]
    fn a_seat_sees_only_its_clues() {
        let mut env = GameEnv::<SplitLogic>::new();
        for seed in 0..30 {
            env.reset(seed, level(1 + (seed % 5) as u8)).unwrap();
            let g = env.game().clone();
            for seat in 0..2 {
                let obs = env.observe(AgentId(seat));
                for &c in &g.clues[1 - seat] {
                    if !g.clues[seat].contains(&c) {
                        assert!(!obs.text.contains(&SplitLogic::sentence(c)), "seed {seed}");
                    }
                }
            }
        }
    }

    #[test]
    fn answers_are_parsed_and_scored() {
        let mut env = GameEnv::<SplitLogic>::new();
        env.reset(2, level(3)).unwrap();
        assert!(env.act(AgentId(0), "answer ana red").invalid, "incomplete");
        let text = env.game().answer_text(&env.game().solution.clone());
        let fb = env.act(AgentId(0), &text.to_uppercase());
        assert!(fb.done && fb.reward == 1.0, "{fb:?}");
        assert!(env.success());
    }
}
