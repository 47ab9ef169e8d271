//! # gauntlet-serve
//!
//! gauntlet's two HTTP servers. The policy server (`gauntlet serve policy`, module [`policy`])
//! puts a model behind the OpenAI Chat Completions API with batching, streaming, log-probs and
//! vLLM's token-id extensions. The rest of this page is about the environment server.
//!
//! The environment server (`gauntlet serve env`): every single-turn task and every multi-turn
//! environment or game of gauntlet, as JSON over HTTP, for trainers written in any language
//! (a verl or TRL reward function, an agent loop in Python).
//!
//! | route | what |
//! |---|---|
//! | `GET /health` | `{"status": "ok", "version", "sessions": <live count>}`; never needs the token |
//! | `GET /v1/tasks` | every task and environment: name, kind, seats, category, description, levels |
//! | `GET /v1/stats` | session and request counters |
//! | `POST /v1/generate` | `{task, n, seed, level}` or a list → dataset rows ([`generate`]) |
//! | `POST /v1/verify` | `{row or (task, problem), response}` or a list → verdicts ([`verify`]) |
//! | `POST /v1/sessions` | `{task, seed, level}` → a new episode ([`session_api`]) |
//! | `GET /v1/sessions/{id}` | the observation of the seat to act, or of `?seat=N` |
//! | `POST /v1/sessions/{id}/act` | `{response, seat?}` → feedback, next observation, returns |
//! | `DELETE /v1/sessions/{id}` | end an episode |
//! | `/openenv/{name}/...` | every task, environment and game as an OpenEnv environment ([`openenv`]) |
//!
//! Every error is `{"error": {"message", "type", "code"}}` with a 4xx/5xx status
//! ([`ApiError`]): malformed JSON and wrong field types 400, a missing or wrong bearer token 401,
//! an unknown task, session or route 404, an action on a finished episode 409, a body past
//! `max_body_bytes` 413, a full session store 503.
//!
//! ## Main types
//!
//! - [`EnvServerConfig`]: the settings (serde, every field defaulted).
//! - [`router`]: the axum [`Router`](axum::Router) for a config; [`bind`] + [`serve`] (or
//!   [`serve_with_shutdown`]) run it on a listener; [`run`] does everything for the CLI;
//!   [`router_with_envs`] also serves environments of your own.
//!
//! ## Design
//!
//! Handlers never run environment code on the reactor threads: generation, verification and
//! every `reset`/`act` run on tokio's blocking pool, so a batch of 4,096 verifications does not
//! stall the other connections. Sessions live in a sharded map, each behind its own lock (see
//! [`sessions`]). Every episode, native or OpenEnv, is a [`live::LiveEpisode`]: the episode
//! kernel's `gauntlet_episode::EpisodeRunner` (whose turn, the turn cap, the panic guard of
//! `act`, and the one rendering of a seat's user message that `gauntlet train` also uses)
//! behind the server's request checks, written once for both front ends. Environment calls run
//! under `catch_unwind` and a `CatchPanicLayer` guards every handler: a bug answers 500 and
//! closes at most the one session, never the server. Requests are decoded field by field so
//! messages name the field and the rejected value.
//!
//! The modules form no import circle longer than two files: the shared state ([`AppState`]),
//! the blocking helpers and the token check are leaf modules that the handlers import, and
//! only the router imports the handlers (`tests/serve/structure.rs` checks this).
//!
//! ## The CLI (wired in the `gauntlet` crate)
//!
//! ```text
//! gauntlet serve env [--host 127.0.0.1] [--port 8100] [--token T]
//!                    [--max-sessions 4096] [--idle-timeout 600] [--max-turns 1000]
//!                    [--max-body-bytes 8388608] [--max-batch 4096]
//! ```
//!
//! Each flag sets the [`EnvServerConfig`] field of the same name (`--idle-timeout` sets
//! `idle_timeout_secs`); `--token` should also be readable from `GAUNTLET_SERVE_TOKEN` so it
//! does not show in `ps`. The command is `gauntlet_serve::run(config, |addr| eprintln!(...))`.
//!
//! ## Example
//!
//! ```
//! use gauntlet_serve::{bind, serve, EnvServerConfig};
//! # #[tokio::main(flavor = "multi_thread", worker_threads = 2)]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let config = EnvServerConfig { port: 0, ..Default::default() };
//! let listener = bind(&config).await?;
//! let addr = listener.local_addr()?;
//! tokio::spawn(serve(config, listener));
//!
//! let health = reqwest::get(format!("http://{addr}/health")).await?.text().await?;
//! assert!(health.contains(r#""status":"ok""#));
//! # Ok(())
//! # }
//! ```
#![deny(missing_docs)]

mod app;
mod auth;
mod blocking;
pub mod body;
pub mod catalog;
mod config;
mod error;
pub mod generate;
pub mod live;
pub mod openenv;
pub mod policy;
mod server;
pub mod session_api;
pub mod sessions;
mod state;
pub mod verify;

pub use app::{router, router_with_envs};
pub use blocking::Heavy;
pub use config::EnvServerConfig;
pub use error::{ApiError, ApiResult, ServeError};
pub use policy::PolicyServerConfig;
pub use server::{bind, run, serve, serve_with_shutdown};
pub use state::{AppState, Stats};
