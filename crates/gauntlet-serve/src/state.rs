//! What every handler of the environment server shares: [`AppState`] and the request
//! counters [`Stats`].
//!
//! A leaf of the module graph: it holds the config, the session store, the catalog and the
//! heavy-job permits, and imports no handler, so handlers import it without a circle.

use crate::blocking::Heavy;
use crate::catalog::CatalogEntry;
use crate::config::EnvServerConfig;
use crate::sessions::SessionStore;
use axum::extract::FromRef;
use gauntlet_envs::EnvEntry;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::Instant;

/// Request counters (the session counters live in the store).
#[derive(Debug, Default)]
pub struct Stats {
    /// Rows produced by `/v1/generate`.
    pub rows_generated: AtomicU64,
    /// Items scored by `/v1/verify`.
    pub items_verified: AtomicU64,
    /// Successful `act` calls.
    pub acts: AtomicU64,
    /// Handler panics caught (each answered 500; there should be none).
    pub panics: AtomicU64,
}

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    /// The settings the router was built with.
    pub config: Arc<EnvServerConfig>,
    /// Live sessions.
    pub sessions: Arc<SessionStore>,
    /// Request counters.
    pub stats: Arc<Stats>,
    /// Environments served on top of the registries (see [`crate::router_with_envs`]).
    pub extra_envs: Arc<Vec<EnvEntry>>,
    /// The `/v1/tasks` listing, built once.
    pub catalog: Arc<Vec<CatalogEntry>>,
    /// When the router was built.
    pub started: Instant,
    /// Permits for heavy jobs (big batches, big bodies): one fewer than the cores, at least one.
    pub heavy: Heavy,
}

impl AppState {
    /// The state of a router for `config` serving `extra` environments besides the registries.
    pub fn new(config: EnvServerConfig, extra: Vec<EnvEntry>) -> AppState {
        AppState {
            sessions: Arc::new(SessionStore::new(config.max_sessions, config.idle_timeout())),
            config: Arc::new(config),
            stats: Arc::new(Stats::default()),
            catalog: Arc::new(crate::catalog::entries(&extra)),
            extra_envs: Arc::new(extra),
            started: Instant::now(),
            heavy: Heavy::for_this_machine(),
        }
    }
}

/// Lets extractors that only need the heavy-job permits (the JSON body reader) take them from
/// the state without knowing it.
impl FromRef<AppState> for Heavy {
    fn from_ref(st: &AppState) -> Heavy {
        st.heavy.clone()
    }
}
