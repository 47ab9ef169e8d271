//! The OpenAI-compatible HTTP backend: any server with `POST {base}/chat/completions` (vLLM,
//! SGLang, llama.cpp, `gauntlet serve policy`, OpenAI itself) as a [`Policy`].
//!
//! [`OpenAiPolicy::respond`] sends every request of a batch at once from a small internal tokio
//! runtime (thousands of requests in flight cost a few kilobytes each, not a thread each), at
//! most [`OpenAiConfig::concurrency`] at a time (a semaphore shared by all clones of the
//! policy). Each request:
//!
//! - carries its own `seed` (the agent loop's per-request seed), so a server that honours seeds
//!   answers the same thing whatever else is in flight;
//! - asks for `logprobs: true` and, with [`OpenAiConfig::token_ids`] (the default), for vLLM's
//!   token-id extensions: `return_token_ids: true` (answered with `prompt_token_ids` on the
//!   response and `token_ids` on the choice) and `return_tokens_as_token_ids: true` (log-prob
//!   entries named `"token_id:123"`, the fallback for servers that only have that one). The
//!   [`Response`] then holds the exact prompt and response ids and the behaviour log-probs, as a
//!   [`crate::LocalPolicy`] would; without them the ids are empty and only text comes back;
//! - times out after [`OpenAiConfig::timeout`] per attempt and is retried up to
//!   [`OpenAiConfig::retries`] times on connection errors, timeouts, 429 and 5xx, after a
//!   jittered exponential backoff (`base · 2^attempt`, capped, times a seeded factor in
//!   `[0.5, 1)`), or after exactly the server's `Retry-After` seconds when it sends one (at most
//!   60 s). Other 4xx answers are not retried: the request itself is wrong;
//! - passes a circuit breaker shared by all requests: after
//!   [`OpenAiConfig::breaker_failures`] failed attempts in a row (connection errors, timeouts,
//!   5xx), requests fail at once for [`OpenAiConfig::breaker_cooldown`]; then one request is let
//!   through as a probe (half-open) and its outcome closes or re-opens the breaker.
//!
//! A request that still fails is answered `Err(PolicyError)` naming the URL, the status or error
//! and the attempts made, so the agent loop records a failed episode, never a dropped one.
//!
//! **Episode tags.** With [`OpenAiPolicy::with_episode_tag`]`(PREFIX)` every request of
//! [`Policy::respond`] carries the header `x-gauntlet-episode: PREFIX-I`, `I` the request's
//! [`Request::episode`] (its episode's index among the specs being played), so a server that
//! records traces (`gauntlet serve policy`, a training run's `[serve]` endpoint) groups the calls
//! of one episode; `gauntlet rollout` reports each episode's outcome under that id. Without a tag
//! no header is sent.
//!
//! Design choice: plain `reqwest` over HTTP/1.1 with connection pooling and no TLS stack (the
//! servers a trainer talks to sit on loopback or a cluster network); an `https://` URL is refused
//! when the policy is built, naming the fix (a local HTTP proxy or gateway).
//!
//! ```no_run
//! use gauntlet_rollout::{play, EpisodeSpec, OpenAiConfig, OpenAiPolicy, RolloutOptions};
//! let mut config = OpenAiConfig::from_spec("openai:http://127.0.0.1:8000/v1#tiny").unwrap();
//! config.params.max_tokens = 64;
//! let mut policy = OpenAiPolicy::new(config).unwrap();
//! let specs = EpisodeSpec::groups("caesar", 1, &[1, 2, 3], 4);
//! let episodes = play(&specs, &mut policy, &RolloutOptions::default()).unwrap();
//! for e in &episodes {
//!     println!("{} {:?}", e.success, e.error); // failed requests are kept with their error
//! }
//! ```

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use gauntlet_core::{rng::splitmix64, Rng};
use gauntlet_model::{ChatMessage, SamplingParams};
use serde_json::{json, Value};
use tokio::sync::Semaphore;

use crate::{Finish, Policy, PolicyError, Request, Response};

/// The longest `Retry-After` honoured, in seconds.
pub const MAX_RETRY_AFTER_SECS: f64 = 60.0;

/// Settings of an [`OpenAiPolicy`]. [`OpenAiConfig::new`] fills in the defaults listed on each
/// field.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenAiConfig {
    /// Base URL ending in `/v1` (`http://127.0.0.1:8000/v1`); requests go to
    /// `{base_url}/chat/completions`.
    pub base_url: String,
    /// The `model` field of every request.
    pub model: String,
    /// Sent as `Authorization: Bearer …` when set (see [`OpenAiConfig::api_key_from_env`]).
    pub api_key: Option<String>,
    /// Sampling knobs sent with every request: `temperature`, `top_p`, `max_tokens`, `stop`,
    /// and `top_k` when non-zero (with [`OpenAiConfig::token_ids`] only: it is an extension).
    /// `seed` is ignored (each request has its own).
    pub params: SamplingParams,
    /// Most requests in flight at once, across clones (default 64).
    pub concurrency: usize,
    /// Time limit of one attempt, connection to last byte (default 300 s).
    pub timeout: Duration,
    /// Retries after the first attempt on connection errors, timeouts, 429 and 5xx (default 4).
    pub retries: u32,
    /// First backoff delay (default 0.25 s); attempt `a` waits up to `base · 2^a`.
    pub backoff_base: Duration,
    /// Longest backoff delay (default 8 s).
    pub backoff_max: Duration,
    /// Failed attempts in a row that open the circuit breaker (default 8; 0 = no breaker).
    pub breaker_failures: u32,
    /// How long an open breaker fails requests at once before letting a probe through
    /// (default 5 s).
    pub breaker_cooldown: Duration,
    /// Ask for vLLM's token-id extensions (`return_token_ids`, `return_tokens_as_token_ids`;
    /// default true). Turn off for servers that refuse unknown fields (OpenAI's own API).
    pub token_ids: bool,
    /// Ask for per-token log-probs (`logprobs: true`; default true).
    pub logprobs: bool,
}

impl OpenAiConfig {
    /// A config for `model` at `base_url` with every other field at its default.
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> Self {
        OpenAiConfig {
            base_url: base_url.into().trim_end_matches('/').to_string(),
            model: model.into(),
            api_key: None,
            params: SamplingParams::default(),
            concurrency: 64,
            timeout: Duration::from_secs(300),
            retries: 4,
            backoff_base: Duration::from_millis(250),
            backoff_max: Duration::from_secs(8),
            breaker_failures: 8,
            breaker_cooldown: Duration::from_secs(5),
            token_ids: true,
            logprobs: true,
        }
    }

    /// Parses a policy spec `openai:URL#MODEL` (the `openai:` prefix is optional), e.g.
    /// `openai:http://127.0.0.1:8000/v1#Qwen/Qwen2.5-0.5B-Instruct`.
    pub fn from_spec(spec: &str) -> Result<Self, OpenAiError> {
        let bad = |reason: String| OpenAiError::Spec { spec: spec.to_string(), reason };
        let rest = spec.strip_prefix("openai:").unwrap_or(spec);
        let (url, model) = rest.split_once('#').ok_or_else(|| {
            bad("no model: write `openai:URL#MODEL` (the server's `GET URL/models` lists its models)".into())
        })?;
        if model.is_empty() {
            return Err(bad("the model after `#` is empty".into()));
        }
        check_url(url).map_err(bad)?;
        Ok(OpenAiConfig::new(url, model))
    }

    /// Reads the API key from the environment variable `name` (`OPENAI_API_KEY` by convention);
    /// an unset or empty variable leaves [`OpenAiConfig::api_key`] unset.
    pub fn api_key_from_env(mut self, name: &str) -> Self {
        self.api_key = std::env::var(name).ok().filter(|k| !k.trim().is_empty());
        self
    }

    /// The policy spec this config answers to (`openai:URL#MODEL`).
    pub fn spec(&self) -> String {
        format!("openai:{}#{}", self.base_url, self.model)
    }
}

pub(crate) fn check_url(url: &str) -> Result<(), String> {
    if url.starts_with("https://") {
        return Err(format!(
            "`{url}`: HTTPS is not compiled into gauntlet (no TLS stack); reach the server over \
             plain HTTP on its network, or through a local HTTP gateway"
        ));
    }
    let Some(host) = url.strip_prefix("http://") else {
        return Err(format!("`{url}` is not an `http://` URL (expected e.g. `http://127.0.0.1:8000/v1`)"));
    };
    if host.is_empty() || host.starts_with('/') {
        return Err(format!("`{url}` has no host"));
    }
    Ok(())
}

/// Why an [`OpenAiPolicy`] could not be built.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OpenAiError {
    /// The policy spec or URL is malformed.
    #[error("bad policy `{spec}`: {reason}")]
    Spec {
        /// The spec as given.
        spec: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A setting is out of range.
    #[error("{0}")]
    Config(String),
    /// The HTTP client or its runtime could not be built.
    #[error("cannot start the HTTP client: {0}")]
    Client(String),
}

/// Request counters of an [`OpenAiPolicy`] (shared by its clones).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct OpenAiStats {
    /// Requests answered (successfully or not).
    pub requests: u64,
    /// HTTP attempts made (first tries and retries).
    pub attempts: u64,
    /// Requests that ended in an error.
    pub failed: u64,
    /// Requests refused at once by an open circuit breaker (counted in `failed` too).
    pub short_circuited: u64,
    /// Times the breaker opened.
    pub breaker_opened: u64,
}

#[derive(Default)]
struct Counters {
    requests: AtomicU64,
    attempts: AtomicU64,
    failed: AtomicU64,
    short_circuited: AtomicU64,
    breaker_opened: AtomicU64,
}

/// The circuit breaker's state.
#[derive(Debug, Default)]
struct BreakerState {
    /// Failed attempts in a row.
    failures: u32,
    /// While set, requests fail at once until then; after it, one probe goes through.
    open_until: Option<Instant>,
    /// A half-open probe is in flight.
    probing: bool,
}

struct Breaker {
    threshold: u32,
    cooldown: Duration,
    state: Mutex<BreakerState>,
}

/// How an attempt went, for the breaker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// The server answered (any 2xx, 4xx).
    Alive,
    /// Connection error, timeout or 5xx.
    Down,
}

impl Breaker {
    fn lock(&self) -> std::sync::MutexGuard<'_, BreakerState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether an attempt may go now: `Ok(is_probe)`, or the reason it may not.
    fn admit(&self) -> Result<bool, String> {
        if self.threshold == 0 {
            return Ok(false);
        }
        let mut s = self.lock();
        match s.open_until {
            None => Ok(false),
            Some(t) if Instant::now() < t => Err(format!(
                "circuit breaker open after {} failed attempts in a row; failing at once for {:.1} s more",
                s.failures,
                (t - Instant::now()).as_secs_f64()
            )),
            Some(_) if s.probing => {
                Err("circuit breaker half-open: a probe request is in flight; failing at once".to_string())
            }
            Some(_) => {
                s.probing = true;
                Ok(true)
            }
        }
    }

    /// Records an attempt's outcome; returns whether the breaker opened now.
    fn record(&self, outcome: Outcome, probe: bool) -> bool {
        if self.threshold == 0 {
            return false;
        }
        let mut s = self.lock();
        if probe {
            s.probing = false;
        }
        match outcome {
            Outcome::Alive => {
                s.failures = 0;
                s.open_until = None;
                false
            }
            Outcome::Down => {
                s.failures = s.failures.saturating_add(1);
                let reopen = probe || (s.open_until.is_none() && s.failures >= self.threshold);
                if reopen {
                    s.open_until = Some(Instant::now() + self.cooldown);
                }
                reopen
            }
        }
    }
}

struct Inner {
    config: OpenAiConfig,
    url: String,
    client: reqwest::Client,
    runtime: Option<tokio::runtime::Runtime>,
    permits: Arc<Semaphore>,
    breaker: Breaker,
    counters: Counters,
}

impl Drop for Inner {
    fn drop(&mut self) {
        // Dropping a runtime blocks, which panics inside another runtime; this does not.
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }
}

/// An OpenAI-compatible server as a [`Policy`] (see the module doc). Clones share the client,
/// the concurrency limit, the circuit breaker and the counters; each has its own episode tag.
#[derive(Clone)]
pub struct OpenAiPolicy {
    inner: Arc<Inner>,
    /// The prefix of the `x-gauntlet-episode` header [`Policy::respond`] sends, if any.
    episode_tag: Option<String>,
}

impl std::fmt::Debug for OpenAiPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiPolicy")
            .field("config", &self.inner.config)
            .field("episode_tag", &self.episode_tag)
            .finish_non_exhaustive()
    }
}

/// The request header that names a call's episode (as `gauntlet_serve::policy::traces` reads it).
pub const EPISODE_HEADER: &str = "x-gauntlet-episode";

/// The longest episode tag prefix: room for `-` and an index within the header's 128 characters.
pub const MAX_EPISODE_TAG: usize = 100;

/// Checks an episode tag prefix: 1–[`MAX_EPISODE_TAG`] characters, each an ASCII letter, digit,
/// `.`, `_` or `-` (so the id is also a plain URL path segment for `POST /v1/episodes/{id}/reward`).
pub fn check_episode_tag(prefix: &str) -> Result<(), String> {
    if prefix.is_empty() || prefix.len() > MAX_EPISODE_TAG {
        return Err(format!(
            "the episode tag `{prefix}` must have 1 to {MAX_EPISODE_TAG} characters, it has {}",
            prefix.len()
        ));
    }
    if let Some(c) = prefix.chars().find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))) {
        return Err(format!(
            "the episode tag `{prefix}` has the character {c:?}; use ASCII letters, digits, `.`, `_` and `-`"
        ));
    }
    Ok(())
}

/// One request to send: its messages, seed and `x-gauntlet-episode` value, if any.
type Tagged = (Vec<ChatMessage>, u64, Option<String>);

/// What one attempt gave.
enum Attempt {
    Done(Result<Response, String>),
    Retry { error: String, retry_after: Option<Duration>, outcome: Outcome },
}

impl OpenAiPolicy {
    /// Builds the client (no request is sent yet).
    pub fn new(config: OpenAiConfig) -> Result<Self, OpenAiError> {
        check_url(&config.base_url).map_err(|reason| OpenAiError::Spec { spec: config.spec(), reason })?;
        if config.concurrency == 0 {
            return Err(OpenAiError::Config("the concurrency must be at least 1".into()));
        }
        if config.timeout.is_zero() {
            return Err(OpenAiError::Config("the request timeout must be positive".into()));
        }
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("gauntlet-http")
            .enable_all()
            .build()
            .map_err(|e| OpenAiError::Client(e.to_string()))?;
        let client = reqwest::Client::builder()
            .timeout(config.timeout)
            .connect_timeout(config.timeout.min(Duration::from_secs(10)))
            .pool_max_idle_per_host(config.concurrency)
            .build()
            .map_err(|e| OpenAiError::Client(e.to_string()))?;
        Ok(OpenAiPolicy {
            inner: Arc::new(Inner {
                url: format!("{}/chat/completions", config.base_url),
                permits: Arc::new(Semaphore::new(config.concurrency)),
                breaker: Breaker {
                    threshold: config.breaker_failures,
                    cooldown: config.breaker_cooldown,
                    state: Mutex::new(BreakerState::default()),
                },
                config,
                client,
                runtime: Some(runtime),
                counters: Counters::default(),
            }),
            episode_tag: None,
        })
    }

    /// This policy with its requests tagged `x-gauntlet-episode: PREFIX-I` (see the module doc);
    /// refuses a prefix [`check_episode_tag`] refuses.
    pub fn with_episode_tag(mut self, prefix: impl Into<String>) -> Result<Self, OpenAiError> {
        self.set_episode_tag(Some(prefix.into()))?;
        Ok(self)
    }

    /// Sets (or with `None` removes) the episode tag prefix of the next requests (a rollout worker
    /// gives each batch of episodes its own, so ids stay unique across batches).
    pub fn set_episode_tag(&mut self, prefix: Option<String>) -> Result<(), OpenAiError> {
        if let Some(p) = &prefix {
            check_episode_tag(p).map_err(OpenAiError::Config)?;
        }
        self.episode_tag = prefix;
        Ok(())
    }

    /// The episode tag prefix, if any.
    pub fn episode_tag(&self) -> Option<&str> {
        self.episode_tag.as_deref()
    }

    /// The settings.
    pub fn config(&self) -> &OpenAiConfig {
        &self.inner.config
    }

    /// The request counters so far.
    pub fn stats(&self) -> OpenAiStats {
        let c = &self.inner.counters;
        let r = Ordering::Relaxed;
        OpenAiStats {
            requests: c.requests.load(r),
            attempts: c.attempts.load(r),
            failed: c.failed.load(r),
            short_circuited: c.short_circuited.load(r),
            breaker_opened: c.breaker_opened.load(r),
        }
    }

    /// Answers one conversation (for tools such as `gauntlet play`).
    pub fn reply(&self, messages: &[ChatMessage], seed: u64) -> Result<Response, PolicyError> {
        self.run_all(vec![(messages.to_vec(), seed)])
            .pop()
            .unwrap_or_else(|| Err(PolicyError("no answer".into())))
    }

    /// Runs every `(messages, seed)` concurrently on the internal runtime, in order, untagged.
    fn run_all(&self, jobs: Vec<(Vec<ChatMessage>, u64)>) -> Vec<Result<Response, PolicyError>> {
        self.run_tagged(jobs.into_iter().map(|(m, s)| (m, s, None)).collect())
    }

    /// Runs every `(messages, seed, episode header)` concurrently on the internal runtime, in
    /// order.
    fn run_tagged(&self, jobs: Vec<Tagged>) -> Vec<Result<Response, PolicyError>> {
        let n = jobs.len();
        let inner = self.inner.clone();
        let work = async move {
            let mut set = tokio::task::JoinSet::new();
            for (i, (messages, seed, episode)) in jobs.into_iter().enumerate() {
                let inner = inner.clone();
                set.spawn(async move { (i, inner.complete(&messages, seed, episode.as_deref()).await) });
            }
            let mut out: Vec<Option<Result<Response, PolicyError>>> = (0..n).map(|_| None).collect();
            while let Some(done) = set.join_next().await {
                if let Ok((i, r)) = done {
                    out[i] = Some(r);
                }
            }
            out
        };
        let rt = self.inner.runtime.as_ref().expect("the runtime lives as long as the policy");
        // `block_on` panics on a thread that already runs a runtime: use a helper thread there.
        let out = if tokio::runtime::Handle::try_current().is_ok() {
            std::thread::scope(|s| s.spawn(|| rt.block_on(work)).join().unwrap_or_default())
        } else {
            rt.block_on(work)
        };
        let mut out = out;
        out.resize_with(n, || None);
        out.into_iter()
            .map(|r| r.unwrap_or_else(|| Err(PolicyError("the request's task panicked".into()))))
            .collect()
    }
}

impl Inner {
    /// The JSON body of one request.
    fn body(&self, messages: &[ChatMessage], seed: u64) -> Value {
        let c = &self.config;
        let p = &c.params;
        let mut body = json!({
            "model": c.model,
            "messages": messages.iter().map(|m| json!({"role": m.role, "content": m.content})).collect::<Vec<_>>(),
            "temperature": p.temperature,
            "top_p": p.top_p,
            "max_tokens": p.max_tokens,
            "seed": seed,
            "n": 1,
        });
        if c.logprobs {
            body["logprobs"] = json!(true);
        }
        if !p.stop.is_empty() {
            body["stop"] = json!(p.stop);
        }
        if c.token_ids {
            body["return_token_ids"] = json!(true);
            if c.logprobs {
                body["return_tokens_as_token_ids"] = json!(true);
            }
            if p.top_k > 0 {
                body["top_k"] = json!(p.top_k);
            }
        }
        body
    }

    /// One request (tagged with `episode` when given) with retries, backoff and the breaker.
    async fn complete(
        &self,
        messages: &[ChatMessage],
        seed: u64,
        episode: Option<&str>,
    ) -> Result<Response, PolicyError> {
        let r = Ordering::Relaxed;
        self.counters.requests.fetch_add(1, r);
        let body = self.body(messages, seed);
        let mut last = String::new();
        let attempts = self.config.retries.saturating_add(1);
        for attempt in 0..attempts {
            let permit =
                self.permits.acquire().await.map_err(|_| PolicyError("the HTTP client is closed".into()))?;
            let probe = match self.breaker.admit() {
                Ok(probe) => probe,
                Err(why) => {
                    self.counters.short_circuited.fetch_add(1, r);
                    self.counters.failed.fetch_add(1, r);
                    let last = if last.is_empty() { String::new() } else { format!(" (last error: {last})") };
                    return Err(PolicyError(format!("POST {}: {why}{last}", self.url)));
                }
            };
            self.counters.attempts.fetch_add(1, r);
            let result = self.attempt(&body, episode).await;
            drop(permit);
            match result {
                Attempt::Done(result) => {
                    self.breaker.record(Outcome::Alive, probe);
                    return result.map_err(|e| {
                        self.counters.failed.fetch_add(1, r);
                        PolicyError(format!("POST {}: {e}", self.url))
                    });
                }
                Attempt::Retry { error, retry_after, outcome } => {
                    if self.breaker.record(outcome, probe) {
                        self.counters.breaker_opened.fetch_add(1, r);
                    }
                    last = error;
                    if attempt + 1 < attempts {
                        tokio::time::sleep(retry_after.unwrap_or_else(|| self.backoff(seed, attempt))).await;
                    }
                }
            }
        }
        self.counters.failed.fetch_add(1, r);
        Err(PolicyError(format!("POST {}: {last} (gave up after {attempts} attempts)", self.url)))
    }

    /// The jittered exponential backoff before retry `attempt + 1`: `min(max, base · 2^attempt)`
    /// times a factor in `[0.5, 1)` drawn from the request's seed and the attempt.
    fn backoff(&self, seed: u64, attempt: u32) -> Duration {
        let c = &self.config;
        let full = c.backoff_base.saturating_mul(1u32 << attempt.min(20)).min(c.backoff_max);
        let u = Rng::new(splitmix64(seed ^ splitmix64(attempt as u64 + 0xb0ff))).unit();
        full.mul_f64(0.5 + 0.5 * u)
    }

    async fn attempt(&self, body: &Value, episode: Option<&str>) -> Attempt {
        let mut req = self.client.post(&self.url).json(body);
        if let Some(id) = episode {
            req = req.header(EPISODE_HEADER, id);
        }
        if let Some(key) = &self.config.api_key {
            req = req.bearer_auth(key);
        }
        let resp = match req.send().await {
            Ok(resp) => resp,
            Err(e) => {
                return Attempt::Retry { error: describe(&e), retry_after: None, outcome: Outcome::Down };
            }
        };
        let status = resp.status();
        let retry_after = resp
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s >= 0.0)
            .map(|s| Duration::from_secs_f64(s.min(MAX_RETRY_AFTER_SECS)));
        let text = match resp.text().await {
            Ok(t) => t,
            Err(e) => {
                return Attempt::Retry { error: describe(&e), retry_after: None, outcome: Outcome::Down }
            }
        };
        if status.is_success() {
            return Attempt::Done(parse_response(&text));
        }
        let error = format!("{} {}", status.as_u16(), server_message(&text));
        if status.as_u16() == 429 {
            Attempt::Retry { error, retry_after, outcome: Outcome::Alive }
        } else if status.is_server_error() {
            Attempt::Retry { error, retry_after, outcome: Outcome::Down }
        } else {
            Attempt::Done(Err(error))
        }
    }
}

/// A reqwest error with its kind spelled out (reqwest's own message is terse).
pub(crate) fn describe(e: &reqwest::Error) -> String {
    let kind = if e.is_timeout() {
        "timed out"
    } else if e.is_connect() {
        "cannot connect"
    } else if e.is_body() || e.is_decode() {
        "broken response body"
    } else {
        "request failed"
    };
    let mut msg = format!("{kind}: {e}");
    let mut src = std::error::Error::source(e);
    while let Some(s) = src {
        msg.push_str(&format!(": {s}"));
        src = s.source();
    }
    msg
}

/// The `error.message` of an OpenAI-style error body, else the body's start.
pub(crate) fn server_message(text: &str) -> String {
    if let Ok(v) = serde_json::from_str::<Value>(text) {
        if let Some(m) = v["error"]["message"].as_str().or(v["message"].as_str()) {
            return m.to_string();
        }
    }
    let t = text.trim();
    match t.char_indices().nth(200) {
        Some((i, _)) => format!("{}...", &t[..i]),
        None => t.to_string(),
    }
}

/// Reads a token id from vLLM's `return_tokens_as_token_ids` form `"token_id:123"`.
pub fn token_id_of(token: &str) -> Option<u32> {
    token.strip_prefix("token_id:")?.parse().ok()
}

fn u32_list(v: &Value) -> Option<Vec<u32>> {
    v.as_array()?.iter().map(|x| x.as_u64().and_then(|x| u32::try_from(x).ok())).collect()
}

/// Reads a chat completion: the first choice's text, finish reason, log-probs and token ids.
pub fn parse_response(text: &str) -> Result<Response, String> {
    let v: Value = serde_json::from_str(text)
        .map_err(|e| format!("the answer is not JSON ({e}): {}", server_message(text)))?;
    let choice = v["choices"]
        .as_array()
        .and_then(|c| c.first())
        .ok_or_else(|| format!("the answer has no `choices`: {}", server_message(text)))?;
    let content = match &choice["message"]["content"] {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => return Err(format!("`choices[0].message.content` is not a string: {other}")),
    };
    let finish = match choice["finish_reason"].as_str() {
        Some("length") => Finish::Length,
        _ => Finish::Stop,
    };
    let entries = choice["logprobs"]["content"].as_array().cloned().unwrap_or_default();
    let logprobs: Vec<f32> =
        entries.iter().map(|e| e["logprob"].as_f64().unwrap_or(f64::NAN) as f32).collect();
    if logprobs.iter().any(|l| l.is_nan()) {
        return Err("a `logprobs.content` entry has no numeric `logprob`".into());
    }
    let response_ids = match u32_list(&choice["token_ids"]) {
        Some(ids) => ids,
        None => entries
            .iter()
            .map(|e| e["token"].as_str().and_then(token_id_of))
            .collect::<Option<Vec<u32>>>()
            .unwrap_or_default(),
    };
    if !response_ids.is_empty() && !logprobs.is_empty() && response_ids.len() != logprobs.len() {
        return Err(format!(
            "the server returned {} token ids but {} log-probs for one choice",
            response_ids.len(),
            logprobs.len()
        ));
    }
    Ok(Response {
        text: content,
        prompt_ids: u32_list(&v["prompt_token_ids"]).unwrap_or_default(),
        response_ids,
        logprobs,
        finish,
    })
}

impl Policy for OpenAiPolicy {
    fn name(&self) -> String {
        self.inner.config.spec()
    }

    fn respond(&mut self, requests: &[Request<'_>]) -> Vec<Result<Response, PolicyError>> {
        let tag = |r: &Request<'_>| self.episode_tag.as_ref().map(|p| format!("{p}-{}", r.episode));
        self.run_tagged(requests.iter().map(|r| (r.messages.to_vec(), r.seed, tag(r))).collect())
    }
}

#[cfg(test)]
mod tests;
