//! `gauntlet eval --cross-play A,B,… --tasks GAME,… -n N [--level L] [--out DIR]`: every ordered
//! pair of several policies plays every listed game; a win/draw/loss matrix with 95% Wilson
//! intervals and Bradley–Terry ratings with bootstrap intervals.
//!
//! **Games and seats.** For every game and every ordered pair `(A, B)` of distinct policies, `A`
//! (policy slot 0) plays problem `i` (seed `2^48 + i`, the held-out problems of `gauntlet eval`)
//! at seat `i mod seats` and `B` (slot 1) at every other seat, `i = 0..n`: exactly the episodes of
//! `gauntlet eval --policy A --opponent B`. The pair `(B, A)` plays the same problems with the
//! roles swapped, so over both orders each policy holds each seat of a game equally often (`n`
//! times; recorded as `seats` in `crossplay.json`), and in a two-seat game every problem is
//! played from both sides.
//!
//! **Win, draw, loss.** A policy succeeds in an episode when a seat it holds succeeds by the
//! game's own rule from that seat's side (`Episode::seat_success`, as the kernel's
//! `gauntlet_episode::outcome` reads it: a win in a zero-sum game, its goal in a mixed-motive one
//! such as `stag_hunt`). A game is a win for `A` when `A` succeeds and `B` does not, a loss when
//! `B` succeeds and `A` does not, a draw otherwise (neither, as a drawn or truncated game, or both,
//! as two stag hunters). An episode that failed (a policy error such as an unreachable server) is
//! left out of the counts and reported as `failed`. Games whose seats share a team (cooperative
//! worlds) and one-seat tasks are refused: cross-play rates rivals.
//!
//! **The matrix.** Cell `(row, column)` holds the row policy's wins, draws and losses against
//! the column policy over both orders and every game (and per game), each rate and the score
//! (`(wins + draws/2) / games`) with its 95% Wilson interval (`gauntlet_train::eval::
//! wilson_interval`; for the score, which moves in half steps, the interval is conservative).
//!
//! **Ratings.** [`fit_ratings`] (Bradley–Terry, Elo scale, fitted by maximum likelihood; the
//! formula and method are in its doc) on every game together, and on each game when several are
//! listed. Anchor: `random` at 0 when it is among the policies, else the mean rating at 1000.
//! 95% intervals: percentile bootstrap over games ([`BOOTSTRAP_REPLICATES`] replicates from the
//! fixed seed [`BOOTSTRAP_SEED`]; each replicate redraws, with replacement, the scored games of
//! every game and ordered pair and refits).
//!
//! **Output** (into `--out`): `crossplay.md` (also printed), `crossplay.json` (format
//! `gauntlet-crossplay/1`), `crossplay.svg` (the score matrix as a heat map, one panel per game
//! and one for all games). Every policy samples with the same settings (`--temperature`,
//! `--max-tokens`, `--seed`; scripted policies draw from `--seed`); the same inputs give the same
//! bytes (no timings or dates are written).

use std::path::{Path, PathBuf};

use anyhow::bail;
use gauntlet_core::Rng;
use gauntlet_model::SamplingParams;
use gauntlet_rollout::{Episode, EpisodeSpec, Policy, PolicySpec, RolloutOptions};
use gauntlet_train::eval::{self, wilson_interval};
use gauntlet_train::scorecard::heat;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde::Serialize;

use crate::policy::{HttpArgs, LanePolicies, PlaySettings};

/// Bootstrap replicates of the rating intervals.
pub const BOOTSTRAP_REPLICATES: usize = 1000;

/// Seed of the bootstrap's draws: fixed, so the same games give the same intervals.
pub const BOOTSTRAP_SEED: u64 = 0x0c05_5b1a;

/// Format tag of `crossplay.json`.
pub const FORMAT: &str = "gauntlet-crossplay/1";

/// What a cross-play run plays, settled by `gauntlet eval` from its flags.
pub struct CrossPlay {
    /// The policies, in the order given (at least two, all different).
    pub specs: Vec<PolicySpec>,
    /// The games (two or more seats, no shared teams).
    pub games: Vec<String>,
    /// The level of every game.
    pub level: u8,
    /// Games per ordered pair and game (problems `0..n`).
    pub n: usize,
    /// Sampling of every model policy.
    pub params: SamplingParams,
    /// Sequences a local model samples together.
    pub micro_batch: usize,
    /// Rollout options; `seed` also seeds the scripted policies.
    pub opts: RolloutOptions,
    /// Episodes in flight at once.
    pub concurrency: usize,
    /// CPU threads for local models (0 = all cores).
    pub threads: usize,
    /// The output folder (`None`: [`default_out`]).
    pub out: Option<PathBuf>,
}

/// Runs a cross-play: checks, loads every policy once, plays every game and ordered pair, writes
/// `crossplay.md`, `crossplay.json` and `crossplay.svg` and prints the markdown.
pub fn run(cfg: &CrossPlay, http: &HttpArgs) -> anyhow::Result<()> {
    check(cfg)?;
    let out = cfg.out.clone().unwrap_or_else(|| default_out(cfg));
    let mut pool = load(cfg, http)?;
    let names: Vec<String> = pool.iter().map(|p| p.name.clone()).collect();
    let m = names.len();
    eprintln!(
        "cross-play of {} on {} at level {}: {} ordered pairs × {} games each ({} episodes; temperature {})",
        names.join(", "),
        cfg.games.join(", "),
        cfg.level,
        m * (m - 1),
        cfg.n,
        cfg.games.len() * m * (m - 1) * cfg.n,
        cfg.params.temperature
    );
    let played = play_all(cfg, &mut pool)?;
    for (name, h) in names.iter().zip(&pool).filter_map(|(n, p)| Some((n, p.http.as_ref()?))) {
        let s = h.stats();
        eprintln!(
            "http ({name}): {} requests, {} attempts, {} failed ({} refused by the open circuit breaker)",
            s.requests, s.attempts, s.failed, s.short_circuited
        );
    }
    let report = Report::new(cfg, &names, &played);
    let put = |name: &str, bytes: &[u8]| crate::io::write_atomic(&out.join(name), bytes);
    put("crossplay.json", (serde_json::to_string_pretty(&report)? + "\n").as_bytes())?;
    let md = report.markdown();
    put("crossplay.md", md.as_bytes())?;
    put("crossplay.svg", heatmap_svg(&report).map_err(anyhow::Error::msg)?.as_bytes())?;
    print!("{md}");
    let failed: usize = played.iter().map(|p| p.verdicts.iter().filter(|v| v.is_none()).count()).sum();
    if failed > 0 {
        eprintln!("{failed} episodes failed (a policy error) and are left out of the counts");
    }
    eprintln!("wrote crossplay.md, crossplay.json and crossplay.svg into {}", out.display());
    Ok(())
}

/// Refuses fewer than two policies, a policy listed twice, a bad level or count, and anything
/// but a game of rival seats.
fn check(cfg: &CrossPlay) -> anyhow::Result<()> {
    if cfg.specs.len() < 2 {
        bail!("--cross-play needs at least two policies, e.g. `--cross-play oracle,random`");
    }
    for (i, a) in cfg.specs.iter().enumerate() {
        if cfg.specs[..i].contains(a) {
            bail!("`{a}` is listed twice in --cross-play");
        }
    }
    if !(1..=5).contains(&cfg.level) {
        bail!("--level must be 1..=5, got {}", cfg.level);
    }
    if cfg.n == 0 || cfg.concurrency == 0 {
        bail!("-n and --concurrency must be at least 1");
    }
    if cfg.games.is_empty() {
        bail!("--cross-play needs --tasks GAME[,GAME…] (games of two or more seats)");
    }
    for game in &cfg.games {
        let env = gauntlet_rollout::make_env(game).map_err(anyhow::Error::msg)?;
        let teams = env.teams();
        if teams.len() < 2 {
            bail!("`{game}` has one seat: cross-play needs games of two or more seats (`gauntlet tasks --json` lists them)");
        }
        if (1..teams.len()).any(|i| teams[..i].contains(&teams[i])) {
            bail!(
                "`{game}` is cooperative (its seats share a team): cross-play rates rivals; measure a \
                 pairing with `gauntlet eval --policy A --seat-policy 1=B`"
            );
        }
    }
    Ok(())
}

/// `runs/cross-play/POLICIES/GAMES@LLEVEL`, names made file-safe.
pub fn default_out(cfg: &CrossPlay) -> PathBuf {
    let slug = |s: &str| {
        let mut out = String::new();
        for c in s.chars() {
            let c = if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') { c } else { '_' };
            if !(c == '_' && out.ends_with('_')) {
                out.push(c);
            }
        }
        out.trim_matches('_').to_string()
    };
    let policies: Vec<String> = cfg.specs.iter().map(|s| slug(&s.to_string())).collect();
    let games = format!("{}@L{}", slug(&cfg.games.join("-")), cfg.level);
    Path::new("runs").join("cross-play").join(policies.join("-")).join(games)
}

/// Loads every policy once per lane (see [`crate::policy::lane_count`]).
fn load(cfg: &CrossPlay, http: &HttpArgs) -> anyhow::Result<Vec<LanePolicies>> {
    let count = crate::policy::lane_count(&cfg.specs);
    if cfg.specs.iter().any(PolicySpec::loads_weights) {
        super::compute::setup_compute(cfg.threads)?;
    }
    let settings = PlaySettings {
        params: cfg.params.clone(),
        micro_batch: cfg.micro_batch,
        seed: cfg.opts.seed,
        concurrency: cfg.concurrency,
        http,
    };
    cfg.specs.iter().map(|s| crate::policy::load_lanes(s, None, &settings, count)).collect()
}

/// A game's result from one policy's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// It succeeded and its opponent did not.
    Win,
    /// Both or neither succeeded.
    Draw,
    /// Its opponent succeeded and it did not.
    Loss,
}

impl Verdict {
    /// The result from the other side.
    pub fn flip(self) -> Verdict {
        match self {
            Verdict::Win => Verdict::Loss,
            Verdict::Draw => Verdict::Draw,
            Verdict::Loss => Verdict::Win,
        }
    }
}

/// Whether policy slot `slot` succeeded in `e`: some seat it holds succeeded by the game's own
/// rule (`Episode::seat_success`); for a record without it, the kernel's outcome of the slot.
fn succeeded(e: &Episode, slot: usize) -> bool {
    if e.seat_success.is_empty() {
        return gauntlet_rollout::outcome(e, slot).success;
    }
    e.error.is_none() && e.roster.seats_of(slot).any(|s| e.seat_success.get(s).copied().unwrap_or(false))
}

/// The result of `e` for slot 0 against slot 1, or `None` for a failed episode.
pub fn verdict(e: &Episode) -> Option<Verdict> {
    if e.error.is_some() {
        return None;
    }
    Some(match (succeeded(e, 0), succeeded(e, 1)) {
        (true, false) => Verdict::Win,
        (false, true) => Verdict::Loss,
        _ => Verdict::Draw,
    })
}

/// The games of one ordered pair on one game.
struct Played {
    /// Index into the games.
    game: usize,
    /// The policy at seat `problem mod seats` (slot 0).
    first: usize,
    /// The policy at the other seats (slot 1).
    second: usize,
    /// Problem `i`'s result for `first` (`None`: failed).
    verdicts: Vec<Option<Verdict>>,
    /// Episodes in which `first` (index 0) and `second` (index 1) held each seat.
    seats: [Vec<usize>; 2],
}

/// Plays every game and ordered pair, in that order.
fn play_all(cfg: &CrossPlay, pool: &mut [LanePolicies]) -> anyhow::Result<Vec<Played>> {
    let m = pool.len();
    let pb = crate::progress::bar((cfg.games.len() * m * (m - 1) * cfg.n) as u64, "cross-play");
    let assign = |spec: &EpisodeSpec, seat: gauntlet_core::AgentId| {
        eval::versus_slot(spec, seat, gauntlet_rollout::seats(&spec.env))
    };
    let mut out = Vec::new();
    for (g, game) in cfg.games.iter().enumerate() {
        let items = eval::items(&[(game.clone(), cfg.level)], cfg.n, 1);
        let seats = gauntlet_rollout::seats(game);
        for (first, second) in (0..m).flat_map(|a| (0..m).map(move |b| (a, b))).filter(|(a, b)| a != b) {
            let mut p = Played {
                game: g,
                first,
                second,
                verdicts: vec![None; cfg.n],
                seats: [vec![0; seats], vec![0; seats]],
            };
            let mut tables = pair_tables(pool, first, second);
            eval::run_seated(
                &mut tables,
                &items,
                eval::HELD_OUT_BASE,
                cfg.concurrency,
                &cfg.opts,
                &assign,
                &mut |it, e| {
                    p.verdicts[it.index as usize] = verdict(&e);
                    for (slot, counts) in p.seats.iter_mut().enumerate() {
                        e.roster.seats_of(slot).for_each(|s| counts[s] += 1);
                    }
                    pb.inc(1);
                },
            )?;
            out.push(p);
        }
    }
    pb.finish_and_clear();
    Ok(out)
}

/// The lanes of the pair `(a, b)`: per lane, `a`'s copy (slot 0) and `b`'s (slot 1).
fn pair_tables(pool: &mut [LanePolicies], a: usize, b: usize) -> Vec<Vec<&mut (dyn Policy + Send)>> {
    let (pa, pb) = if a < b {
        let (lo, hi) = pool.split_at_mut(b);
        (&mut lo[a], &mut hi[0])
    } else {
        let (lo, hi) = pool.split_at_mut(a);
        (&mut hi[0], &mut lo[b])
    };
    pa.lanes
        .iter_mut()
        .zip(pb.lanes.iter_mut())
        .map(|(x, y)| -> Vec<&mut (dyn Policy + Send)> { vec![x.as_mut(), y.as_mut()] })
        .collect()
}

/// Wins, draws and losses of one policy against another (or a total), and failed episodes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Games won.
    pub wins: usize,
    /// Games drawn.
    pub draws: usize,
    /// Games lost.
    pub losses: usize,
    /// Episodes that failed (left out of the other counts).
    pub failed: usize,
}

impl Tally {
    /// Counts one result (`None`: a failed episode).
    pub fn add(&mut self, v: Option<Verdict>) {
        match v {
            Some(Verdict::Win) => self.wins += 1,
            Some(Verdict::Draw) => self.draws += 1,
            Some(Verdict::Loss) => self.losses += 1,
            None => self.failed += 1,
        }
    }

    /// Adds another tally.
    fn merge(&mut self, o: &Tally) {
        self.wins += o.wins;
        self.draws += o.draws;
        self.losses += o.losses;
        self.failed += o.failed;
    }

    /// Scored games.
    pub fn games(&self) -> usize {
        self.wins + self.draws + self.losses
    }

    /// Points: wins + draws/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// Points per game (0.5 with no games).
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            0.5
        } else {
            self.points() / self.games() as f64
        }
    }

    /// `W–D–L`.
    fn wdl(&self) -> String {
        format!("{}–{}–{}", self.wins, self.draws, self.losses)
    }
}

/// A square matrix of tallies: `[row][column]`, the row policy's side.
type Matrix = Vec<Vec<Tally>>;

/// A rate and its 95% Wilson interval.
#[derive(Debug, Clone, Copy, Serialize)]
struct Rate {
    rate: f64,
    ci95: [f64; 2],
}

impl Rate {
    fn of(count: f64, games: usize) -> Rate {
        let rate = if games == 0 { 0.0 } else { count / games as f64 };
        Rate { rate, ci95: wilson_interval(rate, games) }
    }

    fn show(&self) -> String {
        eval::rate_with_interval(self.rate, self.ci95)
    }
}

/// One cell of a matrix in `crossplay.json`.
#[derive(Debug, Serialize)]
struct Cell {
    policy: String,
    opponent: String,
    games: usize,
    #[serde(flatten)]
    tally: Tally,
    win: Rate,
    draw: Rate,
    loss: Rate,
    score: Rate,
}

impl Cell {
    fn new(policy: &str, opponent: &str, t: &Tally) -> Cell {
        let g = t.games();
        Cell {
            policy: policy.into(),
            opponent: opponent.into(),
            games: g,
            tally: *t,
            win: Rate::of(t.wins as f64, g),
            draw: Rate::of(t.draws as f64, g),
            loss: Rate::of(t.losses as f64, g),
            score: Rate::of(t.points(), g),
        }
    }
}

/// One game's matrix (or all games'), with its ratings.
#[derive(Debug, Serialize)]
struct Section {
    /// `tic_tac_toe@L5`, or `all games`.
    title: String,
    /// The game, or `null` for all games together.
    game: Option<String>,
    /// Every ordered pair of different policies, row-major.
    cells: Vec<Cell>,
    ratings: Vec<Rating>,
    #[serde(skip)]
    matrix: Matrix,
}

/// A policy's rating in `crossplay.json`.
#[derive(Debug, Serialize)]
struct Rating {
    policy: String,
    /// Elo scale, rounded to 0.1.
    rating: f64,
    /// 95% bootstrap interval (`[0, 0]` for the anchor).
    ci95: [f64; 2],
    games: usize,
    #[serde(flatten)]
    tally: Tally,
    score: f64,
}

/// One game and ordered pair in `crossplay.json`.
#[derive(Debug, Serialize)]
struct Order {
    game: String,
    first: String,
    second: String,
    #[serde(flatten)]
    tally: Tally,
}

/// Everything a cross-play writes (`crossplay.json`).
#[derive(Debug, Serialize)]
struct Report {
    format: &'static str,
    policies: Vec<String>,
    games: Vec<String>,
    level: u8,
    n: usize,
    settings: serde_json::Value,
    /// `random = 0` or `mean = 1000`.
    anchor: String,
    rating_model: &'static str,
    bootstrap: serde_json::Value,
    /// Per game: per policy, episodes in which it held each seat.
    seats: Vec<serde_json::Value>,
    /// Per game and ordered pair, the first policy's (seat `problem mod seats`) results against
    /// the second: the episodes of `gauntlet eval --policy FIRST --opponent SECOND`.
    orders: Vec<Order>,
    /// All games first, then each game (when several).
    sections: Vec<Section>,
}

/// The tallies of one game (`Some(g)`) or of all games.
fn matrix(played: &[Played], m: usize, game: Option<usize>) -> Matrix {
    let mut mat = vec![vec![Tally::default(); m]; m];
    for p in played.iter().filter(|p| game.is_none_or(|g| p.game == g)) {
        for v in &p.verdicts {
            mat[p.first][p.second].add(*v);
            mat[p.second][p.first].add(v.map(Verdict::flip));
        }
    }
    mat
}

/// The points of a matrix, as [`fit_ratings`] takes them.
fn points(mat: &Matrix) -> Vec<Vec<f64>> {
    mat.iter().map(|row| row.iter().map(Tally::points).collect()).collect()
}

impl Report {
    fn new(cfg: &CrossPlay, names: &[String], played: &[Played]) -> Report {
        let m = names.len();
        let anchor = cfg.specs.iter().position(|s| *s == PolicySpec::Random);
        let mut scopes = vec![None];
        if cfg.games.len() > 1 {
            scopes.extend((0..cfg.games.len()).map(Some));
        }
        let intervals = bootstrap(played, m, cfg.games.len(), &scopes, anchor);
        let sections = scopes
            .iter()
            .zip(intervals)
            .map(|(&scope, ci)| {
                let mat = matrix(played, m, scope);
                let (title, game) = match scope {
                    None if cfg.games.len() == 1 => {
                        (format!("{}@L{}", cfg.games[0], cfg.level), Some(cfg.games[0].clone()))
                    }
                    None => ("all games".to_string(), None),
                    Some(g) => (format!("{}@L{}", cfg.games[g], cfg.level), Some(cfg.games[g].clone())),
                };
                section(names, title, game, mat, anchor, &ci)
            })
            .collect();
        Report {
            format: FORMAT,
            policies: names.to_vec(),
            games: cfg.games.clone(),
            level: cfg.level,
            n: cfg.n,
            settings: serde_json::json!({
                "temperature": cfg.params.temperature,
                "max_tokens": cfg.params.max_tokens,
                "seed": cfg.opts.seed,
                "history": format!("{:?}", cfg.opts.history).to_lowercase(),
            }),
            anchor: match anchor {
                Some(a) => format!("{} = 0", names[a]),
                None => "mean = 1000".into(),
            },
            rating_model: "Bradley-Terry, Elo scale: P(i beats j) = 1 / (1 + 10^((R_j - R_i) / 400)); \
                           draws half a win each way; one virtual draw per pair",
            bootstrap: serde_json::json!({ "replicates": BOOTSTRAP_REPLICATES, "seed": BOOTSTRAP_SEED }),
            seats: seat_counts(cfg, names, played),
            orders: played
                .iter()
                .map(|p| {
                    let mut tally = Tally::default();
                    p.verdicts.iter().for_each(|v| tally.add(*v));
                    let (game, first, second) =
                        (cfg.games[p.game].clone(), names[p.first].clone(), names[p.second].clone());
                    Order { game, first, second, tally }
                })
                .collect(),
            sections,
        }
    }
}

/// Per game, the episodes in which each policy held each seat (over both orders of every pair).
fn seat_counts(cfg: &CrossPlay, names: &[String], played: &[Played]) -> Vec<serde_json::Value> {
    (0..cfg.games.len())
        .map(|g| {
            let mut per: Vec<Vec<usize>> = vec![vec![0; gauntlet_rollout::seats(&cfg.games[g])]; names.len()];
            for p in played.iter().filter(|p| p.game == g) {
                for (side, policy) in [p.first, p.second].into_iter().enumerate() {
                    per[policy].iter_mut().zip(&p.seats[side]).for_each(|(a, b)| *a += b);
                }
            }
            let by_policy: serde_json::Map<String, serde_json::Value> =
                names.iter().zip(per).map(|(n, c)| (n.clone(), serde_json::json!(c))).collect();
            serde_json::json!({ "game": cfg.games[g], "seats": by_policy })
        })
        .collect()
}

/// One matrix section: its cells and its ratings (`ci`: each policy's bootstrap interval).
fn section(
    names: &[String],
    title: String,
    game: Option<String>,
    mat: Matrix,
    anchor: Option<usize>,
    ci: &[[f64; 2]],
) -> Section {
    let m = names.len();
    let cells = (0..m)
        .flat_map(|i| (0..m).filter(move |&j| j != i).map(move |j| (i, j)))
        .map(|(i, j)| Cell::new(&names[i], &names[j], &mat[i][j]))
        .collect();
    let fitted = anchored(&fit_ratings(&points(&mat)), anchor);
    let ratings = (0..m)
        .map(|i| {
            let mut total = Tally::default();
            mat[i].iter().for_each(|t| total.merge(t));
            Rating {
                policy: names[i].clone(),
                rating: round1(fitted[i]),
                ci95: [round1(ci[i][0]), round1(ci[i][1])],
                games: total.games(),
                tally: total,
                score: total.score(),
            }
        })
        .collect();
    Section { title, game, cells, ratings, matrix: mat }
}

/// `x` rounded to one decimal (ratings: no spurious digits, and the same bytes wherever `ln` and
/// `exp` differ in their last bit). Zero is written as `0.0`, never `-0.0`.
fn round1(x: f64) -> f64 {
    let r = (x * 10.0).round() / 10.0;
    if r == 0.0 {
        0.0
    } else {
        r
    }
}

/// Newton steps of [`fit_ratings`] at most (it converges in a few dozen).
const FIT_MAX_STEPS: usize = 200;

/// Bradley–Terry ratings on the Elo scale, by maximum likelihood.
///
/// `points[i][j]` is what policy `i` scored against `j` (wins + draws/2), so `points_ij +
/// points_ji` is the number of games between them. The model: `i` beats `j` with probability
/// `P_ij = 1 / (1 + 10^((R_j − R_i) / 400))` (400 points are odds of 10 to 1); a draw counts as
/// half a win each way, so the log-likelihood is `ℓ(R) = Σ_{i≠j} points_ij · ln P_ij`. One
/// virtual drawn game is added between every two policies (`points_ij += ½` each way), a weak
/// prior that keeps the ratings finite when a policy won or lost every game (the plain maximum is
/// then at infinity) and matters less the more games were played; with it, two policies that
/// scored `a` and `b` against each other are `400 · log10((a + ½)/(b + ½))` apart.
///
/// Fitting: `ℓ` is concave in `θ = R · ln 10 / 400`, and strictly so once the mean is fixed (the
/// virtual games connect every pair), so it has one maximum. Newton's method finds it: from
/// `θ = 0`, the step `Δ` solves `(L + 1·1ᵀ) Δ = ∇ℓ`, where `∇ℓ_i = Σ_j (s_ij − n_ij · P_ij)` and
/// `L` is the Laplacian of the weights `n_ij · P_ij · (1 − P_ij)` (`s` the points and `n` the
/// games, virtual ones included; `1·1ᵀ` fixes the mean, which the step leaves at 0), halved until
/// `ℓ` does not decrease, repeated until no `θ_i` moves by more than `1e-12` (at most
/// [`FIT_MAX_STEPS`] steps). Ratings are returned with mean 0 (only differences are identified;
/// [`anchored`] places them).
pub fn fit_ratings(points: &[Vec<f64>]) -> Vec<f64> {
    let m = points.len();
    if m < 2 {
        return vec![0.0; m];
    }
    let s = |i: usize, j: usize| points[i][j] + 0.5;
    let p = |theta: &[f64], i: usize, j: usize| 1.0 / (1.0 + (theta[j] - theta[i]).exp());
    let loglik = |theta: &[f64]| -> f64 {
        let ln_p = |x: f64| if x > 0.0 { -(-x).exp().ln_1p() } else { x - x.exp().ln_1p() };
        (0..m)
            .flat_map(|i| (0..m).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| s(i, j) * ln_p(theta[i] - theta[j]))
            .sum()
    };
    let mut theta = vec![0.0f64; m];
    for _ in 0..FIT_MAX_STEPS {
        let mut grad = vec![0.0; m];
        let mut a = vec![vec![1.0; m]; m];
        for i in 0..m {
            for j in (0..m).filter(|&j| j != i) {
                let (n, pij) = (s(i, j) + s(j, i), p(&theta, i, j));
                grad[i] += s(i, j) - n * pij;
                let w = n * pij * (1.0 - pij);
                a[i][i] += w;
                a[i][j] -= w;
            }
        }
        let step = solve(a, grad);
        let before = loglik(&theta);
        let mut t = 1.0;
        let mut next: Vec<f64> = theta.iter().zip(&step).map(|(x, d)| x + d).collect();
        while loglik(&next) < before && t > 1e-9 {
            t /= 2.0;
            next = theta.iter().zip(&step).map(|(x, d)| x + t * d).collect();
        }
        let moved = next.iter().zip(&theta).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        theta = next;
        if moved < 1e-12 {
            break;
        }
    }
    let mean = theta.iter().sum::<f64>() / m as f64;
    theta.iter().map(|t| 400.0 * (t - mean) / std::f64::consts::LN_10).collect()
}

/// Solves `a · x = b` by Gaussian elimination with partial pivoting (`a` small and positive
/// definite here).
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let m = b.len();
    for col in 0..m {
        let pivot = (col..m).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs())).unwrap_or(col);
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..m {
            let f = a[row][col] / a[col][col];
            for k in col..m {
                a[row][k] -= f * a[col][k];
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = vec![0.0; m];
    for row in (0..m).rev() {
        let tail: f64 = (row + 1..m).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - tail) / a[row][row];
    }
    x
}

/// Ratings shifted so that policy `anchor` (`random`) is at 0, or, without one, the mean is at
/// 1000.
pub fn anchored(raw: &[f64], anchor: Option<usize>) -> Vec<f64> {
    let shift = match anchor {
        Some(a) => -raw[a],
        None => 1000.0 - raw.iter().sum::<f64>() / raw.len().max(1) as f64,
    };
    raw.iter().map(|r| r + shift).collect()
}

/// 95% percentile-bootstrap intervals of the anchored ratings of every scope (`None`: all games;
/// `Some(g)`: game `g`): each replicate redraws, with replacement, the scored games of every
/// game and ordered pair (as many as were scored) and refits.
fn bootstrap(
    played: &[Played],
    m: usize,
    n_games: usize,
    scopes: &[Option<usize>],
    anchor: Option<usize>,
) -> Vec<Vec<[f64; 2]>> {
    let mut rng = Rng::new(BOOTSTRAP_SEED);
    let strata: Vec<(&Played, Vec<Verdict>)> =
        played.iter().map(|p| (p, p.verdicts.iter().flatten().copied().collect())).collect();
    // draws[scope][policy]: the replicates' ratings.
    let mut draws = vec![vec![Vec::with_capacity(BOOTSTRAP_REPLICATES); m]; scopes.len()];
    for _ in 0..BOOTSTRAP_REPLICATES {
        let mut per_game = vec![vec![vec![Tally::default(); m]; m]; n_games];
        for (p, scored) in &strata {
            for _ in 0..scored.len() {
                let v = scored[rng.index(scored.len())];
                per_game[p.game][p.first][p.second].add(Some(v));
                per_game[p.game][p.second][p.first].add(Some(v.flip()));
            }
        }
        for (s, scope) in scopes.iter().enumerate() {
            let mat = match scope {
                Some(g) => per_game[*g].clone(),
                None => {
                    let mut all = vec![vec![Tally::default(); m]; m];
                    for g in &per_game {
                        all.iter_mut().flatten().zip(g.iter().flatten()).for_each(|(a, b)| a.merge(b));
                    }
                    all
                }
            };
            let r = anchored(&fit_ratings(&points(&mat)), anchor);
            draws[s].iter_mut().zip(r).for_each(|(d, x)| d.push(x));
        }
    }
    draws
        .into_iter()
        .map(|scope| scope.into_iter().map(|mut d| percentile_interval(&mut d)).collect())
        .collect()
}

/// The 2.5th and 97.5th percentiles (nearest rank) of `x`.
fn percentile_interval(x: &mut [f64]) -> [f64; 2] {
    if x.is_empty() {
        return [0.0, 0.0];
    }
    x.sort_by(f64::total_cmp);
    let at = |q: f64| x[((x.len() - 1) as f64 * q).round() as usize];
    [at(0.025), at(0.975)]
}

impl Report {
    /// `crossplay.md`.
    fn markdown(&self) -> String {
        let mut s = format!(
            "# Cross-play: {} on {}\n\n",
            self.policies.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", "),
            self.games.iter().map(|g| format!("{g}@L{}", self.level)).collect::<Vec<_>>().join(", ")
        );
        s += &format!(
            "{} games per ordered pair and game ({} between two policies per game); {}.\n\n",
            self.n,
            2 * self.n,
            settings_line(&self.settings)
        );
        s += "The first policy of an ordered pair sits at seat `problem mod seats`, the second at every \
              other seat, so over both orders each policy holds each seat equally often. A game is a \
              win for a policy when it succeeds by the game's own rule from its side and its opponent \
              does not, a loss the other way round, a draw otherwise; failed episodes are left out.\n\n";
        for sec in &self.sections {
            s += &self.ratings_markdown(sec);
            s += &self.matrix_markdown(sec);
        }
        s
    }

    /// The ratings table of a section, strongest first.
    fn ratings_markdown(&self, sec: &Section) -> String {
        let mut s = format!("## Ratings: {}\n\n", sec.title);
        s += &format!(
            "Bradley–Terry maximum-likelihood ratings on the Elo scale (400 points: odds of 10 to 1; \
             draws count half a win each way; one virtual draw per pair), anchored at {}. 95% \
             intervals: percentile bootstrap over games ({} replicates).\n\n",
            self.anchor, BOOTSTRAP_REPLICATES
        );
        s += "| policy | rating | 95% interval | score | games | wins–draws–losses |\n|---|---|---|---|---|---|\n";
        let mut order: Vec<&Rating> = sec.ratings.iter().collect();
        order.sort_by(|a, b| b.rating.total_cmp(&a.rating));
        for r in order {
            let ci = if r.ci95 == [r.rating, r.rating] && self.anchor.starts_with(&format!("{} ", r.policy)) {
                "(anchor)".to_string()
            } else {
                format!("[{:.1}, {:.1}]", r.ci95[0], r.ci95[1])
            };
            s += &format!(
                "| {} | {:.1} | {ci} | {:.3} | {} | {} |\n",
                r.policy,
                r.rating,
                r.score,
                r.games,
                r.tally.wdl()
            );
        }
        s + "\n"
    }

    /// The score matrix and the per-pair rates of a section.
    fn matrix_markdown(&self, sec: &Section) -> String {
        let mut s = format!(
            "## Matrix: {} (row against column)\n\nEach cell: the row policy's score against the column \
             policy (wins + draws/2, per game) with its 95% Wilson interval, then wins–draws–losses.\n\n",
            sec.title
        );
        s += &format!("| | {} |\n", self.policies.join(" | "));
        s += &format!("|---|{}\n", "---|".repeat(self.policies.len()));
        for (i, row) in self.policies.iter().enumerate() {
            s += &format!("| **{row}** |");
            for (j, t) in sec.matrix[i].iter().enumerate() {
                if i == j {
                    s += " — |";
                } else {
                    s += &format!(" {} · {} |", Rate::of(t.points(), t.games()).show(), t.wdl());
                }
            }
            s += "\n";
        }
        s += "\n| policy | opponent | games | win | draw | loss | score | failed |\n|---|---|---|---|---|---|---|---|\n";
        for c in &sec.cells {
            s += &format!(
                "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
                c.policy,
                c.opponent,
                c.games,
                c.win.show(),
                c.draw.show(),
                c.loss.show(),
                c.score.show(),
                c.tally.failed
            );
        }
        s + "\n"
    }
}

/// `temperature 1, max tokens 256, seed 0, history window(0)`.
fn settings_line(settings: &serde_json::Value) -> String {
    format!(
        "temperature {}, max tokens {}, seed {}, history {}",
        settings["temperature"],
        settings["max_tokens"],
        settings["seed"],
        settings["history"].as_str().unwrap_or("")
    )
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

fn plot_err<E: std::fmt::Display>(e: E) -> String {
    format!("plot: {e}")
}

fn text(area: &Area, s: &str, (x, y): (i32, i32), size: u32, h: HPos) -> Result<(), String> {
    let style = TextStyle::from(("sans-serif", size).into_font()).color(&INK).pos(Pos::new(h, VPos::Center));
    area.draw(&Text::new(s.to_string(), (x, y), style)).map_err(plot_err)
}

fn rect(area: &Area, (x0, y0): (i32, i32), (x1, y1): (i32, i32), color: RGBColor) -> Result<(), String> {
    area.draw(&Rectangle::new([(x0, y0), (x1, y1)], color.filled())).map_err(plot_err)
}

const INK: RGBColor = RGBColor(40, 40, 40);

/// Column letters of the heat map: `A`, `B`, …, then numbers past 26 policies.
fn column_label(j: usize) -> String {
    if j < 26 {
        char::from(b'A' + j as u8).to_string()
    } else {
        (j + 1).to_string()
    }
}

/// `crossplay.svg`: each section's score matrix (row policy against column policy), red (0) to
/// green (1), with the score and wins–draws–losses in every cell; panels three to a row.
fn heatmap_svg(r: &Report) -> Result<String, String> {
    let m = r.policies.len() as i32;
    let longest = r.policies.iter().map(|p| p.chars().count()).max().unwrap_or(0) as i32;
    let (name_w, cell_w, cell_h) = ((longest * 7 + 40).clamp(90, 320), 86, 40);
    let panel_w = name_w + cell_w * m + 30;
    let panel_h = 40 + cell_h * m + 30;
    let per_row = r.sections.len().min(3) as i32;
    let rows = (r.sections.len() as i32 + per_row - 1) / per_row;
    let (top, width) = (84, (panel_w * per_row + 20).max(720));
    let height = top + panel_h * rows;
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (width as u32, height as u32)).into_drawing_area();
        area.fill(&WHITE).map_err(plot_err)?;
        let title = format!(
            "Cross-play at level {}: the row policy's score against the column (wins + draws/2)",
            r.level
        );
        text(&area, &title, (10, 16), 15, HPos::Left)?;
        for i in 0..=10 {
            rect(&area, (10 + i * 18, 32), (28 + i * 18, 44), heat(i as f64 / 10.0))?;
        }
        text(&area, "0", (10, 54), 10, HPos::Left)?;
        text(&area, "1", (10 + 11 * 18, 54), 10, HPos::Right)?;
        text(&area, "columns: the policies in row order (A, B, …)", (230, 38), 11, HPos::Left)?;
        let note = format!("in brackets: each policy's rating (Bradley–Terry, Elo scale, {})", r.anchor);
        text(&area, &note, (10, 68), 11, HPos::Left)?;
        for (k, sec) in r.sections.iter().enumerate() {
            let (x0, y0) = ((k as i32 % per_row) * panel_w + 10, top + (k as i32 / per_row) * panel_h);
            heatmap_panel(&area, r, sec, (x0, y0), (name_w, cell_w, cell_h))?;
        }
        area.present().map_err(plot_err)?;
    }
    Ok(svg)
}

/// One section's panel of [`heatmap_svg`] at `(x0, y0)`.
fn heatmap_panel(
    area: &Area,
    r: &Report,
    sec: &Section,
    (x0, y0): (i32, i32),
    (name_w, cell_w, cell_h): (i32, i32, i32),
) -> Result<(), String> {
    text(area, &sec.title, (x0, y0 + 10), 13, HPos::Left)?;
    let top = y0 + 40;
    for (j, _) in r.policies.iter().enumerate() {
        let x = x0 + name_w + j as i32 * cell_w + cell_w / 2;
        text(area, &column_label(j), (x, top - 10), 12, HPos::Center)?;
    }
    for (i, row) in r.policies.iter().enumerate() {
        let y = top + i as i32 * cell_h;
        let rating = sec.ratings[i].rating;
        text(
            area,
            &format!("{} {row} ({rating:.0})", column_label(i)),
            (x0 + name_w - 8, y + cell_h / 2),
            11,
            HPos::Right,
        )?;
        for (j, t) in sec.matrix[i].iter().enumerate() {
            let x = x0 + name_w + j as i32 * cell_w;
            if i == j {
                rect(area, (x + 1, y + 1), (x + cell_w - 1, y + cell_h - 1), RGBColor(235, 235, 235))?;
                continue;
            }
            rect(area, (x + 1, y + 1), (x + cell_w - 1, y + cell_h - 1), heat(t.score()))?;
            text(area, &format!("{:.2}", t.score()), (x + cell_w / 2, y + cell_h / 2 - 7), 12, HPos::Center)?;
            text(area, &t.wdl(), (x + cell_w / 2, y + cell_h / 2 + 9), 9, HPos::Center)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_policies_are_the_log_odds_of_their_score_apart() {
        // The known answer: 400 · log10((a + ½)/(b + ½)), the virtual draw included.
        for (a, b) in [(30.0, 10.0), (7.5, 2.5), (100.0, 0.0), (3.0, 3.0), (0.0, 0.0)] {
            let r = fit_ratings(&[vec![0.0, a], vec![b, 0.0]]);
            let want = 400.0 * ((a + 0.5) / (b + 0.5)).log10();
            assert!((r[0] - r[1] - want).abs() < 1e-9, "{a}:{b}: {r:?}, want a gap of {want}");
            assert!((r[0] + r[1]).abs() < 1e-9, "mean 0: {r:?}");
        }
    }

    #[test]
    fn symmetric_results_give_equal_ratings() {
        // Three policies, each scoring 6 of 10 against the next: a cycle, so all equal.
        let p = vec![vec![0.0, 6.0, 4.0], vec![4.0, 0.0, 6.0], vec![6.0, 4.0, 0.0]];
        let r = fit_ratings(&p);
        assert!(r.iter().all(|x| x.abs() < 1e-9), "{r:?}");
        assert_eq!(anchored(&r, None).iter().map(|x| x.round()).collect::<Vec<_>>(), [1000.0; 3]);
        // Swapping two policies' results swaps their ratings.
        let q = vec![vec![0.0, 7.0, 9.0], vec![3.0, 0.0, 5.0], vec![1.0, 5.0, 0.0]];
        let swapped = vec![vec![0.0, 9.0, 7.0], vec![1.0, 0.0, 5.0], vec![3.0, 5.0, 0.0]];
        let (a, b) = (fit_ratings(&q), fit_ratings(&swapped));
        assert!((a[1] - b[2]).abs() < 1e-9 && (a[2] - b[1]).abs() < 1e-9 && (a[0] - b[0]).abs() < 1e-9);
    }

    #[test]
    fn a_dominated_policy_is_rated_lower_and_the_anchor_holds() {
        // 0 beats 1 and 2; 1 beats 2; 2 (random) scores little.
        let p = vec![vec![0.0, 15.0, 19.0], vec![5.0, 0.0, 14.0], vec![1.0, 6.0, 0.0]];
        let r = anchored(&fit_ratings(&p), Some(2));
        assert!(r[0] > r[1] && r[1] > r[2], "{r:?}");
        assert_eq!(r[2], 0.0);
        // The fit is the maximum: expected scores match the observed ones (virtual draws included).
        let e = |i: usize, j: usize| 21.0 / (1.0 + 10f64.powf((r[j] - r[i]) / 400.0));
        for i in 0..3 {
            let expected: f64 = (0..3).filter(|&j| j != i).map(|j| e(i, j)).sum();
            let observed: f64 = (0..3).filter(|&j| j != i).map(|j| p[i][j] + 0.5).sum();
            assert!((expected - observed).abs() < 1e-9, "policy {i}: {expected} vs {observed}");
        }
        // A clean sweep of eight policies (each beats every later one 199 to 1) stays finite and
        // in order, and is fitted in a few Newton steps.
        let m = 8;
        let sweep: Vec<Vec<f64>> = (0..m)
            .map(|i| {
                (0..m)
                    .map(|j| {
                        if i == j {
                            0.0
                        } else if i < j {
                            199.0
                        } else {
                            1.0
                        }
                    })
                    .collect()
            })
            .collect();
        let r = fit_ratings(&sweep);
        assert!(r.windows(2).all(|w| w[0] > w[1] && w[0].is_finite()), "{r:?}");
    }

    #[test]
    fn the_fit_and_the_bootstrap_are_deterministic() {
        let played = vec![
            Played {
                game: 0,
                first: 0,
                second: 1,
                verdicts: [Verdict::Win, Verdict::Draw, Verdict::Loss, Verdict::Win].map(Some).to_vec(),
                seats: [vec![2, 2], vec![2, 2]],
            },
            Played {
                game: 0,
                first: 1,
                second: 0,
                verdicts: vec![Some(Verdict::Loss), None],
                seats: [vec![1, 0], vec![0, 1]],
            },
        ];
        let a = bootstrap(&played, 2, 1, &[None], Some(1));
        let b = bootstrap(&played, 2, 1, &[None], Some(1));
        assert_eq!(a, b);
        assert_eq!(a[0][1], [0.0, 0.0], "the anchor does not move");
        let [lo, hi] = a[0][0];
        let point = anchored(&fit_ratings(&points(&matrix(&played, 2, None))), Some(1))[0];
        assert!(lo <= point && point <= hi && lo < hi, "{lo} {point} {hi}");
        let t = matrix(&played, 2, None)[0][1];
        assert_eq!((t.wins, t.draws, t.losses, t.failed), (3, 1, 1, 1));
    }

    #[test]
    fn verdicts_flip_and_score() {
        assert_eq!(Verdict::Win.flip(), Verdict::Loss);
        assert_eq!(Verdict::Draw.flip(), Verdict::Draw);
        let mut t = Tally::default();
        [Some(Verdict::Win), Some(Verdict::Draw), None].into_iter().for_each(|v| t.add(v));
        assert_eq!((t.games(), t.points(), t.score()), (2, 1.5, 0.75));
    }
}
