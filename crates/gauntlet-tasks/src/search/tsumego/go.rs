//! Go rules on a small board and the exact capture search behind [`super::Tsumego`].
//!
//! **Rules** ([`Board::play`]): a move puts a stone on an empty point; every opposing group left
//! without a liberty (an empty orthogonal neighbour) is removed; then the mover's own group must
//! have a liberty, otherwise the move is suicide and illegal (a move that captures never is).
//! Simple ko: after a single stone captures exactly one stone and is left with exactly one
//! liberty (the point it captured), the opponent may not play on that point on the very next
//! move (it would recapture at once and repeat the position). A pass clears the ko.
//!
//! **Capture search** ([`black_can_capture`], [`after_black`], [`white_saves`]): Black to move,
//! `j` Black moves left; can Black remove the marked stone `t` (and so its whole group, with
//! whatever joins it) within those moves, whatever White does? White may play any legal move or
//! pass; Black must play a stone. The search is exhaustive over White's replies, with two cuts
//! that never change its answer:
//!
//! 1. A Black stone takes at most one liberty from the marked group (it fills one point, and its
//!    captures only free points). So a group with more liberties than Black has moves left
//!    survives: White passes every time. With exactly as many liberties as moves left, every
//!    Black move must fill one of them.
//! 2. When the marked group is in atari (one liberty `ℓ`) and White is to move, a White reply
//!    other than `ℓ` and other than the last liberty of a Black group touching the marked group
//!    (a capture there frees a point next to it) leaves `ℓ` its only liberty, and Black captures
//!    on `ℓ` at once: a capture is never suicide, and the ko point such a reply can create held
//!    a Black stone, so it is never `ℓ`. Only those few replies are searched; every other White
//!    node tries the pass and every legal move.
//!
//! `tests::cuts_agree_with_brute_force` checks both cuts against a search without them on random
//! 5×5 and 6×6 positions (2 and 3 Black moves), and the family's tests do the same on every
//! point of generated level-3 problems.

/// The largest board side.
pub const MAX_SIDE: usize = 13;
const CELLS: usize = MAX_SIDE * MAX_SIDE;

/// An empty point.
pub const EMPTY: u8 = 0;
/// A Black stone.
pub const BLACK: u8 = 1;
/// A White stone.
pub const WHITE: u8 = 2;

/// The columns' letters, as in Go: `A` to `N` without `I`.
pub const COLUMNS: [char; MAX_SIDE] = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'J', 'K', 'L', 'M', 'N'];

/// A set of points of a board of up to 13×13 (bit `p` for point `p`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Points([u64; 3]);

impl Points {
    /// Whether `p` is in the set.
    pub fn has(&self, p: usize) -> bool {
        self.0[p >> 6] >> (p & 63) & 1 == 1
    }

    /// Put `p` in the set.
    pub fn add(&mut self, p: usize) {
        self.0[p >> 6] |= 1 << (p & 63);
    }

    /// The number of points.
    pub fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 3]
    }

    /// The points in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        (0..3).flat_map(move |k| {
            let mut w = self.0[k];
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let bit = w.trailing_zeros() as usize;
                    w &= w - 1;
                    k * 64 + bit
                })
            })
        })
    }
}

/// Why a move is illegal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Illegal {
    /// The point holds a stone.
    Occupied,
    /// The point is the ko point: it would retake a ko at once.
    Ko,
    /// The stone's group would have no liberty and the move captures nothing.
    Suicide,
}

/// A position: stones, and the point the side to move may not play because of ko.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Board {
    side: usize,
    cells: [u8; CELLS],
    ko: Option<usize>,
}

impl Board {
    /// An empty `side × side` board (`side` at most [`MAX_SIDE`]).
    pub fn empty(side: usize) -> Board {
        Board { side: side.min(MAX_SIDE), cells: [EMPTY; CELLS], ko: None }
    }

    /// The board from rows written top row first (`.` empty, `X` Black, `O` White); every group
    /// must have a liberty.
    pub fn from_rows(rows: &[String]) -> Result<Board, String> {
        let side = rows.len();
        if !(5..=MAX_SIDE).contains(&side) {
            return Err(format!("the board has {side} rows; expected 5 to {MAX_SIDE}"));
        }
        let mut b = Board::empty(side);
        for (r, row) in rows.iter().enumerate() {
            if row.chars().count() != side {
                return Err(format!("row {} has {} points, not {side}", side - r, row.chars().count()));
            }
            for (c, ch) in row.chars().enumerate() {
                b.cells[r * side + c] = match ch {
                    '.' => EMPTY,
                    'X' => BLACK,
                    'O' => WHITE,
                    _ => return Err(format!("`{ch}` is not a point (use `.`, `X` or `O`)")),
                };
            }
        }
        if let Some(p) = (0..side * side).find(|&p| b.cells[p] != EMPTY && b.group(p).1.is_empty()) {
            return Err(format!("the group at {} has no liberty", b.name(p)));
        }
        Ok(b)
    }

    /// The rows, top row first (`.` empty, `X` Black, `O` White).
    pub fn rows(&self) -> Vec<String> {
        (0..self.side)
            .map(|r| {
                (0..self.side)
                    .map(|c| match self.cells[r * self.side + c] {
                        BLACK => 'X',
                        WHITE => 'O',
                        _ => '.',
                    })
                    .collect()
            })
            .collect()
    }

    /// The board's side.
    pub fn side(&self) -> usize {
        self.side
    }

    /// What is on point `p` ([`EMPTY`], [`BLACK`] or [`WHITE`]).
    pub fn at(&self, p: usize) -> u8 {
        self.cells[p]
    }

    /// Put `colour` on `p` (or clear it) without applying any rule (for building positions).
    pub fn set(&mut self, p: usize, colour: u8) {
        self.cells[p] = colour;
    }

    /// The Go name of point `p`: column letter and row number, row 1 at the bottom (`D4`).
    pub fn name(&self, p: usize) -> String {
        format!("{}{}", COLUMNS[p % self.side], self.side - p / self.side)
    }

    /// The empty points, in increasing order.
    pub fn empties(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.side * self.side).filter(|&p| self.cells[p] == EMPTY)
    }

    /// The up to four orthogonal neighbours of `p`.
    pub fn neighbours(&self, p: usize) -> impl Iterator<Item = usize> {
        let n = self.side;
        let (r, c) = (p / n, p % n);
        [
            (r > 0).then(|| p - n),
            (r + 1 < n).then(|| p + n),
            (c > 0).then(|| p - 1),
            (c + 1 < n).then(|| p + 1),
        ]
        .into_iter()
        .flatten()
    }

    /// The stones of the group on `p` and its liberties.
    pub fn group(&self, p: usize) -> (Points, Points) {
        let colour = self.cells[p];
        let (mut stones, mut libs) = (Points::default(), Points::default());
        let mut stack = [0u8; CELLS];
        let mut top = 1;
        stack[0] = p as u8;
        stones.add(p);
        while top > 0 {
            top -= 1;
            let q = usize::from(stack[top]);
            for r in self.neighbours(q) {
                let x = self.cells[r];
                if x == EMPTY {
                    libs.add(r);
                } else if x == colour && !stones.has(r) {
                    stones.add(r);
                    stack[top] = r as u8;
                    top += 1;
                }
            }
        }
        (stones, libs)
    }

    /// Play `colour` on `p` under the rules above; the number of stones captured.
    pub fn play(&mut self, p: usize, colour: u8) -> Result<u32, Illegal> {
        if self.cells[p] != EMPTY {
            return Err(Illegal::Occupied);
        }
        if self.ko == Some(p) {
            return Err(Illegal::Ko);
        }
        self.cells[p] = colour;
        let enemy = BLACK + WHITE - colour;
        let (mut captured, mut last) = (0, p);
        for q in self.neighbours(p) {
            if self.cells[q] == enemy {
                let (stones, libs) = self.group(q);
                if libs.is_empty() {
                    stones.iter().for_each(|s| self.cells[s] = EMPTY);
                    captured += stones.len();
                    last = q;
                }
            }
        }
        let (own, libs) = self.group(p);
        if libs.is_empty() {
            self.cells[p] = EMPTY;
            return Err(Illegal::Suicide);
        }
        self.ko = (captured == 1 && own.len() == 1 && libs.len() == 1).then_some(last);
        Ok(captured)
    }

    /// Pass: only the ko restriction ends.
    pub fn pass(&mut self) {
        self.ko = None;
    }
}

/// A White reply: a point, or `None` for a pass.
pub type Reply = Option<usize>;

/// Whether Black, to move with `j` moves left, can remove the White stone on `t` whatever White
/// does (exact; see the module documentation).
pub fn black_can_capture(b: &Board, t: usize, j: u32) -> bool {
    if b.cells[t] != WHITE {
        return true;
    }
    let libs = b.group(t).1;
    if libs.len() > j {
        return false;
    }
    if libs.len() == j {
        return libs.iter().any(|m| matches!(after_black(b, t, m, j), Ok(None)));
    }
    let wins = libs
        .iter()
        .chain(b.empties().filter(|&m| !libs.has(m)))
        .any(|m| matches!(after_black(b, t, m, j), Ok(None)));
    wins
}

/// Black plays `m` with `j ≥ 1` moves left, this one included. `Err` when the move is illegal,
/// `Ok(None)` when Black then captures the stone on `t` by force, `Ok(Some(reply))` a White
/// reply that saves it.
pub fn after_black(b: &Board, t: usize, m: usize, j: u32) -> Result<Option<Reply>, Illegal> {
    let mut next = *b;
    next.play(m, BLACK)?;
    if next.cells[t] != WHITE {
        return Ok(None);
    }
    Ok(white_saves(&next, t, j.saturating_sub(1)))
}

/// White to move, Black with `j` moves left: a reply after which Black can no longer remove the
/// stone on `t` within those moves, or `None` when every reply loses.
pub fn white_saves(b: &Board, t: usize, j: u32) -> Option<Reply> {
    let (stones, libs) = b.group(t);
    if libs.len() > j {
        return Some(None);
    }
    let saves = |w: Reply| {
        let mut next = *b;
        match w {
            Some(p) if next.play(p, WHITE).is_err() => return false,
            Some(_) => {}
            None => next.pass(),
        }
        !black_can_capture(&next, t, j)
    };
    let mut tried = Points::default();
    // Cut 2: in atari, only the liberty and captures of adjacent Black groups can save it; the
    // same replies come first otherwise.
    for w in libs.iter().chain(escape_captures(b, &stones)) {
        if !tried.has(w) {
            tried.add(w);
            if saves(Some(w)) {
                return Some(Some(w));
            }
        }
    }
    if libs.len() == 1 {
        return None;
    }
    if saves(None) {
        return Some(None);
    }
    let rest: Vec<usize> = b.empties().filter(|&p| !tried.has(p)).collect();
    rest.into_iter().find(|&p| saves(Some(p))).map(Some)
}

/// The last liberties of the Black groups in atari that touch `stones`.
fn escape_captures(b: &Board, stones: &Points) -> Vec<usize> {
    let mut seen = Points::default();
    let mut out = Vec::new();
    for s in stones.iter() {
        for q in b.neighbours(s) {
            if b.cells[q] == BLACK && !seen.has(q) {
                let (group, libs) = b.group(q);
                group.iter().for_each(|g| seen.add(g));
                if libs.len() == 1 {
                    out.extend(libs.iter());
                }
            }
        }
    }
    out
}

/// Every Black move after which Black captures the stone on `t` within `j` moves in all (the
/// move included) whatever White does: the group's liberties first, then the other points, each
/// in increasing order. Lazy, so `.next()` finds one winning move without judging the rest.
pub fn winning_moves(b: &Board, t: usize, j: u32) -> impl Iterator<Item = usize> + '_ {
    let libs = b.group(t).1;
    let mut candidates: Vec<usize> = libs.iter().collect();
    if libs.len() < j {
        candidates.extend(b.empties().filter(|&m| !libs.has(m)));
    }
    candidates.into_iter().filter(move |&m| matches!(after_black(b, t, m, j), Ok(None)))
}

/// The search without the cuts: every legal Black move, every White reply and the pass.
#[cfg(test)]
pub(super) fn brute_black(b: &Board, t: usize, j: u32) -> bool {
    if b.cells[t] != WHITE {
        return true;
    }
    if j == 0 {
        return false;
    }
    b.empties().any(|m| {
        let mut next = *b;
        next.play(m, BLACK).is_ok() && (next.cells[t] != WHITE || !brute_white_saves(&next, t, j - 1))
    })
}

/// Whether White, to move with Black `j` moves left, has a saving reply (no cuts).
#[cfg(test)]
pub(super) fn brute_white_saves(b: &Board, t: usize, j: u32) -> bool {
    let mut pass = *b;
    pass.pass();
    if !brute_black(&pass, t, j) {
        return true;
    }
    b.empties().any(|w| {
        let mut next = *b;
        next.play(w, WHITE).is_ok() && !brute_black(&next, t, j)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use gauntlet_core::Rng;

    fn board(rows: &[&str]) -> Board {
        Board::from_rows(&rows.iter().map(|r| r.to_string()).collect::<Vec<_>>()).unwrap()
    }

    fn point(b: &Board, name: &str) -> usize {
        (0..b.side * b.side).find(|&p| b.name(p) == name).unwrap()
    }

    #[test]
    fn captures_suicide_and_ko() {
        // A White stone in atari on C3 (last liberty D3).
        let mut b = board(&[".....", "..X..", ".XO..", "..X..", "....."]);
        let c3 = point(&b, "C3");
        assert_eq!(b.group(c3).1.iter().map(|p| b.name(p)).collect::<Vec<_>>(), ["D3"]);
        assert_eq!(b.play(point(&b, "D3"), BLACK), Ok(1));
        assert_eq!(b.at(c3), EMPTY);
        assert_eq!(b.play(c3, WHITE), Err(Illegal::Suicide));
        assert_eq!(b.play(point(&b, "C4"), WHITE), Err(Illegal::Occupied));
        // A ko: Black takes on C3, White may not retake on B3 at once, but may after a pair of
        // moves elsewhere; a move that captures into a point with no other liberty is legal.
        let mut k = board(&[".....", ".XO..", "XO.O.", ".XO..", "....."]);
        let (b3, c3) = (point(&k, "B3"), point(&k, "C3"));
        assert_eq!(k.play(c3, BLACK), Ok(1));
        assert_eq!(k.play(b3, WHITE), Err(Illegal::Ko));
        let mut passed = k;
        passed.pass();
        assert_eq!(passed.play(b3, WHITE), Ok(1));
        assert_eq!(k.play(point(&k, "E1"), WHITE), Ok(0));
        assert_eq!(k.play(point(&k, "A1"), BLACK), Ok(0));
        assert_eq!(k.play(b3, WHITE), Ok(1));
        assert_eq!(k.rows(), [".....", ".XO..", "XO.O.", ".XO..", "X...O"]);
        // The search obeys ko: a White stone that has just taken a ko cannot be retaken at once.
        let mut w = board(&[".....", ".OX..", "OX.X.", ".OX..", "....."]);
        let c3 = point(&w, "C3");
        assert_eq!(w.play(c3, WHITE), Ok(1));
        assert!(!black_can_capture(&w, c3, 1));
        assert_eq!(after_black(&w, c3, point(&w, "B3"), 1), Err(Illegal::Ko));
        let mut cleared = w;
        cleared.pass();
        assert!(black_can_capture(&cleared, c3, 1));
        let rows = |first: &str| [first, "O....", ".....", ".....", "....."].map(String::from).to_vec();
        assert!(Board::from_rows(&rows("X....")).is_ok());
        assert!(Board::from_rows(&rows("XO...")).unwrap_err().contains("A5"));
        assert!(Board::from_rows(&rows("X.Z..")).unwrap_err().contains("`Z`"));
        assert!(Board::from_rows(&vec!["....".to_string(); 4]).unwrap_err().contains("4 rows"));
    }

    #[test]
    fn points_set_iterates_in_order() {
        let mut s = Points::default();
        for p in [168, 3, 64, 63, 0] {
            s.add(p);
        }
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 3, 63, 64, 168]);
        assert_eq!(s.len(), 5);
        assert!(s.has(64) && !s.has(65));
    }

    fn random_board(rng: &mut Rng, side: usize, stones: usize) -> Board {
        let mut b = Board::empty(side);
        for _ in 0..stones {
            let p = rng.index(side * side);
            b.cells[p] = if rng.chance(0.5) { BLACK } else { WHITE };
        }
        for p in 0..side * side {
            if b.cells[p] != EMPTY {
                let (g, libs) = b.group(p);
                if libs.is_empty() {
                    g.iter().for_each(|s| b.cells[s] = EMPTY);
                }
            }
        }
        b
    }

    #[test]
    fn cuts_agree_with_brute_force() {
        let mut rng = Rng::new(38);
        // (positions, captured by force) for 2 and for 3 Black moves.
        let mut tally = [(0, 0); 2];
        for round in 0..600 {
            let side = 5 + round % 2;
            let b = random_board(&mut rng, side, 14 + round % 6 + 6 * (side - 5));
            let whites: Vec<usize> = (0..side * side).filter(|&p| b.cells[p] == WHITE).collect();
            let Some(&t) = rng.choose(&whites) else { continue };
            let j = if b.empties().count() <= 15 { 3 } else { 2 };
            let fast = black_can_capture(&b, t, j);
            assert_eq!(fast, brute_black(&b, t, j), "round {round}: {:?} t={t} j={j}", b.rows());
            let moves: Vec<usize> = winning_moves(&b, t, j).collect();
            for m in b.empties() {
                let mut next = b;
                let brute = next.play(m, BLACK).is_ok()
                    && (next.cells[t] != WHITE || !brute_white_saves(&next, t, j - 1));
                assert_eq!(moves.contains(&m), brute, "round {round}: move {}", b.name(m));
            }
            let k = j as usize - 2;
            tally[k] = (tally[k].0 + 1, tally[k].1 + usize::from(fast));
        }
        for (n, won) in tally {
            assert!(n >= 60 && won >= 10 && won + 10 <= n, "{tally:?}");
        }
    }
}
