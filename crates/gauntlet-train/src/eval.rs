//! Held-out evaluation: pass@1, mean@k, pass@k and format-error rate per task.
//!
//! Problem `i` of a task is generated from seed [`HELD_OUT_BASE`]` + i`; training draws its seeds
//! below `2^40`, so evaluation problems are never trained on. Every problem is played `k` times;
//! pass@1 counts the first sample, mean@k averages all `k`, pass@k counts a problem solved when
//! any sample is. The same policy, tasks, `n`, `k` and sampling settings give the same numbers
//! (sampling seeds depend on the problem and sample index only).

use gauntlet_rollout::{play, play_with, Episode, EpisodeSpec, Policy, RolloutError, RolloutOptions};
use serde::{Deserialize, Serialize};

/// First seed of held-out problems (training seeds are below `2^40`).
pub const HELD_OUT_BASE: u64 = 1 << 48;
/// First seed of curriculum probes (held out too, disjoint from the reported evaluation).
pub const PROBE_BASE: u64 = 1 << 52;
/// Training seeds are drawn below this.
pub const TRAIN_SEED_LIMIT: u64 = 1 << 40;

/// Results of one task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskEval {
    /// Task name.
    pub task: String,
    /// Level evaluated.
    pub level: u8,
    /// Problems.
    pub n: usize,
    /// Samples per problem.
    pub k: usize,
    /// Success rate of the first sample.
    pub pass_at_1: f64,
    /// Mean success over all samples.
    pub mean_at_k: f64,
    /// Problems solved by at least one sample.
    pub pass_at_k: f64,
    /// Mean episode return of seat 0.
    pub mean_reward: f64,
    /// Share of episodes with a format error (no parsable answer in some turn).
    pub format_error_rate: f64,
    /// Mean sampled tokens per episode.
    pub mean_response_tokens: f64,
    /// Episodes that failed (policy or environment error), counted as unsolved.
    pub failed: usize,
}

/// Plays `n` held-out problems `k` times for each `(task, level)` and scores them (one policy
/// at every seat; see [`evaluate_vs`] for games against a fixed opponent).
pub fn evaluate(
    policy: &mut dyn Policy,
    tasks: &[(String, u8)],
    n: usize,
    k: usize,
    seed_base: u64,
    opts: &RolloutOptions,
) -> Result<Vec<TaskEval>, RolloutError> {
    evaluate_vs(policy, None, tasks, n, k, seed_base, opts)
}

/// [`evaluate`], with `opponent` (when given) at every seat of a game but the learner's.
///
/// The learner takes seat `i mod seats` in problem `i` (both sides of every position, evenly);
/// an episode is a success when the learner's return beats every other seat's (a win), and the
/// reported reward is the learner's return. Single-agent tasks ignore the opponent.
pub fn evaluate_vs(
    policy: &mut dyn Policy,
    opponent: Option<&mut dyn Policy>,
    tasks: &[(String, u8)],
    n: usize,
    k: usize,
    seed_base: u64,
    opts: &RolloutOptions,
) -> Result<Vec<TaskEval>, RolloutError> {
    let mut specs = Vec::new();
    for (task, level) in tasks {
        let seeds: Vec<u64> = (0..n as u64).map(|i| seed_base + i).collect();
        specs.extend(EpisodeSpec::groups(task, *level, &seeds, k));
    }
    let seats: std::collections::HashMap<String, usize> =
        tasks.iter().map(|(t, _)| (t.clone(), gauntlet_rollout::seats(t))).collect();
    let versus = opponent.is_some();
    let episodes = match opponent {
        Some(opp) => {
            let assign = |spec: &EpisodeSpec, seat: gauntlet_core::AgentId| {
                usize::from(seat.0 != learner_seat(spec, seats[&spec.env]))
            };
            play_with(&specs, &mut [policy, opp], &assign, opts)?
        }
        None => play(&specs, policy, opts)?,
    };
    let outcome = |e: &Episode| learner_outcome(e, seats[&e.spec.env], versus);
    let mut out = Vec::new();
    for (t, chunk) in tasks.iter().zip(episodes.chunks(n * k)) {
        let eps = chunk.len().max(1) as f64;
        let won: Vec<(bool, f64)> = chunk.iter().map(outcome).collect();
        let first = won.chunks(k).filter(|g| g[0].0).count();
        let any = won.chunks(k).filter(|g| g.iter().any(|w| w.0)).count();
        out.push(TaskEval {
            task: t.0.clone(),
            level: t.1,
            n,
            k,
            pass_at_1: first as f64 / n.max(1) as f64,
            mean_at_k: won.iter().filter(|w| w.0).count() as f64 / eps,
            pass_at_k: any as f64 / n.max(1) as f64,
            mean_reward: won.iter().map(|w| w.1).sum::<f64>() / eps,
            format_error_rate: chunk
                .iter()
                .filter(|e| e.turns.iter().any(|t| t.policy == 0 && t.format_error))
                .count() as f64
                / eps,
            mean_response_tokens: chunk
                .iter()
                .map(|e| {
                    e.turns.iter().filter(|t| t.policy == 0).map(|t| t.response_ids.len()).sum::<usize>()
                })
                .sum::<usize>() as f64
                / eps,
            failed: chunk.iter().filter(|e| e.error.is_some()).count(),
        });
    }
    Ok(out)
}

/// Whether an episode counts as a success for the learner, and the learner's return: against a
/// fixed opponent (`versus`) in a game of `seats > 1`, a win (its return beats every other
/// seat's) and its own return; otherwise the environment's success flag and seat 0's return.
pub fn learner_outcome(e: &Episode, seats: usize, versus: bool) -> (bool, f64) {
    let ret = |j: usize| e.returns.get(j).copied().unwrap_or(0.0);
    if versus && seats > 1 {
        let me = learner_seat(&e.spec, seats);
        let best_other = (0..seats).filter(|&j| j != me).map(ret).fold(f64::NEG_INFINITY, f64::max);
        (e.error.is_none() && best_other < ret(me), ret(me))
    } else {
        (e.success, ret(0))
    }
}

/// The seat a learner plays in `spec` against fixed opponents: groups alternate between seats,
/// so every episode of a group (same start, compared by group estimators) has the same role.
pub fn learner_seat(spec: &EpisodeSpec, seats: usize) -> usize {
    spec.group % seats.max(1)
}

/// A markdown table of evaluation results.
pub fn table(rows: &[TaskEval]) -> String {
    let mut s = String::from(
        "| task | level | n | k | pass@1 | mean@k | pass@k | mean reward | format errors | tokens | failed |\n\
         |---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in rows {
        s += &format!(
            "| {} | {} | {} | {} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {:.1} | {} |\n",
            r.task,
            r.level,
            r.n,
            r.k,
            r.pass_at_1,
            r.mean_at_k,
            r.pass_at_k,
            r.mean_reward,
            r.format_error_rate,
            r.mean_response_tokens,
            r.failed
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use gauntlet_rollout::{OraclePolicy, RandomPolicy};

    #[test]
    fn oracle_scores_one_and_random_scores_less() {
        let tasks = vec![("caesar".to_string(), 1), ("countdown".to_string(), 1)];
        let opts = RolloutOptions::default();
        let oracle = evaluate(&mut OraclePolicy::new(0), &tasks, 16, 2, HELD_OUT_BASE, &opts).unwrap();
        assert!(oracle
            .iter()
            .all(|r| r.pass_at_1 == 1.0 && r.mean_at_k == 1.0 && r.format_error_rate == 0.0));
        let random = evaluate(&mut RandomPolicy::new(0), &tasks, 16, 2, HELD_OUT_BASE, &opts).unwrap();
        assert!(random.iter().all(|r| r.mean_at_k < 0.5), "{random:?}");
        assert!(table(&random).contains("| caesar | 1 | 16 | 2 |"));
    }

    #[test]
    fn games_score_the_learner_against_the_opponent_at_both_seats() {
        let tasks = vec![("tic_tac_toe".to_string(), 1)];
        let opts = RolloutOptions::default();
        let eval = |learner: &mut dyn Policy, opp: &mut dyn Policy| {
            evaluate_vs(learner, Some(opp), &tasks, 40, 1, HELD_OUT_BASE, &opts).unwrap().remove(0)
        };
        // Minimax wins most games against random play, from either seat, and never loses.
        let strong = eval(&mut OraclePolicy::new(1), &mut RandomPolicy::new(2));
        assert!(strong.pass_at_1 > 0.6 && strong.mean_reward > 0.5, "{strong:?}");
        // Random play never beats minimax, whichever seat it takes.
        let weak = eval(&mut RandomPolicy::new(3), &mut OraclePolicy::new(4));
        assert_eq!(weak.pass_at_1, 0.0, "{weak:?}");
        assert!(weak.mean_reward < 0.0, "{weak:?}");
        // Learner seats alternate with the problem index.
        let spec = |group| EpisodeSpec { env: "tic_tac_toe".into(), seed: 0, level: 1, group };
        assert_eq!(
            (learner_seat(&spec(0), 2), learner_seat(&spec(1), 2), learner_seat(&spec(5), 1)),
            (0, 1, 0)
        );
    }
}
