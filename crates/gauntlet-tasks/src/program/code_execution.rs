//! Code execution: predict exactly what a small random Python-like program prints.
//!
//! **Generates** a random program in Mini, the tiny language of [`mini`](super::mini): integer
//! variables `a b c d`, loop counters `i j k`, one list `xs`, assignments with `+ - * // %`,
//! `if`/`else`, `for … in range(lo, hi)`, `while` loops that always terminate (their counter is
//! never assigned in the body and moves towards the exit every iteration), `xs.append`, `len(xs)`
//! and `xs[…]`. The program is run by the interpreter; a program that fails (undefined variable,
//! out-of-range index, a value past ±10⁹, more than 20,000 steps), prints nothing or more than 16
//! values, or runs fewer steps than the level asks for is redrawn. The program is written in
//! Python syntax and means exactly what Python would do.
//!
//! **Answers** are the printed integers in order, separated by spaces, commas or newlines, parsed
//! strictly (`gauntlet_core::answer::tokens`): a word, a hedge (`5 or 6`, `5/6`) or any other
//! leftover makes the answer unparsable.
//!
//! **Verifies** by running the stored program again with the interpreter and comparing the whole
//! printed sequence (the output of a program is unique). 0/1: the reason says the first position
//! that differs.
//!
//! | level | statements | nesting | loops | list | min. steps |
//! |---|---|---|---|---|---|
//! | 1 | 2 + 3 | none | no | no | – |
//! | 2 | 2 + 4 | `if` | no | no | – |
//! | 3 | 2 + 4 | 1 | `for`, `while` | no | 10 |
//! | 4 | 2 + 5 | 2 | yes | yes | 25 |
//! | 5 | 2 + 6 | 3 | yes | yes | 60 |
//!
//! **Example**: `xs = []`, `a = 3`, `for i in range(0, 3): a = a * 2 - i`, `print(a)` prints `20`.
//!
//! **Failure modes**: losing track of a variable over many loop iterations, Python's floor
//! division and remainder of negative numbers (`-7 // 2 == -4`, `-7 % 2 == 1`), the loop bound
//! of `range` (exclusive), and at level 5 traces of 60–2,000 steps with nested loops and list
//! indexing, which frontier models rarely simulate without a slip.

use crate::program::mini::{self, Gen, Shape, Stmt};
use gauntlet_core::{Category, Difficulty, Rng, Score, Task, TaskSpec};
use serde::{Deserialize, Serialize};

/// The code execution family.
pub struct CodeExecution;

/// One code execution problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CodeExecutionProblem {
    /// The program (rendered as Python in the prompt).
    pub program: Vec<Stmt>,
}

const MAX_OUTPUT: usize = 16;

fn shape(d: Difficulty) -> (Shape, usize) {
    let (stmts, depth, loops, lists) = d.pick([
        (3, 0, false, false),
        (4, 1, false, false),
        (4, 1, true, false),
        (5, 2, true, true),
        (6, 3, true, true),
    ]);
    let min_steps = d.pick([0, 0, 10, 25, 60]);
    (Shape { stmts, depth, loops, lists, max_lit: d.pick([9, 9, 12, 12, 15]) }, min_steps)
}

impl Task for CodeExecution {
    type Problem = CodeExecutionProblem;

    fn spec(&self) -> TaskSpec {
        TaskSpec {
            name: "code_execution",
            category: Category::Program,
            description: "Predict the exact output of a small random Python program with loops, conditionals and a list.",
            levels: [
                "5 straight-line statements",
                "6 statements with if/else",
                "6 statements, for/while loops, at least 10 steps",
                "7 statements, nesting 2, loops and a list, at least 25 steps",
                "8 statements, nesting 3, loops and a list, at least 60 steps",
            ],
            answer_format: "the printed integers in order, separated by spaces, e.g. `3 10 -4`",
        }
    }

    fn sample(&self, rng: &mut Rng, d: Difficulty) -> CodeExecutionProblem {
        let (shape, min_steps) = shape(d);
        for _ in 0..2000 {
            let program = Gen::new(rng, shape).program();
            if let Ok(r) = mini::run(&program) {
                if !r.output.is_empty() && r.output.len() <= MAX_OUTPUT && r.steps >= min_steps {
                    return CodeExecutionProblem { program };
                }
            }
        }
        CodeExecutionProblem { program: vec![Stmt::Print(mini::Expr::Num(rng.range(1, 99)))] }
    }

    fn prompt(&self, p: &CodeExecutionProblem) -> String {
        format!(
            "What does this Python program print? Every value it prints is an integer.\n\n```python\n{}\n```\n\n\
             List every printed value in order.\n\n{}",
            mini::program_src(&p.program),
            self.answer_instruction()
        )
    }

    fn solve(&self, p: &CodeExecutionProblem) -> String {
        match mini::run(&p.program) {
            Ok(r) => r.output.iter().map(i64::to_string).collect::<Vec<_>>().join(" "),
            Err(_) => String::new(),
        }
    }

    fn verify(&self, p: &CodeExecutionProblem, answer: &str) -> Score {
        let want = match mini::run(&p.program) {
            Ok(r) => r.output,
            Err(e) => return Score::wrong(format!("malformed problem: the program fails ({e})")),
        };
        let got = match gauntlet_core::answer::tokens(answer, 10_000, |t| t.parse::<i64>().ok()) {
            Ok(v) => v,
            Err(e) => return Score::unparsable(e),
        };
        if got.is_empty() {
            return Score::unparsable("no values");
        }
        if got == want {
            return Score::correct();
        }
        match got.iter().zip(&want).position(|(a, b)| a != b) {
            Some(i) => Score::wrong(format!("value {} is {}, the program prints {}", i + 1, got[i], want[i])),
            None => Score::wrong(format!("{} values, the program prints {}", got.len(), want.len())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::mini::{BinOp, Expr};

    fn example() -> CodeExecutionProblem {
        let a = || Box::new(Expr::Var('a'));
        let double = Expr::Bin(BinOp::Mul, a(), Box::new(Expr::Num(2)));
        let body = vec![Stmt::Assign('a', Expr::Bin(BinOp::Sub, Box::new(double), Box::new(Expr::Var('i'))))];
        CodeExecutionProblem {
            program: vec![
                Stmt::Assign('a', Expr::Num(3)),
                Stmt::For('i', 0, 3, body),
                Stmt::Print(Expr::Var('a')),
                Stmt::Print(Expr::Num(-4)),
            ],
        }
    }

    #[test]
    fn example_from_the_docs() {
        let p = example();
        assert!(CodeExecution.prompt(&p).contains("for i in range(0, 3):\n    a = (a * 2) - i"));
        assert_eq!(CodeExecution.solve(&p), "20 -4");
        for ok in ["20 -4", "20\n-4", "20, -4"] {
            assert!(CodeExecution.verify(&p, ok).correct, "{ok}");
        }
        for bad in ["20 or 19 -4", "20/21 -4", "20 -4 done", "a=20 -4", "[20, -4]", ""] {
            assert!(CodeExecution.verify(&p, bad).is_format_error(), "{bad}");
        }
        for near in ["20", "20 -4 -4", "19 -4", "-4 20"] {
            let s = CodeExecution.verify(&p, near);
            assert!(!s.correct && s.reward == 0.0 && !s.is_format_error(), "{near}: {s:?}");
        }
    }

    #[test]
    fn generated_programs_meet_their_level() {
        for level in 1..=5 {
            let d = Difficulty::new(level).unwrap();
            let (_, min_steps) = shape(d);
            for seed in 0..40 {
                let p = CodeExecution.generate(seed, d);
                let r = mini::run(&p.program).unwrap();
                assert!(r.steps >= min_steps && !r.output.is_empty(), "L{level} seed {seed}");
                assert!(CodeExecution.verify(&p, &CodeExecution.solve(&p)).correct);
            }
        }
    }
}
