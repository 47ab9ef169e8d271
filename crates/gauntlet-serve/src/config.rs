//! The server's settings: one serde struct with a default for every field.

use serde::{Deserialize, Serialize};
use std::time::Duration;

/// Settings of the environment server.
///
/// Every field has a default (see [`EnvServerConfig::default`]), so a TOML or JSON config may set
/// only what it changes: `{"port": 9000, "token": "s3cret"}` is a complete config. Unknown fields
/// are rejected so that a typo does not silently fall back to a default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "snake_case")]
pub struct EnvServerConfig {
    /// Address to bind (default `127.0.0.1`: loopback only; use `0.0.0.0` to serve a network).
    pub host: String,
    /// Port to bind (default 8100; 0 picks a free port).
    pub port: u16,
    /// Bearer token required on every `/v1/*` route (`Authorization: Bearer <token>`); `None`
    /// (default) serves without authentication. `/health` is always open.
    pub token: Option<String>,
    /// Most episode sessions alive at once (default 4096); creating one more answers 503
    /// `too_many_sessions` until one is deleted, finishes its idle time or expires.
    pub max_sessions: usize,
    /// Seconds a session may stay untouched before it is dropped (default 600). A background
    /// sweeper removes expired sessions; a request for an expired one answers 404.
    pub idle_timeout_secs: f64,
    /// Most `act` calls per session (default 1000), on top of each environment's own turn limit.
    /// The call that reaches the cap ends the episode with `truncated: true`.
    pub max_turns: u32,
    /// Largest request body in bytes (default 8 MiB); larger bodies answer 413.
    pub max_body_bytes: usize,
    /// Most rows one `/v1/generate` call may produce and most items one `/v1/verify` call may
    /// score (default 4096).
    pub max_batch: usize,
    /// Largest `response` text accepted by `act` and `verify`, in bytes (default 1 MiB).
    pub max_response_bytes: usize,
}

impl Default for EnvServerConfig {
    fn default() -> Self {
        EnvServerConfig {
            host: "127.0.0.1".into(),
            port: 8100,
            token: None,
            max_sessions: 4096,
            idle_timeout_secs: 600.0,
            max_turns: 1000,
            max_body_bytes: 8 << 20,
            max_batch: 4096,
            max_response_bytes: 1 << 20,
        }
    }
}

impl EnvServerConfig {
    /// The idle timeout as a [`Duration`] (negative or non-finite values count as one second;
    /// a value beyond 100 years counts as 100 years).
    pub fn idle_timeout(&self) -> Duration {
        let s = self.idle_timeout_secs;
        if !s.is_finite() || s <= 0.0 {
            return Duration::from_secs(1);
        }
        Duration::from_secs_f64(s.min(100.0 * 365.0 * 86_400.0))
    }

    /// How often the sweeper looks for expired sessions: a quarter of the idle timeout, between
    /// 10 ms and 30 s.
    pub fn sweep_interval(&self) -> Duration {
        (self.idle_timeout() / 4).clamp(Duration::from_millis(10), Duration::from_secs(30))
    }

    /// `host:port`, the address [`crate::bind`] listens on.
    pub fn addr(&self) -> String {
        if self.host.contains(':') && !self.host.starts_with('[') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_configs_take_defaults() {
        let c: EnvServerConfig = serde_json::from_str(r#"{"port": 9000}"#).unwrap();
        assert_eq!(c.port, 9000);
        assert_eq!(c.max_sessions, EnvServerConfig::default().max_sessions);
        assert!(serde_json::from_str::<EnvServerConfig>(r#"{"prot": 1}"#).is_err());
    }

    #[test]
    fn durations_are_sane() {
        let c = EnvServerConfig { idle_timeout_secs: 0.2, ..Default::default() };
        assert_eq!(c.sweep_interval(), Duration::from_millis(50));
        let c = EnvServerConfig { idle_timeout_secs: f64::NAN, ..Default::default() };
        assert_eq!(c.idle_timeout(), Duration::from_secs(1));
        let c = EnvServerConfig { host: "::1".into(), port: 7, ..Default::default() };
        assert_eq!(c.addr(), "[::1]:7");
    }
}
