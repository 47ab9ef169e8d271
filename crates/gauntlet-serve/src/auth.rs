//! The bearer-token check of the environment server ([`auth`], a middleware) and the
//! constant-time comparison both servers use ([`same`]).

use crate::error::ApiError;
use crate::state::AppState;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, Response};
use axum::middleware::Next;
use axum::response::IntoResponse;

/// Byte-wise comparison whose time does not depend on where the strings differ.
pub(crate) fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Answers 401 unless the request carries `Authorization: Bearer <token>` with the configured
/// token (every request passes when the server has none).
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
