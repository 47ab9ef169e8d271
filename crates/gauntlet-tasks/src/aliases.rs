//! reasoning-gym's family names, mapped to gauntlet's families.
//!
//! Every reasoning-gym (0.1.25) family that has a gauntlet counterpart is listed in [`ALIASES`]:
//! its name, the gauntlet family that serves it, the level closest to reasoning-gym's default
//! configuration, what differs, and the reasoning-gym configuration keys that choose a level
//! ([`Knob`]). Names the two projects share (`sudoku`, `maze`, …) are listed too, since their
//! default level and their keys still need a mapping. [`get`](crate::get) accepts every name
//! here; [`level_for`] turns a reasoning-gym configuration into a level.
//!
//! Each row was written by reading both generators. gauntlet's generators have five levels; a
//! key that [`crate::overrides`] lists sets its generator parameter directly (`min_empty`), and
//! any other key picks the level whose parameter is nearest its value.

use crate::common::edit_distance;

/// One reasoning-gym configuration axis and the value it has at each gauntlet level.
#[derive(Debug, Clone, Copy)]
pub struct Knob {
    /// reasoning-gym keys that set this axis (`min_empty`, `max_empty`); several given are
    /// averaged, so `min_x`/`max_x` act through their midpoint.
    pub keys: &'static [&'static str],
    /// The axis's value at levels 1..=5; `NaN` where the level is out of the alias's range (a
    /// 9×9 `sudoku` never maps to the 4×4 levels).
    pub per_level: [f64; 5],
}

/// A reasoning-gym family name and the gauntlet family that serves it.
#[derive(Debug, Clone, Copy)]
pub struct Alias {
    /// reasoning-gym's name (`zebra_puzzles`).
    pub name: &'static str,
    /// The gauntlet family (`zebra`).
    pub family: &'static str,
    /// The level nearest reasoning-gym's default configuration (used when no level is given).
    pub level: u8,
    /// What differs from reasoning-gym's family, in a few words.
    pub differs: &'static str,
    /// reasoning-gym configuration keys that choose the level.
    pub knobs: &'static [Knob],
}

const N: f64 = f64::NAN;

const fn k(keys: &'static [&'static str], per_level: [f64; 5]) -> Knob {
    Knob { keys, per_level }
}

const fn a(
    name: &'static str,
    family: &'static str,
    level: u8,
    differs: &'static str,
    knobs: &'static [Knob],
) -> Alias {
    Alias { name, family, level, differs, knobs }
}

/// Every reasoning-gym 0.1.25 family name with a gauntlet counterpart, sorted by name.
pub const ALIASES: &[Alias] = &[
    a(
        "ab",
        "term_rewriting",
        3,
        "A::B token rewriting is one fixed rule set; gauntlet draws the ordered rules",
        &[],
    ),
    a(
        "arc_1d",
        "arc_1d",
        1,
        "gauntlet proves the output unique; reasoning-gym samples its own task list",
        &[],
    ),
    a("arc_agi", "arc_1d", 3, "2-D ARC grids in reasoning-gym; gauntlet's ARC tasks are 1-D rows", &[]),
    a(
        "base_conversion",
        "base_conversion",
        3,
        "same task; gauntlet's levels fix the bases and the value range",
        &[k(&["min_value", "max_value"], [64.0, 1024.0, 1e4, 1e6, 1e12])],
    ),
    a(
        "basic_arithmetic",
        "expression",
        4,
        "integer expression; gauntlet keeps every division exact",
        &[k(&["min_terms", "max_terms"], [3.0, 4.0, 5.0, 6.0, 8.0])],
    ),
    a(
        "bf",
        "brainfuck",
        2,
        "predict a Brainfuck program's output; gauntlet's programs print letters",
        &[k(&["difficulty"], [1.0, 1.5, 2.0, 2.5, 3.0])],
    ),
    a(
        "bitwise_arithmetic",
        "bitwise_arithmetic",
        2,
        "fixed-width unsigned operands (4-32 bits) instead of arbitrary Python integers",
        &[k(&["difficulty"], [1.0, 2.0, 3.0, 4.0, 5.0])],
    ),
    a(
        "caesar_cipher",
        "caesar",
        4,
        "gauntlet's messages are common English words; the shift is shown at levels 1-2",
        &[k(&["min_words", "max_words"], [3.0, 5.0, 5.0, 8.0, 12.0])],
    ),
    a(
        "calendar_arithmetic",
        "calendar_arithmetic",
        2,
        "gauntlet's levels fix the question kind (weekday, date offset, days between)",
        &[],
    ),
    a(
        "chain_sum",
        "expression",
        1,
        "+ and - of small integers at level 1; higher levels add * and /",
        &[k(&["min_terms", "max_terms"], [3.0, 4.0, 5.0, 6.0, 8.0])],
    ),
    a(
        "circuit_logic",
        "circuit_logic",
        1,
        "a netlist of gates with several outputs instead of one Boolean formula",
        &[k(&["min_inputs", "max_inputs"], [3.0, 4.0, 5.0, 6.0, 8.0])],
    ),
    a(
        "codeio",
        "code_execution",
        3,
        "generated Python programs, output prediction only (no input prediction, no dataset download)",
        &[],
    ),
    a(
        "complex_arithmetic",
        "complex_arithmetic",
        2,
        "exact answers (fractions) instead of rounded decimals",
        &[],
    ),
    a(
        "count_primes",
        "count_primes",
        3,
        "primes in a window [start, start+width] rather than up to n",
        &[k(&["max_n"], [70.0, 550.0, 1e5, 1e8, 1e12])],
    ),
    a(
        "countdown",
        "countdown",
        4,
        "same task; any expression reaching the target scores 1",
        &[
            k(&["min_numbers", "max_numbers"], [3.0, 4.0, 5.0, 6.0, 6.0]),
            k(&["min_target", "max_target"], [55.0, 110.0, 300.0, 550.0, 550.0]),
        ],
    ),
    a(
        "course_schedule",
        "topological_order",
        2,
        "gauntlet asks for a valid order (always exists); reasoning-gym asks whether one exists",
        &[k(&["min_num_courses", "max_num_courses"], [5.0, 8.0, 12.0, 18.0, 30.0])],
    ),
    a(
        "cryptarithm",
        "cryptarithm",
        2,
        "same task; answer is every letter's digit",
        &[k(&["min_words", "max_words"], [2.0, 2.0, 2.0, 3.0, 4.0])],
    ),
    a(
        "decimal_arithmetic",
        "decimal_arithmetic",
        4,
        "exact decimal answers, no precision setting",
        &[
            k(&["min_terms", "max_terms"], [2.0, 3.0, 3.0, 4.0, 6.0]),
            k(&["min_num_decimal_places", "max_num_decimal_places"], [1.0, 2.0, 1.5, 1.5, 2.0]),
        ],
    ),
    a(
        "decimal_chain_sum",
        "decimal_arithmetic",
        2,
        "+ and - of decimals at levels 1-2; higher levels add * and /",
        &[k(&["min_terms", "max_terms"], [2.0, 3.0, 3.0, 4.0, 6.0])],
    ),
    a(
        "dice",
        "dice_probability",
        4,
        "exact probability of a sum condition on up to 7 dice of d4-d12",
        &[k(&["num_dice"], [2.0, 2.0, 3.0, 4.5, 6.5]), k(&["max_dice_size"], [6.0, 8.0, 12.0, 12.0, 12.0])],
    ),
    a(
        "family_relationships",
        "kinship",
        2,
        "generated family trees with cousins and in-laws; several questions per problem",
        &[],
    ),
    a(
        "fraction_simplification",
        "fraction_arithmetic",
        1,
        "evaluates a fraction expression to lowest terms instead of simplifying one fraction",
        &[],
    ),
    a(
        "futoshiki",
        "futoshiki",
        3,
        "Latin square with inequalities, unique solution; board size set by the level (4-7)",
        &[],
    ),
    a(
        "game_of_life",
        "game_of_life",
        3,
        "bounded board, k generations; the level sets board and steps together",
        &[
            k(&["simulation_steps"], [1.0, 1.0, 2.0, 3.0, 4.0]),
            k(&["grid_size_x", "grid_size_y"], [5.0, 6.0, 7.0, 8.0, 10.0]),
        ],
    ),
    a(
        "game_of_life_halting",
        "game_of_life",
        3,
        "gauntlet asks for the board after k generations, not whether the board dies out",
        &[k(&["grid_size_x", "grid_size_y"], [5.0, 6.0, 7.0, 8.0, 10.0])],
    ),
    a(
        "gcd",
        "gcd_lcm",
        2,
        "gauntlet asks for both: answer `gcd=…, lcm=…`",
        &[
            k(&["min_numbers", "max_numbers"], [2.0, 2.0, 3.0, 3.0, 4.0]),
            k(&["max_value"], [99.0, 999.0, 9999.0, 999_999.0, 999_999_999.0]),
        ],
    ),
    a(
        "graph_color",
        "graph_coloring",
        2,
        "same task; edge count fixed by the level instead of an edge probability",
        &[
            k(&["min_num_vertices", "max_num_vertices"], [6.0, 9.0, 12.0, 16.0, 22.0]),
            k(&["num_colors"], [3.0, 3.0, 3.0, 4.0, 4.0]),
        ],
    ),
    a(
        "intermediate_integration",
        "integration",
        4,
        "any antiderivative, checked by differentiating; by-parts terms at level 4",
        &[],
    ),
    a(
        "jugs",
        "water_jugs",
        4,
        "a move list within a budget; any valid list scores 1",
        &[k(&["num_jugs"], [2.0, 2.0, 3.0, 3.0, 3.0]), k(&["difficulty"], [3.0, 5.0, 5.0, 7.0, 9.0])],
    ),
    a(
        "kakurasu",
        "kakurasu",
        2,
        "square boards only (4x4-8x8)",
        &[k(&["min_rows", "max_rows", "min_cols", "max_cols"], [4.0, 5.0, 6.0, 7.0, 8.0])],
    ),
    a(
        "knights_knaves",
        "knights_knaves",
        1,
        "more statement kinds at higher levels; unique solution",
        &[k(&["n_people"], [2.0, 3.0, 4.0, 5.0, 6.0])],
    ),
    a(
        "lcm",
        "gcd_lcm",
        1,
        "gauntlet asks for both: answer `gcd=…, lcm=…`",
        &[
            k(&["min_numbers", "max_numbers"], [2.0, 2.0, 3.0, 3.0, 4.0]),
            k(&["max_value"], [99.0, 999.0, 9999.0, 999_999.0, 999_999_999.0]),
        ],
    ),
    a(
        "list_functions",
        "list_functions",
        1,
        "generated list programs (one or two primitives) with a proved-unique output",
        &[],
    ),
    a(
        "maze",
        "maze",
        2,
        "answer is the path as moves (any path at levels 1-2, shortest at 3-5), not its length",
        &[],
    ),
    a(
        "mini_sudoku",
        "sudoku",
        2,
        "4x4 sudoku is gauntlet's sudoku at levels 1-2",
        &[k(&["min_empty", "max_empty"], [8.0, 11.5, N, N, N])],
    ),
    a(
        "n_queens",
        "n_queens",
        2,
        "N set by the level (5-14) around pre-placed queens; any completion scores 1",
        &[k(&["n"], [5.5, 7.5, 8.5, 10.5, 13.0])],
    ),
    a(
        "number_sequence",
        "number_sequence",
        2,
        "rule from a stated catalogue, continuation proved unique",
        &[],
    ),
    a("path_star", "shortest_path", 1, "a weighted graph instead of a star graph", &[]),
    a(
        "polynomial_equations",
        "polynomial_roots",
        2,
        "every distinct real root, exact (fractions), instead of decimals",
        &[k(&["min_degree", "max_degree"], [2.0, 3.0, 3.0, 4.0, 5.5])],
    ),
    a(
        "polynomial_multiplication",
        "polynomial_multiplication",
        3,
        "one variable, integer coefficients",
        &[k(&["min_polynomials", "max_polynomials"], [2.0, 2.0, 2.0, 3.0, 4.0])],
    ),
    a(
        "power_function",
        "power_roots",
        2,
        "exact integer powers and roots instead of rounded real powers",
        &[],
    ),
    a(
        "prime_factorization",
        "prime_factorization",
        2,
        "same task; the level sets the size of the number",
        &[k(&["min_value", "max_value"], [100.0, 2000.0, 1e6, 1e10, 1e16])],
    ),
    a("products", "expression", 2, "products appear inside + - * expressions rather than alone", &[]),
    a(
        "propositional_logic",
        "propositional_logic",
        2,
        "asks for the strongest consequence over kept variables (any equivalent formula)",
        &[k(&["min_vars", "max_vars"], [3.0, 4.0, 5.0, 6.0, 7.0])],
    ),
    a(
        "puzzle24",
        "game_of_24",
        1,
        "same task (levels 1-2 keep the target 24)",
        &[k(&["max_value"], [9.0, 13.0, N, N, N])],
    ),
    a("rearc", "arc_1d", 3, "2-D re-ARC grids in reasoning-gym; gauntlet's ARC tasks are 1-D rows", &[]),
    a(
        "rubiks_cube",
        "rubiks_2x2",
        2,
        "a 2x2x2 cube, not 3x3x3; a move list within a limit at levels 3-5",
        &[k(&["min_scramble_steps", "max_scramble_steps"], [3.0, 5.0, 8.0, 12.0, 30.0])],
    ),
    a(
        "rush_hour",
        "rush_hour",
        4,
        "a move list within a budget; 5x5 boards at levels 1-3",
        &[k(&["min_moves", "max_moves"], [2.0, 4.0, 6.0, 10.0, 12.0])],
    ),
    a(
        "self_reference",
        "self_reference",
        3,
        "asks for one consistent truth assignment, not the number of them",
        &[],
    ),
    a("shortest_path", "shortest_path", 2, "a weighted graph instead of a grid with blocked cells", &[]),
    a("simple_equations", "linear_equation", 2, "integer solution; 2x2 and 3x3 systems at levels 4-5", &[]),
    a("simple_integration", "integration", 1, "any antiderivative, checked by differentiating it", &[]),
    a(
        "sokoban",
        "sokoban",
        5,
        "smaller rooms (5x5-8x8, 1-3 boxes); any solving move list scores 1",
        &[k(&["min_boxes", "max_boxes"], [1.0, 1.0, 2.0, 3.0, 3.0])],
    ),
    a(
        "string_insertion",
        "term_rewriting",
        2,
        "ordered rewrite rules applied to a normal form instead of one insertion pass",
        &[],
    ),
    a(
        "string_manipulation",
        "term_rewriting",
        3,
        "same idea: ordered rules applied until none applies",
        &[k(&["min_num_rules", "max_num_rules"], [2.0, 3.0, 4.0, 5.0, 6.0])],
    ),
    a(
        "sudoku",
        "sudoku",
        4,
        "9x9 is levels 3-5 (levels 1-2 are 4x4); exactly one solution",
        &[k(&["min_empty", "max_empty"], [N, N, 36.0, 45.0, 53.0])],
    ),
    a("syllogism", "syllogism", 1, "several arguments per problem, validity computed from all models", &[]),
    a(
        "time_intervals",
        "time_intervals",
        3,
        "the level fixes the question kind (minutes, clock times, date-times)",
        &[],
    ),
    a(
        "tower_of_hanoi",
        "hanoi",
        2,
        "3 pegs; random start and target configurations at levels 3-5; any move list within the budget",
        &[k(&["min_disks", "max_disks"], [3.0, 4.0, 5.0, 6.0, 7.0])],
    ),
    a("word_ladder", "word_ladder", 3, "four-letter words through a given word list; a shortest ladder", &[]),
    a(
        "zebra_puzzles",
        "zebra",
        3,
        "answer assigns every attribute value to a house, not one question",
        &[
            k(&["num_people"], [3.0, 4.0, 4.0, 5.0, 6.0]),
            k(&["num_characteristics"], [3.0, 3.0, 4.0, 5.0, 5.0]),
        ],
    ),
];

/// Problem fields that reasoning-gym's entries name differently: `(alias, gauntlet field,
/// reasoning-gym's metadata key)`. An entry of the alias carries the field under both names
/// (the value in gauntlet's format). Fields not listed already share reasoning-gym's name where
/// both have one (`numbers`, `target`, `puzzle`, `solution`, `expression`, `n`).
pub const FIELDS: &[(&str, &str, &str)] = &[
    ("bf", "program", "bf_program"),
    ("caesar_cipher", "ciphertext", "cipher_text"),
    ("caesar_cipher", "shift", "rotation"),
    ("word_ladder", "end", "end_word"),
    ("word_ladder", "start", "start_word"),
];

/// Fold a name as lookups do: trimmed, lowercase, `-` as `_`.
pub fn fold(name: &str) -> String {
    name.trim().to_ascii_lowercase().replace('-', "_")
}

/// The alias row of reasoning-gym name `name` (folded as [`fold`] does).
pub fn alias(name: &str) -> Option<&'static Alias> {
    let want = fold(name);
    ALIASES.iter().find(|a| a.name == want)
}

/// The reasoning-gym keys `alias` accepts, sorted.
pub fn accepted_keys(alias: &Alias) -> Vec<&'static str> {
    let mut keys: Vec<&'static str> = alias.knobs.iter().flat_map(|k| k.keys.iter().copied()).collect();
    keys.extend(crate::overrides::keys(alias.name));
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// The level a reasoning-gym configuration of `alias` maps to: each axis given picks the level
/// whose value is nearest (keys of one axis averaged; the lower level on a tie), and the
/// hardest axis wins. `None` when no key is given. Keys that set a generator parameter
/// ([`crate::overrides`]) choose no level. A key the alias does not accept, or a value that is
/// not a finite number, is an error naming the accepted keys.
pub fn level_for(alias: &Alias, config: &[(&str, f64)]) -> Result<Option<u8>, String> {
    let sets = crate::overrides::keys(alias.name);
    for (key, value) in config {
        if !alias.knobs.iter().any(|k| k.keys.contains(key)) && !sets.contains(key) {
            let keys = accepted_keys(alias);
            let accepted = if keys.is_empty() {
                "none (only `level=1..5`)".to_string()
            } else {
                keys.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
            };
            return Err(format!(
                "`{}` does not take the option `{key}`; its options: {accepted}",
                alias.name
            ));
        }
        if !value.is_finite() {
            return Err(format!("option `{key}` must be a finite number, got {value}"));
        }
    }
    let mut level = None;
    for knob in alias.knobs {
        let given: Vec<f64> = config
            .iter()
            .filter(|(key, _)| knob.keys.contains(key) && !sets.contains(key))
            .map(|(_, v)| *v)
            .collect();
        if given.is_empty() {
            continue;
        }
        let want = given.iter().sum::<f64>() / given.len() as f64;
        let best = (1..=5u8).filter(|&l| knob.per_level[usize::from(l) - 1].is_finite()).min_by(|&x, &y| {
            let dx = (knob.per_level[usize::from(x) - 1] - want).abs();
            let dy = (knob.per_level[usize::from(y) - 1] - want).abs();
            dx.total_cmp(&dy).then(x.cmp(&y))
        });
        level = level.max(best);
    }
    Ok(level)
}

/// Up to `n` known names (families and reasoning-gym aliases) closest to `name`: names that
/// start with it or that it starts with first, then names containing it or contained in it,
/// then the rest; within each group by edit distance (an adjacent swap
/// counts as one edit). An alias is given as its own name; its family follows it.
pub fn closest(name: &str, families: &[&'static str], n: usize) -> Vec<String> {
    let want = fold(name);
    let tier = |cand: &str| -> u8 {
        if !want.is_empty() && (cand.starts_with(&want) || want.starts_with(cand)) {
            0
        } else if want.len() >= 3 && (cand.contains(&want) || want.contains(cand)) {
            1
        } else {
            2
        }
    };
    let mut scored: Vec<(u8, usize, &'static str)> = families
        .iter()
        .copied()
        .chain(ALIASES.iter().filter(|a| a.name != a.family).map(|a| a.name))
        .map(|c| (tier(c), swap_distance(&want, c), c))
        .collect();
    scored.sort();
    let mut out: Vec<String> = Vec::new();
    for (_, _, c) in scored {
        if out.len() == n {
            break;
        }
        if !out.iter().any(|o| o == c) {
            out.push(c.to_string());
        }
    }
    out
}

/// Edit distance with an adjacent transposition counting as one edit (optimal string alignment).
fn swap_distance(a: &str, b: &str) -> usize {
    let (x, y): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if x.len() < 2 || y.len() < 2 {
        return edit_distance(a, b);
    }
    let mut d = vec![vec![0usize; y.len() + 1]; x.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for j in 0..=y.len() {
        d[0][j] = j;
    }
    for i in 1..=x.len() {
        for j in 1..=y.len() {
            let cost = usize::from(x[i - 1] != y[j - 1]);
            let mut v = (d[i - 1][j - 1] + cost).min(d[i - 1][j] + 1).min(d[i][j - 1] + 1);
            if i > 1 && j > 1 && x[i - 1] == y[j - 2] && x[i - 2] == y[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[x.len()][y.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_alias_names_a_family_and_a_valid_level() {
        assert!(ALIASES.len() >= 60, "{} aliases", ALIASES.len());
        for a in ALIASES {
            assert!(
                crate::registry().iter().any(|t| t.spec().name == a.family),
                "{} -> {}",
                a.name,
                a.family
            );
            assert!((1..=5).contains(&a.level), "{}", a.name);
            assert_eq!(fold(a.name), a.name);
            for k in a.knobs {
                assert!(k.per_level.iter().any(|v| v.is_finite()), "{}", a.name);
            }
        }
        for (name, _, _) in FIELDS {
            assert!(alias(name).is_some(), "{name}");
        }
        let mut names: Vec<_> = ALIASES.iter().map(|a| a.name).collect();
        let sorted = names.clone();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names, sorted, "ALIASES is sorted by name, without repeats");
    }

    #[test]
    fn config_keys_choose_the_nearest_level() {
        let rubiks = alias("rubiks_cube").unwrap();
        assert_eq!(level_for(rubiks, &[]), Ok(None));
        assert_eq!(level_for(rubiks, &[("max_scramble_steps", 30.0)]), Ok(Some(5)));
        assert_eq!(
            level_for(rubiks, &[("min_scramble_steps", 4.0), ("max_scramble_steps", 6.0)]),
            Ok(Some(2))
        );
        let courses = alias("course_schedule").unwrap();
        assert_eq!(level_for(courses, &[("min_num_courses", 12.0)]), Ok(Some(3)));
        let dice = alias("dice").unwrap();
        assert_eq!(
            level_for(dice, &[("num_dice", 2.0), ("max_dice_size", 12.0)]),
            Ok(Some(3)),
            "the hardest wins"
        );
        // Keys that set a generator parameter (crate::overrides) are accepted but choose no level.
        let sudoku = alias("sudoku").unwrap();
        assert_eq!(level_for(sudoku, &[("min_empty", 30.0)]), Ok(None));
        let e = level_for(sudoku, &[("difficulty", 3.0)]).unwrap_err();
        assert!(e.contains("`max_empty`, `min_empty`"), "{e}");
        let zebra = alias("Zebra-Puzzles").unwrap();
        assert_eq!(level_for(zebra, &[("num_people", 5.0), ("num_characteristics", 3.0)]), Ok(None));
        assert!(level_for(zebra, &[("num_people", f64::NAN)]).is_err());
    }

    #[test]
    fn suggestions_rank_prefixes_and_words_before_edit_distance() {
        let fams: Vec<&'static str> = crate::registry().iter().map(|t| t.spec().name).collect();
        assert_eq!(closest("zebra_puzzle", &fams, 3)[0], "zebra_puzzles");
        assert!(closest("zebra_puzzle", &fams, 3).contains(&"zebra".to_string()));
        assert_eq!(closest("towers_of_hanoi", &fams, 2), vec!["hanoi", "tower_of_hanoi"]);
        assert_eq!(closest("puzzle_24", &fams, 3)[0], "puzzle24");
        assert_eq!(closest("brainf", &fams, 3)[0], "brainfuck");
        assert_eq!(closest("sudokuu", &fams, 3)[0], "sudoku");
        assert_eq!(closest("gpro", &["grpo", "gpg"], 1), vec!["grpo"]);
    }
}
