//! `gauntlet serve env`: the environment server (see the `gauntlet-serve` crate).

use clap::{Args, Subcommand};
use gauntlet_serve::EnvServerConfig;

/// What to serve.
#[derive(Debug, Subcommand)]
pub enum ServeCommand {
    /// Tasks, verifiers and episode sessions as JSON over HTTP.
    Env(EnvArgs),
}

/// Arguments of `gauntlet serve env`.
#[derive(Debug, Args)]
pub struct EnvArgs {
    /// Address to bind (`0.0.0.0` serves the network).
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Port (0 picks a free one).
    #[arg(long, default_value_t = 8100)]
    port: u16,
    /// Require `Authorization: Bearer TOKEN` on `/v1/*` (also read from `GAUNTLET_SERVE_TOKEN`).
    #[arg(long, env = "GAUNTLET_SERVE_TOKEN", hide_env_values = true)]
    token: Option<String>,
    /// Most live episode sessions.
    #[arg(long, default_value_t = 4096)]
    max_sessions: usize,
    /// Seconds before an untouched session is dropped.
    #[arg(long, default_value_t = 600.0)]
    idle_timeout: f64,
    /// Most `act` calls per session.
    #[arg(long, default_value_t = 1000)]
    max_turns: u32,
    /// Largest request body in bytes.
    #[arg(long, default_value_t = 8 << 20)]
    max_body_bytes: usize,
    /// Most rows per generate call and items per verify call.
    #[arg(long, default_value_t = 4096)]
    max_batch: usize,
}

/// Runs `gauntlet serve ...`.
pub fn exec(cmd: ServeCommand) -> anyhow::Result<()> {
    match cmd {
        ServeCommand::Env(a) => {
            let config = EnvServerConfig {
                host: a.host,
                port: a.port,
                token: a.token,
                max_sessions: a.max_sessions,
                idle_timeout_secs: a.idle_timeout,
                max_turns: a.max_turns,
                max_body_bytes: a.max_body_bytes,
                max_batch: a.max_batch,
                ..Default::default()
            };
            gauntlet_serve::run(config, |addr| eprintln!("gauntlet env server listening on http://{addr}"))?;
            Ok(())
        }
    }
}
