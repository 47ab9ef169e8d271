//! The routes of the policy server: models, chat completions (whole or streamed), health.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use gauntlet_core::rng::splitmix64;
use gauntlet_model::{FinishReason, SamplingParams};
use serde_json::{json, Value};
use tokio::sync::mpsc::UnboundedReceiver;

use super::request::{self, ChatRequest, Limits};
use super::response::{finish_name, logprob_entry, sse, usage};
use super::traces::{Call, RewardReport, EPISODE_HEADER};
use super::worker::{Event, Job, JobRow, SubmitError};
use super::PolicyState;
use crate::blocking::{blocking, HEAVY_BODY_BYTES};
use crate::body::parse_json;
use crate::error::{ApiError, ApiResult};

fn model_card(st: &PolicyState) -> Value {
    json!({
        "id": st.config.name,
        "object": "model",
        "created": st.created,
        "owned_by": "gauntlet",
        "max_model_len": st.positions,
    })
}

/// `GET /v1/models`: the one model served.
pub async fn models(State(st): State<PolicyState>) -> Json<Value> {
    Json(json!({"object": "list", "data": [model_card(&st)]}))
}

/// `GET /v1/models/{id}`.
pub async fn model(State(st): State<PolicyState>, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    if id != st.config.name {
        return Err(unknown_model(&st, &id));
    }
    Ok(Json(model_card(&st)))
}

/// `GET /health`: liveness, the model and the worker's counters.
pub async fn health(State(st): State<PolicyState>) -> Json<Value> {
    let w = &st.worker.stats;
    let r = Ordering::Relaxed;
    let (open, finished, abandoned) = st.traces.counts();
    Json(json!({
        "status": "ok",
        "version": env!("CARGO_PKG_VERSION"),
        "model": st.config.name,
        "uptime_s": st.started.elapsed().as_secs_f64(),
        "requests": st.requests.load(r),
        "batches": w.batches.load(r),
        "rows": w.rows.load(r),
        "tokens": w.tokens.load(r),
        "rejected": w.rejected.load(r),
        "panics": w.panics.load(r) + st.handler_panics.load(r),
        "policy_version": st.live.version(),
        "episodes_open": open,
        "episodes_finished": finished,
        "episodes_abandoned": abandoned,
    }))
}

fn unknown_model(st: &PolicyState, asked: &str) -> ApiError {
    ApiError::unknown_model(format!(
        "model `{asked}` is not served here; this server serves `{}` (see `GET /v1/models`)",
        st.config.name
    ))
}

/// Renders and tokenises the conversation (off the reactor threads).
async fn prompt_ids(st: &PolicyState, req: &ChatRequest) -> ApiResult<Vec<u32>> {
    let chat = st.chat.clone();
    let messages = req.messages.clone();
    blocking(move || {
        let text = chat.template.render(&messages, true).map_err(|e| {
            ApiError::bad_request(
                "chat_template",
                format!("the model's chat template refused the messages: {e}"),
            )
            .with_param("messages")
        })?;
        chat.tokenizer
            .encode(&text)
            .map_err(|e| ApiError::internal("tokenizer", format!("could not tokenise the prompt: {e}")))
    })
    .await
}

/// `POST /v1/chat/completions`.
pub async fn chat_completions(
    State(st): State<PolicyState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    match completions(st, &headers, body).await {
        Ok(resp) => resp,
        Err(e) => e.into_response(),
    }
}

/// The episode a request is tagged with ([`EPISODE_HEADER`]), checked before sampling.
fn episode_of(st: &PolicyState, headers: &HeaderMap, req: &ChatRequest) -> ApiResult<Option<String>> {
    let Some(v) = headers.get(EPISODE_HEADER) else { return Ok(None) };
    let id = v.to_str().map_err(|_| {
        ApiError::bad_request("bad_episode_id", format!("`{EPISODE_HEADER}` must be visible ASCII"))
            .with_param(EPISODE_HEADER)
    })?;
    if req.n != 1 {
        return Err(ApiError::bad_request(
            "episode_n",
            format!(
                "a request tagged `{EPISODE_HEADER}` samples one trajectory: `n` must be 1, not {}",
                req.n
            ),
        )
        .with_param("n"));
    }
    st.traces.check_open(id)?;
    Ok(Some(id.to_string()))
}

async fn completions(
    st: PolicyState,
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let bytes = body.map_err(|r| {
        if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::too_large(format!(
                "request body is larger than the server's limit of {} bytes (`--max-body-bytes`)",
                st.config.max_body_bytes
            ))
        } else {
            ApiError::bad_request("unreadable_body", format!("could not read the request body: {r}"))
        }
    })?;
    let value = if bytes.len() > HEAVY_BODY_BYTES {
        blocking(move || parse_json(&bytes)).await?
    } else {
        parse_json(&bytes)?
    };
    let limits = Limits { max_n: st.config.max_n, max_top_logprobs: st.config.max_top_logprobs };
    let req = request::decode(&value, limits)?;
    if req.model != st.config.name {
        return Err(unknown_model(&st, &req.model));
    }
    let episode = episode_of(&st, headers, &req)?;
    let prompt = prompt_ids(&st, &req).await?;
    let room = st.positions.saturating_sub(prompt.len());
    if room == 0 {
        return Err(ApiError::bad_request(
            "context_length_exceeded",
            format!(
                "the prompt has {} tokens; the model has {} positions: shorten the messages",
                prompt.len(),
                st.positions
            ),
        )
        .with_param("messages"));
    }
    let max_tokens = match req.max_tokens {
        Some(m) if m > room => {
            return Err(ApiError::bad_request(
                "context_length_exceeded",
                format!(
                    "the prompt has {} tokens and `max_tokens` is {m}, past the model's {} positions; ask for at most {room}",
                    prompt.len(),
                    st.positions
                ),
            )
            .with_param("max_tokens"))
        }
        Some(m) => m,
        None => st.config.default_max_tokens.min(room),
    };
    let number = st.requests.fetch_add(1, Ordering::Relaxed);
    let seed = req.seed.unwrap_or_else(|| splitmix64(st.config.seed ^ splitmix64(number)));
    let mut stop_token_ids = req.stop_token_ids.clone();
    stop_token_ids.extend(st.chat.eos_token_id());
    let params = SamplingParams {
        temperature: req.temperature,
        top_p: req.top_p,
        top_k: req.top_k,
        max_tokens,
        stop: req.stop.clone(),
        stop_token_ids,
        seed: 0,
    };
    let rows = (0..req.n).map(|i| JobRow { seed: choice_seed(seed, i), params: params.clone() }).collect();
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let prompt_len = prompt.len();
    let job = Job {
        prompt: prompt.clone(),
        rows,
        top_logprobs: req.top_logprobs,
        stream_text: req.stream,
        events: tx,
    };
    st.worker.submit(job).map_err(|e| match e {
        SubmitError::Full => ApiError::capacity(
            "queue_full",
            format!(
                "the server's queue holds {} requests already; retry after a moment (`Retry-After`)",
                st.config.max_queue
            ),
        ),
        SubmitError::Stopped => ApiError::capacity("worker_stopped", "the model worker has stopped"),
    })?;
    let trace = episode.map(|id| Trace {
        id,
        call: Call {
            messages: req.messages.clone(),
            prompt_ids: prompt.clone(),
            response_ids: vec![],
            logprobs: vec![],
            text: String::new(),
            finish: gauntlet_episode::Finish::Length,
            temperature: req.temperature,
            // Set from the worker's answer: the version of the weights that sampled it.
            policy_version: 0,
        },
    });
    let meta = Meta {
        trace: std::sync::Mutex::new(trace),
        id: format!("chatcmpl-{:016x}", splitmix64(st.epoch ^ splitmix64(number))),
        created: unix_now(),
        model: st.config.name.clone(),
        prompt: if req.return_token_ids { Some(prompt) } else { None },
        prompt_len,
        req,
        st: st.clone(),
    };
    if meta.req.stream {
        Ok(stream(meta, rx))
    } else {
        whole(meta, rx).await
    }
}

/// The seed of choice `i`: the request's seed for the first, derived ones for the others.
pub fn choice_seed(seed: u64, i: usize) -> u64 {
    if i == 0 {
        seed
    } else {
        splitmix64(seed ^ splitmix64(i as u64))
    }
}

fn unix_now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// What every chunk and answer of one request shares.
struct Meta {
    /// The call being recorded for a tagged episode (choice 0), taken when it is done.
    trace: std::sync::Mutex<Option<Trace>>,
    id: String,
    created: u64,
    model: String,
    prompt: Option<Vec<u32>>,
    prompt_len: usize,
    req: ChatRequest,
    st: PolicyState,
}

/// A tagged request's call as it is sampled.
struct Trace {
    id: String,
    call: Call,
}

impl Meta {
    /// Adds a sampled token of choice 0 to the recorded call.
    fn trace_token(&self, choice: usize, token: u32, logprob: f32) {
        if choice == 0 {
            if let Some(t) = self.trace.lock().unwrap_or_else(|p| p.into_inner()).as_mut() {
                t.call.response_ids.push(token);
                t.call.logprobs.push(logprob);
            }
        }
    }

    /// Records the finished call of choice 0 in its episode.
    fn trace_done(&self, choice: usize, text: &str, finish: FinishReason, version: u64) {
        if choice != 0 {
            return;
        }
        if let Some(mut t) = self.trace.lock().unwrap_or_else(|p| p.into_inner()).take() {
            t.call.text = text.to_string();
            t.call.policy_version = version;
            t.call.finish = match finish {
                FinishReason::Length => gauntlet_episode::Finish::Length,
                _ => gauntlet_episode::Finish::Stop,
            };
            self.st.traces.record(&t.id, t.call);
        }
    }

    fn entry(&self, token: u32, logprob: f32, top: &[(u32, f32)]) -> Value {
        logprob_entry(&self.st.chat.tokenizer, token, logprob, top, self.req.tokens_as_ids)
    }
}

/// One choice being collected.
#[derive(Default)]
struct Acc {
    tokens: Vec<u32>,
    entries: Vec<Value>,
    text: String,
    finish: Option<FinishReason>,
}

fn failed(msg: String) -> ApiError {
    ApiError::internal("model_failed", msg)
}

async fn whole(meta: Meta, mut rx: UnboundedReceiver<Event>) -> ApiResult<Response> {
    let n = meta.req.n;
    let mut acc: Vec<Acc> = (0..n).map(|_| Acc::default()).collect();
    let mut open = n;
    while open > 0 {
        match rx.recv().await {
            Some(Event::Token { choice, token, logprob, top, .. }) => {
                meta.trace_token(choice, token, logprob);
                acc[choice].tokens.push(token);
                if meta.req.logprobs {
                    let e = meta.entry(token, logprob, &top);
                    acc[choice].entries.push(e);
                }
            }
            Some(Event::Done { choice, text, finish, version }) => {
                meta.trace_done(choice, &text, finish, version);
                acc[choice].text = text;
                acc[choice].finish = Some(finish);
                open -= 1;
            }
            Some(Event::Failed(msg)) => return Err(failed(msg)),
            None => return Err(failed("the model worker stopped before answering".into())),
        }
    }
    let completion: usize = acc.iter().map(|a| a.tokens.len()).sum();
    let choices: Vec<Value> = acc
        .into_iter()
        .enumerate()
        .map(|(i, a)| {
            let mut c = json!({
                "index": i,
                "message": {"role": "assistant", "content": a.text},
                "logprobs": if meta.req.logprobs { json!({"content": a.entries}) } else { Value::Null },
                "finish_reason": finish_name(a.finish.unwrap_or(FinishReason::Length)),
            });
            if meta.req.return_token_ids {
                c["token_ids"] = json!(a.tokens);
            }
            c
        })
        .collect();
    let mut out = json!({
        "id": meta.id,
        "object": "chat.completion",
        "created": meta.created,
        "model": meta.model,
        "system_fingerprint": concat!("gauntlet-", env!("CARGO_PKG_VERSION")),
        "choices": choices,
        "usage": usage(meta.prompt_len, completion),
    });
    if let Some(p) = &meta.prompt {
        out["prompt_token_ids"] = json!(p);
    }
    Ok(Json(out).into_response())
}

/// The state of a streamed answer.
struct Streaming {
    meta: Arc<Meta>,
    rx: UnboundedReceiver<Event>,
    frames: VecDeque<String>,
    open: usize,
    completion: usize,
    over: bool,
}

impl Streaming {
    fn chunk(&self, choices: Vec<Value>) -> Value {
        let m = &self.meta;
        let mut c = json!({
            "id": m.id,
            "object": "chat.completion.chunk",
            "created": m.created,
            "model": m.model,
            "system_fingerprint": concat!("gauntlet-", env!("CARGO_PKG_VERSION")),
            "choices": choices,
        });
        if m.req.include_usage {
            c["usage"] = Value::Null;
        }
        c
    }

    fn start(&mut self) {
        for i in 0..self.meta.req.n {
            let mut c = self.chunk(vec![json!({
                "index": i,
                "delta": {"role": "assistant", "content": ""},
                "logprobs": null,
                "finish_reason": null,
            })]);
            if i == 0 {
                if let Some(p) = &self.meta.prompt {
                    c["prompt_token_ids"] = json!(p);
                }
            }
            self.frames.push_back(sse(&c));
        }
    }

    fn on(&mut self, event: Option<Event>) {
        let req = &self.meta.req;
        match event {
            Some(Event::Token { choice, token, logprob, top, text }) => {
                self.meta.trace_token(choice, token, logprob);
                self.completion += 1;
                let mut ch = json!({
                    "index": choice,
                    "delta": {"content": text},
                    "logprobs": if req.logprobs { json!({"content": [self.meta.entry(token, logprob, &top)]}) } else { Value::Null },
                    "finish_reason": null,
                });
                if req.return_token_ids {
                    ch["token_ids"] = json!([token]);
                }
                let c = self.chunk(vec![ch]);
                self.frames.push_back(sse(&c));
            }
            Some(Event::Done { choice, finish, text, version }) => {
                self.meta.trace_done(choice, &text, finish, version);
                let c = self.chunk(vec![json!({
                    "index": choice, "delta": {}, "logprobs": null, "finish_reason": finish_name(finish),
                })]);
                self.frames.push_back(sse(&c));
                self.open -= 1;
                if self.open == 0 {
                    if req.include_usage {
                        let mut c = self.chunk(vec![]);
                        c["usage"] = usage(self.meta.prompt_len, self.completion);
                        self.frames.push_back(sse(&c));
                    }
                    self.end();
                }
            }
            Some(Event::Failed(msg)) => self.fail(msg),
            None => self.fail("the model worker stopped before answering".into()),
        }
    }

    fn fail(&mut self, msg: String) {
        let body = failed(msg).body();
        self.frames.push_back(sse(&body));
        self.end();
    }

    fn end(&mut self) {
        self.frames.push_back("data: [DONE]\n\n".into());
        self.over = true;
    }
}

fn stream(meta: Meta, rx: UnboundedReceiver<Event>) -> Response {
    let mut s = Streaming {
        open: meta.req.n,
        meta: Arc::new(meta),
        rx,
        frames: VecDeque::new(),
        completion: 0,
        over: false,
    };
    s.start();
    let body = futures_util::stream::unfold(s, |mut s| async move {
        loop {
            if let Some(frame) = s.frames.pop_front() {
                return Some((Ok::<_, Infallible>(Bytes::from(frame)), s));
            }
            if s.over {
                return None;
            }
            let event = s.rx.recv().await;
            s.on(event);
        }
    });
    (
        [(header::CONTENT_TYPE, "text/event-stream"), (header::CACHE_CONTROL, "no-cache")],
        Body::from_stream(body),
    )
        .into_response()
}

/// `POST /v1/episodes/{id}/reward`: finishes a tagged episode with its reward (see
/// [`super::traces`]); answers the episode's summary.
pub async fn episode_reward(
    State(st): State<PolicyState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<Value>> {
    let bytes = body.map_err(|r| {
        ApiError::bad_request("unreadable_body", format!("could not read the request body: {r}"))
    })?;
    let report = RewardReport::decode(&parse_json(&bytes)?)?;
    let r = st.traces.reward(&id, report)?;
    Ok(Json(json!({
        "id": r.id,
        "object": "episode",
        "calls": r.episode.turns.len(),
        "return": r.episode.returns.first().copied().unwrap_or(0.0),
        "success": r.episode.success,
        "policy_versions": r.episode.turns.iter().map(|t| t.policy_version).collect::<Vec<_>>(),
    })))
}

/// `GET /v1/episodes/{id}`: an open episode's calls so far.
pub async fn episode(State(st): State<PolicyState>, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    match st.traces.calls(&id) {
        Some(calls) => Ok(Json(json!({"id": id, "object": "episode", "status": "open", "calls": calls}))),
        None => Err(ApiError::not_found(
            "unknown_episode",
            format!("no open episode `{id}` (never tagged, already rewarded, or abandoned)"),
        )),
    }
}
