//! Tsumego: Go capture problems, Black to play.
//!
//! **Generates** a random Go position (stones dropped in small chains, groups left without a
//! liberty removed) on a board of 7×7 to 13×13 and asks one of two questions. Levels 1–2: play
//! the move that captures the most White stones at once. Levels 3–5: a White group is marked;
//! find a move after which Black captures it *by force* within `N` Black moves in all, whatever
//! White answers (White may also pass; Black may not). The generator keeps a position only when
//! the question has the shape its level asks for: at level 1 exactly one point captures; at
//! level 2 several points capture different numbers of stones; at level 3 exactly one of the
//! marked group's two ataris wins; at levels 4–5 the group cannot be taken within 2 moves, at
//! most three (level 5: two) first moves win, and at least one of its liberties is a losing
//! atari. Of 300 level-4 problems, 80 have a winning move off the group's liberties (a net or a
//! preparatory move) and in 54 no atari wins at all; at level 5 a third of the marked groups
//! have three liberties, so every move must take one while White tries to capture a Black
//! stone around it.
//!
//! **Verifies** the move under the rules of Go ([`go`]): the point must be on the board, empty,
//! not suicide. For the most-stones question it must capture as many stones as the best legal
//! move (every legal move is tried). For the marked-group question an exhaustive search over
//! every White reply and pass ([`go::after_black`], exact by the two cuts its documentation
//! proves) decides whether Black still captures within the remaining moves; *every* winning
//! move is accepted, and a refusal names a White reply that saves the group. Simple ko applies.
//! Scoring is 0/1.
//!
//! | level | board | stones dropped | question |
//! |---|---|---|---|
//! | 1 | 7×7 | 14 | most stones in one move; one capturing point |
//! | 2 | 9×9 | 30 | most stones in one move; ≥ 2 capturing points with different counts |
//! | 3 | 9×9 | 32 | marked 2-liberty group within 2 moves; one of its two ataris works |
//! | 4 | 11×11 | 48 | marked 2-liberty group within 3 moves, not within 2; 1–3 winning moves |
//! | 5 | 13×13 | 70 | marked 2- or 3-liberty group within 3 moves, not within 2; 1–2 winning moves |
//!
//! **Example** (within 2 Black moves; `@` marks the group, here the stone on D4):
//!
//! ```text
//!    A B C D E F G
//!  7 . . . . . . .
//!  6 . . . . . . .
//!  5 . . . X . . .
//!  4 . . X @ . X .
//!  3 . . . . X . .
//!  2 . . . . . . .
//!  1 . . . . . . .
//! ```
//!
//! `D3` wins: White's only try, `E4`, leaves the group one liberty (`E5`) and Black takes it
//! there. `E4` fails: White extends to `D3` and has two liberties (`C3`, `D2`).
//!
//! **Failure modes**: ataris from the wrong side (driving the group away from Black's stones),
//! overlooking a Black cutting stone White can capture to escape, counting a diagonal point as
//! a liberty, playing on a suicide point, misreading coordinates (no column `I`, row 1 at the
//! bottom), capturing a bigger-looking group when two groups share a last liberty.

pub mod go;

use gauntlet_core::{answer, Category, Difficulty, Rng, Score, Task, TaskSpec};
use go::{Board, BLACK, COLUMNS, WHITE};
use serde::{Deserialize, Serialize};

/// The tsumego family.
pub struct Tsumego;

/// One Go problem, Black to play.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TsumegoProblem {
    /// The board, top row (the highest row number) first: `.` empty, `X` Black, `O` White.
    pub rows: Vec<String>,
    /// A stone of the marked White group (`E5`), or `None` for the most-stones question.
    pub target: Option<String>,
    /// Black moves allowed to capture the marked group, this one included (1–3; 1 for the
    /// most-stones question).
    pub moves: u32,
}

/// The question a problem asks, checked.
enum Goal {
    /// Capture the most stones with one move (the best count).
    Most(u32),
    /// Capture the group of the stone on this point within `moves` Black moves.
    Capture(usize),
}

/// Parse a point `D4` (column letter, either case, no `I`; row number from the bottom) on a
/// `side × side` board into its index (top row first).
pub fn parse_point(text: &str, side: usize) -> Result<usize, String> {
    let mut chars = text.chars();
    let letter = chars.next().map(|c| c.to_ascii_uppercase());
    let digits = chars.as_str();
    let (Some(letter), true) = (
        letter.filter(char::is_ascii_alphabetic),
        (1..=2).contains(&digits.len())
            && digits.bytes().all(|b| b.is_ascii_digit())
            && !digits.starts_with('0'),
    ) else {
        return Err(format!(
            "`{}` is not a point: write one column letter and one row number, such as `D4`",
            answer::clip(text, 30)
        ));
    };
    if letter == 'I' {
        return Err("there is no column I: Go columns skip the letter I (… G, H, J, K …)".into());
    }
    let last = COLUMNS[side.clamp(1, COLUMNS.len()) - 1];
    let col = COLUMNS[..side.min(COLUMNS.len())]
        .iter()
        .position(|&c| c == letter)
        .ok_or_else(|| format!("column {letter} is outside the board (columns A to {last}, no I)"))?;
    let row: usize = digits.parse().map_err(|_| format!("`{digits}` is not a row number"))?;
    if row == 0 || row > side {
        return Err(format!("row {row} is outside the board (rows 1 to {side})"));
    }
    Ok((side - row) * side + col)
}

/// The stones each legal Black move captures (`None` for an illegal move), by point.
fn captures(b: &Board) -> Vec<Option<u32>> {
    (0..b.side() * b.side())
        .map(|p| {
            let mut next = *b;
            next.play(p, BLACK).ok()
        })
        .collect()
}

impl TsumegoProblem {
    fn checked(&self) -> Result<(Board, Goal), String> {
        let b = Board::from_rows(&self.rows).map_err(|e| format!("`rows`: {e}"))?;
        match &self.target {
            None if self.moves == 1 => {
                let best = captures(&b).into_iter().flatten().max().unwrap_or(0);
                if best == 0 {
                    return Err("`rows`: no Black move captures anything, so the most-stones question \
                                (`target` null) has no answer"
                        .into());
                }
                Ok((b, Goal::Most(best)))
            }
            None => Err(format!(
                "`moves` is {} with `target` null (the most-stones question); expected 1",
                self.moves
            )),
            Some(name) => {
                let t = parse_point(name, b.side()).map_err(|e| format!("`target`: {e}"))?;
                if b.at(t) != WHITE {
                    return Err(format!(
                        "`target` {name} holds no White stone; name a stone of the marked group"
                    ));
                }
                if !(1..=3).contains(&self.moves) {
                    return Err(format!("`moves` is {}; expected 1 to 3", self.moves));
                }
                Ok((b, Goal::Capture(t)))
            }
        }
    }
}

/// The board with column letters above and below and row numbers on the left, the stones of
/// `marked` shown as `@`.
fn render(b: &Board, marked: &go::Points) -> String {
    let n = b.side();
    let letters: String = COLUMNS[..n].iter().map(|c| format!(" {c}")).collect();
    let mut out = format!("  {letters}\n");
    for r in 0..n {
        out.push_str(&format!("{:>2} ", n - r));
        let row: Vec<String> = (0..n)
            .map(|c| {
                let p = r * n + c;
                match b.at(p) {
                    _ if marked.has(p) => "@",
                    BLACK => "X",
                    WHITE => "O",
                    _ => ".",
                }
                .to_string()
            })
            .collect();
        out.push_str(&row.join(" "));
        out.push('\n');
    }
    out.push_str(&format!("  {letters}"));
    out
}

/// Drop `stones` stones, alternately Black and White, most of them next to a stone of their
/// colour, then remove every group left without a liberty.
fn random_position(rng: &mut Rng, side: usize, stones: usize) -> Board {
    let mut b = Board::empty(side);
    let mut placed: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
    for i in 0..stones {
        let colour = if i % 2 == 0 { BLACK } else { WHITE };
        let own = &mut placed[usize::from(colour == WHITE)];
        let grown = match rng.choose(own) {
            Some(&s) if rng.chance(0.6) => {
                let free: Vec<usize> = b.neighbours(s).filter(|&q| b.at(q) == go::EMPTY).collect();
                rng.choose(&free).copied()
            }
            _ => None,
        };
        let p = match grown {
            Some(p) => p,
            None => {
                let free: Vec<usize> = b.empties().collect();
                match rng.choose(&free) {
                    Some(&p) => p,
                    None => break,
                }
            }
        };
        b.set(p, colour);
        own.push(p);
    }
    for p in 0..side * side {
        if b.at(p) != go::EMPTY {
            let (group, libs) = b.group(p);
            if libs.is_empty() {
                group.iter().for_each(|s| b.set(s, go::EMPTY));
            }
        }
    }
    b
}

/// Fill liberties of one random White group with more than `keep` liberties with Black stones
/// until it has `keep` left, skipping any stone that would capture or have no liberty itself.
fn squeeze(rng: &mut Rng, b: &mut Board, keep: u32) {
    let whites: Vec<usize> = (0..b.side() * b.side()).filter(|&p| b.at(p) == WHITE).collect();
    let Some(&g) = rng.choose(&whites) else { return };
    let mut libs: Vec<usize> = b.group(g).1.iter().collect();
    rng.shuffle(&mut libs);
    for l in libs {
        if b.group(g).1.len() <= keep {
            return;
        }
        b.set(l, BLACK);
        let alive = |q: usize| b.at(q) == go::EMPTY || !b.group(q).1.is_empty();
        if !alive(l) || !b.neighbours(l).all(alive) {
            b.set(l, go::EMPTY);
        }
    }
}

/// A most-stones question on `b` if it has the shape of `level` (1: exactly one capturing
/// point; 2: at least two, with different counts, and at most two best points).
fn most_question(b: &Board, level: u8) -> Option<TsumegoProblem> {
    let caps: Vec<u32> = captures(b).into_iter().flatten().filter(|&c| c > 0).collect();
    let best = caps.iter().copied().max()?;
    let ok = match level {
        1 => caps.len() == 1,
        _ => {
            caps.len() >= 2
                && caps.iter().any(|&c| c < best)
                && caps.iter().filter(|&&c| c == best).count() <= 2
        }
    };
    ok.then(|| TsumegoProblem { rows: b.rows(), target: None, moves: 1 })
}

/// A marked-group question on `b` if one of its White groups has the shape of `level` (see the
/// module documentation), the groups tried in random order.
fn capture_question(rng: &mut Rng, b: &Board, level: u8) -> Option<TsumegoProblem> {
    let (moves, max_libs, max_wins) = match level {
        3 => (2, 2, 1),
        4 => (3, 2, 3),
        _ => (3, 3, 2),
    };
    let mut seen = go::Points::default();
    let mut groups = Vec::new();
    for p in 0..b.side() * b.side() {
        if b.at(p) == WHITE && !seen.has(p) {
            let (stones, libs) = b.group(p);
            stones.iter().for_each(|s| seen.add(s));
            if (2..=max_libs).contains(&libs.len()) {
                groups.push((p, libs));
            }
        }
    }
    rng.shuffle(&mut groups);
    for (t, libs) in groups {
        if moves == 3 && go::black_can_capture(b, t, 2) {
            continue;
        }
        // At most `max_wins` winning moves, and one of the liberties must be a losing atari.
        let wins: Vec<usize> = go::winning_moves(b, t, moves).take(max_wins + 1).collect();
        let lib_wins = wins.iter().filter(|&&m| libs.has(m)).count();
        if (1..=max_wins).contains(&wins.len()) && lib_wins < libs.len() as usize {
            return Some(TsumegoProblem { rows: b.rows(), target: Some(b.name(t)), moves });
        }
    }
    None
}

impl Task for Tsumego {
    type Problem = TsumegoProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "tsumego",
            category: Category::Search,
            description: "Go capture problems: the move that captures the most stones, or that captures a \
                          marked group by force within N moves (exact search over White's replies).",
            levels: [
                "7×7, capture the most stones in one move (one capturing point)",
                "9×9, capture the most stones in one move (several capturing points, different counts)",
                "9×9, capture a marked 2-liberty group within 2 Black moves (one of its two ataris works)",
                "11×11, capture a marked 2-liberty group within 3 Black moves, not within 2",
                "13×13, capture a marked 2- or 3-liberty group within 3 Black moves, not within 2",
            ],
            answer_format: "one point: its column letter and row number, e.g. `D4`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> TsumegoProblem {
        let (side, stones) = d.pick([(7, 14), (9, 30), (9, 32), (11, 48), (13, 70)]);
        loop {
            let mut b = random_position(rng, side, stones);
            let (keep, squeezed) = d.pick([(1, 1), (1, 3), (2, 2), (2, 2), (2, 3)]);
            for k in 0..squeezed {
                squeeze(rng, &mut b, keep + u32::from(d.level() == 5 && k == 0));
            }
            let question = match d.level() {
                level @ (1 | 2) => most_question(&b, level),
                level => capture_question(rng, &b, level),
            };
            if let Some(p) = question {
                return p;
            }
        }
    }

    fn prompt(&self, p: &TsumegoProblem) -> String {
        let Ok((b, goal)) = p.checked() else {
            return format!("This Go problem is malformed.\n\n{}", self.answer_instruction());
        };
        let marked = match goal {
            Goal::Capture(t) => b.group(t).0,
            Goal::Most(_) => go::Points::default(),
        };
        let n = b.side();
        let legend = if marked.is_empty() { "" } else { ", @ a White stone of the marked group" };
        let rules = "Rules (those of Go): two points are adjacent when they are next to each other in a row \
                     or a column (not diagonally). A group is a set of stones of one colour connected \
                     through adjacent points; its liberties are the empty points adjacent to any of its \
                     stones. A move puts one stone of the mover's colour on an empty point. Then every \
                     opposing group left without a liberty is captured: its stones are removed from the \
                     board. After that the mover's own group must have a liberty; otherwise the move is \
                     suicide, which is illegal (a move that captures is never suicide).";
        let question = match goal {
            Goal::Most(_) => "There is no earlier move, so no ko restriction applies.\n\nQuestion: find a \
                              Black move that captures as many White stones as possible with this one move. \
                              Any legal move that captures the largest possible number of White stones is \
                              accepted."
                .to_string(),
            Goal::Capture(_) => {
                let names: Vec<String> = marked.iter().map(|s| b.name(s)).collect();
                format!(
                    "Ko: when a single stone has just captured exactly one stone and is left with one \
                     liberty, the opponent may not capture it back on that liberty on the very next move \
                     (the position would repeat); after a move elsewhere or a pass it may.\n\n\
                     Question: the marked group is the White group of the stones at {}. Black moves first \
                     and the players then alternate; after each Black move White may play any legal move \
                     or pass, while Black must place a stone every turn. Find a Black move after which \
                     Black can capture the marked group (remove its stones from the board, together with \
                     any White stones that have joined it) within {} Black moves in all, this move \
                     included, whatever White does. Any such move is accepted.",
                    names.join(", "),
                    p.moves
                )
            }
        };
        format!(
            "Go problem, {n}×{n} board, Black (X) to play. O is a White stone{legend}, and . an empty point.\n\n\
             {}\n\nPoints are named by column letter (A, B, C, … from the left, skipping I as Go boards do) \
             and row number (row 1 at the bottom), e.g. {}.\n\n{rules} {question}\n\n{}",
            render(&b, &marked),
            b.name((n - 4) * n + 3),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &TsumegoProblem) -> String {
        let Ok((b, goal)) = p.checked() else { return String::new() };
        let best = match goal {
            Goal::Most(best) => captures(&b).iter().position(|&c| c == Some(best)),
            Goal::Capture(t) => go::winning_moves(&b, t, p.moves).next(),
        };
        best.map(|m| b.name(m)).unwrap_or_default()
    }

    fn verify(&self, p: &TsumegoProblem, answer: &str) -> Score {
        let (b, goal) = match p.checked() {
            Ok(x) => x,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        let m = match parse_point(answer, b.side()) {
            Ok(m) => m,
            Err(e) => return Score::unparsable(e),
        };
        let name = b.name(m);
        let illegal = |e: go::Illegal| {
            Score::wrong(match e {
                go::Illegal::Occupied => format!("{name} is occupied"),
                go::Illegal::Suicide => format!("{name} is suicide (illegal)"),
                go::Illegal::Ko => format!("{name} retakes a ko at once (illegal)"),
            })
        };
        match goal {
            Goal::Most(best) => {
                let mut next = b;
                match next.play(m, BLACK) {
                    Err(e) => illegal(e),
                    Ok(c) if c == best => Score::correct(),
                    Ok(c) => {
                        Score::wrong(format!("{name} captures {c} stone(s); one move can capture {best}"))
                    }
                }
            }
            Goal::Capture(t) => match go::after_black(&b, t, m, p.moves) {
                Err(e) => illegal(e),
                Ok(None) => Score::correct(),
                Ok(Some(reply)) => {
                    let left = p.moves - 1;
                    Score::wrong(match reply {
                        Some(w) => format!(
                            "after {name}, White plays {} and the marked group survives your {left} remaining move(s)",
                            b.name(w)
                        ),
                        None => format!(
                            "after {name}, White can pass: the marked group keeps more liberties than your {left} \
                             remaining move(s) can take"
                        ),
                    })
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> TsumegoProblem {
        let rows = [".......", ".......", "...X...", "..XO.X.", "....X..", ".......", "......."];
        TsumegoProblem { rows: rows.map(String::from).to_vec(), target: Some("D4".into()), moves: 2 }
    }

    #[test]
    fn example_from_the_docs() {
        let t = Tsumego;
        let p = example();
        let prompt = t.prompt(&p);
        assert!(prompt.contains(" 4 . . X @ . X .\n"), "{prompt}");
        assert!(prompt.contains("stones at D4.") && prompt.contains("within 2 Black moves"));
        assert_eq!(t.solve(&p), "D3");
        assert!(t.verify(&p, "D3").correct);
        assert!(t.verify(&p, "d3").correct);
        let e4 = t.verify(&p, "E4");
        assert!(!e4.correct && e4.reason.contains("White plays D3"), "{e4:?}");
        assert!(t.verify(&p, "A1").reason.contains("White can pass"));
        assert!(t.verify(&p, "D5").reason.contains("occupied"));
        for bad in
            ["D3 or E4", "D3/E4", "D3 E4", "D 3", "3D", "D03", "I4", "H4", "D8", "D0", "the answer is D3", ""]
        {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
        assert!(t.verify(&p, "I4").reason.contains("no column I"));
        assert!(t.verify(&p, "D8").reason.contains("row 8"));
    }

    #[test]
    fn every_move_is_judged_by_search() {
        // Within 3 moves the nets C3 and D2 work too, while the atari on E4 still fails.
        let mut p = example();
        p.moves = 3;
        let b = p.checked().unwrap().0;
        let wins: Vec<String> =
            go::winning_moves(&b, parse_point("D4", 7).unwrap(), 3).map(|m| b.name(m)).collect();
        assert_eq!(wins, ["D3", "C3", "D2"]);
        for m in b.empties() {
            let s = Tsumego.verify(&p, &b.name(m));
            assert_eq!(s.correct, wins.contains(&b.name(m)), "{} {s:?}", b.name(m));
        }
    }

    #[test]
    fn most_stones_accepts_every_best_move() {
        // C6 takes two single stones that share their last liberty, A5 a two-stone group; F3 takes
        // only one stone.
        let rows = [".X.X...", "XO.OX..", ".X.X...", "OOX....", "XX.....", "....XOX", ".....X."];
        let p = TsumegoProblem { rows: rows.map(String::from).to_vec(), target: None, moves: 1 };
        let b = p.checked().unwrap().0;
        let caps = captures(&b);
        let best = caps.iter().flatten().copied().max().unwrap();
        let t = Tsumego;
        for m in 0..49 {
            let s = t.verify(&p, &b.name(m));
            assert_eq!(s.correct, caps[m] == Some(best), "{} {s:?}", b.name(m));
        }
        assert!(t.verify(&p, &t.solve(&p)).correct);
        assert!(t.prompt(&p).contains("no ko restriction"));
    }

    #[test]
    fn oracle_at_every_level() {
        let t = Tsumego;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..60 {
                let p = t.generate(seed, d);
                let (b, goal) = p.checked().unwrap();
                assert_eq!(b.side(), d.pick([7, 9, 9, 11, 13]));
                let s = t.verify(&p, &t.solve(&p));
                assert!(s.correct, "L{level} seed {seed}: {s:?}");
                if let Goal::Capture(target) = goal {
                    let libs = b.group(target).1;
                    let wins: Vec<usize> = go::winning_moves(&b, target, p.moves).collect();
                    assert!(libs.iter().any(|l| !t.verify(&p, &b.name(l)).correct), "L{level} seed {seed}");
                    assert!(wins.len() <= 3);
                    if level >= 4 {
                        assert!(!go::black_can_capture(&b, target, 2), "L{level} seed {seed}");
                    }
                }
            }
        }
    }

    #[test]
    fn level_three_verdicts_match_a_search_without_cuts() {
        let t = Tsumego;
        let d = Difficulty::new(3).unwrap();
        for seed in 0..12 {
            let p = t.generate(seed, d);
            let (b, Goal::Capture(target)) = p.checked().unwrap() else { panic!("seed {seed}") };
            for m in b.empties() {
                let mut next = b;
                let brute = next.play(m, BLACK).is_ok()
                    && (next.at(target) != WHITE || !go::brute_white_saves(&next, target, p.moves - 1));
                assert_eq!(t.verify(&p, &b.name(m)).correct, brute, "seed {seed}: {}", b.name(m));
            }
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = Tsumego;
        let mut p = example();
        p.target = Some("C4".into());
        assert!(t.verify(&p, "D3").reason.contains("no White stone"));
        p.target = Some("D4".into());
        p.moves = 9;
        assert!(t.verify(&p, "D3").reason.starts_with("malformed"));
        p.moves = 2;
        p.rows[0] = "..".into();
        assert!(t.verify(&p, "D3").reason.starts_with("malformed"));
        let empty = TsumegoProblem { rows: vec![".....".into(); 5], target: None, moves: 1 };
        assert!(t.verify(&empty, "A1").reason.contains("captures anything"));
        assert_eq!(t.solve(&empty), "");
    }

    #[test]
    fn parser_never_panics() {
        let mut rng = Rng::new(7);
        let alphabet: Vec<char> = "ADHIJNZadi0123456789 ,;/-é\n".chars().collect();
        for _ in 0..5000 {
            let len = rng.index(6);
            let s: String = (0..len).map(|_| *rng.choose(&alphabet).unwrap()).collect();
            for side in [5, 9, 13] {
                if let Ok(p) = parse_point(&s, side) {
                    assert!(p < side * side, "{s}");
                }
            }
        }
        assert_eq!(parse_point("A13", 13), Ok(0));
        assert_eq!(parse_point("N1", 13), Ok(168));
        assert_eq!(parse_point("J9", 9), Ok(8));
    }
}
