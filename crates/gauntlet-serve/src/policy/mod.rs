//! The policy server (`gauntlet serve policy`): a gauntlet model (a training run's checkpoint, a
//! Hugging Face folder or a GGUF file) behind the OpenAI Chat Completions API, so that any
//! OpenAI client, agent framework or evaluation harness can query it, and gauntlet's own
//! [`OpenAiPolicy`](https://docs.rs/gauntlet-rollout) backend gets exact token ids back.
//!
//! | route | what |
//! |---|---|
//! | `GET /health` | liveness plus counters (requests, batches, rows, tokens, rejected); no key needed |
//! | `GET /v1/models` | `{"object": "list", "data": [{"id": NAME, "object": "model", …}]}` |
//! | `GET /v1/models/{id}` | the model card, or 404 |
//! | `POST /v1/chat/completions` | a chat completion, whole or streamed (`stream: true`); with the header `x-gauntlet-episode: ID` the call is recorded in that episode ([`traces`]) |
//! | `GET /v1/episodes/{id}` | an open episode's calls so far |
//! | `POST /v1/episodes/{id}/reward` | the episode's reward: finishes it into a trace record ([`traces`]) |
//!
//! Request fields: `model`, `messages` (roles `system`, `developer`, `user`, `assistant`,
//! `tool`; content a string or text parts), `temperature` (0..=2, 0 = greedy), `top_p`, `n`,
//! `max_tokens` / `max_completion_tokens` (default [`PolicyServerConfig::default_max_tokens`],
//! capped by the context), `stop` (a string or a list), `seed`, `stream`,
//! `stream_options.include_usage`, `logprobs`, `top_logprobs`, and vLLM's extensions `top_k`,
//! `stop_token_ids`, `return_token_ids` (`prompt_token_ids` on the response and `token_ids` on
//! each choice; streamed: `prompt_token_ids` on the first chunk, `token_ids` on each token
//! chunk) and `return_tokens_as_token_ids` (log-prob entries named `"token_id:123"`). Log-prob
//! entries are `{token, logprob, bytes, top_logprobs}` with the token's exact bytes.
//!
//! Seeds: choice 0 of a request with `seed: s` samples from stream `s`, exactly what a
//! `LocalPolicy` over the same model samples for a request seed `s`; choice `i > 0` from a seed
//! derived from `(s, i)`. A request without a seed gets one from the server's `seed` and a
//! request counter (reproducible for a given order of requests). Streaming and batching do not
//! change what is sampled.
//!
//! Errors are OpenAI-shaped, `{"error": {"message", "type", "param", "code"}}`: 400 for a bad
//! field (named in `message` and `param`; unsupported features such as tools answer
//! `unsupported_parameter`; a prompt plus `max_tokens` past the model's positions answers
//! `context_length_exceeded`), 401 for a missing or wrong key when the server has one, 404 for an
//! unknown model or route, 413 for a body past [`PolicyServerConfig::max_body_bytes`], 503
//! `queue_full` (with `Retry-After: 1`) when [`PolicyServerConfig::max_queue`] requests are
//! waiting, 500 if the model fails. A mid-stream failure is sent as an `error` event before
//! `[DONE]`. Handler panics are caught; the model worker survives a panicking batch.
//!
//! ## Design
//!
//! One model worker thread ([`worker`]) owns sampling and batches concurrent requests: it takes
//! whatever is queued (waiting [`PolicyServerConfig::batch_wait_ms`] after the first request of
//! an idle period) up to [`PolicyServerConfig::max_batch`] choices and samples them together with
//! [`gauntlet_model::generate_rows`], each with its own seed and knobs, streaming tokens back to
//! each request's handler as they are drawn. The reactor threads only parse, validate, tokenise
//! (on the blocking pool) and format. See `docs/serve-policy.md` for measured throughput.
//!
//! ## Example
//!
//! ```
//! use std::sync::Arc;
//! use gauntlet_model::{checkpoint, ChatModel, ChatTemplate, Config, Tokenizer};
//! use gauntlet_serve::policy::{self, PolicyServerConfig};
//! # #[tokio::main(flavor = "multi_thread", worker_threads = 2)]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let (model, _) = checkpoint::new_model(&Config::tiny(260), &candle_core::Device::Cpu, 7)?;
//! let chat = ChatModel { model, tokenizer: Tokenizer::bytes(), template: ChatTemplate::chatml() };
//! let config = PolicyServerConfig { port: 0, name: "tiny".into(), ..Default::default() };
//! let listener = policy::bind(&config).await?;
//! let addr = listener.local_addr()?;
//! let app = policy::router(config, Arc::new(chat))?;
//! tokio::spawn(async move { axum::serve(listener, app).await });
//!
//! let answer: serde_json::Value = reqwest::Client::new()
//!     .post(format!("http://{addr}/v1/chat/completions"))
//!     .json(&serde_json::json!({"model": "tiny", "messages": [{"role": "user", "content": "hi"}],
//!                               "max_tokens": 4, "seed": 1, "logprobs": true}))
//!     .send().await?.json().await?;
//! assert_eq!(answer["choices"][0]["logprobs"]["content"].as_array().unwrap().len(),
//!            answer["usage"]["completion_tokens"].as_u64().unwrap() as usize);
//! # Ok(())
//! # }
//! ```

pub mod handlers;
pub mod request;
pub mod response;
pub mod traces;
pub mod worker;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{header, Response};
use axum::middleware::{self, Next};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::Router;
use gauntlet_model::ChatModel;
use serde::{Deserialize, Serialize};
use tokio::net::TcpListener;
use tower_http::catch_panic::CatchPanicLayer;

use crate::auth::same;
use crate::error::{ApiError, ServeError};
pub use worker::LiveModel;
use worker::{WorkerConfig, WorkerHandle};

/// Settings of the policy server.
///
/// Every field has a default ([`PolicyServerConfig::default`]); unknown fields are rejected.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "snake_case")]
pub struct PolicyServerConfig {
    /// Address to bind (default `127.0.0.1`; `0.0.0.0` serves the network).
    pub host: String,
    /// Port to bind (default 8000; 0 picks a free port).
    pub port: u16,
    /// The model's id in `/v1/models` and the `model` every request must name (default
    /// `gauntlet`; the CLI uses the model folder's or file's name).
    pub name: String,
    /// API key required as `Authorization: Bearer <key>` on `/v1/*` (default none: open).
    pub api_key: Option<String>,
    /// Most choices sampled together in one batch (default 32).
    pub max_batch: usize,
    /// Most requests waiting for the model; more answer 503 `queue_full` (default 256).
    pub max_queue: usize,
    /// Milliseconds an idle worker waits after a first request for others to batch with it
    /// (default 2).
    pub batch_wait_ms: u64,
    /// Largest request body in bytes (default 4 MiB); larger answer 413.
    pub max_body_bytes: usize,
    /// `max_tokens` of requests that give none (default 256; never past the context).
    pub default_max_tokens: usize,
    /// Most choices per request (`n`, default 16).
    pub max_n: usize,
    /// Most alternatives per token (`top_logprobs`, default 20).
    pub max_top_logprobs: usize,
    /// Base of the seeds of requests that give none (default 0).
    pub seed: u64,
    /// Where finished episode traces are appended, one JSON line each (default none: they are
    /// only queued in memory); see [`traces`].
    pub traces: Option<std::path::PathBuf>,
    /// Seconds a tagged episode may go without a call before it is abandoned (default 600).
    pub episode_timeout_s: u64,
}

impl Default for PolicyServerConfig {
    fn default() -> Self {
        PolicyServerConfig {
            host: "127.0.0.1".into(),
            port: 8000,
            name: "gauntlet".into(),
            api_key: None,
            max_batch: 32,
            max_queue: 256,
            batch_wait_ms: 2,
            max_body_bytes: 4 << 20,
            default_max_tokens: 256,
            max_n: 16,
            max_top_logprobs: 20,
            seed: 0,
            traces: None,
            episode_timeout_s: 600,
        }
    }
}

impl PolicyServerConfig {
    /// `host:port`, the address [`bind`] listens on.
    pub fn addr(&self) -> String {
        if self.host.contains(':') && !self.host.starts_with('[') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }
}

/// What every handler shares.
#[derive(Clone)]
pub struct PolicyState {
    /// The settings.
    pub config: Arc<PolicyServerConfig>,
    /// The model (the worker samples with it; handlers render and tokenise with it).
    pub chat: Arc<ChatModel>,
    /// The model worker's queue and counters.
    pub worker: WorkerHandle,
    /// Requests accepted so far (numbers requests without a seed).
    pub requests: Arc<AtomicU64>,
    /// The model's positions (context length).
    pub positions: usize,
    /// When the router was built.
    pub started: Instant,
    /// Unix time of the start (`created` of the model card).
    pub created: u64,
    /// Makes completion ids differ between server runs.
    pub epoch: u64,
    /// Handler panics caught (each answered 500; there should be none).
    pub handler_panics: Arc<AtomicU64>,
    /// Tagged episodes' calls and rewards.
    pub traces: Arc<traces::TraceStore>,
    /// The weights the worker samples with now, and their version.
    pub live: Arc<LiveModel>,
}

async fn auth(State(st): State<PolicyState>, req: Request, next: Next) -> Response<Body> {
    if let Some(key) = st.config.api_key.as_deref() {
        let given = req.headers().get(header::AUTHORIZATION).and_then(|v| v.to_str().ok());
        let ok = given
            .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")))
            .is_some_and(|t| same(t.trim().as_bytes(), key.as_bytes()));
        if !ok {
            let msg = if given.is_none() {
                "missing `Authorization: Bearer <key>` header; the server was started with an API key"
            } else {
                "invalid API key"
            };
            return ApiError::unauthorized(msg).into_response();
        }
    }
    next.run(req).await
}

async fn not_found(req: Request) -> ApiError {
    ApiError::not_found(
        "unknown_route",
        format!(
            "no route `{} {}`; this server has `GET /v1/models`, `POST /v1/chat/completions` and `POST /v1/episodes/{{id}}/reward`",
            req.method(),
            req.uri().path()
        ),
    )
}

async fn method_not_allowed(req: Request) -> ApiError {
    ApiError {
        status: axum::http::StatusCode::METHOD_NOT_ALLOWED,
        kind: "invalid_request_error",
        code: "method_not_allowed",
        message: format!("`{}` is not allowed on `{}`", req.method(), req.uri().path()),
        param: None,
    }
}

/// Builds the policy server's router for `chat` and starts its model worker thread (which
/// stops when the router and all its clones are dropped).
pub fn router(config: PolicyServerConfig, chat: Arc<ChatModel>) -> Result<Router, ServeError> {
    let traces = Arc::new(traces::TraceStore::new(
        config.traces.clone(),
        Duration::from_secs(config.episode_timeout_s.max(1)),
    ));
    router_with(config, Arc::new(LiveModel::new(chat, 0)), traces)
}

/// [`router`] for a model that changes while it serves (a trainer's policy, swapped after each
/// update through `live`), recording tagged episodes into `traces`, which the caller keeps to
/// take the finished ones ([`traces::TraceStore::take_finished`]). The tokenizer and chat
/// template are read from the model current now; a swap must keep them.
pub fn router_with(
    config: PolicyServerConfig,
    live: Arc<LiveModel>,
    traces: Arc<traces::TraceStore>,
) -> Result<Router, ServeError> {
    let (chat, _) = live.current();
    let worker = WorkerHandle::spawn(
        live.clone(),
        WorkerConfig {
            max_batch: config.max_batch.max(1),
            max_queue: config.max_queue.max(1),
            batch_wait: Duration::from_millis(config.batch_wait_ms),
        },
    )?;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let state = PolicyState {
        positions: chat.model.rope.max_positions(),
        config: Arc::new(config.clone()),
        chat,
        worker,
        requests: Arc::new(AtomicU64::new(0)),
        started: Instant::now(),
        created: now.as_secs(),
        epoch: now.as_nanos() as u64,
        handler_panics: Arc::new(AtomicU64::new(0)),
        traces,
        live,
    };
    let v1 = Router::new()
        .route("/v1/models", get(handlers::models))
        .route("/v1/models/{id}", get(handlers::model))
        .route("/v1/chat/completions", post(handlers::chat_completions))
        .route("/v1/episodes/{id}", get(handlers::episode))
        .route("/v1/episodes/{id}/reward", post(handlers::episode_reward))
        .route_layer(middleware::from_fn_with_state(state.clone(), auth));
    let panics = state.handler_panics.clone();
    Ok(Router::new()
        .route("/health", get(handlers::health))
        .merge(v1)
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(config.max_body_bytes))
        .layer(CatchPanicLayer::custom(move |_| {
            panics.fetch_add(1, Ordering::Relaxed);
            ApiError::internal(
                "internal_panic",
                "the server hit a bug handling this request (it keeps running)",
            )
            .into_response()
        }))
        .with_state(state))
}

/// Binds `config.host:config.port` (port 0 picks a free port).
pub async fn bind(config: &PolicyServerConfig) -> Result<TcpListener, ServeError> {
    let addr = config.addr();
    TcpListener::bind(&addr).await.map_err(|source| ServeError::Bind { addr, source })
}

/// Serves `chat` on `listener` until `shutdown` completes, then finishes the requests in flight.
pub async fn serve_with_shutdown(
    config: PolicyServerConfig,
    chat: Arc<ChatModel>,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let app = router(config, chat)?;
    axum::serve(listener, app).with_graceful_shutdown(shutdown).await?;
    Ok(())
}

/// The whole of `gauntlet serve policy`: a tokio runtime, bind, `on_listening(addr)`, serve until
/// Ctrl-C.
pub fn run(
    config: PolicyServerConfig,
    chat: ChatModel,
    on_listening: impl FnOnce(SocketAddr),
) -> Result<(), ServeError> {
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    rt.block_on(async move {
        let listener = bind(&config).await?;
        on_listening(listener.local_addr()?);
        serve_with_shutdown(config, Arc::new(chat), listener, async {
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        })
        .await
    })
}
