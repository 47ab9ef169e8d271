//! The router: routes, limits and the panic guard. Nothing imports this module but the
//! server and the crate root: the shared state lives in [`crate::state`], the blocking helpers
//! in [`crate::blocking`], the token check in [`crate::auth`].

use crate::auth::auth;
use crate::catalog::CatalogEntry;
use crate::config::EnvServerConfig;
use crate::error::ApiError;
use crate::sessions::SessionStore;
use crate::state::{AppState, Stats};
use crate::{generate, openenv, session_api, verify};
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::Response;
use axum::middleware;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use gauntlet_envs::EnvEntry;
use serde::Serialize;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};
use tower_http::catch_panic::CatchPanicLayer;

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
    let body_limit = config.max_body_bytes;
    let state = AppState::new(config, extra);
    spawn_sweeper(Arc::downgrade(&state.sessions), state.config.sweep_interval());
    let stats = state.stats.clone();
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
        .merge(openenv::routes(state.clone()))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(CatchPanicLayer::custom(panic_response(stats)))
        .with_state(state)
}
