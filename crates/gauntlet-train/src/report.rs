//! The run report: `report/summary.md`, `report/summary.json` and `report/curves.svg`.
//!
//! The summary compares held-out success per task before SFT, after SFT and after RL (the
//! numbers `gauntlet eval --policy local:RUN_DIR` reproduces); the curves plot, against the
//! step, the SFT loss and for RL the reward, success, held-out pass@1, entropy, KL and response
//! length per task.

use std::path::Path;

use plotters::prelude::*;
use serde_json::{json, Map, Value};

use crate::config::TrainConfig;
use crate::trainer::TrainerState;
use crate::TrainError;

type Series = Vec<(String, Vec<(f64, f64)>)>;

/// Writes the report of the run in `run_dir`.
pub fn write(run_dir: &Path, cfg: &TrainConfig, state: &TrainerState) -> Result<(), TrainError> {
    let dir = run_dir.join("report");
    std::fs::create_dir_all(&dir).map_err(|e| TrainError::io("create", &dir, e))?;
    let metrics_path = run_dir.join("metrics.jsonl");
    let records =
        crate::metrics::read(&metrics_path).map_err(|e| TrainError::io("read", &metrics_path, e))?;
    let md = summary_markdown(cfg, state);
    crate::write_atomic(&dir.join("summary.md"), md.as_bytes())
        .map_err(|e| TrainError::io("write", &dir, e))?;
    let json = json!({ "evals": state.evals, "elapsed_s": state.elapsed_s, "sft_steps": state.sft_step, "rl_steps": state.rl_step });
    crate::write_atomic(
        &dir.join("summary.json"),
        serde_json::to_string_pretty(&json).expect("json").as_bytes(),
    )
    .map_err(|e| TrainError::io("write", &dir, e))?;
    let svg = curves_svg(cfg, &records).map_err(TrainError::Config)?;
    crate::write_atomic(&dir.join("curves.svg"), svg.as_bytes())
        .map_err(|e| TrainError::io("write", &dir, e))?;
    Ok(())
}

/// The summary table (markdown): held-out pass@1 per task and phase, with the RL gain.
pub fn summary_markdown(cfg: &TrainConfig, state: &TrainerState) -> String {
    let row = |phase: &str, task: &str| {
        state.evals.get(phase).and_then(|rows| rows.iter().find(|r| r.task == task))
    };
    let get = |phase: &str, task: &str| row(phase, task).map(|r| r.pass_at_1);
    // Gains are over the evaluation after SFT; a run that skipped it (`eval.after_sft = false`)
    // reports them over the starting model.
    let (from, gain) = if state.evals.contains_key("after_sft") {
        ("after_sft", "RL gain")
    } else {
        ("before_sft", "gain over the starting model")
    };
    let fmt = |phase: &str, task: &str| {
        row(phase, task)
            .map(|r| crate::eval::rate_with_interval(r.pass_at_1, r.ci95.pass_at_1))
            .unwrap_or_else(|| "–".into())
    };
    let mut s = format!(
        "# Run summary\n\nHeld-out success (pass@1 over {} problems per task, {} sample(s) each, temperature {}), \
         at each task's starting level, with 95% Wilson intervals; the RL gain's interval is the unpaired \
         normal one (conservative: both evaluations use the same problems). Problems use seeds never \
         drawn in training. One training seed: train several with `gauntlet train --seeds K`.\n\n\
         | task | level | before SFT | after SFT | after RL | {} |\n|---|---|---|---|---|---|\n",
        cfg.eval.n,
        cfg.eval.k,
        cfg.eval.temperature,
        if from == "after_sft" { gain } else { "gain over start" }
    );
    let games: Vec<&str> =
        cfg.tasks.iter().filter(|t| gauntlet_rollout::seats(&t.name) > 1).map(|t| t.name.as_str()).collect();
    if !games.is_empty() {
        s = s.replace(
            "\n\n| task |",
            &if cfg.eval.opponent == "self" {
                format!(
                    "\n\nGames ({}): one policy at every seat; success is a win for seat 0.\n\n| task |",
                    games.join(", ")
                )
            } else {
                format!(
                    "\n\nGames ({}): success is the policy's win rate against the fixed `{}` opponent, \
                     playing each seat in turn (mean returns in the tables below).\n\n| task |",
                    games.join(", "),
                    cfg.eval.opponent
                )
            },
        );
    }
    let (mut gains, mut held_out_gains) = (Vec::new(), Vec::new());
    for t in &cfg.tasks {
        let (a, r) = (get(from, &t.name), get("after_rl", &t.name));
        let gain = a.zip(r).map(|(a, r)| (r - a, crate::eval::difference_interval(a, r, cfg.eval.n)));
        if t.held_out() { &mut held_out_gains } else { &mut gains }.extend(gain.map(|g| g.0));
        s += &format!(
            "| {}{} | {} | {} | {} | {} | {} |\n",
            t.name,
            if t.held_out() { " (held out)" } else { "" },
            t.level,
            fmt("before_sft", &t.name),
            fmt("after_sft", &t.name),
            fmt("after_rl", &t.name),
            gain.map(|(g, [lo, hi])| format!(
                "{:+.1} pts [{:+.1}, {:+.1}]",
                100.0 * g,
                100.0 * lo,
                100.0 * hi
            ))
            .unwrap_or_else(|| "–".into())
        );
    }
    let mean = |g: &[f64]| 100.0 * g.iter().sum::<f64>() / g.len() as f64;
    if !gains.is_empty() && held_out_gains.is_empty() {
        s += &format!("\nMean {gain} over the tasks: **{:+.1} points**.\n", mean(&gains));
    } else if !held_out_gains.is_empty() {
        if !gains.is_empty() {
            s += &format!("\nMean {gain} over the trained tasks: **{:+.1} points**.\n", mean(&gains));
        }
        s += &format!(
            "\nMean {gain} over the held-out tasks (weight 0: never trained on, evaluated only): \
             **{:+.1} points**.\n",
            mean(&held_out_gains)
        );
    }
    s += &format!(
        "\nSteps: {} SFT, {} RL. Wall time: {:.0} s. Curves: `curves.svg`; every step: `../metrics.jsonl`.\n",
        state.sft_step, state.rl_step, state.elapsed_s
    );
    for (name, rows) in &state.evals {
        s += &format!("\n## {name}\n\n{}", crate::eval::table(rows));
    }
    s
}

fn series(records: &[Map<String, Value>], phase: &str, key: &str) -> Vec<(f64, f64)> {
    records
        .iter()
        .filter(|r| r.get("phase").and_then(Value::as_str) == Some(phase))
        .filter_map(|r| Some((r.get("step")?.as_f64()?, r.get(key)?.as_f64()?)))
        .collect()
}

fn curves_svg(cfg: &TrainConfig, records: &[Map<String, Value>]) -> Result<String, String> {
    let tasks: Vec<&str> = cfg.tasks.iter().map(|t| t.name.as_str()).collect();
    let per_task = |phase: &str, suffix: &str| -> Series {
        tasks.iter().map(|t| (t.to_string(), series(records, phase, &format!("{t}/{suffix}")))).collect()
    };
    let panels: Vec<(&str, Series)> = vec![
        ("SFT loss", vec![("loss".into(), series(records, "sft", "loss"))]),
        ("RL reward (training samples)", per_task("rl", "reward")),
        ("RL success (training samples)", per_task("rl", "success")),
        ("held-out pass@1", per_task("eval", "pass@1")),
        ("entropy (nats/token)", vec![("entropy".into(), series(records, "rl", "entropy"))]),
        (
            "KL",
            vec![
                ("ppo_kl".into(), series(records, "rl", "ppo_kl")),
                ("kl to reference".into(), series(records, "rl", "kl")),
            ],
        ),
        ("response length (tokens)", vec![("response_len".into(), series(records, "rl", "response_len"))]),
        ("level (curriculum)", per_task("rl", "level")),
    ];
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1200, 1200)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let areas = root.split_evenly((4, 2));
        for (area, (title, data)) in areas.iter().zip(panels) {
            draw_panel(area, title, &data).map_err(|e| format!("plot `{title}`: {e}"))?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    title: &str,
    data: &Series,
) -> Result<(), Box<dyn std::error::Error + 'static>>
where
    DB::ErrorType: 'static,
{
    let pts = data.iter().flat_map(|(_, s)| s.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in pts {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    if x0 > x1 {
        (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
    }
    if x1 - x0 < 1e-9 {
        x1 = x0 + 1.0;
    }
    let pad = ((y1 - y0) * 0.05).max(1e-3);
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(50)
        .build_cartesian_2d(x0..x1, (y0 - pad)..(y1 + pad))?;
    chart.configure_mesh().x_desc("step").light_line_style(WHITE.mix(0.0)).draw()?;
    for (i, (name, s)) in data.iter().enumerate() {
        if s.is_empty() {
            continue;
        }
        let color = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(s.iter().copied(), color.stroke_width(2)))?
            .label(name.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2)));
    }
    chart.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw()?;
    Ok(())
}
