//! Evaluation suites: their shape, their pinned problems, a run with the scripted policies, the
//! scorecard and the paired comparison (`gauntlet_train::suites`, `gauntlet_train::scorecard`).

use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;

use gauntlet_rollout::{OraclePolicy, Policy, RandomPolicy, RolloutOptions};
use gauntlet_train::eval::{wilson_interval, ItemResult};
use gauntlet_train::scorecard;
use gauntlet_train::suites::{self, Entry, ItemKind, RunEvent, RunInfo, Suite, SuiteResults, WallLine};

/// The prompts hash of every shipped suite version (`Suite::prompts_hash`): the suite's
/// definition and the first observation of every one of its problems.
///
/// A mismatch means a suite's problems changed: a generator, a prompt, an environment's opening
/// observation, or the registry (a family, world or game added or removed). Results of the old
/// problems are then no longer comparable with new ones, so the suite needs a new version: bump
/// `VERSION` in the suite's function in `crates/gauntlet-train/src/suites.rs` (and give it a
/// fresh `STREAM` if its problems should not overlap the old ones), then pin the hash the failure
/// prints here.
const PINNED: [(&str, &str); 4] = [
    ("quick@3", "fnv1a64:cc97ff3ec229b00a"),
    ("core@3", "fnv1a64:9d89d797a6b4178d"),
    ("games@1", "fnv1a64:c9c7811c82628746"),
    ("hard@3", "fnv1a64:4d27619cf506d134"),
];

#[test]
fn every_suite_prompt_is_pinned() {
    let pinned: BTreeMap<&str, &str> = PINNED.into_iter().collect();
    let mut changed = Vec::new();
    for suite in suites::all() {
        let id = suite.id();
        let hash = suite.prompts_hash().unwrap();
        match pinned.get(id.as_str()) {
            Some(&want) if want == hash => {}
            Some(&want) => changed.push(format!(
                "suite `{id}`: its problems changed (prompts hash {hash}, pinned {want}). A generator, a \
                 prompt, an opening observation or the registry changed, so results of `{id}` no longer \
                 compare with earlier ones: bump the version of `{}` in crates/gauntlet-train/src/suites.rs \
                 and pin its new hash in PINNED (crates/gauntlet-train/tests/suites.rs)",
                suite.name
            )),
            None => {
                changed.push(format!("suite `{id}` has no pinned hash: add (\"{id}\", \"{hash}\") to PINNED"))
            }
        }
    }
    assert!(changed.is_empty(), "\n{}\n", changed.join("\n"));
}

#[test]
fn shipped_suites_cover_the_registries_as_documented() {
    let cat = suites::catalogue();
    let of = |k: ItemKind| cat.iter().filter(move |c| c.kind == k);
    let all = suites::all();
    assert_eq!(all.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), suites::SUITES);
    let mut bases = HashSet::new();
    for s in &all {
        s.check().unwrap();
        assert_eq!(suites::get(&s.id()).unwrap(), *s);
        assert!(s.version >= 1 && s.opponent == "oracle" && !s.description.is_empty());
        for e in &s.entries {
            assert!(e.seed_base >= suites::SUITE_SEED_BASE, "{}: {}", s.id(), e.label());
            assert!(e.seed(e.n) < suites::SUITE_SEED_BASE * 2);
        }
        // One seed stream per suite: no two suites share problems.
        let streams: HashSet<u64> = s.entries.iter().map(|e| e.seed_base).collect();
        assert_eq!(streams.len(), 1, "{}", s.id());
        assert!(bases.insert(*streams.iter().next().unwrap()), "{} reuses a stream", s.id());
    }
    let levels = |s: &Suite, item: &str| -> Vec<u8> {
        s.entries.iter().filter(|e| e.item == item).map(|e| e.level).collect()
    };
    let [quick, core, games, hard] = [&all[0], &all[1], &all[2], &all[3]];
    assert_eq!(quick.entries.len(), cat.len());
    assert!(quick.entries.iter().all(|e| e.level == 1 && (4..=8).contains(&e.n)));
    for c in of(ItemKind::Family) {
        assert_eq!(levels(core, &c.name), [1, 3, 5], "{}", c.name);
        assert_eq!(levels(hard, &c.name), [5]);
    }
    for c in of(ItemKind::World) {
        assert_eq!(levels(core, &c.name), [1, 3], "{}", c.name);
        assert_eq!(levels(hard, &c.name), [5]);
    }
    for c in of(ItemKind::Game) {
        assert!(levels(core, &c.name).is_empty());
        assert_eq!(levels(games, &c.name), [1, 3, 5], "{}", c.name);
    }
    assert_eq!(games.entries.len(), 3 * of(ItemKind::Game).count());
    // Each seat of a 2-, 3- or 4-seat game equally often.
    for e in games.entries.iter().chain(hard.entries.iter().filter(|e| e.kind == ItemKind::Game)) {
        let seats = cat.iter().find(|c| c.name == e.item).unwrap().seats;
        assert_eq!(e.n % seats, 0, "{} has {seats} seats", e.label());
    }
    assert!(suites::listing().lines().count() == 5);
}

#[test]
fn every_core_category_has_a_three_point_interval() {
    let core = suites::core();
    let trials = suites::trials_for_half_width(suites::CORE_HALF_WIDTH);
    assert_eq!(trials, 1064);
    for c in core.categories() {
        let episodes: usize = core.entries.iter().filter(|e| e.category == c).map(|e| e.n).sum();
        let [lo, hi] = wilson_interval(0.5, episodes);
        assert!(
            episodes >= trials && (hi - lo) / 2.0 <= 0.03,
            "{c}: {episodes} episodes, ±{}",
            (hi - lo) / 2.0
        );
        // Every entry of a category has the same n, and no more than needed.
        let ns: HashSet<usize> = core.entries.iter().filter(|e| e.category == c).map(|e| e.n).collect();
        assert_eq!(ns.len(), 1, "{c}: {ns:?}");
        let n = *ns.iter().next().unwrap();
        assert!(episodes - trials < episodes / n, "{c}: {n} per entry is more than needed");
    }
    let games = suites::games();
    let [lo, hi] = wilson_interval(0.5, games.episodes());
    assert!((hi - lo) / 2.0 <= 0.03, "games: {} episodes", games.episodes());
}

/// Two families, a world and a game: small enough to play in a second.
fn tiny() -> Suite {
    Suite::custom(
        "tiny",
        vec![
            Entry::new("caesar", 1, 12),
            Entry::new("countdown", 2, 12),
            Entry::new("guess_number", 1, 4),
            Entry::new("tic_tac_toe", 1, 4),
        ],
    )
    .unwrap()
}

fn run(
    suite: &Suite,
    policy: &mut (dyn Policy + Send),
    finished: &[ItemResult],
) -> (Vec<ItemResult>, Vec<WallLine>) {
    let mut lanes: Vec<&mut (dyn Policy + Send)> = vec![policy];
    let (mut results, mut wall) = (finished.to_vec(), Vec::new());
    let opts = RolloutOptions { seed: 5, ..Default::default() };
    suites::play(suite, &mut lanes, &opts, &suite.opponent, 5, finished, &mut |e| match e {
        RunEvent::Episode(r) => results.push(r.clone()),
        RunEvent::Wall { item, level, seconds, episodes } => {
            wall.push(WallLine { item: item.to_string(), level, seconds, episodes })
        }
    })
    .unwrap();
    (results, wall)
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gauntlet-suites-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn oracle_and_random_runs_give_results_and_a_scorecard() {
    let suite = tiny();
    let (results, wall) = run(&suite, &mut OraclePolicy::new(0), &[]);
    assert_eq!(results.len(), suite.episodes());
    let info = RunInfo::new("oracle", "oracle").with("temperature", 0.0).with("max_tokens", 256);
    let oracle = SuiteResults::new(&suite, info, &results, &wall);
    for e in oracle.entries.iter().filter(|e| e.entry.kind == ItemKind::Family) {
        assert_eq!((e.success.rate, e.failed, e.format_errors.rate), (1.0, 0, 0.0), "{}", e.entry.label());
        assert_eq!(e.outcomes, vec![Some(1); e.entry.n]);
    }
    assert_eq!(oracle.entries[2].success.rate, 1.0, "guess_number");
    assert!(oracle.overall.wall_time_s > 0.0 && oracle.overall.wall_time_s < 60.0);
    let wall_sum: f64 = wall.iter().map(|w| w.seconds).sum();
    assert!((oracle.overall.wall_time_s - wall_sum).abs() < 1e-9);
    assert_eq!(wall.iter().map(|w| w.episodes).sum::<usize>(), suite.episodes());
    // Categories pool their entries; the levels split them.
    assert_eq!(
        oracle.categories.iter().map(|c| c.category.as_str()).collect::<Vec<_>>(),
        ["crypto", "arithmetic", "world", "game"]
    );
    assert_eq!(oracle.overall.success.episodes, suite.episodes());

    let (results, wall) = run(&suite, &mut RandomPolicy::new(0), &[]);
    let random = SuiteResults::new(&suite, RunInfo::new("random", "oracle"), &results, &wall);
    assert!(
        random.entries[0].success.rate < 0.5 && random.overall.success.rate < oracle.overall.success.rate
    );
    assert_eq!(random.entries[3].success.rate, 0.0, "random never beats minimax at tic-tac-toe");

    let dir = temp_dir("scorecard");
    scorecard::write(&dir, &oracle).unwrap();
    for f in scorecard::FILES {
        let text = std::fs::read_to_string(dir.join(f)).unwrap();
        if f.ends_with(".svg") {
            assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"), "{f}");
            assert!(text.contains("caesar") || f == "rates.svg", "{f}");
        }
    }
    let md = std::fs::read_to_string(dir.join("scorecard.md")).unwrap();
    assert!(md.contains("# Scorecard: `oracle` on `tiny@0`"), "{md}");
    assert!(md.contains("| caesar | family | crypto | 1 | 12 | 1.000 [0.758, 1.000] |"), "{md}");
    assert!(md.contains("(rates.svg)") && md.contains("(heatmap.svg)") && md.contains("(extremes.svg)"));
    assert!(md.contains("max_tokens 256") && md.contains("temperature 0.0"), "{md}");
    let back = SuiteResults::read(&dir.join("results.json")).unwrap();
    assert_eq!(back, oracle);
    let e = SuiteResults::read(&dir.join("scorecard.md")).unwrap_err();
    assert!(e.contains("is not JSON"), "{e}");
    std::fs::write(dir.join("other.json"), "{\"format\": \"x\"}").unwrap();
    let e = SuiteResults::read(&dir.join("other.json")).unwrap_err();
    assert!(e.contains("not a suite results file"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_resumed_run_plays_only_the_rest_and_gives_the_same_results() {
    let suite = tiny();
    let (all, _) = run(&suite, &mut RandomPolicy::new(3), &[]);
    // A run killed after some episodes, one of which failed.
    let mut earlier: Vec<ItemResult> = all.iter().step_by(3).cloned().collect();
    earlier[0].error = Some("connection refused".into());
    let (resumed, _) = run(&suite, &mut RandomPolicy::new(3), &earlier);
    let played = resumed.len() - earlier.len();
    assert_eq!(played, all.len() - earlier.len() + 1);
    let info = || RunInfo::new("random", "oracle");
    let a = SuiteResults::new(&suite, info(), &all, &[]);
    let b = SuiteResults::new(&suite, info(), &resumed, &[]);
    assert_eq!((a.entries, a.categories, a.overall), (b.entries, b.categories, b.overall));
    // A missing episode counts as failed and unsolved, and is left out of the outcomes.
    let partial = SuiteResults::new(&suite, info(), &all[1..], &[]);
    assert_eq!(partial.overall.failed, 1);
    assert_eq!(partial.entries[0].outcomes[0], None);
}

#[test]
fn comparisons_pair_problems_mark_significance_and_refuse_other_versions() {
    let suite = tiny();
    let (o, _) = run(&suite, &mut OraclePolicy::new(0), &[]);
    let (r, _) = run(&suite, &mut RandomPolicy::new(0), &[]);
    let oracle = SuiteResults::new(&suite, RunInfo::new("oracle", "oracle"), &o, &[]);
    let random = SuiteResults::new(&suite, RunInfo::new("random", "oracle"), &r, &[]);
    let runs = vec![("o.json".to_string(), oracle.clone()), ("r.json".to_string(), random.clone())];
    let c = scorecard::compare(&runs).unwrap();
    assert_eq!(c.policies, ["oracle", "random"]);
    let d = c.overall.differences[0];
    assert!(d.significant && d.difference < -0.5 && d.ci95[1] < 0.0, "{d:?}");
    assert_eq!(d.pairs, suite.episodes());
    let caesar = &c.entries[0];
    assert_eq!(caesar.name, "caesar@L1");
    assert!(caesar.differences[0].significant, "{caesar:?}");
    assert_eq!(caesar.rates[0].rate, 1.0);
    let md = c.markdown();
    assert!(md.contains("| **all** |") && md.contains(" *"), "{md}");
    assert!(md.contains("B − A"), "{md}");
    // The same run against itself: no difference anywhere.
    let same = scorecard::compare(&[runs[0].clone(), runs[0].clone()]).unwrap();
    assert!(same.entries.iter().all(|e| e.differences[0].difference == 0.0 && !e.differences[0].significant));

    // Another version of the suite: refused, naming both.
    let mut v2 = random.clone();
    v2.suite = "tiny@2".into();
    v2.version = 2;
    let e = scorecard::compare(&[runs[0].clone(), ("v2.json".into(), v2)]).unwrap_err();
    assert!(
        e.contains("different suites or suite versions") && e.contains("tiny@0") && e.contains("tiny@2"),
        "{e}"
    );
    // Same version, other problems.
    let mut other = random.clone();
    other.prompts_hash = "fnv1a64:0000000000000001".into();
    let mut base = oracle.clone();
    base.prompts_hash = "fnv1a64:0000000000000002".into();
    let e = scorecard::compare(&[("o".into(), base), ("x".into(), other)]).unwrap_err();
    assert!(e.contains("problems differ"), "{e}");
    // Games against another opponent.
    let mut vs_random = random.clone();
    vs_random.run.opponent = "random".into();
    assert!(scorecard::compare(&[runs[0].clone(), ("v".into(), vs_random)])
        .unwrap_err()
        .contains("opponents"));
    // Different settings are noted, not refused.
    let mut hot = random;
    hot.run.settings.insert("temperature".into(), 1.0.into());
    let c = scorecard::compare(&[runs[0].clone(), ("hot".into(), hot)]).unwrap();
    assert!(c.notes.iter().any(|n| n.contains("settings differ")), "{:?}", c.notes);
    assert!(scorecard::compare(&runs[..1]).is_err());
}
