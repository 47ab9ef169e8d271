//! The episode side of a trace-recording policy server, as a rollout worker sees it: its health
//! and `POST /v1/episodes/{id}/reward`, where the outcome of an episode whose calls were tagged
//! `x-gauntlet-episode: ID` (an [`crate::OpenAiPolicy`] with an episode tag) is reported.
//!
//! A training run with `[serve]` and `rl.source = "agents"` trains on the episodes reported
//! here (docs/serve-policy.md, "Training any agent"); `gauntlet rollout --trainer URL` plays
//! gauntlet's own episodes through it from another process. [`EpisodeEndpoint`] is the small
//! blocking client of those two routes; [`EpisodeReport`] the body of a report, built from an
//! [`Episode`] by [`EpisodeReport::of`] (the learner slot's return and success, by the kernel's
//! one rule, [`crate::outcome`]).
//!
//! Errors keep what the caller needs to decide: [`EndpointError::Unreachable`] (no connection,
//! a timeout: the server went away) apart from [`EndpointError::Refused`] (an HTTP error with the
//! server's own message, e.g. `409 reward_reported`), never swallowed.
//!
//! ```no_run
//! use gauntlet_rollout::endpoint::{EpisodeEndpoint, EpisodeReport};
//! let server = EpisodeEndpoint::new("http://127.0.0.1:8000", None, std::time::Duration::from_secs(30)).unwrap();
//! println!("serving {}", server.health().unwrap()["model"]);
//! let report =
//!     EpisodeReport { reward: 1.0, success: true, task: "caesar".into(), seed: 7, level: 1, ..Default::default() };
//! server.report("worker-0-3", &report).unwrap();
//! ```

use std::time::Duration;

use serde_json::{json, Value};

use crate::openai::{check_url, describe, server_message};
use crate::{Episode, OpenAiError};

/// Why a call to the endpoint failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum EndpointError {
    /// No answer: the connection was refused or broke, or the call timed out.
    #[error("{method} {url}: {reason}")]
    Unreachable {
        /// `GET` or `POST`.
        method: &'static str,
        /// The URL called.
        url: String,
        /// What the HTTP client said.
        reason: String,
    },
    /// The server answered with an HTTP error.
    #[error("{method} {url}: {status} {message}")]
    Refused {
        /// `GET` or `POST`.
        method: &'static str,
        /// The URL called.
        url: String,
        /// The HTTP status.
        status: u16,
        /// The server's `error.message` (else the start of its body).
        message: String,
    },
    /// The call was not made (a malformed episode id) or its answer is not JSON.
    #[error("{0}")]
    Invalid(String),
}

/// The outcome of one episode, as `POST /v1/episodes/{id}/reward` takes it: the return paid on
/// the episode's last call, success, and the problem (`task`, `seed`, `level`; episodes of one
/// problem form a group for group-relative advantages), and per call of the learner the
/// environment's verdict (format refused, move refused) and the state it acted in.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EpisodeReport {
    /// The learner's return.
    pub reward: f64,
    /// Whether the learner succeeded (goal, correct answer, win).
    pub success: bool,
    /// The task, environment or game.
    pub task: String,
    /// The problem's seed.
    pub seed: u64,
    /// The problem's level (1..=5).
    pub level: u8,
    /// Per learner call (its turns, in order): the environment refused the answer's format.
    pub format_errors: Vec<bool>,
    /// Per learner call: the environment refused the move.
    pub invalid: Vec<bool>,
    /// Per learner call: the state it acted in (GiGPO's anchor).
    pub anchors: Vec<String>,
}

impl EpisodeReport {
    /// The report of `e` for policy slot `slot` (its return and success by [`crate::outcome`];
    /// the flags and anchors of the slot's turns, one per call it made).
    pub fn of(e: &Episode, slot: usize) -> Self {
        let o = crate::outcome(e, slot);
        let mine: Vec<&gauntlet_episode::Turn> = e.turns.iter().filter(|t| t.policy == slot).collect();
        EpisodeReport {
            reward: o.reward,
            success: o.success,
            task: e.spec.env.clone(),
            seed: e.spec.seed,
            level: e.spec.level,
            format_errors: mine.iter().map(|t| t.format_error).collect(),
            invalid: mine.iter().map(|t| t.invalid).collect(),
            anchors: mine.iter().map(|t| t.anchor.clone()).collect(),
        }
    }

    /// The JSON body: `{"reward", "success", "task", "seed", "level"}`, plus `format_errors`,
    /// `invalid` and `anchors` when they hold anything.
    pub fn to_json(&self) -> Value {
        let mut body = json!({"reward": self.reward, "success": self.success, "task": self.task,
                              "seed": self.seed, "level": self.level});
        if self.format_errors.iter().any(|&f| f) {
            body["format_errors"] = json!(self.format_errors);
        }
        if self.invalid.iter().any(|&f| f) {
            body["invalid"] = json!(self.invalid);
        }
        if self.anchors.iter().any(|a| !a.is_empty()) {
            body["anchors"] = json!(self.anchors);
        }
        body
    }
}

/// A blocking client of a policy server's health and episode-reward routes (see the module doc).
pub struct EpisodeEndpoint {
    root: String,
    api_key: Option<String>,
    client: reqwest::Client,
    runtime: Option<tokio::runtime::Runtime>,
}

impl Drop for EpisodeEndpoint {
    fn drop(&mut self) {
        // Dropping a runtime blocks, which panics inside another runtime; this does not.
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }
}

impl EpisodeEndpoint {
    /// A client of the server at `url` (`http://HOST:PORT`; a trailing `/` or `/v1` is dropped),
    /// sending `api_key` as a bearer token when given; each call times out after `timeout`.
    pub fn new(url: &str, api_key: Option<String>, timeout: Duration) -> Result<Self, OpenAiError> {
        let root = url.trim_end_matches('/');
        let root = root.strip_suffix("/v1").unwrap_or(root).trim_end_matches('/').to_string();
        check_url(&root).map_err(|reason| OpenAiError::Config(format!("bad server URL: {reason}")))?;
        if timeout.is_zero() {
            return Err(OpenAiError::Config("the request timeout must be positive".into()));
        }
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| OpenAiError::Client(e.to_string()))?;
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout.min(Duration::from_secs(10)))
            .build()
            .map_err(|e| OpenAiError::Client(e.to_string()))?;
        Ok(EpisodeEndpoint { root, api_key, client, runtime: Some(runtime) })
    }

    /// The server's root URL (`http://HOST:PORT`).
    pub fn root(&self) -> &str {
        &self.root
    }

    /// The OpenAI-compatible base URL (`http://HOST:PORT/v1`).
    pub fn base_url(&self) -> String {
        format!("{}/v1", self.root)
    }

    /// `GET /health`: the server's JSON (`model`, `policy_version`, episode counts, …).
    pub fn health(&self) -> Result<Value, EndpointError> {
        self.call("GET", format!("{}/health", self.root), None)
    }

    /// `POST /v1/episodes/{id}/reward` with `report`; the server's JSON answer. `id` must be what
    /// the episode's calls were tagged with (ASCII letters, digits, `.`, `_`, `-`).
    pub fn report(&self, id: &str, report: &EpisodeReport) -> Result<Value, EndpointError> {
        let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
        if id.is_empty() || id.len() > 128 || !id.chars().all(plain) {
            return Err(EndpointError::Invalid(format!(
                "episode id `{id}`: expected 1 to 128 ASCII letters, digits, `.`, `_` or `-`"
            )));
        }
        self.call("POST", format!("{}/v1/episodes/{id}/reward", self.root), Some(report.to_json()))
    }

    /// One call; its JSON answer or the error.
    fn call(&self, method: &'static str, url: String, body: Option<Value>) -> Result<Value, EndpointError> {
        let mut req = match &body {
            Some(b) => self.client.post(&url).json(b),
            None => self.client.get(&url),
        };
        if let Some(key) = &self.api_key {
            req = req.bearer_auth(key);
        }
        let unreachable =
            |e: &reqwest::Error| EndpointError::Unreachable { method, url: url.clone(), reason: describe(e) };
        let work = async {
            let resp = req.send().await.map_err(|e| unreachable(&e))?;
            let status = resp.status();
            let text = resp.text().await.map_err(|e| unreachable(&e))?;
            Ok::<_, EndpointError>((status, text))
        };
        let rt = self.runtime.as_ref().expect("the runtime lives as long as the client");
        // `block_on` panics on a thread that already runs a runtime: use a helper thread there.
        let (status, text) = if tokio::runtime::Handle::try_current().is_ok() {
            std::thread::scope(|s| s.spawn(|| rt.block_on(work)).join()).map_err(|_| {
                EndpointError::Invalid(format!("{method} {url}: the request's thread panicked"))
            })??
        } else {
            rt.block_on(work)?
        };
        if !status.is_success() {
            return Err(EndpointError::Refused {
                method,
                url,
                status: status.as_u16(),
                message: server_message(&text),
            });
        }
        serde_json::from_str(&text).map_err(|e| {
            EndpointError::Invalid(format!(
                "{method} {url}: the answer is not JSON ({e}): {}",
                server_message(&text)
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::extract::Path;
    use axum::http::StatusCode;
    use axum::response::IntoResponse;
    use axum::routing::{get, post};
    use std::sync::{Arc, Mutex};

    /// The reports a fake trainer accepted: `(episode id, body)`.
    type Reports = Arc<Mutex<Vec<(String, Value)>>>;

    /// A fake trainer: `/health`, and reward reports recorded (the second for an id answers 409).
    fn fake_trainer() -> (String, Reports) {
        let seen: Reports = Arc::default();
        let log = seen.clone();
        let app = axum::Router::new()
            .route("/health", get(|| async { axum::Json(json!({"status": "ok", "model": "learner"})) }))
            .route(
                "/v1/episodes/{id}/reward",
                post(move |Path(id): Path<String>, axum::Json(body): axum::Json<Value>| {
                    let log = log.clone();
                    async move {
                        let mut log = log.lock().unwrap();
                        if log.iter().any(|(i, _)| *i == id) {
                            let e = json!({"error": {"message": format!("episode `{id}` already has its reward"),
                                                     "code": "reward_reported"}});
                            return (StatusCode::CONFLICT, axum::Json(e)).into_response();
                        }
                        log.push((id, body));
                        axum::Json(json!({"ok": true})).into_response()
                    }
                }),
            );
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                tx.send(listener.local_addr().unwrap()).unwrap();
                axum::serve(listener, app).await.unwrap();
            });
        });
        (format!("http://{}", rx.recv().unwrap()), seen)
    }

    #[test]
    fn reports_reach_the_route_and_refusals_keep_the_servers_message() {
        let (url, seen) = fake_trainer();
        // A trailing `/v1/` is the same server.
        let ep = EpisodeEndpoint::new(&format!("{url}/v1/"), None, Duration::from_secs(5)).unwrap();
        assert_eq!(ep.root(), url);
        assert_eq!(ep.base_url(), format!("{url}/v1"));
        assert_eq!(ep.health().unwrap()["model"], "learner");
        let report = EpisodeReport {
            reward: 0.5,
            success: false,
            task: "caesar".into(),
            seed: 9,
            level: 2,
            ..Default::default()
        };
        ep.report("w-0-1", &report).unwrap();
        let flagged = EpisodeReport {
            format_errors: vec![false, true],
            invalid: vec![false, false],
            anchors: vec!["a".into(), "b".into()],
            ..report.clone()
        };
        ep.report("w-0-2", &flagged).unwrap();
        assert_eq!(
            seen.lock().unwrap().clone(),
            vec![
                (
                    "w-0-1".to_string(),
                    json!({"reward": 0.5, "success": false, "task": "caesar", "seed": 9, "level": 2})
                ),
                (
                    "w-0-2".to_string(),
                    json!({"reward": 0.5, "success": false, "task": "caesar", "seed": 9, "level": 2,
                           "format_errors": [false, true], "anchors": ["a", "b"]})
                )
            ]
        );
        match ep.report("w-0-1", &report).unwrap_err() {
            EndpointError::Refused { status, message, .. } => {
                assert_eq!((status, message.as_str()), (409, "episode `w-0-1` already has its reward"));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(ep.report("a/b", &report), Err(EndpointError::Invalid(_))));
        assert_eq!(seen.lock().unwrap().len(), 2);
    }

    #[test]
    fn a_server_that_is_gone_is_unreachable_and_bad_urls_say_why() {
        // Bind a port, then free it: nothing listens there.
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let ep =
            EpisodeEndpoint::new(&format!("http://127.0.0.1:{port}"), None, Duration::from_secs(5)).unwrap();
        let e = ep.health().unwrap_err();
        assert!(matches!(e, EndpointError::Unreachable { .. }), "{e:?}");
        assert!(e.to_string().contains("cannot connect"), "{e}");
        for (bad, why) in [("127.0.0.1:8000", "http://"), ("https://h:1", "HTTPS")] {
            let err = EpisodeEndpoint::new(bad, None, Duration::from_secs(1)).err().unwrap().to_string();
            assert!(err.contains(why), "{bad}: {err}");
        }
    }
}
