//! The `grid` category: Latin-square and placement puzzles on a grid (Sudoku, Binairo, N-Queens,
//! Futoshiki, magic squares, loop and bridge puzzles).

pub mod aquarium;
pub mod binairo;
pub mod binairo_solver;
pub mod calcudoku;
pub mod dominosa;
pub mod futoshiki;
pub mod futoshiki_solver;
pub mod hashi;
pub mod hitori;
pub mod kakurasu;
pub mod kakuro;
pub mod killer_sudoku;
pub mod line_solver;
pub mod magic_square;
pub mod n_queens;
pub mod nonogram;
pub mod norinori;
pub mod numbrix;
pub mod rectangle_count;
pub mod shikaku;
pub mod skyscraper;
pub mod slant;
pub mod slitherlink;
pub mod star_battle;
pub mod sudoku;
pub mod sudoku_engine;
pub mod sudoku_geom;
pub mod survo;
pub mod tents;
pub mod thermometers;

use gauntlet_core::DynTask;
use std::sync::Arc;

/// Every family of this category, in listing order.
pub fn families() -> Vec<Arc<dyn DynTask>> {
    vec![
        Arc::new(sudoku::Sudoku),
        Arc::new(binairo::Binairo),
        Arc::new(n_queens::NQueens),
        Arc::new(futoshiki::Futoshiki),
        Arc::new(magic_square::MagicSquare),
        Arc::new(calcudoku::Calcudoku),
        Arc::new(skyscraper::Skyscraper),
        Arc::new(kakurasu::Kakurasu),
        Arc::new(nonogram::Nonogram),
        Arc::new(tents::Tents),
        Arc::new(hitori::Hitori),
        Arc::new(kakuro::Kakuro),
        Arc::new(numbrix::Numbrix),
        Arc::new(star_battle::StarBattle),
        Arc::new(hashi::Hashi),
        Arc::new(slitherlink::Slitherlink),
        Arc::new(norinori::Norinori),
        Arc::new(dominosa::Dominosa),
        Arc::new(survo::Survo),
        Arc::new(rectangle_count::RectangleCount),
        Arc::new(thermometers::Thermometers),
        Arc::new(shikaku::Shikaku),
        Arc::new(slant::Slant),
        Arc::new(aquarium::Aquarium),
        Arc::new(killer_sudoku::KillerSudoku),
    ]
}

/// Most characters a grid answer may have before it is rejected unread (keeps verifiers fast).
const MAX_ANSWER: usize = 20_000;

/// Prepare a grid answer for [`crate::common::parse_grid`]: drop ruler lines made only of
/// `-`, `+`, `=`, `_` and `|` (as in the prompt's box outlines); `Err` when the text is empty or
/// too long.
fn grid_text(answer: &str) -> Result<String, String> {
    if answer.len() > MAX_ANSWER {
        return Err(format!("answer longer than {MAX_ANSWER} characters"));
    }
    let kept: Vec<&str> = answer
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.chars().all(|c| c.is_whitespace() || "-+=_|".contains(c)))
        .collect();
    if kept.is_empty() {
        return Err("empty answer".into());
    }
    Ok(kept.join("\n"))
}

/// A cell parser for [`crate::common::parse_grid`]: an integer in `lo..=hi`.
fn int_in(lo: i64, hi: i64) -> impl Fn(&str) -> Option<i64> {
    move |t: &str| t.parse::<i64>().ok().filter(|v| (lo..=hi).contains(v))
}

/// Whether `rows` is a `n × n` matrix.
fn is_square<T>(rows: &[Vec<T>], n: usize) -> bool {
    rows.len() == n && rows.iter().all(|r| r.len() == n)
}

/// `text` with one to three random characters of `alphabet` inserted or overwritten: the
/// near-miss answers the grid families' no-panic tests feed their verifiers.
#[cfg(test)]
pub(crate) fn mutated(rng: &mut gauntlet_core::Rng, text: &str, alphabet: &str) -> String {
    let alphabet: Vec<char> = alphabet.chars().collect();
    let mut c: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.index(3) {
        let i = rng.index(c.len() + 1);
        if rng.chance(0.5) && i < c.len() {
            c[i] = *rng.choose(&alphabet).unwrap();
        } else {
            c.insert(i, *rng.choose(&alphabet).unwrap());
        }
    }
    c.into_iter().collect()
}
