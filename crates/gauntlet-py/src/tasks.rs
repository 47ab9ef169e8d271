//! Single-turn task families: listings, generation, scoring and dataset rows.
//!
//! Problems cross the boundary as JSON text (the `reward_model.ground_truth` of a row), so an
//! entry can be pickled, stored in a dataset column and scored later, in any process.

use crate::{detached, pool, Failure, Outcome};
use gauntlet_core::extract::{extract_answer, Extraction};
use gauntlet_core::{Difficulty, DynTask, Score};
use gauntlet_tasks::overrides::Overrides;
use gauntlet_tasks::rows::Row;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use rayon::prelude::*;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

/// Register this module's functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(task_specs, m)?)?;
    m.add_function(wrap_pyfunction!(canonical_task, m)?)?;
    m.add_function(wrap_pyfunction!(generate_entries, m)?)?;
    m.add_function(wrap_pyfunction!(score, m)?)?;
    m.add_function(wrap_pyfunction!(score_entry, m)?)?;
    m.add_function(wrap_pyfunction!(score_batch, m)?)?;
    m.add_function(wrap_pyfunction!(generate_jsonl, m)?)?;
    m.add_function(wrap_pyfunction!(composite_plan, m)?)?;
    m.add_function(wrap_pyfunction!(task_aliases, m)?)?;
    m.add_function(wrap_pyfunction!(alias_level, m)?)?;
    m.add_function(wrap_pyfunction!(alias_overrides, m)?)?;
    m.add_function(wrap_pyfunction!(extract, m)?)?;
    Ok(())
}

/// The family called `name`, or `UnknownTaskError` with the closest names. Names already
/// found are remembered per thread (the registry lookup scans every family's spec).
pub fn find(name: &str) -> Outcome<Arc<dyn DynTask>> {
    thread_local! {
        static FOUND: RefCell<HashMap<String, Arc<dyn DynTask>>> = RefCell::new(HashMap::new());
    }
    if let Some(t) = FOUND.with(|f| f.borrow().get(name).cloned()) {
        return Ok(t);
    }
    let t = lookup(name)?;
    FOUND.with(|f| f.borrow_mut().insert(name.to_owned(), t.clone()));
    Ok(t)
}

fn lookup(name: &str) -> Outcome<Arc<dyn DynTask>> {
    gauntlet_tasks::get(name).map_err(|e| {
        let mut f = Failure::new("UnknownTaskError", e.to_string()).with_field("name");
        f.suggestions = e.suggestions;
        f
    })
}

/// Every family as a dict: name, category, description, levels (5 strings), answer_format.
#[pyfunction]
fn task_specs(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let out = PyList::empty(py);
    for t in gauntlet_tasks::registry() {
        let s = t.spec();
        let d = PyDict::new(py);
        d.set_item("name", s.name)?;
        d.set_item("category", s.category.name())?;
        d.set_item("description", s.description)?;
        d.set_item("levels", s.levels.to_vec())?;
        d.set_item("answer_format", s.answer_format)?;
        out.append(d)?;
    }
    Ok(out)
}

/// The registry name of `name` (`-`/`_` and case folded), or `UnknownTaskError`.
#[pyfunction]
fn canonical_task(py: Python<'_>, name: &str) -> PyResult<String> {
    find(name).map(|t| t.spec().name.to_string()).map_err(|f| f.into_pyerr(py))
}

/// One generated entry: prompt, serialized problem (JSON text) and the oracle's bare answer.
type Entry = (String, String, String);

fn entry(task: &dyn DynTask, seed: u64, d: Difficulty, o: &Overrides) -> Outcome<Entry> {
    let inst = if o.is_empty() {
        task.instance(seed, d)
    } else {
        gauntlet_tasks::overrides::instance(task.spec().name, seed, d, o)
            .map_err(|m| Failure::new("ConfigError", m).with_field("config"))?
    };
    let problem = serde_json::to_string(&inst.problem).expect("JSON values serialize");
    let response = task
        .oracle_response_of(&inst.problem)
        .map_err(|e| Failure::new("InternalError", format!("oracle failed on its own problem: {e}")))?;
    Ok((inst.prompt, problem, bare_answer(&response)))
}

/// The text inside the extraction wrapper of an oracle response.
fn bare_answer(response: &str) -> String {
    [Extraction::AnswerTag, Extraction::Boxed, Extraction::Fenced]
        .into_iter()
        .find_map(|m| extract_answer(response, m))
        .unwrap_or(response)
        .to_string()
}

/// Generate the entries of `name` for each seed at `level`, on `threads` Rust threads (0 = all
/// cores), without the GIL. `config` (reasoning-gym key, value pairs of reasoning-gym name
/// `alias`) sets generator parameters past the level ([`gauntlet_tasks::overrides`]).
#[pyfunction]
#[pyo3(signature = (name, seeds, level=1, threads=1, alias=None, config=None))]
fn generate_entries(
    py: Python<'_>,
    name: &str,
    seeds: Vec<u64>,
    level: i64,
    threads: usize,
    alias: Option<&str>,
    config: Option<Vec<(String, f64)>>,
) -> PyResult<Vec<Entry>> {
    detached(py, || {
        let task = find(name)?;
        let d = crate::level(level)?;
        let o = match (alias, config) {
            (Some(alias), Some(config)) => overrides_of(alias, &config)?,
            _ => Overrides::NONE,
        };
        if seeds.len() < 2 || threads == 1 {
            return seeds.iter().map(|&s| entry(&*task, s, d, &o)).collect();
        }
        pool(threads)?.install(|| seeds.par_iter().map(|&s| entry(&*task, s, d, &o)).collect())
    })
}

fn overrides_of(alias: &str, config: &[(String, f64)]) -> Outcome<Overrides> {
    let pairs: Vec<(&str, f64)> = config.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    gauntlet_tasks::overrides::resolve(&gauntlet_tasks::aliases::fold(alias), &pairs)
        .map_err(|m| Failure::new("ConfigError", m).with_field("config"))
}

/// The generator parameters reasoning-gym configuration `config` of alias `name` sets, as
/// `(parameter, lo, hi)` ranges (empty when it sets none); `ConfigError` for a value out of
/// bounds or a `min_` above its `max_`.
#[pyfunction]
fn alias_overrides(
    py: Python<'_>,
    name: &str,
    config: Vec<(String, f64)>,
) -> PyResult<Vec<(String, i64, i64)>> {
    let o = overrides_of(name, &config).map_err(|f| f.into_pyerr(py))?;
    Ok(o.ranges().iter().map(|&(n, lo, hi)| (n.to_string(), lo, hi)).collect())
}

/// A verdict as Python sees it: (reward, correct, format_error, reason).
pub(crate) type Verdict = (f64, bool, bool, String);

fn verdict(s: Score) -> Verdict {
    let fe = s.is_format_error();
    (s.reward, s.correct, fe, s.reason)
}

pub(crate) fn score_one(task: &dyn DynTask, problem: &str, response: &str) -> Outcome<Verdict> {
    let s = task
        .score_json(problem, response)
        .map_err(|e| Failure::new("BadProblemError", e.to_string()).with_field("problem"))?;
    Ok(verdict(s))
}

/// Score one full response (the answer inside `<answer>…</answer>`) against a serialized
/// problem of family `name`.
#[pyfunction]
fn score(py: Python<'_>, name: &str, problem: &str, response: &str) -> PyResult<Verdict> {
    detached(py, || score_one(&*find(name)?, problem, response))
}

/// Reward of `answer` (a bare answer, a response with an `<answer>` block, or `None`) for a
/// dataset entry: `dataset.score_answer`'s whole path in one call. Entries that are not plain
/// dicts with `metadata.task` and `metadata.problem` strings go through the Python layer's
/// `_problem_of`, which names what is missing.
#[pyfunction]
fn score_entry(py: Python<'_>, answer: &Bound<'_, PyAny>, entry: &Bound<'_, PyAny>) -> PyResult<f64> {
    let (name, problem) = match entry_task_problem(entry)? {
        Some(tp) => tp,
        None => py.import("gauntlet.tasks")?.getattr("_problem_of")?.call1((entry,))?.extract()?,
    };
    let response = if answer.is_none() {
        String::new()
    } else {
        let text = answer.str()?.to_str()?.to_owned();
        if text.to_lowercase().contains("<answer>") {
            text
        } else {
            format!("<answer>{text}</answer>")
        }
    };
    detached(py, || score_one(&*find(&name)?, &problem, &response).map(|v| v.0))
}

/// `(metadata.task, metadata.problem)` of a plain dict entry, or `None`.
fn entry_task_problem(entry: &Bound<'_, PyAny>) -> PyResult<Option<(String, String)>> {
    let py = entry.py();
    let Ok(entry) = entry.cast::<PyDict>() else { return Ok(None) };
    let Some(meta) = entry.get_item(intern!(py, "metadata"))? else { return Ok(None) };
    let Ok(meta) = meta.cast_into::<PyDict>() else { return Ok(None) };
    let text = |key: &Bound<'_, PyString>| -> PyResult<Option<String>> {
        Ok(match meta.get_item(key)? {
            Some(v) => v.cast::<PyString>().ok().map(|s| s.to_str().map(str::to_owned)).transpose()?,
            None => None,
        })
    };
    Ok(text(intern!(py, "task"))?.zip(text(intern!(py, "problem"))?))
}

/// Score many responses in parallel on `threads` Rust threads (0 = all cores). `names` and
/// `problems` have one entry per response. An error names the position of the bad item.
#[pyfunction]
#[pyo3(signature = (names, problems, responses, threads=0))]
fn score_batch(
    py: Python<'_>,
    names: Vec<String>,
    problems: Vec<String>,
    responses: Vec<String>,
    threads: usize,
) -> PyResult<Vec<Verdict>> {
    detached(py, || {
        let n = responses.len();
        if names.len() != n || problems.len() != n {
            let msg = format!(
                "names, problems and responses must have the same length, got {}, {} and {n}",
                names.len(),
                problems.len()
            );
            return Err(Failure::new("BadRowError", msg).with_field("responses"));
        }
        let one = |i: usize| {
            let task = find(&names[i]).map_err(|f| at(i, f))?;
            score_one(&*task, &problems[i], &responses[i]).map_err(|f| at(i, f))
        };
        if threads == 1 || n < 2 {
            return (0..n).map(one).collect();
        }
        pool(threads)?.install(|| (0..n).into_par_iter().map(one).collect())
    })
}

/// Prefix a failure's message with the item it is about.
pub(crate) fn at(i: usize, mut f: Failure) -> Failure {
    f.message = format!("item {i}: {}", f.message);
    f
}

/// Dataset rows as JSONL, byte-identical to `gauntlet generate TASKS -n COUNT --seed SEED
/// --level LEVEL` (`tasks` is a name, a comma-separated list or `all`).
#[pyfunction]
#[pyo3(signature = (tasks, count=100, seed=0, level=1, threads=0))]
fn generate_jsonl<'py>(
    py: Python<'py>,
    tasks: &str,
    count: u64,
    seed: u64,
    level: i64,
    threads: usize,
) -> PyResult<Bound<'py, PyBytes>> {
    let bytes = detached(py, || {
        let families = resolve(tasks)?;
        let d = crate::level(level)?;
        let jobs: Vec<(usize, u64)> =
            (0..families.len()).flat_map(|f| (0..count).map(move |i| (f, i))).collect();
        let line = |(idx, &(f, i)): (usize, &(usize, u64))| {
            let t = &families[f];
            let inst = t.instance(seed.wrapping_add(i), d);
            let mut s = serde_json::to_vec(&Row::from_instance(&t.spec(), &inst, idx as u64))
                .expect("rows serialize");
            s.push(b'\n');
            s
        };
        let lines: Vec<Vec<u8>> = if threads == 1 {
            jobs.iter().enumerate().map(line).collect()
        } else {
            pool(threads)?.install(|| jobs.par_iter().enumerate().map(line).collect())
        };
        Ok(lines.concat())
    })?;
    Ok(PyBytes::new(py, &bytes))
}

/// `a,b` or `all` into families, as `gauntlet generate` resolves them.
fn resolve(spec: &str) -> Outcome<Vec<Arc<dyn DynTask>>> {
    if spec.trim() == "all" {
        return Ok(gauntlet_tasks::registry().to_vec());
    }
    let out: Vec<_> = spec.split(',').filter(|s| !s.trim().is_empty()).map(find).collect::<Outcome<_>>()?;
    if out.is_empty() {
        return Err(Failure::new("UnknownTaskError", "no task named (give a name, `a,b` or `all`)")
            .with_field("tasks"));
    }
    Ok(out)
}

/// Which member of a composite dataset each of `size` entries comes from: entry `i` draws from
/// the weights with `Rng::new(seed)` advanced in order, so the plan is a pure function of
/// `(seed, size, weights)`.
#[pyfunction]
fn composite_plan(py: Python<'_>, seed: u64, size: usize, weights: Vec<f64>) -> PyResult<Vec<usize>> {
    detached(py, || {
        if weights.is_empty() || weights.iter().any(|w| !w.is_finite() || *w < 0.0) {
            return Err(Failure::new("ConfigError", "weights must be finite numbers >= 0, at least one")
                .with_field("weights"));
        }
        let total: f64 = weights.iter().sum();
        if total <= 0.0 {
            return Err(Failure::new("ConfigError", "weights sum to 0").with_field("weights"));
        }
        let mut rng = gauntlet_core::Rng::new(seed);
        Ok((0..size)
            .map(|_| {
                let mut x = rng.unit() * total;
                for (k, w) in weights.iter().enumerate() {
                    if x < *w {
                        return k;
                    }
                    x -= w;
                }
                weights.iter().rposition(|w| *w > 0.0).unwrap_or(0)
            })
            .collect())
    })
}

/// Every reasoning-gym name gauntlet accepts, as dicts: name, family, level (nearest
/// reasoning-gym's default), differs (what is not the same), keys (every configuration key it
/// takes), overrides (the keys that set a generator parameter: keys, param, defaults, bounds,
/// doc; the other keys choose a level), fields (problem fields reasoning-gym names differently:
/// ours -> theirs).
#[pyfunction]
fn task_aliases(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let out = PyList::empty(py);
    for a in gauntlet_tasks::aliases::ALIASES {
        let d = PyDict::new(py);
        d.set_item("name", a.name)?;
        d.set_item("family", a.family)?;
        d.set_item("level", a.level)?;
        d.set_item("differs", a.differs)?;
        d.set_item("keys", gauntlet_tasks::aliases::accepted_keys(a))?;
        let sets = PyList::empty(py);
        for p in gauntlet_tasks::overrides::PARAMS.iter().filter(|p| p.alias == a.name) {
            let s = PyDict::new(py);
            s.set_item("keys", p.keys.to_vec())?;
            s.set_item("param", p.name)?;
            s.set_item("defaults", p.defaults.to_vec())?;
            s.set_item("bounds", p.bounds)?;
            s.set_item("doc", p.doc)?;
            sets.append(s)?;
        }
        d.set_item("overrides", sets)?;
        let fields = PyDict::new(py);
        for (_, ours, theirs) in gauntlet_tasks::aliases::FIELDS.iter().filter(|f| f.0 == a.name) {
            fields.set_item(*ours, *theirs)?;
        }
        d.set_item("fields", fields)?;
        out.append(d)?;
    }
    Ok(out)
}

/// The level reasoning-gym configuration `config` (key, number pairs) of alias `name` maps to;
/// `None` when `name` is not a reasoning-gym name or no key is given. `ConfigError` names the
/// accepted keys when one is not.
#[pyfunction]
fn alias_level(py: Python<'_>, name: &str, config: Vec<(String, f64)>) -> PyResult<Option<u8>> {
    let Some(alias) = gauntlet_tasks::aliases::alias(name) else { return Ok(None) };
    let pairs: Vec<(&str, f64)> = config.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    gauntlet_tasks::aliases::level_for(alias, &pairs)
        .map_err(|m| Failure::new("ConfigError", m).with_field("config").into_pyerr(py))
}

/// The answer inside the last `<answer>` block (`mode="answer"`), `\boxed{}` (`"boxed"`) or
/// fenced code block (`"fenced"`) of `response`, or `None` when it has none.
#[pyfunction]
fn extract(py: Python<'_>, response: &str, mode: &str) -> PyResult<Option<String>> {
    let Some(m) = Extraction::parse(mode) else {
        let msg = format!("extract must be \"answer\", \"boxed\" or \"fenced\", got {mode:?}");
        return Err(Failure::new("ConfigError", msg).with_field("extract").into_pyerr(py));
    };
    Ok(extract_answer(response, m).map(|s| s.trim().to_string()))
}
