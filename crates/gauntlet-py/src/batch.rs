//! `verify_batch`: verdicts for many rows, read in Rust and scored on worker threads.
//!
//! What has to hold the GIL (reading each row's columns, building each `Verdict`) costs about as
//! much as checking a cheap family's answer, so doing it all before and after a parallel section
//! would leave the second core idle half the time. Instead the interpreter's thread reads rows in
//! chunks and queues each chunk as soon as it is read for the pool's workers, turning finished
//! chunks into `Verdict`s, in order, between reads; once every row is read it checks what is
//! still queued itself (without the GIL) and converts the rest. With `threads = T` that is
//! `T - 1` pool workers plus the calling thread: never more busy threads than asked for.

use crate::tasks::{at, find, score_one, Verdict};
use crate::{guarded, pool, Failure, Outcome};
use gauntlet_core::DynTask;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyList, PySequence, PyString, PyTuple};
use std::collections::VecDeque;
use std::sync::{mpsc, Arc, Condvar, Mutex};

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
            Ok(d) => d.get_item(intern!(self.py, "response"))?,
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
    let py = row.py();
    let Ok(row) = row.cast::<PyDict>() else { return Ok(None) };
    let text = |v: Option<Bound<'py, PyAny>>| -> PyResult<Option<String>> {
        match v.as_ref().map(|v| v.cast::<PyString>()) {
            Some(Ok(s)) => Ok(Some(s.to_str()?.to_owned())),
            _ => Ok(None),
        }
    };
    let dict = |v: Option<Bound<'py, PyAny>>| v.and_then(|v| v.cast_into::<PyDict>().ok());
    if let Some(meta) = dict(row.get_item(intern!(py, "metadata"))?) {
        if meta.contains(intern!(py, "problem"))? {
            let (task, problem) =
                (text(meta.get_item(intern!(py, "task"))?)?, text(meta.get_item(intern!(py, "problem"))?)?);
            return Ok(task.zip(problem));
        }
    }
    let extra_task = match dict(row.get_item(intern!(py, "extra_info"))?) {
        Some(extra) => extra.get_item(intern!(py, "task"))?.filter(|t| !t.is_none()),
        None => None,
    };
    let task = match extra_task {
        Some(t) => text(Some(t))?,
        None => text(row.get_item(intern!(py, "data_source"))?)?
            .and_then(|ds| ds.strip_prefix("gauntlet/").map(str::to_owned)),
    };
    let problem = match dict(row.get_item(intern!(py, "reward_model"))?) {
        Some(rm) => text(rm.get_item(intern!(py, "ground_truth"))?)?,
        None => None,
    };
    Ok(task.zip(problem))
}

/// Builds `gauntlet.Verdict`s: `tuple.__new__(Verdict, fields)`, which is what the namedtuple's
/// own (Python-level) constructor ends in, without the Python frame. Verdicts are immutable
/// tuples, so every correct one is the same shared object (`Verdict(1.0, True, False, "ok")`).
struct Verdicts<'py> {
    cls: Bound<'py, PyAny>,
    new: Bound<'py, PyAny>,
    correct: Bound<'py, PyAny>,
}

impl<'py> Verdicts<'py> {
    fn new(py: Python<'py>) -> PyResult<Self> {
        let cls = py.import("gauntlet.tasks")?.getattr("Verdict")?;
        let new = py.get_type::<PyTuple>().getattr(intern!(py, "__new__"))?;
        let correct = new.call1((&cls, (1.0, true, false, "ok")))?;
        Ok(Verdicts { cls, new, correct })
    }

    fn make(&self, (reward, correct, format_error, reason): Verdict) -> PyResult<Bound<'py, PyAny>> {
        if correct && reward == 1.0 && !format_error && reason == "ok" {
            return Ok(self.correct.clone());
        }
        let py = self.cls.py();
        let fields = PyTuple::new(
            py,
            [
                PyFloat::new(py, reward).into_any(),
                PyBool::new(py, correct).to_owned().into_any(),
                PyBool::new(py, format_error).to_owned().into_any(),
                PyString::new(py, &reason).into_any(),
            ],
        )?;
        self.new.call1((&self.cls, fields))
    }
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
    let verdicts = Verdicts::new(py)?;
    let mut reader = Reader { py, rows, responses, families: Vec::new() };
    let workers = match threads {
        0 => std::thread::available_parallelism().map_or(1, |p| p.get()),
        t => t,
    };
    let out = if workers == 1 || n <= CHUNK {
        let items = reader.chunk(0..n)?;
        let checked = crate::detached(py, || check(0, &items))?;
        checked.into_iter().map(|v| verdicts.make(v)).collect::<PyResult<Vec<_>>>()?
    } else {
        pipelined(&mut reader, n, workers, &verdicts)?
    };
    PyList::new(py, out)
}

/// Chunks read but not yet checked, shared by the calling thread and the pool's workers.
#[derive(Default)]
struct Queue {
    state: Mutex<Pending>,
    ready: Condvar,
}

/// The queued chunks (index, items) and whether the queue is closed.
#[derive(Default)]
struct Pending {
    chunks: VecDeque<(usize, Vec<Item>)>,
    closed: bool,
}

impl Queue {
    fn push(&self, k: usize, items: Vec<Item>) {
        self.lock().chunks.push_back((k, items));
        self.ready.notify_one();
    }

    /// No more chunks will come: workers return once the queue is empty.
    fn close(&self) {
        self.lock().closed = true;
        self.ready.notify_all();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Pending> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The next chunk, waiting for one unless `wait` is false or the queue is closed.
    fn pop(&self, wait: bool) -> Option<(usize, Vec<Item>)> {
        let mut state = self.lock();
        loop {
            if let Some(job) = state.chunks.pop_front() {
                return Some(job);
            }
            if !wait || state.closed {
                return None;
            }
            state = self.ready.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Checks chunks until none is left (and, when `wait`, until the queue is closed).
    fn drain(&self, wait: bool, tx: &mpsc::Sender<(usize, Outcome<Vec<Verdict>>)>) {
        while let Some((k, items)) = self.pop(wait) {
            let _ = tx.send((k, check(k * CHUNK, &items)));
        }
    }
}

/// Closes the queue when the call ends, however it ends, so no worker waits forever.
struct Closing(Arc<Queue>);

impl Drop for Closing {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// Reads chunk after chunk into the queue that `workers - 1` pool threads drain, converting
/// finished chunks in order between reads; then drains the rest itself, without the GIL, and
/// converts what is left. No more threads than cores are busy at once.
fn pipelined<'py>(
    reader: &mut Reader<'py>,
    n: usize,
    workers: usize,
    verdicts: &Verdicts<'py>,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let py = reader.py;
    let pool = pool(workers - 1).map_err(|f| f.into_pyerr(py))?;
    let chunks = n.div_ceil(CHUNK);
    let (tx, rx) = mpsc::channel::<(usize, Outcome<Vec<Verdict>>)>();
    let queue = Closing(Arc::new(Queue::default()));
    for _ in 1..workers {
        let (q, tx) = (queue.0.clone(), tx.clone());
        pool.spawn(move || q.drain(true, &tx));
    }
    let mut done: Vec<Option<Outcome<Vec<Verdict>>>> = (0..chunks).map(|_| None).collect();
    let mut out = Vec::with_capacity(n);
    let mut next = 0;
    // Moves finished chunks, in order, from `done` into `out` as Python objects.
    let mut convert = |done: &mut Vec<Option<Outcome<Vec<Verdict>>>>, out: &mut Vec<_>| -> PyResult<()> {
        while next < chunks {
            let Some(result) = done[next].take() else { break };
            for v in result.map_err(|f| f.into_pyerr(py))? {
                out.push(verdicts.make(v)?);
            }
            next += 1;
        }
        Ok(())
    };
    for k in 0..chunks {
        let start = k * CHUNK;
        queue.0.push(k, reader.chunk(start..n.min(start + CHUNK))?);
        while let Ok((j, r)) = rx.try_recv() {
            done[j] = Some(r);
        }
        convert(&mut done, &mut out)?;
    }
    queue.0.close();
    let q = queue.0.clone();
    let tx = py.detach(move || {
        q.drain(false, &tx);
        tx
    });
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
