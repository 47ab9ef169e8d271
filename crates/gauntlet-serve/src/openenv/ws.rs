//! OpenEnv's WebSocket protocol on `/openenv/{name}/ws`: one episode per connection.
//!
//! ```text
//! → {"type": "reset", "data": {"seed": 3, "level": 2, "episode_id": "e1"}}
//! ← {"type": "observation", "data": {"observation": {...}, "reward": null, "done": false}}
//! → {"type": "step", "data": {"response": "<answer>left</answer>"}}
//! ← {"type": "observation", "data": {"observation": {...}, "reward": 0.0, "done": false}}
//! → {"type": "state"}                 ← {"type": "state", "data": {"episode_id": "e1", "step_count": 1, ...}}
//! → {"type": "mcp", "data": {"jsonrpc": "2.0", "method": "tools/list", "id": 1}}
//! ← {"type": "mcp", "data": {"jsonrpc": "2.0", "id": 1, "result": {"tools": [...]}}}
//! → {"type": "close"}                 (the server closes the connection; no answer)
//! ← {"type": "error", "data": {"message": "...", "code": "INVALID_JSON" | "UNKNOWN_TYPE" |
//!    "VALIDATION_ERROR" | "EXECUTION_ERROR" | "CAPACITY_REACHED" | "FACTORY_ERROR" | "SESSION_ERROR"}}
//! ```
//!
//! A bad message is answered with an error and the connection stays open; only
//! `CAPACITY_REACHED` (when `max_sessions` places are taken: the answer to the first message, or
//! after a second without one, with `active_sessions` and `max_sessions`) and `SESSION_ERROR` (the connection sat idle past
//! `idle_timeout_secs`) close it. Environment code runs on the blocking pool under
//! `catch_unwind`, like every other session of the server.

use super::episode::{self, Action, Episode, OeError};
use super::{mount, spec, Mount};
use crate::state::AppState;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use serde_json::{json, Map, Value};
use std::sync::atomic::Ordering;

/// `GET /openenv/{name}/ws`: resolve the name, then run the session. An unknown name is
/// accepted and answered at once with a `FACTORY_ERROR` message and a close frame (code 4004)
/// whose reason carries the "did you mean" suggestions: a WebSocket client shows a close reason,
/// where a refused upgrade shows only "HTTP 404".
pub async fn upgrade(State(st): State<AppState>, Path(name): Path<String>, ws: WebSocketUpgrade) -> Response {
    let max = st.config.max_body_bytes;
    let ws = ws.max_message_size(max).max_frame_size(max);
    match mount(&st, &name) {
        Ok(m) => ws.on_upgrade(move |socket| session(st, m, socket)),
        Err(e) => ws.on_upgrade(move |mut socket| async move {
            let _ = send(&mut socket, &error("FACTORY_ERROR", e.message.clone())).await;
            let frame = CloseFrame { code: UNKNOWN_NAME_CLOSE, reason: close_reason(&e.message).into() };
            let _ = socket.send(Message::Close(Some(frame))).await;
        }),
    }
}

/// The close code of a session opened on an unknown name (4000–4999: the application's own).
pub const UNKNOWN_NAME_CLOSE: u16 = 4004;

/// `message` cut to a close frame's 123-byte reason limit, at a character boundary.
fn close_reason(message: &str) -> String {
    if message.len() <= 123 {
        return message.to_string();
    }
    let mut end = 120;
    while !message.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &message[..end])
}

fn error(code: &str, message: impl Into<String>) -> Value {
    json!({"type": "error", "data": {"message": message.into(), "code": code}})
}

fn oe_error(e: &OeError) -> Value {
    let mut v = error(e.code(), e.message());
    if let OeError::Validation(errs) = e {
        v["data"]["errors"] = json!(errs);
    }
    v
}

async fn send(socket: &mut WebSocket, v: &Value) -> bool {
    socket.send(Message::Text(v.to_string().into())).await.is_ok()
}

/// What one message asks for after its envelope is checked.
enum Request {
    Reset(Option<Value>),
    Step(Value),
    State,
    Close,
    Mcp(Value),
}

fn only(o: &Map<String, Value>, keys: &[&str]) -> Result<(), OeError> {
    let errs: Vec<Value> = o
        .iter()
        .filter(|(k, _)| !keys.contains(&k.as_str()))
        .map(|(k, v)| episode::invalid("extra_forbidden", &[k.as_str()], "Extra inputs are not permitted", v))
        .collect();
    if errs.is_empty() {
        Ok(())
    } else {
        Err(OeError::Validation(errs))
    }
}

fn data_dict(o: &Map<String, Value>, required: bool) -> Result<Option<Value>, OeError> {
    match o.get("data") {
        None if required => Err(OeError::Validation(vec![episode::invalid(
            "missing",
            &["data"],
            "Field required",
            &Value::Null,
        )])),
        None => Ok(None),
        Some(v @ Value::Object(_)) => Ok(Some(v.clone())),
        Some(v) => Err(OeError::Validation(vec![episode::invalid(
            "dict_type",
            &["data"],
            "Input should be a valid dictionary",
            v,
        )])),
    }
}

/// Decode a text frame into a request, or the error to answer.
fn decode(text: &str) -> Result<Request, Value> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| error("INVALID_JSON", format!("Invalid JSON: {e}")))?;
    let kind = v.get("type").and_then(Value::as_str).unwrap_or("");
    let Some(o) = v.as_object() else {
        return Err(error("UNKNOWN_TYPE", "Unknown message type: (the message is not a JSON object)"));
    };
    let checked = match kind {
        "reset" => only(o, &["type", "data"]).and_then(|()| data_dict(o, false)).map(Request::Reset),
        "step" => only(o, &["type", "data"])
            .and_then(|()| data_dict(o, true))
            .map(|d| Request::Step(d.unwrap_or_default())),
        "state" => only(o, &["type"]).map(|()| Request::State),
        "close" => only(o, &["type"]).map(|()| Request::Close),
        "mcp" => only(o, &["type", "data"])
            .and_then(|()| data_dict(o, true))
            .map(|d| Request::Mcp(d.unwrap_or_default())),
        other => return Err(error("UNKNOWN_TYPE", format!("Unknown message type: {other}"))),
    };
    checked.map_err(|e| oe_error(&e))
}

/// The connection's episode and what it needs.
struct Conn {
    st: AppState,
    m: Mount,
    ep: Option<Episode>,
}

impl Conn {
    async fn reset(&mut self, data: Option<Value>) -> Result<Value, OeError> {
        let args = episode::reset_args(data.as_ref(), "data")?;
        let seed = args.seed.unwrap_or_else(|| self.st.sessions.fresh_seed());
        let m = self.m.clone();
        let cap = self.st.config.max_turns;
        let built =
            tokio::task::spawn_blocking(move || Episode::start(&m.target, m.name(), seed, &args, cap)).await;
        let (ep, payload) = built.map_err(|_| OeError::Factory("the reset task failed".into()))??;
        self.ep = Some(ep);
        Ok(payload)
    }

    async fn step(&mut self, action: Action) -> Result<Value, OeError> {
        let Some(mut ep) = self.ep.take() else {
            return Err(OeError::Execution("no episode yet: send `reset` first".into()));
        };
        let done = tokio::task::spawn_blocking(move || {
            let out = ep.step(&action);
            (ep, out)
        })
        .await;
        let (ep, out) = done.map_err(|_| OeError::Factory("the step task failed; send `reset`".into()))?;
        self.ep = Some(ep);
        if out.is_ok() {
            self.st.stats.acts.fetch_add(1, Ordering::Relaxed);
        }
        out
    }

    fn state(&mut self) -> Value {
        match &mut self.ep {
            Some(ep) => ep.state(),
            None => episode::empty_state(self.m.name()),
        }
    }

    async fn mcp(&mut self, data: &Value) -> Value {
        let req = match spec::rpc_request(data) {
            Ok(r) => r,
            Err(answer) => return answer,
        };
        match req.method.as_str() {
            "tools/list" => spec::rpc_ok(&req.id, spec::tools()),
            "tools/call" => {
                let args = match super::tool_args(&req) {
                    Ok(a) => a,
                    Err(m) => return spec::rpc_error(&req.id, spec::rpc::INVALID_PARAMS, m),
                };
                let max = self.st.config.max_response_bytes;
                let action = match episode::action(&Value::Object(args), &["arguments"], max) {
                    Ok(a) => a,
                    Err(e) => return spec::rpc_error(&req.id, spec::rpc::INVALID_PARAMS, e.message()),
                };
                match self.step(action).await {
                    Ok(p) => spec::rpc_ok(&req.id, spec::tool_result(&p)),
                    Err(e) => spec::rpc_error(&req.id, spec::rpc::SERVER_ERROR, e.message()),
                }
            }
            other => {
                spec::rpc_error(&req.id, spec::rpc::METHOD_NOT_FOUND, format!("Method not found: {other}"))
            }
        }
    }

    /// The answer to one text frame; `None` closes the connection.
    async fn handle(&mut self, text: &str) -> Option<Value> {
        let req = match decode(text) {
            Ok(r) => r,
            Err(answer) => return Some(answer),
        };
        let observed = |r: Result<Value, OeError>| match r {
            Ok(p) => json!({"type": "observation", "data": p}),
            Err(e) => oe_error(&e),
        };
        Some(match req {
            Request::Reset(data) => observed(self.reset(data).await),
            Request::Step(data) => {
                let max = self.st.config.max_response_bytes;
                match episode::action(&data, &["data"], max) {
                    Ok(a) => observed(self.step(a).await),
                    Err(e) => oe_error(&e),
                }
            }
            Request::State => json!({"type": "state", "data": self.state()}),
            Request::Mcp(data) => json!({"type": "mcp", "data": self.mcp(&data).await}),
            Request::Close => return None,
        })
    }
}

/// The text of a frame, or the error to answer (binary frames must hold UTF-8 JSON).
fn frame_text(msg: Message) -> Option<Result<String, Value>> {
    match msg {
        Message::Text(t) => Some(Ok(t.as_str().to_string())),
        Message::Binary(b) => Some(
            String::from_utf8(b.to_vec())
                .map_err(|_| error("INVALID_JSON", "Invalid JSON: a binary frame that is not UTF-8")),
        ),
        Message::Ping(_) | Message::Pong(_) => Some(Err(Value::Null)),
        Message::Close(_) => None,
    }
}

/// Refuse a connection when the store is full: wait (up to a second) for the client's first
/// message so that the error arrives as its answer, then send `CAPACITY_REACHED` and close.
/// (A client that sends right after connecting would otherwise race the close frame.)
async fn refuse(st: &AppState, mut socket: WebSocket, message: String) {
    let _ = tokio::time::timeout(std::time::Duration::from_secs(1), socket.recv()).await;
    let mut v = error("CAPACITY_REACHED", message);
    v["data"]["active_sessions"] = json!(st.sessions.len());
    v["data"]["max_sessions"] = json!(st.sessions.capacity());
    send(&mut socket, &v).await;
    let _ = socket.send(Message::Close(None)).await;
}

async fn session(st: AppState, m: Mount, mut socket: WebSocket) {
    let lease = match st.sessions.lease() {
        Ok(l) => l,
        Err(e) => return refuse(&st, socket, e.message).await,
    };
    let idle = st.config.idle_timeout();
    let mut conn = Conn { st, m, ep: None };
    loop {
        let msg = match tokio::time::timeout(idle, socket.recv()).await {
            Err(_) => {
                let msg =
                    format!("the session sat idle for more than {:.0} s and was closed", idle.as_secs_f64());
                send(&mut socket, &error("SESSION_ERROR", msg)).await;
                break;
            }
            Ok(None) | Ok(Some(Err(_))) => break,
            Ok(Some(Ok(msg))) => msg,
        };
        let answer = match frame_text(msg) {
            None => break,
            Some(Err(Value::Null)) => continue,
            Some(Err(answer)) => Some(answer),
            Some(Ok(text)) => conn.handle(&text).await,
        };
        match answer {
            Some(v) => {
                if !send(&mut socket, &v).await {
                    break;
                }
            }
            None => break,
        }
    }
    drop(lease);
    let _ = socket.send(Message::Close(None)).await;
}
