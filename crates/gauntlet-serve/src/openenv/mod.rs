//! Every task, environment and game as an [OpenEnv](https://github.com/meta-pytorch/OpenEnv)
//! environment, each under its own path prefix `/openenv/{name}`, speaking the protocol of the
//! `openenv-core` Python package (checked against its 0.3.0 server, `GenericEnvClient` and
//! `openenv validate --url`), so TRL, verifiers, SkyRL and torchforge reach gauntlet with no
//! Python of ours.
//!
//! | route under `/openenv/{name}` | what |
//! |---|---|
//! | `GET /ws` | WebSocket: one episode per connection ([`ws`]): `reset`, `step`, `state`, `mcp`, `close` |
//! | `POST /reset` | `{"seed"?, "episode_id"?, "level"?}` → `{"observation", "reward": null, "done"}` |
//! | `POST /step` | `{"action": {"response", "seat"?}, "seed"?, "level"?, "history"?: [actions]}` → the same shape |
//! | `GET /state` | the state of a fresh environment (`{"episode_id": null, "step_count": 0, ...}`) |
//! | `GET /health` | `{"status": "healthy"}` (no token needed) |
//! | `GET /metadata` | `{"name", "description", "readme_content", "version", "author", "documentation_url"}` |
//! | `GET /schema` | JSON Schemas `{"action", "observation", "state"}` |
//! | `GET /openapi.json` | OpenAPI 3.1, paths relative to the prefix (`servers[0].url`) |
//! | `POST /mcp` | JSON-RPC 2.0: `tools/list` (one tool, `act`), `tools/call` |
//!
//! `GET /openenv` lists the mounts. HTTP `/reset`, `/step` and `/state` are stateless, as in
//! OpenEnv (each builds a fresh environment): `/step` replays `history` on the episode
//! `(seed, level)` (default seed 0, level 1) and then applies `action`, so a client can also play
//! whole episodes over plain HTTP. Episode continuity is the WebSocket's.
//!
//! Actions are `{"response": "<the model's text>"}` (plus `seat` for games, checked against the
//! seat to act, and OpenEnv's `metadata`, ignored); unknown fields are refused. Observations carry
//! the text of the seat to act (the episode kernel's user message, as `gauntlet train` renders
//! it: the environment's message about the seat's last action, a blank line, the observation),
//! `to_act`, per-seat `rewards` of the last step and `returns` so far, the environment's
//! `message`, `format_error` / `invalid` / `truncated`, and the legal actions ([`episode`]). `reward` is the acting seat's reward of the step. A reset without a
//! `seed` draws a fresh one, reported as `observation.seed`.
//!
//! Limits reuse the server's config: each WebSocket holds one of `max_sessions` places (one
//! more is answered `CAPACITY_REACHED` and closed), a connection silent for
//! `idle_timeout_secs` is closed, `max_turns` truncates an episode, `max_response_bytes` bounds
//! a response and `max_body_bytes` a message. A configured bearer token is required on every
//! route here except `/health`.

pub mod episode;
pub mod spec;
pub mod ws;

use crate::auth::auth;
use crate::blocking::{blocking, heavy};
use crate::catalog::{resolve, CatalogEntry, Target};
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use episode::{Action, Episode, OeError, ResetArgs};
use serde_json::{json, Value};

/// A resolved mount: what to run, its catalog entry and its canonical name.
#[derive(Clone)]
pub struct Mount {
    /// The task or environment.
    pub target: Target,
    /// Its `/v1/tasks` entry.
    pub entry: CatalogEntry,
}

impl Mount {
    /// The canonical name.
    pub fn name(&self) -> &str {
        &self.entry.name
    }
}

/// Resolve the `{name}` of a route (names are forgiven as everywhere: case, `-`/`_`).
pub fn mount(st: &AppState, name: &str) -> ApiResult<Mount> {
    let target = resolve(name, &st.extra_envs)?;
    let canonical = match &target {
        Target::Task(t) => t.spec().name.to_string(),
        Target::Env(e) => e.name.to_string(),
    };
    let entry =
        st.catalog.iter().find(|e| e.name == canonical).cloned().ok_or_else(|| {
            ApiError::internal("catalog", format!("`{canonical}` is missing from the catalog"))
        })?;
    Ok(Mount { target, entry })
}

/// The OpenEnv routes, to merge into the server's router.
pub fn routes(state: AppState) -> Router<AppState> {
    let guarded = Router::new()
        .route("/openenv", get(list))
        .route("/openenv/{name}/ws", get(ws::upgrade))
        .route("/openenv/{name}/reset", post(reset))
        .route("/openenv/{name}/step", post(step))
        .route("/openenv/{name}/state", get(state_handler))
        .route("/openenv/{name}/metadata", get(metadata))
        .route("/openenv/{name}/schema", get(schema))
        .route("/openenv/{name}/openapi.json", get(openapi))
        .route("/openenv/{name}/mcp", post(mcp))
        .route_layer(middleware::from_fn_with_state(state, auth));
    Router::new().route("/openenv/{name}/health", get(health)).merge(guarded)
}

async fn list(State(st): State<AppState>) -> Json<Value> {
    let envs: Vec<Value> = st
        .catalog
        .iter()
        .map(|e| json!({"name": e.name, "kind": e.kind, "seats": e.seats, "path": format!("/openenv/{}", e.name)}))
        .collect();
    Json(json!({"environments": envs}))
}

async fn health(State(st): State<AppState>, Path(name): Path<String>) -> ApiResult<Json<Value>> {
    mount(&st, &name)?;
    Ok(Json(json!({"status": "healthy"})))
}

async fn metadata(State(st): State<AppState>, Path(name): Path<String>) -> ApiResult<Json<Value>> {
    Ok(Json(spec::metadata(&mount(&st, &name)?.entry)))
}

async fn schema(State(st): State<AppState>, Path(name): Path<String>) -> ApiResult<Json<Value>> {
    mount(&st, &name)?;
    Ok(Json(spec::schema()))
}

async fn openapi(State(st): State<AppState>, Path(name): Path<String>) -> ApiResult<Json<Value>> {
    let m = mount(&st, &name)?;
    let prefix = format!("/openenv/{}", m.name());
    Ok(Json(spec::openapi(&m.entry, &prefix)))
}

async fn state_handler(State(st): State<AppState>, Path(name): Path<String>) -> ApiResult<Json<Value>> {
    let m = mount(&st, &name)?;
    Ok(Json(episode::empty_state(m.name())))
}

/// An HTTP answer for an OpenEnv error: 422 `{"detail": [...]}` for validation (as FastAPI),
/// 409 for a refused step, 500 for an environment failure (gauntlet's error body).
pub fn oe_response(e: OeError) -> Response {
    match e {
        OeError::Validation(errs) => {
            (StatusCode::UNPROCESSABLE_ENTITY, Json(json!({"detail": errs}))).into_response()
        }
        OeError::Execution(m) => ApiError::conflict("step_refused", m).into_response(),
        OeError::Factory(m) => ApiError::internal("environment_error", m).into_response(),
    }
}

fn body_json(bytes: &[u8]) -> Result<Value, OeError> {
    crate::body::parse_json(bytes).map_err(|e| {
        OeError::Validation(vec![episode::invalid("json_invalid", &["body"], e.message, &Value::Null)])
    })
}

async fn reset(State(st): State<AppState>, Path(name): Path<String>, body: Bytes) -> Response {
    let m = match mount(&st, &name) {
        Ok(m) => m,
        Err(e) => return e.into_response(),
    };
    let args = match body_json(&body).and_then(|v| episode::reset_args(Some(&v), "body")) {
        Ok(a) => a,
        Err(e) => return oe_response(e),
    };
    let seed = args.seed.unwrap_or_else(|| st.sessions.fresh_seed());
    let cap = st.config.max_turns;
    let out =
        blocking(move || Ok(Episode::start(&m.target, m.name(), seed, &args, cap).map(|(_, p)| p))).await;
    match out {
        Ok(Ok(p)) => Json(p).into_response(),
        Ok(Err(e)) => oe_response(e),
        Err(e) => e.into_response(),
    }
}

/// A decoded stateless step: the episode to replay and the action to apply.
struct StepRequest {
    args: ResetArgs,
    history: Vec<Action>,
    action: Action,
}

fn step_request(v: &Value, max_bytes: usize, max_turns: u32) -> Result<StepRequest, OeError> {
    let Some(o) = v.as_object() else {
        return Err(OeError::Validation(vec![episode::invalid(
            "dict_type",
            &["body"],
            "Input should be a valid dictionary",
            v,
        )]));
    };
    let Some(a) = o.get("action") else {
        return Err(OeError::Validation(vec![episode::invalid(
            "missing",
            &["body", "action"],
            "Field required",
            v,
        )]));
    };
    let action = episode::action(a, &["body", "action"], max_bytes)?;
    let mut reset = serde_json::Map::new();
    for k in ["seed", "level", "episode_id"] {
        if let Some(x) = o.get(k) {
            reset.insert(k.to_string(), x.clone());
        }
    }
    let mut args = episode::reset_args(Some(&Value::Object(reset)), "body")?;
    args.seed = Some(args.seed.unwrap_or(0));
    let history = match o.get("history") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(h)) if h.len() < max_turns as usize => {
            let mut out = Vec::with_capacity(h.len());
            for (i, x) in h.iter().enumerate() {
                let i = i.to_string();
                out.push(episode::action(x, &["body", "history", i.as_str()], max_bytes)?);
            }
            out
        }
        Some(h @ Value::Array(_)) => {
            let msg = format!("history must be shorter than the server's `max_turns` ({max_turns})");
            return Err(OeError::Validation(vec![episode::invalid(
                "too_long",
                &["body", "history"],
                msg,
                h,
            )]));
        }
        Some(h) => {
            return Err(OeError::Validation(vec![episode::invalid(
                "list_type",
                &["body", "history"],
                "Input should be a valid list",
                h,
            )]))
        }
    };
    Ok(StepRequest { args, history, action })
}

/// Replay `req.history` on a fresh episode of `m`, then apply `req.action`.
fn replay(m: &Mount, req: &StepRequest, cap: u32) -> Result<Value, OeError> {
    let seed = req.args.seed.unwrap_or(0);
    let (mut ep, _) = Episode::start(&m.target, m.name(), seed, &req.args, cap)?;
    for (i, a) in req.history.iter().enumerate() {
        ep.step(a).map_err(|e| match e {
            OeError::Execution(msg) => OeError::Execution(format!("history[{i}]: {msg}")),
            other => other,
        })?;
    }
    ep.step(&req.action)
}

/// Why a stateless step failed: the request or the episode ([`OeError`]), or the server.
enum Failure {
    Oe(OeError),
    Api(ApiError),
}

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        match self {
            Failure::Oe(e) => oe_response(e),
            Failure::Api(e) => e.into_response(),
        }
    }
}

impl Failure {
    fn message(&self) -> String {
        match self {
            Failure::Oe(e) => format!("{}: {}", e.code(), e.message()),
            Failure::Api(e) => e.to_string(),
        }
    }
}

async fn run_step(st: &AppState, m: Mount, body: &Value) -> Result<Value, Failure> {
    let cfg = &st.config;
    let req = step_request(body, cfg.max_response_bytes, cfg.max_turns).map_err(Failure::Oe)?;
    let cap = cfg.max_turns;
    let out = heavy(&st.heavy, move || Ok(replay(&m, &req, cap))).await.map_err(Failure::Api)?;
    let payload = out.map_err(Failure::Oe)?;
    st.stats.acts.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    Ok(payload)
}

async fn step(State(st): State<AppState>, Path(name): Path<String>, body: Bytes) -> Response {
    let m = match mount(&st, &name) {
        Ok(m) => m,
        Err(e) => return e.into_response(),
    };
    let v = match body_json(&body) {
        Ok(v) => v,
        Err(e) => return oe_response(e),
    };
    match run_step(&st, m, &v).await {
        Ok(p) => Json(p).into_response(),
        Err(f) => f.into_response(),
    }
}

/// `POST /mcp`: JSON-RPC 2.0, always answered 200 (errors as JSON-RPC error objects). Without
/// a session, `tools/call act` is stateless like `/step`: its arguments are the action's fields
/// plus `seed`, `level` and `history`.
async fn mcp(State(st): State<AppState>, Path(name): Path<String>, body: Bytes) -> Response {
    let m = match mount(&st, &name) {
        Ok(m) => m,
        Err(e) => return e.into_response(),
    };
    let Ok(v) = crate::body::parse_json(&body) else {
        return Json(spec::rpc_error(&Value::Null, spec::rpc::PARSE_ERROR, "Parse error")).into_response();
    };
    let req = match spec::rpc_request(&v) {
        Ok(r) => r,
        Err(answer) => return Json(answer).into_response(),
    };
    let answer = match req.method.as_str() {
        "tools/list" => spec::rpc_ok(&req.id, spec::tools()),
        "tools/call" => match tool_args(&req) {
            Err(msg) => spec::rpc_error(&req.id, spec::rpc::INVALID_PARAMS, msg),
            Ok(args) => {
                let body = stateless_call(args);
                match run_step(&st, m, &body).await {
                    Ok(p) => spec::rpc_ok(&req.id, spec::tool_result(&p)),
                    Err(f) => spec::rpc_error(&req.id, spec::rpc::SERVER_ERROR, f.message()),
                }
            }
        },
        other => spec::rpc_error(&req.id, spec::rpc::METHOD_NOT_FOUND, format!("Method not found: {other}")),
    };
    Json(answer).into_response()
}

/// The arguments of a `tools/call` of the `act` tool.
pub fn tool_args(req: &spec::RpcRequest) -> Result<serde_json::Map<String, Value>, String> {
    match req.params.get("name").and_then(Value::as_str) {
        None => return Err("Missing 'name' in params".into()),
        Some("act") => {}
        Some(other) => return Err(format!("Tool not found: {other} (the only tool is `act`)")),
    }
    match req.params.get("arguments") {
        None | Some(Value::Null) => Ok(serde_json::Map::new()),
        Some(Value::Object(a)) => Ok(a.clone()),
        Some(_) => Err("`arguments` must be an object".into()),
    }
}

fn stateless_call(mut args: serde_json::Map<String, Value>) -> Value {
    let mut body = serde_json::Map::new();
    for k in ["seed", "level", "history", "episode_id"] {
        if let Some(v) = args.remove(k) {
            body.insert(k.to_string(), v);
        }
    }
    body.insert("action".into(), Value::Object(args));
    Value::Object(body)
}
