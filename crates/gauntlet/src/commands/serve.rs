//! `gauntlet serve env` and `gauntlet serve policy`: the environment server and the
//! OpenAI-compatible policy server (see the `gauntlet-serve` crate).

use std::path::{Path, PathBuf};

use anyhow::Context;

use clap::{Args, Subcommand};
use gauntlet_serve::{EnvServerConfig, PolicyServerConfig};

/// What to serve.
#[derive(Debug, Subcommand)]
pub enum ServeCommand {
    /// Tasks, verifiers and episode sessions as JSON over HTTP.
    Env(EnvArgs),
    /// A model behind the OpenAI Chat Completions API (batched, streaming, log-probs).
    Policy(PolicyArgs),
}

/// Arguments of `gauntlet serve policy`.
#[derive(Debug, Args)]
pub struct PolicyArgs {
    /// The model: `PATH` or `local:PATH` (a training run, a checkpoint, a Hugging Face model
    /// folder or a PEFT adapter folder) or `gguf:FILE`.
    #[arg(long)]
    model: String,
    /// A PEFT LoRA adapter folder (`adapter_config.json`, `adapter_model.safetensors`) applied
    /// to the model, e.g. a LoRA run's `final/`.
    #[arg(long)]
    adapter: Option<PathBuf>,
    /// Address to bind (`0.0.0.0` serves the network).
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Port (0 picks a free one).
    #[arg(long, default_value_t = 8000)]
    port: u16,
    /// The model's id in `/v1/models` (requests must name it; default: the folder's or file's name).
    #[arg(long)]
    name: Option<String>,
    /// Require `Authorization: Bearer KEY` on `/v1/*` (also read from `GAUNTLET_API_KEY`).
    #[arg(long, env = "GAUNTLET_API_KEY", hide_env_values = true)]
    api_key: Option<String>,
    /// Most choices sampled together in one batch.
    #[arg(long, default_value_t = 32)]
    max_batch: usize,
    /// Most requests waiting for the model; more answer 503.
    #[arg(long, default_value_t = 256)]
    max_queue: usize,
    /// Milliseconds an idle model waits after a request for others to batch with it.
    #[arg(long, default_value_t = 2)]
    batch_wait_ms: u64,
    /// `max_tokens` of requests that give none.
    #[arg(long, default_value_t = 256)]
    default_max_tokens: usize,
    /// Largest request body in bytes.
    #[arg(long, default_value_t = 4 << 20)]
    max_body_bytes: usize,
    /// Base of the seeds of requests that give none.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Append each finished episode (calls tagged `x-gauntlet-episode: ID`, then
    /// `POST /v1/episodes/ID/reward`) to this JSONL file, exactly as sampled.
    #[arg(long, value_name = "FILE.jsonl")]
    traces: Option<PathBuf>,
    /// Seconds a tagged episode may go without a call before it is abandoned (dropped, logged).
    #[arg(long, value_name = "SECS", default_value_t = 600)]
    episode_timeout: u64,
    /// CPU threads for the model (0 = all cores).
    #[arg(long, default_value_t = 0)]
    threads: usize,
}

/// Loads the model of `--model` (plus `--adapter`) and the name it is served under by default
/// (the file's stem or the folder's name).
fn load_model(model: &str, adapter: Option<&Path>) -> anyhow::Result<(gauntlet_model::ChatModel, String)> {
    let spec = gauntlet_rollout::PolicySpec::parse_model(model).context("bad `--model`")?;
    let chat = crate::policy::load_model(&spec, adapter)?;
    Ok((chat, spec.short_name()))
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
        ServeCommand::Policy(a) => {
            super::compute::setup_compute(a.threads)?;
            let (chat, stem) = load_model(&a.model, a.adapter.as_deref())?;
            let config = PolicyServerConfig {
                host: a.host,
                port: a.port,
                name: a.name.unwrap_or(stem),
                api_key: a.api_key,
                max_batch: a.max_batch,
                max_queue: a.max_queue,
                batch_wait_ms: a.batch_wait_ms,
                max_body_bytes: a.max_body_bytes,
                default_max_tokens: a.default_max_tokens,
                seed: a.seed,
                traces: a.traces.clone(),
                episode_timeout_s: a.episode_timeout,
                ..Default::default()
            };
            let name = config.name.clone();
            gauntlet_serve::policy::run(config, chat, |addr| {
                eprintln!("gauntlet policy server listening on http://{addr}/v1 (model `{name}`)")
            })?;
            Ok(())
        }
    }
}
