//! The model worker: one thread that owns the sampling loop and batches whatever requests are
//! waiting.
//!
//! Handlers validate and tokenise a request, then hand a [`Job`] (one row per choice) to a
//! bounded queue; a full queue answers 503 at once. The worker takes the first waiting job,
//! waits up to [`WorkerConfig::batch_wait`] for more, drains whatever else is already queued
//! up to [`WorkerConfig::max_batch`] rows, and samples them all together with
//! [`gauntlet_model::generate_rows`]. Every row has its own seed and knobs, so a request's answer
//! does not depend on which others share its batch. Tokens go back to each handler through its
//! own channel as they are drawn (streaming needs nothing more), and a finished row is answered
//! at once, not when the batch ends. A handler that goes away (client disconnected) closes its
//! channel, and its rows are cancelled at their next token.
//!
//! Static batching: a batch runs until its last row finishes, and requests that arrive meanwhile
//! wait for the next batch. A panic in the sampling loop fails the batch's requests with 500
//! and the worker goes on with the next batch.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TryRecvError, TrySendError};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use gauntlet_model::{generate_rows, on_pool, ChatModel, FinishReason, Row, RowEvent, SamplingParams};
use tokio::sync::mpsc::UnboundedSender;

/// What the worker tells a handler about its job.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// Choice `choice` sampled a token.
    Token {
        /// Index of the choice.
        choice: usize,
        /// The token id.
        token: u32,
        /// Its behaviour log-prob.
        logprob: f32,
        /// The most likely alternatives (as many as the request asked for).
        top: Vec<(u32, f32)>,
        /// Text the token makes final (streaming requests only).
        text: String,
    },
    /// Choice `choice` finished.
    Done {
        /// Index of the choice.
        choice: usize,
        /// Its whole text.
        text: String,
        /// Why it stopped.
        finish: FinishReason,
        /// Version of the weights that sampled it ([`LiveModel`]).
        version: u64,
    },
    /// The job failed (the model raised an error or the worker panicked).
    Failed(String),
}

/// One choice of a job.
#[derive(Debug, Clone)]
pub struct JobRow {
    /// Seed of the choice's sampling stream.
    pub seed: u64,
    /// Its knobs (the model's EOS among the stop ids).
    pub params: SamplingParams,
}

/// One request: a prompt and one row per choice.
#[derive(Debug)]
pub struct Job {
    /// Prompt token ids.
    pub prompt: Vec<u32>,
    /// The choices.
    pub rows: Vec<JobRow>,
    /// Alternatives per token.
    pub top_logprobs: usize,
    /// Report the text of every token (streaming).
    pub stream_text: bool,
    /// Where the events go.
    pub events: UnboundedSender<Event>,
}

/// The weights the worker samples with, replaceable while it serves: a trainer that serves its
/// policy (`[serve]` in `gauntlet train`) swaps in its newest weights after each update. Each
/// batch samples with the model current when the batch starts and reports that model's version
/// on every answer, so a trace records exactly which weights sampled it. A batch holds the model
/// for reading until it ends: a swap waits for the batch in flight, and
/// [`LiveModel::exclusive`] lets a trainer whose served model shares storage with its variables
/// update them while no batch samples.
///
/// A writer (a swap, an exclusive update) goes first: once one waits, no new batch starts, and it
/// waits for the batch in flight while running the compute pool's work
/// ([`gauntlet_model::wait_on_pool`]), since that batch may need the very pool worker the
/// writer runs on (`gauntlet train` with one thread).
pub struct LiveModel {
    current: RwLock<(Arc<ChatModel>, u64)>,
    /// Writers waiting for the lock; batches do not start while there are any.
    writers: AtomicU64,
}

impl LiveModel {
    /// `chat` as version `version`.
    pub fn new(chat: Arc<ChatModel>, version: u64) -> Self {
        LiveModel { current: RwLock::new((chat, version)), writers: AtomicU64::new(0) }
    }

    /// The lock for writing, ahead of new batches, without holding a pool worker while waiting.
    fn write(&self) -> std::sync::RwLockWriteGuard<'_, (Arc<ChatModel>, u64)> {
        self.writers.fetch_add(1, Ordering::SeqCst);
        let guard =
            gauntlet_model::wait_on_pool(Duration::from_millis(1), || match self.current.try_write() {
                Ok(g) => Some(g),
                Err(std::sync::TryLockError::Poisoned(p)) => Some(p.into_inner()),
                Err(std::sync::TryLockError::WouldBlock) => None,
            });
        self.writers.fetch_sub(1, Ordering::SeqCst);
        guard
    }

    /// The lock for a batch, once no writer waits.
    fn read_for_batch(&self) -> std::sync::RwLockReadGuard<'_, (Arc<ChatModel>, u64)> {
        while self.writers.load(Ordering::SeqCst) > 0 {
            std::thread::sleep(Duration::from_millis(1));
        }
        self.current.read().unwrap_or_else(|p| p.into_inner())
    }

    /// The current model and its version.
    pub fn current(&self) -> (Arc<ChatModel>, u64) {
        let g = self.current.read().unwrap_or_else(|p| p.into_inner());
        (g.0.clone(), g.1)
    }

    /// The current version.
    pub fn version(&self) -> u64 {
        self.current.read().unwrap_or_else(|p| p.into_inner()).1
    }

    /// Replaces the model (once the batch in flight ends); batches that start from then on
    /// sample with `chat` and report `version`.
    pub fn swap(&self, chat: Arc<ChatModel>, version: u64) {
        *self.write() = (chat, version);
    }

    /// Runs `f` while no batch samples (after the batch in flight, before the next).
    pub fn exclusive<R>(&self, f: impl FnOnce() -> R) -> R {
        let _guard = self.write();
        f()
    }
}

/// Batching settings.
#[derive(Debug, Clone, Copy)]
pub struct WorkerConfig {
    /// Most rows (choices) sampled together.
    pub max_batch: usize,
    /// Most requests waiting for the worker; more answer 503.
    pub max_queue: usize,
    /// How long an idle worker waits after the first request for others to join its batch.
    pub batch_wait: Duration,
}

/// Worker counters.
#[derive(Debug, Default)]
pub struct WorkerStats {
    /// Batches sampled.
    pub batches: AtomicU64,
    /// Rows sampled (sum of batch sizes).
    pub rows: AtomicU64,
    /// Tokens sampled.
    pub tokens: AtomicU64,
    /// Requests refused because the queue was full.
    pub rejected: AtomicU64,
    /// Batches that panicked.
    pub panics: AtomicU64,
}

/// Why a job could not be queued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubmitError {
    /// The queue holds `max_queue` requests.
    Full,
    /// The worker has stopped.
    Stopped,
}

/// The handle handlers submit jobs through; the worker thread stops when every handle is gone.
#[derive(Clone)]
pub struct WorkerHandle {
    queue: SyncSender<Job>,
    /// Counters.
    pub stats: Arc<WorkerStats>,
}

impl WorkerHandle {
    /// Starts the worker thread sampling with `model` (its current weights at each batch).
    pub fn spawn(model: Arc<LiveModel>, config: WorkerConfig) -> std::io::Result<Self> {
        let (tx, rx) = std::sync::mpsc::sync_channel(config.max_queue.max(1));
        let stats = Arc::new(WorkerStats::default());
        let s = stats.clone();
        std::thread::Builder::new()
            .name("gauntlet-model".into())
            .spawn(move || run(&model, &rx, config, &s))?;
        Ok(WorkerHandle { queue: tx, stats })
    }

    /// Queues a job, or says why not (without waiting).
    pub fn submit(&self, job: Job) -> Result<(), SubmitError> {
        self.queue.try_send(job).map_err(|e| match e {
            TrySendError::Full(_) => {
                self.stats.rejected.fetch_add(1, Ordering::Relaxed);
                SubmitError::Full
            }
            TrySendError::Disconnected(_) => SubmitError::Stopped,
        })
    }
}

/// The worker loop: collect a batch, sample it, repeat until the queue is closed.
fn run(model: &LiveModel, rx: &Receiver<Job>, config: WorkerConfig, stats: &WorkerStats) {
    let mut carry: Option<Job> = None;
    loop {
        let first = match carry.take() {
            Some(job) => job,
            None => match rx.recv() {
                Ok(job) => job,
                Err(_) => return,
            },
        };
        let mut rows = first.rows.len();
        let mut jobs = vec![first];
        let deadline = Instant::now() + config.batch_wait;
        while rows < config.max_batch {
            let left = deadline.saturating_duration_since(Instant::now());
            let next = if left.is_zero() {
                rx.try_recv().map_err(|e| matches!(e, TryRecvError::Disconnected))
            } else {
                rx.recv_timeout(left).map_err(|e| matches!(e, RecvTimeoutError::Disconnected))
            };
            match next {
                Ok(job) if rows + job.rows.len() > config.max_batch => {
                    carry = Some(job);
                    break;
                }
                Ok(job) => {
                    rows += job.rows.len();
                    jobs.push(job);
                }
                Err(_) => break,
            }
        }
        // Clients that left while queued cost nothing.
        jobs.retain(|j| !j.events.is_closed());
        if !jobs.is_empty() {
            let current = model.read_for_batch();
            sample(&current.0, current.1, &jobs, stats);
        }
    }
}

/// Samples one batch and reports every event to its job.
fn sample(model: &ChatModel, version: u64, jobs: &[Job], stats: &WorkerStats) {
    let owner: Vec<(usize, usize)> =
        jobs.iter().enumerate().flat_map(|(j, job)| (0..job.rows.len()).map(move |c| (j, c))).collect();
    let rows: Vec<Row<'_>> = owner
        .iter()
        .map(|&(j, c)| {
            let job = &jobs[j];
            Row {
                prompt: &job.prompt,
                seed: job.rows[c].seed,
                params: &job.rows[c].params,
                top_logprobs: job.top_logprobs,
                stream_text: job.stream_text,
            }
        })
        .collect();
    stats.batches.fetch_add(1, Ordering::Relaxed);
    stats.rows.fetch_add(rows.len() as u64, Ordering::Relaxed);
    let mut done = vec![false; rows.len()];
    let mut on_event = |e: RowEvent<'_>| -> bool {
        match e {
            RowEvent::Token { row, token, logprob, top, text } => {
                stats.tokens.fetch_add(1, Ordering::Relaxed);
                let (j, choice) = owner[row];
                let ev = Event::Token { choice, token, logprob, top: top.to_vec(), text: text.to_string() };
                jobs[j].events.send(ev).is_ok()
            }
            RowEvent::Done { row, completion } => {
                done[row] = true;
                let (j, choice) = owner[row];
                let ev = Event::Done {
                    choice,
                    text: completion.text.clone(),
                    finish: completion.finish_reason,
                    version,
                };
                jobs[j].events.send(ev).is_ok()
            }
        }
    };
    // On a worker of rayon's pool (`on_pool`: from outside it, every small op of a decoding step
    // costs three thread switches); the same tokens either way.
    let result = std::panic::catch_unwind(AssertUnwindSafe(|| {
        on_pool(|| generate_rows(&model.model, &model.tokenizer, &rows, Some(&mut on_event)))
    }));
    let failure = match result {
        Ok(Ok(_)) => return,
        Ok(Err(e)) => format!("the model failed: {e}"),
        Err(_) => {
            stats.panics.fetch_add(1, Ordering::Relaxed);
            "the model worker hit a bug (panic) sampling this batch; it keeps serving".to_string()
        }
    };
    for (j, job) in jobs.iter().enumerate() {
        let unfinished = owner.iter().zip(&done).any(|(&(o, _), &d)| o == j && !d);
        if unfinished {
            let _ = job.events.send(Event::Failed(failure.clone()));
        }
    }
}
