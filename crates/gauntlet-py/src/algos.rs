//! Advantage estimators with the names and options of `gauntlet advantages`.
//!
//! The inputs are the columns of the CLI's JSONL rows (`group`, `score`, `mask`, and where the
//! estimator reads them `rewards`, `values`, `length`, `baseline`, `seat`, `task`, GiGPO's
//! `trajectory`/`turn`/`anchor`/`step_reward`); the options are the CLI's flags, refused in the
//! same way when the estimator does not read them.

use crate::{detached, Failure, Outcome};
use gauntlet_algos::advantage::multitask::TaskBalance;
use gauntlet_algos::advantage::{
    group_ids, AdvantageBatch, AdvantageConfig, AdvantageEstimator, GigpoMode, TurnInfo,
};
use pyo3::prelude::*;

/// Register this module's functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(estimator_names, m)?)?;
    m.add_function(wrap_pyfunction!(advantages, m)?)?;
    Ok(())
}

/// The estimator registry names, in registry order.
#[pyfunction]
fn estimator_names() -> Vec<&'static str> {
    AdvantageEstimator::ALL.iter().map(|e| e.name()).collect()
}

/// The CLI's flags as keyword options.
#[derive(Debug, Default, Clone)]
struct Options {
    gamma: Option<f64>,
    lam: Option<f64>,
    eps: Option<f64>,
    no_std: bool,
    mode: Option<String>,
    step_weight: Option<f64>,
    per_seat: bool,
    task_balance: Option<String>,
    rae_decay: Option<f64>,
}

fn cfg_err(name: &str, msg: String) -> Failure {
    Failure::new("AlgoError", msg).with_field(name)
}

/// Resolve options into the library's config, refusing options the estimator does not read
/// (the rules of `gauntlet advantages`).
fn settings(o: &Options, est: AdvantageEstimator) -> Outcome<AdvantageConfig> {
    use AdvantageEstimator as E;
    let refuse = |opt: &str, ok: &[AdvantageEstimator], set: bool| -> Outcome<()> {
        if set && !ok.contains(&est) {
            let names: Vec<&str> = ok.iter().map(|e| e.name()).collect();
            let msg = format!("`{opt}` does not apply to `{est}`; it is read by: {}", names.join(", "));
            return Err(cfg_err(opt, msg));
        }
        Ok(())
    };
    refuse("gamma", &[E::Gae, E::ReinforcePp, E::Gigpo], o.gamma.is_some())?;
    refuse("lam", &[E::Gae], o.lam.is_some())?;
    let eps_users: &[E] = if o.task_balance.is_some() { E::ALL } else { &[E::Grpo, E::Gigpo] };
    refuse("eps", eps_users, o.eps.is_some())?;
    refuse("no_std", &[E::Grpo], o.no_std)?;
    refuse("mode", &[E::Gigpo], o.mode.is_some())?;
    refuse("step_weight", &[E::Gigpo], o.step_weight.is_some())?;
    refuse("rae_decay", &[E::Rae], o.rae_decay.is_some())?;
    for (name, v) in [("gamma", o.gamma), ("lam", o.lam), ("eps", o.eps)] {
        if let Some(v) = v.filter(|v| !v.is_finite() || *v < 0.0) {
            return Err(cfg_err(name, format!("`{name}` = {v}: expected a finite number >= 0")));
        }
    }
    let mut cfg = AdvantageConfig::default();
    match (est, o.gamma) {
        (E::Gigpo, Some(g)) => cfg.gigpo.gamma = g,
        (_, Some(g)) => cfg.gamma = g,
        _ => {}
    }
    cfg.lambda = o.lam.unwrap_or(cfg.lambda);
    cfg.epsilon = o.eps.unwrap_or(cfg.epsilon);
    cfg.norm_by_std = !o.no_std;
    cfg.per_seat = o.per_seat;
    cfg.rae_decay = o.rae_decay.unwrap_or(cfg.rae_decay);
    cfg.gigpo.step_weight = o.step_weight.unwrap_or(cfg.gigpo.step_weight);
    cfg.gigpo.mode = match o.mode.as_deref().map(|m| m.replace('_', "-")).as_deref() {
        None | Some("mean-norm") => GigpoMode::MeanNorm,
        Some("mean-std-norm") => GigpoMode::MeanStdNorm,
        Some(m) => {
            return Err(cfg_err("mode", format!("`mode` = `{m}`: expected `mean-norm` or `mean-std-norm`")))
        }
    };
    cfg.task_balance = match o.task_balance.as_deref().map(|m| m.replace('_', "-")).as_deref() {
        None => None,
        Some("within-task") => Some(TaskBalance::WithinTask),
        Some("median") => Some(TaskBalance::MedianAnchor { anchor: 0.0 }),
        Some(m) => {
            let msg = format!("`task_balance` = `{m}`: expected `within-task` or `median`");
            return Err(cfg_err("task_balance", msg));
        }
    };
    Ok(cfg)
}

/// Per-token advantages and, for `gae`, `reinforce-pp` and `remax`, returns.
type Output = (Vec<Vec<f64>>, Option<Vec<Vec<f64>>>);

/// Run the estimator called `estimator` on one batch, as `gauntlet advantages` does on the same
/// rows with the same flags.
#[pyfunction]
#[pyo3(signature = (
    estimator, groups, scores, masks, *, rewards=None, values=None, lengths=None, baselines=None,
    seats=None, tasks=None, trajectories=None, turns=None, anchors=None, step_rewards=None,
    gamma=None, lam=None, eps=None, no_std=false, mode=None, step_weight=None, per_seat=false,
    task_balance=None, rae_decay=None
))]
fn advantages(
    py: Python<'_>,
    estimator: &str,
    groups: Vec<String>,
    scores: Vec<f64>,
    masks: Vec<Vec<f64>>,
    rewards: Option<Vec<Vec<f64>>>,
    values: Option<Vec<Vec<f64>>>,
    lengths: Option<Vec<f64>>,
    baselines: Option<Vec<f64>>,
    seats: Option<Vec<usize>>,
    tasks: Option<Vec<String>>,
    trajectories: Option<Vec<String>>,
    turns: Option<Vec<i64>>,
    anchors: Option<Vec<String>>,
    step_rewards: Option<Vec<f64>>,
    gamma: Option<f64>,
    lam: Option<f64>,
    eps: Option<f64>,
    no_std: bool,
    mode: Option<String>,
    step_weight: Option<f64>,
    per_seat: bool,
    task_balance: Option<String>,
    rae_decay: Option<f64>,
) -> PyResult<Output> {
    let opts = Options { gamma, lam, eps, no_std, mode, step_weight, per_seat, task_balance, rae_decay };
    detached(py, move || {
        let est: AdvantageEstimator = estimator.parse().map_err(|e: gauntlet_algos::AlgoError| {
            Failure::new("UnknownEstimatorError", e.to_string()).with_field("estimator")
        })?;
        let cfg = settings(&opts, est)?;
        let mut b = AdvantageBatch::new(group_ids(groups), scores, masks);
        b.token_rewards = rewards;
        b.values = values;
        b.lengths = lengths;
        b.baselines = baselines;
        b.seats = seats;
        b.tasks = tasks.map(group_ids);
        if est == AdvantageEstimator::Gigpo {
            let need = |f: &'static str| {
                Failure::new("AlgoError", format!("`gigpo` needs `{f}` (one per row)")).with_field(f)
            };
            b.turns = Some(TurnInfo {
                trajectories: group_ids(trajectories.ok_or_else(|| need("trajectories"))?),
                turns: turns.ok_or_else(|| need("turns"))?,
                anchors: group_ids(anchors.ok_or_else(|| need("anchors"))?),
                step_rewards: step_rewards.ok_or_else(|| need("step_rewards"))?,
            });
        }
        let out = est.compute(&b, &cfg).map_err(|e| Failure::new("AlgoError", e.to_string()))?;
        Ok((out.advantages, out.returns))
    })
}
