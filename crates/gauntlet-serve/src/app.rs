//! The router: routes, shared state, authentication, limits and the panic guard.

use crate::catalog::{self, CatalogEntry};
use crate::config::EnvServerConfig;
use crate::error::{ApiError, ApiResult};
use crate::sessions::SessionStore;
use crate::{generate, session_api, verify};
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{header, Response};
use axum::middleware::{self, Next};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use gauntlet_envs::EnvEntry;
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::time::Instant;
use tokio::sync::Semaphore;
use tower_http::catch_panic::CatchPanicLayer;

/// Request counters (the session counters live in the store).
#[derive(Debug, Default)]
pub struct Stats {
    /// Rows produced by `/v1/generate`.
    pub rows_generated: AtomicU64,
    /// Items scored by `/v1/verify`.
    pub items_verified: AtomicU64,
    /// Successful `act` calls.
    pub acts: AtomicU64,
    /// Handler panics caught (each answered 500; there should be none).
    pub panics: AtomicU64,
}

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    /// The settings the router was built with.
    pub config: Arc<EnvServerConfig>,
    /// Live sessions.
    pub sessions: Arc<SessionStore>,
    /// Request counters.
    pub stats: Arc<Stats>,
    /// Environments served on top of the registries (see [`router_with_envs`]).
    pub extra_envs: Arc<Vec<EnvEntry>>,
    /// The `/v1/tasks` listing, built once.
    pub catalog: Arc<Vec<CatalogEntry>>,
    /// When the router was built.
    pub started: Instant,
    /// Permits for heavy jobs (big batches, big bodies): one fewer than the cores, at least one.
    pub heavy: Arc<Semaphore>,
}

/// Work items above which a job counts as heavy and waits for a [`AppState::heavy`] permit.
pub const HEAVY_ITEMS: usize = 32;
/// Body size in bytes above which JSON is parsed as a heavy job.
pub const HEAVY_BODY_BYTES: usize = 64 << 10;

/// Run CPU-bound work on tokio's blocking pool so the reactor threads stay free; a panic in
/// `f` answers 500 `internal_panic` instead of taking anything down.
pub async fn blocking<T: Send + 'static>(f: impl FnOnce() -> ApiResult<T> + Send + 'static) -> ApiResult<T> {
    match tokio::task::spawn_blocking(f).await {
        Ok(r) => r,
        Err(e) if e.is_panic() => Err(ApiError::internal("internal_panic", "the request's work panicked")),
        Err(_) => Err(ApiError::internal("cancelled", "the request's work was cancelled")),
    }
}

/// [`blocking`] for big jobs (batches past [`HEAVY_ITEMS`], bodies past [`HEAVY_BODY_BYTES`]):
/// at most `cores - 1` of them run at once, so on a small machine a flood of 4,096-item batches
/// queues instead of starving the reactor threads and every small request behind them.
pub async fn heavy<T: Send + 'static>(
    st: &AppState,
    f: impl FnOnce() -> ApiResult<T> + Send + 'static,
) -> ApiResult<T> {
    let permit = st
        .heavy
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| ApiError::internal("shutting_down", "the server is shutting down"))?;
    blocking(move || {
        let out = f();
        drop(permit);
        out
    })
    .await
}

/// A 200 JSON response serialised now (inside a blocking job, for big answers).
pub fn json_response<T: Serialize>(value: &T) -> ApiResult<Response<Body>> {
    let bytes = serde_json::to_vec(value)
        .map_err(|e| ApiError::internal("serialize", format!("could not serialise the answer: {e}")))?;
    Ok(([(header::CONTENT_TYPE, "application/json")], bytes).into_response())
}

/// `GET /health`: liveness plus the live session count.
#[derive(Debug, Serialize)]
struct Health {
    status: &'static str,
    version: &'static str,
    sessions: usize,
}

async fn health(State(st): State<AppState>) -> Json<Health> {
    Json(Health { status: "ok", version: env!("CARGO_PKG_VERSION"), sessions: st.sessions.len() })
}

async fn stats_handler(State(st): State<AppState>) -> Json<serde_json::Value> {
    let s = &st.sessions.stats;
    let r = Ordering::Relaxed;
    Json(serde_json::json!({
        "uptime_s": st.started.elapsed().as_secs_f64(),
        "sessions": {
            "live": st.sessions.len(),
            "capacity": st.sessions.capacity(),
            "created": s.created.load(r),
            "deleted": s.deleted.load(r),
            "expired": s.expired.load(r),
            "rejected": s.rejected.load(r),
        },
        "acts": st.stats.acts.load(r),
        "rows_generated": st.stats.rows_generated.load(r),
        "items_verified": st.stats.items_verified.load(r),
        "panics": st.stats.panics.load(r),
    }))
}

#[derive(Serialize)]
struct TaskList<'a> {
    tasks: &'a [CatalogEntry],
}

async fn tasks(State(st): State<AppState>) -> impl IntoResponse {
    Json(TaskList { tasks: &st.catalog }).into_response()
}

async fn not_found(req: Request) -> ApiError {
    ApiError::not_found(
        "unknown_route",
        format!("no route `{} {}`; see `GET /v1/tasks`", req.method(), req.uri().path()),
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

/// Byte-wise comparison whose time does not depend on where the strings differ.
pub(crate) fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

pub(crate) async fn auth(State(st): State<AppState>, req: Request, next: Next) -> Response<Body> {
    if let Some(token) = st.config.token.as_deref() {
        let given = req.headers().get(header::AUTHORIZATION).and_then(|v| v.to_str().ok());
        let ok = given
            .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")))
            .is_some_and(|t| same(t.trim().as_bytes(), token.as_bytes()));
        if !ok {
            let msg = if given.is_none() {
                "missing `Authorization: Bearer <token>` header; the server was started with a token"
            } else {
                "invalid bearer token"
            };
            return ApiError::unauthorized(msg).into_response();
        }
    }
    next.run(req).await
}

fn panic_response(stats: Arc<Stats>) -> impl Fn(Box<dyn std::any::Any + Send>) -> Response<Body> + Clone {
    move |_| {
        stats.panics.fetch_add(1, Ordering::Relaxed);
        ApiError::internal("internal_panic", "the server hit a bug handling this request (it keeps running)")
            .into_response()
    }
}

/// The sweeper: drops idle sessions every [`EnvServerConfig::sweep_interval`] until the store
/// is gone (it holds only a weak reference).
fn spawn_sweeper(store: Weak<SessionStore>, every: std::time::Duration) {
    let Ok(handle) = tokio::runtime::Handle::try_current() else { return };
    handle.spawn(async move {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let Some(store) = store.upgrade() else { break };
            store.sweep();
        }
    });
}

/// Build the environment server's router for `config`.
///
/// Call it inside a tokio runtime to get the idle-session sweeper (a background task that stops
/// when the router is dropped); outside one, idle sessions are still dropped when they are next
/// requested and whenever the store is full. The router answers every route, error and panic
/// with JSON; `host` and `port` are not used here (see [`crate::bind`]).
pub fn router(config: EnvServerConfig) -> Router {
    router_with_envs(config, Vec::new())
}

/// [`router`] serving `extra` environments as well as the registered ones: your own
/// [`ScriptedEnv`](gauntlet_envs::ScriptedEnv)s behind the same API. An extra entry is found
/// before a registered task or environment of the same name, so it can also replace one.
pub fn router_with_envs(config: EnvServerConfig, extra: Vec<EnvEntry>) -> Router {
    let sessions = Arc::new(SessionStore::new(config.max_sessions, config.idle_timeout()));
    spawn_sweeper(Arc::downgrade(&sessions), config.sweep_interval());
    let stats = Arc::new(Stats::default());
    let state = AppState {
        config: Arc::new(config.clone()),
        sessions,
        stats: stats.clone(),
        catalog: Arc::new(catalog::entries(&extra)),
        extra_envs: Arc::new(extra),
        started: Instant::now(),
        heavy: Arc::new(Semaphore::new(
            std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1)),
        )),
    };
    let v1 = Router::new()
        .route("/v1/tasks", get(tasks))
        .route("/v1/stats", get(stats_handler))
        .route("/v1/generate", post(generate::generate))
        .route("/v1/verify", post(verify::verify))
        .route("/v1/sessions", post(session_api::create))
        .route("/v1/sessions/{id}", get(session_api::observe).delete(session_api::delete))
        .route("/v1/sessions/{id}/act", post(session_api::act))
        .route_layer(middleware::from_fn_with_state(state.clone(), auth));
    Router::new()
        .route("/health", get(health))
        .merge(v1)
        .merge(crate::openenv::routes(state.clone()))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(config.max_body_bytes))
        .layer(CatchPanicLayer::custom(panic_response(stats)))
        .with_state(state)
}
