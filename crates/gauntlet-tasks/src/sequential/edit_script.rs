//! Edit script: turn one word into another with the fewest single-letter insertions, deletions
//! and replacements, written as operations on numbered positions.
//!
//! **Generates** a random source word over a small alphabet (so that letters repeat and many
//! alignments look plausible) and a target made by a few random edits of it; pairs whose edit
//! (Levenshtein) distance falls outside the level's range are redrawn.
//!
//! **Verifies** the script by replaying it: operations apply one after another to the current
//! word, positions counted from 1 in the word as it is at that moment; `insert P C` puts letter
//! `C` so that it becomes the `P`-th letter (`P` from 1 to length + 1), `delete P` removes the
//! `P`-th letter, `replace P C` makes the `P`-th letter `C`. Every operation must be legal, the
//! final word must equal the target, and the number of operations must be at most the budget:
//! the edit distance + 1 at levels 1–2 (stated in the prompt), exactly the edit distance from
//! level 3 (stated at level 3, not at 4–5: "as few as possible"). *Any* valid script within the
//! budget scores 1.0 (there are usually many). Scoring is 0/1; the reason says how far a valid
//! script falls short.
//!
//! | level | source length | edit distance | budget |
//! |---|---|---|---|
//! | 1 | 4–5 | 1–2 | distance + 1, stated |
//! | 2 | 6–7 | 2–3 | distance + 1, stated |
//! | 3 | 8–9 | 3–4 | distance, stated |
//! | 4 | 10–12 | 4–6 | distance, not stated |
//! | 5 | 13–16 | 6–8 | distance, not stated |
//!
//! **Example**: `cabd` → `abde` in 2: `delete 1, insert 4 e` (after the deletion the word is
//! `abd`, so the new letter becomes the 4th); `replace 1 a, replace 2 b, replace 3 d, replace
//! 4 e` also works but is not the fewest.
//!
//! **Failure modes**: positions counted in the original word instead of the current one,
//! off-by-one insert positions, aligning letters greedily instead of optimally.

use gauntlet_core::{answer, Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The edit-script family.
pub struct EditScript;

/// One pair of words.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EditScriptProblem {
    /// The word to start from.
    pub source: String,
    /// The word to reach.
    pub target: String,
    /// Operations allowed beyond the edit distance (0 or 1).
    pub slack: usize,
    /// Whether the prompt states the number of operations allowed.
    pub stated: bool,
}

/// One edit operation (positions 1-based in the current word).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// Insert the letter so that it becomes the `P`-th.
    Insert(usize, u8),
    /// Delete the `P`-th letter.
    Delete(usize),
    /// Replace the `P`-th letter.
    Replace(usize, u8),
}

/// The Levenshtein table `d[i][j]` between prefixes of `a` and `b`.
fn table(a: &[u8], b: &[u8]) -> Vec<Vec<usize>> {
    let mut d = vec![vec![0; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for j in 0..=b.len() {
        d[0][j] = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let sub = d[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = sub.min(d[i - 1][j] + 1).min(d[i][j - 1] + 1);
        }
    }
    d
}

/// The edit distance between two words.
pub fn distance(a: &str, b: &str) -> usize {
    table(a.as_bytes(), b.as_bytes())[a.len()][b.len()]
}

/// A shortest script from `a` to `b`. The table is walked back from the end, so each operation
/// touches a position at or right of every later one and the earlier positions stay valid.
pub fn shortest_script(a: &str, b: &str) -> Vec<Op> {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let d = table(a, b);
    let (mut i, mut j, mut ops) = (a.len(), b.len(), Vec::new());
    while i > 0 || j > 0 {
        if i > 0 && j > 0 && a[i - 1] == b[j - 1] && d[i][j] == d[i - 1][j - 1] {
            i -= 1;
            j -= 1;
        } else if i > 0 && j > 0 && d[i][j] == d[i - 1][j - 1] + 1 {
            ops.push(Op::Replace(i, b[j - 1]));
            i -= 1;
            j -= 1;
        } else if i > 0 && d[i][j] == d[i - 1][j] + 1 {
            ops.push(Op::Delete(i));
            i -= 1;
        } else {
            ops.push(Op::Insert(i + 1, b[j - 1]));
            j -= 1;
        }
    }
    ops
}

/// Apply `op` to `word`, or say why it is not legal.
pub fn apply(word: &mut Vec<u8>, op: Op) -> Result<(), String> {
    let len = word.len();
    match op {
        Op::Insert(p, c) if (1..=len + 1).contains(&p) => word.insert(p - 1, c),
        Op::Insert(p, _) => return Err(format!("insert position {p} is outside 1–{}", len + 1)),
        Op::Delete(p) | Op::Replace(p, _) if !(1..=len).contains(&p) => {
            return Err(format!("position {p} is outside 1–{len}"));
        }
        Op::Delete(p) => {
            word.remove(p - 1);
        }
        Op::Replace(p, c) => word[p - 1] = c,
    }
    Ok(())
}

fn show(op: Op) -> String {
    match op {
        Op::Insert(p, c) => format!("insert {p} {}", c as char),
        Op::Delete(p) => format!("delete {p}"),
        Op::Replace(p, c) => format!("replace {p} {}", c as char),
    }
}

/// Parse one operation: `insert P C`, `delete P` or `replace P C` (words case-insensitive).
fn parse_op(item: &str) -> Option<Op> {
    let words: Vec<&str> = item.split_whitespace().collect();
    let pos = |t: &str| {
        (t.len() <= 3 && t.bytes().all(|b| b.is_ascii_digit())).then(|| t.parse::<usize>().ok()).flatten()
    };
    let letter = |t: &str| match t.as_bytes() {
        [c] if c.is_ascii_alphabetic() => Some(c.to_ascii_lowercase()),
        _ => None,
    };
    match words.as_slice() {
        [v, p, c] if v.eq_ignore_ascii_case("insert") => Some(Op::Insert(pos(p)?, letter(c)?)),
        [v, p] if v.eq_ignore_ascii_case("delete") => Some(Op::Delete(pos(p)?)),
        [v, p, c] if v.eq_ignore_ascii_case("replace") => Some(Op::Replace(pos(p)?, letter(c)?)),
        _ => None,
    }
}

impl EditScriptProblem {
    fn checked(&self) -> Result<usize, String> {
        let ok = |w: &str| !w.is_empty() && w.len() <= 40 && w.bytes().all(|b| b.is_ascii_lowercase());
        if !ok(&self.source) || !ok(&self.target) || self.slack > 5 {
            return Err("words must be 1–40 lowercase letters".into());
        }
        Ok(distance(&self.source, &self.target) + self.slack)
    }
}

impl Task for EditScript {
    type Problem = EditScriptProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "edit_script",
            category: Category::Sequential,
            description: "Turn one word into another with the fewest letter insertions, deletions and \
                          replacements, as operations on numbered positions.",
            levels: [
                "4–5 letters, distance 1–2, budget distance + 1 stated",
                "6–7 letters, distance 2–3, budget distance + 1 stated",
                "8–9 letters, distance 3–4, budget = distance stated",
                "10–12 letters, distance 4–6, fewest operations (not stated)",
                "13–16 letters, distance 6–8, fewest operations (not stated)",
            ],
            answer_format: "the operations in order, separated by commas (e.g. `delete 1, insert 4 e, \
                            replace 2 x`)",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> EditScriptProblem {
        let (lo, hi) = d.pick([(4, 5), (6, 7), (8, 9), (10, 12), (13, 16)]);
        let (dlo, dhi) = d.pick([(1, 2), (2, 3), (3, 4), (4, 6), (6, 8)]);
        let alphabet = d.pick([b"abcdef".as_slice(), b"abcdef", b"abcdefg", b"abcdefgh", b"abcdefgh"]);
        let letter = |rng: &mut Rng| alphabet[rng.index(alphabet.len())];
        loop {
            let len = rng.range(lo, hi) as usize;
            let source: Vec<u8> = (0..len).map(|_| letter(rng)).collect();
            let mut target = source.clone();
            for _ in 0..rng.range(dlo as i64, dhi as i64 + 1) {
                let p = 1 + rng.index(target.len() + 1);
                let op = match rng.index(3) {
                    0 => Op::Insert(p, letter(rng)),
                    1 => Op::Delete(p),
                    _ => Op::Replace(p, letter(rng)),
                };
                let _ = apply(&mut target, op);
            }
            let (s, t) = (
                String::from_utf8_lossy(&source).into_owned(),
                String::from_utf8_lossy(&target).into_owned(),
            );
            if target.is_empty() || !(dlo..=dhi).contains(&distance(&s, &t)) {
                continue;
            }
            return EditScriptProblem {
                source: s,
                target: t,
                slack: d.pick([1, 1, 0, 0, 0]),
                stated: d.level() <= 3,
            };
        }
    }

    fn prompt(&self, p: &EditScriptProblem) -> String {
        let budget = p.checked().unwrap_or(0);
        let goal = if p.stated {
            format!("Use at most {budget} operations.")
        } else {
            "Use as few operations as possible: only a script with the smallest possible number of operations \
             counts."
                .to_string()
        };
        format!(
            "Turn the word `{}` into the word `{}` with these operations, applied one after another to the \
             current word. Positions count the letters of the word as it is at that moment, from 1:\n\
             - `insert P C`: insert the letter C so that it becomes the P-th letter (P from 1 to the \
             current length + 1; length + 1 appends);\n\
             - `delete P`: delete the P-th letter;\n\
             - `replace P C`: replace the P-th letter with the letter C.\n\
             Letters are a to z. After the last operation the word must be exactly `{}`. {goal} Any script \
             that does this is accepted.\n\n{}",
            p.source,
            p.target,
            p.target,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &EditScriptProblem) -> String {
        if p.checked().is_err() {
            return String::new();
        }
        shortest_script(&p.source, &p.target).into_iter().map(show).collect::<Vec<_>>().join(", ")
    }

    fn verify(&self, p: &EditScriptProblem, answer: &str) -> Score {
        let budget = match p.checked() {
            Ok(b) => b,
            Err(e) => return Score::wrong(format!("malformed problem: {e}")),
        };
        let mut ops = Vec::new();
        for item in answer::items(answer) {
            if ops.len() == 200 {
                return Score::unparsable("more than 200 operations");
            }
            match parse_op(item) {
                Some(op) => ops.push(op),
                None => {
                    return Score::unparsable(format!(
                        "`{}` is not `insert P C`, `delete P` or `replace P C`",
                        answer::clip(item, 30)
                    ))
                }
            }
        }
        if ops.is_empty() {
            return Score::unparsable("no operations");
        }
        let mut word = p.source.as_bytes().to_vec();
        for (i, &op) in ops.iter().enumerate() {
            if let Err(e) = apply(&mut word, op) {
                return Score::wrong(format!("operation {} (`{}`): {e}", i + 1, show(op)));
            }
        }
        if word != p.target.as_bytes() {
            return Score::wrong(format!(
                "the script ends with `{}`, not `{}`",
                String::from_utf8_lossy(&word),
                p.target
            ));
        }
        if ops.len() > budget {
            return Score::wrong(format!("{} operations, but {budget} are allowed", ops.len()));
        }
        Score::correct()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example(slack: usize) -> EditScriptProblem {
        EditScriptProblem { source: "cabd".into(), target: "abde".into(), slack, stated: true }
    }

    #[test]
    fn example_from_the_docs() {
        let t = EditScript;
        let p = example(0);
        assert_eq!(distance("cabd", "abde"), 2);
        assert!(t.verify(&p, &t.solve(&p)).correct);
        for ok in ["delete 1, insert 4 e", "insert 5 e; delete 1", "DELETE 1\nInsert 4 E"] {
            assert!(t.verify(&p, ok).correct, "{ok}");
        }
        let long = "replace 1 a, replace 2 b, replace 3 d, replace 4 e";
        assert!(t.verify(&p, long).reason.contains("4 operations"));
        assert!(t.verify(&example(2), long).correct);
        assert!(t.verify(&p, "delete 1, insert 5 e").reason.contains("outside"));
        assert!(t.verify(&p, "delete 1, insert 3 e").reason.contains("ends with"));
        for bad in [
            "delete 1 or 2, insert 4 e",
            "delete 1/2, insert 4 e",
            "delete 1, insert 4 ee",
            "delete",
            "",
            "del 1",
        ] {
            assert!(t.verify(&p, bad).is_format_error(), "{bad}");
        }
    }

    #[test]
    fn shortest_scripts_replay_to_the_target() {
        let mut rng = Rng::new(8);
        for _ in 0..500 {
            let w = |rng: &mut Rng| -> String {
                (0..rng.index(9)).map(|_| char::from(b'a' + rng.index(3) as u8)).collect()
            };
            let (a, b) = (w(&mut rng), w(&mut rng));
            let ops = shortest_script(&a, &b);
            assert_eq!(ops.len(), distance(&a, &b));
            let mut word = a.as_bytes().to_vec();
            for op in ops {
                apply(&mut word, op).unwrap();
            }
            assert_eq!(word, b.as_bytes(), "{a} -> {b}");
        }
    }

    #[test]
    fn oracle_at_every_level() {
        let t = EditScript;
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..50 {
                let p = t.generate(seed, d);
                let a = t.solve(&p);
                assert!(t.verify(&p, &a).correct, "L{level} seed {seed}: {a}");
                let (dlo, dhi) = d.pick([(1, 2), (2, 3), (3, 4), (4, 6), (6, 8)]);
                assert!((dlo..=dhi).contains(&distance(&p.source, &p.target)));
            }
        }
    }

    #[test]
    fn malformed_problems_are_rejected() {
        let t = EditScript;
        for (s, g) in [("", "ab"), ("Ab", "ab"), ("ab", "a b")] {
            let p = EditScriptProblem { source: s.into(), target: g.into(), slack: 0, stated: true };
            assert!(t.verify(&p, "delete 1").reason.starts_with("malformed"));
        }
    }
}
