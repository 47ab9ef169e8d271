//! `verify_batch`: verdicts for many rows, read in Rust and scored on worker threads.
//!
//! What has to hold the GIL (reading each row's columns, building each `Verdict`) costs about as
//! much as checking a cheap family's answer, so doing it all before and after a parallel section
//! would leave the second core idle half the time. Instead the interpreter's thread reads rows in
//! chunks and hands each chunk to the pool as soon as it is read, then turns finished chunks into
//! `Verdict`s, in order, while later chunks are still being checked.

use crate::tasks::{at, find, score_one, Verdict};
use crate::{guarded, pool, Failure, Outcome};
use gauntlet_core::DynTask;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PySequence, PyString};
use std::sync::{mpsc, Arc};

/// Rows per unit of work handed to the pool.
const CHUNK: usize = 64;

/// Register this module's functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(verify_rows, m)?)?;
    Ok(())
}

/// One row's work: its family, serialized problem and response.
struct Item {
    task: Arc<dyn DynTask>,
    problem: String,
    response: String,
}

/// Reads rows into [`Item`]s: the dict fast path in Rust, anything else through the Python
/// layer's `_row_task_problem` (which also words every error).
struct Reader<'py> {
    py: Python<'py>,
    rows: Bound<'py, PySequence>,
    responses: Option<Bound<'py, PySequence>>,
    families: Vec<(String, Arc<dyn DynTask>)>,
}

impl<'py> Reader<'py> {
    /// Row `i` as an [`Item`], or the error that names its bad field.
    fn item(&mut self, i: usize) -> PyResult<Item> {
        let row = self.rows.get_item(i)?;
        let (name, problem) = match fast_task_problem(&row)? {
            Some(tp) => tp,
            None => {
                let slow = self.py.import("gauntlet.tasks")?.getattr("_row_task_problem")?;
                slow.call1((&row, i))?.extract()?
            }
        };
        let response = self.response(&row, i)?;
        let task = self.family(&name).map_err(|f| at(i, f).into_pyerr(self.py))?;
        Ok(Item { task, problem, response })
    }

    /// Row `i`'s response: from `responses` (any object, as `str()`), else the row's `response`.
    fn response(&self, row: &Bound<'py, PyAny>, i: usize) -> PyResult<String> {
        if let Some(all) = &self.responses {
            let r = all.get_item(i)?;
            return match r.cast::<PyString>() {
                Ok(s) => s.to_str().map(str::to_owned),
                Err(_) => Ok(r.str()?.to_str()?.to_owned()),
            };
        }
        let r = match row.cast::<PyDict>() {
            Ok(d) => d.get_item("response")?,
            Err(_) => Some(row.call_method1("get", ("response",))?),
        };
        match r.as_ref().map(|r| r.cast::<PyString>()) {
            Some(Ok(s)) => Ok(s.to_str()?.to_owned()),
            _ => {
                let msg = format!("row {i}: field `response`: missing (or pass responses=[...])");
                Err(Failure::new("BadRowError", msg).with_field("response").into_pyerr(self.py))
            }
        }
    }

    /// The family called `name`, looked up once per call.
    fn family(&mut self, name: &str) -> Outcome<Arc<dyn DynTask>> {
        if let Some((_, t)) = self.families.iter().find(|(n, _)| n == name) {
            return Ok(t.clone());
        }
        let t = find(name)?;
        self.families.push((name.to_owned(), t.clone()));
        Ok(t)
    }

    /// Rows `range` as items.
    fn chunk(&mut self, range: std::ops::Range<usize>) -> PyResult<Vec<Item>> {
        range.map(|i| self.item(i)).collect()
    }
}

/// `(task, problem)` of a plain dict row in gauntlet's layouts (a dataset entry's `metadata`, or a
/// verl/TRL row's `extra_info.task`/`data_source` and `reward_model.ground_truth` as text), or
/// `None` when the row needs the Python layer's slower, error-naming path.
fn fast_task_problem<'py>(row: &Bound<'py, PyAny>) -> PyResult<Option<(String, String)>> {
    let Ok(row) = row.cast::<PyDict>() else { return Ok(None) };
    let text = |v: Option<Bound<'py, PyAny>>| -> PyResult<Option<String>> {
        match v.as_ref().map(|v| v.cast::<PyString>()) {
            Some(Ok(s)) => Ok(Some(s.to_str()?.to_owned())),
            _ => Ok(None),
        }
    };
    let dict = |v: Option<Bound<'py, PyAny>>| v.and_then(|v| v.cast_into::<PyDict>().ok());
    if let Some(meta) = dict(row.get_item("metadata")?) {
        if meta.contains("problem")? {
            let (task, problem) = (text(meta.get_item("task")?)?, text(meta.get_item("problem")?)?);
            return Ok(task.zip(problem));
        }
    }
    let extra_task = match dict(row.get_item("extra_info")?) {
        Some(extra) => extra.get_item("task")?.filter(|t| !t.is_none()),
        None => None,
    };
    let task = match extra_task {
        Some(t) => text(Some(t))?,
        None => {
            text(row.get_item("data_source")?)?.and_then(|ds| ds.strip_prefix("gauntlet/").map(str::to_owned))
        }
    };
    let problem = match dict(row.get_item("reward_model")?) {
        Some(rm) => text(rm.get_item("ground_truth")?)?,
        None => None,
    };
    Ok(task.zip(problem))
}

/// Checks one chunk of items (rows `start..`) on a worker thread; a panic becomes an error.
fn check(start: usize, items: &[Item]) -> Outcome<Vec<Verdict>> {
    guarded(|| {
        let one = |(j, it): (usize, &Item)| {
            score_one(&*it.task, &it.problem, &it.response).map_err(|f| at(start + j, f))
        };
        items.iter().enumerate().map(one).collect()
    })
}

/// Verdicts `(reward, correct, format_error, reason)` as `gauntlet.Verdict`s of `rows` (dataset
/// entries or verl/TRL rows) against `responses` (or each row's `response`), checked on `threads`
/// Rust threads (0 = one per core). Errors name the row and the field.
#[pyfunction]
#[pyo3(signature = (rows, responses=None, threads=0))]
fn verify_rows<'py>(
    py: Python<'py>,
    rows: &Bound<'py, PyAny>,
    responses: Option<&Bound<'py, PyAny>>,
    threads: usize,
) -> PyResult<Bound<'py, PyList>> {
    let rows = rows.cast::<PySequence>()?.clone();
    let n = rows.len()?;
    let responses = responses.map(|r| r.cast::<PySequence>().cloned()).transpose()?;
    if let Some(r) = &responses {
        if r.len()? != n {
            let msg = format!("{} responses for {n} rows", r.len()?);
            return Err(Failure::new("BadRowError", msg).into_pyerr(py));
        }
    }
    let cls = py.import("gauntlet.tasks")?.getattr("Verdict")?;
    let mut reader = Reader { py, rows, responses, families: Vec::new() };
    let workers = match threads {
        0 => std::thread::available_parallelism().map_or(1, |p| p.get()),
        t => t,
    };
    let verdicts = if workers == 1 || n <= CHUNK {
        let items = reader.chunk(0..n)?;
        let verdicts = crate::detached(py, || check(0, &items))?;
        verdicts.into_iter().map(|v| cls.call1(v)).collect::<PyResult<Vec<_>>>()?
    } else {
        pipelined(&mut reader, n, workers, &cls)?
    };
    PyList::new(py, verdicts)
}

/// Reads chunk after chunk and hands each to the pool, converting finished chunks in order.
fn pipelined<'py>(
    reader: &mut Reader<'py>,
    n: usize,
    workers: usize,
    cls: &Bound<'py, PyAny>,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let py = reader.py;
    let pool = pool(workers).map_err(|f| f.into_pyerr(py))?;
    let chunks = n.div_ceil(CHUNK);
    let (tx, rx) = mpsc::channel::<(usize, Outcome<Vec<Verdict>>)>();
    let mut done: Vec<Option<Outcome<Vec<Verdict>>>> = (0..chunks).map(|_| None).collect();
    let mut out = Vec::with_capacity(n);
    let mut next = 0;
    // Moves finished chunks, in order, from `done` into `out` as Python objects.
    let mut convert = |done: &mut Vec<Option<Outcome<Vec<Verdict>>>>, out: &mut Vec<_>| -> PyResult<()> {
        while next < chunks {
            let Some(result) = done[next].take() else { break };
            for v in result.map_err(|f| f.into_pyerr(py))? {
                out.push(cls.call1(v)?);
            }
            next += 1;
        }
        Ok(())
    };
    for k in 0..chunks {
        let start = k * CHUNK;
        let items = reader.chunk(start..n.min(start + CHUNK))?;
        let tx = tx.clone();
        pool.spawn(move || {
            let _ = tx.send((k, check(start, &items)));
        });
        while let Ok((j, r)) = rx.try_recv() {
            done[j] = Some(r);
        }
        convert(&mut done, &mut out)?;
    }
    drop(tx);
    let mut rx = rx;
    while out.len() < n {
        // Wait without the GIL (the receiver travels into the wait and back: it is not `Sync`).
        let (back, got) = py.detach(move || {
            let got = rx.recv();
            (rx, got)
        });
        rx = back;
        let (j, r) = got.map_err(|_| {
            Failure::new("InternalError", "a verify_batch worker stopped without a result").into_pyerr(py)
        })?;
        done[j] = Some(r);
        convert(&mut done, &mut out)?;
    }
    Ok(out)
}
