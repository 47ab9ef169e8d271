//! The descriptive side of an OpenEnv mount: `/metadata`, `/schema` (JSON Schemas of the
//! action, observation and state), `/openapi.json`, and the JSON-RPC 2.0 `/mcp` envelope.

use crate::catalog::CatalogEntry;
use serde_json::{json, Value};

/// OpenEnv's `EnvironmentMetadata` for a catalog entry.
pub fn metadata(e: &CatalogEntry) -> Value {
    let kind = serde_json::to_value(e.kind).unwrap_or_default();
    let mut readme = format!(
        "# {}\n\n{}\n\nKind: {} · seats: {} · category: {}. Reset with `seed` (an integer) and `level` \
         (1..=5); act with `{{\"response\": \"...\"}}`.",
        e.name,
        e.description,
        kind.as_str().unwrap_or(""),
        e.seats,
        e.category
    );
    if let Some(f) = &e.answer_format {
        readme.push_str(&format!("\n\nAnswer format: {f}"));
    }
    json!({
        "name": e.name,
        "description": e.description,
        "readme_content": readme,
        "version": env!("CARGO_PKG_VERSION"),
        "author": "gauntlet",
        "documentation_url": null,
    })
}

/// The action's JSON Schema (one required field, so verifiers' OpenEnv taskset sends the
/// model's raw text as `response`).
pub fn action_schema() -> Value {
    json!({
        "title": "GauntletAction",
        "description": "The acting seat's response: free text; the environment parses the action \
                        or answer out of it (the last `<answer>...</answer>` block where the prompt asks for one).",
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "response": {"title": "Response", "type": "string", "description": "The model's response text."},
            "seat": {
                "title": "Seat",
                "anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}],
                "default": null,
                "description": "The seat acting (games); when given it must be the seat to act."
            },
            "metadata": {"title": "Metadata", "type": "object", "additionalProperties": true, "default": {}}
        },
        "required": ["response"]
    })
}

fn nullable(t: &str) -> Value {
    json!({"anyOf": [{"type": t}, {"type": "null"}], "default": null})
}

fn num_list(description: &str) -> Value {
    json!({"type": "array", "items": {"type": "number"}, "description": description})
}

/// The observation's JSON Schema (the fields of `observation` plus `reward`, `done`, `metadata`).
pub fn observation_schema() -> Value {
    json!({
        "title": "GauntletObservation",
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "done": {"type": "boolean", "default": false},
            "reward": {"anyOf": [{"type": "boolean"}, {"type": "integer"}, {"type": "number"}, {"type": "null"}], "default": null,
                       "description": "Reward of the last step for the seat that acted (null after reset)."},
            "metadata": {"type": "object", "additionalProperties": true, "default": {}},
            "text": {"type": "string", "description": "What the seat `seat` sees: the prompt to answer."},
            "anchor": {"type": "string", "description": "A key of the state (for GiGPO-style grouping)."},
            "task": {"type": "string"},
            "kind": {"type": "string", "enum": ["single_turn", "multi_turn", "game"]},
            "seats": {"type": "integer", "minimum": 1},
            "seed": {"type": "integer", "minimum": 0},
            "level": {"type": "integer", "minimum": 1, "maximum": 5},
            "turn": {"type": "integer", "minimum": 0, "description": "Steps taken so far."},
            "to_act": nullable("integer"),
            "seat": {"type": "integer", "minimum": 0, "description": "The seat `text` is for: the seat to act, or the last to act once done."},
            "acted": nullable("integer"),
            "rewards": num_list("Per-seat reward of the last step (change of each seat's return)."),
            "returns": num_list("Per-seat return so far (final when done)."),
            "message": {"type": "string", "description": "The environment's answer to the last action."},
            "format_error": {"type": "boolean"},
            "invalid": {"type": "boolean"},
            "truncated": {"type": "boolean"},
            "legal_actions": {"type": "array", "items": {"type": "string"},
                              "description": "Legal actions of the seat to act (a sample for open action spaces; empty for single-turn tasks)."}
        }
    })
}

/// The state's JSON Schema (OpenEnv's `State`, extra fields allowed).
pub fn state_schema() -> Value {
    json!({
        "title": "GauntletState",
        "type": "object",
        "additionalProperties": true,
        "properties": {
            "episode_id": nullable("string"),
            "step_count": {"type": "integer", "minimum": 0, "default": 0},
            "task": {"type": "string"},
            "seed": {"type": "integer"},
            "level": {"type": "integer"},
            "done": {"type": "boolean"},
            "to_act": nullable("integer"),
            "returns": num_list("Per-seat return so far.")
        }
    })
}

/// `GET /schema`.
pub fn schema() -> Value {
    json!({"action": action_schema(), "observation": observation_schema(), "state": state_schema()})
}

fn json_body(schema: Value) -> Value {
    json!({"content": {"application/json": {"schema": schema}}})
}

fn op(summary: &str, body: Option<Value>, answer: Value) -> Value {
    let mut o = json!({"summary": summary, "responses": {"200": json_body(answer)}});
    if let Some(b) = body {
        o["requestBody"] = json_body(b);
    }
    o
}

fn step_answer() -> Value {
    json!({
        "type": "object",
        "properties": {
            "observation": {"type": "object"},
            "reward": {"anyOf": [{"type": "number"}, {"type": "null"}]},
            "done": {"type": "boolean"}
        },
        "required": ["observation", "done"]
    })
}

/// `GET /openapi.json` for the mount at `prefix` (`/openenv/NAME`): paths are relative to it
/// (`servers[0].url`), as `openenv validate` reads them.
pub fn openapi(e: &CatalogEntry, prefix: &str) -> Value {
    let reset = json!({
        "type": "object",
        "additionalProperties": true,
        "properties": {
            "seed": {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}]},
            "episode_id": {"anyOf": [{"type": "string", "maxLength": 255}, {"type": "null"}]},
            "level": {"type": "integer", "minimum": 1, "maximum": 5, "default": 1}
        }
    });
    let step = json!({
        "type": "object",
        "additionalProperties": true,
        "properties": {
            "action": action_schema(),
            "timeout_s": {"anyOf": [{"type": "number"}, {"type": "null"}]},
            "request_id": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "seed": {"type": "integer", "minimum": 0, "default": 0},
            "level": {"type": "integer", "minimum": 1, "maximum": 5, "default": 1},
            "history": {"type": "array", "items": action_schema(), "default": [],
                        "description": "Actions replayed before `action` (stateless play of a whole episode)."}
        },
        "required": ["action"]
    });
    let rpc = json!({"type": "object", "properties": {"jsonrpc": {"const": "2.0"}}});
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": format!("gauntlet OpenEnv: {}", e.name),
            "version": "1.0.0",
            "description": format!("{} (gauntlet {})", e.description, env!("CARGO_PKG_VERSION")),
        },
        "servers": [{"url": prefix}],
        "paths": {
            "/reset": {"post": op("Start an episode (stateless)", Some(reset), step_answer())},
            "/step": {"post": op("Replay `history`, then apply `action` to a fresh episode (stateless)", Some(step), step_answer())},
            "/state": {"get": op("State of a fresh environment (stateless)", None, state_schema())},
            "/metadata": {"get": op("Environment metadata", None, json!({"type": "object"}))},
            "/health": {"get": op("Health check", None, json!({"type": "object", "properties": {"status": {"type": "string"}}}))},
            "/schema": {"get": op("Action, observation and state JSON Schemas", None, json!({"type": "object"}))},
            "/mcp": {"post": op("MCP JSON-RPC 2.0 (tools/list, tools/call)", Some(rpc.clone()), rpc)},
        },
        "x-websocket": {"path": "/ws", "description": "Stateful sessions: one episode per connection (OpenEnv's WebSocket protocol)."}
    })
}

/// JSON-RPC 2.0 error codes (as OpenEnv's `JsonRpcErrorCode`).
pub mod rpc {
    /// Invalid JSON.
    pub const PARSE_ERROR: i64 = -32700;
    /// Not a valid request object.
    pub const INVALID_REQUEST: i64 = -32600;
    /// No such method.
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// Bad parameters.
    pub const INVALID_PARAMS: i64 = -32602;
    /// Implementation-defined server error.
    pub const SERVER_ERROR: i64 = -32000;
}

/// A JSON-RPC 2.0 error response.
pub fn rpc_error(id: &Value, code: i64, message: impl Into<String>) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message.into(), "data": null}})
}

/// A JSON-RPC 2.0 success response.
pub fn rpc_ok(id: &Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// A decoded JSON-RPC request: method, params, id.
pub struct RpcRequest {
    /// Method name.
    pub method: String,
    /// Params (an object).
    pub params: serde_json::Map<String, Value>,
    /// Request id (string, integer or null).
    pub id: Value,
}

/// Decode a JSON-RPC 2.0 request as OpenEnv's `JsonRpcRequest` (extra fields forbidden); an
/// invalid one is answered with the error response.
pub fn rpc_request(v: &Value) -> Result<RpcRequest, Value> {
    let id = v.get("id").cloned().unwrap_or(Value::Null);
    let id = if id.is_string() || id.is_i64() || id.is_u64() { id } else { Value::Null };
    let bad = |m: &str| rpc_error(&id, rpc::INVALID_REQUEST, format!("Invalid request: {m}"));
    let Some(o) = v.as_object() else { return Err(bad("expected a JSON object")) };
    if let Some(k) = o.keys().find(|k| !matches!(k.as_str(), "jsonrpc" | "method" | "params" | "id")) {
        return Err(bad(&format!("unknown field `{k}`")));
    }
    if o.get("jsonrpc") != Some(&json!("2.0")) {
        return Err(bad("`jsonrpc` must be \"2.0\""));
    }
    let Some(method) = o.get("method").and_then(Value::as_str) else {
        return Err(bad("`method` (a string) is required"));
    };
    let params = match o.get("params") {
        None => serde_json::Map::new(),
        Some(Value::Object(p)) => p.clone(),
        Some(_) => return Err(rpc_error(&id, rpc::INVALID_PARAMS, "Params must be an object")),
    };
    Ok(RpcRequest { method: method.to_string(), params, id })
}

/// The one MCP tool of every mount: `act` (submit the acting seat's response).
pub fn tools() -> Value {
    let mut input = action_schema();
    if let Some(p) = input["properties"].as_object_mut() {
        p.remove("metadata");
    }
    json!({"tools": [{
        "name": "act",
        "description": "Submit the acting seat's response to the episode; returns the next observation, the reward and whether the episode is over.",
        "inputSchema": input
    }]})
}

/// An MCP `tools/call` result carrying a step's payload.
pub fn tool_result(payload: &Value) -> Value {
    let o = &payload["observation"];
    let text = match o["message"].as_str() {
        Some(m) if !m.is_empty() => format!("{}\n\n{}", m, o["text"].as_str().unwrap_or("")),
        _ => o["text"].as_str().unwrap_or("").to_string(),
    };
    json!({"content": [{"type": "text", "text": text}], "structuredContent": payload, "isError": false})
}
