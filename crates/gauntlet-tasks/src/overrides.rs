//! Generator parameters set past a level, under reasoning-gym's configuration keys.
//!
//! A level fixes all of a family's generator parameters. For the most used reasoning-gym names,
//! the configuration keys that have a natural meaning in gauntlet's generator (sizes, counts,
//! ranges) also set that parameter directly, on top of the level: `sudoku` with `min_empty=40`
//! draws 9×9 puzzles with 40 to 50 empty cells (50 is reasoning-gym's `max_empty` default). Each
//! [`Param`] says which keys set which parameter, reasoning-gym's default for a key not given,
//! and the values gauntlet's generator accepts; [`resolve`] checks a configuration into
//! [`Overrides`], and [`instance`] generates with them. Everything else about a problem (the
//! operators of an expression, the statement kinds of a Knights and Knaves puzzle) still comes
//! from the level.
//!
//! A key pair `min_x`/`max_x` is a range: each problem draws its value uniformly from it (from
//! the problem's own random stream, so entries stay a pure function of the seed); a single key is
//! one value. A range of one value draws nothing, so setting a parameter to what the level already
//! uses generates the level's problems exactly (tested per family).
//!
//! ```
//! use gauntlet_core::Difficulty;
//! use gauntlet_tasks::overrides;
//! let d = Difficulty::new(4).unwrap();
//! let o = overrides::resolve("sudoku", &[("min_empty", 40.0), ("max_empty", 44.0)]).unwrap();
//! let inst = overrides::instance("sudoku", 7, d, &o).unwrap();
//! let puzzle: Vec<Vec<u8>> = serde_json::from_value(inst.problem["puzzle"].clone()).unwrap();
//! let empty = puzzle.iter().flatten().filter(|&&v| v == 0).count();
//! assert!((40..=44).contains(&empty));
//! ```

use crate::{arithmetic, crypto, grid, logic, sequential};
use gauntlet_core::{Difficulty, Instance, Rng, Task};

/// One generator parameter and the reasoning-gym keys that set it.
#[derive(Debug, Clone, Copy)]
pub struct Param {
    /// The reasoning-gym name whose keys these are (`sudoku`).
    pub alias: &'static str,
    /// `[min_key, max_key]` for a range drawn per problem, or `[key]` for one value.
    pub keys: &'static [&'static str],
    /// The generator parameter it sets (what the family reads: `empty`, `terms`, …).
    pub name: &'static str,
    /// reasoning-gym's default of each key (`[min, max]`, or the value twice); a key not given
    /// takes it, as in reasoning-gym.
    pub defaults: [i64; 2],
    /// The values gauntlet's generator accepts, inclusive.
    pub bounds: (i64, i64),
    /// What it sets in gauntlet's generator, in a few words (docs/python.md's table).
    pub doc: &'static str,
}

const fn p(
    alias: &'static str,
    keys: &'static [&'static str],
    name: &'static str,
    defaults: [i64; 2],
    bounds: (i64, i64),
    doc: &'static str,
) -> Param {
    Param { alias, keys, name, defaults, bounds, doc }
}

/// Every key that sets a generator parameter, by reasoning-gym name.
pub const PARAMS: &[Param] = &[
    p(
        "base_conversion",
        &["min_base", "max_base"],
        "base",
        [2, 16],
        (2, 36),
        "both bases drawn from the range (distinct)",
    ),
    p(
        "base_conversion",
        &["min_value", "max_value"],
        "value",
        [0, 1000],
        (0, 1_000_000_000_000),
        "the number to convert",
    ),
    p("basic_arithmetic", &["min_terms", "max_terms"], "terms", [2, 6], (2, 20), "number of operands"),
    p("basic_arithmetic", &["min_digits", "max_digits"], "digits", [1, 4], (1, 9), "digits of each operand"),
    p("caesar_cipher", &["min_words", "max_words"], "words", [3, 20], (1, 30), "words in the message"),
    p("caesar_cipher", &["min_rotation", "max_rotation"], "rotation", [1, 25], (1, 25), "the shift"),
    p("chain_sum", &["min_terms", "max_terms"], "terms", [2, 6], (2, 20), "number of operands"),
    p("chain_sum", &["min_digits", "max_digits"], "digits", [1, 4], (1, 9), "digits of each operand"),
    p("countdown", &["min_numbers", "max_numbers"], "numbers", [4, 6], (2, 6), "how many numbers are given"),
    p(
        "countdown",
        &["min_value", "max_value"],
        "value",
        [1, 100],
        (1, 1000),
        "each given number, uniform in the range (instead of small and large numbers)",
    ),
    p("countdown", &["min_target", "max_target"], "target", [100, 999], (1, 10_000), "the target"),
    p("gcd", &["min_numbers", "max_numbers"], "numbers", [2, 2], (2, 6), "how many numbers"),
    p(
        "gcd",
        &["min_value", "max_value"],
        "value",
        [1, 1000],
        (1, 1_000_000_000),
        "each number (multiples of a common factor ≥ 2 in the range)",
    ),
    p("knights_knaves", &["n_people"], "people", [2, 2], (2, 6), "inhabitants"),
    p("lcm", &["min_numbers", "max_numbers"], "numbers", [2, 2], (2, 6), "how many numbers"),
    p(
        "lcm",
        &["min_value", "max_value"],
        "value",
        [1, 100],
        (1, 1_000_000_000),
        "each number (multiples of a common factor ≥ 2 in the range)",
    ),
    p(
        "mini_sudoku",
        &["min_empty", "max_empty"],
        "empty",
        [8, 12],
        (0, 12),
        "empty cells of the 4×4 grid (fewer when the puzzle would lose its unique solution)",
    ),
    p("n_queens", &["n"], "n", [8, 8], (4, 16), "the board size"),
    p(
        "n_queens",
        &["min_remove", "max_remove"],
        "remove",
        [1, 7],
        (0, 16),
        "queens left to place (the others are given)",
    ),
    p(
        "prime_factorization",
        &["min_value", "max_value"],
        "value",
        [2, 1000],
        (2, 1_000_000_000_000),
        "the number to factor, uniform in the range",
    ),
    p("puzzle24", &["min_value", "max_value"], "value", [1, 10], (1, 50), "each of the four numbers"),
    p(
        "sudoku",
        &["min_empty", "max_empty"],
        "empty",
        [30, 50],
        (0, 64),
        "empty cells of the 9×9 grid (fewer when the puzzle would lose its unique solution)",
    ),
    p("tower_of_hanoi", &["min_disks", "max_disks"], "disks", [3, 7], (1, 10), "number of disks"),
    p("zebra_puzzles", &["num_people"], "people", [4, 4], (2, 6), "houses"),
    p("zebra_puzzles", &["num_characteristics"], "characteristics", [4, 4], (2, 6), "attributes per house"),
];

/// The generator parameters of one dataset: parameter name → inclusive range of values.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Overrides(Vec<(&'static str, i64, i64)>);

impl Overrides {
    /// No parameter set: every family generates its level's problems.
    pub const NONE: Overrides = Overrides(Vec::new());

    /// Whether no parameter is set.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The `(name, lo, hi)` ranges, in [`PARAMS`] order.
    pub fn ranges(&self) -> &[(&'static str, i64, i64)] {
        &self.0
    }

    /// The range of parameter `name`, when set.
    pub fn range(&self, name: &str) -> Option<(i64, i64)> {
        self.0.iter().find(|r| r.0 == name).map(|&(_, lo, hi)| (lo, hi))
    }

    /// One problem's value of `name`: uniform in its range, without a draw when the range is one
    /// value; `None` when the parameter is not set (the level's value applies).
    pub fn draw(&self, name: &str, rng: &mut Rng) -> Option<i64> {
        self.range(name).map(|(lo, hi)| if lo == hi { lo } else { rng.range(lo, hi) })
    }
}

/// The reasoning-gym keys of `alias` that set generator parameters, sorted.
pub fn keys(alias: &str) -> Vec<&'static str> {
    let mut out: Vec<&'static str> =
        PARAMS.iter().filter(|p| p.alias == alias).flat_map(|p| p.keys.iter().copied()).collect();
    out.sort_unstable();
    out
}

/// The generator parameters a reasoning-gym configuration of `alias` sets. Keys that set no
/// parameter are left out (they choose a level: [`crate::aliases::level_for`]). A parameter
/// applies when any of its keys is given; a missing `min_`/`max_` key takes reasoning-gym's
/// default. A value that is not a whole number, outside the generator's bounds, or a `min_`
/// above its `max_` is an error naming the key.
pub fn resolve(alias: &str, config: &[(&str, f64)]) -> Result<Overrides, String> {
    let mut out = Vec::new();
    for p in PARAMS.iter().filter(|p| p.alias == alias) {
        if !config.iter().any(|(k, _)| p.keys.contains(k)) {
            continue;
        }
        let mut ends = p.defaults;
        for (i, key) in p.keys.iter().enumerate() {
            let Some(&(_, v)) = config.iter().rev().find(|(k, _)| k == key) else { continue };
            let (lo, hi) = p.bounds;
            if v.fract() != 0.0 || !(lo as f64..=hi as f64).contains(&v) {
                return Err(format!("`{key}` must be a whole number in {lo}..={hi} for `{alias}`, got {v}"));
            }
            if p.keys.len() == 1 {
                ends = [v as i64; 2];
            } else {
                ends[i] = v as i64;
            }
        }
        if ends[0] > ends[1] {
            let (a, b) = (p.keys[0], p.keys[p.keys.len() - 1]);
            return Err(format!("`{a}` ({}) is above `{b}` ({}) for `{alias}`", ends[0], ends[1]));
        }
        if matches!(alias, "gcd" | "lcm") && p.name == "value" && ends[1] < 10 {
            return Err(format!(
                "`max_value` must be at least 10 for `{alias}` (the numbers share a factor ≥ 2)"
            ));
        }
        if alias == "base_conversion" && p.name == "base" && ends[0] == ends[1] {
            return Err("`min_base` and `max_base` must leave two distinct bases".into());
        }
        out.push((p.name, ends[0], ends[1]));
    }
    Ok(Overrides(out))
}

/// The instance of family `task` for `(seed, difficulty)` with parameters `o`: the level's
/// problem generator with `o`'s values in place of the level's (a family generates exactly its
/// level's problems when `o` is empty). An error for a family without settable parameters.
pub fn instance(task: &str, seed: u64, d: Difficulty, o: &Overrides) -> Result<Instance, String> {
    match task {
        "base_conversion" => Ok(make(&arithmetic::base_conversion::BaseConversion, seed, d, o)),
        "caesar" => Ok(make(&crypto::caesar::Caesar, seed, d, o)),
        "countdown" => Ok(make(&arithmetic::countdown::Countdown, seed, d, o)),
        "expression" => Ok(make(&arithmetic::expression::Expression, seed, d, o)),
        "game_of_24" => Ok(make(&arithmetic::game_of_24::GameOf24, seed, d, o)),
        "gcd_lcm" => Ok(make(&arithmetic::gcd_lcm::GcdLcm, seed, d, o)),
        "hanoi" => Ok(make(&sequential::hanoi::Hanoi, seed, d, o)),
        "knights_knaves" => Ok(make(&logic::knights_knaves::KnightsKnaves, seed, d, o)),
        "n_queens" => Ok(make(&grid::n_queens::NQueens, seed, d, o)),
        "prime_factorization" => Ok(make(&arithmetic::prime_factorization::PrimeFactorization, seed, d, o)),
        "sudoku" => Ok(make(&grid::sudoku::Sudoku, seed, d, o)),
        "zebra" => Ok(make(&logic::zebra::Zebra, seed, d, o)),
        _ => Err(format!("`{task}` has no generator parameters to set; it takes only `level`")),
    }
}

/// A family whose generator reads [`Overrides`]; its `Task::sample` is `sample_with` of
/// [`Overrides::NONE`].
pub(crate) trait Overridable: Task {
    /// Draw one problem at `d` with `o`'s parameters in place of the level's.
    fn sample_with(&self, rng: &mut Rng, d: Difficulty, o: &Overrides) -> Self::Problem;
}

fn make<T: Overridable>(task: &T, seed: u64, d: Difficulty, o: &Overrides) -> Instance {
    let name = task.spec().name;
    let mut rng = Rng::for_instance(name, seed, d.level());
    let problem = task.sample_with(&mut rng, d, o);
    Instance {
        task: name.to_string(),
        seed,
        level: d.level(),
        prompt: task.prompt(&problem),
        problem: serde_json::to_value(&problem).expect("problems serialize to JSON"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aliases::ALIASES;

    fn o(alias: &str, config: &[(&str, f64)]) -> Overrides {
        resolve(alias, config).unwrap()
    }

    #[test]
    fn every_param_belongs_to_an_alias_of_a_family_that_reads_it() {
        for p in PARAMS {
            let alias = ALIASES.iter().find(|a| a.name == p.alias).expect(p.alias);
            let d = Difficulty::new(alias.level).unwrap();
            assert!(instance(alias.family, 0, d, &Overrides::NONE).is_ok(), "{}", p.alias);
            assert!(matches!(p.keys.len(), 1 | 2) && p.bounds.0 <= p.bounds.1, "{}", p.alias);
            let [lo, hi] = p.defaults;
            assert!(p.bounds.0 <= lo && lo <= hi && hi <= p.bounds.1, "{}: defaults in bounds", p.alias);
        }
    }

    #[test]
    fn without_overrides_every_family_generates_its_levels_problems() {
        for p in PARAMS {
            let family = ALIASES.iter().find(|a| a.name == p.alias).unwrap().family;
            let task = crate::get(family).unwrap();
            for d in Difficulty::all() {
                for seed in 0..5 {
                    let want = task.instance(seed, d);
                    assert_eq!(
                        instance(family, seed, d, &Overrides::NONE).unwrap(),
                        want,
                        "{family} L{d:?} {seed}"
                    );
                }
            }
        }
    }

    #[test]
    fn resolve_fills_defaults_and_checks_values() {
        assert_eq!(o("sudoku", &[("min_empty", 40.0)]).ranges(), &[("empty", 40, 50)]);
        assert_eq!(o("sudoku", &[("max_empty", 35.0)]).ranges(), &[("empty", 30, 35)]);
        assert_eq!(o("n_queens", &[("n", 10.0)]).ranges(), &[("n", 10, 10)]);
        assert!(o("sudoku", &[("difficulty", 3.0)]).is_empty(), "keys that set nothing are left out");
        assert!(resolve("sudoku", &[("min_empty", 60.0), ("max_empty", 40.0)])
            .unwrap_err()
            .contains("above"));
        assert!(resolve("sudoku", &[("min_empty", 70.0)]).unwrap_err().contains("0..=64"));
        assert!(resolve("sudoku", &[("min_empty", 40.5)]).unwrap_err().contains("whole number"));
        assert!(resolve("base_conversion", &[("min_base", 8.0), ("max_base", 8.0)]).is_err());
        assert!(resolve("gcd", &[("max_value", 5.0)]).unwrap_err().contains("at least 10"));
        assert_eq!(
            keys("countdown"),
            ["max_numbers", "max_target", "max_value", "min_numbers", "min_target", "min_value"]
        );
    }

    /// Generate `seeds` problems of `alias` with `config` at its default level; each must be
    /// solved by the oracle; returns the problems.
    fn problems(alias: &str, config: &[(&str, f64)], seeds: u64) -> Vec<serde_json::Value> {
        let a = ALIASES.iter().find(|a| a.name == alias).unwrap();
        let task = crate::get(a.family).unwrap();
        let d = Difficulty::new(a.level).unwrap();
        let o = o(alias, config);
        (0..seeds)
            .map(|seed| {
                let inst = instance(a.family, seed, d, &o).unwrap();
                let response = task.oracle_response_of(&inst.problem).unwrap();
                let score = task.score_of(&inst.problem, &response).unwrap();
                assert!(score.correct, "{alias} {config:?} seed {seed}: {}", score.reason);
                assert_eq!(task.prompt_of(&inst.problem).unwrap(), inst.prompt);
                inst.problem
            })
            .collect()
    }

    fn int(v: &serde_json::Value) -> i64 {
        v.as_i64().unwrap_or_else(|| v.as_u64().unwrap() as i64)
    }

    #[test]
    fn each_parameter_reaches_the_generator_and_the_oracle_still_solves() {
        for p in problems("sudoku", &[("min_empty", 40.0), ("max_empty", 44.0)], 12) {
            let empty = p["puzzle"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|r| r.as_array().unwrap())
                .filter(|v| int(v) == 0);
            assert!((40..=44).contains(&empty.count()));
        }
        for p in problems("mini_sudoku", &[("min_empty", 6.0), ("max_empty", 6.0)], 12) {
            let empty = p["puzzle"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|r| r.as_array().unwrap())
                .filter(|v| int(v) == 0);
            assert!(empty.count() <= 6, "at most: the digging stops at a minimal puzzle");
        }
        for p in problems(
            "countdown",
            &[
                ("min_numbers", 3.0),
                ("max_numbers", 3.0),
                ("min_value", 1.0),
                ("max_value", 20.0),
                ("min_target", 30.0),
                ("max_target", 60.0),
            ],
            12,
        ) {
            let nums = p["numbers"].as_array().unwrap();
            assert_eq!(nums.len(), 3);
            assert!(nums.iter().all(|v| (1..=20).contains(&int(v))));
            assert!((30..=60).contains(&int(&p["target"])));
        }
        for alias in ["chain_sum", "basic_arithmetic"] {
            for p in problems(
                alias,
                &[("min_terms", 7.0), ("max_terms", 7.0), ("min_digits", 3.0), ("max_digits", 3.0)],
                12,
            ) {
                let text = p["expression"].as_str().unwrap();
                let numbers: Vec<&str> =
                    text.split(|c: char| !c.is_ascii_digit()).filter(|t| !t.is_empty()).collect();
                // Seven operands of three digits, but for the level's exact divisors (`/ 3`).
                let three = numbers.iter().filter(|n| n.len() == 3).count();
                assert!(numbers.len() == 7 && three + text.matches('/').count() >= 7, "{text}");
            }
        }
        for alias in ["gcd", "lcm"] {
            for p in problems(
                alias,
                &[("min_numbers", 3.0), ("max_numbers", 3.0), ("min_value", 100.0), ("max_value", 500.0)],
                12,
            ) {
                let nums = p["numbers"].as_array().unwrap();
                assert_eq!(nums.len(), 3);
                assert!(nums.iter().all(|v| (100..=500).contains(&int(v))), "{nums:?}");
            }
        }
        for p in
            problems("prime_factorization", &[("min_value", 1_000_000.0), ("max_value", 2_000_000.0)], 12)
        {
            assert!((1_000_000..=2_000_000).contains(&int(&p["n"])));
        }
        for p in problems(
            "base_conversion",
            &[("min_base", 3.0), ("max_base", 5.0), ("min_value", 7.0), ("max_value", 9.0)],
            12,
        ) {
            let (from, to) = (int(&p["from"]), int(&p["to"]));
            assert!(from != to && (3..=5).contains(&from) && (3..=5).contains(&to));
            assert!((7..=9).contains(&int(&p["value"])));
        }
        for p in problems("tower_of_hanoi", &[("min_disks", 8.0), ("max_disks", 8.0)], 4) {
            assert_eq!(p["start"].as_array().unwrap().len(), 8);
        }
        for p in problems("n_queens", &[("n", 12.0), ("min_remove", 2.0), ("max_remove", 2.0)], 12) {
            assert_eq!(int(&p["n"]), 12);
            assert_eq!(p["fixed"].as_array().unwrap().len(), 10);
        }
        for p in problems("puzzle24", &[("min_value", 2.0), ("max_value", 6.0)], 12) {
            assert!(p["numbers"].as_array().unwrap().iter().all(|v| (2..=6).contains(&int(v))));
        }
        for p in problems("zebra_puzzles", &[("num_people", 5.0), ("num_characteristics", 3.0)], 6) {
            assert_eq!(int(&p["houses"]), 5);
            assert_eq!(p["attributes"].as_array().unwrap().len(), 3);
        }
        for p in problems("knights_knaves", &[("n_people", 5.0)], 12) {
            assert_eq!(p["names"].as_array().unwrap().len(), 5);
        }
        for p in problems(
            "caesar_cipher",
            &[("min_words", 6.0), ("max_words", 6.0), ("min_rotation", 13.0), ("max_rotation", 13.0)],
            12,
        ) {
            assert_eq!(p["ciphertext"].as_str().unwrap().split(' ').count(), 6);
            assert_eq!(int(&p["shift"]), 13);
        }
    }

    #[test]
    fn setting_a_parameter_to_the_levels_own_value_gives_the_levels_problems() {
        // (alias, level, config equal to what the level uses)
        type Config = &'static [(&'static str, f64)];
        let same: &[(&str, u8, Config)] = &[
            ("sudoku", 4, &[("min_empty", 45.0), ("max_empty", 45.0)]),
            ("countdown", 4, &[("min_numbers", 6.0), ("max_numbers", 6.0)]),
            ("chain_sum", 1, &[("min_terms", 3.0), ("max_terms", 3.0)]),
            ("tower_of_hanoi", 2, &[("min_disks", 4.0), ("max_disks", 4.0)]),
            ("zebra_puzzles", 3, &[("num_people", 4.0), ("num_characteristics", 4.0)]),
            ("knights_knaves", 1, &[("n_people", 2.0)]),
            ("puzzle24", 1, &[("min_value", 1.0), ("max_value", 9.0)]),
        ];
        for &(alias, level, config) in same {
            let family = ALIASES.iter().find(|a| a.name == alias).unwrap().family;
            let task = crate::get(family).unwrap();
            let d = Difficulty::new(level).unwrap();
            let o = o(alias, config);
            assert!(!o.is_empty());
            for seed in 0..8 {
                assert_eq!(instance(family, seed, d, &o).unwrap(), task.instance(seed, d), "{alias} {seed}");
            }
        }
    }
}
