//! Brainfuck: predict the exact output of a random Brainfuck program.
//!
//! **Generates** a program that prints a random string of letters (A–Z, a–z): a multiplication
//! loop (nested from level 4) fills one to four value cells with multiples of its counters, then
//! for each character the pointer moves to a value cell, the cell is adjusted with `+`/`-` and
//! printed with `.`. At level 5 the program also moves cell contents into neighbouring cells with
//! transfer loops (`[->+<]`), so a value depends on the history of two cells. The interpreter
//! runs the program (8-bit wrapping cells, 300-cell tape, pointer never left of cell 0, at most
//! 100,000 steps); a program whose output is not all letters is redrawn.
//!
//! **Answers** are the output string itself, compared exactly (case-sensitive; the shared layer
//! only strips the tolerated wrappers). Anything else (a hedge `Abc or Abd`, prose, quotes) is
//! simply not the output and scores 0.
//!
//! **Verifies** by running the stored program with the interpreter and comparing its output
//! with the answer (the output is unique). The reason says where the first difference is.
//!
//! | level | characters | value cells | init loop | transfers |
//! |---|---|---|---|---|
//! | 1 | 3 | 1 | single | no |
//! | 2 | 4 | 2 | single | no |
//! | 3 | 6 | 2 | single | no |
//! | 4 | 8 | 3 | nested | no |
//! | 5 | 10 | 4 | nested | yes |
//!
//! **Example**: `++++++++[>++++++++<-]>+.+.+.` prints `ABC`.
//!
//! **Failure modes**: miscounting runs of `+` and `-`, losing the pointer position, forgetting
//! that a nested loop multiplies three counters, and (level 5) the values moved by transfer
//! loops; long runs of identical symbols are hard for tokenised models to count exactly.

use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The Brainfuck family.
pub struct Brainfuck;

/// One Brainfuck problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BrainfuckProblem {
    /// The program text (only the eight Brainfuck commands).
    pub program: String,
}

/// Tape length of the interpreter.
pub const TAPE: usize = 300;
/// Steps (commands executed) the interpreter allows.
pub const MAX_STEPS: usize = 100_000;

/// Run a Brainfuck program without input; `Err` names why it stopped (unmatched bracket,
/// pointer off the tape, a `,` command, step budget).
pub fn run(program: &str) -> Result<Vec<u8>, String> {
    let code = program.as_bytes();
    let mut jump = vec![0usize; code.len()];
    let mut stack = Vec::new();
    for (i, &c) in code.iter().enumerate() {
        match c {
            b'[' => stack.push(i),
            b']' => {
                let j = stack.pop().ok_or("unmatched `]`")?;
                jump[i] = j;
                jump[j] = i;
            }
            _ => {}
        }
    }
    if !stack.is_empty() {
        return Err("unmatched `[`".into());
    }
    let (mut tape, mut ptr, mut pc, mut steps, mut out) =
        (vec![0u8; TAPE], 0usize, 0usize, 0usize, Vec::new());
    while pc < code.len() {
        steps += 1;
        if steps > MAX_STEPS {
            return Err(format!("more than {MAX_STEPS} steps"));
        }
        match code[pc] {
            b'+' => tape[ptr] = tape[ptr].wrapping_add(1),
            b'-' => tape[ptr] = tape[ptr].wrapping_sub(1),
            b'>' => {
                ptr += 1;
                if ptr == TAPE {
                    return Err("pointer past the end of the tape".into());
                }
            }
            b'<' => ptr = ptr.checked_sub(1).ok_or("pointer left of cell 0")?,
            b'.' => out.push(tape[ptr]),
            b'[' if tape[ptr] == 0 => pc = jump[pc],
            b']' if tape[ptr] != 0 => pc = jump[pc],
            b',' => return Err("the program reads input".into()),
            _ => {}
        }
        pc += 1;
    }
    Ok(out)
}

/// Program builder that tracks the pointer and the value cells' contents.
struct Builder {
    code: String,
    ptr: usize,
    cells: Vec<i32>,
}

impl Builder {
    fn go(&mut self, to: usize) {
        let (c, n) = if to > self.ptr { ('>', to - self.ptr) } else { ('<', self.ptr - to) };
        self.code.extend(std::iter::repeat_n(c, n));
        self.ptr = to;
    }

    fn add(&mut self, delta: i32) {
        let c = if delta > 0 { '+' } else { '-' };
        self.code.extend(std::iter::repeat_n(c, delta.unsigned_abs() as usize));
    }

    /// Fill value cells `base..base+k` with `counters product * factor` via (nested) loops.
    fn init(&mut self, counters: &[i32], factors: &[i32]) {
        let base = counters.len();
        for (depth, &m) in counters.iter().enumerate() {
            self.go(depth);
            self.add(m);
            self.code.push('[');
        }
        for (i, &f) in factors.iter().enumerate() {
            self.go(base + i);
            self.add(f);
        }
        for depth in (0..counters.len()).rev() {
            self.go(depth);
            self.code.push_str("-]");
        }
        let prod: i32 = counters.iter().product();
        self.cells = factors.iter().map(|f| f * prod).collect();
    }
}

fn generate(rng: &mut Rng, d: Difficulty) -> String {
    let n = d.pick([3usize, 4, 6, 8, 10]);
    let k = d.pick([1usize, 2, 2, 3, 4]);
    let nested = d.level() >= 4;
    let letters: Vec<u8> = (b'A'..=b'Z').chain(b'a'..=b'z').collect();
    let text: Vec<i32> = (0..n).map(|_| i32::from(letters[rng.index(letters.len())])).collect();
    let counters: Vec<i32> = if nested {
        vec![rng.range(2, 4) as i32, rng.range(3, 5) as i32]
    } else {
        vec![rng.range(5, 11) as i32]
    };
    let prod: i32 = counters.iter().product();
    let factors: Vec<i32> = (0..k).map(|_| ((text[rng.index(n)] + prod / 2) / prod).max(1)).collect();
    let mut b = Builder { code: String::new(), ptr: 0, cells: Vec::new() };
    b.init(&counters, &factors);
    let base = counters.len();
    for &t in &text {
        if d.level() == 5 && rng.chance(0.2) && k >= 2 {
            // Move cell i into its neighbour j: j += i, i = 0.
            let i = rng.index(k - 1) + usize::from(rng.chance(0.5));
            let j = if i + 1 < k && (i == 0 || rng.chance(0.5)) { i + 1 } else { i - 1 };
            b.go(base + i);
            let (there, back) = if j > i { (">", "<") } else { ("<", ">") };
            b.code.push_str(&format!("[-{there}+{back}]"));
            b.cells[j] += b.cells[i];
            b.cells[i] = 0;
        }
        let nearest = (0..k).min_by_key(|&i| (b.cells[i] - t).abs()).unwrap_or(0);
        let cell = if d.level() >= 3 && rng.chance(0.3) { rng.index(k) } else { nearest };
        b.go(base + cell);
        b.add(t - b.cells[cell]);
        b.cells[cell] = t;
        b.code.push('.');
    }
    b.code
}

fn printable(out: &[u8]) -> bool {
    !out.is_empty() && out.iter().all(u8::is_ascii_alphabetic)
}

impl Task for Brainfuck {
    type Problem = BrainfuckProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "brainfuck",
            category: Category::Program,
            description: "Predict the exact output of a random Brainfuck program that prints letters.",
            levels: [
                "3 characters, 1 value cell, one multiplication loop",
                "4 characters, 2 value cells",
                "6 characters, 2 value cells, cells used out of order",
                "8 characters, 3 value cells, nested multiplication loop",
                "10 characters, 4 value cells, nested loop and transfer loops",
            ],
            answer_format: "the exact output string, e.g. `Hello`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> BrainfuckProblem {
        loop {
            let program = generate(rng, d);
            if run(&program).is_ok_and(|o| printable(&o)) {
                return BrainfuckProblem { program };
            }
        }
    }

    fn prompt(&self, p: &BrainfuckProblem) -> String {
        format!(
            "Run this Brainfuck program. The tape has {TAPE} cells, all starting at 0, and the pointer starts at \
             the leftmost cell; cells hold bytes (0–255, wrapping around). `+`/`-` increment/decrement the current \
             cell, `>`/`<` move the pointer, `[` jumps past the matching `]` if the current cell is 0, `]` jumps back \
             to the matching `[` if it is not 0, and `.` outputs the current cell as an ASCII character.\n\n\
             {}\n\nWhat does it print? Every character it prints is a letter.\n\n{}",
            p.program,
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &BrainfuckProblem) -> String {
        run(&p.program).map(|o| String::from_utf8_lossy(&o).into_owned()).unwrap_or_default()
    }

    fn verify(&self, p: &BrainfuckProblem, answer: &str) -> Score {
        let want = match run(&p.program) {
            Ok(o) if printable(&o) => o,
            _ => return Score::wrong("malformed problem: the program does not print letters"),
        };
        if answer.is_empty() {
            return Score::unparsable("empty answer");
        }
        if answer.as_bytes() == want.as_slice() {
            return Score::correct();
        }
        let first =
            answer.bytes().zip(&want).position(|(a, b)| a != *b).unwrap_or(answer.len().min(want.len()));
        Score::wrong(format!(
            "not the output: the first {first} characters match, the program prints {} characters",
            want.len()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_from_the_docs() {
        let p = BrainfuckProblem { program: "++++++++[>++++++++<-]>+.+.+.".into() };
        assert_eq!(Brainfuck.solve(&p), "ABC");
        assert!(Brainfuck.verify(&p, "ABC").correct);
        for bad in ["abc", "AB", "ABCD", "ABC or ABD", "A B C", "\"ABC\"", "ABC (final)"] {
            let s = Brainfuck.verify(&p, bad);
            assert!(!s.correct && s.reward == 0.0, "{bad}: {s:?}");
        }
        assert!(Brainfuck.verify(&p, "").is_format_error());
    }

    #[test]
    fn interpreter_rejects_broken_programs() {
        assert!(run("[").is_err());
        assert!(run("]").is_err());
        assert!(run("<").is_err());
        assert!(run("+[]").unwrap_err().contains("steps"));
        assert!(run(",").is_err());
        assert_eq!(run("-.").unwrap(), vec![255]);
        let bad = BrainfuckProblem { program: "+[".into() };
        assert!(Brainfuck.verify(&bad, "A").reason.starts_with("malformed"));
    }

    #[test]
    fn generated_programs_print_letters_of_the_right_length() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            for seed in 0..50 {
                let p = Brainfuck.generate(seed, d);
                let out = run(&p.program).unwrap();
                assert_eq!(out.len(), d.pick([3, 4, 6, 8, 10]), "L{level} seed {seed}");
                assert!(Brainfuck.verify(&p, &Brainfuck.solve(&p)).correct);
            }
        }
    }
}
