//! Scorecards of suite runs, and paired comparisons of several runs of one suite.
//!
//! [`write()`] puts a run's `results.json` ([`SuiteResults`]) in a folder with the scorecard:
//! `scorecard.md` (overall, per category, per category and level, the weakest and strongest
//! items, every entry; rates with 95% Wilson intervals) and three SVG plots it links, readable in
//! any browser: `rates.svg` (success per category and level, bars with intervals), `heatmap.svg`
//! (item × level) and `extremes.svg` (the weakest and strongest items).
//!
//! [`compare`] puts two or more results of the same suite version side by side: every entry,
//! category and the whole suite, each later run against the first, with the difference in
//! points and its 95% interval **paired on the problems both runs scored** ([`paired`]), marked
//! where the interval excludes zero. It refuses results of different suites, versions or
//! problems, or games played against different opponents.
//!
//! ## The paired interval
//!
//! Both runs play the same problems, so a difference is measured on pairs: of `n` problems both
//! runs scored, `a` were solved by the first run only and `b` by the second only (problems both
//! or neither solved carry no information about the difference). The difference is
//! `(b − a) / n`; its interval is the adjusted Wald interval for paired proportions of Bonett and
//! Price (2012), the McNemar-style interval with one pseudo-observation added to each
//! discordant cell: with `p_a = (a + 1)/(n + 2)` and `p_b = (b + 1)/(n + 2)`,
//! `(p_b − p_a) ± 1.96 · sqrt((p_a + p_b − (p_b − p_a)²) / (n + 2))`, clipped to `[−1, 1]`. Unlike
//! the plain paired normal interval it is never empty (10 of 10 against 0 of 10 is not
//! "certain"), and it keeps close to 95% coverage from a few pairs on. A group (a category, the
//! whole suite) pools its pairs.

use std::collections::BTreeMap;
use std::path::Path;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde::{Deserialize, Serialize};

use crate::eval::rate_with_interval;
use crate::suites::{EntryResult, GroupResult, Rate, SuiteResults};

/// The files [`write()`] puts in a folder.
pub const FILES: [&str; 5] = ["results.json", "scorecard.md", "rates.svg", "heatmap.svg", "extremes.svg"];

/// Items listed as the weakest and as the strongest.
pub const EXTREMES: usize = 10;

/// Rows of a heat-map block: longer lists wrap into blocks side by side (four at most).
const HEATMAP_ROWS: usize = 60;

/// Writes `results.json`, `scorecard.md`, `rates.svg`, `heatmap.svg` and `extremes.svg` into
/// `dir` (each atomically), creating it.
pub fn write(dir: &Path, results: &SuiteResults) -> Result<(), String> {
    let put = |name: &str, bytes: &[u8]| {
        crate::write_atomic(&dir.join(name), bytes)
            .map_err(|e| format!("cannot write `{}`: {e}", dir.join(name).display()))
    };
    put("results.json", serde_json::to_string_pretty(results).expect("results serialise").as_bytes())?;
    put("rates.svg", rates_svg(results)?.as_bytes())?;
    put("heatmap.svg", heatmap_svg(results)?.as_bytes())?;
    put("extremes.svg", extremes_svg(results)?.as_bytes())?;
    put("scorecard.md", markdown(results).as_bytes())
}

/// `0.703 [0.676, 0.729]`.
fn rate(r: &Rate) -> String {
    rate_with_interval(r.rate, r.ci95)
}

fn seconds(s: f64) -> String {
    if s >= 120.0 {
        format!("{:.1} min", s / 60.0)
    } else {
        format!("{s:.1} s")
    }
}

/// The settings of a run as one line: `max_tokens 256, seed 0, temperature 0`.
pub fn settings_line(settings: &BTreeMap<String, serde_json::Value>) -> String {
    if settings.is_empty() {
        return "not recorded".into();
    }
    settings
        .iter()
        .map(|(k, v)| match v {
            serde_json::Value::String(s) => format!("{k} {s}"),
            v => format!("{k} {v}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The entries sorted weakest first (lowest rate, then lowest upper bound, then label).
fn by_strength(r: &SuiteResults) -> Vec<&EntryResult> {
    let mut v: Vec<&EntryResult> = r.entries.iter().collect();
    v.sort_by(|a, b| {
        (a.success.rate, a.success.ci95[1])
            .partial_cmp(&(b.success.rate, b.success.ci95[1]))
            .unwrap_or(std::cmp::Ordering::Equal)
            .then_with(|| a.entry.label().cmp(&b.entry.label()))
    });
    v
}

/// The scorecard: `scorecard.md`.
pub fn markdown(r: &SuiteResults) -> String {
    let mut s = format!("# Scorecard: `{}` on `{}`\n\n", r.run.policy, r.suite);
    s += "| | |\n|---|---|\n";
    s += &format!("| suite | `{}` |\n", r.suite);
    s += &format!("| policy | `{}` |\n", r.run.policy);
    s += &format!("| games against | `{}` |\n", r.run.opponent);
    s += &format!("| settings | {} |\n", settings_line(&r.run.settings));
    s += &format!("| episodes | {} ({} failed) |\n", r.overall.success.episodes, r.overall.failed);
    s += &format!("| tokens sampled | {} |\n", r.overall.tokens);
    s += &format!("| wall time | {} |\n", seconds(r.overall.wall_time_s));
    if !r.prompts_hash.is_empty() {
        s += &format!("| problems (prompts hash) | `{}` |\n", r.prompts_hash);
    }
    s += &format!("| written by | gauntlet {} |\n\n", r.gauntlet_version);
    s += &format!(
        "**Overall success: {}** over {} episodes ({} entries).\n\n",
        rate(&r.overall.success),
        r.overall.success.episodes,
        r.overall.entries
    );
    if r.overall.failed > 0 {
        s += &format!(
            "**{} episodes failed** (a policy or environment error) and count as unsolved: run the same \
             command again to play them.\n\n",
            r.overall.failed
        );
    }
    s += "## By category\n\n![success per category and level, with 95% intervals](rates.svg)\n\n";
    s += "| category | entries | episodes | success | format errors | tokens / episode | wall time | failed |\n\
          |---|---:|---:|---|---|---:|---:|---:|\n";
    for g in r.categories.iter().chain(std::iter::once(&r.overall)) {
        s += &group_row(g);
    }
    let levels = levels(r);
    if levels.len() > 1 {
        s += "\n## By category and level\n\n| category |";
        for l in &levels {
            s += &format!(" L{l} |");
        }
        s += "\n|---|";
        s += &"---|".repeat(levels.len());
        s += "\n";
        for c in &r.categories {
            s += &format!("| {} |", c.category);
            for l in &levels {
                match r.category_levels.iter().find(|g| g.category == c.category && g.level == Some(*l)) {
                    Some(g) => s += &format!(" {} |", rate(&g.success)),
                    None => s += " – |",
                }
            }
            s += "\n";
        }
    }
    s += "\n## Item × level\n\n![success per item and level](heatmap.svg)\n";
    let sorted = by_strength(r);
    let k = EXTREMES.min(sorted.len());
    s += &format!(
        "\n## Weakest and strongest items\n\n![the {k} weakest and strongest items](extremes.svg)\n\n"
    );
    s += "| weakest | success | strongest | success |\n|---|---|---|---|\n";
    for i in 0..k {
        let (w, b) = (sorted[i], sorted[sorted.len() - 1 - i]);
        s += &format!(
            "| {} | {} | {} | {} |\n",
            w.entry.label(),
            rate(&w.success),
            b.entry.label(),
            rate(&b.success)
        );
    }
    s +=
        "\n## Every entry\n\n| item | kind | category | level | n | success | format errors | mean reward | \
          tokens / episode | wall time | failed |\n|---|---|---|---:|---:|---|---|---:|---:|---:|---:|\n";
    for e in &r.entries {
        s += &format!(
            "| {} | {} | {} | {} | {} | {} | {} | {:.3} | {:.1} | {} | {} |\n",
            e.entry.item,
            e.entry.kind.name(),
            e.entry.category,
            e.entry.level,
            e.entry.n,
            rate(&e.success),
            rate(&e.format_errors),
            e.mean_reward,
            e.mean_tokens,
            seconds(e.wall_time_s),
            e.failed
        );
    }
    s += "\nSuccess is the share of problems solved at the first attempt (pass@1; games: a win for the \
          evaluated policy, which takes each seat in turn); an episode that failed (a policy or \
          environment error) counts as unsolved. Every rate is followed by its 95% Wilson score \
          interval; a category's rate pools its episodes. Format errors: episodes in which some turn \
          had no parsable answer. Wall time: each chunk of episodes played together shares the time \
          since the previous chunk completed (every session of a resumed run summed). Compare runs with \
          `gauntlet compare A/results.json B/results.json` (docs/eval.md).\n";
    s
}

fn group_row(g: &GroupResult) -> String {
    let eps = g.success.episodes.max(1) as f64;
    format!(
        "| {} | {} | {} | {} | {} | {:.1} | {} | {} |\n",
        if g.category == "all" { "**all**".to_string() } else { g.category.clone() },
        g.entries,
        g.success.episodes,
        rate(&g.success),
        rate(&g.format_errors),
        g.tokens as f64 / eps,
        seconds(g.wall_time_s),
        g.failed
    )
}

/// The levels of a run's entries, ascending.
fn levels(r: &SuiteResults) -> Vec<u8> {
    let mut l: Vec<u8> = r.entries.iter().map(|e| e.entry.level).collect();
    l.sort_unstable();
    l.dedup();
    l
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

fn err<E: std::fmt::Display>(e: E) -> String {
    format!("plot: {e}")
}

fn text(
    area: &Area,
    s: &str,
    (x, y): (i32, i32),
    size: u32,
    h: HPos,
    color: &RGBColor,
) -> Result<(), String> {
    let style = TextStyle::from(("sans-serif", size).into_font()).color(color).pos(Pos::new(h, VPos::Center));
    area.draw(&Text::new(s.to_string(), (x, y), style)).map_err(err)
}

fn rect(area: &Area, (x0, y0): (i32, i32), (x1, y1): (i32, i32), color: RGBColor) -> Result<(), String> {
    area.draw(&Rectangle::new([(x0, y0), (x1, y1)], color.filled())).map_err(err)
}

fn line(area: &Area, points: Vec<(i32, i32)>, color: &RGBColor, width: u32) -> Result<(), String> {
    area.draw(&PathElement::new(points, color.stroke_width(width))).map_err(err)
}

const INK: RGBColor = RGBColor(40, 40, 40);
const GRID: RGBColor = RGBColor(220, 220, 220);
const LEVEL_COLORS: [RGBColor; 5] = [
    RGBColor(102, 194, 165),
    RGBColor(252, 141, 98),
    RGBColor(141, 160, 203),
    RGBColor(231, 138, 195),
    RGBColor(166, 216, 84),
];

/// Red (0) through yellow (0.5) to green (1): the colour of a rate in every heat map (suite
/// scorecards, cross-play matrices).
pub fn heat(rate: f64) -> RGBColor {
    let lerp = |a: (f64, f64, f64), b: (f64, f64, f64), t: f64| {
        RGBColor((a.0 + (b.0 - a.0) * t) as u8, (a.1 + (b.1 - a.1) * t) as u8, (a.2 + (b.2 - a.2) * t) as u8)
    };
    let (red, yellow, green) = ((215.0, 48.0, 39.0), (254.0, 224.0, 139.0), (26.0, 152.0, 80.0));
    let t = rate.clamp(0.0, 1.0);
    if t < 0.5 {
        lerp(red, yellow, t * 2.0)
    } else {
        lerp(yellow, green, (t - 0.5) * 2.0)
    }
}

/// A vertical interval whisker at `x` from `y_lo` to `y_hi` (pixels), with caps.
fn whisker(area: &Area, x: i32, y_lo: i32, y_hi: i32) -> Result<(), String> {
    line(area, vec![(x, y_lo), (x, y_hi)], &INK, 1)?;
    line(area, vec![(x - 3, y_lo), (x + 3, y_lo)], &INK, 1)?;
    line(area, vec![(x - 3, y_hi), (x + 3, y_hi)], &INK, 1)
}

/// `rates.svg`: success per category (and the whole suite), one bar per level, with 95%
/// intervals.
pub fn rates_svg(r: &SuiteResults) -> Result<String, String> {
    let levels = levels(r);
    let mut groups: Vec<(String, Vec<(u8, Rate)>)> = r
        .categories
        .iter()
        .map(|c| {
            let bars = levels
                .iter()
                .filter_map(|l| {
                    r.category_levels
                        .iter()
                        .find(|g| g.category == c.category && g.level == Some(*l))
                        .map(|g| (*l, g.success))
                })
                .collect();
            (c.category.clone(), bars)
        })
        .collect();
    groups.push(("all".into(), vec![(0, r.overall.success)]));
    let bar_w = 22;
    let group_w = (levels.len() as i32 * (bar_w + 2) + 24).max(96);
    let (left, top, plot_h) = (56, 56, 300);
    let width = (left + group_w * groups.len() as i32 + 20) as u32;
    let height = (top + plot_h + 50) as u32;
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        area.fill(&WHITE).map_err(err)?;
        text(
            &area,
            &format!("{} on {}: success per category and level (95% intervals)", r.run.policy, r.suite),
            (left, 16),
            16,
            HPos::Left,
            &INK,
        )?;
        let y = |v: f64| top + plot_h - (v.clamp(0.0, 1.0) * plot_h as f64).round() as i32;
        for tick in [0.0, 0.25, 0.5, 0.75, 1.0] {
            line(&area, vec![(left, y(tick)), (width as i32 - 20, y(tick))], &GRID, 1)?;
            text(&area, &format!("{tick:.2}"), (left - 6, y(tick)), 11, HPos::Right, &INK)?;
        }
        // Legend: one swatch per level, and the overall bar.
        let mut lx = left;
        for (i, l) in levels.iter().enumerate() {
            rect(&area, (lx, 32), (lx + 12, 44), LEVEL_COLORS[i % LEVEL_COLORS.len()])?;
            text(&area, &format!("level {l}"), (lx + 16, 38), 12, HPos::Left, &INK)?;
            lx += 70;
        }
        rect(&area, (lx, 32), (lx + 12, 44), RGBColor(150, 150, 150))?;
        text(&area, "all levels", (lx + 16, 38), 12, HPos::Left, &INK)?;
        for (g, (name, bars)) in groups.iter().enumerate() {
            let gx = left + g as i32 * group_w;
            let used = bars.len() as i32 * (bar_w + 2);
            let mut x = gx + (group_w - used) / 2;
            for (l, rate) in bars {
                let color = match levels.iter().position(|x| x == l) {
                    Some(i) if name != "all" => LEVEL_COLORS[i % LEVEL_COLORS.len()],
                    _ => RGBColor(150, 150, 150),
                };
                rect(&area, (x, y(rate.rate)), (x + bar_w, y(0.0)), color)?;
                let cx = x + bar_w / 2;
                whisker(&area, cx, y(rate.ci95[0]), y(rate.ci95[1]))?;
                text(&area, &format!("{:.2}", rate.rate), (cx, y(rate.ci95[1]) - 8), 9, HPos::Center, &INK)?;
                x += bar_w + 2;
            }
            text(&area, name, (gx + group_w / 2, top + plot_h + 14), 12, HPos::Center, &INK)?;
        }
        line(&area, vec![(left, y(0.0)), (width as i32 - 20, y(0.0))], &INK, 1)?;
        area.present().map_err(err)?;
    }
    Ok(svg)
}

/// `heatmap.svg`: success per item (rows, in the suite's order) and level (columns).
pub fn heatmap_svg(r: &SuiteResults) -> Result<String, String> {
    let levels = levels(r);
    let mut items: Vec<(&str, &str)> = Vec::new();
    for e in &r.entries {
        if !items.iter().any(|(i, _)| *i == e.entry.item) {
            items.push((&e.entry.item, &e.entry.category));
        }
    }
    let (name_w, cat_w, cell_w, cell_h, top) = (170, 80, 46, 16, 70);
    // Long lists wrap into up to four blocks side by side.
    let blocks = items.len().div_ceil(HEATMAP_ROWS).clamp(1, 4);
    let rows = items.len().div_ceil(blocks).max(1);
    let block_w = name_w + cat_w + cell_w * levels.len() as i32 + 16;
    let width = (block_w * blocks as i32 + 10).max(520) as u32;
    let height = (top + cell_h * rows as i32 + 20) as u32;
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        area.fill(&WHITE).map_err(err)?;
        text(
            &area,
            &format!("{} on {}: success per item and level", r.run.policy, r.suite),
            (10, 14),
            15,
            HPos::Left,
            &INK,
        )?;
        // Colour scale.
        for i in 0..=10 {
            let v = i as f64 / 10.0;
            rect(&area, (10 + i * 18, 28), (28 + i * 18, 40), heat(v))?;
        }
        text(&area, "0", (10, 48), 10, HPos::Left, &INK)?;
        text(&area, "1", (10 + 11 * 18, 48), 10, HPos::Right, &INK)?;
        text(&area, "blank: not in the suite", (230, 34), 11, HPos::Left, &INK)?;
        for b in 0..blocks as i32 {
            for (j, l) in levels.iter().enumerate() {
                let x = b * block_w + name_w + cat_w + j as i32 * cell_w + cell_w / 2;
                text(&area, &format!("L{l}"), (x, top - 8), 12, HPos::Center, &INK)?;
            }
        }
        for (i, (item, category)) in items.iter().enumerate() {
            let x_block = (i / rows) as i32 * block_w;
            let left = x_block + name_w + cat_w;
            let y0 = top + (i % rows) as i32 * cell_h;
            text(&area, item, (x_block + name_w - 6, y0 + cell_h / 2), 11, HPos::Right, &INK)?;
            text(
                &area,
                category,
                (x_block + name_w + 4, y0 + cell_h / 2),
                10,
                HPos::Left,
                &RGBColor(110, 110, 110),
            )?;
            for (j, l) in levels.iter().enumerate() {
                let x0 = left + j as i32 * cell_w;
                match r.entries.iter().find(|e| e.entry.item == *item && e.entry.level == *l) {
                    Some(e) => {
                        rect(
                            &area,
                            (x0 + 1, y0 + 1),
                            (x0 + cell_w - 1, y0 + cell_h - 1),
                            heat(e.success.rate),
                        )?;
                        text(
                            &area,
                            &format!("{:.2}", e.success.rate),
                            (x0 + cell_w / 2, y0 + cell_h / 2),
                            10,
                            HPos::Center,
                            &INK,
                        )?;
                    }
                    None => rect(
                        &area,
                        (x0 + 1, y0 + 1),
                        (x0 + cell_w - 1, y0 + cell_h - 1),
                        RGBColor(245, 245, 245),
                    )?,
                }
            }
        }
        area.present().map_err(err)?;
    }
    Ok(svg)
}

/// `extremes.svg`: the weakest and the strongest items, bars with 95% intervals.
pub fn extremes_svg(r: &SuiteResults) -> Result<String, String> {
    let sorted = by_strength(r);
    let k = EXTREMES.min(sorted.len());
    let weakest: Vec<&EntryResult> = sorted.iter().take(k).copied().collect();
    let strongest: Vec<&EntryResult> = sorted.iter().rev().take(k).copied().collect();
    let (label_w, bar_w, row_h, top) = (200, 220, 20, 56);
    let panel_w = label_w + bar_w + 60;
    let width = (panel_w * 2) as u32;
    let height = (top + row_h * k as i32 + 30) as u32;
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        area.fill(&WHITE).map_err(err)?;
        text(
            &area,
            &format!("{} on {}: weakest and strongest items", r.run.policy, r.suite),
            (10, 14),
            15,
            HPos::Left,
            &INK,
        )?;
        for (p, (title, rows)) in [("weakest", &weakest), ("strongest", &strongest)].iter().enumerate() {
            let x0 = p as i32 * panel_w + label_w;
            text(&area, &format!("{} {k}", title), (x0, 38), 13, HPos::Left, &INK)?;
            let x = |v: f64| x0 + (v.clamp(0.0, 1.0) * bar_w as f64).round() as i32;
            for tick in [0.0, 0.5, 1.0] {
                line(&area, vec![(x(tick), top - 4), (x(tick), top + row_h * k as i32)], &GRID, 1)?;
                text(
                    &area,
                    &format!("{tick}"),
                    (x(tick), top + row_h * k as i32 + 10),
                    10,
                    HPos::Center,
                    &INK,
                )?;
            }
            for (i, e) in rows.iter().enumerate() {
                let yc = top + i as i32 * row_h + row_h / 2;
                text(&area, &e.entry.label(), (x0 - 6, yc), 11, HPos::Right, &INK)?;
                rect(
                    &area,
                    (x(0.0), yc - 6),
                    (x(e.success.rate).max(x(0.0) + 1), yc + 6),
                    heat(e.success.rate),
                )?;
                let (lo, hi) = (x(e.success.ci95[0]), x(e.success.ci95[1]));
                line(&area, vec![(lo, yc), (hi, yc)], &INK, 1)?;
                line(&area, vec![(lo, yc - 3), (lo, yc + 3)], &INK, 1)?;
                line(&area, vec![(hi, yc - 3), (hi, yc + 3)], &INK, 1)?;
                text(&area, &format!("{:.2}", e.success.rate), (hi + 6, yc), 10, HPos::Left, &INK)?;
            }
        }
        area.present().map_err(err)?;
    }
    Ok(svg)
}

/// A difference of success rates on paired problems, second run minus first.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Paired {
    /// Problems both runs scored (failed or missing episodes are left out).
    pub pairs: usize,
    /// Problems only the first run solved.
    pub first_only: usize,
    /// Problems only the second run solved.
    pub second_only: usize,
    /// `(second_only − first_only) / pairs`: the second run's rate minus the first's on the pairs.
    pub difference: f64,
    /// 95% interval of the difference (Bonett–Price adjusted Wald interval for paired proportions).
    pub ci95: [f64; 2],
    /// The interval excludes zero.
    pub significant: bool,
}

/// The paired difference of `pairs` problems, `first_only` of them solved by the first run
/// alone and `second_only` by the second alone (see the module documentation for the interval).
pub fn paired(pairs: usize, first_only: usize, second_only: usize) -> Paired {
    if pairs == 0 {
        return Paired {
            pairs,
            first_only,
            second_only,
            difference: 0.0,
            ci95: [-1.0, 1.0],
            significant: false,
        };
    }
    let n = pairs as f64;
    let (pa, pb) = ((first_only as f64 + 1.0) / (n + 2.0), (second_only as f64 + 1.0) / (n + 2.0));
    let centre = pb - pa;
    let half = 1.959_963_984_540_054 * ((pa + pb - centre * centre).max(0.0) / (n + 2.0)).sqrt();
    let ci95 = [(centre - half).max(-1.0), (centre + half).min(1.0)];
    Paired {
        pairs,
        first_only,
        second_only,
        difference: (second_only as f64 - first_only as f64) / n,
        ci95,
        significant: ci95[0] > 0.0 || ci95[1] < 0.0,
    }
}

/// The pairs of two outcome lists (problem by problem): `(pairs, first_only, second_only)`.
fn count_pairs(a: &[Option<u8>], b: &[Option<u8>]) -> (usize, usize, usize) {
    let mut c = (0, 0, 0);
    for (x, y) in a.iter().zip(b) {
        if let (Some(x), Some(y)) = (x, y) {
            c.0 += 1;
            c.1 += usize::from(*x == 1 && *y == 0);
            c.2 += usize::from(*x == 0 && *y == 1);
        }
    }
    c
}

/// One row of a comparison: an entry, a category or the whole suite.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ComparedRow {
    /// `item@Llevel`, a category name, or `all`.
    pub name: String,
    /// Each run's success rate (in file order; failed episodes count as unsolved).
    pub rates: Vec<Rate>,
    /// Each later run against the first, paired.
    pub differences: Vec<Paired>,
}

/// Two or more runs of one suite, side by side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// `name@version`.
    pub suite: String,
    /// The runs' policies, in file order (the first is the baseline).
    pub policies: Vec<String>,
    /// The files, in order.
    pub files: Vec<String>,
    /// Differences in settings, and other things to know.
    pub notes: Vec<String>,
    /// The whole suite.
    pub overall: ComparedRow,
    /// Per category.
    pub categories: Vec<ComparedRow>,
    /// Per entry.
    pub entries: Vec<ComparedRow>,
}

/// Puts `runs` (each with the name of its file) side by side, each later run against the first.
///
/// Refuses (with a message naming the files) fewer than two runs, runs of different suites or
/// suite versions, runs whose problems differ though their version does not (different
/// definition or prompts hashes: one build's generators changed without a version bump), and runs
/// whose games were played against different opponents. Different sampling settings are noted,
/// not refused.
pub fn compare(runs: &[(String, SuiteResults)]) -> Result<Comparison, String> {
    let Some((first_file, first)) = runs.first() else {
        return Err("nothing to compare: give two or more results.json files".into());
    };
    if runs.len() < 2 {
        return Err(format!("nothing to compare `{first_file}` with: give two or more results.json files"));
    }
    let mut notes = Vec::new();
    for (file, r) in &runs[1..] {
        if r.suite != first.suite {
            return Err(format!(
                "cannot compare results of different suites or suite versions: `{first_file}` is `{}`, \
                 `{file}` is `{}` (run both with the same `--suite NAME@VERSION`)",
                first.suite, r.suite
            ));
        }
        if r.definition_hash != first.definition_hash
            || (!r.prompts_hash.is_empty()
                && !first.prompts_hash.is_empty()
                && r.prompts_hash != first.prompts_hash)
        {
            return Err(format!(
                "`{first_file}` and `{file}` are both `{}` but their problems differ (definition {} vs {}, \
                 prompts {} vs {}): they come from builds whose suites differ without a version bump; \
                 run both with one build",
                r.suite,
                first.definition_hash,
                r.definition_hash,
                or_dash(&first.prompts_hash),
                or_dash(&r.prompts_hash)
            ));
        }
        if r.entries.len() != first.entries.len() || r.categories.len() != first.categories.len() {
            return Err(format!(
                "`{first_file}` and `{file}` are both `{}` but hold different entries: is one of them edited?",
                r.suite
            ));
        }
        if r.run.opponent != first.run.opponent {
            return Err(format!(
                "`{first_file}` played games against `{}`, `{file}` against `{}`: results against different \
                 opponents are not comparable",
                first.run.opponent, r.run.opponent
            ));
        }
        if r.run.settings != first.run.settings {
            notes.push(format!(
                "settings differ: `{first_file}` ran with {}; `{file}` with {}",
                settings_line(&first.run.settings),
                settings_line(&r.run.settings)
            ));
        }
    }
    for (file, r) in runs {
        if r.failed() > 0 {
            notes.push(format!(
                "`{file}` has {} failed or missing episodes: they count as unsolved in its rates and are left \
                 out of the pairs",
                r.failed()
            ));
        }
    }
    let row = |name: String, rates: Vec<Rate>, outcomes: Vec<Vec<&Option<u8>>>| {
        let base: Vec<Option<u8>> = outcomes[0].iter().map(|o| **o).collect();
        let differences = outcomes[1..]
            .iter()
            .map(|o| {
                let other: Vec<Option<u8>> = o.iter().map(|o| **o).collect();
                let (n, a, b) = count_pairs(&base, &other);
                paired(n, a, b)
            })
            .collect();
        ComparedRow { name, rates, differences }
    };
    // Entry `i` is the same entry in every run: the definition hashes are equal.
    let entries: Vec<ComparedRow> = (0..first.entries.len())
        .map(|i| {
            row(
                first.entries[i].entry.label(),
                runs.iter().map(|(_, r)| r.entries[i].success).collect(),
                runs.iter().map(|(_, r)| r.entries[i].outcomes.iter().collect()).collect(),
            )
        })
        .collect();
    let pooled = |keep: &dyn Fn(&EntryResult) -> bool| -> Vec<Vec<&Option<u8>>> {
        runs.iter()
            .map(|(_, r)| r.entries.iter().filter(|e| keep(e)).flat_map(|e| e.outcomes.iter()).collect())
            .collect()
    };
    let categories = first
        .categories
        .iter()
        .enumerate()
        .map(|(i, c)| {
            row(
                c.category.clone(),
                runs.iter().map(|(_, r)| r.categories[i].success).collect(),
                pooled(&|e: &EntryResult| e.entry.category == c.category),
            )
        })
        .collect();
    let overall = row("all".into(), runs.iter().map(|(_, r)| r.overall.success).collect(), pooled(&|_| true));
    Ok(Comparison {
        suite: first.suite.clone(),
        policies: runs.iter().map(|(_, r)| r.run.policy.clone()).collect(),
        files: runs.iter().map(|(f, _)| f.clone()).collect(),
        notes,
        overall,
        categories,
        entries,
    })
}

fn or_dash(s: &str) -> &str {
    if s.is_empty() {
        "–"
    } else {
        s
    }
}

/// `+12.5 [+3.1, +20.0] *` (points).
fn points(d: &Paired) -> String {
    format!(
        "{:+.1} [{:+.1}, {:+.1}]{}",
        100.0 * d.difference,
        100.0 * d.ci95[0],
        100.0 * d.ci95[1],
        if d.significant { " *" } else { "" }
    )
}

impl Comparison {
    /// The short names of the runs in tables: `A`, `B`, … .
    fn letters(&self) -> Vec<String> {
        (0..self.policies.len()).map(|i| ((b'A' + (i % 26) as u8) as char).to_string()).collect()
    }

    /// The comparison as markdown: the runs, the overall summary, then per category and per
    /// entry.
    pub fn markdown(&self) -> String {
        let l = self.letters();
        let mut s = format!(
            "# `{}`: {}\n\n",
            self.suite,
            self.policies.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(" vs ")
        );
        for (i, (p, f)) in self.policies.iter().zip(&self.files).enumerate() {
            s += &format!("- **{}**: `{p}` (`{f}`){}\n", l[i], if i == 0 { ", the baseline" } else { "" });
        }
        s += &format!(
            "\nRates are successes over episodes with 95% Wilson intervals. Each difference is a later run \
             minus {} in points, paired on the problems both runs scored, with its 95% interval (Bonett–Price \
             adjusted Wald interval for paired proportions); `*` marks an interval that excludes 0.\n",
            l[0]
        );
        for n in &self.notes {
            s += &format!("\n> note: {n}\n");
        }
        s += "\n## Summary\n\n";
        let m = self.entries.len();
        for (j, d) in self.overall.differences.iter().enumerate() {
            let better = self
                .entries
                .iter()
                .filter(|e| e.differences[j].significant && e.differences[j].difference > 0.0)
                .count();
            let worse = self
                .entries
                .iter()
                .filter(|e| e.differences[j].significant && e.differences[j].difference < 0.0)
                .count();
            s += &format!(
                "- **{} − {}**: {:+.1} points [{:+.1}, {:+.1}] overall, {} over {} paired problems; {better} of \
                 {m} entries significantly better, {worse} significantly worse, {} without a significant \
                 difference (were nothing different, about {:.0} of {m} would be marked by chance).\n",
                l[j + 1],
                l[0],
                100.0 * d.difference,
                100.0 * d.ci95[0],
                100.0 * d.ci95[1],
                if d.significant { "significant" } else { "not significant" },
                d.pairs,
                m - better - worse,
                0.05 * m as f64
            );
        }
        s += "\n## By category\n\n";
        s += &self.table(
            "category",
            std::slice::from_ref(&self.overall).iter().chain(&self.categories).collect::<Vec<_>>().as_slice(),
        );
        s += "\n## By entry\n\n";
        s += &self.table("entry", &self.entries.iter().collect::<Vec<_>>());
        s
    }

    fn table(&self, what: &str, rows: &[&ComparedRow]) -> String {
        let l = self.letters();
        let mut s = format!("| {what} | {} |", l[0]);
        for x in &l[1..] {
            s += &format!(" {x} | {x} − {} |", l[0]);
        }
        s += "\n|---|---|";
        s += &"---|---|".repeat(l.len() - 1);
        s += "\n";
        for r in rows {
            let name = if r.name == "all" { "**all**".to_string() } else { r.name.clone() };
            s += &format!("| {name} | {} |", rate(&r.rates[0]));
            for (x, d) in r.rates[1..].iter().zip(&r.differences) {
                s += &format!(" {} | {} |", rate(x), points(d));
            }
            s += "\n";
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_paired_interval_matches_bonett_price() {
        // n = 50 pairs, 14 solved by the first run only, 3 by the second only:
        // p_a = 15/52, p_b = 4/52, centre −11/52, half 1.96·sqrt((19/52 − (11/52)²)/52).
        let d = paired(50, 14, 3);
        let (pa, pb) = (15.0 / 52.0, 4.0 / 52.0);
        let half = 1.959_963_984_540_054 * ((pa + pb - (pb - pa) * (pb - pa)) / 52.0_f64).sqrt();
        assert!((d.ci95[0] - (pb - pa - half)).abs() < 1e-12 && (d.ci95[1] - (pb - pa + half)).abs() < 1e-12);
        assert!((d.difference + 0.22).abs() < 1e-12 && d.significant, "{d:?}");
        // 12 against 4 of 50 is not (McNemar's exact test agrees: p = 0.077).
        let d = paired(50, 12, 4);
        assert!(!d.significant && d.ci95[0] < -0.3 && d.ci95[1] > 0.0, "{d:?}");
        // Nothing discordant: centred on 0, not significant, not empty.
        let d = paired(40, 0, 0);
        assert!(!d.significant && d.ci95[0] < 0.0 && d.ci95[1] > 0.0);
        // 10 of 10 against 0 of 10: significant, but not a zero-width interval.
        let d = paired(10, 0, 10);
        assert!(d.significant && d.ci95[0] < 0.9 && d.ci95[1] == 1.0, "{d:?}");
        assert_eq!(paired(0, 0, 0).ci95, [-1.0, 1.0]);
    }

    #[test]
    fn heat_runs_from_red_to_green() {
        assert_eq!(heat(0.0), RGBColor(215, 48, 39));
        assert_eq!(heat(1.0), RGBColor(26, 152, 80));
        assert_eq!(heat(0.5), RGBColor(254, 224, 139));
    }
}
