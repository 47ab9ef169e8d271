//! The `mars` estimator (turn-level advantages normalised per (task, role)): golden vectors from
//! `tools/golden_mars.py` (`tests/fixtures/mars.json`), a slow oracle on random self-play
//! batches, and the properties that make it per-role.

use gauntlet_algos::advantage::gigpo::discounted_turn_returns;
use gauntlet_algos::advantage::grpo::grpo_outcome;
use gauntlet_algos::advantage::{group_ids, AdvantageBatch, AdvantageConfig, AdvantageEstimator, TurnInfo};
use serde_json::Value;

use crate::util::*;

fn keys(rows: &[Value], key: &str) -> Vec<usize> {
    group_ids(rows.iter().map(|r| r[key].to_string()))
}

/// A batch from fixture rows: `group`, `task`, `seat`, `role`, `trajectory`, `turn`,
/// `step_reward`, `mask`.
fn batch_of(rows: &[Value]) -> AdvantageBatch {
    let masks = rows.iter().map(|r| f64s(&r["mask"])).collect();
    let mut b = AdvantageBatch::new(keys(rows, "group"), vec![0.0; rows.len()], masks);
    b.seats = Some(rows.iter().map(|r| r["seat"].as_u64().unwrap() as usize).collect());
    b.roles = Some(keys(rows, "role"));
    b.tasks = Some(keys(rows, "task"));
    b.turns = Some(TurnInfo {
        trajectories: keys(rows, "trajectory"),
        turns: rows.iter().map(|r| r["turn"].as_i64().unwrap()).collect(),
        anchors: vec![0; rows.len()],
        step_rewards: rows.iter().map(|r| r["step_reward"].as_f64().unwrap()).collect(),
    });
    b
}

fn config_of(c: &Value) -> AdvantageConfig {
    let mut cfg = AdvantageConfig::default();
    cfg.gamma = c.get("gamma").and_then(Value::as_f64).unwrap_or(cfg.gamma);
    cfg.epsilon = c.get("epsilon").and_then(Value::as_f64).unwrap_or(cfg.epsilon);
    cfg.norm_by_std = c.get("norm_by_std").and_then(Value::as_bool).unwrap_or(cfg.norm_by_std);
    cfg
}

fn sequence(b: &AdvantageBatch, cfg: &AdvantageConfig) -> Vec<f64> {
    let out = AdvantageEstimator::Mars.compute(b, cfg).unwrap();
    // One value per row, tiled over the row's mask.
    out.advantages
        .iter()
        .zip(&b.masks)
        .map(|(a, m)| {
            let first = m.iter().position(|&x| x > 0.0).map_or(0.0, |t| a[t]);
            assert!(a.iter().zip(m).all(|(x, mm)| *x == first * mm), "not tiled: {a:?} over {m:?}");
            first
        })
        .collect()
}

#[test]
fn mars_matches_the_reference_formulas() {
    let fx = fixture("mars.json");
    let cases = fx["cases"].as_array().unwrap();
    assert!(cases.len() >= 18, "{} cases", cases.len());
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let batch = batch_of(case["rows"].as_array().unwrap());
        let out = AdvantageEstimator::Mars
            .compute(&batch, &config_of(&case["config"]))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_rows_close(&out.advantages, &matrix(&case["advantages"]), 1e-9, name);
        assert!(out.returns.is_none(), "{name}");
    }
    // The worked example by hand: each role's returns are {1, 1, −1, −1} (mean 0, std √(4/3)).
    let worked = cases.iter().find(|c| c["name"] == "worked-example").unwrap();
    let a: Vec<f64> = matrix(&worked["advantages"]).iter().map(|r| r[0]).collect();
    let x = 0.866025;
    for (got, want) in a.iter().zip([x, -x, x, -x, -x, x, -x, x]) {
        assert_close(*got, want, 1e-6, "worked example");
    }
    // The edge case: a one-row role and an all-equal role get exactly 0.
    let edge = cases.iter().find(|c| c["name"] == "edge").unwrap();
    let a = matrix(&edge["advantages"]);
    assert!(a[..4].iter().flatten().all(|x| *x == 0.0), "{a:?}");
    assert!(a[4..].iter().flatten().any(|x| *x != 0.0), "{a:?}");
}

/// A random self-play batch: `tasks` games of 2 or 3 seats, episodes in groups, turns
/// interleaved across seats, a settlement on each seat's last turn, rows shuffled. With
/// `by_order`, roles follow the move order from a random first seat (so roles differ from
/// seats, and in 3-seat games two seats share a role); `scale[role]` multiplies its rewards.
fn random_batch(rng: &mut Rng, tasks: usize, by_order: bool, scale: &[f64]) -> AdvantageBatch {
    let below = |rng: &mut Rng, n: u64| (rng.next_u64() % n) as usize;
    let mut rows: Vec<(usize, usize, usize, usize, usize, i64, f64)> = Vec::new();
    let mut episode = 0;
    for task in 0..tasks {
        let seats = 2 + task % 2;
        for g in 0..1 + below(rng, 3) {
            for _ in 0..1 + below(rng, 3) {
                let (start, len) = (below(rng, seats as u64), 1 + below(rng, 8));
                let order: Vec<usize> = (0..len).map(|k| (start + k) % seats).collect();
                for (k, &s) in order.iter().enumerate() {
                    let role = if by_order { [0, 1, 0][(s + seats - start) % seats] } else { s };
                    let mut r = if rng.uniform() < 0.4 { rng.range(-1.0, 1.0) } else { 0.0 };
                    if order[k + 1..].iter().all(|&t| t != s) {
                        r += [-1.0, 0.0, 1.0][below(rng, 3)];
                    }
                    let group = task * 10 + g;
                    rows.push((group, task, s, role, episode, k as i64, r * scale[role % scale.len()]));
                }
                episode += 1;
            }
        }
    }
    for i in (1..rows.len()).rev() {
        let j = below(rng, i as u64 + 1);
        rows.swap(i, j);
    }
    let n = rows.len();
    let masks = (0..n).map(|i| vec![1.0; 1 + i % 3]).collect();
    let mut b = AdvantageBatch::new(rows.iter().map(|r| r.0).collect(), vec![0.0; n], masks);
    b.tasks = Some(rows.iter().map(|r| r.1).collect());
    b.seats = Some(rows.iter().map(|r| r.2).collect());
    b.roles = Some(rows.iter().map(|r| r.3).collect());
    b.turns = Some(TurnInfo {
        trajectories: rows.iter().map(|r| r.4).collect(),
        turns: rows.iter().map(|r| r.5).collect(),
        anchors: vec![0; n],
        step_rewards: rows.iter().map(|r| r.6).collect(),
    });
    b
}

/// The definition, as slowly as it can be written: every sum and mean over the whole batch.
fn oracle(b: &AdvantageBatch, gamma: f64, eps: f64) -> Vec<f64> {
    let t = b.turns.as_ref().unwrap();
    let (tasks, seats, roles) =
        (b.tasks.as_ref().unwrap(), b.seats.as_ref().unwrap(), b.roles.as_ref().unwrap());
    let n = b.len();
    let same_role = |i: usize, j: usize| tasks[i] == tasks[j] && roles[i] == roles[j];
    let same_chain = |i: usize, j: usize| {
        b.groups[i] == b.groups[j] && t.trajectories[i] == t.trajectories[j] && seats[i] == seats[j]
    };
    let mean_over = |i: usize, f: &dyn Fn(usize) -> f64| {
        let v: Vec<f64> = (0..n).filter(|&j| same_role(i, j)).map(f).collect();
        v.iter().sum::<f64>() / v.len() as f64
    };
    let centred: Vec<f64> =
        (0..n).map(|i| t.step_rewards[i] - mean_over(i, &|j| t.step_rewards[j])).collect();
    let position = |i: usize| (0..n).filter(|&j| same_chain(i, j) && t.turns[j] < t.turns[i]).count() as i32;
    let ret: Vec<f64> = (0..n)
        .map(|i| {
            (0..n)
                .filter(|&j| same_chain(i, j) && t.turns[j] >= t.turns[i])
                .map(|j| gamma.powi(position(j) - position(i)) * centred[j])
                .sum()
        })
        .collect();
    (0..n)
        .map(|i| {
            let block: Vec<usize> = (0..n).filter(|&j| same_role(i, j)).collect();
            if block.iter().all(|&j| ret[j] == ret[block[0]]) {
                return 0.0; // one row, or equal returns
            }
            let m = mean_over(i, &|j| ret[j]);
            let k = block.len() as f64;
            let var = k / (k - 1.0) * mean_over(i, &|j| (ret[j] - m).powi(2));
            (ret[i] - m) / (var.sqrt() + eps)
        })
        .collect()
}

#[test]
fn random_batches_match_a_slow_oracle() {
    let mut rng = Rng::new(35);
    for round in 0..24 {
        let b = random_batch(&mut rng, 1 + round % 3, round % 2 == 1, &[1.0, 10.0, 0.1]);
        let gamma = [1.0, 0.9, 0.5][round % 3];
        let cfg = AdvantageConfig { gamma, ..Default::default() };
        let got = sequence(&b, &cfg);
        let want = oracle(&b, gamma, cfg.epsilon);
        for (i, (x, y)) in got.iter().zip(&want).enumerate() {
            assert_close(*x, *y, 1e-9, &format!("round {round} row {i}"));
        }
    }
}

#[test]
fn a_constant_added_to_one_roles_rewards_changes_nothing() {
    let mut rng = Rng::new(351);
    for round in 0..12 {
        let b = random_batch(&mut rng, 2, round % 2 == 0, &[1.0, 3.0]);
        let cfg = AdvantageConfig { gamma: [1.0, 0.8][round % 2], ..Default::default() };
        let before = sequence(&b, &cfg);
        let (tasks, roles) = (b.tasks.clone().unwrap(), b.roles.clone().unwrap());
        let mut shifted = b.clone();
        let mut scaled = b.clone();
        for i in 0..b.len() {
            if tasks[i] == 0 && roles[i] == 1 {
                shifted.turns.as_mut().unwrap().step_rewards[i] += 7.5;
                scaled.turns.as_mut().unwrap().step_rewards[i] *= 40.0;
            }
        }
        for (i, (x, y)) in before.iter().zip(sequence(&shifted, &cfg)).enumerate() {
            assert!((x - y).abs() < 1e-9, "round {round} row {i}: {x} vs {y}");
        }
        // Scaling a role's rewards changes only the ε in its denominator.
        let exact = AdvantageConfig { epsilon: 0.0, ..cfg };
        let (a, c) = (sequence(&b, &exact), sequence(&scaled, &exact));
        for (i, (x, y)) in a.iter().zip(c).enumerate() {
            assert!((x - y).abs() < 1e-9, "round {round} row {i}: {x} vs {y}");
        }
    }
}

#[test]
fn roles_on_different_reward_scales_each_come_out_standardised() {
    let mut rng = Rng::new(352);
    let mut checked = 0;
    for round in 0..10 {
        // Role 1 is paid 1000 times role 0.
        let b = random_batch(&mut rng, 1, round % 2 == 1, &[1.0, 1000.0]);
        let a = sequence(&b, &AdvantageConfig::default());
        let roles = b.roles.as_ref().unwrap();
        for role in 0..2 {
            let v: Vec<f64> = a.iter().zip(roles).filter(|(_, r)| **r == role).map(|(x, _)| *x).collect();
            let n = v.len() as f64;
            let m = v.iter().sum::<f64>() / n;
            let sd = (v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
            if v.len() < 2 || sd == 0.0 {
                continue; // one row, or equal returns: all 0
            }
            assert!(m.abs() < 1e-9, "round {round} role {role}: mean {m}");
            assert!((sd - 1.0).abs() < 1e-5, "round {round} role {role}: std {sd}");
            checked += 1;
        }
    }
    assert!(checked >= 15, "only {checked} roles checked");
}

#[test]
fn one_role_is_grpo_over_the_turn_returns_of_centred_rewards() {
    let mut rng = Rng::new(353);
    for round in 0..8 {
        let mut b = random_batch(&mut rng, 1, false, &[2.0]);
        b.roles = Some(vec![0; b.len()]);
        let gamma = [1.0, 0.7][round % 2];
        let got = sequence(&b, &AdvantageConfig { gamma, ..Default::default() });
        // The plain turn-level return normalisation: the batch's mean turn reward removed, the
        // returns of each seat's turns, then GRPO with the whole batch as one group.
        let t = b.turns.as_ref().unwrap();
        let mu = t.step_rewards.iter().sum::<f64>() / b.len() as f64;
        let centred: Vec<f64> = t.step_rewards.iter().map(|r| r - mu).collect();
        let chains = group_ids(b.groups.iter().zip(b.seats.as_ref().unwrap()));
        let ret = discounted_turn_returns(&chains, &t.trajectories, &t.turns, &centred, gamma).unwrap();
        let want = grpo_outcome(&ret, &vec![0; b.len()], 1e-6, true);
        for (i, (x, y)) in got.iter().zip(&want).enumerate() {
            assert!((x - y).abs() < 1e-12, "round {round} row {i}: {x} vs {y}");
        }
    }
}
