//! Crossword: fill a generated grid from clues computed from the words themselves.
//!
//! **Generates** a free-form crossword from the crate's embedded dictionary (the 549 five-letter
//! words of `wordle::WORDS` and the 184 six- to ten-letter words of `hangman::WORDS`): a first
//! word across, then words placed one at a time across or down through a letter already on the
//! grid, never touching another word side by side (every run of two or more letters is an
//! entry). Entries are numbered in reading order (`1A`, `2D`, …). Each entry gets a clue that a
//! program can check without a dictionary of definitions:
//!
//! - `pattern C?A?E`: the word with some letters shown (`?` unknown);
//! - `reversed ENARC`: the word spelled backwards;
//! - `anagram of NECRA`: its letters shuffled;
//! - `shift +3 gives FUDQH`: every letter moved 3 places forward in the alphabet (z wraps to a);
//! - `shift by an unknown amount gives …`: the same with the amount (1–25) hidden;
//! - `starts with C, contains R and N`.
//!
//! A solver then counts the fills of the grid by dictionary words that fit every clue (up to 2);
//! while there are two, one entry on which they differ (the one with the most candidates) gets a
//! stronger clue (levels 1–2: `reversed`; above: pattern or letters → anagram → unknown shift
//! (levels 4–5) → `shift +k`), so every puzzle has exactly one solution.
//!
//! **Plays**: `fill 1A crane` writes a dictionary word into an entry (`1A crane` alone works
//! too), overwriting crossing letters (the message says which); a word of the wrong length, not
//! in the dictionary, or an unknown entry is invalid. `clear 1A` erases an entry's letters (its
//! crossings' too). `check` lists the complete entries that do not fit their clue. The
//! observation shows the grid and, for every entry, its position, length, clue and current
//! letters, so letters learnt from crossing entries are in view. Success: every entry holds a
//! dictionary word that fits its clue (validity, not equality with the stored answer; the
//! solution is unique anyway). Turn limit: 2 × entries + 4.
//!
//! | level | entries | word lengths | grid at most | clue kinds | letters shown by `pattern` |
//! |---|---|---|---|---|---|
//! | 1 | 2 | 5 | 7 × 7 | pattern, reversed | 3 |
//! | 2 | 3 | 5 | 9 × 9 | pattern, reversed, anagram | 2 |
//! | 3 | 4 | 5–7 | 11 × 11 | pattern, anagram, shift +k | 2 |
//! | 4 | 6 | 5–8 | 13 × 13 | pattern, anagram, unknown shift, letters | 1 |
//! | 5 | 8 | 5–10 | 15 × 15 | pattern, anagram, unknown shift, letters | 1 |
//!
//! (`pattern` shows one more letter per two letters beyond five.)
//!
//! **Example** (level 1): `1A` across, 5 letters, `pattern AL?K?`; `1D` down from the same
//! square, `reversed EVILA`. `fill 1D alive` puts `A` in `1A`'s first square; `fill 1A alike`
//! completes the grid: success.
//!
//! **Oracle**: the same constraint solver run on the clues (what the agent sees) and the
//! dictionary; it fills the first entry whose letters differ from the solution (exact: 1.0 at
//! every level over 200 seeds). The random player (a legal action: `check`, a `clear`, or one of
//! six dictionary words per entry that fit its current letters) solved none of 200 at any level.
//!
//! **Failure modes**: words outside the dictionary, misreading a shift's direction, anagrams
//! that fit the clue but not the crossings, overwriting correct crossing letters.

use super::hangman::WORDS as LONG_WORDS;
use super::ledger::Outcome;
use super::shell::{verb, Step, World};
use super::wordle::WORDS as FIVE_WORDS;
use gauntlet_core::rng::stable_hash;
use gauntlet_core::Rng;
use std::sync::OnceLock;

const ENTRIES: [usize; 5] = [2, 3, 4, 6, 8];
const LONGEST: [usize; 5] = [5, 5, 7, 8, 10];
const BOX: [usize; 5] = [7, 9, 11, 13, 15];
const SHOWN: [usize; 5] = [3, 2, 2, 1, 1];
/// Legal `fill` actions listed per entry.
const FILLS_LISTED: usize = 6;

/// The dictionary: every embedded word, sorted.
fn dict() -> &'static [&'static str] {
    static DICT: OnceLock<Vec<&'static str>> = OnceLock::new();
    DICT.get_or_init(|| {
        let mut d: Vec<&'static str> = FIVE_WORDS.iter().chain(LONG_WORDS).copied().collect();
        d.sort_unstable();
        d.dedup();
        d
    })
}

/// The dictionary in a fixed hashed order (the sample of legal fills is cut from it).
fn hashed() -> &'static [&'static str] {
    static ORDER: OnceLock<Vec<&'static str>> = OnceLock::new();
    ORDER.get_or_init(|| {
        let mut d = dict().to_vec();
        d.sort_by_key(|w| (stable_hash(w), *w));
        d
    })
}

fn in_dict(w: &[u8]) -> bool {
    std::str::from_utf8(w).is_ok_and(|w| dict().binary_search(&w).is_ok())
}

fn shift(w: &[u8], k: u8) -> Vec<u8> {
    w.iter().map(|&b| b'a' + (b - b'a' + k) % 26).collect()
}

/// The amount `k` (0–25) with `shift(w, k) == s`, if there is one.
fn shifted_by(w: &[u8], s: &[u8]) -> Option<u8> {
    let k = (s.first()? + 26 - w.first()?) % 26;
    (w.len() == s.len() && w.iter().zip(s).all(|(&a, &b)| (a - b'a' + k) % 26 == b - b'a')).then_some(k)
}

fn upper(w: &[u8]) -> String {
    w.iter().map(|b| b.to_ascii_uppercase() as char).collect()
}

/// A clue, checkable from the word alone.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Clue {
    /// Letters shown at some positions (`0` unknown).
    Pattern(Vec<u8>),
    /// The word backwards.
    Reversed(Vec<u8>),
    /// A shuffle of the word's letters.
    Anagram(Vec<u8>),
    /// The word shifted forward by a known amount.
    Shift(u8, Vec<u8>),
    /// The word shifted forward by a hidden amount (1–25).
    ShiftAny(Vec<u8>),
    /// First letter and other letters the word contains.
    Letters(u8, Vec<u8>),
}

impl Clue {
    /// Whether `w` (lowercase letters, the entry's length) fits.
    fn fits(&self, w: &[u8]) -> bool {
        match self {
            Clue::Pattern(p) => p.len() == w.len() && p.iter().zip(w).all(|(&a, &b)| a == 0 || a == b),
            Clue::Reversed(r) => r.iter().rev().eq(w.iter()),
            Clue::Anagram(a) => {
                let mut count = [0i8; 26];
                for (&x, &y) in a.iter().zip(w) {
                    count[(x - b'a') as usize] += 1;
                    count[(y - b'a') as usize] -= 1;
                }
                a.len() == w.len() && count.iter().all(|&c| c == 0)
            }
            Clue::Shift(k, s) => shifted_by(w, s) == Some(*k),
            Clue::ShiftAny(s) => shifted_by(w, s).is_some_and(|k| k != 0),
            Clue::Letters(first, has) => w.first() == Some(first) && has.iter().all(|h| w.contains(h)),
        }
    }

    fn text(&self) -> String {
        match self {
            Clue::Pattern(p) => {
                format!(
                    "pattern {}",
                    p.iter()
                        .map(|&b| if b == 0 { '?' } else { b.to_ascii_uppercase() as char })
                        .collect::<String>()
                )
            }
            Clue::Reversed(r) => format!("reversed {}", upper(r)),
            Clue::Anagram(a) => format!("anagram of {}", upper(a)),
            Clue::Shift(k, s) => format!("shift +{k} gives {}", upper(s)),
            Clue::ShiftAny(s) => format!("shift by an unknown amount gives {}", upper(s)),
            Clue::Letters(first, has) => {
                let has: Vec<String> =
                    has.iter().map(|b| (b.to_ascii_uppercase() as char).to_string()).collect();
                format!("starts with {}, contains {}", first.to_ascii_uppercase() as char, has.join(" and "))
            }
        }
    }

    /// A clue of one of the level's kinds for `w`.
    fn draw(rng: &mut Rng, w: &[u8], level: usize) -> Clue {
        const KINDS: [&[u8]; 5] = [b"PR", b"PRA", b"PAS", b"PAUL", b"PAUL"];
        let kind = *rng.choose(KINDS[level]).unwrap_or(&b'P');
        Clue::draw_kind(rng, w, level, kind)
    }

    /// A clue of kind `kind` (`P`attern, `R`eversed, `A`nagram, `S`hift, `U`nknown shift,
    /// `L`etters) for `w`.
    fn draw_kind(rng: &mut Rng, w: &[u8], level: usize, kind: u8) -> Clue {
        match kind {
            b'R' => Clue::Reversed(w.iter().rev().copied().collect()),
            b'A' => {
                let mut a = w.to_vec();
                for _ in 0..20 {
                    rng.shuffle(&mut a);
                    if a != w {
                        break;
                    }
                }
                Clue::Anagram(a)
            }
            b'S' => Clue::strong(rng, w, level),
            b'U' => Clue::ShiftAny(shift(w, rng.range(1, 25) as u8)),
            b'L' => {
                let mut rest: Vec<u8> = w[1..].iter().copied().filter(|&b| b != w[0]).collect();
                rest.sort_unstable();
                rest.dedup();
                rng.shuffle(&mut rest);
                rest.truncate(2);
                Clue::Letters(w[0], rest)
            }
            _ => {
                let show = (SHOWN[level] + (w.len() - 5) / 2).min(w.len() - 1);
                let mut p = vec![0; w.len()];
                for i in rng.sample_indices(w.len(), show) {
                    p[i] = w[i];
                }
                Clue::Pattern(p)
            }
        }
    }

    /// The next stronger clue for `w` than `self`: `reversed` at levels 1–2; above, a pattern
    /// or letters clue becomes an anagram, an anagram an unknown shift (levels 4–5) or a known
    /// shift (level 3), an unknown shift a known one.
    fn stronger(&self, rng: &mut Rng, w: &[u8], level: usize) -> Clue {
        match self {
            Clue::Pattern(_) | Clue::Letters(..) if level >= 2 => Clue::draw_kind(rng, w, level, b'A'),
            Clue::Anagram(_) if level >= 3 => Clue::draw_kind(rng, w, level, b'U'),
            _ => Clue::strong(rng, w, level),
        }
    }

    /// A clue only `w` fits (`reversed` at levels 1–2, `shift +k` above).
    fn strong(rng: &mut Rng, w: &[u8], level: usize) -> Clue {
        if level < 2 {
            Clue::Reversed(w.iter().rev().copied().collect())
        } else {
            let k = rng.range(1, 25) as u8;
            Clue::Shift(k, shift(w, k))
        }
    }
}

/// One entry of the grid.
#[derive(Debug, Clone)]
struct Slot {
    label: String,
    row: usize,
    col: usize,
    down: bool,
    len: usize,
    clue: Clue,
}

/// A grid under construction: letters (`0` empty) on a `n × n` board and which squares already
/// carry an across / a down word.
struct Board {
    n: usize,
    grid: Vec<u8>,
    used: [Vec<bool>; 2],
    words: Vec<(usize, usize, bool, &'static str)>,
}

impl Board {
    /// The crossings of `w` placed at `(r, c)`, or `None` when it may not go there.
    fn fits(&self, r: usize, c: usize, down: bool, w: &[u8]) -> Option<usize> {
        let (n, len) = (self.n, w.len());
        let at = |i: usize| if down { (r + i, c) } else { (r, c + i) };
        let (er, ec) = at(len - 1);
        if er >= n || ec >= n {
            return None;
        }
        let filled = |rr: usize, cc: usize| rr < n && cc < n && self.grid[rr * n + cc] != 0;
        let before = if down { r > 0 && filled(r - 1, c) } else { c > 0 && filled(r, c - 1) };
        let (ar, ac) = at(len);
        if before || filled(ar, ac) {
            return None;
        }
        let mut crossings = 0;
        for (i, &letter) in w.iter().enumerate() {
            let (rr, cc) = at(i);
            let k = rr * n + cc;
            if self.grid[k] != 0 {
                if self.grid[k] != letter || self.used[down as usize][k] {
                    return None;
                }
                crossings += 1;
            } else {
                let side = if down {
                    (cc > 0 && filled(rr, cc - 1)) || filled(rr, cc + 1)
                } else {
                    (rr > 0 && filled(rr - 1, cc)) || filled(rr + 1, cc)
                };
                if side {
                    return None;
                }
            }
        }
        Some(crossings)
    }

    fn place(&mut self, r: usize, c: usize, down: bool, w: &'static str) {
        for (i, &b) in w.as_bytes().iter().enumerate() {
            let k = if down { (r + i) * self.n + c } else { r * self.n + c + i };
            self.grid[k] = b;
            self.used[down as usize][k] = true;
        }
        self.words.push((r, c, down, w));
    }

    /// Every placement of `w` through a letter on the board.
    fn placements(&self, w: &[u8]) -> Vec<(usize, usize, bool)> {
        let mut out = Vec::new();
        for (k, &g) in self.grid.iter().enumerate() {
            let (r, c) = (k / self.n, k % self.n);
            for (i, _) in w.iter().enumerate().filter(|(_, &b)| b == g) {
                for down in [false, true] {
                    let (Some(sr), Some(sc)) =
                        (if down { (r.checked_sub(i), Some(c)) } else { (Some(r), c.checked_sub(i)) })
                    else {
                        continue;
                    };
                    if self.fits(sr, sc, down, w).is_some_and(|x| x > 0) {
                        out.push((sr, sc, down));
                    }
                }
            }
        }
        out
    }

    /// A board of `entries` words drawn from `pool`, or `None` when the draws ran out.
    fn draw(rng: &mut Rng, pool: &[&'static str], n: usize, entries: usize) -> Option<Board> {
        let mut b =
            Board { n, grid: vec![0; n * n], used: [vec![false; n * n], vec![false; n * n]], words: vec![] };
        let first = pool[rng.index(pool.len())];
        b.place(n / 2, rng.index(n - first.len() + 1), false, first);
        for _ in 0..400 {
            if b.words.len() == entries {
                return Some(b);
            }
            let w = pool[rng.index(pool.len())];
            if b.words.iter().any(|x| x.3 == w) {
                continue;
            }
            if let Some(&(r, c, down)) = rng.choose(&b.placements(w.as_bytes())) {
                b.place(r, c, down, w);
            }
        }
        (b.words.len() == entries).then_some(b)
    }
}

/// The crossword world.
pub struct Crossword {
    h: usize,
    w: usize,
    /// Letters (`0` empty); `open[k]` marks the white squares.
    cells: Vec<u8>,
    open: Vec<bool>,
    slots: Vec<Slot>,
    /// The solver's solution of the clues, per slot.
    solution: Vec<&'static str>,
}

impl Crossword {
    fn squares(&self, s: &Slot) -> impl Iterator<Item = usize> {
        let (w, (r, c, down)) = (self.w, (s.row, s.col, s.down));
        (0..s.len).map(move |i| if down { (r + i) * w + c } else { r * w + c + i })
    }

    fn letters(&self, s: &Slot) -> Vec<u8> {
        self.squares(s).map(|k| self.cells[k]).collect()
    }

    fn find(&self, label: &str) -> Option<usize> {
        let l = label.to_ascii_lowercase().replace('-', "");
        let l = l.replace("across", "a").replace("down", "d");
        self.slots.iter().position(|s| s.label.eq_ignore_ascii_case(&l))
    }

    /// Whether a complete entry holds a dictionary word fitting its clue.
    fn good(&self, s: &Slot) -> bool {
        let w = self.letters(s);
        !w.contains(&0) && in_dict(&w) && s.clue.fits(&w)
    }

    /// Crop a finished board into a world with numbered entries and clues.
    fn from_board(rng: &mut Rng, b: &Board, level: usize) -> Crossword {
        let n = b.n;
        let filled: Vec<usize> = (0..n * n).filter(|&k| b.grid[k] != 0).collect();
        let r0 = filled.iter().map(|k| k / n).min().unwrap_or(0);
        let r1 = filled.iter().map(|k| k / n).max().unwrap_or(0);
        let c0 = filled.iter().map(|k| k % n).min().unwrap_or(0);
        let c1 = filled.iter().map(|k| k % n).max().unwrap_or(0);
        let (h, w) = (r1 - r0 + 1, c1 - c0 + 1);
        let open = (0..h * w).map(|k| b.grid[(k / w + r0) * n + k % w + c0] != 0).collect();
        let mut starts: Vec<(usize, usize)> = b.words.iter().map(|x| (x.0 - r0, x.1 - c0)).collect();
        starts.sort_unstable();
        starts.dedup();
        let mut slots: Vec<(Slot, &'static str)> = b
            .words
            .iter()
            .map(|&(r, c, down, word)| {
                let num = starts.iter().position(|&s| s == (r - r0, c - c0)).unwrap_or(0) + 1;
                let label = format!("{num}{}", if down { 'D' } else { 'A' });
                let clue = Clue::draw(rng, word.as_bytes(), level);
                (Slot { label, row: r - r0, col: c - c0, down, len: word.len(), clue }, word)
            })
            .collect();
        slots.sort_by_key(|(s, _)| (s.down, s.row, s.col));
        let (slots, words): (Vec<Slot>, Vec<&'static str>) = slots.into_iter().unzip();
        Crossword { h, w, cells: vec![0; h * w], open, slots, solution: words }
    }

    /// Strengthen clues until the solver finds exactly one fill; the solution is stored.
    fn make_unique(&mut self, rng: &mut Rng, words: &[&'static str], level: usize) {
        loop {
            let sols = self.solve(2);
            if sols.len() == 1 {
                self.solution = sols[0].clone();
                return;
            }
            // Two fills (the generated one is always among the fills): strengthen the entry
            // with the most candidates among those where they differ (any entry if none found).
            let differ = |i: usize| sols.len() < 2 || sols[0][i] != sols[1][i];
            let i = (0..self.slots.len())
                .filter(|&i| differ(i) && !matches!(self.slots[i].clue, Clue::Shift(..) | Clue::Reversed(_)))
                .max_by_key(|&i| self.candidates(i).len());
            let Some(i) = i else {
                // Unreachable (strong clues have one candidate), but never loop forever.
                for (s, w) in self.slots.iter_mut().zip(words) {
                    s.clue = Clue::strong(rng, w.as_bytes(), level);
                }
                continue;
            };
            self.slots[i].clue = self.slots[i].clue.stronger(rng, words[i].as_bytes(), level);
        }
    }

    fn candidates(&self, i: usize) -> Vec<&'static str> {
        let s = &self.slots[i];
        dict().iter().copied().filter(|w| w.len() == s.len && s.clue.fits(w.as_bytes())).collect()
    }

    /// Up to `max` fills of the whole grid by dictionary words fitting every clue.
    fn solve(&self, max: usize) -> Vec<Vec<&'static str>> {
        let cands: Vec<Vec<&'static str>> = (0..self.slots.len()).map(|i| self.candidates(i)).collect();
        let mut grid = vec![0u8; self.h * self.w];
        let mut chosen = vec![""; self.slots.len()];
        let mut out = Vec::new();
        self.search(&cands, &mut grid, &mut chosen, max, &mut out);
        out
    }

    fn search(
        &self,
        cands: &[Vec<&'static str>],
        grid: &mut [u8],
        chosen: &mut [&'static str],
        max: usize,
        out: &mut Vec<Vec<&'static str>>,
    ) {
        let fits = |i: usize, w: &str| {
            self.squares(&self.slots[i]).zip(w.bytes()).all(|(k, b)| grid[k] == 0 || grid[k] == b)
        };
        // The open entry with the fewest candidates consistent with the letters placed.
        let Some((i, options)) = (0..self.slots.len())
            .filter(|&i| chosen[i].is_empty())
            .map(|i| (i, cands[i].iter().copied().filter(|w| fits(i, w)).collect::<Vec<_>>()))
            .min_by_key(|(_, o)| o.len())
        else {
            out.push(chosen.to_vec());
            return;
        };
        let squares: Vec<usize> = self.squares(&self.slots[i]).collect();
        for w in options {
            let fresh: Vec<usize> = squares.iter().copied().filter(|&k| grid[k] == 0).collect();
            for (&k, b) in squares.iter().zip(w.bytes()) {
                grid[k] = b;
            }
            chosen[i] = w;
            self.search(cands, grid, chosen, max, out);
            chosen[i] = "";
            for k in fresh {
                grid[k] = 0;
            }
            if out.len() >= max {
                return;
            }
        }
    }

    fn fill(&mut self, rest: &str) -> Step {
        let usage = "Write `fill <entry> <word>`, e.g. `fill 1A crane`.";
        let [label, word] = rest.split(' ').collect::<Vec<_>>()[..] else {
            return Step::Format(usage.into());
        };
        if !word.bytes().all(|b| b.is_ascii_alphabetic()) {
            return Step::Format(format!("`{}` is not a word (letters only). {usage}", clip(word)));
        }
        let Some(i) = self.find(label) else { return self.unknown(label) };
        let word = word.to_ascii_lowercase();
        let s = self.slots[i].clone();
        if word.len() != s.len {
            return Step::Invalid(format!("{} has {} letters; `{word}` has {}.", s.label, s.len, word.len()));
        }
        if !in_dict(word.as_bytes()) {
            return Step::Invalid(format!("`{word}` is not in the dictionary."));
        }
        if self.letters(&s) == word.as_bytes() {
            return Step::Done(
                Outcome::Continue,
                format!("{} already reads {}; nothing changed.", s.label, upper(word.as_bytes())),
            );
        }
        let mut replaced = Vec::new();
        for (k, b) in self.squares(&s).zip(word.bytes()).collect::<Vec<_>>() {
            if self.cells[k] != 0 && self.cells[k] != b {
                let other = self.slots.iter().find(|o| o.label != s.label && self.squares(o).any(|x| x == k));
                let name = other.map_or(String::new(), |o| format!("{} ", o.label));
                replaced.push(format!("{name}{}→{}", upper(&[self.cells[k]]), upper(&[b])));
            }
            self.cells[k] = b;
        }
        let mut msg = format!("Wrote {} in {}.", upper(word.as_bytes()), s.label);
        if !replaced.is_empty() {
            msg.push_str(&format!(" Crossing letters changed: {}.", replaced.join(", ")));
        }
        if self.cells.iter().zip(&self.open).any(|(&c, &o)| o && c == 0) {
            return Step::Done(Outcome::Continue, msg);
        }
        if self.slots.iter().all(|s| self.good(s)) {
            msg.push_str(" The grid is complete and every entry fits its clue.");
            return Step::Done(Outcome::Won, msg);
        }
        msg.push_str(" The grid is full, but not every entry fits its clue (`check` lists them).");
        Step::Done(Outcome::Continue, msg)
    }

    fn unknown(&self, label: &str) -> Step {
        let names: Vec<&str> = self.slots.iter().map(|s| s.label.as_str()).collect();
        let looks_like = label.len() <= 12 && label.bytes().next().is_some_and(|b| b.is_ascii_digit());
        let why = format!("There is no entry `{}`; the entries are {}.", clip(label), names.join(", "));
        if looks_like {
            Step::Invalid(why)
        } else {
            Step::Format(why)
        }
    }

    fn clear(&mut self, rest: &str) -> Step {
        let Some(i) = self.find(rest) else { return self.unknown(rest) };
        let s = self.slots[i].clone();
        if self.letters(&s).iter().all(|&b| b == 0) {
            return Step::Invalid(format!("{} is already empty.", s.label));
        }
        for k in self.squares(&s).collect::<Vec<_>>() {
            self.cells[k] = 0;
        }
        Step::Done(
            Outcome::Continue,
            format!("Cleared {} (and those squares of its crossing entries).", s.label),
        )
    }

    fn check(&self) -> String {
        let mut bad = Vec::new();
        let mut open = 0;
        for s in &self.slots {
            let w = self.letters(s);
            if w.contains(&0) {
                open += 1;
            } else if !in_dict(&w) {
                bad.push(format!("{} ({} is not in the dictionary)", s.label, upper(&w)));
            } else if !s.clue.fits(&w) {
                bad.push(format!("{} ({} does not fit the clue)", s.label, upper(&w)));
            }
        }
        let wrong = if bad.is_empty() {
            "every complete entry fits".to_string()
        } else {
            format!("wrong: {}", bad.join(", "))
        };
        format!("Check: {wrong}; {open} entries incomplete.")
    }
}

fn clip(s: &str) -> String {
    s.chars().take(20).collect()
}

impl World for Crossword {
    const NAME: &'static str = "crossword";
    const CATEGORY: &'static str = "text";
    const DESCRIPTION: &'static str =
        "Fill a generated crossword from checkable clues (patterns, anagrams, shifts) and crossing letters.";
    const FLOORS: [f64; 5] = [1.0; 5];

    fn generate(rng: &mut Rng, level: u8) -> Self {
        let lv = level as usize - 1;
        let pool: Vec<&'static str> = dict().iter().copied().filter(|w| w.len() <= LONGEST[lv]).collect();
        loop {
            let Some(board) = Board::draw(rng, &pool, BOX[lv], ENTRIES[lv]) else { continue };
            let mut world = Crossword::from_board(rng, &board, lv);
            let words = world.solution.clone();
            world.make_unique(rng, &words, lv);
            return world;
        }
    }

    fn limit(&self) -> u32 {
        2 * self.slots.len() as u32 + 4
    }

    fn intro(&self) -> String {
        format!(
            "Crossword. Fill every entry with a word from the dictionary ({} common English words of 5 to 10 \
             letters) that fits its clue; crossing entries share a square. Clues: `pattern C?A?E` (? is an \
             unknown letter), `reversed` (the word backwards), `anagram of` (its letters shuffled), `shift +k \
             gives` (each letter moved k places forward in the alphabet, z wraps to a), `shift by an unknown \
             amount gives` (the same, k hidden), `starts with …, contains …`.",
            dict().len()
        )
    }

    fn render(&self) -> String {
        let mut out = String::from("Grid (# no square, . empty square):\n");
        for r in 0..self.h {
            let row: String = (0..self.w)
                .map(|c| {
                    let k = r * self.w + c;
                    match (self.open[k], self.cells[k]) {
                        (false, _) => '#',
                        (true, 0) => '.',
                        (true, b) => b.to_ascii_uppercase() as char,
                    }
                })
                .collect();
            out.push_str(&row);
            out.push('\n');
        }
        for (down, title) in [(false, "Across:"), (true, "Down:")] {
            out.push_str(title);
            out.push('\n');
            for s in self.slots.iter().filter(|s| s.down == down) {
                let now: String = self
                    .letters(s)
                    .iter()
                    .map(|&b| if b == 0 { '.' } else { b.to_ascii_uppercase() as char })
                    .collect();
                out.push_str(&format!(
                    "{} (row {}, column {}, {} letters): {}. Now: {now}\n",
                    s.label,
                    s.row + 1,
                    s.col + 1,
                    s.len,
                    s.clue.text()
                ));
            }
        }
        out
    }

    fn grammar(&self) -> String {
        "Actions: fill <entry> <word> (e.g. fill 1A crane; overwrites crossing letters), clear <entry>, check \
         (lists complete entries that do not fit)."
            .into()
    }

    fn step(&mut self, action: &str) -> Step {
        let (v, rest) = verb(action);
        match v.as_str() {
            "fill" => self.fill(rest),
            "clear" if !rest.is_empty() && !rest.contains(' ') => self.clear(rest),
            "check" if rest.is_empty() => Step::Done(Outcome::Continue, self.check()),
            _ if self.find(&v).is_some() => self.fill(action),
            _ => Step::Format(self.grammar()),
        }
    }

    fn legal(&self) -> Vec<String> {
        let mut out = vec!["check".to_string()];
        for s in &self.slots {
            if self.letters(s).iter().any(|&b| b != 0) {
                out.push(format!("clear {}", s.label));
            }
        }
        for s in &self.slots {
            let now = self.letters(s);
            let fits = |w: &&&str| {
                w.len() == s.len && w.as_bytes() != now && w.bytes().zip(&now).all(|(b, &c)| c == 0 || c == b)
            };
            for w in hashed().iter().filter(fits).take(FILLS_LISTED) {
                out.push(format!("fill {} {w}", s.label));
            }
        }
        out
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        self.slots
            .iter()
            .zip(&self.solution)
            .find(|(s, w)| self.letters(s) != w.as_bytes())
            .map_or_else(|| "check".into(), |(s, w)| format!("fill {} {w}", s.label))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn world(seed: u64, level: u8) -> Crossword {
        Crossword::generate(&mut Rng::for_instance("crossword", seed, level), level)
    }

    #[test]
    fn clues_fit_their_words_only_as_documented() {
        let w = b"crane";
        assert!(Clue::Pattern(b"c\0a\0e".to_vec()).fits(w));
        assert!(!Clue::Pattern(b"c\0a\0e".to_vec()).fits(b"cable"));
        assert!(Clue::Reversed(b"enarc".to_vec()).fits(w));
        assert!(Clue::Anagram(b"necra".to_vec()).fits(w));
        assert!(!Clue::Anagram(b"necrr".to_vec()).fits(w));
        assert!(Clue::Shift(3, b"fudqh".to_vec()).fits(w));
        assert!(!Clue::Shift(2, b"fudqh".to_vec()).fits(w));
        assert!(Clue::ShiftAny(b"fudqh".to_vec()).fits(w));
        assert!(!Clue::ShiftAny(b"crane".to_vec()).fits(w), "a shift of 0 is not allowed");
        assert!(Clue::Letters(b'c', b"rn".to_vec()).fits(w));
        assert!(!Clue::Letters(b'c', b"rt".to_vec()).fits(w));
    }

    /// Every run of two or more letters in the solved grid is an entry, entries cross, and the
    /// solver finds exactly the stored solution.
    #[test]
    fn grids_are_proper_and_unique() {
        for level in 1..=5u8 {
            for seed in 0..20 {
                let mut x = world(seed, level);
                assert_eq!(x.slots.len(), ENTRIES[level as usize - 1]);
                assert_eq!(x.solve(2).len(), 1, "seed {seed} level {level}");
                for (i, s) in x.slots.clone().iter().enumerate() {
                    for (k, b) in x.squares(s).collect::<Vec<_>>().into_iter().zip(x.solution[i].bytes()) {
                        x.cells[k] = b;
                    }
                }
                let runs = |down: bool| {
                    let (outer, inner) = if down { (x.w, x.h) } else { (x.h, x.w) };
                    let mut n = 0;
                    for a in 0..outer {
                        let mut len = 0;
                        for b in 0..=inner {
                            let k = if down { b * x.w + a } else { a * x.w + b };
                            if b < inner && x.open[k] {
                                len += 1;
                            } else {
                                n += (len >= 2) as usize;
                                len = 0;
                            }
                        }
                    }
                    n
                };
                assert_eq!(runs(false) + runs(true), x.slots.len(), "seed {seed} level {level}");
                assert!(x.slots.iter().all(|s| x.good(s)));
            }
        }
    }

    #[test]
    fn fills_are_checked_and_report_crossings() {
        let mut x = world(5, 2);
        let label = x.slots[0].label.clone();
        assert!(
            matches!(x.step(&format!("fill {label} zzzzz")), Step::Invalid(m) if m.contains("dictionary"))
        );
        assert!(matches!(x.step(&format!("fill {label} ab")), Step::Invalid(m) if m.contains("letters")));
        assert!(matches!(x.step("fill 99A crane"), Step::Invalid(m) if m.contains("no entry")));
        assert!(matches!(x.step("fill crane"), Step::Format(_)));
        assert!(matches!(x.step(&format!("clear {label}")), Step::Invalid(m) if m.contains("empty")));
        let s0 = x.slots[0].clone();
        let wrong = hashed()
            .iter()
            .find(|w| {
                w.len() == s0.len
                    && !s0.clue.fits(w.as_bytes())
                    && w.bytes().zip(x.solution[0].bytes()).all(|(a, b)| a != b)
            })
            .unwrap();
        assert!(matches!(x.step(&format!("{label} {wrong}")), Step::Done(Outcome::Continue, _)));
        assert!(matches!(x.step("check"), Step::Done(_, m) if m.contains(&format!("wrong: {label}"))));
        let mut changed = false;
        for i in 1..x.slots.len() {
            let step = x.step(&format!("fill {} {}", x.slots[i].label, x.solution[i].to_uppercase()));
            assert!(matches!(&step, Step::Done(Outcome::Continue, _)), "{step:?}");
            changed |= matches!(&step, Step::Done(_, m) if m.contains("Crossing letters changed"));
        }
        assert!(changed, "the solution's crossings overwrote the wrong word's letters");
        let first = format!("fill {label} {}", x.solution[0]);
        assert!(matches!(x.step(&first), Step::Done(Outcome::Won, _)));
    }
}
