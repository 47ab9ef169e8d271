//! `POST /v1/generate`: dataset rows, exactly as `gauntlet generate` writes them.
//!
//! Body: one request `{"task": "sudoku", "n": 4, "seed": 0, "level": 3}` (`n` defaults to 1,
//! `seed` to 0, `level` to 1), a list of them, or `{"requests": [...]}`. Answer:
//! `{"rows": [Row, ...]}` with the [`Row`] shape of `gauntlet_tasks::rows` (the verl/TRL
//! columns); row `i` of a request uses seed `seed + i` and `extra_info.index` counts across the
//! whole answer, as the CLI does across families.

use crate::blocking::{blocking, heavy, json_response, HEAVY_ITEMS};
use crate::body::{batch, JsonBody, Obj};
use crate::catalog::resolve;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use axum::extract::State;
use axum::response::Response;
use gauntlet_core::{Difficulty, DynTask};
use gauntlet_envs::EnvEntry;
use gauntlet_tasks::rows::Row;
use serde::Serialize;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// The answer of `POST /v1/generate`.
#[derive(Debug, Serialize)]
pub struct GenerateResponse {
    /// The generated rows, in request order.
    pub rows: Vec<Row>,
}

struct Request {
    task: Arc<dyn DynTask>,
    n: u64,
    seed: u64,
    level: Difficulty,
}

fn parse(body: &serde_json::Value, max_batch: usize, extra: &[EnvEntry]) -> ApiResult<Vec<Request>> {
    let mut out = Vec::new();
    let mut total: u64 = 0;
    for (v, place) in batch(body, "requests")? {
        let o = Obj::new(v, &place)?;
        o.only(&["task", "n", "seed", "level"])?;
        let name = o.str_req("task")?;
        let task = resolve(name, extra).and_then(|t| t.task(name)).map_err(|e| at(e, &place))?;
        let n = o.u64_opt("n")?.unwrap_or(1);
        let seed = o.u64_opt("seed")?.unwrap_or(0);
        let level = o.level("level")?;
        total = total.saturating_add(n);
        if total > max_batch as u64 {
            return Err(ApiError::bad_request(
                "batch_too_large",
                format!(
                    "this request asks for {total}+ rows; the server's `max_batch` is {max_batch}: \
                     split it into several calls"
                ),
            ));
        }
        out.push(Request { task, n, seed, level });
    }
    Ok(out)
}

fn at(e: ApiError, place: &str) -> ApiError {
    if place.is_empty() {
        e
    } else {
        e.at(place)
    }
}

/// `POST /v1/generate`.
pub async fn generate(State(st): State<AppState>, JsonBody(body): JsonBody) -> ApiResult<Response> {
    let reqs = parse(&body, st.config.max_batch, &st.extra_envs)?;
    let total: u64 = reqs.iter().map(|r| r.n).sum();
    let work = move || {
        let mut rows = Vec::new();
        for r in &reqs {
            let spec = r.task.spec();
            for i in 0..r.n {
                let inst = r.task.instance(r.seed.wrapping_add(i), r.level);
                rows.push(Row::from_instance(&spec, &inst, rows.len() as u64));
            }
        }
        // Serialised here, off the reactor: 4,096 rows are megabytes of JSON.
        Ok((rows.len(), json_response(&GenerateResponse { rows })?))
    };
    let (n, resp) =
        if total > HEAVY_ITEMS as u64 { heavy(&st.heavy, work).await? } else { blocking(work).await? };
    st.stats.rows_generated.fetch_add(n as u64, Ordering::Relaxed);
    Ok(resp)
}
