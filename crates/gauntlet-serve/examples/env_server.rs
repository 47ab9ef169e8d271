//! A stand-alone environment server, for benchmarks and for trying the API before the CLI's
//! `gauntlet serve env` is wired:
//!
//! ```sh
//! cargo run --release -p gauntlet-serve --example env_server -- --port 8100 [--host H] [--token T]
//!     [--max-sessions N] [--idle-timeout SECS] [--max-turns N] [--max-batch N] [--workers N]
//! ```
//!
//! `--workers` sets the tokio worker threads (default: one per core).

use flags::{parse, Args};
use gauntlet_serve::{bind, serve_with_shutdown, EnvServerConfig};

mod flags {
    //! Tiny `--flag value` parsing (the examples stay free of a CLI dependency).

    /// Flags as `(name, value)` pairs.
    pub type Args = Vec<(String, String)>;

    /// Parse `--name value` pairs; anything else is an error message.
    pub fn parse() -> Result<Args, String> {
        let mut out = Vec::new();
        let mut it = std::env::args().skip(1);
        while let Some(flag) = it.next() {
            let name = flag.strip_prefix("--").ok_or_else(|| format!("unexpected argument `{flag}`"))?;
            let value = it.next().ok_or_else(|| format!("`--{name}` needs a value"))?;
            out.push((name.to_string(), value));
        }
        Ok(out)
    }
}

fn config(args: &Args) -> Result<(EnvServerConfig, Option<usize>), String> {
    let mut c = EnvServerConfig::default();
    let mut workers = None;
    for (k, v) in args {
        let bad = |e: &dyn std::fmt::Display| format!("`--{k} {v}`: {e}");
        match k.as_str() {
            "host" => c.host = v.clone(),
            "port" => c.port = v.parse().map_err(|e| bad(&e))?,
            "token" => c.token = Some(v.clone()),
            "max-sessions" => c.max_sessions = v.parse().map_err(|e| bad(&e))?,
            "idle-timeout" => c.idle_timeout_secs = v.parse().map_err(|e| bad(&e))?,
            "max-turns" => c.max_turns = v.parse().map_err(|e| bad(&e))?,
            "max-batch" => c.max_batch = v.parse().map_err(|e| bad(&e))?,
            "max-body-bytes" => c.max_body_bytes = v.parse().map_err(|e| bad(&e))?,
            "workers" => workers = Some(v.parse().map_err(|e| bad(&e))?),
            other => return Err(format!("unknown flag `--{other}`")),
        }
    }
    Ok((c, workers))
}

fn main() {
    let (config, workers) = match parse().and_then(|a| config(&a)) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let mut rt = tokio::runtime::Builder::new_multi_thread();
    if let Some(w) = workers {
        rt.worker_threads(w);
    }
    let rt = rt.enable_all().build().expect("a tokio runtime");
    let result = rt.block_on(async move {
        let listener = bind(&config).await?;
        eprintln!("gauntlet env server listening on http://{}", listener.local_addr()?);
        serve_with_shutdown(config, listener, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
    });
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
