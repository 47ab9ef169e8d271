//! Running environment and batch work off the reactor threads: [`blocking`] for any job,
//! [`heavy`] for big ones (bounded by [`Heavy`] permits), and [`json_response`] to serialise a
//! big answer inside the job.
//!
//! A leaf module: it knows the error type and nothing of the server's state, so the handlers,
//! the body reader and the policy server all use it without importing each other.

use crate::error::{ApiError, ApiResult};
use axum::body::Body;
use axum::http::{header, Response};
use axum::response::IntoResponse;
use serde::Serialize;
use std::sync::Arc;
use tokio::sync::Semaphore;

/// Work items above which a job counts as heavy and waits for a [`Heavy`] permit.
pub const HEAVY_ITEMS: usize = 32;
/// Body size in bytes above which JSON is parsed as a heavy job.
pub const HEAVY_BODY_BYTES: usize = 64 << 10;

/// Permits for heavy jobs (big batches, big bodies): one fewer than the cores, at least one.
#[derive(Clone, Debug)]
pub struct Heavy(Arc<Semaphore>);

impl Heavy {
    /// `n` permits (at least one).
    pub fn new(n: usize) -> Heavy {
        Heavy(Arc::new(Semaphore::new(n.max(1))))
    }

    /// One fewer permit than the machine has cores, at least one.
    pub fn for_this_machine() -> Heavy {
        Heavy::new(std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1)))
    }
}

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
/// at most as many run at once as `permits` holds, so on a small machine a flood of 4,096-item
/// batches queues instead of starving the reactor threads and every small request behind them.
pub async fn heavy<T: Send + 'static>(
    permits: &Heavy,
    f: impl FnOnce() -> ApiResult<T> + Send + 'static,
) -> ApiResult<T> {
    let permit = permits
        .0
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
