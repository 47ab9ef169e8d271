//! Hanabi with small decks: a cooperative card game for two seats on one team (after the
//! Hanabi Learning Environment's rules and MARSHAL's Mini/Simple Hanabi).
//!
//! **Rules**. A deck holds, per colour, three 1s, two of each middle rank and one top card.
//! Each seat holds a hand it cannot see while seeing its partner's. On its turn a seat either
//! plays a card (`play N`, slot `N` of its hand: it extends its colour's firework if its rank is
//! the next one, else it burns a fuse and is discarded), discards one (`discard N`, regains a
//! hint token; illegal while every token is available) or spends a hint token to tell its partner
//! every card of one colour or one rank in their hand (`hint color red`, `hint rank 2`; the hint
//! must touch at least one card). A played or discarded card is replaced from the deck (the new
//! card takes the last slot; slot 1 is the oldest). Completing a firework returns a hint token.
//! The game ends when the last fuse burns (the team scores **0**, as in the Hanabi Learning
//! Environment), when every firework is complete, or once each seat has had one more turn after
//! the deck ran out.
//!
//! **Views**: a seat sees its partner's cards and what its partner knows about them, what it
//! knows about its own cards (hinted colour and rank, the colours and ranks hints ruled out),
//! fireworks, discards, tokens and the deck size, never its own cards. A card that a hint newly
//! touches last in the hand (the newest touched card, when the hint touches a card no earlier
//! hint touched) is shown as `clued`: the cue the scripted team plays on.
//!
//! **Returns** (cooperative, [`Game::teams`] `[0, 0]`): both seats get the team score divided by
//! the maximum (colours × ranks), in [0, 1]. A forfeit (too many bad moves by either seat) gives
//! both seats −1, below any game's score. `success()`: the team score reaches the level's
//! threshold (below).
//!
//! | level | colours × ranks | deck | hand | hint tokens | fuses | max | success at |
//! |---|---|---|---|---|---|---|---|
//! | 1 | 2 × 3 | 12 | 3 | 4 | 3 | 6 | ≥ 4 |
//! | 2 | 3 × 3 | 18 | 4 | 6 | 3 | 9 | ≥ 6 |
//! | 3 | 3 × 4 | 24 | 4 | 8 | 3 | 12 | ≥ 8 |
//! | 4 | 4 × 4 | 32 | 5 | 8 | 3 | 16 | ≥ 10 |
//! | 5 | 5 × 5 | 50 | 5 | 8 | 3 | 25 | ≥ 15 |
//!
//! **Oracle** (a convention-based team; each seat reads only its own view): (1) play a card
//! whose every identity still possible (given hints and the cards it can see) is playable;
//! (2) play a `clued` card if one of its possible identities is playable; (3) with a token, give
//! the hint whose newest newly touched card in the partner's hand is playable (lowest rank first,
//! never a card already clued or a duplicate of one); (4) with a token missing, discard a card
//! known useless, else the oldest untouched card; (5) with every token in hand and nothing to
//! cue, give a hint that cannot be read as a cue to play (only touching touched cards, or whose
//! newest card cannot be playable by what the partner knows). The measured team scores per level
//! are in `docs/environments.md` (`measure_team_tables` in [`super::teams`]).
//!
//! **Example** (seat 1's view, level 1): `Fireworks: red 1, yellow 0.` … `Your hand: 1: ? ?,
//! 2: ? 2 (clued), 3: ? ?` … `Partner's hand: 1: Y1 (they know: yellow ?), …` → `play 2`.
//!
//! **Failure modes**: playing an unhinted card on a guess, hinting cards that are not playable,
//! discarding the partner's last copy of a needed card, wasting tokens.

use super::engine::{push_num, Game, MoveError};
use gauntlet_core::{Difficulty, Rng};

const COLOURS: [&str; 5] = ["red", "yellow", "green", "blue", "white"];
const LETTERS: [char; 5] = ['R', 'Y', 'G', 'B', 'W'];

/// One card: colour index and rank (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Card {
    /// Colour index into red, yellow, green, blue, white.
    pub colour: u8,
    /// Rank, from 1.
    pub rank: u8,
}

/// What a seat knows about one of its cards, from hints (public knowledge).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Knowledge {
    colour: Option<u8>,
    rank: Option<u8>,
    /// Colours ruled out (bit per colour).
    not_colours: u8,
    /// Ranks ruled out (bit `r - 1`).
    not_ranks: u8,
    /// Some hint has touched this card.
    touched: bool,
    /// Cued to play by a hint (the newest card a hint newly touched).
    clued: bool,
}

impl Knowledge {
    fn allows(&self, c: Card) -> bool {
        self.colour.map_or(self.not_colours & (1 << c.colour) == 0, |k| k == c.colour)
            && self.rank.map_or(self.not_ranks & (1 << (c.rank - 1)) == 0, |k| k == c.rank)
    }
}

#[derive(Debug, Clone, Copy)]
struct Slot {
    card: Card,
    know: Knowledge,
}

/// A hint: a colour or a rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Hint {
    Colour(u8),
    Rank(u8),
}

/// The Hanabi state.
#[derive(Debug, Clone)]
pub struct Hanabi {
    colours: usize,
    ranks: usize,
    max_hints: u32,
    max_fuses: u32,
    threshold: usize,
    hints: u32,
    fuses: u32,
    /// Cards to draw, from the end.
    deck: Vec<Card>,
    hands: [Vec<Slot>; 2],
    /// Firework height per colour.
    stacks: Vec<u8>,
    discards: Vec<Card>,
    next: usize,
    /// Turns left once the deck has run out.
    final_turns: Option<usize>,
}

fn copies(rank: u8, ranks: usize) -> usize {
    if rank == 1 {
        3
    } else if rank as usize == ranks {
        1
    } else {
        2
    }
}

impl Hanabi {
    /// The team score so far (0 once the last fuse has burned).
    pub fn score(&self) -> usize {
        if self.fuses == 0 {
            0
        } else {
            self.stacks.iter().map(|&s| s as usize).sum()
        }
    }

    /// The largest possible score (colours × ranks).
    pub fn max_score(&self) -> usize {
        self.colours * self.ranks
    }

    /// The level's success threshold on the team score.
    pub fn threshold(&self) -> usize {
        self.threshold
    }

    /// The cards of `seat`'s hand (reading them breaks privacy; for tests).
    pub fn hand(&self, seat: usize) -> Vec<Card> {
        self.hands[seat].iter().map(|s| s.card).collect()
    }

    fn over(&self) -> bool {
        self.fuses == 0 || self.final_turns == Some(0) || self.score() == self.max_score()
    }

    fn playable(&self, c: Card) -> bool {
        self.stacks[c.colour as usize] + 1 == c.rank
    }

    fn useless(&self, c: Card) -> bool {
        c.rank <= self.stacks[c.colour as usize]
    }

    fn touches(&self, seat: usize, hint: Hint) -> Vec<usize> {
        (0..self.hands[seat].len())
            .filter(|&i| {
                let c = self.hands[seat][i].card;
                match hint {
                    Hint::Colour(k) => c.colour == k,
                    Hint::Rank(r) => c.rank == r,
                }
            })
            .collect()
    }

    /// The hints that touch at least one of `seat`'s cards, colours first.
    fn hints_for(&self, seat: usize) -> Vec<Hint> {
        let hand = &self.hands[seat];
        let colours = (0..self.colours as u8).filter(|&k| hand.iter().any(|s| s.card.colour == k));
        let ranks = (1..=self.ranks as u8).filter(|&r| hand.iter().any(|s| s.card.rank == r));
        colours.map(Hint::Colour).chain(ranks.map(Hint::Rank)).collect()
    }

    fn draw(&mut self, seat: usize) {
        if let Some(card) = self.deck.pop() {
            self.hands[seat].push(Slot { card, know: Knowledge::default() });
            if self.deck.is_empty() {
                self.final_turns = Some(2);
            }
        }
    }

    fn apply_hint(&mut self, seat: usize, hint: Hint) {
        let touched = self.touches(seat, hint);
        let fresh = touched.iter().any(|&i| !self.hands[seat][i].know.touched);
        for (i, slot) in self.hands[seat].iter_mut().enumerate() {
            let on = touched.contains(&i);
            let k = &mut slot.know;
            match hint {
                Hint::Colour(c) if on => k.colour = Some(c),
                Hint::Colour(c) => k.not_colours |= 1 << c,
                Hint::Rank(r) if on => k.rank = Some(r),
                Hint::Rank(r) => k.not_ranks |= 1 << (r - 1),
            }
            k.touched |= on;
        }
        if fresh {
            if let Some(&last) = touched.last() {
                self.hands[seat][last].know.clued = true;
            }
        }
    }

    /// The identities `seat` may still hold in slot `i`: allowed by its knowledge and not all
    /// copies accounted for by what it sees (fireworks, discards, its partner's hand).
    fn possible(&self, seat: usize, know: &Knowledge) -> Vec<Card> {
        let mut out = Vec::new();
        for colour in 0..self.colours as u8 {
            for rank in 1..=self.ranks as u8 {
                let c = Card { colour, rank };
                if !know.allows(c) {
                    continue;
                }
                let seen = (rank <= self.stacks[colour as usize]) as usize
                    + self.discards.iter().filter(|&&d| d == c).count()
                    + self.hands[1 - seat].iter().filter(|s| s.card == c).count();
                if seen < copies(rank, self.ranks) {
                    out.push(c);
                }
            }
        }
        out
    }

    fn write_card(out: &mut String, c: Card) {
        out.push(LETTERS[c.colour as usize]);
        push_num(out, c.rank as usize);
    }

    fn write_know(&self, out: &mut String, k: &Knowledge) {
        out.push_str(k.colour.map_or("?", |c| COLOURS[c as usize]));
        out.push(' ');
        match k.rank {
            Some(r) => push_num(out, r as usize),
            None => out.push('?'),
        }
        let mut nots = Vec::new();
        if k.colour.is_none() {
            nots.extend(
                (0..self.colours).filter(|&c| k.not_colours & (1 << c) != 0).map(|c| COLOURS[c].to_string()),
            );
        }
        if k.rank.is_none() {
            nots.extend(
                (1..=self.ranks).filter(|&r| k.not_ranks & (1 << (r - 1)) != 0).map(|r| r.to_string()),
            );
        }
        if !nots.is_empty() || k.clued {
            out.push_str(" (");
            if !nots.is_empty() {
                out.push_str("not ");
                out.push_str(&nots.join("/"));
            }
            if k.clued {
                out.push_str(if nots.is_empty() { "clued" } else { ", clued" });
            }
            out.push(')');
        }
    }

    fn hint_text(hint: Hint) -> String {
        match hint {
            Hint::Colour(c) => format!("hint color {}", COLOURS[c as usize]),
            Hint::Rank(r) => format!("hint rank {r}"),
        }
    }

    fn parse(&self, action: &str) -> Result<(u8, usize, Option<Hint>), MoveError> {
        let words: Vec<&str> = action.split_whitespace().collect();
        let bad = || {
            MoveError::Format(format!(
                "`{}` is not `play N`, `discard N` or a hint",
                super::board::clip(action)
            ))
        };
        let colour = |w: &str| COLOURS.iter().position(|&c| c == w).map(|c| c as u8);
        match words.as_slice() {
            [verb @ ("play" | "discard"), n] => {
                let n: usize = n.parse().map_err(|_| bad())?;
                Ok((if *verb == "play" { 0 } else { 1 }, n, None))
            }
            ["hint", "color" | "colour", w] | ["hint", w] if colour(w).is_some() => {
                Ok((2, 0, colour(w).map(Hint::Colour)))
            }
            ["hint", "color" | "colour", w] => {
                Err(MoveError::Illegal(format!("`{}` is not a colour of this game", super::board::clip(w))))
            }
            ["hint", "rank", n] | ["hint", n] => {
                let r: u8 = n.parse().map_err(|_| bad())?;
                Ok((2, 0, Some(Hint::Rank(r))))
            }
            _ => Err(bad()),
        }
    }

    /// Seat `seat`'s scripted move (only its view is read).
    fn decide(&self, seat: usize) -> String {
        let hand = &self.hands[seat];
        let partner = 1 - seat;
        let possible: Vec<Vec<Card>> = hand.iter().map(|s| self.possible(seat, &s.know)).collect();
        // 1. A card certainly playable.
        if let Some(i) = (0..hand.len())
            .find(|&i| !possible[i].is_empty() && possible[i].iter().all(|&c| self.playable(c)))
        {
            return format!("play {}", i + 1);
        }
        // 2. A clued card that may be playable.
        if let Some(i) =
            (0..hand.len()).find(|&i| hand[i].know.clued && possible[i].iter().any(|&c| self.playable(c)))
        {
            return format!("play {}", i + 1);
        }
        let hints = self.hints_for(partner);
        // 3. Cue a playable card of the partner's.
        if self.hints > 0 {
            let theirs = &self.hands[partner];
            let cued: Vec<Card> = theirs.iter().filter(|s| s.know.clued).map(|s| s.card).collect();
            let best =
                hints
                    .iter()
                    .filter_map(|&h| {
                        let touched = self.touches(partner, h);
                        if touched.iter().all(|&i| theirs[i].know.touched) {
                            return None;
                        }
                        let last = *touched.last()?;
                        let card = theirs[last].card;
                        (self.playable(card) && !theirs[last].know.clued && !cued.contains(&card))
                            .then_some((card.rank, matches!(h, Hint::Rank(_)), h))
                    })
                    .min_by_key(|&(rank, is_rank, _)| (rank, is_rank));
            if let Some((_, _, h)) = best {
                return Self::hint_text(h);
            }
        }
        // 4. Discard: a useless card, else the oldest untouched, else the oldest unclued.
        if self.hints < self.max_hints {
            let i = (0..hand.len())
                .find(|&i| !possible[i].is_empty() && possible[i].iter().all(|&c| self.useless(c)))
                .or_else(|| (0..hand.len()).find(|&i| !hand[i].know.touched))
                .or_else(|| (0..hand.len()).find(|&i| !hand[i].know.clued))
                .unwrap_or(0);
            return format!("discard {}", i + 1);
        }
        // 5. Every token in hand: a hint that cues nothing playable-looking.
        let theirs = &self.hands[partner];
        let safe = hints.iter().find(|&&h| {
            let touched = self.touches(partner, h);
            if touched.iter().all(|&i| theirs[i].know.touched) {
                return true;
            }
            let Some(&last) = touched.last() else { return false };
            let mut know = theirs[last].know;
            match h {
                Hint::Colour(c) => know.colour = Some(c),
                Hint::Rank(r) => know.rank = Some(r),
            }
            !self.possible(partner, &know).iter().any(|&c| self.playable(c))
        });
        match safe.or(hints.first()) {
            Some(&h) => Self::hint_text(h),
            None => "play 1".into(),
        }
    }
}

impl Game for Hanabi {
    const NAME: &'static str = "hanabi";
    const DESCRIPTION: &'static str =
        "Cooperative Hanabi with small decks (2x3 to 5x5), two seats on one team, hint and fuse tokens.";
    const RULES: &'static str = "Hanabi (cooperative: you and your partner are one team and share the score). Build \
        one firework per colour by playing its cards in rank order 1, 2, 3, .... You see your partner's cards but not \
        your own. On your turn: `play N` plays your card in slot N (a card that is not the next of its colour burns a \
        fuse); `discard N` discards it and regains a hint token (not while all tokens are available); `hint color X` \
        or `hint rank N` spends a token to show your partner every card of that colour or rank in their hand. A \
        played or discarded card is replaced from the deck into your last slot (slot 1 is your oldest card). \
        Completing a firework returns a token. Score: the sum of the fireworks, 0 if the last fuse burns; once the \
        deck is empty each player has one more turn.";
    const ZERO_SUM: bool = false;

    fn deal(level: Difficulty, rng: &mut Rng) -> Self {
        let (colours, ranks) = level.pick([(2, 3), (3, 3), (3, 4), (4, 4), (5, 5)]);
        let hand = level.pick([3, 4, 4, 5, 5]);
        let max_hints = level.pick([4, 6, 8, 8, 8]);
        let mut deck = Vec::new();
        for colour in 0..colours as u8 {
            for rank in 1..=ranks as u8 {
                deck.extend(std::iter::repeat_n(Card { colour, rank }, copies(rank, ranks)));
            }
        }
        rng.shuffle(&mut deck);
        let mut game = Hanabi {
            colours,
            ranks,
            max_hints,
            max_fuses: 3,
            threshold: level.pick([4, 6, 8, 10, 15]),
            hints: max_hints,
            fuses: 3,
            deck,
            hands: [Vec::new(), Vec::new()],
            stacks: vec![0; colours],
            discards: Vec::new(),
            next: 0,
            final_turns: None,
        };
        for _ in 0..hand {
            game.draw(0);
            game.draw(1);
        }
        game
    }

    fn to_move(&self) -> Option<usize> {
        (!self.over()).then_some(self.next)
    }

    fn teams() -> Vec<usize> {
        vec![0, 0]
    }

    fn forfeit_returns(_offender: usize) -> Vec<f64> {
        vec![-1.0, -1.0]
    }

    fn seat_won(&self, seat: usize, returns: &[f64]) -> bool {
        returns[seat] >= 0.0 && self.score() >= self.threshold
    }

    fn play(&mut self, action: &str, note: &mut String) -> Result<(), MoveError> {
        if self.over() {
            return Err(MoveError::Illegal("the game is over".into()));
        }
        let seat = self.next;
        let was_final = self.final_turns.is_some();
        let (kind, n, hint) = self.parse(action)?;
        let size = self.hands[seat].len();
        match kind {
            0 | 1 => {
                if n == 0 || n > size {
                    return Err(MoveError::Illegal(format!("you have slots 1 to {size}, not {n}")));
                }
                if kind == 1 && self.hints == self.max_hints {
                    return Err(MoveError::Illegal(
                        "you cannot discard while every hint token is available".into(),
                    ));
                }
                let card = self.hands[seat].remove(n - 1).card;
                note.push_str(if seat == 0 { "player 0 " } else { "player 1 " });
                if kind == 1 {
                    self.discards.push(card);
                    self.hints += 1;
                    note.push_str("discarded ");
                    Self::write_card(note, card);
                } else if self.playable(card) {
                    self.stacks[card.colour as usize] = card.rank;
                    if card.rank as usize == self.ranks && self.hints < self.max_hints {
                        self.hints += 1;
                    }
                    note.push_str("played ");
                    Self::write_card(note, card);
                } else {
                    self.discards.push(card);
                    self.fuses -= 1;
                    note.push_str("misplayed ");
                    Self::write_card(note, card);
                    note.push_str(" (a fuse burned)");
                }
                self.draw(seat);
            }
            _ => {
                let hint = hint.unwrap_or(Hint::Rank(0));
                if let Hint::Rank(r) = hint {
                    if r == 0 || r as usize > self.ranks {
                        return Err(MoveError::Illegal(format!("ranks go from 1 to {}", self.ranks)));
                    }
                }
                if let Hint::Colour(c) = hint {
                    if c as usize >= self.colours {
                        return Err(MoveError::Illegal(format!(
                            "`{}` is not a colour of this game",
                            COLOURS[c as usize]
                        )));
                    }
                }
                if self.hints == 0 {
                    return Err(MoveError::Illegal("no hint token left: play or discard".into()));
                }
                let touched = self.touches(1 - seat, hint);
                if touched.is_empty() {
                    return Err(MoveError::Illegal(
                        "a hint must touch at least one of your partner's cards".into(),
                    ));
                }
                self.hints -= 1;
                self.apply_hint(1 - seat, hint);
                note.push_str(if seat == 0 { "player 0 hinted " } else { "player 1 hinted " });
                note.push_str(&Self::hint_text(hint)[5..]);
                note.push_str(": slot(s)");
                for i in touched {
                    note.push(' ');
                    push_num(note, i + 1);
                }
            }
        }
        // The move that draws the last card does not count against the last round.
        if was_final {
            self.final_turns = self.final_turns.map(|t| t.saturating_sub(1));
        }
        self.next = 1 - seat;
        Ok(())
    }

    fn legal(&self, out: &mut Vec<String>) {
        if self.over() {
            return;
        }
        let seat = self.next;
        let n = self.hands[seat].len();
        out.extend((1..=n).map(|i| format!("play {i}")));
        if self.hints < self.max_hints {
            out.extend((1..=n).map(|i| format!("discard {i}")));
        }
        if self.hints > 0 {
            out.extend(self.hints_for(1 - seat).into_iter().map(Self::hint_text));
        }
    }

    fn write_legal(&self, out: &mut String) {
        let mut legal = Vec::new();
        self.legal(&mut legal);
        out.push_str(&legal.join(", "));
    }

    fn render(&self, seat: usize, out: &mut String) {
        out.push_str("You are player ");
        push_num(out, seat);
        out.push_str(". Score: ");
        push_num(out, self.score());
        out.push_str(" of ");
        push_num(out, self.max_score());
        out.push_str(" (success at ");
        push_num(out, self.threshold);
        out.push_str("). Hint tokens: ");
        push_num(out, self.hints as usize);
        out.push_str(" of ");
        push_num(out, self.max_hints as usize);
        out.push_str(". Fuses left: ");
        push_num(out, self.fuses as usize);
        out.push_str(" of ");
        push_num(out, self.max_fuses as usize);
        out.push_str(". Deck: ");
        push_num(out, self.deck.len());
        out.push_str(" cards.");
        if let Some(t) = self.final_turns.filter(|_| !self.over()) {
            out.push_str(" The deck is empty: ");
            push_num(out, t);
            out.push_str(" turn(s) left.");
        }
        out.push_str("\nFireworks:");
        for (c, &h) in self.stacks.iter().enumerate() {
            out.push_str(if c == 0 { " " } else { ", " });
            out.push_str(COLOURS[c]);
            out.push(' ');
            push_num(out, h as usize);
        }
        out.push_str(".\nDiscarded:");
        if self.discards.is_empty() {
            out.push_str(" none");
        }
        let mut discards = self.discards.clone();
        discards.sort_by_key(|c| (c.colour, c.rank));
        for c in discards {
            out.push(' ');
            Self::write_card(out, c);
        }
        out.push_str(".\nYour hand (what you know):");
        for (i, s) in self.hands[seat].iter().enumerate() {
            out.push_str(if i == 0 { " " } else { ", " });
            push_num(out, i + 1);
            out.push_str(": ");
            self.write_know(out, &s.know);
        }
        out.push_str(".\nPartner's hand:");
        for (i, s) in self.hands[1 - seat].iter().enumerate() {
            out.push_str(if i == 0 { " " } else { ", " });
            push_num(out, i + 1);
            out.push_str(": ");
            Self::write_card(out, s.card);
            out.push_str(" [they know: ");
            self.write_know(out, &s.know);
            out.push(']');
        }
        out.push('.');
        if self.over() {
            if self.fuses == 0 {
                out.push_str("\nGame over: the last fuse burned; the team scores 0.");
            } else {
                out.push_str("\nGame over: the team scored ");
                push_num(out, self.score());
                out.push('.');
            }
        }
    }

    fn anchor(&self, seat: usize, out: &mut String) {
        for v in [self.hints as usize, self.fuses as usize, self.deck.len(), self.final_turns.unwrap_or(9)] {
            push_num(out, v);
            out.push(',');
        }
        for &h in &self.stacks {
            push_num(out, h as usize);
        }
        out.push('|');
        let mut discards = self.discards.clone();
        discards.sort_by_key(|c| (c.colour, c.rank));
        for c in discards {
            Self::write_card(out, c);
        }
        out.push('|');
        for s in &self.hands[seat] {
            self.write_know(out, &s.know);
            out.push(';');
        }
        out.push('|');
        for s in &self.hands[1 - seat] {
            Self::write_card(out, s.card);
            self.write_know(out, &s.know);
            out.push(';');
        }
    }

    fn outcome(&self) -> Vec<f64> {
        let r = self.score() as f64 / self.max_score() as f64;
        vec![r, r]
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        if self.over() {
            return String::new();
        }
        self.decide(self.next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameEnv;
    use crate::ScriptedEnv;
    use gauntlet_core::Env;

    fn level(n: u8) -> Difficulty {
        Difficulty::new(n).unwrap()
    }

    fn view(g: &Hanabi, seat: usize) -> (String, String) {
        let (mut text, mut anchor) = (String::new(), String::new());
        g.render(seat, &mut text);
        g.anchor(seat, &mut anchor);
        (text, anchor)
    }

    #[test]
    fn decks_follow_the_level_table() {
        for (lv, cards, max) in [(1, 12, 6), (2, 18, 9), (3, 24, 12), (4, 32, 16), (5, 50, 25)] {
            let g = Hanabi::deal(level(lv), &mut Rng::new(lv as u64));
            let dealt = g.deck.len() + g.hands[0].len() + g.hands[1].len();
            assert_eq!((dealt, g.max_score()), (cards, max), "level {lv}");
        }
    }

    #[test]
    fn a_seat_never_sees_its_own_cards() {
        // Changing a seat's own cards (not what it knows) changes nothing it observes.
        for lv in 1..=5 {
            for seed in 0..30 {
                let mut env = GameEnv::<Hanabi>::new();
                env.reset(seed, level(lv)).unwrap();
                let mut rng = Rng::new(seed);
                for _ in 0..(seed % 7) {
                    if let Some(a) = env.to_act() {
                        let m = env.oracle_action(&mut rng);
                        env.act(a, &m);
                    }
                }
                let g = env.game().clone();
                for seat in 0..2 {
                    let mut other = g.clone();
                    for s in &mut other.hands[seat] {
                        s.card = Card {
                            colour: (s.card.colour + 1) % g.colours as u8,
                            rank: s.card.rank % g.ranks as u8 + 1,
                        };
                    }
                    assert_eq!(view(&g, seat), view(&other, seat), "level {lv} seed {seed} seat {seat}");
                    assert_ne!(view(&g, 1 - seat), view(&other, 1 - seat));
                }
            }
        }
    }

    #[test]
    fn hints_misplays_and_tokens() {
        let mut g = Hanabi::deal(level(1), &mut Rng::new(3));
        let mut note = String::new();
        assert!(matches!(g.play("discard 1", &mut note), Err(MoveError::Illegal(_))), "tokens are full");
        assert!(matches!(g.play("hint rank 9", &mut note), Err(MoveError::Illegal(_))));
        assert!(matches!(g.play("wave", &mut note), Err(MoveError::Format(_))));
        let c = g.hands[1][0].card;
        g.play(&format!("hint color {}", COLOURS[c.colour as usize]), &mut note).unwrap();
        assert_eq!(g.hints, 3);
        assert_eq!(g.hands[1][0].know.colour, Some(c.colour));
        // Seat 1 misplays until the fuses are gone: the team scores 0.
        g.stacks = vec![0; 2];
        let mut misplays = 0;
        while g.fuses > 0 {
            let seat = g.next;
            let i = g.hands[seat].iter().position(|s| !g.playable(s.card));
            note.clear();
            match i {
                Some(i) => {
                    g.play(&format!("play {}", i + 1), &mut note).unwrap();
                    misplays += note.contains("misplayed") as usize;
                }
                None => g
                    .play("discard 1", &mut note)
                    .map(|_| ())
                    .or_else(|_| g.play("play 1", &mut note))
                    .unwrap(),
            }
            if g.over() {
                break;
            }
        }
        assert!(misplays >= 1);
        if g.fuses == 0 {
            assert_eq!(g.score(), 0);
            assert!(g.to_move().is_none());
        }
    }

    #[test]
    fn the_last_round_gives_each_seat_one_turn() {
        let mut g = Hanabi::deal(level(1), &mut Rng::new(5));
        g.hints = 0;
        let mut note = String::new();
        while !g.deck.is_empty() {
            g.play("discard 1", &mut note).unwrap();
            g.hints = 0;
        }
        assert_eq!(g.final_turns, Some(2));
        assert!(g.to_move().is_some());
        g.play("discard 1", &mut note).unwrap();
        g.hints = 0;
        assert!(g.to_move().is_some());
        g.play("discard 1", &mut note).unwrap();
        assert!(g.to_move().is_none());
    }

    #[test]
    fn two_oracles_score_and_random_bombs() {
        let mut env = GameEnv::<Hanabi>::new();
        let (mut oracle, mut random) = (0.0, 0.0);
        for seed in 0..40 {
            for (play_oracle, total) in [(true, &mut oracle), (false, &mut random)] {
                env.reset(seed, level(2)).unwrap();
                let mut rng = Rng::new(seed);
                while let Some(a) = env.to_act() {
                    let m =
                        if play_oracle { env.oracle_action(&mut rng) } else { env.random_action(&mut rng) };
                    let fb = env.act(a, &m);
                    assert!(!fb.invalid && !fb.format_error, "{m}: {fb:?}");
                }
                let r = env.returns();
                assert_eq!(r[0], r[1]);
                *total += r[0];
            }
        }
        assert!(oracle > 30.0 && random < 10.0, "{oracle} {random}");
        assert_eq!(env.teams(), vec![0, 0]);
    }
}
