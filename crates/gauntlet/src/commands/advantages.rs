//! `gauntlet advantages`: inspect the learning signal of logged rollouts.
//!
//! Reads JSONL, one row per response (or per turn for GiGPO), runs an advantage estimator from
//! `gauntlet-algos`, and writes the same rows back with `"advantages"` (one per token) and, for
//! `gae`, `reinforce-pp` and `remax`, `"returns"`.
//!
//! Row fields: `group` (string or integer), `score` (number), `mask` (array of 0/1), and where
//! the estimator needs them `rewards` and `values` (one number per token), `length` (OPO),
//! `baseline` (ReMax), `seat` (integer), `task` (string); GiGPO turn rows add `trajectory`,
//! `turn` (integer order within the trajectory), `anchor` and `step_reward`.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context};
use clap::{Args, ValueEnum};
use gauntlet_algos::advantage::multitask::TaskBalance;
use gauntlet_algos::advantage::{
    group_ids, AdvantageBatch, AdvantageConfig, AdvantageEstimator, GigpoMode, TurnInfo,
};
use gauntlet_algos::AlgoError;
use serde_json::{Map, Value};

/// Arguments of `gauntlet advantages`.
#[derive(Debug, Args)]
pub struct AdvantagesArgs {
    /// Estimator: grpo, dr-grpo, rloo, reinforce-pp, reinforce-pp-baseline, remax, opo, gpg, gae,
    /// gigpo, rae.
    #[arg(long, default_value = "grpo")]
    pub estimator: String,
    /// Input JSONL file [default: stdin].
    #[arg(short, long, value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// Output JSONL file, written atomically [default: stdout].
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Discount γ: gae and reinforce-pp [default: 1.0], gigpo step returns [default: 0.95].
    #[arg(long)]
    pub gamma: Option<f64>,
    /// GAE λ [default: 1.0].
    #[arg(long = "lambda", value_name = "LAMBDA")]
    pub lambda: Option<f64>,
    /// ε added to the group std: grpo, gigpo --mode mean-std-norm, --task-balance within-task
    /// [default: 1e-6].
    #[arg(long)]
    pub eps: Option<f64>,
    /// grpo without dividing by the group std (Dr.GRPO).
    #[arg(long)]
    pub no_std: bool,
    /// GiGPO normalisation [default: mean-norm].
    #[arg(long, value_enum)]
    pub mode: Option<GigpoModeArg>,
    /// GiGPO weight ω of the step-level advantage [default: 1.0].
    #[arg(long, value_name = "W")]
    pub step_weight: Option<f64>,
    /// Normalise within (group, seat) instead of group; rows need `seat`.
    #[arg(long)]
    pub per_seat: bool,
    /// Multi-task balancing; rows need `task`.
    #[arg(long, value_enum)]
    pub task_balance: Option<TaskBalanceArg>,
    /// EMA decay of rae baselines [default: 0.95].
    #[arg(long, value_name = "ALPHA")]
    pub rae_decay: Option<f64>,
}

/// `--mode` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum GigpoModeArg {
    /// `A = x − mean`.
    MeanNorm,
    /// `A = (x − mean) / (std + ε)`.
    MeanStdNorm,
}

/// `--task-balance` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum TaskBalanceArg {
    /// Divide each task's advantages by their std.
    WithinTask,
    /// Shift each task's scores so its median is 0 before estimation.
    Median,
}

/// Run `gauntlet advantages`.
pub fn exec(args: AdvantagesArgs) -> anyhow::Result<()> {
    let estimator: AdvantageEstimator = args.estimator.parse()?;
    let cfg = settings(&args, estimator)?;
    let text = read_input(args.input.as_deref())?;
    let (rows, lines) = parse_rows(&text)?;
    let batch = build_batch(&rows, &lines, estimator)?;
    let out = estimator.compute(&batch, &cfg).map_err(|e| with_lines(e, &lines))?;
    let mut buf = Vec::with_capacity(text.len() * 2);
    for (i, mut row) in rows.into_iter().enumerate() {
        row.insert("advantages".into(), floats(&out.advantages[i]));
        if let Some(r) = &out.returns {
            row.insert("returns".into(), floats(&r[i]));
        }
        serde_json::to_writer(&mut buf, &row)?;
        buf.push(b'\n');
    }
    crate::io::emit(args.output.as_deref(), &buf)
}

/// Resolve flags into the library's config, refusing flags the estimator does not read.
fn settings(args: &AdvantagesArgs, est: AdvantageEstimator) -> anyhow::Result<AdvantageConfig> {
    use AdvantageEstimator as E;
    let refuse = |flag: &str, ok: &[AdvantageEstimator], set: bool| -> anyhow::Result<()> {
        if set && !ok.contains(&est) {
            let names: Vec<&str> = ok.iter().map(|e| e.name()).collect();
            bail!("`{flag}` does not apply to `{est}`; it is read by: {}", names.join(", "));
        }
        Ok(())
    };
    refuse("--gamma", &[E::Gae, E::ReinforcePp, E::Gigpo], args.gamma.is_some())?;
    refuse("--lambda", &[E::Gae], args.lambda.is_some())?;
    let eps_users: &[E] = if args.task_balance.is_some() { E::ALL } else { &[E::Grpo, E::Gigpo] };
    refuse("--eps", eps_users, args.eps.is_some())?;
    refuse("--no-std", &[E::Grpo], args.no_std)?;
    refuse("--mode", &[E::Gigpo], args.mode.is_some())?;
    refuse("--step-weight", &[E::Gigpo], args.step_weight.is_some())?;
    refuse("--rae-decay", &[E::Rae], args.rae_decay.is_some())?;
    let mut cfg = AdvantageConfig::default();
    if est == E::Gigpo {
        if let Some(g) = args.gamma {
            cfg.gigpo.gamma = g;
        }
    } else if let Some(g) = args.gamma {
        cfg.gamma = g;
    }
    cfg.lambda = args.lambda.unwrap_or(cfg.lambda);
    cfg.epsilon = args.eps.unwrap_or(cfg.epsilon);
    cfg.norm_by_std = !args.no_std;
    cfg.per_seat = args.per_seat;
    cfg.rae_decay = args.rae_decay.unwrap_or(cfg.rae_decay);
    cfg.gigpo.step_weight = args.step_weight.unwrap_or(cfg.gigpo.step_weight);
    if let Some(m) = args.mode {
        cfg.gigpo.mode = match m {
            GigpoModeArg::MeanNorm => GigpoMode::MeanNorm,
            GigpoModeArg::MeanStdNorm => GigpoMode::MeanStdNorm,
        };
    }
    cfg.task_balance = args.task_balance.map(|t| match t {
        TaskBalanceArg::WithinTask => TaskBalance::WithinTask,
        TaskBalanceArg::Median => TaskBalance::MedianAnchor { anchor: 0.0 },
    });
    for (name, v) in [("--gamma", args.gamma), ("--lambda", args.lambda), ("--eps", args.eps)] {
        if let Some(v) = v {
            if !v.is_finite() || v < 0.0 {
                bail!("`{name}` = {v}: expected a finite number ≥ 0");
            }
        }
    }
    Ok(cfg)
}

fn read_input(path: Option<&Path>) -> anyhow::Result<String> {
    match path {
        Some(p) => std::fs::read_to_string(p).with_context(|| format!("cannot read `{}`", p.display())),
        None => {
            let mut s = String::new();
            std::io::stdin().read_to_string(&mut s).context("cannot read stdin")?;
            Ok(s)
        }
    }
}

/// JSON object rows and their 1-based line numbers.
type NumberedRows = (Vec<Map<String, Value>>, Vec<usize>);

/// Non-blank lines parsed as JSON objects, with their 1-based line numbers.
fn parse_rows(text: &str) -> anyhow::Result<NumberedRows> {
    let mut rows = Vec::new();
    let mut lines = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: Value =
            serde_json::from_str(line).map_err(|e| anyhow!("line {}: not valid JSON: {e}", i + 1))?;
        match v {
            Value::Object(m) => rows.push(m),
            _ => bail!("line {}: expected a JSON object", i + 1),
        }
        lines.push(i + 1);
    }
    Ok((rows, lines))
}

/// A field reader for one row that names the line in every error.
struct Row<'a> {
    map: &'a Map<String, Value>,
    line: usize,
}

impl Row<'_> {
    fn bad(&self, field: &str, what: &str) -> anyhow::Error {
        anyhow!("line {}: field `{field}`: expected {what}", self.line)
    }

    fn get(&self, field: &str) -> anyhow::Result<&Value> {
        self.map.get(field).ok_or_else(|| anyhow!("line {}: missing field `{field}`", self.line))
    }

    fn key(&self, field: &str) -> anyhow::Result<String> {
        match self.get(field)? {
            Value::String(s) => Ok(s.clone()),
            Value::Number(n) => Ok(n.to_string()),
            _ => Err(self.bad(field, "a string or an integer")),
        }
    }

    fn number(&self, field: &str) -> anyhow::Result<f64> {
        self.get(field)?.as_f64().filter(|x| x.is_finite()).ok_or_else(|| self.bad(field, "a number"))
    }

    fn integer(&self, field: &str) -> anyhow::Result<i64> {
        self.get(field)?.as_i64().ok_or_else(|| self.bad(field, "an integer"))
    }

    fn mask(&self) -> anyhow::Result<Vec<f64>> {
        let err = || self.bad("mask", "an array of 0/1");
        let arr = self.get("mask")?.as_array().ok_or_else(err)?;
        arr.iter()
            .map(|v| match v.as_f64() {
                Some(x) if x == 0.0 || x == 1.0 => Ok(x),
                _ => Err(err()),
            })
            .collect()
    }

    fn per_token(&self, field: &str, len: usize) -> anyhow::Result<Vec<f64>> {
        let what = format!("an array of {len} numbers (one per `mask` entry)");
        let arr =
            self.get(field)?.as_array().filter(|a| a.len() == len).ok_or_else(|| self.bad(field, &what))?;
        arr.iter()
            .map(|v| v.as_f64().filter(|x| x.is_finite()).ok_or_else(|| self.bad(field, &what)))
            .collect()
    }
}

/// Optional per-row fields are all-or-nothing: present on the first row means required on all.
fn optional<T>(
    rows: &[Row<'_>],
    field: &str,
    required: bool,
    read: impl Fn(&Row<'_>) -> anyhow::Result<T>,
) -> anyhow::Result<Option<Vec<T>>> {
    let present = rows.first().is_some_and(|r| r.map.contains_key(field));
    let wanted = present || (required && !rows.is_empty());
    if !wanted {
        return Ok(None);
    }
    rows.iter().map(read).collect::<anyhow::Result<Vec<T>>>().map(Some)
}

fn build_batch(
    maps: &[Map<String, Value>],
    lines: &[usize],
    est: AdvantageEstimator,
) -> anyhow::Result<AdvantageBatch> {
    use AdvantageEstimator as E;
    let rows: Vec<Row<'_>> = maps.iter().zip(lines).map(|(map, &line)| Row { map, line }).collect();
    let groups = rows.iter().map(|r| r.key("group")).collect::<anyhow::Result<Vec<_>>>()?;
    let scores = rows.iter().map(|r| r.number("score")).collect::<anyhow::Result<Vec<_>>>()?;
    let masks = rows.iter().map(Row::mask).collect::<anyhow::Result<Vec<_>>>()?;
    let mut b = AdvantageBatch::new(group_ids(groups), scores, masks);
    let token_field = |field: &str, required: bool| {
        optional(&rows, field, required, |r| {
            let n = r.mask()?.len();
            r.per_token(field, n)
        })
    };
    b.token_rewards = token_field("rewards", false)?;
    b.values = token_field("values", est == E::Gae)?;
    b.lengths = optional(&rows, "length", false, |r| r.number("length"))?;
    b.baselines = optional(&rows, "baseline", est == E::Remax, |r| r.number("baseline"))?;
    b.seats = optional(&rows, "seat", est == E::Rae, |r| {
        usize::try_from(r.integer("seat")?).map_err(|_| r.bad("seat", "a non-negative integer"))
    })?;
    b.tasks = optional(&rows, "task", false, |r| r.key("task"))?.map(group_ids);
    if est == E::Gigpo {
        let trajectories = rows.iter().map(|r| r.key("trajectory")).collect::<anyhow::Result<Vec<_>>>()?;
        let anchors = rows
            .iter()
            .map(|r| r.get("anchor").map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string)))
            .collect::<anyhow::Result<Vec<_>>>()?;
        b.turns = Some(TurnInfo {
            trajectories: group_ids(trajectories),
            turns: rows.iter().map(|r| r.integer("turn")).collect::<anyhow::Result<_>>()?,
            anchors: group_ids(anchors),
            step_rewards: rows.iter().map(|r| r.number("step_reward")).collect::<anyhow::Result<_>>()?,
        });
    }
    Ok(b)
}

/// Library errors speak of 0-based rows; the user reads line numbers.
fn with_lines(err: AlgoError, lines: &[usize]) -> anyhow::Error {
    let line = |row: usize| lines.get(row).copied().unwrap_or(row + 1);
    match err {
        AlgoError::DuplicateTurn { turn, first, second, .. } => {
            anyhow!("lines {} and {}: the same trajectory has turn {turn} twice", line(first), line(second))
        }
        AlgoError::BadValue { row, field, detail } => {
            anyhow!("line {}: field `{field}`: {detail}", line(row))
        }
        AlgoError::MissingInput { estimator, field } => {
            anyhow!("`{estimator}` needs field `{field}` on every row")
        }
        other => other.into(),
    }
}

fn floats(xs: &[f64]) -> Value {
    Value::Array(
        xs.iter().map(|x| serde_json::Number::from_f64(*x).map_or(Value::Null, Value::Number)).collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_keep_line_numbers_across_blank_lines() {
        let (rows, lines) = parse_rows("{\"a\":1}\n\n{\"a\":2}\n").unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(lines, vec![1, 3]);
        let err = parse_rows("{}\n[1]\n").unwrap_err().to_string();
        assert_eq!(err, "line 2: expected a JSON object");
    }

    #[test]
    fn bad_mask_names_line_and_field() {
        let (rows, lines) = parse_rows(
            "{\"group\":\"a\",\"score\":1,\"mask\":[1,1]}\n{\"group\":\"a\",\"score\":1,\"mask\":[1,2]}",
        )
        .unwrap();
        let err = build_batch(&rows, &lines, AdvantageEstimator::Grpo).unwrap_err().to_string();
        assert_eq!(err, "line 2: field `mask`: expected an array of 0/1");
    }
}
