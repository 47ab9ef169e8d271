//! Evaluation suites: named, versioned sets of held-out problems that anyone can run and compare.
//!
//! A [`Suite`] is a list of [`Entry`]s — an item (a single-turn task family, a multi-turn world or
//! a game), a level, a number of problems, the seed stream they come from and a turn cap — plus
//! what a suite run uses unless told otherwise: the most tokens per response, the sampling
//! temperature and the scripted opponent of its games. The shipped suites are built from the
//! registries (every family of `gauntlet-tasks`, every environment and game of `gauntlet-envs`):
//!
//! | suite | entries | problems per entry |
//! |---|---|---|
//! | `quick` | every family, world and game once, at level 1 | 4 |
//! | `core` | every family at levels 1, 3, 5; every world at levels 1 and 3 | per category, so that each category's rate has a 95% interval of ±3 points or less (see [`core()`]) |
//! | `games` | every game at levels 1, 3, 5 against the scripted `oracle` | 12 (a multiple of every seat count, so the evaluated policy takes each seat equally often) |
//! | `hard` | every family, world and game at level 5 | 8 (games 12) |
//!
//! Every entry is one sample per problem (pass@1). [`list_suites`] lists them with their sizes;
//! [`get`] finds one by name (`quick` or `quick@1`).
//!
//! ## Seeds and versions
//!
//! Problem `i` of an entry is generated from seed `seed_base + i`. Each suite version draws from
//! its own stream, `seed_base = SUITE_SEED_BASE + stream · 2^40` ([`SUITE_SEED_BASE`] is `2^56`):
//! above the trainer's held-out evaluation seeds (`2^48`, [`crate::eval::HELD_OUT_BASE`]) and its
//! curriculum probes (`2^52`), and far from training seeds (below `2^40`), so no suite problem is
//! ever trained on or used to pick a checkpoint. The stream is part of the version.
//!
//! A suite's problems are its entries plus every generator and prompt they go through. While its
//! version is unchanged they must stay byte-identical across machines and releases, so results
//! can be compared: `crates/gauntlet-train/tests/suites.rs` pins [`Suite::prompts_hash`] (the
//! suite's definition and the first observation of every problem) for every suite, and a change
//! to a generator, a prompt or a registry fails that test, naming the suite whose version must be
//! bumped.
//!
//! ## Running a suite
//!
//! [`play`] plays a suite's unfinished episodes on one or more lanes through
//! [`crate::eval::run_items`] (so chunking, lanes and resumption give the same episodes), with
//! each entry's turn cap and the suite's opponent, reporting every episode and the wall time
//! spent; [`SuiteResults::new`] turns the episodes into the `results.json` document (every
//! entry's rate with its 95% Wilson interval, format-error rate, tokens, wall time and
//! per-problem outcomes, and the same per category, per category and level, and overall), which
//! [`crate::scorecard`] draws and compares.
//!
//! ```
//! use gauntlet_rollout::{OraclePolicy, Policy, RolloutOptions};
//! use gauntlet_train::suites::{self, Entry, Suite};
//! let suite = Suite::custom("tiny", vec![Entry::new("caesar", 1, 3)]).unwrap();
//! let mut oracle = OraclePolicy::new(0);
//! let mut lanes: Vec<&mut (dyn Policy + Send)> = vec![&mut oracle];
//! let mut episodes = Vec::new();
//! suites::play(&suite, &mut lanes, &RolloutOptions::default(), "oracle", 8, &[], &mut |e| {
//!     if let suites::RunEvent::Episode(r) = e {
//!         episodes.push(r.clone());
//!     }
//! })
//! .unwrap();
//! let results = suites::SuiteResults::new(&suite, suites::RunInfo::new("oracle", "oracle"), &episodes, &[]);
//! assert_eq!(results.overall.success.rate, 1.0);
//! ```

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::Instant;

use gauntlet_core::{Difficulty, EnvKind};
use gauntlet_rollout::{Policy, RolloutError, RolloutOptions};
use serde::{Deserialize, Serialize};

use crate::eval::{self, wilson_interval, EvalItem, ItemResult};

/// First seed of suite problems: `2^56` (training seeds are below `2^40`, the trainer's held-out
/// evaluation starts at `2^48`, its curriculum probes at `2^52`).
pub const SUITE_SEED_BASE: u64 = 1 << 56;

/// The seed base of stream `stream`: `SUITE_SEED_BASE + stream · 2^40`.
pub const fn stream_base(stream: u64) -> u64 {
    SUITE_SEED_BASE + (stream << 40)
}

/// The half-width, in rate points, that `core` keeps every category's 95% interval within.
pub const CORE_HALF_WIDTH: f64 = 0.03;

/// The format tag of a `results.json` document.
pub const RESULTS_FORMAT: &str = "gauntlet-suite-results/1";

/// Turn cap of single-turn families (one turn each).
pub const FAMILY_TURNS: usize = 1;
/// Turn cap of worlds and games, every seat's turns counted: a safety net far above every
/// environment's own turn limit and error allowance, so that it never decides an episode (the
/// scripted oracle's longest episodes take about 600 turns: `game_2048` at level 5).
pub const ENV_TURNS: usize = 1024;

/// What an item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemKind {
    /// A single-turn task family (`gauntlet-tasks`).
    Family,
    /// A multi-turn environment with one seat (`gauntlet-envs`).
    World,
    /// A game with several seats, played against the suite's opponent (`gauntlet-envs`).
    Game,
}

impl ItemKind {
    /// `family`, `world` or `game`.
    pub fn name(self) -> &'static str {
        match self {
            ItemKind::Family => "family",
            ItemKind::World => "world",
            ItemKind::Game => "game",
        }
    }
}

/// One registered item: its name, kind and category.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogueItem {
    /// Registry name.
    pub name: String,
    /// Family, world or game.
    pub kind: ItemKind,
    /// A family's category (`arithmetic`, …); `world` or `game` for environments.
    pub category: String,
    /// Seats (1 for families and worlds).
    pub seats: usize,
}

/// Every family (by category, in [`gauntlet_core::Category::ALL`] order, then by name), then
/// every world and every game (each by name), as the registries hold them now.
pub fn catalogue() -> Vec<CatalogueItem> {
    let order = |c: gauntlet_core::Category| gauntlet_core::Category::ALL.iter().position(|x| *x == c);
    let mut families: Vec<_> = gauntlet_tasks::registry().iter().map(|t| t.spec()).collect();
    families.sort_by_key(|s| (order(s.category), s.name));
    let family_names: HashSet<&str> = families.iter().map(|s| s.name).collect();
    let mut out: Vec<CatalogueItem> = families
        .iter()
        .map(|s| CatalogueItem {
            name: s.name.to_string(),
            kind: ItemKind::Family,
            category: s.category.name().to_string(),
            seats: 1,
        })
        .collect();
    let mut envs = Vec::new();
    for name in gauntlet_rollout::env::all_names() {
        if family_names.contains(name.as_str()) {
            continue;
        }
        let Ok(env) = gauntlet_rollout::make_env(&name) else { continue };
        let spec = env.spec();
        let kind = match spec.kind {
            EnvKind::Game => ItemKind::Game,
            EnvKind::MultiTurn | EnvKind::SingleTurn => ItemKind::World,
        };
        let seats = spec.seats.max(1);
        envs.push(CatalogueItem { name, kind, category: kind.name().to_string(), seats });
    }
    envs.sort_by(|a, b| (a.kind, &a.name).cmp(&(b.kind, &b.name)));
    out.extend(envs);
    out
}

/// One line of a suite: `n` problems of `item` at `level`, seeds `seed_base..seed_base + n`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// Task family, world or game name.
    pub item: String,
    /// Family, world or game.
    pub kind: ItemKind,
    /// A family's category; `world` or `game` for environments.
    pub category: String,
    /// Level 1..=5.
    pub level: u8,
    /// Problems (one episode each).
    pub n: usize,
    /// Seed of problem 0.
    pub seed_base: u64,
    /// Most turns per episode (every seat's turns counted).
    pub max_turns: usize,
}

impl Entry {
    /// `n` problems of `item` at `level` with the defaults of its kind (its canonical name,
    /// category and turn cap; the seed base of stream 0). An unknown name keeps its spelling,
    /// kind `family` and category `unknown` ([`Suite::check`] refuses it).
    pub fn new(item: &str, level: u8, n: usize) -> Entry {
        let (name, kind, category) = match gauntlet_rollout::make_env(item) {
            Ok(env) => {
                let spec = env.spec();
                match spec.kind {
                    EnvKind::SingleTurn => (spec.name.clone(), ItemKind::Family, spec.category.clone()),
                    EnvKind::MultiTurn => (spec.name.clone(), ItemKind::World, "world".to_string()),
                    EnvKind::Game => (spec.name.clone(), ItemKind::Game, "game".to_string()),
                }
            }
            Err(_) => (item.to_string(), ItemKind::Family, "unknown".to_string()),
        };
        Entry::of(name, kind, category, level, n, stream_base(0))
    }

    fn of(item: String, kind: ItemKind, category: String, level: u8, n: usize, seed_base: u64) -> Entry {
        let max_turns = if kind == ItemKind::Family { FAMILY_TURNS } else { ENV_TURNS };
        Entry { item, kind, category, level, n, seed_base, max_turns }
    }

    /// `item@Llevel`, as tables print it.
    pub fn label(&self) -> String {
        format!("{}@L{}", self.item, self.level)
    }

    /// The seed of problem `i`.
    pub fn seed(&self, i: usize) -> u64 {
        self.seed_base + i as u64
    }
}

/// A named, versioned evaluation suite.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Suite {
    /// Name (`quick`, `core`, `games`, `hard`).
    pub name: String,
    /// Version: bumped whenever any problem, prompt or setting of the suite changes.
    pub version: u32,
    /// One line: what the suite measures.
    pub description: String,
    /// Most tokens per response a suite run samples unless told otherwise.
    pub max_tokens: usize,
    /// Sampling temperature a suite run uses unless told otherwise (0 = greedy).
    pub temperature: f64,
    /// Who plays every other seat of a game: the scripted `oracle`.
    pub opponent: String,
    /// The entries, in display order.
    pub entries: Vec<Entry>,
}

/// A suite as [`list_suites`] describes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SuiteInfo {
    /// Name.
    pub name: String,
    /// Version.
    pub version: u32,
    /// `name@version`.
    pub id: String,
    /// Entries (item × level).
    pub items: usize,
    /// Episodes (problems over every entry).
    pub episodes: usize,
    /// One line.
    pub description: String,
}

impl Suite {
    /// `name@version`, the identity results carry.
    pub fn id(&self) -> String {
        format!("{}@{}", self.name, self.version)
    }

    /// Episodes over every entry.
    pub fn episodes(&self) -> usize {
        self.entries.iter().map(|e| e.n).sum()
    }

    /// A suite of your own (version 0, greedy, 256 tokens, games against `oracle`), checked as
    /// [`Suite::check`] does: for tests and quick experiments.
    pub fn custom(name: &str, entries: Vec<Entry>) -> Result<Suite, String> {
        let s = Suite {
            name: name.to_string(),
            version: 0,
            description: format!("custom suite `{name}`"),
            max_tokens: 256,
            temperature: 0.0,
            opponent: "oracle".into(),
            entries,
        };
        s.check()?;
        Ok(s)
    }

    /// Every entry names a known item at a level in 1..=5 with at least one problem, and no
    /// `(item, level)` appears twice.
    pub fn check(&self) -> Result<(), String> {
        let mut seen = HashSet::new();
        for e in &self.entries {
            gauntlet_rollout::make_env(&e.item).map_err(|m| format!("suite `{}`: {m}", self.id()))?;
            Difficulty::new(e.level).map_err(|m| format!("suite `{}`, `{}`: {m}", self.id(), e.item))?;
            if e.n == 0 || e.max_turns == 0 {
                return Err(format!(
                    "suite `{}`, `{}`: n and max_turns must be at least 1",
                    self.id(),
                    e.label()
                ));
            }
            if !seen.insert((e.item.clone(), e.level)) {
                return Err(format!("suite `{}`: `{}` appears twice", self.id(), e.label()));
            }
        }
        if !crate::config::OPPONENTS.contains(&self.opponent.as_str()) {
            return Err(format!("suite `{}`: unknown opponent `{}`", self.id(), self.opponent));
        }
        Ok(())
    }

    /// The suite's description as [`list_suites`] gives it.
    pub fn info(&self) -> SuiteInfo {
        SuiteInfo {
            name: self.name.clone(),
            version: self.version,
            id: self.id(),
            items: self.entries.len(),
            episodes: self.episodes(),
            description: self.description.clone(),
        }
    }

    /// Every episode of the suite (one sample per problem), entry by entry.
    pub fn items(&self) -> Vec<EvalItem> {
        self.entries
            .iter()
            .flat_map(|e| {
                (0..e.n as u64).map(|index| EvalItem {
                    task: e.item.clone(),
                    level: e.level,
                    index,
                    sample: 0,
                })
            })
            .collect()
    }

    /// A hash of what the suite is: its settings, its entries, and the first observation of
    /// every problem (the prompt of a family; the opening observation of a world or game, for
    /// the seat that moves first). Equal hashes mean equal problems; the test suite pins it per
    /// suite version. The form is `fnv1a64:` and 16 hex digits (FNV-1a, 64 bits).
    pub fn prompts_hash(&self) -> Result<String, String> {
        let digests = parallel_map(&self.entries, entry_digest)?;
        let mut h = Fnv::new();
        h.field(&self.header());
        for d in digests {
            h.field(&format!("{d:016x}"));
        }
        Ok(format!("fnv1a64:{:016x}", h.0))
    }

    /// A hash of the suite's definition alone (settings and entries, no problem generated):
    /// cheap, for checking that a results folder belongs to this suite.
    pub fn definition_hash(&self) -> String {
        let mut h = Fnv::new();
        h.field(&self.header());
        for e in &self.entries {
            h.field(&entry_header(e));
        }
        format!("fnv1a64:{:016x}", h.0)
    }

    fn header(&self) -> String {
        format!(
            "{}|{}|{}|{}|{}|{}",
            self.name,
            self.version,
            self.max_tokens,
            self.temperature,
            self.opponent,
            self.entries.len()
        )
    }

    /// The entry of `(item, level)`.
    pub fn entry(&self, item: &str, level: u8) -> Option<&Entry> {
        self.entries.iter().find(|e| e.item == item && e.level == level)
    }

    /// The categories of the entries, in order of first appearance.
    pub fn categories(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for e in &self.entries {
            if !out.contains(&e.category) {
                out.push(e.category.clone());
            }
        }
        out
    }
}

fn entry_header(e: &Entry) -> String {
    format!("{}|{}|{}|{}|{}|{}|{}", e.item, e.kind.name(), e.category, e.level, e.n, e.seed_base, e.max_turns)
}

/// The hash of one entry: its definition, then every problem's first observation.
fn entry_digest(e: &Entry) -> Result<u64, String> {
    let mut h = Fnv::new();
    h.field(&entry_header(e));
    let level = Difficulty::new(e.level)?;
    for i in 0..e.n {
        let mut env = gauntlet_rollout::make_env(&e.item)?;
        match env.reset(e.seed(i), level) {
            Ok(()) => {
                let seat = env.to_act().unwrap_or(gauntlet_core::AgentId(0));
                h.field(&env.observe(seat).text);
            }
            Err(err) => h.field(&format!("reset error: {err}")),
        }
    }
    Ok(h.0)
}

/// `f` over `xs` on the machine's cores, results in order.
fn parallel_map<T: Sync, R: Send>(
    xs: &[T],
    f: impl Fn(&T) -> Result<R, String> + Sync,
) -> Result<Vec<R>, String> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 16);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut slots: Vec<Option<Result<R, String>>> = (0..xs.len()).map(|_| None).collect();
    let out = std::sync::Mutex::new(&mut slots);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(x) = xs.get(i) else { break };
                let r = f(x);
                out.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
            });
        }
    });
    slots.into_iter().map(|r| r.expect("every slot filled")).collect()
}

/// FNV-1a, 64 bits: a stable hash (the same bytes on every platform and release).
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 ^= u64::from(x);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    /// A length-prefixed field, so `ab|c` and `a|bc` differ.
    fn field(&mut self, s: &str) {
        self.bytes(&(s.len() as u64).to_le_bytes());
        self.bytes(s.as_bytes());
    }
}

/// The fewest trials whose 95% Wilson interval at a rate of 0.5 (the widest) has a half-width
/// of at most `half` (1,064 for ±3 points).
pub fn trials_for_half_width(half: f64) -> usize {
    let width = |n: usize| {
        let [lo, hi] = wilson_interval(0.5, n);
        (hi - lo) / 2.0
    };
    let mut n = 1;
    while width(n) > half {
        n += 1;
    }
    n
}

/// The names of the shipped suites.
pub const SUITES: [&str; 4] = ["quick", "core", "games", "hard"];

/// The shipped suites, in [`SUITES`] order.
pub fn all() -> Vec<Suite> {
    let cat = catalogue();
    vec![quick_from(&cat), core_from(&cat), games_from(&cat), hard_from(&cat)]
}

/// Name, version, entries, episodes and a line of description of every shipped suite.
pub fn list_suites() -> Vec<SuiteInfo> {
    all().iter().map(Suite::info).collect()
}

/// The shipped suites as a plain-text table (what `gauntlet eval --list-suites` prints).
pub fn listing() -> String {
    let list = list_suites();
    let w = list.iter().map(|s| s.id.len()).max().unwrap_or(5).max(5);
    let mut s = format!("{:<w$}  {:>7}  {:>8}  description\n", "suite", "entries", "episodes");
    for i in &list {
        s += &format!("{:<w$}  {:>7}  {:>8}  {}\n", i.id, i.items, i.episodes, i.description);
    }
    s
}

/// The shipped suite called `name` (`quick`) or `name@version` (`quick@1`); an unknown name or
/// a version this build does not define is an error that says what exists.
pub fn get(name: &str) -> Result<Suite, String> {
    let (base, version) = match name.trim().split_once('@') {
        Some((b, v)) => {
            let v: u32 =
                v.parse().map_err(|_| format!("`{name}`: the version after `@` must be a number"))?;
            (b.trim(), Some(v))
        }
        None => (name.trim(), None),
    };
    let base = base.to_ascii_lowercase();
    let cat = catalogue();
    let suite = match base.as_str() {
        "quick" => quick_from(&cat),
        "core" => core_from(&cat),
        "games" => games_from(&cat),
        "hard" => hard_from(&cat),
        _ => {
            let known: Vec<String> = list_suites().iter().map(|s| format!("`{}`", s.id)).collect();
            return Err(format!("unknown suite `{name}`; the suites are {}", known.join(", ")));
        }
    };
    match version {
        Some(v) if v != suite.version => Err(format!(
            "this build defines `{}`, not `{base}@{v}`: results of another version come from the build \
             that defined it",
            suite.id()
        )),
        _ => Ok(suite),
    }
}

fn entries_of(cat: &[CatalogueItem], kind: ItemKind) -> impl Iterator<Item = &CatalogueItem> {
    cat.iter().filter(move |c| c.kind == kind)
}

fn entry(c: &CatalogueItem, level: u8, n: usize, stream: u64) -> Entry {
    Entry::of(c.name.clone(), c.kind, c.category.clone(), level, n, stream_base(stream))
}

/// `quick`: every family, world and game once, at level 1, 4 problems each.
pub fn quick() -> Suite {
    quick_from(&catalogue())
}

fn quick_from(cat: &[CatalogueItem]) -> Suite {
    const VERSION: u32 = 3;
    const STREAM: u64 = 1;
    const N: usize = 4;
    let entries = cat.iter().map(|c| entry(c, 1, N, STREAM)).collect();
    Suite {
        name: "quick".into(),
        version: VERSION,
        description: "every family, world and game once at level 1, 4 problems each: a smoke test in minutes"
            .into(),
        max_tokens: 256,
        temperature: 0.0,
        opponent: "oracle".into(),
        entries,
    }
}

/// `core`: every family at levels 1, 3 and 5 and every world at levels 1 and 3, with as many
/// problems per entry as keep each category's 95% Wilson interval within ±3 points
/// ([`CORE_HALF_WIDTH`]).
///
/// A category's rate pools its episodes: with `E` entries of `n` problems it counts `E·n`
/// episodes, and the widest Wilson interval over `N` trials (at a rate of 0.5) has a half-width
/// of ±3 points from `N = 1,064` ([`trials_for_half_width`]). So every entry of a category gets
/// `n = ceil(1,064 / E)` problems: 1,064 / (4 families × 3 levels) → 89 for `probability`,
/// 1,064 / (18 × 3) → 20 for `arithmetic`, 1,064 / (34 worlds × 2) → 16 for worlds. (The entries
/// of a category are fixed strata of equal size, so the binomial interval at the pooled rate is
/// conservative: the variance of a stratified mean is at most that of one pooled sample.)
pub fn core() -> Suite {
    core_from(&catalogue())
}

fn core_from(cat: &[CatalogueItem]) -> Suite {
    const VERSION: u32 = 3;
    const STREAM: u64 = 2;
    const FAMILY_LEVELS: [u8; 3] = [1, 3, 5];
    const WORLD_LEVELS: [u8; 2] = [1, 3];
    let trials = trials_for_half_width(CORE_HALF_WIDTH);
    let mut per_category: BTreeMap<&str, usize> = BTreeMap::new();
    for c in cat.iter().filter(|c| c.kind != ItemKind::Game) {
        let levels = if c.kind == ItemKind::Family { FAMILY_LEVELS.len() } else { WORLD_LEVELS.len() };
        *per_category.entry(c.category.as_str()).or_default() += levels;
    }
    let n_of = |c: &CatalogueItem| trials.div_ceil(per_category[c.category.as_str()]);
    let mut entries = Vec::new();
    for c in entries_of(cat, ItemKind::Family) {
        entries.extend(FAMILY_LEVELS.iter().map(|&l| entry(c, l, n_of(c), STREAM)));
    }
    for c in entries_of(cat, ItemKind::World) {
        entries.extend(WORLD_LEVELS.iter().map(|&l| entry(c, l, n_of(c), STREAM)));
    }
    Suite {
        name: "core".into(),
        version: VERSION,
        description: "every family at levels 1, 3, 5 and every world at levels 1, 3; each category's rate within ±3 points (95%)".into(),
        max_tokens: 512,
        temperature: 0.0,
        opponent: "oracle".into(),
        entries,
    }
}

/// Problems per game entry are a multiple of this, so the evaluated policy takes each seat of a
/// 2-, 3- or 4-seat game equally often (it takes seat `problem mod seats`).
pub const GAME_N_MULTIPLE: usize = 12;

/// `games`: every game at levels 1, 3 and 5 against the scripted `oracle`, 12 problems each
/// (enough for the games' pooled rate to stay within ±3 points, and a multiple of every seat
/// count).
pub fn games() -> Suite {
    games_from(&catalogue())
}

fn games_from(cat: &[CatalogueItem]) -> Suite {
    const VERSION: u32 = 1;
    const STREAM: u64 = 3;
    const LEVELS: [u8; 3] = [1, 3, 5];
    let games: Vec<&CatalogueItem> = entries_of(cat, ItemKind::Game).collect();
    let trials = trials_for_half_width(CORE_HALF_WIDTH);
    let n = trials.div_ceil((games.len() * LEVELS.len()).max(1)).div_ceil(GAME_N_MULTIPLE) * GAME_N_MULTIPLE;
    let entries = games.iter().flat_map(|c| LEVELS.iter().map(move |&l| entry(c, l, n, STREAM))).collect();
    Suite {
        name: "games".into(),
        version: VERSION,
        description: "every game at levels 1, 3, 5 against the scripted oracle, each seat equally often"
            .into(),
        max_tokens: 256,
        temperature: 0.0,
        opponent: "oracle".into(),
        entries,
    }
}

/// `hard`: every family, world and game at level 5 (8 problems each; games 12).
pub fn hard() -> Suite {
    hard_from(&catalogue())
}

fn hard_from(cat: &[CatalogueItem]) -> Suite {
    const VERSION: u32 = 3;
    const STREAM: u64 = 4;
    let entries = cat
        .iter()
        .map(|c| entry(c, 5, if c.kind == ItemKind::Game { GAME_N_MULTIPLE } else { 8 }, STREAM))
        .collect();
    Suite {
        name: "hard".into(),
        version: VERSION,
        description: "every family, world and game at level 5 (the top of every ladder)".into(),
        max_tokens: 1024,
        temperature: 0.0,
        opponent: "oracle".into(),
        entries,
    }
}

/// What [`play`] reports as it goes.
#[derive(Debug)]
pub enum RunEvent<'a> {
    /// An episode finished (failed ones included): append it to the results log.
    Episode(&'a ItemResult),
    /// `seconds` of wall time went to `episodes` episodes of the entry `(item, level)`: when a
    /// chunk of episodes is complete, the wall time since the previous chunk completed (or the
    /// start) is shared equally by the chunk's episodes. Reported right after the chunk's last
    /// [`RunEvent::Episode`].
    Wall {
        /// The entry's item.
        item: &'a str,
        /// The entry's level.
        level: u8,
        /// Wall time.
        seconds: f64,
        /// Episodes it went to.
        episodes: usize,
    },
}

/// Plays every episode of `suite` without a finished result in `finished` (a resumed run's
/// earlier results), in chunks of `chunk` on the `lanes` (see [`eval::run_items`]), with each
/// entry's turn cap and `opponent` (`oracle`, `random` or `self`) at the other seats of games;
/// reports each finished episode and the wall time spent to `on_event`.
///
/// Sampling seeds come from `opts.seed` and each episode's identity, so any chunking, number of
/// lanes and resumption play the same episodes.
pub fn play(
    suite: &Suite,
    lanes: &mut [&mut (dyn Policy + Send)],
    opts: &RolloutOptions,
    opponent: &str,
    chunk: usize,
    finished: &[ItemResult],
    on_event: &mut dyn FnMut(RunEvent<'_>),
) -> Result<(), RolloutError> {
    let chunk = chunk.max(1);
    let done: HashSet<_> = finished.iter().filter(|r| r.finished()).map(ItemResult::key).collect();
    // Unfinished items, grouped by what one `run_items` call shares: seed base and turn cap.
    let mut groups: Vec<((u64, usize), Vec<EvalItem>)> = Vec::new();
    for e in &suite.entries {
        let todo = (0..e.n as u64)
            .filter(|&i| !done.contains(&(e.item.clone(), e.level, e.seed_base + i, 0)))
            .map(|index| EvalItem { task: e.item.clone(), level: e.level, index, sample: 0 });
        let key = (e.seed_base, e.max_turns);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, items)) => items.extend(todo),
            None => groups.push((key, todo.collect())),
        }
    }
    let vs = Some(opponent).filter(|o| *o != "self");
    let mut clock = WallClock { previous: Instant::now() };
    for ((seed_base, max_turns), items) in groups.iter().filter(|(_, items)| !items.is_empty()) {
        let opts = RolloutOptions { max_turns: *max_turns, ..opts.clone() };
        // `run_items` plays `items.chunks(chunk)`, each chunk's results delivered together.
        let mut chunks = Chunks::new(items, *seed_base, chunk);
        eval::run_items(lanes, items, *seed_base, chunk, &opts, vs, &mut |r| {
            on_event(RunEvent::Episode(&r));
            if let Some(done) = chunks.arrive(&r) {
                clock.complete(&done, Instant::now(), on_event);
            }
        })?;
    }
    Ok(())
}

/// Episodes per entry `(item, level)`, in order of arrival.
type PerEntry = Vec<((String, u8), usize)>;

/// The chunks [`eval::run_items`] plays, and which of their episodes have arrived.
struct Chunks {
    /// The chunk of each episode, by `(item, level, seed)`.
    of: HashMap<(String, u8, u64), usize>,
    /// Per chunk: its size and the episodes arrived so far, per entry in order of arrival.
    tallies: Vec<(usize, PerEntry)>,
}

impl Chunks {
    fn new(items: &[EvalItem], seed_base: u64, chunk: usize) -> Chunks {
        let of = items
            .iter()
            .enumerate()
            .map(|(i, it)| ((it.task.clone(), it.level, seed_base + it.index), i / chunk))
            .collect();
        Chunks { of, tallies: items.chunks(chunk).map(|c| (c.len(), Vec::new())).collect() }
    }

    /// Counts `r`; returns its chunk's episodes per entry once the chunk is complete.
    fn arrive(&mut self, r: &ItemResult) -> Option<PerEntry> {
        let &j = self.of.get(&(r.task.clone(), r.level, r.seed))?;
        let (size, arrived) = &mut self.tallies[j];
        let key = (r.task.clone(), r.level);
        match arrived.iter_mut().find(|(k, _)| *k == key) {
            Some((_, c)) => *c += 1,
            None => arrived.push((key, 1)),
        }
        (arrived.iter().map(|(_, c)| c).sum::<usize>() == *size).then(|| std::mem::take(arrived))
    }
}

/// Shares the wall time between chunk completions among the episodes of the chunk completed.
struct WallClock {
    /// When the previous chunk completed (the start, at first).
    previous: Instant,
}

impl WallClock {
    /// A chunk with `episodes` per entry completed at `now`.
    fn complete(
        &mut self,
        episodes: &[((String, u8), usize)],
        now: Instant,
        on_event: &mut dyn FnMut(RunEvent<'_>),
    ) {
        let total: usize = episodes.iter().map(|(_, c)| c).sum();
        let seconds = now.max(self.previous).duration_since(self.previous).as_secs_f64();
        for ((item, level), c) in episodes {
            on_event(RunEvent::Wall {
                item,
                level: *level,
                seconds: seconds * *c as f64 / total.max(1) as f64,
                episodes: *c,
            });
        }
        self.previous = now;
    }
}

/// One line of a wall-time log (`timing.jsonl`): seconds spent on episodes of an entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WallLine {
    /// The entry's item.
    pub item: String,
    /// The entry's level.
    pub level: u8,
    /// Wall time.
    pub seconds: f64,
    /// Episodes.
    pub episodes: usize,
}

/// Who played a suite run, against whom, and with which settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    /// The evaluated policy's name (`oracle`, `gguf:…`, `openai:…#…`).
    pub policy: String,
    /// Who played the other seats of games.
    pub opponent: String,
    /// Sampling and rendering settings (temperature, max tokens, seed, history, …): compared
    /// results should share them; [`crate::scorecard::compare`] notes any difference.
    #[serde(default)]
    pub settings: BTreeMap<String, serde_json::Value>,
}

impl RunInfo {
    /// `policy` against `opponent`, no settings recorded.
    pub fn new(policy: &str, opponent: &str) -> RunInfo {
        RunInfo { policy: policy.to_string(), opponent: opponent.to_string(), settings: BTreeMap::new() }
    }

    /// Records a setting.
    pub fn with(mut self, key: &str, value: impl Into<serde_json::Value>) -> RunInfo {
        self.settings.insert(key.to_string(), value.into());
        self
    }
}

/// A rate with its 95% Wilson interval over a count of episodes.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rate {
    /// Successes / episodes (failed and missing episodes count as unsolved).
    pub rate: f64,
    /// 95% Wilson score interval.
    pub ci95: [f64; 2],
    /// Episodes counted (successes, or format errors).
    pub count: usize,
    /// Episodes.
    pub episodes: usize,
}

impl Rate {
    /// `successes` of `episodes`.
    pub fn of(successes: usize, episodes: usize) -> Rate {
        let rate = if episodes == 0 { 0.0 } else { successes as f64 / episodes as f64 };
        Rate { rate, ci95: wilson_interval(rate, episodes), count: successes, episodes }
    }
}

/// One entry's results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EntryResult {
    /// The entry as the suite defines it.
    #[serde(flatten)]
    pub entry: Entry,
    /// Success rate (pass@1) with its interval.
    pub success: Rate,
    /// Share of episodes with a format error (some turn had no parsable answer), with its
    /// interval.
    pub format_errors: Rate,
    /// Mean return of the evaluated seat.
    pub mean_reward: f64,
    /// Tokens sampled by the evaluated policy over the entry.
    pub tokens: usize,
    /// Mean tokens per episode.
    pub mean_tokens: f64,
    /// Wall time that went to the entry's episodes (a share of each chunk's time; every session
    /// of a resumed run summed).
    pub wall_time_s: f64,
    /// Episodes that failed (a policy or environment error) or are missing; counted unsolved.
    pub failed: usize,
    /// Problem `i`'s outcome (seed `seed_base + i`): 1 solved, 0 not, `null` failed or missing.
    /// Comparisons pair problems on these.
    pub outcomes: Vec<Option<u8>>,
}

/// The rate of a group of entries (a category, a category at a level, everything).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupResult {
    /// The category (`all` for the overall row).
    pub category: String,
    /// The level, for a category-and-level row.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// Entries in the group.
    pub entries: usize,
    /// Success rate over the group's episodes.
    pub success: Rate,
    /// Format-error rate over the group's episodes.
    pub format_errors: Rate,
    /// Tokens sampled.
    pub tokens: usize,
    /// Wall time.
    pub wall_time_s: f64,
    /// Failed or missing episodes.
    pub failed: usize,
}

/// A suite run's `results.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SuiteResults {
    /// [`RESULTS_FORMAT`].
    pub format: String,
    /// `name@version`.
    pub suite: String,
    /// The suite's name.
    pub name: String,
    /// The suite's version.
    pub version: u32,
    /// The suite's [`Suite::prompts_hash`] when the run computed it (empty otherwise).
    #[serde(default)]
    pub prompts_hash: String,
    /// The suite's [`Suite::definition_hash`].
    pub definition_hash: String,
    /// The gauntlet release that wrote the file.
    pub gauntlet_version: String,
    /// Who played, against whom, with which settings.
    #[serde(flatten)]
    pub run: RunInfo,
    /// Seconds since the Unix epoch when the file was written.
    pub written_at: u64,
    /// Everything together.
    pub overall: GroupResult,
    /// Per category, in the suite's order.
    pub categories: Vec<GroupResult>,
    /// Per category and level.
    pub category_levels: Vec<GroupResult>,
    /// Per entry, in the suite's order.
    pub entries: Vec<EntryResult>,
}

impl SuiteResults {
    /// The results of `suite` from its episodes (the latest result of each problem counts; a
    /// problem without one counts as failed) and its wall-time log.
    pub fn new(suite: &Suite, run: RunInfo, results: &[ItemResult], wall: &[WallLine]) -> SuiteResults {
        let latest: HashMap<(String, u8, u64, u64), &ItemResult> =
            results.iter().map(|r| (r.key(), r)).collect();
        let mut seconds: HashMap<(String, u8), f64> = HashMap::new();
        for w in wall {
            *seconds.entry((w.item.clone(), w.level)).or_default() += w.seconds;
        }
        let entries: Vec<EntryResult> = suite
            .entries
            .iter()
            .map(|e| {
                let rows: Vec<Option<&ItemResult>> =
                    (0..e.n).map(|i| latest.get(&(e.item.clone(), e.level, e.seed(i), 0)).copied()).collect();
                entry_result(e, &rows, seconds.get(&(e.item.clone(), e.level)).copied().unwrap_or(0.0))
            })
            .collect();
        let group = |category: &str, level: Option<u8>, of: &[&EntryResult]| GroupResult {
            category: category.to_string(),
            level,
            entries: of.len(),
            success: Rate::of(
                of.iter().map(|r| r.success.count).sum(),
                of.iter().map(|r| r.success.episodes).sum(),
            ),
            format_errors: Rate::of(
                of.iter().map(|r| r.format_errors.count).sum(),
                of.iter().map(|r| r.format_errors.episodes).sum(),
            ),
            tokens: of.iter().map(|r| r.tokens).sum(),
            wall_time_s: of.iter().map(|r| r.wall_time_s).sum(),
            failed: of.iter().map(|r| r.failed).sum(),
        };
        let all: Vec<&EntryResult> = entries.iter().collect();
        let mut categories = Vec::new();
        let mut category_levels = Vec::new();
        for c in suite.categories() {
            let of: Vec<&EntryResult> = entries.iter().filter(|r| r.entry.category == c).collect();
            categories.push(group(&c, None, &of));
            let mut levels: Vec<u8> = of.iter().map(|r| r.entry.level).collect();
            levels.sort_unstable();
            levels.dedup();
            for l in levels {
                let at: Vec<&EntryResult> = of.iter().copied().filter(|r| r.entry.level == l).collect();
                category_levels.push(group(&c, Some(l), &at));
            }
        }
        SuiteResults {
            format: RESULTS_FORMAT.into(),
            suite: suite.id(),
            name: suite.name.clone(),
            version: suite.version,
            prompts_hash: String::new(),
            definition_hash: suite.definition_hash(),
            gauntlet_version: env!("CARGO_PKG_VERSION").into(),
            run,
            written_at: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            overall: group("all", None, &all),
            categories,
            category_levels,
            entries,
        }
    }

    /// Reads a `results.json`, naming the file in every error.
    pub fn read(path: &std::path::Path) -> Result<SuiteResults, String> {
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| format!("`{}` is not JSON: {e}", path.display()))?;
        let format = value.get("format").and_then(|f| f.as_str()).unwrap_or("");
        if format != RESULTS_FORMAT {
            return Err(format!(
                "`{}` is not a suite results file (format `{format}`, expected `{RESULTS_FORMAT}`): \
                 compare the `results.json` that `gauntlet eval --suite NAME --out DIR` writes",
                path.display()
            ));
        }
        serde_json::from_value(value).map_err(|e| format!("`{}`: {e}", path.display()))
    }

    /// Episodes that failed or are missing, over every entry.
    pub fn failed(&self) -> usize {
        self.overall.failed
    }
}

fn entry_result(e: &Entry, rows: &[Option<&ItemResult>], wall_time_s: f64) -> EntryResult {
    let n = rows.len();
    let successes = rows.iter().flatten().filter(|r| r.error.is_none() && r.success).count();
    let format_errors = rows.iter().flatten().filter(|r| r.format_error).count();
    let tokens: usize = rows.iter().flatten().map(|r| r.tokens).sum();
    EntryResult {
        entry: e.clone(),
        success: Rate::of(successes, n),
        format_errors: Rate::of(format_errors, n),
        mean_reward: rows.iter().flatten().map(|r| r.reward).sum::<f64>() / n.max(1) as f64,
        tokens,
        mean_tokens: tokens as f64 / n.max(1) as f64,
        wall_time_s,
        failed: rows.iter().filter(|r| r.is_none_or(|r| r.error.is_some())).count(),
        outcomes: rows.iter().map(|r| r.filter(|r| r.error.is_none()).map(|r| u8::from(r.success))).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_points_take_1064_trials() {
        assert_eq!(trials_for_half_width(0.03), 1064);
        let [lo, hi] = wilson_interval(0.5, 1064);
        assert!((hi - lo) / 2.0 <= 0.03);
    }

    #[test]
    fn names_and_versions_resolve() {
        assert_eq!(get("quick").unwrap().id(), "quick@3");
        assert_eq!(get("Quick@3").unwrap().name, "quick");
        let e = get("quick@9").unwrap_err();
        assert!(e.contains("defines `quick@3`"), "{e}");
        let e = get("quik").unwrap_err();
        assert!(e.contains("`quick@3`") && e.contains("`core@3`"), "{e}");
        assert!(listing().contains("quick@3"));
    }

    #[test]
    fn each_chunk_shares_the_time_since_the_previous_one() {
        let item = |task: &str, index| EvalItem { task: task.into(), level: 1, index, sample: 0 };
        let r = |it: &EvalItem| ItemResult {
            task: it.task.clone(),
            level: 1,
            seed: 100 + it.index,
            sample: 0,
            success: true,
            reward: 1.0,
            tokens: 0,
            format_error: false,
            error: None,
            policy: String::new(),
        };
        // Chunks of 3: [a0 a1 b0] [b1].
        let items = [item("a", 0), item("a", 1), item("b", 0), item("b", 1)];
        let mut chunks = Chunks::new(&items, 100, 3);
        let start = Instant::now();
        let at = |ms: u64| start + std::time::Duration::from_millis(ms);
        let mut clock = WallClock { previous: start };
        let mut got: Vec<(String, String, usize)> = Vec::new();
        let mut on = |e: RunEvent<'_>| {
            if let RunEvent::Wall { item, seconds, episodes, .. } = e {
                got.push((item.to_string(), format!("{seconds:.3}"), episodes));
            }
        };
        // The second chunk (another lane) completes first, at 200 ms; the first at 500 ms.
        assert!(chunks.arrive(&r(&items[0])).is_none());
        let done = chunks.arrive(&r(&items[3])).unwrap();
        clock.complete(&done, at(200), &mut on);
        assert!(chunks.arrive(&r(&items[1])).is_none());
        let done = chunks.arrive(&r(&items[2])).unwrap();
        clock.complete(&done, at(500), &mut on);
        let want = [("b", "0.200", 1), ("a", "0.200", 2), ("b", "0.100", 1)];
        assert_eq!(got, want.map(|(i, s, e)| (i.to_string(), s.to_string(), e)));
        // An episode of no chunk (not asked for) counts nowhere.
        assert!(chunks.arrive(&r(&item("c", 0))).is_none());
    }
}
