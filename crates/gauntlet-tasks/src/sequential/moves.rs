//! Helpers shared by the sequential families: grid directions, the `U D L R` move parser (lenient
//! in layout, strict in content) and the cap on the number of moves an answer may contain.

use crate::common::clip;

/// The most moves (or operations) any answer may contain; longer answers are rejected unparsed,
/// so that a verifier stays fast on any input.
pub const MAX_MOVES: usize = 10_000;

/// A direction on a grid (rows grow downwards).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    /// One row up.
    Up,
    /// One row down.
    Down,
    /// One column left.
    Left,
    /// One column right.
    Right,
}

impl Dir {
    /// The four directions in `U D L R` order.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// The answer letter of this direction.
    pub fn letter(self) -> char {
        match self {
            Dir::Up => 'U',
            Dir::Down => 'D',
            Dir::Left => 'L',
            Dir::Right => 'R',
        }
    }

    /// The opposite direction.
    pub fn opposite(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        }
    }

    /// The cell one step from `(r, c)` in this direction on an `h × w` grid, if it is on the grid.
    pub fn step(self, r: usize, c: usize, h: usize, w: usize) -> Option<(usize, usize)> {
        match self {
            Dir::Up if r > 0 => Some((r - 1, c)),
            Dir::Down if r + 1 < h => Some((r + 1, c)),
            Dir::Left if c > 0 => Some((r, c - 1)),
            Dir::Right if c + 1 < w => Some((r, c + 1)),
            _ => None,
        }
    }
}

/// Render moves as a string of letters (`"UULDR"`).
pub fn render_dirs(moves: &[Dir]) -> String {
    moves.iter().map(|d| d.letter()).collect()
}

/// Parse a sequence of `U D L R` moves: letters in either case, written together (`UULDR`) or
/// apart (`U, U, L`), the words `up down left right`, or the arrows `↑ ↓ ← →`, separated by
/// nothing, whitespace, commas or semicolons. Anything else (`U/D`, `U or D`, prose) is an error
/// naming the offending token (the shared strict policy of `gauntlet_core::answer`); more than
/// [`MAX_MOVES`] moves is an error too.
pub fn parse_dirs(text: &str) -> Result<Vec<Dir>, String> {
    let mut out = Vec::new();
    let mut word = String::new();
    for ch in text.chars().chain(std::iter::once(' ')) {
        let arrow = match ch {
            '↑' => Some(Dir::Up),
            '↓' => Some(Dir::Down),
            '←' => Some(Dir::Left),
            '→' => Some(Dir::Right),
            _ => None,
        };
        if ch.is_alphanumeric() {
            if word.len() > MAX_MOVES + 8 {
                return Err(format!("more than {MAX_MOVES} moves"));
            }
            word.push(ch);
            continue;
        }
        if !word.is_empty() {
            flush_word(&word, &mut out)?;
            word.clear();
        }
        match arrow {
            Some(d) => out.push(d),
            None if ch.is_whitespace() || ch == ',' || ch == ';' => {}
            None => return Err(format!("`{ch}` is not a move or a separator (use U, D, L, R)")),
        }
        if out.len() > MAX_MOVES {
            return Err(format!("more than {MAX_MOVES} moves"));
        }
    }
    Ok(out)
}

fn flush_word(word: &str, out: &mut Vec<Dir>) -> Result<(), String> {
    let upper = word.to_uppercase();
    let whole = match upper.as_str() {
        "UP" => Some(Dir::Up),
        "DOWN" => Some(Dir::Down),
        "LEFT" => Some(Dir::Left),
        "RIGHT" => Some(Dir::Right),
        _ => None,
    };
    if let Some(d) = whole {
        out.push(d);
        return Ok(());
    }
    for ch in upper.chars() {
        out.push(match ch {
            'U' => Dir::Up,
            'D' => Dir::Down,
            'L' => Dir::Left,
            'R' => Dir::Right,
            _ => return Err(format!("`{}` is not a move (use U, D, L, R)", clip(word, 20))),
        });
    }
    if out.len() > MAX_MOVES {
        return Err(format!("more than {MAX_MOVES} moves"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_layout() {
        let want = vec![Dir::Up, Dir::Up, Dir::Left, Dir::Down, Dir::Right];
        for text in ["UULDR", "U U L D R", "u,u,l,d,r", "Up up LEFT down right", "↑↑←↓→", "UU\nL\nDR"]
        {
            assert_eq!(parse_dirs(text).unwrap(), want, "{text}");
        }
        assert_eq!(render_dirs(&want), "UULDR");
        assert!(parse_dirs("").unwrap().is_empty());
    }

    #[test]
    fn rejects_garbage_and_huge_answers() {
        assert!(parse_dirs("U X").unwrap_err().contains("`X`"));
        assert!(parse_dirs("U 3").is_err());
        assert!(parse_dirs("é").is_err());
        for hedge in ["U/D L", "U or D", "U|D", "U. D", "moves: UD", "(U D)"] {
            assert!(parse_dirs(hedge).is_err(), "{hedge}");
        }
        assert!(parse_dirs(&"U".repeat(MAX_MOVES + 1)).is_err());
        assert!(parse_dirs(&"U ".repeat(MAX_MOVES + 1)).is_err());
        assert_eq!(parse_dirs(&"U".repeat(MAX_MOVES)).unwrap().len(), MAX_MOVES);
    }
}
