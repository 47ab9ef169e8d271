//! Baba-Is-You rule puzzles (after Baba Is AI): the rules are word blocks on the grid, and
//! pushing the words changes the rules.
//!
//! **Generates** a small grid with objects (`baba`, `flag`, `wall`, `rock`) and word blocks
//! (nouns `BABA FLAG WALL ROCK`, `IS`, properties `YOU WIN STOP PUSH`). A rule is a line
//! `NOUN IS PROPERTY` read left to right or top to bottom. Every level starts with `BABA IS YOU`;
//! what else is on the grid depends on the level (table). Layouts a breadth-first search cannot
//! solve within 60,000 states are redrawn.
//!
//! **Plays**: `up`, `down`, `left`, `right` move every YOU object one cell. Words are always
//! pushable, PUSH objects are pushed, STOP objects and the grid's edge block (a blocked move is a
//! legal no-op). After each move the rules are read again. Success: a YOU object on the same cell
//! as a WIN object. Failure: no YOU object left (`BABA IS YOU` broken).
//!
//! | level | grid | task | turn limit |
//! |---|---|---|---|
//! | 1 | 6×6 | go to the win object (`FLAG IS WIN` stands) | 2 × optimal + 4 |
//! | 2 | 6×6 | make a win rule: push `FLAG` in front of `IS WIN` | 2 × optimal + 4 |
//! | 3 | 7×7 | break `WALL IS STOP` to cross a wall to the flag | 2 × optimal + 4 |
//! | 4 | 7×7 | make a win rule with two nouns loose, `ROCK IS PUSH` and rocks | 2 × optimal + 4 |
//! | 5 | 7×7 | break `WALL IS STOP` and make `FLAG IS WIN` | 2 × optimal + 4 |
//!
//! **Example**: `BABA IS YOU`, `FLAG IS WIN`, baba two cells left of the flag: `right`,
//! `right`.
//!
//! **Oracle**: breadth-first search over entity positions from the current state (plan cached;
//! exact on generated levels: 1.0).
//!
//! **Failure modes**: walking to a flag that is not WIN, breaking `BABA IS YOU`, pushing the
//! needed word against an edge where it cannot be moved back.

use super::ledger::{Dir, Outcome};
use super::shell::{bfs, Planner, Step, World};
use gauntlet_core::Rng;

/// Entity kinds: objects 0–3, noun words 4–7, then `IS` and the properties.
const NAMES: [&str; 13] =
    ["baba", "flag", "wall", "rock", "BABA", "FLAG", "WALL", "ROCK", "IS", "YOU", "WIN", "STOP", "PUSH"];
const IS: u8 = 8;
const YOU: u8 = 9;
const WIN: u8 = 10;
const STOP: u8 = 11;
const PUSH: u8 = 12;
const CAP: usize = 60_000;

/// The Baba world: entity kinds are fixed, positions change.
pub struct Baba {
    n: usize,
    kinds: Vec<u8>,
    pos: Vec<u8>,
    optimal: usize,
    plan: Planner<Vec<u8>>,
}

/// Property bits per noun (bit `p - YOU`).
fn rules(n: usize, kinds: &[u8], pos: &[u8]) -> [u8; 4] {
    let mut word = vec![u8::MAX; n * n];
    for (k, p) in kinds.iter().zip(pos) {
        if *k >= 4 {
            word[*p as usize] = *k;
        }
    }
    let mut props = [0u8; 4];
    for p in 0..n * n {
        let k = word[p];
        if !(4..8).contains(&k) {
            continue;
        }
        let (r, c) = (p / n, p % n);
        if c + 2 < n && word[p + 1] == IS && word[p + 2] >= YOU && word[p + 2] != u8::MAX {
            props[(k - 4) as usize] |= 1 << (word[p + 2] - YOU);
        }
        if r + 2 < n && word[p + n] == IS && word[p + 2 * n] >= YOU && word[p + 2 * n] != u8::MAX {
            props[(k - 4) as usize] |= 1 << (word[p + 2 * n] - YOU);
        }
    }
    props
}

fn has(props: &[u8; 4], kind: u8, prop: u8) -> bool {
    kind < 4 && props[kind as usize] & (1 << (prop - YOU)) != 0
}

fn neighbour(n: usize, p: u8, d: Dir) -> Option<u8> {
    d.step(p as usize / n, p as usize % n, n, n).map(|(r, c)| (r * n + c) as u8)
}

/// Push whatever is pushable in `cell` one step along `d`; whether `cell` can then be entered.
fn clear(n: usize, kinds: &[u8], pos: &mut [u8], props: &[u8; 4], cell: u8, d: Dir) -> bool {
    let here: Vec<usize> = (0..kinds.len()).filter(|&i| pos[i] == cell).collect();
    let push = |k: u8| k >= 4 || has(props, k, PUSH);
    if here.iter().any(|&i| has(props, kinds[i], STOP) && !push(kinds[i])) {
        return false;
    }
    let movers: Vec<usize> = here.into_iter().filter(|&i| push(kinds[i])).collect();
    if movers.is_empty() {
        return true;
    }
    let Some(next) = neighbour(n, cell, d) else { return false };
    if !clear(n, kinds, pos, props, next, d) {
        return false;
    }
    for i in movers {
        pos[i] = next;
    }
    true
}

/// The positions after one move (unchanged when everything is blocked).
fn advance(n: usize, kinds: &[u8], pos: &[u8], d: Dir) -> Vec<u8> {
    let props = rules(n, kinds, pos);
    let mut pos = pos.to_vec();
    let mut you: Vec<usize> = (0..kinds.len()).filter(|&i| has(&props, kinds[i], YOU)).collect();
    // Front-most movers first.
    let (dr, dc) = d.delta();
    you.sort_by_key(|&i| -((pos[i] as isize / n as isize) * dr + (pos[i] as isize % n as isize) * dc));
    for i in you {
        if let Some(t) = neighbour(n, pos[i], d) {
            if clear(n, kinds, &mut pos, &props, t, d) {
                pos[i] = t;
            }
        }
    }
    pos
}

/// `Some(true)` won, `Some(false)` lost (nothing is YOU), `None` going on.
fn status(n: usize, kinds: &[u8], pos: &[u8]) -> Option<bool> {
    let props = rules(n, kinds, pos);
    let you: Vec<usize> = (0..kinds.len()).filter(|&i| has(&props, kinds[i], YOU)).collect();
    if you.is_empty() {
        return Some(false);
    }
    let win = you.iter().any(|&i| (0..kinds.len()).any(|j| pos[j] == pos[i] && has(&props, kinds[j], WIN)));
    win.then_some(true)
}

fn solve(n: usize, kinds: &[u8], pos: &[u8]) -> Option<Vec<(Vec<u8>, String)>> {
    bfs(
        &pos.to_vec(),
        |s| {
            if status(n, kinds, s).is_some() {
                return Vec::new();
            }
            Dir::ALL
                .iter()
                .map(|&d| (d.word().to_string(), advance(n, kinds, s, d)))
                .filter(|(_, t)| t != s)
                .collect()
        },
        |s| status(n, kinds, s) == Some(true),
        CAP,
    )
}

impl Baba {
    fn layout(rng: &mut Rng, level: u8) -> (usize, Vec<u8>, Vec<u8>) {
        let n = [6, 6, 7, 7, 7][level as usize - 1];
        let mut kinds: Vec<u8> = Vec::new();
        let mut pos: Vec<u8> = Vec::new();
        let mut taken = vec![false; n * n];
        let put = |k: u8, p: usize, kinds: &mut Vec<u8>, pos: &mut Vec<u8>, taken: &mut Vec<bool>| {
            kinds.push(k);
            pos.push(p as u8);
            taken[p] = true;
        };
        let wall_col = n / 2 + 1;
        let barrier = level == 3 || level == 5;
        let width = if barrier { wall_col } else { n };
        // BABA IS YOU on the top row.
        let c0 = rng.index(width - 2);
        for (j, k) in [4, IS, YOU].into_iter().enumerate() {
            put(k, c0 + j, &mut kinds, &mut pos, &mut taken);
        }
        let row = |r: usize, c: usize| r * n + c;
        match level {
            1 | 3 => {
                let c = rng.index(n - 2);
                let (r3, c3) = (2 + rng.index(2), rng.index(2));
                for (j, k) in [5, IS, WIN].into_iter().enumerate() {
                    let p = if level == 1 { row(n - 1, c + j) } else { row(r3, c3 + j) };
                    put(k, p, &mut kinds, &mut pos, &mut taken);
                }
            }
            _ => {
                // `IS WIN` with a gap on its left, the noun(s) loose.
                let r = 2 + rng.index(n - 4);
                let c = 1 + rng.index(width - 2 - 1);
                put(IS, row(r, c), &mut kinds, &mut pos, &mut taken);
                put(WIN, row(r, c + 1), &mut kinds, &mut pos, &mut taken);
            }
        }
        if barrier {
            let r = if level == 3 { 5 + rng.index(2) } else { n - 1 };
            for (j, k) in [6, IS, STOP].into_iter().enumerate() {
                put(k, row(r, j), &mut kinds, &mut pos, &mut taken);
            }
            for r in 0..n {
                put(2, row(r, wall_col), &mut kinds, &mut pos, &mut taken);
            }
        }
        let free = |rng: &mut Rng, taken: &[bool], lo: usize, hi: usize| loop {
            let p = row(1 + rng.index(n - 2), lo + rng.index(hi - lo));
            if !taken[p] {
                return p;
            }
        };
        if level == 4 {
            let r = n - 1;
            for (j, k) in [7, IS, PUSH].into_iter().enumerate() {
                put(k, row(r, n - 3 + j), &mut kinds, &mut pos, &mut taken);
            }
            for _ in 0..2 {
                let p = free(rng, &taken, 1, n - 1);
                put(3, p, &mut kinds, &mut pos, &mut taken);
            }
            let p = free(rng, &taken, 1, n - 1);
            put(7, p, &mut kinds, &mut pos, &mut taken);
        }
        if level == 2 || level == 4 || level == 5 {
            let p = free(rng, &taken, 1, width - 1);
            put(5, p, &mut kinds, &mut pos, &mut taken);
        }
        let (flag_lo, flag_hi) = if barrier { (wall_col + 1, n) } else { (0, n) };
        let p = free(rng, &taken, flag_lo, flag_hi);
        put(1, p, &mut kinds, &mut pos, &mut taken);
        let p = free(rng, &taken, 0, width);
        put(0, p, &mut kinds, &mut pos, &mut taken);
        (n, kinds, pos)
    }

    fn cell(&self, p: usize) -> String {
        let here: Vec<&str> = (0..self.kinds.len())
            .filter(|&i| self.pos[i] as usize == p)
            .map(|i| NAMES[self.kinds[i] as usize])
            .collect();
        if here.is_empty() {
            ".".into()
        } else {
            here.join("+")
        }
    }

    fn rule_text(&self) -> String {
        let props = rules(self.n, &self.kinds, &self.pos);
        let mut out = Vec::new();
        for (noun, bits) in props.iter().enumerate() {
            for p in YOU..=PUSH {
                if bits & (1 << (p - YOU)) != 0 {
                    out.push(format!("{} IS {}", NAMES[noun + 4], NAMES[p as usize]));
                }
            }
        }
        if out.is_empty() {
            "none".into()
        } else {
            out.join(", ")
        }
    }
}

impl World for Baba {
    const NAME: &'static str = "baba";
    const CATEGORY: &'static str = "grid";
    const DESCRIPTION: &'static str =
        "Push word blocks to make and break rules until YOU reach something WIN.";
    const FLOORS: [f64; 5] = [1.0; 5];

    fn generate(rng: &mut Rng, level: u8) -> Self {
        loop {
            let (n, kinds, pos) = Self::layout(rng, level);
            if status(n, &kinds, &pos).is_some() {
                continue;
            }
            if let Some(path) = solve(n, &kinds, &pos) {
                if level == 1 || path.len() >= 3 {
                    let plan = Planner::default();
                    let optimal = path.len();
                    plan.action(&pos, || Some(path), "up");
                    return Baba { n, kinds, pos, optimal, plan };
                }
            }
        }
    }

    fn limit(&self) -> u32 {
        (2 * self.optimal + 4) as u32
    }

    fn intro(&self) -> String {
        "Baba Is You. Word blocks on the grid form rules `NOUN IS PROPERTY` (left to right or top to bottom). \
         Objects are lowercase (baba, flag, wall, rock), words uppercase; a cell lists everything on it joined \
         by +. You move every YOU object; words can always be pushed, PUSH objects too; STOP objects and the \
         edge block. Reach a WIN object with a YOU object. If nothing is YOU, you lose."
            .into()
    }

    fn render(&self) -> String {
        let mut out = String::new();
        for p in 0..self.n * self.n {
            out.push_str(&format!("{:<10}", self.cell(p)));
            if p % self.n == self.n - 1 {
                out = out.trim_end().to_string();
                out.push('\n');
            }
        }
        format!("{out}Active rules: {}.", self.rule_text())
    }

    fn grammar(&self) -> String {
        "Actions: up | down | left | right.".into()
    }

    fn step(&mut self, action: &str) -> Step {
        let Some(d) = Dir::parse(action) else { return Step::Format(self.grammar()) };
        let next = advance(self.n, &self.kinds, &self.pos, d);
        let moved = next != self.pos;
        self.pos = next;
        let what = if moved {
            format!("You move {}.", d.word())
        } else {
            format!("Blocked: nothing moves {}.", d.word())
        };
        match status(self.n, &self.kinds, &self.pos) {
            Some(true) => Step::Done(Outcome::Won, format!("{what} You win!")),
            Some(false) => Step::Done(Outcome::Lost, format!("{what} Nothing is YOU any more: you lose.")),
            None => Step::Done(Outcome::Continue, what),
        }
    }

    fn legal(&self) -> Vec<String> {
        Dir::ALL.iter().map(|d| d.word().to_string()).collect()
    }

    fn oracle(&self, _rng: &mut Rng) -> String {
        self.plan.action(&self.pos, || solve(self.n, &self.kinds, &self.pos), "up")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_read_both_ways_and_words_push() {
        // 4×4: BABA IS YOU on row 0; FLAG / IS / WIN down column 3; baba at (2,0).
        let n = 4;
        let kinds = vec![4, IS, YOU, 5, IS, WIN, 0, 1];
        let pos = vec![0, 1, 2, 3, 7, 11, 8, 12];
        let props = rules(n, &kinds, &pos);
        assert!(has(&props, 0, YOU) && has(&props, 1, WIN));
        let up = advance(n, &kinds, &pos, Dir::Up);
        assert_eq!(up[6], 4, "baba steps up into the empty cell");
        assert_eq!(advance(n, &kinds, &up, Dir::Up), up, "the word above cannot leave the grid");
        let down = advance(n, &kinds, &pos, Dir::Down);
        assert_eq!(status(n, &kinds, &down), Some(true), "baba reaches the flag: FLAG IS WIN (vertical)");
        // A loose word is pushed along.
        let (mut k2, mut p2) = (kinds.clone(), up.clone());
        k2.push(PUSH);
        p2.push(5);
        let right = advance(n, &k2, &p2, Dir::Right);
        assert_eq!((right[6], right[8]), (5, 6));
        assert_eq!(status(n, &kinds, &pos), None);
    }
}
