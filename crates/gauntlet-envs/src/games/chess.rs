//! Chess with the full rules: castling (rights lost when the king or rook moves or the rook is
//! captured; not out of, through or into check), en passant, promotion to any piece, checkmate
//! and stalemate, and draws by threefold repetition, the fifty-move rule and insufficient
//! material (bare kings, or a king and one minor piece against a king). White is seat 0.
//!
//! **Moves**: UCI coordinates, `e2e4`, castling as the king's move `e1g1`, promotion with the
//! piece letter `e7e8q` (`q r b n`). **Returns**: win +1, loss −1, draw 0. The game also stops
//! as a draw after [`MAX_PLIES`] plies (reported as truncation). `success()` is a White win.
//!
//! **Levels** (random opening plies already played, opponent):
//!
//! | level | opening | opponent |
//! |---|---|---|
//! | 1 | 2 | depth 1, half its moves random |
//! | 2 | 2 | depth 1 |
//! | 3 | 2 | depth 2 |
//! | 4 | 2 | depth 2 |
//! | 5 | 2 | depth 3 |
//!
//! **Opponent** ([`super::board`]): alpha-beta (captures searched first) over material (pawn 100,
//! knight 320, bishop 330, rook 500, queen 900) plus centralisation and pawn advance; against a
//! bare king it drives the king to the edge with its own king close, to find mates.
//!
//! **Example** (after `e2e4 e7e5`, White to move; upper case White, lower case Black):
//! ```text
//! 8 r n b q k b n r
//! 7 p p p p . p p p
//! 6 . . . . . . . .
//! 5 . . . . p . . .
//! 4 . . . . P . . .
//! 3 . . . . . . . .
//! 2 P P P P . P P P
//! 1 R N B Q K B N R
//!   a b c d e f g h
//! ```
//!
//! **Failure modes**: moving into check, castling through an attacked square, SAN (`Nf3`)
//! instead of coordinates, forgetting the promotion letter.

use super::board::{strength, Board, BoardGame, Strength, WIN};
use super::engine::MoveError;
use gauntlet_core::{Difficulty, Rng};

/// Chess under the common board-game rules.
pub type Chess = BoardGame<ChessBoard>;

/// Plies after which the game is stopped as a draw.
pub const MAX_PLIES: u32 = 400;

const PAWN: i8 = 1;
const KNIGHT: i8 = 2;
const BISHOP: i8 = 3;
const ROOK: i8 = 4;
const QUEEN: i8 = 5;
const KING: i8 = 6;
const VALUE: [i32; 7] = [0, 100, 320, 330, 500, 900, 0];
const KNIGHT_STEPS: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
const KING_STEPS: [(i8, i8); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const PROMOS: [i8; 4] = [KNIGHT, BISHOP, ROOK, QUEEN];

/// The chess position and what the draw rules need of its history.
#[derive(Debug, Clone)]
pub struct ChessBoard {
    /// Square `rank * 8 + file` (a1 = 0); positive White, negative Black, magnitude the piece.
    sq: [i8; 64],
    /// 0 White to move, 1 Black.
    side: usize,
    /// Castling rights: 1 White short, 2 White long, 4 Black short, 8 Black long.
    castle: u8,
    /// The square a pawn may capture onto en passant.
    ep: Option<u8>,
    /// Plies since the last capture or pawn move.
    quiet: u16,
    /// Keys of the positions since the last capture or pawn move (for repetition).
    seen: Vec<u64>,
    /// Cached end state: `Some(None)` draw, `Some(Some(seat))` a win.
    result: Option<Option<usize>>,
    /// Where each side's king stands.
    kings: [u8; 2],
    /// Whether the side to move is in check.
    check: bool,
}

fn sq(file: i8, rank: i8) -> Option<usize> {
    ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| (rank * 8 + file) as usize)
}

fn encode(from: usize, to: usize, promo: i8) -> u16 {
    let p = PROMOS.iter().position(|&x| x == promo).map_or(0, |i| (1 << 14) | ((i as u16) << 12));
    from as u16 | ((to as u16) << 6) | p
}

fn decode(m: u16) -> (usize, usize, i8) {
    let promo = if m & (1 << 14) != 0 { PROMOS[((m >> 12) & 3) as usize] } else { 0 };
    ((m & 63) as usize, ((m >> 6) & 63) as usize, promo)
}

/// Move the pieces of move `m` on `board` (with the en-passant capture and the castling
/// rook); returns whether a piece stood on the target square.
fn move_pieces(board: &mut [i8; 64], m: u16, ep: Option<u8>) -> bool {
    let (from, to, promo) = decode(m);
    let piece = board[from];
    let me = piece.signum();
    let captured = board[to] != 0;
    board[to] = if promo != 0 { promo * me } else { piece };
    board[from] = 0;
    if piece.abs() == PAWN && ep == Some(to as u8) && !captured {
        board[(to as i32 - 8 * me as i32) as usize] = 0;
    }
    if piece.abs() == KING && from.abs_diff(to) == 2 {
        let (rf, rt) = if to > from { (from + 3, from + 1) } else { (from - 4, from - 1) };
        board[rt] = board[rf];
        board[rf] = 0;
    }
    captured
}

/// No square (padding in the tables below).
const NONE: u8 = 64;

/// For every square, the squares one of `steps` reaches on the board (`NONE`-padded), in
/// `steps` order.
const fn leaps(steps: &[(i8, i8); 8]) -> [[u8; 8]; 64] {
    let mut out = [[NONE; 8]; 64];
    let mut s = 0;
    while s < 64 {
        let (f, r) = ((s % 8) as i8, (s / 8) as i8);
        let (mut k, mut n) = (0, 0);
        while k < 8 {
            let (nf, nr) = (f + steps[k].0, r + steps[k].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                out[s][n] = (nr * 8 + nf) as u8;
                n += 1;
            }
            k += 1;
        }
        s += 1;
    }
    out
}

/// For every square and each of the 8 directions of [`KING_STEPS`], the squares along that ray
/// out to the edge, nearest first (`NONE`-padded).
const fn rays() -> [[[u8; 7]; 8]; 64] {
    let mut out = [[[NONE; 7]; 8]; 64];
    let mut s = 0;
    while s < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = KING_STEPS[d];
            let (mut f, mut r, mut n) = ((s % 8) as i8 + df, (s / 8) as i8 + dr, 0);
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                out[s][d][n] = (r * 8 + f) as u8;
                (f, r, n) = (f + df, r + dr, n + 1);
            }
            d += 1;
        }
        s += 1;
    }
    out
}

static KNIGHT_FROM: [[u8; 8]; 64] = leaps(&KNIGHT_STEPS);
static KING_FROM: [[u8; 8]; 64] = leaps(&KING_STEPS);
static RAYS: [[[u8; 7]; 8]; 64] = rays();

/// The index in [`KING_STEPS`] (and so in [`RAYS`]) of each direction in `dirs`.
const fn ray_indices<const N: usize>(dirs: [(i8, i8); N]) -> [usize; N] {
    let mut out = [0; N];
    let mut i = 0;
    while i < N {
        let mut d = 0;
        while KING_STEPS[d].0 != dirs[i].0 || KING_STEPS[d].1 != dirs[i].1 {
            d += 1;
        }
        out[i] = d;
        i += 1;
    }
    out
}

/// Slider directions in the order moves are listed (rook, then bishop directions for a queen).
const ROOK_RAYS: [usize; 4] = ray_indices(ROOK_DIRS);
const BISHOP_RAYS: [usize; 4] = ray_indices(BISHOP_DIRS);
const QUEEN_RAYS: [usize; 8] = ray_indices([
    ROOK_DIRS[0],
    ROOK_DIRS[1],
    ROOK_DIRS[2],
    ROOK_DIRS[3],
    BISHOP_DIRS[0],
    BISHOP_DIRS[1],
    BISHOP_DIRS[2],
    BISHOP_DIRS[3],
]);

/// Whether `side` attacks square `s` on the squares `board`.
fn attacked_on(board: &[i8; 64], s: usize, side: usize) -> bool {
    let me = if side == 0 { 1 } else { -1 };
    let holds = |targets: &[u8], piece: i8| {
        targets.iter().take_while(|&&t| t != NONE).any(|&t| board[t as usize] == piece * me)
    };
    // Pawns attack forward diagonally, so look backward from the square.
    let (f, r) = ((s % 8) as i8, (s / 8) as i8);
    if [-1, 1].iter().any(|&df| sq(f + df, r - me).map(|t| board[t]) == Some(PAWN * me)) {
        return true;
    }
    if holds(&KNIGHT_FROM[s], KNIGHT) || holds(&KING_FROM[s], KING) {
        return true;
    }
    // KING_STEPS alternates orthogonal (even) and diagonal (odd) directions.
    RAYS[s].iter().enumerate().any(|(d, ray)| {
        let (a, b) = if d % 2 == 0 { (ROOK, QUEEN) } else { (BISHOP, QUEEN) };
        match ray.iter().take_while(|&&t| t != NONE).map(|&t| board[t as usize]).find(|&p| p != 0) {
            Some(p) => p == a * me || p == b * me,
            None => false,
        }
    })
}

impl ChessBoard {
    fn start() -> Self {
        let mut sq = [0i8; 64];
        let back = [ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK];
        for f in 0..8 {
            sq[f] = back[f];
            sq[8 + f] = PAWN;
            sq[48 + f] = -PAWN;
            sq[56 + f] = -back[f];
        }
        let mut b = ChessBoard {
            sq,
            side: 0,
            castle: 15,
            ep: None,
            quiet: 0,
            seen: Vec::new(),
            result: None,
            kings: [4, 60],
            check: false,
        };
        b.seen.push(b.key());
        b
    }

    fn sign(side: usize) -> i8 {
        if side == 0 {
            1
        } else {
            -1
        }
    }

    /// A 64-bit hash of the position (squares, side, castling rights, en-passant square) for
    /// the repetition rule: the board read as eight little-endian words, each mixed in with a
    /// rotate, xor and multiply (the Fx hash step).
    fn key(&self) -> u64 {
        let mix = |h: u64, w: u64| (h.rotate_left(5) ^ w).wrapping_mul(0x517c_c1b7_2722_0a95);
        let words = self.sq.chunks_exact(8).map(|c| u64::from_le_bytes(std::array::from_fn(|i| c[i] as u8)));
        let h = words.fold(0, mix);
        mix(h, self.side as u64 | (self.castle as u64) << 8 | (self.ep.map_or(99, u64::from)) << 16)
    }

    /// Whether `side` attacks square `s`.
    fn attacked(&self, s: usize, side: usize) -> bool {
        attacked_on(&self.sq, s, side)
    }

    fn king(&self, side: usize) -> usize {
        self.kings[side] as usize
    }

    /// Whether the side to move is in check (kept up to date by [`Self::make`]).
    fn in_check(&self) -> bool {
        self.check
    }

    /// Moves that may leave the own king in check.
    fn pseudo(&self, out: &mut Vec<u16>) {
        let me = Self::sign(self.side);
        for s in 0..64 {
            let p = self.sq[s] * me;
            if p <= 0 {
                continue;
            }
            let (f, r) = ((s % 8) as i8, (s / 8) as i8);
            let mut add = |t: usize| out.push(encode(s, t, 0));
            let foe = |t: usize| self.sq[t] * me < 0;
            match p {
                PAWN => {
                    let last = if me > 0 { 7 } else { 0 };
                    let push = |t: usize, out: &mut Vec<u16>| {
                        if (t / 8) as i8 == last {
                            out.extend(PROMOS.iter().map(|&pr| encode(s, t, pr)));
                        } else {
                            out.push(encode(s, t, 0));
                        }
                    };
                    if let Some(t) = sq(f, r + me).filter(|&t| self.sq[t] == 0) {
                        push(t, out);
                        let home = if me > 0 { 1 } else { 6 };
                        if let Some(t2) = sq(f, r + 2 * me).filter(|&t2| r == home && self.sq[t2] == 0) {
                            out.push(encode(s, t2, 0));
                        }
                    }
                    for df in [-1, 1] {
                        if let Some(t) = sq(f + df, r + me) {
                            if foe(t) || self.ep == Some(t as u8) {
                                push(t, out);
                            }
                        }
                    }
                }
                KNIGHT | KING => {
                    let targets = if p == KNIGHT { &KNIGHT_FROM[s] } else { &KING_FROM[s] };
                    for &t in targets.iter().take_while(|&&t| t != NONE) {
                        if self.sq[t as usize] * me <= 0 {
                            add(t as usize);
                        }
                    }
                    if p == KING {
                        self.castles(s, out);
                    }
                }
                _ => {
                    let dirs: &[usize] = match p {
                        BISHOP => &BISHOP_RAYS,
                        ROOK => &ROOK_RAYS,
                        _ => &QUEEN_RAYS,
                    };
                    for &d in dirs {
                        for &t in RAYS[s][d].iter().take_while(|&&t| t != NONE) {
                            let there = self.sq[t as usize];
                            if there * me > 0 {
                                break;
                            }
                            add(t as usize);
                            if there != 0 {
                                break;
                            }
                        }
                    }
                }
            }
        }
    }

    fn castles(&self, king: usize, out: &mut Vec<u16>) {
        let (base, short, long) = if self.side == 0 { (0, 1, 2) } else { (56, 4, 8) };
        if king != base + 4 || self.castle & (short | long) == 0 {
            return;
        }
        let enemy = 1 - self.side;
        if self.attacked(king, enemy) {
            return;
        }
        let empty = |fs: &[usize]| fs.iter().all(|&f| self.sq[base + f] == 0);
        let safe = |fs: &[usize]| fs.iter().all(|&f| !self.attacked(base + f, enemy));
        if self.castle & short != 0 && empty(&[5, 6]) && safe(&[5, 6]) {
            out.push(encode(king, base + 6, 0));
        }
        if self.castle & long != 0 && empty(&[1, 2, 3]) && safe(&[2, 3]) {
            out.push(encode(king, base + 2, 0));
        }
    }

    /// Make a (pseudo-legal) move without checking the end of the game.
    fn make(&mut self, m: u16) {
        let (from, to, _) = decode(m);
        let piece = self.sq[from];
        let captured = move_pieces(&mut self.sq, m, self.ep);
        self.ep = (piece.abs() == PAWN && from.abs_diff(to) == 16).then(|| ((from + to) / 2) as u8);
        for (s, bit) in [(4, 3), (0, 2), (7, 1), (60, 12), (56, 8), (63, 4)] {
            if from == s || to == s {
                self.castle &= !bit;
            }
        }
        if piece.abs() == PAWN || captured {
            self.quiet = 0;
            self.seen.clear();
        } else {
            self.quiet += 1;
        }
        if piece.abs() == KING {
            self.kings[self.side] = to as u8;
        }
        self.side ^= 1;
        self.check = self.attacked(self.king(self.side), 1 - self.side);
    }

    fn legal_moves(&self, out: &mut Vec<u16>) {
        let mut pseudo = Vec::with_capacity(48);
        self.pseudo(&mut pseudo);
        let (king, check) = (self.king(self.side), self.in_check());
        out.extend(pseudo.into_iter().filter(|&m| self.keeps_king_safe(m, king, check)));
    }

    /// Whether the side to move has a legal move (stops at the first).
    fn has_legal(&self) -> bool {
        let mut pseudo = Vec::with_capacity(48);
        self.pseudo(&mut pseudo);
        let (king, check) = (self.king(self.side), self.in_check());
        pseudo.into_iter().any(|m| self.keeps_king_safe(m, king, check))
    }

    /// Whether the pseudo-legal move `m` leaves the own king (on `king`, in `check` or not)
    /// unattacked. Without check, a move of another piece from a square on no line with the
    /// king (and not en passant) cannot expose it, so only the others are played out.
    fn keeps_king_safe(&self, m: u16, king: usize, check: bool) -> bool {
        let (from, to, _) = decode(m);
        let (df, dr) = ((from % 8).abs_diff(king % 8), (from / 8).abs_diff(king / 8));
        let aligned = df == 0 || dr == 0 || df == dr;
        let en_passant = self.sq[from].abs() == PAWN && self.ep == Some(to as u8) && self.sq[to] == 0;
        if !check && !aligned && !en_passant {
            return true;
        }
        let mut board = self.sq;
        move_pieces(&mut board, m, self.ep);
        let k = if from == king { to } else { king };
        !attacked_on(&board, k, 1 - self.side)
    }

    fn insufficient(&self) -> bool {
        let mut minors = 0;
        for &p in &self.sq {
            match p.abs() {
                0 | KING => {}
                KNIGHT | BISHOP => minors += 1,
                _ => return false,
            }
        }
        minors <= 1
    }

    /// After a move: record the position and decide whether the game is over.
    fn settle(&mut self) {
        let any = self.has_legal();
        self.conclude(any);
    }

    /// [`Self::settle`] given whether the side to move has a legal move.
    fn conclude(&mut self, any_legal: bool) {
        let key = self.key();
        let reps = self.seen.iter().filter(|&&k| k == key).count();
        self.seen.push(key);
        self.result = if !any_legal {
            Some(if self.in_check() { Some(1 - self.side) } else { None })
        } else if reps >= 2 || self.quiet >= 100 || self.insufficient() {
            Some(None)
        } else {
            None
        };
    }

    fn letter(p: i8) -> char {
        let c = char::from(b".PNBRQK"[p.unsigned_abs() as usize]);
        if p < 0 {
            c.to_ascii_lowercase()
        } else {
            c
        }
    }
}

impl Board for ChessBoard {
    const NAME: &'static str = "chess";
    const DESCRIPTION: &'static str = "Chess with full rules against an alpha-beta opponent, two seats.";
    const RULES: &'static str = "Chess, full rules (castling, en passant, promotion; draws by stalemate, threefold \
                                 repetition, the fifty-move rule, insufficient material). Moves in UCI coordinates: \
                                 e2e4, castling e1g1, promotion e7e8q.";
    const STRENGTH: [Strength; 5] =
        [strength(1, 0.5), strength(1, 0.0), strength(2, 0.0), strength(2, 0.0), strength(3, 0.0)];
    const MAX_PLIES: u32 = MAX_PLIES;

    fn new(_level: Difficulty, rng: &mut Rng) -> Self {
        let mut b = ChessBoard::start();
        let mut moves = Vec::new();
        for _ in 0..2 {
            moves.clear();
            b.moves(&mut moves);
            let m = moves[rng.index(moves.len())];
            b.apply(m);
        }
        b
    }

    fn to_move(&self) -> usize {
        self.side
    }

    fn over(&self) -> bool {
        self.result.is_some()
    }

    fn moves(&self, out: &mut Vec<u16>) {
        if !self.over() {
            self.legal_moves(out);
        }
    }

    fn search_moves(&self, out: &mut Vec<u16>) {
        self.moves(out);
        // Captures and promotions first: alpha-beta cuts far more.
        out.sort_by_key(|&m| {
            let (_, to, promo) = decode(m);
            -(VALUE[self.sq[to].unsigned_abs() as usize] + VALUE[promo as usize])
        });
    }

    fn apply(&mut self, m: u16) {
        self.make(m);
        self.settle();
    }

    /// One move generation serves both the list and the mate/stalemate test.
    fn apply_listing(&mut self, m: u16, out: &mut Vec<u16>) {
        self.make(m);
        out.clear();
        self.legal_moves(out);
        self.conclude(!out.is_empty());
        if self.over() {
            out.clear();
        }
    }

    fn winner(&self) -> Option<usize> {
        self.result.flatten()
    }

    fn eval(&self) -> i32 {
        let me = Self::sign(self.side);
        let mut s = 0;
        let mut pieces = [0; 2];
        for (i, &p) in self.sq.iter().enumerate() {
            if p == 0 {
                continue;
            }
            let (f, r) = ((i % 8) as i32, (i / 8) as i32);
            let centre = 6 - ((2 * f - 7).abs() + (2 * r - 7).abs()) / 2;
            let bonus = match p.abs() {
                PAWN => 4 * if p > 0 { r - 1 } else { 6 - r },
                KNIGHT | BISHOP => 4 * centre,
                _ => 0,
            };
            if p.abs() != KING && p.abs() != PAWN {
                pieces[(p < 0) as usize] += 1;
            }
            let v = VALUE[p.unsigned_abs() as usize] + bonus;
            s += if p.signum() == me { v } else { -v };
        }
        // Mating help: against a bare king, push it to the edge and bring the own king close.
        for side in 0..2 {
            let other = 1 - side;
            let bare = self.sq.iter().all(|&p| p == 0 || p.signum() != Self::sign(other) || p.abs() == KING);
            if bare && pieces[side] > 0 {
                let (k, mine) = (self.king(other), self.king(side));
                let (kf, kr) = ((k % 8) as i32, (k / 8) as i32);
                let edge = (2 * kf - 7).abs() + (2 * kr - 7).abs();
                let near = 14 - ((kf - (mine % 8) as i32).abs() + (kr - (mine / 8) as i32).abs());
                let v = 10 * edge + 5 * near;
                s += if Self::sign(side) == me { v } else { -v };
            }
        }
        s.clamp(-WIN / 2, WIN / 2)
    }

    fn write_move(&self, m: u16, out: &mut String) {
        let (from, to, promo) = decode(m);
        for s in [from, to] {
            out.push(char::from(b'a' + (s % 8) as u8));
            out.push(char::from(b'1' + (s / 8) as u8));
        }
        if promo != 0 {
            out.push(Self::letter(-promo));
        }
    }

    fn parse(&self, s: &str) -> Result<u16, MoveError> {
        let b = s.as_bytes();
        let square = |f: u8, r: u8| {
            ((b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r))
                .then(|| ((r - b'1') * 8 + f - b'a') as usize)
        };
        let bad = || {
            MoveError::Format(format!(
                "`{}` is not a move in coordinates like `e2e4` or `e7e8q`",
                super::board::clip(s)
            ))
        };
        if b.len() != 4 && b.len() != 5 {
            return Err(bad());
        }
        let (Some(from), Some(to)) = (square(b[0], b[1]), square(b[2], b[3])) else {
            return Err(bad());
        };
        let promo = match b.get(4) {
            None => 0,
            Some(b'q') => QUEEN,
            Some(b'r') => ROOK,
            Some(b'b') => BISHOP,
            Some(b'n') => KNIGHT,
            Some(_) => return Err(bad()),
        };
        Ok(encode(from, to, promo))
    }

    fn illegal(&self, m: u16) -> String {
        let mut s = String::from("`");
        self.write_move(m, &mut s);
        let (from, to, promo) = decode(m);
        let p = self.sq[from] * Self::sign(self.side);
        s.push_str(if p <= 0 {
            "`: you have no piece on that square"
        } else if p == PAWN && (to / 8 == 0 || to / 8 == 7) && promo == 0 {
            "`: add the promotion piece (q, r, b or n)"
        } else {
            "` is not legal here (blocked, not how the piece moves, or leaves your king in check)"
        });
        s
    }

    fn render(&self, seat: usize, out: &mut String) {
        out.push_str(if seat == 0 { "You are White (upper case)." } else { "You are Black (lower case)." });
        super::board::write_grid(out, 8, 8, |x, y| Self::letter(self.sq[y * 8 + x]));
        if self.result.is_none() && self.in_check() {
            out.push_str(if self.side == 0 { "\nWhite is in check." } else { "\nBlack is in check." });
        }
        out.push_str("\nFifty-move counter: ");
        super::engine::push_num(out, self.quiet as usize);
        out.push_str(" plies.");
    }

    fn anchor(&self, out: &mut String) {
        out.extend(self.sq.iter().map(|&p| Self::letter(p)));
        super::engine::push_num(out, self.castle as usize);
        if let Some(e) = self.ep {
            out.push('e');
            super::engine::push_num(out, e as usize);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `attacked_on` as first written (walking offsets with bounds checks), the reference for
    /// the table-driven version.
    fn attacked_on_walk(board: &[i8; 64], s: usize, side: usize) -> bool {
        let me = if side == 0 { 1 } else { -1 };
        let (f, r) = ((s % 8) as i8, (s / 8) as i8);
        let at = |df: i8, dr: i8| sq(f + df, r + dr).map(|t| board[t]);
        if [-1, 1].iter().any(|&df| at(df, -me) == Some(PAWN * me)) {
            return true;
        }
        if KNIGHT_STEPS.iter().any(|&(df, dr)| at(df, dr) == Some(KNIGHT * me)) {
            return true;
        }
        if KING_STEPS.iter().any(|&(df, dr)| at(df, dr) == Some(KING * me)) {
            return true;
        }
        let ray = |dirs: &[(i8, i8)], a: i8, b: i8| {
            dirs.iter().any(|&(df, dr)| {
                let (mut cf, mut cr) = (f + df, r + dr);
                while let Some(t) = sq(cf, cr) {
                    let p = board[t];
                    if p != 0 {
                        return p == a * me || p == b * me;
                    }
                    cf += df;
                    cr += dr;
                }
                false
            })
        };
        ray(&ROOK_DIRS, ROOK, QUEEN) || ray(&BISHOP_DIRS, BISHOP, QUEEN)
    }

    #[test]
    fn attack_tables_agree_with_walking_the_board() {
        let mut rng = gauntlet_core::Rng::new(5);
        let mut checked = 0;
        for _ in 0..40 {
            let mut b = ChessBoard::start();
            for _ in 0..120 {
                for s in 0..64 {
                    for side in 0..2 {
                        assert_eq!(
                            attacked_on(&b.sq, s, side),
                            attacked_on_walk(&b.sq, s, side),
                            "{s} {side}"
                        );
                        checked += 1;
                    }
                }
                let mut legal = Vec::new();
                b.moves(&mut legal);
                if legal.is_empty() || b.result.is_some() {
                    break;
                }
                b.apply(legal[rng.index(legal.len())]);
            }
        }
        assert!(checked > 100_000, "{checked}");
    }

    fn play(b: &mut ChessBoard, moves: &str) {
        for m in moves.split(' ') {
            let code = b.parse(m).unwrap();
            let mut legal = Vec::new();
            b.moves(&mut legal);
            assert!(legal.contains(&code), "{m} illegal");
            b.apply(code);
        }
    }

    fn count(b: &ChessBoard, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = Vec::new();
        b.moves(&mut moves);
        moves
            .into_iter()
            .map(|m| {
                let mut c = b.clone();
                c.apply(m);
                count(&c, depth - 1)
            })
            .sum()
    }

    #[test]
    fn perft_from_the_start() {
        let b = ChessBoard::start();
        assert_eq!(count(&b, 1), 20);
        assert_eq!(count(&b, 2), 400);
        assert_eq!(count(&b, 3), 8_902);
    }

    #[test]
    fn fools_mate_castling_en_passant_and_promotion() {
        let mut b = ChessBoard::start();
        play(&mut b, "f2f3 e7e5 g2g4 d8h4");
        assert!(b.over() && b.winner() == Some(1));
        let mut b = ChessBoard::start();
        play(&mut b, "e2e4 a7a6 e4e5 d7d5 e5d6");
        assert_eq!(b.sq[35], 0, "the d5 pawn was taken en passant");
        play(&mut b, "a6a5 g1f3 a5a4 f1e2 a4a3 e1g1");
        assert_eq!((b.sq[6], b.sq[5]), (KING, ROOK));
        play(&mut b, "a3b2 d6c7 b2a1n c7d8q");
        assert_eq!(b.sq[0], -KNIGHT);
        assert_eq!(b.sq[59], QUEEN);
    }

    #[test]
    fn repetition_draws() {
        let mut b = ChessBoard::start();
        play(&mut b, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
        assert!(!b.over());
        play(&mut b, "f6g8");
        assert!(b.over() && b.winner().is_none());
    }
}
