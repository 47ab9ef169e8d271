//! Structured JSON errors: every failure answers `{"error": {"message", "type", "code"}}`
//! ([`ApiError`]); and why a server could not start or stopped ([`ServeError`]).

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// An error answered to a client: an HTTP status and the JSON body
/// `{"error": {"message": "...", "type": "...", "code": "..."}}`.
///
/// `type` is the broad class (`invalid_request_error`, `authentication_error`,
/// `not_found_error`, `conflict_error`, `request_too_large`, `capacity_error`, `server_error`),
/// `code` the precise reason (`unknown_task`, `bad_level`, `malformed_json`, …), and `message`
/// a sentence for a person naming the bad value and, where there is one, the fix. The policy
/// server also names the request field at fault in `param`, as OpenAI does (absent elsewhere).
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    /// HTTP status.
    pub status: StatusCode,
    /// Broad class of the error.
    pub kind: &'static str,
    /// Precise, machine-readable reason.
    pub code: &'static str,
    /// Human-readable message.
    pub message: String,
    /// The request field at fault (`messages[1].role`), when there is one.
    pub param: Option<String>,
}

#[derive(Serialize)]
struct Body<'a> {
    error: Inner<'a>,
}

#[derive(Serialize)]
struct Inner<'a> {
    message: &'a str,
    #[serde(rename = "type")]
    kind: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    param: Option<&'a str>,
    code: &'a str,
}

impl ApiError {
    /// A 400 `invalid_request_error` with the given code.
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            kind: "invalid_request_error",
            code,
            message: message.into(),
            param: None,
        }
    }

    /// A 404 `not_found_error` with the given code.
    pub fn not_found(code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::NOT_FOUND,
            kind: "not_found_error",
            code,
            message: message.into(),
            param: None,
        }
    }

    /// A 409 `conflict_error` (the request is well formed but the session's state refuses it).
    pub fn conflict(code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::CONFLICT,
            kind: "conflict_error",
            code,
            message: message.into(),
            param: None,
        }
    }

    /// A 401 `authentication_error`.
    pub fn unauthorized(message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::UNAUTHORIZED,
            kind: "authentication_error",
            code: "invalid_token",
            message: message.into(),
            param: None,
        }
    }

    /// A 413 `request_too_large`.
    pub fn too_large(message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            kind: "request_too_large",
            code: "body_too_large",
            message: message.into(),
            param: None,
        }
    }

    /// A 503 `capacity_error` (answered with `Retry-After: 1`).
    pub fn capacity(code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            kind: "capacity_error",
            code,
            message: message.into(),
            param: None,
        }
    }

    /// A 500 `server_error`.
    pub fn internal(code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            kind: "server_error",
            code,
            message: message.into(),
            param: None,
        }
    }

    /// A 404 `not_found_error` for an unknown model (OpenAI's code `model_not_found`).
    pub fn unknown_model(message: impl Into<String>) -> Self {
        ApiError::not_found("model_not_found", message).with_param("model")
    }

    /// Name the request field at fault (`param` in the body).
    pub fn with_param(mut self, param: impl Into<String>) -> Self {
        self.param = Some(param.into());
        self
    }

    /// Prefix the message with the place in the request it concerns (`items[3]`).
    pub fn at(mut self, place: &str) -> Self {
        self.message = format!("{place}: {}", self.message);
        self
    }

    /// The JSON body of this error.
    pub fn body(&self) -> serde_json::Value {
        serde_json::to_value(Body {
            error: Inner {
                message: &self.message,
                kind: self.kind,
                param: self.param.as_deref(),
                code: self.code,
            },
        })
        .unwrap_or_default()
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}: {}", self.status.as_u16(), self.code, self.message)
    }
}

impl std::error::Error for ApiError {}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = Body {
            error: Inner {
                message: &self.message,
                kind: self.kind,
                param: self.param.as_deref(),
                code: self.code,
            },
        };
        let mut resp = (self.status, axum::Json(body)).into_response();
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            resp.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        if self.status == StatusCode::UNAUTHORIZED {
            resp.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        resp
    }
}

/// The result type of handlers.
pub type ApiResult<T> = Result<T, ApiError>;

/// Why the server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServeError {
    /// The address could not be bound (in use, not local, no permission).
    #[error("cannot listen on `{addr}`: {source} (pick another `--port`, or 0 for any free port)")]
    Bind {
        /// The `host:port` asked for.
        addr: String,
        /// What the OS said.
        source: std::io::Error,
    },
    /// The runtime could not be built or the server failed while running.
    #[error("server: {0}")]
    Io(#[from] std::io::Error),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn body_has_the_three_fields() {
        let e = ApiError::bad_request("bad_level", "level must be in 1..=5, got 9").at("requests[2]");
        let b = e.body();
        assert_eq!(b["error"]["type"], "invalid_request_error");
        assert_eq!(b["error"]["code"], "bad_level");
        assert_eq!(b["error"]["message"], "requests[2]: level must be in 1..=5, got 9");
    }
}
