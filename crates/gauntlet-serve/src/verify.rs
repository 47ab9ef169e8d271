//! `POST /v1/verify`: score responses with the task families' validity verifiers, as
//! `gauntlet verify` does.
//!
//! Each item is either a dataset row plus a response,
//! `{"row": {...}, "response": "<answer>...</answer>"}` (the row's own `response` field is used
//! when the item has none), or a task and its problem,
//! `{"task": "sudoku", "problem": {...} | "<ground_truth JSON text>", "response": "..."}`.
//! The body is one item, a list of items, or `{"items": [...]}`. Answer:
//! `{"results": [{"task", "reward", "correct", "format_error", "reason"}, ...]}` in item order.
//!
//! The whole batch is checked (names, fields, sizes) before any verifier runs, and scoring runs
//! on the blocking pool so that a big batch never stalls the reactor. A problem that does not
//! decode as the named task's problem fails the call with 400 `bad_problem` naming the item.

use crate::blocking::{blocking, heavy, json_response, HEAVY_ITEMS};
use crate::body::{batch, JsonBody, Obj};
use crate::catalog::resolve;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use axum::extract::State;
use axum::response::Response;
use gauntlet_core::DynTask;
use gauntlet_envs::EnvEntry;
use gauntlet_tasks::rows::RowView;
use serde::Serialize;
use serde_json::Value;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// One verdict of `POST /v1/verify`.
#[derive(Debug, Serialize)]
pub struct VerifyResult {
    /// Task family.
    pub task: String,
    /// Reward in `[0, 1]`.
    pub reward: f64,
    /// Whether the response solves the problem.
    pub correct: bool,
    /// The response had no parsable answer.
    pub format_error: bool,
    /// The verifier's reason.
    pub reason: String,
}

/// The answer of `POST /v1/verify`.
#[derive(Debug, Serialize)]
pub struct VerifyResponse {
    /// One verdict per item, in request order.
    pub results: Vec<VerifyResult>,
}

struct Item {
    place: String,
    task: Arc<dyn DynTask>,
    problem: Value,
    response: String,
}

fn parse_item(v: &Value, place: &str, max_response: usize, extra: &[EnvEntry]) -> ApiResult<Item> {
    let o = Obj::new(v, place)?;
    o.only(&["row", "task", "problem", "response"])?;
    let here = |e: ApiError| if place.is_empty() { e } else { e.at(place) };
    let (name, problem, row_response) = if let Some(row) = o.get("row") {
        if o.has("task") || o.has("problem") {
            return Err(here(ApiError::bad_request(
                "ambiguous_item",
                "give either `row` or `task` + `problem`, not both",
            )));
        }
        let view = RowView::from_value(row).map_err(|e| {
            here(ApiError::bad_request("bad_row", format!("field `row.{}`: {}", e.field, e.message)))
        })?;
        (view.task, view.problem, view.response)
    } else {
        let name = o.str_req("task")?.to_string();
        let problem = match o.get("problem") {
            None => {
                return Err(here(ApiError::bad_request(
                    "missing_field",
                    "field `problem` is required (or give a dataset `row`)",
                )))
            }
            Some(Value::String(s)) => serde_json::from_str(s).map_err(|e| {
                here(ApiError::bad_request(
                    "bad_problem",
                    format!("field `problem` is a string but not JSON text (a row's `ground_truth`): {e}"),
                ))
            })?,
            Some(v) => v.clone(),
        };
        (name, problem, None)
    };
    let task = resolve(&name, extra).and_then(|t| t.task(&name)).map_err(here)?;
    let response = match o.str_opt("response")? {
        Some(r) => r.to_string(),
        None => row_response.ok_or_else(|| {
            here(ApiError::bad_request(
                "missing_field",
                "field `response` is required (the model's full text)",
            ))
        })?,
    };
    if response.len() > max_response {
        return Err(here(ApiError::bad_request(
            "response_too_long",
            format!(
                "`response` is {} bytes; the server's `max_response_bytes` is {max_response}",
                response.len()
            ),
        )));
    }
    Ok(Item { place: place.to_string(), task, problem, response })
}

/// `POST /v1/verify`.
pub async fn verify(State(st): State<AppState>, JsonBody(body): JsonBody) -> ApiResult<Response> {
    let max = st.config.max_batch;
    let max_response = st.config.max_response_bytes;
    let extra = st.extra_envs.clone();
    let n = batch(&body, "items")?.len();
    if n > max {
        return Err(ApiError::bad_request(
            "batch_too_large",
            format!("{n} items in one call; the server's `max_batch` is {max}: split it"),
        ));
    }
    // Decoding and scoring both run off the reactor; the whole batch is decoded (and refused
    // on the first bad item) before any verifier runs.
    let work = move || {
        let items = batch(&body, "items")?
            .iter()
            .map(|(v, place)| parse_item(v, place, max_response, &extra))
            .collect::<ApiResult<Vec<_>>>()?;
        let results = items.into_iter().map(score).collect::<ApiResult<Vec<_>>>()?;
        json_response(&VerifyResponse { results })
    };
    let resp = if n > HEAVY_ITEMS { heavy(&st.heavy, work).await? } else { blocking(work).await? };
    st.stats.items_verified.fetch_add(n as u64, Ordering::Relaxed);
    Ok(resp)
}

fn score(it: Item) -> ApiResult<VerifyResult> {
    let score = it.task.score_of(&it.problem, &it.response).map_err(|e| {
        let e = ApiError::bad_request("bad_problem", format!("field `problem`: {e}"));
        if it.place.is_empty() {
            e
        } else {
            e.at(&it.place)
        }
    })?;
    Ok(VerifyResult {
        task: it.task.spec().name.to_string(),
        reward: score.reward,
        correct: score.correct,
        format_error: score.is_format_error(),
        reason: score.reason,
    })
}
