//! Decoding and validating `POST /v1/chat/completions` bodies.
//!
//! The body is read field by field (see [`crate::body`]) so that every 400 names its field in
//! the message and in `param`, and so that a field the server does not implement is refused
//! rather than silently ignored: `tools`, non-zero penalties or a `response_format` other than
//! text answer 400 `unsupported_parameter`; an unknown field answers 400 `unknown_field` with
//! the accepted list. Fields OpenAI clients send by default that change nothing here (`user`,
//! zero penalties, `response_format: {"type": "text"}`) are accepted.

use serde_json::Value;

use crate::body::{show, Obj};
use crate::error::{ApiError, ApiResult};
use gauntlet_model::ChatMessage;

/// Every top-level field the server reads.
pub const FIELDS: &[&str] = &[
    "model",
    "messages",
    "temperature",
    "top_p",
    "top_k",
    "n",
    "max_tokens",
    "max_completion_tokens",
    "stop",
    "stop_token_ids",
    "seed",
    "stream",
    "stream_options",
    "logprobs",
    "top_logprobs",
    "return_token_ids",
    "return_tokens_as_token_ids",
    "presence_penalty",
    "frequency_penalty",
    "logit_bias",
    "response_format",
    "user",
    "tools",
    "tool_choice",
    "parallel_tool_calls",
    "functions",
    "function_call",
];

/// Roles a message may have (`developer` is rendered as `system`).
pub const ROLES: &[&str] = &["system", "developer", "user", "assistant", "tool"];

/// A validated chat completion request.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatRequest {
    /// The `model` asked for.
    pub model: String,
    /// The conversation, roles normalised.
    pub messages: Vec<ChatMessage>,
    /// Softmax temperature in `[0, 2]` (default 1; 0 = greedy).
    pub temperature: f64,
    /// Nucleus mass in `(0, 1]` (default 1).
    pub top_p: f64,
    /// Top-k cut (vLLM extension; 0 or -1 = off).
    pub top_k: usize,
    /// Choices to sample (default 1).
    pub n: usize,
    /// `max_tokens` or `max_completion_tokens`, when given.
    pub max_tokens: Option<usize>,
    /// Stop strings (not in the returned text).
    pub stop: Vec<String>,
    /// Extra stop token ids (vLLM extension; the model's EOS always stops).
    pub stop_token_ids: Vec<u32>,
    /// The seed, when given (negative seeds are read as their two's complement).
    pub seed: Option<u64>,
    /// Answer as server-sent events.
    pub stream: bool,
    /// With `stream`: a last chunk with `usage` (`stream_options.include_usage`).
    pub include_usage: bool,
    /// Per-token log-probs.
    pub logprobs: bool,
    /// Alternatives per token (needs `logprobs`).
    pub top_logprobs: usize,
    /// vLLM extension: `prompt_token_ids` on the response, `token_ids` on each choice.
    pub return_token_ids: bool,
    /// vLLM extension: log-prob entries named `"token_id:123"`.
    pub tokens_as_ids: bool,
}

/// Limits the server puts on requests.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Most choices per request.
    pub max_n: usize,
    /// Most alternatives per token.
    pub max_top_logprobs: usize,
}

/// Most stop strings per request.
pub const MAX_STOP: usize = 16;

fn unsupported(o: &Obj<'_>, key: &str, what: &str) -> ApiError {
    o.bad(key, "unsupported_parameter", format!("{what} is not supported by `gauntlet serve policy`"))
}

/// A message's text: a string, or a list of `{"type": "text", "text": …}` parts (joined).
fn content(v: Option<&Value>, m: &Obj<'_>, role: &str) -> ApiResult<String> {
    match v {
        None if role == "assistant" => Ok(String::new()),
        None => Err(m.missing("content")),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(Value::Array(parts)) => {
            let mut text = String::new();
            for (i, part) in parts.iter().enumerate() {
                let place = format!("{}[{i}]", m.field("content"));
                let p = Obj::new(part, &place)?;
                p.only(&["type", "text"])?;
                match p.str_req("type")? {
                    "text" => text.push_str(p.str_req("text")?),
                    other => {
                        return Err(p.bad(
                            "type",
                            "unsupported_parameter",
                            format!("content part type `{other}` is not supported (text only)"),
                        ))
                    }
                }
            }
            Ok(text)
        }
        Some(other) => Err(m.wrong("content", "a string or a list of text parts", other)),
    }
}

fn messages(o: &Obj<'_>) -> ApiResult<Vec<ChatMessage>> {
    let list = match o.get("messages") {
        None => return Err(o.missing("messages")),
        Some(Value::Array(a)) => a,
        Some(other) => return Err(o.wrong("messages", "an array of messages", other)),
    };
    if list.is_empty() {
        return Err(o.bad("messages", "empty_messages", "needs at least one message"));
    }
    let mut out = Vec::with_capacity(list.len());
    for (i, v) in list.iter().enumerate() {
        let m = Obj::new(v, &format!("messages[{i}]"))?;
        m.only(&["role", "content", "name"])?;
        let role = m.str_req("role")?;
        if !ROLES.contains(&role) {
            return Err(m.bad(
                "role",
                "bad_role",
                format!("unknown role `{role}`; expected one of {}", ROLES.join(", ")),
            ));
        }
        m.str_opt("name")?;
        let text = content(m.get("content"), &m, role)?;
        let role = if role == "developer" { "system" } else { role };
        out.push(ChatMessage::new(role, text));
    }
    Ok(out)
}

fn stop(o: &Obj<'_>) -> ApiResult<Vec<String>> {
    let list: Vec<String> = match o.get("stop") {
        None => return Ok(Vec::new()),
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(a)) => a
            .iter()
            .map(|v| v.as_str().map(str::to_string).ok_or_else(|| o.wrong("stop", "a list of strings", v)))
            .collect::<ApiResult<_>>()?,
        Some(other) => return Err(o.wrong("stop", "a string or a list of strings", other)),
    };
    if list.len() > MAX_STOP {
        return Err(o.bad(
            "stop",
            "too_many_stops",
            format!("at most {MAX_STOP} stop strings, got {}", list.len()),
        ));
    }
    if list.iter().any(String::is_empty) {
        return Err(o.bad("stop", "empty_stop", "stop strings must not be empty"));
    }
    Ok(list)
}

fn count(o: &Obj<'_>, key: &str) -> ApiResult<Option<usize>> {
    match o.get(key) {
        None => Ok(None),
        Some(v) => v
            .as_u64()
            .map(|n| Some(usize::try_from(n).unwrap_or(usize::MAX)))
            .ok_or_else(|| o.wrong(key, "a non-negative integer", v)),
    }
}

/// Checks that `key` is absent, `null` or equal to its neutral value `zero`.
fn neutral(o: &Obj<'_>, key: &str, ok: impl Fn(&Value) -> bool, what: &str) -> ApiResult<()> {
    match o.get(key) {
        Some(v) if !ok(v) => Err(unsupported(o, key, &format!("{what} (got `{}`)", show(v)))),
        _ => Ok(()),
    }
}

/// Decodes and validates a request body, in named steps (each reads its fields and answers
/// the first problem it finds, in the order the fields are listed here).
pub fn decode(body: &Value, limits: Limits) -> ApiResult<ChatRequest> {
    if body.is_null() {
        return Err(ApiError::bad_request("missing_body", "request body is empty; expected a JSON object"));
    }
    let o = Obj::new(body, "")?;
    o.only(FIELDS)?;
    let model = o.str_req("model")?.to_string();
    let messages = messages(&o)?;
    let Sampling { temperature, top_p, top_k, n } = sampling(&o, limits)?;
    let max_tokens = max_tokens(&o)?;
    let stop = stop(&o)?;
    let stop_token_ids = stop_token_ids(&o)?;
    let seed = seed(&o)?;
    let (stream, include_usage) = streaming(&o)?;
    let (logprobs, top_logprobs) = logprob_options(&o, limits)?;
    let return_token_ids = o.bool_opt("return_token_ids")?.unwrap_or(false);
    let tokens_as_ids = o.bool_opt("return_tokens_as_token_ids")?.unwrap_or(false);
    accepted_defaults(&o)?;
    Ok(ChatRequest {
        model,
        messages,
        temperature,
        top_p,
        top_k,
        n,
        max_tokens,
        stop,
        stop_token_ids,
        seed,
        stream,
        include_usage,
        logprobs,
        top_logprobs,
        return_token_ids,
        tokens_as_ids,
    })
}

/// The sampling knobs of a request.
struct Sampling {
    temperature: f64,
    top_p: f64,
    top_k: usize,
    n: usize,
}

/// `temperature`, `top_p`, `top_k` and `n`, each checked against its range.
fn sampling(o: &Obj<'_>, limits: Limits) -> ApiResult<Sampling> {
    let temperature = o.f64_opt("temperature")?.unwrap_or(1.0);
    if !(0.0..=2.0).contains(&temperature) {
        return Err(o.bad("temperature", "bad_temperature", format!("must be in [0, 2], got {temperature}")));
    }
    let top_p = o.f64_opt("top_p")?.unwrap_or(1.0);
    if !(top_p > 0.0 && top_p <= 1.0) {
        return Err(o.bad("top_p", "bad_top_p", format!("must be in (0, 1], got {top_p}")));
    }
    let top_k = match o.i64_opt("top_k")? {
        None | Some(-1) | Some(0) => 0,
        Some(k) if k > 0 => usize::try_from(k).unwrap_or(usize::MAX),
        Some(k) => {
            return Err(o.bad("top_k", "bad_top_k", format!("must be -1, 0 (off) or positive, got {k}")))
        }
    };
    let n = count(o, "n")?.unwrap_or(1);
    if n == 0 || n > limits.max_n {
        return Err(o.bad("n", "bad_n", format!("must be in 1..={}, got {n}", limits.max_n)));
    }
    Ok(Sampling { temperature, top_p, top_k, n })
}

/// `max_tokens` or its newer name `max_completion_tokens` (equal when both are given; at least 1).
fn max_tokens(o: &Obj<'_>) -> ApiResult<Option<usize>> {
    let max_tokens = count(o, "max_tokens")?;
    let max_completion = count(o, "max_completion_tokens")?;
    let max_tokens = match (max_tokens, max_completion) {
        (Some(a), Some(b)) if a != b => {
            return Err(o.bad(
                "max_completion_tokens",
                "conflicting_fields",
                format!("is {b} but `max_tokens` is {a}; give one of them"),
            ))
        }
        (a, b) => a.or(b),
    };
    if max_tokens == Some(0) {
        let key = if max_completion.is_some() { "max_completion_tokens" } else { "max_tokens" };
        return Err(o.bad(key, "bad_max_tokens", "must be at least 1"));
    }
    Ok(max_tokens)
}

/// `stop_token_ids` (vLLM extension): a list of token ids.
fn stop_token_ids(o: &Obj<'_>) -> ApiResult<Vec<u32>> {
    match o.get("stop_token_ids") {
        None => Ok(Vec::new()),
        Some(Value::Array(a)) => a
            .iter()
            .map(|v| {
                v.as_u64()
                    .and_then(|x| u32::try_from(x).ok())
                    .ok_or_else(|| o.wrong("stop_token_ids", "a list of token ids", v))
            })
            .collect(),
        Some(other) => Err(o.wrong("stop_token_ids", "a list of token ids", other)),
    }
}

/// `seed`: any integer (a negative one read as its two's complement).
fn seed(o: &Obj<'_>) -> ApiResult<Option<u64>> {
    match o.get("seed") {
        None => Ok(None),
        Some(v) => Ok(Some(
            v.as_u64()
                .or_else(|| v.as_i64().map(|s| s as u64))
                .ok_or_else(|| o.wrong("seed", "an integer", v))?,
        )),
    }
}

/// `stream` and `stream_options.include_usage` (which needs `stream`).
fn streaming(o: &Obj<'_>) -> ApiResult<(bool, bool)> {
    let stream = o.bool_opt("stream")?.unwrap_or(false);
    let include_usage = match o.get("stream_options") {
        None => false,
        Some(v) => {
            if !stream {
                return Err(o.bad("stream_options", "stream_options_without_stream", "needs `stream: true`"));
            }
            let so = Obj::new(v, "stream_options")?;
            so.only(&["include_usage", "continuous_usage_stats"])?;
            so.bool_opt("include_usage")?.unwrap_or(false)
        }
    };
    Ok((stream, include_usage))
}

/// `logprobs` and `top_logprobs` (at most the server's limit; needs `logprobs`).
fn logprob_options(o: &Obj<'_>, limits: Limits) -> ApiResult<(bool, usize)> {
    let logprobs = o.bool_opt("logprobs")?.unwrap_or(false);
    let top_logprobs = count(o, "top_logprobs")?.unwrap_or(0);
    if top_logprobs > limits.max_top_logprobs {
        return Err(o.bad(
            "top_logprobs",
            "bad_top_logprobs",
            format!("must be in 0..={}, got {top_logprobs}", limits.max_top_logprobs),
        ));
    }
    if top_logprobs > 0 && !logprobs {
        return Err(o.bad("top_logprobs", "top_logprobs_without_logprobs", "needs `logprobs: true`"));
    }
    Ok((logprobs, top_logprobs))
}

/// Fields OpenAI clients send by default: accepted at their neutral values (zero penalties, an
/// empty `logit_bias`, a text `response_format`, no tools), refused as unsupported otherwise.
fn accepted_defaults(o: &Obj<'_>) -> ApiResult<()> {
    let zero = |v: &Value| v.as_f64() == Some(0.0);
    neutral(o, "presence_penalty", zero, "a non-zero `presence_penalty`")?;
    neutral(o, "frequency_penalty", zero, "a non-zero `frequency_penalty`")?;
    neutral(o, "logit_bias", |v| v.as_object().is_some_and(|m| m.is_empty()), "`logit_bias`")?;
    neutral(o, "response_format", |v| v["type"] == "text", "a `response_format` other than text")?;
    o.str_opt("user")?;
    for key in ["tools", "tool_choice", "functions", "function_call"] {
        if let Some(v) = o.get(key) {
            let empty = v.as_array().is_some_and(|a| a.is_empty()) || v == "none";
            if !empty {
                return Err(unsupported(o, key, "tool calling"));
            }
        }
    }
    o.bool_opt("parallel_tool_calls")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const LIMITS: Limits = Limits { max_n: 8, max_top_logprobs: 20 };

    fn err(body: Value) -> ApiError {
        decode(&body, LIMITS).unwrap_err()
    }

    #[test]
    fn a_full_request_decodes() {
        let r = decode(
            &json!({"model": "m", "messages": [{"role": "developer", "content": [{"type": "text", "text": "be "}, {"type": "text", "text": "brief"}]},
                    {"role": "user", "content": "hi", "name": "ann"}],
                    "temperature": 0.5, "top_p": 0.9, "top_k": -1, "n": 2, "max_completion_tokens": 9,
                    "stop": "</a>", "seed": -1, "stream": true, "stream_options": {"include_usage": true},
                    "logprobs": true, "top_logprobs": 3, "return_token_ids": true,
                    "presence_penalty": 0, "response_format": {"type": "text"}, "user": "u", "tools": []}),
            LIMITS,
        )
        .unwrap();
        assert_eq!(r.messages[0], ChatMessage::new("system", "be brief"));
        assert_eq!((r.n, r.max_tokens, r.top_k, r.seed), (2, Some(9), 0, Some(u64::MAX)));
        assert_eq!(r.stop, vec!["</a>"]);
        assert!(r.stream && r.include_usage && r.logprobs && r.return_token_ids && !r.tokens_as_ids);
    }

    #[test]
    fn every_bad_field_is_named() {
        let base = || json!({"model": "m", "messages": [{"role": "user", "content": "hi"}]});
        let with = |k: &str, v: Value| {
            let mut b = base();
            b[k] = v;
            b
        };
        for (body, param, code) in [
            (json!({"messages": []}), "model", "missing_field"),
            (json!({"model": "m"}), "messages", "missing_field"),
            (with("messages", json!([])), "messages", "empty_messages"),
            (with("messages", json!([{"role": "robot", "content": "x"}])), "messages[0].role", "bad_role"),
            (with("messages", json!([{"role": "user"}])), "messages[0].content", "missing_field"),
            (with("messages", json!([{"role": "user", "content": 3}])), "messages[0].content", "wrong_type"),
            (
                with("messages", json!([{"role": "user", "content": "x", "x": 1}])),
                "messages[0].x",
                "unknown_field",
            ),
            (
                with("messages", json!([{"role": "user", "content": [{"type": "image_url"}]}])),
                "messages[0].content[0].type",
                "unsupported_parameter",
            ),
            (with("temperature", json!(3)), "temperature", "bad_temperature"),
            (with("temperature", json!("hot")), "temperature", "wrong_type"),
            (with("top_p", json!(0)), "top_p", "bad_top_p"),
            (with("top_k", json!(-3)), "top_k", "bad_top_k"),
            (with("n", json!(9)), "n", "bad_n"),
            (with("max_tokens", json!(0)), "max_tokens", "bad_max_tokens"),
            (with("max_tokens", json!(-5)), "max_tokens", "wrong_type"),
            (with("stop", json!([""])), "stop", "empty_stop"),
            (with("stop", json!(7)), "stop", "wrong_type"),
            (with("seed", json!(1.5)), "seed", "wrong_type"),
            (with("stream", json!("yes")), "stream", "wrong_type"),
            (
                with("stream_options", json!({"include_usage": true})),
                "stream_options",
                "stream_options_without_stream",
            ),
            (with("top_logprobs", json!(2)), "top_logprobs", "top_logprobs_without_logprobs"),
            (with("presence_penalty", json!(0.5)), "presence_penalty", "unsupported_parameter"),
            (with("tools", json!([{"type": "function"}])), "tools", "unsupported_parameter"),
            (with("temprature", json!(1)), "temprature", "unknown_field"),
        ] {
            let e = err(body.clone());
            assert_eq!((e.code, e.param.as_deref()), (code, Some(param)), "{body}: {}", e.message);
            assert!(e.message.contains(param), "{}", e.message);
            assert_eq!(e.status, axum::http::StatusCode::BAD_REQUEST);
        }
        let mut both = base();
        both["max_tokens"] = json!(3);
        both["max_completion_tokens"] = json!(4);
        assert_eq!(err(both).code, "conflicting_fields");
        assert_eq!(err(Value::Null).code, "missing_body");
        assert_eq!(err(json!([1])).code, "wrong_type");
    }
}
