//! Clue (Cluedo) for two players: deduce the suspect, weapon and room hidden in the envelope.
//!
//! **Deal**: one suspect, one weapon and one room card are drawn at random into the envelope;
//! the other cards are shuffled and dealt face down, the same number to each seat; when one is
//! left over it lies face up for both. The level's names are a random subset of the classic
//! six suspects, six weapons and nine rooms.
//!
//! **Moves**, seat 0 first, one per turn: `suggest S W R` (a suspect, a weapon and a room, in
//! that order; any cards, one's own included) or `accuse S W R`. After a suggestion, if the
//! opponent holds any of the three cards it shows one of them to the suggester only: a single
//! matching card is shown automatically, and with several the opponent chooses (`show CARD`, a
//! move that does not use up its turn). Otherwise both seats learn that it holds none of them.
//! An accusation ends the game: the accuser wins if the three cards are exactly the envelope and
//! loses otherwise. After the level's number of suggestions without an accusation the game is a
//! draw (`truncated`). Names are read lowercased; commas between them are allowed.
//!
//! **Returns** (zero-sum): +1 / −1, a draw 0 / 0. `success()` is a seat-0 win.
//!
//! **Private views**: each seat sees its own cards, the face-up card, every suggestion and its
//! response (with two seats the shown card is known to both: the suggester saw it, the other
//! seat showed it), never the opponent's other cards or the envelope until the game is over.
//!
//! | level | suspects / weapons / rooms | cards each (face up) | suggestions | opponent |
//! |---|---|---|---|---|
//! | 1 | 3 / 3 / 3 | 3 (0) | 16 | random suggestions; rules out only the cards it holds or is shown; accuses when sure; shows a random card |
//! | 2 | 4 / 4 / 4 | 4 (1) | 20 | suggests only cards it has not ruled out |
//! | 3 | 5 / 5 / 5 | 6 (0) | 24 | + a "none of them" answer puts the cards it does not hold in the envelope; shows a card it showed before when it can |
//! | 4 | 6 / 6 / 6 | 7 (1) | 30 | + otherwise shows a card of the category where its opponent has most left to learn |
//! | 5 | 6 / 6 / 9 | 9 (0) | 36 | + races: accuses a 1-in-2 guess when its opponent may already know the envelope |
//!
//! **Opponent** (reads only its seat's view): per category, the cards that may still be in the
//! envelope are those it neither holds, nor sees face up, nor was shown; from level 3 a
//! suggestion of its own that the other seat could not answer fixes each named card it does not
//! hold as the envelope's card of that category (with two seats every other card is the other
//! seat's). It accuses once one card is left per category, else suggests one remaining card per
//! category at random. The race rule of level 5 is a worst case: the other seat may know a
//! category when every card of that category the bot holds has been shown to it, or when one of
//! its own suggestions got no card and named a card the bot cannot rule out.
//!
//! **Example** (seat 0, level 1): `Your cards: plum, rope, hall.` After `suggest scarlet dagger
//! kitchen` the history reads `1. You suggested scarlet dagger kitchen: your opponent showed you
//! dagger.`
//!
//! **Failure modes**: suggesting cards already ruled out, ignoring what "none of them" proves,
//! accusing before one card per category is left, showing a new card when an old one would do.

use super::engine::{push_num, Game, MoveError};
use gauntlet_core::{Difficulty, Rng};

const SUSPECTS: [&str; 6] = ["scarlet", "mustard", "white", "green", "peacock", "plum"];
const WEAPONS: [&str; 6] = ["candlestick", "dagger", "pipe", "revolver", "rope", "wrench"];
const ROOMS: [&str; 9] =
    ["kitchen", "ballroom", "conservatory", "dining", "billiard", "library", "lounge", "hall", "study"];
const KINDS: [&str; 3] = ["suspect", "weapon", "room"];

/// A set of cards as a bit mask over card ids (at most 21 cards).
type Cards = u32;

fn has(set: Cards, c: u8) -> bool {
    (set >> c) & 1 == 1
}

/// What the other seat answered to a suggestion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Response {
    /// It holds several of the cards and has to choose which to show.
    Pending,
    /// It showed this card to the suggester.
    Shown(u8),
    /// It holds none of the three.
    NoCard,
}

/// One suggestion and its answer.
#[derive(Debug, Clone, Copy)]
struct Suggestion {
    by: usize,
    cards: [u8; 3],
    response: Response,
}

/// How the scripted player plays (grows with the level).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Style {
    /// Suggests random cards (level 1) rather than cards it has not ruled out.
    random_suggestions: bool,
    /// Reads "none of them" answers to its own suggestions.
    reads_no_card: bool,
    /// Shows a card it already showed when it can.
    reuses_shown: bool,
    /// Otherwise shows a card of the category where the other seat has most left to learn.
    guards_categories: bool,
    /// Accuses a 1-in-2 guess when the other seat may already know the envelope.
    races: bool,
}

impl Style {
    fn of(level: Difficulty) -> Style {
        let l = level.level();
        Style {
            random_suggestions: l == 1,
            reads_no_card: l >= 3,
            reuses_shown: l >= 3,
            guards_categories: l >= 4,
            races: l >= 5,
        }
    }
}

/// A two-seat game of Clue.
#[derive(Debug, Clone)]
pub struct Clue {
    /// Card names by id: suspects, then weapons, then rooms.
    names: Vec<&'static str>,
    /// The category (0 suspect, 1 weapon, 2 room) of each card.
    kind: Vec<u8>,
    envelope: [u8; 3],
    hands: [Cards; 2],
    face_up: Cards,
    log: Vec<Suggestion>,
    /// Suggestions in all before the game is a draw.
    limit: usize,
    /// The accusation that ended the game: seat, cards.
    accusation: Option<(usize, [u8; 3])>,
    style: Style,
}

impl Clue {
    fn n(&self) -> u8 {
        self.names.len() as u8
    }

    /// The cards of category `k`.
    fn of_kind(&self, k: u8) -> impl Iterator<Item = u8> + '_ {
        (0..self.n()).filter(move |&c| self.kind[c as usize] == k)
    }

    fn name(&self, c: u8) -> &'static str {
        self.names[c as usize]
    }

    fn pending(&self) -> Option<usize> {
        self.log.last().filter(|s| s.response == Response::Pending).map(|_| self.log.len() - 1)
    }

    fn over(&self) -> bool {
        self.accusation.is_some() || (self.log.len() >= self.limit && self.pending().is_none())
    }

    fn seat_to_move(&self) -> Option<usize> {
        if self.over() {
            return None;
        }
        match self.pending() {
            Some(i) => Some(1 - self.log[i].by),
            None => Some(self.log.len() % 2),
        }
    }

    /// The card named `word`, which must be of category `k`.
    fn card(&self, word: &str, k: u8) -> Result<u8, MoveError> {
        match self.names.iter().position(|n| *n == word) {
            Some(c) if self.kind[c] == k => Ok(c as u8),
            Some(c) => Err(MoveError::Illegal(format!(
                "`{word}` is a {}, not a {}: name a suspect, a weapon and a room, in that order",
                KINDS[self.kind[c] as usize], KINDS[k as usize]
            ))),
            None => {
                let list: Vec<&str> = self.of_kind(k).map(|c| self.name(c)).collect();
                Err(MoveError::Illegal(format!(
                    "`{}` is not a {} of this game ({})",
                    super::board::clip(word),
                    KINDS[k as usize],
                    list.join(", ")
                )))
            }
        }
    }

    fn write_cards(&self, set: Cards, out: &mut String) {
        let mut first = true;
        for c in (0..self.n()).filter(|&c| has(set, c)) {
            if !first {
                out.push_str(", ");
            }
            first = false;
            out.push_str(self.name(c));
        }
        if first {
            out.push_str("none");
        }
    }

    fn write_triple(&self, t: [u8; 3], out: &mut String) {
        for (i, &c) in t.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(self.name(c));
        }
    }

    /// The cards of `seat`'s hand among `t`.
    fn matching(&self, seat: usize, t: [u8; 3]) -> Cards {
        t.iter().filter(|&&c| has(self.hands[seat], c)).fold(0, |m, &c| m | 1 << c)
    }

    /// The cards `seat` has shown to the other seat.
    fn shown_by(&self, seat: usize) -> Cards {
        self.log.iter().fold(0, |m, s| match s.response {
            Response::Shown(c) if s.by != seat => m | 1 << c,
            _ => m,
        })
    }

    /// Per category, the cards that may still be in the envelope as `seat` sees it (its hand,
    /// the face-up card, the log), with or without reading "none of them" answers.
    fn candidates(&self, seat: usize, reads_no_card: bool) -> [Vec<u8>; 3] {
        let own = self.hands[seat] | self.face_up;
        let mut out_of = own;
        let mut fixed: [Option<u8>; 3] = [None; 3];
        for s in self.log.iter().filter(|s| s.by == seat) {
            match s.response {
                Response::Shown(c) => out_of |= 1 << c,
                Response::NoCard if reads_no_card => {
                    for &c in s.cards.iter().filter(|&&c| !has(own, c)) {
                        fixed[self.kind[c as usize] as usize] = Some(c);
                    }
                }
                _ => {}
            }
        }
        std::array::from_fn(|k| match fixed[k] {
            Some(c) => vec![c],
            None => self.of_kind(k as u8).filter(|&c| !has(out_of, c)).collect(),
        })
    }

    /// Whether the other seat may know the whole envelope, from `seat`'s view (a worst case).
    fn opponent_may_know(&self, seat: usize, cand: &[Vec<u8>; 3]) -> bool {
        let unshown = self.hands[seat] & !self.shown_by(seat);
        (0..3u8).all(|k| {
            self.of_kind(k).all(|c| !has(unshown, c))
                || self.log.iter().any(|s| {
                    s.by != seat
                        && s.response == Response::NoCard
                        && cand[k as usize].contains(&s.cards[k as usize])
                })
        })
    }

    /// The scripted move of the seat to move under `style`.
    fn policy(&self, style: Style, rng: &mut Rng) -> String {
        let Some(seat) = self.seat_to_move() else {
            return String::new();
        };
        if let Some(i) = self.pending() {
            let options = self.matching(seat, self.log[i].cards);
            let again = options & self.shown_by(seat);
            let pick = if style.reuses_shown && again != 0 {
                again.trailing_zeros() as u8
            } else if style.guards_categories {
                // The category where the other seat still has the most of our cards to see.
                let unshown = self.hands[seat] & !self.shown_by(seat);
                let left = |c: u8| {
                    let k = self.kind[c as usize];
                    self.of_kind(k).filter(|&d| has(unshown, d)).count()
                };
                let best = (0..self.n()).filter(|&c| has(options, c)).map(left).max().unwrap_or(0);
                let tied: Vec<u8> = (0..self.n()).filter(|&c| has(options, c) && left(c) == best).collect();
                tied[rng.index(tied.len())]
            } else {
                let all: Vec<u8> = (0..self.n()).filter(|&c| has(options, c)).collect();
                all[rng.index(all.len())]
            };
            return format!("show {}", self.name(pick));
        }
        let cand = self.candidates(seat, style.reads_no_card);
        let left: usize = cand.iter().map(Vec::len).product();
        let pick = |rng: &mut Rng, cand: &[Vec<u8>; 3]| -> [u8; 3] {
            std::array::from_fn(|k| cand[k][rng.index(cand[k].len())])
        };
        let mut out = String::new();
        if left == 1 || (style.races && left <= 2 && self.opponent_may_know(seat, &cand)) {
            out.push_str("accuse ");
            self.write_triple(pick(rng, &cand), &mut out);
            return out;
        }
        out.push_str("suggest ");
        let t = if style.random_suggestions {
            std::array::from_fn(|k| {
                let all: Vec<u8> = self.of_kind(k as u8).collect();
                all[rng.index(all.len())]
            })
        } else {
            pick(rng, &cand)
        };
        self.write_triple(t, &mut out);
        out
    }
}

impl Game for Clue {
    const NAME: &'static str = "clue";
    const DESCRIPTION: &'static str =
        "Clue for two: suggest suspect, weapon and room, see the cards shown, deduce and accuse the envelope.";
    const RULES: &'static str = "Clue for two players. One suspect, one weapon and one room card were drawn at random \
                                 into a hidden envelope; the other cards were dealt face down, the same number to \
                                 each player, and a card left over lies face up for both to see. Players take turns, \
                                 seat 0 first; on your turn do one of:\n\
                                 - `suggest S W R` (a suspect, a weapon and a room, in that order; any cards, your \
                                 own included). If your opponent holds any of the three it shows you one of them, \
                                 privately: a single matching card is shown automatically; holding several, it \
                                 chooses with `show CARD`, which does not use up its turn. Otherwise both players \
                                 learn that it holds none of them.\n\
                                 - `accuse S W R`: if the three cards are exactly the envelope you win, otherwise \
                                 you lose; either way the game ends.\n\
                                 If nobody has accused when the suggestion limit is reached, the game is a draw.";
    const ZERO_SUM: bool = true;

    fn deal(level: Difficulty, rng: &mut Rng) -> Self {
        let sizes = level.pick([[3, 3, 3], [4, 4, 4], [5, 5, 5], [6, 6, 6], [6, 6, 9]]);
        let mut names = Vec::new();
        let mut kind = Vec::new();
        for (k, list) in [&SUSPECTS[..], &WEAPONS[..], &ROOMS[..]].into_iter().enumerate() {
            let mut pick = rng.sample_indices(list.len(), sizes[k]);
            pick.sort_unstable();
            names.extend(pick.into_iter().map(|i| list[i]));
            kind.extend(std::iter::repeat_n(k as u8, sizes[k]));
        }
        let starts = [0, sizes[0], sizes[0] + sizes[1]];
        let envelope: [u8; 3] = std::array::from_fn(|k| (starts[k] + rng.index(sizes[k])) as u8);
        let mut rest: Vec<u8> = (0..names.len() as u8).filter(|c| !envelope.contains(c)).collect();
        rng.shuffle(&mut rest);
        let mut face_up = 0;
        if rest.len() % 2 == 1 {
            face_up = 1 << rest.pop().unwrap_or(0);
        }
        let mut hands = [0; 2];
        for (i, &c) in rest.iter().enumerate() {
            hands[i % 2] |= 1 << c;
        }
        Clue {
            names,
            kind,
            envelope,
            hands,
            face_up,
            log: Vec::new(),
            limit: level.pick([16, 20, 24, 30, 36]),
            accusation: None,
            style: Style::of(level),
        }
    }

    fn to_move(&self) -> Option<usize> {
        self.seat_to_move()
    }

    fn play(&mut self, action: &str, note: &mut String) -> Result<(), MoveError> {
        let Some(seat) = self.seat_to_move() else {
            return Err(MoveError::Illegal("the game is over".into()));
        };
        let words: Vec<&str> = action.split([' ', ',']).filter(|w| !w.is_empty()).collect();
        let verb = words.first().copied().unwrap_or("");
        match verb {
            "suggest" | "accuse" => {
                if words.len() != 4 {
                    return Err(MoveError::Format(format!(
                        "`{verb}` takes a suspect, a weapon and a room, e.g. `{verb} {} {} {}`",
                        self.name(0),
                        self.name(self.of_kind(1).next().unwrap_or(0)),
                        self.name(self.of_kind(2).next().unwrap_or(0)),
                    )));
                }
                if let Some(i) = self.pending() {
                    let mut options = String::new();
                    self.write_cards(self.matching(seat, self.log[i].cards), &mut options);
                    return Err(MoveError::Illegal(format!(
                        "first show one of your matching cards with `show CARD` ({options})"
                    )));
                }
                let t = [self.card(words[1], 0)?, self.card(words[2], 1)?, self.card(words[3], 2)?];
                note.push_str("seat ");
                push_num(note, seat);
                if verb == "accuse" {
                    self.accusation = Some((seat, t));
                    note.push_str(" accused ");
                    self.write_triple(t, note);
                    note.push_str(if t == self.envelope { ": right" } else { ": wrong" });
                    return Ok(());
                }
                let other = 1 - seat;
                let m = self.matching(other, t);
                let response = match m.count_ones() {
                    0 => Response::NoCard,
                    1 => Response::Shown(m.trailing_zeros() as u8),
                    _ => Response::Pending,
                };
                self.log.push(Suggestion { by: seat, cards: t, response });
                note.push_str(" suggested ");
                self.write_triple(t, note);
                note.push_str("; seat ");
                push_num(note, other);
                note.push_str(match response {
                    Response::NoCard => " had none of them",
                    Response::Shown(_) => " showed a card",
                    Response::Pending => " holds several and chooses one to show",
                });
                Ok(())
            }
            "show" => {
                let Some(i) = self.pending() else {
                    return Err(MoveError::Illegal(
                        "there is no suggestion to answer: `suggest S W R` or `accuse S W R`".into(),
                    ));
                };
                if words.len() != 2 {
                    return Err(MoveError::Format("`show` takes one card, e.g. `show rope`".into()));
                }
                let options = self.matching(seat, self.log[i].cards);
                match (0..self.n()).find(|&c| self.name(c) == words[1]) {
                    Some(c) if has(options, c) => {
                        self.log[i].response = Response::Shown(c);
                        note.push_str("seat ");
                        push_num(note, seat);
                        note.push_str(" showed seat ");
                        push_num(note, 1 - seat);
                        note.push_str(" a card");
                        Ok(())
                    }
                    _ => {
                        let mut list = String::new();
                        self.write_cards(options, &mut list);
                        Err(MoveError::Illegal(format!(
                            "`{}` is not one of your cards in the suggestion: show one of {list}",
                            super::board::clip(words[1])
                        )))
                    }
                }
            }
            _ => Err(MoveError::Format(format!(
                "`{}` is not a move: `suggest S W R`, `accuse S W R` or `show CARD`",
                super::board::clip(action)
            ))),
        }
    }

    fn legal(&self, out: &mut Vec<String>) {
        let Some(seat) = self.seat_to_move() else {
            return;
        };
        if let Some(i) = self.pending() {
            let options = self.matching(seat, self.log[i].cards);
            out.extend((0..self.n()).filter(|&c| has(options, c)).map(|c| format!("show {}", self.name(c))));
            return;
        }
        for verb in ["suggest", "accuse"] {
            for s in self.of_kind(0) {
                for w in self.of_kind(1) {
                    for r in self.of_kind(2) {
                        out.push(format!("{verb} {} {} {}", self.name(s), self.name(w), self.name(r)));
                    }
                }
            }
        }
    }

    fn write_legal(&self, out: &mut String) {
        let Some(seat) = self.seat_to_move() else {
            return;
        };
        if let Some(i) = self.pending() {
            let options = self.matching(seat, self.log[i].cards);
            for (j, c) in (0..self.n()).filter(|&c| has(options, c)).enumerate() {
                out.push_str(if j == 0 { "`show " } else { ", `show " });
                out.push_str(self.name(c));
                out.push('`');
            }
            return;
        }
        out.push_str("`suggest S W R` or `accuse S W R` with S one of ");
        for k in 0..3u8 {
            if k > 0 {
                out.push_str(if k == 1 { ", W one of " } else { ", R one of " });
            }
            let all: Vec<&str> = self.of_kind(k).map(|c| self.name(c)).collect();
            out.push_str(&all.join(" "));
        }
    }

    fn render(&self, seat: usize, out: &mut String) {
        out.push_str("You are seat ");
        push_num(out, seat);
        out.push_str(".\n");
        for k in 0..3u8 {
            out.push_str(["Suspects: ", "Weapons: ", "Rooms: "][k as usize]);
            let all: Vec<&str> = self.of_kind(k).map(|c| self.name(c)).collect();
            out.push_str(&all.join(", "));
            out.push_str(".\n");
        }
        out.push_str("Your cards: ");
        self.write_cards(self.hands[seat], out);
        out.push_str(". Your opponent holds ");
        push_num(out, self.hands[1 - seat].count_ones() as usize);
        out.push_str(" cards. Face-up card: ");
        self.write_cards(self.face_up, out);
        out.push_str(".\nSuggestions made: ");
        push_num(out, self.log.len());
        out.push_str(" of at most ");
        push_num(out, self.limit);
        out.push('.');
        for (i, s) in self.log.iter().enumerate() {
            out.push('\n');
            push_num(out, i + 1);
            out.push_str(if s.by == seat { ". You suggested " } else { ". Your opponent suggested " });
            self.write_triple(s.cards, out);
            out.push_str(": ");
            match (s.response, s.by == seat) {
                (Response::NoCard, true) => out.push_str("your opponent had none of them."),
                (Response::NoCard, false) => out.push_str("you had none of them."),
                (Response::Shown(c), true) => {
                    out.push_str("your opponent showed you ");
                    out.push_str(self.name(c));
                    out.push('.');
                }
                (Response::Shown(c), false) => {
                    out.push_str("you showed ");
                    out.push_str(self.name(c));
                    out.push('.');
                }
                (Response::Pending, true) => {
                    out.push_str("your opponent is choosing which card to show you.")
                }
                (Response::Pending, false) => {
                    out.push_str("you hold ");
                    self.write_cards(self.matching(seat, s.cards), out);
                    out.push_str(": choose one to show.");
                }
            }
        }
        if let Some((by, t)) = self.accusation {
            out.push('\n');
            out.push_str(if by == seat { "You accused " } else { "Your opponent accused " });
            self.write_triple(t, out);
            out.push_str(if t == self.envelope { ": right." } else { ": wrong." });
        } else if self.over() {
            out.push_str("\nNo accusation within the suggestion limit: a draw.");
        }
        if self.over() {
            out.push_str("\nThe envelope held: ");
            self.write_triple(self.envelope, out);
            out.push('.');
        }
    }

    fn anchor(&self, seat: usize, out: &mut String) {
        for c in (0..self.n()).filter(|&c| has(self.hands[seat], c)) {
            push_num(out, c as usize);
            out.push(',');
        }
        out.push('|');
        push_num(out, self.face_up.trailing_zeros() as usize);
        for s in &self.log {
            out.push(if s.by == seat { '+' } else { '-' });
            for &c in &s.cards {
                push_num(out, c as usize);
                out.push('.');
            }
            match s.response {
                Response::NoCard => out.push('n'),
                Response::Pending => out.push('p'),
                Response::Shown(c) => push_num(out, c as usize),
            }
        }
    }

    fn outcome(&self) -> Vec<f64> {
        match self.accusation {
            Some((by, t)) => {
                let mut r = vec![-1.0; 2];
                r[if t == self.envelope { by } else { 1 - by }] = 1.0;
                r
            }
            None => vec![0.0; 2],
        }
    }

    fn truncated(&self) -> bool {
        self.accusation.is_none() && self.over()
    }

    fn random_move(&self, rng: &mut Rng) -> String {
        let Some(seat) = self.seat_to_move() else {
            return String::new();
        };
        if let Some(i) = self.pending() {
            let options = self.matching(seat, self.log[i].cards);
            let all: Vec<u8> = (0..self.n()).filter(|&c| has(options, c)).collect();
            return format!("show {}", self.name(all[rng.index(all.len())]));
        }
        let mut out = String::from(if rng.chance(0.5) { "suggest " } else { "accuse " });
        let t: [u8; 3] = std::array::from_fn(|k| {
            let all: Vec<u8> = self.of_kind(k as u8).collect();
            all[rng.index(all.len())]
        });
        self.write_triple(t, &mut out);
        out
    }

    fn oracle(&self, rng: &mut Rng) -> String {
        self.policy(self.style, rng)
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

    fn deal(lv: u8, seed: u64) -> Clue {
        Clue::deal(level(lv), &mut Rng::new(seed))
    }

    #[test]
    fn deals_split_every_card_once() {
        for lv in 1..=5 {
            for seed in 0..30 {
                let g = deal(lv, seed);
                let env: Cards = g.envelope.iter().fold(0, |m, &c| m | 1 << c);
                assert_eq!(g.hands[0] & g.hands[1], 0);
                assert_eq!((g.hands[0] | g.hands[1]) & (env | g.face_up), 0);
                assert_eq!(env & g.face_up, 0);
                assert_eq!((g.hands[0] | g.hands[1] | env | g.face_up).count_ones() as usize, g.names.len());
                assert_eq!(g.hands[0].count_ones(), g.hands[1].count_ones());
                assert!(g.face_up.count_ones() <= 1);
                for k in 0..3 {
                    assert_eq!(g.kind[g.envelope[k] as usize] as usize, k);
                }
            }
        }
    }

    /// Swap an opponent card the seat has not seen with the envelope card of its category.
    fn swapped(g: &Clue, seat: usize) -> Option<Clue> {
        let seen = g.shown_by(1 - seat);
        let mut h = g.clone();
        let c = (0..g.n()).find(|&c| has(g.hands[1 - seat], c) && !has(seen, c))?;
        let k = g.kind[c as usize] as usize;
        let e = g.envelope[k];
        if g.log.iter().any(|s| s.cards.contains(&c) || s.cards.contains(&e)) {
            return None;
        }
        h.hands[1 - seat] = (h.hands[1 - seat] & !(1 << c)) | (1 << e);
        h.envelope[k] = c;
        Some(h)
    }

    #[test]
    fn a_seat_sees_neither_the_other_hand_nor_the_envelope() {
        let mut checked = 0;
        for seed in 0..40 {
            let mut g = deal(1 + (seed % 5) as u8, seed);
            let mut rng = Rng::new(seed);
            for _ in 0..6 {
                if g.over() {
                    break;
                }
                for seat in 0..2 {
                    if let Some(h) = swapped(&g, seat) {
                        let (mut a, mut b) = (String::new(), String::new());
                        g.render(seat, &mut a);
                        h.render(seat, &mut b);
                        assert_eq!(a, b, "seed {seed}");
                        let (mut a, mut b) = (String::new(), String::new());
                        g.anchor(seat, &mut a);
                        h.anchor(seat, &mut b);
                        assert_eq!(a, b);
                        // The scripted player reads only its seat's view.
                        if g.seat_to_move() == Some(seat) && g.pending().is_none() {
                            let mut r2 = rng.clone();
                            assert_eq!(g.oracle(&mut rng.clone()), h.oracle(&mut r2));
                        }
                        checked += 1;
                    }
                }
                let m = g.policy(Style::of(level(2)), &mut rng);
                if m.starts_with("accuse") {
                    break;
                }
                g.play(&m, &mut String::new()).unwrap();
            }
        }
        assert!(checked > 100, "{checked}");
    }

    #[test]
    fn suggestions_are_answered_by_the_rules() {
        let mut env = GameEnv::<Clue>::new();
        env.reset(5, level(3)).unwrap();
        let g = env.game().clone();
        // A suggestion of three of the other seat's cards (or the envelope where it has none).
        let t: [u8; 3] = std::array::from_fn(|k| {
            g.of_kind(k as u8).find(|&c| has(g.hands[1], c)).unwrap_or(g.envelope[k])
        });
        let mut text = String::from("suggest ");
        g.write_triple(t, &mut text);
        let held = g.matching(1, t).count_ones();
        assert!(held >= 2, "seed 5 gives a choice");
        let fb = env.act(AgentId(0), &text.to_uppercase().replace(' ', " , "));
        assert!(!fb.invalid && !fb.format_error, "{fb:?}");
        assert_eq!(env.to_act(), Some(AgentId(1)));
        assert!(env.act(AgentId(1), "suggest a b c").invalid);
        let not_held = (0..g.n()).find(|&c| !has(g.hands[1], c)).unwrap();
        assert!(env.act(AgentId(1), &format!("show {}", g.name(not_held))).invalid);
        let c = (0..g.n()).find(|&c| has(g.matching(1, t), c)).unwrap();
        assert!(!env.act(AgentId(1), &format!("show {}", g.name(c))).invalid);
        let obs0 = env.observe(AgentId(0)).text;
        assert!(obs0.contains(&format!("your opponent showed you {}.", g.name(c))), "{obs0}");
        // Seat 1's turn now (showing did not use it up); the note is public and hides the card.
        assert_eq!(env.to_act(), Some(AgentId(1)));
        assert!(obs0.contains("Last move: seat 1 showed seat 0 a card"));
        // The envelope: nobody holds it, so "none of them".
        let mut text = String::from("suggest ");
        g.write_triple(g.envelope, &mut text);
        assert!(!env.act(AgentId(1), &text).invalid);
        assert!(env.observe(AgentId(0)).text.contains("you had none of them."));
        assert!(env.act(AgentId(0), "accuse").format_error);
        assert!(env.act(AgentId(0), "show rope").invalid);
        let mut text = String::from("accuse ");
        g.write_triple(g.envelope, &mut text);
        let fb = env.act(AgentId(0), &text);
        assert!(fb.done && fb.reward == 1.0, "{fb:?}");
        assert!(env.success());
        assert!(env.observe(AgentId(1)).text.contains("The envelope held"));
    }

    #[test]
    fn a_wrong_accusation_loses_and_the_limit_draws() {
        let mut env = GameEnv::<Clue>::new();
        env.reset(1, level(1)).unwrap();
        let g = env.game().clone();
        let wrong: [u8; 3] =
            [g.of_kind(0).find(|&c| c != g.envelope[0]).unwrap(), g.envelope[1], g.envelope[2]];
        let mut text = String::from("accuse ");
        g.write_triple(wrong, &mut text);
        let fb = env.act(AgentId(0), &text);
        assert!(fb.done && fb.reward == -1.0);
        assert_eq!(env.returns(), vec![-1.0, 1.0]);

        env.reset(2, level(1)).unwrap();
        let g = env.game().clone();
        let mut own = String::from("suggest ");
        let t: [u8; 3] = std::array::from_fn(|k| g.envelope[k]);
        g.write_triple(t, &mut own);
        let mut last = None;
        while let Some(seat) = env.to_act() {
            last = Some(env.act(seat, &own));
        }
        let fb = last.unwrap();
        assert!(fb.done && fb.truncated, "{fb:?}");
        assert_eq!(env.returns(), vec![0.0, 0.0]);
        assert_eq!(env.game().log.len(), 16);
    }

    #[test]
    fn the_bot_accuses_only_when_sure_below_level_five() {
        let mut env = GameEnv::<Clue>::new();
        for lv in 1..=4 {
            for seed in 0..60 {
                env.reset(seed, level(lv)).unwrap();
                let mut rng = Rng::new(seed);
                while let Some(seat) = env.to_act() {
                    let m = env.oracle_action(&mut rng);
                    assert!(env.legal_actions().contains(&m), "{m}");
                    env.act(seat, &m);
                }
                if let Some((_, t)) = env.game().accusation {
                    assert_eq!(t, env.game().envelope, "level {lv} seed {seed}");
                }
            }
        }
    }

    /// Mean return of `strong` against `weak` on the deck of `lv`, seats alternated.
    fn duel(lv: u8, strong: Style, weak: Style, games: u64) -> f64 {
        let mut total = 0.0;
        for seed in 0..games {
            let mut g = deal(lv, seed);
            let mut rng = Rng::new(seed);
            let me = (seed % 2) as usize;
            while let Some(seat) = g.seat_to_move() {
                let m = g.policy(if seat == me { strong } else { weak }, &mut rng);
                g.play(&m, &mut String::new()).unwrap();
            }
            total += g.outcome()[me];
        }
        total / games as f64
    }

    #[test]
    fn stronger_levels_beat_weaker_ones() {
        let s = |l| Style::of(level(l));
        assert!(duel(5, s(2), s(1), 200) > 0.3);
        assert!(duel(5, s(3), s(2), 200) > 0.1);
    }

    /// The oracle's win rate against uniformly random play over `games` games, seats
    /// alternated, and the mean number of moves per game.
    fn against_random(lv: u8, games: u64) -> (f64, f64) {
        let mut env = GameEnv::<Clue>::new();
        let (mut wins, mut moves) = (0, 0);
        for seed in 0..games {
            env.reset(seed, level(lv)).unwrap();
            let mut rng = Rng::new(seed ^ 0x5eed);
            let me = (seed % 2) as usize;
            while let Some(seat) = env.to_act() {
                let m = if seat.0 == me { env.oracle_action(&mut rng) } else { env.random_action(&mut rng) };
                assert!(!env.act(seat, &m).invalid);
                moves += 1;
            }
            let r = env.returns();
            wins += u64::from(r[me] > r[1 - me]);
        }
        (wins as f64 / games as f64, moves as f64 / games as f64)
    }

    #[test]
    fn the_oracle_beats_random_play_from_either_seat() {
        for lv in 1..=5 {
            let (rate, _) = against_random(lv, 100);
            assert!(rate >= 0.85, "level {lv}: {rate}");
        }
    }

    #[test]
    #[ignore = "prints the oracle's win rates against random play and the speed; run with --ignored --nocapture"]
    fn measure_against_random() {
        for lv in 1..=5 {
            let (rate, moves) = against_random(lv, 200);
            println!("level {lv}: oracle wins {rate:.3} against random (seats alternated), {moves:.1} moves per game");
        }
        let entry = crate::registry().into_iter().find(|e| e.name == "clue").unwrap();
        for lv in 1..=5 {
            let opts = crate::bench::EnvBenchOptions {
                levels: vec![level(lv)],
                budget: std::time::Duration::from_secs(2),
                ..Default::default()
            };
            let row = crate::bench::bench_env(&entry, &opts);
            println!("level {lv}: {:.0} steps/s", row.steps_per_sec);
        }
    }

    #[test]
    #[ignore = "prints head-to-head results of the styles; run with --ignored --nocapture"]
    fn measure_styles() {
        let s = |l| Style::of(level(l));
        for deck in 1..=5 {
            for (a, b) in [(2, 1), (3, 2), (4, 3), (5, 4), (5, 3)] {
                println!("deck {deck}: L{a} vs L{b}: {:.3}", duel(deck, s(a), s(b), 2000));
            }
        }
    }
}
