//! Single-turn task families: the [`Task`] trait, its specification and its type-erased form.

use crate::answer::normalize;
use crate::extract::{answer_instruction, extract_answer, Extraction};
use crate::{Difficulty, Rng, Score, TaskError};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The categories of single-turn families (after Enigmata's grouping, widened with algebra,
/// program, induction and probability).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Category {
    /// Numbers and expressions: Game of 24, Countdown, equations.
    Arithmetic,
    /// Ciphers: Caesar, Vigenère, substitution.
    Crypto,
    /// Deduction: Knights and Knaves, Zebra, SAT.
    Logic,
    /// Grid puzzles: Sudoku, Binairo, N-Queens, Futoshiki, magic squares.
    Grid,
    /// Graph problems: shortest path, colouring, Hamiltonian path, topological order.
    Graph,
    /// Search puzzles: mazes, Minesweeper, Light Up / Hitori.
    Search,
    /// Planning over a sequence of moves: Hanoi, sliding puzzles, Sokoban, stack permutations.
    Sequential,
    /// Symbolic mathematics: polynomials, linear systems, integration.
    Algebra,
    /// Programs and formal languages: code execution, Brainfuck, regular expressions, grammars.
    Program,
    /// Pattern discovery from examples: 1-D ARC, list functions, number sequences.
    Induction,
    /// Exact probability and causal inference: dice, Bayesian networks.
    Probability,
}

impl Category {
    /// All categories in display order.
    pub const ALL: [Category; 11] = [
        Category::Arithmetic,
        Category::Crypto,
        Category::Logic,
        Category::Grid,
        Category::Graph,
        Category::Search,
        Category::Sequential,
        Category::Algebra,
        Category::Program,
        Category::Induction,
        Category::Probability,
    ];

    /// The snake_case name (also the `ability` column of dataset rows).
    pub fn name(self) -> &'static str {
        match self {
            Category::Arithmetic => "arithmetic",
            Category::Crypto => "crypto",
            Category::Logic => "logic",
            Category::Grid => "grid",
            Category::Graph => "graph",
            Category::Search => "search",
            Category::Sequential => "sequential",
            Category::Algebra => "algebra",
            Category::Program => "program",
            Category::Induction => "induction",
            Category::Probability => "probability",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a task family is, for listings, dataset rows and documentation.
#[derive(Debug, Clone, Serialize)]
pub struct TaskSpec {
    /// Registry name, snake_case (`sudoku`, `game_of_24`).
    pub name: &'static str,
    /// Category of the family.
    pub category: Category,
    /// One-sentence description.
    pub description: &'static str,
    /// What each level 1..=5 means (generator parameters), one entry per level.
    pub levels: [&'static str; 5],
    /// The exact answer format the prompt asks for.
    pub answer_format: &'static str,
}

/// A single-turn task family: a seeded generator, an oracle solver and a validity verifier.
///
/// Implementors provide [`Task::sample`], [`Task::prompt`], [`Task::solve`] and
/// [`Task::verify`]; everything else has a default. Contract (checked by the conformance tests
/// in `gauntlet-tasks`):
///
/// - `generate(seed, d)` is a pure function of `(family, seed, d)`.
/// - `verify(p, &solve(p))` is correct with reward 1.0 for every generated `p`.
/// - `verify` accepts *every* valid answer, not one stored string, and never panics.
/// - `verify` follows the shared answer-format policy of [`crate::answer`]: answers must commit
///   to one value per item, and nothing but the tolerated wrappers is forgiven.
pub trait Task: Send + Sync + 'static {
    /// One problem instance; serialized into dataset rows as `reward_model.ground_truth`.
    type Problem: Serialize + DeserializeOwned + Clone + Send + Sync + 'static;

    /// The family's specification.
    fn spec(&self) -> TaskSpec;

    /// Draw one problem at `difficulty` from `rng` (the generator proper).
    fn sample(&self, rng: &mut Rng, difficulty: Difficulty) -> Self::Problem;

    /// The full user prompt: rules, instance and the exact answer format.
    fn prompt(&self, problem: &Self::Problem) -> String;

    /// The oracle: an answer (the text that goes inside the answer tags) that verifies as correct.
    fn solve(&self, problem: &Self::Problem) -> String;

    /// Score an extracted, normalised answer by checking its validity against the problem's rules.
    ///
    /// The answer arrives without the tolerated wrappers (see [`crate::answer`]); everything
    /// else in it must be consumed by a strict parse: a hedge (`x or y`, `x/y`, an item given
    /// twice), an unknown name, prose or leftover tokens is [`Score::unparsable`]. Partial credit,
    /// if any, must be 0 for any answer a constant or a copy of the prompt could produce.
    fn verify(&self, problem: &Self::Problem, answer: &str) -> Score;

    /// How the final answer is found in a response (default: the last `<answer>` block).
    fn extraction(&self) -> Extraction {
        Extraction::AnswerTag
    }

    /// The problem for `(seed, difficulty)`: [`Task::sample`] on this family's instance stream.
    fn generate(&self, seed: u64, difficulty: Difficulty) -> Self::Problem {
        let mut rng = Rng::for_instance(self.spec().name, seed, difficulty.level());
        self.sample(&mut rng, difficulty)
    }

    /// Score a whole model response: extract the answer, strip the wrappers the shared format
    /// policy tolerates ([`answer::normalize`](crate::answer::normalize): whitespace, backticks or
    /// a ``` fence, one trailing period), then [`Task::verify`] it. Every path that scores a
    /// response (the [`DynTask`] methods, [`TaskEnv`](crate::TaskEnv), the CLI and the servers)
    /// goes through here, so no family has to handle those wrappers itself.
    fn score(&self, problem: &Self::Problem, response: &str) -> Score {
        match extract_answer(response, self.extraction()) {
            Some(answer) => self.verify(problem, normalize(answer)),
            None => Score::unparsable(match self.extraction() {
                Extraction::AnswerTag => "no <answer>…</answer> block",
                Extraction::Boxed => "no \\boxed{…}",
                Extraction::Fenced => "no fenced code block",
            }),
        }
    }

    /// A full response that the oracle would give (the answer wrapped for extraction).
    fn oracle_response(&self, problem: &Self::Problem) -> String {
        let answer = self.solve(problem);
        match self.extraction() {
            Extraction::AnswerTag => format!("<answer>{answer}</answer>"),
            Extraction::Boxed => format!("\\boxed{{{answer}}}"),
            Extraction::Fenced => format!("```\n{answer}\n```"),
        }
    }

    /// The standard closing line of a prompt, built from [`TaskSpec::answer_format`].
    fn answer_instruction(&self) -> String {
        answer_instruction(self.spec().answer_format)
    }
}

/// One generated problem in type-erased form, as it travels through datasets and servers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Instance {
    /// Family name.
    pub task: String,
    /// Seed it was generated from.
    pub seed: u64,
    /// Difficulty level it was generated at.
    pub level: u8,
    /// The user prompt.
    pub prompt: String,
    /// The serialized problem (what the verifier needs).
    pub problem: serde_json::Value,
}

/// A [`Task`] behind a trait object: what registries, the CLI and servers hold.
///
/// Every `T: Task` is a `DynTask` through a blanket implementation.
pub trait DynTask: Send + Sync {
    /// The family's specification.
    fn spec(&self) -> TaskSpec;
    /// Generate the instance for `(seed, difficulty)`.
    fn instance(&self, seed: u64, difficulty: Difficulty) -> Instance;
    /// The prompt of a serialized problem.
    fn prompt_of(&self, problem: &serde_json::Value) -> Result<String, TaskError>;
    /// The oracle's full response (answer tags included) to a serialized problem.
    fn oracle_response_of(&self, problem: &serde_json::Value) -> Result<String, TaskError>;
    /// Score a full response against a serialized problem.
    fn score_of(&self, problem: &serde_json::Value, response: &str) -> Result<Score, TaskError>;
    /// Score a full response against a problem given as JSON text, decoded straight into the
    /// family's problem type (no intermediate `serde_json::Value`: the batch scorers' path).
    fn score_json(&self, problem: &str, response: &str) -> Result<Score, TaskError>;
    /// Generate, solve and verify one instance without serialization (benchmarks use this).
    /// Returns the oracle's score.
    fn roundtrip(&self, seed: u64, difficulty: Difficulty) -> Score;
    /// Generate one instance and build its prompt, without serialization (benchmarks use this).
    /// Returns the prompt length in bytes.
    fn generate_only(&self, seed: u64, difficulty: Difficulty) -> usize;
}

impl<T: Task> DynTask for T {
    fn spec(&self) -> TaskSpec {
        Task::spec(self)
    }

    fn instance(&self, seed: u64, difficulty: Difficulty) -> Instance {
        let p = self.generate(seed, difficulty);
        Instance {
            task: Task::spec(self).name.to_string(),
            seed,
            level: difficulty.level(),
            prompt: self.prompt(&p),
            problem: serde_json::to_value(&p).expect("problems serialize to JSON"),
        }
    }

    fn prompt_of(&self, problem: &serde_json::Value) -> Result<String, TaskError> {
        Ok(self.prompt(&decode::<T>(self, problem)?))
    }

    fn oracle_response_of(&self, problem: &serde_json::Value) -> Result<String, TaskError> {
        Ok(self.oracle_response(&decode::<T>(self, problem)?))
    }

    fn score_of(&self, problem: &serde_json::Value, response: &str) -> Result<Score, TaskError> {
        Ok(self.score(&decode::<T>(self, problem)?, response))
    }

    fn score_json(&self, problem: &str, response: &str) -> Result<Score, TaskError> {
        let p: T::Problem = serde_json::from_str(problem).map_err(|e| {
            let (task, detail) = (Task::spec(self).name.to_string(), e.to_string());
            match e.classify() {
                serde_json::error::Category::Data => TaskError::BadInstance { task, detail },
                _ => TaskError::NotJson { task, detail },
            }
        })?;
        Ok(self.score(&p, response))
    }

    fn roundtrip(&self, seed: u64, difficulty: Difficulty) -> Score {
        let p = self.generate(seed, difficulty);
        let r = self.oracle_response(&p);
        self.score(&p, &r)
    }

    fn generate_only(&self, seed: u64, difficulty: Difficulty) -> usize {
        let p = self.generate(seed, difficulty);
        self.prompt(&p).len()
    }
}

fn decode<T: Task>(task: &T, v: &serde_json::Value) -> Result<T::Problem, TaskError> {
    T::Problem::deserialize(v).map_err(|e| TaskError::BadInstance {
        task: Task::spec(task).name.to_string(),
        detail: e.to_string(),
    })
}
