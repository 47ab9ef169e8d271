//! Shared pieces of the two-seat perfect-information board games: the [`Board`] trait, the
//! [`BoardGame`] wrapper that turns a board into a [`Game`] (parsing, legality, notes, anchors,
//! returns, a turn cap), the depth-limited alpha-beta opponent with a level-dependent
//! [`Strength`], and square-grid coordinates (`c4`: column letter, row number from the bottom).
//!
//! A board only states its rules: legal moves as `u16` codes, how a move changes the position,
//! who won, a static evaluation for the side to move, move names and a picture. The wrapper
//! does the rest the same way for every board game, so they all parse, refuse and forfeit
//! alike.
//!
//! **Opponent**: negamax alpha-beta over [`Board::moves`] to the level's [`Strength::depth`],
//! leaves scored by [`Board::eval`], wins and losses by their distance; a seat that moves again
//! (a completed box) is searched without a sign change. With probability [`Strength::noise`] it
//! plays a uniformly random legal move instead (this is how level 1 stays beatable). Ties at the
//! root are broken by the seeded rng.

use super::engine::{Game, MoveError};
use gauntlet_core::{Difficulty, Rng};
use std::cell::OnceCell;

/// Score of a won position (minus the plies to reach it).
pub const WIN: i32 = 1_000_000;

/// The code of a pass move (boards that allow passing list it among their moves).
pub const PASS: u16 = u16::MAX;

/// How strong the scripted opponent is at one level.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Strength {
    /// Alpha-beta depth in plies (at least 1).
    pub depth: u32,
    /// Probability of a uniformly random legal move instead of the searched one.
    pub noise: f64,
}

/// Shorthand for a level table of strengths.
pub const fn strength(depth: u32, noise: f64) -> Strength {
    Strength { depth, noise }
}

/// The rules of one two-seat board game with perfect information.
pub trait Board: Clone + Send + Sync + 'static {
    /// Registry name.
    const NAME: &'static str;
    /// One-sentence description.
    const DESCRIPTION: &'static str;
    /// The rules in two or three lines.
    const RULES: &'static str;
    /// Written instead of the list of legal moves in observations, where every empty cell is
    /// legal (the list would repeat the board); `None` lists the moves.
    const LEGAL_HINT: Option<&'static str> = None;
    /// The opponent's strength per level (1..=5).
    const STRENGTH: [Strength; 5];
    /// Plies after which the game stops and [`Board::winner`] is read as it stands
    /// (e.g. by score); reported as truncation.
    const MAX_PLIES: u32 = 10_000;

    /// A new position at `level` (board size, opening plies) drawn from `rng`.
    fn new(level: Difficulty, rng: &mut Rng) -> Self;
    /// The seat to move (meaningful while the game is not over).
    fn to_move(&self) -> usize;
    /// Whether the game has ended.
    fn over(&self) -> bool;
    /// The legal moves (empty once over); [`PASS`] where passing is legal.
    fn moves(&self, out: &mut Vec<u16>);
    /// The moves the opponent's search considers (default: all legal moves); boards with many
    /// pointless moves (far from every stone) narrow them here.
    fn search_moves(&self, out: &mut Vec<u16>) {
        self.moves(out)
    }
    /// Whether `m` (a code [`Board::parse`] returned) is legal, where the board can tell
    /// without listing its moves; `None` (the default) checks it against [`Board::moves`].
    fn is_legal(&self, _m: u16) -> Option<bool> {
        None
    }
    /// Play a legal move.
    fn apply(&mut self, m: u16);
    /// Play a legal move and list the legal moves of the new position into `out` (cleared
    /// first; empty once over), as [`Board::apply`] then [`Board::moves`]. Boards whose
    /// `apply` already looks for a legal move to settle the game (mate, stalemate) override
    /// this to generate the moves once.
    fn apply_listing(&mut self, m: u16, out: &mut Vec<u16>) {
        self.apply(m);
        out.clear();
        self.moves(out);
    }
    /// The winner once over (or at the turn cap), `None` for a draw.
    fn winner(&self) -> Option<usize>;
    /// Static value of the position for the side to move (positive is good for it), well
    /// inside ±[`WIN`].
    fn eval(&self) -> i32;
    /// Append the name of move `m` (as [`Board::parse`] reads it).
    fn write_move(&self, m: u16, out: &mut String);
    /// Read a move name (lowercase, trimmed). Only the format is checked here; the wrapper
    /// checks legality.
    fn parse(&self, s: &str) -> Result<u16, MoveError>;
    /// The position as text, for `seat` (boards have no secrets; the seat is named).
    fn render(&self, seat: usize, out: &mut String);
    /// A compact, history-free key of the position.
    fn anchor(&self, out: &mut String);
    /// A short reason why the well-formed move `m` is illegal.
    fn illegal(&self, m: u16) -> String {
        let mut s = String::from("`");
        self.write_move(m, &mut s);
        s.push_str("` is not legal here");
        s
    }
}

/// A [`Board`] under the common rules: strength from the level, a turn cap, parsing.
#[derive(Debug, Clone)]
pub struct BoardGame<B> {
    board: B,
    strength: Strength,
    plies: u32,
    /// The legal moves of the position (empty once the game is over), listed after each move,
    /// or when first needed on boards that write a [`Board::LEGAL_HINT`] (with
    /// [`Board::is_legal`] they often never need them).
    legal: OnceCell<Vec<u16>>,
}

impl<B: Board> BoardGame<B> {
    /// The position.
    pub fn board(&self) -> &B {
        &self.board
    }

    fn capped(&self) -> bool {
        self.plies >= B::MAX_PLIES
    }

    fn legal_codes(&self) -> &[u16] {
        self.legal.get_or_init(|| {
            let mut legal = Vec::new();
            if self.to_move().is_some() {
                self.board.moves(&mut legal);
            }
            legal
        })
    }

    /// Play `m` and list the legal moves of the new position (into the previous list's
    /// allocation), except on boards that write a hint instead, which list them only when asked.
    fn apply(&mut self, m: u16) {
        self.plies += 1;
        let mut list = self.legal.take().unwrap_or_default();
        if B::LEGAL_HINT.is_some() {
            self.board.apply(m);
            return;
        }
        self.board.apply_listing(m, &mut list);
        if self.capped() {
            list.clear();
        }
        self.legal = OnceCell::from(list);
    }
}

/// Appends the index of every set bit of `set` (a bit-board point set), lowest first.
pub fn push_bits(set: u128, out: &mut Vec<u16>) {
    let mut rest = set;
    while rest != 0 {
        out.push(rest.trailing_zeros() as u16);
        rest &= rest - 1;
    }
}

/// Negamax value of `b` for its side to move, searched `depth` plies.
pub fn negamax<B: Board>(b: &B, depth: u32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
    if b.over() {
        return match b.winner() {
            None => 0,
            Some(w) if w == b.to_move() => WIN - ply,
            Some(_) => -(WIN - ply),
        };
    }
    if depth == 0 {
        return b.eval();
    }
    let mut moves = Vec::with_capacity(64);
    b.search_moves(&mut moves);
    let mut best = -WIN - 1;
    for m in moves {
        let mut c = b.clone();
        c.apply(m);
        let v = if !c.over() && c.to_move() == b.to_move() {
            negamax(&c, depth - 1, alpha, beta, ply + 1)
        } else {
            -negamax(&c, depth - 1, -beta, -alpha, ply + 1)
        };
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// The searched move of the side to move: all root moves scored to `depth`, ties by `rng`.
pub fn best_move<B: Board>(b: &B, depth: u32, rng: &mut Rng) -> Option<u16> {
    let mut moves = Vec::with_capacity(64);
    b.search_moves(&mut moves);
    let mut best = Vec::new();
    let mut top = -WIN - 2;
    for &m in &moves {
        let mut c = b.clone();
        c.apply(m);
        let d = depth.saturating_sub(1);
        // Full window at the root so equal moves score equally (ties are drawn from all).
        let v = if !c.over() && c.to_move() == b.to_move() {
            negamax(&c, d, -WIN - 1, WIN + 1, 1)
        } else {
            -negamax(&c, d, -WIN - 1, WIN + 1, 1)
        };
        if v > top {
            top = v;
            best.clear();
        }
        if v == top {
            best.push(m);
        }
    }
    rng.choose(&best).copied()
}

impl<B: Board> Game for BoardGame<B> {
    const NAME: &'static str = B::NAME;
    const DESCRIPTION: &'static str = B::DESCRIPTION;
    const RULES: &'static str = B::RULES;
    const ZERO_SUM: bool = true;

    fn deal(level: Difficulty, rng: &mut Rng) -> Self {
        BoardGame {
            board: B::new(level, rng),
            strength: level.pick(B::STRENGTH),
            plies: 0,
            legal: OnceCell::new(),
        }
    }

    fn to_move(&self) -> Option<usize> {
        (!self.board.over() && !self.capped()).then(|| self.board.to_move())
    }

    fn play(&mut self, action: &str, note: &mut String) -> Result<(), MoveError> {
        let m = self.board.parse(action.trim())?;
        let legal = match self.board.is_legal(m) {
            Some(ok) => ok && self.to_move().is_some(),
            None => self.legal_codes().contains(&m),
        };
        if !legal {
            return Err(MoveError::Illegal(self.board.illegal(m)));
        }
        note.push_str(if self.board.to_move() == 0 {
            "first player played "
        } else {
            "second player played "
        });
        self.board.write_move(m, note);
        self.apply(m);
        Ok(())
    }

    fn legal(&self, out: &mut Vec<String>) {
        for &m in self.legal_codes() {
            let mut s = String::new();
            self.board.write_move(m, &mut s);
            out.push(s);
        }
    }

    fn write_legal(&self, out: &mut String) {
        if let Some(hint) = B::LEGAL_HINT {
            out.push_str(hint);
            return;
        }
        for (i, &m) in self.legal_codes().iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            self.board.write_move(m, out);
        }
    }

    fn render(&self, seat: usize, out: &mut String) {
        self.board.render(seat, out);
        if self.to_move().is_none() {
            out.push_str(match self.board.winner() {
                None => "\nResult: draw.",
                Some(w) if w == seat => "\nResult: you won.",
                Some(_) => "\nResult: you lost.",
            });
        }
    }

    fn anchor(&self, seat: usize, out: &mut String) {
        self.board.anchor(out);
        out.push(char::from(b'0' + seat as u8));
    }

    fn outcome(&self) -> Vec<f64> {
        match self.board.winner() {
            Some(0) => vec![1.0, -1.0],
            Some(_) => vec![-1.0, 1.0],
            None => vec![0.0, 0.0],
        }
    }

    fn truncated(&self) -> bool {
        self.capped() && !self.board.over()
    }

    fn random_move(&self, rng: &mut Rng) -> String {
        let mut s = String::new();
        if let Some(&m) = rng.choose(self.legal_codes()) {
            self.board.write_move(m, &mut s);
        }
        s
    }

    fn oracle(&self, rng: &mut Rng) -> String {
        let Strength { depth, noise } = self.strength;
        if rng.chance(noise) {
            return self.random_move(rng);
        }
        let mut s = String::new();
        if let Some(m) = best_move(&self.board, depth.max(1), rng) {
            self.board.write_move(m, &mut s);
        }
        s
    }
}

/// Append the name of cell `(x, y)`: column letter then row number from 1 (`c4`).
pub fn write_cell(x: usize, y: usize, out: &mut String) {
    out.push(char::from(b'a' + x as u8));
    super::engine::push_num(out, y + 1);
}

/// Read a cell name `c4` on a `w`×`h` grid (no spaces, nothing else): `(x, y)` 0-based.
pub fn parse_cell(s: &str, w: usize, h: usize) -> Result<(usize, usize), MoveError> {
    let bad =
        || MoveError::Format(format!("`{}` is not a cell like `a1` (column letter, row number)", clip(s)));
    let mut chars = s.chars();
    let col = chars.next().ok_or_else(bad)?;
    let row = chars.as_str();
    if !col.is_ascii_lowercase()
        || row.is_empty()
        || row.len() > 2
        || !row.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(bad());
    }
    let x = (col as u8 - b'a') as usize;
    let y: usize = row.parse().map_err(|_| bad())?;
    if x >= w || y == 0 || y > h {
        return Err(MoveError::Illegal(format!("`{s}` is off the {w}x{h} board")));
    }
    Ok((x, y - 1))
}

/// At most 40 characters of `s`, for error messages.
pub fn clip(s: &str) -> &str {
    match s.char_indices().nth(40) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// Append a `w`×`h` grid, top row first, with row numbers on the left and column letters
/// below; `cell(x, y)` gives each cell's character.
pub fn write_grid(out: &mut String, w: usize, h: usize, cell: impl Fn(usize, usize) -> char) {
    for y in (0..h).rev() {
        out.push('\n');
        if y + 1 < 10 && h >= 10 {
            out.push(' ');
        }
        super::engine::push_num(out, y + 1);
        for x in 0..w {
            out.push(' ');
            out.push(cell(x, y));
        }
    }
    out.push('\n');
    out.push_str(if h >= 10 { "  " } else { " " });
    for x in 0..w {
        out.push(' ');
        out.push(char::from(b'a' + x as u8));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_parse_strictly() {
        assert_eq!(parse_cell("c4", 9, 9), Ok((2, 3)));
        assert_eq!(parse_cell("a10", 15, 15), Ok((0, 9)));
        for bad in ["", "c", "4c", "c 4", "c4x", "c-1", "cc4", "ä4", "c001"] {
            assert!(matches!(parse_cell(bad, 9, 9), Err(MoveError::Format(_))), "{bad}");
        }
        assert!(matches!(parse_cell("j1", 9, 9), Err(MoveError::Illegal(_))));
        assert!(matches!(parse_cell("a0", 9, 9), Err(MoveError::Illegal(_))));
        let mut s = String::new();
        write_cell(2, 3, &mut s);
        assert_eq!(s, "c4");
    }

    #[test]
    fn grid_has_labels() {
        let mut s = String::new();
        write_grid(&mut s, 3, 2, |x, y| if x == y { 'X' } else { '.' });
        assert_eq!(s, "\n2 . X .\n1 X . .\n  a b c");
    }
}
