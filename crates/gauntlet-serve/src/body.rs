//! Reading request bodies: JSON with a size limit, then field-by-field decoding that names the
//! field at fault (`requests[1].level: expected an integer in 1..=5, got "hard"`).
//!
//! Requests are decoded by hand from a [`serde_json::Value`] rather than through derived
//! `Deserialize` impls so that every message names its field and the rejected value, and so
//! that unknown fields (a typo such as `levle`) are refused instead of silently defaulted.

use crate::blocking::{heavy, Heavy, HEAVY_BODY_BYTES};
use crate::error::{ApiError, ApiResult};
use axum::body::Bytes;
use axum::extract::{FromRef, FromRequest, Request};
use gauntlet_core::Difficulty;
use serde_json::{Map, Value};

/// A request body parsed as JSON. Any content type is accepted (clients such as Python's
/// `urllib` send form content types by default); an empty body reads as `null`. Bodies past
/// 64 KiB are parsed off the reactor threads, as heavy jobs.
pub struct JsonBody(pub Value);

impl<S> FromRequest<S> for JsonBody
where
    S: Send + Sync,
    Heavy: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = Bytes::from_request(req, state).await.map_err(|r| {
            if r.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::too_large("request body is larger than the server's `max_body_bytes`")
            } else {
                ApiError::bad_request("unreadable_body", format!("could not read the request body: {r}"))
            }
        })?;
        let len = bytes.len();
        let parse = move || parse_json(&bytes).map(JsonBody);
        if len > HEAVY_BODY_BYTES {
            heavy(&Heavy::from_ref(state), parse).await
        } else {
            parse()
        }
    }
}

/// Parses a request body as JSON; an empty (or all-whitespace) body reads as `null`.
pub fn parse_json(bytes: &[u8]) -> ApiResult<Value> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Value::Null);
    }
    serde_json::from_slice(bytes)
        .map_err(|e| ApiError::bad_request("malformed_json", format!("request body is not valid JSON: {e}")))
}

/// A short rendering of a JSON value for error messages.
pub fn show(v: &Value) -> String {
    let s = v.to_string();
    if s.len() <= 40 {
        return s;
    }
    let mut end = 37;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &s[..end])
}

/// How a JSON value's type reads in messages (`a string`, `an array`).
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A JSON object being decoded, with the place it sits in the request for messages.
pub struct Obj<'a> {
    map: &'a Map<String, Value>,
    place: String,
}

impl<'a> Obj<'a> {
    /// View `v` as an object, or fail naming `place`.
    pub fn new(v: &'a Value, place: &str) -> ApiResult<Self> {
        match v {
            Value::Object(map) => Ok(Obj { map, place: place.to_string() }),
            other => Err(ApiError::bad_request(
                "wrong_type",
                format!("{}: expected a JSON object, got {}", place_or_body(place), type_name(other)),
            )),
        }
    }

    /// The full name of field `key` in the request (`requests[1].level`, or `level` at the top).
    pub fn field(&self, key: &str) -> String {
        if self.place.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.place)
        }
    }

    /// A 400 `wrong_type` error for field `key`: expected `want`, got `got`.
    pub fn wrong(&self, key: &str, want: &str, got: &Value) -> ApiError {
        ApiError::bad_request(
            "wrong_type",
            format!("field `{}`: expected {want}, got {} `{}`", self.field(key), type_name(got), show(got)),
        )
        .with_param(self.field(key))
    }

    /// A 400 error with `code` about field `key`: "field `key`: {message}".
    pub fn bad(&self, key: &str, code: &'static str, message: impl std::fmt::Display) -> ApiError {
        ApiError::bad_request(code, format!("field `{}`: {message}", self.field(key)))
            .with_param(self.field(key))
    }

    /// Refuse fields outside `known`, listing the accepted ones.
    pub fn only(&self, known: &[&str]) -> ApiResult<()> {
        if let Some(k) = self.map.keys().find(|k| !known.contains(&k.as_str())) {
            let list = known.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ");
            return Err(ApiError::bad_request(
                "unknown_field",
                format!("unknown field `{}`; expected {list}", self.field(k)),
            )
            .with_param(self.field(k)));
        }
        Ok(())
    }

    /// The raw value of `key` (absent or `null` → `None`).
    pub fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    /// Whether `key` is present and not `null`.
    pub fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// An optional string field.
    pub fn str_opt(&self, key: &str) -> ApiResult<Option<&'a str>> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(v) => Err(self.wrong(key, "a string", v)),
        }
    }

    /// A required string field.
    pub fn str_req(&self, key: &str) -> ApiResult<&'a str> {
        self.str_opt(key)?.ok_or_else(|| self.missing(key))
    }

    /// A 400 `missing_field` error for field `key`.
    pub fn missing(&self, key: &str) -> ApiError {
        ApiError::bad_request("missing_field", format!("field `{}` is required", self.field(key)))
            .with_param(self.field(key))
    }

    /// An optional number field.
    pub fn f64_opt(&self, key: &str) -> ApiResult<Option<f64>> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => v.as_f64().map(Some).ok_or_else(|| self.wrong(key, "a number", v)),
        }
    }

    /// An optional boolean field.
    pub fn bool_opt(&self, key: &str) -> ApiResult<Option<bool>> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(v) => Err(self.wrong(key, "a boolean", v)),
        }
    }

    /// An optional integer field (negative allowed).
    pub fn i64_opt(&self, key: &str) -> ApiResult<Option<i64>> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => v.as_i64().map(Some).ok_or_else(|| self.wrong(key, "an integer", v)),
        }
    }

    /// An optional non-negative integer field.
    pub fn u64_opt(&self, key: &str) -> ApiResult<Option<u64>> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => v.as_u64().map(Some).ok_or_else(|| self.wrong(key, "a non-negative integer", v)),
        }
    }

    /// An optional seat index.
    pub fn seat_opt(&self, key: &str) -> ApiResult<Option<usize>> {
        Ok(self.u64_opt(key)?.map(|s| usize::try_from(s).unwrap_or(usize::MAX)))
    }

    /// The difficulty level in `key` (default level 1), refusing anything outside `1..=5`.
    pub fn level(&self, key: &str) -> ApiResult<Difficulty> {
        match self.get(key) {
            None => Ok(Difficulty::MIN),
            Some(v) => {
                let bad = || {
                    self.bad(
                        key,
                        "bad_level",
                        format!("level must be an integer in 1..=5, got `{}`", show(v)),
                    )
                };
                let n = v.as_u64().ok_or_else(bad)?;
                u8::try_from(n).ok().and_then(|n| Difficulty::new(n).ok()).ok_or_else(bad)
            }
        }
    }
}

fn place_or_body(place: &str) -> &str {
    if place.is_empty() {
        "request body"
    } else {
        place
    }
}

/// A body that is either one object or a batch: a JSON array, or an object with the array under
/// `key`. Returns the items and the name used for each item's place in messages.
pub fn batch<'a>(body: &'a Value, key: &str) -> ApiResult<Vec<(&'a Value, String)>> {
    let (items, prefix): (Vec<&Value>, &str) = match body {
        Value::Array(a) => (a.iter().collect(), ""),
        Value::Object(m) if m.contains_key(key) => {
            if let Some(k) = m.keys().find(|k| k.as_str() != key) {
                return Err(ApiError::bad_request(
                    "unknown_field",
                    format!("unknown field `{k}` next to `{key}`; put per-item fields inside each item"),
                ));
            }
            match &m[key] {
                Value::Array(a) => (a.iter().collect(), key),
                other => {
                    return Err(ApiError::bad_request(
                        "wrong_type",
                        format!("field `{key}`: expected an array, got {}", type_name(other)),
                    ))
                }
            }
        }
        Value::Object(_) => return Ok(vec![(body, String::new())]),
        Value::Null => {
            return Err(ApiError::bad_request(
                "missing_body",
                "request body is empty; expected a JSON object",
            ))
        }
        other => {
            return Err(ApiError::bad_request(
                "wrong_type",
                format!("request body: expected a JSON object or array, got {}", type_name(other)),
            ))
        }
    };
    Ok(items.into_iter().enumerate().map(|(i, v)| (v, format!("{prefix}[{i}]"))).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn messages_name_the_field() {
        let v = json!({"level": "hard", "n": -1});
        let o = Obj::new(&v, "requests[1]").unwrap();
        let e = o.level("level").unwrap_err();
        assert_eq!(e.code, "bad_level");
        assert!(e.message.contains("requests[1].level"), "{}", e.message);
        let e = o.u64_opt("n").unwrap_err();
        assert!(e.message.contains("non-negative integer"), "{}", e.message);
        assert_eq!(o.only(&["level"]).unwrap_err().code, "unknown_field");
    }

    #[test]
    fn batches_come_in_three_shapes() {
        assert_eq!(batch(&json!({"task": "x"}), "items").unwrap().len(), 1);
        assert_eq!(batch(&json!([{}, {}]), "items").unwrap()[1].1, "[1]");
        assert_eq!(batch(&json!({"items": [{}]}), "items").unwrap()[0].1, "items[0]");
        assert_eq!(batch(&json!(3), "items").unwrap_err().code, "wrong_type");
        assert_eq!(batch(&json!(null), "items").unwrap_err().code, "missing_body");
        assert!(show(&json!("é".repeat(40))).ends_with("..."));
    }
}
